"""ISS's other input forms (pencil marks, the two killer forms) and digits from 0: read, detected,
written back, and every malformed input refused with its place named."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shudu
from shudu.errors import ParseError, ShuduError, VariantError
from shudu.formats import detect_format, format_grid, parse_json, to_json
from shudu.formats.iss import format_iss, parse_iss
from shudu.render import render
from shudu.rules import Rule
from shudu.variants import Variant

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def _cages(rng: random.Random) -> list[list[int]]:
    """A random partition of the 9x9 grid into connected cages of 1 to 5 cells, each of different
    digits of SOLUTION."""
    owner = [-1] * 81
    cages: list[list[int]] = []
    for start in rng.sample(range(81), 81):
        if owner[start] >= 0:
            continue
        cage = [start]
        owner[start] = len(cages)
        target = rng.randint(1, 5)
        while len(cage) < target:
            options = [
                c
                for cell in cage
                for c in (cell - 9, cell + 9, cell - 1 if cell % 9 else -1, cell + 1 if cell % 9 < 8 else -1)
                if 0 <= c < 81 and owner[c] < 0 and SOLUTION[c] not in {SOLUTION[x] for x in cage}
            ]
            if not options:
                break
            nxt = rng.choice(options)
            owner[nxt] = len(cages)
            cage.append(nxt)
        cages.append(sorted(cage))
    return cages


def _cage_rules(puzzle: shudu.Puzzle) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    return {(tuple(sorted(r.cells)), r.params) for r in puzzle.geometry.variant.rules}


# --- pencil marks -----------------------------------------------------------------------------


def test_a_pencil_mark_grid_reads_as_givens_and_restricted_cells() -> None:
    rng = random.Random(3)
    chunks, givens, restricted = [], {}, {}
    for cell, value in enumerate(SOLUTION):
        keep = {int(value)} | set(rng.sample(range(1, 10), rng.choice((0, 0, 2, 8))))
        chunks.append("".join(str(d) if d in keep else "." for d in range(1, 10)))
        if len(keep) == 1:
            givens[cell] = int(value)
        elif len(keep) < 9:
            restricted[cell] = tuple(sorted(keep))
    text = "".join(chunks)
    assert detect_format(text) == "iss"
    puzzle = shudu.parse_puzzle(text)
    assert {c: d for c, d in enumerate(puzzle.cells) if d} == givens
    assert {r.cells[0]: r.params for r in puzzle.geometry.variant.rules} == restricted
    result = shudu.solve(puzzle, timeout=60)
    assert result.status in ("unique", "multiple") and result.solution is not None
    found = result.solution.cells
    assert all(found[c] in digits for c, digits in restricted.items())


def test_a_bad_pencil_mark_grid_names_the_place() -> None:
    full = "123456789" * 81
    with pytest.raises(ParseError, match=r"position 10 \(r1c2\) has no digit left|r1c2 \(positions 10-18\)"):
        parse_iss(full[:9] + "." * 9 + full[18:])
    with pytest.raises(ParseError, match=r"'0' at position 5 \(r1c1\) is not a digit of 1-9"):
        parse_iss("12340" + full[5:])


# --- the killer forms -------------------------------------------------------------------------------


def _totals(cages: list[list[int]]) -> list[int]:
    return [sum(int(SOLUTION[c]) for c in cage) for cage in cages]


def test_the_long_killer_form_reads_cages_and_diagonals() -> None:
    rng = random.Random(5)
    cages = _cages(rng)
    value = [0] * 81
    for i, (cage, total) in enumerate(zip(cages, _totals(cages), strict=True)):
        for cell in cage:
            value[cell] = total * 256 + i
    text = "3x3::k:" + ":".join(map(str, value)) + ":"
    puzzle = shudu.parse_puzzle(text)
    assert _cage_rules(puzzle) == {(tuple(c), (t,)) for c, t in zip(cages, _totals(cages), strict=True)}
    assert not puzzle.geometry.variant.regions
    assert shudu.parse_puzzle(text.replace("3x3::k", "3x3:d:k")).geometry.variant.name == "x"
    # a cell of total 0 is in no cage
    value[0] = 0
    free = shudu.parse_puzzle("3x3::k:" + ":".join(map(str, value)))
    assert all(0 not in r.cells for r in free.geometry.variant.rules)


@pytest.mark.parametrize(
    "text, message",
    [
        ("3x3::k:" + ":".join(["2560"] * 80), r"80 numbers after 'k:'; it holds one a cell, 81"),
        ("3x3::k:" + ":".join(["x"] + ["2560"] * 80), r"number 1 \(r1c1\): 'x' is not a whole number"),
        ("3x3:q:k:" + ":".join(["2560"] * 81), r"'q' between '3x3:' and ':k'"),
        ("3x3::k:2560:2816" + ":2560" * 79, r"number 2 \(r1c2\): cage 0 totals 10 elsewhere, 11 here"),
    ],
)
def test_a_bad_long_killer_names_the_place(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_iss(text)


def _arrows(cages: list[list[int]], totals: list[int]) -> str:
    """The short killer form of the cages: the first cell holds the total, each other cell an
    arrow to a cell of its cage nearer the first."""
    chars = [""] * 81
    steps = {-1: "<", 1: ">", -9: "^", 9: "v"}
    for cage, total in zip(cages, totals, strict=True):
        code = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij"[total]
        chars[cage[0]] = code
        reached = [cage[0]]
        while len(reached) < len(cage):
            for cell in cage:
                if cell in reached:
                    continue
                for delta, arrow in steps.items():
                    if cell + delta in reached and abs(cell % 9 - (cell + delta) % 9) <= 1:
                        chars[cell] = arrow
                        reached.append(cell)
                        break
    return "".join(chars)


def test_the_killer_arrows_read_as_cages() -> None:
    rng = random.Random(8)
    for _ in range(20):
        cages = _cages(rng)
        totals = _totals(cages)
        text = _arrows(cages, totals)
        assert detect_format(text) == "iss"
        puzzle = shudu.parse_puzzle(text)
        assert _cage_rules(puzzle) == {(tuple(c), (t,)) for c, t in zip(cages, totals, strict=True)}


def test_a_killer_arrow_total_of_0_is_a_cage_without_total() -> None:
    rules = parse_iss("0<" + "".join(str(1 + i % 9) for i in range(79))).geometry.variant.rules
    assert Rule("cage", (0, 1), ()) in rules


@pytest.mark.parametrize(
    "text, message",
    [
        ("^" + "5" * 80, r"'\^' at position 1 \(r1c1\) points outside the grid"),
        ("><" + "5" * 79, r"arrows from position 1 \(r1c1\) run in a loop"),
    ],
)
def test_bad_killer_arrows_name_the_place(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_iss(text)


# --- digits from 0 ---------------------------------------------------------------------------------


ZERO = ".Shape~4x4~0-3.Cage~1~R1C1~R1C2.~R3C3_3.V~R4C1~R4C2.Quad~R2C2~0~3"


def test_digits_from_0_read_solve_and_write_as_values() -> None:
    puzzle = parse_iss(ZERO)
    assert puzzle.geometry.variant.digit_base == 0
    assert puzzle.cells[10] == 4  # the value 3 is the fourth digit
    solutions = list(shudu.solutions(puzzle))
    assert solutions
    for grid in solutions:
        values = [int(c) for c in grid.to_string()]
        assert sorted(values[:4]) == [0, 1, 2, 3] and values[0] + values[1] == 1 and values[10] == 3
        assert values[12] + values[13] == 5
        assert {0, 3} <= {values[5], values[6], values[9], values[10]}
    assert format_iss(puzzle).startswith(".Shape~4x4~0-3")
    assert parse_iss(format_iss(puzzle)) == puzzle
    assert parse_json(json.dumps(to_json(puzzle))) == puzzle
    assert to_json(puzzle)["givens"][10] == "3"
    grid = format_grid(solutions[0]).splitlines()
    assert sorted(grid[0].replace("|", "").split()) == ["0", "1", "2", "3"]
    assert ">0<" in render(solutions[0]) or "0</text>" in render(solutions[0])


def test_digits_from_0_give_specific_errors() -> None:
    with pytest.raises(ParseError, match="digits of this 4x4 grid run from 0 to 3"):
        parse_iss(".Shape~4x4~0-3.~R1C1_4")
    with pytest.raises(ParseError, match="digits 2-5 start from 0 or 1, not 2"):
        parse_iss(".Shape~4x4~2-5")
    with pytest.raises(VariantError, match="run from 0 or from 1"):
        Variant().with_rules([Rule("digits", (), (2,))], 4).check(4)
    text = json.dumps({"rules": [{"rule": "digits", "from": 0}], "givens": [0] * 16})
    with pytest.raises(ParseError, match="must be a string of cells"):
        parse_json(text)
    text = json.dumps({"rules": [{"rule": "digits", "from": 0}], "givens": "4" + "." * 15})
    with pytest.raises(ParseError, match=r"'4' at position 1 \(r1c1\).*run from 0"):
        parse_json(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    arrows=st.text(alphabet="<>^v`',.0123456789ABCZaj", min_size=81, max_size=81),
    numbers=st.lists(st.integers(0, 70000), min_size=79, max_size=83),
    marks=st.text(alphabet="0123456789.", min_size=729, max_size=729),
)
def test_hostile_grid_forms_give_a_shudu_error_or_a_puzzle(
    arrows: str, numbers: list[int], marks: str
) -> None:
    for text in (arrows, "3x3::k:" + ":".join(map(str, numbers)) + ":", marks):
        try:
            puzzle = shudu.parse_puzzle(text)
        except ShuduError:
            continue
        assert puzzle.size == 9
