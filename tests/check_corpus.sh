#!/bin/sh
# Every PTX file of the corpus assembles with no diagnostic, and
# asm -> dis -> asm gives the identical object.  The round trip is checked
# on every other PTX file of the tests and examples too: each one that
# assembles (the broken ones of negative/ and malformed/ do not) must
# disassemble to PTX that assembles to the identical object.
. "$srcdir/tests/lib.sh"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
roundtrip() {
  "$PTXEMU" dis -o "$tmp/d.ptx" "$tmp/a.pxo" && "$PTXEMU" asm -o "$tmp/b.pxo" "$tmp/d.ptx" 2>"$tmp/err2"
  if cmp -s "$tmp/a.pxo" "$tmp/b.pxo"; then ok; else bad "$1: round trip differs"; head -5 "$tmp/err2"; fi
}
for f in $(find "$srcdir/tests/corpus" -name '*.ptx' | sort); do
  if ! "$PTXEMU" asm -o "$tmp/a.pxo" "$f" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
    bad "$f does not assemble cleanly:"; head -5 "$tmp/err"; continue
  fi
  roundtrip "$f"
done
n=0
for f in $(find "$srcdir/tests" "$srcdir/examples" -name '*.ptx' ! -path '*/tests/corpus/*' | sort); do
  "$PTXEMU" asm -o "$tmp/a.pxo" "$f" 2>/dev/null || continue
  n=$((n + 1))
  roundtrip "$f"
done
# the other files must have been found (a wrong path would test nothing)
[ "$n" -ge 50 ] || bad "only $n PTX files outside the corpus assemble"
finish
