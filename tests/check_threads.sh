#!/bin/sh
# tests/check_threads.sh - --threads N gives the answer of --threads 1 for
# every N: buffers, device printf, --stats counters, fault reports and exit
# statuses, byte for byte.  The kernels (tests/threads/threads.cu) are
# independent blocks (which run in parallel), and racing, float-atomic,
# ticket (atomics whose results are used), spin-waiting, printf and
# faulting ones (which must come out as the sequential run).  Device printf
# from blocks that print over many scheduling rounds runs in parallel and
# must come out in the sequential interleaving.
. "$srcdir/tests/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-thr.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
src="$srcdir/tests/threads"

one() {   # DIR LAUNCH ARGS...: everything the run writes goes to DIR
  d=$1; lf=$2; shift 2
  rm -rf "$d"; mkdir -p "$d"
  cp "$src/threads.ptx" "$src/$lf" "$d/"
  (cd "$d" && "$PTXEMU" run --stats stats.txt "$@" "$lf" >stdout 2>stderr; echo $? >status)
  sed -i 's/emu_wall_ns [0-9]*//' "$d/stats.txt" 2>/dev/null
  rm -f "$d/threads.ptx" "$d/$lf"
}

case_() {   # NAME EXPECTED-STATUS LAUNCH ARGS...
  name=$1; want=$2; shift 2
  one "$tmp/t1" "$@" -q --threads 1
  if [ "$(cat "$tmp/t1/status")" != "$want" ]; then bad "$name: exit status $(cat "$tmp/t1/status"), not $want"; head -5 "$tmp/t1/stderr"; return; fi
  for n in 2 3 8; do
    one "$tmp/t$n" "$@" -q --threads "$n"
    if diff -r "$tmp/t1" "$tmp/t$n" >"$tmp/diff"; then ok; else bad "$name: --threads $n differs from --threads 1"; head -10 "$tmp/diff"; fi
  done
}

case_ independent 0 independent.launch
case_ racing 0 racing.launch
case_ printf 0 printf.launch
case_ late-fault 3 fault.launch
case_ undo 0 undo.launch
# the budget (--max-insts counts every block's instructions)
case_ budget 4 independent.launch --max-insts 5000

# both paths are taken: independent blocks ran in parallel, racing ones
# were detected and run again sequentially (run -v says how each launch ran)
one "$tmp/v" independent.launch --threads 3 -v
grep -q "launch 0 saxpy: parallel on 3 threads" "$tmp/v/stderr" && ok || { bad "saxpy did not run in parallel"; cat "$tmp/v/stderr"; }
# saxpy reads and writes y: its first attempt reads y unrecorded, stops at
# the first write and runs again with y's reads recorded; later launches
# record them from the start (emu/parallel.c)
grep -q "launch 0 saxpy: parallel .*tried again with a region's reads recorded 1)" "$tmp/v/stderr" && ok || bad "saxpy's first launch was not tried again"
grep -q "launch 1 saxpy: parallel .*tried again with a region's reads recorded 1)" "$tmp/v/stderr" && ok || bad "saxpy's second launch was tried again"
grep -q "launch 3 histogram: parallel" "$tmp/v/stderr" && ok || bad "integer atomics with unused results did not run in parallel"
grep -q "launch 4 pairs: parallel" "$tmp/v/stderr" && ok || bad "clusters did not run in parallel"
grep -q "launch 2 block_sums: parallel" "$tmp/v/stderr" && ok || bad "per-block results in adjacent words did not run in parallel"
one "$tmp/v" racing.launch --threads 3 -v
for k in "0 race" "1 float_atomics" "2 tickets" "3 chain" "4 neighbours"; do
  grep -q "launch $k: sequential on 3 threads: blocks depend on each other" "$tmp/v/stderr" && ok || { bad "launch $k: no conflict found"; cat "$tmp/v/stderr"; }
done
grep -q "parallel launches 5, run again sequentially 5" "$tmp/v/stderr" && ok || bad "fallbacks not counted"
# the undone attempt: every word got its one addition, as the sequential run gives
one "$tmp/v" undo.launch --threads 3 -v
grep -q "launch 0 undo: sequential on 3 threads: blocks depend on each other" "$tmp/v/stderr" && ok || { bad "undo: no conflict found"; cat "$tmp/v/stderr"; }
od -An -tu4 -v "$tmp/v/acc.bin" | tr -s ' ' '\n' | awk 'NF { if ($1 != k + 8) bad++; k++ } END { exit bad > 0 || k != 16384 }' && ok || bad "undo: acc is not 7 + i + 1"
od -An -tu4 -v "$tmp/v/zacc.bin" | tr -s ' ' '\n' | awk 'NF { if ($1 != 2 * k + 1) bad++; k++ } END { exit bad > 0 || k != 16384 }' && ok || bad "undo: zacc is not 2i + 1"
one "$tmp/v" printf.launch --threads 3 -v
grep -q "launch 1 chatty: parallel on 3 threads" "$tmp/v/stderr" && ok || { bad "printf did not run in parallel"; cat "$tmp/v/stderr"; }
one "$tmp/v" fault.launch --threads 2 -v
grep -q "sequential on 2 threads: a fault" "$tmp/v/stderr" && ok || { bad "the fault did not stop the parallel attempt"; cat "$tmp/v/stderr"; }

# timing mode (--gpu h100): the SMs advance in windows of cycles on the
# threads; cycles, every --stats counter and every output byte are the
# --threads 1 ones.  Independent blocks (integer atomics on shared bins,
# clusters on one GPC) run on several threads; racing, float-atomic,
# ticket and spin-waiting ones are found out and run again on one
case_ timing-independent 0 independent.launch --gpu h100
case_ timing-racing 0 racing.launch --gpu h100
case_ timing-budget 4 independent.launch --gpu h100 --max-insts 5000
case_ timing-late-fault 3 fault.launch --gpu h100
case_ timing-printf 0 printf.launch --gpu h100
one "$tmp/v" independent.launch --gpu h100 --threads 3 -v
for k in "0 saxpy" "2 block_sums" "3 histogram" "4 pairs"; do
  grep -q "launch $k: parallel on 3 threads" "$tmp/v/stderr" && ok || { bad "timing: launch $k did not run in parallel"; cat "$tmp/v/stderr"; }
done
# where the host time went: windows, the L2 and DRAM service within them, the edges
grep -Eq "launch 0 saxpy: [1-9][0-9]* windows of cycles in [0-9.]+ s, the launch's thread serving L2 and DRAM requests [0-9.]+ s of them; [0-9.]+ s between windows" "$tmp/v/stderr" &&
  ok || { bad "timing: run -v does not say where the host time went"; cat "$tmp/v/stderr"; }
one "$tmp/v" racing.launch --gpu h100 --threads 3 -v
for k in "0 race" "1 float_atomics" "2 tickets" "3 chain" "4 neighbours"; do
  grep -q "launch $k: sequential on 3 threads: blocks depend on each other" "$tmp/v/stderr" && ok || { bad "timing: launch $k: no conflict found"; cat "$tmp/v/stderr"; }
done
one "$tmp/v" fault.launch --gpu h100 --threads 2 -v
grep -q "sequential on 2 threads: a fault" "$tmp/v/stderr" && ok || { bad "timing: the fault did not stop the parallel attempt"; cat "$tmp/v/stderr"; }
# an observer (a trace) keeps the launch on one thread, with the same cycles
one "$tmp/tr" independent.launch --gpu h100 --threads 3 --trace tr.db -v
grep -q "sequential on 3 threads: an observer" "$tmp/tr/stderr" && ok || { bad "timing: a traced launch ran in parallel"; cat "$tmp/tr/stderr"; }
one "$tmp/t3" independent.launch --gpu h100 --threads 3
if [ "$(grep -o 'cycles [0-9]*' "$tmp/tr/stats.txt")" = "$(grep -o 'cycles [0-9]*' "$tmp/t3/stats.txt")" ]; then ok; else bad "timing: cycles with a trace differ"; fi

# a CUDA program through ptxemu exec (PTXEMU_THREADS)
if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc
elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc
else NVCC=""; echo "SKIP: nvcc not found (ptxemu exec --threads)"; fi
if [ -n "$NVCC" ]; then
  if "$NVCC" -cudart shared -arch=sm_90 -o "$tmp/prog" "$src/prog.cu" >"$tmp/nvcc.log" 2>&1; then
    "$PTXEMU" exec --threads 1 "$tmp/prog" >"$tmp/e1" 2>&1; s1=$?
    for n in 2 3 8; do
      "$PTXEMU" exec --threads "$n" "$tmp/prog" >"$tmp/e$n" 2>&1; sn=$?
      if [ $s1 = 0 ] && [ $sn = 0 ] && cmp -s "$tmp/e1" "$tmp/e$n"; then ok; else bad "exec --threads $n: status $sn"; cat "$tmp/e1" "$tmp/e$n"; fi
    done
    PTXEMU_VERBOSE=1 "$PTXEMU" exec --threads 3 "$tmp/prog" >/dev/null 2>"$tmp/ev"
    grep -q "scale.*parallel on 3 threads" "$tmp/ev" && grep -q "tickets.*sequential on 3 threads" "$tmp/ev" && ok ||
      { bad "exec: launches did not run as expected"; cat "$tmp/ev"; }
    out=$("$PTXEMU" exec --threads 0 "$tmp/prog" 2>&1); st=$?
    if [ $st -eq 64 ] && echo "$out" | grep -qF "PTXEMU_THREADS"; then ok; else bad "exec --threads 0: status $st: $out"; fi
  else
    bad "nvcc failed"; head -10 "$tmp/nvcc.log"
  fi
fi

# bad values are command-line errors
for v in 0 -1 x 1025 2.5 ""; do
  "$PTXEMU" run --threads "$v" "$src/printf.launch" >/dev/null 2>"$tmp/err"
  s=$?
  if [ "$s" = 64 ] && grep -q "threads" "$tmp/err"; then ok; else bad "--threads '$v': status $s"; cat "$tmp/err"; fi
done
finish
