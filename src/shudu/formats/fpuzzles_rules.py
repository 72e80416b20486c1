"""The constraints of f-puzzles (and of SudokuPad links that carry f-puzzles data) as shudu rules.

:func:`read_rules` turns the constraint keys of an f-puzzles JSON object (``killercage``,
``thermometer``, ``littlekillersum`` …) into :class:`~shudu.rules.Rule` objects, each checked;
:func:`write_rules` writes rules back into such an object. A key or a rule that the other side
cannot say is a ParseError that names it: nothing is dropped silently.

The shapes, as f-puzzles and the tools around it (SudokuPad, the f-puzzles solver plugins) write
them: cells are ``"R1C2"``; lines are ``{"lines": [[cell, …], …]}``, one constraint per line,
from its start (a thermometer's bulb); outside clues (``sandwichsum``, ``xsum``,
``skyscraper``) are ``{"cell": …, "value": …}`` with the cell outside the grid (row 0 or n+1,
column 0 or n+1), read from that side; a little killer is ``{"cell": outside cell, "direction":
"UL" | "UR" | "DL" | "DR", "value": …}``; numbers may be JSON numbers or digit strings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import ParseError, VariantError
from ..rules import Rule, lookup

__all__ = ["COSMETIC_KEYS", "RULE_KEYS", "extra_group", "flag", "read_rules", "write_rules"]

_CELL = re.compile(r"R(\d{1,3})C(\d{1,3})", re.IGNORECASE)
_NUMBER = re.compile(r"\s*-?\d{1,7}\s*")
_DIRECTIONS = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}

#: Keys whose entries are lines, each line one rule of this kind (with these parameters).
_LINES: dict[str, tuple[str, tuple[int, ...]]] = {
    "thermometer": ("thermo", ()),
    "slowthermometer": ("slow-thermo", ()),
    "palindrome": ("palindrome", ()),
    "renban": ("renban", ()),
    "betweenline": ("between", ()),
    "entropicline": ("entropic", ()),
    "modularline": ("modular", (3,)),
    "zipperline": ("zipper", ()),
    "regionsumline": ("region-sum-line", ()),
    "doublearrow": ("double-arrow", ()),
}
#: Drawings with no meaning of their own; an entry marked ``fromConstraint`` is a drawn copy of
#: a constraint the object also holds (the f-puzzles plugins add them) and is skipped.
COSMETIC_KEYS = frozenset({"line", "circle", "rectangle", "text", "cage"})

Entry = dict[str, Any]
Handler = Callable[[Entry, int, str], list[Rule]]


# --- reading: the parts of an entry -----------------------------------------------------------


def _where(key: str, i: int) -> str:
    return f"f-puzzles {key} {i}"


def _rc(ref: object, n: int, where: str, *, outside: bool = False) -> tuple[int, int]:
    """Row and column (from 0) of an ``R1C2`` cell; with ``outside``, one step beyond the grid too."""
    m = _CELL.fullmatch(ref.strip()) if isinstance(ref, str) else None
    if m is None:
        raise ParseError(f"{where}: {ref!r} is not a cell (R1C2)")
    row, col = int(m[1]) - 1, int(m[2]) - 1
    low, high = (-1, n) if outside else (0, n - 1)
    if not (low <= row <= high and low <= col <= high):
        raise ParseError(f"{where}: cell {ref} lies outside the {n}x{n} grid")
    return row, col


def _cells(value: object, n: int, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ParseError(f"{where}: its cells must be a list, not {type(value).__name__}")
    out = []
    for ref in value:
        row, col = _rc(ref, n, where)
        out.append(row * n + col)
    return tuple(out)


def _lines(entry: Entry, n: int, where: str) -> list[tuple[int, ...]]:
    lines = entry.get("lines")
    if not isinstance(lines, list):
        raise ParseError(f'{where}: its "lines" must be a list of lines, not {type(lines).__name__}')
    if not lines:
        raise ParseError(f"{where} has no line")
    out = [_cells(line, n, where) for line in lines]
    if not all(out):
        raise ParseError(f"{where}: a line without cells")
    return out


def _number(value: object, where: str) -> int | None:
    """A whole number, written as a JSON number or in digits; None for no value."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= 10**6:
        return value
    if isinstance(value, str) and _NUMBER.fullmatch(value):
        return int(value)
    raise ParseError(f"{where}: {value!r} is not a whole number")


def _checked(rule: Rule, n: int, where: str) -> Rule:
    try:
        lookup(rule.kind).validate(rule, n, 1)
    except VariantError as exc:
        raise ParseError(f"{where}: {exc}") from None
    return rule


# --- reading: one handler a key -----------------------------------------------------------------


def _killer_cage(entry: Entry, n: int, where: str) -> list[Rule]:
    total = _number(entry.get("value"), f"{where}: the cage total")
    return [Rule("cage", _cells(entry.get("cells"), n, where), () if total is None else (total,))]


def _line_rule(kind: str, params: tuple[int, ...]) -> Handler:
    return lambda entry, n, where: [Rule(kind, line, params) for line in _lines(entry, n, where)]


def _whispers(gap: Callable[[int], int]) -> Handler:
    """Whisper lines; the gap is the entry's value, else ``gap(n)`` (German: 5 on 9x9)."""

    def read(entry: Entry, n: int, where: str) -> list[Rule]:
        value = _number(entry.get("value"), f"{where}: the whisper gap")
        params = (gap(n) if value is None else value,)
        return [Rule("whisper", line, params) for line in _lines(entry, n, where)]

    return read


def _arrow(entry: Entry, n: int, where: str) -> list[Rule]:
    circle = _cells(entry.get("cells"), n, where)
    if not 1 <= len(circle) <= 3:
        raise ParseError(
            f"{where}: a circle of {len(circle)} cells is not an arrow shudu reads (1, or a pill of 2-3)"
        )
    pill = tuple(sorted(circle))  # a pill reads left to right, top to bottom
    params = () if len(circle) == 1 else (len(circle),)
    return [
        Rule("arrow", pill + (line[1:] if line[0] in circle else line), params)
        for line in _lines(entry, n, where)
    ]


def _outside_line(entry: Entry, n: int, where: str) -> tuple[int, ...]:
    """The row or column an outside clue reads, in order from the clue."""
    ref = entry.get("cell")
    row, col = _rc(ref, n, where, outside=True)
    if row in (-1, n) and 0 <= col < n:
        cells = tuple(r * n + col for r in range(n))
        return cells[::-1] if row == n else cells
    if col in (-1, n) and 0 <= row < n:
        cells = tuple(row * n + c for c in range(n))
        return cells[::-1] if col == n else cells
    raise ParseError(
        f"{where}: an outside clue sits beside a row or column "
        f"(row 0 or {n + 1}, column 0 or {n + 1}), not at {ref}"
    )


def _line_clue(kind: str) -> Handler:
    def read(entry: Entry, n: int, where: str) -> list[Rule]:
        value = _number(entry.get("value"), f"{where}: the clue")
        cells = _outside_line(entry, n, where)
        if value is None:
            return []  # a clue without a number says nothing
        return [Rule(kind, tuple(sorted(cells)) if kind == "sandwich" else cells, (value,))]

    return read


def _little_killer(entry: Entry, n: int, where: str) -> list[Rule]:
    value = _number(entry.get("value"), f"{where}: the total")
    direction = entry.get("direction")
    if not isinstance(direction, str) or direction.upper() not in _DIRECTIONS:
        raise ParseError(f"{where}: its direction must be one of UL, UR, DL, DR, not {direction!r}")
    dr, dc = _DIRECTIONS[direction.upper()]
    row, col = _rc(entry.get("cell"), n, where, outside=True)
    if not (0 <= row < n and 0 <= col < n):
        row, col = row + dr, col + dc  # the clue sits outside: its diagonal starts one step in
    cells = []
    while 0 <= row < n and 0 <= col < n:
        cells.append(row * n + col)
        row, col = row + dr, col + dc
    if not cells:
        raise ParseError(f"{where}: the diagonal from {entry.get('cell')} going {direction} misses the grid")
    return [] if value is None else [Rule("little-killer", tuple(cells), (value,))]


def _dot(kind: str, name: str, default: int) -> Handler:
    def read(entry: Entry, n: int, where: str) -> list[Rule]:
        value = _number(entry.get("value"), f"{where}: the value")
        if value is not None and value != default:
            raise ParseError(f"{where}: a {name} of value {value} is not a rule shudu has (only {default})")
        return [Rule(kind, _pair(entry, n, where))]

    return read


def _pair(entry: Entry, n: int, where: str) -> tuple[int, ...]:
    cells = _cells(entry.get("cells"), n, where)
    if len(cells) != 2:
        raise ParseError(f"{where}: a mark between cells joins 2 cells, not {len(cells)}")
    return cells


def _xv(entry: Entry, n: int, where: str) -> list[Rule]:
    value = entry.get("value")
    kind = value.strip().lower() if isinstance(value, str) else None
    if kind not in ("x", "v"):
        raise ParseError(f"{where}: {value!r} is neither X nor V")
    return [Rule(kind, _pair(entry, n, where))]


def _parity(kind: str) -> Handler:
    def read(entry: Entry, n: int, where: str) -> list[Rule]:
        row, col = _rc(entry.get("cell"), n, where)
        return [Rule(kind, (row * n + col,))]

    return read


def _quadruple(entry: Entry, n: int, where: str) -> list[Rule]:
    cells = tuple(sorted(_cells(entry.get("cells"), n, where)))
    if len(cells) != 4:
        raise ParseError(f"{where}: a quadruple sits among 4 cells, not {len(cells)}")
    values = entry.get("values")
    if not isinstance(values, list):
        raise ParseError(f'{where}: its "values" must be a list of digits, not {type(values).__name__}')
    digits = tuple(_number(v, f"{where}: a digit") for v in values)
    if None in digits:
        raise ParseError(f"{where}: an empty digit")
    return [Rule("quad", cells, tuple(d for d in digits if d is not None))] if digits else []


_HANDLERS: dict[str, Handler] = {
    "killercage": _killer_cage,
    "littlekillersum": _little_killer,
    "sandwichsum": _line_clue("sandwich"),
    "xsum": _line_clue("x-sum"),
    "skyscraper": _line_clue("skyscraper"),
    "arrow": _arrow,
    **{key: _line_rule(kind, params) for key, (kind, params) in _LINES.items()},
    "whispers": _whispers(lambda n: (n + 1) // 2),
    "germanwhispers": _whispers(lambda n: (n + 1) // 2),
    "dutchwhispers": _whispers(lambda n: (n + 1) // 2 - 1),
    "difference": _dot("white-dot", "white kropki dot (difference)", 1),
    "ratio": _dot("black-dot", "black kropki dot (ratio)", 2),
    "xv": _xv,
    "odd": _parity("odd"),
    "even": _parity("even"),
    "quadruple": _quadruple,
}
#: Every key :func:`read_rules` reads.
RULE_KEYS = frozenset(_HANDLERS) | {"nonconsecutive", "negative"}


# --- reading: the whole object ------------------------------------------------------------------


def _entries(data: dict[str, Any], key: str) -> list[Entry]:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ParseError(f'the f-puzzles "{key}" must be a list, not {type(value).__name__}')
    for i, entry in enumerate(value, start=1):
        if not isinstance(entry, dict):
            raise ParseError(f"{_where(key, i)} must be an object, not {type(entry).__name__}")
    return value


def flag(data: dict[str, Any], key: str) -> bool:
    """A true/false field of the object (absent: false)."""
    value = data.get(key)
    if value is not None and not isinstance(value, bool):
        raise ParseError(f'the f-puzzles "{key}" must be true or false, not {value!r}')
    return bool(value)


def extra_group(cells: object, n: int, where: str) -> Rule:
    """An extra region of other than n cells: an all-different group."""
    return _checked(Rule("all-different", _cells(cells, n, where)), n, where)


def read_rules(data: dict[str, Any], n: int) -> list[Rule]:
    """Every rule the constraint keys of an f-puzzles object say, each checked, in a fixed order."""
    rules: list[Rule] = []
    for key, handler in _HANDLERS.items():
        found: list[Rule] = []
        for i, entry in enumerate(_entries(data, key), start=1):
            where = _where(key, i)
            found.extend(_checked(rule, n, where) for rule in handler(entry, n, where))
        if key in ("odd", "even") and found:
            found = [_checked(Rule(key, tuple(r.cells[0] for r in found)), n, f"f-puzzles {key}")]
        rules.extend(found)
    dots = bool(data.get("difference") or data.get("ratio"))
    return rules + _negative_rules(data, dots)


def _negative_rules(data: dict[str, Any], dots: bool) -> list[Rule]:
    """The grid-wide negative constraints: ``nonconsecutive`` and the ``negative`` list."""
    negative = data.get("negative") or []
    if not isinstance(negative, list) or not all(isinstance(v, str) for v in negative):
        raise ParseError(f'the f-puzzles "negative" must be a list of names, not {negative!r}')
    for name in negative:
        if name not in ("ratio", "xv"):
            raise ParseError(f"f-puzzles negative constraint {name!r} is not a rule shudu has")
    rules = []
    if flag(data, "nonconsecutive"):
        if "ratio" in negative:
            rules.append(Rule("strict-kropki"))
        elif dots:
            raise ParseError(
                "f-puzzles nonconsecutive with kropki dots (but no negative ratio) is not a rule shudu has"
            )
        else:
            rules.append(Rule("anti-consecutive"))
    elif "ratio" in negative:
        raise ParseError("f-puzzles negative ratio without nonconsecutive is not a rule shudu has")
    if "xv" in negative:
        rules.append(Rule("strict-xv"))
    return rules


# --- writing --------------------------------------------------------------------------------------


def _name(cell: int, n: int) -> str:
    return f"R{cell // n + 1}C{cell % n + 1}"


def _names(cells: Sequence[int], n: int) -> list[str]:
    return [_name(c, n) for c in cells]


def _touch(a: int, b: int, n: int) -> bool:
    return a != b and abs(a // n - b // n) <= 1 and abs(a % n - b % n) <= 1


def _next_to(a: int, b: int, n: int) -> bool:
    return abs(a // n - b // n) + abs(a % n - b % n) == 1


def _clue_cell(cells: Sequence[int], n: int) -> str:
    """The outside cell from which a whole row or column is read in this order."""
    first, last = cells[0], cells[-1]
    if first // n == last // n:  # a row
        return f"R{first // n + 1}C{0 if first < last else n + 1}"
    return f"R{0 if first < last else n + 1}C{first % n + 1}"


def _diagonal_clue(cells: Sequence[int], n: int) -> tuple[str, str] | None:
    """The outside cell and direction of a little killer that reads exactly these cells."""
    for direction, (dr, dc) in _DIRECTIONS.items():
        row, col = cells[0] // n - dr, cells[0] % n - dc
        if 0 <= row < n and 0 <= col < n:
            continue
        walk, r, c = [], row + dr, col + dc
        while 0 <= r < n and 0 <= c < n:
            walk.append(r * n + c)
            r, c = r + dr, c + dc
        if walk == list(cells):
            return f"R{row + 1}C{col + 1}", direction
    return None


def _arrow_entry(rule: Rule, n: int) -> Entry:
    k = rule.params[0] if rule.params else 1
    circle, line = rule.cells[:k], rule.cells[k:]
    if list(circle) != sorted(circle):
        raise ParseError(
            f"f-puzzles reads a pill left to right, top to bottom; {rule.describe(n)} runs otherwise"
        )
    anchor = next((c for c in circle if _touch(c, line[0], n)), circle[-1])
    return {"cells": _names(circle, n), "lines": [_names((anchor, *line), n)]}


def _pairs(rule: Rule, n: int) -> list[tuple[int, int]]:
    cells = rule.cells
    return [(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :] if _next_to(a, b, n)]


def _entries_for(rule: Rule, n: int) -> tuple[str, list[Entry]] | None:
    """The f-puzzles key and entries that say ``rule``, or None when it is not a plain entry."""
    kind, cells, params = rule.kind, rule.cells, rule.params
    line_keys = {k: key for key, (k, _) in _LINES.items() if k != "modular"}
    if kind in line_keys:
        return line_keys[kind], [{"lines": [_names(cells, n)]}]
    if kind == "modular" and params in ((), (3,)):
        return "modularline", [{"lines": [_names(cells, n)]}]
    if kind == "whisper":
        return "whispers", [{"lines": [_names(cells, n)], "value": str(params[0] if params else 5)}]
    if kind == "cage":
        return "killercage", [{"cells": _names(cells, n), **({"value": str(params[0])} if params else {})}]
    if kind == "arrow":
        return "arrow", [_arrow_entry(rule, n)]
    if kind in ("sandwich", "x-sum", "skyscraper"):
        clue = _clue_cell(sorted(cells) if kind == "sandwich" else cells, n)
        key = {"sandwich": "sandwichsum", "x-sum": "xsum", "skyscraper": "skyscraper"}[kind]
        return key, [{"cell": clue, "value": str(params[0])}]
    if kind == "little-killer" and (found := _diagonal_clue(cells, n)) is not None:
        entry = {"cell": found[0], "cells": _names(cells, n), "direction": found[1], "value": str(params[0])}
        return "littlekillersum", [entry]
    if kind in ("white-dot", "black-dot"):
        return ("difference" if kind == "white-dot" else "ratio"), [
            {"cells": _names(p, n)} for p in _pairs(rule, n)
        ]
    if kind in ("x", "v"):
        return "xv", [{"cells": _names(p, n), "value": kind.upper()} for p in _pairs(rule, n)]
    if kind in ("odd", "even"):
        return kind, [{"cell": _name(c, n)} for c in cells]
    if kind == "quad":
        return "quadruple", [{"cells": _names(sorted(cells), n), "values": list(params)}]
    if kind == "all-different":
        return "extraregion", [{"cells": _names(cells, n)}]
    return None


def write_rules(rules: Sequence[Rule], n: int, data: dict[str, Any], grid: list[list[Entry]]) -> None:
    """Add ``rules`` to the f-puzzles object ``data`` (restricted cells go into ``grid``)."""
    negative: list[str] = []
    for rule in rules:
        found = _entries_for(rule, n)
        if found is not None:
            data.setdefault(found[0], []).extend(found[1])
        elif rule.kind == "candidates":
            for cell in rule.cells:
                box = grid[cell // n][cell % n]
                have = set(box.get("givenPencilMarks", rule.params))
                box["givenPencilMarks"] = sorted(have & set(rule.params))
        elif rule.kind in ("strict-kropki", "anti-consecutive"):
            data["nonconsecutive"] = True
            negative += ["ratio"] if rule.kind == "strict-kropki" else []
        elif rule.kind == "strict-xv":
            negative.append("xv")
        else:
            raise ParseError(f"f-puzzles cannot say a {rule.describe(n)}; write this puzzle as iss or json")
    kinds = {rule.kind for rule in rules}
    if "anti-consecutive" in kinds and "strict-kropki" not in kinds and kinds & {"white-dot", "black-dot"}:
        raise ParseError(
            "f-puzzles' nonconsecutive lets kropki dots through, so it cannot say anti-consecutive with dots"
        )
    if negative:
        data["negative"] = list(dict.fromkeys(negative))
