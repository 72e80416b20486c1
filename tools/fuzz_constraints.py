"""Throw mutated networks at the C constraint engine (``core/constraints*.c``).

Run by ``tools/sanitize.sh`` against a build with AddressSanitizer and
UndefinedBehaviorSanitizer; it also runs on an ordinary build::

    python tools/fuzz_constraints.py [--rounds N] [--seed S]

Each round builds the network of a random rule set (each rule type's example, random
cages, sums and lines), then:

- runs it unchanged: the C search and propagation must agree with the Python engine;
- mutates its records (a number changed to a boundary value, a record cut short or
  repeated, counts that lie about what follows, domains out of range) and hands them to
  ``constraint_propagate`` and ``ConstraintSearch``: each must return or raise
  ValueError/TypeError/OverflowError, never crash, and a search built from them must end
  within its node limit.
"""

from __future__ import annotations

import argparse
import random
from array import array
from typing import Any

from shudu.errors import ShuduError
from shudu.geometry import Geometry
from shudu.puzzle import Puzzle
from shudu.rules import Rule, lookup, rule_from_json, rule_types
from shudu.solvers import constraints
from shudu.solvers.base import Budget, SearchTimeout, Stats
from shudu.variants import Variant

core: Any = constraints._core
EXPECTED = (ValueError, TypeError, OverflowError)
BOUNDARY = [-(2**31), -1, 0, 1, 2, 3, 8, 9, 15, 16, 80, 81, 255, 256, 4096, 2**31 - 1]


def call(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except EXPECTED as exc:
        return exc


def random_rules(rng: random.Random, n: int) -> list[Rule]:
    """A few rules on an n x n grid: examples of the rule types that fit, and random cages."""
    rules: list[Rule] = []
    if n == 9:
        for name in rng.sample(sorted(rule_types()), rng.randint(1, 4)):
            example = lookup(name).example
            try:
                rules.append(rule_from_json(example, n))
            except ShuduError:
                continue
    for _ in range(rng.randint(0, 4)):
        cells = rng.sample(range(n * n), rng.randint(1, min(n, 5)))
        low, high = sum(range(1, len(cells) + 1)), sum(range(n - len(cells) + 1, n + 1))
        total = rng.randint(low, high) if rng.random() < 0.9 else rng.randint(0, 3 * high)
        rules.append(Rule("cage", tuple(cells), (total,)))
    kept = []
    for rule in rules:
        try:
            lookup(rule.kind).validate(rule, n)
        except ShuduError:
            continue
        kept.append(rule)
    return kept


def mutate(records: array[int], rng: random.Random) -> array[int]:
    out = array("i", records)
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        if not out:
            out.append(rng.choice(BOUNDARY))
        elif choice < 0.5:
            out[rng.randrange(len(out))] = rng.choice(BOUNDARY)
        elif choice < 0.7:
            del out[rng.randrange(len(out)) :]
        elif choice < 0.85:
            start = rng.randrange(len(out))
            out.extend(out[start : start + rng.randint(1, 20)])
        else:
            out.insert(rng.randrange(len(out) + 1), rng.choice(BOUNDARY))
    return out


TALLY = {"networks": 0, "compared": 0, "mutants": 0, "mutants run": 0}


def one_round(rng: random.Random) -> None:
    n = rng.choice([4, 6, 9, 9])
    rules = random_rules(rng, n)
    try:
        geometry = Geometry(n, variant=Variant().with_rules(rules, n))
    except ShuduError:
        return
    _, sources = constraints.network_sources(geometry)
    records = constraints.encode_network(sources, n, geometry.house_cells, geometry.links)
    if records is None:
        return
    full = (1 << n) - 1
    domains = array("I", [full] * (n * n))
    # unchanged: the C engine agrees with the Python one on the first solutions
    puzzle = Puzzle([0] * (n * n), geometry=geometry)
    found = []
    for engine in ("c", "python"):
        search: Any = constraints._Search(puzzle, Budget(300), Stats()) if engine == "python" else None
        try:
            if search is None:
                made = constraints._c_search(puzzle)
                assert made is not None
                grids = list(_take(constraints._c_solutions(*made, Budget(300), Stats()), 2))
            else:
                grids = list(_take(search.solutions(), 2))
        except SearchTimeout:
            grids = None
        found.append(grids)
    assert found[0] == found[1], (rules, found)
    TALLY["networks"] += 1
    TALLY["compared"] += found[0] is not None
    # mutated: refused, or run to a bounded end
    for _ in range(4):
        bad = mutate(records, rng)
        dom = domains
        if rng.random() < 0.2:
            dom = array(
                "I",
                [
                    rng.choice([0, 1, full, full + 1, 2**32 - 1])
                    for _ in range(rng.choice([n * n, n * n - 1]))
                ],
            )
        call(core.constraint_propagate, n, bad, dom)
        made = call(core.ConstraintSearch, n, bad, dom)
        TALLY["mutants"] += 1
        if not isinstance(made, Exception):
            TALLY["mutants run"] += 1
            call(made.run, rng.choice([1, 2, 5]), 200, 0.05)
    call(core.constraint_propagate, rng.choice([-1, 0, 1, 3, 26, 2**31 - 1]), records, domains)
    call(core.ConstraintSearch, n, records, rng.choice([None, "x", array("I"), array("b", [1] * (n * n))]))


def _take(items: Any, count: int) -> Any:
    for i, item in enumerate(items):
        if i >= count:
            return
        yield item


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if core is None:
        raise SystemExit("the C core (with its constraint engine) is not built")
    rng = random.Random(args.seed)
    for _ in range(args.rounds):
        one_round(rng)
    tally = ", ".join(f"{value} {name}" for name, value in TALLY.items())
    print(f"fuzz_constraints: {args.rounds} rounds ({tally}): no crash, C and Python agree")


if __name__ == "__main__":
    main()
