"""The logic engine: known answers per technique, and soundness over many puzzles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import shudu
from shudu.formats import parse_puzzle
from shudu.logic import TECHNIQUES, CandidateGrid, Step, solve_path
from shudu.logic.catalog import resolve
from shudu.logic.grid import digits_of
from shudu.logic.techniques import BY_NAME
from shudu.puzzle import Puzzle
from shudu.variants import parse_cell

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
FIXTURES = json.loads((Path(__file__).parent / "data" / "logic_techniques.json").read_text())


def grid_of(values: str, candidates: list[str]) -> CandidateGrid:
    puzzle_geo = parse_puzzle("." * len(values)).geometry
    cells = [0 if v == "." else int(v) for v in values]
    masks = [sum(1 << (int(d) - 1) for d in text) for text in candidates]
    return CandidateGrid(puzzle_geo, cells, masks)


def assert_sound(step: Step, solution: tuple[int, ...] | str) -> None:
    """No step may remove a candidate the solution holds or place one it does not."""
    for cell, digit in step.placements:
        assert int(solution[cell]) == digit, step.explanation
    for cell, digit in step.eliminations:
        assert int(solution[cell]) != digit, step.explanation


# --- known answers ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", FIXTURES, ids=[case["technique"] for case in FIXTURES])
def test_technique_known_answer(case: dict) -> None:
    grid = grid_of(case["values"], case["candidates"])
    step = BY_NAME[case["technique"]].find(grid)
    assert step is not None
    # The fixture names the technique (then any of its forms will do) or the exact form.
    declared = resolve(case["step"])
    assert step.technique is declared.technique is BY_NAME[case["technique"]].technique
    assert declared.name in (step.name, step.technique.name)
    n = grid.size
    assert [[grid.name(c), d] for c, d in step.placements] == case["placements"]
    assert [[grid.name(c), d] for c, d in step.eliminations] == case["eliminations"]
    expected = [(parse_cell(c, n), d) for c, d in case["eliminations"]]
    assert all(int(case["solution"][c]) != d for c, d in expected)
    assert_sound(step, case["solution"])
    assert step.explanation.startswith(step.name + ": ")


def test_every_technique_but_the_rarest_has_a_known_answer() -> None:
    covered = {case["technique"] for case in FIXTURES}
    missing = {t.name for t in TECHNIQUES} - covered
    assert missing <= {"Full house", "Naked single", "Hidden single", "Hidden quad", "Brute Force"}


PUZZLE = "4.......8....31.....7...92....57...1.59....6.1......8.8...2..1..3.418..69........"


def test_singles() -> None:
    from shudu.logic.singles import find_full_house, find_hidden_single, find_naked_single

    grid = CandidateGrid.from_values(parse_puzzle(PUZZLE).geometry, parse_puzzle(PUZZLE).cells)
    step = find_hidden_single(grid)
    assert step is not None and step.technique.name == "Hidden single"
    assert "can only go in" in step.explanation and step.houses
    row = [1, 2, 3, 4, 5, 6, 7, 8, 0] + [0] * 72
    full = CandidateGrid.from_values(parse_puzzle("." * 81).geometry, row)
    step = find_full_house(full)
    assert step is not None and step.placements == ((8, 9),)
    assert str(step) == "Full house: r1c9 is the last open cell of row 1, which lacks only 9, so r1c9 = 9"
    naked = CandidateGrid.from_values(parse_puzzle("." * 81).geometry, [0, 2, 3, 4, 5, 6, 7, 8, 0] + [0] * 72)
    naked.eliminate(0, 9)
    step = find_naked_single(naked)
    assert step is not None and step.placements == ((0, 1),)


def test_hidden_quad_by_hand() -> None:
    from shudu.logic.subsets import find_hidden_quad

    geo = parse_puzzle("." * 81).geometry
    grid = CandidateGrid.from_values(geo, [0] * 81)
    # in row 1, digits 1-4 may only go in r1c1-r1c4
    for cell in range(4, 9):
        for d in (1, 2, 3, 4):
            grid.eliminate(cell, d)
    step = find_hidden_quad(grid)
    assert step is not None and step.name == "Hidden quad"
    assert {c for c, _ in step.eliminations} == {0, 1, 2, 3}
    assert {d for _, d in step.eliminations} == {5, 6, 7, 8, 9}


def test_step_to_json() -> None:
    case = FIXTURES[0]
    step = BY_NAME[case["technique"]].find(grid_of(case["values"], case["candidates"]))
    assert step is not None
    data = step.to_json()
    assert data["technique"] == step.technique.name and data["name"] == step.name
    assert data["eliminations"] == [{"cell": c, "digit": d} for c, d in case["eliminations"]]
    json.dumps(data)


def test_candidate_grid_keeps_both_views_in_step() -> None:
    geo = parse_puzzle(PUZZLE).geometry
    grid = CandidateGrid.from_values(geo, parse_puzzle(PUZZLE).cells)
    grid.place(1, 2)
    grid.eliminate(2, 3)
    for cell in range(81):
        for d in range(9):
            assert bool(grid.cands[cell] >> d & 1) == bool(grid.where[d] >> cell & 1)
    assert not grid.is_broken()
    assert digits_of(0b101) == [1, 3]


# --- soundness over many puzzles --------------------------------------------------------------


def _puzzles(name: str, count: int, step: int = 1) -> list[str]:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} not available")
    lines = [line.split()[0] for line in path.read_text().splitlines() if line.strip()]
    return lines[::step][:count]


def check_path(puzzle: Puzzle, *, uniqueness: bool = True) -> list[Step]:
    """Solve logically; every step sound, and the path ends in the solution."""
    solution = shudu.solve(puzzle).solution
    assert solution is not None
    path, grid = solve_path(puzzle, uniqueness=uniqueness)
    for step in path:
        assert_sound(step, solution.cells)
    assert tuple(grid.values) == solution.cells
    return path


@pytest.mark.parametrize(
    ("name", "count", "every"),
    [
        ("royle_17clue.txt", 120, 397),
        ("radcliffe3m_sample.txt", 60, 111),
        ("magictour_top1465.txt", 12, 117),
        ("size4_yks23_unique.txt", 30, 11),
        ("size6_2x3_unique.txt", 30, 9),
    ],
)
def test_every_step_is_sound(name: str, count: int, every: int) -> None:
    for line in _puzzles(name, count, every):
        check_path(parse_puzzle(line))


@pytest.mark.parametrize("variant", ["x", "windoku", "pyramid"])
def test_variants_are_sound(variant: str) -> None:
    for line in _puzzles(f"variant_{variant}.txt", 6, 13):
        check_path(parse_puzzle(line, variant=variant))


def test_sixteen_and_jigsaw() -> None:
    for line in _puzzles("size16_owhy.txt", 2, 13):
        check_path(parse_puzzle(line))
    layout = "".join(str(r // 2 * 2 + c // 3) for r in range(6) for c in range(6))
    # a 6x6 jigsaw whose regions happen to be the 2x3 boxes, rotated into labels
    for line in _puzzles("size6_2x3_unique.txt", 5, 31):
        check_path(parse_puzzle(line, variant={"variant": "jigsaw", "layout": layout}))


def test_anti_knight_links_are_respected() -> None:
    puzzle = parse_puzzle("." * 81, variant="anti-knight")
    grid = CandidateGrid.from_values(puzzle.geometry, [5] + [0] * 80)
    assert not grid.has(11, 5)  # r2c3 is a knight's move from r1c1


@pytest.mark.slow
def test_every_step_is_sound_slow() -> None:
    for line in _puzzles("magictour_top1465.txt", 60, 23):
        check_path(parse_puzzle(line))
    for line in _puzzles("forum_hardest_1106.txt", 3, 101):
        check_path(parse_puzzle(line))


def test_unique_rectangles_of_every_type_have_known_answers() -> None:
    steps = {case["step"] for case in FIXTURES if case["technique"] == "Unique Rectangle"}
    types = {"Unique Rectangle Type 3 (pair)": "Unique Rectangle Type 3"}
    assert {types.get(name, name) for name in steps} == {f"Unique Rectangle Type {k}" for k in range(1, 7)}


def test_every_new_family_has_a_known_answer() -> None:
    steps = {case["step"] for case in FIXTURES}
    assert {
        "Hidden Rectangle",
        "Sue de Coq",
        "Continuous Nice Loop",
        "Grouped X-Chain",
        "Grouped AIC",
        "ALS-XZ",
        "ALS-XY-Wing",
        "Death Blossom",
    } <= steps


def test_nested_forcing_net_goes_past_forcing_nets() -> None:
    """Inkala's puzzle reaches a grid where plain nets find nothing; the nested net removes a
    candidate the solution lacks, and the puzzle needs no brute force."""
    from shudu.logic.forcing import find_forcing_chain, find_forcing_net, find_nested_forcing_net

    case = next(c for c in FIXTURES if c["technique"] == "Nested Forcing Net")
    grid = grid_of(case["values"], case["candidates"])
    assert find_forcing_chain(grid) is None and find_forcing_net(grid) is None
    step = find_nested_forcing_net(grid)
    assert step is not None and not step.placements
    assert_sound(step, case["solution"])
    assert "forcing net inside" in step.explanation
    path = check_path(parse_puzzle(case["puzzle"]))
    assert "Brute Force" not in {s.technique.name for s in path}


def _scan_settle(grid: CandidateGrid, finders: tuple) -> tuple[CandidateGrid | None, int]:
    """The plain way: scan every cell, then every house and digit, for singles; when none is
    left apply the first finder's step; repeat."""
    count = 0
    while True:
        progress = False
        for cell in range(81):
            if grid.values[cell]:
                continue
            mask = grid.cands[cell]
            if not mask:
                return None, count
            if not mask & (mask - 1):
                grid.place(cell, mask.bit_length())
                count, progress = count + 1, True
        for h, hbits in enumerate(grid.t.house_bits):
            if not hbits & grid.empty:
                continue
            for d in range(9):
                if grid.placed[h] >> d & 1:
                    continue
                spots = grid.where[d] & hbits
                if not spots:
                    return None, count
                if not spots & (spots - 1):
                    grid.place(spots.bit_length() - 1, d + 1)
                    count, progress = count + 1, True
        if progress:
            continue
        for find in finders:
            step = find(grid)
            if step:
                grid.apply(step)
                count, progress = count + 1, True
                break
        if not progress:
            return grid, count


def test_forcing_follow_through_matches_a_full_scan() -> None:
    """The incremental propagation and the net rules give the grid and the count of a plain scan
    with the finders themselves."""
    from shudu.logic.intersections import find_claiming, find_pointing
    from shudu.logic.netrules import NET_RULES
    from shudu.logic.propagate import is_quiet, settle
    from shudu.logic.subsets import find_hidden_pair, find_naked_pair

    finders = (find_pointing, find_claiming, find_naked_pair, find_hidden_pair)
    case = next(c for c in FIXTURES if c["technique"] == "Forcing Net")
    grid = grid_of(case["values"], case["candidates"])
    assert is_quiet(grid)
    for rules, plain in (((), ()), (NET_RULES, finders)):
        for cell in [c for c in range(81) if grid.cands[c]][:10]:
            for d in grid.candidates(cell):
                fast = settle(grid.copy(), rules, start=(cell, d), quiet=True)
                trial = grid.copy()
                trial.place(cell, d)
                slow, count = _scan_settle(trial, plain)
                assert (fast.grid is None) == (slow is None)
                assert fast.steps == count
                if slow is not None:
                    assert fast.grid is not None and fast.grid.cands == slow.cands
