"""The solver registry: every algorithm under one name, all with one signature.

``get("auto")`` is the fastest solver that is present; ``available()`` lists them all, in the
order tests and benchmarks loop over them.
"""

from __future__ import annotations

from ..errors import SolverError
from ..geometry import Geometry
from .base import Budget, SearchTimeout, Solver, Stats

__all__ = ["Budget", "SearchTimeout", "Solver", "Stats", "available", "for_geometry", "get", "register"]

_REGISTRY: dict[str, Solver] = {}
#: Preference order for "auto": the first registered name wins.
_AUTO_ORDER = ("fast", "dlx", "backtrack")


def register(solver: Solver) -> Solver:
    """Add a solver under its name (a later one with the same name replaces it)."""
    _REGISTRY[solver.name] = solver
    return solver


def available() -> dict[str, Solver]:
    """Every registered solver by name."""
    return dict(_REGISTRY)


def get(name: str = "auto") -> Solver:
    """The solver called ``name``; ``auto`` picks the fastest one present."""
    if name == "auto":
        for candidate in _AUTO_ORDER:
            if candidate in _REGISTRY:
                return _REGISTRY[candidate]
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(["auto", *_REGISTRY])
        raise SolverError(f"unknown algorithm {name!r}; known algorithms: {known}") from None


def for_geometry(name: str, geometry: Geometry) -> Solver:
    """The solver ``name`` for puzzles of ``geometry``: ``auto`` is the constraint engine when the
    puzzle has constraint rules; a SolverError says why a named solver cannot take them."""
    if name == "auto" and geometry.variant.rules:
        name = "constraints"
    solver = get(name)
    reason = solver.unsupported(geometry)
    if reason:
        raise SolverError(f"algorithm {solver.name!r} cannot solve this puzzle: {reason}")
    return solver


# Importing a solver module registers it.
from . import backtrack as _backtrack  # noqa: E402, F401
from . import constraints as _constraints  # noqa: E402, F401
from . import dlx as _dlx  # noqa: E402, F401
from . import enumeration as _enumeration  # noqa: E402, F401
from . import fast as _fast  # noqa: E402, F401
from . import matching as _matching  # noqa: E402, F401
