#!/bin/sh
# Kernel faults give a clear report and exit status 3 (4 for a reached
# limit such as the instruction budget); never a crash.
. "$srcdir/tests/lib.sh"
k="$srcdir/tests/faults/faults.ptx"
expect_fault() {   # NAME PATTERN ARGS...  (exit status 3; EXPECT_STATUS overrides)
  name=$1; pat=$2; shift 2
  want=${EXPECT_STATUS:-3}
  out=$("$PTXEMU" run "$k" "$@" 2>&1); st=$?
  if [ $st -ne $want ]; then bad "$name: exit status $st, want $want"; echo "$out" | head -5; return; fi
  if echo "$out" | grep -q -- "$pat"; then ok; else bad "$name: report lacks '$pat'"; echo "$out" | head -8; fi
}
expect_fault oob "invalid global access of 4 bytes" --kernel oob --block 32 -e 'buffer b 64 zero' --arg ptr:b --arg u32:16
expect_fault oob-where "faults.ptx:22 (pc 6 in oob)" --kernel oob --block 32 -e 'buffer b 64 zero' --arg ptr:b --arg u32:16
expect_fault oob-thread "by thread (16,0,0) in block (0,0,0)" --kernel oob --block 32 -e 'buffer b 64 zero' --arg ptr:b --arg u32:0 --grid 1
expect_fault misaligned "not 4-byte aligned" --kernel misaligned -e 'buffer b 64 zero' --arg ptr:b
expect_fault trap "trap executed" --kernel trapper
expect_fault deadlock "barrier deadlock" --kernel deadlock --block 64
EXPECT_STATUS=4 expect_fault budget "instruction budget" --kernel spin --max-insts 100000
EXPECT_STATUS=4 expect_fault wall-time "wall-time budget of 0.3 s" --kernel spin --max-insts 1e15 --max-seconds 0.3
EXPECT_STATUS=4 expect_fault wall-time-timed "faults.ptx:" --kernel spin --max-insts 1e15 --max-seconds 0.3 --gpu fermi
EXPECT_STATUS=65 expect_fault memory-cap "over the limit of 65536 (the device memory cap" --kernel trapper --max-memory 64K -e 'buffer big 1048576 zero'
EXPECT_STATUS=65 expect_fault memory-cap-ramp "over the limit of 65536 (the device memory cap" --kernel trapper --max-memory 64K -e 'buffer big 1048576 ramp u32 0 1'
expect_fault tma-misaligned "coordinate 1 of the innermost dimension: 4 bytes into the row, not a multiple of 16" --kernel tma_misaligned \
  -e 'buffer a 4096 zero' -e 'tensormap m u32 2 a dims 32 32 strides 128 box 32 8' --arg tensormap:m --arg u32:1
out=$("$PTXEMU" run "$k" --kernel tma_misaligned -e 'buffer a 4096 zero' -e 'tensormap m u32 2 a dims 32 32 strides 128 box 32 8' --arg tensormap:m --arg u32:4 2>&1) && ok || { bad "tma at x = 4 (16 bytes) faulted"; echo "$out" | head -5; }
expect_fault shared-oob "invalid shared access" --kernel shared_oob
expect_fault shared-wrap-oob "invalid shared access of 4 bytes at address 0xfff0\$" --kernel shared_wrap_oob
expect_fault shared-span-oob "invalid shared access of 4 bytes" --kernel shared_span_oob --block 32
expect_fault shared-span-oob-where "faults.ptx:114 (pc 6 in shared_span_oob)" --kernel shared_span_oob --block 32
# a padded column's greatest lane, not the OR of the lanes, bounds the next loads through the register
expect_fault shared-pad-span-oob "faults.ptx:131 (pc 6 in shared_pad_span_oob)" --kernel shared_pad_span_oob --block 32
expect_fault shared-pad-span-oob-lane "invalid shared access of 4 bytes at address 0x1480.*" --kernel shared_pad_span_oob --block 32
# ... and in a timed run, whose issue order (emu/reorder.c) the links between accesses follow
expect_fault shared-pad-span-oob-timed "faults.ptx:131 (pc [0-9]* in shared_pad_span_oob)" --kernel shared_pad_span_oob --block 32 --gpu h100
expect_fault shared-span-misaligned "not 4-byte aligned" --kernel shared_span_misaligned --block 32
expect_fault vector-red-shared "vector red at 0x2e0000000400, which is not a global address" --kernel vector_red_shared
expect_fault assert "Assertion \`boom!\` failed" --kernel asserts
# a kernel that overwrites its frame header through a local address: a fault, never a jump anywhere
expect_fault frame-clobber "the return address in the stack frame was overwritten" --kernel frame_clobber
# early return before a barrier completes normally
if "$PTXEMU" check "$k" --kernel early_exit --block 64 -e 'buffer o 256 zero' --arg ptr:o --arg u32:40 -e 'expect o value u32 0 1 2 3' >/dev/null 2>&1; then ok; else bad "early_exit deadlocked or failed"; fi
finish
