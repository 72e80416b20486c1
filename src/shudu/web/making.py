"""Slow new puzzles made in the background, into the bank, with progress to show while they are made.

A kind of puzzle that cannot be made within a request's deadline (16x16 and 25x25, or a hard 9x9
on a busy machine) is not answered with an error: a :class:`Maker` starts a process of its own
that generates one puzzle of that kind and puts it in the bank, reporting its progress as it goes.
The page asks again every moment; each ask sees the progress, and the first ask after the puzzle
is made takes it from the bank. One making runs per kind at a time, at most ``limit`` at once;
a making nobody has asked about for :data:`ABANDONED` seconds, or older than ``cap`` seconds, is
killed, so it never leaves a CPU busy for nobody.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from ..store import Store
from .workers import CONTEXT

#: Seconds without a request about a making before it is given up.
ABANDONED = 20.0
#: Kinds of puzzle: size, variant and level (None: any).
Kind = tuple[int, str, str | None]


def make(size: int, variant: str, level: str | None, timeout: float, conn: Connection) -> None:
    """In the making's own process: generate one puzzle, sending progress, then the puzzle."""
    import shudu
    from shudu.formats import to_json
    from shudu.generator import generate_many

    from .jobs import failure

    def progress(state: Any) -> None:
        conn.send(("progress", {"grids": state.grids, "rated": state.rated}))

    try:
        for made in generate_many(
            1, size=size, variant=variant, level=level, timeout=timeout, rate=True, progress=progress
        ):
            conn.send(("done", (to_json(made.puzzle), str(made.level))))
    except (shudu.ShuduError, ValueError) as exc:
        conn.send(("error", failure(exc)))


@dataclass
class Making:
    """One puzzle being made: what it has done so far, and how it ended."""

    kind: Kind
    process: BaseProcess
    conn: Connection
    started: float = field(default_factory=time.monotonic)
    asked: float = field(default_factory=time.monotonic)
    grids: int = 0
    rated: int = 0
    state: str = "making"  # making / done / failed
    error: dict[str, Any] | None = None

    def report(self) -> dict[str, Any]:
        size, variant, level = self.kind
        return {
            "size": size,
            "variant": variant,
            "level": level,
            "state": self.state,
            "grids": self.grids,
            "rated": self.rated,
            "seconds": round(time.monotonic() - self.started, 1),
        }


class TooMany(Exception):
    """As many makings run as are allowed."""


class Maker:
    """The makings under way, at most ``limit`` at once, each stopped after ``cap`` seconds."""

    def __init__(
        self,
        store: Store,
        *,
        limit: int = 2,
        cap: float = 600.0,
        job: Callable[[int, str, str | None, float, Connection], None] = make,
    ) -> None:
        self.store = store
        self.limit = limit
        self.cap = cap
        self.job = job
        self.makings: dict[Kind, Making] = {}
        self.lock = threading.Lock()

    def ask(self, kind: Kind) -> dict[str, Any] | None:
        """The progress of the making of ``kind`` (started now if none runs); None if it just
        finished (the puzzle waits in the bank). A making that failed reports it once, then is
        forgotten, so the next ask starts afresh."""
        with self.lock:
            making = self.makings.get(kind)
            if making is None:
                if sum(m.state == "making" for m in self.makings.values()) >= self.limit:
                    raise TooMany(
                        f"{self.limit} new puzzles are being made already; try again when one is ready"
                    )
                making = self.makings[kind] = self._start(kind)
            making.asked = time.monotonic()
            if making.state == "making":
                return making.report()
            del self.makings[kind]
            return {**making.report(), "error": making.error} if making.state == "failed" else None

    def underway(self, kind: Kind) -> bool:
        """Whether a making of ``kind`` runs or has news to tell."""
        with self.lock:
            return kind in self.makings

    def running(self) -> list[dict[str, Any]]:
        with self.lock:
            return [m.report() for m in self.makings.values() if m.state == "making"]

    def _start(self, kind: Kind) -> Making:
        conn, child = CONTEXT.Pipe(duplex=False)
        process = CONTEXT.Process(target=self.job, args=(*kind, self.cap, child), daemon=True)
        process.start()
        child.close()
        making = Making(kind, process, conn)
        threading.Thread(target=self._follow, args=(making,), daemon=True, name="shudu-making").start()
        return making

    def _follow(self, making: Making) -> None:
        """Read the making's messages until it ends, is abandoned, or runs past the cap."""
        try:
            while True:
                now = time.monotonic()
                if now - making.asked > ABANDONED or now - making.started > self.cap + 5:
                    self._end(making, "failed", {"error": "the puzzle was not made in time", "status": 503})
                    return
                if not making.conn.poll(0.25):
                    if not making.process.is_alive() and not making.conn.poll():
                        self._end(making, "failed", {"error": "the puzzle maker stopped", "status": 500})
                        return
                    continue
                message, value = making.conn.recv()
                if message == "progress":
                    making.grids, making.rated = int(value["grids"]), int(value["rated"])
                elif message == "done":
                    self.store.add_to_bank([value], source="generated")
                    self._end(making, "done")
                    return
                else:
                    self._end(making, "failed", value)
                    return
        except (EOFError, OSError):
            self._end(making, "failed", {"error": "the puzzle maker stopped", "status": 500})

    def _end(self, making: Making, state: str, error: dict[str, Any] | None = None) -> None:
        with self.lock:
            making.state, making.error = state, error
            if state == "failed" and time.monotonic() - making.asked > ABANDONED:
                self.makings.pop(making.kind, None)  # nobody waits to be told
        if making.process.is_alive():
            making.process.kill()
        making.process.join(5)
        making.conn.close()

    def close(self) -> None:
        with self.lock:
            makings = list(self.makings.values())
            self.makings.clear()
        for making in makings:
            if making.process.is_alive():
                making.process.kill()
            making.process.join(5)
