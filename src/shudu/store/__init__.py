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

from .database import Store
from .records import MAX_ELAPSED_MS, MAX_HISTORY, BankEntry, BankPuzzle, Game, MissingGame, StaleGame
from .schema import MIGRATIONS, SCHEMA_VERSION, default_path

__all__ = [
    "MAX_ELAPSED_MS",
    "MAX_HISTORY",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "BankEntry",
    "BankPuzzle",
    "Game",
    "MissingGame",
    "StaleGame",
    "Store",
    "default_path",
]
