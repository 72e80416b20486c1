"""The command line at its edges with the operating system, run as a real process each time.

Closed and full standard streams, a reader that goes away, Ctrl-C and SIGTERM, files that are
not there or are folders, bytes that are not UTF-8, risky output places and databases: each
gives its documented exit status (docs/errors.md) and at most a one-line ``shudu: …`` message,
never a traceback.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from shudu import _backend
from shudu.notation import Exit

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLVED = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
#: A puzzle whose rating takes a fraction of a second on either core (Inkala's takes some 7 s of
#: CPU time on the pure-Python logic engine, which a batch waits for when it is interrupted).
MEDIUM = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SHUDU = [sys.executable, "-m", "shudu"]
HAS_DEV_FULL = os.path.exists("/dev/full")


def sh(script: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[bytes]:
    """Run ``script`` in sh, with ``$SHUDU`` the command; closing a stream is the shell's
    ``<&-``, ``>&-``, ``2>&-``, as a user would type it."""
    command = " ".join(f"'{part}'" for part in SHUDU)
    return subprocess.run(
        ["sh", "-c", script.replace("$SHUDU", command)],
        capture_output=True,
        cwd=cwd,
        timeout=120,
        env={**os.environ, **env},
    )


def shudu(*args: str | bytes, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*SHUDU, *args], input=stdin, capture_output=True, cwd=cwd, timeout=120)


def one_line(err: bytes, *needles: str) -> str:
    """The stderr of a failed command: no traceback, a ``shudu:`` line holding every needle."""
    text = err.decode("utf-8", "replace")
    assert "Traceback" not in text, text
    lines = [line for line in text.splitlines() if line.startswith("shudu: ")]
    assert lines, text
    for needle in needles:
        assert any(needle in line for line in lines), (needle, text)
    return text


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    path = tmp_path / "mixed.txt"
    path.write_text(f"{INKALA}\nxx\n")
    return path


# --- standard input closed --------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "solve",
        "solve -i -",
        "solve -",
        "count",
        "rate -i -",
        "explain",
        "hint",
        "steps -",
        "convert -i - --to grid",
        "batch solve -i - -o out.jsonl",
    ],
)
def test_stdin_closed_is_said_and_exits_2(command: str, tmp_path: Path) -> None:
    done = sh(f"$SHUDU {command} <&-", tmp_path)
    assert done.returncode == Exit.INVALID, done.stderr
    one_line(done.stderr, "cannot read standard input", "closed")
    assert not (tmp_path / "out.jsonl").exists()


def test_stdin_closed_does_not_matter_to_a_puzzle_given_as_an_argument(tmp_path: Path) -> None:
    done = sh(f"$SHUDU solve {INKALA} <&-", tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, (INKALA_SOLVED + "\n").encode(), b"")


# --- standard output closed or full -----------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        f"solve {INKALA}",
        "techniques",
        "variants",
        f"explain {INKALA}",
        f"convert {INKALA} --to grid",
        "generate --seed 1 --size 4",
        "--version",
    ],
)
def test_stdout_closed_is_said_and_exits_2(command: str, tmp_path: Path) -> None:
    done = sh(f"$SHUDU {command} >&-", tmp_path)
    assert done.returncode == Exit.INVALID, done.stderr
    one_line(done.stderr, "cannot write to standard output", "closed")


@pytest.mark.skipif(not HAS_DEV_FULL, reason="no /dev/full here")
@pytest.mark.parametrize(
    "command",
    [
        f"solve {INKALA}",
        f"solve {INKALA} --format json",
        f"explain {INKALA}",
        f"convert {INKALA} --to grid",
        "generate --seed 1 --size 4",
        "techniques",
    ],
)
def test_stdout_full_is_said_and_exits_2(command: str, tmp_path: Path) -> None:
    done = sh(f"$SHUDU {command} >/dev/full", tmp_path)
    assert done.returncode == Exit.INVALID, done.stderr
    text = one_line(done.stderr, "cannot write to standard output", "No space left")
    assert text.count("shudu: ") == 1, text  # said once, not again by Python at exit


def test_stdout_closed_does_not_matter_to_a_command_that_writes_a_file(tmp_path: Path) -> None:
    done = sh(f"$SHUDU render {INKALA} -o p.svg >&-", tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "p.svg").read_text().startswith("<svg")


def test_a_file_opened_with_stdout_closed_does_not_take_its_place(tmp_path: Path) -> None:
    # with descriptor 1 closed, the first file opened would get number 1; the CLI holds it on
    # /dev/null, so the answers of a batch never land in its input or output
    puzzles = tmp_path / "in.txt"
    puzzles.write_text(INKALA + "\n")
    done = sh("$SHUDU batch solve -i in.txt -o out.jsonl --no-timing >&-", tmp_path)
    assert done.returncode == 0, done.stderr
    assert puzzles.read_text() == INKALA + "\n"
    assert INKALA_SOLVED in (tmp_path / "out.jsonl").read_text()


# --- the reader goes away ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["techniques", "techniques --format json", "solve -i big.txt"])
def test_a_reader_that_goes_away_is_a_quiet_141(command: str, tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text((INKALA + "\n") * 3000)
    process = subprocess.Popen(
        [*SHUDU, *command.split()], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path
    )
    assert process.stdout is not None
    process.stdout.close()  # the reader is gone before Python has even started in the child
    _, err = process.communicate(timeout=120)
    assert process.returncode == Exit.BROKEN_PIPE, err
    assert err == b""


# --- standard error closed or full ------------------------------------------------------------


@pytest.mark.parametrize("redirect", ["2>&-", "2>/dev/full"])
def test_stderr_closed_or_full_keeps_the_answers_and_the_status(
    redirect: str, mixed: Path, tmp_path: Path
) -> None:
    if "full" in redirect and not HAS_DEV_FULL:
        pytest.skip("no /dev/full here")
    done = sh(f"$SHUDU solve -i {mixed} {redirect}", tmp_path)
    assert done.returncode == Exit.INVALID
    assert done.stdout == f"{INKALA_SOLVED}\ninvalid\n".encode()
    good = sh(f"$SHUDU solve {INKALA} {redirect}", tmp_path)
    assert (good.returncode, good.stdout) == (0, f"{INKALA_SOLVED}\n".encode())


# --- signals ----------------------------------------------------------------------------------


def _group_cpu_seconds(group: int) -> float:
    """The CPU time of every process of a process group (a command and its workers)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _signalled(args: list[str], signum: int, *, group: bool, cwd: Path, **env: str) -> tuple[int, str]:
    """Start ``shudu args``, wait until it is at work, send ``signum``; its status and stderr.
    The process (and its group) is killed in any case."""
    process = subprocess.Popen(
        [*SHUDU, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        start_new_session=True,
        env={**os.environ, **env},
    )
    try:
        time.sleep(0.3)
        started = time.monotonic()
        while process.poll() is None and time.monotonic() - started < 60:
            # at work once it imported shudu and runs: its CPU time grows past the start-up's
            # (a batch once its workers are at work too: seconds of work in all, past the
            # start-up of the command, of its pool and of each worker)
            if group:
                if _group_cpu_seconds(process.pid) > _start_up_seconds() * 6 + 5:
                    break
            elif _cpu_seconds(process.pid) > _start_up_seconds() + 0.3:
                break
            time.sleep(0.1)
        assert process.poll() is None, process.communicate()[1]
        if group:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
        _, err = process.communicate(timeout=60)
        return process.returncode, err.decode("utf-8", "replace")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
        else:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)  # its workers, if any are left


@functools.cache
def _start_up_seconds() -> float:
    """The CPU time ``shudu --version`` takes on this machine now (the imports of the command
    line), so that a signal is sent once a command is past them, however busy the machine is."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*SHUDU, "--version"], capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 1.0  # no /proc: go by the sleep alone
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


EMPTY_16 = "." * 256


@pytest.mark.parametrize("engine", ["c", "python"])
@pytest.mark.parametrize(
    ("signum", "status", "word"),
    [(signal.SIGINT, Exit.INTERRUPTED, "interrupted"), (signal.SIGTERM, Exit.TERMINATED, "terminated")],
)
def test_a_signal_stops_a_long_count_with_one_line(
    engine: str, signum: int, status: int, word: str, tmp_path: Path
) -> None:
    env = {"SHUDU_IMPLEMENTATION": "python"} if engine == "python" else {}
    code, err = _signalled(
        ["count", EMPTY_16, "--limit", str(10**15)], signum, group=False, cwd=tmp_path, **env
    )
    assert code == status, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == f"shudu: {word}"


@pytest.mark.parametrize("pool", ["--jobs", "--dask"])
def test_ctrl_c_at_a_terminal_stops_a_batch_and_its_workers_quietly(pool: str, tmp_path: Path) -> None:
    if pool == "--dask" and importlib.util.find_spec("distributed") is None:
        pytest.skip("dask.distributed is not installed")
    # an interrupted batch lets its workers finish the chunk they hold (one puzzle each here)
    puzzle = INKALA if _backend.CORE is not None else MEDIUM
    (tmp_path / "many.txt").write_text((puzzle + "\n") * 4000)
    where = ["--dask", "local", "--jobs", "2"] if pool == "--dask" else ["--jobs", "2"]
    args = ["batch", "rate", "-i", "many.txt", "-o", "out.jsonl", "--chunk", "1", *where]
    # a terminal sends SIGINT to the whole process group: the workers get it too
    code, err = _signalled(args, signal.SIGINT, group=True, cwd=tmp_path)
    assert code == Exit.INTERRUPTED, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "shudu: interrupted" in err.splitlines()
    assert not (tmp_path / "out.jsonl").exists()


def _group_members(group: int) -> list[int]:
    """The processes of a process group, its leader left out."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and int(stat.parent.name) != group:
            members.append(int(stat.parent.name))
    return members


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see a command's workers")
@pytest.mark.parametrize("delay", [0.0, 0.2, 0.6, 1.5])
def test_ctrl_c_while_a_local_dask_cluster_starts_ends_the_batch_quietly(
    delay: float, tmp_path: Path
) -> None:
    """Ctrl-C from the moment the command starts its cluster (its first child process) until
    the cluster is up: never lost, never a hang, never a worker's traceback, no worker left."""
    if importlib.util.find_spec("distributed") is None:
        pytest.skip("dask.distributed is not installed")
    # work for minutes were the signal lost: the exit status would say so
    (tmp_path / "many.txt").write_text((MEDIUM + "\n") * 4000)
    args = ["batch", "rate", "-i", "many.txt", "-o", "out.jsonl", "--chunk", "1"]
    args += ["--dask", "local", "--jobs", "2"]
    process = subprocess.Popen(
        [*SHUDU, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, start_new_session=True
    )
    try:
        started = time.monotonic()
        while not _group_members(process.pid) and process.poll() is None and time.monotonic() - started < 120:
            time.sleep(0.01)
        assert process.poll() is None and _group_members(process.pid), process.communicate()[1]
        time.sleep(delay)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal sends it: the whole group
        _, raw = process.communicate(timeout=120)
        err = raw.decode("utf-8", "replace")
        assert process.returncode == Exit.INTERRUPTED, err
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
        assert err.splitlines()[-1] == "shudu: interrupted", err
        assert not (tmp_path / "out.jsonl").exists()
        # its standard error closed, so its workers are gone, or about to be
        started = time.monotonic()
        while _group_members(process.pid) and time.monotonic() - started < 30:
            time.sleep(0.1)
        assert not _group_members(process.pid)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)


# --- arguments: '-', files, folders, bytes ----------------------------------------------------


def test_a_lone_dash_reads_stdin_for_solve_as_for_steps(tmp_path: Path) -> None:
    done = shudu("solve", "-", cwd=tmp_path, stdin=f"{INKALA}\n".encode())
    assert (done.returncode, done.stdout) == (0, f"{INKALA_SOLVED}\n".encode()), done.stderr
    done = shudu("count", "-", cwd=tmp_path, stdin=f"{INKALA}\n".encode())
    assert (done.returncode, done.stdout) == (0, b"1\n"), done.stderr


def test_a_lone_argument_that_names_a_file_reads_it(tmp_path: Path) -> None:
    (tmp_path / "p.txt").write_text(INKALA + "\n")
    done = shudu("solve", "p.txt", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, f"{INKALA_SOLVED}\n".encode()), done.stderr
    done = shudu("steps", "p.txt", "--technique", "hidden single", cwd=tmp_path)
    assert done.returncode == 0 and b"Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["solve", "count", "rate", "steps"])
@pytest.mark.parametrize(
    ("argument", "said"),
    [
        ("missing.txt", "no such file"),
        ("some/where/p.sdk", "no such file"),
        ("folder", "is a directory"),
        (".", "is a directory"),
    ],
)
def test_a_path_that_is_no_puzzle_is_named(command: str, argument: str, said: str, tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    done = shudu(command, argument, cwd=tmp_path)
    assert done.returncode == Exit.INVALID
    text = one_line(done.stderr, said, repr(argument))
    assert "cells" not in text, text


def test_a_path_among_puzzles_is_its_own_error(tmp_path: Path) -> None:
    done = shudu("solve", INKALA, "missing.txt", cwd=tmp_path)
    assert done.returncode == Exit.INVALID
    assert done.stdout == f"{INKALA_SOLVED}\ninvalid\n".encode()
    one_line(done.stderr, "line 2:", "'missing.txt'", "no such file")


@pytest.mark.parametrize("command", ["solve", "count", "rate", "steps", "convert"])
def test_an_argument_that_is_not_utf8_says_so(command: str, tmp_path: Path) -> None:
    extra = ["--to", "grid"] if command == "convert" else []
    done = shudu(command, b"\xff\xfe" + b"." * 79, *extra, cwd=tmp_path)
    assert done.returncode == Exit.INVALID
    text = one_line(done.stderr, "not UTF-8", "0xff")
    assert "cells" not in text, text


def test_an_argument_that_is_not_utf8_prints_as_json(tmp_path: Path) -> None:
    done = shudu("solve", b"\xff", "--format", "json", cwd=tmp_path)
    assert done.returncode == Exit.INVALID
    assert b'"status": "invalid"' in done.stdout
    one_line(done.stderr, "not UTF-8")


def test_a_long_argument_is_a_puzzle_not_a_file_name(tmp_path: Path) -> None:
    done = shudu("count", "." * 256, "--limit", "3", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "≥3\n".encode()), done.stderr


def test_a_folder_given_as_input_is_named(tmp_path: Path) -> None:
    done = shudu("solve", "-i", str(tmp_path), cwd=tmp_path)
    assert done.returncode == Exit.INVALID
    one_line(done.stderr, str(tmp_path), "directory")


# --- options that name themselves -------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["generate", "--se", "nan-nan"], ["--se", "'nan-nan'", "6.6-7.2"]),
        (["generate", "--se", "9-1"], ["--se", "empty range"]),
        (["generate", "--clues", "24.5"], ["--clues", "whole numbers"]),
        (["bank", "fill", "--se", "x", "--db", "b.sqlite3"], ["--se", "'x'"]),
        (["batch", "generate", "-o", "g.jsonl", "--se", "1-"], ["--se", "'1-'"]),
        (["serve", "--token", "short"], ["--token: the access token"]),
    ],
)
def test_a_bad_option_is_named_once(args: list[str], needles: list[str], tmp_path: Path) -> None:
    done = shudu(*args, cwd=tmp_path)
    assert done.returncode == Exit.INVALID
    text = one_line(done.stderr, *needles)
    assert "--token: --token" not in text
    assert "--se" not in args or "24-28" not in text  # the example of --clues is not one of --se
    assert not (tmp_path / "b.sqlite3").exists() and not (tmp_path / "g.jsonl").exists()


def test_serve_on_an_address_that_is_none_fails_before_it_says_it_serves(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    done = shudu("serve", "--host", "999.1.1.1", cwd=tmp_path)
    assert done.returncode == Exit.INVALID
    one_line(done.stderr, "--host", "999.1.1.1")
    assert b"serving on" not in done.stderr


def test_bank_fill_on_a_scheduler_that_is_not_there_fails_at_once_with_no_count(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    done = shudu(
        "bank",
        "fill",
        "--dask",
        "tcp://127.0.0.1:1",
        "--size",
        "4",
        "--level",
        "easy",
        "--db",
        "b.sqlite3",
        cwd=tmp_path,
    )
    assert done.returncode == Exit.INVALID
    one_line(done.stderr, "Dask scheduler", "tcp://127.0.0.1:1")
    assert b"added" not in done.stderr


# --- risky writes: -o and --db ----------------------------------------------------------------


@pytest.fixture
def one_puzzle(tmp_path: Path) -> Path:
    path = tmp_path / "in.txt"
    path.write_text(INKALA + "\n")
    return path


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_batch_never_writes_parts_into_the_root(force: list[str], one_puzzle: Path, tmp_path: Path) -> None:
    before = set(os.listdir("/"))
    done = shudu("batch", "solve", "-i", str(one_puzzle), "-o", "/", *force, cwd=tmp_path)
    assert done.returncode == Exit.INVALID
    one_line(done.stderr, "-o /", "root")
    assert set(os.listdir("/")) == before


def test_batch_refuses_a_folder_of_other_files_unless_forced(one_puzzle: Path, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    done = shudu("batch", "solve", "-i", str(one_puzzle), "-o", str(folder), cwd=tmp_path)
    assert done.returncode == Exit.INVALID
    one_line(done.stderr, "-o", "notes.txt", "--force")
    assert sorted(os.listdir(folder)) == ["notes.txt"]
    done = shudu("batch", "solve", "-i", str(one_puzzle), "-o", str(folder), "--force", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(folder)) == ["notes.txt", "part-00000000.parquet"]
    assert (folder / "notes.txt").read_text() == "mine"


def test_batch_writes_again_into_its_own_output_and_resumes(one_puzzle: Path, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    folder = tmp_path / "parts"
    for _ in range(2):  # a new folder, then the same batch's earlier output
        done = shudu("batch", "solve", "-i", str(one_puzzle), "-o", f"{folder}/", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    # an interrupted run's journal is the batch's own too
    (folder / ".journal").mkdir()
    done = shudu("batch", "solve", "-i", str(one_puzzle), "-o", f"{folder}/", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(folder)) == ["part-00000000.parquet"]


def test_bank_export_refuses_a_folder_of_other_files(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    done = shudu("bank", "export", "-o", f"{folder}/", "--db", "b.sqlite3", cwd=tmp_path)
    assert done.returncode == Exit.INVALID
    one_line(done.stderr, "notes.txt")
    assert sorted(os.listdir(folder)) == ["notes.txt"]


@pytest.fixture
def other_files(tmp_path: Path) -> Iterator[dict[str, Path]]:
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    folder = tmp_path / "folder"
    folder.mkdir()
    yield {"text": text, "foreign": foreign, "folder": folder}


@pytest.mark.parametrize("which", ["text", "foreign", "folder"])
@pytest.mark.parametrize(
    "action", [["bank", "show"], ["bank", "export", "-o", "x.jsonl"], ["bank", "fill", "--size", "4"]]
)
def test_a_db_that_is_not_shudus_is_refused_and_left_alone(
    which: str, action: list[str], other_files: dict[str, Path], tmp_path: Path
) -> None:
    path = other_files[which]
    before = sorted(os.listdir(tmp_path))
    content = path.read_bytes() if path.is_file() else None
    done = shudu(*action, "--db", str(path), cwd=tmp_path)
    assert done.returncode == Exit.INVALID
    one_line(done.stderr, str(path), "not a shudu database")
    assert sorted(os.listdir(tmp_path)) == before
    if content is not None:
        assert path.read_bytes() == content


def test_bank_show_writes_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "bank.sqlite3"
    done = shudu("bank", "show", "--db", str(missing), cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, b""), done.stderr
    assert not (tmp_path / "no").exists()
    db = tmp_path / "bank.sqlite3"
    done = shudu(
        "bank", "fill", "--size", "4", "--level", "easy", "--count", "1", "--db", str(db), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    files = sorted(os.listdir(tmp_path))
    stamp = db.stat().st_mtime_ns
    for action in (["show"], ["export", "-o", str(tmp_path / "x.jsonl")]):
        done = shudu("bank", *action, "--db", str(db), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert b"4x4" in done.stdout or action[0] == "export"
    assert sorted(os.listdir(tmp_path)) == sorted([*files, "x.jsonl"])
    assert db.stat().st_mtime_ns == stamp
