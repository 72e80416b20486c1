"""Symmetries of the givens: each maps a cell to a cell; their orbits are removed together."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ..errors import GeneratorError
from ..notation import EMPTY_CHARS

Move = Callable[[int, int, int], tuple[int, int]]

_MOVES: dict[str, tuple[Move, ...]] = {
    "none": (),
    "rot180": (lambda r, c, n: (n - 1 - r, n - 1 - c),),
    "rot90": (
        lambda r, c, n: (c, n - 1 - r),
        lambda r, c, n: (n - 1 - r, n - 1 - c),
        lambda r, c, n: (n - 1 - c, r),
    ),
    "mirror": (lambda r, c, n: (r, n - 1 - c),),
    "flip": (lambda r, c, n: (n - 1 - r, c),),
    "diagonal": (lambda r, c, n: (c, r),),
    "antidiagonal": (lambda r, c, n: (n - 1 - c, n - 1 - r),),
    "biaxial": (
        lambda r, c, n: (r, n - 1 - c),
        lambda r, c, n: (n - 1 - r, c),
        lambda r, c, n: (n - 1 - r, n - 1 - c),
    ),
    "bidiagonal": (
        lambda r, c, n: (c, r),
        lambda r, c, n: (n - 1 - c, n - 1 - r),
        lambda r, c, n: (n - 1 - r, n - 1 - c),
    ),
    "dihedral": (
        lambda r, c, n: (c, n - 1 - r),
        lambda r, c, n: (n - 1 - r, n - 1 - c),
        lambda r, c, n: (n - 1 - c, r),
        lambda r, c, n: (r, n - 1 - c),
        lambda r, c, n: (n - 1 - r, c),
        lambda r, c, n: (c, r),
        lambda r, c, n: (n - 1 - c, n - 1 - r),
    ),
}

#: The symmetry names with what each keeps.
SYMMETRIES: dict[str, str] = {
    "none": "no symmetry",
    "rot180": "a half turn maps the givens onto themselves",
    "rot90": "a quarter turn maps the givens onto themselves",
    "mirror": "mirrored left to right",
    "flip": "mirrored top to bottom",
    "diagonal": "mirrored in the main diagonal",
    "antidiagonal": "mirrored in the anti-diagonal",
    "biaxial": "mirrored left to right and top to bottom",
    "bidiagonal": "mirrored in both diagonals",
    "dihedral": "all eight turns and mirrors",
}


def check_symmetry(name: str) -> str:
    key = name.strip().lower()
    if key not in _MOVES:
        known = ", ".join(SYMMETRIES)
        raise GeneratorError(f"unknown symmetry {name!r}; known symmetries: {known}")
    return key


#: How many (symmetry, size) orbit tables are kept (least recently used ones are dropped).
ORBITS_CACHE_SIZE = 64


@lru_cache(maxsize=ORBITS_CACHE_SIZE)
def orbits(name: str, size: int) -> tuple[tuple[int, ...], ...]:
    """The cells grouped into the sets the symmetry maps onto each other, in reading order."""
    moves = _MOVES[check_symmetry(name)]
    seen: set[int] = set()
    out = []
    for cell in range(size * size):
        if cell in seen:
            continue
        r, c = divmod(cell, size)
        orbit = {cell} | {y * size + x for y, x in (move(r, c, size) for move in moves)}
        seen |= orbit
        out.append(tuple(sorted(orbit)))
    return tuple(out)


@lru_cache(maxsize=ORBITS_CACHE_SIZE)
def permutations(name: str, size: int) -> tuple[tuple[int, ...], ...]:
    """The symmetry's moves as permutations of the cells (index: cell, value: its image), the
    identity first: what maps a killer cage layout onto itself."""
    out = [tuple(range(size * size))]
    for move in _MOVES[check_symmetry(name)]:
        image = []
        for cell in range(size * size):
            r, c = move(*divmod(cell, size), size)
            image.append(r * size + c)
        out.append(tuple(image))
    return tuple(out)


def is_symmetric(text: bytes | str, name: str, size: int) -> bool:
    """Whether the filled cells of a one-line puzzle are unions of whole orbits."""
    empty = {*EMPTY_CHARS, *EMPTY_CHARS.encode("ascii")}
    filled = [ch not in empty for ch in text]
    return all(len({filled[c] for c in orbit}) == 1 for orbit in orbits(name, size))
