"""The search of the pure-Python twin: one resumable depth-first search over one puzzle, its
budget, and the band and stack rules' tables. :mod:`shudu.solvers._fast_py` is the whole
specification (the propagation, the branch rule, the counters); this is its search half."""

from __future__ import annotations

import functools
import operator
import time
from typing import Any, Protocol

from ..notation import CallCode

__all__ = ["Budget", "Search", "SearchShape", "propagate"]

# Read the clock only every so many nodes, like the C core.
_CLOCK_EVERY = 64
# How many empty cells with two candidates the branch rule weighs (the C core's
# BRANCH_PAIRS in core/band9.c and core/general.c).
BRANCH_PAIRS = 8


class SearchShape(Protocol):
    """What a search reads of its shape (:class:`shudu.solvers._fast_py.Shape` is the one)."""

    n: int
    ncells: int
    full: int
    houses: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    std9: bool
    var9: bool
    locks: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]

    def search(self, givens: bytes) -> Search: ...


class Budget:
    """Node limit and deadline of one call (``timeout`` < 0: no deadline)."""

    def __init__(self, node_limit: int | None, timeout: float) -> None:
        if node_limit is not None:
            if not isinstance(node_limit, int):
                raise TypeError("node_limit must be an int or None")
            if node_limit < 0:
                raise ValueError("node_limit must not be negative")
        if timeout != timeout:
            raise ValueError("timeout must not be NaN")
        self.node_limit = node_limit
        self.deadline = -1.0 if timeout < 0 else time.monotonic() + timeout
        self.tick = 0

    def spent(self, nodes: int) -> bool:
        """True when the search may not open another node."""
        if self.node_limit is not None and nodes >= self.node_limit:
            return True
        if self.deadline >= 0:
            tick = self.tick
            self.tick += 1
            if tick % _CLOCK_EVERY == 0:
                return time.monotonic() > self.deadline
        return False


# The band rule on 9x9: triad 3 * r + k of a band is the three cells of row r of the band
# in box column k; a matching takes one triad per row and per box column. The stack rule
# is the same rule turned a quarter: triad 3 * r + k of a stack is the three cells of
# box row r in column k of the stack.
_BAND_TRIADS = tuple(
    tuple(tuple(9 * (3 * band + r) + 3 * k + j for j in range(3)) for r in range(3) for k in range(3))
    for band in range(3)
) + tuple(
    tuple(tuple(9 * (3 * r + j) + 3 * stack + k for j in range(3)) for r in range(3) for k in range(3))
    for stack in range(3)
)
_DIGIT_BITS = tuple(1 << d for d in range(9))
_MATCHINGS = tuple(
    sum(1 << (3 * r + k) for r, k in enumerate(perm))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
#: For each set of present triads, the triads that lie in some matching within it.
_MATCHING_KEEP = tuple(
    functools.reduce(operator.or_, (m for m in _MATCHINGS if present & m == m), 0) for present in range(512)
)


class _Contradiction(Exception):
    """Raised inside propagation; never escapes this module."""


def propagate(shape: SearchShape, givens: bytes) -> tuple[int, ...] | None:
    """Each cell's candidates once the givens are placed and propagation is done (the root
    state of a search); None on a contradiction. For tests."""
    try:
        return tuple(shape.search(givens)._root()[0])
    except _Contradiction:
        return None


class Search:
    """One resumable depth-first search over one puzzle (see the module docstring)."""

    def __init__(self, shape: SearchShape, givens: bytes) -> None:
        self.shape = shape
        self.givens = givens
        self.nodes = 0
        self.guesses = 0
        self.settled = 0
        self._started = False
        self._finished = False
        # frames: [cand, val, nleft, branch cell, digits not tried yet]
        self._stack: list[list[Any]] = []

    def run(
        self, want: int, keep: int, node_limit: int | None = None, timeout: float = -1.0
    ) -> tuple[list[bytes], int, int]:
        """Find up to ``want`` more solutions, keeping the first ``keep`` of them.

        Returns ``(solutions, found, code)``: ``solutions`` as bytes of digit values, the
        number found, and ``code`` 0 (stopped at ``want``: more may follow), 1 (exhausted:
        no more solutions) or 2 (budget spent). ``node_limit`` caps this search's total
        ``nodes`` across calls.
        """
        if want < 0 or keep < 0:
            raise ValueError("want and keep must not be negative")
        budget = Budget(node_limit, timeout)
        keep = min(keep, want)
        kept: list[bytes] = []
        found = 0
        code = CallCode.STOPPED
        while found < want:
            code, solution = self._next(budget)
            if solution is None:
                break
            if found < keep:
                kept.append(bytes(solution))
            found += 1
        return kept, found, code

    # -- the engine --------------------------------------------------------------------

    def _next(self, budget: Budget) -> tuple[CallCode, list[int] | None]:
        """Run to the next solution: ``(STOPPED, values)``, ``(EXHAUSTED | BUDGET, None)``
        (:class:`~shudu.notation.CallCode`)."""
        if self._finished:
            return CallCode.EXHAUSTED, None
        stack = self._stack
        if not self._started:
            if budget.spent(self.nodes):
                return CallCode.BUDGET, None
            self._started = True
            self.nodes = 1
            try:
                state = self._root()
            except _Contradiction:
                self._finished = True
                return CallCode.EXHAUSTED, None
            cand, val = state[0], state[1]
            self.settled = sum(1 for c, g in enumerate(self.givens) if not g and val[c])
            if state[2] == 0:
                self._finished = True
                return CallCode.STOPPED, val
            state[3] = cell = self._branch_cell(cand, val)
            state[4] = cand[cell]
            stack.append(state)
        while stack:
            frame = stack[-1]
            rem = frame[4]
            if not rem:
                stack.pop()
                continue
            if budget.spent(self.nodes):
                return CallCode.BUDGET, None
            cell = frame[3]
            bit = rem & -rem
            rem ^= bit
            frame[4] = rem
            if rem:
                # other digits remain: a guess; work on a copy, keep this frame
                child = [frame[0][:], frame[1][:], frame[2], -1, 0]
                self.guesses += 1
            else:
                # the last digit: no need to keep this frame
                stack.pop()
                child = frame
            self.nodes += 1
            try:
                queue: list[int] = []
                self._assign(child, queue, cell, bit)
                self._propagate(child, queue)
            except _Contradiction:
                continue
            cand, val = child[0], child[1]
            if child[2] == 0:
                return CallCode.STOPPED, val
            child[3] = cell = self._branch_cell(cand, val)
            child[4] = cand[cell]
            stack.append(child)
        self._finished = True
        return CallCode.EXHAUSTED, None

    def _root(self) -> list[Any]:
        """The root frame: the givens placed and propagated (``_Contradiction`` if stuck)."""
        nc = self.shape.ncells
        cand = [self.shape.full] * nc
        val = [0] * nc
        state: list[Any] = [cand, val, nc, -1, 0]
        queue: list[int] = []
        for c, g in enumerate(self.givens):
            if g:
                if val[c]:
                    if val[c] != g:
                        raise _Contradiction
                else:
                    self._assign(state, queue, c, 1 << (g - 1))
        self._propagate(state, queue)
        return state

    def _assign(self, state: list[Any], queue: list[int], c: int, bit: int) -> None:
        """Place digit ``bit`` in cell ``c``; peers left with one candidate join ``queue``."""
        cand, val = state[0], state[1]
        if not cand[c] & bit:
            raise _Contradiction
        val[c] = bit.bit_length()
        cand[c] = bit
        state[2] -= 1
        for p in self.shape.peers[c]:
            m = cand[p]
            if m & bit:
                m ^= bit
                cand[p] = m
                if not m:
                    raise _Contradiction
                if not m & (m - 1):
                    queue.append(p)

    def _propagate(self, state: list[Any], queue: list[int]) -> None:
        """Naked and hidden singles until nothing changes (``_Contradiction`` if stuck)."""
        cand, val = state[0], state[1]
        full = self.shape.full
        houses = self.shape.houses
        qi = 0
        while True:
            while qi < len(queue):
                c = queue[qi]
                qi += 1
                if not val[c]:
                    self._assign(state, queue, c, cand[c])
            if state[2] == 0:
                return
            progress = False
            for house in houses:
                once = twice = placed = 0
                for c in house:
                    m = cand[c]
                    if val[c]:
                        placed |= m
                    else:
                        twice |= once & m
                        once |= m
                if once | placed != full:
                    raise _Contradiction
                hidden = once & ~twice
                while hidden:
                    bit = hidden & -hidden
                    hidden ^= bit
                    for c in house:
                        if not val[c] and cand[c] & bit:
                            self._assign(state, queue, c, bit)
                            break
                    else:
                        raise _Contradiction
                    progress = True
            if not progress and qi == len(queue):
                shape = self.shape
                if (shape.std9 or shape.var9) and self._band_rule(state, queue):
                    continue
                if not shape.std9 and self._intersection_rule(state, queue):
                    continue
                return

    def _intersection_rule(self, state: list[Any], queue: list[int]) -> bool:
        """Apply the intersection rule to every pair of ``Shape.locks`` once; True if a
        candidate went."""
        cand = state[0]
        changed = False
        for shared, only_a, only_b in self.shape.locks:
            inside = out_a = out_b = 0
            for c in shared:
                inside |= cand[c]
            for c in only_a:
                out_a |= cand[c]
            for c in only_b:
                out_b |= cand[c]
            # a digit one house holds only in the shared cells leaves the other's other cells
            for cells, gone in ((only_b, inside & ~out_a & out_b), (only_a, inside & ~out_b & out_a)):
                if gone:
                    for c in cells:
                        m = cand[c]
                        if m & gone:
                            m &= ~gone
                            cand[c] = m
                            if not m:
                                raise _Contradiction
                            if not m & (m - 1):
                                queue.append(c)
                            changed = True
        return changed

    def _band_rule(self, state: list[Any], queue: list[int]) -> bool:
        """Apply the band and stack rules to every digit, band and stack once; True if a
        candidate went."""
        cand, val = state[0], state[1]
        changed = False
        for triads in _BAND_TRIADS:
            for bit in _DIGIT_BITS:
                present = 0
                for t, cells in enumerate(triads):
                    for c in cells:
                        if cand[c] & bit:
                            present |= 1 << t
                            break
                keep = _MATCHING_KEEP[present]
                if not keep:
                    raise _Contradiction
                gone = present & ~keep
                while gone:
                    t = (gone & -gone).bit_length() - 1
                    gone &= gone - 1
                    for c in triads[t]:
                        m = cand[c]
                        if m & bit:
                            m ^= bit
                            cand[c] = m
                            if not m:
                                raise _Contradiction
                            if not m & (m - 1) and not val[c]:
                                queue.append(c)
                            changed = True
        return changed

    def _branch_cell(self, cand: list[int], val: list[int]) -> int:
        """The cell to branch on (see the module docstring)."""
        peers = self.shape.peers
        if self.shape.n == 9:
            best, best_key = -1, (99, 0)
            for c, m in enumerate(cand):
                if not val[c]:
                    count = m.bit_count()
                    if count <= best_key[0]:
                        key = (count, -sum(1 for p in peers[c] if not val[p]))
                        if key < best_key:
                            best, best_key = c, key
            return best
        best, best_score, weighed = -1, -1, 0
        for c, m in enumerate(cand):
            if not val[c] and m.bit_count() == 2:
                if weighed == BRANCH_PAIRS:
                    break
                weighed += 1
                low = m & -m
                high = m ^ low
                with_low = with_high = 0
                for p in peers[c]:
                    q = cand[p]
                    if q & low:
                        with_low += 1
                    if q & high:
                        with_high += 1
                score = min(with_low, with_high)
                if score > best_score:
                    best, best_score = c, score
        if best >= 0:
            return best
        best, best_count = -1, 99
        for c, m in enumerate(cand):
            if not val[c]:
                k = m.bit_count()
                if k < best_count:
                    best, best_count = c, k
        return best
