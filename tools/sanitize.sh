#!/bin/sh
# Build the C core of solver "fast" with AddressSanitizer and UndefinedBehaviorSanitizer
# into a scratch copy of the package, then run its tests and the fuzzer against it.
#
#   tools/sanitize.sh [python] [fuzz rounds]
#
# The working tree and its installed build stay untouched. Needs gcc (or clang with
# CC=clang) and the test dependencies in the given interpreter's environment.
set -eu
PY=${1:-.venv/bin/python}
ROUNDS=${2:-3000}
case $PY in /*) ;; */*) PY="$(pwd)/$PY" ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BASE=$(mktemp -d "${TMPDIR:-/tmp}/shudu-sanitize.XXXXXX")
trap 'rm -rf "$BASE"' EXIT
SCRATCH=$BASE/shudu
CC=${CC:-gcc}
ASAN_LIB=$($CC -print-file-name=libasan.so)
UBSAN_LIB=$($CC -print-file-name=libubsan.so)
for lib in "$ASAN_LIB" "$UBSAN_LIB"; do
    # without the runtime, the compiler prints the bare name back
    [ -f "$lib" ] || { echo "no sanitizer runtime for $CC ($lib): install libasan and libubsan" >&2; exit 1; }
done

mkdir -p "$SCRATCH/src" "$SCRATCH/tests"
cp -R "$ROOT/src/shudu" "$SCRATCH/src/"
find "$SCRATCH/src" -name '*.so' -delete
cp -R "$ROOT/tests/." "$SCRATCH/tests/"
cp -R "$ROOT/tools" "$SCRATCH/"
cp "$ROOT/pyproject.toml" "$SCRATCH/"
# the tests read ../shared/data beside the repository
if [ -d "$ROOT/../shared" ]; then ln -s "$ROOT/../shared" "$BASE/shared"; fi

# build_ext from a folder with setup.py and the sources only: it needs no pyproject.toml
# (so no particular setuptools), and compiles every part of the core (_core*.c, */core/*.c)
mkdir -p "$BASE/build"
cp "$ROOT/setup.py" "$BASE/build/"
ln -s "$SCRATCH/src" "$BASE/build/src"
cd "$BASE/build"
SHUDU_CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined" \
LDSHARED="$CC -shared -fsanitize=address,undefined" CC="$CC" \
    "$PY" setup.py -q build_ext --build-lib "$SCRATCH/lib" --build-temp "$SCRATCH/tmp" 2>&1 |
    grep -v "^WARNING: the C core\|BetaConfiguration\|warnings.warn" || true
SO=$(find "$SCRATCH/lib" -name '_core_c*.so' | head -n 1)
[ -n "$SO" ] || { echo "the sanitized build failed" >&2; exit 1; }
cp "$SO" "$SCRATCH/src/shudu/"

export LD_PRELOAD="$ASAN_LIB $UBSAN_LIB"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export PYTHONPATH="$SCRATCH/src"
export PYTHONMALLOC=malloc  # let ASan see the interpreter's allocations too

cd "$SCRATCH"
"$PY" -c 'import shudu._core_c as m; print("sanitized core:", m.__file__)'
# (whole ratings, compared with and without tallies or the C propagation, and the Python loop
# finder beside the C sweep, are left to the plain run: they spend their time in Python, which
# PYTHONMALLOC=malloc under ASan slows tenfold; the C calls they make are compared with their
# Python specifications on random states by the tests kept here)
"$PY" -m pytest -q -p no:cacheprovider --capture=sys tests/test_fast.py tests/test_core_parts.py tests/test_variant_core.py tests/test_settle_core.py tests/test_forcing_core.py tests/test_fish_als_core.py tests/test_chain_core.py tests/test_trace_core.py tests/test_refine_core.py tests/test_constraint_core.py \
    -k "not tallies and not ratings_are_the_same and not loop_sweep"
"$PY" "$ROOT/tools/fuzz_core.py" --rounds "$ROUNDS"
"$PY" "$ROOT/tools/fuzz_constraints.py" --rounds "$((ROUNDS / 3))"
echo "sanitizers: no report"
