#!/bin/sh
# tools/calibrate/run.sh CALIBRATE OUTDIR - on the GPU machine: measure the GPU.
#   OUTDIR/plain.txt      calibrate at the clocks the GPU runs at
#   OUTDIR/base.txt       calibrate under Nsight Compute's clock control (base
#                         clocks, as the hardware cycle counts of tests/correlate
#                         are taken), with the profiler's cycle counts of the
#                         empty launches (a second run, caches flushed before
#                         each launch: launch.csv) appended by fit.py ncu; only with ncu
#   OUTDIR/clocks.txt     what nvidia-smi says of the clocks
# fit.py takes base.txt when it is there, plain.txt otherwise (doc/calibrate.md).
here=$(cd "$(dirname "$0")" && pwd)
cal=$1; out=$2
[ -x "$cal" ] && [ -n "$out" ] || { echo "usage: run.sh CALIBRATE OUTDIR" >&2; exit 64; }
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.default_applications.graphics,clocks.mem --format=csv > "$out/clocks.txt" 2>&1
timeout "${TIMEOUT_RUN:-200}" "$cal" > "$out/plain.txt" 2> "$out/plain.err"; echo "plain run: exit $?"
NCU=${NCU:-$(command -v ncu || ls -d /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -n 1)}
if [ -n "$NCU" ] && [ -x "$NCU" ]; then
  timeout "${TIMEOUT_NCU:-300}" "$NCU" --clock-control base --cache-control none --csv --print-units base \
      --metrics sm__cycles_elapsed.max,gpu__time_duration.sum --log-file "$out/ncu.csv" \
      "$cal" > "$out/base.txt" 2> "$out/base.err"
  echo "run under ncu: exit $?"
  # the empty launches again, profiled as the hardware cases are: caches
  # flushed before each launch (a launch's cost includes its cold start)
  timeout "${TIMEOUT_NCU:-300}" "$NCU" --clock-control base --cache-control all --csv --print-units base \
      --kernel-name regex:^empty --metrics sm__cycles_elapsed.max --log-file "$out/launch.csv" \
      "$cal" > /dev/null 2> "$out/launch.err"
  echo "launch costs under ncu: exit $?"
  python3 "$here/fit.py" ncu "$out/launch.csv" >> "$out/base.txt" || echo "could not read $out/launch.csv"
else
  echo "no Nsight Compute: only the plain run"
fi
