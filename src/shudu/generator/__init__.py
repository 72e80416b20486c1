"""The generator: random puzzles with one solution, at the difficulty asked for.

:func:`generate` makes one puzzle, :func:`generate_many` streams several. Both take the same
options; every option is checked before any search, and a request that can never be met (12
givens on 9x9, an extreme 4x4) fails at once with a :class:`~shudu.errors.GeneratorError`.
A search that runs past ``timeout`` raises :class:`GeneratorTimeout`, which carries what it
found. docs/generator.md describes the method.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Iterator
from typing import Unpack

from ..errors import GeneratorError, OptionError, check_seconds
from ..notation import LEVELS
from .killer import KillerSearch
from .request import RULE_SETS, Plan, Request, RequestFields, build
from .search import Generated, Progress, Search
from .symmetry import SYMMETRIES, is_symmetric
from .uniqueness import OutOfTime

__all__ = [
    "LEVELS",
    "RULE_SETS",
    "SYMMETRIES",
    "Generated",
    "GeneratorError",
    "GeneratorTimeout",
    "Progress",
    "Request",
    "check_request",
    "generate",
    "generate_many",
    "is_symmetric",
]


class GeneratorTimeout(GeneratorError):
    """The search ran past its timeout; ``found`` holds the puzzles made before then."""


def generate(
    request: Request | int | None = None,
    *,
    seed: int | None = None,
    timeout: float | None = None,
    **fields: Unpack[RequestFields],
) -> Generated:
    """One random puzzle with exactly one solution.

    What to make is a :class:`Request`, or its fields as keywords (the first argument may be
    the size; keywords given beside a Request replace its fields):

    - ``size`` (default 9), ``box`` (``"2x3"``), ``variant`` (a name such as ``"x"``,
      ``"windoku"``, ``"pyramid"``, ``"jigsaw"`` — a random layout unless ``layout`` gives
      one —, a :class:`~shudu.variants.Variant`, or JSON variant fields);
    - difficulty, checked with :func:`shudu.rate`: ``level`` (easy, medium, hard, unfair,
      extreme), ``se`` (a Sudoku Explainer rating or range, ``"6.6-7.2"``), ``technique``
      (one the simplest-first path must use, e.g. ``"X-Wing"``);
    - ``symmetry`` of the givens (none, rot180, rot90, mirror, flip, diagonal, antidiagonal,
      biaxial, bidiagonal, dihedral), ``clues`` (a count or ``"24-28"``), ``minimal`` (no
      given can be taken away);
    - ``rate`` rates the result even when no difficulty is asked;
    - ``rules="killer"`` makes a killer puzzle (cages with their totals; ``clues`` then counts the
      givens beside them, 0 by default), ``cages`` the sizes of its cages (``"2-5"``);
      ``rules="thermo"``, ``"arrow"``, ``"kropki"``, ``"little-killer"``, ``"sandwich"`` or
      ``"mixed"`` a puzzle with those rules drawn on its grid, and givens dug as for a classic
      one.

    ``seed`` makes the result reproducible (the result's ``seed`` remakes it) and ``timeout``
    (seconds) bounds the search.

    >>> generate(level="easy", seed=1).level
    'easy'
    >>> generate(Request(size=4, symmetry="rot180"), seed=1).puzzle.size
    4
    """
    for result in generate_many(1, Request.of(request, fields), seed=seed, timeout=timeout):
        return result
    raise AssertionError("generate_many stopped without a puzzle or an error")  # pragma: no cover


def generate_many(
    count: int | None,
    request: Request | None = None,
    *,
    seed: int | None = None,
    timeout: float | None = None,
    progress: Callable[[Progress], None] | None = None,
    **fields: Unpack[RequestFields],
) -> Iterator[Generated]:
    """``count`` puzzles (None: without end), yielded as they are found; the request and
    options as for :func:`generate`. ``timeout`` bounds the whole run; ``progress`` is called as
    the search goes (after each rated candidate and each puzzle found)."""
    if count is not None and (isinstance(count, bool) or not isinstance(count, int)):
        raise TypeError(f"count must be a whole number or None, not {type(count).__name__}")
    if count is not None and count < 0:
        raise GeneratorError(f"cannot make {count} puzzles")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be a whole number or None, not {type(seed).__name__}")
    if seed is not None and seed < 0:
        raise OptionError(f"seed must be 0 or more, not {seed}", option="seed", value=seed)
    if request is not None and not isinstance(request, Request):
        raise TypeError(f"request must be a Request or None, not {type(request).__name__}")
    timeout = check_seconds(timeout, "timeout")
    plan = build(Request.of(request, fields))
    return _stream(plan, count, seed, timeout, progress)


def check_request(request: Request | int | None = None, **fields: Unpack[RequestFields]) -> str:
    """Check :func:`generate`'s request as it would, without searching: the request in words,
    or the error :func:`generate` would raise at once (``jigsaw`` with no ``layout`` is a random
    layout here too; ``rate`` is not checked).

    >>> check_request(16, variant="jigsaw", level="hard")
    'hard 16x16 jigsaw puzzle'
    """
    asked = Request.of(request, fields)
    return build(dataclasses.replace(asked, rate=None)).describe()


def _stream(
    request: Plan,
    count: int | None,
    seed: int | None,
    timeout: float | None,
    progress: Callable[[Progress], None] | None,
) -> Iterator[Generated]:
    state = Progress()
    if progress is not None:
        state.listeners.append(progress)
    search: Search | KillerSearch = (
        KillerSearch(request, state) if request.rules == "killer" else Search(request, state)
    )
    started = time.monotonic()
    deadline = None if timeout is None else started + timeout
    base = seed if seed is not None else random.SystemRandom().getrandbits(48)
    made: list[Generated] = []
    index = 0
    while count is None or index < count:
        puzzle_seed = base if index == 0 else random.Random(f"{base}/{index}").getrandbits(48)
        try:
            result = search.one(puzzle_seed, deadline)
        except OutOfTime:
            raise GeneratorTimeout(
                _timeout_message(request, count, made, state, timeout), found=tuple(made)
            ) from None
        made.append(result)
        index += 1
        state.tell()
        yield result


def _timeout_message(
    request: Plan, count: int | None, made: list[Generated], state: Progress, timeout: float | None
) -> str:
    what = request.describe()
    if made:
        asked = f" of {count}" if count is not None else ""
        text = f"found {len(made)}{asked} × {what} in {timeout:g} s"
    else:
        text = f"no {what} found in {timeout:g} s"
    text += f" ({state.grids} grids dug"
    if state.rated:
        text += f", {state.rated} candidates rated"
        if state.closest is not None:
            _, level, se = state.closest
            text += f"; the closest was {level}" + ("" if se is None else f", SE {se:.1f}")
    return text + ")"
