// Device memory is backed as it is touched: allocate GB (argv[1], default
// 40) and write MB (argv[2], default 1) of it, then print the process's
// peak resident memory (VmHWM), which is what the run cost the host.
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void touch(char *p, size_t bytes) {
  size_t stride = (size_t)gridDim.x * blockDim.x * 64;
  for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * 64; i < bytes; i += stride) p[i] = 1;
}

static long vm_hwm_kib() {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0) kib = atol(line + 6);
  if (f) fclose(f);
  return kib;
}

int main(int argc, char **argv) {
  size_t gb = argc > 1 ? strtoull(argv[1], 0, 10) : 40, mb = argc > 2 ? strtoull(argv[2], 0, 10) : 1;
  char *d;
  cudaError_t e = cudaMalloc(&d, gb << 30);
  if (e) { printf("cudaMalloc of %zu GB: %s\n", gb, cudaGetErrorString(e)); return 1; }
  touch<<<64, 256>>>(d + (gb << 29), mb << 20);
  e = cudaDeviceSynchronize();
  if (e) { printf("kernel: %s\n", cudaGetErrorString(e)); return 2; }
  char h = 0;
  cudaMemcpy(&h, d + (gb << 29), 1, cudaMemcpyDeviceToHost);
  printf("allocated %zu GB, touched %zu MB (value %d), peak host memory %.1f MiB\n", gb, mb, h, vm_hwm_kib() / 1024.0);
  return h == 1 ? 0 : 3;
}
