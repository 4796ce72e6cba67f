#!/bin/sh
# Builds the sweep (needs nvcc; the result runs where an sm_90 GPU is).
set -e
here=$(dirname "$0"); top=$here/../..; out=${1:-$here/sweep}
o=$(mktemp -d); trap 'rm -rf "$o"' EXIT
gcc -std=gnu11 -O2 -c "$top/emu/fp.c" -o "$o/fp.o"
gcc -std=gnu11 -O2 -c "$top/emu/fp_approx.c" -o "$o/fp_approx.o"
nvcc -O2 -std=c++17 -arch=sm_90 -Xcompiler -iquote,"$top" "$here/sweep.cu" "$o/fp.o" "$o/fp_approx.o" \
  -Xcompiler -static-libstdc++,-static-libgcc -lm -o "$out"
