"""Build the optional C core of shudu (its solvers' search engines and the logic engine's loops).

Everything else lives in pyproject.toml.  The extension is optional: when it cannot be
compiled, the install still succeeds and shudu runs on the pure-Python twin
(``shudu/solvers/_fast_py.py`` and the logic engine's Python code), with one warning.

``SHUDU_CFLAGS`` adds compiler flags (for example ``-march=native`` for local
measurements); shipped builds stay portable.
"""

import os
import shlex
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

if sys.platform == "win32":
    compile_args = ["/O2"]
else:
    compile_args = ["-O3", "-std=c11", "-fno-strict-aliasing", "-Wall", "-Wno-unused-function"]
compile_args += shlex.split(os.environ.get("SHUDU_CFLAGS", ""))


class OptionalBuildExt(build_ext):
    """Build the C core when possible; otherwise warn once and go on without it."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any compiler failure means "no C core"
            self._warn(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._warn(exc)

    def _warn(self, exc: Exception) -> None:
        print(
            f"WARNING: the C core of shudu could not be built ({exc}); "
            "shudu will use its pure-Python solver, which is slower.",
            file=sys.stderr,
        )


PACKAGE = "src/shudu"
SOLVERS, LOGIC = f"{PACKAGE}/solvers/core", f"{PACKAGE}/logic/core"
# _core.c is the CPython module (shudu._core_c, loaded by shudu/_backend.py), its types and
# functions in _core_*.c; the solvers' search engines live in solvers/core/, the logic engine's
# loops in logic/core/ (docs/core.md maps them).  The headers are listed so that a change to one
# rebuilds.
MODULE = ("_core", "_core_shape", "_core_search", "_core_batch", "_core_constraints")
ENGINES = ("general", "band9", "band9x", "constraints", "constraints_props", "constraints_lines")
LOOPS = (
    *("settle_tables", "settle", "singles", "patterns", "direct", "forcing"),
    *("als_sets", "als", "als_list", "fish", "chainbfs", "chainsearch", "chainlinks"),
    *("trace", "trace_result", "refine"),
)
SOURCES = [
    *(f"{PACKAGE}/{n}.c" for n in MODULE),
    *(f"{SOLVERS}/{n}.c" for n in ENGINES),
    *(f"{LOGIC}/{n}.c" for n in LOOPS),
]
SHARED = ("common", "search", "search_loop", "general", "general_rules", "band9", "band9_rules")
SHARED += ("band_tables", "vec4", "constraints")
LOOP_HEADERS = ("settle", "settle_tables", "settle_place", "direct", "forcing", "als", "als_sets")
LOOP_HEADERS += ("fish", "chainbfs", "chains", "trace", "trace_lines", "refine")
HEADERS = [
    f"{PACKAGE}/_core.h",
    *(f"{SOLVERS}/{n}.h" for n in SHARED),
    *(f"{LOGIC}/{n}.h" for n in LOOP_HEADERS),
]

setup(
    ext_modules=[
        Extension(
            "shudu._core_c",
            sources=SOURCES,
            depends=HEADERS,
            # Every file must see the same clock (CLOCK_MONOTONIC is POSIX, hidden by -std=c11).
            define_macros=[] if sys.platform == "win32" else [("_POSIX_C_SOURCE", "200809L")],
            extra_compile_args=compile_args,
            optional=True,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
