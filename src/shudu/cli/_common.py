"""What every command shares: where answers go, how puzzles are read, how commands are added."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from ..errors import ShuduError
from ..formats import Entry, parse_puzzle, read_puzzles
from ..geometry import parse_box
from ..puzzle import VariantLike

EXIT_OK = 0
EXIT_BAD_INPUT = 2

#: The example puzzle of the help texts.
PUZZLE = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


class Output:
    """Where a command writes: answers to stdout, problems to stderr; remembers bad input."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out, self.err = out, err
        self.bad_input = False

    def answer(self, text: str) -> None:
        self.out.write(text + "\n")

    def problem(self, message: str) -> None:
        self.bad_input = True
        self.err.write(f"shudu: {message}\n")

    def note(self, message: str) -> None:
        self.err.write(f"shudu: {message}\n")


Command = Callable[[argparse.Namespace, Output], None]


class Commands:
    """Adds the subcommands of ``shudu``, each with its help text and an example."""

    def __init__(self, subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        self._subparsers = subparsers

    def add(self, name: str, help: str, example: str, run: Command) -> argparse.ArgumentParser:
        sub = self._subparsers.add_parser(
            name,
            help=help,
            description=help,
            epilog=f"example:\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.set_defaults(run=run)
        return sub


def read_variant(args: argparse.Namespace) -> VariantLike:
    """The --variant value (a name, or a JSON file of variant fields) plus --layout."""
    value: str | None = args.variant
    fields: dict[str, Any] = {}
    if value and (value.endswith(".json") or os.path.sep in value or Path(value).is_file()):
        path = Path(value)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ShuduError(f"cannot read variant file {value}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise ShuduError(f"variant file {value}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
        if not isinstance(data, dict):
            raise ShuduError(
                f'variant file {value}: expected a JSON object with "variant", "regions" or "layout"'
            )
        fields = {k: data[k] for k in ("variant", "regions", "layout") if k in data}
    elif value:
        fields["variant"] = value
    if getattr(args, "layout", None):
        fields["layout"] = args.layout
        fields.setdefault("variant", "jigsaw")
    if not fields:
        return None
    if set(fields) == {"variant"}:
        return str(fields["variant"])
    return fields


def read_entries(args: argparse.Namespace) -> Iterator[Entry]:
    """The puzzles to work on, each with its input line (or argument position) and any error."""
    box = parse_box(args.box) if args.box else None
    variant = read_variant(args)
    if args.puzzles:
        for number, text in enumerate(args.puzzles, start=1):
            try:
                yield Entry(number, text, parse_puzzle(text, box=box, variant=variant), None)
            except ShuduError as exc:
                yield Entry(number, text, None, exc.at_line(number))
        return
    if args.input and args.input != "-":
        try:
            with open(args.input, encoding="utf-8") as stream:
                yield from read_puzzles(stream, box=box, variant=variant)
        except OSError as exc:
            raise ShuduError(f"cannot read {args.input}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise ShuduError(f"{args.input} is not a UTF-8 text file") from None
        return
    yield from read_puzzles(sys.stdin, box=box, variant=variant)


def add_input(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "puzzles", nargs="*", metavar="PUZZLE", help="puzzles as text (line, grid or JSON form)"
    )
    parser.add_argument(
        "-i", "--input", metavar="FILE", help="read puzzles from FILE, one a line ('-' = stdin)"
    )
    parser.add_argument(
        "--variant",
        metavar="NAME|FILE",
        help="variant name (see 'shudu variants'; join with +) or a JSON file of regions",
    )
    parser.add_argument(
        "--box",
        metavar="RxC",
        help="box shape, e.g. 3x2 for 6x6 with boxes of 3 rows and 2 columns",
    )
    parser.add_argument("--layout", metavar="LABELS", help="jigsaw layout: n*n region labels, one per cell")
    parser.add_argument(
        "--algorithm",
        default="auto",
        metavar="NAME",
        help="solving algorithm (see 'shudu algorithms'; default: auto)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="give up on a puzzle after this long (status: timeout)",
    )
    parser.add_argument(
        "--node-limit", type=int, metavar="N", help="give up on a puzzle after N search steps"
    )


def add_format(parser: argparse.ArgumentParser, *forms: str) -> None:
    """A ``--format`` option choosing among ``forms``; the first is the default."""
    default = forms[0]
    parser.add_argument("--format", choices=forms, default=default, help=f"output form (default: {default})")
