#!/bin/sh
# tests/check_debug.sh - the warp debugger (ptxemu debug, ptxemu-debug(1)).
# Scripted sessions: each tests/debug/NAME.cmds (its first line names the
# arguments) runs with -x and must print exactly NAME.out; the values in
# them are also checked against what the kernels compute.  Then the same
# commands through a pipe, the end of the input, bad command lines, and a
# CUDA program under "ptxemu debug -- PROGRAM" (with nvcc).  tmux sessions
# typed as a person would are in check_debug_tmux.sh.
. "$srcdir/tests/lib.sh"
case $PTXEMU in /*) ;; *) PTXEMU=$(pwd)/$PTXEMU ;; esac
d="$srcdir/tests/debug"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-debug.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# run NAME: the session of NAME.cmds from the tests' folder (paths as written there)
run() {
  args=$(sed -n '1s/^# args: //p' "$d/$1.cmds")
  (cd "$d" && eval "\"\$PTXEMU\" debug -x \"$1.cmds\" --batch $args") >"$tmp/$1.out" 2>"$tmp/$1.err"
}

for c in "$d"/*.cmds; do
  n=$(basename "$c" .cmds)
  run "$n"; st=$?
  if [ $st -eq 0 ] && cmp -s "$d/$n.out" "$tmp/$n.out" && [ ! -s "$tmp/$n.err" ]; then ok
  else bad "$n: exit $st, transcript differs:"; diff -u "$d/$n.out" "$tmp/$n.out" | head -40; cat "$tmp/$n.err"; fi
done

# what the sessions show is what the kernels compute: reduce sums in[i] =
# i, odd threads squared; thread 3 of block 1 stops at its first addition
# (buf[3] = 67^2, buf[35] = 99^2, then buf[3] + buf[35]); count's atomic
# gives thread k the old value k
has() { grep -qxF -- "$2" "$tmp/$1.out" && ok || bad "$1: no line '$2'"; }
has basic "buf[3] = $((67 * 67))"
has basic "buf[35] = $((99 * 99))"
has basic "New value = $((67 * 67 + 99 * 99))"
has basic "Breakpoint 1, reduce<<<(2,1,1),(64,1,1)>>> block (1,0,0) thread (3,0,0)"
has basic "%tid.x (.u32) lane 3 [thread (3,0,0)] = 3"
has basic "[program finished: exit status 0]"
has calls "  [0-7]    0 1 0 3 0 5 0 7"
has calls "reduce_param_2 = 128"
has count "New value = 5"
has count "slots = {0, 1, 2, 3, 4, 0, 0, 0}"
has count "        0x000000e0   diverged, waits       9    count.cu:10 (count.ptx:30)"
grep -q "^stall reason: " "$tmp/timing.out" && ok || bad "timing: no stall reason"

# the same commands through a pipe give the same transcript
(cd "$d" && "$PTXEMU" debug --batch reduce.launch <basic.cmds) >"$tmp/pipe.out" 2>&1
cmp -s "$d/basic.out" "$tmp/pipe.out" && ok || { bad "through a pipe"; diff -u "$d/basic.out" "$tmp/pipe.out" | head -20; }
# without --batch, the command file goes on from the standard input
(cd "$d" && printf 'continue\n' | "$PTXEMU" debug -x /dev/null reduce.launch) >"$tmp/then.out" 2>&1
grep -q "^\[program finished: exit status 0\]" "$tmp/then.out" && ok || { bad "-x then stdin"; cat "$tmp/then.out"; }

# the end of the input ends the session cleanly, wherever it stops
(cd "$d" && "$PTXEMU" debug reduce.launch </dev/null) >"$tmp/eof.out" 2>&1; st=$?
[ $st -eq 0 ] && [ "$(cat "$tmp/eof.out")" = "[launch 0: reduce<<<(2,1,1),(64,1,1)>>>]" ] && ok || { bad "EOF at the start: $st"; cat "$tmp/eof.out"; }
(cd "$d" && printf 'break 117\nrun\n' | "$PTXEMU" debug reduce.launch) >"$tmp/eof2.out" 2>&1; st=$?
[ $st -eq 0 ] && [ "$(tail -1 "$tmp/eof2.out")" = "reduce.ptx:117       bar.sync 0;   (pc 39 in reduce)" ] && ok || { bad "EOF at a stop: $st"; cat "$tmp/eof2.out"; }
# a program that finishes: the debugger exits with its status (3: a fault)
printf 'run\ncontinue\n' | "$PTXEMU" debug "$srcdir/tests/faults/faults.ptx" --kernel trapper >"$tmp/fault.out" 2>&1; st=$?
[ $st -eq 3 ] && grep -q "kernel fault: trap" "$tmp/fault.out" && grep -qxF "[program ended with a kernel fault: exit status 3]" "$tmp/fault.out" &&
  ok || { bad "a faulting kernel: exit $st"; cat "$tmp/fault.out"; }

# a trace records the debugged run as it does a plain one (the debugger
# chains the trace's hooks)
if command -v sqlite3 >/dev/null 2>&1; then
  (cd "$d" && printf 'break 117\nrun\ndelete\ncontinue\n' | "$PTXEMU" debug --trace "$tmp/dbg.db" reduce.launch) >/dev/null 2>&1
  (cd "$d" && "$PTXEMU" run --trace "$tmp/run.db" reduce.launch) >/dev/null 2>&1
  a=$(q "$tmp/dbg.db" "SELECT count(*) FROM warp_insts"); b=$(q "$tmp/run.db" "SELECT count(*) FROM warp_insts")
  [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" -gt 0 ] && ok || bad "--trace under the debugger: $a warp instructions, $b without it"
fi

# a fault stops the kernel where it happened, with its warps intact: the
# focus is the faulting thread (16: the first past the 64-byte buffer)
printf 'run\nwhere\nprint %%r1 thread\nstep\ncontinue\n' | "$PTXEMU" debug "$srcdir/tests/faults/faults.ptx" --kernel oob --block 32 \
  -e 'buffer b 64 zero' --arg ptr:b --arg u32:0 >"$tmp/oob.out" 2>"$tmp/oob.err"; st=$?
[ $st -eq 3 ] && grep -qxF "Focus: block (0,0,0) thread (16,0,0), warp 0 lane 16" "$tmp/oob.out" &&
  grep -qxF "%r1 (.b32) lane 16 [thread (16,0,0)] = 16" "$tmp/oob.out" && grep -q "^The kernel has faulted and cannot go on" "$tmp/oob.out" &&
  grep -q "kernel fault: out-of-bounds access" "$tmp/oob.err" && ok || { bad "stop at a fault: exit $st"; cat "$tmp/oob.out" "$tmp/oob.err"; }

# bad command lines
"$PTXEMU" debug >/dev/null 2>&1; [ $? -eq 64 ] && ok || bad "no input: not 64"
"$PTXEMU" debug -x >/dev/null 2>&1; [ $? -eq 64 ] && ok || bad "-x without a file: not 64"
"$PTXEMU" debug -x "$tmp/none.cmds" "$d/reduce.launch" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 66 ] && grep -q "cannot read" "$tmp/err" && ok || bad "missing command file: exit $st"
"$PTXEMU" debug "$tmp/none.launch" </dev/null >/dev/null 2>&1; [ $? -eq 66 ] && ok || bad "missing launch file: not 66"
"$PTXEMU" debug --help | grep -q "^usage: ptxemu debug" && ok || bad "--help"

# a CUDA program: its library starts the same debugger (PTXEMU_DEBUG)
if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc
elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc
else NVCC=; echo "(no nvcc: the -- PROGRAM part is skipped)"; fi
if [ -n "$NVCC" ]; then
  export PTXEMU_CACHE="$tmp/cache"
  if "$NVCC" -cudart shared -arch=sm_90 -lineinfo -o "$tmp/reduce" "$d/reduce_main.cu" >"$tmp/nvcc.log" 2>&1; then
    printf 'break reduce.cu:22 if block 1\nrun\nprint buf[0]\ndelete\ncontinue\n' >"$tmp/p.cmds"
    "$PTXEMU" debug -x "$tmp/p.cmds" --batch -- "$tmp/reduce" >"$tmp/p.out" 2>&1; st=$?
    [ $st -eq 0 ] && grep -qxF "buf[0] = 308864" "$tmp/p.out" && grep -qxF "sums 44672 308864" "$tmp/p.out" &&
      grep -q "^reduce.cu:22  *out\[blockIdx.x\] = buf\[0\];" "$tmp/p.out" && ok || { bad "-- PROGRAM: exit $st"; cat "$tmp/p.out"; }
  else bad "nvcc failed"; cat "$tmp/nvcc.log"; fi
fi
finish
