"""Following an assumption: singles (and a few basic rules) applied until nothing changes.

:func:`settle` is the engine of forcing chains and nets, run once per candidate, so it is the
hottest code of the rating. It works in rounds: each round finds *every* single of the grid as it
stands (naked and hidden), then places them all, so the count of deductions before a contradiction
depends only on the grid, never on the order cells are numbered in (two isomorphs of a puzzle get
the same counts, hence the same chain lengths and ratings). It remembers which cells and which
(house, digit) pairs changed since it last looked and looks only there. When a round finds no
single, the first of the extra rules that applies makes one deduction.

The rules it may follow besides singles (for forcing nets) are in :mod:`netrules`.

When the C core runs (:mod:`shudu._backend`), :func:`settle` runs there (``settle`` of
``shudu._core_c``, ``logic/core/settle.c``) for every geometry of at most 128 cells, 64 houses
and 16 digits, with no rule or a prefix of :data:`netrules.NET_RULES`; the Python code below is
its specification and is used otherwise. The outcome is the same either way.
``SHUDU_IMPLEMENTATION=python`` keeps it, and every other loop of the logic engine that has a C
twin (they all ask :func:`c_core`), in Python; a test may set :data:`USE_C` to False for the
same within one process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import cache, lru_cache
from types import ModuleType
from typing import Any

from ... import _backend
from ...geometry import Geometry
from .grid import TABLES_CACHE_SIZE, CandidateGrid, bits, tables

#: A rule besides singles: the eliminations ``(cell, digit)`` of its first step, or none.
Rule = Callable[[CandidateGrid], Sequence[tuple[int, int]]]


@dataclass
class Outcome:
    """Where an assumption leads: the grid after it (None: a contradiction) and how many
    deductions it took to get there."""

    grid: CandidateGrid | None
    steps: int
    #: Per digit, the cells the assumption filled with it (computed when first asked for).
    planes: list[int] | None = None


#: What :func:`settle` returns when it stops at ``limit`` deductions without a contradiction.
STOPPED = Outcome(None, -1)

#: The codes the C core's settle loops return: settled, a contradiction, stopped.
C_SETTLED, C_BROKEN, C_STOPPED = 0, 1, 2


@cache
def _house_masks(geometry: Geometry) -> tuple[int, ...]:
    """Per cell, its houses as a bitmask of house indices."""
    return tuple(sum(1 << h for h in hs) for hs in geometry.cell_houses)


#: The C core when it runs (:mod:`shudu._backend` chooses, for the solvers and this engine alike).
_core: ModuleType | None = _backend.CORE
#: Whether the logic engine's loops may run in the C core: whether it runs, unless a test
#: turns it off within its process to compare the two.
USE_C: bool = _core is not None
#: The C tables' limits (cells in two 64-bit words, houses in one, digits in 16 bits).
_C_MAX_CELLS, _C_MAX_HOUSES, _C_MAX_DIGITS = 128, 64, 16
#: How many of the C core's rules each rule sequence is (-1: not a prefix of them).
_prefixes: dict[Any, int] = {}
_PREFIXES_KEPT = 64
#: The rules the C core follows, in its order (see :func:`declare_c_rules`).
_c_rules: tuple[Rule, ...] = ()
#: The geometry :func:`settle` ran on last and its C tables (None: not for the C core), one
#: tuple replaced whole, so that threads never pair one geometry with another's tables.
_last: tuple[Geometry | None, object | None] = (None, None)


def c_core() -> ModuleType | None:
    """The C core when the logic engine's loops may use it (it runs, and :data:`USE_C`), else
    None."""
    return _core if USE_C else None


def c_tables(geometry: Geometry) -> object | None:
    """The C core's tables of a geometry (a capsule) when the C path may take it, else None."""
    return _c_tables(geometry) if USE_C else None


def start_grid(geometry: Geometry, values: Sequence[int]) -> CandidateGrid:
    """:meth:`CandidateGrid.from_values` (all placed digits given), built by the C core where
    it takes the geometry and a cell's peers are its houses' cells
    (:func:`~shudu.logic.engine.grid.start_py` is the specification)."""
    capsule = c_tables(geometry)
    if capsule is None or tables(geometry).has_links:
        return CandidateGrid.from_values(geometry, values)
    core = c_core()
    assert core is not None
    own = list(values)
    return CandidateGrid.of_parts(geometry, own, *core.start(capsule, own))


@lru_cache(maxsize=TABLES_CACHE_SIZE)
def _c_tables(geometry: Geometry) -> object | None:
    """The C core's tables of a geometry (a capsule), or None where the C path cannot go."""
    core = _core
    t = tables(geometry)
    if (
        core is None
        or geometry.size > _C_MAX_DIGITS
        or geometry.ncells > _C_MAX_CELLS
        or len(t.house_bits) > _C_MAX_HOUSES
    ):
        return None
    boxlike = [house.kind in ("box", "region") for house in geometry.houses]
    try:
        capsule: object = core.settle_tables(
            geometry.size, t.house_bits, t.peer_bits, geometry.cell_houses, boxlike, t.overlaps
        )
    except ValueError:  # a shape beyond what the C tables hold
        return None
    return capsule


def declare_c_rules(rules: tuple[Rule, ...]) -> None:
    """Name the rules the C core follows, in its order (:mod:`netrules` declares ``NET_RULES``:
    pointing, claiming, naked pair, hidden pair)."""
    global _c_rules
    _c_rules = rules
    _prefixes.clear()


def _net_prefix(rules: Sequence[Rule]) -> int:
    """How many of the C core's rules ``rules`` is, or -1 if it is anything else."""
    if not rules:
        return 0
    if len(rules) > len(_c_rules):
        return -1
    try:
        return _prefixes[rules]
    except (KeyError, TypeError):
        pass
    n = len(rules)
    count = n if tuple(rules) == _c_rules[:n] else -1
    if len(_prefixes) < _PREFIXES_KEPT:
        with suppress(TypeError):  # an unhashable sequence: asked again next time
            _prefixes[rules] = count
    return count


def c_settle(geometry: Geometry, rules: Sequence[Rule]) -> tuple[ModuleType, object, int] | None:
    """(the C core, the geometry's C tables, the count of its rules ``rules`` is) when
    :func:`settle` with ``rules`` runs in the C core on ``geometry``, else None: for the C loops
    that call that settle loop themselves."""
    capsule = c_tables(geometry)
    nrules = _net_prefix(rules) if capsule is not None else -1
    if nrules < 0:
        return None
    assert _core is not None
    return _core, capsule, nrules


def is_quiet(grid: CandidateGrid) -> bool:
    """Whether ``grid`` has no single to place and no visible contradiction."""
    ones = twos = 0
    for plane in grid.where:
        twos |= ones & plane
        ones |= plane
    if grid.empty & ~(ones & ~twos) != grid.empty:
        return False
    where, placed = grid.where, grid.placed
    for h, hbits in enumerate(grid.t.house_bits):
        for d in bits(((1 << grid.size) - 1) & ~placed[h]):
            spots = where[d] & hbits
            if not spots & (spots - 1):
                return False
    return True


def settle(
    grid: CandidateGrid,
    rules: Sequence[Rule] = (),
    *,
    start: tuple[int, int] | None = None,
    quiet: bool = False,
    limit: int = 0,
) -> Outcome:
    """Apply singles (and ``rules``) to ``grid`` in place until nothing changes or it breaks.

    ``start`` is a placement made first and not counted (the assumption). ``quiet`` promises that
    ``grid`` has no single and no contradiction before it, so only what ``start`` changes needs a
    look. With ``limit``, stop with :data:`STOPPED` once that many deductions found no
    contradiction. A contradiction found in a round counts that round's singles.
    """
    global _last
    if USE_C and limit >= 0:
        last = _last
        if grid.geometry is not last[0]:  # the tables of the geometry used last, at hand
            last = _last = (grid.geometry, _c_tables(grid.geometry))
        capsule = last[1]
        nrules = _net_prefix(rules) if capsule is not None else -1
        cell, digit = start if start is not None else (-1, 0)
        if nrules >= 0 and (start is None or (0 <= cell < len(grid.cands) and 1 <= digit <= grid.size)):
            assert _core is not None
            code, steps, grid.empty = _core.settle(
                capsule, grid.cands, grid.where, grid.placed, grid.values, grid.empty,
                cell, digit, quiet, limit, nrules,
            )  # fmt: skip
            if code == C_SETTLED:
                return Outcome(grid, steps)
            return STOPPED if code == C_STOPPED else Outcome(None, steps)
    return _settle_py(grid, rules, start=start, quiet=quiet, limit=limit)


def _settle_py(
    grid: CandidateGrid,
    rules: Sequence[Rule] = (),
    *,
    start: tuple[int, int] | None = None,
    quiet: bool = False,
    limit: int = 0,
) -> Outcome:
    """:func:`settle` in Python: the specification of the C core's."""
    dirty = _Dirty(grid, quiet)
    cands = grid.cands
    if start is not None:
        dirty.place(*start)
    count = 0
    try:
        while True:
            # one round: every single of the current grid, found before any is placed
            found = dirty.singles()
            if found is None:
                return Outcome(None, count)
            if _CLASH in found:  # one cell is the only place of two digits
                return Outcome(None, count + len(found) - 1)
            if found:
                count += len(found)
                for cell, digit in found.items():
                    if not cands[cell] >> (digit - 1) & 1:
                        return Outcome(None, count)  # two singles of the round clash
                    dirty.place(cell, digit)
                if limit and count >= limit:
                    return STOPPED
                continue
            grid.empty = dirty.empty
            if not dirty.apply_rule(rules):
                return Outcome(grid, count)
            count += 1
            if limit and count >= limit:
                return STOPPED
    finally:
        grid.empty = dirty.empty


#: The key :meth:`_Dirty.singles` adds when one cell is the only place of two digits.
_CLASH = -1


class _Dirty:
    """What :func:`_settle_py` has still to look at on ``grid``: the cells (``dcells``) and the
    houses (``hdirty``, and per house the digits ``dh``) changed since their last look, and the
    open cells; it places digits and removes candidates on the grid, keeping them up to date."""

    __slots__ = (
        "cands", "cell_houses", "dcells", "dh", "empty", "grid", "hb", "hdirty", "hmask", "peer_bits",
        "placed", "values", "where",
    )  # fmt: skip

    def __init__(self, grid: CandidateGrid, quiet: bool) -> None:
        self.grid = grid
        self.cands, self.where, self.values, self.placed = grid.cands, grid.where, grid.values, grid.placed
        self.hb, self.peer_bits = grid.t.house_bits, grid.t.peer_bits
        self.cell_houses = grid.geometry.cell_houses
        self.hmask = _house_masks(grid.geometry)
        nh = len(grid.t.house_bits)
        if quiet:
            self.dcells = self.hdirty = 0
            self.dh = [0] * nh
        else:
            self.dcells = grid.empty
            self.hdirty = (1 << nh) - 1
            self.dh = [(1 << grid.size) - 1] * nh
        self.empty = grid.empty

    def place(self, cell: int, digit: int) -> None:
        """Puts ``digit`` in ``cell`` and takes it from the cell's peers."""
        cands, hmask, dh, where, placed = self.cands, self.hmask, self.dh, self.where, self.placed
        bit = 1 << cell
        own = cands[cell]
        for e in bits(own):
            where[e] &= ~bit
        d = digit - 1
        dbit = 1 << d
        for h in self.cell_houses[cell]:
            placed[h] |= dbit
            dh[h] |= own
        mine = hmask[cell]
        self.hdirty |= mine
        cands[cell] = 0
        self.values[cell] = digit
        self.empty &= ~bit
        seen = where[d] & self.peer_bits[cell]
        if seen:
            where[d] &= ~seen
            self.dcells |= seen
            touched = 0
            keep = ~dbit
            while seen:
                low = seen & -seen
                peer = low.bit_length() - 1
                seen ^= low
                cands[peer] &= keep
                touched |= hmask[peer]
            touched &= ~mine
            self.hdirty |= touched
            while touched:
                low = touched & -touched
                dh[low.bit_length() - 1] |= dbit
                touched ^= low

    def singles(self) -> dict[int, int] | None:
        """Every single of the changed cells and houses, by cell (with the key :data:`_CLASH`
        when a cell is the only place of two digits); None at a contradiction."""
        cands, empty = self.cands, self.empty
        found: dict[int, int] = {}
        clash = False
        dcells = self.dcells
        while dcells:
            low = dcells & -dcells
            dcells ^= low
            if not empty & low:
                continue
            cell = low.bit_length() - 1
            mask = cands[cell]
            if not mask:
                self.dcells = dcells
                return None
            if not mask & (mask - 1):
                found[cell] = mask.bit_length()
        self.dcells = 0
        where, placed, hb, dh = self.where, self.placed, self.hb, self.dh
        hdirty = self.hdirty
        while hdirty:
            hlow = hdirty & -hdirty
            hdirty ^= hlow
            h = hlow.bit_length() - 1
            hbits = hb[h]
            ds = dh[h] & ~placed[h]
            dh[h] = 0
            while ds:
                dlow = ds & -ds
                ds ^= dlow
                d = dlow.bit_length() - 1
                spots = where[d] & hbits
                if not spots:
                    self.hdirty = hdirty
                    return None
                if not spots & (spots - 1):
                    cell = spots.bit_length() - 1
                    clash |= found.setdefault(cell, d + 1) != d + 1
        self.hdirty = 0
        if clash:
            found[_CLASH] = 0
        return found

    def apply_rule(self, rules: Sequence[Rule]) -> bool:
        """Removes the candidates of the first rule of ``rules`` that has any; whether one had."""
        grid, cands, dh = self.grid, self.cands, self.dh
        for rule in rules:
            elims = rule(grid)
            if elims:
                for cell, digit in elims:
                    dbit = 1 << (digit - 1)
                    if cands[cell] & dbit:
                        cands[cell] &= ~dbit
                        self.where[digit - 1] &= ~(1 << cell)
                        self.dcells |= 1 << cell
                        for h in self.cell_houses[cell]:
                            dh[h] |= dbit
                        self.hdirty |= self.hmask[cell]
                return True
        return False


def value_planes(base: CandidateGrid, outcome: Outcome) -> list[int]:
    """Per digit, the cells open in ``base`` that the outcome's grid filled with that digit."""
    if outcome.planes is None:
        assert outcome.grid is not None
        planes = [0] * base.size
        values = outcome.grid.values
        for cell in bits(base.empty & ~outcome.grid.empty):
            planes[values[cell] - 1] |= 1 << cell
        outcome.planes = planes
    return outcome.planes
