"""A player's board: the puzzle's givens, the digits the player placed, and the pencil marks.

:func:`parse_board` reads every form a board comes in:

* a JSON board (``{"puzzle": …, "entries": …, "pencil": …}``, or a mapping of the same) or a plain
  puzzle in any format :mod:`shudu.formats` reads;
* a candidate grid of n·n cells: each cell its candidate digits, separated by spaces or drawn in a
  grid with ``|``, ``-``, ``+`` (or ``.``, ``:``, ``'``) borders, as HoDoKu, SudokuWiki and Sukaku
  print them. A cell with one digit is read as a given (a candidate grid cannot tell them apart);
* a line of HoDoKu's regression library, ``:code:candidates:givens:deleted:…``: its board, with
  ``+`` digits kept as the player's entries, not givens.

The text of each form is read into plain data in :mod:`shudu.formats` (:mod:`shudu.formats.board`
for the JSON board's fields and a candidate grid's cells); this module builds the :class:`Board`
and checks it against the rules (every open cell keeps a candidate, no entry repeats a digit).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ... import solvers
from ...errors import ParseError
from ...formats import as_puzzle, load_json, parse_hodoku, parse_json, parse_pm
from ...formats.board import board_entries, board_pencil, candidate_tokens
from ...formats.cells import checked_options
from ...geometry import BoxLike
from ...notation import digit_char
from ...puzzle import Puzzle
from ...solvers.base import Budget
from ...variants import VariantLike
from .budget import LogicTimeout, remaining_seconds
from .grid import CandidateGrid, bits


@dataclass(frozen=True)
class Board:
    """The givens (``puzzle``), the player's ``entries`` (0: none) and the ``candidates`` of each
    cell as a digit set (None: every digit the placed digits allow)."""

    puzzle: Puzzle
    entries: tuple[int, ...]
    candidates: tuple[int, ...] | None = None

    @property
    def values(self) -> tuple[int, ...]:
        """Every placed digit, given or entered (0: open)."""
        return tuple(g or e for g, e in zip(self.puzzle.cells, self.entries, strict=True))

    def grid(self) -> CandidateGrid:
        """The candidate grid of this board: the pencil marks, less what the placed digits rule out."""
        geo = self.puzzle.geometry
        givens = sum(1 << cell for cell, digit in enumerate(self.puzzle.cells) if digit)
        grid = CandidateGrid.from_values(geo, self.values, givens=givens)
        if self.candidates is not None:
            for cell in bits(grid.empty):
                for d in bits(grid.cands[cell] & ~self.candidates[cell]):
                    grid.eliminate(cell, d + 1)
        return grid

    @cached_property
    def solution_status(self) -> str:
        """``unique``, ``multiple`` or ``none``: how many solutions the givens have.

        Inside a :func:`~shudu.logic.engine.budget.limits` block the count keeps to its deadline and
        raises :class:`~shudu.logic.engine.budget.LogicTimeout` past it (nothing is cached then)."""
        left = remaining_seconds()
        if left is not None and left <= 0:
            raise LogicTimeout("time limit reached")
        solver = solvers.for_geometry("auto", self.puzzle.geometry)  # the constraint engine for rules
        status = solver.answer(self.puzzle, budget=Budget.of(None, left))[0]
        if status == "timeout":
            raise LogicTimeout("time limit reached while counting solutions")
        return status

    def is_unique(self) -> bool:
        """Whether the givens have exactly one solution (uniqueness techniques may then be used);
        within the current limits, as :attr:`solution_status`."""
        return self.solution_status == "unique"


def parse_board(board: Any, *, box: BoxLike = None, variant: VariantLike = None) -> Board:
    """A :class:`Board` from a JSON board, a candidate grid, a HoDoKu library line or a puzzle.

    ``box`` and ``variant`` give the shape of a plain puzzle's text or of a candidate grid, as
    for :func:`shudu.solve` (a JSON board, a library line, a Board or a Puzzle carries its own).
    Raises :class:`~shudu.errors.ParseError` (naming the cell or field) on anything else.
    """
    box = checked_options(box, variant)
    return _parse_board(board, box, variant)


def _parse_board(board: Any, box: BoxLike, variant: VariantLike) -> Board:
    if isinstance(board, Board):
        return board
    if isinstance(board, Puzzle):
        return Board(board, (0,) * len(board.cells))
    if isinstance(board, str):
        text = board.strip()
        if text.startswith(":"):
            return parse_library_board(text)
        if not text.startswith("{"):
            grid = candidate_tokens(text)
            if grid is not None:
                return parse_candidate_grid(grid, box=box, variant=variant)
    elif not isinstance(board, Mapping):
        raise ParseError(f"a board must be text or a mapping, not {type(board).__name__}")
    return _parse_json_board(board, box, variant)


def _parse_json_board(
    board: str | Mapping[str, Any], box: BoxLike = None, variant: VariantLike = None
) -> Board:
    """A board from its JSON form (text or a mapping) or from a plain puzzle in any format."""
    data: Any = board
    if isinstance(board, str) and board.strip().startswith("{"):
        try:
            data = load_json(board)
        except json.JSONDecodeError as exc:
            raise ParseError(f"invalid JSON: {exc.msg} at column {exc.colno}", column=exc.colno) from None
    if not isinstance(data, Mapping):
        puzzle = as_puzzle(data, box=box, variant=variant)
        return Board(puzzle, (0,) * len(puzzle.cells))
    fields = dict(data)
    entries_raw = fields.pop("entries", None)
    pencil_raw = fields.pop("pencil", None)
    puzzle = parse_json(fields)
    entries = board_entries(entries_raw, puzzle)
    pencil = board_pencil(pencil_raw, puzzle)
    candidates = None
    if pencil:
        full = (1 << puzzle.size) - 1
        candidates = tuple(pencil.get(cell, full) for cell in range(len(puzzle.cells)))
    return Board(puzzle, entries, candidates)


def parse_candidate_grid(
    tokens: list[str] | str, *, box: BoxLike = None, variant: VariantLike = None
) -> Board:
    """A board from n·n cells of candidate digits (one digit: a given), read by
    :func:`shudu.formats.parse_pm`, on the shape ``box`` and ``variant`` give (default: standard)."""
    if isinstance(tokens, str):
        found = candidate_tokens(tokens)
        if found is None:
            raise ParseError("a candidate grid needs n·n cells of digits (81 for 9x9), some with several")
        tokens = found
    doc = parse_pm(" ".join(tokens))
    puzzle = doc.puzzle
    if box is not None or variant is not None:
        puzzle = Puzzle(puzzle.cells, box=box, variant=variant)
    return _checked(Board(puzzle, doc.entries, doc.candidates))


def parse_library_board(line: str) -> Board:
    """The board of a HoDoKu library line ``:code:candidates:givens:deleted:…`` (9x9), read by
    :func:`shudu.formats.parse_hodoku`: its ``+`` digits stay the player's entries."""
    doc = parse_hodoku(line)
    return _checked(Board(doc.puzzle, doc.entries, doc.candidates))


def _checked(board: Board) -> Board:
    """The board, once every open cell is seen to keep a candidate and entries fit the rules."""
    geo = board.puzzle.geometry
    values = board.values
    for cell, entry in enumerate(board.entries):
        if entry and board.puzzle.cells[cell]:
            raise ParseError(f"{geo.cell_name(cell)} holds both a given and an entry")
        if entry:
            for peer in geo.peers[cell]:
                if values[peer] == entry:
                    raise ParseError(
                        f"{geo.cell_name(cell)} = {digit_char(entry)} "
                        f"repeats the digit of {geo.cell_name(peer)}"
                    )
    grid = board.grid()
    for cell in bits(grid.empty):
        if not grid.cands[cell]:
            raise ParseError(f"{geo.cell_name(cell)} has no candidate left")
    return board
