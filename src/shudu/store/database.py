"""The store itself: one SQLite database of saved games and bank puzzles (see :mod:`shudu.store`)."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import StoreError
from . import schema
from .records import BankEntry, BankPuzzle, Game, MissingGame, StaleGame, game_from_row


class Store:
    """One SQLite database of saved games and bank puzzles.

    Each call opens its own short-lived connection, so one Store may be shared by threads.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, read_only: bool = False) -> None:
        """Open the database at ``path`` (default: :func:`~shudu.store.default_path`), made if absent.

        A file that is not a shudu database (not SQLite, or another program's SQLite file) is
        refused with :class:`StoreError` and left as it is. ``read_only``: never write or create
        anything, not even the folder; a database that does not exist yet reads as empty.
        """
        self.path = Path(path) if path is not None else schema.default_path()
        self.read_only = read_only
        self._exists = schema.check_database(self.path)
        if read_only:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder for {self.path}: {exc.strerror}") from None
        self._migrate()

    # --- connections and schema ---------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self.read_only:
            return schema.read_only_connection(self.path, self._exists)
        try:
            conn = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a shudu database: {exc}") from None
        conn.row_factory = sqlite3.Row
        return conn

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        conn = self._connect()
        try:
            yield conn
        finally:
            conn.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A connection inside one transaction: committed on success, rolled back on error."""
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()

    @property
    def version(self) -> int:
        with self._read() as conn:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        try:
            with self._write() as conn:
                version = int(conn.execute("PRAGMA user_version").fetchone()[0])
                if version > schema.SCHEMA_VERSION:
                    raise StoreError(
                        f"{self.path} has schema version {version}, newer than this shudu knows "
                        f"({schema.SCHEMA_VERSION}); upgrade shudu or use another --db"
                    )
                for number in range(version, schema.SCHEMA_VERSION):
                    for statement in schema.statements(schema.MIGRATIONS[number]):
                        conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {number + 1}")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open {self.path} as a shudu database: {exc}") from None

    def get_meta(self, key: str) -> str | None:
        with self._read() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def first_meta(self, key: str, value: str) -> str:
        """The value of ``key``, set to ``value`` first if it has none (the first writer wins)."""
        with self._write() as conn:
            conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", (key, value))
            return str(conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0])

    # --- saved games --------------------------------------------------------------------

    def save_game(self, game: Game, *, bump: bool = True) -> Game:
        """Insert a new game (``id`` None) or update a saved one; return it with id, version and times set.

        An update is accepted only when ``game.version`` is the stored version (the save is based
        on the latest state): otherwise :class:`StaleGame`, and nothing changes. A game of another
        player, or one deleted, is :class:`MissingGame`. An update moves the version on, unless
        ``bump`` is false (a change no other page need hear of: the time played).
        """
        game.check()
        now = time.time()
        values = (
            json.dumps(game.puzzle, separators=(",", ":")),
            game.size,
            game.variant,
            game.level,
            json.dumps(game.entries, separators=(",", ":")),
            json.dumps(game.corner, separators=(",", ":")),
            json.dumps(game.centre, separators=(",", ":")),
            json.dumps(game.history, separators=(",", ":")),
            game.elapsed_ms,
            int(game.finished),
        )
        with self._write() as conn:
            if game.id is None:
                cursor = conn.execute(
                    "INSERT INTO games (puzzle, size, variant, level, entries, corner, centre, history,"
                    " elapsed_ms, finished, created, updated, player, version)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
                    (*values, now, now, game.player),
                )
                game.id = cursor.lastrowid
                game.created = now
                game.version = 1
            else:
                cursor = conn.execute(
                    "UPDATE games SET puzzle = ?, size = ?, variant = ?, level = ?, entries = ?, corner = ?,"
                    " centre = ?, history = ?, elapsed_ms = ?, finished = ?, updated = ?,"
                    " version = version + ? WHERE id = ? AND player = ? AND version = ?",
                    (*values, now, int(bump), game.id, game.player, game.version),
                )
                if cursor.rowcount == 0:
                    row = conn.execute(
                        "SELECT version FROM games WHERE id = ? AND player = ?", (game.id, game.player)
                    ).fetchone()
                    if row is None:
                        raise MissingGame(f"no saved game {game.id}")
                    raise StaleGame(
                        f"game {game.id} was saved elsewhere since (version {row[0]}, this save is based"
                        f" on {game.version}); reload it to go on",
                        version=int(row[0]),
                    )
                game.version += int(bump)
        game.updated = now
        return game

    def game(self, game_id: int, player: str = "") -> Game:
        """The saved game ``game_id`` of ``player``; :class:`MissingGame` if there is none."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT * FROM games WHERE id = ? AND player = ?", (game_id, player)
            ).fetchone()
        if row is None:
            raise MissingGame(f"no saved game {game_id}")
        return game_from_row(row)

    def games(self, player: str = "", *, limit: int = 100) -> list[Game]:
        """The saved games of ``player``, most recently played first."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT * FROM games WHERE player = ? ORDER BY updated DESC, id DESC LIMIT ?", (player, limit)
            )
            return [game_from_row(row) for row in rows]

    def delete_game(self, game_id: int, player: str = "") -> None:
        with self._write() as conn:
            if conn.execute("DELETE FROM games WHERE id = ? AND player = ?", (game_id, player)).rowcount == 0:
                raise MissingGame(f"no saved game {game_id}")

    def has_player(self, player: str) -> bool:
        """Whether ``player`` has a saved game."""
        with self._read() as conn:
            return (
                conn.execute("SELECT 1 FROM games WHERE player = ? LIMIT 1", (player,)).fetchone() is not None
            )

    def claim_unowned(self, player: str) -> int:
        """Give the games saved without a player (before players existed) to ``player``; how many."""
        with self._write() as conn:
            return int(conn.execute("UPDATE games SET player = ? WHERE player = ''", (player,)).rowcount)

    # --- the puzzle bank ----------------------------------------------------------------

    def add_to_bank(self, puzzles: Iterable[tuple[dict[str, Any], str] | BankEntry], *, source: str) -> int:
        """Add puzzles (``(puzzle JSON, level)`` pairs or :class:`BankEntry`) in one transaction;
        return how many were new (a puzzle already in the bank, served or not, is skipped)."""
        entries = [p if isinstance(p, BankEntry) else BankEntry(*p) for p in puzzles]
        for entry in entries:
            entry.check()
        now = time.time()
        added = 0
        with self._write() as conn:
            for entry in entries:
                puzzle = entry.puzzle
                cursor = conn.execute(
                    "INSERT OR IGNORE INTO bank (size, variant, level, givens, rules, puzzle, source,"
                    " added, se, score, hardest, solution) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        int(puzzle["size"]),
                        entry.kind,
                        entry.level,
                        str(puzzle["givens"]),
                        entry.rules,
                        json.dumps(puzzle, separators=(",", ":")),
                        source,
                        now,
                        None if entry.se is None else float(entry.se),
                        entry.score,
                        entry.hardest,
                        entry.solution,
                    ),
                )
                added += cursor.rowcount
        return added

    def bank_rows(self, *, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every puzzle of the bank, served or not, in the order they were added: ``id``,
        ``size``, ``variant``, ``level``, ``se``, ``score``, ``hardest``, ``givens``,
        ``solution``, ``puzzle`` (the JSON form, as a dict), ``source``, ``served``, ``added``.
        Read ``batch`` rows at a time, so a bank of any size streams."""
        with self._read() as conn:
            cursor = conn.execute(
                "SELECT id, size, variant, level, se, score, hardest, givens, solution, puzzle, source,"
                " served, added FROM bank ORDER BY id"
            )
            while rows := cursor.fetchmany(batch):
                for row in rows:
                    found = dict(row)
                    found["puzzle"] = json.loads(found["puzzle"])
                    yield found

    def take_from_bank(self, size: int, variant: str, level: str | None = None) -> BankPuzzle | None:
        """A puzzle of that kind not served yet, picked at random and marked served; None if none."""
        where = "size = ? AND variant = ? AND served = 0" + (" AND level = ?" if level else "")
        args: tuple[Any, ...] = (size, variant, level) if level else (size, variant)
        with self._write() as conn:
            row = conn.execute(f"SELECT * FROM bank WHERE {where} ORDER BY random() LIMIT 1", args).fetchone()
            if row is None:
                return None
            conn.execute("UPDATE bank SET served = served + 1 WHERE id = ?", (row["id"],))
        return BankPuzzle(
            row["id"], row["size"], row["variant"], row["level"], json.loads(row["puzzle"]), row["source"]
        )

    def bank_counts(self) -> list[dict[str, Any]]:
        """How many puzzles wait in the bank (not served yet), by size, variant and level."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT size, variant, level, COUNT(*) AS puzzles FROM bank WHERE served = 0"
                " GROUP BY size, variant, level ORDER BY size, variant, level"
            )
            return [dict(row) for row in rows]
