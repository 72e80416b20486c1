"""Forcing chains and nets read branch by branch, a line per deduction, each with its reason, and
their structured branches (``Step.to_json()["branches"]``) replay.

The replay is written apart from the engine: starting from the step's board, each deduction of a
branch must follow from the board and the deductions before it in that branch by the reason it
states (a peer holding the digit, the cell holding another, the only digit left in a cell, the
only place left in a house, a basic pattern of the net, a net inside), and each branch must end in
the contradiction it names or in the step's outcome.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

import shudu
from shudu.formats import parse_puzzle
from shudu.geometry import Geometry
from shudu.logic.engine.chain_structure import Net
from shudu.logic.engine.grid import CandidateGrid, bits
from shudu.logic.engine.propagate import settle
from shudu.logic.engine.step import Step, describe_outcome
from shudu.logic.techniques import forcing, kraken, nishio, static_forcing
from shudu.logic.techniques.netrules import NET_RULES

from conftest import shared_lines

FIXTURES = json.loads((Path(__file__).parent / "data" / "logic_techniques.json").read_text())
#: Three hard puzzles of the shared list (forcing chains, nets and nested nets on their paths).
HARD = ("forum_hardest_1106.txt", 3, 37)
#: A deduction line of a step's text: ``r1c7≠5 — sees r1c3=5``.
DEDUCTION = re.compile(r"^\s+r\d+c\d+[=≠]\d — \S.*$")
CELL = re.compile(r"r(\d+)c(\d+)")


def grid_of(case: dict[str, Any]) -> CandidateGrid:
    cells = [0 if v == "." else int(v) for v in case["values"]]
    masks = [sum(1 << (int(d) - 1) for d in text) for text in case["candidates"]]
    return CandidateGrid(Geometry(9), cells, masks)


def cell_of(name: str, size: int) -> int:
    match = CELL.fullmatch(name)
    assert match, name
    return (int(match[1]) - 1) * size + int(match[2]) - 1


def path_boards(puzzle: str) -> Iterator[tuple[CandidateGrid, Step]]:
    """Each step of the puzzle's explained path with the board it was found on."""
    parsed = parse_puzzle(puzzle)
    grid = CandidateGrid.from_values(parsed.geometry, parsed.cells)
    for step in shudu.explain(parsed).steps:
        yield grid.copy(), step
        grid.apply(step)


# --- the replay -----------------------------------------------------------------------------------


class Replay:
    """One branch followed on a copy of the board: what is placed, what is gone."""

    def __init__(self, board: CandidateGrid) -> None:
        self.board = board
        self.geometry = board.geometry
        self.size = board.size
        self.placed: dict[int, int] = {c: v for c, v in enumerate(board.values) if v}
        self.gone: set[tuple[int, int]] = set()

    def live(self, cell: int, digit: int) -> bool:
        """Whether ``digit`` may still go in ``cell``."""
        if cell in self.placed:
            return self.placed[cell] == digit
        return self.board.has(cell, digit) and (cell, digit) not in self.gone

    def house(self, name: str) -> tuple[int, ...]:
        return next(h.cells for h in self.geometry.houses if h.name == name)

    def problem(self, d: dict[str, Any], index: int) -> str | None:
        """Why deduction ``d`` (number ``index`` of its branch) does not follow, or None."""
        cell, digit, kind = cell_of(d["cell"], self.size), d["digit"], d["kind"]
        if any(j >= index for j in d["because"]):
            return "cites a later deduction"
        placed = d["effect"] == "placed"
        if kind == "sees":
            holders = [cell_of(c, self.size) for c in d["cells"]]
            ok = bool(holders) and all(
                h in self.geometry.peers[cell] and self.placed.get(h) == digit for h in holders
            )
            return None if ok and not placed else "no peer holds the digit"
        if kind == "holds":
            ok = self.placed.get(cell, digit) != digit and d["cells"] == [d["cell"]]
            return None if ok and not placed else "the cell holds no other digit"
        if kind == "naked single":
            others = [e for e in range(1, self.size + 1) if e != digit and self.live(cell, e)]
            return None if placed and not others and self.live(cell, digit) else f"{others} still there"
        if kind == "hidden single":
            spots = [c for c in self.house(d["house"]) if self.live(c, digit)]
            return None if placed and spots == [cell] else f"places left {spots}"
        return None if not placed else "a rule placed a digit"

    def rule_problem(self, d: dict[str, Any]) -> str | None:
        """Why a basic pattern (or a net inside) does not give deduction ``d``, or None."""
        cell, digit, reason = cell_of(d["cell"], self.size), d["digit"], d["reason"]
        locked = re.match(
            r"every place left for (\d+) in (.+) sees (r\d+c\d+) \((pointing|claiming)\)", reason
        )
        if locked:
            spots = [c for c in self.house(locked[2]) if self.live(c, digit)]
            ok = int(locked[1]) == digit and spots and all(c in self.geometry.peers[cell] for c in spots)
            return None if ok else f"places {spots} do not all see the cell"
        if "would break the grid (a forcing net inside)" in reason:
            trial = self.as_grid()
            got = settle(trial, NET_RULES, start=(cell, digit), quiet=False)
            return None if got.grid is None else "the assumption inside does not break the grid"
        pair = re.match(r"(naked|hidden) pair (r\d+c\d+) and (r\d+c\d+)", reason)
        if pair:
            a, b = (cell_of(pair[i], self.size) for i in (2, 3))
            if pair[1] == "naked":
                union = {e for e in range(1, self.size + 1) if self.live(a, e) or self.live(b, e)}
                peers = self.geometry.peers
                ok = len(union) == 2 and digit in union and cell in peers[a] and cell in peers[b]
                return None if ok else "not a naked pair that sees the cell"
            return None if cell in (a, b) and self.hidden_pair(a, b, digit) else "not a hidden pair"
        return f"unknown rule: {reason}"

    def hidden_pair(self, a: int, b: int, digit: int) -> bool:
        """Whether two digits other than ``digit`` have no place but ``a`` and ``b`` in a house."""
        for house in self.geometry.houses:
            if a in house.cells and b in house.cells:
                held = [
                    e
                    for e in range(1, self.size + 1)
                    if e != digit and {c for c in house.cells if self.live(c, e)} in ({a, b}, {a}, {b})
                ]
                if len(held) >= 2:
                    return True
        return False

    def as_grid(self) -> CandidateGrid:
        grid = self.board.copy()
        for cell, digit in sorted(self.placed.items()):
            if not self.board.values[cell]:
                grid.place(cell, digit)
        for cell, digit in sorted(self.gone):
            if cell not in self.placed:
                grid.eliminate(cell, digit)
        return grid

    def apply(self, d: dict[str, Any]) -> None:
        cell = cell_of(d["cell"], self.size)
        if d["effect"] == "placed":
            self.placed[cell] = d["digit"]
        else:
            self.gone.add((cell, d["digit"]))

    def broken(self, text: str) -> bool:
        """Whether the contradiction named holds."""
        no_place = re.fullmatch(r"no place is left for (\d+) in (.+)", text)
        if no_place:
            digit = int(no_place[1])
            return not any(self.live(c, digit) for c in self.house(no_place[2]))
        no_candidate = re.fullmatch(r"(r\d+c\d+) has no candidate left", text)
        if no_candidate:
            cell = cell_of(no_candidate[1], self.size)
            return cell not in self.placed and not any(self.live(cell, e) for e in range(1, self.size + 1))
        return False


def branch_problems(board: CandidateGrid, step: Step, branch: dict[str, Any]) -> list[str]:
    """Everything in one structured branch that does not follow (empty when it replays)."""
    size = board.size
    replay = Replay(board)
    problems = []
    first = branch["assumption"]
    cell = cell_of(first["cell"], size)
    if not replay.live(cell, first["digit"]):
        problems.append(f"assumption {first} is not a candidate")
    replay.placed[cell] = first["digit"]
    for index, d in enumerate(branch["deductions"]):
        why = replay.problem(d, index)
        if why is None and d["kind"] == "rule":
            why = replay.rule_problem(d)
        if why is not None or not d["reason"]:
            problems.append(f"{d['cell']} {d['effect']} {d['digit']} ({d['reason']}): {why}")
        replay.apply(d)
    if branch["contradiction"]:
        if not replay.broken(branch["contradiction"]):
            problems.append(f"no contradiction: {branch['contradiction']}")
        if branch["conclusion"] != f"{first['cell']} cannot be {first['digit']}":
            problems.append(f"conclusion {branch['conclusion']}")
        return problems
    for c, digit in step.placements:
        if replay.placed.get(c) != digit:
            problems.append(f"{board.name(c)}={digit} not reached")
    for c, digit in step.eliminations:
        if replay.live(c, digit):
            problems.append(f"{board.name(c)}≠{digit} not reached")
    if branch["conclusion"] != describe_outcome(size, step.placements, step.eliminations):
        problems.append(f"conclusion {branch['conclusion']}")
    return problems


def check_step(board: CandidateGrid, step: Step) -> int:
    """The step's text reads a line per deduction, each with a reason, and its branches replay;
    how many deductions were checked."""
    net = step.structure
    assert isinstance(net, Net) and net.branches and net.outcome, step.name
    branches = step.to_json()["branches"]
    assert len(branches) == len(net.branches)
    lines = step.explanation.split("\n")
    assert "→" not in step.explanation and "goes from" not in step.explanation
    assert lines[0].endswith(f", so {net.outcome}"), lines[0]
    shown = [line for line in lines[1:] if DEDUCTION.match(line)]
    count = sum(len(b["deductions"]) for b in branches)
    assert len(shown) == count, step.explanation
    assert len(lines) == 1 + count + sum(2 + bool(b["contradiction"]) for b in branches)
    for branch in branches:
        # a branch may break the grid at once (no deduction); else it needs its deductions
        assert branch["deductions"] or branch["contradiction"], step.explanation
        problems = branch_problems(board, step, branch)
        assert not problems, (step.explanation, problems)
    return count


# --- the cases ------------------------------------------------------------------------------------


def _fixture_cases() -> list[dict[str, Any]]:
    return [c for c in FIXTURES if "Forcing" in c["technique"] and len(c["values"]) == 81]


@pytest.mark.parametrize("case", _fixture_cases(), ids=[c["technique"] for c in _fixture_cases()])
def test_fixture_nets_read_and_replay(case: dict[str, Any]) -> None:
    grid = grid_of(case)
    find = {
        "Forcing Chain": forcing.find_forcing_chain,
        "Forcing Net": forcing.find_forcing_net,
        "Nested Forcing Net": forcing.find_nested_forcing_net,
    }[case["technique"]]
    step = getattr(find, "uncached", find)(grid)
    assert step is not None
    assert check_step(grid, step)


def _hard_boards() -> Iterator[tuple[CandidateGrid, Step]]:
    name, count, every = HARD
    for line in shared_lines(name, count, step=every):
        for board, step in path_boards(line.split()[0]):
            if isinstance(step.structure, Net):
                yield board, step


def test_hard_paths_nets_read_and_replay() -> None:
    """Every net step on the paths of hard puzzles (contradictions, nested nets)."""
    names = set()
    checked = 0
    for board, step in _hard_boards():
        checked += check_step(board, step)
        names.add(step.name)
    assert checked and any("Nested" in name for name in names), names


def test_verities_read_and_replay() -> None:
    """Cell and house verities of forcing chains and nets, on boards of the hard paths."""
    seen: set[str] = set()
    for board, _ in islice(_hard_boards(), 0, 6, 2):
        for rules, name in (((), "Forcing Chain"), (NET_RULES, "Forcing Net")):
            for step in forcing._forcing(board, rules, name, contradictions=False)[:2]:
                check_step(board, step)
                seen.add(step.name)
    assert len(seen) >= 2, seen


def test_explainer_forms_and_kraken_read_and_replay() -> None:
    """Sudoku Explainer's direct cell and house forcing chains and Nishio, and Kraken fish, on
    every third board of a hard path."""
    name, _, _ = HARD
    (line,) = shared_lines(name, 1)
    seen: set[str] = set()
    for board, _ in islice(path_boards(line.split()[0]), 0, None, 3):
        found = [
            *islice(static_forcing.iter_static_forcing(board), 2),
            *islice(nishio.iter_nishio(board), 2),
            *islice(kraken.iter_kraken_fish(board, sizes=(2,)), 2),
        ]
        for step in found:
            check_step(board, step)
            seen.add(step.name)
    assert {"Cell Forcing Chain", "House Forcing Chain", "Nishio Forcing Chain"} <= seen, seen
    assert any(name.startswith("Kraken") for name in seen), seen


def test_a_wrong_reason_is_caught() -> None:
    """The replay fails on a branch whose reasons are broken: a peer that does not hold the digit,
    a single whose causes come after it, a wrong house, a conclusion not reached."""
    board, step = next(_hard_boards())
    (branch,) = step.to_json()["branches"]
    assert not branch_problems(board, step, branch)
    deductions = branch["deductions"]

    def broken(change: Any) -> list[str]:
        bad = copy.deepcopy(branch)
        change(bad["deductions"])
        return branch_problems(board, step, bad)

    sees = next(i for i, d in enumerate(deductions) if d["kind"] == "sees")
    far = next(
        c for c in bits(board.empty) if c not in board.geometry.peers[cell_of(deductions[sees]["cell"], 9)]
    )
    assert broken(lambda ds: ds[sees].update(cells=[board.name(far)]))
    single = next(i for i, d in enumerate(deductions) if d["kind"] in ("naked single", "hidden single"))
    assert broken(lambda ds: ds.insert(0, ds.pop(single)))
    hidden = next(i for i, d in enumerate(deductions) if d["kind"] == "hidden single")
    assert broken(lambda ds: ds[hidden].update(house="row 9" if ds[hidden]["house"] != "row 9" else "row 1"))
    assert broken(lambda ds: ds.pop())  # the last deduction makes the contradiction
