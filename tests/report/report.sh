#!/bin/sh
# tests/report/report.sh - 'ptxemu report': HTML pages of a functional and
# of a timed trace (its timing columns filled by fake_timing.sql), checked
# for self-containment, balanced figures, the expected sections, numbers
# taken from the trace's own views, escaping, budgets and error statuses.
. "$srcdir/tests/lib.sh"
need_sqlite3
d="$srcdir/tests/report"
t="$srcdir/tests/traces"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-report.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

count() { grep -o -- "$2" "$1" | wc -l | tr -d ' '; }   # occurrences of a pattern
# the cells of PTX line N of launch L in page H, separated by '|', tags and commas removed:
# line|execs|threads|branch eff|global sectors (per request)|shared wavefronts (conflicts)|stall cycles reason|PTX
cells() {
  grep -o "<tr id=\"l$2-$3\"[^>]*>.*</tr>" "$1" | sed -e 's/<tr[^>]*>//' -e 's/<\/td><td[^>]*>/|/g' -e 's/<td[^>]*>//' \
    -e 's/<\/td><\/tr>//' -e 's/,//g'
}
report() {   # NAME DB HTML ARGS...: a report that must be written
  name=$1; db=$2; html=$3; shift 3
  if "$PTXEMU" report "$db" -o "$html" "$@" >"$tmp/out" 2>&1 && [ -s "$html" ]; then ok
  else bad "$name: report failed"; cat "$tmp/out"; fi
}
# page checks that hold for every report
well_formed() {   # NAME HTML
  if grep -qiE 'https?:|src=|<script|<link|@import|url\(' "$2"; then bad "$1: refers to something outside the page"; else ok; fi
  n=$(count "$2" '<svg '); m=$(count "$2" '</svg>')
  if [ "$n" -gt 0 ] && [ "$n" = "$m" ]; then ok; else bad "$1: $n <svg> and $m </svg>"; fi
  for tag in section table tr path text; do
    n=$(count "$2" "<$tag[ >]"); m=$(count "$2" "</$tag>"); s=$(count "$2" "<$tag [^>]*/>")
    if [ "$n" = $((m + s)) ]; then ok; else bad "$1: $n <$tag> and $m </$tag> ($s empty)"; fi
  done
  case $(tail -c 8 "$2") in *'</html>'*) ok ;; *) bad "$1: does not end with </html>" ;; esac
  size=$(wc -c <"$2")
  if [ "$size" -lt 2000000 ]; then ok; else bad "$1: $size bytes"; fi
  if ls "$2".tmp~ >/dev/null 2>&1; then bad "$1: temporary file left"; else ok; fi
}
has_ids() {   # NAME HTML ID...
  name=$1; html=$2; shift 2
  for id in "$@"; do
    if grep -q "id=\"$id\"" "$html"; then ok; else bad "$name: no element id=\"$id\""; fi
  done
}

# ---- a functional trace: memory kernels (6 launches) ------------------------
f="$tmp/f.db"
"$PTXEMU" check -q --trace "$f" --trace-level all "$t/memory.launch" >"$tmp/out" 2>&1 || { bad "traced run: exit $?"; cat "$tmp/out"; }
report functional "$f" "$tmp/f.html"
well_formed functional "$tmp/f.html"
has_ids functional "$tmp/f.html" summary metrics
for l in 1 2 3 4 5 6; do has_ids functional "$tmp/f.html" launch-$l timeline-$l occupancy-$l source-$l memory-$l; done
if grep -q 'Functional trace: no timing model ran' "$tmp/f.html"; then ok; else bad "functional: no note on the wseq timeline"; fi
if grep -q 'Unavailable: a functional run has no cycles' "$tmp/f.html"; then ok; else bad "functional: occupancy not marked unavailable"; fi
# every executed line of every launch shows the view's execution count, and
# every memory line its sectors or wavefronts and conflicts
for l in 1 2 3 4 5 6; do
  q "$f" "SELECT ptx_line, value FROM inst_executed_by_line WHERE launch_id = $l" >"$tmp/lines"
  [ -s "$tmp/lines" ] || bad "launch $l: no lines in inst_executed_by_line"
  nbad=0
  while IFS='|' read -r line want; do
    got=$(cells "$tmp/f.html" $l "$line" | cut -d'|' -f2)
    [ "$got" = "$want" ] || { nbad=$((nbad + 1)); echo "launch $l line $line: execs '$got', view says '$want'"; }
  done <"$tmp/lines"
  if [ $nbad -eq 0 ]; then ok; else bad "launch $l: $nbad lines with wrong execution counts"; fi
  q "$f" "SELECT ptx_line, coalesce(gld_sectors, 0) + coalesce(gst_sectors, 0), coalesce(shared_ld_wavefronts, 0) + coalesce(shared_st_wavefronts, 0),
                 coalesce(shared_ld_bank_conflicts, 0) + coalesce(shared_st_bank_conflicts, 0), gld_requests + gst_requests, shared_ld_requests + shared_st_requests
          FROM line_mem_stats WHERE launch_id = $l" >"$tmp/lines"
  [ -s "$tmp/lines" ] || bad "launch $l: no lines in line_mem_stats"
  nbad=0
  while IFS='|' read -r line sec wav conf greq sreq; do
    c=$(cells "$tmp/f.html" $l "$line")
    gs=$(echo "$c" | cut -d'|' -f5 | cut -d' ' -f1); sw=$(echo "$c" | cut -d'|' -f6)
    if [ "$greq" -gt 0 ] && [ "$gs" != "$sec" ]; then nbad=$((nbad + 1)); echo "launch $l line $line: sectors '$gs', view says $sec"; fi
    if [ "$sreq" -gt 0 ] && [ "$sw" != "$wav ($conf)" ]; then nbad=$((nbad + 1)); echo "launch $l line $line: wavefronts '$sw', view says $wav ($conf)"; fi
  done <"$tmp/lines"
  if [ $nbad -eq 0 ]; then ok; else bad "launch $l: $nbad lines with wrong memory numbers"; fi
done
# the column-wise shared access (launch 5) has conflicts, and they are in the line table
if [ "$(q "$f" "SELECT sum(shared_ld_bank_conflicts) + sum(shared_st_bank_conflicts) > 0 FROM line_mem_stats WHERE launch_id = 5")" = 1 ] &&
   grep -q '<tr id="l5-[0-9]*"[^>]*>.*<td class="d">[0-9,]* ([1-9]' "$tmp/f.html"; then ok
else bad "launch 5: bank conflicts not shown"; fi
# without cycles the heat is executions plus conflict replays: the conflicting lines are the hottest
cl=$(q "$f" "SELECT ptx_line FROM line_mem_stats WHERE launch_id = 5 AND coalesce(shared_ld_bank_conflicts, 0) + coalesce(shared_st_bank_conflicts, 0) > 0")
[ -n "$cl" ] || bad "launch 5: no line with bank conflicts"
for line in $cl; do
  if grep -q "<tr id=\"l5-$line\" class=\"h9\">" "$tmp/f.html"; then ok; else bad "launch 5 line $line: not the hottest"; fi
done
n=$(grep -c '<tr id="l5-[0-9]*" class="h9">' "$tmp/f.html")
if [ "$n" = "$(echo $cl | wc -w)" ]; then ok; else bad "launch 5: $n hottest lines, want only the conflicting ones"; fi
# the metric table holds the views' values
for m in gld_transactions_per_request gld_efficiency shared_load_transactions_per_request; do
  want=$(q "$f" "SELECT group_concat(CASE WHEN $m IS NULL THEN '-' ELSE printf('%.2f', $m) END, ' ') FROM (SELECT $m FROM launch_metrics ORDER BY launch_id)")
  got=$(grep -o "<tr id=\"m-$m\">.*</tr>" "$tmp/f.html" | sed -e 's/<td class="l"[^>]*>[^<]*<\/td>//' -e 's/<\/td><td>/ /g' -e 's/<[^>]*>//g' -e 's/ %//g')
  if [ "$got" = "$want" ]; then ok; else bad "metric $m: page '$got', view '$want'"; fi
done
# budgets: 6 launches share the page, so each timeline draws 16 of the 64 warps of read_offset
n=$(sed -n '/<section id="timeline-1">/,/<\/section>/p' "$tmp/f.html" | grep -c 'class="hit"')
if [ "$n" = 16 ]; then ok; else bad "timeline of launch 1: $n warps drawn, want 16"; fi
if grep -q '16 of 64 warps drawn' "$tmp/f.html"; then ok; else bad "timeline: no note on the warps left out"; fi

# ---- options -------------------------------------------------------------
report launch-option "$f" "$tmp/l5.html" --launch 5
has_ids launch-option "$tmp/l5.html" launch-5 source-5
if grep -q 'id="launch-[1-46]"' "$tmp/l5.html"; then bad "--launch 5: other launches drawn"; else ok; fi
# one launch alone gets the whole budget: 48 of its 128 warps
n=$(sed -n '/<section id="timeline-5">/,/<\/section>/p' "$tmp/l5.html" | grep -c 'class="hit"')
if [ "$n" = 48 ] && grep -q '48 of 128 warps drawn' "$tmp/l5.html"; then ok; else bad "--launch 5: $n warps drawn, want 48 of 128"; fi
report kernel-option "$f" "$tmp/k.html" --kernel read_offset
has_ids kernel-option "$tmp/k.html" launch-1 launch-2 launch-3
if grep -q 'id="launch-[456]"' "$tmp/k.html"; then bad "--kernel read_offset: other kernels drawn"; else ok; fi
"$PTXEMU" report "$f" -o "$tmp/x.html" --kernel nosuchkernel >"$tmp/out" 2>&1; st=$?
if [ $st = 65 ] && grep -q "no launch of kernel 'nosuchkernel'" "$tmp/out"; then ok; else bad "--kernel nosuchkernel: exit $st"; cat "$tmp/out"; fi

# ---- branches: divergence per line ------------------------------------------
b="$tmp/b.db"
"$PTXEMU" check -q --trace "$b" --trace-level warp "$t/branches.launch" >"$tmp/out" 2>&1 || { bad "traced run: exit $?"; cat "$tmp/out"; }
report branches "$b" "$tmp/b.html"
well_formed branches "$tmp/b.html"
q "$b" "SELECT launch_id, ptx_line, printf('%.0f%%', value) FROM branch_efficiency_by_line" >"$tmp/lines"
[ -s "$tmp/lines" ] || bad "branches: no branch lines"
while IFS='|' read -r l line want; do
  got=$(cells "$tmp/b.html" "$l" "$line" | cut -d'|' -f4)
  if [ "$got" = "$want" ]; then ok; else bad "branches: launch $l line $line branch efficiency '$got', view says '$want'"; fi
done <"$tmp/lines"
if grep -q '<td class="d">0%</td>' "$tmp/b.html"; then ok; else bad "branches: the divergent branch is not marked"; fi

# ---- a faulted launch: the fault and its PTX line are shown ----------------------
fa="$tmp/fault.db"
"$PTXEMU" run -q --trace "$fa" --trace-level warp "$t/faults.launch" >/dev/null 2>&1
report fault "$fa" "$tmp/fault.html"
fl=$(q "$fa" "SELECT i.ptx_line FROM launches l JOIN instructions i ON i.insn_id = l.fault_insn_id WHERE l.status = 'faulted'")
fid=$(q "$fa" "SELECT launch_id FROM launches WHERE status = 'faulted'")
if [ -n "$fl" ] && grep -q "Launch $fid faulted:</b> invalid global access" "$tmp/fault.html" &&
   grep -q "<tr id=\"l$fid-$fl\".*the launch faulted here" "$tmp/fault.html"; then ok
else bad "fault: launch $fid line $fl not marked"; fi
if [ "$(grep -c 'the launch faulted here' "$tmp/fault.html")" = 1 ]; then ok; else bad "fault: more than one line marked"; fi

# ---- a timed trace, its timing columns filled with SQL ---------------------------
tt="$tmp/t.db"
"$PTXEMU" check -q --timing --gpu h100 --trace "$tt" --trace-level all "$t/memory.launch" >"$tmp/out" 2>&1 || { bad "timed run: exit $?"; cat "$tmp/out"; }
sqlite3 -batch "$tt" <"$d/fake_timing.sql" || bad "fake_timing.sql failed"
report timed "$tt" "$tmp/t.html" --launch 1 --launch 5
well_formed timed "$tmp/t.html"
has_ids timed "$tmp/t.html" summary metrics launch-1 timeline-1 occupancy-1 source-1 memory-1 launch-5 source-5
for what in 'Warp states' 'class="occ"' 'class="elig"' 'class="res"' 'From sm_samples' 'long_scoreboard' 'L1 hit rate 50.0 %'; do
  if grep -q "$what" "$tmp/t.html"; then ok; else bad "timed: '$what' missing"; fi
done
if grep -q 'Functional trace' "$tmp/t.html"; then bad "timed: drawn as a functional trace"; else ok; fi
# stall cycles per line: the waits before each issue, computed here by joining
# each warp instruction to the warp's previous one (wseq - 1)
for l in 1 5; do
  q "$tt" "SELECT i.ptx_line, sum(r.issue_cycle - p.issue_cycle - 1) FROM warp_runs r
           JOIN warp_runs p ON p.launch_id = r.launch_id AND p.block = r.block AND p.warp = r.warp AND p.wseq = r.wseq - 1
           JOIN instructions i ON i.insn_id = r.insn_id WHERE r.launch_id = $l GROUP BY i.ptx_line" >"$tmp/lines"
  [ -s "$tmp/lines" ] || bad "timed launch $l: no issue rows"
  nbad=0
  while IFS='|' read -r line want; do
    got=$(cells "$tmp/t.html" $l "$line" | cut -d'|' -f7 | cut -d' ' -f1)
    [ "$got" = "$want" ] || { nbad=$((nbad + 1)); echo "launch $l line $line: stall cycles '$got', want '$want'"; }
  done <"$tmp/lines"
  if [ $nbad -eq 0 ]; then ok; else bad "timed launch $l: $nbad lines with wrong stall cycles"; fi
done
# barrier waits are drawn (their own colour, s6) in the kernel with a barrier only
sec() { sed -n "/<section id=\"$2\">/,/<\/section>/p" "$1"; }
if sec "$tmp/t.html" timeline-5 | grep -q '<path class="s6"'; then ok; else bad "timed: no barrier waits drawn for smem_col"; fi
if sec "$tmp/t.html" timeline-1 | grep -q '<path class="s6"'; then bad "timed: barrier waits drawn for read_offset"; else ok; fi
if sec "$tmp/t.html" timeline-1 | grep -q '<path class="s3"'; then ok; else bad "timed: no long_scoreboard waits drawn for read_offset"; fi
# without sm_samples, occupancy comes from the blocks' start and end cycles
cp "$tt" "$tmp/ns.db"
q "$tmp/ns.db" "DELETE FROM sm_samples" >/dev/null
report no-samples "$tmp/ns.db" "$tmp/ns.html" --launch 1
if sec "$tmp/ns.html" occupancy-1 | grep -q 'From the blocks' && sec "$tmp/ns.html" occupancy-1 | grep -q 'class="occ"'; then ok
else bad "no-samples: occupancy not drawn from the blocks"; fi
# the barrier of the shared-memory kernels waits 40 cycles a time in fake_timing.sql: its line names the reason
bl=$(q "$tt" "SELECT i.ptx_line FROM instructions i JOIN kernels k USING (kernel_id) WHERE k.name = 'smem_col' AND i.opname LIKE 'bar%' LIMIT 1")
case $(cells "$tmp/t.html" 5 "$bl" | cut -d'|' -f7) in *barrier) ok ;; *) bad "timed: barrier line $bl not attributed to 'barrier'" ;; esac

# ---- escaping: text from the database is HTML-escaped ---------------------------
cp "$f" "$tmp/e.db"
el=$(q "$tmp/e.db" "SELECT min(i.ptx_line) FROM instructions i JOIN kernels k USING (kernel_id) WHERE k.name = 'read_offset'")
q "$tmp/e.db" "UPDATE ptx_lines SET text = text || ' // <script>alert(1)</script> & \"x\"' WHERE line = $el;
               UPDATE kernels SET name = 'k<b>&' WHERE name = 'smem_row'" >/dev/null
report escaping "$tmp/e.db" "$tmp/e.html"
if grep -q '<script\|<b>&' "$tmp/e.html"; then bad "escaping: raw text from the trace in the page"; else ok; fi
if grep -q '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;' "$tmp/e.html" && grep -q 'k&lt;b&gt;&amp;' "$tmp/e.html"; then ok
else bad "escaping: escaped text not found"; fi

# ---- damaged line numbers: a kernel that starts after its last instruction, or
# lines at the end of 64-bit numbers, give a note, not a crash or a huge table
cp "$f" "$tmp/lines.db"
q "$tmp/lines.db" "UPDATE kernels SET ptx_line = (SELECT max(ptx_line) FROM instructions) + 10;
                   UPDATE instructions SET src_line = 9223372036854775807 WHERE insn_id % 2 = 0" >/dev/null
report damaged-lines "$tmp/lines.db" "$tmp/lines.html"
if grep -q "line numbers for this kernel are inconsistent" "$tmp/lines.html"; then ok; else bad "damaged-lines: no note"; fi
well_formed damaged-lines "$tmp/lines.html"

# ---- errors --------------------------------------------------------------------
err() {   # NAME STATUS MESSAGE ARGS...: a report that must fail so
  name=$1; want=$2; msg=$3; shift 3
  "$PTXEMU" report "$@" >"$tmp/out" 2>&1; st=$?
  if [ $st = "$want" ] && grep -q -- "$msg" "$tmp/out"; then ok; else bad "$name: exit $st, want $want and '$msg'"; cat "$tmp/out"; fi
}
err missing 66 "cannot open" "$tmp/none.db" -o "$tmp/x.html"
echo "just text" >"$tmp/text.db"
err not-sqlite 65 "not a SQLite database" "$tmp/text.db" -o "$tmp/x.html"
q "$tmp/other.db" "CREATE TABLE t(a)" >/dev/null
err not-a-trace 65 "not a ptxemu trace" "$tmp/other.db" -o "$tmp/x.html"
cp "$f" "$tmp/empty.db"
q "$tmp/empty.db" "DELETE FROM launches" >/dev/null
err no-launches 65 "no launches" "$tmp/empty.db" -o "$tmp/x.html"
err no-such-launch 65 "no launch matches" "$f" -o "$tmp/x.html" --launch 99
err unwritable 73 "cannot write" "$f" -o "$tmp/no/such/dir/x.html"
err onto-trace 73 "is the trace itself" "$f" -o "$f"
err usage 64 "usage" -o "$tmp/x.html"
err bad-launch 64 "bad --launch" "$f" --launch x
[ -f "$tmp/x.html" ] && bad "a failed report left its output"
if [ "$(q "$f" 'PRAGMA integrity_check')" = ok ]; then ok; else bad "the trace was damaged"; fi
# a real timed run (no SQL help): the memory diagram shows the model's hit
# rates, the ones the trace's launch_metrics gives
"$PTXEMU" run -q --gpu h100 --trace "$tmp/timed.db" --trace-level warp "$t/memory.launch" >/dev/null 2>&1
"$PTXEMU" report "$tmp/timed.db" -o "$tmp/timed.html" --launch 1 >/dev/null 2>&1
want=$(q "$tmp/timed.db" "SELECT printf('L2 hit rate %.1f %%', l2_hit_rate) FROM launch_metrics WHERE launch_id = 1")
if [ -n "$want" ] && grep -q "$want" "$tmp/timed.html"; then ok; else bad "timed report lacks '$want'"; fi
finish
