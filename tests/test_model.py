"""The model: shapes, houses, peers, variants, Puzzle and Grid value objects."""

from __future__ import annotations

import pickle
import random

import pytest

import shudu
from shudu import Grid, Puzzle, variants
from shudu.errors import ConflictError, ParseError, ShapeError, VariantError
from shudu.formats import parse_grid, parse_puzzle
from shudu.geometry import Geometry, default_box, parse_box
from shudu.notation import DIGITS, MAX_SIZE, MIN_SIZE, char_digit, char_digits
from shudu.variants import Variant, resolve_variant

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


@pytest.mark.parametrize(
    ("size", "box"),
    [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)), (10, (2, 5)), (12, (3, 4)),
     (15, (3, 5)), (16, (4, 4)), (20, (4, 5)), (25, (5, 5))],
)  # fmt: skip
def test_default_boxes(size: int, box: tuple[int, int]) -> None:
    assert default_box(size) == box
    geo = Geometry(size)
    assert len(geo.houses) == 3 * size
    assert all(len(h.cells) == size for h in geo.houses)
    # every cell lies in exactly one row, one column and one box
    assert all(len(hs) == 3 for hs in geo.cell_houses)


def test_peers_of_a_standard_cell() -> None:
    geo = Geometry(9)
    assert len(geo.peers[0]) == 20
    assert 0 not in geo.peers[0]
    assert set(geo.peers[40]) >= {36, 44, 4, 76, 30, 50}
    assert geo.links[0] == ()


def test_geometry_is_built_once_and_pickles() -> None:
    assert Geometry(9) is Geometry(9, (3, 3))
    geo = Geometry(6, (3, 2))
    assert pickle.loads(pickle.dumps(geo)) is geo
    assert Geometry(6, (3, 2)) != Geometry(6, (2, 3))


def test_box_shapes_that_do_not_tile() -> None:
    with pytest.raises(ShapeError, match="do not tile a 6x6"):
        Geometry(6, (3, 3))
    with pytest.raises(ShapeError, match="repeat the rows"):
        Geometry(6, (1, 6))
    with pytest.raises(ShapeError, match="RxC"):
        parse_box("3by2")
    with pytest.raises(ShapeError, match="prime"):
        default_box(7)


def test_pyramid_regions_as_documented() -> None:
    geo = Geometry(9, variant=variants.get("pyramid", 9))
    extra = {h.name: {geo.cell_name(c) for c in h.cells} for h in geo.houses if h.kind == "extra"}
    assert extra["pyramid top"] == {
        "r1c3", "r1c4", "r1c5", "r1c6", "r1c7", "r2c4", "r2c5", "r2c6", "r3c5",
    }  # fmt: skip
    assert extra["pyramid bottom"] == {
        "r9c3", "r9c4", "r9c5", "r9c6", "r9c7", "r8c4", "r8c5", "r8c6", "r7c5",
    }  # fmt: skip
    assert extra["pyramid left"] == {
        "r3c1", "r4c1", "r5c1", "r6c1", "r7c1", "r4c2", "r5c2", "r6c2", "r5c3",
    }  # fmt: skip
    assert extra["pyramid right"] == {
        "r3c9", "r4c9", "r5c9", "r6c9", "r7c9", "r4c8", "r5c8", "r6c8", "r5c7",
    }  # fmt: skip


def test_windoku_and_x_regions() -> None:
    windows = variants.get("windoku", 9).regions
    assert len(windows) == 4
    names = {Geometry(9).cell_name(c) for c in windows[0]}
    assert names == {f"r{r}c{c}" for r in (2, 3, 4) for c in (2, 3, 4)}
    x = variants.get("x", 4)
    assert x.regions == ((0, 5, 10, 15), (3, 6, 9, 12))
    with pytest.raises(VariantError, match="square boxes"):
        variants.get("windoku", 6)
    with pytest.raises(VariantError, match="odd square size"):
        variants.get("pyramid", 16)


def test_anti_knight_and_anti_king_links() -> None:
    knight = Geometry(9, variant=variants.get("anti-knight", 9))
    # r1c1 is a knight's move from r2c3 and r3c2, which are in its box: those need no link
    assert knight.links[0] == ()
    assert set(knight.links[4]) == {9 + 2, 9 + 6, 18 + 3, 18 + 5} - set(Geometry(9).peers[4])
    king = Geometry(9, variant=variants.get("anti-king", 9))
    assert set(king.peers[2]) - set(Geometry(9).peers[2]) == {12}  # r2c4 touches r1c3 diagonally
    assert king.relation(2, 12) == "a king's move (anti-king)"


def test_combined_variants() -> None:
    both = variants.get("x+anti-king", 9)
    assert both.name == "x+anti-king"
    assert both.anti_king and len(both.regions) == 2


def test_unknown_and_malformed_variants() -> None:
    with pytest.raises(VariantError, match="unknown variant 'diagonal'"):
        variants.get("diagonal", 9)
    with pytest.raises(VariantError, match="region 1 has 8 cells"):
        variants.get("custom", 9, regions=[list(range(8))])
    with pytest.raises(VariantError, match="outside the 9x9 grid"):
        variants.get("custom", 9, regions=[["r1c1", "r10c1"]])
    with pytest.raises(VariantError, match="lists r1c1 twice"):
        variants.get("custom", 9, regions=[[0, 0, 1, 2, 3, 4, 5, 6, 7]])
    with pytest.raises(VariantError, match="needs its layout"):
        variants.get("jigsaw", 9)
    with pytest.raises(VariantError, match="jigsaw region 1 has 5 cells; every region needs 4"):
        variants.get("jigsaw", 4, layout="1111122233334444")
    with pytest.raises(VariantError, match="jigsaw layout has 14 cells; a 4x4 grid needs 16"):
        variants.get("jigsaw", 4, layout="11112222333344")


def test_custom_regions_by_name_or_index() -> None:
    by_name = variants.get("custom", 4, regions=[["r1c1", "r2c2", "r3c3", "r4c4"]])
    by_index = variants.get("custom", 4, regions=[[0, 5, 10, 15]])
    assert by_name == by_index


def test_jigsaw_replaces_boxes() -> None:
    layout = "1122112233443344"
    geo = Geometry(4, variant=variants.get("jigsaw", 4, layout=layout))
    assert geo.box is None
    assert [h.kind for h in geo.houses].count("region") == 4
    assert [h.kind for h in geo.houses].count("box") == 0


def test_puzzle_value_object() -> None:
    a = parse_puzzle(INKALA)
    b = parse_puzzle(INKALA.replace(".", "0"))
    assert a == b and hash(a) == hash(b)
    assert a.to_string() == INKALA
    assert a.clues == 21
    assert repr(a) == f"parse_puzzle({INKALA!r})"
    assert eval(repr(a), {"parse_puzzle": parse_puzzle}) == a
    assert str(a) == INKALA
    assert a != parse_puzzle(INKALA.replace("8", ".", 1))
    assert a[0] == 8 and a[0, 0] == 8 and a[1, 2] == 3


def test_repr_rebuilds_variants_and_boxes() -> None:
    p = parse_puzzle("...36.2......5.......13......4..5.2.", box=(3, 2))
    assert "box=(3, 2)" in repr(p)
    assert eval(repr(p), {"parse_puzzle": parse_puzzle}) == p
    x = parse_puzzle("1" + "." * 15, variant="x")
    assert eval(repr(x), {"parse_puzzle": parse_puzzle}) == x
    g = parse_grid("12" + "." * 14, variant="anti-king")
    assert repr(g).startswith("parse_grid(") and eval(repr(g), {"parse_grid": parse_grid}) == g
    assert x != parse_puzzle("1" + "." * 15)


def test_conflicting_givens_name_both_cells_and_the_house() -> None:
    with pytest.raises(ConflictError) as caught:
        parse_puzzle("88" + "." * 79)
    err = caught.value
    assert err.cells == ("r1c1", "r1c2") and err.digit == 8 and err.house == "row 1"
    assert str(err) == "r1c1 and r1c2 both hold 8 in row 1"
    with pytest.raises(ConflictError, match="r1c1 and r4c4 both hold 1 in diagonal 1"):
        parse_puzzle("1" + "." * 14 + "1", variant="x")
    with pytest.raises(ConflictError, match="r1c3 and r2c5 both hold 1 a knight's move"):
        parse_puzzle("..1" + "." * 10 + "1" + "." * 67, variant="anti-knight")


def test_grid_checks() -> None:
    solution = shudu.solve(parse_puzzle(INKALA)).solution
    assert solution is not None
    assert solution.is_complete and solution.is_valid
    assert solution.is_solution_of(parse_puzzle(INKALA))
    broken = list(solution.cells)
    broken[0], broken[1] = broken[1], broken[0]
    grid = Grid(broken)
    assert not grid.is_valid and not grid.is_solution_of(parse_puzzle(INKALA))
    assert parse_grid("." * 81).is_valid and not parse_grid("." * 81).is_complete


def test_cell_values_are_checked() -> None:
    with pytest.raises(ParseError, match="r1c1 holds 10"):
        Puzzle([10] + [0] * 80)
    with pytest.raises(ParseError, match="80 cells"):
        Puzzle([0] * 80)


def test_boards_are_built_from_ints_and_checked() -> None:
    cells = list(parse_puzzle(INKALA).cells)
    assert Puzzle(cells) == parse_puzzle(INKALA)
    assert Puzzle([0] * 81, variant="x").variant.name == "x"
    assert Puzzle([0] * 36, box="3x2").box == (3, 2)
    with pytest.raises(ParseError, match="r1c2 holds True"):
        Puzzle([1, True] + [0] * 14)
    with pytest.raises(ParseError, match="r1c1 holds -1"):
        Grid([-1] + [0] * 15)
    with pytest.raises(ParseError, match="16 cells given for a 9x9 grid"):
        Grid([0] * 16, geometry=Geometry(9))
    with pytest.raises(ConflictError, match="r1c1 and r1c2 both hold 8"):
        Puzzle([8, 8] + [0] * 79)
    with pytest.raises(ParseError, match="sequence of ints, not int"):
        Puzzle(81)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [INKALA, INKALA.encode()])
def test_boards_take_no_text(text: str | bytes) -> None:
    """Text is read by shudu.formats alone: the value types refuse it and name the reader."""
    with pytest.raises(TypeError, match=r"shudu\.formats\.parse_puzzle"):
        Puzzle(text)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"shudu\.formats\.parse_grid"):
        Grid(text)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("size", "variant", "box"),
    [
        (4, None, None),
        (6, None, "3x2"),
        (9, None, None),
        (9, "x", None),
        (9, "windoku", None),
        (9, "anti-knight", None),
        (9, "anti-king", None),
        (9, "pyramid", None),
        (16, None, None),
    ],
)
def test_conflicts_are_found_as_the_pairwise_check_finds_them(
    size: int, variant: str | None, box: str | None
) -> None:
    """A Puzzle reads its houses at once to rule out conflicts; on random boards (a few digits
    to most cells filled, many with a clash) it accepts exactly the boards with no conflicting
    pair, and names the first pair :meth:`conflicts` names."""
    rng = random.Random(size * 7 + len(variant or ""))
    geometry = Geometry(size, parse_box(box) if box else None, variant)
    clear = 0
    for _ in range(300):
        cells = [0] * geometry.ncells
        filled = 1 + int(geometry.ncells * 0.6 * rng.random() ** 3)  # most boards sparse, some full
        for cell in rng.sample(range(geometry.ncells), filled):
            cells[cell] = rng.randint(1, size)
        pairs = list(Grid(cells, geometry=geometry).conflicts())
        clear += not pairs
        if not pairs:
            assert Puzzle(cells, geometry=geometry).cells == tuple(cells)
            continue
        with pytest.raises(ConflictError) as caught:
            Puzzle(cells, geometry=geometry)
        a, b = pairs[0]
        assert caught.value.cells == (geometry.cell_name(a), geometry.cell_name(b))
    assert 30 <= clear <= 270  # both kinds of board were met


def test_cell_values_are_checked_in_every_form() -> None:
    """The quick check of plain ints lets nothing through that the cell-by-cell one refuses, and
    refuses nothing it takes (an int subclass other than bool is an int)."""

    class Sub(int):
        pass

    for bad, shown in [(True, "True"), (2.0, "2.0"), (None, "None"), (10, "10"), (-2, "-2")]:
        with pytest.raises(ParseError, match=f"r1c2 holds {shown}"):
            Puzzle([1, bad] + [0] * 79)  # type: ignore[arg-type]
    assert Puzzle([1, Sub(3)] + [0] * 79).cells[:2] == (1, 3)


def test_the_digit_alphabet_read_at_once() -> None:
    """``char_digits`` is the table ``char_digit`` reads: digits and letters of the size (either
    case), ``.`` and ``0`` for empty, nothing else (no other character whose capital is a digit)."""
    for size in range(MIN_SIZE, MAX_SIZE + 1):
        table = char_digits(size)
        assert table == {char: char_digit(char, size) for char in table}
        assert sorted(set(table.values())) == list(range(size + 1))
        assert [table[c] for c in DIGITS[:size]] == list(range(1, size + 1))
        assert [table[c.lower()] for c in DIGITS[:size]] == list(range(1, size + 1))
        assert char_digit("\u0131", size) is None and char_digit("12", size) is None


def test_trusted_boards_equal_checked_ones() -> None:
    checked = parse_puzzle(INKALA)
    trusted = Puzzle.trusted(checked.cells, checked.geometry)
    assert trusted == checked and hash(trusted) == hash(checked)
    assert type(Grid.trusted(checked.cells, checked.geometry)) is Grid


def test_resolve_variant_takes_every_form() -> None:
    assert resolve_variant(None, 9) == Variant()
    by_name = resolve_variant("X+Anti-King", 9)
    assert by_name == variants.get("x", 9).combine(variants.get("anti-king", 9))
    assert resolve_variant({"variant": "x+anti-king"}, 9) == by_name
    assert resolve_variant(by_name, 9) is by_name
    assert Geometry(9, variant="x+anti-king") == Geometry(9, variant=by_name)
    jigsaw = resolve_variant({"layout": "1122112233443344"}, 4)
    assert jigsaw.layout == (0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3)
    custom = resolve_variant({"variant": "custom", "regions": [["r1c1", "r2c2", "r3c3", "r4c4"]]}, 4)
    assert custom.regions == ((0, 5, 10, 15),)
    with pytest.raises(VariantError, match="unknown variant 'diagonal'"):
        resolve_variant("diagonal", 9)
    with pytest.raises(VariantError, match="is for 9x9, not 4x4"):
        resolve_variant(variants.get("x", 9), 4)
    with pytest.raises(VariantError, match="not int"):
        resolve_variant(7, 9)  # type: ignore[arg-type]
    with pytest.raises(VariantError, match='"variant" must be a name'):
        resolve_variant({"variant": 7}, 9)


def test_cell_names_in_regions_use_the_shared_notation() -> None:
    region = variants.get("custom", 9, regions=[[" R1C1 ", "r2 c2", *range(20, 27)]]).regions[0]
    assert region[:2] == (0, 10)
    with pytest.raises(VariantError, match="'r0c1' lies outside the 9x9 grid"):
        variants.get("custom", 9, regions=[["r0c1", *range(1, 9)]])
    with pytest.raises(VariantError, match="'c1r1' is neither an index nor an r1c2 name"):
        variants.get("custom", 9, regions=[["c1r1", *range(1, 9)]])
