// This game's hints and mistakes, and its end: the check of a full grid and the completion screen.

import { api } from "./api.js";
import { render, saving, say, tick } from "./app.js";
import { saveLater, solution } from "./saving.js";
import { $, page } from "./state.js";

// --- this game's hints and mistakes (kept in localStorage: the server's game has no place for them)

const statsKey = (id) => `shudu-stats-${id}`;

export function loadStats(id) {
  try {
    const raw = JSON.parse(localStorage.getItem(statsKey(id)) || "{}");
    return { hints: Number(raw.hints) || 0, mistakes: Number(raw.mistakes) || 0 };
  } catch (error) {
    return { hints: 0, mistakes: 0 };
  }
}

export function keepStats() {
  if (page.game && page.game.id !== null) {
    try {
      localStorage.setItem(statsKey(page.game.id), JSON.stringify(page.stats));
    } catch (error) {
      /* a nicety: the game goes on without it */
    }
  }
}

export async function finish(byShudu = false) {
  const game = page.game;
  try {
    await solution();
  } catch (error) {
    // a classic puzzle without a known solution is done when it is full and clash-free; one with
    // rules needs its solution to be judged
    if (game.hasRules) {
      say(`Every cell is filled, but the rules could not be checked: ${error.message}`, "bad");
      return;
    }
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
