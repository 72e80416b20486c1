"""The generator's puzzles with rules (killer, and the rule sets drawn on the grid: thermo,
arrow, kropki, little killer, sandwich, mixed): unique puzzles (checked by a brute force on 4x4 and 6x6,
and by the Python engine on 9x9), sane cages and lines, the givens, symmetry and level asked
for, reproducible seeds, timeouts, clear errors, and results that travel through the formats."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence

import pytest

import shudu
from shudu.cli import main
from shudu.errors import GeneratorError, ShapeError
from shudu.formats import Document, parse_json, read_document, to_json, write_document
from shudu.generator import GeneratorTimeout, Request, check_request, generate, generate_many
from shudu.generator.symmetry import permutations
from shudu.notation import LEVELS
from shudu.rules import Rule, Shape, check_grid, lookup


def cages(result: shudu.generator.Generated) -> list[tuple[tuple[int, ...], int]]:
    return [(rule.cells, rule.params[0]) for rule in result.puzzle.variant.rules if rule.kind == "cage"]


def brute_force_count(size: int, box: tuple[int, int], givens: Sequence[int], rules: Sequence[Rule]) -> int:
    """Solutions up to two, by plain backtracking in reading order over rows, columns, boxes and
    the rules (a cage: different digits, their sum reached exactly; a thermometer: digits rising
    from the bulb; any other rule: the rule model's reference check once its cells are filled):
    no shudu solver involved."""
    ncells = size * size
    rows, cols = box
    rules_of: list[list[Rule]] = [[] for _ in range(ncells)]
    shape = Shape(
        size,
        tuple((r // rows) * (size // cols) + c // cols for r in range(size) for c in range(size)),
        tuple(rules),
    )
    for rule in rules:
        for cell in rule.cells:
            rules_of[cell].append(rule)
    grid = list(givens)
    found = 0

    def keeps(rule: Rule, cell: int, digit: int) -> bool:
        value = [digit if x == cell else grid[x] for x in rule.cells]
        if rule.kind not in ("cage", "thermo"):
            # the rule model's own reference check, once all the rule's cells are filled
            if not all(value):
                return True
            trial = list(grid)
            trial[cell] = digit
            return lookup(rule.kind).check(rule, trial, shape)
        if rule.kind == "thermo":
            return all(a < b for a, b in itertools.pairwise(value) if a and b)
        placed = [v for v in value if v]
        if len(set(placed)) < len(placed) or sum(placed) > rule.params[0]:
            return False
        return len(placed) < len(value) or sum(placed) == rule.params[0]

    def fits(cell: int, digit: int) -> bool:
        r, c = divmod(cell, size)
        for k in range(size):
            if grid[r * size + k] == digit and r * size + k != cell:
                return False
            if grid[k * size + c] == digit and k * size + c != cell:
                return False
        top, left = r - r % rows, c - c % cols
        for y in range(top, top + rows):
            for x in range(left, left + cols):
                if grid[y * size + x] == digit and y * size + x != cell:
                    return False
        return all(keeps(rule, cell, digit) for rule in rules_of[cell])

    def search(cell: int) -> None:
        nonlocal found
        if found >= 2:
            return
        if cell == ncells:
            found += 1
            return
        if givens[cell]:
            if fits(cell, givens[cell]):
                search(cell + 1)
            return
        for digit in range(1, size + 1):
            if fits(cell, digit):
                grid[cell] = digit
                search(cell + 1)
                grid[cell] = 0

    search(0)
    return found


def assert_sane(result: shudu.generator.Generated, sizes: tuple[int, int] = (2, 5)) -> None:
    """Cages cover the grid once, each within ``sizes``, of different digits of the solution
    that add up to its total; the givens are the solution's."""
    puzzle, solution = result.puzzle, result.solution
    covered = sorted(cell for cells, _ in cages(result) for cell in cells)
    assert covered == list(range(puzzle.size**2))
    for cells, total in cages(result):
        assert sizes[0] <= len(cells) <= sizes[1]
        digits = [solution.cells[c] for c in cells]
        assert len(set(digits)) == len(digits)
        assert sum(digits) == total
    assert all(g in (0, s) for g, s in zip(puzzle.cells, solution.cells, strict=True))
    assert solution.is_solution_of(puzzle)


# --- uniqueness -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "seed"), [(4, 0), (4, 1), (4, 2), (6, 0), (6, 1), (6, 2)])
def test_small_killers_are_unique_by_brute_force(size: int, seed: int) -> None:
    result = generate(size, rules="killer", seed=seed)
    assert_sane(result, (2, min(5, size)))
    assert result.clues == 0
    box = result.puzzle.geometry.box
    assert box is not None
    assert brute_force_count(size, box, result.puzzle.cells, result.puzzle.variant.rules) == 1


def test_small_killer_with_givens_is_unique_by_brute_force() -> None:
    result = generate(6, rules="killer", clues=4, cages="3-5", seed=5)
    assert result.clues == 4
    assert_sane(result, (3, 5))
    assert brute_force_count(6, (2, 3), result.puzzle.cells, result.puzzle.variant.rules) == 1


def python_engine_counts(made: list[shudu.generator.Generated]) -> str:
    """The solution counts (to two) of the puzzles by the Python constraint engine, run apart."""
    body = (
        "import json, sys, shudu\n"
        "from shudu.formats import parse_json\n"
        "from shudu.solvers import constraints\n"
        "assert constraints.IMPLEMENTATION == 'python'\n"
        "print([shudu.count(parse_json(p), 2) for p in json.load(sys.stdin)])\n"
    )
    env = {**os.environ, "SHUDU_IMPLEMENTATION": "python"}
    run = subprocess.run(
        [sys.executable, "-c", body],
        input=json.dumps([to_json(r.puzzle) for r in made]),
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_9x9_killers_are_unique_on_both_engines() -> None:
    made = list(generate_many(2, rules="killer", level="hard", seed=11))
    for result in made:
        assert_sane(result)
        assert shudu.count(result.puzzle, 2) == 1
    assert python_engine_counts(made) == "[1, 1]"


@pytest.mark.slow
def test_9x9_killers_at_the_end_of_the_path_are_unique_on_both_engines() -> None:
    # unrated: the last layout of the grow, the fewest and largest cages (the Python engine
    # takes tens of seconds on these)
    made = list(generate_many(2, rules="killer", seed=11))
    for result in made:
        assert_sane(result)
        assert shudu.count(result.puzzle, 2) == 1
    assert python_engine_counts(made) == "[1, 1]"


# --- options ----------------------------------------------------------------------------------------


def test_same_seed_same_puzzle() -> None:
    first = generate(6, rules="killer", seed=7)
    again = generate(6, rules="killer", seed=7)
    assert to_json(first.puzzle) == to_json(again.puzzle)
    stream = list(generate_many(3, Request(size=6, rules="killer"), seed=7))
    assert to_json(stream[0].puzzle) == to_json(first.puzzle)
    alone = generate(6, rules="killer", seed=stream[2].seed)
    assert to_json(alone.puzzle) == to_json(stream[2].puzzle)


def test_cage_sizes_asked_for() -> None:
    result = generate(9, rules="killer", cages="2-3", seed=3)
    assert_sane(result, (2, 3))
    assert shudu.count(result.puzzle, 2) == 1


def test_givens_asked_for() -> None:
    for clues in (3, "5-6"):
        result = generate(9, rules="killer", clues=clues, seed=2)
        assert result.clues in ((3,) if clues == 3 else (5, 6))
        assert_sane(result)
        assert shudu.count(result.puzzle, 2) == 1


@pytest.mark.parametrize("symmetry", ["rot180", "mirror", "rot90", "diagonal"])
def test_symmetric_layout(symmetry: str) -> None:
    result = generate(6, rules="killer", symmetry=symmetry, clues=4, seed=1)
    layout = {frozenset(cells) for cells, _ in cages(result)}
    given = {c for c, d in enumerate(result.puzzle.cells) if d}
    for move in permutations(symmetry, 6):
        assert {frozenset(move[c] for c in cells) for cells in layout} == layout
        assert {move[c] for c in given} == given
    assert brute_force_count(6, (2, 3), result.puzzle.cells, result.puzzle.variant.rules) == 1


def test_level_is_the_raters() -> None:
    result = generate(rules="killer", level="hard", seed=1, timeout=120)
    assert result.level == "hard"
    rating = shudu.rate(result.puzzle, timeout=60)
    assert (rating.level, rating.se) == (result.level, result.se)


def test_timeout_says_timeout() -> None:
    # a killer with no givens reads a cage's combinations (SE 2.0) before anything is placed, so
    # one of SE 1.0-1.5 (singles only) is never found
    with pytest.raises(
        GeneratorTimeout, match=re.escape("no SE 1.0-1.5 9x9 killer puzzle with 0 givens found in 1 s")
    ):
        generate(rules="killer", se="1.0-1.5", seed=1, timeout=1)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_9x9_killers_without_givens_at_the_lower_levels(level: str) -> None:
    # the cage steps score as singles (docs/rating.md), so the first layouts of a path, the most
    # cages, rate easy or medium with no givens at all
    made = list(generate_many(2, rules="killer", level=level, seed=3, timeout=120))
    for result in made:
        assert_sane(result)
        assert result.clues == 0 and result.level == level
        rating = shudu.rate(result.puzzle, timeout=60)
        assert (rating.level, rating.se, rating.score) == (result.level, result.se, result.score)
        assert shudu.count(result.puzzle, 2) == 1
    assert python_engine_counts(made) == "[1, 1]"
    again = generate(rules="killer", level=level, seed=made[1].seed, timeout=120)
    assert to_json(again.puzzle) == to_json(made[1].puzzle)


def test_check_request_words() -> None:
    assert check_request(rules="killer", level="hard") == "hard 9x9 killer puzzle with 0 givens"
    assert check_request(4, rules="killer") == "unique 4x4 killer puzzle with 0 givens"
    assert check_request(6, rules="Killer", cages="2-4", symmetry="rot180", clues=2) == (
        "unique 6x6 killer puzzle with 2 givens, cages of 2-4 cells, rot180"
    )


@pytest.mark.parametrize(
    ("fields", "error", "words"),
    [
        ({"rules": "renban"}, GeneratorError, "does not make 'renban' puzzles"),
        ({"rules": "thermo", "cages": "2-4"}, GeneratorError, "not of a thermo puzzle"),
        ({"rules": "killer", "size": 5}, ShapeError, "no box shape"),
        ({"rules": "killer", "size": 16}, GeneratorError, "up to 9x9"),
        ({"rules": "killer", "variant": "x"}, GeneratorError, "standard grid only"),
        ({"rules": "killer", "variant": "jigsaw"}, GeneratorError, "standard grid only"),
        (
            {"rules": "thermo", "variant": {"rules": [{"rule": "thermo", "cells": ["r1c1", "r1c2"]}]}},
            GeneratorError,
            "give no rules in the variant",
        ),
        (
            {"rules": "killer", "minimal": True},
            GeneratorError,
            "minimal= is for puzzles whose givens are dug",
        ),
        ({"cages": "2-4"}, GeneratorError, 'give rules="killer" too'),
        ({"rules": "killer", "cages": "1-1"}, GeneratorError, "cages of one cell are givens"),
        ({"rules": "killer", "size": 6, "cages": "2-7"}, GeneratorError, "holds 1 to 6 cells"),
        ({"rules": "killer", "clues": 82}, GeneratorError, "cannot hold 82 givens"),
        ({"rules": "killer", "symmetry": "spiral"}, GeneratorError, "unknown symmetry"),
        ({"rules": "killer", "symmetry": "rot90", "clues": 3}, GeneratorError, "orbits of 1, 4 cells"),
    ],
)
def test_bad_requests_fail_at_once(fields: dict[str, object], error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        generate(**fields)  # type: ignore[arg-type]


def test_rules_of_the_wrong_type() -> None:
    with pytest.raises(TypeError, match="rules must be a name"):
        generate(rules=3)  # type: ignore[arg-type]


# --- formats and the command line ----------------------------------------------------------------


def rule_set(puzzle: shudu.Puzzle) -> set[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    return {(r.kind, tuple(sorted(r.cells)), r.params) for r in puzzle.variant.rules}


@pytest.mark.parametrize("fmt", ["json", "iss", "fpuzzles"])
def test_round_trip_through_formats(fmt: str) -> None:
    result = generate(rules="killer", clues=2, seed=4)
    text = write_document(Document(result.puzzle), fmt)
    back = read_document(text, fmt).puzzle
    assert rule_set(back) == rule_set(result.puzzle)
    assert back.cells == result.puzzle.cells
    assert shudu.count(back, 2) == 1


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_cli_generate_and_convert() -> None:
    status, out, err = run_cli("generate", "--rules", "killer", "--size", "6", "--givens", "2", "--seed", "3")
    assert status == 0, err
    puzzle = parse_json(json.loads(out))
    assert puzzle.clues == 2 and rule_set(puzzle)
    status, iss, err = run_cli(
        "generate", "--rules", "killer", "--size", "6", "--givens", "2", "--seed", "3", "--format", "iss"
    )
    assert status == 0, err
    status, converted, err = run_cli("convert", "--to", "json", iss.strip())
    assert status == 0, err
    assert rule_set(parse_json(json.loads(converted))) == rule_set(puzzle)
    status, made, err = run_cli(
        "generate", "--rules", "killer", "--size", "6", "--seed", "3", "--format", "json"
    )
    assert status == 0, err
    record = json.loads(made)
    assert record["rules"] and record["solution"] and record["level"] in LEVELS


def test_cli_refuses_bad_rules() -> None:
    status, _, err = run_cli("generate", "--rules", "renban", "--seed", "1")
    assert status != 0
    assert "does not make 'renban' puzzles" in err


# --- thermometers ---------------------------------------------------------------------------------


def assert_thermos_sane(result: shudu.generator.Generated) -> None:
    """Thermometers of 3 to 6 touching cells, none sharing a cell, that the solution keeps."""
    thermos = [rule.cells for rule in result.puzzle.variant.rules]
    assert thermos and all(rule.kind == "thermo" for rule in result.puzzle.variant.rules)
    cells = [cell for line in thermos for cell in line]
    assert len(cells) == len(set(cells))
    size = result.puzzle.size
    for line in thermos:
        assert 3 <= len(line) <= min(6, size)
        digits = [result.solution.cells[c] for c in line]
        assert digits == sorted(set(digits))
        for a, b in itertools.pairwise(line):
            assert max(abs(a // size - b // size), abs(a % size - b % size)) == 1
    assert result.solution.is_solution_of(result.puzzle)


@pytest.mark.parametrize(("size", "seed"), [(4, 0), (4, 1), (6, 0), (6, 1), (6, 2)])
def test_small_thermos_are_unique_by_brute_force(size: int, seed: int) -> None:
    result = generate(size, rules="thermo", seed=seed)
    assert_thermos_sane(result)
    box = result.puzzle.geometry.box
    assert box is not None
    assert brute_force_count(size, box, result.puzzle.cells, result.puzzle.variant.rules) == 1


def test_9x9_thermos_are_unique_on_both_engines_at_their_level() -> None:
    made = list(generate_many(2, rules="thermo", level="hard", symmetry="rot180", seed=5))
    for result in made:
        assert_thermos_sane(result)
        assert result.level == "hard" == shudu.rate(result.puzzle, timeout=60).level
        assert shudu.count(result.puzzle, 2) == 1
        given = {c for c, d in enumerate(result.puzzle.cells) if d}
        assert {80 - c for c in given} == given
    assert python_engine_counts(made) == "[1, 1]"
    again = generate(rules="thermo", level="hard", symmetry="rot180", seed=made[1].seed)
    assert to_json(again.puzzle) == to_json(made[1].puzzle)


def test_thermo_minimal_and_clues() -> None:
    result = generate(6, rules="thermo", minimal=True, seed=3)
    assert_thermos_sane(result)
    for cell, digit in enumerate(result.puzzle.cells):
        if digit:
            fewer = list(result.puzzle.cells)
            fewer[cell] = 0
            assert brute_force_count(6, (2, 3), fewer, result.puzzle.variant.rules) == 2
    assert generate(6, rules="thermo", clues="6-8", seed=3).clues in (6, 7, 8)


@pytest.mark.parametrize("fmt", ["json", "iss", "fpuzzles"])
def test_thermo_round_trip_through_formats(fmt: str) -> None:
    result = generate(rules="thermo", seed=4)
    back = read_document(write_document(Document(result.puzzle), fmt), fmt).puzzle
    assert {r.cells for r in back.variant.rules} == {r.cells for r in result.puzzle.variant.rules}
    assert back.cells == result.puzzle.cells


# --- the rule sets drawn on the grid --------------------------------------------------------------

DRAWN = ["arrow", "kropki", "little-killer", "sandwich", "mixed"]


@pytest.mark.parametrize("rules", DRAWN)
@pytest.mark.parametrize(("size", "seed"), [(4, 0), (4, 1), (6, 0)])
def test_drawn_rules_are_unique_by_brute_force(rules: str, size: int, seed: int) -> None:
    result = generate(size, rules=rules, seed=seed)
    puzzle = result.puzzle
    assert puzzle.variant.rules
    assert check_grid(result.solution.cells, Shape(size, (0,) * size * size, puzzle.variant.rules)) is None
    assert result.solution.is_solution_of(puzzle)
    box = puzzle.geometry.box
    assert box is not None
    assert brute_force_count(size, box, puzzle.cells, puzzle.variant.rules) == 1


@pytest.mark.parametrize(
    "rules",
    # little killer and the mix take minutes on the pure-Python core; every set is made unique on
    # both cores at 4x4 and 6x6 above
    [
        rules if rules in ("arrow", "kropki", "sandwich") else pytest.param(rules, marks=pytest.mark.c_speed)
        for rules in DRAWN
    ],
)
def test_drawn_9x9_at_a_level_unique_on_both_engines_and_through_formats(rules: str) -> None:
    result = generate(rules=rules, level="hard", seed=2, timeout=120)
    assert result.level == "hard" == shudu.rate(result.puzzle, timeout=60).level
    assert shudu.count(result.puzzle, 2) == 1
    assert python_engine_counts([result]) == "[1]"
    for fmt in ("json", "iss", "fpuzzles"):
        back = read_document(write_document(Document(result.puzzle), fmt), fmt).puzzle
        assert rule_set(back) == rule_set(result.puzzle) and back.cells == result.puzzle.cells
    again = generate(rules=rules, level="hard", seed=2, timeout=120)
    assert to_json(again.puzzle) == to_json(result.puzzle)


def test_the_mix_holds_several_kinds() -> None:
    kinds = {rule.kind for rule in generate(rules="mixed", seed=3).puzzle.variant.rules}
    assert {"thermo", "arrow", "little-killer"} <= kinds


# --- sandwiches -------------------------------------------------------------------------------------


def assert_sandwiches_sane(result: shudu.generator.Generated) -> None:
    """Sandwich clues on whole rows and columns, each the sum of the solution's digits between
    the line's 1 and its largest digit; the givens are the solution's."""
    size = result.puzzle.size
    rules = result.puzzle.variant.rules
    assert rules and all(rule.kind == "sandwich" for rule in rules)
    rows = [tuple(r * size + c for c in range(size)) for r in range(size)]
    cols = [tuple(r * size + c for r in range(size)) for c in range(size)]
    for rule in rules:
        assert rule.cells in rows or rule.cells in cols
        digits = [result.solution.cells[c] for c in rule.cells]
        low, high = sorted((digits.index(1), digits.index(size)))
        assert rule.params == (sum(digits[low + 1 : high]),)
    assert result.solution.is_solution_of(result.puzzle)


@pytest.mark.parametrize(
    ("size", "level", "seed"), [(4, "easy", 0), (6, "easy", 1), (6, "hard", 0), (6, "hard", 2)]
)
def test_small_sandwiches_at_a_level_are_unique_by_brute_force(size: int, level: str, seed: int) -> None:
    result = generate(size, rules="sandwich", level=level, seed=seed, timeout=60)
    assert_sandwiches_sane(result)
    assert result.level == level == shudu.rate(result.puzzle, timeout=60).level
    box = result.puzzle.geometry.box
    assert box is not None
    assert brute_force_count(size, box, result.puzzle.cells, result.puzzle.variant.rules) == 1


@pytest.mark.parametrize(
    "level", ["easy", pytest.param("medium", marks=pytest.mark.slow), "hard", "unfair", "extreme"]
)
def test_9x9_sandwiches_at_the_level_asked(level: str) -> None:
    result = generate(rules="sandwich", level=level, seed=1, timeout=120)
    assert_sandwiches_sane(result)
    assert result.level == level == shudu.rate(result.puzzle, timeout=60).level
    assert shudu.count(result.puzzle, 2) == 1
    again = generate(rules="sandwich", level=level, seed=result.seed, timeout=120)
    assert to_json(again.puzzle) == to_json(result.puzzle)


@pytest.mark.slow
def test_sandwich_rating_past_its_budget_leaves_the_puzzle_unrated() -> None:
    # no level asked: the end of the dig, whose rating runs past the budget of work on 9x9
    result = generate(rules="sandwich", seed=0, rate=True, timeout=120)
    assert_sandwiches_sane(result)
    assert shudu.count(result.puzzle, 2) == 1
    assert result.level is None or result.level == shudu.rate(result.puzzle, timeout=60).level
