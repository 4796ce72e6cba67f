#!/bin/sh
# ptxemu sweep --local: 64 short points (tests/sweep/spin.ptx, 64 L2 sizes)
# one after another (-j 1) and on 2 processes (-j 2), in wall time; the
# target is at most 55% of the serial time with 2 cores.  SWEEP_BENCH_ITERS
# sets the loop length of a point (default 100000).
cd "$(dirname "$0")/.." || exit 1
PTXEMU=${PTXEMU:-./ptxemu}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cp tests/sweep/spin.ptx "$tmp/"
sed "s/^arg u32 200\$/arg u32 ${SWEEP_BENCH_ITERS:-100000}/; /^expect/d" tests/sweep/spin.launch > "$tmp/spin.launch"
printf 'launch spin spin.launch\nparam l2_bytes 1M..64M +1M\n' > "$tmp/b.spec"
now() { date +%s.%N; }
t0=$(now); "$PTXEMU" sweep -j 1 "$tmp/b.spec" "$tmp/serial" 2>/dev/null; r1=$?; t1=$(now)
"$PTXEMU" sweep -j 2 "$tmp/b.spec" "$tmp/parallel" 2>/dev/null; r2=$?; t2=$(now)
[ "$r1" = 0 ] && [ "$r2" = 0 ] || { echo "sweep: a run failed (exit $r1, $r2)"; exit 1; }
n=$(ls "$tmp/parallel/points" | wc -l)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$n" -v cores="$(nproc)" 'BEGIN {
  s = b - a; p = c - b
  printf "ptxemu sweep --local, %d points (%d cores here):\n", n, cores
  printf "  one after another (-j 1)  %.2f s (%.0f ms a point)\n", s, s * 1000 / n
  printf "  2 processes (-j 2)        %.2f s: %.0f%% of the serial time (target: at most 55%%)\n", p, 100 * p / s }'
