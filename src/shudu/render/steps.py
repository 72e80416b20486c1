"""Pictures of a logical solving path: the board as it stands before a step, and the step on it."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from ..geometry import Geometry
from .scene import RenderError, board_parts, simple_candidates
from .svg import CELL_PX, render


class Position:
    """The placed digits and pencil marks of a board, replayed step by step."""

    def __init__(self, geo: Geometry, values: Sequence[int], candidates: Sequence[int] | None = None) -> None:
        self.geometry = geo
        self.values = list(values)
        self.marks = list(candidates if candidates is not None else simple_candidates(geo, values))

    def apply(self, step: Any) -> None:
        """Play a step's placements and eliminations."""
        for cell, digit in step.placements:
            self.values[cell] = digit
            self.marks[cell] = 0
            for peer in self.geometry.peers[cell]:
                self.marks[peer] &= ~(1 << (digit - 1))
        for cell, digit in step.eliminations:
            self.marks[cell] &= ~(1 << (digit - 1))


def steps_before(board: Any, steps: Sequence[Any], index: int) -> Position:
    """The position after ``steps[:index]`` have been played on ``board``."""
    if not 0 <= index <= len(steps):
        raise RenderError(f"step {index + 1} asked for; the path has {len(steps)} steps")
    geo, givens, entries, marks = board_parts(board)
    values = [g or e for g, e in zip(givens, entries, strict=True)]
    position = Position(geo, values, marks)
    for step in steps[:index]:
        position.apply(step)
    return position


def render_step(board: Any, step: Any, *, earlier: Sequence[Any] = (), cell_px: float = CELL_PX) -> str:
    """An SVG of ``step`` on ``board`` after the ``earlier`` steps of its path were played."""
    position = steps_before(board, list(earlier), len(earlier))
    geo, givens, _, _ = board_parts(board)
    entries = [v if not g else 0 for g, v in zip(givens, position.values, strict=True)]
    shown = _Shown(geo, givens, tuple(entries))
    return render(shown, candidates=position.marks, step=step, cell_px=cell_px)


class _Shown:
    """A player's board made of given digits and placed ones, for drawing."""

    def __init__(self, geo: Geometry, givens: Sequence[int], entries: tuple[int, ...]) -> None:
        self.puzzle = _Givens(geo, tuple(givens))
        self.entries = entries
        self.candidates = None


class _Givens:
    def __init__(self, geo: Geometry, cells: tuple[int, ...]) -> None:
        self.geometry = geo
        self.cells = cells


def render_explanation_step(explanation: Any, number: int, *, cell_px: float = CELL_PX) -> str:
    """An SVG of step ``number`` (from 1) of an explanation, on the board as it stands then."""
    steps = list(explanation.steps)
    if not 1 <= number <= len(steps):
        raise RenderError(f"step {number} asked for; the explanation has {len(steps)} steps")
    return render_step(
        explanation.rating.puzzle, steps[number - 1], earlier=steps[: number - 1], cell_px=cell_px
    )


def step_html(board: Any, step: Any, *, earlier: Sequence[Any] = ()) -> str:
    """A step drawn, with its explanation below (for notebooks)."""
    svg = render_step(board, step, earlier=earlier)
    return f"<div>{svg}<p>{escape(str(step))}</p></div>"


def explanation_html(explanation: Any) -> str:
    """The summary, the hardest step drawn, and the numbered steps (for notebooks)."""
    steps = list(explanation.steps)
    parts = [f"<p><b>{escape(explanation.summary())}</b></p>"]
    hardest = getattr(explanation.rating, "hardest", "")
    index = next((i for i, s in enumerate(steps) if s.name == hardest), None)
    if index is not None:
        parts.append(f"<p>The hardest step, {index + 1}:</p>")
        parts.append(render_explanation_step(explanation, index + 1, cell_px=32))
    items = "".join(f"<li>{escape(str(step))}</li>" for step in steps)
    parts.append(f"<details><summary>all {len(steps)} steps</summary><ol>{items}</ol></details>")
    return "<div>" + "".join(parts) + "</div>"
