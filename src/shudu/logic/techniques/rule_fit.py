"""The ways a rule's cells can still be filled: the exact searches behind the rule techniques.

Each search tries the digits left to a rule's open cells (their candidates; a placed cell keeps
its digit), keeps two cells apart when they are peers (or the rule says they differ), and judges
a full assignment by the rule alone. A digit that no fitting assignment puts in a cell can go,
whatever the rest of the grid holds: that is every elimination of the rule techniques. The
searches are bounded (:data:`MAX_NODES`, :data:`MAX_TUPLES`); past the bound they give nothing,
so a technique finds no step there rather than a wrong one. Answers are remembered per rule and
per state of its cells (a path asks the same rules again after every step elsewhere).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...rules import WeightedSum, lookup
from ...solvers._conditions_py import make
from ..engine.grid import CandidateGrid, bits
from ..engine.rule_tables import RuleItem

__all__ = ["MAX_NODES", "MAX_TUPLES", "SumFit", "rule_fit", "sum_bounds", "sum_fit"]

#: The most search nodes one sum's search may take (beyond, :func:`sum_bounds` answers).
MAX_NODES = 3000
#: The most assignments (the product of the open cells' candidate counts) a sum's search starts on.
MAX_TRIES = 8000
#: The most full assignments of a rule's open cells the general search judges.
MAX_TUPLES = 4096
#: How many answers a geometry's rules remember before their memory is emptied.
_MEMO_MOST = 1 << 14


def _memo(grid: CandidateGrid) -> dict[object, object]:
    rules = grid.t.rules
    assert rules is not None
    if len(rules.memo) >= _MEMO_MOST:
        rules.memo.clear()
    return rules.memo


@dataclass(frozen=True)
class SumFit:
    """The assignments of a sum's open cells that reach its total."""

    #: The open cells, in the sum's order.
    cells: tuple[int, ...]
    #: Per open cell, the digits some fitting assignment puts there (a digit set).
    used: tuple[int, ...]
    #: The digits of the open cells of each fitting assignment, sorted (a multiset), each once.
    combos: tuple[tuple[int, ...], ...]


def _domains(
    grid: CandidateGrid, cells: Sequence[int], distinct: bool
) -> tuple[list[int], list[int], list[int]] | None:
    """(open cells, their domains, per open cell the open cells (by index) it must differ from);
    None when a cell is left without a digit."""
    parts = _open_domains(grid, cells, distinct)
    if parts is None:
        return None
    opens, doms = parts
    return opens, doms, _apart(grid, opens, distinct)


def _open_domains(
    grid: CandidateGrid, cells: Sequence[int], distinct: bool
) -> tuple[list[int], list[int]] | None:
    """(open cells, their domains: their candidates less the digits placed on the cells they
    must differ from); None when a cell is left without a digit."""
    values, peer_bits, cands = grid.values, grid.t.peer_bits, grid.cands
    opens = [c for c in dict.fromkeys(cells) if not values[c]]
    placed = [(other, 1 << (values[other] - 1)) for other in cells if values[other]]
    doms = []
    if distinct:
        gone = 0
        for _, bit in placed:
            gone |= bit
        for c in opens:
            mask = cands[c] & ~gone
            if not mask:
                return None
            doms.append(mask)
        return opens, doms
    for c in opens:
        mask, peers = cands[c], peer_bits[c]
        for other, bit in placed:
            if peers >> other & 1:
                mask &= ~bit
        if not mask:
            return None
        doms.append(mask)
    return opens, doms


def _apart(grid: CandidateGrid, opens: Sequence[int], distinct: bool) -> list[int]:
    """Per open cell the open cells (by index) it must differ from."""
    peer_bits = grid.t.peer_bits
    every = (1 << len(opens)) - 1
    apart = []
    for i, c in enumerate(opens):
        if distinct:
            apart.append(every & ~(1 << i))
            continue
        keep, peers = 0, peer_bits[c]
        for j, other in enumerate(opens):
            if j != i and peers >> other & 1:
                keep |= 1 << j
        apart.append(keep)
    return apart


def sum_fit(
    grid: CandidateGrid, cells: Sequence[int], coeffs: Sequence[int], total: int, *, distinct: bool
) -> SumFit | None:
    """The assignments of the open cells of ``sum(coeff * digit) == total`` (the digits all
    different when ``distinct``, and peers always), or None when there is no open cell, when the
    cells repeat, or past :data:`MAX_NODES`. A fit without combos: no assignment is left."""
    if len(set(cells)) != len(cells):
        return None
    values, cands = grid.values, grid.cands
    state = tuple(-values[c] if values[c] else cands[c] for c in cells)
    memo = _memo(grid)
    key = ("sum", tuple(cells), tuple(coeffs), total, distinct, state)
    if key in memo:
        return memo[key]  # type: ignore[return-value]
    found = _sum_fit(grid, cells, coeffs, total, distinct)
    memo[key] = found
    return found


def _sum_fit(
    grid: CandidateGrid, cells: Sequence[int], coeffs: Sequence[int], total: int, distinct: bool
) -> SumFit | None:
    values = grid.values
    rest = total
    weight = {}
    for c, w in zip(cells, coeffs, strict=True):
        if values[c]:
            rest -= w * values[c]
        else:
            weight[c] = w
    if not weight:
        return None
    parts = _domains(grid, cells, distinct)
    opens = [c for c in dict.fromkeys(cells) if not values[c]]
    if parts is None:
        return SumFit(tuple(opens), (0,) * len(opens), ())
    opens, doms, apart = parts
    n = len(opens)
    tries = 1
    for mask in doms:
        tries *= mask.bit_count()
    if tries > MAX_TRIES:
        return None
    ws = [weight[c] for c in opens]
    order = sorted(range(n), key=lambda i: doms[i].bit_count())
    # the least and greatest the cells after position k can add
    low = [0] * (n + 1)
    high = [0] * (n + 1)
    for k in range(n - 1, -1, -1):
        i = order[k]
        ds = [d + 1 for d in bits(doms[i])]
        a, b = ws[i] * ds[0], ws[i] * ds[-1]
        low[k] = low[k + 1] + min(a, b)
        high[k] = high[k + 1] + max(a, b)
    used = [0] * n
    combos: set[tuple[int, ...]] = set()
    chosen = [0] * n
    nodes = 0

    def walk(k: int, left: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > MAX_NODES:
            return False
        if k == n:
            if left == 0:
                for i in range(n):
                    used[i] |= 1 << (chosen[i] - 1)
                combos.add(tuple(sorted(chosen)))
            return True
        if not low[k] <= left <= high[k]:
            return True
        i = order[k]
        mask = doms[i]
        for j in bits(apart[i]):
            if chosen[j]:
                mask &= ~(1 << (chosen[j] - 1))
        for d in bits(mask):
            chosen[i] = d + 1
            if not walk(k + 1, left - ws[i] * (d + 1)):
                return False
        chosen[i] = 0
        return True

    if not walk(0, rest):
        return None
    return SumFit(tuple(opens), tuple(used), tuple(sorted(combos)))


def rule_fit(
    grid: CandidateGrid, index: int, item: RuleItem
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """(open cells, per open cell the digits some assignment that keeps the rule puts there) of
    one rule, judged by the rule's own check on its cells; None for a rule without cells, with
    no open cell, or with more than :data:`MAX_TUPLES` assignments to try."""
    rule = item.rule
    if not rule.cells:
        return None
    values, cands = grid.values, grid.cands
    state = tuple(-values[c] if values[c] else cands[c] for c in rule.cells)
    memo = _memo(grid)
    key = ("rule", index, state)
    if key in memo:
        return memo[key]  # type: ignore[return-value]
    found = _rule_fit(grid, item)
    memo[key] = found
    return found


def _rule_fit(grid: CandidateGrid, item: RuleItem) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    rule = item.rule
    values = grid.values
    parts = _open_domains(grid, rule.cells, False)
    opens = tuple(c for c in dict.fromkeys(rule.cells) if not values[c])
    if not opens:
        return None
    if parts is None:
        return opens, (0,) * len(opens)
    _, doms = parts
    count = 1
    for mask in doms:
        count *= mask.bit_count()
        if count > MAX_TUPLES:
            return None
    apart = _apart(grid, parts[0], False)
    check = lookup(rule.kind).check
    shape = grid.t.rules.shape if grid.t.rules is not None else None
    assert shape is not None
    scratch = list(values)
    n = len(opens)
    used = [0] * n
    chosen = [0] * n

    def walk(i: int) -> None:
        if i == n:
            for k, c in enumerate(opens):
                scratch[c] = chosen[k]
            if check(rule, scratch, shape):
                for k in range(n):
                    used[k] |= 1 << (chosen[k] - 1)
            return
        mask = doms[i]
        for j in bits(apart[i] & ((1 << i) - 1)):
            mask &= ~(1 << (chosen[j] - 1))
        for d in bits(mask):
            chosen[i] = d + 1
            walk(i + 1)
        chosen[i] = 0

    walk(0)
    return opens, tuple(used)


def sum_bounds(grid: CandidateGrid, kind: WeightedSum) -> list[tuple[int, int]] | None:
    """The candidates the constraint engine's propagator of a sum removes (it bounds the sum by
    the digits its cells can take, and a cage's by its combinations): the answer for a sum too
    big for :func:`sum_fit`. None when it finds the sum broken."""
    memo = _memo(grid)
    values, cands = grid.values, grid.cands
    state = tuple(-values[c] if values[c] else cands[c] for c in kind.cells)
    key = ("bounds", kind, state)
    if key in memo:
        return memo[key]  # type: ignore[return-value]
    rules = grid.t.rules
    assert rules is not None
    dom = {c: (1 << (values[c] - 1) if values[c] else cands[c]) for c in kind.cells}
    full = [0] * len(values)
    for c, d in dom.items():
        full[c] = d
    found: list[tuple[int, int]] | None = None
    prop = memo.get(("prop", kind))
    if prop is None:
        # without the houses' bounds, which cost more than the rest of a path's rule steps
        prop = memo[("prop", kind)] = make(kind, rules.shape)
    if prop.run(full) is not None:  # type: ignore[attr-defined]
        found = [(c, d + 1) for c in dom if not values[c] for d in bits(cands[c] & ~full[c])]
    memo[key] = found
    return found
