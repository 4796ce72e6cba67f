#!/bin/bash
# tools/microbench/one_pass.sh RUNNER CASEDIR... - each launch's DRAM bytes
# measured in one Nsight Compute pass (on the GPU machine; RUNNER is the golden
# tools' runner, CASEDIR a case folder with case.txt and its inputs).
#
# Why: with the full metric list ncu replays every kernel in many passes and
# restores device memory before each; the restore leaves dirty lines in the L2
# that the kernel's own accesses then write back (mb_wb's 128 MiB reads: 2.4 MB
# written in every multi-pass launch, 18-23 KB in one pass).  Collecting only
# dram__bytes_{read,write}.sum needs one pass and no restore: what the kernel
# itself moves.  Output: "case launch kernel dram_read_bytes dram_write_bytes",
# one line per launch (tests/dram_one_pass.txt).  --csv FILE... converts ncu
# CSV files already collected (named CASE.csv) instead.
set -u
parse() {   # parse CASE < ncu.csv
  awk -v c="$1" -F'","' '/^"[0-9]/ {
      id = substr($1, 2) + 0; v = $NF; gsub(/[",]/, "", v)
      name[id] = $5; sub(/\(.*/, "", name[id])
      if ($(NF-2) == "dram__bytes_read.sum") rd[id] = v
      if ($(NF-2) == "dram__bytes_write.sum") wr[id] = v
      if (id > n) n = id }
    END { for (i = 0; i <= n; i++) if ((i in rd) && (i in wr)) print c, i, name[i], rd[i], wr[i] }'
}
if [ "${1:-}" = --csv ]; then
  shift
  for f in "$@"; do parse "$(basename "$f" .csv)" < "$f"; done
  exit 0
fi
[ $# -ge 2 ] || { echo "usage: $0 RUNNER CASEDIR... | --csv FILE..." >&2; exit 2; }
runner=$1; shift
ncu=$(command -v ncu || ls -d /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -n 1)
[ -x "$ncu" ] || { echo "$0: ncu not found" >&2; exit 1; }
sudo=""; sudo -n true 2>/dev/null && sudo="sudo -n"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for d in "$@"; do
  c=$(basename "$d")
  timeout 600 $sudo "$ncu" --csv --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum \
      "$runner" "$d" "$tmp" > "$tmp/ncu.csv" 2> "$tmp/err" || echo "$0: $c: ncu or the runner failed; its launches so far follow" >&2
  parse "$c" < "$tmp/ncu.csv"
done
