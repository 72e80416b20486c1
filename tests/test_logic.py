"""The logic engine: known answers per technique, and soundness over many puzzles."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

import shudu
from shudu.formats import parse_puzzle
from shudu.logic import TECHNIQUES, CandidateGrid, Step, solve_path
from shudu.logic.catalog import resolve
from shudu.logic.grid import digits_of
from shudu.logic.step import describe_outcome
from shudu.logic.techniques import BY_NAME, LISTED_ONLY
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
    from test_rule_logic import CASES as RULE_CASES  # the rule techniques' known answers

    covered = {case["technique"] for case in FIXTURES} | set(RULE_CASES)
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


@pytest.mark.parametrize("variant", ["x", "windoku"])
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


# --- the fast paths of the rating agree with plain reference code ------------------------------

#: Boards to check on: 9x9 puzzles, an X-sudoku (extra regions) and a 6x6 jigsaw.
FAST_PATH_BOARDS: list[tuple[str, Any]] = [
    ("4.......8....31.....7...92....57...1.59....6.1......8.8...2..1..3.418..69........", None),
    ("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..", None),
    (".4....9...31...7.......9241...6........5.3..85.37....9.1.2..8....89....2.....5...", "x"),
    ("5.23......63..4.....4....63..5.....7.........73...54.912....9...8.......3..1..8.4", "windoku"),
    (
        ".83...4.2.....4.877.2....15.7.......8..71..6..91..6.4.5...628.92....8...9.....2.4",
        {
            "variant": "jigsaw",
            "layout": "111222333111222333141252663144255563445556663444458666777758999778888999777888999",
        },
    ),
]


def _reference_candidates(puzzle: Puzzle) -> list[int]:
    """Each open cell's candidates, from its peers one by one."""
    full = (1 << puzzle.size) - 1
    out = []
    for cell, value in enumerate(puzzle.cells):
        seen = 0
        for peer in puzzle.geometry.peers[cell]:
            if puzzle.cells[peer]:
                seen |= 1 << (puzzle.cells[peer] - 1)
        out.append(0 if value else full & ~seen)
    return out


def _pencil_boards(seed: int) -> list[CandidateGrid]:
    """Boards from the puzzles above with random candidates removed (a player's pencil marks)
    and some cells filled from the solution, so that singles of every kind appear."""
    import random

    rng = random.Random(seed)
    boards = []
    for text, variant in FAST_PATH_BOARDS:
        puzzle = parse_puzzle(text, variant=variant)
        solution = shudu.solve(puzzle).solution
        assert solution is not None
        values = list(puzzle.cells)
        for cell in range(len(values)):
            if not values[cell] and rng.random() < 0.3:
                values[cell] = solution.cells[cell]
        grid = CandidateGrid.from_values(puzzle.geometry, values)
        for cell in range(len(values)):
            for digit in grid.candidates(cell):
                if digit != solution.cells[cell] and rng.random() < 0.35:
                    grid.eliminate(cell, digit)
        boards.append(grid)
    return boards


def test_candidates_from_houses_match_candidates_from_peers() -> None:
    for text, variant in [
        *FAST_PATH_BOARDS,
        ("." * 80 + "5", "anti-knight"),
        (".....1" + "." * 75, "windoku"),
    ]:
        puzzle = parse_puzzle(text, variant=variant)
        grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
        assert grid.cands == _reference_candidates(puzzle)
        assert grid.where == [
            sum(1 << c for c, mask in enumerate(grid.cands) if mask >> d & 1) for d in range(puzzle.size)
        ]


def _plain_singles(grid: CandidateGrid) -> dict[str, list[tuple[str, tuple[int, int]]]]:
    """Every single of each kind, found cell by cell and house by house."""
    from shudu.logic.grid import bits

    houses = grid.geometry.houses
    full, naked, hidden, box = [], [], [], []
    filled: set[int] = set()
    for h, cells in enumerate(grid.geometry.house_cells):
        open_cells = [c for c in cells if not grid.values[c]]
        if len(open_cells) == 1 and open_cells[0] not in filled and len(grid.candidates(open_cells[0])) == 1:
            filled.add(open_cells[0])
            full.append((houses[h].name, (open_cells[0], grid.candidates(open_cells[0])[0])))
    for cell in bits(grid.empty):
        if len(grid.candidates(cell)) == 1:
            naked.append(("", (cell, grid.candidates(cell)[0])))
    t = grid.t
    named: set[tuple[int, int]] = set()
    for h in (*t.boxes, *t.rows, *t.columns, *t.extras):
        for digit in range(1, grid.size + 1):
            spots = [c for c in grid.geometry.house_cells[h] if grid.has(c, digit)]
            if len(spots) == 1:
                if h in t.boxes:
                    box.append((houses[h].name, (spots[0], digit)))
                if (spots[0], digit) not in named:
                    named.add((spots[0], digit))
                    hidden.append((houses[h].name, (spots[0], digit)))
    return {"Full house": full, "Naked single": naked, "Hidden single": hidden, "box": box}


@pytest.mark.parametrize("seed", range(6))
def test_singles_listings_match_a_plain_scan(seed: int) -> None:
    from shudu.logic import singles

    listers = {
        "Full house": singles.iter_full_house,
        "Naked single": singles.iter_naked_single,
        "Hidden single": singles.iter_hidden_single,
        "box": singles.iter_box_singles,
    }
    for grid in _pencil_boards(seed):
        expected = _plain_singles(grid)
        for kind, lister in listers.items():
            found = list(lister(grid))
            assert [(s.houses[0] if s.houses else "", s.placements[0]) for s in found] == expected[kind]
            for step in found:
                (cell, digit), name = step.placements[0], grid.name(step.placements[0][0])
                assert step.explanation.startswith(f"{step.name}: ")
                assert step.explanation.endswith(f", so {name} = {digit}")
                assert step.cells == (cell,) and step.digits == (digit,) and not step.eliminations


@pytest.mark.parametrize("seed", range(6))
def test_direct_forms_match_trying_every_step(seed: int) -> None:
    """The direct finders pass over patterns that make no hidden single before building their
    steps; they must list exactly what trying every step of the technique gives."""
    from shudu.logic import direct, intersections, subsets
    from shudu.logic.techniques import SE_FORMS

    plain: dict[str, tuple[Any, bool]] = {
        "Direct pointing": (lambda g: intersections.iter_locked(g, pointing=True), False),
        "Direct claiming": (lambda g: intersections.iter_locked(g, pointing=False), False),
        "Direct hidden pair": (lambda g: subsets.iter_hidden(g, 2), True),
        "Direct hidden triple": (lambda g: subsets.iter_hidden(g, 3), True),
    }
    finders: dict[str, Any] = {f.form: f.iter_steps for f in SE_FORMS if f.form in plain}
    assert set(finders) == set(plain)
    for grid in _pencil_boards(seed):
        for form, (find_all, subset) in plain.items():
            expected = [
                found
                for step in find_all(grid)
                for found in direct._direct_steps(grid, step, form, subset=subset)
            ]
            assert list(finders[form](grid)) == expected


@pytest.mark.parametrize("seed", range(6))
def test_direct_intersections_make_their_single_in_a_house_of_the_locked_kind(seed: int) -> None:
    """As in Sudoku Explainer, a direct pointing places a hidden single of its digit in another
    box, a direct claiming in another line of the kind the digit is locked in: a single that the
    eliminations make only in some other kind of house does not make the step direct."""
    from shudu.logic import intersections
    from shudu.logic.techniques import SE_FORMS

    finders = {f.form: f.iter_steps for f in SE_FORMS}
    for grid in _pencil_boards(seed):
        houses = grid.geometry.houses
        for pointing, form in ((True, "Direct pointing"), (False, "Direct claiming")):
            expected = set()
            for a, _b, digit, _inside, out in intersections.locked(grid, pointing=pointing):
                plane = grid.where[digit - 1] & ~out
                for h, hbits in enumerate(grid.t.house_bits):
                    spots = plane & hbits
                    crossed = hbits & out
                    if houses[h].kind == houses[a].kind and crossed and spots and not spots & (spots - 1):
                        expected.add((spots.bit_length() - 1, digit))
            found = {step.placements[0] for step in finders[form](grid)}
            assert found == expected


@pytest.mark.parametrize("seed", range(3))
def test_singles_rounds_list_what_every_step_lists(seed: int) -> None:
    from shudu.logic.rating import se_order
    from shudu.logic.solver import SINGLES, every_single, every_step
    from shudu.logic.techniques import techniques

    finders = [f for f in (*techniques(), *se_order(uniqueness=False)) if f.technique.name in SINGLES]
    assert len(finders) == 7  # three in HoDoKu's order, four in Sudoku Explainer's
    for grid in _pencil_boards(seed):
        for finder in finders:
            assert every_single(finder, grid) == every_step(finder, grid)


@pytest.mark.parametrize("seed", range(3))
def test_finders_listed_at_once_keep_their_promise(seed: int) -> None:
    """A finder of cost ``LISTS_FIRST`` (a path lists its steps at once instead of finding one
    first) gives the first step of its listing, and the listing leaves the grid as it is; so the
    path's first technique and its steps are what finding one, then listing, gives."""
    from shudu.logic import solver
    from shudu.logic.rating import se_order
    from shudu.logic.techniques import Cost, techniques

    finders = [f for f in (*techniques(), *se_order(uniqueness=False)) if f.cost is Cost.LISTS_FIRST]
    assert {f.name for f in finders} >= {
        "Locked candidates (pointing)",
        "Locked candidates (claiming)",
        "Naked pair",
        "Hidden triple",
        "Direct pointing",
        "Direct hidden pair",
    }
    found = 0
    for grid in _pencil_boards(seed):
        before = (grid.cands[:], grid.where[:], grid.values[:], grid.placed[:], grid.empty)
        for finder in finders:
            listed = list(finder.chooses_from(grid))
            assert (grid.cands, grid.where, grid.values, grid.placed, grid.empty) == before
            first = finder.first(grid)
            assert first == (listed[0] if listed else None), finder.name
            found += bool(listed)
            got = solver.first_technique(grid, [finder])
            want = solver.every_step(finder, grid) if first is not None else None
            assert (got[1] if got else None) == want, finder.name
    assert found


def test_bits_of_large_masks_are_their_set_bits_cached_or_not() -> None:
    """``bits`` keeps the answers for masks of 10 bits and more; the kept answer is the same
    as a fresh one, and the store empties itself once full rather than growing."""
    import random

    from shudu.logic import grid as grid_module
    from shudu.logic.grid import bits

    rng = random.Random(7)
    masks = [0, 1, 1023, 1024, (1 << 81) - 1, 1 << 624, (1 << 625) - 1]
    masks += [rng.getrandbits(rng.choice((12, 81, 256, 625))) for _ in range(300)]
    for mask in masks * 2:  # the second time from the store
        assert list(bits(mask)) == [i for i in range(mask.bit_length()) if mask >> i & 1]
    most = grid_module._BIG_BITS_MOST
    try:
        grid_module._BIG_BITS_MOST = 2_000
        for _ in range(100):
            bits(rng.getrandbits(625) | 1 << 624)
            assert grid_module._big_bits_held <= 2_000
            assert sum(len(v) for v in grid_module._BIG_BITS.values()) == grid_module._big_bits_held
    finally:
        grid_module._BIG_BITS_MOST = most


def test_the_techniques_table_holds_each_finder_once_and_its_views_follow_it() -> None:
    """One table registers every finder: the path, the listings and Sudoku Explainer's forms are
    its views by role, the path's rows come before the listed ones, no row is there twice, and
    each finder's technique and form are the catalog's."""
    from shudu.logic.catalog import CATALOG
    from shudu.logic.techniques import EVERY_FINDER, FINDERS, SE_FORMS, Role

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


@pytest.mark.parametrize("size", [2, 3, 4])
def test_complex_fish_finders_are_the_fish_of_their_form_size_and_fins(size: int) -> None:
    """The Franken and Mutant fish rows come from one loop: each row's steps are of its own
    technique (or that technique's Siamese form), and the path chooses without the Siamese."""
    from shudu.logic.catalog import fish_name
    from shudu.logic.techniques import EVERY_FINDER

    by_name = {f.name: f for f in EVERY_FINDER}
    grids = _pencil_boards(size)
    for form in ("Franken", "Mutant"):
        for finned in (False, True):
            finder = by_name[fish_name(form, size, finned=finned)]
            for grid in grids:
                for step in finder.iter_steps(grid):
                    assert step.technique is finder.technique
                for step in finder.chooses_from(grid):
                    assert step.technique is finder.technique and not step.name.startswith("Siamese")
