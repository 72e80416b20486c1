"""The setter's workshop against brute force: true candidates, make unique, redundancy.

Random puzzles of every kind the workshop takes (4x4, 6x6 and 9x9, the region variants, killer
cages) are cut from a solution; the answers are checked against every solution listed by an
independent solver (plain backtracking, or the constraint engine with each grid checked
against the rules' reference checks).
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shudu
from shudu.cli import main
from shudu.errors import OptionError, SearchTimeout
from shudu.puzzle import Puzzle
from shudu.rules import Rule, check_grid
from shudu.solvers.constraints import shape_of
from shudu.variants import get as get_variant
from shudu.workshop.distinguish import Table, Units

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
PROPERTY = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: (size, variant) of the region puzzles drawn.
SHAPES = [
    (4, None),
    (6, None),
    (9, None),
    (4, "x"),
    (6, "x"),
    (9, "x"),
    (9, "windoku"),
    (9, "pyramid"),
    (9, "anti-knight"),
    (9, "anti-king"),
    (9, "x+anti-king"),
    (6, "anti-knight"),
]
#: The most solutions a drawn puzzle may have (up to 10^4 in the slow tier).
MOST_SOLUTIONS = 2_000


def _grid(size: int, variant: str | None, rng: random.Random) -> tuple[int, ...]:
    """A random full grid: the first solution of an empty puzzle, its digits relabelled."""
    empty = Puzzle((0,) * (size * size), variant=variant)
    first = next(shudu.solutions(empty))
    labels = list(range(1, size + 1))
    rng.shuffle(labels)
    return tuple(labels[d - 1] for d in first.cells)


def _cut(grid: tuple[int, ...], keep: int, rng: random.Random) -> tuple[int, ...]:
    cells = rng.sample(range(len(grid)), keep)
    return tuple(grid[c] if c in cells else 0 for c in range(len(grid)))


def _puzzle(seed: int, size: int, variant: str | None) -> Puzzle | None:
    """A puzzle of the shape with between 1 and MOST_SOLUTIONS solutions, or None."""
    rng = random.Random(seed)
    grid = _grid(size, variant, rng)
    low = {4: 3, 6: 8, 9: 22}[size]
    puzzle = Puzzle(_cut(grid, rng.randint(low, low + size), rng), variant=variant)
    if shudu.count(puzzle, MOST_SOLUTIONS + 1) > MOST_SOLUTIONS:
        return None
    return puzzle


def _killer(seed: int, size: int) -> Puzzle:
    """A killer puzzle: cages of 2-3 cells next to each other, totals from a random grid."""
    rng = random.Random(seed)
    grid = _grid(size, None, rng)
    free = set(range(size * size))
    cages = []
    while free and len(cages) < size:
        start = rng.choice(sorted(free))
        cage = [start]
        free.discard(start)
        for _ in range(rng.randint(1, 2)):
            r, c = divmod(cage[-1], size)
            steps = [(r + dr) * size + c + dc for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
            digits = {grid[x] for x in cage}
            near = [
                x
                for x in steps
                if 0 <= x < size * size and x in free and abs(x % size - c) <= 1 and grid[x] not in digits
            ]
            if not near:
                break
            cage.append(rng.choice(near))
            free.discard(cage[-1])
        if len(cage) > 1:
            cages.append(Rule("cage", tuple(cage), (sum(grid[x] for x in cage),)))
    variant = get_variant("standard", size).with_rules(cages, size)
    return Puzzle(_cut(grid, rng.randint(0, size // 2), rng), variant=variant)


def all_solutions(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """Every solution, by a solver other than the one the workshop runs (plain backtracking or
    dancing links; the constraint engine, checked against the rules' reference checks)."""
    if puzzle.variant.rules:
        shape = shape_of(puzzle.geometry)
        found = list(shudu.solutions(puzzle, algorithm="constraints"))
        assert all(s.is_solution_of(puzzle) and check_grid(s.cells, shape) is None for s in found)
        return [s.cells for s in found]
    algorithm = "backtrack" if puzzle.size <= 6 else "dlx"  # plain backtracking is slow on 9x9
    return [s.cells for s in shudu.solutions(puzzle, algorithm=algorithm)]


def union(solutions: list[tuple[int, ...]], ncells: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted({s[c] for s in solutions})) for c in range(ncells))


def check_candidates(puzzle: Puzzle, **options: int) -> None:
    solutions = all_solutions(puzzle)
    found = shudu.true_candidates(puzzle, **options)
    assert found.candidates == union(solutions, puzzle.geometry.ncells)
    assert found.status == ("none", "unique", "multiple")[min(len(solutions), 2)]
    limit = options.get("count_limit", 1000)
    assert found.solutions == (len(solutions) if len(solutions) <= limit else None)
    assert not any(found.undecided)


# --- true candidates -----------------------------------------------------------------------------


@PROPERTY
@given(seed=st.integers(0, 10**9), shape=st.sampled_from(SHAPES), limit=st.sampled_from([1, 5, 1000]))
def test_true_candidates_are_the_union_of_every_solution(
    seed: int, shape: tuple[int, str | None], limit: int
) -> None:
    puzzle = _puzzle(seed, *shape)
    if puzzle is not None:
        check_candidates(puzzle, count_limit=limit)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_true_candidates_of_9x9_puzzles_with_up_to_ten_thousand_solutions(seed: int) -> None:
    rng = random.Random(seed)
    grid = _grid(9, None, rng)
    for keep in range(30, 17, -1):
        puzzle = Puzzle(_cut(grid, keep, rng), variant=None)
        count = shudu.count(puzzle, 10_001)
        if 1_000 < count <= 10_000:
            check_candidates(puzzle)
            return
    pytest.fail("no cut of the grid has 1,001-10,000 solutions")


@PROPERTY
@given(seed=st.integers(0, 10**9), size=st.sampled_from([4, 6]), limit=st.sampled_from([1, 1000]))
def test_true_candidates_of_killer_puzzles(seed: int, size: int, limit: int) -> None:
    puzzle = _killer(seed, size)
    if shudu.count(puzzle, MOST_SOLUTIONS + 1) <= MOST_SOLUTIONS:
        check_candidates(puzzle, count_limit=limit)


def test_true_candidates_of_a_jigsaw_and_of_a_puzzle_without_solution() -> None:
    # a 6x6 jigsaw: six regions of six cells, none a box
    layout = "111222113322133324553444554664556666"
    jigsaw = get_variant("jigsaw", 6, layout=layout)
    rng = random.Random(3)
    grid = _grid(6, jigsaw, rng)  # type: ignore[arg-type]
    for keep in (6, 9, 12):
        check_candidates(Puzzle(_cut(grid, keep, rng), variant=jigsaw))
    none = shudu.true_candidates("...........413.2")
    assert none.status == "none" and none.solutions == 0
    assert all(not digits for c, digits in enumerate(none.candidates) if not none.puzzle.cells[c])


def test_true_candidates_tested_one_by_one_agree_with_the_listing() -> None:
    """count_limit=1 sends every candidate to its own test; the answer must not change."""
    puzzle = shudu.parse_puzzle(".....3.6.2....3...2........6.1.1....")  # 6x6, several solutions
    assert shudu.true_candidates(puzzle, count_limit=1).candidates == (
        shudu.true_candidates(puzzle).candidates
    )


# --- make unique ---------------------------------------------------------------------------------


def agreeing(solutions: list[tuple[int, ...]], reference: tuple[int, ...], cells: tuple[int, ...]) -> int:
    return sum(all(s[c] == reference[c] for c in cells) for s in solutions)


def check_made_unique(puzzle: Puzzle, **options: object) -> None:
    solutions = all_solutions(puzzle)
    made = shudu.make_unique(puzzle, **options)  # type: ignore[arg-type]
    if not solutions:
        assert made.status == "none" and made.result is None
        return
    if made.status == "timeout":
        assert made.result is None or len(all_solutions(made.result)) == 1
        assert not made.proven_minimal
        return
    assert made.status == "unique"
    assert made.result is not None
    assert len(all_solutions(made.result)) == 1
    for c, d in made.added:
        assert puzzle.cells[c] == 0 and made.result.cells[c] == d
    limit = options.get("solution_limit", 2000)
    assert made.solutions == (len(solutions) if len(solutions) <= limit else None)  # type: ignore[operator]
    if len(solutions) == 1:
        assert made.added == ()
    if not made.proven_minimal or not made.added or puzzle.size > 6 or len(solutions) > 300:
        return  # the brute force below is for small cases
    # no fewer givens do: no set of fewer empty cells leaves a solution alone
    fewer = len(made.added) - 1
    if options.get("symmetric"):
        return  # orbits: checked by the subsets of the added ones below
    empty = [c for c, v in enumerate(puzzle.cells) if not v]
    varying = tuple(c for c in empty if len({s[c] for s in solutions}) > 1)
    for cells in itertools.combinations(varying, fewer):
        assert all(agreeing(solutions, s, cells) > 1 for s in solutions), cells


@PROPERTY
@given(
    seed=st.integers(0, 10**9), shape=st.sampled_from([(4, None), (4, "x"), (6, None), (6, "anti-knight")])
)
def test_make_unique_gives_the_fewest_givens_on_small_puzzles(
    seed: int, shape: tuple[int, str | None]
) -> None:
    puzzle = _puzzle(seed, *shape)
    if puzzle is not None and shudu.count(puzzle, 301) <= 300:
        check_made_unique(puzzle)


@pytest.mark.slow
@PROPERTY
@given(seed=st.integers(0, 10**9), shape=st.sampled_from(SHAPES))
def test_make_unique_answers_are_unique(seed: int, shape: tuple[int, str | None]) -> None:
    puzzle = _puzzle(seed, *shape)
    if puzzle is not None:
        check_made_unique(puzzle, timeout=5)
        check_made_unique(puzzle, solution_limit=3, timeout=5)  # the lazy search


@PROPERTY
@given(seed=st.integers(0, 10**9), size=st.sampled_from([4, 6]))
def test_make_unique_on_killer_puzzles(seed: int, size: int) -> None:
    puzzle = _killer(seed, size)
    if shudu.count(puzzle, 301) <= 300:
        check_made_unique(puzzle)


@PROPERTY
@given(seed=st.integers(0, 10**9), shape=st.sampled_from([(4, None), (6, None), (9, None)]))
def test_make_unique_with_symmetry_adds_whole_orbits(seed: int, shape: tuple[int, str | None]) -> None:
    puzzle = _puzzle(seed, *shape)
    if puzzle is None:
        return
    made = shudu.make_unique(puzzle, symmetric=True, timeout=5)
    if made.status == "timeout" and made.result is None:
        return
    assert made.result is not None
    assert len(all_solutions(made.result)) == 1
    n = puzzle.size
    added = {c for c, _ in made.added}
    for c in added:
        mirror = n * n - 1 - c
        assert mirror in added or puzzle.cells[mirror], "a half turn maps each added given to a given"
    if made.proven_minimal:
        # no set of whole orbits drawn from those added is lighter and still unique
        orbits = sorted({tuple(sorted({c, n * n - 1 - c} & added)) for c in added})
        for r in range(len(orbits)):
            for part in itertools.combinations(orbits, r):
                cells = list(puzzle.cells)
                for orbit in part:
                    for c in orbit:
                        cells[c] = made.result.cells[c]
                assert shudu.count(Puzzle(cells, geometry=puzzle.geometry), 2) == 2


def test_make_unique_max_added() -> None:
    puzzle = "1...........2..."
    made = shudu.make_unique(puzzle, max_added=1)
    assert made.status == "multiple" and made.result is None and made.proven_minimal
    assert shudu.make_unique(puzzle, max_added=2).status == "unique"
    with pytest.raises(OptionError):
        shudu.make_unique(puzzle, max_added=-1)
    with pytest.raises(OptionError):
        shudu.make_unique(puzzle, symmetric="sideways")


# --- redundancy ----------------------------------------------------------------------------------


def check_redundancy(puzzle: Puzzle) -> None:
    found = shudu.redundant(puzzle, timeout=60)
    count = shudu.count(puzzle, 2)
    if count != 1:
        assert found.status == ("none", "unique", "multiple")[count] and not found.givens
        assert not shudu.is_minimal(puzzle)
        return
    assert found.status == "unique"
    rules = puzzle.variant.rules

    def unique_without(givens: tuple[int, ...], dropped: tuple[int, ...]) -> bool:
        cells = tuple(0 if c in givens else v for c, v in enumerate(puzzle.cells))
        kept = tuple(r for i, r in enumerate(rules) if i not in dropped)
        variant = (
            get_variant("standard", puzzle.size).with_rules(kept, puzzle.size) if rules else puzzle.variant
        )
        algorithm = "constraints" if kept else "dlx"
        return shudu.count(Puzzle(cells, variant=variant), 2, algorithm=algorithm) == 1

    for c, v in enumerate(puzzle.cells):
        if v:
            assert (c in found.givens) == unique_without((c,), ()), c
    for i in range(len(rules)):
        assert (i in found.rules) == unique_without((), (i,)), i
    assert unique_without(found.together_givens, found.together_rules)
    assert found.is_minimal == shudu.is_minimal(puzzle) == (not found.givens and not found.rules)
    if found.proven_largest and len(found.givens) + len(found.rules) <= 10:
        size = len(found.together_givens) + len(found.together_rules)
        elements = [(c, None) for c in found.givens] + [(None, i) for i in found.rules]
        for more in itertools.combinations(elements, size + 1):
            givens = tuple(c for c, _ in more if c is not None)
            dropped = tuple(i for _, i in more if i is not None)
            assert not unique_without(givens, dropped)


@pytest.mark.c_speed  # a 9x9 draw can take minutes on the pure-Python core
@PROPERTY
@given(seed=st.integers(0, 10**9), shape=st.sampled_from(SHAPES))
def test_redundant_givens_can_go(seed: int, shape: tuple[int, str | None]) -> None:
    check_redundant_givens(seed, shape)


@PROPERTY
@given(seed=st.integers(0, 10**9), shape=st.sampled_from([s for s in SHAPES if s[0] < 9]))
def test_redundant_givens_of_small_grids_can_go(seed: int, shape: tuple[int, str | None]) -> None:
    """The property above on 4x4 and 6x6 grids alone, for the run with the pure-Python core."""
    check_redundant_givens(seed, shape)


def check_redundant_givens(seed: int, shape: tuple[int, str | None]) -> None:
    rng = random.Random(seed)
    size, variant = shape
    grid = _grid(size, variant, rng)
    keep = {4: rng.randint(4, 9), 6: rng.randint(10, 20), 9: rng.randint(25, 40)}[size]
    check_redundancy(Puzzle(_cut(grid, keep, rng), variant=variant))


@PROPERTY
@given(seed=st.integers(0, 10**9), size=st.sampled_from([4, 6]))
def test_redundant_cages_and_givens_of_killer_puzzles(seed: int, size: int) -> None:
    check_redundancy(_killer(seed, size))


def test_a_17_clue_puzzle_is_minimal() -> None:
    puzzle = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    assert not shudu.redundant(puzzle).givens or shudu.is_minimal(puzzle) is False
    path = DATA / "royle_17clue.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    for line in path.read_text().split()[:20]:
        assert shudu.is_minimal(line)


def test_the_growing_table_reads_as_the_whole_list() -> None:
    """The lazy search's table, fed a list of solutions a part at a time, gives the units the
    whole list gives from scratch, and the same solutions that agree on each."""
    rng = random.Random(5)
    puzzle = Puzzle(_cut(_grid(6, None, rng), 9, rng))
    solutions = [s.cells for s in shudu.solutions(puzzle)][:300]
    empty = [c for c, v in enumerate(puzzle.cells) if not v]
    for units in ([(c,) for c in empty], [tuple(empty[i : i + 2]) for i in range(0, len(empty), 2)]):
        table = Table(units)
        seen = 0
        while seen < len(solutions):
            seen = min(len(solutions), seen + rng.randint(1, 60))
            table.extend(solutions[:seen])
            got, whole = table.units(), Units.of(solutions[:seen], units)
            assert (got.cells, got.weights, got.parts) == (whole.cells, whole.weights, whole.parts)
            for j, unit in enumerate(got.cells):
                for i in range(seen):
                    agree = [k for k in range(seen) if all(solutions[k][c] == solutions[i][c] for c in unit)]
                    assert got.part(j, i) == sum(1 << k for k in agree)


@pytest.mark.c_speed  # the smaller make-unique tests above run on both cores
def test_make_unique_with_very_many_solutions() -> None:
    """17-clue puzzles less five givens (more than 2,000 solutions, 10^5 and more as a rule):
    the lazy search answers, unique; with a small budget it says timeout, and a set it gives
    then is unique too."""
    path = DATA / "royle_17clue.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    rng = random.Random(17)
    lines = path.read_text().split()
    for line in rng.sample(lines, 2):
        givens = [i for i, ch in enumerate(line) if ch != "."]
        gone = set(rng.sample(givens, 5))
        puzzle = "".join("." if i in gone else ch for i, ch in enumerate(line))
        made = shudu.make_unique(puzzle, timeout=120)
        assert made.status == "unique" and made.solutions is None and not made.proven_minimal
        assert made.result is not None and shudu.count(made.result, 2) == 1
        assert all(puzzle[c] == "." for c, _ in made.added)
        assert len(made.added) >= 5  # no 9x9 puzzle of 16 givens has one solution
        for nodes in (2_000, 20_000):
            part = shudu.make_unique(puzzle, node_limit=nodes)
            assert part.status in ("timeout", "unique")
            if part.result is not None:
                assert shudu.count(part.result, 2) == 1


# --- budgets -------------------------------------------------------------------------------------


def test_every_call_says_timeout_when_the_budget_runs_out() -> None:
    many = "." * 81
    assert shudu.true_candidates(many, node_limit=10).status == "timeout"
    assert shudu.true_candidates(many, timeout=1e-9).status == "timeout"
    assert shudu.make_unique(many, node_limit=10).status == "timeout"
    assert shudu.make_unique(many, timeout=1e-9).status == "timeout"
    puzzle = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    assert shudu.redundant(puzzle, node_limit=1).status == "timeout"
    assert shudu.redundant(puzzle, timeout=1e-9).status == "timeout"
    with pytest.raises(SearchTimeout):
        shudu.is_minimal(puzzle, node_limit=1)
    with pytest.raises(OptionError):
        shudu.true_candidates(many, node_limit=0)
    with pytest.raises(OptionError):
        shudu.redundant(many, timeout=-1)


def test_timeout_answers_hold_what_they_say() -> None:
    puzzle = shudu.parse_puzzle(".....3.6.2....3...2........6.1.1....")
    whole = shudu.true_candidates(puzzle)
    for nodes in (1, 5, 20, 60):
        part = shudu.true_candidates(puzzle, node_limit=nodes, count_limit=1)
        if part.status == "timeout":
            for c in range(36):
                assert set(part.candidates[c]) <= set(whole.candidates[c])
                assert set(whole.candidates[c]) <= set(part.candidates[c]) | set(part.undecided[c])
    made = shudu.make_unique("." * 81, timeout=0.5)
    if made.result is not None:
        assert shudu.count(made.result, 2) == 1


# --- the command line ----------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    import io

    out, err = io.StringIO(), io.StringIO()
    status = main(list(args), stdout=out, stderr=err)
    return int(status), out.getvalue(), err.getvalue()


def test_the_commands() -> None:
    status, out, _ = run("candidates", "1...........2...")
    assert status == 0 and out.startswith("# line 1: 24 solutions")
    status, out, _ = run("candidates", "1...........2...", "--format", "json")
    assert '"solutions": 24' in out
    status, out, _ = run("make-unique", "1...........2...")
    assert status == 0 and "2 added (minimal)" in out
    status, out, _ = run("redundant", "1234341221434321")
    assert status == 0 and "together (largest, 12)" in out
    status, out, err = run("redundant", "1234", "--format", "json")
    assert status == 2 and '"status": "invalid"' in out and "line 1" in err
    status, out, _ = run(
        "make-unique", "--variant", "x", "................", "--format", "json", "--timeout", "5"
    )
    assert status == 0 and '"status": "unique"' in out
