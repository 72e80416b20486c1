"""The output forms of a batch job: JSON lines, CSV, one Parquet file or a folder of Parquet parts.

Each writer takes the records chunk by chunk, so the output is never held whole in memory, and
writes under a temporary name renamed into place (a folder of parts: part by part).
"""

from __future__ import annotations

import csv
import glob
import importlib
import io
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import OptionError, ShuduError
from .journal import sweep_temporaries, write_atomically

Record = dict[str, Any]

FORMS = {".jsonl": "jsonl", ".csv": "csv", ".parquet": "parquet"}

_INTS = {"id", "line", "index", "seed", "count", "score", "size", "clues", "served"}
_FLOATS = {"se", "seconds"}
_BOOLS = {"capped"}
_NESTED = {"steps", "techniques", "box", "regions"}


def form_of(path: str) -> str:
    """``jsonl``, ``csv``, ``parquet`` (one file) or ``parts`` (a folder of Parquet parts)."""
    if path.endswith(("/", os.sep)) or Path(path).is_dir():
        return "parts"
    form = FORMS.get(Path(path).suffix.lower())
    if form is None:
        raise OptionError(
            f"-o must end in .jsonl, .csv or .parquet, or name a folder (ending in /) for Parquet parts, "
            f"not {path!r}",
            option="-o",
            value=path,
        )
    return form


#: What a folder of Parquet parts may hold and still be taken as an earlier output of a batch:
#: its parts, the interrupted job's journal, and the temporaries of a killed writer.
_OURS = re.compile(r"part-\d{8}\.parquet|\.journal|\.part-\d{8}\.parquet\.tmp-\d+")


def check_output(path: str, form: str, *, force: bool = False, forcible: bool = True) -> None:
    """Refuse an ``-o`` that would write where it should not, before any work: the root of a
    file system always, and a folder of parts that holds anything but an earlier output of a
    batch (its parts, its journal) unless ``force``. A new or empty folder is fine, and so is
    the folder of an interrupted or finished run, which the same command takes up again.
    ``forcible``: whether the command has ``--force`` to say so."""
    if form != "parts":
        return
    target = Path(path)
    resolved = target.resolve()
    if resolved == Path(resolved.anchor):
        raise OptionError(
            f"-o {path} is the root of the file system: name a new or empty folder for the Parquet parts",
            option="-o",
            value=path,
        )
    if force or not target.is_dir():
        return
    try:
        strangers = sorted(entry.name for entry in target.iterdir() if not _OURS.fullmatch(entry.name))
    except OSError as exc:
        raise ShuduError(f"cannot read the folder -o {path}: {exc.strerror}") from None
    if strangers:
        shown = ", ".join(strangers[:3]) + (f" and {len(strangers) - 3} more" if len(strangers) > 3 else "")
        way = ", or give --force to write the parts among what is there" if forcible else ""
        raise OptionError(
            f"-o {path} is a folder that holds more than a batch's Parquet parts ({shown}): name a new"
            f" or empty folder{way}",
            option="-o",
            value=path,
        )


def work_folder(path: str, form: str) -> Path:
    """Where the job keeps its finished chunks until the output is whole."""
    target = Path(path)
    if form == "parts":
        return target / ".journal"
    return target.with_name(f".{target.name}.journal")


def _cell(name: str, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if name in _NESTED or isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _rows(records: list[Record], fields: list[str]) -> list[Record]:
    return [{name: record.get(name) for name in fields} for record in records]


def _require_pyarrow() -> Any:
    try:
        # imported by name: pyarrow has no type information, and is needed only here
        pyarrow = importlib.import_module("pyarrow")
        importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise ShuduError(
            "Parquet output needs pyarrow: pip install 'shudu[batch]' (or write .jsonl or .csv)"
        ) from None
    return pyarrow


def _schema(pa: Any, fields: list[str]) -> Any:
    def kind(name: str) -> Any:
        if name in _INTS:
            return pa.int64()
        if name in _FLOATS:
            return pa.float64()
        if name in _BOOLS:
            return pa.bool_()
        return pa.string()

    return pa.schema([(name, kind(name)) for name in fields])


def _table(pa: Any, schema: Any, records: list[Record]) -> Any:
    columns = {}
    for name in schema.names:
        values = [record.get(name) for record in records]
        if name in _NESTED:
            values = [None if v is None else json.dumps(v, ensure_ascii=False) for v in values]
        columns[name] = values
    return pa.table(columns, schema=schema)


def write_output(path: str, form: str, fields: list[str], chunks: Iterable[list[Record]]) -> None:
    """Write the records of every chunk, in order, to ``path`` in ``form``."""
    target = Path(path)
    try:
        if form == "parts":
            _write_parts(target, fields, chunks)
            return
        temporary = target.with_name(f".{target.name}.tmp-{os.getpid()}")
        if form == "parquet":
            pa = _require_pyarrow()
            schema = _schema(pa, fields)
            with pa.parquet.ParquetWriter(temporary, schema) as writer:
                for records in chunks:
                    writer.write_table(_table(pa, schema, records))
        else:
            with open(temporary, "w", encoding="utf-8", newline="") as stream:
                if form == "csv":
                    table = csv.writer(stream)
                    table.writerow(fields)
                    for records in chunks:
                        table.writerows([_cell(n, r.get(n)) for n in fields] for r in records)
                else:
                    for records in chunks:
                        stream.writelines(
                            json.dumps(row, ensure_ascii=False) + "\n" for row in _rows(records, fields)
                        )
                stream.flush()
                os.fsync(stream.fileno())
        os.replace(temporary, target)
        sweep_temporaries(target.parent, glob.escape(target.name))
    except OSError as exc:
        raise ShuduError(f"cannot write {path}: {exc.strerror}") from None


def _write_parts(folder: Path, fields: list[str], chunks: Iterable[list[Record]]) -> None:
    pa = _require_pyarrow()
    schema = _schema(pa, fields)
    folder.mkdir(parents=True, exist_ok=True)
    written = set()
    for number, records in enumerate(chunks):
        buffer = io.BytesIO()
        pa.parquet.write_table(_table(pa, schema, records), buffer)
        name = f"part-{number:08d}.parquet"
        write_atomically(folder / name, buffer.getvalue())
        written.add(name)
    for stale in folder.glob("part-*.parquet"):
        if stale.name not in written:
            stale.unlink()
    sweep_temporaries(folder, "part-*.parquet")
