"""Run a batch job: chunks of the input go to a pool (this process, local processes or a Dask
cluster), each finished chunk is journalled, and the output is assembled in input order."""

from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import importlib
import itertools
import json
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..errors import ShuduError
from .journal import Journal
from .output import work_folder, write_output
from .summary import Summary
from .tasks import FIELDS, Item, Record, Spec, run_chunk

#: Puzzles per chunk by command when not given: a chunk is the unit of work sent to a worker and
#: of what a kill can lose; cheap work in big chunks (the overhead per chunk is ~1 ms locally and
#: a few ms on a cluster), expensive work in small ones (a lost chunk is redone).
CHUNK = {"solve": 4096, "count": 512, "rate": 32, "explain": 16, "generate": 4}


@dataclass
class Job:
    """One batch job: what to do, where the answers go, and how to spread the work."""

    spec: Spec
    output: str
    form: str
    chunk: int = 0
    jobs: int = 1
    dask: str | None = None
    timing: bool = True
    with_file: bool = False
    #: called after each chunk is journalled with the number of chunks done so far (tests use it)
    on_chunk: Callable[[int], None] | None = None
    progress: Any = None
    summary: Summary = field(default_factory=Summary)

    def __post_init__(self) -> None:
        self.chunk = self.chunk or CHUNK[self.spec.command]

    def fields(self) -> list[str]:
        names = list(FIELDS[self.spec.command])
        if self.with_file:
            names.insert(0, "file")
        if self.timing:
            names.append("seconds")
        return names

    def identity(self) -> dict[str, Any]:
        return {**self.spec.identity(), "chunk": self.chunk, "form": self.form, "with_file": self.with_file}


def _digest(work: Sequence[Any]) -> str:
    """A fingerprint of a chunk's input, so that a resumed job notices a changed input."""
    hasher = hashlib.sha256()
    for piece in work:
        if isinstance(piece, Item):
            hasher.update(json.dumps([piece.file, piece.line, piece.text]).encode())
        else:
            hasher.update(json.dumps(list(piece)).encode())
    return hasher.hexdigest()[:32]


def _chunks(work: Iterable[Any], size: int) -> Iterator[list[Any]]:
    iterator = iter(work)
    while piece := list(itertools.islice(iterator, size)):
        yield piece


class _Pool:
    """Runs chunks somewhere; ``submit`` then ``finished`` (the ones done, at least one)."""

    def submit(self, spec: Spec, work: list[Any]) -> Any:
        raise NotImplementedError

    def finished(self, pending: set[Any]) -> set[Any]:
        raise NotImplementedError

    def result(self, handle: Any) -> list[Record]:
        raise NotImplementedError

    def cancel(self, handle: Any) -> bool:
        """Drop a chunk not started yet; False when it runs already (then wait for it)."""
        return False

    @property
    def width(self) -> int:
        return 1

    def close(self) -> None:
        pass


class _Inline(_Pool):
    def submit(self, spec: Spec, work: list[Any]) -> Any:
        future: concurrent.futures.Future[list[Record]] = concurrent.futures.Future()
        future.set_result(run_chunk(spec, work))
        return future

    def finished(self, pending: set[Any]) -> set[Any]:
        return set(pending)

    def result(self, handle: Any) -> list[Record]:
        return handle.result()  # type: ignore[no-any-return]


class _Processes(_Inline):
    def __init__(self, jobs: int) -> None:
        # spawn: a worker starts clean, whatever threads this process holds
        context = multiprocessing.get_context("spawn")
        self._executor = concurrent.futures.ProcessPoolExecutor(
            jobs, mp_context=context, initializer=_leave_with, initargs=(os.getpid(),)
        )
        self._jobs = jobs

    @property
    def width(self) -> int:
        return self._jobs

    def submit(self, spec: Spec, work: list[Any]) -> Any:
        # the pool starts its workers as work is submitted: they must not start hearing SIGINT
        with _held_interrupts():
            return self._executor.submit(run_chunk, spec, work)

    def finished(self, pending: set[Any]) -> set[Any]:
        done, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
        return done

    def cancel(self, handle: Any) -> bool:
        return bool(handle.cancel())

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


def _leave_with(parent: int) -> None:
    """In a pool's worker: exit as soon as the process that started it is gone (killed with
    SIGKILL, say), so that no worker computes or waits on for nobody."""

    # Ctrl-C at a terminal reaches the whole process group: the process that started the pool
    # stops it and says so, once; its workers stay quiet rather than print their own tracebacks
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


@contextlib.contextmanager
def _held_interrupts() -> Iterator[None]:
    """SIGINT held back (blocked, not ignored) while worker processes may be started: a worker
    inherits the block from its first instruction and drops a pending SIGINT when it starts
    ignoring them (see :func:`_leave_with`), or keeps it blocked to its end (a Dask worker), so
    Ctrl-C during its start-up prints nothing; this process gets the signal as soon as the block
    is lifted. The threads started meanwhile (a Dask cluster's, which start its worker processes
    in turn) inherit the block for good."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    # multiprocessing's resource tracker, when the thread that first needs it starts it, *unblocks*
    # SIGINT in that thread (after starting it with SIGINT blocked): started here first, it is
    # already running then, and every thread keeps the mask it inherits
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


class _Dask(_Pool):
    def __init__(self, address: str, jobs: int) -> None:
        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise ShuduError("--dask needs dask.distributed: pip install 'shudu[batch]'") from None
        self._distributed = distributed
        self._cluster: Any = None
        self._client: Any = None
        # a Ctrl-C inside the client's wait can make the event loop log a callback's failure
        # (distributed's own sync() cancelling a future it never made): noise, with a
        # traceback, beside the one line that says the batch was interrupted; the batch's own
        # failures come back through its futures
        self._loop_log = logging.getLogger("tornado.application")
        self._loop_level = self._loop_log.level
        self._loop_log.setLevel(logging.CRITICAL)
        try:
            if address == "local":
                # the cluster's threads start here, and its worker processes from them: with
                # SIGINT held back here they are deaf to it from their first instruction to
                # their end (a terminal's Ctrl-C reaches the whole process group; only this
                # process, which stops the cluster, should answer it), and a Ctrl-C that comes
                # while the cluster starts is answered here as soon as it is up
                # silence_logs: the workers' own logs stop short of CRITICAL (a worker whose
                # scheduler closed first logs a failed heartbeat, with a traceback, as the
                # cluster stops); a chunk's failure comes back through its future
                with _held_interrupts():
                    self._cluster = distributed.LocalCluster(
                        n_workers=max(jobs, 1),
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=":0",
                        silence_logs=logging.CRITICAL,
                    )
                self._client = distributed.Client(self._cluster)
            else:
                _probe(address)
                try:
                    self._client = distributed.Client(address, timeout="30s")
                except (OSError, TimeoutError, ValueError) as exc:
                    raise ShuduError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        except BaseException:
            # Ctrl-C as the cluster comes up: it is stopped, not left to the interpreter's exit
            self.close()
            raise
        workers = self._client.scheduler_info().get("workers", {})
        self._width = max(int(sum(w.get("nthreads", 1) for w in workers.values())), 1)

    @property
    def width(self) -> int:
        return self._width

    def submit(self, spec: Spec, work: list[Any]) -> Any:
        # pure=False: the same chunk twice is two tasks; retries: a chunk whose worker died
        # is run again elsewhere (the work is deterministic, so the answer is the same)
        return self._client.submit(run_chunk, spec, work, pure=False, retries=3)

    def finished(self, pending: set[Any]) -> set[Any]:
        done, _ = self._distributed.wait(list(pending), return_when="FIRST_COMPLETED")
        return set(done)

    def result(self, handle: Any) -> list[Record]:
        return handle.result()  # type: ignore[no-any-return]

    def cancel(self, handle: Any) -> bool:
        # a task already running goes on on its worker, but its answer is dropped
        handle.cancel()
        return True

    def close(self) -> None:
        # closing with work still out (an interrupt, an error) makes dask warn about each task
        # it cancels: noise around the one line that says what happened
        logger = logging.getLogger("distributed")
        level = logger.level
        logger.setLevel(logging.ERROR)
        try:
            if self._client is not None:
                self._client.close()
            if self._cluster is not None:
                self._cluster.close()
        finally:
            logger.setLevel(level)
            self._loop_log.setLevel(self._loop_level)


def _probe(address: str) -> None:
    """Fail at once on a ``tcp://HOST:PORT`` scheduler that refuses or cannot be reached, rather
    than after the client's 30 s of retries (other schemes go straight to the client)."""
    import socket
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(address if "://" in address else f"tcp://{address}")
        host, port = parts.hostname, parts.port
    except ValueError as exc:
        raise ShuduError(f"--dask {address!r} is not a scheduler address (tcp://HOST:PORT): {exc}") from None
    if parts.scheme != "tcp":
        return
    if not host or port is None:
        raise ShuduError(f"--dask {address!r} is not a scheduler address: give tcp://HOST:PORT, or local")
    try:
        socket.create_connection((host, port), timeout=10).close()
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise ShuduError(f"cannot reach the Dask scheduler at {address} (--dask): {reason}") from None


def open_pool(command: str, jobs: int = 1, dask: str | None = None) -> _Pool:
    """Where chunks of ``command`` run: a Dask cluster (``local`` or an address), ``jobs``
    local processes, or this process (``solve`` uses the C batch's threads instead)."""
    if dask:
        return _Dask(dask, jobs)
    if jobs > 1 and command != "solve":
        return _Processes(jobs)
    return _Inline()


def _pool(job: Job) -> _Pool:
    return open_pool(job.spec.command, job.jobs, job.dask)


def run_job(job: Job, work: Iterable[Any], err: TextIO | None = None) -> Summary:
    """Do ``job`` on ``work`` (puzzles, or (index, seed) pairs for ``generate``), taking up an
    interrupted run of the same job where it stopped; return the summary."""
    journal = Journal(work_folder(job.output, job.form), job.identity())
    opened = False
    summary = job.summary
    start = time.monotonic()
    count = 0
    pool = _pool(job)
    pending: dict[Any, tuple[int, str]] = {}
    window = 2 * pool.width + 1

    def collect(block: bool) -> None:
        while pending and (block or len(pending) >= window):
            for handle in pool.finished(set(pending)):
                number, digest = pending.pop(handle)
                records = pool.result(handle)
                journal.write(number, digest, records)
                _account(job, summary, records)
                if job.on_chunk is not None:
                    job.on_chunk(number)
            block = block and bool(pending)

    try:
        for number, piece in enumerate(_chunks(work, job.chunk)):
            count = number + 1
            if not opened:
                # only once the input reads: a bad input or option leaves no work folder
                opened, resumed = True, journal.open()
            digest = _digest(piece)
            if journal.has(number):
                if journal.digest(number) != digest:
                    raise ShuduError(
                        f"the input differs from the interrupted run's (chunk {number + 1}); "
                        f"run on the same input, or remove {journal.folder} to start afresh"
                    )
                records = journal.records(number)
                summary.resumed += len(records)
                _account(job, summary, records)
                continue
            pending[pool.submit(job.spec, piece)] = (number, digest)
            collect(block=False)
        collect(block=True)
    except BaseException:
        if opened and not resumed and not journal.any():
            journal.remove()
        raise
    finally:
        pool.close()
    if count == 0:
        raise ShuduError("the input holds no puzzle")
    write_output(job.output, job.form, job.fields(), journal.chunks(count))
    journal.remove()
    summary.seconds = time.monotonic() - start
    return summary


def _account(job: Job, summary: Summary, records: list[Record]) -> None:
    summary.add(records)
    if job.progress is not None:
        job.progress(len(records), summary)
