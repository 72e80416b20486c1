"""Boards from pencil marks: JSON boards, candidate grids (plain or drawn) and library lines."""

from __future__ import annotations

import json

import pytest

from shudu.errors import ShuduError
from shudu.logic.allsteps import TechniqueError, find_steps, select
from shudu.logic.engine.board import parse_board
from shudu.logic.engine.grid import CandidateGrid

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _grid_text(grid: CandidateGrid, *, drawn: bool) -> str:
    cells = [str(v) if v else "".join(str(d) for d in grid.candidates(c)) for c, v in enumerate(grid.values)]
    if not drawn:
        return " ".join(cells)
    width = max(len(c) for c in cells)
    lines = []
    for r in range(9):
        if r % 3 == 0:
            lines.append("+" + "+".join(["-" * (3 * (width + 1) + 1)] * 3) + "+")
        row = cells[9 * r : 9 * r + 9]
        parts = [" ".join(c.ljust(width) for c in row[b : b + 3]) for b in (0, 3, 6)]
        lines.append("| " + " | ".join(parts) + " |")
    lines.append(lines[0])
    return "\n".join(lines)


def test_a_plain_puzzle_is_a_board_of_givens() -> None:
    board = parse_board(PUZZLE)
    assert board.puzzle.cells[0] == 4 and not any(board.entries)
    assert board.grid().cands == CandidateGrid.from_values(board.puzzle.geometry, board.puzzle.cells).cands


@pytest.mark.parametrize("drawn", [False, True])
def test_candidate_grids_round_trip(drawn: bool) -> None:
    grid = parse_board(PUZZLE).grid()
    for cell in (1, 2, 3):
        low = grid.cands[cell] & -grid.cands[cell]
        grid.eliminate(cell, low.bit_length())
    board = parse_board(_grid_text(grid, drawn=drawn))
    assert board.grid().cands == grid.cands
    assert board.grid().values == grid.values


def test_json_board_keeps_entries_apart_from_givens() -> None:
    solution = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
    entries = "." * 1 + solution[1] + "." * 79
    board = parse_board(json.dumps({"puzzle": PUZZLE, "entries": entries, "pencil": {"r1c3": "79"}}))
    assert board.puzzle.cells[1] == 0 and board.entries[1] == int(solution[1])
    assert board.grid().candidates(2) == [7, 9]


def test_library_line_keeps_placed_digits_as_entries() -> None:
    line = ":0000:1:+6+3+42+8+9...8+7531+6+2+9+42+91+7+5+4+6+38+349+16+58+7+2+5+8+79+42..+6+1+62+83+754+97+5+8+4+2+39+61+9.+6+5784+23+4+2+3+6+91...:::182:"
    board = parse_board(line)
    assert board.puzzle.cells[0] == 0 and board.entries[0] == 6
    assert board.puzzle.cells[3] == 2 and board.entries[3] == 0
    steps = find_steps(board, "0000")
    assert any(s.placements == ((64, 1),) for s in steps)


def test_library_line_deletes_candidates() -> None:
    line = ":0100:1:.+92....+365...3+697..3+6.+94...+2.58.1.+9+3+3.96.28.....9.32..+9+5+34+6..2..87+32+9..56+2....3.+9:811 515 715 538 761 595 795:193 198::"
    grid = parse_board(line).grid()
    assert not grid.has(0, 8) and not grid.has(4, 5)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (" ".join(["123"] * 80 + ["12x"]), "r9c9"),
        (":0000:1:123:::", "a HoDoKu line has 81"),
        (":0000:1:" + "." * 81 + ":9x9::", "436"),
        (" ".join(["1", "1"] + ["23"] * 79), "r1c2"),
    ],
)
def test_bad_boards_name_the_problem(text: str, words: str) -> None:
    with pytest.raises(ShuduError, match=words):
        parse_board(text)


def test_technique_names_and_codes_select_the_same_finders() -> None:
    assert select("0300").finders == select("X-Wing").finders
    assert select("x-wing").finders == select("X-Wing").finders
    assert select("Uniqueness Test 1").form
    with pytest.raises(TechniqueError):
        select("Wiggly Fish")


def test_find_steps_lists_every_single_and_stops_at_a_budget() -> None:
    board = parse_board(PUZZLE)
    grid = board.grid()
    listed = find_steps(board, "Naked single")
    singles = [c for c in range(81) if not grid.values[c] and grid.cands[c].bit_count() == 1]
    assert sorted(s.placements[0][0] for s in listed) == singles
    everything = find_steps(board)
    assert everything.status == "ok"
    effects = [(frozenset(s.placements), frozenset(s.eliminations)) for s in everything]
    assert len(effects) == len(set(effects))
    cut = find_steps(board, node_limit=1)
    assert cut.status == "timeout" and len(cut) <= 1


def _cli(*argv: str) -> tuple[str, str]:
    import io

    from shudu.cli._base import Commands, Output, Parser
    from shudu.cli.listing import register

    parser = Parser(prog="shudu")
    register(Commands(parser.add_subparsers(dest="command")))
    out, err = io.StringIO(), io.StringIO()
    args = parser.parse_args(list(argv))
    args.run(args, Output(out, err))
    return out.getvalue(), err.getvalue()


def test_steps_command_lists_the_steps_of_a_technique_as_text_and_json() -> None:
    text, _ = _cli("steps", PUZZLE, "--technique", "0002")
    listed = find_steps(PUZZLE, "Hidden single")
    assert listed.steps
    assert text.splitlines() == [s.explanation for s in listed]
    data, _ = _cli("steps", PUZZLE, "--technique", "Hidden Single", "--format", "json")
    assert json.loads(data)["status"] == "ok"
    assert len(json.loads(data)["steps"]) == len(listed)
    _, err = _cli("steps", PUZZLE, "--technique", "Wiggly Fish")
    assert "Wiggly Fish" in err


def test_techniques_command_lists_codes_and_ratings() -> None:
    data, _ = _cli("techniques", "--format", "json")
    rows = json.loads(data)
    xwing = next(r for r in rows if r["name"] == "X-Wing")
    assert xwing["codes"] == ["0300"] and xwing["se"] == 3.2
