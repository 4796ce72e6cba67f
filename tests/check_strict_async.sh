#!/bin/sh
# --strict-async: an async-proxy read (cp.async.bulk, TMA store, wgmma
# descriptors) of shared memory written through the generic proxy faults
# unless the writing thread ran fence.proxy.async in between
# (tests/exec/async_strict.ptx; emu/proxy.c).
. "$srcdir/tests/lib.sh"
k="$srcdir/tests/exec/async_strict.ptx"
tm='tensormap tm u32 2 t dims 16 8 strides 64 box 16 8'
strict() {   # NAME WANT-STATUS PATTERN ARGS...
  name=$1; want=$2; pat=$3; shift 3
  out=$("$PTXEMU" run --strict-async "$k" "$@" 2>&1); st=$?
  if [ $st -ne "$want" ]; then bad "$name: exit status $st, want $want"; echo "$out" | head -6; return; fi
  if [ -z "$pat" ] || echo "$out" | grep -q -- "$pat"; then ok; else bad "$name: report lacks '$pat'"; echo "$out" | head -6; fi
}
bulk() { strict "$1" "$2" "$3" --kernel strict_bulk --block 64 -e 'buffer o 256 zero' --arg ptr:o --arg "u32:$4"; }
bulk bulk-nofence 3 "cp.async.bulk reads shared memory at 0x400 that thread (0,0,0) wrote through the generic proxy (line 36)" 0
bulk bulk-where 3 "async_strict.ptx:54 (pc 26 in strict_bulk)" 0
bulk bulk-fence 0 "" 1
bulk bulk-reader-fence 3 "at 0x404 that thread (1,0,0) wrote" 2
bulk bulk-global-fence 3 "missing proxy fence" 4
bulk bulk-atom 3 "thread (0,0,0) wrote through the generic proxy (line 40)" 8
bulk bulk-atom-fence 0 "" 9
tma() { strict "$1" "$2" "$3" --kernel strict_tma --block 64 -e 'buffer t 512 zero' -e "$tm" --arg tensormap:tm --arg "u32:$4"; }
tma tma-nofence 3 "cp.async.bulk.tensor reads shared memory at 0x400" 0
tma tma-fence 0 "" 1
tma tma-after-tma-load 0 "" 2
wg() { strict "$1" "$2" "$3" --kernel strict_wgmma --block 128 -e 'buffer w 2048 zero' --arg ptr:w --arg "u32:$4"; }
wg wgmma-nofence 3 "wgmma.mma_async (matrix descriptor) reads shared memory" 0
wg wgmma-fence 0 "" 1
# the same kernels without the option run as before
if "$PTXEMU" run "$k" --kernel strict_bulk --block 64 -e 'buffer o 256 zero' --arg ptr:o --arg u32:0 >/dev/null 2>&1; then ok; else bad "without --strict-async"; fi
finish
