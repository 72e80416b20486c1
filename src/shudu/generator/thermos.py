"""Thermometers drawn on a solution grid.

A thermometer's digits rise strictly from its bulb, so on a known grid one is a walk from cell to
touching cell (by an edge or a corner) along ever larger digits. :func:`draw` lays such walks at
random, none crossing another, each from :data:`SHORTEST` cells up to :data:`LONGEST`; the
generator then digs givens from the grid as for a classic puzzle, the thermometers held fixed
(:mod:`shudu.generator.search`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import Rule

#: The fewest and most cells of a thermometer (at most the grid size: the digits rise strictly).
SHORTEST, LONGEST = 3, 6
#: How many thermometers a grid gets, per unit of size (9 on 9x9).
PER_SIZE = 1.0
#: Starts tried per thermometer before the drawing stops with fewer.
TRIES = 30


def draw(solution: Sequence[int], size: int, rng: random.Random) -> tuple[Rule, ...]:
    """Random thermometers that ``solution`` keeps, none sharing a cell."""
    used: set[int] = set()
    out: list[Rule] = []
    wanted = max(1, round(PER_SIZE * size))
    longest = min(LONGEST, size)
    for _ in range(wanted):
        for _ in range(TRIES):
            line = _walk(solution, size, rng, used, rng.randint(SHORTEST, longest))
            if line is not None:
                used.update(line)
                out.append(Rule("thermo", tuple(line)))
                break
    return tuple(out)


def _walk(
    solution: Sequence[int], size: int, rng: random.Random, used: set[int], length: int
) -> list[int] | None:
    free = [c for c in range(size * size) if c not in used]
    if not free:
        return None
    line = [rng.choice(free)]
    while len(line) < length:
        here = line[-1]
        r, c = divmod(here, size)
        steps = [
            y * size + x
            for y in range(max(0, r - 1), min(size, r + 2))
            for x in range(max(0, c - 1), min(size, c + 2))
            if y * size + x not in used
            and y * size + x not in line
            and solution[y * size + x] > solution[here]
        ]
        if not steps:
            break
        # the smallest rises first, so the line climbs slowly and can grow long
        steps.sort(key=lambda cell: solution[cell])
        line.append(steps[0] if rng.random() < 0.6 else rng.choice(steps))
    return line if len(line) >= SHORTEST else None
