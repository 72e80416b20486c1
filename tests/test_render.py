"""Pictures: the SVG is parsed back and its shapes checked against the board, worked out anew."""

from __future__ import annotations

import argparse
import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from shudu import find_steps, solve
from shudu.cli import printing
from shudu.cli._base import Commands, Output, Parser
from shudu.formats import parse_grid, parse_puzzle
from shudu.logic.engine.chain_structure import Chain
from shudu.notation import digit_char
from shudu.render import RenderError, render, render_step, svg_to_png

SVG = "{http://www.w3.org/2000/svg}"
PUZZLE = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
STEPS = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."


def shapes(svg: str, kind: str, tag: str | None = None) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter() if e.get("class") == kind and (tag is None or e.tag == SVG + tag)]


def naive_candidates(cells: tuple[int, ...], n: int, box: tuple[int, int]) -> list[set[int]]:
    """Each open cell's digits not seen in its row, column or box (rows/columns/boxes only)."""
    out = []
    for i, v in enumerate(cells):
        r, c = divmod(i, n)
        seen = {cells[r * n + k] for k in range(n)} | {cells[k * n + c] for k in range(n)}
        br, bc = r // box[0] * box[0], c // box[1] * box[1]
        seen |= {cells[(br + a) * n + bc + b] for a in range(box[0]) for b in range(box[1])}
        out.append(set() if v else set(range(1, n + 1)) - seen)
    return out


def test_givens_and_box_borders_of_a_standard_puzzle() -> None:
    puzzle = parse_puzzle(PUZZLE)
    svg = render(puzzle)
    givens = shapes(svg, "given", "text")
    assert len(givens) == puzzle.clues
    assert sorted(e.text or "" for e in givens) == sorted(digit_char(d) for d in puzzle.cells if d)
    # two thick lines each way between the 3x3 boxes, nine cell edges long
    assert len(shapes(svg, "border", "line")) == 2 * 2 * 9
    assert len(shapes(svg, "cell-line", "line")) == 2 * 8
    assert not shapes(svg, "region") and not shapes(svg, "diagonal") and not shapes(svg, "rule")


def test_pyramid_regions_are_shaded_cell_by_cell() -> None:
    puzzle = parse_puzzle(PUZZLE, variant="pyramid")
    svg = render(puzzle)
    shaded = {(float(e.get("x", -1)), float(e.get("y", -1))) for e in shapes(svg, "region", "rect")}
    extra = [h for h in puzzle.geometry.houses if h.kind == "extra"]
    assert len(extra) == 4
    expected = {(float(c % 9), float(c // 9)) for h in extra for c in h.cells}
    assert shaded == expected and len(expected) == 36
    assert not shapes(svg, "diagonal")


def test_x_draws_both_diagonals_and_shades_nothing() -> None:
    svg = render(parse_puzzle("1..............2", variant="x"))
    diagonals = shapes(svg, "diagonal", "line")
    ends = {(e.get("x1"), e.get("y1"), e.get("x2"), e.get("y2")) for e in diagonals}
    assert ends == {("0", "0", "4", "4"), ("0", "4", "4", "0")}
    assert not shapes(svg, "region")


def test_windoku_shades_its_windows() -> None:
    svg = render(parse_puzzle("." * 81, variant="windoku"))
    assert len(shapes(svg, "region", "rect")) == 4 * 9


def test_jigsaw_borders_follow_the_layout() -> None:
    layout = "111222333111222333141252663144255563445556663444458666777758999778888999777888999"
    svg = render(parse_puzzle("." * 81, variant={"variant": "jigsaw", "layout": layout}))
    expected = sum(
        1
        for r in range(9)
        for c in range(9)
        for rr, cc in ((r, c + 1), (r + 1, c))
        if rr < 9 and cc < 9 and layout[r * 9 + c] != layout[rr * 9 + cc]
    )
    assert len(shapes(svg, "border", "line")) == expected


def test_anti_knight_and_anti_king_are_noted() -> None:
    svg = render(parse_puzzle("." * 81, variant="anti-knight+anti-king"))
    (note,) = shapes(svg, "rule", "text")
    assert "anti-knight" in (note.text or "") and "anti-king" in (note.text or "")


def test_sixteen_by_sixteen_uses_letters() -> None:
    cells = ["."] * 256
    cells[0], cells[17], cells[255] = "G", "A", "1"
    svg = render(parse_puzzle("".join(cells)))
    assert sorted(e.text or "" for e in shapes(svg, "given")) == ["1", "A", "G"]
    assert len(shapes(svg, "border", "line")) == 3 * 2 * 16


def test_solution_fills_the_open_cells() -> None:
    puzzle = parse_puzzle(PUZZLE)
    solution = solve(puzzle).solution
    assert solution is not None
    svg = render(puzzle, solution=solution)
    drawn = shapes(svg, "solution", "text")
    assert len(drawn) == 81 - puzzle.clues
    for e in drawn:
        cell = int(float(e.get("y", 0))) * 9 + int(float(e.get("x", 0)))
        assert e.text == digit_char(solution.cells[cell]) and puzzle.cells[cell] == 0


def test_pencil_marks_match_a_naive_count() -> None:
    puzzle = parse_puzzle(PUZZLE)
    svg = render(puzzle, candidates=True)
    drawn: dict[int, set[int]] = {}
    for e in shapes(svg, "candidate", "text"):
        cell = int(float(e.get("y", 0))) * 9 + int(float(e.get("x", 0)))
        drawn.setdefault(cell, set()).add(int(e.text or 0))
    expected = naive_candidates(puzzle.cells, 9, (3, 3))
    assert {c: s for c, s in enumerate(expected) if s} == drawn


def test_a_grid_draws_entries() -> None:
    grid = parse_grid("12.............4")
    svg = render(grid)
    assert len(shapes(svg, "entry", "text")) == 3 and not shapes(svg, "given")


def test_step_strikes_its_eliminations_and_shades_its_houses() -> None:
    puzzle = parse_puzzle(STEPS)
    step = find_steps(puzzle, "Locked candidates (pointing)").steps[0]
    svg = render_step(puzzle, step)
    assert step.eliminations
    assert len(shapes(svg, "struck", "line")) == len(step.eliminations)
    assert len(shapes(svg, "pattern", "rect")) == len(step.cells)
    house_cells = {c for h in puzzle.geometry.houses if h.name in step.houses for c in h.cells}
    assert len(shapes(svg, "house", "rect")) == sum(
        len(h.cells) for h in puzzle.geometry.houses if h.name in step.houses
    )
    assert set(step.cells) <= house_cells


def test_chain_links_are_drawn_strong_and_weak() -> None:
    puzzle = parse_puzzle(STEPS)
    step = next(s for s in find_steps(puzzle, "ALS-XZ") if isinstance(s.structure, Chain))
    assert isinstance(step.structure, Chain)
    svg = render_step(puzzle, step)
    links = step.structure.links
    strong = shapes(svg, "link-strong", "line")
    weak = shapes(svg, "link-weak", "line")
    assert len(strong) == sum(1 for link in links if link.kind == "strong")
    assert len(weak) == sum(1 for link in links if link.kind == "weak")
    assert all(e.get("stroke-dasharray") for e in weak) and not any(e.get("stroke-dasharray") for e in strong)


def test_placement_is_ringed() -> None:
    puzzle = parse_puzzle(STEPS)
    step = find_steps(puzzle, "Naked single").steps[0]
    svg = render_step(puzzle, step)
    assert len(shapes(svg, "placement", "circle")) == len(step.placements) == 1


def test_puzzle_shows_itself_in_a_notebook() -> None:
    puzzle = parse_puzzle(PUZZLE)
    assert puzzle._repr_svg_() == render(puzzle)
    ET.fromstring(puzzle._repr_svg_())


def test_bad_things_to_draw_are_refused() -> None:
    with pytest.raises(RenderError, match="cannot draw a str"):
        render(PUZZLE)
    with pytest.raises(RenderError, match="80 cells"):
        render(parse_puzzle(PUZZLE), solution=[1] * 80)


def test_png_is_a_picture_of_the_right_size() -> None:
    pytest.importorskip("cairosvg", reason="PNG needs the optional cairosvg")
    png = svg_to_png(render(parse_puzzle(PUZZLE)))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (380, 380)  # 9.5 cells of 40 pixels


def run(argv: list[str]) -> tuple[argparse.Namespace, Output]:
    parser = Parser(prog="shudu")
    printing.register(Commands(parser.add_subparsers(dest="command")))
    args = parser.parse_args(argv)
    out = Output(io.StringIO(), io.StringIO())
    args.run(args, out)
    return args, out


def test_cli_render_writes_svg(tmp_path: Path) -> None:
    target = tmp_path / "p.svg"
    _, out = run(["render", "12" + "." * 79, "--variant", "x", "-o", str(target)])
    assert not out.bad_input
    svg = target.read_text()
    assert len(shapes(svg, "given")) == 2
    assert len(shapes(svg, "diagonal")) == 2


def test_cli_render_step_and_numbered_files(tmp_path: Path) -> None:
    # the second puzzle has two solutions: its path fills the cells they agree on; the third has
    # 72, and no cell is forced, so it has no step to draw
    several, open_grid = ".......2.1434321", "1" + "." * 15
    _, out = run(["render", PUZZLE, several, open_grid, "--step", "1", "-o", str(tmp_path / "s.svg")])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s-1.svg", "s-2.svg"]
    assert "line 3: step 1 asked for; the explanation has 0 steps" in out.err.getvalue()
    assert out.bad_input
    assert shapes((tmp_path / "s-1.svg").read_text(), "placement") or shapes(
        (tmp_path / "s-1.svg").read_text(), "struck"
    )


def test_cli_render_refuses_an_unknown_picture_type(tmp_path: Path) -> None:
    from shudu.errors import ShuduError

    with pytest.raises(ShuduError, match=r"must end in \.svg or \.png"):
        run(["render", PUZZLE, "-o", str(tmp_path / "p.gif")])
