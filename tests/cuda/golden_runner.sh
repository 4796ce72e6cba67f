#!/bin/sh
# tests/cuda/golden_runner.sh GOLDEN_DIR RUNNER.c - the driver-API program
# that recorded the real-hardware golden cases, compiled unmodified against
# ptxemu's libcuda.so.1 and run through "ptxemu exec" on every case; its
# output buffers must match the expected ones under each expect line's mode
# (compared by "ptxemu check" on a launch file that loads them).
# Prints one line per case and "N passed, M failed"; exits 1 on a failure,
# 77 (skipped) without a C compiler or the CUDA header cuda.h.
golden=$(cd "${1:?usage: golden_runner.sh GOLDEN_DIR RUNNER.c}" && pwd)
runner_c=${2:?usage: golden_runner.sh GOLDEN_DIR RUNNER.c}
top=$(cd "$(dirname "$0")/../.." && pwd)
ptxemu=${PTXEMU:-$top/ptxemu}
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -f "$cuda/include/cuda.h" ] || { echo "SKIP: no cuda.h under $cuda"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-runner.XXXXXX")
trap 'rm -rf "$work"' EXIT
libdir=$("$ptxemu" --libdir)
# link against ptxemu's own libcuda.so.1 (NVIDIA's stub is not needed)
${CC:-cc} -O2 -I"$cuda/include" -o "$work/runner" "$runner_c" "$libdir/libcuda.so.1" -lm || exit 1
pass=0; fail=0
for c in "$golden"/*/; do
  name=$(basename "$c")
  [ -f "$c/case.txt" ] || continue
  out="$work/$name"
  mkdir -p "$out"
  if ! (cd "$c" && PTXEMU_CACHE=off timeout 300 "$ptxemu" exec -q "$work/runner" . "$out" > "$out/stdout.txt" 2> "$out/stderr.txt"); then
    fail=$((fail + 1)); echo "FAIL $name (runner failed)"; tail -3 "$out/stderr.txt" | sed 's/^/    /'; continue
  fi
  # a launch file whose buffers are the runner's outputs, and the case's expect lines
  awk -v dir="$c" -v out="$out" '
    $1 == "ptx" { print "ptx " dir $2; next }
    $1 == "buffer" { size[$2] = $3; next }
    $1 == "expect" { print "buffer " $2 " " size[$2] " file " out "/" $3; e[++n] = $0; next }
    $1 == "stdout" { so = $2; next }
    END { for (i = 1; i <= n; i++) { split(e[i], f, " "); sub(f[3], dir f[3], e[i]); print e[i] } }
  ' "$c/case.txt" > "$out/check.launch"
  if [ -n "$(awk '$1 == "stdout" { print $2 }' "$c/case.txt")" ]; then
    s=$(awk '$1 == "stdout" { print $2 }' "$c/case.txt")
    cmp -s "$out/stdout.txt" "$c/$s" || { fail=$((fail + 1)); echo "FAIL $name (stdout differs)"; continue; }
  fi
  if "$ptxemu" check -q "$out/check.launch" > "$out/check.txt" 2>&1; then pass=$((pass + 1)); echo "PASS $name"
  else fail=$((fail + 1)); echo "FAIL $name"; head -4 "$out/check.txt" | sed 's/^/    /'; fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
