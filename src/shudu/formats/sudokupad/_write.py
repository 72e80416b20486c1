"""Writing a SudokuPad puzzle: each rule drawn as SudokuPad's converter from f-puzzles draws it,
so that the reader gives it back."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from typing import Any

from ...errors import ParseError
from ...geometry import default_box
from ...rules import Rule
from ..document import Document, require_square
from ..lzstring import lz_compress_base64
from ._tables import ARROW, DIAGONAL, GREY, OUTSIDE_WORDS, RULE_COLOURS

# --- writing ---------------------------------------------------------------------------------------


def _centre(cell: int, n: int) -> list[float]:
    return [cell // n + 0.5, cell % n + 0.5]


def _edge_centre(a: int, b: int, n: int) -> list[float]:
    (ya, xa), (yb, xb) = _centre(a, n), _centre(b, n)
    return [(ya + yb) / 2, (xa + xb) / 2]


def _adjacent_pairs(cells: Sequence[int], n: int) -> Iterator[tuple[int, int]]:
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            ra, ca = divmod(a, n)
            rb, cb = divmod(b, n)
            if abs(ra - rb) + abs(ca - cb) == 1:
                yield a, b


class _Writer:
    def __init__(self, doc: Document) -> None:
        geo = doc.puzzle.geometry
        self.n = geo.size
        self.variant = geo.variant
        self.doc = doc
        self.cages: list[dict[str, Any]] = []
        self.lines: list[dict[str, Any]] = []
        self.arrows: list[dict[str, Any]] = []
        self.overlays: list[dict[str, Any]] = []
        self.underlays: list[dict[str, Any]] = []

    def cell(self, cell: int) -> list[int]:
        return [cell // self.n, cell % self.n]

    def circle(self, cells: Sequence[int], layer: list[dict[str, Any]], **style: Any) -> None:
        rows = [c // self.n for c in cells]
        cols = [c % self.n for c in cells]
        layer.append(
            {
                "center": [(min(rows) + max(rows)) / 2 + 0.5, (min(cols) + max(cols)) / 2 + 0.5],
                "rounded": True,
                "width": style.pop("width", 0.75) + (max(cols) - min(cols)),
                "height": style.pop("height", 0.75) + (max(rows) - min(rows)),
                **style,
            }
        )

    def line(self, cells: Sequence[int], colour: str, thickness: float) -> None:
        self.lines.append(
            {"wayPoints": [_centre(c, self.n) for c in cells], "color": colour, "thickness": thickness}
        )

    def text(self, point: list[float], text: str, size: int = 28) -> None:
        self.overlays.append(
            {"center": point, "width": 0.25, "height": 0.25, "rounded": False, "text": text, "fontSize": size,
             "backgroundColor": "#FFFFFF", "borderColor": "#FFFFFF"}
        )  # fmt: skip

    def rule(self, rule: Rule) -> None:
        n, kind, cells, params = self.n, rule.kind, rule.cells, rule.params
        if kind == "cage" or (kind == "all-different" and _connected(cells, n)):
            cage: dict[str, Any] = {"cells": [self.cell(c) for c in cells], "unique": True}
            if params:
                cage["value"] = str(params[0])
            self.cages.append(cage)
        elif kind == "sum" and len(params) == 1 and _connected(cells, n):
            self.cages.append(
                {"cells": [self.cell(c) for c in cells], "unique": False, "value": str(params[0])}
            )
        elif kind == "thermo":
            self.circle(
                cells[:1], self.underlays, width=0.85, height=0.85, backgroundColor=GREY, borderColor=GREY
            )
            self.line(cells, GREY, 21)
        elif kind == "slow-thermo":
            self.circle(
                cells[:1], self.underlays, width=0.85, height=0.85, backgroundColor=GREY, borderColor=GREY
            )
            self.line(cells, RULE_COLOURS[kind], 21)
        elif kind == "palindrome":
            self.line(cells, GREY, 16)
        elif kind == "between":
            for end in (cells[0], cells[-1]):
                self.circle(
                    [end], self.overlays, width=0.8, height=0.8, backgroundColor="#FFFFFF", borderColor=GREY
                )
            self.line(cells, GREY, 2)
        elif kind in RULE_COLOURS and _default_params(rule):
            self.line(cells, RULE_COLOURS[kind], 10)
        elif kind == "arrow":
            self.arrow(rule)
        elif kind == "little-killer" and _little_killer_start(cells, n) is not None:
            self.little_killer(rule)
        elif kind in ("white-dot", "black-dot", "x", "v"):
            for a, b in _adjacent_pairs(cells, n):
                if kind in ("x", "v"):
                    self.text(_edge_centre(a, b, n), kind.upper(), 21)
                else:
                    fill = "#000000" if kind == "black-dot" else "#FFFFFF"
                    self.overlays.append(
                        {"center": _edge_centre(a, b, n), "width": 0.3, "height": 0.3, "rounded": True,
                         "backgroundColor": fill, "borderColor": "#000000"}
                    )  # fmt: skip
        elif kind in ("odd", "even"):
            for c in cells:
                self.underlays.append(
                    {"center": _centre(c, n), "width": 0.7, "height": 0.7, "rounded": kind == "odd",
                     "backgroundColor": GREY, "borderColor": GREY}
                )  # fmt: skip
        elif kind == "quad":
            top = min(cells)
            self.overlays.append(
                {"center": [top // n + 1, top % n + 1], "width": 0.7, "height": 0.7, "rounded": True,
                 "backgroundColor": "#FFFFFF", "borderColor": "#000000", "fontSize": 14,
                 "text": " ".join(map(str, params))}
            )  # fmt: skip
        elif kind in ("sandwich", "x-sum", "skyscraper"):
            self.outside(rule)
        else:
            raise ParseError(f"the SudokuPad format cannot say a {rule.describe(n)}")

    def arrow(self, rule: Rule) -> None:
        n = self.n
        k = rule.params[0] if rule.params else 1
        pill, line = rule.cells[:k], rule.cells[k:]
        start = min(pill, key=lambda c: max(abs(c // n - line[0] // n), abs(c % n - line[0] % n)))
        self.circle(pill, self.overlays, backgroundColor="#FFFFFF", borderColor=ARROW, thickness=5)
        (y0, x0), (y1, x1) = _centre(start, n), _centre(line[0], n)
        dy, dx = y1 - y0, x1 - x0
        dist = math.hypot(dy, dx)
        first = [y0 + round(3 * dy / dist) / 10, x0 + round(3 * dx / dist) / 10]
        self.arrows.append(
            {
                "wayPoints": [first] + [_centre(c, n) for c in line],
                "color": ARROW,
                "thickness": 5,
                "headLength": 0.3,
            }
        )

    def little_killer(self, rule: Rule) -> None:
        n = self.n
        found = _little_killer_start(rule.cells, n)
        assert found is not None
        (r, c), (dr, dc) = found
        y, x = r + 0.5, c + 0.5
        self.arrows.append(
            {"wayPoints": [[y + 0.3 * dr, x + 0.3 * dc], [y + 0.48 * dr, x + 0.48 * dc]], "color": "#000000",
             "thickness": 2}
        )  # fmt: skip
        self.text([y, x], str(rule.params[0]))

    def outside(self, rule: Rule) -> None:
        n = self.n
        cells = rule.cells
        first, second = cells[0], cells[1]
        if rule.kind == "sandwich":
            first, second = min(cells), sorted(cells)[1]
        r, c = divmod(first, n)
        dr, dc = second // n - r, second % n - c
        self.text([r - dr + 0.5, c - dc + 0.5], str(rule.params[0]), 32)

    def build(self) -> dict[str, Any]:
        n, variant = self.n, self.variant
        rules = list(variant.rules)
        outside = {r.kind for r in rules if r.kind in OUTSIDE_WORDS}
        if len(outside) > 1:
            raise ParseError(
                f"the SudokuPad format draws {', '.join(sorted(outside))} clues alike; it holds one "
                "kind of them"
            )
        if variant.digit_base != 1:
            raise ParseError("the SudokuPad format holds digits from 1 only")
        if variant.anti_knight or variant.anti_king:
            for key, on in (("antiknight", variant.anti_knight), ("antiking", variant.anti_king)):
                if on:
                    self.cages.append({"value": f"{key}: true"})
        diagonals = {tuple(i * n + i for i in range(n)), tuple(i * n + n - 1 - i for i in range(n))}
        for region in variant.regions:
            if tuple(region) in diagonals:
                corner = [[0, 0], [n, n]] if 0 in region else [[0, n], [n, 0]]
                self.lines.append({"wayPoints": corner, "color": DIAGONAL.upper(), "thickness": 2})
            elif _connected(region, n):
                self.cages.append({"cells": [self.cell(c) for c in region], "unique": True})
                for c in region:
                    self.underlays.append(
                        {"center": _centre(c, n), "width": 1, "height": 1, "rounded": False,
                         "backgroundColor": "rgba(207, 207, 207, 0.95)"}
                    )  # fmt: skip
            else:
                raise ParseError("the SudokuPad format draws an extra region only as a connected cage")
        if any(tuple(r) in diagonals for r in variant.regions) and not all(
            d in {tuple(r) for r in variant.regions} for d in diagonals
        ):
            raise ParseError("the SudokuPad format holds both diagonals (X) or none")
        for rule in rules:
            self.rule(rule)
        cells = [
            [{"value": d} if (d := self.doc.puzzle.cells[r * n + c]) else {} for c in range(n)]
            for r in range(n)
        ]
        if variant.layout is not None:
            labels = variant.layout
        else:
            rows, cols = self.doc.puzzle.geometry.box or default_box(n)
            labels = tuple((cell // n) // rows * (n // cols) + (cell % n) // cols for cell in range(n * n))
        regions = [[self.cell(c) for c in range(n * n) if labels[c] == k] for k in dict.fromkeys(labels)]
        meta = []
        if self.doc.title:
            meta.append({"value": f"title: {self.doc.title}"})
        if outside:
            words = {"sandwich": "sandwich sums", "x-sum": "X-sums", "skyscraper": "skyscrapers"}
            words_of = words[outside.pop()]
            meta.append({"value": f"rules: Numbers outside the grid are {words_of}."})
        return {
            "cellSize": 50, "cells": cells, "regions": regions, "cages": meta + self.cages,
            "lines": self.lines, "arrows": self.arrows, "overlays": self.overlays,
            "underlays": self.underlays,
        }  # fmt: skip


def _default_params(rule: Rule) -> bool:
    """Whether a line rule's numbers are those its colour says (whispers of 5, modular of 3)."""
    if rule.kind == "whisper":
        return rule.params in ((), (5,))
    if rule.kind == "modular":
        return rule.params in ((), (3,))
    return not rule.params


def _connected(cells: Sequence[int], n: int) -> bool:
    group = set(cells)
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        a = todo.pop()
        r, c = divmod(a, n)
        for b in ((r - 1) * n + c, (r + 1) * n + c, a - 1 if c else -1, a + 1 if c < n - 1 else -1):
            if b in group and b not in seen:
                seen.add(b)
                todo.append(b)
    return seen == group


def _little_killer_start(cells: Sequence[int], n: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The outside cell of a little killer's clue and its direction, when the cells are a whole
    diagonal from the edge of the grid."""
    if len(cells) < 2:
        return None
    (r0, c0), (r1, c1) = divmod(cells[0], n), divmod(cells[1], n)
    dr, dc = r1 - r0, c1 - c0
    if abs(dr) != 1 or abs(dc) != 1:
        return None
    expected = []
    r, c = r0, c0
    while 0 <= r < n and 0 <= c < n:
        expected.append(r * n + c)
        r, c = r + dr, c + dc
    if tuple(expected) != tuple(cells) or (0 <= r0 - dr < n and 0 <= c0 - dc < n):
        return None
    return (r0 - dr, c0 - dc), (dr, dc)


def format_sudokupad(doc: Document, *, link: bool = True) -> str:
    """A SudokuPad link (``https://sudokupad.app/ctc…``; ``link=False``: the JSON). A rule the
    format cannot draw so that it reads back is a ParseError that names it."""
    require_square("SudokuPad", doc.puzzle)
    data = _Writer(doc).build()
    text = json.dumps(data, separators=(",", ":"))
    return f"https://sudokupad.app/ctc{lz_compress_base64(text)}" if link else text
