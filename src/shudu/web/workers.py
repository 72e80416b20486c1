"""Heavy work in worker processes that a deadline really stops.

A :class:`Pool` keeps a few worker processes. A job (a module-level function and plain-data
arguments) goes to an idle worker; the library call inside gets the request's deadline as its
own ``timeout``, and if the worker is still busy ``grace`` seconds past the deadline it is killed
and replaced, so no CPU stays busy for a request that has been answered. At most ``queue`` jobs
wait for a worker; one more is refused with :class:`Busy` (the app answers 429).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

import anyio
import anyio.to_thread

#: The longest a worker process may take to start, in seconds.
STARTUP = 60.0
#: How worker processes start: a clean interpreter, no threads or locks inherited.
CONTEXT = multiprocessing.get_context("spawn")
_CONTEXT = CONTEXT


class Busy(Exception):
    """Too many heavy jobs wait already."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the server is busy with {retry_after} s of heavy work; try again shortly")
        self.retry_after = retry_after


class Overrun(Exception):
    """A job ran past its deadline and grace, and its worker was killed."""


class Failed(Exception):
    """A job raised; ``payload`` says what, as plain data the worker could send."""

    def __init__(self, payload: dict[str, Any]) -> None:
        super().__init__(str(payload.get("error")))
        self.payload = payload


def _serve(conn: Connection) -> None:
    """A worker's loop: run each job it is sent, send back ("ok", result) or ("error", payload)."""
    from .jobs import failure

    conn.send(("ready", None))  # imported: the deadline of the first job starts now
    while True:
        try:
            function, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("ok", function(*args))
        except Exception as exc:  # every failure goes back to the server as data
            reply = ("error", failure(exc))
        try:
            conn.send(reply)
        except (OSError, ValueError) as exc:  # unpicklable result
            conn.send(("error", failure(exc)))


class Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self) -> None:
        self.conn, child = _CONTEXT.Pipe()
        self.process: BaseProcess = _CONTEXT.Process(target=_serve, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.fresh = True
        self._closing = threading.Lock()
        self._killed = False

    def ready(self) -> None:
        """Wait until the process has started and imported what it needs."""
        try:
            if not self.conn.poll(STARTUP):
                raise Overrun(f"a worker process did not start in {STARTUP} s")
            self.conn.recv()
        except (EOFError, OSError):  # killed while starting: the server is shutting down
            raise Overrun("a worker process stopped while it started") from None
        self.fresh = False

    @property
    def pid(self) -> int:
        assert self.process.pid is not None
        return self.process.pid

    def kill(self) -> None:
        """Stop the process and close the pipe, once: the pool's job and its shutdown may both
        come here at the same time, from different threads."""
        with self._closing:
            if self._killed:
                return
            self._killed = True
        self.process.kill()
        self.process.join(5)
        # a thread left polling the pipe may have seen it closed already
        with contextlib.suppress(OSError):
            self.conn.close()


class Pool:
    """``size`` worker processes, started when first needed; at most ``queue`` jobs waiting."""

    def __init__(self, size: int = 2, *, queue: int = 8, grace: float = 1.0) -> None:
        if size < 1 or queue < 0:
            raise ValueError("a pool needs at least one worker and a queue of 0 or more")
        self.size = size
        self.queue = queue
        self.grace = grace
        self.idle: list[Worker] = []
        self.busy: set[Worker] = set()
        self.started = 0
        self._free: anyio.Semaphore | None = None
        self._waiters = anyio.CapacityLimiter(size)
        self.closed = False

    @property
    def waiting(self) -> int:
        """The jobs waiting for a worker now: those in the semaphore's own queue, which a job
        leaves the moment a worker is handed to it. (A count kept around ``acquire`` would
        still hold a job that has its worker but has not run on yet, and refuse a job that
        fits.)"""
        return 0 if self._free is None else self._free.statistics().tasks_waiting

    @property
    def pids(self) -> list[int]:
        """The worker processes alive now."""
        return [w.pid for w in [*self.idle, *self.busy]]

    async def run(self, deadline: float, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in a worker; :class:`Overrun` past ``deadline`` + grace seconds."""
        if self._free is None:
            self._free = anyio.Semaphore(self.size)
        if self._free.value == 0 and self.waiting >= self.queue:
            raise Busy(max(1, round(deadline)))
        await self._free.acquire()
        try:
            if self.closed:  # shut down while this job waited: start no worker for it
                raise Overrun("the server is shutting down")
            worker = self.idle.pop() if self.idle else self._start()
            self.busy.add(worker)
            done = False
            try:
                if worker.fresh:
                    await anyio.to_thread.run_sync(
                        worker.ready, limiter=self._waiters, abandon_on_cancel=True
                    )
                worker.conn.send((function, args))
                ready = await anyio.to_thread.run_sync(
                    worker.conn.poll, deadline + self.grace, limiter=self._waiters, abandon_on_cancel=True
                )
                if not ready:
                    raise Overrun(f"the job ran past its {deadline:g} s deadline")
                try:
                    status, value = worker.conn.recv()
                except (EOFError, OSError):
                    raise Overrun("the worker stopped before it answered") from None
                done = True
            finally:
                self.busy.discard(worker)
                if done:
                    self.idle.append(worker)
                else:  # late, cancelled or broken: the worker may still be computing
                    worker.kill()
        finally:
            self._free.release()
        if status == "error":
            raise Failed(value)
        return value

    def _start(self) -> Worker:
        self.started += 1
        return Worker()

    def open(self) -> None:
        """Take jobs again (a server starting up after a shutdown)."""
        self.closed = False

    def close(self) -> None:
        """Stop every worker; jobs still waiting are answered with :class:`Overrun`."""
        self.closed = True
        for worker in [*self.idle, *self.busy]:
            worker.kill()
        self.idle.clear()
        self.busy.clear()


def alive(pid: int) -> bool:
    """Whether process ``pid`` still exists (a reaped process does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
