"""Set conditions on lines and cells: renban, between, entropic and modular lines; restricted
cells, odd and even cells, quadruples, extra all-different groups, and global entropy."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..errors import VariantError
from ._util import index_mask, pair_relations, require_line
from .base import (
    DIGITS_RULE,
    AllDifferent,
    Kind,
    LineCondition,
    Rule,
    RuleType,
    Shape,
    check_cells,
    register,
    span,
)


def _line_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    require_line(rule, size, f"a {rule.kind} line")


# --- renban and between ---------------------------------------------------------------------------


def _renban_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    digits = [grid[c] for c in rule.cells]
    return len(set(digits)) == len(digits) and max(digits) - min(digits) == len(digits) - 1


def _renban_validate(rule: Rule, size: int, base: int) -> None:
    _line_validate(rule, size, base)
    if len(rule.cells) > size:
        raise VariantError(
            f"a renban line of {len(rule.cells)} cells cannot hold different digits of {span(size, base)}"
        )


def _renban_compile(rule: Rule, shape: Shape) -> list[Kind]:
    return [AllDifferent(rule.cells), LineCondition("renban", rule.cells)]


register(
    RuleType(
        "renban", "lines", "renban line", "the line holds a set of consecutive digits, in any order", (),
        {"rule": "renban", "cells": ["r1c1", "r1c2", "r1c3"]},
        _renban_check, _renban_compile, _renban_validate,
    )
)  # fmt: skip


def _between_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    low, high = sorted((grid[rule.cells[0]], grid[rule.cells[-1]]))
    return all(low < grid[c] < high for c in rule.cells[1:-1])


register(
    RuleType(
        "between", "lines", "between line",
        "the digits on the line lie strictly between those in its two end circles", (),
        {"rule": "between", "cells": ["r1c1", "r1c2", "r1c3"]},
        _between_check, lambda r, s: [LineCondition("between", r.cells)], _line_validate, min_cells=3,
    )
)  # fmt: skip


# --- entropic and modular lines -----------------------------------------------------------------


def _windows(cells: Sequence[int], width: int) -> list[tuple[int, int]]:
    """Every two cells of the line closer than ``width``: they fall in one window of that width."""
    return [(cells[i], cells[j]) for i in range(len(cells)) for j in range(i + 1, min(i + width, len(cells)))]


def _class3(shape: Shape, d: int) -> int:
    """Low (0), middle (1) or high (2): the third of the digits that the value ``d`` falls in."""
    return (d - shape.base) * 3 // shape.size


def _entropic_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    return all(_class3(shape, grid[a]) != _class3(shape, grid[b]) for a, b in _windows(rule.cells, 3))


def _entropic_compile(rule: Rule, shape: Shape) -> list[Kind]:
    return list(
        pair_relations(
            _windows(rule.cells, 3), shape, "entropy", lambda a, b: _class3(shape, a) != _class3(shape, b)
        )
    )


def _thirds_validate(rule: Rule, size: int) -> None:
    if size % 3:
        raise VariantError(f"{rule.kind} needs digits that split into three equal groups; {size} does not")


def _entropic_validate(rule: Rule, size: int, base: int) -> None:
    _line_validate(rule, size, base)
    _thirds_validate(rule, size)


register(
    RuleType(
        "entropic", "lines", "entropic line",
        "any three cells in a row on the line hold a low (1-3), a middle (4-6) and a high (7-9) digit", (),
        {"rule": "entropic", "cells": ["r1c1", "r1c2", "r1c3"]},
        _entropic_check, _entropic_compile, _entropic_validate, min_cells=2, repeats=True,
    )
)  # fmt: skip


def _mod(rule: Rule) -> int:
    return rule.params[0] if rule.params else 3


def _modular_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    m = _mod(rule)
    return all(grid[a] % m != grid[b] % m for a, b in _windows(rule.cells, m))


def _modular_compile(rule: Rule, shape: Shape) -> list[Kind]:
    m = _mod(rule)
    return list(pair_relations(_windows(rule.cells, m), shape, f"mod{m}", lambda a, b: a % m != b % m))


def _modular_validate(rule: Rule, size: int, base: int) -> None:
    _line_validate(rule, size, base)
    if not 2 <= _mod(rule) <= size:
        raise VariantError(f"a modular line's modulus runs from 2 to {size}, not {_mod(rule)}")


register(
    RuleType(
        "modular", "lines", "modular line",
        "any m cells in a row on the line hold digits that differ modulo m (3: one of 147, 258, 369)",
        ("mod",), {"rule": "modular", "cells": ["r1c1", "r1c2", "r1c3"], "mod": 3},
        _modular_check, _modular_compile, _modular_validate, min_cells=2, repeats=True,
    )
)  # fmt: skip


# --- cells ----------------------------------------------------------------------------------------


def _digits_validate(rule: Rule, size: int, base: int, what: str) -> None:
    check_cells(rule, size)
    if not rule.params:
        raise VariantError(f"{what} needs at least one digit")
    for d in rule.params:
        if not base <= d <= base + size - 1:
            raise VariantError(f"{what}: digit {d} is not one of {span(size, base)}")


def _candidates_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    return all(grid[c] in rule.params for c in rule.cells)


register(
    RuleType(
        "candidates", "cells", "restricted cells", "each of the cells holds one of the digits given",
        ("*digits",), {"rule": "candidates", "cells": ["r1c1"], "digits": [2, 4, 6, 8]},
        _candidates_check,
        lambda r, s: [LineCondition("allowed", r.cells, (index_mask(r.params, s),))],
        lambda rule, size, base: _digits_validate(rule, size, base, "restricted cells"),
    )
)  # fmt: skip


def _parity(name: str, title: str, odd: int) -> None:
    def check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
        return all(grid[c] % 2 == odd for c in rule.cells)

    def compile_(rule: Rule, shape: Shape) -> list[Kind]:
        mask = index_mask([d for d in range(shape.low, shape.high + 1) if d % 2 == odd], shape)
        return [LineCondition("allowed", rule.cells, (mask,))]

    register(
        RuleType(
            name, "cells", title, f"each of the cells holds an {name} digit", (),
            {"rule": name, "cells": ["r1c1"]}, check, compile_,
            lambda rule, size, base: check_cells(rule, size),
        )
    )  # fmt: skip


_parity("odd", "odd cells", 1)
_parity("even", "even cells", 0)


def _quad_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    values = [grid[c] for c in rule.cells]
    params = rule.params
    return all(values.count(d) >= params.count(d) for d in params)


def _quad_validate(rule: Rule, size: int, base: int) -> None:
    _digits_validate(rule, size, base, "a quadruple")
    rows = sorted({c // size for c in rule.cells})
    cols = sorted({c % size for c in rule.cells})
    if len(rows) != 2 or len(cols) != 2 or rows[1] - rows[0] != 1 or cols[1] - cols[0] != 1:
        raise VariantError("a quadruple's four cells form a 2x2 square")
    if len(rule.params) > 4:
        raise VariantError(f"a quadruple names at most 4 digits, not {len(rule.params)}")


register(
    RuleType(
        "quad", "cells", "quadruple",
        "the digits given (with repeats) appear among the four cells around the circle",
        ("*digits",), {"rule": "quad", "cells": ["r1c1", "r1c2", "r2c1", "r2c2"], "digits": [1, 2]},
        _quad_check, lambda r, s: [LineCondition("quad", r.cells, tuple(d - s.base + 1 for d in r.params))],
        _quad_validate,
        min_cells=4, max_cells=4,
    )
)  # fmt: skip


def _distinct_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    digits = [grid[c] for c in rule.cells]
    return len(set(digits)) == len(digits)


def _distinct_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    if len(rule.cells) > size:
        raise VariantError(f"{len(rule.cells)} cells cannot hold different digits of {span(size, base)}")


register(
    RuleType(
        "all-different", "regions", "all-different group", "no digit repeats among the cells", (),
        {"rule": "all-different", "cells": ["r1c1", "r2c2", "r3c3"]},
        _distinct_check, lambda r, s: [AllDifferent(r.cells)], _distinct_validate, min_cells=2,
    )
)  # fmt: skip


def _squares(size: int) -> list[tuple[int, int, int, int]]:
    return [
        (r * size + c, r * size + c + 1, (r + 1) * size + c, (r + 1) * size + c + 1)
        for r, c in itertools.product(range(size - 1), repeat=2)
    ]


def _thirds(size: int) -> tuple[int, ...]:
    third = size // 3
    return tuple(((1 << third) - 1) << (k * third) for k in range(3))


def _entropy_check(rule: Rule, grid: Sequence[int], shape: Shape) -> bool:
    return all(len({_class3(shape, grid[c]) for c in square}) == 3 for square in _squares(shape.size))


def _entropy_compile(rule: Rule, shape: Shape) -> list[Kind]:
    return [LineCondition("cover", square, _thirds(shape.size)) for square in _squares(shape.size)]


def _entropy_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    _thirds_validate(rule, size)


register(
    RuleType(
        "global-entropy", "cells", "global entropy",
        "every 2x2 square holds a low (1-3), a middle (4-6) and a high (7-9) digit", (),
        {"rule": "global-entropy"}, _entropy_check, _entropy_compile, _entropy_validate,
        has_cells=False, min_cells=0,
    )
)  # fmt: skip


# --- the digits themselves ------------------------------------------------------------------------


def _digits_rule_validate(rule: Rule, size: int, base: int) -> None:
    check_cells(rule, size)
    if len(rule.params) != 1 or rule.params[0] not in (0, 1):
        start = rule.params[0] if rule.params else "?"
        raise VariantError(f"the digits run from 0 or from 1, not from {start}")


register(
    RuleType(
        DIGITS_RULE, "cells", "digits",
        "the digits run from this number up (0: the digits 0 to n-1); the arithmetic rules read "
        "these values", ("from",),
        {"rule": DIGITS_RULE, "from": 0}, lambda rule, grid, shape: True, lambda rule, shape: [],
        _digits_rule_validate, has_cells=False, min_cells=0,
    )
)  # fmt: skip
