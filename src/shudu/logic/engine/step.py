"""A Step: one move of a human solver, with what it places, what it removes and why."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from ...notation import Cell, cell_name, digit_char
from ..catalog import Technique
from ..naming import resolve
from .chain_structure import Chain, Net, cannot_be
from .grid import CandidateGrid, Digit, and_list

Candidate = tuple[Cell, Digit]


@dataclass(frozen=True)
class Step:
    """One deduction: the technique, the pattern it saw, and its placements and eliminations.

    ``technique`` is the catalog's :class:`Technique`; ``name`` the form found (the technique's own
    name when it has no special form), which with the technique decides the step's ratings.
    ``cells``, ``digits`` and ``houses`` describe the pattern (what a hint points at);
    ``placements`` and ``eliminations`` are what it proves. ``size`` is the grid size, for names.
    ``length`` measures a chain or net (its links or implications; 0 for a fixed pattern);
    ``structure`` is a chain's or net's nodes and links, when the finder gives them.
    """

    technique: Technique
    name: str
    explanation: str
    size: int
    placements: tuple[Candidate, ...] = ()
    eliminations: tuple[Candidate, ...] = ()
    cells: tuple[Cell, ...] = ()
    digits: tuple[Digit, ...] = ()
    houses: tuple[str, ...] = ()
    length: int = 0
    structure: Chain | Net | None = field(default=None, compare=False)
    #: The pattern in words, without the technique's name and the outcome.
    reason: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.explanation

    def __getattr__(self, attr: str) -> str:
        """The explanation of a step :func:`make_step` built, written when first read: a rating
        reads few of the steps its finders build. Any other missing attribute is missing."""
        known = self.__dict__
        if attr != "explanation" or "reason" not in known:
            raise AttributeError(attr)
        text = explanation(
            self.name, self.reason, self.size, self.placements, self.eliminations, self.structure
        )
        known["explanation"] = text
        return text

    @property
    def codes(self) -> tuple[str, ...]:
        """HoDoKu's codes for the step's form."""
        return self.technique.codes_of(self.name)

    def to_json(self) -> dict[str, Any]:
        """The step as plain data: cells as ``r1c2`` names, digits as ints."""
        name = self._name
        out: dict[str, Any] = {
            "technique": self.technique.name,
            "name": self.name,
            "codes": list(self.codes),
            "explanation": self.explanation,
            "placements": [{"cell": name(c), "digit": d} for c, d in self.placements],
            "eliminations": [{"cell": name(c), "digit": d} for c, d in self.eliminations],
            "cells": [name(c) for c in self.cells],
            "digits": list(self.digits),
            "houses": list(self.houses),
            "length": self.length,
        }
        if self.structure is not None:
            out["structure"] = self.structure.to_json(self.size)
        if isinstance(self.structure, Net):
            # the net branch by branch, as a person reads it (docs/logic.md, "How nets read")
            out["branches"] = self.structure.readable(self.size)
        return out

    def _name(self, cell: Cell) -> str:
        return cell_name(cell, self.size)


#: The fields of :class:`Step` that have defaults, with them.
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Step) if f.default is not MISSING}
_REQUIRED = frozenset(f.name for f in fields(Step) if f.default is MISSING)
_FIELDS = _REQUIRED | _DEFAULTS.keys()


def new_step(**values: Any) -> Step:
    """``Step(**values)``, built without the frozen dataclass's per-field ``__init__`` (a
    quarter of the cost): the hot finders (singles) build hundreds of steps per rating. The
    step is an ordinary :class:`Step`, equal to the one ``Step(**values)`` gives."""
    keys = values.keys()
    if not (_REQUIRED <= keys <= _FIELDS):
        raise TypeError(f"new_step() needs the fields of Step, got {sorted(keys)}")
    step = object.__new__(Step)
    _set_dict(step, "__dict__", {**_DEFAULTS, **values})
    return step


def make_step(
    grid: CandidateGrid,
    name: str,
    reason: str,
    *,
    placements: Iterable[Candidate] = (),
    eliminations: Iterable[Candidate] = (),
    cells: Iterable[Cell] = (),
    digits: Iterable[Digit] = (),
    houses: Iterable[str] = (),
    length: int = 0,
    kind: str = "",
    structure: Chain | Net | None = None,
) -> Step:
    """A step whose explanation is ``"<name>: <reason>, so <outcome>"``.

    ``name`` is a technique or form name declared in :mod:`shudu.logic.catalog`; ``kind``, when
    given, is a more specific declared form that decides the step's technique and ratings. An
    undeclared name is a programming error (KeyError).
    """
    declared = resolve(name)
    found = resolve(kind) if kind else declared
    step = object.__new__(Step)  # new_step's way, the explanation left to Step.__getattr__
    # every field but the explanation, in one dict at once (a third of the cost of an update)
    _set_dict(
        step,
        "__dict__",
        {
            "technique": found.technique,
            "name": found.name,
            "size": grid.size,
            "placements": tuple(placements),
            "eliminations": tuple(sorted(set(eliminations))),
            "cells": tuple(cells),
            "digits": tuple(sorted(set(digits))),
            "houses": tuple(houses),
            "length": length,
            "structure": structure,
            "reason": reason,
        },
    )
    return step


_set_dict = object.__setattr__


def explanation(
    name: str,
    reason: str,
    size: int,
    placements: Sequence[Candidate],
    eliminations: Sequence[Candidate],
    structure: Chain | Net | None = None,
) -> str:
    """``"<name>: <reason>, so <outcome>"``, the explanation of a step :func:`make_step` built;
    a net with an outcome follows, branch by branch, a line per deduction (:meth:`Net.text`)."""
    outcome = describe_outcome(size, placements, eliminations)
    text = f"{name}: {reason}" + (f", so {outcome}" if outcome else "")
    if isinstance(structure, Net) and structure.outcome:
        text += "\n" + structure.text(size)
    return text


def describe_outcome(size: int, placements: Sequence[Candidate], eliminations: Sequence[Candidate]) -> str:
    """``r1c2 = 5`` / ``r1c3 and r4c3 cannot be 7`` / ``r2c9 cannot be 1 or 5``: what a step
    does, in words (the digits with the same cells said together)."""
    parts = [f"{cell_name(c, size)} = {digit_char(d)}" for c, d in placements]
    by_digit: dict[Digit, list[Cell]] = {}
    for cell, digit in eliminations:
        by_digit.setdefault(digit, []).append(cell)
    by_cells: dict[tuple[Cell, ...], list[Digit]] = {}
    for digit, cells in sorted(by_digit.items()):
        by_cells.setdefault(tuple(sorted(cells)), []).append(digit)
    for group, digits in by_cells.items():
        parts.append(cannot_be([cell_name(c, size) for c in group], digits))
    # "r1c6 and r1c8 cannot be 4; r1c8 cannot be 6": groups of eliminations apart
    return and_list(parts) if len(parts) <= 2 and len(by_cells) <= 1 else "; ".join(parts)


def digit_list(digits: Iterable[Digit]) -> str:
    return and_list([digit_char(d) for d in sorted(digits)])


def distinct(steps: Iterable[Step]) -> Iterator[Step]:
    """``steps`` without repeats: one step per name, pattern and outcome."""
    seen: set[tuple[object, ...]] = set()
    for step in steps:
        key = (step.technique, step.name, step.placements, step.eliminations, step.cells, step.houses)
        if key not in seen:
            seen.add(key)
            yield step
