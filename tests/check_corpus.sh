#!/bin/sh
# Every PTX file of the corpus assembles with no diagnostic, and
# asm -> dis -> asm gives the identical object.
. "$srcdir/tests/lib.sh"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
for f in $(find "$srcdir/tests/corpus" -name '*.ptx' | sort); do
  if ! "$PTXEMU" asm -o "$tmp/a.pxo" "$f" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
    bad "$f does not assemble cleanly:"; head -5 "$tmp/err"; continue
  fi
  "$PTXEMU" dis -o "$tmp/d.ptx" "$tmp/a.pxo" && "$PTXEMU" asm -o "$tmp/b.pxo" "$tmp/d.ptx" 2>"$tmp/err2"
  if cmp -s "$tmp/a.pxo" "$tmp/b.pxo"; then ok; else bad "$f: round trip differs"; head -5 "$tmp/err2"; fi
done
finish
