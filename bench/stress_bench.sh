#!/bin/sh
# bench/stress_bench.sh - whole-module analyses on modules shaped to defeat
# anything worse than linear or n log n (bench/stress_gen.awk): a call graph
# where each of 40 functions calls the next twice (2^40 paths), a chain of
# 50,000 functions, a kernel of 10,000 overlapping loops with a register
# each (~775 KB), a basic block with 50,000 distinct constants.  For each:
# the module's size, the wall time of ptxemu asm --check, of a functional
# launch and of a timed launch (--gpu h100); each command runs under
# STRESS_TIMEOUT (default 120) seconds, past which it prints "timeout".
#   make bench            (runs every bench/*.sh)
#   sh bench/stress_bench.sh (from the build directory; PTXEMU, STRESS_SCALE
#                          (multiplies the sizes, default 1), BENCH_OUT override)
set -u
here=$(cd "$(dirname "$0")" && pwd)
PTXEMU=${PTXEMU:-./ptxemu}
scale=${STRESS_SCALE:-1}
limit=${STRESS_TIMEOUT:-120}
out=${BENCH_OUT:-bench/out}
mkdir -p "$out" || exit 1
now() { date +%s%N; }
# seconds CMD takes (or "timeout"/"failed")
timed() {
  t0=$(now)
  timeout "$limit" "$@" >/dev/null 2>&1; st=$?
  t1=$(now)
  if [ $st -eq 124 ]; then echo timeout; elif [ $st -ne 0 ] && [ $st -ne 4 ]; then echo "failed($st)"; else awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; fi
}
echo "stress: whole-module analyses (wall seconds; a launch of the doubling graph stops at --max-insts 100000)"
printf '  %-10s %8s %9s %9s %9s %9s\n' module n KB asm-check run run-h100
for spec in doubling:40 chain:50000 ladder:10000 straight:50000; do
  kind=${spec%%:*}; n=${spec#*:}
  [ "$kind" = doubling ] || n=$((n * scale))
  f=$out/stress_$kind.ptx
  awk -v kind="$kind" -v n="$n" -f "$here/stress_gen.awk" > "$f" || exit 1
  case $kind in
    doubling|chain) args="--kernel k --max-insts 100000" ;;
    ladder) args="--kernel k -e 'buffer o 4 zero' --arg ptr:o --arg u32:5" ;;
    straight) args="--kernel k -e 'buffer o 4 zero' --arg ptr:o" ;;
  esac
  a=$(timed "$PTXEMU" asm --check "$f")
  r=$(eval timed '"$PTXEMU"' run '"$f"' "$args")
  g=$(eval timed '"$PTXEMU"' run '"$f"' "$args" --gpu h100)
  printf '  %-10s %8s %9d %9s %9s %9s\n' "$kind" "$n" $(($(wc -c < "$f") / 1024)) "$a" "$r" "$g"
done
