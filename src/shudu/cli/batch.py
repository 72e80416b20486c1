"""``shudu batch solve|count|rate|explain|generate``: a whole file (or folder, or stdin) of
puzzles into JSON lines, CSV or Parquet, on every core or a Dask cluster, resumable."""

from __future__ import annotations

import argparse
import importlib
import json
import random
from pathlib import Path
from typing import Any

from ..batch import (
    COMMANDS,
    Job,
    Spec,
    Summary,
    check_output,
    count_lines,
    form_of,
    read_items,
    run_job,
    work_folder,
)
from ..errors import OptionError, ShuduError
from ..geometry import parse_box
from ._base import Commands, Output, Parser
from ._common import add_amount, add_parallel, add_shape, add_targets, count, read_variant, seconds, targets

_HELP = {
    "solve": "solve every puzzle of a file: status and solution",
    "count": "count the solutions of every puzzle of a file (up to --limit)",
    "rate": "rate every puzzle of a file: level, score, SE rating, hardest technique",
    "explain": "the simplest-first solving path of every puzzle of a file",
    "generate": "generate many puzzles, each from its own seed",
}


def _spec(args: argparse.Namespace) -> Spec:
    command = args.batch_command
    options: dict[str, Any] = {"timeout": args.timeout}
    if command != "generate":
        options.update(node_limit=args.node_limit, box=args.box, variant=read_variant(args))
    if command in ("solve", "count"):
        options["algorithm"] = args.algorithm
    if command == "count":
        options["limit"] = args.limit
    if command in ("rate", "explain"):
        options["allow_multiple"] = args.allow_multiple
    if command == "generate":
        options.update(
            **targets(args),
            count=args.count,
            seed=_seed(args),
        )
    threads = args.jobs if command == "solve" and not args.dask else 1
    return Spec(command, options, threads=threads)


def _seed(args: argparse.Namespace) -> int:
    """The --seed, or an interrupted job's, or a new random one (written in the job's journal)."""
    if args.seed is not None:
        return int(args.seed)
    try:
        with open(work_folder(args.output, form_of(args.output)) / "job.json", encoding="utf-8") as stream:
            return int(json.load(stream)["options"]["seed"])
    except (OSError, ValueError, KeyError, TypeError):
        return random.randrange(2**62)


class _Bar:
    """Progress on stderr: tqdm when installed, else one line redrawn in place."""

    def __init__(self, out: Output, total: int | None, on: bool) -> None:
        self.out, self.total, self.on = out, total, on
        self._tqdm: Any = None
        if on:
            try:
                tqdm = importlib.import_module("tqdm").tqdm
                self._tqdm = tqdm(total=total, unit="puzzle", file=out.err, dynamic_ncols=True)
            except ImportError:
                self._tqdm = None

    def __call__(self, n: int, summary: Summary) -> None:
        if not self.on:
            return
        if self._tqdm is not None:
            self._tqdm.update(n)
            self._tqdm.set_postfix(invalid=summary.invalid, refresh=False)
            return
        total = f"/{self.total}" if self.total else ""
        self.out.err.write(f"\r\033[K{summary.done}{total} done, {summary.invalid} invalid")
        self.out.err.flush()

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
        elif self.on:
            self.out.err.write("\r\033[K")


def cmd_batch(args: argparse.Namespace, out: Output) -> None:
    command = args.batch_command
    form = form_of(args.output)
    check_output(args.output, form, force=args.force)
    if args.dask is None and args.jobs == 0:
        raise OptionError("--jobs must be at least 1", option="--jobs", value=0)
    spec = _spec(args)
    if args.plot:
        _check_plot(args)
    with_file = False
    work: Any
    if command == "generate":
        base = spec.options["seed"]
        work = ((index, base + index - 1) for index in range(1, args.count + 1))
        total: int | None = args.count
    else:
        from ..batch.source import input_files

        if args.input is None:
            raise OptionError("-i is required: a file of puzzles, '-' for stdin, or a folder", option="-i")
        box = parse_box(args.box) if args.box else None
        with_file = input_files(args.input) is not None
        work = read_items(args.input, box=box, variant=spec.options.get("variant"))
        total = None
    shown = args.progress if args.progress is not None else out.err.isatty()
    if shown and total is None and command != "generate":
        total = count_lines(args.input)
    bar = _Bar(out, total, shown)
    job = Job(
        spec,
        args.output,
        form,
        chunk=args.chunk or 0,
        jobs=args.jobs,
        dask=args.dask,
        timing=args.timing,
        with_file=with_file,
        progress=bar,
        summary=Summary(source=_source_name(args)),
    )
    try:
        summary = run_job(job, work)
    finally:
        bar.close()
    for error in summary.errors:
        out.problem(error)
    if summary.invalid > len(summary.errors):
        out.note(f"{summary.invalid - len(summary.errors)} more invalid; see the output")
    for line in summary.lines(timing=args.timing):
        out.note(line)
    if args.plot:
        try:
            summary.plot(args.plot, title=f"shudu batch {command}: {_source_name(args)}")
        except ShuduError as exc:
            out.problem(str(exc))
        else:
            out.note(f"wrote {args.plot}")


def _check_plot(args: argparse.Namespace) -> None:
    """Refuse a --plot that cannot be drawn before the work starts, not after."""
    from ..render.plots import check_plot

    check_plot(args.plot)
    if args.batch_command in ("solve", "count") and not args.timing:
        raise OptionError(
            f"--plot draws SE ratings and times; {args.batch_command} has only times, "
            "which --no-timing leaves out",
            option="--plot",
            value=args.plot,
        )


def _source_name(args: argparse.Namespace) -> str:
    """The input's name in the plot: its file name, stdin, or what was generated."""
    if args.batch_command == "generate":
        return f"{args.count} generated"
    if args.input in (None, "-"):
        return "stdin"
    return Path(args.input).name or str(args.input)


def _common(parser: argparse.ArgumentParser, command: str) -> None:
    if command != "generate":
        parser.add_argument(
            "-i", "--input", metavar="IN", help="puzzles: a file, '-' for stdin, or a folder of files"
        )
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="answers: a .jsonl, .csv or .parquet file, or a folder (ending in /) of Parquet parts",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="write the Parquet parts into a folder that holds other files too (never the root)",
    )
    add_parallel(
        parser,
        jobs="use N local cores: processes, or the C batch's threads for solve (default: 1)",
        dask="run on a Dask cluster: 'local' starts one of --jobs workers, or tcp://HOST:PORT",
        chunk="puzzles per unit of work (default: by command; the most a kill can lose)",
        most_chunk=1_000_000,
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show progress on stderr (default: only on a terminal)",
    )
    parser.add_argument(
        "--no-timing",
        dest="timing",
        action="store_false",
        help="leave the seconds out of the records and the summary, so runs compare byte for byte",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help="at the end, draw the SE ratings by level and the seconds per input file to FILE.svg "
        "or FILE.png (needs the plot extra: matplotlib)",
    )
    parser.add_argument(
        "--timeout",
        type=seconds("--timeout"),
        metavar="SECONDS",
        help="give up on a puzzle after this long (status: timeout)",
    )
    if command == "generate":
        return
    parser.add_argument(
        "--node-limit",
        type=count("--node-limit", minimum=1),
        metavar="N",
        help="give up on a puzzle after N search steps (status: timeout)",
    )
    parser.add_argument("--variant", metavar="NAME|FILE", help="variant name or a JSON file of regions")
    parser.add_argument("--box", metavar="RxC", help="box shape, e.g. 3x2")
    parser.add_argument("--layout", metavar="LABELS", help="jigsaw layout: n*n region labels, one per cell")


def register(commands: Commands) -> None:
    batch = commands.add(
        "batch",
        "shudu batch rate -i puzzles.txt -o ratings.jsonl --jobs 4\n"
        "  shudu batch solve -i puzzles/ -o answers.parquet\n"
        "  shudu batch generate --count 1000 --level hard -o hard.csv --dask local",
        cmd_batch,
    )
    sub = batch.add_subparsers(dest="batch_command", metavar="COMMAND", parser_class=Parser, required=True)
    for command in COMMANDS:
        parser = sub.add_parser(command, help=_HELP[command], description=_HELP[command])
        _common(parser, command)
        if command in ("solve", "count"):
            parser.add_argument("--algorithm", default="auto", metavar="NAME", help="solving algorithm")
        if command == "count":
            parser.add_argument(
                "--limit", type=count("--limit", minimum=1), metavar="N", help="stop counting at N"
            )
        if command in ("rate", "explain"):
            parser.add_argument(
                "--allow-multiple",
                action="store_true",
                help="still follow the logical path of a puzzle with several solutions",
            )
        if command == "generate":
            add_amount(
                parser,
                default=1,
                count_help="how many puzzles (default: 1)",
                seed_help="base seed: puzzle k is made from seed+k-1 (default: random, kept for a resume)",
            )
            add_shape(parser, size="grid size (default: 9)", variant="variant name or a JSON file")
            add_targets(parser)
