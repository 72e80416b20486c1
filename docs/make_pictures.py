"""Draw the variant pictures in docs/images/ from shudu's own geometry.

Run: python docs/make_pictures.py
"""

from __future__ import annotations

from pathlib import Path

from shudu import Geometry, variants

CELL = 40
COLOURS = ["#f4c28e", "#9cc9e8", "#b6dfa0", "#e6a8d4", "#f1e59a", "#c7b8ec"]


def svg(geometry: Geometry, title: str) -> str:
    n = geometry.size
    side = n * CELL
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-10 -34 {side + 20} {side + 44}" '
        f'width="{side + 20}" height="{side + 44}" font-family="sans-serif">',
        f'<text x="{side / 2}" y="-12" text-anchor="middle" font-size="16">{title}</text>',
        f'<rect x="0" y="0" width="{side}" height="{side}" fill="white"/>',
    ]
    extras = [h for h in geometry.houses if h.kind == "extra"]
    for i, house in enumerate(extras):
        for cell in house.cells:
            r, c = divmod(cell, n)
            parts.append(
                f'<rect x="{c * CELL}" y="{r * CELL}" width="{CELL}" height="{CELL}" '
                f'fill="{COLOURS[i % len(COLOURS)]}" fill-opacity="0.8"/>'
            )
    for k in range(n + 1):
        thick = geometry.box is not None and (k % geometry.box[0] == 0)
        width = 3 if thick else 1
        parts.append(
            f'<line x1="0" y1="{k * CELL}" x2="{side}" y2="{k * CELL}" stroke="#222" stroke-width="{width}"/>'
        )
        thick = geometry.box is not None and (k % geometry.box[1] == 0)
        width = 3 if thick else 1
        parts.append(
            f'<line x1="{k * CELL}" y1="0" x2="{k * CELL}" y2="{side}" stroke="#222" stroke-width="{width}"/>'
        )
    for house in extras:
        r = sum(c // n for c in house.cells) / len(house.cells)
        c = sum(c % n for c in house.cells) / len(house.cells)
        label = house.name.split()[-1]
        parts.append(
            f'<text x="{(c + 0.5) * CELL}" y="{(r + 0.5) * CELL + 5}" text-anchor="middle" '
            f'font-size="12" fill="#333">{label}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> None:
    out = Path(__file__).parent / "images"
    out.mkdir(exist_ok=True)
    for name, title in [("pyramid", "pyramid"), ("windoku", "windoku"), ("x", "x (diagonals)")]:
        geometry = Geometry(9, variant=variants.get(name, 9))
        (out / f"{name}.svg").write_text(svg(geometry, title))


if __name__ == "__main__":
    main()
