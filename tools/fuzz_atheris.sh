#!/bin/sh
# Build the C core of solver "fast" with libFuzzer coverage, AddressSanitizer and
# UndefinedBehaviorSanitizer (clang) into a scratch copy, then fuzz it with atheris:
#
#   tools/fuzz_atheris.sh PYTHON [RUNS] [-- libFuzzer options]
#
# PYTHON is an interpreter with atheris installed (pip install atheris; any virtual
# environment: shudu itself is taken from the scratch copy). RUNS defaults to 1000000.
# The working tree and its build stay as they are; the corpus is kept in
# ${FUZZ_CORPUS:-/tmp/shudu-fuzz-corpus} so that a later run goes on from it.
set -eu
PY=${1:?usage: tools/fuzz_atheris.sh PYTHON [RUNS] [-- libFuzzer options]}
shift
RUNS=${1:-1000000}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
case $PY in /*) ;; */*) PY="$(pwd)/$PY" ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BASE=$(mktemp -d "${TMPDIR:-/tmp}/shudu-atheris.XXXXXX")
trap 'rm -rf "$BASE"' EXIT
CORPUS=${FUZZ_CORPUS:-/tmp/shudu-fuzz-corpus}
mkdir -p "$CORPUS" "$BASE/src" "$BASE/build"
cp -R "$ROOT/src/shudu" "$BASE/src/"
find "$BASE/src" -name '*.so' -delete
cp "$ROOT/setup.py" "$BASE/build/"
ln -s "$BASE/src" "$BASE/build/src"
# build NAME FLAGS: the core compiled with FLAGS into $BASE/NAME/shudu/
build() {
    mkdir -p "$BASE/$1"
    cp -R "$BASE/src/shudu" "$BASE/$1/"
    (cd "$BASE/build" && SHUDU_CFLAGS="-O1 -g -fno-omit-frame-pointer $2" LDSHARED="clang -shared $2" CC=clang \
        "$PY" setup.py -q build_ext --build-lib "$BASE/lib-$1" --build-temp "$BASE/tmp-$1" 2>&1 |
        grep -v "BetaConfiguration\|warnings.warn" || true)
    so=$(find "$BASE/lib-$1" -name '_core_c*.so' | head -n 1)
    [ -n "$so" ] || { echo "the $1 build failed" >&2; exit 1; }
    cp "$so" "$BASE/$1/shudu/"
}
# The pip wheel of atheris links its libFuzzer privately, so a core compiled with
# -fsanitize=fuzzer-no-link cannot report to it, and a preloaded ASan runtime takes the
# coverage hooks away from it (an atheris built from source, with asan_with_fuzzer.so, has
# neither problem). So, two passes:
# 1. coverage-guided by the branches of tools/fuzz_atheris.py (they follow the core's
#    answers), on a core with undefined behaviour trapped (no sanitizer runtime needed);
build cov "-fsanitize=undefined -fsanitize-trap=undefined"
# 2. every input the fuzzer kept, once more under AddressSanitizer and UBSan.
build asan "-fsanitize=address,undefined -fno-sanitize-recover=undefined"

cd "$BASE"
echo "fuzzing: $RUNS inputs, corpus $CORPUS"
PYTHONPATH="$BASE/cov" "$PY" "$ROOT/tools/fuzz_atheris.py" -atheris_runs="$RUNS" -timeout=20 \
    -rss_limit_mb=4096 -artifact_prefix="${FUZZ_ARTIFACTS:-/tmp/shudu-fuzz-}" "$@" "$CORPUS"
echo "replaying the corpus ($(ls "$CORPUS" | wc -l) inputs) under AddressSanitizer and UBSan"
LD_PRELOAD="$(clang -print-file-name=libclang_rt.asan-x86_64.so)" \
ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
PYTHONPATH="$BASE/asan" "$PY" "$ROOT/tools/fuzz_atheris.py" -runs=0 "$CORPUS"
echo "fuzz_atheris: done, no finding"
