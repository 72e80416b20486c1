"""f-puzzles and SudokuPad puzzles: links whose puzzle is lz-string compressed JSON in base64."""

from __future__ import annotations

import json
from typing import Any

from ..errors import ParseError, ShapeError, ShuduError, VariantError
from ..geometry import default_box
from ..notation import MAX_SIZE, MIN_SIZE, cell_name
from ..puzzle import Puzzle
from ..rules import Rule
from ..variants import parse_cell, resolve_variant
from .document import Document, require_square
from .fpuzzles_rules import COSMETIC_KEYS, RULE_KEYS, extra_group, flag, read_rules, write_rules
from .limits import load_json
from .lzstring import lz_compress_base64, lz_decompress_base64
from .sudokupad import is_sudokupad, parse_sudokupad


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
    if is_sudokupad(text):
        return parse_sudokupad(text, line=line)  # SudokuPad's own form, in a link read as f-puzzles
    try:
        raw = text.strip()
        data_text = raw if raw.startswith("{") else lz_decompress_base64(_fpuzzles_payload(raw))
        return _fpuzzles_document(load_json(data_text, what="the f-puzzles JSON"))
    except ShuduError as exc:
        raise exc.at_line(line) if line is not None else exc from None


_FPUZZLES_REGIONS = {"diagonal+", "diagonal-", "antiknight", "antiking", "extraregion"}
_FPUZZLES_KEPT = {
    "size", "grid", "title", "author", "ruleset", "solution", "highlightConflicts",
    "disabledlogic", "truecandidatesoptions",
}  # fmt: skip


def _fpuzzles_document(data: Any) -> Document:
    if not isinstance(data, dict) or "grid" not in data:
        raise ParseError('an f-puzzles puzzle is a JSON object with "size" and "grid"')
    n = data.get("size")
    if not isinstance(n, int) or isinstance(n, bool) or not MIN_SIZE <= n <= MAX_SIZE:
        raise ParseError(
            f'the f-puzzles "size" must be a whole number from {MIN_SIZE} to {MAX_SIZE}, not {n!r}'
        )
    _refuse_unknown(data)
    title = data.get("title") or ""
    if not isinstance(title, str):
        raise ParseError(f'the f-puzzles "title" must be text, not {type(title).__name__}')
    givens, entries, masks, labels, restricted = _read_grid(data["grid"], n)
    fields, all_different = _read_regions(data, n, labels)
    rules = restricted + all_different + read_rules(data, n)
    try:
        variant = resolve_variant(fields or "standard", n)
        if rules:
            variant = variant.with_rules(rules, n)
    except VariantError as exc:
        raise ParseError(f"f-puzzles regions: {exc}") from None
    puzzle = Puzzle(givens, variant=variant)
    candidates = tuple(masks) if any(masks) else None
    return Document(puzzle, tuple(entries), candidates, title)


def _refuse_unknown(data: dict[str, Any]) -> None:
    """A ParseError naming the first f-puzzles constraint shudu has no rule for."""
    known = _FPUZZLES_REGIONS | _FPUZZLES_KEPT | RULE_KEYS
    for key in sorted(data):
        value = data[key]
        if key in known or value in (None, [], False, ""):
            continue
        copies = isinstance(value, list) and all(
            isinstance(v, dict) and v.get("fromConstraint") for v in value
        )
        if key in COSMETIC_KEYS and copies:
            continue  # drawn copies of constraints the puzzle also holds
        raise ParseError(f"f-puzzles constraint {key!r} is not a rule shudu has")


Grid = tuple[list[int], list[int], list[int], list[int], list[Rule]]


def _read_grid(grid: Any, n: int) -> Grid:
    """Givens, placed digits, pencil marks, region labels and restricted cells of the grid."""
    if (
        not isinstance(grid, list)
        or len(grid) != n
        or any(not isinstance(r, list) or len(r) != n for r in grid)
    ):
        raise ParseError(f'the f-puzzles "grid" must be {n} rows of {n} cells')
    givens: list[int] = []
    entries: list[int] = []
    masks: list[int] = []
    labels: list[int] = []
    restricted: list[Rule] = []
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            where = f"f-puzzles cell r{r + 1}c{c + 1}"
            if not isinstance(cell, dict):
                raise ParseError(f"{where} is not an object")
            value = cell.get("value", 0) or 0
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= n:
                raise ParseError(f"{where} holds {value!r}, not a digit of 1-{n}")
            given = bool(cell.get("given"))
            givens.append(value if given else 0)
            entries.append(0 if given else value)
            mask = 0
            marks = cell.get("centerPencilMarks", []) or cell.get("candidates", []) or []
            for d in _items(marks, f"the pencil marks of {where}"):
                if isinstance(d, int) and 1 <= d <= n:
                    mask |= 1 << (d - 1)
            masks.append(mask)
            if "region" in cell:
                labels.append(cell["region"] if isinstance(cell["region"], int) else -1)
            allowed = _items(cell.get("givenPencilMarks") or [], f"the given pencil marks of {where}")
            if any(not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= n for d in allowed):
                raise ParseError(
                    f"the given pencil marks of {where} must be digits of 1-{n}, not {allowed!r}"
                )
            if allowed:
                restricted.append(Rule("candidates", (r * n + c,), tuple(sorted(set(allowed)))))
    return givens, entries, masks, labels, restricted


def _read_regions(data: dict[str, Any], n: int, labels: list[int]) -> tuple[dict[str, Any], list[Rule]]:
    """The variant fields (diagonals, extra regions, jigsaw, anti-knight and anti-king), and the
    extra regions of other than n cells as all-different rules."""
    fields: dict[str, Any] = {}
    names = [k for k in ("diagonal+", "diagonal-") if flag(data, k)]
    if names and len(names) == 2:
        fields["variant"] = "x"
    elif names:
        main = range(n) if names[0] == "diagonal-" else range(n - 1, -1, -1)
        fields.setdefault("regions", []).append([i * n + j for i, j in zip(range(n), main, strict=True)])
    rules = [
        name for key, name in (("antiknight", "anti-knight"), ("antiking", "anti-king")) if flag(data, key)
    ]
    groups: list[Rule] = []
    for i, region in enumerate(_items(data.get("extraregion") or [], 'the f-puzzles "extraregion"'), 1):
        listed = region.get("cells", []) if isinstance(region, dict) else []
        cells = _items(listed, "the cells of an f-puzzles extra region")
        if len(cells) == n:
            fields.setdefault("regions", []).append([str(c).lower() for c in cells])
        else:  # not a whole region: an all-different group
            groups.append(extra_group(cells, n, f"f-puzzles extraregion {i}"))
    if "regions" in fields:
        fields.update(_named_regions(fields.pop("regions"), n))
    if labels:
        if len(labels) != n * n:
            raise ParseError("some f-puzzles cells have a region and others not")
        fields["layout"] = [label for label in labels]
        fields["variant"] = "+".join(["jigsaw"] + ([fields["variant"]] if "variant" in fields else []))
    if rules:
        fields["variant"] = "+".join(([fields["variant"]] if "variant" in fields else []) + rules)
    if "regions" in fields and "variant" not in fields:
        fields["variant"] = "custom"
    return fields, groups


def _items(value: Any, what: str) -> list[Any]:
    """``value`` when it is a JSON list, else a ParseError naming ``what``."""
    if not isinstance(value, list):
        raise ParseError(f"{what} must be a list, not {type(value).__name__}")
    return value


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
    """An f-puzzles link (``link=False``: the JSON). Lines of pencil marks go as centre marks; the
    puzzle's rules as f-puzzles constraints (a rule f-puzzles cannot say is a ParseError)."""
    require_square("f-puzzles", doc.puzzle)
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
    write_rules(variant.rules, n, data, grid)
    text = json.dumps(data, separators=(",", ":"))
    return f"https://www.f-puzzles.com/?load={lz_compress_base64(text)}" if link else text
