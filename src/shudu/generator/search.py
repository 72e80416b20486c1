"""The search for one puzzle: grid, dig, then difficulty by construction and verification.

1. A random grid (:mod:`.grids`) and one random dig down to a minimal puzzle (:mod:`.dig`),
   kept as a path of ever fewer givens.
2. No difficulty asked: the end of the path (or the point with the asked clue count).
3. A difficulty asked: every candidate is rated with :func:`shudu.rate` and only a puzzle whose
   rating lies in the window is returned. The path is used first, since puzzles grow harder as
   givens go: for easy and medium, start at the last point the fast core solves without a guess
   (such puzzles need no more than singles and intersections) and walk on; for harder levels,
   rate the end and, when it is too hard, bisect back along the path.
4. When the end of the path is too easy, a local search takes over: it trades one or two
   givens (orbits) for one or two others, keeps the trades that stay unique, digs them down to
   minimal puzzles again and moves to the one rated closest to the window. Hard puzzles sit
   close to other hard puzzles, so this finds rare levels far sooner than fresh draws.

See docs/generator.md.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..formats import to_json
from ..geometry import Geometry
from ..notation import LEVELS
from ..puzzle import Grid, Puzzle
from ..variants import get as get_variant
from .dig import Path, dig, removable
from .drawn import DRAWERS
from .grading import Grade, RatingOutOfTime, full_rating, grade, top_grade
from .grids import SEEDED_SIZE, GridFailed, grow_around, grow_layout, random_grid, start_layout
from .request import Plan
from .symmetry import orbits
from .uniqueness import DIGIT_BYTES, EMPTY, Checker, OutOfTime, text_cells

#: Trades tried at once by the local search, and how many of the unique ones it rates.
NEIGHBOURS, RATED_PER_ROUND = 32, 3
#: How far past the no-guess point a search for an easy or medium 9x9 puzzle looks (further
#: points are often much harder, and rating those costs more than a fresh grid).
LOW_WALK = 0
#: Rounds without progress before the local search starts again from a fresh puzzle.
PATIENCE = 12
#: From this size on, a dig stops this many removals (times the size) past its no-guess point,
#: and further for the hardest levels, instead of going on to a minimal puzzle: proving each
#: later removal unique costs the core more and more, and the levels below unfair lie close
#: to the no-guess point.
LARGE, BEYOND, BEYOND_HIGH = 20, 1, 4
#: From LARGE on, a dig also stops after this many refused removals in a row (times the size):
#: deep in a large dig most removals run past the check's budget, and each such check costs
#: the most a check can.
PATIENCE_LARGE = 1
#: Node budgets of the digger's checks, per cell: small and large grids, and the no-guess pass
#: (small grids per cell, large grids in all: a puzzle solved without a guess takes one node,
#: and the few more let most second solutions show, so the budget is what a refusal costs).
DIG_NODES, DIG_NODES_LARGE, CALM_NODES, CALM_NODES_LARGE = 400, 10, 8, 64
#: Rule sets whose candidates are rated within a budget of work, by grid size, in
#: :func:`shudu.rate`'s ``node_limit`` units (past it: too hard; the puzzle kept gets twice as
#: much). A sandwich's few givens leave long rule forcing chains to the rater, which can take
#: minutes, so its ratings are bounded as a killer's are (a budget of work, not of seconds, so
#: that a seed makes the same puzzle on any machine).
RULE_RATE_NODES: dict[str, dict[int, int]] = {"sandwich": {4: 5_000, 6: 10_000, 8: 10_000, 9: 10_000}}


@dataclass(frozen=True)
class Generated:
    """One generated puzzle with its solution, its rating (when rated) and the seed that makes it.

    ``generate(seed=result.seed, …)`` with the same options makes the same puzzle again.
    """

    puzzle: Puzzle
    solution: Grid
    seed: int
    level: str | None = None
    se: float | None = None
    hardest: str | None = None
    score: int | None = None

    @property
    def clues(self) -> int:
        return self.puzzle.clues

    def to_json(self) -> dict[str, Any]:
        """The puzzle's JSON form (:func:`shudu.formats.to_json`: ``size``, ``box``, the variant
        fields, ``givens``) followed by ``solution``, ``level``, ``se``, ``hardest``, ``clues`` and
        ``seed``. The record reads back as a puzzle with :func:`shudu.formats.parse_json`."""
        return {
            **to_json(self.puzzle),
            "solution": self.solution.to_string(),
            "level": self.level,
            "se": self.se,
            "hardest": self.hardest,
            "clues": self.clues,
            "seed": self.seed,
        }

    def __str__(self) -> str:
        return self.puzzle.to_string()


@dataclass
class Progress:
    """What a search has done so far, for progress reports and timeout messages."""

    grids: int = 0
    rated: int = 0
    #: The rated candidate closest to the window so far: (gap, level, SE or None when only
    #: its level was worked out).
    closest: tuple[float, str, float | None] | None = None
    rating_seconds: float = 0.0
    listeners: list[Callable[[Progress], None]] = field(default_factory=list)

    def tell(self) -> None:
        for listener in self.listeners:
            listener(self)

    def rated_one(self, rating: Any, gap: float) -> None:
        """Count a finished rating, ``gap`` from the window, keep the closest so far, and tell."""
        self.rated += 1
        if self.closest is None or gap < self.closest[0]:
            self.closest = (gap, rating.level, rating.se)
        self.tell()


class Search:
    """Makes puzzles for one request; :meth:`one` makes one from a seed."""

    def __init__(self, request: Plan, progress: Progress | None = None) -> None:
        self.request = request
        self.orbits = orbits(request.symmetry, request.size)
        self.progress = progress or Progress()
        self._checkers: dict[Geometry, tuple[Checker, Checker, Checker]] = {}
        #: The deadline of the puzzle being made, which every check keeps to (None: none).
        self._deadline: float | None = None
        #: The budget of work of a candidate's rating (None: none; see RULE_RATE_NODES).
        budgets = RULE_RATE_NODES.get(request.rules or "")
        self.rate_nodes = None if budgets is None else budgets.get(request.size, 10_000)

    def checkers(self, geometry: Geometry) -> tuple[Checker, Checker, Checker]:
        """(filler, digger, calm digger): node budgets cut the rare searches that run long; on
        large grids the digger's is smaller (a removal whose proof runs past it is refused, so
        a puzzle is still only kept when proven unique), and the no-guess pass needs little."""
        found = self._checkers.get(geometry)
        if found is None:
            nc = geometry.ncells
            large = geometry.size >= LARGE
            found = (
                Checker(geometry, 40 * nc),
                Checker(geometry, (DIG_NODES_LARGE if large else DIG_NODES) * nc),
                Checker(geometry, CALM_NODES_LARGE if large else CALM_NODES * nc),
            )
            if len(self._checkers) > 16:
                self._checkers.clear()
            self._checkers[geometry] = found
        for checker in found:
            checker.deadline = self._deadline
        return found

    # --- one puzzle ---------------------------------------------------------------------------

    def one(self, seed: int, deadline: float | None) -> Generated:
        rng = random.Random(seed)
        self._deadline = deadline
        while True:
            self._check_time(deadline)
            found = self._attempt(rng, deadline)
            if found is None:
                continue
            text, solution, geometry, rating = found
            if isinstance(rating, Grade):
                # only the level was worked out: the puzzle kept carries shudu.rate's full rating
                rating = self._full(text, geometry, deadline)
                if rating is None or not self.request.target.matches(rating):
                    continue  # (past the kept puzzle's budget of work: draw again)
            return self._result(text, solution, geometry, rating, seed)

    def _attempt(self, rng: random.Random, deadline: float | None) -> Any:
        try:
            geometry, solution = self._grid(rng)
        except GridFailed:
            return None
        _, digger, calm_digger = self.checkers(geometry)
        self.progress.grids += 1
        low = self.request.clues[0] if self.request.clues else 0
        path = dig(
            solution,
            self.orbits,
            rng,
            digger,
            floor=low,
            calm=self.request.target.rated,
            beyond=self._beyond(geometry),
            calm_checker=calm_digger,
            patience=self._patience(geometry),
        )
        steps = self._allowed(path)
        if not steps:
            return None
        if self.request.minimal:
            steps = [steps[-1]]
            if not self._is_minimal(path.puzzle(), digger):
                return None
        target = self.request.target
        if not target.rated:
            text = path.puzzle(self._pick_clues(path, steps, rng))
            rating = self._full(text, geometry, deadline) if self.request.rate else None
            return text, solution, geometry, rating
        return self._difficulty(path, steps, geometry, rng, deadline)

    def _grid(self, rng: random.Random) -> tuple[Geometry, bytes]:
        """The geometry (a random layout when none was asked) and a random grid on it."""
        size = self.request.size
        if self.request.rules is not None:
            # the grid first, then rules that it keeps (see .drawn)
            base = self.request.geometry
            assert base is not None
            grid = random_grid(base, rng, self.checkers(base)[0], tries=10)
            rules = DRAWERS[self.request.rules](text_cells(grid), size, rng)
            return Geometry(size, base.box, self.request.variant.with_rules(rules, size)), grid
        if self.request.geometry is not None:
            geometry = self.request.geometry
        elif size < SEEDED_SIZE or start_layout(size) == tuple(c // size for c in range(size * size)):
            geometry = self._jigsaw(grow_layout(size, rng))  # (a size with no box shape starts from rows)
        else:  # fill first, then grow the layout around the grid (see .grids)
            start = self._jigsaw(start_layout(size))
            grid = random_grid(start, rng, self.checkers(start)[0], tries=10)
            return self._jigsaw(grow_around(grid, size, rng)), grid
        return geometry, random_grid(geometry, rng, self.checkers(geometry)[0], tries=10)

    def _jigsaw(self, layout: tuple[int, ...]) -> Geometry:
        variant = get_variant("jigsaw", self.request.size, layout=layout)
        if not self.request.variant.is_standard:
            variant = self.request.variant.combine(variant)
        return Geometry(self.request.size, None, variant)

    def _beyond(self, geometry: Geometry) -> int | None:
        """How far a dig goes past its no-guess point (None: on to a minimal puzzle)."""
        if geometry.size < LARGE or self.request.minimal:
            return None
        return geometry.size * (BEYOND_HIGH if self.request.target.reach == "high" else BEYOND)

    def _patience(self, geometry: Geometry) -> int | None:
        """After how many refused removals in a row a dig stops (None: it tries every given)."""
        if geometry.size < LARGE or self.request.minimal:
            return None
        return geometry.size * PATIENCE_LARGE

    def _allowed(self, path: Path) -> list[int]:
        """The points of the path whose clue count the request allows."""
        counts = [len(path.solution)]
        for orbit in path.removed:
            counts.append(counts[-1] - len(orbit))
        low, high = self.request.clues or (0, len(path.solution))
        return [k for k, c in enumerate(counts) if low <= c <= high]

    def _pick_clues(self, path: Path, steps: list[int], rng: random.Random) -> int:
        if self.request.clues is None or len(steps) == 1:
            return steps[-1]
        wanted = rng.randint(path.clues(steps[-1]), path.clues(steps[0]))
        return next(k for k in steps if path.clues(k) <= wanted)

    def _is_minimal(self, text: bytes | bytearray, checker: Checker) -> bool:
        return removable(text, checker) == []

    # --- difficulty ---------------------------------------------------------------------------

    def _difficulty(
        self, path: Path, steps: list[int], geometry: Geometry, rng: random.Random, deadline: float | None
    ) -> Any:
        target = self.request.target
        calm = path.calm if path.calm is not None else steps[-1]
        at_calm = max((i for i, k in enumerate(steps) if k <= calm), default=0)
        rated: dict[int, Any] = {}

        def rate_at(i: int) -> Any:
            self._check_time(deadline)
            if i not in rated:
                rated[i] = self._rate(path.puzzle(steps[i]), geometry, deadline)
            return rated[i]

        def hit(i: int) -> Any:
            return path.puzzle(steps[i]), path.solution, geometry, rated[i]

        def walk(first: int, most: int | None = None) -> Any:
            """Rate deeper and deeper points until one matches or one is too hard."""
            for i in range(first, len(steps) if most is None else min(len(steps), first + most)):
                r = rate_at(i)
                if self._matches(r):
                    return hit(i)
                if self._direction(r) > 0:
                    return None
            return None

        def bisect(low: int, high: int) -> Any:
            """Between a point not too hard (``low``) and a too hard one (``high``)."""
            while high - low > 1:
                mid = (low + high) // 2
                r = rate_at(mid)
                if self._matches(r):
                    return hit(mid)
                if self._direction(r) <= 0:
                    low = mid
                else:
                    high = mid
            return hit(low) if self._matches(rate_at(low)) else None

        reach = target.reach
        if len(steps) == 1:
            r = rate_at(0)
            if self._matches(r):
                return hit(0)
            if self._direction(r) < 0 and reach == "high":
                return self._climb(path.puzzle(steps[0]), path.solution, r, geometry, rng, deadline)
            return None
        if reach == "middle" and path.calm == len(path.removed):
            return None  # solved without a guess down to the end: too easy, draw again
        if reach == "low":
            r = rate_at(at_calm)
            if self._matches(r):
                return hit(at_calm)
            if self._direction(r) > 0:
                return bisect(0, at_calm) if at_calm else None
            # the 9x9 engine's no-guess pass already covers intersections, so medium sits at
            # the calm point; elsewhere it covers singles only, and medium lies beyond it
            standard9 = geometry.size == 9 and geometry.box == (3, 3) and geometry.variant.is_standard
            return walk(at_calm + 1, LOW_WALK if standard9 else None)
        if self.rate_nodes is not None and at_calm:
            # the fast core's no-guess pass follows these rules further than the rater's steps
            # do (a sandwich's rule contradictions): the no-guess point may be in the window
            # already, or past it, and then the window lies before it
            r = rate_at(at_calm)
            if self._matches(r):
                return hit(at_calm)
            if self._direction(r) > 0:
                return bisect(0, at_calm)
        if reach == "middle":
            return walk(at_calm + 1)
        end = len(steps) - 1
        r = rate_at(end)
        if self._matches(r):
            return hit(end)
        if self._direction(r) > 0:
            return bisect(at_calm, end) if end > at_calm else None
        return self._climb(path.puzzle(steps[end]), path.solution, r, geometry, rng, deadline)

    def _climb(
        self,
        text: bytearray,
        solution: bytes,
        rating: Any,
        geometry: Geometry,
        rng: random.Random,
        deadline: float | None,
    ) -> Any:
        """Local search from a too-easy minimal puzzle toward the window."""
        _, digger, _ = self.checkers(geometry)
        gap = self._gap(rating)
        stale = 0
        low = self.request.clues[0] if self.request.clues else 0
        while stale < PATIENCE:
            self._check_time(deadline)
            trades = [bytes(self._trade(text, solution, geometry, rng)) for _ in range(NEIGHBOURS)]
            checks = digger.check_many(trades)
            unique = [(t, c.solution) for t, c in zip(trades, checks, strict=True) if c.status == "unique"]
            best: tuple[float, bytearray, bytes, Any] | None = None
            for trade, new_solution in unique[:RATED_PER_ROUND]:
                assert new_solution is not None
                moved = dig(
                    new_solution,
                    self.orbits,
                    rng,
                    digger,
                    floor=low,
                    start=trade,
                    beyond=self._beyond(geometry),
                )
                candidate = moved.puzzle()
                if not self._clues_ok(candidate):
                    continue
                if self.request.minimal and not self._is_minimal(candidate, digger):
                    continue
                self._check_time(deadline)
                r = self._rate(candidate, geometry, deadline)
                if self._matches(r):
                    return candidate, new_solution, geometry, r
                g = self._gap(r)
                if best is None or g < best[0]:
                    best = (g, candidate, new_solution, r)
            if best is not None and best[0] <= gap:
                stale = 0 if best[0] < gap else stale + 1
                gap, text, solution = best[0], best[1], best[2]
            else:
                stale += 1
        return None

    def _matches(self, rating: Any) -> bool:
        """Whether a candidate's rating lies in the window (None, past its budget: no)."""
        return rating is not None and self.request.target.matches(rating)

    def _direction(self, rating: Any) -> int:
        """:meth:`Target.direction`, a rating past its budget counting as too hard."""
        return 1 if rating is None else self.request.target.direction(rating)

    def _gap(self, rating: Any) -> float:
        """:meth:`Target.gap`, a rating past its budget counting as farthest."""
        return float(len(LEVELS)) if rating is None else self.request.target.gap(rating)

    def _clues_ok(self, text: bytes | bytearray) -> bool:
        if self.request.clues is None:
            return True
        low, high = self.request.clues
        return low <= len(text) - text.count(EMPTY) <= high

    def _trade(self, text: bytearray, solution: bytes, geometry: Geometry, rng: random.Random) -> bytearray:
        """Take out one or two orbits of givens and put in one or two other orbits."""
        trial = bytearray(text)
        given = [o for o in self.orbits if trial[o[0]] != EMPTY]
        empty = [o for o in self.orbits if trial[o[0]] == EMPTY]
        out = rng.sample(given, min(len(given), rng.choice((1, 1, 2))))
        put = rng.sample(empty, min(len(empty), rng.choice((1, 1, 2))))
        for orbit in out:
            for cell in orbit:
                trial[cell] = EMPTY
        n = geometry.size
        for orbit in put:
            for cell in orbit:
                if rng.random() < 0.5:
                    trial[cell] = solution[cell]
                    continue
                taken = {trial[p] for p in geometry.peers[cell]}
                choices = [DIGIT_BYTES[d] for d in range(1, n + 1) if DIGIT_BYTES[d] not in taken]
                trial[cell] = rng.choice(choices) if choices else solution[cell]
        return trial

    # --- results ------------------------------------------------------------------------------

    def _rate(self, text: bytes | bytearray, geometry: Geometry, deadline: float | None) -> Any:
        """A candidate's rating: a :class:`Grade` (its level, worked out only as far as the
        window needs) when the window is a level alone, else the full rating."""
        target = self.request.target
        puzzle = Puzzle.trusted(text_cells(text), geometry)
        started = time.process_time()
        nodes = self.rate_nodes
        try:
            if target.se is None and target.level != LEVELS[-1]:
                rating: Any = grade(puzzle, target.level, deadline, nodes)
            elif target.se is None and target.technique is None and nodes is None:
                # nothing is too hard for the top level: its candidates' whole HoDoKu path
                rating = top_grade(puzzle, deadline)
            else:
                keep = target.technique is not None
                rating = full_rating(puzzle, keep_steps=keep, deadline=deadline, nodes=nodes)
        except RatingOutOfTime:
            self._check_time(deadline)
            if nodes is None:
                raise OutOfTime from None  # pragma: no cover - only a deadline stops it
            return None  # past its budget of work: too hard
        finally:
            self.progress.rating_seconds += time.process_time() - started
        self.progress.rated_one(rating, target.gap(rating))
        return rating

    def _full(self, text: bytes | bytearray, geometry: Geometry, deadline: float | None) -> Any:
        """:func:`shudu.rate`'s rating, or None past twice a candidate's budget of work."""
        started = time.process_time()
        nodes = None if self.rate_nodes is None else 2 * self.rate_nodes
        try:
            return full_rating(
                Puzzle.trusted(text_cells(text), geometry),
                keep_steps=self.request.target.technique is not None,
                deadline=deadline,
                nodes=nodes,
            )
        except RatingOutOfTime:
            self._check_time(deadline)
            if nodes is None:
                raise OutOfTime from None  # pragma: no cover - only a deadline stops it
            return None
        finally:
            self.progress.rating_seconds += time.process_time() - started

    def _result(
        self, text: bytes | bytearray, solution: bytes, geometry: Geometry, rating: Any, seed: int
    ) -> Generated:
        puzzle = Puzzle.trusted(text_cells(text), geometry)
        grid = Grid.trusted(text_cells(solution), geometry)
        if rating is None:
            return Generated(puzzle, grid, seed)
        return Generated(puzzle, grid, seed, rating.level, rating.se, rating.hardest, rating.score)

    @staticmethod
    def _check_time(deadline: float | None) -> None:
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfTime
