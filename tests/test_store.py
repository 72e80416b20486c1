"""The SQLite store: saved games, the puzzle bank, migrations, and durability."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from shudu.errors import StoreError
from shudu.store import (
    MAX_HISTORY,
    MIGRATIONS,
    SCHEMA_VERSION,
    BankEntry,
    Game,
    MissingGame,
    StaleGame,
    Store,
)
from shudu.store import schema as store_module

PUZZLE = {"size": 4, "givens": "1.....2..3.....4"}
PYRAMID = {
    "size": 9,
    "variant": "pyramid",
    "givens": "...8..7....1.42....65...1...49.......8.6........9...6.......4.......15..1........",
}


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "games.sqlite3")


def test_a_new_file_gets_the_latest_schema_and_reopening_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "shudu.sqlite3"
    assert Store(path).version == SCHEMA_VERSION
    assert Store(path).version == SCHEMA_VERSION
    with sqlite3.connect(path) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {"games", "bank", "meta"} <= tables


def test_migrations_run_in_order_from_an_older_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.sqlite3"
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:1])
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 1)
    old = Store(path)
    with old._write() as conn:  # a game as schema 1 stored it
        conn.execute(
            "INSERT INTO games (puzzle, size, variant, entries, corner, centre, history, created, updated)"
            " VALUES (?, 4, 'standard', ?, ?, ?, ?, 1.0, 1.0)",
            (
                json.dumps(PUZZLE),
                json.dumps([0] * 16),
                json.dumps([[]] * 16),
                json.dumps([[]] * 16),
                json.dumps({"undo": [], "redo": []}),
            ),
        )
    extra = "ALTER TABLE games ADD COLUMN note TEXT; CREATE INDEX games_note ON games (note)"
    monkeypatch.setattr(store_module, "MIGRATIONS", (*MIGRATIONS, extra))
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", len(MIGRATIONS) + 1)
    upgraded = Store(path)
    assert upgraded.version == len(MIGRATIONS) + 1
    assert upgraded.game(1).puzzle == PUZZLE  # the saved game came through the migration
    with sqlite3.connect(path) as conn:
        assert "note" in {row[1] for row in conn.execute("PRAGMA table_info(games)")}


def test_a_failing_migration_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "half.sqlite3"
    Store(path)
    broken = "CREATE TABLE fine (x INTEGER); CREATE TABLE games (oops INTEGER)"
    monkeypatch.setattr(store_module, "MIGRATIONS", (*store_module.MIGRATIONS, broken))
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(StoreError, match="cannot open"):
        Store(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'fine'").fetchone()[0] == 0


def test_a_file_from_a_newer_shudu_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 5}, newer"):
        Store(path)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are not the tables you are looking for\n" * 100)
    with pytest.raises(StoreError, match=r"notes\.txt"):
        Store(path)


def test_the_default_path_is_under_the_user_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert store_module.default_path() == tmp_path / "shudu" / "shudu.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert store_module.default_path() == Path.home() / ".local" / "share" / "shudu" / "shudu.sqlite3"


def test_a_game_saves_loads_updates_and_deletes(store: Store) -> None:
    game = store.save_game(Game.new(PYRAMID, level="hard"))
    assert game.id == 1 and game.created > 0
    game.entries[0] = 5
    game.corner[1] = [1, 2]
    game.centre[2] = [3, 4]
    game.history["undo"].append([{"cell": 0, "before": {"v": 0}, "after": {"v": 5}}])
    game.elapsed_ms = 61_000
    store.save_game(game)
    loaded = store.game(1)
    assert loaded.entries[0] == 5 and loaded.corner[1] == [1, 2] and loaded.centre[2] == [3, 4]
    assert loaded.history == game.history
    assert (loaded.elapsed_ms, loaded.level, loaded.variant, loaded.size) == (61_000, "hard", "pyramid", 9)
    assert loaded.summary()["filled"] == sum(1 for c in PYRAMID["givens"] if c != ".") + 1
    store.delete_game(1)
    with pytest.raises(StoreError, match="no saved game 1"):
        store.game(1)
    with pytest.raises(StoreError, match="no saved game 1"):
        store.delete_game(1)


def test_games_list_most_recently_played_first(store: Store) -> None:
    first = store.save_game(Game.new(PUZZLE))
    store.save_game(Game.new(PYRAMID))
    store.save_game(first)  # played again
    assert [g.id for g in store.games()] == [1, 2]


def test_saving_a_game_that_was_deleted_fails_and_creates_nothing(store: Store) -> None:
    game = store.save_game(Game.new(PUZZLE))
    store.delete_game(game.id)
    with pytest.raises(MissingGame, match="no saved game"):
        store.save_game(game)
    assert store.games() == []


def test_a_save_based_on_an_old_version_is_refused_and_changes_nothing(store: Store) -> None:
    game = store.save_game(Game.new(PUZZLE))
    assert game.version == 1
    page_a, page_b = store.game(game.id), store.game(game.id)  # two pages open the same game
    page_a.entries[1] = 3
    assert store.save_game(page_a).version == 2
    page_b.entries[2] = 4
    with pytest.raises(StaleGame, match="reload") as stale:
        store.save_game(page_b)
    assert stale.value.version == 2
    kept = store.game(game.id)
    assert (kept.entries[1], kept.entries[2], kept.version) == (3, 0, 2)
    page_b = store.game(game.id)  # reloaded: now based on the latest
    page_b.entries[2] = 4
    assert store.save_game(page_b).version == 3
    assert store.game(game.id).entries[1:3] == [3, 4]


def test_ids_are_never_reused_even_after_the_newest_game_is_deleted(store: Store) -> None:
    first = store.save_game(Game.new(PUZZLE))
    store.delete_game(first.id)
    second = store.save_game(Game.new(PUZZLE))
    assert second.id != first.id
    with pytest.raises(MissingGame):
        store.save_game(first)  # a page still on the deleted game writes into nothing


def test_a_players_games_are_invisible_to_another_player(store: Store) -> None:
    mine = store.save_game(Game.new(PUZZLE, player="alice"))
    store.save_game(Game.new(PYRAMID, player="bob"))
    assert [g.id for g in store.games("alice")] == [mine.id]
    assert store.games() == []
    with pytest.raises(MissingGame):
        store.game(mine.id, "bob")
    with pytest.raises(MissingGame):
        store.delete_game(mine.id, "bob")
    taken = store.game(mine.id, "alice")
    taken.player = "bob"  # a save under another key changes nothing
    with pytest.raises(MissingGame):
        store.save_game(taken)
    assert store.game(mine.id, "alice").version == 1


def test_games_from_before_players_keep_their_ids_and_go_to_the_first_claimant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "v2.sqlite3"
    with monkeypatch.context() as patch:
        patch.setattr(store_module, "MIGRATIONS", MIGRATIONS[:2])
        patch.setattr(store_module, "SCHEMA_VERSION", 2)
        with Store(path)._write() as conn:
            for game_id in (4, 9):
                conn.execute(
                    "INSERT INTO games (id, puzzle, size, variant, entries, corner, centre, history,"
                    " created, updated) VALUES (?, ?, 4, 'standard', ?, ?, ?, ?, 1.0, 1.0)",
                    (
                        game_id,
                        json.dumps(PUZZLE),
                        json.dumps([0] * 16),
                        json.dumps([[]] * 16),
                        json.dumps([[]] * 16),
                        json.dumps({"undo": [], "redo": []}),
                    ),
                )
    store = Store(path)
    assert sorted(g.id for g in store.games()) == [4, 9]
    assert store.claim_unowned("alice") == 2 and store.claim_unowned("bob") == 0
    assert sorted(g.id for g in store.games("alice")) == [4, 9]
    assert store.save_game(Game.new(PUZZLE, player="alice")).id == 10


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda g: g.entries.pop(), "entries has 15 cells; a 4x4 game needs 16"),
        (lambda g: g.entries.__setitem__(3, 5), "entry 3 is 5; a 4x4 game takes 0"),
        (lambda g: g.entries.__setitem__(3, True), "entry 3 is True"),
        (lambda g: g.corner.__setitem__(2, [0]), "corner marks of cell 2 must be a list of digits 1-4"),
        (lambda g: g.centre.pop(), "centre marks list 15 cells"),
        (lambda g: g.history.pop("redo"), "history must be"),
        (lambda g: g.history["undo"].extend([{}] * (MAX_HISTORY + 1)), "at most 5000"),
        (lambda g: setattr(g, "elapsed_ms", -1), "elapsed_ms must be"),
        (lambda g: setattr(g, "elapsed_ms", 2**63), "elapsed_ms must be"),
    ],
)
def test_a_malformed_game_is_refused_with_a_precise_message(store: Store, change, message: str) -> None:
    game = Game.new(PUZZLE)
    change(game)
    with pytest.raises(StoreError, match=message):
        store.save_game(game)
    assert store.games() == []


def test_a_failed_write_is_rolled_back(store: Store) -> None:
    with pytest.raises(RuntimeError), store._write() as conn:
        conn.execute("INSERT INTO meta (key, value) VALUES ('half', 'done')")
        raise RuntimeError("power cut")
    assert store.get_meta("half") is None


def test_the_bank_skips_duplicates_and_serves_each_puzzle_once(store: Store) -> None:
    a = {"size": 4, "givens": "1.....2..3.....4"}
    b = {"size": 4, "givens": "12..............", "box": [2, 2]}
    assert store.add_to_bank([(a, "easy"), (b, "easy"), (a, "easy")], source="test") == 2
    assert store.add_to_bank([(a, "easy")], source="test") == 0
    assert store.bank_counts() == [{"size": 4, "variant": "standard", "level": "easy", "puzzles": 2}]
    assert store.take_from_bank(4, "standard", "hard") is None
    assert store.take_from_bank(9, "standard") is None
    taken = [store.take_from_bank(4, "standard", "easy"), store.take_from_bank(4, "standard")]  # any level
    assert sorted(t.puzzle["givens"] for t in taken if t) == sorted([a["givens"], b["givens"]])
    assert store.take_from_bank(4, "standard", "easy") is None  # used up
    assert store.bank_counts() == []
    assert store.add_to_bank([(a, "easy")], source="test") == 0  # a served puzzle never comes back


def test_the_puzzles_shipped_before_the_generator_leave_the_bank(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "v1.sqlite3"
    with monkeypatch.context() as patch:
        patch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:1])
        patch.setattr(store_module, "SCHEMA_VERSION", 1)
        old = Store(path)
        with old._write() as conn:  # the bank as schema 1 stored it
            for puzzle, source in ((PUZZLE, "shipped"), (PYRAMID, "generated")):
                conn.execute(
                    "INSERT INTO bank (size, variant, level, givens, puzzle, source, added)"
                    " VALUES (?, ?, 'hard', ?, ?, ?, 1.0)",
                    (
                        puzzle["size"],
                        puzzle.get("variant", "standard"),
                        puzzle["givens"],
                        json.dumps(puzzle),
                        source,
                    ),
                )
        old.set_meta("shipped-puzzles", "0.1.0")
    store = Store(path)
    assert store.version == SCHEMA_VERSION
    assert store.bank_counts() == [{"size": 9, "variant": "pyramid", "level": "hard", "puzzles": 1}]
    assert store.get_meta("shipped-puzzles") is None
    # the puzzle kept has no rating or solution recorded: they were not stored before
    (row,) = store.bank_rows()
    assert (row["puzzle"], row["se"], row["score"], row["hardest"], row["solution"]) == (
        PYRAMID,
        None,
        None,
        None,
        None,
    )


def test_the_bank_keeps_a_puzzles_rating_and_solution(store: Store) -> None:
    solution = "1234341221434321"
    entry = BankEntry(
        {"size": 4, "givens": "1.....2..3.....4"},
        "easy",
        se=1.2,
        score=48,
        hardest="Naked single",
        solution=solution,
    )
    assert store.add_to_bank([entry, (PYRAMID, "hard")], source="generated") == 2
    assert store.add_to_bank([entry], source="imported") == 0
    rows = list(store.bank_rows(batch=1))
    assert [(r["level"], r["se"], r["score"], r["hardest"], r["solution"], r["source"]) for r in rows] == [
        ("easy", 1.2, 48, "Naked single", solution, "generated"),
        ("hard", None, None, None, None, "generated"),
    ]
    assert [r["puzzle"] for r in rows] == [entry.puzzle, PYRAMID]
    assert store.take_from_bank(4, "standard") is not None
    assert [r["served"] for r in store.bank_rows()] == [1, 0]  # served puzzles are still listed


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"level": ""}, "needs a level"),
        ({"se": float("nan")}, "se must be a rating from 0 to 100"),
        ({"se": True}, "se must be a rating"),
        ({"score": -3}, "score must be a whole number from 0"),
        ({"solution": "12"}, "the solution has 2 cells; the givens have 16"),
        ({"puzzle": {"size": 4}}, "needs its givens"),
        ({"puzzle": {"size": "4", "givens": "." * 16}}, "needs a size"),
    ],
)
def test_a_malformed_bank_entry_is_refused_and_nothing_is_added(
    store: Store, change: dict[str, object], message: str
) -> None:
    fields: dict[str, object] = {"puzzle": PUZZLE, "level": "easy", **change}
    with pytest.raises(StoreError, match=message):
        store.add_to_bank([(PYRAMID, "hard"), BankEntry(**fields)], source="generated")  # type: ignore[arg-type]
    assert list(store.bank_rows()) == []


WRITER = textwrap.dedent(
    """
    import sys
    from shudu.store import Game, Store
    store = Store(sys.argv[1])
    game = store.save_game(Game.new({"size": 9, "givens": "." * 81}))
    n = 0
    while True:
        n += 1
        game.entries = [(n + i) % 10 for i in range(81)]
        game.history = {"undo": [{"n": n, "pad": "x" * 2000}] * 20, "redo": []}
        game.elapsed_ms = n
        store.save_game(game)
        print(n, flush=True)
    """
)


def test_a_kill_during_writes_leaves_the_last_saved_game_intact(tmp_path: Path) -> None:
    path = tmp_path / "killed.sqlite3"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        saved = [int(writer.stdout.readline()) for _ in range(30)]
    finally:
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
    store = Store(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    game = store.game(1)
    n = game.elapsed_ms
    assert n >= saved[-1]  # every save reported done is there; a later one may be too
    assert game.entries == [(n + i) % 10 for i in range(81)]  # and it is whole, not half of two saves
    assert game.history["undo"][0]["n"] == n


def test_bank_puzzles_with_rules_get_their_own_kind_when_the_schema_moves_to_5(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.sqlite3"
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:4])
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 4)
    cage = {"rule": "cage", "cells": ["r1c1", "r1c2"], "total": 3}
    killer = {"size": 4, "box": [2, 2], "rules": [cage], "givens": "." * 16}
    with Store(path)._write() as conn:  # as schema 4 stored them: a killer counted as standard
        for puzzle in (PUZZLE, killer):
            conn.execute(
                "INSERT INTO bank (size, variant, level, givens, puzzle, source, added)"
                " VALUES (4, 'standard', 'easy', ?, ?, 'imported', 1.0)",
                (puzzle["givens"], json.dumps(puzzle)),
            )
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS)
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", len(MIGRATIONS))
    store = Store(path)
    rows = {row["variant"]: row for row in store.bank_rows()}
    assert set(rows) == {"standard", "rules"}
    assert rows["rules"]["puzzle"] == killer and rows["standard"]["puzzle"] == PUZZLE
    with sqlite3.connect(path) as conn:
        kept = dict(conn.execute("SELECT variant, rules FROM bank").fetchall())
    assert kept == {"standard": "", "rules": json.dumps([cage], separators=(",", ":"))}
    # another killer with the same givens is a new puzzle
    other = {**killer, "rules": [{**cage, "cells": ["r1c1", "r2c1"]}]}
    assert store.add_to_bank([BankEntry(other, "easy", rule_set="killer")], source="generated") == 1
