"""Pictures of boards and steps: SVG written directly, PNG through cairosvg, PDF puzzle books.

Imported only when used (the value types' ``_repr_svg_`` imports it lazily); the PNG and PDF
parts need the optional extras ``render`` (cairosvg) and ``book`` (fpdf2), the histograms of
many puzzles (:mod:`.plots`) the extra ``plot`` (matplotlib). docs/render.md has the details.
"""

from __future__ import annotations

from .plots import PlotError, plot_histograms, tally
from .png import svg_to_png
from .scene import RenderError, Scene, draw
from .steps import explanation_html, render_explanation_step, render_step, step_html
from .svg import render, to_svg

__all__ = [
    "PlotError",
    "RenderError",
    "Scene",
    "draw",
    "explanation_html",
    "plot_histograms",
    "render",
    "render_explanation_step",
    "render_step",
    "step_html",
    "svg_to_png",
    "tally",
    "to_svg",
]
