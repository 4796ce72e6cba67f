#!/bin/sh
# cudart/update_man_lists.sh - rewrite the lists of supported calls in
# man/ptxemu-exec.1 from what the built libraries define (run in the build
# folder after make; tests/cuda/api_documented.sh checks the result).
set -eu
man=${1:-man/ptxemu-exec.1}
list() { nm -g --defined-only "$1" | awk 'NF == 3 && ($2 == "T" || $2 == "W") { print $3 }' | grep -E "$2" | sort | sed 's/$/,/' | tr '\n' ' ' | sed 's/, $/./'; }
rt=$(list cudart/libcudartrt.a '^(cuda|__cuda)')
drv=$(list cudart/libcudadrv.a '^cu')
awk -v rt="$rt" -v drv="$drv" '
  prev ~ /^\.SS Runtime API/ { print rt; prev = ""; next }
  prev ~ /^\.SS Driver API/ { print drv; prev = ""; next }
  { print; prev = $0 }
' "$man" > "$man.tmp" && mv "$man.tmp" "$man"
