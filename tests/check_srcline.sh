#!/bin/sh
# CUDA source lines everywhere, for PTX compiled with nvcc -lineinfo
# (tests/srcline/kernels.cu; its .file names a path that does not exist
# here, as for PTX made on another machine): fault and deadlock messages
# name file.cu:line and the demangled kernel; stats --by-line and the
# *_by_line views carry cuda_file/cuda_line, --by-cuda-line and the
# *_by_cuda_line views sum per CUDA line; the report shows the CUDA source
# (beside the PTX, or --source-dir) with its PTX folded under each line,
# and keeps the PTX view for PTX without .loc; a .cu given to run or asm
# says how to compile it.
. "$srcdir/tests/lib.sh"
d="$srcdir/tests/srcline"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-srcline.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
line_of() { grep -n -F -- "$1" "$d/kernels.cu" | head -1 | cut -d: -f1; }
scale_line=$(line_of 'T v = in[i];')
store_line=$(line_of 'out[i] = v * N;')
bar1_line=$(line_of 'bar.sync 1, 64')
bar2_line=$(line_of 'bar.sync 2, 64')

# ---- fault: the CUDA line and the demangled kernel
"$PTXEMU" check "$d/scale_oob.launch" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st -eq 3 ] && ok || bad "scale_oob: exit $st"
grep -q "(pc [0-9]* in void lab::scale<3, float>(float\*, float const\*, int)): ld.global.f32$" "$tmp/err" && ok || { bad "fault: demangled kernel"; cat "$tmp/err"; }
grep -q "^    at /home/student/lab/kernels.cu:$scale_line$" "$tmp/err" && ok || { bad "fault: CUDA line $scale_line"; cat "$tmp/err"; }
grep -q "scale_oob.launch:5: launch of '_ZN3lab5scaleILi3EfEEvPT0_PKS1_i' (void lab::scale<3, float>(float\*, float const\*, int)) failed$" "$tmp/err" \
  && ok || { bad "fault: launch line with both names"; cat "$tmp/err"; }

# ---- deadlock: each waiting warp's CUDA line
"$PTXEMU" check "$d/barrier.launch" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st -eq 3 ] && grep -q "warp 0 waits at line [0-9]*, kernels.cu:$bar1_line; warp 1 waits at line [0-9]*, kernels.cu:$bar2_line$" "$tmp/err" \
  && ok || { bad "deadlock: CUDA lines $bar1_line, $bar2_line (exit $st)"; cat "$tmp/err"; }

# ---- a trace: stats per PTX line and per CUDA line
cp "$d/kernels.ptx" "$d/scale.launch" "$tmp/"
(cd "$tmp" && "$PTXEMU" run -q --trace t.db --trace-level all scale.launch) >"$tmp/out" 2>&1 || { bad "run --trace"; cat "$tmp/out"; }
"$PTXEMU" stats --by-line "$tmp/t.db" >"$tmp/lines" 2>&1
grep -q "^launch 1 void lab::scale<3, float>(float\*, float const\*, int)$" "$tmp/lines" && ok || { bad "stats --by-line: demangled kernel"; cat "$tmp/lines"; }
grep -q "  kernels.cu:$scale_line  *ld.global.f32" "$tmp/lines" && ok || { bad "stats --by-line: CUDA column"; cat "$tmp/lines"; }
"$PTXEMU" stats --by-line --csv "$tmp/t.db" >"$tmp/lines.csv" 2>&1
head -1 "$tmp/lines.csv" | grep -q ',text,cuda_file,cuda_line$' && grep -q "ld.global.f32.*,/home/student/lab/kernels.cu,$scale_line\$" "$tmp/lines.csv" \
  && ok || { bad "stats --by-line --csv"; head -3 "$tmp/lines.csv"; }
# the per-CUDA-line sums equal the sums of its PTX lines; the text comes from beside the PTX
cp "$d/kernels.cu" "$tmp/"
"$PTXEMU" stats --by-cuda-line --csv "$tmp/t.db" >"$tmp/cuda.csv" 2>&1
sum_ptx=$(awk -F, -v l="$store_line" '$NF == l { s += $4 } END { print s + 0 }' "$tmp/lines.csv")
row=$(grep ",/home/student/lab/kernels.cu,$store_line," "$tmp/cuda.csv")
execs=$(echo "$row" | cut -d, -f5)
[ -n "$row" ] && [ "$execs" = "$sum_ptx" ] && [ "$execs" -gt 0 ] && echo "$row" | grep -q 'out\[i\] = v \* N;$' \
  && ok || { bad "by-cuda-line: execs '$execs' vs PTX sum '$sum_ptx'"; cat "$tmp/cuda.csv"; }
"$PTXEMU" stats --by-cuda-line "$tmp/t.db" >"$tmp/cuda.txt" 2>&1
grep -q "^kernels.cu:$scale_line .* T v = in\[i\];  (PTX [0-9 ]*)$" "$tmp/cuda.txt" && ok || { bad "stats --by-cuda-line text"; cat "$tmp/cuda.txt"; }
"$PTXEMU" stats "$tmp/t.db" >"$tmp/metrics" 2>&1
grep -q "^kernel  *lab::scale<3, float>$" "$tmp/metrics" && ok || { bad "stats: short demangled kernel name"; cat "$tmp/metrics"; }

# ---- the views (SQL)
if command -v sqlite3 >/dev/null 2>&1; then
  got=$(q "$tmp/t.db" "SELECT cuda_file, cuda_line FROM gld_transactions_per_request_by_line WHERE launch_id = 1")
  [ "$got" = "/home/student/lab/kernels.cu|$scale_line" ] && ok || bad "gld_transactions_per_request_by_line cuda columns: '$got'"
  got=$(q "$tmp/t.db" "SELECT (SELECT sum(value) FROM inst_executed_by_cuda_line) = (SELECT sum(value) FROM inst_executed_by_line WHERE cuda_line IS NOT NULL), (SELECT count(*) FROM inst_executed_by_line WHERE cuda_line IS NULL)")
  [ "$got" = "1|0" ] && ok || bad "inst_executed_by_cuda_line sums: '$got'"
  got=$(q "$tmp/t.db" "SELECT cuda_line, value FROM gst_efficiency_by_cuda_line")
  [ "$got" = "$store_line|100.0" ] && ok || bad "gst_efficiency_by_cuda_line: '$got'"
  # a trace of PTX without .loc: NULL CUDA columns, no CUDA rows
  "$PTXEMU" run -q --trace "$tmp/v.db" --trace-level all "$srcdir/examples/vecadd/vecadd.launch" >/dev/null 2>&1
  got=$(q "$tmp/v.db" "SELECT count(*), count(cuda_line) FROM inst_executed_by_line; SELECT count(*) FROM inst_executed_by_cuda_line")
  [ "$got" = "$(printf '%s\n%s' "$(q "$tmp/v.db" "SELECT count(*) FROM inst_executed_by_line")|0" 0)" ] && ok || bad "no .loc: '$got'"
fi

# ---- the report: CUDA source beside the PTX, PTX folded under its line
"$PTXEMU" report "$tmp/t.db" -o "$tmp/r.html" >"$tmp/out" 2>&1 || { bad "report"; cat "$tmp/out"; }
grep -q "<h3>CUDA source, annotated</h3>" "$tmp/r.html" && ! grep -q "<h3>PTX source, annotated</h3>" "$tmp/r.html" && ok || bad "report: CUDA view"
sed -n '/<summary>    T v = in\[i\];<\/summary><pre>/,/<\/pre>/p' "$tmp/r.html" | grep -q "ld.global.f32" && ok || { bad "report: PTX folded under its CUDA line"; grep -n summary "$tmp/r.html" | head; }
grep -q "read from $tmp/kernels.cu" "$tmp/r.html" && ok || bad "report: source found beside the PTX"
grep -q "Launch 1: void lab::scale&lt;3, float&gt;(float\*, float const\*, int)" "$tmp/r.html" && ok || bad "report: demangled kernel"
# --source-dir, and a source found nowhere
rm "$tmp/kernels.cu"
"$PTXEMU" report "$tmp/t.db" -o "$tmp/n.html" >/dev/null 2>&1
grep -q "(source not found)</summary>" "$tmp/n.html" && grep -q "source-dir DIR" "$tmp/n.html" && ok || bad "report: source not found"
"$PTXEMU" report --source-dir "$d" "$tmp/t.db" -o "$tmp/s.html" >/dev/null 2>&1
grep -q "<summary>    T v = in\[i\];</summary>" "$tmp/s.html" && ok || bad "report --source-dir"
"$PTXEMU" report --source-dir "$tmp/no-such-dir" "$tmp/t.db" -o "$tmp/x.html" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 66 ] && grep -q "not a folder" "$tmp/err" && ok || bad "report --source-dir missing: exit $st"
# a faulted launch: the CUDA line of the fault is marked, and its PTX line
cp "$d/scale_oob.launch" "$tmp/"
(cd "$tmp" && "$PTXEMU" run -q --trace oob.db --trace-level warp scale_oob.launch) >/dev/null 2>&1
"$PTXEMU" report --source-dir "$d" "$tmp/oob.db" -o "$tmp/oob.html" >/dev/null 2>&1
grep -q "<summary>    T v = in\[i\]; <b class=\"d\">&#9664; the launch faulted here</b></summary>" "$tmp/oob.html" \
  && grep -q "ld.global.f32 .*&#9664; the launch faulted here$" "$tmp/oob.html" && ok || bad "report: fault marked on its CUDA and PTX line"
# PTX without .loc keeps the PTX view
"$PTXEMU" run -q --trace "$tmp/w.db" --trace-level warp "$srcdir/examples/vecadd/vecadd.launch" >/dev/null 2>&1
"$PTXEMU" report "$tmp/w.db" -o "$tmp/w.html" >/dev/null 2>&1
grep -q "<h3>PTX source, annotated</h3>" "$tmp/w.html" && ! grep -q "CUDA source, annotated" "$tmp/w.html" && ok || bad "report: PTX view without .loc"

# ---- a kernel named as in C++: the list of kernels gives both names
"$PTXEMU" run "$d/kernels.ptx" --kernel scale >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 65 ] && grep -q "kernels in the module: _Z16crossed_barriersPi (crossed_barriers(int\*)) _ZN3lab5scaleILi3EfEEvPT0_PKS1_i (void lab::scale<3, float>(float\*, float const\*, int))$" "$tmp/err" \
  && ok || { bad "unknown kernel: exit $st"; cat "$tmp/err"; }

# ---- a .cu file by mistake
for cmd in run asm check; do
  "$PTXEMU" $cmd "$d/kernels.cu" >"$tmp/out" 2>"$tmp/err"; st=$?
  [ $st -eq 65 ] && grep -q "nvcc -ptx -arch=sm_90 -lineinfo .*kernels.cu -o kernels.ptx" "$tmp/err" && grep -q 'extern "C"' "$tmp/err" \
    && grep -q "ptxemu exec" "$tmp/err" && [ ! -s "$tmp/out" ] && ok || { bad "$cmd x.cu: exit $st"; cat "$tmp/err"; }
done
finish
