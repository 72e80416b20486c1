"""The ``shudu`` command: a thin layer over the public API.

Each command reads puzzles (arguments, ``-i FILE`` or stdin), calls one library function per
puzzle and prints one answer per input, in order. Bad input is reported on stderr with its line
number and the exit status is 2; the other inputs are still processed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from .. import __version__
from ..errors import ShuduError
from . import making, solving, teaching
from ._common import EXIT_BAD_INPUT, EXIT_OK, PUZZLE, Commands, Output

__all__ = ["EXIT_BAD_INPUT", "EXIT_OK", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shudu",
        description="shudu (数独): solve, count and explore sudoku puzzles of every size and variant.",
        epilog=f"example:\n  shudu solve {PUZZLE}\n\nRun 'shudu COMMAND --help' for a command's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"shudu {__version__}")
    commands = Commands(parser.add_subparsers(dest="command", metavar="COMMAND"))
    for module in (solving, teaching, making):
        module.register(commands)
    return parser


def main(
    argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Run the command line; return the exit status (0 fine, 2 bad input)."""
    out = Output(stdout or sys.stdout, stderr or sys.stderr)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(out.err)
        return EXIT_BAD_INPUT
    try:
        args.run(args, out)
    except ShuduError as exc:
        out.problem(str(exc))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`); stop quietly
        sys.stderr.close()
        return EXIT_OK
    return EXIT_BAD_INPUT if out.bad_input else EXIT_OK
