// Saving the game in play: versioned saves, one in flight at a time, moves kept in localStorage
// until the server has them; the solution and the rating, asked once.

import { api, putGame } from "./api.js";
import { showLevel } from "./app.js";
import { $, page } from "./state.js";

// --- saving ----------------------------------------------------------------------------------
//
// Every save names the version of the game it is based on; the server refuses (409) a save based
// on an older version, so two pages never overwrite each other. One save is in flight at a time.
// Until a move reaches the server it also waits in localStorage, so a reload or a crash that
// beats the save brings it back: a pending state is used unless the server holds a later version
// than the one it was based on.

export const pendingKey = (id) => `shudu-pending-${id}`;

function keepPending(game) {
  const base = game.version + (page.saving ? 1 : 0); // an answered save in flight moves the version on
  try {
    localStorage.setItem(pendingKey(game.id), JSON.stringify({ base, state: game.toSave() }));
  } catch (error) {
    /* storage full or refused: the server copy is still there */
  }
}

export function withPending(saved) {
  const raw = localStorage.getItem(pendingKey(saved.id));
  if (!raw) return saved;
  localStorage.removeItem(pendingKey(saved.id));
  try {
    const { base, state } = JSON.parse(raw);
    // the server has moved on (that save landed, or another page's): its state is the newer
    if (base < saved.version) return saved;
    // base === saved.version: these moves never reached the server. base > saved.version: they
    // are based on a save still on its way; they are sent again (the server takes a save of moves
    // it holds already as no change, whichever lands first), never dropped.
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

export function saveProblem(kind, text = "") {
  page.saveStopped = kind === "stale" || kind === "gone" ? kind : null;
  const box = $("save-problem");
  box.hidden = !kind;
  box.dataset.kind = kind || "";
  $("save-problem-text").textContent = text;
  $("save-reload").hidden = kind !== "stale";
}

export async function saveNow(closing = false) {
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
export function saveLater(closing = false) {
  const game = page.game;
  if (!game || game.id === null || page.saveStopped) return;
  page.dirty = true;
  keepPending(game);
  saveNow(closing);
}

export async function solution() {
  const game = page.game;
  if (!game.solution) {
    const result = await api("/api/solve", { puzzle: game.puzzle.json });
    if (!result.solution) throw new Error(`the puzzle has ${result.status === "none" ? "no solution" : "no answer in time"}`);
    game.solution = result.solution;
  }
  return game.solution;
}

export async function rate() {
  try {
    const rating = await api("/api/rate", { puzzle: page.game.puzzle.json });
    const label = rating.level ?? rating.rating ?? rating.score;
    if (label !== undefined && label !== null) showLevel(String(label));
  } catch (error) {
    /* a rating is a nicety; the game goes on without it */
  }
}
