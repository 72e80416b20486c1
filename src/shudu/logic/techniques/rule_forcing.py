"""Rule forcing chains: a candidate assumed true, followed through singles and the rule steps,
that breaks the grid or a rule is false.

The forcing chains and nets of :mod:`~shudu.logic.techniques.forcing` follow singles and the classic
patterns, which know a rule only where it keeps two cells apart (as peers). On a grid with
constraint rules this step follows the rules too: after each round of singles every rule
technique of :mod:`~shudu.logic.techniques.rule_steps` and
:mod:`~shudu.logic.techniques.sum_steps` removes what it can
(each sum's combinations, each pair's partners, each thermometer's bounds, each small rule's
assignments), until nothing changes or something breaks: a cell without candidates, a digit
without a place in a house, a rule that no assignment of its cells keeps.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ...notation import digit_char
from ...rules import LineCondition
from ..engine.budget import checkpoint
from ..engine.grid import CandidateGrid, bits
from ..engine.propagate import settle
from ..engine.rule_tables import RuleItem
from ..engine.step import Step, make_step
from .rule_fit import rule_fit, sum_bounds, sum_fit
from .rule_steps import chain_bounds, pair_eliminations, propagated

__all__ = [
    "find_rule_forcing_chain",
    "find_short_rule_forcing_chain",
    "follow",
    "iter_rule_forcing_chain",
    "iter_short_rule_forcing_chain",
    "rule_eliminations",
    "settle_rules",
]

#: The most rounds (singles, then the rules) one assumption is followed.
MAX_ROUNDS = 60


class Broken(Exception):
    """The grid or a rule cannot hold any more."""


@dataclass(frozen=True)
class _Watch:
    """Per cell, the rules' parts that read it (by their index in the rule tables' lists)."""

    conditions: tuple[tuple[int, ...], ...]
    relations: tuple[tuple[int, ...], ...]
    chains: tuple[tuple[int, ...], ...]
    sums: tuple[tuple[int, ...], ...]
    items: tuple[tuple[int, ...], ...]
    #: The rules searched whole (:func:`_searched`), and those of them on the whole grid.
    searched: frozenset[int]
    whole: tuple[int, ...]


def _watch(grid: CandidateGrid) -> _Watch:
    rules = grid.t.rules
    assert rules is not None
    found = rules.memo.get("watch")
    if isinstance(found, _Watch):
        return found
    n = len(grid.values)

    def index(parts: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
        per: list[list[int]] = [[] for _ in range(n)]
        for i, cells in enumerate(parts):
            for c in set(cells):
                per[c].append(i)
        return tuple(tuple(p) for p in per)

    watch = _Watch(
        index([cond.cells for _, cond in rules.conditions]),
        index([(rel.a, rel.b) for _, rel in rules.relations]),
        index([chain.cells for _, chain in rules.chains]),
        index([kind.cells for _, kind in rules.sums]),
        index([tuple(item.rule.cells) if _searched(item) else () for item in rules.items]),
        frozenset(i for i, item in enumerate(rules.items) if _searched(item)),
        tuple(i for i, item in enumerate(rules.items) if _searched(item) and not item.rule.cells),
    )
    rules.memo["watch"] = watch
    return watch


def _searched(item: RuleItem) -> bool:
    """Whether a rule has a part the kinds read below leave out (a condition on a line)."""
    return any(isinstance(k, LineCondition) and k.name != "allowed" for k in item.kinds) or (
        not item.rule.cells and any(isinstance(k, LineCondition) for k in item.kinds)
    )


def _touched(per_cell: tuple[tuple[int, ...], ...], cells: Iterable[int] | None, count: int) -> Iterable[int]:
    if cells is None:
        return range(count)
    out: set[int] = set()
    for c in cells:
        out.update(per_cell[c])
    return sorted(out)


def rule_eliminations(grid: CandidateGrid, cells: Iterable[int] | None = None) -> set[tuple[int, int]]:
    """Every candidate the rule techniques remove from ``grid`` at once, from the rules that read
    ``cells`` (None: every rule); Broken when a rule has no assignment left."""
    rules = grid.t.rules
    assert rules is not None
    if cells is not None:
        cells = list(cells)
    watch = _watch(grid)
    out: set[tuple[int, int]] = set()
    cands, values = grid.cands, grid.values
    for i in _touched(watch.conditions, cells, len(rules.conditions)):
        cond = rules.conditions[i][1]
        if cond.name == "allowed":
            out.update((c, d + 1) for c in cond.cells for d in bits(cands[c] & ~cond.params[0]))
    for i in _touched(watch.relations, cells, len(rules.relations)):
        rel = rules.relations[i][1]
        if not (values[rel.a] and values[rel.b]):
            out.update(pair_eliminations(grid, rel))
    for i in _touched(watch.chains, cells, len(rules.chains)):
        index, chain = rules.chains[i]
        bounds = chain_bounds(grid, chain)
        if bounds is None:
            raise Broken(rules.items[index].words)
        for c, lo, hi in zip(chain.cells, *bounds, strict=True):
            if lo > hi:
                raise Broken(rules.items[index].words)
            out.update((c, d + 1) for d in bits(cands[c]) if not lo <= d + 1 <= hi)
    for i in _touched(watch.sums, cells, len(rules.sums)):
        index, kind = rules.sums[i]
        fit = sum_fit(grid, kind.cells, kind.coeffs, kind.total, distinct=kind.distinct)
        if fit is None:
            bounded = sum_bounds(grid, kind)
            if bounded is None:
                raise Broken(rules.items[index].words)
            out.update(bounded)
            continue
        if not fit.combos:
            raise Broken(rules.items[index].words)
        for c, used in zip(fit.cells, fit.used, strict=True):
            out.update((c, d + 1) for d in bits(cands[c] & ~used))
    if cells is None:
        touched_items: Iterable[int] = sorted(watch.searched)
    else:  # the rules on the whole grid read every cell
        touched_items = sorted({*_touched(watch.items, cells, 0), *watch.whole})
    for index in touched_items:
        item = rules.items[index]
        found = rule_fit(grid, index, item)
        if found is None:
            more = propagated(grid, index)
            if more is None:
                raise Broken(item.words)
            out.update(more)
            continue
        opens, taken = found
        if not all(taken):
            raise Broken(item.words)
        out.update((c, d + 1) for c, u in zip(opens, taken, strict=True) for d in bits(cands[c] & ~u))
    return out


def follow(
    grid: CandidateGrid, since: CandidateGrid | None = None, most: int = MAX_ROUNDS
) -> tuple[int, str | None]:
    """Singles and the rule techniques applied to ``grid`` in place until nothing changes (at
    most ``most`` rounds): (the rounds it took, None), or (the rounds, what broke) when the
    grid or a rule broke. ``since``, a grid ``grid`` was made from whose rules had nothing to
    remove, lets the first round look only at the rules of the cells that changed since."""
    rounds = 0
    n = len(grid.cands)
    ref = since.cands[:] if since is not None else None
    try:
        while rounds < most:
            if settle(grid).grid is None:
                return rounds, "a cell or a house is left without a digit"
            rounds += 1
            now = grid.cands
            changed = None if ref is None else [c for c in range(n) if now[c] != ref[c]]
            ref = now[:]
            elims = rule_eliminations(grid, changed)
            if not elims:
                return rounds, None
            for cell, digit in elims:
                grid.eliminate(cell, digit)
            emptied = [c for c, _ in elims if not grid.cands[c] and not grid.values[c]]
            if emptied:
                return rounds, f"{grid.name(emptied[0])} is left without a candidate"
    except Broken as exc:
        return rounds, f"the {exc.args[0]} can no longer be kept" if exc.args else "a rule breaks"
    return rounds, None


def settle_rules(grid: CandidateGrid, since: CandidateGrid | None = None) -> int | None:
    """:func:`follow`: the rounds it took, or None when the grid or a rule broke."""
    rounds, broke = follow(grid, since)
    return None if broke else rounds


#: The rounds a short rule forcing chain follows: its singles, one pass of the rules, and the
#: singles after them.
SHORT = 2
SHORT_FORM = "Rule Forcing Chain (short)"


def find_rule_forcing_chain(grid: CandidateGrid) -> Step | None:
    return next(iter_rule_forcing_chain(grid), None)


def iter_rule_forcing_chain(grid: CandidateGrid) -> Iterator[Step]:
    """Each candidate whose assumption, followed through singles and the rules, breaks the grid
    (cells with fewer candidates first)."""
    return _forcing(grid, MAX_ROUNDS, "Rule Forcing Chain")


def find_short_rule_forcing_chain(grid: CandidateGrid) -> Step | None:
    return next(iter_short_rule_forcing_chain(grid), None)


def iter_short_rule_forcing_chain(grid: CandidateGrid) -> Iterator[Step]:
    """The rule forcing chains that break the grid within :data:`SHORT` rounds: the path looks
    for them first, which costs a round or two a candidate instead of a whole propagation."""
    return _forcing(grid, SHORT, SHORT_FORM)


def _forcing(grid: CandidateGrid, most: int, name: str) -> Iterator[Step]:
    if grid.t.rules is None:
        return
    # the rules of the cells an assumption leaves alone have nothing to say, once the grid's
    # own rules have had their say
    try:
        quiet = grid if not rule_eliminations(grid) else None
    except Broken:
        return  # a rule is broken already: there is nothing to assume
    for cell in sorted(bits(grid.empty), key=lambda c: (grid.cands[c].bit_count(), c)):
        for d in bits(grid.cands[cell]):
            checkpoint()
            trial = grid.copy()
            trial.place(cell, d + 1)
            rounds, broke = follow(trial, quiet, most)
            if broke is None:
                continue
            yield make_step(
                grid,
                name,
                f"assuming {grid.name(cell)} = {digit_char(d + 1)}, after {rounds or 1} round"
                f"{'s' if rounds > 1 else ''} of singles and rule steps {broke}",
                eliminations=[(cell, d + 1)],
                cells=[cell],
                digits=[d + 1],
                length=rounds,
            )
