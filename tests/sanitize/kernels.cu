// Kernels for tests/check_sanitize.sh: racy and race-free pairs, and one
// kernel per synccheck and initcheck class.  kernels.ptx is made from this
// file with: nvcc -arch=sm_80 -ptx -lineinfo kernels.cu -o kernels.ptx
#define N 256

// sum of 256 floats; "racy" leaves out the barrier after the loads
extern "C" __global__ void reduce(const float *in, float *out, int racy) {
  __shared__ float s[N];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * N + t];
  if (!racy) __syncthreads();
  for (unsigned k = N / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// tree reduction with barriers down to one warp, then shuffles
extern "C" __global__ void reduce_shfl(const float *in, float *out) {
  __shared__ float s[N];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * N + t];
  __syncthreads();
  for (unsigned k = N / 2; k >= 32; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t < 32) {
    float v = s[t];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (t == 0) out[blockIdx.x] = v;
  }
}

// one lane publishes a value that every warp reads; "racy" overwrites it in
// the next round before the other warps are done reading
extern "C" __global__ void broadcast(const float *in, float *out, int racy) {
  __shared__ float s_val;
  float acc = 0;
  for (int r = 0; r < 4; r++) {
    if (threadIdx.x == 0) s_val = in[r];
    __syncthreads();
    acc += s_val;
    if (!racy) __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// warp-synchronous exchange through shared memory; "racy" leaves out __syncwarp
extern "C" __global__ void warp_exchange(const int *in, int *out, int racy) {
  __shared__ int s[32];
  unsigned l = threadIdx.x & 31;
  s[l] = in[l];
  if (!racy) __syncwarp();
  int v = s[l ^ 1];
  if (!racy) __syncwarp();
  out[threadIdx.x] = v;
}

// shared and global atomics: never a hazard
extern "C" __global__ void histogram(const unsigned *in, unsigned *bins, int n) {
  __shared__ unsigned h[16];
  if (threadIdx.x < 16) h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&h[in[i] & 15], 1u);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// every block reads what the next block writes: a global hazard; with
// "fenced", each block publishes with a fence and an atomic flag
extern "C" __global__ void neighbours(int *data, int *flags, int fenced) {
  unsigned b = blockIdx.x;
  if (threadIdx.x == 0) {
    data[b] = (int)b;
    if (fenced) { __threadfence(); atomicExch(&flags[b], 1); }
  }
  if (!fenced && threadIdx.x == 0) data[gridDim.x + b] = data[(b + 1) % gridDim.x];
}

// __syncthreads() inside a branch that only part of each warp takes
extern "C" __global__ void divergent_barrier(int *out) {
  if (threadIdx.x % 32 < 16) __syncthreads();
  out[threadIdx.x] = 1;
}

// a named barrier whose warps disagree on the thread count
extern "C" __global__ void barrier_counts(int *out) {
  if (threadIdx.x < 32) asm volatile("bar.sync 1, 64;");
  else asm volatile("bar.sync 1, 96;");
  out[threadIdx.x] = 1;
}

// __syncwarp with the full mask after half the warp has returned
extern "C" __global__ void syncwarp_exited(int *out) {
  if (threadIdx.x % 32 >= 16) return;
  __syncwarp();
  out[threadIdx.x] = 1;
}

// reads shared memory past what the block stored
extern "C" __global__ void uninit_shared(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 32];
}

// reads its input: initcheck reports it when nobody wrote it
extern "C" __global__ void copy(const int *in, int *out) { out[threadIdx.x] = in[threadIdx.x]; }
