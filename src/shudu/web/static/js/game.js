// A game in play: the player's digits and pencil marks, with undo and redo.
//
// A move is a list of changes {cell, before, after}; a cell's state is {v, corner, centre}
// (its digit, 0 for none, and its two kinds of pencil marks). Placing a digit also removes it
// from the pencil marks of the cell's peers, in the same move, so one undo takes both back.

import { cellOf } from "./rules.js";

const HISTORY_LIMIT = 2000;

// The cells a rule keeps apart (no digit twice): a killer cage, an all-different group.
const APART = new Set(["cage", "all-different"]);

export function peersOf(puzzle) {
  const n2 = puzzle.size * puzzle.size;
  const peers = Array.from({ length: n2 }, () => new Set());
  for (const house of puzzle.houses) {
    for (const a of house.cells) for (const b of house.cells) if (a !== b) peers[a].add(b);
  }
  if (puzzle.links) puzzle.links.forEach((linked, a) => linked.forEach((b) => peers[a].add(b)));
  for (const rule of puzzle.rules || []) {
    if (!APART.has(rule.rule) || !rule.cells) continue;
    const cells = rule.cells.map((name) => cellOf(name, puzzle.size));
    for (const a of cells) for (const b of cells) if (a !== b) peers[a].add(b);
  }
  return peers;
}

export class Game {
  constructor(puzzle, saved = null) {
    const n2 = puzzle.size * puzzle.size;
    this.puzzle = puzzle;
    this.id = saved ? saved.id : null;
    this.version = saved ? saved.version : 0; // the saved version this state is based on
    this.level = saved ? saved.level : null;
    this.givens = puzzle.givens;
    this.entries = saved ? [...saved.entries] : new Array(n2).fill(0);
    this.corner = saved ? saved.corner.map((m) => [...m]) : Array.from({ length: n2 }, () => []);
    this.centre = saved ? saved.centre.map((m) => [...m]) : Array.from({ length: n2 }, () => []);
    this.undoStack = saved ? saved.history.undo : [];
    this.redoStack = saved ? saved.history.redo : [];
    this.elapsed = saved ? saved.elapsed_ms : 0;
    this.finished = saved ? saved.finished : false;
    this.peers = peersOf(puzzle);
    this.hasRules = Boolean(puzzle.rules && puzzle.rules.length);
    // the killer cages with a total, and what the first digit is worth (1, or 0 for digits 0…n-1)
    this.cages = (puzzle.rules || [])
      .filter((rule) => rule.rule === "cage" && rule.total && rule.cells)
      .map((rule) => ({ cells: rule.cells.map((name) => cellOf(name, puzzle.size)), total: rule.total }));
    const digits = (puzzle.rules || []).find((rule) => rule.rule === "digits");
    this.base = digits ? digits.from : 1;
    this.solution = null;
    this.autoNotes = true; // placing a digit removes it from its peers' pencil marks
  }

  get size() {
    return this.puzzle.size;
  }

  value(cell) {
    return this.givens[cell] || this.entries[cell];
  }

  isGiven(cell) {
    return this.givens[cell] !== 0;
  }

  state(cell) {
    return { v: this.entries[cell], corner: [...this.corner[cell]], centre: [...this.centre[cell]] };
  }

  restore(cell, state) {
    this.entries[cell] = state.v;
    this.corner[cell] = [...state.corner];
    this.centre[cell] = [...state.centre];
  }

  // Apply an action to the cells: {kind: "digit"|"corner"|"centre", digit} or {kind: "erase"}.
  // Returns whether anything changed.
  act(cells, action) {
    const targets = cells.filter((cell) => !this.isGiven(cell));
    if (!targets.length) return false;
    const before = new Map();
    const touch = (cell) => {
      if (!before.has(cell)) before.set(cell, this.state(cell));
    };
    const d = action.digit;
    if (action.kind === "digit") {
      // typing the digit a cell already holds clears it, as on paper apps
      const clear = targets.every((cell) => this.entries[cell] === d);
      for (const cell of targets) {
        touch(cell);
        this.entries[cell] = clear ? 0 : d;
        if (!clear && this.autoNotes) {
          for (const peer of this.peers[cell]) {
            if (this.corner[peer].includes(d) || this.centre[peer].includes(d)) {
              touch(peer);
              this.corner[peer] = this.corner[peer].filter((m) => m !== d);
              this.centre[peer] = this.centre[peer].filter((m) => m !== d);
            }
          }
        }
      }
    } else if (action.kind === "corner" || action.kind === "centre") {
      const marks = action.kind === "corner" ? this.corner : this.centre;
      const open = targets.filter((cell) => !this.entries[cell]);
      const remove = open.length > 0 && open.every((cell) => marks[cell].includes(d));
      for (const cell of open) {
        touch(cell);
        marks[cell] = remove ? marks[cell].filter((m) => m !== d) : [...new Set([...marks[cell], d])].sort((a, b) => a - b);
      }
    } else if (action.kind === "erase") {
      for (const cell of targets) {
        touch(cell);
        // erase the digit first; a second erase clears the pencil marks
        if (this.entries[cell]) this.entries[cell] = 0;
        else {
          this.corner[cell] = [];
          this.centre[cell] = [];
        }
      }
    }
    const changes = [];
    for (const [cell, was] of before) {
      const now = this.state(cell);
      if (JSON.stringify(now) !== JSON.stringify(was)) changes.push({ cell, before: was, after: now });
    }
    if (!changes.length) return false;
    this.undoStack.push(changes);
    if (this.undoStack.length > HISTORY_LIMIT) this.undoStack.splice(0, this.undoStack.length - HISTORY_LIMIT);
    this.redoStack = [];
    return true;
  }

  // Place digits from elsewhere (a hint step, the solution) as one undoable move.
  place(placements) {
    const changes = [];
    for (const { cell, digit } of placements) {
      if (this.isGiven(cell) || this.entries[cell] === digit) continue;
      const was = this.state(cell);
      this.entries[cell] = digit;
      changes.push({ cell, before: was, after: this.state(cell) });
    }
    if (!changes.length) return false;
    this.undoStack.push(changes);
    this.redoStack = [];
    return true;
  }

  undo() {
    const move = this.undoStack.pop();
    if (!move) return null;
    for (const change of move) this.restore(change.cell, change.before);
    this.redoStack.push(move);
    return move;
  }

  redo() {
    const move = this.redoStack.pop();
    if (!move) return null;
    for (const change of move) this.restore(change.cell, change.after);
    this.undoStack.push(move);
    return move;
  }

  // Cells whose digit a peer also holds, and the cells of a killer cage whose digits pass its
  // total, or fill it without reaching it.
  conflicts() {
    const bad = new Set();
    const n2 = this.size * this.size;
    for (let cell = 0; cell < n2; cell++) {
      const v = this.value(cell);
      if (!v) continue;
      for (const peer of this.peers[cell]) {
        if (this.value(peer) === v) {
          bad.add(cell);
          bad.add(peer);
        }
      }
    }
    for (const { cells, total } of this.cages) {
      const filled = cells.filter((cell) => this.value(cell));
      const sum = filled.reduce((t, cell) => t + this.value(cell) + this.base - 1, 0);
      if (sum > total || (filled.length === cells.length && sum !== total)) filled.forEach((cell) => bad.add(cell));
    }
    return bad;
  }

  isComplete() {
    return this.givens.every((g, cell) => g || this.entries[cell]);
  }

  isSolved() {
    if (!this.isComplete() || this.conflicts().size) return false;
    // a puzzle with rules is solved when it matches its solution (which the server found with the
    // rules); a classic one, when it is full and clash-free
    if (!this.solution) return !this.hasRules;
    return this.solution.every((d, cell) => this.value(cell) === d);
  }

  // Entries that differ from the solution.
  wrong() {
    if (!this.solution) return [];
    return this.entries.flatMap((d, cell) => (d && d !== this.solution[cell] ? [cell] : []));
  }

  toSave() {
    return {
      entries: this.entries,
      corner: this.corner,
      centre: this.centre,
      history: { undo: this.undoStack, redo: this.redoStack },
      elapsed_ms: Math.round(this.elapsed),
      finished: this.finished,
    };
  }
}
