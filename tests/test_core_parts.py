"""The C core's parts: its generated band tables, its exported alphabet and codes, and the
9x9 engine's propagation against its Python statement and against the pure-Python twin."""

from __future__ import annotations

import importlib.util
import random
import re
from array import array
from pathlib import Path

import pytest

from shudu.geometry import Geometry
from shudu.notation import DIGITS, MAX_SIZE, BatchCode, CallCode, RunCode
from shudu.solvers import _band9_py, _fast_py

from conftest import C_CORE as _core_c
from conftest import needs_c as C_ONLY

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
HEADER = ROOT / "src" / "shudu" / "solvers" / "core" / "band_tables.h"


def header_table(name: str) -> list[int]:
    body = re.search(name + r"\[\d+\] = \{(.*?)\};", HEADER.read_text(), re.S)
    assert body is not None, f"{name} is not in {HEADER}"
    return [int(word, 16) for word in re.findall(r"0x([0-9A-Fa-f]+)u", body[1])]


# -- the band tables: recomputed from the rules ---------------------------------------------


def triad_word(triads: int) -> int:
    """The band cells (bit 9 * row + column) of a set of triads (bit 3 * row + box)."""
    return sum(1 << (9 * (t // 3) + 3 * (t % 3) + j) for t in range(9) if triads >> t & 1 for j in range(3))


def test_band_keep_table_is_the_band_rule() -> None:
    table = header_table("BAND_KEEP")
    assert len(table) == 512
    for present in range(512):
        assert table[present] == triad_word(_band9_py.band_keep(present)), present
    # spot checks by hand: every triad present keeps all; one row missing keeps none;
    # row 0 only in box 0 keeps box 0 for row 0 and boxes 1, 2 for rows 1 and 2
    assert table[0x1FF] == 0x7FFFFFF
    assert table[0x1FF & ~0b111] == 0
    assert table[0b111_111_001] == triad_word(0b110_110_001)


def test_triad_keep_table_is_the_band_rule() -> None:
    table = header_table("TRIAD_KEEP")
    assert len(table) == 512
    for present in range(512):
        assert table[present] == _band9_py.band_keep(present), present
    assert [triad_word(keep) for keep in table] == header_table("BAND_KEEP")


def test_row_box_others_table() -> None:
    table = header_table("ROW_BOX_OTHERS")
    assert len(table) == 27
    for pos in range(27):
        cell = pos  # band 0: the first 27 cells of the grid
        same_row_or_box = [
            p
            for p in _band9_py.PEERS[cell]
            if p < 27 and (p // 9 == cell // 9 or p % 9 // 3 == cell % 9 // 3)
        ]
        expected = sum(1 << p for p in same_row_or_box)
        assert table[pos] == expected, pos


def test_header_is_what_the_generator_writes() -> None:
    script = ROOT / "tools" / "gen_band_tables.py"
    if not script.exists():
        pytest.skip(f"{script} is not there")
    spec = importlib.util.spec_from_file_location("gen_band_tables", script)
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert HEADER.read_text() == gen.render()


def test_band_keep_by_box_is_band_keep_with_its_triads_transposed() -> None:
    keep, by_box = header_table("BAND_KEEP"), header_table("BAND_KEEP_BY_BOX")
    for present in range(512):
        transposed = sum(1 << (3 * (t % 3) + t // 3) for t in range(9) if present >> t & 1)
        assert by_box[transposed] == keep[present], present


@C_ONLY
def test_compiled_tables_are_the_header() -> None:
    keep, triads, others = _core_c._band_tables()
    assert list(keep) == header_table("BAND_KEEP")
    assert list(triads) == header_table("TRIAD_KEEP")
    assert list(others) == header_table("ROW_BOX_OTHERS")


# -- one alphabet and one set of codes ------------------------------------------------------


# The batch codes the engines hand out: BatchCode also names codes of the Python side only
# (a puzzle that could not be read never reaches an engine).
ENGINE_BATCH_CODES = [code for code in BatchCode if code.name != "INVALID"]


@C_ONLY
def test_exported_alphabet_and_codes_agree_with_notation() -> None:
    assert _core_c.DIGITS == DIGITS
    assert _core_c.MAX_SIZE == MAX_SIZE
    exported = {name: getattr(_core_c, name) for name in dir(_core_c) if name.startswith(("BATCH_", "RUN_"))}
    expected = {f"BATCH_{code.name}": code.value for code in ENGINE_BATCH_CODES}
    expected |= {f"RUN_{code.name}": code.value for code in RunCode}
    assert exported == expected
    for code in CallCode:
        assert getattr(_core_c, code.name) == code.value


def test_twin_codes_are_notation() -> None:
    # the twin writes no code of its own: each is a name of notation's tables
    for name in ("NONE", "UNIQUE", "MULTIPLE", "SOLVED", "TIMEOUT", "STOPPED", "EXHAUSTED", "BUDGET"):
        assert not hasattr(_fast_py, name), name
    assert not hasattr(_fast_py, "DIGIT_CHARS")


# -- the 9x9 engine's propagation -----------------------------------------------------------


def grid_from_line(line: str) -> bytes:
    return bytes(0 if ch in ".0" else int(ch) for ch in line)


def random_solution(rng: random.Random) -> list[int]:
    """A random valid 9x9 grid: a pattern grid with digits, rows and columns shuffled."""
    digits = rng.sample(range(1, 10), 9)
    rows = [3 * b + r for b in rng.sample(range(3), 3) for r in rng.sample(range(3), 3)]
    cols = [3 * b + c for b in rng.sample(range(3), 3) for c in rng.sample(range(3), 3)]
    return [digits[(3 * (r % 3) + r // 3 + c) % 9] for r in rows for c in cols]


def random_puzzles(count: int, seed: int) -> list[bytes]:
    """Puzzles of every kind: cells cut from solutions (solvable), and random givens (most
    of them contradictions, some not)."""
    rng = random.Random(seed)
    puzzles = []
    for i in range(count):
        if i % 3 < 2:
            grid = random_solution(rng)
            keep = rng.uniform(0.15, 0.5)
            puzzles.append(bytes(d if rng.random() < keep else 0 for d in grid))
        else:
            fill = rng.uniform(0.02, 0.2)
            puzzles.append(bytes(rng.randint(1, 9) if rng.random() < fill else 0 for _ in range(81)))
    return puzzles


def data_puzzles(name: str, count: int) -> list[bytes]:
    path = DATA / name
    if not path.exists():
        return []
    lines = path.read_text().split()
    return [grid_from_line(line) for line in random.Random(7).sample(lines, min(count, len(lines)))]


def test_statement_on_known_cases() -> None:
    assert _band9_py.propagate(bytes(81)) == (0x1FF,) * 81
    clash = bytes([5, 5] + [0] * 79)
    assert _band9_py.propagate(clash) is None
    solution = random_solution(random.Random(3))
    assert _band9_py.propagate(bytes(solution)) == tuple(1 << (d - 1) for d in solution)
    # one empty cell is a naked single
    holed = bytes([0, *solution[1:]])
    assert _band9_py.propagate(holed) == tuple(1 << (d - 1) for d in solution)
    # pointing, which no single explains: box 0's rows 1 and 2 are full, so digit 1 of box 0
    # lies in row 0, and the rest of row 0 loses it
    pointing = bytearray(81)
    for cell, digit in zip((9, 10, 11, 18, 19, 20), (2, 3, 4, 5, 6, 7), strict=True):
        pointing[cell] = digit
    state = _band9_py.propagate(bytes(pointing))
    assert state is not None
    assert all(state[c] & 1 for c in range(3)) and not any(state[c] & 1 for c in range(3, 9))
    assert all(state[c] & 1 for c in range(27, 81, 9))  # column 0 below the band keeps it


def transposed(cells: bytes | tuple[int, ...]) -> tuple[int, ...]:
    return tuple(cells[9 * (i % 9) + i // 9] for i in range(81))


def test_statement_stack_rule_on_a_known_case() -> None:
    # The pointing case above, transposed, which only the stack rule explains: box 0's
    # columns 1 and 2 are full, so digit 1 of box 0 lies in column 0, and the rest of
    # column 0 loses it.
    pointing = bytearray(81)
    for cell, digit in zip((1, 10, 19, 2, 11, 20), (2, 3, 4, 5, 6, 7), strict=True):
        pointing[cell] = digit
    state = _band9_py.propagate(bytes(pointing))
    assert state is not None
    assert all(state[c] & 1 for c in (0, 9, 18)) and not any(state[c] & 1 for c in range(27, 81, 9))
    assert all(state[c] & 1 for c in range(3, 9))  # row 0 right of the box keeps it


def test_statement_is_symmetric_under_transposition() -> None:
    # Every rule holds for rows and columns, bands and stacks alike, so transposing the
    # puzzle transposes the propagated state.
    for givens in random_puzzles(150, seed=13):
        state = _band9_py.propagate(givens)
        flipped = _band9_py.propagate(bytes(transposed(givens)))
        assert flipped == (None if state is None else transposed(state)), givens


def test_twin_reaches_the_statement() -> None:
    shape = _fast_py.Shape(9, Geometry(9).house_cells)
    assert shape.std9
    for givens in random_puzzles(60, seed=11) + data_puzzles("magictour_top1465.txt", 20):
        assert _fast_py.propagate(shape, givens) == _band9_py.propagate(givens)


@C_ONLY
def test_c_9x9_engine_reaches_the_statement() -> None:
    puzzles = random_puzzles(600, seed=5)
    for name in ("magictour_top1465.txt", "royle_17clue.txt", "forum_hardest_1106.txt"):
        puzzles += data_puzzles(name, 100)
    contradictions = 0
    for givens in puzzles:
        expected = _band9_py.propagate(givens)
        assert _core_c._propagate9(givens) == expected, givens
        flipped = _core_c._propagate9(bytes(transposed(givens)))
        assert flipped == (None if expected is None else transposed(expected)), givens
        contradictions += expected is None
    assert 0 < contradictions < len(puzzles)


@C_ONLY
def test_propagate9_rejects_bad_givens() -> None:
    with pytest.raises(ValueError, match="81 entries"):
        _core_c._propagate9(bytes(80))
    with pytest.raises(ValueError, match=r"outside 0\.\.9"):
        _core_c._propagate9(bytes([10] + [0] * 80))


@pytest.mark.parametrize("size", [9, 16])
def test_a_generous_deadline_changes_no_answer(size: int) -> None:
    # Every part of the core must read one clock: a deadline set by the module and read by an
    # engine on another clock is spent at once, and every timed call would answer ``timeout``.
    import shudu

    text = (
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
        if size == 9
        else "." * 256
    )
    for algorithm in ("auto", "fast"):
        untimed = shudu.solve(text, algorithm=algorithm)
        timed = shudu.solve(text, algorithm=algorithm, timeout=600)
        assert timed.status == untimed.status != "timeout"
        assert timed.solution == untimed.solution
    assert shudu.count(text, 2, timeout=600) == shudu.count(text, 2)


# -- the general engine's intersection rule: against a plain statement of the rules ---------


def reference_closure(
    geometry: Geometry, givens: list[int], intersections: bool = True, bands: bool = False
) -> tuple[int, ...]:
    """Candidates (as digit masks) once naked singles, hidden singles and, if asked, the
    intersection rule of every two houses sharing cells and the band and stack rules of
    9x9 have nothing more to remove. Written plainly with sets, apart from the engine; for
    consistent puzzles only."""
    n = geometry.size
    houses = [tuple(house) for house in geometry.house_cells]
    cand = [{g} if g else set(range(1, n + 1)) for g in givens]
    pairs = []
    for i, first in enumerate(houses):
        for second in houses[i + 1 :]:
            shared = set(first) & set(second)
            if 2 <= len(shared) < n:
                pairs.append((first, second, shared))
    changed = True
    while changed:
        changed = False
        for c in range(geometry.ncells):
            if len(cand[c]) == 1:
                for p in geometry.peers[c]:
                    if cand[c] & cand[p]:
                        cand[p] -= cand[c]
                        changed = True
        for house in houses:
            for d in range(1, n + 1):
                where = [c for c in house if d in cand[c]]
                if len(where) == 1 and len(cand[where[0]]) > 1:
                    cand[where[0]] = {d}
                    changed = True
        for first, second, shared in pairs if intersections else []:
            for one, other in ((first, second), (second, first)):
                for d in range(1, n + 1):
                    where = [c for c in one if d in cand[c]]
                    if where and all(c in shared for c in where):
                        for c in other:
                            if c not in shared and d in cand[c]:
                                cand[c].discard(d)
                                changed = True
        for triads in _band9_py.BAND_TRIADS + _band9_py.STACK_TRIADS if bands else ():
            for d in range(1, n + 1):
                present = sum(1 << t for t, cells in enumerate(triads) if any(d in cand[c] for c in cells))
                keep = _band9_py.band_keep(present)
                for t, cells in enumerate(triads):
                    if not keep >> t & 1:
                        for c in cells:
                            if d in cand[c]:
                                cand[c].discard(d)
                                changed = True
        assert all(cand), "the reference is only for consistent puzzles"
    return tuple(sum(1 << (d - 1) for d in digits) for digits in cand)


def test_intersection_pairs_of_known_shapes() -> None:
    # standard grids: every row and column meets each box of its band or stack in a line of
    # the box's width or height; X adds each diagonal's three boxes; windoku's windows
    # meet 3 rows, 3 columns and 3 boxes (by 4, 2 and 2 cells) each
    assert len(_fast_py.Shape(4, Geometry(4).house_cells).locks) == 16
    assert len(_fast_py.Shape(9, Geometry(9).house_cells, general=True).locks) == 54
    assert len(_fast_py.Shape(9, Geometry(9, variant="x").house_cells, general=True).locks) == 60
    assert (
        len(_fast_py.Shape(9, Geometry(9, variant="windoku").house_cells, general=True).locks) == 54 + 4 * 9
    )
    # with the band and stack rules (the 9x9 engine with extra houses), only the pairs
    # with an extra house: the diagonals' boxes, the windows' rows, columns and boxes
    assert len(_fast_py.Shape(9, Geometry(9, variant="x").house_cells).locks) == 6
    assert len(_fast_py.Shape(9, Geometry(9, variant="windoku").house_cells).locks) == 4 * 9
    assert len(_fast_py.Shape(16, Geometry(16).house_cells).locks) == 128
    assert _fast_py.Shape(9, Geometry(9).house_cells).locks == ()  # the band rule serves
    shared, first_only, second_only = _fast_py.Shape(9, Geometry(9).house_cells, general=True).locks[0]
    assert set(shared) | set(first_only) == set(Geometry(9).house_cells[0])
    assert not set(shared) & (set(first_only) | set(second_only))


GENERAL_SETS = [
    ("variant_x.txt", 9, "x"),
    ("variant_windoku.txt", 9, "windoku"),
    ("variant_pyramid.txt", 9, "pyramid"),
    ("size6_2x3_unique.txt", 6, None),
    ("size16_owhy.txt", 16, None),
]


@pytest.mark.parametrize(("name", "size", "variant"), GENERAL_SETS, ids=[s[0] for s in GENERAL_SETS])
def test_twin_general_propagation_is_the_closure(name: str, size: int, variant: str | None) -> None:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} is not there")
    geometry = Geometry(size, variant=variant)
    shape = _fast_py.Shape(size, geometry.house_cells, general=True)
    banded = _fast_py.Shape(size, geometry.house_cells)
    assert not shape.std9 and not shape.var9 and banded.var9 == (size == 9)
    lines = random.Random(7).sample(path.read_text().split(), 6 if size == 16 else 25)
    helped = 0
    for line in lines:
        givens = [0 if ch in ".0" else int(ch, 36) for ch in line]
        closure = reference_closure(geometry, givens)
        assert _fast_py.propagate(shape, bytes(givens)) == closure, line
        helped += closure != reference_closure(geometry, givens, intersections=False)
        if banded.var9:
            assert _fast_py.propagate(banded, bytes(givens)) == reference_closure(
                geometry, givens, bands=True
            )
    if name != "size6_2x3_unique.txt":  # singles settle most 6x6 puzzles alone
        assert helped  # the rule did remove candidates that singles leave


@C_ONLY
@pytest.mark.parametrize("general", [True, False], ids=["general", "default"])
@pytest.mark.parametrize(("name", "size", "variant"), GENERAL_SETS, ids=[s[0] for s in GENERAL_SETS])
def test_c_engines_settle_what_the_closure_settles(
    name: str, size: int, variant: str | None, general: bool
) -> None:
    # the cells the closure fills are what the C engine counts as settled before a guess:
    # the general engine's closure, or on 9x9 shapes with extra houses the 9x9 engine's
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} is not there")
    geometry = Geometry(size, variant=variant)
    lines = random.Random(8).sample(path.read_text().split(), 6 if size == 16 else 25)
    shape = _core_c.Shape(size, geometry.house_cells, None, general)
    assert shape.var9 == (size == 9 and not general)
    result = shape.solve_many(lines, 1)
    settled = array("Q", result[5])
    for line, count in zip(lines, settled, strict=True):
        givens = [0 if ch in ".0" else int(ch, 36) for ch in line]
        closure = reference_closure(geometry, givens, bands=shape.var9)
        filled = sum(1 for g, m in zip(givens, closure, strict=True) if not g and m & (m - 1) == 0)
        assert count == filled, line
