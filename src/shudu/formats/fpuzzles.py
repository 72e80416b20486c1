"""f-puzzles and SudokuPad puzzles: links whose puzzle is lz-string compressed JSON in base64."""

from __future__ import annotations

import json
from typing import Any

from ..errors import ParseError, ShapeError, ShuduError
from ..geometry import default_box
from ..notation import cell_name
from ..puzzle import Puzzle
from ..variants import VariantLike, parse_cell, resolve_variant
from .document import Document
from .lzstring import lz_compress_base64, lz_decompress_base64


def _fpuzzles_payload(text: str) -> str:
    """The compressed part of an f-puzzles or SudokuPad link, or the text itself."""
    from urllib.parse import parse_qs, unquote, urlsplit

    text = text.strip()
    if "://" not in text and not text.startswith(("www.", "f-puzzles", "sudokupad")):
        return text
    parts = urlsplit(text if "://" in text else "https://" + text)
    load = parse_qs(parts.query).get("load")
    if load:
        return load[0].replace(" ", "+")
    path = unquote(parts.path).lstrip("/")
    for prefix in ("sudoku/fpuzzles", "fpuzzles"):
        if path.startswith(prefix):
            return path[len(prefix) :]
    raise ParseError("the link carries no f-puzzles puzzle (no ?load= part or /fpuzzles… path)")


def parse_fpuzzles(text: str, *, line: int | None = None) -> Document:
    """An f-puzzles / SudokuPad puzzle: a link, its compressed part, or the JSON itself."""
    try:
        raw = text.strip()
        data_text = raw if raw.startswith("{") else lz_decompress_base64(_fpuzzles_payload(raw))
        try:
            data = json.loads(data_text)
        except json.JSONDecodeError as exc:
            raise ParseError(f"the f-puzzles JSON is not valid: {exc.msg}") from None
        return _fpuzzles_document(data)
    except ShuduError as exc:
        raise exc.at_line(line) if line is not None else exc from None


_FPUZZLES_RULES = {"diagonal+", "diagonal-", "antiknight", "antiking", "extraregion"}
_FPUZZLES_KEPT = {"size", "grid", "title", "author", "ruleset", "solution", "highlightConflicts"}


def _fpuzzles_document(data: Any) -> Document:
    if not isinstance(data, dict) or not isinstance(data.get("size"), int) or "grid" not in data:
        raise ParseError('an f-puzzles puzzle is a JSON object with "size" and "grid"')
    n = data["size"]
    grid = data["grid"]
    if (
        not isinstance(grid, list)
        or len(grid) != n
        or any(not isinstance(r, list) or len(r) != n for r in grid)
    ):
        raise ParseError(f'the f-puzzles "grid" must be {n} rows of {n} cells')
    unsupported = sorted(
        k
        for k, v in data.items()
        if k not in _FPUZZLES_RULES | _FPUZZLES_KEPT and v not in (None, [], False, "")
    )
    if unsupported:
        raise ParseError(f"f-puzzles constraint {unsupported[0]!r} is not a rule shudu has")
    givens: list[int] = []
    entries: list[int] = []
    masks: list[int] = []
    labels: list[int] = []
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if not isinstance(cell, dict):
                raise ParseError(f"f-puzzles cell r{r + 1}c{c + 1} is not an object")
            value = cell.get("value", 0) or 0
            if not isinstance(value, int) or not 0 <= value <= n:
                raise ParseError(f"f-puzzles cell r{r + 1}c{c + 1} holds {value!r}, not a digit of 1-{n}")
            given = bool(cell.get("given"))
            givens.append(value if given else 0)
            entries.append(0 if given else value)
            mask = 0
            for d in cell.get("centerPencilMarks", []) or cell.get("candidates", []) or []:
                if isinstance(d, int) and 1 <= d <= n:
                    mask |= 1 << (d - 1)
            masks.append(mask)
            if "region" in cell:
                labels.append(cell["region"] if isinstance(cell["region"], int) else -1)
    fields: dict[str, Any] = {}
    names = [k for k in ("diagonal+", "diagonal-") if data.get(k)]
    if names and len(names) == 2:
        fields["variant"] = "x"
    elif names:
        main = range(n) if names[0] == "diagonal-" else range(n - 1, -1, -1)
        fields.setdefault("regions", []).append([i * n + j for i, j in zip(range(n), main, strict=True)])
    rules = [
        name for key, name in (("antiknight", "anti-knight"), ("antiking", "anti-king")) if data.get(key)
    ]
    for region in data.get("extraregion") or []:
        cells = region.get("cells", []) if isinstance(region, dict) else []
        fields.setdefault("regions", []).append([str(c).lower() for c in cells])
    if "regions" in fields:
        fields.update(_named_regions(fields.pop("regions"), n))
    if labels:
        if len(labels) != n * n:
            raise ParseError("some f-puzzles cells have a region and others not")
        fields["layout"] = [label for label in labels]
        fields["variant"] = "+".join(["jigsaw"] + ([fields["variant"]] if "variant" in fields else []))
    if rules:
        fields["variant"] = "+".join(([fields["variant"]] if "variant" in fields else []) + rules)
    variant: VariantLike = None
    if fields:
        if "regions" in fields and "variant" not in fields:
            fields["variant"] = "custom"
        variant = resolve_variant(fields, n)
    puzzle = Puzzle(givens, variant=variant)
    candidates = tuple(masks) if any(masks) else None
    return Document(puzzle, tuple(entries), candidates, str(data.get("title") or ""))


def _named_regions(regions: list[list[Any]], n: int) -> dict[str, Any]:
    """A named variant (windoku, pyramid) whose regions these are, else the regions as they are."""
    try:
        found = {frozenset(parse_cell(c, n) for c in region) for region in regions}
    except ShuduError:
        return {"regions": regions}
    for name in ("windoku", "pyramid"):
        try:
            named = resolve_variant(name, n)
        except ShuduError:
            continue
        if {frozenset(r) for r in named.regions} == found:
            return {"variant": name}
    return {"regions": regions}


def format_fpuzzles(doc: Document, *, link: bool = True) -> str:
    """An f-puzzles link (``link=False``: the JSON). Lines of pencil marks go as centre marks."""
    geo = doc.puzzle.geometry
    n = geo.size
    variant = geo.variant
    if geo.box is not None and geo.box != default_box(n):
        raise ShapeError(f"f-puzzles draws {n}x{n} with its own boxes only, not {geo.box[0]}x{geo.box[1]}")
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            i = r * n + c
            cell: dict[str, Any] = {}
            if doc.puzzle.cells[i]:
                cell = {"value": doc.puzzle.cells[i], "given": True}
            elif doc.entries[i]:
                cell = {"value": doc.entries[i]}
            elif doc.candidates is not None and doc.candidates[i]:
                cell = {"centerPencilMarks": [d + 1 for d in range(n) if doc.candidates[i] >> d & 1]}
            if variant.layout is not None:
                cell["region"] = variant.layout[i]
            row.append(cell)
        grid.append(row)
    data: dict[str, Any] = {"size": n, "grid": grid}
    if doc.title:
        data["title"] = doc.title
    extra = []
    for region in variant.regions:
        cells = set(region)
        if cells == {i * n + i for i in range(n)}:
            data["diagonal-"] = True
        elif cells == {i * n + n - 1 - i for i in range(n)}:
            data["diagonal+"] = True
        else:
            extra.append({"cells": [cell_name(c, n).upper() for c in region]})
    if extra:
        data["extraregion"] = extra
    if variant.anti_knight:
        data["antiknight"] = True
    if variant.anti_king:
        data["antiking"] = True
    text = json.dumps(data, separators=(",", ":"))
    return f"https://www.f-puzzles.com/?load={lz_compress_base64(text)}" if link else text
