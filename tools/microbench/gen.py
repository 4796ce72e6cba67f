#!/usr/bin/env python3
"""tools/microbench/gen.py DEST - writes the timing microbenchmark suite as
golden-tools case sources: DEST/<case>/kernel.cu, DEST/<case>/gen.py (which
writes case.txt), DEST/<case>/arch where needed.  Build them with
../shared/golden-tools/build.sh, measure them with its device.sh.

Each case sweeps one mechanism's parameters (doc/timing-validation.md):
  mb_pipe     ILP 1..8 x {1 warp, 8 warps per SM} for FP32/FP64/INT/HFMA2/SFU/shift
  mb_cvt      the same for conversions: int to float (u32, s32), float to int,
              f32 to f16 and back, f32 to f64 and back
  mb_alu      integer ALU chains (SHF then LOP3, I2FP then LOP3): one chain on
              one warp, 8 chains on 8 and on 32 warps
  mb_smem     shared-memory strides (conflict degree 1..32) and a dependent
              load chain with 1..32 warps per SM
  mb_atomic   global and shared atomics by distinct addresses per warp (one
              line, or one line each), int/float/half2, red and atom
  mb_atomic2  mb_atomic's kernels at 1..32 distinct addresses a word, a sector
              or a line apart, 1 or 8 warps an SM, 4 or 132 SMs
  mb_atomic3  reductions by load: one warp, one an SM, eight on 1 or 4 SMs,
              every SM on the same words; dependent atoms alone
  mb_mma      mma.sync shapes and types with 1, 2, 4 independent accumulators
  mb_div      a divergent switch over 1..32 paths
  mb_stack    recursion depth and dynamically indexed local arrays
  mb_cluster  cluster sizes 1..8: barrier.cluster and distributed shared memory
  mb_mem      pointer chases over 16 KiB .. 128 MiB footprints, streaming reads
  mb_store    4-byte stores writing 1, 2 or 4 sectors of each line a request,
              completing each sector (8 stores) or leaving it partial (1)
  mb_launch   a launch's cold start: 1..264 blocks reading their parameters
              and running 64..1024 straight-line instructions
  mb_l1       L1 hits and misses by request shape: 1..32 lines and 1..4
              sectors a line
  mb_l1reuse  L1-hit requests of 32 lines with every lane on one data bank
              (the same lines or others each request) or two lanes a bank
  mb_fuse     scalar shared-memory loads and stores ptxas can merge (16- or
              8-byte aligned) or not (4-byte aligned), broadcast or per lane
  mb_l1w      L1-hit requests of 1 or 2 lines returning 4..128 distinct bytes
  mb_flag     lane 0 of every warp storing to one word, the words of a sector,
              the sectors of a line or to lines, back to back or paced:
              where stores of one sector merge (Nsight's write sectors)
  mb_wb       what the L2 writes back during a launch: stores written once
              or 16 times, followed by a wait or not, scattered stores, and
              launches without stores after them
  mb_mio      the MIO queue: K = 1..16 independent shared loads a step with
              4..32 warps a block, at conflict degrees 1, 2 and 8; 128-bit loads
  mb_ldc      constant loads into vector registers (LDC): 1 to 8 pointer
              parameters read by many short warps, and a warp-uniform indexed
              __constant__ array with 1 to 32 warps an SM
  mb_sreg     special registers read in a loop (S2R): one register a step
              with a dependent multiply-add, 1 to 8 different ones a step,
              1 to 32 warps on one SM
  mb_mix      integer chains across the ALU and FMA pipes (LOP3, SHF, IMAD,
              I2FP, FFMA: the init kernels' hash) in registers and storing,
              and LOP3 and IMAD alternating, 1 to 8 warps a sub-partition
  mb_drain    warps that store once or three times and exit: a store's lanes
              on one whole line, on 4 whole lines, on a whole sector of each of
              16 lines, or on 4- or 16-byte pieces of the sectors of 8 or 32
              lines (where exiting warps wait for their stores: drain)
  mb_loop     loops of run-time trip count 1..32 entered 64 times by one
              warp, stepping by 1, by 96 or by a run-time step: what
              ptxas's unrolling costs each entry (prologue, remainder)
  mb_bulk     bulk copies (the TMA, cp.async.bulk): 1..32 KiB into shared
              memory on an mbarrier, one block or two an SM, 1 or 4 copies in
              flight; to global memory in bulk groups (wait_group.read and
              wait_group), and bulk reductions into one region
  mb_vary     the kinds of golden timing_barriers, timing_divergence and
              timing_occupancy_sweep at other parameters: barrier rounds at 1..32
              warps a block and 1..4 blocks an SM, barriers alone, a switch
              each trip with 1..8 live cases on 1..32 warps, dependent L2
              loads at 2..32 warps an SM
  mb_vary2    golden timing_bandwidth's streaming reads from 4 to 264 blocks,
              timing_atomic_contention's lanes on 2..16 words, on one word
              from 33 SMs, and on 32 words from 2 warps an SM
Everything is generated: change the sweeps here, never the output."""
import os
import sys

DEST = sys.argv[1] if len(sys.argv) > 1 else 'src'

CASE_GEN = '''#!/usr/bin/env python3
# generated by tools/microbench/gen.py: writes case.txt into argv[1]
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write(%r)
'''


# Sources several cases share (each case's kernel.cu joins its pieces with newlines).
HASHU = '__device__ __forceinline__ unsigned hashu(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return i; }'
HASH_INIT = HASHU + '\n' + '''extern "C" __global__ void init(unsigned *a, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = hashu(i);
}'''


def stream_read_src(name):
    """A grid-stride read of float4s, summed per thread (the 128-bit loads a streaming kernel makes)."""
    return '''extern "C" __global__ void %s(const float4 *in, float *out, unsigned n)
{
    float s = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float4 v = in[i]; s += v.x + v.y + v.z + v.w;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}''' % name


class Case:
    def __init__(self, name, doc):
        self.name, self.src, self.txt = name, [], ['# %s (tools/microbench/gen.py): %s' % (name, doc), 'ptx kernel.ptx']
        self.arch = None

    def buf(self, name, nbytes):
        self.txt.append('buffer %s %d zero' % (name, nbytes))

    def launch(self, kernel, grid, block, args, cluster=None, shared=0):
        g = grid if isinstance(grid, tuple) else (grid, 1, 1)
        line = 'launch %s grid %d %d %d block %d 1 1 shared %d' % (kernel, g[0], g[1], g[2], block, shared)
        if cluster:
            line += ' cluster %d 1 1' % cluster
        self.txt.append(line)
        for ty, v in args:
            self.txt.append('arg %s %s' % (ty, v))

    def write(self):
        d = os.path.join(DEST, self.name)
        os.makedirs(d, exist_ok=True)
        open(os.path.join(d, 'kernel.cu'), 'w').write('\n'.join(self.src) + '\n')
        open(os.path.join(d, 'gen.py'), 'w').write(CASE_GEN % ('\n'.join(self.txt) + '\n'))
        if self.arch:
            open(os.path.join(d, 'arch'), 'w').write(self.arch + '\n')


def f32(x):
    import struct
    return '0x%08x' % struct.unpack('<I', struct.pack('<f', x))[0]


def chain_kernel(c, name, ty, setup, inits, steps, fold='+='):
    """A kernel of len(inits) independent dependent chains: the setup lines,
    chain j's start inits[j], iters trips of the steps (issued round robin),
    then the chains folded into one value and stored."""
    c.src.append('extern "C" __global__ void %s(%s *out, int iters, unsigned seed)\n{' % (name, ty))
    c.src.extend('    ' + line for line in setup)
    for j, init in enumerate(inits):
        c.src.append('    %s x%d = %s;' % (ty, j, init))
    c.src.append('    for (int i = 0; i < iters; i++) {')
    c.src.extend('        ' + step for step in steps)
    c.src.append('    }')
    c.src.append('    %s s = x0;' % ty)
    for j in range(1, len(inits)):
        c.src.append('    s %s x%d;' % (fold, j))
    c.src.append('    out[blockIdx.x * blockDim.x + threadIdx.x] = s;\n}')


def ilp_launches(c, prefix, names, iters_warp, iters_sm):
    """Each chain kernel PREFIX_NAME_ilpN of names on one warp (iters_warp
    steps in all) and on 8 warps of one SM (iters_sm): the steps split over
    the N chains."""
    for p in names:
        for ilp in (1, 2, 4, 8):
            k = '%s_%s_ilp%d' % (prefix, p, ilp)
            c.launch(k, 1, 32, [('ptr', 'out'), ('s32', iters_warp // ilp), ('u32', 0)])
            c.launch(k, 1, 256, [('ptr', 'out'), ('s32', iters_sm // ilp), ('u32', 0)])


# ---------------------------------------------------------------- pipes
PIPES = {  # name: (C type, asm constraint, asm text, init, operand setup)
    'f32': ('float', 'f', 'fma.rn.f32 %0, %0, %1, %2;', '(float)threadIdx.x', 'float a = 1.0001f, b = 0.5f;'),
    'f64': ('double', 'd', 'fma.rn.f64 %0, %0, %1, %2;', '(double)threadIdx.x', 'double a = 1.0001, b = 0.5;'),
    'i32': ('unsigned', 'r', 'mad.lo.u32 %0, %0, %1, %2;', 'threadIdx.x', 'unsigned a = 3u + seed, b = 7u;'),
    'f16x2': ('unsigned', 'r', 'fma.rn.f16x2 %0, %0, %1, %2;', 'threadIdx.x * 0x00010001u',
              'unsigned a = 0x3c003c00u + seed, b = 0x38003800u;'),
    'sfu': ('float', 'f', 'ex2.approx.f32 %0, %0;', '(float)threadIdx.x * 1e-3f', ''),
    'shf': ('unsigned', 'r', 'shf.l.wrap.b32 %0, %0, %0, %1;', 'threadIdx.x', 'unsigned a = 3u + seed, b = 0;'),
}


def pipe_case():
    c = Case('mb_pipe', 'dependent chains of one pipe, ILP 1..8, one warp and 8 warps on one SM')
    c.src.append('// ILP independent dependent chains of one operation, issued round robin')
    for p, (ty, cons, text, init, setup) in PIPES.items():
        for ilp in (1, 2, 4, 8):
            inputs = ' : "%s"(a), "%s"(b)' % (cons, cons) if '%2' in text else ' : "r"(a)' if '%1' in text else ''
            chain_kernel(c, 'pipe_%s_ilp%d' % (p, ilp), ty, [setup or 'unsigned a = seed; (void)a;'],
                         ['%s + (%s)%d' % (init, ty, j) for j in range(ilp)],
                         ['asm volatile("%s" : "+%s"(x%d)%s);' % (text, cons, j, inputs) for j in range(ilp)])
    c.buf('out', 132 * 256 * 8)
    ilp_launches(c, 'pipe', PIPES, 4096, 2048)
    return c


# ---------------------------------------------------------------- conversions
CVTS = {  # name: (C type, asm constraint, one step of the chain: a conversion there and, for the float ones, back)
    'i2f_u32': ('unsigned', 'r', '{ .reg .f32 t; cvt.rn.f32.u32 t, %0; mov.b32 %0, t; }'),
    'i2f_s32': ('unsigned', 'r', '{ .reg .f32 t; cvt.rn.f32.s32 t, %0; mov.b32 %0, t; }'),
    'f2i_u32': ('float', 'f', '{ .reg .u32 t; cvt.rzi.u32.f32 t, %0; mov.b32 %0, t; }'),
    'f16_rt': ('float', 'f', '{ .reg .b16 h; cvt.rn.f16.f32 h, %0; cvt.f32.f16 %0, h; }'),
    'f64_rt': ('float', 'f', '{ .reg .f64 d; cvt.f64.f32 d, %0; cvt.rn.f32.f64 %0, d; }'),
}


def cvt_case():
    c = Case('mb_cvt', 'dependent chains of conversions, ILP 1..8, one warp and 8 warps on one SM')
    c.src.append('// ILP independent dependent chains of one conversion (a bit copy between the\n'
                 '// steps where the type changes: no SASS), issued round robin')
    for p, (ty, cons, text) in CVTS.items():
        for ilp in (1, 2, 4, 8):
            chain_kernel(c, 'cvt_%s_ilp%d' % (p, ilp), ty, [], ['(%s)(threadIdx.x + seed + %d)' % (ty, j) for j in range(ilp)],
                         ['asm volatile("%s" : "+%s"(x%d));' % (text, cons, j) for j in range(ilp)])
    c.buf('out', 256 * 8)
    ilp_launches(c, 'cvt', CVTS, 2048, 1024)
    return c


# ---------------------------------------------------------------- integer ALU
ALUS = {  # name: one step of a chain on x (unsigned), a loop-invariant; steps ptxas cannot merge
    # (xor with one value twice cancels, shifts add up: chains of one of them fold)
    'shf_lop3': '{ .reg .u32 t; shr.u32 t, %0, 7; xor.b32 %0, %0, t; }',
    'i2fp_lop3': '{ .reg .f32 f; cvt.rn.f32.u32 f, %0; mov.b32 %0, f; xor.b32 %0, %0, %1; }',
}


def alu_case():
    c = Case('mb_alu', 'integer ALU instructions: SHF then LOP3, I2FP then LOP3; one chain, 8 chains on 8 and 32 warps')
    c.src.append('// ILP independent dependent chains of integer instructions, issued round robin')
    for p, text in ALUS.items():
        for ilp in (1, 8):
            chain_kernel(c, 'alu_%s_ilp%d' % (p, ilp), 'unsigned', ['unsigned a = 0x9e3779b9u + seed;'],
                         ['threadIdx.x * 2654435761u + seed + %du' % j for j in range(ilp)],
                         ['asm volatile("%s" : "+r"(x%d) : "r"(a));' % (text, j) for j in range(ilp)], fold='^=')
    c.buf('out', 1024 * 4)
    for p in ALUS:
        c.launch('alu_%s_ilp1' % p, 1, 32, [('ptr', 'out'), ('s32', 2048), ('u32', 0)])
        c.launch('alu_%s_ilp8' % p, 1, 256, [('ptr', 'out'), ('s32', 256), ('u32', 0)])
        c.launch('alu_%s_ilp8' % p, 1, 1024, [('ptr', 'out'), ('s32', 64), ('u32', 0)])
    return c


# ---------------------------------------------------------------- shared memory
def smem_case():
    c = Case('mb_smem', 'shared-memory strides (conflict degrees) and dependent chains with 1..32 warps')
    c.src.append('''// four independent loads a step at lane * stride: conflict degree gcd-driven
extern "C" __global__ void smem_stride(float *out, int iters, int stride)
{
    __shared__ float s[8192];
    for (int i = threadIdx.x; i < 8192; i += blockDim.x) s[i] = (float)i;
    __syncthreads();
    unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    unsigned j = (lane * stride + w) & 2047;
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int i = 0; i < iters; i++) {
        a0 += s[j]; a1 += s[j + 2048]; a2 += s[j + 4096]; a3 += s[j + 6144];
        j = (j + 1) & 2047;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3;
}
// one dependent chain of shared loads per warp, no conflicts
extern "C" __global__ void smem_chase(unsigned *out, int iters)
{
    __shared__ unsigned s[4096];
    for (unsigned i = threadIdx.x; i < 4096; i += blockDim.x) s[i] = (i + 32 * 37) & 4095;
    __syncthreads();
    unsigned j = threadIdx.x & 31;
    for (int i = 0; i < iters; i++) j = s[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = j;
}''')
    c.buf('out', 132 * 1024 * 4)
    for st in (1, 2, 4, 8, 16, 32, 33):
        c.launch('smem_stride', 1, 256, [('ptr', 'out'), ('s32', 1024), ('s32', st)])
    for w in (1, 4, 16, 32):
        c.launch('smem_chase', 1, 32 * w, [('ptr', 'out'), ('s32', 2048)])
    return c


# ---------------------------------------------------------------- atomics
def atomic_case():
    c = Case('mb_atomic', 'atomics by distinct addresses per warp: global (int, float, half2; red and atom) and shared')
    c.src.append('''#include <cuda_fp16.h>
// each warp owns 1024 words; lane l updates word (l % d) * stride of them
extern "C" __global__ void red_u32(unsigned *buf, int iters, int d, int stride)
{
    unsigned lane = threadIdx.x & 31, gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    unsigned *p = buf + gw * 1024 + (lane % d) * stride;
    for (int i = 0; i < iters; i++) atomicAdd(p, 1u);
}
extern "C" __global__ void atom_u32(unsigned *buf, unsigned *out, int iters, int d, int stride)
{
    unsigned lane = threadIdx.x & 31, gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    unsigned *p = buf + gw * 1024 + (lane % d) * stride;
    unsigned v = 1;
    for (int i = 0; i < iters; i++) v = atomicAdd(p, v) & 7u | 1u;
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
extern "C" __global__ void red_f32(float *buf, int iters, int d, int stride)
{
    unsigned lane = threadIdx.x & 31, gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    float *p = buf + gw * 1024 + (lane % d) * stride;
    for (int i = 0; i < iters; i++) atomicAdd(p, 1.0f);
}
extern "C" __global__ void red_h2(__half2 *buf, int iters, int d, int stride)
{
    unsigned lane = threadIdx.x & 31, gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    __half2 *p = buf + gw * 1024 + (lane % d) * stride;
    __half2 one = __floats2half2_rn(1.0f, 1.0f);
    for (int i = 0; i < iters; i++) atomicAdd(p, one);
}
// shared: lane l updates word (l % d) * stride of its warp's 256 words
extern "C" __global__ void shared_atom(unsigned *out, int iters, int d, int stride)
{
    __shared__ unsigned s[8 * 1024];
    for (unsigned i = threadIdx.x; i < 8 * 1024; i += blockDim.x) s[i] = 0;
    __syncthreads();
    unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    unsigned *p = s + w * 1024 + (lane % d) * stride;
    for (int i = 0; i < iters; i++) atomicAdd(p, 1u);
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}''')
    c.buf('buf', 132 * 8 * 4096)
    c.buf('out', 132 * 256 * 4)
    for d, st in ((1, 1), (2, 1), (8, 1), (32, 1), (4, 32), (32, 32)):
        c.launch('red_u32', 132, 256, [('ptr', 'buf'), ('s32', 32), ('s32', d), ('s32', st)])
    for d, st in ((1, 1), (32, 1), (32, 32)):
        c.launch('atom_u32', 132, 256, [('ptr', 'buf'), ('ptr', 'out'), ('s32', 32), ('s32', d), ('s32', st)])
    for d, st in ((1, 1), (32, 1), (32, 32)):
        c.launch('red_f32', 132, 256, [('ptr', 'buf'), ('s32', 32), ('s32', d), ('s32', st)])
    for d, st in ((1, 1), (32, 1)):
        c.launch('red_h2', 132, 256, [('ptr', 'buf'), ('s32', 32), ('s32', d), ('s32', st)])
    for d, st in ((1, 1), (4, 1), (32, 1), (32, 32)):
        c.launch('shared_atom', 1, 256, [('ptr', 'out'), ('s32', 256), ('s32', d), ('s32', st)])
    return c


def atomic_sweep_case():
    """mb_atomic's kernels over every distinct-address count (1..32 a warp) at
    three spacings (a word, a sector, a line apart), a warp or eight an SM,
    and 4 SMs against 132: which of the SM and the L2 slice binds."""
    c = Case('mb_atomic2', 'atomics swept: 1..32 distinct addresses a warp, a word, sector or line apart, 1 or 8 warps an SM, 4 or 132 SMs')
    c.src = atomic_case().src
    c.buf('buf', 132 * 8 * 4096)
    c.buf('out', 132 * 256 * 4)
    for st in (1, 8, 32):
        for d in (1, 2, 4, 8, 16, 32):
            c.launch('red_u32', 132, 256, [('ptr', 'buf'), ('s32', 32), ('s32', d), ('s32', st)])
    for d in (1, 8, 32):
        c.launch('red_u32', 132, 32, [('ptr', 'buf'), ('s32', 32), ('s32', d), ('s32', 1)])
    for d in (1, 32):
        c.launch('red_u32', 4, 256, [('ptr', 'buf'), ('s32', 32), ('s32', d), ('s32', 1)])
    for d, st in ((1, 1), (2, 1), (4, 1), (8, 1), (16, 1), (32, 1), (8, 8)):
        c.launch('atom_u32', 132, 256, [('ptr', 'buf'), ('ptr', 'out'), ('s32', 32), ('s32', d), ('s32', st)])
    for d in (1, 2, 4, 8, 16, 32):
        c.launch('red_f32', 132, 256, [('ptr', 'buf'), ('s32', 32), ('s32', d), ('s32', 1)])
    for d, st in ((2, 1), (8, 1), (32, 32)):
        c.launch('red_h2', 132, 256, [('ptr', 'buf'), ('s32', 32), ('s32', d), ('s32', st)])
    return c


def atomic_load_case():
    """mb_atomic's reductions by load: one warp alone, one warp an SM, eight
    warps on one SM and on four, every warp's updates to G groups of
    addresses (one group: all 132 SMs update the same words), and
    dependent atoms alone: the latency of one request, what an SM sends,
    what a slice performs."""
    c = Case('mb_atomic3', 'reductions by load: 1 warp, 1 warp an SM, 8 warps on 1 and 4 SMs, all SMs on the same words; atoms alone')
    c.src = atomic_case().src + ['''
// every warp updates the words of group gw % groups
extern "C" __global__ void red_grp(unsigned *buf, int iters, int d, int stride, int groups)
{
    unsigned lane = threadIdx.x & 31, gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    unsigned *p = buf + (gw % groups) * 1024 + (lane % d) * stride;
    for (int i = 0; i < iters; i++) atomicAdd(p, 1u);
}''']
    c.buf('buf', 132 * 8 * 4096)
    c.buf('out', 132 * 256 * 4)
    red = lambda g, b, d, st, it=32: c.launch('red_u32', g, b, [('ptr', 'buf'), ('s32', it), ('s32', d), ('s32', st)])
    for d in (1, 2, 4, 8, 16, 32):
        red(1, 32, d, 1)
    for d in (1, 8, 32):
        red(1, 32, d, 1, 128)
    for d in (1, 2, 4, 8, 16, 32):
        red(132, 32, d, 1)
    for d in (1, 2, 4, 8, 16, 32):
        red(4, 256, d, 1)
    for d, st in ((4, 8), (32, 8), (4, 32), (32, 32)):
        red(4, 256, d, st)
    for d, st in ((4, 8), (32, 8), (32, 32)):
        red(132, 32, d, st)
    for d in (1, 2, 8, 32):
        red(1, 256, d, 1)
    for g, d in ((1, 1), (8, 1), (64, 1), (1, 2), (1, 8), (1, 32)):
        c.launch('red_grp', 132, 256, [('ptr', 'buf'), ('s32', 32), ('s32', d), ('s32', 1), ('s32', g)])
    for g, b, d in ((1, 32, 1), (1, 32, 2), (1, 32, 8), (1, 32, 32), (4, 256, 1), (4, 256, 32)):
        c.launch('atom_u32', g, b, [('ptr', 'buf'), ('ptr', 'out'), ('s32', 32), ('s32', d), ('s32', 1)])
    return c


# ---------------------------------------------------------------- tensor cores
MMAS = {  # name: (ptx shape/types, #a, #b, #c, c type)
    'f16f32_k16': ('m16n8k16.row.col.f32.f16.f16.f32', 4, 2, 4, 'f'),
    'bf16f32_k16': ('m16n8k16.row.col.f32.bf16.bf16.f32', 4, 2, 4, 'f'),
    'f16f16_k16': ('m16n8k16.row.col.f16.f16.f16.f16', 4, 2, 2, 'r'),
    'f16f32_k8': ('m16n8k8.row.col.f32.f16.f16.f32', 2, 1, 4, 'f'),
    'tf32_k8': ('m16n8k8.row.col.f32.tf32.tf32.f32', 4, 2, 4, 'f'),
    's8_k32': ('m16n8k32.row.col.s32.s8.s8.s32', 4, 2, 4, 'r'),
    'f64_k4': ('m8n8k4.row.col.f64.f64.f64.f64', 1, 1, 2, 'd'),
}


def mma_case():
    c = Case('mb_mma', 'mma.sync per shape and type, 1/2/4 independent accumulators, one warp, 4 and 8 warps on one SM')
    for m, (shape, na, nb, nc, ct) in MMAS.items():
        cty = {'f': 'float', 'r': 'unsigned', 'd': 'double'}[ct]
        abty, abc = ('double', 'd') if ct == 'd' else ('unsigned', 'r')
        for acc in (1, 2, 4):
            k = 'mma_%s_acc%d' % (m, acc)
            c.src.append('extern "C" __global__ void %s(%s *out, int iters)\n{' % (k, cty))
            c.src.append('    %s a[%d], b[%d];' % (abty, na, nb))
            c.src.append('    for (int i = 0; i < %d; i++) a[i] = (%s)(threadIdx.x + i);' % (na, abty))
            c.src.append('    for (int i = 0; i < %d; i++) b[i] = (%s)(threadIdx.x * 3 + i);' % (nb, abty))
            c.src.append('    %s c[%d][%d];' % (cty, acc, nc))
            c.src.append('    for (int j = 0; j < %d; j++) for (int i = 0; i < %d; i++) c[j][i] = (%s)0;' % (acc, nc, cty))
            c.src.append('    for (int it = 0; it < iters; it++) {')
            ops = ', '.join('%%%d' % i for i in range(nc))
            aops = ', '.join('%%%d' % (nc + i) for i in range(na))
            bops = ', '.join('%%%d' % (nc + na + i) for i in range(nb))
            text = 'mma.sync.aligned.%s {%s}, {%s}, {%s}, {%s};' % (shape, ops, aops, bops, ops)
            for j in range(acc):
                outs = ', '.join('"+%s"(c[%d][%d])' % (ct, j, i) for i in range(nc))
                ins = ', '.join(['"%s"(a[%d])' % (abc, i) for i in range(na)] + ['"%s"(b[%d])' % (abc, i) for i in range(nb)])
                c.src.append('        asm volatile("%s" : %s : %s);' % (text, outs, ins))
            c.src.append('    }')
            c.src.append('    %s s = (%s)0;' % (cty, cty))
            c.src.append('    for (int j = 0; j < %d; j++) for (int i = 0; i < %d; i++) s += c[j][i];' % (acc, nc))
            c.src.append('    out[blockIdx.x * blockDim.x + threadIdx.x] = s;\n}')
    c.buf('out', 132 * 256 * 8)
    for m in MMAS:
        for acc in (1, 2, 4):
            c.launch('mma_%s_acc%d' % (m, acc), 1, 32, [('ptr', 'out'), ('s32', 2048 // acc)])
        c.launch('mma_%s_acc4' % m, 1, 256, [('ptr', 'out'), ('s32', 512)])
        c.launch('mma_%s_acc1' % m, 1, 128, [('ptr', 'out'), ('s32', 1024)])
    return c


# ---------------------------------------------------------------- divergence
def div_case():
    c = Case('mb_div', 'a switch on lane % D: D paths run one after the other')
    for D in (1, 2, 4, 8, 16, 32):
        k = 'div_%d' % D
        c.src.append('extern "C" __global__ void %s(float *out, int iters)\n{' % k)
        c.src.append('    float x = (float)threadIdx.x; int p = threadIdx.x %% %d;' % D)
        c.src.append('    for (int i = 0; i < iters; i++) {\n        switch (p) {')
        for j in range(D):
            c.src.append('        case %d:' % j)
            for r in range(4):
                c.src.append('            asm volatile("fma.rn.f32 %%0, %%0, %%1, %%1;" : "+f"(x) : "f"(%d.5f));' % (j + r))
            c.src.append('            break;')
        c.src.append('        }\n    }')
        c.src.append('    out[blockIdx.x * blockDim.x + threadIdx.x] = x;\n}')
    c.buf('out', 132 * 256 * 4)
    for D in (1, 2, 4, 8, 16, 32):
        c.launch('div_%d' % D, 1, 32, [('ptr', 'out'), ('s32', 512)])
        c.launch('div_%d' % D, 1, 256, [('ptr', 'out'), ('s32', 128)])
    return c


# ---------------------------------------------------------------- local memory
def stack_case():
    c = Case('mb_stack', 'recursion depth (stack frames through L1) and dynamically indexed local arrays')
    c.src.append('''__device__ __noinline__ float rec(float x, int d)
{
    if (d <= 0) return x;
    float y = rec(x * 1.0001f + 1.0f, d - 1);
    return y * 0.999f + x;
}
extern "C" __global__ void recurse(float *out, int iters, int depth)
{
    float x = (float)threadIdx.x;
    for (int i = 0; i < iters; i++) x = rec(x, depth);
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}''')
    for n in (16, 64, 256):
        c.src.append('''extern "C" __global__ void local_%d(float *out, int iters)
{
    float a[%d];
    for (int i = 0; i < %d; i++) a[i] = (float)(threadIdx.x + i);
    unsigned j = threadIdx.x;
    for (int i = 0; i < iters; i++) { j = (j * 7 + 3) %% %d; a[j] += 1.0f; }
    float s = 0;
    for (int i = 0; i < %d; i++) s += a[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}''' % (n, n, n, n, n))
    c.buf('out', 132 * 256 * 4)
    for d in (1, 4, 16, 24):
        c.launch('recurse', 1, 32, [('ptr', 'out'), ('s32', 256 // d), ('s32', d)])
        c.launch('recurse', 1, 256, [('ptr', 'out'), ('s32', 256 // d), ('s32', d)])
    for n in (16, 64, 256):
        c.launch('local_%d' % n, 1, 256, [('ptr', 'out'), ('s32', 1024)])
    return c


# ---------------------------------------------------------------- clusters
def cluster_case():
    c = Case('mb_cluster', 'cluster sizes 1..8: barrier.cluster rounds and distributed-shared-memory chases')
    c.src.append('''#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void cluster_sync(unsigned *out, int iters)
{
    cg::cluster_group cl = cg::this_cluster();
    for (int i = 0; i < iters; i++) cl.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = cl.block_rank();
}
// a dependent chain of loads from the next block's shared memory
extern "C" __global__ void dsmem_chase(unsigned *out, int iters)
{
    __shared__ unsigned s[1024];
    cg::cluster_group cl = cg::this_cluster();
    for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = (i + 32 * 5) & 1023;
    cl.sync();
    unsigned *r = cl.map_shared_rank(s, (cl.block_rank() + 1) % cl.num_blocks());
    unsigned j = threadIdx.x & 31;
    for (int i = 0; i < iters; i++) j = r[j];
    cl.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = j;
}''')
    c.buf('out', 128 * 128 * 4)
    for cs in (1, 2, 4, 8):
        c.launch('cluster_sync', 128, 128, [('ptr', 'out'), ('s32', 512)], cluster=cs)
    for cs in (1, 2, 4, 8):
        c.launch('dsmem_chase', 128, 128, [('ptr', 'out'), ('s32', 1024)], cluster=cs)
    return c


# ---------------------------------------------------------------- memory hierarchy
def mem_case():
    c = Case('mb_mem', 'one-thread pointer chases over 16 KiB .. 128 MiB (L1, L2, DRAM) and streaming reads')
    c.src.append('''// next[i] = i + stride (wrapping within n words): every hop a new line
extern "C" __global__ void chain_init(unsigned *buf, unsigned n, unsigned stride)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        buf[i] = (i + stride) % n;
}
extern "C" __global__ void chase(const unsigned *buf, unsigned *out, int hops)
{
    unsigned j = 0;
    for (int i = 0; i < hops; i++) j = buf[j];
    out[threadIdx.x] = j;
}''')
    c.src.append(stream_read_src('stream_read'))
    c.buf('buf', 128 << 20)
    c.buf('out', 132 * 1024 * 4)
    for fp, stride, passes in ((16 << 10, 128, 8), (192 << 10, 128, 2), (2 << 20, 128, 2), (24 << 20, 256, 2),
                               (128 << 20, 4096, 1)):
        n, sw = fp // 4, stride // 4
        hops = min(passes * (n // sw), 65536)
        c.launch('chain_init', 264, 256, [('ptr', 'buf'), ('u32', n), ('u32', sw)])
        c.launch('chase', 1, 1, [('ptr', 'buf'), ('ptr', 'out'), ('s32', hops)])
    for fp in (1 << 20, 16 << 20):
        c.launch('stream_read', 264, 512, [('ptr', 'buf'), ('ptr', 'out'), ('u32', fp // 16)])
    return c


# ---------------------------------------------------------------- partial writes
def store_case():
    c = Case('mb_store', '4-byte stores: 1, 2 or 4 sectors of a line per request, sectors completed or left partial')
    # thread t writes WORDS consecutive words at word t * stride: a warp's
    # request covers 32 sectors in 32 / (128 / (4 * stride)) lines
    for words in (1, 8):
        c.src.append('''extern "C" __global__ void store_w%d(unsigned *out, unsigned stride, int reps)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
    for (int r = 0; r < reps; r++) {
        unsigned *p = out + (size_t)(t + r * n) * stride;
#pragma unroll
        for (int e = 0; e < %d; e++) p[e] = t + e;
    }
}''' % (words, words))
    c.buf('out', 32 << 20)
    for words in (8, 1):
        for stride_bytes in (32, 64, 128):
            c.launch('store_w%d' % words, 264, 256, [('ptr', 'out'), ('u32', stride_bytes // 4), ('s32', 3)])
    return c


# ---------------------------------------------------------------- a launch's cold start
def launch_case():
    c = Case('mb_launch', "cold start: blocks on 1..264 SMs fetch the kernel's parameters and code at once")
    c.src.append('''// one store a thread after reading two parameters
extern "C" __global__ void params_only(unsigned *out, unsigned v)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = v + threadIdx.x;
}''')
    for n in (64, 1024):
        c.src.append('''// %d dependent integer steps of straight-line code (about %d bytes of SASS)
extern "C" __global__ void code_%d(unsigned *out, unsigned v)
{
    unsigned x = v + threadIdx.x;
#pragma unroll
    for (int i = 0; i < %d; i++) asm volatile("xor.b32 %%0, %%0, %%1;" : "+r"(x) : "r"(v + i));
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}''' % (n, 16 * n, n, n))
    c.buf('out', 264 * 256 * 4)
    for blocks in (1, 8, 33, 66, 132, 264):
        c.launch('params_only', blocks, 256, [('ptr', 'out'), ('u32', 7)])
    for n in (64, 1024):
        for blocks in (1, 132):
            c.launch('code_%d' % n, blocks, 256, [('ptr', 'out'), ('u32', 7)])
    return c


# ---------------------------------------------------------------- L1 hits by request shape
L1_SHAPES = ((1, 1), (1, 4), (2, 4), (4, 1), (4, 4), (8, 1), (8, 4), (16, 1), (16, 2), (32, 1))
L1_MISS_SHAPES = ((1, 1), (1, 4), (4, 1), (4, 4), (8, 1), (8, 4), (32, 1))


def l1_case():
    c = Case('mb_l1', 'loads whose requests touch 1..32 lines, 1..4 sectors of each: L1 hits, and L1 misses that hit L2')
    # lane l reads word l / (L*S) of sector (l / L) % S of line l % L
    shape = '''%s
extern "C" __global__ void %s(const float *buf, float *out, int iters, unsigned L, unsigned S)
{
    unsigned lane = threadIdx.x & 31;
    const float *p = buf + (lane %% L) * 32 + ((lane / L) %% S) * 8 + lane / (L * S)%s;
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int i = 0; i < iters; i++) {
        unsigned r = (i * 4) & %d;
        a0 += p[(r + 0) * 1056]; a1 += p[(r + 1) * 1056]; a2 += p[(r + 2) * 1056]; a3 += p[(r + 3) * 1056];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3;
}'''
    c.src.append(shape % ('''// lane l reads word l / (L*S) of sector (l / L) % S of line l % L: every request
// touches L lines and L*S sectors; 4 independent loads a step from 32 regions
// of 33 lines (132 KiB, L1-resident after the first pass)''', 'l1_shape', '', 31))
    c.src.append(shape % ('''// the same requests, each warp over 256 regions of its own, four passes: 16
// warps touch 4096 regions (512 KiB of lines at L = 1, twice the L1; 16 MiB
// at L = 32): every line a miss in L1, after the first pass a hit in L2''', 'l1_miss_shape',
                          ' + (threadIdx.x >> 5) * 256 * 1056', 255))
    c.src.append('''// requests of 8 lines (one sector each), M of them from the warp's own
// 256 regions (misses, as above) and the others from 8 lines of its own that
// stay in L1 (hits): hits and misses in one request
extern "C" __global__ void l1_mix(const float *buf, float *out, int iters, unsigned M)
{
    unsigned lane = threadIdx.x & 31, j = lane % 8, w = threadIdx.x >> 5;
    const float *miss = buf + w * 256 * 1056 + j * 32 + lane / 8;
    const float *hit = buf + 16 * 256 * 1056 + w * 1056 + j * 32 + lane / 8;
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int i = 0; i < iters; i++) {
        unsigned r = (i * 4) & 255;
        bool m = j < M;
        a0 += m ? miss[(r + 0) * 1056] : hit[0]; a1 += m ? miss[(r + 1) * 1056] : hit[0];
        a2 += m ? miss[(r + 2) * 1056] : hit[0]; a3 += m ? miss[(r + 3) * 1056] : hit[0];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3;
}''')
    c.buf('buf', 16 * 257 * 1056 * 4)
    c.buf('out', 132 * 1024 * 4)
    for lines, sectors in L1_SHAPES:
        c.launch('l1_shape', 1, 512, [('ptr', 'buf'), ('ptr', 'out'), ('s32', 256), ('u32', lines), ('u32', sectors)])
    for lines, sectors in L1_MISS_SHAPES:
        c.launch('l1_miss_shape', 1, 512, [('ptr', 'buf'), ('ptr', 'out'), ('s32', 256), ('u32', lines), ('u32', sectors)])
    for misses in (0, 1, 2, 4, 8):
        c.launch('l1_mix', 1, 512, [('ptr', 'buf'), ('ptr', 'out'), ('s32', 256), ('u32', misses)])
    return c


# ---------------------------------------------------------------- L1 data banks
def l1_reuse_case():
    c = Case('mb_l1reuse', 'L1-hit requests of 32 lines: lanes on one data bank, or two a bank; 1 block of 128..1024 threads')
    c.src.append('''// L1-hit loads whose requests touch 32 lines (lane l in line l), 4
// independent loads a step; X = 1: the loads read other words of the same 32
// lines, X = 1056: other lines (32 regions of 33 lines, L1-resident after
// the first pass); either way every lane reads the same word of its line
extern "C" __global__ void l1_reuse(const float *buf, float *out, int iters, unsigned X)
{
    unsigned lane = threadIdx.x & 31;
    const float *p = buf + lane * 32;
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int i = 0; i < iters; i++) {
        unsigned r = (i * 4) & 31;
        a0 += p[(r + 0) * X]; a1 += p[(r + 1) * X]; a2 += p[(r + 2) * X]; a3 += p[(r + 3) * X];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3;
}''')
    c.src.append('''// lane l reads word f of its own 34-word record (136 bytes apart, the
// transposing read of a point-major array), f = 0, 1, ...: 32 lines a
// request, but two lanes a data bank
extern "C" __global__ void l1_records(const float *buf, float *out, int iters)
{
    unsigned lane = threadIdx.x & 31;
    const float *p = buf + lane * 34;
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int i = 0; i < iters; i++) {
        unsigned r = (i * 4) % 32;
        a0 += p[r + 0]; a1 += p[r + 1]; a2 += p[r + 2]; a3 += p[r + 3];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3;
}''')
    c.buf('buf', 32 * 1056 * 4 * 36)
    c.buf('out', 1024 * 4)
    for threads in (128, 512, 1024):
        for X in (1, 1056):
            c.launch('l1_reuse', 1, threads, [('ptr', 'buf'), ('ptr', 'out'), ('s32', 256), ('u32', X)])
        c.launch('l1_records', 1, threads, [('ptr', 'buf'), ('ptr', 'out'), ('s32', 256)])
    return c


# ---------------------------------------------------------------- L1 data returned a request
L1W_WORDS = (1, 2, 8, 16, 32)


def l1_width_case():
    c = Case('mb_l1w', 'L1-hit loads of one or two lines returning 4..128 distinct bytes a request (broadcast to per-lane words)')
    c.src.append('''// lane l reads word l % D of line (l / 16) % L of its region: every request
// touches L lines and returns D * L distinct words (at most 32); 4
// independent loads a step from 32 regions of 33 lines (L1-resident)
extern "C" __global__ void l1_width(const float *buf, float *out, int iters, unsigned D, unsigned L)
{
    unsigned lane = threadIdx.x & 31;
    const float *p = buf + ((lane / 16) % L) * 32 + lane % D;
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int i = 0; i < iters; i++) {
        unsigned r = (i * 4) & 31;
        a0 += p[(r + 0) * 1056]; a1 += p[(r + 1) * 1056]; a2 += p[(r + 2) * 1056]; a3 += p[(r + 3) * 1056];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3;
}''')
    c.buf('buf', 33 * 1056 * 4)
    c.buf('out', 132 * 1024 * 4)
    for lines in (1, 2):
        for words in L1W_WORDS:
            if words * lines <= 32 and (lines == 1 or words <= 16):
                c.launch('l1_width', 1, 512, [('ptr', 'buf'), ('ptr', 'out'), ('s32', 256), ('u32', words), ('u32', lines)])
    return c


# ---------------------------------------------------------------- merged shared-memory accesses
FUSE_ALIGN = (16, 8, 4)


def fuse_case():
    c = Case('mb_fuse', 'scalar shared loads/stores at 16-, 8- and 4-byte aligned bases (merged by ptxas or not)')
    for al in FUSE_ALIGN:
        off = 16 - al if al < 16 else 0          # bytes past a 16-byte boundary: alignment al
        for pat, lane in (('bcast', '0'), ('lane', '(threadIdx.x & 31) * 32')):
            loads = '\n'.join('        asm("ld.shared.f32 %%0, [%%1+%d];" : "=f"(x%d) : "r"(a));' % (4 * k, k) for k in range(8))
            c.src.append('''// 8 scalar loads of consecutive words at a %d-byte aligned address (%s)
extern "C" __global__ void fuse_ld_%s_a%d(float *out, int iters)
{
    __shared__ __align__(16) float q[2048];
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) q[i] = i * 0.25f;
    __syncthreads();
    unsigned base = (unsigned)__cvta_generic_to_shared(q) + %d + %s;
    float acc0 = 0, acc1 = 0;
    for (int i = 0; i < iters; i++) {
        unsigned a = base + ((i * 32) & 2047);
        float x0, x1, x2, x3, x4, x5, x6, x7;
%s
        acc0 += x0 * x1 + x2 * x3; acc1 += x4 * x5 + x6 * x7;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc0 + acc1;
}''' % (al, 'all lanes the same' if pat == 'bcast' else 'lane l at 32 l', pat, al, off, lane, loads))
        stores = '\n'.join('        asm volatile("st.shared.f32 [%%0+%d], %%1;" :: "r"(a), "f"(v + %d.0f));' % (4 * k, k) for k in range(4))
        c.src.append('''// 4 scalar stores of consecutive words a lane, at a %d-byte aligned address
extern "C" __global__ void fuse_st_a%d(float *out, int iters)
{
    __shared__ __align__(16) float q[4096];
    unsigned base = (unsigned)__cvta_generic_to_shared(q) + %d + (threadIdx.x & 31) * 32;
    float v = threadIdx.x;
    for (int i = 0; i < iters; i++) {
        unsigned a = base + ((i * 1024) & 8191);
%s
        v += 1.0f;
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = q[threadIdx.x];
}''' % (al, al, off, stores))
    c.buf('out', 132 * 1024 * 4)
    for al in FUSE_ALIGN:
        for pat in ('bcast', 'lane'):
            for threads in (32, 512):
                c.launch('fuse_ld_%s_a%d' % (pat, al), 1, threads, [('ptr', 'out'), ('s32', 1024)])
        c.launch('fuse_st_a%d' % al, 1, 512, [('ptr', 'out'), ('s32', 1024)])
    return c

# ---------------------------------------------------------------- dirty data the L2 keeps
def l2_dirty_case():
    c = Case('mb_l2dirty', 'writes of 8 to 48 MiB, each after a 128 MiB read that leaves the L2 clean: what the L2 writes back during the kernel')
    c.src.append('''extern "C" __global__ void fill(unsigned *buf, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) buf[i] = i;
}''')
    c.src.append(stream_read_src('sweep'))
    c.buf('buf', 48 << 20)
    c.buf('big', 128 << 20)
    c.buf('out', 264 * 512 * 4)
    for mib in (8, 12, 16, 20, 24, 32, 48):
        c.launch('sweep', 264, 512, [('ptr', 'big'), ('ptr', 'out'), ('u32', (128 << 20) // 16)])
        c.launch('fill', 264, 256, [('ptr', 'buf'), ('u32', (mib << 20) // 4)])
    return c

# ---------------------------------------------------------------- constant loads (LDC)
def ldc_case():
    c = Case('mb_ldc', 'LDC: pointer parameters read by many short warps (1 to 8 pointers, all warps or after an early exit), and a warp-uniform indexed __constant__ array: a dependent chain and 4 independent loads a step with 1 to 32 warps an SM')
    c.src.append('''__constant__ float ctab[1024];
// sel[i]: one warp in 64 has work
extern "C" __global__ void ldc_init(unsigned *sel, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sel[i] = ((i >> 5) & 63) == 0;
}
extern "C" __global__ void ldc_ptr1(const float *a, float *out)
{ unsigned i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = a[i]; }
extern "C" __global__ void ldc_ptr2(const float *a, const float *b, float *out)
{ unsigned i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = a[i] + b[i]; }
extern "C" __global__ void ldc_ptr4(const float *a, const float *b, const float *c, const float *d, float *out)
{ unsigned i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = a[i] + b[i] + c[i] + d[i]; }
extern "C" __global__ void ldc_ptr8(const float *a, const float *b, const float *c, const float *d,
                                    const float *e, const float *f, const float *g, const float *h, float *out)
{ unsigned i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = a[i] + b[i] + c[i] + d[i] + e[i] + f[i] + g[i] + h[i]; }
// most warps leave after reading sel
extern "C" __global__ void ldc_exit4(const unsigned *sel, const float *a, const float *b, const float *c, float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (sel[i] == 0) return;
    out[i] = a[i] + b[i] + c[i];
}
// a chain: each LDC's index from the previous one's value
extern "C" __global__ void ldc_chain(float *out, int iters)
{
    int k = 0;
    for (int r = 0; r < iters; r++) k = (int)ctab[(k + r) & 1023] + r;
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)k;
}
// four independent LDCs a step, a warp-uniform index per warp
extern "C" __global__ void ldc_indep(float *out, int iters)
{
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    for (int r = 0; r < iters; r++) {
        unsigned j = (w * 4 + (unsigned)r * 16) & 1023;
        s0 += ctab[j]; s1 += ctab[(j + 1) & 1023]; s2 += ctab[(j + 2) & 1023]; s3 += ctab[(j + 3) & 1023];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s0 + s1 + s2 + s3;
}''')
    n = 1024 * 256
    for b in 'abcdefgh':
        c.buf(b, n * 4)
    c.buf('sel', n * 4)
    c.buf('out', n * 4)
    c.launch('ldc_init', 264, 256, [('ptr', 'sel'), ('u32', n)])
    for blocks in (132, 528, 1024):
        for k, ps in ((1, 'a'), (2, 'ab'), (4, 'abcd'), (8, 'abcdefgh')):
            c.launch('ldc_ptr%d' % k, blocks, 256, [('ptr', p) for p in ps] + [('ptr', 'out')])
        c.launch('ldc_exit4', blocks, 256, [('ptr', p) for p in ('sel', 'a', 'b', 'c', 'out')])
    c.launch('ldc_chain', 1, 32, [('ptr', 'out'), ('s32', 4096)])
    for threads in (32, 128, 256, 512, 1024):
        c.launch('ldc_indep', 1, threads, [('ptr', 'out'), ('s32', 1024)])
    return c


# ---------------------------------------------------------------- stores to one address
def same_store_case():
    c = Case('mb_samestore', "every warp's stores to one word, or to 8 or 64 words in distinct sectors: how the L2 takes writes of one sector")
    c.src.append('''// lane 0 (lanes: every lane) of each warp stores reps times to word
// 32 * (warp % spread)
extern "C" __global__ void flag_lane0(volatile unsigned *p, unsigned spread, int reps)
{
    unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if ((threadIdx.x & 31) == 0)
        for (int r = 0; r < reps; r++) p[32 * (w % spread)] = r;
}
extern "C" __global__ void flag_lanes(volatile unsigned *p, unsigned spread, int reps)
{
    unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    for (int r = 0; r < reps; r++) p[32 * (w % spread)] = r;
}''')
    c.buf('p', 64 * 128)
    for k in ('lane0', 'lanes'):
        for spread in (1, 8, 64):
            c.launch('flag_' + k, 1056, 256, [('ptr', 'p'), ('u32', spread), ('s32', 4)])
    c.launch('flag_lane0', 132, 256, [('ptr', 'p'), ('u32', 1), ('s32', 4)])
    return c

# ---------------------------------------------------------------- a BFS sweep taken apart
def gather_case():
    c = Case('mb_gather', "a BFS level sweep (8 dependent gathers a node, a conditional store each, a flag) and the same without the flag, without the stores, or storing without reading")
    c.src.append(HASHU)
    c.src.append('''// 8 edges a node: half to the next 4096 nodes, half anywhere
extern "C" __global__ void init(int *adj, int *level, int n)
{
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
        for (int k = 0; k < 8; k++) {
            unsigned h = hashu(v * 8 + k);
            adj[v * 8 + k] = k < 4 ? (int)((v + (h & 4095) + 1) % n) : (int)(h % n);
        }
        level[v] = v == 0 ? 0 : -1;
    }
}
extern "C" __global__ void sweep(const int *adj, int *level, int n, int cur, int *changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != cur) return;
    bool any = false;
    for (int k = 0; k < 8; k++) {
        int u = adj[v * 8 + k];
        if (level[u] < 0) { level[u] = cur + 1; any = true; }
    }
    if (any) *changed = 1;
}
extern "C" __global__ void sweep_noflag(const int *adj, int *level, int n, int cur, int *changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != cur) return;
    for (int k = 0; k < 8; k++) {
        int u = adj[v * 8 + k];
        if (level[u] < 0) level[u] = cur + 1;
    }
}
extern "C" __global__ void sweep_loads(const int *adj, int *level, int n, int cur, int *out)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != cur) return;
    int s = 0;
    for (int k = 0; k < 8; k++) s += level[adj[v * 8 + k]] < 0;
    out[v] = s;
}
extern "C" __global__ void sweep_blind(const int *adj, int *level, int n, int cur, int *changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != cur) return;
    for (int k = 0; k < 8; k++) {
        int u = adj[v * 8 + k];
        if (u & 1) level[u] = cur + 1;
    }
}''')
    n = 262144
    c.buf('adj', n * 32)
    c.buf('level', n * 4)
    c.buf('flag', 64)
    c.buf('out', n * 4)
    for k in ('sweep', 'sweep_noflag', 'sweep_loads', 'sweep_blind'):
        c.launch('init', 512, 256, [('ptr', 'adj'), ('ptr', 'level'), ('s32', n)])
        for cur in range(6):
            c.launch(k if cur == 5 else 'sweep', 1024, 256, [('ptr', 'adj'), ('ptr', 'level'), ('s32', n), ('s32', cur),
                                                             ('ptr', 'out' if k == 'sweep_loads' and cur == 5 else 'flag')])
    return c

# ---------------------------------------------------------------- read then write of scattered words
RMW_SRC = HASH_INIT + '\n' + '''// mode bits: 1 store to the word loaded, 2 store to b instead, 4 load with .cg (L2 only),
// 8 a flag store at the end (all warps one word; 16: a word per warp)
extern "C" __global__ void rmw(unsigned *a, unsigned *b, unsigned *flag, unsigned n, int mode)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, i = hashu(t) % n, s = 0;
#pragma unroll
    for (int k = 0; k < 8; k++) {
        unsigned x = (mode & 4) ? __ldcg(a + i) : a[i];
        if (mode & 1) a[i] = x + 1;
        if (mode & 2) b[i] = x + 1;
        s += x;
        i = (x * 2654435761u + k) % n;
    }
    if (mode & 8) *flag = 1;
    if (mode & 16) flag[32 * (t >> 5)] = 1;
    if (s == 0x12345678u) b[t] = s;       /* keeps the loads */
}'''


def rmw_case():
    c = Case('mb_rmw', "8 dependent scattered loads a thread, each followed by a store to the word loaded, to another array, or none; the loads through L1 or not; a flag stored at the end")
    c.src.append(RMW_SRC)
    n = 262144
    c.buf('a', n * 4)
    c.buf('b', n * 4)
    c.buf('flag', 264 * 8 * 128)
    for mode in (0, 1, 2, 5, 4, 8, 9, 16, 17):
        c.launch('init', 264, 256, [('ptr', 'a'), ('u32', n)])
        c.launch('rmw', 264, 256, [('ptr', 'a'), ('ptr', 'b'), ('ptr', 'flag'), ('u32', n), ('s32', mode)])
    return c

# ---------------------------------------------------------------- which store after a load is slow
def rmw_where_case():
    c = Case('mb_rmw2', "8 dependent scattered loads a thread, each followed by a store: to the word loaded, another word of its sector, another sector of its line, a line far away, the word after a delay, or the whole sector")
    c.src.append(HASH_INIT)
    c.src.append('''// where: 0 no store, 1 the word loaded, 2 the next word of its sector, 3 the same word of
// the line's next sector, 4 a word half the array away, 5 the word loaded after ~1500
// cycles of dependent arithmetic, 6 the whole sector (two 16-byte stores)
extern "C" __global__ void rmw2(unsigned *a, unsigned *out, unsigned n, int where)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, i = hashu(t) % n, s = 0;
#pragma unroll 1
    for (int k = 0; k < 8; k++) {
        unsigned x = a[i];
        unsigned y = x + 1;
        if (where == 5)
            for (int d = 0; d < 300; d++) y = y * 1664525u + 1013904223u;
        if (where == 1 || where == 5) a[i] = y;
        else if (where == 2) a[i ^ 1] = y;
        else if (where == 3) a[i ^ 8] = y;
        else if (where == 4) a[(i + n / 2) % n] = y;
        else if (where == 6) {
            uint4 *p = (uint4 *)(a + (i & ~7u));
            p[0] = make_uint4(y, y, y, y);
            p[1] = make_uint4(y, y, y, y);
        }
        s += x;
        i = (x * 2654435761u + k) % n;
    }
    if (s == 0x12345678u) out[t] = s;       /* keeps the loads */
}''')
    n = 262144
    c.buf('a', n * 4)
    c.buf('out', 264 * 256 * 4)
    for where in range(7):
        c.launch('init', 264, 256, [('ptr', 'a'), ('u32', n)])
        c.launch('rmw2', 264, 256, [('ptr', 'a'), ('ptr', 'out'), ('u32', n), ('s32', where)])
    return c

# ---------------------------------------------------------------- stores into lines the L2 holds whole or in part
def rmw_line_case():
    c = Case('mb_rmw3', "scattered loads each followed by a store to the word loaded, over 256 KiB whose lines each block first reads whole (coalesced) or not")
    c.src.append(HASH_INIT)
    c.src.append('''// mode bits: 1 each block reads all of a, coalesced, first; 2 store to the word loaded;
// 4 store to b instead
extern "C" __global__ void rmw3(unsigned *a, unsigned *b, unsigned *out, unsigned n, int mode)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, i = hashu(t) % n, s = 0;
    if (mode & 1) {
        for (unsigned j = threadIdx.x; j < n; j += blockDim.x) s += a[j];
        __syncthreads();
    }
#pragma unroll 1
    for (int k = 0; k < 8; k++) {
        unsigned x = a[i];
        if (mode & 2) a[i] = x + 1;
        if (mode & 4) b[i] = x + 1;
        s += x;
        i = (x * 2654435761u + k) % n;
    }
    if (s == 0x12345678u) out[t] = s;       /* keeps the loads */
}''')
    n = 65536
    c.buf('a', n * 4)
    c.buf('b', n * 4)
    c.buf('out', 264 * 256 * 4)
    for mode in (1, 3, 5, 0, 2, 4):
        c.launch('init', 264, 256, [('ptr', 'a'), ('u32', n)])
        c.launch('rmw3', 264, 256, [('ptr', 'a'), ('ptr', 'b'), ('ptr', 'out'), ('u32', n), ('s32', mode)])
    return c

# ---------------------------------------------------------------- the same over 1..264 blocks
def rmw_grid_case():
    c = Case('mb_rmw4', "mb_rmw's loads, stores to the word loaded, or to another array, from 1 to 264 blocks: latency or contention")
    c.src.append(RMW_SRC)
    n = 262144
    c.buf('a', n * 4)
    c.buf('b', n * 4)
    c.buf('flag', 264 * 8 * 128)
    for grid in (1, 8, 33, 132, 264):
        for mode in (0, 1, 2):
            c.launch('init', 264, 256, [('ptr', 'a'), ('u32', n)])
            c.launch('rmw', grid, 256, [('ptr', 'a'), ('ptr', 'b'), ('ptr', 'flag'), ('u32', n), ('s32', mode)])
    return c

# ---------------------------------------------------------------- many warps' stores to one sector
def flag_case():
    c = Case('mb_flag', "lane 0 of every warp stores to one word, to words of one sector, to sectors of one line or to lines, back to back or paced by dependent arithmetic; and each SM to its own line: where writes of one sector merge")
    c.src.append('''// lane 0 of each warp stores reps times to word stride * (warp % spread),
// each store after delay steps of a dependent multiply-add chain
extern "C" __global__ void flag_paced(volatile unsigned *p, unsigned spread, unsigned stride, int reps, int delay)
{
    unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, x = w;
    for (int r = 0; r < reps; r++) {
        for (int d = 0; d < delay; d++) x = x * 1664525u + 1013904223u;
        if ((threadIdx.x & 31) == 0) p[stride * (w % spread)] = x;
    }
}
// lane 0 of each warp stores reps times to its SM's own line
extern "C" __global__ void flag_own_sm(volatile unsigned *p, int reps)
{
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    for (int r = 0; r < reps; r++)
        if ((threadIdx.x & 31) == 0) p[32 * sm] = r;
}''')
    c.buf('p', 256 * 128)
    def paced(spread, stride, delay, grid=1056, reps=4):
        c.launch('flag_paced', grid, 256, [('ptr', 'p'), ('u32', spread), ('u32', stride), ('s32', reps), ('s32', delay)])
    for delay in (0, 8, 32, 128):
        paced(1, 32, delay)
    for stride in (32, 8, 1):
        for spread in (2, 8):
            paced(spread, stride, 0)
    paced(1, 32, 0, grid=132)
    paced(1, 32, 32, grid=132)
    paced(1, 32, 0, reps=1)
    paced(8, 32, 32)
    for reps in (1, 4, 16):
        c.launch('flag_own_sm', 1056, 256, [('ptr', 'p'), ('s32', reps)])
    return c

# ---------------------------------------------------------------- when the L2 writes dirty data back
def writeback_case():
    c = Case('mb_wb', "what the L2 writes back to DRAM during a launch: coalesced stores of 1 or 8 MiB written once or 16 times, with or without a long wait after them; scattered 4-byte and 32-byte stores; launches without stores, short or streaming 128 MiB, after stores")
    c.src.append(HASHU)
    c.src.append(stream_read_src('sweep'))
    c.src.append('''// every word of p[0..n) written reps times (grid-stride, coalesced), then spin
// steps of a dependent chain
extern "C" __global__ void wb_store(unsigned *p, unsigned n, int reps, int spin, unsigned *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, x = t;
    for (int r = 0; r < reps; r++)
        for (unsigned i = t; i < n; i += gridDim.x * blockDim.x) p[i] = i + r;
    for (int d = 0; d < spin; d++) x = x * 1664525u + 1013904223u;
    if (x == 0x12345678u) out[t] = x;
}
// k scattered stores a thread into p[0..n): 4 bytes (words 1) or a whole 32-byte sector (words 8)
extern "C" __global__ void wb_scatter(unsigned *p, unsigned n, int k, int words)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, i = hashu(t) % n;
#pragma unroll 1
    for (int j = 0; j < k; j++) {
        if (words == 8) {
            uint4 *q = (uint4 *)(p + (i & ~7u));
            q[0] = make_uint4(t, j, t, j);
            q[1] = make_uint4(j, t, j, t);
        } else p[i] = t + j;
        i = hashu(i + j) % n;
    }
}''')
    c.buf('big', 128 << 20)
    c.buf('p', 8 << 20)
    c.buf('out', 264 * 512 * 4)
    mw = (1 << 20) // 4
    def sweep(nbytes):
        c.launch('sweep', 264, 512, [('ptr', 'big'), ('ptr', 'out'), ('u32', nbytes // 16)])
    def store(nbytes, reps, spin, grid=264):
        c.launch('wb_store', grid, 256, [('ptr', 'p'), ('u32', nbytes // 4), ('s32', reps), ('s32', spin), ('ptr', 'out')])
    def scatter(k, words, grid=264):
        c.launch('wb_scatter', grid, 256, [('ptr', 'p'), ('u32', mw), ('s32', k), ('s32', words)])
    sweep(128 << 20)            # 0: what a streaming read writes at the start
    sweep(128 << 20)            # 1: the same again
    store(1 << 20, 1, 0)        # 2
    store(1 << 20, 1, 20000)    # 3: the same, then ~100 us without stores
    store(1 << 20, 16, 0)       # 4: every word 16 times
    store(8 << 20, 1, 0)        # 5
    store(8 << 20, 1, 20000)    # 6
    store(0, 0, 20000)          # 7: no stores, after 8 MiB stored
    sweep(128 << 20)            # 8: a streaming read after that
    sweep(1 << 20)              # 9: a short read
    scatter(8, 1)               # 10: as mb_rmw's stores, without the loads
    scatter(8, 1, 132)          # 11
    scatter(32, 1)              # 12
    scatter(8, 8)               # 13: whole sectors
    store(0, 0, 20000)          # 14: no stores, after scattered ones
    sweep(1 << 20)              # 15
    store(1 << 20, 1, 0, 8)     # 16: 8 blocks: slower stores
    store(8 << 20, 1, 0)        # 17
    sweep(1 << 20)              # 18: a short read after 8 MiB stored
    return c

# ---------------------------------------------------------------- the MIO queue
MIO_K = (1, 2, 4, 8, 16)


MIO_KERNEL = '''// %(doc)s
extern "C" __global__ void %(name)s(float *out, int iters%(params)s)
{
    __shared__ %(align)sfloat s[8192];
    for (int i = threadIdx.x; i < 8192; i += blockDim.x) s[i] = (float)i;
    __syncthreads();
    unsigned base = (unsigned)__cvta_generic_to_shared(s) + %(lane)s;
    float acc = 0;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        unsigned a = base + ((i * %(step)d) & %(mask)d);
        %(type)s %(xs)s;
%(loads)s
        acc += %(total)s;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}'''


def mio_case():
    c = Case('mb_mio', 'K independent shared loads a step (K 1..16), 4..32 warps, conflict degree 1, 2, 8; 128-bit loads')
    for k in MIO_K:
        c.src.append(MIO_KERNEL % dict(
            doc='%d independent shared loads a step, then their sum: lane l at word l * stride (conflict degree)' % k,
            name='mio_ld%d' % k, params=', int stride', align='', lane='(((threadIdx.x & 31) * stride) & 255) * 4',
            step=128, mask=4095, type='float', xs=', '.join('x%d' % j for j in range(k)),
            loads='\n'.join('        asm volatile("ld.shared.f32 %%0, [%%1+%d];" : "=f"(x%d) : "r"(a));' % (1024 * j, j) for j in range(k)),
            total=' + '.join('x%d' % j for j in range(k))))
    for k in (1, 4):
        c.src.append(MIO_KERNEL % dict(
            doc='%d independent 128-bit shared loads a step (4 wavefronts each), then a sum' % k,
            name='mio_v4_%d' % k, params='', align='__align__(16) ', lane='(threadIdx.x & 31) * 16',
            step=512, mask=8191, type='float4', xs=', '.join('x%d' % j for j in range(k)),
            loads='\n'.join('        asm volatile("ld.shared.v4.f32 {%%0, %%1, %%2, %%3}, [%%4+%d];" : "=f"(x%d.x), "=f"(x%d.y), "=f"(x%d.z), "=f"(x%d.w) : "r"(a));'
                             % (2048 * j, j, j, j, j) for j in range(k)),
            # all four: ptxas narrows a vector load to the parts used
            total=' + '.join('x%d.x + x%d.y + x%d.z + x%d.w' % (j, j, j, j) for j in range(k))))
    c.buf('out', 132 * 1024 * 4)
    for stride in (1, 2, 8):
        for k in MIO_K:
            for warps in (4, 8, 16, 32):
                c.launch('mio_ld%d' % k, 1, 32 * warps, [('ptr', 'out'), ('s32', 512), ('s32', stride)])
    for k in (1, 4):
        for warps in (4, 8, 16, 32):
            c.launch('mio_v4_%d' % k, 1, 32 * warps, [('ptr', 'out'), ('s32', 512)])
    return c


# ---------------------------------------------------------------- special registers
SREGS = ('tid.x', 'laneid', 'warpid', 'smid', 'tid.y', 'lanemask_lt', 'nsmid', 'lanemask_ge')


def sreg_case():
    c = Case('mb_sreg', 'special registers read in a loop: latency of one, 1..8 different ones a step, 1..32 warps')
    # ptxas keeps %warpid (S2R SR_VIRTID, then a shift and a sign-extend) and
    # %smid (S2UR SR_VIRTUALSMID) in the loop and hoists the others (the
    # loop of sreg_2 has none: the bare loop, for comparison)
    kernels = (('sreg_1', ('warpid',)), ('sreg_smid', ('smid',)), ('sreg_2', SREGS[:2]), ('sreg_4', SREGS[:4]), ('sreg_8', SREGS[:8]))
    for name, regs in kernels:
        k = len(regs)
        c.src.append('''// %(k)d special register read(s) a step (%(regs)s), each into a multiply-add of the step's chain
extern "C" __global__ void %(name)s(unsigned *out, int iters)
{
    unsigned acc = threadIdx.x;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
%(reads)s
        acc = %(sum)s;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}''' % dict(k=k, name=name, regs=', '.join(regs),
                  reads='\n'.join('        unsigned v%d; asm volatile("mov.u32 %%0, %%%%%s;" : "=r"(v%d));' % (j, r, j) for j, r in enumerate(regs)),
                  sum=' + '.join(['acc * 3u'] + ['v%d' % j for j in range(k)])))
    c.buf('out', 1024 * 4)
    for name, _ in kernels:
        for warps in (1, 4, 16, 32):
            c.launch(name, 1, 32 * warps, [('ptr', 'out'), ('s32', 2048)])
    return c


# ---------------------------------------------------------------- mixed integer pipes
def mix_case():
    c = Case('mb_mix', 'integer chains across the ALU and FMA pipes (the init kernels\' hash): in registers, '
             'through I2FP and FFMA, storing; LOP3 and IMAD alternating; 1 to 8 warps a sub-partition')
    c.src.append(HASHU)
    body = {
        # the hash of the last value: LOP3, SHF, IMAD, one after another
        'mix_hash': 'x = hashu(x ^ (unsigned)i);',
        # ... and its low half as a float (I2FP, FFMA), as the validation
        # cases' init kernels store it
        'mix_hashf': 'x = __float_as_uint((hashu(x ^ (unsigned)i) & 0xffffu) * (1.0f / 65536.0f) - 0.5f);',
        # LOP3 then IMAD, each reading the other's result
        'mix_lop3_imad': 'x = (x ^ a) * b;',
    }
    for name, step in body.items():
        c.src.append('''extern "C" __global__ void %s(unsigned *out, int iters, unsigned seed)
{
    unsigned a = 0x9e3779b9u + seed, b = 0x85ebca6bu | 1u, x = threadIdx.x + seed;
    (void)a; (void)b;
#pragma unroll 1
    for (int i = 0; i < iters; i++) %s
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}''' % (name, step))
    # the init kernels' loop: a grid-stride store of the hash as a float
    c.src.append('''extern "C" __global__ void mix_store(float *a, unsigned n, unsigned seed)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = (hashu(i ^ seed) & 0xffffu) * (1.0f / 65536.0f) - 0.5f;
}''')
    c.buf('out', 1024 * 4)
    c.buf('a', 1024 * 64 * 4)
    for warps in (1, 4, 8, 16, 32):       # one warp; 1, 2, 4 and 8 a sub-partition
        for name in body:
            c.launch(name, 1, 32 * warps, [('ptr', 'out'), ('s32', 1024), ('u32', 0)])
        c.launch('mix_store', 1, 32 * warps, [('ptr', 'a'), ('u32', 32 * warps * 64), ('u32', 0)])
    return c


# ---------------------------------------------------------------- drain at exit
def drain_case():
    c = Case('mb_drain', 'each warp stores 1 or 3 times and exits: one whole line a store, or sectors of 8, 16 or 32 lines, whole or partly written')
    c.src.append('''extern "C" __global__ void st1(unsigned *out, unsigned stride, int reps)
{
    unsigned lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    for (int r = 0; r < reps; r++)
        out[((size_t)w * reps + r) * 1024 + lane * stride] = w + lane;
}''')
    # mode 0: 4 whole lines; 1: 16-byte halves of 32 sectors (8 lines);
    # 2: 16-byte halves of one sector of 32 lines; 3: one whole sector of 16 lines
    c.src.append('''extern "C" __global__ void st4(uint4 *out, int mode, int reps)
{
    unsigned lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    unsigned i = mode == 0 ? lane : mode == 1 ? lane * 2 : mode == 2 ? lane * 8 : (lane >> 1) * 8 + (lane & 1);
    for (int r = 0; r < reps; r++)
        out[((size_t)w * reps + r) * 256 + i] = make_uint4(w, lane, r, mode);
}''')
    c.buf('out', 64 << 20)
    for reps in (3, 1):
        for stride in (1, 8, 32):
            c.launch('st1', 264, 256, [('ptr', 'out'), ('u32', stride), ('s32', reps)])
        for mode in (0, 1, 2, 3):
            c.launch('st4', 264, 256, [('ptr', 'out'), ('s32', mode), ('s32', reps)])
    return c


def bulk_case():
    c = Case('mb_bulk', 'bulk copies (TMA): global to shared on an mbarrier by size, blocks and copies in flight; shared to global and reductions in bulk groups')
    c.src.append('''// thread 0 copies `bytes` a round from the block's own part of src into
// one of 2^sh shared buffers (each on its mbarrier), keeping that many
// copies in flight; every thread waits for each round's copy and adds a
// word of it
extern "C" __global__ void bulk_load(const char *src, unsigned *out, unsigned bytes, int rounds, int sh)
{
    int depth = 1 << sh;
    extern __shared__ __align__(128) unsigned char buf[];
    __shared__ __align__(8) unsigned long long bar[4];
    unsigned sum = 0;
    if (threadIdx.x == 0)
        for (int k = 0; k < depth; k++) {
            unsigned b = (unsigned)__cvta_generic_to_shared(&bar[k]);
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b));
        }
    __syncthreads();
    const char *mine = src + (size_t)blockIdx.x * rounds * bytes;
    for (int r = 0; r < rounds + depth; r++) {
        if (threadIdx.x == 0 && r < rounds) {
            int k = r & (depth - 1);
            unsigned b = (unsigned)__cvta_generic_to_shared(&bar[k]), d = (unsigned)__cvta_generic_to_shared(buf + k * bytes);
            asm volatile("{ .reg .b64 st; mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1; }" :: "r"(b), "r"(bytes) : "memory");
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                         :: "r"(d), "l"(mine + (size_t)r * bytes), "r"(bytes), "r"(b) : "memory");
        }
        int w = r - depth + 1;
        if (w >= 0 && w < rounds) {
            int k = w & (depth - 1);
            unsigned b = (unsigned)__cvta_generic_to_shared(&bar[k]), ok = 0, parity = (w >> sh) & 1;
            while (!ok)
                asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                             : "=r"(ok) : "r"(b), "r"(parity) : "memory");
            sum += ((const unsigned *)(buf + k * bytes))[threadIdx.x];
            __syncthreads();
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
// thread 0 copies `bytes` of shared memory to the block's part of dst each
// round (red: adds them to one region all blocks share), waiting for the
// reads (wait_group.read) before the block writes the buffer again
extern "C" __global__ void bulk_store(char *dst, unsigned bytes, int rounds, int red)
{
    extern __shared__ __align__(128) unsigned char buf[];
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) ((unsigned *)buf)[i] = i + blockIdx.x;
    for (int r = 0; r < rounds; r++) {
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (threadIdx.x == 0) {
            unsigned s = (unsigned)__cvta_generic_to_shared(buf);
            if (red)
                asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], %2;" :: "l"(dst), "r"(s), "r"(bytes) : "memory");
            else
                asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                             :: "l"(dst + ((size_t)blockIdx.x * rounds + r) * bytes), "r"(s), "r"(bytes) : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        }
        __syncthreads();
        ((unsigned *)buf)[threadIdx.x] += r;
    }
    if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}''')
    c.buf('src', 64 << 20)
    c.buf('out', 264 * 128 * 4)
    c.buf('dst', 64 << 20)
    for bytes in (1024, 4096, 16384, 32768):
        for grid, sh in ((1, 0), (132, 0), (264, 0), (132, 2)):
            if bytes << sh > 64 << 10:
                continue
            rounds = min(16, (64 << 20) // (grid * bytes))     # (every round reads bytes not read before)
            c.launch('bulk_load', grid, 128, [('ptr', 'src'), ('ptr', 'out'), ('u32', bytes), ('s32', rounds), ('s32', sh)], shared=bytes << sh)
    for bytes in (4096, 16384):
        for grid in (1, 132):
            c.launch('bulk_store', grid, 128, [('ptr', 'dst'), ('u32', bytes), ('s32', 8), ('s32', 0)], shared=bytes)
        c.launch('bulk_store', 132, 128, [('ptr', 'dst'), ('u32', bytes), ('s32', 8), ('s32', 1)], shared=bytes)
    return c


def loop_case():
    c = Case('mb_loop', 'loops of run-time trip count entered many times: step 1, 96 and a run-time step (ptxas unrolling: prologue and remainder)')
    c.src.append('''__device__ unsigned sink;
// one warp: `entries` times a loop of `trips` iterations, each a shared
// load and a multiply-add
extern "C" __global__ void loop_step1(unsigned *out, int entries, int trips)
{
    __shared__ unsigned sm[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) sm[i] = i * 7;
    __syncthreads();
    unsigned acc = 0;
    for (int e = 0; e < entries; e++)
        for (int i = 0; i < trips; i++) acc += sm[(i + e + threadIdx.x) & 1023] * (unsigned)(e + 1);
    out[threadIdx.x] = acc;
}
extern "C" __global__ void loop_step96(unsigned *out, int entries, int trips)
{
    __shared__ unsigned sm[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) sm[i] = i * 7;
    __syncthreads();
    unsigned acc = 0;
    int lim = threadIdx.x + 96 * trips;
    for (int e = 0; e < entries; e++)
        for (int i = threadIdx.x; i < lim; i += 96) acc += sm[(i + e) & 1023] * (unsigned)(e + 1);
    out[threadIdx.x] = acc;
}
extern "C" __global__ void loop_steprt(unsigned *out, int entries, int trips, int step)
{
    __shared__ unsigned sm[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) sm[i] = i * 7;
    __syncthreads();
    unsigned acc = 0;
    int lim = threadIdx.x + step * trips;
    for (int e = 0; e < entries; e++)
        for (int i = threadIdx.x; i < lim; i += step) acc += sm[(i + e) & 1023] * (unsigned)(e + 1);
    out[threadIdx.x] = acc;
}''')
    c.buf('out', 128)
    for trips in (1, 2, 3, 4, 5, 7, 8, 11, 16, 17, 32):
        c.launch('loop_step1', 1, 32, [('ptr', 'out'), ('s32', 64), ('s32', trips)])
        c.launch('loop_step96', 1, 32, [('ptr', 'out'), ('s32', 64), ('s32', trips)])
        c.launch('loop_steprt', 1, 32, [('ptr', 'out'), ('s32', 64), ('s32', trips), ('s32', 96)])
    return c


# ---------------------------------------------------------------- golden kernels at other parameters
VARY_SWITCH_BODIES = [
    'mul.lo.u32 %0, %0, 0x01000193;\\n\\txor.b32 %1, %1, %0;\\n\\tshf.l.wrap.b32 %1, %1, %1, 5;\\n\\tadd.u32 %0, %0, %1;\\n\\tadd.u32 %1, %1, 0x3C6EF372;',
    'add.u32 %0, %0, 0x7F4A7C15;\\n\\tshf.r.wrap.b32 %0, %0, %0, 3;\\n\\tmul.lo.u32 %1, %1, 33;\\n\\txor.b32 %0, %0, %1;\\n\\tsub.u32 %1, %1, %0;',
    'xor.b32 %0, %0, 0x5BD1E995;\\n\\tmul.hi.u32 %1, %1, %0;\\n\\tadd.u32 %1, %1, %0;\\n\\tshl.b32 %0, %0, 1;\\n\\tor.b32 %0, %0, 1;',
    'shr.u32 %1, %0, 7;\\n\\txor.b32 %0, %0, %1;\\n\\tmul.lo.u32 %0, %0, 0x2C1B3C6D;\\n\\tadd.u32 %1, %1, %0;\\n\\tnot.b32 %1, %1;',
    'lop3.b32 %0, %0, %1, 0x1B873593, 0x96;\\n\\tshf.l.wrap.b32 %0, %0, %0, 13;\\n\\tadd.u32 %1, %1, 0x61C88647;\\n\\tmul.lo.u32 %0, %0, 5;\\n\\tadd.u32 %0, %0, 0xE6546B64;',
    'sub.u32 %0, %0, %1;\\n\\tshl.b32 %1, %1, 3;\\n\\txor.b32 %1, %1, %0;\\n\\tmad.lo.u32 %0, %0, 9, %1;\\n\\tshr.u32 %1, %1, 2;',
    'and.b32 %1, %1, %0;\\n\\tadd.u32 %0, %0, 0x165667B1;\\n\\tshf.r.wrap.b32 %0, %0, %0, 11;\\n\\txor.b32 %1, %1, %0;\\n\\tmul.lo.u32 %1, %1, 0x27D4EB2F;',
    'not.b32 %0, %0;\\n\\tadd.u32 %0, %0, %1;\\n\\tmul.lo.u32 %1, %1, 0x9E3779B1;\\n\\txor.b32 %0, %0, 0xC2B2AE3D;\\n\\tshf.l.wrap.b32 %1, %1, %1, 17;',
]

VARY_SRC = '''// barrier rounds: store, bar.sync, add the value of the thread 33 places on
// (another warp of the block; blockDim.x a power of two), two buffers
extern "C" __global__ void vbar_loop(unsigned *out, int pairs)
{
    __shared__ unsigned buf0[1024], buf1[1024];
    unsigned t = threadIdx.x, nb = (t + 33u) & (blockDim.x - 1u);
    unsigned x = t * 0x9E3779B9u + 1u;
    for (int i = 0; i < pairs; i++) {
        buf0[t] = x;
        __syncthreads();
        x += buf0[nb];
        buf1[t] = x;
        __syncthreads();
        x += buf1[nb];
    }
    out[blockIdx.x * blockDim.x + t] = x;
}
// barriers alone, a dependent multiply-add between them
extern "C" __global__ void vbar_only(unsigned *out, int iters)
{
    unsigned t = threadIdx.x, x = t * 0x9E3779B9u + 1u;
    for (int i = 0; i < iters; i++) {
        x = x * 3u + (unsigned)i;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = x;
}
#define ENTRIES 262144u
// a 2 MiB ring: entry j holds the address of entry (1029 j + 7777) mod 2^18
extern "C" __global__ void vring_link(unsigned long long *ring)
{
    const unsigned long long base = __cvta_generic_to_global(ring);
    const unsigned stride = gridDim.x * blockDim.x;
#pragma unroll 4
    for (unsigned j = blockIdx.x * blockDim.x + threadIdx.x; j < ENTRIES; j += stride)
        ring[j] = base + 8ull * ((j * 1029u + 7777u) & (ENTRIES - 1u));
}
// `hops` dependent loads from a hashed entry (32 lines a warp load)
extern "C" __global__ void vring_walk(const unsigned long long *ring, int hops, unsigned *out)
{
    const unsigned long long base = __cvta_generic_to_global(ring);
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long p = base + 8ull * ((g * 2654435761u) & (ENTRIES - 1u));
#pragma unroll 8
    for (int h = 0; h < hops; h++)
        asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
    out[g] = (unsigned)((p - base) >> 3);
}
#define BODY(code) asm volatile("{\\n\\t" code "\\n\\t}" : "+r"(x), "+r"(y))
// a switch on (key + i) & 7 each iteration, key = lane & (ways - 1):
// `ways` cases live in every warp each iteration (1: uniform)
extern "C" __global__ void vswitch(unsigned *out, int iters, unsigned ways)
{
    unsigned t = threadIdx.x;
    unsigned key = t & 31u & (ways - 1u);
    unsigned x = t * 0x9E3779B9u + 0x243F6A88u, y = t ^ 0x85A308D3u;
    for (int i = 0; i < iters; i++) {
        switch ((key + (unsigned)i) & 7u) {'''


def vary_case():
    """Kernels of the kind of the golden timing_barriers, timing_divergence
    and timing_occupancy_sweep at parameters those never measured: block
    sizes and blocks an SM for barriers, the number of live switch cases
    and the block size for divergence, warps an SM for dependent L2 loads."""
    c = Case('mb_vary', 'barrier rounds at 1..32 warps a block and 1..4 blocks an SM; a per-iteration switch with 1..8 live cases; dependent L2 loads at 2..32 warps an SM')
    c.src.append(VARY_SRC)
    for j, b in enumerate(VARY_SWITCH_BODIES):
        c.src.append('        %s: BODY("%s");\n                break;' % ('default' if j == 7 else 'case %d' % j, b))
    c.src.append('        }\n    }\n    out[blockIdx.x * blockDim.x + t] = x ^ y;\n}')
    c.buf('out', 264 * 1024 * 4)
    c.buf('ring', 2097152)
    for block, pairs in ((32, 2000), (64, 1000), (128, 1000), (256, 1000), (512, 1000)):
        c.launch('vbar_loop', 1, block, [('ptr', 'out'), ('s32', pairs)])
    c.launch('vbar_loop', 132, 256, [('ptr', 'out'), ('s32', 500)])
    c.launch('vbar_loop', 264, 512, [('ptr', 'out'), ('s32', 250)])
    c.launch('vbar_loop', 528, 256, [('ptr', 'out'), ('s32', 250)])
    for block in (32, 256, 1024):
        c.launch('vbar_only', 1, block, [('ptr', 'out'), ('s32', 2000)])
    for block, ways in ((1024, 1), (1024, 2), (1024, 4), (256, 8), (32, 8), (32, 2)):
        c.launch('vswitch', 1, block, [('ptr', 'out'), ('s32', 400 if block > 32 else 2000), ('u32', ways)])
    c.launch('vring_link', 256, 256, [('ptr', 'ring')])
    for grid, block in ((132, 64), (132, 256), (132, 1024), (264, 512), (66, 512)):
        c.launch('vring_walk', grid, block, [('ptr', 'ring'), ('s32', 64), ('ptr', 'out')])
    return c


VARY2_SRC = r'''// streaming reads of 128 KiB tiles, 16 independent 16-byte loads a thread
// in flight four ahead of their folds (as the golden timing_bandwidth)
#define BW_THREADS 512
#define STRIDE_B (BW_THREADS * 16)
#define TILE_V4 (BW_THREADS * 16)
#define LD(k) asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4+%5];" : "=r"(v##k.x), "=r"(v##k.y), "=r"(v##k.z), "=r"(v##k.w) : "l"(p), "n"((k) * STRIDE_B))
#define FOLD(k) do { asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(a) : "r"(v##k.x), "r"(v##k.y)); \
                     asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(b) : "r"(v##k.z), "r"(v##k.w)); } while (0)
extern "C" __global__ void vbw_fill(unsigned *buf, unsigned pages)
{
    unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < pages) buf[1024ull * j + (j * 37u & 1023u)] = j * 2654435761u + 0x3C6EF372u;
}
extern "C" __global__ void __launch_bounds__(BW_THREADS) vbw_read(const uint4 *buf, int tiles, unsigned *out)
{
    unsigned long long p = __cvta_generic_to_global(buf + (size_t)blockIdx.x * TILE_V4 + threadIdx.x);
    const unsigned long long step = 16ull * TILE_V4 * gridDim.x;
    unsigned a = 0, b = 0;
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        uint4 v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15;
        LD(0); LD(1); LD(2); LD(3);
        LD(4); FOLD(0); LD(5); FOLD(1); LD(6); FOLD(2); LD(7); FOLD(3);
        LD(8); FOLD(4); LD(9); FOLD(5); LD(10); FOLD(6); LD(11); FOLD(7);
        LD(12); FOLD(8); LD(13); FOLD(9); LD(14); FOLD(10); LD(15); FOLD(11);
        FOLD(12); FOLD(13); FOLD(14); FOLD(15);
        p += step;
    }
    out[blockIdx.x * BW_THREADS + threadIdx.x] = a ^ (b * 3u);
}
// every thread's reps atomicAdds (results unused) into word 32 * (lane & mask)
extern "C" __global__ void vatom_lanes(unsigned *ctr, int reps, unsigned mask)
{
    unsigned v = (threadIdx.x & 15u) + 1u;
    unsigned *mine = ctr + 32u * (threadIdx.x & mask);
    for (int i = 0; i < reps; i++) atomicAdd(mine, v + (unsigned)i);
}'''


def vary2_case():
    """Kernels of the kind of the golden timing_bandwidth and
    timing_atomic_contention at parameters those never measured."""
    c = Case('mb_vary2', 'streaming 16-byte reads from 4 to 264 blocks of 512 threads; global atomics of every lane on 2..16 words, 1 word from 33 SMs')
    c.src.append(VARY2_SRC)
    c.buf('data', 50331648)
    c.buf('out', 264 * 512 * 4)
    c.buf('ctr', 4096)
    c.launch('vbw_fill', 48, 256, [('ptr', 'data'), ('u32', 12288)])
    for grid, tiles in ((4, 48), (16, 96), (33, 198), (66, 384), (264, 384)):
        c.launch('vbw_read', grid, 512, [('ptr', 'data'), ('s32', tiles), ('ptr', 'out')])
    for mask in (1, 3, 7, 15):
        c.launch('vatom_lanes', 132, 256, [('ptr', 'ctr'), ('s32', 50), ('u32', mask)])
    c.launch('vatom_lanes', 33, 256, [('ptr', 'ctr'), ('s32', 50), ('u32', 0)])
    c.launch('vatom_lanes', 132, 64, [('ptr', 'ctr'), ('s32', 50), ('u32', 31)])
    return c


VARY3_SRC = r"""// the golden timing kernels' kinds at parameters they never measured:
// special functions, f64 and integer chains, FMA chains, mma.sync chains at
// 1..32 warps; dependent shared loads of 1..1024 threads with 1..32-way bank
// conflicts; L1, L2 and DRAM chases of 1..1024 threads; bank strides; empty
// grids of many blocks
#include <cuda_fp16.h>
#define FMA(x, a, b) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b))
#define DFMA(x, a, b) asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x) : "d"(a), "d"(b))
extern "C" __global__ void v3_sfu(float *out, int iters)
{
    float x = 0.25f + 0.046875f * (float)(threadIdx.x & 31u);
#pragma unroll 4
    for (int i = 0; i < iters; i++) {
        asm volatile("sin.approx.ftz.f32 %0, %0;" : "+f"(x));
        asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
extern "C" __global__ void v3_rcp(float *out, int iters)
{
    float x = 0.5f + 0.046875f * (float)(threadIdx.x & 31u), y = x + 0.25f;
#pragma unroll 4
    for (int i = 0; i < iters; i++) {
        asm volatile("rcp.approx.ftz.f32 %0, %0;" : "+f"(x));
        asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));
        asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(y));
        asm volatile("lg2.approx.ftz.f32 %0, %0;" : "+f"(y));
        asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(y));
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x + y;
}
extern "C" __global__ void v3_dfma(double *out, int iters, double a, double b)
{
    double x = 1.0 + 0.125 * (double)(threadIdx.x & 31u);
#pragma unroll 8
    for (int i = 0; i < iters; i++)
        DFMA(x, a, b);
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}"""

VARY3_INT_SRC = r"""extern "C" __global__ void v3_int(unsigned *out, int iters, unsigned m, unsigned k)
{
    unsigned x = threadIdx.x * 0x9E3779B9u + 0x7F4A7C15u;
#pragma unroll 4
    for (int i = 0; i < iters; i++) {
        unsigned t;
        asm volatile("mul.lo.u32 %0, %0, %1;" : "+r"(x) : "r"(m));
        asm volatile("shf.l.wrap.b32 %0, %1, %1, 13;" : "=r"(t) : "r"(x));
        asm volatile("lop3.b32 %0, %1, %0, %2, 0x96;" : "+r"(x) : "r"(t), "r"(k));
        asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(i));
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}"""

VARY3_SHARED_SRC = r"""// a full-period permutation of 2^k nodes (i -> 5i + 1): the chase visits every node
#define NODES 4096
extern "C" __global__ void v3_smem_chase(int steps, unsigned chasers, unsigned spread, unsigned *out)
{
    __shared__ unsigned node[NODES];
    const unsigned base = (unsigned)__cvta_generic_to_shared(node);
    for (unsigned i = threadIdx.x; i < NODES; i += blockDim.x)
        node[i] = base + 4u * ((5u * i + 1u) & (NODES - 1u));
    __syncthreads();
    if (threadIdx.x >= chasers)
        return;
    unsigned a = base + 4u * ((threadIdx.x * spread) & (NODES - 1u)), sum = 0;
#pragma unroll 4
    for (int s = 0; s < steps; s++) {
        asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
        sum += a;
    }
    out[threadIdx.x] = (a - base) + sum;
}
extern "C" __global__ void v3_bank(unsigned *out, int iters, int stride)
{
    __shared__ unsigned s[NODES];
    for (unsigned i = threadIdx.x; i < NODES; i += blockDim.x)
        s[i] = i * 0x9E3779B1u + 0x85EBCA77u;
    __syncthreads();
    unsigned lane = threadIdx.x & 31u;
    unsigned addr = (unsigned)__cvta_generic_to_shared(s) + 4u * ((lane * (unsigned)stride) & 1023u);
    unsigned a = 0, b = 0;
#pragma unroll 4
    for (int i = 0; i < iters; i++) {
        unsigned v, w;
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
        asm volatile("ld.shared.u32 %0, [%1+4096];" : "=r"(w) : "r"(addr));
        a += v;
        b += w;
        addr += 4u;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + 3u * b;
}
// nodes 128 bytes apart (stride 8 words: 16 per line at stride 1) or a line each
extern "C" __global__ void v3_link(unsigned long long *node, unsigned nodes, unsigned words)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nodes)
        node[(size_t)i * words] = __cvta_generic_to_global(node + (size_t)((5u * i + 1u) & (nodes - 1u)) * words);
}
// a chase through L1 (.ca) or L2 (.cg) by the first `chasers` threads, each
// from its own node; the block first reads every node (warm = 1)"""

VARY3_MMA_SRC = r"""__device__ __forceinline__ unsigned h2(unsigned lo, unsigned hi)
{
    __half2 v = __halves2half2(__uint2half_rn(lo), __uint2half_rn(hi));
    return *reinterpret_cast<unsigned *>(&v);
}
#define MMA(c, b0, b1)                                                                   \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "                    \
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                 \
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                        \
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1))
extern "C" __global__ void v3_mma2(float *out, int iters)
{
    unsigned l = threadIdx.x & 31u;
    unsigned a0 = h2(l & 1u, (l >> 1) & 1u), a1 = h2(((l >> 2) & 1u) + 1u, l & 1u);
    unsigned a2 = h2((l >> 3) & 1u, 1u), a3 = h2(2u, ((l >> 4) & 1u) * 2u);
    unsigned b00 = h2(1u, l & 1u), b01 = h2((l >> 1) & 1u, 2u), b10 = h2(2u, (l >> 2) & 1u), b11 = h2((l & 1u) * 2u, 0u);
    float c0[4] = {0.f, 0.f, 0.f, 0.f}, c1[4] = {1.f, 1.f, 1.f, 1.f};
#pragma unroll 2
    for (int i = 0; i < iters; i++) {
        MMA(c0, b00, b01);
        MMA(c1, b10, b11);
    }
    float *o = out + 8 * (blockIdx.x * blockDim.x + threadIdx.x);
#pragma unroll
    for (int r = 0; r < 4; r++) { o[r] = c0[r]; o[4 + r] = c1[r]; }
}
extern "C" __global__ void v3_empty() {}
extern "C" __global__ void v3_mark(unsigned *out)
{
    if (threadIdx.x == 0)
        out[blockIdx.x] = blockIdx.x + 1u;
}"""


def chains_src(name, ty, fma, unroll, offsets):
    """n independent chains of `fma` (FMA or DFMA) a thread, x0 = t and
    x1.. = t + each offset, summed at the end."""
    lit = 'f' if ty == 'float' else ''
    xs = ['x0 = t'] + ['x%d = t + %s%s' % (i + 1, o, lit) for i, o in enumerate(offsets)]
    n = len(offsets) + 1
    return '''extern "C" __global__ void %s(%s *out, int iters, %s a, %s b)
{
    %s t = (%s)(threadIdx.x & 31u), %s;
#pragma unroll %d
    for (int i = 0; i < iters; i++) {
        %s
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = %s;
}''' % (name, ty, ty, ty, ty, ty, ', '.join(xs), unroll, ' '.join('%s(x%d, a, b);' % (fma, i) for i in range(n)),
            ' + '.join('x%d' % i for i in range(n)))


def chase_src(name, cop, start):
    """A chase with ld.global.<cop> by the first `chasers` threads, each from
    its own node (start: its index before the mask); the block first reads
    every node (warm = 1)."""
    return r"""extern "C" __global__ void %(name)s(const unsigned long long *node, unsigned nodes, unsigned words, int steps,
                                       unsigned chasers, unsigned warm, unsigned *out)
{
    const unsigned long long base = __cvta_generic_to_global(node);
    unsigned w = 0;
    if (warm)
        for (unsigned i = threadIdx.x; i < nodes; i += blockDim.x) {
            unsigned long long v;
            asm volatile("ld.global.%(cop)s.u64 %%0, [%%1];" : "=l"(v) : "l"(base + 8ull * words * i));
            w += (unsigned)v;
        }
    __syncthreads();
    if (threadIdx.x >= chasers) { out[blockIdx.x * blockDim.x + threadIdx.x] = w; return; }
    unsigned long long p = base + 8ull * words * ((%(start)s) & (nodes - 1u));
    unsigned sum = 0;
#pragma unroll 4
    for (int s = 0; s < steps; s++) {
        asm volatile("ld.global.%(cop)s.u64 %%0, [%%0];" : "+l"(p));
        sum += (unsigned)p;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum + w + (unsigned)(p - base);
}""" % dict(name=name, cop=cop, start=start)


def launch_wave_case():
    """When blocks start and end on an SM: each block's thread 0 records
    %clock64, %smid and %globaltimer at its start, then spins; 4..32 blocks
    an SM at once, and grids of short blocks that take turns in slots."""
    c = Case('mb_blocks', 'block starts and retires: 4..32 blocks an SM spinning 20000 cycles; 20 and 8 short blocks an SM, 2 of 1024 threads at once')
    c.src.append('''// when each block starts on its SM: clock64, %smid, %globaltimer of thread 0
extern "C" __global__ void bstart(unsigned long long *rec, long long spin)
{
    long long t = clock64();
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    unsigned long long g;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
    if (threadIdx.x == 0) {
        rec[3 * blockIdx.x] = (unsigned long long)t;
        rec[3 * blockIdx.x + 1] = smid;
        rec[3 * blockIdx.x + 2] = g;
    }
    while (clock64() - t < spin) ;
}''')
    cfg = ((1056, 256, 20000), (528, 128, 20000), (2640, 64, 0), (4224, 64, 20000), (1056, 1024, 0), (264, 32, 0))
    for i, (g, b, spin) in enumerate(cfg):
        c.buf('r%d' % i, g * 24)
    for i, (g, b, spin) in enumerate(cfg):
        c.launch('bstart', g, b, [('ptr', 'r%d' % i), ('s64', spin)])
    return c


def vary3_case():
    """Kernels of the kind of the golden timing_sfu, timing_dp,
    timing_int_mix, timing_fma_occupancy, timing_fma_ilp,
    timing_smem_latency, timing_bank_conflicts, timing_l1_latency,
    timing_l2_latency, timing_dram_latency, timing_mma_throughput and
    timing_launch_overhead at parameters those never measured."""
    c = Case('mb_vary3', 'special function, f64, integer, FMA and mma.sync chains at 1..32 warps; dependent shared loads of 1..1024 threads with 1..32-way conflicts; L1/L2/DRAM chases of 1..1024 threads; bank strides; grids of empty blocks')
    c.src += [VARY3_SRC, chains_src('v3_dfma4', 'double', 'DFMA', 4, ['0.25', '0.5', '0.75']), VARY3_INT_SRC,
              chains_src('v3_fma4', 'float', 'FMA', 8, ['0.25', '0.5', '0.75']), chains_src('v3_fma2', 'float', 'FMA', 8, ['0.5']),
              chains_src('v3_fma6', 'float', 'FMA', 4, ['0.125', '0.25', '0.375', '0.5', '0.625']), VARY3_SHARED_SRC]
    c.src += [chase_src('v3_chase_ca', 'ca', 'threadIdx.x * 37u'),
              chase_src('v3_chase_cg', 'cg', 'threadIdx.x * 37u + blockIdx.x * 4099u'), VARY3_MMA_SRC]
    c.buf('out', 264 * 1024 * 8 * 4)
    c.buf('small', 1 << 20)
    c.buf('big', 256 << 20)
    a, b = f32(0.99995), f32(0.005)
    for block, iters in ((64, 4000), (256, 2000), (1024, 500)):
        c.launch('v3_sfu', 1, block, [('ptr', 'out'), ('s32', iters)])
    c.launch('v3_rcp', 1, 32, [('ptr', 'out'), ('s32', 4000)])
    c.launch('v3_rcp', 132, 512, [('ptr', 'out'), ('s32', 500)])
    da, db = '0x3fefff972474538f', '0x3f747ae147ae147b'
    for block, iters in ((128, 4000), (512, 2000), (1024, 1000)):
        c.launch('v3_dfma', 1, block, [('ptr', 'out'), ('s32', iters), ('f64', da), ('f64', db)])
    c.launch('v3_dfma4', 1, 32, [('ptr', 'out'), ('s32', 5000), ('f64', da), ('f64', db)])
    c.launch('v3_dfma4', 1, 256, [('ptr', 'out'), ('s32', 1000), ('f64', da), ('f64', db)])
    for block, iters in ((128, 20000), (1024, 4000)):
        c.launch('v3_int', 1, block, [('ptr', 'out'), ('s32', iters), ('u32', 739982445), ('u32', 1540483477)])
    for block, iters in ((64, 5000), (256, 5000), (1024, 2000)):
        c.launch('v3_fma4', 1, block, [('ptr', 'out'), ('s32', iters), ('f32', a), ('f32', b)])
    c.launch('v3_fma4', 264, 1024, [('ptr', 'out'), ('s32', 1000), ('f32', a), ('f32', b)])
    c.launch('v3_fma2', 1, 32, [('ptr', 'out'), ('s32', 20000), ('f32', a), ('f32', b)])
    c.launch('v3_fma2', 1, 256, [('ptr', 'out'), ('s32', 10000), ('f32', a), ('f32', b)])
    c.launch('v3_fma6', 1, 32, [('ptr', 'out'), ('s32', 10000), ('f32', a), ('f32', b)])
    c.launch('v3_fma6', 1, 128, [('ptr', 'out'), ('s32', 5000), ('f32', a), ('f32', b)])
    for block, chasers, spread, steps in ((128, 32, 1, 20000), (128, 32, 2, 10000), (128, 32, 8, 5000), (128, 32, 32, 2000),
                                          (128, 128, 1, 10000), (1024, 1024, 1, 2000), (1024, 1024, 4, 1000)):
        c.launch('v3_smem_chase', 1, block, [('s32', steps), ('u32', chasers), ('u32', spread), ('ptr', 'out')])
    for block, stride in ((128, 1), (128, 2), (1024, 3), (1024, 4), (1024, 8), (1024, 16), (256, 32), (1024, 33)):
        c.launch('v3_bank', 1, block, [('ptr', 'out'), ('s32', 500), ('s32', stride)])
    # L1: 2048 nodes of a line each (256 KiB would not fit with 4096), 16 a line
    c.launch('v3_link', 8, 256, [('ptr', 'small'), ('u32', 1024), ('u32', 16)])
    for chasers, steps in ((1, 20000), (8, 5000), (32, 2000)):
        c.launch('v3_chase_ca', 1, 256, [('ptr', 'small'), ('u32', 1024), ('u32', 16), ('s32', steps), ('u32', chasers), ('u32', 1), ('ptr', 'out')])
    c.launch('v3_link', 32, 256, [('ptr', 'small'), ('u32', 8192), ('u32', 1)])
    for chasers, steps in ((1, 20000), (32, 4000), (256, 2000)):
        c.launch('v3_chase_ca', 1, 256, [('ptr', 'small'), ('u32', 8192), ('u32', 1), ('s32', steps), ('u32', chasers), ('u32', 1), ('ptr', 'out')])
    # L2: 32768 lines (4 MiB); DRAM: 2 M lines (256 MiB), cold
    c.launch('v3_link', 128, 256, [('ptr', 'big'), ('u32', 32768), ('u32', 16)])
    for grid, block, chasers, steps in ((1, 1024, 1, 4000), (1, 1024, 32, 1000), (1, 1024, 256, 500), (1, 1024, 1024, 200), (132, 256, 64, 200)):
        c.launch('v3_chase_cg', grid, block, [('ptr', 'big'), ('u32', 32768), ('u32', 16), ('s32', steps), ('u32', chasers), ('u32', 1), ('ptr', 'out')])
    c.launch('v3_link', 8192, 256, [('ptr', 'big'), ('u32', 2097152), ('u32', 16)])
    for grid, block, chasers, steps in ((1, 32, 1, 1000), (1, 32, 32, 300), (1, 256, 256, 100), (132, 64, 64, 100)):
        c.launch('v3_chase_cg', grid, block, [('ptr', 'big'), ('u32', 2097152), ('u32', 16), ('s32', steps), ('u32', chasers), ('u32', 0), ('ptr', 'out')])
    for block, iters in ((32, 5000), (256, 2000), (512, 1000), (1024, 500)):
        c.launch('v3_mma2', 1, block, [('ptr', 'out'), ('s32', iters)])
    for grid, block in ((528, 128), (2640, 64), (1056, 1024)):
        c.launch('v3_empty', grid, block, [])
    c.launch('v3_mark', 1056, 256, [('ptr', 'out')])
    return c

if __name__ == '__main__':
    for mk in (pipe_case, cvt_case, alu_case, smem_case, atomic_case, atomic_sweep_case, atomic_load_case, mma_case, div_case, stack_case, cluster_case, mem_case, store_case,
               launch_case, l1_case, l1_reuse_case, fuse_case, l1_width_case, l2_dirty_case, same_store_case, gather_case, rmw_case, rmw_where_case, rmw_line_case, rmw_grid_case,
               flag_case, ldc_case, writeback_case, mio_case, sreg_case, mix_case, drain_case, bulk_case, loop_case, vary_case, vary2_case, vary3_case, launch_wave_case):
        mk().write()
