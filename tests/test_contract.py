"""The contract every entry point keeps (docs/errors.md), fuzzed with hostile arguments.

Every command of the parser (commands added later are covered too) and the Python API are
driven with bad numbers, bad variants, binary and non-UTF-8 bytes, empty input and BOMs. The
only results accepted: an answer or a clean error — exit status 0 or 2, no exception out of
``main()``, and an error message that names the option, or the line of the bad input.
"""

from __future__ import annotations

import argparse
import io
import math
import string
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import shudu
from shudu.cli import build_parser, main
from shudu.errors import ConflictError, OptionError, ShuduError
from shudu.geometry import Geometry
from shudu.notation import STATUSES, Exit

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

#: Independent statement of the ranges docs/errors.md promises.
MAX_COUNT = 2**63 - 1
MAX_SECONDS = 1e9


def valid_count(value: object, minimum: int, maximum: int = MAX_COUNT) -> bool:
    return type(value) is int and minimum <= value <= maximum


def valid_seconds(value: object) -> bool:
    return (
        type(value) in (int, float)
        and math.isfinite(value)  # type: ignore[arg-type]
        and 0 < value <= MAX_SECONDS  # type: ignore[operator]
    )


# --- the command line ----------------------------------------------------------------------------


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def numeric_options() -> list[tuple[str, str]]:
    """(command, option) for every option of every command that takes a number."""
    found = []
    for name, sub in subcommands().items():
        for action in sub._actions:
            kind = getattr(action.type, "__name__", "")
            if action.option_strings and kind in ("int", "float", "count", "seconds", "_scale"):
                found.append((name, action.option_strings[-1]))
    return found


def puzzle_commands() -> list[str]:
    return [
        name
        for name, sub in subcommands().items()
        if any(action.dest == "puzzles" for action in sub._actions)
    ]


@contextmanager
def stdin_bytes(data: bytes) -> Iterator[None]:
    real = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        yield
    finally:
        sys.stdin = real


def run(args: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with stdin_bytes(stdin):
        status = main(args, stdout=out, stderr=err)
    return int(status), out.getvalue(), err.getvalue()


def test_the_commands_are_found() -> None:
    assert {"solve", "count", "generate"} <= set(subcommands())
    assert ("count", "--limit") in numeric_options()
    assert {"solve", "count"} <= set(puzzle_commands())


#: Numbers no option takes: negative, not finite, beyond every engine, or no number at all.
HOSTILE_NUMBERS = st.one_of(
    st.integers(max_value=-1).map(str),
    st.integers(min_value=MAX_COUNT + 1, max_value=10**40).map(str),
    st.sampled_from(["nan", "-nan", "inf", "-inf", "1e999", "10**30", "2**70", "", " ", "0x10", "abc"]),
    st.text(alphabet=string.ascii_letters + "-+.,_ ", min_size=1, max_size=12).filter(
        lambda t: not _is_number(t)
    ),
)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@FUZZ
@given(st.data())
def test_every_numeric_option_refuses_hostile_values_cleanly(data: st.DataObject) -> None:
    command, option = data.draw(st.sampled_from(numeric_options()))
    value = data.draw(HOSTILE_NUMBERS)
    status, out, err = run([command, f"{option}={value}"])
    assert status == Exit.INVALID
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"shudu: {option} must be "), err
    assert "Traceback" not in err


#: Options for which 0 is a meaningful value (taking it would run the command: a server runs on).
ZERO_TAKEN = ("--seed", "--queue")


@FUZZ
@given(st.data())
def test_zero_is_refused_or_taken_by_each_numeric_option(data: st.DataObject) -> None:
    """Zero is the edge case: a seed may be 0, and so may the queue of a server (no job waits);
    a limit, a budget, a size or a count may not."""
    command, option = data.draw(st.sampled_from(numeric_options()))
    assume(option not in ZERO_TAKEN)
    status, out, err = run([command, f"{option}=0"])
    assert (status, out) == (Exit.INVALID, "")
    assert err.startswith(f"shudu: {option} must be ") and err.count("\n") == 1


PUZZLE_CHARS = "..1234"
TINY = st.text(alphabet=PUZZLE_CHARS, min_size=16, max_size=16)  # 4x4, quick everywhere
HOSTILE_LINES = st.one_of(
    TINY.map(str.encode),
    st.binary(max_size=24),
    st.text(alphabet=PUZZLE_CHARS + "x0\t{}", max_size=20).map(str.encode),
    TINY.map(lambda t: "\ufeff".encode() + t.encode()),
    st.just(b"\xff" * 16),
    st.just(b""),
)


@pytest.fixture(scope="module")
def variant_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("variants")
    binary = folder / "binary.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00")
    not_object = folder / "list.json"
    not_object.write_text("[1, 2]")
    bad_regions = folder / "regions.json"
    bad_regions.write_text('{"variant": "custom", "regions": [[0, 99], "x"]}')
    return {"binary": str(binary), "list": str(not_object), "regions": str(bad_regions)}


@FUZZ
@given(data=st.data())
def test_every_puzzle_command_answers_or_fails_cleanly(
    data: st.DataObject, variant_files: dict[str, str]
) -> None:
    command = data.draw(st.sampled_from(puzzle_commands()))
    lines = data.draw(st.lists(HOSTILE_LINES, max_size=4))
    args = [command, "--timeout", "5", "--node-limit", "5000"]
    variant = data.draw(
        st.sampled_from([None, "x", "nope", "x+anti-king", "", *variant_files.values(), "missing.json"])
    )
    if variant is not None:
        args += ["--variant", variant]
    status, _, err = run(args, stdin=b"\n".join(lines))
    assert status in (Exit.OK, Exit.INVALID), err
    assert "Traceback" not in err
    problems = [line for line in err.splitlines() if line.startswith("shudu: ")]
    assert len(problems) == len(err.splitlines()), err
    if status == Exit.INVALID:
        assert problems, "exit 2 without saying why"


@FUZZ
@given(puzzle=TINY, extra=st.sampled_from(["", "\ufeff"]))
def test_a_puzzle_as_argument_and_on_stdin_get_one_answer(puzzle: str, extra: str) -> None:
    from_argument = run(["solve", puzzle, "--format", "json"])
    from_stdin = run(["solve", "--format", "json"], stdin=(extra + puzzle + "\n").encode())
    assert from_argument == from_stdin


# --- the Python API ------------------------------------------------------------------------------

ANY_NUMBER: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["5", "1.5", b"3", 2.0, 0, 1, MAX_COUNT, MAX_COUNT + 1, MAX_SECONDS]),
)
API_PUZZLES = st.one_of(TINY, st.text(alphabet=PUZZLE_CHARS + "x\n {}\ufeff", max_size=20))


def option_refused(exc: ShuduError, name: str, value: object, valid: bool) -> bool:
    return isinstance(exc, OptionError) and exc.option == name and not valid and value is not None


@FUZZ
@given(puzzle=API_PUZZLES, limit=ANY_NUMBER, node_limit=ANY_NUMBER, timeout=ANY_NUMBER)
def test_api_calls_answer_or_raise_a_shudu_error(
    puzzle: str, limit: Any, node_limit: Any, timeout: Any
) -> None:
    good_nodes = node_limit is None or valid_count(node_limit, 1)
    good_time = timeout is None or valid_seconds(timeout)
    try:
        result = shudu.solve(puzzle, node_limit=node_limit, timeout=timeout)
    except OptionError as exc:
        assert (exc.option, good_nodes if exc.option == "node_limit" else good_time) in (
            ("node_limit", False),
            ("timeout", False),
        )
        assert str(exc).startswith(f"{exc.option} must be ")
    except ShuduError:
        assert good_nodes and good_time  # the numbers are checked before the puzzle
    else:
        assert good_nodes and good_time
        assert result.status in STATUSES and result.status != "invalid"
    good_limit = limit is None or valid_count(limit, 1)
    try:
        found = shudu.count(puzzle, limit, node_limit=node_limit, timeout=timeout)
    except OptionError as exc:
        valid = {"limit": good_limit, "node_limit": good_nodes, "timeout": good_time}[exc.option]
        assert not valid, exc
    except ShuduError:
        assert good_limit and good_nodes and good_time
    else:
        assert good_limit and good_nodes and good_time
        assert 0 <= found <= (limit or found)


BATCH_ITEMS: st.SearchStrategy[Any] = st.one_of(
    TINY,
    TINY.map(str.encode),
    st.binary(max_size=17),
    st.text(alphabet=PUZZLE_CHARS + "x", max_size=17),
    st.sampled_from([None, 5, 1.5, ["1"]]),
)


@FUZZ
@given(items=st.lists(BATCH_ITEMS, max_size=6), as_buffer=st.booleans())
def test_solve_many_answers_every_item(items: list[Any], as_buffer: bool) -> None:
    geometry = Geometry(4)
    if as_buffer:
        lines = [i if isinstance(i, bytes) else str(i).encode() for i in items]
        assume(all(b"\n" not in line for line in lines))
        batch: Any = b"\n".join(lines) + (b"\n" if lines else b"")
        items = lines
    else:
        batch = items
    result = shudu.solve_many(batch, limit=2, node_limit=100_000, geometry=geometry)
    assert len(result) == len(items) == len(result.errors)
    for number, (item, status, error) in enumerate(
        zip(items, result.statuses, result.errors, strict=True), start=1
    ):
        assert (status == "invalid") == (error is not None)
        if error is not None:
            assert isinstance(error, ShuduError) and error.line == number
            assert str(error).startswith(f"line {number}: ")
            continue
        text = item.decode() if isinstance(item, bytes) else item
        single = shudu.solve(text.rstrip("\r"))  # the same answer as one solve
        assert status == single.status
        assert result.solution(number - 1) == (single.solution.to_string() if single.solution else None)


@FUZZ
@given(items=st.lists(TINY, min_size=1, max_size=4))
def test_solve_many_gives_conflicts_as_solve_does(items: list[str]) -> None:
    result = shudu.solve_many(items, limit=2, geometry=Geometry(4))
    for item, status, error in zip(items, result.statuses, result.errors, strict=True):
        try:
            shudu.solve(item)
        except ConflictError as exc:
            assert status == "invalid" and isinstance(error, ConflictError)
            assert error.message == exc.message
        else:
            assert status != "invalid" and error is None


@FUZZ
@given(limit=ANY_NUMBER, threads=ANY_NUMBER, node_limit=ANY_NUMBER, timeout=ANY_NUMBER)
def test_solve_many_checks_its_own_arguments(limit: Any, threads: Any, node_limit: Any, timeout: Any) -> None:
    valid = {
        "limit": valid_count(limit, 1),
        "threads": valid_count(threads, 0, 256),
        "node_limit": node_limit is None or valid_count(node_limit, 1),
        "timeout": timeout is None or valid_seconds(timeout),
    }
    try:
        result = shudu.solve_many(
            ["." * 16], limit=limit, threads=threads, node_limit=node_limit, timeout=timeout
        )
    except OptionError as exc:
        assert not valid[exc.option]
        assert str(exc).startswith(f"{exc.option} must be ")
    else:
        assert all(valid.values())
        assert len(result) == 1


def test_a_path_refused_before_any_work(tmp_path: Path) -> None:
    """A bad option stops the command before it reads its input or makes anything."""
    db = tmp_path / "bank.sqlite3"
    status, out, _ = run(["bank", "fill", "--count", "0", "--db", str(db)])
    assert (status, out) == (Exit.INVALID, "") and not db.exists()


def board_commands() -> list[str]:
    """Commands that take one board argument (text, a file, or - for stdin) instead of puzzles."""
    return [
        name
        for name, sub in subcommands().items()
        if any(a.dest == "board" and not a.option_strings for a in sub._actions)
    ]


@FUZZ
@given(data=st.data())
def test_every_board_command_answers_or_fails_cleanly(data: st.DataObject) -> None:
    assume(board_commands())
    command = data.draw(st.sampled_from(board_commands()))
    raw = data.draw(HOSTILE_LINES)
    from_stdin = data.draw(st.booleans())
    board = "-" if from_stdin else raw.decode("utf-8", "replace").replace("\x00", "")
    assume((board.strip() and not board.startswith("-")) or board == "-")
    status, _, err = run([command, board, "--timeout", "5"], stdin=raw)
    assert status in (Exit.OK, Exit.INVALID), err
    assert all(line.startswith("shudu: ") for line in err.splitlines()), err
