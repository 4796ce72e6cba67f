#!/bin/sh
# ptxemu exec around a program: traces (launches and the runs row), --stats,
# events reading the modelled clock under --timing, bad options, and
# programs that cannot run (a statically linked runtime, SASS only) refused
# with the nvcc flag that fixes them.  Skipped (77) without nvcc.
. "$srcdir/tests/lib.sh"
need_sqlite3
if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc
elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc
else echo "SKIP: nvcc not found"; exit 77; fi
src="$srcdir/tests/cuda"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-exec.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export PTXEMU_CACHE="$tmp/cache"
"$NVCC" -cudart shared -arch=sm_90 -o "$tmp/events" "$src/event_timing.cu" >"$tmp/nvcc.log" 2>&1 || { bad "nvcc failed"; cat "$tmp/nvcc.log"; finish; }

# a trace of every launch, with the program's command line and exit status
"$PTXEMU" exec -q --trace "$tmp/run.db" "$tmp/events" >/dev/null 2>"$tmp/err"
st=$?
if [ $st -eq 0 ]; then
  launches=$(q "$tmp/run.db" "SELECT count(*) FROM launches")
  row=$(q "$tmp/run.db" "SELECT exit_status || ' ' || (command_line LIKE 'ptxemu exec -q --trace %events') FROM runs")
  if [ "$launches" = 1 ] && [ "$row" = "0 1" ]; then ok; else bad "trace: launches '$launches', runs row '$row'"; fi
  "$PTXEMU" stats "$tmp/run.db" >"$tmp/stats.txt" 2>&1 && grep -q "^kernel  *busy$" "$tmp/stats.txt" && ok || bad "ptxemu stats on an exec trace"
elif [ $st -ne 0 ]; then bad "exec --trace: exit status $st"; cat "$tmp/err"; fi

# --timing: the events measure the modelled time, cycles at the GPU's clock
out=$("$PTXEMU" exec -q --timing --stats "$tmp/s.txt" "$tmp/events" 2>"$tmp/err")
cycles=$(awk '{ for (i = 1; i < NF; i++) if ($i == "cycles") print $(i + 1) }' "$tmp/s.txt")
clock=$("$PTXEMU" gpus --params h100 | awk '$1 == "clock_mhz" { print $3 }')
ms=$(echo "$out" | awk '$1 == "elapsed_ms" { print $2 }')
if [ -n "$cycles" ] && [ -n "$clock" ] && awk -v c="$cycles" -v f="$clock" -v m="$ms" 'BEGIN { e = c / (f * 1000); d = m > e ? m - e : e - m; exit !(m > 0 && (d / e < 1e-4 || d <= 5e-7)) }'; then ok
else bad "--timing: elapsed '$ms' ms, stats cycles '$cycles' at '$clock' MHz"; cat "$tmp/err"; fi
# ... and copies take their fixed cost, then their bytes at the host link's
# (pinned or pageable) or DRAM's bandwidth, read and written (a fill once)
"$PTXEMU" gpus --params h100 >"$tmp/params.txt"
echo "$out" | awk 'NR == FNR { p[$1] = $3; next } $1 == "copy_ms" {
    lat = p["copy_latency_us"] / 1e3; n = $3
    bw = $2 == "pinned" ? p["host_link_gbs"] : $2 == "pageable" ? p["host_pageable_gbs"] : $2 == "device" ? p["dram_bandwidth_gbs"] / 2 : p["dram_bandwidth_gbs"]
    want = lat + n / (bw * 1e6); d = $4 - want; if (d < 0) d = -d
    if (bw > 0 && lat > 0 && d / want < 1e-4) good++; else { print "copy " $2 ": " $4 " ms, want " want > "/dev/stderr"; bad++ } }
  END { exit !(good == 4 && !bad) }' "$tmp/params.txt" - && ok || bad "--timing: copies' modelled times"
out=$("$PTXEMU" exec -q "$tmp/events" 2>"$tmp/err")
[ "$(echo "$out" | awk '$1 == "copy_ms" && $4 > 0' | wc -l)" = 4 ] && ok || { bad "functional: copies take no time: $out"; cat "$tmp/err"; }

# --set: the overrides reach the libraries (PTXEMU_SET), change the timing
# and head the stats file; the trace's runs row holds the effective values
"$PTXEMU" exec -q --set lat_fp32=400 --set scheduler=lrr --stats "$tmp/set.txt" --trace "$tmp/set.db" --trace-level launch "$tmp/events" >/dev/null 2>"$tmp/err"
c2=$(awk '{ for (i = 1; i < NF; i++) if ($i == "cycles") print $(i + 1) }' "$tmp/set.txt")
row=$(q "$tmp/set.db" "SELECT (gpu_params LIKE '%lat_fp32 = 400%') || (gpu_params LIKE '%scheduler = lrr%') FROM runs")
if [ "$(head -1 "$tmp/set.txt")" = "gpu h100 lat_fp32 400 scheduler lrr" ] && [ -n "$c2" ] && [ -n "$cycles" ] && [ "$c2" -gt "$cycles" ] && [ "$row" = 11 ]; then ok
else bad "exec --set: stats '$(head -1 "$tmp/set.txt")', cycles $cycles -> $c2, runs row '$row'"; cat "$tmp/err"; fi
"$PTXEMU" exec --set lat_fp32=0 "$tmp/events" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 64 ] && grep -q "ptxemu: --set lat_fp32=0: error: 'lat_fp32' must be a whole number from 1" "$tmp/err" && ok || { bad "bad exec --set: exit $st"; cat "$tmp/err"; }

# options are checked before the program starts
"$PTXEMU" exec --max-insts nan "$tmp/events" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 64 ] && grep -q "PTXEMU_MAX_INSTS" "$tmp/err" && ok || { bad "bad --max-insts: exit $st"; cat "$tmp/err"; }
"$PTXEMU" exec --gpu nosuchgpu "$tmp/events" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 65 ] && ok || { bad "unknown --gpu: exit $st"; cat "$tmp/err"; }
"$PTXEMU" exec "$tmp/no-such-program" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 66 ] && ok || { bad "missing program: exit $st"; cat "$tmp/err"; }

# programs that cannot run here say how to rebuild them
"$NVCC" -arch=sm_90 -o "$tmp/static" "$src/event_timing.cu" >"$tmp/nvcc.log" 2>&1 || { bad "nvcc (static) failed"; cat "$tmp/nvcc.log"; }
"$PTXEMU" exec "$tmp/static" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 65 ] && grep -q -- "-cudart shared" "$tmp/err" && ok || { bad "static runtime: exit $st"; cat "$tmp/err"; }
"$NVCC" -cudart shared -gencode arch=compute_90,code=sm_90 -o "$tmp/sass" "$src/event_timing.cu" >"$tmp/nvcc.log" 2>&1 || { bad "nvcc (sass) failed"; cat "$tmp/nvcc.log"; }
"$PTXEMU" exec "$tmp/sass" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 65 ] && grep -q -- "compute_90" "$tmp/err" && ok || { bad "SASS only: exit $st"; cat "$tmp/err"; }
# a host-only program nvcc links embeds its device link's cubin, which has
# no code: nothing to refuse (cuda-samples deviceQuery, vectorAddDrv)
printf '#include <cstdio>\n#include <cuda_runtime.h>\nint main() { int n = 0; cudaGetDeviceCount(&n); printf("%%d device\\n", n); return n != 1; }\n' >"$tmp/host_only.cpp"
"$NVCC" -cudart shared -arch=sm_90 -o "$tmp/host_only" "$tmp/host_only.cpp" >"$tmp/nvcc.log" 2>&1 || { bad "nvcc (host only) failed"; cat "$tmp/nvcc.log"; }
out=$("$PTXEMU" exec "$tmp/host_only" 2>"$tmp/err"); st=$?
[ $st -eq 0 ] && [ "$out" = "1 device" ] && ok || { bad "host-only program: exit $st, '$out'"; cat "$tmp/err"; }

# numRegs (and so occupancy) is what ptxas gave each kernel in the SASS
# the fatbinary carries beside the PTX, as "ptxas -v" reports it
cat >"$tmp/regs.cu" <<'CU'
#include <cstdio>
__global__ void small(int *p) { p[threadIdx.x] = threadIdx.x; }
__global__ void wide(float *p, int n) {
  float a[24];
  for (int i = 0; i < 24; i++) a[i] = p[i * n + threadIdx.x];
  for (int k = 0; k < n; k++) for (int i = 0; i < 24; i++) a[i] = a[i] * a[(i + 7) % 24] + 1.0f;
  float s = 0; for (int i = 0; i < 24; i++) s += a[i] * i;
  p[threadIdx.x] = s;
}
__global__ void __launch_bounds__(1024, 2) bounded(float *p, int n) {
  float a[24];
  for (int i = 0; i < 24; i++) a[i] = p[i * n + threadIdx.x];
  for (int k = 0; k < n; k++) for (int i = 0; i < 24; i++) a[i] = a[i] * a[(i + 5) % 24] - 2.0f;
  float s = 0; for (int i = 0; i < 24; i++) s += a[i];
  p[threadIdx.x] = s;
}
int main() {
  cudaFuncAttributes a;
  cudaFuncGetAttributes(&a, small); printf("_Z5smallPi %d\n", a.numRegs);
  cudaFuncGetAttributes(&a, wide); printf("_Z4widePfi %d\n", a.numRegs);
  cudaFuncGetAttributes(&a, bounded); printf("_Z7boundedPfi %d\n", a.numRegs);
  return 0;
}
CU
if "$NVCC" -cudart shared -arch=sm_90 -Xptxas -v -o "$tmp/regs" "$tmp/regs.cu" >"$tmp/nvcc.log" 2>&1; then
  awk '/Compiling entry function/ { f = $7; gsub(/\047/, "", f) } /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") print f, $(i+1) }' "$tmp/nvcc.log" | sort >"$tmp/ptxas.txt"
  "$PTXEMU" exec "$tmp/regs" 2>"$tmp/err" | sort >"$tmp/regs.txt"
  [ -s "$tmp/ptxas.txt" ] && cmp -s "$tmp/ptxas.txt" "$tmp/regs.txt" && ok || { bad "numRegs differ from ptxas's"; paste "$tmp/ptxas.txt" "$tmp/regs.txt"; cat "$tmp/err"; }
else bad "nvcc (regs) failed"; cat "$tmp/nvcc.log"; fi

# an event outlives the stream it was recorded on: waiting for it, timing
# it and destroying it after the stream is gone (a use after free before)
cat >"$tmp/ev.cu" <<'CU'
#include <cstdio>
int main() {
  cudaStream_t s; cudaEvent_t a, b;
  cudaStreamCreate(&s); cudaEventCreate(&a); cudaEventCreate(&b);
  cudaEventRecord(a, s); cudaEventRecord(b, s);
  cudaStreamDestroy(s);
  float ms = -1;
  cudaError_t e1 = cudaEventSynchronize(b), e2 = cudaEventElapsedTime(&ms, a, b), e3 = cudaEventQuery(a);
  cudaError_t e4 = cudaEventDestroy(a), e5 = cudaEventDestroy(b);
  printf("%d %d %d %d %d %g\n", e1, e2, e3, e4, e5, ms);
  return 0;
}
CU
if "$NVCC" -cudart shared -arch=sm_90 -o "$tmp/ev" "$tmp/ev.cu" >"$tmp/nvcc.log" 2>&1; then
  out=$("$PTXEMU" exec "$tmp/ev" 2>"$tmp/err"); st=$?
  [ $st -eq 0 ] && [ "$out" = "0 0 0 0 0 0" ] && ok || { bad "events after their stream: exit $st, '$out'"; head -5 "$tmp/err"; }
else bad "nvcc (ev) failed"; cat "$tmp/nvcc.log"; fi

# initcheck sees what copies and fills write when they run, graphs' nodes
# included (a memset node, then a kernel reading what it wrote: no finding)
if "$NVCC" -cudart shared -arch=sm_90 -I"$src" -o "$tmp/graph_memory" "$src/graph_memory.cu" >"$tmp/nvcc.log" 2>&1; then
  "$PTXEMU" exec --sanitize initcheck "$tmp/graph_memory" >/dev/null 2>"$tmp/err"; st=$?
  [ $st -eq 0 ] && grep -q "sanitizer: 0 findings" "$tmp/err" && ok || { bad "initcheck over graph nodes: exit $st"; grep ptxemu "$tmp/err" | head -5; }
else bad "nvcc (graph_memory) failed"; cat "$tmp/nvcc.log"; fi

# device memory is backed as it is touched: 40 GB allocated and 1 MB written
# cost the host little; writing 512 MB under --max-memory 256M is a clear
# out-of-memory fault, not an OOM kill of the machine
"$NVCC" -cudart shared -arch=sm_90 -o "$tmp/lazy" "$srcdir/bench/cuda/lazy_memory.cu" >"$tmp/nvcc.log" 2>&1 || { bad "nvcc (lazy) failed"; cat "$tmp/nvcc.log"; }
out=$("$PTXEMU" exec --max-memory 256M "$tmp/lazy" 40 1 2>"$tmp/err"); st=$?
peak=$(echo "$out" | sed -n 's/.*peak host memory \([0-9]*\).*/\1/p')
[ $st -eq 0 ] && [ -n "$peak" ] && [ "$peak" -lt 200 ] && ok || { bad "40 GB allocation, 1 MB written: exit $st, '$out'"; cat "$tmp/err"; }
out=$("$PTXEMU" exec --max-memory 256M "$tmp/lazy" 40 512 2>"$tmp/err"); st=$?
[ $st -eq 2 ] && grep -q "over the cap of 256 MiB (--max-memory)" "$tmp/err" && ok || { bad "512 MB written under a 256M cap: exit $st, '$out'"; cat "$tmp/err"; }

# the exit status of a program killed by a signal is 128 + the signal
"$PTXEMU" exec sh -c 'kill -TERM $$' 2>/dev/null; st=$?
[ $st -eq 143 ] && ok || bad "killed program: exit $st, want 143"
finish
