// Atomics of every operation and type, all scopes (_block/_system), on global
// and shared memory, plus cuda::atomic_ref with explicit memory orders
// (ld.acquire / st.release / atom.acq_rel / fence.sc ...).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>

extern "C" __global__ void atomic_int_ops(int *gi, unsigned *gu, unsigned long long *gull,
                                          long long *gll, int *old, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int r = 0;
    r += atomicAdd(&gi[0], t);
    r += atomicSub(&gi[1], t);
    r += atomicExch(&gi[2], t);
    r += atomicMin(&gi[3], t - n);
    r += atomicMax(&gi[4], t);
    r += atomicAnd(&gi[5], ~t);
    r += atomicOr(&gi[6], 1 << (t & 31));
    r += atomicXor(&gi[7], t * 0x9e3779b9);
    r += atomicCAS(&gi[8], t - 1, t);
    r += (int)atomicAdd(&gu[0], (unsigned)t);
    r += (int)atomicInc(&gu[1], 100u);
    r += (int)atomicDec(&gu[2], 100u);
    r += (int)atomicMin(&gu[3], (unsigned)t);
    r += (int)atomicMax(&gu[4], (unsigned)t);
    r += (int)atomicExch(&gu[5], (unsigned)t);
    r += (int)atomicCAS(&gu[6], 0u, (unsigned)t);
    r += (int)atomicAdd(&gull[0], (unsigned long long)t);
    r += (int)atomicExch(&gull[1], (unsigned long long)t << 33);
    r += (int)atomicCAS(&gull[2], 0ull, (unsigned long long)t);
    r += (int)atomicMin(&gull[3], (unsigned long long)t);
    r += (int)atomicMax(&gull[4], (unsigned long long)t);
    r += (int)atomicAnd(&gull[5], ~(unsigned long long)t);
    r += (int)atomicOr(&gull[6], 1ull << (t & 63));
    r += (int)atomicXor(&gull[7], (unsigned long long)t * 0x9e3779b97f4a7c15ull);
    r += (int)atomicMin(&gll[0], (long long)t - n);
    r += (int)atomicMax(&gll[1], (long long)t - n);
    old[t] = r;
    // result unused -> red.global.*
    atomicAdd(&gi[9], 1);
    atomicOr(&gu[7], 2u);
    atomicMax(&gll[2], (long long)t);
    atomicAdd(&gull[8], 5ull);
    asm volatile("red.global.add.u32 [%0], %1;" :: "l"(&gu[8]), "r"(t) : "memory");
    asm volatile("red.release.sys.global.or.b64 [%0], %1;" :: "l"(&gull[9]), "l"((unsigned long long)t) : "memory");
    asm volatile("red.relaxed.cta.global.min.s32 [%0], %1;" :: "l"(&gi[10]), "r"(t) : "memory");
    asm volatile("red.global.inc.u32 [%0], 99;" :: "l"(&gu[9]) : "memory");
}

extern "C" __global__ void atomic_float_ops(float *gf, double *gd, __half2 *gh2, __half *gh,
                                            __nv_bfloat16 *gb, __nv_bfloat162 *gb2,
                                            float *old)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float r = atomicAdd(&gf[0], (float)t);
    r += (float)atomicAdd(&gd[0], (double)t * 0.5);
    r += atomicExch(&gf[1], (float)t);
    __half2 h2 = atomicAdd(gh2, __floats2half2_rn((float)t, 1.0f));
    r += __low2float(h2) + __high2float(h2);
#if __CUDA_ARCH__ >= 700
    r += __half2float(atomicAdd(gh, __float2half((float)t)));
#endif
#if __CUDA_ARCH__ >= 800
    r += __bfloat162float(atomicAdd(gb, __float2bfloat16((float)t)));
    __nv_bfloat162 b2 = atomicAdd(gb2, __floats2bfloat162_rn(1.0f, (float)t));
    r += __low2float(b2);
#endif
#if __CUDA_ARCH__ >= 900
    // sm_90 vector atomics: atom.global.v2.f32.add / atom.global.v4.f32.add
    float2 o2 = atomicAdd((float2 *)&gf[8], make_float2(1.0f, (float)t));
    float4 o4 = atomicAdd((float4 *)&gf[12], make_float4(1.0f, 2.0f, 3.0f, (float)t));
    r += o2.x + o2.y + o4.x + o4.w;
#endif
    old[t] = r;
    atomicAdd(&gf[4], 1.0f);
    atomicAdd(&gd[2], 1.0);
    // explicit reductions (no result)
    asm volatile("red.global.add.f32 [%0], %1;" :: "l"(&gf[5]), "f"(r) : "memory");
    asm volatile("red.relaxed.gpu.global.add.f64 [%0], %1;" :: "l"(&gd[3]), "d"((double)r) : "memory");
    asm volatile("red.global.add.noftz.f16x2 [%0], %1;" :: "l"(gh2 + 1), "r"(*(unsigned *)&h2) : "memory");
#if __CUDA_ARCH__ >= 900
    asm volatile("red.global.v2.f32.add [%0], {%1, %2};" :: "l"(&gf[16]), "f"(r), "f"(r) : "memory");
#endif
}

extern "C" __global__ void atomic_scopes(int *gi, float *gf, unsigned long long *gull,
                                         int *old)
{
    int t = threadIdx.x;
    int r = 0;
    r += atomicAdd_block(&gi[0], 1);
    r += atomicAdd_system(&gi[1], 1);
    r += atomicCAS_block(&gi[2], 0, t);
    r += atomicCAS_system(&gi[3], 0, t);
    r += atomicExch_system(&gi[4], t);
    r += atomicMin_block(&gi[5], t);
    r += atomicMax_system(&gi[6], t);
    r += atomicAnd_block(&gi[7], t);
    r += atomicOr_system(&gi[8], t);
    r += atomicXor_block(&gi[9], t);
    r += (int)atomicInc_block((unsigned *)&gi[10], 7u);
    r += (int)atomicDec_system((unsigned *)&gi[11], 7u);
    r += (int)atomicAdd_block(&gf[0], 1.0f);
    r += (int)atomicAdd_system(&gf[1], 1.0f);
    r += (int)atomicCAS_system(&gull[0], 0ull, (unsigned long long)t);
    r += (int)atomicAdd_block(&gull[1], 1ull);
    old[t] = r;
}

extern "C" __global__ void atomic_shared(const int *keys, int *hist, int n)
{
    __shared__ int sh[256];
    __shared__ unsigned long long sh64[4];
    __shared__ float shf[4];
    for (int k = threadIdx.x; k < 256; k += blockDim.x)
        sh[k] = 0;
    if (threadIdx.x < 4) {
        sh64[threadIdx.x] = 0;
        shf[threadIdx.x] = 0.0f;
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int k = keys[i];
        atomicAdd(&sh[k & 255], 1);
        atomicMax(&sh[(k >> 8) & 255], k);
        atomicAdd(&sh64[k & 3], (unsigned long long)k);
        atomicAdd(&shf[k & 3], 0.5f);
        atomicCAS(&sh[k & 7], 0, k);
        atomicExch(&sh[(k + 1) & 7], k);
    }
    __syncthreads();
    for (int k = threadIdx.x; k < 256; k += blockDim.x)
        atomicAdd(&hist[k], sh[k]);
    if (threadIdx.x < 4)
        atomicAdd((unsigned long long *)&hist[256 + 2 * threadIdx.x], sh64[threadIdx.x] + (unsigned long long)shf[threadIdx.x]);
}

// CAS loop implementing an atomic multiply on double
__device__ double atomicMulDouble(double *addr, double val)
{
    unsigned long long *p = (unsigned long long *)addr;
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __double_as_longlong(val * __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}

extern "C" __global__ void atomic_cas_loop(double *d, double *out)
{
    out[threadIdx.x] = atomicMulDouble(d, 1.0 + threadIdx.x * 1e-6);
}

extern "C" __global__ void atomic_ref_orders(int *flag, int *data, unsigned long long *cnt,
                                             float *fsum, int *out)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    cuda::atomic_ref<int, cuda::thread_scope_system> d(*data);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> c(*cnt);
    cuda::atomic_ref<float, cuda::thread_scope_device> fs(*fsum);
    int t = threadIdx.x;
    int r = 0;
    if (t == 0) {
        d.store(123, cuda::memory_order_relaxed);
        f.store(1, cuda::memory_order_release);
    } else {
        while (f.load(cuda::memory_order_acquire) == 0)
            ;
        r += d.load(cuda::memory_order_relaxed);
    }
    r += f.fetch_add(1, cuda::memory_order_acq_rel);
    r += f.fetch_sub(1, cuda::memory_order_release);
    r += d.fetch_and(0xff, cuda::memory_order_seq_cst);
    r += d.fetch_or(0x100, cuda::memory_order_acquire);
    r += d.fetch_xor(t, cuda::memory_order_relaxed);
    r += d.fetch_min(t, cuda::memory_order_relaxed);
    r += d.fetch_max(t, cuda::memory_order_seq_cst);
    r += d.exchange(t, cuda::memory_order_acq_rel);
    int expected = 0;
    if (d.compare_exchange_strong(expected, t, cuda::memory_order_acq_rel, cuda::memory_order_acquire))
        r += 1000;
    expected = t;
    d.compare_exchange_weak(expected, t + 1, cuda::memory_order_seq_cst);
    r += expected;
    r += (int)c.fetch_add(1ull, cuda::memory_order_relaxed);
    r += (int)c.load(cuda::memory_order_seq_cst);
    r += (int)fs.fetch_add(1.0f, cuda::memory_order_release);
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_system);
    out[t] = r;
}

extern "C" __global__ void atomic_shared_ref(int *out)
{
    __shared__ int s;
    if (threadIdx.x == 0)
        s = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> a(s);
    a.fetch_add(threadIdx.x, cuda::memory_order_relaxed);
    __syncthreads();
    out[threadIdx.x] = a.load(cuda::memory_order_acquire);
}
