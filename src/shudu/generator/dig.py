"""Removing givens while the solution stays unique.

:func:`dig` takes a complete grid and removes whole symmetry orbits in a random order, each
removal kept only when the fast core proves the puzzle still has one solution. One pass is
enough for minimality: a removal refused once stays refused, because removing more givens
only adds solutions. The pass is kept as a *path* (the grid, then each puzzle after one more
removal), so later steps can pick any point on it: a clue count, or the last puzzle that is
still easy enough (see :mod:`shudu.generator.search`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..notation import BatchCode
from .uniqueness import EMPTY, Checker


@dataclass
class Path:
    """A dig: the grid and the orbits removed from it, in order."""

    solution: bytes
    removed: list[tuple[int, ...]]
    #: Whether every refused removal was proven to break uniqueness (no search ran out of budget).
    proven: bool = True
    #: With a two-pass dig: how many removals the first (no-guess) pass made.
    calm: int | None = None

    def puzzle(self, steps: int | None = None) -> bytearray:
        """The puzzle after the first ``steps`` removals (all of them by default)."""
        text = bytearray(self.solution)
        for orbit in self.removed[: len(self.removed) if steps is None else steps]:
            for cell in orbit:
                text[cell] = EMPTY
        return text

    def clues(self, steps: int | None = None) -> int:
        gone = sum(len(o) for o in self.removed[: len(self.removed) if steps is None else steps])
        return len(self.solution) - gone


def dig(
    solution: bytes,
    orbits: Sequence[tuple[int, ...]],
    rng: random.Random,
    checker: Checker,
    *,
    floor: int = 0,
    start: bytes | bytearray | None = None,
    calm: bool = False,
    beyond: int | None = None,
    calm_checker: Checker | None = None,
    patience: int | None = None,
) -> Path:
    """Remove orbits of givens in a random order while the puzzle stays unique, never going
    below ``floor`` clues. ``start`` (a unique puzzle of ``solution``) begins from fewer
    givens than the whole grid.

    ``calm`` digs in two passes: the first removes only while the fast core still solves the
    puzzle without a guess, the second goes on as usual. ``Path.calm`` marks where the first
    pass ended: the puzzles before it need no more than singles (and, on 9x9, intersections).
    ``beyond`` stops the last pass after that many removals (the puzzle is then not minimal).
    ``calm_checker`` (a smaller node budget) serves the first pass: a puzzle solved without a
    guess needs few nodes, and one that needs more is refused there anyway. ``patience`` stops
    the last pass after that many refusals in a row (the puzzle is then not minimal).
    """
    text = bytearray(start if start is not None else solution)
    removed = _gone(solution, text) if start is not None else []
    clues = len(text) - text.count(EMPTY)
    order = [o for o in orbits if text[o[0]] != EMPTY]
    rng.shuffle(order)
    proven = True
    calm_end = None
    for stage in ("calm", "plain") if calm else ("plain",):
        kept = []
        left = beyond if stage == "plain" and beyond is not None else -1
        refused = 0
        for index, orbit in enumerate(order):
            if left == 0 or (stage == "plain" and refused == patience):
                kept.extend(order[index:])
                break
            if clues - len(orbit) < floor:
                kept.append(orbit)
                continue
            saved = [text[c] for c in orbit]
            for cell in orbit:
                text[cell] = EMPTY
            code, guesses = (calm_checker if stage == "calm" and calm_checker else checker).verdict(text)
            if code == BatchCode.UNIQUE and (stage == "plain" or guesses == 0):
                removed.append(orbit)
                clues -= len(orbit)
                left -= 1
                refused = 0
                continue
            refused += 1
            if code == BatchCode.TIMEOUT and stage == "plain":
                proven = False
            for cell, value in zip(orbit, saved, strict=True):
                text[cell] = value
            if code != BatchCode.MULTIPLE:
                kept.append(orbit)  # a removal refused for breaking uniqueness stays refused
        order = kept
        if stage == "calm":
            calm_end = len(removed)
    return Path(solution, removed, proven, calm_end)


def _gone(solution: bytes, start: bytes | bytearray) -> list[tuple[int, ...]]:
    return [(c,) for c, ch in enumerate(start) if ch == EMPTY and solution[c] != EMPTY]


def removable(text: bytes | bytearray, checker: Checker) -> list[int] | None:
    """The givens whose removal alone keeps the puzzle unique (none for a minimal puzzle), or
    None when some check ran out of budget."""
    trials = []
    cells = [c for c, ch in enumerate(text) if ch != EMPTY]
    for cell in cells:
        trial = bytearray(text)
        trial[cell] = EMPTY
        trials.append(bytes(trial))
    found = checker.check_many(trials)
    if any(f.status == "timeout" for f in found):
        return None
    return [cell for cell, f in zip(cells, found, strict=True) if f.status == "unique"]
