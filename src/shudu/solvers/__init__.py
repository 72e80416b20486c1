"""The solver registry: every algorithm under one name, all with one signature.

``get("auto")`` is the fastest solver that is present; ``available()`` lists them all, in the
order tests and benchmarks loop over them. The registry is a static table (:data:`TABLE`): a
solver's module is imported when the solver is first asked for, so ``import shudu`` loads none.
"""

from __future__ import annotations

import importlib
import threading

from ..errors import SolverError
from ..geometry import Geometry
from .base import Budget, SearchTimeout, Solver, Stats

__all__ = [
    "TABLE",
    "Budget",
    "SearchTimeout",
    "Solver",
    "Stats",
    "available",
    "for_geometry",
    "get",
    "register",
]

#: Every solver of shudu, by name: the module of this package that holds it and its class, in the
#: order tests and benchmarks loop over them. A static table: a solver's module is imported the
#: first time the solver is asked for, and no module registers itself when imported.
TABLE: dict[str, tuple[str, str]] = {
    "backtrack": ("backtrack", "Backtrack"),
    "constraints": ("constraints", "ConstraintSolver"),
    "dlx": ("dlx", "Dlx"),
    "enumerate": ("enumeration", "Enumerate"),
    "fast": ("fast", "Fast"),
    "matching": ("matching", "Matching"),
}
#: Preference order for "auto": the first one present wins.
_AUTO_ORDER = ("fast", "dlx", "backtrack")
#: The solvers made so far, and those added with :func:`register`, by name.
_SOLVERS: dict[str, Solver] = {}
_LOCK = threading.Lock()


def register(solver: Solver) -> Solver:
    """Add a solver of your own under its name (it replaces one of :data:`TABLE` with that name)."""
    _SOLVERS[solver.name] = solver
    return solver


def _solver(name: str) -> Solver | None:
    """The solver called ``name`` (its module imported on first use), or None."""
    solver = _SOLVERS.get(name)
    if solver is None and name in TABLE:
        module, cls = TABLE[name]
        made = getattr(importlib.import_module(f"{__name__}.{module}"), cls)()
        with _LOCK:
            solver = _SOLVERS.setdefault(name, made)
    return solver


def available() -> dict[str, Solver]:
    """Every solver by name: :data:`TABLE`'s, then those added with :func:`register`."""
    found = {name: _solver(name) for name in dict.fromkeys([*TABLE, *_SOLVERS])}
    return {name: solver for name, solver in found.items() if solver is not None}


def get(name: str = "auto") -> Solver:
    """The solver called ``name``; ``auto`` picks the fastest one present."""
    if name == "auto":
        for candidate in _AUTO_ORDER:
            solver = _solver(candidate)
            if solver is not None:
                return solver
    solver = _solver(name) if isinstance(name, str) else None
    if solver is None:
        known = ", ".join(["auto", *dict.fromkeys([*TABLE, *_SOLVERS])])
        raise SolverError(f"unknown algorithm {name!r}; known algorithms: {known}")
    return solver


def for_geometry(name: str, geometry: Geometry) -> Solver:
    """The solver ``name`` for puzzles of ``geometry``: ``auto`` is the constraint engine when the
    puzzle has constraint rules or its grid is not square; a SolverError says why a named solver
    cannot take them."""
    if name == "auto" and (geometry.variant.rules or geometry.is_rect):
        name = "constraints"
    solver = get(name)
    reason = solver.unsupported(geometry)
    if reason:
        raise SolverError(f"algorithm {solver.name!r} cannot solve this puzzle: {reason}")
    return solver
