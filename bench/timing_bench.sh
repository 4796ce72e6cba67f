#!/bin/sh
# Timing-mode speed (ptxemu run --gpu h100): thread instructions and
# emulated cycles per second of host time, on the bench kernels.
cd "$(dirname "$0")/.." || exit 1
PTXEMU=${PTXEMU:-./ptxemu}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# Each kernel runs twice in one process: the first launch is what a
# one-launch run costs (it also makes the memory model's structures and
# the resident warps' register files, fresh memory the kernel zeroes page
# by page); the second, identical, reuses them, as every later launch of a
# program does.  Both figures are printed.
echo "timing model (h100), per second of host time (first launch of the process / the same launch again):"
for k in matmul reduce transpose histogram; do
  { sed "s|^ptx |ptx $PWD/bench/kernels/|" "bench/kernels/$k.launch"; sed -n '/^launch/,$p' "bench/kernels/$k.launch"; } >"$tmp/twice.launch"
  "$PTXEMU" run -q --threads 1 --gpu h100 --stats "$tmp/s" "$tmp/twice.launch" >/dev/null 2>&1 || { echo "  $k: FAILED"; continue; }
  awk -v k="$k" '{ for (i = 1; i < NF; i++) { if ($i == "thread_inst_executed") t[NR] = $(i+1); if ($i == "cycles") c[NR] = $(i+1); if ($i == "emu_wall_ns") w[NR] = $(i+1) } }
    END { if (c[1] != c[2]) { printf "  %-10s the second launch took %d cycles, the first %d: FAILED\n", k, c[2], c[1]; exit }
          printf "  %-10s %7.1f / %7.1f M thread-inst/s  %9.0f / %9.0f emulated cycles/s  (%d cycles)\n", k,
                 t[1] / (w[1] / 1e9) / 1e6, t[2] / (w[2] / 1e9) / 1e6, c[1] / (w[1] / 1e9), c[2] / (w[2] / 1e9), c[1] }' "$tmp/s"
done

# the golden cases (real-hardware kernels), when ../shared/golden is beside
# the checkout: all launches together, thread instructions per second
golden=${GOLDEN:-../shared/golden}
if [ -d "$golden" ]; then
  : >"$tmp/all"
  for c in "$golden"/*/; do
    [ -f "$c/case.txt" ] || continue
    "$PTXEMU" run -q --threads 1 --gpu h100 --stats "$tmp/g" "$c/case.txt" >/dev/null 2>&1 && cat "$tmp/g" >>"$tmp/all"
  done
  awk '{ for (i = 1; i < NF; i++) { if ($i == "thread_inst_executed") t += $(i+1); if ($i == "cycles") c += $(i+1); if ($i == "emu_wall_ns") w += $(i+1) } n++ }
    END { if (w) printf "  golden suite (%d launches): %.1f M thread-inst/s, %.0f emulated cycles/s\n", n, t / (w / 1e9) / 1e6, c / (w / 1e9) }' "$tmp/all"
fi
