"""The setter's panel (``POST /api/setter``): every part cross-checked with the library's own
answers (the true candidates against the union of every solution listed, each redundant given
taken away, the make-unique givens added), a part that runs out of time saying ``timeout`` while
the others answer, and precise errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")

from starlette.testclient import TestClient

import shudu
from shudu.notation import STATUSES
from shudu.web import create_app
from test_web_rules_api import KILLER

#: Arto Inkala's puzzle: unique, 21 givens, rated extreme.
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
#: Inkala's puzzle with the solution's digits in twelve more cells (evenly spread): unique, and
#: not minimal, so givens can go one by one while it keeps one solution, then a few.
RICH = "".join(
    d if ch == "." and i % 5 == 0 else ch
    for i, (ch, d) in enumerate(
        zip(
            INKALA,
            "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
            strict=True,
        )
    )
)
#: The setter's words: the library's statuses and the backdoors' own.
WORDS = {*STATUSES, "found", "solved", "not-found"}
PARTS = ("count", "candidates", "redundant", "make_unique", "backdoors", "rating")


@pytest.fixture
def client(db: Path) -> TestClient:
    """The app with a deadline long enough for every part on a busy machine or the pure-Python
    core: these tests check answers, not speed (the timeout tests set their own)."""
    return TestClient(create_app(db, deadline=120))


def ask(client: TestClient, puzzle: Any, **options: Any) -> dict[str, Any]:
    answer = client.post("/api/setter", json={"puzzle": puzzle, **options})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    assert set(found) == set(PARTS)
    for name in PARTS:
        assert found[name]["status"] in WORDS, name
    return found


def without(puzzle: str, cells: list[int]) -> str:
    return "".join("." if i in cells else ch for i, ch in enumerate(puzzle))


def givens_of(puzzle: str) -> list[int]:
    return [i for i, ch in enumerate(puzzle) if ch != "."]


def few_solutions(puzzle: str, most: int) -> list[str]:
    """The puzzle with its givens taken away one by one, in reading order, while it has at most
    ``most`` solutions: puzzles with 1, then a few, solutions."""
    found = [puzzle]
    for cell in givens_of(puzzle):
        fewer = without(found[-1], [cell])
        if shudu.count(fewer, most + 1) > most:
            continue
        found.append(fewer)
    return found


SMALL = [
    ("1...........2...", {}),
    ("12......3.......4..5.......6.......1", {"box": "2x3"}),
    *((p, {}) for p in few_solutions(RICH, 40)[::3]),
    ("1..............2", {"variant": "x"}),
]


@pytest.mark.parametrize(("puzzle", "options"), SMALL)
def test_the_count_and_true_candidates_are_those_of_every_solution(
    client: TestClient, puzzle: str, options: dict[str, str]
) -> None:
    found = ask(client, puzzle, **options)
    solutions = [grid.cells for grid in shudu.solutions(puzzle, **options)]  # type: ignore[arg-type]
    count = found["count"]
    assert count["solutions"] == len(solutions) and count["complete"] is True
    assert count["status"] == ("unique" if len(solutions) == 1 else "multiple")
    union = [sorted({s[c] for s in solutions}) for c in range(len(solutions[0]))]
    assert found["candidates"]["status"] == count["status"]
    assert found["candidates"]["candidates"] == union


def test_a_count_past_the_limit_says_at_least(client: TestClient) -> None:
    found = ask(client, "1...........2...", limit=10)
    assert found["count"] == {**found["count"], "status": "multiple", "solutions": 10, "complete": False}
    # the true candidates are still every digit some solution shows, found past the limit
    solutions = [grid.cells for grid in shudu.solutions("1...........2...")]
    union = [sorted({s[c] for s in solutions}) for c in range(16)]
    assert found["candidates"]["candidates"] == union


@pytest.mark.parametrize("puzzle", few_solutions(RICH, 1)[::4])
def test_each_redundant_given_can_go_and_no_other(client: TestClient, puzzle: str) -> None:
    found = ask(client, puzzle)
    assert found["count"]["status"] == "unique"
    redundant = found["redundant"]
    assert redundant["status"] == "unique"
    for cell in givens_of(puzzle):
        stays = shudu.count(without(puzzle, [cell]), 2) == 1
        assert stays == (cell in redundant["givens"]), cell
    assert set(redundant["together"]) <= set(redundant["givens"])
    assert shudu.count(without(puzzle, redundant["together"]), 2) == 1
    # a unique puzzle needs nothing added
    assert found["make_unique"] == {**found["make_unique"], "status": "unique", "added": []}


@pytest.mark.parametrize("puzzle", [*few_solutions(RICH, 1000)[-8::3], "1...........2...", "." * 81])
def test_the_givens_suggested_make_the_puzzle_unique(client: TestClient, puzzle: str) -> None:
    found = ask(client, puzzle)
    assert found["count"]["status"] == "multiple"
    made = found["make_unique"]
    assert made["status"] == "unique" and made["added"]
    size = round(len(puzzle) ** 0.5)
    cells = list(puzzle)
    for given in made["added"]:
        assert cells[given["cell"]] == "." and 1 <= given["digit"] <= size
        cells[given["cell"]] = str(given["digit"])
    assert shudu.count("".join(cells), 2) == 1
    # the parts of a unique puzzle do not apply, and say why in the count's word
    for name in ("redundant", "backdoors", "rating"):
        assert found[name]["status"] == "multiple", name


def test_backdoors_and_rating_of_a_unique_puzzle_are_the_librarys(client: TestClient) -> None:
    found = ask(client, INKALA)
    solution = shudu.solve(INKALA).solution
    assert solution is not None
    doors = found["backdoors"]
    expected = shudu.backdoors(INKALA, limit=20)
    assert doors["status"] == "found" and doors["size"] == expected.size and doors["count"] == expected.count
    listed = [[(p["cell"], p["digit"]) for p in door] for door in doors["backdoors"]]
    assert listed == [[(c, solution.cells[c]) for c in door] for door in expected.backdoors]
    rating = shudu.rate(INKALA)
    assert found["rating"]["status"] == "unique"
    assert (found["rating"]["level"], found["rating"]["se"]) == (rating.level, rating.se)
    candidates = found["candidates"]["candidates"]
    assert candidates == [[d] for d in solution.cells]


def test_a_puzzle_with_no_solution_says_none_in_every_part(client: TestClient) -> None:
    found = ask(client, "12........3...4.")
    assert all(found[name]["status"] == "none" for name in PARTS)
    assert found["count"]["solutions"] == 0 and found["count"]["complete"] is True


def test_a_rule_puzzle_answers_and_its_backdoors_say_why_not(client: TestClient) -> None:
    found = ask(client, json.dumps(KILLER))
    assert found["count"]["status"] == "unique"
    assert found["backdoors"]["status"] == "invalid"
    assert "constraint rules" in found["backdoors"]["error"]
    assert found["rating"]["status"] == "unique"


def test_a_count_out_of_time_says_timeout_while_the_other_parts_answer(db: Path) -> None:
    # counting 100,000 solutions of an empty 16x16 takes far longer than 0.1 s
    client = TestClient(create_app(db, deadline=120))
    found = ask(client, "." * 256, limit=100_000, deadline=0.1)
    count = found["count"]
    assert count["status"] == "timeout" and count["complete"] is False
    assert count["solutions"] < 100_000
    if count["solutions"] >= 2:
        # the solutions found show that it has several: the unique puzzle's parts say so
        assert found["redundant"]["status"] == found["backdoors"]["status"] == "multiple"
        assert found["make_unique"]["status"] in ("unique", "timeout")
    else:  # too few found in time to tell (the pure-Python core): every part that waits on it says so
        for name in ("redundant", "make_unique", "backdoors", "rating"):
            assert found[name]["status"] == "timeout", name
    assert found["candidates"]["status"] in ("multiple", "timeout")


def test_the_rating_out_of_time_says_timeout_while_the_others_answer(db: Path) -> None:
    # rating this puzzle takes its nested forcing nets, far past the request's 0.1 s
    client = TestClient(create_app(db, deadline=120))
    found = ask(client, INKALA, deadline=0.1)
    assert found["rating"]["status"] == "timeout" and found["rating"]["level"] is None
    assert found["count"]["status"] == "unique"


def test_the_servers_deadline_bounds_the_requests(db: Path) -> None:
    client = TestClient(create_app(db, deadline=0.1))
    found = ask(client, INKALA, deadline=60)
    assert found["rating"]["status"] == "timeout"


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"puzzle": "11" + "." * 79}, 422, "both hold 1"),
        ({"puzzle": "123"}, 422, "not a square grid"),
        ({"puzzle": INKALA, "limit": 1}, 400, "limit"),
        ({"puzzle": INKALA, "limit": "9"}, 400, "limit"),
        ({"puzzle": INKALA, "deadline": 0}, 400, "deadline"),
        ({"puzzle": INKALA, "deadline": True}, 400, "deadline"),
        ({"puzzle": INKALA, "parts": ["count"]}, 400, "parts"),
        ({"puzzle": INKALA, "variant": "nonesuch"}, 422, "nonesuch"),
    ],
)
def test_bad_input_is_a_precise_error(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    answer = client.post("/api/setter", json=body)
    assert answer.status_code == status, answer.text
    assert words in answer.json()["error"]
