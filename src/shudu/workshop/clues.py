"""Make a puzzle unique with clues of a named kind instead of givens: white or black dots, X or
V, two-cell cage totals, and short lines: thermometers, arrows, whispers and renbans
(docs/workshop.md).

A clue between two cells next to each other, or on a short line (2 to :data:`LINE_CELLS` cells
in a row or a column), true of a solution S, rules out every other solution that breaks it.
The puzzle's solutions are listed (up to ``solution_limit``); for each of a few reference
solutions the clues true of it are the candidates, and the fewest of them that rule out every
other listed solution are found by a search over the solutions still left (branching on the
first one left, over the clues that rule it out; the greedy choice bounds it first). The set
is then checked with the solver, its rules added to the puzzle's: where the list was not every
solution, the check may find more, which join the list, and the set is chosen again. The
answer is proven fewest when every solution was listed, each was tried as the reference, and
every search ran to its end.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import OptionError, SearchTimeout, check_count
from ..formats import PuzzleLike, as_puzzle, to_json
from ..geometry import BoxLike
from ..puzzle import Puzzle
from ..rules import Rule
from ..rules.base import lookup as rule_type
from ..solvers.constraints import shape_of
from ..variants import VariantLike
from .search import Search

__all__ = ["KINDS", "LINE_KINDS", "PAIR_KINDS", "ClueResult", "unique_clues"]

#: The kinds of clue between two cells next to each other.
PAIR_KINDS = ("white-dot", "black-dot", "x", "v", "cage")
#: The kinds of clue on a short line of cells in a row or a column: a thermometer (the digits
#: rise from its bulb), an arrow (its circle at one end, the sum of the others), a whisper
#: (neighbours differ by at least half the size, rounded up: 5 on 9x9, German whispers) and a
#: renban (consecutive digits in any order).
LINE_KINDS = ("thermo", "arrow", "whisper", "renban")
#: The kinds of clue proposed.
KINDS = PAIR_KINDS + LINE_KINDS
#: The most cells of a line clue.
LINE_CELLS = 4
#: The most solutions listed before the search (more: the answer is the best found).
SOLUTION_LIMIT = 2000
#: The reference solutions tried, the first listed.
REFERENCES = 8
#: The search steps of one cover search before it gives its best so far.
COVER_NODES = 50_000
#: The checks with the solver for one reference solution.
ROUNDS = 20

ClueStatus = Literal["unique", "multiple", "none", "timeout"]
Solution = tuple[int, ...]


@dataclass(frozen=True)
class ClueResult:
    """What :func:`unique_clues` found.

    - ``status``: ``unique`` (``added`` makes the puzzle unique; nothing added when it was),
      ``multiple`` (no set of at most ``max_added`` clues of the kind was found), ``none`` (no
      solution), ``timeout`` (the budget ran out: ``added`` is the best set found, checked, or
      empty);
    - ``added``: the clues, as rules (``Rule("white-dot", (a, b))``, ``Rule("cage", (a, b),
      (total,))``); ``result``: the puzzle with them (None unless unique);
    - ``proven_minimal``: no fewer clues of the kind do; ``solutions``: how many the puzzle has
      (None: more than the listing limit).
    """

    puzzle: Puzzle
    kind: str
    status: ClueStatus
    added: tuple[Rule, ...]
    result: Puzzle | None
    proven_minimal: bool
    solutions: int | None

    def to_json(self) -> dict[str, Any]:
        size = self.puzzle.size
        return {
            "puzzle": self.puzzle.to_string(),
            "kind": self.kind,
            "status": self.status,
            "added": [rule.to_json(size) for rule in self.added],
            "proven_minimal": self.proven_minimal,
            "solutions": self.solutions,
            "result": None if self.result is None else to_json(self.result),
        }


def unique_clues(
    puzzle: PuzzleLike,
    kind: str = "white-dot",
    *,
    max_added: int | None = None,
    solution_limit: int = SOLUTION_LIMIT,
    node_limit: int | None = None,
    timeout: float | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> ClueResult:
    """The fewest clues of ``kind`` that make a puzzle with several solutions unique: one of
    :data:`PAIR_KINDS`, each between two cells next to each other (``white-dot``, ``black-dot``,
    ``x``, ``v``, ``cage``: a two-cell cage with its total), or of :data:`LINE_KINDS`, each on a
    line of 2 to :data:`LINE_CELLS` cells in a row or a column (``thermo``, ``arrow``: the
    circle at one end, ``whisper``: the gap half the size rounded up, ``renban``).
    ``node_limit`` and ``timeout`` bound the
    whole call as for :func:`~shudu.workshop.make_unique`. Bad input raises a
    :class:`~shudu.errors.ShuduError`."""
    if kind not in KINDS:
        raise OptionError(f"kind: {kind!r} is not one of {', '.join(KINDS)}", option="kind", value=kind)
    most = check_count(max_added, "max_added", minimum=1)
    listed = check_count(solution_limit, "solution_limit", minimum=2)
    assert listed is not None
    work = Search(node_limit, timeout)
    board = work.start(as_puzzle(puzzle, box=box, variant=variant))

    def answer(
        status: ClueStatus, added: Sequence[Rule] = (), proven: bool = False, count: int | None = None
    ) -> ClueResult:
        result = None
        if status == "unique" or (status == "timeout" and added):
            result = _with(board, added)
        return ClueResult(board, kind, status, tuple(added), result, proven, count)

    try:
        sols = work.solutions(board.cells, listed + 1)
    except SearchTimeout:
        return answer("timeout")
    complete = len(sols) <= listed
    count = len(sols) if complete else None
    if not sols:
        return answer("none", count=0)
    if len(sols) == 1:
        return answer("unique", proven=True, count=1)
    finder = _Finder(board, kind, work, most)
    try:
        best, exact = finder.run(sols)
    except SearchTimeout:
        if finder.best is None:
            return answer("timeout", count=count)
        return answer("timeout", finder.best, count=count)
    proven = complete and exact and len(sols) <= REFERENCES
    if best is None:
        return answer("multiple", proven=proven, count=count)
    return answer("unique", best, proven=proven, count=count)


def _with(puzzle: Puzzle, added: Sequence[Rule]) -> Puzzle:
    variant = puzzle.variant.with_rules(added, puzzle.size)
    return Puzzle(puzzle.cells, box=puzzle.geometry.box, variant=variant)


def pairs(size: int) -> list[tuple[int, int]]:
    """Every two cells next to each other (side by side or one above the other)."""
    out = []
    for cell in range(size * size):
        row, col = divmod(cell, size)
        if col + 1 < size:
            out.append((cell, cell + 1))
        if row + 1 < size:
            out.append((cell, cell + size))
    return out


def runs(size: int, longest: int = LINE_CELLS) -> list[tuple[int, ...]]:
    """Every line of 2 to ``longest`` cells in a row or a column, in reading order."""
    out = []
    for cell in range(size * size):
        row, col = divmod(cell, size)
        for length in range(2, longest + 1):
            if col + length <= size:
                out.append(tuple(range(cell, cell + length)))
            if row + length <= size:
                out.append(tuple(range(cell, cell + length * size, size)))
    return out


def places(kind: str, size: int) -> list[tuple[int, ...]]:
    """Where clues of ``kind`` may go: two cells next to each other, or a short line."""
    return list(pairs(size)) if kind in PAIR_KINDS else runs(size)


def whisper_gap(size: int) -> int:
    """The gap of a proposed whisper: half the size, rounded up (5 on 9x9)."""
    return (size + 1) // 2


def clue_of(kind: str, cells: tuple[int, ...], solution: Solution) -> Rule | None:
    """The clue of ``kind`` on ``cells`` that ``solution`` may keep (a cage's total, the
    direction of a thermometer, the end of an arrow's circle, from its digits), or None where
    no clue of the kind on these cells does. Whether it keeps it is for the rule to say."""
    digits = [solution[c] for c in cells]
    if kind == "cage":
        return Rule("cage", cells, (sum(digits),))
    if kind == "thermo":
        if all(a < b for a, b in itertools.pairwise(digits)):
            return Rule("thermo", cells)
        if all(a > b for a, b in itertools.pairwise(digits)):
            return Rule("thermo", cells[::-1])
        return None
    if kind == "arrow":
        if len(cells) > 2 and digits[0] == sum(digits[1:]):
            return Rule("arrow", cells)
        if len(cells) > 2 and digits[-1] == sum(digits[:-1]):
            return Rule("arrow", cells[::-1])
        return None
    if kind == "whisper":
        size = int(len(solution) ** 0.5)
        return Rule("whisper", cells, (whisper_gap(size),))
    return Rule(kind, cells)


class _Finder:
    def __init__(self, puzzle: Puzzle, kind: str, work: Search, most: int | None) -> None:
        self.puzzle, self.kind, self.work, self.most = puzzle, kind, work, most
        self.rtype = rule_type(kind)
        self.shape = shape_of(puzzle.geometry)
        taken = {frozenset(r.cells) for r in puzzle.variant.rules if r.kind == kind}
        self.places = [p for p in places(kind, puzzle.size) if frozenset(p) not in taken]
        self.best: list[Rule] | None = None

    def holds(self, rule: Rule, solution: Solution) -> bool:
        return self.rtype.check(rule, solution, self.shape)

    def run(self, sols: list[Solution]) -> tuple[list[Rule] | None, bool]:
        """The fewest clues found over the reference solutions, and whether every search ran
        to its end."""
        exact = True
        for ref in sols[:REFERENCES]:
            exact &= self.for_reference(ref, [s for s in sols if s != ref])
        return self.best, exact

    def for_reference(self, ref: Solution, others: list[Solution]) -> bool:
        made = (clue_of(self.kind, p, ref) for p in self.places)
        clues = [c for c in made if c is not None and self.holds(c, ref)]
        exact = True
        for _ in range(ROUNDS):
            kills = [sum(1 << i for i, s in enumerate(others) if not self.holds(c, s)) for c in clues]
            bound = len(self.best) - 1 if self.best is not None else None
            if self.most is not None:
                bound = self.most if bound is None else min(bound, self.most)
            chosen, done = _cover(kills, (1 << len(others)) - 1, bound)
            exact &= done
            if chosen is None:
                return exact
            added = [clues[i] for i in chosen]
            found = self.work.solutions(self.puzzle.cells, 2, _with(self.puzzle, added).geometry)
            more = [s for s in found if s != ref]
            if not more:
                self.best = added
                return exact
            others += [s for s in more if s not in others]
        return False


def _cover(kills: list[int], universe: int, bound: int | None) -> tuple[list[int] | None, bool]:
    """The fewest of ``kills`` (bit masks) whose union is ``universe``, at most ``bound`` of
    them (None: any number), and whether the search ran to its end (else: the best found)."""
    if universe and not any(k & universe for k in kills):
        return None, True
    greedy: list[int] = []
    left = universe
    while left:
        i = max(range(len(kills)), key=lambda j: (kills[j] & left).bit_count())
        if not kills[i] & left:
            return None, True  # a solution no clue rules out
        greedy.append(i)
        left &= ~kills[i]
    best: list[int] | None = greedy if bound is None or len(greedy) <= bound else None
    limit = len(greedy) - 1 if best is not None else bound
    assert limit is not None
    nodes = 0
    order = sorted(range(len(kills)), key=lambda j: -kills[j].bit_count())

    def search(left: int, chosen: list[int], limit: int) -> list[int] | None:
        nonlocal nodes
        nodes += 1
        if nodes > COVER_NODES:
            raise _Stop
        if not left:
            return list(chosen)
        if len(chosen) >= limit:
            return None
        low = left & -left
        for j in order:
            if kills[j] & low:
                chosen.append(j)
                found = search(left & ~kills[j], chosen, limit)
                chosen.pop()
                if found is not None:
                    return found
        return None

    try:
        while limit >= 1:
            found = search(universe, [], limit)
            if found is None:
                break
            best, limit = found, len(found) - 1
    except _Stop:
        return best, False
    return best, True


class _Stop(Exception):
    """The cover search ran out of steps."""
