// The teaching view: hints at three levels, the explanation step by step, the replay of the
// enumeration solver's search, and the candidates Show candidates fills in.

import { api } from "./api.js";
import { changed, render, say } from "./app.js";
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

// Fill every empty cell's centre marks with its candidates (one move: one undo takes them back):
// the digits its peers leave; on a puzzle with rules, less what each rule on its own forbids, as
// the server's basic candidates say (POST /api/candidates). Should the server not answer, the
// peers' candidates still go in (they are sound too) and the message says why.
export async function fillCandidates() {
  const game = page.game;
  if (!game || page.replay) return;
  const values = game.entries.map((e, cell) => game.value(cell));
  let masks = candidatesAt(values);
  if (game.hasRules) {
    try {
      const data = await api("/api/candidates", { puzzle: game.puzzle.json, entries: game.entries });
      if (page.game !== game || page.replay) return; // the board moved on while the server answered
      masks = data.candidates.map((digits) => digits.reduce((m, d) => m | (1 << d), 0));
    } catch (error) {
      say(`Candidates from the placed digits only: ${error.message}`, "bad");
    }
  }
  const now = game.entries.map((e, cell) => game.value(cell));
  if (now.some((v, cell) => v !== values[cell])) return; // a digit went in meanwhile: press again
  const changes = [];
  masks.forEach((mask, cell) => {
    if (values[cell]) return;
    const digits = [];
    for (let d = 1; d <= game.size; d++) if (mask & (1 << d)) digits.push(d);
    if (digits.join() === game.centre[cell].join() && !game.corner[cell].length) return;
    const before = game.state(cell);
    game.centre[cell] = digits;
    game.corner[cell] = [];
    changes.push({ cell, before, after: game.state(cell) });
  });
  if (!changes.length) return;
  game.undoStack.push(changes);
  game.redoStack = [];
  changed();
}

// The links of a step's structure: a chain's or loop's links, or a net's implications (each line
// from the lines it follows from: solid where the candidate is set, dashed where it is removed).
// A net is drawn one page at a time (``part``: a branch, or the first lines of a long one).
// Every node keeps the number the server gave it, which the step's text names too.
function stepLinks(structure, part = null) {
  if (!structure) return null;
  const node = (end) => ({ at: end.at || [], digit: (end.digits || [end.digit])[0], on: end.on, number: end.number });
  if (structure.type === "net") {
    const edges = [];
    const nodes = [];
    const branches = structure.branches || [];
    const shown = part ? [[branches[part.branch], part.upto]] : branches.map((b) => [b, (b.lines || []).length]);
    const since = part ? part.since : 0; // the lines before this part's are drawn faint
    for (const [branch, upto] of shown) {
      const lines = (branch.lines || []).slice(0, upto);
      const ends = lines.map((line, k) => ({
        at: Number.isInteger(line.at) ? [line.at] : [], digit: line.digit, on: line.on, number: line.number, earlier: k < since,
      }));
      ends.forEach((end, k) => {
        if (!end.at.length) return;
        nodes.push(end);
        for (const b of lines[k].because || []) {
          if (ends[b] && ends[b].at.length) edges.push({ from: ends[b], to: end, kind: end.on ? "strong" : "weak", earlier: end.earlier });
        }
      });
    }
    return { edges, nodes };
  }
  const edges = (structure.links || []).map((link) => ({ from: node(link.from), to: node(link.to), kind: link.kind }));
  return { edges, nodes: (structure.nodes || []).map(node) };
}

// A branch longer than this is shown in parts of PART lines (each part adds to the one before).
const LONG = 10;
const PART = 8;

// The pages a net is shown in, branch by branch: {branch, since, upto, of} (its lines
// since..upto new, those before drawn faint).
function netParts(structure) {
  const parts = [];
  (structure.branches || []).forEach((branch, b) => {
    const count = (branch.lines || []).length;
    if (count <= LONG) parts.push({ branch: b, since: 0, upto: count, of: count });
    else for (let since = 0; since < count; since += PART) parts.push({ branch: b, since, upto: Math.min(since + PART, count), of: count });
  });
  return parts;
}

// The numbered words of a step's structure (the server's), as far as the drawing goes.
export function numberedText(structure, part) {
  if (!structure) return "";
  if (structure.type !== "net") return structure.numbered || "";
  const branches = structure.branches || [];
  const shown = part ? [[branches[part.branch], part.upto]] : branches.map((b) => [b, (b.numbered || []).length]);
  return shown
    .map(([branch, upto]) => {
      const lines = (branch.numbered || []).slice(0, upto);
      if (upto >= (branch.numbered || []).length && branch.ending) lines.push(branch.ending);
      return lines.join("\n");
    })
    .join("\n");
}

// The engine's own text of a chain or loop (Eureka notation), where it has numbered nodes.
function chainNotation(structure) {
  if (!structure || structure.type === "net" || !structure.numbered || !(structure.nodes || []).length) return "";
  return structure.text || "";
}

// A step as the board draws it (board.js render's ``step``); ``candidates`` (bit masks) turns on
// the teaching view: every candidate shown, the removed struck, the placed marked, links drawn.
export function drawStep(step, candidates = null, part = null, puzzle = page.game.puzzle) {
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
    links: candidates ? stepLinks(step.structure, part) : null,
  };
}

// --- the teaching view: a step drawn with its numbered words, legend and branch control ---------

// page.teach: {step, candidates, text: the element its lead words go in, words: the element its
// numbered words go in (the same, or another), lead, parts: a net's pages, part: the page shown}.
// A hint's lead stays under the board and its numbered words go beside it (#hint-teach); the
// explanation keeps both together.
function teach(step, candidates, text, lead, words = text) {
  const structure = step.structure;
  const parts = structure && structure.type === "net" ? netParts(structure) : [];
  page.teach = { step, candidates, text, words, lead, parts, part: 0 };
  showTeaching();
}

function showTeaching() {
  const { step, candidates, text, words: place, lead, parts, part } = page.teach;
  const shown = parts.length ? parts[part] : null;
  page.step = drawStep(step, candidates, shown);
  const words = numberedText(step.structure, shown);
  // a net's lead may read its branches line by line: the numbered words say them instead
  let first = words ? lead.split("\n")[0] : lead;
  if (words && !/[.!?)]$/.test(first)) first += ".";
  // a chain's lead holds the engine's notation ((3)r9c1=(3)r9c8-…), whose brackets hold digits:
  // beside the numbered words, whose brackets hold the nodes' numbers, it names the chain by
  // those numbers instead, and the notation waits under "Notation" for those who read it
  const notation = words ? chainNotation(step.structure) : "";
  if (notation && first.includes(notation)) first = first.replace(notation, `(1)–(${step.structure.nodes.length})`);
  $("notation-text").textContent = notation;
  $("teach-notation").hidden = !notation;
  if (place === text) text.textContent = words ? `${first}\n${words}` : lead;
  else {
    text.textContent = first;
    place.textContent = words;
    $("hint-teach").hidden = !words;
    if (shown) $("hint-teach").scrollTop = $("hint-teach").scrollHeight; // the part's new lines
  }
  const nav = $("teach-nav");
  const links = page.step.links;
  nav.hidden = !links || !links.edges.length;
  place.after(nav);
  const net = Boolean(parts.length);
  $("legend-strong").textContent = net ? "to a digit placed (=)" : "strong link (=): one end is true";
  $("legend-weak").textContent = net ? "to a candidate removed (≠)" : "weak link (-): not both true";
  $("net-nav").hidden = parts.length < 2;
  if (shown) {
    const lines = shown.upto < shown.of || parts.some((p) => p.branch === shown.branch && p.upto !== shown.upto);
    const branches = new Set(parts.map((p) => p.branch)).size;
    const where = [branches > 1 ? `branch ${shown.branch + 1} of ${branches}` : "", lines ? `lines ${shown.since + 1}–${shown.upto} of ${shown.of}` : ""];
    $("net-count").textContent = where.filter(Boolean).join(", ");
    $("net-prev").disabled = part === 0;
    $("net-next").disabled = part === parts.length - 1;
  }
  render();
}

// The net's previous or next page (``by`` -1 or 1).
export function turnNet(by) {
  const teaching = page.teach;
  if (!teaching || !teaching.parts.length) return;
  teaching.part = Math.max(0, Math.min(teaching.parts.length - 1, teaching.part + by));
  showTeaching();
}

function stopTeaching() {
  page.teach = null;
  $("teach-nav").hidden = true;
  $("hint-teach").hidden = true;
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
    // never the cells the step is about: the vague hint says where to look, not what to find
    const target = new Set([...data.step.cells, ...drawn.placements.keys(), ...drawn.eliminations.keys()]);
    const area = new Set((named ? named.cells : box).filter((cell) => !target.has(cell)));
    page.step = { ...none, area, cells: new Set() };
  } else if (level === 2) page.step = { ...drawn, ...none };
  const more = level < 3 ? " (Hint again for more.)" : "";
  const words = `${text}.${more}`.replace("..", ".");
  $("hint-apply").hidden = level < 3 || !(data.step.placements.length || data.step.eliminations.length);
  stopTeaching();
  if (level < 3) {
    $("hint-text").textContent = words;
    render();
    return;
  }
  const values = game.entries.map((e, cell) => game.value(cell));
  teach(data.step, candidatesAt(values, game.centre), $("hint-text"), words, $("hint-words"));
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
  stopTeaching();
  changed();
  // the step is done: the next press of Hint starts on the next step, at its vaguest
  if (!game.finished) $("hint-text").textContent = "Step applied. Hint again for the next one.";
}

// One request at a time: pressing ▶ (or opening the panel) while the explanation loads waits for it.
// ``start``: the step shown first (a link's step=; the last when past it).
export function explain(start = 0) {
  if (page.explaining) return page.explaining;
  const game = page.game;
  $("explain-text").textContent = "Working…";
  page.explaining = (async () => {
    try {
      const data = await api("/api/explain", { puzzle: game.puzzle.json });
      if (page.game !== game) return;
      page.explain = { steps: data.steps, index: Math.max(0, Math.min(start, data.steps.length - 1)) };
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
  $("explain-count").textContent = steps.length ? `${index + 1} / ${steps.length}` : "0 / 0";
  $("explain-hard").disabled = nextHard(steps, index) < 0;
  stopTeaching();
  if (step) return teach(step, candidatesAt(values, null, removed), $("explain-text"), step.explanation);
  page.step = null;
  $("explain-text").textContent = "No steps: the puzzle is solved or beyond the logic engine.";
  render();
}

// Whether a step is a single (a naked or hidden single, a full house): what "next hard step" skips.
export function isSingle(step) {
  return /single|full house/i.test(`${step.technique} ${step.name || ""}`);
}

// The index of the first step after ``index`` that is not a single; -1 when none is left.
export function nextHard(steps, index) {
  for (let k = index + 1; k < steps.length; k++) if (!isSingle(steps[k])) return k;
  return -1;
}

// The explanation's next step that is not a single.
export async function explainHard() {
  if (!page.explain) await explain();
  if (!page.explain) return;
  const k = nextHard(page.explain.steps, page.explain.index);
  if (k < 0) return;
  page.explain.index = k;
  showExplain();
}

export function closeHelp() {
  page.explain = null;
  if (page.trace) page.trace.stop();
  page.trace = null;
  page.replay = null;
  page.step = null;
  page.hint = null;
  stopTeaching();
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
