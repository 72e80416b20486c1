"""The ``shudu`` command: a thin layer over the public API.

Each command reads puzzles (arguments, ``-i FILE`` or stdin), calls one library function per
puzzle and prints one answer per input, in order. Bad input is reported on stderr as
``shudu: line N: MESSAGE`` and the exit status is 2; the other inputs are still answered. A bad
option is reported the same way, before any input is read. docs/errors.md has the whole contract.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterable, Sequence
from typing import TextIO, cast

from ..errors import ShuduError
from ..notation import Exit
from ._base import COMMANDS, PUZZLE, Commands, Output, Parser, find_command
from ._system import Stream, guarded

__all__ = ["EXIT_BAD_INPUT", "EXIT_OK", "build_parser", "main", "version_text"]

#: Kept for callers of the former names; :class:`shudu.notation.Exit` is the table.
EXIT_OK = Exit.OK
EXIT_BAD_INPUT = Exit.INVALID


def build_parser(commands: Iterable[str] | None = None) -> Parser:
    """The parser of ``shudu``. Every command of :data:`~shudu.cli._base.COMMANDS` is listed with
    its help; those named in ``commands`` (None: all) also get their options, which loads their
    modules."""
    parser = Parser(
        prog="shudu",
        description="shudu (数独): solve, count and explore sudoku puzzles of every size and variant.",
        epilog=f"example:\n  shudu solve {PUZZLE}\n\nRun 'shudu COMMAND --help' for a command's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="store_true", help="print the version and which engine runs, then exit"
    )
    table = Commands(parser.add_subparsers(dest="command", metavar="COMMAND"))
    for entry in COMMANDS:
        table.list(entry)
    wanted = [entry.module for entry in COMMANDS] if commands is None else _modules_of(commands)
    for module in dict.fromkeys(wanted):
        importlib.import_module(f"{__name__}.{module}").register(table)
    return parser


def _modules_of(names: Iterable[str]) -> list[str]:
    found = (find_command(name) for name in names)
    return [entry.module for entry in found if entry is not None]


def chosen_command(argv: Sequence[str]) -> str | None:
    """The command a command line names: its first word that is no option (``shudu`` itself
    takes no option with a value), or None."""
    return next((word for word in argv if not word.startswith("-")), None)


def version_text() -> str:
    """``shudu 0.1.0 (C core)``, or which pure-Python engine runs and why."""
    from .. import __version__
    from ..solvers import fast

    return f"shudu {__version__} ({fast.engine_description()})"


def main(
    argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Run the command line; return the exit status (:class:`shudu.notation.Exit`: 0 every input
    answered, 2 some input or option was bad or an output could not be written, 130 interrupted,
    141 the reader of stdout went away, 143 terminated). ``stdout`` and ``stderr`` None: the
    process's own streams, guarded as :mod:`shudu.cli._system` says."""

    def command(out: Stream, err: Stream) -> int:
        return _run(argv, Output(cast(TextIO, out), cast(TextIO, err)))

    return guarded(command, stdout, stderr)


def _run(argv: Sequence[str] | None, out: Output) -> int:
    words = sys.argv[1:] if argv is None else argv
    command = chosen_command(words)
    parser = build_parser([command] if command is not None else [])
    try:
        args = parser.parse_args(words)
        if args.version:
            out.answer(version_text())
            return Exit.OK
        if not getattr(args, "run", None):
            parser.print_help(out.err)
            return Exit.INVALID
        args.run(args, out)
    except ShuduError as exc:
        out.problem(str(exc))
    except UnicodeDecodeError as exc:
        # a command that reads text where bytes came: still one clean line, not a traceback
        out.problem(f"the input is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})")
    except OSError as exc:
        # a file the command meant to use; the standard streams are guarded apart
        where = f"{os.fsdecode(exc.filename)}: " if exc.filename is not None else ""
        out.problem(f"{where}{exc.strerror or exc}")
    return Exit.INVALID if out.bad_input else Exit.OK
