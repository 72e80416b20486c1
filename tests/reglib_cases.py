"""HoDoKu's regression library as a test: read its lines and check each case against find_steps.

A line reads ``:code[-variant]:candidates:givens:deleted:eliminations:placements:extra``. A case
passes when some step of that technique makes exactly the expected eliminations (or placements);
a fail case (variant ``x``) passes when no step of that technique touches its candidates. Every
step found is also checked against the board's solution, when the givens have just one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from shudu import solvers
from shudu.errors import ParseError, ShuduError
from shudu.formats.board import parse_candidate
from shudu.logic.allsteps import find_steps, hodoku_name, select
from shudu.logic.engine.board import Board, parse_library_board
from shudu.logic.engine.budget import LogicTimeout, limits
from shudu.logic.engine.step import Step

Candidate = tuple[int, int]


@dataclass(frozen=True)
class Case:
    """One line of the library: the technique code, its board and what it must find."""

    line: int
    text: str
    code: str
    variant: str
    digits: frozenset[int]
    board: Board
    eliminations: frozenset[Candidate]
    placements: frozenset[Candidate]

    @property
    def fail_case(self) -> bool:
        """A case where no step of the technique may be found."""
        return self.variant == "x"

    @property
    def name(self) -> str:
        """HoDoKu's name of the technique (the code when shudu does not know it)."""
        return hodoku_name(self.code)


@dataclass(frozen=True)
class Outcome:
    """How one case went: whether it passed, why not, and any step that contradicts the solution."""

    case: Case
    passed: bool
    reason: str = ""
    steps: tuple[Step, ...] = ()
    unsound: tuple[str, ...] = field(default=())
    timed_out: bool = False


def parse_case(text: str, line: int = 0) -> Case:
    """A :class:`Case` from one library line."""
    fields = text.strip().split(":")
    if len(fields) < 7:
        raise ParseError("a library line needs 7 fields", line=line or None)
    code, _, variant = fields[1].partition("-")
    digits = frozenset(int(ch) for ch in fields[2] if ch.isdigit() and ch != "0")
    try:
        board = parse_library_board(text)
    except ParseError as exc:
        raise exc.at_line(line) if line else exc from None
    return Case(
        line=line,
        text=text.strip(),
        code=code,
        variant=variant,
        digits=digits,
        board=board,
        eliminations=frozenset(_candidates(fields[5])),
        placements=frozenset(_candidates(fields[6])),
    )


def _candidates(text: str) -> Iterator[Candidate]:
    for token in text.split():
        yield parse_candidate(token)


def read_library(path: str | Path) -> list[Case]:
    """Every case of a library file (comment lines, starting with ``#``, and blank ones skipped)."""
    cases = []
    for number, text in enumerate(Path(path).read_text().splitlines(), 1):
        if text.startswith(":"):
            cases.append(parse_case(text, number))
    return cases


def check_case(case: Case, *, timeout: float | None = None) -> Outcome:
    """Run the case's technique through :func:`find_steps` on its board and judge the steps."""
    board = case.board
    try:
        select(case.code)
    except ShuduError:
        return Outcome(case, False, "no finder for this code")
    try:
        with limits(timeout):  # the solution count keeps to the case's time too
            unique = board.is_unique()
    except LogicTimeout:
        return Outcome(case, False, "timeout", timed_out=True)
    result = find_steps(board, case.code, timeout=timeout, uniqueness=unique)
    steps = result.steps
    unsound = tuple(_unsound(board, steps)) if unique else ()
    timed_out = result.status == "timeout"
    if case.fail_case:
        touching = [s for s in steps if _touches(s, case.digits)]
        if touching:
            return Outcome(case, False, f"found {touching[0].explanation}", steps, unsound, timed_out)
        return Outcome(case, not timed_out, "timeout" if timed_out else "", steps, unsound, timed_out)
    for step in steps:
        if set(step.eliminations) == case.eliminations and set(step.placements) == case.placements:
            return Outcome(case, True, "", steps, unsound, timed_out)
    if timed_out:
        reason = "timeout"
    elif not steps:
        reason = "no step of this technique found"
    else:
        reason = f"{len(steps)} step(s), none with the expected effect"
    return Outcome(case, False, reason, steps, unsound, timed_out)


def _touches(step: Step, digits: frozenset[int]) -> bool:
    if not digits:
        return True
    return any(d in digits for _, d in (*step.eliminations, *step.placements))


def _unsound(board: Board, steps: Iterable[Step]) -> Iterator[str]:
    _, cells = solvers.get().answer(board.puzzle)
    if cells is None:
        return
    name = board.puzzle.geometry.cell_name
    for step in steps:
        wrong = [f"{name(c)}={d}" for c, d in step.placements if cells[c] != d]
        wrong += [f"{name(c)}<>{d}" for c, d in step.eliminations if cells[c] == d]
        if wrong:
            yield f"{step.explanation} [wrong: {', '.join(wrong)}]"
