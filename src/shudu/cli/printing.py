"""``shudu render``, ``shudu convert`` and ``shudu book``: pictures, other programs' formats, books."""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterable
from pathlib import Path

from ..errors import ShuduError
from ..notation import LEVELS, MAX_SIZE, MIN_SIZE
from ._base import PUZZLE, Commands, Output
from ._common import add_input, argument_text, count, read_entries, read_variant, seconds
from ._system import stdin_bytes


def _write(path: str, data: str | bytes, out: Output) -> None:
    """Write ``data`` to ``path`` (``-``: standard output, text only)."""
    if path == "-":
        if isinstance(data, bytes):
            raise ShuduError("binary output (PNG, PDF) needs a file: give -o FILE")
        out.out.write(data)
        return
    try:
        Path(path).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    except OSError as exc:
        raise ShuduError(f"cannot write {path}: {exc.strerror}") from None


def _numbered(path: str, number: int, total: int) -> str:
    """``out.svg`` for one picture; ``out-1.svg``, ``out-2.svg`` … for several."""
    if total == 1 or path == "-":
        return path
    p = Path(path)
    return str(p.with_name(f"{p.stem}-{number}{p.suffix}"))


def cmd_render(args: argparse.Namespace, out: Output) -> None:
    from ..api import solve
    from ..render import render as draw_svg
    from ..render import render_explanation_step, svg_to_png

    suffix = Path(args.output).suffix.lower() if args.output != "-" else ".svg"
    if suffix not in (".svg", ".png"):
        raise ShuduError(f"-o {args.output}: the picture's file name must end in .svg or .png")
    entries = list(read_entries(args))
    good = [e for e in entries if e.puzzle is not None]
    for entry in entries:
        if entry.error is not None:
            out.problem(str(entry.error))
    for number, entry in enumerate(good, start=1):
        puzzle = entry.puzzle
        assert puzzle is not None
        if args.step:
            from ..workshop import explain

            explanation = explain(puzzle, allow_multiple=True, timeout=args.timeout)
            try:
                svg = render_explanation_step(explanation, args.step)
            except ShuduError as exc:
                out.problem(f"line {entry.line}: {exc}")
                continue
        else:
            solution = None
            if args.solution:
                result = solve(
                    puzzle, algorithm=args.algorithm, timeout=args.timeout, node_limit=args.node_limit
                )
                if result.solution is None:
                    out.problem(f"line {entry.line}: the puzzle has no solution to draw ({result.status})")
                    continue
                solution = result.solution
            svg = draw_svg(puzzle, solution=solution, candidates=args.candidates)
        target = _numbered(args.output, number, len(good))
        _write(target, svg_to_png(svg, scale=args.scale) if suffix == ".png" else svg, out)
        if target != "-":
            out.note(f"wrote {target}")


def cmd_convert(args: argparse.Namespace, out: Output) -> None:
    from ..formats import document_separator, format_sdm, read_document, split_documents, write_document

    pieces: list[tuple[int | None, str]]
    if args.input:
        source = args.input
        try:
            raw = stdin_bytes() if source == "-" else Path(source).read_bytes()
        except OSError as exc:
            raise ShuduError(f"cannot read {source}: {exc.strerror}") from None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            raise ShuduError(
                f"line {line}: {source} is not UTF-8 text (byte 0x{raw[exc.start]:02x})"
            ) from None
        # a file may hold several puzzles (a .sdm file, HoDoKu library lines, blocks): each is
        # read and written; a file of one puzzle keeps the messages of one puzzle
        found = split_documents(text)
        pieces = [(number if len(found) > 1 else None, piece) for number, piece in found]
    elif args.puzzles:
        pieces = [(number, argument_text(text)) for number, text in enumerate(args.puzzles, start=1)]
        if len(pieces) == 1:
            pieces = [(None, pieces[0][1])]
    else:
        raise ShuduError("give a puzzle, or -i FILE ('-' for standard input)")
    as_sdm = args.to == "sdk" and (len(pieces) > 1 or args.output.lower().endswith(".sdm"))
    written = []
    for number, text in pieces:
        try:
            doc = read_document(text, args.source_format, line=number)
            written.append(format_sdm([doc]) if as_sdm else write_document(doc, args.to))
        except ShuduError as exc:
            out.problem(str(exc if exc.line is not None or number is None else exc.at_line(number)))
    if written:
        _write(args.output, document_separator(args.to).join(written) + "\n", out)


def _either(choices: Iterable[object]) -> str:
    """``1, 2, 4 or 6``."""
    names = [str(c) for c in choices]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


#: The PNG scales ``--scale`` accepts.
SCALE_RANGE = (0.1, 20.0)


def _scale(text: str) -> float:
    """An argparse ``type`` for ``--scale``: a number from 0.1 to 20."""
    low, high = SCALE_RANGE
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # NaN fails too
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise argparse.ArgumentTypeError(f"--scale must be a number from {low:g} to {high:g}, not {shown!r}")
    return value


def _per_page(text: str) -> int:
    """An argparse ``type`` for ``--per-page``: 1, 2, 4 or 6."""
    from ..render.pdf import LAYOUTS

    if text.strip() in {str(k) for k in LAYOUTS}:
        return int(text)
    shown = text if len(text) <= 40 else text[:37] + "..."
    raise argparse.ArgumentTypeError(f"--per-page must be {_either(LAYOUTS)} puzzles a page, not {shown!r}")


def _page_size(text: str) -> str:
    """An argparse ``type`` for ``--page``: a4 or letter, in any case."""
    from ..render.pdf import PAGE_SIZES

    if text.lower() in PAGE_SIZES:
        return text.lower()
    shown = text if len(text) <= 40 else text[:37] + "..."
    raise argparse.ArgumentTypeError(f"--page must be {_either(PAGE_SIZES)}, not {shown!r}")


def _mix(text: str) -> tuple[str, ...]:
    """An argparse ``type`` for ``--mix``: levels separated by commas."""
    levels = tuple(part.strip() for part in text.split(","))
    for name in levels:
        if name not in LEVELS:
            shown = name if len(name) <= 40 else name[:37] + "..."
            raise argparse.ArgumentTypeError(
                f"--mix has an unknown level {shown!r}; choose from {', '.join(LEVELS)}"
            )
    return levels


def cmd_book(args: argparse.Namespace, out: Output) -> None:
    import random

    from ..book import book
    from ..render.pdf import page_count

    if args.output == "-" or Path(args.output).suffix.lower() != ".pdf":
        raise ShuduError(f"-o {args.output}: the book's file name must end in .pdf")
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    pdf = book(
        args.count,
        level=args.level,
        mix=args.mix,
        size=args.size,
        box=args.box,
        variant=read_variant(args),
        per_page=args.per_page,
        page_size=args.page,
        title=args.title,
        solutions=not args.no_solutions,
        seed=seed,
        timeout=args.timeout,
    )
    _write(args.output, pdf, out)
    pages = page_count(
        args.count, args.per_page, title=args.title is not None, solutions=not args.no_solutions
    )
    out.note(f"wrote {args.output}: {args.count} puzzles on {pages} pages (seed {seed})")


def register(commands: Commands) -> None:
    _add_convert(commands)
    _add_render(commands)
    _add_book(commands)


def _add_convert(commands: Commands) -> None:
    from ..formats import FORMATS

    convert = commands.add(
        "convert",
        f"shudu convert {PUZZLE} --to ss\n  shudu convert -i puzzle.sdk --to fpuzzles",
        cmd_convert,
    )
    convert.add_argument("puzzles", nargs="*", metavar="PUZZLE", help="puzzles as text (each one argument)")
    convert.add_argument(
        "-i", "--input", metavar="FILE", help="read the puzzles of FILE, in any one format ('-' = stdin)"
    )
    convert.add_argument("--to", required=True, choices=FORMATS, help="the format to write")
    convert.add_argument(
        "--from", dest="source_format", choices=FORMATS, help="the format to read (default: detected)"
    )
    convert.add_argument(
        "-o", "--output", default="-", metavar="FILE", help="write to FILE (default: stdout)"
    )


def _add_render(commands: Commands) -> None:
    render = commands.add(
        "render",
        f"shudu render {PUZZLE} -o puzzle.svg\n  shudu render {PUZZLE} --step 3 -o step3.png",
        cmd_render,
    )
    add_input(render)
    render.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="FILE.svg or FILE.png ('-': SVG on stdout)"
    )
    render.add_argument("--candidates", action="store_true", help="draw the pencil marks of the open cells")
    render.add_argument(
        "--solution", action="store_true", help="fill the open cells with the solution, in grey"
    )
    render.add_argument(
        "--step",
        type=count("--step", minimum=1),
        metavar="N",
        help="draw step N (from 1) of the simplest-first solving path, on the board as it stands then",
    )
    render.add_argument(
        "--scale", type=_scale, default=1.0, metavar="X", help="PNG scale, 0.1 to 20 (default 1)"
    )


def _add_book(commands: Commands) -> None:
    book = commands.add(
        "book",
        "shudu book --level hard --count 50 -o book.pdf\n"
        "  shudu book --size 6 --mix --per-page 6 --page letter --title 'Six by six' --seed 7 -o six.pdf",
        cmd_book,
    )
    book.add_argument("-o", "--output", required=True, metavar="FILE", help="the PDF to write (FILE.pdf)")
    book.add_argument(
        "--count",
        type=count("--count", minimum=1, maximum=1000),
        default=12,
        help="how many puzzles, 1 to 1000 (default: 12)",
    )
    levels = book.add_mutually_exclusive_group()
    levels.add_argument("--level", choices=LEVELS, help="the difficulty of every puzzle")
    levels.add_argument(
        "--mix",
        type=_mix,
        nargs="?",
        const=LEVELS,
        metavar="LEVELS",
        help="one puzzle of each level in turn: all five, or those given, e.g. easy,medium,hard",
    )
    book.add_argument(
        "--size",
        type=count("--size", minimum=MIN_SIZE, maximum=MAX_SIZE),
        default=9,
        help=f"grid size, {MIN_SIZE} to {MAX_SIZE} (default: 9)",
    )
    book.add_argument("--box", metavar="RxC", help="box shape, e.g. 3x2 for 6x6 with boxes of 3 rows")
    book.add_argument(
        "--variant",
        metavar="NAME|FILE",
        help="variant name (see 'shudu variants'; jigsaw draws random layouts) or a JSON file of regions",
    )
    book.add_argument("--layout", metavar="LABELS", help="jigsaw layout: n*n region labels, one per cell")
    book.add_argument(
        "--per-page", type=_per_page, default=4, metavar="N", help="puzzles a page: 1, 2, 4 or 6 (default: 4)"
    )
    book.add_argument(
        "--page", type=_page_size, default="a4", metavar="SIZE", help="page size: a4 or letter (default: a4)"
    )
    book.add_argument("--title", metavar="TEXT", help="a title page with this title (Latin-1 text)")
    book.add_argument("--no-solutions", action="store_true", help="leave out the solutions at the back")
    book.add_argument(
        "--seed",
        type=count("--seed"),
        help="random seed, a whole number from 0: the same seed and options give the same PDF",
    )
    book.add_argument(
        "--timeout",
        type=seconds("--timeout"),
        default=300.0,
        metavar="SECONDS",
        help="stop making puzzles after this long (default: 300)",
    )
