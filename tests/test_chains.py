"""Chains, loops, ALS and nets: every step is sound, carries a structure that holds on its board, and
stops at a deadline.

The structure is checked by code written apart from the finders: each strong link must be a real
strong link on the board (a bivalue cell, a conjugate pair or group, an almost locked set), each
weak link a real weak link, and the eliminations must follow from the chain's ends or the loop's
weak links. A net's every line must follow, by the rule it names, from the lines it cites.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from shudu.geometry import Geometry
from shudu.logic.engine import budget
from shudu.logic.engine.chain_structure import Branch, Chain, Net, Node
from shudu.logic.engine.grid import CandidateGrid, bits
from shudu.logic.engine.step import Step
from shudu.logic.techniques import aic, als_first, als_listings, forcing, grouped_chains
from shudu.logic.techniques.netrules import NET_RULES

FIXTURES = json.loads((Path(__file__).parent / "data" / "logic_techniques.json").read_text())
NINE = [case for case in FIXTURES if len(case["values"]) == 81]


def grid_of(case: dict[str, Any]) -> CandidateGrid:
    cells = [0 if v == "." else int(v) for v in case["values"]]
    masks = [sum(1 << (int(d) - 1) for d in text) for text in case["candidates"]]
    return CandidateGrid(Geometry(9), cells, masks)


def thinned(case: dict[str, Any], seed: int) -> CandidateGrid:
    """The case's board with candidates the solution lacks removed at random, as a player might."""
    rng = random.Random(seed)
    grid = grid_of(case)
    solution = case["solution"]
    for cell in bits(grid.empty):
        for d in bits(grid.cands[cell]):
            if d + 1 != int(solution[cell]) and rng.random() < 0.25:
                grid.eliminate(cell, d + 1)
    return grid


#: A few boards from HoDoKu's regression library (givens, ``+`` for placed digits; deleted
#: candidates as digit-row-column), for the forms the solving paths above rarely reach.
LIBRARY_BOARDS = [
    (
        ".+4.2..+6+7.7.+2.6+3+459.+6.4+7.8+2.47+6+9..+23+512+8+5+37+964+5+396+4+2+71+8..4+7..+3+96.+9...+65+4+7+65+7+39+418+2",
        "",
    ),
    (
        "....7..9.429.5...16..........1+5+94.2.95+2.63..+8...8....+9..6..5....3.2.1+9+67........4",
        "517 335 435 835 537 737 538 738 467 468 374 474 591 593 394 896",
    ),
    (
        "..7..5..4+5......16+4.....5..3..9....+58.4+5......56378+1+4.+7+4+5+8+32+961+1+8346925+7..91+5+7+4..",
        "212 612 215 318 225 232 235 636 338 339 145 357 258 259",
    ),
    (
        "186.+75.......3.1..+3....9..587....3.+163..8+7.52..9+3..+8672..7.....+7.3.9......+86+2+3714",
        "423 826 828 928 929 433 234 434 435 443 466 472 572 972 573 476 679 879 582 884",
    ),
]


def library_board(givens: str, deleted: str) -> tuple[CandidateGrid, str]:
    values = [0 if ch == "." else int(ch) for ch in givens.replace("+", "")]
    grid = CandidateGrid.from_values(Geometry(9), values)
    for token in deleted.split():
        grid.eliminate((int(token[1]) - 1) * 9 + int(token[2]) - 1, int(token[0]))
    solution = forcing.search(grid.copy())
    assert solution is not None
    return grid, "".join(map(str, solution))


def boards() -> Iterator[tuple[CandidateGrid, str]]:
    for i, case in enumerate(NINE):
        yield grid_of(case), case["solution"]
        yield thinned(case, i), case["solution"]
    for givens, deleted in LIBRARY_BOARDS:
        yield library_board(givens, deleted)


ITERATORS: dict[str, Callable[[CandidateGrid], Iterator[Step]]] = {
    "x-chain": aic.iter_x_chain,
    "xy-chain": aic.iter_xy_chain,
    "remote pair": aic.iter_remote_pair,
    "aic": aic.iter_aic,
    "discontinuous nice loop": aic.iter_discontinuous_nice_loop,
    "grouped chain": grouped_chains.iter_grouped_chain,
    "continuous nice loop": grouped_chains.iter_continuous_nice_loop,
    "als-xz": als_listings.iter_als_xz,
    "als-xy-wing": als_listings.iter_als_xy_wing,
    "als-xy-chain": als_listings.iter_als_xy_chain,
    "death blossom": als_listings.iter_death_blossom,
}


def assert_sound(step: Step, solution: str) -> None:
    for cell, digit in step.placements:
        assert int(solution[cell]) == digit, step.explanation
    for cell, digit in step.eliminations:
        assert int(solution[cell]) != digit, step.explanation


# --- an independent reading of a chain ------------------------------------------------------------


def _sees_all(grid: CandidateGrid, cell: int, others: list[int]) -> bool:
    return all(cell != o and cell in grid.geometry.peers[o] for o in others)


def _holding(grid: CandidateGrid, node: Node, digit: int) -> list[int]:
    return [c for c in node.cells if grid.has(c, digit)]


def _is_als(grid: CandidateGrid, cells: tuple[int, ...]) -> bool:
    union = 0
    for c in cells:
        union |= grid.cands[c]
    in_one_house = any(set(cells) <= set(house) for house in grid.geometry.house_cells)
    return in_one_house and union.bit_count() == len(cells) + 1


def assert_strong(grid: CandidateGrid, a: Node, b: Node) -> None:
    (da,), (db,) = a.digits, b.digits
    if a.kind == "als" or b.kind == "als":
        assert a.cells == b.cells and _is_als(grid, a.cells), (a, b)
        assert _holding(grid, a, da) and _holding(grid, b, db), (a, b)
        return
    if da != db:
        assert a.cells == b.cells and len(a.cells) == 1, (a, b)
        assert grid.candidates(a.cells[0]) == sorted((da, db)), (a, b)
        return
    both = set(a.cells) | set(b.cells)
    assert not set(a.cells) & set(b.cells), (a, b)
    assert all(grid.has(c, da) for c in both), (a, b)
    houses = [h for h in grid.geometry.house_cells if both <= set(h)]
    assert any({c for c in h if grid.has(c, da)} == both for h in houses), ("not conjugate", a, b)


def assert_weak(grid: CandidateGrid, a: Node, b: Node) -> None:
    (da,), (db,) = a.digits, b.digits
    if da != db:
        # two digits of one cell (an ALS node by the one cell of it holding its digit)
        assert _holding(grid, a, da) == _holding(grid, b, db) and len(_holding(grid, a, da)) == 1, (a, b)
        return
    ha, hb = _holding(grid, a, da), _holding(grid, b, db)
    assert ha and hb, (a, b)
    for c in ha:
        assert _sees_all(grid, c, hb), ("not weak", a, b)


def follows_from_ends(grid: CandidateGrid, chain: Chain, cell: int, digit: int) -> bool:
    """Whether ``digit`` in ``cell`` is false when either end of the chain is true."""
    for node in (chain.nodes[0], chain.nodes[-1]):
        (d,) = node.digits
        if d == digit:
            if not _sees_all(grid, cell, _holding(grid, node, d)):
                return False
        elif _holding(grid, node, d) != [cell]:
            return False
    return True


def follows_from_loop(grid: CandidateGrid, chain: Chain, cell: int, digit: int) -> bool:
    """Whether some weak link of a continuous loop removes ``digit`` from ``cell``."""
    on_loop = {(c, d) for node in chain.nodes for c in node.cells for d in node.digits}
    for link in chain.links:
        if link.kind != "weak":
            continue
        (da,), (db,) = link.start.digits, link.end.digits
        if da == db == digit:
            cells = _holding(grid, link.start, da) + _holding(grid, link.end, db)
            if (cell, digit) not in on_loop and _sees_all(grid, cell, cells):
                return True
        elif (
            da != db
            and digit not in (da, db)
            and _holding(grid, link.start, da) == [cell] == _holding(grid, link.end, db)
        ):
            return True
    for link in chain.links:
        # a strong link inside an ALS holds exactly once: the set holds all its other digits
        if link.kind != "strong" or link.start.kind != "als" or link.end.kind != "als":
            continue
        members = link.start.cells
        if digit in (*link.start.digits, *link.end.digits) or cell in members or (cell, digit) in on_loop:
            continue
        holding = [c for c in members if grid.has(c, digit)]
        if holding and _sees_all(grid, cell, holding):
            return True
    return False


def assert_chain_holds(grid: CandidateGrid, step: Step) -> None:
    chain = step.structure
    if step.technique.name == "Death Blossom":
        return  # a blossom is no chain: checked for soundness only
    assert isinstance(chain, Chain)
    for link in chain.links:
        (assert_strong if link.kind == "strong" else assert_weak)(grid, link.start, link.end)
    assert chain.text(grid.size) in step.explanation
    if any(node.kind == "als" for node in chain.nodes) and step.technique.name != "Grouped Chain":
        # ALS chains: the first or the last set is locked
        if chain.loop:
            return  # a doubly linked ALS-XZ: checked for soundness only
        ends = (chain.nodes[0], chain.nodes[-1])
        for cell, digit in step.eliminations:
            for node in ends:
                assert _sees_all(grid, cell, _holding(grid, node, digit)), step.explanation
        return
    if chain.loop:
        kinds = chain.kinds
        assert all(kinds[i] != kinds[i - 1] for i in range(len(kinds))), "a nice loop alternates"
        for cell, digit in step.eliminations:
            assert follows_from_loop(grid, chain, cell, digit), step.explanation
        return
    assert chain.kinds[0] == chain.kinds[-1] == "strong"
    if step.technique.name == "Remote Pair":
        pairs = {tuple(grid.candidates(node.cells[0])) for node in chain.nodes}
        assert len(pairs) == 1 and len(pairs.pop()) == 2
        end_cells = [chain.nodes[0].cells[0], chain.nodes[-1].cells[0]]
        assert all(_sees_all(grid, cell, end_cells) for cell, _ in step.eliminations)
        return
    for cell, digit in step.eliminations:
        assert follows_from_ends(grid, chain, cell, digit), step.explanation
    for cell, digit in step.placements:
        ends = (chain.nodes[0], chain.nodes[-1])
        assert all(node.digits == (digit,) and _holding(grid, node, digit) == [cell] for node in ends)


@pytest.mark.parametrize("family", sorted(ITERATORS))
def test_every_chain_step_is_sound_and_its_chain_holds(family: str) -> None:
    found = 0
    # ALS-XY-Chains are slow to list in full: every third board is plenty
    for grid, solution in islice(boards(), 0, None, 3 if family == "als-xy-chain" else 1):
        for step in islice(ITERATORS[family](grid), 40):
            assert_sound(step, solution)
            assert step.eliminations or step.placements
            assert_chain_holds(grid, step)
            found += 1
    assert found, f"no {family} step on any board"


def test_iterators_list_distinct_steps_and_the_finders_step_is_among_them() -> None:
    pairs = [
        (aic.find_x_chain, [aic.iter_x_chain]),
        (aic.find_aic, [aic.iter_aic, aic.iter_discontinuous_nice_loop]),
        (
            grouped_chains.find_continuous_nice_loop,
            [grouped_chains.iter_continuous_nice_loop, grouped_chains.iter_grouped_chain],
        ),
        (als_first.find_als_xz.uncached, [als_listings.iter_als_xz]),  # type: ignore[attr-defined]
    ]
    for grid, _ in islice(boards(), 0, None, 2):
        for find, listings in pairs:
            outcomes = []
            complete = True
            for every in listings:
                steps = list(islice(every(grid), 200))
                effects = [(s.placements, s.eliminations) for s in steps]
                named = [(s.name, *effect) for s, effect in zip(steps, effects, strict=True)]
                assert len(named) == len(set(named)), every.__name__
                outcomes += effects
                complete = complete and len(steps) < 200
            step = find(grid)
            if step is not None and complete:
                assert any(set(step.eliminations) <= set(e) and p == step.placements for p, e in outcomes)


# --- nets ---------------------------------------------------------------------------------------


def _apply(base: CandidateGrid, branch: Branch, indices: tuple[int, ...] | range) -> CandidateGrid:
    grid = base.copy()
    for i in indices:
        line = branch.lines[i]
        if line.on:
            if not grid.values[line.cell]:
                grid.place(line.cell, line.digit)
        else:
            grid.eliminate(line.cell, line.digit)
    return grid


def assert_branch_holds(base: CandidateGrid, branch: Branch) -> None:
    """Each line follows, by its rule, from the lines it cites (and the board before them)."""
    geometry = base.geometry
    first = branch.lines[0]
    assert first.on and first.rule == "assumption" and not first.because
    assert base.has(first.cell, first.digit)
    for i, line in enumerate(branch.lines[1:], 1):
        assert all(j < i for j in line.because)
        after = _apply(base, branch, line.because)
        rule = line.rule
        if rule == "naked single":
            assert line.on and after.candidates(line.cell) == [line.digit], line
        elif rule.startswith("hidden single in "):
            house = next(h for h in geometry.houses if h.name == rule.removeprefix("hidden single in "))
            assert line.on and [c for c in house.cells if after.has(c, line.digit)] == [line.cell], line
        elif rule.startswith("sees "):
            # every placement of the round that removes the candidate is cited
            causes = [branch.lines[j] for j in line.because]
            assert causes and not line.on
            for cause in causes:
                assert cause.on and cause.digit == line.digit and line.cell in geometry.peers[cause.cell]
            assert rule[5:] == base.names(sum(1 << cause.cell for cause in causes))
        elif " holds " in rule:
            (j,) = line.because
            cause = branch.lines[j]
            assert not line.on and cause.on and cause.cell == line.cell and cause.digit != line.digit
        else:
            # a basic technique of the net: what it removes, the lines it cites leave no room for
            assert not line.on and rule, line
            assert not after.is_broken() or i > 0
    if branch.contradiction:
        assert _apply(base, branch, range(len(branch.lines))).is_broken(), branch.text(9)


def _net_cases() -> list[dict[str, Any]]:
    return [c for c in NINE if "Forcing" in c["technique"]]


@pytest.mark.parametrize("case", _net_cases(), ids=[c["technique"] for c in _net_cases()])
def test_net_branches_follow_line_by_line(case: dict[str, Any]) -> None:
    grid = grid_of(case)
    find = {
        "Forcing Chain": forcing.find_forcing_chain,
        "Forcing Net": forcing.find_forcing_net,
        "Nested Forcing Net": forcing.find_nested_forcing_net,
    }[case["technique"]]
    step = getattr(find, "uncached", find)(grid)
    assert step is not None
    assert_sound(step, case["solution"])
    net = step.structure
    assert isinstance(net, Net) and net.branches
    assert "deductions later" not in step.explanation
    for branch in net.branches:
        assert branch.lines, step.explanation
        assert branch.text(grid.size) in step.explanation
        if case["technique"] != "Nested Forcing Net":
            assert_branch_holds(grid, branch)
        else:
            assert branch.contradiction


@pytest.mark.slow
def test_forcing_verities_carry_one_branch_per_option() -> None:
    """Cell and house verities: every option's branch ends in a contradiction or in the conclusion."""
    checked = 0
    for grid, solution in islice(boards(), 0, 30):
        for step in forcing._forcing(grid, (), "Forcing Chain", contradictions=False):
            assert "Contradiction" not in step.name
            checked += _verity_holds(grid, step, solution)
    assert checked


def _verity_holds(grid: CandidateGrid, step: Step, solution: str) -> bool:
    """The verity is sound, and each option's branch ends in a contradiction or its conclusion."""
    assert_sound(step, solution)
    net = step.structure
    assert isinstance(net, Net) and net.branches
    for branch in net.branches:
        assert_branch_holds(grid, branch)
        if not branch.contradiction:
            settled = _apply(grid, branch, range(len(branch.lines)))
            for cell, digit in step.placements:
                assert settled.values[cell] == digit
            for cell, digit in step.eliminations:
                assert not settled.has(cell, digit) and settled.values[cell] != digit
    return True


def test_net_rules_cite_their_pattern() -> None:
    """A forcing net's basic-technique lines cite the lines that made the pattern, not all before."""
    case = next(c for c in NINE if c["technique"] == "Forcing Net")
    step = forcing.find_forcing_net(grid_of(case))
    lines = [line for b in step.structure.branches for line in b.lines]
    basic = [
        line
        for line in lines
        if line.rule.split(":")[0].split(" ")[0] in ("pointing", "claiming", "naked", "hidden")
    ]
    basic = [line for line in basic if not line.rule.startswith("hidden single")]
    assert basic and all(line.because for line in basic)
    assert len({r.__name__ for r in NET_RULES}) == len(NET_RULES)


# --- deadlines ----------------------------------------------------------------------------------

SEARCHES = [
    aic.find_x_chain,
    aic.find_xy_chain,
    aic.find_aic,
    grouped_chains.find_grouped_chain.uncached,  # type: ignore[attr-defined]
    grouped_chains.find_continuous_nice_loop,
    als_first.find_als_xz.uncached,  # type: ignore[attr-defined]
    als_first.find_als_xy_wing.uncached,  # type: ignore[attr-defined]
    als_first.find_death_blossom.uncached,  # type: ignore[attr-defined]
    forcing.find_forcing_chain,
    forcing.find_forcing_net,
    forcing.find_nested_forcing_net.uncached,  # type: ignore[attr-defined]
    forcing.find_brute_force.uncached,  # type: ignore[attr-defined]
]


@pytest.mark.parametrize("find", SEARCHES, ids=[f.__name__ for f in SEARCHES])
def test_a_search_stops_at_its_node_limit(find: Callable[[CandidateGrid], Step | None]) -> None:
    grid = grid_of(next(c for c in NINE if c["technique"] == "Nested Forcing Net"))
    with pytest.raises(budget.LogicTimeout), budget.limits(node_limit=3):
        find(grid)


@pytest.mark.parametrize("find", SEARCHES[:8], ids=[f.__name__ for f in SEARCHES[:8]])
def test_limits_change_nothing_when_not_reached(find: Callable[[CandidateGrid], Step | None]) -> None:
    for grid, _ in islice(boards(), 0, 12, 3):
        free = find(grid)
        with budget.limits(node_limit=10**9, timeout=10**6):
            bounded = find(grid)
        assert free == bounded


def test_iterators_stop_at_the_deadline_too() -> None:
    grid = grid_of(next(c for c in NINE if c["technique"] == "ALS-XY-Wing"))
    for every in ITERATORS.values():
        with pytest.raises(budget.LogicTimeout), budget.limits(node_limit=2):
            for _ in every(grid):
                pass


# --- HoDoKu's chain forms -------------------------------------------------------------------------

#: Lines of HoDoKu's regression library, one per chain form the listings reach: a discontinuous
#: loop that proves its start (given as the cell's other candidates going), grouped loops and
#: chains through ALS nodes (one of five cells), and an XY-Chain whose eliminations an AIC with
#: unlike ends also makes.
FORM_LINES = [
    ":0707-1:1589:1..+4.58..4..2.+7.....2...47......6..3....7.91.29.........4...2...+2..48.5....1...8+4::"
    "145 545 845 945::7",
    ":0709-2:1346:..+71+2..+68..2...95..869+5.2..7..........18725+9.........4..4..583..75...6.+92....6..+5:"
    "311 411 312 412 724 442 945 965 972 179:195 361 395 495 661::6",
    ":0710-2:5:7.1+4....+34...3..7+1.3.1.+7+4...1...43.997.+31..483+486..+71.+1.+7..3+98+4.9+3.4.+1+27..+4.."
    "+15+36:631 233 244 544 245 545 253 272 881 294 894 295 895:531::12",
    ":0710-4:8:..7942...3..5...4.......9...82+73.+56167.+1+5.+83213+5+82+647+9..1.......5...8..4...4156..:"
    "519 339 976:838::12",
    ":0711-3:9:....6.+83..36.8..94.2.+3496.....2..5..95.7...8.....+583.......1....65........4..+57.8:"
    "164 664 979 286 786 989:964 975 985 995::16",
    ":0702:9:74+2...+8.15+16.48+3.+7+3+89+1..+4.+6+6+7+8.9.14+5+1+53...+2+69+92+46..+7+3+84+9+7...+6+12+2+3+57"
    "..98+4+861.+2.5+73::924::11",
]


@pytest.mark.parametrize("line", FORM_LINES, ids=[line.split(":")[1] for line in FORM_LINES])
def test_hodokus_chain_forms_are_listed(line: str) -> None:
    from reglib_cases import check_case, parse_case

    outcome = check_case(parse_case(line), timeout=60)
    assert outcome.passed, outcome.reason
    assert not outcome.unsound


def _form_boards() -> Iterator[tuple[CandidateGrid, str]]:
    from reglib_cases import parse_case

    for line in FORM_LINES:
        grid = parse_case(line).board.grid()
        solution = forcing.search(grid.copy())
        assert solution is not None
        yield grid, "".join(map(str, solution))


def test_grouped_chains_through_als_nodes_hold() -> None:
    """Every grouped chain and loop listed is sound and its links are real, ALS links included."""
    through_als = loops_through_als = 0
    for grid, solution in _form_boards():
        for step in grouped_chains.iter_grouped_chain(grid):
            assert_sound(step, solution)
            assert_chain_holds(grid, step)
            chain = step.structure
            assert isinstance(chain, Chain)
            if any(node.kind == "als" for node in chain.nodes):
                through_als += 1
                loops_through_als += chain.loop
    assert through_als and loops_through_als


def test_a_loop_that_proves_its_start_is_also_listed_as_removing_the_cells_others() -> None:
    for grid, _ in [*_form_boards(), *islice(boards(), 0, 12)]:
        for every in (aic.iter_discontinuous_nice_loop, grouped_chains.iter_grouped_chain):
            steps = list(every(grid))
            effects = {(s.placements, s.eliminations) for s in steps}
            for step in steps:
                for cell, digit in step.placements:
                    others = tuple((cell, d) for d in grid.candidates(cell) if d != digit)
                    assert not others or ((), others) in effects, step.explanation


def _xy_chain_outcomes(grid: CandidateGrid, most: int) -> set[tuple[int, ...]]:
    """What XY-Chains of up to ``most`` cells eliminate, by plain depth-first search: a chain
    leaves each bivalue cell by its other digit into a peer holding it; ends of one digit."""
    pairs = [c for c in bits(grid.empty) if len(grid.candidates(c)) == 2]
    peers = grid.geometry.peers
    out: set[tuple[int, ...]] = set()

    def walk(path: list[int], enter: int, first: int) -> None:
        cell = path[-1]
        (leave,) = [d for d in grid.candidates(cell) if d != enter]
        if len(path) > 1 and leave == first:
            ends = [path[0], cell]
            gone = sorted(
                c * 10 + first
                for c in bits(grid.where[first - 1])
                if c not in ends and all(c in peers[e] for e in ends)
            )
            if gone:
                out.add(tuple(gone))
        if len(path) < most:
            for nxt in pairs:
                if nxt not in path and nxt in peers[cell] and grid.has(nxt, leave):
                    walk([*path, nxt], leave, first)

    for start in pairs:
        for digit in grid.candidates(start):
            walk([start], digit, digit)  # the start is not ``digit``, so it holds the other
    return out


def test_xy_chains_match_a_plain_depth_first_search() -> None:
    """Every elimination set a short XY-Chain makes (found apart) is one the listing makes."""
    checked = 0
    for grid, _ in [*_form_boards(), *islice(boards(), 0, None, 2)]:
        listed = {tuple(sorted(c * 10 + d for c, d in s.eliminations)) for s in aic.iter_xy_chain(grid)}
        found = _xy_chain_outcomes(grid, 6)
        assert found <= listed
        checked += len(found)
    assert checked


def test_the_solving_paths_grouped_listing_keeps_to_group_nodes() -> None:
    for grid, _ in _form_boards():
        by_groups = list(grouped_chains.iter_grouped_chain_by_groups(grid))
        every = {(s.placements, s.eliminations) for s in grouped_chains.iter_grouped_chain(grid)}
        for step in by_groups:
            chain = step.structure
            assert isinstance(chain, Chain)
            assert all(node.kind != "als" for node in chain.nodes)
            assert (step.placements, step.eliminations) in every


def test_weak_links_from_the_c_core_are_the_python_ones_in_order() -> None:
    """The chains' weak links (``chain_weak`` in the C core, given the nodes by cell) are
    :func:`aic._weak_py`'s, node by node, in the same order: the searches meet them so."""
    rng = random.Random(17)
    checked = 0
    for puzzle in ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",):
        grid = CandidateGrid.from_values(Geometry(9), [0 if ch == "." else int(ch) for ch in puzzle])
        for _ in range(30):
            for cell in rng.sample(list(bits(grid.empty)), 12):
                digits = list(bits(grid.cands[cell]))
                if len(digits) > 1:
                    grid.eliminate(cell, rng.choice(digits) + 1)
            for digits, bivalue, in_cell in ((range(9), True, True), ([rng.randrange(9)], False, False)):
                strong: dict[int, list[int]] = {}
                aic._conjugates(grid, strong, digits)
                if bivalue:
                    aic._bivalues(grid, strong)
                got = aic._weak(grid, strong, in_cell=in_cell)
                assert list(got.items()) == list(aic._weak_py(grid, strong, in_cell=in_cell).items())
                checked += len(strong)
    assert checked
