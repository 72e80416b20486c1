"""Throw typed but hostile arguments at the public API and count what comes out.

The property (docs/errors.md, "Types and limits"): every call returns, or raises a
``shudu.errors.ShuduError`` (a bad value) or a ``TypeError`` (an argument of the wrong Python
type); nothing else. Every call is bounded: a small ``timeout`` and ``node_limit`` go with every
call that takes one, and the slowest call is reported. tests/test_api_hostile.py holds the same
property as a Hypothesis test of a few hundred examples; this runs it for as long as asked::

    python tools/fuzz_api.py [--calls N] [--seed S] [--seconds T]

It prints the count of each outcome (``ok``, or the exception's type) per API function, and
exits 1 if any call raised something else (each such call is printed, with its arguments, as
it happens).
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

import shudu
from shudu.errors import ShuduError
from shudu.formats import read_document

#: The exceptions the contract allows.
ALLOWED = (ShuduError, TypeError)

P4 = "1...............", "12..34..........", "1234341221434321", "11.............."
P9 = (
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "." * 81,
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
)
P6 = ("1" + "." * 35, "." * 36)
ODD_TEXT = (
    "",
    " ",
    "\ufeff" + P4[0],
    "\x00" * 16,
    "é" * 16,
    "１" * 16,
    "1" * 15,
    "." * 17,
    "." * 676,
    "." * 100,
    "1 2 | 3 4\n. . | . .\n-----\n. . | . .\n. . | . .",
    "#\n#",
    "{",
    "}",
    "{}",
    "[]",
    "null",
    '{"givens": null}',
    ":0000::" + "." * 81 + ":::",
    "https://www.f-puzzles.com/?load=N4Ig",
    "x" * 16,
    "\n" * 5,
    "\r\n" + P4[0],
)


def deep_json(rng: random.Random) -> str:
    depth = rng.choice([63, 64, 65, 100, 5000, 100_000])
    opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
    field = rng.choice(["givens", "regions", "layout", "box", "variant", "x", "size"])
    return f'{{"{field}": ' + opener * depth + closer * depth + "}"


def huge_number(rng: random.Random) -> str:
    digits = rng.choice([99, 100, 101, 4300, 5000, 50_000])
    number = ("-" if rng.random() < 0.2 else "") + "9" * digits
    if rng.random() < 0.3:
        number += rng.choice([".5", "e999", "e-999", "E+5"])
    field = rng.choice(["size", "box", "givens", "regions", "layout", "seed"])
    value = {"box": f"[{number}, 3]", "regions": f"[[{number}]]"}.get(field, number)
    return f'{{"givens": "{rng.choice(P4)}", "{field}": {value}}}'


def json_puzzle(rng: random.Random) -> str:
    fields = {"givens": rng.choice(P4 + P9)}
    for key, values in (
        ("size", [4, 9, 0, -1, 26, True, 9.0, "9", None, 10**40]),
        ("box", [[2, 2], [3, 3], "2x2", "3x3", [0, 0], [-2, -2], [2], [2, 2, 2], 3, 3.5, "x", [True, 2]]),
        ("variant", ["", " ", "+", "x", "x+", "windoku", "nope", 42, None, ["x"], "jigsaw", "x+anti-king"]),
        ("regions", [[[0, 1, 2, 3]], [[0, 5, 10, 15]], [["r1c1"]], 5, [[None]], [[10**30]], [[]], "x"]),
        ("layout", ["1122112233443344", "1" * 16, 5, [0] * 16, [], "x"]),
        ("entries", ["1" * 16, None]),
        ("nope", [1]),
    ):
        if rng.random() < 0.3:
            fields[key] = rng.choice(values)
    return json.dumps(fields)


def too_long(rng: random.Random) -> str:
    return rng.choice(["1", "{", " ", "#"]) * (1_000_001 + rng.randrange(3))


def puzzle_text(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.25:
        return rng.choice(P4 + P6 + P9)
    if roll < 0.4:
        return rng.choice(ODD_TEXT)
    if roll < 0.5:
        return deep_json(rng)
    if roll < 0.6:
        return huge_number(rng)
    if roll < 0.8:
        return json_puzzle(rng)
    if roll < 0.81:
        return too_long(rng)
    if roll < 0.9:
        return "".join(
            rng.choice('123456789.0ABP#{}[]",:x \n\t|+-\ufeff\x00é') for _ in range(rng.randrange(40))
        )
    return rng.choice([None, 123, 1.5, b"1...............", ["1"], shudu.Puzzle([0] * 16)])


def box(rng: random.Random) -> Any:
    if rng.random() < 0.6:
        return None
    return rng.choice(
        [None, None, (2, 2), [2, 2], "2x2", "3x3", [3, 3], (3, 3), "2x3", "3X2", "2×2", "２x２", "²x2",
         3.5, 3, True, (0, 0), (-1, -4), [True, 2], ["2", "2"], [2, 2, 2], [], {}, b"2x2", "9" * 5000 + "x1",
         (10**5000, 1), "x", "", " 2 x 2 "]
    )  # fmt: skip


def variant(rng: random.Random) -> Any:
    if rng.random() < 0.6:
        return None
    return rng.choice(
        ["", " ", "+", "x+", "++", "x", "X", "x+anti-king", "windoku", "pyramid", "jigsaw", "custom", "nope",
         42, 4.5, b"x", [], ("x",), {}, {"variant": ""}, {"variant": 42}, {"regions": [[0, 5, 10, 15]]},
         {"layout": "1122112233443344"}, {"regions": 5}, shudu.variants.get("x", 4)]
    )  # fmt: skip


def size(rng: random.Random) -> Any:
    return rng.choice([None, 4, 4, 6, 9, -1, 0, 1, 3, 5, 7, 25, 26, 10**100, True, 9.0, "9", -(10**30)])


def seconds(rng: random.Random) -> Any:
    """A timeout: small, or one of the values refused before any work."""
    if rng.random() < 0.85:
        return rng.choice([0.001, 0.005, 0.02, 0.05])
    return rng.choice([0, -1, float("nan"), float("inf"), "x", "0.1", True, 10**100, 1e10])


def nodes(rng: random.Random) -> Any:
    if rng.random() < 0.85:
        return rng.choice([1, 10, 100, 2000])
    return rng.choice([0, -1, True, "5", 2**63, 10**100, 1.5])


def algorithm(rng: random.Random) -> Any:
    return rng.choice(["auto", "auto", "fast", "dlx", "backtrack", "matching", "enumerate", "nope", "", 42])


def batch_item(rng: random.Random) -> Any:
    item = puzzle_text(rng)
    if rng.random() < 0.3 and isinstance(item, str) and len(item) < 1000:
        return item.encode("utf-8", "surrogatepass")
    return rng.choice([item, item, b"\xff" * 16, "\ufeff" + P4[0]])


def lines(rng: random.Random) -> list[Any]:
    return [batch_item(rng) for _ in range(rng.randrange(1, 6))]


Call = tuple[str, Callable[[], object]]


def a_call(rng: random.Random) -> Call:
    """One API call with hostile arguments, always bounded by a small timeout and node limit."""
    text = puzzle_text(rng)
    budget = {"timeout": seconds(rng), "node_limit": nodes(rng)}
    shape = {"box": box(rng), "variant": variant(rng)}
    name = rng.choice(
        ["solve", "count", "parse_puzzle", "parse_grid", "read_puzzles", "rate", "explain", "hint",
         "generate", "solve_many", "read_document"]
    )  # fmt: skip
    if name == "solve":
        return name, lambda: shudu.solve(text, algorithm=algorithm(rng), **budget, **shape)
    if name == "count":
        limit = rng.choice([1, 2, 1000, None] * 6 + [0, -1, "2", 2.0, 2**63])
        return name, lambda: shudu.count(text, limit, algorithm=algorithm(rng), **budget, **shape)
    if name == "parse_puzzle":
        return name, lambda: shudu.parse_puzzle(text, **shape)
    if name == "parse_grid":
        return name, lambda: shudu.parse_grid(text, **shape)
    if name == "read_puzzles":
        items: Any = lines(rng) if rng.random() < 0.9 else rng.choice([text, 5, None, b"1"])
        return name, lambda: list(shudu.read_puzzles(items, **shape))
    if name == "rate":
        flags = {"steps": rng.random() < 0.5, "allow_multiple": rng.random() < 0.5}
        return name, lambda: shudu.rate(text, **flags, **budget, **shape)
    if name == "explain":
        return name, lambda: shudu.explain(text, allow_multiple=rng.random() < 0.5, **budget)
    if name == "hint":
        level = rng.choice(["step", "cell", "technique", "digit", "", "x", 42])
        return name, lambda: shudu.hint(text, level, **budget)  # type: ignore[arg-type]
    if name == "generate":
        options = {"level": rng.choice([None, None, "easy", "hard", "x", 42]), "seed": rng.randrange(1000)}
        return name, lambda: shudu.generate(size(rng), timeout=seconds(rng), **options, **shape)
    if name == "solve_many":
        batch: Any = lines(rng)
        if rng.random() < 0.3:
            batch = b"\n".join(i if isinstance(i, bytes) else str(i).encode() for i in batch)
        limit = rng.choice([1, 2] * 6 + [0, "1"])
        return name, lambda: shudu.solve_many(batch, limit, timeout=seconds(rng), node_limit=nodes(rng))
    return name, lambda: read_document(text, rng.choice([None, None, "json", "fpuzzles", "ipuz", "pm", "x"]))


def outcome(call: Callable[[], object]) -> str:
    """``ok``, the name of an allowed exception, or ``!`` and the name of one that is not."""
    try:
        call()
    except ALLOWED as exc:
        return type(exc).__name__
    except Exception as exc:  # the point: anything else is counted
        return "!" + type(exc).__name__
    return "ok"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10**6, help="how many calls (default: 10**6)")
    parser.add_argument("--seed", type=int, default=0, help="the random seed (default: 0)")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    started = time.monotonic()
    slowest = (0.0, "")
    done = 0
    for done in range(1, args.calls + 1):
        state = rng.getstate()
        name, call = a_call(rng)
        before = time.monotonic()
        result = outcome(call)
        took = time.monotonic() - before
        slowest = max(slowest, (took, name))
        counts[name][result] += 1
        if result.startswith("!"):
            rng_again = random.Random()
            rng_again.setstate(state)
            print(f"call {done} ({name}) raised {result[1:]}; replay with this state:", file=sys.stderr)
            traceback.print_exception(*_replay(rng_again), limit=-4)
        if args.seconds is not None and time.monotonic() - started > args.seconds:
            break
    elapsed = time.monotonic() - started
    bad = sum(n for c in counts.values() for r, n in c.items() if r.startswith("!"))
    print(
        f"{done} calls in {elapsed:.0f} s (seed {args.seed}); slowest call {slowest[0]:.2f} s ({slowest[1]})"
    )
    for name in sorted(counts):
        shown = ", ".join(f"{r} {n}" for r, n in counts[name].most_common())
        print(f"  {name:13} {sum(counts[name].values()):8}: {shown}")
    print(f"outside ShuduError/TypeError: {bad}")
    return 1 if bad else 0


def _replay(rng: random.Random) -> tuple[type[BaseException], BaseException, Any]:
    """The exception a call raises again, from the random state it was drawn with."""
    _, call = a_call(rng)
    try:
        call()
    except Exception as exc:
        return type(exc), exc, exc.__traceback__
    raise AssertionError("the call did not fail again")


if __name__ == "__main__":
    sys.exit(main())
