"""Histograms of many puzzles: the picture read back (SVG bars, PNG size), the batch summary's
tallies, ``shudu batch --plot``, and a clear error without matplotlib."""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from shudu.batch import Summary
from shudu.cli import main
from shudu.render.plots import PlotError, check_plot_path, plot_histograms, require_matplotlib, tally

SVG = "{http://www.w3.org/2000/svg}"

# Easy puzzles written for these tests: a solution grid with cells taken out.
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def easy(holes: int, start: int) -> str:
    cells = list(SOLUTION)
    for k in range(holes):
        cells[(start + 7 * k) % 81] = "."
    return "".join(cells)


def bars(svg: Path) -> dict[str, float]:
    """Each bar of the SVG by its id, with its height in the picture's units."""
    out = {}
    for group in ET.parse(svg).getroot().iter(f"{SVG}g"):
        name = group.get("id", "")
        if name.startswith(("se:", "time:")):
            path = group.find(f"{SVG}path")
            assert path is not None
            ys = [float(y) for y in re.findall(r"[ML] [-\d.]+ ([-\d.]+)", path.get("d", ""))]
            out[name] = max(ys) - min(ys)
    return out


def test_tally_counts_each_value_once_rounded() -> None:
    assert tally([1.5, 1.5, 7.2]) == Counter({1.5: 2, 7.2: 1})
    assert tally([0.001234, 0.0012, 0.5], digits=2) == Counter({0.0012: 2, 0.5: 1})


def test_a_file_name_must_say_svg_or_png() -> None:
    assert check_plot_path("ratings.SVG") == "svg"
    assert check_plot_path(Path("out/times.png")) == "png"
    with pytest.raises(PlotError, match=r"must end in \.svg or \.png"):
        check_plot_path("ratings.pdf")


def test_no_matplotlib_is_a_clear_error_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    with pytest.raises(PlotError, match=r"matplotlib: pip install 'shudu\[plot\]'"):
        require_matplotlib()
    with pytest.raises(PlotError, match=r"shudu\[plot\]"):
        plot_histograms(tmp_path / "x.svg", ratings={"easy": {1.2: 1}})
    assert not (tmp_path / "x.svg").exists()


def test_the_summary_tallies_ratings_by_level_and_times_by_data_set() -> None:
    summary = Summary(source="mine.txt")
    summary.add(
        [
            {"status": "unique", "level": "easy", "se": 1.2, "seconds": 0.001234},
            {"status": "unique", "level": "easy", "se": 1.2, "seconds": 0.0012},
            {"status": "unique", "level": "hard", "se": 7.1, "seconds": 0.25, "file": "b.txt"},
            {"status": "multiple", "level": None, "se": 2.0, "seconds": 0.5},
            {"status": "invalid", "level": None, "se": None, "seconds": 0.0, "error": "bad"},
        ]
    )
    assert summary.ratings == {"easy": {1.2: 2}, "hard": {7.1: 1}, "no level": {2.0: 1}}
    assert summary.times == {"mine.txt": {0.0012: 2, 0.5: 1}, "b.txt": {0.25: 1}}
    assert summary.se == {1: 2, 7: 1, 2: 1}


def test_the_svg_has_one_bar_a_rating_and_level_with_heights_in_proportion(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="plots need matplotlib (the plot extra)")
    target = tmp_path / "plot.svg"
    ratings = {"hard": tally([7.1, 7.1, 1.5]), "easy": tally([1.2, 1.2, 1.2, 1.2, 1.5])}
    times = {"set-a": {0.001: 3, 0.01: 1}, "set-b": {0.0: 2, 2.0: 2}}
    plot_histograms(target, ratings=ratings, times=times, title="two sets")
    found = bars(target)
    se = {k: v for k, v in found.items() if k.startswith("se:")}
    assert set(se) == {"se:easy:1.2", "se:easy:1.5", "se:hard:1.5", "se:hard:7.1"}
    unit = se["se:easy:1.5"]  # one puzzle
    assert se["se:easy:1.2"] == pytest.approx(4 * unit, rel=1e-3)
    assert se["se:hard:7.1"] == pytest.approx(2 * unit, rel=1e-3)
    assert se["se:hard:1.5"] == pytest.approx(unit, rel=1e-3)
    # set-a: a decade in five bins, 3 in the first and 1 in the last
    a = [found[f"time:set-a:{i}"] for i in range(6)]
    assert a[0] == pytest.approx(3 * a[5], rel=1e-3) and a[1:5] == [0, 0, 0, 0]
    # set-b: a time of 0 goes in the first bin, beside the smallest time that is not 0
    b = [v for k, v in found.items() if k.startswith("time:set-b:")]
    assert len(b) == 1 and b[0] > 0
    texts = "".join(t.text or "" for t in ET.parse(target).getroot().iter(f"{SVG}text"))
    for words in ("two sets", "easy (5)", "hard (3)", "set-a: 4 puzzles", "set-b: 4 puzzles"):
        assert words in texts
    assert texts.index("easy (5)") < texts.index("hard (3)")  # levels easiest first


def test_the_png_opens_with_its_size(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="plots need matplotlib (the plot extra)")
    image = pytest.importorskip("PIL.Image", reason="reading a PNG back needs Pillow")
    one, two = tmp_path / "one.png", tmp_path / "two.png"
    plot_histograms(one, times={"set": {0.01: 1}})
    plot_histograms(two, ratings={"easy": {1.2: 1}}, times={"set": {0.01: 1}})
    with image.open(one) as a, image.open(two) as b:
        assert a.format == b.format == "PNG"
        assert a.size[0] == b.size[0] == 700
        assert b.size[1] - a.size[1] == 240  # one panel more


def test_nothing_to_plot_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(PlotError, match="nothing to plot"):
        plot_histograms(tmp_path / "x.svg", ratings={"easy": {}}, times={})


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def test_batch_rate_plots_the_ratings_of_its_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib", reason="plots need matplotlib (the plot extra)")
    source = tmp_path / "few.txt"
    source.write_text(
        "\n".join(easy(holes, start) for holes, start in [(20, 0), (30, 3), (40, 5)]) + "\nnot a puzzle\n"
    )
    out, plot = tmp_path / "rated.jsonl", tmp_path / "rated.svg"
    code, err = run(["batch", "rate", "-i", str(source), "-o", str(out), "--plot", str(plot)], capsys)
    assert f"wrote {plot}" in err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    rated = [r for r in records if r["status"] != "invalid"]
    assert len(rated) == 3 and code != 0  # the bad line is reported
    found = bars(plot)
    assert {k for k in found if k.startswith("se:")} == {f"se:{r['level']}:{r['se']:.1f}" for r in rated}
    assert any(k.startswith("time:few.txt:") for k in found)


def test_batch_refuses_a_plot_it_cannot_draw_before_working(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "one.txt"
    source.write_text(easy(20, 0) + "\n")
    out = tmp_path / "out.jsonl"
    code, err = run(["batch", "solve", "-i", str(source), "-o", str(out), "--plot", "x.pdf"], capsys)
    assert code != 0 and "must end in .svg or .png" in err and not out.exists()
    pytest.importorskip("matplotlib", reason="plots need matplotlib (the plot extra)")
    argv = [
        "batch",
        "solve",
        "-i",
        str(source),
        "-o",
        str(out),
        "--no-timing",
        "--plot",
        str(tmp_path / "x.svg"),
    ]
    code, err = run(argv, capsys)
    assert code != 0 and "--no-timing leaves out" in err and not out.exists()
