// tests/threads/threads.cu - kernels for tests/check_threads.sh: the answer
// of every launch must not depend on --threads.  Independent blocks run in
// parallel; racing and order-dependent ones must give the sequential answer.
// nvcc -arch=sm_90 -ptx threads.cu -o threads.ptx
#include <cstdio>

// independent: each block its own slice (the parallel path)
extern "C" __global__ void saxpy(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// per-block results in adjacent words (false sharing of 64-byte chunks)
extern "C" __global__ void block_sums(const int *x, int *out) {
  __shared__ int s[128];
  s[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

// inter-block races: every block writes the same words, and reads what the
// previous block wrote
extern "C" __global__ void race(int *shared_word, int *out) {
  if (threadIdx.x == 0) {
    int seen = shared_word[blockIdx.x % 4];
    shared_word[(blockIdx.x + 1) % 4] = seen * 3 + blockIdx.x;
    out[blockIdx.x] = seen;
  }
}

// adjacent words: each block writes its own and reads its neighbour's
// (a dependency inside a chunk that blocks share granule by granule)
extern "C" __global__ void neighbours(int *w, int *seen) {
  if (threadIdx.x == 0) {
    w[blockIdx.x] = blockIdx.x + 1;
    seen[blockIdx.x] = w[blockIdx.x ^ 1];
  }
}

// float atomics: the sum depends on the order of the additions
extern "C" __global__ void float_atomics(const float *x, float *sum) {
  atomicAdd(sum, x[blockIdx.x * blockDim.x + threadIdx.x]);
}

// atomics whose results are used: the ticket order is the execution order
extern "C" __global__ void tickets(unsigned *counter, unsigned *order) {
  if (threadIdx.x == 0) {
    unsigned t = atomicAdd(counter, 1u);
    order[t] = blockIdx.x;
  }
}

// commutative integer reductions with unused results (histogram)
extern "C" __global__ void histogram(const unsigned *x, unsigned *bins, unsigned *maxv) {
  unsigned v = x[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(&bins[v % 64], 1u);
  atomicMax(maxv, v);
}

// device printf from many blocks
extern "C" __global__ void hello(int *out) {
  if (threadIdx.x % 32 == 0) printf("block %d warp %d\n", blockIdx.x, threadIdx.x / 32);
  out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x;
}

// printf across many scheduling rounds: warps print between loops of
// different lengths, so blocks' lines interleave as the window runs them
extern "C" __global__ void chatty(int *out) {
  int warp = threadIdx.x / 32, acc = 0;
  int reps = (blockIdx.x * 7 + warp * 3) % 5 + 1;
  for (int r = 0; r < reps; r++) {
    for (int k = 0; k < 300 * ((blockIdx.x + r) % 4 + 1); k++) acc = acc * 3 + k;
    if (threadIdx.x % 32 == 0) printf("block %d warp %d step %d\n", blockIdx.x, warp, r);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// a fault in a late block: block `bad` writes far out of bounds
extern "C" __global__ void late_fault(int *out, int bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
  if (blockIdx.x == bad && threadIdx.x == 5) out[i + (1 << 26)] = 1;
}

// a block that waits for the previous one through memory (a flag)
extern "C" __global__ void chain(volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x > 0) while (flag[blockIdx.x - 1] == 0) { }
    out[blockIdx.x] = blockIdx.x * 10;
    __threadfence();
    flag[blockIdx.x] = 1;
  }
}

// clusters: each block reads its peer's shared memory (distributed shared memory)
extern "C" __global__ void __cluster_dims__(2, 1, 1) pairs(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = blockIdx.x * 100 + threadIdx.x;
  unsigned rank, peer_addr;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("barrier.cluster.arrive; barrier.cluster.wait;");
  unsigned local = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(peer_addr) : "r"(local), "r"(rank ^ 1));
  int v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(peer_addr));
  asm volatile("barrier.cluster.arrive; barrier.cluster.wait;");
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// every block adds to its own words, and the last block reads the first
// block's: a conflict found after most blocks have written, so the
// sequential run must start from memory as it was (every page put back,
// those of zeros and the others)
extern "C" __global__ void undo(int *acc, int *zacc, int *late) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  acc[i] += i + 1;
  zacc[i] += 2 * i + 1;
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) late[0] = acc[0] + zacc[0];
}
