"""The `serve` and `bank` commands."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import shudu
from shudu import generator
from shudu.cli import build_parser, main
from shudu.generator import Generated, GeneratorTimeout
from shudu.store import Store


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", ["serve", "bank"])
def test_the_commands_have_help_with_an_example(name: str) -> None:
    help_text = build_parser()._subparsers._group_actions[0].choices[name].format_help()
    assert "example:" in help_text and f"shudu {name}" in help_text


def rows(out: str) -> list[list[str]]:
    return [line.split() for line in out.splitlines()]


def test_a_new_bank_is_empty(tmp_path: Path) -> None:
    status, out, err = run("bank", "show", "--db", str(tmp_path / "bank.sqlite3"))
    assert (status, out, err) == (0, "", "")


def test_bank_fill_adds_generated_puzzles_of_the_kind_asked_and_show_lists_them(tmp_path: Path) -> None:
    db = str(tmp_path / "bank.sqlite3")
    status, out, err = run(
        "bank", "fill", "--size", "6", "--variant", "x", "--level", "easy", "--count", "3", "--db", db
    )
    assert status == 0 and "added 3 new 6x6 x easy puzzles" in err
    assert rows(out) == [["6x6", "x", "easy", "3"]]
    status, out, _ = run("bank", "fill", "--size", "4", "--level", "easy", "--count", "2", "--db", db)
    assert status == 0 and rows(out) == [["4x4", "standard", "easy", "2"], ["6x6", "x", "easy", "3"]]
    assert rows(run("bank", "show", "--db", db)[1]) == rows(out)

    store = Store(db)
    for _ in range(3):
        banked = store.take_from_bank(6, "x", "easy")
        assert banked is not None and banked.source == "generated"
        puzzle = shudu.parse_puzzle(json.dumps(banked.puzzle))
        assert (puzzle.size, puzzle.variant.name) == (6, "x")
        assert shudu.count(puzzle, 2, algorithm="dlx") == 1
        assert shudu.rate(puzzle).level == "easy"
    assert store.take_from_bank(6, "x", "easy") is None  # each puzzle is served once


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--size", "4", "--level", "extreme"], "no 4x4 puzzle is extreme"),
        (["--level", "impossible"], "unknown level 'impossible'"),
        (["--variant", "nope"], "unknown variant 'nope'"),
        (["--size", "6", "--variant", "pyramid"], "pyramid"),
        (["--count", "-1"], "--count must be a whole number from 1 to"),
    ],
)
def test_bank_fill_refuses_a_request_that_cannot_be_met(
    tmp_path: Path, options: list[str], message: str
) -> None:
    status, out, err = run("bank", "fill", *options, "--db", str(tmp_path / "b.db"))
    assert status == 2 and out == ""
    assert err.startswith("shudu: ") and message in err and "Traceback" not in err


def test_bank_fill_keeps_what_it_made_before_its_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = [shudu.generate(size=4, level="easy", seed=seed) for seed in range(2)]

    def two_then_out_of_time(count: int | None, **options: object) -> Iterator[Generated]:
        assert (count, options["size"], options["level"], options["timeout"]) == (5, 4, "easy", 0.5)
        yield from made
        raise GeneratorTimeout("found 2 of 5 × easy 4x4 standard puzzle in 0.5 s", found=tuple(made))

    monkeypatch.setattr(generator, "generate_many", two_then_out_of_time)
    db = str(tmp_path / "b.db")
    status, out, err = run(
        "bank", "fill", "--size", "4", "--level", "easy", "--count", "5", "--timeout", "0.5", "--db", db
    )
    assert status == 2 and "found 2 of 5" in err and "added 2 new 4x4 standard easy puzzles" in err
    assert rows(out) == [["4x4", "standard", "easy", "2"]]


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    status, _, err = run("serve", "--port", "1")
    assert status == 2 and "pip install 'shudu[web]'" in err and "uvicorn" in err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--token", "short"], "--token: the access token must be 8 to 200"),
        (["--token", "has space in it"], "--token: the access token must be 8 to 200"),
        (["--workers", "0"], "--workers must be a whole number from 1 to 64"),
        (["--queue", "-1"], "--queue must be a whole number from 0 to 1000"),
        (["--allowed-host", "example.org:8000"], "--allowed-host: 'example.org:8000' is not a host name"),
        (["--allowed-host", ""], "--allowed-host: '' is not a host name"),
    ],
)
def test_serve_refuses_bad_options_before_it_starts(options: list[str], message: str) -> None:
    status, out, err = run("serve", *options)
    assert status == 2 and out == ""
    assert err.startswith("shudu: ") and message in err and "Traceback" not in err


def test_serve_passes_its_options_to_the_app_and_warns_off_loopback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install 'shudu[web]')")
    import uvicorn

    started: list[tuple[object, str, int]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **_: started.append((app, host, port)))
    db = str(tmp_path / "games.sqlite3")
    status, _, err = run("serve", "--db", db, "--workers", "3", "--queue", "5", "--token", "sesame-1234")
    assert status == 0 and "serving on http://127.0.0.1:8000/" in err and "warning" not in err
    app, host, port = started.pop()
    pool = app.state.api.pool  # type: ignore[attr-defined]
    assert (host, port, pool.size, pool.queue) == ("127.0.0.1", 8000, 3, 5)

    status, _, err = run("serve", "--db", db, "--host", "0.0.0.0", "--port", "8123")
    assert status == 0 and "warning: listening on 0.0.0.0" in err and "--token" in err
    assert started.pop()[1:] == ("0.0.0.0", 8123)
    status, _, err = run("serve", "--db", db, "--host", "::1")
    assert status == 0 and "warning" not in err


def test_serve_answers_only_the_hosts_it_is_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install 'shudu[web]')")
    import uvicorn
    from starlette.testclient import TestClient

    from shudu.web.server import TimedH11Protocol

    started: list[tuple[object, dict[str, object]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.append((app, options)))
    db = str(tmp_path / "games.sqlite3")

    def answers(app: object, host: str) -> int:
        return TestClient(app, base_url=f"http://{host}").get("/api/features").status_code  # type: ignore[arg-type]

    assert run("serve", "--db", db)[0] == 0
    app, options = started.pop()
    assert options["http"] is TimedH11Protocol and options["timeout_keep_alive"] == 5  # slow clients cut off
    assert [answers(app, h) for h in ("127.0.0.1:8000", "localhost:8000", "sudoku.example.org")] == [
        200,
        200,
        400,
    ]
    status, _, _ = run("serve", "--db", db, "--allowed-host", "sudoku.example.org", "--allowed-host", "*.lan")
    app, _ = started.pop()
    assert status == 0 and [answers(app, h) for h in ("sudoku.example.org", "box.lan", "evil.org")] == [
        200,
        200,
        400,
    ]
    assert run("serve", "--db", db, "--host", "0.0.0.0")[0] == 0
    assert answers(started.pop()[0], "192.168.1.4:8000") == 200  # on every address, with no name given: any
