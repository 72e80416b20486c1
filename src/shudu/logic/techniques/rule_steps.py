"""Rule logic besides sums: restricted cells, pairs of cells (dots, X and V, whispers, greater-than
signs, the negative constraints), thermometers, and the general step that tries a rule's cells.

- **Restricted digits**: a cell of an odd, even or restricted-cells rule keeps only its digits;
- **Pair rule**: a relation between two cells (a kropki dot, an X, a whisper's gap …) leaves a
  candidate of one cell no partner in the other: it goes (this is the negative constraint too,
  where two neighbours without a dot may not be consecutive);
- **Thermometer**: digits rise along a thermometer, so each cell lies above the least digit the
  cells before it allow and below the greatest the cells after it allow (by one at each cell, or
  by nothing on a slow thermometer);
- **Rule contradiction**: the last of the rule steps, for any rule: a candidate with which no way
  of filling the rule's open cells (from their candidates) keeps the rule goes. It tries at most
  :data:`~shudu.logic.techniques.rule_fit.MAX_TUPLES` assignments, and beyond that the rule's own
  propagator (the constraint engine's, which removes only digits no assignment of the rule's
  cells can use).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...rules import LineCondition, OrderedChain, Relation, lookup
from ...solvers._conditions_py import make
from ...solvers._propagators_py import Prop
from ..engine.grid import CandidateGrid, bits, digits_of
from ..engine.step import Step, digit_list, make_step
from .rule_fit import rule_fit

#: How many answers a geometry's rules remember before their memory is emptied.
_MEMO_MOST = 1 << 14

__all__ = [
    "find_pair_rule",
    "find_restricted_digits",
    "find_rule_contradiction",
    "find_thermometer",
    "iter_pair_rule",
    "iter_restricted_digits",
    "iter_rule_contradiction",
    "iter_thermometer",
    "propagated",
    "supports",
]


def _domain(grid: CandidateGrid, cell: int) -> int:
    value = grid.values[cell]
    return 1 << (value - 1) if value else grid.cands[cell]


def iter_restricted_digits(grid: CandidateGrid) -> Iterator[Step]:
    rules = grid.t.rules
    if rules is None:
        return
    for index, kind in rules.conditions:
        if kind.name != "allowed":
            continue
        allowed = kind.params[0]
        elims = [(c, d + 1) for c in dict.fromkeys(kind.cells) for d in bits(grid.cands[c] & ~allowed)]
        if not elims:
            continue
        rtype = lookup(rules.items[index].rule.kind)
        cells = sorted({c for c, _ in elims})
        yield make_step(
            grid,
            "Restricted digits",
            f"{grid.names(cells)} {'is' if len(cells) == 1 else 'are'} on the {rtype.title} "
            f"({rtype.description}): only {digit_list(digits_of(allowed))}",
            eliminations=elims,
            cells=cells,
        )


def find_restricted_digits(grid: CandidateGrid) -> Step | None:
    return next(iter_restricted_digits(grid), None)


#: The form of the pair rule each rule type's steps take (others: the technique's own name).
PAIR_FORMS = {
    "white-dot": "Kropki pair",
    "black-dot": "Kropki pair",
    "x": "X/V pair",
    "v": "X/V pair",
    "whisper": "Whisper pair",
    "greater": "Greater-than pair",
    "anti-consecutive": "Negative constraint",
    "strict-kropki": "Negative constraint",
    "strict-xv": "Negative constraint",
}


#: The candidates a relation table leaves, by (table, digits of a, digits of b): the digits of
#: a, and of b, that have a partner across. Tables are shared (one per rule type and size).
_PAIR_MEMO: dict[tuple[tuple[int, ...], int, int], tuple[int, int]] = {}
_PAIR_MEMO_MOST = 1 << 16


def _partners(allowed: tuple[int, ...], dom_a: int, dom_b: int) -> tuple[int, int]:
    key = (allowed, dom_a, dom_b)
    found = _PAIR_MEMO.get(key)
    if found is None:
        keep_a = keep_b = 0
        for d in bits(dom_a):
            partners = allowed[d] & dom_b
            if partners:
                keep_a |= 1 << d
                keep_b |= partners
        if len(_PAIR_MEMO) >= _PAIR_MEMO_MOST:
            _PAIR_MEMO.clear()
        found = _PAIR_MEMO[key] = (keep_a, keep_b)
    return found


#: A relation table's support tables, by table: for each set of digits one cell may hold, the
#: digits the other cell may hold beside one of them (forward: a to b; back: b to a).
_SUPPORTS: dict[tuple[int, ...], tuple[list[int], list[int]]] = {}
#: The largest size whose support tables are built (2^size entries each).
_SUPPORTS_MOST_SIZE = 12


def supports(allowed: tuple[int, ...]) -> tuple[list[int], list[int]] | None:
    """The support tables of a relation table (see :data:`_SUPPORTS`); None for a table of more
    than :data:`_SUPPORTS_MOST_SIZE` digits."""
    found = _SUPPORTS.get(allowed)
    if found is None:
        size = len(allowed)
        if size > _SUPPORTS_MOST_SIZE:
            return None
        back_of = [sum(1 << d for d in range(size) if allowed[d] >> e & 1) for e in range(size)]
        fwd, back = [0] * (1 << size), [0] * (1 << size)
        for mask in range(1, 1 << size):
            low = (mask & -mask).bit_length() - 1
            rest = mask & (mask - 1)
            fwd[mask] = fwd[rest] | allowed[low]
            back[mask] = back[rest] | back_of[low]
        found = _SUPPORTS[allowed] = (fwd, back)
    return found


def pair_eliminations(grid: CandidateGrid, rel: Relation) -> list[tuple[int, int]]:
    """The candidates of a relation's two cells without a partner in the other cell."""
    a, b = rel.a, rel.b
    values, cands = grid.values, grid.cands
    dom_a = 1 << (values[a] - 1) if values[a] else cands[a]
    dom_b = 1 << (values[b] - 1) if values[b] else cands[b]
    keep_a, keep_b = _partners(rel.allowed, dom_a, dom_b)
    elims = []
    if not values[a] and dom_a & ~keep_a:
        elims += [(a, d + 1) for d in bits(dom_a & ~keep_a)]
    if not values[b] and dom_b & ~keep_b:
        elims += [(b, d + 1) for d in bits(dom_b & ~keep_b)]
    return elims


def iter_pair_rule(grid: CandidateGrid) -> Iterator[Step]:
    """Each relation's candidates without a partner in the other cell."""
    rules = grid.t.rules
    if rules is None:
        return
    for index, rel in rules.relations:
        if grid.values[rel.a] and grid.values[rel.b]:
            continue
        elims = pair_eliminations(grid, rel)
        if not elims:
            continue
        rule = rules.items[index].rule
        rtype = lookup(rule.kind)
        a, b = grid.name(rel.a), grid.name(rel.b)
        kept = [
            f"{grid.name(c)} {'is' if grid.values[c] else 'holds'} {digit_list(digits_of(_domain(grid, c)))}"
            for c in (rel.a, rel.b)
        ]
        yield make_step(
            grid,
            PAIR_FORMS.get(rule.kind, "Pair rule"),
            f"{a} and {b} are bound by the {rtype.title} ({rtype.description}); "
            f"{' and '.join(kept)}, and some of these have no partner across",
            eliminations=elims,
            cells=[rel.a, rel.b],
        )


def find_pair_rule(grid: CandidateGrid) -> Step | None:
    return next(iter_pair_rule(grid), None)


def chain_bounds(grid: CandidateGrid, chain: OrderedChain) -> tuple[list[int], list[int]] | None:
    """The least and greatest digit of each cell of a chain, from the cells before and after it."""
    cells, gap = chain.cells, int(chain.strict)
    low, high = [], []
    for c in cells:
        ds = digits_of(_domain(grid, c))
        if not ds:
            return None
        low.append(ds[0])
        high.append(ds[-1])
    for i in range(1, len(cells)):
        low[i] = max(low[i], low[i - 1] + gap)
    for i in range(len(cells) - 2, -1, -1):
        high[i] = min(high[i], high[i + 1] - gap)
    return low, high


def iter_thermometer(grid: CandidateGrid) -> Iterator[Step]:
    """Per thermometer, the digits below or above what its other cells allow."""
    rules = grid.t.rules
    if rules is None:
        return
    for index, chain in rules.chains:
        bounds = chain_bounds(grid, chain)
        if bounds is None:
            continue
        low, high = bounds
        elims = []
        said = []
        for c, lo, hi in zip(chain.cells, low, high, strict=True):
            if grid.values[c]:
                continue
            out = [d + 1 for d in bits(grid.cands[c]) if not lo <= d + 1 <= hi]
            if out:
                elims += [(c, d) for d in out]
                said.append(f"{grid.name(c)} {lo}-{hi}" if lo < hi else f"{grid.name(c)} {lo}")
        if not elims:
            continue
        words = rules.items[index].words
        rise = "rise" if chain.strict else "never fall"
        yield make_step(
            grid,
            "Thermometer" if chain.strict else "Slow thermometer",
            f"digits {rise} along the {words}, so by the cells before and after them: {', '.join(said)}",
            eliminations=elims,
            cells=chain.cells,
        )


def find_thermometer(grid: CandidateGrid) -> Step | None:
    return next(iter_thermometer(grid), None)


#: The conditions whose propagators read (and clear) cells off their line: their answers hang on
#: the whole grid.
_READS_NEAR = frozenset({"renban", "cover"})


def propagated(grid: CandidateGrid, index: int) -> list[tuple[int, int]] | None:
    """The eliminations of a rule's own propagators (the constraint engine's), run once each on
    the grid's domains; None when one finds the rule broken. Remembered per rule and state of the
    cells its propagators read (a path asks the same rules again after every step elsewhere)."""
    rules = grid.t.rules
    assert rules is not None
    memo = rules.memo
    props = memo.get(("props", index))
    if props is None:
        item = rules.items[index]
        houses = grid.geometry.house_cells
        kinds = [k for k in item.kinds if not (isinstance(k, LineCondition) and k.name == "rule")]
        cells: tuple[int, ...] = tuple(
            dict.fromkeys(cell for kind in kinds for cell in getattr(kind, "cells", ()))
        )
        near = any(isinstance(k, LineCondition) and k.name in _READS_NEAR for k in kinds)
        whole = near or not all(getattr(k, "cells", ()) for k in kinds)
        reads: tuple[int, ...] | None = None if whole else cells
        props = memo[("props", index)] = ([make(k, rules.shape, houses) for k in kinds], cells, reads)
    runs: list[Prop]
    runs, cells, reads = props  # type: ignore[misc]
    values, cands = grid.values, grid.cands
    if reads is None:
        state: tuple[int, ...] = (*values, *cands)
    else:
        state = tuple(-values[c] if values[c] else cands[c] for c in reads)
    key = ("propagated", index, state)
    if key in memo:
        return memo[key]  # type: ignore[return-value]
    dom = [_domain(grid, c) for c in range(len(values))]
    before = dom[:]
    found: list[tuple[int, int]] | None = None
    for prop in runs:
        if prop.run(dom) is None:
            break
    else:
        found = [(c, d + 1) for c in cells if not values[c] for d in bits(before[c] & ~dom[c])]
    if len(memo) >= _MEMO_MOST:
        memo.clear()
    memo[key] = found
    return found


def iter_rule_contradiction(grid: CandidateGrid) -> Iterator[Step]:
    """Per rule, the candidates with which no way of filling its open cells keeps it."""
    rules = grid.t.rules
    if rules is None:
        return
    for index, item in enumerate(rules.items):
        fit = rule_fit(grid, index, item)
        if fit is not None:
            cells, used = fit
            if not any(used):
                continue  # the rule is already broken here: nothing to teach
            elims = [(c, d + 1) for c, u in zip(cells, used, strict=True) for d in bits(grid.cands[c] & ~u)]
        else:
            elims = propagated(grid, index) or []
        if not elims:
            continue
        yield make_step(
            grid,
            "Rule contradiction",
            f"of the ways to fill the open cells of the {item.words} from their candidates, "
            "none that keeps the rule uses these candidates",
            eliminations=elims,
            cells=sorted({c for c, _ in elims}),
        )


def find_rule_contradiction(grid: CandidateGrid) -> Step | None:
    return next(iter_rule_contradiction(grid), None)
