"""The logic engine's fast paths (candidates from houses, singles, direct forms, listings at once) agree
with plain reference code on random boards."""

from __future__ import annotations

from typing import Any

import pytest

import shudu
from shudu.formats import parse_puzzle
from shudu.logic import CandidateGrid
from shudu.puzzle import Puzzle

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
    from shudu.logic.engine.grid import bits

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
    from shudu.logic.techniques import singles

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
    from shudu.logic.table import SE_FORMS
    from shudu.logic.techniques import direct, intersections, subsets

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
    from shudu.logic.table import SE_FORMS
    from shudu.logic.techniques import intersections

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
    from shudu.logic.table import techniques

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
    from shudu.logic.table import Cost, techniques

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

    from shudu.logic.engine import grid as grid_module
    from shudu.logic.engine.grid import bits

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


@pytest.mark.parametrize("size", [2, 3, pytest.param(4, marks=pytest.mark.c_speed)])
def test_complex_fish_finders_are_the_fish_of_their_form_size_and_fins(size: int) -> None:
    """The Franken and Mutant fish rows come from one loop: each row's steps are of its own
    technique (or that technique's Siamese form), and the path chooses without the Siamese."""
    from shudu.logic.catalog import fish_name
    from shudu.logic.table import EVERY_FINDER

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
