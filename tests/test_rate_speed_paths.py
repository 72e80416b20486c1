"""The fast paths behind rating ordinary puzzles give what the plain definitions give.

Singles, locked candidates and the grid built from a puzzle's digits have quick forms (whole-grid
bit operations, patterns gathered per house, steps built without the dataclass ``__init__``). Each
is checked here against a plain reference written straight from the definition, on candidate
states a solver meets (part of the way along a solving path) with random pencil marks removed, on
several shapes: 9x9, 6x6, 16x16, a jigsaw, and variants with extra regions and with anti-king links.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import fields
from itertools import combinations
from typing import Any

import pytest

import shudu
from shudu import variants
from shudu.formats import as_puzzle
from shudu.logic.engine import memo
from shudu.logic.engine.grid import CandidateGrid, bits
from shudu.logic.engine.step import Step, make_step, new_step
from shudu.logic.solver import steps
from shudu.logic.table import (
    colouring,
    complex_fish,
    fish,
    intersections,
    patterns,
    singles,
    subsets,
    suedecoq,
    techniques,
    uniqueness,
)
from shudu.logic.techniques import aic
from shudu.puzzle import Puzzle

PUZZLES = {
    "9x9": ("000000010400000000020000000000050407008000300001090000300400200050100000000806000", None),
    "9x9 easier": ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", None),
    "6x6": (".2......5........53..1..6..3.2....4.", None),
    "x": ("96..4....1.8.....5...8...1....1..3.2.....3.4.8.....6...7........52..7............", "x"),
    "windoku": (
        "....6.94.......3...38.9.....46...........2.............2.13..94.8...........5....",
        "windoku",
    ),
    "pyramid": (
        "......1......84....9..2..879.....7.2....4..1........9...5...9.......6....6287...5",
        "pyramid",
    ),
    "anti-king": (
        "1...........2...........3...4...........5...........6...7...........8...........9",
        "anti-king",
    ),
    "jigsaw 6x6": ("1......2....3.......4.....5.......6.", "jigsaw:111122131222333244335544665544666655"),
    "16x16": (
        "1.D....4.A58.....E.........C...G.2.76.GBF..4....39F.1A.D7........4.6.31...B.58.C8C7E.69..F"
        ".....D...D..........2...A.G8C....7E.1426.G4....57F.A...B..........8...F.....B..3A.42E1A.4C"
        ".5...E6.7.3........3D.C5.7B2....9..1GB.63.4.C...2.........6.....8FD.3....9.E",
        None,
    ),
}


def _puzzle(name: str) -> Puzzle:
    text, variant = PUZZLES[name]
    if variant and variant.startswith("jigsaw:"):
        layout = variant.split(":")[1]
        return as_puzzle(text, variant=variants.get("jigsaw", math.isqrt(len(layout)), layout=layout))
    return as_puzzle(text, variant=variant)


def _states(puzzle: Puzzle, seed: int, count: int = 12) -> list[CandidateGrid]:
    """Grids met part of the way along the solving path, with some pencil marks rubbed out at
    random (as on a player's board: not every state is sound, which the finders must not mind)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
        path = steps(grid, techniques(upto="Hidden triple"))
        for _ in range(rng.randrange(0, 60)):
            if next(path, None) is None:
                break
        for cell in bits(grid.empty):
            for digit in grid.candidates(cell):
                if rng.random() < 0.12 and len(grid.candidates(cell)) > 1:
                    grid.eliminate(cell, digit)
        out.append(grid)
    return out


# --- the plain definitions ---------------------------------------------------------------------


def reference_locked(grid: CandidateGrid, *, pointing: bool) -> list[tuple[int, int, int, int, int]]:
    """Every pointing (claiming) pattern, overlap by overlap in the tables' order, digit by digit."""
    houses, hb = grid.geometry.houses, grid.t.house_bits
    out = []
    for a, b, inter in grid.t.overlaps:
        if (houses[a].kind in ("box", "region")) != pointing:
            continue
        for d in range(grid.size):
            inside = grid.where[d] & hb[a]
            out_cells = grid.where[d] & hb[b] & ~inter
            if inside.bit_count() >= 2 and inside & inter == inside and out_cells:
                out.append((a, b, d + 1, inside, out_cells))
    return out


def reference_naked(grid: CandidateGrid, k: int) -> dict[int, tuple[bool, frozenset[tuple[int, int]]]]:
    """Every naked subset of ``k`` cells that removes something: its cells (a cell set), whether it
    is locked and what it removes. k open cells of a house holding k digits between them remove
    those digits from every house that holds all k cells. A pair or triple is locked where its
    cells share a box (or jigsaw region) and another house and it removes digits from both: from
    the box, and from the other house outside the box."""
    houses, hb = grid.geometry.houses, grid.t.house_bits
    out: dict[int, tuple[bool, frozenset[tuple[int, int]]]] = {}
    for hbits in hb:
        for combo in combinations(list(bits(hbits & grid.empty)), k):
            digits = set().union(*(grid.candidates(c) for c in combo))
            if len(digits) != k:
                continue
            inside = sum(1 << c for c in combo)
            common = [g for g, gbits in enumerate(hb) if gbits & inside == inside]
            gone = frozenset(
                (c, d) for g in common for c in bits(hb[g] & ~inside) for d in digits if grid.has(c, d)
            )
            if not gone:
                continue

            def loses(g: int, outside: int = 0, gone: frozenset[tuple[int, int]] = gone) -> bool:
                return any(hb[g] >> c & 1 and not outside >> c & 1 for c, _ in gone)

            locked = k <= 3 and any(
                houses[b].kind in ("box", "region")
                and loses(b)
                and any(loses(g, hb[b]) for g in common if g != b)
                for b in common
            )
            out[inside] = (locked, gone)
    return out


def reference_avoidable(grid: CandidateGrid) -> set[tuple[str, frozenset[tuple[int, int]]]]:
    """Every Avoidable Rectangle step, rectangle by rectangle: four corners on two rows, two
    columns and two boxes, no given among them, the placed ones beginning a deadly pattern that
    fixes both its digits (opposite corners alike, neighbours different). Type 1: one corner open,
    which loses the digit that would close the pattern. Type 2: two open, each holding its digit of
    the pattern and the same one other digit x, which goes from the cells that see both."""
    n, values = grid.size, grid.values
    boxes = [h for h, house in enumerate(grid.geometry.houses) if house.kind in ("box", "region")]
    box_of = [next(b for b in boxes if grid.t.house_bits[b] >> c & 1) for c in range(n * n)]
    out = set()
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            cells = (r1 * n + c1, r1 * n + c2, r2 * n + c2, r2 * n + c1)  # around the rectangle
            if any(grid.givens >> c & 1 for c in cells) or sorted(
                Counter(box_of[c] for c in cells).values()
            ) != [2, 2]:
                continue
            # corners 0 and 2 are opposite, as are 1 and 3
            want = [values[c] or values[cells[(i + 2) % 4]] for i, c in enumerate(cells)]
            if any(values[c] and want[i + 2] and values[c] != want[i + 2] for i, c in enumerate(cells[:2])):
                continue
            if not all(want) or want[0] == want[1]:
                continue
            open_ = [i for i, c in enumerate(cells) if not values[c]]
            if len(open_) == 1 and grid.has(cells[open_[0]], want[open_[0]]):
                out.add(("Avoidable Rectangle Type 1", frozenset({(cells[open_[0]], want[open_[0]])})))
            if len(open_) == 2:
                (i, a), (j, b) = ((i, cells[i]) for i in open_)
                rest = set(grid.candidates(a)) - {want[i]}
                if not (grid.has(a, want[i]) and grid.has(b, want[j])) or rest != set(grid.candidates(b)) - {
                    want[j]
                }:
                    continue
                if len(rest) == 1:
                    (x,) = rest
                    seen = grid.t.peer_bits[a] & grid.t.peer_bits[b] & grid.where[x - 1]
                    if seen:
                        out.add(("Avoidable Rectangle Type 2", frozenset((c, x) for c in bits(seen))))
    return out


def reference_hidden_singles(grid: CandidateGrid, houses: list[int]) -> list[tuple[int, int, int]]:
    """(house, digit, cell) of each digit with one place in a house, houses in the order given."""
    out = []
    for h in houses:
        for d in range(1, grid.size + 1):
            places = [c for c in grid.geometry.house_cells[h] if not grid.values[c] and grid.has(c, d)]
            if len(places) == 1:
                out.append((h, d, places[0]))
    return out


def reference_grid(puzzle: Puzzle) -> CandidateGrid:
    """The grid of a puzzle's digits through the general constructor: each open cell's candidates
    are the digits none of its peers holds."""
    full = (1 << puzzle.size) - 1
    cands = [
        0 if value else full & ~sum({1 << (puzzle.cells[p] - 1) for p in peers if puzzle.cells[p]})
        for value, peers in zip(puzzle.cells, puzzle.geometry.peers, strict=True)
    ]
    return CandidateGrid(puzzle.geometry, puzzle.cells, cands)


def _state(grid: CandidateGrid) -> tuple[object, ...]:
    return grid.values, grid.cands, grid.where, grid.empty, grid.placed, grid.givens


# --- the checks --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_grid_from_values_matches_the_general_constructor(name: str) -> None:
    puzzle = _puzzle(name)
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    assert _state(grid) == _state(reference_grid(puzzle))
    # and it behaves alike afterwards: the same path from both
    other = reference_grid(puzzle)
    order = techniques(upto="Hidden single")
    assert list(steps(grid, order)) == list(steps(other, order))
    assert _state(grid) == _state(other)


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_givens_are_kept_by_the_fast_constructor(name: str) -> None:
    puzzle = _puzzle(name)
    placed = [c for c, v in enumerate(puzzle.cells) if v]
    givens = sum(1 << c for c in placed[::2]) | 1 << puzzle.geometry.ncells  # a stray bit goes
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells, givens=givens)
    assert grid.givens == sum(1 << c for c in placed[::2])


@pytest.mark.parametrize("pointing", [True, False], ids=["pointing", "claiming"])
@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_locked_candidates_match_the_definition(name: str, pointing: bool) -> None:
    puzzle = _puzzle(name)
    seen = 0
    for grid in _states(puzzle, seed=len(name)):
        found = list(intersections.locked(grid, pointing=pointing))
        assert found == reference_locked(grid, pointing=pointing)
        seen += len(found)
    if name.startswith("9x9"):
        assert seen, "the states should hold some locked candidates"


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_naked_and_locked_subsets_match_the_definition(name: str) -> None:
    puzzle = _puzzle(name)
    seen: Counter[tuple[int, bool]] = Counter()
    for grid in _states(puzzle, seed=3 + len(name)):
        for k in (2, 3, 4):
            found: dict[int, tuple[bool, frozenset[tuple[int, int]]]] = {}
            for locked in (False, True):
                listed = list(subsets.naked(grid, k, locked=locked))
                named = list(subsets.iter_naked(grid, k, locked=locked))
                for (_, inside, _), step in zip(listed, named, strict=True):
                    assert inside not in found
                    found[inside] = (locked, frozenset(step.eliminations))
                    assert step.name.startswith("Locked" if locked else "Naked")
                    seen[k, locked] += 1
            assert found == reference_naked(grid, k)
    if name.startswith("9x9"):
        assert seen[2, True] and seen[2, False], "the states should hold locked and other pairs"


@pytest.mark.parametrize("name", ["9x9", "9x9 easier", "6x6", "jigsaw 6x6", "16x16"])
def test_avoidable_rectangles_match_the_definition(name: str) -> None:
    puzzle = _puzzle(name)
    rng = random.Random(11 + len(name))
    seen = 0
    for grid in _states(puzzle, seed=5 + len(name), count=10):
        # more digits placed by a player (not givens), some of them wrong: the rule holds anyway
        for cell in rng.sample(list(bits(grid.empty)), grid.empty.bit_count() // 2):
            if grid.empty >> cell & 1 and grid.candidates(cell):
                grid.place(cell, rng.choice(grid.candidates(cell)))
        listed = {(s.name, frozenset(s.eliminations)) for s in uniqueness.iter_avoidable_rectangle(grid)}
        assert listed == reference_avoidable(grid)
        seen += len(listed)
    if name.startswith("9x9"):
        assert seen, "the states should hold some avoidable rectangles"


@pytest.mark.parametrize("size", [9, 16])
def test_avoidable_rectangles_laid_out_on_purpose_match_the_definition(size: int) -> None:
    """Both types, with the placed corners in a row or in a column, on boards that hold little
    else: two or three corners of a rectangle on two boxes placed with a crossing pattern's
    digits, the open corners pencilled down to their digit of the pattern and one more."""
    geometry = _puzzle("16x16" if size == 16 else "9x9").geometry
    rng = random.Random(size)
    kinds: Counter[str] = Counter()
    box = math.isqrt(size)
    for _ in range(150):
        grid = CandidateGrid.from_values(geometry, [0] * size * size, givens=0)
        while True:
            r1, r2 = sorted(rng.sample(range(size), 2))
            c1, c2 = sorted(rng.sample(range(size), 2))
            if (r1 // box == r2 // box) != (c1 // box == c2 // box):
                break
        a, b, x = rng.sample(range(1, size + 1), 3)
        corners = [(r1, c1, a), (r1, c2, b), (r2, c2, a), (r2, c1, b)]
        rng.shuffle(corners)
        opened = rng.choice([1, 2])
        for r, c, d in corners[opened:]:
            grid.place(r * size + c, d)
        for r, c, d in corners[:opened]:
            for e in grid.candidates(r * size + c):
                if e not in (d, x) or (opened == 1 and rng.random() < 0.5):
                    grid.eliminate(r * size + c, e)
        listed = {(s.name, frozenset(s.eliminations)) for s in uniqueness.iter_avoidable_rectangle(grid)}
        assert listed == reference_avoidable(grid)
        kinds.update(name for name, _ in listed)
    assert kinds["Avoidable Rectangle Type 1"] and kinds["Avoidable Rectangle Type 2"], kinds


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_hidden_singles_match_the_definition(name: str) -> None:
    puzzle = _puzzle(name)
    t = puzzle.geometry
    order = [*_kind(t, "box", "region"), *_kind(t, "row"), *_kind(t, "column"), *_kind(t, "extra")]
    seen = 0
    for grid in _states(puzzle, seed=7 + len(name)):
        expected = reference_hidden_singles(grid, order)
        # every placement once, named by the first house (in naming order) that has it
        first: dict[tuple[int, int], tuple[int, int, int]] = {}
        for h, d, c in expected:
            first.setdefault((c, d), (h, d, c))
        listed = list(singles.iter_hidden_single(grid))
        assert [(s.placements[0]) for s in listed] == [(c, d) for (c, d) in first]
        assert [s.houses for s in listed] == [(t.houses[h].name,) for h, _, _ in first.values()]
        boxes = [(h, d, c) for h, d, c in expected if t.houses[h].kind in ("box", "region")]
        in_boxes = list(singles.iter_box_singles(grid))
        assert [(s.placements[0], s.houses) for s in in_boxes] == [
            ((c, d), (t.houses[h].name,)) for h, d, c in boxes
        ]
        seen += len(listed)
    assert seen, "the states should hold some hidden singles"


def _kind(geometry: object, *kinds: str) -> list[int]:
    return [h for h, house in enumerate(geometry.houses) if house.kind in kinds]  # type: ignore[attr-defined]


def test_new_step_is_the_dataclass_step() -> None:
    puzzle = _puzzle("9x9")
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    built = make_step(grid, "Naked pair", "a reason", eliminations=[(3, 4), (1, 2)], cells=[1], digits=[2, 4])
    values = {f.name: getattr(built, f.name) for f in fields(Step)}
    assert new_step(**values) == Step(**values) == built
    assert vars(new_step(**values)) == vars(Step(**values))
    assert hash(new_step(**values)) == hash(Step(**values))
    short = {k: v for k, v in values.items() if k not in ("length", "structure", "reason", "houses")}
    assert vars(new_step(**short)) == vars(Step(**short))


def test_new_step_refuses_fields_a_step_lacks() -> None:
    puzzle = _puzzle("9x9")
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    values = {f.name: getattr(make_step(grid, "Naked pair", "r"), f.name) for f in fields(Step)}
    with pytest.raises(TypeError, match="fields of Step"):
        new_step(**values, colour="red")
    del values["explanation"]
    with pytest.raises(TypeError, match="fields of Step"):
        new_step(**values)


@pytest.mark.parametrize(
    ("name", "folded"), [("9x9", 3), ("6x6", 3), ("16x16", 3), ("windoku", 3), ("jigsaw 6x6", 2)]
)
def test_hidden_singles_fold_the_regular_houses(name: str, folded: int) -> None:
    """Rows, columns and regular boxes are looked at all at once; jigsaw regions and extra
    regions one by one (the checks above cover both ways)."""
    puzzle = _puzzle(name)
    geometry = puzzle.geometry
    houses = tuple(range(len(geometry.houses)))
    plan = singles._plan(geometry, houses)
    assert len(plan.folds) == folded
    loose = {h for _, h in plan.loose}
    assert loose == {h for h in houses if geometry.houses[h].kind in ("extra", "region")}


def _path(puzzle: str) -> list[dict[str, object]]:
    rating = shudu.rate(puzzle, steps=True)
    return [step.to_json() for step in rating.steps]


def test_skipping_barren_digits_changes_no_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fish (basic, Franken), single-digit patterns, X-Chains and colouring skip a digit whose
    places were searched in vain earlier in the call (memo.barren), Sue de Coq a box and line
    whose candidates were: the paths are the ones a search of every digit and house gives."""
    puzzles = [
        # fish, skyscrapers, kites, turbot fish, empty rectangles, colours and X-Chains on the way
        "..61......7...356..9...2....8..7..2........5....5.43..4.....79.1....84.......5..6",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
        # finned swordfish, and Franken fish searched on the way to the forcing chains
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
    ]
    skipped: set[object] = set()
    real = memo.barren

    def counting(key: Any) -> bool:
        known = real(key)
        if known:
            skipped.add(key[0][0])
        return known

    modules = (fish, patterns, aic, colouring, complex_fish, suedecoq)
    for module in modules:
        monkeypatch.setattr(module, "barren", counting)
    with_skips = [_path(p) for p in puzzles]
    # the skipping was exercised in every finder that does it
    assert {
        "fish",
        "two links",
        "x-chain",
        "simple colours",
        "multi colours",
        "complex fish",
        "sue de coq",
    } <= skipped
    for module in modules:
        monkeypatch.setattr(module, "barren", lambda key: False)
    assert with_skips == [_path(p) for p in puzzles]
