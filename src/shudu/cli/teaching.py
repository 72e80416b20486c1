"""``shudu rate``, ``explain`` and ``hint``: the logic engine, and the replay of the enumeration search."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..errors import ShuduError, SolverError
from ..formats import Entry
from ..notation import RATING_FIELDS
from ..puzzle import Puzzle
from ._base import PUZZLE, Commands, Output
from ._common import add_format, add_input, count, read_entries


def _limits(args: argparse.Namespace) -> dict[str, Any]:
    """The options every logic command passes on: the deadline, the budget, several solutions."""
    return {
        "timeout": args.timeout,
        "node_limit": args.node_limit,
        "allow_multiple": args.allow_multiple,
    }


def cmd_rate(args: argparse.Namespace, out: Output) -> None:
    from ..logic import rate

    for entry in read_entries(args):
        rating = None
        error = entry.error
        if entry.puzzle is not None:
            try:
                rating = rate(entry.puzzle, **_limits(args))
            except ShuduError as exc:
                error = exc.at_line(entry.line)
        if error is not None:
            out.problem(str(error))
        if args.format == "json":
            record: dict[str, Any] = {"line": entry.line, "puzzle": entry.text.strip()}
            if rating:
                record.update(rating.to_json())
            else:
                record.update({"status": "invalid", **dict.fromkeys(RATING_FIELDS)})
                record["error"] = error.message if error else None
            out.answer(json.dumps(record, ensure_ascii=False))
        elif rating is None:
            out.answer("invalid")
        elif rating.complete:
            several = " (several solutions)" if rating.status == "multiple" else ""
            out.answer(f"{rating.level} {rating.score} {rating.se:.1f} {rating.hardest}{several}")
        else:
            out.answer(rating.status)


def cmd_explain(args: argparse.Namespace, out: Output) -> None:
    from ..workshop import explain

    for entry in read_entries(args):
        if entry.puzzle is None:
            assert entry.error is not None
            out.problem(str(entry.error))
            continue
        if args.algorithm == "enumerate":
            _replay_enumeration(args, out, entry)
            continue
        try:
            if args.algorithm != "auto":
                raise SolverError(
                    f"explain follows the logical path (the default) or replays the search of "
                    f"--algorithm enumerate, not {args.algorithm!r}"
                )
            found = explain(entry.puzzle, **_limits(args))
        except ShuduError as exc:
            out.problem(str(exc.at_line(entry.line)))
            continue
        if args.format == "json":
            out.answer(json.dumps({"line": entry.line, **found.to_json()}, ensure_ascii=False))
        else:
            out.answer(f"# line {entry.line}: {entry.puzzle.to_string()}")
            out.answer(str(found))


def _replay_enumeration(args: argparse.Namespace, out: Output, entry: Entry) -> None:
    """The enumeration solver's search (paper 1), one step a line, up to --node-limit steps,
    --max-output bytes and --timeout seconds (a note on stderr says which ended it)."""
    from ..solvers.base import Budget
    from ..solvers.enumeration import Replay, Step

    assert entry.puzzle is not None

    def as_json(step: Step) -> str:
        return json.dumps({"line": entry.line, **step.to_json()})

    render = as_json if args.format == "json" else None
    bounds = {"max_steps": args.node_limit, "max_bytes": args.max_output}
    replay = Replay(entry.puzzle, render=render, budget=Budget.of(None, args.timeout), **bounds)
    if args.format != "json":
        out.answer(f"# line {entry.line}: {entry.puzzle.to_string()} (enumeration search)")
    solutions = 0
    for step, text in replay:
        solutions += step.kind == "solution"
        finished = step.kind == "done"
        out.answer(text)
        if finished and not solutions:
            if args.format == "json":
                out.answer(json.dumps({"line": entry.line, "status": "none"}))
            else:
                out.answer("the search is over: the puzzle has no solution")
    if replay.stopped:
        out.note(f"line {entry.line}: the replay stopped after {replay.steps} steps: {replay.stopped}")


def cmd_hint(args: argparse.Namespace, out: Output) -> None:
    from ..logic import hint
    from ..logic.engine.board import Board, parse_board

    for entry in read_entries(args):
        board: Any = entry.puzzle
        if entry.puzzle is None or entry.text.strip().startswith("{"):
            # not a plain puzzle: a JSON board, a candidate grid or a HoDoKu library line
            try:
                board = parse_board(entry.text)
            except ShuduError as exc:
                # a line that does not look like a board keeps the puzzle reader's own message
                looks_like_board = entry.text.strip()[:1] in (":", "{")
                error = exc if looks_like_board or entry.error is None else entry.error
                out.problem(str(error.at_line(entry.line)))
                continue
        assert isinstance(board, Board | Puzzle)
        try:
            found = hint(board, args.level, **_limits(args))
        except ShuduError as exc:
            out.problem(str(exc.at_line(entry.line)))
            continue
        if args.format == "json":
            out.answer(json.dumps({"line": entry.line, **found.to_json()}, ensure_ascii=False))
        else:
            out.answer(found.text)


def add_allow_multiple(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--allow-multiple",
        action="store_true",
        help="for a puzzle with several solutions (status: multiple), still follow the logical "
        "path, without uniqueness techniques; by default such a puzzle is not rated",
    )


def register(commands: Commands) -> None:
    rate = commands.add(
        "rate",
        f"shudu rate {PUZZLE}\n  shudu rate -i puzzles.txt --format json",
        cmd_rate,
    )
    add_input(rate)
    add_allow_multiple(rate)
    add_format(rate, "line", "json")

    explain = commands.add(
        "explain",
        f"shudu explain {PUZZLE}\n  shudu explain {PUZZLE} --format json",
        cmd_explain,
    )
    add_input(explain)
    add_allow_multiple(explain)
    add_format(explain, "text", "json")
    explain.add_argument(
        "--max-output",
        type=count("--max-output", minimum=1),
        default=10_000_000,
        metavar="BYTES",
        help="with --algorithm enumerate: stop the replay before its lines pass BYTES bytes, with a "
        "note on stderr (default: 10000000)",
    )

    hint = commands.add(
        "hint",
        f"shudu hint {PUZZLE} --level vague\n"
        '  shudu hint \'{"givens": "...", "entries": "...", "pencil": {"r1c2": "137"}}\'',
        cmd_hint,
    )
    add_input(hint)
    add_allow_multiple(hint)
    hint.add_argument(
        "--level",
        choices=("vague", "technique", "step"),
        default="step",
        help="how much to tell: where to look, the technique, or the whole step (default: step)",
    )
    add_format(hint, "text", "json")
