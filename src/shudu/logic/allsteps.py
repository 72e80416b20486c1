"""Every step available on a board (HoDoKu's "all steps" view), optionally of one technique.

Each finder of the techniques' table (:data:`~shudu.logic.table.FINDERS`) has a listing of
every distinct step of its technique (``iter_steps``; a finder with no listing of its own lists its
one step). :func:`find_steps` runs them all (or the ones a name or HoDoKu code selects), drops
steps with the same effect as an earlier one, and stops at a deadline or work budget with status
``timeout``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import ShuduError, check_count, check_seconds
from ..geometry import BoxLike
from ..variants import VariantLike
from .catalog import Technique
from .engine.budget import LogicTimeout, checkpoint, limits
from .engine.grid import CandidateGrid
from .engine.memo import memo_scope
from .engine.step import Step
from .naming import lookup
from .table import EVERY_FINDER, Finder

StepStatus = Literal["ok", "timeout"]


class TechniqueError(ShuduError):
    """A technique name or HoDoKu code that names no technique."""


def codes_of(technique: Technique) -> frozenset[str]:
    """Every HoDoKu code a technique's steps may carry (its own and its forms')."""
    return frozenset((*technique.codes, *(c for f in technique.forms for c in f.codes)))


def hodoku_name(code: str) -> str:
    """HoDoKu's name of the technique (or form) with ``code``; the code itself if none has it."""
    found = lookup(code)
    if found is None:
        return code
    form = found.technique.form(found.name)
    return (form.hodoku if form is not None else "") or found.technique.hodoku or found.name


@dataclass(frozen=True)
class Selection:
    """The finders to run for a request, and which of their steps count: those with HoDoKu
    ``code``, or of the form ``form`` (neither: all)."""

    finders: tuple[Finder, ...]
    code: str = ""
    form: str = ""

    def accepts(self, step: Step) -> bool:
        if self.code:
            return self.code in step.codes
        if self.form:
            return step.name == self.form
        return True


def select(technique: str | None) -> Selection:
    """The finders a name selects: shudu's name, HoDoKu's name or HoDoKu's code (``0300``).

    Raises :class:`TechniqueError` for a name that is none of these.
    """
    if technique is None:
        return Selection(EVERY_FINDER)
    text = technique.strip()
    found = lookup(text)
    head = text.split("-")[0]
    if head.isdigit() and len(head) >= 4:
        finders = tuple(f for f in EVERY_FINDER if head in codes_of(f.technique))
        if found is None and not finders:
            raise TechniqueError(f"no technique has HoDoKu code {head!r} (see 'shudu techniques')")
        return Selection(finders, code=head)
    if found is None:
        raise TechniqueError(
            f"unknown technique {technique!r}: give a name from 'shudu techniques' "
            "or a HoDoKu code such as 0300"
        )
    finders = tuple(f for f in EVERY_FINDER if f.technique.name == found.technique.name)
    form = "" if found.name == found.technique.name else found.name
    return Selection(finders, form=form)


@dataclass(frozen=True)
class StepList:
    """The steps found on a board, and whether the listing ran to the end (``ok``) or not."""

    steps: tuple[Step, ...]
    status: StepStatus = "ok"

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "steps": [s.to_json() for s in self.steps]}


def effect(step: Step) -> tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]:
    """What a step does: its placements and its eliminations, as sets."""
    return frozenset(step.placements), frozenset(step.eliminations)


def list_steps(grid: CandidateGrid, selection: Selection, *, uniqueness: bool = False) -> Iterator[Step]:
    """The distinct steps of the selected techniques on ``grid``, easiest technique first.

    Steps are found on copies, so ``grid`` is left as it is; a step with the effect of an earlier
    one is left out.
    """
    seen: set[tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]] = set()
    for finder in selection.finders:
        if finder.uniqueness and not uniqueness:
            continue
        for step in finder.iter_steps(grid.copy()):
            checkpoint()
            if not selection.accepts(step):
                continue
            key = effect(step)
            if key in seen or not (step.placements or step.eliminations):
                continue
            seen.add(key)
            yield step


def find_steps(
    board: Any,
    technique: str | None = None,
    *,
    timeout: float | None = None,
    node_limit: int | None = None,
    uniqueness: bool | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> StepList:
    """Every step available on ``board`` (HoDoKu's "all steps" view), or those of one technique.

    ``board`` is a :class:`~shudu.logic.engine.board.Board`, a :class:`CandidateGrid`, or anything
    :func:`~shudu.logic.engine.board.parse_board` reads (a puzzle, a JSON board, a candidate grid, a
    HoDoKu library line). ``technique`` is shudu's name, HoDoKu's name or HoDoKu's code (``0300``).
    Uniqueness techniques run when the puzzle's givens have one solution (or when ``uniqueness``
    says so). Past ``timeout`` seconds or ``node_limit`` units of work the steps found so far come
    back with status ``timeout``. ``box`` and ``variant`` give the shape of a plain puzzle's text as
    for :func:`shudu.solve`.
    """
    from .engine.board import Board, parse_board

    seconds = check_seconds(timeout, "timeout")
    nodes = check_count(node_limit, "node_limit", minimum=1)
    selection = select(technique)
    parsed = None
    if isinstance(board, CandidateGrid):
        grid = board
    else:
        parsed = board if isinstance(board, Board) else parse_board(board, box=box, variant=variant)
        grid = parsed.grid()
    found: list[Step] = []
    try:
        with limits(seconds, nodes), memo_scope():
            # the solution count keeps to the limits too (a board with no solution can take
            # the core longer than any of them to prove so)
            unique = bool(uniqueness) if parsed is None or uniqueness is not None else parsed.is_unique()
            for step in list_steps(grid, selection, uniqueness=unique):
                found.append(step)
    except LogicTimeout:
        return StepList(tuple(found), "timeout")
    return StepList(tuple(found))
