"""The search engine of solver ``fast``, in pure Python: the specification of the C core.

The C core (module ``shudu._core_c``, built from ``_core.c`` and ``solvers/core/``) is
held to this module by what it promises (docs/core.md), and the tests check exactly this:

- on every shape, the **same solutions in the same order**, the same statuses, and the
  same ``nodes``, ``guesses`` and ``settled`` counters, through ``Search.run`` and
  ``Shape.solve_many``, with the same budgets and the same errors for bad input;
- on the shapes the 9x9 engine does not take, and on every shape made with
  ``general=True``, the C general engine (``core/general.c``) carries out this module's
  algorithm: the same rules in the same order of passes, hence the same propagated state
  at every node and the same branch cell (it skips only the checks that cannot find
  anything: a house, or a pair of houses, none of whose cells lost a candidate since it
  was last looked at);
- on the standard 9x9 grid (``Shape.std9``), and on 9x9 shapes with the 27 standard
  houses, at most ``EXTRA_HOUSES`` others and no links (``Shape.var9``: X, windoku,
  pyramid …), the C 9x9 engine (``core/band9.c``) is another algorithm with the same
  rules: its propagation works per digit and band, in its own order, so its steps differ
  from these; what the two share is the **propagated state at every node** (the same
  candidates, or both a contradiction; :mod:`shudu.solvers._band9_py` states the standard
  grid's rules on their own) and the **same branch cell** chosen from it. The same state
  and the same branch cell at every node make the same search tree, hence the same
  solutions, order and counters.

Vocabulary:

- a **shape** is a grid size ``n`` (4..25), its **houses** (groups of ``n`` cells that hold
  every digit once: rows, columns, boxes, extra regions) and its **links** (per cell, other
  cells that must hold a different digit without sharing a house: anti-knight, anti-king);
- **givens** are ``n * n`` digit values in reading order, 0 for an empty cell;
- a **digit set** is a bit mask, bit ``d - 1`` standing for digit ``d``.

The search is depth-first and resumable (``Search.run`` picks up where it stopped):

1. **propagate**: place every *naked single* (a cell with one candidate left) and every
   *hidden single* (a digit with one cell left in a house), removing the placed digit from
   the cell's peers, until nothing changes; a cell without candidates or a house missing a
   digit is a contradiction. On the standard 9x9 grid (``Shape.std9``) one more rule joins
   them, the **band rule**: in a band (three rows), a digit takes one cell in each of the
   three rows and each of the three boxes, so the (row, box) *triads* that still hold it
   must contain a one-to-one matching of rows to boxes; the digit leaves every triad that
   is in no such matching (this covers pointing and claiming between rows and boxes). The
   **stack rule** is the same on a stack (three columns), with (column, box) triads. The
   C core keeps 9x9 candidates per digit and band, which makes these rules a few word-wide
   operations. On every other shape the **intersection rule** joins the singles instead
   (on ``Shape.var9`` shapes both join them, the intersection rule only on the pairs with
   an extra house):
   for two houses that share at least two cells (``Shape.locks``: a row and a box, a
   diagonal and a box, a window and a row …), a digit that one of them holds only in the
   shared cells leaves the other house's other cells (pointing and claiming, for any
   houses). Singles run until nothing changes, then one pass of the rule over every pair,
   and again while it removes candidates; the result (the closure of these rules) does not
   depend on the order of the steps;
2. **branch** on an empty cell, trying its digits in increasing order.

   - On 9x9 shapes: an empty cell with fewest candidates, and among those the one with
     most empty peers (whichever digit is tried, it reaches most of the grid still open),
     the first such in reading order.
   - On the other sizes: when some empty cells have two candidates, the choice among the
     first ``BRANCH_PAIRS`` of them (in reading order) is the cell whose *weaker* digit
     (the one fewer of its peers still hold) is held by most peers (the first such in
     reading order): whichever digit is tried, many candidates go at once. When no empty
     cell has two candidates, the cell with fewest candidates (the first such in reading
     order). The 9x9 rule made some loose 16x16 searches wander (docs/performance.md).

Counters: ``nodes`` counts search states opened (the puzzle itself and every digit tried at
a branch cell); ``guesses`` counts the digits tried while another digit of that cell was
still untried; ``settled`` counts the empty cells filled by propagation before the first
guess (0 when the puzzle contradicts itself). A puzzle is *solved without guessing* when
``guesses == 0``.

Budgets: ``node_limit`` caps ``nodes`` (a search may open at most that many), ``timeout``
(seconds, negative for none) caps wall-clock time; when either is spent the search stops
and reports it, and can be resumed with a new budget.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..notation import DIGITS, EMPTY_CHAR, MAX_SIZE, MIN_SIZE, BatchCode, CallCode
from ._fast_search_py import Budget, Search, propagate

__all__ = ["Search", "Shape", "parse_givens", "propagate"]

# Characters of solution text, indexed by digit value (``.`` for 0).
_DIGIT_CHARS = EMPTY_CHAR + DIGITS

# A 9x9 shape with the 27 standard houses, no links and at most this many other distinct
# houses keeps the band and stack rules (the C core's B9X_HOUSES in core/band9.h).
EXTRA_HOUSES = 16


def _char_value(ch: str, n: int) -> int:
    """Digit value of a puzzle character: ``1-9`` then ``A-P`` (any case); ``.``/``0`` empty."""
    if ch in ".0":
        return 0
    if "1" <= ch <= "9":
        v = ord(ch) - 48
    elif "A" <= ch <= "Z":
        v = ord(ch) - 55
    elif "a" <= ch <= "z":
        v = ord(ch) - 87
    else:
        return -1
    return v if v <= n else -1


def parse_givens(text: str | bytes, n: int, index: int = 0) -> bytes:
    """Givens of one puzzle line (``index`` counts from 0, for messages); ValueError if bad."""
    if isinstance(text, bytes | bytearray):
        text = text.decode("latin-1")
    elif not isinstance(text, str):
        raise TypeError(f"puzzle {index + 1} is {type(text).__name__}, not str")
    nc = n * n
    if len(text) != nc:
        raise ValueError(f"puzzle {index + 1} has {len(text)} characters; a {n}x{n} puzzle needs {nc}")
    values = bytearray(nc)
    for i, ch in enumerate(text):
        v = _char_value(ch, n) if ord(ch) < 128 else -1
        if v < 0:
            raise ValueError(
                f"puzzle {index + 1}, character {i + 1}: '{ch}' is not a digit of a {n}x{n} "
                f"puzzle (1-{_DIGIT_CHARS[n]}, '.' or '0' for empty)"
            )
        values[i] = v
    return bytes(values)


def _cells(seq: object, what: str, index: int, ncells: int, most: int) -> list[int]:
    try:
        cells: list[int] = list(seq)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"{what} {index} is not a sequence of cell indices") from None
    if len(cells) > most:
        raise ValueError(f"{what} {index} has {len(cells)} cells, more than {most}")
    for c in cells:
        if not isinstance(c, int):
            raise TypeError(f"{what} {index}: cell indices must be int")
        if not 0 <= c < ncells:
            raise ValueError(f"{what} {index}: cell index {c!r} is outside 0..{ncells - 1}")
    return cells


def _standard_id(house: Sequence[int]) -> int:
    """Which of the 27 standard houses of 9x9 the 9 cells are: rows 0..8, columns 9..17,
    boxes 18..26; -1 for none."""
    rows = {c // 9 for c in house}
    cols = {c % 9 for c in house}
    boxes = {(c // 27, c % 9 // 3) for c in house}
    if len(rows) == 1:
        return rows.pop()
    if len(cols) == 1:
        return 9 + cols.pop()
    if len(boxes) == 1:
        band, stack = boxes.pop()
        return 18 + 3 * band + stack
    return -1


def _is_standard9(houses: list[list[int]]) -> bool:
    ids = {_standard_id(h) for h in houses}
    return len(houses) == 27 and len(ids) == 27 and -1 not in ids


def _extra_houses(houses: list[list[int]]) -> tuple[tuple[int, ...], ...] | None:
    """The houses of a 9x9 shape beyond the 27 standard ones, repeats once, in order; None
    when a standard house is missing or there are more than ``EXTRA_HOUSES``."""
    ids = set()
    extras: dict[frozenset[int], tuple[int, ...]] = {}
    for house in houses:
        key = _standard_id(house)
        if key >= 0:
            ids.add(key)
        else:
            extras.setdefault(frozenset(house), tuple(house))
    if len(ids) < 27 or len(extras) > EXTRA_HOUSES:
        return None
    return tuple(extras.values())


def _intersections(
    houses: tuple[tuple[int, ...], ...], second_from: int = 0
) -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """The pairs of houses that share at least two cells but not all (see ``Shape.locks``),
    the second of each pair one of ``houses[second_from:]``."""
    n = len(houses[0]) if houses else 0
    member: dict[int, list[int]] = {}
    for h, house in enumerate(houses):
        for c in house:
            member.setdefault(c, []).append(h)
    locks = []
    for a, first in enumerate(houses):
        shared_count: dict[int, int] = {}
        for c in first:
            for b in member[c]:
                if b > a and b >= second_from:
                    shared_count[b] = shared_count.get(b, 0) + 1
        for b in sorted(shared_count):
            if 2 <= shared_count[b] < n:
                second = set(houses[b])
                locks.append(
                    (
                        tuple(c for c in first if c in second),
                        tuple(c for c in first if c not in second),
                        tuple(c for c in houses[b] if c not in set(first)),
                    )
                )
    return tuple(locks)


class Shape:
    """A grid shape compiled for searching: size ``n``, houses and links.

    ``houses`` is a sequence of ``n``-cell sequences of cell indices, ``links`` is ``None``
    or one sequence of cell indices per cell. ``general=True`` keeps every shape on the
    general engine (for comparisons); otherwise ``std9`` tells that the C core serves it
    with its 9x9 engine, and ``var9`` with its 9x9 engine and extra houses.
    """

    def __init__(
        self,
        n: int,
        houses: Sequence[Sequence[int]],
        links: Sequence[Sequence[int]] | None = None,
        general: bool = False,
    ) -> None:
        if not MIN_SIZE <= n <= MAX_SIZE:
            raise ValueError(f"grid size must be between 4 and {MAX_SIZE}, got {n}")
        nc = n * n
        house_list = list(houses)
        if len(house_list) > 4 * nc:
            raise ValueError(f"too many houses: {len(house_list)}")
        adjacent: list[set[int]] = [set() for _ in range(nc)]
        checked: list[list[int]] = []
        for h, house in enumerate(house_list):
            cells = _cells(house, "house", h, nc, nc)
            if len(cells) != n:
                raise ValueError(f"house {h} has {len(cells)} cells; a {n}x{n} grid needs {n}")
            for i, c in enumerate(cells):
                if c in cells[:i]:
                    raise ValueError(f"house {h} holds cell {c} twice")
            for c in cells:
                adjacent[c].update(cells)
                adjacent[c].discard(c)
            checked.append(cells)
        has_links = False
        if links is not None:
            link_list = list(links)
            if len(link_list) != nc:
                raise ValueError(f"links must have one entry per cell ({nc}), got {len(link_list)}")
            for c, linked in enumerate(link_list):
                for p in _cells(linked, "links of cell", c, nc, nc):
                    if p == c:
                        raise ValueError(f"cell {c} is linked to itself")
                    adjacent[c].add(p)
                    adjacent[p].add(c)
                    has_links = True
        self.n = n
        self.ncells = nc
        self.full = (1 << n) - 1
        self.houses: tuple[tuple[int, ...], ...] = tuple(tuple(h) for h in checked)
        self.peers: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(a)) for a in adjacent)
        self.std9 = not general and n == 9 and not has_links and _is_standard9(checked)
        extras = None if general or n != 9 or has_links or self.std9 else _extra_houses(checked)
        self.var9 = extras is not None
        #: The intersections: for each pair of houses sharing at least two cells but not
        #: all, in the order of the first house then the second, the shared cells, the
        #: first house's other cells and the second house's other cells. None on the
        #: standard 9x9 grid, where the band and stack rules serve; with extra houses, only
        #: the pairs with an extra house (the first a standard or an earlier extra house).
        self.locks: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
        if self.std9:
            self.locks = ()
        elif extras is not None:
            standard = tuple(sorted((h for h in self.houses if _standard_id(h) >= 0), key=_standard_id))
            unique = tuple({_standard_id(h): h for h in standard}.values())
            self.locks = _intersections(unique + extras, second_from=len(unique))
        else:
            self.locks = _intersections(self.houses)

    def search(self, givens: bytes) -> Search:
        """A fresh search over one puzzle; ``givens`` holds ``n * n`` values 0..n."""
        givens = bytes(givens)
        if len(givens) != self.ncells:
            raise ValueError(f"givens must have {self.ncells} entries, got {len(givens)}")
        for c, g in enumerate(givens):
            if g > self.n:
                raise ValueError(f"given {g} at cell {c} is outside 0..{self.n}")
        return Search(self, givens)

    def solve_many(
        self,
        puzzles: Sequence[str] | bytes,
        limit: int = 1,
        threads: int = 1,
        node_limit: int | None = None,
        timeout: float = -1.0,
    ) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes]:
        """Search every puzzle for up to ``limit`` solutions.

        ``puzzles`` is a sequence of puzzle strings, or one bytes buffer of lines (``\\n`` or
        ``\\r\\n`` ended, the last one optionally not). ``node_limit`` applies to each puzzle,
        ``timeout`` to the whole call. ``threads`` is accepted for symmetry (the twin uses
        one). Returns six buffers: one status code per puzzle (:class:`~shudu.notation.BatchCode`
        NONE, UNIQUE, MULTIPLE, SOLVED: found one, did not look further; TIMEOUT), the first solutions as text
        (``n * n`` characters per puzzle, ``.`` where there is none), and the solution
        counts, nodes, guesses and settled cells as native 8-byte unsigned integers.
        """
        if not isinstance(threads, int):
            raise TypeError("threads must be an int")
        if not 1 <= threads <= 256:
            raise ValueError(f"threads must be between 1 and 256, got {threads!r}")
        if not isinstance(limit, int):
            raise TypeError("limit must be an int")
        if limit < 1:
            raise ValueError("limit must be at least 1")
        budget = Budget(node_limit, timeout)
        n, nc = self.n, self.ncells
        if isinstance(puzzles, bytes | bytearray | memoryview):
            data = bytes(puzzles)
            lines = data.split(b"\n")
            if lines and lines[-1] == b"":
                lines.pop()
            texts: Sequence[str | bytes] = [ln[:-1] if ln.endswith(b"\r") else ln for ln in lines]
        elif isinstance(puzzles, str):
            raise TypeError("puzzles must be a list of str or a bytes buffer")
        else:
            texts = list(puzzles)
        givens = [parse_givens(t, n, i) for i, t in enumerate(texts)]
        status = bytearray(len(givens))
        solutions = bytearray(b"." * (nc * len(givens)))
        counts, nodes, guesses, settled = [], [], [], []
        for i, g in enumerate(givens):
            search = Search(self, g)
            found, code, first = 0, CallCode.STOPPED, None
            while found < limit:
                code, solution = search._next(budget)
                if solution is None:
                    break
                if first is None:
                    first = solution
                found += 1
            if first is not None:
                solutions[i * nc : (i + 1) * nc] = "".join(_DIGIT_CHARS[v] for v in first).encode()
            if code == CallCode.BUDGET:
                status[i] = BatchCode.TIMEOUT
            elif found == 0:
                status[i] = BatchCode.NONE
            elif found >= 2:
                status[i] = BatchCode.MULTIPLE
            elif code == CallCode.EXHAUSTED:
                status[i] = BatchCode.UNIQUE
            else:
                status[i] = BatchCode.SOLVED
            counts.append(found)
            nodes.append(search.nodes)
            guesses.append(search.guesses)
            settled.append(search.settled)
        return (
            bytes(status),
            bytes(solutions),
            _pack(counts),
            _pack(nodes),
            _pack(guesses),
            _pack(settled),
        )


def _pack(values: list[int]) -> bytes:
    from array import array

    return array("Q", values).tobytes()
