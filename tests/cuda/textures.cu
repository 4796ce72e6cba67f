// textures: texture objects over a cudaArray (cudaMallocArray,
// cudaMemcpy2DToArray) read with tex2D - point filtering with clamped
// unnormalized coordinates, linear filtering with normalized coordinates and
// wrapping - over linear memory read with tex1Dfetch, and over a 3-D array
// filled and read back with cudaMemcpy3D (positions in elements) and read
// with tex3D at texel centres.
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

__global__ void sample3d(cudaTextureObject_t t, float *out, int nx, int ny, int nz) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
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

  // a 5 x 4 x 3 array of float2 from a pitched host block (7 x 6 x 5
  // elements, 8-byte elements), copied in at position (1, 2, 1) of the
  // block and back out to (2, 1, 0) of another; tex3D reads each texel
  enum { AX = 5, AY = 4, AZ = 3, BX = 7, BY = 6, BZ = 5 };
  static float2 block[BZ][BY][BX], back[BZ][BY][BX];
  for (int z = 0; z < BZ; z++) for (int y = 0; y < BY; y++) for (int x = 0; x < BX; x++)
    block[z][y][x] = make_float2(100.0f * z + 10.0f * y + x, -1.0f - x);
  cudaArray_t a3;
  cudaChannelFormatDesc f2 = cudaCreateChannelDesc<float2>();
  CK(cudaMalloc3DArray(&a3, &f2, make_cudaExtent(AX, AY, AZ)));
  cudaMemcpy3DParms in = {};
  in.srcPtr = make_cudaPitchedPtr(block, BX * sizeof(float2), BX, BY);
  in.srcPos = make_cudaPos(1, 2, 1);                           // elements, the pointer's too
  in.dstArray = a3;
  in.extent = make_cudaExtent(AX, AY, AZ);                     // elements with an array
  in.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&in));
  cudaMemcpy3DParms back_out = {};
  back_out.srcArray = a3;
  back_out.dstPtr = make_cudaPitchedPtr(back, BX * sizeof(float2), BX, BY);
  back_out.dstPos = make_cudaPos(2, 1, 0);
  back_out.extent = make_cudaExtent(AX, AY, AZ);
  back_out.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&back_out));
  int bad3 = 0;
  for (int z = 0; z < AZ; z++) for (int y = 0; y < AY; y++) for (int x = 0; x < AX; x++) {
    float2 want = block[z + 1][y + 2][x + 1], got = back[z][y + 1][x + 2];
    if (want.x != got.x || want.y != got.y) bad3++;
  }
  cudaMemcpy3DParms over = in;                                 // past the array's depth
  over.extent = make_cudaExtent(AX, AY, AZ + 1);
  if (cudaMemcpy3D(&over) != cudaErrorInvalidValue) bad3++;
  over = back_out;                                             // past the host block's rows
  over.dstPos = make_cudaPos(3, 1, 0);
  if (cudaMemcpy3D(&over) != cudaErrorInvalidValue) bad3++;
  cudaGetLastError();
  cudaResourceDesc r3 = {};
  r3.resType = cudaResourceTypeArray;
  r3.res.array.array = a3;
  cudaTextureDesc d3 = {};
  d3.readMode = cudaReadModeElementType;
  cudaTextureObject_t t3;
  CK(cudaCreateTextureObject(&t3, &r3, &d3, nullptr));
  float *d3out, h3out[AX * AY * AZ];
  CK(cudaMalloc(&d3out, sizeof h3out));
  sample3d<<<AZ, dim3(AX, AY)>>>(t3, d3out, AX, AY, AZ);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h3out, d3out, sizeof h3out, cudaMemcpyDeviceToHost));
  for (int z = 0; z < AZ; z++) for (int y = 0; y < AY; y++) for (int x = 0; x < AX; x++)
    if (h3out[(z * AY + y) * AX + x] != block[z + 1][y + 2][x + 1].x) bad3++;
  printf("textures: cudaMemcpy3D into and out of a 3-D array, tex3D: %d wrong\n", bad3);
  bad += bad3;
  CK(cudaDestroyTextureObject(t3));
  CK(cudaFreeArray(a3));
  cudaFree(d3out);

  // 1-D and array-to-array copies: 48 ints into a 16 x 3 array in a
  // stream, 2 rows of 8 ints from it into a second array, the first 20 ints
  // of that back; the texture object's descriptors as created
  int lin[48], back1[48], part[20];
  for (int i = 0; i < 48; i++) lin[i] = 1000 + i;
  cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
  cudaArray_t la, lb;
  CK(cudaMallocArray(&la, &ci, 16, 3));
  CK(cudaMallocArray(&lb, &ci, 16, 3));
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  CK(cudaMemcpyToArrayAsync(la, 0, 0, lin, sizeof lin, cudaMemcpyHostToDevice, st));
  CK(cudaMemcpyFromArrayAsync(back1, la, 0, 0, sizeof back1, cudaMemcpyDeviceToHost, st));
  CK(cudaStreamSynchronize(st));
  int bad1 = memcmp(lin, back1, sizeof lin) != 0;
  CK(cudaMemcpyArrayToArray(lb, 0, 0, la, 0, 0, sizeof lin, cudaMemcpyDeviceToDevice));
  CK(cudaMemcpy2DArrayToArray(lb, 4 * sizeof(int), 1, la, 2 * sizeof(int), 0, 8 * sizeof(int), 2, cudaMemcpyDeviceToDevice));
  CK(cudaMemcpyFromArray(part, lb, 0, 1, sizeof part, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 20; i++) {
    int x = i % 16, y = 1 + i / 16;                      // row 1 on, from lb
    int want = x >= 4 && x < 12 ? lin[(y - 1) * 16 + x - 2] : lin[y * 16 + x];
    bad1 += part[i] != want;
  }
  if (cudaMemcpy2DArrayToArray(lb, 12 * sizeof(int), 0, la, 0, 0, 8 * sizeof(int), 1, cudaMemcpyDeviceToDevice) !=
      cudaErrorInvalidValue) bad1++;                      // past lb's row
  cudaGetLastError();
  cudaResourceDesc rdq = {};
  rdq.resType = cudaResourceTypeArray;
  rdq.res.array.array = la;
  cudaTextureDesc tdq = {};
  tdq.addressMode[0] = cudaAddressModeWrap;
  tdq.normalizedCoords = 1;
  cudaTextureObject_t tq;
  CK(cudaCreateTextureObject(&tq, &rdq, &tdq, nullptr));
  cudaResourceDesc rdg;
  cudaTextureDesc tdg;
  CK(cudaGetTextureObjectResourceDesc(&rdg, tq));
  CK(cudaGetTextureObjectTextureDesc(&tdg, tq));
  if (rdg.resType != cudaResourceTypeArray || rdg.res.array.array != la || tdg.addressMode[0] != cudaAddressModeWrap ||
      tdg.normalizedCoords != 1) bad1++;
  printf("textures: cudaMemcpyTo/FromArrayAsync, cudaMemcpyArrayToArray, cudaMemcpy2DArrayToArray, the texture's descriptors: %d wrong\n", bad1);
  bad += bad1;
  CK(cudaDestroyTextureObject(tq));
  CK(cudaStreamDestroy(st));
  CK(cudaFreeArray(la));
  CK(cudaFreeArray(lb));
  CK(cudaFreeArray(arr));
  cudaFree(dpts); cudaFree(dout); cudaFree(dbuf); cudaFree(dres);
  if (bad) {
    printf("textures: %d wrong\n", bad);
    return 1;
  }
  printf("textures: ok\n");
  return 0;
}
