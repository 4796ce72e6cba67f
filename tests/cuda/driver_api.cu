// driver_api: the CUDA Driver API alone - cuInit, the primary context, a
// module loaded from PTX text embedded below, a global variable of the
// module, cuMemAlloc/cuMemcpy, cuLaunchKernel with a parameter array and with
// a packed parameter buffer, cuCtxSynchronize, and cuGetErrorName.
#include <cstdio>
#include <cstring>
#include <cuda.h>

// y[i] = a * x[i] + y[i] for i < n, counting the threads that stored.
static const char *ptx =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .global .align 4 .u32 stores;\n"
    ".visible .entry saxpy(.param .u64 px, .param .u64 py, .param .u32 pn, .param .f32 pa)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .f32 %f<6>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [px];\n"
    "  ld.param.u64 %rd2, [py];\n"
    "  ld.param.u32 %r1, [pn];\n"
    "  ld.param.f32 %f1, [pa];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.s32 %p1, %r5, %r1;\n"
    "  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd3, %rd1;\n"
    "  cvta.to.global.u64 %rd4, %rd2;\n"
    "  mul.wide.s32 %rd5, %r5, 4;\n"
    "  add.s64 %rd6, %rd3, %rd5;\n"
    "  add.s64 %rd7, %rd4, %rd5;\n"
    "  ld.global.f32 %f2, [%rd6];\n"
    "  ld.global.f32 %f3, [%rd7];\n"
    "  fma.rn.f32 %f4, %f1, %f2, %f3;\n"
    "  st.global.f32 [%rd7], %f4;\n"
    "  atom.global.add.u32 %r6, [stores], 1;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

#define CU(call)                                                           \
  do {                                                                     \
    CUresult r_ = (call);                                                  \
    if (r_ != CUDA_SUCCESS) {                                              \
      const char *nm = "?";                                                \
      cuGetErrorName(r_, &nm);                                             \
      printf("driver_api:%d: %s failed: %s\n", __LINE__, #call, nm);       \
      return 1;                                                            \
    }                                                                      \
  } while (0)

int main() {
  int count = 0, major = 0, minor = 0;
  CUdevice dev;
  CUcontext ctx;
  CU(cuInit(0));
  CU(cuDeviceGetCount(&count));
  CU(cuDeviceGet(&dev, 0));
  CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  printf("driver_api: %s device 0, compute capability %d.%d\n", count >= 1 ? "found" : "no", major, minor);
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));

  CUmodule mod;
  CUfunction fn, missing;
  CU(cuModuleLoadData(&mod, ptx));
  CU(cuModuleGetFunction(&fn, mod, "saxpy"));
  CUresult r = cuModuleGetFunction(&missing, mod, "no_such_kernel");
  const char *rname = "?";
  cuGetErrorName(r, &rname);
  printf("driver_api: cuModuleGetFunction(no_such_kernel): %s\n", rname);
  int maxthreads = 0;
  CU(cuFuncGetAttribute(&maxthreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn));
  CUdeviceptr stores;
  size_t stores_size = 0;
  CU(cuModuleGetGlobal(&stores, &stores_size, mod, "stores"));
  unsigned zero = 0;
  CU(cuMemcpyHtoD(stores, &zero, sizeof zero));

  const int n = 1000;
  float hx[n], hy[n], out[n];
  for (int i = 0; i < n; i++) { hx[i] = (float)i; hy[i] = (float)(2 * i + 1); }
  CUdeviceptr dx, dy;
  CU(cuMemAlloc(&dx, sizeof hx));
  CU(cuMemAlloc(&dy, sizeof hy));
  CU(cuMemcpyHtoD(dx, hx, sizeof hx));
  CU(cuMemcpyHtoD(dy, hy, sizeof hy));
  // first launch: kernelParams, a = 3 -> y = 3i + 2i + 1 = 5i + 1
  int nn = n;
  float a = 3.0f;
  void *params[] = {&dx, &dy, &nn, &a};
  CU(cuLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, params, nullptr));
  // second launch: one packed buffer through "extra", a = -1 -> y = 4i + 1
  struct { CUdeviceptr x, y; int n; float a; } buf = {dx, dy, n, -1.0f};
  size_t bufsize = sizeof buf;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bufsize,
                   CU_LAUNCH_PARAM_END};
  CU(cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, 0, nullptr, extra));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(out, dy, sizeof out));
  unsigned h_stores = 0;
  CU(cuMemcpyDtoH(&h_stores, stores, sizeof h_stores));

  int bad = 0;
  for (int i = 0; i < n; i++) bad += out[i] != (float)(4 * i + 1);
  if (r != CUDA_ERROR_NOT_FOUND) bad++;
  if (stores_size != 4 || h_stores != 2 * n || maxthreads < 256) bad++;
  CU(cuMemFree(dx));
  CU(cuMemFree(dy));
  CU(cuModuleUnload(mod));
  CU(cuDevicePrimaryCtxRelease(dev));
  if (bad) {
    printf("driver_api: FAIL (%d wrong, stores %u, size %zu)\n", bad, h_stores, stores_size);
    return 1;
  }
  printf("driver_api: two launches of saxpy over %d elements ok, %u stores counted\n", n, h_stores);
  return 0;
}
