#!/bin/sh
# Build Schoku (https://github.com/Mart1nSchulz/Schoku, C++ with AVX2) with gcc, for the
# side-by-side timing of `benchmarks/solve.py --schoku PATH`.
#
#   tools/build_schoku.sh SCHOKU_SOURCE [OUTPUT]      # default output: /tmp/schoku
#
# SCHOKU_SOURCE is a checkout of Schoku that you fetched yourself; nothing of it enters this
# repository. It is compiled with the flags of its own src/Makefile (-O3 -fopenmp
# -DNDEBUG -DOPT_NEWSETS, and -mavx2 -mbmi -mbmi2 -mlzcnt, which it requires), beside a
# three-line <intrin.h> of ours that gives gcc the MSVC intrinsics it calls
# (_bittestandreset64, _bittestandreset, __popcnt16). Schoku is a program, not a library:
# the benchmark writes each set to a file, runs it with -t1 and -rO (first solution) or
# -rM (count to two), and reads the solving time that -y prints.
set -eu
SRC=${1:?usage: tools/build_schoku.sh SCHOKU_SOURCE [OUTPUT]}
OUT=${2:-/tmp/schoku}
CXX=${CXX:-g++}
[ -f "$SRC/src/schoku.cpp" ] || {
    echo "$SRC does not look like a Schoku checkout (no src/schoku.cpp)" >&2
    exit 2
}
grep -q avx2 /proc/cpuinfo 2>/dev/null || {
    echo "this CPU has no AVX2, which Schoku requires" >&2
    exit 2
}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/schoku-build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

cat >"$WORK/intrin.h" <<'C'
#include <x86intrin.h>
static inline unsigned char _bittestandreset64(long long *a, long long b) { unsigned char r = (*a >> b) & 1; *a &= ~(1LL << b); return r; }
static inline unsigned char _bittestandreset(int *a, int b) { unsigned char r = (*a >> b) & 1; *a &= ~(1 << b); return r; }
static inline unsigned short __popcnt16(unsigned short x) { return (unsigned short)__builtin_popcount(x); }
C
FLAGS="-std=gnu++17 -O3 -fopenmp -pthread -DNDEBUG -DOPT_NEWSETS -mavx2 -mbmi -mbmi2 -mlzcnt"
"$CXX" $FLAGS -w -I"$WORK" "$SRC/src/schoku.cpp" -o "$OUT"
echo "built $OUT ($("$CXX" --version | head -n 1), $FLAGS)"
