"""The structure of a chain, loop or net step: its nodes and links, for text, JSON and drawing.

A *node* is a candidate or a group of candidates of one digit: a single cell, a group of cells in
one house (grouped chains), or an almost locked set (ALS nodes). A *link* joins two nodes: strong
(at least one is true) or weak (at most one is true). Chains and loops are a sequence of nodes with
alternating links; a forcing chain or net is a set of *branches*, each the implication lines from
one assumption to its conclusion or contradiction.

The text form of a chain is Eureka notation: ``(5)r1c2=(5)r1c7-(5)r4c7=(5)r4c2``, where ``=`` is a
strong link and ``-`` a weak one. A net's branch reads a line per deduction, each with its reason:
``if r4c3=6:``, ``r4c1≠6 — sees r4c3=6``, ``r6c1=4 — only digit left in r6c1`` …
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from ...notation import Cell, cell_name, digit_char

#: What a listing builds for the chains it keeps (a step).
T = TypeVar("T")

NodeKind = Literal["cell", "group", "als"]
LinkKind = Literal["strong", "weak"]


@dataclass(frozen=True)
class Node:
    """One or more cells that hold ``digits`` (one digit, except for ALS nodes and cell nodes of an
    XY-chain's bivalue cell)."""

    cells: tuple[Cell, ...]
    digits: tuple[int, ...]
    kind: NodeKind = "cell"

    def text(self, size: int) -> str:
        """``(5)r1c2``, ``(5)r1c23`` for a group, ``(57)r1c2`` for several digits."""
        digits = "".join(digit_char(d) for d in self.digits)
        return f"({digits}){_cells_text(self.cells, size)}"

    def to_json(self, size: int) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "cells": [cell_name(c, size) for c in self.cells],
            "digits": list(self.digits),
        }


@dataclass(frozen=True)
class Link:
    """A link between two nodes of a chain."""

    start: Node
    end: Node
    kind: LinkKind

    def to_json(self, size: int) -> dict[str, Any]:
        return {"from": self.start.to_json(size), "to": self.end.to_json(size), "kind": self.kind}


@dataclass(frozen=True)
class Chain:
    """A chain or loop: ``nodes[i]`` and ``nodes[i+1]`` are joined by ``kinds[i]``; a loop's last
    node links back to its first with ``kinds[-1]`` (so a loop has as many kinds as nodes)."""

    nodes: tuple[Node, ...]
    kinds: tuple[LinkKind, ...]
    loop: bool = False

    @property
    def links(self) -> tuple[Link, ...]:
        n = len(self.nodes)
        ends = range(n) if self.loop else range(n - 1)
        return tuple(Link(self.nodes[i], self.nodes[(i + 1) % n], self.kinds[i]) for i in ends)

    def text(self, size: int) -> str:
        """Eureka notation."""
        out = [self.nodes[0].text(size)]
        for link in self.links:
            out.append("=" if link.kind == "strong" else "-")
            out.append(link.end.text(size))
        return "".join(out)

    def to_json(self, size: int) -> dict[str, Any]:
        return {
            "type": "loop" if self.loop else "chain",
            "nodes": [node.to_json(size) for node in self.nodes],
            "links": [link.to_json(size) for link in self.links],
            "text": self.text(size),
        }


@dataclass(frozen=True)
class Implication:
    """One line of a net's branch: ``cell`` is (``on``) or is not (not ``on``) ``digit``, because
    of the earlier implications at ``because`` (indices into the branch) and the rule named."""

    cell: Cell
    digit: int
    on: bool
    because: tuple[int, ...] = ()
    rule: str = ""

    def text(self, size: int) -> str:
        sign = "=" if self.on else "≠"
        return f"{cell_name(self.cell, size)}{sign}{digit_char(self.digit)}"


#: How a branch's lines are indented under their step: the assumption, then its deductions.
BRANCH_INDENT = "  "
LINE_INDENT = "    "

#: The kinds of reason a line of a branch gives (:func:`reason_of`).
ReasonKind = Literal["assumption", "sees", "holds", "naked single", "hidden single", "rule"]


@dataclass(frozen=True)
class Reason:
    """Why a line of a branch holds, in words and as what it points at: ``cites`` are the earlier
    lines it follows from (indices into the branch), ``house`` the house of a hidden single."""

    kind: ReasonKind
    text: str
    cites: tuple[int, ...] = ()
    house: str = ""


def reason_of(branch: Branch, index: int, size: int) -> Reason:
    """The reason of line ``index`` of ``branch``, read from its rule and the lines it cites: a
    digit placed in a peer (``sees r1c3=5``), another digit placed in the cell (``r1c3 holds
    5``), a naked single (``only digit left in r2c2``), a hidden single (``only place for 9 in row
    5``), or a basic technique of the net, with the lines it follows from."""
    line = branch.lines[index]
    rule, cites = line.rule, line.because
    cited = [branch.lines[j] for j in cites]
    name = cell_name(line.cell, size)
    if index == 0 and not cites:
        return Reason("assumption", "assumption")
    if rule in ("naked single", "only candidate left"):
        return Reason("naked single", f"only digit left in {name}", cites)
    if rule.startswith("hidden single in "):
        house = rule.removeprefix("hidden single in ")
        return Reason("hidden single", f"only place for {digit_char(line.digit)} in {house}", cites, house)
    if rule.startswith("sees ") and cited and all(c.on and c.digit == line.digit for c in cited):
        return Reason("sees", "sees " + and_words([c.text(size) for c in cited]), cites)
    if len(cited) == 1 and cited[0].on and cited[0].cell == line.cell and cited[0].digit != line.digit:
        return Reason("holds", f"{name} holds {digit_char(cited[0].digit)}", cites)
    return Reason("rule", _rule_text(line, cited, size), cites)


def _rule_text(line: Implication, cited: Sequence[Implication], size: int) -> str:
    """The reason of a line a basic technique of the net (or a net inside) removes, with the
    lines it follows from: ``every place left for 8 in column 2 sees r4c1 (claiming), after
    r2c2=5``."""
    rule = line.rule
    kind, _, pattern = rule.partition(": ")
    if kind in ("pointing", "claiming") and " of " in pattern:
        digit, house = pattern.split(" of ", 1)
        text = f"every place left for {digit} in {house} sees {cell_name(line.cell, size)} ({kind})"
    elif rule == "forcing net inside":
        assumed = f"{cell_name(line.cell, size)}={digit_char(line.digit)}"
        text = f"{assumed} would break the grid (a forcing net inside)"
    else:
        text = rule or "follows"
    if not cited:
        return text
    after = and_words([c.text(size) for c in cited]) if len(cited) <= 4 else f"the {len(cited)} lines above"
    return f"{text}, after {after}"


def cannot_be(cells: Sequence[str], digits: Sequence[int]) -> str:
    """``r8c2 cannot be 4``, ``r1c3 and r4c3 cannot be 1 or 7``."""
    return f"{and_words(list(cells))} cannot be {and_words([digit_char(d) for d in digits], 'or')}"


@dataclass(frozen=True)
class Branch:
    """The implications that follow from one assumption (the first line), ending in a contradiction
    (``contradiction`` names it) or the conclusion the branches share.

    Its text reads a line per deduction, each with its reason (:func:`reason_of`), under the
    assumption: ``if r8c6=8:`` then ``r8c5≠8 — sees r8c6=8`` … and, for a contradiction, what
    breaks and what that proves (``so r8c6 cannot be 8``)."""

    lines: tuple[Implication, ...]
    contradiction: str = ""

    def conclusion(self, size: int, outcome: str = "") -> str:
        """What the branch proves: its assumption false (a contradiction), else ``outcome``."""
        if self.contradiction and self.lines:
            first = self.lines[0]
            return cannot_be([cell_name(first.cell, size)], [first.digit])
        return outcome

    def text(self, size: int, outcome: str = "") -> str:
        """The branch, a line per deduction with its reason, indented to sit under its step."""
        if not self.lines:
            return BRANCH_INDENT + (self.contradiction or "(no branch traced)")
        out = [f"{BRANCH_INDENT}if {self.lines[0].text(size)}:"]
        for i, line in enumerate(self.lines[1:], start=1):
            out.append(f"{LINE_INDENT}{line.text(size)} — {reason_of(self, i, size).text}")
        if self.contradiction:
            out.append(f"{LINE_INDENT}contradiction: {self.contradiction}")
        conclusion = self.conclusion(size, outcome)
        if conclusion:
            out.append(f"{LINE_INDENT}so {conclusion}")
        return "\n".join(out)

    def to_json(self, size: int) -> dict[str, Any]:
        return {
            "lines": [
                {
                    "cell": cell_name(line.cell, size),
                    "digit": line.digit,
                    "on": line.on,
                    "because": list(line.because),
                    "rule": line.rule,
                }
                for line in self.lines
            ],
            "contradiction": self.contradiction,
            "text": self.text(size),
        }

    def readable(self, size: int, outcome: str = "") -> dict[str, Any]:
        """The branch as a person reads it: its assumption, its deductions in order (each with its
        reason and the earlier deductions and house the reason points at), and its conclusion."""
        names = [cell_name(line.cell, size) for line in self.lines]
        deductions = []
        for i, line in enumerate(self.lines[1:], start=1):
            why = reason_of(self, i, size)
            deductions.append(
                {
                    "cell": names[i],
                    "digit": line.digit,
                    "effect": "placed" if line.on else "eliminated",
                    "reason": why.text,
                    "kind": why.kind,
                    "house": why.house or None,
                    "cells": sorted({names[j] for j in why.cites}),
                    "candidates": [
                        {"cell": names[j], "digit": self.lines[j].digit, "on": self.lines[j].on}
                        for j in why.cites
                    ],
                    # the deductions cited, as indices into this list (-1: the assumption)
                    "because": [j - 1 for j in why.cites],
                }
            )
        first = self.lines[0] if self.lines else None
        return {
            "assumption": None if first is None else {"cell": names[0], "digit": first.digit},
            "deductions": deductions,
            "contradiction": self.contradiction or None,
            "conclusion": self.conclusion(size, outcome) or None,
        }


@dataclass(frozen=True)
class Net:
    """A forcing chain or net: one branch per assumption. ``outcome`` is what the branches that
    do not break the grid share (``r4c4 cannot be 2``); a net with one is shown branch by branch
    in its step's explanation."""

    branches: tuple[Branch, ...]
    outcome: str = field(default="", compare=False)

    def text(self, size: int) -> str:
        return "\n".join(branch.text(size, self.outcome) for branch in self.branches)

    def to_json(self, size: int) -> dict[str, Any]:
        return {"type": "net", "branches": [b.to_json(size) for b in self.branches], "text": self.text(size)}

    def readable(self, size: int) -> list[dict[str, Any]]:
        """Every branch as :meth:`Branch.readable` gives it."""
        return [branch.readable(size, self.outcome) for branch in self.branches]

    def length(self, fallback: int) -> int:
        """The length a net is rated by, as Sudoku Explainer measures it: its nodes (every
        branch's lines, each line with all it needs) less two; ``fallback`` when no branch was
        traced."""
        nodes = sum(len(branch.lines) for branch in self.branches)
        return max(nodes - 2, 0) if nodes else fallback


def and_words(words: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (``or`` with ``last="or"``)."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


#: What a step may carry as its structure.
Structure = Chain | Net


def _cells_text(cells: tuple[Cell, ...], size: int) -> str:
    """``r1c2``; ``r1c23`` when the cells share a row; ``r12c3`` when they share a column."""
    if len(cells) == 1:
        return cell_name(cells[0], size)
    rows = sorted({c // size for c in cells})
    cols = sorted({c % size for c in cells})
    sep = "" if size <= 9 else ","
    if len(rows) == 1:
        return f"r{rows[0] + 1}c" + sep.join(str(c + 1) for c in cols)
    if len(cols) == 1:
        return "r" + sep.join(str(r + 1) for r in rows) + f"c{cols[0] + 1}"
    return "{" + ",".join(cell_name(c, size) for c in sorted(cells)) + "}"


class Shortest(Generic[T]):
    """The outcomes a listing of chains meets, each with the shortest chain that gives it.

    A chain search meets the chains of one outcome in the order it tries its starts, which is
    the order cells are numbered in. Keeping the shortest chain of each outcome, rather than
    the first, makes the length a listing gives an outcome, and the rating that follows from
    it, the same on every isomorph of the grid. Steps are built only for the chains kept, in
    the order their outcomes were first met.
    """

    __slots__ = ("_before", "_best")

    def __init__(self, before: Shortest[T] | None = None) -> None:
        self._best: dict[object, tuple[int, Callable[[], T]]] = {}
        #: an earlier pass, whose outcomes this one leaves to it
        self._before = before

    def offer(self, key: object, length: int, build: Callable[[], T]) -> None:
        """A chain of ``length`` links with outcome ``key``; ``build`` makes its step."""
        if self._before is not None and key in self._before:
            return
        best = self._best.get(key)
        if best is None or length < best[0]:
            self._best[key] = (length, build)

    def steps(self) -> Iterator[T]:
        """The step of each outcome's shortest chain."""
        for _, build in self._best.values():
            yield build()

    def __contains__(self, key: object) -> bool:
        return key in self._best or (self._before is not None and key in self._before)
