// Inline-asm tensor core instructions: mma.sync in many shapes/types,
// ldmatrix (x1/x2/x4, .trans), stmatrix (sm_90), movmatrix, mma.sp
// (sparse). Each block is guarded by the architecture that introduced it.
#include <stdint.h>
#include <cuda_fp16.h>

__device__ __forceinline__ uint32_t smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

extern "C" __global__ void mma_f16_tiles(const half *A, const half *B, float *C)
{
    __shared__ __align__(16) half sA[16 * 16];
    __shared__ __align__(16) half sB[16 * 16];
    int lane = threadIdx.x & 31;
    for (int i = lane; i < 256; i += 32) {
        sA[i] = A[i];
        sB[i] = B[i];
    }
    __syncwarp();
    uint32_t a[4], b[2], bt[4];
    uint32_t a1, a2[2];
    // ldmatrix (sm_75)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(smem_addr(&sA[(lane % 16) * 16 + (lane / 16) * 8])));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(b[0]), "=r"(b[1])
                 : "r"(smem_addr(&sB[(lane % 16) * 16])));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                 : "=r"(a1) : "r"(smem_addr(&sA[(lane % 8) * 16])));
    asm volatile("ldmatrix.sync.aligned.x2.m8n8.shared.b16 {%0, %1}, [%2];"
                 : "=r"(a2[0]), "=r"(a2[1]) : "r"(smem_addr(&sA[(lane % 16) * 16 + 8])));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(bt[0]), "=r"(bt[1]), "=r"(bt[2]), "=r"(bt[3])
                 : "r"(smem_addr(&sB[(lane % 16) * 16 + (lane / 16) * 8])));
    float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // m16n8k8 f16 -> f32 (sm_75)
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]));
    // m16n8k8 f16 -> f16
    uint32_t h[2] = {0, 0};
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 "
                 "{%0, %1}, {%2, %3}, {%4}, {%0, %1};"
                 : "+r"(h[0]), "+r"(h[1])
                 : "r"(a[2]), "r"(a[3]), "r"(b[1]));
    // m8n8k4 f16 (sm_70 style, quad-pair)
    float e[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, "
                 "{%0, %1, %2, %3, %4, %5, %6, %7};"
                 : "+f"(e[0]), "+f"(e[1]), "+f"(e[2]), "+f"(e[3]),
                   "+f"(e[4]), "+f"(e[5]), "+f"(e[6]), "+f"(e[7])
                 : "r"(a1), "r"(a2[0]), "r"(a2[1]), "r"(bt[0]));
    // m8n8k16 s8 (sm_75)
    int ii[2] = {0, 0};
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 "
                 "{%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+r"(ii[0]), "+r"(ii[1]) : "r"(a[0]), "r"(b[0]));
    // m8n8k32 s4 satfinite (sm_75)
    asm volatile("mma.sync.aligned.m8n8k32.row.col.satfinite.s32.s4.u4.s32 "
                 "{%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+r"(ii[0]), "+r"(ii[1]) : "r"(a[1]), "r"(b[1]));
    // m8n8k128 b1 xor popc (sm_75)
    asm volatile("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc "
                 "{%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+r"(ii[0]), "+r"(ii[1]) : "r"(a[2]), "r"(b[0]));
    // movmatrix (sm_75, PTX 7.8)
    uint32_t mv;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(mv) : "r"(a[0]));
    float *out = C + lane * 24;
    for (int k = 0; k < 4; k++)
        out[k] = d[k];
    for (int k = 0; k < 8; k++)
        out[4 + k] = e[k];
    out[12] = __int_as_float(h[0]);
    out[13] = __int_as_float(h[1]);
    out[14] = (float)ii[0];
    out[15] = (float)ii[1];
    out[16] = __int_as_float(mv);
    out[17] = __int_as_float(bt[2] ^ bt[3]);
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
extern "C" __global__ void mma_ampere(const uint32_t *A, const uint32_t *B, float *C,
                                      double *D, int *I)
{
    int lane = threadIdx.x & 31;
    uint32_t a0 = A[lane], a1 = A[lane + 32], a2 = A[lane + 64], a3 = A[lane + 96];
    uint32_t b0 = B[lane], b1 = B[lane + 32];
    float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // m16n8k16 f16
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    // m16n8k16 bf16
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    // m16n8k8 tf32
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    // m16n8k4 tf32
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 "
                 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(b0));
    // m8n8k4 f64
    double d[2] = {0.0, 0.0};
    double da = __hiloint2double(a0, a1), db = __hiloint2double(b0, b1);
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
                 "{%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(d[0]), "+d"(d[1]) : "d"(da), "d"(db));
    // m16n8k32 s8 satfinite
    int s[4] = {0, 0, 0, 0};
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    // m16n8k256 b1 and.popc
    asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    // sparse m16n8k32 f16 with metadata
    asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, 0x0;"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(a0), "r"(b0),
                   "r"(a3));
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, 0x1;"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(b0), "r"(b1), "r"(a2));
    for (int k = 0; k < 4; k++) {
        C[lane * 4 + k] = c[k];
        I[lane * 4 + k] = s[k];
    }
    D[lane * 2] = d[0];
    D[lane * 2 + 1] = d[1];
}
#endif

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 890
extern "C" __global__ void mma_fp8(const uint32_t *A, const uint32_t *B, float *C)
{
    int lane = threadIdx.x & 31;
    float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(A[lane]), "r"(A[lane + 32]), "r"(A[lane + 64]), "r"(A[lane + 96]),
                   "r"(B[lane]), "r"(B[lane + 32]));
    for (int k = 0; k < 4; k++)
        C[lane * 4 + k] = c[k];
}
#endif

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
extern "C" __global__ void stmatrix_hopper(const uint32_t *in, half *out)
{
    __shared__ __align__(16) half tile[16 * 16];
    int lane = threadIdx.x & 31;
    uint32_t r0 = in[lane], r1 = in[lane + 32], r2 = in[lane + 64], r3 = in[lane + 96];
    uint32_t addr = smem_addr(&tile[(lane % 16) * 16 + (lane / 16) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(addr), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
    __syncwarp();
    asm volatile("stmatrix.sync.aligned.x2.trans.m8n8.shared.b16 [%0], {%1, %2};"
                 :: "r"(addr), "r"(r2), "r"(r3) : "memory");
    asm volatile("stmatrix.sync.aligned.x1.m8n8.shared::cta.b16 [%0], {%1};"
                 :: "r"(addr), "r"(r0) : "memory");
    __syncwarp();
    for (int i = lane; i < 256; i += 32)
        out[i] = tile[i];
}
#endif
