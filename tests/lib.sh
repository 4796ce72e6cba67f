# tests/lib.sh - helpers for the shell tests: counting, a closing line, and
# SQL on traces.
pass=0; fail=0
ok()   { pass=$((pass + 1)); }
bad()  { fail=$((fail + 1)); echo "FAIL: $*"; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; }
: "${PTXEMU:=./ptxemu}"
: "${srcdir:=.}"
# SQL on a trace (the sqlite3 command; a script that needs it calls need_sqlite3 first)
need_sqlite3() { command -v sqlite3 >/dev/null 2>&1 || { echo "SKIP: the sqlite3 command is not installed"; exit 77; }; }
q() { sqlite3 -batch "$1" "$2" 2>&1; }
