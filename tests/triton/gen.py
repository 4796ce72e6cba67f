#!/usr/bin/env python3
"""Writes the inputs (*.in.bin) and launch files of tests/triton.

Inputs are deterministic: Python's random.Random with the seeds named below.
The expected outputs (*.out.bin) are not written here: they were recorded on
an H100 by hw_record.cu playing the same launch files (see README.md).
Run from any folder: python3 tests/triton/gen.py
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def put(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    return len(data)


def f32s(vals):
    return struct.pack("<%df" % len(vals), *vals)


def f16s(vals):
    return struct.pack("<%de" % len(vals), *vals)


def launch(name, text):
    with open(os.path.join(HERE, name), "w") as f:
        f.write(text.lstrip())


# softmax: 64 rows x 1000 columns, uniform(-4, 4), seed 1
R, C = 64, 1000
rng = random.Random(1)
n = put("softmax_x.in.bin", f32s([rng.uniform(-4, 4) for _ in range(R * C)]))
launch("softmax.launch", f"""
# Triton-style fused softmax (softmax.ptx): 64 rows of 1000 f32, 32 programs
# looping over rows; input seed 1 (gen.py); output recorded on an H100.
# ex2.approx and div.full run on the MUFU unit, whose tables ptxemu models as
# the exact function rounded (emu/exec_fp.c): 39300 of the 64000 results
# differ from the H100 by 1 to 4 ulps (34162 by 1, 6 by 4), hence f32ulp 4.
ptx softmax.ptx
buffer x {n} file softmax_x.in.bin
buffer y {n} zero
buffer scratch 16 zero
launch softmax_kernel grid 32 1 1 block 128 1 1 shared 32
arg ptr y
arg ptr x
arg u32 {C}
arg u32 {C}
arg u32 {R}
arg u32 {C}
arg ptr scratch
expect y softmax_y.out.bin f32ulp 4
""")

# reduction: 48 rows x 3000 columns, uniform(-1, 1), seed 2
R, C = 48, 3000
rng = random.Random(2)
n = put("reduce_x.in.bin", f32s([rng.uniform(-1, 1) for _ in range(R * C)]))
launch("reduce.launch", f"""
# Triton-style row reduction (reduce.ptx): sum, max and an atomic count of
# positive elements over 48 rows of 3000 f32; input seed 2 (gen.py);
# outputs recorded on an H100.
ptx reduce.ptx
buffer x {n} file reduce_x.in.bin
buffer sum {R * 4} zero
buffer max {R * 4} zero
buffer count 4 zero
buffer scratch 16 zero
launch triton_red_fused_max_sum_0 grid {R} 1 1 block 128 1 1 shared 48
arg ptr x
arg ptr sum
arg ptr max
arg ptr count
arg u32 {R}
arg u32 {C}
arg ptr scratch
expect sum reduce_sum.out.bin exact
expect max reduce_max.out.bin exact
expect count reduce_count.out.bin exact
""")

# sm_80 matmul: M 80 (not a multiple of the block), N 64, K 96;
# f16 multiples of 1/16 in [-2, 2], seeds 3 (A) and 4 (B)
M, N, K = 80, 64, 96
rng = random.Random(3)
na = put("mma_a.in.bin", f16s([rng.randint(-32, 32) / 16 for _ in range(M * K)]))
rng = random.Random(4)
nb = put("mma_b.in.bin", f16s([rng.randint(-32, 32) / 16 for _ in range(K * N)]))
launch("matmul_mma.launch", f"""
# Triton-style sm_80 matmul (matmul_mma.ptx): C[80x64] f32 = A[80x96] @ B[96x64]
# (f16, row-major), 32x32x32 blocks, cp.async double buffering; rows 80-95 of
# the last block row are masked (source size 0).  Inputs seeds 3 and 4
# (gen.py); output recorded on an H100.
ptx matmul_mma.ptx
buffer a {na} file mma_a.in.bin
buffer b {nb} file mma_b.in.bin
buffer c {M * N * 4} zero
buffer scratch 16 zero
launch matmul_kernel grid {((M + 31) // 32) * ((N + 31) // 32)} 1 1 block 128 1 1 shared 8192
arg ptr a
arg ptr b
arg ptr c
arg u32 {M}
arg u32 {N}
arg u32 {K}
arg u32 {K}
arg u32 {N}
arg u32 {N}
arg ptr scratch
expect c matmul_mma_c.out.bin exact
""")

# sm_90a matmul: M 128, N 192, K 320 (5 k tiles: both stages refilled);
# f16 multiples of 1/16 in [-2, 2], seeds 5 (A) and 6 (Bt)
M, N, K = 128, 192, 320
rng = random.Random(5)
na = put("tma_a.in.bin", f16s([rng.randint(-32, 32) / 16 for _ in range(M * K)]))
rng = random.Random(6)
nb = put("tma_bt.in.bin", f16s([rng.randint(-32, 32) / 16 for _ in range(N * K)]))
launch("matmul_tma.launch", f"""
# Triton-style sm_90a matmul (matmul_tma.ptx): C[128x192] f32 = A[128x320] @
# Bt[192x320]^T (f16, K contiguous), 64x64x64 blocks, TMA loads with 128-byte
# swizzle into two stages, wgmma m64n64k16, TMA store of C.  Inputs seeds 5
# and 6 (gen.py); output recorded on an H100.
ptx matmul_tma.ptx
buffer a {na} file tma_a.in.bin
buffer bt {nb} file tma_bt.in.bin
buffer c {M * N * 4} zero
buffer scratch 16 zero
tensormap ta f16 2 a dims {K} {M} strides {K * 2} box 64 64 swizzle 128B
tensormap tb f16 2 bt dims {K} {N} strides {K * 2} box 64 64 swizzle 128B
tensormap tc f32 2 c dims {N} {M} strides {N * 4} box 64 64
launch matmul_kernel_tma grid {(M // 64) * (N // 64)} 1 1 block 128 1 1 shared 32784
arg tensormap ta
arg tensormap tb
arg tensormap tc
arg u32 {M}
arg u32 {N}
arg u32 {K}
arg ptr scratch
expect c matmul_tma_c.out.bin exact
""")

# textures: 7 x 5 texels, 64 probe coordinates per launch
W, H, P = 7, 5, 64
rng = random.Random(20)
special = [(0.5, 0.5), (1.0, 1.0), (3.5, 2.5), (6.5, 4.5), (7.0, 5.0), (-0.5, -0.5),
           (-1.25, 2.75), (7.75, 5.5), (0.0, 0.0), (2.25, 1.125), (3.6, 2.7), (5.03, 0.97),
           (8.9, 6.4), (-2.3, -1.7), (0.1, 4.9), (6.99, 0.01)]
unnorm = special + [(rng.uniform(-2.5, 9.5), rng.uniform(-2.5, 7.5)) for _ in range(P - len(special))]
rng = random.Random(21)
norm = [(x / W, y / H) for x, y in special] + \
       [(rng.uniform(-1.3, 2.3), rng.uniform(-1.3, 2.3)) for _ in range(P - len(special))]
put("tex_coords.in.bin", f32s([v for xy in unnorm for v in xy]))
put("tex_ncoords.in.bin", f32s([v for xy in norm for v in xy]))
rng = random.Random(10)
put("tex_f32.in.bin", f32s([round(rng.uniform(-10, 10) * 64) / 64 for _ in range(W * H)]))
rng = random.Random(11)
put("tex_u8x4.in.bin", bytes(rng.randrange(256) for _ in range(W * H * 4)))
rng = random.Random(12)
put("tex_u16.in.bin", struct.pack("<%dH" % (W * H), *[rng.randrange(65536) for _ in range(W * H)]))
rng = random.Random(13)
put("tex_f16x2.in.bin", f16s([rng.randint(-1024, 1024) / 256 for _ in range(W * H * 2)]))
rng = random.Random(14)
put("tex_u8.in.bin", bytes(rng.randrange(256) for _ in range(W * H)))
rng = random.Random(15)
put("tex_f32_1d.in.bin", f32s([round(rng.uniform(-10, 10) * 64) / 64 for _ in range(9)]))

# (texture name, input, type channels, options, coordinates, kernel)
TEX = [
    ("f32_point_clamp", "tex_f32", "f32 1", "", "tex_coords", "tex_probe"),
    ("f32_linear_clamp", "tex_f32", "f32 1", "filter linear", "tex_coords", "tex_probe"),
    ("f32_linear_wrap", "tex_f32", "f32 1", "normalized 1 addr wrap filter linear", "tex_ncoords", "tex_probe"),
    ("f32_linear_mirror", "tex_f32", "f32 1", "normalized 1 addr mirror filter linear", "tex_ncoords", "tex_probe"),
    ("f32_linear_border", "tex_f32", "f32 1", "normalized 1 addr border border 0.25 filter linear", "tex_ncoords", "tex_probe"),
    ("f32_point_wrap", "tex_f32", "f32 1", "normalized 1 addr wrap", "tex_ncoords", "tex_probe"),
    ("f32_point_border", "tex_f32", "f32 1", "addr border border 0.25", "tex_coords", "tex_probe"),
    ("u8x4_linear_wrap", "tex_u8x4", "u8 4", "normalized 1 addr wrap filter linear read normalized", "tex_ncoords", "tex_probe"),
    ("u8x4_point_mirror", "tex_u8x4", "u8 4", "normalized 1 addr mirror read normalized", "tex_ncoords", "tex_probe"),
    ("u16_linear_clamp", "tex_u16", "u16 1", "filter linear read normalized", "tex_coords", "tex_probe"),
    ("u16_linear_border", "tex_u16", "u16 1", "normalized 1 addr border filter linear read normalized", "tex_ncoords", "tex_probe"),
    ("f16x2_linear_mirror", "tex_f16x2", "f16 2", "normalized 1 addr mirror filter linear", "tex_ncoords", "tex_probe"),
    ("f16x2_point_clamp", "tex_f16x2", "f16 2", "", "tex_coords", "tex_probe"),
    ("s16_linear_wrap", "tex_u16", "s16 1", "normalized 1 addr wrap filter linear read normalized", "tex_ncoords", "tex_probe"),
    ("u8x4_linear_clamp", "tex_u8x4", "u8 4", "filter linear read normalized", "tex_coords", "tex_probe"),
    ("u8_element_border", "tex_u8", "u8 1", "addr border", "tex_coords", "tex_probe_u32"),
    ("u8_element_wrap", "tex_u8", "u8 1", "normalized 1 addr wrap", "tex_ncoords", "tex_probe_u32"),
]
size = {"f32 1": 4, "u8 4": 4, "u16 1": 2, "f16 2": 4, "u8 1": 1}
out = ["""
# Texture fetches measured on an H100 (tex_probe.ptx): 7 x 5 textures of
# several formats, filters and address modes, each probed at 64 coordinates
# (tex_coords: unnormalized, tex_ncoords: normalized; 16 chosen points, then
# seeds 20 and 21) with tex.2d, tld4.r and tld4.a (tex.2d.v4.u32 and
# tld4.r.u32 for element reads); texel seeds 10-15 (gen.py).
ptx tex_probe.ptx
buffer tex_coords 512 file tex_coords.in.bin
buffer tex_ncoords 512 file tex_ncoords.in.bin
buffer tex_f32 140 file tex_f32.in.bin
buffer tex_u8x4 140 file tex_u8x4.in.bin
buffer tex_u16 70 file tex_u16.in.bin
buffer tex_f16x2 140 file tex_f16x2.in.bin
buffer tex_u8 35 file tex_u8.in.bin
buffer tex_f32_1d 36 file tex_f32_1d.in.bin
"""]
for name, buf, tc, opt, coords, kern in TEX:
    outb = P * (48 if kern == "tex_probe" else 32)
    out.append(f"""
texture t_{name} {buf} {tc} {W} {H} {opt}
buffer o_{name} {outb} zero
launch {kern} grid 1 1 1 block {P} 1 1 shared 0
arg texture t_{name}
arg ptr {coords}
arg ptr o_{name}
expect o_{name} tex_{name}.out.bin exact
""")
out.append(f"""
texture t_f32_1d_linear_wrap tex_f32_1d f32 1 9 normalized 1 addr wrap filter linear
buffer o_f32_1d_linear_wrap {P * 16} zero
launch tex_probe_1d grid 1 1 1 block {P} 1 1 shared 0
arg texture t_f32_1d_linear_wrap
arg ptr tex_ncoords
arg ptr o_f32_1d_linear_wrap
expect o_f32_1d_linear_wrap tex_f32_1d_linear_wrap.out.bin exact
""")
launch("tex_hw.launch", "".join(out))

