#!/bin/sh
# Every instruction-semantics test under tests/exec (a launch file with its
# PTX and expected values) passes "ptxemu check".
. "$srcdir/tests/lib.sh"
for f in "$srcdir"/tests/exec/*.launch; do
  [ -e "$f" ] || continue
  if out=$("$PTXEMU" check -q "$f" 2>&1); then ok; else bad "$f"; echo "$out" | head -8; fi
done
finish
