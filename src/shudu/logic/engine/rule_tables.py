"""What the logic engine knows of a puzzle's constraint rules, built once per geometry.

Every rule compiles to the kinds the engines propagate (:mod:`shudu.rules`); the techniques read
them here, sorted by kind and tied to the rule they came from (a step names its rule). Two cells
that a rule keeps apart for every digit (two cells of a cage, of a strict thermometer, of a
kropki dot, a whisper or a greater-than sign) become peers of each other (:attr:`apart`), so
singles, subsets, intersections, chains and nets see them as they see two cells of a row.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...geometry import Geometry
from ...rules import (
    AllDifferent,
    Kind,
    LineCondition,
    OrderedChain,
    Relation,
    Rule,
    Shape,
    WeightedSum,
    lookup,
)
from ...solvers.constraints import shape_of

__all__ = ["RuleItem", "RuleTables", "rule_tables"]


@dataclass(frozen=True)
class RuleItem:
    """One rule of the puzzle, the kinds it compiles to and its words (``killer cage r1c1-r1c2
    (total 3)``)."""

    rule: Rule
    kinds: tuple[Kind, ...]
    words: str


@dataclass(frozen=True)
class RuleTables:
    """The puzzle's rules as the techniques read them; each entry names its rule's index in
    :attr:`items`."""

    shape: Shape
    items: tuple[RuleItem, ...]
    sums: tuple[tuple[int, WeightedSum], ...]
    chains: tuple[tuple[int, OrderedChain], ...]
    relations: tuple[tuple[int, Relation], ...]
    conditions: tuple[tuple[int, LineCondition], ...]
    #: The all-different groups the rules make (a cage, a renban line), as cell sets.
    groups: tuple[tuple[int, int], ...]
    #: Sums of distinct cells, each weighing 1 (a killer cage, a plain sum), as (rule, cells,
    #: total): what the 45 rule adds up.
    unit_sums: tuple[tuple[int, int, int], ...]
    #: The pairs of cells some rule keeps from holding the same digit.
    apart: tuple[tuple[int, int], ...]
    #: What the rule searches found, by rule and state of its cells (:mod:`~shudu.logic.techniques.rule_fit`).
    memo: dict[object, object] = field(default_factory=dict, compare=False, repr=False)


def _never_equal(relation: Relation) -> bool:
    return all(not allowed >> d & 1 for d, allowed in enumerate(relation.allowed))


def rule_tables(geometry: Geometry) -> RuleTables | None:
    """The rules of a geometry as the logic engine reads them (None: it has none)."""
    rules = geometry.variant.rules
    if not rules:
        return None
    shape = shape_of(geometry)
    items: list[RuleItem] = []
    sums: list[tuple[int, WeightedSum]] = []
    chains: list[tuple[int, OrderedChain]] = []
    relations: list[tuple[int, Relation]] = []
    conditions: list[tuple[int, LineCondition]] = []
    groups: list[tuple[int, int]] = []
    unit_sums: list[tuple[int, int, int]] = []
    apart: set[tuple[int, int]] = set()

    def keep_apart(cells: tuple[int, ...]) -> None:
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                if a != b:
                    apart.add((min(a, b), max(a, b)))

    for i, rule in enumerate(rules):
        kinds = tuple(lookup(rule.kind).compile(rule, shape))
        items.append(RuleItem(rule, kinds, rule.describe(geometry.size)))
        for kind in kinds:
            if isinstance(kind, AllDifferent):
                groups.append((i, sum(1 << c for c in set(kind.cells))))
                keep_apart(kind.cells)
            elif isinstance(kind, WeightedSum):
                sums.append((i, kind))
                if kind.distinct:
                    keep_apart(kind.cells)
                if all(c == 1 for c in kind.coeffs) and len(set(kind.cells)) == len(kind.cells):
                    unit_sums.append((i, sum(1 << c for c in kind.cells), kind.total))
            elif isinstance(kind, OrderedChain):
                chains.append((i, kind))
                if kind.strict:
                    keep_apart(kind.cells)
            elif isinstance(kind, Relation):
                relations.append((i, kind))
                if _never_equal(kind):
                    keep_apart((kind.a, kind.b))
            else:
                conditions.append((i, kind))
    return RuleTables(
        shape,
        tuple(items),
        tuple(sums),
        tuple(chains),
        tuple(relations),
        tuple(conditions),
        tuple(groups),
        tuple(unit_sums),
        tuple(sorted(apart)),
    )
