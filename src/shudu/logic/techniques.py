"""The solving order: every finder, easiest first, with the catalog's technique it finds.

A :class:`Finder` pairs a finder function with its :class:`~shudu.logic.catalog.Technique` (names,
HoDoKu codes, level, score, Sudoku Explainer rating). The ratings of a step follow from its
technique and form (:func:`rating_of`), never from its wording. Techniques Sudoku Explainer does not
know are rated as the chains that express them (a Skyscraper is an X-chain of three links).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ..notation import LEVELS, Level
from . import (
    als,
    als_find,
    chains,
    colouring,
    complex_fish,
    fish,
    forcing,
    intersections,
    kraken,
    loops,
    nishio,
    patterns,
    rule_forcing,
    rule_steps,
    singles,
    static_forcing,
    subsets,
    suedecoq,
    sum_steps,
    templates,
    uniqueness,
    wings,
)
from .catalog import BY_NAME as CATALOG_BY_NAME
from .catalog import LEVEL_MAX_SCORE, Technique
from .grid import CandidateGrid
from .step import Step

Find = Callable[[CandidateGrid], Step | None]

__all__ = [
    "BY_NAME",
    "EVERY_FINDER",
    "LENGTH_STEPS",
    "LEVELS",
    "LEVEL_MAX_SCORE",
    "LISTED_ONLY",
    "TECHNIQUES",
    "Finder",
    "length_bonus",
    "rating_of",
    "se_rating",
    "techniques",
]


@dataclass(frozen=True)
class Finder:
    """A finder in the solving order: the technique (or one ``form`` of it) and the function."""

    technique: Technique
    find: Find
    #: The finder for Sudoku Explainer's order when it knows only some forms (None: ``find``).
    se_find: Find | None = None
    #: The form this finder looks for, when it rates unlike the technique (Sudoku Explainer's
    #: direct forms).
    form: str = ""

    @property
    def name(self) -> str:
        return self.form or self.technique.name

    @property
    def level(self) -> Level:
        return self.technique.rating(self.form)[0]

    @property
    def score(self) -> int:
        return self.technique.rating(self.form)[1]

    @property
    def se(self) -> float:
        return self.technique.rating(self.form)[2]

    @property
    def uniqueness(self) -> bool:
        return self.technique.uniqueness

    @property
    def se_known(self) -> bool:
        return self.technique.se_known


def _t(name: str, find: Find, *, se_find: Find | None = None) -> Finder:
    return Finder(CATALOG_BY_NAME[name], find, se_find)


#: Every finder, in the order the solver tries them (easiest first).
TECHNIQUES: tuple[Finder, ...] = (
    _t("Full house", singles.find_full_house),
    _t("Naked single", singles.find_naked_single),
    _t("Hidden single", singles.find_hidden_single),
    # the rule techniques find nothing on a grid without constraint rules
    _t("Restricted digits", rule_steps.find_restricted_digits),
    _t("Pair rule", rule_steps.find_pair_rule),
    _t("Thermometer", rule_steps.find_thermometer),
    _t("Sum combinations", sum_steps.find_sum_combinations),
    _t("Locked pair", subsets.find_locked_pair),
    _t("Locked triple", subsets.find_locked_triple),
    _t("Locked candidates (pointing)", intersections.find_pointing),
    _t("Locked candidates (claiming)", intersections.find_claiming),
    _t("Cage forced digit", sum_steps.find_cage_forced_digit),
    _t("45 rule", sum_steps.find_forty_five),
    _t("Naked pair", subsets.find_naked_pair),
    _t("Naked triple", subsets.find_naked_triple),
    _t("Hidden pair", subsets.find_hidden_pair),
    _t("Hidden triple", subsets.find_hidden_triple),
    _t("Naked quad", subsets.find_naked_quad),
    _t("Hidden quad", subsets.find_hidden_quad),
    _t("X-Wing", fish.find_x_wing),
    _t("Swordfish", fish.find_swordfish),
    _t("Jellyfish", fish.find_jellyfish),
    _t("Rule contradiction", rule_steps.find_rule_contradiction),
    _t("Remote Pair", chains.find_remote_pair),
    _t("Bivalue Universal Grave + 1", uniqueness.find_bug_plus_one),
    _t("Skyscraper", patterns.find_skyscraper),
    _t("2-String Kite", patterns.find_two_string_kite),
    _t("Turbot Fish", patterns.find_turbot_fish),
    _t("Empty Rectangle", patterns.find_empty_rectangle),
    _t("W-Wing", wings.find_w_wing),
    _t("XY-Wing", wings.find_xy_wing),
    _t("XYZ-Wing", wings.find_xyz_wing),
    _t("Unique Rectangle", uniqueness.find_unique_rectangle, se_find=uniqueness.find_unique_rectangle_1_to_5),
    _t("Hidden Rectangle", uniqueness.find_hidden_rectangle),
    _t("Avoidable Rectangle", uniqueness.find_avoidable_rectangle),
    _t("Finned X-Wing", fish.find_finned_x_wing),
    _t("Finned Swordfish", fish.find_finned_swordfish),
    _t("Finned Jellyfish", fish.find_finned_jellyfish),
    _t("Sue de Coq", suedecoq.find_sue_de_coq),
    _t("Simple Colors", colouring.find_simple_colours),
    _t("Multi Colors", colouring.find_multi_colours),
    _t("X-Chain", chains.find_x_chain),
    _t("XY-Chain", chains.find_xy_chain),
    _t("Continuous Nice Loop", loops.find_continuous_nice_loop),
    _t("AIC", chains.find_aic),
    _t("Grouped Chain", loops.find_grouped_chain),
    _t("ALS-XZ", als_find.find_als_xz),
    _t("ALS-XY-Wing", als_find.find_als_xy_wing),
    _t("Franken X-Wing", complex_fish.find_franken_x_wing),
    _t("Franken Swordfish", complex_fish.find_franken_swordfish),
    _t("Finned Franken X-Wing", complex_fish.find_finned_franken_x_wing),
    _t("Finned Franken Swordfish", complex_fish.find_finned_franken_swordfish),
    # on a grid with rules, the forcing chains that follow the rules come first, short ones first
    Finder(
        CATALOG_BY_NAME["Rule Forcing Chain"],
        rule_forcing.find_short_rule_forcing_chain,
        form=rule_forcing.SHORT_FORM,
    ),
    _t("Rule Forcing Chain", rule_forcing.find_rule_forcing_chain),
    _t("Forcing Chain", forcing.find_forcing_chain),
    _t("Forcing Net", forcing.find_forcing_net),
    _t("Nested Forcing Net", forcing.find_nested_forcing_net),
    _t("Brute Force", forcing.find_brute_force),
)

#: Finders that :func:`~shudu.logic.allsteps.find_steps` lists but the solving path leaves out: the
#: path has HoDoKu's default solver's techniques, in its order (docs/rating.md), and these are
#: off there. Discontinuous nice loops are AICs on the path; Death Blossom, ALS-XY-Chain, the
#: Franken Jellyfish, Mutant, Siamese and Kraken fish, templates and the duals are off in HoDoKu's
#: default solver too (ALS-XY-Chain, on there, matched no more of the calibration sample's levels
#: and made the hardest ratings two and a half times as long).
LISTED_ONLY: tuple[Finder, ...] = (
    _t("Discontinuous Nice Loop", chains.find_discontinuous_nice_loop),
    _t("Death Blossom", als_find.find_death_blossom),
    _t("ALS-XY-Chain", als.find_als_xy_chain),
    _t("2-String Kite", patterns.find_dual_two_string_kite),
    _t("Empty Rectangle", patterns.find_dual_empty_rectangle),
    _t("Franken Jellyfish", complex_fish.find_franken_jellyfish),
    _t("Finned Franken Jellyfish", complex_fish.find_finned_franken_jellyfish),
    _t("Mutant X-Wing", complex_fish.find_mutant_x_wing),
    _t("Finned Mutant X-Wing", complex_fish.find_finned_mutant_x_wing),
    _t("Mutant Swordfish", complex_fish.find_mutant_swordfish),
    _t("Finned Mutant Swordfish", complex_fish.find_finned_mutant_swordfish),
    _t("Mutant Jellyfish", complex_fish.find_mutant_jellyfish),
    _t("Finned Mutant Jellyfish", complex_fish.find_finned_mutant_jellyfish),
    _t("Kraken Fish", kraken.find_kraken_fish),
    _t("Template Set", templates.find_template_set),
    _t("Template Delete", templates.find_template_delete),
    # Sudoku Explainer's forms of forcing chains, which only its path takes (rating.se_order)
    Finder(CATALOG_BY_NAME["Forcing Chain"], nishio.find_nishio, form=nishio.FORM),
    Finder(
        CATALOG_BY_NAME["Forcing Chain"], static_forcing.find_static_forcing, form=static_forcing.FORMS[0]
    ),
)

#: Every finder: the solving order, then the ones only listed.
EVERY_FINDER: tuple[Finder, ...] = TECHNIQUES + LISTED_ONLY

#: The finder of each technique in the solving order, by shudu's name.
BY_NAME = {t.name: t for t in TECHNIQUES}


def rating_of(step: Step) -> tuple[Level, int, float]:
    """(HoDoKu level, HoDoKu score, Sudoku Explainer base rating) of one step: its form's."""
    technique = step.technique
    known = _RATED.get((id(technique), step.name))
    if known is not None and known[0] is technique:
        return known[1]
    rating = technique.rating(step.name)
    if len(_RATED) < _RATED_SIZE:
        _RATED[(id(technique), step.name)] = (technique, rating)
    return rating


#: The ratings :func:`rating_of` has looked up, by technique (its identity, kept alive here) and
#: form name: every step of a path asks, and a technique's forms are searched by name.
_RATED: dict[tuple[int, str], tuple[Technique, tuple[Level, int, float]]] = {}
_RATED_SIZE = 4096


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


@cache
def techniques(*, uniqueness: bool = False, upto: str | None = None) -> tuple[Finder, ...]:
    """The techniques a solver may use, in order; ``upto`` stops after the named one."""
    out = []
    for t in TECHNIQUES:
        if t.uniqueness and not uniqueness:
            continue
        out.append(t)
        if t.name == upto:
            break
    return tuple(out)
