"""Histograms of many puzzles: SE ratings by level, and solve times per data set.

Drawn with matplotlib (the optional extra ``plot``) on its Agg canvas, never through pyplot, so
nothing global changes and no window opens. The file's extension picks the form: ``.svg`` or
``.png``. The data are tallies, ``{value: how many}``, so that a summary of millions of puzzles
stays small: :func:`tally` makes one from plain values.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..notation import LEVELS
from .scene import RenderError

#: The picture forms, by file extension.
PLOT_FORMATS = (".svg", ".png")
#: SE ratings are drawn to a tenth, as they are given.
SE_STEP = 0.1
#: Time bins a decade (on a log scale).
TIME_BINS_PER_DECADE = 5
#: At most this many time histograms; the smallest data sets beyond are drawn together.
MAX_TIME_PANELS = 8

#: ``{value: how many}``: the data of one histogram.
Tally = Mapping[float, int]


class PlotError(RenderError):
    """A plot that cannot be drawn: no matplotlib, a file name that is not .svg or .png, no data."""


def tally(values: Iterable[float], *, digits: int | None = None) -> Counter[float]:
    """How many times each value occurs, each first rounded to ``digits`` significant digits
    (None: as it is)."""
    out: Counter[float] = Counter()
    for value in values:
        out[float(f"{value:.{digits}g}") if digits else float(value)] += 1
    return out


def check_plot_path(path: str | Path) -> str:
    """The form (``svg`` or ``png``) a plot file's name asks for; PlotError for any other name."""
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise PlotError(f"{path}: a plot's file name must end in .svg or .png")
    return suffix[1:]


def require_matplotlib() -> Any:
    """The matplotlib module; PlotError naming the extra when it is not installed."""
    try:
        import matplotlib
    except ImportError:
        raise PlotError("plots need matplotlib: pip install 'shudu[plot]'") from None
    return matplotlib


def check_plot(path: str | Path) -> str:
    """Refuse, before any work, a plot that cannot be drawn: a file name that is not .svg or
    .png, or no matplotlib (PlotError). Returns the form the name asks for."""
    form = check_plot_path(path)
    require_matplotlib()
    return form


def plot_histograms(
    path: str | Path,
    *,
    ratings: Mapping[str, Tally] | None = None,
    times: Mapping[str, Tally] | None = None,
    title: str = "",
) -> None:
    """Write a picture of the SE ratings by level (stacked bars, one a tenth of a point) above
    one solve-time histogram per data set (seconds on a log scale), to ``path`` (.svg or .png).

    ``ratings`` maps a level name to its tally of SE ratings; ``times`` a data set's name to its
    tally of seconds. Either may be left out, not both. Each bar of the SVG has an id
    ``se:LEVEL:RATING`` or ``time:DATA SET:BIN``.
    """
    form = check_plot_path(path)
    ratings = {level: t for level, t in (ratings or {}).items() if sum(t.values())}
    times = _merged_tail({name: t for name, t in (times or {}).items() if sum(t.values())})
    if not ratings and not times:
        raise PlotError("nothing to plot: no SE ratings and no times")
    matplotlib = require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    panels = (1 if ratings else 0) + len(times)
    settings = {"svg.fonttype": "none", "svg.hashsalt": "shudu", "font.size": 9}
    with matplotlib.rc_context(settings):
        figure = Figure(figsize=(7.0, 1.2 + 2.4 * panels), layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.subplots(panels, 1, squeeze=False)[:, 0]
        if title:
            figure.suptitle(title)
        if ratings:
            _draw_ratings(axes[0], ratings)
        for ax, (name, counts) in zip(axes[1 if ratings else 0 :], times.items(), strict=True):
            _draw_times(ax, name, counts)
        metadata = {"Date": None} if form == "svg" else {"Software": None}
        try:
            figure.savefig(path, format=form, metadata=metadata, dpi=100)
        except OSError as exc:
            raise PlotError(f"cannot write {path}: {exc.strerror or exc}") from None


def _level_order(levels: Iterable[str]) -> list[str]:
    """Levels from easiest to hardest, any others after, by name."""
    rank: dict[str, int] = {name: i for i, name in enumerate(LEVELS)}
    return sorted(levels, key=lambda name: (rank.get(name, len(rank)), name))


def _draw_ratings(ax: Any, ratings: Mapping[str, Tally]) -> None:
    bins: Counter[float] = Counter()  # the height reached so far at each tenth
    for level in _level_order(ratings):
        counts: Counter[float] = Counter()
        for value, n in ratings[level].items():
            counts[round(value / SE_STEP) * SE_STEP] += n
        xs = sorted(counts)
        bars = ax.bar(
            xs,
            [counts[x] for x in xs],
            width=SE_STEP * 0.85,
            bottom=[bins[x] for x in xs],
            label=f"{level} ({sum(counts.values())})",
        )
        for x, bar in zip(xs, bars, strict=True):
            bar.set_gid(f"se:{level}:{x:.1f}")
            bins[x] += counts[x]
    _whole_counts(ax)
    ax.set_xlabel("SE rating")
    ax.set_ylabel("puzzles")
    ax.set_title("SE rating by level")
    ax.legend(title="level", fontsize="small")


def _draw_times(ax: Any, name: str, counts: Tally) -> None:
    # bins of equal width on a log scale; a time of 0 (below any clock) goes in the first bin
    positive = [v for v in counts if v > 0]
    low = math.floor(math.log10(min(positive)) * TIME_BINS_PER_DECADE) if positive else -30
    high = math.floor(math.log10(max(positive)) * TIME_BINS_PER_DECADE) if positive else low
    heights = [0] * (high - low + 1)
    for value, n in counts.items():
        index = math.floor(math.log10(value) * TIME_BINS_PER_DECADE) - low if value > 0 else 0
        heights[min(max(index, 0), len(heights) - 1)] += n
    edges = [10 ** ((low + i) / TIME_BINS_PER_DECADE) for i in range(len(heights) + 1)]
    bars = ax.bar(
        edges[:-1],
        heights,
        width=[b - a for a, b in itertools.pairwise(edges)],
        align="edge",
        edgecolor="white",
        linewidth=0.5,
    )
    for i, bar in enumerate(bars):
        bar.set_gid(f"time:{name}:{i}")
    ax.set_xscale("log")
    _whole_counts(ax)
    ax.set_xlabel("seconds per puzzle")
    ax.set_ylabel("puzzles")
    total = sum(counts.values())
    ax.set_title(f"{name}: {total} puzzles, median {_median(counts):.3g} s")


def _whole_counts(ax: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def _median(counts: Tally) -> float:
    total = sum(counts.values())
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if 2 * seen >= total:
            return value
    return 0.0


def _merged_tail(times: Mapping[str, Tally]) -> dict[str, Tally]:
    """The data sets as they are, or the largest few and the rest drawn together."""
    if len(times) <= MAX_TIME_PANELS:
        return dict(times)
    ranked = sorted(times, key=lambda name: -sum(times[name].values()))
    kept = ranked[: MAX_TIME_PANELS - 1]
    rest: Counter[float] = Counter()
    for name in ranked[MAX_TIME_PANELS - 1 :]:
        rest.update(times[name])
    out = {name: times[name] for name in times if name in kept}
    out[f"{len(ranked) - len(kept)} other data sets"] = rest
    return out
