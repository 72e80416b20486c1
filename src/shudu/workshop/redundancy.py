"""Redundancy: the givens, and the constraint rules, a unique puzzle can do without.

An *element* is a given or one rule of the puzzle (a cage, a dot, a thermometer …). Removing
elements only lets more grids through, so the sets of elements that can go together without
losing uniqueness are closed downwards: each element of such a set can go alone. Hence:

- each element is tested alone (the puzzle without it: still one solution?);
- a largest set that can go together is sought among those alone-removable ones, by a branch
  and bound over them that remembers each set found not to go (any larger set holding it
  cannot go either); the greedy set (take each in turn while the puzzle stays unique) is its
  first bound. When the search ends within the budget the set is proven largest.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import OptionError, SearchTimeout
from ..formats import PuzzleLike, as_puzzle
from ..geometry import BoxLike, Geometry
from ..notation import Status, cell_name, status_of_count
from ..puzzle import Puzzle
from ..solvers.base import Stats
from ..variants import VariantLike
from .search import Search

__all__ = ["Redundancy", "is_minimal", "redundant"]

#: An element: ("given", cell) or ("rule", index in the puzzle's rules).
Element = tuple[str, int]

#: The most uniqueness checks the search for a largest set spends beyond the greedy one; past
#: them the set found is given as the best found, not proven largest (the search is exponential
#: in the number of redundant elements: a 35-given puzzle may have 30).
LARGEST_CHECKS = 2000


class _Enough(Exception):
    """The search for a largest set spent its checks."""


@dataclass(frozen=True)
class Redundancy:
    """What :func:`redundant` found.

    - ``status``: the puzzle's own status: ``unique``, ``multiple`` or ``none`` (then nothing
      is redundant: the puzzle has no one solution to keep), or ``timeout`` (the budget ran
      out: what is listed holds, but more may be redundant);
    - ``givens``: the cells whose given can go alone without losing uniqueness;
    - ``rules``: the indices (in ``puzzle.variant.rules``) of the rules that can go alone;
    - ``together_givens``, ``together_rules``: a largest set found that can go together;
    - ``proven_largest``: whether no larger set can go together (proven within the budget).
    """

    puzzle: Puzzle
    status: Status
    givens: tuple[int, ...]
    rules: tuple[int, ...]
    together_givens: tuple[int, ...]
    together_rules: tuple[int, ...]
    proven_largest: bool
    stats: Stats = field(default_factory=Stats)

    @property
    def is_minimal(self) -> bool:
        """Unique, and no given or rule that was looked at can go (False on ``timeout``)."""
        return self.status == "unique" and not self.givens and not self.rules

    @property
    def reduced(self) -> Puzzle | None:
        """The puzzle without the largest set found, still unique (None for a puzzle that is
        not unique, or on ``timeout`` before any set was found)."""
        if self.status != "unique" and not (self.together_givens or self.together_rules):
            return None
        return _without(self.puzzle, self.together_givens, self.together_rules)

    def to_json(self) -> dict[str, Any]:
        size = self.puzzle.size
        rules = self.puzzle.variant.rules
        reduced = self.reduced
        return {
            "puzzle": self.puzzle.to_string(),
            "status": self.status,
            "minimal": self.is_minimal,
            "givens": [cell_name(c, size) for c in self.givens],
            "rules": [rules[i].describe(size) for i in self.rules],
            "together": {
                "givens": [cell_name(c, size) for c in self.together_givens],
                "rules": [rules[i].describe(size) for i in self.together_rules],
            },
            "proven_largest": self.proven_largest,
            "reduced": reduced.to_string() if reduced is not None else None,
            "stats": vars(self.stats),
        }


def redundant(
    puzzle: PuzzleLike,
    *,
    rules: bool = True,
    node_limit: int | None = None,
    timeout: float | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> Redundancy:
    """Which givens (and, with ``rules``, which constraint rules) of a unique puzzle can each go
    without losing uniqueness, and a largest set of them that can go together.

    ``node_limit`` and ``timeout`` bound the whole call (status ``timeout``, with what was
    found). Bad input raises a :class:`~shudu.errors.ShuduError`, as :func:`shudu.solve` does.
    """
    work = Search(node_limit, timeout)
    board = work.start(as_puzzle(puzzle, box=box, variant=variant))
    return _Finder(board, work, _flag(rules)).run()


def is_minimal(
    puzzle: PuzzleLike,
    *,
    rules: bool = True,
    node_limit: int | None = None,
    timeout: float | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> bool:
    """Whether the puzzle is unique and no given (and, with ``rules``, no constraint rule) can
    go without losing uniqueness. Raises :class:`~shudu.errors.SearchTimeout` when the budget
    runs out first."""
    work = Search(node_limit, timeout)
    board = work.start(as_puzzle(puzzle, box=box, variant=variant))
    return _Finder(board, work, _flag(rules)).minimal()


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise OptionError(f"rules must be True or False, not {value!r}", option="rules", value=value)
    return value


def _without(puzzle: Puzzle, givens: tuple[int, ...], rules: tuple[int, ...]) -> Puzzle:
    cells = list(puzzle.cells)
    for c in givens:
        cells[c] = 0
    return Puzzle.trusted(tuple(cells), _geometry_without(puzzle.geometry, rules))


def _geometry_without(geometry: Geometry, rules: tuple[int, ...] | frozenset[int]) -> Geometry:
    if not rules:
        return geometry
    variant = geometry.variant
    kept = tuple(rule for i, rule in enumerate(variant.rules) if i not in rules)
    return Geometry(geometry.size, geometry.box, replace(variant, rules=kept))


class _Finder:
    def __init__(self, puzzle: Puzzle, work: Search, with_rules: bool) -> None:
        self.puzzle, self.work = puzzle, work
        self.elements: list[Element] = [("given", c) for c, v in enumerate(puzzle.cells) if v]
        if with_rules:
            self.elements += [("rule", i) for i in range(len(puzzle.variant.rules))]

    def goes(self, removed: list[Element]) -> bool:
        """Whether the puzzle stays unique without the ``removed`` elements."""
        cells = list(self.puzzle.cells)
        rules = set()
        for kind, at in removed:
            if kind == "given":
                cells[at] = 0
            else:
                rules.add(at)
        geometry = _geometry_without(self.puzzle.geometry, frozenset(rules)) if rules else None
        return self.work.is_unique(cells, geometry)

    def minimal(self) -> bool:
        if not self.work.is_unique(self.puzzle.cells):
            return False
        return not any(self.goes([e]) for e in self.elements)

    def run(self) -> Redundancy:
        alone: list[Element] = []
        together: list[Element] = []
        proven = True
        status: Status
        try:
            found = self.work.solutions(self.puzzle.cells, 2)
            status = status_of_count(len(found))
            if status == "unique":
                for element in self.elements:
                    if self.goes([element]):
                        alone.append(element)
                self._greedy(alone, together)
                together, proven = self._largest(alone, together)
        except SearchTimeout:
            status = "timeout"
        return Redundancy(
            self.puzzle,
            status,
            tuple(at for kind, at in alone if kind == "given"),
            tuple(at for kind, at in alone if kind == "rule"),
            tuple(sorted(at for kind, at in together if kind == "given")),
            tuple(sorted(at for kind, at in together if kind == "rule")),
            proven and status != "timeout",
            self.work.stats,
        )

    def _greedy(self, alone: list[Element], removed: list[Element]) -> None:
        """Into ``removed``, each of ``alone`` in turn that can go with those before it."""
        for element in alone:
            if not removed or self.goes([*removed, element]):
                removed.append(element)

    def _largest(self, alone: list[Element], best: list[Element]) -> tuple[list[Element], bool]:
        """A largest set of ``alone`` that goes together, at least as large as ``best``, and
        whether it is proven largest: branch and bound, remembering every set found not to go
        (as bit masks over ``alone``), within :data:`LARGEST_CHECKS` checks."""
        blocked: list[int] = []
        best_mask = sum(1 << alone.index(e) for e in best)
        top = [best_mask.bit_count(), best_mask]
        count = len(alone)
        checks = [0]

        def search(i: int, mask: int) -> None:
            size = mask.bit_count()
            if size + count - i <= top[0]:
                return
            if i == count:
                top[0], top[1] = size, mask
                return
            grown = mask | 1 << i
            if not any(b & grown == b for b in blocked):
                checks[0] += 1
                if checks[0] > LARGEST_CHECKS:
                    raise _Enough
                if size == 0 or self.goes([alone[j] for j in range(count) if grown >> j & 1]):
                    search(i + 1, grown)
                else:
                    blocked.append(grown)
            search(i + 1, mask)

        proven = True
        try:
            search(0, 0)
        except _Enough:
            proven = False
        return [alone[j] for j in range(count) if top[1] >> j & 1], proven
