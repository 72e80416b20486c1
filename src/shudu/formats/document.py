"""A puzzle as another program stores it, and what the readers and writers of those formats share.

Each reader returns a :class:`Document` (the givens, the player's placed digits, the pencil marks
and a title); each writer takes one. docs/formats.md says what each keeps and what it loses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ShapeError
from ..notation import digit_char
from ..puzzle import Puzzle, _Board


@dataclass(frozen=True)
class Document:
    """A puzzle as another program stores it: givens, placed digits (0: none), pencil marks
    (one bit mask per cell, bit d-1 for digit d; None: not stored) and a title."""

    puzzle: Puzzle
    entries: tuple[int, ...] = ()
    candidates: tuple[int, ...] | None = None
    title: str = ""

    def __post_init__(self) -> None:
        if not self.entries:
            object.__setattr__(self, "entries", (0,) * len(self.puzzle.cells))


#: Every format ``convert`` reads and writes.
FORMATS = ("line", "grid", "json", "hodoku", "sdk", "ss", "pm", "fpuzzles", "sudokupad", "ipuz", "iss")


def require_nine(fmt: str, board: _Board) -> None:
    if board.geometry.size != 9 or not board.geometry.variant.is_standard or board.geometry.box != (3, 3):
        raise ShapeError(f"{fmt} holds standard 9x9 puzzles only; use json or fpuzzles for this one")


def require_square(fmt: str, board: _Board) -> None:
    """A ShapeError naming the grid when it is not square with as many digits as rows."""
    geo = board.geometry
    if geo.is_rect:
        raise ShapeError(f"{fmt} cannot say a {geo.dims} grid; use iss or json")


def mask_digits(mask: int) -> str:
    return "".join(digit_char(d + 1) for d in range(mask.bit_length()) if mask >> d & 1)


def content_lines(text: str) -> list[tuple[int, str]]:
    return [(i, raw.strip()) for i, raw in enumerate(text.splitlines(), start=1) if raw.strip()]


def open_candidates(geo: Any, values: list[int]) -> tuple[int, ...]:
    """Each open cell's digits that no placed peer holds (0 for a placed cell)."""
    full = (1 << geo.size) - 1
    out = []
    for cell, value in enumerate(values):
        mask = 0
        if not value:
            mask = full
            for peer in geo.peers[cell]:
                if values[peer]:
                    mask &= ~(1 << (values[peer] - 1))
        out.append(mask)
    return tuple(out)
