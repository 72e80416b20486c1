"""Saved games and the puzzle bank, in one SQLite file.

Every write is one transaction (``BEGIN IMMEDIATE`` … ``COMMIT``) on a database in WAL mode
with ``synchronous=FULL``: a game saved is on disk when :meth:`Store.save_game` returns, and a
process killed mid-write leaves the previous state, never half of one. The schema carries its
version in ``PRAGMA user_version`` and :data:`MIGRATIONS` brings an older file up to date.

Puzzles are kept in their JSON form (``size``, ``box``, ``variant``, ``givens`` …), so any
size and variant fits one table. The store checks shapes (lengths, ranges); the caller checks
that a puzzle parses. The bank is a stock of puzzles made ahead by the generator: each is
served once, and its row stays (marked served) so that a later fill never brings it back. A
bank puzzle keeps its rating (``se``, ``score``, ``hardest``) and solution when the one who
banked it knew them (:class:`BankEntry`); :meth:`Store.bank_rows` streams them all for an export.

A game belongs to one player (a key the caller gives; the web app sets one per browser) and is
seen only through that key. It carries a version: a save states the version it is based on and is
refused (:class:`StaleGame`) when the game has changed since, so two writers never overwrite each
other. Game ids come from ``AUTOINCREMENT`` and are never reused, even after a delete.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import StoreError

#: The schema, one script per version; version N is reached by running scripts 1 … N in order.
MIGRATIONS: tuple[str, ...] = (
    # 1: saved games and the puzzle bank
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        puzzle TEXT NOT NULL,            -- the puzzle's JSON form
        size INTEGER NOT NULL,
        variant TEXT NOT NULL,
        level TEXT,
        entries TEXT NOT NULL,           -- JSON list of n*n digits, 0 = empty (givens are 0 here)
        corner TEXT NOT NULL,            -- JSON list of n*n lists: corner pencil marks
        centre TEXT NOT NULL,            -- JSON list of n*n lists: centre pencil marks
        history TEXT NOT NULL,           -- JSON {"undo": [...], "redo": [...]}: the player's moves
        elapsed_ms INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE INDEX games_updated ON games (updated DESC);
    CREATE TABLE bank (
        id INTEGER PRIMARY KEY,
        size INTEGER NOT NULL,
        variant TEXT NOT NULL,
        level TEXT NOT NULL,
        givens TEXT NOT NULL,
        puzzle TEXT NOT NULL,            -- the puzzle's JSON form
        source TEXT NOT NULL,            -- "shipped", "generated" …
        served INTEGER NOT NULL DEFAULT 0,
        added REAL NOT NULL,
        UNIQUE (variant, givens)
    );
    CREATE INDEX bank_pick ON bank (size, variant, level, served);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 2: drop the puzzles shipped before there was a generator (levelled by clue count, not rated)
    """
    DELETE FROM bank WHERE source = 'shipped';
    DELETE FROM meta WHERE key = 'shipped-puzzles';
    """,
    # 3: games belong to a player, carry a version (a save names the version it is based on), and
    #    their ids are never reused (AUTOINCREMENT), so a stale page can never write into another game
    """
    CREATE TABLE games_v3 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        player TEXT NOT NULL DEFAULT '', -- the player's key; '' for games saved before players
        version INTEGER NOT NULL DEFAULT 1,
        puzzle TEXT NOT NULL,
        size INTEGER NOT NULL,
        variant TEXT NOT NULL,
        level TEXT,
        entries TEXT NOT NULL,
        corner TEXT NOT NULL,
        centre TEXT NOT NULL,
        history TEXT NOT NULL,
        elapsed_ms INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    INSERT INTO games_v3 (id, puzzle, size, variant, level, entries, corner, centre, history, elapsed_ms,
        finished, created, updated)
        SELECT id, puzzle, size, variant, level, entries, corner, centre, history, elapsed_ms, finished,
        created, updated FROM games;
    DROP TABLE games;
    ALTER TABLE games_v3 RENAME TO games;
    CREATE INDEX games_player ON games (player, updated DESC);
    """,
    # 4: a bank puzzle keeps its rating and its solution (NULL for puzzles banked before)
    """
    ALTER TABLE bank ADD COLUMN se REAL;
    ALTER TABLE bank ADD COLUMN score INTEGER;
    ALTER TABLE bank ADD COLUMN hardest TEXT;
    ALTER TABLE bank ADD COLUMN solution TEXT;
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
#: The most moves a game's undo and redo lists may hold together.
MAX_HISTORY = 5000
#: The longest time a game may record: 100 years of play, in milliseconds (SQLite holds 2^63).
MAX_ELAPSED_MS = 100 * 365 * 24 * 3600 * 1000


class MissingGame(StoreError):
    """No saved game of that id belongs to this player."""


class StaleGame(StoreError):
    """A save based on an older version of the game than the one stored."""

    def __init__(self, message: str, *, version: int) -> None:
        super().__init__(message)
        self.version = version


def default_path() -> Path:
    """Where the database lives unless told otherwise: the user's data directory."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "shudu" / "shudu.sqlite3"


@dataclass
class Game:
    """A puzzle being played: the player's digits, pencil marks, move history and time."""

    puzzle: dict[str, Any]
    entries: list[int]
    corner: list[list[int]]
    centre: list[list[int]]
    history: dict[str, list[Any]] = field(default_factory=lambda: {"undo": [], "redo": []})
    elapsed_ms: int = 0
    finished: bool = False
    level: str | None = None
    id: int | None = None
    #: the player the game belongs to ('' when saved without one)
    player: str = ""
    #: the stored version this game is based on: 1 when first saved, one more at each save
    version: int = 0
    created: float = 0.0
    updated: float = 0.0

    @property
    def size(self) -> int:
        return int(self.puzzle["size"])

    @property
    def variant(self) -> str:
        return str(self.puzzle.get("variant", "standard"))

    @classmethod
    def new(cls, puzzle: dict[str, Any], *, level: str | None = None, player: str = "") -> Game:
        """A fresh game of a puzzle given in its JSON form."""
        cells = int(puzzle["size"]) ** 2
        empty: tuple[list[list[int]], list[list[int]]] = (
            [[] for _ in range(cells)],
            [[] for _ in range(cells)],
        )
        return cls(puzzle, [0] * cells, *empty, level=level, player=player)

    def check(self) -> None:
        """Raise :class:`StoreError` unless every field has the shape its puzzle needs."""
        n = self.size
        cells = n * n
        if len(self.entries) != cells:
            raise StoreError(f"entries has {len(self.entries)} cells; a {n}x{n} game needs {cells}")
        for i, digit in enumerate(self.entries):
            if isinstance(digit, bool) or not isinstance(digit, int) or not 0 <= digit <= n:
                raise StoreError(f"entry {i} is {digit!r}; a {n}x{n} game takes 0 (empty) to {n}")
        for name, marks in (("corner", self.corner), ("centre", self.centre)):
            if len(marks) != cells:
                raise StoreError(f"{name} marks list {len(marks)} cells; a {n}x{n} game needs {cells}")
            for i, cell in enumerate(marks):
                if not isinstance(cell, list) or not all(
                    isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= n for d in cell
                ):
                    raise StoreError(f"{name} marks of cell {i} must be a list of digits 1-{n}")
        if set(self.history) != {"undo", "redo"} or not all(
            isinstance(v, list) for v in self.history.values()
        ):
            raise StoreError('history must be {"undo": [...], "redo": [...]}')
        moves = len(self.history["undo"]) + len(self.history["redo"])
        if moves > MAX_HISTORY:
            raise StoreError(f"history holds {moves} moves; at most {MAX_HISTORY} are kept")
        if (
            isinstance(self.elapsed_ms, bool)
            or not isinstance(self.elapsed_ms, int)
            or not 0 <= self.elapsed_ms <= MAX_ELAPSED_MS
        ):
            raise StoreError(
                f"elapsed_ms must be a whole number of milliseconds from 0 to {MAX_ELAPSED_MS},"
                f" not {self.elapsed_ms!r}"
            )

    def summary(self) -> dict[str, Any]:
        """The fields a list of saved games shows."""
        givens = str(self.puzzle.get("givens", ""))
        filled = sum(1 for c in givens if c not in ".0") + sum(1 for d in self.entries if d)
        return {
            "id": self.id,
            "version": self.version,
            "size": self.size,
            "variant": self.variant,
            "level": self.level,
            "filled": filled,
            "cells": self.size**2,
            "elapsed_ms": self.elapsed_ms,
            "finished": self.finished,
            "created": self.created,
            "updated": self.updated,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            **self.summary(),
            "puzzle": self.puzzle,
            "entries": self.entries,
            "corner": self.corner,
            "centre": self.centre,
            "history": self.history,
        }


@dataclass(frozen=True)
class BankEntry:
    """A puzzle to put in the bank: its JSON form, its level, and what its rating found."""

    puzzle: dict[str, Any]
    level: str
    se: float | None = None
    score: int | None = None
    hardest: str | None = None
    solution: str | None = None

    def check(self) -> None:
        """Raise :class:`StoreError` unless every field has the type and range the bank keeps."""
        size = self.puzzle.get("size")
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise StoreError(f"a bank puzzle needs a size, a whole number from 1, not {size!r}")
        givens = self.puzzle.get("givens")
        if not isinstance(givens, str) or not givens:
            raise StoreError("a bank puzzle needs its givens as text")
        if not isinstance(self.level, str) or not self.level:
            raise StoreError(f"a bank puzzle needs a level, not {self.level!r}")
        if self.se is not None and (
            isinstance(self.se, bool) or not isinstance(self.se, (int, float)) or not 0 <= self.se <= 100
        ):
            raise StoreError(f"se must be a rating from 0 to 100, not {self.se!r}")
        if self.score is not None and (
            isinstance(self.score, bool) or not isinstance(self.score, int) or self.score < 0
        ):
            raise StoreError(f"score must be a whole number from 0, not {self.score!r}")
        if self.solution is not None and len(self.solution) != len(givens):
            raise StoreError(f"the solution has {len(self.solution)} cells; the givens have {len(givens)}")


@dataclass(frozen=True)
class BankPuzzle:
    """A puzzle waiting in the bank."""

    id: int
    size: int
    variant: str
    level: str
    puzzle: dict[str, Any]
    source: str


class Store:
    """One SQLite database of saved games and bank puzzles.

    Each call opens its own short-lived connection, so one Store may be shared by threads.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, read_only: bool = False) -> None:
        """Open the database at ``path`` (default: :func:`default_path`), made if absent.

        A file that is not a shudu database (not SQLite, or another program's SQLite file) is
        refused with :class:`StoreError` and left as it is. ``read_only``: never write or create
        anything, not even the folder; a database that does not exist yet reads as empty.
        """
        self.path = Path(path) if path is not None else default_path()
        self.read_only = read_only
        self._exists = _check_database(self.path)
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
            return _read_only(self.path, self._exists)
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
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        f"{self.path} has schema version {version}, newer than this shudu knows "
                        f"({SCHEMA_VERSION}); upgrade shudu or use another --db"
                    )
                for number in range(version, SCHEMA_VERSION):
                    for statement in _statements(MIGRATIONS[number]):
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
        return _game(row)

    def games(self, player: str = "", *, limit: int = 100) -> list[Game]:
        """The saved games of ``player``, most recently played first."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT * FROM games WHERE player = ? ORDER BY updated DESC, id DESC LIMIT ?", (player, limit)
            )
            return [_game(row) for row in rows]

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
                    "INSERT OR IGNORE INTO bank (size, variant, level, givens, puzzle, source, added,"
                    " se, score, hardest, solution) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        int(puzzle["size"]),
                        str(puzzle.get("variant", "standard")),
                        entry.level,
                        str(puzzle["givens"]),
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


_SQLITE = b"SQLite format 3\x00"


def _check_database(path: Path) -> bool:
    """Whether a database is at ``path``; a :class:`StoreError` when something else is there."""
    try:
        with open(path, "rb") as stream:
            head = stream.read(len(_SQLITE))
    except FileNotFoundError:
        return False
    except IsADirectoryError:
        raise StoreError(f"{path} is a folder, not a shudu database (--db names a file)") from None
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from None
    if not head:
        return False  # an empty file: nothing in it is lost by making it a database
    if head != _SQLITE:
        raise StoreError(
            f"{path} is not a shudu database (it is not an SQLite file); give --db a new file or one"
            " shudu made"
        )
    conn = _read_only(path, True)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is not a shudu database: {exc}") from None
    finally:
        conn.close()
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path} has schema version {version}, newer than this shudu knows "
            f"({SCHEMA_VERSION}); upgrade shudu or use another --db"
        )
    if (version == 0 and tables) or (version > 0 and not {"games", "bank", "meta"} <= tables):
        raise StoreError(
            f"{path} is an SQLite database of another program, not a shudu database; give --db a new"
            " file or one shudu made"
        )
    return True


def _read_only(path: Path, exists: bool) -> sqlite3.Connection:
    """A connection that writes and creates nothing: the file read-only (``immutable`` when no
    write-ahead log is beside it, so that no ``-wal`` or ``-shm`` file is made either), or an
    empty database in memory for a file that is not there yet."""
    try:
        if not exists:
            conn = sqlite3.connect(":memory:", isolation_level=None)
            for script in MIGRATIONS:
                for statement in _statements(script):
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        else:
            live = path.with_name(path.name + "-wal").exists()  # a writer's log, to be read too
            uri = f"{path.resolve().as_uri()}?{'mode=ro' if live else 'immutable=1'}"
            conn = sqlite3.connect(uri, uri=True, timeout=10.0, isolation_level=None)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot read {path} as a shudu database: {exc}") from None
    conn.row_factory = sqlite3.Row
    return conn


def _statements(script: str) -> list[str]:
    """The statements of a migration script (no statement of ours holds a ``;`` in a string)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def _game(row: sqlite3.Row) -> Game:
    return Game(
        puzzle=json.loads(row["puzzle"]),
        entries=json.loads(row["entries"]),
        corner=json.loads(row["corner"]),
        centre=json.loads(row["centre"]),
        history=json.loads(row["history"]),
        elapsed_ms=row["elapsed_ms"],
        finished=bool(row["finished"]),
        level=row["level"],
        id=row["id"],
        player=row["player"],
        version=row["version"],
        created=row["created"],
        updated=row["updated"],
    )
