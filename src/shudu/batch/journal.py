"""The job's work folder: finished chunks, each written whole and renamed into place.

A chunk file is written under a temporary name, flushed to disk and renamed, so it is either
absent or complete: a job killed at any moment (``kill -9`` included) leaves only whole chunks,
and the same command, run again, skips them and does the rest. The final output is assembled
from the chunks in input order, again under a temporary name renamed into place, and only then
is the work folder removed.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import ShuduError

Record = dict[str, Any]

_JOB = "job.json"


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that ``path`` never holds part of it."""
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(temporary, "wb") as stream:
        stream.write(data)
        stream.flush()
        os.fsync(stream.fileno())
    os.replace(temporary, path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process, or no way to tell: leave its file alone
        return True
    return True


def sweep_temporaries(folder: Path, names: str) -> None:
    """Remove the temporaries of the files ``names`` (a glob) in ``folder`` whose writers are gone.

    A temporary is named after its writer's process; one whose process was killed before the
    rename can never be renamed into place, so it is only litter. A live writer's file stays.
    """
    for stale in folder.glob(f".{names}.tmp-*"):
        pid = stale.name.rpartition(".tmp-")[2]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            stale.unlink(missing_ok=True)


def _differences(before: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """The names of the settings that differ, options by name (``--allow-multiple``)."""
    changed = []
    for key in sorted(set(before) | set(now)):
        old, new = before.get(key), now.get(key)
        if isinstance(old, dict) and isinstance(new, dict):
            changed += [
                name if name.startswith("--") else "--" + name.replace("_", "-")
                for name in _differences(old, new)
            ]
        elif old != new:
            changed.append(key)
    return changed


class Journal:
    """The finished chunks of one job, kept in ``folder`` until the output is whole."""

    def __init__(self, folder: Path, identity: dict[str, Any]) -> None:
        self.folder = folder
        self.identity = identity

    def open(self) -> bool:
        """Start the job, or take up an interrupted one; True when there was one to take up.

        A work folder left by a job with other options is an error rather than a silent mix.
        """
        job = self.folder / _JOB
        if job.is_file():
            try:
                before = json.loads(job.read_text("utf-8"))
            except (OSError, ValueError) as exc:
                raise ShuduError(f"cannot read the interrupted job in {self.folder}: {exc}") from None
            if before != self.identity:
                changed = _differences(before, self.identity)
                raise ShuduError(
                    f"{self.folder} holds an interrupted job with other options ({', '.join(changed)}); "
                    "run the same command to finish it, or remove that folder to start afresh"
                )
            return True
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomically(job, json.dumps(self.identity, sort_keys=True).encode())
        except OSError as exc:
            raise ShuduError(f"cannot write the job's work folder {self.folder}: {exc.strerror}") from None
        return False

    def _chunk(self, number: int) -> Path:
        return self.folder / f"chunk-{number:08d}.jsonl"

    def any(self) -> bool:
        """Whether some chunk is finished."""
        return any(self.folder.glob("chunk-*.jsonl"))

    def has(self, number: int) -> bool:
        return self._chunk(number).is_file()

    def digest(self, number: int) -> str:
        """The fingerprint of the input a finished chunk answered."""
        with open(self._chunk(number), "rb") as stream:
            header = json.loads(stream.readline())
        return str(header["digest"])

    def write(self, number: int, digest: str, records: list[Record]) -> None:
        lines = [json.dumps({"digest": digest, "records": len(records)})]
        lines += [json.dumps(record, ensure_ascii=False) for record in records]
        try:
            write_atomically(self._chunk(number), ("\n".join(lines) + "\n").encode("utf-8"))
        except OSError as exc:
            raise ShuduError(f"cannot write to {self.folder}: {exc.strerror}") from None

    def records(self, number: int) -> list[Record]:
        with open(self._chunk(number), encoding="utf-8") as stream:
            stream.readline()
            return [json.loads(line) for line in stream]

    def chunks(self, count: int) -> Iterator[list[Record]]:
        """The records of chunks 0 to ``count - 1``, in order."""
        for number in range(count):
            yield self.records(number)

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
