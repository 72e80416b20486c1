"""What a batch job found: counts by status and level, the SE histogram, errors and time; and the
tallies its plot draws (SE ratings by level, seconds per data set)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..notation import LEVELS


@dataclass
class Summary:
    done: int = 0
    #: records taken from an interrupted run rather than worked out again
    resumed: int = 0
    seconds: float = 0.0
    statuses: Counter[str] = field(default_factory=Counter)
    levels: Counter[str] = field(default_factory=Counter)
    #: SE rating by whole point: 1 holds 1.0 to 1.9
    se: Counter[int] = field(default_factory=Counter)
    #: the first few errors, with where they were
    errors: list[str] = field(default_factory=list)
    work_seconds: float = 0.0
    #: the data set of a record without a ``file`` (the input's name), for the time histograms
    source: str = "input"
    #: SE ratings to a tenth, by level (``no level`` when a record has none)
    ratings: dict[str, Counter[float]] = field(default_factory=dict)
    #: seconds per puzzle to two significant digits, by data set (the input file); invalid
    #: puzzles are left out
    times: dict[str, Counter[float]] = field(default_factory=dict)

    def add(self, records: list[dict[str, Any]]) -> None:
        for record in records:
            self.done += 1
            self.statuses[str(record.get("status"))] += 1
            if record.get("level"):
                self.levels[str(record["level"])] += 1
            se = record.get("se")
            if isinstance(se, (int, float)) and not isinstance(se, bool):
                self.se[math.floor(se)] += 1
                level = str(record.get("level") or "no level")
                self.ratings.setdefault(level, Counter())[round(se, 1)] += 1
            seconds = record.get("seconds")
            timed = isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
            if timed and record.get("status") != "invalid":
                name = str(record.get("file") or self.source)
                self.times.setdefault(name, Counter())[float(f"{seconds:.2g}")] += 1
            if record.get("error") and len(self.errors) < 10:
                where = f"{record['file']}: " if record.get("file") else ""
                if "line" in record:
                    where += f"line {record['line']}: "
                elif "index" in record:
                    where += f"puzzle {record['index']}: "
                self.errors.append(where + str(record["error"]))
            self.work_seconds += float(record.get("seconds") or 0.0)

    @property
    def invalid(self) -> int:
        return self.statuses.get("invalid", 0)

    def lines(self, timing: bool = True) -> list[str]:
        """The summary, a few lines of text."""
        text = [f"{self.done} done" + (f" ({self.resumed} from the interrupted run)" if self.resumed else "")]
        if timing and self.seconds > 0:
            fresh = self.done - self.resumed
            text[0] += f" in {self.seconds:.1f} s ({fresh / self.seconds:.1f}/s)"
            if fresh:
                text[0] += f", {1000 * self.work_seconds / fresh:.2f} ms of work each"
        text.append("status: " + ", ".join(f"{name} {n}" for name, n in sorted(self.statuses.items())))
        if self.levels:
            order: dict[str, int] = {name: i for i, name in enumerate(LEVELS)}
            ranked = sorted(self.levels.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))
            text.append("level: " + ", ".join(f"{name} {n}" for name, n in ranked))
        if self.se:
            most = max(self.se.values())
            for point in sorted(self.se):
                bar = "#" * max(1, round(40 * self.se[point] / most))
                text.append(f"SE {point}.0-{point}.9 {self.se[point]:>8} {bar}")
        return text

    def plot(self, path: str, *, title: str = "") -> None:
        """Draw the SE ratings by level and the seconds per data set to ``path`` (.svg or .png;
        needs matplotlib, the extra ``plot``)."""
        from ..render.plots import plot_histograms

        plot_histograms(path, ratings=self.ratings, times=self.times, title=title)
