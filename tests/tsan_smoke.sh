#!/bin/sh
# Launches on several threads under ThreadSanitizer (.ci/run builds with
# -fsanitize=thread and runs this): the bench kernels functionally and
# timed, and hardware cases with atomics, clusters and stores into data
# other blocks read, timed, at --threads 3 (timing: SMs taken over by other
# threads, requests served while the next window runs).  Any report fails.
cd "$(dirname "$0")/.." || exit 1
PTXEMU=${PTXEMU:-$(pwd)/ptxemu}
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
fail=0
run() {   # DIR FILE ARGS...: run ptxemu in DIR on FILE
  d=$1; f=$2; shift 2
  if (cd "$d" && "$PTXEMU" run -q --threads 3 "$@" "$f" >/dev/null 2>"${TMPDIR:-/tmp}/tsan_smoke.$$"); then
    echo "ok   $d/$f $*"
  else
    echo "FAIL $d/$f $*"; head -30 "${TMPDIR:-/tmp}/tsan_smoke.$$"; fail=1
  fi
  rm -f "${TMPDIR:-/tmp}/tsan_smoke.$$"
}
for k in matmul transpose reduce histogram; do
  run bench/kernels $k.launch
  run bench/kernels $k.launch --gpu h100
done
for c in tests/golden/lab_reduce tests/golden/vector_atomics tests/golden/timing_stores \
         tests/microbench/mb_atomic tests/microbench/mb_cluster tests/microbench/mb_rmw; do
  run "$c" case.txt --gpu h100
done
exit $fail
