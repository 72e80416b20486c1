"""Rating, explanations and hints: the library functions and the CLI commands."""

from __future__ import annotations

import io
import json

import pytest

import shudu
from shudu.cli import main
from shudu.errors import ShuduError
from shudu.logic.engine.step import Step
from shudu.logic.naming import resolve
from shudu.logic.rating import hodoku_level
from shudu.logic.table import length_bonus, rating_of

from conftest import shared_lines

EASY = "4.......8....31.....7...92....57...1.59....6.1......8.8...2..1..3.418..69........"
HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def step_named(name: str) -> Step:
    """A bare step of the technique or form called ``name``."""
    found = resolve(name)
    return Step(found.technique, found.name, "", 9)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_rate_easy_puzzle() -> None:
    rating = shudu.rate(EASY)
    assert rating.level == "easy"
    assert rating.se == 1.5 and rating.hardest == "Hidden single in line"
    assert 0 < rating.score <= 800
    assert rating.unique and rating.steps == () and rating.status == "unique" and rating.complete
    assert set(rating.to_json()) == {"puzzle", "status", "level", "score", "se", "hardest"}


def test_rate_hard_puzzle_is_extreme_and_complete() -> None:
    rating = shudu.rate(HARD, steps=True)
    assert rating.level == "extreme"
    assert rating.se >= 8.0
    solution = shudu.solve(HARD).solution
    assert solution is not None
    placed = dict(p for step in rating.steps for p in step.placements)
    assert all(solution.cells[c] == d for c, d in placed.items())
    assert len(placed) == HARD.count(".")


def test_unsolvable_puzzle_has_status_none() -> None:
    rating = shudu.rate("12....3...2....1")
    assert rating.status == "none" and not rating.complete and not rating.unique
    assert rating.to_json()["level"] is None
    with pytest.raises(ShuduError):
        shudu.rate("11" + "." * 14)
    code, out, err = run("rate", "12....3...2....1")
    assert code == 0 and out.strip() == "none" and not err
    explained = shudu.explain("12....3...2....1")
    assert explained.status == "none" and not explained.steps and "no solution" in str(explained)
    hint = shudu.hint("12....3...2....1")
    assert hint.status == "none" and hint.step is None
    code, out, _ = run("explain", "12....3...2....1", "--algorithm", "enumerate")
    assert code == 0 and out.splitlines()[-1].endswith("the puzzle has no solution")


MULTIPLE = "." * 16
#: Two solutions, which differ in r1c1, r1c3, r2c1 and r2c3 (1 and 3 swapped); the rest is forced.
TWO = ".......2.1434321"


def test_several_solutions_have_status_multiple_everywhere() -> None:
    rating = shudu.rate(MULTIPLE)
    assert rating.status == "multiple" and not rating.complete
    assert shudu.explain(MULTIPLE).status == "multiple"
    assert shudu.hint(MULTIPLE).status == "multiple" and shudu.hint(MULTIPLE).step is None
    logical = shudu.rate(TWO, allow_multiple=True, steps=True)
    assert logical.status == "multiple" and logical.complete
    assert not any(step.technique.uniqueness for step in logical.steps)
    code, out, _ = run("rate", MULTIPLE)
    assert code == 0 and out.strip() == "multiple"
    code, out, _ = run("rate", TWO, "--allow-multiple")
    assert code == 0 and out.strip().endswith("(several solutions)")
    code, out, _ = run("hint", TWO, "--allow-multiple", "--format", "json")
    assert code == 0 and json.loads(out)["status"] == "multiple" and json.loads(out)["step"]


def test_the_logical_path_of_several_solutions_stops_where_no_digit_is_forced() -> None:
    solutions = [grid.cells for grid in shudu.solutions(TWO)]
    assert len(solutions) == 2
    open_ = {c for c in range(16) if solutions[0][c] != solutions[1][c]}
    explanation = shudu.explain(TWO, allow_multiple=True)
    steps = explanation.steps
    assert explanation.summary().endswith(
        "the puzzle has several solutions: 4 cells are left open, each of which can take more than one digit"
    )
    placed = {c for step in steps for c, _ in step.placements}
    # every forced cell is filled, no cell the solutions differ in, and no step is a guess
    assert placed == {c for c in range(16) if TWO[c] == "."} - open_
    assert all(s[c] == d for step in steps for c, d in step.placements for s in solutions)
    assert "Brute Force" not in {step.name for step in steps}
    entries = "".join(str(solutions[0][c]) if TWO[c] == "." and c not in open_ else "." for c in range(16))
    stuck = shudu.hint({"givens": TWO, "entries": entries}, allow_multiple=True)
    assert stuck.step is None and stuck.mistake is None and stuck.status == "multiple"
    assert "every open cell can still take more than one digit" in stuck.text
    empty = shudu.hint(MULTIPLE, allow_multiple=True)
    assert empty.step is None and "more than one digit" in empty.text


def test_level_rises_with_score() -> None:
    singles = [step_named("Hidden single")] * 60
    assert hodoku_level(singles) == ("medium", 840)  # 60 x 14 = 840 > 800
    assert hodoku_level(singles[:50]) == ("easy", 700)


def test_length_bonus_grows_slowly() -> None:
    assert length_bonus(4) == 0
    assert length_bonus(5) == pytest.approx(0.1)
    assert length_bonus(7) == pytest.approx(0.2)
    assert length_bonus(100) == pytest.approx(1.0)


def test_explain_lists_numbered_steps_and_summary() -> None:
    found = shudu.explain(EASY)
    text = str(found).splitlines()
    assert text[0].startswith("1. ") or text[0].startswith(" 1. ")
    assert "level easy" in text[-1] and "Hidden single" in text[-1]
    data = found.to_json()
    assert data["level"] == "easy" and len(data["steps"]) == len(found.steps)
    json.dumps(data)


def test_hint_levels() -> None:
    vague = shudu.hint(EASY, "vague")
    technique = shudu.hint(EASY, "technique")
    full = shudu.hint(EASY, "step")
    assert vague.text.startswith("look at ")
    assert technique.text.startswith("there is a")
    assert full.step is not None and full.text == full.step.explanation
    with pytest.raises(ShuduError, match="hint level"):
        shudu.hint(EASY, "loud")  # type: ignore[arg-type]


def test_hint_detects_wrong_entry_and_pencil_marks() -> None:
    solution = shudu.solve(EASY).solution
    assert solution is not None
    cell = EASY.index(".")
    wrong = solution.cells[cell] % 9 + 1
    entries = "." * cell + str(wrong) + "." * (80 - cell)
    hint = shudu.hint(json.dumps({"givens": EASY, "entries": entries}))
    assert hint.text == f"r1c{cell + 1} = {wrong} contradicts the solution"
    assert hint.mistake == (f"r1c{cell + 1}", wrong)
    marks = {"r1c2": str(solution.cells[1] % 9 + 1)}
    assert "pencil marks of r1c2" in shudu.hint({"givens": EASY, "pencil": marks}).text


def test_hint_uses_player_entries_and_marks() -> None:
    solution = shudu.solve(EASY).solution
    assert solution is not None
    entries = "".join(str(v) for v in solution.cells[:80]) + "."
    hint = shudu.hint({"givens": EASY, "entries": entries}, "step")
    assert hint.step is not None and hint.step.placements == ((80, solution.cells[80]),)
    done = shudu.hint({"givens": EASY, "entries": "".join(map(str, solution.cells))})
    assert done.solved


def test_cli_rate_json() -> None:
    code, out, err = run("rate", EASY, "--format", "json")
    assert code == 0, err
    record = json.loads(out)
    assert set(record) == {"line", "puzzle", "status", "level", "score", "se", "hardest"}
    assert record["level"] == "easy" and record["se"] == 1.5


def test_cli_rate_bad_input_keeps_going() -> None:
    code, out, err = run("rate", "123", EASY)
    assert code == 2
    assert out.splitlines()[0] == "invalid" and out.splitlines()[1].startswith("easy ")
    assert "line 1" in err


def test_cli_explain_and_hint() -> None:
    code, out, _ = run("explain", EASY)
    assert code == 0 and "level easy" in out.splitlines()[-1]
    code, out, _ = run("explain", EASY, "--format", "json")
    assert code == 0 and json.loads(out)["steps"]
    code, out, _ = run("hint", EASY, "--level", "vague")
    assert code == 0 and out.startswith("look at ")
    board = json.dumps({"givens": EASY, "entries": "." * 81})
    code, out, _ = run("hint", board, "--format", "json")
    assert code == 0 and json.loads(out)["step"]["technique"]


@pytest.mark.parametrize("command", ["rate", "explain", "hint"])
def test_cli_help_has_example(command: str) -> None:
    code, _, _ = run(command, "--help")
    assert code == 0
    parser_help = io.StringIO()
    from shudu.cli import build_parser

    sub = build_parser()._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    sub.print_help(parser_help)
    assert "example:" in parser_help.getvalue()


def test_ratings_of_the_later_techniques() -> None:
    def of(name: str, kind: str = "") -> tuple[str, int, float]:
        return rating_of(step_named(kind or name))

    assert of("Unique Rectangle Type 3", "Unique Rectangle Type 3 (pair)") == ("hard", 100, 4.6)
    assert of("Unique Rectangle Type 3", "Unique Rectangle Type 3 (quad)") == ("hard", 100, 4.8)
    assert of("Unique Rectangle Type 6", "Unique Rectangle Type 6")[:2] == ("hard", 100)
    assert of("Hidden Rectangle")[:2] == ("hard", 100)
    assert of("Sue de Coq")[:2] == ("unfair", 250)
    assert of("Continuous Nice Loop")[:2] == ("unfair", 280)
    assert of("Continuous Nice Loop", "Continuous Nice Loop (X-Cycle)") == ("unfair", 280, 6.5)
    assert of("Grouped AIC")[:2] == of("Grouped X-Chain")[:2] == ("unfair", 300)
    assert of("ALS-XZ")[:2] == ("unfair", 300)
    assert of("ALS-XY-Wing")[:2] == ("unfair", 320)
    assert of("Death Blossom")[:2] == ("unfair", 360)


def test_sudoku_explainer_order_uses_only_its_techniques() -> None:
    from shudu.logic.rating import se_order

    names = [t.name for t in se_order(uniqueness=True)]
    for absent in ("Hidden Rectangle", "Sue de Coq", "ALS-XZ", "Grouped Chain", "Death Blossom"):
        assert absent not in names
    assert names.index("Unique Rectangle") < names.index("X-Chain") < names.index("Forcing Chain")


def test_score_limits_grow_with_bigger_grids() -> None:
    singles = [step_named("Hidden single")] * 130  # 130 x 14 = 1820 points
    assert hodoku_level(singles) == ("extreme", 1820)  # past every 9x9 limit
    assert hodoku_level(singles, 16) == ("easy", 1820)  # 800 x 256 / 81 = 2528
    assert hodoku_level(singles, 4) == ("extreme", 1820)  # small grids keep the 9x9 limits


def test_16x16_puzzles_solved_by_subsets_are_not_extreme() -> None:
    for line in shared_lines("size16_owhy.txt", 3):
        rating = shudu.rate(line)
        assert rating.se < 4
        assert rating.level in ("easy", "medium", "hard")


def test_a_hidden_pair_in_a_row_and_a_box_is_direct_in_either() -> None:
    # Sudoku Explainer rates this 17-clue puzzle 2.0: its hardest step is a hidden pair, hidden
    # in a box as well as in a line, after which a hidden single appears in the box. The subset
    # is listed once; the direct form must still look in every house where it is hidden.
    rating = shudu.rate("................12..3.45.........3.....6....1..7..........784...1...4...96.2.....")
    assert (rating.se, rating.hardest) == (2.0, "Direct hidden pair")


def test_rule_finders_are_left_out_on_a_grid_without_rules_and_find_nothing_there() -> None:
    from shudu.formats import as_puzzle
    from shudu.logic.engine import propagate
    from shudu.logic.rating import se_order
    from shudu.logic.solver import for_grid, steps
    from shudu.logic.table import TECHNIQUES, techniques

    puzzle = as_puzzle(HARD)
    grid = propagate.start_grid(puzzle.geometry, puzzle.cells)
    for order in (techniques(uniqueness=True), se_order(uniqueness=True)):
        plain = for_grid(order, grid)
        assert list(plain) == [f for f in order if not f.needs_rules]
        assert for_grid(order, grid) is plain
    ruled = [f for f in TECHNIQUES if f.needs_rules]
    assert {f.technique.name for f in ruled} >= {
        "Restricted digits",
        "Sum combinations",
        "Rule Forcing Chain",
    }
    walked = grid.copy()
    for _ in steps(walked, techniques(uniqueness=True)):
        for finder in ruled:
            assert finder.first(walked) is None and not list(finder.iter_steps(walked))


def test_rate_at_level_gives_rate_s_rating_at_that_level_and_the_level_elsewhere() -> None:
    from shudu.formats import as_puzzle
    from shudu.logic.rating import rate_at_level

    for text in (EASY, HARD):
        puzzle = as_puzzle(text)
        full = shudu.rate(puzzle)
        got = rate_at_level(puzzle, full.level)
        assert not isinstance(got, str)
        assert (got.level, got.score, got.se, got.hardest, got.status, got.complete) == (
            full.level,
            full.score,
            full.se,
            full.hardest,
            full.status,
            full.complete,
        )
        assert rate_at_level(puzzle, "medium") == full.level
