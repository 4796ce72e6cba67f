#!/bin/sh
# tests/traces/traces.sh - execution traces (ptxemu-trace(5)): run small
# kernels with --trace and check, with plain SQL, numbers that follow from
# the kernels alone; crash safety (a kernel fault, SIGKILL mid-run); levels,
# filters, appending runs, and 'ptxemu stats'.
. "$srcdir/tests/lib.sh"
need_sqlite3
d="$srcdir/tests/traces"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-traces.XXXXXX") || exit 1
pid=
trap 'rm -rf "$tmp"; [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null' EXIT

line_of() { grep -n -- "$1" "$d/trace_kernels.ptx" | head -1 | cut -d: -f1; }   # PTX line of a pattern
# check NAME DB SQL EXPECTED: the query's output (rows joined by spaces) must equal EXPECTED
check() {
  got=$(q "$2" "$3" | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" = "$4" ]; then ok; else bad "$1: got '$got', want '$4'"; fi
}
metric() {   # DB VIEW LAUNCH: value rounded to 3 decimals ('null' when NULL)
  q "$1" "SELECT coalesce(round(value, 3), 'null') FROM $2 WHERE launch_id = $3"
}
check_metric() {   # NAME DB VIEW LAUNCH EXPECTED
  got=$(metric "$2" "$3" "$4")
  if [ "$got" = "$5" ]; then ok; else bad "$1: $3 of launch $4 is '$got', want '$5'"; fi
}
run() {   # DB LAUNCH-FILE ARGS...: a traced run that must succeed
  db=$1; lf=$2; shift 2
  if "$PTXEMU" check -q --trace "$db" "$@" "$lf" >"$tmp/out" 2>&1; then ok; else bad "run $lf $*: exit $?"; cat "$tmp/out"; fi
}
run_kernel() {   # DB PTX KERNEL ARGS...: a traced run of one kernel that must succeed
  db=$1; ptx=$2; kn=$3; shift 3
  if "$PTXEMU" run -q --trace "$db" "$ptx" --kernel "$kn" "$@" >"$tmp/out" 2>&1; then ok; else bad "run $kn: exit $?"; cat "$tmp/out"; fi
}

# ---- SASS instruction estimate (instructions.sass_insts) -----------------
cat > "$tmp/sass.ptx" <<'PTX'
.version 7.0
.target sm_70
.address_size 64
.visible .entry sass_count(.param .u64 out)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<6>;
	.reg .f32 	%f<5>;
	ld.param.u64 	%rd1, [out];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, %r1;
	setp.eq.u32 	%p1, %r1, 0;
	@%p1 mov.u32 	%r2, 7;
	rem.u32 	%r3, %r2, 3;
	cvt.u64.u32 	%rd3, %r3;
	rem.s64 	%rd4, %rd3, 5;
	cvt.rn.f32.u32 	%f1, %r1;
	div.rn.f32 	%f2, %f1, 3.0;
	div.approx.f32 	%f3, %f2, 3.0;
	cvt.rzi.u32.f32 	%r4, %f3;
	cvt.u32.u64 	%r5, %rd4;
	add.u32 	%r6, %r4, %r5;
	mul.wide.u32 	%rd5, %r1, 4;
	add.s64 	%rd5, %rd2, %rd5;
	st.global.u32 	[%rd5], %r6;
	ret;
}
.visible .entry sass_loop(.param .u64 out, .param .u32 d)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<9>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [out];
	ld.param.u32 	%r1, [d];
	mov.u32 	%r2, %tid.x;
	mov.u32 	%r3, 3;
	mov.u32 	%r4, 0;
$L_loop:
	rem.u32 	%r5, %r2, %r1;
	rem.u32 	%r6, %r2, %r3;
	add.s32 	%r2, %r2, %r5;
	add.s32 	%r3, %r3, %r6;
	add.s32 	%r4, %r4, 1;
	setp.lt.u32 	%p1, %r4, 4;
	@%p1 bra 	$L_loop;
	rem.u32 	%r7, %r2, %r1;
	mov.u32 	%r8, WARP_SZ;
	div.u32 	%r7, %r7, %r8;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r4, 0;
	add.s64 	%rd2, %rd2, %rd3;
	st.global.u32 	[%rd2], %r7;
	ret;
}
PTX
s="$tmp/sass.db"
run_kernel "$s" "$tmp/sass.ptx" sass_count --grid 1 --block 32 -e "buffer o 128 zero" --arg ptr:o
# copies between registers of one type and cvta to global: 0; rem by a
# constant: a multiplication (4, 10 for 64 bits); IEEE div.f32: 10; the
# approximate one, a guarded copy and the rest (the implicit ret after the
# last instruction too): 1
check sass-insts "$s" "SELECT group_concat(sass_insts, ' ') FROM (SELECT i.sass_insts FROM instructions i
  JOIN kernels k USING (kernel_id) WHERE k.name = 'sass_count' ORDER BY pc)" "1 0 1 0 1 1 4 1 10 1 10 1 1 1 1 1 1 1 1 1"
check sass-per-warp "$s" "SELECT inst_per_warp, sass_inst_per_warp FROM launch_metrics" "19.0|38.0"
# in a loop: a divisor the loop leaves alone has its reciprocal computed
# before the loop (8), one it changes does not (20), nor one outside any
# loop; a register only ever set to WARP_SZ is a constant power of two (1)
s2="$tmp/sass2.db"
run_kernel "$s2" "$tmp/sass.ptx" sass_loop --grid 1 --block 32 -e "buffer o 128 zero" --arg ptr:o --arg u32:7
check sass-loop "$s2" "SELECT group_concat(sass_insts, ' ') FROM (SELECT i.sass_insts FROM instructions i
  JOIN kernels k USING (kernel_id) WHERE k.name = 'sass_loop' AND (i.opname LIKE 'rem%' OR i.opname LIKE 'div%') ORDER BY pc)" "8 20 20 1"

# ---- branches ------------------------------------------------------------
b="$tmp/branches.db"
"$PTXEMU" check -q --trace "$b" "$d/branches.launch" >"$tmp/out" 2>&1
st=$?
if [ $st -eq 0 ]; then ok
elif grep -q "is not supported by this version of ptxemu" "$tmp/out"; then
  # the integer instructions of these kernels (and.b32, setp.eq) are not in this build yet
  echo "note: branch kernels need $(grep -o "'[^']*' is not supported" "$tmp/out" | head -1); branch checks skipped"
  b=
else bad "run branches.launch: exit $st"; cat "$tmp/out"; fi
if [ -n "$b" ]; then
check schema-version "$b" "PRAGMA user_version" 5
check application-id "$b" "PRAGMA application_id" 1347704901
check integrity "$b" "PRAGMA integrity_check" ok
check_metric divergent "$b" branch_efficiency 1 50.0
check_metric uniform "$b" branch_efficiency 2 100.0
check_metric ipw-divergent "$b" inst_per_warp 1 16.0
check_metric ipw-uniform "$b" inst_per_warp 2 14.5
check_metric wee-divergent "$b" warp_execution_efficiency 1 90.625
check_metric wee-uniform "$b" warp_execution_efficiency 2 100.0
# the SASS estimate: cvta.to.global leaves no SASS instruction behind
check_metric sass-ipw "$b" sass_inst_per_warp 1 15.0
# per line: the divergent branch never agrees, the jump over the else side always does
check by-line "$b" "SELECT ptx_line, value FROM branch_efficiency_by_line WHERE launch_id = 1 ORDER BY ptx_line" "$(line_of 'bra 	\$L__EVEN')|0.0 $(line_of 'bra.uni 	\$L__DONE')|100.0"
check by-line-text "$b" "SELECT i.text FROM instructions i JOIN kernels k USING (kernel_id) WHERE k.name = 'branch_even_odd' AND i.branch ORDER BY i.pc" \
  "@%p1 bra \$L__EVEN; bra.uni \$L__DONE;"
# the expansion of warp_runs has one row per warp instruction, each with its source line
check expansion "$b" "SELECT (SELECT count(*) FROM warp_insts) = (SELECT sum(inst_executed) FROM launches)" 1
check expansion-lines "$b" "SELECT count(*) FROM warp_insts w JOIN instructions i USING (insn_id) WHERE i.ptx_line IS NULL" 0
check taken "$b" "SELECT count(*), sum(taken = 1431655765 AND active = 4294967295) FROM warp_insts w JOIN instructions i USING (insn_id) WHERE w.launch_id = 1 AND i.pc = 8" "8|8"
check blocks "$b" "SELECT count(*), sum(warps), sum(inst_executed) FROM blocks WHERE launch_id = 1" "4|8|128"
"$PTXEMU" stats "$b" >"$tmp/stats" 2>&1 || bad "stats: exit $?"
grep -q '^branch_efficiency \[%\] *50.00 *100.00$' "$tmp/stats" && ok || { bad "stats table"; cat "$tmp/stats"; }
"$PTXEMU" stats --by-line "$b" >"$tmp/lines" 2>&1
grep -q 'bra \$L__EVEN' "$tmp/lines" && ok || { bad "stats --by-line"; cat "$tmp/lines"; }
fi

# ---- memory -----------------------------------------------------------------
m="$tmp/memory.db"
run "$m" "$d/memory.launch" --trace-level all
check_metric sectors-off0 "$m" gld_transactions_per_request 1 4.0
check_metric sectors-off11 "$m" gld_transactions_per_request 2 5.0
check_metric sectors-off128 "$m" gld_transactions_per_request 3 4.0
check_metric gld-eff-off11 "$m" gld_efficiency 2 80.0
check_metric gst-off11 "$m" gst_transactions_per_request 2 4.0
check lines-off11 "$m" "SELECT min(lines), max(lines) FROM mem_accesses WHERE launch_id = 2 AND space_id = 0 AND kind_id = 0" "2|2"
check_metric shared-row-ld "$m" shared_load_transactions_per_request 4 1.0
check_metric shared-row-st "$m" shared_store_transactions_per_request 4 1.0
check_metric shared-col-ld "$m" shared_load_transactions_per_request 5 32.0
check_metric shared-col-st "$m" shared_store_transactions_per_request 5 32.0
check_metric shared-pad-ld "$m" shared_load_transactions_per_request 6 1.0
check_metric shared-pad-st "$m" shared_store_transactions_per_request 6 1.0
check conflicts "$m" "SELECT sum(conflicts), count(*) FROM mem_accesses WHERE launch_id = 5 AND space_id = 1" "7936|256"
check_metric ipw-read "$m" inst_per_warp 1 17.0
check_metric timing-null "$m" l1_hit_rate 1 null
check_metric ipc-null "$m" ipc 1 null
check_metric occupancy-null "$m" achieved_occupancy 1 null
check stall-null "$m" "SELECT count(*), count(value) FROM stall_breakdown WHERE launch_id = 1" "18|0"
check mem-by-line "$m" "SELECT ptx_line, value FROM gld_transactions_per_request_by_line WHERE launch_id = 2" "$(line_of 'ld.global.f32')|5.0"
check mem-wseq-link "$m" "SELECT count(*) FROM mem_accesses m JOIN warp_insts w USING (launch_id, block, warp, wseq, insn_id) WHERE m.launch_id = 2" 128
# warp states (doc/stall-reasons.md): the stall_breakdown view of a timed trace is
# the --stats line's stall_*_pct; the shares add up to 100, selected is one cycle an issue
# of SASS
tm="$tmp/timed.db"
if "$PTXEMU" check -q --timing --gpu h100 --stats "$tmp/tstats" --trace "$tm" --trace-level warp "$d/memory.launch" >"$tmp/out" 2>&1; then ok; else bad "timed run: exit $?"; cat "$tmp/out"; fi
for l in 1 5; do
  # --stats prints two decimals: the same shares within its rounding
  want=$(awk -v n=$((l - 1)) '$2 == n { for (i = 4; i < NF; i += 2) if ($i ~ /^stall_.*_pct$/ && $(i+1) > 0) { r = substr($i, 7); sub(/_pct$/, "", r); printf "%s|%s\n", r, $(i+1) } }' "$tmp/tstats" | sort)
  got=$(q "$tm" "SELECT reason, value FROM stall_breakdown WHERE launch_id = $l AND value >= 0.005" | sort)
  if [ -n "$want" ] && printf '%s\n' "$want" | awk -F'|' -v got="$got" 'BEGIN { n = split(got, g, "\n"); for (i = 1; i <= n; i++) { split(g[i], p, "|"); v[p[1]] = p[2] } }
      { if (!($1 in v) || v[$1] - $2 > 0.0051 || $2 - v[$1] > 0.0051) bad = 1; seen++ } END { exit bad || seen != n }'; then ok; else bad "stall_breakdown of timed launch $l: '$got', --stats: '$want'"; fi
done
check stall-sum "$tm" "SELECT round(sum(value)) FROM stall_breakdown WHERE launch_id = 1" 100.0
# (an instruction that leaves no SASS issues nothing: its row has no timing)
check stall-selected "$tm" "SELECT (SELECT sum(n * reps) FROM warp_runs WHERE launch_id = 1 AND stall_id IS NOT NULL) = (SELECT round(value * (SELECT sum(stall_cycles + coalesce(stall2_cycles, 0) + coalesce(stall3_cycles, 0) + n * reps) FROM warp_runs WHERE launch_id = 1 AND stall_id IS NOT NULL) / 100) FROM stall_breakdown WHERE launch_id = 1 AND reason = 'selected')" 1
# a wait's parts: the largest first, each of another reason, and together the
# cycles since the warp's previous issue (its issue_cycle's gap to the warp's
# previous timed row)
check stall-parts-order "$tm" "SELECT count(*) FROM warp_runs WHERE stall2_id IS NOT NULL AND (stall2_cycles > stall_cycles OR stall2_id = stall_id OR stall3_id = stall2_id OR stall3_id = stall_id OR stall3_cycles > stall2_cycles)" 0
check stall-parts-some "$tm" "SELECT count(*) > 0 FROM warp_runs WHERE stall2_id IS NOT NULL" 1
check stall-parts-gap "$tm" "WITH r AS (SELECT launch_id, block, warp, issue_cycle, stall_cycles + coalesce(stall2_cycles, 0) + coalesce(stall3_cycles, 0) AS w, lag(issue_cycle) OVER (PARTITION BY launch_id, block, warp ORDER BY wseq) AS prev FROM warp_runs WHERE stall_id IS NOT NULL) SELECT count(*) FROM r WHERE prev IS NOT NULL AND w <> issue_cycle - prev - 1" 0
check free-rows "$tm" "SELECT count(*) > 0 FROM warp_runs WHERE launch_id = 1 AND stall_id IS NULL" 1
check stall-by-line "$tm" "SELECT count(*) FROM (SELECT ptx_line, round(sum(value)) AS s FROM stall_breakdown_by_line WHERE launch_id = 1 GROUP BY ptx_line) WHERE s <> 100" 0
# counters of the emulator agree with the rows
check counters "$m" "SELECT count(*) FROM launches l JOIN launch_mem_stats s USING (launch_id) WHERE l.gld_sectors = coalesce(s.gld_sectors, 0) AND l.shared_ld_wavefronts = coalesce(s.shared_ld_wavefronts, 0)" 6

# ---- loops ------------------------------------------------------------------
# spin_loop: 4 PTX instructions a trip, its branch taken by every lane but
# in the last trip.  One warp, 10000 trips: the first trip is in the
# entry's row, the last has its own (not taken), the 9998 between are
# repetitions of one row, at most 4096 a row (the interpreter counts them
# while the warp loops); every row starts where its warp's previous ended
lp="$tmp/loop.db"
run_kernel "$lp" "$d/trace_kernels.ptx" spin_loop --grid 1 --block 32 -e "buffer o 128 zero" --arg ptr:o --arg u32:10000
check loop-reps "$lp" "SELECT count(*), sum(reps), max(reps) FROM warp_runs WHERE n = 4 AND taken = active" "3|9998|4096"
check loop-rows "$lp" "SELECT group_concat(n || 'x' || reps, ' ') FROM (SELECT n, reps FROM warp_runs ORDER BY id)" "8x1 4x4096 4x4096 4x1806 4x1 9x1"
check loop-insts "$lp" "SELECT sum(n * reps), (SELECT inst_executed FROM launches) FROM warp_runs" "40013|40013"
# loop5 (trace_kernels.ptx): 5 instructions a trip; three blocks of two warps of 4 + 5 * 5001
# + 6 instructions each, each warp's loop cut where its time slice ends
# (every 4096 instructions: (4096k - 4) mod 5 is 2, 3, 4, 0, 1, 2, so 5 of
# the 6 cuts fall inside a trip, which becomes two rows) and the other
# warp's rows coming between: 4999 - 5 whole trips taken by every lane a
# warp, 10 rows of cut trips, and each row starts where its warp's
# previous one ended
lp2="$tmp/loop2.db"
run_kernel "$lp2" "$d/trace_kernels.ptx" loop5 --grid 3 --block 64 -e "buffer o 1024 zero" --arg ptr:o --arg u32:5001
check loop-insts-2 "$lp2" "SELECT sum(n * reps), (SELECT inst_executed FROM launches), count(DISTINCT block || '.' || warp) FROM warp_runs" "150090|150090|6"
check loop-contiguous "$lp2" "WITH r AS (SELECT wseq, n * reps AS len, lead(wseq) OVER (PARTITION BY launch_id, block, warp ORDER BY wseq) AS nxt FROM warp_runs) SELECT count(*) FROM r WHERE nxt IS NOT NULL AND nxt <> wseq + len" 0
check loop-cut "$lp2" "SELECT count(*) FROM warp_runs WHERE n < 5 AND wseq > 0 AND guard = active" 60
check loop-trips "$lp2" "SELECT sum(reps) FROM warp_runs WHERE n = 5 AND taken = active" 29964

# ---- levels and filters --------------------------------------------------------------
l="$tmp/launch.db"
run "$l" "$d/memory.launch" --trace-level launch
check level-launch-rows "$l" "SELECT (SELECT count(*) FROM warp_runs) + (SELECT count(*) FROM mem_accesses)" 0
check_metric level-launch-fallback "$l" gld_transactions_per_request 2 5.0
check_metric level-launch-ipw "$l" inst_per_warp 1 17.0
f="$tmp/filter.db"
run "$f" "$d/memory.launch" --trace-level all --trace-kernel smem_col --trace-blocks 1-2 --trace-pcs 0-9
check filter-kernel "$f" "SELECT group_concat(trace_level || filtered, ' ') FROM (SELECT * FROM launches ORDER BY launch_id)" "launch0 launch0 launch0 launch0 all1 launch0"
check filter-blocks "$f" "SELECT group_concat(DISTINCT block) FROM warp_runs" "1,2"
check filter-pcs "$f" "SELECT min(i.pc), max(i.pc) FROM warp_insts w JOIN instructions i USING (insn_id)" "0|9"
check filter-mem "$f" "SELECT count(*), sum(space_id = 1 AND kind_id = 1) FROM mem_accesses" "64|64"

# ---- a kernel that faults ----------------------------------------------------------------
x="$tmp/fault.db"
"$PTXEMU" run -q --trace "$x" "$d/faults.launch" >/dev/null 2>&1
st=$?
[ $st -eq 3 ] && ok || bad "faulting run: exit $st, want 3"
check fault-integrity "$x" "PRAGMA integrity_check" ok
check fault-status "$x" "SELECT group_concat(status, ' ') FROM (SELECT status FROM launches ORDER BY launch_id)" "completed faulted"
check fault-where "$x" "SELECT i.ptx_line, l.fault LIKE 'invalid global access%' FROM launches l JOIN instructions i ON i.insn_id = l.fault_insn_id" "$(line_of 'st.global.u32 	\[%rd4\], %r5;')|1"
check fault-run "$x" "SELECT exit_status, finished_at IS NOT NULL FROM runs" "3|1"

# ---- killed mid-run ---------------------------------------------------------------------------
k="$tmp/kill.db"
"$PTXEMU" run -q --trace "$k" "$d/kill.launch" >/dev/null 2>&1 &
pid=$!
n=0
# wait until two launches are complete and rows of the third are committed
until [ "$(q "$k" "SELECT count(*) FROM launches WHERE status = 'completed' OR (status = 'unfinished' AND last_run_id >= first_run_id)" 2>/dev/null)" = 3 ]; do
  n=$((n + 1))
  if [ $n -gt 600 ] || ! kill -0 $pid 2>/dev/null; then break; fi
  sleep 0.1
done
if kill -9 $pid 2>/dev/null; then ok; else bad "kill: the run ended before it could be killed"; fi
wait $pid 2>/dev/null
pid=
check kill-integrity "$k" "PRAGMA integrity_check" ok
check kill-status "$k" "SELECT group_concat(status, ' ') FROM (SELECT status FROM launches ORDER BY launch_id)" "completed completed unfinished"
check kill-run "$k" "SELECT finished_at IS NULL, exit_status IS NULL FROM runs" "1|1"
check kill-rows "$k" "SELECT count(*) > 0, min(id) = (SELECT first_run_id FROM launches WHERE launch_id = 3), max(id) = (SELECT last_run_id FROM launches WHERE launch_id = 3) FROM warp_runs WHERE launch_id = 3" "1|1|1"
check_metric kill-complete-metrics "$k" inst_per_warp 2 17.0
"$PTXEMU" stats "$k" >"$tmp/stats" 2>&1 && grep -q unfinished "$tmp/stats" && ok || { bad "stats of a killed trace"; cat "$tmp/stats"; }
# a later run appends to the recovered database
run "$k" "$d/memory.launch"
check append "$k" "SELECT count(*), max(run_id) FROM runs" "2|2"
check append-ids "$k" "SELECT launch_id, value FROM shared_load_transactions_per_request WHERE value > 1" "8|32.0"
check append-integrity "$k" "PRAGMA integrity_check" ok

# ---- the size cap ------------------------------------------------------------------------------
# alt_loop folds nothing (a row per 3 instructions): far more than 3 MB of
# rows; the launches keep their rows and full counters, the capped one is
# 'truncated', the file stays near the cap and the exit status is 4
c="$tmp/cap.db"
sed 's/arg u32 1000000/arg u32 3000/' "$d/kill.launch" >"$tmp/cap.launch"
cp "$d/trace_kernels.ptx" "$tmp/"
"$PTXEMU" run -q --trace "$c" --trace-max-size 3M "$tmp/cap.launch" >"$tmp/out" 2>&1
st=$?
[ $st -eq 4 ] && grep -q "reached its size cap of 3 MB" "$tmp/out" && ok || { bad "size cap: exit $st"; cat "$tmp/out"; }
check cap-integrity "$c" "PRAGMA integrity_check" ok
check cap-status "$c" "SELECT group_concat(status, ' ') FROM (SELECT status FROM launches ORDER BY launch_id)" "completed completed truncated"
check cap-ids "$c" "SELECT (SELECT max(id) FROM warp_runs) = last_run_id, last_run_id >= first_run_id FROM launches WHERE launch_id = 3" "1|1"
"$PTXEMU" run -q --trace "$tmp/full.db" --trace-level launch "$tmp/cap.launch" >/dev/null 2>&1
check cap-counters "$c" "SELECT inst_executed FROM launches WHERE launch_id = 3" "$(q "$tmp/full.db" "SELECT inst_executed FROM launches WHERE launch_id = 3")"
sz=$(wc -c <"$c")
[ "$sz" -lt $((8 << 20)) ] && ok || bad "size cap: the file has $sz bytes"
"$PTXEMU" run -q --trace "$c" --trace-max-size 12Q "$tmp/cap.launch" >"$tmp/out" 2>&1
[ $? -eq 64 ] && grep -q "trace-max-size wants a size" "$tmp/out" && ok || bad "bad --trace-max-size accepted"

# ---- refusing files that are not traces ------------------------------------------------------------
echo "not a database" >"$tmp/notes.txt"
"$PTXEMU" run -q --trace "$tmp/notes.txt" "$d/branches.launch" >"$tmp/out" 2>&1
st=$?
[ $st -eq 73 ] && grep -q "not a SQLite database" "$tmp/out" && [ "$(cat "$tmp/notes.txt")" = "not a database" ] && ok || { bad "non-database: exit $st"; cat "$tmp/out"; }
sqlite3 "$tmp/other.db" "CREATE TABLE t(x)"
"$PTXEMU" run -q --trace "$tmp/other.db" "$d/branches.launch" >"$tmp/out" 2>&1
[ $? -eq 73 ] && grep -q "not a ptxemu trace" "$tmp/out" && ok || { bad "foreign database"; cat "$tmp/out"; }
"$PTXEMU" run --trace-level warp "$d/branches.launch" >"$tmp/out" 2>&1
[ $? -eq 64 ] && ok || bad "--trace-level without --trace"

# ---- ptxemu stats ---------------------------------------------------------------------------------------
"$PTXEMU" stats "$m" >"$tmp/stats" 2>&1 || bad "stats: exit $?"
grep -q '^gld_transactions_per_request *4.00 *5.00 *4.00 *- *- *-$' "$tmp/stats" && ok || { bad "stats table"; cat "$tmp/stats"; }
"$PTXEMU" stats --csv "$m" >"$tmp/csv" 2>&1
grep -q '^5,smem_col,shared_load_transactions_per_request,32$' "$tmp/csv" && ok || { bad "stats --csv"; head -5 "$tmp/csv"; }
"$PTXEMU" stats --by-line --launch 5 "$m" >"$tmp/lines" 2>&1
grep -q ' 32.00 *- *- *ld.shared.u32 %r6, \[%r5\];$' "$tmp/lines" && ok || { bad "stats --by-line"; cat "$tmp/lines"; }

# ---- the H100's numbers for the address-determined metrics, where the golden cases are at hand ----
g="${PTXEMU_GOLDEN:-$srcdir/../shared/golden}"
[ -d "$g" ] || g=/work/shared/golden
golden() {   # CASE SQL-PER-LAUNCH HWNAME: compare, launch by launch
  case_dir="$g/$1"
  [ -f "$case_dir/case.txt" ] && [ -f "$case_dir/hw.txt" ] || return 0
  db="$tmp/golden-$1.db"
  rm -f "$db"
  if ! (cd "$case_dir" && "$PTXEMU" run -q --trace "$db" --trace-level mem case.txt >/dev/null 2>&1); then
    echo "note: golden $1 does not run yet; not compared"
    return 0
  fi
  grep '^launch ' "$case_dir/hw.txt" | while read -r _ idx kern rest; do
    want=$(echo "$rest" | tr ' ' '\n' | sed -n "/^$3\$/{n;p;}")
    [ -n "$want" ] || continue
    got=$(q "$db" "SELECT coalesce(($2), 0) FROM launches l WHERE l.launch_index = $idx")
    if [ "$got" = "$want" ]; then echo ok; else echo "FAIL: golden $1 launch $idx ($kern) $3: trace $got, H100 $want"; fi
  done >"$tmp/golden.out"
  while read -r line; do if [ "$line" = ok ]; then ok; else bad "${line#FAIL: }"; fi; done <"$tmp/golden.out"
}
if [ -d "$g" ]; then
  sec="SELECT sum(sectors) FROM mem_accesses m WHERE m.launch_id = l.launch_id AND space_id = 0"
  golden misaligned_read "$sec AND kind_id = 0" gld_sectors
  golden misaligned_read "$sec AND kind_id = 1" gst_sectors
  golden smem_square "SELECT sum(conflicts) FROM mem_accesses m WHERE m.launch_id = l.launch_id AND space_id = 1 AND kind_id = 0" shared_ld_bank_conflicts
  golden smem_square "SELECT sum(conflicts) FROM mem_accesses m WHERE m.launch_id = l.launch_id AND space_id = 1 AND kind_id = 1" shared_st_bank_conflicts
  golden smem_square "SELECT sum(wavefronts) FROM mem_accesses m WHERE m.launch_id = l.launch_id AND space_id = 1 AND kind_id = 0" shared_ld_wavefronts
fi
finish
