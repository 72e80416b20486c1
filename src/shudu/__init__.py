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

import importlib
from typing import TYPE_CHECKING, Any

from . import errors, variants
from .api import SolveResult, count, solutions, solve
from .errors import ShuduError
from .formats import parse_grid, parse_puzzle, read_puzzles
from .geometry import Geometry, House
from .puzzle import Grid, Puzzle
from .variants import Variant

#: The parts of the API loaded on first use (PEP 562), by name: the module that holds each.
#: ``import shudu`` loads the solving calls and the model; the logic engine, the generator, the
#: solvers and the other formats wait until a name of theirs is asked for.
_LAZY: dict[str, str] = {
    "BatchResult": "shudu.solvers.fast",
    "Board": "shudu.logic.engine.board",
    "StepList": "shudu.logic.allsteps",
    "explain": "shudu.workshop",
    "find_steps": "shudu.logic.allsteps",
    "generate": "shudu.generator",
    "hint": "shudu.logic.explain",
    "parse_board": "shudu.logic.engine.board",
    "rate": "shudu.logic.rating",
    "solve_many": "shudu.solvers.fast",
    "Redundancy": "shudu.workshop",
    "TrueCandidates": "shudu.workshop",
    "UniqueResult": "shudu.workshop",
    "is_minimal": "shudu.workshop",
    "make_unique": "shudu.workshop",
    "redundant": "shudu.workshop",
    "true_candidates": "shudu.workshop",
    "basic_candidates": "shudu.workshop",
    "Backdoors": "shudu.workshop",
    "Drill": "shudu.workshop",
    "Training": "shudu.workshop",
    "backdoors": "shudu.workshop",
    "train": "shudu.workshop",
    "WhyNot": "shudu.workshop",
    "why_not": "shudu.workshop",
    "Bottlenecks": "shudu.workshop",
    "bottlenecks": "shudu.workshop",
    "ClueResult": "shudu.workshop",
    "unique_clues": "shudu.workshop",
}
#: The packages and modules of shudu reachable as attributes before they are imported.
_MODULES = frozenset(
    {"api", "batch", "book", "cli", "formats", "generator", "geometry", "logic", "notation", "puzzle"}
    | {"render", "rules", "solvers", "store", "web", "workshop"}
)

if TYPE_CHECKING:
    from .generator import generate
    from .logic.allsteps import StepList, find_steps
    from .logic.engine.board import Board, parse_board
    from .logic.explain import hint
    from .logic.rating import rate
    from .solvers.fast import BatchResult, solve_many
    from .workshop import (
        Drill,
        Redundancy,
        Training,
        TrueCandidates,
        UniqueResult,
        basic_candidates,
        is_minimal,
        make_unique,
        redundant,
        train,
        true_candidates,
    )
    from .workshop.backdoors import Backdoors, backdoors
    from .workshop.bottlenecks import Bottlenecks, bottlenecks
    from .workshop.clues import ClueResult, unique_clues
    from .workshop.contradiction import explain
    from .workshop.why import WhyNot, why_not


def __getattr__(name: str) -> Any:
    """A name of :data:`_LAZY` or a module of shudu, imported the first time it is asked for."""
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    elif name in _MODULES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, *_MODULES})


__version__ = "0.1.0"

__all__ = [
    "Backdoors",
    "BatchResult",
    "Board",
    "Bottlenecks",
    "ClueResult",
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
    "WhyNot",
    "__version__",
    "backdoors",
    "basic_candidates",
    "bottlenecks",
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
    "unique_clues",
    "variants",
    "why_not",
]
