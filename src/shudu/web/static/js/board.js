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
    const filled = new Set(); // the cells showing a digit: links go round them
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
      if (value) filled.add(i);
      cell.className = classes.join(" ");
      cell.setAttribute("aria-selected", selected.has(i) ? "true" : "false");
      cell.setAttribute("aria-label", this.describe(game, i, value));
      cell.replaceChildren(...this.content(game, i, value, cands, Boolean(replay), highlight && !replay ? focusDigit : 0));
    }
    this.drawLinks(step && step.candidates ? step.links : null, filled);
  }

  // Where candidate ``digit`` of ``cell`` is drawn, in board units (a cell is 1 by 1): where the
  // page laid its glyph out (cell borders shift it a little), else where the grid puts it.
  spot(cell, digit) {
    const glyph = this.cells[cell] && this.cells[cell].querySelector(`.cands > span:nth-child(${digit})`);
    const board = this.element;
    if (glyph && board.clientWidth) {
      const box = glyph.getBoundingClientRect();
      const frame = board.getBoundingClientRect();
      const unit = board.clientWidth / this.puzzle.size;
      if (box.width) return [(box.left + box.width / 2 - frame.left - board.clientLeft) / unit, (box.top + box.height / 2 - frame.top - board.clientTop) / unit];
    }
    return this.gridSpot(cell, digit);
  }

  gridSpot(cell, digit) {
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

  // The links of a chain, loop or net between candidates: strong solid, weak dashed, each node
  // ringed and numbered as the step's text numbers it. A link whose straight line would cross a
  // cell holding a digit bows around it, or, failing a clear bow, goes round by the grid's corners.
  drawLinks(links, filled = new Set()) {
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
    const pixels = this.element.clientWidth / n || 40; // a cell's width on screen
    const blocked = [...filled].map((cell) => [cell % n, Math.floor(cell / n)]);
    const make = (name, attrs) => {
      const el = document.createElementNS(ns, name);
      for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
      return el;
    };
    const halos = [];
    for (const edge of links.edges) {
      const d = linkPath(this.centre(edge.from), this.centre(edge.to), r, blocked, n);
      if (!d) continue;
      const kind = edge.kind === "strong" ? "strong" : "weak";
      // a pale band under each link keeps it apart from the grid's lines it runs along
      const faint = edge.earlier ? " earlier" : "";
      halos.push(make("path", { class: `halo${faint}`, d }));
      svg.append(make("path", { class: `link ${kind}${faint}`, d, "data-from": edge.from.number ?? "", "data-to": edge.to.number ?? "" }));
    }
    svg.prepend(...halos);
    const labels = [];
    for (const node of links.nodes) {
      const state = `${node.on === false ? "off" : node.on ? "on" : ""}${node.earlier ? " earlier" : ""}`.trim();
      for (const cell of node.at) {
        const [x, y] = this.spot(cell, node.digit);
        svg.append(make("circle", { class: `node ${state}`.trim(), cx: x, cy: y, r }));
      }
      if (node.number === undefined || !node.at.length) continue;
      // the number sits on the ring, on the side away from the cell's middle (up and left for
      // the middle candidate), no smaller than 11 px across however small the cell
      const [x, y] = this.spot(node.at[0], node.digit);
      const cell = node.at[0];
      const [mx, my] = [(cell % n) + 0.5, Math.floor(cell / n) + 0.5];
      const away = Math.hypot(x - mx, y - my);
      const [ux, uy] = away > 1e-6 ? [(x - mx) / away, (y - my) / away] : [-Math.SQRT1_2, -Math.SQRT1_2];
      const [lx, ly] = [x + ux * r, y + uy * r];
      const size = Math.min(0.3, Math.max(0.2, 11 / pixels));
      const label = make("g", { class: `num ${state}`.trim(), "data-number": node.number });
      const width = String(node.number).length > 1 ? size * 1.45 : size;
      label.append(make("rect", { x: lx - width / 2, y: ly - size / 2, width, height: size, rx: size / 2 }));
      const text = make("text", { class: "num", x: lx, y: ly, "text-anchor": "middle", "dominant-baseline": "central", "font-size": size * 0.72 });
      text.textContent = node.number;
      label.append(text);
      labels.push(label);
    }
    svg.append(...labels); // over every link and ring
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
      if (centre.length > 4) {
        // more than four: two rows, as players write them, each half the marks (the first row
        // the longer), so they stay legible inside a cage's outline on a phone
        const across = Math.ceil(centre.length / 2);
        box.style.fontSize = `max(7px, ${Math.min(0.34, 1.3 / across)}em)`;
        line.style.maxWidth = `${across + 0.7}ch`; // a digit of the marks is a little over 1ch
        line.classList.add("rows");
      }
      parts.push(box);
    }
    return parts;
  }
}

// --- routing a link around the digits -----------------------------------------------------------

// How near a bow may pass a cell holding a digit (board units), and how finely it is checked.
const CLEAR = 0.03;
const SAMPLES = 48;

// Whether point (x, y) lies inside a blocked cell (its top-left corner [c, r]) grown by ``grow``.
function inBlocked(x, y, blocked, grow) {
  return blocked.some(([c, r]) => x > c - grow && x < c + 1 + grow && y > r - grow && y < r + 1 + grow);
}

// Whether the segment a–b passes through the inside of a blocked cell shrunk by ``inset``
// (Liang–Barsky clipping against each cell).
function segmentBlocked(a, b, blocked, inset) {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  return blocked.some(([c, r]) => {
    let [t0, t1] = [0, 1];
    const edges = [[-dx, a[0] - (c + inset)], [dx, c + 1 - inset - a[0]], [-dy, a[1] - (r + inset)], [dy, r + 1 - inset - a[1]]];
    for (const [p, q] of edges) {
      if (p === 0) {
        if (q <= 0) return false;
      } else {
        const t = q / p;
        if (p < 0) t0 = Math.max(t0, t);
        else t1 = Math.min(t1, t);
      }
    }
    return t0 < t1;
  });
}

const quad = (a, m, b, t) => [
  (1 - t) * (1 - t) * a[0] + 2 * (1 - t) * t * m[0] + t * t * b[0],
  (1 - t) * (1 - t) * a[1] + 2 * (1 - t) * t * m[1] + t * t * b[1],
];

// The path of a link from a to b (both candidate centres), its ends cut back by the ring's
// radius ``r``: straight when clear; else the gentlest clear bow (a quadratic curve to either
// side); else the shortest way by the grid's corners (a visibility graph), which always exists.
export function linkPath(a, b, r, blocked, n) {
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
  if (length < 1e-6) return "";
  const trim = (from, to) => {
    const l = Math.hypot(to[0] - from[0], to[1] - from[1]) || 1;
    return [from[0] + ((to[0] - from[0]) / l) * r, from[1] + ((to[1] - from[1]) / l) * r];
  };
  const f = (v) => +v.toFixed(4);
  if (!segmentBlocked(a, b, blocked, -CLEAR)) {
    const [s, e] = [trim(a, b), trim(b, a)];
    return `M ${f(s[0])} ${f(s[1])} L ${f(e[0])} ${f(e[1])}`;
  }
  const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const normal = [-(b[1] - a[1]) / length, (b[0] - a[0]) / length];
  for (const bow of [0.35, 0.6, 0.9, 1.3, 1.8, 2.5]) {
    for (const side of [1, -1]) {
      const m = [mid[0] + normal[0] * bow * side * Math.max(1, length / 2), mid[1] + normal[1] * bow * side * Math.max(1, length / 2)];
      let clear = true;
      for (let k = 0; k <= SAMPLES && clear; k++) {
        const [x, y] = quad(a, m, b, k / SAMPLES);
        if (x < 0 || y < 0 || x > n || y > n || inBlocked(x, y, blocked, CLEAR)) clear = false;
      }
      if (!clear) continue;
      const [s, e] = [trim(a, m), trim(b, m)];
      return `M ${f(s[0])} ${f(s[1])} Q ${f(m[0])} ${f(m[1])} ${f(e[0])} ${f(e[1])}`;
    }
  }
  const points = cornerRoute(a, b, blocked, n);
  const [s, e] = [trim(a, points[1]), trim(b, points[points.length - 2])];
  const inner = points.slice(1, -1).map(([x, y]) => `L ${f(x)} ${f(y)}`).join(" ");
  return `M ${f(s[0])} ${f(s[1])} ${inner} L ${f(e[0])} ${f(e[1])}`;
}

// The shortest way from a to b that enters no blocked cell, through the corners of the blocked
// cells: Dijkstra on the visibility graph, edges checked as they are met.
function cornerRoute(a, b, blocked, n) {
  const corners = new Map();
  for (const [c, r] of blocked) {
    for (const [x, y] of [[c, r], [c + 1, r], [c, r + 1], [c + 1, r + 1]]) corners.set(`${x},${y}`, [x, y]);
  }
  const points = [a, b, ...corners.values()];
  const dist = points.map(() => Infinity);
  const from = points.map(() => -1);
  const done = points.map(() => false);
  dist[0] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < points.length; i++) if (!done[i] && dist[i] < Infinity && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0 || u === 1) break;
    done[u] = true;
    for (let v = 0; v < points.length; v++) {
      if (done[v]) continue;
      const d = dist[u] + Math.hypot(points[v][0] - points[u][0], points[v][1] - points[u][1]);
      if (d < dist[v] && !segmentBlocked(points[u], points[v], blocked, 0.01)) {
        dist[v] = d;
        from[v] = u;
      }
    }
  }
  if (from[1] < 0) return [a, b];
  const path = [];
  for (let i = 1; i >= 0; i = from[i]) path.unshift(points[i]);
  return path;
}
