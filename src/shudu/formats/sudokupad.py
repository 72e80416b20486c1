"""SudokuPad's own puzzles: links that carry SudokuPad's JSON (``sudokupad.app/ctc…``: the JSON
lz-string compressed in base64; ``…/scl…``: the JSON in SudokuPad's short form, compressed).

SudokuPad stores a puzzle as a picture: the givens, the regions, the cages with their totals,
and lines, arrows and shapes (``overlays`` above the digits, ``underlays`` below) that say
nothing of their meaning. The reader gives a drawing its rule by the conventions of SudokuPad's
own converter from f-puzzles, which shudu's writer follows too (docs/formats.md lists them): a
grey line with a bulb is a thermometer, a small black dot between two cells a black kropki dot,
an ``X`` on an edge an X … A drawing that matches no convention (a line of a colour no rule has,
a circle that is no arrow's) is a ParseError that names it: nothing is dropped silently.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..errors import ParseError, ShuduError, VariantError
from ..geometry import default_box
from ..notation import MAX_SIZE, MIN_SIZE, cell_name
from ..puzzle import Puzzle
from ..rules import Rule, lookup
from ..variants import get
from .document import Document
from .limits import MAX_JSON_DEPTH, load_json
from .lzstring import lz_compress_base64, lz_decompress_base64

__all__ = ["format_sudokupad", "is_sudokupad", "parse_sudokupad", "sudokupad_payload"]

#: The short names of SudokuPad's short form (``scl``), and the keys they stand for.
_SHORT_KEYS = {
    "c": "color", "ca": "cages", "ct": "center", "c1": "borderColor", "c2": "backgroundColor",
    "ce": "cells", "cs": "cellSize", "a": "arrows", "o": "overlays", "u": "underlays", "w": "width",
    "h": "height", "v": "value", "vd": "videos", "l": "lines", "r": "rounded", "re": "regions",
    "fs": "fontSize", "th": "thickness", "hl": "headLength", "wp": "wayPoints", "t": "title",
    "te": "text", "d": "duration",
}  # fmt: skip

#: The colours (lower case, ``#rrggbb``) of the lines that mean a rule, as SudokuPad's converter
#: from f-puzzles and shudu's writer draw them. A grey line is a thermometer (with a bulb), a
#: between line (thin, with circles at its ends) or a palindrome.
GREY = "#cfcfcf"
LINE_COLOURS = {
    "#f067f0": "renban",
    "#67f067": "whisper",
    "#2ecbff": "region-sum-line",
    "#ffa500": "zipper",
    "#ffcf50": "entropic",
    "#a0a0ff": "modular",
    "#ff6060": "parity-line",
    "#8c8c8c": "slow-thermo",
}
_RULE_COLOURS = {kind: colour for colour, kind in LINE_COLOURS.items()}
_DIAGONAL = "#34bbe6"
_ARROW = "#a1a1a1"
_PREFIXES = ("scl", "ctc")


# --- the link -------------------------------------------------------------------------------------


def sudokupad_payload(text: str) -> tuple[str, str] | None:
    """``("scl" | "ctc", compressed data)`` of a SudokuPad link (or of its bare ``scl…`` part),
    or None when the text is none."""
    from urllib.parse import parse_qs, unquote, urlsplit

    s = text.strip()
    if "://" in s or s.startswith(("sudokupad", "www.", "app.crackingthecryptic")):
        parts = urlsplit(s if "://" in s else "https://" + s)
        query = parse_qs(parts.query)
        path = unquote(parts.path).strip("/")
        candidates = [*query.get("puzzleid", []), *query.get("load", []), path, path.rsplit("/", 1)[-1]]
    else:
        candidates = [s]
    for candidate in candidates:
        for prefix in _PREFIXES:
            for start in (prefix, "sudoku/" + prefix):
                if candidate.startswith(start) and len(candidate) > len(start):
                    return prefix, candidate[len(start) :].replace(" ", "+")
    return None


def is_sudokupad(text: str) -> bool:
    """Whether ``text`` is a SudokuPad link (or its part) that carries the puzzle as ``ctc``/``scl``."""
    return sudokupad_payload(text) is not None


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
            data = _unzip(raw) if prefix == "scl" and not raw.lstrip().startswith('{"') else None
            if data is None:
                data = load_json(raw, what="the SudokuPad JSON")
        return _Reader(_long_keys(data)).document()
    except ShuduError as exc:
        raise exc.at_line(line) if line is not None else exc from None


# --- the short form ---------------------------------------------------------------------------------


_BARE = re.compile(r"#0|#F|[A-Za-z0-9_.+\-#]+")


class _ShortForm:
    """A parser of SudokuPad's short JSON: keys without quotes, ``'`` for ``"``, ``t``/``f`` for
    true/false, colours without ``#`` or quotes, and an empty place in a list for ``{}``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.quote = '"' if '"' in text else "'"
        self.i = 0
        self.depth = 0

    def error(self, what: str) -> ParseError:
        return ParseError(f"SudokuPad's short form: {what} at position {self.i + 1}", column=self.i + 1)

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def value(self, in_object: bool = False) -> Any:
        char = self.peek()
        if char == "{":
            return self.container("}", True)
        if char == "[":
            return self.container("]", False)
        if char == self.quote:
            return self.string()
        m = _BARE.match(self.text, self.i)
        if m is None:
            raise self.error(f"unexpected {char!r}" if char else "the text ends")
        self.i = m.end()
        token = m.group()
        fixed = {
            "t": True,
            "f": False,
            "true": True,
            "false": False,
            "null": None,
            "#0": "#000000",
            "#F": "#FFFFFF",
        }
        if token in fixed:
            return fixed[token]
        if in_object and re.fullmatch(r"[0-9a-fA-F]{6}", token):
            return "#" + token
        if re.fullmatch(r"-?[0-9]+", token):
            return int(token)
        if re.fullmatch(r"-?[0-9]*\.[0-9]+(e-?[0-9]+)?", token):
            return float(token)
        return token

    def string(self) -> str:
        out = []
        self.i += 1
        while self.i < len(self.text):
            char = self.text[self.i]
            if char == "\\" and self.i + 1 < len(self.text):
                nxt = self.text[self.i + 1]
                out.append({"n": "\n", "t": "\t", "'": "'", '"': '"', "\\": "\\", "/": "/"}.get(nxt, nxt))
                self.i += 2
                continue
            if char == self.quote:
                self.i += 1
                return "".join(out)
            out.append(char)
            self.i += 1
        raise self.error("a string does not end")

    def container(self, close: str, is_object: bool) -> Any:
        self.depth += 1
        if self.depth > MAX_JSON_DEPTH:
            raise self.error(f"nesting deeper than {MAX_JSON_DEPTH}")
        self.i += 1
        items: list[Any] = []
        obj: dict[str, Any] = {}
        expect_item = True
        while True:
            char = self.peek()
            if not char:
                raise self.error(f"a {'{' if is_object else '['} is not closed")
            if char in ",}]":
                if char != "," and char != close:
                    raise self.error(f"{char!r} closes a {'{' if is_object else '['}")
                if expect_item and (char == "," or items or obj):
                    if is_object:
                        raise self.error("an empty place in an object")
                    items.append({})  # an empty place stands for an empty object
                self.i += 1
                if char == close:
                    self.depth -= 1
                    return obj if is_object else items
                expect_item = True
                continue
            if not expect_item:
                raise self.error(f"',' expected before {char!r}")
            if is_object:
                key = self.string() if char == self.quote else self.value()
                if self.peek() != ":":
                    raise self.error("':' expected after a key")
                self.i += 1
                obj[str(key)] = self.value(in_object=True)
            else:
                items.append(self.value())
            expect_item = False


def _unzip(text: str) -> Any:
    parser = _ShortForm(text.strip())
    data = parser.value()
    if parser.i != len(parser.text):
        raise parser.error("text after the puzzle")
    return data


def _long_keys(data: Any) -> Any:
    if isinstance(data, list):
        return [_long_keys(v) for v in data]
    if isinstance(data, dict):
        return {_SHORT_KEYS.get(k, k): _long_keys(v) for k, v in data.items()}
    return data


# --- reading -----------------------------------------------------------------------------------


_KNOWN_KEYS = {
    "id", "cellSize", "cells", "regions", "cages", "lines", "arrows", "overlays", "underlays",
    "metadata", "metaData", "settings", "solution", "title", "author", "rules",
}  # fmt: skip
_META = re.compile(r"^([A-Za-z+\-]+):\s*(.*)$", re.DOTALL)


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ParseError(f"{where}: {value!r} is not a number")
    return float(value)


def _colour(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    s = value.strip().lower()
    if re.fullmatch(r"#[0-9a-f]{3}", s):
        s = "#" + "".join(c * 2 for c in s[1:])
    return s[:7]


def _is_dark(colour: str) -> bool:
    return (
        colour.startswith("#")
        and len(colour) == 7
        and sum(int(colour[i : i + 2], 16) for i in (1, 3, 5)) < 150
    )


def _integer(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]{1,7}\s*", value):
        return int(value)
    return None


class _Mark:
    """An overlay or underlay: a rectangle or a circle at a centre, perhaps with text."""

    def __init__(self, item: Any, layer: str, index: int, n: int) -> None:
        if not isinstance(item, dict):
            raise ParseError(f"SudokuPad {layer} {index} is not an object")
        self.where = f"SudokuPad {layer} {index}"
        centre = item.get("center")
        if not isinstance(centre, list) or len(centre) != 2:
            raise ParseError(f'{self.where} has no "center" [row, column]')
        self.y, self.x = (_coordinate(v, n, self.where) for v in centre)
        self.width = _number(item.get("width", 0.5), self.where)
        self.height = _number(item.get("height", 0.5), self.where)
        if not (0 <= self.width <= n + 2 and 0 <= self.height <= n + 2):
            raise ParseError(f"{self.where}: {self.width:g} by {self.height:g} is no size on a {n}x{n} grid")
        self.rounded = bool(item.get("rounded"))
        self.fill = _colour(item.get("backgroundColor"))
        self.border = _colour(item.get("borderColor"))
        text = item.get("text", "")
        self.text = "" if text is None else str(text).strip()
        self.layer = layer
        self.n = n
        self.used = False

    def describe(self) -> str:
        shape = "circle" if self.rounded else "rectangle"
        text = f" with text {self.text!r}" if self.text else ""
        colour = f" ({self.fill or self.border})" if self.fill or self.border else ""
        return f"{self.where}: a {shape}{colour}{text} at row {self.y:g}, column {self.x:g}"

    def at(self, y: float, x: float) -> bool:
        return abs(self.y - y) < 0.05 and abs(self.x - x) < 0.05

    def covers(self) -> list[tuple[int, int]]:
        """The cells a circle or pill covers (each cell whose centre lies inside it)."""
        out = []
        for r in range(math.floor(self.y - self.height / 2), math.ceil(self.y + self.height / 2)):
            for c in range(math.floor(self.x - self.width / 2), math.ceil(self.x + self.width / 2)):
                if abs(r + 0.5 - self.y) <= self.height / 2 and abs(c + 0.5 - self.x) <= self.width / 2:
                    out.append((r, c))
        return out


def _coordinate(value: Any, n: int, where: str) -> float:
    """A row or column coordinate, on the grid or up to two cells beside it."""
    number = _number(value, where)
    if not -2 <= number <= n + 2:
        raise ParseError(f"{where}: {number:g} lies far outside the {n}x{n} grid")
    return number


def _points(item: Any, n: int, where: str) -> list[tuple[float, float]]:
    points = item.get("wayPoints") if isinstance(item, dict) else None
    if not isinstance(points, list) or len(points) < 2:
        raise ParseError(f'{where} has no "wayPoints" (two or more [row, column])')
    out = []
    for p in points:
        if not isinstance(p, list) or len(p) != 2:
            raise ParseError(f"{where}: {p!r} is not a point [row, column]")
        out.append((_coordinate(p[0], n, where), _coordinate(p[1], n, where)))
    return out


def _cell_of(point: tuple[float, float]) -> tuple[int, int]:
    return math.floor(point[0]), math.floor(point[1])


def _cells_along(points: Sequence[tuple[float, float]], where: str) -> list[tuple[int, int]]:
    """The cells a line passes through, its points at cell centres (or in their cells); a stretch
    between two points runs straight or diagonally through the cells between them."""
    cells = [_cell_of(points[0])]
    for point in points[1:]:
        r, c = cells[-1]
        tr, tc = _cell_of(point)
        dr, dc = tr - r, tc - c
        if dr and dc and abs(dr) != abs(dc):
            raise ParseError(
                f"{where}: the stretch to row {point[0]:g}, column {point[1]:g} is neither straight "
                "nor diagonal"
            )
        steps = max(abs(dr), abs(dc))
        for k in range(1, steps + 1):
            cells.append((r + k * (dr > 0) - k * (dr < 0), c + k * (dc > 0) - k * (dc < 0)))
    return cells


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
            _Mark(item, layer, i, n)
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
                digit = _integer(value)
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
                if not isinstance(rc, list) or len(rc) != 2 or any(_integer(v) is None for v in rc):
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
                if not isinstance(rc, list) or len(rc) != 2 or any(_integer(v) is None for v in rc):
                    raise ParseError(f"{where}: {rc!r} is not a cell [row, column]")
                cells.append(self.cell((int(rc[0]), int(rc[1])), where))
            if not cells:
                raise ParseError(f"{where} has no cells")
            total = _integer(cage.get("sum", value))
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
                r, c = _cell_of((mark.y, mark.x))
                if (
                    0 <= r < self.n
                    and 0 <= c < self.n
                    and r * self.n + c in cells
                    and mark.at(r + 0.5, c + 0.5)
                ):
                    mark.used = True

    def _find(self, fits: Callable[[_Mark], bool], colour: str, shared: Sequence[_Mark] = ()) -> _Mark | None:
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
        circles: list[_Mark] = []  # marked used after all the arrows: several may leave one circle
        for i, arrow in enumerate(self._list("arrows"), start=1):
            where = f"SudokuPad arrow {i}"
            points = _points(arrow, n, where)
            start = _cell_of(points[0])
            inside = 0 <= start[0] < n and 0 <= start[1] < n
            if not inside:
                self._little_killer(points, where)
                continue
            circle = self._find(_circle_around(start), _ARROW, circles)
            if circle is None:
                raise ParseError(f"{where} starts at {cell_name(self.cell(start, where), n)}, in no circle")
            pill = sorted(self.cell(rc, where) for rc in circle.covers())
            centre = (start[0] + 0.5, start[1] + 0.5)
            line = [self.cell(rc, where) for rc in _cells_along([centre, *points[1:]], where)]
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
        r, c = _cell_of(points[0])
        clue = next((m for m in self.marks if m.text and not m.used and m.at(r + 0.5, c + 0.5)), None)
        if clue is None:
            raise ParseError(f"{where}: an arrow outside the grid with no total beside it")
        clue.used = True
        total = _integer(clue.text)
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
            points = _points(item, n, where)
            colour = _colour(item.get("color"))
            thickness = _number(item.get("thickness", 1), where)
            ends = {(round(p[0], 3), round(p[1], 3)) for p in (points[0], points[-1])}
            if len(points) == 2 and ends in ({(0, 0), (n, n)}, {(0, n), (n, 0)}):
                region = "diagonal" if (0, 0) in ends else "antidiagonal"
                self.names.append(region)
                continue
            cells = tuple(self.cell(rc, where) for rc in _cells_along(points, where))
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
                ends.append(self._find(_circle_around((r, c), centred=True), GREY))
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
        outside: list[tuple[_Mark, tuple[int, ...]]] = []
        for mark in self.marks:
            if mark.used:
                continue
            on_edge = _edge(mark, n)
            corner = mark.y.is_integer() and mark.x.is_integer() and 0 < mark.y < n and 0 < mark.x < n
            centre = (mark.y % 1 == 0.5) and (mark.x % 1 == 0.5)
            text = mark.text.upper()
            if on_edge and text in ("X", "V"):
                self.add(Rule(text.lower(), on_edge), mark.where)
            elif on_edge and mark.rounded and not text and mark.width < 0.45:
                self.add(Rule("black-dot" if _is_dark(mark.fill) else "white-dot", on_edge), mark.where)
            elif corner and mark.rounded and text:
                self._quad(mark)
                continue
            elif centre and not text and mark.layer == "underlays" and 0.5 <= mark.width <= 0.8:
                cell = self.cell(_cell_of((mark.y, mark.x)), mark.where)
                self.add(Rule("odd" if mark.rounded else "even", (cell,)), mark.where)
            elif centre and text and (line := _outside_line(mark, n)) is not None:
                outside.append((mark, line))
            else:
                continue
            mark.used = True
        self._outside(outside)

    def _quad(self, mark: _Mark) -> None:
        n = self.n
        digits = re.findall(r"[0-9]+", mark.text)
        if not digits or any(not d.isdigit() or not 1 <= int(d) <= n for d in digits):
            return  # left unused: named as meaningless
        top = (int(mark.y) - 1) * n + int(mark.x) - 1
        self.add(
            Rule("quad", (top, top + 1, top + n, top + n + 1), tuple(int(d) for d in digits)), mark.where
        )
        mark.used = True

    def _outside(self, clues: list[tuple[_Mark, tuple[int, ...]]]) -> None:
        if not clues:
            return
        rules_text = self.meta.get("rules", "").lower()
        kinds = [k for k, words in _OUTSIDE_WORDS.items() if any(w in rules_text for w in words)]
        if len(kinds) != 1:
            mark = clues[0][0]
            raise ParseError(
                f"{mark.describe()}: a number outside the grid, read as a sandwich, X-sum or skyscraper "
                "clue when the puzzle's rules name exactly one of them"
                + (f" (they name {', '.join(kinds)})" if kinds else " (they name none)")
            )
        kind = kinds[0]
        for mark, line in clues:
            value = _integer(mark.text)
            if value is None:
                raise ParseError(f"{mark.describe()}: not a number")
            self.add(Rule(kind, tuple(sorted(line)) if kind == "sandwich" else line, (value,)), mark.where)
            mark.used = True


_OUTSIDE_WORDS = {
    "sandwich": ("sandwich",),
    "x-sum": ("x-sum", "x sum", "xsum"),
    "skyscraper": ("skyscraper",),
}


def _circle_around(rc: tuple[int, int], *, centred: bool = False) -> Callable[[_Mark], bool]:
    """Whether a mark is a circle over the cell (``centred``: with its centre at the cell's)."""

    def fits(mark: _Mark) -> bool:
        if centred:
            return mark.rounded and mark.at(rc[0] + 0.5, rc[1] + 0.5)
        return mark.rounded and rc in mark.covers()

    return fits


def _edge(mark: _Mark, n: int) -> tuple[int, int] | None:
    """The two cells a mark sits between (at the middle of their shared edge), or None."""
    y, x = mark.y, mark.x
    if y % 1 == 0.5 and x.is_integer() and 0 < x < n and 0 <= y < n:
        r, c = int(y), int(x)
        return (r * n + c - 1, r * n + c)
    if x % 1 == 0.5 and y.is_integer() and 0 < y < n and 0 <= x < n:
        r, c = int(y), int(x)
        return ((r - 1) * n + c, r * n + c)
    return None


def _outside_line(mark: _Mark, n: int) -> tuple[int, ...] | None:
    """The row or column read from a clue in the cell beside the grid, in order from it."""
    r, c = math.floor(mark.y), math.floor(mark.x)
    if r in (-1, n) and 0 <= c < n:
        cells = tuple(k * n + c for k in range(n))
        return cells[::-1] if r == n else cells
    if c in (-1, n) and 0 <= r < n:
        cells = tuple(r * n + k for k in range(n))
        return cells[::-1] if c == n else cells
    return None


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
            self.line(cells, _RULE_COLOURS[kind], 21)
        elif kind == "palindrome":
            self.line(cells, GREY, 16)
        elif kind == "between":
            for end in (cells[0], cells[-1]):
                self.circle(
                    [end], self.overlays, width=0.8, height=0.8, backgroundColor="#FFFFFF", borderColor=GREY
                )
            self.line(cells, GREY, 2)
        elif kind in _RULE_COLOURS and _default_params(rule):
            self.line(cells, _RULE_COLOURS[kind], 10)
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
        self.circle(pill, self.overlays, backgroundColor="#FFFFFF", borderColor=_ARROW, thickness=5)
        (y0, x0), (y1, x1) = _centre(start, n), _centre(line[0], n)
        dy, dx = y1 - y0, x1 - x0
        dist = math.hypot(dy, dx)
        first = [y0 + round(3 * dy / dist) / 10, x0 + round(3 * dx / dist) / 10]
        self.arrows.append(
            {
                "wayPoints": [first] + [_centre(c, n) for c in line],
                "color": _ARROW,
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
        outside = {r.kind for r in rules if r.kind in _OUTSIDE_WORDS}
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
                self.lines.append({"wayPoints": corner, "color": _DIAGONAL.upper(), "thickness": 2})
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
    data = _Writer(doc).build()
    text = json.dumps(data, separators=(",", ":"))
    return f"https://sudokupad.app/ctc{lz_compress_base64(text)}" if link else text
