#!/bin/sh
# Every instruction-semantics test under tests/exec (a launch file with its
# PTX and expected values) passes "ptxemu check", functionally and in timing
# mode on h100, where instructions issue in ptxas's order within basic blocks
# (emu/reorder.c) and blocks start, wait and # calls with .reg parameters from an object file, whose names are not the
# assembler's pointers: the callee's registers are found by name
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
for t in ctrl_vector_reg_params; do
  if "$PTXEMU" asm -o "$tmp/$t.pxo" "$srcdir/tests/exec/$t.ptx" && sed "s|^ptx .*|ptx $t.pxo|" "$srcdir/tests/exec/$t.launch" > "$tmp/$t.launch" &&
     out=$("$PTXEMU" check -q "$tmp/$t.launch" 2>&1); then ok; else bad "$t from an object file"; echo "$out" | head -8; fi
done
finish as the timing model says.
. "$srcdir/tests/lib.sh"
for f in "$srcdir"/tests/exec/*.launch; do
  [ -e "$f" ] || continue
  if out=$("$PTXEMU" check -q "$f" 2>&1); then ok; else bad "$f"; echo "$out" | head -8; fi
  if out=$("$PTXEMU" check -q --gpu h100 --max-seconds 60 "$f" 2>&1); then ok; else bad "$f (timing mode)"; echo "$out" | head -8; fi
done
# calls with .reg parameters from an object file, whose names are not the
# assembler's pointers: the callee's registers are found by name
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
for t in ctrl_vector_reg_params; do
  if "$PTXEMU" asm -o "$tmp/$t.pxo" "$srcdir/tests/exec/$t.ptx" && sed "s|^ptx .*|ptx $t.pxo|" "$srcdir/tests/exec/$t.launch" > "$tmp/$t.launch" &&
     out=$("$PTXEMU" check -q "$tmp/$t.launch" 2>&1); then ok; else bad "$t from an object file"; echo "$out" | head -8; fi
done
finish
