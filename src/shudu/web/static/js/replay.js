// Replaying the enumeration solver's search (paper 1) step by step.
//
// The server sends the steps: "start" (every cell's candidates as a bitmask, bit d = digit d),
// "forward" (a try of digit at cell that left every cell a candidate; struck: the peers that
// lost it), "reject" (a try that emptied a cell; undone), "back" (restore the state saved on
// arriving at the previous cell), "solution" and "done". Going forward pushes a copy of the
// state; going back pops it.

export class Replay {
  constructor(game, steps, truncated, onShow) {
    this.game = game;
    this.steps = steps;
    this.truncated = truncated;
    this.onShow = onShow;
    this.index = 0;
    this.timer = null;
    this.names = (cell) => `r${Math.floor(cell / game.size) + 1}c${(cell % game.size) + 1}`;
  }

  // The candidates and digits after the steps 0 … index.
  stateAt(index) {
    let state = { candidates: [], values: [...this.game.givens] };
    const stack = [];
    for (const step of this.steps.slice(0, index + 1)) {
      if (step.kind === "start") state = { candidates: [...step.candidates], values: [...this.game.givens] };
      else if (step.kind === "forward") {
        stack.push({ candidates: [...state.candidates], values: [...state.values] });
        state.candidates[step.cell] = 1 << step.digit;
        state.values[step.cell] = step.digit;
        for (const peer of step.struck) state.candidates[peer] &= ~(1 << step.digit);
      } else if (step.kind === "back" && stack.length) state = stack.pop();
      else if (step.kind === "solution" && step.grid) state.values = [...step.grid];
    }
    return state;
  }

  text(step, index) {
    const digit = step.digit ? this.game.puzzle.digits[step.digit - 1] : "";
    const where = step.cell !== undefined ? this.names(step.cell) : "";
    const what = {
      start: "The givens strike their digits from their peers' candidates.",
      forward: `Try ${digit} at ${where}: every cell keeps a candidate; on to the next empty cell.`,
      reject: `Try ${digit} at ${where}: ${step.emptied !== undefined ? this.names(step.emptied) : "a cell"} has no candidate left; undo.`,
      back: "No digit left to try here: step back to the previous empty cell and restore its saved state.",
      solution: "Every cell is filled: a solution.",
      done: "Every possibility has been tried.",
    }[step.kind] || step.kind;
    const more = this.truncated && index === this.steps.length - 1 ? " (the replay stops here)" : "";
    return `Step ${index + 1} of ${this.steps.length}${this.truncated ? "+" : ""}: ${what}${more}`;
  }

  show(index) {
    if (!this.steps.length) return;
    this.index = Math.max(0, Math.min(index, this.steps.length - 1));
    const step = this.steps[this.index];
    const state = this.stateAt(this.index);
    this.onShow(
      {
        values: state.values,
        candidates: state.candidates,
        cell: step.cell,
        bad: step.kind === "reject",
        emptied: step.emptied,
      },
      this.text(step, this.index),
      this.index,
    );
    if (this.index === this.steps.length - 1) this.stop();
  }

  toggle() {
    if (this.timer) {
      this.stop();
      return false;
    }
    this.timer = setInterval(() => this.show(this.index + 1), 250);
    return true;
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }
}
