"""Every search stops when asked: Ctrl-C (SIGINT) or its deadline ends it, on the C core and on
the pure-Python twin, and the next call works; the enumeration replay stops at its output bound.

The searches that are interrupted here would run for years: each runs in a child process, gets
SIGINT once it is under way, and must end with KeyboardInterrupt before a generous kill timer
(nothing here asserts a speed beyond "it ended before the kill"). The child catches the
KeyboardInterrupt, says so, and makes one more small call, which must answer as usual.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from shudu.cli import main
from shudu.formats import parse_puzzle
from shudu.solvers import fast
from shudu.solvers.base import Budget
from shudu.solvers.enumeration import Replay

#: How long a child may run before it is killed and the test fails.
KILL_AFTER = 60.0
#: How long the parent lets a child's search run before it sends SIGINT.
UNDER_WAY = 0.5

EMPTY16 = "." * 256
EMPTY25 = "." * 625
#: A 25x25 puzzle cut from a grid, with two wrong but legal clues: it has no solution, and
#: proving so (the solution count behind ``steps``) takes the core far longer than any test.
NO_SOLUTION25 = (
    "..3456..9.B.D..G.I....N.P.789.B...F...J....OP1.345..DEFGHI....N..1.....789L.HI.....O.1.34.6"
    ".........L.......4.6....BCD..GH.JK23..67...BCDEFG.I..L.N.P..89..CDE..H.JKLM.OP12.45..D.F..I"
    "..LMN.........89.B.IJ.L.NO..23...78.AB.D..G.....2.45.789A...E.......345.78..BC.EFGH..KLM..P"
    ".2.9..C...GH.J..M..P..34...DE.G..JK......234.6789A.....L.....23.5....A..D...H.OP.2.4....9.."
    "....GHIJ.L.456....BC.EF.HI.K.M...1.3......FA..JK.M..P1.34.678...H...LMNO...3.567.9ABC....."
    "N.P1.34.6....B..E.GHIOP12..56..9A..DE..H.JK..N5..8..B..E.G.I.K.MNO.12.4A...EFG....L...P1.."
    "4..78.FGH.J...N...23..6..9....EKLMN..1...56...ABC..F...J.12..5.7..A.......I.KL.N."
)

BACKENDS = [
    pytest.param(
        "c",
        marks=pytest.mark.skipif(fast.IMPLEMENTATION != "c", reason="the C core does not run"),
    ),
    "python",
]

#: A 4x4 puzzle with one solution, for warming up.
SMALL = ".4.....3.1....2."

#: The child's closing call: a small count that must answer as usual after the interrupt.
AFTER = "print('next call:', shudu.count('....' * 4, limit=5))"


def _child(body: str, implementation: str) -> subprocess.Popen[str]:
    env = dict(os.environ, SHUDU_IMPLEMENTATION=implementation, PYTHONUNBUFFERED="1")
    source = str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(body)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _finish(child: subprocess.Popen[str], *, interrupt: bool) -> tuple[int, str, str]:
    """Wait for the child's "ready", let its search run, send SIGINT (when asked) and collect what
    it wrote; kill it past KILL_AFTER (then the test fails). The child never outlives this."""
    try:
        assert child.stdout is not None
        ready = child.stdout.readline()
        assert ready.strip() == "ready", child.communicate(timeout=KILL_AFTER)
        if interrupt:
            time.sleep(UNDER_WAY)
            child.send_signal(signal.SIGINT)
        try:
            out, err = child.communicate(timeout=KILL_AFTER)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the search was still running {KILL_AFTER:g} s later")
        return child.returncode, ready + out, err
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()


def _interrupted(call: str, implementation: str, warm_up: str = "pass") -> None:
    """Run ``call`` in a child and interrupt it once under way. ``warm_up`` runs first, before
    "ready": a small call of the same kind, so that the modules the call loads on first use are
    loaded and the signal lands in the search. (CPython quirk: a KeyboardInterrupt that lands
    while a module is being imported, inside the ``exec`` of a string that ``dataclasses`` runs,
    leaves the process to die by SIGINT at exit even when the program caught it.)"""
    body = f"""
        import shudu
        from shudu.solvers import fast
        assert fast.IMPLEMENTATION == {implementation!r}
        {warm_up}
        try:
            print("ready", flush=True)
            {call}
            print("finished")
        except KeyboardInterrupt:
            print("KeyboardInterrupt")
        {AFTER}
        """
    code, out, err = _finish(_child(body, implementation), interrupt=True)
    assert code == 0, err
    assert out.splitlines() == ["ready", "KeyboardInterrupt", "next call: 5"], err


@pytest.mark.parametrize("implementation", BACKENDS)
def test_ctrl_c_stops_count(implementation: str) -> None:
    _interrupted(f"shudu.count({EMPTY16!r}, limit=10**15)", implementation)


@pytest.mark.parametrize("implementation", BACKENDS)
def test_ctrl_c_stops_solve_many(implementation: str) -> None:
    _interrupted(f"fast.solve_many([{EMPTY16!r}] * 4, limit=10**15, threads=2)", implementation)


@pytest.mark.parametrize("implementation", BACKENDS)
def test_ctrl_c_stops_the_uniqueness_check_of_steps(implementation: str) -> None:
    _interrupted(
        f"shudu.find_steps({NO_SOLUTION25!r})", implementation, warm_up=f"shudu.find_steps({SMALL!r})"
    )


@pytest.mark.parametrize("implementation", BACKENDS)
def test_the_uniqueness_check_of_steps_keeps_the_deadline(implementation: str) -> None:
    body = f"""
        import shudu
        print("ready", flush=True)
        print(shudu.find_steps({NO_SOLUTION25!r}, timeout=0.3).status)
        {AFTER}
        """
    code, out, err = _finish(_child(body, implementation), interrupt=False)
    assert code == 0, err
    assert out.splitlines() == ["ready", "timeout", "next call: 5"], err


@pytest.mark.parametrize("implementation", BACKENDS)
def test_a_search_keeps_its_deadline(implementation: str) -> None:
    body = f"""
        import shudu
        from shudu.solvers import fast
        print("ready", flush=True)
        print(shudu.solve({NO_SOLUTION25!r}, timeout=0.3).status)
        print(fast.solve_many([{EMPTY16!r}] * 3, limit=10**15, threads=2, timeout=0.3).statuses)
        {AFTER}
        """
    code, out, err = _finish(_child(body, implementation), interrupt=False)
    assert code == 0, err
    assert out.splitlines() == ["ready", "timeout", str(["timeout"] * 3), "next call: 5"], err


def test_the_generator_keeps_its_deadline() -> None:
    """A dig's uniqueness checks keep to the generator's deadline (a 25x25 minimal puzzle takes
    the core minutes of checks)."""
    body = """
        import shudu
        from shudu.generator import GeneratorTimeout
        print("ready", flush=True)
        try:
            shudu.generate(size=25, minimal=True, seed=3, timeout=0.5)
        except GeneratorTimeout:
            print("timeout")
        """
    code, out, err = _finish(_child(body, fast.IMPLEMENTATION), interrupt=False)
    assert code == 0, err
    assert out.splitlines() == ["ready", "timeout"], err


def test_the_replay_stops_at_its_output_bound() -> None:
    replay = Replay(parse_puzzle(EMPTY25), max_bytes=50_000)
    texts = [text for _, text in replay]
    assert replay.stopped == "output limit of 50000 bytes reached"
    assert replay.bytes == sum(len(text) + 1 for text in texts) <= 50_000
    assert replay.steps == len(texts) > 10


def test_the_replay_stops_at_its_deadline_and_step_limit() -> None:
    replay = Replay(parse_puzzle(EMPTY25), budget=Budget.of(None, 0.2))
    assert sum(1 for _ in replay) > 0
    assert replay.stopped == "time limit reached"
    counted = Replay(parse_puzzle(EMPTY25), max_steps=7)
    assert [step.kind for step, _ in counted][:2] == ["start", "forward"]
    assert counted.steps == 7 and counted.stopped == "step limit of 7 reached"


def test_a_whole_replay_says_nothing_of_bounds() -> None:
    replay = Replay(parse_puzzle("31.22....21..32."), max_bytes=10_000)
    kinds = [step.kind for step, _ in replay]
    assert kinds[-1] == "solution" and replay.stopped is None


@pytest.mark.parametrize("bound", [["--max-output", "20000"], ["--timeout", "0.2"]])
def test_the_cli_replay_is_bounded(tmp_path: Path, bound: list[str]) -> None:
    source = tmp_path / "empty.txt"
    source.write_text(EMPTY25 + "\n")
    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", "--algorithm", "enumerate", "-i", str(source), *bound], stdout=out, stderr=err)
    assert code == 0
    header, *lines = out.getvalue().splitlines()
    assert header.startswith("# line 1: ")
    assert lines and all(line.startswith(("start", "k=")) for line in lines)
    if bound[0] == "--max-output":
        assert sum(len(line.encode()) + 1 for line in lines) <= 20_000
        assert "output limit of 20000 bytes reached" in err.getvalue()
    else:
        assert "time limit reached" in err.getvalue()
    assert err.getvalue().startswith(f"shudu: line 1: the replay stopped after {len(lines)} steps: ")
