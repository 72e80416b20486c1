// Drawing a puzzle's constraint rules, from their JSON form as the server sends it (each rule's
// ``to_json``: {"rule": "cage", "cells": ["r1c1", …], "total": 15}), in SudokuPad's visual
// language: dashed killer cages inset in their cells with the total in the top-left corner,
// grey thermometers with a bulb, arrows with a circle and a head, kropki dots and X/V on the
// edges, coloured lines, clues outside the grid, odd circles and even squares.
//
// Two layers, in cell units (the grid spans 0…n, and one cell more on each side where a clue
// stands outside): ``under`` sits over the cells' shading and under the digits (lines, thermometers,
// arrows, shapes), ``over`` sits over the digits and pencil marks (cages and their totals, dots,
// letters, clues), so that no pencil mark hides a total.

const NS = "http://www.w3.org/2000/svg";
const INSET = 0.09; // how far a cage's outline runs inside its cells (as shudu.render draws it)
const RING = 0.4; // an arrow's circle
const LINES = new Set(["whisper", "renban", "palindrome", "entropic", "modular", "parity-line", "region-sum-line", "zipper", "sum-line", "lunchbox"]);
const OUTSIDE = new Set(["sandwich", "x-sum", "skyscraper"]);

// What each rule means, said once under the board (the grid-wide rules have no drawing).
const WORDS = {
  cage: "Killer cages: digits do not repeat in a cage and add up to its total.",
  sum: "Dotted sums: the digits add up to the total (they may repeat).",
  "little-killer": "Little killers: the digits along the arrow's diagonal add up to the clue.",
  arrow: "Arrows: the digits on an arrow add up to the digit in its circle.",
  "double-arrow": "Double arrows: the digits between the circles add up to the two circles' sum.",
  thermo: "Thermometers: digits rise from the bulb.",
  "slow-thermo": "Slow thermometers: digits never fall from the bulb.",
  "white-dot": "White dots: the two digits are consecutive.",
  "black-dot": "Black dots: one digit is double the other.",
  x: "X: the two digits add up to 10.",
  v: "V: the two digits add up to 5.",
  greater: "Signs: the digit at the wide end is greater.",
  whisper: "Green lines: neighbours differ by at least 5.",
  renban: "Purple lines: a set of consecutive digits in any order.",
  palindrome: "Grey lines: read the same from both ends.",
  between: "Between lines: digits lie strictly between the two circles'.",
  "region-sum-line": "Blue lines: each box's stretch of the line has the same sum.",
  zipper: "Zipper lines: digits the same distance from the middle add up to the middle.",
  entropic: "Orange lines: any three in a row hold a low, a middle and a high digit.",
  modular: "Teal lines: any three in a row differ modulo 3.",
  "parity-line": "Red lines: neighbours alternate odd and even.",
  lunchbox: "Lunchboxes: the digits between the smallest and largest add up to the clue.",
  sandwich: "Sandwiches: the digits between 1 and 9 add up to the clue.",
  "x-sum": "X-sums: the first X digits add up to the clue, X being the first digit.",
  skyscraper: "Skyscrapers: the clue counts the digits seen from it, taller hiding shorter.",
  odd: "Grey circles hold odd digits.",
  even: "Grey squares hold even digits.",
  quad: "Quadruples: the digits in the circle appear in the four cells around it.",
  candidates: "Small digits in a corner: the cell holds one of them.",
  "all-different": "Marked groups: no digit repeats.",
  "anti-consecutive": "No two neighbours are consecutive.",
  "strict-kropki": "Negative kropki: every dot is given.",
  "strict-xv": "Negative XV: every X and V is given.",
  "global-entropy": "Every 2x2 holds a low, a middle and a high digit.",
};

// A rule in words, with the parameter that changes its meaning where it has one.
function said(rule) {
  switch (rule.rule) {
    case "digits":
      return `The digits run from ${rule.from}.`;
    case "sum-line":
      return `Gold lines: split into stretches adding up to ${rule.total}${rule.loop ? " (the line is a loop)" : ""}.`;
    case "modular":
      return rule.mod && rule.mod !== 3 ? `Teal lines: any ${rule.mod} in a row differ modulo ${rule.mod}.` : WORDS.modular;
    case "whisper":
      return rule.gap && rule.gap !== 5 ? `Green lines with a small ${rule.gap}: neighbours differ by at least ${rule.gap}.` : WORDS.whisper;
    default:
      return WORDS[rule.rule] || `${rule.rule}.`;
  }
}

// A cell's index from its name (r1c2), on an n x n grid.
export function cellOf(name, n) {
  const match = /^r(\d+)c(\d+)$/i.exec(name);
  return (Number(match[1]) - 1) * n + Number(match[2]) - 1;
}

function el(kind, attrs, cls) {
  const node = document.createElementNS(NS, kind);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (cls) node.setAttribute("class", cls);
  return node;
}

const fmt = (v) => Math.round(v * 1000) / 1000;
const pathOf = (points, closed = false) => points.map(([x, y], i) => `${i ? "L" : "M"}${fmt(x)} ${fmt(y)}`).join(" ") + (closed ? " Z" : "");

function unit([ax, ay], [bx, by]) {
  const length = Math.hypot(bx - ax, by - ay) || 1;
  return [(bx - ax) / length, (by - ay) / length];
}

function arrowhead([tx, ty], [dx, dy], length = 0.26, spread = 0.75) {
  const cos = Math.cos(spread);
  const sin = Math.sin(spread);
  return [
    [tx - (dx * cos - dy * sin) * length, ty - (dx * sin + dy * cos) * length],
    [tx, ty],
    [tx - (dx * cos + dy * sin) * length, ty - (-dx * sin + dy * cos) * length],
  ];
}

// The closed outlines of a cage (one per piece and per hole), inset into its cells: each side of
// a cell with no caged neighbour beyond it, moved in, its ends moved to meet the next side's.
export function cageOutlines(cells, n) {
  const set = new Set(cells);
  const inside = (r, c) => r >= 0 && r < n && c >= 0 && c < n && set.has(r * n + c);
  const key = (p) => p.join(",");
  const next = new Map();
  const sides = [[[-1, 0], [0, 1]], [[0, 1], [1, 0]], [[1, 0], [0, -1]], [[0, -1], [-1, 0]]];
  for (const [[orow, ocol], [trow, tcol]] of sides) {
    for (const cell of set) {
      const [r, c] = [Math.floor(cell / n), cell % n];
      if (inside(r + orow, c + ocol)) continue;
      const ends = [-1, 1].map((s) => {
        const hx = 2 * c + 1 + s * tcol + ocol;
        const hy = 2 * r + 1 + s * trow + orow;
        let [kx, ky] = [-ocol, -orow];
        if (!inside(r + s * trow, c + s * tcol)) [kx, ky] = [kx - s * tcol, ky - s * trow];
        else if (inside(r + s * trow + orow, c + s * tcol + ocol)) [kx, ky] = [kx + s * tcol, ky + s * trow];
        return [hx, kx, hy, ky];
      });
      next.set(key(ends[0]), ends[1]);
    }
  }
  const loops = [];
  while (next.size) {
    const [startKey, first] = next.entries().next().value;
    next.delete(startKey);
    const keys = [startKey.split(",").map(Number)];
    let end = first;
    while (key(end) !== startKey && next.has(key(end))) {
      keys.push(end);
      const after = next.get(key(end));
      next.delete(key(end));
      end = after;
    }
    const points = keys.map(([hx, kx, hy, ky]) => [hx / 2 + kx * INSET, hy / 2 + ky * INSET]);
    loops.push(points.filter((p, i) => {
      const a = points[(i - 1 + points.length) % points.length];
      const b = points[(i + 1) % points.length];
      return Math.abs((p[0] - a[0]) * (b[1] - p[1]) - (p[1] - a[1]) * (b[0] - p[0])) > 1e-9;
    }));
  }
  return loops;
}

// The drawing of ``rules`` on an n x n grid: {under, over, totals (a Map: each cell whose top-left
// corner a small text takes, to its cage total or ""), sides ({left, top, right, bottom}: where clues stand outside the grid), words
// (what the rules mean)}.
export function drawRules(rules, n) {
  const svg = (cls) => el("svg", { "aria-hidden": "true" }, `rules ${cls}`);
  const under = svg("under");
  const over = svg("over");
  const totals = new Map(); // cell → the cage total in its top-left corner ("": another small text)
  const words = [];
  const sides = { left: false, top: false, right: false, bottom: false }; // where clues stand outside
  const outsideAt = (x, y) => {
    if (x < 0) sides.left = true;
    if (y < 0) sides.top = true;
    if (x > n) sides.right = true;
    if (y > n) sides.bottom = true;
  };
  const cells = (rule) => (rule.cells || []).map((name) => cellOf(name, n));
  const centre = (cell) => [(cell % n) + 0.5, Math.floor(cell / n) + 0.5];
  const tag = (node, rule, index) => {
    node.dataset.rule = rule.rule;
    node.dataset.index = index;
    return node;
  };

  const small = (group, cell, text, cls, corner = "top-left") => {
    const [r, c] = [Math.floor(cell / n), cell % n];
    if (corner === "top-left" && totals.has(cell)) corner = "bottom-left";
    if (corner === "top-left") totals.set(cell, cls.startsWith("total") ? text : "");
    const size = 0.25;
    const w = text.length * 0.6 * size + 0.05;
    const x = corner.endsWith("left") ? c + 0.03 : c + 0.97 - w;
    const y = corner.startsWith("top") ? r + 0.03 : r + 0.97 - size;
    group.append(el("rect", { x: fmt(x), y: fmt(y), width: fmt(w), height: size }, "backing"));
    const label = el("text", { x: fmt(x + 0.025), y: fmt(y + size * 0.84), "font-size": size }, cls);
    label.textContent = text;
    group.append(label);
  };

  const edges = (list) => {
    const out = [];
    list.forEach((a, i) => list.slice(i + 1).forEach((b) => {
      if (Math.abs(Math.floor(a / n) - Math.floor(b / n)) + Math.abs((a % n) - (b % n)) === 1) {
        const [pa, pb] = [centre(a), centre(b)];
        out.push([[(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2], unit(pa, pb)]);
      }
    }));
    return out;
  };

  // where an outside clue stands: one step before its first cell, against the way it reads
  const clueSpot = (rule, list) => {
    const [r, c] = [Math.floor(list[0] / n), list[0] % n];
    let step;
    if (list.length > 1) step = [Math.sign((list[1] % n) - c), Math.sign(Math.floor(list[1] / n) - r)];
    else if (rule.rule === "little-killer") step = [c <= n - 1 - c ? 1 : -1, r <= n - 1 - r ? 1 : -1];
    else step = [[c, [1, 0]], [n - 1 - c, [-1, 0]], [r, [0, 1]], [n - 1 - r, [0, -1]]].sort((a, b) => a[0] - b[0])[0][1];
    const [x, y] = centre(list[0]);
    return [[x - step[0], y - step[1]], step];
  };

  const fullLine = (list) => {
    if (list.length !== n || n < 2) return false;
    const step = list[1] - list[0];
    const straight = list.every((cell, i) => !i || cell - list[i - 1] === step);
    const rows = new Set(list.map((cell) => Math.floor(cell / n)));
    return straight && (Math.abs(step) === n || (Math.abs(step) === 1 && rows.size === 1));
  };

  const clue = (group, rule, list, text) => {
    const [[x, y]] = clueSpot(rule, list);
    const label = el("text", { x: fmt(x), y: fmt(y + 0.15), "font-size": 0.42, "text-anchor": "middle" }, `clue clue-${rule.rule}`);
    label.textContent = rule.rule === "x-sum" ? `‹${text}›` : text;
    group.append(label);
    outsideAt(x, y);
  };

  const line = (group, points, cls, width, closed = false) => {
    group.append(el("path", { d: pathOf(points, closed), "stroke-width": width }, cls));
  };

  const ring = (group, [x, y], cls) => group.append(el("circle", { cx: fmt(x), cy: fmt(y), r: RING }, cls));

  const draw = {
    cage(rule, list, i) {
      const g = tag(el("g", {}, "cage"), rule, i);
      for (const loop of cageOutlines(list, n)) line(g, loop, "cage-line", 0.03, true);
      if (rule.total) small(g, Math.min(...list), String(rule.total), "total");
      over.append(g);
    },
    sum(rule, list, i) {
      const g = tag(el("g", {}, "cage sum"), rule, i);
      for (const loop of cageOutlines(list, n)) line(g, loop, "sum-line", 0.035, true);
      small(g, Math.min(...list), String(rule.total), "total sum-total");
      over.append(g);
    },
    "little-killer"(rule, list, i) {
      const [[x, y], [dx, dy]] = clueSpot(rule, list);
      const g = tag(el("g", {}, "little-killer"), rule, i);
      const label = el("text", { x: fmt(x - 0.12 * dx), y: fmt(y - 0.12 * dy + 0.12), "font-size": 0.34, "text-anchor": "middle" }, "clue");
      label.textContent = String(rule.total);
      g.append(label);
      const tip = [x + 0.44 * dx, y + 0.44 * dy];
      line(g, [[x + 0.22 * dx, y + 0.22 * dy], tip], "clue-arrow", 0.03);
      line(g, arrowhead(tip, unit([0, 0], [dx, dy]), 0.1, 0.6), "clue-arrow", 0.03);
      over.append(g);
      outsideAt(x, y);
    },
    arrow(rule, list, i) {
      const k = rule.circle || 1;
      const [circle, rest] = [list.slice(0, k), list.slice(k)];
      const g = tag(el("g", {}, "arrow"), rule, i);
      const first = centre(rest[0]);
      const start = circle.reduce((best, c) => {
        const d = (p) => (centre(p)[0] - first[0]) ** 2 + (centre(p)[1] - first[1]) ** 2;
        return d(c) < d(best) ? c : best;
      });
      const points = [start, ...rest].map(centre);
      const direction = unit(points[points.length - 2], points[points.length - 1]);
      const last = points[points.length - 1];
      const tip = [last[0] + direction[0] * 0.12, last[1] + direction[1] * 0.12];
      // the shaft starts at the circle's edge, so the circle stays clear inside
      const [sx, sy] = points[0];
      const out = unit(points[0], points[1]);
      const reach = k === 1 ? RING : 0;
      line(g, [[sx + out[0] * reach, sy + out[1] * reach], ...points.slice(1, -1), tip], "arrow-line", 0.05);
      line(g, arrowhead(tip, direction), "arrow-line", 0.05);
      if (k === 1) ring(g, centre(circle[0]), "arrow-circle");
      else {
        const ends = [centre(circle[0]), centre(circle[circle.length - 1])];
        line(g, ends, "arrow-pill", 2 * RING);
        line(g, ends, "arrow-pill-fill", 2 * RING - 0.1);
      }
      under.append(g);
    },
    "double-arrow"(rule, list, i) {
      const g = tag(el("g", {}, "arrow"), rule, i);
      line(g, list.map(centre), "arrow-line", 0.05);
      ring(g, centre(list[0]), "arrow-circle");
      ring(g, centre(list[list.length - 1]), "arrow-circle");
      under.append(g);
    },
    thermo(rule, list, i) {
      const g = tag(el("g", {}, "thermo"), rule, i);
      const points = list.map(centre);
      line(g, points, "thermo-line", 0.32);
      g.append(el("circle", { cx: points[0][0], cy: points[0][1], r: 0.4 }, "thermo-bulb"));
      if (rule.rule === "slow-thermo") {
        g.append(el("circle", { cx: points[0][0], cy: points[0][1], r: 0.2 }, "slow-inner"));
        line(g, points, "slow-inner", 0.06);
      }
      under.append(g);
    },
    between(rule, list, i) {
      const g = tag(el("g", {}, "between"), rule, i);
      line(g, list.map(centre), "between-line", 0.09);
      ring(g, centre(list[0]), "between-circle");
      ring(g, centre(list[list.length - 1]), "between-circle");
      under.append(g);
    },
    dots(rule, list, i) {
      const g = tag(el("g", {}, "edge-marks"), rule, i);
      for (const [[x, y], [dx, dy]] of edges(list)) {
        if (rule.rule === "white-dot" || rule.rule === "black-dot") {
          g.append(el("circle", { cx: fmt(x), cy: fmt(y), r: 0.12 }, rule.rule));
        } else if (rule.rule === "greater") {
          const [px, py] = [-dy, dx];
          line(g, [[x - 0.07 * dx + 0.15 * px, y - 0.07 * dy + 0.15 * py], [x + 0.08 * dx, y + 0.08 * dy], [x - 0.07 * dx - 0.15 * px, y - 0.07 * dy - 0.15 * py]], "greater", 0.05);
        } else {
          g.append(el("circle", { cx: fmt(x), cy: fmt(y), r: 0.15 }, "xv-backing"));
          const label = el("text", { x: fmt(x), y: fmt(y + 0.12), "font-size": 0.34, "text-anchor": "middle" }, "xv");
          label.textContent = rule.rule.toUpperCase();
          g.append(label);
        }
      }
      over.append(g);
    },
    line(rule, list, i) {
      const g = tag(el("g", {}, `line line-${rule.rule}`), rule, i);
      if (rule.rule === "lunchbox" && fullLine(list)) {
        clue(g, rule, list, String(rule.total));
        over.append(g);
        return;
      }
      const points = list.map(centre);
      if (points.length === 1) g.append(el("circle", { cx: points[0][0], cy: points[0][1], r: 0.1 }, "line-dot"));
      else line(g, points, "line-stroke", 0.2, rule.rule === "sum-line" && rule.loop === 1);
      under.append(g);
      // a whisper's gap other than 5, a lunchbox's total: small at the line's start, over the digits
      const label = rule.rule === "whisper" && rule.gap && rule.gap !== 5 ? rule.gap : rule.rule === "lunchbox" ? rule.total : null;
      if (label !== null) {
        const labelled = el("g", {}, `line-label line-${rule.rule}`);
        labelled.dataset.labelOf = i;
        small(labelled, list[0], String(label), "line-total");
        over.append(labelled);
      }
    },
    outside(rule, list, i) {
      const g = tag(el("g", {}, "outside"), rule, i);
      clue(g, rule, list, String(rule.total ?? rule.count ?? "?"));
      over.append(g);
    },
    odd(rule, list, i) {
      const g = tag(el("g", {}, "parity"), rule, i);
      for (const cell of list) g.append(el("circle", { cx: centre(cell)[0], cy: centre(cell)[1], r: 0.36 }, "odd"));
      under.append(g);
    },
    even(rule, list, i) {
      const g = tag(el("g", {}, "parity"), rule, i);
      for (const cell of list) g.append(el("rect", { x: (cell % n) + 0.16, y: Math.floor(cell / n) + 0.16, width: 0.68, height: 0.68 }, "even"));
      under.append(g);
    },
    candidates(rule, list, i) {
      const g = tag(el("g", {}, "restricted"), rule, i);
      for (const cell of list) small(g, cell, (rule.digits || []).join(""), "small-digits", "bottom-right");
      over.append(g);
    },
    quad(rule, list, i) {
      const g = tag(el("g", {}, "quad"), rule, i);
      const x = Math.min(...list.map((c) => c % n)) + 1;
      const y = Math.min(...list.map((c) => Math.floor(c / n))) + 1;
      g.append(el("circle", { cx: x, cy: y, r: 0.31 }, "quad-circle"));
      const digits = (rule.digits || []).map(String);
      const rows = digits.length <= 2 ? [digits] : [digits.slice(0, 2), digits.slice(2, 4)];
      rows.forEach((row, k) => {
        const label = el("text", { x, y: fmt(y + (k - (rows.length - 1) / 2) * 0.23 + 0.07), "font-size": 0.2, "text-anchor": "middle" }, "quad-digits");
        label.textContent = row.join(" ");
        g.append(label);
      });
      over.append(g);
    },
    "all-different"(rule, list, i) {
      const caged = rules.some((other) => (other.rule === "sum" || other.rule === "cage") && sameCells(other, rule));
      if (caged) return;
      const g = tag(el("g", {}, "cage group"), rule, i);
      for (const loop of cageOutlines(list, n)) line(g, loop, "group-line", 0.03, true);
      over.append(g);
    },
  };
  const sameCells = (a, b) => (a.cells || []).length === (b.cells || []).length && (a.cells || []).every((c) => (b.cells || []).includes(c));

  // thermometers first: the see-through lines that cross them show over them
  const order = rules.map((rule, i) => [rule, i]).sort(([a], [b]) => (b.rule.endsWith("thermo") ? 1 : 0) - (a.rule.endsWith("thermo") ? 1 : 0));
  for (const [rule, i] of order) {
    const list = cells(rule);
    const kind = rule.rule;
    const drawer = draw[kind] || (kind.endsWith("thermo") ? draw.thermo : ["white-dot", "black-dot", "x", "v", "greater"].includes(kind) ? draw.dots : LINES.has(kind) ? draw.line : OUTSIDE.has(kind) ? draw.outside : null);
    if (drawer && list.length) drawer(rule, list, i);
    if (!words.includes(said(rule))) words.push(said(rule));
  }
  // the drawing spans the grid and one cell on each side where a clue stands
  const [l, t, r, b] = [sides.left, sides.top, sides.right, sides.bottom].map(Number);
  for (const layer of [under, over]) {
    layer.setAttribute("viewBox", `${-l} ${-t} ${n + l + r} ${n + t + b}`);
    Object.assign(layer.style, {
      left: `${(-100 * l) / n}%`,
      top: `${(-100 * t) / n}%`,
      width: `${(100 * (n + l + r)) / n}%`,
      height: `${(100 * (n + t + b)) / n}%`,
    });
  }
  return { under, over, totals, sides, words };
}
