"""Reading a SudokuPad puzzle: each drawing given its rule by the conventions of SudokuPad's own
converter (docs/formats.md lists them)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from ...errors import ParseError, ShuduError, VariantError
from ...geometry import default_box
from ...notation import MAX_SIZE, MIN_SIZE, cell_name
from ...puzzle import Puzzle
from ...rules import Rule, lookup
from ...variants import get
from ..document import Document
from ..limits import load_json
from ..lzstring import lz_decompress_base64
from ._link import long_keys, sudokupad_payload, unzip
from ._marks import (
    Mark,
    cell_of,
    cells_along,
    circle_around,
    edge_of,
    is_dark,
    outside_line,
    read_colour,
    read_integer,
    read_number,
    read_points,
)
from ._tables import ARROW, GREY, LINE_COLOURS, OUTSIDE_WORDS


def parse_sudokupad(text: str, *, line: int | None = None) -> Document:
    """A SudokuPad puzzle: a ``ctc``/``scl`` link or its part, or SudokuPad's JSON itself."""
    try:
        s = text.strip()
        if s.startswith("{"):
            data = load_json(s, what="the SudokuPad JSON")
        else:
            found = sudokupad_payload(s)
            if found is None:
                raise ParseError("not a SudokuPad puzzle (a sudokupad.app/scl… or /ctc… link)")
            prefix, payload = found
            raw = lz_decompress_base64(payload.replace("\\", "="))
            data = unzip(raw) if prefix == "scl" and not raw.lstrip().startswith('{"') else None
            if data is None:
                data = load_json(raw, what="the SudokuPad JSON")
        return _Reader(long_keys(data)).document()
    except ShuduError as exc:
        raise exc.at_line(line) if line is not None else exc from None


# --- reading -----------------------------------------------------------------------------------


_KNOWN_KEYS = {
    "id", "cellSize", "cells", "regions", "cages", "lines", "arrows", "overlays", "underlays",
    "metadata", "metaData", "settings", "solution", "title", "author", "rules",
}  # fmt: skip
_META = re.compile(r"^([A-Za-z+\-]+):\s*(.*)$", re.DOTALL)


class _Reader:
    def __init__(self, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
            raise ParseError('a SudokuPad puzzle is a JSON object with "cells" (rows of cells)')
        self.data = data
        self.n = n = len(data["cells"])
        if not MIN_SIZE <= n <= MAX_SIZE:
            raise ParseError(f"a SudokuPad puzzle of {n} rows: shudu reads grids of {MIN_SIZE} to {MAX_SIZE}")
        self.rules: list[Rule] = []
        self.names: list[str] = []
        self.meta: dict[str, str] = {}
        self.marks = [
            Mark(item, layer, i, n)
            for layer in ("overlays", "underlays")
            for i, item in enumerate(self._list(layer), start=1)
        ]

    def _list(self, key: str) -> list[Any]:
        value = self.data.get(key) or []
        if not isinstance(value, list):
            raise ParseError(f'SudokuPad "{key}" must be a list, not {type(value).__name__}')
        return value

    def cell(self, rc: tuple[int, int], where: str) -> int:
        r, c = rc
        if not (0 <= r < self.n and 0 <= c < self.n):
            raise ParseError(f"{where}: row {r + 1}, column {c + 1} lies outside the {self.n}x{self.n} grid")
        return r * self.n + c

    def add(self, rule: Rule, where: str) -> None:
        try:
            lookup(rule.kind).validate(rule, self.n, 1)
        except VariantError as exc:
            raise ParseError(f"{where}: {exc}") from None
        self.rules.append(rule)

    def document(self) -> Document:
        for key in sorted(self.data):
            if key not in _KNOWN_KEYS and self.data[key] not in (None, [], {}, "", False):
                raise ParseError(f"SudokuPad feature {key!r} is not a rule shudu has")
        self._metadata()
        givens = self._givens()
        layout = self._regions()
        self._cages()
        self._arrows()
        self._lines()
        self._marks()
        left = [m for m in self.marks if not m.used]
        if left:
            raise ParseError(f"{left[0].describe()} means no rule shudu knows")
        title = self.meta.get("title", "")
        try:
            variant = get("+".join(self.names) or "standard", self.n, layout=layout)
            if self.rules:
                variant = variant.with_rules(self.rules, self.n)
            puzzle = Puzzle(givens, variant=variant)
        except ShuduError as exc:
            raise ParseError(f"SudokuPad puzzle: {exc}") from None
        return Document(puzzle, title=title)

    # the parts, one method each

    def _givens(self) -> list[int]:
        n = self.n
        givens = [0] * (n * n)
        for r, row in enumerate(self.data["cells"]):
            if not isinstance(row, list) or len(row) != n:
                raise ParseError(f"SudokuPad cells: row {r + 1} is not a list of {n} cells")
            for c, cell in enumerate(row):
                value = cell.get("value") if isinstance(cell, dict) else None
                if value in (None, ""):
                    continue
                digit = read_integer(value)
                if digit is None or not 1 <= digit <= n:
                    raise ParseError(f"SudokuPad cell r{r + 1}c{c + 1} holds {value!r}, not a digit of 1-{n}")
                givens[r * n + c] = digit
        return givens

    def _regions(self) -> list[int] | None:
        n = self.n
        regions = self._list("regions")
        labels = [-1] * (n * n)
        for i, region in enumerate(regions):
            if not isinstance(region, list):
                raise ParseError(f"SudokuPad region {i + 1} is not a list of cells")
            for rc in region:
                if not isinstance(rc, list) or len(rc) != 2 or any(read_integer(v) is None for v in rc):
                    raise ParseError(f"SudokuPad region {i + 1}: {rc!r} is not a cell [row, column]")
                cell = self.cell((int(rc[0]), int(rc[1])), f"SudokuPad region {i + 1}")
                if labels[cell] >= 0:
                    raise ParseError(
                        f"SudokuPad regions {labels[cell] + 1} and {i + 1} both hold {cell_name(cell, n)}"
                    )
                labels[cell] = i
        if not regions:
            raise ParseError("the SudokuPad puzzle has no regions (a grid without boxes is not read)")
        if len(regions) != n or -1 in labels or any(len(r) != n for r in regions):
            raise ParseError(
                f"SudokuPad regions: {len(regions)} regions that do not split the grid into {n} of {n} cells"
            )
        try:
            rows, cols = default_box(n)
        except ShuduError:
            return labels
        boxes = [(cell // n) // rows * (n // cols) + (cell % n) // cols for cell in range(n * n)]
        same = {a: b for a, b in zip(labels, boxes, strict=True)}
        if len(set(same.values())) == n and all(same[a] == b for a, b in zip(labels, boxes, strict=True)):
            return None
        return labels

    def _cages(self) -> None:
        for i, cage in enumerate(self._list("cages"), start=1):
            where = f"SudokuPad cage {i}"
            if not isinstance(cage, dict):
                raise ParseError(f"{where} is not an object")
            value = cage.get("value")
            cells_json = cage.get("cells") or []
            meta = _META.match(value) if isinstance(value, str) else None
            if meta and not cells_json:
                self._meta(meta[1].lower(), meta[2].strip(), where)
                continue
            if cage.get("style") or cage.get("hidden"):
                if cage.get("hidden") and not value and cage.get("unique") is False:
                    continue  # the cells outside every region, as the converter marks them
                raise ParseError(
                    f"{where} of style {cage.get('style') or 'hidden'!r} is not a rule shudu has"
                )
            cells = []
            for rc in cells_json:
                if not isinstance(rc, list) or len(rc) != 2 or any(read_integer(v) is None for v in rc):
                    raise ParseError(f"{where}: {rc!r} is not a cell [row, column]")
                cells.append(self.cell((int(rc[0]), int(rc[1])), where))
            if not cells:
                raise ParseError(f"{where} has no cells")
            total = read_integer(cage.get("sum", value))
            if value not in (None, "") and total is None:
                raise ParseError(f"{where}: its value {value!r} is not a total")
            distinct = cage.get("unique", True) is not False
            if not distinct and total is None:
                raise ParseError(
                    f"{where}: a cage whose digits may repeat and that has no total says nothing"
                )
            kind, params = ("cage" if distinct else "sum"), (() if total is None else (total,))
            self.add(Rule(kind, tuple(cells), params), where)
            self._cage_shading(cells)

    def _cage_shading(self, cells: list[int]) -> None:
        """Grey cell shading of the cells of a cage without total: its drawing as an extra region
        (the converter's), part of the cage."""
        for mark in self.marks:
            if mark.layer == "underlays" and not mark.rounded and not mark.text and mark.width >= 0.95:
                r, c = cell_of((mark.y, mark.x))
                if (
                    0 <= r < self.n
                    and 0 <= c < self.n
                    and r * self.n + c in cells
                    and mark.at(r + 0.5, c + 0.5)
                ):
                    mark.used = True

    def _find(self, fits: Callable[[Mark], bool], colour: str, shared: Sequence[Mark] = ()) -> Mark | None:
        """The first unused mark that fits (or one of ``shared``, marks that several rules may
        use), one whose border or fill is ``colour`` first: where drawings of two rules meet in
        one cell, the colours tell them apart."""
        found = [m for m in self.marks if fits(m) and (not m.used or m in shared)]
        return next((m for m in found if colour in (m.border, m.fill)), found[0] if found else None)

    def _metadata(self) -> None:
        """The ``metadata`` object: the title and the rules' text; anti-knight and anti-king; a
        background image is refused (what it draws may be rules, out of shudu's sight)."""
        for name in ("metadata", "metaData"):
            meta = self.data.get(name) or {}
            if not isinstance(meta, dict):
                raise ParseError(f'SudokuPad "{name}" must be an object, not {type(meta).__name__}')
            for key, value in meta.items():
                if key in ("bgimage", "foglight", "fogofwar") and value:
                    raise ParseError(
                        f"SudokuPad metadata {key!r}: the puzzle draws part of itself as "
                        + ("an image" if key == "bgimage" else "fog")
                        + ", which may hold rules shudu cannot read"
                    )
                self._meta(key.lower(), str(value).strip(), f'SudokuPad "{name}"')

    def _meta(self, key: str, value: str, where: str) -> None:
        if key in ("antiknight", "antiking"):
            if value.lower() in ("true", "1", "yes"):
                self.names.append("anti-knight" if key == "antiknight" else "anti-king")
            return
        if key in ("title", "author", "rules", "solution"):
            self.meta.setdefault(key, value)
            return
        # other metadata (messages, links, the setter's notes) carries no rule

    def _arrows(self) -> None:
        n = self.n
        circles: list[Mark] = []  # marked used after all the arrows: several may leave one circle
        for i, arrow in enumerate(self._list("arrows"), start=1):
            where = f"SudokuPad arrow {i}"
            points = read_points(arrow, n, where)
            start = cell_of(points[0])
            inside = 0 <= start[0] < n and 0 <= start[1] < n
            if not inside:
                self._little_killer(points, where)
                continue
            circle = self._find(circle_around(start), ARROW, circles)
            if circle is None:
                raise ParseError(f"{where} starts at {cell_name(self.cell(start, where), n)}, in no circle")
            pill = sorted(self.cell(rc, where) for rc in circle.covers())
            centre = (start[0] + 0.5, start[1] + 0.5)
            line = [self.cell(rc, where) for rc in cells_along([centre, *points[1:]], where)]
            if len(pill) > 3:
                raise ParseError(f"{where}: a circle of {len(pill)} cells is not an arrow shudu reads")
            params = (len(pill),) if len(pill) > 1 else ()
            self.add(Rule("arrow", tuple(pill) + tuple(line[1:]), params), where)
            circles.append(circle)
        for circle in circles:
            circle.used = True

    def _little_killer(self, points: list[tuple[float, float]], where: str) -> None:
        n = self.n
        (y0, x0), (y1, x1) = points[0], points[-1]
        dr, dc = (1 if y1 > y0 else -1), (1 if x1 > x0 else -1)
        r, c = cell_of(points[0])
        clue = next((m for m in self.marks if m.text and not m.used and m.at(r + 0.5, c + 0.5)), None)
        if clue is None:
            raise ParseError(f"{where}: an arrow outside the grid with no total beside it")
        clue.used = True
        total = read_integer(clue.text)
        cells = []
        row, col = r + dr, c + dc
        while 0 <= row < n and 0 <= col < n:
            cells.append(row * n + col)
            row, col = row + dr, col + dc
        if not cells:
            raise ParseError(f"{where}: the diagonal from its clue misses the grid")
        if total is None:
            if clue.text.strip("?_ ") == "":
                return  # a clue without a number says nothing
            raise ParseError(f"{where}: its clue {clue.text!r} is not a total")
        self.add(Rule("little-killer", tuple(cells), (total,)), where)

    def _lines(self) -> None:
        n = self.n
        for i, item in enumerate(self._list("lines"), start=1):
            where = f"SudokuPad line {i}"
            points = read_points(item, n, where)
            colour = read_colour(item.get("color"))
            thickness = read_number(item.get("thickness", 1), where)
            ends = {(round(p[0], 3), round(p[1], 3)) for p in (points[0], points[-1])}
            if len(points) == 2 and ends in ({(0, 0), (n, n)}, {(0, n), (n, 0)}):
                region = "diagonal" if (0, 0) in ends else "antidiagonal"
                self.names.append(region)
                continue
            cells = tuple(self.cell(rc, where) for rc in cells_along(points, where))
            if colour == GREY:
                self._grey_line(cells, thickness, where)
            elif colour in LINE_COLOURS:
                kind = LINE_COLOURS[colour]
                params = (5,) if kind == "whisper" else (3,) if kind == "modular" else ()
                if kind == "slow-thermo" and not self._bulb(cells, where):
                    cells = cells[::-1]
                    if not self._bulb(cells, where):
                        raise ParseError(f"{where}: a slow thermometer without a bulb at an end")
                self.add(Rule(kind, cells, params), where)
            else:
                raise ParseError(
                    f"{where}: a line of colour {item.get('color')!r} through {cell_name(cells[0], n)}… "
                    "means no rule shudu knows (the rules' colours: "
                    f"{', '.join(sorted(LINE_COLOURS))}, and grey {GREY})"
                )
        if "diagonal" in self.names and "antidiagonal" in self.names:
            self.names = [v for v in self.names if v not in ("diagonal", "antidiagonal")] + ["x"]
        elif "diagonal" in self.names or "antidiagonal" in self.names:
            raise ParseError("a SudokuPad puzzle with one diagonal: shudu reads both (X) or none")

    def _bulb(self, cells: tuple[int, ...], where: str) -> bool:
        n = self.n
        r, c = divmod(cells[0], n)
        bulb = self._find(
            lambda m: (
                m.rounded and m.fill == GREY and not m.text and m.at(r + 0.5, c + 0.5) and m.width >= 0.6
            ),
            GREY,
        )
        if bulb is None:
            return False
        bulb.used = True
        return True

    def _grey_line(self, cells: tuple[int, ...], thickness: float, where: str) -> None:
        n = self.n
        if thickness <= 4:
            ends = []
            for cell in (cells[0], cells[-1]):
                r, c = divmod(cell, n)
                ends.append(self._find(circle_around((r, c), centred=True), GREY))
            if None in ends:
                raise ParseError(
                    f"{where}: a thin grey line without circles at both ends (a between line has them)"
                )
            for mark in ends:
                assert mark is not None
                mark.used = True
            self.add(Rule("between", cells), where)
        elif thickness < 18:
            self.add(Rule("palindrome", cells), where)
        elif self._bulb(cells, where):
            self.add(Rule("thermo", cells), where)
        elif self._bulb(cells[::-1], where):
            self.add(Rule("thermo", cells[::-1]), where)
        else:
            raise ParseError(f"{where}: a thick grey line without a bulb at an end (a thermometer has one)")

    def _marks(self) -> None:
        n = self.n
        outside: list[tuple[Mark, tuple[int, ...]]] = []
        for mark in self.marks:
            if mark.used:
                continue
            on_edge = edge_of(mark, n)
            corner = mark.y.is_integer() and mark.x.is_integer() and 0 < mark.y < n and 0 < mark.x < n
            centre = (mark.y % 1 == 0.5) and (mark.x % 1 == 0.5)
            text = mark.text.upper()
            if on_edge and text in ("X", "V"):
                self.add(Rule(text.lower(), on_edge), mark.where)
            elif on_edge and mark.rounded and not text and mark.width < 0.45:
                self.add(Rule("black-dot" if is_dark(mark.fill) else "white-dot", on_edge), mark.where)
            elif corner and mark.rounded and text:
                self._quad(mark)
                continue
            elif centre and not text and mark.layer == "underlays" and 0.5 <= mark.width <= 0.8:
                cell = self.cell(cell_of((mark.y, mark.x)), mark.where)
                self.add(Rule("odd" if mark.rounded else "even", (cell,)), mark.where)
            elif centre and text and (line := outside_line(mark, n)) is not None:
                outside.append((mark, line))
            else:
                continue
            mark.used = True
        self._outside(outside)

    def _quad(self, mark: Mark) -> None:
        n = self.n
        digits = re.findall(r"[0-9]+", mark.text)
        if not digits or any(not d.isdigit() or not 1 <= int(d) <= n for d in digits):
            return  # left unused: named as meaningless
        top = (int(mark.y) - 1) * n + int(mark.x) - 1
        self.add(
            Rule("quad", (top, top + 1, top + n, top + n + 1), tuple(int(d) for d in digits)), mark.where
        )
        mark.used = True

    def _outside(self, clues: list[tuple[Mark, tuple[int, ...]]]) -> None:
        if not clues:
            return
        rules_text = self.meta.get("rules", "").lower()
        kinds = [k for k, words in OUTSIDE_WORDS.items() if any(w in rules_text for w in words)]
        if len(kinds) != 1:
            mark = clues[0][0]
            raise ParseError(
                f"{mark.describe()}: a number outside the grid, read as a sandwich, X-sum or skyscraper "
                "clue when the puzzle's rules name exactly one of them"
                + (f" (they name {', '.join(kinds)})" if kinds else " (they name none)")
            )
        kind = kinds[0]
        for mark, line in clues:
            value = read_integer(mark.text)
            if value is None:
                raise ParseError(f"{mark.describe()}: not a number")
            self.add(Rule(kind, tuple(sorted(line)) if kind == "sandwich" else line, (value,)), mark.where)
            mark.used = True
