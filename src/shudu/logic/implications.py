"""The lines of a forcing chain or net: what an assumption implies, each line with its causes.

:func:`settle` finds *that* an assumption breaks the grid (or what it leads to) as fast as it can;
once a forcing step is chosen, :class:`Trace` follows its assumptions again, slowly, recording for
every placement and elimination the earlier lines that caused it and the rule that did. The branch
shown to a player is then pruned to the lines the conclusion needs.

A line's causes are exact: applying just those lines to the board before the assumption, the rule
named gives the line (a naked single's other candidates are gone; a hidden single's other places
are gone; a candidate goes because a peer holds its digit; a basic technique's pattern holds).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..notation import digit_char
from .chain import Branch, Implication
from .grid import CandidateGrid, bits
from .propagate import Rule

Candidate = tuple[int, int]  # (cell, digit 1..n)


class Trace:
    """One assumption followed with singles and ``rules`` on a copy of ``base``, every line kept."""

    def __init__(self, base: CandidateGrid, rules: Sequence[Rule] = ()) -> None:
        self.base = base
        self.rules = rules
        self.grid = base.copy()
        self.lines: list[Implication] = []
        #: Per removed candidate, the line that removed it (a placement removes its cell's others).
        self.gone: dict[Candidate, int] = {}
        self.placed: dict[int, int] = {}
        #: The contradiction reached: its text and the lines that make it.
        self.broken: tuple[str, tuple[int, ...]] | None = None

    # --- recording ----------------------------------------------------------------------------

    def _add(self, cell: int, digit: int, on: bool, because: Sequence[int], rule: str) -> int:
        self.lines.append(Implication(cell, digit, on, tuple(sorted(set(because))), rule))
        return len(self.lines) - 1

    def _place(self, cell: int, digit: int, because: Sequence[int], rule: str) -> None:
        grid = self.grid
        index = self._add(cell, digit, True, because, rule)
        self.placed[cell] = index
        for e in bits(grid.cands[cell]):
            if e != digit - 1:
                self.gone[(cell, e + 1)] = index
        peers = grid.where[digit - 1] & grid.t.peer_bits[cell]
        grid.place(cell, digit)
        name = grid.name(cell)
        for peer in bits(peers):
            self.gone[(peer, digit)] = self._add(peer, digit, False, [index], f"sees {name}")

    def _eliminate(self, cell: int, digit: int, because: Sequence[int], rule: str) -> None:
        if self.grid.eliminate(cell, digit):
            self.gone[(cell, digit)] = self._add(cell, digit, False, because, rule)

    def _causes(self, cands: Sequence[Candidate]) -> list[int]:
        """The lines that removed these candidates (those the base grid still had)."""
        return [self.gone[c] for c in cands if c in self.gone]

    # --- following ----------------------------------------------------------------------------

    def run(self, cell: int, digit: int, *, stop_on: frozenset[Candidate] = frozenset()) -> None:
        """Assume ``digit`` in ``cell`` and follow until nothing changes or the grid breaks."""
        self._place(cell, digit, (), "assumption")
        while self.broken is None:
            if self._singles():
                continue
            if not self._rules():
                return

    def _singles(self) -> bool:
        grid, base = self.grid, self.base
        for cell in bits(grid.empty):
            mask = grid.cands[cell]
            if mask & (mask - 1):
                continue
            others = [(cell, d + 1) for d in bits(base.cands[cell])]
            if not mask:
                self.broken = (f"{grid.name(cell)} has no candidate left", tuple(self._causes(others)))
                return False
            digit = mask.bit_length()
            self._place(cell, digit, self._causes([c for c in others if c[1] != digit]), "naked single")
            return True
        for h, hbits in enumerate(grid.t.house_bits):
            house = grid.geometry.houses[h].name
            for d in range(grid.size):
                if grid.placed[h] >> d & 1:
                    continue
                spots = grid.where[d] & hbits
                if spots & (spots - 1):
                    continue
                others = [(c, d + 1) for c in bits(base.where[d] & hbits & ~spots)]
                if not spots:
                    text = f"no place is left for {digit_char(d + 1)} in {house}"
                    self.broken = (text, tuple(self._causes(others)))
                    return False
                self._place(spots.bit_length() - 1, d + 1, self._causes(others), f"hidden single in {house}")
                return True
        return False

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
        name = getattr(rule, "__name__", "rule").removesuffix("_rule").replace("_", " ")
        if digits & (digits - 1) == 0:
            # pointing or claiming: the digit's places in house a all lie in house b
            d = digits.bit_length() - 1
            for a, b, inter in grid.t.overlaps:
                if cells & ~hb[b] or cells & hb[a]:
                    continue
                inside = grid.where[d] & hb[a]
                if inside and not inside & ~inter:
                    others = [(c, d + 1) for c in bits(base.where[d] & hb[a] & ~inter)]
                    house = grid.geometry.houses[a].name
                    return self._causes(others), f"{name}: {digit_char(d + 1)} of {house}"
        for hbits in hb:
            open_here = list(bits(hbits & grid.empty))
            for i, a in enumerate(open_here):
                for b in open_here[i + 1 :]:
                    pair = (1 << a) | (1 << b)
                    union = grid.cands[a] | grid.cands[b]
                    if union.bit_count() == 2 and not digits & ~union and not cells & (pair | ~hbits):
                        # naked pair: the two cells' other candidates are gone
                        others = [(c, e + 1) for c in (a, b) for e in bits(base.cands[c] & ~union)]
                        return self._causes(others), f"{name} {grid.names(pair)}"
                    if not cells & ~pair:
                        kept = grid.cands[a] & grid.cands[b] & ~digits
                        ds = [d for d in bits(kept) if not grid.where[d] & hbits & ~pair]
                        if len(ds) >= 2:
                            # hidden pair: the two digits' other places in the house are gone
                            others = [(c, d + 1) for d in ds[:2] for c in bits(base.where[d] & hbits & ~pair)]
                            return self._causes(others), f"{name} {grid.names(pair)}"
        return list(range(len(self.lines))), name

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


def contradiction_branch(base: CandidateGrid, rules: Sequence[Rule], cell: int, digit: int) -> Branch | None:
    """The lines from assuming ``digit`` in ``cell`` to the contradiction; None if none is reached."""
    trace = Trace(base, rules)
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
