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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..notation import digit_char
from .budget import checkpoint
from .grid import CandidateGrid, CellSet, bits
from .memo import barren, mark_barren
from .propagate import c_core, c_tables
from .step import Step, distinct, make_step

SIZE_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
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
    where = grid.where[d]
    hb = grid.t.house_bits
    peer_bits = grid.t.peer_bits
    cell_houses = grid.geometry.cell_houses
    cover_ok = set(cover_pool)
    pool = [(h, where & hb[h]) for h in base_pool if where & hb[h]]
    found: list[Fish] = []

    def covers(
        base: tuple[int, ...],
        base_cells: CellSet,
        chosen: list[int],
        union: CellSet,
        fins: CellSet,
        reach: CellSet,
        banned: int,
    ) -> None:
        # ``reach``: the places of the digit that see every fin so far (all of them with no fin);
        # ``banned``: houses (as bits) left out here because an earlier branch took them
        left = base_cells & ~union & ~fins
        if len(chosen) == k:
            for fin in bits(left):
                if fins.bit_count() >= max_fins:
                    return
                fins |= 1 << fin
                reach &= peer_bits[fin]
            if not fins or reach:
                finish(base, base_cells, chosen, union, fins)
            return
        if not left:
            return
        low = left & -left
        cell = low.bit_length() - 1
        for h in cell_houses[cell]:
            if h in cover_ok and h not in base and not banned >> h & 1 and h not in chosen:
                chosen.append(h)
                covers(base, base_cells, chosen, union | hb[h], fins, reach, banned)
                chosen.pop()
                # every cover with h has been seen: the branches after this one go without it
                banned |= 1 << h
        if fins.bit_count() < max_fins:
            narrowed = reach & peer_bits[cell]
            if narrowed:
                # a fin is a place no cover holds
                for h in cell_houses[cell]:
                    banned |= 1 << h
                covers(base, base_cells, chosen, union, fins | low, narrowed, banned)

    def finish(
        base: tuple[int, ...], base_cells: CellSet, chosen: list[int], union: CellSet, fins: CellSet
    ) -> None:
        targets = where & union & ~base_cells
        twice = 0
        once = 0
        for h in chosen:
            inside = base_cells & hb[h]
            twice |= once & inside
            once |= inside
        targets |= twice & ~fins
        for fin in bits(fins):
            targets &= peer_bits[fin]
        if targets:
            found.append(Fish(d, base, tuple(sorted(chosen)), base_cells, fins, targets))

    def bases(start: int, base: list[int], cells: CellSet, endo: CellSet) -> Iterator[Fish]:
        if len(base) == k:
            checkpoint()
            reach = where
            for fin in bits(endo):
                reach &= peer_bits[fin]
            if reach:
                covers(tuple(base), cells, [], 0, endo, reach, 0)
                yield from found
                found.clear()
            return
        for i in range(start, len(pool) - (k - len(base)) + 1):
            h, spots = pool[i]
            shared = endo | spots & cells
            if shared.bit_count() > MAX_ENDO_FINS or shared.bit_count() > max_fins:
                continue
            base.append(h)
            yield from bases(i + 1, base, cells | spots, shared)
            base.pop()

    return bases(0, [], 0, 0)


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
    name = f"{'Finned ' if finned else ''}{form} {SIZE_NAMES[k]}"
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
                name = f"Siamese {'Sashimi' if sashimi else 'Finned'} {SIZE_NAMES[k]}"
            else:
                name = f"Siamese Finned {form} {SIZE_NAMES[k]}"
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


# --- one finder per technique of the catalog: form, size and fins ---------------------------------


def find_franken_x_wing(grid: CandidateGrid) -> Step | None:
    return next(iter_fish(grid, "Franken", 2, finned=False), None)


def iter_franken_x_wing(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(iter_fish(grid, "Franken", 2, finned=False))


def find_finned_franken_x_wing(grid: CandidateGrid) -> Step | None:
    return next(iter_fish(grid, "Franken", 2, finned=True), None)


def iter_finned_franken_x_wing(grid: CandidateGrid) -> Iterator[Step]:
    """Finned and Siamese Finned Franken X-Wing steps."""
    return distinct(
        itertools.chain(
            iter_fish(grid, "Franken", 2, finned=True), iter_siamese_fish(grid, (2,), forms=("Franken",))
        )
    )


def _path_listing(k: int) -> Callable[[CandidateGrid], Iterator[Step]]:
    """What the solving path chooses from among a finned Franken fish's steps: the Siamese ones
    are for the listing only, as in HoDoKu's solver."""

    def every(grid: CandidateGrid) -> Iterator[Step]:
        return distinct(iter_fish(grid, "Franken", k, finned=True))

    return every


find_finned_franken_x_wing.every = _path_listing(2)  # type: ignore[attr-defined]


def find_franken_swordfish(grid: CandidateGrid) -> Step | None:
    return next(iter_fish(grid, "Franken", 3, finned=False), None)


def iter_franken_swordfish(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(iter_fish(grid, "Franken", 3, finned=False))


def find_finned_franken_swordfish(grid: CandidateGrid) -> Step | None:
    return next(iter_fish(grid, "Franken", 3, finned=True), None)


find_finned_franken_swordfish.every = _path_listing(3)  # type: ignore[attr-defined]


def iter_finned_franken_swordfish(grid: CandidateGrid) -> Iterator[Step]:
    """Finned and Siamese Finned Franken Swordfish steps."""
    return distinct(
        itertools.chain(
            iter_fish(grid, "Franken", 3, finned=True), iter_siamese_fish(grid, (3,), forms=("Franken",))
        )
    )


def find_franken_jellyfish(grid: CandidateGrid) -> Step | None:
    return next(iter_fish(grid, "Franken", 4, finned=False), None)


def iter_franken_jellyfish(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(iter_fish(grid, "Franken", 4, finned=False))


def find_finned_franken_jellyfish(grid: CandidateGrid) -> Step | None:
    return next(iter_fish(grid, "Franken", 4, finned=True), None)


def iter_finned_franken_jellyfish(grid: CandidateGrid) -> Iterator[Step]:
    """Finned and Siamese Finned Franken Jellyfish steps."""
    return distinct(
        itertools.chain(
            iter_fish(grid, "Franken", 4, finned=True), iter_siamese_fish(grid, (4,), forms=("Franken",))
        )
    )


def find_mutant_x_wing(grid: CandidateGrid) -> Step | None:
    return next(iter_fish(grid, "Mutant", 2, finned=False), None)


def iter_mutant_x_wing(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(iter_fish(grid, "Mutant", 2, finned=False))


def find_finned_mutant_x_wing(grid: CandidateGrid) -> Step | None:
    return next(iter_fish(grid, "Mutant", 2, finned=True), None)


def iter_finned_mutant_x_wing(grid: CandidateGrid) -> Iterator[Step]:
    """Finned and Siamese Finned Mutant X-Wing steps."""
    return distinct(
        itertools.chain(
            iter_fish(grid, "Mutant", 2, finned=True), iter_siamese_fish(grid, (2,), forms=("Mutant",))
        )
    )


def find_mutant_swordfish(grid: CandidateGrid) -> Step | None:
    return next(iter_fish(grid, "Mutant", 3, finned=False), None)


def iter_mutant_swordfish(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(iter_fish(grid, "Mutant", 3, finned=False))


def find_finned_mutant_swordfish(grid: CandidateGrid) -> Step | None:
    return next(iter_fish(grid, "Mutant", 3, finned=True), None)


def iter_finned_mutant_swordfish(grid: CandidateGrid) -> Iterator[Step]:
    """Finned and Siamese Finned Mutant Swordfish steps."""
    return distinct(
        itertools.chain(
            iter_fish(grid, "Mutant", 3, finned=True), iter_siamese_fish(grid, (3,), forms=("Mutant",))
        )
    )


def find_mutant_jellyfish(grid: CandidateGrid) -> Step | None:
    return next(iter_fish(grid, "Mutant", 4, finned=False), None)


def iter_mutant_jellyfish(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(iter_fish(grid, "Mutant", 4, finned=False))


def find_finned_mutant_jellyfish(grid: CandidateGrid) -> Step | None:
    return next(iter_fish(grid, "Mutant", 4, finned=True), None)


def iter_finned_mutant_jellyfish(grid: CandidateGrid) -> Iterator[Step]:
    """Finned and Siamese Finned Mutant Jellyfish steps."""
    return distinct(
        itertools.chain(
            iter_fish(grid, "Mutant", 4, finned=True), iter_siamese_fish(grid, (4,), forms=("Mutant",))
        )
    )
