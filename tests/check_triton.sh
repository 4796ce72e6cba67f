#!/bin/sh
# Triton-style kernels (softmax, reduction, sm_80 mma + cp.async matmul, sm_90a
# wgmma + TMA matmul) and texture fetches, each compared with the outputs an
# H100 produced for the same launch file (tests/triton/README.md).
. "$srcdir/tests/lib.sh"
for f in "$srcdir"/tests/triton/*.launch; do
  [ -e "$f" ] || continue
  if out=$("$PTXEMU" check -q "$f" 2>&1); then ok; else bad "$f"; echo "$out" | head -8; fi
done
finish
