"""The table of techniques: every finder with its place in the solving order and its ratings.

``score`` and ``level`` follow HoDoKu's published technique scores and levels; ``se`` is the
technique's rating on Sudoku Explainer's published scale (for a chain or net, the rating of its
shortest form: :func:`se_rating` adds a length bonus). Techniques Sudoku Explainer does not know are
rated as the chains that express them (a Skyscraper is an X-chain of three links).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict, Unpack

from . import (
    als,
    chains,
    colouring,
    fish,
    forcing,
    intersections,
    loops,
    patterns,
    singles,
    subsets,
    suedecoq,
    uniqueness,
    wings,
)
from .grid import CandidateGrid
from .step import Step

LEVELS = ("easy", "medium", "hard", "unfair", "extreme")
#: The highest score of each level but the last (HoDoKu's thresholds).
LEVEL_MAX_SCORE = {"easy": 800, "medium": 1000, "hard": 1600, "unfair": 1800}


@dataclass(frozen=True)
class Technique:
    name: str
    find: Callable[[CandidateGrid], Step | None]
    level: str
    score: int
    se: float
    #: Assumes a unique solution: used only when the puzzle is known to have one.
    uniqueness: bool = False
    #: Sudoku Explainer has it (else its Sudoku Explainer-order path leaves it out).
    se_known: bool = True
    #: The finder for Sudoku Explainer's order when it knows only some forms (None: ``find``).
    se_find: Callable[[CandidateGrid], Step | None] | None = None


class _Options(TypedDict, total=False):
    """The optional fields of a :class:`Technique`, as :func:`_t` passes them on."""

    uniqueness: bool
    se_known: bool
    se_find: Callable[[CandidateGrid], Step | None] | None


def _t(
    name: str,
    find: Callable[[CandidateGrid], Step | None],
    level: str,
    score: int,
    se: float,
    **kw: Unpack[_Options],
) -> Technique:
    return Technique(name, find, level, score, se, **kw)


#: Every technique, in the order the solver tries them (easiest first).
TECHNIQUES: tuple[Technique, ...] = (
    _t("Full house", singles.find_full_house, "easy", 4, 1.0),
    _t("Naked single", singles.find_naked_single, "easy", 4, 2.3),
    _t("Hidden single", singles.find_hidden_single, "easy", 14, 1.5),
    _t("Locked pair", subsets.find_locked_pair, "medium", 40, 3.0),
    _t("Locked triple", subsets.find_locked_triple, "medium", 60, 3.6),
    _t("Locked candidates (pointing)", intersections.find_pointing, "medium", 50, 2.6),
    _t("Locked candidates (claiming)", intersections.find_claiming, "medium", 50, 2.8),
    _t("Naked pair", subsets.find_naked_pair, "medium", 60, 3.0),
    _t("Naked triple", subsets.find_naked_triple, "medium", 80, 3.6),
    _t("Hidden pair", subsets.find_hidden_pair, "medium", 70, 3.4),
    _t("Hidden triple", subsets.find_hidden_triple, "medium", 100, 4.0),
    _t("Naked quad", subsets.find_naked_quad, "hard", 120, 5.0),
    _t("Hidden quad", subsets.find_hidden_quad, "hard", 150, 5.4),
    _t("X-Wing", fish.find_x_wing, "hard", 140, 3.2),
    _t("Swordfish", fish.find_swordfish, "hard", 150, 3.8),
    _t("Jellyfish", fish.find_jellyfish, "hard", 160, 5.2),
    _t("Bivalue Universal Grave + 1", uniqueness.find_bug_plus_one, "hard", 100, 5.6, uniqueness=True),
    _t("Skyscraper", patterns.find_skyscraper, "hard", 130, 6.6),
    _t("2-String Kite", patterns.find_two_string_kite, "hard", 150, 6.6),
    _t("Turbot Fish", patterns.find_turbot_fish, "hard", 120, 6.6),
    _t("Empty Rectangle", patterns.find_empty_rectangle, "hard", 120, 6.6),
    _t("W-Wing", wings.find_w_wing, "hard", 150, 7.0),
    _t("XY-Wing", wings.find_xy_wing, "hard", 160, 4.2),
    _t("XYZ-Wing", wings.find_xyz_wing, "hard", 180, 4.4),
    _t(
        "Unique Rectangle",
        uniqueness.find_unique_rectangle,
        "hard",
        100,
        4.5,
        uniqueness=True,
        se_find=uniqueness.find_unique_rectangle_1_to_5,
    ),
    _t(
        "Hidden Rectangle",
        uniqueness.find_hidden_rectangle,
        "hard",
        100,
        4.6,
        uniqueness=True,
        se_known=False,
    ),
    _t("Finned X-Wing", fish.find_finned_x_wing, "hard", 130, 6.6),
    _t("Finned Swordfish", fish.find_finned_swordfish, "unfair", 200, 6.6),
    _t("Finned Jellyfish", fish.find_finned_jellyfish, "unfair", 250, 6.6),
    _t("Sue de Coq", suedecoq.find_sue_de_coq, "unfair", 250, 7.0, se_known=False),
    _t("Simple Colors", colouring.find_simple_colours, "hard", 150, 6.6),
    _t("Multi Colors", colouring.find_multi_colours, "hard", 200, 7.0),
    _t("X-Chain", chains.find_x_chain, "unfair", 260, 6.6),
    _t("XY-Chain", chains.find_xy_chain, "unfair", 260, 6.6),
    _t("Continuous Nice Loop", loops.find_continuous_nice_loop, "unfair", 280, 7.0, se_known=False),
    _t("AIC", chains.find_aic, "unfair", 280, 7.0),
    _t("Grouped Chain", loops.find_grouped_chain, "unfair", 300, 7.0, se_known=False),
    _t("ALS-XZ", als.find_als_xz, "unfair", 300, 7.0, se_known=False),
    _t("ALS-XY-Wing", als.find_als_xy_wing, "unfair", 320, 7.0, se_known=False),
    _t("Death Blossom", als.find_death_blossom, "unfair", 360, 8.2, se_known=False),
    _t("Forcing Chain", forcing.find_forcing_chain, "extreme", 500, 8.0),
    _t("Forcing Net", forcing.find_forcing_net, "extreme", 700, 9.0),
    _t("Nested Forcing Net", forcing.find_nested_forcing_net, "extreme", 1000, 9.5),
    _t("Brute Force", forcing.find_brute_force, "extreme", 10000, 10.0),
)

BY_NAME = {t.name: t for t in TECHNIQUES}

#: Ratings of step names more specific than their technique (scores and levels per HoDoKu,
#: ratings per Sudoku Explainer).
_SPECIFIC: dict[str, tuple[str, int, float]] = {
    "Hidden single in box": ("easy", 14, 1.2),
    "Hidden single in line": ("easy", 14, 1.5),
    "Sashimi X-Wing": ("hard", 150, 6.6),
    "Sashimi Swordfish": ("unfair", 240, 6.6),
    "Sashimi Jellyfish": ("unfair", 260, 6.6),
    "Unique Rectangle Type 1": ("hard", 100, 4.5),
    "Unique Rectangle Type 2": ("hard", 100, 4.6),
    "Unique Rectangle Type 4": ("hard", 100, 4.5),
    "Unique Rectangle Type 5": ("hard", 100, 4.6),
    "Unique Rectangle Type 3 (pair)": ("hard", 100, 4.6),
    "Unique Rectangle Type 3 (triple)": ("hard", 100, 4.7),
    "Unique Rectangle Type 3 (quad)": ("hard", 100, 4.8),
    "Unique Rectangle Type 6": ("hard", 100, 4.6),
    "Continuous Nice Loop (X-Cycle)": ("unfair", 280, 6.5),
    "Grouped X-Chain": ("unfair", 300, 6.6),
    "Grouped AIC": ("unfair", 300, 7.0),
    "Forcing Chain Contradiction": ("extreme", 500, 8.0),
    "Forcing Chain (cell)": ("extreme", 500, 8.2),
    "Forcing Chain (house)": ("extreme", 500, 8.2),
    "Forcing Net Contradiction": ("extreme", 700, 9.0),
    "Forcing Net (cell)": ("extreme", 700, 9.2),
    "Forcing Net (house)": ("extreme", 700, 9.2),
    "Nested Forcing Net Contradiction": ("extreme", 1000, 9.5),
}
_FAMILY = {
    "Locked pair": "Locked pair",
    "Locked triple": "Locked triple",
}


def technique_of(step: Step) -> Technique:
    """The table entry of a step's technique."""
    name = step.technique
    if name in BY_NAME:
        return BY_NAME[name]
    for prefix in ("Sashimi ", "Finned "):
        if name.startswith(prefix):
            return BY_NAME["Finned " + name.removeprefix(prefix)]
    if name.startswith("Unique Rectangle"):
        return BY_NAME["Unique Rectangle"]
    if name.startswith("Grouped "):
        return BY_NAME["Grouped Chain"]
    for t in TECHNIQUES:
        if name.startswith(t.name):
            return t
    raise KeyError(name)


def rating_of(step: Step) -> tuple[str, int, float]:
    """(HoDoKu level, HoDoKu score, Sudoku Explainer base rating) of one step."""
    if step.kind in _SPECIFIC:
        return _SPECIFIC[step.kind]
    if step.technique in _SPECIFIC:
        return _SPECIFIC[step.technique]
    t = technique_of(step)
    return t.level, t.score, t.se


#: Lengths past which Sudoku Explainer adds 0.1 to a chain's rating (each ×3/2 then ×4/3).
def _length_steps() -> list[int]:
    out, ceiling, odd = [], 4, False
    while ceiling < 10**6:
        out.append(ceiling)
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return out


LENGTH_STEPS = tuple(_length_steps())


def length_bonus(length: int) -> float:
    """The rating added for a chain of ``length`` links: 0.1 per threshold passed."""
    return 0.1 * sum(1 for t in LENGTH_STEPS if length > t)


def se_rating(step: Step) -> float:
    """The step's rating on Sudoku Explainer's scale (base rating plus chain-length bonus)."""
    base = rating_of(step)[2]
    if base >= 6.5 and step.length:
        return round(base + length_bonus(step.length), 1)
    return base


def techniques(*, uniqueness: bool = False, upto: str | None = None) -> tuple[Technique, ...]:
    """The techniques a solver may use, in order; ``upto`` stops after the named one."""
    out = []
    for t in TECHNIQUES:
        if t.uniqueness and not uniqueness:
            continue
        out.append(t)
        if t.name == upto:
            break
    return tuple(out)
