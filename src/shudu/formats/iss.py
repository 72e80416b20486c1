"""The constraint strings of the Interactive Sudoku Solver: ``.Cage~15~R1C1~R1C2.Thermo~R9C4~R8C3``.

A string is a run of items, each ``.Type~arg~arg…``; the item with an empty type holds givens
(``.~R1C2_4``, or ``.~R4C7_2_4_6_8`` for a cell restricted to those digits). Region items
(``Shape``, ``Jigsaw``, ``Windoku``, ``Diagonal``, ``AntiKnight``, ``AntiKing``, ``DisjointSets``)
become the puzzle's variant; the others become :mod:`shudu.rules`. :func:`parse_iss` reads one,
:func:`format_iss` writes one. A type shudu does not read, or a puzzle part the format cannot
say, is a ParseError that names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..errors import ParseError, ShuduError
from ..geometry import default_box
from ..notation import MAX_SIZE, MIN_SIZE
from ..puzzle import Puzzle
from ..rules import DIGITS_RULE, Rule
from ..variants import Variant, get
from .iss_forms import is_iss_form, parse_iss_form

__all__ = ["format_iss", "is_iss", "parse_iss"]

_TYPES_ONLY = re.compile(r"(\.[A-Z][A-Za-z]*)+")
_CELL = re.compile(r"^R([1-9A-G])C([1-9A-G])$", re.IGNORECASE)
#: Rows and columns past 9 are letters: a = 10 … g = 16 (numbers in base 17).
_COORD = {c: i for i, c in enumerate("123456789abcdefg", start=1)}


def is_iss(text: str) -> bool:
    """Whether ``text`` looks like a constraint string: it starts with ``.`` and holds a ``~``
    (no puzzle line does), or is nothing but type names (``.Windoku.AntiKing``); or is one of
    ISS's grid forms (:mod:`.iss_forms`: pencil marks, the two killer forms)."""
    s = text.strip()
    return (s.startswith(".") and ("~" in s or bool(_TYPES_ONLY.fullmatch(s)))) or is_iss_form(s)


class _Reader:
    """The state of one string being read: its size, givens, variant parts and rules."""

    def __init__(self, size: int, base: int = 1, rows: int = 0, cols: int = 0) -> None:
        self.size = size
        self.base = base
        #: The grid's rows and columns (``size`` each on a square grid).
        self.rows, self.cols = rows or size, cols or size
        self.rect = (self.rows, self.cols) != (size, size)
        self.givens = [0] * (self.rows * self.cols)
        self.names: list[str] = []
        self.regions: list[tuple[int, ...]] = []
        self.region_names: list[str] = []
        self.layout: str | None = None
        self.rules: list[Rule] = []
        self.no_boxes = False

    def cell(self, ref: str) -> int:
        m = _CELL.match(ref)
        if m is None:
            raise ParseError(f"{ref!r} is not a cell (R1C2)")
        row, col = _COORD[m[1].lower()], _COORD[m[2].lower()]
        if not (1 <= row <= self.rows and 1 <= col <= self.cols):
            raise ParseError(f"cell {ref} lies outside the {self.rows}x{self.cols} grid")
        return (row - 1) * self.cols + col - 1

    def cells(self, refs: list[str]) -> tuple[int, ...]:
        if not refs:
            raise ParseError("the item names no cells")
        return tuple(self.cell(r) for r in refs)


def _number(text: str, what: str) -> int:
    if not re.fullmatch(r"-?[0-9]{1,7}", text):
        raise ParseError(f"{what} must be a whole number, not {text!r}")
    return int(text)


def _shape_size(args: list[str]) -> tuple[int, int, int, int]:
    """The number of digits of a ``Shape`` item, its first digit (1, or 0 for ``9x9~0-8``), and
    its rows and columns: ``RxC``, then the digits (``~9``: 1-9; ``~0-8``; by default 1 to the
    longer side), then the grid type (``Sudoku`` only)."""
    dims = args[0].lower().split("x") if args else []
    if len(dims) != 2 or not all(re.fullmatch(r"[0-9]{1,3}", d) for d in dims):
        raise ParseError(f"Shape {args[0] if args else ''!r} is not of the form 9x9")
    rows, cols = int(dims[0]), int(dims[1])
    if not (1 <= rows <= 16 and 1 <= cols <= 16):
        raise ParseError(f"Shape {rows}x{cols}: rows and columns run from 1 to 16")
    if len(args) > 2 and args[2] not in ("", "Sudoku"):
        raise ParseError(f"Shape {args[0]}: grid type {args[2]!r} is not read")
    values = args[1] if len(args) > 1 else ""
    longer = max(rows, cols)
    m = re.fullmatch(r"([0-9]{1,2})(?:-([0-9]{1,2}))?", values)
    if not values:
        size, base = longer, 1
    elif m is None:
        raise ParseError(f"Shape {args[0]}: digits {values!r} are not a count (9) or a range (0-8)")
    elif m[2] is None:
        size, base = int(m[1]), 1
    else:
        base, size = int(m[1]), int(m[2]) - int(m[1]) + 1
        if base not in (0, 1):
            raise ParseError(f"Shape {args[0]}: digits {values} start from 0 or 1, not {base}")
    if not (longer <= size and MIN_SIZE <= size <= MAX_SIZE):
        raise ParseError(
            f"Shape {args[0]} with digits {values or size}: the digits must be {MIN_SIZE} to "
            f"{MAX_SIZE} and at least as many as the longer side ({longer})"
        )
    return size, base, rows, cols


# --- items --------------------------------------------------------------------------------------


def _givens(r: _Reader, args: list[str]) -> None:
    for arg in args:
        ref, *values = arg.split("_")
        cell = r.cell(ref)
        digits = [_number(v, f"the digit of {ref}") for v in values]
        low, high = r.base, r.base + r.size - 1
        if not digits or any(not low <= d <= high for d in digits):
            raise ParseError(f"{arg!r}: digits of this {r.rows}x{r.cols} grid run from {low} to {high}")
        if len(digits) == 1:
            r.givens[cell] = digits[0] - r.base + 1
        else:
            r.rules.append(Rule("candidates", (cell,), tuple(sorted(set(digits)))))


def _diagonal(r: _Reader, args: list[str]) -> None:
    n = r.rows
    direction = args[0] if args else ""
    if r.rows != r.cols:
        raise ParseError(f"a diagonal needs a square grid, not {r.rows}x{r.cols}")
    if direction == "1":
        cells = tuple(i * n + n - 1 - i for i in range(n))
        name = "diagonal ╱"
    elif direction == "-1":
        cells = tuple(i * n + i for i in range(n))
        name = "diagonal ╲"
    else:
        raise ParseError(f"Diagonal takes 1 (╱) or -1 (╲), not {direction!r}")
    if r.rect:  # fewer cells than digits: they only differ
        r.rules.append(Rule("all-different", cells))
    else:
        r.regions.append(cells)
        r.region_names.append(name)


def _square_only(r: _Reader, what: str) -> None:
    if r.rect:
        raise ParseError(
            f"{what} is read on square grids of n digits only, not {r.rows}x{r.cols} of {r.size}"
        )


def _disjoint(r: _Reader, args: list[str]) -> None:
    _square_only(r, "DisjointSets")
    n = r.size
    rows, cols = default_box(n)
    for pos in range(n):
        pr, pc = divmod(pos, cols)
        cells = tuple(
            (br * rows + pr) * n + bc * cols + pc for br in range(n // rows) for bc in range(n // cols)
        )
        r.regions.append(tuple(sorted(cells)))
        r.region_names.append(f"disjoint set {pos + 1}")


def _jigsaw(r: _Reader, args: list[str]) -> None:
    _square_only(r, "Jigsaw")
    if not args:
        raise ParseError("Jigsaw needs its layout")
    r.layout = args[-1]


def _little_killer_lines(n: int, cols: int = 0) -> dict[int, tuple[int, ...]]:
    """The diagonal each little-killer clue reads, keyed by the first cell (as the format has it),
    on a grid of ``n`` rows and ``cols`` columns (``n`` by default)."""
    lines: dict[int, tuple[int, ...]] = {}
    seen: set[frozenset[int]] = set()
    rows, cols = n, cols or n

    def add(row: int, col: int, dr: int, dc: int) -> None:
        cells = []
        while 0 <= row < rows and 0 <= col < cols:
            cells.append(row * cols + col)
            row, col = row + dr, col + dc
        key = frozenset(cells)
        if len(cells) > 1 and key not in seen:
            seen.add(key)
            lines[cells[0]] = tuple(cells)

    for row in range(rows - 1):
        add(row, 0, 1, 1)
    for row in range(1, rows - 1):
        add(row, cols - 1, -1, -1)
    for col in range(1, cols):
        add(0, col, 1, -1)
    for col in range(1, cols - 1):
        add(rows - 1, col, -1, 1)
    return lines


def _little_killer(r: _Reader, args: list[str]) -> None:
    if len(args) != 2:
        raise ParseError("LittleKiller takes a total and a cell")
    start = r.cell(args[1])
    line = _little_killer_lines(r.rows, r.cols).get(start)
    if line is None:
        raise ParseError(f"no little-killer diagonal starts at {args[1]}")
    r.rules.append(Rule("little-killer", line, (_number(args[0], "a little-killer total"),)))


def _line_of(r: _Reader, ref: str) -> tuple[int, ...]:
    rows, cols = r.rows, r.cols
    m = re.fullmatch(r"([RC])([0-9]+)", ref, re.IGNORECASE)
    if m is None or not 1 <= int(m[2]) <= (rows if m[1].upper() == "R" else cols):
        raise ParseError(f"{ref!r} is not a row (R1) or column (C1) of the {rows}x{cols} grid")
    k = int(m[2]) - 1
    if m[1].upper() == "R":
        return tuple(k * cols + c for c in range(cols))
    return tuple(row * cols + k for row in range(rows))


def _sandwich(r: _Reader, args: list[str]) -> None:
    if len(args) != 2:
        raise ParseError("Sandwich takes a total and a row or column")
    r.rules.append(Rule("sandwich", _line_of(r, args[1]), (_number(args[0], "a sandwich total"),)))


def _both_ways(kind: str) -> Callable[[_Reader, list[str]], None]:
    def read(r: _Reader, args: list[str]) -> None:
        if not 2 <= len(args) <= 3:
            raise ParseError(f"{kind} takes a row or column and one or two clues")
        line = _line_of(r, args[0])
        for value, cells in zip(args[1:], (line, line[::-1]), strict=False):
            if value:
                r.rules.append(Rule(kind, cells, (_number(value, f"a {kind} clue"),)))

    return read


def _sum(r: _Reader, args: list[str]) -> None:
    if not args:
        raise ParseError("Sum needs a total")
    total, *coeff_part = args[0].split("_")
    coeffs: list[int] = []
    if coeff_part:
        if coeff_part[0] != "=":
            raise ParseError(f"Sum {args[0]!r}: coefficients follow '_=_'")
        coeffs = [_number(c, "a coefficient") for c in coeff_part[1:]]
    r.rules.append(Rule("sum", r.cells(args[1:]), (_number(total, "a sum"), *coeffs)))


def _cage(r: _Reader, args: list[str]) -> None:
    if not args:
        raise ParseError("Cage needs a total (which may be empty) and cells")
    total = _number(args[0], "a cage total") if args[0] else 0
    params = (total,) if total else ()  # a total of 0 means none: the cells only differ
    cells = r.cells(args[1:])
    if len(set(cells)) == len(cells):
        r.rules.append(Rule("cage", cells, params))
        return
    # a cell listed twice counts twice in the total: different digits, and a sum
    r.rules.append(Rule("all-different", tuple(dict.fromkeys(cells))))
    if params:
        r.rules.append(Rule("sum", cells, params))


def _pill(r: _Reader, args: list[str]) -> None:
    k = _number(args[0], "a pill size") if args else 0
    cells = r.cells(args[1:])
    pill = tuple(sorted(cells[:k]))
    r.rules.append(Rule("arrow", pill + cells[k:], (k,)))


def _quad(r: _Reader, args: list[str]) -> None:
    if len(args) < 2:
        raise ParseError("Quad takes a top-left cell and digits")
    top = r.cell(args[0])
    n = r.cols
    if top % n == n - 1 or top // n == r.rows - 1:
        raise ParseError(f"Quad at {args[0]}: its 2x2 square leaves the grid")
    digits = tuple(_number(v, "a quad digit") for v in args[1:])
    r.rules.append(Rule("quad", (top, top + 1, top + n, top + n + 1), digits))


def _with_param(kind: str, default: int | None = None) -> Callable[[_Reader, list[str]], None]:
    """``Type~number~cells…``; with a default, the number may be left out (German whispers)."""

    def read(r: _Reader, args: list[str]) -> None:
        if default is not None and (not args or not re.fullmatch(r"-?[0-9]+", args[0])):
            args = [str(default), *args]
        if not args:
            raise ParseError(f"{kind} needs its number")
        loop = len(args) > 1 and args[-1] == "LOOP"
        cells = r.cells(args[1:-1] if loop else args[1:])
        params = (_number(args[0], f"the number of a {kind}"),) + ((1,) if loop else ())
        r.rules.append(Rule(kind, cells, params))

    return read


def _cells_rule(kind: str, params: tuple[int, ...] = ()) -> Callable[[_Reader, list[str]], None]:
    return lambda r, args: r.rules.append(Rule(kind, r.cells(args), params))


def _global(kind: str) -> Callable[[_Reader, list[str]], None]:
    return lambda r, args: r.rules.append(Rule(kind))


def _flag(name: str) -> Callable[[_Reader, list[str]], None]:
    return lambda r, args: r.names.append(name)


def _flag_square(name: str) -> Callable[[_Reader, list[str]], None]:
    def read(r: _Reader, args: list[str]) -> None:
        _square_only(r, name)
        r.names.append(name.lower())

    return read


def _no_boxes(r: _Reader, args: list[str]) -> None:
    r.no_boxes = True


_ITEMS: dict[str, Callable[[_Reader, list[str]], None]] = {
    "": _givens,
    "Shape": lambda r, args: None,  # read first, by parse_iss
    "NoBoxes": _no_boxes,
    "Jigsaw": _jigsaw,
    "Windoku": _flag_square("Windoku"),
    "AntiKnight": _flag_square("Anti-knight"),
    "AntiKing": _flag_square("Anti-king"),
    "Diagonal": _diagonal,
    "DisjointSets": _disjoint,
    "AllDifferent": _cells_rule("all-different"),
    "Cage": _cage,
    "Sum": _sum,
    "LittleKiller": _little_killer,
    "Arrow": _cells_rule("arrow"),
    "PillArrow": _pill,
    "DoubleArrow": _cells_rule("double-arrow"),
    "Sandwich": _sandwich,
    "Lunchbox": _with_param("lunchbox"),
    "XSum": _both_ways("x-sum"),
    "Skyscraper": _both_ways("skyscraper"),
    "SumLine": _with_param("sum-line", 10),
    "RegionSumLine": _cells_rule("region-sum-line"),
    "Zipper": _cells_rule("zipper"),
    "Thermo": _cells_rule("thermo"),
    "GreaterThan": _cells_rule("greater"),
    "WhiteDot": _cells_rule("white-dot"),
    "BlackDot": _cells_rule("black-dot"),
    "X": _cells_rule("x"),
    "V": _cells_rule("v"),
    "StrictKropki": _global("strict-kropki"),
    "StrictXV": _global("strict-xv"),
    "AntiConsecutive": _global("anti-consecutive"),
    "Whisper": _with_param("whisper", 5),
    "Palindrome": _cells_rule("palindrome"),
    "Renban": _cells_rule("renban"),
    "Between": _cells_rule("between"),
    "Entropic": _cells_rule("entropic"),
    "Modular": _with_param("modular"),
    "Quad": _quad,
    "GlobalEntropy": _global("global-entropy"),
}


def _items(text: str) -> list[tuple[str, list[str]]]:
    squeezed = re.sub(r"\s+", "", text)
    first, *items = squeezed.split(".")
    if first or not items:
        raise ParseError('a constraint string starts with "." (.Cage~15~R1C1~R1C2)')
    out = []
    for item in items:
        kind, *args = item.split("~")
        out.append((kind, args))
    return out


def parse_iss(text: str) -> Puzzle:
    """The puzzle a constraint string (or one of ISS's grid forms) describes, its rules checked."""
    if is_iss_form(text):
        return parse_iss_form(text)
    items = _items(text)
    shapes = [args for kind, args in items if kind == "Shape"]
    size, base, rows, cols = _shape_size(shapes[-1]) if shapes else (9, 1, 9, 9)
    reader = _Reader(size, base, rows, cols)
    if base != 1:
        reader.rules.append(Rule(DIGITS_RULE, (), (base,)))
    for number, (kind, args) in enumerate(items, start=1):
        read = _ITEMS.get(kind)
        where = f"item {number} ({kind or 'givens'})"
        if read is None:
            known = ", ".join(k for k in _ITEMS if k)
            raise ParseError(f"{where}: shudu does not read this constraint type; it reads {known}")
        try:
            read(reader, args)
        except ShuduError as exc:
            raise ParseError(f"{where}: {exc}") from None
    return _puzzle(reader)


def _puzzle(r: _Reader) -> Puzzle:
    n = r.size
    if r.rect or (r.no_boxes and r.layout is None):
        return _rect_puzzle(r)
    layout = r.layout
    if layout is not None and not r.no_boxes and _has_boxes(n):
        # the pieces are extra regions: the boxes stay unless NoBoxes takes them away
        for label in dict.fromkeys(layout):
            r.regions.append(tuple(i for i, c in enumerate(layout) if c == label))
            r.region_names.append(f"piece {len(r.region_names) + 1}")
        layout = None
    try:
        variant = get("+".join(r.names) or "standard", n, layout=layout)
        if r.regions:
            variant = variant.combine(Variant("custom", n, tuple(r.regions), tuple(r.region_names)))
        if r.rules:
            variant = variant.with_rules(r.rules, n)
        variant.check(n)
    except ShuduError as exc:
        raise ParseError(str(exc)) from None
    return Puzzle(r.givens, variant=variant)


def _rect_puzzle(r: _Reader) -> Puzzle:
    """A puzzle on a grid that is not square (its rows, columns and boxes as ISS has them)."""
    try:
        variant = Variant().with_rules(r.rules, r.size).on_grid(r.rows, r.cols, r.size, no_boxes=r.no_boxes)
        variant.check(r.size)
    except ShuduError as exc:
        raise ParseError(str(exc)) from None
    return Puzzle(r.givens, variant=variant)


def _has_boxes(n: int) -> bool:
    try:
        default_box(n)
    except ShuduError:
        return False
    return True


# --- writing ------------------------------------------------------------------------------------


def _ref(cell: int, n: int) -> str:
    if n > 16:
        raise ParseError(f"the constraint-string format names cells of grids up to 16x16, not {n}x{n}")
    coords = "123456789abcdefg"
    return f"R{coords[cell // n]}C{coords[cell % n]}"


def _refs(cells: tuple[int, ...], n: int) -> str:
    return "~".join(_ref(c, n) for c in cells)


def _line_ref(cells: tuple[int, ...], n: int) -> tuple[str, bool]:
    """``R3`` or ``C5``, and whether the cells run backwards along it."""
    forward = cells[0] < cells[-1]
    if cells[0] // n == cells[-1] // n:
        return f"R{cells[0] // n + 1}", not forward
    return f"C{cells[0] % n + 1}", not forward


def _format_rule(rule: Rule, n: int, rows: int = 0) -> str:
    """One rule as an item; ``n`` is the number of columns, ``rows`` that of rows (``n`` by
    default)."""
    cells, params = rule.cells, rule.params
    simple = {
        "all-different": "AllDifferent", "arrow": "Arrow", "double-arrow": "DoubleArrow",
        "region-sum-line": "RegionSumLine", "zipper": "Zipper", "thermo": "Thermo", "greater": "GreaterThan",
        "white-dot": "WhiteDot", "black-dot": "BlackDot", "x": "X", "v": "V", "palindrome": "Palindrome",
        "renban": "Renban", "between": "Between", "entropic": "Entropic",
    }  # fmt: skip
    grid_wide = {
        "strict-kropki": "StrictKropki", "strict-xv": "StrictXV",
        "anti-consecutive": "AntiConsecutive", "global-entropy": "GlobalEntropy",
    }  # fmt: skip
    kind = rule.kind
    if kind == "arrow" and params and params[0] > 1:
        return f".PillArrow~{params[0]}~{_refs(cells, n)}"
    if kind in simple:
        return f".{simple[kind]}~{_refs(cells, n)}"
    if kind == DIGITS_RULE:
        return ""  # said by the Shape item
    if kind in grid_wide:
        return f".{grid_wide[kind]}"
    if kind == "cage":
        return f".Cage~{params[0] if params else ''}~{_refs(cells, n)}"
    if kind == "sum":
        coeffs = "_=_" + "_".join(map(str, params[1:])) if len(params) > 1 else ""
        return f".Sum~{params[0]}{coeffs}~{_refs(cells, n)}"
    if kind in ("lunchbox", "whisper", "modular"):
        name = {"lunchbox": "Lunchbox", "whisper": "Whisper", "modular": "Modular"}[kind]
        value = params[0] if params else {"whisper": 5, "modular": 3}.get(kind, 0)
        return f".{name}~{value}~{_refs(cells, n)}"
    if kind == "sum-line":
        loop = "~LOOP" if len(params) > 1 and params[1] else ""
        return f".SumLine~{params[0]}~{_refs(cells, n)}{loop}"
    if kind == "little-killer" and _little_killer_lines(rows or n, n).get(cells[0]) == cells:
        return f".LittleKiller~{params[0]}~{_ref(cells[0], n)}"
    if kind == "sandwich":
        return f".Sandwich~{params[0]}~{_line_ref(cells, n)[0]}"
    if kind in ("x-sum", "skyscraper"):
        line, backwards = _line_ref(cells, n)
        name = "XSum" if kind == "x-sum" else "Skyscraper"
        return f".{name}~{line}~{params[0]}~" if not backwards else f".{name}~{line}~~{params[0]}"
    if kind == "quad":
        return f".Quad~{_ref(cells[0], n)}~" + "~".join(map(str, params))
    if kind == "candidates":
        return ".~" + "~".join(f"{_ref(c, n)}_" + "_".join(map(str, params)) for c in cells)
    raise ParseError(f"the constraint-string format cannot say a {rule.describe(n)}")


def format_iss(puzzle: Puzzle) -> str:
    """The puzzle as a constraint string; a ParseError names a part the format cannot say."""
    geo = puzzle.geometry
    n, variant = geo.size, geo.variant
    base = variant.digit_base
    if geo.is_rect:
        return _format_rect(puzzle)
    out = (
        [] if n == 9 and base == 1 else [f".Shape~{n}x{n}" + ("" if base == 1 else f"~{base}-{base + n - 1}")]
    )
    given = [f"{_ref(c, n)}_{d + base - 1}" for c, d in enumerate(puzzle.cells) if d]
    if given:
        out.append(".~" + "~".join(given))
    if variant.layout is not None:
        labels = "".join("0123456789ABCDEFGHIJKLMNOP"[v] for v in variant.layout)
        out.append(f".Jigsaw~{labels}" + (".NoBoxes" if _has_boxes(n) else ""))
    elif geo.box != default_box(n):
        raise ParseError(f"the constraint-string format cannot say boxes of {geo.box}")
    diagonals = {tuple(i * n + n - 1 - i for i in range(n)): "1", tuple(i * n + i for i in range(n)): "-1"}
    windoku = get("windoku", n).regions if "windoku" in variant.name.split("+") else ()
    for region in variant.regions:
        if region in windoku:
            continue
        out.append(
            f".Diagonal~{diagonals[region]}" if region in diagonals else f".AllDifferent~{_refs(region, n)}"
        )
    if windoku:
        out.append(".Windoku")
    if variant.anti_knight:
        out.append(".AntiKnight")
    if variant.anti_king:
        out.append(".AntiKing")
    out.extend(_format_rule(rule, n) for rule in variant.rules)
    return "".join(out) or ".~"


def _format_rect(puzzle: Puzzle) -> str:
    """A puzzle on a grid that is not square: its ``Shape`` (rows, columns, digits), givens and
    rules."""
    geo = puzzle.geometry
    variant, rows, cols, n = geo.variant, geo.rows, geo.cols, geo.size
    base = variant.digit_base
    shape = f".Shape~{rows}x{cols}"
    if base != 1:
        shape += f"~{base}-{base + n - 1}"
    elif n != max(rows, cols):
        shape += f"~{n}"
    out = [shape]
    if variant.no_boxes:
        out.append(".NoBoxes")
    given = [f"{_ref(c, cols)}_{d + base - 1}" for c, d in enumerate(puzzle.cells) if d]
    if given:
        out.append(".~" + "~".join(given))
    out.extend(f".AllDifferent~{_refs(region, cols)}" for region in variant.regions)
    out.extend(_format_rule(rule, cols, rows) for rule in variant.rules)
    return "".join(out)
