"""Grids that are not square: R rows x C columns of D digits (D at least the longer side), as
ISS writes them (``.Shape~5x10``, ``.Shape~5x5~9``).

The four such core puzzles of the shared corpus solve to their published solutions on both
engines; small random instances with givens and cages, thermometers, arrows and skyscrapers list
exactly the solutions of a brute-force enumeration (cells in reading order, each rule checked
from its meaning once its cells are filled, no propagation); bad input gets a specific error.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

import shudu
from shudu.errors import ConflictError, ParseError, ShapeError, ShuduError, SolverError, VariantError
from shudu.formats import parse_json, parse_puzzle, to_json
from shudu.formats.iss import format_iss, parse_iss
from shudu.geometry import Geometry, grid_box
from shudu.puzzle import Puzzle
from shudu.render import render
from shudu.rules import Rule
from shudu.solvers import constraints
from shudu.solvers.base import Budget, Stats
from shudu.variants import Variant

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iss_constraint_puzzles.tsv"


# --- the corpus ----------------------------------------------------------------------------------


def _rect_rows() -> list[dict[str, str]]:
    with DATA.open(encoding="utf-8") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t") if row["scope"] == "core"]
    return [row for row in rows if parse_iss(row["iss_input"]).geometry.is_rect]


def _digits(text: str) -> tuple[int, ...]:
    """A published solution as digits: 1-9, or A = 1 … on grids of more than 9 digits."""
    if any(c.isalpha() for c in text):
        return tuple(ord(c.upper()) - ord("A") + 1 for c in text)
    return tuple(int(c) for c in text)


def _python_solutions(
    puzzle: Puzzle, limit: int, nodes: int = 1_000_000
) -> tuple[list[tuple[int, ...]], int]:
    stats = Stats()
    found = list(itertools.islice(constraints._Search(puzzle, Budget(nodes), stats).solutions(), limit))
    return found, stats.nodes


@pytest.mark.skipif(not DATA.exists(), reason=f"the shared corpus is absent ({DATA})")
def test_the_corpus_grids_that_are_not_square_are_unique_with_their_solutions() -> None:
    rows = _rect_rows()
    shapes = {parse_iss(row["iss_input"]).geometry.dims for row in rows}
    assert {"5x10", "4x6", "9x8", "5x5 of digits 1-9"} <= shapes, shapes
    for row in rows:
        puzzle = shudu.parse_puzzle(row["iss_input"])
        want = _digits(row["solution"])
        result = shudu.solve(puzzle, timeout=60)
        assert result.status == "unique", row["name"]
        assert result.solution is not None and tuple(result.solution.cells) == want, row["name"]
        found, py_nodes = _python_solutions(puzzle, 2)
        assert found == [want], row["name"]
        if constraints._core is not None:  # the C engine: step for step the Python one
            search = constraints._c_search(puzzle)
            assert search is not None
            stats = Stats()
            c_found = list(itertools.islice(constraints._c_solutions(*search, Budget(), stats), 2))
            assert c_found == found and stats.nodes == py_nodes, row["name"]
        assert parse_iss(format_iss(puzzle)) == puzzle, row["name"]
        assert parse_json(json.dumps(to_json(puzzle))) == puzzle, row["name"]


# --- the reference: a brute-force enumeration ------------------------------------------------------


def _visible(digits: Sequence[int]) -> int:
    seen, tallest = 0, 0
    for d in digits:
        if d > tallest:
            seen, tallest = seen + 1, d
    return seen


def _holds(rule: Rule, grid: Sequence[int]) -> bool:
    """A rule's meaning, written here again (the reference does not use shudu's checks)."""
    digits = [grid[c] for c in rule.cells]
    if rule.kind == "cage":
        return len(set(digits)) == len(digits) and (not rule.params or sum(digits) == rule.params[0])
    if rule.kind == "all-different":
        return len(set(digits)) == len(digits)
    if rule.kind == "thermo":
        return all(a < b for a, b in itertools.pairwise(digits))
    if rule.kind == "arrow":
        return digits[0] == sum(digits[1:])
    if rule.kind == "skyscraper":
        return _visible(digits) == rule.params[0]
    raise AssertionError(rule.kind)


def _groups(rows: int, cols: int, size: int, boxes: bool) -> list[tuple[int, ...]]:
    """The rows, columns and boxes (ISS's: of max(rows, cols) cells, as near square as tiles the
    grid), each holding different digits."""
    out = [tuple(r * cols + c for c in range(cols)) for r in range(rows)]
    out += [tuple(r * cols + c for r in range(rows)) for c in range(cols)]
    cells = max(rows, cols)
    if boxes:
        shapes = [(s, cells // s) for s in range(math.isqrt(cells), 1, -1) if cells % s == 0]
        fits = [(h, w) for s, t in shapes for h, w in ((s, t), (t, s)) if rows % h == 0 and cols % w == 0]
        if fits:
            high, wide = fits[0]
            out += [
                tuple((top + r) * cols + left + c for r in range(high) for c in range(wide))
                for top in range(0, rows, high)
                for left in range(0, cols, wide)
            ]
    return out


def _brute(
    rows: int,
    cols: int,
    size: int,
    givens: Sequence[int],
    groups: list[tuple[int, ...]],
    rules: Sequence[Rule],
) -> Iterator[tuple[int, ...]]:
    """Every grid: cells in reading order, each digit checked against the filled cells of its
    groups, each rule judged once its cells are filled."""
    ncells = rows * cols
    earlier: list[set[int]] = [set() for _ in range(ncells)]
    for group in groups:
        for cell in group:
            earlier[cell].update(c for c in group if c < cell)
    checks: list[list[Rule]] = [[] for _ in range(ncells)]
    for rule in rules:
        checks[max(rule.cells)].append(rule)
    grid = [0] * ncells

    def fill(cell: int) -> Iterator[tuple[int, ...]]:
        if cell == ncells:
            yield tuple(grid)
            return
        for d in [givens[cell]] if givens[cell] else range(1, size + 1):
            if any(grid[c] == d for c in earlier[cell]):
                continue
            grid[cell] = d
            if all(_holds(rule, grid) for rule in checks[cell]):
                yield from fill(cell + 1)
        grid[cell] = 0

    yield from fill(0)


# --- random instances ---------------------------------------------------------------------------


def _neighbours(cell: int, rows: int, cols: int) -> list[int]:
    r, c = divmod(cell, cols)
    return [
        (r + dr) * cols + c + dc
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
        if 0 <= r + dr < rows and 0 <= c + dc < cols
    ]


def _walk(rng: random.Random, rows: int, cols: int, length: int) -> tuple[int, ...]:
    cells = [rng.randrange(rows * cols)]
    while len(cells) < length:
        options = [n for n in _neighbours(cells[-1], rows, cols) if n not in cells]
        if not options:
            break
        cells.append(rng.choice(options))
    return tuple(cells)


def _random_rule(rng: random.Random, rows: int, cols: int, grid: Sequence[int]) -> Rule | None:
    kind = rng.choice(["cage", "cage", "thermo", "arrow", "skyscraper"])
    if kind == "skyscraper":
        if rng.random() < 0.5:
            r = rng.randrange(rows)
            line = tuple(r * cols + c for c in range(cols))
        else:
            c = rng.randrange(cols)
            line = tuple(r * cols + c for r in range(rows))
        line = line[::-1] if rng.random() < 0.5 else line
        count = _visible([grid[c] for c in line]) if rng.random() < 0.8 else rng.randint(1, len(line))
        return Rule("skyscraper", line, (count,))
    cells = _walk(rng, rows, cols, rng.randint(2, 4))
    if len(cells) < 2:
        return None
    if kind == "cage":
        if len({grid[c] for c in cells}) != len(cells):
            return None
        total = sum(grid[c] for c in cells) + (0 if rng.random() < 0.8 else rng.choice((-1, 1)))
        return Rule("cage", cells, (total,))
    if kind == "thermo":
        cells = tuple(sorted(cells, key=lambda c: grid[c]))
        if len({grid[c] for c in cells}) != len(cells) or any(
            b not in _neighbours(a, rows, cols) for a, b in itertools.pairwise(cells)
        ):
            return None
        return Rule("thermo", cells)
    return Rule("arrow", cells)  # may hold or not: both are fine


#: (rows, columns, digits, boxes): ISS's boxes where max(rows, columns) cells tile the grid.
SHAPES = [(2, 3, 4, True), (3, 4, 4, True), (2, 4, 4, True), (3, 4, 5, True), (4, 6, 6, True),
          (4, 4, 5, True), (4, 4, 4, False), (3, 5, 5, True), (2, 6, 6, True), (5, 4, 5, True),
          (4, 3, 4, True), (6, 4, 6, True)]  # fmt: skip


def _instance(
    rng: random.Random, rows: int, cols: int, size: int, boxes: bool
) -> tuple[Puzzle, list[tuple[int, ...]]] | None:
    groups = _groups(rows, cols, size, boxes)
    ncells = rows * cols
    # a random full grid: the reference's first with a random given or two
    while True:
        seed = [0] * ncells
        for cell in rng.sample(range(ncells), 2):
            seed[cell] = rng.randint(1, size)
        grid = next(_brute(rows, cols, size, seed, groups, []), None)
        if grid is not None:
            break
    rules = [
        r for r in (_random_rule(rng, rows, cols, grid) for _ in range(rng.randint(1, 3))) if r is not None
    ]
    keep = (
        rng.uniform(0.45, 0.7)
        if ncells > 16
        else rng.uniform(0.2, 0.6)
        if ncells > 12
        else rng.uniform(0.0, 0.4)
    )
    givens = [d if rng.random() < keep else 0 for d in grid]
    try:
        variant = Variant().with_rules(rules, size).on_grid(rows, cols, size, no_boxes=not boxes)
        puzzle = Puzzle(givens, variant=variant)
    except ShuduError:  # a total no digits reach, clashing givens: refused, as they should be
        return None
    want = list(itertools.islice(_brute(rows, cols, size, givens, groups, rules), 501))
    return puzzle, want


@pytest.mark.parametrize(("rows", "cols", "size", "boxes"), SHAPES)
def test_random_instances_list_the_brute_force_solutions(
    rows: int, cols: int, size: int, boxes: bool
) -> None:
    rng = random.Random(rows * 1000 + cols * 10 + size + boxes)
    geometry = Geometry(size, None, Variant().on_grid(rows, cols, size, no_boxes=not boxes))
    groups = _groups(rows, cols, size, boxes)
    assert sorted(geometry.house_cells + tuple(g.cells for g in geometry.groups)) == sorted(groups)
    tried = 0
    for _ in range(10 if rows * cols > 16 else 30):
        made = _instance(rng, rows, cols, size, boxes)
        if made is None or len(made[1]) > 500:
            continue
        puzzle, want = made
        tried += 1
        got = [tuple(g.cells) for g in itertools.islice(shudu.solutions(puzzle), 501)]
        assert sorted(got) == sorted(want), format_iss(puzzle)
        python, _ = _python_solutions(puzzle, 501)
        assert python == got, format_iss(puzzle)  # the same order on both engines
        assert shudu.count(puzzle) == len(want)
    assert tried >= 5


#: Open tall grids (columns of D cells are the houses, rows shorter all-different groups), bare
#: and with a rule or two: the search numbers their cells column by column, so it finds two grids
#: in a few dozen nodes (row by row it ran past a million without one).
OPEN_TALL = [
    ".Shape~9x8",
    ".Shape~7x6",
    ".Shape~8x7",
    ".Shape~9x7",
    ".Shape~9x8.Cage~24~R1C1~R2C1~R3C1",
    ".Shape~7x6.Cage~3~R1C1~R1C2.Cage~13~R7C5~R7C6",
    ".Shape~8x7.Skyscraper~C1~8~.Cage~15~R4C4~R5C4",
    ".Shape~9x7.Thermo~R9C7~R8C7~R7C7~R7C6",
]


@pytest.mark.parametrize("text", OPEN_TALL)
def test_an_open_tall_grid_is_multiple_within_a_few_nodes_on_both_engines(text: str) -> None:
    puzzle = parse_iss(text)
    geometry = puzzle.geometry
    assert geometry.is_rect and geometry.rows > geometry.cols
    result = shudu.solve(puzzle, node_limit=200)
    assert result.status == "multiple", text
    found, py_nodes = _python_solutions(puzzle, 2, nodes=200)
    assert len(found) == 2 and py_nodes <= 200, text
    groups = _groups(geometry.rows, geometry.cols, geometry.size, geometry.box is not None)
    for grid in found:  # each a grid of the puzzle, judged by the reference's own reading
        assert all(len({grid[c] for c in group}) == len(group) for group in groups), text
        assert all(_holds(rule, grid) for rule in geometry.variant.rules), text
    if constraints._core is not None:  # the C engine: the same grids, node for node
        search = constraints._c_search(puzzle)
        assert search is not None
        stats = Stats()
        c_found = list(itertools.islice(constraints._c_solutions(*search, Budget(200), stats), 2))
        assert c_found == found and stats.nodes == py_nodes, text
        assert result.stats.nodes == py_nodes, text


def test_iss_boxes_of_a_grid_that_is_not_square() -> None:
    assert grid_box(5, 10) == (5, 2)
    assert grid_box(4, 6) == (2, 3)
    assert grid_box(9, 8) is None
    assert grid_box(5, 5) is None
    geometry = parse_iss(".Shape~5x10").geometry
    assert geometry.box == (5, 2) and len(geometry.houses) == 5 + 5  # the rows and boxes: 10 cells
    assert [g.kind for g in geometry.groups] == ["column"] * 10
    whirlpool = parse_iss(".Shape~5x5~9").geometry
    assert whirlpool.houses == () and len(whirlpool.groups) == 10 and whirlpool.size == 9


# --- bad input and the layers that read square grids only ---------------------------------------


def test_bad_input_gets_specific_errors() -> None:
    with pytest.raises(ParseError, match="R5C1 lies outside the 4x6 grid"):
        parse_puzzle(".Shape~4x6.~R5C1_1")
    with pytest.raises(ParseError, match="R1C7 lies outside the 4x6 grid"):
        parse_puzzle(".Shape~4x6.Cage~3~R1C6~R1C7")
    with pytest.raises(ParseError, match="at least as many as the longer side"):
        parse_puzzle(".Shape~5x10~9")
    with pytest.raises(ParseError, match="digits of this 4x6 grid run from 1 to 6"):
        parse_puzzle(".Shape~4x6.~R1C1_7")
    with pytest.raises(ConflictError, match="in row 1"):
        parse_puzzle(".Shape~4x6.~R1C1_1~R1C2_1")
    with pytest.raises(ConflictError, match="in column 1"):
        parse_puzzle(".Shape~5x5~9.~R1C1_1~R2C1_1")
    with pytest.raises(ParseError, match="square grids"):
        parse_puzzle(".Shape~4x6.Windoku")
    with pytest.raises(ParseError, match="square grids"):
        parse_puzzle(".Shape~4x6.AntiConsecutive")
    with pytest.raises(VariantError, match="whole row or column"):
        Variant().with_rules([Rule("skyscraper", (0, 1, 2), (2,))], 6).on_grid(4, 6, 6).check(6)
    with pytest.raises(ShapeError, match="at least the longer side"):
        Variant().on_grid(4, 7, 6).check(6)
    with pytest.raises(ShapeError, match='"shape" must be'):
        parse_json({"shape": "4by6", "givens": "." * 24})
    with pytest.raises(ParseError, match="the givens have 23 cells; a 4x6 grid has 24"):
        parse_json({"shape": "4x6", "givens": "." * 23})
    with pytest.raises(VariantError, match="not a cell of the 4x6 grid"):
        parse_json({"shape": "4x6", "regions": [["r5c1"]], "givens": "." * 24})


def test_layers_that_read_square_grids_only_say_so() -> None:
    puzzle = parse_puzzle(".Shape~4x6.~R1C1_1~R2C4_2~R3C2_3~R4C5_4")
    with pytest.raises(SolverError, match="square grids only, not 4x6"):
        shudu.solve(puzzle, algorithm="dlx")
    skyscrapers = parse_puzzle(
        ".Shape~4x6.Skyscraper~C1~1~4.Skyscraper~C2~2~3.Skyscraper~C3~3~.Skyscraper~C4~3~2"
        ".Skyscraper~C5~2~.Skyscraper~C6~1~.Skyscraper~R4~4~"
    )
    assert shudu.solve(skyscrapers).status == "unique"
    for call in (shudu.rate, shudu.explain, shudu.hint):
        with pytest.raises(ShapeError, match="4x6 grid of 6 digits"):
            call(skyscrapers)
    assert render(puzzle).count('class="given"') == sum(1 for d in puzzle.cells if d)  # drawn
    from shudu.formats.convert import write_document
    from shudu.formats.document import Document

    with pytest.raises(ParseError, match="cannot say a 4x6 grid"):
        write_document(Document(puzzle), "sdk")
    assert shudu.solve(puzzle).status in ("unique", "multiple")


def test_the_json_form_and_the_constraint_string_carry_the_shape() -> None:
    puzzle = parse_puzzle(".Shape~3x4~0-4.~R1C1_0~R2C2_4.Cage~5~R3C3~R3C4")
    fields = to_json(puzzle)
    assert fields["shape"] == "3x4" and fields["size"] == 5
    assert parse_json(json.dumps(fields)) == puzzle
    assert parse_iss(format_iss(puzzle)) == puzzle
    assert format_iss(puzzle).startswith(".Shape~3x4~0-4")
    latin = parse_puzzle(".Shape~4x4.NoBoxes.~R1C1_1")
    assert latin.geometry.box is None and to_json(latin)["boxes"] is False
    assert parse_json(to_json(latin)) == latin and parse_iss(format_iss(latin)) == latin
    assert eval(repr(puzzle), {"parse_json": parse_json}) == puzzle  # the repr reads back
    try:
        shudu.count(latin, limit=2)
    except ShuduError as exc:  # pragma: no cover - it must count
        pytest.fail(str(exc))


def test_the_command_line_solves_and_counts_them() -> None:
    import io

    from shudu.cli import main

    few = ".Shape~4x6.~R1C1_1~R2C4_2"
    skyscrapers = (
        ".Shape~4x6.Skyscraper~C1~1~4.Skyscraper~C2~2~3.Skyscraper~C3~3~.Skyscraper~C4~3~2"
        ".Skyscraper~C5~2~.Skyscraper~C6~1~.Skyscraper~R4~4~"
    )
    out, err = io.StringIO(), io.StringIO()
    assert main(["solve", skyscrapers], stdout=out, stderr=err) == 0, err.getvalue()
    assert out.getvalue().split() == ["531246462315346521125463"]
    out = io.StringIO()
    assert main(["count", "--limit", "3", few], stdout=out, stderr=err) == 0, err.getvalue()
    assert "3" in out.getvalue()
    out = io.StringIO()
    assert main(["solve", "--format", "json", skyscrapers], stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["status"] == "unique"
    assert shudu.count(skyscrapers, limit=2) == 1 and shudu.count(few, limit=2) == 2
    out, err = io.StringIO(), io.StringIO()
    assert main(["rate", skyscrapers], stdout=out, stderr=err) != 0
    assert "square grids" in err.getvalue() and "Traceback" not in err.getvalue()


def test_the_web_app_solves_them_and_refuses_the_player_board_by_name(db: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from shudu.web.app import create_app

    skyscrapers = (
        ".Shape~4x6.Skyscraper~C1~1~4.Skyscraper~C2~2~3.Skyscraper~C3~3~.Skyscraper~C4~3~2"
        ".Skyscraper~C5~2~.Skyscraper~C6~1~.Skyscraper~R4~4~"
    )
    client = TestClient(create_app(db))
    solved = client.post("/api/solve", json={"puzzle": skyscrapers})
    assert solved.status_code == 200 and solved.json()["status"] == "unique"
    assert client.post("/api/parse", json={"puzzle": skyscrapers}).json()["puzzle"]["json"]["shape"] == "4x6"
    for route in ("/api/candidates", "/api/hint", "/api/games", "/api/rate"):
        answer = client.post(route, json={"puzzle": skyscrapers})
        assert answer.status_code == 422 and answer.json()["kind"] == "ShapeError", route
