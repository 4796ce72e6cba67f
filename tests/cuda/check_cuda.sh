#!/bin/sh
# Whole CUDA programs (tests/cuda/*.cu, one per area of the runtime) built
# with the local nvcc and run through "ptxemu exec": each program's stdout
# must equal tests/cuda/NAME.out, recorded on a real H100 (README.md there),
# and its exit status the one in the table below.  Skipped (77) without nvcc.
#   CUDA_TESTS="vecadd oob"   runs only those programs
#   CUDA_BUILD_ONLY=1         builds them into tests/cuda/build and stops
#   CUDA_TIMEOUT=N            seconds per program (default 600)
. "$srcdir/tests/lib.sh"
if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc
elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc
else echo "SKIP: nvcc not found"; exit 77; fi
src="$srcdir/tests/cuda"
build=tests/cuda/build
mkdir -p "$build" || { echo "cannot create $build"; exit 99; }

# name, expected exit status, sources (in tests/cuda); extra flags by name below
table='
vecadd         0 vecadd.cu
matmul_tiled   0 matmul_tiled.cu
streams_events 0 streams_events.cu
managed        0 managed.cu
zero_copy      0 zero_copy.cu
symbols        0 symbols_a.cu symbols_b.cu
symbols_rdc    0 symbols_rdc_a.cu symbols_rdc_b.cu
textures       0 textures.cu
coop_grid_sync 0 coop_grid_sync.cu
clusters       0 clusters.cu
driver_api     0 driver_api.cu
occupancy      0 occupancy.cu
graphs         0 graphs.cu
graph_queries  0 graph_queries.cu
oob            2 oob.cu
shared_window  0 shared_window.cu
printf         0 printf.cu
assert         0 assert.cu
device_query   0 device_query.cu
errors         0 errors.cu
host_threads   0 host_threads.cu
memory_ops     0 memory_ops.cu
dynamic_parallelism 0 dynamic_parallelism.cu
mempool_graph  0 mempool_graph.cu
runtime_misc   0 runtime_misc.cu
device_heap    0 device_heap.cu
graph_params   0 graph_params.cu
vmm            0 vmm.cu
graph_memory   0 graph_memory.cu
capture_to_graph 0 capture_to_graph.cu
'
flags_for() {
  case $1 in
    driver_api|vmm) echo "-lcuda" ;;    # the driver API alone
    symbols_rdc) echo "-rdc=true" ;;    # separate compilation, device link
    dynamic_parallelism) echo "-rdc=true" ;;  # kernels launching kernels need it
  esac
}
# Programs ptxemu cannot run yet: each must fail clearly, with this message
# on stderr, until the feature exists (then it moves to the table's checks).
unsupported_message() {
  case $1 in
  esac
}
wanted() { [ -z "${CUDA_TESTS:-}" ] && return 0; case " $CUDA_TESTS " in *" $1 "*) return 0;; esac; return 1; }

# build NAME SOURCES...: rebuild only when a source or common.h is newer
build() {
  name=$1; shift
  bin="$build/$name"
  stale=no
  [ -x "$bin" ] || stale=yes
  paths=""
  for s in "$@"; do
    paths="$paths $src/$s"
    [ "$src/$s" -nt "$bin" ] && stale=yes
  done
  [ "$src/common.h" -nt "$bin" ] && stale=yes
  [ $stale = no ] && return 0
  rm -f "$bin"  # a failed build leaves no binary that looks up to date
  # shellcheck disable=SC2046,SC2086
  "$NVCC" -cudart shared -arch=sm_90 -I"$src" -o "$bin" $paths $(flags_for "$name") >"$build/$name.build.log" 2>&1
}

to=""
command -v timeout >/dev/null 2>&1 && to="timeout ${CUDA_TIMEOUT:-600}"
while read -r name status sources; do
  [ -n "$name" ] || continue
  wanted "$name" || continue
  # shellcheck disable=SC2086
  if ! build "$name" $sources </dev/null; then
    bad "$name: nvcc failed"; head -20 "$build/$name.build.log"; continue
  fi
  [ -n "${CUDA_BUILD_ONLY:-}" ] && { ok; continue; }
  $to "$PTXEMU" exec "$build/$name" </dev/null >"$build/$name.stdout" 2>"$build/$name.stderr"
  st=$?
  msg=$(unsupported_message "$name")
  if [ -n "$msg" ]; then
    if grep -qF -- "$msg" "$build/$name.stderr" && [ "$st" -ne 0 ]; then ok
    else bad "$name: expected a failure saying '$msg' (exit status $st)"; head -5 "$build/$name.stderr"; fi
  elif [ "$st" -ne "$status" ]; then
    bad "$name: exit status $st, expected $status"
    head -20 "$build/$name.stdout" "$build/$name.stderr"
  elif ! cmp -s "$src/$name.out" "$build/$name.stdout"; then
    bad "$name: stdout differs from $name.out"
    diff "$src/$name.out" "$build/$name.stdout" | head -20
    head -10 "$build/$name.stderr"
  else
    ok
  fi
done <<EOF_TABLE
$table
EOF_TABLE
finish
