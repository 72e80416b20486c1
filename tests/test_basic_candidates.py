"""Basic candidates (shudu.basic_candidates): the marks "show candidates" fills in are sound
(every digit some solution of the board puts in a cell is kept), on random puzzles with rules of
many kinds at 4x4, 6x6 and 9x9, checked against all their solutions; and they take out what a
rule forbids directly, no more."""

from __future__ import annotations

import json
import random

import pytest

import shudu
from shudu.errors import ShuduError
from shudu.logic.engine.grid import CandidateGrid, bits
from test_rule_soundness import random_source


def _puzzle(rules: list[dict[str, object]], givens: str = "", size: int = 9) -> shudu.Puzzle:
    return shudu.parse_puzzle(
        json.dumps({"size": size, "rules": rules, "givens": givens.ljust(size * size, "0")})
    )


@pytest.mark.parametrize("n", [4, 6, 9])
def test_every_digit_of_every_solution_is_kept(n: int) -> None:
    rng = random.Random(4200 + n)
    checked = removed = 0
    while checked < {4: 40, 6: 25, 9: 12}[n]:
        source = random_source(n, rng)
        if source is None:
            continue
        checked += 1
        solution = rng.choice(source.solutions)
        # the player has placed some digits of one solution (or none)
        entries = [0] * (n * n)
        open_cells = [c for c, v in enumerate(source.puzzle.cells) if not v]
        for c in rng.sample(open_cells, min(len(open_cells), rng.choice((0, 0, 2, 5)))):
            entries[c] = solution[c]
        marks = shudu.basic_candidates(source.puzzle, entries)
        fits = [s for s in source.solutions if all(not e or s[c] == e for c, e in enumerate(entries))]
        for s in fits:
            for cell, digit in enumerate(s):
                assert digit in marks[cell], (source.puzzle.to_string(), entries, cell, digit, marks[cell])
        # never more than the placed digits' peers allow
        values = [g or e for g, e in zip(source.puzzle.cells, entries, strict=True)]
        grid = CandidateGrid.from_values(source.puzzle.geometry, values)
        for cell, value in enumerate(values):
            peers_allow = (value,) if value else tuple(d + 1 for d in bits(grid.cands[cell]))
            assert set(marks[cell]) <= set(peers_allow)
            removed += len(peers_allow) - len(marks[cell])
    assert removed > 0  # the rules did take something out


def test_a_cage_of_two_cells_totalling_3_keeps_1_and_2() -> None:
    marks = shudu.basic_candidates(_puzzle([{"rule": "cage", "cells": ["r1c1", "r2c1"], "total": 3}]))
    assert marks[0] == marks[9] == (1, 2)
    assert marks[1] == tuple(range(1, 10))  # no deeper deduction: 1 and 2 stay in row 1


def test_a_cage_reads_its_placed_digits() -> None:
    # a cage of three totalling 10 with a 7 placed: the other two add up to 3
    cage = {"rule": "cage", "cells": ["r1c1", "r1c2", "r1c3"], "total": 10}
    marks = shudu.basic_candidates(_puzzle([cage]), [7] + [0] * 80)
    assert marks[0] == (7,)
    assert marks[1] == marks[2] == (1, 2)


def test_thermometer_bounds() -> None:
    thermo = {"rule": "thermo", "cells": ["r1c1", "r1c2", "r1c3"]}
    marks = shudu.basic_candidates(_puzzle([thermo]))
    assert marks[0] == tuple(range(1, 8))
    assert marks[1] == tuple(range(2, 9))
    assert marks[2] == tuple(range(3, 10))


def test_one_pass_not_a_chain_of_deductions() -> None:
    # the cage takes r1c1 to 1 or 2; the thermometer from r1c1 does not hear of it (no cascade)
    rules = [
        {"rule": "cage", "cells": ["r1c1", "r2c1"], "total": 3},
        {"rule": "thermo", "cells": ["r1c1", "r1c2"]},
    ]
    marks = shudu.basic_candidates(_puzzle(rules))
    assert marks[0] == (1, 2)
    assert marks[1] == tuple(range(2, 10))


def test_plain_puzzle_is_the_peers_only() -> None:
    text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    puzzle = shudu.parse_puzzle(text)
    marks = shudu.basic_candidates(puzzle)
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    for cell, value in enumerate(puzzle.cells):
        assert marks[cell] == ((value,) if value else tuple(d + 1 for d in bits(grid.cands[cell])))


def test_a_broken_rule_and_repeated_entries_are_taken_as_they_stand() -> None:
    cage = {"rule": "cage", "cells": ["r1c1", "r1c2", "r1c3"], "total": 6}
    entries = [5, 0, 5] + [0] * 78  # a 5 twice, and the cage already past its total
    marks = shudu.basic_candidates(_puzzle([cage]), entries)
    assert marks[0] == marks[2] == (5,)
    assert 5 not in marks[1] and marks[1]  # the broken cage removes nothing more


def test_bad_entries_are_refused() -> None:
    puzzle = _puzzle([])
    with pytest.raises(ShuduError, match="81"):
        shudu.basic_candidates(puzzle, [0] * 80)
    with pytest.raises(ShuduError, match="r1c2"):
        shudu.basic_candidates(puzzle, [0, 10] + [0] * 79)
