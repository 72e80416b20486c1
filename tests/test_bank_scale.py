"""The bank at scale: ``shudu bank fill --jobs N | --dask``, ``bank export`` and ``bank import``,
with a real SQLite file, real worker processes and a real LocalCluster."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import shudu
from shudu.batch import Job, Spec, read_items, run_job
from shudu.batch.bank import EXPORT_FIELDS, entry_of_record, export, fill, import_records
from shudu.cli import main
from shudu.errors import ShuduError
from shudu.formats import to_json
from shudu.notation import Exit
from shudu.store import BankEntry, Store
from test_batch import MULTIPLE, NONE, RATED

SRC = Path(shudu.__file__).resolve().parents[1]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def solution_of(puzzle: Any, algorithm: str = "auto") -> str:
    solution = shudu.solve(puzzle, algorithm=algorithm).solution
    assert solution is not None
    return solution.to_string()


def kept(store: Store) -> list[tuple[Any, ...]]:
    """What the bank holds of each puzzle, in a comparable form (no ids, times or sources)."""
    return sorted(
        (
            row["size"],
            row["variant"],
            row["level"],
            row["se"],
            row["score"],
            row["hardest"],
            row["givens"],
            row["solution"],
            json.dumps(row["puzzle"], sort_keys=True),
        )
        for row in store.bank_rows()
    )


def check_banked(store: Store, level: str, size: int, variant: str = "standard") -> None:
    """Every puzzle of the bank has one solution, the one stored, and the rating stored."""
    rows = list(store.bank_rows())
    assert rows
    for row in rows:
        puzzle = shudu.parse_puzzle(json.dumps(row["puzzle"]))
        assert (puzzle.size, puzzle.variant.name) == (size, variant)
        assert shudu.count(puzzle, 2, algorithm="dlx") == 1
        assert row["solution"] == solution_of(puzzle, algorithm="dlx")
        rating = shudu.rate(puzzle)
        assert (row["level"], row["se"], row["score"], row["hardest"]) == (
            level,
            rating.se,
            rating.score,
            rating.hardest,
        )


# --- fill ------------------------------------------------------------------------------------


def test_fill_on_two_processes_gives_unique_puzzles_of_the_level_asked(tmp_path: Path) -> None:
    db = str(tmp_path / "bank.sqlite3")
    argv = ["bank", "fill", "--size", "6", "--variant", "x", "--level", "easy", "--count", "6"]
    status, out, err = run(*argv, "--seed", "7", "--jobs", "2", "--db", db)
    assert status == Exit.OK, err
    store = Store(db)
    made = len(list(store.bank_rows()))
    assert f"added {made} new 6x6 x easy puzzles" in err
    assert out.split() == ["6x6", "x", "easy", str(made)]
    check_banked(store, "easy", 6, "x")

    # the same puzzles as a batch generate of the same seeds: puzzle k from seed 7 + k - 1
    records = tmp_path / "g.jsonl"
    spec = Spec("generate", {"size": 6, "variant": "x", "level": "easy", "seed": 7})
    run_job(Job(spec, str(records), "jsonl", timing=False), [(k, 6 + k) for k in range(1, 7)])
    givens = {json.loads(line)["givens"] for line in records.read_text().splitlines()}
    assert {row["givens"] for row in store.bank_rows()} == givens

    # run again: every puzzle is there already, none is added twice
    status, out, err = run(*argv, "--seed", "7", "--jobs", "2", "--db", db)
    assert status == Exit.OK and "added 0 new" in err and f"({made} made were there already)" in err


def test_fill_on_one_process_stores_the_rating_and_the_solution(tmp_path: Path) -> None:
    db = str(tmp_path / "bank.sqlite3")
    status, _, err = run("bank", "fill", "--size", "4", "--level", "easy", "--count", "3", "--db", db)
    assert status == Exit.OK, err
    check_banked(Store(db), "easy", 4)


def test_a_fill_request_that_cannot_be_met_fails_before_any_worker_starts(tmp_path: Path) -> None:
    db = tmp_path / "bank.sqlite3"
    status, out, err = run(
        "bank", "fill", "--size", "4", "--level", "extreme", "--jobs", "2", "--db", str(db)
    )
    assert (status, out) == (Exit.INVALID, "")
    assert "no 4x4 puzzle is extreme" in err and "Traceback" not in err


def test_a_fill_past_its_timeout_keeps_what_it_stored(tmp_path: Path) -> None:
    store = Store(tmp_path / "bank.sqlite3")
    spec = Spec("generate", {"size": 4, "level": "easy", "seed": 1})
    # a deadline already passed: nothing is sent, nothing stored, and the fill says so
    filled = fill(store, spec, 5, timeout=1e-9)
    assert filled.out_of_time and filled.made == 0 and list(store.bank_rows()) == []
    filled = fill(store, spec, 3, timeout=60.0)
    assert not filled.out_of_time and filled.made == 3


def test_a_parallel_fill_stops_at_its_timeout_and_keeps_what_it_made(tmp_path: Path) -> None:
    db = str(tmp_path / "bank.sqlite3")
    argv = ["bank", "fill", "--level", "hard", "--count", "100000", "--jobs", "2", "--timeout", "1"]
    status, out, err = run(*argv, "--db", db)
    assert status == Exit.INVALID and "Traceback" not in err
    assert "--timeout 1 s ran out: made " in err and " of 100000 9x9 standard hard" in err
    made = int(err.split("ran out: made ")[1].split()[0])
    assert made < 100000
    rows = list(Store(db).bank_rows())
    assert len(rows) <= made and all(row["level"] == "hard" for row in rows)
    assert f"added {len(rows)} new 9x9 standard hard puzzles" in err
    assert out.split() == (["9x9", "standard", "hard", str(len(rows))] if rows else [])


KILLED_FILL = """
import sys
from shudu.batch import Spec
from shudu.batch.bank import fill
from shudu.store import Store
fill(Store(sys.argv[1]), Spec("generate", {"size": 4, "level": "easy", "seed": 0}), 100000, chunk=1)
"""


def test_a_fill_killed_at_random_moments_leaves_only_whole_rows(tmp_path: Path) -> None:
    db = tmp_path / "bank.sqlite3"
    Store(db)
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    seen = 0
    for wait in (0.3, 0.05, 0.17):  # several kills, each at a moment of the writes
        child = subprocess.Popen([sys.executable, "-c", KILLED_FILL, str(db)], env=env)
        try:
            deadline = time.monotonic() + 60
            while _rows(db) <= seen and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(wait)
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        now = _rows(db)
        assert now > seen
        seen = now
    store = Store(db)
    for row in store.bank_rows():  # every row whole: a puzzle, its level, rating and solution
        assert row["level"] == "easy" and row["se"] is not None and row["score"] is not None
        puzzle = shudu.parse_puzzle(json.dumps(row["puzzle"]))
        assert solution_of(puzzle) == row["solution"]


def _rows(db: Path) -> int:
    with sqlite3.connect(db, timeout=10) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM bank").fetchone()[0])


# --- export and import -----------------------------------------------------------------------


@pytest.fixture
def bank(tmp_path: Path) -> Store:
    """A bank of several sizes and variants, a jigsaw layout included, one puzzle served."""
    store = Store(tmp_path / "source.sqlite3")
    entries = []
    for size, variant, level in (
        (4, None, "easy"),
        (6, "x", "easy"),
        (6, "jigsaw", "easy"),
        (9, None, "medium"),
    ):
        for seed in range(2):
            made = shudu.generate(size, variant=variant, level=level, seed=seed, rate=True)
            entries.append(
                BankEntry(
                    to_json(made.puzzle),
                    str(made.level),
                    se=made.se,
                    score=made.score,
                    hardest=made.hardest,
                    solution=made.solution.to_string(),
                )
            )
    for seed in range(2):  # killers: no givens, their cages in the puzzle's JSON form
        made = shudu.generate(4, rules="killer", level="easy", seed=seed)
        solution = made.solution.to_string()
        entries.append(BankEntry(to_json(made.puzzle), "easy", solution=solution, rule_set="killer"))
    store.add_to_bank(entries, source="generated")
    store.add_to_bank([(to_json(shudu.parse_puzzle(RATED[0])), "medium")], source="generated")
    assert store.take_from_bank(4, "standard") is not None
    return store


@pytest.mark.parametrize("name", ["bank.parquet", "bank.jsonl", "bank.csv", "parts/"])
def test_export_then_import_keeps_every_puzzle(bank: Store, tmp_path: Path, name: str) -> None:
    if name.endswith(("parquet", "/")):
        pytest.importorskip("pyarrow", reason="Parquet needs pyarrow")
    path = f"{tmp_path}/{name}"
    status, out, err = run("bank", "export", "-o", path, "--db", str(bank.path))
    rows = list(bank.bank_rows())
    assert (status, out) == (Exit.OK, "") and f"wrote {len(rows)} puzzles" in err
    other = tmp_path / "other.sqlite3"
    status, out, err = run("bank", "import", path, "--db", str(other))
    assert status == Exit.OK, err
    assert f"added {len(rows)} new puzzles" in err
    copied = Store(other)
    # the puzzle banked without a rating gets its solution on the way (the rating stays unknown)
    unrated = RATED[0]
    solution = solution_of(unrated)
    expected = [(*row[:7], solution, *row[8:]) if row[6] == unrated else row for row in kept(bank)]
    assert kept(copied) == sorted(expected)
    assert {row["source"] for row in copied.bank_rows()} == {"imported"}
    # imported again: nothing is added twice
    status, _, err = run("bank", "import", path, "--db", str(other))
    assert status == Exit.OK and "added 0 new puzzles" in err and f"({len(rows)} were there already)" in err
    assert len(list(copied.bank_rows())) == len(rows)


def test_an_export_has_every_field_and_every_puzzle_served_or_not(bank: Store, tmp_path: Path) -> None:
    path = tmp_path / "bank.jsonl"
    assert export(bank, str(path)) == len(list(bank.bank_rows())) > 5
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert all(list(record) == list(EXPORT_FIELDS) for record in records)
    assert sum(record["served"] for record in records) == 1
    for record in records:
        puzzle = shudu.parse_puzzle(record["puzzle"])
        # a puzzle with rules is of its rule set's kind (the fixture's: killer)
        kind = "killer" if puzzle.variant.rules else puzzle.variant.name
        assert (puzzle.size, kind, puzzle.to_string()) == (
            record["size"],
            record["variant"],
            record["givens"],
        )
        assert record["clues"] == puzzle.clues


def test_a_rated_batch_output_fills_the_bank(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text("\n".join([*RATED, "not a puzzle", RATED[0]]) + "\n")
    ratings = tmp_path / "ratings.jsonl"
    options = {"timeout": 60.0, "node_limit": None, "box": None, "variant": None, "allow_multiple": False}
    run_job(Job(Spec("rate", options), str(ratings), "jsonl"), read_items(str(source)))
    db = str(tmp_path / "bank.sqlite3")
    status, out, err = run("bank", "import", str(ratings), "--db", db)
    assert status == Exit.OK, err
    assert f"added {len(RATED)} new puzzles" in err and "(1 were there already)" in err
    assert "skipped 1 records with no puzzle for the bank (invalid 1)" in err
    stored = {row["givens"]: row for row in Store(db).bank_rows()}
    assert set(stored) == set(RATED)
    for text, row in stored.items():
        rating = shudu.rate(text)
        assert (row["level"], row["se"], row["score"], row["hardest"]) == (
            rating.level,
            rating.se,
            rating.score,
            rating.hardest,
        )
    counts = {(line.split()[2], int(line.split()[3])) for line in out.splitlines()}
    assert sum(n for _, n in counts) == len(RATED)


def test_a_batch_generate_output_of_a_variant_keeps_its_variant(tmp_path: Path) -> None:
    made = tmp_path / "made.csv"
    spec = Spec("generate", {"size": 6, "variant": "jigsaw", "level": "easy", "seed": 3})
    run_job(Job(spec, str(made), "csv"), [(1, 3), (2, 4)])
    db = str(tmp_path / "bank.sqlite3")
    status, _, err = run("bank", "import", str(made), "--db", db)
    assert status == Exit.OK and "added 2 new puzzles" in err
    for seed, row in zip((3, 4), Store(db).bank_rows(), strict=True):
        expected = shudu.generate(6, variant="jigsaw", level="easy", seed=seed)
        assert row["puzzle"] == to_json(expected.puzzle)
        assert row["solution"] == expected.solution.to_string()


def test_puzzles_in_line_form_take_the_variant_of_the_job(tmp_path: Path) -> None:
    made = shudu.generate(6, variant="x", level="easy", seed=2, rate=True)
    path = tmp_path / "r.jsonl"
    path.write_text(
        json.dumps({"puzzle": made.puzzle.to_string(), "status": "unique", "level": "easy"}) + "\n"
    )
    db = str(tmp_path / "bank.sqlite3")
    assert run("bank", "import", str(path), "--variant", "x", "--db", db)[0] == Exit.OK
    (row,) = Store(db).bank_rows()
    assert (row["variant"], row["puzzle"]) == ("x", to_json(made.puzzle))


def test_bad_records_are_reported_by_line_and_the_rest_imported(tmp_path: Path) -> None:
    good = {"puzzle": RATED[1], "status": "unique", "level": "hard", "se": 4.2}
    lines = [
        json.dumps(good).encode(),
        b"not json",
        b"[1, 2]",
        b"\xff\xfe{}",
        json.dumps({**good, "puzzle": "1.."}).encode(),
        json.dumps({**good, "puzzle": MULTIPLE}).encode(),
        json.dumps({**good, "level": "legendary"}).encode(),
        json.dumps({**good, "se": "high"}).encode(),
        json.dumps({**good, "level": None}).encode(),
        json.dumps({**good, "solution": "1" * 81}).encode(),
        json.dumps({"status": "unique", "level": "easy"}).encode(),
        b"",
        json.dumps({**good, "status": "timeout"}).encode(),
        json.dumps({**good, "puzzle": RATED[2], "score": 900}).encode(),
    ]
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    db = str(tmp_path / "bank.sqlite3")
    status, _, err = run("bank", "import", str(path), "--db", db)
    assert status == Exit.INVALID and "Traceback" not in err
    problems = [line for line in err.splitlines() if f"{path} line" in line]
    assert [line.split(" line ")[1].split(":")[0] for line in problems] == [str(n) for n in range(2, 12)]
    for needle in (
        "line 2: not JSON",
        "line 3: not a JSON object",
        "line 4: not UTF-8",
        "line 5: the puzzle has 3 cells",
        "line 6: the puzzle has several solutions",
        "line 7: level 'legendary' is not one of easy, medium, hard, unfair, extreme",
        "line 8: se must be a number, not 'high'",
        "line 9: no level",
        "line 10: the solution given is not the puzzle's solution",
        "line 11: no puzzle",
    ):
        assert needle in err, needle
    assert "skipped 1 records with no puzzle for the bank (timeout 1)" in err
    assert "added 2 new puzzles" in err
    assert {row["givens"] for row in Store(db).bank_rows()} == {RATED[1], RATED[2]}


def test_a_bad_csv_row_is_reported_by_its_line(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text(
        f"puzzle,status,level,score\n{RATED[1]},unique,hard,12\n{RATED[2]},unique\n{RATED[3]},unique,hard,x\n"
    )
    db = str(tmp_path / "bank.sqlite3")
    status, _, err = run("bank", "import", str(path), "--db", db)
    assert status == Exit.INVALID
    assert f"{path} line 3: 4 columns expected" in err and f"{path} line 4: score must be a" in err
    assert [row["givens"] for row in Store(db).bank_rows()] == [RATED[1]]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["import"], "bank import needs the FILE"),
        (["import", "missing.jsonl"], "cannot read missing.jsonl: no such file"),
        (["import", "{tmp}/r.txt"], "a batch output ends in .jsonl, .csv or .parquet"),
        (["import", "{tmp}/bad.parquet"], "as Parquet"),
        (["export"], "bank export needs -o FILE"),
        (["export", "-o", "bank.xlsx"], "-o must end in .jsonl, .csv or .parquet"),
        (["show", "-o", "x.jsonl"], "-o is for bank export"),
        (["show", "x.jsonl"], "bank show takes no FILE"),
        (["show", "--jobs", "2"], "--jobs and --dask are for bank fill"),
        (["show", "--rules", "killer"], "--rules and --cages are for bank fill"),
        (["fill", "--rules", "renban"], "does not make 'renban' puzzles"),
        (["fill", "--cages", "2-3", "--jobs", "2"], 'give rules="killer" too'),
        (["fill", "--rules", "killer", "--variant", "x"], "standard grid only"),
    ],
)
def test_bad_bank_commands_fail_cleanly(tmp_path: Path, argv: list[str], message: str) -> None:
    pytest.importorskip("pyarrow", reason="Parquet needs pyarrow")
    (tmp_path / "r.txt").write_text(RATED[0] + "\n")
    (tmp_path / "bad.parquet").write_bytes(b"not parquet at all")
    db = tmp_path / "bank.sqlite3"
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    status, out, err = run("bank", *argv, "--db", str(db))
    assert (status, out) == (Exit.INVALID, "")
    assert err.startswith("shudu: ") and message in err and "Traceback" not in err


def test_entry_of_record_checks_the_puzzle_itself() -> None:
    entry = entry_of_record({"puzzle": RATED[0], "level": "medium", "score": "418", "se": "2.0"})
    assert (entry.level, entry.score, entry.se) == ("medium", 418, 2.0)
    assert entry.solution == solution_of(RATED[0])
    with pytest.raises(ShuduError, match="score must be a whole number from 0"):
        entry_of_record({"puzzle": RATED[0], "level": "medium", "score": -1})
    with pytest.raises(ShuduError, match="the puzzle has no solution"):
        entry_of_record({"puzzle": NONE, "level": "medium"})
    with pytest.raises(ShuduError, match="with one solution"):
        entry_of_record({"puzzle": MULTIPLE, "level": "medium"})


def test_import_records_counts_what_it_did(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    records = [{"puzzle": p, "status": "unique", "level": "easy"} for p in (RATED[0], RATED[1], RATED[0])]
    path.write_text("".join(json.dumps(r) + "\n" for r in [*records, {"status": "none"}]))
    done = import_records(Store(tmp_path / "bank.sqlite3"), str(path))
    assert (done.read, done.banked, done.new, done.again, done.bad) == (4, 3, 2, 1, 0)
    assert dict(done.skipped) == {"none": 1}


# --- a Dask cluster --------------------------------------------------------------------------


def test_fill_on_a_local_cluster_gives_the_same_bank_as_one_process(tmp_path: Path) -> None:
    """Two workers, one killed mid-fill: the bank is the one a single process fills."""
    distributed = pytest.importorskip("distributed", reason="the Dask tests need dask[distributed]")
    spec = Spec("generate", {"size": 6, "variant": "x", "level": "easy", "seed": 11})
    alone = Store(tmp_path / "alone.sqlite3")
    fill(alone, spec, 8)
    spread = Store(tmp_path / "spread.sqlite3")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        with distributed.Client(cluster.scheduler_address) as client:
            pids = client.run(os.getpid)
        assert len(pids) == 2
        killed: list[int] = []

        def kill_one(number: int) -> None:
            if not killed:
                os.kill(min(pids.values()), signal.SIGKILL)
                killed.append(number)

        filled = fill(spread, spec, 8, dask=cluster.scheduler_address, chunk=1, on_chunk=kill_one)
        assert killed and filled.made == 8 and not filled.out_of_time
        assert kept(spread) == kept(alone)

        # the command line takes the same path: nothing new, every puzzle there already
        db = str(spread.path)
        argv = ["bank", "fill", "--size", "6", "--variant", "x", "--level", "easy", "--count", "8"]
        status, _, err = run(*argv, "--seed", "11", "--dask", cluster.scheduler_address, "--db", db)
    assert status == Exit.OK and "added 0 new 6x6 x easy puzzles" in err, err
    check_banked(spread, "easy", 6, "x")


# --- puzzles with rules ---------------------------------------------------------------------------


def check_rule_puzzles(store: Store, rules: str, level: str, size: int) -> list[dict[str, Any]]:
    """Every puzzle in the bank is of the rule set asked, its rules and givens read back as a
    puzzle with one solution, the solution stored, rated at the level asked, as the bank says."""
    rows = list(store.bank_rows())
    assert rows
    for row in rows:
        assert (row["size"], row["variant"], row["level"]) == (size, rules, level)
        puzzle = shudu.formats.parse_json(row["puzzle"])
        assert puzzle.variant.rules
        assert shudu.count(puzzle, 2) == 1
        assert solution_of(puzzle) == row["solution"]
        assert shudu.rate(puzzle, timeout=60).level == level
    return rows


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_fill_with_rules_keeps_them(tmp_path: Path, jobs: str) -> None:
    db = str(tmp_path / "bank.sqlite3")
    argv = ["bank", "fill", "--size", "4", "--rules", "killer", "--level", "easy", "--count", "4"]
    status, out, err = run(*argv, "--seed", "3", "--jobs", jobs, "--db", db)
    assert status == Exit.OK, err
    store = Store(db)
    rows = check_rule_puzzles(store, "killer", "easy", 4)
    # killers with no givens: every one has the same givens, and their cages tell them apart
    assert {row["givens"] for row in rows} == {"." * 16}
    assert f"added {len(rows)} new 4x4 killer easy puzzles" in err
    assert out.split() == ["4x4", "killer", "easy", str(len(rows))]
    # the same puzzles as the generator makes: the bank gives back the puzzle with its rules
    seeds = range(3, 7) if jobs == "2" else None
    if seeds is not None:
        made = [shudu.generate(4, rules="killer", level="easy", seed=seed) for seed in seeds]
        assert sorted(json.dumps(to_json(m.puzzle), sort_keys=True) for m in made) == sorted(
            json.dumps(to_json(shudu.formats.parse_json(row["puzzle"])), sort_keys=True) for row in rows
        )
    # a classic puzzle of the same size is no killer: each kind is taken on its own
    assert store.take_from_bank(4, "standard", "easy") is None
    taken = store.take_from_bank(4, "killer", "easy")
    assert taken is not None and taken.puzzle["rules"]
    # run again: every puzzle is there already
    status, _, err = run(*argv, "--seed", "3", "--jobs", jobs, "--db", db)
    assert status == Exit.OK and "added 0 new" in err


@pytest.mark.parametrize(("rules", "level"), [("sandwich", "hard"), ("thermo", "easy"), ("mixed", "easy")])
def test_fill_with_each_kind_of_rules(tmp_path: Path, rules: str, level: str) -> None:
    db = str(tmp_path / "bank.sqlite3")
    argv = ["bank", "fill", "--size", "6", "--rules", rules, "--level", level, "--count", "2"]
    status, _, err = run(*argv, "--seed", "1", "--db", db, "--timeout", "120")
    assert status == Exit.OK, err
    check_rule_puzzles(Store(db), rules, level, 6)
    assert "4x4" not in err and f"6x6 {rules} {level}" in err


def test_a_fill_with_rules_past_its_timeout_says_timeout(tmp_path: Path) -> None:
    db = str(tmp_path / "bank.sqlite3")
    argv = ["bank", "fill", "--rules", "sandwich", "--level", "unfair", "--count", "50", "--jobs", "2"]
    status, _, err = run(*argv, "--timeout", "1", "--seed", "1", "--db", db)
    assert status == Exit.INVALID and "Traceback" not in err
    assert "--timeout 1 s ran out: made " in err and " of 50 9x9 sandwich unfair" in err


def test_two_killers_with_the_same_givens_are_two_puzzles(tmp_path: Path) -> None:
    store = Store(tmp_path / "bank.sqlite3")
    made = [shudu.generate(4, rules="killer", seed=seed) for seed in (1, 2)]
    entries = [BankEntry(to_json(m.puzzle), "easy", rule_set="killer") for m in made]
    assert store.add_to_bank(entries, source="generated") == 2
    assert store.add_to_bank(entries[:1], source="generated") == 0
    # a puzzle with rules banked without its rule set's name counts as "rules"
    assert store.add_to_bank([BankEntry(to_json(made[0].puzzle), "easy")], source="imported") == 1
    assert {(row["variant"], row["givens"]) for row in store.bank_rows()} == {
        ("killer", "." * 16),
        ("rules", "." * 16),
    }
