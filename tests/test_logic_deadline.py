"""Deadlines and work budgets of rate, explain and hint: status ``timeout``, work that stops, and
answers that a budget does not change."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable

import pytest

import shudu
from shudu.cli import main
from shudu.errors import ShuduError
from shudu.logic.engine.budget import limits, nodes_used
from shudu.logic.engine.grid import CandidateGrid
from shudu.logic.techniques import grouped_chains
from shudu.logic.techniques.als_listings import almost_locked_sets, restricted_links

EMPTY9 = "." * 81
EMPTY16 = "." * 256
EMPTY25 = "." * 625
EASY = "4.......8....31.....7...92....57...1.59....6.1......8.8...2..1..3.418..69........"
HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
#: A puzzle that needs an XY-Chain (rated "unfair"), rated in a fraction of a second.
CHAINS = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5...."


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("puzzle", [EMPTY9, EMPTY16, EMPTY25], ids=["9x9", "16x16", "25x25"])
def test_a_small_node_limit_ends_in_timeout(puzzle: str) -> None:
    rating = shudu.rate(puzzle, allow_multiple=True, node_limit=60)
    assert rating.status == "timeout" and not rating.complete
    assert rating.to_json()["se"] is None
    assert shudu.explain(puzzle, allow_multiple=True, node_limit=60).status == "timeout"


@pytest.mark.parametrize("puzzle", [EMPTY9, EMPTY16, EMPTY25], ids=["9x9", "16x16", "25x25"])
def test_a_small_timeout_ends_in_timeout(puzzle: str) -> None:
    # Rating an empty grid logically takes minutes; a twentieth of a second is far too little.
    rating = shudu.rate(puzzle, allow_multiple=True, timeout=0.05)
    assert rating.status == "timeout"


def test_the_work_stops_at_the_node_limit() -> None:
    """Every finder call and search step is one checkpoint; none happen past the budget."""
    for budget in (1, 40, 500):
        with limits():
            rating = shudu.rate(EMPTY9, allow_multiple=True, node_limit=budget)
            used = nodes_used()
        assert rating.status == "timeout"
        # The checkpoint that finds the budget spent counts itself, then nothing more runs.
        assert used == budget + 1


def test_a_timed_out_call_leaves_no_work_running() -> None:
    done: list[shudu.logic.Rating] = []
    worker = threading.Thread(
        target=lambda: done.append(shudu.rate(EMPTY9, allow_multiple=True, timeout=0.5))
    )
    worker.start()
    worker.join(120)  # a generous bound: the call gives up after half a second
    assert not worker.is_alive()
    assert done[0].status == "timeout"


def test_a_node_limit_gives_the_same_answer_every_run() -> None:
    answers = []
    for _ in range(3):
        explained = shudu.explain(CHAINS, node_limit=300)
        answers.append((explained.status, [step.explanation for step in explained.steps]))
        shudu.rate(CHAINS)  # a full rating in between must not change the next one
    assert answers[0][0] == "timeout" and answers[0][1]
    assert answers[0] == answers[1] == answers[2]


def test_a_search_counts_the_same_work_however_often_it_runs() -> None:
    """The ALS sets, their links and the loop graphs a search builds are remembered only inside
    one call (a rating's memo scope), never across calls: a cache kept between calls would make
    the second call count less work, and a node limit give another answer."""
    puzzle = shudu.parse_puzzle(HARD)
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    searches: list[Callable[[], object]] = [
        lambda: almost_locked_sets(grid),
        lambda: restricted_links(grid),
        lambda: grouped_chains._closed_loops(grid, grouped_chains.ALS_NODE_CELLS),
    ]
    for search in searches:
        used = []
        for _ in range(2):
            with limits(node_limit=10**12):
                search()
                used.append(nodes_used())
        assert used[0] == used[1] > 0


def test_a_timeout_keeps_the_steps_found() -> None:
    full = shudu.explain(CHAINS)
    part = shudu.explain(CHAINS, node_limit=300)
    assert 0 < len(part.steps) < len(full.steps)
    assert [s.explanation for s in part.steps] == [s.explanation for s in full.steps[: len(part.steps)]]
    assert part.status == "timeout"


@pytest.mark.parametrize("puzzle", [EASY, CHAINS])
def test_a_generous_deadline_changes_no_rating(puzzle: str) -> None:
    free = shudu.rate(puzzle)
    bounded = shudu.rate(puzzle, timeout=3600, node_limit=10**9)
    assert bounded.status == free.status == "unique"
    assert (bounded.level, bounded.score, bounded.se, bounded.hardest) == (
        free.level,
        free.score,
        free.se,
        free.hardest,
    )


def test_hint_honours_the_limits() -> None:
    assert shudu.hint(EMPTY9, allow_multiple=True, node_limit=1).status == "timeout"
    assert shudu.hint(EASY, timeout=3600).status == "unique"


@pytest.mark.parametrize(
    ("option", "value"),
    [("timeout", -1), ("timeout", 0), ("timeout", float("nan")), ("node_limit", 0), ("node_limit", 1.5)],
)
def test_bad_limits_are_clear_errors(option: str, value: float) -> None:
    calls: tuple[Callable[..., object], ...] = (shudu.rate, shudu.explain, shudu.hint)
    for call in calls:
        with pytest.raises(ShuduError, match=option):
            call(EASY, **{option: value})


def test_cli_says_timeout_and_exits_0() -> None:
    code, out, _ = run("rate", EMPTY9, "--allow-multiple", "--node-limit", "30")
    assert code == 0 and out.strip() == "timeout"
    code, out, _ = run("rate", EMPTY9, "--allow-multiple", "--node-limit", "30", "--format", "json")
    assert code == 0 and json.loads(out)["status"] == "timeout"
    code, out, _ = run("explain", CHAINS, "--node-limit", "300")
    assert code == 0 and "limit ran out" in out.splitlines()[-1]
    code, out, _ = run("hint", EMPTY9, "--allow-multiple", "--node-limit", "1", "--format", "json")
    assert code == 0 and json.loads(out)["status"] == "timeout"
