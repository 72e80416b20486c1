"""shudu's JSON form of a puzzle: the box shape, the variant, extra regions, a jigsaw layout, and
constraint rules (``"rules": [{"rule": "cage", "cells": ["r1c1", "r1c2"], "total": 3}, …]``)."""

from __future__ import annotations

import re
from typing import Any, overload

from .. import variants
from ..errors import ParseError, ShapeError, ShuduError, check_size, shown
from ..geometry import BoxLike, resolve_box, resolve_rules
from ..notation import RATING_FIELDS
from ..puzzle import Puzzle, _Board, size_from_cells
from ..rules import digits_from_json
from ..variants import VariantLike
from .cells import B, block_cells, checked_options, text_cells, value_cells
from .limits import check_text, load_json

#: Fields the JSON form reads; the others listed may appear (in shudu's own output) and are ignored.
_JSON_FIELDS = {"size", "shape", "boxes", "box", "variant", "givens", "puzzle", "regions", "layout", "rules"}
_JSON_IGNORED = {
    "line",
    "solution",
    "status",
    "error",
    "count",
    *RATING_FIELDS,
    "clues",
    "seed",
    "name",
    "entries",
    "pencil",
}


@overload
def parse_json(
    data: str | dict[str, Any],
    *,
    box: BoxLike = ...,
    variant: VariantLike = ...,
    line: int | None = ...,
) -> Puzzle: ...
@overload
def parse_json(
    data: str | dict[str, Any],
    *,
    box: BoxLike = ...,
    variant: VariantLike = ...,
    line: int | None = ...,
    kind: type[B],
) -> B: ...
def parse_json(
    data: str | dict[str, Any],
    *,
    box: BoxLike = None,
    variant: VariantLike = None,
    line: int | None = None,
    kind: type[_Board] = Puzzle,
) -> _Board:
    """A puzzle from the JSON form ``{"size", "box", "variant", "givens", "regions", "layout"}``.

    ``box`` and ``variant`` are the defaults for fields the JSON leaves out.
    """
    box = checked_options(box, variant)
    try:
        return _parse_json(data, box, variant, line, kind)
    except ShuduError as exc:
        raise exc.at_line(line) if line is not None else exc from None


def _parse_json(
    data: str | dict[str, Any],
    box: BoxLike,
    variant: VariantLike,
    line: int | None,
    kind: type[B],
) -> B:
    if isinstance(data, str):
        data = load_json(check_text(data, reader="parse_json", line=line))
    elif not isinstance(data, dict):
        raise TypeError(f"parse_json() takes JSON text or a dict, not {type(data).__name__}")
    if not isinstance(data, dict):
        raise ParseError('a JSON puzzle must be an object with at least "givens"')
    unknown = set(data) - _JSON_FIELDS - _JSON_IGNORED
    if unknown:
        raise ParseError(
            f"unknown JSON field {sorted(unknown)[0]!r}; known: {', '.join(sorted(_JSON_FIELDS))}"
        )
    givens = data.get("givens", data.get("puzzle"))
    if givens is None:
        raise ParseError('JSON puzzle has no "givens"')
    if "shape" in data or "boxes" in data:
        return _rect(data, givens, variant, kind)
    rules = data.get("rules")
    base = digits_from_json(rules) if isinstance(rules, list) else 1
    if base != 1:
        # the digits run from 0: "0" is a digit, "." the empty cell
        if isinstance(givens, list) and all(isinstance(v, str) for v in givens):
            givens = "\n".join(givens)
        if not isinstance(givens, str):
            raise ParseError(
                '"givens" of a puzzle whose digits run from 0 must be a string of cells ("." for empty)'
            )
        cells = value_cells(givens, base)
    elif isinstance(givens, str):
        cells = text_cells(givens)
    elif isinstance(givens, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in givens):
        cells = tuple(givens)
    elif isinstance(givens, list) and all(isinstance(v, str) for v in givens):
        cells = block_cells("\n".join(givens))
    else:
        raise ParseError('"givens" must be a string of cells, a list of digits or a list of row strings')
    size = size_from_cells(len(cells))
    if "size" in data and check_size(data["size"], '"size"') != size:
        raise ParseError(f'"size" is {data["size"]!r} but the givens have {len(cells)} cells ({size}x{size})')
    if "box" in data:
        raw = data["box"]
        if not isinstance(raw, str | list | tuple):
            raise ShapeError(f'"box" must be [rows, columns] or "RxC", not {shown(raw)}')
        box = resolve_box(raw)
    if any(k in data for k in ("variant", "regions", "layout", "rules")):
        fields = dict(data)
        if "variant" not in fields and isinstance(variant, str):
            fields["variant"] = variant
        variant = resolve_rules(fields, size)
    return kind(cells, box=box, variant=variant)


def _rect(data: dict[str, Any], givens: object, variant: VariantLike, kind: type[B]) -> B:
    """A board on a grid that is not square: ``"shape": "5x10"`` (rows x columns), ``"size"``
    the number of digits (by default the longer side), ``"boxes": false`` for none; the givens
    a string of the digits' values (``.`` for empty) or a list of digits (0 for empty)."""
    if isinstance(givens, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in givens):
        cells = tuple(givens)
        count = len(cells)
    elif isinstance(givens, str):
        count = sum(1 for c in givens if not c.isspace() and c != "|")
    else:
        raise ParseError('"givens" of a grid with a "shape" must be a string of cells or a list of digits')
    side = size_from_cells(count) if "shape" not in data else 0
    raw = data.get("shape", f"{side}x{side}")
    match = re.fullmatch(r"\s*([0-9]{1,2})\s*x\s*([0-9]{1,2})\s*", raw) if isinstance(raw, str) else None
    if match is None:
        raise ShapeError(f'"shape" must be "RxC" text (rows x columns, e.g. "5x10"), not {shown(raw)}')
    rows, cols = int(match[1]), int(match[2])
    size = check_size(data.get("size", max(rows, cols)), '"size"')
    if count != rows * cols:
        raise ParseError(f"the givens have {count} cells; a {rows}x{cols} grid has {rows * cols}")
    if isinstance(givens, str):
        rules = data.get("rules")
        cells = value_cells(givens, digits_from_json(rules) if isinstance(rules, list) else 1, size=size)
    if "box" in data:
        raise ShapeError(f'a {rows}x{cols} grid has its own boxes (or "boxes": false), not "box"')
    if variant is not None and not (isinstance(variant, str) and variant == "standard"):
        raise ShapeError(f"a {rows}x{cols} grid takes its rules in the JSON form, not as a variant argument")
    return kind(cells, variant=variants.from_json(data, size, (rows, cols)))


def to_json(board: _Board) -> dict[str, Any]:
    """The JSON form: enough to rebuild the board with :func:`parse_json`."""
    geo = board.geometry
    out: dict[str, Any] = {"size": geo.size}
    if geo.box is not None and not geo.is_rect:
        out["box"] = list(geo.box)
    if not geo.variant.is_standard:
        out.update(geo.variant.to_json())
    out["givens"] = board.to_string()
    return out
