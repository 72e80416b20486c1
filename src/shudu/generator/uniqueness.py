"""Uniqueness checks on the fast core: one puzzle or a whole batch, count to 2.

Puzzles travel as one-line ``bytearray`` texts (``.`` for empty, ``1-9`` then ``A-P``), the
form the fast core's batch interface parses itself, so no Python step per cell is needed.

A checker keeps to a deadline as well as its node budget: each check gets the time left, and a
check that the deadline cut short raises :class:`OutOfTime` rather than answer ``timeout``
(which the dig would read as a removal not proven), so a search ends at its deadline even in
the middle of a dig.

On a geometry without rules a checker calls the engine's batch call directly, with none of
:func:`~shudu.solvers.fast.solve_many`'s checks of its arguments and lines: the generator's
texts are well formed by construction and never hold two equal givens in a house (every given
is the grid's digit or one its placed peers leave free), so the engine's ``none`` is the
answer ``solve_many`` would give. A dig makes about a hundred checks a 9x9 puzzle, and the
checks' own cost in Python was ten times the engine's.
"""

from __future__ import annotations

import struct
import time
from array import array
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..geometry import Geometry
from ..notation import DIGITS, EMPTY_CHAR, BatchCode
from ..solvers.fast import STATUSES, engine_shape, solve_many

EMPTY = ord(EMPTY_CHAR)
#: Byte of each digit's character, by digit value (index 0 is the empty cell).
DIGIT_BYTES = (EMPTY_CHAR + DIGITS).encode("ascii")
#: Digit value of each byte of a puzzle text (the inverse of DIGIT_BYTES), as a bytes.translate table.
_BYTE_DIGITS = bytes.maketrans(DIGIT_BYTES, bytes(range(len(DIGIT_BYTES))))


class OutOfTime(Exception):
    """The deadline passed (internal: the generator turns it into a GeneratorError)."""


class Check(NamedTuple):
    """What the fast core said about one puzzle text."""

    #: ``none``, ``unique``, ``multiple`` or ``timeout``.
    status: str
    #: The first solution found, as text (None when there is none).
    solution: bytes | None
    #: Branch points of the search to two solutions: a rough, cheap gauge of hardness.
    guesses: int


#: The engine's counters: native 8-byte unsigned integers.
_COUNTER = struct.Struct("=Q")


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
        #: The engine's tables for the geometry (None: it has rules, answered by solve_many).
        self._shape: Any = None if geometry.variant.rules else engine_shape(geometry)

    def _solve(self, text: bytes, limit: int) -> tuple[bytes, bytes, bytes, bytes]:
        """The batch call, within the node budget and the time left: the status codes, the
        first solutions' text, and the solution counts and guesses as the engine's counters."""
        if self.deadline is None and self._shape is not None:
            raw = self._shape.solve_many(text, limit, 1, self.node_limit, -1.0)
            return raw[0], raw[1], raw[2], raw[4]
        left = None
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise OutOfTime
        if self._shape is None:
            result = solve_many(text, limit, node_limit=self.node_limit, timeout=left, geometry=self.geometry)
            codes, solved = result.status_codes, result.solution_text
            counts, guesses = result.counts.tobytes(), result.guesses.tobytes()
        else:
            raw = self._shape.solve_many(text, limit, 1, self.node_limit, -1.0 if left is None else left)
            codes, solved, counts, guesses = raw[0], raw[1], raw[2], raw[4]
        late = self.deadline is not None and time.monotonic() >= self.deadline
        if late and BatchCode.TIMEOUT in codes:
            raise OutOfTime  # cut short by the deadline, not by the node budget
        return codes, solved, counts, guesses

    def check(self, text: bytes | bytearray) -> Check:
        self.calls += 1
        if self.deadline is None and self._shape is not None:  # the common case, inline
            codes, solved, counts, _, guesses, _ = self._shape.solve_many(text, 2, 1, self.node_limit, -1.0)
        else:
            codes, solved, counts, guesses = self._solve(bytes(text), 2)
        solution = bytes(solved[: self.ncells]) if _COUNTER.unpack_from(counts)[0] else None
        return Check(STATUSES[codes[0]], solution, _COUNTER.unpack_from(guesses)[0])

    def verdict(self, text: bytes | bytearray) -> tuple[int, int]:
        """:meth:`check` without the solution: the status's code (:class:`BatchCode`) and the
        guesses (the dig's question, a hundred times a 9x9 puzzle)."""
        self.calls += 1
        if self.deadline is None and self._shape is not None:  # the common case, inline
            raw = self._shape.solve_many(text, 2, 1, self.node_limit, -1.0)
            return raw[0][0], _COUNTER.unpack_from(raw[4])[0]
        codes, _, _, guesses = self._solve(bytes(text), 2)
        return codes[0], _COUNTER.unpack_from(guesses)[0]

    def is_unique(self, text: bytes | bytearray) -> bool:
        self.calls += 1
        return self._solve(bytes(text), 2)[0][0] == BatchCode.UNIQUE

    def first(self, text: bytes | bytearray) -> bytes | None:
        """A first completion of the puzzle text (no uniqueness asked), or None when the
        search finds none within its budget."""
        self.calls += 1
        _, solved, counts, _ = self._solve(bytes(text), 1)
        if not _COUNTER.unpack_from(counts)[0]:
            return None
        return bytes(solved[: self.ncells])

    def check_many(self, texts: Sequence[bytes]) -> list[Check]:
        if not texts:
            return []
        self.calls += len(texts)
        codes, solved, count_bytes, guess_bytes = self._solve(b"\n".join(texts), 2)
        counts, guesses = array("Q"), array("Q")
        counts.frombytes(count_bytes)
        guesses.frombytes(guess_bytes)
        nc = self.ncells
        out = []
        for i, code in enumerate(codes):
            solution = bytes(solved[i * nc : (i + 1) * nc]) if counts[i] else None
            out.append(Check(STATUSES[code], solution, guesses[i]))
        return out


def clue_count(text: bytes | bytearray) -> int:
    return len(text) - text.count(EMPTY)


def text_cells(text: bytes | bytearray) -> tuple[int, ...]:
    """The digits of a puzzle text made here (``.`` and DIGIT_BYTES only), as ints."""
    return tuple(bytes(text).translate(_BYTE_DIGITS))
