"""The logic engine on puzzles with constraint rules: each rule technique's known answer, the
rules as peers, and rate, explain, hint and steps on such puzzles."""

from __future__ import annotations

import itertools

import pytest

import shudu
from shudu.logic.catalog import BY_NAME
from shudu.logic.engine.grid import CandidateGrid
from shudu.logic.engine.step import Step
from shudu.logic.solver import steps
from shudu.logic.table import rating_of, techniques
from shudu.logic.techniques.rule_forcing import find_rule_forcing_chain, find_short_rule_forcing_chain
from shudu.logic.techniques.rule_steps import (
    find_pair_rule,
    find_restricted_digits,
    find_rule_contradiction,
    find_thermometer,
)
from shudu.logic.techniques.sum_steps import find_cage_forced_digit, find_forty_five, find_sum_combinations
from shudu.notation import cell_name
from shudu.puzzle import Puzzle
from shudu.rules import Rule, rule_from_json
from shudu.variants import Variant


def _grid(size: int, *rules: dict[str, object], givens: str = "") -> CandidateGrid:
    parsed = tuple(rule_from_json(rule, size) for rule in rules)
    cells = [int(ch) if ch.isdigit() else 0 for ch in givens.ljust(size * size, ".")]
    puzzle = Puzzle(cells, variant=Variant().with_rules(parsed, size))
    return CandidateGrid.from_values(puzzle.geometry, puzzle.cells)


def _out(step: Step | None, size: int) -> list[tuple[str, int]]:
    assert step is not None
    assert step.explanation.startswith(step.name + ": ")
    return sorted((cell_name(c, size), d) for c, d in step.eliminations)


#: Each rule technique's known answer: (finder, size, rules, eliminations).
CASES = {
    "Restricted digits": (
        find_restricted_digits,
        4,
        [{"rule": "odd", "cells": ["r1c1"]}],
        [("r1c1", 2), ("r1c1", 4)],
    ),
    "Pair rule": (
        find_pair_rule,
        4,
        [{"rule": "black-dot", "cells": ["r1c1", "r1c2"]}],
        [("r1c1", 3), ("r1c2", 3)],
    ),
    "Thermometer": (
        find_thermometer,
        4,
        [{"rule": "thermo", "cells": ["r1c1", "r1c2", "r1c3"]}],
        [("r1c1", 3), ("r1c1", 4), ("r1c2", 1), ("r1c2", 4), ("r1c3", 1), ("r1c3", 2)],
    ),
    "Sum combinations": (
        find_sum_combinations,
        9,
        [{"rule": "cage", "cells": ["r1c1", "r1c2"], "total": 3}],
        [(cell, d) for cell in ("r1c1", "r1c2") for d in range(3, 10)],
    ),
    "Cage forced digit": (
        find_cage_forced_digit,
        4,
        [{"rule": "cage", "cells": ["r1c1", "r2c1"], "total": 7}],
        [(cell, 3) for cell in ("r1c2", "r2c2", "r3c1", "r4c1")],  # one step a digit: 3 first
    ),
    "45 rule": (
        find_forty_five,
        4,
        [{"rule": "cage", "cells": ["r1c1", "r1c2", "r1c3"], "total": 6}],
        [("r1c4", 1), ("r1c4", 2), ("r1c4", 3)],
    ),
    "Rule contradiction": (
        find_rule_contradiction,
        4,
        [{"rule": "between", "cells": ["r1c1", "r1c2", "r1c3"]}],
        [("r1c2", 1), ("r1c2", 4)],
    ),
    "Rule Forcing Chain": (
        find_rule_forcing_chain,
        4,
        [{"rule": "thermo", "cells": ["r1c1", "r2c2", "r3c3"]}],
        [("r1c1", 3)],  # then r2c2 = 4 and r3c3 has no digit above it: the first one tried
    ),
    "Rule Forcing Chain (short)": (
        find_short_rule_forcing_chain,
        4,
        [{"rule": "thermo", "cells": ["r1c1", "r2c2", "r3c3"]}],
        [("r1c1", 3)],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_rule_technique_has_a_known_answer(name: str) -> None:
    find, size, rules, expected = CASES[name]
    step = find(_grid(size, *rules))
    assert step is not None and name in (step.name, step.technique.name)
    assert _out(step, size) == sorted(expected)


def test_the_rule_techniques_find_nothing_without_rules() -> None:
    grid = CandidateGrid.from_values(Puzzle([0] * 16).geometry, [0] * 16)
    for find, *_ in CASES.values():
        assert find(grid) is None


def test_cells_a_rule_keeps_apart_are_peers() -> None:
    grid = _grid(9, {"rule": "cage", "cells": ["r1c1", "r2c2"], "total": 10}, givens="3")
    assert not grid.has(10, 3)  # r2c2 sees the 3 in r1c1 through the cage (and the box)
    grid = _grid(9, {"rule": "white-dot", "cells": ["r5c5", "r5c6"]}, givens="")
    assert grid.t.peer_bits[40] >> 41 & 1
    grid = _grid(9, {"rule": "x", "cells": ["r5c5", "r5c6"]})  # 5 and 5 make 10: not apart
    assert grid.t.rules is not None and (40, 41) not in grid.t.rules.apart


#: A 4x4 killer: every cell in a cage (the totals those of 1234/3412/2143/4321).
KILLER = [
    {"rule": "cage", "cells": ["r1c1", "r1c2"], "total": 3},
    {"rule": "cage", "cells": ["r1c3", "r1c4"], "total": 7},
    {"rule": "cage", "cells": ["r2c1", "r3c1"], "total": 5},
    {"rule": "cage", "cells": ["r2c2", "r2c3", "r2c4"], "total": 7},
    {"rule": "cage", "cells": ["r3c2", "r4c2"], "total": 4},
    {"rule": "cage", "cells": ["r4c1"], "total": 4},
    {"rule": "cage", "cells": ["r3c3", "r3c4"], "total": 7},
    {"rule": "cage", "cells": ["r4c3", "r4c4"], "total": 3},
]


def _killer() -> Puzzle:
    rules = tuple(rule_from_json(rule, 4) for rule in KILLER)
    cells = [0] * 16
    cells[2], cells[6] = 3, 1  # r1c3 and r2c3: with them the killer has one solution
    return Puzzle(cells, variant=Variant().with_rules(rules, 4))


def test_rate_explain_hint_and_steps_read_rules() -> None:
    puzzle = _killer()
    solved = shudu.solve(puzzle)
    assert solved.status == "unique" and solved.solution is not None
    rating = shudu.rate(puzzle, steps=True)
    assert rating.status == "unique" and rating.level and rating.hardest
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    for step in rating.steps:
        grid.apply(step)
    assert tuple(grid.values) == tuple(solved.solution.cells)
    quick = shudu.rate(puzzle)  # the tallied rounds rate as the steps do
    assert (quick.level, quick.score, quick.se, quick.hardest) == (
        rating.level,
        rating.score,
        rating.se,
        rating.hardest,
    )
    assert shudu.explain(puzzle).steps
    for level in ("vague", "technique", "step"):
        hint = shudu.hint(puzzle, level)
        assert hint.step is not None and hint.status == "unique"
    assert shudu.find_steps(puzzle).steps


def test_a_hint_catches_an_entry_that_breaks_a_rule() -> None:
    puzzle = _killer()
    solved = shudu.solve(puzzle)
    assert solved.solution is not None
    wrong = 3 - solved.solution.cells[0]  # r1c1 and r1c2 hold 1 and 2: the other one
    givens = ".." + "3" + "..." + "1" + "." * 9
    board = {"size": 4, "rules": [*KILLER], "givens": givens, "entries": str(wrong) + "." * 15}
    hint = shudu.hint(board)
    assert hint.mistake == ("r1c1", wrong)


def test_uniqueness_techniques_stay_off_with_rules() -> None:
    puzzle = _killer()
    rating = shudu.rate(puzzle, steps=True, uniqueness=True)
    assert not any(step.technique.uniqueness for step in rating.steps)


def test_a_rule_no_technique_reads_is_still_kept_by_brute_force() -> None:
    # a sandwich clue: only the rule contradiction and the brute-force search read it
    rule = Rule("sandwich", tuple(range(4)), (0,))
    puzzle = Puzzle([0] * 16, variant=Variant().with_rules((rule,), 4))
    rating = shudu.rate(puzzle, allow_multiple=True, steps=True)
    assert rating.status == "multiple"
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    for step in rating.steps:
        grid.apply(step)
    row = grid.values[:4]
    if all(row):  # 1 and 4 side by side: nothing between them
        assert abs(row.index(1) - row.index(4)) == 1


def test_a_cage_is_read_before_the_classic_subsets() -> None:
    # a 2-cell cage of 3 in row 1 and box 1: its combinations leave 1 and 2, which the path names
    # for the cage (its forced digits, easy) before the locked pair the same two cells make
    grid = _grid(9, {"rule": "cage", "cells": ["r1c1", "r1c2"], "total": 3})
    names = [step.technique.name for step in itertools.islice(steps(grid, techniques()), 3)]
    assert names == ["Sum combinations", "Cage forced digit", "Cage forced digit"]


def test_cage_steps_score_as_singles_and_keep_their_levels() -> None:
    # the count of cage steps follows the count of cages (docs/rating.md): they score as the
    # singles do, while their levels still say how hard they are
    naked, hidden = BY_NAME["Naked single"].score, BY_NAME["Hidden single"].score
    assert (BY_NAME["Sum combinations"].level, BY_NAME["Sum combinations"].score) == ("easy", naked)
    assert (BY_NAME["Cage forced digit"].level, BY_NAME["Cage forced digit"].score) == ("easy", naked)
    assert (BY_NAME["45 rule"].level, BY_NAME["45 rule"].score) == ("medium", hidden)
    puzzle = shudu.generate(rules="killer", level="easy", seed=1, timeout=120).puzzle
    rating = shudu.rate(puzzle, steps=True)
    names = {step.technique.name for step in rating.steps}
    assert rating.level == "easy" and rating.score <= 800 and "Sum combinations" in names
    assert all(rating_of(step)[0] == "easy" for step in rating.steps)
