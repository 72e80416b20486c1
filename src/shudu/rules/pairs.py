"""Order and pair rules: thermometers, greater-than signs, kropki dots, X and V, whispers,
palindromes, and the grid-wide negative constraints (strict kropki, strict XV, anti-consecutive)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from ..errors import VariantError
from ._util import adjacent_pairs, pair_relations, require_line, require_touching
from .base import Kind, OrderedChain, Rule, RuleType, Shape, check_cells, register, span

Pred = Callable[[int, int], bool]

# --- thermometers and signs -----------------------------------------------------------------------


def _thermo_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    digits = [grid[c] for c in rule.cells]
    if rule.kind == "slow-thermo":
        return all(a <= b for a, b in itertools.pairwise(digits))
    return all(a < b for a, b in itertools.pairwise(digits))


def _thermo_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    require_line(rule, size, "a thermometer")
    if rule.kind == "thermo" and len(rule.cells) > size:
        raise VariantError(
            f"a thermometer of {len(rule.cells)} cells cannot rise through digits {span(size, base)}"
        )


def _thermo_compile(rule: Rule, shape: Shape) -> list[Kind]:
    return [OrderedChain(rule.cells, strict=rule.kind == "thermo")]


for _name, _title, _words in (
    ("thermo", "thermometer", "digits rise strictly from the bulb (the first cell)"),
    ("slow-thermo", "slow thermometer", "digits never fall from the bulb (the first cell)"),
):
    register(
        RuleType(
            _name, "order", _title, _words, (), {"rule": _name, "cells": ["r1c1", "r1c2", "r1c3"]},
            _thermo_check, _thermo_compile, _thermo_validate, min_cells=2,
        )
    )  # fmt: skip


# --- relations between neighbours -----------------------------------------------------------------


def _pairs_rule(name: str, title: str, words: str, key: str, pred: Pred) -> None:
    """A mark on the edges between cells: every two of its cells that share an edge (the earlier
    one first) are related by ``pred``."""

    def pairs(rule: Rule, size: int) -> list[tuple[int, int]]:
        return adjacent_pairs(rule.cells, size)

    def check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
        return all(pred(grid[a], grid[b]) for a, b in pairs(rule, shape.size))

    def compile_(rule: Rule, shape: Shape) -> list[Kind]:
        return list(pair_relations(pairs(rule, shape.size), shape, key, pred))

    def validate(rule: Rule, size: int, base: int) -> None:
        check_cells(rule, size)
        require_touching(rule, size, f"a {title}")

    example = {"rule": name, "cells": ["r1c1", "r1c2"]}
    register(RuleType(name, "pairs", title, words, (), example, check, compile_, validate, min_cells=2))


_pairs_rule(
    "greater",
    "greater-than sign",
    "each cell is greater than the later cells next to it",
    "gt",
    lambda a, b: a > b,
)
_pairs_rule(
    "white-dot", "white kropki dot", "the two digits are consecutive", "white", lambda a, b: abs(a - b) == 1
)
_pairs_rule(
    "black-dot",
    "black kropki dot",
    "one digit is double the other",
    "black",
    lambda a, b: a == 2 * b or b == 2 * a,
)
_pairs_rule("x", "X", "the two digits add up to 10", "x", lambda a, b: a + b == 10)
_pairs_rule("v", "V", "the two digits add up to 5", "v", lambda a, b: a + b == 5)


def _palindrome_pairs(rule: Rule, size: int) -> list[tuple[int, int]]:
    cells = rule.cells
    return [(cells[i], cells[-1 - i]) for i in range(len(cells) // 2)]


def _palindrome_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    return all(grid[a] == grid[b] for a, b in _palindrome_pairs(rule, shape.size))


def _palindrome_compile(rule: Rule, shape: Shape) -> list[Kind]:
    return list(pair_relations(_palindrome_pairs(rule, shape.size), shape, "eq", lambda a, b: a == b))


def _line_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    require_line(rule, size, f"a {rule.kind} line")


register(
    RuleType(
        "palindrome", "lines", "palindrome line", "the line reads the same both ways", (),
        {"rule": "palindrome", "cells": ["r1c1", "r2c2", "r3c3"]},
        _palindrome_check, _palindrome_compile, _line_validate, min_cells=2, repeats=True,
    )
)  # fmt: skip


def _gap(rule: Rule) -> int:
    return rule.params[0] if rule.params else 5


def _whisper_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    return all(abs(grid[a] - grid[b]) >= _gap(rule) for a, b in itertools.pairwise(rule.cells))


def _whisper_compile(rule: Rule, shape: Shape) -> list[Kind]:
    gap = _gap(rule)
    pairs = list(itertools.pairwise(rule.cells))
    return list(pair_relations(pairs, shape, f"gap{gap}", lambda a, b: abs(a - b) >= gap))


def _whisper_validate(rule: Rule, size: int, base: int) -> None:
    _line_validate(rule, size, base)
    if not 1 <= _gap(rule) <= size - 1:
        raise VariantError(f"a whisper line's gap runs from 1 to {size - 1}, not {_gap(rule)}")


register(
    RuleType(
        "whisper", "lines", "whisper line",
        "neighbours on the line differ by at least the gap (5: German whispers, 4: Dutch whispers)",
        ("gap",), {"rule": "whisper", "cells": ["r1c1", "r1c2", "r1c3"], "gap": 5},
        _whisper_check, _whisper_compile, _whisper_validate, min_cells=2, repeats=True,
    )
)  # fmt: skip


# --- grid-wide negative constraints ---------------------------------------------------------------


def _orthogonal_pairs(size: int) -> list[tuple[int, int]]:
    out = []
    for cell in range(size * size):
        r, c = divmod(cell, size)
        if c + 1 < size:
            out.append((cell, cell + 1))
        if r + 1 < size:
            out.append((cell, cell + size))
    return out


def _marked(shape: Shape, kinds: tuple[str, ...]) -> set[frozenset[int]]:
    """Every pair of neighbours that a rule of ``kinds`` marks."""
    marked: set[frozenset[int]] = set()
    for rule in shape.rules:
        if rule.kind in kinds:
            for a, b in adjacent_pairs(rule.cells, shape.size):
                marked.add(frozenset((a, b)))
    return marked


def _negative(name: str, title: str, words: str, marks: tuple[str, ...], key: str, pred: Pred) -> None:
    def unmarked(shape: Shape) -> list[tuple[int, int]]:
        marked = _marked(shape, marks)
        return [p for p in _orthogonal_pairs(shape.size) if frozenset(p) not in marked]

    def check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
        return all(pred(grid[a], grid[b]) for a, b in unmarked(shape))

    def compile_(rule: Rule, shape: Shape) -> list[Kind]:
        return list(pair_relations(unmarked(shape), shape, key, pred))

    register(
        RuleType(
            name, "pairs", title, words, (), {"rule": name}, check, compile_,
            lambda rule, size, base: check_cells(rule, size), has_cells=False, min_cells=0,
        )
    )  # fmt: skip


_negative(
    "anti-consecutive", "anti-consecutive", "no two neighbours (sharing an edge) hold consecutive digits",
    (), "nocons", lambda a, b: abs(a - b) != 1,
)  # fmt: skip
_negative(
    "strict-kropki", "negative kropki",
    "neighbours without a dot are neither consecutive nor in a ratio of 2",
    ("white-dot", "black-dot"), "nokropki", lambda a, b: abs(a - b) != 1 and a != 2 * b and b != 2 * a,
)  # fmt: skip
_negative(
    "strict-xv", "negative X/V", "neighbours without an X or a V add up to neither 10 nor 5",
    ("x", "v"), "noxv", lambda a, b: a + b not in (5, 10),
)  # fmt: skip


# --- parity lines: the worked example of docs/constraints.md -----------------------------------


def _parity_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    return all(grid[a] % 2 != grid[b] % 2 for a, b in itertools.pairwise(rule.cells))


def _parity_compile(rule: Rule, shape: Shape) -> list[Kind]:
    pairs = list(itertools.pairwise(rule.cells))
    return list(pair_relations(pairs, shape, "parity", lambda a, b: a % 2 != b % 2))


register(
    RuleType(
        "parity-line", "lines", "parity line", "neighbours on the line alternate between odd and even", (),
        {"rule": "parity-line", "cells": ["r1c1", "r1c2", "r1c3"]},
        _parity_check, _parity_compile, _line_validate, min_cells=2, repeats=True,
    )
)  # fmt: skip
