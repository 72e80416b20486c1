// Setter: a puzzle in the making (POST /api/setter). The setter enters givens (a click and a
// digit, or a pasted puzzle); after each change the panel asks the server again, a moment later,
// and shows the solution count, the rating, the true candidates drawn small in the empty cells,
// the redundant givens marked, the givens that would make the puzzle unique (a click adds one)
// and the singles backdoors. One request is in flight at a time: an edit made meanwhile is sent
// when it answers, and an answer about an older grid is never shown.

import { api } from "./api.js";
import { Board } from "./board.js";
import { Game } from "./game.js";
import { $, page } from "./state.js";

// The seconds the server may spend on one answer: short, so that the panel keeps up with typing.
const DEADLINE = 4;
// The pause after an edit before the panel asks (ms): a burst of typing is one request.
const QUIET = 250;
const WORDS = { unique: "one solution", multiple: "several solutions", none: "no solution", timeout: "no answer in time", invalid: "does not apply" };

// shape: the empty puzzle described (/api/parse); givens: the digits entered; game: a Game over
// them for the Board; edits: a count of changes, each request carries it; answer: the last
// answer shown (of edit `shown`); history: earlier givens, for undo.
// note: words added to the count's (a pasted puzzle read as another variant, a link's puzzle
// that could not be read: then `bad`), until the next change.
const setter = { shape: null, givens: [], game: null, selected: 0, edits: 0, shown: -1, answer: null, inflight: false, again: false, timer: 0, history: [], door: null, note: "", bad: false };

const board = new Board($("setter-board"), {
  onSelect: (cell) => {
    setter.selected = cell;
    show();
  },
});

const cellName = (cell, n) => `r${Math.floor(cell / n) + 1}c${(cell % n) + 1}`;

function say(text, tone = "") {
  const message = $("setter-message");
  message.textContent = text;
  message.className = `message ${tone}`;
}

// --- the grid -----------------------------------------------------------------------------------

// A grid of ``shape`` (a described puzzle) with its givens.
function begin(shape) {
  const n = shape.size;
  setter.shape = { ...shape, givens: new Array(n * n).fill(0) };
  setter.givens = [...shape.givens];
  setter.game = new Game(setter.shape);
  setter.game.givens = setter.givens;
  setter.selected = Math.min(setter.selected, n * n - 1);
  setter.history = [];
  setter.answer = null;
  board.setPuzzle(setter.shape);
  buildPad(shape);
  changed(false);
}

// The digits as buttons (a phone has no keys), and one that clears the cell.
function buildPad(shape) {
  const pad = $("setter-pad");
  const n = shape.size;
  const rows = n <= 9 ? 1 : n <= 16 ? 2 : 3;
  pad.style.setProperty("--cols", Math.ceil((n + 1) / rows));
  const key = (text, label, digit) => {
    const element = button(text, () => {
      setGiven(setter.selected, digit);
      $("setter-board").focus({ preventScroll: true });
    }, label);
    return element;
  };
  pad.replaceChildren(...shape.digits.map((char, k) => key(char, `given ${char}`, k + 1)), key("⌫", "clear the cell", 0));
}

async function emptyGrid() {
  const size = Number($("setter-size").value) || 9;
  const variant = $("setter-variant").value || "standard";
  const givens = ".".repeat(size * size);
  try {
    begin((await api("/api/parse", { puzzle: { size, givens }, variant })).puzzle);
  } catch (error) {
    say(error.message, "bad");
  }
}

// Read a pasted puzzle (any format /api/parse reads) and make it the grid: of the variant chosen,
// else (a format that names its own shape and rules, or givens that do not fit the variant) as
// the text alone says, and the message says so.
// Returns why the text could not be read ("" when it was), and says so unless ``quiet``.
async function paste(text, quiet = false) {
  text = text.trim();
  if (!text) return "";
  const variant = $("setter-variant").value;
  let shape = null;
  let note = "";
  try {
    if (variant && variant !== "standard") {
      try {
        shape = (await api("/api/parse", { puzzle: text, variant })).puzzle;
      } catch (error) {
        note = ` (as ${variant}: ${error.message})`;
      }
    }
    shape = shape || (await api("/api/parse", { puzzle: text })).puzzle;
  } catch (error) {
    if (!quiet) say(`That puzzle could not be read: ${error.message}`, "bad");
    return error.message;
  }
  $("setter-paste").value = "";
  fillKinds(shape.variant, shape.size);
  begin(shape);
  setter.note = note && ` Read as ${shape.variant}${note}.`;
  $("setter-board").focus();
  return "";
}

function givensText() {
  const digits = setter.shape.digits;
  return setter.givens.map((d) => (d ? digits[d - 1] : ".")).join("");
}

function setGiven(cell, digit) {
  if (setter.givens[cell] === digit) return;
  setter.history.push([...setter.givens]);
  if (setter.history.length > 500) setter.history.shift();
  setter.givens[cell] = digit;
  changed();
}

function undo() {
  if (!setter.history.length) return;
  setter.givens.splice(0, setter.givens.length, ...setter.history.pop());
  changed();
}

// The givens changed: draw them at once, and ask for the panel a moment later.
function changed(edit = true) {
  setter.edits++;
  setter.note = "";
  setter.bad = false;
  setter.door = null;
  show();
  clearTimeout(setter.timer);
  if (!edit) ask();
  else setter.timer = setTimeout(ask, QUIET);
}

// --- the panel's request ------------------------------------------------------------------------

async function ask() {
  if (!setter.shape) return;
  if (setter.inflight) {
    setter.again = true; // sent when the one in flight answers
    return;
  }
  const edit = setter.edits;
  const clashes = setter.game.conflicts();
  if (clashes.size) {
    const names = [...clashes].slice(0, 4).map((c) => cellName(c, setter.shape.size));
    setter.answer = null;
    setter.shown = edit;
    say(`These givens clash: ${names.join(", ")}${clashes.size > 4 ? " …" : ""}.`, "bad");
    return show();
  }
  setter.inflight = true;
  $("setter-panel").setAttribute("aria-busy", "true");
  if (!setter.answer) say("Counting…");
  try {
    const answer = await api("/api/setter", { puzzle: { ...setter.shape.json, givens: givensText() }, deadline: DEADLINE });
    if (edit === setter.edits) {
      setter.answer = answer;
      setter.shown = edit;
      say(summary(answer), setter.bad || answer.count.status === "none" ? "bad" : answer.count.status === "unique" ? "done" : "");
    }
  } catch (error) {
    if (edit === setter.edits) {
      setter.answer = null;
      setter.shown = edit;
      say(error.message, "bad");
    }
  } finally {
    setter.inflight = false;
    if (setter.again) {
      setter.again = false;
      ask();
    } else $("setter-panel").removeAttribute("aria-busy");
    show();
  }
}

function countWords(count) {
  const n = count.solutions;
  if (count.status === "timeout") return n ? `at least ${n} solutions (counting ran out of time)` : "the count ran out of time";
  if (!count.complete) return `at least ${n} solutions`;
  return n === 0 ? "no solution" : n === 1 ? "one solution: unique" : `${n} solutions`;
}

function summary(answer) {
  const count = answer.count;
  const words = countWords(count);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.${setter.note}`;
}

// --- showing ------------------------------------------------------------------------------------

function show() {
  const { game, shape } = setter;
  if (!game) return;
  const n = shape.size;
  const current = setter.answer && setter.shown === setter.edits ? setter.answer : null;
  board.render({ game, selected: [setter.selected], highlight: true });
  const answer = setter.answer; // the last answer, greyed while a newer one is on its way
  const stale = Boolean(answer) && !current;
  $("setter-board").classList.toggle("stale", stale);
  $("setter-facts").classList.toggle("stale", stale);
  if (answer) decorate(answer, n);
  facts(answer, n);
  $("setter-undo").disabled = !setter.history.length;
}

// The answer drawn on the board: true candidates small in the empty cells, the suggested givens
// in green (a click adds one), the redundant givens ringed, a chosen backdoor's cells shaded.
function decorate(answer, n) {
  const digits = setter.shape.digits;
  const suggested = new Map(answer.make_unique.status === "unique" ? answer.make_unique.added.map((p) => [p.cell, p.digit]) : []);
  const redundant = new Set(answer.count.status === "unique" ? answer.redundant.givens : []);
  const door = new Set(setter.door ? setter.door.map((p) => p.cell) : []);
  const candidates = answer.candidates.candidates;
  for (let cell = 0; cell < n * n; cell++) {
    const element = board.cells[cell];
    if (setter.givens[cell]) {
      if (redundant.has(cell)) {
        element.classList.add("redundant");
        element.setAttribute("aria-label", `${element.getAttribute("aria-label")}, redundant`);
      }
      continue;
    }
    if (door.has(cell)) element.classList.add("door");
    if (suggested.has(cell)) {
      const digit = suggested.get(cell);
      const mark = document.createElement("span");
      mark.className = "value suggested";
      mark.textContent = digits[digit - 1];
      element.replaceChildren(mark);
      element.setAttribute("aria-label", `${cellName(cell, n)}: empty, suggested given ${digits[digit - 1]} (Enter adds it)`);
      continue;
    }
    const mine = candidates[cell] || [];
    if (!mine.length) continue;
    const grid = document.createElement("div");
    grid.className = "cands";
    for (let d = 1; d <= n; d++) {
      const span = document.createElement("span");
      span.textContent = mine.includes(d) ? digits[d - 1] : "";
      grid.append(span);
    }
    element.replaceChildren(grid);
    const undecided = (answer.candidates.undecided[cell] || []).map((d) => digits[d - 1]);
    element.setAttribute(
      "aria-label",
      `${cellName(cell, n)}: empty, true candidates ${mine.map((d) => digits[d - 1]).join(" ")}${undecided.length ? `, not settled ${undecided.join(" ")}` : ""}`,
    );
  }
}

function row(term, ...details) {
  const dt = document.createElement("dt");
  dt.textContent = term;
  const dd = document.createElement("dd");
  dd.append(...details);
  return [dt, dd];
}

function button(text, onClick, label) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  if (label) element.setAttribute("aria-label", label);
  element.addEventListener("click", onClick);
  return element;
}

const partWords = (part) => WORDS[part.status] || part.status;

// The panel's facts, from the last answer.
function facts(answer, n) {
  const list = $("setter-facts");
  const filled = setter.givens.filter(Boolean).length;
  const items = [row("Givens", String(filled))];
  if (answer) {
    const { count, rating, redundant, make_unique: made, backdoors } = answer;
    if (count.status === "unique") {
      const rated = rating.status === "unique" ? `${rating.level}${rating.se != null ? ` (SE ${rating.se})` : ""}` : partWords(rating);
      items.push(row("Rating", rated));
      const names = redundant.givens.map((c) => cellName(c, n));
      let said = redundant.status === "unique" ? "none: every given is needed" : partWords(redundant);
      if (names.length) {
        const together = redundant.together.length;
        said = `${names.length} can each go (marked): ${names.join(", ")}`;
        if (together > 1) said += `; ${together} of them together${redundant.proven_largest ? "" : " at least"}`;
        if (redundant.status === "timeout") said += " (more may: out of time)";
      }
      items.push(row("Redundant", said));
      items.push(row("Backdoors", ...doorList(backdoors, n)));
    } else if (count.status !== "none") {
      items.push(row("To make it unique", ...suggestions(made, n)));
    }
    const cands = answer.candidates;
    if (cands.status === "timeout") items.push(row("Candidates", "only those found in time are shown"));
  }
  list.replaceChildren(...items.flat());
}

function suggestions(made, n) {
  if (made.status === "timeout" && !made.added.length) return ["no answer in time"];
  if (made.status !== "unique" || !made.added.length) return [partWords(made)];
  const digits = setter.shape.digits;
  const words = `add ${made.added.length} given${made.added.length === 1 ? "" : "s"}${made.proven_minimal ? " (the fewest)" : ""}:`;
  const buttons = made.added.map(({ cell, digit }) =>
    button(`${cellName(cell, n)}=${digits[digit - 1]}`, () => addSuggested(cell), `add ${digits[digit - 1]} in ${cellName(cell, n)}`),
  );
  const all = button("Add all", () => addAll(made.added));
  all.className = "primary";
  const span = document.createElement("span");
  span.className = "chips";
  span.append(...buttons, all);
  return [words, span];
}

function doorList(doors, n) {
  if (doors.status === "invalid") return [doors.error || "does not apply"];
  if (doors.status === "solved") return ["none needed: singles solve it"];
  if (doors.status === "not-found") return ["none of up to 3 cells"];
  if (!doors.backdoors.length) return [partWords(doors)];
  const digits = setter.shape.digits;
  const shown = doors.backdoors.slice(0, 8);
  const words = `${doors.count}${doors.complete ? "" : "+"} of ${doors.size} cell${doors.size === 1 ? "" : "s"} (singles):`;
  const span = document.createElement("span");
  span.className = "chips";
  for (const door of shown) {
    const text = door.map(({ cell, digit }) => `${cellName(cell, n)}=${digits[digit - 1]}`).join(" ");
    const chip = button(text, () => {
      setter.door = setter.door === door ? null : door;
      show();
    });
    chip.setAttribute("aria-pressed", String(setter.door === door));
    span.append(chip);
  }
  if (doors.backdoors.length > shown.length) span.append(`and ${doors.count - shown.length} more`);
  return [words, span];
}

// Add the given suggested for ``cell``: only from an answer about the grid as it stands.
function addSuggested(cell) {
  const answer = setter.shown === setter.edits ? setter.answer : null;
  const found = answer && answer.make_unique.added.find((p) => p.cell === cell);
  if (!found || setter.givens[cell]) return false;
  setter.selected = cell;
  setGiven(cell, found.digit);
  $("setter-board").focus({ preventScroll: true });
  return true;
}

function addAll(added) {
  setter.history.push([...setter.givens]);
  for (const { cell, digit } of added) if (!setter.givens[cell]) setter.givens[cell] = digit;
  changed();
  $("setter-board").focus({ preventScroll: true });
}

// --- the size and variant ---------------------------------------------------------------------

function fill(select, options, value) {
  select.replaceChildren(...options.map(([v, text]) => new Option(text, v)));
  if (options.some(([v]) => String(v) === String(value))) select.value = value;
}

// The variants the generator's table offers (each with its sizes), the jigsaw aside (its layout
// is a puzzle's own: paste one).
function fillKinds(variant, size) {
  const offered = page.features.offered || { standard: [4, 6, 9, 16] };
  const kinds = Object.keys(offered).filter((v) => v !== "jigsaw");
  if (!kinds.includes(variant)) kinds.push(variant);
  fill($("setter-variant"), kinds.map((v) => [v, v]), variant);
  const sizes = offered[variant] || [size];
  fill($("setter-size"), (sizes.includes(size) ? sizes : [...sizes, size]).map((s) => [s, `${s}×${s}`]), size);
}

// --- keys and pointer ---------------------------------------------------------------------------

function onKey(event) {
  const { game, shape } = setter;
  if (!game) return;
  const n = shape.size;
  const arrows = { ArrowUp: -n, ArrowDown: n, ArrowLeft: -1, ArrowRight: 1 };
  const key = event.key;
  if (arrows[key]) {
    event.preventDefault();
    const cell = setter.selected + arrows[key];
    const sameRow = Math.abs(arrows[key]) === 1 ? Math.floor(cell / n) === Math.floor(setter.selected / n) : true;
    if (cell >= 0 && cell < n * n && sameRow) setter.selected = cell;
    return show();
  }
  if ((event.ctrlKey || event.metaKey) && (key === "z" || key === "Z")) {
    event.preventDefault();
    return undo();
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (key === "Enter") {
    event.preventDefault();
    return addSuggested(setter.selected);
  }
  if (["Backspace", "Delete", "0", "."].includes(key)) {
    event.preventDefault();
    return setGiven(setter.selected, 0);
  }
  if ((key === "z" || key === "Z") && !shape.digits.includes("Z")) {
    event.preventDefault();
    return undo();
  }
  const digit = shape.digits.indexOf(key.toUpperCase()) + 1;
  if (digit) {
    event.preventDefault();
    setGiven(setter.selected, digit);
  }
}

// A press on a suggested digit adds it; taken before the Board selects the cell and draws it
// afresh.
function onPress(event) {
  const mark = event.target.closest && event.target.closest(".suggested");
  const cell = event.target.closest && event.target.closest(".cell");
  if (mark && cell) addSuggested(Number(cell.dataset.cell));
}

// Opens the dialog; with ``text`` (a link's #setter=), that puzzle loaded. Text that cannot be
// read leaves an empty grid (or the one there) and says why above the panel.
export async function openSetter(text = "") {
  if (!$("setter-dialog").open) $("setter-dialog").showModal();
  const problem = text ? await paste(text, true) : "";
  if (!setter.shape) {
    const game = page.game;
    fillKinds(game ? game.puzzle.variant : "standard", 9);
    await emptyGrid();
  }
  if (problem) {
    setter.note = ` The link's puzzle could not be read: ${problem}`;
    setter.bad = true;
    say(setter.note.trim(), "bad");
  }
  $("setter-board").focus();
}

export function wireSetter() {
  $("setter-board").addEventListener("keydown", onKey);
  $("setter-board").addEventListener("pointerdown", onPress, { capture: true });
  $("setter-board").addEventListener("paste", (event) => {
    event.preventDefault();
    paste(event.clipboardData.getData("text"));
  });
  $("setter-load").addEventListener("click", () => paste($("setter-paste").value));
  $("setter-paste").addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      paste($("setter-paste").value);
    }
  });
  $("setter-undo").addEventListener("click", undo);
  $("setter-clear").addEventListener("click", () => {
    setter.history.push([...setter.givens]);
    setter.givens.fill(0);
    changed();
  });
  $("setter-variant").addEventListener("change", () => {
    fillKinds($("setter-variant").value, Number($("setter-size").value));
    emptyGrid();
  });
  $("setter-size").addEventListener("change", emptyGrid);
  $("setter-close").addEventListener("click", () => $("setter-dialog").close());
}
