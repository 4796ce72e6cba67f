#!/bin/sh
# tests/check_rowpack.sh - registers packed into fewer rows by liveness
# (emu/rowpack.c) keep every value: loads whose results nobody reads, a
# guarded write read by lanes that skipped it, values carried round a loop,
# divergent paths, a register never written; functional on 1-3 threads
# and timed, in reused register files.  The kernel must be packed (run -v
# says into how many rows), or the test proves nothing.
. "$srcdir/tests/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-rowpack.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$srcdir/tests/rowpack/rowpack.ptx" "$srcdir/tests/rowpack/rowpack.launch" "$tmp/"
for mode in "--threads 1" "--threads 2" "--threads 3" "--threads 1 --gpu h100" "--threads 2 --gpu h100"; do
  # shellcheck disable=SC2086
  if ! (cd "$tmp" && "$PTXEMU" run -v $mode rowpack.launch) >"$tmp/err" 2>&1; then bad "$mode: run failed"; cat "$tmp/err"; continue; fi
  rows=$(sed -n 's/.* \([0-9]*\) registers held in \([0-9]*\) rows a thread.*/\1 \2/p' "$tmp/err")
  set -- $rows
  if [ -z "$rows" ] || [ "$2" -ge "$1" ]; then bad "$mode: the kernel's registers were not packed ('$rows')"; continue; fi
  # out[gid] = 10 * ((tid + 1000) + (tid odd ? 7 : 0)) + 55 + tid * 10 + (tid < 16 ? tid + 200 : tid + 300)
  od -An -v -tu4 -w4 "$tmp/out.bin" | awk '
    { i = NR - 1; t = i % 64; want = 10 * (t + 1000 + (t % 2 ? 7 : 0)) + 55 + t * 10 + (t < 16 ? t + 200 : t + 300)
      if ($1 != want) { printf "out[%d] = %s, not %d\n", i, $1, want; bad++ } }
    END { exit bad > 0 || NR != 1024 }' >"$tmp/diff" && ok || { bad "$mode: wrong values"; head -5 "$tmp/diff"; }
done
finish
