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
from .netrules import NET_RULES
from .rule_fit import rule_fit, sum_bounds, sum_fit
from .rule_steps import chain_bounds, pair_eliminations, propagated, supports

__all__ = [
    "find_rule_forcing_chain",
    "find_rule_forcing_net",
    "find_rule_net_verity",
    "find_rule_verity",
    "find_short_rule_forcing_chain",
    "follow",
    "iter_rule_forcing_chain",
    "iter_rule_forcing_net",
    "iter_rule_net_verity",
    "iter_rule_verity",
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
    """Per part of the rules (by its index in the rule tables' lists), the cells it reads, as a
    cell mask: a part none of whose cells changed has nothing new to say."""

    conditions: tuple[int, ...]
    relations: tuple[int, ...]
    chains: tuple[int, ...]
    sums: tuple[int, ...]
    #: The rules searched whole (:func:`_searched`; the others read no cell here), and those of
    #: them on the whole grid.
    items: tuple[int, ...]
    searched: tuple[int, ...]
    whole: tuple[int, ...]
    #: Per relation, its cells and its support tables (None past their size).
    pairs: tuple[tuple[int, int, tuple[list[int], list[int]] | None], ...]


def _watch(grid: CandidateGrid) -> _Watch:
    rules = grid.t.rules
    assert rules is not None
    found = rules.memo.get("watch")
    if isinstance(found, _Watch):
        return found

    def masks(parts: Iterable[Iterable[int]]) -> tuple[int, ...]:
        return tuple(sum(1 << c for c in set(cells)) for cells in parts)

    watch = _Watch(
        masks(cond.cells for _, cond in rules.conditions),
        masks((rel.a, rel.b) for _, rel in rules.relations),
        masks(chain.cells for _, chain in rules.chains),
        masks(kind.cells for _, kind in rules.sums),
        masks(item.rule.cells if _searched(item) else () for item in rules.items),
        tuple(i for i, item in enumerate(rules.items) if _searched(item)),
        tuple(i for i, item in enumerate(rules.items) if _searched(item) and not item.rule.cells),
        tuple((rel.a, rel.b, supports(rel.allowed)) for _, rel in rules.relations),
    )
    rules.memo["watch"] = watch
    return watch


def _searched(item: RuleItem) -> bool:
    """Whether a rule has a part the kinds read below leave out (a condition on a line)."""
    return any(isinstance(k, LineCondition) and k.name != "allowed" for k in item.kinds) or (
        not item.rule.cells and any(isinstance(k, LineCondition) for k in item.kinds)
    )


def _touched(masks: tuple[int, ...], changed: int | None) -> Iterable[int]:
    if changed is None:
        return range(len(masks))
    return [i for i, mask in enumerate(masks) if mask & changed]


def rule_eliminations(grid: CandidateGrid, cells: Iterable[int] | None = None) -> set[tuple[int, int]]:
    """Every candidate the rule techniques remove from ``grid`` at once, from the rules that read
    ``cells`` (None: every rule); Broken when a rule has no assignment left."""
    rules = grid.t.rules
    assert rules is not None
    changed = None if cells is None else sum(1 << c for c in set(cells))
    watch = _watch(grid)
    out: set[tuple[int, int]] = set()
    cands, values = grid.cands, grid.values
    for i in _touched(watch.conditions, changed):
        cond = rules.conditions[i][1]
        if cond.name == "allowed":
            out.update((c, d + 1) for c in cond.cells for d in bits(cands[c] & ~cond.params[0]))
    pairs = watch.pairs
    for i in _touched(watch.relations, changed):
        a, b, tables = pairs[i]
        va, vb = values[a], values[b]
        if va and vb:
            continue
        if tables is None:
            out.update(pair_eliminations(grid, rules.relations[i][1]))
            continue
        dom_a = 1 << (va - 1) if va else cands[a]
        dom_b = 1 << (vb - 1) if vb else cands[b]
        if not va and dom_a & ~tables[1][dom_b]:
            out.update((a, d + 1) for d in bits(dom_a & ~tables[1][dom_b]))
        if not vb and dom_b & ~tables[0][dom_a]:
            out.update((b, d + 1) for d in bits(dom_b & ~tables[0][dom_a]))
    for i in _touched(watch.chains, changed):
        index, chain = rules.chains[i]
        bounds = chain_bounds(grid, chain)
        if bounds is None:
            raise Broken(rules.items[index].words)
        for c, lo, hi in zip(chain.cells, *bounds, strict=True):
            if lo > hi:
                raise Broken(rules.items[index].words)
            out.update((c, d + 1) for d in bits(cands[c]) if not lo <= d + 1 <= hi)
    for i in _touched(watch.sums, changed):
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
    if changed is None:
        touched_items: Iterable[int] = watch.searched
    else:  # the rules on the whole grid read every cell
        touched_items = sorted({*_touched(watch.items, changed), *watch.whole})
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


class Trial:
    """An assumption being followed (:func:`follow`): the grid, the candidates the rules last
    looked at, the rounds taken and what broke. :meth:`advance` goes on where it stopped, so
    following a trial for ``a`` rounds and then up to ``b`` is following it for ``b``."""

    __slots__ = ("broke", "done", "grid", "net", "ref", "rounds")

    def __init__(self, grid: CandidateGrid, since: CandidateGrid | None = None, *, net: bool = False) -> None:
        self.grid = grid
        #: A net's rounds follow pointing, claiming and pairs too (:data:`netrules.NET_RULES`).
        self.net = net
        self.ref = since.cands[:] if since is not None else None
        self.rounds = 0
        self.broke: str | None = None
        self.done = False

    def _stop(self, broke: str | None) -> None:
        self.broke, self.done = broke, True

    def advance(self, most: int) -> None:
        """Singles and the rule techniques, round after round, until nothing changes, something
        breaks or ``most`` rounds are taken in all."""
        grid = self.grid
        n = len(grid.cands)
        try:
            while not self.done and self.rounds < most:
                if settle(grid, NET_RULES if self.net else ()).grid is None:
                    return self._stop("a cell or a house is left without a digit")
                self.rounds += 1
                now = grid.cands
                ref = self.ref
                changed = None if ref is None else [c for c in range(n) if now[c] != ref[c]]
                self.ref = now[:]
                elims = rule_eliminations(grid, changed)
                if not elims:
                    return self._stop(None)
                for cell, digit in elims:
                    grid.eliminate(cell, digit)
                emptied = [c for c, _ in elims if not grid.cands[c] and not grid.values[c]]
                if emptied:
                    return self._stop(f"{grid.name(emptied[0])} is left without a candidate")
        except Broken as exc:
            self._stop(f"the {exc.args[0]} can no longer be kept" if exc.args else "a rule breaks")
        return None


def follow(
    grid: CandidateGrid, since: CandidateGrid | None = None, most: int = MAX_ROUNDS
) -> tuple[int, str | None]:
    """Singles and the rule techniques applied to ``grid`` in place until nothing changes (at
    most ``most`` rounds): (the rounds it took, None), or (the rounds, what broke) when the
    grid or a rule broke. ``since``, a grid ``grid`` was made from whose rules had nothing to
    remove, lets the first round look only at the rules of the cells that changed since."""
    trial = Trial(grid, since)
    trial.advance(most)
    return trial.rounds, trial.broke


def settle_rules(grid: CandidateGrid, since: CandidateGrid | None = None) -> int | None:
    """:func:`follow`: the rounds it took, or None when the grid or a rule broke."""
    rounds, broke = follow(grid, since)
    return None if broke else rounds


#: The rounds a short rule forcing chain follows: its singles, one pass of the rules, and the
#: singles after them.
SHORT = 2
SHORT_FORM = "Rule Forcing Chain (short)"
NET_NAME = "Rule Forcing Net"


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


def _kept_trials(grid: CandidateGrid, *, net: bool) -> dict[tuple[int, int], Trial]:
    """The trials on this grid so far, by (cell, digit - 1): a longer search, or the verities,
    go on where a shorter search left them."""
    rules = grid.t.rules
    assert rules is not None
    state = (*grid.values, *grid.cands)
    key = "net trials" if net else "trials"
    kept = rules.memo.get(key)
    if not (isinstance(kept, tuple) and kept[0] == state):
        kept = rules.memo[key] = (state, {})
    return kept[1]  # type: ignore[no-any-return]


def _trial(
    grid: CandidateGrid,
    trials: dict[tuple[int, int], Trial],
    quiet: CandidateGrid | None,
    cell: int,
    d: int,
    most: int,
    *,
    net: bool,
) -> Trial:
    """The trial of ``cell`` = ``d + 1`` on ``grid``, followed for ``most`` rounds in all."""
    trial = trials.get((cell, d))
    if trial is None:
        trial = trials[cell, d] = Trial(grid.copy(), quiet, net=net)
        trial.grid.place(cell, d + 1)
    trial.advance(most)
    return trial


def find_rule_forcing_net(grid: CandidateGrid) -> Step | None:
    return next(iter_rule_forcing_net(grid), None)


def iter_rule_forcing_net(grid: CandidateGrid) -> Iterator[Step]:
    """Each candidate whose assumption, followed through singles, pointing, claiming, naked and
    hidden pairs and the rules, breaks the grid: the rule forcing chain as a forcing net."""
    return _forcing(grid, MAX_ROUNDS, NET_NAME, net=True)


def _start(
    grid: CandidateGrid, *, net: bool
) -> tuple[CandidateGrid | None, dict[tuple[int, int], Trial]] | None:
    """What the assumptions on a grid start from: the grid itself when its own rules remove
    nothing (the rules of the cells an assumption leaves alone then have nothing to say), and the
    trials kept on it; None on a grid without rules, or with a rule broken already (there is
    nothing to assume)."""
    if grid.t.rules is None:
        return None
    try:
        quiet = grid if not rule_eliminations(grid) else None
    except Broken:
        return None
    return quiet, _kept_trials(grid, net=net)


def _forcing(grid: CandidateGrid, most: int, name: str, *, net: bool = False) -> Iterator[Step]:
    start = _start(grid, net=net)
    if start is None:
        return
    quiet, trials = start
    for cell in sorted(bits(grid.empty), key=lambda c: (grid.cands[c].bit_count(), c)):
        for d in bits(grid.cands[cell]):
            checkpoint()
            trial = _trial(grid, trials, quiet, cell, d, most, net=net)
            rounds, broke = trial.rounds, trial.broke
            if broke is None:
                continue
            yield make_step(
                grid,
                name,
                f"assuming {grid.name(cell)} = {digit_char(d + 1)}, after {rounds or 1} round"
                f"{'s' if rounds > 1 else ''} of singles{', basic patterns' if net else ''} and rule steps "
                f"{broke}",
                eliminations=[(cell, d + 1)],
                cells=[cell],
                digits=[d + 1],
                length=rounds,
            )


CELL_FORM = "Rule Forcing Chain (cell)"
HOUSE_FORM = "Rule Forcing Chain (house)"
NET_CELL_FORM = "Rule Forcing Net (cell)"
NET_HOUSE_FORM = "Rule Forcing Net (house)"


def find_rule_verity(grid: CandidateGrid) -> Step | None:
    return next(iter_rule_verity(grid), None)


def find_rule_net_verity(grid: CandidateGrid) -> Step | None:
    return next(iter_rule_net_verity(grid), None)


def iter_rule_verity(grid: CandidateGrid) -> Iterator[Step]:
    """Cell and house verities of the rule forcing chain: every candidate of a cell (every place
    of a digit in a house) followed through singles and the rules, as :func:`follow` does; what
    all the branches that do not break agree on holds, since one of them is true. Cells with
    fewer candidates first, then the houses in order."""
    return _verities(grid, net=False)


def iter_rule_net_verity(grid: CandidateGrid) -> Iterator[Step]:
    """The verities of the rule forcing net: as :func:`iter_rule_verity`, each branch following
    pointing, claiming and pairs too."""
    return _verities(grid, net=True)


def _verities(grid: CandidateGrid, *, net: bool) -> Iterator[Step]:
    start = _start(grid, net=net)
    if start is None:
        return
    quiet, trials = start
    cell_form, house_form = (NET_CELL_FORM, NET_HOUSE_FORM) if net else (CELL_FORM, HOUSE_FORM)
    house_bits = grid.t.house_bits
    houses = grid.geometry.houses

    def branches(options: list[tuple[int, int]]) -> list[Trial]:
        out = []
        for cell, d in options:
            checkpoint()
            trial = _trial(grid, trials, quiet, cell, d, MAX_ROUNDS, net=net)
            if trial.broke is None:
                out.append(trial)
        return out

    for cell in sorted(bits(grid.empty), key=lambda c: (grid.cands[c].bit_count(), c)):
        if grid.cands[cell].bit_count() < 2:
            continue
        options = [(cell, d) for d in bits(grid.cands[cell])]
        step = _verity(grid, branches(options), cell_form, f"whichever digit {grid.name(cell)} holds", net)
        if step is not None:
            yield step
    for h, hbits in enumerate(house_bits):
        for d in range(grid.size):
            spots = grid.where[d] & hbits
            if grid.placed[h] >> d & 1 or spots.bit_count() < 2:
                continue
            options = [(cell, d) for cell in bits(spots)]
            words = f"wherever {digit_char(d + 1)} goes in {houses[h].name}"
            step = _verity(grid, branches(options), house_form, words, net)
            if step is not None:
                yield step


def _verity(grid: CandidateGrid, live: list[Trial], name: str, words: str, net: bool) -> Step | None:
    """The step of what every live branch agrees on (None: nothing new, or no branch left)."""
    if not live:
        return None  # every branch breaks: the grid is broken, which the chains say
    placements, eliminations = [], []
    for cell in bits(grid.empty):
        first = live[0].grid.values[cell]
        if first and all(t.grid.values[cell] == first for t in live[1:]):
            placements.append((cell, first))
            continue
        for d in bits(grid.cands[cell]):
            # a branch keeps the digit where it placed it there, or left it a candidate
            if not any(t.grid.values[cell] == d + 1 or t.grid.cands[cell] >> d & 1 for t in live):
                eliminations.append((cell, d + 1))
    if not placements and not eliminations:
        return None
    rounds = max(t.rounds for t in live)
    return make_step(
        grid,
        name,
        f"{words}, singles{', basic patterns' if net else ''} and rule steps (at most {rounds} "
        f"round{'s' if rounds > 1 else ''}) lead "
        "to the same outcome",
        placements=placements,
        eliminations=eliminations,
        cells=sorted({c for c, _ in placements + eliminations}),
        length=rounds,
    )
