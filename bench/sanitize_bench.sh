#!/bin/sh
# Cost of --sanitize racecheck: the launch's wall time with the checker over
# the plain functional run, on the kernels of bench/kernels (best of three
# each).  The target is at most 5x; a kernel above it is marked.
cd "$(dirname "$0")/.." || exit 1
PTXEMU=${PTXEMU:-./ptxemu}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# best launch time in seconds of: ptxemu run -v OPTIONS FILE
best() {
  b=""
  for rep in 1 2 3; do
    # shellcheck disable=SC2086
    "$PTXEMU" run -v --threads 1 $1 "$2" >/dev/null 2>"$tmp/v" || { echo FAILED; return; }
    s=$(awk '/thread instructions in/ { s += $12 } END { printf "%.6f", s }' "$tmp/v")
    b=$(awk -v a="$b" -v s="$s" 'BEGIN { print (a == "" || s < a) ? s : a }')
  done
  echo "$b"
}
echo "racecheck cost (launch wall time with --sanitize racecheck / without; target <= 5x):"
for k in matmul reduce transpose histogram; do
  plain=$(best "" "bench/kernels/$k.launch")
  race=$(best "--sanitize racecheck" "bench/kernels/$k.launch")
  if [ "$plain" = FAILED ] || [ "$race" = FAILED ]; then echo "  $k: FAILED"; continue; fi
  awk -v k="$k" -v p="$plain" -v r="$race" 'BEGIN { x = r / p; printf "  %-10s %7.3f s -> %7.3f s  %5.2fx%s\n", k, p, r, x, (x > 5 ? "  (over 5x)" : "") }'
done
