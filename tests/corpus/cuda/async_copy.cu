// Asynchronous copies and mbarriers: __pipeline_memcpy_async (cp.async on
// sm_80+, synchronous fallback on sm_75), cuda::memcpy_async with
// cuda::barrier (mbarrier.* + cp.async.mbarrier.arrive), cuda::pipeline,
// raw inline-asm cp.async (ca/cg, zero-fill, commit/wait groups), and
// cuda::ptx mbarrier wrappers (sm_90: expect_tx, try_wait.parity, cluster
// scope), bulk async copies (cp.async.bulk, sm_90).
#include <cuda_pipeline.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/ptx>
#include <cooperative_groups.h>
#include <stdint.h>

namespace cg = cooperative_groups;

extern "C" __global__ void pipeline_primitives(const float4 *in, float4 *out, int tiles)
{
    __shared__ float4 buf[2][128];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&buf[0][t], &in[t], sizeof(float4));
    __pipeline_commit();
    for (int k = 0; k < tiles; k++) {
        if (k + 1 < tiles)
            __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &in[(k + 1) * 128 + t], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float4 v = buf[k & 1][(t + 1) & 127];
        out[k * 128 + t] = make_float4(v.x * 2.0f, v.y, v.z, v.w + 1.0f);
        __syncthreads();
    }
    // 4- and 8-byte copies with zero fill
    __shared__ int small[128];
    __shared__ long long small8[128];
    __pipeline_memcpy_async(&small[t], (const int *)in + t, 4, t & 1 ? 4 : 0);
    __pipeline_memcpy_async(&small8[t], (const long long *)in + t, 8);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    ((int *)out)[tiles * 512 + t] = small[t] + (int)small8[127 - t];
}

extern "C" __global__ void barrier_memcpy_async(const int *in, int *out, int n)
{
    __shared__ int smem[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, smem, in + blockIdx.x * 256, sizeof(int) * 256, bar);
    bar.arrive_and_wait();
    int v = smem[threadIdx.x] * 3;
    auto token = bar.arrive();
    bar.wait(std::move(token));
    out[blockIdx.x * 256 + threadIdx.x] = v;
}

extern "C" __global__ void cuda_pipeline_stages(const float *in, float *out, int batches)
{
    constexpr int stages = 2;
    __shared__ float buf[stages][128];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    for (int b = 0; b < stages && b < batches; b++) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[b], in + b * 128, cuda::aligned_size_t<16>(sizeof(float) * 128), pipe);
        pipe.producer_commit();
    }
    for (int b = 0; b < batches; b++) {
        pipe.consumer_wait();
        float v = buf[b % stages][threadIdx.x];
        pipe.consumer_release();
        out[b * 128 + threadIdx.x] = v * v;
        int nb = b + stages;
        if (nb < batches) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[nb % stages], in + nb * 128,
                               cuda::aligned_size_t<16>(sizeof(float) * 128), pipe);
            pipe.producer_commit();
        }
    }
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
extern "C" __global__ void raw_cp_async(const int4 *in, int4 *out, const int *g4, int *o4)
{
    __shared__ __align__(16) int4 s[128];
    __shared__ __align__(16) int s4[128];
    __shared__ __align__(8) unsigned long long mbar;
    int t = threadIdx.x;
    uint32_t sa = (uint32_t)__cvta_generic_to_shared(&s[t]);
    uint32_t sa4 = (uint32_t)__cvta_generic_to_shared(&s4[t]);
    uint32_t mb = (uint32_t)__cvta_generic_to_shared(&mbar);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(mb), "r"(blockDim.x));
    __syncthreads();
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(sa), "l"(&in[t]) : "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;"
                 :: "r"(sa4), "l"(&g4[t]), "r"(t & 1 ? 4 : 0) : "memory");
    asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 4;"
                 :: "r"(sa4), "l"(&g4[t]) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16, 8;"
                 :: "r"(sa), "l"(&in[t]) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(mb) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(mb) : "memory");
    asm volatile("{\n\t.reg .pred done;\n"
                 "wait_loop:\n\t"
                 "mbarrier.test_wait.shared.b64 done, [%0], %1;\n\t"
                 "@!done bra wait_loop;\n}"
                 :: "r"(mb), "l"(state) : "memory");
    __syncthreads();
    out[t] = s[(t + 1) & 127];
    o4[t] = s4[t];
    if (t == 0)
        asm volatile("mbarrier.inval.shared.b64 [%0];" :: "r"(mb));
}
#endif

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
extern "C" __global__ void hopper_bulk(const int *in, int *out, int bytes)
{
    __shared__ __align__(128) int s[1024];
    __shared__ __align__(8) uint64_t bar;
    namespace ptx = cuda::ptx;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    uint64_t token;
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, in, bytes, &bar);
        token = ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                               ptx::space_shared, &bar, bytes);
    } else {
        token = ptx::mbarrier_arrive(&bar);
    }
    while (!ptx::mbarrier_try_wait(&bar, token))
        ;
    int v = s[threadIdx.x] + 1;
    __syncthreads();
    s[threadIdx.x] = v;
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, s, bytes);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
    // parity wait on a second phase
    if (threadIdx.x == 0)
        ptx::mbarrier_arrive(&bar);
    while (!ptx::mbarrier_try_wait_parity(&bar, 1u))
        ;
}
#endif
