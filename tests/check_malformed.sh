#!/bin/sh
# The malformed-input matrix: every broken input in tests/malformed must be
# rejected with its expected message and exit status, without a crash, a
# sanitizer report or a hang.  tests/malformed/expected.txt has one line per
# check: FILE STATUS MESSAGE (MESSAGE is the rest of the line, a substring of
# what ptxemu prints).  How a FILE is run depends on its name:
#   ptx/*.ptx            ptxemu asm --check FILE
#   launch/*.launch      ptxemu check FILE
#   other/*.gpu          ptxemu occupancy other/gpu_kernel.ptx ... --gpu FILE
#   other/*.cmd          ptxemu ARGS, ARGS being the file's non-# lines
#   other/*.pxo-edit     ptxemu dis OBJ, OBJ being other/object_base.ptx
#                        assembled and then edited by the file's commands:
#                        'truncate N' keeps N bytes, 'poke OFFSET HEX...'
#                        overwrites bytes, 'append HEX...' adds bytes,
#                        'fixsum' recomputes the header's checksum.
# Commands run in tests/malformed, so messages name files as FILE is written.
# Usage: check_malformed.sh [--show FILE]  (--show prints what FILE gives).
. "$srcdir/tests/lib.sh"
case $PTXEMU in /*) ;; *) PTXEMU=$(pwd)/$PTXEMU ;; esac
limit=${MALFORMED_TIMEOUT:-10}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
cd "$srcdir/tests/malformed" || exit 99

# Store in the header of object $1 the checksum of its payload, so that a
# corrupted payload gets past the checksum to the reader's own checks: the
# checksum() of isa/object.c, in 32-bit halves (no shell overflows).
fix_checksum() {
  od -An -v -tu1 -j24 "$1" | tr -s ' \n' '\n\n' | grep . | {
    hi=3421674724 lo=2216829733 n=0 w=0 whi=0
    mul() {   # h = h * 1099511628211 mod 2^64 (0x100_000001b3)
      t=$((lo * 435)); lo2=$((t & 4294967295))
      hi=$(((hi * 435 + lo * 256 + (t >> 32)) & 4294967295)); lo=$lo2
    }
    while read -r b; do
      if [ "$n" -lt 4 ]; then w=$((w | b << (8 * n))); else whi=$((whi | b << (8 * (n - 4)))); fi
      n=$((n + 1))
      [ "$n" -eq 8 ] || continue
      lo=$((lo ^ w)); hi=$((hi ^ whi)); mul
      lo=$((lo ^ (((hi << 1) & 4294967295) | (lo >> 31)))); hi=$((hi ^ (hi >> 31)))
      n=0 w=0 whi=0
    done
    i=0    # the bytes after the last whole word, one at a time
    while [ "$i" -lt "$n" ]; do
      if [ "$i" -lt 4 ]; then b=$(((w >> (8 * i)) & 255)); else b=$(((whi >> (8 * (i - 4))) & 255)); fi
      lo=$((lo ^ b)); mul; i=$((i + 1))
    done
    printf '%08x%08x\n' "$hi" "$lo"
  } | sed 's/\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)/\8 \7 \6 \5 \4 \3 \2 \1/' > "$tmp/sum"
  poke_bytes "$1" 16 $(cat "$tmp/sum")
}

# The bytes given in hex ($1...), on stdout (octal escapes: dash's printf has no \x).
hex_bytes() {
  esc=
  for h in "$@"; do esc="$esc\\$(printf %03o "$((0x$h))")"; done
  printf "$esc"
}

# Write the hex bytes $3... into file $1 at offset $2.
poke_bytes() {
  file=$1 at=$2; shift 2
  hex_bytes "$@" | dd of="$file" bs=1 seek="$at" conv=notrunc 2>/dev/null
}

# Apply the edit commands of recipe $1 to a copy of the base object, at $2.
make_object() {
  [ -s "$tmp/base.pxo" ] || "$PTXEMU" asm -o "$tmp/base.pxo" other/object_base.ptx || return 1
  cp "$tmp/base.pxo" "$2" || return 1
  grep -v '^#' "$1" | while read -r cmd a rest; do
    case $cmd in
      truncate) head -c "$a" "$tmp/base.pxo" > "$2" ;;
      poke) poke_bytes "$2" "$a" $rest ;;
      append) hex_bytes $a $rest >> "$2" ;;
      fixsum) fix_checksum "$2" ;;
      '') ;;
      *) echo "$1: unknown edit '$cmd'" >&2; return 1 ;;
    esac
  done
}

# Run case $1; output in $tmp/out, exit status in $st.
run_case() {
  f=$1
  case $f in
    ptx/*) set -- asm --check "$f" ;;
    launch/*) set -- check "$f" ;;
    other/*.gpu) set -- occupancy other/gpu_kernel.ptx --kernel k --block 128 --gpu "$f" ;;
    other/*.cmd) eval "set -- $(grep -v '^#' "$f" | tr '\n' ' ')" ;;
    other/*.pxo-edit)
      obj=$tmp/$(basename "$f" .pxo-edit).pxo
      make_object "$f" "$obj" || { st=99; : > "$tmp/out"; return; }
      set -- dis -o "$tmp/dis.ptx" "$obj" ;;
    *) st=99; echo "no rule to run $f" > "$tmp/out"; return ;;
  esac
  timeout "$limit" "$PTXEMU" "$@" > "$tmp/out" 2>&1 < /dev/null
  st=$?
}

if [ "$1" = --show ]; then run_case "$2"; cat "$tmp/out"; echo "exit status $st"; exit 0; fi

seen=" "
while IFS= read -r line; do
  case $line in '#'* | '') continue ;; esac
  f=${line%% *}; rest=${line#* }; want=${rest%% *}; msg=${rest#* }
  if [ ! -e "$f" ]; then bad "$f: no such case"; continue; fi
  seen="$seen$f "
  run_case "$f"
  if [ "$st" -eq 124 ]; then bad "$f: no answer within ${limit}s (hang?)"; continue; fi
  if [ "$st" -ge 128 ]; then bad "$f: killed by signal $((st - 128))"; head -5 "$tmp/out"; continue; fi
  if grep -q -e 'runtime error:' -e 'Sanitizer' "$tmp/out"; then bad "$f: sanitizer report"; head -8 "$tmp/out"; continue; fi
  if [ "$st" -ne "$want" ]; then bad "$f: exit status $st, want $want"; head -5 "$tmp/out"; continue; fi
  if grep -qF -e "$msg" "$tmp/out"; then ok; else bad "$f: no '$msg' in:"; head -5 "$tmp/out"; fi
done < expected.txt

# every case file is in the manifest
for f in ptx/*.ptx launch/*.launch other/*.gpu other/*.cmd other/*.pxo-edit; do
  [ -e "$f" ] || continue
  case $seen in *" $f "*) ;; *) bad "$f: not in expected.txt" ;; esac
done
finish
