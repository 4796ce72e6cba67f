// count.ptx is written by hand with these lines (tests/check_debug.sh)
__device__ unsigned total;
__device__ unsigned slots[8];

extern "C" __global__ void count(unsigned n) {
  if (threadIdx.x < n) {
    unsigned old = atomicAdd(&total, 1);
    slots[threadIdx.x] = old;
  }
}
