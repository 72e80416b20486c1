"""The trainer's API: the techniques it offers, a drill whose answer is the engine's first step on
the board it returns, precise errors for a bad technique, and the request's deadline kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")

from starlette.testclient import TestClient

import shudu
from shudu.logic.table import techniques
from shudu.notation import LEVELS, digit_char
from shudu.web import create_app

#: The engine's techniques, easiest first (the order the simplest-first path tries them).
ORDER = list(dict.fromkeys(f.technique.name for f in techniques(uniqueness=True)))


@pytest.fixture
def client(db: Path) -> TestClient:
    """The app with a deadline long enough for a drill on a busy machine or on the pure-Python
    core: these tests check answers, not speed (the deadline's own test makes its app)."""
    return TestClient(create_app(db, deadline=120))


def rebuilt(drill: dict[str, Any]) -> dict[str, Any]:
    """The drill's board as the JSON board form, made from the lists the page reads (``entries``,
    ``candidates``) and the puzzle's givens, not from the answer's own ``board``."""
    puzzle = drill["puzzle"]
    return {
        "size": puzzle["size"],
        "box": puzzle["box"],
        "givens": "".join(digit_char(d) for d in puzzle["givens"]),
        "entries": "".join(digit_char(d) for d in drill["entries"]),
        "pencil": ["".join(digit_char(d) for d in marks) for marks in drill["candidates"]],
    }


def pairs(items: list[dict[str, Any]]) -> set[tuple[int, int]]:
    return {(int(item["cell"]), int(item["digit"])) for item in items}


def test_the_techniques_offered_are_the_classic_ones_easiest_first(client: TestClient) -> None:
    listed = client.get("/api/train").json()["techniques"]
    names = [t["name"] for t in listed]
    assert "X-Wing" in names and "Hidden single" in names
    assert "Brute Force" not in names and "Thermometer" not in names
    assert names == sorted(names, key=ORDER.index)
    assert {t["level"] for t in listed} <= set(LEVELS)


@pytest.mark.parametrize("technique", ["X-Wing", "Naked pair", "Hidden single"])
def test_the_answer_is_the_engines_first_step_on_the_board_returned(
    client: TestClient, technique: str
) -> None:
    answer = client.post("/api/train", json={"technique": technique, "seed": 5})
    assert answer.status_code == 200, answer.text
    drill = answer.json()
    assert drill["technique"] == technique
    board = rebuilt(drill)
    assert board["givens"] == drill["board"]["givens"]
    step = drill["answer"]
    assert step["technique"] == technique and (step["placements"] or step["eliminations"])
    # the next step of the simplest-first path there is of the technique, and the answer and the
    # others are the technique's steps on the board, each once
    hinted = shudu.hint(board).step
    assert hinted is not None and hinted.technique.name == technique
    listed = {
        (frozenset(s.placements), frozenset(s.eliminations)) for s in shudu.find_steps(board, technique).steps
    }
    given = [
        (frozenset(pairs(s["placements"])), frozenset(pairs(s["eliminations"])))
        for s in [step, *drill["others"]]
    ]
    assert len(set(given)) == len(given) and set(given) == listed
    assert (frozenset(hinted.placements), frozenset(hinted.eliminations)) in listed
    # and no easier technique of the path has any step on the board (the listing has more
    # techniques than the path, which are not ranked against it)
    found = shudu.find_steps(board)
    assert found.status == "ok"
    ranks = [ORDER.index(s.technique.name) for s in found.steps if s.technique.name in ORDER]
    assert min(ranks) == ORDER.index(technique)
    # each candidate the step removes is on the board; each placement is a candidate there
    for cell, digit in pairs(step["eliminations"]) | pairs(step["placements"]):
        assert digit in drill["candidates"][cell] and drill["entries"][cell] == 0


def test_a_seed_makes_the_same_drill_again(client: TestClient) -> None:
    first, again = (client.post("/api/train", json={"technique": "X-Wing", "seed": 11}).json() for _ in "12")
    assert first["board"] == again["board"] and first["answer"] == again["answer"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"technique": "Wingy"}, 422, "no technique is called 'Wingy'"),
        ({"technique": "Thermometer"}, 422, "Thermometer is not trained here"),
        ({"technique": "X-Wing", "level": "easy"}, 422, "never needs X-Wing"),
        # a body its model refuses is 400, as on every route
        ({"technique": "X-Wing", "level": "trivial"}, 400, "unknown level"),
        ({"technique": "X-Wing", "seed": -1}, 400, '"seed" must be 0 to'),
        ({"technique": 3}, 400, '"technique" must be a string'),
        ({}, 400, "the request has no"),
    ],
)
def test_a_bad_request_says_what_is_wrong(client: TestClient, body: Any, status: int, words: str) -> None:
    answer = client.post("/api/train", json=body)
    assert answer.status_code == status, answer.text
    assert words in answer.json()["error"]


def test_a_drill_not_made_within_the_deadline_answers_503(db: Path) -> None:
    with TestClient(create_app(db, deadline=0.05, grace=0.5)) as client:
        answer = client.post("/api/train", json={"technique": "Finned Jellyfish", "seed": 1})
        assert answer.status_code == 503, answer.text
        assert "deadline" in answer.json()["error"]


def test_the_openapi_document_has_the_trainer(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    assert {"get", "post"} <= set(paths["/api/train"])
