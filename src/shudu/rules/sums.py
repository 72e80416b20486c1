"""Sum rules: killer cages, sums, little killers, arrows, sandwiches, lunchboxes, X-sums,
skyscrapers, sum lines, region-sum lines and zippers."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..errors import VariantError
from ..notation import cell_name
from ._util import digits_of, regions_crossed, require_line, sum_range, touching, value_sum
from .base import (
    AllDifferent,
    Compile,
    Kind,
    LineCondition,
    Rule,
    RuleType,
    Shape,
    check_cells,
    register,
    span,
)

ROW1 = [f"r1c{c}" for c in range(1, 10)]
COLUMN1 = [f"r{r}c1" for r in range(1, 10)]

# --- killer cages and sums -------------------------------------------------------------------------


def weights(cells: Sequence[int], coeffs: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The distinct cells of a sum, each with its coefficients added up (a cell listed twice
    counts twice); cells whose weights cancel are left out."""
    total: dict[int, int] = {}
    for cell, coeff in zip(cells, coeffs, strict=True):
        total[cell] = total.get(cell, 0) + coeff
    kept = {c: w for c, w in total.items() if w}
    return tuple(kept), tuple(kept.values())


def _cage_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    digits = digits_of(rule, grid)
    return len(set(digits)) == len(digits) and (not rule.params or sum(digits) == rule.params[0])


def _cage_compile(rule: Rule, shape: Shape) -> list[Kind]:
    kinds: list[Kind] = [AllDifferent(rule.cells)]
    if rule.params:
        kinds.append(value_sum(shape, rule.cells, (1,) * len(rule.cells), rule.params[0], distinct=True))
    return kinds


def _cage_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    if len(rule.cells) > size:
        raise VariantError(
            f"a killer cage of {len(rule.cells)} cells cannot hold different digits of {span(size, base)}"
        )
    if rule.params:
        low, high = sum_range(len(rule.cells), size, True, base)
        if not low <= rule.params[0] <= high:
            raise VariantError(
                f"no {len(rule.cells)} different digits add up to {rule.params[0]} "
                f"(a cage of {len(rule.cells)} cells totals {low} to {high})"
            )


register(
    RuleType(
        "cage", "sums", "killer cage",
        "the digits of the cage differ and add up to its total (a cage without a total only differs)",
        ("total",), {"rule": "cage", "cells": ["r1c1", "r1c2"], "total": 3},
        _cage_check, _cage_compile, _cage_validate,
    )
)  # fmt: skip


def _coeffs(rule: Rule) -> tuple[int, ...]:
    return rule.params[1:] or (1,) * len(rule.cells)


def _sum_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    return sum(c * d for c, d in zip(_coeffs(rule), digits_of(rule, grid), strict=True)) == rule.params[0]


def _sum_compile(rule: Rule, shape: Shape) -> list[Kind]:
    return [value_sum(shape, *weights(rule.cells, _coeffs(rule)), rule.params[0])]


def _sum_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    if not rule.params:
        raise VariantError(f"a {lookup_title(rule)} needs its total")
    coeffs = _coeffs(rule)
    if len(coeffs) != len(rule.cells):
        raise VariantError(f"a sum has {len(rule.cells)} cells but {len(coeffs)} coefficients")
    if any(abs(c) > 100 for c in coeffs):
        raise VariantError("a sum's coefficients run from -100 to 100")
    top = base + size - 1
    low = sum(min(c * base, c * top) for c in coeffs)
    high = sum(max(c * base, c * top) for c in coeffs)
    if not low <= rule.params[0] <= high:
        raise VariantError(
            f"the total {rule.params[0]} is out of reach: these cells add up to {low} to {high}"
        )


def lookup_title(rule: Rule) -> str:
    return {"little-killer": "little killer clue"}.get(rule.kind, rule.kind)


register(
    RuleType(
        "sum", "sums", "sum",
        "the digits add up to the total (they may repeat); optional coefficients weigh each cell",
        ("total", "*coeffs"), {"rule": "sum", "cells": ["r1c1", "r2c2"], "total": 10},
        _sum_check, _sum_compile, _sum_validate, repeats=True,
    )
)  # fmt: skip
register(
    RuleType(
        "little-killer", "sums", "little killer",
        "the digits along the diagonal from the clue add up to it (they may repeat)",
        ("total",), {"rule": "little-killer", "cells": ["r1c2", "r2c1"], "total": 5},
        _sum_check, _sum_compile, _sum_validate,
    )
)  # fmt: skip


# --- arrows ---------------------------------------------------------------------------------------


def _circle(rule: Rule) -> int:
    return rule.params[0] if rule.params else 1


def _arrow_coeffs(rule: Rule) -> tuple[int, ...]:
    k = _circle(rule)
    return tuple(10 ** (k - 1 - i) for i in range(k)) + (-1,) * (len(rule.cells) - k)


def _arrow_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    return sum(c * d for c, d in zip(_arrow_coeffs(rule), digits_of(rule, grid), strict=True)) == 0


def _arrow_compile(rule: Rule, shape: Shape) -> list[Kind]:
    return [value_sum(shape, *weights(rule.cells, _arrow_coeffs(rule)), 0)]


def _arrow_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    k = _circle(rule)
    if not 1 <= k <= 3:
        raise VariantError(f"an arrow's circle holds 1 to 3 digits, not {k}")
    if k > 1 and base + size - 1 > 9:
        raise VariantError("a pill arrow reads its digits as a number, which needs digits of one figure")
    if len(rule.cells) <= k:
        raise VariantError("an arrow needs at least one cell on its line after the circle")
    if not any(touching(rule.cells[k], c, size) for c in rule.cells[:k]):
        raise VariantError(
            f"an arrow's line starts at {cell_name(rule.cells[k], size)}, away from its circle"
        )
    require_line(Rule(rule.kind, rule.cells[k:]), size, "an arrow")


register(
    RuleType(
        "arrow", "sums", "arrow",
        "the digits on the line add up to the circle; a pill of 2 or 3 cells (circle = 2 or 3) "
        "reads as a number, left to right and top to bottom",
        ("circle",), {"rule": "arrow", "cells": ["r1c1", "r1c2", "r1c3"]},
        _arrow_check, _arrow_compile, _arrow_validate, min_cells=2,
    )
)  # fmt: skip


def _double_coeffs(rule: Rule) -> tuple[int, ...]:
    return (1,) + (-1,) * (len(rule.cells) - 2) + (1,)


def _double_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    return sum(c * d for c, d in zip(_double_coeffs(rule), digits_of(rule, grid), strict=True)) == 0


def _double_compile(rule: Rule, shape: Shape) -> list[Kind]:
    return [value_sum(shape, *weights(rule.cells, _double_coeffs(rule)), 0)]


def _double_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    require_line(rule, size, "a double arrow")


register(
    RuleType(
        "double-arrow", "sums", "double arrow",
        "the digits between the two end circles add up to the sum of the circles",
        (), {"rule": "double-arrow", "cells": ["r1c1", "r1c2", "r1c3"]},
        _double_check, _double_compile, _double_validate, min_cells=3,
    )
)  # fmt: skip


# --- outside clues and lunchboxes -----------------------------------------------------------------


def _between_extremes(digits: Sequence[int], low: int, high: int) -> int | None:
    if low not in digits or high not in digits:
        return None
    i, j = sorted((digits.index(low), digits.index(high)))
    return sum(digits[i + 1 : j])


def _sandwich_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    digits = digits_of(rule, grid)  # a row or column: one lowest and one highest digit (the houses see to it)
    if digits.count(shape.low) != 1 or digits.count(shape.high) != 1:
        return False
    return _between_extremes(digits, shape.low, shape.high) == rule.params[0]


def _lunchbox_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    digits = digits_of(rule, grid)
    if len(set(digits)) != len(digits):
        return False
    return _between_extremes(digits, min(digits), max(digits)) == rule.params[0]


def _line_clue_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    if not rule.params:
        raise VariantError(f"a {rule.kind} clue needs its number")
    rows = {c // size for c in rule.cells}
    cols = {c % size for c in rule.cells}
    if len(rule.cells) != size or (len(rows) != 1 and len(cols) != 1):
        raise VariantError(f"a {rule.kind} clue reads a whole row or column")
    if rule.params[0] < 0:
        raise VariantError(f"a {rule.kind} clue cannot be negative")


def _sandwich_validate(rule: Rule, size: int, base: int) -> None:
    _line_clue_validate(rule, size, base)
    high = sum_range(size - 2, size - 2, True, base + 1)[1]
    if rule.params[0] > high:
        raise VariantError(f"a sandwich clue is at most {high} on a {size}x{size} grid, not {rule.params[0]}")


def by_values(name: str) -> Compile:
    """The compilation of a rule the engine's condition ``name`` propagates on digits worth their
    index (1 … n); on other digits (0 … n-1), the generic condition checks the rule itself."""

    def compile_(rule: Rule, shape: Shape) -> list[Kind]:
        if shape.base == 1:
            return [LineCondition(name, rule.cells, rule.params)]
        return [LineCondition("rule", rule.cells, rule=rule)]

    return compile_


def _lunchbox_compile(rule: Rule, shape: Shape) -> list[Kind]:
    clue = Rule(rule.kind, rule.cells, rule.params[:1])
    return [AllDifferent(rule.cells), *by_values("lunchbox")(clue, shape)]


def _lunchbox_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    if not rule.params or rule.params[0] < 0:
        raise VariantError("a lunchbox needs a total of 0 or more")
    if len(rule.cells) > size:
        raise VariantError(
            f"a lunchbox of {len(rule.cells)} cells cannot hold different digits of {span(size, base)}"
        )


register(
    RuleType(
        "sandwich", "sums", "sandwich",
        "the digits between the 1 and the highest digit of the row or column add up to the clue",
        ("total",), {"rule": "sandwich", "cells": ROW1, "total": 10},
        _sandwich_check, by_values("sandwich"), _sandwich_validate,
    )
)  # fmt: skip
register(
    RuleType(
        "lunchbox", "sums", "lunchbox",
        "the digits differ, and those between the smallest and the largest add up to the total",
        ("total",), {"rule": "lunchbox", "cells": ["r1c1", "r1c2", "r1c3", "r1c4"], "total": 5},
        _lunchbox_check, _lunchbox_compile, _lunchbox_validate, min_cells=2,
    )
)  # fmt: skip


def _xsum_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    digits = digits_of(rule, grid)
    return sum(digits[: digits[0]]) == rule.params[0]


def _skyscraper_count(digits: Sequence[int]) -> int:
    seen, tallest = 0, 0  # a digit 0 (on digits from 0) is no building
    for d in digits:
        if d > tallest:
            seen, tallest = seen + 1, d
    return seen


def _skyscraper_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    return _skyscraper_count(digits_of(rule, grid)) == rule.params[0]


def _skyscraper_compile(rule: Rule, shape: Shape) -> list[Kind]:
    """The engine's condition counts on digit indices: on digits from 0 the tallest starts at
    the index of the 0 (1), so that a 0 is never seen."""
    if shape.base == 1:
        return [LineCondition("skyscraper", rule.cells, rule.params)]
    return [LineCondition("skyscraper", rule.cells, (rule.params[0], 1))]


register(
    RuleType(
        "x-sum", "sums", "X-sum",
        "the first X digits from the clue add up to it, X being the first digit",
        ("total",), {"rule": "x-sum", "cells": ROW1, "total": 10},
        _xsum_check, by_values("x-sum"), _line_clue_validate,
    )
)  # fmt: skip
register(
    RuleType(
        "skyscraper", "sums", "skyscraper",
        "seen from the clue, as many digits are visible as it says (a digit hides those lower behind "
        "it; a 0 is no building)",
        ("count",), {"rule": "skyscraper", "cells": COLUMN1, "count": 3},
        _skyscraper_check, _skyscraper_compile, _line_clue_validate,
    )
)  # fmt: skip


# --- lines with sums --------------------------------------------------------------------------------


def _splits(digits: Sequence[int], total: int) -> bool:
    run = 0
    for d in digits:
        run += d
        if run == total:
            run = 0
        elif run > total:
            return False
    return run == 0


def _sum_line_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    digits = digits_of(rule, grid)
    total, loop = rule.params[0], len(rule.params) > 1 and rule.params[1] == 1
    if not loop:
        return _splits(digits, total)
    return any(_splits(digits[i:] + digits[:i], total) for i in range(len(digits)))


def _sum_line_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    if not rule.params or rule.params[0] < max(base, 1):
        raise VariantError(f"a sum line needs a total of {max(base, 1)} or more")
    if len(rule.params) > 1 and rule.params[1] not in (0, 1):
        raise VariantError("a sum line's loop flag is 0 or 1")
    require_line(rule, size, "a sum line")


register(
    RuleType(
        "sum-line", "lines", "sum line",
        "the line splits into stretches that each add up to the total (loop = 1: a closed loop)",
        ("total", "loop"), {"rule": "sum-line", "cells": ["r1c1", "r1c2", "r1c3"], "total": 10},
        _sum_line_check, by_values("sum-line"), _sum_line_validate,
    )
)  # fmt: skip


def _region_sum_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    sums = {sum(grid[c] for c in part) for part in regions_crossed(rule.cells, shape)}
    return len(sums) == 1


def _equal_sums(parts: Sequence[Sequence[int]], shape: Shape) -> list[Kind]:
    kinds: list[Kind] = []
    for a, b in itertools.pairwise(parts):
        kinds.append(value_sum(shape, *weights(tuple(a) + tuple(b), (1,) * len(a) + (-1,) * len(b)), 0))
    return kinds


def _region_sum_compile(rule: Rule, shape: Shape) -> list[Kind]:
    return _equal_sums(regions_crossed(rule.cells, shape), shape)


def _line_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    require_line(rule, size, f"a {rule.kind} line")


register(
    RuleType(
        "region-sum-line", "lines", "region-sum line",
        "the digits on the line add up to the same total in each region it passes through",
        (), {"rule": "region-sum-line", "cells": ["r3c2", "r3c3", "r3c4"]},
        _region_sum_check, _region_sum_compile, _line_validate, min_cells=2, repeats=True,
    )
)  # fmt: skip


def _zipper_pairs(cells: Sequence[int]) -> tuple[list[tuple[int, int]], int | None]:
    half = len(cells) // 2
    pairs = [(cells[i], cells[-1 - i]) for i in range(half)]
    return pairs, cells[half] if len(cells) % 2 else None


def _zipper_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    pairs, centre = _zipper_pairs(rule.cells)
    sums = {grid[a] + grid[b] for a, b in pairs}
    if centre is not None:
        sums.add(grid[centre])
    return len(sums) <= 1


def _zipper_compile(rule: Rule, shape: Shape) -> list[Kind]:
    pairs, centre = _zipper_pairs(rule.cells)
    if centre is not None:
        return [value_sum(shape, *weights((a, b, centre), (1, 1, -1)), 0) for a, b in pairs]
    return _equal_sums(pairs, shape)


register(
    RuleType(
        "zipper", "lines", "zipper line",
        "digits the same distance from the middle of the line have the same sum; on a line of odd "
        "length the middle digit is that sum",
        (), {"rule": "zipper", "cells": ["r1c1", "r1c2", "r1c3"]},
        _zipper_check, _zipper_compile, _line_validate, min_cells=2, repeats=True,
    )
)  # fmt: skip
