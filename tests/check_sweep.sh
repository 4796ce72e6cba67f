#!/bin/sh
# --set overrides (validation, the --stats line, the trace's runs row) and
# "ptxemu sweep" without a cluster: SPEC errors, --local, status, collect
# (against direct runs of the same points), resume after lost and failed
# points, a time limit, the plot, and the job script of --slurm run by hand
# with a stand-in sbatch (tests/check_slurm.sh runs a real Slurm).
. "$srcdir/tests/lib.sh"
need_sqlite3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-sweep.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src=$(cd "$srcdir" && pwd)
spin="$src/tests/sweep/spin.launch"
vec="$src/examples/vecadd/vecadd.launch"

status() {
  name=$1 want=$2 pat=$3; shift 3
  out=$("$@" 2>&1); st=$?
  if [ "$st" -ne "$want" ]; then bad "$name: exit status $st, want $want"; echo "$out" | head -4; return; fi
  if [ -n "$pat" ] && ! echo "$out" | grep -q -- "$pat"; then bad "$name: output lacks '$pat'"; echo "$out" | head -4; return; fi
  ok
}

# ---- --set: the configuration file's checks and messages ----------------
status "--set unknown parameter" 64 "ptxemu: --set foo=1: error: unknown parameter 'foo'" "$PTXEMU" run -q --set foo=1 "$spin"
status "--set bad number" 64 "'l2_bytes' must be a whole number from 0 to" "$PTXEMU" check -q --set l2_bytes=12x "$spin"
status "--set out of range" 64 "'sms' must be a whole number from 1 to 1024, got '0'" "$PTXEMU" run -q --set sms=0 "$spin"
status "--set twice" 64 "'sms' set twice" "$PTXEMU" run -q --set sms=4 --set sms=8 "$spin"
status "--set relation points at the --set" 64 "ptxemu: --set gpcs=9: error: more gpcs than sms" "$PTXEMU" run -q --set sms=8 --set gpcs=9 "$spin"
status "--set scheduler name" 64 "scheduler must be gto, lrr or two_level, got 'fifo'" "$PTXEMU" run -q --set scheduler=fifo "$spin"
status "--set without a value" 64 "--set needs a value" "$PTXEMU" run -q "$spin" --set
status "--set on a bad GPU file" 65 "no GPU configuration" "$PTXEMU" run -q --gpu "$tmp/none.gpu" --set sms=4 "$spin"
status "exec --set checked before the program" 64 "unknown parameter 'foo'" "$PTXEMU" exec --set foo=1 /bin/true
status "PTXEMU_SET with too many" 64 "PTXEMU_SET" env PTXEMU_SET="$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "sms=4;" }')" "$PTXEMU" exec /bin/true
# recorded: the --stats file's gpu line, the trace's runs row, and the counters change
"$PTXEMU" check -q --set l2_bytes=1048576 --set scheduler=lrr --stats "$tmp/set.stats" --trace "$tmp/set.db" --trace-level launch "$spin" 2>"$tmp/err"
if [ "$(head -1 "$tmp/set.stats")" = "gpu H100 l2_bytes 1048576 scheduler lrr" ] || head -1 "$tmp/set.stats" | grep -q "^gpu [^ ]* l2_bytes 1048576 scheduler lrr$"; then ok; else bad "--stats gpu line: '$(head -1 "$tmp/set.stats")'"; cat "$tmp/err"; fi
got=$(q "$tmp/set.db" "SELECT (gpu_params LIKE '%l2_bytes = 1048576%') || (gpu_params LIKE '%scheduler = lrr%') || (command_line LIKE '%--set l2_bytes=1048576%') FROM runs")
if [ "$got" = 111 ]; then ok; else bad "runs row records the overrides: $got"; fi
"$PTXEMU" check -q --stats "$tmp/plain.stats" "$spin" --gpu h100
"$PTXEMU" check -q --set lat_fp32=40 --set lat_int=40 --stats "$tmp/slow.stats" "$spin"
c0=$(awk '$1 == "launch" { print $5 }' "$tmp/plain.stats"); c1=$(awk '$1 == "launch" { print $5 }' "$tmp/slow.stats")
if [ -n "$c0" ] && [ -n "$c1" ] && [ "$c1" -gt "$c0" ]; then ok; else bad "longer latencies by --set: cycles $c0 -> $c1"; fi
if ! grep -q '^gpu' "$tmp/plain.stats"; then ok; else bad "a --stats file without --set has no gpu line"; fi

# ---- SPEC errors: file:line, exit 65, nothing run -----------------------
spec_err() {   # name, line:message pattern, SPEC text
  printf '%s\n' "$3" > "$tmp/bad.spec"
  status "spec: $1" 65 "bad.spec:$2" "$PTXEMU" sweep "$tmp/bad.spec" "$tmp/bad.out"
  if [ ! -e "$tmp/bad.out" ]; then ok; else bad "spec: $1 created the sweep folder"; rm -rf "$tmp/bad.out"; fi
}
spec_err "unknown directive" "2: error: unknown directive 'paramm'" "launch a $spin
paramm sms 1 2"
spec_err "unknown parameter" "2: error: unknown parameter 'l3_bytes'" "launch a $spin
param l3_bytes 1 2"
spec_err "bad value" "3: error: l2_bytes: 'l2_bytes' must be a whole number" "launch a $spin
gpu h100
param l2_bytes 1048576 lots"
spec_err "bad range" "2: error: bad range '8..4'" "launch a $spin
param sms 8..4"
spec_err "bad step" "2: error: bad step '.1': +N (N >= 1) or .N (N >= 2)" "launch a $spin
param sms 8..64 *1"
spec_err "grid and points" "3: error: param lines (a grid) and point lines do not mix" "launch a $spin
param sms 8 16
point sms=4"
spec_err "workload name" "1: error: a workload name is letters" "launch a/b $spin"
spec_err "duplicate workload" "2: error: workload 'a' named twice" "launch a $spin
launch a $spin"
spec_err "unterminated quote" "1: error: unterminated double quote" "exec p /bin/echo \"open"
spec_err "control character" "1: error: a word" "$(printf 'exec p /bin/echo a\033b')"
spec_err "semicolon in a value" "2: error: a value 'x;rm' holds a control character or ';'" "launch a $spin
param scheduler x;rm"
spec_err "relation in the grid" "3: error: on h100, the point sms=8 gpcs=16: more gpcs than sms" "launch a $spin
param sms 8 132
param gpcs 4 16"
spec_err "baseline matches nothing" "3: error: the baseline matches no point" "launch a $spin
param sms 8 16
baseline sms=12"
spec_err "baseline underspecified" "4: error: the baseline matches 2 points" "launch a $spin
param sms 8 16
param scheduler gto lrr
baseline sms=8"
spec_err "repeat twice" "3: error: 'repeat' given twice (first on line 2)" "launch a $spin
repeat 2
repeat 3"
spec_err "bad GPU" "1: error: nosuch: no GPU configuration" "gpu nosuch
launch a $spin"
spec_err "too many points" " error: 1000000 points, more than 100000" "launch a $spin
param lat_fp32 1..100
param l2_bytes 1..100
param lat_int 1..100"
spec_err "long line" "1: error: line longer than 4096" "$(awk 'BEGIN { printf "launch a "; for (i = 0; i < 5000; i++) printf "x" }')"
printf 'param sms 8\n' > "$tmp/empty.spec"
status "spec: no workload" 65 "error: no workload" "$PTXEMU" sweep "$tmp/empty.spec" "$tmp/bad.out"
status "spec: unreadable" 66 "cannot read" "$PTXEMU" sweep "$tmp/nonexistent.spec" "$tmp/bad.out"
status "sweep: usage" 64 "usage: ptxemu sweep" "$PTXEMU" sweep "$tmp/empty.spec"

# ---- --local: two workloads x L2 size x scheduler, baseline, list --------
cat > "$tmp/s.spec" <<EOF
# comments and blank lines are fine

launch spin tests/sweep/spin.launch      # relative to this file's folder
launch vecadd "$vec"
param l2_bytes 1048576 50M..50M
param scheduler gto lrr
set lat_dram=600
baseline l2_bytes=52428800 scheduler=gto
EOF
mkdir -p "$tmp/tests/sweep" && cp "$src/tests/sweep/spin.launch" "$src/tests/sweep/spin.ptx" "$tmp/tests/sweep/"
"$PTXEMU" sweep --list "$tmp/s.spec" "$tmp/run" > "$tmp/list"
if [ "$(wc -l < "$tmp/list")" -eq 8 ] && grep -q "^2 workload=spin gpu=h100 l2_bytes=52428800 scheduler=gto rep=0 (baseline)$" "$tmp/list"; then ok; else bad "--list: $(cat "$tmp/list")"; fi
status "sweep --local" 0 "8/8 points: 8 done, 0 failed, 0 remaining" "$PTXEMU" sweep --local -j 2 "$tmp/s.spec" "$tmp/run"
status "sweep status" 0 "^8 points: 8 done, 0 failed, 0 pending, 0 running, 0 missing" "$PTXEMU" sweep status "$tmp/run"
status "rerun: nothing to do" 0 "all 8 points are done" "$PTXEMU" sweep "$tmp/s.spec" "$tmp/run"
status "collect" 0 "8 points (8 done, 0 failed, 0 missing)" "$PTXEMU" sweep collect "$tmp/run" -o "$tmp/r.db"
got=$(q "$tmp/r.db" "SELECT count(*), count(DISTINCT l2_bytes), count(DISTINCT scheduler), sum(is_baseline), sum(status = 'done') FROM points")
if [ "$got" = "8|2|2|2|8" ]; then ok; else bad "points table: $got"; fi
got=$(q "$tmp/r.db" "SELECT group_concat(printf('%.3f', speedup)) FROM speedup WHERE is_baseline")
if [ "$got" = "1.000,1.000" ]; then ok; else bad "the baseline's speed-up: $got"; fi
got=$(q "$tmp/r.db" "SELECT count(*) FROM param_effect WHERE param IN ('l2_bytes', 'scheduler') AND spread >= 1")
if [ "$got" = 2 ]; then ok; else bad "param_effect: $got"; fi
# every point's counters are those of the same run by hand (determinism)
for pid in 1 6; do
  set -- $(q "$tmp/r.db" "SELECT workload, l2_bytes, scheduler FROM points WHERE point_id = $pid" | tr '|' ' ')
  lf=$spin; [ "$1" = vecadd ] && lf=$vec
  "$PTXEMU" check -q --gpu h100 --set lat_dram=600 --set "l2_bytes=$2" --set "scheduler=$3" --stats "$tmp/direct.stats" "$lf"
  want=$(awk '$1 == "launch" { for (i = 4; i < NF; i += 2) if ($i != "emu_wall_ns") printf "%s=%s ", $i, $(i + 1) }' "$tmp/direct.stats")
  got=$(q "$tmp/r.db" "SELECT group_concat(name || '=' || printf('%g', value), ' ') FROM (SELECT * FROM metrics WHERE point_id = $pid AND name <> 'emu_wall_ns' ORDER BY rowid)")
  want=$(for kv in $want; do printf '%s=%g ' "${kv%%=*}" "${kv#*=}"; done)
  if [ "$got " = "$want" ]; then ok; else bad "point $pid counters differ from a direct run:"; echo " sweep:  $got"; echo " direct: $want"; fi
done
got=$(q "$tmp/r.db" "SELECT gpu_params LIKE '%lat_dram = 600%' AND gpu_params LIKE '%l2_bytes = 1048576%' FROM points WHERE point_id = 0")
if [ "$got" = 1 ]; then ok; else bad "a point records its effective parameters"; fi

# ---- resume: lost and failed points run again, finished ones do not -----
sed 's/0xc80af368/0x1/' "$tmp/tests/sweep/spin.launch" > "$tmp/tests/sweep/spin.launch.new" && mv "$tmp/tests/sweep/spin.launch.new" "$tmp/tests/sweep/spin.launch"
rm "$tmp/run/points/000001.db" "$tmp/run/points/000005.db"
touch -d '2001-01-01' "$tmp/run/points/000004.db"
status "rerun after lost points" 1 "6 of 8 points are done already; running the other 2" "$PTXEMU" sweep -j 2 "$tmp/s.spec" "$tmp/run"
if [ "$(date -r "$tmp/run/points/000004.db" +%Y)" = 2001 ]; then ok; else bad "a finished point ran again"; fi
status "status names the failure" 0 "failed 1 workload=spin .*exit 1, an expected output differs" "$PTXEMU" sweep status "$tmp/run"
"$PTXEMU" sweep collect "$tmp/run" -o "$tmp/r2.db" >/dev/null
got=$(q "$tmp/r2.db" "SELECT point_id || ':' || exit_status FROM failures")
if [ "$got" = "1:1" ]; then ok; else bad "failures view: $got"; fi
cp "$src/tests/sweep/spin.launch" "$tmp/tests/sweep/spin.launch"
status "rerun runs the failed point" 0 "7 of 8 points are done already; running the other 1" "$PTXEMU" sweep -j 2 "$tmp/s.spec" "$tmp/run"

# ---- per-point limits: the time limit kills a long point; a failure is recorded
sed 's/^arg u32 200$/arg u32 400000000/' "$src/tests/sweep/spin.launch" > "$tmp/tests/sweep/long.launch"
cp "$src/tests/sweep/spin.ptx" "$tmp/tests/sweep/"
printf 'launch long tests/sweep/long.launch\nmax-seconds 0.5\nmax-memory 64M\n' > "$tmp/t.spec"
status "max-seconds" 1 "1 failed" "$PTXEMU" sweep "$tmp/t.spec" "$tmp/trun"
status "max-seconds reason" 0 "exit 4, a limit was reached\|over the time limit" "$PTXEMU" sweep status "$tmp/trun"
printf 'launch long tests/sweep/long.launch\n' > "$tmp/t2.spec"
status "--max-seconds on the command line" 1 "1 failed" "$PTXEMU" sweep --max-seconds 0.5 "$tmp/t2.spec" "$tmp/trun2"
status "--max-seconds kept for status" 0 "^1 points: 0 done, 1 failed" "$PTXEMU" sweep status "$tmp/trun2"
status "--repeat" 0 "" "$PTXEMU" sweep --list --repeat 3 "$tmp/s.spec" "$tmp/none"
if [ "$(echo "$out" | wc -l)" -eq 24 ] && echo "$out" | grep -q "rep=2$"; then ok; else bad "--repeat 3 lists 24 points"; fi
status "--max-memory range" 64 "bad --max-memory '1K'" "$PTXEMU" sweep --max-memory 1K "$tmp/t2.spec" "$tmp/trun3"

# ---- exec workloads: a program and its words, no shell in between -------
printf 'exec ok /bin/true\nexec three /bin/sh -c "exit 3" ignored\nparam sms 8 16\n' > "$tmp/e.spec"
status "exec workloads" 1 "2 done, 2 failed" "$PTXEMU" sweep -j 2 "$tmp/e.spec" "$tmp/erun"
status "exec failure reason" 0 "failed 2 workload=three gpu=h100 sms=8 rep=0: exit 3" "$PTXEMU" sweep status "$tmp/erun"

# ---- plot ---------------------------------------------------------------
"$PTXEMU" sweep collect "$tmp/run" -o "$tmp/r.db" >/dev/null
status "plot" 0 "" "$PTXEMU" sweep plot "$tmp/r.db" --axis l2_bytes --metric cycles -o "$tmp/p.svg"
if grep -q '^<svg xmlns' "$tmp/p.svg" && [ "$(grep -c '<path fill="none"' "$tmp/p.svg")" -eq 2 ] && grep -q '>vecadd<' "$tmp/p.svg"; then ok; else bad "plot: two lines, one per workload"; fi
status "plot: unknown column" 64 "no column 'nope'" "$PTXEMU" sweep plot "$tmp/r.db" --axis nope -o "$tmp/p.svg"
status "plot: not a sweep" 65 "not a collected sweep" "$PTXEMU" sweep plot "$tmp/set.db" --axis sms -o "$tmp/p.svg"

# ---- --slurm with a stand-in sbatch: the job script and its quoting -----
mkdir -p "$tmp/bin"
cat > "$tmp/bin/sbatch" <<EOF
#!/bin/sh
printf '%s\n' "\$@" > "$tmp/sbatch.args"
echo 4242
EOF
chmod +x "$tmp/bin/sbatch"
odd="$tmp/odd dir 'q' \$x %j"
status "--slurm submits" 0 "submitted job 4242: 8 points in 4 array tasks" env PATH="$tmp/bin:$PATH" "$PTXEMU" sweep --chunk 2 "$tmp/s.spec" "$odd" --slurm --partition=x --time=5
if grep -q '^--array=0-3$' "$tmp/sbatch.args" && grep -q '^--partition=x$' "$tmp/sbatch.args" && grep -qF -- "--output=$tmp/odd dir 'q' \$x %%j/slurm/%A_%a.out" "$tmp/sbatch.args" && [ "$(tail -1 "$tmp/sbatch.args" | grep -c '\.sh$')" = 1 ]; then ok; else bad "sbatch arguments: $(cat "$tmp/sbatch.args")"; fi
script=$(tail -1 "$tmp/sbatch.args")
SLURM_ARRAY_TASK_ID=1 sh "$script" 2>"$tmp/err"
if [ -e "$odd/points/000002.db" ] && [ -e "$odd/points/000003.db" ] && [ ! -e "$odd/points/000000.db" ]; then ok; else bad "array task 1 runs points 2 and 3 (in a folder named with blanks, quotes, \$ and %)"; cat "$tmp/err"; fi
status "status of the job (no squeue here)" 0 "^8 points: 2 done" env PATH="$tmp/bin:/usr/bin:/bin" "$PTXEMU" sweep status "$odd"
status "task: bad number" 64 "bad task number" "$PTXEMU" sweep task "$odd" /dev/null x
finish
