#!/usr/bin/env python3
"""Writes async_tmap_replace.ptx and async_tmap_replace.launch.

Each kernel copies tensor map 0 (A, u32, dims 32 x 16, row pitch 128 bytes,
box 8 x 4) into shared memory, changes fields with tensormap.replace, copies
the map to its own global slot with tensormap.cp_fenceproxy (the .global and
generic-address cases edit the map where it lies), fences the tensormap
proxy and loads a box with cp.async.bulk.tensor and an mbarrier.  The box
(1024 bytes of shared memory, zeroed first) is written to the case's out
buffer.

The expected boxes follow the PTX ISA, not ptxemu's code:
  - tensormap.replace (new_val table): .rank holds the rank minus 1;
    .elemtype 7 .f32, 9 .f64, 10 .bf16 (its own numbering, not
    CUtensorMapDataType's); .swizzle_mode 3 128B; .swizzle_atomicity 0 16B;
    .interleave_layout 0 none; .fill_mode 1 OOB-NaN fill; ord is the
    dimension (for .global_stride the stride of dimension ord + 1, dimension
    0's stride being the element size, as in cuTensorMapEncodeTiled);
  - the tiled mode (bounding box, traversal stride: ceil(box / stride)
    elements of a dimension are loaded, the stride of dimension 0 ignored
    without interleave; out-of-bound elements zero, or NaN with the NaN
    fill for floating-point types);
  - the 128B swizzle (16-byte atomicity): in the n-th 128-byte row of the
    box in shared memory, the 16-byte chunk c holds chunk c ^ (n % 8).
A[y][x] = 32 * y + x (u32), B[y][x] = 1000 + 32 * y + x.

The manual does not give the NaN's bits: 0x7ff77ff7 is what an H100 fills an
.f32 map with (0x7ff7 in every 16-bit half, also for .f16 and .f64 maps).
These boxes were checked on an H100 (driver 580, CUDA 13.0; the launch
file played with a copy of tests/triton/hw_record.cu that writes "into"
maps and compares "expect ... value" lines, one case per run): all ten
match, the NaN-fill case once its NaN bits were taken from that run (the
other boxes were written before it, from the manual).  An H100 stops with an illegal instruction on a map whose rank is
replaced by 1 and loaded with a .1d copy, and on an .f16/.bf16 NaN-fill
load at x = 28 (a box start that is not 16-byte aligned), so neither is a
case here.  .swizzle_atomicity needs PTX ISA 8.6 and sm_100a (ptxas refuses
it for sm_90a), so it has no case here."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 32, 16
NAN32 = 0x7ff77ff7


def A(y, x):
    return 32 * y + x


def abytes(base, y, off, n):
    """n bytes of row y of a u32 ramp from byte off, as u32 words."""
    assert off % 4 == 0 and n % 4 == 0
    return [base + A(y, off // 4 + k) for k in range(n // 4)]


def tile(rows, cols, elem, y0=0, x0=0, ystep=1, dims=(W, H), pitch=128, fill=0, base=0):
    """A box of u32-sized (elem 4) elements: rows x cols, in bounds of dims."""
    out = []
    for r in range(rows):
        y = y0 + r * ystep
        for c in range(cols):
            x = x0 + c
            if x < dims[0] and y < dims[1]:
                out.append(base + (y * pitch) // 4 + x)
            else:
                out.append(fill)
    return out


cases = []

# 1. .global_address (shared::cta, register): B's values
cases.append(dict(name="tr_global_address", space="shared",
                  rep=["@%p1 tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%r2], %rd2;"],
                  rank=2, coords="%r0, %r0", nbytes=128,
                  expect=tile(4, 8, 4, base=1000),
                  why="the new global address: B's values"))
# 2. .rank 2 -> a rank-3 map (A as 32 x 4 x 2: dims 1 and 2 and the stride of
#    dimension 2 written too); a .3d load of an 8 x 4 x 2 box: rows 0..7
cases.append(dict(name="tr_rank", space="shared",
                  rep=["@%p1 tensormap.replace.tile.rank.shared::cta.b1024.b32 [%r2], 2;",
                       "@%p1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%r2], 1, 4;",
                       "@%p1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%r2], 2, 2;",
                       "@%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r2], 2, 2;",
                       "@%p1 tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%r2], 1, 512;",
                       "@%p1 tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%r2], 2, 1;"],
                  rank=3, coords="%r0, %r0, %r0", nbytes=256,
                  expect=[A(4 * z + y, x) for z in range(2) for y in range(4) for x in range(8)],
                  why="new_val 2 is rank 3 (zero-based): a .3d copy of an 8 x 4 x 2 box of A as 32 x 4 x 2"))
# 3. .box_dim: 4 x 2 box at {4, 2}
cases.append(dict(name="tr_box_dim", space="shared",
                  rep=["mov.u32 %r14, 4;",
                       "@%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r2], 0, %r14;",
                       "@%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r2], 1, 2;"],
                  rank=2, coords="%r14, %r15", c15=2, nbytes=32,
                  expect=[A(2, 4 + k) for k in range(4)] + [A(3, 4 + k) for k in range(4)],
                  why="box 4 x 2 at {4, 2}: 8 elements"))
# 4. .global_dim in .global memory: dims 6 x 2, the rest of the 8 x 4 box zero
cases.append(dict(name="tr_global_dim", space="global",
                  rep=["@%p1 tensormap.replace.tile.global_dim.global.b1024.b32 [%rd6], 0, 6;",
                       "@%p1 tensormap.replace.tile.global_dim.global.b1024.b32 [%rd6], 1, 2;"],
                  rank=2, coords="%r0, %r0", nbytes=128,
                  expect=tile(4, 8, 4, dims=(6, 2)),
                  why="tensor 6 x 2 (replaced in global memory): x >= 6 or y >= 2 zero filled"))
# 5. .global_stride ord 0 (dimension 1) = 256: every other row of A
cases.append(dict(name="tr_global_stride", space="shared",
                  rep=["@%p1 tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%r2], 0, 256;"],
                  rank=2, coords="%r0, %r0", nbytes=128,
                  expect=tile(4, 8, 4, pitch=256),
                  why="a 256-byte stride in dimension 1: rows 0, 2, 4, 6 of A"))
# 6. .element_stride ord 1 = 2: ceil(4 / 2) = 2 rows, y = 0 and 2
cases.append(dict(name="tr_element_stride", space="shared",
                  rep=["@%p1 tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%r2], 1, 2;"],
                  rank=2, coords="%r0, %r0", nbytes=64,
                  expect=tile(2, 8, 4, ystep=2),
                  why="traversal stride 2 in dimension 1: rows 0 and 2"))
# 7. .elemtype 9 (.f64, 8 bytes) with a 16-element row: 64 bytes of each row
cases.append(dict(name="tr_elemtype_f64", space="shared",
                  rep=["@%p1 tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%r2], 9;",
                       "@%p1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%r2], 0, 16;"],
                  rank=2, coords="%r0, %r0", nbytes=256,
                  expect=sum((abytes(0, y, 0, 64) for y in range(4)), []),
                  why=".elemtype 9 is .f64: 8 elements of 8 bytes a row"))
# 8. .elemtype 10 (.bf16, 2 bytes): 16 bytes of each row
cases.append(dict(name="tr_elemtype_bf16", space="shared",
                  rep=["@%p1 tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%r2], 10;"],
                  rank=2, coords="%r0, %r0", nbytes=64,
                  expect=sum((abytes(0, y, 0, 16) for y in range(4)), []),
                  why=".elemtype 10 is .bf16: 8 elements of 2 bytes a row"))
# 9. 128B swizzle (16B atomicity, the only one before sm_100a), no interleave: box 32 x 4
sw = []
for n in range(4):
    row = [A(n, k) for k in range(32)]
    for c in range(8):
        sw += row[4 * (c ^ (n % 8)):4 * (c ^ (n % 8)) + 4]
cases.append(dict(name="tr_swizzle", space="shared",
                  rep=["@%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r2], 0, 32;",
                       "@%p1 tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%r2], 3;",
                       "@%p1 tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%r2], 0;"],
                  rank=2, coords="%r0, %r0", nbytes=512,
                  expect=sw,
                  why="box 32 x 4 with the 128B swizzle: chunk c of row n holds chunk c ^ n"))
# 10. .elemtype 7 (.f32) and .fill_mode 1 through a generic address: NaN out of bounds
cases.append(dict(name="tr_fill_mode", space="generic",
                  rep=["@%p1 tensormap.replace.tile.elemtype.b1024.b32 [%rd11], 7;",
                       "@%p1 tensormap.replace.tile.fill_mode.b1024.b32 [%rd11], 1;"],
                  rank=2, coords="%r14, %r15", c14=28, c15=14, nbytes=128,
                  expect=tile(4, 8, 4, y0=14, x0=28, fill=NAN32),
                  why="OOB-NaN fill of an .f32 map (generic address): the box at {28, 14} is NaN past x = 31 and y = 15"))

ptx = ["// tensormap.replace of every field (async_tmap_replace.launch; written by",
       "// gen_tmap_replace.py): map 0 copied to shared memory (or to its global slot),",
       "// fields replaced, cp_fenceproxy to the case's slot, fence, a TMA load with an",
       "// mbarrier, the 1024-byte box written to out.",
       ".version 8.3", ".target sm_90a", ".address_size 64", "",
       ".shared .align 128 .b8 smap[128];",
       ".shared .align 1024 .b8 sbox[1024];",
       ".shared .align 8 .b64 sbar;", ""]
for i, c in enumerate(cases):
    slot = 128 * (i + 1)
    L = ptx.append
    L(f"// {c['why']}")
    L(f".visible .entry {c['name']}(.param .u64 maps, .param .u64 other, .param .u64 out)")
    L("{")
    L("\t.reg .pred %p<4>;")
    L("\t.reg .b32 %r<20>;")
    L("\t.reg .b64 %rd<16>;")
    L("\tld.param.u64 %rd1, [maps];")
    L("\tld.param.u64 %rd2, [other];")
    L("\tld.param.u64 %rd3, [out];")
    L("\tmov.u32 %r1, %tid.x;")
    L("\tmov.u32 %r2, smap;")
    L("\tmov.u32 %r3, sbox;")
    L("\tmov.u32 %r4, sbar;")
    L("\tmov.u32 %r0, 0;")
    L(f"\tmov.u32 %r14, {c.get('c14', 0)};")
    L(f"\tmov.u32 %r15, {c.get('c15', 0)};")
    L("\tsetp.eq.u32 %p1, %r1, 0;")
    L("\t// zero the box: 32 bytes a lane")
    L("\tshl.b32 %r5, %r1, 5;")
    L("\tadd.u32 %r6, %r3, %r5;")
    L("\tst.shared.v4.u32 [%r6], {%r0, %r0, %r0, %r0};")
    L("\tst.shared.v4.u32 [%r6+16], {%r0, %r0, %r0, %r0};")
    L("\tfence.proxy.async.shared::cta;")
    L("\t// map 0, a word a lane")
    L("\tmul.wide.u32 %rd4, %r1, 4;")
    L("\tadd.u64 %rd5, %rd1, %rd4;")
    L("\tld.global.u32 %r8, [%rd5];")
    L(f"\tadd.u64 %rd6, %rd1, {slot};")
    if c["space"] == "global":
        L("\tadd.u64 %rd9, %rd6, %rd4;")
        L("\tst.global.u32 [%rd9], %r8;")
        L("\tbar.warp.sync -1;")
        for r in c["rep"]:
            L("\t" + r)
        L("\tbar.warp.sync -1;")
        L("\tfence.proxy.tensormap::generic.release.gpu;")
    else:
        L("\tshl.b32 %r9, %r1, 2;")
        L("\tadd.u32 %r10, %r2, %r9;")
        L("\tst.shared.u32 [%r10], %r8;")
        L("\tbar.warp.sync -1;")
        if c["space"] == "generic":
            L("\tmov.u64 %rd10, smap;")
            L("\tcvta.shared.u64 %rd11, %rd10;")
        for r in c["rep"]:
            L("\t" + r)
        L("\tbar.warp.sync -1;")
        L("\ttensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd6], [%r2], 128;")
    L("\tfence.proxy.tensormap::generic.acquire.gpu [%rd6], 128;")
    L("\t@%p1 mbarrier.init.shared::cta.b64 [%r4], 1;")
    L("\tbar.warp.sync -1;")
    L(f"\t@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r4], {c['nbytes']};")
    L(f"\t@%p1 cp.async.bulk.tensor.{c['rank']}d.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd6, {{{c['coords']}}}], [%r4];")
    L("WAIT:")
    L("\tmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r4], 0;")
    L("\t@!%p2 bra WAIT;")
    L("\tmul.wide.u32 %rd7, %r1, 32;")
    L("\tadd.u64 %rd8, %rd3, %rd7;")
    L("\tld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r6];")
    L("\tst.global.v4.u32 [%rd8], {%r10, %r11, %r12, %r13};")
    L("\tld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r6+16];")
    L("\tst.global.v4.u32 [%rd8+16], {%r10, %r11, %r12, %r13};")
    L("\tret;")
    L("}")
    L("")

lf = ["# tensormap.replace of every field (async_tmap_replace.ptx; written by",
      "# gen_tmap_replace.py, which derives the boxes from the PTX ISA).  Map 0 is",
      "# A (u32, 32 x 16, pitch 128, box 8 x 4); each kernel edits a copy of it and",
      "# loads a box through the copy (slot 1 + its number in maps); out_K is the",
      "# 1024-byte box in shared memory, zero where the copy wrote nothing.",
      "ptx async_tmap_replace.ptx",
      f"buffer maps {128 * (len(cases) + 1)} zero",
      "buffer A 2048 ramp u32 0 1",
      "buffer B 2048 ramp u32 1000 1",
      "tensormap m0 u32 2 A dims 32 16 strides 128 box 8 4 into maps+0"]
for i, c in enumerate(cases):
    e = c["expect"] + [0] * (256 - len(c["expect"]))
    lf += ["", f"# {c['name']}: {c['why']}",
           f"buffer out{i} 1024 zero",
           f"launch {c['name']} grid 1 1 1 block 32 1 1 shared 0",
           "arg ptr maps", "arg ptr B", f"arg ptr out{i}",
           f"expect out{i} value u32 " + " ".join(hex(v) for v in e)]

with open(os.path.join(HERE, "async_tmap_replace.ptx"), "w") as f:
    f.write("\n".join(ptx).rstrip("\n") + "\n")
with open(os.path.join(HERE, "async_tmap_replace.launch"), "w") as f:
    f.write("\n".join(lf) + "\n")
