"""The structure of a chain, loop or net step: its nodes and links, for text, JSON and drawing.

A *node* is a candidate or a group of candidates of one digit: a single cell, a group of cells in
one house (grouped chains), or an almost locked set (ALS nodes). A *link* joins two nodes: strong
(at least one is true) or weak (at most one is true). Chains and loops are a sequence of nodes with
alternating links; a forcing chain or net is a set of *branches*, each the implication lines from
one assumption to its conclusion or contradiction.

The text form of a chain is Eureka notation: ``(5)r1c2=(5)r1c7-(5)r4c7=(5)r4c2``, where ``=`` is a
strong link and ``-`` a weak one. A net's branch reads ``r4c3=6 → r4c1≠6 → r6c1=4 → …``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from ..notation import Cell, cell_name, digit_char

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


@dataclass(frozen=True)
class Branch:
    """The implications that follow from one assumption (the first line), ending in a contradiction
    (``contradiction`` names it) or the conclusion the branches share."""

    lines: tuple[Implication, ...]
    contradiction: str = ""

    def text(self, size: int) -> str:
        body = " → ".join(line.text(size) for line in self.lines)
        return f"{body} → {self.contradiction}" if self.contradiction else body

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


@dataclass(frozen=True)
class Net:
    """A forcing chain or net: one branch per assumption."""

    branches: tuple[Branch, ...]

    def text(self, size: int) -> str:
        return "; ".join(branch.text(size) for branch in self.branches)

    def to_json(self, size: int) -> dict[str, Any]:
        return {"type": "net", "branches": [b.to_json(size) for b in self.branches], "text": self.text(size)}

    def length(self, fallback: int) -> int:
        """The length a net is rated by, as Sudoku Explainer measures it: its nodes (every
        branch's lines, each line with all it needs) less two; ``fallback`` when no branch was
        traced."""
        nodes = sum(len(branch.lines) for branch in self.branches)
        return max(nodes - 2, 0) if nodes else fallback


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
