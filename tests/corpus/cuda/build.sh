#!/bin/sh
# Regenerates tests/corpus/ptx/ from the CUDA sources in this directory.
#
#   tests/corpus/ptx/<arch>/<name>.ptx   nvcc -ptx -O3 -arch=<arch> [extra flags]
#   tests/corpus/ptx/debug/<name>.*.ptx  -lineinfo / -G builds
#
# Usage: tests/corpus/cuda/build.sh            (from anywhere)
#        NVCC=/path/to/nvcc tests/corpus/cuda/build.sh
#
# Generated with CUDA 13.0 (V13.0.88, build cuda_13.0.r13.0/compiler.36424714_0).
# nvcc runs inside this directory with relative file names so that the
# .file directives of the debug builds do not depend on the checkout path.
set -eu

NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(cd "$HERE/.." && pwd)/ptx
cd "$HERE"

BASE_ARCHS="sm_75 sm_80 sm_86 sm_90"

# name | archs | extra nvcc flags
# (control.cu: the jump-table density option makes NVVM lower the dense
#  switches to brx.idx + .branchtargets; by default it emits a compare tree)
TABLE="
int_arith   | $BASE_ARCHS       |
float_round | $BASE_ARCHS       |
half_bf16   | $BASE_ARCHS       |
fastmath    | $BASE_ARCHS       | -use_fast_math
convert     | $BASE_ARCHS sm_89 |
memspaces   | $BASE_ARCHS       |
atomics     | $BASE_ARCHS       |
warp        | $BASE_ARCHS       |
sync_misc   | $BASE_ARCHS       |
control     | $BASE_ARCHS       | -Xcicc -jump-table-density=40
wmma        | $BASE_ARCHS       |
mma_asm     | $BASE_ARCHS sm_89 |
async_copy  | $BASE_ARCHS       |
textures    | $BASE_ARCHS       |
cluster     | sm_90             |
wgmma       | sm_90a            |
"

echo "$TABLE" | while IFS='|' read -r name archs flags; do
    name=$(echo "$name" | tr -d ' ')
    [ -n "$name" ] || continue
    for arch in $archs; do
        mkdir -p "$OUT/$arch"
        echo "$NVCC -ptx -O3 -arch=$arch $flags $name.cu -o $OUT/$arch/$name.ptx"
        # shellcheck disable=SC2086
        "$NVCC" -ptx -O3 -arch="$arch" $flags "$name.cu" -o "$OUT/$arch/$name.ptx"
    done
done

# Debug-information builds: -lineinfo gives .loc with inlined_at, .file with
# paths and a .section .debug_str; -G gives full DWARF sections
# (.debug_info/.debug_abbrev/.debug_loc ... as .b8 byte lists).
mkdir -p "$OUT/debug"
set -x
"$NVCC" -ptx -O3 -arch=sm_80 -lineinfo half_bf16.cu -o "$OUT/debug/half_bf16.lineinfo.sm_80.ptx"
"$NVCC" -ptx -O3 -arch=sm_90 -lineinfo atomics.cu -o "$OUT/debug/atomics.lineinfo.sm_90.ptx"
"$NVCC" -ptx -O3 -arch=sm_86 -lineinfo warp.cu -o "$OUT/debug/warp.lineinfo.sm_86.ptx"
"$NVCC" -ptx -G -arch=sm_75 memspaces.cu -o "$OUT/debug/memspaces.G.sm_75.ptx"
