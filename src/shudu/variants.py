"""Variants as data: the extra rules a puzzle may carry on top of rows, columns and boxes.

A :class:`Variant` is bound to one grid size and holds plain cell indices (``row * n + col``):
extra regions (each an all-different group of n cells), an optional jigsaw layout that replaces
the boxes, and the anti-knight / anti-king flags. Named variants are built by :func:`get`, and
``+`` combines them (``"x+anti-king"``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import ShapeError, VariantError
from .notation import Cell, cell_name, digit_char, parse_cell_name
from .rules import Rule, digit_base, digits_from_json, rule_from_json, validate_grid_rules
from .rules import validate as validate_rules

__all__ = [
    "Cell",
    "Region",
    "Variant",
    "VariantLike",
    "cell_name",
    "from_json",
    "get",
    "layout_string",
    "names",
    "parse_cell",
    "parse_layout",
    "resolve_variant",
]

Region = tuple[Cell, ...]


def parse_cell(ref: object, size: int) -> Cell:
    """A cell index from an int (0-based reading order) or an ``r1c2`` name."""
    if isinstance(ref, bool):
        raise VariantError(f"cell {ref!r} is neither an index nor an r1c2 name")
    if isinstance(ref, int):
        index = ref
    elif isinstance(ref, str) and (named := parse_cell_name(ref)) is not None:
        row, col = named
        if not (1 <= row <= size and 1 <= col <= size):
            raise VariantError(f"cell {ref!r} lies outside the {size}x{size} grid")
        index = (row - 1) * size + col - 1
    else:
        raise VariantError(f"cell {ref!r} is neither an index nor an r1c2 name")
    if not 0 <= index < size * size:
        raise VariantError(f"cell index {index} lies outside the {size}x{size} grid (0-{size * size - 1})")
    return index


@dataclass(frozen=True)
class Variant:
    """The rules beyond rows, columns and boxes, for one grid size."""

    name: str = "standard"
    size: int | None = None
    #: Extra all-different regions, each a tuple of n cell indices.
    regions: tuple[Region, ...] = ()
    #: A display name for each extra region ("diagonal 1", "pyramid top" …).
    region_names: tuple[str, ...] = ()
    #: Jigsaw: the region number (0 … n-1) of every cell; replaces the boxes.
    layout: tuple[int, ...] | None = None
    anti_knight: bool = False
    anti_king: bool = False
    description: str = field(default="", compare=False)
    #: Constraint rules (killer cages, thermometers, dots, lines …): see :mod:`shudu.rules`.
    rules: tuple[Rule, ...] = ()
    #: A grid that is not ``size`` x ``size``: (rows, columns), each at most ``size`` (the
    #: number of digits); None for the square grid. Cells are ``row * columns + col``; a row,
    #: column or box of fewer than ``size`` cells only holds different digits
    #: (:mod:`shudu.geometry`, "Grids that are not square").
    grid: tuple[int, int] | None = None
    #: A grid that is not square, without its default boxes (ISS's ``NoBoxes``).
    no_boxes: bool = False

    def __post_init__(self) -> None:
        if len(self.region_names) != len(self.regions):
            names = tuple(f"region {i + 1}" for i in range(len(self.regions)))
            object.__setattr__(self, "region_names", names)

    @property
    def is_standard(self) -> bool:
        return not (
            self.regions or self.layout or self.anti_knight or self.anti_king or self.rules or self.grid
        )

    def dims(self, size: int) -> tuple[int, int]:
        """(rows, columns) of the grid this variant is on, with ``size`` digits."""
        return self.grid if self.grid is not None else (size, size)

    @property
    def digit_base(self) -> int:
        """The value of the first digit: 1, or 0 when a ``digits`` rule says the digits run from 0."""
        return digit_base(self.rules)

    @property
    def has_rules(self) -> bool:
        """Whether the variant carries constraint rules beyond all-different regions."""
        return bool(self.rules)

    def refuse_rules(self, what: str) -> None:
        """Raise :class:`VariantError` when the variant has constraint rules, which ``what``
        does not read yet (it would answer for the grid without them)."""
        if self.grid is not None:
            self.refuse_grid(what)
        if self.rules:
            kinds = ", ".join(dict.fromkeys(rule.kind for rule in self.rules))
            raise VariantError(
                f"{what} does not read constraint rules yet (this puzzle has {kinds}); "
                "solve, count and convert do"
            )

    def refuse_grid(self, what: str) -> None:
        """Raise :class:`ShapeError` when the grid is not square with as many digits as rows,
        which ``what`` does not read."""
        if self.grid is not None:
            rows, cols = self.grid
            raise ShapeError(
                f"{what} reads square grids of n digits only, not this {rows}x{cols} grid of "
                f"{self.size} digits; solve, count and convert do"
            )

    def check(self, size: int) -> None:
        """Raise :class:`VariantError` unless every region fits a grid of ``size``."""
        if self.size is not None and self.size != size and not self.is_standard:
            raise VariantError(f"variant {self.name!r} is for {self.size}x{self.size}, not {size}x{size}")
        if self.grid is not None:
            _check_grid(self, size)
            return
        for name, region in zip(self.region_names, self.regions, strict=True):
            _check_region(region, size, name)
        if self.layout is not None:
            _check_layout(self.layout, size)
        validate_rules(self.rules, size)

    def combine(self, other: Variant) -> Variant:
        """Both variants' rules at once (``x`` + ``anti-king`` …)."""
        if self.layout is not None and other.layout is not None and self.layout != other.layout:
            raise VariantError("cannot combine two different jigsaw layouts")
        size = self.size if self.size is not None else other.size
        if self.size is not None and other.size is not None and self.size != other.size:
            raise VariantError(
                f"cannot combine a {self.size}x{self.size} variant with a {other.size}x{other.size} one"
            )
        names = [n for n in (self.name, other.name) if n != "standard"] or ["standard"]
        return Variant(
            name="+".join(names),
            size=size,
            regions=self.regions + other.regions,
            region_names=self.region_names + other.region_names,
            layout=self.layout if self.layout is not None else other.layout,
            anti_knight=self.anti_knight or other.anti_knight,
            anti_king=self.anti_king or other.anti_king,
            description="; ".join(d for d in (self.description, other.description) if d),
            rules=self.rules + other.rules,
            grid=self.grid if self.grid is not None else other.grid,
            no_boxes=self.no_boxes or other.no_boxes,
        )

    def with_rules(self, rules: Iterable[Rule], size: int) -> Variant:
        """The same variant, for a ``size`` x ``size`` grid, with ``rules`` added to its own."""
        if self.size is not None and self.size != size:
            raise VariantError(f"variant {self.name!r} is for {self.size}x{self.size}, not {size}x{size}")
        return Variant(
            self.name, size, self.regions, self.region_names, self.layout,
            self.anti_knight, self.anti_king, self.description, self.rules + tuple(rules),
            self.grid, self.no_boxes,
        )  # fmt: skip

    def on_grid(self, rows: int, cols: int, size: int, *, no_boxes: bool = False) -> Variant:
        """The same variant on a grid of ``rows`` x ``cols`` cells and ``size`` digits (the
        square grid when all three are equal and it keeps its boxes)."""
        square = rows == cols == size and not no_boxes
        return Variant(
            self.name, size, self.regions, self.region_names, self.layout,
            self.anti_knight, self.anti_king, self.description, self.rules,
            None if square else (rows, cols), no_boxes and not square,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The variant as the JSON fields of the puzzle format (``variant``, ``regions``, ``layout``)."""
        out: dict[str, Any] = {"variant": self.name}
        if self.layout is not None:
            out["layout"] = layout_string(self.layout)
        parts = self.name.split("+")
        if "custom" in parts:
            # custom regions come after those of the named parts; write only those
            named = "+".join(p for p in parts if p not in ("custom", "jigsaw")) or "standard"
            skip = len(get(named, self.size or 9).regions)
            out["regions"] = [list(r) for r in self.regions[skip:]]
        if self.grid is not None:
            out["shape"] = f"{self.grid[0]}x{self.grid[1]}"
            if self.no_boxes:
                out["boxes"] = False
        if self.rules:
            cols = self.grid[1] if self.grid is not None else None
            out["rules"] = [rule.to_json(self.size or 9, cols) for rule in self.rules]
        return out


#: The grid-wide rules that read every pair of neighbours or squares of the grid: read on
#: square grids only.
_SQUARE_ONLY_RULES = frozenset({"anti-consecutive", "strict-kropki", "strict-xv", "global-entropy"})


def _check_grid(variant: Variant, size: int) -> None:
    """The checks of a variant on a grid that is not square (:attr:`Variant.grid`)."""
    assert variant.grid is not None
    rows, cols = variant.grid
    where = f"a {rows}x{cols} grid of {size} digits"
    if not (1 <= rows <= size and 1 <= cols <= size):
        raise ShapeError(
            f"{where}: rows and columns must be from 1 to the number of digits ({size}), "
            "which must be at least the longer side"
        )
    if variant.layout is not None or variant.anti_knight or variant.anti_king:
        raise VariantError(f"{where} takes no jigsaw layout, anti-knight or anti-king rule")
    for name, region in zip(variant.region_names, variant.regions, strict=True):
        _check_region(region, size, name, rows * cols, cols)
    for rule in variant.rules:
        if rule.kind in _SQUARE_ONLY_RULES:
            raise VariantError(f"{where}: the {rule.kind} rule is read on square grids only")
    validate_grid_rules(variant.rules, size, rows, cols)


def _check_region(
    region: Sequence[int], size: int, name: str, ncells: int | None = None, cols: int | None = None
) -> None:
    if len(region) != size:
        raise VariantError(
            f"{name} has {len(region)} cells; every region of a {size}x{size} grid needs {size}"
        )
    for cell in region:
        if not 0 <= cell < (size * size if ncells is None else ncells):
            raise VariantError(f"{name}: cell {cell} lies outside the grid")
    if len(set(region)) != size:
        dup = next(c for c in region if region.count(c) > 1)
        raise VariantError(f"{name} lists {cell_name(dup, cols or size)} twice")


def _check_layout(layout: Sequence[int], size: int) -> None:
    if len(layout) != size * size:
        raise VariantError(f"jigsaw layout has {len(layout)} cells; a {size}x{size} grid needs {size * size}")
    counts = [0] * size
    for label in layout:
        if not 0 <= label < size:
            raise VariantError(
                f"jigsaw layout has {max(layout) + 1} regions; a {size}x{size} grid needs {size}"
            )
        counts[label] += 1
    for label, count in enumerate(counts):
        if count != size:
            raise VariantError(f"jigsaw region {label + 1} has {count} cells; every region needs {size}")


def parse_layout(text: str | Sequence[object], size: int | None = None) -> tuple[int, ...]:
    """Region numbers from a jigsaw layout: n·n labels, one per cell (whitespace ignored).

    Labels may be any characters; regions are numbered in order of first appearance.
    """
    labels = [c for c in text if not (isinstance(c, str) and c.isspace())]
    if size is None:
        size = math.isqrt(len(labels))
    if len(labels) != size * size:
        raise VariantError(f"jigsaw layout has {len(labels)} cells; a {size}x{size} grid needs {size * size}")
    numbers: dict[object, int] = {}
    layout = tuple(numbers.setdefault(label, len(numbers)) for label in labels)
    if len(numbers) != size:
        raise VariantError(f"jigsaw layout has {len(numbers)} regions; a {size}x{size} grid needs {size}")
    _check_layout(layout, size)
    return layout


def layout_string(layout: Sequence[int]) -> str:
    """A jigsaw layout as one label character per cell (1-9, then A-P)."""
    return "".join(digit_char(label + 1) for label in layout)


# --- the named variants ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Named:
    name: str
    description: str
    build: Callable[[int], Variant]


_REGISTRY: dict[str, _Named] = {}


def _register(name: str, description: str) -> Callable[[Callable[[int], Variant]], Callable[[int], Variant]]:
    def wrap(build: Callable[[int], Variant]) -> Callable[[int], Variant]:
        _REGISTRY[name] = _Named(name, description, build)
        return build

    return wrap


@_register("standard", "rows, columns and boxes each hold every digit once")
def _standard(size: int) -> Variant:
    return Variant("standard", description=_REGISTRY["standard"].description)


@_register("x", "standard, and both main diagonals also hold every digit once")
def _x(size: int) -> Variant:
    main = tuple(i * size + i for i in range(size))
    anti = tuple(i * size + size - 1 - i for i in range(size))
    return Variant(
        "x",
        size,
        (main, anti),
        ("diagonal 1", "diagonal 2"),
        description=_REGISTRY["x"].description,
    )


@_register(
    "windoku",
    "standard, plus extra box-sized windows (9x9: rows 2-4 / 6-8 x columns 2-4 / 6-8) "
    "that also hold every digit once",
)
def _windoku(size: int) -> Variant:
    side = math.isqrt(size)
    if side * side != size:
        raise VariantError(f"windoku needs square boxes; {size}x{size} has none")
    starts = range(1, size - side + 1, side + 1)
    windows = tuple(
        tuple((top + r) * size + left + c for r in range(side) for c in range(side))
        for top in starts
        for left in starts
    )
    names = tuple(f"window {i + 1}" for i in range(len(windows)))
    return Variant("windoku", size, windows, names, description=_REGISTRY["windoku"].description)


@_register(
    "pyramid",
    "standard, plus four pyramids (rows of 5, 3 and 1 cells on 9x9) pointing from the middle "
    "of each edge toward the centre, that also hold every digit once",
)
def _pyramid(size: int) -> Variant:
    steps = math.isqrt(size)
    if steps * steps != size or size % 2 == 0:
        raise VariantError(f"pyramid needs an odd square size (9, 25); {size}x{size} is not one")
    mid = size // 2

    def pyramid(cell: Callable[[int, int], int]) -> Region:
        # row k (0 = on the edge) has 2*(steps-k)-1 cells centred on the middle line
        return tuple(cell(k, mid + d) for k in range(steps) for d in range(-(steps - k - 1), steps - k))

    regions = (
        pyramid(lambda k, j: k * size + j),  # top
        pyramid(lambda k, j: (size - 1 - k) * size + j),  # bottom
        pyramid(lambda k, j: j * size + k),  # left
        pyramid(lambda k, j: j * size + size - 1 - k),  # right
    )
    names = ("pyramid top", "pyramid bottom", "pyramid left", "pyramid right")
    return Variant("pyramid", size, regions, names, description=_REGISTRY["pyramid"].description)


@_register("jigsaw", "rows and columns as usual; n irregular regions given as a layout replace the boxes")
def _jigsaw(size: int) -> Variant:
    raise VariantError(
        "variant 'jigsaw' needs its layout: give n*n region labels as \"layout\" in JSON "
        "(or --layout on the command line)"
    )


@_register("anti-knight", "standard, and two cells a knight's move apart never hold the same digit")
def _anti_knight(size: int) -> Variant:
    return Variant("anti-knight", anti_knight=True, description=_REGISTRY["anti-knight"].description)


@_register(
    "anti-king",
    "standard, and two cells a king's move apart (diagonal neighbours) never hold the same digit",
)
def _anti_king(size: int) -> Variant:
    return Variant("anti-king", anti_king=True, description=_REGISTRY["anti-king"].description)


@_register("custom", 'standard, plus extra regions you give as lists of n cells (JSON "regions")')
def _custom(size: int) -> Variant:
    return Variant("custom", size, description=_REGISTRY["custom"].description)


def names() -> dict[str, str]:
    """Every named variant with its description, in a stable order."""
    return {name: named.description for name, named in _REGISTRY.items()}


def get(
    name: str = "standard",
    size: int = 9,
    *,
    regions: Iterable[Iterable[object]] | None = None,
    layout: str | Sequence[object] | None = None,
) -> Variant:
    """The variant ``name`` (parts joined by ``+``) for a ``size`` x ``size`` grid.

    ``regions`` adds custom extra regions (cells as indices or ``r1c2`` names); ``layout``
    gives a jigsaw layout (then ``name`` may omit ``jigsaw``).
    """
    result = Variant()
    parts = [p.strip().lower() for p in name.split("+") if p.strip()] or ["standard"]
    for part in parts:
        named = _REGISTRY.get(part)
        if named is None:
            known = ", ".join(_REGISTRY)
            raise VariantError(f"unknown variant {part!r}; known variants: {known}")
        if part == "jigsaw" and layout is not None:
            continue
        if part == "custom" and regions is not None:
            continue
        result = result.combine(named.build(size))
    if layout is not None:
        jigsaw = Variant(
            "jigsaw",
            size,
            layout=parse_layout(layout, size),
            description=_REGISTRY["jigsaw"].description,
        )
        result = result.combine(jigsaw)
    if regions is not None:
        cells = tuple(tuple(parse_cell(c, size) for c in region) for region in regions)
        names_ = tuple(f"region {i + 1}" for i in range(len(cells)))
        result = result.combine(Variant("custom", size, cells, names_))
    result.check(size)
    return result


def from_json(data: Mapping[str, Any], size: int, grid: tuple[int, int] | None = None) -> Variant:
    """The variant described by the JSON fields ``variant``, ``regions``, ``layout`` and
    ``rules``; on a grid of ``grid`` = (rows, columns) that is not square, its ``boxes``
    (false: none) too."""
    if (grid is not None and grid != (size, size)) or data.get("boxes") is False:
        return _grid_from_json(data, size, grid or (size, size))
    name = data.get("variant", "standard")
    if not isinstance(name, str):
        raise VariantError(f'"variant" must be a name, not {name!r}')
    regions = data.get("regions")
    if regions is not None and (
        not isinstance(regions, list) or not all(isinstance(r, list) for r in regions)
    ):
        raise VariantError('"regions" must be a list of lists of cells')
    layout = data.get("layout")
    if layout is not None and not isinstance(layout, str | list):
        raise VariantError('"layout" must be a string of n*n region labels')
    variant = get(name, size, regions=regions, layout=layout)
    rules = data.get("rules")
    if rules is None:
        return variant
    if not isinstance(rules, list):
        raise VariantError('"rules" must be a list of rules')
    base = digits_from_json(rules)
    found = tuple(rule_from_json(r, size, f"rule {i}", base) for i, r in enumerate(rules, start=1))
    variant = variant.with_rules(found, size)
    variant.check(size)
    return variant


def _grid_from_json(data: Mapping[str, Any], size: int, grid: tuple[int, int]) -> Variant:
    rows, cols = grid
    name = data.get("variant", "standard")
    if name not in ("standard", "custom") or data.get("layout") is not None:
        raise VariantError(
            f"a {rows}x{cols} grid takes extra regions and rules, not the variant {name!r} or a layout"
        )
    boxes = data.get("boxes", True)
    if not isinstance(boxes, bool):
        raise VariantError(f'"boxes" must be true or false, not {boxes!r}')
    regions = data.get("regions") or []
    if not isinstance(regions, list) or not all(isinstance(r, list) for r in regions):
        raise VariantError('"regions" must be a list of lists of cells')
    cells = tuple(tuple(_grid_cell(c, rows, cols) for c in region) for region in regions)
    rules_json = data.get("rules") or []
    if not isinstance(rules_json, list):
        raise VariantError('"rules" must be a list of rules')
    base = digits_from_json(rules_json)
    rules = tuple(
        rule_from_json(r, size, f"rule {i}", base, grid=grid) for i, r in enumerate(rules_json, start=1)
    )
    variant = Variant("custom" if cells else "standard", size, cells, rules=rules)
    variant = variant.on_grid(rows, cols, size, no_boxes=not boxes)
    variant.check(size)
    return variant


def _grid_cell(ref: object, rows: int, cols: int) -> Cell:
    named = parse_cell_name(ref) if isinstance(ref, str) else None
    if named is not None and 1 <= named[0] <= rows and 1 <= named[1] <= cols:
        return (named[0] - 1) * cols + named[1] - 1
    if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref < rows * cols:
        return ref
    raise VariantError(f"cell {ref!r} is not a cell of the {rows}x{cols} grid")


#: A variant as callers may give it: resolved, a name (``"x+anti-king"``), JSON fields, or None
#: for the standard rules. :func:`resolve_variant` turns any of them into a :class:`Variant`.
VariantLike = Variant | str | Mapping[str, Any] | None


def resolve_variant(arg: VariantLike, size: int) -> Variant:
    """The :class:`Variant` a variant argument stands for on a ``size`` x ``size`` grid.

    ``arg`` is None (standard), a name such as ``"x+anti-king"``, the JSON fields ``variant``,
    ``regions`` and ``layout`` as a mapping, or a Variant (returned as it is, after checking that
    it fits the size). This is the one place that turns such arguments into Variants.
    """
    if arg is None:
        return Variant()
    if isinstance(arg, Variant):
        arg.check(size)
        return arg
    if isinstance(arg, str):
        return get(arg, size)
    if isinstance(arg, Mapping):
        return from_json(arg, size)
    raise VariantError(
        f"a variant is a name (e.g. 'x+anti-king'), JSON fields or a Variant, not {type(arg).__name__}"
    )
