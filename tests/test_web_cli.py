"""The `serve` and `bank` commands."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

import shudu
from shudu.cli import build_parser, main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", ["serve", "bank"])
def test_the_commands_have_help_with_an_example(name: str) -> None:
    help_text = build_parser()._subparsers._group_actions[0].choices[name].format_help()
    assert "example:" in help_text and f"shudu {name}" in help_text


def test_bank_show_lists_the_shipped_puzzles(tmp_path: Path) -> None:
    status, out, _ = run("bank", "show", "--db", str(tmp_path / "bank.sqlite3"))
    assert status == 0
    rows = [line.split() for line in out.splitlines()]
    assert ["9x9", "pyramid", "hard", "3"] in rows and ["6x6", "standard", "easy", "4"] in rows


def test_bank_fill_without_a_generator_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(shudu, "generate", raising=False)
    status, out, err = run(
        "bank", "fill", "--level", "hard", "--count", "100", "--db", str(tmp_path / "b.db")
    )
    assert status == 2 and out == ""
    assert "no puzzle generator (shudu.generate) yet" in err


def test_bank_fill_calls_the_generator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = iter(["1.....2..3.....4", "12..............", "..............12"])
    calls = []

    def generate(*, size: int, variant: str, level: str) -> shudu.Puzzle:
        calls.append((size, variant, level))
        return shudu.Puzzle(next(made))

    monkeypatch.setattr(shudu, "generate", generate, raising=False)
    db = str(tmp_path / "b.db")
    status, out, err = run("bank", "fill", "--size", "4", "--level", "hard", "--count", "3", "--db", db)
    assert status == 0 and calls == [(4, "standard", "hard")] * 3
    assert "added 3 new 4x4 standard hard puzzles" in err
    assert ["4x4", "standard", "hard", "3"] in [line.split() for line in out.splitlines()]


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    status, _, err = run("serve", "--port", "1")
    assert status == 2 and "pip install 'shudu[web]'" in err and "uvicorn" in err
