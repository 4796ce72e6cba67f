/* cudart/rt_device.c - device management of the Runtime API: one device,
 * the modelled GPU, described by the driver's attributes. */
#include <string.h>
#include "cudart/rt.h"

#define RUNTIME_VERSION 13000

RT_EXPORT cudaError_t cudaGetDeviceCount(int *n) {
  if (!n) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUresult r = cuInit(0);
  *n = r ? 0 : 1;
  return rt_from(r);
}

RT_EXPORT cudaError_t cudaSetDevice(int d) {
  if (d != 0) return rt_error(CUDA_ERROR_INVALID_DEVICE);
  return rt_from(cuInit(0));
}

RT_EXPORT cudaError_t cudaGetDevice(int *d) {
  if (!d) return rt_error(CUDA_ERROR_INVALID_VALUE);
  *d = 0;
  return 0;
}

RT_EXPORT cudaError_t cudaInitDevice(int d, unsigned dflags, unsigned flags) {
  (void)dflags; (void)flags;
  return cudaSetDevice(d);
}

RT_EXPORT cudaError_t cudaSetDeviceFlags(unsigned flags) {
  (void)flags;
  return rt_from(cuInit(0));
}
RT_EXPORT cudaError_t cudaGetDeviceFlags(unsigned *flags) {
  if (!flags) return rt_error(CUDA_ERROR_INVALID_VALUE);
  *flags = 0x10;     /* cudaDeviceMapHost */
  return 0;
}
RT_EXPORT cudaError_t cudaChooseDevice(int *d, const cudaDeviceProp *p) {
  (void)p;
  if (!d) return rt_error(CUDA_ERROR_INVALID_VALUE);
  *d = 0;
  return 0;
}

RT_EXPORT cudaError_t cudaDeviceGetAttribute(int *v, int attr, int d) {
  if (d != 0) return rt_error(CUDA_ERROR_INVALID_DEVICE);
  return rt_from(ptxemu_device_attribute(v, attr));
}

static int attr(int a) {
  int v = 0;
  ptxemu_device_attribute(&v, a);
  return v;
}

/* (CUDA 13's layout; libcudart.so.12 gives CUDA 12's from it, rt_abi12.c) */
RT_EXPORT RT_ABI13 cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int d) { return rt_device_props(p, d); }

cudaError_t rt_device_props(cudaDeviceProp *p, int d) {
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  if (d != 0) return rt_error(CUDA_ERROR_INVALID_DEVICE);
  CUresult r = cuInit(0);
  if (r) return rt_from(r);
  memset(p, 0, sizeof *p);
  cuDeviceGetName(p->name, sizeof p->name, 0);
  memcpy(p->uuid.bytes, "ptxemu-device-00", 16);
  cuDeviceTotalMem_v2(&p->totalGlobalMem, 0);
  p->sharedMemPerBlock = (size_t)attr(ATTR_MAX_SHARED_MEMORY_PER_BLOCK);
  p->regsPerBlock = attr(ATTR_MAX_REGISTERS_PER_BLOCK);
  p->warpSize = attr(ATTR_WARP_SIZE);
  p->memPitch = (size_t)attr(ATTR_MAX_PITCH);
  p->maxThreadsPerBlock = attr(ATTR_MAX_THREADS_PER_BLOCK);
  for (int i = 0; i < 3; i++) {
    p->maxThreadsDim[i] = attr(ATTR_MAX_BLOCK_DIM_X + i);
    p->maxGridSize[i] = attr(ATTR_MAX_GRID_DIM_X + i);
  }
  p->totalConstMem = (size_t)attr(ATTR_TOTAL_CONSTANT_MEMORY);
  p->major = attr(ATTR_COMPUTE_CAPABILITY_MAJOR);
  p->minor = attr(ATTR_COMPUTE_CAPABILITY_MINOR);
  p->textureAlignment = (size_t)attr(ATTR_TEXTURE_ALIGNMENT);
  p->texturePitchAlignment = (size_t)attr(ATTR_TEXTURE_PITCH_ALIGNMENT);
  p->multiProcessorCount = attr(ATTR_MULTIPROCESSOR_COUNT);
  p->integrated = attr(ATTR_INTEGRATED);
  p->canMapHostMemory = attr(ATTR_CAN_MAP_HOST_MEMORY);
  p->maxTexture1D = attr(ATTR_TEXTURE1D_WIDTH);
  p->maxTexture1DMipmap = 32768;
  p->maxTexture2D[0] = attr(ATTR_TEXTURE2D_WIDTH);
  p->maxTexture2D[1] = attr(ATTR_TEXTURE2D_HEIGHT);
  p->maxTexture2DMipmap[0] = p->maxTexture2DMipmap[1] = 32768;
  p->maxTexture2DLinear[0] = attr(ATTR_TEXTURE2D_LINEAR_WIDTH);
  p->maxTexture2DLinear[1] = attr(ATTR_TEXTURE2D_LINEAR_HEIGHT);
  p->maxTexture2DLinear[2] = attr(ATTR_TEXTURE2D_LINEAR_PITCH);
  p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = 32768;
  for (int i = 0; i < 3; i++) p->maxTexture3D[i] = attr(ATTR_TEXTURE3D_WIDTH + i);
  p->maxTexture3DAlt[0] = p->maxTexture3DAlt[1] = 8192;
  p->maxTexture3DAlt[2] = 32768;
  p->maxTextureCubemap = attr(ATTR_TEXTURECUBEMAP_WIDTH);
  p->maxTexture1DLayered[0] = attr(ATTR_TEXTURE1D_LAYERED_WIDTH);
  p->maxTexture1DLayered[1] = attr(ATTR_TEXTURE1D_LAYERED_LAYERS);
  p->maxTexture2DLayered[0] = attr(ATTR_TEXTURE2D_LAYERED_WIDTH);
  p->maxTexture2DLayered[1] = attr(ATTR_TEXTURE2D_LAYERED_HEIGHT);
  p->maxTexture2DLayered[2] = attr(ATTR_TEXTURE2D_LAYERED_LAYERS);
  p->maxTextureCubemapLayered[0] = 32768;
  p->maxTextureCubemapLayered[1] = 2046;
  p->maxSurface1D = attr(ATTR_SURFACE1D_WIDTH);
  p->maxSurface2D[0] = attr(ATTR_SURFACE2D_WIDTH);
  p->maxSurface2D[1] = attr(ATTR_SURFACE2D_HEIGHT);
  for (int i = 0; i < 3; i++) p->maxSurface3D[i] = attr(ATTR_SURFACE3D_WIDTH + i);
  p->maxSurface1DLayered[0] = 32768;
  p->maxSurface1DLayered[1] = 2048;
  p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 32768;
  p->maxSurface2DLayered[2] = 2048;
  p->maxSurfaceCubemap = 32768;
  p->maxSurfaceCubemapLayered[0] = 32768;
  p->maxSurfaceCubemapLayered[1] = 2046;
  p->surfaceAlignment = (size_t)attr(ATTR_SURFACE_ALIGNMENT);
  p->concurrentKernels = attr(ATTR_CONCURRENT_KERNELS);
  p->ECCEnabled = attr(ATTR_ECC_ENABLED);
  p->asyncEngineCount = attr(ATTR_ASYNC_ENGINE_COUNT);
  p->unifiedAddressing = attr(ATTR_UNIFIED_ADDRESSING);
  p->memoryBusWidth = attr(ATTR_GLOBAL_MEMORY_BUS_WIDTH);
  p->l2CacheSize = attr(ATTR_L2_CACHE_SIZE);
  p->persistingL2CacheMaxSize = attr(ATTR_MAX_PERSISTING_L2_CACHE_SIZE);
  p->maxThreadsPerMultiProcessor = attr(ATTR_MAX_THREADS_PER_MULTIPROCESSOR);
  p->streamPrioritiesSupported = attr(ATTR_STREAM_PRIORITIES_SUPPORTED);
  p->globalL1CacheSupported = attr(ATTR_GLOBAL_L1_CACHE_SUPPORTED);
  p->localL1CacheSupported = attr(ATTR_LOCAL_L1_CACHE_SUPPORTED);
  p->sharedMemPerMultiprocessor = (size_t)attr(ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  p->regsPerMultiprocessor = attr(ATTR_MAX_REGISTERS_PER_MULTIPROCESSOR);
  p->managedMemory = attr(ATTR_MANAGED_MEMORY);
  p->hostNativeAtomicSupported = attr(ATTR_HOST_NATIVE_ATOMIC_SUPPORTED);
  p->pageableMemoryAccess = attr(ATTR_PAGEABLE_MEMORY_ACCESS);
  p->concurrentManagedAccess = attr(ATTR_CONCURRENT_MANAGED_ACCESS);
  p->computePreemptionSupported = attr(ATTR_COMPUTE_PREEMPTION_SUPPORTED);
  p->canUseHostPointerForRegisteredMem = attr(ATTR_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM);
  p->cooperativeLaunch = attr(ATTR_COOPERATIVE_LAUNCH);
  p->sharedMemPerBlockOptin = (size_t)attr(ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  p->maxBlocksPerMultiProcessor = attr(ATTR_MAX_BLOCKS_PER_MULTIPROCESSOR);
  p->accessPolicyMaxWindowSize = attr(ATTR_MAX_ACCESS_POLICY_WINDOW_SIZE);
  p->reservedSharedMemPerBlock = (size_t)attr(ATTR_RESERVED_SHARED_MEMORY_PER_BLOCK);
  p->hostRegisterSupported = attr(ATTR_HOST_REGISTER_SUPPORTED);
  p->hostRegisterReadOnlySupported = attr(ATTR_READ_ONLY_HOST_REGISTER_SUPPORTED);
  p->memoryPoolsSupported = attr(ATTR_MEMORY_POOLS_SUPPORTED);
  p->clusterLaunch = attr(ATTR_CLUSTER_LAUNCH);
  p->unifiedFunctionPointers = attr(ATTR_UNIFIED_FUNCTION_POINTERS);
  p->deviceNumaId = p->hostNumaId = -1;
  return 0;
}

RT_EXPORT cudaError_t cudaDeviceSynchronize(void) { return rt_from(cuCtxSynchronize()); }
RT_EXPORT cudaError_t cudaThreadSynchronize(void) { return rt_from(cuCtxSynchronize()); }

RT_EXPORT cudaError_t cudaDeviceReset(void) {
  cuCtxSynchronize();
  return rt_from(cuDevicePrimaryCtxReset_v2(0));
}

RT_EXPORT cudaError_t cudaDeviceSetLimit(int limit, size_t v) { return rt_from(cuCtxSetLimit(limit, v)); }
RT_EXPORT cudaError_t cudaDeviceGetLimit(size_t *v, int limit) { return rt_from(cuCtxGetLimit(v, limit)); }
RT_EXPORT cudaError_t cudaDeviceSetCacheConfig(int c) { return c >= 0 && c <= 3 ? 0 : rt_error(CUDA_ERROR_INVALID_VALUE); }
RT_EXPORT cudaError_t cudaDeviceGetCacheConfig(int *c) {
  if (!c) return rt_error(CUDA_ERROR_INVALID_VALUE);
  *c = 0;
  return 0;
}
RT_EXPORT cudaError_t cudaDeviceSetSharedMemConfig(int c) { return rt_from(cuCtxSetSharedMemConfig(c)); }
RT_EXPORT cudaError_t cudaDeviceGetSharedMemConfig(int *c) { return rt_from(cuCtxGetSharedMemConfig(c)); }
RT_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
  return rt_from(cuCtxGetStreamPriorityRange(least, greatest));
}
RT_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *can, int d, int peer) {
  if (!can) return rt_error(CUDA_ERROR_INVALID_VALUE);
  if (d != 0 || peer != 0) return rt_error(CUDA_ERROR_INVALID_DEVICE);
  *can = 0;
  return 0;
}
RT_EXPORT cudaError_t cudaDeviceGetPCIBusId(char *s, int len, int d) {
  if (!s || len <= 0) return rt_error(CUDA_ERROR_INVALID_VALUE);
  if (d != 0) return rt_error(CUDA_ERROR_INVALID_DEVICE);
  snprintf(s, (size_t)len, "0000:00:00.0");
  return 0;
}

RT_EXPORT cudaError_t cudaRuntimeGetVersion(int *v) {
  if (!v) return rt_error(CUDA_ERROR_INVALID_VALUE);
  *v = RUNTIME_VERSION;
  return 0;
}
RT_EXPORT cudaError_t cudaDriverGetVersion(int *v) {
  if (!v) return rt_error(CUDA_ERROR_INVALID_VALUE);
  *v = RUNTIME_VERSION;
  return 0;
}
