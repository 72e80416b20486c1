"""The drawing of every constraint rule, through one table: rule type → drawing function.

:data:`DRAWERS` maps each registered rule type (``shudu.rules.rule_types()``) to a function of
the rule and a :class:`~shudu.render.canvas.Canvas` that adds its shapes, in SudokuPad's visual
language: dashed killer cages with their totals in the corner, grey thermometers with bulbs,
arrows with circles, kropki dots, coloured lines, clues outside the grid. Grid-wide rules
(anti-consecutive, negative kropki and XV, global entropy) become a note under the picture.
A new rule type needs one entry here; ``tests/test_render_rules.py`` fails until it has one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..rules import Rule, lookup
from .canvas import Canvas
from .outside import draw_little_killer, draw_outside
from .rule_lines import (
    draw_arrow,
    draw_between,
    draw_double_arrow,
    draw_line,
    draw_lunchbox,
    draw_modular,
    draw_slow_thermo,
    draw_sum_line,
    draw_thermo,
    draw_whisper,
)
from .rule_marks import (
    draw_all_different,
    draw_black_dot,
    draw_cage,
    draw_candidates,
    draw_even,
    draw_greater,
    draw_odd,
    draw_quad,
    draw_sum,
    draw_v,
    draw_white_dot,
    draw_x,
)

Drawer = Callable[[Rule, Canvas], None]


def _note(text: str) -> Drawer:
    def draw(rule: Rule, canvas: Canvas) -> None:
        canvas.note(text)

    return draw


#: Rule type → the function that draws a rule of that type.
DRAWERS: dict[str, Drawer] = {
    # sums
    "cage": draw_cage,
    "sum": draw_sum,
    "little-killer": draw_little_killer,
    "arrow": draw_arrow,
    "double-arrow": draw_double_arrow,
    "sandwich": draw_outside,
    "lunchbox": draw_lunchbox,
    "x-sum": draw_outside,
    "skyscraper": draw_outside,
    # order
    "thermo": draw_thermo,
    "slow-thermo": draw_slow_thermo,
    # pairs
    "greater": draw_greater,
    "white-dot": draw_white_dot,
    "black-dot": draw_black_dot,
    "x": draw_x,
    "v": draw_v,
    "anti-consecutive": _note("anti-consecutive: no two neighbours are consecutive"),
    "strict-kropki": _note("negative kropki: every dot is given"),
    "strict-xv": _note("negative XV: every X and V is given"),
    # lines
    "whisper": draw_whisper,
    "renban": draw_line,
    "palindrome": draw_line,
    "between": draw_between,
    "region-sum-line": draw_line,
    "zipper": draw_line,
    "entropic": draw_line,
    "modular": draw_modular,
    "sum-line": draw_sum_line,
    "parity-line": draw_line,
    # cells and regions
    "candidates": draw_candidates,
    "odd": draw_odd,
    "even": draw_even,
    "quad": draw_quad,
    "global-entropy": _note("global entropy: every 2x2 has a low, middle and high digit"),
    "all-different": draw_all_different,
    "digits": lambda rule, canvas: canvas.note(f"digits from {rule.params[0]}"),
}


def draw_rules(rules: Sequence[Rule], rows: int, cols: int | None = None) -> Canvas:
    """The drawings of ``rules`` on a grid of ``rows`` x ``cols`` cells (``cols``: as many as
    ``rows`` when not given): cages and outlines, lines, marks, clues outside (the canvas's
    margins) and notes. A rule type missing from :data:`DRAWERS` is named in a note rather
    than left out silently."""
    canvas = Canvas(rows, rows if cols is None else cols, tuple(rules))
    # thermometers first, so that the see-through lines crossing them show over them
    order = sorted(rules, key=lambda r: r.kind not in ("thermo", "slow-thermo"))
    for rule in order:
        drawer = DRAWERS.get(rule.kind)
        if drawer is None:
            canvas.note(f"not drawn: {lookup(rule.kind).title}")
            continue
        drawer(rule, canvas)
    return canvas
