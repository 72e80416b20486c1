// The dialogs: a new puzzle (from the bank or pasted in any format), the bank's picture, and the
// saved games.

import { api } from "./api.js";
import { openGame, title } from "./app.js";
import { drawBank } from "./bank.js";
import { $, page } from "./state.js";

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

// New puzzle offers only what the generator can make: each variant, and each set of constraint
// rules (killer, thermo …), with the sizes it admits (from /api/features "offered" and
// "rule_sets"); changing the kind narrows the sizes.
export function isRuleSet(kind) {
  return Boolean(page.features.rule_sets && page.features.rule_sets[kind]);
}

function fillSizes() {
  const f = page.features;
  const kind = $("new-variant").value;
  const sizes = (f.rule_sets && f.rule_sets[kind]) || (f.offered && f.offered[kind]) || f.sizes;
  const keep = Number($("new-size").value) || (page.game ? page.game.size : 9);
  fillSelect($("new-size"), sizes.map((n) => [n, `${n}×${n}`]), sizes.includes(keep) ? keep : sizes.includes(9) ? 9 : sizes[0]);
}

export function openNewDialog() {
  const f = page.features;
  const variants = [...Object.keys(f.offered || f.variants), ...Object.keys(f.rule_sets || {})].filter(
    (name) => name !== "custom",
  );
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

// The pasted puzzle, once checked (null while it is not).
export function ownChosen() {
  return ownPuzzle;
}

// Check the pasted puzzle once the typing pauses.
export function checkOwnSoon() {
  clearTimeout(ownTimer);
  ownTimer = setTimeout(checkOwn, 250);
}

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

export async function openGamesDialog() {
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
