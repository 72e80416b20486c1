"""Human logic: a candidate grid, one finder per technique, and the simplest-first solving loop.

Every finder takes a :class:`CandidateGrid` and returns a :class:`Step` or None; they are listed,
easiest first and with their ratings, in :data:`TECHNIQUES`. See docs/logic.md.
"""

from __future__ import annotations

from .explain import Explanation, Hint, explain, hint
from .grid import CandidateGrid
from .rating import Rating, UnsolvableError, rate
from .solver import LogicError, next_step, solve_path, steps
from .step import Step
from .techniques import TECHNIQUES, Technique, rating_of, se_rating, techniques

__all__ = [
    "TECHNIQUES",
    "CandidateGrid",
    "Explanation",
    "Hint",
    "LogicError",
    "Rating",
    "Step",
    "Technique",
    "UnsolvableError",
    "explain",
    "hint",
    "next_step",
    "rate",
    "rating_of",
    "se_rating",
    "solve_path",
    "steps",
    "techniques",
]
