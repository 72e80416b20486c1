"""Coverage-guided fuzzing of the C core of solver ``fast`` with atheris (libFuzzer).

Each input drives one entry point of ``shudu._core_c``, chosen by its first byte:

- ``Shape(n, houses, links, general)`` with fuzzed sizes, cell indices and links;
- ``Shape.search(givens)`` and ``Search.run`` on the 9x9 grid, both engines, resumed under
  small node limits: the 9x9 engine and the general engine must agree on every solution
  and counter (two independent algorithms with one promise, docs/core.md);
- ``Shape.solve_many`` with a hostile bytes buffer or list (any bytes, line ends, lengths),
  odd limits, thread counts, node limits and timeouts; valid 9x9 batches are answered
  alike by both engines and on one and several threads.

Any other exception than the documented ValueError/TypeError/OverflowError, a wrong or
differing answer, a crash or a sanitizer report is a finding. Run it through
``tools/fuzz_atheris.sh`` (which builds the core with AddressSanitizer and UBSan), or on
an ordinary build::

    python tools/fuzz_atheris.py -atheris_runs=1000000 [corpus dir]
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from typing import Any

import atheris

core: Any = None  # shudu._core_c, imported once atheris has loaded libFuzzer

EXPECTED = (ValueError, TypeError, OverflowError)
STANDARD = [
    *[[9 * r + c for c in range(9)] for r in range(9)],
    *[[9 * r + c for r in range(9)] for c in range(9)],
    *[[9 * (3 * (b // 3) + r) + 3 * (b % 3) + c for r in range(3) for c in range(3)] for b in range(9)],
]
FAST9: Any = None
GENERAL9: Any = None


def load_core() -> None:
    """Import the core after atheris.Setup (an atheris built with its own libFuzzer in
    global scope then lets a core built with -fsanitize=fuzzer-no-link report coverage)."""
    global core, FAST9, GENERAL9
    core = importlib.import_module("shudu._core_c")
    FAST9 = core.Shape(9, STANDARD)
    GENERAL9 = core.Shape(9, STANDARD, None, True)
    assert FAST9.std9 and not GENERAL9.std9


def givens81(fdp: atheris.FuzzedDataProvider) -> bytes:
    """81 givens, mostly empty, digit values 0..9 (sometimes out of range)."""
    raw = fdp.ConsumeBytes(81).ljust(81, b"\0")
    wild = fdp.ConsumeBool()
    return bytes(b % 11 if wild else (b % 10 if b % 3 == 0 else 0) for b in raw)


def fuzz_shape(fdp: atheris.FuzzedDataProvider) -> None:
    n = fdp.PickValueInList([-1, 0, 3, 4, 5, 6, 9, 16, 25, 26, 1 << 31, fdp.ConsumeIntInRange(-5, 40)])
    nc = n * n if 0 < n <= 25 else 16
    houses: list[object] = []
    for _ in range(fdp.ConsumeIntInRange(0, 8)):
        length = n if fdp.ConsumeProbability() < 0.8 and 0 < n <= 25 else fdp.ConsumeIntInRange(0, 30)
        houses.append([fdp.ConsumeIntInRange(-2, nc + 1) for _ in range(length)])
    if fdp.ConsumeBool() and houses:
        houses[fdp.ConsumeIntInRange(0, len(houses) - 1)] = fdp.PickValueInList(
            ["ab", None, [None], 3, [1 << 70]]
        )
    links: object = None
    if fdp.ConsumeBool():
        links = [
            [fdp.ConsumeIntInRange(-1, nc) for _ in range(fdp.ConsumeIntInRange(0, 3))] for _ in range(nc)
        ]
        if fdp.ConsumeBool():
            links = fdp.PickValueInList(["x", [None] * nc, [[]] * (nc + 1), links[:-1]])
    try:
        shape = core.Shape(n, houses, links, fdp.ConsumeBool())
    except EXPECTED:
        return
    for _ in range(2):
        raw = fdp.ConsumeBytes(nc + fdp.ConsumeIntInRange(-1, 1))
        try:
            search = shape.search(raw)
            search.run(2, 2, fdp.ConsumeIntInRange(1, 50), -1.0)
        except EXPECTED:
            pass
        text = [fdp.ConsumeUnicode(nc) for _ in range(fdp.ConsumeIntInRange(0, 3))]
        with contextlib.suppress(EXPECTED):
            shape.solve_many(text, fdp.ConsumeIntInRange(1, 3), fdp.ConsumeIntInRange(1, 3), 50)


def run_resumed(shape: object, givens: bytes, limits: list[int]) -> None:
    """A search resumed under growing node limits: its counters never go back."""
    search = shape.search(givens)  # type: ignore[attr-defined]
    before = (0, 0, 0)
    for node_limit in sorted(limits):
        _, found, code = search.run(3, 1, node_limit, -1.0)
        now = (search.nodes, search.guesses, search.settled)
        assert all(a <= b for a, b in zip(before, now, strict=True)), (givens, before, now)
        assert code in (0, 1, 2) and 0 <= found <= 3
        before = now


def is_solution(givens: bytes, grid: bytes) -> bool:
    units = [bytes(grid[c] for c in house) for house in STANDARD]
    return all(sorted(u) == list(range(1, 10)) for u in units) and all(
        g in (0, s) for g, s in zip(givens, grid, strict=True)
    )


def fuzz_search(fdp: atheris.FuzzedDataProvider) -> None:
    givens = givens81(fdp)
    limits = [fdp.ConsumeIntInRange(1, 200) for _ in range(fdp.ConsumeIntInRange(1, 4))]
    try:
        run_resumed(FAST9, givens, limits)
    except EXPECTED as exc:
        try:
            GENERAL9.search(givens)
        except EXPECTED as other:
            assert str(exc) == str(other), (exc, other)
            return
        raise AssertionError(f"only the 9x9 engine refused {givens!r}: {exc}") from None
    run_resumed(GENERAL9, givens, limits)
    # both engines, up to three solutions: the same ones, whatever the order
    answers = []
    for shape in (FAST9, GENERAL9):
        solutions, found, code = shape.search(givens).run(3, 3, 20000, -1.0)
        assert all(is_solution(givens, grid) for grid in solutions), givens
        answers.append((found, code, sorted(solutions)))
    (found, code, mine), (found2, code2, theirs) = answers
    if code != 2 and code2 != 2:  # neither ran out of nodes
        assert found == found2 and code == code2, (givens, answers)
        if code == 1:  # exhausted: every solution, so the same set
            assert mine == theirs, givens


def hostile_buffer(fdp: atheris.FuzzedDataProvider) -> bytes:
    if fdp.ConsumeBool():
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 600))
    ends = [b"\n", b"\r\n", b"\r", b"", b"\n\n"]
    lines = []
    for _ in range(fdp.ConsumeIntInRange(0, 6)):
        line = bytes(b"123456789.0"[b % 11] for b in givens81(fdp))
        cut = fdp.ConsumeIntInRange(-2, 2)
        line = line[: 81 + cut] if cut < 0 else line + b"9" * cut
        lines.append(line + fdp.PickValueInList(ends))
    return b"".join(lines)


def fuzz_batch(fdp: atheris.FuzzedDataProvider) -> None:
    data = hostile_buffer(fdp)
    puzzles: object = data
    if fdp.ConsumeBool():
        puzzles = [line.decode("latin-1") if fdp.ConsumeBool() else line for line in data.split(b"\n")]
    limit = fdp.PickValueInList([1, 2, 3, 0, -1, 1 << 64, fdp.ConsumeIntInRange(1, 5), "2"])
    threads = fdp.PickValueInList([1, 2, 4, 0, 257, -3, fdp.ConsumeIntInRange(1, 8), 1.5])
    node_limit = fdp.PickValueInList([None, 1, 5, 1000, 0, -1, 1 << 70, fdp.ConsumeIntInRange(1, 100)])
    timeout = fdp.PickValueInList([-1.0, 0.0, 10.0, 1e300])
    shape = FAST9 if fdp.ConsumeBool() else GENERAL9
    try:
        got = shape.solve_many(puzzles, limit, threads, node_limit, timeout)
    except EXPECTED:
        return
    if not 0 <= timeout <= 1:  # no deadline can cut a run short: answers are deterministic
        assert got == shape.solve_many(puzzles, limit, 1, node_limit, timeout), puzzles
        if node_limit is None:  # and the other engine finds the same
            other = GENERAL9 if shape is FAST9 else FAST9
            again = other.solve_many(puzzles, limit, 1, node_limit, timeout)
            assert got[0] == again[0] and got[2] == again[2], puzzles  # statuses, counts
            for i, status in enumerate(got[0]):
                if status == core.BATCH_UNIQUE:
                    assert got[1][81 * i : 81 * i + 81] == again[1][81 * i : 81 * i + 81], puzzles


TARGETS = [fuzz_shape, fuzz_search, fuzz_batch]


def test_one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    TARGETS[fdp.ConsumeIntInRange(0, len(TARGETS) - 1)](fdp)


def main() -> None:
    atheris.instrument_all()  # coverage of this file's checks too, not only the C core's
    atheris.Setup(sys.argv, test_one)
    load_core()
    atheris.Fuzz()


if __name__ == "__main__":
    main()
