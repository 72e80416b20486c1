"""What difficulty a request asks for, and how far a rated puzzle is from it.

A target is a window on the rater's scales: a HoDoKu level, a Sudoku Explainer range, and a
technique the simplest-first path must use. :meth:`Target.direction` says whether a rated
puzzle is too easy (-1), inside the window (0) or too hard (+1); :meth:`Target.gap` measures
how far off it is, for the local search to climb.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import GeneratorError
from ..notation import LEVELS

__all__ = ["LEVELS", "MAX_SE", "Target", "parse_level", "parse_range", "technique_names"]
#: The top of the rater's scale: nested forcing nets rate from 9.5 up, a little past 10 with
#: long chains (brute force, the final fallback, rates 10.0).
MAX_SE = 11.0


def parse_level(level: str | None) -> str | None:
    if level is None:
        return None
    key = level.strip().lower()
    if key not in LEVELS:
        raise GeneratorError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return key


def parse_range(value: Any, what: str, kind: type = float) -> tuple[Any, Any] | None:
    """``N``, ``MIN-MAX`` text, or a (min, max) pair, as a (min, max) pair of ``kind``."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise GeneratorError(f"{what} must be a number or a MIN-MAX range, not {value!r}")
    if isinstance(value, int | float):
        return kind(value), kind(value)
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*(?:[-–:]\s*(\d+(?:\.\d*)?)\s*)?", value)
        if not m:
            example = "24-28" if kind is int else "6.6-7.2"
            raise GeneratorError(f"{what} {value!r} is not a number or a MIN-MAX range (e.g. {example})")
        try:
            low = kind(m[1])
            high = kind(m[2]) if m[2] is not None else low
        except ValueError:
            raise GeneratorError(f"{what} {value!r} must be whole numbers") from None
    else:
        try:
            low, high = (kind(v) for v in value)
        except (TypeError, ValueError):
            raise GeneratorError(f"{what} must be a number or a (min, max) pair, not {value!r}") from None
    if low > high:
        raise GeneratorError(f"{what} range {low}-{high} is empty (the minimum is above the maximum)")
    return low, high


def technique_names() -> dict[str, tuple[str, float]]:
    """The rater's techniques, lower-cased name → (HoDoKu level, SE rating)."""
    from ..logic import TECHNIQUES

    return {t.name.lower(): (t.level, t.se) for t in TECHNIQUES}


@dataclass(frozen=True)
class Target:
    """A difficulty window; an empty target accepts every puzzle."""

    level: str | None = None
    se: tuple[float, float] | None = None
    technique: str | None = None

    @classmethod
    def of(cls, level: str | None, se: Any, technique: str | None) -> Target:
        level = parse_level(level)
        se_range = parse_range(se, "SE rating")
        if se_range is not None and (se_range[0] > MAX_SE or se_range[1] < 1.0):
            raise GeneratorError(
                f"SE range {se_range[0]}-{se_range[1]} lies outside the rater's scale (1.0 to {MAX_SE})"
            )
        name = None
        if technique is not None:
            known = technique_names()
            key = technique.strip().lower()
            if key not in known:
                raise GeneratorError(
                    f"unknown technique {technique!r}; known: {', '.join(sorted(t for t in known))}"
                )
            name = key
            tech_level = known[key][0]
            if level is not None and LEVELS.index(tech_level) > LEVELS.index(level):
                raise GeneratorError(
                    f"a {level} puzzle never needs {technique} (a {tech_level} technique): "
                    f"ask for level {tech_level} or harder"
                )
        return cls(level, se_range, name)

    @property
    def rated(self) -> bool:
        return self.level is not None or self.se is not None or self.technique is not None

    @property
    def reach(self) -> str:
        """Where on a dig the window lies: ``low`` (puzzles solved without a guess: singles and
        intersections), ``middle`` (just past them: subsets, fish, wings) or ``high``."""
        if self.level is not None:
            return {"easy": "low", "medium": "low", "hard": "middle"}.get(self.level, "high")
        if self.se is not None:
            return "low" if self.se[1] < 3.0 else "middle" if self.se[1] < 6.0 else "high"
        if self.technique is not None:
            return {"easy": "low", "medium": "middle", "hard": "middle"}.get(
                technique_names()[self.technique][0], "high"
            )
        return "high"

    @property
    def min_level(self) -> int:
        if self.level is not None:
            return LEVELS.index(self.level)
        if self.technique is not None:
            return LEVELS.index(technique_names()[self.technique][0])
        return 0

    def direction(self, rating: Any) -> int:
        """-1 when the rated puzzle is too easy, 0 inside the window, +1 too hard."""
        index = LEVELS.index(rating.level)
        if self.level is not None and index != LEVELS.index(self.level):
            return -1 if index < LEVELS.index(self.level) else 1
        if self.se is not None:
            if rating.se < self.se[0]:
                return -1
            if rating.se > self.se[1]:
                return 1
        if self.technique is not None and index < self.min_level:
            return -1
        return 0

    def gap(self, rating: Any) -> float:
        """How far a rated puzzle lies from the window (0 inside it, technique aside)."""
        index = LEVELS.index(rating.level)
        out = 0.0
        want = self.level or (LEVELS[self.min_level] if self.technique else None)
        if want is not None:
            out += abs(index - LEVELS.index(want))
        if self.se is not None:
            out += max(0.0, self.se[0] - rating.se, rating.se - self.se[1]) / 2
        return out

    def matches(self, rating: Any) -> bool:
        if self.direction(rating) != 0:
            return False
        if self.technique is None:
            return True
        wanted = self.technique
        # a step names its technique and the form it found ("Finned X-Wing" of X-Wing)
        return any(
            name.lower().startswith(wanted)
            for step in rating.steps
            for name in (str(step.technique), step.name)
        )

    def describe(self) -> str:
        parts = []
        if self.level:
            parts.append(self.level)
        if self.se:
            low, high = self.se
            parts.append(f"SE {low}" if low == high else f"SE {low}-{high}")
        if self.technique:
            parts.append(f"needing {self.technique}")
        return " ".join(parts) or "unique"
