"""Requests to puzzles and puzzles to JSON: the web API's shared vocabulary.

A request names its puzzle as ``{"puzzle": TEXT | {JSON form}, "variant", "box", "layout",
"regions"}`` — any text format of docs/formats.md (an f-puzzles or SudokuPad link, or ipuz,
carries its own shape and rules). The answer describes a puzzle with what the
page needs to draw it: box or jigsaw region of every cell, the extra regions, links, houses, and
its constraint rules in their one JSON form (each rule's ``to_json``: killer cages, thermometers,
arrows, dots, lines, outside clues …), which the page draws.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

import shudu
from shudu.errors import ShuduError
from shudu.formats import Document, to_json
from shudu.formats.convert import detect_format, read_document, write_document
from shudu.notation import digit_char, parse_cell_name

from .teaching import number_structure

#: The formats that carry a puzzle's whole shape and rules (f-puzzles and SudokuPad links and
#: JSON, ipuz, ISS constraint strings): read as they are, with no variant or box beside them.
OWN_SHAPE = ("fpuzzles", "sudokupad", "ipuz", "iss")
#: The longest puzzle text accepted (a 25x25 grid block with decoration fits easily).
MAX_PUZZLE_TEXT = 20_000


class BadRequest(Exception):
    """A request the API refuses, with its HTTP status and a message for the user: by default 422,
    a request that fits its model but cannot be met (a body that breaks its model is a 400)."""

    def __init__(self, message: str, status: int = 422, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.details = details


def field(body: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    """``body[name]`` checked to be of ``kind`` (``default`` when absent or null)."""
    value = body.get(name)
    if value is None:
        return default
    if isinstance(value, bool) and kind is not bool and bool not in (kind if isinstance(kind, tuple) else ()):
        raise BadRequest(f'"{name}" must be {_kind_name(kind)}, not {json.dumps(value)}', field=name)
    if not isinstance(value, kind):
        raise BadRequest(f'"{name}" must be {_kind_name(kind)}, not {json.dumps(value)[:60]}', field=name)
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "a whole number", list: "a list", dict: "an object", bool: "true or false"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def read_puzzle(body: Mapping[str, Any]) -> shudu.Puzzle:
    """The puzzle a request names; :class:`shudu.ShuduError` or :class:`BadRequest` if it is bad."""
    raw = body.get("puzzle")
    if raw is None:
        raise BadRequest('the request has no "puzzle" (text in a format of docs/formats.md)', field="puzzle")
    if isinstance(raw, dict):
        raw = json.dumps(raw)
    if not isinstance(raw, str):
        raise BadRequest('"puzzle" must be puzzle text or a JSON puzzle object', field="puzzle")
    if len(raw) > MAX_PUZZLE_TEXT:
        raise BadRequest(
            f'"puzzle" is {len(raw)} characters; at most {MAX_PUZZLE_TEXT} are read', field="puzzle"
        )
    if not raw.strip():
        raise BadRequest("the puzzle is empty: paste or type a puzzle", field="puzzle")
    variant: Any = field(body, "variant", str)
    layout = field(body, "layout", (str, list))
    regions = field(body, "regions", list)
    box = field(body, "box", str)
    fmt = detect_format(raw)
    if fmt in OWN_SHAPE:
        if variant not in (None, "standard") or box is not None or layout is not None or regions is not None:
            raise BadRequest(
                f'a {fmt} puzzle carries its own shape and rules; leave out "variant", "box", "layout"'
                ' and "regions"',
                field="puzzle",
            )
        return read_document(raw, fmt).puzzle
    if layout is not None or regions is not None:
        variant = {
            k: v for k, v in (("variant", variant), ("layout", layout), ("regions", regions)) if v is not None
        }
        variant.setdefault("variant", "standard")
    return shudu.parse_puzzle(raw, box=box, variant=variant)


def read_entries(body: Mapping[str, Any], puzzle: shudu.Puzzle) -> list[int]:
    """The player's digits (``entries``: n·n ints, 0 empty); all zeros when absent. A grid that
    is not square is a ShapeError: the player's board, its candidates and hints read square
    grids (solve, count and the setter's checks read it)."""
    puzzle.geometry.refuse_rect("the player's board (candidates, hints, saved games)")
    n = puzzle.size
    entries: list[int] = field(body, "entries", list, [0] * (n * n))
    if len(entries) != n * n:
        raise BadRequest(
            f'"entries" has {len(entries)} cells; a {n}x{n} puzzle needs {n * n}', field="entries"
        )
    for i, digit in enumerate(entries):
        if isinstance(digit, bool) or not isinstance(digit, int) or not 0 <= digit <= n:
            cell = puzzle.geometry.cell_name(i)
            raise BadRequest(
                f'"entries": {cell} holds {json.dumps(digit)}; use 0 (empty) to {n}', field="entries"
            )
    return entries


def read_pencil(body: Mapping[str, Any], puzzle: shudu.Puzzle) -> list[list[int]] | None:
    """The player's candidate marks (``pencil``: n·n lists of digits, [] for a cell without
    marks); None when absent."""
    n = puzzle.size
    pencil: list[Any] | None = field(body, "pencil", list)
    if pencil is None:
        return None
    if len(pencil) != n * n:
        raise BadRequest(f'"pencil" has {len(pencil)} cells; a {n}x{n} puzzle needs {n * n}', field="pencil")
    for i, marks in enumerate(pencil):
        if not isinstance(marks, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= n for d in marks
        ):
            cell = puzzle.geometry.cell_name(i)
            raise BadRequest(
                f'"pencil": {cell} holds {json.dumps(marks)[:40]}; use a list of digits 1 to {n}',
                field="pencil",
            )
    return pencil


def read_history(body: Mapping[str, Any], puzzle: shudu.Puzzle) -> dict[str, list[Any]] | None:
    """The undo and redo lists of a saved game, each move a list of ``{"cell": i, ...}`` changes
    naming a real cell; None when absent."""
    history: dict[str, list[Any]] | None = field(body, "history", dict)
    if history is None:
        return None
    cells = puzzle.size * puzzle.size
    if set(history) != {"undo", "redo"}:
        raise BadRequest('"history" must be {"undo": [...], "redo": [...]}', field="history")
    for side in ("undo", "redo"):
        moves = history[side]
        if not isinstance(moves, list):
            raise BadRequest(f'"history.{side}" must be a list of moves', field="history")
        for k, move in enumerate(moves):
            changes = move if isinstance(move, list) else None
            if changes is None or not all(isinstance(c, dict) for c in changes):
                raise BadRequest(
                    f'"history.{side}" move {k + 1} must be a list of changes {{"cell", "before", "after"}}',
                    field="history",
                )
            for change in changes:
                cell = change.get("cell")
                if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < cells:
                    raise BadRequest(
                        f'"history.{side}" move {k + 1} names cell {json.dumps(cell)[:30]};'
                        f" a {puzzle.size}x{puzzle.size} puzzle has cells 0 to {cells - 1}",
                        field="history",
                    )
    return history


def puzzle_json(board: shudu.Puzzle | shudu.Grid) -> dict[str, Any]:
    """The JSON form of docs/formats.md: enough to rebuild the puzzle."""
    return to_json(board)


def describe(puzzle: shudu.Puzzle) -> dict[str, Any]:
    """A puzzle with everything the page needs to draw it and to mark conflicts."""
    geo = puzzle.geometry
    n = geo.size
    region = [0] * (n * n)  # box or jigsaw region of every cell
    for house in geo.houses:
        if house.kind in ("box", "region"):
            for cell in house.cells:
                region[cell] = house.index
    extras = []
    for house in geo.houses:
        if house.kind == "extra":
            cells = list(house.cells)
            diagonal = set(cells) in ({i * n + i for i in range(n)}, {i * n + n - 1 - i for i in range(n)})
            extras.append({"name": house.name, "cells": cells, "diagonal": diagonal})
    return {
        "json": puzzle_json(puzzle),
        "size": n,
        "box": list(geo.box) if geo.box else None,
        "variant": geo.variant.name,
        "description": geo.variant.description,
        "givens": list(puzzle.cells),
        "clues": puzzle.clues,
        "digits": [digit_char(d) for d in range(1, n + 1)],
        "region": region,
        "jigsaw": geo.variant.layout is not None,
        "extras": extras,
        "houses": [{"name": h.name, "cells": list(h.cells)} for h in geo.houses],
        "links": [list(links) for links in geo.links] if any(geo.links) else None,
        "rules": [rule.to_json(n) for rule in geo.variant.rules],
        "sudokupad": sudokupad_link(puzzle),
    }


def sudokupad_link(puzzle: shudu.Puzzle) -> str | None:
    """The puzzle as a SudokuPad link, or None where SudokuPad's format cannot hold it."""
    try:
        return write_document(Document(puzzle), "sudokupad")
    except ShuduError:
        return None


def to_plain(value: Any) -> Any:
    """Any library result as JSON data: its ``to_json()``, a dataclass's fields, or plain values."""
    if hasattr(value, "to_json") and callable(value.to_json):
        return to_plain(value.to_json())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_plain(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def cell_index(ref: Any, size: int) -> int | None:
    """A cell as a 0-based index, from an int or an ``r1c2`` name; None when neither."""
    if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref < size * size:
        return ref
    named = parse_cell_name(ref) if isinstance(ref, str) else None
    if named is not None and 1 <= named[0] <= size and 1 <= named[1] <= size:
        return (named[0] - 1) * size + named[1] - 1
    return None


def step_json(step: Any, size: int) -> dict[str, Any]:
    """A logic step as JSON, with its cells also given as indices for drawing."""
    data = to_plain(step)
    if not isinstance(data, dict):
        return {"explanation": str(data), "technique": "", "cells": [], "placements": [], "eliminations": []}
    data.setdefault("explanation", str(step))
    data.setdefault("technique", "")
    for key in ("placements", "eliminations"):
        items = []
        for item in data.get(key) or []:
            cell, digit = (
                (item.get("cell"), item.get("digit")) if isinstance(item, dict) else (item[0], item[1])
            )
            index = cell_index(cell, size)
            if index is not None:
                items.append({"cell": index, "digit": digit})
        data[key] = items
    data["cells"] = [i for i in (cell_index(c, size) for c in data.get("cells") or []) if i is not None]
    structure = data.get("structure")
    if isinstance(structure, dict):
        _index_structure(structure, size)
        number_structure(data)
    return data


def _index_structure(structure: dict[str, Any], size: int) -> None:
    """Give a chain's nodes and a net's lines their cells as indices too (``at``), for drawing."""
    for link in structure.get("links") or []:
        for end in (link.get("from"), link.get("to")):
            if isinstance(end, dict):
                end["at"] = [
                    i for i in (cell_index(c, size) for c in end.get("cells") or []) if i is not None
                ]
    for node in structure.get("nodes") or []:
        if isinstance(node, dict):
            node["at"] = [i for i in (cell_index(c, size) for c in node.get("cells") or []) if i is not None]
    for branch in structure.get("branches") or []:
        for line in branch.get("lines") or [] if isinstance(branch, dict) else []:
            if isinstance(line, dict):
                line["at"] = cell_index(line.get("cell"), size)
