"""The other one-line input forms of the Interactive Sudoku Solver: a grid of pencil marks and
the two killer forms.

- A **pencil-mark grid**: n·n·n characters, each cell's n places in turn, a digit where the cell
  may hold it and ``.`` where not (``123456789.2345678.…``). A cell with one digit is a given, one
  with all n is open, one with some is a restricted cell (the ``candidates`` rule).
- The **long killer form** (``3x3::k:6150:6150:6401:…:``, SudoCue's): 81 numbers after
  ``3x3:`` (or ``3x3:d:`` for the diagonals too) and ``k:``, each ``total × 256 + cage number``;
  a total of 0 leaves the cell out of every cage.
- The **short killer form** (``Z<<<<W<<<^0<<>^…``, 81 characters): a cell is its cage's total
  (``0``-``9``, ``A``-``Z`` for 10-35, ``a``-``j`` for 36-45) or an arrow to the cell whose
  cage it joins (``<`` ``>`` ``^`` ``v``, and `````, ``'``, ``,``, ``.`` for up-left, up-right,
  down-left, down-right). A cage total of 0 is a cage without a total (its digits differ).

:func:`is_iss_form` says whether a text is one of them, :func:`parse_iss_form` reads it; every
error names the position and what is wrong there.
"""

from __future__ import annotations

import re

from ..errors import ParseError, ShuduError
from ..notation import cell_name
from ..puzzle import Puzzle
from ..rules import Rule
from ..variants import Variant, get

__all__ = ["is_iss_form", "parse_iss_form"]

_SHORT_KILLER = re.compile(r"[0-9A-Za-j^<v>`',.]{81}")
_ARROWS = "<>^v`',."
_PENCIL_SIZES = {n**3: n for n in range(5, 10)}  # 4x4 (64) would read as an 8x8 puzzle line


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _form(text: str) -> str | None:
    s = _squeezed(text)
    if s.startswith("3x3:") and s.split(":")[2:3] == ["k"]:
        return "long killer"
    if _SHORT_KILLER.fullmatch(s) and any(c in s for c in _ARROWS[:7]):
        return "short killer"
    if len(s) in _PENCIL_SIZES and re.fullmatch(r"[0-9.]+", s) and s.strip("."):
        return "pencil marks"
    return None


def is_iss_form(text: str) -> bool:
    """Whether ``text`` is one of ISS's grid forms: pencil marks or a killer form."""
    return _form(text) is not None


def parse_iss_form(text: str) -> Puzzle:
    """The puzzle written in one of ISS's grid forms (see the module's description)."""
    form = _form(text)
    s = _squeezed(text)
    if form == "long killer":
        return _long_killer(s)
    if form == "short killer":
        return _short_killer(s)
    if form == "pencil marks":
        return _pencil_marks(s)
    raise ParseError("not one of ISS's grid forms (a pencil-mark grid, 3x3::k:…, or a killer arrow grid)")


def _puzzle(givens: list[int], rules: list[Rule], variant: Variant, n: int) -> Puzzle:
    try:
        if rules:
            variant = variant.with_rules(rules, n)
        return Puzzle(givens, variant=variant)
    except ShuduError as exc:
        raise ParseError(str(exc)) from None


def _pencil_marks(s: str) -> Puzzle:
    n = _PENCIL_SIZES[len(s)]
    givens = [0] * (n * n)
    rules: list[Rule] = []
    for cell in range(n * n):
        chunk = s[cell * n : (cell + 1) * n]
        digits = set()
        for k, char in enumerate(chunk):
            if char == ".":
                continue
            if not 1 <= int(char) <= n:
                where = cell * n + k + 1
                raise ParseError(
                    f"pencil marks: character {char!r} at position {where} ({cell_name(cell, n)}) "
                    f"is not a digit of 1-{n}",
                    column=where,
                    char=char,
                )
            digits.add(int(char))
        if not digits:
            raise ParseError(
                f"pencil marks: {cell_name(cell, n)} (positions {cell * n + 1}-{cell * n + n}) has no "
                "digit left",
                column=cell * n + 1,
            )
        if len(digits) == 1:
            givens[cell] = digits.pop()
        elif len(digits) < n:
            rules.append(Rule("candidates", (cell,), tuple(sorted(digits))))
    return _puzzle(givens, rules, Variant(), n)


def _cage_rule(cells: list[int], total: int) -> Rule:
    return Rule("cage", tuple(cells), (total,) if total else ())


def _long_killer(s: str) -> Puzzle:
    parts = s.split(":")
    if parts[-1] == "":
        parts.pop()
    if len(parts) != 84:
        raise ParseError(f"3x3::k: form: {len(parts) - 3} numbers after 'k:'; it holds one a cell, 81")
    if parts[1] not in ("", "d"):
        raise ParseError(f"3x3::k: form: {parts[1]!r} between '3x3:' and ':k' is neither empty nor 'd'")
    cages: dict[int, tuple[int, list[int]]] = {}
    for cell, raw in enumerate(parts[3:]):
        where = f"3x3::k: form, number {cell + 1} ({cell_name(cell, 9)})"
        if not re.fullmatch(r"[0-9]{1,6}", raw):
            raise ParseError(f"{where}: {raw!r} is not a whole number (total × 256 + cage)")
        total, cage = divmod(int(raw), 256)
        if not total:
            continue
        known = cages.setdefault(cage, (total, []))
        if known[0] != total:
            raise ParseError(f"{where}: cage {cage} totals {known[0]} elsewhere, {total} here")
        known[1].append(cell)
    variant = get("x", 9) if parts[1] == "d" else Variant()
    return _puzzle([0] * 81, [_cage_rule(cells, total) for total, cells in cages.values()], variant, 9)


_STEPS = {
    "<": (0, -1),
    ">": (0, 1),
    "^": (-1, 0),
    "v": (1, 0),
    "`": (-1, -1),
    "'": (-1, 1),
    ",": (1, -1),
    ".": (1, 1),
}


def _total(char: str) -> int:
    if char.isdigit():
        return int(char)
    if "A" <= char <= "Z":
        return ord(char) - ord("A") + 10
    return ord(char) - ord("a") + 36


def _short_killer(s: str) -> Puzzle:
    n = 9
    points: list[int] = []
    for cell, char in enumerate(s):
        if char not in _STEPS:
            points.append(cell)
            continue
        dr, dc = _STEPS[char]
        row, col = divmod(cell, n)
        if not (0 <= row + dr < n and 0 <= col + dc < n):
            raise ParseError(
                f"killer arrows: {char!r} at position {cell + 1} ({cell_name(cell, n)}) points outside "
                "the grid",
                column=cell + 1,
                char=char,
            )
        points.append((row + dr) * n + col + dc)
    cages: dict[int, list[int]] = {}
    for cell in range(n * n):
        head, steps = cell, 0
        while points[head] != head:
            head = points[head]
            steps += 1
            if steps > n * n:
                raise ParseError(
                    f"killer arrows: the arrows from position {cell + 1} ({cell_name(cell, n)}) run in a "
                    "loop and reach no cage total",
                    column=cell + 1,
                )
        cages.setdefault(head, []).append(cell)
    rules = [_cage_rule(cells, _total(s[head])) for head, cells in cages.items()]
    return _puzzle([0] * 81, rules, Variant(), n)
