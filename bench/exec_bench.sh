#!/bin/sh
# The CUDA libraries' own cost (ptxemu exec): 10,000 launches of an empty
# kernel and 10,000 small cudaMemcpy calls (microseconds per call, and the
# whole program's wall time), and a program's start with its assembled
# module in the cache (second run) and without (first run, cache empty).
# Needs nvcc to build the program; says so and stops without it.
cd "$(dirname "$0")/.." || exit 1
PTXEMU=${PTXEMU:-./ptxemu}
if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc
elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc
else echo "CUDA libraries: skipped (nvcc not found)"; exit 0; fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$NVCC" -cudart shared -arch=sm_90 -o "$tmp/overhead" bench/cuda/launch_overhead.cu || { echo "CUDA libraries: nvcc failed"; exit 1; }
now() { date +%s.%N; }
echo "CUDA libraries (ptxemu exec), best of 3:"
best_l=999999 best_m=999999 best_t=999999
for rep in 1 2 3; do
  t0=$(now)
  set -- $(PTXEMU_CACHE="$tmp/cache" "$PTXEMU" exec "$tmp/overhead" 10000)
  t1=$(now)
  best_l=$(awk -v a="$best_l" -v b="$2" 'BEGIN { print (b < a) ? b : a }')
  best_m=$(awk -v a="$best_m" -v b="$4" 'BEGIN { print (b < a) ? b : a }')
  best_t=$(awk -v a="$best_t" -v b="$t0" -v c="$t1" 'BEGIN { d = c - b; print (d < a) ? d : a }')
done
echo "  empty kernel launch      $best_l us per call"
echo "  cudaMemcpy of 16 bytes   $best_m us per call"
echo "  10,000 of each           $best_t s for the whole program"
# a program's start: the first run assembles its PTX, later runs read the
# assembled module from the cache (the program launches one kernel and exits)
rm -rf "$tmp/cache2"
t0=$(now); PTXEMU_CACHE="$tmp/cache2" "$PTXEMU" exec "$tmp/overhead" 1 >/dev/null; t1=$(now)
cold=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) * 1000 }')
warm=999999
for rep in 1 2 3; do
  t0=$(now); PTXEMU_CACHE="$tmp/cache2" "$PTXEMU" exec "$tmp/overhead" 1 >/dev/null; t1=$(now)
  warm=$(awk -v a="$warm" -v b="$t0" -v c="$t1" 'BEGIN { d = (c - b) * 1000; printf "%.1f", (d < a) ? d : a }')
done
echo "  start to exit, 1 launch  ${cold} ms first run (assembles), ${warm} ms with the module cached"
# lazy device memory: a 40 GB allocation of which a kernel writes 1 MB
"$NVCC" -cudart shared -arch=sm_90 -o "$tmp/lazy" bench/cuda/lazy_memory.cu || { echo "CUDA libraries: nvcc failed"; exit 1; }
echo "  $(PTXEMU_CACHE="$tmp/cache" "$PTXEMU" exec "$tmp/lazy" 40 1)"
