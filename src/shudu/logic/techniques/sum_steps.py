"""Sum logic: the combinations a cage or sum can still take, digits a cage must hold, the 45 rule.

Every sum the rules compile to (a killer cage, a sum, a little killer, an arrow or pill, a double
arrow, a region-sum or zipper line) is a :class:`~shudu.rules.WeightedSum`. Its fitting
assignments (:func:`~shudu.logic.techniques.rule_fit.sum_fit`) decide each step:

- **Sum combinations**: a digit no fitting assignment puts in a cell goes;
- **Cage forced digit**: a digit that every combination holds is somewhere in the sum, so a cell
  that sees every place of it in the sum cannot hold it;
- **45 rule**: rows, columns and boxes hold 1 … n once each, so the cells of up to three of
  them that no cage inside covers (innies), or the cells of the cages across them that stick out
  (outies), add up to what the cages leave; when one or two such cells are open, that sum acts as
  a cage of its own.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from functools import lru_cache

from ...notation import digit_char
from ..engine.grid import CandidateGrid, and_list, bits
from ..engine.step import Step, make_step
from .rule_fit import SumFit, sum_bounds, sum_fit

__all__ = [
    "find_cage_forced_digit",
    "find_forty_five",
    "find_sum_combinations",
    "iter_cage_forced_digit",
    "iter_forty_five",
    "iter_sum_combinations",
]

#: How many combinations an explanation lists before it says how many there are.
SHOWN = 6


def _combos_text(fit: SumFit) -> str:
    shown = ["+".join(digit_char(d) for d in combo) for combo in fit.combos[:SHOWN]]
    if len(fit.combos) > SHOWN:
        return f"{len(fit.combos)} combinations ({', '.join(shown)}, …)"
    return " or ".join(shown) if len(shown) <= 2 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _unit(coeffs: Sequence[int]) -> bool:
    return all(c == 1 for c in coeffs)


def _fit_eliminations(grid: CandidateGrid, fit: SumFit) -> list[tuple[int, int]]:
    return [
        (cell, d + 1)
        for cell, used in zip(fit.cells, fit.used, strict=True)
        for d in bits(grid.cands[cell] & ~used)
    ]


def _subject(grid: CandidateGrid, cells: Sequence[int], all_cells: Sequence[int], words: str) -> str:
    """``the killer cage r1c1-r1c2 (total 3)``, or ``the open cells r1c1 and r1c2 of the …``
    when some of its cells are placed."""
    if len(cells) == len(set(all_cells)):
        return f"the {words}"
    return f"the open cells {grid.names(list(cells))} of the {words}"


def iter_sum_combinations(grid: CandidateGrid) -> Iterator[Step]:
    """Per sum, the digits no fitting assignment of its open cells uses."""
    rules = grid.t.rules
    if rules is None:
        return
    for index, kind in rules.sums:
        fit = sum_fit(grid, kind.cells, kind.coeffs, kind.total, distinct=kind.distinct)
        words = rules.items[index].words
        if fit is None:  # too many ways to list: the sum's bounds
            bounded = sum_bounds(grid, kind)
            if bounded:
                yield make_step(
                    grid,
                    "Cage combinations" if kind.distinct else "Sum combinations",
                    f"the least and the most the other cells of the {words} can add up to "
                    "leave these digits out",
                    eliminations=bounded,
                    cells=[c for c in kind.cells if not grid.values[c]],
                    digits=sorted({d for _, d in bounded}),
                )
            continue
        if not fit.combos:
            continue
        elims = _fit_eliminations(grid, fit)
        if not elims:
            continue
        if _unit(kind.coeffs):
            reason = f"{_subject(grid, fit.cells, kind.cells, words)} can only hold {_combos_text(fit)}"
        else:
            subject = _subject(grid, fit.cells, kind.cells, words)
            reason = f"of the ways to fill {subject}, none uses these digits"
        yield make_step(
            grid,
            "Cage combinations" if kind.distinct else "Sum combinations",
            reason,
            eliminations=elims,
            cells=fit.cells,
            digits=sorted({d for _, d in elims}),
        )


def find_sum_combinations(grid: CandidateGrid) -> Step | None:
    return next(iter_sum_combinations(grid), None)


def _seeing_all(grid: CandidateGrid, places: int) -> int:
    seen = -1
    for cell in bits(places):
        seen &= grid.t.peer_bits[cell]
    return seen & ~places


def iter_cage_forced_digit(grid: CandidateGrid) -> Iterator[Step]:
    """A digit every combination of a sum holds lies on one of its places there: a cell that sees
    them all cannot hold it."""
    rules = grid.t.rules
    if rules is None:
        return
    for index, kind in rules.sums:
        fit = sum_fit(grid, kind.cells, kind.coeffs, kind.total, distinct=kind.distinct)
        if fit is None or not fit.combos:
            continue
        required = -1
        for combo in fit.combos:
            held = 0
            for d in combo:  # a sum's digits may repeat
                held |= 1 << (d - 1)
            required &= held
        open_cells = sum(1 << c for c in fit.cells)
        for d in bits(required & ((1 << grid.size) - 1)):
            places = grid.where[d] & open_cells
            if not places:
                continue
            out = _seeing_all(grid, places) & grid.where[d]
            if not out:
                continue
            words = rules.items[index].words
            yield make_step(
                grid,
                "Cage forced digit",
                f"every combination left to {_subject(grid, fit.cells, kind.cells, words)} "
                f"({_combos_text(fit)}) holds {digit_char(d + 1)}, which can only go in "
                f"{grid.names(places)} there",
                eliminations=[(cell, d + 1) for cell in bits(out)],
                cells=list(bits(places)),
                digits=[d + 1],
            )


def find_cage_forced_digit(grid: CandidateGrid) -> Step | None:
    return next(iter_cage_forced_digit(grid), None)


# --- the 45 rule ---------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _unions(
    house_bits: tuple[int, ...], kinds: tuple[tuple[int, ...], ...]
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every union of one to three houses of one kind (rows, columns, boxes) that do not
    overlap: (the houses, their cells)."""
    out = []
    for group in kinds:
        for k in (1, 2, 3):
            for houses in itertools.combinations(group, k):
                cells = 0
                ok = True
                for h in houses:
                    if cells & house_bits[h]:
                        ok = False
                        break
                    cells |= house_bits[h]
                if ok:
                    out.append((houses, cells))
    return tuple(out)


def _house_words(grid: CandidateGrid, houses: Sequence[int]) -> str:
    return and_list([grid.geometry.houses[h].name for h in houses])


def iter_forty_five(grid: CandidateGrid) -> Iterator[Step]:
    """Innies and outies of unions of one to three rows, columns or boxes."""
    rules = grid.t.rules
    if rules is None or not rules.unit_sums:
        return
    t = grid.t
    n = grid.size
    full = n * (n + 1) // 2
    sums = rules.unit_sums
    for houses, region in _unions(t.house_bits, (t.rows, t.columns, t.boxes)):
        total = full * len(houses)
        inside, inside_total, crossing = 0, 0, []
        for index, cells, s in sums:
            if cells & region == cells:
                if not cells & inside:
                    inside |= cells
                    inside_total += s
            elif cells & region:
                crossing.append((index, cells, s))
        innies = region & ~inside
        if innies and (innies & grid.empty).bit_count() <= 2 and innies & grid.empty:
            yield from _derived(
                grid,
                houses,
                innies,
                total - inside_total,
                f"the cages inside add up to {inside_total}, so the innies {grid.names(innies)} "
                f"add up to {total - inside_total}",
                "45 rule (innies)",
            )
        if not innies:
            continue
        # outies: cages across the border that, with those inside, cover the region
        covered, cover_total = inside, inside_total
        for _, cells, s in crossing:
            if not cells & covered:
                covered |= cells
                cover_total += s
        if covered & region != region:
            continue
        outies = covered & ~region
        if outies and 0 < (outies & grid.empty).bit_count() <= 2:
            yield from _derived(
                grid,
                houses,
                outies,
                cover_total - total,
                f"the cages over them add up to {cover_total}, so the outies {grid.names(outies)} "
                f"add up to {cover_total - total}",
                "45 rule (outies)",
            )


def _derived(
    grid: CandidateGrid, houses: Sequence[int], cells: int, total: int, reason: str, name: str
) -> Iterator[Step]:
    listed = list(bits(cells))
    fit = sum_fit(grid, listed, (1,) * len(listed), total, distinct=False)
    if fit is None or not fit.combos:
        return
    elims = _fit_eliminations(grid, fit)
    if not elims:
        return
    n = grid.size
    yield make_step(
        grid,
        name,
        f"{_house_words(grid, houses)} hold{'s' if len(houses) == 1 else ''} "
        f"{'each digit once' if len(houses) == 1 else 'each digit ' + str(len(houses)) + ' times'} "
        f"({n * (n + 1) // 2 * len(houses)} in all); {reason}: {_combos_text(fit)}",
        eliminations=elims,
        cells=listed,
        houses=[grid.geometry.houses[h].name for h in houses],
    )


def find_forty_five(grid: CandidateGrid) -> Step | None:
    return next(iter_forty_five(grid), None)
