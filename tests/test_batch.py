"""``shudu batch``: records cross-checked with the single-puzzle API, every output form, the
same answers on every core, and a job killed with SIGKILL that finishes as if never stopped."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import shudu
from shudu.batch import Job, Spec, form_of, read_items, run_job, work_folder
from shudu.cli import batch as batch_cli
from shudu.cli._base import Commands, Output, Parser
from shudu.errors import ShuduError
from shudu.notation import Exit

TESTS = Path(__file__).parent
HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
EASY = "....2..3...3.19.45124....6..3.8.6..2.52...8..4.195.....6.3..78.......4..9.7185.23"
NONE = "6...2..3...3.19.45124....6..3.8.6..2.52...8..4.195.....6.3..78.......4..9.7185.23"
MULTIPLE = "..............................8.6..2.52...8..4.195.....6.3..78.......4..9.7185.23"

#: A command line for a subprocess: the batch command on a parser of its own.
DRIVER = """
import sys
from shudu.cli._base import Commands, Output, Parser
from shudu.cli import batch
from shudu.errors import ShuduError
parser = Parser(prog="shudu")
batch.register(Commands(parser.add_subparsers(dest="command")))
out = Output(sys.stdout, sys.stderr)
try:
    args = parser.parse_args(sys.argv[1:])
    args.run(args, out)
except ShuduError as exc:
    out.problem(str(exc))
sys.exit(2 if out.bad_input else 0)
"""


#: Puzzles from easy to unfair that the logic engine rates in milliseconds.
RATED = [
    "8.59..............69.7.14...386.9........4..1......683...8...7...3....9.....47.5.",
    "..4...52....89.......14....4..9.......75..1.8..3.....6......6972..3......75.....1",
    "4.....2.3...1.3.7.....8...1...2.....7...4.........5.4..7.3...5..3.8.796.58...4..2",
    "9...6..7.5..1....6.24.8.5.9.7...9.2.....4......2.......9.71.26.....26.....3..8...",
    "..4..7.23....9..8......2..4.6.2..8..4.5.....1.1........3...6.4.....831....75.1...",
    "2.7..6........246..5.1.....9...7...2..2..4...1...83..........746.....2...9....8.3",
    "59..8.........7.....29.4....6...3.....3....687.9.4.........5..6.7.2.6.5.1.....8.3",
]


def relabel(puzzle: str, shift: int) -> str:
    """The puzzle with digit d renamed d+shift (mod 9): a different puzzle of the same difficulty."""
    return "".join(c if c == "." else str((int(c) - 1 + shift) % 9 + 1) for c in puzzle)


def run(argv: list[str]) -> tuple[int, str]:
    """Run ``shudu batch ARGV`` in this process: the exit status and stderr."""
    parser = Parser(prog="shudu")
    batch_cli.register(Commands(parser.add_subparsers(dest="command")))
    err = io.StringIO()
    out = Output(io.StringIO(), err)
    try:
        args = parser.parse_args(["batch", *argv])
        args.run(args, out)
    except ShuduError as exc:
        out.problem(str(exc))
    return (Exit.INVALID if out.bad_input else Exit.OK), err.getvalue()


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


@pytest.fixture
def puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "in.txt"
    lines = ["# a comment", EASY, "12345bad", "", NONE, MULTIPLE, *RATED]
    path.write_text("\n".join(lines) + "\n")
    return path


def good_lines(path: Path) -> list[tuple[int, str]]:
    return [
        (number, text)
        for number, text in enumerate(path.read_text().splitlines(), start=1)
        if text and not text.startswith("#")
    ]


def test_solve_records_match_the_api_one_by_one(puzzles: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    status, err = run(["solve", "-i", str(puzzles), "-o", str(out)])
    assert status == Exit.INVALID  # the bad line
    assert "line 3:" in err
    found = records(out)
    assert [r["line"] for r in found] == [n for n, _ in good_lines(puzzles)]
    for record, (_, text) in zip(found, good_lines(puzzles), strict=True):
        assert record["puzzle"] == text
        if text == "12345bad":
            assert record["status"] == "invalid" and "8 cells" in record["error"]
            continue
        single = shudu.solve(text)
        assert record["status"] == single.status
        if single.status == "unique":
            assert single.solution is not None
            assert record["solution"] == single.solution.to_string()
        assert record["seconds"] >= 0


def test_solve_with_timeout_goes_puzzle_by_puzzle(puzzles: Path, tmp_path: Path) -> None:
    fast, slow = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run(["solve", "-i", str(puzzles), "-o", str(fast), "--no-timing"])
    run(["solve", "-i", str(puzzles), "-o", str(slow), "--no-timing", "--timeout", "100"])
    one, other = records(fast), records(slow)
    # the C batch and the per-puzzle search agree on every status and unique solution
    assert [r["status"] for r in one] == [r["status"] for r in other]
    assert [r["solution"] for r in one if r["status"] == "unique"] == [
        r["solution"] for r in other if r["status"] == "unique"
    ]


def test_count_and_rate_match_the_api(puzzles: Path, tmp_path: Path) -> None:
    counted, rated = tmp_path / "c.jsonl", tmp_path / "r.jsonl"
    run(["count", "-i", str(puzzles), "-o", str(counted), "--limit", "5"])
    run(["rate", "-i", str(puzzles), "-o", str(rated)])
    for record in records(counted):
        if record["status"] == "invalid":
            continue
        assert record["count"] == shudu.count(record["puzzle"], 5)
        assert record["capped"] == (record["count"] == 5)
    for record in records(rated):
        if record["status"] == "invalid":
            continue
        rating = shudu.rate(record["puzzle"]).to_json()
        assert {k: record[k] for k in ("status", "level", "score", "se", "hardest")} == {
            k: rating[k] for k in ("status", "level", "score", "se", "hardest")
        }


def test_explain_records_hold_the_path(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text(EASY + "\n")
    out = tmp_path / "e.jsonl"
    assert run(["explain", "-i", str(source), "-o", str(out)])[0] == Exit.OK
    (record,) = records(out)
    assert record["steps"] == shudu.explain(EASY).to_json()["steps"]


def test_output_forms_hold_the_same_records(puzzles: Path, tmp_path: Path) -> None:
    lines = tmp_path / "r.jsonl"
    table = tmp_path / "r.csv"
    run(["rate", "-i", str(puzzles), "-o", str(lines), "--no-timing"])
    run(["rate", "-i", str(puzzles), "-o", str(table), "--no-timing"])
    import csv

    rows = list(csv.DictReader(table.open()))
    expected = records(lines)
    assert [int(r["line"]) for r in rows] == [r["line"] for r in expected]
    assert [r["se"] for r in rows] == ["" if r["se"] is None else str(r["se"]) for r in expected]
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs pyarrow")
    one, parts = tmp_path / "r.parquet", tmp_path / "parts"
    run(["rate", "-i", str(puzzles), "-o", str(one), "--no-timing"])
    run(["rate", "-i", str(puzzles), "-o", f"{parts}/", "--no-timing", "--chunk", "3"])
    assert pq.read_table(one).to_pylist() == expected
    assert len(list(parts.glob("part-*.parquet"))) == -(-len(expected) // 3)
    assert pq.read_table(parts).to_pylist() == expected
    assert not work_folder(str(one), "parquet").exists()


def test_a_folder_of_files_is_read_in_name_order(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "b.txt").write_text(HARD + "\n")
    (folder / "a.txt").write_text("# only a comment\n\n" + EASY + "\n")
    (folder / "c.txt").write_text("# nothing here\n")
    out = tmp_path / "s.jsonl"
    assert run(["solve", "-i", str(folder), "-o", str(out)])[0] == Exit.OK
    assert [(r["file"], r["line"], r["puzzle"]) for r in records(out)] == [
        ("a.txt", 3, EASY),
        ("b.txt", 1, HARD),
    ]


def test_bad_options_and_inputs_are_clear_errors(puzzles: Path, tmp_path: Path) -> None:
    status, err = run(["solve", "-i", str(puzzles), "-o", str(tmp_path / "out.txt")])
    assert status == Exit.INVALID and "-o must end in .jsonl, .csv or .parquet" in err
    status, err = run(["solve", "-o", str(tmp_path / "x.jsonl")])
    assert status == Exit.INVALID and "-i is required" in err
    status, err = run(["rate", "-i", str(tmp_path / "missing.txt"), "-o", str(tmp_path / "x.jsonl")])
    assert status == Exit.INVALID and "cannot read" in err and "Traceback" not in err
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    status, err = run(["solve", "-i", str(empty), "-o", str(tmp_path / "x.jsonl")])
    assert status == Exit.INVALID and "no puzzle" in err
    status, err = run(["rate", "-i", str(puzzles), "-o", str(tmp_path / "x.jsonl"), "--jobs", "0"])
    assert status == Exit.INVALID and "--jobs" in err
    assert not (tmp_path / "x.jsonl").exists()


def test_a_resumed_job_with_other_options_is_refused(puzzles: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    folder = work_folder(str(out), form_of(str(out)))
    options = {"timeout": None, "node_limit": None, "box": None, "variant": None, "allow_multiple": False}
    spec = Spec("rate", options)
    items = list(read_items(str(puzzles)))
    job = Job(spec, str(out), "jsonl", chunk=2)
    job.on_chunk = lambda number: (_ for _ in ()).throw(KeyboardInterrupt) if number == 1 else None
    with pytest.raises(KeyboardInterrupt):
        run_job(job, items)
    assert folder.is_dir() and not out.exists()
    status, err = run(["rate", "-i", str(puzzles), "-o", str(out), "--allow-multiple", "--chunk", "2"])
    assert status == Exit.INVALID and "interrupted job with other options (--allow-multiple)" in err
    status, err = run(["rate", "-i", str(puzzles), "-o", str(out), "--chunk", "2", "--no-timing"])
    assert status == Exit.INVALID and "from the interrupted run" in err  # the bad line, answered
    assert not folder.exists()
    expected = tmp_path / "again.jsonl"
    run(["rate", "-i", str(puzzles), "-o", str(expected), "--no-timing"])
    assert out.read_bytes() == expected.read_bytes()


def test_a_changed_input_is_noticed_on_resume(puzzles: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    items = list(read_items(str(puzzles)))
    job = Job(Spec("solve", {"algorithm": "auto"}), str(out), "jsonl", chunk=2)
    job.on_chunk = lambda number: (_ for _ in ()).throw(KeyboardInterrupt) if number == 1 else None
    with pytest.raises(KeyboardInterrupt):
        run_job(job, items)
    puzzles.write_text(HARD + "\n" + puzzles.read_text())
    again = Job(Spec("solve", {"algorithm": "auto"}), str(out), "jsonl", chunk=2)
    with pytest.raises(ShuduError, match="differs from the interrupted run"):
        run_job(again, read_items(str(puzzles)))


def test_generate_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    one, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    argv = ["generate", "--count", "3", "--seed", "11", "--size", "4", "--no-timing"]
    assert run([*argv, "-o", str(one)])[0] == Exit.OK
    assert run([*argv, "-o", str(other), "--chunk", "1"])[0] == Exit.OK
    assert one.read_bytes() == other.read_bytes()
    for record in records(one):
        assert record["status"] == "unique"
        assert shudu.generate(4, seed=record["seed"], rate=True).to_json()["givens"] == record["givens"]
        assert shudu.count(record["givens"], 2) == 1


def test_every_core_gives_the_same_answers(puzzles: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run(["rate", "-i", str(puzzles), "-o", str(one), "--no-timing"])
    run(["rate", "-i", str(puzzles), "-o", str(two), "--no-timing", "--jobs", "2", "--chunk", "3"])
    assert one.read_bytes() == two.read_bytes()
    run(["solve", "-i", str(puzzles), "-o", str(one), "--no-timing"])
    run(["solve", "-i", str(puzzles), "-o", str(two), "--no-timing", "--jobs", "2"])
    assert one.read_bytes() == two.read_bytes()


def _driver(argv: list[str], cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", DRIVER, "batch", *argv],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_job_killed_at_random_moments_finishes_as_if_never_stopped(tmp_path: Path, jobs: str) -> None:
    psutil = pytest.importorskip("psutil", reason="psutil comes with the batch extra (dask.distributed)")
    source = tmp_path / "in.txt"
    # digits renamed: work of the same size, and every line a different puzzle
    lines = [relabel(p, shift) for shift in range(8) for p in RATED]
    lines.insert(5, "not a puzzle")
    source.write_text("\n".join(lines) + "\n")
    expected = tmp_path / "expected.jsonl"
    assert run(["rate", "-i", str(source), "-o", str(expected), "--no-timing"])[0] == Exit.INVALID
    out = tmp_path / "out.jsonl"
    argv = ["rate", "-i", str(source), "-o", str(out), "--no-timing", "--chunk", "1", "--jobs", jobs]
    folder = work_folder(str(out), "jsonl")
    draw = random.Random(int(jobs))
    killed_mid_job = 0
    for attempt in range(3):
        process = _driver(argv, tmp_path)
        if attempt:
            # the later kills land once the job has begun (on a loaded machine the start alone
            # can take longer than the first kill's random moment)
            for _ in range(600):
                if folder.is_dir() or process.poll() is not None:
                    break
                time.sleep(0.05)
            time.sleep(draw.uniform(0.0, 1.0))
        else:
            time.sleep(draw.uniform(0.5, 2.0))
        workers = psutil.Process(process.pid).children(recursive=True)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
        # the pool's processes leave with the job: none waits or computes on for nobody
        _, alive = psutil.wait_procs(workers, timeout=30)
        assert not alive, [w.cmdline() for w in alive]
        killed_mid_job += process.returncode == -signal.SIGKILL and folder.is_dir()
        # whatever the moment: the output is absent or whole, and every chunk is whole
        if out.exists():
            assert out.read_bytes() == expected.read_bytes()
        for chunk in folder.glob("chunk-*.jsonl"):
            text = chunk.read_text("utf-8")
            assert text.endswith("\n")
            header, *rest = (json.loads(line) for line in text.splitlines())
            assert header["records"] == len(rest) == 1
    assert killed_mid_job  # the moments are drawn so that the job is still going
    process = _driver(argv, tmp_path)
    _, err = process.communicate(timeout=300)
    assert process.returncode == Exit.INVALID, err.decode()
    assert out.read_bytes() == expected.read_bytes()
    assert not folder.exists()
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


def test_temporaries_of_killed_writers_are_swept_and_a_live_one_is_kept(tmp_path: Path) -> None:
    """A writer killed between writing its temporary and the rename leaves a file that the next
    finished write of the same output removes; a temporary whose writer still runs stays."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    source = tmp_path / "in.txt"
    source.write_text(RATED[0] + "\n")
    out, parts = tmp_path / "out.jsonl", tmp_path / "parts"
    parts.mkdir()
    litter = [tmp_path / f".out.jsonl.tmp-{gone.pid}", parts / f".part-00000000.parquet.tmp-{gone.pid}"]
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as live:
        kept = tmp_path / f".out.jsonl.tmp-{live.pid}"
        other = tmp_path / f".other.jsonl.tmp-{gone.pid}"
        for path in [*litter, kept, other]:
            path.write_text("half")
        assert run(["rate", "-i", str(source), "-o", str(out), "--no-timing"])[0] == Exit.OK
        if importlib.util.find_spec("pyarrow") is not None:
            assert run(["rate", "-i", str(source), "-o", f"{parts}/", "--no-timing"])[0] == Exit.OK
            assert not litter[1].exists()
        live.kill()
    assert not litter[0].exists()
    assert kept.exists() and other.exists()  # a live writer's file, and another output's
    assert records(out)[0]["status"] == "unique"


def test_progress_is_shown_only_when_asked_or_on_a_terminal(puzzles: Path, tmp_path: Path) -> None:
    _, err = run(["solve", "-i", str(puzzles), "-o", str(tmp_path / "a.jsonl"), "--progress"])
    assert "puzzle" in err
    _, quiet = run(["solve", "-i", str(puzzles), "-o", str(tmp_path / "b.jsonl")])
    assert "\r" not in quiet
    assert "status: invalid 1," in quiet and "done" in quiet


def test_the_summary_counts_levels_and_se(puzzles: Path, tmp_path: Path) -> None:
    _, err = run(["rate", "-i", str(puzzles), "-o", str(tmp_path / "r.jsonl")])
    rated = [r for r in records(tmp_path / "r.jsonl") if r["level"]]
    easy = sum(r["level"] == "easy" for r in rated)
    assert f"easy {easy}" in err
    assert "SE 1.0-1.9" in err


def test_the_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    parser = Parser(prog="shudu")
    batch_cli.register(Commands(parser.add_subparsers(dest="command")))
    for command in ("solve", "count", "rate", "explain", "generate"):
        with pytest.raises(SystemExit):
            parser.parse_args(["batch", command, "--help"])
        assert "--output" in capsys.readouterr().out


def test_stdin_is_read_as_bytes_line_by_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = (EASY + "\n").encode() + b"\xff\xfe not text\n" + (NONE + "\n").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    out = tmp_path / "s.jsonl"
    status, err = run(["solve", "-i", "-", "-o", str(out)])
    assert status == Exit.INVALID and "line 2: not UTF-8" in err
    assert [(r["line"], r["status"]) for r in records(out)] == [(1, "unique"), (2, "invalid"), (3, "none")]


def test_lines_parsed_by_the_workers_give_the_records_parsed_here(tmp_path: Path) -> None:
    """Puzzles a line are parsed where the chunk runs; the records are those of the reader that
    parses each line first (docs/formats.md), a grid-block file included."""
    json_line = json.dumps({"givens": EASY})
    lines = "\n".join(
        ["# comment", EASY, "", json_line, "1234", NONE, "3..1....4..2....", "x" * 81, MULTIPLE, RATED[0]]
    )
    one = tmp_path / "lines.txt"
    one.write_bytes(b"\xef\xbb\xbf" + lines.encode() + b"\n\xff bad\n" + RATED[1].encode() + b"\r\n")
    same_size = tmp_path / "same_size.txt"
    conflict = "11" + "." * 79
    same_size.write_text("\n".join([EASY, "x" * 81, conflict, NONE, "", "# c", MULTIPLE, *RATED]) + "\n")
    block = tmp_path / "block.txt"
    block.write_text("\n".join(EASY[r * 9 : r * 9 + 9] for r in range(9)) + "\n\n" + "1.2\n")
    for source in (one, same_size, block):
        for command in ("solve", "rate"):
            spec = Spec(command, {"algorithm": "auto", "box": None, "variant": None})
            found = []
            for defer in (True, False):
                out = tmp_path / f"{command}-{defer}.jsonl"
                run_job(
                    Job(spec, str(out), "jsonl", chunk=3, timing=False), read_items(str(source), defer=defer)
                )
                found.append(out.read_bytes())
            assert found[0] == found[1]
    statuses = [r["status"] for r in records(tmp_path / "solve-True.jsonl")]
    assert statuses == ["unique", "invalid"]  # the block file, last run
    lines_run = tmp_path / "lines.jsonl"
    run_job(Job(Spec("solve", {}), str(lines_run), "jsonl", timing=False), read_items(str(one)))
    assert [(r["line"], r["status"]) for r in records(lines_run)] == [
        (2, "unique"),
        (4, "unique"),
        (5, "invalid"),
        (6, "none"),
        (7, shudu.solve("3..1....4..2....").status),
        (8, "invalid"),
        (9, "multiple"),
        (10, "unique"),
        (11, "invalid"),
        (12, "unique"),
    ]
