#!/bin/sh
# Every CUDA call the libraries implement is listed in ptxemu-exec(1), and
# every call NVIDIA's libraries have (cudart/*_api.list) exists in ours:
# implemented, or a stub that fails loudly.
. "$srcdir/tests/lib.sh"
man="$srcdir/man/ptxemu-exec.1"
for lib in cudart/libcudartrt.a cudart/libcudadrv.a; do
  [ -f "$lib" ] || { bad "$lib not built"; continue; }
  for f in $(nm -g --defined-only "$lib" | awk 'NF == 3 && ($2 == "T" || $2 == "W") { print $3 }' | grep -E '^(cu|__cuda)'); do
    grep -qw -- "$f" "$man" && ok || bad "$f is not listed in man/ptxemu-exec.1"
  done
done
for pair in "cudart/libcudart.so.13 $srcdir/cudart/runtime_api.list" "cudart/libcuda.so.1 $srcdir/cudart/driver_api.list"; do
  set -- $pair
  nm -D --defined-only "$1" | awk '{ print $NF }' | sed 's/@.*//' | sort -u > exported.tmp
  missing=$(sort -u "$2" | comm -23 - exported.tmp | head -5)
  [ -z "$missing" ] && ok || bad "$1 lacks: $missing"
  rm -f exported.tmp
done
finish
