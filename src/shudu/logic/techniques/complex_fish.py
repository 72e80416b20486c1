"""Complex fish: Franken and Mutant fish (plain and finned) and Siamese fish, up to size 4.

A fish of size k on one digit: k *base* houses whose places for the digit do not overlap, and k
*cover* houses (not base houses) that hold every base place but the *fins*. The k base houses put
the digit in k distinct base places, and each cover house holds it at most once, so without fins
every cover house gets its digit from a base place: the digit goes from the cover houses' other
cells, and from any base place in two cover houses (it would fill two covers at once). With fins,
either that holds or a fin holds the digit, so only such cells that also see every fin lose it.
Base houses of a Franken or Mutant fish may share a place or two: such *endo fins* are fins
whatever the covers (without them the base houses' places are apart again).

Basic fish use rows against columns; Franken fish mix boxes in (rows and boxes against columns and
boxes, or the other way round); Mutant fish mix anything. A Siamese fish is two finned fish on the
same base houses with different covers: both hold, so their eliminations are shown together.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ...notation import digit_char
from ..catalog import FISH_NAMES, fish_name
from ..engine.budget import checkpoint
from ..engine.grid import CandidateGrid, CellSet, bits
from ..engine.memo import barren, mark_barren
from ..engine.propagate import c_core, c_tables
from ..engine.step import Step, distinct, make_step

#: At most this many fins: more make eliminations too rare to be worth the search.
MAX_FINS = 4
#: At most this many base places shared by two base houses (endo fins: fins whatever the covers).
MAX_ENDO_FINS = 2


@dataclass(frozen=True)
class Fish:
    digit: int
    base: tuple[int, ...]
    cover: tuple[int, ...]
    base_cells: CellSet
    fins: CellSet
    eliminations: CellSet


def fishes(
    grid: CandidateGrid,
    d: int,
    k: int,
    base_pool: Sequence[int],
    cover_pool: Sequence[int],
    *,
    max_fins: int,
) -> Iterator[Fish]:
    """Every fish of size ``k`` on digit index ``d`` with base houses from ``base_pool`` and cover
    houses from ``cover_pool`` (at most ``max_fins`` fins) that eliminates something. One call of
    the C core where the grid fits its tables, each fish given as the Python search would give
    it, with the same base choices counted against the logic budget by then; :func:`_fishes_py`
    is its specification."""
    capsule = c_tables(grid.geometry)
    core = c_core()
    if capsule is None or core is None:
        return _fishes_py(grid, d, k, base_pool, cover_pool, max_fins=max_fins)
    total, found = core.fishes(
        capsule, grid.where[d], k, tuple(base_pool), tuple(cover_pool), max_fins, MAX_ENDO_FINS
    )
    return _counted(d, total, found)


def _counted(
    d: int, total: int, found: list[tuple[int, tuple[int, ...], tuple[int, ...], int, int, int]]
) -> Iterator[Fish]:
    counted = 0
    for units, base, cover, base_cells, fins, eliminations in found:
        checkpoint(units - counted)
        counted = units
        yield Fish(d, base, cover, base_cells, fins, eliminations)
    checkpoint(total - counted)


def _fishes_py(
    grid: CandidateGrid,
    d: int,
    k: int,
    base_pool: Sequence[int],
    cover_pool: Sequence[int],
    *,
    max_fins: int,
) -> Iterator[Fish]:
    """:func:`fishes` in Python: the specification of the C core's ``fishes``."""
    return _FishSearch(grid, d, k, base_pool, cover_pool, max_fins).bases(0, [], 0, 0)


class _FishSearch:
    """The search of :func:`_fishes_py`: base houses, then the covers of each choice of them."""

    def __init__(
        self,
        grid: CandidateGrid,
        d: int,
        k: int,
        base_pool: Sequence[int],
        cover_pool: Sequence[int],
        max_fins: int,
    ) -> None:
        self.d, self.k, self.max_fins = d, k, max_fins
        self.where = where = grid.where[d]
        self.hb = hb = grid.t.house_bits
        self.peer_bits = grid.t.peer_bits
        self.cell_houses = grid.geometry.cell_houses
        self.cover_ok = set(cover_pool)
        self.pool = [(h, where & hb[h]) for h in base_pool if where & hb[h]]
        self.found: list[Fish] = []

    def bases(self, start: int, base: list[int], cells: CellSet, endo: CellSet) -> Iterator[Fish]:
        """The fish whose base houses are ``base`` and more from the pool after ``start``."""
        k, peer_bits = self.k, self.peer_bits
        if len(base) == k:
            checkpoint()
            reach = self.where
            for fin in bits(endo):
                reach &= peer_bits[fin]
            if reach:
                self.covers(tuple(base), cells, [], 0, endo, reach, 0)
                yield from self.found
                self.found.clear()
            return
        pool = self.pool
        for i in range(start, len(pool) - (k - len(base)) + 1):
            h, spots = pool[i]
            shared = endo | spots & cells
            if shared.bit_count() > MAX_ENDO_FINS or shared.bit_count() > self.max_fins:
                continue
            base.append(h)
            yield from self.bases(i + 1, base, cells | spots, shared)
            base.pop()

    def covers(
        self,
        base: tuple[int, ...],
        base_cells: CellSet,
        chosen: list[int],
        union: CellSet,
        fins: CellSet,
        reach: CellSet,
        banned: int,
    ) -> None:
        """The cover houses of ``base``: those ``chosen`` and more, each found fish kept.
        ``reach``: the places of the digit that see every fin so far (all of them with no fin);
        ``banned``: houses (as bits) left out here because an earlier branch took them."""
        hb, peer_bits, max_fins = self.hb, self.peer_bits, self.max_fins
        left = base_cells & ~union & ~fins
        if len(chosen) == self.k:
            for fin in bits(left):
                if fins.bit_count() >= max_fins:
                    return
                fins |= 1 << fin
                reach &= peer_bits[fin]
            if not fins or reach:
                self.finish(base, base_cells, chosen, union, fins)
            return
        if not left:
            return
        low = left & -left
        cell = low.bit_length() - 1
        for h in self.cell_houses[cell]:
            if h in self.cover_ok and h not in base and not banned >> h & 1 and h not in chosen:
                chosen.append(h)
                self.covers(base, base_cells, chosen, union | hb[h], fins, reach, banned)
                chosen.pop()
                # every cover with h has been seen: the branches after this one go without it
                banned |= 1 << h
        if fins.bit_count() < max_fins:
            narrowed = reach & peer_bits[cell]
            if narrowed:
                # a fin is a place no cover holds
                for h in self.cell_houses[cell]:
                    banned |= 1 << h
                self.covers(base, base_cells, chosen, union, fins | low, narrowed, banned)

    def finish(
        self, base: tuple[int, ...], base_cells: CellSet, chosen: list[int], union: CellSet, fins: CellSet
    ) -> None:
        """Keeps the fish of ``base`` and covers ``chosen`` if it eliminates anything."""
        hb = self.hb
        targets = self.where & union & ~base_cells
        twice = 0
        once = 0
        for h in chosen:
            inside = base_cells & hb[h]
            twice |= once & inside
            once |= inside
        targets |= twice & ~fins
        for fin in bits(fins):
            targets &= self.peer_bits[fin]
        if targets:
            self.found.append(Fish(self.d, base, tuple(sorted(chosen)), base_cells, fins, targets))


def _kinds(grid: CandidateGrid, houses: Sequence[int]) -> set[str]:
    kinds = set()
    for h in houses:
        kind = grid.geometry.houses[h].kind
        kinds.add("box" if kind == "region" else kind)
    return kinds


def classify(grid: CandidateGrid, fish: Fish) -> str:
    """Basic, Franken or Mutant, by the kinds of the base and cover houses."""
    base, cover = _kinds(grid, fish.base), _kinds(grid, fish.cover)
    if (base, cover) in (({"row"}, {"column"}), ({"column"}, {"row"})):
        return "Basic"
    if (base <= {"row", "box"} and cover <= {"column", "box"}) or (
        base <= {"column", "box"} and cover <= {"row", "box"}
    ):
        return "Franken"
    return "Mutant"


def fish_step(grid: CandidateGrid, fish: Fish, name: str, eliminations: CellSet, fins: CellSet) -> Step:
    """The step of a fish named ``name``: its base and cover houses, fins and eliminations."""
    houses = grid.geometry.houses
    digit = fish.digit + 1
    base_names = [houses[h].name for h in fish.base]
    cover_names = [houses[h].name for h in fish.cover]
    reason = f"{digit_char(digit)} in {', '.join(base_names)} lies only in {', '.join(cover_names)}"
    if fins:
        reason += f" apart from the fin{'s' if fins & (fins - 1) else ''} {grid.names(fins)}"
    return make_step(
        grid,
        name,
        reason,
        eliminations=[(c, digit) for c in bits(eliminations)],
        cells=list(bits(fish.base_cells)),
        digits=[digit],
        houses=base_names + cover_names,
        kind=name,
    )


def _pools(grid: CandidateGrid, form: str) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    t = grid.t
    if form == "Franken":
        return [(t.rows + t.boxes, t.columns + t.boxes), (t.columns + t.boxes, t.rows + t.boxes)]
    every = t.rows + t.columns + t.boxes
    return [(every, every)]


def iter_fish(
    grid: CandidateGrid, form: str, k: int, *, finned: bool, digits: Sequence[int] | None = None
) -> Iterator[Step]:
    """The fish of one form (``"Franken"`` or ``"Mutant"``), size and finness, on ``digits`` (all
    digits when None)."""
    if not grid.t.boxes:
        return
    name = fish_name(form, k, finned=finned)
    # a digit's fish depend on its places alone: places searched in vain are skipped
    tag = ("complex fish", form, k, finned, id(grid.t))
    for d in range(grid.size) if digits is None else [x - 1 for x in digits]:
        where = grid.where[d]
        if not where or barren((tag, where)):
            continue
        for base_pool, cover_pool in _pools(grid, form):
            for fish in fishes(grid, d, k, base_pool, cover_pool, max_fins=MAX_FINS if finned else 0):
                if classify(grid, fish) != form or bool(fish.fins) != finned:
                    continue
                yield fish_step(grid, fish, name, fish.eliminations, fish.fins)
                where = 0
        if where:
            mark_barren((tag, where))


def iter_franken_fish(grid: CandidateGrid, sizes: Sequence[int] = (2, 3, 4)) -> Iterator[Step]:
    """Every Franken fish, plain then finned, smallest first."""
    return distinct(
        step
        for k in sizes
        for finned in (False, True)
        for step in iter_fish(grid, "Franken", k, finned=finned)
    )


def iter_mutant_fish(grid: CandidateGrid, sizes: Sequence[int] = (2, 3, 4)) -> Iterator[Step]:
    """Every Mutant fish, plain then finned, smallest first."""
    return distinct(
        step
        for k in sizes
        for finned in (False, True)
        for step in iter_fish(grid, "Mutant", k, finned=finned)
    )


def find_franken_fish(grid: CandidateGrid) -> Step | None:
    return next(iter_franken_fish(grid), None)


def find_mutant_fish(grid: CandidateGrid) -> Step | None:
    return next(iter_mutant_fish(grid), None)


def iter_siamese_fish(
    grid: CandidateGrid,
    sizes: Sequence[int] = (2, 3, 4),
    digits: Sequence[int] | None = None,
    forms: Sequence[str] = ("Basic", "Franken"),
) -> Iterator[Step]:
    """Two finned (or sashimi) fish of one form on the same base houses with different covers and
    different eliminations, shown as one step."""
    t = grid.t
    out: list[Step] = []
    for form in forms:
        pools = [(t.rows, t.columns), (t.columns, t.rows)] if form == "Basic" else _pools(grid, form)
        for k in sizes:
            # a digit's fish depend on its places alone: places searched in vain are skipped
            tag = ("siamese", form, k, id(t))
            for d in range(grid.size) if digits is None else [x - 1 for x in digits]:
                where = grid.where[d]
                if not where or barren((tag, where)):
                    continue
                before = len(out)
                for base_pool, cover_pool in pools:
                    by_base: dict[tuple[int, ...], list[Fish]] = {}
                    for fish in fishes(grid, d, k, base_pool, cover_pool, max_fins=MAX_FINS):
                        if fish.fins and classify(grid, fish) == form:
                            by_base.setdefault(fish.base, []).append(fish)
                    for group in by_base.values():
                        out += _siamese(grid, form, k, group)
                if len(out) == before:
                    mark_barren((tag, where))
    return distinct(out)


def _siamese(grid: CandidateGrid, form: str, k: int, group: list[Fish]) -> Iterator[Step]:
    for i, first in enumerate(group):
        for second in group[i + 1 :]:
            if first.eliminations == second.eliminations:
                continue
            if form == "Basic":
                # sashimi only when both fish are: with one plainly finned, the pair is finned
                sashimi = _sashimi(grid, first) and _sashimi(grid, second)
                name = f"Siamese {'Sashimi' if sashimi else 'Finned'} {FISH_NAMES[k]}"
            else:
                name = f"Siamese {fish_name(form, k, finned=True)}"
            both = Fish(
                first.digit,
                first.base,
                tuple(dict.fromkeys(first.cover + second.cover)),
                first.base_cells,
                first.fins | second.fins,
                first.eliminations | second.eliminations,
            )
            yield fish_step(grid, both, name, both.eliminations, both.fins)


def _sashimi(grid: CandidateGrid, fish: Fish) -> bool:
    """Whether some base line has at most one place left inside the cover (the rest are fins)."""
    hb = grid.t.house_bits
    cover = 0
    for h in fish.cover:
        cover |= hb[h]
    return any((fish.base_cells & hb[h] & cover).bit_count() <= 1 for h in fish.base)


def find_siamese_fish(grid: CandidateGrid) -> Step | None:
    return next(iter_siamese_fish(grid), None)


def iter_fish_steps(
    grid: CandidateGrid, form: str, size: int, *, finned: bool, siamese: bool = True
) -> Iterator[Step]:
    """Every step of the technique of one form (``"Franken"`` or ``"Mutant"``), size and finness:
    for a finned one, then (``siamese``) the Siamese ones of the form and size. The solving path
    chooses without the Siamese ones, as HoDoKu's solver does. The techniques' table registers
    one finder per form, size and finness (:mod:`shudu.logic.table`)."""
    found: Iterator[Step] = iter_fish(grid, form, size, finned=finned)
    if finned and siamese:
        found = itertools.chain(found, iter_siamese_fish(grid, (size,), forms=(form,)))
    return distinct(found)
