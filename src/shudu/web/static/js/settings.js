// Settings, notes, pause, the sheet and sharing.

import { render, say, tick } from "./app.js";
import { solution } from "./saving.js";
import { $, page } from "./state.js";

export function setTheme(theme) {
  document.documentElement.dataset.theme = theme;
  localStorage.setItem("shudu-theme", theme);
  page.settings.dark = theme === "dark";
  $("set-dark").checked = page.settings.dark;
}

// --- settings, notes, pause, the sheet, sharing ----------------------------------------------
//
// Settings live in this browser's localStorage, as the player does: the player is this browser's
// cookie, and the server keeps games, not preferences.

export const SETTINGS = { check: "set-check", autoNotes: "set-auto", highlight: "set-highlight" };

export function loadSettings() {
  try {
    Object.assign(page.settings, JSON.parse(localStorage.getItem("shudu-settings") || "{}"));
  } catch (error) {
    /* the defaults */
  }
  for (const [name, id] of Object.entries(SETTINGS)) $(id).checked = Boolean(page.settings[name]);
}

export function changeSetting(name, value) {
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

export function setMode(mode) {
  page.mode = mode;
  const radio = document.querySelector(`input[name="mode"][value="${mode}"]`);
  if (radio) radio.checked = true;
  if (page.game) render();
}

// Notes: the centre marks, which hints read as the player's candidates (Shift+digit still adds a
// corner mark).
export function toggleNotes() {
  setMode(page.mode === "digit" ? "centre" : "digit");
}

export function pause(on) {
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
export function openSheet(on, section = null) {
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

export async function share() {
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

export function sharedPuzzle() {
  const text = new URLSearchParams(location.hash.slice(1)).get("puzzle");
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    return text; // a puzzle in one line of text
  }
}
