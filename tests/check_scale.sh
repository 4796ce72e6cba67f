#!/bin/sh
# Inputs that are small but shaped to defeat non-linear analyses, and
# inputs or configurations that would take unbounded host memory: each must
# finish well inside a generous time bound (timeout; a regression to
# exponential or quadratic time fails) with the right result.
#   - a call graph where each of 40 functions calls the next twice (the
#     stack depth before a launch was a path search: 2^40 steps);
#   - a chain of 50,000 functions (per-function searches: quadratic; deep
#     recursion: a stack overflow);
#   - a kernel of 10,000 overlapping loops (liveness swept once per back edge);
#   - a basic block with 50,000 distinct constants;
#   - GPU configurations with clock_mhz=1 or dram_bandwidth_gbs=1000000
#     (timing queues sized from the rates) under an address-space limit;
#     a 1 TB L2 is refused with the memory cap, not built;
#   - /dev/zero as an input file, and the input cap (PTXEMU_MAX_INPUT).
. "$srcdir/tests/lib.sh"
limit=${SCALE_TIMEOUT:-20}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
gen() { awk -v kind="$1" -v n="$2" -f "$srcdir/bench/stress_gen.awk" > "$tmp/$1.ptx" || exit 99; }
gen doubling 40; gen chain 50000; gen ladder 10000; gen straight 50000

# NAME WANT-STATUS PATTERN CMD...: CMD exits WANT-STATUS within the limit and prints PATTERN
expect() {
  name=$1; want=$2; pat=$3; shift 3
  timeout "$limit" "$@" > "$tmp/out" 2>&1; st=$?
  if [ $st -eq 124 ]; then bad "$name: still running after $limit s"; return; fi
  if [ $st -ne "$want" ]; then bad "$name: exit status $st, want $want"; head -5 "$tmp/out"; return; fi
  if [ -n "$pat" ] && ! grep -q -- "$pat" "$tmp/out"; then bad "$name: output lacks '$pat'"; head -5 "$tmp/out"; return; fi
  ok
}

for k in doubling chain ladder straight; do expect "asm $k" 0 "" "$PTXEMU" asm --check -v "$tmp/$k.ptx"; done
# the doubling graph runs 2^40 calls: the budget stops it, after the launch started
expect "run doubling" 4 "instruction budget" "$PTXEMU" run "$tmp/doubling.ptx" --kernel k --max-insts 100000
expect "run doubling, timed" 4 "instruction budget" "$PTXEMU" run "$tmp/doubling.ptx" --kernel k --max-insts 100000 --gpu h100
expect "run chain" 0 "" "$PTXEMU" run "$tmp/chain.ptx" --kernel k
expect "run chain, timed" 0 "cycles on h100" "$PTXEMU" run "$tmp/chain.ptx" --kernel k --gpu h100
# 50,001 frames of 16 bytes a thread: 25 MB of local memory a warp, counted against the cap
expect "run chain, capped" 4 "out of memory starting a block (each warp's registers and local memory take 250" "$PTXEMU" run "$tmp/chain.ptx" --kernel k --max-memory 30M --grid 8 --block 64
expect "run ladder" 0 "o: ok" "$PTXEMU" check "$tmp/ladder.ptx" --kernel k -e 'buffer o 4 zero' --arg ptr:o --arg u32:5 -e 'expect o value u32 50001'
expect "run ladder, timed" 0 "o: ok" "$PTXEMU" check "$tmp/ladder.ptx" --kernel k -e 'buffer o 4 zero' --arg ptr:o --arg u32:5 -e 'expect o value u32 50001' --gpu h100
expect "run straight" 0 "o: ok" "$PTXEMU" check "$tmp/straight.ptx" --kernel k -e 'buffer o 4 zero' --arg ptr:o -e 'expect o value u32 1250025000'
# the register estimate sees all 10,002 registers of the ladder live at once: ptxas's 255
expect "ladder registers" 0 "Used 255 registers" "$PTXEMU" asm --check -v "$tmp/ladder.ptx"

# ---- timing-model memory ----------------------------------------------------
h100="$srcdir/configs/h100.gpu"
vecadd="$srcdir/examples/vecadd/vecadd.launch"
set_param() { sed "s/^$1 .*/$1 = $2/" "$h100" > "$tmp/$3.gpu"; grep -q "^$1 = $2\$" "$tmp/$3.gpu" || exit 99; }
set_param clock_mhz 1 slow
set_param dram_bandwidth_gbs 1000000 fast
set_param l2_bytes 1099511627776 bigl2
# an address-space limit (not under sanitizers, which reserve terabytes)
if (ulimit -v 1000000 && "$PTXEMU" --version) >/dev/null 2>&1; then
  for g in slow fast; do
    expect "timing $g config, 1 GB address space" 0 "c: ok" sh -c 'ulimit -v 1000000; exec "$@"' sh "$PTXEMU" check "$vecadd" --gpu "$tmp/$g.gpu"
  done
else
  for g in slow fast; do expect "timing $g config" 0 "c: ok" "$PTXEMU" check "$vecadd" --gpu "$tmp/$g.gpu"; done
fi
expect "timing 1 TB L2" 4 "more than the memory cap leaves" "$PTXEMU" check "$vecadd" --gpu "$tmp/bigl2.gpu"

# ---- input size cap ---------------------------------------------------------
expect "asm /dev/zero" 65 "larger than the input limit of 536870912 bytes" "$PTXEMU" asm --check /dev/zero
expect "dis /dev/zero" 65 "larger than the input limit" "$PTXEMU" dis /dev/zero
expect "cap on a file" 65 "input limit of 65536 bytes (PTXEMU_MAX_INPUT)" env PTXEMU_MAX_INPUT=64K "$PTXEMU" asm --check "$tmp/ladder.ptx"
expect "cap on a pipe" 65 "input limit of 65536 bytes" sh -c 'cat "$1" | PTXEMU_MAX_INPUT=64K "$2" asm --check /dev/stdin' sh "$tmp/ladder.ptx" "$PTXEMU"
expect "under the cap" 0 "" env PTXEMU_MAX_INPUT=2M "$PTXEMU" asm --check "$tmp/ladder.ptx"
expect "a pipe under the cap" 0 "" sh -c 'cat "$1" | "$2" asm --check /dev/stdin' sh "$tmp/ladder.ptx" "$PTXEMU"
expect "bad cap" 64 "bad PTXEMU_MAX_INPUT" env PTXEMU_MAX_INPUT=lots "$PTXEMU" asm --check "$tmp/ladder.ptx"
finish
