// The page: wires the board, the controls and the API together; the parts it uses live in
// state.js, saving.js, finish.js, teach.js, dialogs.js, settings.js and links.js.

import { api } from "./api.js";
import { Board } from "./board.js";
import { checkOwnSoon, isRuleSet, openGamesDialog, openNewDialog, ownChosen } from "./dialogs.js";
import { finish, keepStats, loadStats } from "./finish.js";
import { Game } from "./game.js";
import { pendingKey, rate, saveLater, saveNow, saveProblem, solution, withPending } from "./saving.js";
import { SETTINGS, changeSetting, loadSettings, openSheet, pause, setMode, setTheme, share, sharedPuzzle, toggleNotes } from "./settings.js";
import { $, page } from "./state.js";
import { linkedView, openView } from "./links.js";
import { openSetter, wireSetter } from "./setter.js";
import { openTrain, wireTrain } from "./train.js";
import { applyHint, closeHelp, explain, explainHard, fillCandidates, hint, showExplain, trace, turnNet } from "./teach.js";

const board = new Board($("board"), { onSelect: select });

// --- showing ---------------------------------------------------------------------------------

export function render() {
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

export function say(text, tone = "") {
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

export function tick() {
  const now = performance.now();
  const game = page.game;
  if (game && !game.finished && !page.paused && document.visibilityState === "visible" && page.lastTick) {
    game.elapsed += now - page.lastTick;
  }
  page.lastTick = now;
  showTime();
}

// --- games -----------------------------------------------------------------------------------

// The short names of the rule sets a title gives (a killer, a thermo, …), in this order.
const RULE_NAMES = [
  ["cage", "killer"], ["little-killer", "little killer"], ["thermo", "thermo"], ["slow-thermo", "thermo"],
  ["arrow", "arrow"], ["white-dot", "kropki"], ["black-dot", "kropki"], ["x", "XV"], ["v", "XV"],
  ["renban", "renban"], ["whisper", "whispers"], ["palindrome", "palindrome"], ["region-sum-line", "region sum"],
  ["sandwich", "sandwich"], ["x-sum", "X-sums"], ["skyscraper", "skyscrapers"], ["odd", "odd/even"], ["even", "odd/even"],
];

function ruleNames(puzzle) {
  const kinds = new Set((puzzle.rules || []).map((rule) => rule.rule));
  const names = [...new Set(RULE_NAMES.filter(([kind]) => kinds.has(kind)).map(([, name]) => name))];
  if (!names.length && kinds.size) names.push("rules");
  return names.length > 3 ? [...names.slice(0, 3), "…"] : names;
}

export function title(puzzle, level) {
  const kinds = [...(puzzle.variant === "standard" ? [] : [puzzle.variant]), ...ruleNames(puzzle)];
  const variant = kinds.length ? ` ${kinds.join(" ")}` : "";
  return `${puzzle.size}×${puzzle.size}${variant}${level ? ` · ${level}` : ""}`;
}

// What the rules mean: on a phone under the board, a tap away; on a wide screen open in the
// column beside it, under the pad and tools, as SudokuPad shows them.
const WIDE = matchMedia("(min-width: 721px)");

function placeRules() {
  const rules = $("rules-text");
  if (WIDE.matches) document.querySelector(".controls .tools").after(rules);
  else $("zoom-button").after(rules);
  rules.open = WIDE.matches;
}

function showRules(words) {
  $("rules-text").hidden = !words.length;
  $("rules-list").replaceChildren(...words.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
  placeRules();
}

export function showLevel(level) {
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
  showRules(board.ruleWords);
  // the enumeration search reads no rules: its replay is for classic and region puzzles
  $("trace-panel").hidden = !page.features.trace || Boolean(saved.puzzle.rules && saved.puzzle.rules.length);
  zoom(false);
  $("zoom-button").hidden = saved.puzzle.size < 16;
  buildPad(saved.puzzle);
  $("title").textContent = title(saved.puzzle);
  showLevel(saved.level);
  pause(false);
  page.stats = loadStats(saved.id);
  game.autoNotes = page.settings.autoNotes;
  $("share-link").hidden = true;
  $("sudokupad-link").hidden = !saved.puzzle.sudokupad;
  $("sudokupad-link").href = saved.puzzle.sudokupad || "";
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

export async function openGame(id) {
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
  // a set of constraint rules (killer …) goes as rules= on a standard grid
  const kind = isRuleSet(variant) ? { size, rules: variant, level } : { size, variant, level };
  let found = await api("/api/new", kind);
  try {
    while (found.making) {
      const m = found.making;
      const done = m.rated ? `, ${m.rated} rated` : "";
      progress.textContent = `Making a ${m.size}×${m.size} ${m.level || ""} puzzle: ${m.grids} grids tried${done}, ${Math.round(m.seconds)} s…`.replace("  ", " ");
      progress.hidden = false;
      await new Promise((resolve) => setTimeout(resolve, 700));
      if (waiting !== making) return false;
      found = await api("/api/new", kind);
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

export function changed(entered = null) {
  const game = page.game;
  const before = page.wrong;
  page.wrong = new Set();
  page.badMarks = new Set();
  page.step = null;
  page.hint = null;
  page.teach = null;
  $("teach-nav").hidden = true;
  $("hint-teach").hidden = true;
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

export async function saving() {
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

function wire() {
  WIDE.addEventListener("change", placeRules);
  const on = (id, handler) => $(id).addEventListener("click", handler);
  on("new-button", openNewDialog);
  on("games-button", () => openGamesDialog().catch((error) => say(error.message, "bad")));
  on("train-button", openTrain);
  on("setter-button", () => openSetter());
  on("setter-more", () => {
    openSheet(false);
    openSetter();
  });
  wireTrain();
  wireSetter();
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
    const chosen = ownChosen();
    if (!chosen) return;
    $("new-dialog").close();
    await startGame(chosen.json);
  });
  for (const id of ["own-text", "own-variant", "own-box"]) {
    $(id).addEventListener("input", checkOwnSoon);
  }
  document.querySelectorAll('input[name="mode"]').forEach((radio) =>
    radio.addEventListener("change", () => setMode(radio.value)),
  );
  $("explain-panel").addEventListener("toggle", () => {
    if ($("explain-panel").open) {
      openSheet(true);
      // a phone's sheet scrolls: bring the explanation to its top, the board still above it
      const sheet = $("sheet");
      if (getComputedStyle(sheet).position === "fixed") sheet.scrollTop = $("explain-panel").offsetTop;
    }
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
  on("explain-hard", explainHard);
  on("net-prev", () => turnNet(-1));
  on("net-next", () => turnNet(1));
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
  window.addEventListener("hashchange", async () => {
    const shared = sharedPuzzle();
    const wanted = linkedView();
    const id = new URLSearchParams(location.hash.slice(1)).get("game");
    try {
      if (shared) await startGame(shared);
      else if (id && (!page.game || String(page.game.id) !== id)) await openGame(id);
      else if (wanted && page.game) history.replaceState(null, "", `#game=${page.game.id}`);
    } catch (error) {
      return say(error.message, "bad");
    }
    await openView(wanted);
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
    const view = linkedView();
    const wanted = new URLSearchParams(location.hash.slice(1)).get("game") || localStorage.getItem("shudu-last-game");
    if (shared) await startGame(shared);
    else if (wanted) {
      try {
        await openGame(wanted);
      } catch (error) {
        await newPuzzle(9, "standard", "easy");
      }
    } else await newPuzzle(9, "standard", "easy");
    await openView(view);
    document.body.dataset.ready = "true";
  } catch (error) {
    say(error.message, "bad");
  }
}

start();
