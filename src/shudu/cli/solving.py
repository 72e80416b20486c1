"""``shudu solve``, ``count``, ``variants``, ``rules`` and ``algorithms``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .. import api, rules, solvers
from .. import variants as variant_registry
from ..errors import SearchTimeout, ShuduError
from ..formats import Entry, format_grid
from ..notation import STATUS_WORDS
from ._base import PUZZLE, Commands, Output
from ._common import add_format, add_input, read_entries
from ._common import count as count_option


def cmd_solve(args: argparse.Namespace, out: Output) -> None:
    for entry in read_entries(args):
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
            "solution": None,
            "error": entry.error.message if entry.error else None,
        }
        if result is not None:
            record.update(result.to_json())
        out.answer(json.dumps(record, ensure_ascii=False))
    elif args.format == "grid":
        out.answer(f"# line {entry.line}: {status}")
        if solution:
            out.answer(format_grid(solution) + "\n")
        else:
            out.answer("")
    else:
        out.answer(solution.to_string() if solution else STATUS_WORDS["none"] if status == "none" else status)


def cmd_count(args: argparse.Namespace, out: Output) -> None:
    for entry in read_entries(args):
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
            out.note(f"line {entry.line}: timeout ({exc.message}) after {exc.found} solutions")
            out.answer(f"≥{exc.found}")
            continue
        except ShuduError as exc:
            out.problem(str(exc.at_line(entry.line)))
            out.answer("invalid")
            continue
        capped = args.limit is not None and found >= args.limit
        out.answer(f"≥{found}" if capped else str(found))


def cmd_variants(args: argparse.Namespace, out: Output) -> None:
    names = variant_registry.names()
    width = max(map(len, names))
    for name, description in names.items():
        out.answer(f"{name:<{width}}  {description}")


_FAMILIES = ("sums", "order", "pairs", "lines", "cells", "regions")


def cmd_rules(args: argparse.Namespace, out: Output) -> None:
    found = sorted(rules.rule_types().values(), key=lambda t: (_FAMILIES.index(t.family), t.name))
    if args.format == "json":
        for rtype in found:
            row = {
                "rule": rtype.name,
                "family": rtype.family,
                "title": rtype.title,
                "description": rtype.description,
                "parameters": [p.lstrip("*") for p in rtype.params],
                "example": rtype.example,
            }
            out.answer(json.dumps(row, ensure_ascii=False))
        return
    width = max(len(t.name) for t in found)
    family = ""
    for rtype in found:
        if rtype.family != family:
            family = rtype.family
            out.answer(f"{'' if found[0] is rtype else chr(10)}{family}:")
        params = ", ".join(p.lstrip("*") + ("…" if p.startswith("*") else "") for p in rtype.params)
        out.answer(f"  {rtype.name:<{width}}  {rtype.description}" + (f" [{params}]" if params else ""))
        out.answer(f"  {'':<{width}}  e.g. {json.dumps(rtype.example, ensure_ascii=False)}")


def cmd_algorithms(args: argparse.Namespace, out: Output) -> None:
    found = solvers.available()
    width = max(map(len, found))
    default = solvers.get("auto").name
    for name, solver in found.items():
        mark = " (default)" if name == default else ""
        out.answer(f"{name:<{width}}  {solver.description}{mark}")


def register(commands: Commands) -> None:
    solve = commands.add(
        "solve",
        f"shudu solve {PUZZLE}\n  shudu solve -i puzzles.txt --format json\n"
        "  shudu solve --variant pyramid -i pyramid.txt --format grid",
        cmd_solve,
    )
    add_input(solve)
    add_format(solve, "line", "grid", "json")

    count = commands.add(
        "count",
        "shudu count ................ --limit 1000",
        cmd_count,
    )
    add_input(count)
    count.add_argument(
        "--limit",
        type=count_option("--limit", minimum=1),
        metavar="N",
        help="stop counting at N solutions (N at least 1)",
    )

    commands.add("variants", "shudu variants", cmd_variants)
    listing = commands.add(
        "rules",
        "shudu rules\n  shudu rules --format json",
        cmd_rules,
    )
    add_format(listing, "text", "json")
    commands.add("algorithms", "shudu algorithms", cmd_algorithms)
