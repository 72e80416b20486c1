"""The rule model: a :class:`Rule` as data, the kinds every rule compiles to, and the table of
rule types.

A rule is plain data: its type's name, the cells it reads (in the order that matters to it) and
a few whole-number parameters (a cage's total, a whisper's gap). Each rule type is registered
once, as a :class:`RuleType`, with four functions:

- ``vet(rule, size, base)`` raises a :class:`~shudu.errors.VariantError` naming what is wrong
  (:meth:`RuleType.validate` calls it);
- ``holds(rule, values, shape)`` says whether a full grid keeps the rule: the reference that the
  engine's propagation is tested against, written from the rule's meaning alone, on the digits'
  values (:meth:`RuleType.check` calls it on the engine's digits);
- ``compile(rule, shape)`` gives the rule as :data:`Kind` objects, the five shapes of constraint
  the engines propagate: an all-different group, a relation between two cells, a weighted sum,
  an ordered chain and a named condition on a line of cells;
- ``describe(rule, size)`` says it in words.

The digits. The engines know a digit by its index, 1 … n. A puzzle's digits are worth those
indices unless its rule set holds the grid-wide rule ``digits`` (``{"rule": "digits", "from":
0}``: the digits 0 … n-1); then a digit's value is ``index + base - 1``, ``base`` being the
first digit (:attr:`Shape.base`). The values matter to the arithmetic rules (a cage's total, a
ratio), so each rule type meets them once, here in the model: ``holds`` reads values (the table
hands it a view of the grid), ``vet`` gets the base, and ``compile`` says the rule over the
indices (the helpers of :mod:`shudu.rules._util` build relation tables and sums from values), so
the engines see indices alone.

Nothing above the model asks which rule type a rule is: the solvers read kinds, render and the
formats read the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..errors import VariantError
from ..notation import Cell, cell_name

__all__ = [
    "AllDifferent",
    "Kind",
    "LineCondition",
    "OrderedChain",
    "Relation",
    "Rule",
    "RuleType",
    "Shape",
    "WeightedSum",
    "digit_base",
    "lookup",
    "register",
    "rule_types",
]


@dataclass(frozen=True)
class Rule:
    """One rule of a puzzle: its type's name, the cells it reads, and its whole-number parameters."""

    kind: str
    cells: tuple[Cell, ...] = ()
    params: tuple[int, ...] = ()

    def to_json(self, size: int, cols: int | None = None) -> dict[str, Any]:
        """The rule as JSON: ``{"rule": "cage", "cells": ["r1c1", …], "total": 15}`` (``cols``:
        the width of a grid that is not square)."""
        rtype = lookup(self.kind)
        out: dict[str, Any] = {"rule": self.kind}
        if self.cells:
            out["cells"] = [cell_name(c, cols or size) for c in self.cells]
        out.update(rtype.params_json(self.params))
        return out

    def describe(self, size: int) -> str:
        return lookup(self.kind).describe(self, size)


#: The name of the grid-wide rule that sets the first digit (``{"rule": "digits", "from": 0}``).
DIGITS_RULE = "digits"


def digit_base(rules: Iterable[Rule]) -> int:
    """The first digit of a puzzle with these rules: the ``digits`` rule's, else 1."""
    for rule in rules:
        if rule.kind == DIGITS_RULE and rule.params:
            return rule.params[0]
    return 1


@dataclass(frozen=True)
class Shape:
    """What a rule may know of the grid it is on: its size, the region (box or jigsaw piece) of
    every cell, and every rule of the puzzle (the negative constraints read the others; the
    ``digits`` rule says what the digits are worth)."""

    size: int
    region_of: tuple[int, ...]
    rules: tuple[Rule, ...] = ()
    #: The width of a grid that is not square (0: the grid is ``size`` x ``size``). The rules
    #: are compiled and checked on such a grid as if it were the top left corner of a square
    #: one (:func:`shudu.rules.compile_rules`), so that each rule type reads one shape of grid.
    cols: int = 0

    @cached_property
    def base(self) -> int:
        """The value of the first digit (index 1): 1, or 0 for digits 0 … n-1."""
        return digit_base(self.rules)

    @property
    def low(self) -> int:
        """The least digit's value."""
        return self.base

    @property
    def high(self) -> int:
        """The greatest digit's value."""
        return self.base + self.size - 1


def span(size: int, base: int) -> str:
    """The digits of a grid in words: ``1-9``, ``0-8``."""
    return f"{base}-{base + size - 1}"


class _Values(Sequence[int]):
    """A grid of digit indices seen as the digits' values (``index + offset``)."""

    __slots__ = ("_grid", "_offset")

    def __init__(self, grid: Sequence[int], offset: int) -> None:
        self._grid = grid
        self._offset = offset

    def __len__(self) -> int:
        return len(self._grid)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [d + self._offset for d in self._grid[i]]
        return self._grid[i] + self._offset


# --- the kinds the engines propagate -------------------------------------------------------------


@dataclass(frozen=True)
class AllDifferent:
    """No digit twice among ``cells`` (a house when there are n of them)."""

    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Relation:
    """A relation between two cells: when ``a`` holds digit d, ``b`` may hold the digits of the
    bit mask ``allowed[d - 1]`` (bit k for digit k + 1)."""

    a: Cell
    b: Cell
    allowed: tuple[int, ...]


@dataclass(frozen=True)
class WeightedSum:
    """``sum(coeff * digit) == total`` over ``cells``; ``distinct`` when the cells also differ (a
    cage), which lets the engine use the digit combinations that reach the total."""

    cells: tuple[Cell, ...]
    coeffs: tuple[int, ...]
    total: int
    distinct: bool = False


@dataclass(frozen=True)
class OrderedChain:
    """Digits rise along ``cells``: strictly, or never falling when ``strict`` is False."""

    cells: tuple[Cell, ...]
    strict: bool = True


@dataclass(frozen=True)
class LineCondition:
    """A condition on a line of cells, propagated by the engine's condition of that name.

    ``rule`` is set for the condition ``"rule"``: any rule whose own check the engine enforces
    by trying the digits left to its cells (bounded), when no better propagator exists."""

    name: str
    cells: tuple[Cell, ...]
    params: tuple[int, ...] = ()
    rule: Rule | None = None


Kind = AllDifferent | Relation | WeightedSum | OrderedChain | LineCondition


# --- the table of rule types ---------------------------------------------------------------------

Check = Callable[[Rule, Sequence[int], Shape], bool]
Compile = Callable[[Rule, Shape], list[Kind]]
#: ``vet(rule, size, base)``: ``base`` is the puzzle's first digit (:func:`digit_base`).
Validate = Callable[[Rule, int, int], None]


@dataclass(frozen=True)
class RuleType:
    """A rule type as registered: its names, words, parameters and the four functions."""

    name: str
    family: str
    title: str
    description: str
    #: Names of the whole-number parameters, in order; a last name starting with ``*`` takes
    #: all the rest (a quadruple's digits).
    params: tuple[str, ...]
    #: An example in shudu's JSON form.
    example: dict[str, Any]
    #: Whether a full grid keeps the rule, read on the digits' values (see :meth:`check`).
    holds: Check
    compile: Compile
    #: Raises a VariantError naming what is wrong with a rule (see :meth:`validate`).
    vet: Validate
    #: Whether the rule reads cells (False for the grid-wide rules, such as anti-consecutive).
    has_cells: bool = True
    #: Fewest and most cells (None: any).
    min_cells: int = 1
    max_cells: int | None = None
    #: Whether a cell may come twice (a line that crosses itself, a sum that counts a cell twice).
    repeats: bool = False

    def check(self, rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
        """Whether a full grid of digit indices (1 … n, as the engines hold them) keeps the rule:
        :attr:`holds` on the digits' values."""
        offset = shape.base - 1
        return self.holds(rule, _Values(grid, offset) if offset else grid, shape)

    def validate(self, rule: Rule, size: int, base: int = 1) -> None:
        """Raise a VariantError naming what is wrong with ``rule`` on a ``size`` x ``size`` grid
        of digits from ``base``."""
        self.vet(rule, size, base)

    def params_json(self, params: tuple[int, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for i, name in enumerate(self.params):
            if name.startswith("*"):
                out[name[1:]] = list(params[i:])
                break
            if i < len(params):
                out[name] = params[i]
        return out

    def describe(self, rule: Rule, size: int) -> str:
        where = ""
        if rule.cells:
            names = [cell_name(c, size) for c in rule.cells]
            where = " " + (
                "-".join(names) if len(names) <= 4 else f"{names[0]}…{names[-1]} ({len(names)} cells)"
            )
        extra = ", ".join(f"{k} {v}" for k, v in self.params_json(rule.params).items())
        return f"{self.title}{where}" + (f" ({extra})" if extra else "")


_TYPES: dict[str, RuleType] = {}


def register(rtype: RuleType) -> RuleType:
    """Add a rule type to the table (a later one of the same name replaces it)."""
    _TYPES[rtype.name] = rtype
    return rtype


def rule_types() -> dict[str, RuleType]:
    """Every registered rule type by name, in the order of registration."""
    return dict(_TYPES)


def lookup(name: str) -> RuleType:
    """The rule type called ``name``, or a VariantError that lists the known ones."""
    try:
        return _TYPES[name]
    except KeyError:
        known = ", ".join(sorted(_TYPES))
        raise VariantError(f"unknown rule {name!r}; known rules: {known}") from None


def check_cells(rule: Rule, size: int) -> None:
    """The checks every rule's cells share: inside the grid, none twice, the right number."""
    rtype = lookup(rule.kind)
    what = rtype.title
    if not rtype.has_cells:
        if rule.cells:
            raise VariantError(f"{what} applies to the whole grid and takes no cells")
        return
    count = len(rule.cells)
    if count < rtype.min_cells:
        raise VariantError(f"{what} needs at least {rtype.min_cells} cells, not {count}")
    if rtype.max_cells is not None and count > rtype.max_cells:
        raise VariantError(f"{what} takes at most {rtype.max_cells} cells, not {count}")
    for cell in rule.cells:
        if not 0 <= cell < size * size:
            raise VariantError(f"{what}: cell {cell} lies outside the {size}x{size} grid")
    if len(set(rule.cells)) != count and not rtype.repeats:
        dup = next(c for c in rule.cells if rule.cells.count(c) > 1)
        raise VariantError(f"{what} lists {cell_name(dup, size)} twice")
