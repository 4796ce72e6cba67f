#!/bin/sh
# fuzz/run.sh [SECONDS] - seed the corpora and run each harness SECONDS
# (default 60), one after another.  Prints one line per harness.
#   FUZZ_TARGETS="fuzz_emu" fuzz/run.sh 300     only some harnesses
#   FUZZ_PARALLEL=1 fuzz/run.sh                 all harnesses at once
# Corpora:   fuzz/out/corpus_<name>/   (kept and grown between runs)
# Crashes:   fuzz/out/crashes_<name>/  (crash-*, leak-*, timeout-*, oom-*)
# Logs:      fuzz/out/log_<name>.txt
set -eu
secs=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out="$here/out"
targets=${FUZZ_TARGETS:-"fuzz_ptx fuzz_object fuzz_launch fuzz_emu fuzz_par fuzz_fatbin fuzz_gpu fuzz_trace"}
for t in $targets; do
  [ -x "$out/$t" ] || { echo "fuzz/run.sh: $out/$t missing: run fuzz/build.sh" >&2; exit 1; }
done

seed() { # seed DIR FILE... : copy files under a name made of their path
  d=$1; shift
  mkdir -p "$d"
  for f in "$@"; do cp -f "$top/$f" "$d/$(echo "$f" | tr / _)"; done
}
cd "$top"
ptx=$(find tests/corpus tests/negative tests/exec examples -name '*.ptx' -size -64k | sort)
exec_ptx=$(find tests/exec examples tests/corpus/hand -name '*.ptx' -size -16k | sort)
launch=$(find tests examples -name '*.launch' -o -name 'case.txt' | sort)
seed "$out/corpus_fuzz_ptx" $ptx
seed "$out/corpus_fuzz_emu" $exec_ptx
# and their instructions of variable operand count with the operands cut
# short (fuzz/short_forms.py): each round runs every one of them
if command -v python3 >/dev/null 2>&1; then python3 "$here/short_forms.py" "$out/corpus_fuzz_emu" $exec_ptx >/dev/null; fi
seed "$out/corpus_fuzz_launch" $launch
# fuzz_par: 10 bytes of launch shape and values, then the PTX; each file
# twice, functional (byte 1 = 5) and timed (byte 1 = 1)
mkdir -p "$out/corpus_fuzz_par"
for f in $exec_ptx; do
  for mode in 5 1; do
    o="$out/corpus_fuzz_par/$(echo "$f" | tr / _)_$mode"
    [ -f "$o" ] || { printf "\\007\\00$mode\\003\\005\\007\\013\\015\\021\\023\\027"; cat "$f"; } >"$o"
  done
done
seed "$out/corpus_fuzz_fatbin" $(find tests/unit/data/fatbin -type f -size -16k ! -name '*.c*' ! -name '*.sh' | sort)
seed "$out/corpus_fuzz_gpu" $(find configs tests -name '*.gpu' | sort)
mkdir -p "$out/corpus_fuzz_trace"
if [ -x "$top/ptxemu" ] && command -v sqlite3 >/dev/null 2>&1; then
  # small real traces: functional and timed, every level; vacuumed to
  # 512-byte pages so that a whole database fits the input size limit
  n=0
  for spec in "tests/exec/async_cp.launch all" "tests/exec/ctrl_block_labels.launch warp" \
              "tests/exec/async_cp.launch mem --gpu h100" "tests/exec/ctrl_block_labels.launch all --gpu fermi"; do
    n=$((n + 1))
    o="$out/corpus_fuzz_trace/seed_trace_$n.db"
    [ -f "$o" ] && continue
    set -- $spec
    l=$1 lev=$2; shift 2
    rm -f "$o.tmp" "$o.tmp-wal" "$o.tmp-shm"
    if "$top/ptxemu" run -q "$@" --trace "$o.tmp" --trace-level "$lev" "$l" >/dev/null 2>&1 &&
       sqlite3 "$o.tmp" "PRAGMA journal_mode=DELETE; PRAGMA page_size=512; VACUUM;" >/dev/null 2>&1; then
      mv "$o.tmp" "$o"
    fi
    rm -f "$o.tmp" "$o.tmp-wal" "$o.tmp-shm"
  done
fi
mkdir -p "$out/corpus_fuzz_object"
if [ -x "$top/ptxemu" ]; then   # objects of the small hand-written PTX files
  for f in $(find tests/exec tests/corpus/hand -name '*.ptx' -size -8k | sort | head -40); do
    o="$out/corpus_fuzz_object/$(echo "$f" | tr / _ | sed 's/\.ptx$/.pxo/')"
    [ -f "$o" ] || "$top/ptxemu" asm -o "$o" "$f" >/dev/null 2>&1 || rm -f "$o"
  done
fi

one() {
  t=$1
  mkdir -p "$out/crashes_$t"
  rc=0
  maxlen=16384
  [ "$t" = fuzz_trace ] && maxlen=131072      # whole small databases
  dict=                     # PTX tokens with edge sizes for the PTX harnesses
  case $t in fuzz_ptx|fuzz_emu|fuzz_par) dict=-dict=$here/ptx.dict ;; esac
  "$out/$t" $dict -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len="$maxlen" \
    -print_final_stats=1 -artifact_prefix="$out/crashes_$t/" \
    "$out/corpus_$t" >"$out/log_$t.txt" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log_$t.txt" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$out/log_$t.txt" | tail -1 | sed 's/cov: //')
  ncr=$(ls "$out/crashes_$t" | wc -l)
  status=ok
  [ "$rc" -eq 0 ] || status="FAILED rc=$rc: $(grep -m1 -o 'ERROR: .*\|Test unit written to .*' "$out/log_$t.txt" | head -1)"
  printf '%-12s %9s execs in %ss (%s/s)  cov %-6s crash files %s  %s\n' "$t" "${execs:-?}" "$secs" \
    "$(( ${execs:-0} / secs ))" "${cov:-?}" "$ncr" "$status"
  # a finding's first stack frames and its input, so that a CI log names the
  # code and the crash can be rebuilt without the artifact
  if [ "$rc" -ne 0 ]; then
    grep -m4 '^ *#[0-9]* 0x[0-9a-f]* in ' "$out/log_$t.txt" | sed 's/^ */    /'
    for f in "$out/crashes_$t"/*; do
      [ -f "$f" ] || continue
      echo "    input $(basename "$f") ($(wc -c < "$f") bytes, base64):"
      head -c 16384 "$f" | base64 | sed 's/^/      /'
    done
  fi
}
if [ -n "${FUZZ_PARALLEL:-}" ]; then
  for t in $targets; do one "$t" > "$out/line_$t.txt" & done
  wait
  for t in $targets; do cat "$out/line_$t.txt"; done > "$out/summary.txt"
else
  for t in $targets; do one "$t"; done > "$out/summary.txt"
fi
cat "$out/summary.txt"
# a finding fails the run (CI's smoke round relies on it)
! grep -q FAILED "$out/summary.txt"
