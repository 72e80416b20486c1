"""Why a digit cannot go in a cell (docs/workshop.md): the shortest refutation the logic engine
gives, rated like a step.

Two refutations are sought on the board (the puzzle, the player's entries and pencil marks):

- **steps**: the simplest-first path from the board, walked until the candidate is gone (each
  round the easiest technique with a step; where that technique has a step that removes the
  candidate itself, that step), then shortened: each step in turn, from the last but one
  backwards, is left out when the steps after it still hold on the grid without it and still
  remove the candidate. A step that no longer holds as it was found is looked for again on the
  new grid (the same technique, doing at least what the grid still needs of it); a step with
  nothing left to do goes. What is left is a path no step of which can go.
- **contradiction**: the digit placed, and the singles followed until the grid breaks (a cell
  with no candidate, a digit with no place in a house): a forcing chain; where the singles do
  not break it, the singles with locked candidates and pairs: a forcing net. Shortened the same
  way, and rated as the engine rates a forcing chain or net contradiction of that length.

Shortening lists a technique's steps again for each step it tries on a new grid (stopping at
the first that does what the grid needs; a listing run to its end is kept for a grid in the
same state, and the engine's per-grid memory lasts the call); on the hardest
puzzles, whose refutations run to dozens of chains, it stops after :data:`SHORTEN_LISTINGS`
listings of techniques other than the singles and keeps what it has (still a refutation, each
step holding where it is).

The answer is the one rated lower (the hardest step of the path against the chain), then the
shorter. Every step is the logic engine's own, found on the grid it is applied to, so each
refutation holds in every solution that fits the board; a digit some solution has is said to
be possible, with that solution, and never refuted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import OptionError, SearchTimeout, VariantError, check_count, check_seconds
from ..formats import PuzzleLike
from ..geometry import BoxLike
from ..logic import CandidateGrid, LogicTimeout, Step, checkpoint, limits, lookup, next_step
from ..logic.allsteps import list_steps, select
from ..logic.engine.board import Board, parse_board
from ..logic.engine.memo import memo_scope
from ..logic.table import rating_of, se_rating, techniques
from ..notation import LEVELS, cell_name, char_digit, digit_char, digit_range
from ..puzzle import Puzzle
from ..solvers.base import Budget
from ..solvers.constraints import solutions_from
from ..variants import VariantLike, parse_cell

__all__ = ["WhyNot", "why_not"]

WhyNotStatus = Literal["refuted", "eliminated", "placed", "possible", "none", "not-found", "timeout"]
Method = Literal["steps", "contradiction", ""]
Candidate = tuple[int, int]

#: The singles, whose steps are checked on a grid without a search.
SINGLES = frozenset({"Full house", "Naked single", "Hidden single"})
#: The techniques a forcing net follows beside the singles.
NET = frozenset({"Locked candidates (pointing)", "Locked candidates (claiming)", "Naked pair", "Hidden pair"})
#: The forms a contradiction is rated as: followed by singles alone, and with :data:`NET` too.
CHAIN, NET_CHAIN = "Forcing Chain Contradiction", "Forcing Net Contradiction"
#: The listings of techniques other than the singles that shortening one refutation may take.
SHORTEN_LISTINGS = 150


@dataclass(frozen=True)
class WhyNot:
    """What :func:`why_not` found.

    - ``status``: ``refuted`` (``steps`` remove the candidate), ``eliminated`` (it is not a
      candidate on the board: ``reason`` says why), ``placed`` (the cell already holds the digit),
      ``possible`` (a solution that fits the board has it: ``solution``), ``none`` (no solution
      fits the board, so nothing is possible), ``not-found`` (no solution has it, but the logic
      engine found no refutation), ``timeout`` (the budget ran out; a refutation found by then
      is kept, perhaps not the shortest);
    - ``reason``: the answer in one line;
    - ``method``: ``steps`` (a path from the board that removes the candidate) or
      ``contradiction`` (the digit placed, the singles that follow, and where they are not
      enough locked candidates and pairs, break the grid);
    - ``steps``: that refutation's steps, each the logic engine's, in order; on ``steps`` the
      last one removes the candidate, on ``contradiction`` the last one breaks the grid;
    - ``step``: the refutation rated as one step: the hardest of a path, or the forcing chain
      of a contradiction (``level`` and ``se`` are its ratings);
    - ``contradiction``: the contradiction's steps when one was found beside a path;
    - ``broken``: how the grid breaks after the contradiction's last step;
    - ``solution``: on ``possible``, a solution with the digit in the cell.
    """

    puzzle: Puzzle
    cell: int
    digit: int
    status: WhyNotStatus
    reason: str
    method: Method = ""
    steps: tuple[Step, ...] = ()
    step: Step | None = None
    contradiction: tuple[Step, ...] = ()
    broken: str = ""
    solution: tuple[int, ...] | None = None

    @property
    def level(self) -> str | None:
        """HoDoKu's level of the refutation (that of :attr:`step`)."""
        return None if self.step is None else rating_of(self.step)[0]

    @property
    def se(self) -> float | None:
        """The refutation's rating on Sudoku Explainer's scale (that of :attr:`step`)."""
        return None if self.step is None else se_rating(self.step)

    def __str__(self) -> str:
        lines = [self.reason]
        width = len(str(len(self.steps)))
        if self.method == "contradiction":
            name = cell_name(self.cell, self.puzzle.size)
            lines.append(f"  if {name} were {digit_char(self.digit)}:")
        for i, step in enumerate(self.steps, start=1):
            lines.append(f"  {i:>{width}}. {step.explanation}")
        if self.method == "contradiction":
            lines.append(f"  then {self.broken}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        size = self.puzzle.size
        return {
            "puzzle": self.puzzle.to_string(),
            "cell": cell_name(self.cell, size),
            "digit": self.digit,
            "status": self.status,
            "reason": self.reason,
            "method": self.method or None,
            "level": self.level,
            "se": self.se,
            "step": None if self.step is None else self.step.to_json(),
            "steps": [step.to_json() for step in self.steps],
            "broken": self.broken or None,
            "contradiction": [step.to_json() for step in self.contradiction],
            "solution": None if self.solution is None else "".join(digit_char(d) for d in self.solution),
        }


def why_not(
    board: PuzzleLike | Board | Mapping[str, Any],
    cell: int | str,
    digit: int | str,
    *,
    contradiction: bool = True,
    node_limit: int | None = None,
    timeout: float | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> WhyNot:
    """Why ``digit`` cannot go in ``cell`` on ``board``: the shortest refutation the logic engine
    gives, its easiest techniques first, or the solution that shows the digit possible.

    ``board`` is a puzzle or a player's board (anything :func:`shudu.parse_board` reads: JSON
    with ``entries`` and ``pencil``, a candidate grid, a HoDoKu library line); ``cell`` an index
    or a name (``"r4c5"``), ``digit`` an int or its character. ``contradiction`` also looks for a
    forcing chain or net (the digit placed, the singles, locked candidates and pairs that follow
    break the grid). ``node_limit`` bounds the
    logic engine's work, ``timeout`` the whole call; past either the status is ``timeout``, with
    a refutation found by then if any. Puzzles with constraint rules are read by the logic
    engine's rule techniques. Bad input raises a :class:`~shudu.errors.ShuduError`.
    """
    nodes = check_count(node_limit, "node_limit", minimum=1)
    seconds = check_seconds(timeout, "timeout")
    deadline = None if seconds is None else time.monotonic() + seconds
    parsed = parse_board(board, box=box, variant=variant)
    puzzle = parsed.puzzle
    target = (candidate_cell(cell, puzzle.size), candidate_digit(digit, puzzle.size))
    where, d = target
    name = cell_name(where, puzzle.size)
    grid = parsed.grid()

    def answer(status: WhyNotStatus, reason: str, **fields: Any) -> WhyNot:
        return WhyNot(puzzle, where, d, status, reason, **fields)

    held = grid.values[where]
    if held:
        if held == d:
            return answer("placed", f"{name} holds {digit_char(d)}")
        return answer("eliminated", f"{name} cannot be {digit_char(d)}: it holds {digit_char(held)}")
    if not grid.has(where, d):
        return answer(
            "eliminated",
            f"{name} cannot be {digit_char(d)}: {_seen(grid, target, parsed.candidates is not None)}",
        )
    try:
        solution = _solution_with(grid, target, deadline)
        if solution is not None:
            return answer("possible", f"{name} can be {digit_char(d)}: a solution has it", solution=solution)
        if _solution_with(grid, None, deadline) is None:
            return answer("none", f"no solution fits the board, so {name} cannot be {digit_char(d)}")
    except SearchTimeout:
        return answer("timeout", "timeout before the digit was settled")
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    refuter = _Refuter(grid, target)
    with limits(left, nodes), memo_scope():
        try:
            refuter.unique = parsed.is_unique()
            refuter.run(contradiction)
        except LogicTimeout:
            refuter.timed_out = True
    return refuter.result(answer)


def candidate_cell(cell: object, size: int) -> int:
    """A cell index from an index or an ``r1c2`` name, or an OptionError saying what is wrong."""
    ref = cell.strip() if isinstance(cell, str) else cell
    if isinstance(ref, str) and ref.isdigit():
        ref = int(ref)  # an index, as the command line gives it
    try:
        return parse_cell(ref, size)
    except VariantError as exc:
        raise OptionError(str(exc), option="cell", value=cell) from None


def candidate_digit(digit: object, size: int) -> int:
    """A digit from an int or its character, or an OptionError saying what is wrong."""
    value: int | None = None
    if isinstance(digit, int) and not isinstance(digit, bool):
        value = digit
    elif isinstance(digit, str) and len(digit.strip()) == 1:
        value = char_digit(digit.strip(), size)
    elif isinstance(digit, str) and digit.strip().isdigit():
        value = int(digit.strip())
    if value is None or not 1 <= value <= size:
        raise OptionError(
            f"digit: {digit!r} is not a digit of {digit_range(size)}", option="digit", value=digit
        )
    return value


def _seen(grid: CandidateGrid, target: Candidate, marks: bool) -> str:
    """Why ``target`` is no candidate of an open cell: a peer holds the digit, or the marks
    (``marks``: the board has pencil marks)."""
    cell, d = target
    geo = grid.geometry
    for peer in sorted(geo.peers[cell]):
        if grid.values[peer] == d:
            shared = set(geo.cell_houses[cell]) & set(geo.cell_houses[peer])
            where = f" in {geo.houses[min(shared)].name}" if shared else ", which it sees"
            return f"{grid.name(peer)} holds {digit_char(d)}{where}"
    for rule in geo.variant.rules:  # a rule whose cells may not repeat a digit (a killer cage)
        if cell in rule.cells:
            for other in rule.cells:
                if other != cell and grid.values[other] == d:
                    return f"{grid.name(other)} holds {digit_char(d)} in the {rule.describe(grid.size)}"
    if marks:
        return f"the pencil marks of {grid.name(cell)} leave {digit_char(d)} out"
    return f"the puzzle's rules leave {digit_char(d)} no place in {grid.name(cell)}"


def _solution_with(
    grid: CandidateGrid, target: Candidate | None, deadline: float | None
) -> tuple[int, ...] | None:
    """A solution that fits the board's grid (and has ``target``, when given), or None."""
    domains = [1 << (v - 1) if v else m for v, m in zip(grid.values, grid.cands, strict=True)]
    if target is not None:
        domains[target[0]] = 1 << (target[1] - 1)
    if not all(domains):
        return None
    if deadline is not None and time.monotonic() >= deadline:
        raise SearchTimeout("time limit reached")
    return next(solutions_from(grid.geometry, domains, budget=Budget(None, deadline)), None)


def gone(grid: CandidateGrid, target: Candidate) -> bool:
    """Whether ``target`` is no longer a candidate of ``grid`` (its cell filled or the digit out)."""
    cell, d = target
    return bool(grid.values[cell]) or not grid.has(cell, d)


def broken(grid: CandidateGrid) -> str:
    """How ``grid`` has gone wrong, in words ("" when it has not, as far as it shows)."""
    geo = grid.geometry
    for cell in range(len(grid.values)):
        if not grid.values[cell] and not grid.cands[cell]:
            return f"{grid.name(cell)} has no candidate left"
    for house in geo.houses:
        for d in range(1, grid.size + 1):
            if not any(grid.values[c] == d or (not grid.values[c] and grid.has(c, d)) for c in house.cells):
                return f"{digit_char(d)} has no place left in {house.name}"
    return ""


def _cost(step: Step) -> tuple[int, float, int]:
    """How hard a step is: its level, its Sudoku Explainer rating, its length."""
    return LEVELS.index(rating_of(step)[0]), se_rating(step), step.length


def hardest(steps: Sequence[Step]) -> Step:
    """The hardest of ``steps`` (the first of those tied)."""
    return max(steps, key=_cost)


class Shortener:
    """Shortens paths of the logic engine's steps on ``grid``'s geometry (see the module's
    docstring): the part of the refutation that does not depend on what is refuted.
    ``unique`` lets the uniqueness techniques be listed (only on a puzzle with one solution)."""

    def __init__(self, grid: CandidateGrid, *, unique: bool = False) -> None:
        self.grid = grid
        self.unique = unique
        #: The listings of techniques other than the singles so far (see :data:`SHORTEN_LISTINGS`).
        self.listings = 0
        #: Each listing run to its end, by technique, values and candidates (the grid's state).
        self.listed: dict[tuple[str, tuple[int, ...], tuple[int, ...]], list[Step]] = {}
        geo = grid.geometry
        self.house_of = {house.name: h for h, house in enumerate(geo.houses)}

    def steps_of(self, grid: CandidateGrid, technique: str) -> Iterator[Step]:
        """Every step of ``technique`` on ``grid``, lazily, one per effect (LogicTimeout past
        the limits): a caller that has what it needs stops the listing there. A listing run to
        its end is kept and given again on a grid in the same state."""
        key = (technique, tuple(grid.values), tuple(grid.cands))
        known = self.listed.get(key)
        if known is not None:
            yield from known
            return
        self.listings += 1
        found: list[Step] = []
        for step in list_steps(grid, select(technique), uniqueness=self.unique):
            found.append(step)
            yield step
        self.listed[key] = found

    def listing(self, grid: CandidateGrid, technique: str) -> list[Step]:
        """Every step of ``technique`` on ``grid`` (LogicTimeout past the limits)."""
        return list(self.steps_of(grid, technique))

    # --- shortening ----------------------------------------------------------------------------

    def shorten(
        self, start: CandidateGrid, path: list[Step], done: Callable[[CandidateGrid], bool]
    ) -> list[Step]:
        """``path`` without every step that can go (see the module's docstring): each in turn,
        the last but one first, is left out where the rest still holds and still gets ``done``."""
        kept = list(path)
        cap = self.listings + SHORTEN_LISTINGS
        before = [start.copy()]  # the grid before each step of ``kept``
        for step in kept[:-1]:
            grid = before[-1].copy()
            grid.apply(step)
            before.append(grid)
        i = len(kept) - 2
        while i >= 0 and self.listings < cap:
            checkpoint()
            rest = self.replay(before[i], kept[i + 1 :], done)
            if rest is not None:
                kept = kept[:i] + rest
                before = before[: i + 1]
                for step in rest[:-1]:
                    grid = before[-1].copy()
                    grid.apply(step)
                    before.append(grid)
            i = min(i - 1, len(kept) - 2)
        return kept

    def replay(
        self, start: CandidateGrid, steps: list[Step], done: Callable[[CandidateGrid], bool]
    ) -> list[Step] | None:
        """``steps`` carried out from ``start``, each as it holds there (None: one does not, or
        they do not get ``done``); steps with nothing left to do are left out."""
        grid = start.copy()
        out: list[Step] = []
        for step in steps:
            if done(grid):
                break
            held = self.holds(grid, step)
            if held is None:
                return None
            for one in held:
                grid.apply(one)
                out.append(one)
        return out if done(grid) and out else None

    def holds(self, grid: CandidateGrid, step: Step) -> list[Step] | None:
        """``[step]`` if it holds on ``grid`` as it was found, else a step of its technique found
        there that does all ``grid`` still needs of it; ``[]`` when it has nothing left to do;
        None when neither."""
        places = []
        for c, d in step.placements:
            if grid.values[c]:
                if grid.values[c] != d:
                    return None
            elif grid.has(c, d):
                places.append((c, d))
            else:
                return None
        removes = [(c, d) for c, d in step.eliminations if not grid.values[c] and grid.has(c, d)]
        if not places and not removes:
            return []
        name = step.technique.name
        if name in SINGLES and len(places) == 1 and not removes:
            return [step] if self.single_holds(grid, step, *places[0]) else None
        for found in self.steps_of(grid, name):
            if set(places) <= set(found.placements) and set(removes) <= set(found.eliminations):
                return [found]
        return None

    def single_holds(self, grid: CandidateGrid, step: Step, cell: int, d: int) -> bool:
        """Whether the single ``step`` (``cell`` = ``d``) holds on ``grid`` as it says."""
        bit = 1 << (d - 1)
        if step.technique.name == "Naked single":
            return grid.cands[cell] == bit
        geo = grid.geometry
        houses = [self.house_of[h] for h in step.houses if h in self.house_of] or list(geo.cell_houses[cell])
        for h in houses:
            others = [c for c in geo.houses[h].cells if c != cell]
            if step.technique.name == "Full house":
                if all(grid.values[c] for c in others):
                    return True
            elif not any((not grid.values[c] and grid.has(c, d)) or grid.values[c] == d for c in others):
                return True
        return False


class _Refuter(Shortener):
    """The search for a refutation of ``target`` from ``grid`` (left as it is)."""

    def __init__(self, grid: CandidateGrid, target: Candidate) -> None:
        super().__init__(grid)
        self.target = target
        self.timed_out = False
        self.path: list[Step] | None = None
        self.chain: list[Step] | None = None
        self.chain_start: CandidateGrid | None = None

    def run(self, contradiction: bool) -> None:
        target = self.target
        path = self.walk()
        if path is not None:
            self.path = path  # a refutation, kept while it is shortened
            self.path = self.shorten(self.grid, path, lambda g: gone(g, target))
        if contradiction:
            start = self.grid.copy()
            start.place(*target)
            self.chain_start = start
            chain = self.follow(start, SINGLES) or self.follow(start, SINGLES | NET)
            if chain is not None:
                self.chain = chain
                self.chain = self.shorten(start, chain, lambda g: bool(broken(g)))

    # --- finding -------------------------------------------------------------------------------

    def walk(self) -> list[Step] | None:
        """The simplest-first path from the board until the candidate is gone (None: the path
        stops first). Where a round's technique has a step that removes it, that step is taken."""
        grid = self.grid.copy()
        order = techniques(uniqueness=self.unique)
        path: list[Step] = []
        while not gone(grid, self.target):
            step = next_step(grid, order)
            if step is None:
                return None
            if step.technique.name not in SINGLES:
                hits = [s for s in self.listing(grid, step.technique.name) if self.removes(grid, s)]
                if hits:
                    step = min(hits, key=_cost)
            grid.apply(step)
            path.append(step)
        if grid.values[self.target[0]] == self.target[1]:
            return None  # the path placed the digit: no refutation (a solution has it)
        return path

    def follow(self, grid: CandidateGrid, names: frozenset[str]) -> list[Step] | None:
        """The steps of the techniques ``names`` from ``grid`` (the digit placed), easiest first,
        until the grid breaks (None: it does not)."""
        grid = grid.copy()
        order = tuple(f for f in techniques() if f.technique.name in names)
        chain: list[Step] = []
        while not broken(grid):
            step = next_step(grid, order)
            if step is None:
                return None
            grid.apply(step)
            chain.append(step)
        return chain

    def removes(self, grid: CandidateGrid, step: Step) -> bool:
        trial = grid.copy()
        trial.apply(step)
        return gone(trial, self.target)

    # --- the answer ----------------------------------------------------------------------------

    def chain_step(self) -> Step | None:
        """The contradiction as one step, rated as the forcing chain it is."""
        if self.chain is None or self.chain_start is None:
            return None
        cell, d = self.target
        grid = self.grid
        end = self.chain_start.copy()
        for step in self.chain:
            end.apply(step)
        net = any(step.technique.name not in SINGLES for step in self.chain)
        found = lookup(NET_CHAIN if net else CHAIN)
        assert found is not None
        said = ", ".join(
            f"{grid.name(c)} = {digit_char(v)}" for step in self.chain for c, v in step.placements
        )
        then = f"then {said}, and " if said else ""
        text = (
            f"{found.name}: if {grid.name(cell)} were {digit_char(d)}, {then}{broken(end)}, "
            f"so {grid.name(cell)} <> {digit_char(d)}"
        )
        return Step(
            technique=found.technique,
            name=found.name,
            explanation=text,
            size=grid.size,
            eliminations=((cell, d),),
            cells=(cell,),
            digits=(d,),
            length=len(self.chain) + 1,
        )

    def result(self, answer: Callable[..., WhyNot]) -> WhyNot:
        cell, d = self.target
        name, char = self.grid.name(cell), digit_char(d)
        chain = self.chain_step()
        options: list[tuple[tuple[int, float, int], Method, Step, list[Step]]] = []
        if self.path:
            top = hardest(self.path)
            options.append(((*_cost(top)[:2], len(self.path)), "steps", top, self.path))
        if chain is not None and self.chain is not None:
            options.append(((*_cost(chain)[:2], len(self.chain)), "contradiction", chain, self.chain))
        if not options:
            if self.timed_out:
                return answer("timeout", "timeout before a refutation was found")
            return answer(
                "not-found",
                f"no solution has {char} in {name}, but the logic engine finds no refutation",
            )
        _, method, step, steps = min(options, key=lambda option: option[0])
        if method == "steps":
            how = f"{len(steps)} step{'s' * (len(steps) != 1)}, the hardest {step.name}"
        else:
            after = f"after {len(steps)} step{'s' * (len(steps) != 1)}" if steps else "at once"
            how = f"placing it breaks the grid {after}"
        end = ""
        if method == "contradiction" and self.chain_start is not None:
            grid = self.chain_start.copy()
            for one in steps:
                grid.apply(one)
            end = broken(grid)
        status: WhyNotStatus = "timeout" if self.timed_out else "refuted"
        rated = f"{rating_of(step)[0]}, SE {se_rating(step):.1f}"
        return answer(
            status,
            f"{name} cannot be {char}: {how} ({rated})",
            method=method,
            steps=tuple(steps),
            step=step,
            contradiction=tuple(self.chain or ()) if method == "steps" else (),
            broken=end,
        )
