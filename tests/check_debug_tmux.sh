#!/bin/sh
# tests/check_debug_tmux.sh - "ptxemu debug" in a terminal, typed as a
# person would, in a detached tmux session: the prompt, a breakpoint, an
# empty line repeating "step", info warps and quit; Ctrl-C stopping a kernel
# that never ends.  Skipped (77) without tmux.
. "$srcdir/tests/lib.sh"
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux is not installed"; exit 77; }
case $PTXEMU in /*) ;; *) PTXEMU=$(pwd)/$PTXEMU ;; esac
d=$(cd "$srcdir/tests/debug" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-tmux.XXXXXX")
# each session gets its own server: a server whose last session was just
# killed exits asynchronously, and a new session sent to it can die with it
sock="$tmp/sock1"
t() { TERM=xterm tmux -f /dev/null -S "$sock" "$@"; }
trap 'for sock in "$tmp/sock1" "$tmp/sock2"; do t kill-server >/dev/null 2>&1; done; rm -rf "$tmp"' EXIT

screen() { t capture-pane -p -J -S -200 -t dbg; }
# wait until the screen shows a line matching the pattern (30 s at most:
# the sanitizer build on a loaded machine can take several seconds a command)
wait_for() {
  i=0
  while [ $i -lt 300 ]; do
    screen | grep -q -- "$1" && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}
type_line() { t send-keys -t dbg -l -- "$1"; t send-keys -t dbg Enter; }
check() { if wait_for "$1"; then ok; else bad "$2: no '$1' on the screen"; screen | tail -20; fi; }

t new-session -d -s dbg -x 150 -y 50 "cd '$d' && '$PTXEMU' debug reduce.launch; echo DEBUG-EXIT \$?; sleep 60"
check '^(ptxemu-dbg) $' "the prompt"
type_line 'break reduce.cu:18 if block 1,0,0 thread 3,0,0'
check '^Breakpoint 1 at reduce.cu:18' "break"
type_line 'run'
check '^Breakpoint 1, reduce<<<(2,1,1),(64,1,1)>>> block (1,0,0) thread (3,0,0)' "run to the breakpoint"
type_line 'print buf[3]'
check '^buf\[3\] = 4489' "print"
type_line 'step'
check '(pc 34 in reduce)' "step"
# an empty line repeats the last step
t send-keys -t dbg Enter
check '(pc 35 in reduce)' "Enter repeats step"
type_line 'info warps'
check 'waiting at barrier' "info warps"
type_line 'bogus'
check "^Unknown command 'bogus'" "a bad command"
type_line 'quit'
check '^DEBUG-EXIT 0' "quit"
t kill-server

# Ctrl-C stops a kernel that runs forever, at its next instruction
f=$(cd "$srcdir/tests/faults" && pwd)/faults.ptx
sock="$tmp/sock2"
t new-session -d -s dbg -x 150 -y 50 "'$PTXEMU' debug --max-insts 1e15 '$f' --kernel spin; echo DEBUG-EXIT \$?; sleep 60"
check '^(ptxemu-dbg) $' "the prompt (spin)"
type_line 'run'
sleep 0.5
t send-keys -t dbg C-c
check '^Interrupted: block (0,0,0) warp 0' "Ctrl-C"
type_line 'info warps'
check 'running               0    faults.ptx:76' "info warps after Ctrl-C"
type_line 'quit'
check '^DEBUG-EXIT 0' "quit after Ctrl-C"
finish
