// textures: texture objects over a cudaArray (cudaMallocArray,
// cudaMemcpy2DToArray) read with tex2D - point filtering with clamped
// unnormalized coordinates, linear filtering with normalized coordinates and
// wrapping - and over linear memory read with tex1Dfetch.
#include <cmath>
#include "common.h"

#define W 16
#define H 8

__global__ void sample2d(cudaTextureObject_t t, const float2 *coords, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, coords[i].x, coords[i].y);
}
__global__ void fetch1d(cudaTextureObject_t t, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, n - 1 - i);
}

static float img[H][W];
static float at(int x, int y, bool wrap) {  // texel with the address mode
  if (wrap) { x = ((x % W) + W) % W; y = ((y % H) + H) % H; }
  else { x = x < 0 ? 0 : x >= W ? W - 1 : x; y = y < 0 ? 0 : y >= H ? H - 1 : y; }
  return img[y][x];
}
static float bilinear(float x, float y, bool wrap) {  // x, y in texel units
  float fx = x - 0.5f, fy = y - 0.5f;
  int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
  float a = fx - x0, b = fy - y0;
  return (1 - a) * (1 - b) * at(x0, y0, wrap) + a * (1 - b) * at(x0 + 1, y0, wrap) +
         (1 - a) * b * at(x0, y0 + 1, wrap) + a * b * at(x0 + 1, y0 + 1, wrap);
}

static cudaTextureObject_t make_tex(cudaArray_t arr, cudaTextureFilterMode f,
                                    cudaTextureAddressMode m, int normalized) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = m;
  td.filterMode = f;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = normalized;
  cudaTextureObject_t t;
  CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

int main() {
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) img[y][x] = (float)(x * 4 + y * 64);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CK(cudaMallocArray(&arr, &cd, W, H));
  CK(cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H,
                         cudaMemcpyHostToDevice));

  // sample points: texel centres, quarter offsets (exact in the hardware's
  // 8-bit filter weights) and points outside the image
  const int n = 8;
  float2 pts[n] = {{0.5f, 0.5f}, {3.5f, 2.5f}, {3.75f, 2.25f}, {10.25f, 6.5f},
                   {-3.0f, 1.5f}, {20.0f, 9.0f}, {15.75f, 7.75f}, {0.25f, 4.5f}};
  float2 *dpts, npts[n];
  float *dout, out[n];
  CK(cudaMalloc(&dpts, sizeof pts));
  CK(cudaMalloc(&dout, sizeof out));
  int bad = 0;
  for (int mode = 0; mode < 2; mode++) {
    bool linear = mode == 1;  // point+clamp+unnormalized, or linear+wrap+normalized
    cudaTextureObject_t t = make_tex(arr, linear ? cudaFilterModeLinear : cudaFilterModePoint,
                                     linear ? cudaAddressModeWrap : cudaAddressModeClamp, linear);
    for (int i = 0; i < n; i++) npts[i] = linear ? make_float2(pts[i].x / W, pts[i].y / H) : pts[i];
    CK(cudaMemcpy(dpts, npts, sizeof npts, cudaMemcpyHostToDevice));
    sample2d<<<1, n>>>(t, dpts, dout, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      float want = linear ? bilinear(pts[i].x, pts[i].y, true)
                          : at((int)floorf(pts[i].x), (int)floorf(pts[i].y), false);
      if (fabsf(out[i] - want) > 1e-3f * (1 + fabsf(want))) {
        printf("textures: %s sample %d (%g, %g) = %g, expected %g\n", linear ? "linear" : "point",
               i, pts[i].x, pts[i].y, out[i], want);
        bad++;
      }
    }
    CK(cudaDestroyTextureObject(t));
    printf("textures: tex2D %s filtering, %s coordinates: %d samples\n",
           linear ? "linear" : "point", linear ? "normalized wrapped" : "clamped", n);
  }

  // tex1Dfetch over linear device memory (integer elements, reversed)
  const int m = 300;
  int hbuf[m], hres[m], *dbuf, *dres;
  for (int i = 0; i < m; i++) hbuf[i] = i * 3 + 1;
  CK(cudaMalloc(&dbuf, sizeof hbuf));
  CK(cudaMalloc(&dres, sizeof hres));
  CK(cudaMemcpy(dbuf, hbuf, sizeof hbuf, cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeLinear;
  rd.res.linear.devPtr = dbuf;
  rd.res.linear.desc = cudaCreateChannelDesc<int>();
  rd.res.linear.sizeInBytes = sizeof hbuf;
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t1;
  CK(cudaCreateTextureObject(&t1, &rd, &td, nullptr));
  fetch1d<<<(m + 127) / 128, 128>>>(t1, dres, m);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hres, dres, sizeof hres, cudaMemcpyDeviceToHost));
  for (int i = 0; i < m; i++)
    if (hres[i] != hbuf[m - 1 - i]) bad++;
  printf("textures: tex1Dfetch over linear memory: %d elements\n", m);
  CK(cudaDestroyTextureObject(t1));
  CK(cudaFreeArray(arr));
  cudaFree(dpts); cudaFree(dout); cudaFree(dbuf); cudaFree(dres);
  if (bad) {
    printf("textures: %d wrong\n", bad);
    return 1;
  }
  printf("textures: ok\n");
  return 0;
}
