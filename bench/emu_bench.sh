#!/bin/sh
# Functional-emulation speed: thread instructions per second on two
# compute-bound (matmul, reduce) and two memory-heavy (transpose, histogram)
# kernels of bench/kernels, one core.  Prints one line per kernel.
cd "$(dirname "$0")/.." || exit 1
PTXEMU=${PTXEMU:-./ptxemu}
ptx_abs=$(cd "$(dirname "$PTXEMU")" && pwd)/$(basename "$PTXEMU")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "emulator (functional mode), thread instructions per second:"
for k in matmul reduce transpose histogram; do
  best=0
  for rep in 1 2 3; do
    "$PTXEMU" run -v --threads 1 "bench/kernels/$k.launch" >/dev/null 2>"$tmp/v" || { echo "  $k: FAILED"; continue 2; }
    # "ptxemu: launch 0 K: W warp instructions, T thread instructions in S s (...)"
    set -- $(awk '/thread instructions in/ { t += $8; s += $12; m = $(NF-1) } END { printf "%d %.9f %s\n", t, s, m }' "$tmp/v")
    rss=$3
    rate=$(awk -v t="$1" -v s="$2" 'BEGIN { printf "%.0f", t / s }')
    [ "$rate" -gt "$best" ] && best=$rate
    insts=$1
  done
  awk -v k="$k" -v r="$best" -v n="$insts" -v m="$rss" 'BEGIN { printf "  %-10s %8.1f M thread-inst/s  (%d thread instructions, peak host memory %s MiB)\n", k, r / 1e6, n, m }'
done

# the same against real hardware: golden cases (when ../shared is present),
# emulator wall time vs the H100's duration for each launch
golden=${GOLDEN:-../shared/golden}
[ -d "$golden" ] || exit 0
echo "golden cases: emulator wall time vs H100 duration (functional mode):"
for c in matmul reduce_variants transpose atomics_int mem_bound_stream; do
  [ -f "$golden/$c/case.txt" ] || continue
  (cd "$golden/$c" && "$ptx_abs" run -q --threads 1 --stats "$tmp/g" case.txt >/dev/null 2>&1) || { echo "  $c: FAILED"; continue; }
  awk -v c="$c" -v hw="$golden/$c/hw.txt" '
    BEGIN { while ((getline l < hw) > 0) if (l ~ /^launch/) { n = split(l, t, " "); for (i = 4; i < n; i += 2) if (t[i] == "duration_ns") d[t[2]] = t[i+1] } }
    { for (i = 4; i < NF; i += 2) { if ($i == "thread_inst_executed") ti = $(i+1); if ($i == "emu_wall_ns") w = $(i+1) }
      T += ti; W += w; D += d[$2] }
    END { printf "  %-18s %8.1f M thread-inst/s, %6.0fx the H100 duration (%.2f ms vs %.1f us)\n", c, T / (W / 1e9) / 1e6, W / D, W / 1e6, D / 1e3 }' "$tmp/g"
done
