#!/bin/sh
# tools/sass/stall_pairs.py reads ptxas's stall counts from a cubin: the
# model's lat_cross_pipe ([S] configs/h100.gpu) is what it reports for
# tests/timing/pipes.ptx's pipe_hop and pipe_stay chains compiled by ptxas for
# sm_90: a LOP3 read by an IMAD and an IMAD read by a LOP3 5 cycles
# after their writer, a LOP3 read by an SHF and an SHF by a LOP3 4; files that are not cubins
# are refused with a message.  Needs python3 and ptxas (the CUDA toolkit;
# .ci/run requires that it ran).
. "$srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
if command -v ptxas >/dev/null 2>&1; then PTXAS=ptxas
elif [ -x /usr/local/cuda/bin/ptxas ]; then PTXAS=/usr/local/cuda/bin/ptxas
else echo "SKIP: ptxas (the CUDA toolkit) is not installed"; exit 77; fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
tool="python3 $srcdir/tools/sass/stall_pairs.py"

"$PTXAS" -arch=sm_90 -o "$tmp/t.cubin" "$srcdir/tests/timing/pipes.ptx" 2>"$tmp/err" && ok || { bad "ptxas: exit $?"; cat "$tmp/err"; }
$tool --min 1 "$tmp/t.cubin" >"$tmp/pairs" 2>"$tmp/err" && ok || { bad "stall_pairs.py: exit $?"; cat "$tmp/err"; }
most() {   # WRITER READER: the most frequent cycles between them
  awk -v w="$1" -v r="$2" '$1 == w && $2 == r { print $5 }' "$tmp/pairs"
}
[ "$(most LOP3 IMAD)" = 5 ] && ok || bad "LOP3 -> IMAD: $(most LOP3 IMAD) cycles, want 5"
[ "$(most IMAD LOP3)" = 5 ] && ok || bad "IMAD -> LOP3: $(most IMAD LOP3) cycles, want 5"
[ "$(most LOP3 SHF)" = 4 ] && ok || bad "LOP3 -> SHF: $(most LOP3 SHF) cycles, want 4"
[ "$(most SHF LOP3)" = 4 ] && ok || bad "SHF -> LOP3: $(most SHF LOP3) cycles, want 4"

# not a cubin: a message naming the file, exit 66
$tool "$srcdir/tests/timing/pipes.ptx" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st -eq 66 ] && grep -q 'pipes.ptx: not an ELF64 file' "$tmp/err" && ok || bad "a PTX file: exit $st, $(cat "$tmp/err")"
$tool "$tmp/missing.cubin" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st -eq 66 ] && grep -q 'missing.cubin' "$tmp/err" && ok || bad "a missing file: exit $st, $(cat "$tmp/err")"
head -c 100 /dev/urandom | { printf '\177ELF\002'; cat; } >"$tmp/short.cubin"
$tool "$tmp/short.cubin" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st -eq 66 ] && ok || bad "a truncated ELF file: exit $st, $(cat "$tmp/err")"
finish
