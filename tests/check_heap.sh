#!/bin/sh
# The device heap and device printf (tests/heap/heap.ptx): sizes that must
# get NULL (malloc(2^64-1) returned a pointer that the next malloc(16)
# returned again), malloc in a loop in constant time per call (a first-fit
# list took minutes), coalescing, bad frees; printf output streamed, not
# held in memory, and a failed write an error.
. "$srcdir/tests/lib.sh"
k=$(cd "$srcdir/tests/heap" && pwd)/heap.ptx
limit=${HEAP_TIMEOUT:-20}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
# the 8-byte words of a dump, one per line, in hex
words() { od -An -v -tx8 "$1" | tr -s ' \n' '\n\n' | grep .; }

"$PTXEMU" run "$k" --kernel huge -e 'buffer o 48 zero' --arg ptr:o -e "dump o $tmp/huge.bin" || bad "huge: the run failed"
set -- $(words "$tmp/huge.bin")
if [ "$1 $2 $3 $6" = "0000000000000000 0000000000000000 0000000000000000 0000000000000000" ]; then ok
else bad "malloc(2^64-1), malloc(2^63), malloc(8 MiB + 1), malloc(-16) gave $1 $2 $3 $6, want NULL"; fi
if [ "$4" != 0000000000000000 ] && [ "$5" != 0000000000000000 ] && [ "$4" != "$5" ]; then ok
else bad "two malloc(16) after the failed ones gave $4 and $5 (want two distinct blocks)"; fi

# 32 threads x 20000 malloc(1) into the 8 MiB heap: 524288 blocks of 16 bytes, then NULL
out=$(timeout "$limit" "$PTXEMU" check "$k" --kernel many --block 32 -e 'buffer c 4 zero' --arg ptr:c --arg u32:20000 \
      -e 'expect c value u32 524288' 2>&1); st=$?
if [ $st -eq 0 ]; then ok; else bad "many small mallocs: exit status $st"; echo "$out" | head -5; fi

# four 2 MiB blocks; freeing 1, 3, 2 leaves 6 MiB in one piece; freeing all, 8 MiB
"$PTXEMU" run "$k" --kernel merge -e 'buffer o 48 zero' --arg ptr:o -e "dump o $tmp/merge.bin" || bad "merge: the run failed"
set -- $(words "$tmp/merge.bin")
if [ "$1" != 0000000000000000 ] && [ "$4" != 0000000000000000 ] && [ "$5" = "$1" ] && [ "$6" = "$1" ]; then ok
else bad "coalescing: blocks $1 $2 $3 $4, then 6 MiB at $5 and 8 MiB at $6 (want both at $1)"; fi

# double free, a pointer into a block, a global: a fault naming the address
for mode in 0 1 2; do
  out=$("$PTXEMU" run "$k" --kernel badfree --arg u32:$mode 2>&1); st=$?
  if [ $st -ne 0 ] && echo "$out" | grep -q "which malloc did not return"; then ok
  else bad "bad free (mode $mode): exit status $st"; echo "$out" | head -5; fi
done

# printf's %p as the CUDA runtime prints it (an H200's output: "(nil)" for a
# null pointer, the width over the whole text) and '*' widths (the H200's
# "   42|77"); a negative '*' width left-justifies, a negative '*'
# precision is none (C's rules)
want='[0x1234] [(nil)] [            0xabcdef] [(nil)               |] [   42|77] [3     |] [3.14] [2.500000]'
got=$("$PTXEMU" run "$k" --kernel formats 2>&1)
[ "$got" = "$want" ] && ok || bad "printf %p and '*': got '$got'"

# printf: 32 threads x 10000 lines (its format ends in 20 dots); the expected text, computed here
awk 'BEGIN { for (t = 0; t < 32; t++) for (i = 0; i < 10000; i++) { print "The quick brown fox jumps over the lazy dog " t " " i " ...................." } }' |
  sort > "$tmp/talk.want"
run_talk() { "$PTXEMU" run "$k" --kernel talk --block 32 --arg u32:10000 "$@"; }
run_talk --max-memory 64K > "$tmp/talk.out"; st=$?
sort "$tmp/talk.out" | cmp -s - "$tmp/talk.want" && [ $st -eq 0 ] && ok || bad "printf with --max-memory 64K: exit status $st or wrong output"
# 23 MB of output within a 45 MB address space: streamed (not under sanitizers)
if (ulimit -v 45000 && "$PTXEMU" --version) >/dev/null 2>&1; then
  (ulimit -v 45000; run_talk) > "$tmp/talk.out"; st=$?
  sort "$tmp/talk.out" | cmp -s - "$tmp/talk.want" && [ $st -eq 0 ] && ok || bad "printf under a 45 MB address space: exit status $st, $(wc -c < "$tmp/talk.out") bytes"
fi
# a failed write is exit status 73, in both modes
for mode in "" "--gpu h100"; do
  if [ -c /dev/full ] && [ -w /dev/full ]; then
    out=$(run_talk $mode 2>&1 >/dev/full); st=$?
    if [ $st -eq 73 ] && echo "$out" | grep -q "cannot write device printf output"; then ok
    else bad "printf to a full device ($mode): exit status $st"; echo "$out" | head -5; fi
  fi
done
# check compares the output as it streams
run_talk --max-memory 64K > "$tmp/talk.out"
printf 'ptx %s\nlaunch talk grid 1 1 1 block 32 1 1 shared 0\narg u32 10000\nstdout %s\n' "$k" "$tmp/talk.out" > "$tmp/t.launch"
out=$("$PTXEMU" check "$tmp/t.launch" 2>&1) && echo "$out" | grep -q "stdout: ok ($(wc -c < "$tmp/talk.out") bytes)" && ok || bad "stdout compare: $out"
head -c 100000 "$tmp/talk.out" > "$tmp/short.out"; sed -i "s|stdout .*|stdout $tmp/short.out|" "$tmp/t.launch"
out=$("$PTXEMU" check "$tmp/t.launch" 2>&1); echo "$out" | grep -q "stdout: MISMATCH at byte 100000 (expected 100000 bytes, got $(wc -c < "$tmp/talk.out"))" && ok || bad "stdout compare, short: $out"
finish
