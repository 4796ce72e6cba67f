// A block-wide sum in shared memory (tests/check_debug.sh debugs it).
// Rebuild: nvcc -arch=sm_90 -ptx -lineinfo reduce.cu -o reduce.ptx
extern "C" __device__ __noinline__ int square(int v) {
  return v * v;
}

extern "C" __global__ void reduce(const int *in, int *out, int n) {
  __shared__ int buf[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  if (t % 2)
    v = square(v);
  buf[t] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}
