# tests/lib.sh - helpers for the shell tests: counting and a closing line.
pass=0; fail=0
ok()   { pass=$((pass + 1)); }
bad()  { fail=$((fail + 1)); echo "FAIL: $*"; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; }
: "${PTXEMU:=./ptxemu}"
: "${srcdir:=.}"
