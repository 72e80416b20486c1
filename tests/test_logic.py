"""The logic engine: known answers per technique, and soundness over many puzzles."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest

import shudu
from shudu.formats import parse_puzzle
from shudu.logic import TECHNIQUES, CandidateGrid, Step, solve_path
from shudu.logic.engine.grid import digits_of
from shudu.logic.engine.step import describe_outcome
from shudu.logic.naming import resolve
from shudu.logic.table import BY_NAME, LISTED_ONLY
from shudu.puzzle import Puzzle
from shudu.variants import parse_cell

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
FIXTURES = json.loads((Path(__file__).parent / "data" / "logic_techniques.json").read_text())
#: The finder of each technique by name: the solving path's, or the one only listed.
FINDERS = {**{f.technique.name: f for f in LISTED_ONLY if not f.form}, **BY_NAME}


def grid_of(values: str, candidates: list[str], puzzle: str | None = None) -> CandidateGrid:
    """The board of a known answer; the digits of ``puzzle`` are its givens (None: all placed)."""
    puzzle_geo = parse_puzzle("." * len(values)).geometry
    cells = [0 if v == "." else int(v) for v in values]
    masks = [sum(1 << (int(d) - 1) for d in text) for text in candidates]
    givens = None if puzzle is None else sum(1 << c for c, v in enumerate(puzzle) if v not in ".0")
    return CandidateGrid(puzzle_geo, cells, masks, givens=givens)


def assert_sound(step: Step, solution: tuple[int, ...] | str) -> None:
    """No step may remove a candidate the solution holds or place one it does not."""
    for cell, digit in step.placements:
        assert int(solution[cell]) == digit, step.explanation
    for cell, digit in step.eliminations:
        assert int(solution[cell]) != digit, step.explanation


# --- known answers ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", FIXTURES, ids=[case["technique"] for case in FIXTURES])
def test_technique_known_answer(case: dict) -> None:
    grid = grid_of(case["values"], case["candidates"], case["puzzle"])
    step = FINDERS[case["technique"]].first(grid)
    assert step is not None
    # The fixture names the technique (then any of its forms will do) or the exact form.
    declared = resolve(case["step"])
    assert step.technique is declared.technique is FINDERS[case["technique"]].technique
    assert declared.name in (step.name, step.technique.name)
    n = grid.size
    assert [[grid.name(c), d] for c, d in step.placements] == case["placements"]
    assert [[grid.name(c), d] for c, d in step.eliminations] == case["eliminations"]
    expected = [(parse_cell(c, n), d) for c, d in case["eliminations"]]
    assert all(int(case["solution"][c]) != d for c, d in expected)
    assert_sound(step, case["solution"])
    assert step.explanation.startswith(step.name + ": ")


def test_every_technique_but_the_rarest_has_a_known_answer() -> None:
    from test_rule_forcing import PATH_CASES  # the rule verities, met on solving paths
    from test_rule_logic import CASES as RULE_CASES  # the rule techniques' known answers

    covered = {case["technique"] for case in FIXTURES} | set(RULE_CASES) | set(PATH_CASES)
    missing = {t.name for t in TECHNIQUES} - covered
    assert missing <= {"Full house", "Naked single", "Hidden single", "Hidden quad", "Brute Force"}


PUZZLE = "4.......8....31.....7...92....57...1.59....6.1......8.8...2..1..3.418..69........"


def test_singles() -> None:
    from shudu.logic.techniques.singles import find_full_house, find_hidden_single, find_naked_single

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
    from shudu.logic.techniques.subsets import find_hidden_quad

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
    step = FINDERS[case["technique"]].first(grid_of(case["values"], case["candidates"]))
    assert step is not None
    data = step.to_json()
    assert data["technique"] == step.technique.name and data["name"] == step.name
    assert data["eliminations"] == [{"cell": c, "digit": d} for c, d in case["eliminations"]]
    json.dumps(data)


def test_explanations_written_when_read() -> None:
    """A step's explanation is written the first time it is read; whenever that is (before or
    after pickling or copying, through ``str`` or equality), it reads as the pattern's reason and
    outcome, and no other attribute appears from nowhere."""
    puzzle = "..247..58..............1.4.....2...9528.9.4....9...1.........3.3....75..685..2..."
    path = shudu.rate(puzzle, steps=True).steps
    again = shudu.rate(puzzle, steps=True).steps
    assert [pickle.loads(pickle.dumps(s)) for s in again] == list(path)  # equality reads both
    for step in path:
        assert "explanation" in step.__dict__
        assert str(step).startswith(f"{step.name}: {step.reason}")
        outcome = [f"{step._name(c)} = {d}" for c, d in step.placements]
        if step.eliminations:
            outcome += [describe_outcome(step.size, (), step.eliminations)]
        assert all(part in str(step) for part in outcome)
    last = max(i for i, step in enumerate(path) if step.eliminations)  # a step make_step built
    fresh = shudu.rate(puzzle, steps=True).steps[last]
    copied = copy.deepcopy(fresh)
    assert "explanation" not in copied.__dict__ and copied.explanation == path[last].explanation
    with pytest.raises(AttributeError):
        _ = fresh.nothing_here


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
        # the big samples are c_speed: 40 s on the pure-Python core (royle and the small grids check it)
        pytest.param("radcliffe3m_sample.txt", 60, 111, marks=pytest.mark.c_speed),
        pytest.param("magictour_top1465.txt", 12, 117, marks=pytest.mark.c_speed),
        ("size4_yks23_unique.txt", 30, 11),
        ("size6_2x3_unique.txt", 30, 9),
    ],
)
def test_every_step_is_sound(name: str, count: int, every: int) -> None:
    for line in _puzzles(name, count, every):
        check_path(parse_puzzle(line))


#: X is a minute on the pure-Python core (windoku and pyramid check the paths of variants there).
@pytest.mark.parametrize("variant", [pytest.param("x", marks=pytest.mark.c_speed), "windoku", "pyramid"])
def test_variants_are_sound(variant: str) -> None:
    for line in _puzzles(f"variant_{variant}.txt", 6, 13):
        check_path(parse_puzzle(line, variant=variant))


# X: c_speed, as above.
@pytest.mark.parametrize("variant", [pytest.param("x", marks=pytest.mark.c_speed), "windoku"])
def test_the_logic_calls_take_the_puzzle_as_solve_does(variant: str) -> None:
    """rate, explain, hint and find_steps read text with ``variant=`` as solve does: the same
    answer as for the Puzzle parsed with it, and not the answer for the bare grid."""
    for line in _puzzles(f"variant_{variant}.txt", 1, 3):
        puzzle = parse_puzzle(line, variant=variant)
        assert shudu.solve(line, variant=variant).status == "unique"
        rating = shudu.rate(line, variant=variant)
        assert (rating.status, rating.score) == (shudu.rate(puzzle).status, shudu.rate(puzzle).score)
        assert str(shudu.explain(line, variant=variant)) == str(shudu.explain(puzzle))
        assert shudu.hint(line, variant=variant) == shudu.hint(puzzle)
        steps = shudu.find_steps(line, "Hidden single", variant=variant)
        assert [str(s) for s in steps] == [str(s) for s in shudu.find_steps(puzzle, "Hidden single")]
        if shudu.solve(line).status != "unique":  # the bare grid is another puzzle
            assert shudu.hint(line).status != "unique"
    with pytest.raises(TypeError, match="variant must be"):
        shudu.hint("." * 81, variant=3)  # type: ignore[arg-type]


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
    from shudu.logic.techniques.forcing import find_forcing_chain, find_forcing_net, find_nested_forcing_net

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
    from shudu.logic.engine.propagate import is_quiet, settle
    from shudu.logic.techniques.intersections import find_claiming, find_pointing
    from shudu.logic.techniques.netrules import NET_RULES
    from shudu.logic.techniques.subsets import find_hidden_pair, find_naked_pair

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


def test_the_techniques_table_holds_each_finder_once_and_its_views_follow_it() -> None:
    """One table registers every finder: the path, the listings and Sudoku Explainer's forms are
    its views by role, the path's rows come before the listed ones, no row is there twice, and
    each finder's technique and form are the catalog's."""
    from shudu.logic.catalog import CATALOG
    from shudu.logic.table import EVERY_FINDER, FINDERS, SE_FORMS, Role

    assert tuple(f for f in FINDERS if Role.PATH in f.role) == TECHNIQUES
    assert tuple(f for f in FINDERS if f.role & (Role.PATH | Role.LISTED)) == EVERY_FINDER
    assert set(SE_FORMS) == {f for f in FINDERS if Role.SE_FORM in f.role}
    assert set(FINDERS) == {*EVERY_FINDER, *SE_FORMS}
    keys = [(f.technique.name, f.form, f.first) for f in FINDERS]
    assert len(set(keys)) == len(keys)
    assert len({f.first for f in FINDERS}) == len(FINDERS)
    for finder in FINDERS:
        assert finder.technique in CATALOG
        assert not finder.form or finder.technique.form(finder.form) is not None, finder.form
        assert not hasattr(finder.first, "every"), finder.name
