#!/bin/sh
# tests/check_regclear.sh - a register that a path leaves unwritten reads
# as 0, whatever warp used the (reused) register file before, for every
# --threads N: the warp start clears exactly the rows that a thread may
# read before it writes them (emu/prepare.c, plan_warp_start); and local
# memory a thread reads before it writes it reads as 0 too.
. "$srcdir/tests/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-regclear.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$srcdir/tests/regclear/regclear.ptx" "$srcdir/tests/regclear/regclear.launch" "$tmp/"
for n in 1 2 3; do
  if ! (cd "$tmp" && "$PTXEMU" run -q --threads "$n" regclear.launch) >"$tmp/err" 2>&1; then bad "--threads $n: run failed"; cat "$tmp/err"; continue; fi
  # out[b*64 + t] = (t < 7 ? 0 : 1000) + t + (t == 9 ? 50 : 0) + 6
  od -An -v -tu4 -w4 "$tmp/out.bin" | awk '
    { i = NR - 1; t = i % 64; want = (t < 7 ? 0 : 1000) + t + (t == 9 ? 50 : 0) + 6
      if ($1 != want) { printf "out[%d] = %s, not %d\n", i, $1, want; bad++ } }
    END { exit bad > 0 }' >"$tmp/diff" && ok || { bad "--threads $n: wrong values"; head -5 "$tmp/diff"; }
  # locals: local memory read before it is written is 0 in reused warps too
  od -An -v -tu4 -w4 "$tmp/lout.bin" | awk '$1 != 0 { printf "lout[%d] = %s, not 0\n", NR - 1, $1; bad++ } END { exit bad > 0 || NR != 4096 }' >"$tmp/diff" &&
    ok || { bad "--threads $n: local memory not cleared"; head -5 "$tmp/diff"; }
done
finish
