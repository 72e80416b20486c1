"""The papers' algorithms one by one: enumeration and its trace, the dancing-links matrix, the
matching rules. Agreement with the other solvers is checked in test_cross_check.py."""

from __future__ import annotations

import itertools
import json
import random

import pytest

import shudu
from shudu.errors import SearchTimeout, SolverError
from shudu.formats import parse_puzzle
from shudu.geometry import Geometry
from shudu.puzzle import Grid, Puzzle
from shudu.solvers import Stats, available, get
from shudu.solvers._bipartite import forbidden_brute, forbidden_regin, implied_by
from shudu.solvers.dlx import Column, Node, build_matrix, cover, select, uncover, unselect
from shudu.solvers.enumeration import Step, describe, trace
from shudu.solvers.matching import Matching, propagate
from shudu.variants import get as get_variant

from conftest import shared_lines

ALGORITHMS = ("enumerate", "dlx", "matching")
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
EASY = "....2..3...3.19.45124....6..3.8.6..2.52...8..4.195.....6.3..78.......4..9.7185.23"
#: norvig top95 #4: matching propagation alone stalls with 38 cells settled; with edge dependency, 81
DEPENDENCY = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5...."
SIX = ".2......5........53..1..6..3.2....4."  # 2x3 boxes, one solution
NO_SOLUTION = ".23..1..4......."  # r1c1 can hold nothing


def is_single(mask: int) -> bool:
    return mask & (mask - 1) == 0


@pytest.mark.parametrize("name", ALGORITHMS)
def test_registered_with_one_signature_for_every_rule(name: str) -> None:
    solver = available()[name]
    assert solver is get(name) and solver.description
    for variant in ("x", "windoku", "pyramid", "anti-knight", "anti-king", "x+anti-king"):
        assert solver.unsupported(Geometry(9, variant=get_variant(variant, 9))) is None


@pytest.mark.parametrize("name", ALGORITHMS)
def test_budgets_stop_the_search(name: str) -> None:
    with pytest.raises(SearchTimeout) as caught:
        shudu.count("." * 81, algorithm=name, node_limit=300)
    assert caught.value.found >= 0
    assert shudu.solve("." * 81, algorithm=name, node_limit=300).status in ("timeout", "multiple")


@pytest.mark.parametrize("name", ALGORITHMS)
def test_one_gap_is_settled_without_guessing(name: str) -> None:
    solution = shudu.solve(INKALA, algorithm="dlx").solution
    assert solution is not None
    result = shudu.solve("." + solution.to_string()[1:], algorithm=name)
    assert result.status == "unique" and result.solution == solution
    assert (result.stats.guesses, result.stats.settled) == (0, 1)


@pytest.mark.parametrize("name", ALGORITHMS)
def test_statistics_of_a_hard_puzzle(name: str) -> None:
    result = shudu.solve(INKALA if name != "enumerate" else SIX, algorithm=name)
    assert result.status == "unique"
    stats = result.stats
    assert stats.nodes >= stats.guesses > 0


# --- enumerate (paper 1) ----------------------------------------------------------------------


def replay(puzzle: Puzzle, steps: list[Step]) -> list[tuple[int, ...]]:
    """Follow a trace the way its docstring tells a web page to; check each step; the solutions."""
    peers = puzzle.geometry.peers
    assert steps[0].kind == "start" and steps[0].k == 1
    state = list(steps[0].candidates)
    saved: list[list[int]] = []
    solutions = []
    k = 1
    for step in steps[1:]:
        assert step.k == (0 if step.kind == "done" else k), step
        if step.kind in ("forward", "reject"):
            assert step.cell is not None and state[step.cell] >> step.digit & 1
            bit = 1 << step.digit
        if step.kind == "forward":
            assert step.struck == tuple(p for p in peers[step.cell] if state[p] & bit)
            saved.append(state.copy())
            state[step.cell] = bit
            for peer in step.struck:
                state[peer] &= ~bit
            assert all(state)
            k += 1
        elif step.kind == "reject":
            assert step.emptied in peers[step.cell] and state[step.emptied] == bit
        elif step.kind == "back":
            state = saved.pop()
            k -= 1
        elif step.kind == "solution":
            assert all(map(is_single, state))
            assert step.grid == tuple(mask.bit_length() - 1 for mask in state)
            solutions.append(step.grid)
        else:
            assert step.kind == "done" and step.k == 0 and not saved
    return solutions


def test_trace_replays_to_the_solution() -> None:
    puzzle = parse_puzzle(SIX)
    steps = list(trace(puzzle))
    assert steps[-1].kind == "solution"
    assert {step.kind for step in steps} == {"start", "forward", "reject", "back", "solution"}
    (solution,) = replay(puzzle, steps)
    assert Grid(solution, geometry=puzzle.geometry).is_solution_of(puzzle)
    assert Grid(solution, geometry=puzzle.geometry) == shudu.solve(puzzle, algorithm="backtrack").solution
    json.loads(json.dumps([step.to_json() for step in steps]))


def test_trace_of_every_solution_matches_the_solver() -> None:
    puzzle = parse_puzzle(".....3.6.2....3...2........6.1.1....")  # 12 solutions
    steps = list(trace(puzzle, limit=None))
    assert steps[-1].kind == "done"
    solutions = replay(puzzle, steps)
    stats = Stats()
    assert solutions == list(get("enumerate").solutions(puzzle, stats=stats))
    assert len(solutions) == 12
    assert stats.nodes == sum(step.kind in ("forward", "reject") for step in steps)
    assert len(list(trace(puzzle, limit=5))) < len(steps)
    assert sum(step.kind == "solution" for step in trace(puzzle, limit=5)) == 5


def test_trace_when_the_givens_leave_a_cell_no_candidate() -> None:
    steps = list(trace(parse_puzzle(NO_SOLUTION), limit=None))
    assert [step.kind for step in steps] == ["start", "done"]
    assert steps[0].candidates[0] == 0
    assert steps[1].to_json() == {"kind": "done", "k": 0}


def test_step_json_names_only_what_its_kind_uses() -> None:
    step = Step("forward", 3, cell=10, digit=4, struck=(11, 19))
    assert step.to_json() == {"kind": "forward", "k": 3, "cell": 10, "digit": 4, "struck": [11, 19]}
    assert Step("reject", 3, cell=10, digit=5, emptied=12).to_json() == {
        "kind": "reject",
        "k": 3,
        "cell": 10,
        "digit": 5,
        "emptied": 12,
    }


def test_steps_read_as_text() -> None:
    lines = [describe(step, 4) for step in trace(parse_puzzle("..1..1.2.3.11.23"))]
    assert lines[:5] == [
        "start: 5 cells have more than one candidate",
        "k=1: r1c1 = 2 (struck from r1c2, r3c1)",
        "k=2: r1c2 = 4 would leave r1c4 empty: undone",
        "k=2: no candidate left to try; back to the cell before",
        "k=1: r1c1 = 3 (struck from r2c1)",
    ]
    assert lines[-1] == "solution: 3214413223411423"
    assert describe(Step("done", 0), 4) == "done: every possibility tried"


def test_enumeration_order_is_reading_order_digits_ascending() -> None:
    first = next(shudu.solutions("." * 16, algorithm="enumerate"))
    assert first == next(shudu.solutions("." * 16, algorithm="backtrack"))


# --- dlx (paper 2) ----------------------------------------------------------------------------


def primary_columns(root: Column) -> list[Column]:
    columns = []
    column = root.right
    while column is not root:
        assert isinstance(column, Column)
        columns.append(column)
        column = column.right
    return columns


def row_length(first: Node) -> int:
    length, node = 1, first.right
    while node is not first:
        length, node = length + 1, node.right
    return length


def test_exact_cover_matrix_of_a_9x9() -> None:
    root, rows = build_matrix(Geometry(9))
    columns = primary_columns(root)
    assert len(columns) == 81 + 27 * 9  # cells, then row/column/box × digit
    assert all(column.size == 9 for column in columns)
    assert len(rows) == 729 and all(row_length(first) == 4 for first in rows.values())
    assert columns[0].name == "r1c1" and columns[81].name == "row 1 has 1"


def test_extra_regions_add_columns_and_links_add_secondary_ones() -> None:
    x_root, x_rows = build_matrix(Geometry(9, variant=get_variant("x", 9)))
    assert len(primary_columns(x_root)) == 324 + 2 * 9
    assert row_length(x_rows[40, 5]) == 6  # the centre lies on both diagonals
    knight_root, knight_rows = build_matrix(Geometry(9, variant=get_variant("anti-knight", 9)))
    assert len(primary_columns(knight_root)) == 324  # the links add no primary column
    centre = knight_rows[40, 5]
    assert row_length(centre) == 4 + 8  # eight knight's moves, none inside a house of r5c5
    secondary = centre.left.column
    assert secondary.left is secondary and "not both 5" in secondary.name


def links_of(root: Column, rows: dict[tuple[int, int], Node]) -> list[tuple[int, ...]]:
    nodes = [root, *primary_columns(root)]
    for first in rows.values():
        node = first
        while True:
            nodes.append(node)
            node = node.right
            if node is first:
                break
    return [(id(n.left), id(n.right), id(n.up), id(n.down), getattr(n, "size", -1)) for n in nodes]


def test_cover_and_uncover_restore_every_link() -> None:
    root, rows = build_matrix(Geometry(4, variant=get_variant("anti-king", 4)))
    before = links_of(root, rows)
    chosen = [rows[0, 1], rows[5, 3], rows[10, 2]]
    for row in chosen:
        cover(row.column)
        select(row)
    assert links_of(root, rows) != before
    for row in reversed(chosen):
        unselect(row)
        uncover(row.column)
    assert links_of(root, rows) == before


def test_dlx_settles_an_easy_puzzle_by_forced_columns() -> None:
    result = shudu.solve(EASY, algorithm="dlx")
    assert result.status == "unique"
    assert result.stats.guesses == 0
    assert result.stats.settled == result.stats.nodes == EASY.count(".")


# --- matching (paper 5) -----------------------------------------------------------------------


def random_graph(rng: random.Random, size: int) -> list[int]:
    density = rng.uniform(0.2, 0.8)
    return [
        sum(1 << d for d in range(1, size + 1) if rng.random() < density) or 1 << rng.randint(1, size)
        for _ in range(size)
    ]


def perfect_matchings(adj: list[int]) -> list[tuple[int, ...]]:
    """By definition: every assignment of distinct digits that uses only edges."""
    size = len(adj)
    return [
        perm
        for perm in itertools.permutations(range(1, size + 1))
        if all(adj[cell] >> digit & 1 for cell, digit in enumerate(perm))
    ]


def test_both_rules_strike_exactly_the_edges_in_no_perfect_matching() -> None:
    rng = random.Random(5)
    with_matching = 0
    for _ in range(400):
        adj = random_graph(rng, rng.randint(2, 6))
        matchings = perfect_matchings(adj)
        expected = None
        if matchings:
            with_matching += 1
            used = [0] * len(adj)
            for perm in matchings:
                for cell, digit in enumerate(perm):
                    used[cell] |= 1 << digit
            expected = [mask & ~used[cell] for cell, mask in enumerate(adj)]
        assert forbidden_brute(adj) == expected == forbidden_regin(adj), adj
    assert with_matching > 100


def test_both_rules_strike_the_same_edges_in_bigger_houses() -> None:
    rng = random.Random(8)
    for _ in range(300):
        adj = random_graph(rng, rng.choice((9, 12, 16)))
        assert forbidden_brute(adj) == forbidden_regin(adj), adj


def test_edge_dependency_by_definition() -> None:
    rng = random.Random(6)
    checked = 0
    for _ in range(300):
        adj = random_graph(rng, rng.randint(2, 6))
        matchings = perfect_matchings(adj)
        for cell, mask in enumerate(adj):
            for digit in range(1, len(adj) + 1):
                if not mask >> digit & 1:
                    continue
                holding = [perm for perm in matchings if perm[cell] == digit]
                found = implied_by(adj, cell, digit)
                if not holding:
                    assert found is None
                    continue
                common = set(enumerate(holding[0])).intersection(*(enumerate(p) for p in holding))
                assert found is not None and set(found) == common - {(cell, digit)}
                checked += 1
    assert checked > 500


def test_propagation_is_the_same_with_either_rule() -> None:
    for line in shared_lines("royle_17clue.txt", 8, step=997):
        puzzle = parse_puzzle(line)
        assert propagate(puzzle, rule="brute") == propagate(puzzle, rule="regin")
    assert propagate(parse_puzzle(DEPENDENCY), rule="brute", edge_dependency=True) == propagate(
        parse_puzzle(DEPENDENCY), edge_dependency=True
    )


def test_propagation_settles_an_easy_puzzle_and_proves_an_impossible_one() -> None:
    marks = propagate(parse_puzzle(EASY))
    assert marks is not None and all(map(is_single, marks))
    assert propagate(parse_puzzle(NO_SOLUTION)) is None
    assert list(get("matching").solutions(parse_puzzle(NO_SOLUTION))) == []


def test_edge_dependency_settles_more_and_strikes_only_wrong_digits() -> None:
    puzzle = parse_puzzle(DEPENDENCY)
    plain = propagate(puzzle)
    deeper = propagate(puzzle, edge_dependency=True)
    assert plain is not None and deeper is not None
    assert sum(map(is_single, plain)) == 38
    assert all(map(is_single, deeper))
    solution = shudu.solve(puzzle).solution
    assert solution is not None
    assert tuple(mask.bit_length() - 1 for mask in deeper) == solution.cells
    for line in shared_lines("magictour_top1465.txt", 6, step=211):
        sample = parse_puzzle(line)
        answer = shudu.solve(sample).solution
        assert answer is not None
        wide, narrow = propagate(sample), propagate(sample, edge_dependency=True)
        assert wide is not None and narrow is not None
        for cell, digit in enumerate(answer.cells):
            assert narrow[cell] >> digit & 1 and narrow[cell] & ~wide[cell] == 0


def test_every_matching_option_solves_alike() -> None:
    reference = list(get("matching").solutions(parse_puzzle(SIX)))
    for rule in ("brute", "regin"):
        for dependency in (False, True):
            solver = Matching(rule=rule, edge_dependency=dependency)
            assert list(solver.solutions(parse_puzzle(SIX))) == reference, solver
    many = parse_puzzle(".....3.6.2....3...2........6.1.1....")
    assert Matching(rule="brute", edge_dependency=True).count(many) == 12


def test_matching_guesses_only_when_propagation_stalls() -> None:
    easy = shudu.solve(EASY, algorithm="matching")
    assert (easy.stats.nodes, easy.stats.guesses, easy.stats.settled) == (0, 0, EASY.count("."))
    stats = Stats()
    assert Matching(edge_dependency=True).count(parse_puzzle(DEPENDENCY), stats=stats) == 1
    assert stats.nodes == 0 and stats.settled == DEPENDENCY.count(".")
    assert shudu.solve(DEPENDENCY, algorithm="matching").stats.guesses > 0


def test_unknown_matching_rule() -> None:
    with pytest.raises(SolverError, match="unknown matching rule 'greedy'"):
        Matching(rule="greedy")  # type: ignore[arg-type]
