"""The techniques in one table: every finder once, with the catalog's technique it finds.

A :class:`Finder` is one row of :data:`FINDERS`: the :class:`~shudu.logic.catalog.Technique` (names,
HoDoKu codes, level, score, Sudoku Explainer rating) or one form of it, the listing of every step
(``iter_steps``), the finder of the first (``first``), what the solving path chooses from, and how
the path gets every step (:class:`Cost`). The solving path (:mod:`shudu.logic.solver`), the
listings (:func:`~shudu.logic.allsteps.find_steps`) and Sudoku Explainer's order
(:func:`~shudu.logic.rating.se_order`) loop over this table; no finder carries attributes of its
own. The ratings of a step follow from its technique and form (:func:`rating_of`), never from its
wording. Techniques Sudoku Explainer does not know are rated as the chains that express them (a
Skyscraper is an X-chain of three links).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from enum import Enum, Flag, auto
from functools import cache, partial

from ..notation import LEVELS, Level
from .catalog import BY_NAME as CATALOG_BY_NAME
from .catalog import LENGTH_STEPS, LEVEL_MAX_SCORE, Technique, fish_name, length_bonus
from .engine.grid import CandidateGrid
from .engine.step import Step
from .techniques import (
    aic,
    als_first,
    als_listings,
    colouring,
    complex_fish,
    direct,
    fish,
    forcing,
    grouped_chains,
    intersections,
    kraken,
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

Find = Callable[[CandidateGrid], Step | None]
#: A listing: every distinct step of a finder on a grid, in its order.
Listing = Callable[[CandidateGrid], Iterable[Step]]

__all__ = [
    "BY_NAME",
    "EVERY_FINDER",
    "FINDERS",
    "LENGTH_STEPS",
    "LEVELS",
    "LEVEL_MAX_SCORE",
    "LISTED_ONLY",
    "SE_FORMS",
    "TECHNIQUES",
    "Cost",
    "Finder",
    "Role",
    "first_of",
    "length_bonus",
    "rating_of",
    "se_rating",
    "single_step",
    "techniques",
]


class Cost(Enum):
    """How the solving path gets every step of a finder it meets (see
    :func:`~shudu.logic.solver.first_technique`)."""

    #: The singles: listing them costs no more than finding one and leaves the grid as it is;
    #: a round takes them all.
    SINGLES = "singles"
    #: ``first`` gives the first step of the listing, which costs no more than ``first`` when
    #: there is none and leaves the grid as it is: the path lists at once instead of finding the
    #: first step twice.
    LISTS_FIRST = "lists first"
    #: A search: the path looks for one step, and lists them all (on a copy of the grid) only
    #: when there is one.
    SEARCH = "search"


class Role(Flag):
    """Where a finder of the table serves."""

    #: HoDoKu's solving path, in the table's order; so the listings too, and Sudoku Explainer's
    #: path when Sudoku Explainer knows the technique.
    PATH = auto()
    #: The listings (:func:`~shudu.logic.allsteps.find_steps`) only: off HoDoKu's path.
    LISTED = auto()
    #: Sudoku Explainer's path, as one of its own forms (:data:`SE_FORMS`).
    SE_FORM = auto()


def first_of(listing: Listing) -> Find:
    """The finder of the first step of ``listing`` (None when it has none)."""

    def first(grid: CandidateGrid) -> Step | None:
        return next(iter(listing(grid)), None)

    return first


def single_step(find: Find) -> Listing:
    """The listing of a finder that has no listing of its own: its one step, if any."""

    def listing(grid: CandidateGrid) -> Iterator[Step]:
        step = find(grid)
        if step is not None:
            yield step

    return listing


@dataclass(frozen=True)
class Finder:
    """A technique (or one ``form`` of it) and how to find its steps: one row of :data:`FINDERS`.

    ``iter_steps`` lists every distinct step on a grid (the listings); ``first`` finds the step
    the path meets first: :func:`first_of` what the path chooses from, unless a faster dedicated
    search exists. ``path_steps`` is what the solving path chooses from when that is less than
    the listing (the Siamese fish, the grouped chains through ALS nodes are for the listings
    only); ``cost`` says how the path gets every step. ``se_first``, when set, finds the forms
    Sudoku Explainer knows (:meth:`for_se`). ``role`` says where the finder serves.
    """

    technique: Technique
    iter_steps: Listing
    first: Find
    cost: Cost = Cost.SEARCH
    #: The form this finder looks for, when it rates unlike the technique (Sudoku Explainer's
    #: direct forms).
    form: str = ""
    path_steps: Listing | None = None
    se_first: Find | None = None
    role: Role = Role.PATH
    #: Whether the finder looks only at the grid's constraint rules (killer cages,
    #: thermometers …): on a grid without rules it finds nothing, and the path leaves it out
    #: (:func:`~shudu.logic.solver.for_grid`).
    needs_rules: bool = False

    @property
    def chooses_from(self) -> Listing:
        """The steps the solving path chooses from: ``path_steps``, or else ``iter_steps``."""
        return self.iter_steps if self.path_steps is None else self.path_steps

    def for_se(self) -> Finder:
        """This finder on Sudoku Explainer's path: ranked as its technique (not as a form), and
        with ``se_first`` (its one step for a listing) when it has one."""
        if self.se_first is None:
            return replace(self, form="")
        listing = single_step(self.se_first)
        return replace(self, form="", first=self.se_first, iter_steps=listing, path_steps=None)

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


def _t(
    name: str,
    iter_steps: Listing | None = None,
    *,
    first: Find | None = None,
    cost: Cost = Cost.SEARCH,
    form: str = "",
    path_steps: Listing | None = None,
    se_first: Find | None = None,
    role: Role = Role.PATH,
    needs_rules: bool = False,
) -> Finder:
    """A row of the table for the catalog's technique ``name``: ``first`` is the first step of
    what the path chooses from unless given, ``iter_steps`` the one step of ``first`` unless
    given."""
    if iter_steps is None:
        assert first is not None, name
        iter_steps = single_step(first)
    if first is None:
        first = first_of(iter_steps if path_steps is None else path_steps)
    technique = CATALOG_BY_NAME[name]
    return Finder(technique, iter_steps, first, cost, form, path_steps, se_first, role, needs_rules)


def _rule(name: str, iter_steps: Listing, *, first: Find, cost: Cost = Cost.SEARCH, form: str = "") -> Finder:
    """A row of a rule technique: its listing yields nothing where ``grid.t.rules`` is None."""
    return _t(name, iter_steps, first=first, cost=cost, form=form, needs_rules=True)


def _complex_fish(form: str, size: int, *, finned: bool, role: Role = Role.PATH) -> Finder:
    """The finder of the Franken or Mutant fish of ``size``, finned or not (the path chooses
    among the finned ones without the Siamese)."""
    listing = partial(complex_fish.iter_fish_steps, form=form, size=size, finned=finned)
    path = partial(complex_fish.iter_fish_steps, form=form, size=size, finned=True, siamese=False)
    name = fish_name(form, size, finned=finned)
    return _t(name, listing, path_steps=path if finned else None, role=role)


def _finned_fish(size: int, first: Find) -> Finder:
    """The finder of a finned basic fish of ``size`` (the path chooses without the Siamese)."""
    return _t(
        fish_name("Basic", size, finned=True),
        partial(fish.iter_finned, size=size),
        first=first,
        path_steps=partial(fish.iter_finned, size=size, siamese=False),
    )


_SINGLES, _LISTS = Cost.SINGLES, Cost.LISTS_FIRST
_LISTED, _SE = Role.LISTED, Role.SE_FORM

#: Every finder, once: HoDoKu's solving path in its order (easiest first), then the finders only
#: listed, then Sudoku Explainer's own forms. The path, the listings and Sudoku Explainer's order
#: are views of this table (:data:`TECHNIQUES`, :data:`EVERY_FINDER`, :data:`SE_FORMS`).
FINDERS: tuple[Finder, ...] = (
    _t("Full house", singles.iter_full_house, first=singles.find_full_house, cost=_SINGLES),
    _t("Naked single", singles.iter_naked_single, first=singles.find_naked_single, cost=_SINGLES),
    _t("Hidden single", singles.iter_hidden_single, first=singles.find_hidden_single, cost=_SINGLES),
    # the rule techniques find nothing on a grid without constraint rules
    _rule("Restricted digits", rule_steps.iter_restricted_digits, first=rule_steps.find_restricted_digits),
    _rule("Pair rule", rule_steps.iter_pair_rule, first=rule_steps.find_pair_rule),
    _rule("Thermometer", rule_steps.iter_thermometer, first=rule_steps.find_thermometer),
    _rule("Sum combinations", sum_steps.iter_sum_combinations, first=sum_steps.find_sum_combinations),
    _rule("Cage forced digit", sum_steps.iter_cage_forced_digit, first=sum_steps.find_cage_forced_digit),
    _t("Locked pair", subsets.iter_locked_pair, first=subsets.find_locked_pair, cost=_LISTS),
    _t("Locked triple", subsets.iter_locked_triple, first=subsets.find_locked_triple, cost=_LISTS),
    _t(
        "Locked candidates (pointing)",
        intersections.iter_pointing,
        first=intersections.find_pointing,
        cost=_LISTS,
    ),
    _t(
        "Locked candidates (claiming)",
        intersections.iter_claiming,
        first=intersections.find_claiming,
        cost=_LISTS,
    ),
    _rule("45 rule", sum_steps.iter_forty_five, first=sum_steps.find_forty_five),
    _t("Naked pair", subsets.iter_naked_pair, first=subsets.find_naked_pair, cost=_LISTS),
    _t("Naked triple", subsets.iter_naked_triple, first=subsets.find_naked_triple, cost=_LISTS),
    _t("Hidden pair", subsets.iter_hidden_pair, first=subsets.find_hidden_pair, cost=_LISTS),
    _t("Hidden triple", subsets.iter_hidden_triple, first=subsets.find_hidden_triple, cost=_LISTS),
    _t("Naked quad", subsets.iter_naked_quad, first=subsets.find_naked_quad, cost=_LISTS),
    _t("Hidden quad", subsets.iter_hidden_quad, first=subsets.find_hidden_quad, cost=_LISTS),
    _t("X-Wing", fish.iter_x_wing, first=fish.find_x_wing),
    _t("Swordfish", fish.iter_swordfish, first=fish.find_swordfish),
    _t("Jellyfish", fish.iter_jellyfish, first=fish.find_jellyfish),
    _rule("Rule contradiction", rule_steps.iter_rule_contradiction, first=rule_steps.find_rule_contradiction),
    _t("Remote Pair", aic.iter_remote_pair, first=aic.find_remote_pair),
    _t("Bivalue Universal Grave + 1", uniqueness.iter_bug_plus_one, first=uniqueness.find_bug_plus_one),
    _t("Skyscraper", patterns.iter_skyscraper, first=patterns.find_skyscraper),
    _t("2-String Kite", patterns.iter_two_string_kite, first=patterns.find_two_string_kite),
    _t("Turbot Fish", patterns.iter_turbot_fish, first=patterns.find_turbot_fish),
    _t("Empty Rectangle", patterns.iter_empty_rectangle, first=patterns.find_empty_rectangle),
    _t("W-Wing", wings.iter_w_wing, first=wings.find_w_wing),
    _t("XY-Wing", wings.iter_xy_wing, first=wings.find_xy_wing),
    _t("XYZ-Wing", wings.iter_xyz_wing, first=wings.find_xyz_wing),
    _t(
        "Unique Rectangle",
        uniqueness.iter_unique_rectangle,
        first=uniqueness.find_unique_rectangle,
        se_first=uniqueness.find_unique_rectangle_1_to_5,
    ),
    _t("Hidden Rectangle", uniqueness.iter_hidden_rectangle, first=uniqueness.find_hidden_rectangle),
    _t(
        "Avoidable Rectangle",
        uniqueness.iter_avoidable_rectangle,
        first=uniqueness.find_avoidable_rectangle,
    ),
    _finned_fish(2, fish.find_finned_x_wing),
    _finned_fish(3, fish.find_finned_swordfish),
    _finned_fish(4, fish.find_finned_jellyfish),
    _t("Sue de Coq", suedecoq.iter_sue_de_coq, first=suedecoq.find_sue_de_coq),
    _t("Simple Colors", colouring.iter_simple_colours, first=colouring.find_simple_colours),
    _t("Multi Colors", colouring.iter_multi_colours, first=colouring.find_multi_colours),
    _t("X-Chain", aic.iter_x_chain, first=aic.find_x_chain),
    _t("XY-Chain", aic.iter_xy_chain, first=aic.find_xy_chain),
    _t(
        "Continuous Nice Loop",
        grouped_chains.iter_continuous_nice_loop,
        first=grouped_chains.find_continuous_nice_loop,
    ),
    _t("AIC", aic.iter_aic, first=aic.find_aic),
    _t(
        "Grouped Chain",
        grouped_chains.iter_grouped_chain,
        first=grouped_chains.find_grouped_chain,
        path_steps=grouped_chains.iter_grouped_chain_by_groups,
    ),
    _t("ALS-XZ", als_listings.iter_als_xz, first=als_first.find_als_xz),
    _t("ALS-XY-Wing", als_listings.iter_als_xy_wing, first=als_first.find_als_xy_wing),
    *(_complex_fish("Franken", size, finned=finned) for finned in (False, True) for size in (2, 3)),
    # on a grid with rules, the forcing chains that follow the rules come first, short ones first
    _rule(
        "Rule Forcing Chain",
        rule_forcing.iter_short_rule_forcing_chain,
        first=rule_forcing.find_short_rule_forcing_chain,
        cost=_LISTS,
        form=rule_forcing.SHORT_FORM,
    ),
    _rule(
        "Rule Forcing Chain",
        rule_forcing.iter_rule_forcing_chain,
        first=rule_forcing.find_rule_forcing_chain,
        cost=_LISTS,
    ),
    _t("Forcing Chain", forcing.iter_forcing_chain, first=forcing.find_forcing_chain),
    _t("Forcing Net", forcing.iter_forcing_net, first=forcing.find_forcing_net),
    _rule(
        "Rule Forcing Net",
        rule_forcing.iter_rule_forcing_net,
        first=rule_forcing.find_rule_forcing_net,
        cost=_LISTS,
    ),
    _rule(
        "Rule Forcing Chain",
        rule_forcing.iter_rule_verity,
        first=rule_forcing.find_rule_verity,
        cost=_LISTS,
        form=rule_forcing.CELL_FORM,
    ),
    _rule(
        "Rule Forcing Net",
        rule_forcing.iter_rule_net_verity,
        first=rule_forcing.find_rule_net_verity,
        cost=_LISTS,
        form=rule_forcing.NET_CELL_FORM,
    ),
    _t("Nested Forcing Net", first=forcing.find_nested_forcing_net),
    _t("Brute Force", first=forcing.find_brute_force),
    # The finders the listings have but the solving path leaves out: the path has HoDoKu's
    # default solver's techniques, in its order (docs/rating.md), and these are off there.
    # Discontinuous nice loops are AICs on the path; Death Blossom, ALS-XY-Chain, the Franken
    # Jellyfish, Mutant, Siamese and Kraken fish, templates and the duals are off in HoDoKu's
    # default solver too (ALS-XY-Chain, on there, matched no more of the calibration sample's
    # levels and made the hardest ratings two and a half times as long).
    _t(
        "Discontinuous Nice Loop",
        aic.iter_discontinuous_nice_loop,
        first=aic.find_discontinuous_nice_loop,
        role=_LISTED,
    ),
    _t("Death Blossom", als_listings.iter_death_blossom, first=als_first.find_death_blossom, role=_LISTED),
    _t("ALS-XY-Chain", als_listings.iter_als_xy_chain, first=als_listings.find_als_xy_chain, role=_LISTED),
    _t(
        "2-String Kite",
        patterns.iter_dual_two_string_kite,
        first=patterns.find_dual_two_string_kite,
        role=_LISTED,
    ),
    _t(
        "Empty Rectangle",
        patterns.iter_dual_empty_rectangle,
        first=patterns.find_dual_empty_rectangle,
        role=_LISTED,
    ),
    *(
        _complex_fish(form, size, finned=finned, role=_LISTED)
        for form, size in (("Franken", 4), ("Mutant", 2), ("Mutant", 3), ("Mutant", 4))
        for finned in (False, True)
    ),
    _t("Kraken Fish", kraken.iter_kraken_fish, first=kraken.find_kraken_fish, role=_LISTED),
    _t("Template Set", templates.iter_template_set, first=templates.find_template_set, role=_LISTED),
    _t(
        "Template Delete",
        templates.iter_template_delete,
        first=templates.find_template_delete,
        role=_LISTED,
    ),
    # Sudoku Explainer's forms of forcing chains: listed; its Nishio is on its path too
    _t("Forcing Chain", nishio.iter_nishio, first=nishio.find_nishio, form=nishio.FORM, role=_LISTED | _SE),
    _t(
        "Forcing Chain",
        static_forcing.iter_static_forcing,
        first=static_forcing.find_static_forcing,
        form=static_forcing.FORMS[0],
        role=_LISTED,
    ),
    # Sudoku Explainer's own forms, on its path only: the hidden singles of the boxes, the direct
    # forms, and its multiple forcing chains of the lowest rating
    _t(
        "Hidden single",
        singles.iter_box_singles,
        first=singles.find_box_single,
        cost=_SINGLES,
        form="Hidden single in box",
        role=_SE,
    ),
    _t(
        "Locked candidates (pointing)",
        direct.iter_direct_pointing,
        cost=_LISTS,
        form="Direct pointing",
        role=_SE,
    ),
    _t(
        "Locked candidates (claiming)",
        direct.iter_direct_claiming,
        cost=_LISTS,
        form="Direct claiming",
        role=_SE,
    ),
    _t("Hidden pair", direct.iter_direct_hidden_pair, cost=_LISTS, form="Direct hidden pair", role=_SE),
    _t("Hidden triple", direct.iter_direct_hidden_triple, cost=_LISTS, form="Direct hidden triple", role=_SE),
    _t(
        "Forcing Chain",
        static_forcing.iter_easiest_static_forcing,
        first=static_forcing.find_easiest_static_forcing,
        form=static_forcing.FORMS[0],
        role=_SE,
    ),
)

#: HoDoKu's solving path: the finders it tries, in order (easiest first).
TECHNIQUES: tuple[Finder, ...] = tuple(f for f in FINDERS if Role.PATH in f.role)

#: The finders that :func:`~shudu.logic.allsteps.find_steps` lists but the solving path leaves out.
LISTED_ONLY: tuple[Finder, ...] = tuple(f for f in FINDERS if Role.LISTED in f.role)

#: Every finder of the listings: the solving order, then the ones only listed.
EVERY_FINDER: tuple[Finder, ...] = TECHNIQUES + LISTED_ONLY

#: Sudoku Explainer's direct forms, its Nishio and its (static) multiple forcing chains, each a
#: finder of one form of a catalog technique (see :func:`~shudu.logic.rating.se_order`).
SE_FORMS: tuple[Finder, ...] = tuple(f for f in FINDERS if Role.SE_FORM in f.role)

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
