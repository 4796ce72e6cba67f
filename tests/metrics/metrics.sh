#!/bin/sh
# tests/metrics/metrics.sh - profiler metrics a teacher can trust: each GPU's
# metric definitions (nvprof's on fermi and kepler, Nsight Compute's on
# h100), Kepler's shared-memory bank modes, shared-memory atomics in the
# views and 'stats --by-line', the modelled time and throughputs of 'stats',
# and the report's timeline (its start, --sm) and memory labels.  The
# expected figures follow from the kernels' addresses (metrics_kernels.ptx).
. "$srcdir/tests/lib.sh"
need_sqlite3
d="$srcdir/tests/metrics"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-metrics.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# check NAME DB SQL EXPECTED: the query's rows, joined by spaces
check() {
  got=$(q "$2" "$3" | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" = "$4" ]; then ok; else bad "$1: got '$got', want '$4'"; fi
}
trace() {   # GPU DB [ARGS]: a traced timed run of metrics.launch at level mem
  g=$1; db=$2; shift 2
  if "$PTXEMU" check -q --gpu "$g" --trace "$db" --trace-level mem "$@" "$d/metrics.launch" >"$tmp/out" 2>&1; then ok
  else bad "run --gpu $g: exit $?"; cat "$tmp/out"; fi
}
M="SELECT coalesce(round(%s, 2), '-') FROM launch_metrics WHERE launch_id = %s"
m() { q "$1" "$(printf "$M" "$2" "$3")"; }
check_m() {   # NAME DB METRIC LAUNCH WANT
  got=$(m "$2" "$3" "$4")
  if [ "$got" = "$5" ]; then ok; else bad "$1: $3 of launch $4 is '$got', want '$5'"; fi
}

# ---- metric definitions per GPU -----------------------------------------
trace fermi "$tmp/fermi.db"
trace kepler "$tmp/kepler.db"
trace h100 "$tmp/h100.db"
check metric-sets "$tmp/fermi.db" "SELECT DISTINCT metric_set FROM launches" nvprof
check metric-set-kepler "$tmp/kepler.db" "SELECT DISTINCT metric_set FROM launch_metrics" nvprof
check metric-set-h100 "$tmp/h100.db" "SELECT DISTINCT metric_set FROM launch_metrics" ncu
# fermi caches global loads in L1: nvprof counts the 2 lines (256 bytes) of
# the misaligned read for its 128 bytes; .cg reads 5 sectors (160 bytes)
check_m fermi-aligned "$tmp/fermi.db" gld_efficiency 1 100.0
check_m fermi-offset11 "$tmp/fermi.db" gld_efficiency 2 50.0
check_m fermi-offset11-cg "$tmp/fermi.db" gld_efficiency 3 80.0
check_m fermi-trans-aligned "$tmp/fermi.db" gld_transactions_per_request 1 1.0
check_m fermi-trans-offset11 "$tmp/fermi.db" gld_transactions_per_request 2 2.0
check_m fermi-gld-transactions "$tmp/fermi.db" gld_transactions 2 64.0
# kepler caches global loads in L2 only: 80%, still 2 transactions of 128 bytes
check_m kepler-offset11 "$tmp/kepler.db" gld_efficiency 2 80.0
check_m kepler-trans-offset11 "$tmp/kepler.db" gld_transactions_per_request 2 2.0
# Nsight Compute: sectors
check_m h100-offset11 "$tmp/h100.db" gld_efficiency 2 80.0
check_m h100-sectors-aligned "$tmp/h100.db" gld_transactions_per_request 1 4.0
check_m h100-sectors-offset11 "$tmp/h100.db" gld_transactions_per_request 2 5.0
check_m h100-gst-sectors "$tmp/h100.db" gst_transactions 1 128.0
check_m fermi-gst-lines "$tmp/fermi.db" gst_transactions 1 32.0
# a functional run has no GPU: Nsight Compute's definitions
"$PTXEMU" check -q --trace "$tmp/func.db" --trace-level mem "$d/metrics.launch" >/dev/null 2>&1 && ok || bad "functional run"
check_m functional-offset11 "$tmp/func.db" gld_efficiency 2 80.0
check functional-set "$tmp/func.db" "SELECT DISTINCT metric_set FROM launch_metrics" ncu
# at level launch, the transactions come from the launch's counters, by the same definitions
trace fermi "$tmp/fermi-launch.db" --trace-level launch
check_m fermi-launch-level "$tmp/fermi-launch.db" gld_transactions_per_request 2 2.0
# by line: the load's line has fermi's 2 transactions per request
"$PTXEMU" stats --by-line --launch 2 "$tmp/fermi.db" >"$tmp/lines" 2>&1
grep -q ' 2.00 .*ld.global.u32 %r5, \[%rd4\];$' "$tmp/lines" && ok || { bad "fermi by-line transactions"; cat "$tmp/lines"; }

# ---- Kepler's bank modes --------------------------------------------------
# the 32 x 33 tile read by columns: conflict-free in 4-byte mode (the
# default; words i and i + 32 of a 64-word row share a bank without
# conflict); in 8-byte mode the 8-byte word (33 r + c) / 2 sits in bank
# (16 r + (r + c) / 2) % 32: for odd columns rows 0 and 31 meet in one bank,
# half the warps 2-way: 1.5.  64-bit accesses of 32 threads: 1 wavefront on
# kepler (256-byte rows), 2 on 4-byte banks.
check_m kepler4-pad "$tmp/kepler.db" shared_load_transactions_per_request 4 1.0
check_m fermi-pad "$tmp/fermi.db" shared_load_transactions_per_request 4 1.0
check_m kepler4-wide "$tmp/kepler.db" shared_load_transactions_per_request 5 1.0
check_m fermi-wide "$tmp/fermi.db" shared_load_transactions_per_request 5 2.0
check_m h100-wide "$tmp/h100.db" shared_store_transactions_per_request 5 2.0
"$PTXEMU" gpus --params kepler | sed 's/^shared_bank_mode = .*/shared_bank_mode = 8/; s/^name = .*/name = kepler8/' >"$tmp/kepler8.gpu"
trace "$tmp/kepler8.gpu" "$tmp/kepler8.db"
check_m kepler8-pad "$tmp/kepler8.db" shared_load_transactions_per_request 4 1.5
check_m kepler8-wide "$tmp/kepler8.db" shared_load_transactions_per_request 5 1.0
check kepler8-mode "$tmp/kepler8.db" "SELECT DISTINCT shared_bank_mode FROM launches" 8
check kepler4-mode "$tmp/kepler.db" "SELECT DISTINCT shared_bank_mode FROM launches" 4
# the bank conflicts of the 2-way warps: 16 of the 32 warps, one each
check kepler8-conflicts "$tmp/kepler8.db" "SELECT sum(conflicts), sum(wavefronts = 2) FROM mem_accesses WHERE launch_id = 4 AND space_id = 1 AND kind_id = 0" "16|16"
# bad values are refused
for kv in "shared_bank_mode = 16" "shared_bank_mode = 3" "metric_set = gprof"; do
  "$PTXEMU" gpus --params kepler | sed "s/^${kv%% =*} = .*/$kv/" >"$tmp/bad.gpu"
  if "$PTXEMU" gpus --params "$tmp/bad.gpu" >"$tmp/err" 2>&1; then bad "accepted '$kv'"
  elif grep -q "bad.gpu:[0-9]*: error: .*${kv%% =*}" "$tmp/err"; then ok
  else bad "'$kv': $(cat "$tmp/err")"; fi
done
"$PTXEMU" gpus --params fermi | sed 's/^shared_bank_mode = .*/shared_bank_mode = 8/' >"$tmp/bad.gpu"
"$PTXEMU" gpus --params "$tmp/bad.gpu" >/dev/null 2>&1 && bad "8-byte mode on 4-byte banks accepted" || ok

# cudaDeviceSetSharedMemConfig switches the mode between launches (a CUDA
# program, when nvcc is here; nvcc 13 cannot target sm_35: kepler as sm_75)
if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc; elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc; else NVCC=; fi
if [ -n "$NVCC" ] && "$NVCC" -arch=sm_75 -cudart shared -o "$tmp/bank_mode" "$d/bank_mode.cu" >"$tmp/nvcc" 2>&1; then
  "$PTXEMU" gpus --params kepler | sed 's/^arch = .*/arch = sm_75/' >"$tmp/k75.gpu"
  "$PTXEMU" exec -q --gpu "$tmp/k75.gpu" --trace "$tmp/bank.db" --trace-level mem "$tmp/bank_mode" >"$tmp/bank.out" 2>&1
  [ "$(tr '\n' ' ' <"$tmp/bank.out")" = "start 1 set 0 eight 2 default 1 " ] && ok || bad "bank_mode output: $(cat "$tmp/bank.out")"
  check cudart-bank-mode "$tmp/bank.db" "SELECT shared_bank_mode, shared_load_transactions_per_request FROM launch_metrics JOIN launches USING (launch_id) ORDER BY launch_id" "4|1.0 8|1.5"
  "$PTXEMU" exec -q --gpu h100 "$tmp/bank_mode" >"$tmp/bank.out" 2>&1
  [ "$(tr '\n' ' ' <"$tmp/bank.out")" = "start 1 set 0 eight 1 default 1 " ] && ok || bad "bank_mode on h100: $(cat "$tmp/bank.out")"
else
  echo "(no nvcc: cudaDeviceSetSharedMemConfig not tested)"
fi

# ---- shared-memory atomics -------------------------------------------------
# launch 6: all 256 threads add to one bin: 32 rounds per warp request;
# launch 7: one thread a bin per warp: 1
check_m atom-same "$tmp/h100.db" shared_atom_transactions_per_request 6 32.0
check_m atom-spread "$tmp/h100.db" shared_atom_transactions_per_request 7 1.0
check_m atom-same-kepler "$tmp/kepler.db" shared_atom_transactions_per_request 6 32.0
check_m atom-functional "$tmp/func.db" shared_atom_transactions_per_request 6 32.0
check atom-by-line-view "$tmp/h100.db" "SELECT launch_id, value FROM shared_atom_transactions_per_request_by_line WHERE launch_id IN (6, 7)" "6|32.0 7|1.0"
check atom-rows "$tmp/h100.db" "SELECT count(*), sum(conflicts) FROM mem_accesses WHERE launch_id = 6 AND space_id = 1 AND kind_id = 2" "8|248"
# not in the shared load counts (the 2 warps that read the bins back)
check atom-not-loads "$tmp/h100.db" "SELECT shared_ld_requests FROM launch_mem_stats WHERE launch_id = 6" 2
check_m atom-launch-level "$tmp/fermi-launch.db" shared_atom_transactions_per_request 6 32.0
"$PTXEMU" stats --by-line --launch 6 "$tmp/h100.db" >"$tmp/lines" 2>&1
grep -q ' 32.00  atom.shared.add.u32 %r7, \[%r6\], 1;$' "$tmp/lines" && ok || { bad "stats --by-line atomics"; cat "$tmp/lines"; }
grep -q 'sha t/r' "$tmp/lines" && ok || bad "stats --by-line: no sha t/r column"
"$PTXEMU" stats --by-line --csv --launch 6 "$tmp/h100.db" >"$tmp/csv" 2>&1
head -1 "$tmp/csv" | grep -q ',shared_atom_transactions_per_request,text,' && ok || bad "by-line csv header: $(head -1 "$tmp/csv")"

# ---- time and bandwidth ------------------------------------------------------
# time_us = cycles / clock_mhz (kepler 745 MHz, h100 from its file)
check kepler-time "$tmp/kepler.db" "SELECT count(*) FROM launch_metrics m JOIN launches l USING (launch_id)
  WHERE abs(m.time_us * 745 - l.cycles) < 0.01 AND m.cycles = l.cycles" 7
check kepler-dram "$tmp/kepler.db" "SELECT count(*) FROM launch_metrics m JOIN launches l USING (launch_id)
  WHERE abs(m.dram_read_throughput - l.dram_read_bytes / (1000.0 * l.cycles / 745)) < 1e-6 AND m.l2_throughput > 0" 7
check functional-time "$tmp/func.db" "SELECT count(*) FROM launch_metrics WHERE time_us IS NULL AND dram_read_throughput IS NULL AND emulator_wall_ms > 0" 7
"$PTXEMU" stats --launch 2 "$tmp/kepler.db" >"$tmp/stats" 2>&1
for row in 'metric_set  *nvprof' 'cycles  *[0-9]' 'time_us \[us\]  *[0-9.]*$' 'dram_read_throughput \[GB/s\]  *[0-9.]*$' \
           'l2_throughput \[GB/s\]' 'emulator_wall_ms \[ms, emulator itself\]'; do
  grep -q "^$row" "$tmp/stats" && ok || { bad "stats: no row '$row'"; cat "$tmp/stats"; }
done
"$PTXEMU" stats --csv --launch 2 "$tmp/kepler.db" | grep -q '^2,read_off,metric_set,nvprof$' && ok || bad "stats --csv metric_set"

# ---- the report ------------------------------------------------------------------
r() { "$PTXEMU" report "$@" >"$tmp/rout" 2>&1 || bad "report $*: $(cat "$tmp/rout")"; }
"$PTXEMU" check -q --gpu h100 --trace "$tmp/rt.db" --trace-level all "$d/metrics.launch" >/dev/null 2>&1 || bad "timed all-level run"
r --launch 2 -o "$tmp/all.html" "$tmp/rt.db"
# 8 blocks on 8 SMs: every SM is drawn by default
n=$(grep -o '>SM [0-9]*</text>' "$tmp/all.html" | sort -u | wc -l)
[ "$n" = 8 ] && ok || bad "report: $n SMs in the timeline, want 8"
r --launch 2 --sm 3 -o "$tmp/sm3.html" "$tmp/rt.db"
grep -o '>SM [0-9]*</text>' "$tmp/sm3.html" | sort -u | tr '\n' ' ' | grep -qx '>SM 3</text> ' && ok || bad "report --sm 3: $(grep -o '>SM [0-9]*</text>' "$tmp/sm3.html" | sort -u | tr '\n' ' ')"
r --launch 2 --sm 99 -o "$tmp/sm99.html" "$tmp/rt.db"
grep -q 'SM 99 ran no block of this launch' "$tmp/sm99.html" && ok || bad "report --sm 99: no note"
"$PTXEMU" report --sm x "$tmp/rt.db" -o "$tmp/x.html" 2>"$tmp/err"; [ $? = 64 ] && grep -q "bad --sm 'x'" "$tmp/err" && ok || bad "report --sm x: $(cat "$tmp/err")"
# the timeline starts at the first block, not at cycle 0
first=$(q "$tmp/rt.db" "SELECT min(start_cycle) FROM blocks WHERE launch_id = 2")
[ "$first" -gt 0 ] && grep -q "The chart shows cycles $first to " "$tmp/all.html" && ok || bad "report: timeline does not start at cycle $first"
grep -q "cached-load misses" "$tmp/all.html" && grep -q "all L2 lookups" "$tmp/all.html" && grep -q "What each figure counts" "$tmp/all.html" \
  && ok || bad "report: memory labels"
r --launch 6 -o "$tmp/atom.html" "$tmp/rt.db"
grep -q 'Shared atomics: 8 requests took 256 rounds' "$tmp/atom.html" && ok || bad "report: shared atomics"
grep -q 'id="m-shared_atom_transactions_per_request"' "$tmp/atom.html" && ok || bad "report: atomic metric row"
# functional: the timeline is what a functional run knows
"$PTXEMU" check -q --trace "$tmp/rf.db" --trace-level all "$d/metrics.launch" >/dev/null 2>&1 || bad "functional all-level run"
r --launch 2 -o "$tmp/f.html" "$tmp/rf.db"
grep -q 'Warps along their instructions (active threads, no cycles)' "$tmp/f.html" && ! grep -q '>SP0 ' "$tmp/f.html" && ok || bad "report: functional timeline"
finish
