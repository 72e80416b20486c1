"""Dancing links: Knuth's Algorithm X on the exact-cover matrix of a sudoku (paper 2).

The matrix has one *row* per possible placement (cell, digit) and one *column* per condition that
must hold exactly once:

- cell c holds a digit;
- house h holds digit d — for every row, column and box (or jigsaw region), and one column set
  per extra region of the variant.

Row (c, d) has a 1 in the column of cell c and in the (h, d) column of every house h holding c.
A solution is a set of rows covering every column exactly once. Algorithm X picks the column with
fewest rows left (the smallest-column heuristic), tries each of its rows in turn, and *covers* the
columns the row satisfies — unlinking every clashing row — then *uncovers* them in reverse order
on the way back. The matrix is a web of doubly linked nodes, so unlinking and relinking ("the
dancing") cost nothing but pointer updates.

Anti-knight and anti-king puzzles are not exact cover: two linked cells must differ, but nothing
says a digit must appear in one of them. They are handled the way Knuth handles "at most once"
conditions, with *secondary columns*: one per linked pair of cells and digit, holding the rows
(a, d) and (b, d). Covering a row covers its secondary columns too, so a chosen (a, d) removes
(b, d); but secondary columns are never chosen for branching and need not be covered at the end.

Givens are placed before the search by covering their rows' columns.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from ..geometry import Geometry
from ..puzzle import Puzzle
from .base import UNLIMITED, Budget, Solver, Stats

__all__ = ["Column", "Dlx", "Node", "build_matrix"]


class Node:
    """A 1 of the matrix: linked to its left/right neighbours in its row, up/down in its column."""

    __slots__ = ("column", "down", "left", "placement", "right", "up")

    def __init__(self, column: Column | None, placement: tuple[int, int]) -> None:
        self.left = self.right = self.up = self.down = self
        # the header of the node's column; a header is its own
        self.column: Column = column if column is not None else self  # type: ignore[assignment]
        #: the (cell, digit) of the row this node lies in
        self.placement = placement


class Column(Node):
    """A column header: the top of a circular list of nodes, with a count of them."""

    __slots__ = ("name", "size")

    def __init__(self, name: str) -> None:
        super().__init__(None, (-1, 0))
        self.name = name
        self.size = 0

    def append(self, node: Node) -> None:
        """Put ``node`` at the bottom of this column."""
        node.column = self
        node.up, node.down = self.up, self
        self.up.down = node
        self.up = node
        self.size += 1

    def __repr__(self) -> str:
        return f"<column {self.name} size={self.size}>"


def cover(column: Column) -> None:
    """Take ``column`` out of the header list and every row that has a 1 in it out of the matrix."""
    column.right.left = column.left
    column.left.right = column.right
    row = column.down
    while row is not column:
        node = row.right
        while node is not row:
            node.down.up = node.up
            node.up.down = node.down
            node.column.size -= 1
            node = node.right
        row = row.down


def uncover(column: Column) -> None:
    """Undo :func:`cover` exactly, in the reverse order."""
    row = column.up
    while row is not column:
        node = row.left
        while node is not row:
            node.column.size += 1
            node.down.up = node
            node.up.down = node
            node = node.left
        row = row.up
    column.right.left = column
    column.left.right = column


def select(row: Node) -> None:
    """Cover the other columns of a chosen row (its own column is covered already)."""
    node = row.right
    while node is not row:
        cover(node.column)
        node = node.right


def unselect(row: Node) -> None:
    """Undo :func:`select`."""
    node = row.left
    while node is not row:
        uncover(node.column)
        node = node.left


def build_matrix(geometry: Geometry) -> tuple[Column, dict[tuple[int, int], Node]]:
    """The exact-cover matrix of a shape: the root header and the first node of every row by placement.

    The root's right/left list holds the primary columns only (cells, then houses × digits); the
    secondary columns of anti-knight/anti-king links stand alone, linked to themselves.
    """
    n = geometry.size
    root = Column("root")

    def primary(name: str) -> Column:
        column = Column(name)
        column.right, column.left = root, root.left
        root.left.right = column
        root.left = column
        return column

    cell_columns = [primary(geometry.cell_name(cell)) for cell in range(geometry.ncells)]
    # house_columns[h][d]: "house h holds digit d" (index 0 unused: digits run 1..n)
    house_columns = [
        [root, *(primary(f"{house.name} has {digit}") for digit in range(1, n + 1))]
        for house in geometry.houses
    ]
    link_columns: dict[tuple[int, int, int], Column] = {}
    for a, linked in enumerate(geometry.links):
        for b in linked:
            if a < b:
                for digit in range(1, n + 1):
                    name = f"{geometry.cell_name(a)} and {geometry.cell_name(b)} not both {digit}"
                    link_columns[a, b, digit] = Column(name)

    rows: dict[tuple[int, int], Node] = {}
    for cell in range(geometry.ncells):
        for digit in range(1, n + 1):
            columns = [cell_columns[cell]]
            columns += [house_columns[h][digit] for h in geometry.cell_houses[cell]]
            columns += [link_columns[min(cell, b), max(cell, b), digit] for b in geometry.links[cell]]
            first = None
            for column in columns:
                node = Node(column, (cell, digit))
                column.append(node)
                if first is None:
                    first = node
                else:  # put the node at the end of the row
                    node.left, node.right = first.left, first
                    first.left.right = node
                    first.left = node
            assert first is not None
            rows[cell, digit] = first
    return root, rows


def _smallest_column(root: Column) -> Column:
    """The primary column with the fewest rows, the first of them on a tie. The look stops at a
    column of 0 or 1 rows: it fails or is forced, and either is as good as any choice."""
    # the header list links only column headers
    best = cast(Column, root.right)
    column = cast(Column, best.right)
    while column is not root and best.size > 1:
        if column.size < best.size:
            best = column
        column = cast(Column, column.right)
    return best


class Dlx(Solver):
    name = "dlx"
    description = "Knuth's Algorithm X on dancing links, smallest column first (paper 2)"

    def solutions(
        self, puzzle: Puzzle, *, budget: Budget = UNLIMITED, stats: Stats | None = None
    ) -> Iterator[tuple[int, ...]]:
        stats = stats if stats is not None else Stats()
        root, rows = build_matrix(puzzle.geometry)
        for cell, digit in enumerate(puzzle.cells):
            if digit:
                given = rows[cell, digit]
                cover(given.column)
                select(given)
        cells = list(puzzle.cells)
        chosen: list[Node] = []  # the row tried at each level of the search
        open_branches = 0  # levels whose column still has rows to try
        next_check = budget.check(stats.nodes)
        descend = True
        while True:
            if descend:
                if root.right is root:  # every primary column covered: a solution
                    for row in chosen:
                        cell, digit = row.placement
                        cells[cell] = digit
                    yield tuple(cells)
                else:
                    column = _smallest_column(root)
                    if column.size:
                        cover(column)
                        row = column.down
                        chosen.append(row)
                        select(row)
                        open_branches += self._count(stats, row, open_branches)
                        if stats.nodes >= next_check:
                            next_check = budget.check(stats.nodes)
                        continue
            # back up to the deepest level whose column has another row, and try that row
            descend = False
            while chosen:
                row = chosen.pop()
                unselect(row)
                column = row.column
                if row.down is not column:
                    open_branches -= 1
                    row = row.down
                    chosen.append(row)
                    select(row)
                    open_branches += self._count(stats, row, open_branches)
                    if stats.nodes >= next_check:
                        next_check = budget.check(stats.nodes)
                    descend = True
                    break
                uncover(column)
            if not descend:
                return

    @staticmethod
    def _count(stats: Stats, row: Node, open_branches: int) -> int:
        """Record a chosen row in ``stats``; 1 when its column has rows left to try (a guess)."""
        stats.nodes += 1
        if row.down is not row.column:
            stats.guesses += 1
            return 1
        if not open_branches:
            stats.settled += 1
        return 0
