// The page's shared state: the game in play, the selection, the open views and the settings.

export const $ = (id) => document.getElementById(id);

export const page = {
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
  teach: null, // the step drawn with its numbered words (teach.js): {step, candidates, parts, part, …}
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
