/* cudart/rt_memory.c - the Runtime API's memory calls: allocations of every
 * kind, copies in every direction (the kind is checked against where the
 * pointers lie, as CUDA does with unified addressing), fills, symbols and
 * pointer attributes. */
#include <string.h>
#include "cudart/rt.h"

static uint64_t u(const void *p) { return (uint64_t)(uintptr_t)p; }

RT_EXPORT cudaError_t cudaMalloc(void **p, size_t n) {
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUdeviceptr d = 0;
  CUresult r = cuMemAlloc_v2(&d, n);
  *p = (void *)(uintptr_t)d;
  return rt_from(r);
}

RT_EXPORT cudaError_t cudaFree(void *p) { return rt_from(cuMemFree_v2(u(p))); }

RT_EXPORT cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height) {
  if (!p || !pitch) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUdeviceptr d = 0;
  CUresult r = cuMemAllocPitch_v2(&d, pitch, width ? width : 1, height ? height : 1, 4);
  *p = (void *)(uintptr_t)d;
  return rt_from(r);
}

RT_EXPORT cudaError_t cudaMalloc3D(cudaPitchedPtr *pp, cudaExtent e) {
  if (!pp) return rt_error(CUDA_ERROR_INVALID_VALUE);
  size_t pitch;
  void *p;
  if (e.height && e.depth > SIZE_MAX / e.height) return rt_error(CUDA_ERROR_INVALID_VALUE);
  cudaError_t err = cudaMallocPitch(&p, &pitch, e.width, e.height * e.depth);
  if (err) return err;
  *pp = (cudaPitchedPtr){ p, pitch, e.width, e.height };
  return 0;
}

RT_EXPORT cudaError_t cudaMallocHost(void **p, size_t n) { return rt_from(cuMemAllocHost_v2(p, n)); }
RT_EXPORT cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags) { return rt_from(cuMemHostAlloc(p, n, flags)); }
RT_EXPORT cudaError_t cudaFreeHost(void *p) { return rt_from(cuMemFreeHost(p)); }
RT_EXPORT cudaError_t cudaHostRegister(void *p, size_t n, unsigned flags) { return rt_from(cuMemHostRegister_v2(p, n, flags)); }
RT_EXPORT cudaError_t cudaHostUnregister(void *p) { return rt_from(cuMemHostUnregister(p)); }
RT_EXPORT cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned flags) {
  if (!d) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUdeviceptr dp = 0;
  CUresult r = cuMemHostGetDevicePointer_v2(&dp, h, flags);
  *d = (void *)(uintptr_t)dp;
  return rt_from(r);
}
RT_EXPORT cudaError_t cudaHostGetFlags(unsigned *flags, void *h) { return rt_from(cuMemHostGetFlags(flags, h)); }

RT_EXPORT cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags) {
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUdeviceptr d = 0;
  CUresult r = cuMemAllocManaged(&d, n, flags ? flags : 1);
  *p = (void *)(uintptr_t)d;
  return rt_from(r);
}

/* Stream-ordered allocation: from the device's current pool (drv_pool.c). */
CUresult cuMemAllocAsync(CUdeviceptr *, size_t, CUstream);
CUresult cuMemFreeAsync(CUdeviceptr, CUstream);
RT_EXPORT cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s) {
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUdeviceptr d = 0;
  CUresult r = cuMemAllocAsync(&d, n, s);
  *p = (void *)(uintptr_t)d;
  return rt_from(r);
}
RT_EXPORT cudaError_t cudaFreeAsync(void *p, cudaStream_t s) { return rt_from(cuMemFreeAsync((uint64_t)(uintptr_t)p, s)); }

RT_EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total) { return rt_from(cuMemGetInfo_v2(free_bytes, total)); }

/* Whether a copy of kind k between dst and src (n bytes each side, the
 * rows' extents) names memory where the kind says it is. */
static cudaError_t check_kind(int k, uint64_t dst, uint64_t dext, uint64_t src, uint64_t sext) {
  if (k < 0 || k > 4) return cudaErrorInvalidMemcpyDirection;
  bool dd = ptxemu_is_device(dst, dext), sd = ptxemu_is_device(src, sext);
  switch (k) {
  case cudaMemcpyHostToDevice: return dd ? 0 : CUDA_ERROR_INVALID_VALUE;
  case cudaMemcpyDeviceToHost: return sd ? 0 : CUDA_ERROR_INVALID_VALUE;
  case cudaMemcpyDeviceToDevice: return dd && sd ? 0 : CUDA_ERROR_INVALID_VALUE;
  default: return 0;
  }
}

static cudaError_t copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, int kind,
                          cudaStream_t s, bool async) {
  if (!width || !height) return 0;
  if (dpitch < width || spitch < width) return rt_error(cudaErrorInvalidPitchValue);
  uint64_t dext = (height - 1) * (uint64_t)dpitch + width, sext = (height - 1) * (uint64_t)spitch + width;
  cudaError_t e = check_kind(kind, u(dst), dext, u(src), sext);
  if (e) return rt_error(e);
  if (kind == cudaMemcpyHostToHost && !async) {
    for (size_t r = 0; r < height; r++) memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    return 0;
  }
  return rt_from(ptxemu_memcpy2d(u(dst), dpitch, u(src), spitch, width, height, s, async));
}

RT_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind) {
  return copy2d(dst, n, src, n, n, 1, kind, NULL, false);
}
RT_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, cudaStream_t s) {
  return copy2d(dst, n, src, n, n, 1, kind, s, true);
}
RT_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h, int kind) {
  return copy2d(dst, dpitch, src, spitch, w, h, kind, NULL, false);
}
RT_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h,
                                        int kind, cudaStream_t s) {
  return copy2d(dst, dpitch, src, spitch, w, h, kind, s, true);
}
RT_EXPORT cudaError_t cudaMemcpyPeer(void *dst, int dd, const void *src, int sd, size_t n) {
  if (dd != 0 || sd != 0) return rt_error(CUDA_ERROR_INVALID_DEVICE);
  return cudaMemcpy(dst, src, n, cudaMemcpyDeviceToDevice);
}
RT_EXPORT cudaError_t cudaMemcpyPeerAsync(void *dst, int dd, const void *src, int sd, size_t n, cudaStream_t s) {
  if (dd != 0 || sd != 0) return rt_error(CUDA_ERROR_INVALID_DEVICE);
  return cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, s);
}

/* One side of a 3-D copy: where its (0, 0, 0) lies, its row pitch, rows a
 * slice, its slices (UINT64_MAX: a pointer's, unchecked) and whether it is
 * an array (elem: its element's bytes). */
typedef struct side { uint64_t addr, pitch, rows, slices, elem; bool array; } side;

static cudaError_t side_of(void *array, const cudaPitchedPtr *ptr, side *o) {
  if (array && ptr->ptr) return CUDA_ERROR_INVALID_VALUE;           /* one of the two, as CUDA */
  if (!array) {
    *o = (side){ u(ptr->ptr), ptr->pitch, ptr->ysize, UINT64_MAX, 1, false };
    return 0;
  }
  o->array = true;
  return rt_array_layout(array, &o->addr, &o->pitch, &o->rows, &o->slices, &o->elem);
}

/* The address of position p of side o, x in units of `unit` bytes; false
 * when the block of w bytes, h rows and d slices from there leaves an
 * array, leaves a pointer's rows in a copy with an array (checked = true),
 * or a size overflows. */
static bool side_at(const side *o, const cudaPos *p, uint64_t unit, bool checked, uint64_t w, uint64_t h, uint64_t d,
                    uint64_t *at) {
  uint64_t x, row, off;
  if (__builtin_mul_overflow(p->x, unit, &x)) return false;
  if (checked && (x > o->pitch || w > o->pitch - x)) return false;
  if (o->array && (p->y > o->rows || h > o->rows - p->y || p->z > o->slices || d > o->slices - p->z)) return false;
  if (__builtin_mul_overflow(p->z, o->rows, &row) || __builtin_add_overflow(row, p->y, &row) ||
      __builtin_mul_overflow(row, o->pitch, &off) || __builtin_add_overflow(off, x, &off) ||
      __builtin_add_overflow(o->addr, off, at))
    return false;
  return true;
}

/* 3-D copies between pitched pointers and CUDA arrays: one 2-D copy per
 * slice.  Where an array takes part, the width and both sides' x positions
 * count its elements (a pointer's too: an H200's runtime copies from
 * element 1 of a host block for srcPos.x = 1 and refuses 8 that would
 * leave its rows), else bytes. */
static cudaError_t copy3d(const cudaMemcpy3DParms *p, cudaStream_t s, bool async) {
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  side src, dst;
  cudaError_t err = side_of(p->srcArray, &p->srcPtr, &src);
  if (!err) err = side_of(p->dstArray, &p->dstPtr, &dst);
  if (err) return rt_error(err);
  if (src.array && dst.array && src.elem != dst.elem) return rt_error(CUDA_ERROR_INVALID_VALUE);
  bool with_array = src.array || dst.array;
  uint64_t unit = src.array ? src.elem : dst.array ? dst.elem : 1;
  const cudaExtent *e = &p->extent;
  uint64_t w, from, to;
  if (__builtin_mul_overflow(e->width, unit, &w)) return rt_error(CUDA_ERROR_INVALID_VALUE);
  if (!w || !e->height || !e->depth) return 0;
  if (!side_at(&src, &p->srcPos, unit, with_array, w, e->height, e->depth, &from) ||
      !side_at(&dst, &p->dstPos, unit, with_array, w, e->height, e->depth, &to))
    return rt_error(CUDA_ERROR_INVALID_VALUE);
  /* a slice of a pointer is pitch * ysize bytes; an array's, pitch * rows */
  uint64_t sstep, dstep;
  if (__builtin_mul_overflow(src.pitch, src.rows, &sstep) || __builtin_mul_overflow(dst.pitch, dst.rows, &dstep))
    return rt_error(CUDA_ERROR_INVALID_VALUE);
  for (size_t z = 0; z < e->depth; z++) {
    err = copy2d((void *)(uintptr_t)(to + z * dstep), dst.pitch, (const void *)(uintptr_t)(from + z * sstep), src.pitch, w,
                 e->height, p->kind, s, async);
    if (err) return err;
  }
  return 0;
}
RT_EXPORT cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p) { return copy3d(p, NULL, false); }
RT_EXPORT cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *p, cudaStream_t s) { return copy3d(p, s, true); }

/* ---- fills ---- */

RT_EXPORT cudaError_t cudaMemset(void *p, int v, size_t n) {
  return rt_from(ptxemu_memset2d(u(p), n, (uint8_t)v, 1, n, 1, NULL, 0));
}
RT_EXPORT cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s) {
  return rt_from(ptxemu_memset2d(u(p), n, (uint8_t)v, 1, n, 1, s, 1));
}
RT_EXPORT cudaError_t cudaMemset2D(void *p, size_t pitch, int v, size_t w, size_t h) {
  return rt_from(ptxemu_memset2d(u(p), pitch, (uint8_t)v, 1, w, h, NULL, 0));
}
RT_EXPORT cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int v, size_t w, size_t h, cudaStream_t s) {
  return rt_from(ptxemu_memset2d(u(p), pitch, (uint8_t)v, 1, w, h, s, 1));
}
/* one 2-D fill per slice of pitch * ysize bytes */
static cudaError_t memset3d(cudaPitchedPtr pp, int v, cudaExtent e, cudaStream_t s, int async) {
  uint64_t slice;
  if (__builtin_mul_overflow((uint64_t)pp.pitch, (uint64_t)pp.ysize, &slice)) return rt_error(CUDA_ERROR_INVALID_VALUE);
  for (size_t z = 0; z < e.depth; z++) {
    cudaError_t err = rt_from(ptxemu_memset2d(u(pp.ptr) + z * slice, pp.pitch, (uint8_t)v, 1, e.width, e.height, s, async));
    if (err) return err;
  }
  return 0;
}
RT_EXPORT cudaError_t cudaMemset3D(cudaPitchedPtr pp, int v, cudaExtent e) { return memset3d(pp, v, e, NULL, 0); }
RT_EXPORT cudaError_t cudaMemset3DAsync(cudaPitchedPtr pp, int v, cudaExtent e, cudaStream_t s) { return memset3d(pp, v, e, s, 1); }

/* ---- symbols (__device__ and __constant__ variables) ---- */

RT_EXPORT cudaError_t cudaGetSymbolAddress(void **p, const void *symbol) {
  CUdeviceptr d;
  cudaError_t e = rt_var_find(symbol, &d, NULL);
  if (e) return rt_error(e);
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  *p = (void *)(uintptr_t)d;
  return 0;
}

RT_EXPORT cudaError_t cudaGetSymbolSize(size_t *n, const void *symbol) {
  CUdeviceptr d;
  size_t size;
  cudaError_t e = rt_var_find(symbol, &d, &size);
  if (e) return rt_error(e);
  if (!n) return rt_error(CUDA_ERROR_INVALID_VALUE);
  *n = size;
  return 0;
}

static cudaError_t symbol_copy(bool to, void *host, const void *symbol, size_t n, size_t off, int kind, cudaStream_t s,
                               bool async) {
  CUdeviceptr d;
  size_t size;
  cudaError_t e = rt_var_find(symbol, &d, &size);
  if (e) return rt_error(e);
  if (off > size || n > size - off) return rt_error(CUDA_ERROR_INVALID_VALUE);
  if (kind == cudaMemcpyHostToHost || kind == (to ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice) || kind < 0 || kind > 4)
    return rt_error(cudaErrorInvalidMemcpyDirection);
  if (kind == cudaMemcpyDefault) kind = ptxemu_is_device(u(host), n) ? cudaMemcpyDeviceToDevice
                                        : to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  void *dev = (void *)(uintptr_t)(d + off);
  return to ? copy2d(dev, n, host, n, n, 1, kind, s, async) : copy2d(host, n, dev, n, n, 1, kind, s, async);
}

RT_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t n, size_t off, int kind) {
  return symbol_copy(true, (void *)src, symbol, n, off, kind, NULL, false);
}
RT_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t n, size_t off, int kind) {
  return symbol_copy(false, dst, symbol, n, off, kind, NULL, false);
}
RT_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t n, size_t off, int kind,
                                              cudaStream_t s) {
  return symbol_copy(true, (void *)src, symbol, n, off, kind, s, true);
}
RT_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t n, size_t off, int kind,
                                                cudaStream_t s) {
  return symbol_copy(false, dst, symbol, n, off, kind, s, true);
}

/* ---- pointer attributes ---- */

RT_EXPORT cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p) {
  if (!a) return rt_error(CUDA_ERROR_INVALID_VALUE);
  memset(a, 0, sizeof *a);
  int mt;
  uint64_t base, size;
  bool managed;
  if (ptxemu_pointer_info(u(p), &mt, &base, &size, &managed)) {
    a->type = cudaMemoryTypeUnregistered;       /* ordinary host memory: no error since CUDA 11 */
    a->device = -2;
    a->hostPointer = (void *)p;
    return 0;
  }
  a->device = 0;
  if (managed) { a->type = cudaMemoryTypeManaged; a->devicePointer = a->hostPointer = (void *)p; }
  else if (mt == CU_MEMORYTYPE_DEVICE) { a->type = cudaMemoryTypeDevice; a->devicePointer = (void *)p; }
  else { a->type = cudaMemoryTypeHost; a->devicePointer = a->hostPointer = (void *)p; }
  return 0;
}

/* Hints about where managed memory should live: nothing moves here.
 * (CUDA 13's signatures; libcudart.so.12 has CUDA 12's, rt_abi12.c.) */
RT_EXPORT RT_ABI13 cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, cudaMemLocation where) {
  (void)p; (void)n; (void)advice; (void)where;
  return 0;
}
RT_EXPORT RT_ABI13 cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, cudaMemLocation where, unsigned flags, cudaStream_t s) {
  (void)p; (void)n; (void)where; (void)flags; (void)s;
  return 0;
}

/* ---- memory pools (drv_pool.c) ---- */
CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *, CUdevice);
CUresult cuDeviceGetMemPool(CUmemoryPool *, CUdevice);
CUresult cuDeviceSetMemPool(CUdevice, CUmemoryPool);
CUresult cuMemPoolCreate(CUmemoryPool *, const void *);
CUresult cuMemPoolDestroy(CUmemoryPool);
CUresult cuMemPoolSetAttribute(CUmemoryPool, int, void *);
CUresult cuMemPoolGetAttribute(CUmemoryPool, int, void *);
CUresult cuMemPoolTrimTo(CUmemoryPool, size_t);
CUresult cuMemPoolSetAccess(CUmemoryPool, const void *, size_t);
CUresult cuMemPoolGetAccess(int *, CUmemoryPool, const void *);
CUresult cuMemAllocFromPoolAsync(CUdeviceptr *, size_t, CUmemoryPool, CUstream);
CUresult cuMemAllocAsync(CUdeviceptr *, size_t, CUstream);
CUresult cuMemFreeAsync(CUdeviceptr, CUstream);

RT_EXPORT cudaError_t cudaDeviceGetDefaultMemPool(CUmemoryPool *p, int d) { return rt_from(cuDeviceGetDefaultMemPool(p, d)); }
RT_EXPORT cudaError_t cudaDeviceGetMemPool(CUmemoryPool *p, int d) { return rt_from(cuDeviceGetMemPool(p, d)); }
RT_EXPORT cudaError_t cudaDeviceSetMemPool(int d, CUmemoryPool p) { return rt_from(cuDeviceSetMemPool(d, p)); }
RT_EXPORT cudaError_t cudaMemPoolCreate(CUmemoryPool *p, const void *props) { return rt_from(cuMemPoolCreate(p, props)); }
RT_EXPORT cudaError_t cudaMemPoolDestroy(CUmemoryPool p) { return rt_from(cuMemPoolDestroy(p)); }
RT_EXPORT cudaError_t cudaMemPoolSetAttribute(CUmemoryPool p, int attr, void *v) { return rt_from(cuMemPoolSetAttribute(p, attr, v)); }
RT_EXPORT cudaError_t cudaMemPoolGetAttribute(CUmemoryPool p, int attr, void *v) { return rt_from(cuMemPoolGetAttribute(p, attr, v)); }
RT_EXPORT cudaError_t cudaMemPoolTrimTo(CUmemoryPool p, size_t keep) { return rt_from(cuMemPoolTrimTo(p, keep)); }
RT_EXPORT cudaError_t cudaMemPoolSetAccess(CUmemoryPool p, const void *map, size_t n) { return rt_from(cuMemPoolSetAccess(p, map, n)); }
RT_EXPORT cudaError_t cudaMemPoolGetAccess(int *flags, CUmemoryPool p, void *loc) { return rt_from(cuMemPoolGetAccess(flags, p, loc)); }
RT_EXPORT cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t n, CUmemoryPool p, cudaStream_t s) {
  if (!ptr) return rt_error(CUDA_ERROR_INVALID_VALUE);
  CUdeviceptr d = 0;
  CUresult r = cuMemAllocFromPoolAsync(&d, n, p, s);
  *ptr = (void *)(uintptr_t)d;
  return rt_from(r);
}
