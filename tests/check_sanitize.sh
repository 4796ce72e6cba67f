#!/bin/sh
# --sanitize racecheck,synccheck,initcheck: racy and race-free kernels of
# tests/sanitize (kernels.cu, compiled to kernels.ptx with -lineinfo, and
# mbarrier.ptx), each synccheck and initcheck class, the trace's hazards
# table, exit status 3 on a finding, and a CUDA program through ptxemu exec
# whose report names its .cu lines (skipped without nvcc).
. "$srcdir/tests/lib.sh"
d="$srcdir/tests/sanitize"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

# finds NAME CHECKS LAUNCH PATTERN...: exit status 3 and every pattern in stderr
finds() {
  name=$1; checks=$2; lf=$3; shift 3
  "$PTXEMU" run --sanitize "$checks" --max-insts 1000000 "$d/$lf.launch" >"$tmp/out" 2>"$tmp/err"; st=$?
  if [ $st -ne 3 ]; then bad "$name: exit status $st, want 3"; head -12 "$tmp/err"; return; fi
  for p in "$@"; do
    grep -qF -- "$p" "$tmp/err" || { bad "$name: report lacks '$p'"; head -12 "$tmp/err"; return; }
  done
  ok
}
# clean NAME LAUNCH: every check on, nothing found, exit status 0
clean() {
  "$PTXEMU" run --sanitize all "$d/$2.launch" >"$tmp/out" 2>"$tmp/err"; st=$?
  if [ $st -ne 0 ] || ! grep -q "sanitizer: 0 findings" "$tmp/err"; then bad "$1: status $st, expected no finding"; head -12 "$tmp/err"; else ok; fi
}

# ---- racecheck ----
# the reduction that forgets the barrier after its loads: the hazard, both
# accesses with their PTX and CUDA lines, the variable, the advice
finds reduce-racy racecheck reduce_racy "racecheck: write-after-read hazard (WAR) on shared memory in kernel 'reduce', 256 times" \
  "read  by thread (0,0,0) in block (0,0,0) at $d/kernels.ptx:67 (pc 21), kernels.cu:13" \
  "write by thread (128,0,0) in block (0,0,0) at $d/kernels.ptx:54 (pc 14), kernels.cu:10" \
  "address shared 0x600: s+512 (in reduce)" "add __syncthreads() between kernels.cu:10 and kernels.cu:13"
# one lane rewrites the value the other warps still read (next round, no barrier)
finds broadcast-racy racecheck broadcast_racy "read-after-write hazard (RAW) on shared memory in kernel 'broadcast'" \
  "write by thread (0,0,0) in block (0,0,0)" "read  by thread (32,0,0) in block (0,0,0)" "s_val+0 (in broadcast)" \
  "add __syncthreads() between kernels.cu:42 and kernels.cu:44"
grep -q "write-after-read hazard (WAR)" "$tmp/err" && ok || bad "broadcast-racy: no WAR hazard for the rewrite"
# the timing model interleaves the warps otherwise: the rewrite after the
# other warps' reads is then the hazard (observers chain with the timing model's)
"$PTXEMU" run -q --gpu h100 --sanitize racecheck "$d/broadcast_racy.launch" >/dev/null 2>"$tmp/err"; st=$?
if [ $st -eq 3 ] && grep -qF "write-after-read hazard (WAR) on shared memory in kernel 'broadcast'" "$tmp/err" &&
   grep -qF "write after read hazard between threads of different warps that no barrier orders: add __syncthreads() between kernels.cu:42 and kernels.cu:44" "$tmp/err"; then ok
else bad "broadcast-racy timed: status $st"; head -12 "$tmp/err"; fi
# lanes of one warp exchanging through shared memory with no __syncwarp (sm_80 PTX)
finds warp-racy racecheck warp_racy "read-after-write hazard (RAW) on shared memory in kernel 'warp_exchange'" \
  "between lanes of one warp with no __syncwarp()" "add __syncwarp() between kernels.cu:54 and kernels.cu:56"
# blocks reading what other blocks write in the same launch
finds global-racy racecheck global_racy "hazard (RAW) on global memory in kernel 'neighbours'" "address 0x" "'data'+" \
  "threads of different blocks in one launch"
# the report goes to stderr: stdout keeps only the program's output
[ -s "$tmp/out" ] && bad "global-racy: the report went to stdout" || ok
for k in reduce_ok reduce_shfl broadcast_ok warp_ok atomics_ok global_fenced init_global; do clean "$k" "$k"; done

# ---- synccheck ----
finds divergent-barrier synccheck divergent_barrier "synccheck: barrier in divergent code in kernel 'divergent_barrier', 2 times" \
  "__syncthreads() (barrier 0) at kernels.cu:84 reached by only part of warp 0: lanes 16-31 are not with it"
finds barrier-counts synccheck barrier_counts "named barrier 1: one phase is entered at kernels.cu:90 for 64 threads and at kernels.cu:91 for 96 threads"
finds syncwarp-exited synccheck syncwarp_exited "bar.warp.sync at kernels.cu:98 in warp 0 names lanes in its mask 0xffffffff that never arrive: exited 16-31"
# mbarrier waits: a phase that can never complete, an uninitialised barrier; a correct one is quiet
mb() { "$PTXEMU" run --sanitize synccheck --max-insts 200000 "$d/mbarrier.ptx" --kernel "$1" --block 64 -e 'buffer out 256 zero' --arg ptr:out 2>&1; }
out=$(mb exited); st=$?
if [ $st -eq 3 ] && echo "$out" | grep -qF "can never complete: its phase still needs 32 arrivals but every other thread of the block has exited or waits too"; then ok
else bad "mbarrier-exited: status $st"; echo "$out" | head -8; fi
out=$(mb uninit); st=$?
if [ $st -eq 3 ] && echo "$out" | grep -qF "was never initialised (mbarrier.init)"; then ok; else bad "mbarrier-uninit: status $st"; echo "$out" | head -8; fi
out=$(mb ok); st=$?
if [ $st -eq 0 ] && echo "$out" | grep -qF "sanitizer: 0 findings"; then ok; else bad "mbarrier-ok: status $st"; echo "$out" | head -8; fi

# ---- initcheck ----
finds uninit-shared initcheck uninit_shared "initcheck: uninitialized shared memory read in kernel 'uninit_shared'" \
  "address shared 0x480: s+128 (in uninit_shared)" "kernels.cu:107"
finds uninit-global initcheck uninit_global "initcheck: uninitialized global memory read in kernel 'copy'" "'in'+0" "kernels.cu:111"
# a checker not asked for stays silent
"$PTXEMU" run --sanitize racecheck "$d/uninit_global.launch" >/dev/null 2>&1 && ok || bad "uninit-global: reported without initcheck"
# plain runs are unchanged: no sanitizer line at all
out=$("$PTXEMU" run "$d/reduce_racy.launch" 2>&1); st=$?
if [ $st -eq 0 ] && [ -z "$out" ]; then ok; else bad "plain run: status $st, output '$out'"; fi

# ---- the command line ----
out=$("$PTXEMU" run --sanitize racecheck,bogus "$d/reduce_ok.launch" 2>&1); st=$?
if [ $st -eq 64 ] && echo "$out" | grep -qF "unknown check 'bogus'"; then ok; else bad "bad list: status $st: $out"; fi
# check: a sanitizer finding fails a run whose expects match
"$PTXEMU" check --sanitize racecheck "$d/warp_racy.launch" >/dev/null 2>&1; st=$?
[ $st -eq 3 ] && ok || bad "check: status $st, want 3"

# ---- the trace's hazards table ----
if command -v sqlite3 >/dev/null 2>&1; then
  "$PTXEMU" run -q --sanitize all --trace "$tmp/t.db" "$d/reduce_racy.launch" >/dev/null 2>&1; st=$?
  [ $st -eq 3 ] && ok || bad "trace: status $st"
  got=$(q "$tmp/t.db" "SELECT tool, kind, space, count, variable, access1, ptx_line1, cuda_file1, cuda_line1, access2, ptx_line2, cuda_line2, thread2_x FROM hazards WHERE tool = 'racecheck'")
  want="racecheck|WAR|shared|256|s+512 (in reduce)|read|67|kernels.cu|13|write|54|10|128"
  [ "$got" = "$want" ] && ok || bad "hazards row: '$got', want '$want'"
  got=$(q "$tmp/t.db" "SELECT count(*) FROM hazards h JOIN launches l USING (launch_id) WHERE h.tool = 'initcheck' AND h.kind = 'uninitialized_shared'")
  [ "$got" = 1 ] && ok || bad "hazards: initcheck rows $got"
  got=$(q "$tmp/t.db" "SELECT exit_status FROM runs")
  [ "$got" = 3 ] && ok || bad "runs.exit_status $got, want 3"
  # a kernel launched twice: its hazard printed once, a row for each launch
  "$PTXEMU" run --sanitize racecheck --trace "$tmp/t2.db" "$d/reduce_twice.launch" >/dev/null 2>"$tmp/err"; st=$?
  n=$(grep -c "^ptxemu: racecheck:" "$tmp/err")
  if [ $st -eq 3 ] && [ "$n" = 1 ] && grep -qF "later launches found 1 of them again" "$tmp/err"; then ok
  else bad "twice: status $st, $n reports"; head -12 "$tmp/err"; fi
  got=$(q "$tmp/t2.db" "SELECT count(DISTINCT launch_id), count(*), sum(count) FROM hazards")
  [ "$got" = "2|2|512" ] && ok || bad "twice: hazards '$got', want 2|2|512"
else
  echo "SKIP: sqlite3 not installed (hazards table)"
fi

# ---- a CUDA program through ptxemu exec ----
if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc
elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc
else NVCC=""; echo "SKIP: nvcc not found (ptxemu exec --sanitize)"; fi
if [ -n "$NVCC" ]; then
  if "$NVCC" -cudart shared -arch=sm_90 -lineinfo -o "$tmp/reduce_prog" "$d/reduce_prog.cu" >"$tmp/nvcc.log" 2>&1; then
    "$PTXEMU" exec --sanitize racecheck "$tmp/reduce_prog" >"$tmp/out" 2>"$tmp/err"; st=$?
    if [ $st -eq 3 ] && grep -qF "add __syncthreads() between reduce_prog.cu:9 and reduce_prog.cu:12" "$tmp/err" &&
       grep -qF "reduce_prog.cu:12" "$tmp/err"; then ok
    else bad "exec racy: status $st"; head -12 "$tmp/err"; fi
    "$PTXEMU" exec --sanitize all "$tmp/reduce_prog" fixed >"$tmp/out" 2>"$tmp/err"; st=$?
    if [ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "128 128" ] && grep -qF "sanitizer: 0 findings" "$tmp/err"; then ok
    else bad "exec fixed: status $st"; head -12 "$tmp/out" "$tmp/err"; fi
    out=$("$PTXEMU" exec --sanitize nonsense "$tmp/reduce_prog" 2>&1); st=$?
    if [ $st -eq 64 ] && echo "$out" | grep -qF "PTXEMU_SANITIZE"; then ok; else bad "exec bad list: status $st: $out"; fi
  else
    bad "nvcc failed"; head -10 "$tmp/nvcc.log"
  fi
fi
finish
