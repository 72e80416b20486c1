"""f-puzzles constraints read and written as shudu rules (formats/fpuzzles_rules.py)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest

import shudu
from shudu.errors import ParseError, ShuduError
from shudu.formats import Document, parse_puzzle
from shudu.formats.fpuzzles import format_fpuzzles, parse_fpuzzles
from shudu.formats.lzstring import lz_compress_base64
from shudu.rules import Rule


def fp(size: int = 9, **keys: Any) -> dict[str, Any]:
    """An f-puzzles object: an empty grid of ``size`` and these constraint keys."""
    return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)], **keys}


def rules_of(data: dict[str, Any] | str) -> tuple[Rule, ...]:
    text = data if isinstance(data, str) else json.dumps(data)
    return parse_fpuzzles(text).puzzle.variant.rules


def at(name: str, n: int = 9) -> int:
    """The index of an ``r1c2`` cell."""
    row, col = name.lower().lstrip("r").split("c")
    return (int(row) - 1) * n + int(col) - 1


def cells(*names: str, n: int = 9) -> tuple[int, ...]:
    return tuple(at(name, n) for name in names)


ROW = [f"R1C{c}" for c in range(1, 10)]
ROW1 = cells(*ROW)
COLUMN9 = cells(*(f"R{r}C9" for r in range(1, 10)))

#: (f-puzzles keys, the rules shudu reads from them)
CASES: list[tuple[dict[str, Any], list[Rule]]] = [
    (
        {"killercage": [{"cells": ["R1C1", "R1C2"], "value": "9"}, {"cells": ["R2C1", "R3C1"], "value": 4}]},
        [Rule("cage", cells("r1c1", "r1c2"), (9,)), Rule("cage", cells("r2c1", "r3c1"), (4,))],
    ),
    ({"killercage": [{"cells": ["R5C5", "R5C6", "R6C6"]}]}, [Rule("cage", cells("r5c5", "r5c6", "r6c6"))]),
    ({"killercage": [{"cells": ["R5C5", "R5C6"], "value": ""}]}, [Rule("cage", cells("r5c5", "r5c6"))]),
    (
        {"littlekillersum": [{"cell": "R0C1", "direction": "DR", "value": "34"}]},
        [Rule("little-killer", cells(*(f"r{k}c{k + 1}" for k in range(1, 9))), (34,))],
    ),
    (
        {"littlekillersum": [{"cell": "R4C10", "direction": "DL", "value": "14", "cells": ["R5C9"]}]},
        [Rule("little-killer", cells("r5c9", "r6c8", "r7c7", "r8c6", "r9c5"), (14,))],
    ),
    (
        {"littlekillersum": [{"cell": "R10C3", "direction": "UL", "value": 3}]},
        [Rule("little-killer", cells("r9c2", "r8c1"), (3,))],
    ),
    ({"littlekillersum": [{"cell": "R0C1", "direction": "DR", "value": ""}]}, []),
    ({"sandwichsum": [{"cell": "R1C0", "value": "27"}]}, [Rule("sandwich", ROW1, (27,))]),
    ({"sandwichsum": [{"cell": "R1C10", "value": "27"}]}, [Rule("sandwich", ROW1, (27,))]),
    ({"sandwichsum": [{"cell": "R0C9", "value": 0}]}, [Rule("sandwich", COLUMN9, (0,))]),
    ({"xsum": [{"cell": "R1C0", "value": "38"}]}, [Rule("x-sum", ROW1, (38,))]),
    ({"xsum": [{"cell": "R1C10", "value": "38"}]}, [Rule("x-sum", ROW1[::-1], (38,))]),
    ({"skyscraper": [{"cell": "R0C9", "value": "1"}]}, [Rule("skyscraper", COLUMN9, (1,))]),
    ({"skyscraper": [{"cell": "R10C9", "value": "4"}]}, [Rule("skyscraper", COLUMN9[::-1], (4,))]),
    ({"skyscraper": [{"cell": "R10C9", "value": ""}]}, []),
    (
        {"arrow": [{"cells": ["R2C5"], "lines": [["R2C5", "R3C6", "R4C6"], ["R2C5", "R1C5"]]}]},
        [Rule("arrow", cells("r2c5", "r3c6", "r4c6")), Rule("arrow", cells("r2c5", "r1c5"))],
    ),
    (
        {"arrow": [{"cells": ["R2C8", "R2C7"], "lines": [["R2C8", "R3C8", "R4C8"]]}]},
        [Rule("arrow", cells("r2c7", "r2c8", "r3c8", "r4c8"), (2,))],
    ),
    (
        {"thermometer": [{"lines": [["R6C4", "R6C5", "R6C6"], ["R1C1", "R2C2"]]}]},
        [Rule("thermo", cells("r6c4", "r6c5", "r6c6")), Rule("thermo", cells("r1c1", "r2c2"))],
    ),
    ({"slowthermometer": [{"lines": [["R7C3", "R7C2", "R6C1"]]}]}, [Rule("slow-thermo", cells("r7c3", "r7c2", "r6c1"))]),
    ({"betweenline": [{"lines": [["R4C4", "R4C5", "R4C6"]]}]}, [Rule("between", cells("r4c4", "r4c5", "r4c6"))]),
    ({"palindrome": [{"lines": [["R6C4", "R7C3"]]}]}, [Rule("palindrome", cells("r6c4", "r7c3"))]),
    ({"renban": [{"lines": [["R2C3", "R3C3", "R3C4"]]}]}, [Rule("renban", cells("r2c3", "r3c3", "r3c4"))]),
    ({"whispers": [{"lines": [["R9C5", "R9C6", "R8C5"]]}]}, [Rule("whisper", cells("r9c5", "r9c6", "r8c5"), (5,))]),
    ({"whispers": [{"lines": [["R1C1", "R1C2"]], "value": "4"}]}, [Rule("whisper", cells("r1c1", "r1c2"), (4,))]),
    ({"dutchwhispers": [{"lines": [["R1C1", "R1C2"]]}]}, [Rule("whisper", cells("r1c1", "r1c2"), (4,))]),
    ({"entropicline": [{"lines": [["R5C1", "R5C2", "R5C3"]]}]}, [Rule("entropic", cells("r5c1", "r5c2", "r5c3"))]),
    ({"modularline": [{"lines": [["R8C1", "R8C2", "R8C3"]]}]}, [Rule("modular", cells("r8c1", "r8c2", "r8c3"), (3,))]),
    ({"zipperline": [{"lines": [["R1C1", "R1C2", "R1C3"]]}]}, [Rule("zipper", cells("r1c1", "r1c2", "r1c3"))]),
    ({"regionsumline": [{"lines": [["R3C2", "R3C3", "R3C4"]]}]}, [Rule("region-sum-line", cells("r3c2", "r3c3", "r3c4"))]),
    ({"doublearrow": [{"lines": [["R1C1", "R1C2", "R1C3"]]}]}, [Rule("double-arrow", cells("r1c1", "r1c2", "r1c3"))]),
    ({"difference": [{"cells": ["R7C2", "R7C3"]}, {"cells": ["R1C1", "R2C1"], "value": "1"}]},
     [Rule("white-dot", cells("r7c2", "r7c3")), Rule("white-dot", cells("r1c1", "r2c1"))]),
    ({"ratio": [{"cells": ["R8C5", "R9C5"], "value": 2}]}, [Rule("black-dot", cells("r8c5", "r9c5"))]),
    (
        {"xv": [{"cells": ["R8C7", "R8C8"], "value": "X"}, {"cells": ["R5C8", "R6C8"], "value": "v"}]},
        [Rule("x", cells("r8c7", "r8c8")), Rule("v", cells("r5c8", "r6c8"))],
    ),
    ({"odd": [{"cell": "R1C2"}, {"cell": "R3C3"}]}, [Rule("odd", cells("r1c2", "r3c3"))]),
    ({"even": [{"cell": "R1C3"}]}, [Rule("even", cells("r1c3"))]),
    (
        {"quadruple": [{"cells": ["R2C2", "R1C1", "R1C2", "R2C1"], "values": [1, "4"]}]},
        [Rule("quad", cells("r1c1", "r1c2", "r2c1", "r2c2"), (1, 4))],
    ),
    ({"extraregion": [{"cells": ["R1C1", "R5C5"]}]}, [Rule("all-different", cells("r1c1", "r5c5"))]),
    ({"nonconsecutive": True}, [Rule("anti-consecutive")]),
    ({"nonconsecutive": True, "negative": ["ratio"]}, [Rule("strict-kropki")]),
    (
        {"nonconsecutive": True, "negative": ["ratio"], "ratio": [{"cells": ["R1C1", "R1C2"]}]},
        [Rule("black-dot", cells("r1c1", "r1c2")), Rule("strict-kropki")],
    ),
    ({"negative": ["xv"]}, [Rule("strict-xv")]),
    (
        {"line": [{"lines": [["R1C1", "R1C2"]], "fromConstraint": "Renban"}], "renban": [{"lines": [["R1C1", "R1C2"]]}]},
        [Rule("renban", cells("r1c1", "r1c2"))],
    ),
]  # fmt: skip


def _links(data: dict[str, Any]) -> list[str]:
    text = json.dumps(data)
    packed = lz_compress_base64(text)
    return [
        text,
        "https://www.f-puzzles.com/?load=" + packed,
        "https://sudokupad.app/fpuzzles" + packed,
        "sudokupad.app/sudoku/fpuzzles" + packed,
    ]


@pytest.mark.parametrize(("keys", "expected"), CASES)
def test_every_constraint_reads_as_its_rules(keys: dict[str, Any], expected: list[Rule]) -> None:
    for text in _links(fp(**keys)):
        assert list(rules_of(text)) == expected


@pytest.mark.parametrize(("keys", "expected"), CASES)
def test_constraints_round_trip(keys: dict[str, Any], expected: list[Rule]) -> None:
    first = parse_fpuzzles(json.dumps(fp(**keys)))
    written = format_fpuzzles(first)
    second = parse_fpuzzles(written)
    assert second.puzzle == first.puzzle
    assert format_fpuzzles(second) == written


def test_given_pencil_marks_are_restricted_cells_both_ways() -> None:
    data = fp(4)
    data["grid"][0][1] = {"givenPencilMarks": [4, 2]}
    puzzle = parse_fpuzzles(json.dumps(data)).puzzle
    assert puzzle.variant.rules == (Rule("candidates", (1,), (2, 4)),)
    assert puzzle == parse_puzzle(".Shape~4x4.~R1C2_2_4")
    written = json.loads(format_fpuzzles(Document(parse_puzzle(".Shape~4x4.~R1C2_2_4")), link=False))
    assert written["grid"][0][1] == {"givenPencilMarks": [2, 4]}


# --- one puzzle, from ISS's constraint string and from f-puzzles --------------------------------

SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
ISS = (
    ".~R5C1_3"
    ".Cage~9~R1C1~R1C2.Cage~15~R5C5~R5C6~R6C5.Cage~~R9C1~R9C2"
    ".Thermo~R6C4~R6C5~R6C6.Arrow~R2C5~R3C6~R4C6.PillArrow~2~R2C7~R2C8~R3C8~R4C8"
    ".LittleKiller~34~R8C9.Sandwich~27~R1.Sandwich~6~C1.XSum~R9~38~.Skyscraper~R5~~5.Skyscraper~C9~1~"
    ".WhiteDot~R7C2~R7C3.BlackDot~R8C5~R9C5.BlackDot~R9C3~R9C4.X~R8C7~R8C8.V~R5C8~R6C8"
    ".Whisper~5~R9C5~R9C6~R8C5.Renban~R2C3~R3C3~R3C4.Between~R4C4~R4C5~R4C6"
    ".Palindrome~R6C4~R7C3.Entropic~R5C1~R5C2~R5C3.Modular~3~R8C1~R8C2~R8C3.Quad~R1C1~1~4"
)


def _fpuzzles_puzzle() -> dict[str, Any]:
    data = fp(
        title="Everything at once",
        killercage=[
            {"cells": ["R1C1", "R1C2"], "value": "9"},
            {"cells": ["R5C5", "R5C6", "R6C5"], "value": "15"},
            {"cells": ["R9C1", "R9C2"]},
        ],
        thermometer=[{"lines": [["R6C4", "R6C5", "R6C6"]]}],
        arrow=[
            {"cells": ["R2C5"], "lines": [["R2C5", "R3C6", "R4C6"]]},
            {"cells": ["R2C7", "R2C8"], "lines": [["R2C8", "R3C8", "R4C8"]]},
        ],
        littlekillersum=[{"cell": "R0C1", "direction": "DR", "value": "34"}],
        sandwichsum=[{"cell": "R1C0", "value": "27"}, {"cell": "R0C1", "value": "6"}],
        xsum=[{"cell": "R9C0", "value": "38"}],
        skyscraper=[{"cell": "R5C10", "value": "5"}, {"cell": "R0C9", "value": "1"}],
        difference=[{"cells": ["R7C2", "R7C3"]}],
        ratio=[{"cells": ["R8C5", "R9C5"]}, {"cells": ["R9C3", "R9C4"]}],
        xv=[{"cells": ["R8C7", "R8C8"], "value": "X"}, {"cells": ["R5C8", "R6C8"], "value": "V"}],
        whispers=[{"lines": [["R9C5", "R9C6", "R8C5"]]}],
        renban=[{"lines": [["R2C3", "R3C3", "R3C4"]]}],
        betweenline=[{"lines": [["R4C4", "R4C5", "R4C6"]]}],
        palindrome=[{"lines": [["R6C4", "R7C3"]]}],
        entropicline=[{"lines": [["R5C1", "R5C2", "R5C3"]]}],
        modularline=[{"lines": [["R8C1", "R8C2", "R8C3"]]}],
        quadruple=[{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, 4]}],
    )
    data["grid"][4][0] = {"value": 3, "given": True}
    return data


def test_a_puzzle_with_rules_solves_alike_from_iss_and_from_f_puzzles() -> None:
    from_iss = parse_puzzle(ISS)
    for text in _links(_fpuzzles_puzzle()):
        doc = parse_fpuzzles(text)
        assert doc.title == "Everything at once"
        assert doc.puzzle.cells == from_iss.cells
        assert len(doc.puzzle.variant.rules) == len(from_iss.variant.rules) == 24
        assert shudu.count(doc.puzzle, limit=2) == shudu.count(from_iss, limit=2) == 1
        solved = shudu.solve(doc.puzzle).solution
        assert solved is not None and str(solved) == SOLUTION
    assert str(shudu.solve(from_iss).solution) == SOLUTION


def test_iss_rules_go_through_f_puzzles_unchanged() -> None:
    from_iss = parse_puzzle(ISS)
    back = parse_fpuzzles(format_fpuzzles(Document(from_iss))).puzzle
    assert sorted(back.variant.rules, key=repr) == sorted(from_iss.variant.rules, key=repr)
    assert back.cells == from_iss.cells
    again = parse_fpuzzles(format_fpuzzles(Document(back))).puzzle
    assert again == back


def test_the_whole_puzzle_round_trips() -> None:
    first = parse_fpuzzles(json.dumps(_fpuzzles_puzzle()))
    second = parse_fpuzzles(format_fpuzzles(first))
    assert second == first
    third = parse_fpuzzles(format_fpuzzles(second, link=False))
    assert third == first


# --- what f-puzzles has and shudu does not, and the other way round -----------------------------


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ({"minimum": [{"cell": "R1C1"}]}, "'minimum' is not a rule shudu has"),
        ({"maximum": [{"cell": "R1C1"}]}, "'maximum' is not a rule shudu has"),
        ({"clone": [{"cells": ["R1C1"], "cloneCells": ["R9C9"]}]}, "'clone' is not a rule shudu has"),
        ({"disjointgroups": True}, "'disjointgroups' is not a rule shudu has"),
        ({"nabner": [{"lines": [["R1C1", "R1C2"]]}]}, "'nabner' is not a rule shudu has"),
        ({"columnindexer": [{"cells": ["R1C1"]}]}, "'columnindexer' is not a rule shudu has"),
        ({"line": [{"lines": [["R1C1", "R1C2"]]}]}, "'line' is not a rule shudu has"),
        ({"text": [{"cells": ["R1C1"], "value": "?"}]}, "'text' is not a rule shudu has"),
        ({"difference": [{"cells": ["R1C1", "R1C2"], "value": "3"}]}, "difference 1: a white kropki dot .* value 3"),
        ({"ratio": [{"cells": ["R1C1", "R1C2"], "value": 3}]}, "ratio 1: a black kropki dot .* value 3"),
        ({"xv": [{"cells": ["R1C1", "R1C2"], "value": "XV"}]}, "xv 1: 'XV' is neither X nor V"),
        ({"xv": [{"cells": ["R1C1", "R1C2"]}]}, "xv 1: None is neither X nor V"),
        ({"negative": ["difference"]}, "negative constraint 'difference' is not a rule shudu has"),
        ({"negative": ["ratio"]}, "negative ratio without nonconsecutive"),
        ({"nonconsecutive": True, "difference": [{"cells": ["R1C1", "R1C2"]}]}, "nonconsecutive with kropki"),
        ({"arrow": [{"cells": ["R1C1", "R1C2", "R1C3", "R1C4"], "lines": [["R1C4", "R2C5"]]}]}, "circle of 4 cells"),
        ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "50"}]}, "killercage 1: no 2 different digits add up to 50"),
        ({"killercage": [{"cells": ["R1C1"], "value": "1?"}]}, "killercage 1: the cage total: '1\\?' is not a whole"),
        ({"thermometer": [{"lines": [["R1C1", "R3C3"]]}]}, "thermometer 1: a thermometer: r1c1 and r3c3"),
        ({"sandwichsum": [{"cell": "R1C1", "value": "3"}]}, "sandwichsum 1: an outside clue sits beside a row"),
        ({"sandwichsum": [{"cell": "R0C0", "value": "3"}]}, "outside clue sits beside a row or column"),
        ({"littlekillersum": [{"cell": "R0C9", "direction": "UR", "value": "3"}]}, "misses the grid"),
        ({"littlekillersum": [{"cell": "R0C1", "direction": "down", "value": "3"}]}, "direction must be one of"),
    ],
)  # fmt: skip
def test_what_shudu_lacks_is_refused_by_name(keys: dict[str, Any], message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_fpuzzles(json.dumps(fp(**keys)))


@pytest.mark.parametrize(
    ("iss", "message"),
    [
        (".Sum~10~R1C1~R2C2", "cannot say a sum"),
        (".Lunchbox~5~R1C1~R1C2~R1C3~R1C4", "cannot say a lunchbox"),
        (".SumLine~10~R1C1~R1C2~R1C3", "cannot say a sum line"),
        (".GreaterThan~R1C1~R1C2", "cannot say a greater-than sign"),
        (".GlobalEntropy", "cannot say a global entropy"),
        (".Modular~4~R1C1~R1C2~R1C3~R1C4", "cannot say a modular line"),
        (".AntiConsecutive.WhiteDot~R1C1~R1C2", "cannot say anti-consecutive with dots"),
    ],
)
def test_what_f_puzzles_lacks_is_refused_on_writing(iss: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        format_fpuzzles(Document(parse_puzzle(iss)))


def test_rules_f_puzzles_cannot_draw_are_refused_on_writing() -> None:
    lines = {
        "parity line": Rule("parity-line", (0, 1, 2)),
        "little killer": Rule("little-killer", (1, 11), (5,)),  # not a whole diagonal
        "pill": Rule("arrow", (1, 0, 9), (2,)),  # a pill that does not read left to right
    }
    for what, rule in lines.items():
        puzzle = shudu.Puzzle([0] * 81, variant=shudu.variants.get("standard", 9).with_rules([rule], 9))
        with pytest.raises(ParseError, match="f-puzzles"):
            format_fpuzzles(Document(puzzle))
        assert what


def test_sudokupad_own_forms_are_read_as_such() -> None:
    # SudokuPad's own ctc/scl links go to its reader (tests/test_sudokupad.py): these are cut short
    for link in ("https://sudokupad.app/ctcN4IgzglgXgpiBcB", "https://sudokupad.app/sclN4Igzg"):
        with pytest.raises(ParseError, match="not lz-string data"):
            parse_fpuzzles(link)


# --- hostile shapes -------------------------------------------------------------------------------

RULE_KEYS = [
    "killercage", "littlekillersum", "sandwichsum", "xsum", "skyscraper", "arrow", "thermometer",
    "slowthermometer", "palindrome", "renban", "betweenline", "entropicline", "modularline",
    "zipperline", "regionsumline", "doublearrow", "whispers", "difference", "ratio", "xv", "odd",
    "even", "quadruple", "extraregion",
]  # fmt: skip
BAD_ENTRIES: list[Any] = [
    5,
    "R1C1",
    {"a": 1},
    [5],
    ["R1C1"],
    [None],
    [[]],
    [{}],
    [{"cells": "R1C1", "cell": 5, "lines": "R1C1", "value": [1], "values": 5, "direction": 5}],
    [{"cells": [5], "cell": ["R1C1"], "lines": [5], "value": {"a": 1}, "values": [[1]], "direction": []}],
    [{"cells": ["X1"], "cell": "R99C99", "lines": [["R1C1", 5]], "value": True, "values": [True]}],
    [{"cells": ["R10C1", "R1C1"], "cell": "R1C", "lines": [[]], "value": "1.5", "values": ["a"]}],
    [{"cells": [], "cell": "", "lines": [], "value": 10**12, "values": [], "direction": "UP"}],
]


@pytest.mark.parametrize("key", RULE_KEYS)
def test_wrong_json_types_in_a_constraint_are_parse_errors(key: str) -> None:
    for bad in BAD_ENTRIES:
        with pytest.raises(ParseError):
            parse_fpuzzles(json.dumps(fp(**{key: bad})))


@pytest.mark.parametrize(
    "data",
    [
        fp(nonconsecutive="yes"),
        fp(nonconsecutive=1),
        fp(negative="ratio"),
        fp(negative=[5]),
        fp(negative={"ratio": True}),
        fp(antiknight="no"),
        {**fp(), "diagonal+": [1]},
        fp(title=5),
        {**fp(), "size": True},
        {**fp(3), "size": 3},
        {**fp(), "size": "9"},
        {"size": 4, "grid": [[{"givenPencilMarks": 5}] * 4] * 4},
        {"size": 4, "grid": [[{"givenPencilMarks": [7]}] * 4] * 4},
        {"size": 4, "grid": [[{"givenPencilMarks": ["a"]}] * 4] * 4},
        fp(line=[{"fromConstraint": ""}]),
        fp(line=5),
        [1, 2],
    ],
)
def test_wrong_json_types_elsewhere_are_parse_errors(data: Any) -> None:
    with pytest.raises(ParseError):
        parse_fpuzzles(json.dumps(data))


def test_every_error_is_a_shudu_error() -> None:
    """Each key given each value of every JSON type: a ShuduError at worst, never a crash."""
    values: list[Any] = [None, True, 0, -1, 1.5, "", "R1C1", [], {}, [[]], [{}], [[1]], [{"cells": ["R1C1"]}]]
    for key in [*RULE_KEYS, "nonconsecutive", "negative", "size", "grid", "title", "line", "cage"]:
        for value in values:
            data = fp(4)
            data[key] = value
            with contextlib.suppress(ShuduError):
                parse_fpuzzles(json.dumps(data))
