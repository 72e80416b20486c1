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
  paused: false,
  level: null, // the puzzle's level: from the bank or the generator, else from /api/rate
  stats: { hints: 0, mistakes: 0 }, // this game's hints asked and wrong digits entered
  settings: { check: false, autoNotes: true, highlight: true, dark: false },
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
    highlight: page.settings.highlight,
  });
  $("undo-button").disabled = !page.game.undoStack.length;
  $("redo-button").disabled = !page.game.redoStack.length;
  showCounts();
  $("notes-button").setAttribute("aria-pressed", String(page.mode !== "digit"));
  $("notes-button").classList.toggle("on", page.mode !== "digit");
}

// How many of each digit are still to place; a digit placed everywhere it goes is greyed.
function showCounts() {
  const game = page.game;
  const placed = new Array(game.size + 1).fill(0);
  for (let cell = 0; cell < game.entries.length; cell++) placed[game.value(cell)]++;
  for (const button of $("pad").children) {
    const digit = Number(button.dataset.digit);
    const left = Math.max(game.size - placed[digit], 0);
    button.querySelector(".left").textContent = left ? String(left) : "";
    button.classList.toggle("done", left === 0);
    button.setAttribute("aria-label", `digit ${game.puzzle.digits[digit - 1]}, ${left} left`);
  }
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
  if (game && !game.finished && !page.paused && document.visibilityState === "visible" && page.lastTick) {
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

function showLevel(level) {
  page.level = level;
  $("rating").textContent = level || "";
  $("rating").hidden = !level;
}

function buildPad(puzzle) {
  const pad = $("pad");
  pad.replaceChildren();
  const n = puzzle.size;
  const rows = n <= 9 ? 1 : n <= 16 ? 2 : 3; // one row on a phone up to 9x9
  pad.style.setProperty("--cols", Math.ceil(n / rows));
  puzzle.digits.forEach((char, k) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.digit = k + 1;
    button.setAttribute("aria-label", `digit ${char}`);
    const face = Object.assign(document.createElement("span"), { className: "face", textContent: char });
    const left = Object.assign(document.createElement("span"), { className: "left" });
    left.setAttribute("aria-hidden", "true");
    button.append(face, left);
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
  $("title").textContent = title(saved.puzzle);
  showLevel(saved.level);
  pause(false);
  page.stats = loadStats(saved.id);
  game.autoNotes = page.settings.autoNotes;
  $("share-link").hidden = true;
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
  if (page.features.rate && !saved.level) rate();
  if (page.settings.check) solution().then(render, () => {});
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
    if (label !== undefined && label !== null) showLevel(String(label));
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

function changed(entered = null) {
  const game = page.game;
  const before = page.wrong;
  page.wrong = new Set();
  page.badMarks = new Set();
  page.step = null;
  page.hint = null;
  $("hint-text").textContent = "";
  $("hint-apply").hidden = true;
  if (!game.finished && game.isComplete() && !game.conflicts().size) finish();
  else if (game.isComplete()) say("Every cell is filled, but some digits clash.", "bad");
  else say("");
  if (page.settings.check && game.solution) {
    page.wrong = new Set(game.wrong());
    const fresh = (entered || []).filter((cell) => page.wrong.has(cell) && !before.has(cell));
    if (fresh.length) {
      page.stats.mistakes += fresh.length;
      keepStats();
    }
  }
  render();
  saveLater();
}

// --- this game's hints and mistakes (kept in localStorage: the server's game has no place for them)

const statsKey = (id) => `shudu-stats-${id}`;

function loadStats(id) {
  try {
    const raw = JSON.parse(localStorage.getItem(statsKey(id)) || "{}");
    return { hints: Number(raw.hints) || 0, mistakes: Number(raw.mistakes) || 0 };
  } catch (error) {
    return { hints: 0, mistakes: 0 };
  }
}

function keepStats() {
  if (page.game && page.game.id !== null) {
    try {
      localStorage.setItem(statsKey(page.game.id), JSON.stringify(page.stats));
    } catch (error) {
      /* a nicety: the game goes on without it */
    }
  }
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
  if (!byShudu) showDone();
}

function clock(ms) {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// The completion screen: this game's time, hints and mistakes, and the player's solved games by level.
async function showDone() {
  const game = page.game;
  const facts = [
    ["Time", $("timer").textContent],
    ["Hints", String(page.stats.hints)],
    ["Mistakes", page.settings.check ? String(page.stats.mistakes) : "not checked as you went"],
    ["Level", page.level ? page.level[0].toUpperCase() + page.level.slice(1) : "not rated"],
  ];
  $("done-facts").replaceChildren(
    ...facts.flatMap(([term, value]) => [
      Object.assign(document.createElement("dt"), { textContent: term }),
      Object.assign(document.createElement("dd"), { textContent: value }),
    ]),
  );
  $("done-history-title").textContent = `Your solved ${game.size}×${game.size} games by level`;
  const body = $("done-history").querySelector("tbody");
  body.replaceChildren();
  $("done-dialog").showModal();
  try {
    await saving();
    const { games } = await api("/api/games");
    const byLevel = new Map();
    for (const saved of games) {
      if (!saved.finished || saved.size !== game.size) continue;
      const level = saved.level || "unrated";
      byLevel.set(level, [...(byLevel.get(level) || []), saved.elapsed_ms]);
    }
    for (const [level, times] of byLevel) {
      const row = document.createElement("tr");
      const average = times.reduce((a, b) => a + b, 0) / times.length;
      for (const text of [level, String(times.length), clock(average), clock(Math.min(...times))]) {
        row.append(Object.assign(document.createElement("td"), { textContent: text }));
      }
      body.append(row);
    }
  } catch (error) {
    /* the history is a nicety */
  }
}

// The save in flight, if any, has ended.
async function saving() {
  for (let tries = 0; page.saving && tries < 50; tries++) await page.saving;
}

function input(digit, mode) {
  const game = page.game;
  if (!game || page.replay || !page.selected.length) return;
  if (digit < 1 || digit > game.size) return;
  if (page.paused) return;
  if (game.act(page.selected, { kind: mode, digit })) changed(mode === "digit" ? page.selected : null);
}

function erase() {
  if (page.game && !page.replay && !page.paused && page.game.act(page.selected, { kind: "erase" })) changed();
}

function undo() {
  if (page.game && !page.replay && !page.paused && page.game.undo()) changed();
}

function redo() {
  if (page.game && !page.replay && !page.paused && page.game.redo()) changed();
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
  if (key === "Escape" && $("sheet").classList.contains("open") && !page.replay) return openSheet(false);
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
  if (target !== $("board") && target !== document.body && !target.closest("#pad, .tools")) return;
  const digit = digitOfKey(event);
  if (digit && !event.altKey) {
    event.preventDefault();
    const mode = event.shiftKey ? "corner" : ctrl ? "centre" : page.mode;
    input(digit, mode);
    return;
  }
  // letters that are not digits of this size: commands
  if (ctrl || event.altKey) return;
  const command = { n: toggleNotes, z: undo, y: redo, h: () => page.features.hint && hint(), p: () => pause(!page.paused) }[key.toLowerCase()];
  if (command) {
    event.preventDefault();
    command();
  }
}

// --- start -----------------------------------------------------------------------------------

function setTheme(theme) {
  document.documentElement.dataset.theme = theme;
  localStorage.setItem("shudu-theme", theme);
  page.settings.dark = theme === "dark";
  $("set-dark").checked = page.settings.dark;
}

// --- settings, notes, pause, the sheet, sharing ----------------------------------------------
//
// Settings live in this browser's localStorage, as the player does: the player is this browser's
// cookie, and the server keeps games, not preferences.

const SETTINGS = { check: "set-check", autoNotes: "set-auto", highlight: "set-highlight" };

function loadSettings() {
  try {
    Object.assign(page.settings, JSON.parse(localStorage.getItem("shudu-settings") || "{}"));
  } catch (error) {
    /* the defaults */
  }
  for (const [name, id] of Object.entries(SETTINGS)) $(id).checked = Boolean(page.settings[name]);
}

function changeSetting(name, value) {
  page.settings[name] = value;
  const { check, autoNotes, highlight } = page.settings;
  localStorage.setItem("shudu-settings", JSON.stringify({ check, autoNotes, highlight }));
  if (!page.game) return;
  page.game.autoNotes = autoNotes;
  if (name === "check" && value) solution().then(() => changedView(), () => {});
  if (name === "check" && !value) page.wrong = new Set();
  render();
}

function changedView() {
  if (page.settings.check && page.game.solution) page.wrong = new Set(page.game.wrong());
  render();
}

function setMode(mode) {
  page.mode = mode;
  const radio = document.querySelector(`input[name="mode"][value="${mode}"]`);
  if (radio) radio.checked = true;
  if (page.game) render();
}

// Notes: the centre marks, which hints read as the player's candidates (Shift+digit still adds a
// corner mark).
function toggleNotes() {
  setMode(page.mode === "digit" ? "centre" : "digit");
}

function pause(on) {
  page.paused = on && Boolean(page.game) && !page.game.finished;
  tick();
  $("board-frame").classList.toggle("paused", page.paused);
  $("paused").hidden = !page.paused;
  $("pause-button").setAttribute("aria-pressed", String(page.paused));
  $("pause-button").setAttribute("aria-label", page.paused ? "go on" : "pause");
  $("pause-button").textContent = page.paused ? "▶" : "❚❚";
}

// On a phone the sheet slides over the lower page, leaving the board in view; on a wide screen it
// is the column beside the board and always shown.
function openSheet(on, section = null) {
  $("sheet").classList.toggle("open", on);
  $("more-button").setAttribute("aria-expanded", String(on));
  if (section) {
    $(section).open = true;
    $(section).scrollIntoView({ block: "nearest" });
  }
}

// A link that opens this puzzle, new, for anyone: the puzzle travels in the link, no player data.
function shareLink() {
  const json = page.game.puzzle.json;
  return `${location.origin}${location.pathname}#puzzle=${encodeURIComponent(JSON.stringify(json))}`;
}

async function share() {
  const link = shareLink();
  const field = $("share-link");
  field.value = link;
  field.hidden = false;
  field.select();
  try {
    await navigator.clipboard.writeText(link);
    say("Link copied.");
  } catch (error) {
    say("Copy the link below.");
  }
}

function sharedPuzzle() {
  const text = new URLSearchParams(location.hash.slice(1)).get("puzzle");
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    return text; // a puzzle in one line of text
  }
}

function wire() {
  const on = (id, handler) => $(id).addEventListener("click", handler);
  on("new-button", openNewDialog);
  on("games-button", () => openGamesDialog().catch((error) => say(error.message, "bad")));
  on("theme-button", () => setTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark"));
  $("set-dark").addEventListener("change", () => setTheme($("set-dark").checked ? "dark" : "light"));
  for (const [name, id] of Object.entries(SETTINGS)) $(id).addEventListener("change", () => changeSetting(name, $(id).checked));
  on("settings-button", () => openSheet(true, "settings-panel"));
  on("more-button", () => openSheet(!$("sheet").classList.contains("open")));
  on("sheet-close", () => openSheet(false));
  on("notes-button", toggleNotes);
  on("pause-button", () => pause(!page.paused));
  on("paused", () => pause(false));
  on("share-button", share);
  on("print-button", () => window.print());
  on("done-close", () => $("done-dialog").close());
  on("done-new", () => {
    $("done-dialog").close();
    openNewDialog();
  });
  // A tap on the pad or the tools keeps the focus (and the page) where it is: no scroll, and
  // the keyboard goes on driving the board.
  for (const bar of [$("pad"), document.querySelector(".tools")]) {
    bar.addEventListener("pointerdown", (event) => {
      if (event.target.closest("button")) event.preventDefault();
    });
  }
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
    radio.addEventListener("change", () => setMode(radio.value)),
  );
  $("explain-panel").addEventListener("toggle", () => {
    if ($("explain-panel").open) openSheet(true);
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
    const shared = sharedPuzzle();
    if (shared) return startGame(shared).catch((error) => say(error.message, "bad"));
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
  loadSettings();
  wire();
  try {
    const about = await api("/api/features");
    page.features = { ...about, ...about.features };
    document.querySelectorAll("[data-feature]").forEach((el) => (el.hidden = !page.features[el.dataset.feature]));
    const shared = sharedPuzzle();
    const wanted = new URLSearchParams(location.hash.slice(1)).get("game") || localStorage.getItem("shudu-last-game");
    if (shared) await startGame(shared);
    else if (wanted) {
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
