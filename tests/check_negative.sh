#!/bin/sh
# Each broken PTX file lists, in its "// expect:" lines, exactly the
# diagnostics the assembler must print; asm must exit with status 65.
. "$srcdir/tests/lib.sh"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
for f in "$srcdir"/tests/negative/*.ptx; do
  [ -e "$f" ] || continue
  sed -n 's|^// expect: ||p' "$f" > "$tmp/want"
  "$PTXEMU" asm --check "$f" 2>"$tmp/err" >/dev/null
  st=$?
  grep -E '^[^ ]+:[0-9]+:[0-9]+: error: ' "$tmp/err" | sed 's|^[^:]*:||' > "$tmp/got"
  if [ "$st" -ne 65 ]; then bad "$f: exit status $st, want 65"; continue; fi
  if cmp -s "$tmp/want" "$tmp/got"; then ok; else bad "$f: diagnostics differ"; diff "$tmp/want" "$tmp/got" | head -6; fi
done
finish
