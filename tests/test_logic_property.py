"""Property test: the logic engine on puzzles Hypothesis derives from the known-answer fixture.

Each puzzle of ``tests/data/logic_techniques.json`` is relabelled (a permutation of the digits),
perhaps transposed, its bands, stacks, and rows and columns within them shuffled, and perhaps given
some more of its solution's digits: all of which keep exactly one solution, which transforms along.
On every such puzzle both solving paths (HoDoKu's order and Sudoku Explainer's) must take only
sound steps and the first must end in the solution.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shudu.formats import parse_puzzle
from shudu.logic import solve_path
from shudu.logic.rating import se_steps

from conftest import C_CORE

CASES = json.loads((Path(__file__).parent / "data" / "logic_techniques.json").read_text())
PAIRS = sorted({(case["puzzle"], case["solution"]) for case in CASES})


def _order(draw) -> list[int]:
    """A row (or column) order that keeps bands together: bands shuffled, rows within them too."""
    bands = draw(st.permutations(range(3)))
    return [3 * b + r for b in bands for r in draw(st.permutations(range(3)))]


@st.composite
def puzzles(draw) -> tuple[str, str]:
    puzzle, solution = draw(st.sampled_from(PAIRS))
    digits = draw(st.permutations("123456789"))
    relabel = {str(i + 1): digits[i] for i in range(9)}
    rows, columns = _order(draw), _order(draw)
    flip = draw(st.booleans())

    def move(text: str) -> str:
        out = []
        for r in rows:
            for c in columns:
                ch = text[c * 9 + r] if flip else text[r * 9 + c]
                out.append(relabel.get(ch, "."))
        return "".join(out)

    puzzle, solution = move(puzzle), move(solution)
    open_cells = [i for i, ch in enumerate(puzzle) if ch == "."]
    extra = draw(st.sets(st.sampled_from(open_cells), max_size=6)) if open_cells else set()
    puzzle = "".join(solution[i] if i in extra else ch for i, ch in enumerate(puzzle))
    return puzzle, solution


# a third of the examples on the pure-Python core (a minute there for 25)
@settings(max_examples=25 if C_CORE else 8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_every_step_is_sound_on_derived_puzzles(case: tuple[str, str]) -> None:
    text, solution = case
    puzzle = parse_puzzle(text)
    expected = tuple(int(ch) for ch in solution)
    path, grid = solve_path(puzzle, uniqueness=True)
    for step in [*path, *se_steps(puzzle, uniqueness=True)]:
        for cell, digit in step.placements:
            assert expected[cell] == digit, step.explanation
        for cell, digit in step.eliminations:
            assert expected[cell] != digit, step.explanation
    assert tuple(grid.values) == expected
