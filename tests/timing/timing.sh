#!/bin/sh
# tests/timing/timing.sh - the SM side of the timing model: warp-scheduler
# policies, stall reasons, the timing columns of traces, architecture checks
# at launch, and the SM block of GPU configurations.  Kernels: timing.ptx.
. "$srcdir/tests/lib.sh"
need_sqlite3
d="$srcdir/tests/timing"
k="$d/timing.ptx"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-timing.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

expect() {   # NAME VALUE: VALUE must be 1 (a SQL condition that held)
  if [ "$2" = 1 ]; then ok; else bad "$1 (got '$2')"; fi
}
trace() {   # DB KERNEL BLOCK BUFFER-BYTES MORE-ARGS...: a timed run with a warp-level trace
  db=$1; kern=$2; block=$3; bytes=$4; shift 4
  rm -f "$db"
  if "$PTXEMU" run -q --timing --trace "$db" --trace-level warp "$k" --kernel "$kern" --block "$block" \
       -e "buffer b $bytes zero" --arg ptr:b "$@" >"$tmp/out" 2>&1; then ok; else bad "run $kern $*: exit $?"; cat "$tmp/out"; fi
}

# ---- scheduler policies ------------------------------------------------------
# 32 warps, 8 per sub-partition (sub-partition 0: warps 0, 4, ..., 28), each
# with two runs of 24 independent FP32 instructions around a global load.
# (in PTX order: the runs are each warp's instructions 3 .. 26 and 28 .. 51;
# without instruction caches, whose misses every 8 instructions would make
# every policy switch warps)
"$PTXEMU" gpus --params h100 | sed 's/^icache_l0_bytes .*/icache_l0_bytes = 0/' > "$tmp/noic.gpu"
for s in gto lrr two_level; do trace "$tmp/$s.db" straight 1024 4096 --gpu "$tmp/noic.gpu" --sched "$s" --issue-order ptx; done
# how often sub-partition 0 switches from one warp to another
switches() {
  q "$1" "WITH r AS (SELECT warp, lag(warp) OVER (ORDER BY issue_cycle) AS prev FROM warp_runs WHERE warp % 4 = 0)
          SELECT sum(warp <> prev) FROM r"
}
gto=$(switches "$tmp/gto.db"); lrr=$(switches "$tmp/lrr.db")
# greedy: a warp keeps issuing while it can; round-robin: ready warps take turns
if [ "$gto" -gt 0 ] && [ "$lrr" -gt $((4 * gto)) ]; then ok; else bad "gto should switch warps far less often than lrr: gto $gto, lrr $lrr"; fi
# the first run of FP32 adds: each warp's instructions 3 .. 26 (no branches)
first_run() {   # DB WARP min|max
  q "$1" "SELECT $3(issue_cycle) FROM warp_runs WHERE warp = $2 AND wseq BETWEEN 3 AND 26"
}
# gto: warp 0 runs ahead: its first run is done before warp 4 starts its own
expect "gto: warp 0 runs ahead of warp 4" "$([ "$(first_run "$tmp/gto.db" 0 max)" -lt "$(first_run "$tmp/gto.db" 4 min)" ] && echo 1)"
# lrr: the warps of a sub-partition interleave: warp 4 starts before warp 0 is done
expect "lrr: warps 0 and 4 interleave" "$([ "$(first_run "$tmp/lrr.db" 4 min)" -lt "$(first_run "$tmp/lrr.db" 0 max)" ] && echo 1)"
# two_level: only 4 warps per sub-partition are active; the others start when
# an active one waits for its global load (lrr and gto start all at once)
pending_late() {
  q "$1" "SELECT (SELECT min(issue_cycle) FROM warp_runs WHERE warp IN (16, 20, 24, 28))
               > (SELECT min(issue_cycle) FROM warp_runs r JOIN instructions i USING (insn_id)
                  WHERE r.warp IN (0, 4, 8, 12) AND i.opname LIKE 'ld.global%')"
}
expect "two_level: pending warps start after an active warp's long-latency load" "$(pending_late "$tmp/two_level.db")"
expect "lrr: every warp starts before the first global load" "$([ "$(pending_late "$tmp/lrr.db")" = 0 ] && echo 1)"
# the policy is recorded with the run's GPU parameters
expect "runs.gpu_params names the scheduler" "$(q "$tmp/two_level.db" "SELECT gpu_params LIKE '%scheduler = two_level%' FROM runs")"
# the same results whatever the order
for s in lrr two_level; do
  if [ "$(q "$tmp/gto.db" "SELECT count(*), sum(threads) FROM warp_runs")" = "$(q "$tmp/$s.db" "SELECT count(*), sum(threads) FROM warp_runs")" ]; then ok
  else bad "$s executed other instructions than gto"; fi
done

# ---- issue order ---------------------------------------------------------------------
# scheduled (the default): ptxas's list scheduling moves straight's global
# load (PTX instruction 27) above the first run of adds; in PTX order it
# issues 28th.  Both orders compute the same buffer.
trace "$tmp/sched.db" straight 32 4096
trace "$tmp/ptx.db" straight 32 4096 --issue-order ptx
ldseq() { q "$1" "SELECT r.wseq FROM warp_runs r JOIN instructions i USING (insn_id) WHERE r.warp = 0 AND i.opname LIKE 'ld.global%'"; }
expect "scheduled: the load issues third" "$([ "$(ldseq "$tmp/sched.db")" = 2 ] && echo 1)"
expect "ptx order: the load issues 28th" "$([ "$(ldseq "$tmp/ptx.db")" = 27 ] && echo 1)"
# the trace names each instruction by its own PC, whatever order it issued in
expect "scheduled: the row of wseq 2 is the instruction at PC 27" \
  "$(q "$tmp/sched.db" "SELECT i.pc = 27 FROM warp_runs r JOIN instructions i USING (insn_id) WHERE r.warp = 0 AND r.wseq = 2")"
expect "scheduled: sooner than in PTX order" \
  "$([ "$(q "$tmp/sched.db" "SELECT cycles FROM launches")" -lt "$(q "$tmp/ptx.db" "SELECT cycles FROM launches")" ] && echo 1)"
for o in scheduled ptx; do
  "$PTXEMU" run -q --issue-order $o "$k" --kernel straight --block 256 -e "buffer b 4096 zero" --arg ptr:b \
    -e "dump b $tmp/$o.bin" >/dev/null 2>&1 || bad "run --issue-order $o"
done
if cmp -s "$tmp/scheduled.bin" "$tmp/ptx.bin" && [ -s "$tmp/ptx.bin" ]; then ok; else bad "both issue orders give the same buffer"; fi
if "$PTXEMU" run -q --issue-order fast "$k" --kernel straight >/dev/null 2>"$tmp/err"; then bad "--issue-order fast accepted"; \
  elif grep -q "scheduled or ptx" "$tmp/err"; then ok; else bad "--issue-order fast: message"; fi

# ---- instructions without SASS ---------------------------------------------------------
# copies: 8 register copies and a cvta.to.global issue with no cycle of
# their own; the add after them issues right after the first mov from %tid
# (without instruction caches: a new code line would cost its fetch; the
# %tid read an ALU move: lat_s2r 0)
trace "$tmp/copies.db" copies 32 64 --gpu "$tmp/noic.gpu" --set lat_s2r=0
expect "register copies take no issue slot" \
  "$(q "$tmp/copies.db" "SELECT max(issue_cycle) - min(issue_cycle) <= 8 FROM warp_runs r JOIN instructions i USING (insn_id)
     WHERE r.warp = 0 AND (i.opname LIKE 'mov%' OR i.opname LIKE 'add%')")"
expect "the copies' rows are in the trace" \
  "$(q "$tmp/copies.db" "SELECT count(*) = 9 FROM warp_runs r JOIN instructions i USING (insn_id) WHERE r.warp = 0 AND i.opname LIKE 'mov%'")"

# ---- instruction fetch -----------------------------------------------------------------
# tests/golden/timing_icache (measured on an H100): 4096 FMAs of straight-line
# code (64 KiB) once, and 256 FMAs looped 8 times; h100 models L0/L1
# instruction caches, and a copy with icache_l0_bytes = 0 does not.
ik="$srcdir/tests/golden/timing_icache/kernel.ptx"
fcycles() {   # GPU KERNEL REPS
  "$PTXEMU" run -q --gpu "$1" --stats "$tmp/st" "$ik" --kernel "$2" --block 32 -e "buffer out 128 zero" \
    --arg ptr:out --arg f32:0.5 --arg f32:0.25 --arg s32:"$3" >/dev/null 2>&1 && awk '{print $5}' "$tmp/st"
}
c4=$(fcycles h100 fetch_4k 1); n4=$(fcycles "$tmp/noic.gpu" fetch_4k 1)
c256=$(fcycles h100 fetch_256 8); n256=$(fcycles "$tmp/noic.gpu" fetch_256 8)
# cold 64 KiB: about 2.5 cycles per instruction (H100: 13723 cycles in all)
expect "icache: 64 KiB of cold code costs over 2 cycles per instruction" "$([ -n "$c4" ] && [ "$c4" -gt $((n4 + 4096)) ] && echo 1)"
# a 4 KiB loop stays in L0: the caches cost no more than the first pass
expect "icache: a loop that fits L0 pays only its first pass" "$([ -n "$c256" ] && [ $((c256 - n256)) -lt 1000 ] && echo 1)"
expect "icache: stall reason no_instruction in the trace" \
  "$(rm -f "$tmp/ic.db"; "$PTXEMU" run -q --gpu h100 --trace "$tmp/ic.db" "$ik" --kernel fetch_1k --block 32 -e "buffer out 128 zero" \
     --arg ptr:out --arg f32:0.5 --arg f32:0.25 --arg s32:1 >/dev/null 2>&1 &&
     q "$tmp/ic.db" "SELECT count(*) > 50 FROM warp_runs r JOIN stall_reasons s USING (stall_id) WHERE s.name = 'no_instruction'")"

# ---- memory requests out of time order ------------------------------------------------
# The reduction lab's reduceShflUnroll8 over 6 MiB on kepler: 64 warps per
# SMX issue eight loads each, most of whose sectors wait for an MSHR and so
# book L2 and DRAM for later cycles than other SMXs' requests booked after
# them.  They must not hold those up (memmodel/timeline.c): the stream
# reaches over half of the K40's 386 bytes per cycle (with one "free from"
# cycle per resource it fell to a tenth).
rk="$srcdir/examples/labs/02-reduction/reduce.ptx"
if "$PTXEMU" run -q --gpu kepler --stats "$tmp/rs" "$rk" --kernel reduceShflUnroll8 --grid 384 --block 512 \
     -e "buffer in 6291456 random s32 1 0 255" -e "buffer out 1536 zero" --arg ptr:in --arg ptr:out --arg u32:1572864 >/dev/null 2>&1; then
  expect "a kepler stream booked out of order keeps over half the DRAM bandwidth" \
    "$(awk '{ for (i = 1; i < NF; i++) { if ($i == "cycles") c = $(i+1); if ($i == "dram_read_bytes") b = $(i+1) } }
      END { print (c > 0 && b / c > 193) ? 1 : 0 }' "$tmp/rs")"
else bad "kepler reduceShflUnroll8 run failed"; fi

# ---- the code a launch reads ----------------------------------------------------------
# A launch reads its kernel's SASS from DRAM: a loop ptxas unrolls adds its
# unroll_factor (h100: 4) copies of the body, which .pragma "nounroll" keeps
# from it (64 iterations of a 5-instruction body: 320 bytes more).
for v in code_loop code_loop_nounroll; do
  "$PTXEMU" run -q --gpu h100 --stats "$tmp/$v.s" "$k" --kernel $v --grid 1 --block 32 \
    -e "buffer out 4 zero" --arg ptr:out --arg u32:64 >/dev/null 2>&1 || bad "code fetch: $v run failed"
done
stat_in() { awk -v k="$2" '{ for (i = 4; i < NF; i += 2) if ($i == k) print $(i+1) }' "$1"; }
body=$(( $(stat_in "$tmp/code_loop_nounroll.s" sass_inst_executed) / 64 ))
expect "a launch reads the 4 unrolled copies of its loop's $body SASS instructions as code" \
  "$([ "$body" -ge 4 ] && [ $(( $(stat_in "$tmp/code_loop.s" dram_read_bytes) - $(stat_in "$tmp/code_loop_nounroll.s" dram_read_bytes) )) -eq $((4 * body * 16)) ] && echo 1 || echo 0)"

# ... and a rem.u64's call site only: the subroutine's body is there once
# (isa/table.c seq_rem64: 6 of its 70 instructions a call), while every
# call executes all of them
for v in code_rem64_1 code_rem64_5; do
  "$PTXEMU" run -q --gpu h100 --stats "$tmp/$v.s" "$k" --kernel $v --grid 1 --block 32 \
    -e "buffer out 8 zero" --arg ptr:out --arg u32:64 >/dev/null 2>&1 || bad "code fetch: $v run failed"
done
expect "four more rem.u64 read four call sites (384 bytes) and execute four bodies (280 instructions)" \
  "$([ $(( $(stat_in "$tmp/code_rem64_5.s" dram_read_bytes) - $(stat_in "$tmp/code_rem64_1.s" dram_read_bytes) )) -eq 384 ] &&
     [ $(( $(stat_in "$tmp/code_rem64_5.s" sass_inst_executed) - $(stat_in "$tmp/code_rem64_1.s" sass_inst_executed) )) -eq 280 ] && echo 1 || echo 0)"

# ---- timing columns of traces ----------------------------------------------------
t="$tmp/gto.db"
# (the mul.wide that ptxas folds into the add reading it leaves no SASS: no
# issue cycle, no state)
expect "timing: one row per warp instruction, every one with SASS timed" \
  "$(q "$t" "SELECT count(*) = sum(n * reps) AND max(n) = 1 AND count(issue_cycle) = count(stall_id) AND count(*) - count(issue_cycle) =
             (SELECT count(*) FROM warp_runs JOIN instructions USING (insn_id) WHERE opname = 'mul.wide.u32') FROM warp_runs")"
expect "timing: a warp's issue cycles increase with its instruction count" \
  "$(q "$t" "SELECT count(*) = 0 FROM (SELECT issue_cycle, lag(issue_cycle) OVER (PARTITION BY block, warp ORDER BY wseq) AS prev FROM warp_runs)
             WHERE prev IS NOT NULL AND issue_cycle <= prev")"
expect "timing: complete_cycle > issue_cycle" "$(q "$t" "SELECT count(*) = 0 FROM warp_runs WHERE complete_cycle <= issue_cycle")"
expect "timing: a dependent instruction issues after its producer completes" \
  "$(q "$t" "SELECT count(*) = 0 FROM warp_runs a JOIN warp_runs b ON b.warp = a.warp AND b.wseq = a.wseq + 1
             JOIN instructions i ON i.insn_id = a.insn_id JOIN instructions j ON j.insn_id = b.insn_id
             WHERE i.opname LIKE 'ld.global%' AND j.opname = 'add.f32' AND b.issue_cycle < a.complete_cycle")"
expect "timing: one sub-partition issues at most one instruction per cycle" \
  "$(q "$t" "SELECT count(*) = 0 FROM (SELECT warp % 4 AS sp, issue_cycle FROM warp_runs WHERE issue_cycle IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1)")"
expect "timing: blocks have start and end cycles within the launch" \
  "$(q "$t" "SELECT count(*) = 1 AND min(b.start_cycle) > 0 AND max(b.end_cycle) <= max(l.cycles) AND min(b.end_cycle > b.start_cycle)
             FROM blocks b JOIN launches l USING (launch_id)")"
expect "timing: instructions issue while their block is resident" \
  "$(q "$t" "SELECT count(*) = 0 FROM warp_runs r JOIN blocks b ON b.launch_id = r.launch_id AND b.block = r.block
             WHERE r.issue_cycle < b.start_cycle OR r.issue_cycle >= b.end_cycle")"
expect "timing: launches.cycles and max_warps_per_sm" "$(q "$t" "SELECT cycles > 0 AND max_warps_per_sm = 64 FROM launches")"
expect "timing: sm_samples on the block's SM, 32 warps resident" \
  "$(q "$t" "SELECT count(*) > 10 AND count(DISTINCT sm) = 1 AND max(active_warps) = 32 AND max(eligible_warps) <= 32 FROM sm_samples")"
# (at most 32 of 64 warps: 50%; fewer as warps finish)
expect "timing: achieved occupancy from the samples, ipc from cycles" \
  "$(q "$t" "SELECT achieved_occupancy > 10 AND achieved_occupancy <= 50
             AND abs(achieved_occupancy - (SELECT 100.0 * avg(active_warps) / 64 FROM sm_samples)) < 1e-9
             AND abs(ipc - 1.0 * inst_executed / (SELECT cycles FROM launches)) < 1e-9 FROM launch_metrics")"
occ=$(q "$t" "SELECT printf('%.2f', achieved_occupancy) FROM launch_metrics")
if "$PTXEMU" stats "$t" >"$tmp/stats" 2>&1 && grep -q "achieved_occupancy \[%\] *$occ" "$tmp/stats" && grep -q "^ipc  *[0-9]" "$tmp/stats"; then ok
else bad "ptxemu stats shows achieved_occupancy and ipc"; cat "$tmp/stats"; fi
# a launch-level trace of a timed run still has blocks, samples and cycles
rm -f "$tmp/l.db"
"$PTXEMU" run -q --timing --trace "$tmp/l.db" --trace-level launch "$k" --kernel straight --grid 4 --block 256 -e 'buffer b 4096 zero' --arg ptr:b >/dev/null 2>&1
expect "timing: level launch: blocks, samples, occupancy" \
  "$(q "$tmp/l.db" "SELECT (SELECT count(*) FROM blocks WHERE end_cycle > start_cycle) = 4 AND (SELECT count(*) FROM warp_runs) = 0
                      AND (SELECT achieved_occupancy FROM launch_metrics) > 0")"
# a functional trace leaves the timing columns NULL
rm -f "$tmp/f.db"
"$PTXEMU" run -q --trace "$tmp/f.db" --trace-level warp "$k" --kernel straight --block 64 -e 'buffer b 4096 zero' --arg ptr:b >/dev/null 2>&1
expect "functional: no timing columns" \
  "$(q "$tmp/f.db" "SELECT count(issue_cycle) = 0 AND count(stall_id) = 0 AND (SELECT count(*) FROM sm_samples) = 0 FROM warp_runs")"

# ---- stall reasons ------------------------------------------------------------------
top_stall() {   # DB OPNAME-PATTERN: the most frequent stall reason of those instructions
  q "$1" "SELECT s.name FROM warp_runs r JOIN instructions i USING (insn_id) JOIN stall_reasons s USING (stall_id)
          WHERE i.opname LIKE '$2' GROUP BY s.name ORDER BY count(*) DESC, s.name LIMIT 1"
}
trace "$tmp/chase.db" chase 32 8 --arg u32:10
got=$(top_stall "$tmp/chase.db" add.u64)
if [ "$got" = long_scoreboard ]; then ok; else bad "a dependent global load chain waits on long_scoreboard, got '$got'"; fi
trace "$tmp/bar.db" barrier 128 512
# (the fourth waits for the release too: its arrival passes the SM's barrier unit first)
got=$(q "$tmp/bar.db" "SELECT sum(stall_id = 6 AND stall_cycles > 100) || ' ' || sum(6 IN (stall_id, stall2_id, stall3_id)) FROM warp_runs r JOIN instructions i USING (insn_id) WHERE i.opname IN ('mul.wide.u32', 'add.u64')")
if [ "$got" = "3 4" ]; then ok; else bad "three warps wait at the barrier for the fourth, which waits for the release: got '$got' (long barrier stalls, all)"; fi
# a barrier round grows by bar_arrive_cycles with each warp that arrives
# (tools/calibrate bar_1_warps 14.2, bar_32_warps 76.2 cycles on the H100)
rounds() {   # BLOCK [--gpu F]: cycles of 64 rounds of bar.sync, less those of 2 rounds
  r=$1; shift
  for n in 64 2; do trace "$tmp/br$n.db" bar_rounds "$r" 8 --arg u32:$n "$@"; done
  echo $(( $(q "$tmp/br64.db" "SELECT cycles FROM launches") - $(q "$tmp/br2.db" "SELECT cycles FROM launches") ))
}
r1=$(rounds 32); r32=$(rounds 1024)
"$PTXEMU" gpus --params h100 | sed 's/^bar_arrive_cycles .*/bar_arrive_cycles = 0/' > "$tmp/bar0.gpu"
z32=$(rounds 1024 --gpu "$tmp/bar0.gpu")
# 62 rounds of 32 warps: the unit's 2 cycles an arrival add 31 x 2 a
# round to what they take without it (the last arrival's own pass is
# what one warp's round has too)
if [ "$r32" -gt "$r1" ] && [ $((r32 - z32)) -ge $((62 * 31 * 2 * 8 / 10)) ] && [ $((r32 - z32)) -le $((62 * 32 * 2 * 12 / 10)) ]; then ok
else bad "barrier rounds: 62 rounds of 32 warps $r32 cycles, $z32 with bar_arrive_cycles 0 (want 31 x 2 cycles a round more), of one warp $r1"; fi
# a timed trace carries the model's hit rates: the same as --stats
rm -f "$tmp/hit.db"
"$PTXEMU" check -q --gpu h100 --trace "$tmp/hit.db" --trace-level launch --stats "$tmp/hit.stats" "$srcdir/tests/exec/async_cp.launch" >/dev/null 2>&1
got=$(q "$tmp/hit.db" "SELECT group_concat(printf('%.2f %d', l2_hit_rate, dram_read_bytes), ' ') FROM (SELECT * FROM launch_metrics ORDER BY launch_id)")
want=$(awk '{ for (i = 1; i < NF; i++) { if ($i == "l2_hit_pct") h = $(i+1); if ($i == "dram_read_bytes") d = $(i+1) } printf "%s%s %s", (NR > 1 ? " " : ""), h, d }' "$tmp/hit.stats")
if [ -n "$got" ] && [ "$got" = "$want" ]; then ok; else bad "trace hit rate and DRAM bytes '$got', --stats '$want'"; fi
# cp.async completes in the background: its issue does not wait for the
# data, the thread's wait_group/wait_all does (at least an L2 round trip)
rm -f "$tmp/cp.db"
"$PTXEMU" check -q --gpu h100 --trace "$tmp/cp.db" --trace-level warp "$srcdir/tests/exec/async_cp.launch" >/dev/null 2>&1
got=$(q "$tmp/cp.db" "WITH c AS (SELECT r.block, r.warp, min(r.issue_cycle) AS t FROM warp_runs r JOIN instructions i USING (insn_id)
                         WHERE i.opname LIKE 'cp.async.c%.shared.global' GROUP BY 1, 2),
                      w AS (SELECT r.block, r.warp, min(r.issue_cycle) AS t FROM warp_runs r JOIN instructions i USING (insn_id)
                         WHERE i.opname LIKE 'cp.async.wait%' GROUP BY 1, 2)
                 SELECT count(*) > 0 AND min(w.t - c.t) >= $(awk '$1 == "lat_l2" { print $3 }' "$srcdir/configs/h100.gpu")
                 FROM c JOIN w USING (block, warp)")
if [ "$got" = 1 ]; then ok; else bad "cp.async.wait waits for the copy's L2 round trip after the cp.async issue, got '$got'"; fi
got=$(top_stall "$tmp/lrr.db" add.f32)
if [ "$got" = not_selected ]; then ok; else bad "lrr: ready FP32 instructions mostly wait for their turn, got '$got'"; fi
got=$(top_stall "$tmp/gto.db" add.f32)
if [ "$got" = selected ]; then ok; else bad "gto: the greedy warp issues without waiting, got '$got'"; fi
expect "stall_breakdown sums to 100%" "$(q "$tmp/bar.db" "SELECT round(sum(value)) = 100 FROM stall_breakdown")"

# ---- architecture checks ------------------------------------------------------------
line=$(grep -n "redux.sync" "$k" | cut -d: -f1)
"$PTXEMU" run -q --gpu fermi "$k" --kernel newer -e 'buffer b 64 zero' --arg ptr:b >"$tmp/out" 2>&1
st=$?
if [ $st -eq 3 ] && grep -q "timing.ptx:$line: 'redux.sync.add.u32' needs sm_80 or newer; the modelled GPU fermi is sm_20" "$tmp/out"; then ok
else bad "redux on fermi: exit $st"; cat "$tmp/out"; fi
# only what the launched kernel can reach counts: the module's other kernels run on fermi
if "$PTXEMU" run -q --gpu fermi "$k" --kernel straight -e 'buffer b 4096 zero' --arg ptr:b >/dev/null 2>&1; then ok; else bad "straight runs on fermi next to redux"; fi
if "$PTXEMU" run -q --gpu a100 "$k" --kernel newer -e 'buffer b 64 zero' --arg ptr:b >/dev/null 2>&1; then ok; else bad "redux runs on a100 (sm_80)"; fi
if "$PTXEMU" run -q "$k" --kernel newer -e 'buffer b 64 zero' --arg ptr:b >/dev/null 2>&1; then ok; else bad "redux runs in functional mode"; fi

# ---- integer pipes and the launch's code ------------------------------------------------
# one warp, PTX order: 32 independent adds take the ALU and the FMA pipe in
# turn, 32 independent xors only the ALU (ii_int 2): the adds issue about
# twice as fast (wseq 2 .. 33 and 34 .. 65; no instruction caches, whose
# line fills would pace both)
trace "$tmp/pipes.db" intpipes 32 64 --gpu "$tmp/noic.gpu" --issue-order ptx
span() { q "$tmp/pipes.db" "SELECT max(issue_cycle) - min(issue_cycle) FROM warp_runs WHERE wseq BETWEEN $1 AND $2 AND issue_cycle IS NOT NULL"; }
adds=$(span 2 33); xors=$(span 34 65)
if [ -n "$adds" ] && [ -n "$xors" ] && [ $((adds * 3)) -lt $((xors * 2)) ]; then ok; else bad "adds should issue faster than xors: adds $adds, xors $xors cycles"; fi
# the kernel's code reaches the SM icache_launch_cycles after the first block
# starts: the warp's first instruction waits that long (less the L0 fill it
# overlaps), as no_instruction
for c in 0 500; do trace "$tmp/code$c.db" straight 32 4096 --gpu h100 --set icache_launch_cycles=$c; done
first() { q "$1" "SELECT min(issue_cycle) FROM warp_runs WHERE issue_cycle IS NOT NULL"; }
f0=$(first "$tmp/code0.db"); f5=$(first "$tmp/code500.db")
if [ -n "$f0" ] && [ -n "$f5" ] && [ $((f5 - f0)) -ge 450 ] && [ $((f5 - f0)) -le 500 ]; then ok; else bad "code arrival: first issue at $f0 and $f5"; fi
expect "the first wait is no_instruction" "$(q "$tmp/code500.db" "SELECT stall_id = 13 AND stall_cycles >= 450 FROM warp_runs WHERE issue_cycle IS NOT NULL ORDER BY issue_cycle LIMIT 1")"

# ---- the immediate-constant cache and calls ----------------------------------------------
# what ptxas reads with ULDC (a 32-bit parameter, %ntid) misses the SM's
# immediate-constant cache one line after another: two lines wait twice
# as long as one (imc_miss; imc_miss_cycles 300 to stand out)
imc() {   # KERNEL: the imc_miss cycles of the warp
  trace "$tmp/$1.db" "$1" 32 64 --gpu h100 --set imc_miss_cycles=300 --set imc_miss_sm_cycles=0 --set imc_desc=0 --arg u32:5
  q "$tmp/$1.db" "SELECT coalesce(sum(CASE WHEN stall_id = 18 THEN stall_cycles ELSE 0 END + CASE WHEN stall2_id = 18 THEN stall2_cycles ELSE 0 END
                                 + CASE WHEN stall3_id = 18 THEN stall3_cycles ELSE 0 END), 0) FROM warp_runs"
}
two=$(imc consts); one=$(imc consts1)
if [ "$one" -ge 290 ] && [ "$one" -le 310 ] && [ "$two" -ge 590 ] && [ "$two" -le 610 ]; then ok; else bad "imc misses: one line $one, two lines $two cycles (300 each)"; fi
# %ntid read after %ctaid is an LDC (its miss waits as short_scoreboard), read
# before it a ULDC (imc_miss)
ldc=$(imc ntid_ldc); uldc=$(imc ntid_uldc)
if [ "$ldc" = 0 ] && [ "$uldc" -ge 290 ]; then ok; else bad "%ntid's constant: imc_miss $ldc cycles after %ctaid, $uldc before"; fi
# a division's SASS sequence holds each pipe for its own instructions on
# it: 16 warps of a sub-partition all dividing at once wait for the
# scheduler (not_selected) and the SFU (mio_throttle: I2F, MUFU.RCP, F2I),
# not for an integer pipe held by the whole sequence (lat_s2r 0: their
# %tid reads, one every s2r_cycles an SM, would stagger them)
trace "$tmp/rems.db" rems 512 1024 --gpu h100 --arg u32:7 --set lat_s2r=0
reason() { q "$tmp/rems.db" "SELECT coalesce(sum(CASE WHEN stall_id = $1 THEN stall_cycles ELSE 0 END + CASE WHEN stall2_id = $1 THEN stall2_cycles ELSE 0 END + CASE WHEN stall3_id = $1 THEN stall3_cycles ELSE 0 END), 0) FROM warp_runs"; }
ns=$(reason 2); mt=$(reason 8)
if [ -n "$ns" ] && [ -n "$mt" ] && [ "$ns" -gt $((2 * mt)) ]; then ok; else bad "a division's pipes: not_selected $ns, math_pipe_throttle $mt cycles"; fi
# MUFU reaches the special function unit through the MIO: two warps of a
# sub-partition waiting for it while the other's ex2 holds it show
# mio_throttle, never math_pipe_throttle (8 warps, 2 a sub-partition)
trace "$tmp/sfus.db" sfus 256 64 --gpu "$tmp/noic.gpu"
reason() { q "$tmp/sfus.db" "SELECT coalesce(sum(CASE WHEN stall_id = $1 THEN stall_cycles ELSE 0 END + CASE WHEN stall2_id = $1 THEN stall2_cycles ELSE 0 END
                                 + CASE WHEN stall3_id = $1 THEN stall3_cycles ELSE 0 END), 0)
                                 FROM warp_runs JOIN instructions USING (insn_id) WHERE opname LIKE 'ex2%'"; }
mio=$(reason 9); math=$(reason 8)
if [ "$mio" -gt 0 ] && [ "$math" -eq 0 ]; then ok; else bad "a busy special function unit: mio_throttle $mio, math_pipe_throttle $math cycles"; fi
# a return restores the registers its call saved: a local load (lat_l1,
# long_scoreboard) before the moves and the jump back (wait, the largest part)
trace "$tmp/calls.db" calls 32 64 --gpu h100 --set lat_l1=50 --set ret_cycles=110 --set call_sass=0 --set ret_sass=0
expect "a return's restore is a long_scoreboard of lat_l1" "$(q "$tmp/calls.db" "SELECT count(*) > 0 FROM warp_runs WHERE
  (stall_id = 3 AND stall_cycles = 50) OR (stall2_id = 3 AND stall2_cycles = 50) OR (stall3_id = 3 AND stall3_cycles = 50)")"
# the calling convention's SASS instructions (call_sass, ret_sass) issue
# with the call and the return of a device function: each a SASS
# instruction and a 'selected' cycle (one call a warp)
callrun() {   # CALL_SASS RET_SASS: "sass_inst_executed selected_cycles"
  trace "$tmp/cs.db" calls 32 64 --gpu h100 --set call_sass=$1 --set ret_sass=$2 --stats "$tmp/cs"
  echo "$(sed -n 's/.* sass_inst_executed \([0-9]*\).*/\1/p' "$tmp/cs")" \
       "$(q "$tmp/cs.db" "SELECT sum(n * reps) + sum(CASE WHEN stall_id = 1 THEN stall_cycles ELSE 0 END
                          + CASE WHEN stall2_id = 1 THEN stall2_cycles ELSE 0 END + CASE WHEN stall3_id = 1 THEN stall3_cycles ELSE 0 END)
                          FROM warp_runs WHERE stall_id IS NOT NULL")"
}
set -- $(callrun 0 0) $(callrun 10 7)
if [ $# -eq 4 ] && [ $(($3 - $1)) -eq 17 ] && [ $(($4 - $2)) -eq 17 ]; then ok
else bad "call_sass 10 and ret_sass 7: SASS instructions and selected cycles $1 $2 without, $3 $4 with (17 more each)"; fi

# ---- tensor cores ----------------------------------------------------------------------------
# mma issue cycles of warp 0 (lat_tensor 28, ii_tensor 7, no instruction cache)
mma_issues() {   # KERNEL MORE-ARGS...: the mma's issue cycles, comma-separated
  kern=$1; shift
  trace "$tmp/mma.db" "$kern" 32 64 --gpu h100 --set icache_l0_bytes=0 --set lat_tensor=28 --set ii_tensor=7 "$@"
  q "$tmp/mma.db" "SELECT group_concat(issue_cycle) FROM (SELECT issue_cycle FROM warp_runs JOIN instructions USING (insn_id)
                   WHERE warp = 0 AND opname LIKE 'mma%' ORDER BY wseq)"
}
gaps() { echo "$1" | awk -F, '{ for (i = 2; i <= NF; i++) printf("%s%d", (i > 2 ? " " : ""), $i - $(i - 1)) }'; }
# warp 0's cycles of a stall reason at the instruction N after its first one
# of an opcode
stall_of() {   # DB OPNAME N REASON-ID
  q "$1" "SELECT coalesce(sum(CASE WHEN stall_id = $4 THEN stall_cycles ELSE 0 END + CASE WHEN stall2_id = $4 THEN stall2_cycles ELSE 0 END
                         + CASE WHEN stall3_id = $4 THEN stall3_cycles ELSE 0 END), 0) FROM warp_runs r JOIN instructions i USING (insn_id)
                         WHERE r.warp = 0 AND i.opname LIKE '$2%' AND r.wseq = (SELECT min(wseq) FROM warp_runs r2 JOIN instructions i2 USING (insn_id)
                         WHERE r2.warp = 0 AND i2.opname LIKE '$2%') + $3"
}
# a dependent m16n8k8 chain: 16 of lat_tensor's 28 cycles scale with the
# work (half an m16n8k16's): 20 a step; without lat_tensor_work, shorter by
# twice the interval saved (7 -> 4, rounded): 22
w16=$(gaps "$(mma_issues mma_k8_chain --set lat_tensor_work=16)"); w0=$(gaps "$(mma_issues mma_k8_chain --set lat_tensor_work=0)")
if [ "$w16" = "20 20" ] && [ "$w0" = "22 22" ]; then ok; else bad "m16n8k8 chain steps: '$w16' with lat_tensor_work 16 (20 20), '$w0' without (22 22)"; fi
# independent fp64 m8n8k4 after a dependent one: lat_tensor, then
# ii_tensor_f64 apart (16); without it, four times the 16-bit rule's (14)
f16=$(gaps "$(mma_issues mma_f64_four --set ii_tensor_f64=16)"); f0=$(gaps "$(mma_issues mma_f64_four --set ii_tensor_f64=0)")
if [ "$f16" = "28 16 16" ] && [ "$f0" = "28 14 14" ]; then ok; else bad "fp64 mma issues: '$f16' with ii_tensor_f64 16 (28 16 16), '$f0' without (28 14 14)"; fi
# the dependent second one waits on the scoreboard: the first holds the
# pipe for 16 cycles, of which the NOP ptxas puts after a DMMA takes the
# second (selected): 14 cycles 'wait', the 12 to lat_tensor short_scoreboard
mma_issues mma_f64_four --set ii_tensor_f64=16 >/dev/null
dw=$(stall_of "$tmp/mma.db" mma 1 5); ds=$(stall_of "$tmp/mma.db" mma 1 4)
if [ "$dw" = 14 ] && [ "$ds" = 12 ]; then ok; else bad "a dependent fp64 mma: wait $dw (14), short_scoreboard $ds (12) cycles"; fi

# ---- barrier.cluster ------------------------------------------------------------------------
# a round in a cluster of two one-warp blocks: the stack pointer's LDC 1
# (ldc_stack), arrive 6 SASS instructions (3 when .relaxed), wait 4, ret 1,
# in each block
cluster_sass() {   # KERNEL: the launch's sass_inst_executed
  printf 'ptx %s/timing.ptx\nbuffer b 64 zero\nlaunch %s grid 2 1 1 block 32 1 1 shared 0 cluster 2 1 1\narg ptr b\n' "$(cd "$d" && pwd)" "$1" > "$tmp/cl.launch"
  "$PTXEMU" run -q --gpu h100 --stats "$tmp/cls" "$tmp/cl.launch" >/dev/null 2>&1 && sed -n 's/.* sass_inst_executed \([0-9]*\).*/\1/p' "$tmp/cls"
}
cb=$(cluster_sass cluster_bar); cr=$(cluster_sass cluster_bar_relaxed)
if [ "$cb" = 24 ] && [ "$cr" = 18 ]; then ok; else bad "barrier.cluster SASS instructions: $cb (24), relaxed $cr (18)"; fi

# ---- the block's own shared memory through the cluster's window ---------------------------
# own_chase's hops by mapa's generic address take lat_dsmem_own, those by
# the shared address lat_shared, whatever lat_dsmem_own is
own_hop() {   # GPU VIA-WINDOW: cycles a hop (200 hops less 100)
  for n in 100 200; do
    printf 'ptx %s/timing.ptx\nbuffer b 64 zero\nlaunch own_chase grid 1 1 1 block 32 1 1 shared 0 cluster 1 1 1\narg ptr b\narg u32 %s\narg u32 %s\n' \
      "$(cd "$d" && pwd)" "$n" "$2" > "$tmp/own.launch"
    "$PTXEMU" run -q --gpu "$1" --stats "$tmp/own$n" "$tmp/own.launch" >/dev/null 2>&1 || return
  done
  awk '{ for (i = 1; i < NF; i++) if ($i == "cycles") c[FILENAME] = $(i + 1) } END { print (c[ARGV[2]] - c[ARGV[1]]) / 100 }' "$tmp/own100" "$tmp/own200"
}
"$PTXEMU" gpus --params h100 | sed 's/^lat_dsmem_own .*/lat_dsmem_own = 123/' > "$tmp/own123.gpu"
"$PTXEMU" gpus --params h100 | sed 's/^lat_dsmem_own .*/lat_dsmem_own = 0/' > "$tmp/own0.gpu"
w123=$(own_hop "$tmp/own123.gpu" 1); w0=$(own_hop "$tmp/own0.gpu" 1); p123=$(own_hop "$tmp/own123.gpu" 0); p0=$(own_hop "$tmp/own0.gpu" 0)
if awk -v a="$w123" -v b="$w0" -v c="$p123" -v e="$p0" 'BEGIN { exit !(a - b >= 95 && a - b <= 101 && c == e && b - e <= 1 && e - b <= 1) }'; then ok
else bad "own shared memory by the cluster's window: $w123 cycles a hop at lat_dsmem_own 123, $w0 at 0; by its shared address $p123 and $p0 (the same)"; fi

# ---- scalar accesses ptxas merges ----------------------------------------------------------
# 8 ld.shared.f32 of consecutive words and 4 st.shared.f32 at a base ptxas
# knows to be 16-byte aligned issue as 2 LDS.128 and an STS.128 (9 SASS
# instructions fewer a warp than unmerged); with fuse_bytes = 8, as 4
# LDS.64 and 2 STS.64 (6 fewer); through a base of unknown alignment, none
stat_of() {   # FIELD KERNEL MORE-ARGS...: that --stats field of a one-warp launch of KERNEL
  field=$1; kern=$2; shift 2
  "$PTXEMU" run -q --stats "$tmp/st" "$k" --kernel "$kern" --block 32 "$@" >/dev/null 2>&1 && stat_in "$tmp/st" "$field"
}
sass() {   # KERNEL MORE-ARGS...: the launch's sass_inst_executed
  kern=$1; shift
  stat_of sass_inst_executed "$kern" --gpu h100 -e 'buffer b 64 zero' --arg ptr:b --arg u32:0 "$@"
}
s16=$(sass fuse_sym); s8=$(sass fuse_sym --set fuse_bytes=8); s0=$(sass fuse_sym --set fuse_bytes=0)
p16=$(sass fuse_param); p0=$(sass fuse_param --set fuse_bytes=0)
if [ -n "$s16" ] && [ -n "$s0" ] && [ $((s0 - s16)) -eq 9 ] && [ $((s0 - s8)) -eq 6 ] && [ -n "$p16" ] && [ "$p16" = "$p0" ]; then ok
else bad "merged accesses: SASS instructions $s16 (16-byte base), $s8 (fuse_bytes 8), $s0 (fuse_bytes 0), $p16 and $p0 (unknown alignment)"; fi
# ... and the values are the same as unmerged
"$PTXEMU" run -q --gpu h100 "$k" --kernel fuse_sym --block 32 -e 'buffer b 64 zero' --arg ptr:b --arg u32:0 -e "dump b $tmp/m1" >"$tmp/out" 2>&1 &&
"$PTXEMU" run -q "$k" --kernel fuse_sym --block 32 -e 'buffer b 64 zero' --arg ptr:b --arg u32:0 -e "dump b $tmp/m2" >>"$tmp/out" 2>&1 || cat "$tmp/out"
if cmp -s "$tmp/m1" "$tmp/m2" && [ -s "$tmp/m1" ]; then ok; else bad "merged accesses change results"; fi
# ... and the counters count the merged access's wavefronts, as the profiler
# counts the SASS: fewer than the 8 one-wavefront loads (broadcasts), which
# fuse_bytes 0 and a functional run (no merging) count
wfs() {   # MORE-ARGS...: fuse_sym's shared_ld_wavefronts
  stat_of shared_ld_wavefronts fuse_sym -e 'buffer b 64 zero' --arg ptr:b --arg u32:0 "$@"
}
w16=$(wfs --gpu h100); w0=$(wfs --gpu h100 --set fuse_bytes=0); wf=$(wfs)
if [ "$w0" = 8 ] && [ "$wf" = 8 ] && [ -n "$w16" ] && [ "$w16" -lt 8 ]; then ok
else bad "merged accesses' wavefronts: $w16 (merged), $w0 (fuse_bytes 0), $wf (functional)"; fi
# ... and a merged load writes all of its registers at once: within ptxas's
# register budget (ptxas_regs 32) the issue order starts 3 of the 8 groups'
# loads before the first add reads one, every group's without a budget
groups_ahead() {   # PTXAS_REGS: groups whose loads issue before the first add
  rm -f "$tmp/fg.db"
  "$PTXEMU" run -q --gpu h100 --set ptxas_regs=$1 --trace "$tmp/fg.db" --trace-level warp "$k" --kernel fused_groups --block 32 \
    -e 'buffer b 64 zero' --arg ptr:b --arg u32:1 >"$tmp/out" 2>&1 || cat "$tmp/out"
  sqlite3 "$tmp/fg.db" "WITH l AS (SELECT r.id, i.ptx_line, i.opname FROM warp_runs r JOIN instructions i USING (insn_id)),
    a AS (SELECT min(id) AS first_add FROM l WHERE opname LIKE 'add.f32%'), z AS (SELECT min(ptx_line) AS z FROM l WHERE opname LIKE 'ld.shared%')
    SELECT (max(ptx_line) - z) / 15 + 1 FROM l, a, z WHERE opname LIKE 'ld.shared%' AND id < first_add"
}
fg32=$(groups_ahead 32); fg255=$(groups_ahead 255)
if [ "$fg32" = 3 ] && [ "$fg255" = 8 ]; then ok; else bad "merged loads in the register budget: $fg32 groups ahead (want 3), $fg255 without a budget (8)"; fi

# special functions without .ftz: ptxas scales a denormal input and the
# result around the MUFU (ex2, lg2, rsqrt: FSETP, FMUL, MUFU, FMUL; rcp:
# two compares and selects, FMUL, MUFU, FMUL), but not for an ex2 of an
# ex2's result: 3 + 0 + 3 + 3 + 6 SASS instructions more than with .ftz
f1=$(sass sfu_ftz); f0=$(sass sfu_scaled)
if [ -n "$f1" ] && [ -n "$f0" ] && [ $((f0 - f1)) -eq 15 ]; then ok; else bad "scaled special functions: SASS instructions $f0 (no .ftz), $f1 (.ftz)"; fi
# cp.async: sm_90 ptxas puts three predicated-off LDS before each LDGSTS
# (cpasync0's pointer, which nothing reads, is loaded as cpasync1's is;
# the memory descriptor's ULDC, imc_desc, left out)
c1=$(sass cpasync1 --set ldc_at_use=0 --set imc_desc=0); c0=$(sass cpasync0 --set ldc_at_use=0 --set imc_desc=0)
if [ -n "$c1" ] && [ -n "$c0" ] && [ $((c1 - c0)) -eq 4 ]; then ok; else bad "cp.async: SASS instructions $c1 with one, $c0 without"; fi
# in a chain of dependent ex2, the scaling's cycles (sfu_denorm_cycles) and
# the SFU held by the warp's previous MUFU (ii_sfu) are 'wait', the rest of
# the MUFU's latency short_scoreboard: the second ex2 waits
# sfu_denorm_cycles + ii_sfu - 1 cycles, less the 3 in which the first's
# other SASS instructions issue ('selected'), as 'wait', the third ii_sfu - 1
trace "$tmp/ex2c.db" ex2_chain 32 64 --gpu "$tmp/noic.gpu" --set sfu_denorm_cycles=30 --set ii_sfu=8 --set lat_sfu=18
e2=$tmp/ex2c.db
w2=$(stall_of "$e2" ex2 1 5); s2=$(stall_of "$e2" ex2 1 4); w3=$(stall_of "$e2" ex2 2 5); s3=$(stall_of "$e2" ex2 2 4)
if [ "$w2" = 34 ] && [ "$w3" = 7 ] && [ -n "$s2" ] && [ "$s2" = "$s3" ] && [ "$s3" -gt 0 ]; then ok
else bad "a chain of ex2: wait $w2 and $w3, short_scoreboard $s2 and $s3 cycles (2nd and 3rd)"; fi

# ptxas combines a shift with the add that reads it (LEA), a mask with
# its test against zero (LOP3) and a compare with the predicate and that
# reads it (ISETP.AND): 3 SASS instructions fewer a warp with combine_ops;
# an add whose result is read twice stays
c1=$(sass combine_pairs --set combine_ops=1); c0=$(sass combine_pairs --set combine_ops=0)
if [ -n "$c1" ] && [ -n "$c0" ] && [ $((c0 - c1)) -eq 3 ]; then ok; else bad "combined pairs: SASS instructions $c1 (combine_ops 1), $c0 (0)"; fi
# ... and the steps of a chain through one register (combine_chain: 3)
c1=$(sass combine_chain --set combine_ops=1); c0=$(sass combine_chain --set combine_ops=0)
if [ -n "$c1" ] && [ -n "$c0" ] && [ $((c0 - c1)) -eq 3 ]; then ok; else bad "a chain's combined steps: SASS instructions $c1 (combine_ops 1), $c0 (0)"; fi

# ptxas computes what only a store uses just before it (ptxas_sink): in
# sink_store's loop the store's address comes after the hash, the
# induction update after the address and the compare last, so the branch
# waits lat_pred (13) after it; without ptxas_sink the compare issues while
# the hash is still being computed and the branch follows the store at
# once.  Same results.
trace "$tmp/sk1.db" sink_store 32 1024 --gpu "$tmp/noic.gpu"
trace "$tmp/sk0.db" sink_store 32 1024 --gpu "$tmp/noic.gpu" --set ptxas_sink=0
issue_at() {   # DB OPNAME-PATTERN TRIP: warp 0's issue cycle of that instruction in that trip (0: the first)
  q "$1" "SELECT issue_cycle FROM warp_runs r JOIN instructions i USING (insn_id) WHERE r.warp = 0 AND i.opname LIKE '$2'
          ORDER BY r.wseq LIMIT 1 OFFSET $3"
}
sk_ok=1
for trip in 2 3 4; do
  x1=$(issue_at "$tmp/sk1.db" 'xor%' $((2 * trip + 1))); c1=$(issue_at "$tmp/sk1.db" 'setp%' "$trip"); b1=$(issue_at "$tmp/sk1.db" 'bra%' "$trip")
  x0=$(issue_at "$tmp/sk0.db" 'xor%' $((2 * trip + 1))); c0=$(issue_at "$tmp/sk0.db" 'setp%' "$trip"); b0=$(issue_at "$tmp/sk0.db" 'bra%' "$trip")
  s0=$(issue_at "$tmp/sk0.db" 'st.%' "$trip")
  [ -n "$x1" ] && [ -n "$c1" ] && [ -n "$b1" ] && [ "$c1" -gt "$x1" ] && [ $((b1 - c1)) -eq 13 ] || sk_ok=0
  [ -n "$x0" ] && [ -n "$c0" ] && [ -n "$b0" ] && [ -n "$s0" ] && [ "$c0" -lt "$x0" ] && [ $((b0 - s0)) -eq 1 ] || sk_ok=0
done
if [ $sk_ok = 1 ]; then ok; else bad "ptxas_sink: last xor / setp / bra at $x1 / $c1 / $b1 (ptxas_sink 1), xor / setp / st / bra at $x0 / $c0 / $s0 / $b0 (0)"; fi
for v in 1 0; do
  "$PTXEMU" run -q --gpu h100 --set ptxas_sink=$v "$k" --kernel sink_store --block 32 -e 'buffer b 1024 zero' --arg ptr:b -e "dump b $tmp/sk$v.bin" >"$tmp/out" 2>&1 ||
    bad "sink_store ptxas_sink=$v: exit $?"
done
if cmp -s "$tmp/sk1.bin" "$tmp/sk0.bin" && [ -s "$tmp/sk1.bin" ]; then ok; else bad "ptxas_sink: the results differ"; fi

# if-conversion as sm_90 ptxas does it (tools/sass/ifconv_sweep.py): the
# odd lanes' if of 8 FMAs is predicated code (no branch_resolving), of 9 a
# branch that splits the warp; an if/else of 10 FMAs a path is predicated
# (ifconvert_else_max_insns 20), which ifconvert_max_insns alone would not
brs() {   # KERNEL MORE-ARGS...: the launch's stall_branch_resolving_pct (0 when absent)
  kern=$1; shift
  v=$(stat_of stall_branch_resolving_pct "$kern" --gpu h100 -e 'buffer b 128 zero' --arg ptr:b "$@") && echo "${v:-0}"
}
i8=$(brs ifconv_if8); i9=$(brs ifconv_if9); e20=$(brs ifconv_else20); e20s=$(brs ifconv_else20 --set ifconvert_else_max_insns=0)
if [ "$i8" = 0 ] && [ "$e20" = 0 ] && awk -v a="$i9" -v b="$e20s" 'BEGIN { exit !(a > 0 && b > 0) }'; then ok
else bad "if-conversion: branch_resolving % if of 8 '$i8', of 9 '$i9', if/else of 20 '$e20' ('$e20s' with ifconvert_else_max_insns 0)"; fi
# divergence: ifconv_if9's branch splits the warp (split_cycles,
# branch_resolving) and its odd lanes join the others after the if
# (reconverge_cycles: wait, but for the instruction buffer's refill at
# their PC, reconverge_refill_cycles: no_instruction)
div() {   # FIELD SPLIT RECONVERGE REFILL
  stat_of "$1" ifconv_if9 --gpu h100 -e 'buffer b 128 zero' --arg ptr:b --set split_cycles=$2 --set reconverge_cycles=$3 --set reconverge_refill_cycles=$4
}
c0=$(div cycles 0 0 0); cs=$(div cycles 100 0 0); cj=$(div cycles 0 100 40)
b0=$(div stall_branch_resolving_pct 0 0 0); bs=$(div stall_branch_resolving_pct 100 0 0)
n0=$(div stall_no_instruction_pct 0 100 0); nj=$(div stall_no_instruction_pct 0 100 40)
if [ "$((cs - c0))" = 100 ] && [ "$((cj - c0))" = 100 ] && awk -v b0="$b0" -v bs="$bs" -v n0="$n0" -v nj="$nj" 'BEGIN { exit !(bs > b0 + 10 && nj > n0 + 5) }'; then ok
else bad "divergence: cycles $c0, with a split of 100 $cs, a join of 100 $cj; branch_resolving % $b0 -> $bs; no_instruction % $n0 -> $nj with a refill of 40"; fi
# ... counted after ptxas's combining: 8 mul.wide + add.s64 pairs (16 PTX
# instructions, 8 IMAD.WIDEs) are predicated; with ifconvert_max_insns 7 a branch
w8=$(brs ifconv_wide8); w8s=$(brs ifconv_wide8 --set ifconvert_max_insns=7)
if [ "$w8" = 0 ] && awk -v a="$w8s" 'BEGIN { exit !(a > 0) }'; then ok
else bad "if-conversion after combining: branch_resolving % of 8 wide pairs '$w8' ('$w8s' with ifconvert_max_insns 7)"; fi
# ... and scheduled with the code around them (ifconvert_schedule): the two
# ifs' loads issue with the first one, in fewer cycles, the results those of
# a functional run
for v in 0 1; do
  "$PTXEMU" run -q --gpu h100 --set ifconvert_schedule=$v --stats "$tmp/is$v" "$k" --kernel ifconv_sched --block 32 \
    -e 'buffer b 512 ramp u32 1 1' --arg ptr:b -e "dump b $tmp/is$v.bin" >"$tmp/out" 2>&1 || bad "ifconv_sched ifconvert_schedule=$v: exit $?"
done
"$PTXEMU" run -q "$k" --kernel ifconv_sched --block 32 -e 'buffer b 512 ramp u32 1 1' --arg ptr:b -e "dump b $tmp/isf.bin" >"$tmp/out" 2>&1 ||
  bad "ifconv_sched functional: exit $?"
c0=$(stat_in "$tmp/is0" cycles); c1=$(stat_in "$tmp/is1" cycles)
if [ -n "$c0" ] && [ -n "$c1" ] && [ "$c1" -lt $((c0 - 500)) ] && cmp -s "$tmp/is1.bin" "$tmp/isf.bin" && cmp -s "$tmp/is0.bin" "$tmp/isf.bin"; then ok
else bad "ifconvert_schedule: ifconv_sched $c1 cycles against $c0 without, or results that differ from a functional run"; fi

# local memory interleaved by thread (emu/timing.c local_access): a warp
# whose lanes store to different offsets of their arrays writes 32 lines a
# store, one whose lanes use the same offset one line; with each thread's
# own offsets as addresses both wrote one line and took the same cycles
for v in 0 1; do
  "$PTXEMU" run -q --gpu h100 --stats "$tmp/lw$v" "$k" --kernel local_walk --block 256 \
    -e 'buffer b 1024 zero' --arg ptr:b --arg u32:$v -e "dump b $tmp/lw$v.bin" >"$tmp/out" 2>&1 || bad "local_walk s=$v: exit $?"
done
c0=$(stat_in "$tmp/lw0" cycles); c1=$(stat_in "$tmp/lw1" cycles)
if [ -n "$c0" ] && [ -n "$c1" ] && [ "$c1" -gt $((c0 + c0 / 3)) ] && cmp -s "$tmp/lw0.bin" "$tmp/lw1.bin"; then ok
else bad "local memory layout: local_walk $c1 cycles with lane-divergent offsets against $c0 with one offset (or different results)"; fi

# the L1's data banks (l1_data_banks): L1-hit loads of 32 lines a request
# take a cycle per bank wavefront, so lanes 136 bytes apart (two a bank:
# l1_records) take well under the time of lanes on one bank (l1_reuse, 32
# wavefronts); counting lines instead, both take 32 cycles a request
mb=$(cd "$srcdir/tests/microbench/mb_l1reuse" && pwd)
awk -v d="$mb" '/^launch/ { n++ } n == 4 { exit } { if ($1 == "ptx") $2 = d "/" $2; if ($1 == "arg" && $2 == "s32") $3 = 32; print }' "$mb/case.txt" >"$tmp/l1r.txt"
l1cyc() {   # MORE-ARGS...: the cycles of launches 0 (l1_reuse, one bank) and 2 (l1_records, two lanes a bank)
  "$PTXEMU" run -q --gpu h100 --stats "$tmp/l1s" "$@" "$tmp/l1r.txt" >/dev/null 2>&1 &&
    awk '$2 == 0 || $2 == 2 { for (i = 1; i < NF; i++) if ($i == "cycles") printf "%s ", $(i+1) }' "$tmp/l1s"
}
set -- $(l1cyc); b1=$1; r1=$2; set -- $(l1cyc --set l1_data_banks=0); b0=$1; r0=$2
if [ -n "$r1" ] && [ -n "$r0" ] && [ $((3 * r1)) -lt $((2 * b1)) ] && [ $((10 * r0)) -gt $((8 * b0)) ]; then ok
else bad "l1_data_banks: one bank $b1 / two a bank $r1 cycles (lines: $b0 / $r0)"; fi

# a hit's own latency (memsys_global): its lines pass the tag stage
# l1_hit_lines_per_cycle a cycle, then its data-bank wavefronts come
# shared_replay_cycles apart; a chase by 32 lanes on 32 lines of one bank
# (mb_vary3 v3_chase_ca) takes 31 x 2 + 31 / 4 cycles a step more than one
# lane's, and 31 / 4 fewer without the tag stage
mb=$(cd "$srcdir/tests/microbench/mb_vary3" && pwd)
{ echo "ptx $mb/kernel.ptx"; echo 'buffer small 1048576 zero'; echo 'buffer out 65536 zero'
  echo 'launch v3_link grid 8 1 1 block 256 1 1 shared 0'; echo 'arg ptr small'; echo 'arg u32 1024'; echo 'arg u32 16'
  for ch in 1 32; do
    echo 'launch v3_chase_ca grid 1 1 1 block 256 1 1 shared 0'
    printf 'arg ptr small\narg u32 1024\narg u32 16\narg s32 1000\narg u32 %d\narg u32 1\narg ptr out\n' $ch
  done; } >"$tmp/ch.txt"
chstep() {   # MORE-ARGS...: cycles a step more with 32 lanes than with one (1000 steps)
  "$PTXEMU" run -q --gpu h200 --stats "$tmp/chs" "$@" "$tmp/ch.txt" >/dev/null 2>&1 &&
    awk '$2 == 1 || $2 == 2 { for (i = 1; i < NF; i++) if ($i == "cycles") c[$2] = $(i+1) } END { if (c[2]) printf "%.1f\n", (c[2] - c[1]) / 1000 }' "$tmp/chs"
}
h=$(chstep); h0=$(chstep --set l1_hit_lines_per_cycle=0); hb=$(chstep --set l1_data_banks=0)
if [ -n "$h" ] && [ -n "$h0" ] && [ -n "$hb" ] && awk -v h="$h" -v h0="$h0" -v hb="$hb" 'BEGIN { exit !(h > 62 && h < 78 && h - h0 > 6 && h - h0 < 10 && hb < 10) }'; then ok
else bad "a hit's own wavefronts and lines: 32 lanes $h cycles a step more than one ($h0 without the tag stage, $hb counting lines)"; fi

# blocks start and retire through each SM's units (emu/timing.c): 4
# blocks an SM spinning together retire one after another,
# cta_retire_cycles (122) each, so the grid ends 3 retires after one block
# would; 20 short blocks an SM start cta_launch_cycles (22) apart, so
# without retires they end about 19 x 22 cycles after one would, and with
# them 19 retires later than without
mbk=$(cd "$srcdir/tests/microbench/mb_blocks" && pwd)
bk() {   # GRID BLOCK SPIN MORE-ARGS...: the launch's cycles on the h200
  g=$1; b=$2; sp=$3; shift 3
  "$PTXEMU" run -q --gpu h200 --stats "$tmp/bk" "$mbk/kernel.ptx" --kernel bstart --grid "$g" --block "$b" \
    -e "buffer r $((g * 24)) zero" --arg ptr:r --arg s64:"$sp" "$@" >/dev/null 2>&1 && stat_in "$tmp/bk" cycles
}
k4=$(bk 528 128 3000); k1=$(bk 132 128 3000)
k20=$(bk 2640 64 0); k20r=$(bk 2640 64 0 --set cta_retire_cycles=0); k1r=$(bk 132 64 0 --set cta_retire_cycles=0)
if [ -n "$k4" ] && [ -n "$k1" ] && [ -n "$k20" ] && [ -n "$k20r" ] && [ -n "$k1r" ] &&
   awk -v a="$k4" -v b="$k1" -v d="$k20" -v e="$k20r" -v f="$k1r" 'BEGIN { x = a - b; y = e - f; exit !(x > 3 * 122 - 20 && x < 3 * 122 + 30 && y > 300 && y < 19 * 22 + 40 && d - e > 19 * 122 - 300) }'; then ok
else bad "block launch and retire: 4 blocks an SM $k4 cycles, one $k1; 20 short ones $k20, without retires $k20r, one without retires $k1r"; fi

# a loop with a CTA barrier in it is unrolled too (mb_vary vbar_only's SASS:
# 16 BARs a trip for the PTX's 4): its loop control once every 4 trips
mv=$(cd "$srcdir/tests/microbench/mb_vary" && pwd)
bu() { "$PTXEMU" run -q --gpu h200 --stats "$tmp/bu" "$mv/kernel.ptx" --kernel vbar_only --block 64 -e 'buffer o 256 zero' --arg ptr:o --arg s32:400 "$@" >/dev/null 2>&1 && stat_in "$tmp/bu" sass_inst_executed; }
b4=$(bu); b1=$(bu --set unroll_factor=1)
if [ -n "$b4" ] && [ -n "$b1" ] && [ "$b4" -lt $((b1 - b1 / 8)) ]; then ok
else bad "a barrier loop unrolled: vbar_only $b4 SASS instructions against $b1 without unrolling"; fi

# what ptxas does to a divergent switch (tests/microbench mb_div, mb_vary
# vswitch): an immediate a reader takes twice (fma x, x, K, K) needs a MOV
# where the path is, 4 a path of div_8, 32 a trip; at the top of a loop
# (mb_pipe f32) it is hoisted: no MOV a trip
md=$(cd "$srcdir/tests/microbench/mb_div" && pwd); mp=$(cd "$srcdir/tests/microbench/mb_pipe" && pwd)
kstat() {   # FIELD GPU DIR KERNEL BLOCK MORE-ARGS...: that --stats field of one launch of DIR/kernel.ptx's KERNEL
  f=$1; gp=$2; dir=$3; kern=$4; blk=$5; shift 5
  "$PTXEMU" run -q --gpu "$gp" --stats "$tmp/ks" "$dir/kernel.ptx" --kernel "$kern" --block "$blk" "$@" >/dev/null 2>&1 && stat_in "$tmp/ks" "$f"
}
dv() {   # KERNEL TRIPS MORE-ARGS...: sass_inst_executed of one warp
  kern=$1; n=$2; shift 2
  kstat sass_inst_executed h100 "$md" "$kern" 32 -e 'buffer o 4096 zero' --arg ptr:o --arg s32:"$n" "$@"
}
i1=$(dv div_8 16); i0=$(dv div_8 16 --set imm_in_register=0)
pp() { kstat sass_inst_executed h100 "$mp" pipe_f32_ilp1 32 -e 'buffer o 4096 zero' --arg ptr:o --arg s32:64 --arg u32:0 "$@"; }
p1=$(pp); p0=$(pp --set imm_in_register=0)
if [ -n "$i1" ] && [ -n "$i0" ] && [ $((i1 - i0)) -eq $((32 * 16)) ] && [ -n "$p1" ] && [ "$p1" = "$p0" ]; then ok
else bad "immediates in registers: div_8 $i1 SASS instructions ($i0 folding every immediate; want 512 more), mb_pipe f32 $p1 ($p0)"; fi
# ... hoisted too from an if/else ptxas predicates (div_2's, both paths
# computed every trip), where a branch would keep them in its paths
q1=$(dv div_2 16); q0=$(dv div_2 16 --set imm_in_register=0); qb=$(dv div_2 16 --set ifconvert_max_insns=0)
qb0=$(dv div_2 16 --set ifconvert_max_insns=0 --set imm_in_register=0)
if [ -n "$q1" ] && [ "$q1" = "$q0" ] && [ -n "$qb" ] && [ -n "$qb0" ] && [ "$qb" -gt "$qb0" ]; then ok
else bad "immediates in a predicated if/else: div_2 $q1 SASS instructions ($q0 folding every immediate; as a branch $qb, $qb0 folding)"; fi
# ... a loop keeps one hoisted compare (hoist_predicates 1): div_8's compare
# tree issues in the loop, div_2's one compare does not
h1=$(dv div_8 16); hn=$(dv div_8 16 --set hoist_predicates=1000); t1=$(dv div_2 16); tn=$(dv div_2 16 --set hoist_predicates=1000)
if [ -n "$h1" ] && [ -n "$hn" ] && [ "$h1" -gt "$hn" ] && [ -n "$t1" ] && [ "$t1" = "$tn" ]; then ok
else bad "hoisted compares: div_8 $h1 SASS instructions ($hn hoisting all), div_2 $t1 ($tn)"; fi
# ... and a path switch costs where a path reaches its join (emu/joins.c),
# not where the interpreter's lowest-PC-first order jumps past waiting
# threads: 2 paths a trip switch once and join once (a few trips' paths are
# predicated), where every change of group charged 2.87 a trip
mv2() {   # RECONVERGE MORE-ARGS...: cycles of vswitch on 2 paths, 64 trips
  r=$1; shift
  kstat cycles h100 "$mv" vswitch 32 -e 'buffer o 4096 zero' --arg ptr:o --arg s32:64 --arg u32:2 \
    --set reconverge_cycles="$r" --set reconverge_refill_cycles=0 "$@"
}
j0=$(mv2 0); j2=$(mv2 200); a0=$(mv2 0 --set joins_at_bsync=0); a2=$(mv2 200 --set joins_at_bsync=0)
if [ -n "$j0" ] && [ -n "$j2" ] && [ -n "$a0" ] && [ -n "$a2" ] &&
   awk -v a="$j0" -v b="$j2" -v c="$a0" -v d="$a2" 'BEGIN { j = (b - a) / 200 / 64; e = (d - c) / 200 / 64; exit !(j >= 1.5 && j <= 2.0 && e > 2.5) }'; then ok
else bad "path switches at joins: vswitch $j0 / $j2 cycles (reconverge 0 / 200), every change of group $a0 / $a2"; fi

# an add that took an add (IADD3) has three inputs: the ALU's alone, not
# the FMA pipe's IMAD.IADD; mb_vary3 v3_int on 32 warps is ALU-bound (its
# 4 x + (i + k) a trip with 4 SHF, 4 LOP3 and an ISETP: 12 of 19)
m3=$(cd "$srcdir/tests/microbench/mb_vary3" && pwd)
vi() { kstat cycles h200 "$m3" v3_int 1024 -e 'buffer o 65536 zero' --arg ptr:o --arg s32:400 --arg u32:739982445 --arg u32:1540483477 "$@"; }
c1=$(vi); c0=$(vi --set three_input_alu=0)
if [ -n "$c1" ] && [ -n "$c0" ] && [ $((c1 * 10)) -gt $((c0 * 11)) ]; then ok
else bad "three-input adds on the ALU: v3_int on 32 warps $c1 cycles, $c0 with either pipe (want 10 % more)"; fi
# ptxas's stall counts space a math pipe's instructions its interval apart:
# v3_dfma4's 4 chains on one warp issue a DFMA every 2 cycles (ii_fp64),
# 16 a trip and the loop's 3 instructions in ~43 cycles (the H200: 43.1),
# not waiting after the loop's add as if the DFMAs had gone a cycle apart
vd() {   # STEPS MORE-ARGS...: cycles of one warp
  n=$1; shift
  kstat cycles h200 "$m3" v3_dfma4 32 -e 'buffer o 4096 zero' --arg ptr:o --arg s32:"$n" --arg f64:0x3fefff972474538f --arg f64:0x3f747ae147ae147b "$@"
}
a1=$(vd 4000); b1=$(vd 2000); a0=$(vd 4000 --set static_pipe_ii=0); b0=$(vd 2000 --set static_pipe_ii=0)
d1=$(( ${a1:-0} - ${b1:-0} )); d0=$(( ${a0:-0} - ${b0:-0} ))
if [ -n "$b1" ] && [ -n "$b0" ] && [ "$d1" -gt $((500 * 40)) ] && [ "$d1" -lt $((500 * 46)) ] && [ "$d0" -gt $((500 * 48)) ]; then ok
else bad "static counts at the pipe's interval: v3_dfma4 $d1 cycles for 500 trips more (want 40-46 a trip), $d0 without (want more than 48)"; fi

# unrolling: loads count a quarter of an instruction in the body's size
# (unroll_load_cost), so the loop of 14 loads and 14 FFMAs is unrolled
# (fewer SASS instructions: its loop control once every 4 trips) and the one
# of 16 and 16 is not, whatever the loads count
unr() {   # KERNEL MORE-ARGS...: sass_inst_executed of 64 trips
  kern=$1; shift
  stat_of sass_inst_executed "$kern" --gpu h100 -e 'buffer p 8192 zero' -e 'buffer o 128 zero' --arg ptr:p --arg ptr:o --arg u32:64 --arg f32:1.0 "$@"
}
u14=$(unr unroll_ld14); u14f=$(unr unroll_ld14 --set unroll_load_cost=1); u16=$(unr unroll_ld16); u16f=$(unr unroll_ld16 --set unroll_load_cost=1)
if [ -n "$u14" ] && [ -n "$u14f" ] && [ "$u14" -lt "$u14f" ] && [ -n "$u16" ] && [ "$u16" = "$u16f" ]; then ok
else bad "unroll_load_cost: SASS instructions of the 14-load loop $u14 ($u14f counting loads whole), of the 16-load loop $u16 ($u16f)"; fi

# ptxas's register budget: budget's eight 16-byte loads do not all rise
# above the first multiply with ptxas_regs 32 (they would keep 32 loaded
# registers live); without a budget (0) all eight do.  Same results.
trace "$tmp/b32.db" budget 32 256
trace "$tmp/b0.db" budget 32 256 --set ptxas_regs=0
early() {   # DB: global loads issued before warp 0's first multiply
  q "$1" "SELECT count(*) FROM warp_runs r JOIN instructions i USING (insn_id) WHERE r.warp = 0 AND i.opname LIKE 'ld.global%'
          AND r.wseq < (SELECT min(r2.wseq) FROM warp_runs r2 JOIN instructions i2 USING (insn_id) WHERE r2.warp = 0 AND i2.opname LIKE 'mul%')"
}
e32=$(early "$tmp/b32.db"); e0=$(early "$tmp/b0.db")
if [ "$e0" = 8 ] && [ -n "$e32" ] && [ "$e32" -ge 2 ] && [ "$e32" -lt 8 ]; then ok; else bad "register budget: $e32 loads before the first use (32 registers), $e0 (no budget)"; fi
for r in 32 0; do
  "$PTXEMU" run -q --gpu h100 --set ptxas_regs=$r "$k" --kernel budget --block 32 -e 'buffer b 256 ramp f32 0 1' --arg ptr:b -e "dump b $tmp/bud$r" >"$tmp/out" 2>&1 ||
    cat "$tmp/out"
done
if cmp -s "$tmp/bud32" "$tmp/bud0" && [ -s "$tmp/bud0" ]; then ok; else bad "the register budget changes results"; fi

# shuffles move like arithmetic in the timed issue order: the second
# reduction's first shuffle issues before the first one's last (in PTX
# order it comes after it); the values are those of the functional run
trace "$tmp/shfl.db" shfl_pair 32 256
sh_wseq() {   # N: the issue order (wseq) of warp 0's N-th shuffle in PTX order
  q "$tmp/shfl.db" "SELECT r.wseq FROM warp_runs r JOIN instructions i USING (insn_id) WHERE r.warp = 0 AND i.opname LIKE 'shfl%'
                    ORDER BY i.pc LIMIT 1 OFFSET $(($1 - 1))"
}
a3=$(sh_wseq 3); b1=$(sh_wseq 4)
if [ -n "$a3" ] && [ -n "$b1" ] && [ "$b1" -lt "$a3" ]; then ok; else bad "shuffles in PTX order: the second chain's first at $b1, the first chain's last at $a3"; fi
"$PTXEMU" run -q --gpu h100 "$k" --kernel shfl_pair --block 32 -e 'buffer b 256 zero' --arg ptr:b -e "dump b $tmp/sh1" >"$tmp/out" 2>&1 &&
"$PTXEMU" run -q "$k" --kernel shfl_pair --block 32 -e 'buffer b 256 zero' --arg ptr:b -e "dump b $tmp/sh2" >>"$tmp/out" 2>&1 || cat "$tmp/out"
# (and they are the reductions: lane 0 sums 3 x lane and lane + 100 over lanes 0, 4, ..., 28)
x=$(od -A n -t u4 -N 8 "$tmp/sh1" 2>/dev/null | tr -s ' ')
if cmp -s "$tmp/sh1" "$tmp/sh2" && [ "$x" = " 336 912" ]; then ok; else bad "the timed issue order changes shuffle results (lane 0: '$x')"; fi

# read barriers: a store reads its registers when the L1 takes it from the
# LG queue, and the xor that writes its data register waits until then
# (long_scoreboard); the xor's own latency alone would make it 'wait'
trace "$tmp/war.db" store_war 1024 131072 --gpu "$tmp/noic.gpu"
got=$(top_stall "$tmp/war.db" xor.b32)
if [ "$got" = long_scoreboard ]; then ok; else bad "an instruction writing a queued store's register waits on long_scoreboard, got '$got'"; fi

# the L1's instruction queue (lg_queue): 32 warps' scattered stores (each
# holds the L1 for its 32 lines) fill a queue of 8, and the stores behind
# it wait to issue (lg_throttle) until the L1 starts the oldest; with no
# queue modelled (0) they all issue at once and wait only for the LSU.
# The L1 is the bottleneck either way: the same cycles and values
lg() {   # DEPTH: the stores' lg_throttle cycles, the last one's issue cycle
  trace "$tmp/lg$1.db" scatter_st 1024 131072 --gpu "$tmp/noic.gpu" --set lg_queue=$1 --stats "$tmp/lgs$1"
  q "$tmp/lg$1.db" "SELECT coalesce(sum(CASE WHEN stall_id = 10 THEN stall_cycles ELSE 0 END + CASE WHEN stall2_id = 10 THEN stall2_cycles ELSE 0 END
                               + CASE WHEN stall3_id = 10 THEN stall3_cycles ELSE 0 END), 0) || ' ' || max(issue_cycle)
                    FROM warp_runs r JOIN instructions i USING (insn_id) WHERE i.opname LIKE 'st.global%'"
}
set -- $(lg 8) $(lg 0)
c8=$(sed -n 's/.* cycles \([0-9]*\) .*/\1/p' "$tmp/lgs8"); c0=$(sed -n 's/.* cycles \([0-9]*\) .*/\1/p' "$tmp/lgs0")
if [ $# = 4 ] && [ "$1" -gt $((50 * $3)) ] && [ "$2" -gt $((4 * $4)) ] && [ -n "$c8" ] && [ "$c8" = "$c0" ]; then ok
else bad "a full LG queue: lg_throttle $1 cycles, last store at $2 (depth 8); $3 and $4 (no queue); cycles $c8 and $c0"; fi
for n in 8 0; do
  "$PTXEMU" run -q --gpu h100 --set lg_queue=$n "$k" --kernel scatter_st --block 1024 -e 'buffer b 131072 zero' --arg ptr:b -e "dump b $tmp/lgv$n" >"$tmp/out" 2>&1 ||
    cat "$tmp/out"
done
if cmp -s "$tmp/lgv8" "$tmp/lgv0" && [ -s "$tmp/lgv0" ]; then ok; else bad "the LG queue changes results"; fi

# ---- LDC: ld.const at a register address ------------------------------------------
# 16 warps each read 4 independent words of a constant array a step, 64 steps
# (4096 LDCs on one SM).  Without ldc_cycles a constant load is waited for as
# a fixed latency ('wait'); with it, on the short scoreboard, and the SM's
# constant port takes one every ldc_cycles: at 4.8 the port binds (the
# kernel takes at least 4096 * 4.8 cycles) and the MIO queue fills
# (mio_throttle).  The values do not change.
ldc() {   # LDC_CYCLES: cycles, short_scoreboard %, wait %, mio_throttle %
  "$PTXEMU" run -q --gpu h100 --set ldc_cycles=$1 --stats "$tmp/ldc$1" "$k" --kernel ldc_indep --block 512 \
    -e 'buffer b 2048 zero' --arg ptr:b -e "dump b $tmp/ldcv$1" >"$tmp/out" 2>&1 || cat "$tmp/out"
  tr ' ' '\n' <"$tmp/ldc$1" | awk '{ if (p) v[p] = $1; p = "" } /^(cycles|stall_short_scoreboard_pct|stall_wait_pct|stall_mio_throttle_pct)$/ { p = $1 }
    END { print v["cycles"] + 0, v["stall_short_scoreboard_pct"] + 0, v["stall_wait_pct"] + 0, v["stall_mio_throttle_pct"] + 0 }'
}
set -- $(ldc 0) $(ldc 2.4) $(ldc 4.8)
if [ $# = 12 ] && awk -v a="$*" 'BEGIN { split(a, v, " ")
     exit !(v[2] < 1 && v[3] > 20 && v[6] > v[7] && v[6] > 20 && v[9] >= 4096 * 4.8 && v[9] > v[5] && v[12] > 10 && v[8] < 5) }'; then ok
else bad "ld.const as LDC: cycles, short_scoreboard, wait, mio_throttle: '$*' (ldc_cycles 0, 2.4, 4.8)"; fi
if cmp -s "$tmp/ldcv0" "$tmp/ldcv4.8" && cmp -s "$tmp/ldcv0" "$tmp/ldcv2.4" && [ -s "$tmp/ldcv0" ]; then ok; else bad "ldc_cycles changes results"; fi

# a warp's LSU instructions issue mio_warp_interval cycles apart (the stall
# count ptxas writes after each LDS), counted as 'wait'; without it, the
# LSU's issue interval (ii_lsu, 2) alone spaces them
lds_gaps() {   # INTERVAL: the distinct gaps between warp 0's consecutive shared loads, and their reasons
  trace "$tmp/lds$1.db" lds_burst 32 64 --gpu "$tmp/noic.gpu" --set mio_warp_interval=$1
  q "$tmp/lds$1.db" "WITH l AS (SELECT r.issue_cycle - lag(r.issue_cycle) OVER (ORDER BY r.issue_cycle) AS gap, s.name AS why
                     FROM warp_runs r JOIN instructions i USING (insn_id) LEFT JOIN stall_reasons s USING (stall_id)
                     WHERE r.warp = 0 AND i.opname LIKE 'ld.shared%')
                     SELECT group_concat(DISTINCT gap) || ' ' || group_concat(DISTINCT why) FROM l WHERE gap IS NOT NULL"
}
got=$(lds_gaps 4)
if [ "$got" = "4 wait" ]; then ok; else bad "a warp's shared loads 4 cycles apart, on 'wait': got '$got'"; fi
got=$(lds_gaps 0)
if [ "$got" = "2 wait" ]; then ok; else bad "without mio_warp_interval the LSU's interval (2) spaces them: got '$got'"; fi

# loop-invariant code motion: the loop's setp of the lane's parity and the
# selp it feeds issue nothing with hoist_invariants (ptxas computes them
# before the loop): two SASS instructions fewer a trip, and fewer cycles;
# the result is the same
inv_run() {   # HOIST: "SASS-instructions cycles" of 100 trips
  "$PTXEMU" run -q --timing "$k" --kernel invariant_loop --block 32 -e 'buffer b 64 zero' --arg ptr:b --arg u32:100 \
    --gpu "$tmp/noic.gpu" --set hoist_invariants=$1 --stats "$tmp/inv$1" -e "dump b $tmp/invb$1" >"$tmp/out" 2>&1 || cat "$tmp/out"
  awk '{ for (i = 4; i < NF; i += 2) { if ($i == "sass_inst_executed") n = $(i+1); if ($i == "cycles") c = $(i+1) } } END { print n, c }' "$tmp/inv$1"
}
set -- $(inv_run 0); n0=$1 c0=$2
set -- $(inv_run 1); n1=$1 c1=$2
if [ "$((n0 - n1))" = 200 ] && [ "$c1" -lt "$c0" ] && cmp -s "$tmp/invb0" "$tmp/invb1"; then ok
else bad "hoisted invariants: SASS $n0 -> $n1 (want 200 fewer), cycles $c0 -> $c1"; fi

# special registers: %smid is read by S2R every trip, its reader waits
# lat_s2r cycles on the short scoreboard (an ALU move's latency, 'wait',
# without it); the branch still waits the stall count ptxas put on the
# multiply-add before it (its compare's 13 cycles less the 1 between them)
# however long the multiply-add waited (static_stalls), and issues right
# after it without; ptxas hoists %laneid's read out of the loop
sreg_gaps() {   # MORE-ARGS: warp 0's gaps mov->mad and mad->bra of the loop, with their reasons
  trace "$tmp/sreg.db" sreg_loop 32 128 --arg u32:10 --gpu "$tmp/noic.gpu" --set unroll_factor=1 --set lat_pred=13 "$@"
  q "$tmp/sreg.db" "WITH l AS (SELECT i.opname AS op, r.issue_cycle - lag(r.issue_cycle) OVER (ORDER BY r.issue_cycle) AS gap, s.name AS why
                     FROM warp_runs r JOIN instructions i USING (insn_id) LEFT JOIN stall_reasons s USING (stall_id)
                     WHERE r.warp = 0 AND i.opname IN ('mov.u32', 'mad.lo.u32', 'bra') AND r.issue_cycle > (SELECT min(r2.issue_cycle)
                           FROM warp_runs r2 JOIN instructions i2 USING (insn_id) WHERE r2.warp = 0 AND i2.opname = 'mad.lo.u32'))
                     SELECT group_concat(DISTINCT op || ':' || gap || ':' || why) FROM l WHERE op IN ('mad.lo.u32', 'bra')"
}
got=$(sreg_gaps --set lat_s2r=25 --set static_stalls=1)
case $got in *mad.lo.u32:25:short_scoreboard*bra:12:wait*|*bra:12:wait*mad.lo.u32:25:short_scoreboard*) ok ;; *) bad "S2R and stall counts: got '$got'" ;; esac
got=$(sreg_gaps --set lat_s2r=0 --set static_stalls=1)
case $got in *mad.lo.u32:25:short_scoreboard*) bad "lat_s2r 0 still waits on the scoreboard: '$got'" ;; *mad.lo.u32:*:wait*) ok ;; *) bad "lat_s2r 0: '$got'" ;; esac
got=$(sreg_gaps --set lat_s2r=25 --set static_stalls=0)
case $got in *bra:12:*) bad "static_stalls 0 keeps the stall count: '$got'" ;; *bra:[12]:*) ok ;; *) bad "static_stalls 0: '$got'" ;; esac
# with ldc_s2r_mio, S2R reads (and LDCs of pointer parameters) hold places
# in the MIO queue until the SM starts them: 16 warps reading %tid at
# once behind a queue of 4 and an S2R every 50 cycles wait as mio_throttle
mioq() {   # LDC_S2R_MIO: the launch's mio_throttle %
  "$PTXEMU" run -q --gpu h100 --set ldc_s2r_mio=$1 --set mio_queue=4 --set s2r_cycles=50 --stats "$tmp/mq$1" "$k" --kernel rems \
    --block 512 -e 'buffer b 1024 zero' --arg ptr:b --arg u32:7 >"$tmp/out" 2>&1 || cat "$tmp/out"
  v=$(stat_in "$tmp/mq$1" stall_mio_throttle_pct); echo "${v:-0}"
}
m0=$(mioq 0); m1=$(mioq 1)
if awk -v a="$m0" -v b="$m1" 'BEGIN { exit !(a < 1 && b > 30) }'; then ok; else bad "S2R in the MIO queue: mio_throttle $m0 % without, $m1 % with"; fi
# ldc_at_use: the pointers of a kernel that lets most threads leave are
# read (LDC) only by the warps that use them, one SASS instruction each; the
# answer is the same either way
early() {   # LDC_AT_USE N: SASS instructions of 16 warps, n threads staying
  "$PTXEMU" run -q --gpu h100 --set ldc_at_use=$1 --set ldc_stack=0 --stats "$tmp/ee$1_$2" "$k" --kernel early_exit --block 512 \
    -e 'buffer a 2048 ramp u32 0 1' -e 'buffer b 2048 zero' --arg ptr:a --arg ptr:b --arg u32:$2 -e "dump b $tmp/eeb$1_$2" >"$tmp/out" 2>&1 || cat "$tmp/out"
  stat_in "$tmp/ee$1_$2" sass_inst_executed
}
e0=$(early 0 32); e1=$(early 1 32); f0=$(early 0 512); f1=$(early 1 512)
if [ -n "$e0" ] && [ "$((e0 - e1))" = 30 ] && [ "$f0" = "$f1" ] && cmp -s "$tmp/eeb0_32" "$tmp/eeb1_32" && cmp -s "$tmp/eeb0_512" "$tmp/eeb1_512"; then ok
else bad "ldc_at_use: SASS $e0 -> $e1 with 1 warp of 16 staying (want 30 fewer), $f0 -> $f1 with all"; fi
# ldc_mio_hold: 16 warps that each make three LDCs at once (the stack
# pointer's, two pointers') behind a queue of 8: with places freed as the
# constant port starts them, a few cycles' wait; held 200 cycles more, the
# queue stays full and the warps wait to issue (mio_throttle)
lh() {   # HOLD: the launch's mio_throttle %
  "$PTXEMU" run -q --gpu h100 --set ldc_mio_hold=$1 --set mio_queue=8 --stats "$tmp/lh$1" "$k" --kernel early_exit --block 512 \
    -e 'buffer a 2048 ramp u32 0 1' -e 'buffer b 2048 zero' --arg ptr:a --arg ptr:b --arg u32:512 >"$tmp/out" 2>&1 || cat "$tmp/out"
  v=$(stat_in "$tmp/lh$1" stall_mio_throttle_pct); echo "${v:-0}"
}
h0=$(lh 0); h1=$(lh 200)
if awk -v a="$h0" -v b="$h1" 'BEGIN { exit !(a < 10 && b > 40) }'; then ok; else bad "ldc_mio_hold: mio_throttle $h0 % with places freed at the port, $h1 % held 200 cycles"; fi
sass_of() {   # KERNEL: SASS instructions of 10 trips
  "$PTXEMU" run -q --timing "$k" --kernel "$1" --block 32 -e 'buffer b 128 zero' --arg ptr:b --arg u32:10 \
    --gpu "$tmp/noic.gpu" --set unroll_factor=1 --stats "$tmp/sass_$1" >"$tmp/out" 2>&1 || cat "$tmp/out"
  stat_in "$tmp/sass_$1" sass_inst_executed
}
n_smid=$(sass_of sreg_loop); n_lane=$(sass_of lane_loop)
if [ -n "$n_smid" ] && [ "$((n_smid - n_lane))" = 10 ]; then ok; else bad "%smid read each trip, %laneid hoisted: SASS $n_smid vs $n_lane"; fi

# l1_shared_pipe: an LDS waits behind a gather's 32 L1 lines on the SM's one
# data pipe, and the add reading both waits on its short scoreboard too (the
# lines counted, not the data banks: with them the gather's own 32
# wavefronts return after the LDS, and the add waits for the gather)
gl() {   # PIPE: the launch's short_scoreboard %
  "$PTXEMU" run -q --gpu h100 --set l1_shared_pipe=$1 --set l1_data_banks=0 --stats "$tmp/gl$1" "$k" --kernel gather_lds --block 128 \
    -e 'buffer b 16384 zero' --arg ptr:b --arg u32:50 >"$tmp/out" 2>&1 || cat "$tmp/out"
  v=$(stat_in "$tmp/gl$1" stall_short_scoreboard_pct); echo "${v:-0}"
}
g0=$(gl 0); g1=$(gl 1)
if awk -v a="$g0" -v b="$g1" 'BEGIN { exit !(a < 5 && b > 20) }'; then ok; else bad "l1_shared_pipe: short_scoreboard $g0 % apart, $g1 % on one pipe"; fi
# store_drain: warps leaving after scattered stores (32 lines each) wait
# until the L1 has taken them: 'drain'; l1_accept_cycles: gathers of 32
# lines leave the LG queue at the L1's request rate, so 32 warps behind a
# queue of 8 wait on their results, not to issue
sd() {   # STORE_DRAIN: the launch's drain %
  "$PTXEMU" run -q --gpu h100 --set store_drain=$1 --stats "$tmp/sd$1" "$k" --kernel scatter_st --block 512 \
    -e 'buffer b 65536 zero' --arg ptr:b >"$tmp/out" 2>&1 || cat "$tmp/out"
  v=$(stat_in "$tmp/sd$1" stall_drain_pct); echo "${v:-0}"
}
d0=$(sd 0); d1=$(sd 1)
if awk -v a="$d0" -v b="$d1" 'BEGIN { exit !(a < 1 && b > 50) }'; then ok; else bad "store_drain: drain $d0 % without, $d1 % with"; fi
# l1_store_buffer_bytes, store_drain 2: 16 warps store a word into each of
# 32 sectors three times, writing the address register between the stores.
# The L1 takes the stores into its buffer at once (their registers read)
# and the warps wait at their exit until the pipeline has started their
# stores ('drain', mb_store store_w1 on the H100: 67-76 %, long_scoreboard
# 1-5 %); a buffer of 4 stores holds the warps at the next store's address
# (long_scoreboard), as does the L1 that takes a store only when the write
# link's queue has room for it (no buffer); the cycles are the link's
s3() {   # BUFFER DRAIN: "cycles long_scoreboard% drain%"
  "$PTXEMU" run -q --gpu h100 --set l1_store_buffer_bytes=$1 --set store_drain=$2 --stats "$tmp/s3" "$k" --kernel store3 --block 512 \
    -e 'buffer b 262144 zero' --arg ptr:b >"$tmp/out" 2>&1 || cat "$tmp/out"
  echo "$(stat_in "$tmp/s3" cycles) $(stat_in "$tmp/s3" stall_long_scoreboard_pct) $(stat_in "$tmp/s3" stall_drain_pct)"
}
set -- $(s3 4096 2) $(s3 512 2) $(s3 0 1)
if [ "$1" = "$4" ] && [ "$1" = "$7" ] && awk -v l="$2" -v d="$3" -v l4="$5" -v l0="$8" 'BEGIN { exit !(l < 10 && d > 60 && l4 > 20 && l0 > 20) }'; then ok
else bad "store3: cycles/long_scoreboard/drain: buffer of 4096 bytes $1/$2/$3 (want long_scoreboard < 10, drain > 60), of 512 $4/$5/$6, none $7/$8/$9 (want long_scoreboard > 20, the same cycles)"; fi
la() {   # L1_ACCEPT_CYCLES: the launch's lg_throttle %
  "$PTXEMU" run -q --gpu h100 --set l1_accept_cycles=$1 --set lg_queue=8 --stats "$tmp/la$1" "$k" --kernel gather_lds --block 1024 \
    -e 'buffer b 131072 zero' --arg ptr:b --arg u32:20 >"$tmp/out" 2>&1 || cat "$tmp/out"
  v=$(stat_in "$tmp/la$1" stall_lg_throttle_pct); echo "${v:-0}"
}
# %warpid's SHF and SGXT wait for its S2R, and the warp with them: a %smid
# read after it adds about an S2R's latency to each trip
wl() {   # KERNEL: cycles of 100 trips of one warp
  "$PTXEMU" run -q --gpu h100 --stats "$tmp/wl_$1" "$k" --kernel "$1" --block 32 -e 'buffer b 128 zero' --arg ptr:b --arg u32:100 \
    >"$tmp/out" 2>&1 || cat "$tmp/out"
  stat_in "$tmp/wl_$1" cycles
}
w1=$(wl warpid_loop); w2=$(wl warpid_smid_loop)
if [ -n "$w1" ] && [ -n "$w2" ] && [ $((w2 - w1)) -ge 1000 ]; then ok; else bad "%warpid then %smid: $w2 cycles for 100 trips, $w1 with %warpid alone (want 10 or more a trip more; 0 when they overlap)"; fi
# fold_imm_banks: FFMAs whose other operands only immediate moves write
# read one register bank, not three: no bank conflict
fb() {   # FOLD_IMM_BANKS: cycles
  "$PTXEMU" run -q --gpu h100 --set fold_imm_banks=$1 --stats "$tmp/fb$1" "$k" --kernel fold_banks --block 32 \
    -e 'buffer b 64 zero' --arg ptr:b --arg u32:200 >"$tmp/out" 2>&1 || cat "$tmp/out"
  stat_in "$tmp/fb$1" cycles
}
fb0=$(fb 0); fb1=$(fb 1)
if [ -n "$fb0" ] && [ -n "$fb1" ] && [ $((fb1 * 11)) -lt $((fb0 * 10)) ]; then ok; else bad "fold_imm_banks: $fb0 cycles with the immediates' registers read, $fb1 folded"; fi
# iter_read_wait: 32 warps storing registers their loop never writes into
# shared memory wait once a trip for their stores to have read them
# (short_scoreboard), not only for the full MIO queue; the same cycles
ir() {   # ITER_READ_WAIT: cycles, stall_short_scoreboard_pct
  "$PTXEMU" run -q --gpu h100 --set iter_read_wait=$1 --stats "$tmp/ir$1" "$k" --kernel sts_loop --block 1024 \
    -e 'buffer b 64 zero' --arg ptr:b --arg u32:100 >"$tmp/out" 2>&1 || cat "$tmp/out"
  echo "$(stat_in "$tmp/ir$1" cycles) $(stat_in "$tmp/ir$1" stall_short_scoreboard_pct)"
}
set -- $(ir 0); c0=$1; s0=${2:-0}; set -- $(ir 1); c1=$1; s1=${2:-0}
if [ -n "$c0" ] && [ "$c0" = "$c1" ] && awk -v a="$s0" -v b="$s1" 'BEGIN { exit !(a < 1 && b > 20) }'; then ok
else bad "iter_read_wait: short_scoreboard $s0 % -> $s1 %, cycles $c0 -> $c1"; fi
# imc_desc: a warp reads the memory descriptor with ULDC.64 before its
# first global access: one SASS instruction more, and the SM's first warp
# waits for its immediate-constant miss (a kernel of pointers only: no other ULDC)
idesc() {   # IMC_DESC: sass_inst_executed and stall_imc_miss_pct
  "$PTXEMU" run -q --gpu h100 --set imc_desc=$1 --stats "$tmp/id$1" "$k" --kernel scatter_st --block 32 \
    -e 'buffer b 65536 zero' --arg ptr:b >"$tmp/out" 2>&1 || cat "$tmp/out"
  echo "$(stat_in "$tmp/id$1" sass_inst_executed) $(stat_in "$tmp/id$1" stall_imc_miss_pct)"
}
set -- $(idesc 0); i0=$1; m0=${2:-0}; set -- $(idesc 1); i1=$1; m1=${2:-0}
if [ -n "$i0" ] && [ "$((i1 - i0))" = 1 ] && awk -v a="$m0" -v b="$m1" 'BEGIN { exit !(a == 0 && b > 10) }'; then ok
else bad "imc_desc: SASS $i0 -> $i1 (want one more), imc_miss $m0 % -> $m1 %"; fi
# lsu_port: 16 warps of L1-hit loads wait at the SM's LSU port to
# dispatch (dispatch_stall), not in the LG queue (lg_throttle) or in the L1
# for their data (long_scoreboard); the L1's rate, and the cycles, as before
lp() {   # LSU_PORT: the launch's cycles, dispatch_stall %, lg_throttle %, long_scoreboard %
  "$PTXEMU" run -q --gpu h100 --set lsu_port=$1 --stats "$tmp/lp$1" "$k" --kernel l1_hits --block 512 \
    -e 'buffer b 4096 zero' --arg ptr:b --arg u32:200 >"$tmp/out" 2>&1 || cat "$tmp/out"
  for m in cycles stall_dispatch_stall_pct stall_lg_throttle_pct stall_long_scoreboard_pct; do v=$(stat_in "$tmp/lp$1" $m); printf '%s ' "${v:-0}"; done
}
p0=$(lp 0); p1=$(lp 1)
if echo "$p0 $p1" | awk '{ exit !($2 < 1 && $3 > 30 && $6 > 20 && $7 < 5 && $8 < $4 && $1 > 0 && ($5 - $1) / $1 < 0.05 && ($1 - $5) / $1 < 0.05) }'; then ok
else bad "lsu_port: cycles, dispatch_stall, lg_throttle, long_scoreboard without: $p0; with: $p1"; fi
# lat_cross_pipe: ptxas's stall counts put an IMAD 5 cycles after the LOP3
# it reads and a LOP3 5 after its IMAD, a LOP3 4 after a LOP3 (sm_90
# SASS): one warp's chain of xor and mul.lo in turn issues 5 cycles a
# step ('wait'), 4 without the crossing's cycle, and a chain of shr and
# xor 4
hop() {   # KERNEL LAT_CROSS_PIPE: the most frequent gap between warp 0's chain steps
  k0=$k; k="$d/pipes.ptx"
  trace "$tmp/hop.db" "$1" 32 64 --arg u32:50 --gpu "$tmp/noic.gpu" --set lat_cross_pipe="$2"
  k=$k0
  q "$tmp/hop.db" "WITH l AS (SELECT r.issue_cycle - lag(r.issue_cycle) OVER (ORDER BY r.issue_cycle) AS gap
                   FROM warp_runs r JOIN instructions i USING (insn_id)
                   WHERE r.warp = 0 AND (i.opname LIKE 'xor%' OR i.opname LIKE 'mul%' OR i.opname LIKE 'shr%'))
                   SELECT gap FROM l WHERE gap IS NOT NULL GROUP BY gap ORDER BY count(*) DESC LIMIT 1"
}
h1=$(hop pipe_hop 1); h0=$(hop pipe_hop 0); s1=$(hop pipe_stay 1)
if [ "$h1" = 5 ] && [ "$h0" = 4 ] && [ "$s1" = 4 ]; then ok
else bad "lat_cross_pipe: xor/mul.lo chain $h1 cycles a step (want 5), $h0 without the crossing's cycle (want 4), shr/xor chain $s1 (want 4)"; fi
a0=$(la 0); a2=$(la 2)
if awk -v a="$a0" -v b="$a2" 'BEGIN { exit !(a > 50 && b < 5) }'; then ok; else bad "l1_accept_cycles: lg_throttle $a0 % taken with the lines, $a2 % at 2 cycles a request"; fi
# ---- conversions ------------------------------------------------------------------
# sm_90 (tests/microbench mb_cvt): an integer to f32 is an ALU instruction
# (lat_int, 'wait'), a float to an integer an XU one through the MIO
# (lat_sfu, 'short_scoreboard'), f32 <-> f16 take lat_cvt; a mov.b32 that
# passes the bits on issues nothing.  Before sm_90 every cvt takes lat_cvt.
cvt_gaps() {   # KIND LAT_CVT MORE-ARGS: warp 0's gaps between its consecutive conversions, with their reasons
  kind=$1; lc=$2; shift 2
  trace "$tmp/cvt.db" cvt_chains 32 64 --arg u32:"$kind" --gpu "$tmp/noic.gpu" --set lat_int=5 --set lat_sfu=19 --set lat_cvt="$lc" "$@"
  q "$tmp/cvt.db" "WITH l AS (SELECT r.issue_cycle - lag(r.issue_cycle) OVER (ORDER BY r.issue_cycle) AS gap, s.name AS why
                   FROM warp_runs r JOIN instructions i USING (insn_id) LEFT JOIN stall_reasons s USING (stall_id)
                   WHERE r.warp = 0 AND i.opname LIKE 'cvt%')
                   SELECT group_concat(DISTINCT gap || ':' || why) FROM l WHERE gap IS NOT NULL"
}
got=$(cvt_gaps 0 7)
if [ "$got" = "5:wait" ]; then ok; else bad "u32 -> f32 chain: want '5:wait' (lat_int), got '$got'"; fi
got=$(cvt_gaps 1 7)
if [ "$got" = "19:short_scoreboard" ]; then ok; else bad "f32 -> u32 chain: want '19:short_scoreboard' (lat_sfu), got '$got'"; fi
got=$(cvt_gaps 2 7)
if [ "$got" = "7:wait" ]; then ok; else bad "f32 -> f16 -> f32 chain: want '7:wait' (lat_cvt), got '$got'"; fi
got=$(cvt_gaps 1 11 --set arch=sm_80)
if [ "$got" = "11:wait" ]; then ok; else bad "sm_80 f32 -> u32 chain: want '11:wait' (lat_cvt), got '$got'"; fi
# 8 warps of a sub-partition converting floats to integers at once wait
# for the XU as mio_throttle; integers to floats for the ALU as
# math_pipe_throttle (32 warps)
cvt_throttle() {   # KIND: "mio_throttle math_pipe_throttle" cycles of the conversions
  trace "$tmp/cvtt.db" cvt_chains 1024 64 --arg u32:"$1" --gpu "$tmp/noic.gpu"
  q "$tmp/cvtt.db" "SELECT coalesce(sum(CASE WHEN stall_id = 9 THEN stall_cycles ELSE 0 END + CASE WHEN stall2_id = 9 THEN stall2_cycles ELSE 0 END
                     + CASE WHEN stall3_id = 9 THEN stall3_cycles ELSE 0 END), 0) || ' ' ||
                     coalesce(sum(CASE WHEN stall_id = 8 THEN stall_cycles ELSE 0 END + CASE WHEN stall2_id = 8 THEN stall2_cycles ELSE 0 END
                     + CASE WHEN stall3_id = 8 THEN stall3_cycles ELSE 0 END), 0)
                     FROM warp_runs JOIN instructions USING (insn_id) WHERE opname LIKE 'cvt%'"
}
set -- $(cvt_throttle 1); m1=$1; p1=$2
set -- $(cvt_throttle 0); m0=$1; p0=$2
if [ "$m1" -gt 0 ] && [ "$p1" -eq 0 ] && [ "$m0" -eq 0 ] && [ "$p0" -gt 0 ]; then ok
else bad "busy conversion pipes: F2I mio $m1 math $p1, I2FP mio $m0 math $p0"; fi
# ... and the ALU takes an instruction every ii_int (2) cycles: in half of
# a warp's wait behind it the pipe was free and another warp was selected,
# not_selected (tests/microbench mb_alu: 42 % and 42 %)
ns0=$(q "$tmp/cvtt.db" "SELECT coalesce(sum(CASE WHEN stall_id = 2 THEN stall_cycles ELSE 0 END + CASE WHEN stall2_id = 2 THEN stall2_cycles ELSE 0 END
                         + CASE WHEN stall3_id = 2 THEN stall3_cycles ELSE 0 END), 0) FROM warp_runs JOIN instructions USING (insn_id) WHERE opname LIKE 'cvt%'")
if [ "$((2 * ns0))" -ge "$p0" ] && [ "$ns0" -le "$((2 * p0))" ]; then ok
else bad "a busy ALU: not_selected $ns0 and math_pipe_throttle $p0 cycles should be about equal"; fi

# ---- shared-memory atomics ------------------------------------------------------------
# An atom.shared whose result nobody reads is ATOMS ... RZ in sm_90 SASS
# (tests/microbench mb_atomic shared_atom): the next one does not wait for
# its result, only (once a loop iteration) for its read barrier; one whose
# result is summed waits its latency (lat_shared) every iteration.
satom_gap() {   # USE: warp 0's median gap between its consecutive atoms, and the cycles they waited as short_scoreboard
  trace "$tmp/satom.db" satom_loop 32 64 --arg u32:"$1" --gpu "$tmp/noic.gpu"
  q "$tmp/satom.db" "WITH l AS (SELECT r.issue_cycle - lag(r.issue_cycle) OVER (ORDER BY r.issue_cycle) AS gap
                     FROM warp_runs r JOIN instructions i USING (insn_id) WHERE r.warp = 0 AND i.opname LIKE 'atom%')
                     SELECT (SELECT gap FROM l WHERE gap IS NOT NULL ORDER BY gap LIMIT 1 OFFSET 31) || ' ' ||
                     (SELECT coalesce(sum(CASE WHEN stall_id = 4 THEN stall_cycles ELSE 0 END + CASE WHEN stall2_id = 4 THEN stall2_cycles ELSE 0 END
                      + CASE WHEN stall3_id = 4 THEN stall3_cycles ELSE 0 END), 0)
                      FROM warp_runs JOIN instructions USING (insn_id) WHERE opname LIKE 'atom%')"
}
lat_sh=$("$PTXEMU" gpus --params h100 | awk '$1 == "lat_shared" { print $3 }')
set -- $(satom_gap 0); g0=$1; sb0=$2
set -- $(satom_gap 1); g1=$1
if [ -n "$g0" ] && [ -n "$g1" ] && [ "$g0" -lt "$lat_sh" ] && [ "$g1" -ge "$lat_sh" ] && [ "$sb0" -eq 0 ]; then ok
else bad "shared atomics in a loop: gap $g0 (result unread, short_scoreboard $sb0 cycles), $g1 (summed), lat_shared $lat_sh"; fi

# ---- bulk copies (the tensor memory accelerator: tests/timing/bulk.ptx) ---------------
# A bulk copy from global memory completes its mbarrier phase when its last
# piece is back: the try_wait's result waits for it, on the long scoreboard,
# and 31 KiB more take their bytes' time at the TMA's rate more; its bytes
# are read from DRAM.  One to global memory completes its bulk group an L2
# trip after its pieces have left, which is when wait_group.read returns.
b="$srcdir/tests/timing/bulk.ptx"
par() { "$PTXEMU" gpus --params h100 | awk -v k="$1" '$1 == k { print $3 }'; }
lat_l2=$(par lat_l2); tma_rate=$(par tma_bytes_per_cycle)
for kern in bulk_in bulk_out; do
  for n in 1024 32768; do
    "$PTXEMU" run -q --gpu h100 --stats "$tmp/$kern$n.s" "$b" --kernel $kern --grid 1 --block 32 -e "buffer out 98304 ramp u32 0 1" \
      --arg ptr:out --arg u32:$n -e "dump out $tmp/$kern$n.bin" >"$tmp/out" 2>&1 || { bad "$kern $n bytes: run failed"; cat "$tmp/out"; }
  done
done
w() { od -A n -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
wait1=$(w "$tmp/bulk_in1024.bin" 0); wait32=$(w "$tmp/bulk_in32768.bin" 0)
expect "a bulk copy's try_wait waits for its data (1 KiB: $wait1 cycles, lat_l2 $lat_l2)" "$([ "$wait1" -ge "$lat_l2" ] && echo 1)"
expect "31 KiB more take their time at tma_bytes_per_cycle $tma_rate ($wait1 -> $wait32 cycles)" \
  "$([ $((wait32 - wait1)) -ge $((31744 * 9 / (10 * ${tma_rate%.*}))) ] && echo 1)"
expect "the copied word is the source's (element 16384 of the ramp)" "$([ "$(od -A n -t u4 -j 8 -N 4 "$tmp/bulk_in1024.bin" | tr -d ' ')" = 16384 ] && echo 1)"
expect "31 KiB more are 31744 bytes more read from DRAM" \
  "$([ $(( $(stat_in "$tmp/bulk_in32768.s" dram_read_bytes) - $(stat_in "$tmp/bulk_in1024.s" dram_read_bytes) )) -eq 31744 ] && echo 1)"
expect "the wait for a bulk copy is long_scoreboard" \
  "$(awk '{ for (i = 4; i < NF; i += 2) if ($i ~ /^stall_.*_pct$/ && $(i+1) > m) { m = $(i+1); k = $i } } END { print k == "stall_long_scoreboard_pct" }' "$tmp/bulk_in32768.s")"
rd=$(w "$tmp/bulk_out32768.bin" 0); all=$(w "$tmp/bulk_out32768.bin" 8)
expect "wait_group.read returns when 32 KiB have left at the TMA's rate ($rd cycles)" "$([ "$rd" -ge $((32768 * 9 / (10 * ${tma_rate%.*}))) ] && echo 1)"
expect "wait_group returns an L2 trip after wait_group.read ($rd, $all cycles)" "$([ $((all - rd)) -ge $((lat_l2 * 9 / 10)) ] && echo 1)"
# a tensor copy reads its box's rows (32 or 16 rows of 128 bytes of a
# 256-byte pitch), and its try_wait waits for them
for rows in 32 16; do
  "$PTXEMU" run -q --gpu h100 --stats "$tmp/tensor$rows.s" "$b" --kernel bulk_tensor_in --grid 1 --block 32 -e "buffer tmaps 128 zero" \
    -e "buffer A 16384 ramp u32 0 1" -e "tensormap m u32 2 A dims 64 64 strides 256 box 32 $rows into tmaps+0" -e "buffer out 16 zero" \
    --arg ptr:tmaps --arg ptr:out --arg u32:$((rows * 128)) -e "dump out $tmp/tensor$rows.bin" >"$tmp/out" 2>&1 || { bad "tensor copy of $rows rows: run failed"; cat "$tmp/out"; }
done
twait=$(w "$tmp/tensor32.bin" 0)
expect "a tensor copy's try_wait waits for its box ($twait cycles) and reads it (element 8 * 64 + 32)" \
  "$([ "$twait" -ge "$lat_l2" ] && [ "$(od -A n -t u4 -j 8 -N 4 "$tmp/tensor32.bin" | tr -d ' ')" = 544 ] && echo 1)"
expect "16 rows more of a tensor copy's box are 2048 bytes more read from DRAM, not their rows' 4096" \
  "$([ $(( $(stat_in "$tmp/tensor32.s" dram_read_bytes) - $(stat_in "$tmp/tensor16.s" dram_read_bytes) )) -eq 2048 ] && echo 1)"

# ---- command line and configuration --------------------------------------------------
"$PTXEMU" run -q --sched fifo "$k" --kernel straight -e 'buffer b 64 zero' --arg ptr:b >"$tmp/out" 2>&1
st=$?
if [ $st -eq 64 ] && grep -q "gto, lrr or two_level" "$tmp/out"; then ok; else bad "--sched fifo: exit $st"; fi
sed 's/^scheduler .*/scheduler = oldest/' "$srcdir/configs/h100.gpu" >"$tmp/bad.gpu"
"$PTXEMU" run -q --gpu "$tmp/bad.gpu" "$k" --kernel straight -e 'buffer b 64 zero' --arg ptr:b >"$tmp/out" 2>&1
st=$?
if [ $st -eq 65 ] && grep -q "scheduler must be gto, lrr or two_level" "$tmp/out"; then ok; else bad "scheduler = oldest: exit $st"; cat "$tmp/out"; fi
# the SM block is optional: a configuration without it gets the defaults
grep -v -e '^scheduler' -e '^sched_active_warps' -e '^reg_bank' -e '^fetch_cycles' -e '^branch_cycles' -e '^reconverge_cycles' \
  -e '^membar_cycles' -e '^gpcs' "$srcdir/configs/h100.gpu" >"$tmp/old.gpu"
if "$PTXEMU" run -q --gpu "$tmp/old.gpu" "$k" --kernel straight -e 'buffer b 64 zero' --arg ptr:b >/dev/null 2>&1; then ok; else bad "a configuration without the SM block"; fi

# an if/else ptxas predicates, both paths a chain of four FMAs on one
# register: the second path's first FMA issues before the first path's
# last one completes (it reads the register as it was before the if/else),
# the store after the join waits for both chains
trace "$tmp/ifc.db" ifelse_chain 32 128
fmas() {   # the FMAs' issue and complete cycles, in issue order
  q "$tmp/ifc.db" "SELECT issue_cycle, complete_cycle FROM warp_runs JOIN instructions USING (insn_id) WHERE opname LIKE 'fma%' ORDER BY wseq" | tr '|' ' '
}
set -- $(fmas)
if [ $# -eq 16 ] && [ "$9" -lt "$8" ]; then ok; else bad "if/else: the second path's first FMA (issued at $9) waits for the first path's last (complete at $8)"; fi
st=$(q "$tmp/ifc.db" "SELECT issue_cycle FROM warp_runs JOIN instructions USING (insn_id) WHERE opname LIKE 'st.global%'")
if [ $# -eq 16 ] && [ "$st" -ge "$8" ] && [ "$st" -ge "${16}" ]; then ok; else bad "if/else: the store after the join (issued at $st) before both chains complete ($8, ${16})"; fi

# ---- atomics in flight ------------------------------------------------------
# reductions leave the warp without a register to wait for (the SASS's
# REDG); the SM takes at most atomics_in_flight global atomics the L2 has
# not performed yet, and its atomic unit takes a cycle and more a pass
# (tests/microbench mb_atomic3)
red_stall() {   # DB REASON-ID OPNAME-PREFIX: that reason's stall cycles at those instructions (the atoms, the exit)
  q "$1" "SELECT coalesce(sum(CASE WHEN stall_id = $2 THEN stall_cycles ELSE 0 END + CASE WHEN stall2_id = $2 THEN stall2_cycles ELSE 0 END
                               + CASE WHEN stall3_id = $2 THEN stall3_cycles ELSE 0 END), 0)
          FROM warp_runs r JOIN instructions i USING (insn_id) WHERE i.opname LIKE '$3%'"
}
trace "$tmp/red32.db" red_burst 32 65536 --arg u32:32 --arg u32:0 --arg u32:4096
ls=$(red_stall "$tmp/red32.db" 3 atom); dr=$(red_stall "$tmp/red32.db" 15 ret)
if [ "$ls" = 0 ] && [ "$dr" -gt 0 ]; then ok; else bad "one warp's 32 reductions: long_scoreboard $ls at the atoms (want 0), drain $dr at the exit (want > 0)"; fi
"$PTXEMU" gpus --params h100 | sed 's/^atomics_in_flight .*/atomics_in_flight = 8/' > "$tmp/fly8.gpu"
trace "$tmp/red8.db" red_burst 32 65536 --arg u32:32 --arg u32:0 --arg u32:4096 --gpu "$tmp/fly8.gpu"
ls8=$(red_stall "$tmp/red8.db" 3 atom)
if [ "$ls8" -gt 0 ]; then ok; else bad "8 atomics in flight: the ninth reduction does not wait ($ls8 long_scoreboard cycles)"; fi
# 8 warps, 16 reductions each, lanes on one word (32 passes a request) or
# a word each in 4 sectors (4 passes), each warp in its own 4 KiB: the
# SM's unit takes 8 x 16 x 32 x 1.1 = 4506 cycles in the first (both
# also wait for their lines' first misses: the second is not 8x faster)
trace "$tmp/redw.db" red_burst 256 65536 --arg u32:16 --arg u32:0 --arg u32:4096
trace "$tmp/reds.db" red_burst 256 65536 --arg u32:16 --arg u32:4 --arg u32:4096
cw=$(q "$tmp/redw.db" "SELECT cycles FROM launches"); cs=$(q "$tmp/reds.db" "SELECT cycles FROM launches")
if [ "$cw" -ge 4506 ] && [ $((cs * 10)) -lt $((cw * 6)) ]; then ok; else bad "the SM's atomic unit: 32 passes a request $cw cycles (want >= 4506), 4 passes $cs (want < 60 % of it)"; fi

# atomics_unacked: a warp that exits waits until its reductions have left
# the SM, not until the L2 has performed them: one reduction at each warp's
# end leaves at once (val_hist hist_shared: 0 % drain); 8 warps' 32
# reductions on 16 SMs' same lines wait in the SM behind the 32 the L2 has
# not acknowledged (mb_atomic: 15-22 %), where all 64 in flight may go
ua() {   # UNACKED KERNEL GRID ARGS...: the launch's drain %
  u=$1; kern=$2; gr=$3; shift 3
  "$PTXEMU" run -q --gpu h100 --set atomics_unacked=$u --stats "$tmp/ua" "$k" --kernel "$kern" --grid "$gr" --block 256 \
    -e 'buffer b 65536 zero' --arg ptr:b "$@" >"$tmp/out" 2>&1 || cat "$tmp/out"
  v=$(stat_in "$tmp/ua" stall_drain_pct); echo "${v:-0}"
}
t0=$(ua 0 red_tail 1 --arg u32:200); t32=$(ua 32 red_tail 1 --arg u32:200)
if awk -v a="$t0" -v b="$t32" 'BEGIN { exit !(a > 5 && b < 2) }'; then ok; else bad "a reduction at each warp's end: drain $t0 % until performed (want > 5), $t32 % until it left (want < 2)"; fi
b32=$(ua 32 red_burst 16 --arg u32:32 --arg u32:4 --arg u32:4096); b64=$(ua 64 red_burst 16 --arg u32:32 --arg u32:4 --arg u32:4096)
if awk -v a="$b32" -v b="$b64" 'BEGIN { exit !(a > 5 && b < 1) }'; then ok; else bad "8 warps' 32 reductions: drain $b32 % behind 32 unacknowledged (want > 5), $b64 % with all 64 sent (want < 1)"; fi

# a warp's shared loads through one register at other displacements take
# the wavefronts of its last one there (timing.c timing_shared_again) only
# where that is what their addresses give: a run traced at level mem times
# every access from its addresses, and its cycles and bank counters are the
# plain run's, on the H100 (4-byte banks) and on Kepler's 8-byte banks,
# where +4 moves the pattern by half a bank
for gpu in h100 kepler; do
  sl() {   # MORE-ARGS...: cycles, shared_ld_wavefronts and shared_ld_bank_conflicts
    "$PTXEMU" run -q --gpu $gpu --stats "$tmp/sl" "$@" "$k" --kernel smem_linked --block 256 -e 'buffer b 64 zero' --arg ptr:b \
      --arg u32:8 --arg u32:8 >"$tmp/out" 2>&1 || cat "$tmp/out"
    echo "$(stat_in "$tmp/sl" cycles) $(stat_in "$tmp/sl" shared_ld_wavefronts) $(stat_in "$tmp/sl" shared_ld_bank_conflicts)"
  }
  plain=$(sl); traced=$(sl --trace "$tmp/sl.db" --trace-level mem)
  if [ -n "${plain%% *}" ] && [ "$plain" = "$traced" ]; then ok; else bad "$gpu: linked shared loads $plain (cycles, wavefronts, conflicts), from their addresses $traced"; fi
done

# ---- a request's misses line after line --------------------------------------
# mb_vary3's chase over 32768 lines the launch before linked (the L2 empty
# at the launch, as after the profiler's flush): a request's lines that miss
# in L2 leave for DRAM l2_miss_sector_cycles a sector apart, beyond the L1's
# l1_miss_line_cycles: 32 lanes take 31 x that much more a step, one lane
# no more (tests/microbench mb_vary3 v3_chase_cg, tools/calibrate hops_dram_*)
v3=$(cd "$srcdir/tests/microbench/mb_vary3" && pwd)
chase() {   # LANES L2-MISS-LINE-CYCLES: cycles of 100 steps
  printf 'ptx %s/kernel.ptx\nbuffer big 4194304 zero\nbuffer out 4096 zero\n' "$v3" > "$tmp/chase.txt"
  printf 'launch v3_link grid 128 1 1 block 256 1 1 shared 0\narg ptr big\narg u32 32768\narg u32 16\n' >> "$tmp/chase.txt"
  printf 'launch v3_chase_cg grid 1 1 1 block 32 1 1 shared 0\narg ptr big\narg u32 32768\narg u32 16\narg s32 100\narg u32 %s\narg u32 0\narg ptr out\n' "$1" >> "$tmp/chase.txt"
  "$PTXEMU" run -q --gpu h100 --set l2_miss_sector_cycles="$2" --stats "$tmp/chs" "$tmp/chase.txt" >/dev/null 2>&1 &&
    awk '$2 == 1 { for (i = 4; i < NF; i += 2) if ($i == "cycles") print $(i+1) }' "$tmp/chs"
}
w0=$(chase 32 0); w8=$(chase 32 8); o0=$(chase 1 0); o8=$(chase 1 8)
if [ -n "$w0" ] && [ -n "$w8" ] && [ -n "$o0" ] && [ "$o0" = "$o8" ] &&
   awk -v d="$((w8 - w0))" 'BEGIN { exit !(d >= 0.95 * 100 * 31 * 8 && d <= 1.02 * 100 * 31 * 8) }'; then ok
else bad "DRAM misses line after line: 32 lanes $w0 -> $w8 cycles with l2_miss_sector_cycles 8 (want 24800 more), one lane $o0 -> $o8"; fi

finish
