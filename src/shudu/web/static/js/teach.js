// The teaching view: hints at three levels, the explanation step by step, and the replay of the
// enumeration solver's search.

import { api } from "./api.js";
import { changed, render } from "./app.js";
import { keepStats } from "./finish.js";
import { Replay } from "./replay.js";
import { $, page } from "./state.js";

// --- hints and the explanation ---------------------------------------------------------------

// The candidates of every empty cell (bit d for digit d): no digit a peer holds, and, where
// ``marks`` gives a cell some, only those; ``removed`` (a Map cell → digits) takes more away.
export function candidatesAt(values, marks = null, removed = null) {
  const game = page.game;
  const n = game.size;
  const all = ((1 << n) - 1) << 1;
  return values.map((value, cell) => {
    if (value) return 0;
    let mask = all;
    for (const peer of game.peers[cell]) if (values[peer]) mask &= ~(1 << values[peer]);
    if (marks && marks[cell].length) mask &= marks[cell].reduce((m, d) => m | (1 << d), 0);
    for (const d of (removed && removed.get(cell)) || []) mask &= ~(1 << d);
    return mask;
  });
}

// The links of a step's structure: a chain's or loop's links, or a net's implications (each line
// from the lines it follows from: solid where the candidate is set, dashed where it is removed).
function stepLinks(structure) {
  if (!structure) return null;
  const node = (end) => ({ at: end.at || [], digit: (end.digits || [end.digit])[0], on: end.on });
  if (structure.type === "net") {
    const edges = [];
    const nodes = [];
    for (const branch of structure.branches || []) {
      const lines = branch.lines || [];
      const ends = lines.map((line) => ({ at: Number.isInteger(line.at) ? [line.at] : [], digit: line.digit, on: line.on }));
      ends.forEach((end, k) => {
        if (!end.at.length) return;
        nodes.push(end);
        for (const b of lines[k].because || []) {
          if (ends[b] && ends[b].at.length) edges.push({ from: ends[b], to: end, kind: end.on ? "strong" : "weak" });
        }
      });
    }
    return { edges, nodes };
  }
  const edges = (structure.links || []).map((link) => ({ from: node(link.from), to: node(link.to), kind: link.kind }));
  return { edges, nodes: (structure.nodes || []).map(node) };
}

function drawStep(step, candidates = null) {
  const puzzle = page.game.puzzle;
  const area = new Set();
  for (const name of step.houses || []) {
    const house = puzzle.houses.find((h) => h.name === name);
    if (house) house.cells.forEach((cell) => area.add(cell));
  }
  const eliminations = new Map();
  for (const { cell, digit } of step.eliminations) eliminations.set(cell, [...(eliminations.get(cell) || []), digit]);
  return {
    cells: new Set(step.cells),
    area,
    placements: new Map(step.placements.map(({ cell, digit }) => [cell, digit])),
    eliminations,
    candidates,
    links: candidates ? stepLinks(step.structure) : null,
  };
}

const HINT_LEVELS = ["vague", "technique", "step"];

// Each press of Hint tells more: where to look, then the technique, then the whole step.
export async function hint() {
  const game = page.game;
  if (!game || page.paused) return;
  const level = page.hint ? Math.min(page.hint.level + 1, 3) : 1;
  let data;
  const request = { puzzle: game.puzzle.json, entries: game.entries, level: HINT_LEVELS[level - 1] };
  if (game.centre.some((marks) => marks.length)) request.pencil = game.centre; // centre marks are candidates
  try {
    data = await api("/api/hint", request);
  } catch (error) {
    $("hint-text").textContent = error.message;
    return;
  }
  const text = data.text ? data.text[0].toUpperCase() + data.text.slice(1) : "";
  if (data.mistakes.length && data.marks) {
    page.badMarks = new Set(data.mistakes);
    page.hint = null;
    $("hint-text").textContent = `${text}. Fix the marks first.`;
    render();
    return;
  }
  if (data.mistakes.length) {
    page.wrong = new Set(data.mistakes);
    page.hint = null;
    $("hint-text").textContent = `${text}. Fix ${data.mistakes.length === 1 ? "it" : "them"} first.`;
    render();
    return;
  }
  if (!data.step) {
    page.hint = null;
    $("hint-text").textContent = data.solved ? "The puzzle is already solved." : text || "No step found.";
    return;
  }
  if (level === 1) {
    page.stats.hints++;
    keepStats();
  }
  page.hint = { data, level };
  const drawn = drawStep(data.step);
  const none = { placements: new Map(), eliminations: new Map() };
  if (level === 1) {
    // only the area, never the cell itself: the step's first house, else the box (or region) of
    // its first cell
    const { houses, region } = page.game.puzzle;
    const named = drawn.area.size && houses.find((h) => h.name === data.step.houses[0]);
    const first = data.step.cells[0];
    const box = first === undefined ? [] : region.flatMap((r, cell) => (r === region[first] ? [cell] : []));
    const area = new Set(named ? named.cells : box);
    page.step = { ...none, area, cells: new Set() };
  } else if (level === 2) page.step = { ...drawn, ...none };
  else {
    const values = game.entries.map((e, cell) => game.value(cell));
    page.step = drawStep(data.step, candidatesAt(values, game.centre));
  }
  const more = level < 3 ? " (Hint again for more.)" : "";
  $("hint-text").textContent = `${text}.${more}`.replace("..", ".");
  $("hint-apply").hidden = level < 3 || !(data.step.placements.length || data.step.eliminations.length);
  render();
}

export function applyHint() {
  const game = page.game;
  const step = page.hint && page.hint.data.step;
  if (!step) return;
  if (step.placements.length) game.place(step.placements);
  const cells = [...new Set(step.eliminations.map((e) => e.cell))].filter((c) => !game.value(c));
  if (cells.length) {
    const changes = [];
    for (const cell of cells) {
      const was = game.state(cell);
      const out = step.eliminations.filter((e) => e.cell === cell).map((e) => e.digit);
      game.centre[cell] = game.centre[cell].filter((d) => !out.includes(d));
      game.corner[cell] = game.corner[cell].filter((d) => !out.includes(d));
      changes.push({ cell, before: was, after: game.state(cell) });
    }
    game.undoStack.push(changes);
    game.redoStack = [];
  }
  changed();
}

// One request at a time: pressing ▶ (or opening the panel) while the explanation loads waits for it.
export function explain() {
  if (page.explaining) return page.explaining;
  const game = page.game;
  $("explain-text").textContent = "Working…";
  page.explaining = (async () => {
    try {
      const data = await api("/api/explain", { puzzle: game.puzzle.json });
      if (page.game !== game) return;
      page.explain = { steps: data.steps, index: 0 };
      showExplain();
    } catch (error) {
      $("explain-text").textContent = error.message;
    } finally {
      page.explaining = null;
    }
  })();
  return page.explaining;
}

export function showExplain() {
  const { steps, index } = page.explain;
  // the board as the step finds it: every earlier step's digits placed and candidates removed
  const values = [...page.game.givens];
  const removed = new Map();
  for (const earlier of steps.slice(0, index)) {
    for (const { cell, digit } of earlier.placements) values[cell] = digit;
    for (const { cell, digit } of earlier.eliminations) removed.set(cell, [...(removed.get(cell) || []), digit]);
  }
  const step = steps[index];
  page.replay = { values };
  page.step = step ? drawStep(step, candidatesAt(values, null, removed)) : null;
  $("explain-count").textContent = steps.length ? `${index + 1} / ${steps.length}` : "0 / 0";
  $("explain-text").textContent = step ? step.explanation : "No steps: the puzzle is solved or beyond the logic engine.";
  render();
}

export function closeHelp() {
  page.explain = null;
  if (page.trace) page.trace.stop();
  page.trace = null;
  page.replay = null;
  page.step = null;
  page.hint = null;
  $("hint-text").textContent = "";
  $("hint-apply").hidden = true;
  $("explain-text").textContent = "";
  $("explain-count").textContent = "–";
  $("trace-text").textContent = "";
  $("trace-play").textContent = "Play";
  render();
}

export async function trace() {
  const game = page.game;
  $("trace-text").textContent = "Searching…";
  try {
    const data = await api("/api/trace", { puzzle: game.puzzle.json });
    // Each step comes compact, [letter, field, …]; data.fields names the fields of each kind.
    const kinds = Object.entries(data.fields || {}).map(([kind, [letter, names]]) => [letter, kind, names]);
    const byLetter = Object.fromEntries(kinds.map(([letter, kind, names]) => [letter, { kind, names }]));
    data.steps = data.steps.map((step) => {
      if (!Array.isArray(step)) return step;
      const { kind, names } = byLetter[step[0]] || { kind: step[0], names: [] };
      return Object.fromEntries([["kind", kind], ...names.map((name, i) => [name, step[i + 1]])]);
    });
    page.trace = new Replay(game, data.steps, data.truncated, (view, text, index) => {
      page.replay = view;
      page.step = null;
      $("trace-slider").max = data.steps.length - 1;
      $("trace-slider").value = index;
      $("trace-text").textContent = text;
      render();
    });
    page.trace.show(0);
  } catch (error) {
    $("trace-text").textContent = error.message;
  }
}
