#!/bin/sh
# tests/check_determinism.sh - the same inputs give the same results,
# statistics and trace rows, byte for byte, on every run: functional and
# timing mode (h100 and fermi), device printf, atomics, spin locks, random
# buffers (seeded splitmix64).  Each case runs twice; everything it writes
# is compared (trace rows without the wall-clock columns).
. "$srcdir/tests/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-det.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
have_sqlite=; command -v sqlite3 >/dev/null 2>&1 && have_sqlite=1

# trace rows that do not depend on the wall clock
rows() {
  sqlite3 -batch "$1" "
    SELECT * FROM warp_runs ORDER BY id;
    SELECT * FROM mem_accesses ORDER BY id;
    SELECT * FROM blocks ORDER BY launch_id, block;
    SELECT * FROM sm_samples ORDER BY launch_id, sm, cycle;
    SELECT launch_id, kernel_id, status, inst_executed, thread_inst_executed, gld_requests, gld_sectors, gst_requests,
           gst_sectors, shared_ld_wavefronts, shared_st_wavefronts, branches, divergent_branches, cycles FROM launches;
    SELECT * FROM instructions ORDER BY insn_id;"
}

one() {   # RUN-INDEX LAUNCH ARGS...
  i=$1; lf=$2; shift 2
  d="$tmp/$i"; mkdir -p "$d"
  if [ -n "$have_sqlite" ]; then set -- "$@" --trace "$d/t.db" --trace-level all; fi
  "$PTXEMU" run -q --out "$d" --stats "$d/stats.txt" "$@" "$lf" >"$d/stdout" 2>"$d/stderr"
  echo $? >"$d/status"
  if [ -n "$have_sqlite" ]; then rows "$d/t.db" >"$d/rows"; rm -f "$d/t.db"; fi
  for f in "$tmp"/src/*.bin; do [ -f "$f" ] && mv "$f" "$d/"; done
}

case_() {   # NAME LAUNCH ARGS...
  name=$1; shift
  rm -rf "$tmp/1" "$tmp/2"
  one 1 "$@"; one 2 "$@"
  if [ "$(cat "$tmp/1/status")" != 0 ]; then bad "$name: exit status $(cat "$tmp/1/status")"; head -5 "$tmp/1/stderr"; return; fi
  # the stats lines carry the wall time; the rest must match
  for f in "$tmp/1/stats.txt" "$tmp/2/stats.txt"; do sed -i 's/emu_wall_ns [0-9]*//' "$f"; done
  if diff -r "$tmp/1" "$tmp/2" >"$tmp/diff"; then ok; else bad "$name: two runs differ"; head -10 "$tmp/diff"; fi
}

e="$srcdir/tests/exec"
# a copy: its dump lines write next to the launch file
mkdir -p "$tmp/src" && cp "$srcdir"/tests/determinism/*.launch "$srcdir"/tests/determinism/*.ptx "$tmp/src/"
case_ printf-order "$tmp/src/printf_atomics.launch"
case_ printf-order-timed "$tmp/src/printf_atomics.launch" --gpu a100
case_ spinlock "$e/ctrl_spinlock.launch"
case_ atomics "$e/mem_vector_atom.launch"
case_ async "$e/async_mbar.launch"
case_ cluster "$e/async_cluster.launch"
case_ random-buffers "$srcdir/tests/traces/memory.launch"
case_ timing-h100 "$srcdir/tests/traces/memory.launch" --gpu h100
case_ timing-fermi "$srcdir/tests/traces/branches.launch" --gpu fermi
case_ timing-spinlock "$e/ctrl_spinlock.launch" --gpu h100
finish
