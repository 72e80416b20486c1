"""Constraint rules as data: killer cages, arrows, thermometers, dots, lines and the rest.

A :class:`Rule` names its type, its cells and its numbers; the table of rule types
(:func:`rule_types`) says what each means, checks it on a full grid, and compiles it to the five
kinds of constraint the engines propagate (:data:`Kind`). docs/constraints.md shows how to add one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..errors import VariantError
from ..notation import parse_cell_name
from . import lines as _lines  # noqa: F401  (registers its rule types)
from . import pairs as _pairs  # noqa: F401
from . import sums as _sums  # noqa: F401
from .base import (
    DIGITS_RULE,
    AllDifferent,
    Kind,
    LineCondition,
    OrderedChain,
    Relation,
    Rule,
    RuleType,
    Shape,
    WeightedSum,
    digit_base,
    lookup,
    register,
    rule_types,
)

__all__ = [
    "DIGITS_RULE",
    "AllDifferent",
    "Kind",
    "LineCondition",
    "OrderedChain",
    "Relation",
    "Rule",
    "RuleType",
    "Shape",
    "WeightedSum",
    "check_grid",
    "compile_rules",
    "digit_base",
    "digits_from_json",
    "lookup",
    "register",
    "rule_from_json",
    "rule_types",
    "validate",
    "validate_grid_rules",
]


def validate(rules: Iterable[Rule], size: int) -> None:
    """Raise a VariantError naming the first rule that is wrong for a ``size`` x ``size`` grid
    (with the digits the set's ``digits`` rule says, else 1 … n)."""
    rules = tuple(rules)
    bases = {rule.params for rule in rules if rule.kind == DIGITS_RULE}
    if len(bases) > 1:
        raise VariantError("the rules say twice where the digits start, differently")
    base = digit_base(rules)
    for i, rule in enumerate(rules, start=1):
        try:
            lookup(rule.kind).validate(rule, size, base)
        except VariantError as exc:
            raise VariantError(f"rule {i} ({rule.kind}): {exc}") from None


def compile_rules(shape: Shape) -> list[Kind]:
    """Every rule of ``shape`` as the kinds the engines propagate."""
    if shape.cols:
        square = _square(shape)
        back = _from_square(shape.cols, shape.size)
        return [_moved(kind, back) for kind in compile_rules(square)]
    kinds: list[Kind] = []
    for rule in shape.rules:
        kinds.extend(lookup(rule.kind).compile(rule, shape))
    return kinds


def check_grid(grid: Sequence[int], shape: Shape) -> Rule | None:
    """The first rule a full grid breaks, or None when it keeps them all."""
    if shape.cols:
        square = _square(shape)
        padded = [0] * (shape.size * shape.size)
        for cell, cell_sq in enumerate(_to_square_cells(len(grid), shape.cols, shape.size)):
            padded[cell_sq] = grid[cell]
        broken = check_grid(padded, square)
        return None if broken is None else shape.rules[square.rules.index(broken)]
    for rule in shape.rules:
        if not lookup(rule.kind).check(rule, grid, shape):
            return rule
    return None


# --- grids that are not square ------------------------------------------------------------------
#
# A grid of R rows and C columns with n digits (R, C <= n) is read by the rule types as the top
# left corner of an n x n grid: a cell ``r * C + c`` is the square grid's ``r * n + c``, so that
# neighbours, lines and cell names mean what they mean on a square grid. The rules are moved
# there to be checked and compiled, and the kinds they compile to are moved back.

#: The rules that read a whole row or column: on a grid that is not square, a row of C cells or
#: a column of R cells.
_LINE_CLUES = frozenset({"sandwich", "x-sum", "skyscraper"})


@lru_cache(maxsize=64)
def _to_square_cells(ncells: int, cols: int, size: int) -> tuple[int, ...]:
    return tuple((c // cols) * size + c % cols for c in range(ncells))


def _from_square(cols: int, size: int) -> Callable[[int], int]:
    return lambda c: (c // size) * cols + c % size


def _to_square(rule: Rule, cols: int, size: int) -> Rule:
    return Rule(rule.kind, tuple((c // cols) * size + c % cols for c in rule.cells), rule.params)


@lru_cache(maxsize=16)
def _square(shape: Shape) -> Shape:
    """The shape of the square grid whose top left corner ``shape``'s grid is."""
    n, cols = shape.size, shape.cols
    region_of = [-1] * (n * n)
    for cell, cell_sq in enumerate(_to_square_cells(len(shape.region_of), cols, n)):
        region_of[cell_sq] = shape.region_of[cell]
    rules = tuple(_to_square(rule, cols, n) for rule in shape.rules)
    return Shape(n, tuple(region_of), rules)


def _moved(kind: Kind, move: Callable[[int], int]) -> Kind:
    """A kind with its cells moved (from the square grid back to the grid's own)."""
    if isinstance(kind, Relation):
        return dataclasses.replace(kind, a=move(kind.a), b=move(kind.b))
    cells = tuple(move(c) for c in kind.cells)
    if isinstance(kind, LineCondition) and kind.rule is not None:
        rule = Rule(kind.rule.kind, tuple(move(c) for c in kind.rule.cells), kind.rule.params)
        return dataclasses.replace(kind, cells=cells, rule=rule)
    return dataclasses.replace(kind, cells=cells)


def validate_grid_rules(rules: Iterable[Rule], size: int, rows: int, cols: int) -> None:
    """:func:`validate` for a grid of ``rows`` x ``cols`` cells and ``size`` digits: each
    rule's cells inside it, and its own checks read on the square grid it is the corner of."""
    rules = tuple(rules)
    square: list[Rule] = []
    for i, rule in enumerate(rules, start=1):
        where = f"rule {i} ({rule.kind})"
        outside = next((c for c in rule.cells if not 0 <= c < rows * cols), None)
        if outside is not None:
            raise VariantError(f"{where}: cell {outside} lies outside the {rows}x{cols} grid")
        if rule.kind in _LINE_CLUES:
            _line_clue_on_grid(rule, size, rows, cols, where)
            square.append(Rule(DIGITS_RULE, (), (digit_base(rules),)))  # keeps the numbering
        else:
            square.append(_to_square(rule, cols, size))
    validate(square, size)


def _line_clue_on_grid(rule: Rule, size: int, rows: int, cols: int, where: str) -> None:
    cells = rule.cells
    line = sorted(cells)
    whole_row = len(cells) == cols and line == list(range(line[0], line[0] + cols)) and line[0] % cols == 0
    whole_col = len(cells) == rows and line == list(range(line[0], rows * cols, cols)) and line[0] < cols
    if not (whole_row or whole_col) or (list(cells) != line and list(cells) != line[::-1]):
        raise VariantError(f"{where}: a {rule.kind} clue reads a whole row or column, in order")
    if not rule.params or rule.params[0] < 0:
        raise VariantError(f"{where}: a {rule.kind} clue needs its number, at least 0")
    if rule.kind == "sandwich" and len(cells) != size:
        raise VariantError(f"{where}: a sandwich clue reads a line of {size} cells, not {len(cells)}")


def _cell(ref: object, size: int, where: str, grid: tuple[int, int] | None = None) -> int:
    rows, cols = grid or (size, size)
    if isinstance(ref, str) and (named := parse_cell_name(ref)) is not None:
        row, col = named
        if 1 <= row <= rows and 1 <= col <= cols:
            return (row - 1) * cols + col - 1
        raise VariantError(f"{where}: cell {ref!r} lies outside the {rows}x{cols} grid")
    if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref < rows * cols:
        return ref
    raise VariantError(f"{where}: {ref!r} is not a cell (r1c2, or an index 0-{rows * cols - 1})")


def _number(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**6:
        raise VariantError(f"{where} must be a whole number (at most a million), not {value!r}")
    return value


def rule_from_json(
    data: Mapping[str, Any],
    size: int,
    where: str = "rule",
    base: int = 1,
    grid: tuple[int, int] | None = None,
) -> Rule:
    """A rule from its JSON form (``{"rule": "cage", "cells": ["r1c1", …], "total": 15}``), checked
    for digits from ``base``; on a grid of ``grid`` = (rows, columns) that is not square, its
    cells read there and the rule left for :func:`validate_grid_rules` to check."""
    if not isinstance(data, Mapping):
        raise VariantError(f'{where} must be an object with a "rule" name, not {type(data).__name__}')
    kind = data.get("rule")
    if not isinstance(kind, str):
        raise VariantError(f'{where} has no "rule" name')
    rtype = lookup(kind)
    where = f"{where} ({kind})"
    cells_json = data.get("cells", [])
    if not isinstance(cells_json, list):
        raise VariantError(f'{where}: "cells" must be a list')
    cells = tuple(_cell(c, size, where, grid) for c in cells_json)
    params: list[int] = []
    for name in rtype.params:
        key = name.lstrip("*")
        if key not in data:
            break
        value = data[key]
        if name.startswith("*"):
            if not isinstance(value, list):
                raise VariantError(f'{where}: "{key}" must be a list of numbers')
            params.extend(_number(v, f"{where}: {key}") for v in value)
        else:
            params.append(_number(value, f"{where}: {key}"))
    unknown = set(data) - {"rule", "cells"} - {n.lstrip("*") for n in rtype.params}
    if unknown:
        raise VariantError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    rule = Rule(kind, cells, tuple(params))
    if grid is not None:
        return rule
    try:
        rtype.validate(rule, size, base)
    except VariantError as exc:
        raise VariantError(f"{where}: {exc}") from None
    return rule


def digits_from_json(rules: Sequence[Any]) -> int:
    """The first digit a JSON list of rules sets (its ``digits`` rule), read before the others
    are checked against it; 1 when none does."""
    for data in rules:
        if isinstance(data, Mapping) and data.get("rule") == DIGITS_RULE:
            base = data.get("from")
            if base not in (0, 1) or isinstance(base, bool):
                raise VariantError(f"the digits run from 0 or from 1, not from {base!r}")
            return int(base)
    return 1
