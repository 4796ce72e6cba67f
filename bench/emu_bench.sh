#!/bin/sh
# Functional-emulation speed: thread instructions per second on two
# compute-bound (matmul, reduce) and two memory-heavy (transpose, histogram)
# kernels of bench/kernels, one core.  Prints one line per kernel.
cd "$(dirname "$0")/.." || exit 1
PTXEMU=${PTXEMU:-./ptxemu}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "emulator (functional mode), thread instructions per second:"
for k in matmul reduce transpose histogram; do
  best=0
  for rep in 1 2 3; do
    "$PTXEMU" run -q --stats "$tmp/s" "bench/kernels/$k.launch" >/dev/null || { echo "  $k: FAILED"; continue 2; }
    set -- $(awk '{for (i = 1; i < NF; i++) { if ($i == "thread_inst_executed") t = $(i+1); if ($i == "emu_wall_ns") w = $(i+1) } } END { printf "%d %d\n", t, w }' "$tmp/s")
    rate=$(awk -v t="$1" -v w="$2" 'BEGIN { printf "%.0f", t / (w / 1e9) }')
    [ "$rate" -gt "$best" ] && best=$rate
    insts=$1
  done
  awk -v k="$k" -v r="$best" -v n="$insts" 'BEGIN { printf "  %-10s %8.1f M thread-inst/s  (%d thread instructions)\n", k, r / 1e6, n }'
done
