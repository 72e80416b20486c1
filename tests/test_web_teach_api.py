"""The teaching view's numbers in the API's step JSON (shudu.web.teaching): a chain's nodes and a
net's lines numbered in order, and the numbered words naming exactly those numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")

from starlette.testclient import TestClient

from shudu.web import create_app
from shudu.web.app import features
from shudu.web.teaching import node_text, number_structure

pytestmark = pytest.mark.skipif(not features()["hint"], reason="this version of shudu has no hint")


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "web.sqlite3"))


def technique_case(name: str) -> dict[str, Any]:
    cases = json.loads((Path(__file__).parent / "data" / "logic_techniques.json").read_text())
    return next(case for case in cases if case["technique"] == name)


def hinted_step(client: TestClient, name: str) -> dict[str, Any]:
    """The step a full hint gives on the technique file's board for ``name``."""
    case = technique_case(name)
    puzzle, values = case["puzzle"], case["values"]
    entries = [0 if puzzle[i] != "." or values[i] == "." else int(values[i]) for i in range(81)]
    pencil = [[int(d) for d in marks] for marks in case["candidates"]]
    body = {"puzzle": puzzle, "entries": entries, "pencil": pencil, "level": "step"}
    answer = client.post("/api/hint", json=body)
    assert answer.status_code == 200, answer.text
    step = answer.json()["step"]
    assert step is not None and "structure" in step
    return dict(step)


def numbers_in(text: str) -> list[int]:
    return [int(k) for k in re.findall(r"\((\d+)\)", text)]


@pytest.mark.parametrize("name", ["X-Chain", "AIC", "Grouped Chain", "Remote Pair"])
def test_a_chains_nodes_are_numbered_in_order_and_its_words_name_them(client: TestClient, name: str) -> None:
    structure = hinted_step(client, name)["structure"]
    assert structure["type"] in ("chain", "loop")
    nodes, links = structure["nodes"], structure["links"]
    assert [node["number"] for node in nodes] == list(range(1, len(nodes) + 1))
    for i, link in enumerate(links):  # each link joins the nodes it names, in chain order
        assert link["from"]["number"] == i + 1
        assert link["to"]["number"] == (i + 1) % len(nodes) + 1
        for end in ("from", "to"):
            node = nodes[link[end]["number"] - 1]
            assert (link[end]["cells"], link[end]["digits"]) == (node["cells"], node["digits"])
    words = structure["numbered"]
    expected = list(range(1, len(nodes) + 1)) + ([1] if structure["type"] == "loop" else [])
    assert numbers_in(words) == expected
    for node in nodes:  # each number stands before its own node's candidates
        assert f"({node['number']}) {node_text(node)}" in words
    signs = re.findall(r" ([=-]) \(", words)
    assert signs == ["=" if link["kind"] == "strong" else "-" for link in links]


@pytest.mark.parametrize("name", ["Forcing Net", "Forcing Chain", "Death Blossom"])
def test_a_nets_lines_are_numbered_within_their_branch(client: TestClient, name: str) -> None:
    step = hinted_step(client, name)
    structure = step["structure"]
    assert structure["type"] == "net"
    for branch in structure["branches"]:
        lines = branch["lines"]
        assert [line["number"] for line in lines] == list(range(1, len(lines) + 1))
        assert len(branch["numbered"]) == len(lines)
        for k, (line, words) in enumerate(zip(lines, branch["numbered"], strict=True)):
            sign = "=" if line["on"] else "≠"
            assert words.startswith(f"({k + 1}) {'if ' if k == 0 else ''}{line['cell']}{sign}{line['digit']}")
            # a line names itself, then the earlier lines it follows from, no others
            assert numbers_in(words) == [k + 1] + [j + 1 for j in line["because"]]
            assert all(j < k for j in line["because"])
        if branch["contradiction"]:
            assert branch["ending"].startswith(f"contradiction: {branch['contradiction']}")


def test_a_step_without_a_structure_gets_no_numbers(client: TestClient) -> None:
    easy = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    answer = client.post("/api/explain", json={"puzzle": easy})
    assert answer.status_code == 200
    for step in answer.json()["steps"]:
        assert "numbered" not in json.dumps(step)


def cell_node(cell: str) -> dict[str, Any]:
    return {"kind": "cell", "cells": [cell], "digits": [5]}


def test_a_loops_last_link_goes_back_to_node_one() -> None:
    """A loop as its JSON reads (a loop's last link goes from its last node back to its first)."""
    cells = ["r1c1", "r1c9", "r9c9", "r9c1"]
    kinds = ["strong", "weak", "strong", "weak"]
    links = [
        {"from": cell_node(cells[i]), "to": cell_node(cells[(i + 1) % 4]), "kind": kinds[i]} for i in range(4)
    ]
    data = {"structure": {"type": "loop", "nodes": [cell_node(c) for c in cells], "links": links}}
    number_structure(data)
    structure = data["structure"]
    assert (
        structure["numbered"]
        == "(1) 5 in r1c1 = (2) 5 in r1c9 - (3) 5 in r9c9 = (4) 5 in r9c1 - (1) 5 in r1c1"
    )
    last = structure["links"][-1]
    assert (last["from"]["number"], last["to"]["number"]) == (4, 1)


def test_each_branch_of_a_net_is_numbered_from_one() -> None:
    def branch(first: str, second: str) -> dict[str, Any]:
        lines = [
            {"cell": first, "digit": 3, "on": True, "because": [], "rule": "assumption"},
            {"cell": second, "digit": 3, "on": False, "because": [0], "rule": "sees"},
        ]
        return {"lines": lines, "contradiction": ""}

    data = {"structure": {"type": "net", "branches": [branch("r1c1", "r1c2"), branch("r5c5", "r5c6")]}}
    number_structure(data)
    for made in data["structure"]["branches"]:
        assert [line["number"] for line in made["lines"]] == [1, 2]
        assert numbers_in(" ".join(made["numbered"])) == [1, 2, 1]
