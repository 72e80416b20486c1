"""The solver registry: every algorithm under one name, all with one signature.

``get("auto")`` is the fastest solver that is present; ``available()`` lists them all, in the
order tests and benchmarks loop over them.
"""

from __future__ import annotations

from ..errors import SolverError
from .base import Budget, SearchTimeout, Solver, Stats

__all__ = ["Budget", "SearchTimeout", "Solver", "Stats", "available", "get", "register"]

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


# Importing a solver module registers it.
from . import backtrack as _backtrack  # noqa: E402, F401
from . import dlx as _dlx  # noqa: E402, F401
from . import enumeration as _enumeration  # noqa: E402, F401
from . import fast as _fast  # noqa: E402, F401
from . import matching as _matching  # noqa: E402, F401
