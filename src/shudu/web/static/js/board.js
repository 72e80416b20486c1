// Drawing the grid: cells, box or jigsaw lines, shaded extra regions, diagonals, and overlays
// (selection, houses, conflicts, a hint's cells and candidates, the search replay), and the
// puzzle's constraint rules (rules.js) under and over the digits.

import { drawRules } from "./rules.js";

const CORNERS = [
  [0, 0], [100, 0], [0, 100], [100, 100], [50, 0], [50, 100], [0, 50], [100, 50], [50, 50],
];

export class Board {
  constructor(element, { onSelect }) {
    this.element = element;
    this.onSelect = onSelect;
    this.cells = [];
    this.puzzle = null;
    this.totals = new Map(); // cell → the cage total in its top-left corner
    this.ruleWords = [];
    this.dragging = false;
    element.addEventListener("pointerup", () => (this.dragging = false));
    element.addEventListener("pointerleave", () => (this.dragging = false));
  }

  setPuzzle(puzzle) {
    const n = puzzle.size;
    this.puzzle = puzzle;
    this.side = Math.ceil(Math.sqrt(n));
    this.element.style.setProperty("--n", n);
    this.element.style.setProperty("--side", this.side);
    this.element.dataset.n = n;
    this.element.setAttribute("aria-rowcount", n);
    this.element.setAttribute("aria-colcount", n);
    this.element.replaceChildren();
    this.links = null;
    const shade = new Array(n * n).fill(null);
    puzzle.extras
      .filter((extra) => !extra.diagonal)
      .forEach((extra, k) => extra.cells.forEach((cell) => (shade[cell] ??= k % 6)));
    const region = puzzle.region;
    const tint = this.regionTints(puzzle);
    this.cells = [];
    for (let r = 0; r < n; r++) {
      const row = document.createElement("div");
      row.className = "row";
      row.setAttribute("role", "row");
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        const cell = document.createElement("div");
        cell.setAttribute("role", "gridcell");
        cell.dataset.cell = i;
        const classes = ["cell"];
        if (c === n - 1) classes.push("last-col");
        else if (region[i] !== region[i + 1]) classes.push("thick-right");
        if (r === n - 1) classes.push("last-row");
        else if (region[i] !== region[i + n]) classes.push("thick-bottom");
        cell.dataset.base = classes.join(" ");
        if (shade[i] !== null) cell.dataset.extra = shade[i];
        else if (tint) cell.dataset.tint = tint[region[i]];
        cell.addEventListener("pointerdown", (event) => {
          event.preventDefault();
          this.element.focus({ preventScroll: true });
          this.dragging = true;
          this.onSelect(i, event.shiftKey || event.ctrlKey || event.metaKey);
        });
        cell.addEventListener("pointerenter", () => {
          if (this.dragging) this.onSelect(i, true);
        });
        row.append(cell);
        this.cells.push(cell);
      }
      this.element.append(row);
    }
    const diagonals = puzzle.extras.filter((extra) => extra.diagonal);
    if (diagonals.length) {
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("class", "overlay");
      svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
      svg.setAttribute("preserveAspectRatio", "none");
      svg.setAttribute("aria-hidden", "true");
      for (const diagonal of diagonals) {
        const main = diagonal.cells.includes(0);
        const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
        line.setAttribute("x1", main ? 0 : n);
        line.setAttribute("y1", 0);
        line.setAttribute("x2", main ? n : 0);
        line.setAttribute("y2", n);
        svg.append(line);
      }
      this.element.append(svg);
    }
    this.drawRules(puzzle);
  }

  // The rules, from their JSON form as the server sent it; the frame makes room for the clues
  // outside the grid (one cell all round), and a cage's total keeps its corner free of marks.
  drawRules(puzzle) {
    const rules = puzzle.rules || [];
    const frame = this.element.parentElement;
    this.totals = new Map();
    this.ruleWords = [];
    if (frame) frame.style.padding = "";
    if (!rules.length) return;
    const drawing = drawRules(rules, puzzle.size);
    this.element.append(drawing.under, drawing.over);
    this.totals = drawing.totals;
    this.ruleWords = drawing.words;
    // a cell of room on each side with clues; padding is a share of the width, so one cell is
    // 1 / (n + the sides padded across) of it
    const { left, top, right, bottom } = drawing.sides;
    const cell = 100 / (puzzle.size + Number(left) + Number(right));
    if (frame) frame.style.padding = [top, right, bottom, left].map((side) => (side ? `${cell}%` : "0")).join(" ");
  }

  // Irregular (jigsaw) regions each get a soft tint, neighbours never the same: a greedy colouring
  // of the regions' touching graph (four colours seldom run out; a fifth and sixth are there).
  // Boxes get none: their thick lines are enough.
  regionTints(puzzle) {
    const n = puzzle.size;
    const region = puzzle.region;
    const bounds = new Map(); // region → [top, bottom, left, right, cells]
    region.forEach((r, i) => {
      const [row, col] = [Math.floor(i / n), i % n];
      const b = bounds.get(r) || [row, row, col, col, 0];
      bounds.set(r, [Math.min(b[0], row), Math.max(b[1], row), Math.min(b[2], col), Math.max(b[3], col), b[4] + 1]);
    });
    const boxed = [...bounds.values()].every(([t, b, l, r, count]) => (b - t + 1) * (r - l + 1) === count);
    if (boxed) return null;
    const touching = new Map();
    const link = (a, b) => {
      if (a === b) return;
      if (!touching.has(a)) touching.set(a, new Set());
      if (!touching.has(b)) touching.set(b, new Set());
      touching.get(a).add(b);
      touching.get(b).add(a);
    };
    for (let i = 0; i < n * n; i++) {
      if (i % n < n - 1) link(region[i], region[i + 1]);
      if (i + n < n * n) link(region[i], region[i + n]);
    }
    const colour = {};
    for (const r of [...new Set(region)].sort((a, b) => a - b)) {
      const used = new Set([...(touching.get(r) || [])].map((o) => colour[o]));
      let k = 0;
      while (used.has(k)) k++;
      colour[r] = k % 6;
    }
    return colour;
  }

  // view: {game, selected: [cells], wrong: Set, badMarks: Set,
  //        step: {cells, area, placements, eliminations, candidates?, links?},
  //        replay: {values, candidates?, cell?, bad?, emptied?}} — a replay (the explanation or the
  //        search) shows its own digits instead of the player's.
  render(view) {
    const { game, step, replay } = view;
    const n = game.size;
    const selected = new Set(view.selected);
    const focus = view.selected.length ? view.selected[view.selected.length - 1] : null;
    const houses = new Set();
    if (focus !== null) for (const peer of game.peers[focus]) houses.add(peer);
    const focusDigit = focus !== null ? game.value(focus) : 0;
    const highlight = view.highlight !== false;
    const conflicts = game.conflicts();
    const wrong = view.wrong || new Set();
    for (let i = 0; i < n * n; i++) {
      const cell = this.cells[i];
      const classes = [cell.dataset.base];
      let value = game.value(i);
      let kind = game.isGiven(i) ? "given" : "entry";
      let cands = null;
      if (replay) {
        value = replay.values[i];
        if (!game.isGiven(i)) kind = "shown";
        if (!value && replay.candidates) cands = { show: replay.candidates[i], out: 0, in: 0 };
        if (i === replay.cell) classes.push(replay.bad ? "trace-bad" : "trace-cell");
        if (i === replay.emptied) classes.push("trace-bad");
      } else {
        if (highlight && houses.has(i)) classes.push("house");
        if (highlight && focusDigit && game.value(i) === focusDigit) classes.push("same");
        if (selected.has(i)) classes.push("selected");
        if (conflicts.has(i)) classes.push("conflict");
        if (wrong.has(i)) classes.push("wrong");
      }
      if (view.badMarks && view.badMarks.has(i)) classes.push("wrong-marks");
      if (step) {
        if (step.area.has(i)) classes.push("area");
        if (step.cells.has(i)) classes.push("step");
        if (!value && step.candidates) {
          // the teaching view: every candidate of the cell, the removed ones struck, the placed one marked
          const out = (step.eliminations.get(i) || []).reduce((m, d) => m | (1 << d), 0);
          const put = step.placements.has(i) ? 1 << step.placements.get(i) : 0;
          cands = { show: step.candidates[i] | out | put, out, in: put };
        } else if (!value && step.placements.has(i) && !step.eliminations.has(i)) {
          classes.push("placing");
          value = step.placements.get(i);
        } else if (!value && (step.placements.has(i) || step.eliminations.has(i))) {
          const out = (step.eliminations.get(i) || []).reduce((m, d) => m | (1 << d), 0);
          const put = step.placements.has(i) ? 1 << step.placements.get(i) : 0;
          cands = { show: out | put, out, in: put };
        }
      }
      classes.push(kind);
      cell.className = classes.join(" ");
      cell.setAttribute("aria-selected", selected.has(i) ? "true" : "false");
      cell.setAttribute("aria-label", this.describe(game, i, value));
      cell.replaceChildren(...this.content(game, i, value, cands, Boolean(replay), highlight && !replay ? focusDigit : 0));
    }
    this.drawLinks(step && step.candidates ? step.links : null);
  }

  // Where candidate ``digit`` of ``cell`` is drawn, in board units (a cell is 1 by 1).
  spot(cell, digit) {
    const n = this.puzzle.size;
    const side = this.side;
    const k = digit - 1;
    return [(cell % n) + 0.04 + (0.92 * ((k % side) + 0.5)) / side, Math.floor(cell / n) + 0.04 + (0.92 * (Math.floor(k / side) + 0.5)) / side];
  }

  // A node (one or more cells, one digit) at the middle of its candidates.
  centre(node) {
    const points = node.at.map((cell) => this.spot(cell, node.digit));
    return [points.reduce((t, p) => t + p[0], 0) / points.length, points.reduce((t, p) => t + p[1], 0) / points.length];
  }

  // The links of a chain, loop or net between candidates: strong solid, weak dashed, each node ringed.
  drawLinks(links) {
    if (this.links) this.links.remove();
    this.links = null;
    if (!links || !links.edges.length && !links.nodes.length) return;
    const n = this.puzzle.size;
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", "overlay links");
    svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
    svg.setAttribute("aria-hidden", "true");
    const r = 0.46 / this.side;
    for (const edge of links.edges) {
      const [x1, y1] = this.centre(edge.from);
      const [x2, y2] = this.centre(edge.to);
      const length = Math.hypot(x2 - x1, y2 - y1) || 1;
      const [dx, dy] = [((x2 - x1) / length) * r, ((y2 - y1) / length) * r];
      const line = document.createElementNS(ns, "line");
      line.setAttribute("class", `link ${edge.kind === "strong" ? "strong" : "weak"}`);
      line.setAttribute("x1", x1 + dx);
      line.setAttribute("y1", y1 + dy);
      line.setAttribute("x2", x2 - dx);
      line.setAttribute("y2", y2 - dy);
      svg.append(line);
    }
    for (const node of links.nodes) {
      for (const cell of node.at) {
        const [x, y] = this.spot(cell, node.digit);
        const ring = document.createElementNS(ns, "circle");
        ring.setAttribute("class", `node ${node.on === false ? "off" : node.on ? "on" : ""}`.trim());
        ring.setAttribute("cx", x);
        ring.setAttribute("cy", y);
        ring.setAttribute("r", r);
        svg.append(ring);
      }
    }
    this.element.append(svg);
    this.links = svg;
  }

  describe(game, cell, value) {
    const n = game.size;
    const total = this.totals.get(cell);
    const name = `r${Math.floor(cell / n) + 1}c${(cell % n) + 1}${total ? ` (cage total ${total})` : ""}`;
    if (value) return `${name}: ${this.puzzle.digits[value - 1]}${game.isGiven(cell) ? " (given)" : ""}`;
    const marks = [...game.corner[cell], ...game.centre[cell]].map((d) => this.puzzle.digits[d - 1]);
    return marks.length ? `${name}: empty, marks ${marks.join(" ")}` : `${name}: empty`;
  }

  // ``lit``: the selected cell's digit, shown stronger inside pencil marks.
  content(game, cell, value, cands, bare, lit = 0) {
    const digits = this.puzzle.digits;
    const span = (cls, text) => {
      const el = document.createElement("span");
      if (cls) el.className = cls;
      el.textContent = text;
      return el;
    };
    if (value) return [span("value", digits[value - 1])];
    const parts = [];
    if (cands) {
      const grid = document.createElement("div");
      grid.className = "cands";
      for (let d = 1; d <= game.size; d++) {
        const bit = 1 << d;
        const cls = cands.out & bit ? "out" : cands.in & bit ? "in" : "";
        grid.append(span(cls, cands.show & bit ? digits[d - 1] : ""));
      }
      return [grid];
    }
    if (bare) return [];
    const corner = game.corner[cell];
    if (corner.length) {
      const box = document.createElement("div");
      box.className = "corner";
      // a cage's total holds the top-left corner (and the top middle beside it): the marks go round them
      const spots = this.totals.has(cell) ? CORNERS.filter((_, k) => k !== 0 && k !== 4) : CORNERS;
      corner.slice(0, spots.length).forEach((d, k) => {
        const mark = span(d === lit ? "lit" : "", digits[d - 1]);
        const [x, y] = spots[k];
        mark.style.left = `${x}%`;
        mark.style.top = `${y}%`;
        mark.style.transform = `translate(-${x}%, -${y}%)`;
        box.append(mark);
      });
      parts.push(box);
    }
    const centre = [...game.centre[cell], ...corner.slice(this.totals.has(cell) ? CORNERS.length - 2 : CORNERS.length)];
    if (centre.length) {
      const box = span("centre", "");
      const line = span("", ""); // one inline run inside the flex box: the marks read as one word
      line.append(...centre.map((d) => span(d === lit ? "lit" : "", digits[d - 1])));
      box.append(line);
      if (centre.length > 4) box.style.fontSize = `max(7px, ${Math.max(0.18, 1.3 / centre.length)}em)`;
      parts.push(box);
    }
    return parts;
  }
}
