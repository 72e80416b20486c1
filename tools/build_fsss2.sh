#!/bin/sh
# Build fsss2 (dobrichev's solver, as packaged for tdoku's benchmark in t-dillon/fsss2_bench)
# as a shared library with a batch entry point, for the side-by-side timing of
# `benchmarks/solve.py --fsss2 PATH`.
#
#   tools/build_fsss2.sh FSSS2_SOURCE TDOKU_SOURCE [OUTPUT.so]   # default: /tmp/libfsss2_batch.so
#
# FSSS2_SOURCE is a checkout of fsss2_bench (fsss2.cpp, fsss2.h, t_128.cpp, t_128.h) and
# TDOKU_SOURCE one of tdoku, whose other/other_solvers.cc adapts fsss2 to tdoku's solver call
# (compiled with -DFSSS2, as tdoku's CMakeLists.txt does); both fetched by you, nothing of
# them enters this repository. Flags are tdoku's (-O3 -march=native), plus a ten-line C loop
# of ours that solves a buffer of fixed-width lines in one call. fsss2 answers a count to
# two (limit 2, with the solution of a unique puzzle); with limit 1 it only says whether a
# solution exists, so the benchmark times it in the count-2 mode only.
set -eu
FSSS2=${1:?usage: tools/build_fsss2.sh FSSS2_SOURCE TDOKU_SOURCE [OUTPUT.so]}
TDOKU=${2:?usage: tools/build_fsss2.sh FSSS2_SOURCE TDOKU_SOURCE [OUTPUT.so]}
OUT=${3:-/tmp/libfsss2_batch.so}
CXX=${CXX:-g++}
CC=${CC:-gcc}
[ -f "$FSSS2/fsss2.cpp" ] && [ -f "$FSSS2/t_128.cpp" ] || {
    echo "$FSSS2 does not look like an fsss2_bench checkout (no fsss2.cpp, t_128.cpp)" >&2
    exit 2
}
[ -f "$TDOKU/other/other_solvers.cc" ] || {
    echo "$TDOKU does not look like a tdoku checkout (no other/other_solvers.cc)" >&2
    exit 2
}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fsss2-build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/other/module_fsss2"
cp "$FSSS2"/fsss2.cpp "$FSSS2"/fsss2.h "$FSSS2"/t_128.cpp "$FSSS2"/t_128.h "$WORK/other/module_fsss2/"
cp "$TDOKU/other/other_solvers.cc" "$WORK/other/"

cat >"$WORK/batch.c" <<'C'
#include <stddef.h>
#include <stdint.h>

size_t OtherSolverFsss2(const char *puzzle, size_t limit, uint32_t configuration,
                        char *solution, size_t *num_guesses);

/* Solve `count` puzzles laid out every `stride` bytes (81 characters, '.' for empty, then
 * a line end): the number of solutions found (up to `limit`) and the guesses of each.
 * `configuration` 1 turns on fsss2's locked candidates (tdoku's "fsss2_locked"). */
void
fsss2_batch(const char *lines, size_t stride, size_t count, size_t limit, uint32_t configuration,
            char *solutions, uint64_t *counts, uint64_t *guesses)
{
    for (size_t i = 0; i < count; i++) {
        size_t g = 0;
        counts[i] = OtherSolverFsss2(lines + i * stride, limit, configuration, solutions + i * 81, &g);
        guesses[i] = g;
    }
}
C
FLAGS="-O3 -march=native -fpic"
for f in other/other_solvers.cc other/module_fsss2/fsss2.cpp other/module_fsss2/t_128.cpp; do
    "$CXX" $FLAGS -std=c++14 -DFSSS2 -w -c "$WORK/$f" -o "$WORK/$(basename "$f").o"
done
"$CC" $FLAGS -c "$WORK/batch.c" -o "$WORK/batch.o"
"$CXX" -shared -o "$OUT" "$WORK"/*.o
echo "built $OUT ($("$CXX" --version | head -n 1), $FLAGS -DFSSS2)"
