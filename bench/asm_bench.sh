#!/bin/sh
# bench/asm_bench.sh - how fast ptxemu assembles PTX, next to ptxas.
#
# Builds one module of at least BENCH_MB (default 20) MB from the PTX
# corpus (tests/corpus/ptx, every architecture but sm_90a, and the
# examples): each source is pasted many times with its kernels, functions
# and variables renamed per copy (bench/rename.awk), under a single
# ".version 9.0 / .target sm_90" header, so ptxemu and ptxas both accept it.
# Then it reports, as plain lines:
#   - ptxemu asm --check (parse + check + encode) and ptxemu asm -o (also
#     writing the .pxo): best wall time of BENCH_RUNS (default 5) runs, MB/s,
#     and peak memory (GNU time's max RSS) as a multiple of the input size;
#   - ptxas -arch=sm_90 on the same file, which compiles to machine code and
#     takes minutes (PTXAS=none skips it; it is skipped when
#     /usr/local/cuda/bin/ptxas is absent).
#
#   make bench            (runs every bench/*.sh)
#   sh bench/asm_bench.sh (from the build directory; PTXEMU, PTXAS, BENCH_MB,
#                          BENCH_RUNS, BENCH_OUT override the defaults)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
srcdir=${srcdir:-$(dirname "$here")}
PTXEMU=${PTXEMU:-./ptxemu}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
BENCH_MB=${BENCH_MB:-20}
BENCH_RUNS=${BENCH_RUNS:-5}
out=${BENCH_OUT:-bench/out}
mkdir -p "$out"
big=$out/asm_bench.ptx

# ---- the input ---------------------------------------------------------------
want=$((BENCH_MB * 1000000))
have=0
[ -f "$big" ] && have=$(wc -c < "$big")
if [ "$have" -lt "$want" ] || [ "$big" -ot "$here/rename.awk" ]; then
  tmpl=$out/templates
  rm -rf "$tmpl"; mkdir -p "$tmpl"
  n=0
  for f in "$srcdir"/tests/corpus/ptx/sm_*/*.ptx "$srcdir"/examples/*/*.ptx; do
    case $f in */sm_90a/*) continue ;; esac
    [ -f "$f" ] || continue
    n=$((n + 1))
    awk -f "$here/rename.awk" "$f" > "$tmpl/$n.ptx"
  done
  [ "$n" -gt 0 ] || { echo "asm_bench: no PTX sources under $srcdir" >&2; exit 1; }
  printf '.version 9.0\n.target sm_90\n.address_size 64\n' > "$big.tmp"
  size=0; k=0
  while [ "$size" -lt "$want" ]; do
    for t in "$tmpl"/*.ptx; do
      k=$((k + 1))
      sed "s/@@/_b$k/g" "$t" >> "$big.tmp"
    done
    size=$(wc -c < "$big.tmp")
  done
  mv "$big.tmp" "$big"
  rm -rf "$tmpl"
fi
bytes=$(wc -c < "$big")
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
kernels=$(grep -c '\.entry' "$big" || true)
echo "input: $big, $mb MB, $kernels kernels"

# ---- timing helpers ------------------------------------------------------------
now() { date +%s%N; }
# best wall time in seconds of BENCH_RUNS runs of "$@"
best() {
  b=
  i=0
  while [ "$i" -lt "$BENCH_RUNS" ]; do
    t0=$(now); "$@" > /dev/null 2>&1 || { echo "asm_bench: '$*' failed" >&2; "$@" 2>&1 | head -5 >&2; exit 1; }; t1=$(now)
    t=$((t1 - t0))
    if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
    i=$((i + 1))
  done
  awk -v t="$b" 'BEGIN { printf "%.3f", t / 1e9 }'
}
# peak resident memory in kB of one run of "$@" (empty without GNU time)
peak() {
  if [ -x /usr/bin/time ] && /usr/bin/time -f %M true > /dev/null 2>&1; then
    /usr/bin/time -f %M -o "$out/time.txt" "$@" > /dev/null 2>&1 || true
    tail -1 "$out/time.txt"
  fi
}
report() {   # label seconds peak_kB
  awk -v l="$1" -v s="$2" -v m="$3" -v b="$bytes" 'BEGIN {
    line = sprintf("%s: %.3f s, %.1f MB/s", l, s, s > 0 ? b / 1e6 / s : 0)
    if (m != "") line = line sprintf(", max RSS %.1f MB (%.1fx input)", m / 1024, m * 1024 / b)
    print line }'
}

# ---- ptxemu ----------------------------------------------------------------------
s=$(best "$PTXEMU" asm --check "$big")
report "ptxemu asm --check" "$s" "$(peak "$PTXEMU" asm --check "$big")"
s=$(best "$PTXEMU" asm -o "$out/asm_bench.pxo" "$big")
report "ptxemu asm -o FILE.pxo" "$s" "$(peak "$PTXEMU" asm -o "$out/asm_bench.pxo" "$big")"
rm -f "$out/asm_bench.pxo" "$out/time.txt"

# ---- ptxas -----------------------------------------------------------------------
if [ "$PTXAS" = none ]; then
  echo "ptxas: skipped (PTXAS=none)"
elif [ -x "$PTXAS" ]; then
  t0=$(now)
  if "$PTXAS" -arch=sm_90 "$big" -o /dev/null > "$out/ptxas.log" 2>&1; then
    t1=$(now)
    awk -v t="$((t1 - t0))" -v b="$bytes" 'BEGIN { printf "ptxas -arch=sm_90: %.3f s, %.2f MB/s\n", t / 1e9, b / 1e6 / (t / 1e9) }'
  else
    echo "ptxas -arch=sm_90: failed (see $out/ptxas.log)"
  fi
else
  echo "ptxas: $PTXAS not found, skipped"
fi
