"""The command line, run through its real entry points."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from shudu.cli import build_parser

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLVED = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shudu", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_solve_an_argument() -> None:
    done = run("solve", INKALA)
    assert done.returncode == 0, done.stderr
    assert done.stdout == INKALA_SOLVED + "\n"
    assert done.stderr == ""


def test_console_script_is_installed() -> None:
    script = shutil.which("shudu", path=str(Path(sys.executable).parent))
    assert script, "the shudu console script is not installed beside this Python"
    done = subprocess.run([script, "count", "." * 16, "--limit", "1000"], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "288\n")


def test_count_marks_a_capped_count() -> None:
    done = run("count", "." * 16, "--limit", "10")
    assert (done.returncode, done.stdout) == (0, "≥10\n")


def test_batch_from_a_file_reports_bad_lines_and_goes_on(tmp_path: Path) -> None:
    bad_char = INKALA[:5] + "x" + INKALA[6:]
    conflict = "88" + INKALA[2:]
    path = tmp_path / "puzzles.txt"
    path.write_text(f"# two good, two bad\n{INKALA}\n{bad_char}\n\n{conflict}\n{'1234' + '.' * 12}\n")
    done = run("solve", "-i", str(path), "--format", "json")
    assert done.returncode == 2
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["line"] for r in records] == [2, 3, 5, 6]
    assert [r["status"] for r in records] == ["unique", "invalid", "invalid", "multiple"]
    assert records[0]["solution"] == INKALA_SOLVED
    assert (
        records[1]["error"]
        == "character 'x' at position 6 (r1c6) is not a digit of a 9x9 puzzle (use 1-9, or . or 0 for empty)"
    )
    assert records[2]["error"] == "r1c1 and r1c2 both hold 8 in row 1"
    errors = done.stderr.splitlines()
    assert errors[0].startswith("shudu: line 3: character 'x'")
    assert errors[1] == "shudu: line 5: r1c1 and r1c2 both hold 8 in row 1"
    assert "Traceback" not in done.stderr


def test_stdin_and_line_format() -> None:
    none = "12345678." + "........9" + "." * 63
    done = run("solve", stdin=f"{INKALA}\n{none}\n")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [INKALA_SOLVED, "no solution"]


def test_grid_format_and_variants() -> None:
    done = run("solve", "--variant", "x", "--format", "grid", "." * 16)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == "# line 1: multiple"
    assert lines[1].count("|") == 1
    assert "# extra regions: a = diagonal 1, b = diagonal 2" in lines
    assert "several solutions" in done.stderr


def test_box_option() -> None:
    six = "...36.2......5.......13......4..5.2."  # unique with boxes of 3 rows x 2 columns
    assert json.loads(run("solve", six, "--format", "json").stdout)["status"] == "multiple"
    done = run("solve", "--box", "3x2", six, "--format", "json")
    assert json.loads(done.stdout)["status"] == "unique"


def test_variant_file(tmp_path: Path) -> None:
    spec = tmp_path / "diag.json"
    spec.write_text(json.dumps({"variant": "custom", "regions": [[0, 5, 10, 15]]}))
    done = run("count", "--variant", str(spec), "." * 16)
    assert done.returncode == 0
    assert int(done.stdout) < 288
    spec.write_text("{not json")
    broken = run("count", "--variant", str(spec), "." * 16)
    assert broken.returncode == 2 and "invalid JSON" in broken.stderr and "Traceback" not in broken.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "--variant", "nope", INKALA], "unknown variant 'nope'"),
        (["solve", "--box", "4x4", "." * 36], "boxes of 4x4 do not tile a 6x6 grid"),
        (["solve", "-i", "/nonexistent/puzzles.txt"], "cannot read /nonexistent/puzzles.txt"),
        (["solve", "--algorithm", "nope", INKALA], "unknown algorithm 'nope'"),
        (["solve", "123"], "line 1: the puzzle has 3 cells"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("\n# nothing here\n")
    done = run("solve", "-i", str(path))
    assert done.returncode == 2 and "holds no puzzle" in done.stderr


def test_variants_lists_every_variant() -> None:
    done = run("variants")
    names = [line.split()[0] for line in done.stdout.splitlines()]
    assert {"standard", "x", "windoku", "pyramid", "jigsaw", "anti-knight", "anti-king", "custom"} <= set(
        names
    )


def test_every_command_has_help_with_an_example() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")
    assert isinstance(commands.choices, dict) and commands.choices
    for name, sub in commands.choices.items():
        assert sub.description, f"'shudu {name}' has no description"
        assert sub.epilog and "example" in sub.epilog, f"'shudu {name} --help' shows no example"
        assert f"shudu {name}" in sub.epilog
        done = run(name, "--help")
        assert done.returncode == 0 and "example" in done.stdout


def test_explain_replays_the_enumeration_search() -> None:
    puzzle = "31.22....21..32."
    done = run("explain", "--algorithm", "enumerate", puzzle)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"# line 1: {puzzle} (enumeration search)"
    assert lines[1].startswith("start: ")
    assert lines[2].startswith("k=1: r1c3 = ")
    assert lines[-1] == "solution: 3142243142131324"
    steps = run("explain", "--algorithm", "enumerate", "--format", "json", "--node-limit", "2", puzzle)
    assert [json.loads(line)["kind"] for line in steps.stdout.splitlines()] == ["start", "forward"]
    other = run("explain", "--algorithm", "dlx", puzzle)
    assert other.returncode == 2 and "--algorithm enumerate" in other.stderr


def call(*args: str, stdin: bytes = b"") -> tuple[int, str, str]:
    """Run ``main()`` in this process: (exit status, stdout, stderr)."""
    import io

    from shudu.cli import main

    out, err = io.StringIO(), io.StringIO()
    real_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        status = main(list(args), stdout=out, stderr=err)
    finally:
        sys.stdin = real_stdin
    return int(status), out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["count", INKALA, "--limit", "0"],
            "--limit must be a whole number from 1 to 9223372036854775807, not '0'",
        ),
        (["count", INKALA, "--limit", str(10**30)], "--limit must be a whole number from 1 to"),
        (["count", INKALA, "--node-limit", str(2**70)], "--node-limit must be a whole number from 1 to"),
        (["count", INKALA, "--node-limit=-5"], "--node-limit must be a whole number from 1 to"),
        (["solve", INKALA, "--timeout", "-1"], "--timeout must be a number of seconds greater than 0"),
        (["solve", INKALA, "--timeout", "nan"], "--timeout must be a number of seconds greater than 0"),
        (["solve", INKALA, "--timeout", "inf"], "not 'inf'"),
        (["solve", INKALA, "--timeout", "soon"], "not 'soon'"),
        (["generate", "--size", "26"], "--size must be a whole number from 4 to 25, not '26'"),
        (["generate", "--count", "0"], "--count must be a whole number from 1 to"),
        (["serve", "--port", "0"], "--port must be a whole number from 1 to 65535, not '0'"),
        (["solve", INKALA, "--format", "xml"], "invalid choice: 'xml'"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    status, out, err = call(*args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("shudu: ")
    assert message in err
    assert "argument --" not in err  # the option is named once, by the checker's message


def test_count_with_a_budget_says_timeout() -> None:
    status, out, err = call("count", INKALA, "--node-limit", "1")
    assert (status, out) == (0, "≥0\n")
    assert err == "shudu: line 1: timeout (node limit of 1 reached) after 0 solutions\n"


def test_version_names_the_engine() -> None:
    from shudu import __version__
    from shudu.solvers import fast

    status, out, _ = call("--version")
    assert status == 0
    engine = "C core" if fast.IMPLEMENTATION == "c" else "pure-Python core"
    assert out.startswith(f"shudu {__version__} ({engine}")


def test_binary_variant_file_is_a_clean_error(tmp_path: Path) -> None:
    spec = tmp_path / "regions.json"
    spec.write_bytes(b'{"variant": "\xff\xfe"}')
    status, out, err = call("count", "--variant", str(spec), "." * 16)
    assert status == 2 and out == ""
    assert err == f"shudu: variant file {spec} is not UTF-8 text (byte 0xff at offset 13)\n"


def test_a_non_utf8_line_and_a_bom_in_a_batch(tmp_path: Path) -> None:
    path = tmp_path / "puzzles.txt"
    path.write_bytes(
        b"\xef\xbb\xbf" + INKALA.encode() + b"\n" + b"\xff" * 81 + b"\n" + INKALA.encode() + b"\n"
    )
    for args, stdin in ((["-i", str(path)], b""), ([], path.read_bytes())):
        status, out, err = call("solve", *args, "--format", "json", stdin=stdin)
        assert status == 2
        records = [json.loads(line) for line in out.splitlines()]
        assert [r["status"] for r in records] == ["unique", "invalid", "unique"]
        assert err.startswith("shudu: line 2: ") and "UTF-8" in err
