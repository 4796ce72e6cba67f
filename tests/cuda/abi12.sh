#!/bin/sh
# libcudart.so.12 as a program built with CUDA 12 calls it (tests/cuda/abi12.c):
# built with the C compiler against the library, run with ptxemu's libraries.
. "$srcdir/tests/lib.sh"
lib=$(pwd)/cudart
[ -f "$lib/libcudart.so.12" ] || { bad "cudart/libcudart.so.12 not built"; finish; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-abi12.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ln -s "$lib/libcudart.so.12" "$tmp/libcudart.so"
if ! ${CC:-cc} -o "$tmp/abi12" "$srcdir/tests/cuda/abi12.c" -L"$tmp" -lcudart -Wl,-rpath-link,"$lib" 2>"$tmp/cc.log"; then
  bad "building tests/cuda/abi12.c"; cat "$tmp/cc.log"; finish
fi
"$PTXEMU" exec "$tmp/abi12" >"$tmp/out" 2>&1   # (exec: ptxemu's libraries, and a sanitized build's runtime first)
rc=$?
cat "$tmp/out"
[ $rc = 0 ] && ok || bad "abi12 exited $rc"
n=$(grep -c '^ok' "$tmp/out"); [ "$n" -ge 20 ] && ok || bad "only $n checks ran"
finish
