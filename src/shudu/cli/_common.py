"""What the commands share: how puzzles are read and how options are checked. The frame they run
in (where answers go, the parser, the table of commands) is :mod:`shudu.cli._base`."""

from __future__ import annotations

import argparse
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import OptionError, ParseError, ShuduError, check_count, check_seconds
from ..formats import Entry, load_json, parse_puzzle, read_puzzles
from ..geometry import Box, parse_box
from ..notation import LEVELS, MAX_SIZE, MIN_SIZE
from ..variants import VariantLike
from ._system import stdin_lines


def seconds(option: str) -> Callable[[str], float | None]:
    """An argparse ``type`` for a time limit: a number of seconds, checked by
    :func:`~shudu.errors.check_seconds` (greater than 0, finite)."""

    def convert(text: str) -> float | None:
        try:
            value = float(text)
        except ValueError:
            value = None
        try:
            return check_seconds(text if value is None else value, option)
        except OptionError:
            # say what was typed ('nan', '1e999'), not what float() made of it
            raise argparse.ArgumentTypeError(str(_refused(text, option, check_seconds))) from None

    convert.__name__ = "seconds"
    return convert


def count(option: str, *, minimum: int = 0, maximum: int | None = None) -> Callable[[str], int | None]:
    """An argparse ``type`` for a whole number from ``minimum`` to ``maximum``, checked by
    :func:`~shudu.errors.check_count` (``maximum`` None: the largest the engines take)."""

    def check(value: object, name: str) -> int | None:
        return check_count(value, name, minimum=minimum, maximum=maximum)

    def convert(text: str) -> int | None:
        try:
            value: object = int(text)
        except ValueError:
            value = text
        try:
            return check(value, option)
        except OptionError:
            raise argparse.ArgumentTypeError(str(_refused(text, option, check))) from None

    convert.__name__ = "count"
    return convert


_SPAN = re.compile(r"\s*(\d+(?:\.\d*)?)\s*(?:[-–:]\s*(\d+(?:\.\d*)?)\s*)?")


def span(option: str, what: str, example: str, kind: type) -> Callable[[str], str]:
    """An argparse ``type`` for ``N`` or ``MIN-MAX`` (``--se``, ``--clues``): the text, checked
    here so that a bad one is named by its option and its own form."""

    def convert(text: str) -> str:
        found = _SPAN.fullmatch(text)
        problem = None
        if found is None:
            problem = f"must be {what} or a MIN-MAX range, e.g. {example}"
        else:
            try:
                low = kind(found[1])
                high = kind(found[2]) if found[2] is not None else low
            except ValueError:
                problem = f"must be whole numbers or a MIN-MAX range of them, e.g. {example}"
            else:
                if low > high:
                    problem = f"is an empty range (its minimum is above its maximum), e.g. {example}"
        if problem:
            shown = printable(text if len(text) <= 40 else text[:37] + "...")
            raise argparse.ArgumentTypeError(f"{option} {problem}, not {shown!r}")
        return text

    convert.__name__ = "range"
    return convert


def _refused(text: str, option: str, check: Callable[[object, str], object]) -> OptionError:
    """The checker's error for the text as typed."""
    shown = text if len(text) <= 40 else text[:37] + "..."
    try:
        check(shown, option)  # a str is never a number: this always raises
    except OptionError as exc:
        return exc
    raise AssertionError("unreachable")  # pragma: no cover


def read_variant(args: argparse.Namespace) -> VariantLike:
    """The --variant value (a name, or a JSON file of variant fields) plus --layout."""
    value: str | None = args.variant
    fields: dict[str, Any] = {}
    if value is not None and not value.strip():
        raise ShuduError("--variant is empty: give a name (x, windoku, x+anti-king …) or a JSON file")
    if value and (value.endswith(".json") or os.path.sep in value or path_kind(value) == "file"):
        path = Path(value)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise ShuduError(f"cannot read variant file {value}: {exc.strerror}") from None
        try:
            data = load_json(raw.decode("utf-8-sig"), what=f"variant file {value}")
        except UnicodeDecodeError as exc:
            raise ShuduError(
                f"variant file {value} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
            ) from None
        except json.JSONDecodeError as exc:
            raise ShuduError(f"variant file {value}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
        if not isinstance(data, dict):
            raise ShuduError(
                f'variant file {value}: expected a JSON object with "variant", "regions", "layout" or "rules"'
            )
        fields = {k: data[k] for k in ("variant", "regions", "layout", "rules") if k in data}
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
    """The puzzles to work on, each with its input line (or argument position) and any error.

    A lone PUZZLE argument that is ``-`` or names an existing file is read as ``-i`` would read it.
    """
    box = parse_box(args.box) if args.box else None
    variant = read_variant(args)
    puzzles: list[str] = list(args.puzzles or ())
    source: str | None = args.input
    if len(puzzles) == 1 and (puzzles[0] == "-" or names_file(puzzles[0])):
        source, puzzles = puzzles[0], []
    if puzzles:
        for number, text in enumerate(puzzles, start=1):
            yield _argument_entry(number, text, box, variant)
        return
    if source and source != "-":
        if path_kind(source) == "folder":
            raise ShuduError(f"cannot read {source}: it is a directory, not a file of puzzles")
        try:
            with open(source, "rb") as stream:
                yield from read_puzzles(_lines(stream), box=box, variant=variant)
        except OSError as exc:
            raise ShuduError(f"cannot read {source}: {exc.strerror}") from None
        return
    yield from read_puzzles(stdin_lines(), box=box, variant=variant)


def _argument_entry(number: int, text: str, box: Box | None, variant: VariantLike) -> Entry:
    """The puzzle of the ``number``-th PUZZLE argument, or its error."""
    try:
        return Entry(number, text, parse_puzzle(argument_text(text), box=box, variant=variant), None)
    except ShuduError as exc:
        problem = path_problem(text, "PUZZLE", "a puzzle")
        error = ShuduError(problem) if problem else exc
        return Entry(number, printable(text), None, error.at_line(number))


def argument_text(text: str) -> str:
    """A command-line argument as text; a :class:`ParseError` when its bytes are not UTF-8
    (Python hands such bytes over as lone surrogates, which no reader would name)."""
    if not any("\udc80" <= char <= "\udcff" for char in text):
        return text
    raw = os.fsencode(text)
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = len(raw[: exc.start].decode("utf-8")) + 1
        raise ParseError(
            f"the argument is not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {column})",
            column=column,
        ) from None
    return text


def printable(text: str) -> str:
    """An argument that may hold bytes that are not UTF-8, with U+FFFD for each, fit to print."""
    if not any("\udc80" <= char <= "\udcff" for char in text):
        return text
    return os.fsencode(text).decode("utf-8", errors="replace")


def names_file(text: str) -> bool:
    """Whether a command-line argument names an existing file (and could not be puzzle text)."""
    return len(text) < 4096 and "\n" not in text and "\x00" not in text and path_kind(text) == "file"


def path_kind(text: str) -> str | None:
    """``file``, ``folder``, ``other`` (a device, a pipe) or None: what the path ``text`` names.
    A name no file can have (too long, say) names nothing, and is no error: it may be a puzzle."""
    try:
        mode = os.stat(text).st_mode
    except (OSError, ValueError):
        return None
    return "file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else "other"


_PATH_LIKE = re.compile(r"[^\s{}:]*\.[A-Za-z][A-Za-z0-9]{0,7}")


def path_problem(text: str, what: str, kind: str) -> str | None:
    """Why an argument that is not ``kind`` (a puzzle, a board) but looks like a path cannot be
    read: it is a directory, or a file name (a ``/``, or an ending such as ``.txt``) that does
    not exist. None when it does not look like a path."""
    if len(text) >= 4096 or "\n" in text or "\x00" in text or not text.strip():
        return None
    found = path_kind(text)
    if found == "folder":
        return f"{what} {printable(text)!r} is a directory, not {kind} or a file holding one"
    if found is not None:
        return None
    if "/" in text or os.sep in text or _PATH_LIKE.fullmatch(text):
        return f"{what} {printable(text)!r} is not {kind}, and no such file exists"
    return None


def _lines(stream: BinaryIO) -> Iterable[bytes]:
    """The lines of a binary stream, undecoded: :func:`~shudu.formats.read_puzzles` decodes each
    one, so that a line that is not UTF-8 is an error of that line alone."""
    return iter(stream)


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
        type=seconds("--timeout"),
        metavar="SECONDS",
        help="give up on a puzzle after this long (status: timeout); a number greater than 0",
    )
    parser.add_argument(
        "--node-limit",
        type=count("--node-limit", minimum=1),
        metavar="N",
        help="give up on a puzzle after N search steps (status: timeout); N at least 1",
    )


def add_format(parser: argparse.ArgumentParser, *forms: str) -> None:
    """A ``--format`` option choosing among ``forms``; the first is the default."""
    default = forms[0]
    parser.add_argument("--format", choices=forms, default=default, help=f"output form (default: {default})")


def add_parallel(
    parser: argparse.ArgumentParser, *, jobs: str, dask: str, chunk: str, most_chunk: int
) -> None:
    """Where the work runs: ``--jobs N`` local processes, ``--dask local|ADDRESS``, and
    ``--chunk N`` puzzles per unit of work; the help texts say what each means for the command."""
    parser.add_argument(
        "--jobs", type=count("--jobs", minimum=1, maximum=256), default=1, metavar="N", help=jobs
    )
    parser.add_argument("--dask", metavar="local|ADDRESS", help=dask)
    parser.add_argument(
        "--chunk", type=count("--chunk", minimum=1, maximum=most_chunk), metavar="N", help=chunk
    )


#: An argparse ``type`` for ``--size``: a grid size shudu handles.
SIZE = count("--size", minimum=MIN_SIZE, maximum=MAX_SIZE)


def add_shape(
    parser: argparse.ArgumentParser,
    *,
    size: str,
    variant: str,
    box: str = "box shape, e.g. 3x2",
    layout: str | None = "jigsaw layout: n*n region labels, one per cell",
) -> None:
    """The shape of the puzzles to make: ``--size`` (default 9), ``--box``, ``--variant`` and,
    unless ``layout`` is None, ``--layout``; the arguments are their help texts."""
    parser.add_argument("--size", type=SIZE, default=9, help=size)
    parser.add_argument("--box", metavar="RxC", help=box)
    parser.add_argument("--variant", metavar="NAME|FILE", help=variant)
    if layout is not None:
        parser.add_argument("--layout", metavar="LABELS", help=layout)


def add_amount(parser: argparse.ArgumentParser, *, default: int, count_help: str, seed_help: str) -> None:
    """How many puzzles to make, ``--count`` (``default``), and from what ``--seed``."""
    parser.add_argument("--count", type=count("--count", minimum=1), default=default, help=count_help)
    parser.add_argument("--seed", type=count("--seed"), help=seed_help)


def add_targets(parser: argparse.ArgumentParser, *, level_help: str | None = None) -> None:
    """The options that say what puzzles to make (``generate``, ``batch generate``, ``bank``).
    ``level_help`` given: ``--level`` takes any name, for the generator to check, with this help."""
    if level_help is None:
        parser.add_argument("--level", choices=LEVELS, help="difficulty level")
    else:
        parser.add_argument("--level", help=level_help)
    parser.add_argument(
        "--se",
        type=span("--se", "a Sudoku Explainer rating", "6.6-7.2", float),
        metavar="MIN-MAX",
        help="Sudoku Explainer rating range, e.g. 6.6-7.2",
    )
    parser.add_argument(
        "--technique", metavar="NAME", help="a technique the solving path must use, e.g. X-Wing"
    )
    parser.add_argument(
        "--symmetry",
        default="none",
        metavar="NAME",
        help="symmetry of the givens: none, rot180, rot90, mirror, flip, diagonal, antidiagonal, "
        "biaxial, bidiagonal, dihedral (default: none)",
    )
    parser.add_argument(
        "--clues",
        "--givens",
        dest="clues",
        type=span("--clues", "a number of givens", "24-28", int),
        metavar="N|MIN-MAX",
        help="number of givens, e.g. 25 or 24-28 (a killer puzzle: 0 unless given)",
    )
    parser.add_argument("--minimal", action="store_true", help="no given can be removed")


def targets(args: argparse.Namespace) -> dict[str, Any]:
    """The options of :func:`add_shape` and :func:`add_targets`, as ``shudu.generate`` takes them."""
    return {
        "size": args.size,
        "box": args.box,
        "variant": read_variant(args),
        "level": args.level,
        "se": args.se,
        "technique": args.technique,
        "symmetry": args.symmetry,
        "clues": args.clues,
        "minimal": args.minimal,
    }
