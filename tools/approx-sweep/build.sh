#!/bin/sh
# Builds the sweep (needs nvcc; the result runs where an sm_90 GPU is).
set -e
here=$(dirname "$0"); top=$here/../..; out=${1:-$here/sweep}
gcc -std=gnu11 -O2 -c "$top/emu/fp.c" -o /tmp/sweep_fp.o
gcc -std=gnu11 -O2 -c "$top/emu/fp_approx.c" -o /tmp/sweep_fp_approx.o
# only emu/fp.h on the include path: the top directory's debug/ would hide libstdc++'s
inc=$(mktemp -d); mkdir "$inc/emu"; cp "$top/emu/fp.h" "$inc/emu/"
nvcc -O2 -std=c++17 -arch=sm_90 -I"$inc" "$here/sweep.cu" /tmp/sweep_fp.o /tmp/sweep_fp_approx.o \
  -Xcompiler -static-libstdc++,-static-libgcc -lm -o "$out"
rm -rf "$inc"
