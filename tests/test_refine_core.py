"""The C core's rounds of colour refinement (``refine``) against their Python specification,
``invariant.refinements_py``: the same fingerprint after every round, on random candidate
states of real puzzles, standard and variant, with placed digits told apart from givens."""

from __future__ import annotations

import random
import zlib

import pytest

from logic_states import PUZZLES, hard_states, known_states
from shudu.geometry import Geometry
from shudu.logic.engine import invariant, propagate
from shudu.logic.engine.grid import CandidateGrid

from conftest import needs_c


def _same_prints(grid: CandidateGrid, rng: random.Random) -> None:
    placed = ((1 << grid.geometry.ncells) - 1) & ~grid.empty
    grid.givens = placed & rng.getrandbits(grid.geometry.ncells)  # some placed digits are not givens
    want = list(invariant.refinements_py(grid))
    assert len(want) == invariant.ROUNDS
    assert list(invariant.refinements(grid)) == want


@needs_c
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_refinements_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    rng = random.Random(zlib.crc32(ident.encode()))
    for grid in known_states(ident, geometry, givens, solution, 5, 4, settled=True):
        _same_prints(grid, rng)


@needs_c
def test_c_and_python_refinements_agree_on_hard_puzzles_and_variants() -> None:
    rng = random.Random(17)
    states = list(hard_states(10, 110, 3, 17, 19, 4))
    if not states:
        pytest.skip("../shared/data is absent: no hardest or variant puzzles to draw states from")
    for grid in states:
        _same_prints(grid, rng)
    assert len(states) >= 40


@needs_c
def test_refine_rejects_colours_that_do_not_fit_the_grid() -> None:
    grid = CandidateGrid.from_values(Geometry(9), [0] * 81)
    tables = propagate._c_tables(grid.geometry)
    core = propagate.c_core()
    assert core is not None and tables is not None
    state = (grid.cands, grid.where, grid.placed, grid.values, grid.empty)
    with pytest.raises(ValueError, match="the digits' colours must be a list or tuple of 9 ints"):
        core.refine(tables, *state, [0] * 81, [0] * 8, [0] * 27)
    with pytest.raises(OverflowError):
        core.refine(tables, *state, [0] * 80 + [1 << 70], [0] * 9, [0] * 27)


@needs_c
def test_an_interpreter_that_hashes_otherwise_keeps_to_the_python_rounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the C core raises NotImplementedError where its hashes are not the interpreter's own
    class Otherwise:
        def refine(self, *args: object) -> None:
            raise NotImplementedError("refine: this interpreter hashes tuples of ints otherwise")

    monkeypatch.setattr(invariant, "c_core", Otherwise)
    monkeypatch.setattr(invariant, "_use_c", True)
    rng = random.Random(3)
    [(ident, geometry, givens, solution), *_] = [p for p in PUZZLES if p[1].size == 9]
    [grid] = known_states(ident, geometry, givens, solution, 9, 1, settled=False)
    assert list(invariant.refinements(grid)) == list(invariant.refinements_py(grid))
    assert invariant._use_c is False
    _same_prints(grid, rng)
