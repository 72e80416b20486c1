"""The setter's workshop: true candidates, the fewest givens that make a puzzle unique, the
givens and rules a puzzle can do without (docs/workshop.md); backdoors, bottlenecks, why a digit
cannot go in a cell, the first contradiction of a puzzle with no solution and the trainer,
which ask the logic engine instead; and the basic candidates a player's marks start from.

Every call runs the exact solver many times, all within one budget (``node_limit``, ``timeout``),
on classic puzzles, the region variants and puzzles with constraint rules alike.
"""

from __future__ import annotations

from .backdoors import Backdoors, backdoors
from .bottlenecks import Bottlenecks, Stall, bottlenecks
from .candidates import TrueCandidates, true_candidates
from .clues import ClueResult, unique_clues
from .contradiction import Contradiction, ExplainedNone, explain, first_contradiction
from .marks import basic_candidates
from .redundancy import Redundancy, is_minimal, redundant
from .trainer import Drill, Training, train
from .unique import UniqueResult, make_unique
from .why import WhyNot, why_not

__all__ = [
    "Backdoors",
    "Bottlenecks",
    "ClueResult",
    "Contradiction",
    "Drill",
    "ExplainedNone",
    "Redundancy",
    "Stall",
    "Training",
    "TrueCandidates",
    "UniqueResult",
    "WhyNot",
    "backdoors",
    "basic_candidates",
    "bottlenecks",
    "explain",
    "first_contradiction",
    "is_minimal",
    "make_unique",
    "redundant",
    "train",
    "true_candidates",
    "unique_clues",
    "why_not",
]
