"""Constraint puzzles through the web API (the ASGI test client): every format that carries rules
reads to the same rules, sent in their one JSON form; a game of one is checked, hinted and saved
with them. The page's drawing of them is tested in a real browser by test_web_rules.py."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")

from starlette.testclient import TestClient

import shudu
from shudu.formats.convert import read_document, write_document
from shudu.rules import rule_types
from test_rule_logic import KILLER as KILLER_4X4

#: A 4x4 killer (every cell caged) with two givens: one solution.
KILLER = {
    "size": 4,
    "rules": KILLER_4X4,
    "givens": "..3...1.........",
}


@pytest.mark.parametrize("fmt", ["json", "iss", "sudokupad", "fpuzzles"])
def test_each_format_reads_to_the_same_rules(client: TestClient, fmt: str) -> None:
    text = write_document(read_document(json.dumps(KILLER)), fmt)
    answer = client.post("/api/parse", json={"puzzle": text})
    assert answer.status_code == 200, answer.text
    assert answer.json()["puzzle"]["rules"] == KILLER["rules"]


def test_a_puzzle_opens_in_sudokupad_where_the_format_holds_it(client: TestClient) -> None:
    described = client.post("/api/parse", json={"puzzle": KILLER}).json()["puzzle"]
    link = described["sudokupad"]
    assert link.startswith("https://sudokupad.app/")
    back = read_document(link).puzzle
    assert [rule.to_json(4) for rule in back.geometry.variant.rules] == KILLER["rules"]
    assert list(back.cells) == described["givens"]
    # a digits-from-0 puzzle: SudokuPad's digits start at 1, so there is no link
    zero = {"size": 4, "rules": [{"rule": "digits", "from": 0}], "givens": "0" + "." * 15}
    answer = client.post("/api/parse", json={"puzzle": zero})
    assert answer.status_code == 200, answer.text
    assert answer.json()["puzzle"]["sudokupad"] is None


def test_every_rule_type_goes_out_in_its_own_json_form(client: TestClient) -> None:
    sent = 0
    for name, rtype in rule_types().items():
        text = json.dumps({"size": 9, "rules": [rtype.example], "givens": "." * 81})
        try:
            rules = shudu.parse_puzzle(text).geometry.variant.rules
        except shudu.ShuduError:
            continue  # an example that needs other rules beside it
        answer = client.post("/api/parse", json={"puzzle": text})
        assert answer.status_code == 200, (name, answer.text)
        assert answer.json()["puzzle"]["rules"] == [rule.to_json(9) for rule in rules], name
        sent += 1
    assert sent >= len(rule_types()) - 3


def test_a_link_refuses_a_variant_beside_it(client: TestClient) -> None:
    link = write_document(read_document(json.dumps(KILLER)), "sudokupad")
    answer = client.post("/api/parse", json={"puzzle": link, "variant": "x"})
    assert answer.status_code == 422
    assert "carries its own shape and rules" in answer.json()["error"]
    assert client.post("/api/parse", json={"puzzle": link, "variant": "standard"}).status_code == 200


def test_a_rule_game_is_solved_hinted_and_saved_with_its_rules(client: TestClient) -> None:
    client.get("/")
    game = client.post("/api/games", json={"puzzle": KILLER}).json()
    assert game["puzzle"]["rules"] == KILLER["rules"]
    solved = client.post("/api/solve", json={"puzzle": game["puzzle"]["json"]}).json()
    reference = shudu.solve(json.dumps(KILLER)).solution
    assert reference is not None and solved["solution"] == list(reference.cells)
    # r1c1 and r1c2 add up to 3: the other of 1 and 2 in r1c1 is a mistake the hint names
    entries = [0] * 16
    entries[0] = 3 - reference.cells[0]
    hinted = client.post("/api/hint", json={"puzzle": game["puzzle"]["json"], "entries": entries}).json()
    assert hinted["mistakes"] == [0] and hinted["step"] is None
    right = [0] * 16
    right[0] = reference.cells[0]
    hinted = client.post("/api/hint", json={"puzzle": game["puzzle"]["json"], "entries": right}).json()
    assert hinted["mistakes"] == [] and hinted["step"]["technique"]
    saved = client.put(f"/api/games/{game['id']}", json={"version": game["version"], "entries": entries})
    assert saved.status_code == 200, saved.text
    loaded = client.get(f"/api/games/{game['id']}").json()
    assert loaded["entries"] == entries and loaded["puzzle"]["rules"] == KILLER["rules"]


def test_the_search_trace_refuses_a_rule_puzzle(client: TestClient) -> None:
    answer = client.post("/api/trace", json={"puzzle": KILLER})
    assert answer.status_code == 422
    assert "does not read constraint rules" in answer.json()["error"]


def test_candidates_are_the_librarys_basic_candidates(client: TestClient) -> None:
    killer = json.dumps(KILLER)
    entries = [0] * 16
    entries[5] = 3  # a digit of the solution, entered: the marks read it
    answer = client.post("/api/candidates", json={"puzzle": killer, "entries": entries})
    assert answer.status_code == 200, answer.text
    marks = answer.json()["candidates"]
    assert marks == [list(d) for d in shudu.basic_candidates(killer, entries)]
    assert marks[0] == [1, 2] and marks[5] == [3]  # r1c1-r1c2 total 3
    plain = client.post("/api/candidates", json={"puzzle": "." * 16}).json()["candidates"]
    assert plain == [[1, 2, 3, 4]] * 16
    bad = client.post("/api/candidates", json={"puzzle": killer, "entries": [0] * 15})
    assert bad.status_code == 422 and "16" in bad.json()["error"]
