"""Constraint rules as data: killer cages, arrows, thermometers, dots, lines and the rest.

A :class:`Rule` names its type, its cells and its numbers; the table of rule types
(:func:`rule_types`) says what each means, checks it on a full grid, and compiles it to the five
kinds of constraint the engines propagate (:data:`Kind`). docs/constraints.md shows how to add one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
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
    kinds: list[Kind] = []
    for rule in shape.rules:
        kinds.extend(lookup(rule.kind).compile(rule, shape))
    return kinds


def check_grid(grid: Sequence[int], shape: Shape) -> Rule | None:
    """The first rule a full grid breaks, or None when it keeps them all."""
    for rule in shape.rules:
        if not lookup(rule.kind).check(rule, grid, shape):
            return rule
    return None


def _cell(ref: object, size: int, where: str) -> int:
    if isinstance(ref, str) and (named := parse_cell_name(ref)) is not None:
        row, col = named
        if 1 <= row <= size and 1 <= col <= size:
            return (row - 1) * size + col - 1
        raise VariantError(f"{where}: cell {ref!r} lies outside the {size}x{size} grid")
    if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref < size * size:
        return ref
    raise VariantError(f"{where}: {ref!r} is not a cell (r1c2, or an index 0-{size * size - 1})")


def _number(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**6:
        raise VariantError(f"{where} must be a whole number (at most a million), not {value!r}")
    return value


def rule_from_json(data: Mapping[str, Any], size: int, where: str = "rule", base: int = 1) -> Rule:
    """A rule from its JSON form (``{"rule": "cage", "cells": ["r1c1", …], "total": 15}``), checked
    for digits from ``base``."""
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
    cells = tuple(_cell(c, size, where) for c in cells_json)
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
