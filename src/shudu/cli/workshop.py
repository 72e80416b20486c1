"""``shudu candidates``, ``make-unique``, ``redundant``, ``backdoors``, ``bottlenecks``, ``train`` and
``why-not``: the setter's workshop."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import workshop
from ..errors import ShuduError
from ..formats import Entry, to_json
from ..formats.document import Document
from ..formats.pencil_marks import format_pm
from ..notation import LEVELS, STATUS_WORDS, cell_name, digit_char
from ..workshop.backdoors import LIMIT as BACKDOORS_LIMIT
from ..workshop.backdoors import MAX_SIZE as BACKDOORS_MAX_SIZE
from ..workshop.bottlenecks import LIMIT as BOTTLENECKS_LIMIT
from ..workshop.clues import KINDS
from ._base import PUZZLE, Commands, Output
from ._common import add_format, add_input, read_entries, seconds
from ._common import count as count_option


def _each(args: argparse.Namespace, out: Output, answer: Callable[[Entry], None]) -> None:
    """Run ``answer`` on each puzzle read; a bad one is said on stderr and answered ``invalid``."""
    for entry in read_entries(args):
        if entry.puzzle is None:
            assert entry.error is not None
            out.problem(str(entry.error))
            _invalid(args, out, entry, entry.error)
            continue
        if args.algorithm != "auto":
            error = ShuduError("--algorithm: the workshop commands run the exact solver 'auto' only")
            out.problem(str(error.at_line(entry.line)))
            _invalid(args, out, entry, error)
            continue
        try:
            answer(entry)
        except ShuduError as exc:
            out.problem(str(exc.at_line(entry.line)))
            _invalid(args, out, entry, exc)


def _invalid(args: argparse.Namespace, out: Output, entry: Entry, error: ShuduError) -> None:
    if args.format == "json":
        record = {"line": entry.line, "puzzle": entry.text, "status": "invalid", "error": error.message}
        out.answer(json.dumps(record, ensure_ascii=False))
    else:
        out.answer("invalid")


def _json(out: Output, entry: Entry, fields: dict[str, Any]) -> None:
    out.answer(json.dumps({"line": entry.line, **fields, "error": None}, ensure_ascii=False))


def _timeout_note(out: Output, entry: Entry, status: str) -> None:
    if status == "timeout":
        out.note(f"line {entry.line}: timeout; the answer holds what was settled before it")


def cmd_candidates(args: argparse.Namespace, out: Output) -> None:
    def answer(entry: Entry) -> None:
        assert entry.puzzle is not None
        found = workshop.true_candidates(
            entry.puzzle, count_limit=args.limit, node_limit=args.node_limit, timeout=args.timeout
        )
        if found.status == "timeout":
            out.note(f"line {entry.line}: timeout; the grid shows the digits not ruled out yet")
        if args.format == "json":
            _json(out, entry, found.to_json())
            return
        count = found.solutions
        said = {"none": STATUS_WORDS["none"], "timeout": "timeout"}.get(found.status)
        solutions = said or (
            f"{count} solution{'s' * (count != 1)}"
            if count is not None
            else f"more than {found.count_limit} solutions"
        )
        out.answer(f"# line {entry.line}: {solutions}")
        # on timeout the grid shows the digits not ruled out yet: those shown and those undecided
        undecided = [sum(1 << (d - 1) for d in digits) for digits in found.undecided]
        masks = tuple(
            0 if v else m | u for v, m, u in zip(entry.puzzle.cells, found.masks, undecided, strict=True)
        )
        out.answer(format_pm(Document(entry.puzzle, candidates=masks)) + "\n")

    _each(args, out, answer)


def cmd_make_unique(args: argparse.Namespace, out: Output) -> None:
    if args.clues is not None:
        _each(args, out, lambda entry: _unique_clues(args, out, entry))
        return

    def answer(entry: Entry) -> None:
        assert entry.puzzle is not None
        found = workshop.make_unique(
            entry.puzzle,
            max_added=args.max_added,
            symmetric=args.symmetry,
            node_limit=args.node_limit,
            timeout=args.timeout,
        )
        _timeout_note(out, entry, found.status)
        if args.format == "json":
            _json(out, entry, found.to_json())
            return
        size = entry.puzzle.size
        if found.result is None:
            out.answer(
                {"none": STATUS_WORDS["none"], "multiple": "not within --max-added"}.get(
                    found.status, found.status
                )
            )
            return
        added = " ".join(f"{cell_name(c, size)}={digit_char(d)}" for c, d in found.added)
        proof = "minimal" if found.proven_minimal else "best found"
        out.answer(f"{found.result.to_string()}  # {len(found.added)} added ({proof}): {added or 'none'}")

    _each(args, out, answer)


def _unique_clues(args: argparse.Namespace, out: Output, entry: Entry) -> None:
    assert entry.puzzle is not None
    found = workshop.unique_clues(
        entry.puzzle, args.clues, max_added=args.max_added, node_limit=args.node_limit, timeout=args.timeout
    )
    _timeout_note(out, entry, found.status)
    if args.format == "json":
        _json(out, entry, found.to_json())
        return
    if found.result is None:
        out.answer({"none": "no solution", "multiple": "not found"}.get(found.status, found.status))
        return
    size = entry.puzzle.size
    added = "; ".join(rule.describe(size) for rule in found.added)
    proof = "minimal" if found.proven_minimal else "best found"
    out.answer(f"{len(found.added)} {args.clues} clues added ({proof}): {added or 'none'}")
    out.answer(json.dumps(to_json(found.result), ensure_ascii=False))


def cmd_redundant(args: argparse.Namespace, out: Output) -> None:
    def answer(entry: Entry) -> None:
        assert entry.puzzle is not None
        found = workshop.redundant(
            entry.puzzle, rules=not args.givens_only, node_limit=args.node_limit, timeout=args.timeout
        )
        _timeout_note(out, entry, found.status)
        if args.format == "json":
            _json(out, entry, found.to_json())
            return
        if found.status in ("none", "multiple"):
            out.answer(
                {"none": STATUS_WORDS["none"], "multiple": "multiple: not unique, so nothing is redundant"}[
                    found.status
                ]
            )
            return
        size = entry.puzzle.size
        rules = entry.puzzle.variant.rules
        alone = [cell_name(c, size) for c in found.givens] + [rules[i].describe(size) for i in found.rules]
        together = [cell_name(c, size) for c in found.together_givens]
        together += [rules[i].describe(size) for i in found.together_rules]
        if found.is_minimal:
            out.answer("minimal: no given or rule can go")
            return
        head = "timeout" if found.status == "timeout" else "redundant"
        out.answer(f"{head}: {len(alone)} can each go: {', '.join(alone) or 'none found'}")
        largest = "largest" if found.proven_largest else "largest found"
        out.answer(f"  together ({largest}, {len(together)}): {', '.join(together) or 'none'}")
        if found.reduced is not None and together:
            out.answer(f"  without them: {found.reduced.to_string()}")

    _each(args, out, answer)


def cmd_backdoors(args: argparse.Namespace, out: Output) -> None:
    techniques = (
        [t.strip() for t in args.techniques.split(",")] if "," in args.techniques else args.techniques
    )

    def answer(entry: Entry) -> None:
        assert entry.puzzle is not None
        found = workshop.backdoors(
            entry.puzzle,
            techniques,
            max_size=args.max_size,
            limit=args.limit,
            node_limit=args.node_limit,
            timeout=args.timeout,
        )
        if found.status == "timeout":
            out.note(f"line {entry.line}: timeout; the backdoors listed hold, more may exist")
        if args.format == "json":
            _json(out, entry, found.to_json())
            return
        said = {
            "solved": "solved: the techniques finish the puzzle as it is",
            "not-found": f"not found: no set of at most {args.max_size} cells",
            "none": STATUS_WORDS["none"],
            "multiple": "multiple: not unique, so no digit can be given",
        }.get(found.status)
        if said is not None or not found.backdoors:
            out.answer(said or "timeout: none found")
            return
        record = found.to_json()
        doors = f"{found.count}{'' if found.complete else '+'} backdoor{'s' * (found.count != 1)}"
        out.answer(f"{found.status}: {doors} of {found.size} cell{'s' * (found.size != 1)}")
        for door in record["backdoors"]:
            out.answer("  " + " ".join(door))
        if found.count > len(found.backdoors):
            out.answer(f"  … {found.count - len(found.backdoors)} more (--limit)")

    _each(args, out, answer)


def cmd_bottlenecks(args: argparse.Namespace, out: Output) -> None:
    def answer(entry: Entry) -> None:
        assert entry.puzzle is not None
        found = workshop.bottlenecks(
            entry.puzzle, limit=args.limit, node_limit=args.node_limit, timeout=args.timeout
        )
        if found.status == "timeout":
            out.note(f"line {entry.line}: timeout; the stalls shown hold, the walk did not finish")
        if args.format == "json":
            _json(out, entry, found.to_json())
            return
        said = {"none": "no solution", "multiple": "multiple: not unique, so no level to speak of"}
        if found.status in said:
            out.answer(said[found.status])
            return
        stalls, necks = found.stalls, found.bottlenecks
        tight = sum(stall.tight for stall in stalls)
        out.answer(
            f"{found.status}: level {found.level}, {len(stalls)} stall{'s' * (len(stalls) != 1)}, "
            f"{len(necks)} bottleneck{'s' * (len(necks) != 1)} ({tight} tight)"
        )
        size = entry.puzzle.size
        for stall in necks:
            ways = f"{stall.ways} way{'s' * (stall.ways != 1)} on" + (" (tight)" if stall.tight else "")
            every = [f"{cell_name(c, size)}={digit_char(d)}" for c, d in stall.placements]
            every += [f"{cell_name(c, size)}<>{digit_char(d)}" for c, d in stall.eliminations]
            out.answer(f"  after {stall.position} steps, {ways}; every way: {' '.join(every)}")
            for step in stall.steps[: 1 if stall.tight else 3]:
                out.answer(f"    {step.explanation.splitlines()[0]}")

    _each(args, out, answer)


def cmd_train(args: argparse.Namespace, out: Output) -> None:
    found = workshop.train(args.technique, args.count, level=args.level, seed=args.seed, timeout=args.timeout)
    drills = [drill.to_json() for drill in found.drills]
    if args.format == "json":
        text = json.dumps(drills, ensure_ascii=False) + "\n"
    else:
        text = "".join(json.dumps(drill, ensure_ascii=False) + "\n" for drill in drills)
    if args.output == "-":
        out.out.write(text)
    else:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ShuduError(f"cannot write {args.output}: {exc.strerror}") from None
        out.note(f"{len(drills)} {found.technique} board{'s' * (len(drills) != 1)} written to {args.output}")
    if found.status == "timeout":
        made = f"{len(drills)} of {args.count} {found.technique} boards made"
        out.note(f"timeout: {made} ({found.tried} puzzles tried)")


def cmd_why_not(args: argparse.Namespace, out: Output) -> None:
    from ..logic.engine.board import parse_board

    def answer(entry: Entry) -> None:
        board: Any = entry.puzzle
        if entry.puzzle is None or entry.text.strip().startswith("{"):
            # a JSON board, a candidate grid or a HoDoKu library line
            try:
                board = parse_board(entry.text)
            except ShuduError as exc:
                # a line that does not look like a board keeps the puzzle reader's own message
                if entry.text.strip()[:1] in (":", "{") or entry.error is None:
                    raise
                raise entry.error from exc
        found = workshop.why_not(
            board, args.cell, args.digit, node_limit=args.node_limit, timeout=args.timeout
        )
        if found.status == "timeout":
            out.note(f"line {entry.line}: timeout; a refutation shown holds, a shorter one may exist")
        if args.format == "json":
            _json(out, entry, found.to_json())
        else:
            out.answer(str(found))

    for entry in read_entries(args):
        if args.algorithm != "auto":
            error = ShuduError("--algorithm: the workshop commands run the exact solver 'auto' only")
            out.problem(str(error.at_line(entry.line)))
            _invalid(args, out, entry, error)
            continue
        try:
            answer(entry)
        except ShuduError as exc:
            out.problem(str(exc.at_line(entry.line)))
            _invalid(args, out, entry, exc)


def register(commands: Commands) -> None:
    _add_candidates(commands)
    _add_make_unique(commands)
    _add_redundant(commands)
    _add_backdoors(commands)
    _add_bottlenecks(commands)
    _add_train(commands)
    _add_why_not(commands)


def _add_candidates(commands: Commands) -> None:
    candidates = commands.add(
        "candidates",
        "shudu candidates ....2..........3...4.1........  --variant x",
        cmd_candidates,
    )
    add_input(candidates)
    add_format(candidates, "grid", "json")
    candidates.add_argument(
        "--limit",
        type=count_option("--limit", minimum=1, maximum=10**6),
        default=workshop.candidates.COUNT_LIMIT,
        metavar="N",
        help=f"count the solutions exactly up to N (default: {workshop.candidates.COUNT_LIMIT})",
    )


def _add_make_unique(commands: Commands) -> None:
    unique = commands.add(
        "make-unique",
        "shudu make-unique '1...........2...' --symmetry rot180",
        cmd_make_unique,
    )
    add_input(unique)
    add_format(unique, "line", "json")
    unique.add_argument(
        "--max-added", type=count_option("--max-added", minimum=1), metavar="N", help="add at most N givens"
    )
    unique.add_argument(
        "--symmetry",
        default="none",
        metavar="NAME",
        help="add givens in symmetric sets: rot180, rot90, mirror, flip, diagonal … (default: none)",
    )
    unique.add_argument(
        "--clues",
        choices=KINDS,
        help="add clues of this kind instead of givens: between cells next to each other "
        "(cage: a two-cell cage with its total), or on a line of 2 to 4 cells in a row or a column "
        "(thermo, arrow, whisper, renban); the result is printed as JSON",
    )


def _add_redundant(commands: Commands) -> None:
    redundant = commands.add(
        "redundant",
        f"shudu redundant {PUZZLE}",
        cmd_redundant,
    )
    add_input(redundant)
    add_format(redundant, "text", "json")
    redundant.add_argument(
        "--givens-only", action="store_true", help="look at the givens only, not the constraint rules"
    )


def _add_backdoors(commands: Commands) -> None:
    doors = commands.add(
        "backdoors",
        f"shudu backdoors {PUZZLE} --techniques singles --max-size 3",
        cmd_backdoors,
    )
    add_input(doors)
    add_format(doors, "text", "json")
    doors.add_argument(
        "--techniques",
        default="singles",
        metavar="SET",
        help="singles (the default), a level (easy … extreme: that level's techniques and easier ones) "
        "or technique names joined with commas (shudu's or HoDoKu's names or codes)",
    )
    doors.add_argument(
        "--max-size",
        type=count_option("--max-size", minimum=1, maximum=BACKDOORS_MAX_SIZE),
        default=BACKDOORS_MAX_SIZE,
        metavar="N",
        help=f"look for backdoors of at most N cells (1 to {BACKDOORS_MAX_SIZE}; default: "
        f"{BACKDOORS_MAX_SIZE})",
    )
    doors.add_argument(
        "--limit",
        type=count_option("--limit", minimum=1),
        default=BACKDOORS_LIMIT,
        metavar="N",
        help=f"list at most N backdoors; all are counted (default: {BACKDOORS_LIMIT})",
    )


def _add_bottlenecks(commands: Commands) -> None:
    necks = commands.add(
        "bottlenecks",
        f"shudu bottlenecks {PUZZLE} --format json",
        cmd_bottlenecks,
    )
    add_input(necks)
    add_format(necks, "text", "json")
    necks.add_argument(
        "--limit",
        type=count_option("--limit", minimum=1),
        default=BOTTLENECKS_LIMIT,
        metavar="N",
        help=f"list at most N ways on per stall; all are counted (default: {BOTTLENECKS_LIMIT})",
    )


def _add_train(commands: Commands) -> None:
    drills = commands.add(
        "train",
        "shudu train X-Wing --count 20 -o drills.jsonl",
        cmd_train,
    )
    drills.add_argument(
        "technique", metavar="TECHNIQUE", help="shudu's or HoDoKu's name or code (X-Wing, 0300)"
    )
    drills.add_argument(
        "--count",
        type=count_option("--count", minimum=1),
        default=1,
        metavar="N",
        help="how many boards (default: 1)",
    )
    drills.add_argument("--level", choices=LEVELS, help="generate puzzles of this level (default: any)")
    drills.add_argument(
        "--seed",
        type=count_option("--seed"),
        help="a whole number from 0: the same seed gives the same boards",
    )
    drills.add_argument(
        "--timeout",
        type=seconds("--timeout"),
        default=60.0,
        metavar="SECONDS",
        help="stop after this long with the boards made (default: 60)",
    )
    drills.add_argument(
        "--format",
        choices=("jsonl", "json"),
        default="jsonl",
        help="jsonl: one board a line (default); json: one list of them",
    )
    drills.add_argument("-o", "--output", default="-", metavar="FILE", help="write to FILE (default: stdout)")


def _add_why_not(commands: Commands) -> None:
    why = commands.add(
        "why-not",
        f"shudu why-not r1c2 6 {PUZZLE}\n"
        '  shudu why-not r1c2 2 \'{"givens": "...", "entries": "...", "pencil": {"r1c2": "27"}}\'',
        cmd_why_not,
    )
    why.add_argument("cell", metavar="CELL", help="the cell: r1c2 (row 1, column 2) or its index from 0")
    why.add_argument("digit", metavar="DIGIT", help="the digit (1-9, or A-P on grids larger than 9x9)")
    add_input(why)
    add_format(why, "text", "json")
