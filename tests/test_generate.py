"""The generator: unique puzzles (checked by another solver), levels that match the rater,
reproducible seeds, symmetry, minimality, fast failures and timeouts."""

from __future__ import annotations

import io
import json

import pytest

import shudu
from shudu.cli import main
from shudu.errors import GeneratorError
from shudu.formats import parse_json, to_json
from shudu.generator import SYMMETRIES, GeneratorTimeout, generate, generate_many
from shudu.generator.grids import grow_layout

from conftest import C_CORE


def independent_count(puzzle: shudu.Puzzle) -> int:
    """Solutions up to two, by dancing links: not the fast core the generator uses."""
    return shudu.count(puzzle, 2, algorithm="dlx")


def assert_sound(result: shudu.generator.Generated) -> None:
    puzzle, solution = result.puzzle, result.solution
    assert independent_count(puzzle) == 1
    assert solution.is_solution_of(puzzle)
    assert result.clues == puzzle.clues


# --- uniqueness, every size and variant ---------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_unrated_9x9_is_unique_and_minimal(seed: int) -> None:
    result = generate(seed=seed)
    assert_sound(result)
    assert result.level is None
    assert_minimal(result.puzzle)


@pytest.mark.parametrize(
    ("options", "shape"),
    [
        ({"size": 4}, (4, "standard")),
        ({"size": 6}, (6, "standard")),
        ({"size": 6, "box": "3x2"}, (6, "standard")),
        ({"variant": "x"}, (9, "x")),
        ({"variant": "windoku"}, (9, "windoku")),
        ({"variant": "pyramid"}, (9, "pyramid")),
        ({"variant": "jigsaw"}, (9, "jigsaw")),
        ({"size": 6, "variant": "jigsaw"}, (6, "jigsaw")),
        ({"variant": "x+anti-king"}, (9, "x+anti-king")),
        ({"size": 16}, (16, "standard")),
    ],
)
def test_every_size_and_variant(options: dict[str, object], shape: tuple[int, str]) -> None:
    result = generate(seed=11, **options)  # type: ignore[arg-type]
    assert (result.puzzle.size, result.puzzle.variant.name) == shape
    if "box" in options:
        assert result.puzzle.box == (3, 2)
    assert_sound(result)


def test_16x16_windoku() -> None:
    """16x16 windoku, which the houses its windows imply make practical. Dancing links would
    take minutes to count its solutions, so the count is the C core's on the geometry's own
    houses, without the implied ones the generator searched with."""
    if C_CORE is None:
        pytest.skip("the C core does not run: the count would take minutes")
    core = C_CORE
    result = generate(size=16, variant="windoku", seed=11)
    puzzle = result.puzzle
    assert (puzzle.size, puzzle.variant.name) == (16, "windoku")
    search = core.Shape(16, puzzle.geometry.house_cells, None).search(bytes(puzzle.givens))
    solutions, _, code = search.run(2, 2, 10_000_000, -1.0)
    assert len(solutions) == 1 and code == 1  # one solution, and the search ran to its end
    assert result.solution.is_solution_of(puzzle)
    assert tuple(solutions[0]) == tuple(result.solution.cells)


def test_given_jigsaw_layout_is_kept() -> None:
    layout = "".join(str(1 + (r // 2) * 2 + c // 3) for r in range(6) for c in range(6))
    result = generate(size=6, variant="jigsaw", layout=layout, seed=3)
    assert result.puzzle.variant.layout == tuple(int(ch) - 1 for ch in layout)
    assert_sound(result)


def assert_connected_regions(layout: tuple[int, ...] | list[int], size: int) -> None:
    for region in range(size):
        cells = {c for c, label in enumerate(layout) if label == region}
        assert len(cells) == size
        start = next(iter(cells))
        seen, stack = {start}, [start]
        while stack:
            r, c = divmod(stack.pop(), size)
            for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                cell = y * size + x
                if 0 <= y < size and 0 <= x < size and cell in cells and cell not in seen:
                    seen.add(cell)
                    stack.append(cell)
        assert seen == cells, f"region {region + 1} of a {size}x{size} layout is not connected"


@pytest.mark.parametrize("size", [6, 9, 16])
def test_random_jigsaw_layouts_are_connected(size: int) -> None:
    import random

    rng = random.Random(size)
    for _ in range(5):
        assert_connected_regions(grow_layout(size, rng), size)


@pytest.mark.parametrize(("size", "variant"), [(20, "standard"), (25, "standard"), (25, "x")])
def test_large_jigsaw_layouts_grow_around_a_grid_that_stays_valid(size: int, variant: str) -> None:
    import random

    from shudu.generator.grids import grow_around, random_grid, start_layout
    from shudu.generator.uniqueness import Checker, text_cells
    from shudu.geometry import Geometry
    from shudu.variants import get as get_variant
    from shudu.variants import resolve_variant

    def geometry_of(layout: tuple[int, ...]) -> Geometry:
        jigsaw = get_variant("jigsaw", size, layout=layout)
        extra = resolve_variant(variant, size)
        return Geometry(size, None, jigsaw if extra.is_standard else extra.combine(jigsaw))

    start = geometry_of(start_layout(size))
    moved = 0
    for seed in range(3):
        rng = random.Random(seed)
        grid = random_grid(start, rng, Checker(start, 40 * start.ncells))
        layout = grow_around(grid, size, rng)
        assert_connected_regions(layout, size)
        moved += layout != start_layout(size)
        cells = text_cells(grid)
        geometry = geometry_of(layout)
        for house in geometry.houses:  # regions, rows, columns and the variant's own houses
            assert sorted(cells[c] for c in house.cells) == list(range(1, size + 1)), house.name
    assert moved  # the walk left the boxes


def test_a_25x25_random_jigsaw_is_generated_unique() -> None:
    from shudu.generator.grids import start_layout

    result = generate(size=25, variant="jigsaw", seed=2, timeout=120)
    layout = result.puzzle.variant.layout
    assert layout is not None
    assert_connected_regions(layout, 25)
    boxes = start_layout(25)
    # not the boxes relabelled: some pair of cells shares a region in one and not the other
    assert any((layout[a] == layout[b]) != (boxes[a] == boxes[b]) for a in range(625) for b in range(a))
    assert shudu.count(result.puzzle, 2) == 1
    assert result.solution.is_solution_of(result.puzzle)


# --- difficulty ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "count"), [("easy", 3), ("medium", 3), ("hard", 2), ("unfair", 1), ("extreme", 1)]
)
def test_level_is_the_raters_level(level: str, count: int) -> None:
    for result in generate_many(count, level=level, seed=21):
        assert_sound(result)
        rating = shudu.rate(result.puzzle)
        assert result.level == rating.level == level
        assert result.se == rating.se
        assert result.hardest == rating.hardest


def test_level_on_6x6_and_a_variant() -> None:
    for options in ({"size": 6, "level": "medium"}, {"variant": "x", "level": "hard"}):
        result = generate(seed=5, **options)  # type: ignore[arg-type]
        assert_sound(result)
        assert shudu.rate(result.puzzle).level == options["level"] == result.level


def test_se_range() -> None:
    result = generate(se="3.0-4.5", seed=8)
    assert_sound(result)
    assert 3.0 <= shudu.rate(result.puzzle).se <= 4.5


def test_required_technique_is_on_the_path() -> None:
    result = generate(technique="X-Wing", seed=4)
    assert_sound(result)
    path = shudu.rate(result.puzzle, steps=True).steps
    assert any("X-Wing" in (str(step.technique), step.name) for step in path)


def test_json_output_carries_the_rating() -> None:
    made = generate(level="medium", seed=2)
    record = made.to_json()
    # the puzzle's own JSON form (one writer: shudu.formats.to_json), then the generator's fields
    assert list(record) == ["size", "box", "givens", "solution", "level", "se", "hardest", "clues", "seed"]
    assert {k: record[k] for k in ("size", "box", "givens")} == to_json(made.puzzle)
    assert record["level"] == "medium"
    assert parse_json(json.dumps(record)) == made.puzzle
    assert parse_json(record).clues == record["clues"]


@pytest.mark.parametrize("options", [{"size": 6, "variant": "x"}, {"size": 6, "variant": "jigsaw"}])
def test_json_record_reads_back_with_its_variant(options: dict[str, object]) -> None:
    made = generate(seed=3, **options)  # type: ignore[arg-type]
    back = parse_json(json.loads(json.dumps(made.to_json())))
    assert back == made.puzzle and back.geometry == made.puzzle.geometry


def test_rate_option_rates_an_unrated_request() -> None:
    result = generate(seed=1, rate=True)
    assert result.level == shudu.rate(result.puzzle).level


# --- seeds, symmetry, clues, minimality ---------------------------------------------------------


def test_a_seed_gives_the_same_puzzles() -> None:
    first = [r.puzzle for r in generate_many(3, seed=99, level="easy")]
    again = [r.puzzle for r in generate_many(3, seed=99, level="easy")]
    assert first == again
    assert len(set(first)) == 3
    assert generate(variant="jigsaw", seed=5).puzzle == generate(variant="jigsaw", seed=5).puzzle


def test_each_result_seed_remakes_that_puzzle() -> None:
    results = list(generate_many(3, seed=7, symmetry="rot180"))
    for result in results:
        assert generate(seed=result.seed, symmetry="rot180").puzzle == result.puzzle


def transforms(name: str, n: int) -> list[tuple[int, int] | None]:
    """Independent statement of each symmetry: the maps that must keep the givens."""

    def rot90(r: int, c: int) -> tuple[int, int]:
        return c, n - 1 - r

    def rot180(r: int, c: int) -> tuple[int, int]:
        return n - 1 - r, n - 1 - c

    def mirror(r: int, c: int) -> tuple[int, int]:
        return r, n - 1 - c

    def flip(r: int, c: int) -> tuple[int, int]:
        return n - 1 - r, c

    def diagonal(r: int, c: int) -> tuple[int, int]:
        return c, r

    def antidiagonal(r: int, c: int) -> tuple[int, int]:
        return n - 1 - c, n - 1 - r

    return {
        "none": [],
        "rot180": [rot180],
        "rot90": [rot90, rot180],
        "mirror": [mirror],
        "flip": [flip],
        "diagonal": [diagonal],
        "antidiagonal": [antidiagonal],
        "biaxial": [mirror, flip],
        "bidiagonal": [diagonal, antidiagonal],
        "dihedral": [rot90, mirror, diagonal],
    }[name]


#: rot90 from seed 13 takes minutes on the pure-Python core (the other symmetries check it there).
@pytest.mark.parametrize(
    "symmetry",
    [
        pytest.param(name, marks=pytest.mark.c_speed) if name == "rot90" else name
        for name in sorted(SYMMETRIES)
    ],
)
def test_symmetric_output_is_symmetric(symmetry: str) -> None:
    result = generate(symmetry=symmetry, seed=13)
    assert_sound(result)
    n, cells = 9, result.puzzle.cells
    for move in transforms(symmetry, n):
        for cell in range(n * n):
            r, c = divmod(cell, n)
            y, x = move(r, c)
            assert bool(cells[cell]) == bool(cells[y * n + x]), f"{symmetry}: r{r + 1}c{c + 1}"


def assert_minimal(puzzle: shudu.Puzzle) -> None:
    for cell, value in enumerate(puzzle.cells):
        if value:
            fewer = list(puzzle.cells)
            fewer[cell] = 0
            trial = shudu.Puzzle(fewer, geometry=puzzle.geometry)
            assert independent_count(trial) == 2, f"{puzzle.geometry.cell_name(cell)} could go"


@pytest.mark.parametrize(
    "options",
    [
        {"symmetry": "rot180"},
        # a graded minimal puzzle: minutes on the pure-Python core
        pytest.param({"symmetry": "mirror", "level": "medium"}, marks=pytest.mark.c_speed),
    ],
)
def test_minimal_output_is_minimal(options: dict[str, str]) -> None:
    result = generate(minimal=True, seed=17, **options)  # type: ignore[arg-type]
    assert_sound(result)
    assert_minimal(result.puzzle)


def test_clue_counts() -> None:
    assert generate(clues=32, seed=1).clues == 32
    for result in generate_many(3, clues="24-26", seed=2):
        assert 24 <= result.clues <= 26
        assert_sound(result)
    easy = generate(clues="35-40", level="easy", seed=3)
    assert 35 <= easy.clues <= 40
    assert shudu.rate(easy.puzzle).level == "easy"


# --- impossible requests and timeouts -----------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"clues": 12}, "fewer than 17"),
        ({"size": 16, "clues": 14}, "at least 15"),
        ({"size": 4, "level": "extreme"}, "4x4"),
        ({"size": 4, "technique": "X-Wing"}, "4x4"),
        ({"level": "easy", "technique": "X-Wing"}, "never needs"),
        ({"level": "easy", "se": "5-6"}, "never is easy"),
        ({"se": "11.5-12"}, "outside"),
        ({"clues": "30-20"}, "empty"),
        ({"clues": 82}, "81 cells"),
        ({"symmetry": "spiral"}, "unknown symmetry"),
        ({"level": "fiendish"}, "unknown level"),
        ({"technique": "Teleportation"}, "unknown technique"),
        ({"size": 4, "minimal": True, "clues": 8}, "4 to 6"),
    ],
)
def test_impossible_requests_fail_at_once(options: dict[str, object], message: str) -> None:
    with pytest.raises(GeneratorError, match=message):
        generate(timeout=None, **options)  # type: ignore[arg-type]


def test_timeout_reports_nothing_found() -> None:
    # 17 givens exist but are too rare to meet by chance: the search must stop on time
    with pytest.raises(
        GeneratorTimeout, match=r"no hard 9x9 standard puzzle with 17 givens found in 0\.3 s"
    ) as caught:
        generate(clues=17, level="hard", timeout=0.3, seed=1)
    assert caught.value.found == ()
    assert isinstance(caught.value, shudu.ShuduError)


def test_timeout_keeps_what_was_found() -> None:
    # long enough for a few puzzles, on the pure-Python core too
    stream = generate_many(None, seed=4, timeout=0.5 if C_CORE is not None else 5.0)
    made = []
    with pytest.raises(GeneratorTimeout) as caught:
        for result in stream:
            made.append(result)
    assert made and list(caught.value.found) == made
    assert_sound(made[-1])


# --- the command line and the web's call --------------------------------------------------------


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_cli_streams_json_lines() -> None:
    status, out, err = run_cli(
        "generate", "--count", "2", "--seed", "1", "--level", "easy", "--format", "json"
    )
    assert status == 0 and err == ""
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 2
    for record in records:
        puzzle = parse_json(record)
        assert record["level"] == "easy" == shudu.rate(puzzle).level
        assert shudu.count(puzzle, 2, algorithm="backtrack") == 1


def test_cli_line_output_and_seed() -> None:
    status, out, _ = run_cli("generate", "--seed", "5", "--symmetry", "rot90", "--count", "2")
    assert status == 0
    assert out.splitlines() == [r.puzzle.to_string() for r in generate_many(2, seed=5, symmetry="rot90")]


def test_cli_random_jigsaw_prints_its_layout() -> None:
    status, out, _ = run_cli("generate", "--variant", "jigsaw", "--size", "6", "--seed", "2")
    assert status == 0
    puzzle = shudu.parse_puzzle(out.strip())
    assert puzzle.variant.layout is not None
    assert independent_count(puzzle) == 1


def test_cli_impossible_request() -> None:
    status, out, err = run_cli("generate", "--clues", "12")
    assert status == 2 and out == ""
    assert "fewer than 17 givens" in err


def test_cli_timeout_reports_progress() -> None:
    status, _, err = run_cli(
        "generate", "--size", "16", "--level", "extreme", "--timeout", "0.3", "--seed", "1"
    )
    assert status == 2
    assert "found in 0.3 s" in err


@pytest.mark.c_speed  # an unseeded 9x9 draw: up to minutes on the pure-Python core
def test_web_call_shape() -> None:
    made = shudu.generate(size=9, variant="standard", level="easy", timeout=30)
    assert isinstance(made.puzzle, shudu.Puzzle)
    assert made.level == "easy"


# --- the parts that keep large and hard kinds fast ------------------------------------------------


def dug_points(size: int, variant: str, seed: int) -> list[shudu.Puzzle]:
    """Puzzles along one random dig past its no-guess point: from easy to the hardest."""
    import random

    from shudu.generator.dig import dig
    from shudu.generator.grids import random_grid
    from shudu.generator.symmetry import orbits
    from shudu.generator.uniqueness import Checker, text_cells
    from shudu.geometry import Geometry
    from shudu.variants import resolve_variant

    geometry = Geometry(size, None, resolve_variant(variant, size))
    rng = random.Random(seed)
    solution = random_grid(geometry, rng, Checker(geometry, 40 * geometry.ncells))
    path = dig(solution, orbits("none", size), rng, Checker(geometry, 400 * geometry.ncells), calm=True)
    assert path.calm is not None
    points = range(max(0, path.calm - 1), len(path.removed) + 1)
    return [shudu.Puzzle.trusted(text_cells(path.puzzle(k)), geometry) for k in points]


@pytest.mark.parametrize(
    ("size", "variant", "seed"),
    # the anti-knight grid takes minutes to rate on the pure-Python core
    [(9, "standard", 3), pytest.param(9, "anti-knight", 4, marks=pytest.mark.c_speed), (6, "x", 5)],
)
def test_a_grade_is_the_raters_level_or_stops_only_past_its_ceiling(
    size: int, variant: str, seed: int
) -> None:
    from shudu.generator.grading import grade
    from shudu.notation import LEVELS

    for puzzle in dug_points(size, variant, seed):
        level = shudu.rate(puzzle).level
        assert grade(puzzle, None, None).level == level
        for ceiling in LEVELS:
            found = grade(puzzle, ceiling, None)
            if found.complete:
                assert found.level == level
            else:  # stopped early: only when the puzzle is past the ceiling, and its level is a lower bound
                assert LEVELS.index(ceiling) < LEVELS.index(found.level) <= LEVELS.index(level)


@pytest.mark.parametrize("variant", ["standard", "anti-king", "x"])
def test_large_grids_come_from_seeded_completions_and_are_valid(variant: str) -> None:
    import random

    from shudu.generator.grids import SEEDED_SIZE, random_grid
    from shudu.generator.uniqueness import Checker, text_cells
    from shudu.geometry import Geometry
    from shudu.variants import resolve_variant

    geometry = Geometry(25, (5, 5), resolve_variant(variant, 25))
    assert geometry.size >= SEEDED_SIZE
    grids = {
        random_grid(geometry, random.Random(seed), Checker(geometry, 40 * geometry.ncells))
        for seed in range(3)
    }
    assert len(grids) == 3
    for text in grids:
        cells = text_cells(text)
        assert 0 not in cells
        for house in geometry.houses:  # every house of the variant holds every digit once
            assert sorted(cells[c] for c in house.cells) == list(range(1, 26))
        for cell, peers in enumerate(geometry.peers):  # and the variant's other rules (anti-king)
            assert all(cells[p] != cells[cell] for p in peers)


def test_a_dig_stops_at_the_given_number_of_removals_past_its_no_guess_point() -> None:
    import random

    from shudu.generator.dig import dig
    from shudu.generator.grids import random_grid
    from shudu.generator.symmetry import orbits
    from shudu.generator.uniqueness import Checker, text_cells
    from shudu.geometry import Geometry

    geometry = Geometry(9, (3, 3))
    checker = Checker(geometry, 400 * 81)
    cut = 0
    for seed in range(6):
        solution = random_grid(geometry, random.Random(seed), checker)
        full = dig(solution, orbits("none", 9), random.Random(seed), checker, calm=True)
        short = dig(solution, orbits("none", 9), random.Random(seed), checker, calm=True, beyond=0)
        assert full.calm is not None and short.calm == full.calm
        # the same dig, cut at the no-guess point
        assert short.removed == full.removed[: full.calm]
        cut += len(full.removed) > full.calm
        for k in range(len(short.removed) + 1):
            puzzle = shudu.Puzzle.trusted(text_cells(short.puzzle(k)), geometry)
            assert shudu.count(puzzle, 2, algorithm="dlx") == 1
    assert cut  # some dig went on past the cut


#: Eight digs (a minute on the pure-Python core) on the C core, two on both.
@pytest.mark.parametrize("digs", [pytest.param(8, marks=pytest.mark.c_speed), 2])
def test_a_dig_with_patience_stops_after_that_many_refusals_in_a_row(digs: int) -> None:
    import random

    from shudu.generator.dig import dig
    from shudu.generator.grids import random_grid
    from shudu.generator.symmetry import orbits
    from shudu.generator.uniqueness import Checker
    from shudu.geometry import Geometry
    from shudu.notation import BatchCode

    class Counting(Checker):
        """The real checker, remembering whether each check let its removal go."""

        def __init__(self, geometry: Geometry) -> None:
            super().__init__(geometry, 400 * geometry.ncells)
            self.kept: list[bool] = []

        def verdict(self, text: bytes | bytearray) -> tuple[int, int]:
            found = super().verdict(text)
            self.kept.append(found[0] == BatchCode.UNIQUE)
            return found

    geometry = Geometry(9, (3, 3))
    stopped = 0
    for seed in range(digs):
        solution = random_grid(geometry, random.Random(seed), Checker(geometry, 400 * 81))
        full = dig(solution, orbits("none", 9), random.Random(seed), Checker(geometry, 400 * 81))
        counting = Counting(geometry)
        short = dig(solution, orbits("none", 9), random.Random(seed), counting, patience=3)
        assert short.removed == full.removed[: len(short.removed)]  # the same dig, cut short
        if len(short.removed) < len(full.removed):
            stopped += 1
            assert counting.kept[-3:] == [False] * 3  # it stopped on the third refusal in a row
        tail = "".join("k" if k else "r" for k in counting.kept)
        assert "rrrr" not in tail  # and never went past a third
    assert stopped  # some dig was cut


@pytest.mark.c_speed  # minutes on the pure-Python core
@pytest.mark.parametrize(("size", "variant", "level"), [(16, "standard", "hard"), (25, "standard", "easy")])
def test_large_kinds_are_made_unique_at_the_raters_level(size: int, variant: str, level: str) -> None:
    made = generate(size=size, variant=variant, level=level, seed=1, timeout=300)
    assert made.level == level == shudu.rate(made.puzzle).level
    assert made.se == shudu.rate(made.puzzle).se
    assert shudu.count(made.puzzle, 2) == 1


def test_a_request_object_asks_what_its_keywords_ask() -> None:
    from shudu.generator import Request, check_request

    asked = Request(size=6, symmetry="rot180", level="easy")
    made = generate(asked, seed=5)
    assert made.puzzle == generate(6, symmetry="rot180", level="easy", seed=5).puzzle
    assert (
        check_request(asked)
        == check_request(6, symmetry="rot180", level="easy")
        == "easy 6x6 standard puzzle, rot180"
    )
    assert check_request(asked, level="medium").startswith("medium 6x6")  # a keyword replaces a field
    many = list(generate_many(2, asked, seed=5))
    assert many[0].puzzle == made.puzzle and len(many) == 2
    with pytest.raises(TypeError, match="size is given twice"):
        generate(6, size=6)
    with pytest.raises(TypeError, match="request must be a Request"):
        list(generate_many(1, "easy"))  # type: ignore[arg-type]
