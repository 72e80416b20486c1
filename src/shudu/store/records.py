"""What the store keeps: saved games, bank puzzles, and the errors of a game that is not there
or has changed since it was read."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from ..errors import StoreError

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
    #: The name of the puzzle's set of constraint rules (``"killer"`` …), its kind in the bank
    #: (None: ``"rules"`` when the puzzle has rules).
    rule_set: str | None = None

    @property
    def rules(self) -> str:
        """The puzzle's constraint rules as compact JSON text ('' for none): with the givens,
        what makes a puzzle new to the bank."""
        rules = self.puzzle.get("rules")
        return json.dumps(rules, separators=(",", ":")) if rules else ""

    @property
    def kind(self) -> str:
        """The bank's name of the puzzle's kind: its variant, or for a puzzle with rules the rule
        set's name (``"killer"``; ``"x+killer"`` beside a variant)."""
        variant = str(self.puzzle.get("variant", "standard"))
        if not self.rules:
            return variant
        name = self.rule_set or "rules"
        return name if variant == "standard" else f"{variant}+{name}"

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
        rules = self.puzzle.get("rules")
        if rules is not None and not isinstance(rules, list):
            raise StoreError(f"a bank puzzle's rules are a list, not {rules!r}")
        if self.rule_set is not None and (not isinstance(self.rule_set, str) or not self.rule_set):
            raise StoreError(f"rule_set must be the name of a set of rules, not {self.rule_set!r}")
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


def game_from_row(row: sqlite3.Row) -> Game:
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
