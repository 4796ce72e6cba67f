#!/bin/sh
# Grading output: "ptxemu check --format json|tap" gives one result per
# expect line with its first mismatch in the expect's type, and the run's
# figures; "exec --format json" the program's exit status and launches.
# JSON is checked by Python's parser (skipped without python3), TAP by a
# small parser here (version line, plan, numbered results, YAML blocks).
. "$srcdir/tests/lib.sh"
d="$srcdir/tests/grading"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-grading.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1

# TAP 13/14: "TAP version 1[34]", a plan 1..N (first or last), N results
# numbered 1..N in order, YAML blocks "  ---" .. "  ..." only after a
# result; prints "PASS FAIL" counts or "bad: why".
tap_check() {
  awk '
    NR == 1 { if ($0 !~ /^TAP version 1[34]$/) { print "bad: version line " $0; bad = 1; exit } next }
    /^1\.\.[0-9]+/ { if (plan != "") { print "bad: two plans"; bad = 1; exit } plan = substr($1, 4) + 0; next }
    /^  ---$/ { if (!last || yaml) { print "bad: YAML block not after a result"; bad = 1; exit } yaml = 1; next }
    /^  \.\.\.$/ { if (!yaml) { print "bad: YAML end without start"; bad = 1; exit } yaml = 0; next }
    yaml { if ($0 !~ /^  [a-z_]+: /) { print "bad: YAML line " $0; bad = 1; exit } next }
    /^(not )?ok [0-9]+( - |$)/ {
      n++; num = ($1 == "not") ? $3 : $2
      if (num != n) { print "bad: result " num " where " n " was due"; bad = 1; exit }
      if ($1 == "not") fails++; else passes++
      last = 1; next }
    /^#/ || /^Bail out!/ { last = 0; next }
    { print "bad: unexpected line " $0; bad = 1; exit }
    END { if (bad) exit 1
          if (yaml) { print "bad: unterminated YAML"; exit 1 }
          if (plan == "" || plan != n) { print "bad: plan " plan ", " n " results"; exit 1 }
          print passes + 0, fails + 0 }'
}

# ---- all pass: exit 0, JSON with the run's figures
"$PTXEMU" check --format json "$d/pass.launch" >"$tmp/pass.json" 2>"$tmp/err"; st=$?
[ $st -eq 0 ] && ok || { bad "pass.launch json: exit $st"; cat "$tmp/err"; }
if [ $have_py = 1 ]; then
  python3 - "$tmp/pass.json" <<'PY' && ok || bad "pass.launch: JSON fields"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_status"] == 0 and d["passed"] == 2 and d["failed"] == 0, d
r = d["run"]
assert r["launches"] == 1 and r["inst_executed"] > 0 and r["thread_inst_executed"] >= r["inst_executed"], r
assert r["cycles"] is None and r["mode"] == "functional" and r["wall_seconds"] >= 0 and r["fault"] is None, r
assert [x["name"] for x in d["results"]] == ["out", "f"] and all(x["pass"] for x in d["results"])
assert d["results"][0]["type"] == "s32" and d["results"][0]["line"] == 9 and "first_mismatch" not in d["results"][0]
PY
fi

# ---- timing: cycles in the metadata
if [ $have_py = 1 ]; then
  "$PTXEMU" check -q --timing --format json "$d/pass.launch" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)["run"]
assert r["mode"] == "timing" and r["gpu"] == "h100" and r["cycles"] > 0, r' && ok || bad "--timing json: cycles"
fi

# ---- mismatches: typed first mismatch (s32 of a value list, f32 of a ramp buffer)
"$PTXEMU" check "$d/fail.launch" >"$tmp/fail.txt" 2>&1; st=$?
[ $st -eq 1 ] && ok || bad "fail.launch text: exit $st"
grep -q "^out: MISMATCH at element 2: expected 7 (0x00000007), got 1 (0x00000001) (1 of 5 s32 elements differ)$" "$tmp/fail.txt" && ok || { bad "typed s32 text line"; cat "$tmp/fail.txt"; }
grep -q "^f: MISMATCH at element 5: expected -7 (0xc0e00000), got 2.5 (0x40200000) (1 of 16 f32 elements differ)$" "$tmp/fail.txt" && ok || { bad "typed f32 (buffer type) text line"; cat "$tmp/fail.txt"; }
"$PTXEMU" check --format json "$d/fail.launch" >"$tmp/fail.json" 2>"$tmp/err"; st=$?
[ $st -eq 1 ] && ok || bad "fail.launch json: exit $st"
if [ $have_py = 1 ]; then
  python3 - "$tmp/fail.json" <<'PY' && ok || bad "fail.launch: JSON fields"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_status"] == 1 and d["passed"] == 1 and d["failed"] == 3, d
r = d["results"]
assert [x["pass"] for x in r] == [False, False, True, False]
m = r[0]["first_mismatch"]
assert r[0]["type"] == "s32" and m["index"] == 2 and m["expected"] == 7 and m["actual"] == 1 and m["actual_bits"] == "0x00000001", r[0]
assert r[0]["mismatches"] == 1 and r[0]["elements"] == 5 and r[0]["mode"] == "exact"
m = r[1]["first_mismatch"]
assert r[1]["type"] == "f32" and r[1]["mode"] == "f32ulp 1" and m["index"] == 3 and m["expected"] == 2.25 and m["actual"] == 1.5, r[1]
m = r[3]["first_mismatch"]
assert r[3]["type"] == "f32" and m["index"] == 5 and m["expected"] == -7 and m["actual"] == 2.5, r[3]
assert "MISMATCH at element 5" in r[3]["message"]
PY
fi
"$PTXEMU" check --format tap "$d/fail.launch" >"$tmp/fail.tap" 2>"$tmp/err"; st=$?
[ $st -eq 1 ] && ok || bad "fail.launch tap: exit $st"
res=$(tap_check <"$tmp/fail.tap")
[ "$res" = "1 3" ] && ok || { bad "fail.launch TAP: $res"; cat "$tmp/fail.tap"; }
grep -q '^  expected: "7"$' "$tmp/fail.tap" && grep -q '^  index: 2$' "$tmp/fail.tap" && ok || bad "TAP diagnostics of the s32 mismatch"
# Perl's harness, where installed, reads it without a parse error
if command -v prove >/dev/null 2>&1; then
  prove --exec cat "$tmp/fail.tap" >"$tmp/prove.out" 2>&1
  grep -q "Failed tests:  1-2, 4" "$tmp/prove.out" && ! grep -q "Parse errors" "$tmp/prove.out" && ok || { bad "prove on the TAP"; cat "$tmp/prove.out"; }
fi

# ---- a fault: nothing compared, exit 3, the fault report in the metadata
"$PTXEMU" check --format json "$d/fault.launch" >"$tmp/fault.json" 2>"$tmp/err"; st=$?
[ $st -eq 3 ] && ok || bad "fault.launch json: exit $st"
if [ $have_py = 1 ]; then
  python3 - "$tmp/fault.json" <<'PY' && ok || bad "fault.launch: JSON fields"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_status"] == 3 and d["failed"] == 1 and not d["results"][0]["compared"], d
f = d["run"]["fault"]
assert "out-of-bounds" in f and "grade.cu:15" in f and "\n" in f, f
PY
fi
"$PTXEMU" check --format tap "$d/fault.launch" >"$tmp/fault.tap" 2>/dev/null
res=$(tap_check <"$tmp/fault.tap")
[ "$res" = "0 1" ] && grep -q "^Bail out!" "$tmp/fault.tap" && ok || { bad "fault.launch TAP: $res"; cat "$tmp/fault.tap"; }

# ---- device printf does not corrupt the document; names are escaped
cat >"$tmp/p.ptx" <<'PTX'
.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 r) vprintf (.param .b64 f, .param .b64 a);
.global .align 1 .b8 fmt[12] = {34, 113, 117, 111, 116, 101, 92, 10, 0};
.visible .entry k(.param .u64 p)
{
  .reg .b64 %rd<3>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, 5;
  st.global.u32 [%rd1], %r1;
  cvta.global.u64 %rd2, fmt;
  { .param .b64 f; .param .b64 a; .param .b32 r;
    st.param.b64 [f], %rd2; st.param.b64 [a], 0;
    call.uni (r), vprintf, (f, a); }
  ret;
}
PTX
printf 'ptx p.ptx\nbuffer b 4 zero\nlaunch k grid 1 1 1 block 1 1 1 shared 0\narg ptr b\nexpect b value u32 6\n' >"$tmp/p\"\\x.launch"
"$PTXEMU" check --format json "$tmp/p\"\\x.launch" >"$tmp/p.json" 2>"$tmp/p.err"; st=$?
if [ $have_py = 1 ]; then
  [ $st -eq 1 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
assert d["input"].endswith("/p\"\\x.launch") and r["name"] == "b" and r["first_mismatch"]["expected"] == 6 and r["first_mismatch"]["actual"] == 5, r' "$tmp/p.json" \
    && grep -q 'quote' "$tmp/p.err" && ok || { bad "printf and escaping: exit $st"; cat "$tmp/p.json" "$tmp/p.err"; }
fi

# ---- set32: the missing and unexpected values, in the expect's type
sed -e "s|^ptx grade.ptx|ptx $(cd "$d" && pwd)/grade.ptx|" -e '/^expect/d' "$d/pass.launch" >"$tmp/set.launch"
echo "expect out value s32 13 6 1 -2 99 set32" >>"$tmp/set.launch"
"$PTXEMU" check --format json "$tmp/set.launch" >"$tmp/set.json" 2>"$tmp/err"; st=$?
if [ $have_py = 1 ]; then
  [ $st -eq 1 ] && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
m = r["first_mismatch"]
assert r["mode"] == "set32" and r["type"] == "s32" and not r["pass"] and m["expected"] == 99 and m["actual"] == -3, r
assert m["expected_bits"] == "0x00000063" and m["actual_bits"] == "0xfffffffd", r' "$tmp/set.json" \
    && ok || { bad "set32 json: exit $st"; cat "$tmp/set.json" "$tmp/err"; }
fi

# ---- a launch file that does not parse: still one document, exit 65
printf 'ptx %s/grade.ptx\nbuffer out 64 zero\nlaunch squares grid 0 1 1 block 1 1 1 shared 0\n' "$(cd "$d" && pwd)" >"$tmp/bad.launch"
"$PTXEMU" check --format json "$tmp/bad.launch" >"$tmp/bad.json" 2>"$tmp/err"; st=$?
if [ $have_py = 1 ]; then
  [ $st -eq 65 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_status"] == 65 and d["results"] == [] and d["run"]["launches"] == 0, d' "$tmp/bad.json" \
    && grep -q "bad.launch:3:" "$tmp/err" && ok || { bad "unparsable launch file json: exit $st"; cat "$tmp/bad.json" "$tmp/err"; }
fi
"$PTXEMU" check --format tap "$tmp/bad.launch" 2>/dev/null | tap_check >"$tmp/res"
[ "$(cat "$tmp/res")" = "0 0" ] && ok || bad "unparsable launch file tap: $(cat "$tmp/res")"

# ---- bad --format
"$PTXEMU" check --format xml "$d/pass.launch" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 64 ] && grep -q "text, json or tap" "$tmp/err" && ok || bad "--format xml: exit $st"
"$PTXEMU" run --format json "$d/pass.launch" >/dev/null 2>&1; st=$?
[ $st -eq 64 ] && ok || bad "run --format: exit $st (a check option)"

# ---- exec --format json (needs nvcc)
NVCC=
if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc; elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc; fi
if [ -n "$NVCC" ] && [ $have_py = 1 ]; then
  export PTXEMU_CACHE="$tmp/cache"
  if "$NVCC" -cudart shared -arch=sm_90 -o "$tmp/events" "$srcdir/tests/cuda/event_timing.cu" >"$tmp/nvcc.log" 2>&1; then
    "$PTXEMU" exec -q --format json "$tmp/events" 'a"b' >"$tmp/exec.json" 2>"$tmp/err"; st=$?
    [ $st -eq 0 ] && python3 - "$tmp/exec.json" <<'PY' && ok || { bad "exec --format json: exit $st"; cat "$tmp/exec.json" "$tmp/err"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_status"] == 0 and d["signal"] is None and d["args"] == ['a"b'], d
assert len(d["launches"]) == 1 and d["launches"][0]["name"] == "busy(float*, int)" and d["launches"][0]["kernel"] == "_Z4busyPfi"
assert d["inst_executed"] == d["launches"][0]["inst_executed"] > 0 and d["cycles"] is None
assert d["stdout"].startswith("elapsed_ms ") and not d["stdout_truncated"]
PY
  else bad "nvcc failed"; cat "$tmp/nvcc.log"; fi
fi
finish
