"""Solving through the public API with every registered solver: known answers, counts, budgets."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable

import pytest

import shudu
from shudu import Puzzle, parse_puzzle, solvers
from shudu.errors import OptionError, SearchTimeout, SolverError

from conftest import KNOWN, Known

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
SOLVERS = sorted(solvers.available())


def test_known_file_covers_what_it_should() -> None:
    sizes = {len(k.text) for k in KNOWN}
    assert {16, 36, 81, 256} <= sizes
    kinds = {k.options.get("variant") for k in KNOWN} | {"jigsaw" for k in KNOWN if "layout" in k.options}
    assert {"pyramid", "x", "jigsaw"} <= kinds
    assert any(k.options.get("box") == "3x2" for k in KNOWN)
    assert {0, 1, 2} <= {k.count for k in KNOWN}
    assert INKALA in {k.text for k in KNOWN}


@pytest.mark.parametrize("known", KNOWN, ids=lambda k: k.id)
def test_known_answers_backtrack(known: Known) -> None:
    _check_known(known, "backtrack")


def _check_known(known: Known, algorithm: str) -> None:
    puzzle = known.puzzle()
    result = shudu.solve(puzzle, algorithm=algorithm)
    assert result.status == ("none", "unique", "multiple")[known.count]
    if known.count == 1:
        assert result.solution is not None
        assert result.solution.to_string() == known.solution
    if result.solution is not None:
        assert result.solution.is_solution_of(puzzle)
    assert shudu.count(puzzle, 2, algorithm=algorithm) == known.count


def test_empty_4x4_has_288_solutions() -> None:
    assert shudu.count("." * 16) == 288
    grids = list(shudu.solutions("." * 16, algorithm="backtrack"))
    assert len(set(grids)) == 288
    assert all(g.is_complete and g.is_valid for g in grids)


def test_counts_stop_at_the_limit() -> None:
    assert shudu.count("." * 16, limit=10) == 10
    assert shudu.count("." * 16, limit=1) == 1
    with pytest.raises(OptionError, match=r"^limit must be a whole number from 1 to \d+, not 0$"):
        shudu.count("." * 16, limit=0)


@pytest.mark.parametrize(
    ("call", "option"),
    [
        (lambda: shudu.count("." * 16, limit=10**30), "limit"),
        (lambda: shudu.count("." * 16, limit=2.5), "limit"),  # type: ignore[arg-type]
        (lambda: shudu.count("." * 16, node_limit=2**70), "node_limit"),
        (lambda: shudu.count("." * 16, node_limit=-5), "node_limit"),
        (lambda: shudu.solve(INKALA, node_limit=0), "node_limit"),
        (lambda: shudu.solve(INKALA, node_limit=True), "node_limit"),
        (lambda: shudu.solve(INKALA, timeout=-1), "timeout"),
        (lambda: shudu.solve(INKALA, timeout=0), "timeout"),
        (lambda: shudu.solve(INKALA, timeout=float("nan")), "timeout"),
        (lambda: shudu.solve(INKALA, timeout=float("inf")), "timeout"),
        (lambda: shudu.solve(INKALA, timeout="1"), "timeout"),  # type: ignore[arg-type]
        (lambda: shudu.solve_many([INKALA], timeout=-1), "timeout"),
        (lambda: shudu.solve_many([INKALA], limit=0), "limit"),
        (lambda: shudu.solve_many([INKALA], node_limit=2**70), "node_limit"),
        (lambda: shudu.solve_many([INKALA], threads=-1), "threads"),
    ],
)
def test_bad_numbers_are_option_errors_naming_the_option(call: Callable[[], object], option: str) -> None:
    with pytest.raises(OptionError) as caught:
        call()
    assert caught.value.option == option
    assert str(caught.value).startswith(f"{option} must be ")
    assert " from " in str(caught.value) or "greater than 0" in str(caught.value)


def test_a_small_timeout_is_a_budget_not_an_error() -> None:
    result = shudu.solve("." * 81, algorithm="backtrack", timeout=1e-9)
    assert result.status in ("timeout", "unique", "multiple")
    assert shudu.solve(INKALA, node_limit=1).status == "timeout"


def test_solutions_are_lazy() -> None:
    first_three = list(itertools.islice(shudu.solutions("." * 81), 3))
    assert len(first_three) == 3 and len(set(first_three)) == 3


def test_backtracking_order_is_reading_order_digits_ascending() -> None:
    first = next(shudu.solutions("." * 16, algorithm="backtrack"))
    assert first.to_string() == "1234341221434321"


def test_statistics_are_counted() -> None:
    result = shudu.solve(INKALA, algorithm="backtrack")
    stats = result.stats
    assert stats.nodes > stats.guesses > 0
    # a puzzle with one empty cell is settled without a guess
    solution = result.solution
    assert solution is not None
    one_gap = "." + solution.to_string()[1:]
    settled = shudu.solve(one_gap, algorithm="backtrack")
    assert settled.status == "unique"
    assert (settled.stats.nodes, settled.stats.guesses, settled.stats.settled) == (1, 0, 1)


def test_no_solution_is_an_answer() -> None:
    # consistent givens (no two alike in a house) but r1c9 can hold nothing
    puzzle = "12345678." + "........9" + "." * 63
    result = shudu.solve(puzzle)
    assert result.status == "none" and result.solution is None and not result
    assert shudu.count(puzzle) == 0


def test_budgets_give_timeout_not_a_hang() -> None:
    result = shudu.solve("." * 625, algorithm="backtrack", node_limit=5000)
    # an empty 25x25 grid has solutions, but 5000 steps cannot reach past 625 cells and back twice
    assert result.status in ("timeout", "multiple")
    with pytest.raises(SearchTimeout) as caught:
        shudu.count("." * 81, algorithm="backtrack", node_limit=10_000)
    assert caught.value.found > 0
    with pytest.raises(SearchTimeout):
        shudu.count("." * 81, algorithm="backtrack", timeout=0.05)


def test_unknown_algorithm() -> None:
    with pytest.raises(SolverError, match="unknown algorithm 'quantum'; known algorithms: auto, "):
        shudu.solve(INKALA, algorithm="quantum")


def test_registry_has_one_signature() -> None:
    for name in SOLVERS:
        solver = solvers.get(name)
        assert solver.name == name and solver.description
        assert isinstance(solver, solvers.Solver)
    assert solvers.get("auto").name in SOLVERS


def test_puzzle_objects_and_strings_alike() -> None:
    assert shudu.solve(parse_puzzle(INKALA)).solution == shudu.solve(INKALA).solution
    x = shudu.solve("." * 16, variant="x")
    assert x.status == "multiple" and x.solution is not None
    assert x.solution.is_solution_of(Puzzle((0,) * 16, variant="x"))


def test_the_shape_cache_is_bounded() -> None:
    from shudu.geometry import Geometry
    from shudu.solvers import fast

    assert fast._shape.cache_info().maxsize == fast.SHAPE_CACHE_SIZE
    for size in (4, 6, 8, 9, 10, 12) * 20:
        fast._shape(Geometry(size), fast._engine)
    assert fast._shape.cache_info().currsize <= fast.SHAPE_CACHE_SIZE


def _python_without_c_core(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python where the C core cannot be imported."""
    blocked = "import sys; sys.modules['shudu._core_c'] = None\n"
    return subprocess.run(
        [sys.executable, "-W", "always", "-c", blocked + code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SHUDU_IMPLEMENTATION": "", **env},
    )


def test_the_pure_python_fallback_is_announced_once() -> None:
    code = (
        "import shudu\n"
        "from shudu.cli import version_text\n"
        "print(version_text())\n"
        f"shudu.solve({INKALA!r}); shudu.count('.' * 16); shudu.solve_many(['.' * 16])\n"
    )
    done = _python_without_c_core(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "shudu 0.1.0 (pure-Python core: the C extension is not built)\n"
    assert done.stderr.count("PerformanceWarning") == 1
    assert "C extension is not built" in done.stderr
    forced = _python_without_c_core(code, SHUDU_IMPLEMENTATION="python")
    assert forced.returncode == 0 and "Warning" not in forced.stderr
    assert "(pure-Python core: forced by SHUDU_IMPLEMENTATION=python)" in forced.stdout


@pytest.mark.parametrize(
    "text", ["." * 81, "1" + "." * 14 + "2", "1234" + "." * 12, ".Cage~10~R1C1~R1C2~R1C3~R1C4.Shape~4x4"]
)
def test_a_solve_result_writes_itself_as_the_cli_prints_it(text: str) -> None:
    result = shudu.solve(text)
    data = json.loads(json.dumps(result.to_json()))
    assert data["status"] == result.status and data["algorithm"] == result.algorithm
    assert data["stats"] == {
        "nodes": result.stats.nodes,
        "guesses": result.stats.guesses,
        "settled": result.stats.settled,
    }
    if result.solution is None:
        assert data["solution"] is None
    else:
        assert parse_puzzle(data["solution"]).cells == result.solution.cells
    shown = subprocess.run(
        [sys.executable, "-m", "shudu", "solve", "--format", "json", text], capture_output=True, text=True
    )
    printed = json.loads(shown.stdout)
    assert {key: printed[key] for key in data if key != "stats"} == {
        k: v for k, v in data.items() if k != "stats"
    }
