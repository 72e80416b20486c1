#!/bin/sh
# Build tdoku (https://github.com/t-dillon/tdoku) as a shared library with a batch entry
# point, for the side-by-side timing of `benchmarks/solve.py --tdoku PATH`.
#
#   tools/build_tdoku.sh TDOKU_SOURCE [OUTPUT.so]      # default output: /tmp/libtdoku_batch.so
#
# TDOKU_SOURCE is a checkout of tdoku that you fetched yourself; nothing of it enters this
# repository. It is compiled with tdoku's own flags (its CMakeLists.txt: -O3 -march=native,
# -fno-exceptions -fno-rtti), plus a ten-line C loop of ours that solves a buffer of
# fixed-width lines in one call, so that the comparison with shudu's batch API pays no
# Python call per puzzle on either side.
set -eu
SRC=${1:?usage: tools/build_tdoku.sh TDOKU_SOURCE [OUTPUT.so]}
OUT=${2:-/tmp/libtdoku_batch.so}
CXX=${CXX:-g++}
CC=${CC:-gcc}
[ -f "$SRC/src/solver_dpll_triad_simd.cc" ] || {
    echo "$SRC does not look like a tdoku checkout (no src/solver_dpll_triad_simd.cc)" >&2
    exit 2
}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tdoku-build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

cat >"$WORK/batch.c" <<'C'
#include <stddef.h>
#include <stdint.h>

size_t TdokuSolverDpllTriadSimd(const char *puzzle, size_t limit, uint32_t configuration,
                                char *solution, size_t *num_guesses);

/* Solve `count` puzzles laid out every `stride` bytes (81 characters, '.' for empty, then
 * a line end): the number of solutions found (up to `limit`) and the guesses of each. */
void
tdoku_batch(const char *lines, size_t stride, size_t count, size_t limit, char *solutions,
            uint64_t *counts, uint64_t *guesses)
{
    for (size_t i = 0; i < count; i++) {
        size_t g = 0;
        counts[i] = TdokuSolverDpllTriadSimd(lines + i * stride, limit, 0, solutions + i * 81, &g);
        guesses[i] = g;
    }
}
C
FLAGS="-O3 -march=native -fpic"
"$CXX" $FLAGS -std=c++14 -fno-exceptions -fno-rtti -c "$SRC/src/solver_dpll_triad_simd.cc" -o "$WORK/simd.o"
"$CXX" $FLAGS -std=c++14 -fno-exceptions -fno-rtti -c "$SRC/src/util.cc" -o "$WORK/util.o"
"$CC" $FLAGS -c "$WORK/batch.c" -o "$WORK/batch.o"
"$CXX" -shared -o "$OUT" "$WORK/simd.o" "$WORK/util.o" "$WORK/batch.o"
echo "built $OUT ($("$CXX" --version | head -n 1), $FLAGS)"
