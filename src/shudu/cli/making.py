"""``shudu generate``, ``serve`` and ``bank``: new puzzles, and the web page with its puzzle bank."""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import OptionError, ShuduError
from ..formats import to_json
from ..notation import MAX_SIZE, MIN_SIZE
from ._base import Commands, Output
from ._common import (
    add_amount,
    add_parallel,
    add_shape,
    add_targets,
    count,
    printable,
    read_variant,
    seconds,
    span,
    targets,
)

if TYPE_CHECKING:
    from ..generator import Progress


class ProgressLine:
    """A progress bar on stderr while puzzles are made: only on a terminal, ten redraws a second."""

    def __init__(self, out: Output, total: int, what: str) -> None:
        self.out, self.total, self.what = out, total, what
        self.done = 0
        self.shown = self.started = time.monotonic()
        self.on = out.err.isatty()

    def update(self, state: Progress) -> None:
        now = time.monotonic()
        if now - self.shown < 0.1:
            return
        self.shown = now
        bar = "#" * (20 * self.done // self.total) if self.total else ""
        self.out.err.write(
            f"\r[{bar:<20}] {self.done}/{self.total} {self.what}, {state.grids} grids, "
            f"{state.rated} rated, {now - self.started:.1f} s "
        )
        self.out.err.flush()

    def clear(self) -> None:
        if self.on:
            self.out.err.write("\r\033[K")


def cmd_generate(args: argparse.Namespace, out: Output) -> None:
    from ..formats import Document, write_document
    from ..generator import GeneratorTimeout, generate_many

    as_json = args.format == "json"
    line = ProgressLine(out, args.count, "puzzles")
    try:
        for result in generate_many(
            args.count,
            **targets(args),
            rules=args.rules,
            cages=args.cages,
            seed=args.seed,
            timeout=args.timeout,
            rate=as_json,
            progress=line.update if line.on else None,
        ):
            line.done += 1
            line.clear()
            puzzle = result.puzzle
            if as_json:
                out.answer(json.dumps(result.to_json(), ensure_ascii=False))
            elif args.format in ("iss", "fpuzzles"):
                out.answer(write_document(Document(puzzle), args.format))
            elif puzzle.variant.rules or (puzzle.variant.layout is not None and not args.layout):
                # a drawn jigsaw layout must travel with the givens
                out.answer(json.dumps(to_json(puzzle), ensure_ascii=False))
            else:
                out.answer(puzzle.to_string())
            out.out.flush()
    except GeneratorTimeout as exc:
        line.clear()
        out.problem(str(exc))


def cmd_serve(args: argparse.Namespace, out: Output) -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise ShuduError(
            f"the web page needs the web extra ({exc.name} is missing): pip install 'shudu[web]'"
        ) from None
    from ..store import Store
    from ..web import host_warning, serve

    _check_listen(args.host, args.port)
    if args.db is not None:
        Store(args.db)  # a file that is not a shudu database is refused before the server starts
    warning = host_warning(args.host)
    if warning and args.token is None:
        out.err.write(warning + "\n")
    out.note(f"serving on http://{args.host}:{args.port}/ (Ctrl+C stops)")
    try:
        serve(
            args.host,
            args.port,
            args.db,
            token=args.token,
            workers=args.workers,
            queue=args.queue,
            warn=False,
            allowed_hosts=args.allowed_host,
        )
    except SystemExit as exc:  # uvicorn's way to say it could not start
        if exc.code not in (None, 0):
            where = f"{args.host}:{args.port}"
            raise ShuduError(f"the web server stopped: it could not serve on {where}") from None


def _check_listen(host: str, port: int) -> None:
    """Refuse a --host and --port this machine cannot listen on, before saying it serves there."""
    import socket

    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else "not a valid host name"
        raise OptionError(
            f"--host {printable(host)!r} is not an address or host name of this machine ({reason})",
            option="--host",
            value=host,
        ) from None
    family, kind, protocol, _, address = found[0]
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise OptionError(
                f"cannot listen on --host {host} --port {port}: {exc.strerror}", option="--host", value=host
            ) from None


def _token(text: str) -> str:
    """An argparse ``type`` for ``--token``: 8 to 200 letters, digits or ``- _ . ~``."""
    from ..web.players import check_token

    try:
        check_token(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--token: {exc}") from None
    return text


def _allowed_host(text: str) -> str:
    """An argparse ``type`` for ``--allowed-host``: a host name or address, no port or path."""
    from ..web.guard import check_hosts

    try:
        check_hosts([text])
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--allowed-host: {exc}") from None
    return text


def cmd_bank(args: argparse.Namespace, out: Output) -> None:
    from ..store import Store

    _check_bank_command(args)
    # show and export only read: they never make or change the database, nor its folder
    store = Store(args.db, read_only=args.action in ("show", "export"))
    if args.action == "fill":
        if args.jobs > 1 or args.dask:
            _fill_in_parallel(args, out, store)
        else:
            _fill(args, out, store)
    elif args.action == "export":
        from ..batch.bank import export

        written = export(store, args.output)
        out.note(f"wrote {written} puzzles of {store.path} to {args.output}")
        return
    elif args.action == "import":
        _import(args, out, store)
    for row in store.bank_counts():
        size = f"{row['size']}x{row['size']}"
        out.answer(f"{size:>5}  {row['variant']:<12} {row['level']:<8} {row['puzzles']}")


def _check_bank_command(args: argparse.Namespace) -> None:
    """Refuse options that the action does not take, before the database is opened."""
    from ..batch import check_output, form_of
    from ..batch.output import FORMS

    action = args.action
    if action == "import" and not args.file:
        raise ShuduError("bank import needs the FILE to import (a .jsonl, .csv or .parquet batch output)")
    if action != "import" and args.file:
        raise ShuduError(f"bank {action} takes no FILE ({args.file!r}); only bank import does")
    if action == "export" and not args.output:
        raise ShuduError("bank export needs -o FILE (.parquet, .jsonl or .csv)")
    if action != "export" and args.output:
        raise ShuduError(f"-o is for bank export, not bank {action}")
    if action != "fill" and (args.jobs > 1 or args.dask):
        raise ShuduError(f"--jobs and --dask are for bank fill, not bank {action}")
    if action != "fill" and (args.rules is not None or args.cages is not None):
        raise ShuduError(f"--rules and --cages are for bank fill, not bank {action}")
    if action == "export":
        # the form, from the name, and a folder that is no place for parts: refused before any work
        check_output(args.output, form_of(args.output), forcible=False)
    if action == "import":
        if not Path(args.file).exists():
            raise ShuduError(f"cannot read {args.file}: no such file")
        if not Path(args.file).is_dir() and Path(args.file).suffix.lower() not in FORMS:
            raise ShuduError(
                f"{args.file}: a batch output ends in .jsonl, .csv or .parquet, or is a folder of"
                " Parquet parts"
            )


def _level(args: argparse.Namespace) -> str | None:
    """The level asked: --level, else medium unless --se or --technique says what is wanted."""
    if args.level is not None:
        return str(args.level)
    return None if args.se or args.technique else "medium"


def _kind(args: argparse.Namespace) -> str:
    return (
        f"{args.size}x{args.size} {_rule_set(args) or args.variant or 'standard'} {_level(args) or 'rated'}"
    )


def _rule_set(args: argparse.Namespace) -> str | None:
    """The rule set asked with --rules, as the generator names it (None: none)."""
    return None if args.rules is None else args.rules.strip().lower().replace(" ", "-")


def _rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """--rules and --cages, as ``shudu.generate`` takes them."""
    return {"rules": args.rules, "cages": args.cages}


def _fill(args: argparse.Namespace, out: Output, store: Any) -> None:
    """Fill in this process: the generator's own stream, stored once a second."""
    from ..generator import GeneratorTimeout, generate_many
    from ..store import BankEntry

    kind = _kind(args)
    made: list[BankEntry] = []  # made but not yet in the bank
    counts = {"made": 0, "new": 0}
    line = ProgressLine(out, args.count, kind)
    kept = time.monotonic()

    puzzles = generate_many(  # a request that can never be met fails here, before any search
        args.count,
        **{**targets(args), **_rule_options(args), "level": _level(args)},
        seed=args.seed,
        timeout=args.timeout,
        rate=True,
        progress=line.update if line.on else None,
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
            made.append(
                BankEntry(
                    to_json(result.puzzle),
                    str(result.level),
                    se=result.se,
                    score=result.score,
                    hardest=result.hardest,
                    solution=result.solution.to_string(),
                    rule_set=_rule_set(args),
                )
            )
            counts["made"] += 1
            line.done += 1
            if time.monotonic() - kept >= 1.0:  # an interrupted fill keeps what it made
                keep()
    except GeneratorTimeout as exc:
        out.problem(str(exc))
    finally:
        keep()
        line.clear()
        again = counts["made"] - counts["new"]
        out.note(
            f"added {counts['new']} new {kind} puzzles to {store.path}"
            + (f" ({again} made were there already)" if again else "")
        )


def _fill_in_parallel(args: argparse.Namespace, out: Output, store: Any) -> None:
    """Fill on --jobs processes or a Dask cluster: each puzzle from its own seed, each finished
    chunk stored by this process in one transaction."""
    from ..batch import Spec
    from ..batch.bank import Filled, fill
    from ..generator import generate_many

    options: dict[str, Any] = {
        **targets(args),
        **_rule_options(args),
        "level": _level(args),
        "timeout": args.timeout,
        "seed": args.seed if args.seed is not None else random.randrange(2**62),
    }
    # a request that can never be met fails here, before any worker starts
    generate_many(0, **{k: v for k, v in options.items() if k != "seed"})
    kind = _kind(args)
    on = out.err.isatty()
    started = time.monotonic()

    def show(filled: Filled) -> None:
        if on:
            out.err.write(
                f"\r\033[K{filled.made}/{args.count} {kind} made, {filled.new} new, "
                f"{time.monotonic() - started:.1f} s"
            )
            out.err.flush()

    filled = Filled()
    try:
        fill(
            store,
            Spec("generate", options),
            args.count,
            jobs=args.jobs,
            dask=args.dask,
            chunk=args.chunk or 0,
            timeout=args.timeout,
            progress=show,
            filled=filled,
        )
    except Exception:
        # it failed (a cluster out of reach, say): its message, and no count that reads as a result
        if on:
            out.err.write("\r\033[K")
        raise
    except BaseException:
        # interrupted: what was stored stays, and is told
        _filled_note(out, filled, kind, store)
        raise
    if on:
        out.err.write("\r\033[K")
    for error in filled.errors[:20]:
        out.problem(error)
    if filled.out_of_time:
        out.problem(f"--timeout {args.timeout:g} s ran out: made {filled.made} of {args.count} {kind}")
    _filled_note(out, filled, kind, store)


def _filled_note(out: Output, filled: Any, kind: str, store: Any) -> None:
    out.note(
        f"added {filled.new} new {kind} puzzles to {store.path}"
        + (f" ({filled.again} made were there already)" if filled.again else "")
    )


def _import(args: argparse.Namespace, out: Output, store: Any) -> None:
    from ..batch.bank import import_records

    done = import_records(store, args.file, box=args.box, variant=read_variant(args))
    for error in done.errors:
        out.problem(f"{args.file} {error}")
    if done.bad > len(done.errors):
        out.problem(f"{args.file}: {done.bad - len(done.errors)} more bad records skipped")
    if done.skipped:
        why = ", ".join(f"{status} {n}" for status, n in sorted(done.skipped.items()))
        out.note(f"skipped {sum(done.skipped.values())} records with no puzzle for the bank ({why})")
    out.note(
        f"added {done.new} new puzzles to {store.path} from {args.file}"
        + (f" ({done.again} were there already)" if done.again else "")
    )


def register(commands: Commands) -> None:
    _add_generate(commands)
    _add_serve(commands)
    _add_bank(commands)


def _add_generate(commands: Commands) -> None:
    generate = commands.add(
        "generate",
        "shudu generate --level hard --symmetry rot180 --count 5\n"
        "  shudu generate --size 6 --level medium --format json\n"
        "  shudu generate --variant jigsaw --clues 26-30 --seed 7\n"
        "  shudu generate --rules killer --level hard --symmetry rot180 --seed 1",
        cmd_generate,
    )
    add_shape(
        generate,
        size=f"grid size, {MIN_SIZE} to {MAX_SIZE} (default: 9)",
        box="box shape, e.g. 3x2 for 6x6 with boxes of 3 rows",
        variant="variant name (see 'shudu variants'; jigsaw draws random layouts) or a JSON file of regions",
    )
    add_targets(generate)
    _add_rules(generate, "")
    add_amount(
        generate,
        default=1,
        count_help="how many puzzles (default: 1)",
        seed_help="random seed, a whole number from 0: the same seed gives the same puzzles",
    )
    generate.add_argument(
        "--timeout",
        type=seconds("--timeout"),
        metavar="SECONDS",
        help="stop after this long and report what was found",
    )
    generate.add_argument(
        "--format",
        choices=("line", "json", "iss", "fpuzzles"),
        default="line",
        help="output form: the givens (a puzzle with rules or a drawn jigsaw: its JSON form), JSON "
        "with solution, level, SE, hardest, clues, seed, or an ISS string or f-puzzles link",
    )


def _add_serve(commands: Commands) -> None:
    serve = commands.add(
        "serve",
        "shudu serve --port 8000 --db games.sqlite3",
        cmd_serve,
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    serve.add_argument(
        "--port",
        type=count("--port", minimum=1, maximum=65535),
        default=8000,
        help="port to listen on (default: 8000)",
    )
    serve.add_argument("--db", metavar="PATH", help="SQLite file of saved games and the puzzle bank")
    serve.add_argument(
        "--token",
        type=_token,
        help="let in only requests that carry this token (8 to 200 letters, digits or - _ . ~):"
        " open the page once as /?token=TOKEN",
    )
    serve.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        type=_allowed_host,
        metavar="NAME",
        help="a host name the server answers to besides localhost, 127.0.0.1, ::1 and --host"
        " (repeat for more; *.example.org for every name under it, * for any); a request naming"
        " another host gets 400. Listening on 0.0.0.0 or :: without it, any name is answered",
    )
    serve.add_argument(
        "--workers",
        type=count("--workers", minimum=1, maximum=64),
        default=2,
        help="worker processes for heavy work: hints, explanations, ratings, new puzzles (default: 2)",
    )
    serve.add_argument(
        "--queue",
        type=count("--queue", minimum=0, maximum=1000),
        default=8,
        help="heavy requests that may wait for a worker before more get 429 (default: 8)",
    )


def _add_bank(commands: Commands) -> None:
    bank = commands.add(
        "bank",
        "shudu bank fill --level hard --count 100\n  shudu bank fill --size 6 --variant x --level easy\n"
        "  shudu bank fill --level extreme --count 1000 --jobs 4\n"
        "  shudu bank fill --rules killer --level hard --count 20\n"
        "  shudu bank export -o bank.parquet\n"
        "  shudu bank import ratings.jsonl\n"
        "  shudu bank show",
        cmd_bank,
    )
    bank.add_argument(
        "action",
        choices=("show", "fill", "export", "import"),
        help="show the counts; fill, or import, then show; export every puzzle",
    )
    bank.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="import: a rated batch output (.jsonl, .csv, .parquet or a folder of parts)",
    )
    bank.add_argument("--db", metavar="PATH", help="SQLite file of saved games and the puzzle bank")
    bank.add_argument(
        "-o", "--output", metavar="FILE", help="export: .parquet, .jsonl, .csv, or a folder of parts"
    )
    add_shape(
        bank,
        size="grid size of new puzzles (default: 9)",
        variant="variant of new puzzles, or of imported puzzles in line form (default: standard)",
        layout=None,
    )
    # the generator names the levels in its message (and 'any' too); medium unless --se or
    # --technique says what is wanted
    add_targets(
        bank, level_help="level of new puzzles (default: medium, unless --se or --technique is given)"
    )
    _add_rules(bank, "new puzzles")
    add_amount(
        bank,
        default=10,
        count_help="how many puzzles to make (default: 10)",
        seed_help="random seed: the same seed gives the same puzzles (default: random)",
    )
    bank.add_argument(
        "--timeout",
        type=seconds("--timeout"),
        metavar="SECONDS",
        help="stop after this long, keeping what was made",
    )
    add_parallel(
        bank,
        jobs="fill on N local processes (default: 1); this process alone writes the database",
        dask="fill on a Dask cluster: 'local' starts one of --jobs workers, or tcp://HOST:PORT",
        chunk="puzzles per unit of parallel work (default: 4; 1 with --timeout)",
        most_chunk=10_000,
    )


def _add_rules(parser: argparse.ArgumentParser, what: str) -> None:
    """--rules and --cages (``generate``, ``bank fill``)."""
    parser.add_argument(
        "--rules",
        metavar="NAME",
        help=f"constraint rules {'of ' + what + ' ' if what else ''}to make, on the standard grid: killer"
        " (cages with their totals), thermo, arrow, kropki, little-killer, sandwich or mixed"
        " (see docs/generator.md)",
    )
    parser.add_argument(
        "--cages",
        type=span("--cages", "a number of cells", "2-5", int),
        metavar="N|MIN-MAX",
        help="killer: the sizes of the cages in cells (default: 2-5)",
    )
