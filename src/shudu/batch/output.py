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
