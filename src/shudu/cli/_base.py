"""The frame of the ``shudu`` command, light enough to load before any command: the table of
commands, the parser that reports a bad command line as bad input, and where answers go.

A command's module (``solving``, ``making`` …) is imported only when that command runs, or when
its options are asked for (``shudu COMMAND --help``); ``shudu --help`` lists every command from
:data:`COMMANDS` alone.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, NoReturn, TextIO

from ..errors import ShuduError
from ._system import Stream

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

#: The example puzzle of the help texts.
PUZZLE = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


class CommandEntry(NamedTuple):
    """One command of ``shudu``: its name, the module of :mod:`shudu.cli` that adds its options
    and runs it (with a ``register(commands)`` function), and its one-line help."""

    name: str
    module: str
    help: str


#: Every command, in the order ``shudu --help`` lists them. Its help text is written here only.
COMMANDS: tuple[CommandEntry, ...] = (
    CommandEntry("solve", "solving", "solve puzzles; print one answer per input, in order"),
    CommandEntry(
        "count", "solving", "count the solutions of puzzles (printed as ≥N when the limit was reached)"
    ),
    CommandEntry("variants", "solving", "list the variants with their rules"),
    CommandEntry(
        "rules",
        "solving",
        "list the constraint rules (killer cages, arrows, thermometers, dots, lines …) with an example each",
    ),
    CommandEntry("algorithms", "solving", "list the solving algorithms"),
    CommandEntry(
        "candidates",
        "workshop",
        "the true candidates of each cell (the digits some solution has there) and the solution count",
    ),
    CommandEntry(
        "make-unique", "workshop", "the fewest givens to add so that a puzzle with several solutions has one"
    ),
    CommandEntry(
        "redundant",
        "workshop",
        "the givens and rules of a unique puzzle that can go without losing uniqueness; is it minimal?",
    ),
    CommandEntry(
        "backdoors",
        "workshop",
        "the fewest cells which, given their solution digits, let a set of techniques finish a puzzle",
    ),
    CommandEntry(
        "bottlenecks",
        "workshop",
        "where every way on at a puzzle's level makes the same deduction (a tight spot: one way on)",
    ),
    CommandEntry(
        "train",
        "workshop",
        "boards from real puzzles on which a technique is the next step, each with its step as the answer",
    ),
    CommandEntry(
        "why-not",
        "workshop",
        "why a digit cannot go in a cell: the shortest refutation of the logic engine, rated like a step",
    ),
    CommandEntry(
        "rate",
        "teaching",
        "rate the difficulty of puzzles: level, HoDoKu-style score, SE-style rating, hardest technique",
    ),
    CommandEntry(
        "explain",
        "teaching",
        "show the simplest-first solving path of puzzles, one step a line, with a summary",
    ),
    CommandEntry(
        "hint",
        "teaching",
        "the next step of a puzzle or a player's board (JSON with entries and pencil marks)",
    ),
    CommandEntry(
        "steps",
        "listing",
        "list every step available on a board (a puzzle, a JSON board, a candidate grid or a HoDoKu"
        " library line), or those of one technique",
    ),
    CommandEntry(
        "techniques",
        "listing",
        "list every technique with its names, HoDoKu code, level, score and Sudoku Explainer rating",
    ),
    CommandEntry(
        "generate",
        "making",
        "generate random puzzles with one solution, at the difficulty asked for (see docs/generator.md)",
    ),
    CommandEntry(
        "serve", "making", "serve the web page: play, solve and learn in a browser (needs the web extra)"
    ),
    CommandEntry(
        "bank",
        "making",
        "show the puzzle bank (puzzles not served yet); fill it from the generator on every core or a"
        " Dask cluster; export it; import a rated batch output",
    ),
    CommandEntry(
        "convert",
        "printing",
        "convert a puzzle between shudu's forms and other programs' formats (format detected on read)",
    ),
    CommandEntry(
        "render",
        "printing",
        "draw puzzles as SVG or PNG: the grid, its variant's regions, pencil marks, a solution or a step",
    ),
    CommandEntry(
        "book",
        "printing",
        "make a PDF puzzle book of new puzzles, 1, 2, 4 or 6 a page, solutions at the back (needs the"
        " book extra)",
    ),
    CommandEntry(
        "batch",
        "batch",
        "solve, count, rate or explain a whole file of puzzles, or generate many: every core or a Dask"
        " cluster, into JSON lines, CSV or Parquet, resumable after a kill (see docs/batch.md)",
    ),
)

_BY_NAME = {entry.name: entry for entry in COMMANDS}


def find_command(name: str) -> CommandEntry | None:
    """The table's entry of the command ``name``, or None."""
    return _BY_NAME.get(name)


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


class UsageError(ShuduError):
    """A command line that argparse refuses: an unknown option, a missing value, a bad choice."""


class Parser(argparse.ArgumentParser):
    """An argument parser that reports a bad command line like any other bad input: one
    ``shudu: MESSAGE`` line on stderr and exit status 2 (see :func:`shudu.cli.main`)."""

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        # to stdout, guarded: a closed or full stdout is said, not lost (argparse swallows it)
        self._print_message(self.format_help(), file if file is not None else Stream(sys.stdout))

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            (file if file is not None else Stream(sys.stderr, quiet=True)).write(message)

    def error(self, message: str) -> NoReturn:
        # argparse says "argument --limit: MESSAGE"; the checkers' messages already start
        # with the option's name, so it is not said twice; the others read "--format: …".
        message = re.sub(r"^argument (\S+): (?=\1[ :])", "", message)
        message = re.sub(r"^argument (\S+): ", r"\1: ", message)
        raise UsageError(f"{message} (see '{self.prog} --help')")


class Commands:
    """Adds the subcommands of ``shudu``: each with the help text of :data:`COMMANDS` and an
    example. A command already listed by its name alone (:meth:`list`) is completed in place."""

    def __init__(self, subparsers: argparse._SubParsersAction[Parser]) -> None:
        self._subparsers = subparsers

    def list(self, entry: CommandEntry) -> Parser:
        """List a command by its name and help text, without its options yet."""
        return self._subparsers.add_parser(
            entry.name,
            help=entry.help,
            description=entry.help,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    def add(self, name: str, example: str, run: Command) -> Parser:
        """The parser of the command ``name`` (one of :data:`COMMANDS`), which ``run`` runs;
        its options are for the caller to add."""
        entry = _BY_NAME.get(name)
        if entry is None:
            raise ValueError(f"'{name}' is not in the table of commands (shudu.cli._base.COMMANDS)")
        sub = self._subparsers.choices.get(name)
        if sub is None:
            sub = self.list(entry)
        sub.epilog = f"example:\n  {example}"
        sub.set_defaults(run=run)
        return sub
