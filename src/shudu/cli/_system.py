"""Where the command line meets the operating system: its three standard streams and signals.

Every command runs inside :func:`guarded`, the one place that turns what the system does to a
process into the contract of docs/errors.md:

- standard input closed (``<&-``), or unreadable: ``shudu: cannot read standard input: …``, exit 2;
- standard output closed (``>&-``) or full (``>/dev/full``), or any other write error:
  ``shudu: cannot write to standard output: …``, exit 2, when the command has something to write;
- the reader of standard output gone (``| head``: EPIPE): no message, exit 141 (128 + SIGPIPE),
  as the shell reports for tools the signal kills (cat, jq, sqlite3);
- standard error closed or full: the messages are lost, the exit status stays what it would be;
- SIGINT (Ctrl-C): ``shudu: interrupted``, exit 130; SIGTERM: ``shudu: terminated``, exit 143;
  both run the command's clean-up (``finally`` blocks) first, so a batch keeps its journal.

What a command wrote before any of this stays whole: answers are written line by line. A closed
descriptor 0, 1 or 2 is held on ``/dev/null`` while the command runs (as SQLite and the C library
do for set-user-ID programs), so that no file the command opens takes its number and receives
what was meant for the stream.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, BinaryIO, TextIO

from ..errors import ShuduError
from ..notation import Exit

_CLOSED = "it is closed"


class StreamFailed(BaseException):
    """A write to standard output failed; :func:`guarded` reports it. Like KeyboardInterrupt it
    is no :class:`Exception`, so that no ``except Exception`` on the way swallows it."""

    def __init__(self, reason: str, *, pipe: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        #: the reader went away (EPIPE): a quiet exit
        self.pipe = pipe


class Terminated(BaseException):
    """SIGTERM arrived; raised in the main thread like KeyboardInterrupt is for SIGINT."""


def _reason(exc: OSError) -> str:
    if exc.errno == errno.EBADF:
        return _CLOSED
    return exc.strerror or str(exc)


class Stream:
    """A text stream that reports its failures in one way.

    ``stream`` None is a stream the process was started without. For standard output a failure
    raises :class:`StreamFailed`; for standard error (``quiet``) it is swallowed and the stream
    falls silent, since there is nowhere left to say anything.
    """

    def __init__(self, stream: TextIO | None, *, quiet: bool = False) -> None:
        self._stream = stream
        self._quiet = quiet
        self.failed: str | None = None if stream is not None else _CLOSED

    def _fail(self, exc: OSError | None) -> None:
        if exc is not None and self.failed is None:
            self.failed = _reason(exc)
        if self._quiet:
            return
        pipe = isinstance(exc, BrokenPipeError) or (exc is not None and exc.errno == errno.EPIPE)
        raise StreamFailed(self.failed or _CLOSED, pipe=pipe)

    def write(self, text: str) -> int:
        if self._stream is None or (self.failed and self._quiet):
            self._fail(None)
            return len(text)
        try:
            return self._stream.write(text)
        except OSError as exc:
            self._fail(exc)
            return len(text)

    def flush(self) -> None:
        if self._stream is None or self.failed:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            self._fail(exc)

    def isatty(self) -> bool:
        try:
            return self._stream is not None and not self.failed and self._stream.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        if self._stream is None:
            raise OSError(errno.EBADF, "Bad file descriptor")
        return self._stream.fileno()

    def __getattr__(self, name: str) -> Any:
        # what else a writer may ask of a stream (encoding, closed …): the stream's own answer
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def stdin_binary() -> BinaryIO:
    """Standard input as bytes, or a :class:`ShuduError` when the process has none."""
    if sys.stdin is None:
        raise ShuduError(f"cannot read standard input: {_CLOSED}")
    try:
        return sys.stdin.buffer
    except AttributeError:  # a text stream put in its place (a test's)
        raise ShuduError("cannot read standard input: it is not a byte stream") from None


def stdin_lines() -> Iterator[bytes]:
    """The lines of standard input, undecoded; a read error is a :class:`ShuduError`."""
    stream = stdin_binary()
    try:
        yield from stream
    except OSError as exc:
        raise ShuduError(f"cannot read standard input: {_reason(exc)}") from None


def stdin_bytes() -> bytes:
    """All of standard input; a read error is a :class:`ShuduError`."""
    stream = stdin_binary()
    try:
        return stream.read()
    except OSError as exc:
        raise ShuduError(f"cannot read standard input: {_reason(exc)}") from None


def _hold_closed_descriptors() -> list[int]:
    """Put ``/dev/null`` on each of descriptors 0-2 that is closed; return those numbers."""
    held = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            if null != fd:  # the lowest free number: a lower one was closed too and is held next
                os.dup2(null, fd)
                os.close(null)
            held.append(fd)
    return held


def _silence(stream: TextIO | None) -> None:
    """After a failed write, point the stream's descriptor at ``/dev/null``, so that Python's
    own flush at exit does not fail again and print what we already said."""
    try:
        if stream is None:
            return
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


@contextmanager
def _sigterm_raises() -> Iterator[None]:
    """While the command runs, SIGTERM raises :class:`Terminated` in the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Terminated

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def guarded(command: Callable[[Stream, Stream], int], out: TextIO | None, err: TextIO | None) -> int:
    """Run ``command(stdout, stderr)`` and return its exit status, or the status of what the
    system did to it (see the module's text). ``out`` and ``err`` None: the process's own."""
    real = out is None
    stderr = Stream(sys.stderr if err is None else err, quiet=True)

    def say(message: str) -> None:
        stderr.write(f"shudu: {message}\n")
        stderr.flush()

    stdout = Stream(sys.stdout if real else out)
    try:
        # from here on a Ctrl-C is the command's: the descriptors, the parser and the command's
        # own module are all set up inside (a command's module is imported when it runs)
        if real:
            _hold_closed_descriptors()
        with _sigterm_raises():
            try:
                status = command(stdout, stderr)
            except SystemExit as exc:  # argparse's --help and --version of a subcommand
                status = exc.code if isinstance(exc.code, int) else Exit.INVALID if exc.code else Exit.OK
            stdout.flush()  # argparse writes to sys.stdout itself: its failure is caught here too
    except StreamFailed as exc:
        if real:
            _silence(sys.stdout)
        if exc.pipe:
            return Exit.BROKEN_PIPE
        say(f"cannot write to standard output: {exc.reason}")
        return Exit.INVALID
    except KeyboardInterrupt:
        if real and threading.current_thread() is threading.main_thread():
            # the command is over: a second Ctrl-C while the process winds down (a cluster
            # closing, say) must not turn the exit status into a death by signal
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        say("interrupted")
        return Exit.INTERRUPTED
    except Terminated:
        say("terminated")
        return Exit.TERMINATED
    finally:
        stderr.flush()
        if real and stderr.failed and sys.stderr is not None:
            _silence(sys.stderr)
    return status
