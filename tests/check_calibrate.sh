#!/bin/sh
# tools/calibrate without a GPU: fit.py on the measurements recorded on an
# H200 (tools/calibrate/h200.txt, h200_ncu.csv), with the template h100.gpu and
# the same benchmarks run on an H100 as its reference (h100.txt), must write
# configs/h200.gpu exactly (the bundled file has no hand edits), keep
# every parameter of its template, and cite for each value a measurement
# that exists; bad measurement files are refused with a message.
. "$srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fit="python3 $srcdir/tools/calibrate/fit.py"
meas=$srcdir/tools/calibrate/h200.txt
ref=$srcdir/tools/calibrate/h100.txt

# the profiler's launch cycles come from its CSV as recorded
$fit ncu "$srcdir/tools/calibrate/h200_ncu.csv" > "$tmp/ncu.txt" && ok || bad "fit.py ncu: exit $?"
grep '^ncu_' "$meas" | cmp -s - "$tmp/ncu.txt" && ok || bad "fit.py ncu does not give h200.txt's ncu_ lines"

$fit "$meas" "$srcdir/configs/h100.gpu" h200 "$ref" > "$tmp/h200.gpu" 2> "$tmp/err" && ok || { bad "fit.py: exit $?"; cat "$tmp/err"; }
cmp -s "$tmp/h200.gpu" "$srcdir/configs/h200.gpu" && ok || bad "configs/h200.gpu is not what fit.py writes from h200.txt"
"$PTXEMU" gpus --params "$tmp/h200.gpu" > "$tmp/params" 2> "$tmp/err" && ok || { bad "the written config does not parse"; cat "$tmp/err"; }
"$PTXEMU" gpus --params h200 > "$tmp/bundled" 2>&1 && cmp -s "$tmp/params" "$tmp/bundled" && ok || bad "h200 is not bundled as written"
"$PTXEMU" gpus | grep -q '^h200 ' && ok || bad "ptxemu gpus does not list h200"
# the same parameters as the template (names only)
"$PTXEMU" gpus --params h100 | sed 's/ *=.*//' > "$tmp/k100"
sed 's/ *=.*//' "$tmp/params" > "$tmp/k200"
cmp -s "$tmp/k100" "$tmp/k200" && ok || bad "h200 and h100 differ in their parameters"

# every value line names its source; every [C] cites a measurement that is there
grep -v '^#' "$tmp/h200.gpu" | grep '=' > "$tmp/lines"
n=$(grep -vc -e '# \[[ACT]\] ' -e '^name ' -e '^description ' "$tmp/lines")
[ "$n" -eq 0 ] && ok || bad "$n lines without a [A]/[C]/[T] source"
grep -c '# \[C\]' "$tmp/lines" | { read c; [ "$c" -ge 25 ] && ok || bad "only $c measured values"; }
sed -n 's/.*# \[C\] (\{0,1\}\([a-z0-9_]*\).*/\1/p' "$tmp/lines" | sort -u > "$tmp/cited"
while read -r k; do
  case $k in chase_ca_|chase_cg_|smem_stride_) grep -q "^$k[0-9]" "$meas" ;; *) grep -q "^$k " "$meas" ;; esac && ok || bad "cites $k, which h200.txt lacks"
done < "$tmp/cited"
# values follow from the measurements by the documented rules
v() { awk -v k="$1" '$1 == k { print $3 }' "$tmp/h200.gpu"; }
m() { awk -v k="$1" '$1 == k { print $2 }' "$meas"; }
mr() { awk -v k="$1" '$1 == k { print $2 }' "$ref"; }
t() { awk -v k="$1" '$1 == k { print $3 }' "$srcdir/configs/h100.gpu"; }
r() { awk -v x="$1" 'BEGIN { printf "%d\n", x + 0.5 }'; }
# measured on the template's GPU ([M] in h100.gpu): the template's value x this GPU's figure / the H100's
for p in lat_fp32:lat_fp32 lat_fp64:lat_fp64 lat_sfu:lat_sfu lat_tensor:lat_mma lat_shared:lat_smem lat_dram:chase_dram \
         lat_atomic:lat_atom barrier_cycles:bar_1_warps launch_cycles:ncu_empty_cycles; do
  k=${p%%:*} x=${p#*:}
  [ "$(v $k)" = "$(r "$(awk -v t="$(t $k)" -v a="$(m $x)" -v b="$(mr $x)" 'BEGIN { print t * a / b }')")" ] && ok ||
    bad "$k = $(v $k), not h100.gpu's $(t $k) x $(m $x) / $(mr $x)"
done
# not measured on the template's GPU: this GPU's figure as it is
for p in lat_fp16:lat_fp16 lat_cvt:lat_cvt clock_mhz:clock_mhz_run; do
  [ "$(v "${p%%:*}")" = "$(r "$(m "${p#*:}")")" ] && ok || bad "${p%%:*} = $(v "${p%%:*}"), measured ${p#*:} $(m "${p#*:}")"
done
# without a reference every value is this GPU's measurement
$fit "$meas" "$srcdir/configs/h100.gpu" h200 > "$tmp/abs.gpu" && [ "$(awk '$1 == "lat_shared" { print $3 }' "$tmp/abs.gpu")" = "$(r "$(m lat_smem)")" ] &&
  ok || bad "without a reference lat_shared is not lat_smem"
"$PTXEMU" gpus --params "$tmp/abs.gpu" > /dev/null 2>&1 && ok || bad "the config without a reference does not parse"
[ "$(v sms)" = "$(m attr_sms)" ] && [ "$(v l2_bytes)" = "$(m attr_l2_bytes)" ] && ok || bad "attributes not taken over"
[ "$(v dram_bandwidth_gbs)" = "$(r "$(awk '$1 == "attr_mem_clock_khz" { c = $2 } $1 == "attr_bus_bits" { b = $2 } END { print 2 * c * b / 8 / 1e6 }' "$meas")")" ] &&
  ok || bad "dram_bandwidth_gbs is not the attributes' peak"
[ "$(v ii_fp64)" = "$(r "$(awk '$1 == "ipc_fp64" { print 4 / $2 }' "$meas")")" ] && ok || bad "ii_fp64 does not follow from ipc_fp64"
# a request's misses from DRAM a line apart: the hops chases from DRAM, per
# line, less the template's l1_miss_line_cycles (which the tool does not
# fit: its L2 chases read lines every SM wrote); the template's value where
# a file lacks them
for pair in h100:"$ref" h200:"$meas"; do
  f=${pair#*:}
  $fit "$f" "$srcdir/configs/h100.gpu" x > "$tmp/x.gpu" 2> "$tmp/err" || bad "fit.py on $f: exit $?"
  want=$(awk -v l1="$(t l1_miss_line_cycles)" '$1 == "hops_dram_one" { a = $2 } $1 == "hops_dram_warp" { w = $2 } END { x = (w - a) / 31 - l1; printf "%.2f\n", x }' "$f")
  [ "$(awk '$1 == "l2_miss_sector_cycles" { printf "%.2f\n", $3 }' "$tmp/x.gpu")" = "$want" ] && grep -q '^l2_miss_sector_cycles .*\[C\] (hops_dram_warp' "$tmp/x.gpu" &&
    ok || bad "${pair%%:*}: l2_miss_sector_cycles is not (hops_dram_warp - hops_dram_one) / 31 - l1_miss_line_cycles = $want"
  grep -q '^l1_miss_line_cycles .*# \[T\]' "$tmp/x.gpu" && ok || bad "${pair%%:*}: l1_miss_line_cycles is not the template's"
done
grep -v '^hops_dram' "$meas" > "$tmp/nohops.txt"
$fit "$tmp/nohops.txt" "$srcdir/configs/h100.gpu" x > "$tmp/x.gpu" && grep -q '^l2_miss_sector_cycles .*# \[T\]' "$tmp/x.gpu" &&
  ok || bad "without hops_dram_* measurements l2_miss_sector_cycles is not the template's"

# bad input: a missing measurement, a bad number, an unreadable file
grep -v '^lat_fp32 ' "$meas" > "$tmp/short.txt"
$fit "$tmp/short.txt" "$srcdir/configs/h100.gpu" x > /dev/null 2> "$tmp/err"; st=$?
[ $st -eq 65 ] && grep -q 'lack lat_fp32' "$tmp/err" && ok || bad "missing measurement: exit $st, $(cat "$tmp/err")"
sed 's/^lat_fp64 .*/lat_fp64 four/' "$meas" > "$tmp/nan.txt"
$fit "$tmp/nan.txt" "$srcdir/configs/h100.gpu" x > /dev/null 2> "$tmp/err"; st=$?
[ $st -eq 65 ] && grep -q "nan.txt:[0-9]*: error: lat_fp64: not a number" "$tmp/err" && ok || bad "bad number: exit $st, $(cat "$tmp/err")"
$fit "$tmp/none.txt" "$srcdir/configs/h100.gpu" x > /dev/null 2> "$tmp/err"; st=$?
[ $st -eq 66 ] && ok || bad "unreadable file: exit $st"
$fit "$meas" > /dev/null 2>&1; st=$?
[ $st -eq 64 ] && ok || bad "bad command line: exit $st"
finish
