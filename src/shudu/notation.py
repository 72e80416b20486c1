"""The notation every layer shares: the digit alphabet, cell names, statuses, levels, exit codes.

This is a leaf module: it imports nothing from shudu, so anything may import it. Each fact here is
written once; the C core exports its own copy of the alphabet and of its result codes, and a test
checks that they agree with this module.
"""

from __future__ import annotations

import re
from enum import IntEnum
from functools import lru_cache
from typing import Final, Literal

#: The smallest and largest grid sizes shudu handles.
MIN_SIZE: Final = 4
MAX_SIZE: Final = 25

#: The characters of digits 1, 2, …, 25: 1-9, then A-P (10 = A, 16 = G, 25 = P).
DIGITS: Final = "123456789ABCDEFGHIJKLMNOP"
#: The characters that stand for an empty cell in text; ``.`` is the one shudu writes.
EMPTY_CHARS: Final = ".0"
EMPTY_CHAR: Final = "."


#: The characters of the digits' values 0, 1, …, 25 (the digits of a puzzle whose digits run
#: from 0 are worth one less than their index): 0-9, then A-P.
VALUE_CHARS: Final = "0" + DIGITS


def digit_char(digit: int, base: int = 1) -> str:
    """The character of a digit (``.`` for 0, an empty cell); ``base`` is the value of digit 1
    (0 when the puzzle's digits run from 0: digit 1 is then written ``0``)."""
    return VALUE_CHARS[digit + base - 1] if digit else EMPTY_CHAR


def char_digit(char: str, size: int) -> int | None:
    """The digit a character stands for in a grid of ``size``; 0 for empty; None if invalid."""
    return char_digits(size).get(char)


@lru_cache(maxsize=64)
def char_digits(size: int) -> dict[str, int]:
    """Every character :func:`char_digit` reads in a grid of ``size``, with its digit (one lookup
    a character for the readers of long text)."""
    table = dict.fromkeys(EMPTY_CHARS, 0)
    for value, char in enumerate(DIGITS[:size], start=1):
        table[char] = table[char.lower()] = value
    return table


def digit_range(size: int) -> str:
    """Human description of the digits of a size: ``1-9``, ``1-9, A-G``."""
    if size <= 9:
        return f"1-{size}"
    return f"1-9, A-{DIGITS[size - 1]}"


# --- cells ---------------------------------------------------------------------------------------

#: A cell is its index in reading order, 0 … n·n-1.
Cell = int

_CELL_NAME = re.compile(r"^\s*r(\d+)\s*c(\d+)\s*$", re.IGNORECASE)


def cell_name(cell: Cell, size: int) -> str:
    """The ``r1c2`` name of a cell index (rows and columns numbered from 1)."""
    return f"r{cell // size + 1}c{cell % size + 1}"


def parse_cell_name(text: str) -> tuple[int, int] | None:
    """(row, column), numbered from 1, of an ``r1c2`` name; None when ``text`` is no such name."""
    m = _CELL_NAME.match(text)
    if m is None:
        return None
    return int(m[1]), int(m[2])


# --- statuses ------------------------------------------------------------------------------------

#: What an answer can be, everywhere (API, CLI, web, batch): exactly one solution, several, none,
#: the budget ran out first, or the input was bad.
Status = Literal["unique", "multiple", "none", "timeout", "invalid"]
STATUSES: Final[tuple[Status, ...]] = ("unique", "multiple", "none", "timeout", "invalid")
#: The fields of a rating, in the order every record writes them (API, CLI, batch, bank).
RATING_FIELDS: Final = ("level", "score", "se", "hardest")
#: Each status in words, as every layer writes it to a person ("the puzzle has ...").
STATUS_WORDS: Final[dict[Status, str]] = {
    "unique": "one solution",
    "multiple": "several solutions",
    "none": "no solution",
    "timeout": "no answer in time",
    "invalid": "an error",
}


def status_of_count(found: int) -> Status:
    """The status of a search for two solutions that found ``found``: ``none``, ``unique``, or
    ``multiple`` for two or more."""
    return "none" if found <= 0 else "unique" if found == 1 else "multiple"


class BatchCode(IntEnum):
    """Per-puzzle result codes of the engines' batch call (the C core exports the same values)."""

    NONE = 0
    UNIQUE = 1
    MULTIPLE = 2
    SOLVED = 3
    TIMEOUT = 4
    #: The puzzle could not be read (Python side only: the engines never see such a puzzle).
    INVALID = 5


class RunCode(IntEnum):
    """What one resumable search run ended with (the C core exports the same values)."""

    EXHAUSTED = 0
    SOLUTION = 1
    BUDGET = -1
    NOMEM = -2


class CallCode(IntEnum):
    """What a search's ``run`` call hands back to Python: stopped at a solution, exhausted, or
    its budget spent (the C core's ``CALL_*``, exported as ``STOPPED``, ``EXHAUSTED``, ``BUDGET``)."""

    STOPPED = 0
    EXHAUSTED = 1
    BUDGET = 2


# --- levels --------------------------------------------------------------------------------------

#: Difficulty levels, easiest first (HoDoKu's names).
Level = Literal["easy", "medium", "hard", "unfair", "extreme"]
LEVELS: Final[tuple[Level, ...]] = ("easy", "medium", "hard", "unfair", "extreme")

#: How much a hint gives away, least first.
HintLevel = Literal["vague", "technique", "step"]
HINT_LEVELS: Final[tuple[HintLevel, ...]] = ("vague", "technique", "step")


# --- exit codes ----------------------------------------------------------------------------------


class Exit(IntEnum):
    """The command line's exit statuses, the same in every command."""

    #: Every input was answered (``none``, ``multiple`` and ``timeout`` are answers).
    OK = 0
    #: Some input or option was bad; the other inputs were still answered.
    INVALID = 2
    #: Interrupted (Ctrl-C).
    INTERRUPTED = 130
    #: The reader of standard output went away (a broken pipe): 128 + SIGPIPE, no message.
    BROKEN_PIPE = 141
    #: Stopped by SIGTERM.
    TERMINATED = 143
