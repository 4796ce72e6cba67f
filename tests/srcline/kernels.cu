// Kernels of the CUDA-source-line tests (tests/check_srcline.sh).
// kernels.ptx was made with
//   nvcc -ptx -arch=sm_90 -lineinfo kernels.cu -o kernels.ptx
// on another machine (its .file path does not exist here).
namespace lab {

// out[i] = in[i] * N; reads past the end of in when n is too large
template <int N, typename T>
__global__ void scale(T *out, const T *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    T v = in[i];
    out[i] = v * N;
  }
}

template __global__ void scale<3, float>(float *, const float *, int);

}  // namespace lab

// The two warps of a block wait at different named barriers (1 and 2),
// each for all 64 threads: neither barrier ever completes.
__global__ void crossed_barriers(int *out) {
  if (threadIdx.x < 32)
    asm volatile("bar.sync 1, 64;");
  else
    asm volatile("bar.sync 2, 64;");
  out[threadIdx.x] = 1;
}
