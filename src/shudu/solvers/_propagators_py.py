"""The constraint engine's propagators, in pure Python: the specification of each kind.

Domains are bit masks, one a cell (bit k for digit k + 1). A propagator reads and narrows the
domains of its cells: ``run(dom)`` returns the cells it changed, or None when its constraint can
no longer hold. Each is sound (it removes only digits no solution of its own constraint can use)
and exact on a full assignment (it fails a grid that breaks the constraint), so a search that
propagates them to a fixed point and branches finds exactly the solutions.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence

from ..rules import LineCondition, OrderedChain, Relation, Shape, WeightedSum, lookup
from ..rules._util import combinations

__all__ = [
    "AllDifferentProp",
    "ChainProp",
    "ConditionProp",
    "IntersectionProp",
    "Prop",
    "RelationProp",
    "SumProp",
    "house_groups",
]

Changed = list[int] | None

#: The most digit combinations a cage's propagator lists (beyond, it uses the sums alone).
MAX_COMBINATIONS = 5000
#: The most assignments the generic propagator tries on a rule's cells in one run.
MAX_TUPLES = 4096


def bits(mask: int) -> list[int]:
    """The single-bit masks of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _commit(dom: list[int], cells: Sequence[int], new: Sequence[int]) -> Changed:
    """Narrow each cell to ``new``: the changed cells, or None if one is left empty."""
    changed = []
    for c, d in zip(cells, new, strict=True):
        nd = dom[c] & d
        if not nd:
            return None
        if nd != dom[c]:
            dom[c] = nd
            changed.append(c)
    return changed


class Prop:
    cells: tuple[int, ...]

    def run(self, dom: list[int]) -> Changed:
        raise NotImplementedError


class AllDifferentProp(Prop):
    """Naked singles leave the others; in a house of n cells, a digit with one place goes there."""

    def __init__(self, cells: Sequence[int], size: int) -> None:
        self.cells = tuple(cells)
        self.house = len(cells) == size

    def run(self, dom: list[int]) -> Changed:
        cells, changed = self.cells, []
        fixed = 0
        for c in cells:
            d = dom[c]
            if not d & (d - 1):
                if fixed & d:
                    return None
                fixed |= d
        newly = fixed
        while newly:
            newly = 0
            for c in cells:
                d = dom[c]
                if d & (d - 1) and d & fixed:
                    d &= ~fixed
                    if not d or (not d & (d - 1) and newly & d):
                        return None
                    dom[c] = d
                    changed.append(c)
                    if not d & (d - 1):
                        newly |= d
            fixed |= newly
        once = twice = 0
        for c in cells:
            d = dom[c]
            twice |= once & d
            once |= d
        if once.bit_count() < len(cells):
            return None
        if self.house:
            only = once & ~twice & ~fixed
            for c in cells if only else ():
                hit = dom[c] & only
                if hit and hit != dom[c]:
                    if hit & (hit - 1):
                        return None
                    dom[c] = hit
                    changed.append(c)
        return changed


class IntersectionProp(Prop):
    """Two houses that share two or more cells: a digit that one house can place only in the
    shared cells leaves the other house's remaining cells (locked candidates)."""

    def __init__(self, first: Sequence[int], second: Sequence[int]) -> None:
        shared = set(first) & set(second)
        self.shared = tuple(sorted(shared))
        self.first_rest = tuple(c for c in first if c not in shared)
        self.second_rest = tuple(c for c in second if c not in shared)
        self.cells = self.shared + self.first_rest + self.second_rest

    def run(self, dom: list[int]) -> Changed:
        inside = first = second = 0
        for c in self.shared:
            inside |= dom[c]
        for c in self.first_rest:
            first |= dom[c]
        for c in self.second_rest:
            second |= dom[c]
        changed: list[int] = []
        for rest, locked in ((self.second_rest, inside & ~first), (self.first_rest, inside & ~second)):
            if locked:
                for c in rest:
                    if dom[c] & locked:
                        dom[c] &= ~locked
                        if not dom[c]:
                            return None
                        changed.append(c)
        return changed


@functools.lru_cache(maxsize=256)
def _reverse(allowed: tuple[int, ...], size: int) -> tuple[int, ...]:
    """A relation's table read the other way: for each digit of the second cell, the digits
    of the first that allow it (relations of a puzzle share a few tables)."""
    return tuple(sum(1 << i for i in range(size) if allowed[i] >> j & 1) for j in range(size))


class RelationProp(Prop):
    def __init__(self, kind: Relation, size: int) -> None:
        self.cells = (kind.a, kind.b)
        self.a, self.b = kind.a, kind.b
        self.fwd = kind.allowed
        self.rev = _reverse(kind.allowed, size)

    def run(self, dom: list[int]) -> Changed:
        da, db = dom[self.a], dom[self.b]
        support = 0
        for low in bits(da):
            support |= self.fwd[low.bit_length() - 1]
        ndb = db & support
        support = 0
        for low in bits(ndb):
            support |= self.rev[low.bit_length() - 1]
        return _commit(dom, self.cells, (support, ndb))


def sum_filter(doms: Sequence[int], coeffs: Sequence[int], total: int, size: int) -> list[int] | None:
    """The digits of each cell that take part in some assignment with ``sum(coeff * digit) ==
    total`` (cells may repeat digits), or None when there is none. Sets of partial sums are bit
    masks, shifted by an offset that keeps them non-negative."""
    offset = sum(abs(c) for c in coeffs) * size
    forward = [1 << offset]
    for d, c in zip(doms, coeffs, strict=True):
        f, acc = forward[-1], 0
        for low in bits(d):
            s = c * low.bit_length()
            acc |= f << s if s >= 0 else f >> -s
        forward.append(acc)
    target = offset + total
    if target < 0 or not forward[-1] >> target & 1:
        return None
    reach = 1 << target
    new = [0] * len(doms)
    for i in range(len(doms) - 1, -1, -1):
        f, c, back, kept = forward[i], coeffs[i], 0, 0
        for low in bits(doms[i]):
            s = c * low.bit_length()
            if (f << s if s >= 0 else f >> -s) & reach:
                kept |= low
                back |= reach >> s if s >= 0 else reach << -s
        new[i], reach = kept, back
    return new


@functools.lru_cache(maxsize=16)
def _house_index(
    houses: tuple[tuple[int, ...], ...],
) -> tuple[list[frozenset[int]], dict[int, list[int]]]:
    """Each house as a set, and the houses of each cell (in order)."""
    houses_of: dict[int, list[int]] = {}
    for h, house in enumerate(houses):
        for cell in house:
            houses_of.setdefault(cell, []).append(h)
    return [frozenset(house) for house in houses], houses_of


def house_groups(
    cells: Sequence[int], coeffs: Sequence[int], houses: Sequence[Sequence[int]]
) -> tuple[int, ...] | None:
    """The places of a sum split into groups whose cells must differ: each group the cells of
    one house with one coefficient (the house with the most cells still ungrouped first, the
    first such house and coefficient on a tie), the rest alone. Each place's group number (in
    order of first place), or None when no group has two cells."""
    once = {c for c in cells if cells.count(c) == 1}
    left = [i for i, c in enumerate(cells) if c in once]
    sets, houses_of = _house_index(tuple(map(tuple, houses)))
    # Only a house with two of the places can give a group (the places left only shrink).
    count: dict[int, int] = {}
    for i in left:
        for h in houses_of.get(cells[i], ()):
            count[h] = count.get(h, 0) + 1
    candidates = sorted(h for h, k in count.items() if k >= 2)
    chosen: list[list[int]] = []
    while True:
        best: list[int] = []
        for h in candidates:
            inside = sets[h]
            for coeff in dict.fromkeys(coeffs[i] for i in left if cells[i] in inside):
                group = [i for i in left if cells[i] in inside and coeffs[i] == coeff]
                if len(group) > len(best):
                    best = group
        if len(best) < 2:
            break
        chosen.append(best)
        taken = set(best)
        left = [i for i in left if i not in taken]
    if not chosen:
        return None
    key = [-1] * len(cells)
    for group in chosen:
        for i in group:
            key[i] = group[0]
    number: dict[int, int] = {}
    return tuple(number.setdefault(i if k < 0 else k, len(number)) for i, k in enumerate(key))


def _extreme_digits(mask: int, m: int, highest: bool) -> int:
    """The sum of the ``m`` lowest (or highest) digits of ``mask`` (which holds at least m)."""
    total = 0
    for low in (bits(mask)[::-1] if highest else bits(mask))[:m]:
        total += low.bit_length()
    return total


def _span(coeff: int, mask: int, m: int) -> tuple[int, int]:
    """The least and the most that ``m`` different digits of ``mask`` weigh, times ``coeff``."""
    a, b = coeff * _extreme_digits(mask, m, False), coeff * _extreme_digits(mask, m, True)
    return (a, b) if a <= b else (b, a)


class SumProp(Prop):
    def __init__(self, kind: WeightedSum, size: int, houses: Sequence[Sequence[int]] = ()) -> None:
        self.cells, self.coeffs, self.total, self.size = kind.cells, kind.coeffs, kind.total, size
        k = len(kind.cells)
        self.combos: tuple[int, ...] | None = None
        if kind.distinct and set(kind.coeffs) == {1} and math.comb(size, k) <= MAX_COMBINATIONS:
            self.combos = combinations(size, k, kind.total)
        #: Each place's group of cells that share a house (see :func:`house_groups`), or None.
        self.group = house_groups(kind.cells, kind.coeffs, houses) if houses else None

    def run(self, dom: list[int]) -> Changed:
        changed: list[int] = []
        if self.combos is not None:
            first = self._combinations(dom)
            if first is None:
                return None
            changed += first
        new = sum_filter([dom[c] for c in self.cells], self.coeffs, self.total, self.size)
        if new is None:
            return None
        more = _commit(dom, self.cells, new)
        if more is None:
            return None
        changed += more
        if self.group is not None:
            more = self._house_bounds(dom)
            if more is None:
                return None
            changed += more
        return changed

    def _house_bounds(self, dom: list[int]) -> Changed:
        """Bounds of the sum where cells of a group differ: each group weighs at least (most)
        its fewest (greatest) different digits; a digit goes when, with it, the least the
        whole sum can weigh is above the total or the most below it."""
        cells, coeffs, group, total = self.cells, self.coeffs, self.group or (), self.total
        union, count = [0] * (max(group) + 1), [0] * (max(group) + 1)
        for i, c in enumerate(cells):
            union[group[i]] |= dom[c]
            count[group[i]] += 1
        lo = hi = 0
        firsts = [group.index(g) for g in range(len(union))]
        for g, first in enumerate(firsts):
            if union[g].bit_count() < count[g]:
                return None
            a, b = _span(coeffs[first], union[g], count[g])
            lo, hi = lo + a, hi + b
        if not lo <= total <= hi:
            return None
        new = []
        for i, c in enumerate(cells):
            g, rest = group[i], 0
            for j, other in enumerate(cells):
                if j != i and group[j] == g:
                    rest |= dom[other]
            a, b = _span(coeffs[i], union[g], count[g])
            keep = 0
            for low in bits(dom[c]):
                if (rest & ~low).bit_count() >= count[g] - 1:
                    x, y = _span(coeffs[i], rest & ~low, count[g] - 1)
                    v = coeffs[i] * low.bit_length()
                    if lo - a + x + v <= total <= hi - b + y + v:
                        keep |= low
            new.append(keep)
        return _commit(dom, cells, new)

    def _combinations(self, dom: list[int]) -> Changed:
        doms = [dom[c] for c in self.cells]
        union = 0
        for d in doms:
            union |= d
        allowed, required = 0, -1
        for m in self.combos or ():
            if not m & ~union and all(d & m for d in doms):
                allowed |= m
                required &= m
        if not allowed:
            return None
        changed = _commit(dom, self.cells, [allowed] * len(doms))
        if changed is None:
            return None
        for low in bits(required):
            owners = [c for c in self.cells if dom[c] & low]
            if not owners:
                return None
            if len(owners) == 1 and dom[owners[0]] != low:
                dom[owners[0]] = low
                changed.append(owners[0])
        return changed


class ChainProp(Prop):
    def __init__(self, kind: OrderedChain, size: int) -> None:
        self.cells, self.step = kind.cells, 1 if kind.strict else 0

    def run(self, dom: list[int]) -> Changed:
        doms = [dom[c] for c in self.cells]
        step = self.step
        for i in range(1, len(doms)):  # above the least digit of the cell before
            cut = (doms[i - 1] & -doms[i - 1]).bit_length() - 1 + step
            doms[i] &= ~((1 << cut) - 1) if cut > 0 else -1
            if not doms[i]:
                return None
        for i in range(len(doms) - 2, -1, -1):  # below the greatest digit of the cell after
            doms[i] &= (1 << (doms[i + 1].bit_length() - step)) - 1
            if not doms[i]:
                return None
        return _commit(dom, self.cells, doms)


ConditionRun = Callable[[list[int]], Changed]


class ConditionProp(Prop):
    """A named condition on a line of cells (see :mod:`shudu.solvers._conditions_py`)."""

    def __init__(self, cells: tuple[int, ...], run: ConditionRun) -> None:
        self.cells = cells
        self._run = run

    def run(self, dom: list[int]) -> Changed:
        return self._run(dom)


def rule_filter(kind: LineCondition, shape: Shape) -> ConditionRun:
    """The generic condition: try every assignment left to the rule's cells (at most
    :data:`MAX_TUPLES`, else wait until fewer are left) and keep the digits of those that pass the
    rule's own check."""
    assert kind.rule is not None
    rule, cells = kind.rule, kind.cells
    check = lookup(rule.kind).check
    scratch = [0] * (shape.size * shape.size)

    def run(dom: list[int]) -> Changed:
        doms = [dom[c] for c in cells]
        if math.prod(d.bit_count() for d in doms) > MAX_TUPLES:
            return []
        seen = [0] * len(cells)
        for combo in itertools.product(*(bits(d) for d in doms)):
            for c, low in zip(cells, combo, strict=True):
                scratch[c] = low.bit_length()
            if check(rule, scratch, shape):
                for i, low in enumerate(combo):
                    seen[i] |= low
        return _commit(dom, cells, seen) if any(seen) else None

    return run
