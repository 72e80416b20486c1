"""The lines of a forcing chain or net: what an assumption implies, each line with its causes.

:func:`settle` finds *that* an assumption breaks the grid (or what it leads to) as fast as it can;
once a forcing step is chosen, :class:`Trace` follows its assumptions again, slowly, recording for
every placement and elimination the earlier lines that caused it and the rule that did. The branch
shown to a player is then pruned to the lines the conclusion needs.

Like :func:`settle`, the trace works in rounds: every single of the grid as it stands is found
before any is placed. Of a placement's reasons (a naked single, a hidden single in one house or
another) it keeps the one that needs the fewest lines; a candidate that several placements of the
round remove cites them all; of the contradictions a round meets (a cell without candidates, a
house without a place for a digit, two singles that clash) it reports the one that needs the
fewest lines. So the branch's size, which rates the step, does not depend on the order the
grid's cells are numbered in.

A line's causes are exact: applying just those lines to the board before the assumption, the rule
named gives the line (a naked single's other candidates are gone; a hidden single's other places
are gone; a candidate goes because a peer holds its digit; a basic technique's pattern holds).

The C core follows an assumption the same way (``trace``, where its settle loop follows the
rules): the same lines, causes and rules, in the same order. The Python code here is its
specification (:meth:`Trace.run_py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType

from ...geometry import Geometry
from ...notation import digit_char
from .budget import c_limits, c_spent
from .chain_structure import Branch, Implication
from .grid import CandidateGrid, and_list, bits
from .propagate import C_STOPPED, Rule, c_settle

Candidate = tuple[int, int]  # (cell, digit 1..n)


class Trace:
    """One assumption followed with singles and ``rules`` on a copy of ``base``, every line kept."""

    def __init__(self, base: CandidateGrid, rules: Sequence[Rule] = (), *, keep: bool = True) -> None:
        self.base = base
        self.rules = rules
        #: Whether the C core's trace gives back every line and which line settled each
        #: candidate (for :meth:`cause_of`); without it, where the grid breaks, only the lines
        #: of the contradiction's branch (renumbered), all that :meth:`branch` needs then.
        self.keep = keep
        self.grid = base.copy()
        self.lines: list[Implication] = []
        #: Per removed candidate, the line that removed it (a placement removes its cell's others).
        self.gone: dict[Candidate, int] = {}
        self.placed: dict[int, int] = {}
        #: Per line, the lines it needs (itself included) as a bit set.
        self.needs: list[int] = []
        #: The contradiction reached: its text and the lines that make it.
        self.broken: tuple[str, tuple[int, ...]] | None = None

    # --- recording ----------------------------------------------------------------------------

    def _add(self, cell: int, digit: int, on: bool, because: Sequence[int], rule: str) -> int:
        causes = tuple(sorted(set(because)))
        index = len(self.lines)
        self.lines.append(Implication(cell, digit, on, causes, rule))
        needs = 1 << index
        for c in causes:
            needs |= self.needs[c]
        self.needs.append(needs)
        return index

    def _size(self, causes: Sequence[int]) -> int:
        """How many lines these causes need, themselves included."""
        needs = 0
        for c in causes:
            needs |= self.needs[c]
        return needs.bit_count()

    def _place(self, cell: int, digit: int, because: Sequence[int], rule: str) -> None:
        """One placement on its own (the assumption)."""
        self._place_round({cell: (digit, list(because), rule)})

    def _place_round(self, found: dict[int, tuple[int, list[int], str]]) -> None:
        """Place a round's singles: a line each, then a line for each candidate they remove from
        their peers, citing every placement of the round that removes it."""
        grid = self.grid
        peer_bits = grid.t.peer_bits
        placed: dict[int, int] = {}
        for cell in sorted(found):
            digit, because, rule = found[cell]
            index = self._add(cell, digit, True, because, rule)
            placed[cell] = index
            self.placed[cell] = index
            for e in bits(grid.cands[cell]):
                if e != digit - 1:
                    self.gone[(cell, e + 1)] = index
        seen: dict[Candidate, list[int]] = {}
        taken = sum(1 << c for c in placed)
        for cell in sorted(placed):
            digit = found[cell][0]
            for peer in bits(grid.where[digit - 1] & peer_bits[cell] & ~taken):
                seen.setdefault((peer, digit), []).append(cell)
        for cell in sorted(placed):
            grid.place(cell, found[cell][0])
        for (peer, digit), by in sorted(seen.items()):
            rule = _sees(grid.geometry, sum(1 << c for c in by))
            self.gone[(peer, digit)] = self._add(peer, digit, False, [placed[c] for c in by], rule)

    def _eliminate(self, cell: int, digit: int, because: Sequence[int], rule: str) -> None:
        if self.grid.eliminate(cell, digit):
            self.gone[(cell, digit)] = self._add(cell, digit, False, because, rule)

    def _causes(self, cands: Sequence[Candidate]) -> list[int]:
        """The lines that removed these candidates (those the base grid still had)."""
        return [self.gone[c] for c in cands if c in self.gone]

    # --- following ----------------------------------------------------------------------------

    def run(self, cell: int, digit: int) -> None:
        """Assume ``digit`` in ``cell`` and follow until nothing changes or the grid breaks: in the
        C core (``trace``) where its settle loop follows the rules, else :meth:`run_py`, its
        specification. The same lines either way; the inner searches of a nested net's fifth
        rule count against the logic budget as :func:`~shudu.logic.techniques.forcing.forcing_net_inside`
        counts them."""
        c_args = _c_trace(self.base.geometry, self.rules)
        if c_args is None or self.lines or not self.base.has(cell, digit):
            self.run_py(cell, digit)
        else:
            self._run_c(*c_args, cell, digit)

    def _run_c(self, core: ModuleType, capsule: object, nrules: int, cell: int, digit: int) -> None:
        base = self.base
        seconds, nodes = c_limits() if nrules > _NET_NAMES else (-1.0, -1)
        code, settles, lines, broken, placed, gone = core.trace(
            capsule, base.cands, base.where, base.placed, base.values, base.empty,
            cell, digit, nrules, self.keep, seconds, nodes,
        )  # fmt: skip
        if settles >= 0:  # the fifth rule ran
            c_spent(settles, stopped=code == C_STOPPED)
        geometry, names = base.geometry, self._names()
        self.lines = [
            Implication(c, d, on, causes, _line_rule(geometry, names, kind, rule, house, cells, d, c))
            for c, d, on, causes, kind, rule, house, cells in lines
        ]
        if broken is not None:
            kind, a, b, causes = broken
            text = _no_candidate(base, a) if kind == 0 else _no_place(a + 1, geometry.houses[b].name)
            self.broken = (text, causes)
        if placed is not None:
            self.placed = {c: index for c, index in enumerate(placed) if index >= 0}
            n = base.size
            self.gone = {(k // n, k % n + 1): index for k, index in enumerate(gone) if index >= 0}
            for index, line in enumerate(self.lines):
                needs = 1 << index
                for c in line.because:
                    needs |= self.needs[c]
                self.needs.append(needs)

    def _names(self) -> tuple[str, ...]:
        """The rules' names, as a line's rule text gives them."""
        return tuple(
            getattr(rule, "__name__", "rule").removesuffix("_rule").replace("_", " ") for rule in self.rules
        )

    def run_py(self, cell: int, digit: int) -> None:
        """:meth:`run` in Python: the specification of the C core's ``trace``."""
        self._place(cell, digit, (), "assumption")
        while self.broken is None:
            if self._singles():
                continue
            # a round that broke the grid ends the trace: no rule runs after it
            if self.broken is not None or not self._rules():
                return

    def _singles(self) -> bool:
        """One round of singles (see the module's notes); False when there is none or the grid
        breaks."""
        grid, base = self.grid, self.base
        broken: list[tuple[int, str, list[int]]] = []
        #: per cell, per digit: its reason needing the fewest lines (causes, rule)
        offers: dict[int, dict[int, tuple[list[int], str]]] = {}

        def offer(cell: int, digit: int, because: list[int], rule: str) -> None:
            held = offers.setdefault(cell, {})
            if digit not in held or self._size(because) < self._size(held[digit][0]):
                held[digit] = (because, rule)

        # the open cells with one candidate or none: in no two digits' places
        seen_once = seen_twice = 0
        for w in grid.where:
            seen_twice |= seen_once & w
            seen_once |= w
        for cell in bits(grid.empty & ~seen_twice):
            mask = grid.cands[cell]
            others = [(cell, d + 1) for d in bits(base.cands[cell])]
            if not mask:
                causes = self._causes(others)
                broken.append((self._size(causes), _no_candidate(grid, cell), causes))
                continue
            digit = mask.bit_length()
            offer(cell, digit, self._causes([c for c in others if c[1] != digit]), "naked single")
        full = (1 << grid.size) - 1
        where, placed, houses = grid.where, grid.placed, grid.geometry.houses
        for h, hbits in enumerate(grid.t.house_bits):
            for d in bits(full & ~placed[h]):
                spots = where[d] & hbits
                if spots & (spots - 1):
                    continue
                causes = self._causes([(c, d + 1) for c in bits(base.where[d] & hbits & ~spots)])
                if not spots:
                    broken.append((self._size(causes), _no_place(d + 1, houses[h].name), causes))
                    continue
                offer(spots.bit_length() - 1, d + 1, causes, _hidden(grid.geometry, h))
        # singles that clash: a cell that is the only place of two digits, or two cells that must
        # take one digit and see each other; each costs the lines of both its reasons
        clashes: list[tuple[int, int, int, int, int]] = []  # (size, cell, digit, other cell, other digit)
        peer_bits = grid.t.peer_bits
        for cell, held in offers.items():
            for d1 in held:
                for d2 in held:
                    if d1 < d2:
                        needs = self._size(held[d1][0] + held[d2][0]) + 1
                        clashes.append((needs, cell, d1, cell, d2))
        ones = {cell: next(iter(held)) for cell, held in offers.items() if len(held) == 1}
        for a, da in ones.items():
            for b, db in ones.items():
                if a < b and da == db and peer_bits[a] >> b & 1:
                    needs = self._size(offers[a][da][0] + offers[b][db][0]) + 2
                    clashes.append((needs, a, da, b, db))
        best_broken = min(broken, key=lambda it: it[0]) if broken else None
        best_clash = min(clashes, key=lambda it: it[0]) if clashes else None
        if best_clash is not None and (best_broken is None or best_clash[0] < best_broken[0]):
            self._clash(offers, *best_clash[1:])
            return False
        if best_broken is not None:
            self.broken = (best_broken[1], tuple(best_broken[2]))
            return False
        if not offers:
            return False
        self._place_round({cell: (d, *held[d]) for cell, held in offers.items() for d in held})
        return True

    def _clash(
        self, offers: dict[int, dict[int, tuple[list[int], str]]], a: int, da: int, b: int, db: int
    ) -> None:
        """Record two singles that clash as the contradiction they make: the first placed, then
        the cell (or house) of the second left without its digit."""
        grid = self.grid
        because, rule = offers[a][da]
        index = self._add(a, da, True, because, rule)
        # a cell that is the only place of two digits holds the first: that removes the second
        gone = index if a == b else self._add(b, db, False, [index], _sees(grid.geometry, 1 << a))
        causes, why = offers[b][db]
        if why == "naked single":
            text = _no_candidate(grid, b)
        else:
            text = _no_place(db, why.removeprefix("hidden single in "))
        self.broken = (text, (*causes, gone))

    def _rules(self) -> bool:
        for rule in self.rules:
            elims = [(c, d) for c, d in rule(self.grid) if self.grid.has(c, d)]
            if not elims:
                continue
            because, name = self._pattern(rule, elims)
            for cell, digit in elims:
                self._eliminate(cell, digit, because, name)
            return True
        return False

    def _pattern(self, rule: Rule, elims: list[Candidate]) -> tuple[list[int], str]:
        """The lines that made a basic technique's pattern, found from its eliminations."""
        grid, base = self.grid, self.base
        hb = grid.t.house_bits
        cells = 0
        digits = 0
        for c, d in elims:
            cells |= 1 << c
            digits |= 1 << (d - 1)
        r = self.rules.index(rule)
        names = self._names()
        if digits & (digits - 1) == 0:
            # pointing or claiming: the digit's places in house a all lie in house b
            d = digits.bit_length() - 1
            for a, b, inter in grid.t.overlaps:
                if cells & ~hb[b] or cells & hb[a]:
                    continue
                inside = grid.where[d] & hb[a]
                if inside and not inside & ~inter:
                    others = [(c, d + 1) for c in bits(base.where[d] & hb[a] & ~inter)]
                    return self._causes(others), _line_rule(grid.geometry, names, LOCKED, r, a, 0, d + 1)
        for hbits in hb:
            open_here = list(bits(hbits & grid.empty))
            for i, a in enumerate(open_here):
                for b in open_here[i + 1 :]:
                    pair = (1 << a) | (1 << b)
                    union = grid.cands[a] | grid.cands[b]
                    if union.bit_count() == 2 and not digits & ~union and not cells & (pair | ~hbits):
                        # naked pair: the two cells' other candidates are gone
                        others = [(c, e + 1) for c in (a, b) for e in bits(base.cands[c] & ~union)]
                        text = _line_rule(grid.geometry, names, PAIR, r, -1, pair, 0, elims[0][0])
                        return self._causes(others), text
                    if not cells & ~pair:
                        kept = grid.cands[a] & grid.cands[b] & ~digits
                        ds = [d for d in bits(kept) if not grid.where[d] & hbits & ~pair]
                        if len(ds) >= 2:
                            # hidden pair: the two digits' other places in the house are gone
                            others = [(c, d + 1) for d in ds[:2] for c in bits(base.where[d] & hbits & ~pair)]
                            text = _line_rule(grid.geometry, names, PAIR, r, -1, pair, 0, elims[0][0])
                            return self._causes(others), text
        return list(range(len(self.lines))), names[r]

    # --- branches -----------------------------------------------------------------------------

    def cause_of(self, cell: int, digit: int, on: bool) -> int | None:
        """The line that settled a candidate: placed (``on``) or removed."""
        if on:
            index = self.placed.get(cell)
            return index if index is not None and self.lines[index].digit == digit else None
        return self.gone.get((cell, digit))

    def branch(self, ends: Sequence[int], contradiction: str = "") -> Branch:
        """The lines that ``ends`` need, in order, renumbered."""
        needed: set[int] = set()
        todo = [0, *ends]  # the assumption always heads the branch
        while todo:
            i = todo.pop()
            if i in needed:
                continue
            needed.add(i)
            todo.extend(self.lines[i].because)
        order = sorted(needed)
        new = {old: k for k, old in enumerate(order)}
        lines = tuple(
            Implication(line.cell, line.digit, line.on, tuple(new[j] for j in line.because), line.rule)
            for line in (self.lines[i] for i in order)
        )
        return Branch(lines, contradiction)


@lru_cache(maxsize=4096)
def _sees(geometry: Geometry, cells: int) -> str:
    """The rule of a candidate removed because it sees the placed ``cells``."""
    return f"sees {and_list([geometry.cell_name(c) for c in bits(cells)])}"


@lru_cache(maxsize=1024)
def _hidden(geometry: Geometry, house: int) -> str:
    return f"hidden single in {geometry.houses[house].name}"


def _no_candidate(grid: CandidateGrid, cell: int) -> str:
    return f"{grid.name(cell)} has no candidate left"


def _no_place(digit: int, house: str) -> str:
    return f"no place is left for {digit_char(digit)} in {house}"


#: The kinds of a line's rule, as the C core's ``trace`` numbers them.
ASSUMPTION, NAKED, HIDDEN, SEES, LOCKED, PAIR, RULE = range(7)


def _line_rule(
    geometry: Geometry,
    names: tuple[str, ...],
    kind: int,
    rule: int,
    house: int,
    cells: int,
    digit: int,
    cell: int = -1,
) -> str:
    """A line's rule text: ``rule`` (an index into ``names``) with its pattern for a basic
    technique's elimination (pointing or claiming: the digit of ``house``; a pair: its ``cells``).

    A pair is named by the pattern the line's causes make, whichever rule removed the candidate
    from ``cell``: a candidate of the pair's own cells goes by a hidden pair, one outside by a
    naked pair (a naked pair's eliminations can read as a hidden pair of other cells)."""
    if kind == SEES:
        return _sees(geometry, cells)
    if kind == HIDDEN:
        return _hidden(geometry, house)
    if kind == NAKED:
        return "naked single"
    if kind == LOCKED:
        return f"{names[rule]}: {digit_char(digit)} of {geometry.houses[house].name}"
    if kind == PAIR:
        name = ("hidden pair" if cells >> cell & 1 else "naked pair") if cell >= 0 else names[rule]
        return f"{name} {and_list([geometry.cell_name(c) for c in bits(cells)])}"
    return "assumption" if kind == ASSUMPTION else names[rule]


#: The net's rules the C core follows (pointing, claiming, naked pair, hidden pair).
_NET_NAMES = 4


def _c_trace(geometry: Geometry, rules: Sequence[Rule]) -> tuple[ModuleType, object, int] | None:
    """(the C core, the geometry's tables, how many of its rules ``rules`` is) when the C core
    traces with ``rules``: the net's rules it follows (a prefix of them), and after all four of
    them a forcing-net contradiction inside (a rule marked ``c_inner``), else None."""
    inner = bool(rules) and getattr(rules[-1], "c_inner", False)
    got = c_settle(geometry, rules[:-1] if inner else rules)
    if got is None or (inner and got[2] != _NET_NAMES):
        return None
    core, capsule, count = got
    return core, capsule, count + inner


def contradiction_branch(base: CandidateGrid, rules: Sequence[Rule], cell: int, digit: int) -> Branch | None:
    """The lines from assuming ``digit`` in ``cell`` to the contradiction; None if none is reached."""
    trace = Trace(base, rules, keep=False)
    trace.run(cell, digit)
    if trace.broken is None:
        return None
    text, causes = trace.broken
    return trace.branch(causes, text)


def conclusion_branch(
    base: CandidateGrid,
    rules: Sequence[Rule],
    cell: int,
    digit: int,
    placements: Sequence[Candidate],
    eliminations: Sequence[Candidate],
) -> Branch | None:
    """The lines from assuming ``digit`` in ``cell`` to every one of the conclusions."""
    trace = Trace(base, rules)
    trace.run(cell, digit)
    if trace.broken is not None:
        return None
    ends = []
    for c, d in placements:
        got = trace.cause_of(c, d, True)
        if got is None:
            return None
        ends.append(got)
    for c, d in eliminations:
        got = trace.cause_of(c, d, False)
        if got is None:
            return None
        line = trace.lines[got]
        if line.on and line.cell == c:
            # the cell took another digit: say so
            got = trace._add(c, d, False, [got], f"{trace.grid.name(c)} holds {digit_char(line.digit)}")
        ends.append(got)
    return trace.branch(ends)
