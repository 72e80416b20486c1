"""The puzzle bank at scale: fill it from generate chunks run on every core or a Dask cluster,
export it to Parquet, JSON lines or CSV, and import a rated batch output into it.

Only this process writes the SQLite file: workers return records, and the chunks finished in
the last half second go into the bank in one transaction (:meth:`shudu.store.Store.add_to_bank`),
so a fill killed at any moment keeps every transaction it made and never half of a row.
"""

from __future__ import annotations

import csv
import importlib
import itertools
import json
import math
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import shudu

from ..errors import OptionError, ShuduError
from ..formats import parse_json, parse_puzzle, to_json
from ..generator.request import RULE_SETS
from ..geometry import Box
from ..notation import LEVELS, RATING_FIELDS, STATUS_WORDS
from ..store import BankEntry, Store
from ..variants import VariantLike
from .output import check_output, form_of, write_output
from .runner import CHUNK, _chunks, open_pool
from .tasks import Record, Spec

#: The fields of an exported bank, in order; ``puzzle`` is the puzzle's JSON form as text.
EXPORT_FIELDS = (
    "id",
    "size",
    "variant",
    *RATING_FIELDS,
    "clues",
    "givens",
    "solution",
    "puzzle",
    "source",
    "served",
)

#: Seconds between the fill's transactions: a transaction costs a connection and an fsync
#: (tens of ms on a busy disk), so finished chunks are stored together at most this often.
STORE_EVERY = 0.5

#: Bad records reported one by one; the rest are counted.
SHOWN_ERRORS = 20


@dataclass
class Filled:
    """What a fill did: puzzles made, those new in the bank, the records' statuses and errors,
    and whether its deadline stopped it."""

    made: int = 0
    new: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    out_of_time: bool = False

    @property
    def again(self) -> int:
        """Puzzles made that were in the bank already."""
        return self.made - self.new


def entry_of_generated(record: Record, rule_set: str | None = None) -> BankEntry:
    """The bank entry of a ``generate`` record (status ``unique``); ``rule_set`` names the set
    of constraint rules it was made with (the record then carries them)."""
    puzzle: dict[str, Any] = {"size": record["size"]}
    for name in ("box", "variant", "layout", "regions", "rules"):
        if record.get(name) is not None and not (name == "variant" and record[name] == "standard"):
            puzzle[name] = record[name]
    puzzle["givens"] = record["givens"]
    return BankEntry(
        puzzle,
        str(record["level"]),
        se=record.get("se"),
        score=record.get("score"),
        hardest=record.get("hardest"),
        solution=record.get("solution"),
        rule_set=rule_set if puzzle.get("rules") else None,
    )


def fill(
    store: Store,
    spec: Spec,
    count: int,
    *,
    jobs: int = 1,
    dask: str | None = None,
    chunk: int = 0,
    timeout: float | None = None,
    progress: Callable[[Filled], None] | None = None,
    on_chunk: Callable[[int], None] | None = None,
    filled: Filled | None = None,
) -> Filled:
    """Make ``count`` puzzles as ``spec`` (a ``generate`` spec with a ``seed``: puzzle k from
    seed + k - 1) on ``jobs`` processes or a Dask cluster, storing what is made as it comes.

    ``filled``, when given, is the tally to keep, so that a caller still has it when the fill
    is interrupted (it is the one returned).

    ``timeout`` bounds the whole fill: no chunk starts after it, each puzzle's own deadline is
    the time left when its chunk is sent, and what was stored by then is kept.
    """
    if spec.command != "generate":
        raise ValueError("a bank is filled by a generate spec")
    base = int(spec.options.get("seed") or 0)
    chunk = chunk or (1 if timeout is not None else CHUNK["generate"])
    deadline = None if timeout is None else time.monotonic() + timeout
    filled = Filled() if filled is None else filled
    run = _Filling(store, open_pool("generate", jobs, dask), filled, deadline, progress, on_chunk)
    run.rule_set = _rule_set(spec.options.get("rules"))
    work = ((index, base + index - 1) for index in range(1, count + 1))
    try:
        for number, piece in enumerate(_chunks(work, chunk)):
            remaining = run.left()
            if remaining is not None:
                if remaining <= 0:
                    filled.out_of_time = True
                    break
                # no puzzle may outlast the fill: its own deadline is the time left now
                spec = replace(spec, options={**spec.options, "timeout": remaining})
            run.pending[run.pool.submit(spec, piece)] = number
            run.collect(block=False)
        run.collect(block=True)
    finally:
        try:
            run.keep()
        finally:
            run.pool.close()
    filled.out_of_time = filled.out_of_time or (deadline is not None and filled.statuses["timeout"] > 0)
    return filled


class _Filling:
    """One fill under way: the chunks sent and not collected yet, and the puzzles made and not
    stored yet (stored together every STORE_EVERY seconds)."""

    def __init__(
        self,
        store: Store,
        pool: Any,
        filled: Filled,
        deadline: float | None,
        progress: Callable[[Filled], None] | None,
        on_chunk: Callable[[int], None] | None,
    ) -> None:
        self.store, self.pool, self.filled, self.deadline = store, pool, filled, deadline
        self.progress, self.on_chunk = progress, on_chunk
        self.pending: dict[Any, int] = {}
        self.window = 2 * pool.width + 1
        self.made: list[BankEntry] = []  # finished, not stored yet
        self.stored = time.monotonic()
        #: The rule set the puzzles are made with (None: none).
        self.rule_set: str | None = None

    def keep(self) -> None:
        """Store what was made since the last time, in one transaction."""
        if self.made:
            self.filled.new += self.store.add_to_bank(self.made, source="generated")
            self.made.clear()
        self.stored = time.monotonic()

    def store_chunk(self, handle: Any) -> None:
        number = self.pending.pop(handle)
        records = self.pool.result(handle)
        filled = self.filled
        found = [
            entry_of_generated(r, self.rule_set)
            for r in records
            if r.get("status") == "unique" and r.get("level")
        ]
        self.made.extend(found)
        filled.made += len(found)
        # one transaction for what finished in the last STORE_EVERY seconds: a kill keeps every
        # transaction before it, whole, and one writer keeps up with any number of workers
        if time.monotonic() - self.stored >= STORE_EVERY or len(self.made) >= 1000:
            self.keep()
        filled.statuses.update(str(r.get("status")) for r in records)
        filled.errors += [f"seed {r['seed']}: {r['error']}" for r in records if r.get("error")]
        if self.progress is not None:
            self.progress(filled)
        if self.on_chunk is not None:
            self.on_chunk(number)

    def left(self) -> float | None:
        """The seconds left to the fill, or None when it has no deadline."""
        return None if self.deadline is None else self.deadline - time.monotonic()

    def collect(self, block: bool) -> None:
        """Store the chunks that are done: all of them (``block``), or enough to send more."""
        pending = self.pending
        while pending and (block or len(pending) >= self.window):
            remaining = self.left()
            if remaining is not None and remaining <= 0:
                self.filled.out_of_time = True
                for handle in list(pending):
                    if self.pool.cancel(handle):
                        del pending[handle]
                if not pending:
                    return
            for handle in self.pool.finished(set(pending)):
                self.store_chunk(handle)


def _rule_set(rules: Any) -> str | None:
    """A ``rules`` option as the generator names the rule set (None: none)."""
    return rules.strip().lower().replace(" ", "-") if isinstance(rules, str) else None


# --- export ----------------------------------------------------------------------------------


def export(store: Store, path: str) -> int:
    """Write every puzzle of the bank (served or not) to ``path`` (.parquet, .jsonl, .csv or a
    folder of Parquet parts) with its size, variant, level, rating and solution; how many."""
    form = form_of(path)
    check_output(path, form, forcible=False)
    written = 0

    def chunks() -> Iterator[list[Record]]:
        nonlocal written
        rows = (_exported(row) for row in store.bank_rows())
        while piece := list(itertools.islice(rows, 1000)):
            written += len(piece)
            yield piece

    write_output(path, form, list(EXPORT_FIELDS), chunks())
    return written


def _exported(row: dict[str, Any]) -> Record:
    puzzle = row["puzzle"]
    givens = str(row["givens"])
    return {
        **{name: row.get(name) for name in EXPORT_FIELDS},
        "clues": sum(1 for c in givens if c not in ".0"),
        "puzzle": json.dumps(puzzle, ensure_ascii=False, separators=(",", ":")),
    }


# --- import ----------------------------------------------------------------------------------


@dataclass
class Imported:
    """What an import did: records read, puzzles new in the bank, records skipped and why."""

    read: int = 0
    new: int = 0
    banked: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    bad: int = 0

    @property
    def again(self) -> int:
        """Good records whose puzzle was in the bank already."""
        return self.banked - self.new


class _Skip(Exception):
    """A record that is no error but holds no bankable puzzle (status timeout, invalid …)."""


def import_records(
    store: Store,
    path: str,
    *,
    box: Box | str | None = None,
    variant: VariantLike = None,
    source: str = "imported",
) -> Imported:
    """Put the puzzles of a rated batch output (``shudu batch rate|explain|generate``, or an
    exported bank) into the bank: each one checked to have one solution and a level; a bad
    record is reported by its line and skipped, the others imported, none twice.

    ``box`` and ``variant`` are those of the batch job, for puzzles stored as text.
    """
    done = Imported()
    batch: list[BankEntry] = []

    def keep() -> None:
        done.banked += len(batch)
        done.new += store.add_to_bank(batch, source=source)
        batch.clear()

    try:
        for where, record in read_records(path):
            done.read += 1
            try:
                if isinstance(record, str):
                    raise ShuduError(record)
                batch.append(entry_of_record(record, box=box, variant=variant))
            except _Skip as skip:
                done.skipped[str(skip)] += 1
                continue
            except ShuduError as exc:
                done.bad += 1
                if len(done.errors) < SHOWN_ERRORS:
                    done.errors.append(f"{where}: {exc}")
                continue
            if len(batch) >= 1000:
                keep()
    finally:
        # a file that stops being readable halfway keeps the good records before that point
        if batch:
            keep()
    if done.read == 0:
        raise ShuduError(f"{path} holds no record")
    return done


def entry_of_record(
    record: Record, *, box: Box | str | None = None, variant: VariantLike = None
) -> BankEntry:
    """The bank entry of one record, checked; :class:`ShuduError` saying what is wrong."""
    status = record.get("status")
    if status not in (None, "", "unique"):
        raise _Skip(str(status))
    level = record.get("level")
    if level in (None, ""):
        raise ShuduError("no level: import a rated output (shudu batch rate, explain or generate)")
    if level not in LEVELS:
        raise ShuduError(f"level {level!r} is not one of {', '.join(LEVELS)}")
    se = _number(record.get("se"), "se", float)
    score = _number(record.get("score"), "score", int)
    hardest = record.get("hardest")
    if hardest in ("", None):
        hardest = None
    elif not isinstance(hardest, str):
        raise ShuduError(f"hardest must be the name of a technique, not {hardest!r}")
    puzzle = _puzzle(record, box, variant)
    result = shudu.solve(puzzle)
    if result.status != "unique" or result.solution is None:
        found = STATUS_WORDS[result.status]
        raise ShuduError(f"the puzzle has {found}; the bank keeps puzzles with one solution")
    solution = result.solution.to_string()
    given = record.get("solution")
    if given not in (None, "") and given != solution:
        raise ShuduError("the solution given is not the puzzle's solution")
    # an exported bank names a puzzle with rules by its rule set ("killer"), which it keeps
    named = record.get("variant")
    rule_set = named if puzzle.geometry.variant.rules and named in RULE_SETS else None
    return BankEntry(
        to_json(puzzle), str(level), se=se, score=score, hardest=hardest, solution=solution, rule_set=rule_set
    )


def _number(value: Any, name: str, kind: type) -> Any:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            value = kind(value)
        except ValueError:
            raise ShuduError(f"{name} must be a number, not {value!r}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ShuduError(f"{name} must be a number, not {value!r}")
    if value < 0 or (kind is int and value != int(value)):
        raise ShuduError(f"{name} must be a {'whole ' if kind is int else ''}number from 0, not {value!r}")
    return kind(value)


def _puzzle(record: Record, box: Box | str | None, variant: VariantLike) -> shudu.Puzzle:
    """The puzzle of a record: its ``givens`` with ``size``, ``box`` and variant fields (a
    generate record), or its ``puzzle`` as text (a rate or explain record, an exported bank)."""
    givens = record.get("givens")
    text = record.get("puzzle")
    if isinstance(text, str) and text.strip():
        return parse_puzzle(text.strip(), box=box, variant=variant)
    if isinstance(givens, str) and givens:
        fields: dict[str, Any] = {"givens": givens}
        for name in ("size", "box", "variant", "layout", "regions"):
            value = record.get(name)
            if isinstance(value, str) and name in ("box", "regions") and value:
                try:
                    value = json.loads(value)  # a CSV cell holds lists as JSON
                except ValueError:
                    raise ShuduError(f"{name} must be a JSON list, not {value!r}") from None
            if isinstance(value, str) and name == "size" and value.isdigit():
                value = int(value)
            if value not in (None, ""):
                fields[name] = value
        return parse_json(fields, box=box, variant=variant)
    raise ShuduError("no puzzle: a record needs 'puzzle' (text) or 'givens'")


def read_records(path: str) -> Iterator[tuple[str, Record | str]]:
    """Each record of a batch output with where it is (``line N``, ``record N``), or the
    message saying why that line is no record; streamed, never read whole."""
    try:
        form = form_of(path)
    except OptionError:
        raise ShuduError(
            f"{path}: a batch output ends in .jsonl, .csv or .parquet, or is a folder of Parquet parts"
        ) from None
    target = Path(path)
    if form == "parts" and not target.is_dir():
        raise ShuduError(f"cannot read {path}: no such folder")
    try:
        if form == "jsonl":
            yield from _jsonl(target)
        elif form == "csv":
            yield from _csv(target)
        else:
            yield from _parquet(target, form)
    except OSError as exc:
        raise ShuduError(f"cannot read {path}: {exc.strerror}") from None


def _jsonl(path: Path) -> Iterator[tuple[str, Record | str]]:
    with open(path, "rb") as stream:
        for number, raw in enumerate(stream, start=1):
            where = f"line {number}"
            if not raw.strip():
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield where, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})"
                continue
            try:
                record = json.loads(text.removeprefix("\ufeff"))
            except ValueError as exc:
                yield where, f"not JSON: {exc}"
                continue
            if not isinstance(record, dict):
                yield where, "not a JSON object"
                continue
            yield where, record


def _csv(path: Path) -> Iterator[tuple[str, Record | str]]:
    with open(path, encoding="utf-8-sig", newline="", errors="strict") as stream:
        reader = csv.DictReader(stream)
        try:
            for row in reader:
                where = f"line {reader.line_num}"
                if None in row or any(value is None for value in row.values()):
                    yield where, f"{len(reader.fieldnames or [])} columns expected"
                    continue
                yield where, {name: (value if value != "" else None) for name, value in row.items()}
        except UnicodeDecodeError as exc:
            raise ShuduError(f"{path} is not UTF-8 text (byte offset {exc.start})") from None
        except csv.Error as exc:
            raise ShuduError(f"{path} line {reader.line_num}: {exc}") from None


def _parquet(path: Path, form: str) -> Iterator[tuple[str, Record | str]]:
    try:
        parquet: Any = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise ShuduError("reading Parquet needs pyarrow: pip install 'shudu[batch]'") from None
    files = sorted(path.glob("part-*.parquet")) if form == "parts" else [path]
    number = 0
    for file in files:
        try:
            batches = parquet.ParquetFile(file).iter_batches(batch_size=1000)
            for batch in batches:
                for record in batch.to_pylist():
                    number += 1
                    yield f"record {number}", record
        except (OSError, ValueError) as exc:
            if isinstance(exc, OSError) and exc.strerror:
                raise
            # pyarrow's errors are ValueError or OSError without an errno
            raise ShuduError(f"cannot read {file} as Parquet: {exc}") from None
