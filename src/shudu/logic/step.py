"""A Step: one move of a human solver, with what it places, what it removes and why."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..puzzle import digit_char
from ..variants import Cell, cell_name
from .grid import CandidateGrid, Digit, and_list

Candidate = tuple[Cell, Digit]


@dataclass(frozen=True)
class Step:
    """One deduction: the technique, the pattern it saw, and its placements and eliminations.

    ``cells``, ``digits`` and ``houses`` describe the pattern (what a hint points at);
    ``placements`` and ``eliminations`` are what it proves. ``size`` is the grid size, for names.
    ``length`` measures a chain or net (its links or implications; 0 for a fixed pattern).
    """

    technique: str
    explanation: str
    size: int
    placements: tuple[Candidate, ...] = ()
    eliminations: tuple[Candidate, ...] = ()
    cells: tuple[Cell, ...] = ()
    digits: tuple[Digit, ...] = ()
    houses: tuple[str, ...] = ()
    length: int = 0
    #: The technique family the rating tables know it by, when the name is more specific.
    kind: str = field(default="", compare=False)

    @property
    def family(self) -> str:
        return self.kind or self.technique

    def __str__(self) -> str:
        return self.explanation

    def to_json(self) -> dict[str, Any]:
        """The step as plain data: cells as ``r1c2`` names, digits as ints."""
        name = self._name
        return {
            "technique": self.technique,
            "explanation": self.explanation,
            "placements": [{"cell": name(c), "digit": d} for c, d in self.placements],
            "eliminations": [{"cell": name(c), "digit": d} for c, d in self.eliminations],
            "cells": [name(c) for c in self.cells],
            "digits": list(self.digits),
            "houses": list(self.houses),
        }

    def _name(self, cell: Cell) -> str:
        return cell_name(cell, self.size)


def make_step(
    grid: CandidateGrid,
    technique: str,
    reason: str,
    *,
    placements: Iterable[Candidate] = (),
    eliminations: Iterable[Candidate] = (),
    cells: Iterable[Cell] = (),
    digits: Iterable[Digit] = (),
    houses: Iterable[str] = (),
    length: int = 0,
    kind: str = "",
) -> Step:
    """A step whose explanation is ``"<technique>: <reason>, so <outcome>"``."""
    placements = tuple(placements)
    eliminations = tuple(sorted(set(eliminations)))
    outcome = describe_outcome(grid, placements, eliminations)
    text = f"{technique}: {reason}" + (f", so {outcome}" if outcome else "")
    return Step(
        technique=technique,
        explanation=text,
        size=grid.size,
        placements=placements,
        eliminations=eliminations,
        cells=tuple(cells),
        digits=tuple(sorted(set(digits))),
        houses=tuple(houses),
        length=length,
        kind=kind,
    )


def describe_outcome(
    grid: CandidateGrid, placements: Sequence[Candidate], eliminations: Sequence[Candidate]
) -> str:
    """``r1c2 = 5`` / ``7 goes from r1c3 and r4c3``: what a step does, in words."""
    parts = [f"{grid.name(c)} = {digit_char(d)}" for c, d in placements]
    by_digit: dict[Digit, list[Cell]] = {}
    for cell, digit in eliminations:
        by_digit.setdefault(digit, []).append(cell)
    for digit, cells in sorted(by_digit.items()):
        parts.append(f"{digit_char(digit)} goes from {grid.names(sorted(cells))}")
    return and_list(parts) if len(parts) <= 2 else "; ".join(parts)


def digit_list(digits: Iterable[Digit]) -> str:
    return and_list([digit_char(d) for d in sorted(digits)])
