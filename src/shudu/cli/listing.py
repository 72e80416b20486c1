"""``shudu steps`` and ``shudu techniques``: every step on a board, and every technique known."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..errors import ParseError, ShuduError
from ._base import PUZZLE, Commands, Output
from ._common import add_format, argument_text, names_file, path_kind, path_problem, seconds
from ._system import stdin_bytes


def _board_text(source: str) -> str:
    """The board an argument stands for: ``-`` reads stdin, an existing file its text, else itself."""
    if source == "-":
        return _decode(stdin_bytes(), "standard input")
    text = argument_text(source)
    if names_file(text):
        try:
            return _decode(Path(text).read_bytes(), text)
        except OSError as exc:
            raise ShuduError(f"cannot read {text}: {exc.strerror}") from None
    if path_kind(text) == "folder":
        raise ShuduError(str(path_problem(text, "BOARD", "a board")))
    return text


def _decode(data: bytes, where: str) -> str:
    """UTF-8 text (a leading BOM dropped), or a ParseError naming the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ParseError(f"{where} is not UTF-8 text (byte 0x{data[exc.start]:02x})", line=line) from None


def cmd_steps(args: argparse.Namespace, out: Output) -> None:
    from ..logic.allsteps import find_steps

    try:
        found = find_steps(_board_text(args.board), args.technique, timeout=args.timeout)
    except ShuduError as exc:
        # a file name that names nothing is said to be one, not read as a board of a few cells
        problem = path_problem(args.board, "BOARD", "a board") if isinstance(exc, ParseError) else None
        out.problem(problem or str(exc))
        return
    if args.format == "json":
        out.answer(json.dumps(found.to_json(), ensure_ascii=False))
        return
    for step in found:
        out.answer(step.explanation)
    if found.status == "timeout":
        out.answer(f"(time limit reached: {len(found)} step(s) found so far)")
    elif not found.steps:
        out.answer("no step found")


def technique_rows() -> list[dict[str, Any]]:
    """Every technique of the catalog and each of its named forms, as plain data."""
    from ..logic.catalog import CATALOG

    rows = []
    for t in CATALOG:
        rows.append(
            {
                "name": t.name,
                "hodoku": t.hodoku,
                "codes": list(t.codes),
                "level": t.level,
                "score": t.score,
                "se": t.se,
                "uniqueness": t.uniqueness,
                "forms": [
                    dict(
                        zip(
                            ("level", "score", "se"),
                            t.rating(f.name),
                            strict=True,
                        ),
                        name=f.name,
                        hodoku=f.hodoku,
                        codes=list(f.codes or t.codes),
                    )
                    for f in t.forms
                ],
            }
        )
    return rows


def cmd_techniques(args: argparse.Namespace, out: Output) -> None:
    rows = technique_rows()
    if args.format == "json":
        out.answer(json.dumps(rows, ensure_ascii=False))
        return
    for row in rows:
        _line(out, row, "")
        for form in row["forms"]:
            _line(out, form, "  ")


def _line(out: Output, row: dict[str, Any], indent: str) -> None:
    codes = ",".join(row["codes"]) or "-"
    hodoku = f" (HoDoKu: {row['hodoku']})" if row["hodoku"] and row["hodoku"] != row["name"] else ""
    out.answer(
        f"{indent}{row['name']}{hodoku}  code {codes}  {row['level']} {row['score']}  SE {row['se']:.1f}"
    )


def register(commands: Commands) -> None:
    steps = commands.add(
        "steps",
        f"shudu steps {PUZZLE} --technique 0300",
        cmd_steps,
    )
    steps.add_argument("board", help="the board as text, a file holding it, or - for stdin")
    steps.add_argument(
        "--technique",
        metavar="T",
        help="only this technique: shudu's name, HoDoKu's name or HoDoKu's code (0300 = X-Wing)",
    )
    steps.add_argument(
        "--timeout",
        type=seconds("--timeout"),
        metavar="S",
        help="stop after S seconds and list the steps found so far (status: timeout)",
    )
    add_format(steps, "text", "json")
    techniques = commands.add(
        "techniques",
        "shudu techniques --format json",
        cmd_techniques,
    )
    add_format(techniques, "text", "json")
