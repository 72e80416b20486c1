"""Solver ``fast``: both engines (C core and pure-Python twin) give identical answers,
identical counters and identical errors, and agree with an independent reference."""

from __future__ import annotations

import functools
import random
from array import array
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shudu.errors import SearchTimeout
from shudu.formats import parse_puzzle
from shudu.geometry import Geometry
from shudu.notation import digit_char
from shudu.solvers import _fast_py, fast
from shudu.solvers.base import Budget, Stats
from shudu.variants import Variant

from conftest import C_CORE as _core_c
from conftest import needs_c as BOTH

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
ENGINES = [pytest.param(_fast_py, id="python")]
if _core_c is not None:
    ENGINES.append(pytest.param(_core_c, id="c"))

# Pyramid and windoku regions, as SOURCES.md in the data folder describes them (1-based).
PYRAMID = [
    [(1, c) for c in range(3, 8)] + [(2, c) for c in range(4, 7)] + [(3, 5)],
    [(9, c) for c in range(3, 8)] + [(8, c) for c in range(4, 7)] + [(7, 5)],
    [(r, 1) for r in range(3, 8)] + [(r, 2) for r in range(4, 7)] + [(5, 3)],
    [(r, 9) for r in range(3, 8)] + [(r, 8) for r in range(4, 7)] + [(5, 7)],
]
WINDOKU = [
    [(r, c) for r in range(top, top + 3) for c in range(left, left + 3)] for top in (2, 6) for left in (2, 6)
]
DIAGONALS = [[(i, i) for i in range(1, 10)], [(i, 10 - i) for i in range(1, 10)]]


def regions(cells: list[list[tuple[int, int]]]) -> Variant:
    return Variant(regions=tuple(tuple(9 * (r - 1) + c - 1 for r, c in region) for region in cells))


def sample(name: str, count: int, seed: int = 4) -> list[str]:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} is not there")
    lines = path.read_text().split()
    return random.Random(seed).sample(lines, min(count, len(lines)))


# -- an independent reference: plain recursion over the emptiest cell ---------------------


def reference_count(geometry: Geometry, cells: list[int], limit: int) -> tuple[int, list[int]]:
    """Solutions up to ``limit``, and the first in lexicographic cell order of choices."""
    n, peers = geometry.size, geometry.peers
    for c, d in enumerate(cells):
        if d and any(cells[p] == d for p in peers[c]):
            return 0, []
    grid = list(cells)
    first: list[int] = []
    found = 0

    def options(c: int) -> list[int]:
        used = {grid[p] for p in peers[c]}
        return [d for d in range(1, n + 1) if d not in used]

    def search() -> bool:
        nonlocal found, first
        empty = [c for c, d in enumerate(grid) if not d]
        if not empty:
            found += 1
            first = first or list(grid)
            return found >= limit
        cell = min(empty, key=lambda c: len(options(c)))
        for d in options(cell):
            grid[cell] = d
            if search():
                return True
        grid[cell] = 0
        return False

    search()
    return found, first


@functools.cache
def reference_answer(line: str, variant: Variant | None) -> tuple[int, list[int]]:
    puzzle = parse_puzzle(line, variant=variant)
    return reference_count(puzzle.geometry, list(puzzle.givens), 2)


def is_solution(geometry: Geometry, givens: tuple[int, ...], solution: str) -> bool:
    digits = [int(ch, 36) for ch in solution]
    return (
        all(g in (0, d) for g, d in zip(givens, digits, strict=True))
        and all(
            sorted(digits[c] for c in house) == list(range(1, geometry.size + 1))
            for house in geometry.house_cells
        )
        and all(digits[c] != digits[p] for c in range(geometry.ncells) for p in geometry.peers[c])
    )


# -- identical answers from both engines ------------------------------------------------


CASES = [
    ("royle_17clue.txt", None, 40),
    ("magictour_top1465.txt", None, 20),
    ("forum_hardest_1106.txt", None, 4),
    ("serg_benchmark_multisolution.txt", None, 20),
    ("kaggle_like_easy_10k.txt", None, 20),
    ("size6_2x3_unique.txt", None, 40),
    ("size16_owhy.txt", None, 3),
    ("size4_yks23_unique.txt", None, 40),
    ("variant_x.txt", regions(DIAGONALS), 10),
    ("variant_windoku.txt", regions(WINDOKU), 10),
    ("variant_pyramid.txt", regions(PYRAMID), 10),
]


def geometry_for(lines: list[str], variant: Variant | None) -> Geometry:
    size = {16: 4, 36: 6, 81: 9, 256: 16}[len(lines[0])]
    return Geometry(size, variant=variant)


@BOTH
@pytest.mark.parametrize(("name", "variant", "count"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("limit", [1, 2])
def test_engines_agree_on_data(name: str, variant: Variant | None, count: int, limit: int) -> None:
    lines = sample(name, count)
    geometry = geometry_for(lines, variant)
    c = fast.solve_many(lines, limit=limit, geometry=geometry, engine=_core_c)
    py = fast.solve_many(lines, limit=limit, geometry=geometry, engine=_fast_py)
    assert c == py
    expected = (
        "multiple" if name.startswith("serg") and limit == 2 else ("unique" if limit == 2 else "solved")
    )
    assert set(c.statuses) == {expected}
    for line, solution in zip(lines, c.solutions, strict=True):
        assert solution is not None
        assert is_solution(geometry, parse_puzzle(line, variant=variant).givens, solution)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("name", "variant", "count"), CASES[5:], ids=[c[0] for c in CASES[5:]])
def test_matches_reference(engine, name: str, variant: Variant | None, count: int) -> None:
    lines = sample(name, min(count, 4), seed=11)
    if len(lines[0]) == 256:
        lines = lines[:1]
    geometry = geometry_for(lines, variant)
    result = fast.solve_many(lines, limit=2, geometry=geometry, engine=engine)
    for i, line in enumerate(lines):
        found, first = reference_answer(line, variant)
        assert result.counts[i] == found
        assert result.solution(i) == "".join(digit_char(d) for d in first)


def test_variant_regions_matter() -> None:
    # without their extra regions these puzzles have several solutions
    lines = sample("variant_x.txt", 5)
    plain = fast.solve_many(lines, limit=2)
    assert set(plain.statuses) == {"multiple"}


@pytest.mark.parametrize("engine", ENGINES)
def test_known_counts(engine) -> None:
    solver = fast.Fast(engine)
    assert solver.count(parse_puzzle("." * 16)) == 288
    assert solver.count(parse_puzzle("." * 36), limit=5000) == 5000
    assert solver.count(parse_puzzle("." * 81), limit=300) == 300
    windoku = parse_puzzle("." * 81, variant=regions(WINDOKU))
    assert solver.count(windoku, limit=50) == 50
    knight = parse_puzzle("123456" + "." * 30, variant=Variant(anti_knight=True))
    knight_found, _ = reference_count(knight.geometry, list(knight.givens), 10**6)
    assert 0 < solver.count(knight) == knight_found


@BOTH
def test_6x6_grids_with_a_given_first_row() -> None:
    # 28,200,960 grids in all (the benchmark counts them), 720 first rows alike
    assert fast.Fast(_core_c).count(parse_puzzle("123456" + "." * 30)) == 28_200_960 // 720


@BOTH
@pytest.mark.parametrize(
    ("text", "variant"),
    [
        ("." * 16, None),
        ("1..." + "." * 12, None),
        (".2......5........53..1..6..3.2......", None),  # several solutions
        ("." * 81, regions(DIAGONALS)),
        ("." * 36, Variant(anti_king=True)),
    ],
)
def test_lazy_solutions_in_the_same_order(text: str, variant: Variant | None) -> None:
    puzzle = parse_puzzle(text, variant=variant)
    c_stats, py_stats = Stats(), Stats()
    c_iter = fast.Fast(_core_c).solutions(puzzle, stats=c_stats)
    py_iter = fast.Fast(_fast_py).solutions(puzzle, stats=py_stats)
    c_list = [s for _, s in zip(range(600), c_iter, strict=False)]
    py_list = [s for _, s in zip(range(600), py_iter, strict=False)]
    assert c_list == py_list
    assert len(set(c_list)) == len(c_list)
    assert c_stats == py_stats


@pytest.mark.parametrize("engine", ENGINES)
def test_all_solutions_of_a_loose_puzzle(engine) -> None:
    text = "12.." + "." * 12
    puzzle = parse_puzzle(text)
    found = list(fast.Fast(engine).solutions(puzzle))
    assert len(found) == reference_count(puzzle.geometry, list(puzzle.givens), 10**6)[0]
    assert len(set(found)) == len(found)


# -- statuses, statistics, budgets ------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_statuses_and_stats(engine) -> None:
    easy = sample("kaggle_like_easy_10k.txt", 1)[0]
    none = "12345678." + "........9" + "." * 63  # r1c9 can only be 9, which column 9 has
    lines = [easy, none, "." * 81]
    result = fast.solve_many(lines, limit=2, engine=engine)
    assert result.statuses == ["unique", "none", "multiple"]
    assert list(result.counts) == [1, 0, 2]
    assert result.guesses[0] == 0 and result.settled[0] == easy.count(".")
    assert result.solutions[1] is None
    first = fast.solve_many(lines, limit=1, engine=engine)
    assert first.statuses == ["solved", "none", "solved"]


@pytest.mark.parametrize("engine", ENGINES)
def test_node_limit_gives_timeout(engine) -> None:
    hard = sample("forum_hardest_1106.txt", 1)[0]
    result = fast.solve_many([hard, hard], limit=2, node_limit=2, engine=engine)
    assert result.statuses == ["timeout", "timeout"]
    assert list(result.nodes) == [2, 2]
    solver = fast.Fast(engine)
    with pytest.raises(SearchTimeout) as caught:
        solver.count(parse_puzzle("." * 36), budget=Budget(node_limit=100))
    assert caught.value.found > 0
    with pytest.raises(SearchTimeout):
        list(solver.solutions(parse_puzzle(hard), budget=Budget(node_limit=1)))


@pytest.mark.parametrize("engine", ENGINES)
def test_empty_25x25_count_times_out(engine) -> None:
    import time

    puzzle = parse_puzzle("." * 625)
    started = time.monotonic()
    with pytest.raises(SearchTimeout):
        fast.Fast(engine).count(puzzle, budget=Budget.of(timeout=0.3))
    assert time.monotonic() - started < 30  # a generous bound: never a hang
    result = fast.solve_many(["." * 625], limit=10**9, timeout=0.2, engine=engine)
    assert result.statuses == ["timeout"]


@BOTH
def test_threads_give_the_same_answers() -> None:
    lines = sample("royle_17clue.txt", 300)
    one = fast.solve_many(lines, limit=2, threads=1, engine=_core_c)
    two = fast.solve_many(lines, limit=2, threads=3, engine=_core_c)
    assert one == two


@BOTH
@pytest.mark.parametrize("count", [1, 2, 7, 65, 129, 300])
def test_every_puzzle_answered_once_whatever_the_chunks(count: int) -> None:
    """Worker threads take the batch in chunks: every puzzle is answered, in its place,
    as on one thread (short batches, batches just past a chunk, more threads than puzzles)."""
    lines = sample("royle_17clue.txt", 300)[:count]
    lines[count // 2] = lines[count // 2][:-1] + "."  # minimal puzzles: one clue fewer, several solutions
    one = fast.solve_many(lines, limit=2, threads=1, engine=_core_c)
    assert len(one) == count and set(one.statuses) <= {"unique", "multiple"}
    for threads in (2, 3, 8):
        assert fast.solve_many(lines, limit=2, threads=threads, engine=_core_c) == one
    twin = fast.solve_many(lines[:7], limit=2, engine=_fast_py)
    assert twin == fast.solve_many(lines[:7], limit=2, threads=4, engine=_core_c)


@pytest.mark.parametrize("engine", ENGINES)
def test_bytes_buffer_input(engine) -> None:
    lines = sample("royle_17clue.txt", 5)
    as_list = fast.solve_many(lines, engine=engine)
    for data in ("\n".join(lines).encode(), "\r\n".join(lines).encode() + b"\r\n"):
        assert fast.solve_many(data, engine=engine) == as_list


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("threads", [1, 3])
def test_bytes_buffer_of_odd_lines(engine, threads: int) -> None:
    """A bytes buffer is answered as the list of its lines is, also where a line only looks
    like a puzzle's (a line break inside it, a carriage return, a short or a long line, no
    final line break, a character that is no digit), on one thread and several."""
    lines = sample("royle_17clue.txt", 6)
    broken = lines[2][:40] + "\n" + lines[2][41:]  # 81 characters, one of them a line break
    batches = [
        "\n".join(lines) + "\n",
        "\n".join(lines),
        "\n".join([*lines[:2], broken, *lines[3:]]) + "\n",
        "\n".join([*lines[:2], lines[2][:-1] + "\r", *lines[3:]]) + "\n",
        "\n".join([*lines[:2], lines[2][:-1], *lines[3:]]) + "\n",
        "\n".join([*lines[:2], lines[2] + "1", *lines[3:]]),
        "\n".join([*lines[:-1], lines[-1] + "1"]),  # as long as six full lines
        "\n".join([*lines[:2], lines[2][:-1] + "x", *lines[3:]]) + "\n",
    ]
    for text in batches:
        as_buffer = fast.solve_many(text.encode(), limit=2, threads=threads, engine=engine)
        as_list = fast.solve_many(text.splitlines(), limit=2, threads=threads, engine=engine)
        assert as_buffer == as_list
        assert [str(e) for e in as_buffer.errors] == [str(e) for e in as_list.errors]
        assert (as_buffer.statuses.count("invalid") > 0) == (text not in batches[:2])


@pytest.mark.parametrize("engine", ENGINES)
def test_huge_limit_counts_everything(engine) -> None:
    shape = engine.Shape(4, Geometry(4).house_cells)
    counts = shape.solve_many(["1" + "." * 15], 2**64 + 1)[2]
    assert array("Q", counts).tolist() == [72]


def shuffled_grid(rng: random.Random) -> list[int]:
    """A solved 9x9 grid: the pattern grid with digits, rows and columns shuffled."""
    digits = rng.sample(range(1, 10), 9)
    rows = [3 * band + r for band in rng.sample(range(3), 3) for r in rng.sample(range(3), 3)]
    cols = [3 * stack + c for stack in rng.sample(range(3), 3) for c in rng.sample(range(3), 3)]
    return [digits[(3 * (r % 3) + r // 3 + c) % 9] for r in rows for c in cols]


@BOTH
@pytest.mark.parametrize("givens", [22, 26, 30, 34])
def test_engines_agree_on_loose_puzzles(givens: int) -> None:
    # Few givens leave many cells with two candidates at each branch: the 9x9 branch rule
    # weighs only the first few of them, and both engines must weigh the same ones.
    rng = random.Random(givens)
    lines = []
    for _ in range(25):
        grid = shuffled_grid(rng)
        keep = set(rng.sample(range(81), givens))
        lines.append("".join(digit_char(d) if i in keep else "." for i, d in enumerate(grid)))
    for limit in (1, 3):
        c = fast.solve_many(lines, limit=limit, engine=_core_c)
        py = fast.solve_many(lines, limit=limit, engine=_fast_py)
        assert c == py
        assert sum(c.guesses) > 0
    for line, solution in zip(lines, c.solutions, strict=True):
        assert solution is not None
        assert is_solution(Geometry(9), parse_puzzle(line).givens, solution)


@BOTH
@pytest.mark.parametrize(
    ("size", "variant"), [(9, "x"), (9, "windoku"), (9, "pyramid"), (6, None), (16, None)]
)
def test_engines_agree_on_loose_general_puzzles(size: int, variant: str | None) -> None:
    # Few givens leave many two-candidate cells and much for the intersection rule: the
    # general engine's branch rule weighs only the first few of those cells, and its
    # propagation must reach the twin's state at every node.
    geometry = Geometry(size, variant=variant)
    grid = fast.solve_many(["." * geometry.ncells], 1, geometry=geometry, engine=_core_c).solutions[0]
    assert grid is not None
    rng = random.Random(f"{size}{variant}")
    digits = [digit_char(d) for d in range(1, size + 1)]
    lines = []
    for _ in range(4 if size == 16 else 20):
        relabel = dict(zip(digits, rng.sample(digits, size), strict=True))
        keep = set(rng.sample(range(geometry.ncells), int(geometry.ncells * rng.uniform(0.25, 0.4))))
        lines.append("".join(relabel[ch] if i in keep else "." for i, ch in enumerate(grid)))
    for limit in (1, 3):
        c = fast.solve_many(lines, limit=limit, geometry=geometry, engine=_core_c)
        py = fast.solve_many(lines, limit=limit, geometry=geometry, engine=_fast_py)
        assert c == py
        assert sum(c.guesses) > 0
    for line, solution in zip(lines, c.solutions, strict=True):
        assert solution is not None
        assert is_solution(geometry, parse_puzzle(line, variant=variant).givens, solution)


@BOTH
def test_general_engine_agrees_on_9x9() -> None:
    lines = sample("magictour_top1465.txt", 60) + sample("serg_benchmark_multisolution.txt", 60)
    geometry = Geometry(9)
    general = _core_c.Shape(9, geometry.house_cells, None, True)
    band = _core_c.Shape(9, geometry.house_cells, None)
    assert band.std9 and not general.std9
    # The same answers and the same counters: on 9x9 the intersection rule reaches the band
    # rule's state (in a band's 3x3 triads, a triad in no matching is ruled out by one row
    # or one box alone: claiming or pointing), and both engines branch alike, so the two
    # independent engines walk the same search tree.
    for limit in (1, 2):
        assert general.solve_many(lines, limit) == band.solve_many(lines, limit)


# -- bad input: the same exception from both engines ------------------------------------


def outcome(engine, call):
    try:
        return call(engine)
    except (ValueError, TypeError) as exc:
        return type(exc), str(exc)


HOUSES9 = Geometry(9).house_cells

# The engines' own errors (the public API turns them into ShuduError entries per puzzle).
BAD_CALLS = {
    "short line": lambda e: e.Shape(9, HOUSES9).solve_many(["1" * 80]),
    "bad char": lambda e: e.Shape(9, HOUSES9).solve_many(["x" + "." * 80]),
    "digit too big": lambda e: e.Shape(4, Geometry(4).house_cells).solve_many(["5" + "." * 15]),
    "non-str": lambda e: e.Shape(9, HOUSES9).solve_many([None]),
    "bad buffer line": lambda e: e.Shape(9, HOUSES9).solve_many(b"." * 81 + b"\n" + b"." * 3),
    # buffers are read by the worker threads: the first bad line still names the error
    "bad char, threads": lambda e: e.Shape(9, HOUSES9).solve_many(
        b"." * 81 + b"\n" + b"." * 40 + b"x" + b"." * 40 + b"\n" + b"." * 81, 1, 3
    ),
    "bad char before a short line": lambda e: e.Shape(9, HOUSES9).solve_many(
        b"." * 81 + b"\n" + b"x" + b"." * 80 + b"\n" + b"." * 3 + b"\n", 1, 2
    ),
    "bad char in the last of many": lambda e: e.Shape(9, HOUSES9).solve_many(
        (b"." * 81 + b"\n") * 150 + b"." * 80 + b"\xff\n", 2, 2, 50
    ),
    "size": lambda e: e.Shape(3, []),
    "house length": lambda e: e.Shape(4, [[0, 1, 2]]),
    "house index": lambda e: e.Shape(4, [[0, 1, 2, 99]]),
    "house repeat": lambda e: e.Shape(4, [[0, 1, 1, 2]]),
    "house type": lambda e: e.Shape(4, [[0, 1, 2, "3"]]),
    "links length": lambda e: e.Shape(4, [], [[]]),
    "self link": lambda e: e.Shape(4, [], [[0]] + [[]] * 15),
    "givens length": lambda e: e.Shape(4, []).search(b"\0" * 15),
    "givens value": lambda e: e.Shape(4, []).search(b"\5" + b"\0" * 15),
    "threads": lambda e: e.Shape(4, []).solve_many([], 1, 0),
    "limit": lambda e: e.Shape(4, []).solve_many([], 0),
    "negative limit": lambda e: e.Shape(4, []).solve_many([], -1),
    "limit type": lambda e: e.Shape(4, []).solve_many([], 1.5),
    "threads type": lambda e: e.Shape(4, []).solve_many([], 1, "2"),
    "huge threads": lambda e: e.Shape(4, []).solve_many([], 1, 2**40),
    "node limit": lambda e: e.Shape(4, []).solve_many([], 1, 1, -1),
    "want": lambda e: e.Shape(4, []).search(b"\0" * 16).run(-1, 0),
}


@BOTH
@pytest.mark.parametrize("name", BAD_CALLS)
def test_bad_input_same_error(name: str) -> None:
    call = BAD_CALLS[name]
    c, py = outcome(_core_c, call), outcome(_fast_py, call)
    assert isinstance(c, tuple) and c[0] in (ValueError, TypeError), c
    assert c == py


@BOTH
def test_every_byte_where_9x9_lines_are_read_16_at_a_time() -> None:
    """The C core reads a 9x9 line 16 bytes at a time, then its last byte alone, and reads
    it again one byte at a time when any is not '.' or 0-9: every byte value, at each end of
    each 16 bytes and at the last, gives the twin's answer or error, as a line and as a
    buffer, on one thread and two."""
    grid = bytearray(b"." * 81)
    for cell in range(0, 81, 4):  # a few givens, no two alike in a house
        grid[cell] = ord("1") + (cell // 9 * 3 + cell // 27 + cell % 9) % 9
    for pos in (0, 15, 16, 31, 32, 47, 48, 63, 64, 79, 80):
        for byte in range(256):
            line = bytes(grid[:pos]) + bytes([byte]) + bytes(grid[pos + 1 :])
            calls = [
                lambda e, line=line: e.Shape(9, HOUSES9).solve_many([line.decode("latin-1")], 1),
                lambda e, line=line: e.Shape(9, HOUSES9).solve_many(line + b"\n" + bytes(grid), 1, 2),
            ]
            for call in calls:
                assert outcome(_core_c, call) == outcome(_fast_py, call), (pos, byte)


@BOTH
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(alphabet="123456789.0aAxZ \n", min_size=0, max_size=90), max_size=3))
def test_fuzz_random_strings(texts: list[str]) -> None:
    def call(engine):
        return fast.solve_many(texts, limit=2, node_limit=500, geometry=Geometry(9), engine=engine)

    assert outcome(_core_c, call) == outcome(_fast_py, call)
    data = "\n".join(texts).encode()
    buffered = lambda engine: fast.solve_many(  # noqa: E731
        data, limit=2, node_limit=500, geometry=Geometry(9), engine=engine
    )
    assert outcome(_core_c, buffered) == outcome(_fast_py, buffered)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=16, max_size=16), st.sampled_from([None, "knight"]))
def test_fuzz_random_givens_4x4(cells: list[int], rule: str | None) -> None:
    variant = Variant(anti_knight=True) if rule else None
    geometry = Geometry(4, variant=variant)
    line = "".join(digit_char(d) for d in cells)
    found, _ = reference_count(geometry, cells, 3)
    for engine, _id in [(p.values[0], p.id) for p in ENGINES]:
        result = fast.solve_many([line], limit=3, geometry=geometry, engine=engine)
        assert result.counts[0] == found


@BOTH
@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=81, max_size=81), st.integers(0, 80))
def test_fuzz_random_givens_9x9(cells: list[int], keep_from: int) -> None:
    cells = [d if i >= keep_from else 0 for i, d in enumerate(cells)]
    line = "".join(digit_char(d) for d in cells)
    c = fast.solve_many([line], limit=2, node_limit=2000, engine=_core_c)
    py = fast.solve_many([line], limit=2, node_limit=2000, engine=_fast_py)
    assert c == py
