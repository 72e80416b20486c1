"""Rule forcing chains: a candidate assumed true, followed through singles and the rule steps,
that breaks the grid or a rule is false.

The forcing chains and nets of :mod:`~shudu.logic.forcing` follow singles and the classic
patterns, which know a rule only where it keeps two cells apart (as peers). On a grid with
constraint rules this step follows the rules too: after each round of singles every rule
technique of :mod:`~shudu.logic.rule_steps` and :mod:`~shudu.logic.sum_steps` removes what it can
(each sum's combinations, each pair's partners, each thermometer's bounds, each small rule's
assignments), until nothing changes or something breaks: a cell without candidates, a digit
without a place in a house, a rule that no assignment of its cells keeps.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..notation import digit_char
from ..rules import LineCondition
from .budget import checkpoint
from .grid import CandidateGrid, bits
from .propagate import settle
from .rule_fit import rule_fit, sum_bounds, sum_fit
from .rule_steps import chain_bounds, pair_eliminations, propagated
from .step import Step, first_of_listing, make_step

__all__ = ["find_rule_forcing_chain", "iter_rule_forcing_chain", "rule_eliminations", "settle_rules"]

#: The most rounds (singles, then the rules) one assumption is followed.
MAX_ROUNDS = 60


class Broken(Exception):
    """The grid or a rule cannot hold any more."""


def rule_eliminations(grid: CandidateGrid) -> set[tuple[int, int]]:
    """Every candidate the rule techniques remove from ``grid`` at once; Broken when a rule has
    no assignment left."""
    rules = grid.t.rules
    assert rules is not None
    out: set[tuple[int, int]] = set()
    cands = grid.cands
    for _, cond in rules.conditions:
        if cond.name == "allowed":
            out.update((c, d + 1) for c in cond.cells for d in bits(cands[c] & ~cond.params[0]))
    for _, rel in rules.relations:
        if not (grid.values[rel.a] and grid.values[rel.b]):
            out.update(pair_eliminations(grid, rel))
    for _, chain in rules.chains:
        bounds = chain_bounds(grid, chain)
        if bounds is None:
            raise Broken
        for c, lo, hi in zip(chain.cells, *bounds, strict=True):
            if lo > hi:
                raise Broken
            out.update((c, d + 1) for d in bits(cands[c]) if not lo <= d + 1 <= hi)
    for _, kind in rules.sums:
        fit = sum_fit(grid, kind.cells, kind.coeffs, kind.total, distinct=kind.distinct)
        if fit is None:
            bounded = sum_bounds(grid, kind)
            if bounded is None:
                raise Broken
            out.update(bounded)
            continue
        if not fit.combos:
            raise Broken
        out.update(
            (c, d + 1) for c, used in zip(fit.cells, fit.used, strict=True) for d in bits(cands[c] & ~used)
        )
    for index, item in enumerate(rules.items):
        if not any(isinstance(k, LineCondition) and k.name != "allowed" for k in item.kinds):
            continue  # its kinds are all read above
        found = rule_fit(grid, index, item)
        if found is None:
            more = propagated(grid, index)
            if more is None:
                raise Broken
            out.update(more)
            continue
        cells, used = found
        if not all(used):
            raise Broken
        out.update((c, d + 1) for c, u in zip(cells, used, strict=True) for d in bits(cands[c] & ~u))
    return out


def settle_rules(grid: CandidateGrid) -> int | None:
    """Singles and the rule techniques applied to ``grid`` in place until nothing changes: how
    many rounds it took, or None when the grid or a rule broke."""
    rounds = 0
    try:
        while rounds < MAX_ROUNDS:
            if settle(grid).grid is None:
                return None
            rounds += 1
            elims = rule_eliminations(grid)
            if not elims:
                return rounds
            for cell, digit in elims:
                grid.eliminate(cell, digit)
            if any(not grid.cands[c] for c in bits(grid.empty)):
                return None
    except Broken:
        return None
    return rounds


@first_of_listing
def find_rule_forcing_chain(grid: CandidateGrid) -> Step | None:
    return next(iter_rule_forcing_chain(grid), None)


def iter_rule_forcing_chain(grid: CandidateGrid) -> Iterator[Step]:
    """Each candidate whose assumption, followed through singles and the rules, breaks the grid
    (cells with fewer candidates first)."""
    if grid.t.rules is None:
        return
    for cell in sorted(bits(grid.empty), key=lambda c: (grid.cands[c].bit_count(), c)):
        for d in bits(grid.cands[cell]):
            checkpoint()
            trial = grid.copy()
            trial.place(cell, d + 1)
            if settle_rules(trial) is not None:
                continue
            yield make_step(
                grid,
                "Rule Forcing Chain",
                f"assuming {grid.name(cell)} = {digit_char(d + 1)}, the singles and the rule "
                "steps that follow break the grid",
                eliminations=[(cell, d + 1)],
                cells=[cell],
                digits=[d + 1],
            )
