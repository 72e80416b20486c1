"""Constraint rules drawn on a solution grid: thermometers, arrows, kropki dots, little killers,
sandwiches, and a mix of them.

Each drawer reads a complete grid and lays rules that the grid keeps: a thermometer is a walk
from cell to touching cell along ever larger digits, an arrow a walk from its circle whose
digits add up to the circle's, a dot sits between two neighbours whose digits are consecutive
(white) or one twice the other (black), a little killer totals a whole diagonal and a sandwich
the digits between a row's (or column's) 1 and its largest digit. The generator then digs givens
from the grid as for a classic puzzle, the rules held fixed (:mod:`shudu.generator.search`), so
each rule set gets every option of a classic puzzle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..rules import Rule

#: The fewest and most cells of a thermometer (at most the grid size: the digits rise strictly).
SHORTEST, LONGEST = 3, 6
#: Starts tried per line (thermometer, arrow) before the drawing stops with fewer.
TRIES = 30
#: The share of the pairs of neighbours that qualify for a kropki dot that get one.
DOT_SHARE = 0.6

Drawer = Callable[[Sequence[int], int, random.Random], tuple[Rule, ...]]


def thermos(
    solution: Sequence[int], size: int, rng: random.Random, count: int | None = None
) -> tuple[Rule, ...]:
    """About one thermometer per unit of size, none sharing a cell."""
    used: set[int] = set()
    return _lines(solution, size, rng, used, size if count is None else count, _thermo)


def arrows(
    solution: Sequence[int], size: int, rng: random.Random, count: int | None = None
) -> tuple[Rule, ...]:
    """About two arrows per three units of size, none sharing a cell."""
    used: set[int] = set()
    return _lines(solution, size, rng, used, (2 * size) // 3 if count is None else count, _arrow)


def kropki(
    solution: Sequence[int], size: int, rng: random.Random, share: float = DOT_SHARE
) -> tuple[Rule, ...]:
    """Dots between neighbours: white where the digits are consecutive, black where one is twice
    the other (1 and 2 are both: either), each qualifying pair dotted with chance ``share``."""
    out = []
    for cell in range(size * size):
        r, c = divmod(cell, size)
        for other in ([cell + 1] if c + 1 < size else []) + ([cell + size] if r + 1 < size else []):
            a, b = solution[cell], solution[other]
            kinds = (["white-dot"] if abs(a - b) == 1 else []) + (
                ["black-dot"] if 2 * min(a, b) == max(a, b) else []
            )
            if kinds and rng.random() < share:
                out.append(Rule(rng.choice(kinds), (cell, other)))
    return tuple(out)


def little_killers(
    solution: Sequence[int], size: int, rng: random.Random, count: int | None = None
) -> tuple[Rule, ...]:
    """Totals of whole diagonals of at least three cells, about one per two units of size."""
    lines = _diagonals(size)
    picked = rng.sample(lines, min(len(lines), size // 2 if count is None else count))
    return tuple(Rule("little-killer", line, (sum(solution[c] for c in line),)) for line in picked)


def sandwiches(
    solution: Sequence[int], size: int, rng: random.Random, count: int | None = None
) -> tuple[Rule, ...]:
    """Sandwich totals of about half the rows and columns (the search rates their candidates
    within a budget of work: see :data:`shudu.generator.search.RULE_RATE_NODES`)."""
    lines = [tuple(r * size + c for c in range(size)) for r in range(size)]
    lines += [tuple(r * size + c for r in range(size)) for c in range(size)]
    picked = rng.sample(lines, min(len(lines), size if count is None else count))
    out = []
    for line in sorted(picked):
        digits = [solution[c] for c in line]
        i, j = sorted((digits.index(1), digits.index(size)))
        out.append(Rule("sandwich", line, (sum(digits[i + 1 : j]),)))
    return tuple(out)


def mixed(solution: Sequence[int], size: int, rng: random.Random) -> tuple[Rule, ...]:
    """A few of each: thermometers and arrows (none sharing a cell), dots and little killers
    (sandwiches are left out: see :func:`sandwiches`)."""
    used: set[int] = set()
    few = max(1, size // 3)
    return (
        _lines(solution, size, rng, used, few, _thermo)
        + _lines(solution, size, rng, used, few, _arrow)
        + kropki(solution, size, rng, DOT_SHARE / 3)
        + little_killers(solution, size, rng, max(1, size // 4))
    )


#: The rule sets the generator draws (``rules=``), each by its drawer.
DRAWERS: dict[str, Drawer] = {
    "thermo": thermos,
    "arrow": arrows,
    "kropki": kropki,
    "little-killer": little_killers,
    "sandwich": sandwiches,
    "mixed": mixed,
}


# --- lines ------------------------------------------------------------------------------------------

Walker = Callable[[Sequence[int], int, random.Random, set[int]], Rule | None]


def _lines(
    solution: Sequence[int], size: int, rng: random.Random, used: set[int], count: int, walk: Walker
) -> tuple[Rule, ...]:
    out: list[Rule] = []
    for _ in range(count):
        for _ in range(TRIES):
            rule = walk(solution, size, rng, used)
            if rule is not None:
                used.update(rule.cells)
                out.append(rule)
                break
    return tuple(out)


def _touching(cell: int, size: int, used: set[int], line: Sequence[int]) -> list[int]:
    r, c = divmod(cell, size)
    return [
        y * size + x
        for y in range(max(0, r - 1), min(size, r + 2))
        for x in range(max(0, c - 1), min(size, c + 2))
        if y * size + x not in used and y * size + x not in line
    ]


def _thermo(solution: Sequence[int], size: int, rng: random.Random, used: set[int]) -> Rule | None:
    free = [c for c in range(size * size) if c not in used]
    if not free:
        return None
    length = rng.randint(SHORTEST, min(LONGEST, size))
    line = [rng.choice(free)]
    while len(line) < length:
        steps = [c for c in _touching(line[-1], size, used, line) if solution[c] > solution[line[-1]]]
        if not steps:
            break
        # the smallest rise first, mostly, so that the line climbs slowly and can grow long
        steps.sort(key=lambda cell: solution[cell])
        line.append(steps[0] if rng.random() < 0.6 else rng.choice(steps))
    return Rule("thermo", tuple(line)) if len(line) >= SHORTEST else None


def _arrow(solution: Sequence[int], size: int, rng: random.Random, used: set[int]) -> Rule | None:
    circles = [c for c in range(size * size) if c not in used and solution[c] >= 3]
    if not circles:
        return None
    line = [rng.choice(circles)]
    left = solution[line[0]]
    while left > 0:
        steps = [c for c in _touching(line[-1], size, used, line) if solution[c] <= left]
        if not steps:
            return None
        line.append(rng.choice(steps))
        left -= solution[line[-1]]
    return Rule("arrow", tuple(line)) if len(line) >= 3 else None


def _diagonals(size: int) -> list[tuple[int, ...]]:
    """Every whole diagonal of at least three cells, read from the end where its clue stands: the
    left column going down and right, the right column going up and left, the top row going down
    and left, the bottom row going up and right (the first of these that reaches a diagonal)."""
    n = size
    starts = [(r, 0, 1, 1) for r in range(n - 1)] + [(r, n - 1, -1, -1) for r in range(1, n - 1)]
    starts += [(0, c, 1, -1) for c in range(1, n)] + [(n - 1, c, -1, 1) for c in range(1, n - 1)]
    out = []
    seen: set[frozenset[int]] = set()
    for row, col, dr, dc in starts:
        cells = []
        while 0 <= row < n and 0 <= col < n:
            cells.append(row * n + col)
            row, col = row + dr, col + dc
        if len(cells) >= 3 and frozenset(cells) not in seen:
            seen.add(frozenset(cells))
            out.append(tuple(cells))
    return out
