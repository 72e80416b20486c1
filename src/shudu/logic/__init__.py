"""Human logic: a candidate grid, one finder per technique, and the simplest-first solving loop.

Every technique is declared once in :data:`CATALOG` (names, HoDoKu codes, ratings, named forms);
every finder takes a :class:`CandidateGrid` and returns a :class:`Step` or None, and they are listed,
easiest first, in :data:`TECHNIQUES`. See docs/logic.md and docs/rating.md.

The package has three parts: :mod:`.engine` (the grid, the steps, propagation, budgets: what
every technique stands on), :mod:`.techniques` (one module per family of techniques) and, here at
the top, the catalog, the table of finders (:mod:`.table`; its ``techniques()`` chooses the
path's finders) and what stands on it: the solving path, the rating, the explanations and the
listings of every step (docs/where.md).
"""

from __future__ import annotations

from .catalog import CATALOG, Form, Technique
from .engine.budget import LogicTimeout, checkpoint, limits
from .engine.grid import CandidateGrid
from .engine.step import Step
from .explain import Explanation, Hint, explain, hint
from .naming import lookup
from .rating import Rating, UnsolvableError, rate
from .solver import LogicError, next_step, solve_path, steps
from .table import TECHNIQUES, Finder, rating_of, se_rating

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
]
