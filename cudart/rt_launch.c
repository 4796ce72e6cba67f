/* cudart/rt_launch.c - kernel launches, function attributes and the
 * occupancy calculator of the Runtime API. */
#include <string.h>
#include "cudart/rt.h"

/* The checks CUDA makes of a configuration before the launch (CUDA 13
 * reports them as cudaErrorInvalidValue, as the driver does). */
static cudaError_t check_config(dim3 grid, dim3 block) {
  int v[6];
  for (int i = 0; i < 6; i++) ptxemu_device_attribute(&v[i], 2 + i);   /* max block x,y,z, grid x,y,z */
  int maxt;
  ptxemu_device_attribute(&maxt, 1);
  if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z) return CUDA_ERROR_INVALID_VALUE;
  if (block.x > (unsigned)v[0] || block.y > (unsigned)v[1] || block.z > (unsigned)v[2] || grid.x > (unsigned)v[3] ||
      grid.y > (unsigned)v[4] || grid.z > (unsigned)v[5] || (uint64_t)block.x * block.y * block.z > (uint64_t)maxt)
    return CUDA_ERROR_INVALID_VALUE;
  return 0;
}

static cudaError_t launch(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s,
                          const cudaLaunchAttribute *attrs, unsigned nattrs, bool cooperative) {
  cudaError_t e = check_config(grid, block);
  if (e) return rt_error(e);
  rt_func *f = rt_func_find(func, &e);
  if (!f) return rt_error(e);
  if (shared > 0xffffffffu) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUresult r;
  if (cooperative) {
    r = cuLaunchCooperativeKernel(f->f, grid.x, grid.y, grid.z, block.x, block.y, block.z, (unsigned)shared, s, args);
  } else {
    CUlaunchConfig c = { grid.x, grid.y, grid.z, block.x, block.y, block.z, (unsigned)shared, s,
                         (CUlaunchAttribute *)attrs, nattrs };
    r = cuLaunchKernelEx(&c, f->f, args, NULL);
  }
  return rt_from(r);
}

RT_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                       cudaStream_t s) {
  return launch(func, grid, block, args, shared, s, NULL, 0, false);
}

RT_EXPORT cudaError_t __cudaLaunchKernel(const void *kernel, dim3 grid, dim3 block, void **args, size_t shared,
                                         cudaStream_t s) {
  return launch(kernel, grid, block, args, shared, s, NULL, 0, false);
}

RT_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                                  cudaStream_t s) {
  return launch(func, grid, block, args, shared, s, NULL, 0, true);
}

RT_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *c, const void *func, void **args) {
  if (!c || (c->numAttrs && !c->attrs)) return rt_error(CUDA_ERROR_INVALID_VALUE);
  return launch(func, c->gridDim, c->blockDim, args, c->dynamicSmemBytes, c->stream, c->attrs, c->numAttrs, false);
}

RT_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t s, CUhostFn fn, void *user) {
  return rt_from(cuLaunchHostFunc(s, fn, user));
}

/* ---- function attributes ---- */

RT_EXPORT cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *func) {
  if (!a) return rt_error(CUDA_ERROR_INVALID_VALUE);
  cudaError_t e = 0;
  rt_func *f = rt_func_find(func, &e);
  if (!f) return rt_error(e);
  memset(a, 0, sizeof *a);
  int v[16];
  for (int i = 0; i < 16; i++) v[i] = 0;
  for (int i = 0; i <= 15; i++) cuFuncGetAttribute(&v[i], i, f->f);
  a->maxThreadsPerBlock = v[0];
  a->sharedSizeBytes = (size_t)v[1];
  a->constSizeBytes = (size_t)v[2];
  a->localSizeBytes = (size_t)v[3];
  a->numRegs = v[4];
  a->ptxVersion = v[5];
  a->binaryVersion = v[6];
  a->cacheModeCA = v[7];
  a->maxDynamicSharedSizeBytes = v[8];
  a->preferredShmemCarveout = v[9];
  a->clusterDimMustBeSet = v[10];
  a->requiredClusterWidth = v[11];
  a->requiredClusterHeight = v[12];
  a->requiredClusterDepth = v[13];
  a->nonPortableClusterSizeAllowed = v[14];
  a->clusterSchedulingPolicyPreference = v[15];
  return 0;
}

/* cudaFuncAttribute numbers */
enum { cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9,
       cudaFuncAttributeClusterDimMustBeSet = 10, cudaFuncAttributeRequiredClusterWidth = 11,
       cudaFuncAttributeNonPortableClusterSizeAllowed = 14 };

RT_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value) {
  cudaError_t e = 0;
  rt_func *f = rt_func_find(func, &e);
  if (!f) return rt_error(e);
  return rt_from(cuFuncSetAttribute(f->f, attr, value));
}

RT_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, int config) {
  cudaError_t e = 0;
  rt_func *f = rt_func_find(func, &e);
  if (!f) return rt_error(e);
  return rt_from(cuFuncSetCacheConfig(f->f, config));
}

RT_EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config) {
  cudaError_t e = 0;
  if (!rt_func_find(func, &e)) return rt_error(e);
  return config >= 0 && config <= 2 ? 0 : rt_error(CUDA_ERROR_INVALID_VALUE);
}

RT_EXPORT cudaError_t cudaFuncGetName(const char **name, const void *func) {
  cudaError_t e = 0;
  rt_func *f = rt_func_find(func, &e);
  if (!f) return rt_error(e);
  if (!name) return rt_error(CUDA_ERROR_INVALID_VALUE);
  *name = f->name;
  return 0;
}

/* ---- occupancy ---- */

RT_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int block, size_t dyn) {
  cudaError_t e = 0;
  rt_func *f = rt_func_find(func, &e);
  if (!f) return rt_error(e);
  return rt_from(cuOccupancyMaxActiveBlocksPerMultiprocessor(n, f->f, block, dyn));
}

RT_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func, int block,
                                                                             size_t dyn, unsigned flags) {
  (void)flags;
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, func, block, dyn);
}

/* cudaOccupancyMaxPotentialBlockSize is a template in cuda_runtime.h that
 * calls the two functions above; the C entry point for the size-per-block
 * variant is not in NVIDIA's library.  These serve the driver-style users. */
RT_EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dyn, const void *func, int blocks, int block) {
  cudaError_t e = 0;
  rt_func *f = rt_func_find(func, &e);
  if (!f) return rt_error(e);
  int shared_optin, max_sm, reserved;
  ptxemu_device_attribute(&shared_optin, 97);
  ptxemu_device_attribute(&max_sm, 81);
  ptxemu_device_attribute(&reserved, 111);
  int stat;
  cuFuncGetAttribute(&stat, 1, f->f);
  if (!dyn || blocks <= 0 || block <= 0) return rt_error(CUDA_ERROR_INVALID_VALUE);
  long per = max_sm / blocks;
  if (per > shared_optin) per = shared_optin;
  per -= reserved + stat;
  *dyn = per > 0 ? (size_t)per : 0;
  return 0;
}

RT_EXPORT cudaError_t cudaOccupancyMaxPotentialClusterSize(int *size, const void *func, const cudaLaunchConfig_t *c) {
  cudaError_t e = 0;
  if (!size || !c) return rt_error(CUDA_ERROR_INVALID_VALUE);
  if (!rt_func_find(func, &e)) return rt_error(e);
  *size = 8;          /* the portable cluster size */
  return 0;
}

RT_EXPORT cudaError_t cudaOccupancyMaxActiveClusters(int *n, const void *func, const cudaLaunchConfig_t *c) {
  cudaError_t e = 0;
  if (!n || !c) return rt_error(CUDA_ERROR_INVALID_VALUE);
  rt_func *f = rt_func_find(func, &e);
  if (!f) return rt_error(e);
  int per_sm, sms;
  CUresult r = cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f->f, (int)(c->blockDim.x * c->blockDim.y * c->blockDim.z),
                                                           c->dynamicSmemBytes);
  if (r) return rt_from(r);
  ptxemu_device_attribute(&sms, 16);
  unsigned cs = 1;
  for (unsigned i = 0; i < c->numAttrs; i++)
    if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      cs = c->attrs[i].val.clusterDim.x * c->attrs[i].val.clusterDim.y * c->attrs[i].val.clusterDim.z;
  *n = cs ? per_sm * sms / (int)cs : 0;
  return 0;
}
