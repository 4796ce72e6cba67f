#!/bin/sh
# Launches on worker threads (--threads N): thread instructions per second
# of wall time for a compute-bound kernel (512x512 tiled matmul, 1024
# blocks) and a memory-bound one (2048x2048 transpose, 4096 blocks) at
# THREADS (default 1 2 4 8 16), the speedup over --threads 1, and whether
# the output buffer is byte for byte the --threads 1 one; then timing mode
# (--gpu h100) on a 384x384 matmul (576 blocks) and a 1024x1024 transpose
# (1024 blocks), where the emulated cycles must be the same too.
#   TIMING=0        functional mode only
#   THREADS="1 2"   the thread counts
#   REPS=5          runs per figure (the median is the figure)
#   BIG=1           also a matmul of 1536x1536 (about 1.4e10 thread
#                   instructions) at the largest count, with its wall time
cd "$(dirname "$0")/.." || exit 1
PTXEMU=${PTXEMU:-./ptxemu}
THREADS=${THREADS:-1 2 4 8 16}
ptx=$(pwd)/bench/kernels/bench.ptx
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

mk_matmul() {   # N FILE
  n=$1; t=$((n / 16)); b=$((n * n * 4))
  printf 'ptx %s\nbuffer A %d random f32 1 -1 1\nbuffer B %d random f32 2 -1 1\nbuffer C %d zero\n' "$ptx" "$b" "$b" "$b" >"$2"
  printf 'launch matmul grid %d %d 1 block 16 16 1 shared 0\narg ptr A\narg ptr B\narg ptr C\narg s32 %d\ndump C %s/out.bin\n' "$t" "$t" "$n" "$tmp" >>"$2"
}
mk_transpose() {   # N FILE
  n=$1; t=$((n / 32)); b=$((n * n * 4))
  printf 'ptx %s\nbuffer in %d ramp f32 0 1\nbuffer out %d zero\n' "$ptx" "$b" "$b" >"$2"
  printf 'launch transpose grid %d %d 1 block 32 8 1 shared 0\narg ptr in\narg ptr out\narg s32 %d\ndump out %s/out.bin\n' "$t" "$t" "$n" "$tmp" >>"$2"
}
# one run: "RATE SECONDS MODE" (M thread-inst/s, wall seconds of the launch, parallel|sequential)
run1() {   # LAUNCH THREADS [MORE-ARGS...]: also the cycles (timing mode) in $tmp/cycles
  l=$1; n=$2; shift 2
  "$PTXEMU" run -v --threads "$n" "$@" "$l" >/dev/null 2>"$tmp/v" || { echo "FAILED"; return; }
  awk '/ cycles on / { print $5 }' "$tmp/v" >"$tmp/cycles"
  # the rate as printed (from the exact time; the seconds have 3 decimals, a
  # 16-thread launch lasts ~20 ms)
  awk '/thread instructions in/ { t = $8; r = substr($14, 2) + 0 } / on [0-9]+ threads/ { m = $5 }
       END { if (m == "") m = "sequential"; printf "%.1f %.4f %s\n", r, t / r / 1e6, m }' "$tmp/v"
}

# The median of REPS runs (default 5), then the best: short runs on a
# shared machine vary by tens of percent, and a lone thread often runs on
# a faster clock than when every core is busy (the 16-core machine: one
# --threads 1 transpose 460-850 M/s from run to run, 16 at once ~490
# each), so the best one-thread run says little of what a core gives
# when all work.
med() {   # LAUNCH THREADS [MORE-ARGS...]: "MEDIAN-RATE SECONDS MODE BEST-RATE"
  : >"$tmp/runs"
  for rep in $(seq 1 "${REPS:-5}"); do
    r=$(run1 "$@"); [ "$r" = FAILED ] && { echo FAILED; return; }
    echo "$r" >>"$tmp/runs"
  done
  sort -g "$tmp/runs" | awk '{ l[NR] = $0; b = $1 } END { printf "%s %s\n", l[int((NR + 1) / 2)], b }'
}

# What the machine gives N independent one-thread runs at once: the sum of
# their rates (the ceiling for --threads N on the same cores and clocks).
capacity() {   # LAUNCH N [MORE-ARGS...]
  l=$1; n=$2; shift 2
  for i in $(seq 1 "$n"); do
    "$PTXEMU" run -v --threads 1 "$@" "$l" 2>&1 >/dev/null | awk '/thread instructions in/ { print substr($14, 2) + 0 }' &
  done | awk '{ s += $1 } END { printf "%.1f\n", s }'
  wait
}

mk_matmul 512 "$tmp/matmul.launch"
mk_transpose 2048 "$tmp/transpose.launch"
echo "functional mode on worker threads ($(nproc) cores online): M thread-inst/s (median of ${REPS:-5} runs, and the best), speedup over --threads 1 (medians)"
printf '  %-22s %8s %12s %8s %8s %-10s %s\n' kernel threads "M inst/s" best speedup mode output
for k in matmul transpose; do
  base=
  for n in $THREADS; do
    set -- $(med "$tmp/$k.launch" "$n")
    [ "$1" = FAILED ] && { echo "  $k --threads $n: FAILED"; continue; }
    if [ -z "$base" ]; then base=$1; cp "$tmp/out.bin" "$tmp/ref.bin"; fi
    same=identical; cmp -s "$tmp/out.bin" "$tmp/ref.bin" || same=DIFFERENT
    label=$k; [ $k = matmul ] && label="matmul 512 (compute)"; [ $k = transpose ] && label="transpose 2048 (memory)"
    awk -v k="$label" -v n="$n" -v r="$1" -v best="$4" -v b="$base" -v m="$3" -v s="$same" \
      'BEGIN { printf "  %-22s %8d %12.1f %8.1f %7.2fx %-10s %s\n", k, n, r, best, r / b, m, s }'
    last=$n; lastr=$1
  done
  if [ "$last" -gt 1 ]; then
    c=$(capacity "$tmp/$k.launch" "$last")
    awk -v k="$label" -v n="$last" -v c="$c" -v r="$lastr" -v b="$base" \
      'BEGIN { printf "  %-22s %d runs of --threads 1 at once: %.1f M/s together (%.2fx one run); --threads %d gives %.0f%% of it\n", k, n, c, c / b, n, 100 * r / c }'
  fi
done
if [ "${TIMING:-1}" = 1 ]; then
  mk_matmul 384 "$tmp/tmatmul.launch"
  mk_transpose 1024 "$tmp/ttranspose.launch"
  echo "timing mode (--gpu h100) on worker threads: M thread-inst/s, speedup over --threads 1"
  printf '  %-22s %8s %12s %8s %8s %-10s %s\n' kernel threads "M inst/s" best speedup mode "output, cycles"
  for k in tmatmul ttranspose; do
    base=
    for n in $THREADS; do
      set -- $(med "$tmp/$k.launch" "$n" --gpu h100)
      [ "$1" = FAILED ] && { echo "  $k --threads $n: FAILED"; continue; }
      if [ -z "$base" ]; then base=$1; cp "$tmp/out.bin" "$tmp/ref.bin"; cp "$tmp/cycles" "$tmp/refcycles"; fi
      same=identical; cmp -s "$tmp/out.bin" "$tmp/ref.bin" && cmp -s "$tmp/cycles" "$tmp/refcycles" || same=DIFFERENT
      label="matmul 384 (compute)"; [ $k = ttranspose ] && label="transpose 1024 (memory)"
      awk -v k="$label" -v n="$n" -v r="$1" -v best="$4" -v b="$base" -v m="$3" -v s="$same" -v c="$(cat "$tmp/cycles")" \
        'BEGIN { printf "  %-22s %8d %12.1f %8.1f %7.2fx %-10s %s (%s cycles)\n", k, n, r, best, r / b, m, s, c }'
    done
  done
fi
if [ "${BIG:-0}" = 1 ]; then
  mk_matmul 1536 "$tmp/big.launch"
  first=; for n in $THREADS; do last=$n; [ -z "$first" ] && first=$n; done
  for n in $last $first; do
    set -- $(run1 "$tmp/big.launch" "$n")
    ti=$(awk '/thread instructions in/ { print $8 }' "$tmp/v")
    echo "  large workload: matmul 1536x1536, $ti thread instructions, --threads $n: $2 s ($1 M thread-inst/s, $3)"
    [ "$first" = "$last" ] && break
  done
fi
exit 0
