"""shudu (数独): a sudoku toolkit — solvers, every size from 4x4 to 25x25, variant regions.

The public API::

    >>> import shudu
    >>> puzzle = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    >>> result = shudu.solve(puzzle)
    >>> result.status
    'unique'
    >>> shudu.count("................", limit=1000)
    288
"""

from __future__ import annotations

from . import errors, rules, solvers, variants
from .api import SolveResult, count, solutions, solve
from .errors import ShuduError
from .formats import parse_grid, parse_puzzle, read_puzzles
from .generator import generate
from .geometry import Geometry, House
from .logic import explain, hint, rate
from .logic.allsteps import StepList, find_steps
from .logic.board import Board, parse_board
from .puzzle import Grid, Puzzle
from .solvers.fast import BatchResult, solve_many
from .variants import Variant
from .workshop import (
    Backdoors,
    Drill,
    Redundancy,
    Training,
    TrueCandidates,
    UniqueResult,
    backdoors,
    is_minimal,
    make_unique,
    redundant,
    train,
    true_candidates,
)

__version__ = "0.1.0"

__all__ = [
    "Backdoors",
    "BatchResult",
    "Board",
    "Drill",
    "Geometry",
    "Grid",
    "House",
    "Puzzle",
    "Redundancy",
    "ShuduError",
    "SolveResult",
    "StepList",
    "Training",
    "TrueCandidates",
    "UniqueResult",
    "Variant",
    "__version__",
    "backdoors",
    "count",
    "errors",
    "explain",
    "find_steps",
    "generate",
    "hint",
    "is_minimal",
    "make_unique",
    "parse_board",
    "parse_grid",
    "parse_puzzle",
    "rate",
    "read_puzzles",
    "redundant",
    "rules",
    "solutions",
    "solve",
    "solve_many",
    "solvers",
    "train",
    "true_candidates",
    "variants",
]
