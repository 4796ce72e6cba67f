#!/bin/sh
# tests/counters/counters.sh - the shared-memory counters of loads whose
# address register changes between them (access_memo.ptx): the emulator
# remembers recent access patterns to skip recounting them, and must never
# reuse one across a write to the register.  Per warp, loads A..G give
# 10 one-word loads and a vector load (2 wavefronts); C, D and F put every
# lane on bank 0 (31 conflicts each); with the branch not taken H and I do
# too.  Functional runs at 1, 2 and 3 threads, and with a trace at level
# warp (an observer that does not ask for the accesses).
. "$srcdir/tests/lib.sh"
d="$srcdir/tests/counters"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-counters.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# per warp: flag 1: conflicts 3 * 31, wavefronts 10 + 2 + 93; flag 0: 5 * 31, 10 + 2 + 155
want="93 105
155 167
$((155 * 512)) $((167 * 512))"
run() {   # LABEL ARGS...
  label=$1; shift
  rm -f "$tmp/t.db"*
  "$PTXEMU" run -q --stats "$tmp/s" "$@" "$d/access_memo.launch" >"$tmp/out" 2>&1
  st=$?
  if [ $st -ne 0 ]; then bad "$label: exit status $st"; cat "$tmp/out"; return; fi
  got=$(awk '{ c = w = "-"; for (i = 1; i < NF; i++) { if ($i == "shared_ld_bank_conflicts") c = $(i+1); if ($i == "shared_ld_wavefronts") w = $(i+1) } print c, w }' "$tmp/s")
  if [ "$got" = "$want" ]; then ok; else bad "$label: conflicts and wavefronts per launch are '$(echo $got)', want '$(echo $want)'"; fi
}
run "threads 1" --threads 1
run "threads 2" --threads 2
run "threads 3" --threads 3
run "trace level warp" --threads 1 --trace "$tmp/t.db" --trace-level warp
run "trace level all" --threads 1 --trace "$tmp/t.db" --trace-level all
finish
