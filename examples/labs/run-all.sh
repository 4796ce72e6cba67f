#!/usr/bin/env bash
# run-all.sh -- run every lab of examples/labs and summarise.  Exit status 0
# when every lab reproduces the direction of its effects (known gaps of the
# timing model, reported as XFAIL, and effects smaller than the textbook's,
# reported as SIZE, do not fail a lab unless LAB_STRICT=1),
# 1 when a lab's check failed, 2 when ptxemu is missing.
#
#   examples/labs/run-all.sh              # all labs
#   examples/labs/run-all.sh 02 05        # labs whose folder starts with 02 or 05
#   LAB_OUT=/tmp/labs examples/labs/run-all.sh   # keep stats and traces, one folder per lab
set -u
here=$(cd "$(dirname "$0")" && pwd)
ptxemu=${PTXEMU:-$here/../../ptxemu}
if [ ! -x "$ptxemu" ]; then
  echo "run-all.sh: no ptxemu at $ptxemu (run 'make' first, or set PTXEMU)" >&2
  exit 2
fi
labs=()
for d in "$here"/[0-9][0-9]-*/; do
  name=$(basename "$d")
  if [ $# -gt 0 ]; then
    keep=0
    for p in "$@"; do case "$name" in "$p"*) keep=1 ;; esac; done
    [ $keep = 1 ] || continue
  fi
  labs+=("$name")
done
failed=()
summary=()
known=0
sizes=0
t0=$(date +%s)
for name in "${labs[@]}"; do
  echo "################ $name"
  log=$(mktemp)
  if [ -n "${LAB_OUT:-}" ]; then out="$LAB_OUT/$name"; else out=""; fi
  LAB_OUT=$out "$here/$name/run.sh" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  verdict=$(grep '^ptxemu:' "$log" | tail -1 | sed 's/^ptxemu: *//')
  [ -n "$verdict" ] || verdict="no verdict (exit status $rc)"
  summary+=("$(printf '%-22s %s' "$name" "$verdict")")
  [ "$rc" -eq 0 ] || failed+=("$name")
  known=$((known + $(grep -c '^  XFAIL' "$log" || true)))
  sizes=$((sizes + $(grep -c '^  SIZE' "$log" || true)))
  rm -f "$log"
done
echo
echo "################ summary ($(($(date +%s) - t0)) s)"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
if [ "$known" -gt 0 ]; then
  echo "no lab failed; $known textbook effect(s) not reproduced, marked XFAIL above (known gaps, doc/labs.md)"
else
  echo "all ${#labs[@]} labs reproduce the direction of their checked effects"
fi
[ "$sizes" -gt 0 ] && echo "$sizes effect(s) smaller than the textbook's, marked SIZE above (doc/labs.md)"
exit 0
