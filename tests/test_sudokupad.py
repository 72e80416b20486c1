"""SudokuPad's own puzzles (``ctc``/``scl`` links): read by SudokuPad's drawing conventions,
written so that they read back, round trips with ISS strings and shudu's JSON on random rule
sets, and every drawing without a rule named in an error."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shudu
from shudu.errors import ParseError, ShuduError, VariantError
from shudu.formats import Document, detect_format, parse_json, read_document, to_json, write_document
from shudu.formats.iss import format_iss, parse_iss
from shudu.formats.lzstring import lz_compress_base64
from shudu.formats.sudokupad import LINE_COLOURS, format_sudokupad, parse_sudokupad
from shudu.puzzle import Puzzle
from shudu.rules import Rule, lookup
from shudu.variants import Variant
from test_rules import random_rule

#: The rule types the SudokuPad format writes (with their default numbers where they have some).
WRITTEN = [
    "cage", "thermo", "slow-thermo", "palindrome", "between", "renban", "whisper", "region-sum-line",
    "zipper", "entropic", "modular", "parity-line", "arrow", "little-killer", "white-dot",
    "black-dot", "x", "v", "odd", "even", "quad", "sandwich",
]  # fmt: skip


def _meaning(puzzle: Puzzle) -> tuple[Any, ...]:
    """What a puzzle says, whatever the form: givens, houses, anti-knight and anti-king, rules
    (the default numbers of whispers and modular lines written out)."""
    geo = puzzle.geometry
    rules = frozenset(_canonical(r) for r in geo.variant.rules)
    houses = frozenset(frozenset(h) for h in geo.house_cells)
    return puzzle.cells, houses, geo.variant.anti_knight, geo.variant.anti_king, rules


_SETS = {"cage", "sandwich", "white-dot", "black-dot", "x", "v", "odd", "even", "quad", "all-different"}
_BOTH_WAYS = {
    "palindrome", "between", "renban", "whisper", "region-sum-line", "zipper", "entropic", "modular",
    "parity-line",
}  # fmt: skip


def _canonical(rule: Rule) -> Rule:
    """The rule with its cells in one order where their order means nothing (a cage, a dot, a
    sandwich's row; a line read either way), and default numbers written out."""
    cells = rule.cells
    if rule.kind in _SETS:
        cells = tuple(sorted(cells))
    elif rule.kind in _BOTH_WAYS:
        cells = min(cells, cells[::-1])
    params = rule.params or {"whisper": (5,), "modular": (3,), "arrow": (1,)}.get(rule.kind, ())
    return Rule(rule.kind, cells, params)


@functools.cache
def _first_grid(n: int) -> tuple[int, ...]:
    return tuple(next(shudu.solutions(Puzzle([0] * (n * n)), algorithm="dlx")).cells)


def _random_puzzle(rng: random.Random, n: int) -> Puzzle:
    solution = _first_grid(n)
    perm = list(range(1, n + 1))
    rng.shuffle(perm)
    grid = tuple(perm[d - 1] for d in solution)
    rules: list[Rule] = []
    for kind in rng.sample(WRITTEN, rng.randint(1, 5)):
        try:
            rule = random_rule(kind, n, grid, rng)
            if kind == "whisper":
                rule = Rule(kind, rule.cells, (5,))
            if kind == "modular":
                rule = Rule(kind, rule.cells, (3,))
            if kind == "arrow" and rng.random() < 0.3:
                rule = Rule(kind, rule.cells)
            lookup(kind).validate(rule, n, 1)
        except Exception:  # a rule the generator cannot make here (random_rule raises its own)
            continue
        rules.append(rule)
    if rng.random() < 0.3:  # the diagonals, and no givens (the grid is not an X grid)
        return Puzzle([0] * (n * n), variant=shudu.variants.get("x", n).with_rules(rules, n))
    cells = [grid[c] if rng.random() < 0.2 else 0 for c in range(n * n)]
    return Puzzle(cells, variant=Variant().with_rules(rules, n))


def test_random_rule_sets_go_round_iss_json_and_sudokupad() -> None:
    rng = random.Random("sudokupad round trips")
    written = refused = 0
    for _ in range(200):
        n = rng.choice((6, 9))
        puzzle = _random_puzzle(rng, n)
        try:
            link = format_sudokupad(Document(puzzle))
        except ParseError as exc:
            # the one refusal the generated rules meet: a little killer off a whole diagonal
            assert "little killer" in str(exc) or "cannot say" in str(exc), exc
            refused += 1
            continue
        assert detect_format(link) == "sudokupad"
        back = parse_sudokupad(link).puzzle
        assert _meaning(back) == _meaning(puzzle), link
        assert _meaning(parse_json(json.dumps(to_json(back)))) == _meaning(puzzle)
        try:
            iss = format_iss(back)
        except ParseError:
            continue  # a rule ISS lacks (slow thermometers, parity lines …)
        again = parse_iss(iss)
        assert _meaning(again) == _meaning(puzzle), iss
        assert _meaning(parse_sudokupad(format_sudokupad(Document(again))).puzzle) == _meaning(puzzle)
        written += 1
    assert written >= 60 and refused < written


def test_a_puzzle_and_its_title_go_through_convert() -> None:
    puzzle = parse_iss(".Cage~10~R1C1~R1C2.Thermo~R3C3~R3C4~R4C5.~R5C5_3")
    link = write_document(Document(puzzle, title="Two rules"), "sudokupad")
    doc = read_document(link)
    assert doc.title == "Two rules" and _meaning(doc.puzzle) == _meaning(puzzle)
    assert shudu.solve(doc.puzzle, node_limit=50).status in ("multiple", "timeout")


# --- SudokuPad's conventions, as its converter from f-puzzles draws them --------------------------


def _link(data: dict[str, Any], prefix: str = "ctc") -> str:
    return f"https://sudokupad.app/{prefix}" + lz_compress_base64(json.dumps(data))


def _blank(n: int = 9, **parts: Any) -> dict[str, Any]:
    regions = [
        [[r, c] for r in range(3 * (b // 3), 3 * (b // 3) + 3) for c in range(3 * (b % 3), 3 * (b % 3) + 3)]
        for b in range(9)
    ]
    data: dict[str, Any] = {
        "cellSize": 50,
        "cells": [[{} for _ in range(n)] for _ in range(n)],
        "regions": regions,
    }
    data.update(parts)
    return data


def test_the_converters_drawings_read_as_their_rules() -> None:
    data = _blank(
        cages=[{"cells": [[0, 0], [0, 1]], "value": "10", "unique": True}, {"value": "title: Drawn"}],
        lines=[
            {"wayPoints": [[2.5, 2.5], [2.5, 3.5], [3.5, 4.5]], "color": "#CFCFCF", "thickness": 21},
            {"wayPoints": [[8.5, 0.5], [8.5, 3.5]], "color": "#F067F0", "thickness": 10},
            {"wayPoints": [[0, 0], [9, 9]], "color": "#34BBE6", "thickness": 2},
            {"wayPoints": [[0, 9], [9, 0]], "color": "#34BBE6", "thickness": 2},
        ],
        arrows=[{"wayPoints": [[5.8, 5.5], [6.5, 5.5], [7.5, 6.5]], "color": "#a1a1a1", "thickness": 5}],
        overlays=[
            {"center": [5.5, 5.5], "width": 0.75, "height": 0.75, "rounded": True, "borderColor": "#a1a1a1"},
            {"center": [1.5, 1], "width": 0.3, "height": 0.3, "rounded": True, "backgroundColor": "#000000"},
            {"center": [2, 6.5], "width": 0.3, "height": 0.3, "rounded": True, "backgroundColor": "#FFFFFF"},
            {"center": [4, 0.5], "width": 0.25, "height": 0.25, "text": "X"},
            {"center": [7, 7], "width": 0.7, "height": 0.7, "rounded": True, "text": "1 2"},
        ],
        underlays=[
            {
                "center": [2.5, 2.5],
                "width": 0.85,
                "height": 0.85,
                "rounded": True,
                "backgroundColor": "#CFCFCF",
            },
            {"center": [4.5, 8.5], "width": 0.7, "height": 0.7, "rounded": True},
            {"center": [3.5, 8.5], "width": 0.7, "height": 0.7, "rounded": False},
        ],
    )
    data["cells"][4][4] = {"value": "3"}
    doc = parse_sudokupad(_link(data))
    assert doc.title == "Drawn"
    puzzle = doc.puzzle
    assert puzzle.cells[40] == 3 and puzzle.geometry.variant.name == "x"
    assert set(puzzle.geometry.variant.rules) == {
        Rule("cage", (0, 1), (10,)),
        Rule("thermo", (20, 21, 31)),
        Rule("renban", (72, 73, 74, 75)),
        Rule("arrow", (50, 59, 69)),
        Rule("black-dot", (9, 10)),
        Rule("white-dot", (15, 24)),
        Rule("x", (27, 36)),
        Rule("quad", (60, 61, 69, 70), (1, 2)),
        Rule("odd", (44,)),
        Rule("even", (35,)),
    }


def test_sudokupads_short_form_reads() -> None:
    # keys without quotes, ' for ", t for true, #0 and bare colours, an empty place for {}
    short = (
        "{ce:[[{v:1},,,],[,,,],[,,,],[,,,]],re:[[[0,0],[0,1],[1,0],[1,1]],[[0,2],[0,3],[1,2],[1,3]],"
        "[[2,0],[2,1],[3,0],[3,1]],[[2,2],[2,3],[3,2],[3,3]]],"
        "ca:[{ce:[[3,2],[3,3]],v:7,unique:t},{v:'title: It\\'s short'}],"
        "o:[{ct:[0.5,2],w:0.3,h:0.3,r:t,c2:#0}],l:[{wp:[[2.5,0.5],[2.5,1.5]],c:cfcfcf,th:16}]}"
    )
    doc = parse_sudokupad(_link_text(short, "scl"))
    assert doc.title == "It's short"
    assert doc.puzzle.cells[0] == 1
    assert set(doc.puzzle.geometry.variant.rules) == {
        Rule("cage", (14, 15), (7,)),
        Rule("black-dot", (1, 2)),
        Rule("palindrome", (8, 9)),
    }


def _link_text(text: str, prefix: str) -> str:
    return f"https://sudokupad.app/{prefix}" + lz_compress_base64(text)


def test_outside_numbers_take_their_kind_from_the_rules_text() -> None:
    clue = {"center": [-0.5, 2.5], "width": 0.25, "height": 0.25, "text": "10"}
    base = _blank(overlays=[clue])
    with pytest.raises(ParseError, match=r"outside the grid.*name none"):
        parse_sudokupad(_link(base))
    base["cages"] = [{"value": "rules: Clues outside the grid are X-Sums."}]
    rules = parse_sudokupad(_link(base)).puzzle.geometry.variant.rules
    assert rules == (Rule("x-sum", tuple(r * 9 + 2 for r in range(9)), (10,)),)


@pytest.mark.parametrize(
    "parts, message",
    [
        ({"lines": [{"wayPoints": [[0.5, 0.5], [0.5, 1.5]], "color": "#123456", "thickness": 5}]},
         r"line 1: a line of colour '#123456' through r1c1… means no rule"),
        ({"overlays": [{"center": [4.5, 4.5], "width": 0.6, "height": 0.6, "rounded": True}]},
         r"overlays 1: a circle at row 4.5, column 4.5 means no rule"),
        ({"underlays": [{"center": [0.5, 0.5], "width": 1, "height": 1, "backgroundColor": "#ff0000"}]},
         r"underlays 1: a rectangle \(#ff0000\) at row 0.5, column 0.5 means no rule"),
        ({"metadata": {"bgimage": "https://example.org/lines.png"}}, r"'bgimage'.*an image"),
        ({"foglight": [[0, 0]]}, r"feature 'foglight' is not a rule"),
        ({"cages": [{"cells": [[0, 0], [0, 1]], "value": "?"}]}, r"cage 1: its value '\?' is not a total"),
        ({"arrows": [{"wayPoints": [[0.8, 0.5], [1.5, 0.5]], "color": "#a1a1a1"}]}, r"arrow 1 starts at r1c1, in no circle"),
        ({"lines": [{"wayPoints": [[0.5, 0.5], [2.5, 1.5]], "color": "#F067F0"}]}, r"neither straight nor diagonal"),
    ],
)  # fmt: skip
def test_a_drawing_without_a_rule_is_named(parts: dict[str, Any], message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_sudokupad(_link(_blank(**parts)))


@pytest.mark.parametrize(
    "text, message",
    [
        ("https://sudokupad.app/ctc!!!", "not base64"),
        ("https://sudokupad.app/scl" + lz_compress_base64("{ce:[[,],"), "short form: a \\[ is not closed"),
        (_link({"cells": [[{}] * 3] * 3}), "3 rows"),
        (_link(_blank(regions=[])), "no regions"),
    ],
)
def test_a_broken_link_gives_a_specific_error(text: str, message: str) -> None:
    with pytest.raises(ShuduError, match=message):
        parse_sudokupad(text)


def test_a_rule_the_format_cannot_draw_is_refused_by_name() -> None:
    for rule, name in (
        (Rule("sum-line", (0, 1, 2), (10,)), "sum line"),
        (Rule("greater", (0, 1)), "greater-than"),
        (Rule("whisper", (0, 1, 2), (4,)), "whisper"),
        (Rule("anti-consecutive"), "anti-consecutive"),
    ):
        puzzle = Puzzle([0] * 81, variant=Variant().with_rules([rule], 9))
        with pytest.raises(ParseError, match=f"cannot say a {name}"):
            format_sudokupad(Document(puzzle))
    both = [Rule("sandwich", tuple(range(9)), (5,)), Rule("x-sum", tuple(range(9, 18)), (6,))]
    with pytest.raises(ParseError, match="sandwich, x-sum clues alike"):
        format_sudokupad(Document(Puzzle([0] * 81, variant=Variant().with_rules(both, 9))))


def test_every_line_colour_names_a_rule() -> None:
    for kind in LINE_COLOURS.values():
        assert lookup(kind).title
    with pytest.raises(VariantError):
        lookup("no-such-rule")


# --- hostile input -----------------------------------------------------------------------------------

_num = st.one_of(
    st.integers(-3, 12), st.floats(-3, 12, allow_nan=False), st.sampled_from([0.5, 1e300, -1e300])
)
_point = st.lists(_num, min_size=0, max_size=3)
_value = st.one_of(_num, st.text(max_size=4), st.none(), st.booleans(), _point)
_item = st.dictionaries(
    st.sampled_from(
        ["center", "width", "height", "rounded", "text", "backgroundColor", "borderColor", "wayPoints",
         "color", "thickness", "cells", "value", "unique", "sum", "hidden", "style"]
    ),
    st.one_of(_value, st.lists(_point, max_size=4), st.sampled_from(["#CFCFCF", "#F067F0", "#000000", "X", "3"])),
    max_size=6,
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    parts=st.dictionaries(
        st.sampled_from(["cages", "lines", "arrows", "overlays", "underlays", "metadata", "regions", "foo"]),
        st.one_of(st.lists(_item, max_size=4), _value),
        max_size=4,
    ),
    short=st.text(alphabet="{}[],:'tf#0F1a.-\\", max_size=30),
)
def test_hostile_sudokupad_data_gives_a_shudu_error_or_a_puzzle(parts: dict[str, Any], short: str) -> None:
    for text in (_link(_blank(**parts)), "https://sudokupad.app/scl" + lz_compress_base64(short)):
        try:
            doc = parse_sudokupad(text)
        except ShuduError:
            continue
        assert isinstance(doc.puzzle, Puzzle)
