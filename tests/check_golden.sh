#!/bin/sh
# The project's own real-hardware cases (tests/golden, the format of
# ../shared/golden/FORMAT.md, recorded on an H100 with the golden tools):
# every expected buffer bit for bit, functionally.  Their hw.txt figures
# feed "tests/correlate tests/golden h100".
. "$srcdir/tests/lib.sh"
for c in "$srcdir"/tests/golden/*/; do
  [ -f "$c/case.txt" ] || continue
  if out=$(cd "$c" && "$PTXEMU" check -q case.txt 2>&1); then ok; else bad "$(basename "$c")"; echo "$out" | head -8; fi
done
finish
