"""The database file: where it lives, its schema, one migration script a version, and the checks that a file
is a shudu database before anything is written to it."""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

from ..errors import StoreError

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
    # 5: a bank puzzle with constraint rules (killer cages, thermometers …) keeps them in a column of
    #    their own, part of what makes a puzzle new (two killers with no givens differ by their
    #    cages), and its kind says so (the rule set's name in place of "standard"; "rules" for
    #    puzzles with rules banked before, which were counted as their variant)
    """
    CREATE TABLE bank_v5 (
        id INTEGER PRIMARY KEY,
        size INTEGER NOT NULL,
        variant TEXT NOT NULL,           -- the kind: the variant, or the rule set of a puzzle with rules
        level TEXT NOT NULL,
        givens TEXT NOT NULL,
        rules TEXT NOT NULL DEFAULT '',  -- the puzzle's rules as JSON text; '' for none
        puzzle TEXT NOT NULL,
        source TEXT NOT NULL,
        served INTEGER NOT NULL DEFAULT 0,
        added REAL NOT NULL,
        se REAL,
        score INTEGER,
        hardest TEXT,
        solution TEXT,
        UNIQUE (variant, givens, rules)
    );
    INSERT INTO bank_v5 (id, size, variant, level, givens, rules, puzzle, source, served, added, se, score,
        hardest, solution)
        SELECT id, size,
        CASE WHEN json_extract(puzzle, '$.rules') IS NULL OR json_extract(puzzle, '$.rules') = '[]'
            THEN variant WHEN variant = 'standard' THEN 'rules' ELSE variant || '+rules' END,
        level, givens,
        CASE WHEN json_extract(puzzle, '$.rules') IS NULL OR json_extract(puzzle, '$.rules') = '[]'
            THEN '' ELSE json_extract(puzzle, '$.rules') END,
        puzzle, source, served, added, se, score, hardest, solution FROM bank;
    DROP TABLE bank;
    ALTER TABLE bank_v5 RENAME TO bank;
    CREATE INDEX bank_pick ON bank (size, variant, level, served);
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)


SQLITE_HEADER = b"SQLite format 3\x00"


def check_database(path: Path) -> bool:
    """Whether a database is at ``path``; a :class:`StoreError` when something else is there."""
    try:
        with open(path, "rb") as stream:
            head = stream.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return False
    except IsADirectoryError:
        raise StoreError(f"{path} is a folder, not a shudu database (--db names a file)") from None
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from None
    if not head:
        return False  # an empty file: nothing in it is lost by making it a database
    if head != SQLITE_HEADER:
        raise StoreError(
            f"{path} is not a shudu database (it is not an SQLite file); give --db a new file or one"
            " shudu made"
        )
    conn = read_only_connection(path, True)
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


def read_only_connection(path: Path, exists: bool) -> sqlite3.Connection:
    """A connection that writes and creates nothing: the file read-only (``immutable`` when no
    write-ahead log is beside it, so that no ``-wal`` or ``-shm`` file is made either), or an
    empty database in memory for a file that is not there yet."""
    try:
        if not exists:
            conn = sqlite3.connect(":memory:", isolation_level=None)
            for script in MIGRATIONS:
                for statement in statements(script):
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


def statements(script: str) -> list[str]:
    """The statements of a migration script (no statement of ours holds a ``;`` in a string)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def default_path() -> Path:
    """Where the database lives unless told otherwise: the user's data directory."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "shudu" / "shudu.sqlite3"
