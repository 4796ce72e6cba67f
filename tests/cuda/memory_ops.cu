// memory_ops: the other ways to allocate, copy and set memory - pitched 2-D
// allocations with cudaMemcpy2D, cudaMemcpyDefault (direction from the
// pointers), device-to-device copies, cudaMemset on part of a buffer,
// stream-ordered cudaMallocAsync/cudaFreeAsync, cudaMalloc3D/cudaMemcpy3D and
// cudaMemset3DAsync.
#include <cstring>
#include "common.h"

__global__ void add_rows(float *p, size_t pitch, int w, int h) {  // p[y][x] += y
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) ((float *)((char *)p + y * pitch))[x] += (float)y;
}

int main() {
  // 1. pitched 2-D: host rows of 37 floats -> device pitch -> back
  const int w = 37, h = 11;
  float hsrc[h][w], hdst[h][w];
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) hsrc[y][x] = (float)(x + 100 * y);
  float *dp;
  size_t pitch = 0;
  CK(cudaMallocPitch(&dp, &pitch, w * sizeof(float), h));
  expect(pitch >= w * sizeof(float), "pitch holds a row");
  CK(cudaMemcpy2D(dp, pitch, hsrc, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  add_rows<<<dim3(1, h), 64>>>(dp, pitch, w, h);
  CK(cudaGetLastError());
  CK(cudaMemcpy2D(hdst, w * sizeof(float), dp, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) bad += hdst[y][x] != hsrc[y][x] + y;
  expect(bad == 0, "cudaMallocPitch + cudaMemcpy2D round trip");
  printf("memory_ops: pitched %dx%d round trip ok\n", w, h);

  // 2. cudaMemcpyDefault both ways, device-to-device, partial cudaMemset
  const int n = 1024;
  int hi[n], ho[n], *a, *b;
  for (int i = 0; i < n; i++) hi[i] = i * 3;
  CK(cudaMalloc(&a, n * sizeof(int)));
  CK(cudaMalloc(&b, n * sizeof(int)));
  CK(cudaMemcpy(a, hi, sizeof hi, cudaMemcpyDefault));
  CK(cudaMemcpy(b, a, sizeof hi, cudaMemcpyDeviceToDevice));
  CK(cudaMemset(b + 100, 0xff, 50 * sizeof(int)));  // ints 100..149 become -1
  CK(cudaMemcpy(ho, b, sizeof ho, cudaMemcpyDefault));
  bad = 0;
  for (int i = 0; i < n; i++) bad += ho[i] != (i >= 100 && i < 150 ? -1 : i * 3);
  expect(bad == 0, "cudaMemcpyDefault, device-to-device copy, partial memset");
  printf("memory_ops: cudaMemcpyDefault, device-to-device, cudaMemset of 50 ints ok\n");

  // 3. stream-ordered allocation: allocate, fill, copy out, free in one stream
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  int *tmp = nullptr;
  CK(cudaMallocAsync(&tmp, n * sizeof(int), s));
  CK(cudaMemcpyAsync(tmp, a, n * sizeof(int), cudaMemcpyDeviceToDevice, s));
  CK(cudaMemsetAsync(tmp, 0, 10 * sizeof(int), s));
  CK(cudaMemcpyAsync(ho, tmp, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CK(cudaFreeAsync(tmp, s));
  CK(cudaStreamSynchronize(s));
  bad = 0;
  for (int i = 0; i < n; i++) bad += ho[i] != (i < 10 ? 0 : i * 3);
  expect(bad == 0, "cudaMallocAsync / cudaFreeAsync in stream order");
  printf("memory_ops: cudaMallocAsync, copies, cudaFreeAsync in one stream ok\n");

  // 4. 3-D: a 5x4x3 block of ints through cudaMalloc3D and cudaMemcpy3D
  const int X = 5, Y = 4, Z = 3;
  int h3[Z][Y][X], r3[Z][Y][X];
  for (int z = 0; z < Z; z++)
    for (int y = 0; y < Y; y++)
      for (int x = 0; x < X; x++) h3[z][y][x] = x + 10 * y + 100 * z;
  cudaExtent ext = make_cudaExtent(X * sizeof(int), Y, Z);
  cudaPitchedPtr d3;
  CK(cudaMalloc3D(&d3, ext));
  cudaMemcpy3DParms up = {};
  up.srcPtr = make_cudaPitchedPtr(h3, X * sizeof(int), X, Y);
  up.dstPtr = d3;
  up.extent = ext;
  up.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&up));
  memset(r3, 0, sizeof r3);
  cudaMemcpy3DParms down = {};
  down.srcPtr = d3;
  down.dstPtr = make_cudaPitchedPtr(r3, X * sizeof(int), X, Y);
  down.extent = ext;
  down.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&down));
  expect(memcmp(h3, r3, sizeof h3) == 0, "cudaMemcpy3D round trip");
  printf("memory_ops: cudaMalloc3D + cudaMemcpy3D %dx%dx%d round trip ok\n", X, Y, Z);

  // 5. cudaMemset3DAsync: bytes 1..2 of each row of slices 1..2 set to 0x7f
  //    in the stream, the rest kept
  cudaPitchedPtr inner = d3;
  inner.ptr = (char *)d3.ptr + 1 + d3.pitch * d3.ysize;
  CK(cudaMemset3DAsync(inner, 0x7f, make_cudaExtent(2, Y, Z - 1), s));
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy3D(&down));
  int wrong = 0;
  for (int z = 0; z < Z; z++)
    for (int y = 0; y < Y; y++)
      for (int x = 0; x < X; x++) {
        int want = h3[z][y][x];
        if (z >= 1 && x == 0) { unsigned char *bytes = (unsigned char *)&want; bytes[1] = bytes[2] = 0x7f; }
        wrong += r3[z][y][x] != want;
      }
  expect(wrong == 0, "cudaMemset3DAsync of a sub-block");
  printf("memory_ops: cudaMemset3DAsync of a 2x%dx%d sub-block ok\n", Y, Z - 1);

  CK(cudaStreamDestroy(s));
  CK(cudaFree(dp)); CK(cudaFree(a)); CK(cudaFree(b)); CK(cudaFree(d3.ptr));
  if (failures) return 1;
  printf("memory_ops: ok\n");
  return 0;
}
