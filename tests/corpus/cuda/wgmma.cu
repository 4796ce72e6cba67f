// sm_90a only: warpgroup MMA (wgmma.mma_async with shared-memory matrix
// descriptors and with register A operands), wgmma.fence / commit_group /
// wait_group, setmaxnreg, TMA tensor copies through a __grid_constant__
// CUtensorMap parameter (cp.async.bulk.tensor + mbarrier complete_tx),
// tensormap prefetch, fence.proxy.async.
#include <cuda.h>
#include <cuda_fp16.h>
#include <stdint.h>

#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)

__device__ __forceinline__ uint64_t make_desc(const void *smem, uint32_t lbo, uint32_t sbo)
{
    uint64_t addr = (uint64_t)__cvta_generic_to_shared(smem);
    uint64_t d = 0;
    d |= (addr & 0x3FFFF) >> 4;
    d |= (uint64_t)((lbo & 0x3FFFF) >> 4) << 16;
    d |= (uint64_t)((sbo & 0x3FFFF) >> 4) << 32;
    d |= (uint64_t)1 << 62;   // 128B swizzle
    return d;
}

extern "C" __global__ void __launch_bounds__(128) wgmma_f16(const half *A, const half *B,
                                                           float *D)
{
    __shared__ __align__(1024) half sA[64 * 16];
    __shared__ __align__(1024) half sB[16 * 8];
    int t = threadIdx.x;
    for (int i = t; i < 64 * 16; i += 128)
        sA[i] = A[i];
    for (int i = t; i < 16 * 8; i += 128)
        sB[i] = B[i];
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t da = make_desc(sA, 128, 256);
    uint64_t db = make_desc(sB, 128, 256);
    float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
                 "{%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "l"(da), "l"(db), "r"(0));
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
                 "{%0, %1, %2, %3}, %4, %5, p, -1, 1, 0, 1;\n}"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "l"(da), "l"(db), "r"(1));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int k = 0; k < 4; k++)
        D[t * 4 + k] = d[k];
}

extern "C" __global__ void __launch_bounds__(128) wgmma_reg_a(const uint32_t *A, const half *B,
                                                             float *D, int *I)
{
    __shared__ __align__(1024) half sB[32 * 16];
    int t = threadIdx.x;
    for (int i = t; i < 32 * 16; i += 128)
        sB[i] = B[i];
    __syncthreads();
    uint64_t db = make_desc(sB, 128, 256);
    uint32_t a0 = A[t], a1 = A[t + 128], a2 = A[t + 256], a3 = A[t + 384];
    float d[8];
    for (int k = 0; k < 8; k++)
        d[k] = 0.0f;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %13, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p, 1, 1, 1;\n}"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]),
                   "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(db), "r"(1));
    int s[4] = {0, 0, 0, 0};
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8.satfinite "
                 "{%0, %1, %2, %3}, %4, %5, p;\n}"
                 : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
                 : "l"(db), "l"(db), "r"(0));
    float e[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3}, %4, %5, p, 1, 1;\n}"
                 : "+f"(e[0]), "+f"(e[1]), "+f"(e[2]), "+f"(e[3])
                 : "l"(db), "l"(db), "r"(0));
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 "
                 "{%0, %1, %2, %3}, %4, %5, p, 1, 1;\n}"
                 : "+f"(e[0]), "+f"(e[1]), "+f"(e[2]), "+f"(e[3])
                 : "l"(db), "l"(db), "r"(1));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int k = 0; k < 8; k++)
        D[t * 12 + k] = d[k];
    for (int k = 0; k < 4; k++) {
        D[t * 12 + 8 + k] = e[k];
        I[t * 4 + k] = s[k];
    }
}

extern "C" __global__ void __launch_bounds__(384, 1) warp_specialized(float *out)
{
    // producer warpgroup gives registers away, consumers take more
    int wg = threadIdx.x / 128;
    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        out[threadIdx.x] = 1.0f;
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        out[threadIdx.x] = 2.0f;
    }
}

extern "C" __global__ void tma_load(const __grid_constant__ CUtensorMap tmap, float *out,
                                    int x0, int y0)
{
    __shared__ __align__(128) float tile[32 * 32];
    __shared__ __align__(8) uint64_t bar;
    uint32_t sbar = (uint32_t)__cvta_generic_to_shared(&bar);
    uint32_t stile = (uint32_t)__cvta_generic_to_shared(tile);
    if (threadIdx.x == 0) {
        asm volatile("prefetch.tensormap [%0];" :: "l"(&tmap) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sbar));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     :: "r"(sbar), "r"(32 * 32 * 4) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(stile), "l"(&tmap), "r"(x0), "r"(y0), "r"(sbar) : "memory");
    }
    asm volatile("{\n\t.reg .pred done;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n\t"
                 "@!done bra LAB_WAIT;\n}" :: "r"(sbar) : "memory");
    out[threadIdx.x] = tile[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                     :: "l"(&tmap), "r"(x0 + 32), "r"(y0), "r"(stile) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
}

#endif
