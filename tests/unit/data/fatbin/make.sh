#!/bin/sh
# make.sh - regenerate the test fatbins and programs (nvcc 13.0, x86-64 Linux).
# Small on purpose: one tiny kernel per translation unit; programs stripped.
set -eu
cd "$(dirname "$0")"
N="nvcc -Xlinker -z,noseparate-code"
nvcc -fatbin -arch=sm_90 add.cu -o sm90.fatbin                       # SASS + Zstandard PTX (default)
nvcc -fatbin -arch=sm_90 -no-compress add.cu -o sm90_nocompress.fatbin
nvcc -fatbin -arch=sm_90 --compress-mode=speed add.cu -o sm90_lz4.fatbin
nvcc -fatbin -arch=sm_90 -Xfatbin -compress-all add.cu -o sm90_all.fatbin   # the SASS compressed too
nvcc -fatbin -arch=sm_90a add.cu -o sm90a.fatbin                     # compute_90, sm_90a, compute_90a
nvcc -fatbin -arch=sm_90 -G add.cu -o debug.fatbin                   # name and options strings
nvcc -fatbin -gencode arch=compute_90,code=sm_90 add.cu -o sass_only.fatbin
nvcc -fatbin -gencode arch=compute_100,code=compute_100 add.cu -o ptx100.fatbin
for c in "" -no-compress; do
  nvcc -fatbin $c -gencode arch=compute_80,code=compute_80 \
    -gencode arch=compute_90,code=[sm_90,compute_90] add.cu -o multi${c:+_nocompress}.fatbin
done
$N -cudart shared -arch=sm_90 scale.cu add.cu -o app_shared        # two units: three fatbins
$N -cudart shared -rdc=true -arch=sm_90 scale.cu add.cu -o app_rdc # PTX in __nv_relfatbin
$N -cudart shared -gencode arch=compute_90,code=sm_90 scale.cu add.cu -o app_sass
strip app_shared app_rdc app_sass
cc -Wl,-z,noseparate-code -o static_stub static_stub.c && cp static_stub static_stub_stripped && strip static_stub_stripped
