// Thread block clusters (sm_90): __cluster_dims__ (.reqnctapercluster /
// .explicitcluster), cluster special registers, distributed shared memory via
// cluster.map_shared_rank (mapa.shared::cluster + ld/st/atom .shared::cluster),
// barrier.cluster.arrive/wait, fence.acq_rel.cluster, getctarank,
// elect.sync, griddepcontrol (programmatic dependent launch), redux/
// multimem-free cluster reductions.
#include <cooperative_groups.h>
#include <cuda/ptx>
#include <stdint.h>

namespace cg = cooperative_groups;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900

extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_histogram(const int *in, int *out,
                                                                       int n, int bins_per_cta)
{
    extern __shared__ int smem[];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    unsigned csize = cluster.num_blocks();
    for (int i = threadIdx.x; i < bins_per_cta; i += blockDim.x)
        smem[i] = 0;
    cluster.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int bin = in[i] % (bins_per_cta * (int)csize);
        unsigned dst = bin / bins_per_cta;
        int *remote = cluster.map_shared_rank(smem, dst);
        atomicAdd(remote + bin % bins_per_cta, 1);
    }
    cluster.sync();
    int *peer = cluster.map_shared_rank(smem, (rank + 1) % csize);
    for (int i = threadIdx.x; i < bins_per_cta; i += blockDim.x)
        atomicAdd(&out[rank * bins_per_cta + i], smem[i] + (peer[i] & 0));
    cluster.sync();
}

extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_sregs(unsigned *out)
{
    cg::cluster_group cluster = cg::this_cluster();
    dim3 bi = cluster.block_index();
    dim3 dims = cluster.dim_blocks();
    unsigned ctarank, nctarank, clusterid_x, nclusterid_x, cluster_ctaid_y, is_explicit;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(ctarank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nctarank));
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(clusterid_x));
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(nclusterid_x));
    asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(cluster_ctaid_y));
    asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }"
        : "=r"(is_explicit));
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[8 * t + 0] = bi.x + bi.y + bi.z;
    out[8 * t + 1] = dims.x * dims.y * dims.z;
    out[8 * t + 2] = ctarank;
    out[8 * t + 3] = nctarank;
    out[8 * t + 4] = clusterid_x;
    out[8 * t + 5] = nclusterid_x;
    out[8 * t + 6] = cluster_ctaid_y;
    out[8 * t + 7] = is_explicit;
}

extern "C" __global__ void __cluster_dims__(2, 2, 1) dsmem_raw(int *out)
{
    __shared__ int val;
    __shared__ uint64_t flag;
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    if (threadIdx.x == 0)
        val = (int)rank * 100;
    // split arrive/wait cluster barrier
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    uint32_t local = (uint32_t)__cvta_generic_to_shared(&val);
    uint32_t remote;
    unsigned peer = rank ^ 1;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(peer));
    int v;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote) : "memory");
    asm volatile("atom.shared::cluster.add.u32 %0, [%1], 1;" : "=r"(v) : "r"(remote) : "memory");
    uint64_t gen_remote;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(gen_remote) : "l"(&val), "r"(peer));
    unsigned owner;
    asm volatile("getctarank.u64 %0, %1;" : "=r"(owner) : "l"(gen_remote));
    unsigned owner2;
    asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(owner2) : "r"(remote));
    unsigned in_cluster;
    asm volatile("{ .reg .pred p; isspacep.shared::cluster p, %1; selp.u32 %0, 1, 0, p; }"
                 : "=r"(in_cluster) : "l"(gen_remote));
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];"
                 :: "r"(remote), "r"(v), "r"((uint32_t)__cvta_generic_to_shared(&flag)) : "memory");
    asm volatile("barrier.cluster.arrive;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");
    unsigned elected = 0, lane_leader;
    asm volatile("{ .reg .pred p; elect.sync %0|p, 0xffffffff; selp.u32 %1, 1, 0, p; }"
                 : "=r"(lane_leader), "=r"(elected));
    out[blockIdx.x * blockDim.x + threadIdx.x] = v + owner + owner2 + in_cluster + elected + lane_leader;
}

extern "C" __global__ void cluster_ptx_wrappers(int *out)
{
    namespace ptx = cuda::ptx;
    __shared__ int data[32];
    data[threadIdx.x & 31] = threadIdx.x;
    ptx::barrier_cluster_arrive();
    ptx::barrier_cluster_wait();
    uint32_t r = ptx::get_sreg_cluster_ctarank();
    uint32_t n = ptx::get_sreg_cluster_nctarank();
    ptx::fence(ptx::sem_acq_rel, ptx::scope_cluster);
    ptx::fence_proxy_async();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[(threadIdx.x + 1) & 31] + r + n;
}

extern "C" __global__ void dependent_launch(const float *in, float *out, int n)
{
    // programmatic dependent launch: griddepcontrol.wait / launch_dependents
    cudaGridDependencySynchronize();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 2.0f;
    cudaTriggerProgrammaticLaunchCompletion();
}

#endif
