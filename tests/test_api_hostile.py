"""The contract holds at every edge: the Python API and the parsers with hostile arguments.

docs/errors.md, "Types and limits": a bad value is a ``ShuduError`` that says what and where; an
argument of the wrong Python type is a ``TypeError``; text beyond the limits (JSON nested too
deep, an integer of too many digits, a line too long) is a ``ParseError`` naming the limit and
the line, and in a batch it is that line's error alone. The last test throws typed but hostile
arguments at the whole public API (tools/fuzz_api.py runs the same property for millions of
calls).
"""

from __future__ import annotations

import contextlib
import json
import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import shudu
from shudu.errors import (
    OptionError,
    ParseError,
    SearchTimeout,
    ShapeError,
    ShuduError,
    SizeError,
    VariantError,
    check_size,
    shown,
)
from shudu.formats import (
    MAX_JSON_DEPTH,
    MAX_JSON_DIGITS,
    MAX_TEXT_LENGTH,
    JSONSyntaxError,
    load_json,
    lz_compress_base64,
    parse_json,
    read_document,
)
from shudu.generator import check_request
from shudu.geometry import Geometry, resolve_box

P4 = "1..............."
GRID4 = "1234341221434321"
P9 = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
BUDGET: dict[str, Any] = {"timeout": 0.05, "node_limit": 2000}


def nested(depth: int, field: str = "givens") -> str:
    return f'{{"{field}": ' + "[" * depth + "]" * depth + "}"


def with_number(digits: int, field: str = "size") -> str:
    number = "9" * digits
    value = {"box": f"[{number}, 3]", "regions": f"[[{number}]]", "givens": f"[{number}]"}.get(field, number)
    return f'{{"givens": "{P4}", "{field}": {value}}}'


def _hint_limits_json() -> bool:
    """Whether ``hint`` reads JSON boards through the limited loader (logic/engine/board.py)."""
    try:
        shudu.hint(nested(5000), timeout=1)
    except ShuduError:
        return True
    except (RecursionError, ValueError):
        return False
    return True


HINT_LIMITS_JSON = _hint_limits_json()
HINT_XFAIL = pytest.mark.xfail(
    not HINT_LIMITS_JSON,
    reason="logic/engine/board.py reads a JSON board with json.loads; it should call shudu.formats.load_json",
    strict=True,
)


# --- JSON within limits: depth, digits, constants --------------------------------------------------

READERS_OF_TEXT = [
    pytest.param(lambda t: shudu.parse_puzzle(t), id="parse_puzzle"),
    pytest.param(lambda t: shudu.parse_grid(t), id="parse_grid"),
    pytest.param(lambda t: parse_json(t), id="parse_json"),
    pytest.param(lambda t: shudu.solve(t, **BUDGET), id="solve"),
    pytest.param(lambda t: shudu.count(t, 2, **BUDGET), id="count"),
    pytest.param(lambda t: shudu.rate(t, **BUDGET), id="rate"),
    pytest.param(lambda t: shudu.explain(t, **BUDGET), id="explain"),
    pytest.param(lambda t: shudu.hint(t, **BUDGET), id="hint", marks=HINT_XFAIL),
    pytest.param(lambda t: read_document(t), id="read_document"),
    pytest.param(lambda t: read_document(t, "json"), id="read_document-json"),
]


@pytest.mark.parametrize("read", READERS_OF_TEXT)
@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 5000, 100_000])
@pytest.mark.parametrize("field", ["givens", "regions", "x"])
def test_json_nested_too_deep_is_a_parse_error(read: Any, depth: int, field: str) -> None:
    with pytest.raises(ParseError, match=f"nested more than {MAX_JSON_DEPTH} lists or objects deep"):
        read(nested(depth, field))


@pytest.mark.parametrize("read", READERS_OF_TEXT)
@pytest.mark.parametrize("field", ["size", "box", "givens", "regions", "layout"])
@pytest.mark.parametrize("digits", [MAX_JSON_DIGITS + 1, 4301, 5000, 50_000])
def test_json_integer_of_too_many_digits_is_a_parse_error(read: Any, field: str, digits: int) -> None:
    with pytest.raises(ParseError, match=f"has {digits} digits; at most {MAX_JSON_DIGITS} are read"):
        read(with_number(digits, field))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[NaN]", "NaN is not a JSON number"),
        ("[Infinity]", "Infinity is not a JSON number"),
        ("[-Infinity]", "-Infinity is not a JSON number"),
        ("[1e999]", "is too large"),
        ("[-1e999]", "is too large"),
        ("[" + "1" * 300 + ".5]", f"at most {2 * MAX_JSON_DIGITS} are read"),
        ("[" * 70 + '"' + '\\"' * 1000, f"nested more than {MAX_JSON_DEPTH}"),
        ("x" * (MAX_TEXT_LENGTH + 1), f"at most {MAX_TEXT_LENGTH} are read"),
    ],
)
def test_load_json_refuses_what_is_not_json_or_beyond_its_limits(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        load_json(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH, None),
        ("[" + "9" * MAX_JSON_DIGITS + "]", [int("9" * MAX_JSON_DIGITS)]),
        ("[-" + "9" * MAX_JSON_DIGITS + "]", [-int("9" * MAX_JSON_DIGITS)]),
        ('{"a": "' + "[" * 500 + '"}', {"a": "[" * 500}),  # brackets in a string do not nest
        ('["\\"[[[[", 1.5e3]', ['"[[[[', 1500.0]),
    ],
)
def test_load_json_reads_what_is_within_its_limits(text: str, value: Any) -> None:
    loaded = load_json(text)
    if value is not None:
        assert loaded == value


def test_a_json_syntax_error_is_a_parse_error_and_a_json_decode_error() -> None:
    with pytest.raises(JSONSyntaxError) as caught:
        load_json('{\n "givens": }')
    error = caught.value
    assert isinstance(error, ParseError) and isinstance(error, json.JSONDecodeError)
    assert (error.msg, error.lineno, error.colno, error.column) == ("Expecting value", 2, 12, 12)
    assert str(error) == "invalid JSON: Expecting value at line 2 column 12"
    error.at_line(7)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is JSONSyntaxError and str(again) == str(error) and again.line == 7


@pytest.mark.parametrize(
    "text",
    [
        '{"givens": "' + P4 + '", "size": ' + "9" * 40 + "}",
        '{"givens": "' + P4 + '", "size": -' + "9" * 40 + "}",
        '{"givens": "' + P4 + '", "size": 26}',
        '{"givens": "' + P4 + '", "size": 0}',
        '{"givens": "' + P4 + '", "size": true}',
        '{"givens": "' + P4 + '", "size": 4.0}',
    ],
)
def test_a_json_size_out_of_range_is_a_size_error(text: str) -> None:
    with pytest.raises(SizeError, match='"size" must be a whole number from 4 to 25'):
        shudu.parse_puzzle(text)


# --- lines too long, and a batch that answers every other line -------------------------------------


def test_a_text_too_long_is_a_parse_error_naming_the_limit() -> None:
    long = "." * (MAX_TEXT_LENGTH + 1)
    for read in (shudu.parse_puzzle, shudu.parse_grid, read_document, parse_json):
        with pytest.raises(
            ParseError, match=f"{MAX_TEXT_LENGTH + 1} characters long; at most {MAX_TEXT_LENGTH}"
        ):
            read(long)
    with pytest.raises(ParseError, match="line 3: the puzzle is") as caught:
        shudu.parse_puzzle(long, line=3)
    assert caught.value.line == 3
    with pytest.raises(ParseError, match="cells"):  # at the limit: read, and refused as no square grid
        shudu.parse_puzzle("." * MAX_TEXT_LENGTH)


def test_an_lz_string_bomb_is_refused() -> None:
    link = "https://www.f-puzzles.com/?load=" + lz_compress_base64("a" * (MAX_TEXT_LENGTH + 1000))
    assert len(link) < 20_000
    with pytest.raises(ParseError, match=f"expands to over {MAX_TEXT_LENGTH} characters"):
        read_document(link)


BAD_LINES: list[tuple[Any, str]] = [
    (nested(5000), "nested more than 64"),
    (with_number(5000), "has 5000 digits"),
    ("1" * (MAX_TEXT_LENGTH + 1), f"the line is {MAX_TEXT_LENGTH + 1} characters long"),
    (b"1" * (MAX_TEXT_LENGTH + 1), f"the line is {MAX_TEXT_LENGTH + 1} bytes long"),
    (b"\xff" + P4[1:].encode(), "not UTF-8"),
    (12345, "a line must be text (str) or bytes, not int"),
    (None, "not NoneType"),
    ('{"givens": "' + P4 + '", "variant": ""}', '"variant" must be a name'),
    ('{"givens": "' + P4 + '", "box": [2.5, 2]}', "box must be two whole numbers"),
    ('{"givens": "' + P4 + '", "box": 3}', '"box" must be'),
    ('{"givens": NaN}', "NaN is not a JSON number"),
]


@pytest.mark.parametrize(("bad", "message"), BAD_LINES)
def test_a_bad_line_of_a_batch_is_its_own_error(bad: Any, message: str) -> None:
    lines = [P4, bad, GRID4 + "\n", "# comment", P9]
    entries = list(shudu.read_puzzles(lines))
    assert [e.line for e in entries] == [1, 2, 3, 5]
    assert [str(e.puzzle) for e in entries if e.puzzle] == [P4, GRID4, P9]
    error = entries[1].error
    assert isinstance(error, ParseError | VariantError | ShapeError) and error.line == 2
    assert message in str(error) and str(error).startswith("line 2: ")
    if "long" in message:
        assert len(entries[1].text) <= 200  # what is shown of a line too long is its start


def test_a_grid_block_too_long_is_its_own_error() -> None:
    rows = ["1 . | . ."] * (MAX_TEXT_LENGTH // 9 + 2)
    entries = list(shudu.read_puzzles([*rows, "", "1 . | . .", ". . | . .", ". . | . .", ". . | . ."]))
    assert len(entries) == 2
    assert entries[0].error is not None and "the grid block is over" in str(entries[0].error)
    assert entries[1].puzzle is not None and entries[1].line == len(rows) + 2


@pytest.mark.parametrize(("bad", "_"), BAD_LINES[:3])
def test_solve_many_answers_the_other_lines(bad: Any, _: str) -> None:
    result = shudu.solve_many([P4, bad, GRID4], limit=2, node_limit=10_000)
    assert result.statuses[0] == "multiple" and result.statuses[2] == "unique"
    assert result.statuses[1] == "invalid" and result.errors[1] is not None and result.errors[1].line == 2


def test_solutions_checks_its_input_at_the_call_and_keeps_to_its_budget() -> None:
    with pytest.raises(ParseError):
        shudu.solutions("12")  # raised here, not at the first next()
    with pytest.raises(OptionError, match="node_limit"):
        shudu.solutions(P4, node_limit=0)
    found = shudu.solutions("." * 81, node_limit=500)
    with pytest.raises(SearchTimeout):
        for _ in found:
            pass
    assert len(list(shudu.solutions("." * 16))) == 288


@pytest.mark.parametrize("lines", [P4, P4.encode(), 123, None, 1.5])
def test_read_puzzles_refuses_what_is_not_lines(lines: Any) -> None:
    with pytest.raises(TypeError, match=r"read_puzzles\(\) takes an iterable of lines"):
        shudu.read_puzzles(lines)


# --- box: a tuple, a list or RxC text, everywhere -------------------------------------------------


def _read_one(text: str, **options: Any) -> shudu.Puzzle:
    """The one puzzle of a batch of one line, or its error raised."""
    (entry,) = shudu.read_puzzles([text], **options)
    if entry.error is not None:
        raise entry.error
    assert entry.puzzle is not None
    return entry.puzzle


BOX_FORMS = [(3, 3), [3, 3], "3x3", "3X3", " 3 x 3 ", "3×3"]
BOX_TAKERS = [
    pytest.param(lambda box: shudu.solve(P9, box=box, **BUDGET).puzzle.box, id="solve"),
    pytest.param(lambda box: shudu.count(P9, 2, box=box, **BUDGET) and (3, 3), id="count"),
    pytest.param(lambda box: shudu.rate(P9, box=box, **BUDGET).puzzle.box, id="rate"),
    pytest.param(lambda box: shudu.parse_puzzle(P9, box=box).box, id="parse_puzzle"),
    pytest.param(lambda box: shudu.parse_grid(P9, box=box).box, id="parse_grid"),
    pytest.param(lambda box: _read_one(P9, box=box).box, id="read_puzzles"),
    pytest.param(lambda box: shudu.Puzzle([0] * 81, box=box).box, id="Puzzle"),
    pytest.param(lambda box: shudu.Grid([0] * 81, box=box).box, id="Grid"),
    pytest.param(lambda box: Geometry(9, box).box, id="Geometry"),
    pytest.param(lambda box: parse_json({"givens": P9, "box": box}).box, id="json-box"),
    pytest.param(lambda box: parse_json({"givens": P9}, box=box).box, id="parse_json"),
    pytest.param(lambda box: check_request(9, box=box) and (3, 3), id="check_request"),
    pytest.param(lambda box: shudu.generate(9, box=box, seed=1, timeout=5).puzzle.box, id="generate"),
]


@pytest.mark.parametrize("take", BOX_TAKERS)
@pytest.mark.parametrize("box", BOX_FORMS, ids=repr)
def test_every_form_of_a_box_is_taken_everywhere(take: Any, box: Any) -> None:
    if isinstance(box, str) and box != "3x3" and "generate" in repr(take):
        pytest.skip("one text form is enough for the generator")
    # the box was taken and the search began, but its time ran out (the pure-Python core is slower)
    with contextlib.suppress(shudu.generator.GeneratorTimeout, shudu.errors.SearchTimeout):
        assert take(box) == (3, 3)


@pytest.mark.parametrize("take", [p for p in BOX_TAKERS if p.id not in ("json-box",)])
@pytest.mark.parametrize("box", [3.5, 3, True, b"3x3", {}, {3, 4}, object()], ids=repr)
def test_a_box_of_the_wrong_type_is_a_type_error(take: Any, box: Any) -> None:
    with pytest.raises(TypeError, match="box must be"):
        take(box)


@pytest.mark.parametrize("take", BOX_TAKERS)
@pytest.mark.parametrize(
    "box",
    [[3], [3, 3, 3], [], ["3", "3"], [True, 3], [3.0, 3], [0, 0], [-3, -3], (10**5000, 1), [1, 9], (2, 3),
     "3x", "x3", "3x3x3", "²x3", "３x３", "9" * 5000 + "x1", "", "3 by 3", "-3x-3"],
    ids=shown,
)  # fmt: skip
def test_a_bad_box_is_a_shape_error(take: Any, box: Any) -> None:
    with pytest.raises(ShapeError):
        take(box)


def test_a_box_of_the_json_form_must_be_a_list_or_text() -> None:
    for raw in (3, 3.5, None, True, {"rows": 3}):
        with pytest.raises(ShapeError, match='"box" must be'):
            parse_json({"givens": P9, "box": raw})
    assert resolve_box(None) is None and resolve_box([2, 3]) == (2, 3)


# --- sizes: 4 to 25, one error everywhere ---------------------------------------------------------

BAD_SIZES = [-1, 0, 1, 2, 3, 26, 100, 10**100, -(10**5000), True, False, 9.0, "9", 4.5]
SIZE_TAKERS = [
    pytest.param(lambda n: shudu.generate(n, timeout=0.05), id="generate"),
    pytest.param(lambda n: check_request(n), id="check_request"),
    pytest.param(lambda n: Geometry(n), id="Geometry"),
    pytest.param(lambda n: shudu.geometry.default_box(n), id="default_box"),
    pytest.param(lambda n: check_size(n), id="check_size"),
]


@pytest.mark.parametrize("take", SIZE_TAKERS)
@pytest.mark.parametrize("size", BAD_SIZES, ids=shown)
def test_every_size_outside_4_to_25_is_one_size_error(take: Any, size: Any) -> None:
    with pytest.raises(SizeError, match=r"^size must be a whole number from 4 to 25, not ") as caught:
        take(size)
    error = caught.value
    assert isinstance(error, OptionError) and isinstance(error, ShapeError)
    assert error.option == "size" and len(str(error)) < 120


@pytest.mark.parametrize("count", [1, 4, 9, 10, 676, 729])
def test_a_cell_count_of_no_size_is_a_parse_error(count: int) -> None:
    """A puzzle's size follows from its cells: a count that is no square of 4 to 25 is text of
    the wrong length (a ParseError naming the range), in the value types and the readers alike."""
    for make in (lambda: shudu.Puzzle([0] * count), lambda: shudu.parse_puzzle("." * count)):
        with pytest.raises(ParseError, match="4x4 to 25x25"):
            make()


def test_prime_sizes_in_range_still_name_the_jigsaw() -> None:
    with pytest.raises(ShapeError, match="prime"):
        Geometry(7)


# --- variants: an empty name is an error, a wrong type a TypeError --------------------------------

EMPTY_NAMES = ["", " ", "\t", "+", "x+", "+x", "x++anti-king"]
VARIANT_TAKERS = [
    pytest.param(lambda v: shudu.solve(P4, variant=v, **BUDGET), id="solve"),
    pytest.param(lambda v: shudu.count(P4, 2, variant=v, **BUDGET), id="count"),
    pytest.param(lambda v: shudu.rate(P4, variant=v, **BUDGET), id="rate"),
    pytest.param(lambda v: shudu.parse_puzzle(P4, variant=v), id="parse_puzzle"),
    pytest.param(lambda v: _read_one(P4, variant=v), id="read_puzzles"),
    pytest.param(lambda v: shudu.Puzzle([0] * 16, variant=v), id="Puzzle"),
    pytest.param(lambda v: Geometry(4, variant=v), id="Geometry"),
    pytest.param(lambda v: check_request(4, variant=v), id="check_request"),
    pytest.param(lambda v: shudu.generate(4, variant=v, timeout=0.05), id="generate"),
]


@pytest.mark.parametrize("take", VARIANT_TAKERS)
@pytest.mark.parametrize("name", EMPTY_NAMES, ids=repr)
def test_an_empty_variant_name_is_an_error_naming_the_argument(take: Any, name: str) -> None:
    with pytest.raises(VariantError, match=r"^variant (must be a name|'.*' has an empty part)"):
        take(name)


@pytest.mark.parametrize("name", EMPTY_NAMES, ids=repr)
def test_an_empty_variant_in_json_is_an_error_naming_the_field(name: str) -> None:
    entry = next(shudu.read_puzzles([json.dumps({"givens": P4, "variant": name})]))
    assert entry.error is not None and '"variant" ' in str(entry.error) and entry.error.line == 1
    with pytest.raises(VariantError, match='"variant"'):
        shudu.solve(P4, variant={"variant": name}, **BUDGET)


@pytest.mark.parametrize("take", VARIANT_TAKERS)
@pytest.mark.parametrize("variant", [42, 4.5, True, b"x", ["x"], ("x",), object()], ids=repr)
def test_a_variant_of_the_wrong_type_is_a_type_error(take: Any, variant: Any) -> None:
    with pytest.raises(TypeError, match="variant must be a name"):
        take(variant)


def test_names_of_variants_still_read() -> None:
    assert shudu.parse_puzzle(P4, variant=" X + anti-king ").variant.name == "x+anti-king"
    assert shudu.parse_puzzle(P4, variant=None).variant.is_standard
    assert shudu.parse_puzzle(P4, variant={"variant": "x"}).variant.name == "x"


# --- other arguments of the wrong Python type ------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: shudu.solve(123), "expected a Puzzle or puzzle text, not int"),  # type: ignore[arg-type]
        (lambda: shudu.solve(b"1..............."), "not bytes"),  # type: ignore[arg-type]
        (lambda: shudu.count(None), "not NoneType"),  # type: ignore[arg-type]
        (lambda: shudu.rate(1.5), "not float"),  # type: ignore[arg-type]
        (lambda: shudu.explain(["1"]), "not list"),  # type: ignore[arg-type]
        (lambda: shudu.parse_puzzle(123), r"parse_puzzle\(\) takes text"),  # type: ignore[arg-type]
        (lambda: shudu.parse_grid(None), r"parse_grid\(\) takes text"),  # type: ignore[arg-type]
        (lambda: parse_json(5), r"parse_json\(\) takes JSON text or a dict"),  # type: ignore[arg-type]
        (lambda: read_document(b"{}"), r"read_document\(\) takes text"),  # type: ignore[arg-type]
        (lambda: read_document(P4, 5), "fmt must be a format name"),  # type: ignore[arg-type]
        (lambda: shudu.solve(P4, algorithm=42), "algorithm must be a name"),  # type: ignore[arg-type]
        (lambda: shudu.generate(4, level=42), "level must be a name"),  # type: ignore[arg-type]
        (lambda: shudu.generate(4, technique=5), "technique must be a name"),  # type: ignore[arg-type]
        (lambda: shudu.generate(4, symmetry=None), "symmetry must be a name"),  # type: ignore[arg-type]
        (lambda: shudu.generate(4, minimal="yes"), "minimal must be True or False"),  # type: ignore[arg-type]
        (lambda: load_json(b"{}"), r"load_json\(\) takes text"),  # type: ignore[arg-type]
    ],
)
def test_an_argument_of_the_wrong_type_is_a_type_error(call: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        call()


@pytest.mark.parametrize("value", ["x", "0.5", b"1", True, None])
def test_text_in_a_numeric_option_stays_an_option_error(value: Any) -> None:
    """docs/errors.md promised it before TypeError was the rule: bools and text are not numbers."""
    if value is None:
        shudu.solve(P4, timeout=value, node_limit=100)
        return
    for option in ("timeout", "node_limit"):
        with pytest.raises(OptionError, match=f"^{option} must be "):
            shudu.solve(P4, **{option: value})  # type: ignore[arg-type]


# --- the whole public API, fuzzed -----------------------------------------------------------------

P9S = (P9, "." * 81, "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
GOOD = st.sampled_from((P4, GRID4, "11" + "." * 14, "1" + "." * 35, *P9S))
HOSTILE_JSON = st.one_of(
    st.builds(nested, st.sampled_from([63, 64, 65, 5000]), st.sampled_from(["givens", "regions", "x"])),
    st.builds(with_number, st.sampled_from([99, 101, 5000]), st.sampled_from(["size", "box", "givens"])),
    st.fixed_dictionaries(
        {"givens": GOOD},
        optional={
            "size": st.sampled_from([4, 9, 0, -1, 26, True, 9.0, "9", None, 10**40, float("nan")]),
            "box": st.sampled_from([[2, 2], [3, 3], "2x2", [0, 0], [2], 3, 3.5, None, [True, 2], "x"]),
            "variant": st.sampled_from(["", " ", "+", "x", "x+", "windoku", "nope", 42, None, "jigsaw"]),
            "regions": st.sampled_from([[[0, 5, 10, 15]], [["r1c1"]], 5, [[None]], [[10**30]], "x"]),
            "layout": st.sampled_from(["1122112233443344", "1" * 16, 5, [0] * 16, []]),
            "nope": st.just(1),
        },
    ).map(json.dumps),
)
TEXTS: st.SearchStrategy[Any] = st.one_of(
    GOOD,
    HOSTILE_JSON,
    st.text(alphabet='123456789.0ABP#{}[]",:x \n\t|+-\ufeff\x00é１', max_size=40),
    st.text(max_size=20),
    st.sampled_from(["", "{", "[]", "null", "\ufeff" + P4, "." * 676, ":0000::" + "." * 81 + ":::"]),
    st.sampled_from([None, 123, 1.5, b"1...............", ["1"], shudu.Puzzle([0] * 16)]),
)
BOXES = st.one_of(
    st.none(),
    st.sampled_from(
        [(2, 2), [2, 2], "2x2", "3x3", [3, 3], "2x3", 3.5, 3, (0, 0), ["2", "2"], [2, 2, 2], b"2x2"]
    ),
    st.tuples(st.integers(-(2**70), 2**70), st.integers(-3, 30)),
    st.text(alphabet="0123456789x× ²", max_size=8),
)
VARIANTS = st.one_of(
    st.none(),
    st.sampled_from(["", " ", "+", "x+", "x", "x+anti-king", "windoku", "jigsaw", "nope", 42, b"x", []]),
    st.sampled_from([{"variant": ""}, {"regions": [[0, 5, 10, 15]]}, {"layout": "1122112233443344"}]),
)
SIZES = st.one_of(st.integers(-(2**70), 2**70), st.sampled_from([None, 4, 6, 9, True, 9.0, "9"]))
SECONDS = st.sampled_from([0.001, 0.01, 0.05, 0, -1, float("nan"), float("inf"), "x", True, 10**100])
NODES = st.sampled_from([1, 10, 100, 2000, 0, -1, True, "5", 2**63, 1.5])
LINES = st.lists(st.one_of(TEXTS, TEXTS.filter(lambda t: isinstance(t, str)).map(str.encode), st.binary()))
HOSTILE = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def _beyond_limits(text: object) -> bool:
    try:
        load_json(text) if isinstance(text, str) and text.lstrip().startswith("{") else None
    except JSONSyntaxError:
        return False
    except ParseError:
        return True
    return False


@HOSTILE
@given(
    name=st.sampled_from(
        [
            "solve",
            "count",
            "parse_puzzle",
            "parse_grid",
            "read_puzzles",
            "rate",
            "explain",
            "hint",
            "generate",
            "solve_many",
        ]
    ),
    text=TEXTS,
    box=BOXES,
    variant=VARIANTS,
    timeout=SECONDS,
    node_limit=NODES,
    data=st.data(),
)
def test_the_public_api_answers_or_raises_a_shudu_error_or_a_type_error(
    name: str, text: Any, box: Any, variant: Any, timeout: Any, node_limit: Any, data: st.DataObject
) -> None:
    """Typed but hostile arguments: nothing escapes but ShuduError and TypeError, and every call is
    bounded (a small timeout and node limit, or one refused before any work)."""
    if name == "hint" and not HINT_LIMITS_JSON:
        assume(not _beyond_limits(text))
    budget = {"timeout": timeout, "node_limit": node_limit}
    shape = {"box": box, "variant": variant}
    calls = {
        "solve": lambda: shudu.solve(text, **budget, **shape),
        "count": lambda: shudu.count(
            text, data.draw(st.sampled_from([1, 2, 1000, 0, "2"])), **budget, **shape
        ),
        "parse_puzzle": lambda: shudu.parse_puzzle(text, **shape),
        "parse_grid": lambda: shudu.parse_grid(text, **shape),
        "read_puzzles": lambda: list(shudu.read_puzzles(data.draw(LINES), **shape)),
        "rate": lambda: shudu.rate(text, steps=data.draw(st.booleans()), **budget, **shape),
        "explain": lambda: shudu.explain(text, allow_multiple=data.draw(st.booleans()), **budget),
        "hint": lambda: shudu.hint(text, data.draw(st.sampled_from(["step", "cell", "x", ""])), **budget),
        "generate": lambda: shudu.generate(data.draw(SIZES), timeout=timeout, seed=1, **shape),
        "solve_many": lambda: shudu.solve_many(data.draw(LINES), 2, timeout=timeout, node_limit=node_limit),
    }
    with contextlib.suppress(ShuduError, TypeError):
        calls[name]()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"extraregion": 5}, '"extraregion" must be a list'),
        ({"extraregion": [{"cells": 5}]}, "extra region must be a list"),
        (
            {"grid": [[{"centerPencilMarks": 5}] * 4] * 4},
            "pencil marks of f-puzzles cell r1c1 must be a list",
        ),
        ({"grid": [[{"value": True}] * 4] * 4}, "holds True"),
    ],
)
def test_an_f_puzzles_field_of_the_wrong_json_type_is_a_parse_error(
    extra: dict[str, Any], message: str
) -> None:
    data = {"size": 4, "grid": [[{}] * 4] * 4, **extra}
    with pytest.raises(ParseError, match=message):
        read_document(json.dumps(data), "fpuzzles")


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"timeout": "x"}, OptionError, "timeout must be a number of seconds"),
        ({"timeout": 0}, OptionError, "timeout must be a number of seconds"),
        ({"seed": "x"}, TypeError, "seed must be a whole number"),
        ({"seed": -1}, OptionError, "seed must be 0 or more"),
        ({"se": "nan-nan"}, ShuduError, r"e\.g\. 6\.6-7\.2"),
    ],
)
def test_generate_names_its_bad_arguments(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        shudu.generate(**kwargs)  # type: ignore[arg-type]
