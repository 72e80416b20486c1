"""Shared fixtures: the known-answer file, the benchmark data folder, the C core when it runs, and
the web app in the ASGI test client; and line numbers for a test that pytest-timeout stops inside
a loop; and Ctrl-C delivered to the run's children even when the run was started with it ignored."""

from __future__ import annotations

import signal
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest

import shudu
from shudu import _backend

TESTS = Path(__file__).parent
DATA = TESTS.parent.parent / "shared" / "data"

#: The C core when it runs (None: not built, or ``SHUDU_IMPLEMENTATION=python``). The tests that
#: compare it with its Python twin skip without it: a run with Python forced tests the twin alone.
C_CORE = _backend.CORE
needs_c = pytest.mark.skipif(C_CORE is None, reason=f"the C core does not run ({_backend.description()})")


@dataclass(frozen=True)
class Known:
    """One line of tests/data/known.txt: ``puzzle:count:solution[:key=value]...``.

    ``count`` is the number of solutions capped at 2; ``solution`` is empty unless it is unique.
    Options: ``variant=NAME``, ``box=RxC``, ``layout=LABELS`` (jigsaw).
    """

    text: str
    count: int
    solution: str
    options: dict[str, str]

    def puzzle(self) -> shudu.Puzzle:
        variant = self.options.get("variant")
        if "layout" in self.options:
            variant = shudu.variants.get(
                variant or "jigsaw", int(len(self.text) ** 0.5), layout=self.options["layout"]
            )
        return shudu.parse_puzzle(self.text, box=self.options.get("box"), variant=variant)

    @property
    def id(self) -> str:
        size = int(len(self.text) ** 0.5)
        kind = self.options.get("variant") or ("jigsaw" if "layout" in self.options else "standard")
        return f"{size}x{size}-{kind}-{self.count}-{self.text[:12]}"


def read_known(path: Path = TESTS / "data" / "known.txt") -> list[Known]:
    entries = []
    for raw in path.read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        text, count, solution, *rest = raw.split(":")
        options = dict(item.split("=", 1) for item in rest)
        entries.append(Known(text, int(count), solution, options))
    return entries


KNOWN = read_known()


def shared_lines(name: str, count: int, *, step: int = 1) -> list[str]:
    """The first ``count`` puzzles (every ``step``-th) of a shared data file; skip if absent."""
    path = DATA / name
    if not path.exists():
        pytest.skip(f"shared data file {name} not present")
    with path.open() as stream:
        lines = [line.strip() for line in stream if line.strip()]
    return lines[::step][:count]


def pytest_configure(config: pytest.Config) -> None:
    """Let SIGINT reach the processes the tests start.

    A run started in the background by a non-interactive shell (``.ci/run &``, ``nohup``) has
    SIGINT ignored, and an ignored signal stays ignored across ``exec``: every child would then
    shrug off the Ctrl-C the interrupt tests send it. A handled signal is reset to its default in
    a new program, so the run handles SIGINT as Python does by default, and each child starts as
    it would from a terminal."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One place that lists the tests skipped for want of the shared benchmark data
    (../shared/data), with the reason, grouped by test file."""
    skipped = terminalreporter.stats.get("skipped", [])
    wanting: dict[str, list[str]] = {}
    for report in skipped:
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        if "shared" in reason and ("absent" in reason or "not present" in reason):
            wanting.setdefault(report.nodeid.split("::")[0], []).append(reason)
    if not wanting:
        return
    total = sum(map(len, wanting.values()))
    terminalreporter.section(f"{total} tests skipped: the shared data is absent ({DATA})")
    for path, reasons in sorted(wanting.items()):
        terminalreporter.write_line(f"{path}: {len(reasons)} ({sorted(set(reasons))[0]})")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A fresh SQLite file for the web app or the store."""
    return tmp_path / "web.sqlite3"


@pytest.fixture
def client(db: Path) -> Any:
    """The web app on ``db`` in Starlette's test client (skips without the web extra)."""
    testclient = pytest.importorskip("starlette.testclient", reason="the web extra is not installed")
    from shudu.web import create_app

    return testclient.TestClient(create_app(db))


def with_line_numbers(tb: TracebackType | None) -> TracebackType | None:
    """The traceback ``tb`` with a line number in every entry.

    Python 3.11 gives a loop's closing jump no line number, and that jump is where the interpreter
    runs signal handlers: when pytest-timeout's SIGALRM handler stops a test there, the entry's
    ``tb_lineno`` is None and pytest's report of the failure breaks (INTERNALERROR, the run ends).
    Such an entry gets the line of the code just before the jump, the loop's last line."""
    if tb is None:
        return None
    rest = with_line_numbers(tb.tb_next)
    lineno = tb.tb_lineno
    if lineno is None:
        code = tb.tb_frame.f_code
        before = [line for start, _end, line in code.co_lines() if start <= tb.tb_lasti and line]
        lineno = before[-1] if before else code.co_firstlineno
    elif rest is tb.tb_next:
        return tb
    return TracebackType(rest, tb.tb_frame, tb.tb_lasti, lineno)


def whole_line_numbers() -> Generator[None]:
    """A test phase (a hook wrapper's yield), its traceback, if it raises, given whole line numbers."""
    try:
        return (yield)
    except BaseException as error:
        raise error.with_traceback(with_line_numbers(error.__traceback__))  # noqa: B904 (the same error)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None]:
    return (yield from whole_line_numbers())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None]:
    return (yield from whole_line_numbers())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    return (yield from whole_line_numbers())
