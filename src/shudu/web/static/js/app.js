// The page: wires the board, the controls, the dialogs and the API together.

import { api, putGame } from "./api.js";
import { drawBank } from "./bank.js";
import { Board } from "./board.js";
import { Game } from "./game.js";
import { Replay } from "./replay.js";

const $ = (id) => document.getElementById(id);

const page = {
  features: {},
  game: null,
  selected: [],
  mode: "digit",
  wrong: new Set(),
  badMarks: new Set(), // cells whose pencil marks leave out their digit (from a hint)
  step: null, // a hint or explanation step drawn on the grid
  replay: null, // {values, candidates, …} while the explanation or the search is shown
  hint: null, // {data, level}
  explain: null, // {steps, index}
  explaining: null, // the explanation request in flight
  trace: null, // Replay of the enumeration
  saving: null, // the save in flight (a promise), one at a time
  dirty: false, // moves made since the last save that reached the server
  savedState: null, // the state the server holds (as JSON), so an idle page sends nothing
  saveStopped: null, // why saving stopped: "stale" (another page saved) or "gone" (deleted)
  lastTick: 0,
};

const board = new Board($("board"), { onSelect: select });

// --- showing ---------------------------------------------------------------------------------

function render() {
  if (!page.game) return;
  board.render({
    game: page.game,
    selected: page.replay ? [] : page.selected,
    wrong: page.wrong,
    badMarks: page.badMarks,
    step: page.step,
    replay: page.replay,
  });
  $("undo-button").disabled = !page.game.undoStack.length;
  $("redo-button").disabled = !page.game.redoStack.length;
}

function say(text, tone = "") {
  const message = $("message");
  message.textContent = text;
  message.className = `message ${tone}`;
}

function showTime() {
  const seconds = Math.floor((page.game ? page.game.elapsed : 0) / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  $("timer").textContent = h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

function tick() {
  const now = performance.now();
  const game = page.game;
  if (game && !game.finished && document.visibilityState === "visible" && page.lastTick) {
    game.elapsed += now - page.lastTick;
  }
  page.lastTick = now;
  showTime();
}

// --- games -----------------------------------------------------------------------------------

function title(puzzle, level) {
  const variant = puzzle.variant === "standard" ? "" : ` ${puzzle.variant}`;
  return `${puzzle.size}×${puzzle.size}${variant}${level ? ` · ${level}` : ""}`;
}

function buildPad(puzzle) {
  const pad = $("pad");
  pad.replaceChildren();
  const n = puzzle.size;
  const rows = n <= 6 ? 1 : n <= 16 ? 2 : 3;
  pad.style.setProperty("--cols", Math.ceil(n / rows));
  puzzle.digits.forEach((char, k) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = char;
    button.dataset.digit = k + 1;
    button.setAttribute("aria-label", `digit ${char}`);
    button.addEventListener("click", () => input(k + 1, page.mode));
    pad.append(button);
  });
}

function show(saved) {
  closeHelp();
  saved = withPending(saved);
  const game = new Game(saved.puzzle, saved);
  page.game = game;
  page.selected = [];
  page.wrong = new Set();
  board.setPuzzle(saved.puzzle);
  zoom(false);
  $("zoom-button").hidden = saved.puzzle.size < 16;
  buildPad(saved.puzzle);
  $("title").textContent = title(saved.puzzle, saved.level);
  $("rating").hidden = true;
  history.replaceState(null, "", `#game=${saved.id}`);
  localStorage.setItem("shudu-last-game", saved.id);
  say(game.finished ? "This puzzle is finished." : "", game.finished ? "done" : "");
  page.dirty = Boolean(saved.pending);
  page.savedState = saved.pending ? null : JSON.stringify(game.toSave());
  page.saveStopped = null;
  saveProblem(null);
  if (page.dirty) saveLater();
  showTime();
  render();
  if (page.features.rate) rate();
}

// A move kept in localStorage may be based on a save that was still on its way when the page went
// away (a reload right after a move): wait a moment for that save to land before using the move.
function pendingAhead(saved) {
  try {
    const raw = localStorage.getItem(pendingKey(saved.id));
    return Boolean(raw) && JSON.parse(raw).base > saved.version;
  } catch (error) {
    return false;
  }
}

async function openGame(id) {
  let saved = await api(`/api/games/${id}`);
  for (let tries = 0; tries < 15 && pendingAhead(saved); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    saved = await api(`/api/games/${id}`);
  }
  show(saved);
}

async function startGame(puzzleJson, level = null) {
  show(await api("/api/games", { puzzle: puzzleJson, level }));
  $("board").focus({ preventScroll: true });
}

// A kind that takes long to make (16x16, 25x25, or a hard one on a busy server) is made in the
// background: the server answers 202 with its progress, and the page asks again until it is made.
let making = 0; // bumped to stop waiting for a puzzle being made

async function newPuzzle(size, variant, level) {
  const waiting = ++making;
  const progress = $("new-progress");
  let found = await api("/api/new", { size, variant, level });
  try {
    while (found.making) {
      const m = found.making;
      const done = m.rated ? `, ${m.rated} rated` : "";
      progress.textContent = `Making a ${m.size}×${m.size} ${m.level || ""} puzzle: ${m.grids} grids tried${done}, ${Math.round(m.seconds)} s…`.replace("  ", " ");
      progress.hidden = false;
      await new Promise((resolve) => setTimeout(resolve, 700));
      if (waiting !== making) return false;
      found = await api("/api/new", { size, variant, level });
    }
  } finally {
    progress.hidden = true;
  }
  await startGame(found.puzzle.json, found.level);
  return true;
}

// Big grids on a phone: the board at twice the width, scrolled in its frame.
function zoom(on) {
  $("board-frame").classList.toggle("zoomed", on);
  $("zoom-button").setAttribute("aria-pressed", String(on));
  $("zoom-button").textContent = on ? "Zoom out" : "Zoom in";
}

// --- saving ----------------------------------------------------------------------------------
//
// Every save names the version of the game it is based on; the server refuses (409) a save based
// on an older version, so two pages never overwrite each other. One save is in flight at a time.
// Until a move reaches the server it also waits in localStorage, so a reload or a crash that
// beats the save brings it back: a pending state is used only while the server still holds the
// version it was based on.

const pendingKey = (id) => `shudu-pending-${id}`;

function keepPending(game) {
  const base = game.version + (page.saving ? 1 : 0); // an answered save in flight moves the version on
  try {
    localStorage.setItem(pendingKey(game.id), JSON.stringify({ base, state: game.toSave() }));
  } catch (error) {
    /* storage full or refused: the server copy is still there */
  }
}

function withPending(saved) {
  const raw = localStorage.getItem(pendingKey(saved.id));
  if (!raw) return saved;
  localStorage.removeItem(pendingKey(saved.id));
  try {
    const { base, state } = JSON.parse(raw);
    if (base !== saved.version) return saved; // the server has moved on (that save landed, or another page's)
    return {
      ...saved,
      ...state,
      history: state.history,
      elapsed_ms: Math.max(state.elapsed_ms, saved.elapsed_ms),
      pending: true,
    };
  } catch (error) {
    return saved;
  }
}

function saveProblem(kind, text = "") {
  page.saveStopped = kind === "stale" || kind === "gone" ? kind : null;
  const box = $("save-problem");
  box.hidden = !kind;
  box.dataset.kind = kind || "";
  $("save-problem-text").textContent = text;
  $("save-reload").hidden = kind !== "stale";
}

async function saveNow(closing = false) {
  const game = page.game;
  if (!game || game.id === null || page.saveStopped) return;
  if (page.saving) {
    if (!closing) return; // the save in flight is followed by another when it ends
    // the page is closing: send the latest now, based on the version the save in flight will make
    putGame(game.id, { version: game.version + 1, ...game.toSave() });
    return;
  }
  page.dirty = false;
  const sent = game.toSave();
  const sentState = JSON.stringify(sent); // now: moves made while the save travels are not in it
  page.saving = putGame(game.id, { version: game.version, ...sent });
  const { status, data } = await page.saving;
  page.saving = null;
  if (page.game !== game) return;
  if (status === 200) {
    game.version = data.version; // the same when only the time changed: no other page need hear of it
    page.savedState = sentState;
    if (page.dirty) saveNow();
    else {
      localStorage.removeItem(pendingKey(game.id));
      saveProblem(null);
    }
  } else if (status === 409) {
    localStorage.removeItem(pendingKey(game.id));
    saveProblem(
      "stale",
      "This game was changed in another page or tab, so the moves made here are not saved. Reload it to go on from the saved game.",
    );
  } else if (status === 404) {
    localStorage.removeItem(pendingKey(game.id));
    saveProblem("gone", "This game was deleted (or is not yours), so the moves made here are not saved.");
  } else {
    page.dirty = true; // tried again at the next move or within 15 s
    saveProblem("failed", `Could not save: ${data.error || `error ${status}`}. Trying again.`);
  }
}

// Save the game's latest state; ``closing`` when the page is going away (no later save follows).
function saveLater(closing = false) {
  const game = page.game;
  if (!game || game.id === null || page.saveStopped) return;
  page.dirty = true;
  keepPending(game);
  saveNow(closing);
}

async function solution() {
  const game = page.game;
  if (!game.solution) {
    const result = await api("/api/solve", { puzzle: game.puzzle.json });
    if (!result.solution) throw new Error(`the puzzle has ${result.status === "none" ? "no solution" : "no answer in time"}`);
    game.solution = result.solution;
  }
  return game.solution;
}

async function rate() {
  try {
    const rating = await api("/api/rate", { puzzle: page.game.puzzle.json });
    const label = rating.level ?? rating.rating ?? rating.score;
    if (label !== undefined) {
      $("rating").textContent = `rated ${label}`;
      $("rating").hidden = false;
    }
  } catch (error) {
    /* a rating is a nicety; the game goes on without it */
  }
}

// --- playing ---------------------------------------------------------------------------------

function select(cell, extend = false) {
  if (page.replay) return;
  if (extend) {
    if (!page.selected.includes(cell)) page.selected = [...page.selected, cell];
  } else page.selected = [cell];
  render();
}

function move(dr, dc) {
  const n = page.game.size;
  const last = page.selected.length ? page.selected[page.selected.length - 1] : 0;
  const r = (Math.floor(last / n) + dr + n) % n;
  const c = ((last % n) + dc + n) % n;
  select(r * n + c);
}

function changed() {
  const game = page.game;
  page.wrong = new Set();
  page.badMarks = new Set();
  page.step = null;
  page.hint = null;
  $("hint-text").textContent = "";
  $("hint-apply").hidden = true;
  if (!game.finished && game.isComplete() && !game.conflicts().size) finish();
  else if (game.isComplete()) say("Every cell is filled, but some digits clash.", "bad");
  else say("");
  render();
  saveLater();
}

async function finish(byShudu = false) {
  const game = page.game;
  try {
    await solution();
  } catch (error) {
    /* a puzzle without a known solution is done when it is full and clash-free */
  }
  if (!game.isSolved()) {
    page.wrong = new Set(game.wrong());
    say("Every cell is filled, but some digits are wrong.", "bad");
    render();
    return;
  }
  game.finished = true;
  tick();
  say(byShudu ? "Solved by shudu." : `Solved in ${$("timer").textContent}. Well done!`, "done");
  render();
  saveLater();
}

function input(digit, mode) {
  const game = page.game;
  if (!game || page.replay || !page.selected.length) return;
  if (digit < 1 || digit > game.size) return;
  if (game.act(page.selected, { kind: mode, digit })) changed();
}

function erase() {
  if (page.game && !page.replay && page.game.act(page.selected, { kind: "erase" })) changed();
}

function undo() {
  if (page.game && !page.replay && page.game.undo()) changed();
}

function redo() {
  if (page.game && !page.replay && page.game.redo()) changed();
}

// Fill every empty cell's centre marks with its candidates (one move: one undo takes them back).
function fillCandidates() {
  const game = page.game;
  if (!game || page.replay) return;
  const values = game.entries.map((e, cell) => game.value(cell));
  const masks = candidatesAt(values);
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

async function check() {
  const game = page.game;
  try {
    await solution();
  } catch (error) {
    say(error.message, "bad");
    return;
  }
  page.wrong = new Set(game.wrong());
  const filled = game.entries.filter(Boolean).length;
  if (page.wrong.size) say(`${page.wrong.size} of your ${filled} digits ${page.wrong.size === 1 ? "is" : "are"} wrong.`, "bad");
  else say(filled ? `All ${filled} of your digits are right so far.` : "Nothing entered yet.", "done");
  render();
}

async function reveal() {
  const game = page.game;
  try {
    const digits = await solution();
    const cell = page.selected.find((c) => !game.value(c)) ?? game.entries.findIndex((d, c) => !game.value(c));
    if (cell < 0 || cell === undefined) return say("Every cell is already filled.");
    page.selected = [cell];
    game.place([{ cell, digit: digits[cell] }]);
    changed();
  } catch (error) {
    say(error.message, "bad");
  }
}

async function solveAll() {
  const game = page.game;
  try {
    const digits = await solution();
    game.place(digits.map((digit, cell) => ({ cell, digit })).filter(({ cell }) => !game.value(cell)));
    page.wrong = new Set(game.wrong());
    if (page.wrong.size) {
      say(`${page.wrong.size} of your digits are wrong; they are struck through.`, "bad");
      render();
      saveLater();
    } else await finish(true);
  } catch (error) {
    say(error.message, "bad");
  }
}

// --- hints and the explanation ---------------------------------------------------------------

// The candidates of every empty cell (bit d for digit d): no digit a peer holds, and, where
// ``marks`` gives a cell some, only those; ``removed`` (a Map cell → digits) takes more away.
function candidatesAt(values, marks = null, removed = null) {
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
async function hint() {
  const game = page.game;
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
  page.hint = { data, level };
  const drawn = drawStep(data.step);
  const none = { placements: new Map(), eliminations: new Map() };
  if (level === 1) {
    // only the area: the step's first house, or its cells
    const area = drawn.area.size ? new Set(page.game.puzzle.houses.find((h) => h.name === data.step.houses[0]).cells) : drawn.cells;
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

function applyHint() {
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
function explain() {
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

function showExplain() {
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

function closeHelp() {
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

async function trace() {
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

// --- dialogs ---------------------------------------------------------------------------------

function fillSelect(select, options, value) {
  select.replaceChildren(
    ...options.map(([key, label]) => {
      const option = document.createElement("option");
      option.value = key;
      option.textContent = label;
      return option;
    }),
  );
  if (value !== undefined) select.value = value;
}

// New puzzle offers only what the generator can make: each variant with the sizes it admits
// (from /api/features "offered"); changing the variant narrows the sizes.
function fillSizes() {
  const f = page.features;
  const sizes = (f.offered && f.offered[$("new-variant").value]) || f.sizes;
  const keep = Number($("new-size").value) || (page.game ? page.game.size : 9);
  fillSelect($("new-size"), sizes.map((n) => [n, `${n}×${n}`]), sizes.includes(keep) ? keep : sizes.includes(9) ? 9 : sizes[0]);
}

function openNewDialog() {
  const f = page.features;
  const variants = Object.keys(f.offered || f.variants).filter((name) => name !== "custom");
  fillSelect($("new-variant"), variants.map((v) => [v, v]), page.game ? page.game.puzzle.variant : "standard");
  if (!variants.includes($("new-variant").value)) $("new-variant").value = "standard";
  $("new-size").value = page.game ? page.game.size : 9;
  fillSizes();
  $("new-variant").onchange = fillSizes;
  fillSelect($("new-level"), [["", "any"], ...f.levels.map((l) => [l, l])], "");
  fillSelect($("own-variant"), Object.keys(f.variants).map((v) => [v, v]), "standard");
  $("new-error").textContent = "";
  $("new-dialog").showModal();
  showBank();
}

// The bank's difficulty picture, drawn afresh each time the dialog opens.
async function showBank() {
  const figure = $("bank-figure");
  try {
    drawBank($("bank-chart"), await api("/api/bank"));
    figure.hidden = false;
  } catch (error) {
    figure.hidden = true; // the picture is a help, not a need: the dialog works without it
  }
}

let ownTimer = null;
let ownPuzzle = null;

function ownRequest() {
  const body = { puzzle: $("own-text").value, variant: $("own-variant").value };
  if ($("own-box").value.trim()) body.box = $("own-box").value.trim();
  return body;
}

async function checkOwn() {
  const status = $("own-status");
  ownPuzzle = null;
  $("own-play").disabled = true;
  if (!$("own-text").value.trim()) {
    status.textContent = "";
    return;
  }
  const text = $("own-text").value;
  try {
    const { puzzle } = await api("/api/parse", ownRequest());
    const counted = await api("/api/count", { puzzle: puzzle.json, limit: 2 });
    if (text !== $("own-text").value) return; // typed on meanwhile
    const solutions = !counted.complete && counted.reason ? "more solutions than could be counted in time" : counted.count === 0 ? "no solution" : counted.count === 1 ? "one solution" : "several solutions";
    status.className = counted.count === 0 ? "error" : "note";
    status.textContent = `${title(puzzle)} puzzle, ${puzzle.clues} givens, ${solutions}.`;
    if (counted.count > 0) {
      ownPuzzle = puzzle;
      $("own-play").disabled = false;
    }
  } catch (error) {
    if (text !== $("own-text").value) return;
    status.className = "error";
    status.textContent = error.message;
  }
}

async function openGamesDialog() {
  const list = $("games-list");
  list.replaceChildren();
  const { games } = await api("/api/games");
  if (!games.length) list.append(Object.assign(document.createElement("li"), { textContent: "No saved games yet." }));
  for (const saved of games) {
    const item = document.createElement("li");
    const label = document.createElement("span");
    const minutes = Math.floor(saved.elapsed_ms / 60000);
    const seconds = String(Math.floor(saved.elapsed_ms / 1000) % 60).padStart(2, "0");
    const variant = saved.variant === "standard" ? "" : ` ${saved.variant}`;
    label.textContent = `${saved.size}×${saved.size}${variant}${saved.level ? ` · ${saved.level}` : ""} · ${saved.filled}/${saved.cells} · ${minutes}:${seconds}${saved.finished ? " · finished" : ""}`;
    const buttons = document.createElement("span");
    buttons.className = "row";
    const resume = Object.assign(document.createElement("button"), { type: "button", textContent: "Resume" });
    resume.addEventListener("click", async () => {
      $("games-dialog").close();
      await openGame(saved.id);
    });
    const remove = Object.assign(document.createElement("button"), { type: "button", textContent: "Delete" });
    remove.setAttribute("aria-label", `delete game ${saved.id}`);
    remove.addEventListener("click", async () => {
      await api(`/api/games/${saved.id}`, undefined, "DELETE");
      item.remove();
    });
    buttons.append(resume, remove);
    item.append(label, buttons);
    list.append(item);
  }
  $("games-dialog").showModal();
}

// --- keys ------------------------------------------------------------------------------------

function digitOfKey(event) {
  const n = page.game.size;
  const code = event.code || "";
  let digit = 0;
  if (/^(Digit|Numpad)[1-9]$/.test(code)) digit = Number(code.slice(-1));
  else if (/^[1-9]$/.test(event.key)) digit = Number(event.key);
  else if (n > 9 && /^Key[A-Z]$/.test(code)) digit = 10 + code.charCodeAt(3) - 65;
  return digit >= 1 && digit <= n ? digit : 0;
}

function onKey(event) {
  if (!page.game || document.querySelector("dialog[open]")) return;
  const target = event.target;
  if (target.matches && target.matches("input, textarea, select")) return;
  const ctrl = event.ctrlKey || event.metaKey;
  const key = event.key;
  if (ctrl && (key === "z" || key === "Z")) {
    event.preventDefault();
    return event.shiftKey ? redo() : undo();
  }
  if (ctrl && (key === "y" || key === "Y")) {
    event.preventDefault();
    return redo();
  }
  if (page.replay) {
    if (key === "Escape") {
      $("explain-panel").open = false;
      $("trace-panel").open = false;
      closeHelp();
    }
    return;
  }
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[key] && target === $("board")) {
    event.preventDefault();
    return move(...arrows[key]);
  }
  if (["Backspace", "Delete", "0", "."].includes(key) && (target === $("board") || target === document.body)) {
    event.preventDefault();
    return erase();
  }
  if (target !== $("board") && target !== document.body && !target.closest("#pad")) return;
  const digit = digitOfKey(event);
  if (digit && !event.altKey) {
    event.preventDefault();
    const mode = event.shiftKey ? "corner" : ctrl ? "centre" : page.mode;
    input(digit, mode);
  }
}

// --- start -----------------------------------------------------------------------------------

function setTheme(theme) {
  document.documentElement.dataset.theme = theme;
  localStorage.setItem("shudu-theme", theme);
}

function wire() {
  const on = (id, handler) => $(id).addEventListener("click", handler);
  on("new-button", openNewDialog);
  on("games-button", () => openGamesDialog().catch((error) => say(error.message, "bad")));
  on("theme-button", () => setTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark"));
  on("erase-button", erase);
  on("zoom-button", () => zoom(!$("board-frame").classList.contains("zoomed")));
  on("undo-button", undo);
  on("redo-button", redo);
  on("check-button", check);
  on("candidates-button", fillCandidates);
  on("hint-button", hint);
  on("hint-apply", applyHint);
  on("reveal-button", reveal);
  on("solve-button", solveAll);
  on("games-close", () => $("games-dialog").close());
  on("new-cancel", () => {
    making++; // stop waiting for a puzzle being made
    $("new-dialog").close();
  });
  $("new-dialog").addEventListener("close", () => making++);
  on("new-start", async () => {
    const level = $("new-level").value || null;
    $("new-start").disabled = true;
    $("new-error").textContent = "";
    try {
      if (await newPuzzle(Number($("new-size").value), $("new-variant").value, level)) $("new-dialog").close();
    } catch (error) {
      $("new-error").textContent = error.message;
    } finally {
      $("new-start").disabled = false;
    }
  });
  on("own-play", async () => {
    if (!ownPuzzle) return;
    $("new-dialog").close();
    await startGame(ownPuzzle.json);
  });
  for (const id of ["own-text", "own-variant", "own-box"]) {
    $(id).addEventListener("input", () => {
      clearTimeout(ownTimer);
      ownTimer = setTimeout(checkOwn, 250);
    });
  }
  document.querySelectorAll('input[name="mode"]').forEach((radio) =>
    radio.addEventListener("change", () => (page.mode = radio.value)),
  );
  $("explain-panel").addEventListener("toggle", () => {
    if ($("explain-panel").open && !page.explain) explain();
    if (!$("explain-panel").open && page.explain) closeHelp();
  });
  on("explain-next", () => {
    if (!page.explain) return explain();
    page.explain.index = Math.min(page.explain.index + 1, Math.max(page.explain.steps.length - 1, 0));
    showExplain();
  });
  on("explain-prev", () => {
    if (!page.explain) return;
    page.explain.index = Math.max(page.explain.index - 1, 0);
    showExplain();
  });
  on("explain-close", () => ($("explain-panel").open = false));
  $("trace-panel").addEventListener("toggle", () => {
    if ($("trace-panel").open && !page.trace) trace();
    if (!$("trace-panel").open && page.trace) closeHelp();
  });
  on("trace-first", () => page.trace ? page.trace.show(0) : trace());
  on("trace-prev", () => page.trace && page.trace.show(page.trace.index - 1));
  on("trace-next", () => page.trace && page.trace.show(page.trace.index + 1));
  on("trace-play", () => {
    if (!page.trace) return;
    $("trace-play").textContent = page.trace.toggle() ? "Pause" : "Play";
  });
  on("trace-close", () => ($("trace-panel").open = false));
  $("trace-slider").addEventListener("input", () => page.trace && page.trace.show(Number($("trace-slider").value)));
  document.addEventListener("keydown", onKey);
  document.addEventListener("visibilitychange", () => {
    tick();
    if (document.visibilityState === "hidden" && page.dirty) saveLater();
  });
  window.addEventListener("pagehide", () => page.dirty && saveLater(true));
  on("save-reload", () => page.game && openGame(page.game.id).catch((error) => say(error.message, "bad")));
  window.addEventListener("hashchange", () => {
    const id = new URLSearchParams(location.hash.slice(1)).get("game");
    if (id && (!page.game || String(page.game.id) !== id)) openGame(id).catch((error) => say(error.message, "bad"));
  });
  setInterval(() => {
    tick();
  }, 1000);
  setInterval(() => {
    // the time played, every 15 s while the clock runs; nothing when nothing changed
    const game = page.game;
    if (game && game.id !== null && JSON.stringify(game.toSave()) !== page.savedState) saveLater();
    else if (page.dirty) saveNow();
  }, 15000);
}

async function start() {
  setTheme(localStorage.getItem("shudu-theme") || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));
  wire();
  try {
    const about = await api("/api/features");
    page.features = { ...about, ...about.features };
    document.querySelectorAll("[data-feature]").forEach((el) => (el.hidden = !page.features[el.dataset.feature]));
    const wanted = new URLSearchParams(location.hash.slice(1)).get("game") || localStorage.getItem("shudu-last-game");
    if (wanted) {
      try {
        await openGame(wanted);
      } catch (error) {
        await newPuzzle(9, "standard", "easy");
      }
    } else await newPuzzle(9, "standard", "easy");
    document.body.dataset.ready = "true";
  } catch (error) {
    say(error.message, "bad");
  }
}

start();
