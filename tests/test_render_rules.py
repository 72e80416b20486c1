"""Pictures of constraint rules: every registered rule type is drawn, as SudokuPad's players expect.

The SVG is parsed back and its structure checked (which shapes, where, with which text), not its
pixels: each rule type's example (``RuleType.example``) on an empty 9x9 grid.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest

from shudu import Puzzle, parse_puzzle
from shudu.render import render
from shudu.render.rule_marks import cage_outlines
from shudu.render.rules import DRAWERS, draw_rules
from shudu.rules import Rule, rule_from_json, rule_types
from shudu.variants import Variant

SVG = "{http://www.w3.org/2000/svg}"
RULE_TYPES = sorted(rule_types())


def puzzle_of(*rules: Rule, givens: list[int] | None = None) -> Puzzle:
    return Puzzle(givens or [0] * 81, variant=Variant().with_rules(rules, 9))


def example(kind: str) -> Rule:
    return rule_from_json(rule_types()[kind].example, 9)


def elements(svg: str, kind: str, tag: str | None = None) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter() if e.get("class") == kind and (tag is None or e.tag == SVG + tag)]


def view_box(svg: str) -> tuple[float, ...]:
    return tuple(float(v) for v in ET.fromstring(svg).get("viewBox", "").split())


def at(e: ET.Element, x: float, y: float) -> bool:
    return (
        abs(float(e.get("cx", e.get("x", "nan"))) - x) < 1e-6
        and abs(float(e.get("cy", e.get("y", "nan"))) - y) < 1e-6
    )


def texts(svg: str, kind: str) -> list[str]:
    return [e.text or "" for e in elements(svg, kind, "text")]


def notes(svg: str) -> str:
    return " ".join(texts(svg, "rule"))


def points(e: ET.Element) -> list[tuple[float, float]]:
    out = []
    for part in (e.get("d") or "").replace("Z", "").split("M")[1:]:
        for pair in part.split("L"):
            x, y = pair.split()
            out.append((float(x), float(y)))
    return out


# What each rule type's example must show: a check of the SVG.
Check = Callable[[str], None]


def _dashed_outline_with_total(kind: str, total: str, pieces: int) -> Check:
    def check(svg: str) -> None:
        outlines = elements(svg, f"rule-{kind}", "path")  # one a piece
        assert len(outlines) == pieces
        assert all(o.get("stroke-dasharray") and o.get("d", "").endswith("Z") for o in outlines)
        assert texts(svg, f"rule-{kind}-total") == [total]
        assert elements(svg, f"rule-{kind}-total-backing", "rect")  # the total's white backing

    return check


def _line(kind: str) -> Check:
    def check(svg: str) -> None:
        (line,) = elements(svg, f"rule-{kind}", "path")
        assert line.get("stroke-linecap") == "round" and line.get("stroke-linejoin") == "round"
        assert float(line.get("stroke-width", 0)) >= 0.15 and float(line.get("opacity", 1)) < 1
        first = example(kind).cells[0]
        assert points(line)[0] == (first % 9 + 0.5, first // 9 + 0.5)  # from the first cell's centre

    return check


def _edge_circle(kind: str, fill: str) -> Check:
    def check(svg: str) -> None:
        (dot,) = elements(svg, f"rule-{kind}", "circle")
        assert at(dot, 1.0, 0.5) and dot.get("fill") == fill  # on the edge of r1c1 and r1c2

    return check


def _letter(kind: str, letter: str) -> Check:
    def check(svg: str) -> None:
        (text,) = elements(svg, f"rule-{kind}", "text")
        assert text.text == letter and at(text, 1.0, 0.5)

    return check


def _note(words: str) -> Check:
    def check(svg: str) -> None:
        assert words in notes(svg)

    return check


def _outside(kind: str, text: str, x: float, y: float) -> Check:
    def check(svg: str) -> None:
        (clue,) = elements(svg, f"rule-{kind}", "text")
        assert clue.text == text and at(clue, x, y)
        assert view_box(svg) != view_box(render(puzzle_of()))

    return check


def _thermo(svg: str) -> None:
    (bulb,) = elements(svg, "rule-thermo-bulb", "circle")
    assert at(bulb, 0.5, 0.5) and bulb.get("fill") not in (None, "none")
    (tube,) = elements(svg, "rule-thermo", "path")
    assert points(tube) == [(0.5, 0.5), (1.5, 0.5), (2.5, 0.5)]


def _slow_thermo(svg: str) -> None:
    _thermo(svg)
    assert elements(svg, "rule-slow-thermo")  # its marker: a hollow tube


def _arrow(svg: str) -> None:
    (circle,) = elements(svg, "rule-arrow-circle", "circle")
    assert at(circle, 0.5, 0.5) and circle.get("fill") == "#ffffff"
    (line,) = elements(svg, "rule-arrow", "path")
    assert points(line) == [(0.5, 0.5), (1.5, 0.5), (2.5, 0.5)]
    (head,) = elements(svg, "rule-arrow-head", "path")
    assert len(points(head)) == 3 and points(head)[1][0] > 2.5  # pointing on, past the last centre


def _circles_at_both_ends(kind: str) -> Check:
    def check(svg: str) -> None:
        circles = elements(svg, f"rule-{kind}-circle", "circle")
        assert len(circles) == 2 and at(circles[0], 0.5, 0.5) and at(circles[1], 2.5, 0.5)
        assert elements(svg, f"rule-{kind}", "path")

    return check


def _greater(svg: str) -> None:
    (chevron,) = elements(svg, "rule-greater", "path")
    wing, tip, other = points(chevron)
    assert wing[0] == other[0] < 1.0 < tip[0]  # on the edge, its point towards r1c2 (the smaller)


def _quad(svg: str) -> None:
    (circle,) = elements(svg, "rule-quad", "circle")
    assert at(circle, 1.0, 1.0) and circle.get("fill") == "#ffffff"
    assert texts(svg, "rule-quad-digits") == ["1 2"]


def _x_sum(svg: str) -> None:
    _outside("x-sum", "10", -0.5, 0.5)(svg)
    assert len(elements(svg, "rule-x-sum-bracket", "path")) == 2


def _lunchbox(svg: str) -> None:
    assert elements(svg, "rule-lunchbox", "path") and texts(svg, "rule-lunchbox-total") == ["5"]


EXPECTED: dict[str, Check] = {
    "cage": _dashed_outline_with_total("cage", "3", 1),
    "sum": _dashed_outline_with_total("sum", "10", 2),  # r1c1 and r2c2 touch by a corner only
    "little-killer": _outside("little-killer", "5", 2.6, -0.6),  # above r1c2, up the diagonal
    "arrow": _arrow,
    "double-arrow": _circles_at_both_ends("double-arrow"),
    "sandwich": _outside("sandwich", "10", -0.5, 0.5),
    "lunchbox": _lunchbox,
    "x-sum": _x_sum,
    "skyscraper": _outside("skyscraper", "3", 0.5, -0.5),
    "thermo": _thermo,
    "slow-thermo": _slow_thermo,
    "greater": _greater,
    "white-dot": _edge_circle("white-dot", "#ffffff"),
    "black-dot": _edge_circle("black-dot", "#000000"),
    "x": _letter("x", "X"),
    "v": _letter("v", "V"),
    "anti-consecutive": _note("anti-consecutive"),
    "strict-kropki": _note("negative kropki"),
    "strict-xv": _note("negative XV"),
    "whisper": _line("whisper"),
    "renban": _line("renban"),
    "palindrome": _line("palindrome"),
    "between": _circles_at_both_ends("between"),
    "region-sum-line": _line("region-sum-line"),
    "zipper": _line("zipper"),
    "entropic": _line("entropic"),
    "modular": _line("modular"),
    "sum-line": _line("sum-line"),
    "parity-line": _line("parity-line"),
    "candidates": lambda svg: None if texts(svg, "rule-candidates") == ["2468"] else pytest.fail(svg),
    "odd": lambda svg: None if len(elements(svg, "rule-odd", "circle")) == 1 else pytest.fail(svg),
    "even": lambda svg: None if len(elements(svg, "rule-even", "rect")) == 1 else pytest.fail(svg),
    "quad": _quad,
    "global-entropy": _note("global entropy"),
    "all-different": _note("no digit repeats in r1c1 r2c2 r3c3"),
    "digits": _note("digits from 0"),
}


def test_every_rule_type_is_in_the_drawing_table() -> None:
    """A new rule type fails here until it has a drawing function (and an expectation below)."""
    assert sorted(set(rule_types()) - set(DRAWERS)) == []
    assert sorted(set(rule_types()) - set(EXPECTED)) == []


@pytest.mark.parametrize("kind", RULE_TYPES)
def test_each_rule_type_is_drawn(kind: str) -> None:
    svg = render(puzzle_of(example(kind)))
    ET.fromstring(svg)  # well-formed
    drawn = [e for e in ET.fromstring(svg).iter() if (e.get("class") or "").startswith("rule")]
    assert drawn, f"{kind} left no mark"
    EXPECTED[kind](svg)


@pytest.mark.parametrize("kind", RULE_TYPES)
def test_rules_lie_under_the_digits(kind: str) -> None:
    givens = [0] * 81
    givens[40] = 5
    svg = render(puzzle_of(example(kind), givens=givens), candidates=True)
    order = [e.get("class") or "" for e in ET.fromstring(svg).iter()]
    first_digit = min(order.index("given"), order.index("candidate"))
    assert all(not c.startswith("rule-") for c in order[first_digit:])


def test_a_rule_type_missing_from_the_table_is_noted_not_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(DRAWERS, "thermo")
    canvas = draw_rules([example("thermo")], 9)
    assert canvas.notes == ["not drawn: thermometer"] and not canvas.under and not canvas.over


def test_outside_clues_take_a_margin_on_their_own_side() -> None:
    plain = view_box(render(puzzle_of()))
    row = [f"r1c{c}" for c in range(1, 10)]
    right = rule_from_json({"rule": "x-sum", "cells": row[::-1], "total": 10}, 9)
    svg = render(puzzle_of(right))
    (clue,) = elements(svg, "rule-x-sum", "text")
    assert at(clue, 9.5, 0.5)
    box = view_box(svg)
    assert box[0] == plain[0] and box[1] == plain[1] and box[2] == plain[2] + 1 and box[3] == plain[3]
    column = [f"r{r}c3" for r in range(9, 0, -1)]
    below = rule_from_json({"rule": "skyscraper", "cells": column, "count": 4}, 9)
    box = view_box(render(puzzle_of(below)))
    assert box[:3] == plain[:3] and box[3] == plain[3] + 1
    left_and_top = view_box(render(puzzle_of(example("sandwich"), example("skyscraper"))))
    assert left_and_top[0] == plain[0] - 1 and left_and_top[1] == plain[1] - 1


def test_a_cage_outline_follows_its_shape_inside_its_cells() -> None:
    # an L: r1c1, r2c1, r2c2 — one loop of six corners, inset into the cells
    (loop,) = cage_outlines([0, 9, 10], 9)
    assert len(loop) == 6
    xs, ys = [p[0] for p in loop], [p[1] for p in loop]
    assert 0 < min(xs) < 0.2 and 1.8 < max(xs) < 2 and 0 < min(ys) < 0.2 and 1.8 < max(ys) < 2
    assert any(0.8 < x < 1 and 1 < y < 1.2 for x, y in loop)  # the inner (concave) corner
    # a ring of eight cells: an outer loop and an inner one around the hole
    ring = [0, 1, 2, 9, 11, 18, 19, 20]
    assert sorted(len(loop) for loop in cage_outlines(ring, 9)) == [4, 4]


def test_an_iss_cage_with_a_repeated_cell_is_drawn_as_a_cage() -> None:
    # ISS reads such a cage as an all-different group and a sum over the same cells
    svg = render(parse_puzzle(".Cage~20~R4C2~R4C3~R4C4~R4C4"))
    (outline,) = elements(svg, "rule-sum", "path")
    assert outline.get("stroke") == "#000000"
    assert texts(svg, "rule-sum-total") == ["20"] and "no digit repeats" not in notes(svg)


def test_an_iss_string_draws_its_rules_under_its_givens() -> None:
    svg = render(parse_puzzle(".Cage~10~R1C1~R1C2.Thermo~R9C4~R8C3~R7C2.Whisper~5~R1C5~R2C6~R3C7.~R5C5_3"))
    assert texts(svg, "rule-cage-total") == ["10"] and texts(svg, "given") == ["3"]
    assert elements(svg, "rule-thermo-bulb") and elements(svg, "rule-whisper")


def test_whispers_of_different_gaps_are_labelled() -> None:
    german = rule_from_json({"rule": "whisper", "cells": ["r1c1", "r1c2"], "gap": 5}, 9)
    dutch = rule_from_json({"rule": "whisper", "cells": ["r5c1", "r5c2"], "gap": 4}, 9)
    svg = render(puzzle_of(german, dutch))
    assert texts(svg, "rule-whisper-gap") == ["5", "4"]
    only_dutch = render(puzzle_of(dutch))
    assert not texts(only_dutch, "rule-whisper-gap") and "differ by 4 or more" in notes(only_dutch)


def test_notes_fit_the_picture() -> None:
    """A note shrinks to fit the width of the picture, and breaks between words on a small grid."""
    for givens, lines in (("." * 81, 1), ("." * 16, 3)):
        svg = render(parse_puzzle(givens, variant="anti-knight+anti-king"))
        notes = elements(svg, "rule", "text")
        assert len(notes) == lines and "knight's" in " ".join(n.text or "" for n in notes)
        width = view_box(svg)[2]
        for note in notes:
            assert len(note.text or "") * 0.55 * float(note.get("font-size", 0)) <= width


def test_a_book_page_paints_every_rule_type() -> None:
    pytest.importorskip("fpdf")
    from shudu.render.pdf import BookEntry, book_pdf

    rules = [example(k) for k in RULE_TYPES if k not in ("lunchbox", "x-sum", "sandwich", "skyscraper")]
    entries = [
        BookEntry(1, "all", puzzle_of(*[r for r in rules if r.kind in ("cage", "thermo", "whisper")])),
        BookEntry(2, "outside", puzzle_of(example("sandwich"), example("little-killer"))),
        BookEntry(3, "dots", puzzle_of(example("white-dot"), example("quad"), example("sum"))),
    ]
    pdf = book_pdf(entries, per_page=4, solutions=False)
    assert pdf.startswith(b"%PDF") and len(pdf) > 1000
