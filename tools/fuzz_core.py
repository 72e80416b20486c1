"""Throw random and malformed input at the C core of solver ``fast``.

Run by ``tools/sanitize.sh`` against a build with AddressSanitizer and
UndefinedBehaviorSanitizer; it also runs on an ordinary build::

    python tools/fuzz_core.py [--rounds N] [--seed S]

Every call must either return or raise ValueError/TypeError (or RuntimeError for a search
used from two threads at once); answers are checked against the pure-Python twin where
that is cheap.
"""

from __future__ import annotations

import argparse
import random
import threading

from shudu import _core_c as core  # type: ignore[attr-defined]
from shudu.geometry import Geometry
from shudu.notation import DIGITS
from shudu.solvers import _band9_py, _fast_py, fast

ALPHABET = "123456789.0abcdefgpqzABCDEFGPQZ \t\r\n\x00\x7f\xe9€-"
EXPECTED = (ValueError, TypeError, OverflowError)


def random_text(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(length))


def random_grid(rng: random.Random, n: int, fill: float) -> str:
    return "".join(DIGITS[rng.randint(1, n) - 1] if rng.random() < fill else "." for _ in range(n * n))


def call(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except EXPECTED as exc:
        return exc


def fuzz_shapes(rng: random.Random) -> None:
    """Malformed houses, links and givens."""
    n = rng.choice([-1, 0, 3, 4, 5, 9, 16, 25, 26, 2**31])
    nc = max(n, 1) ** 2 if 0 < n < 100 else 16
    houses = [
        [
            rng.choice([0, 1, nc - 1, nc, -1, 2**40, "x", None]) if rng.random() < 0.1 else rng.randrange(nc)
            for _ in range(max(n, 1) if n < 100 else 4)
        ]
        for _ in range(rng.randint(0, 6))
    ]
    links = rng.choice([None, [], [[]] * nc, [[rng.randrange(nc)] for _ in range(nc)], "x", [None] * nc])
    shape = call(core.Shape, n, houses, links)
    if isinstance(shape, Exception):
        return
    for _ in range(3):
        raw = bytes(rng.randint(0, 30) for _ in range(rng.choice([nc - 1, nc, nc + 1])))
        search = call(shape.search, raw)
        if not isinstance(search, Exception):
            call(search.run, rng.randint(-1, 3), rng.randint(-1, 3), rng.choice([None, 0, 1, 50, -1]), 0.01)


def fuzz_batches(rng: random.Random) -> None:
    """Random and broken puzzle lines, as lists and as one buffer, on every engine."""
    size = rng.choice([4, 6, 9, 9, 9, 16])
    # 9x9 variants: the 9x9 engine with extra houses, and the general engine (links)
    variant = rng.choice([None, None, "x", "windoku", "pyramid", "anti-knight"]) if size == 9 else None
    geometry = Geometry(size, variant=variant)
    nc = size * size
    lines = []
    for _ in range(rng.randint(0, 8)):
        kind = rng.random()
        if kind < 0.5:
            lines.append(random_grid(rng, size, rng.random() * 0.5))
        elif kind < 0.8:
            lines.append(random_text(rng, rng.choice([0, nc - 1, nc, nc + 1, 2 * nc])))
        else:
            lines.append(rng.choice([None, 5, b"." * nc, bytearray(b"1" * nc), "." * nc]))
    limit = rng.choice([1, 2, 3, 0, -1, 2**63, 2**70])
    threads = rng.choice([1, 1, 2, 3, 8, 0, 300])
    node_limit = rng.choice([None, 0, 1, 100, 2000, -5, 2**70, "x"])
    timeout = rng.choice([-1.0, 0.0, 0.005, 1.0, float("nan"), float("inf")])
    if node_limit in (None, 2**70) and not 0.0 <= timeout <= 1.0 and limit > 3:
        # no budget at all: counting the solutions of a sparse grid would take for ever
        node_limit = 20_000
    shape = core.Shape(size, geometry.house_cells, geometry.links if any(geometry.links) else None)
    call(shape.solve_many, lines, limit, threads, node_limit, timeout)
    if all(isinstance(line, str) for line in lines):
        sep = rng.choice(["\n", "\r\n", "\r", "\n\n"])
        data = (sep.join(lines) + rng.choice(["", sep])).encode("utf-8", "replace")
        call(shape.solve_many, data, limit, threads, node_limit, timeout)
        call(shape.solve_many, memoryview(data), limit, threads, node_limit, timeout)
    good = [line for line in lines if isinstance(line, str) and len(line) == nc]
    good = [line for line in good if not isinstance(call(_fast_py.parse_givens, line, size), Exception)]
    if good and size <= 9:
        c = fast.solve_many(good, limit=2, node_limit=300, geometry=geometry, engine=core)
        py = fast.solve_many(good, limit=2, node_limit=300, geometry=geometry, engine=_fast_py)
        assert c == py, good


def fuzz_propagate9(rng: random.Random) -> None:
    """The 9x9 engine's propagation against its Python statement, and malformed givens."""
    givens = _fast_py.parse_givens(random_grid(rng, 9, rng.random() * 0.4), 9)
    assert core._propagate9(givens) == _band9_py.propagate(givens), givens
    raw = bytes(rng.randint(0, 12) for _ in range(rng.choice([0, 80, 81, 82])))
    call(core._propagate9, raw)
    call(core._propagate9, rng.choice([None, "x" * 81, 81]))


def fuzz_lazy(rng: random.Random) -> None:
    """Resumed searches with small budgets, and one search shared by two threads."""
    size = rng.choice([4, 6, 9])
    geometry = Geometry(size)
    shape = core.Shape(size, geometry.house_cells)
    givens = _fast_py.parse_givens(random_grid(rng, size, rng.random() * 0.3), size)
    search = shape.search(givens)
    for _ in range(rng.randint(1, 6)):
        call(search.run, rng.randint(0, 50), rng.randint(0, 5), rng.choice([None, 10, 1000]), 0.01)
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            search.run(20, 2, None, 0.01)
        except RuntimeError:
            pass  # "running in another thread" is the expected answer
        except BaseException as exc:
            errors.append(exc)

    workers = [threading.Thread(target=worker) for _ in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for i in range(args.rounds):
        rng.choice([fuzz_shapes, fuzz_batches, fuzz_batches, fuzz_lazy, fuzz_propagate9])(rng)
        if (i + 1) % 500 == 0:
            print(f"{i + 1} rounds", flush=True)
    # a big threaded batch: hard puzzles, counting to two, four workers
    rows = [random_grid(rng, 9, 0.25) for _ in range(400)]
    shape = core.Shape(9, Geometry(9).house_cells)
    one = shape.solve_many(rows, 2, 1, 5000)
    four = shape.solve_many(rows, 2, 4, 5000)
    assert one == four
    print(f"fuzz: {args.rounds} rounds and a threaded batch, no failure")


if __name__ == "__main__":
    main()
