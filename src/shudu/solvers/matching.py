"""Forbidden edges of perfect matchings (paper 5), with guessing to finish what it cannot.

Each house is a bipartite graph: its n cells on one side, the n digits on the other, an edge
where the digit is still a candidate of the cell. A solution fills the house with every digit
once — a perfect matching — so an edge that lies in no perfect matching is *forbidden*: the
candidate can be struck. Deleting edges in one house changes the graphs of the houses that share
its cells, so the houses are filtered again and again until nothing changes (*propagation*).
Naked and hidden singles, pairs, triples … all fall out of this one rule.

How the forbidden edges are found is selectable (``rule``), with the same results:

- ``"regin"`` (the default): Régin's all-different filtering — one perfect matching, then the
  alternating-cycle rule via strongly connected components (see ``_bipartite.py``);
- ``"brute"``: the paper's test, edge by edge: remove the edge and its ends, look for a
  perfect matching of the rest.

``edge_dependency=True`` adds the paper's proposed next step. Edge e *depends on* edge f in a house
when every perfect matching of that house holding e also holds f: placing e's digit forces f's.
Following these forced placements from e through every house they touch gives the set of
placements e implies; when two of them clash (one cell given two digits, or one digit given to two
cells that must differ), e is struck.

Anti-knight and anti-king links are two-cell all-different constraints; matching filtering on a
two-cell constraint strikes a cell's digit from its partner once the cell is down to that digit,
which is what is done for them.

When propagation stalls with cells still open, the solver branches on the cell with fewest
candidates, tries each digit in turn and propagates again, so every puzzle is solved. The
registered solver ``matching`` uses Régin's rule without edge dependency; build others with
``Matching(rule="brute", edge_dependency=True)`` — one class, one signature.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Literal

from ..errors import SolverError
from ..geometry import Geometry
from ..puzzle import Puzzle
from ._bipartite import Matching as HouseMatching
from ._bipartite import forbidden_brute, forbidden_regin, implied_by, maximum_matching
from .base import UNLIMITED, Budget, Solver, Stats

__all__ = ["Matching", "Propagator", "Rule", "propagate", "start_marks"]

Rule = Literal["regin", "brute"]
_RULES: dict[str, Callable[[Sequence[int]], list[int] | None]] = {
    "regin": forbidden_regin,
    "brute": forbidden_brute,
}


def _filter_for(rule: str) -> Callable[[Sequence[int]], list[int] | None]:
    """The forbidden-edge finder of a rule, or a SolverError naming the rules there are."""
    try:
        return _RULES[rule]
    except KeyError:
        raise SolverError(f"unknown matching rule {rule!r}; use one of: {', '.join(_RULES)}") from None


def start_marks(puzzle: Puzzle) -> list[int]:
    """Candidates before any reasoning: a given's own digit, every digit in an empty cell.

    One bitmask per cell, bit d for digit d. The first propagation strikes the givens from their
    houses: a given is an edge every perfect matching must use.
    """
    every = ((1 << puzzle.size) - 1) << 1
    return [1 << digit if digit else every for digit in puzzle.cells]


def _is_single(mask: int) -> bool:
    return mask & (mask - 1) == 0


class Propagator:
    """Matching propagation over the houses of one shape, with one rule and option set."""

    def __init__(self, geometry: Geometry, rule: Rule = "regin", edge_dependency: bool = False) -> None:
        self.geometry = geometry
        self.forbidden = _filter_for(rule)
        self.edge_dependency = edge_dependency

    def run(self, marks: list[int], changed: Iterable[int] | None = None) -> bool:
        """Propagate to a fixed point, striking candidates from ``marks`` in place.

        ``changed`` lists the cells whose candidates shrank since the last fixed point (None: all
        cells, for a fresh start). Returns False when some house has no perfect matching left (the
        puzzle, as marked, has no solution).
        """
        geo = self.geometry
        cells = range(geo.ncells) if changed is None else changed
        if not self._filter(marks, [(cell, -1) for cell in cells]):
            return False
        while self.edge_dependency:
            struck = self._dependency_pass(marks)
            if struck is None:
                return False
            if not struck:
                break
            if not self._filter(marks, [(cell, -1) for cell in struck]):
                return False
        return True

    def _filter(self, marks: list[int], pending: list[tuple[int, int]]) -> bool:
        """Strike forbidden edges house by house until no house has any.

        ``pending`` holds (cell, house) pairs: a cell whose candidates shrank, and the house whose
        filtering did it (-1 for none) — that house is at its fixed point and need not be redone.
        """
        geo = self.geometry
        house_cells, cell_houses, links = geo.house_cells, geo.cell_houses, geo.links
        queue: deque[int] = deque()
        queued = [False] * len(house_cells)
        while True:
            while pending:
                cell, source = pending.pop()
                mask = marks[cell]
                if not mask:
                    return False
                for house in cell_houses[cell]:
                    if house != source and not queued[house]:
                        queued[house] = True
                        queue.append(house)
                if _is_single(mask):  # the two-cell constraints of the links
                    for other in links[cell]:
                        if marks[other] & mask:
                            marks[other] &= ~mask
                            pending.append((other, -1))
            if not queue:
                return True
            house = queue.popleft()
            queued[house] = False
            members = house_cells[house]
            forbidden = self.forbidden([marks[cell] for cell in members])
            if forbidden is None:
                return False
            for cell, lost in zip(members, forbidden, strict=True):
                if lost:
                    marks[cell] &= ~lost
                    pending.append((cell, house))

    # --- edge dependency -----------------------------------------------------------------------

    def _dependency_pass(self, marks: list[int]) -> list[int] | None:
        """Strike every candidate whose implied placements clash; the cells that lost one.

        All candidates are judged against the same state (the fixed point this pass starts from),
        which is sound: a clash found there holds in every smaller state too. None when a cell
        loses its last candidate.
        """
        geo = self.geometry
        matches: dict[int, HouseMatching] = {}
        implied: dict[tuple[int, int, int], list[tuple[int, int]] | None] = {}

        def implications(house: int, cell: int, digit: int) -> list[tuple[int, int]] | None:
            key = (house, cell, digit)
            if key not in implied:
                members = geo.house_cells[house]
                adj = [marks[member] for member in members]
                if house not in matches:
                    matches[house] = maximum_matching(adj)
                local = implied_by(adj, members.index(cell), digit, matches[house])
                implied[key] = None if local is None else [(members[i], d) for i, d in local]
            return implied[key]

        lost: dict[int, int] = {}
        for cell, mask in enumerate(marks):
            if _is_single(mask):
                continue
            for digit in range(1, geo.size + 1):
                if mask >> digit & 1 and self._clashes(cell, digit, implications):
                    lost[cell] = lost.get(cell, 0) | 1 << digit
        for cell, digits in lost.items():
            marks[cell] &= ~digits
            if not marks[cell]:
                return None
        return list(lost)

    def _clashes(
        self,
        cell: int,
        digit: int,
        implications: Callable[[int, int, int], list[tuple[int, int]] | None],
    ) -> bool:
        """Whether placing ``digit`` in ``cell`` implies two clashing placements through edge dependencies."""
        geo = self.geometry
        placed = {cell: digit}
        work = [(cell, digit)]
        while work:
            here, there = work.pop()
            for house in geo.cell_houses[here]:
                forced = implications(house, here, there)
                if forced is None:  # the edge is in no perfect matching of this house
                    return True
                for other, value in forced:
                    if other in placed:
                        if placed[other] != value:
                            return True
                        continue
                    if any(placed.get(peer) == value for peer in geo.peers[other]):
                        return True
                    placed[other] = value
                    work.append((other, value))
        return False


def propagate(puzzle: Puzzle, *, rule: Rule = "regin", edge_dependency: bool = False) -> list[int] | None:
    """The candidates matching propagation leaves, or None when it proves there is no solution.

    One bitmask per cell (bit d for digit d); the puzzle is settled without guessing when every
    mask has a single bit.
    """
    marks = start_marks(puzzle)
    ok = Propagator(puzzle.geometry, rule, edge_dependency).run(marks)
    return marks if ok else None


class Matching(Solver):
    name = "matching"
    description = "forbidden edges of perfect matchings per house (Régin's rule), then guessing (paper 5)"

    def __init__(self, rule: Rule = "regin", edge_dependency: bool = False) -> None:
        _filter_for(rule)
        self.rule: Rule = rule
        self.edge_dependency = edge_dependency

    def solutions(
        self, puzzle: Puzzle, *, budget: Budget = UNLIMITED, stats: Stats | None = None
    ) -> Iterator[tuple[int, ...]]:
        stats = stats if stats is not None else Stats()
        propagator = Propagator(puzzle.geometry, self.rule, self.edge_dependency)
        budget.check(stats.nodes)
        root = start_marks(puzzle)
        if not propagator.run(root):
            return
        stats.settled += sum(
            1 for cell, given in enumerate(puzzle.cells) if not given and _is_single(root[cell])
        )
        marks: list[int] | None = root  # the fixed point to branch from; None after a dead end
        # each level: the state before branching, the branch cell and the digits it has left to try
        stack: list[tuple[list[int], int, int]] = []
        while True:
            if marks is not None:  # a fixed point with no contradiction
                open_cells = [cell for cell, mask in enumerate(marks) if not _is_single(mask)]
                if not open_cells:
                    yield tuple(mask.bit_length() - 1 for mask in marks)
                else:
                    state = marks
                    cell = min(open_cells, key=lambda c: state[c].bit_count())
                    stack.append((state, cell, state[cell]))
            marks = None
            while stack and marks is None:  # try the next digit of the deepest branch
                base, cell, left = stack[-1]
                if not left:
                    stack.pop()
                    continue
                bit = left & -left
                stack[-1] = (base, cell, left ^ bit)
                stats.nodes += 1
                if left != bit:
                    stats.guesses += 1
                budget.check(stats.nodes)
                trial = base.copy()
                trial[cell] = bit
                if propagator.run(trial, [cell]):
                    marks = trial
            if marks is None:
                return

    def __repr__(self) -> str:
        return f"<solver {self.name!r} rule={self.rule!r} edge_dependency={self.edge_dependency}>"
