// The bank's difficulty picture: for each size and variant with puzzles waiting, one bar split
// by level (easiest on the left), drawn as SVG from /api/bank.

const SVG = "http://www.w3.org/2000/svg";
const ROW = 22;
const LABEL = 118;
const BAR = 220;
const LEGEND = 22;

function node(name, attributes = {}, text = undefined) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  if (text !== undefined) el.textContent = text;
  return el;
}

// Levels in the bank's order, then any level the page does not know, then puzzles without one.
function levelOrder(bank) {
  const order = [...bank.levels];
  for (const kind of bank.kinds) {
    const level = kind.level ?? "unrated";
    if (!order.includes(level)) order.push(level);
  }
  return order;
}

export function kindLabel(size, variant) {
  return `${size}×${size}${variant === "standard" ? "" : ` ${variant}`}`;
}

// Draw `bank` (the /api/bank answer) into the <svg> element `svg`, replacing what it held.
export function drawBank(svg, bank) {
  svg.replaceChildren();
  const order = levelOrder(bank);
  const rows = new Map();
  for (const kind of bank.kinds) {
    const key = `${kind.size}/${kind.variant}`;
    if (!rows.has(key)) rows.set(key, { size: kind.size, variant: kind.variant, counts: new Map(), total: 0 });
    const row = rows.get(key);
    const level = kind.level ?? "unrated";
    row.counts.set(level, (row.counts.get(level) || 0) + kind.puzzles);
    row.total += kind.puzzles;
  }
  const most = Math.max(1, ...[...rows.values()].map((row) => row.total));
  const width = LABEL + BAR + 48;
  const height = Math.max(1, rows.size) * ROW + LEGEND + 8;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("data-total", bank.total);
  svg.append(node("title", {}, `${bank.total} new puzzles wait in the bank`));
  if (!rows.size) {
    svg.append(node("text", { x: 0, y: 15, class: "bank-empty" }, "The bank is empty: new puzzles are made when asked for."));
  }
  let y = 0;
  for (const row of rows.values()) {
    const g = node("g", { class: "bank-row", "data-size": row.size, "data-variant": row.variant, "data-total": row.total });
    g.append(node("text", { x: LABEL - 6, y: y + 15, "text-anchor": "end" }, kindLabel(row.size, row.variant)));
    let x = LABEL;
    for (const level of order) {
      const count = row.counts.get(level) || 0;
      if (!count) continue;
      const w = Math.max(2, (BAR * count) / most);
      const rect = node("rect", {
        x: x.toFixed(1),
        y: y + 3,
        width: w.toFixed(1),
        height: ROW - 6,
        class: `bank-bar level-${order.indexOf(level)}`,
        "data-level": level,
        "data-count": count,
      });
      rect.append(node("title", {}, `${kindLabel(row.size, row.variant)} ${level}: ${count}`));
      g.append(rect);
      x += w;
    }
    g.append(node("text", { x: (x + 4).toFixed(1), y: y + 15, class: "bank-count" }, String(row.total)));
    svg.append(g);
    y += ROW;
  }
  // the legend: one swatch per level
  const legend = node("g", { class: "bank-legend" });
  let lx = 0;
  for (const level of order) {
    legend.append(node("rect", { x: lx, y: y + 8, width: 10, height: 10, class: `bank-bar level-${order.indexOf(level)}` }));
    legend.append(node("text", { x: lx + 13, y: y + 17 }, level));
    lx += 14 + level.length * 7 + 10;
  }
  svg.append(legend);
}
