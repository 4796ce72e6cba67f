// vecadd: c[i] = a[i] + b[i]. Regenerate vecadd.ptx with
//   nvcc -ptx -arch=sm_90 -O3 -o vecadd.ptx vecadd.cu
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
