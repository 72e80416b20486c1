"""The trainer: on every board it makes, the techniques easier than the target find nothing
(each asked alone through ``find_steps``), the target finds a step, the answer is one of its
steps, and the answer is sound against the puzzle's solution."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import shudu
from shudu.cli import main
from shudu.errors import OptionError
from shudu.logic.table import techniques

#: Basic and intermediate techniques, by the names a user may give (HoDoKu's code for one).
TARGETS = [
    "Hidden single",
    "0100",
    "Locked candidates (claiming)",
    "Naked pair",
    "Hidden pair",
    pytest.param("X-Wing", marks=pytest.mark.c_speed),  # half a minute on the pure-Python core
    "XY-Wing",
]


def effect(step: dict[str, object]) -> tuple[object, object]:
    return json.dumps(step["placements"], sort_keys=True), json.dumps(step["eliminations"], sort_keys=True)


def check(drill: shudu.Drill) -> None:
    target = drill.step.technique.name
    board = shudu.parse_board(drill.board)
    assert board.puzzle == drill.puzzle
    solved = shudu.solve(drill.puzzle)
    assert solved.status == "unique" and solved.solution is not None
    solution = solved.solution.cells
    assert drill.solution == solution
    # the board is a state of the solving path: placed digits right, solution digits still marked
    grid = board.grid()
    for cell, value in enumerate(grid.values):
        if value:
            assert value == solution[cell]
        else:
            assert grid.cands[cell] >> (solution[cell] - 1) & 1
    # no easier technique has a step; the target has, the answer among its steps
    order = [f.technique.name for f in techniques(uniqueness=True)]
    for easier in order[: order.index(target)]:
        assert not shudu.find_steps(drill.board, easier).steps, easier
    found = shudu.find_steps(drill.board, target).steps
    assert found
    answer = drill.to_json()["answer"]
    assert answer["technique"] == target
    assert effect(answer) in {effect(step.to_json()) for step in found}
    hint = shudu.hint(drill.board)
    assert hint.step is not None and hint.step.technique.name == target
    # sound: its placements are the solution's digits, its eliminations are not
    assert drill.step.placements or drill.step.eliminations
    for cell, digit in drill.step.placements:
        assert solution[cell] == digit
    for cell, digit in drill.step.eliminations:
        assert solution[cell] != digit
        assert grid.cands[cell] >> (digit - 1) & 1


@pytest.mark.parametrize("technique", TARGETS)
def test_every_board_has_the_technique_as_its_first_step(technique: str) -> None:
    found = shudu.train(technique, 2, seed=11, timeout=120)
    assert found.status == "found" and len(found.drills) == 2
    for drill in found.drills:
        check(drill)
    assert found.drills[0].puzzle != found.drills[1].puzzle


@pytest.mark.c_speed  # half a minute on the pure-Python core; the other drills check the twin
def test_level_and_seed() -> None:
    first = shudu.train("Naked pair", 2, level="hard", seed=5)
    again = shudu.train("naked pair", 2, level="hard", seed=5)
    assert [d.to_json() for d in first.drills] == [d.to_json() for d in again.drills]
    for drill in first.drills:
        assert shudu.rate(drill.puzzle).level == "hard"
        check(drill)


def test_rare_technique_times_out_with_what_was_found() -> None:
    found = shudu.train("Jellyfish", 3, seed=1, timeout=0.5)
    assert found.status == "timeout" and len(found.drills) < 3
    for drill in found.drills:
        check(drill)


def test_bad_options() -> None:
    for args, kwargs in (
        (("no such",), {}),
        (("X-Wing", 0), {}),
        (("X-Wing",), {"level": "hardest"}),
        (("X-Wing",), {"seed": -1}),
        (("X-Wing",), {"timeout": 0}),
    ):
        with pytest.raises(OptionError):
            shudu.train(*args, **kwargs)  # type: ignore[arg-type]


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "X-Wing", "--count", "2", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line in lines:
        record = json.loads(line)
        assert record["technique"] == "X-Wing" and record["answer"]["technique"] == "X-Wing"
        assert shudu.find_steps(record["board"], "X-Wing").steps
    out = tmp_path / "drills.json"
    assert main(["train", "0200", "--seed", "3", "--format", "json", "-o", str(out)]) == 0
    drills = json.loads(out.read_text())
    assert len(drills) == 1 and drills[0]["technique"] == "Naked pair"
    assert main(["train", "nothing"]) == 2
    assert "no technique is called" in capsys.readouterr().err
