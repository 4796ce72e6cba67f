// Barriers (bar.red.popc/and/or, named barriers via asm, bar.arrive),
// memory fences, clocks and special registers, __nanosleep, printf
// (vprintf call), assert (__assertfail), device malloc/free, __trap.
#include <stdio.h>
#include <assert.h>
#include <stdint.h>

extern "C" __global__ void barrier_reductions(const int *a, int *out)
{
    int x = a[blockIdx.x * blockDim.x + threadIdx.x];
    int cnt = __syncthreads_count(x > 0);
    int all = __syncthreads_and(x != 0);
    int any = __syncthreads_or(x < 0);
    out[blockIdx.x * blockDim.x + threadIdx.x] = cnt + 1000 * all + 2000 * any;
}

// producer/consumer warps with named barriers: warps 0-1 produce into
// shared memory, warps 2-3 consume.
extern "C" __global__ void named_barriers(const float *in, float *out)
{
    __shared__ float buf[64];
    int t = threadIdx.x;
    if (t < 64) {
        buf[t] = in[blockIdx.x * 64 + t] * 2.0f;
        asm volatile("bar.arrive 1, 128;" ::: "memory");
    } else {
        asm volatile("bar.sync 1, 128;" ::: "memory");
        out[blockIdx.x * 64 + (t - 64)] = buf[t - 64] + 1.0f;
    }
    asm volatile("barrier.sync 2;" ::: "memory");
    unsigned cnt;
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 3, p; }"
                 : "=r"(cnt) : "r"(t & 1));
    asm volatile("{ .reg .pred p, q; setp.gt.u32 p, %0, 3; bar.red.or.pred q, 4, 128, p; }"
                 :: "r"(t));
    asm volatile("barrier.sync.aligned 5, %0;" :: "r"(blockDim.x) : "memory");
    if (t == 0)
        out[gridDim.x * 64 + blockIdx.x] = (float)cnt;
}

extern "C" __global__ void fences(volatile int *data, volatile int *flag, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t == 0) {
        data[0] = 42;
        __threadfence();
        flag[0] = 1;
        __threadfence_block();
        data[1] = 43;
        __threadfence_system();
        flag[1] = 1;
    } else if (t == 32) {
        while (flag[0] == 0)
            __nanosleep(100);
        __threadfence();
        out[0] = data[0];
    }
    asm volatile("membar.cta;" ::: "memory");
    asm volatile("membar.gl;" ::: "memory");
    asm volatile("membar.sys;" ::: "memory");
    asm volatile("fence.sc.cta;" ::: "memory");
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

extern "C" __global__ void clocks_and_sregs(unsigned long long *o64, unsigned *o32)
{
    long long start = clock64();
    unsigned c32 = (unsigned)clock();
    unsigned smid, nsmid, warpid, nwarpid, laneid, gridid_lo;
    unsigned long long gt, gridid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwarpid));
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(laneid));
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(gridid));
    asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(gridid_lo));
    unsigned dyn, tot, env0;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(tot));
    asm volatile("mov.u32 %0, %%envreg0;" : "=r"(env0));
    unsigned pm;
    asm volatile("mov.u32 %0, %%pm0;" : "=r"(pm));
    __nanosleep(1000);
    long long end = clock64();
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    o64[3 * t] = end - start;
    o64[3 * t + 1] = gt ^ gridid;
    o64[3 * t + 2] = (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
    o32[8 * t] = c32;
    o32[8 * t + 1] = smid + nsmid;
    o32[8 * t + 2] = warpid + nwarpid;
    o32[8 * t + 3] = laneid ^ gridid_lo;
    o32[8 * t + 4] = dyn + tot + env0 + pm;
    o32[8 * t + 5] = blockIdx.x + blockIdx.y * 65536 + blockIdx.z;
    o32[8 * t + 6] = threadIdx.x | (threadIdx.y << 10) | (threadIdx.z << 20);
    o32[8 * t + 7] = blockDim.x * blockDim.y * blockDim.z;
}

struct Item {
    int id;
    float w;
    char name[8];
};

extern "C" __global__ void printf_assert(const int *a, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int v = a[t];
    printf("thread %d value %d hex %08x float %f double %e char %c str %s\n",
           t, v, (unsigned)v, (float)v * 0.5f, (double)v * 0.25, 'A' + (v & 15), "hi");
    printf("ptr %p ll %lld ull %llu\n", (void *)a, (long long)v << 33,
           (unsigned long long)t * 1000000007ull);
    if (t == 0)
        printf("no args\n");
    assert(v >= 0);
    assert(v != 12345 && "magic value");
}

extern "C" __global__ void heap(int n, int **slots, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc(n * sizeof(int));
    if (!p) {
        out[t] = -1;
        return;
    }
    for (int i = 0; i < n; i++)
        p[i] = i * t;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    out[t] = s;
    Item *it = (Item *)malloc(sizeof(Item));
    it->id = t;
    it->w = (float)s;
    memcpy(it->name, "abcdefg", 8);
    memset(p, 0, n * sizeof(int));
    out[t] += it->name[t & 7] + it->id;
    slots[t] = p;
    __syncthreads();
    free(slots[t ^ 1]);
    free(it);
}

extern "C" __global__ void traps(const int *a, int *o)
{
    int v = a[threadIdx.x];
    if (v == -1)
        __trap();
    if (v == -2)
        __brkpt();
    if (v == -3)
        asm volatile("pmevent 1;");
    if (v == -4)
        asm volatile("pmevent.mask 0x3;");
    if (v == -5)
        asm volatile("exit;");
    o[threadIdx.x] = v;
}
