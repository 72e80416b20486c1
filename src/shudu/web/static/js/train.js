// Train: drills of one technique (POST /api/train). The board shows its candidates; the player
// marks those the technique's step removes (or the digit it places) and checks them against the
// engine's step, which is then drawn as the teaching view draws it. Each drill's time and result
// are kept per technique in localStorage, and shown: drills done, correct %, median time. The
// technique and the level of the puzzle a drill comes from ("any", or a level no easier than the
// technique's own) are picked above the board and kept in localStorage too.

import { api } from "./api.js";
import { Board } from "./board.js";
import { Game } from "./game.js";
import { $, page } from "./state.js";
import { drawStep, numberedText } from "./teach.js";

const STATS_KEY = "shudu-training";
const TECHNIQUE_KEY = "shudu-train-technique";
const LEVEL_KEY = "shudu-train-level";
// the levels, easiest first, when the server's features have not said them
const LEVELS = ["easy", "medium", "hard", "unfair", "extreme"];
const KEEP = 500; // drills kept per technique

// drill: the API's answer; game: a Game of its puzzle with the board's digits; candidates: bit
// masks; picked: {out: Map cell → Set of digits, put: Map cell → digit}; checked: the result
// once checked; started: when the drill was last shown (ms), spent: its time before that (the
// dialog closed stops its clock).
const training = { techniques: null, drill: null, game: null, candidates: null, picked: null, selected: 0, checked: null, started: 0, spent: 0, loading: 0 };

const board = new Board($("train-board"), {
  onSelect: (cell) => {
    training.selected = cell;
    show();
  },
});

const cellName = (cell, n) => `r${Math.floor(cell / n) + 1}c${(cell % n) + 1}`;

// --- the player's statistics ----------------------------------------------------------------

function allStats() {
  try {
    const data = JSON.parse(localStorage.getItem(STATS_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch (error) {
    return {};
  }
}

function record(technique, ms, right) {
  const data = allStats();
  const list = Array.isArray(data[technique]) ? data[technique] : [];
  list.push([Math.round(ms), right ? 1 : 0]);
  data[technique] = list.slice(-KEEP);
  try {
    localStorage.setItem(STATS_KEY, JSON.stringify(data));
  } catch (error) {
    /* a nicety: the drill goes on without it */
  }
}

function clock(ms) {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// Drills done, correct % and median time of ``technique``, as words.
export function statsText(technique) {
  const list = (allStats()[technique] || []).filter((item) => Array.isArray(item) && item.length === 2);
  if (!list.length) return `${technique}: no drills done yet`;
  const right = list.filter(([, ok]) => ok).length;
  const times = list.map(([ms]) => Number(ms) || 0).sort((a, b) => a - b);
  const mid = times.length >> 1;
  const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  const done = `${list.length} drill${list.length === 1 ? "" : "s"} done`;
  return `${technique}: ${done}, ${Math.round((100 * right) / list.length)}% correct, median time ${clock(median)}`;
}

// --- the dialog -------------------------------------------------------------------------------

export async function openTrain() {
  $("train-dialog").showModal();
  if (!training.techniques) {
    say("Loading the techniques…");
    try {
      training.techniques = (await api("/api/train")).techniques;
    } catch (error) {
      say(error.message, "bad");
      return;
    }
    fillTechniques();
    fillLevels();
  }
  if (!training.drill) await nextDrill();
  else {
    training.started = performance.now();
    $("train-board").focus();
  }
}

function fillTechniques() {
  const select = $("train-technique");
  const groups = new Map();
  for (const { name, level } of training.techniques) {
    if (!groups.has(level)) {
      const group = document.createElement("optgroup");
      group.label = level;
      groups.set(level, group);
    }
    groups.get(level).append(new Option(name, name));
  }
  select.replaceChildren(...groups.values());
  const names = training.techniques.map((t) => t.name);
  const kept = localStorage.getItem(TECHNIQUE_KEY);
  select.value = names.includes(kept) ? kept : names.includes("X-Wing") ? "X-Wing" : names[0];
}

// The levels a drill of the picked technique can come from: "any", then each level, those easier
// than the technique's own disabled (a puzzle of that level never needs it). The level picked
// before stays, where the technique allows it; else "any".
function fillLevels() {
  const select = $("train-level");
  const levels = (page.features && page.features.levels) || LEVELS;
  const technique = (training.techniques || []).find((t) => t.name === $("train-technique").value);
  const least = technique ? levels.indexOf(technique.level) : -1;
  const options = [new Option("any", "")];
  levels.forEach((level, k) => {
    const option = new Option(level, level);
    option.disabled = k < least;
    options.push(option);
  });
  select.replaceChildren(...options);
  const kept = select.dataset.picked ?? localStorage.getItem(LEVEL_KEY) ?? "";
  const allowed = options.some((option) => option.value === kept && !option.disabled);
  select.value = allowed ? kept : "";
}

function keep(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (error) {
    /* kept for this page only */
  }
}

function say(text, tone = "") {
  const message = $("train-message");
  message.textContent = text;
  message.className = `message ${tone}`;
}

export async function nextDrill() {
  const technique = $("train-technique").value;
  if (!technique) return;
  const level = $("train-level").value;
  keep(TECHNIQUE_KEY, technique);
  const ticket = ++training.loading;
  $("train-check").disabled = true;
  $("train-next").disabled = true;
  say(`Finding a ${technique} drill${level ? ` from a ${level} puzzle` : ""}…`);
  $("train-dialog").setAttribute("aria-busy", "true");
  try {
    const drill = await api("/api/train", level ? { technique, level } : { technique });
    if (ticket !== training.loading) return; // another technique was asked for since
    start(drill);
  } catch (error) {
    if (ticket === training.loading) say(error.message, "bad");
  } finally {
    if (ticket === training.loading) {
      $("train-next").disabled = false;
      $("train-dialog").removeAttribute("aria-busy");
    }
  }
}

function start(drill) {
  const game = new Game(drill.puzzle);
  game.entries = [...drill.entries];
  game.centre = drill.candidates.map((marks) => [...marks]);
  Object.assign(training, {
    drill,
    game,
    candidates: drill.candidates.map((marks) => marks.reduce((m, d) => m | (1 << d), 0)),
    picked: { out: new Map(), put: new Map() },
    selected: drill.candidates.findIndex((marks) => marks.length > 0),
    checked: null,
    started: performance.now(),
    spent: 0,
  });
  board.setPuzzle(drill.puzzle);
  $("train-check").disabled = false;
  $("train-clear").disabled = false;
  $("train-words").textContent = "";
  const { placements, eliminations } = drill.answer;
  const places = placements.length ? `the digit${placements.length > 1 ? "s" : ""} it places` : "";
  const removes = eliminations.length ? "the candidates it removes" : "";
  const what = [places, removes].filter(Boolean).join(" and ");
  say(`Find the ${drill.technique}: mark ${what}, then press Check.`);
  show();
  $("train-board").focus();
}

function show() {
  const { game, drill, checked } = training;
  if (!game) return;
  let step;
  if (checked) step = drawStep(checked.step, training.candidates, null, drill.puzzle);
  else {
    const eliminations = new Map([...training.picked.out].map(([cell, digits]) => [cell, [...digits]]));
    step = { cells: new Set(), area: new Set(), placements: training.picked.put, eliminations, candidates: training.candidates, links: null };
  }
  board.render({ game, selected: checked ? [] : [training.selected], step, highlight: false });
  // after a check, the marks that were wrong stay ringed on the step's drawing
  for (const pick of checked ? checked.wrong : []) {
    const [, cell, digit] = pick.split(" ");
    const mark = board.cells[Number(cell)].querySelector(`.cands > span:nth-child(${digit})`);
    if (mark) mark.classList.add("wrong-pick");
  }
  $("train-picked").textContent = checked ? "" : pickedText();
  $("train-stats").textContent = statsText(drill.technique);
  $("train-clear").disabled = Boolean(checked) || !pickedPairs().length;
}

// The picks as a list of [kind, cell, digit] (kind "out" or "put").
function pickedPairs() {
  const { out, put } = training.picked;
  return [
    ...[...put].map(([cell, digit]) => ["put", cell, digit]),
    ...[...out].flatMap(([cell, digits]) => [...digits].map((digit) => ["out", cell, digit])),
  ].sort((a, b) => a[1] - b[1] || a[2] - b[2]);
}

const pickWords = ([kind, cell, digit], n) => `${cellName(cell, n)} ${kind === "put" ? "=" : "−"}${digit}`;

function pickedText() {
  const picks = pickedPairs();
  const n = training.game.size;
  return picks.length ? `Marked: ${picks.map((p) => pickWords(p, n)).join(", ")}` : "Nothing marked yet.";
}

// Mark or unmark candidate ``digit`` of ``cell``: removed, or (``place``) the digit placed.
function toggle(cell, digit, place = $("train-place").checked) {
  if (!training.game || training.checked) return;
  if (!(training.candidates[cell] & (1 << digit))) return;
  const { out, put } = training.picked;
  if (place) {
    if (put.get(cell) === digit) put.delete(cell);
    else {
      put.set(cell, digit);
      out.get(cell)?.delete(digit);
    }
  } else {
    const digits = out.get(cell) || new Set();
    if (digits.has(digit)) digits.delete(digit);
    else {
      digits.add(digit);
      if (put.get(cell) === digit) put.delete(cell);
    }
    if (digits.size) out.set(cell, digits);
    else out.delete(cell);
  }
  training.selected = cell;
  show();
}

const key = (kind, cell, digit) => `${kind} ${cell} ${digit}`;

function stepSet(step) {
  return new Set([
    ...step.placements.map(({ cell, digit }) => key("put", cell, digit)),
    ...step.eliminations.map(({ cell, digit }) => key("out", cell, digit)),
  ]);
}

// Check the picks against the engine's step (and the technique's other steps on the board): an
// exact match with one is right; else what was wrong and what was missed, against the step the
// picks come nearest to.
export function check() {
  const { drill, game } = training;
  if (!drill || training.checked) return;
  const picks = new Set(pickedPairs().map(([kind, cell, digit]) => key(kind, cell, digit)));
  const steps = [drill.answer, ...(drill.others || [])];
  const scored = steps.map((step) => {
    const want = stepSet(step);
    const hits = [...picks].filter((p) => want.has(p)).length;
    return { step, want, hits, exact: hits === picks.size && hits === want.size };
  });
  const best = scored.find((s) => s.exact) || scored.reduce((a, b) => (b.hits > a.hits ? b : a));
  const right = best.exact;
  const ms = training.spent + performance.now() - training.started;
  record(drill.technique, ms, right);
  const wrong = [...picks].filter((p) => !best.want.has(p));
  training.checked = { step: best.step, right, wrong };
  const n = game.size;
  const words = (keys) => keys.map((k) => k.split(" ")).map(([kind, cell, digit]) => pickWords([kind, Number(cell), Number(digit)], n)).join(", ");
  if (right) say(`Correct, in ${clock(ms)}.${scored.length > 1 ? ` (${scored.length} such steps are on this board; this is one.)` : ""}`, "done");
  else {
    const missed = [...best.want].filter((p) => !picks.has(p));
    const parts = [wrong.length ? `wrong: ${words(wrong)}` : "", missed.length ? `missed: ${words(missed)}` : ""].filter(Boolean);
    say(`Not quite — ${parts.join("; ")}.`, "bad");
  }
  const numbered = numberedText(best.step.structure, null);
  $("train-words").textContent = numbered ? `${best.step.explanation}\n${numbered}` : best.step.explanation;
  $("train-check").disabled = true;
  show();
  $("train-next").focus();
}

function clear() {
  if (!training.game || training.checked) return;
  training.picked = { out: new Map(), put: new Map() };
  show();
}

// --- keys and pointer ---------------------------------------------------------------------------

function onKey(event) {
  const game = training.game;
  if (!game) return;
  const n = game.size;
  const arrows = { ArrowUp: -n, ArrowDown: n, ArrowLeft: -1, ArrowRight: 1 };
  if (arrows[event.key]) {
    event.preventDefault();
    const cell = training.selected + arrows[event.key];
    const sameRow = Math.abs(arrows[event.key]) === 1 ? Math.floor(cell / n) === Math.floor(training.selected / n) : true;
    if (cell >= 0 && cell < n * n && sameRow) training.selected = cell;
    return show();
  }
  if (event.key === "Enter") {
    event.preventDefault();
    return training.checked ? nextDrill() : check();
  }
  const code = event.code || "";
  const digit = /^(Digit|Numpad)[1-9]$/.test(code) ? Number(code.slice(-1)) : /^[1-9]$/.test(event.key) ? Number(event.key) : 0;
  if (digit && digit <= n && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    toggle(training.selected, digit, event.shiftKey ? true : $("train-place").checked);
  }
}

// A press on a candidate marks it; taken on pointerdown, before the Board selects the cell and
// draws it afresh (which would leave a click no element to land on).
function onPress(event) {
  const mark = event.target.closest && event.target.closest(".cands > span");
  const cell = event.target.closest && event.target.closest(".cell");
  if (!mark || !cell) return;
  const digit = [...mark.parentElement.children].indexOf(mark) + 1;
  toggle(Number(cell.dataset.cell), digit);
}

export function wireTrain() {
  $("train-board").addEventListener("keydown", onKey);
  $("train-board").addEventListener("pointerdown", onPress, { capture: true });
  $("train-check").addEventListener("click", check);
  $("train-next").addEventListener("click", nextDrill);
  $("train-clear").addEventListener("click", clear);
  $("train-close").addEventListener("click", () => $("train-dialog").close());
  $("train-dialog").addEventListener("close", () => {
    if (training.drill && !training.checked) training.spent += performance.now() - training.started;
  });
  $("train-technique").addEventListener("change", () => {
    fillLevels(); // the levels the technique allows; the player's level stays where it can
    nextDrill();
  });
  $("train-level").addEventListener("change", () => {
    const level = $("train-level").value;
    $("train-level").dataset.picked = level;
    keep(LEVEL_KEY, level);
    nextDrill();
  });
}
