"""The named line conditions of the constraint engine, in pure Python (their specification).

Each ``condition(kind, shape)`` gives a function that narrows the domains of the kind's cells
(bit masks, bit k for digit k + 1) and returns the cells it changed, or None when the condition
cannot hold. Each removes only digits that no assignment of the condition's own cells can use,
and fails a full assignment that breaks it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from ..rules import AllDifferent, Kind, LineCondition, OrderedChain, Relation, Shape, WeightedSum
from ._propagators_py import (
    AllDifferentProp,
    ChainProp,
    Changed,
    ConditionProp,
    ConditionRun,
    Prop,
    RelationProp,
    SumProp,
    _commit,
    _house_index,
    bits,
    rule_filter,
    sum_filter,
)

__all__ = ["condition", "make"]


def condition(kind: LineCondition, shape: Shape) -> ConditionRun:
    """The propagator of the condition ``kind.name``."""
    build = _CONDITIONS.get(kind.name)
    if build is None:
        raise ValueError(f"no propagator for the condition {kind.name!r}")
    return build(kind, shape)


def _allowed(kind: LineCondition, shape: Shape) -> ConditionRun:
    cells, mask = kind.cells, kind.params[0]
    return lambda dom: _commit(dom, cells, [mask] * len(cells))


def near_cells(
    cells: Sequence[int], houses: Sequence[Sequence[int]], links: Sequence[Sequence[int]] = ()
) -> list[tuple[int, int]]:
    """The cells off a line (a renban, a global entropy square) that see two or more of its cells
    (share a house with, or are linked to), each with the mask of the line's places it sees, in
    order of cells; none for a line of more than 31 cells."""
    if len(cells) > 31:
        return []
    peers_of = _peer_table(tuple(map(tuple, houses)), tuple(map(tuple, links)))
    sees: dict[int, int] = {}
    for i, cell in enumerate(cells):
        for c in peers_of.get(cell, ()):
            sees[c] = sees.get(c, 0) | 1 << i
    on_line = set(cells)
    return [(c, m) for c, m in sorted(sees.items()) if c not in on_line and m.bit_count() >= 2]


@functools.lru_cache(maxsize=16)
def _peer_table(
    houses: tuple[tuple[int, ...], ...], links: tuple[tuple[int, ...], ...]
) -> dict[int, frozenset[int]]:
    """The cells each cell sees (shares a house with, or is linked to), built once a geometry:
    a puzzle's lines and entropy squares all ask."""
    _, houses_of = _house_index(houses)
    peers: dict[int, frozenset[int]] = {}
    for cell in {*houses_of, *range(len(links))}:
        seen = {c for h in houses_of.get(cell, ()) for c in houses[h]}
        seen.update(links[cell] if cell < len(links) else ())
        peers[cell] = frozenset(seen)
    return peers


#: A renban line of this many cells or fewer keeps only the digits of the assignments of
#: distinct digits that fill a run (its cells' digits tried in turn); a longer one keeps the
#: runs that each cell meets and whose digits all have a cell.
RENBAN_MATCHED = 4


def _distinct_supports(doms: Sequence[int], support: list[int]) -> bool:
    """Or into ``support`` the digits each cell takes in some assignment of distinct digits of
    ``doms``; whether there is one."""
    k, pick, found = len(doms), [0] * len(doms), False

    def place(i: int, used: int) -> None:
        nonlocal found
        if i == k:
            found = True
            for j in range(k):
                support[j] |= pick[j]
            return
        for low in bits(doms[i] & ~used):
            pick[i] = low
            place(i + 1, used | low)

    place(0, 0)
    return found


def _renban(
    kind: LineCondition,
    shape: Shape,
    houses: Sequence[Sequence[int]] = (),
    links: Sequence[Sequence[int]] = (),
) -> ConditionRun:
    """The line's digits are a run of ``k`` consecutive digits: keep the runs that every cell can
    take part in and whose every digit has a cell (on a short line, the runs its cells can fill
    with distinct digits, and only the digits of such fillings); a digit all such runs hold and one cell can
    take goes there; and it leaves every cell off the line that sees (through ``houses`` or
    ``links``) all the line's cells that can take it (the line holds it in one of them)."""
    cells, k, n = kind.cells, len(kind.cells), shape.size
    runs = [((1 << k) - 1) << low for low in range(n - k + 1)]
    near = near_cells(cells, houses, links)

    def run(dom: list[int]) -> Changed:
        doms = [dom[c] for c in cells]
        allowed, required = 0, -1
        support = [0] * k
        for w in runs:
            if k <= RENBAN_MATCHED:
                if _distinct_supports([d & w for d in doms], support):
                    allowed |= w
                    required &= w
                continue
            union = 0
            for d in doms:
                if not d & w:
                    break
                union |= d & w
            else:
                if union == w:
                    allowed |= w
                    required &= w
        if not allowed:
            return None
        changed = _commit(dom, cells, support if k <= RENBAN_MATCHED else [allowed] * k)
        if changed is None:
            return None
        for low in bits(required):
            owners = [c for c in cells if dom[c] & low]
            if len(owners) == 1 and dom[owners[0]] != low:
                dom[owners[0]] = low
                changed.append(owners[0])
        for low in bits(required) if near else ():
            places = 0
            for i, c in enumerate(cells):
                if dom[c] & low:
                    places |= 1 << i
            if places & (places - 1):
                for c, seen in near:
                    if places & ~seen == 0 and dom[c] & low:
                        dom[c] &= ~low
                        if not dom[c]:
                            return None
                        changed.append(c)
        return changed

    return run


def _between(kind: LineCondition, shape: Shape) -> ConditionRun:
    """Each pair of end digits two or more apart that leaves every middle cell a digit strictly
    between them supports those digits."""
    cells = kind.cells
    a, b, middle = cells[0], cells[-1], cells[1:-1]

    def run(dom: list[int]) -> Changed:
        seen_a = seen_b = 0
        seen_mid = [0] * len(middle)
        for la in bits(dom[a]):
            for lb in bits(dom[b]):
                lo, hi = sorted((la, lb))
                inside = (hi - 1) & ~(lo | (lo - 1))  # the digits strictly between
                fits = [dom[m] & inside for m in middle]
                if all(fits):
                    seen_a |= la
                    seen_b |= lb
                    seen_mid = [s | f for s, f in zip(seen_mid, fits, strict=True)]
        return _commit(dom, (a, b, *middle), [seen_a, seen_b, *seen_mid])

    return run


def _sandwich(kind: LineCondition, shape: Shape) -> ConditionRun:
    """The 1 and the n of a full line at each pair of places they may take; the cells between
    them reach the total (by :func:`sum_filter`), the others hold neither."""
    cells, total, n = kind.cells, kind.params[0], shape.size
    one, top = 1, 1 << (n - 1)
    crust = one | top

    def run(dom: list[int]) -> Changed:
        doms = [dom[c] for c in cells]
        seen = [0] * len(cells)
        ones = [i for i, d in enumerate(doms) if d & one]
        tops = [j for j, d in enumerate(doms) if d & top]
        for i in ones:
            for j in tops:
                if i == j:
                    continue
                lo, hi = min(i, j), max(i, j)
                inner = [d & ~crust for d in doms[lo + 1 : hi]]
                filling = sum_filter(inner, (1,) * len(inner), total, n) if all(inner) else None
                if filling is None:
                    continue
                outer = [d & ~crust for k, d in enumerate(doms) if k < lo or k > hi]
                if not all(outer):
                    continue
                seen[i] |= one
                seen[j] |= top
                for k in range(len(cells)):
                    if lo < k < hi:
                        seen[k] |= filling[k - lo - 1]
                    elif k != i and k != j:
                        seen[k] |= doms[k] & ~crust
        return _commit(dom, cells, seen)

    return run


def _xsum(kind: LineCondition, shape: Shape) -> ConditionRun:
    """For each first digit x, the first x digits must reach the total."""
    cells, total, n = kind.cells, kind.params[0], shape.size

    def run(dom: list[int]) -> Changed:
        doms = [dom[c] for c in cells]
        seen = [0] * len(cells)
        for low in bits(doms[0]):
            x = low.bit_length()
            if x > len(cells):
                continue
            head = [low, *doms[1:x]]
            fit = sum_filter(head, (1,) * x, total, n)
            if fit is None:
                continue
            for k in range(len(cells)):
                seen[k] |= fit[k] if k < x else doms[k]
        return _commit(dom, cells, seen)

    return run


def _skyscraper(kind: LineCondition, shape: Shape) -> ConditionRun:
    """States (tallest so far, buildings seen) forward from the clue and back from the end. The
    tallest starts at ``params[1]`` (default 0): on digits from 0, at 1, the index of the 0,
    which is no building. The states of one tallest are held as a mask of the counts seen (bit
    ``s`` for ``s`` buildings), so a digit moves a whole mask at once."""
    cells, count = kind.cells, kind.params[0]
    floor = kind.params[1] if len(kind.params) > 1 else 0
    top = max(shape.size, floor) + 1
    within = (1 << (count + 1)) - 1  # the counts that can still end at ``count``

    def run(dom: list[int]) -> Changed:
        doms = [dom[c] for c in cells]
        start = [0] * top
        start[floor] = 1
        forward = [start]
        for d in doms:
            here, nxt = forward[-1], [0] * top
            values = [low.bit_length() for low in bits(d)]
            for tallest in range(top):
                seen = here[tallest]
                if not seen:
                    continue
                for v in values:
                    if v > tallest:
                        nxt[v] |= (seen << 1) & within
                    else:
                        nxt[tallest] |= seen
            forward.append(nxt)
        goal = [(seen >> count & 1) << count for seen in forward[-1]]
        new = [0] * len(doms)
        for i in range(len(doms) - 1, -1, -1):
            here, back = forward[i], [0] * top
            for low in bits(doms[i]):
                v = low.bit_length()
                for tallest in range(top):
                    seen = here[tallest]
                    if not seen:
                        continue
                    fit = seen & (goal[v] >> 1) if v > tallest else seen & goal[tallest]
                    if fit:
                        new[i] |= low
                        back[tallest] |= fit
            goal = back
        return _commit(dom, cells, new)

    return run


def _lunchbox(kind: LineCondition, shape: Shape) -> ConditionRun:
    """Distinct digits whose smallest and largest enclose cells adding up to the total: each
    place ``i`` of the smallest digit ``lo`` and ``j`` of the largest ``hi`` supports ``lo``,
    ``hi`` and the digits strictly between them that the other cells can take, when there are
    enough such digits for those cells, and the cells between ``i`` and ``j`` can reach the
    total with them (by :func:`sum_filter`, within the bounds of distinct digits)."""
    cells, total, n = kind.cells, kind.params[0], shape.size
    k = len(cells)

    def run(dom: list[int]) -> Changed:
        doms = [dom[c] for c in cells]
        fixed = 0
        for d in doms:  # two cells fixed to one digit: the digits do not differ
            if not d & (d - 1):
                if fixed & d:
                    return None
                fixed |= d
        seen = [0] * k
        for i in range(k):
            for j in range(k):
                if i != j:
                    _lunchbox_pair(doms, i, j, total, n, seen)
        return _commit(dom, cells, seen)

    return run


def _lunchbox_pair(doms: list[int], i: int, j: int, total: int, n: int, seen: list[int]) -> None:
    """What the smallest digit at place ``i`` and the largest at ``j`` support, added to seen."""
    k = len(doms)
    a, b = min(i, j), max(i, j)
    m = b - a - 1
    for lo in bits(doms[i]):
        for hi in bits(doms[j] & ~(lo | (lo - 1))):
            inside = (hi - 1) & ~(lo | (lo - 1))  # the digits strictly between
            if inside.bit_count() < k - 2:
                continue
            low, high = lo.bit_length(), hi.bit_length()
            if not m * low + m * (m + 1) // 2 <= total <= m * high - m * (m + 1) // 2:
                continue
            fits = [d & inside for d in doms]
            if not all(fits[x] for x in range(k) if x != i and x != j):
                continue
            filling = sum_filter(fits[a + 1 : b], (1,) * m, total, n)
            if filling is None:
                continue
            seen[i] |= lo
            seen[j] |= hi
            for x in range(k):
                if a < x < b:
                    seen[x] |= filling[x - a - 1]
                elif x != i and x != j:
                    seen[x] |= fits[x]


def _split_filter(doms: Sequence[int], total: int) -> list[int] | None:
    """The digits of a line that splits into stretches each adding up to ``total``: states are
    the sum of the open stretch (0 … total - 1), forward and back, held as a mask (bit ``s`` for
    the sum ``s``) that a digit shifts at once; a stretch that reaches ``total`` closes (bit 0)."""
    reach = (1 << total) - 1
    forward = [1]
    for d in doms:
        here, nxt = forward[-1], 0
        for low in bits(d):
            moved = here << low.bit_length()
            nxt |= (moved & reach) | (moved >> total & 1)
        forward.append(nxt)
    if not forward[-1] & 1:
        return None
    goal, new = 1, [0] * len(doms)
    for i in range(len(doms) - 1, -1, -1):
        here, back = forward[i], 0
        ends = (goal & reach) | (goal & 1) << total  # the sums after the digit that lead on
        for low in bits(doms[i]):
            fit = here & (ends >> low.bit_length())
            if fit:
                new[i] |= low
                back |= fit
        goal = back
    return new


def _sum_line(kind: LineCondition, shape: Shape) -> ConditionRun:
    """Open lines split from their first cell; a loop may start its first stretch anywhere."""
    cells, total = kind.cells, kind.params[0]
    loop = len(kind.params) > 1 and kind.params[1] == 1
    starts = range(len(cells)) if loop else range(1)

    def run(dom: list[int]) -> Changed:
        doms = [dom[c] for c in cells]
        seen = [0] * len(cells)
        for start in starts:
            order = list(range(start, len(cells))) + list(range(start))
            fit = _split_filter([doms[k] for k in order], total)
            if fit is not None:
                for k, d in zip(order, fit, strict=True):
                    seen[k] |= d
        return _commit(dom, cells, seen)

    return run


def _quad(kind: LineCondition, shape: Shape) -> ConditionRun:
    """Each listed digit, as often as listed, needs as many cells that can hold it; when there
    are just that many, they hold it. When the digits listed fill the cells (four digits on
    four cells), each cell holds one of them."""
    cells = kind.cells
    needs: dict[int, int] = {}
    for d in kind.params:
        needs[1 << (d - 1)] = needs.get(1 << (d - 1), 0) + 1
    full = sum(needs) if sum(needs.values()) == len(cells) else 0

    def run(dom: list[int]) -> Changed:
        changed: list[int] = []
        for c in cells if full else ():
            if dom[c] & ~full:
                dom[c] &= full
                if not dom[c]:
                    return None
                changed.append(c)
        for low, k in needs.items():
            owners = [c for c in cells if dom[c] & low]
            if len(owners) < k:
                return None
            if len(owners) == k:
                for c in owners:
                    if dom[c] != low:
                        dom[c] = low
                        changed.append(c)
        return changed

    return run


#: The most answers a cover condition remembers before it forgets them all.
_ANSWERS_MOST = 1 << 12


def _cover(
    kind: LineCondition,
    shape: Shape,
    houses: Sequence[Sequence[int]] = (),
    links: Sequence[Sequence[int]] = (),
) -> ConditionRun:
    """Every class (a mask of digits) has a cell among ``cells``: a digit stays in a cell when
    the classes it does not cover can still be given cells among the others. When the classes
    are disjoint (global entropy's thirds) a cell covers one class at most, so the classes need
    distinct cells (a matching of classes to cells); else each needs a cell of its own. A class
    with one digit left among the cells needs that digit: it leaves every cell off the line
    that sees (through ``houses`` or ``links``) all the cells that can take it."""
    cells, classes = kind.cells, kind.params
    near = near_cells(cells, houses, links)
    every = (1 << len(cells)) - 1
    union = 0
    distinct = True
    for mask in classes:
        distinct = distinct and not union & mask
        union |= mask
    distinct = distinct and len(set(cells)) == len(cells)
    #: The classes (a mask of class numbers) that each digit covers, by digit.
    covers = [0] + [
        sum(1 << q for q, mask in enumerate(classes) if mask >> (v - 1) & 1) for v in range(1, shape.size + 1)
    ]

    def matched(owners: list[int], todo: int, free: int) -> bool:
        """Whether each class of ``todo`` (a mask of class numbers) finds a cell in ``free`` (a
        mask of places) among its ``owners``, distinct ones when the classes are disjoint."""
        if not todo:
            return True
        q = (todo & -todo).bit_length() - 1
        if not distinct:
            return bool(owners[q] & free) and matched(owners, todo & (todo - 1), free)
        rest = todo & (todo - 1)
        return any(matched(owners, rest, free & ~place) for place in bits(owners[q] & free))

    #: What :func:`kept` answered, by the domains of the cells (a path asks again and again).
    answers: dict[tuple[int, ...], list[int] | None] = {}

    def kept(doms: tuple[int, ...]) -> list[int] | None:
        """Per cell the digits that leave the other classes cells; None when the classes cannot
        all be covered."""
        owners = [0] * len(classes)
        for q, mask in enumerate(classes):
            for i, d in enumerate(doms):
                if d & mask:
                    owners[q] |= 1 << i
        todo = (1 << len(classes)) - 1
        if not matched(owners, todo, every):
            return None
        new = []
        for i, d in enumerate(doms):
            free, keep, held = every & ~(1 << i), 0, {}
            for low in bits(d):
                left = todo & ~covers[low.bit_length()]
                if left not in held:
                    held[left] = matched(owners, left, free)
                if held[left]:
                    keep |= low
            new.append(keep)
        return new

    def run(dom: list[int]) -> Changed:
        doms = tuple(dom[c] for c in cells)
        if doms in answers:
            new = answers[doms]
        else:
            if len(answers) >= _ANSWERS_MOST:
                answers.clear()
            new = answers[doms] = kept(doms)
        if new is None:
            return None
        changed = _commit(dom, cells, new)
        if changed is None or not near:
            return changed
        union = 0
        for c in cells:
            union |= dom[c]
        for mask in classes:
            low = union & mask
            if not low or low & (low - 1):
                continue
            places = 0
            for i, c in enumerate(cells):
                if dom[c] & low:
                    places |= 1 << i
            if places & (places - 1):
                for c, seen in near:
                    if places & ~seen == 0 and dom[c] & low:
                        dom[c] &= ~low
                        if not dom[c]:
                            return None
                        changed.append(c)
        return changed

    return run


_CONDITIONS: dict[str, Callable[[LineCondition, Shape], ConditionRun]] = {
    "allowed": _allowed,
    "renban": _renban,
    "between": _between,
    "sandwich": _sandwich,
    "lunchbox": _lunchbox,
    "x-sum": _xsum,
    "skyscraper": _skyscraper,
    "sum-line": _sum_line,
    "quad": _quad,
    "cover": _cover,
    "rule": rule_filter,
}


def make(
    kind: Kind,
    shape: Shape,
    houses: Sequence[Sequence[int]] = (),
    links: Sequence[Sequence[int]] = (),
) -> Prop:
    """The propagator of one compiled kind; a sum's cells that share one of ``houses`` (the
    geometry's, when the network is built) differ, which bounds it more tightly, and a renban
    clears the cells that see its required digit's places through ``houses`` and ``links``."""
    size = shape.size
    if isinstance(kind, AllDifferent):
        return AllDifferentProp(kind.cells, size)
    if isinstance(kind, Relation):
        return RelationProp(kind, size)
    if isinstance(kind, WeightedSum):
        return SumProp(kind, size, houses)
    if isinstance(kind, OrderedChain):
        return ChainProp(kind, size)
    assert isinstance(kind, LineCondition)
    if kind.name == "renban":
        return ConditionProp(kind.cells, _renban(kind, shape, houses, links))
    if kind.name == "cover":
        return ConditionProp(kind.cells, _cover(kind, shape, houses, links))
    return ConditionProp(kind.cells, condition(kind, shape))
