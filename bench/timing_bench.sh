#!/bin/sh
# Timing-mode speed (ptxemu run --gpu h100): thread instructions and
# emulated cycles per second of host time, on the bench kernels.
cd "$(dirname "$0")/.." || exit 1
PTXEMU=${PTXEMU:-./ptxemu}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "timing model (h100), per second of host time:"
for k in matmul reduce transpose histogram; do
  "$PTXEMU" run -q --threads 1 --gpu h100 --stats "$tmp/s" "bench/kernels/$k.launch" >/dev/null 2>&1 || { echo "  $k: FAILED"; continue; }
  awk -v k="$k" '{ for (i = 1; i < NF; i++) { if ($i == "thread_inst_executed") t = $(i+1); if ($i == "cycles") c = $(i+1); if ($i == "emu_wall_ns") w = $(i+1) } }
    END { printf "  %-10s %7.1f M thread-inst/s  %9.0f emulated cycles/s  (%d cycles)\n", k, t / (w / 1e9) / 1e6, c / (w / 1e9), c }' "$tmp/s"
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
