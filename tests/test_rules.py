"""Constraint rules against brute force: every rule's propagation and the whole engine.

The references know nothing of propagation. One tries every assignment of a rule's cells and
keeps those that pass the rule's own check (written from the rule's meaning, in
:mod:`shudu.rules`); the other takes every grid of the bare shape (rows, columns, boxes) that
fits the givens, listed by the classic solver, and keeps those that pass every rule's check.
"""

from __future__ import annotations

import itertools
import random

import pytest

import shudu
from shudu.errors import ShuduError, VariantError
from shudu.geometry import Geometry
from shudu.puzzle import Puzzle
from shudu.rules import Rule, Shape, check_grid, lookup, rule_from_json, rule_types
from shudu.solvers._conditions_py import make
from shudu.solvers.constraints import shape_of
from shudu.variants import Variant

# --- random rules -------------------------------------------------------------------------------


def _walk(rng: random.Random, n: int, length: int, diagonal: bool = True) -> tuple[int, ...]:
    """A random line of distinct cells, each touching the next."""
    steps = [(0, 1), (1, 0), (0, -1), (-1, 0)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if diagonal else [])
    for _ in range(50):
        cell = rng.randrange(n * n)
        line = [cell]
        while len(line) < length:
            r, c = divmod(line[-1], n)
            options = [
                (r + dr) * n + c + dc
                for dr, dc in steps
                if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in line
            ]
            if not options:
                break
            line.append(rng.choice(options))
        if len(line) == length:
            return tuple(line)
    return tuple(line)


def _line(n: int, rng: random.Random) -> tuple[int, ...]:
    k = rng.randrange(n)
    cells = tuple(k * n + c for c in range(n)) if rng.random() < 0.5 else tuple(r * n + k for r in range(n))
    return cells if rng.random() < 0.5 else cells[::-1]


def _diagonal(n: int, rng: random.Random) -> tuple[int, ...]:
    r, c = rng.randrange(n - 1), rng.randrange(n - 1)
    length = rng.randrange(2, n - max(r, c) + 1)
    return tuple((r + i) * n + c + i for i in range(length))


def random_rule(kind: str, n: int, grid: tuple[int, ...], rng: random.Random, base: int = 1) -> Rule:
    """A random rule of ``kind``, most often one that ``grid`` (of digit indices) keeps (so that
    puzzles have solutions), sometimes not; its numbers are for digits from ``base``."""
    honest = rng.random() < 0.8
    values = tuple(d + base - 1 for d in grid)
    rule = _some_rule(kind, n, values, rng, honest, base)
    for _ in range(30 if honest else 0):
        if lookup(kind).check(rule, grid, _shape(n, (rule,), base)):
            break
        rule = _some_rule(kind, n, values, rng, honest, base)
    return rule


def _some_rule(
    kind: str, n: int, grid: tuple[int, ...], rng: random.Random, honest: bool, base: int = 1
) -> Rule:
    """A random rule over ``grid``, the digits' values."""

    def value(x: int, spread: int = 3) -> int:
        return x if honest else max(0, x + rng.randint(-spread, spread))

    def digits(cells: tuple[int, ...]) -> list[int]:
        return [grid[c] for c in cells]

    length = rng.randint(2, min(5, n))
    walk = _walk(rng, n, length)
    straight = _walk(rng, n, 2, diagonal=False)
    if kind == "cage":
        cage = _walk(rng, n, rng.randint(1, min(4, n)), diagonal=False)
        if len(set(digits(cage))) < len(cage):
            cage = cage[:1]
        return Rule(kind, cage, (value(sum(digits(cage))),) if rng.random() < 0.9 else ())
    if kind in ("sum", "little-killer"):
        cells = _diagonal(n, rng) if kind == "little-killer" else walk
        return Rule(kind, cells, (value(sum(digits(cells))),))
    if kind == "arrow":
        return Rule(kind, walk, (1,))
    if kind in ("sandwich", "x-sum", "skyscraper"):
        line = _line(n, rng)
        probe = Rule(kind, line, (0,))
        holds = lookup(kind).holds
        fits = (t for t in range(n * n) if holds(Rule(kind, line, (t,)), grid, _shape(n, (), base)))
        truth = next(fits, rng.randint(0, n * 2))
        return Rule(kind, probe.cells, (value(truth, 2),))
    if kind == "lunchbox":
        ds = digits(walk)
        if len(set(ds)) < len(ds):
            walk = walk[:2]
            ds = digits(walk)
        lo, hi = sorted((ds.index(min(ds)), ds.index(max(ds))))
        return Rule(kind, walk, (value(sum(ds[lo + 1 : hi])),))
    if kind == "sum-line":
        return Rule(kind, walk, (value(sum(digits(walk))) or 1, int(rng.random() < 0.2)))
    if kind in ("whisper",):
        return Rule(kind, walk, (rng.randint(1, n // 2),))
    if kind == "modular":
        return Rule(kind, walk, (rng.randint(2, 3),))
    if kind in ("candidates", "quad"):
        cells = (walk[0],) if kind == "candidates" else _square(n, rng)
        ds = sorted(set(digits(cells)))[:2] if honest else sorted(rng.sample(range(base, base + n), 2))
        return Rule(kind, cells, tuple(ds))
    if kind in ("white-dot", "black-dot", "x", "v", "greater"):
        return Rule(kind, straight)
    if kind in ("odd", "even"):
        return Rule(kind, (walk[0],))
    if kind == "between":
        return Rule(kind, _walk(rng, n, rng.randint(3, min(5, n))))
    if kind in ("entropic", "global-entropy") and n % 3:
        raise _Skip
    if lookup(kind).has_cells:
        return Rule(kind, walk)
    return Rule(kind)


class _Skip(Exception):
    pass


def _square(n: int, rng: random.Random) -> tuple[int, ...]:
    r, c = rng.randrange(n - 1), rng.randrange(n - 1)
    top = r * n + c
    return (top, top + 1, top + n, top + n + 1)


def _digits(base: int) -> tuple[Rule, ...]:
    """The rule that makes the digits run from ``base`` (none for 1)."""
    return () if base == 1 else (Rule("digits", (), (base,)),)


def _shape(n: int, rules: tuple[Rule, ...] = (), base: int = 1) -> Shape:
    return shape_of(Geometry(n, None, Variant().with_rules(rules + _digits(base), n)))


KINDS = sorted(rule_types())


# --- each rule's propagation against its own check ------------------------------------------------


def _propagate(rule: Rule, shape: Shape, dom: list[int]) -> bool:
    props = [make(kind, shape) for kind in lookup(rule.kind).compile(rule, shape)]
    for _ in range(50):
        changed = False
        for prop in props:
            out = prop.run(dom)
            if out is None:
                return False
            changed = changed or bool(out)
        if not changed:
            return True
    return True


@pytest.mark.parametrize("base", [1, 0])
@pytest.mark.parametrize("kind", [k for k in KINDS if lookup(k).has_cells])
def test_propagation_removes_only_digits_no_assignment_uses(kind: str, base: int) -> None:
    rng = random.Random(f"propagation {kind} {base}")
    checked = 0
    for trial in range(400 if base == 1 else 200):
        n = rng.choice((4, 6))
        grid = tuple(rng.randint(1, n) for _ in range(n * n))
        try:
            rule = random_rule(kind, n, grid, rng, base)
            lookup(kind).validate(rule, n, base)
        except (_Skip, VariantError, StopIteration):
            continue
        shape = _shape(n, (rule,), base)
        cells = list(dict.fromkeys(rule.cells))
        if len(cells) > 6:
            continue
        full = (1 << n) - 1
        dom = [full] * (n * n)
        for c in cells:
            dom[c] = rng.randint(1, full) if rng.random() < 0.7 else full
        before = list(dom)
        # the reference: every assignment of the rule's cells from their domains
        supported = [0] * (n * n)
        scratch = list(grid)
        for combo in itertools.product(
            *([d for d in range(1, n + 1) if before[c] >> (d - 1) & 1] for c in cells)
        ):
            for c, d in zip(cells, combo, strict=True):
                scratch[c] = d
            if lookup(kind).check(rule, scratch, shape):
                for c, d in zip(cells, combo, strict=True):
                    supported[c] |= 1 << (d - 1)
        ok = _propagate(rule, shape, dom)
        if not ok:
            assert not any(supported[c] for c in cells), f"{rule} failed although {supported} fit"
        else:
            for c in cells:
                lost = supported[c] & ~dom[c]
                assert not lost, (
                    f"{rule}: cell {c} lost digits {lost:b} that an assignment uses (trial {trial})"
                )
                assert dom[c] & ~before[c] == 0, "propagation added a digit"
        checked += 1
    assert checked >= (100 if base == 1 else 50)


# --- whole puzzles against brute force ------------------------------------------------------------


def _bare_solutions(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """Every grid of the bare shape with the puzzle's givens, from the classic solver."""
    bare = Puzzle(puzzle.cells, box=puzzle.geometry.box)
    return [tuple(g.cells) for g in shudu.solutions(bare, algorithm="dlx")]


def _random_puzzle(n: int, rng: random.Random, kinds: list[str], givens: int, base: int = 1) -> Puzzle | None:
    solution = tuple(next(shudu.solutions(Puzzle([0] * (n * n)), algorithm="dlx")).cells)
    # relabel and shuffle rows within bands for variety
    perm = list(range(1, n + 1))
    rng.shuffle(perm)
    grid = tuple(perm[d - 1] for d in solution)
    rules = []
    for kind in kinds:
        try:
            rule = random_rule(kind, n, grid, rng, base)
            lookup(kind).validate(rule, n, base)
        except (_Skip, VariantError, StopIteration):
            continue
        rules.append(rule)
    if not rules:
        return None
    cells = [0] * (n * n)
    for c in rng.sample(range(n * n), givens):
        cells[c] = grid[c]
    return Puzzle(cells, variant=Variant().with_rules(rules + list(_digits(base)), n))


@pytest.mark.parametrize(
    "n, givens, rounds, base",
    [
        pytest.param(4, 0, 1500, 1, marks=pytest.mark.slow),
        (4, 3, 3000, 1),
        (6, 14, 600, 1),
        (4, 3, 1000, 0),
        (6, 14, 200, 0),
    ],
)
def test_engine_finds_exactly_the_grids_that_keep_every_rule(
    n: int, givens: int, rounds: int, base: int
) -> None:
    rng = random.Random(f"engine {n} {givens}" + (f" {base}" if base != 1 else ""))
    checked = 0
    for _ in range(rounds):
        kinds = rng.sample(KINDS, rng.randint(1, 3))
        puzzle = _random_puzzle(n, rng, kinds, givens, base)
        if puzzle is None:
            continue
        shape = shape_of(puzzle.geometry)
        expected = {g for g in _bare_solutions(puzzle) if check_grid(g, shape) is None}
        found = {tuple(g.cells) for g in shudu.solutions(puzzle)}
        assert found == expected, (
            f"{puzzle.geometry.variant.rules}: {len(found)} found, {len(expected)} expected"
        )
        checked += 1
    assert checked >= rounds // 2


@pytest.mark.parametrize("links", ["anti-king", "anti-knight"])
def test_renbans_and_entropy_squares_clear_the_cells_that_see_them_soundly(links: str) -> None:
    """A renban's or an entropy square's needed digit leaves the cells that see all its places
    through houses and the variant's links: the same grids as brute force with the links."""
    rng = random.Random(f"near {links}")
    n, checked = 6, 0
    variant = Variant(links, anti_king=links == "anti-king", anti_knight=links == "anti-knight")
    grids = [
        tuple(g.cells) for g in itertools.islice(shudu.solutions(Puzzle([0] * 36, variant=variant)), 300)
    ]
    for _ in range(60):
        perm = list(range(1, n + 1))
        rng.shuffle(perm)
        grid = tuple(perm[d - 1] for d in rng.choice(grids))
        rules = []
        for kind in rng.sample(["renban", "renban", "renban", "global-entropy"], rng.randint(1, 3)):
            try:
                rule = random_rule(kind, n, grid, rng)
                lookup(kind).validate(rule, n)
            except (_Skip, VariantError, StopIteration):
                continue
            rules.append(rule)
        cells = [0] * (n * n)
        for c in rng.sample(range(n * n), rng.randint(6, 10)):
            cells[c] = grid[c]
        puzzle = Puzzle(cells, variant=variant.with_rules(rules, n))
        geometry = puzzle.geometry
        shape = shape_of(geometry)
        expected = {
            g
            for g in _bare_solutions(puzzle)
            if check_grid(g, shape) is None
            and all(g[a] != g[b] for a, linked in enumerate(geometry.links) for b in linked)
        }
        found = {tuple(g.cells) for g in shudu.solutions(puzzle)}
        assert found == expected, f"{rules}: {len(found)} found, {len(expected)} expected"
        checked += len(expected) > 1
    assert checked >= 10


def test_solve_many_answers_puzzles_with_rules_like_brute_force() -> None:
    """One geometry with rules, many givens: each line's status and first solution agree with
    the grids of the bare shape that keep every rule; bad lines are invalid, the others answered."""
    rng = random.Random("solve_many rules")
    checked = 0
    for _ in range(200):
        puzzle = _random_puzzle(4, rng, rng.sample(KINDS, rng.randint(1, 3)), 0)
        if puzzle is None:
            continue
        geometry, shape = puzzle.geometry, shape_of(puzzle.geometry)
        grids = [g for g in _bare_solutions(puzzle) if check_grid(g, shape) is None]
        lines = []
        for _ in range(4):
            source = rng.choice(grids) if grids and rng.random() < 0.8 else _bare_solutions(puzzle)[0]
            keep = set(rng.sample(range(16), rng.randint(0, 10)))
            lines.append("".join(str(d) if c in keep else "." for c, d in enumerate(source)))
        lines.insert(rng.randrange(len(lines) + 1), "12" + "." * 13)  # too short: invalid
        result = shudu.solve_many(lines, limit=2, geometry=geometry)
        for line, status, solution, error in zip(
            lines, result.statuses, result.solutions, result.errors, strict=True
        ):
            if len(line) != 16:
                assert status == "invalid" and error is not None and error.line == lines.index(line) + 1
                continue
            fits = [g for g in grids if all(ch == "." or int(ch) == d for ch, d in zip(line, g, strict=True))]
            assert status == ("none", "unique", "multiple")[min(len(fits), 2)], (geometry.variant.rules, line)
            if fits:
                assert solution is not None and tuple(int(ch) for ch in solution) in fits
            checked += 1
    assert checked >= 300


def test_solve_many_with_rules_honours_its_budget() -> None:
    puzzle = shudu.parse_puzzle(".Cage~15~R1C1~R1C2~R2C1")
    result = shudu.solve_many(["." * 81] * 3, limit=2, geometry=puzzle.geometry, node_limit=5)
    assert result.statuses == ["timeout"] * 3
    assert shudu.solve_many(["." * 81], limit=2, geometry=puzzle.geometry).statuses == ["multiple"]


def test_auto_uses_the_constraint_engine_and_others_refuse_rules() -> None:
    puzzle = Puzzle([0] * 16, variant=Variant().with_rules([Rule("cage", (0, 1), (3,))], 4))
    assert shudu.count(puzzle, limit=1000) == 48  # 288 grids, 1 ordered pair in 6 of {1,2}
    with pytest.raises(ShuduError, match="does not read constraint rules"):
        shudu.count(puzzle, algorithm="dlx")
    assert shudu.rate(puzzle).status == "multiple"  # the logic engine reads rules too


def test_the_existing_variants_solve_the_same_in_the_constraint_engine() -> None:
    rng = random.Random(5)
    for variant in ("x", "windoku", "anti-knight", "anti-king+x", "pyramid"):
        n = 9
        made = shudu.generate(variant=variant, seed=rng.randrange(1000), level="easy")
        classic = shudu.solve(made.puzzle)
        general = shudu.solve(made.puzzle, algorithm="constraints")
        assert (classic.status, classic.solution) == (general.status, general.solution)
        assert n == made.puzzle.geometry.size


# --- bad rules --------------------------------------------------------------------------------------

BAD: list[tuple[dict[str, object], str]] = [
    ({"rule": "cage", "cells": ["r1c1", "r1c1"], "total": 3}, "lists r1c1 twice"),
    ({"rule": "cage", "cells": ["r1c1", "r1c2"], "total": 30}, "no 2 different digits add up to 30"),
    ({"rule": "white-dot", "cells": ["r1c1", "r3c3"]}, "does not touch"),
    ({"rule": "thermo", "cells": ["r1c1", "r5c5"]}, "do not touch"),
    ({"rule": "thermo", "cells": ["r1c1", "r10c1"]}, "outside the 9x9 grid"),
    ({"rule": "kage", "cells": ["r1c1"]}, "unknown rule 'kage'"),
    ({"rule": "anti-consecutive", "cells": ["r1c1"]}, "takes no cells"),
    ({"rule": "quad", "cells": ["r1c1", "r1c2", "r2c1", "r3c3"], "digits": [1]}, "2x2 square"),
    ({"rule": "sandwich", "cells": ["r1c1", "r1c2"], "total": 5}, "whole row or column"),
    ({"rule": "cage", "cells": ["r1c1"], "total": "x"}, "whole number"),
    ({"rule": "cage", "cells": ["r1c1"], "colour": 3}, "unknown field 'colour'"),
]


@pytest.mark.parametrize("data, message", BAD)
def test_a_bad_rule_is_a_clear_error(data: dict[str, object], message: str) -> None:
    with pytest.raises(VariantError, match=message):
        rule_from_json(data, 9)


def test_every_rule_type_has_a_working_example() -> None:
    for name, rtype in rule_types().items():
        rule = rule_from_json(rtype.example, 9)
        assert rule.kind == name
        assert rule_from_json(rule.to_json(9), 9) == rule
        assert rtype.describe(rule, 9)


def test_rules_travel_in_json_and_in_constraint_strings() -> None:
    text = ".~R5C5_3.Thermo~R1C1~R1C2~R1C3.Cage~10~R9C9~R9C8.WhiteDot~R4C4~R4C5.Whisper~5~R2C7~R3C8"
    puzzle = shudu.parse_puzzle(text)
    assert (
        shudu.parse_puzzle(shudu.formats.convert.write_document(shudu.formats.Document(puzzle), "json"))
        == puzzle
    )
    assert (
        shudu.parse_puzzle(shudu.formats.convert.write_document(shudu.formats.Document(puzzle), "iss"))
        == puzzle
    )
    with pytest.raises(ShuduError, match="cannot hold the puzzle's rules"):
        shudu.formats.convert.write_document(shudu.formats.Document(puzzle), "line")


def test_the_docs_name_every_rule() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "constraints.md").read_text(encoding="utf-8")
    for name in rule_types():
        assert f"`{name}`" in text, name


def test_shudu_rules_lists_every_rule_with_an_example_that_reads() -> None:
    import io
    import json

    from shudu.cli import main

    out, err = io.StringIO(), io.StringIO()
    assert main(["rules", "--format", "json"], stdout=out, stderr=err) == 0, err.getvalue()
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert {row["rule"] for row in rows} == set(rule_types())
    for row in rows:
        assert rule_from_json(row["example"], 9).kind == row["rule"]
    out = io.StringIO()
    assert main(["rules"], stdout=out, stderr=err) == 0
    assert all(f"  {name} " in out.getvalue() for name in rule_types())


# --- hostile input ----------------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_junk = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.text(max_size=8),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True),
    st.lists(st.integers(-3, 20), max_size=4),
)
_cell = st.one_of(
    st.builds(lambda r, c: f"r{r}c{c}", st.integers(0, 6), st.integers(0, 6)),
    st.integers(-2, 20),
    _junk,
)
_rule = st.fixed_dictionaries(
    {"rule": st.one_of(st.sampled_from(sorted(rule_types())), _junk)},
    optional={
        "cells": st.one_of(st.lists(_cell, max_size=7), _junk),
        "total": _junk,
        "gap": _junk,
        "mod": _junk,
        "circle": st.one_of(st.integers(-1, 4), _junk),
        "digits": st.one_of(st.lists(st.integers(-1, 6), max_size=5), _junk),
        "count": _junk,
        "loop": _junk,
        "coeffs": st.one_of(st.lists(st.integers(-200, 200), max_size=5), _junk),
    },
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.lists(_rule, min_size=1, max_size=3),
    givens=st.lists(st.integers(0, 4), min_size=16, max_size=16),
)
def test_hostile_rules_give_a_shudu_error_or_an_answer(
    rules: list[dict[str, object]], givens: list[int]
) -> None:
    import json

    text = json.dumps({"size": 4, "rules": rules, "givens": "".join(map(str, givens))})
    try:
        puzzle = shudu.parse_puzzle(text)
    except ShuduError:
        return
    result = shudu.solve(puzzle, node_limit=200)
    assert result.status in ("unique", "multiple", "none", "timeout")


_item = st.one_of(
    st.builds(
        lambda kind, args: "." + "~".join([kind, *args]),
        st.sampled_from(["Cage", "Thermo", "Arrow", "PillArrow", "WhiteDot", "Whisper", "Renban", "Sandwich",
                         "Skyscraper", "XSum", "LittleKiller", "Quad", "SumLine", "Shape", "Jigsaw", "Diagonal",
                         "Lunchbox", "Between", "", "Nope", "StrictXV", "Modular", "Zipper", "Sum"]),
        st.lists(st.one_of(st.sampled_from(["R1C1", "R1C2", "R2C2", "R4C4", "R9C9", "Ra", "C3", "R2", "LOOP",
                                            "4x4", "9x8", "1_2", "R1C1_2", "R1C1_2_3", "", "-1", "10"]),
                           st.text(alphabet="RC0123456789_x~-", max_size=5)), max_size=5),
    ),
    st.text(max_size=6),
)  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(_item, min_size=1, max_size=5))
def test_hostile_constraint_strings_give_a_shudu_error_or_an_answer(items: list[str]) -> None:
    text = ".Shape~4x4" + "".join(items)
    try:
        puzzle = shudu.parse_puzzle(text)
    except ShuduError:
        return
    assert shudu.solve(puzzle, node_limit=200).status in ("unique", "multiple", "none", "timeout")
