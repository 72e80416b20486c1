"""Uniqueness checks on the fast core: one puzzle or a whole batch, count to 2.

Puzzles travel as one-line ``bytearray`` texts (``.`` for empty, ``1-9`` then ``A-P``), the
form the fast core's batch interface parses itself, so no Python step per cell is needed.

A checker keeps to a deadline as well as its node budget: each check gets the time left, and a
check that the deadline cut short raises :class:`OutOfTime` rather than answer ``timeout``
(which the dig would read as a removal not proven), so a search ends at its deadline even in
the middle of a dig.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..geometry import Geometry
from ..notation import DIGITS, EMPTY_CHAR, BatchCode
from ..solvers.fast import BatchResult, solve_many

EMPTY = ord(EMPTY_CHAR)
#: Byte of each digit's character, by digit value (index 0 is the empty cell).
DIGIT_BYTES = (EMPTY_CHAR + DIGITS).encode("ascii")
#: Digit value of each byte of a puzzle text (the inverse of DIGIT_BYTES).
_BYTE_DIGITS = {byte: digit for digit, byte in enumerate(DIGIT_BYTES)}


class OutOfTime(Exception):
    """The deadline passed (internal: the generator turns it into a GeneratorError)."""


@dataclass(frozen=True)
class Check:
    """What the fast core said about one puzzle text."""

    #: ``none``, ``unique``, ``multiple`` or ``timeout``.
    status: str
    #: The first solution found, as text (None when there is none).
    solution: bytes | None
    #: Branch points of the search to two solutions: a rough, cheap gauge of hardness.
    guesses: int


class Checker:
    """Counts the solutions of puzzle texts of one geometry, up to two."""

    def __init__(
        self, geometry: Geometry, node_limit: int | None = None, deadline: float | None = None
    ) -> None:
        self.geometry = geometry
        self.ncells = geometry.ncells
        self.node_limit = node_limit
        #: A ``time.monotonic()`` value past which every check raises :class:`OutOfTime`.
        self.deadline = deadline
        #: How many puzzles have been checked (for statistics).
        self.calls = 0

    def _solve(self, text: bytes, limit: int) -> BatchResult:
        """The batch call, within the node budget and the time left."""
        left = None
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise OutOfTime
        result = solve_many(text, limit, node_limit=self.node_limit, timeout=left, geometry=self.geometry)
        late = self.deadline is not None and time.monotonic() >= self.deadline
        if late and BatchCode.TIMEOUT in result.status_codes:
            raise OutOfTime  # cut short by the deadline, not by the node budget
        return result

    def check(self, text: bytes | bytearray) -> Check:
        return self.check_many([bytes(text)])[0]

    def is_unique(self, text: bytes | bytearray) -> bool:
        self.calls += 1
        result = self._solve(bytes(text), 2)
        return result.status_codes[0] == BatchCode.UNIQUE

    def first(self, text: bytes | bytearray) -> bytes | None:
        """A first completion of the puzzle text (no uniqueness asked), or None when the
        search finds none within its budget."""
        self.calls += 1
        result = self._solve(bytes(text), 1)
        if not result.counts[0]:
            return None
        return bytes(result.solution_text[: self.ncells])

    def check_many(self, texts: Sequence[bytes]) -> list[Check]:
        if not texts:
            return []
        self.calls += len(texts)
        result = self._solve(b"\n".join(texts), 2)
        nc = self.ncells
        statuses = result.statuses
        out = []
        for i, status in enumerate(statuses):
            solution = bytes(result.solution_text[i * nc : (i + 1) * nc]) if result.counts[i] else None
            out.append(Check(status, solution, result.guesses[i]))
        return out


def clue_count(text: bytes | bytearray) -> int:
    return len(text) - text.count(EMPTY)


def text_cells(text: bytes | bytearray) -> tuple[int, ...]:
    """The digits of a puzzle text made here (``.`` and DIGIT_BYTES only), as ints."""
    return tuple(_BYTE_DIGITS[byte] for byte in text)
