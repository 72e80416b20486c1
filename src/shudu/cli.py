"""The ``shudu`` command: a thin layer over the public API.

Each command reads puzzles (arguments, ``-i FILE`` or stdin), calls one library function per
puzzle and prints one answer per input, in order. Bad input is reported on stderr with its line
number and the exit status is 2; the other inputs are still processed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from . import __version__, api, solvers
from . import variants as variant_registry
from .errors import SearchTimeout, ShuduError, SolverError
from .formats import Entry, format_grid, parse_puzzle, read_puzzles
from .geometry import parse_box
from .puzzle import VariantLike

EXIT_OK = 0
EXIT_BAD_INPUT = 2

Command = Callable[[argparse.Namespace, "Output"], None]


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


# --- reading puzzles ----------------------------------------------------------------------


def _variant(args: argparse.Namespace) -> VariantLike:
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


def _entries(args: argparse.Namespace) -> Iterator[Entry]:
    """The puzzles to work on, each with its input line (or argument position) and any error."""
    box = parse_box(args.box) if args.box else None
    variant = _variant(args)
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


# --- commands -----------------------------------------------------------------------------


def cmd_solve(args: argparse.Namespace, out: Output) -> None:
    for entry in _entries(args):
        if entry.puzzle is None:
            assert entry.error is not None
            out.problem(str(entry.error))
            _print_solve(args, out, entry, None)
            continue
        try:
            result = api.solve(
                entry.puzzle,
                algorithm=args.algorithm,
                node_limit=args.node_limit,
                timeout=args.timeout,
            )
        except ShuduError as exc:
            out.problem(str(exc.at_line(entry.line)))
            _print_solve(args, out, Entry(entry.line, entry.text, entry.puzzle, exc), None)
            continue
        if result.status == "multiple":
            out.note(f"line {entry.line}: the puzzle has several solutions; shown is the first")
        _print_solve(args, out, entry, result)


def _print_solve(args: argparse.Namespace, out: Output, entry: Entry, result: api.SolveResult | None) -> None:
    status = result.status if result is not None else "invalid"
    solution = result.solution if result is not None else None
    if args.format == "json":
        record: dict[str, Any] = {
            "line": entry.line,
            "puzzle": entry.puzzle.to_string() if entry.puzzle else entry.text,
            "status": status,
            "solution": solution.to_string() if solution else None,
            "error": entry.error.message if entry.error else None,
        }
        if result is not None:
            record["algorithm"] = result.algorithm
            record["stats"] = vars(result.stats)
        out.answer(json.dumps(record, ensure_ascii=False))
    elif args.format == "grid":
        out.answer(f"# line {entry.line}: {status}")
        if solution:
            out.answer(format_grid(solution) + "\n")
        else:
            out.answer("")
    else:
        out.answer(solution.to_string() if solution else {"none": "no solution"}.get(status, status))


def cmd_count(args: argparse.Namespace, out: Output) -> None:
    for entry in _entries(args):
        if entry.puzzle is None:
            assert entry.error is not None
            out.problem(str(entry.error))
            out.answer("invalid")
            continue
        try:
            found = api.count(
                entry.puzzle,
                args.limit,
                algorithm=args.algorithm,
                node_limit=args.node_limit,
                timeout=args.timeout,
            )
        except SearchTimeout as exc:
            out.note(f"line {entry.line}: {exc.message} after {exc.found} solutions")
            out.answer(f"≥{exc.found}")
            continue
        except ShuduError as exc:
            out.problem(str(exc.at_line(entry.line)))
            out.answer("invalid")
            continue
        capped = args.limit is not None and found >= args.limit
        out.answer(f"≥{found}" if capped else str(found))


def cmd_rate(args: argparse.Namespace, out: Output) -> None:
    from .logic import rate

    for entry in _entries(args):
        rating = None
        error = entry.error
        if entry.puzzle is not None:
            try:
                rating = rate(entry.puzzle)
            except ShuduError as exc:
                error = exc.at_line(entry.line)
        if error is not None:
            out.problem(str(error))
        if args.format == "json":
            record: dict[str, Any] = {"line": entry.line, "puzzle": entry.text.strip()}
            if rating:
                record.update(rating.to_json())
            else:
                record.update({"level": None, "score": None, "se": None, "hardest": None})
                record["error"] = error.message if error else None
            out.answer(json.dumps(record, ensure_ascii=False))
        elif rating:
            out.answer(f"{rating.level} {rating.score} {rating.se:.1f} {rating.hardest}")
        else:
            out.answer("invalid")


def cmd_explain(args: argparse.Namespace, out: Output) -> None:
    from .logic import explain

    for entry in _entries(args):
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
            found = explain(entry.puzzle)
        except ShuduError as exc:
            out.problem(str(exc.at_line(entry.line)))
            continue
        if args.format == "json":
            out.answer(json.dumps({"line": entry.line, **found.to_json()}, ensure_ascii=False))
        else:
            out.answer(f"# line {entry.line}: {entry.puzzle.to_string()}")
            out.answer(str(found))


def _replay_enumeration(args: argparse.Namespace, out: Output, entry: Entry) -> None:
    """The enumeration solver's search (paper 1), one step a line, up to --node-limit steps."""
    import itertools

    from .solvers.enumeration import describe, trace

    assert entry.puzzle is not None
    steps = itertools.islice(trace(entry.puzzle), args.node_limit)
    if args.format != "json":
        out.answer(f"# line {entry.line}: {entry.puzzle.to_string()} (enumeration search)")
    for step in steps:
        if args.format == "json":
            out.answer(json.dumps({"line": entry.line, **step.to_json()}))
        else:
            out.answer(describe(step, entry.puzzle.size))


def cmd_hint(args: argparse.Namespace, out: Output) -> None:
    from .logic import hint

    for entry in _entries(args):
        if entry.puzzle is None:
            assert entry.error is not None
            out.problem(str(entry.error))
            continue
        board = entry.text if entry.text.strip().startswith("{") else entry.puzzle
        try:
            found = hint(board, args.level)
        except ShuduError as exc:
            out.problem(str(exc.at_line(entry.line)))
            continue
        if args.format == "json":
            out.answer(json.dumps({"line": entry.line, **found.to_json()}, ensure_ascii=False))
        else:
            out.answer(found.text)


def cmd_generate(args: argparse.Namespace, out: Output) -> None:
    import time

    from .formats import to_json
    from .generator import GeneratorTimeout, Progress, generate_many

    as_json = args.format == "json"
    started, shown = time.monotonic(), [0.0]

    def progress(state: Progress) -> None:
        now = time.monotonic()
        if now - shown[0] < 0.1:
            return
        shown[0] = now
        done = made[0]
        bar = "#" * (20 * done // args.count) if args.count else ""
        out.err.write(
            f"\r[{bar:<20}] {done}/{args.count} puzzles, {state.grids} grids, "
            f"{state.rated} rated, {now - started:.1f} s "
        )
        out.err.flush()

    made = [0]
    try:
        for result in generate_many(
            args.count,
            size=args.size,
            box=args.box,
            variant=_variant(args),
            level=args.level,
            se=args.se,
            technique=args.technique,
            symmetry=args.symmetry,
            clues=args.clues,
            minimal=args.minimal,
            seed=args.seed,
            timeout=args.timeout,
            rate=as_json,
            progress=progress if out.err.isatty() else None,
        ):
            made[0] += 1
            if out.err.isatty():
                out.err.write("\r\033[K")
            puzzle = result.puzzle
            if as_json:
                out.answer(json.dumps(result.to_json(), ensure_ascii=False))
            elif puzzle.variant.layout is not None and not args.layout:
                # a drawn jigsaw layout must travel with the givens
                out.answer(json.dumps(to_json(puzzle), ensure_ascii=False))
            else:
                out.answer(puzzle.to_string())
            out.out.flush()
    except GeneratorTimeout as exc:
        if out.err.isatty():
            out.err.write("\r\033[K")
        out.problem(str(exc))


def cmd_variants(args: argparse.Namespace, out: Output) -> None:
    names = variant_registry.names()
    width = max(map(len, names))
    for name, description in names.items():
        out.answer(f"{name:<{width}}  {description}")


def cmd_algorithms(args: argparse.Namespace, out: Output) -> None:
    found = solvers.available()
    width = max(map(len, found))
    default = solvers.get("auto").name
    for name, solver in found.items():
        mark = " (default)" if name == default else ""
        out.answer(f"{name:<{width}}  {solver.description}{mark}")


def cmd_serve(args: argparse.Namespace, out: Output) -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise ShuduError(
            f"the web page needs the web extra ({exc.name} is missing): pip install 'shudu[web]'"
        ) from None
    from .web import serve

    out.note(f"serving on http://{args.host}:{args.port}/ (Ctrl+C stops)")
    serve(args.host, args.port, args.db)


def cmd_bank(args: argparse.Namespace, out: Output) -> None:
    import time

    from .formats import to_json
    from .generator import GeneratorTimeout, Progress, generate_many
    from .store import Store

    store = Store(args.db)
    if args.action == "fill":
        kind = f"{args.size}x{args.size} {args.variant} {args.level}"
        made: list[tuple[dict[str, Any], str]] = []  # made but not yet in the bank
        counts = {"made": 0, "new": 0}
        started = kept = time.monotonic()
        shown = 0.0

        def show(state: Progress) -> None:
            nonlocal shown
            now = time.monotonic()
            if now - shown >= 0.1:
                shown = now
                bar = "#" * (20 * counts["made"] // args.count) if args.count else ""
                out.err.write(
                    f"\r[{bar:<20}] {counts['made']}/{args.count} {kind}, {state.grids} grids, "
                    f"{state.rated} rated, {now - started:.1f} s "
                )
                out.err.flush()

        puzzles = generate_many(  # a request that can never be met fails here, before any search
            args.count,
            size=args.size,
            variant=args.variant,
            level=args.level,
            timeout=args.timeout,
            rate=True,
            progress=show if out.err.isatty() else None,
        )

        def keep() -> None:
            """Put what was made in the bank, in one transaction."""
            nonlocal kept
            if made:
                counts["new"] += store.add_to_bank(made, source="generated")
                made.clear()
            kept = time.monotonic()

        try:
            for result in puzzles:
                made.append((to_json(result.puzzle), str(result.level)))
                counts["made"] += 1
                if time.monotonic() - kept >= 1.0:  # an interrupted fill keeps what it made
                    keep()
        except GeneratorTimeout as exc:
            out.problem(str(exc))
        finally:
            keep()
            if out.err.isatty():
                out.err.write("\r\033[K")
            again = counts["made"] - counts["new"]
            out.note(
                f"added {counts['new']} new {kind} puzzles to {store.path}"
                + (f" ({again} made were there already)" if again else "")
            )
    for row in store.bank_counts():
        size = f"{row['size']}x{row['size']}"
        out.answer(f"{size:>5}  {row['variant']:<12} {row['level']:<8} {row['puzzles']}")


# --- the parser ---------------------------------------------------------------------------

PUZZLE = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def _add_input(parser: argparse.ArgumentParser) -> None:
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shudu",
        description="shudu (数独): solve, count and explore sudoku puzzles of every size and variant.",
        epilog=f"example:\n  shudu solve {PUZZLE}\n\nRun 'shudu COMMAND --help' for a command's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"shudu {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, help: str, example: str, run: Command) -> argparse.ArgumentParser:
        sub = commands.add_parser(
            name,
            help=help,
            description=help,
            epilog=f"example:\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.set_defaults(run=run)
        return sub

    solve = command(
        "solve",
        "solve puzzles; print one answer per input, in order",
        f"shudu solve {PUZZLE}\n  shudu solve -i puzzles.txt --format json\n"
        "  shudu solve --variant pyramid -i pyramid.txt --format grid",
        cmd_solve,
    )
    _add_input(solve)
    solve.add_argument(
        "--format",
        choices=("line", "grid", "json"),
        default="line",
        help="output form (default: line)",
    )

    count = command(
        "count",
        "count the solutions of puzzles (printed as ≥N when the limit was reached)",
        "shudu count ................ --limit 1000",
        cmd_count,
    )
    _add_input(count)
    count.add_argument("--limit", type=int, metavar="N", help="stop counting at N solutions")

    rate = command(
        "rate",
        "rate the difficulty of puzzles: level, HoDoKu-style score, SE-style rating, hardest technique",
        f"shudu rate {PUZZLE}\n  shudu rate -i puzzles.txt --format json",
        cmd_rate,
    )
    _add_input(rate)
    rate.add_argument(
        "--format", choices=("line", "json"), default="line", help="output form (default: line)"
    )

    explain = command(
        "explain",
        "show the simplest-first solving path of puzzles, one step a line, with a summary",
        f"shudu explain {PUZZLE}\n  shudu explain {PUZZLE} --format json",
        cmd_explain,
    )
    _add_input(explain)
    explain.add_argument(
        "--format", choices=("text", "json"), default="text", help="output form (default: text)"
    )

    hint = command(
        "hint",
        "the next step of a puzzle or a player's board (JSON with entries and pencil marks)",
        f"shudu hint {PUZZLE} --level vague\n"
        '  shudu hint \'{"givens": "...", "entries": "...", "pencil": {"r1c2": "137"}}\'',
        cmd_hint,
    )
    _add_input(hint)
    hint.add_argument(
        "--level",
        choices=("vague", "technique", "step"),
        default="step",
        help="how much to tell: where to look, the technique, or the whole step (default: step)",
    )
    hint.add_argument(
        "--format", choices=("text", "json"), default="text", help="output form (default: text)"
    )

    generate = command(
        "generate",
        "generate random puzzles with one solution, at the difficulty asked for (see docs/generator.md)",
        "shudu generate --level hard --symmetry rot180 --count 5\n"
        "  shudu generate --size 6 --level medium --format json\n"
        "  shudu generate --variant jigsaw --clues 26-30 --seed 7",
        cmd_generate,
    )
    generate.add_argument("--size", type=int, default=9, help="grid size (default: 9)")
    generate.add_argument("--box", metavar="RxC", help="box shape, e.g. 3x2 for 6x6 with boxes of 3 rows")
    generate.add_argument(
        "--variant",
        metavar="NAME|FILE",
        help="variant name (see 'shudu variants'; jigsaw draws random layouts) or a JSON file of regions",
    )
    generate.add_argument("--layout", metavar="LABELS", help="jigsaw layout: n*n region labels, one per cell")
    generate.add_argument(
        "--level", choices=("easy", "medium", "hard", "unfair", "extreme"), help="difficulty level"
    )
    generate.add_argument("--se", metavar="MIN-MAX", help="Sudoku Explainer rating range, e.g. 6.6-7.2")
    generate.add_argument(
        "--technique", metavar="NAME", help="a technique the solving path must use, e.g. X-Wing"
    )
    generate.add_argument(
        "--symmetry",
        default="none",
        metavar="NAME",
        help="symmetry of the givens: none, rot180, rot90, mirror, flip, diagonal, antidiagonal, "
        "biaxial, bidiagonal, dihedral (default: none)",
    )
    generate.add_argument("--clues", metavar="N|MIN-MAX", help="number of givens, e.g. 25 or 24-28")
    generate.add_argument("--minimal", action="store_true", help="no given can be removed")
    generate.add_argument("--count", type=int, default=1, help="how many puzzles (default: 1)")
    generate.add_argument("--seed", type=int, help="random seed: the same seed gives the same puzzles")
    generate.add_argument(
        "--timeout", type=float, metavar="SECONDS", help="stop after this long and report what was found"
    )
    generate.add_argument(
        "--format",
        choices=("line", "json"),
        default="line",
        help="output form: the givens, or JSON with solution, level, SE, hardest, clues, seed",
    )

    command("variants", "list the variants with their rules", "shudu variants", cmd_variants)
    command("algorithms", "list the solving algorithms", "shudu algorithms", cmd_algorithms)

    serve = command(
        "serve",
        "serve the web page: play, solve and learn in a browser (needs the web extra)",
        "shudu serve --port 8000 --db games.sqlite3",
        cmd_serve,
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    serve.add_argument("--db", metavar="PATH", help="SQLite file of saved games and the puzzle bank")

    bank = command(
        "bank",
        "show the puzzle bank (puzzles not served yet), or fill it from the generator",
        "shudu bank fill --level hard --count 100\n  shudu bank fill --size 6 --variant x --level easy\n"
        "  shudu bank show",
        cmd_bank,
    )
    bank.add_argument("action", choices=("show", "fill"), help="show the counts, or fill then show")
    bank.add_argument("--db", metavar="PATH", help="SQLite file of saved games and the puzzle bank")
    bank.add_argument("--size", type=int, default=9, help="grid size of new puzzles (default: 9)")
    bank.add_argument("--variant", default="standard", help="variant of new puzzles (default: standard)")
    bank.add_argument("--level", default="medium", help="level of new puzzles (default: medium)")
    bank.add_argument("--count", type=int, default=10, help="how many puzzles to make (default: 10)")
    bank.add_argument(
        "--timeout", type=float, metavar="SECONDS", help="stop after this long, keeping what was made"
    )
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
