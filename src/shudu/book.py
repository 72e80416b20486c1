"""Puzzle books: new puzzles from the generator, laid out as a PDF (the optional extra ``book``).

:func:`book` makes ``count`` puzzles with :func:`shudu.generate` and hands them to
:func:`shudu.render.pdf.book_pdf`. Puzzle ``i`` is made from a seed drawn from the book's seed
and ``i``, so the same seed and options give the same book, byte for byte.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from .errors import OptionError, check_count, check_seconds
from .generator import GeneratorTimeout, generate
from .geometry import Box
from .notation import LEVELS
from .render.pdf import BookEntry, book_pdf, check_layout, check_text, require_fpdf
from .variants import VariantLike

__all__ = ["MAX_PUZZLES", "book", "book_levels", "puzzle_seed"]

#: The most puzzles one book holds.
MAX_PUZZLES = 1000


def puzzle_seed(seed: int, index: int) -> int:
    """The generator seed of puzzle ``index`` (from 0) of the book made from ``seed``."""
    return random.Random(f"shudu-book/{seed}/{index}").getrandbits(48)


def book_levels(count: int, level: str | None, mix: Sequence[str] | None) -> list[str | None]:
    """The level asked for each puzzle: ``mix`` in turn, else ``level`` for all."""
    if mix is not None:
        if level is not None:
            raise OptionError("give a level or a mix of levels, not both", option="mix", value=mix)
        levels = list(mix)
        if not levels:
            raise OptionError("a mix needs at least one level", option="mix", value=mix)
        for name in levels:
            if name not in LEVELS:
                raise OptionError(
                    f"unknown level {name!r} in the mix; choose from {', '.join(LEVELS)}",
                    option="mix",
                    value=name,
                )
        return [levels[i % len(levels)] for i in range(count)]
    if level is not None and level not in LEVELS:
        raise OptionError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}", option="level")
    return [level] * count


def book(
    count: int = 12,
    *,
    level: str | None = None,
    mix: Sequence[str] | None = None,
    size: int | None = None,
    box: Box | str | None = None,
    variant: VariantLike = None,
    layout: Any = None,
    per_page: int = 4,
    page_size: str = "a4",
    title: str | None = None,
    solutions: bool = True,
    seed: int | None = None,
    timeout: float | None = 300.0,
) -> bytes:
    """The PDF of a book of ``count`` new puzzles, each labelled with its rated difficulty.

    - ``level`` for every puzzle, or ``mix``: levels taken in turn (``LEVELS`` for all five);
    - ``size``, ``box``, ``variant``, ``layout`` as for :func:`shudu.generate`;
    - ``per_page``: 1, 2, 4 or 6 puzzles a page; ``page_size``: ``"a4"`` or ``"letter"``;
    - ``title``: a title page (Latin-1 text); ``solutions``: the solutions at the back;
    - ``seed``: the same seed gives the same bytes; ``timeout`` (seconds) bounds the whole
      generation, and a :class:`~shudu.generator.GeneratorTimeout` says how far it got.
    """
    check_count(count, "count", minimum=1, maximum=MAX_PUZZLES)
    check_layout(per_page, page_size)
    check_seconds(timeout, "timeout")
    check_count(seed, "seed")
    wanted = book_levels(count, level, mix)
    if title is not None:
        check_text(title, "title")
    require_fpdf()
    base = seed if seed is not None else random.SystemRandom().getrandbits(48)
    deadline = None if timeout is None else time.monotonic() + timeout
    entries: list[BookEntry] = []
    for index, asked in enumerate(wanted):
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise GeneratorTimeout(
                f"made {index} of {count} puzzles in {timeout:g} s", found=tuple(e.puzzle for e in entries)
            )
        try:
            made = generate(
                size,
                box=box,
                variant=variant,
                layout=layout,
                level=asked,
                seed=puzzle_seed(base, index),
                timeout=left,
                rate=True,
            )
        except GeneratorTimeout as exc:
            raise GeneratorTimeout(
                f"made {index} of {count} puzzles in {timeout:g} s; puzzle {index + 1}: {exc}",
                found=tuple(e.puzzle for e in entries),
            ) from None
        entries.append(BookEntry(index + 1, made.level or "", made.puzzle, made.solution))
    return book_pdf(
        entries,
        per_page=per_page,
        page_size=page_size,
        title=title,
        subtitle=_subtitle(entries, wanted, base) if title is not None else None,
        solutions=solutions,
    )


def _subtitle(entries: Sequence[BookEntry], wanted: Sequence[str | None], seed: int) -> str:
    """``50 hard 9x9 pyramid puzzles, seed 7``: what the book holds and how to make it again."""
    geo = entries[0].puzzle.geometry
    kinds = sorted({w for w in wanted if w is not None}, key=LEVELS.index)
    levels = ", ".join(kinds) + " " if kinds else ""
    name = geo.variant.name
    variant = f" {name}" if name and name != "standard" else ""
    return f"{len(entries)} {levels}{geo.size}x{geo.size}{variant} puzzles, seed {seed}"
