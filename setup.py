"""Build the optional C core of solver "fast".

Everything else lives in pyproject.toml.  The extension is optional: when it cannot be
compiled, the install still succeeds and shudu runs on the pure-Python twin
(``shudu/solvers/_fast_py.py``), with one warning.

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


SOLVERS = "src/shudu/solvers"
# _core.c is the CPython module; the engines and the search they share live in core/
# (docs/core.md maps them).  The headers are listed so that a change to one rebuilds.
SOURCES = [
    f"{SOLVERS}/_core.c",
    f"{SOLVERS}/core/general.c",
    f"{SOLVERS}/core/band9.c",
    f"{SOLVERS}/core/band9x.c",
    f"{SOLVERS}/core/settle.c",
    f"{SOLVERS}/core/direct.c",
    f"{SOLVERS}/core/forcing.c",
    f"{SOLVERS}/core/als.c",
    f"{SOLVERS}/core/fish.c",
    f"{SOLVERS}/core/chainbfs.c",
    f"{SOLVERS}/core/trace.c",
    f"{SOLVERS}/core/refine.c",
    f"{SOLVERS}/core/constraints.c",
    f"{SOLVERS}/core/constraints_props.c",
    f"{SOLVERS}/core/constraints_lines.c",
]
HEADERS = [
    f"{SOLVERS}/core/{name}.h"
    for name in (
        *("common", "search", "search_loop", "general", "band9", "band_tables", "vec4"),
        *("settle", "settle_tables", "direct", "forcing", "als", "fish", "chainbfs", "trace", "refine"),
        "constraints",
    )
]

setup(
    ext_modules=[
        Extension(
            "shudu.solvers._core_c",
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
