"""Which core runs: the compiled C core, or the pure-Python code that is its specification.

This module is the one switch. It reads ``SHUDU_IMPLEMENTATION`` once, when first imported:

- ``c``: the C core (``shudu._core_c``, built from ``_core.c``, ``solvers/core/`` and
  ``logic/core/``; docs/core.md maps them). ImportError when it is not built.
- ``python``: the pure-Python code everywhere: the solvers' twin (``solvers._fast_py``), the
  constraint engine's propagators, and the logic engine's loops (settle, the rounds of singles,
  the finders' searches, the fingerprint's rounds).
- unset (or ``auto``): the C core when it is built, else Python; the first search on Python
  then warns once that the C extension is missing (:mod:`shudu.solvers.fast` does).

Every layer that has a C twin asks here, the solvers and the logic engine alike: :data:`CORE`
is the loaded C module, or None when Python runs. :data:`IMPLEMENTATION` says which, and
:func:`description` says why in words (``shudu --version`` prints it).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Literal

__all__ = ["CORE", "FALLBACK", "IMPLEMENTATION", "description"]

#: The environment variable that forces a core.
VARIABLE = "SHUDU_IMPLEMENTATION"

#: Entry points every part of the C core registers: a build older than its sources (compiled
#: before one of them existed) is taken as not built.
_ENTRY_POINTS = ("Shape", "ConstraintSearch", "settle", "singles", "refine")


def _choose() -> tuple[ModuleType | None, bool]:
    """The C module (None: Python runs), and whether Python stands in for a C core that is
    not built although nobody asked for Python."""
    wanted = os.environ.get(VARIABLE, "").strip().lower()
    if wanted not in ("", "auto", "c", "python"):
        raise ImportError(f"{VARIABLE} must be 'c' or 'python', not {wanted!r}")
    if wanted == "python":
        return None, False
    # By name: the extension imports nothing of shudu, and import-linter would read
    # ``from . import _core_c`` as an import of the whole package (its root module).
    try:
        core: ModuleType | None = importlib.import_module(f"{__package__}._core_c")
    except ImportError:
        core = None
    if core is None or not all(hasattr(core, name) for name in _ENTRY_POINTS):
        if wanted == "c":
            raise ImportError(
                f"{VARIABLE}=c, but the C core of shudu is not built (or is older than its "
                "sources); reinstall with a C compiler present"
            ) from None
        return None, True
    return core, False


#: The C core, or None when the pure-Python code runs; whether Python runs only because the C
#: core is not built (nobody asked for it: the first search warns).
CORE, FALLBACK = _choose()
#: Which core runs: ``"c"`` or ``"python"``.
IMPLEMENTATION: Literal["c", "python"] = "python" if CORE is None else "c"


def description() -> str:
    """Which core runs, in words: ``C core``, or the pure-Python core and why."""
    if CORE is not None:
        return "C core"
    if FALLBACK:
        return "pure-Python core: the C extension is not built"
    return f"pure-Python core: forced by {VARIABLE}=python"
