// The views a link opens besides its puzzle (the explanation at a step, the Setter): read from the
// address once the page has its game, at the start and when the address changes.

import { say } from "./app.js";
import { $, page } from "./state.js";
import { openSetter } from "./setter.js";
import { explain, showExplain } from "./teach.js";

// A link may open a view as well as a puzzle: #puzzle=…&view=explain&step=N (or #game=ID&view=…)
// opens the explanation at step N (from 1); #setter=PUZZLE opens the Setter with that puzzle
// (#setter= alone: an empty grid). The link is read once: the address becomes the game's.
export function linkedView() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has("setter")) return { view: "setter", puzzle: params.get("setter") };
  if (!params.has("view") && !params.has("step")) return null;
  return { view: params.get("view"), step: params.get("step") };
}

// A bad value opens what it can and says what was wrong.
export async function openView(wanted) {
  if (!wanted) return;
  if (wanted.view === "setter") {
    if (!page.features.setter) return say("This server has no Setter: the link's Setter cannot open.", "bad");
    return openSetter(wanted.puzzle);
  }
  if (wanted.view !== "explain") {
    const what = wanted.view === null ? "a step but no view" : `the view "${wanted.view}"`;
    return say(`This link asks for ${what}; the views a link opens are view=explain (with step=N) and setter=PUZZLE.`, "bad");
  }
  if (!page.features.explain) return say("This server does not explain puzzles: the link's explanation cannot open.", "bad");
  let step = 1;
  let problem = "";
  if (wanted.step !== null) {
    step = Number(wanted.step);
    if (!/^[0-9]+$/.test(wanted.step) || step < 1) {
      problem = `The link's step "${wanted.step}" is not a step number (1, 2, …): the explanation opens at its first step.`;
      step = 1;
    }
  }
  $("explain-panel").open = true;
  await explain(step - 1); // drawn once, at that step (a net's drawing is the page's longest task)
  if (!page.explain) return;
  const total = page.explain.steps.length;
  if (step > total) problem = `The explanation has ${total} step${total === 1 ? "" : "s"}, not ${step}: it opens at its last.`;
  // An explanation already loading when the link came (the panel opened by hand) opened at its
  // own step: move it to the link's.
  const index = Math.min(step, total) - 1;
  if (index >= 0 && page.explain.index !== index) {
    page.explain.index = index;
    showExplain();
  }
  if (problem) say(problem, "bad");
}

