# lib.sh -- helpers shared by the labs' run.sh scripts (sourced, not run).
#
# A lab runs its launch file(s) on several GPU models with --stats (cycles,
# hit rates, counters per launch), records one functional run with --trace
# for the address- and control-flow metrics (branch efficiency,
# transactions per request, load efficiency), prints a table per metric,
# then checks the direction of each effect the textbook reports.
#
# Environment:
#   PTXEMU=PATH   the ptxemu binary (default: the one built in the source tree)
#   GPUS="..."    the timing models to run (default: fermi kepler h100)
#   LAB_OUT=DIR   keep the stats files and SQLite traces in DIR (default: a
#                 temporary folder, removed at the end)
#   LAB_STRICT=1  count the known gaps (XFAIL) as failures too
#   LAB_PROFILE="fermi kepler"  the GPUs whose lab_timed runs also record a
#                 trace at level mem: its launch_metrics (the profiler
#                 metrics of that GPU's generation: nvprof's on fermi and
#                 kepler) go to SOURCE = GPU-prof (set by the labs that
#                 check the textbook's nvprof figures)
#
# Results are collected in $LAB_VALUES, one line per value:
#   TAG SOURCE INDEX KEY VALUE
# TAG names a launch file of the lab, SOURCE is a GPU name (from --stats),
# "trace" (from the trace's launch_metrics view or lab_sql) or "H100" (a
# real H100's counters, lab_hw), INDEX the launch index (launch lines of the
# launch file counted from 0).

set -u
LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
LABS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$LABS_DIR/../.." && pwd)
PTXEMU=${PTXEMU:-$ROOT/ptxemu}
LAB_GPUS_GIVEN=${GPUS:+1}
GPUS=${GPUS:-"fermi kepler h100"}
LAB_NAME=$(basename "$LAB_DIR")
if [ -n "${LAB_OUT:-}" ]; then
  mkdir -p "$LAB_OUT"
  LAB_WORK=$(cd "$LAB_OUT" && pwd)
else
  LAB_WORK=$(mktemp -d "${TMPDIR:-/tmp}/ptxemu-lab.XXXXXX")
  trap 'rm -rf "$LAB_WORK"' EXIT
fi
LAB_VALUES=$LAB_WORK/values.txt
: > "$LAB_VALUES"
LAB_FAILS=0
LAB_PASSES=0
LAB_XFAILS=0
LAB_SIZES=0
LAB_T0=$(date +%s)

if [ ! -x "$PTXEMU" ]; then
  echo "$LAB_NAME: no ptxemu at $PTXEMU (build it with 'make' in $ROOT, or set PTXEMU)" >&2
  exit 2
fi

# The configuration file of a GPU model: a bundled name or a .gpu file.
lab_gpu_file() { if [ -f "$1" ]; then echo "$1"; else echo "$ROOT/configs/$1.gpu"; fi; }

# A key of a GPU model's configuration (clock_mhz, lat_dram, ...).
lab_gpu_key() { awk -v k="$2" '$1 == k { print $3 }' "$(lab_gpu_file "$1")"; }

# The clock of a GPU model in MHz (to turn cycles into seconds).
# (H100, the measured machine: the base clock Nsight Compute holds it at,
# which the h100 model uses)
lab_clock_mhz() { if [ "$1" = H100 ]; then lab_gpu_key h100 clock_mhz; else lab_gpu_key "$1" clock_mhz; fi; }

# lab_gpu_with NAME KEY=VALUE...
# Run bundled GPU model NAME with some parameters changed (a compiler flag
# of the textbook's runs, e.g. -Xptxas -dlcm=ca); its values keep the tag
# NAME.  Does nothing when GPUS was given.
lab_gpu_with() {
  local name=$1 f="$LAB_WORK/$1.gpu" kv
  shift
  [ -n "$LAB_GPUS_GIVEN" ] && return 0
  cp "$ROOT/configs/$name.gpu" "$f"
  for kv in "$@"; do sed -i "s/^${kv%%=*} .*/${kv%%=*} = ${kv#*=}/" "$f"; done
  GPUS=$(for g in $GPUS; do if [ "$g" = "$name" ]; then echo "$f"; else echo "$g"; fi; done | tr '\n' ' ')
}

# lab_gpu_variant NAME BASE KEY=VALUE...: one more GPU model, NAME, made of
# bundled model BASE with some parameters changed (e.g. kepler in its
# 8-byte bank mode); its values have the tag NAME.  Does nothing when GPUS
# was given.
lab_gpu_variant() {
  local name=$1 base=$2 f="$LAB_WORK/$1.gpu" kv
  shift 2
  [ -n "$LAB_GPUS_GIVEN" ] && return 0
  cp "$ROOT/configs/$base.gpu" "$f"
  for kv in "$@"; do
    if grep -q "^${kv%%=*} " "$f"; then sed -i "s/^${kv%%=*} .*/${kv%%=*} = ${kv#*=}/" "$f"
    else echo "${kv%%=*} = ${kv#*=}" >> "$f"; fi
  done
  sed -i "s/^name .*/name = $name/" "$f"
  GPUS="$GPUS $f"
}

# The launch overhead of a GPU model in cycles (an empty kernel's time):
# subtract it to compare the work of short kernels.
lab_launch_cycles() { lab_gpu_key "$1" launch_cycles; }

# lab_timed TAG LAUNCH [ptxemu options...]
# Run LAUNCH (relative to the lab folder; NAME.G.launch instead where it
# exists) with 'ptxemu check -q --gpu G --stats' for every G in $GPUS, in
# parallel; a run that fails (a wrong
# result, a fault) counts as a failed check.  Values go to SOURCE = G.
lab_timed() {
  local tag=$1 launch=$2 g rc ok=0
  shift 2
  local pids=()
  for g in $GPUS; do
    # NAME.GPU.launch, when there is one, is what that GPU can run (Fermi
    # has no shfl: its variant leaves those launches out)
    local lf="$LAB_DIR/$launch" alt="$LAB_DIR/${launch%.launch}.$(basename "$g" .gpu).launch"
    [ -f "$alt" ] && lf=$alt
    local prof=()
    if [[ " ${LAB_PROFILE:-} " == *" $(basename "$g" .gpu) "* ]]; then
      rm -f "$LAB_WORK/$tag.$(basename "$g" .gpu).db"
      prof=(--trace "$LAB_WORK/$tag.$(basename "$g" .gpu).db" --trace-level mem)
    fi
    "$PTXEMU" check -q --gpu "$g" --stats "$LAB_WORK/$tag.$(basename "$g" .gpu).stats" ${prof[@]+"${prof[@]}"} "$@" "$lf" \
      > "$LAB_WORK/$tag.$(basename "$g" .gpu).log" 2>&1 &
    pids+=("$!")
  done
  local i=0
  for g in $GPUS; do
    if wait "${pids[$i]}"; then rc=0; else rc=$?; fi
    i=$((i + 1))
    local f="$LAB_WORK/$tag.$(basename "$g" .gpu)"
    if [ "$rc" -ne 0 ]; then
      echo "  FAIL  ptxemu check --gpu $g $launch exited $rc:"
      sed 's/^/        /' "$f.log" | head -20
      LAB_FAILS=$((LAB_FAILS + 1))
      ok=1
      continue
    fi
    awk -v tag="$tag" -v src="$(basename "$g" .gpu)" '$1 == "launch" {
        for (i = 4; i < NF; i += 2) print tag, src, $2, $i, $(i + 1)
        print tag, src, $2, "kernel", $3 }' "$f.stats" >> "$LAB_VALUES"
    [ -f "$f.db" ] && lab_profile_values "$tag" "$(basename "$g" .gpu)-prof" "$f.db"
  done
  return $ok
}

# lab_profile_values TAG SOURCE DB: the metric views of a trace (long form,
# the metrics view) as values of SOURCE, by launch index.
lab_profile_values() {
  sqlite3 -separator ' ' -nullvalue - "$3" "SELECT l.launch_index, m.metric, m.value FROM metrics m
      JOIN launches l USING (launch_id) WHERE m.metric NOT IN ('metric_set')
    UNION ALL SELECT launch_index, 'metric_set', metric_set FROM launches" |
    awk -v tag="$1" -v src="$2" '{ print tag, src, $1, $2, $3 }' >> "$LAB_VALUES"
}

# lab_hw TAG CASE: what an H100 measured for the lab's launches
# (tests/golden/CASE/hw.txt, Nsight Compute on the same launch file), as
# SOURCE = H100: the real machine beside the model's h100 column.
lab_hw() {
  local f="$ROOT/tests/golden/$2/hw.txt"
  [ -f "$f" ] || return 0
  awk -v tag="$1" '$1 == "launch" { for (i = 4; i < NF; i += 2) print tag, "H100", $2, $i, $(i + 1) }' "$f" >> "$LAB_VALUES"
}

# lab_trace TAG LAUNCH LEVEL [ptxemu options...]
# One functional run of LAUNCH with --trace TAG.db --trace-level LEVEL; the
# columns of the launch_metrics view go to SOURCE = trace.  (Instruction,
# branch and memory-access metrics do not depend on the GPU model.)
lab_trace() {
  local tag=$1 launch=$2 level=$3 rc
  shift 3
  rm -f "$LAB_WORK/$tag.db"
  if "$PTXEMU" check -q --trace "$LAB_WORK/$tag.db" --trace-level "$level" "$@" "$LAB_DIR/$launch" \
       > "$LAB_WORK/$tag.trace.log" 2>&1; then rc=0; else rc=$?; fi
  if [ "$rc" -ne 0 ]; then
    echo "  FAIL  ptxemu check --trace $launch exited $rc:"
    sed 's/^/        /' "$LAB_WORK/$tag.trace.log" | head -20
    LAB_FAILS=$((LAB_FAILS + 1))
    return 1
  fi
  lab_sql "$tag" "SELECT launch_index, 'inst_per_warp', inst_per_warp FROM launch_metrics
    UNION ALL SELECT launch_index, 'sass_inst_per_warp', sass_inst_per_warp FROM launch_metrics
    UNION ALL SELECT launch_index, 'branch_efficiency', branch_efficiency FROM launch_metrics
    UNION ALL SELECT launch_index, 'warp_execution_efficiency', warp_execution_efficiency FROM launch_metrics
    UNION ALL SELECT launch_index, 'gld_efficiency', gld_efficiency FROM launch_metrics
    UNION ALL SELECT launch_index, 'gst_efficiency', gst_efficiency FROM launch_metrics
    UNION ALL SELECT launch_index, 'gld_transactions_per_request', gld_transactions_per_request FROM launch_metrics
    UNION ALL SELECT launch_index, 'gst_transactions_per_request', gst_transactions_per_request FROM launch_metrics
    UNION ALL SELECT launch_index, 'shared_load_transactions_per_request', shared_load_transactions_per_request FROM launch_metrics
    UNION ALL SELECT launch_index, 'shared_store_transactions_per_request', shared_store_transactions_per_request FROM launch_metrics
    UNION ALL SELECT launch_index, 'shared_efficiency', shared_efficiency FROM launch_metrics"
}

# lab_sql TAG SQL: SQL on TAG.db returning rows (launch_index, key, value);
# they go to SOURCE = trace.  NULL values become "-".
lab_sql() {
  local tag=$1 sql=$2
  sqlite3 -separator ' ' -nullvalue - "$LAB_WORK/$tag.db" "$sql" |
    awk -v tag="$tag" '{ print tag, "trace", $1, $2, $3 }' >> "$LAB_VALUES"
}

# lab_v TAG SOURCE INDEX KEY: one value (NA if missing or NULL)
lab_v() {
  # a GPU given as a configuration file (lab_gpu_with) is tagged by its name
  awk -v t="$1" -v s="$(basename "$2" .gpu)" -v i="$3" -v k="$4" '$1 == t && $2 == s && $3 == i && $4 == k { v = $5 }
    END { print ((v == "" || v == "-") ? "NA" : v) }' "$LAB_VALUES"
}

# lab_calc EXPR [DECIMALS]: evaluate an awk expression (NA if it uses NA or
# divides by zero)
lab_calc() {
  case "$1" in *NA*) echo NA; return ;; esac
  awk "BEGIN { x = ($1); printf \"%.${2:-2}f\\n\", x }" 2>/dev/null || echo NA
}

# lab_fmt VALUE [DECIMALS]: format a number; NA prints as "-"
lab_fmt() {
  case "$1" in NA|-|"") echo - ;; *) awk -v x="$1" "BEGIN { printf \"%.${2:-2}f\\n\", x }" ;; esac
}

# lab_row LABEL WIDTH VALUE...: one table row (first column 28 wide)
lab_row() {
  local label=$1 w=$2
  shift 2
  printf '%-28s' "$label"
  local x
  for x in "$@"; do [ "$x" = NA ] && x=-; case $x in */*.gpu) x=$(basename "$x" .gpu);; esac; printf " %${w}s" "$x"; done
  printf '\n'
}

lab_title() { printf '\n== %s ==\n' "$*"; }

# Functions the conditions of lab_check and lab_known may use:
# near(a, b): a within 1% of b (b = 0: |a| < 0.01); between(a, lo, hi).
LAB_AWK_FUNCS='function abs(x) { return x < 0 ? -x : x }
function near(a, b) { return b == 0 ? abs(a) < 0.01 : abs(a - b) <= 0.01 * abs(b) }
function between(a, lo, hi) { return a >= lo && a <= hi }'

# lab_check DESCRIPTION AWK-CONDITION: a direction the emulator must show
lab_check() {
  if printf '%s' "$2" | grep -q NA; then
    if [ -n "$LAB_GPUS_GIVEN" ]; then
      echo "  skip  $1  (a value is missing: a GPU not in GPUS=\"$GPUS\"?)"
    else
      echo "  FAIL  $1  (a value is missing)"
      LAB_FAILS=$((LAB_FAILS + 1))
    fi
  elif awk "$LAB_AWK_FUNCS BEGIN { exit !($2) }"; then
    echo "  ok    $1"
    LAB_PASSES=$((LAB_PASSES + 1))
  else
    echo "  FAIL  $1   [$2]"
    LAB_FAILS=$((LAB_FAILS + 1))
  fi
}

# lab_holds AWK-CONDITION: whether it holds (no value missing)
lab_holds() {
  ! printf '%s' "$1" | grep -q NA && awk "$LAB_AWK_FUNCS BEGIN { exit !($1) }" 2>/dev/null
}

# lab_known DESCRIPTION AWK-CONDITION REASON: a textbook effect that ptxemu's
# model is known not to reproduce; reported (XFAIL, or XPASS once it does),
# never counted as a failure.
lab_known() {
  if lab_holds "$2"; then
    echo "  XPASS $1  (now reproduced: update this lab)"
  else
    echo "  XFAIL $1   [$2]  -- $3"
    LAB_XFAILS=$((LAB_XFAILS + 1))
    [ -n "${LAB_STRICT:-}" ] && LAB_FAILS=$((LAB_FAILS + 1))
  fi
}

# lab_size DESCRIPTION AWK-CONDITION REASON: how large a textbook effect
# is, where a lab_check already shows its direction; ptxemu's model is
# known to make it smaller.  Reported (SIZE, or "ok" once it is reached),
# never counted as a failure.
lab_size() {
  if lab_holds "$2"; then
    echo "  ok    $1"
    LAB_PASSES=$((LAB_PASSES + 1))
  else
    echo "  SIZE  $1   [$2]  -- $3"
    LAB_SIZES=$((LAB_SIZES + 1))
    [ -n "${LAB_STRICT:-}" ] && LAB_FAILS=$((LAB_FAILS + 1))
  fi
}

# lab_finish TEXTBOOK-LINE: the verdict, and the exit status (1 if a check failed)
lab_finish() {
  local t1
  t1=$(date +%s)
  echo
  echo "Textbook: $1"
  local sizes=""
  [ "$LAB_SIZES" -gt 0 ] && sizes=$(printf '; %d effect(s) smaller than the textbook'"'"'s (SIZE)' "$LAB_SIZES")
  if [ "$LAB_FAILS" -eq 0 ] && [ "$LAB_XFAILS" -eq 0 ]; then
    printf 'ptxemu:   direction reproduced (%d checks ok%s)\n' "$LAB_PASSES" "$sizes"
  elif [ "$LAB_FAILS" -eq 0 ]; then
    printf 'ptxemu:   direction reproduced in part: %d checks ok, %d textbook effect(s) not reproduced (XFAIL: known gaps of ptxemu)\n' \
      "$LAB_PASSES" "$LAB_XFAILS"
  else
    printf 'ptxemu:   direction NOT reproduced: %d check(s) failed, %d ok\n' "$LAB_FAILS" "$LAB_PASSES"
  fi
  [ -n "${LAB_OUT:-}" ] && echo "(stats files and traces kept in $LAB_WORK)"
  echo "($LAB_NAME: $((t1 - LAB_T0)) s)"
  [ "$LAB_FAILS" -eq 0 ]
}
