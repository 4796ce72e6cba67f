#!/bin/sh
# Inputs that once crashed ptxemu (found by fuzzing, see fuzz/README.md):
# each must now be rejected with exit status 65 and a diagnostic, no crash.
. "$srcdir/tests/lib.sh"
for f in "$srcdir"/tests/regress/*.ptx; do
  [ -e "$f" ] || continue
  "$PTXEMU" asm --check "$f" >/dev/null 2>&1
  st=$?
  if [ $st -eq 65 ]; then ok; else bad "$f: exit status $st, want 65"; fi
done
finish
