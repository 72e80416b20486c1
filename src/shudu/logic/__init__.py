"""Human logic: a candidate grid, one finder per technique, and the simplest-first solving loop.

Every technique is declared once in :data:`CATALOG` (names, HoDoKu codes, ratings, named forms);
every finder takes a :class:`CandidateGrid` and returns a :class:`Step` or None, and they are listed,
easiest first, in :data:`TECHNIQUES`. See docs/logic.md and docs/rating.md.
"""

from __future__ import annotations

from .budget import LogicTimeout, checkpoint, limits
from .catalog import CATALOG, Form, Technique
from .explain import Explanation, Hint, explain, hint
from .grid import CandidateGrid
from .naming import lookup
from .rating import Rating, UnsolvableError, rate
from .solver import LogicError, next_step, solve_path, steps
from .step import Step
from .techniques import TECHNIQUES, Finder, rating_of, se_rating, techniques

__all__ = [
    "CATALOG",
    "TECHNIQUES",
    "CandidateGrid",
    "Explanation",
    "Finder",
    "Form",
    "Hint",
    "LogicError",
    "LogicTimeout",
    "Rating",
    "Step",
    "Technique",
    "UnsolvableError",
    "checkpoint",
    "explain",
    "hint",
    "limits",
    "lookup",
    "next_step",
    "rate",
    "rating_of",
    "se_rating",
    "solve_path",
    "steps",
    "techniques",
]
