"""The work of one chunk: a list of puzzles in, a list of records out, in the same order.

Everything here is a plain top-level function of plain data, so that a chunk can run in this
process, in a process pool or on a Dask worker alike, and gives the same records wherever it
runs (timing fields aside).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import shudu

from ..errors import SearchTimeout, ShuduError
from ..formats import parse_puzzle
from ..generator import GeneratorTimeout
from ..notation import RATING_FIELDS
from ..puzzle import Puzzle, size_from_cells

#: The commands of ``shudu batch``.
COMMANDS = ("solve", "count", "rate", "explain", "generate")

Record = dict[str, Any]


@dataclass(frozen=True)
class Spec:
    """What to do with each puzzle: the command and its options (all plain, picklable data)."""

    command: str
    options: dict[str, Any] = field(default_factory=dict)
    #: threads of the C batch for ``solve`` (the other commands use processes instead)
    threads: int = 1

    def identity(self) -> dict[str, Any]:
        """The fields that decide the records: a resumed job must have the same."""
        return {"command": self.command, "options": self.options}


@dataclass(frozen=True)
class Item:
    """One input puzzle: where it was read, its text, and it or its error."""

    line: int
    text: str
    puzzle: Puzzle | None
    error: str | None
    file: str | None = None
    #: False for a line not parsed yet (see :func:`parsed`)
    parsed: bool = True


def head(item: Item) -> Record:
    """The fields every record starts with: where the puzzle came from."""
    record: Record = {}
    if item.file is not None:
        record["file"] = item.file
    record["line"] = item.line
    record["puzzle"] = item.text.strip()
    return record


def invalid_record(spec: Spec, item: Item) -> Record:
    """The record of a puzzle that could not be read (or that the engine refused)."""
    record = head(item)
    for name in FIELDS[spec.command][len(record) :]:
        if name not in record:
            record[name] = None
    record["status"] = "invalid"
    record["error"] = item.error
    return record


def _solve(spec: Spec, item: Item) -> Record:
    assert item.puzzle is not None
    options = spec.options
    result = shudu.solve(
        item.puzzle,
        algorithm=options.get("algorithm", "auto"),
        node_limit=options.get("node_limit"),
        timeout=options.get("timeout"),
    )
    answer = result.to_json()
    return {**head(item), "status": answer["status"], "solution": answer["solution"], "error": None}


def _count(spec: Spec, item: Item) -> Record:
    assert item.puzzle is not None
    options = spec.options
    limit = options.get("limit")
    try:
        found = shudu.count(
            item.puzzle,
            limit,
            algorithm=options.get("algorithm", "auto"),
            node_limit=options.get("node_limit"),
            timeout=options.get("timeout"),
        )
    except SearchTimeout as exc:
        return {**head(item), "status": "timeout", "count": exc.found, "capped": False, "error": None}
    status = "none" if found == 0 else "unique" if found == 1 else "multiple"
    capped = limit is not None and found >= limit
    return {**head(item), "status": status, "count": found, "capped": capped, "error": None}


def _logic_options(spec: Spec) -> dict[str, Any]:
    options = spec.options
    return {
        "timeout": options.get("timeout"),
        "node_limit": options.get("node_limit"),
        "allow_multiple": bool(options.get("allow_multiple")),
    }


def _rate(spec: Spec, item: Item) -> Record:
    assert item.puzzle is not None
    rating = shudu.rate(item.puzzle, **_logic_options(spec))
    found = rating.to_json()
    record = head(item)
    for name in ("status", *RATING_FIELDS):
        record[name] = found.get(name)
    record["error"] = None
    return record


def _explain(spec: Spec, item: Item) -> Record:
    assert item.puzzle is not None
    found = shudu.explain(item.puzzle, **_logic_options(spec)).to_json()
    record = head(item)
    for name in ("status", *RATING_FIELDS, "steps", "techniques"):
        record[name] = found.get(name)
    record["error"] = None
    return record


_WORK: dict[str, Callable[[Spec, Item], Record]] = {
    "solve": _solve,
    "count": _count,
    "rate": _rate,
    "explain": _explain,
}

#: The fields of each command's records, in order (``file`` first when the input is a folder;
#: ``seconds`` last unless ``--no-timing``).
FIELDS: dict[str, tuple[str, ...]] = {
    "solve": ("line", "puzzle", "status", "solution", "error"),
    "count": ("line", "puzzle", "status", "count", "capped", "error"),
    "rate": ("line", "puzzle", "status", *RATING_FIELDS, "error"),
    "explain": ("line", "puzzle", "status", *RATING_FIELDS, "steps", "techniques", "error"),
    "generate": (
        "index",
        "seed",
        "status",
        "givens",
        "solution",
        "size",
        "box",
        "variant",
        "layout",
        "regions",
        *RATING_FIELDS,
        "clues",
        "error",
    ),
}


def parsed(spec: Spec, item: Item) -> Item:
    """The item with its puzzle (or its error), parsing its line if that was left to the worker."""
    if item.parsed or item.error is not None:
        return item
    options = spec.options
    try:
        puzzle = parse_puzzle(
            item.text, box=options.get("box"), variant=options.get("variant"), line=item.line
        )
    except ShuduError as exc:
        return Item(item.line, item.text, None, exc.message, item.file)
    return Item(item.line, item.text, puzzle, None, item.file)


def _timed(work: Callable[[Spec, Item], Record], spec: Spec, item: Item) -> Record:
    start = time.perf_counter()
    record = work(spec, item)
    record["seconds"] = round(time.perf_counter() - start, 6)
    return record


def run_items(spec: Spec, items: Sequence[Item]) -> list[Record]:
    """The records of a chunk of puzzles, in order; one bad puzzle never stops the others."""
    if spec.command == "solve" and _fits_c_batch_unparsed(spec, items):
        return _solve_many(spec, items)
    items = [parsed(spec, item) for item in items]
    if spec.command == "solve" and _fits_c_batch(spec, items):
        return _solve_many(spec, items)
    work = _WORK[spec.command]
    records: list[Record] = []
    for item in items:
        if item.puzzle is None:
            records.append(_timed(invalid_record, spec, item))
            continue
        try:
            records.append(_timed(work, spec, item))
        except ShuduError as exc:
            bad = Item(item.line, item.text, None, exc.message, item.file)
            records.append(_timed(invalid_record, spec, bad))
    return records


def _fits_c_batch(spec: Spec, items: Sequence[Item]) -> bool:
    """Whether ``solve_many`` answers this chunk exactly as ``shudu.solve`` would one by one:
    the default algorithm, no deadline (its timeout bounds the whole call, not each puzzle),
    and puzzles of one shape in line form."""
    options = spec.options
    if options.get("algorithm", "auto") != "auto" or options.get("timeout") is not None:
        return False
    puzzles = [item.puzzle for item in items if item.puzzle is not None]
    if not puzzles:
        return False
    geometry = puzzles[0].geometry
    return all(p.geometry == geometry for p in puzzles) and geometry.variant.layout is None


def _fits_c_batch_unparsed(spec: Spec, items: Sequence[Item]) -> bool:
    """Whether the C batch can read this chunk's lines itself: standard grids of one size in
    line form (it checks each line as :func:`shudu.solve` would, and says what is wrong)."""
    options = spec.options
    if options.get("box") is not None or options.get("variant") is not None:
        return False
    if options.get("algorithm", "auto") != "auto" or options.get("timeout") is not None:
        return False
    lines = [item for item in items if item.error is None]
    if not lines or any(item.parsed or item.text.startswith("{") for item in lines):
        return False
    length = len(lines[0].text)
    try:
        size_from_cells(length)
    except ShuduError:
        return False
    return all(len(item.text) == length for item in lines)


def _solve_many(spec: Spec, items: Sequence[Item]) -> list[Record]:
    good = [item for item in items if item.puzzle is not None or (not item.parsed and item.error is None)]
    start = time.perf_counter()
    first = good[0].puzzle
    batch = shudu.solve_many(
        [item.text if item.puzzle is None else item.puzzle.to_string() for item in good],
        limit=2,
        threads=spec.threads,
        node_limit=spec.options.get("node_limit"),
        geometry=None if first is None else first.geometry,
    )
    # the C batch measures the chunk, not each puzzle: each record gets its share
    share = round((time.perf_counter() - start) / len(good), 6)
    answers = iter(zip(batch.statuses, batch.solutions, batch.errors, strict=True))
    records: list[Record] = []
    for item in items:
        if item.error is not None or (item.puzzle is None and item.parsed):
            record = invalid_record(spec, item)
        else:
            status, solution, error = next(answers)
            record = {**head(item), "status": status, "solution": solution, "error": None}
            if error is not None:
                record["status"] = "invalid"
                record["error"] = error.message
        record["seconds"] = share
        records.append(record)
    return records


def run_seeds(spec: Spec, seeds: Sequence[tuple[int, int]]) -> list[Record]:
    """``generate``: one record per (index, seed), each puzzle made from its own seed."""
    records: list[Record] = []
    options = spec.options
    for index, seed in seeds:
        start = time.perf_counter()
        record: Record = {"index": index, "seed": seed}
        try:
            made = shudu.generate(
                options.get("size"),
                box=options.get("box"),
                variant=options.get("variant"),
                level=options.get("level"),
                se=options.get("se"),
                technique=options.get("technique"),
                symmetry=options.get("symmetry") or "none",
                clues=options.get("clues"),
                minimal=bool(options.get("minimal")),
                rules=options.get("rules"),
                cages=options.get("cages"),
                seed=seed,
                timeout=options.get("timeout"),
                rate=True,
            )
            found = {**made.to_json(), "score": made.score}
            found.setdefault("variant", "standard")
            record["status"] = "unique"
            for name in FIELDS["generate"][3:-1]:
                record[name] = found.get(name)
            if found.get("rules"):
                record["rules"] = found["rules"]  # (a bank fill with rules: no output field)
            record["error"] = None
        except GeneratorTimeout:
            record.update({name: None for name in FIELDS["generate"][2:]})
            record["status"] = "timeout"
        except ShuduError as exc:
            record.update({name: None for name in FIELDS["generate"][2:]})
            record["status"] = "invalid"
            record["error"] = exc.message
        record["seconds"] = round(time.perf_counter() - start, 6)
        records.append(record)
    return records


def run_chunk(spec: Spec, work: Sequence[Any]) -> list[Record]:
    """One chunk of any command: puzzles (:class:`Item`) or, for ``generate``, (index, seed)."""
    if spec.command == "generate":
        return run_seeds(spec, work)
    return run_items(spec, work)
