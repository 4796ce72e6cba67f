/* cudart/drv_device.c - cuInit, devices, contexts, errors and
 * cuGetProcAddress.  There is one device, the modelled GPU, and every
 * context (primary or created) shares it. */
#include <string.h>
#include "cudart/drv.h"

#define DRIVER_VERSION 13000     /* the CUDA 13.0 driver API */

DRV_EXPORT CUresult cuInit(unsigned flags) {
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = drv_enter();
  if (r) return r;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuDriverGetVersion(int *v) {
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  *v = DRIVER_VERSION;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuDeviceGetCount(int *n) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!n) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  *n = 1;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!d) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (ordinal != 0) return drv_leave(CUDA_ERROR_INVALID_DEVICE);
  *d = 0;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!name || len <= 0) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (d != 0) return drv_leave(CUDA_ERROR_INVALID_DEVICE);
  snprintf(name, (size_t)len, "%s (ptxemu)", drv.cfg.description[0] ? drv.cfg.description : drv.cfg.name);
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!bytes) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (d != 0) return drv_leave(CUDA_ERROR_INVALID_DEVICE);
  *bytes = drv.e->opt.device_bytes;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *u, CUdevice d) {
  if (!u) return CUDA_ERROR_INVALID_VALUE;
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  memcpy(u->bytes, "ptxemu-device-00", 16);
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuDeviceGetUuid(CUuuid *u, CUdevice d) { return cuDeviceGetUuid_v2(u, d); }

DRV_EXPORT CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice d) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!major || !minor) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (d != 0) return drv_leave(CUDA_ERROR_INVALID_DEVICE);
  *major = (int)drv.cfg.sm_version / 10;
  *minor = (int)drv.cfg.sm_version % 10;
  return drv_leave(CUDA_SUCCESS);
}

/* DRAM bus width and clock as a GPU of this kind reports them. */
static int bus_bits(void) { return strstr(drv.cfg.dram, "HBM") ? 5120 : 384; }
static int mem_clock_khz(void) { return (int)((double)drv.cfg.dram_bandwidth_gbs * 1e9 * 8 / (2.0 * bus_bits()) / 1e3); }

/* The value of a device attribute for the modelled GPU; -1: unknown. */
static long long attribute(int a) {
  const gpu_config *c = &drv.cfg;
  unsigned sm = c->sm_version;
  switch (a) {
  case ATTR_MAX_THREADS_PER_BLOCK: return c->max_threads_per_cta;
  case ATTR_MAX_BLOCK_DIM_X: case ATTR_MAX_BLOCK_DIM_Y: return 1024;
  case ATTR_MAX_BLOCK_DIM_Z: return 64;
  case ATTR_MAX_GRID_DIM_X: return sm >= 30 ? 2147483647 : 65535;
  case ATTR_MAX_GRID_DIM_Y: case ATTR_MAX_GRID_DIM_Z: return 65535;
  case ATTR_MAX_SHARED_MEMORY_PER_BLOCK: return 49152;
  case ATTR_TOTAL_CONSTANT_MEMORY: return 65536;
  case ATTR_WARP_SIZE: return 32;
  case ATTR_MAX_PITCH: return 2147483647;
  case ATTR_MAX_REGISTERS_PER_BLOCK: return c->regs_per_sm < 65536 ? c->regs_per_sm : 65536;
  case ATTR_CLOCK_RATE: return (long long)c->clock_mhz * 1000;
  case ATTR_TEXTURE_ALIGNMENT: return 512;
  case ATTR_GPU_OVERLAP: return 1;
  case ATTR_MULTIPROCESSOR_COUNT: return c->sms;
  case ATTR_KERNEL_EXEC_TIMEOUT: case ATTR_INTEGRATED: case ATTR_TCC_DRIVER: case ATTR_MULTI_GPU_BOARD: return 0;
  case ATTR_CAN_MAP_HOST_MEMORY: case ATTR_UNIFIED_ADDRESSING: case ATTR_CONCURRENT_KERNELS: return 1;
  case ATTR_COMPUTE_MODE: return 0;
  case ATTR_TEXTURE1D_WIDTH: return 131072;
  case ATTR_TEXTURE2D_WIDTH: return 131072;
  case ATTR_TEXTURE2D_HEIGHT: return 65536;
  case ATTR_TEXTURE3D_WIDTH: case ATTR_TEXTURE3D_HEIGHT: case ATTR_TEXTURE3D_DEPTH: return 16384;
  case ATTR_TEXTURE2D_LAYERED_WIDTH: return 32768;
  case ATTR_TEXTURE2D_LAYERED_HEIGHT: return 32768;
  case ATTR_TEXTURE2D_LAYERED_LAYERS: return 2048;
  case ATTR_TEXTURE1D_LAYERED_WIDTH: return 32768;
  case ATTR_TEXTURE1D_LAYERED_LAYERS: return 2048;
  case ATTR_TEXTURECUBEMAP_WIDTH: return 32768;
  case ATTR_SURFACE_ALIGNMENT: return 512;
  case ATTR_SURFACE1D_WIDTH: case ATTR_SURFACE2D_WIDTH: case ATTR_SURFACE2D_HEIGHT: return 32768;
  case ATTR_SURFACE3D_WIDTH: case ATTR_SURFACE3D_HEIGHT: case ATTR_SURFACE3D_DEPTH: return 16384;
  case ATTR_TEXTURE1D_LINEAR_WIDTH: return 268435456;
  case ATTR_TEXTURE2D_LINEAR_WIDTH: case ATTR_TEXTURE2D_LINEAR_HEIGHT: return 131072;
  case ATTR_TEXTURE2D_LINEAR_PITCH: return 2097120;
  case ATTR_TEXTURE_PITCH_ALIGNMENT: return 32;
  case ATTR_ECC_ENABLED: return strstr(c->dram, "HBM") ? 1 : 0;
  case ATTR_PCI_BUS_ID: case ATTR_PCI_DEVICE_ID: case ATTR_PCI_DOMAIN_ID: return 0;
  case ATTR_MEMORY_CLOCK_RATE: return mem_clock_khz();
  case ATTR_GLOBAL_MEMORY_BUS_WIDTH: return bus_bits();
  case ATTR_L2_CACHE_SIZE: return (long long)c->l2_bytes;
  case ATTR_MAX_THREADS_PER_MULTIPROCESSOR: return c->max_threads_per_sm;
  case ATTR_ASYNC_ENGINE_COUNT: return 2;
  case ATTR_COMPUTE_CAPABILITY_MAJOR: return sm / 10;
  case ATTR_COMPUTE_CAPABILITY_MINOR: return sm % 10;
  case ATTR_STREAM_PRIORITIES_SUPPORTED: return sm >= 35;
  case ATTR_GLOBAL_L1_CACHE_SUPPORTED: return c->l1_caches_global;
  case ATTR_LOCAL_L1_CACHE_SUPPORTED: return 1;
  case ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: return c->shared_per_sm;
  case ATTR_MAX_REGISTERS_PER_MULTIPROCESSOR: return c->regs_per_sm;
  case ATTR_MANAGED_MEMORY: return 1;
  case ATTR_MULTI_GPU_BOARD_GROUP_ID: return 0;
  case ATTR_HOST_NATIVE_ATOMIC_SUPPORTED: return 0;
  case ATTR_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO: return c->ii_fp64 && c->ii_fp32 ? (long long)(c->ii_fp64 / c->ii_fp32) : 2;
  case ATTR_PAGEABLE_MEMORY_ACCESS: case ATTR_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES: return 0;
  case ATTR_CONCURRENT_MANAGED_ACCESS: return 1;
  case ATTR_COMPUTE_PREEMPTION_SUPPORTED: return sm >= 60;
  case ATTR_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM: return 1;
  case ATTR_COOPERATIVE_LAUNCH: return sm >= 60;
  case ATTR_COOPERATIVE_MULTI_DEVICE_LAUNCH: return 0;
  case ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: return c->shared_per_cta;
  case ATTR_CAN_FLUSH_REMOTE_WRITES: return 0;
  case ATTR_HOST_REGISTER_SUPPORTED: return 1;
  case ATTR_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST: return 0;
  case ATTR_MAX_BLOCKS_PER_MULTIPROCESSOR: return c->max_ctas_per_sm;
  case ATTR_MAX_PERSISTING_L2_CACHE_SIZE: return sm >= 80 ? (long long)(c->l2_bytes * 3 / 4) : 0;
  case ATTR_MAX_ACCESS_POLICY_WINDOW_SIZE: return sm >= 80 ? 134213632 : 0;
  case ATTR_RESERVED_SHARED_MEMORY_PER_BLOCK: return c->shared_reserved_per_cta;
  case ATTR_READ_ONLY_HOST_REGISTER_SUPPORTED: return 1;
  /* cuMemCreate/cuMemMap (drv_memory.c): exportable to POSIX file
   * descriptors; compression and GPUDirect RDMA are requests ptxemu grants
   * by recording them, as the memory behaves the same either way.  Fabric
   * handles read 1 as on an H100 or H200, and cuMemCreate refuses them
   * with CUDA_ERROR_NOT_PERMITTED as there when no IMEX channel exists. */
  case ATTR_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: case ATTR_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED: return 1;
  case ATTR_GENERIC_COMPRESSION_SUPPORTED: return sm >= 80;
  case ATTR_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED: return 1;
  case ATTR_HANDLE_TYPE_FABRIC_SUPPORTED: return sm >= 90;
  case ATTR_MEMORY_POOLS_SUPPORTED: return 1;
  case ATTR_CLUSTER_LAUNCH: return sm >= 90;
  case ATTR_UNIFIED_FUNCTION_POINTERS: return 0;
  default: return -1;
  }
}

DRV_EXPORT CUresult ptxemu_device_attribute(int *v, int a) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!v) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  long long x = attribute(a);
  if (x < 0) {
    /* documented attributes the model has no figure for read as 0 */
    if (a <= 0 || a > 160) return drv_leave(CUDA_ERROR_INVALID_VALUE);
    x = 0;
  }
  *v = (int)x;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuDeviceGetAttribute(int *v, int a, CUdevice d) {
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  return ptxemu_device_attribute(v, a);
}

DRV_EXPORT CUresult cuDeviceGetPCIBusId(char *s, int len, CUdevice d) {
  if (!s || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  snprintf(s, (size_t)len, "0000:00:00.0");
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuDeviceCanAccessPeer(int *can, CUdevice a, CUdevice b) {
  if (!can) return CUDA_ERROR_INVALID_VALUE;
  if (a != 0 || b != 0) return CUDA_ERROR_INVALID_DEVICE;
  *can = 0;
  return CUDA_SUCCESS;
}

/* ---- contexts: every handle names the one device's state ---- */

static __thread CUcontext current;

DRV_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice d) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!ctx) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (d != 0) return drv_leave(CUDA_ERROR_INVALID_DEVICE);
  drv.primary.refs++;
  *ctx = &drv.primary;
  return drv_leave(CUDA_SUCCESS);
}
DRV_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) {
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  drv_lock();
  if (drv.primary.refs > 0) drv.primary.refs--;
  drv_unlock();
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice d) { return cuDevicePrimaryCtxRelease_v2(d); }
DRV_EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice d) {
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  CUresult r = drv_enter();
  if (r) return r;
  drv_flush_printf();
  /* the device starts over after a reset: a fault no longer sticks */
  drv.sticky = CUDA_SUCCESS;
  return drv_leave(CUDA_SUCCESS);
}
DRV_EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice d) { return cuDevicePrimaryCtxReset_v2(d); }
DRV_EXPORT CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice d, unsigned flags) {
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  drv.primary.flags = flags;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice d, unsigned *flags, int *active) {
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  if (flags) *flags = drv.primary.flags;
  if (active) *active = drv.primary.refs > 0;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuCtxCreate_v4(CUcontext *ctx, void *params, unsigned flags, CUdevice d) {
  (void)params;
  CUresult r = drv_enter();
  if (r) return r;
  if (!ctx) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (d != 0) return drv_leave(CUDA_ERROR_INVALID_DEVICE);
  drv.primary.refs++;
  drv.primary.flags = flags;
  current = *ctx = &drv.primary;
  return drv_leave(CUDA_SUCCESS);
}
DRV_EXPORT CUresult cuCtxCreate_v2(CUcontext *ctx, unsigned flags, CUdevice d) { return cuCtxCreate_v4(ctx, NULL, flags, d); }
DRV_EXPORT CUresult cuCtxCreate(CUcontext *ctx, unsigned flags, CUdevice d) { return cuCtxCreate_v4(ctx, NULL, flags, d); }
DRV_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx) {
  if (!ctx) return CUDA_ERROR_INVALID_VALUE;
  drv_lock();
  drv_flush_printf();
  if (drv.primary.refs > 0) drv.primary.refs--;
  if (current == ctx) current = NULL;
  drv_unlock();
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuCtxDestroy(CUcontext ctx) { return cuCtxDestroy_v2(ctx); }
DRV_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx) { current = ctx; return CUDA_SUCCESS; }
DRV_EXPORT CUresult cuCtxGetCurrent(CUcontext *ctx) {
  if (!ctx) return CUDA_ERROR_INVALID_VALUE;
  *ctx = current;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx) { current = ctx; return CUDA_SUCCESS; }
DRV_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *ctx) {
  if (ctx) *ctx = current;
  current = NULL;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuCtxGetDevice(CUdevice *d) {
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  *d = 0;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuCtxGetFlags(unsigned *flags) {
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  *flags = drv.primary.flags;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuCtxSetFlags(unsigned flags) { drv.primary.flags = flags; return CUDA_SUCCESS; }
DRV_EXPORT CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned *v) {
  (void)ctx;
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  *v = 3020;
  return CUDA_SUCCESS;
}
DRV_EXPORT CUresult cuCtxSetCacheConfig(int c) { return c >= 0 && c <= 3 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }
DRV_EXPORT CUresult cuCtxGetCacheConfig(int *c) {
  if (!c) return CUDA_ERROR_INVALID_VALUE;
  *c = 0;
  return CUDA_SUCCESS;
}

/* cuCtxSetLimit / GetLimit: the stack size per thread and the device heap
 * (malloc) size change the emulator's options; printf's FIFO has no size. */
enum { CU_LIMIT_STACK_SIZE = 0, CU_LIMIT_PRINTF_FIFO_SIZE = 1, CU_LIMIT_MALLOC_HEAP_SIZE = 2,
       CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH = 3, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 4,
       CU_LIMIT_MAX_L2_FETCH_GRANULARITY = 5, CU_LIMIT_PERSISTING_L2_CACHE_SIZE = 6 };
static size_t printf_fifo = 1 << 20, sync_depth = 2, pending_launches = 2048, l2_granularity = 32, l2_persisting;

DRV_EXPORT CUresult cuCtxSetLimit(int limit, size_t v) {
  CUresult r = drv_enter();
  if (r) return r;
  switch (limit) {
  case CU_LIMIT_STACK_SIZE:
    if (v > 512 * 1024) return drv_leave(CUDA_ERROR_INVALID_VALUE);
    drv.e->opt.stack_bytes = (uint32_t)(v < 16 ? 16 : (v + 15) & ~(size_t)15);
    break;
  case CU_LIMIT_MALLOC_HEAP_SIZE:
    /* a new, empty heap; CUDA refuses a change once kernels have used
     * the heap (here: once any has run) */
    if (drv.launches) return drv_leave(CUDA_ERROR_INVALID_VALUE);
    if (emu_heap_resize(drv.e, v)) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
    break;
  case CU_LIMIT_PRINTF_FIFO_SIZE: printf_fifo = v; break;
  case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH: sync_depth = v; break;
  case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: pending_launches = v; break;
  case CU_LIMIT_MAX_L2_FETCH_GRANULARITY: l2_granularity = v; break;
  case CU_LIMIT_PERSISTING_L2_CACHE_SIZE: l2_persisting = v; break;
  default: return drv_leave(CUDA_ERROR_INVALID_VALUE);
  }
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuCtxGetLimit(size_t *v, int limit) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!v) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  switch (limit) {
  case CU_LIMIT_STACK_SIZE: *v = drv.e->opt.stack_bytes; break;
  case CU_LIMIT_MALLOC_HEAP_SIZE: *v = drv.e->heap_size; break;
  case CU_LIMIT_PRINTF_FIFO_SIZE: *v = printf_fifo; break;
  case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH: *v = sync_depth; break;
  case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: *v = pending_launches; break;
  case CU_LIMIT_MAX_L2_FETCH_GRANULARITY: *v = l2_granularity; break;
  case CU_LIMIT_PERSISTING_L2_CACHE_SIZE: *v = l2_persisting; break;
  default: return drv_leave(CUDA_ERROR_INVALID_VALUE);
  }
  return drv_leave(CUDA_SUCCESS);
}

/* ---- errors ---- */

DRV_EXPORT CUresult cuGetErrorName(CUresult e, const char **s) {
  if (!s) return CUDA_ERROR_INVALID_VALUE;
  *s = drv_error_name(e, false);
  return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
DRV_EXPORT CUresult cuGetErrorString(CUresult e, const char **s) {
  if (!s) return CUDA_ERROR_INVALID_VALUE;
  *s = drv_error_name(e, false) ? drv_error_string(e) : NULL;
  return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
/* The runtime's names and messages (libcudart asks the driver). */
DRV_EXPORT const char *ptxemu_error_name(int e) { return drv_error_name(e, true); }
DRV_EXPORT const char *ptxemu_error_string(int e) { return drv_error_name(e, true) ? drv_error_string(e) : NULL; }

/* The profiler markers frame what Nsight would record: nothing to do here. */
DRV_EXPORT CUresult cuProfilerStart(void) { return CUDA_SUCCESS; }
DRV_EXPORT CUresult cuProfilerStop(void) { return CUDA_SUCCESS; }
