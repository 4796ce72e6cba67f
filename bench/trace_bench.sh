#!/bin/sh
# bench/trace_bench.sh - what execution traces (ptxemu-trace(5)) cost.
#
# For each kernel: the wall time of an untraced run, of a run with
# --trace-level warp and of one with --trace-level all (best of BENCH_RUNS,
# default 3, whole process, writing to a fresh database), the slowdown
# traced/untraced, the rows written and the writer's rate in rows per
# second of its own CPU time (it runs on a thread of its own, beside the
# emulator).  Kernels:
#   spin     tests/traces spin_loop: a uniform 4-instruction loop; its
#            iterations fold into one warp_runs row per warp and time slice;
#   alt      tests/traces alt_loop: a loop whose branch alternates, so that
#            nothing folds: about 3 warp instructions per row, the worst case;
#   matmul reduce transpose histogram  (bench/kernels, where they run).
#
#   make bench             (runs every bench/*.sh)
#   sh bench/trace_bench.sh  (PTXEMU, BENCH_RUNS, SPIN_N, ALT_N override the defaults)
cd "$(dirname "$0")/.." || exit 1
PTXEMU=${PTXEMU:-./ptxemu}
BENCH_RUNS=${BENCH_RUNS:-3}
SPIN_N=${SPIN_N:-4000}
ALT_N=${ALT_N:-2000}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/spin.launch" <<EOF
ptx $PWD/tests/traces/trace_kernels.ptx
buffer out 65536 zero
launch spin_loop grid 64 1 1 block 256 1 1 shared 0
arg ptr out
arg u32 $SPIN_N
EOF
sed -e 's/spin_loop/alt_loop/' -e "s/arg u32 .*/arg u32 $ALT_N/" "$tmp/spin.launch" >"$tmp/alt.launch"

now() { date +%s.%N; }
# best (shortest) time of BENCH_RUNS runs of "$@" (a fresh trace each time);
# 0 if it fails.  BEST=wall: the whole process's wall time; BEST=launch: the
# launch alone, as -v's "... thread instructions in X s" gives it
best() {
  b=
  i=0
  while [ $i -lt "$BENCH_RUNS" ]; do
    rm -f "$tmp/t.db" "$tmp/t.db-wal" "$tmp/t.db-shm"
    t0=$(now)
    "$@" >/dev/null 2>"$tmp/err" || { echo 0; return; }
    t1=$(now)
    # the launch's seconds from its rate (the printed seconds have 3 decimals)
    if [ "${BEST:-wall}" = launch ]; then d=$(awk '/thread instructions in/ { n = $8; r = substr($14, 2) + 0; if (r > 0) { printf "%.6f\n", n / r / 1e6; exit } }' "$tmp/err")
    else d=$(awk -v a="$t0" -v z="$t1" 'BEGIN { print z - a }'); fi
    b=$(awk -v d="$d" -v b="$b" 'BEGIN { if (b == "" || d < b) b = d; printf "%.4f", b }')
    i=$((i + 1))
  done
  echo "$b"
}

echo "execution traces (functional mode): wall time best of $BENCH_RUNS, whole process"
printf "  %-10s %11s %9s %9s %6s %9s %6s %10s %12s\n" kernel warp-insts untraced warp slow all slow rows rows/s
for k in spin alt matmul reduce transpose histogram; do
  case $k in spin|alt) lf=$tmp/$k.launch ;; *) lf=bench/kernels/$k.launch ;; esac
  [ -f "$lf" ] || continue
  u=$(best "$PTXEMU" run -q --threads 1 "$lf")
  if [ "$u" = 0 ]; then printf "  %-10s (does not run yet: %s)\n" $k "$(grep -m1 'not supported' "$tmp/err" | sed 's/^ *//')"; continue; fi
  w=$(best "$PTXEMU" run -q --threads 1 -v --trace "$tmp/t.db" --trace-level warp "$lf")
  line=$(grep 'warp_runs rows' "$tmp/err")
  a=$(best "$PTXEMU" run -q --threads 1 -v --trace "$tmp/t.db" --trace-level all "$lf")
  linea=$(grep 'warp_runs rows' "$tmp/err")
  # "ptxemu: trace: N warp instructions in R warp_runs rows, M mem_accesses rows; writer X s CPU, Y rows/s"
  set -- $line
  insts=$3; runs=$7
  set -- $linea
  rows=$(($7 + ${10}))
  rate=${17}
  awk -v k=$k -v n="$insts" -v u="$u" -v w="$w" -v a="$a" -v r="$rows" -v rr="$runs" -v rate="$rate" 'BEGIN {
    printf "  %-10s %11d %8.3fs %8.3fs %5.1fx %8.3fs %5.1fx %10d %9.2f M\n", k, n, u, w, w / u, a, a / u, r, rate / 1e6
    printf "  %-10s   (level warp: %d warp_runs rows, %.1f instructions per row)\n", "", rr, n / (rr ? rr : 1) }'
done
echo "  warp: --trace-level warp; all: --trace-level all; rows and rows/s: level all (warp_runs + mem_accesses)"

# the launch alone (what ptxemu -v times: no start-up, no opening or closing
# of the database), best of BENCH_RUNS: untraced and without counters, with
# --stats, with a trace at level warp
best_launch() { BEST=launch best "$PTXEMU" run --threads 1 -v "$@"; }
echo "the launch alone (ptxemu -v's launch time), best of $BENCH_RUNS:"
printf "  %-10s %9s %9s %6s %9s %6s\n" kernel untraced stats slow warp slow
for k in matmul reduce transpose histogram; do
  lf=bench/kernels/$k.launch
  u=$(best_launch "$lf"); s=$(best_launch --stats "$tmp/s" "$lf"); w=$(best_launch --trace "$tmp/t.db" --trace-level warp "$lf")
  awk -v k=$k -v u="$u" -v s="$s" -v w="$w" 'BEGIN { if (u > 0) printf "  %-10s %8.4fs %8.4fs %5.2fx %8.4fs %5.2fx\n", k, u, s, s / u, w, w / u }'
done

