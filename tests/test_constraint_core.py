"""The C twin of the constraint engine (core/constraints*.c) against its Python specification.

- one propagation to a fixed point on random networks (random houses' worth of kinds and
  random partial domains) leaves the same domains on both, or fails on both;
- searches on random small puzzles and on the corpus's core puzzles find the same solutions in
  the same order with the same node and guess counts (the choice of branch follows the same
  failure weights, so any difference in propagation would show);
- the budget: a node limit and a deadline end the C search with a timeout.
"""

from __future__ import annotations

import csv
import dataclasses
import itertools
import os
import random
import signal
import subprocess
import sys
import time
from array import array
from collections import deque
from collections.abc import Callable
from pathlib import Path

import pytest

from shudu.errors import ShuduError, VariantError
from shudu.geometry import Geometry
from shudu.puzzle import Grid, Puzzle
from shudu.rules import AllDifferent, LineCondition, OrderedChain, Relation, Rule, Shape, WeightedSum, lookup
from shudu.rules import base as rules_base
from shudu.solvers import constraints
from shudu.solvers._conditions_py import make
from shudu.solvers._propagators_py import IntersectionProp, Prop
from shudu.solvers.base import Budget, SearchTimeout, Stats
from shudu.variants import Variant

core = constraints._core
pytestmark = pytest.mark.skipif(core is None, reason="the C core (with its constraint engine) is not in use")

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
CORPUS = DATA / "iss_constraint_puzzles.tsv"


# --- one propagation -------------------------------------------------------------------------


Houses = tuple[tuple[int, ...], ...]


def _python_propagate(
    sources: list[constraints.Source], shape: Shape, dom: list[int], houses: Houses = ()
) -> list[int] | None:
    props: list[Prop] = [
        IntersectionProp(s.first, s.second)
        if isinstance(s, constraints.Intersection)
        else make(s, shape, houses)
        for s in sources
    ]
    watch: list[list[int]] = [[] for _ in range(len(dom))]
    for i, prop in enumerate(props):
        for cell in set(prop.cells):
            watch[cell].append(i)
    net = constraints._Network(props, watch, shape, [1] * len(dom))
    dom = list(dom)
    ok = constraints._settle(dom, net, deque(range(len(props))), [True] * len(props))
    return dom if ok else None


def _c_propagate(
    sources: list[constraints.Source], size: int, dom: list[int], houses: Houses = ()
) -> list[int] | None:
    assert core is not None
    records = constraints.encode_network(sources, size, houses)
    assert records is not None
    out = core.constraint_propagate(size, records, array("I", dom))
    return None if out is None else list(out)


def _cells(rng: random.Random, n: int, k: int) -> tuple[int, ...]:
    return tuple(rng.sample(range(n * n), k))


def _line(rng: random.Random, n: int) -> tuple[int, ...]:
    """A row or a column, either way."""
    i = rng.randrange(n)
    cells = [i * n + j for j in range(n)] if rng.random() < 0.5 else [j * n + i for j in range(n)]
    return tuple(cells[::-1] if rng.random() < 0.5 else cells)


def _random_kind(rng: random.Random, n: int) -> list[constraints.Source]:
    full = (1 << n) - 1
    pick = rng.randrange(15)
    if pick == 0:  # a cage
        k = rng.randint(1, min(5, n))
        cells = _cells(rng, n, k)
        return [AllDifferent(cells), WeightedSum(cells, (1,) * k, rng.randint(k, k * n), True)]
    if pick == 1:  # a weighted sum (an arrow, a pill, a little killer with repeats)
        k = rng.randint(1, 4)
        coeffs = tuple(rng.choice((-3, -2, -1, 1, 1, 1, 2, 10)) for _ in range(k))
        return [WeightedSum(_cells(rng, n, k), coeffs, rng.randint(-n, 3 * n), rng.random() < 0.2)]
    if pick == 2:
        return [OrderedChain(_cells(rng, n, rng.randint(2, n)), rng.random() < 0.7)]
    if pick == 3:  # a dot, a whisper, a random table
        gap = rng.randint(1, n // 2 + 1)
        preds: list[Callable[[int, int], bool]] = [
            lambda a, b: abs(a - b) == 1,
            lambda a, b: a == 2 * b or b == 2 * a,
            lambda a, b: abs(a - b) >= gap,
            lambda a, b: a + b == n + 1,
        ]
        pred = rng.choice(preds)
        if rng.random() < 0.2:
            table = tuple(rng.randint(0, full) for _ in range(n))
        else:
            table = tuple(sum(1 << (b - 1) for b in range(1, n + 1) if pred(a, b)) for a in range(1, n + 1))
        a, b = _cells(rng, n, 2)
        return [Relation(a, b, table)]
    if pick == 4:
        return [LineCondition("renban", _cells(rng, n, rng.randint(1, n)))]
    if pick == 5:
        return [LineCondition("between", _cells(rng, n, rng.randint(2, 5)))]
    if pick == 6:
        return [LineCondition("sandwich", _line(rng, n), (rng.randint(0, n * (n + 1) // 2 - n - 1),))]
    if pick == 7:
        return [LineCondition("x-sum", _line(rng, n), (rng.randint(1, n * (n + 1) // 2),))]
    if pick == 8:
        return [LineCondition("skyscraper", _line(rng, n), (rng.randint(0, n + 1),))]
    if pick == 9:
        loop = rng.randint(0, 1)
        return [LineCondition("sum-line", _cells(rng, n, rng.randint(1, 6)), (rng.randint(1, 2 * n), loop))]
    if pick == 10:
        digits = tuple(rng.randint(1, n) for _ in range(rng.randint(1, 4)))
        return [LineCondition("quad", _cells(rng, n, 4), digits)]
    if pick == 11:
        masks = tuple(rng.randint(1, full) for _ in range(rng.randint(1, 3)))
        return [LineCondition("cover", _cells(rng, n, rng.randint(1, n)), masks)]
    if pick == 13:  # a lunchbox: its digits differ (the rule's all-different group goes with it)
        cells = _cells(rng, n, rng.randint(2, n))
        total = rng.randint(0, n * (n + 1) // 2 - n - 1)
        return [AllDifferent(cells), LineCondition("lunchbox", cells, (total,))]
    if pick == 12:
        return [LineCondition("allowed", _cells(rng, n, rng.randint(1, 3)), (rng.randint(1, full),))]
    return [AllDifferent(_cells(rng, n, rng.randint(2, n)))]


def _random_dom(rng: random.Random, n: int) -> list[int]:
    full = (1 << n) - 1
    dom = []
    for _ in range(n * n):
        r = rng.random()
        if r < 0.5:
            dom.append(full)
        elif r < 0.65:
            dom.append(1 << rng.randrange(n))
        else:
            dom.append(rng.randint(1, full))
    return dom


@pytest.mark.parametrize("n", [4, 6])
def test_propagation_matches_python(n: int) -> None:
    rng = random.Random(1000 + n)
    shape = Shape(n, tuple(0 for _ in range(n * n)))
    _, houses = constraints.network_sources(Geometry(n))
    cells_of: Houses = tuple(tuple(h) for h in Geometry(n).house_cells)
    outcomes = {"fixed point": 0, "contradiction": 0}
    for trial in range(1500):
        sources: list[constraints.Source] = list(houses) if rng.random() < 0.7 else []
        for _ in range(rng.randint(1, 6)):
            sources.extend(_random_kind(rng, n))
        dom = _random_dom(rng, n)
        given = cells_of if trial % 2 else ()  # sums bound by the houses' cells, or not
        want = _python_propagate(sources, shape, dom, given)
        got = _c_propagate(sources, n, dom, given)
        assert got == want, (trial, sources, dom)
        outcomes["fixed point" if want is not None else "contradiction"] += 1
    assert min(outcomes.values()) > 40, outcomes  # both outcomes were tried


def test_each_condition_narrows_alone() -> None:
    """Every kind on its own, with the houses left out, over many random domains."""
    n = 6
    rng = random.Random(7)
    shape = Shape(n, tuple(0 for _ in range(n * n)))
    houses: Houses = tuple(tuple(h) for h in Geometry(n).house_cells)
    for _ in range(3000):
        sources = _random_kind(rng, n)
        dom = _random_dom(rng, n)
        want = _python_propagate(sources, shape, dom, houses)
        assert _c_propagate(sources, n, dom, houses) == want, (sources, dom)


# --- searches --------------------------------------------------------------------------------


def _both(puzzle: Puzzle, limit: int, node_limit: int) -> list[tuple[str, list[tuple[int, ...]], Stats]]:
    """(outcome, solutions, stats) of the Python then the C search."""
    found = constraints._c_search(puzzle)
    assert found is not None
    runs = []
    for engine in ("python", "c"):
        stats = Stats()
        budget = Budget(node_limit)
        if engine == "python":
            it = constraints._Search(puzzle, budget, stats).solutions()
        else:
            it = constraints._c_solutions(*found, budget, stats)
        sols: list[tuple[int, ...]] = []
        outcome = "done"
        try:
            sols = list(itertools.islice(it, limit))
        except SearchTimeout:
            outcome = "timeout"
        runs.append((outcome, sols, stats))
    return runs


def _path(rng: random.Random, n: int, k: int) -> tuple[int, ...]:
    """A random walk of up to k cells, each next to the one before (a line, a cage)."""
    cells = [rng.randrange(n * n)]
    while len(cells) < k:
        r, c = divmod(cells[-1], n)
        steps = [(r + dr) * n + c + dc for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
        steps = [s for s in steps if 0 <= s // n < n and 0 <= s % n < n and abs(s % n - c) <= 1]
        steps = [s for s in steps if s not in cells]
        if not steps:
            break
        cells.append(rng.choice(steps))
    return tuple(cells)


def _random_rule(rng: random.Random, n: int) -> Rule:
    kind = rng.choice(
        ["cage", "thermo", "slow-thermo", "arrow", "white-dot", "black-dot", "x", "v", "whisper", "renban",
         "between", "sandwich", "x-sum", "skyscraper", "sum-line", "quad", "odd", "even", "greater",
         "palindrome", "little-killer", "modular", "entropic", "zipper", "region-sum-line", "lunchbox"]
    )  # fmt: skip
    if kind in ("sandwich", "x-sum", "skyscraper"):
        total = rng.randint(1, n) if kind == "skyscraper" else rng.randint(0, n * (n + 1) // 2 - n - 1)
        return Rule(kind, _line(rng, n), (total,))
    cells = _path(rng, n, rng.randint(2, 5))
    if kind == "quad":
        r, c = rng.randrange(n - 1), rng.randrange(n - 1)
        cells = (r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1)
        return Rule(kind, cells, tuple(sorted(rng.randint(1, n) for _ in range(rng.randint(1, 3)))))
    if kind == "cage":
        return Rule(kind, cells, (rng.randint(len(cells), len(cells) * n),))
    if kind == "lunchbox":
        return Rule(kind, cells, (rng.randint(0, (len(cells) - 2) * n),))
    if kind == "little-killer":
        return Rule(kind, cells, (rng.randint(len(cells), len(cells) * n),))
    if kind == "whisper":
        return Rule(kind, cells, (rng.randint(1, n // 2),))
    if kind == "modular":
        return Rule(kind, cells, (3,))
    if kind == "sum-line":
        return Rule(kind, cells, (rng.randint(n, 2 * n), 0))
    if kind in ("white-dot", "black-dot", "x", "v", "greater"):
        return Rule(kind, cells[:2])
    if kind in ("odd", "even"):
        return Rule(kind, cells[:1])
    return Rule(kind, cells)


def _random_puzzle(rng: random.Random, n: int) -> Puzzle | None:
    rules: list[Rule] = []
    for _ in range(rng.randint(1, 5)):
        rule = _random_rule(rng, n)
        try:
            lookup(rule.kind).validate(rule, n, 1)
        except VariantError:
            continue
        rules.append(rule)
    cells = [0] * (n * n)
    for _ in range(rng.randint(0, 3)):
        cells[rng.randrange(n * n)] = rng.randint(1, n)
    try:
        puzzle = Puzzle(cells, variant=Variant(rules=tuple(rules)))
    except ShuduError:
        return None
    sources = constraints.network_sources(puzzle.geometry)[1]
    return puzzle if constraints.encode_network(sources, n) is not None else None


@pytest.mark.parametrize("n", [4, 6])
def test_searches_match_python(n: int) -> None:
    rng = random.Random(2000 + n)
    seen = {"done": 0, "timeout": 0, "solved": 0}
    tried = 0
    while tried < (300 if n == 4 else 150):
        puzzle = _random_puzzle(rng, n)
        if puzzle is None:
            continue
        tried += 1
        (py_out, py_sols, py_stats), (c_out, c_sols, c_stats) = _both(puzzle, 20, 2000)
        assert (c_out, c_sols) == (py_out, py_sols), puzzle.geometry.variant.rules
        assert (c_stats.nodes, c_stats.guesses, c_stats.settled) == (
            py_stats.nodes,
            py_stats.guesses,
            py_stats.settled,
        ), puzzle.geometry.variant.rules
        seen[c_out] += 1
        seen["solved"] += bool(c_sols)
    assert seen["done"] and seen["solved"], seen


def _corpus() -> list[tuple[str, Puzzle, str]]:
    from shudu.formats.iss import parse_iss

    out = []
    with CORPUS.open(newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if row["scope"] != "core":
                continue
            try:
                puzzle = parse_iss(row["iss_input"])
            except ShuduError:
                continue
            out.append((row["name"], puzzle, row["solution"]))
    return out


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.exists(), reason=f"the corpus {CORPUS} is absent (../shared/data)")
def test_corpus_matches_python() -> None:
    """Each core puzzle that parses and runs in C: the same outcome, solutions and counts
    within a node limit on both engines, and the corpus's solution when it is unique."""
    compared = solved = 0
    for name, puzzle, solution in _corpus():
        sources = constraints.network_sources(puzzle.geometry)[1]
        if constraints.encode_network(sources, puzzle.geometry.size) is None:
            continue  # the generic condition: both engines are the Python one
        (py_out, py_sols, py_stats), (c_out, c_sols, c_stats) = _both(puzzle, 2, 600)
        assert (c_out, c_sols, c_stats.nodes, c_stats.guesses) == (
            py_out,
            py_sols,
            py_stats.nodes,
            py_stats.guesses,
        ), name
        compared += 1
        status, grid = constraints.ConstraintSolver().answer(puzzle, budget=Budget(60_000))
        if status == "unique" and solution.isdigit() and len(solution) == len(puzzle.cells):
            assert grid is not None and Grid.trusted(grid, puzzle.geometry).to_string() == solution, name
            solved += 1
    assert compared >= 30 and solved >= 20, (compared, solved)


# --- the solver, the budget, the fallback ----------------------------------------------------

THERMOS = (
    ".Thermo~R1C2~R2C3.Thermo~R3C2~R2C1.Thermo~R4C2~R5C1.Thermo~R6C2~R5C3.Thermo~R7C2~R8C1"
    ".Thermo~R9C2~R8C3.Thermo~R9C4~R8C4.Thermo~R9C6~R8C5.Thermo~R9C7~R8C6.Thermo~R9C8~R8C9"
    ".Thermo~R7C8~R8C7.Thermo~R7C6~R7C7.Thermo~R6C6~R5C5.Thermo~R6C8~R5C9.Thermo~R4C8~R5C7"
    ".Thermo~R3C8~R2C9.Thermo~R1C8~R2C7.Thermo~R3C6~R2C5.Thermo~R1C4~R2C4."
)


def _thermos() -> Puzzle:
    from shudu.formats.iss import parse_iss

    return parse_iss(THERMOS)


def test_node_limit_gives_timeout() -> None:
    solver = constraints.ConstraintSolver()
    stats = Stats()
    with pytest.raises(SearchTimeout, match="node limit of 500"):
        list(solver.solutions(_thermos(), budget=Budget(500), stats=stats))
    assert stats.nodes == 501
    assert solver.answer(_thermos(), budget=Budget(500))[0] == "timeout"


def test_tiny_timeout_gives_timeout() -> None:
    solver = constraints.ConstraintSolver()
    with pytest.raises(SearchTimeout, match="time limit"):
        list(solver.solutions(_thermos(), budget=Budget.of(timeout=0.001)))
    assert solver.answer(_thermos(), budget=Budget.of(timeout=0.02)) == ("timeout", None)


def test_solutions_are_lazy_and_counted() -> None:
    """An empty 4x4 grid with one cage: its solutions, one by one, as the Python engine lists them."""
    puzzle = Puzzle([0] * 16, variant=Variant(rules=(Rule("cage", (0, 1), (3,)),)))
    solver = constraints.ConstraintSolver()
    c_stats, py_stats = Stats(), Stats()
    first = list(itertools.islice(solver.solutions(puzzle, stats=c_stats), 3))
    want = list(itertools.islice(constraints._Search(puzzle, Budget(), py_stats).solutions(), 3))
    assert first == want and len(first) == 3
    assert (c_stats.nodes, c_stats.guesses) == (py_stats.nodes, py_stats.guesses)
    assert (
        solver.count(puzzle) == solver.count(puzzle, limit=1000) == 48
    )  # 288 grids, 2 of the 12 digit pairs in the cage


def test_generic_condition_falls_back_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule compiled to the condition "rule" (its own check, tried on its digits): no C
    network, the Python engine searches. No rule compiles to it now; a lunchbox is made to."""
    lunchbox = lookup("lunchbox")
    generic = dataclasses.replace(
        lunchbox, compile=lambda r, s: [AllDifferent(r.cells), LineCondition("rule", r.cells, r.params, r)]
    )
    monkeypatch.setitem(rules_base._TYPES, "lunchbox", generic)
    rule = Rule("lunchbox", (0, 1, 2, 3), (0,))
    puzzle = Puzzle([0] * 36, variant=Variant(rules=(rule,)))
    shape, sources = constraints.network_sources(puzzle.geometry)
    assert any(isinstance(s, LineCondition) and s.name == "rule" for s in sources)
    assert constraints.encode_network(sources, 6) is None
    assert constraints._c_search(puzzle) is None
    grid = next(constraints.ConstraintSolver().solutions(puzzle))
    assert lunchbox.check(rule, grid, shape)


def test_lunchbox_runs_in_c() -> None:
    rule = Rule("lunchbox", (0, 1, 2, 3), (5,))
    puzzle = Puzzle([0] * 36, variant=Variant(rules=(rule,)))
    shape, sources = constraints.network_sources(puzzle.geometry)
    assert constraints.encode_network(sources, 6) is not None
    (py_out, py_sols, py_stats), (c_out, c_sols, c_stats) = _both(puzzle, 5, 2000)
    assert (c_out, c_sols, c_stats.nodes) == (py_out, py_sols, py_stats.nodes)
    assert len(c_sols) == 5 and all(lookup("lunchbox").check(rule, g, shape) for g in c_sols)


def test_bad_records_are_refused() -> None:
    assert core is not None
    dom = array("I", [15] * 16)
    sums = ([3, 2, 4, 0, 1, 5, 2, 1, 1], [3, 2, 6, 0, 1, 5, 2, 1, 1, 1, 0], [3, 2, 4, 0, 1, 5, 9, 1, 1])
    # an intersection whose two counts overflow a 32-bit sum (once read past its cells)
    overflow = [1, 2, 2, 0, 1, 2**31 - 1, 1]
    for records in (
        [99, 0, 0],
        [0, 1, 1, 16, 1],
        [0, 2],
        [3, 2, 1, 0, 1, 5],
        [11, 2, 2, 0, 1, 0, 0],
        overflow,
        *sums,
    ):
        with pytest.raises(ValueError):
            core.constraint_propagate(4, array("i", records), dom)
    with pytest.raises(ValueError):
        core.constraint_propagate(4, array("i"), array("I", [0] * 16))


def test_ctrl_c_stops_the_c_search() -> None:
    """SIGINT during a long C search (GIL released) ends it with KeyboardInterrupt, and the
    next search works."""
    body = f"""
import sys, time
from shudu.formats.iss import parse_iss
from shudu.puzzle import Puzzle
from shudu.solvers import constraints
assert constraints.IMPLEMENTATION == "c"
puzzle = parse_iss({THERMOS!r})
print("started", flush=True)
try:
    end = time.monotonic() + 60
    while time.monotonic() < end:  # each search is a few tenths of a second in C, GIL released
        next(constraints.ConstraintSolver().solutions(puzzle))
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
print("next call:", constraints.ConstraintSolver().count(Puzzle([0] * 16), limit=5))
"""
    child = subprocess.Popen([sys.executable, "-c", body], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "started"
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()
    assert out.split("\n")[:2] == ["interrupted", "next call: 5"], out


def test_python_can_be_forced() -> None:
    """SHUDU_IMPLEMENTATION=python runs the Python engine, with the same answer and counts."""
    body = """
import shudu
from shudu.puzzle import Puzzle
from shudu.rules import Rule
from shudu.solvers import constraints
from shudu.solvers.base import Stats
from shudu.variants import Variant
puzzle = Puzzle([0] * 16, variant=Variant(rules=(Rule("thermo", (0, 1, 5)), Rule("cage", (2, 3), (7,)))))
stats = Stats()
print(constraints.IMPLEMENTATION, constraints.ConstraintSolver().count(puzzle, stats=stats), stats.nodes)
"""
    out = {}
    for engine in ("python", "c"):
        env = {**os.environ, "SHUDU_IMPLEMENTATION": engine}
        run = subprocess.run(
            [sys.executable, "-c", body], env=env, capture_output=True, text=True, timeout=60
        )
        assert run.returncode == 0, run.stderr
        name, count, nodes = run.stdout.split()
        assert name == engine
        out[engine] = (int(count), int(nodes))
    assert out["python"] == out["c"] and out["c"][0] > 0, out
