/* cudart/drv_memory.c - cuMem*: device allocations in the emulator's
 * checked address space; pinned, mapped, registered and managed host
 * memory mapped into it at the host's own address (one pointer for both
 * sides, as unified addressing promises); copies and fills. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "cudart/drv.h"

enum alloc_kind { A_DEVICE, A_HOST, A_MANAGED, A_REGISTERED };
typedef struct alloc { uint64_t base, size, map_len; enum alloc_kind kind; char *name; } alloc;
static alloc *allocs;
static size_t nallocs, capallocs;
static unsigned serial;

static alloc *find_alloc(uint64_t base) {
  for (size_t i = 0; i < nallocs; i++) if (allocs[i].base == base) return &allocs[i];
  return NULL;
}

/* The allocation holding addr (any byte of it), or NULL. */
static alloc *alloc_of(uint64_t addr) {
  for (size_t i = 0; i < nallocs; i++)
    if (addr >= allocs[i].base && addr - allocs[i].base < (allocs[i].size ? allocs[i].size : 1)) return &allocs[i];
  return NULL;
}

static alloc *add_alloc(uint64_t base, uint64_t size, enum alloc_kind kind, const char *what) {
  if (nallocs == capallocs) {
    size_t nc = capallocs ? capallocs * 2 : 64;
    alloc *na = realloc(allocs, nc * sizeof *na);
    if (!na) return NULL;
    allocs = na;
    capallocs = nc;
  }
  alloc *a = &allocs[nallocs++];
  memset(a, 0, sizeof *a);
  a->base = base;
  a->size = size;
  a->kind = kind;
  char buf[96];
  snprintf(buf, sizeof buf, "%s #%u (%llu bytes)", what, ++serial, (unsigned long long)size);
  a->name = strdup(buf);
  return a;
}

static void drop_alloc(alloc *a) {
  free(a->name);
  *a = allocs[--nallocs];
}

uint8_t *drv_device_ptr(uint64_t addr, uint64_t n) { return emu_host_ptr(drv.e, addr, n ? n : 1); }

uint8_t *drv_any_ptr(uint64_t addr, uint64_t n) {
  uint8_t *p = drv_device_ptr(addr, n);
  if (p) return p;
  /* not device memory: host memory of the program, unless it lies where
   * only device addresses live (a device pointer out of its allocation) */
  if (!addr || emu_in_windows(addr, n)) return NULL;
  return (uint8_t *)(uintptr_t)addr;
}

enum drv_place drv_place_of(uint64_t addr) {
  const alloc *a = alloc_of(addr);
  if (a) return a->kind == A_HOST || a->kind == A_REGISTERED ? DRV_PINNED : DRV_DEVICE;
  return emu_region_of(drv.e, addr) ? DRV_DEVICE : DRV_PAGEABLE;
}

/* ---- device memory ---- */

DRV_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!dptr) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (drv.sticky) return drv_leave(drv.sticky);
  uint64_t a = emu_alloc(drv.e, bytes ? bytes : 1, "");
  if (!a) { *dptr = 0; return drv_leave(CUDA_ERROR_OUT_OF_MEMORY); }
  alloc *al = add_alloc(a, bytes, A_DEVICE, "cudaMalloc");
  if (!al) { emu_free_region(drv.e, a); return drv_leave(CUDA_ERROR_OUT_OF_MEMORY); }
  /* the region's name is what fault reports print */
  for (uint32_t i = 0; i < drv.e->nregions; i++) if (drv.e->regions[i].base == a) drv.e->regions[i].name = al->name;
  drv_san_alloc(a, bytes);
  *dptr = a;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height, unsigned elem) {
  if (!pitch || !width || !height || (elem != 4 && elem != 8 && elem != 16)) return CUDA_ERROR_INVALID_VALUE;
  size_t p = (width + 511) / 512 * 512;                 /* rows start 512-byte aligned */
  if (height > SIZE_MAX / p) return CUDA_ERROR_INVALID_VALUE;
  *pitch = p;
  return cuMemAlloc_v2(dptr, p * height);
}

static CUresult free_kind(uint64_t base, enum alloc_kind kind) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!base) return drv_leave(CUDA_SUCCESS);
  alloc *a = find_alloc(base);
  if (!a || a->kind != kind) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  emu_free_region(drv.e, base);
  if (kind == A_HOST || kind == A_MANAGED) { munmap((void *)(uintptr_t)base, a->map_len); drv.e->mem_used -= a->map_len; }
  drop_alloc(a);
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr) {
  CUresult r = drv_gmem_free_now(dptr);   /* a graph allocation (drv_pool.c) */
  if (r != CUDA_ERROR_NOT_FOUND) return r;
  if ((r = drv_enter())) return r;
  alloc *a = dptr ? find_alloc(dptr) : NULL;
  enum alloc_kind k = a ? a->kind : A_DEVICE;
  drv_unlock();
  if (k == A_HOST || k == A_REGISTERED) return CUDA_ERROR_INVALID_VALUE;
  return free_kind(dptr, k);                        /* device or managed */
}

/* ---- host memory the device can reach ---- */

/* Fresh zeroed pages mapped into the device at their own address. */
static CUresult host_alloc(void **pp, size_t bytes, enum alloc_kind kind, const char *what) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!pp) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  if (drv.sticky) return drv_leave(drv.sticky);
  size_t len = (bytes ? bytes : 1);
  len = (len + 4095) & ~(size_t)4095;
  if (len < bytes || drv.e->mem_used + len > drv.e->opt.device_bytes) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  alloc *a = add_alloc((uint64_t)(uintptr_t)p, bytes, kind, what);
  if (!a || emu_map_host(drv.e, (uint64_t)(uintptr_t)p, p, bytes ? bytes : 1, a->name)) {
    if (a) drop_alloc(a);
    munmap(p, len);
    return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  }
  a->map_len = len;
  drv.e->mem_used += len;
  *pp = p;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t bytes) { return host_alloc(pp, bytes, A_HOST, "cudaMallocHost"); }
DRV_EXPORT CUresult cuMemHostAlloc(void **pp, size_t bytes, unsigned flags) {
  if (flags & ~0xfu) return CUDA_ERROR_INVALID_VALUE;
  return host_alloc(pp, bytes, A_HOST, "cudaHostAlloc");
}
DRV_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytes, unsigned flags) {
  if (!dptr || (flags != 1 && flags != 2) || !bytes) return CUDA_ERROR_INVALID_VALUE;
  void *p;
  CUresult r = host_alloc(&p, bytes, A_MANAGED, "cudaMallocManaged");
  if (!r) *dptr = (uint64_t)(uintptr_t)p;
  return r;
}

DRV_EXPORT CUresult cuMemFreeHost(void *p) { return free_kind((uint64_t)(uintptr_t)p, A_HOST); }

DRV_EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!p || !bytes || (flags & ~0xfu)) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  uint64_t base = (uint64_t)(uintptr_t)p;
  if (alloc_of(base) || alloc_of(base + bytes - 1)) return drv_leave(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  alloc *a = add_alloc(base, bytes, A_REGISTERED, "cudaHostRegister");
  if (!a) return drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
  if (emu_map_host(drv.e, base, p, bytes, a->name)) {
    drop_alloc(a);
    fprintf(stderr, "ptxemu: cannot register host memory at %p (%zu bytes): it overlaps the emulated device's addresses\n", p, bytes);
    return drv_leave(CUDA_ERROR_INVALID_VALUE);
  }
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemHostUnregister(void *p) {
  CUresult r = drv_enter();
  if (r) return r;
  alloc *a = find_alloc((uint64_t)(uintptr_t)p);
  if (!a || a->kind != A_REGISTERED) return drv_leave(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
  emu_free_region(drv.e, a->base);
  drop_alloc(a);
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *dptr, void *p, unsigned flags) {
  CUresult r = drv_enter();
  if (r) return r;
  alloc *a = alloc_of((uint64_t)(uintptr_t)p);
  if (!dptr || flags || !a || a->kind == A_DEVICE) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  *dptr = (uint64_t)(uintptr_t)p;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemHostGetFlags(unsigned *flags, void *p) {
  CUresult r = drv_enter();
  if (r) return r;
  alloc *a = alloc_of((uint64_t)(uintptr_t)p);
  if (!flags || !a || a->kind == A_DEVICE) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  *flags = 2;          /* CU_MEMHOSTALLOC_DEVICEMAP: all of it is mapped */
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
  CUresult r = drv_enter();
  if (r) return r;
  uint64_t cap = drv.e->opt.device_bytes, used = drv.e->mem_used;
  if (free_bytes) *free_bytes = used < cap ? cap - used : 0;
  if (total) *total = cap;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr dptr) {
  CUresult r = drv_enter();
  if (r) return r;
  const vmm_map *m = drv_vmm_accessible(dptr);
  if (m) {                       /* a mapping: the cuMemMap call's range */
    uint64_t b, n;
    drv_vmm_range(m, &b, &n);
    if (base) *base = b;
    if (size) *size = n;
    return drv_leave(CUDA_SUCCESS);
  }
  alloc *a = alloc_of(dptr);
  if (!a) return drv_leave(CUDA_ERROR_NOT_FOUND);
  if (base) *base = a->base;
  if (size) *size = a->size;
  return drv_leave(CUDA_SUCCESS);
}

/* Pointer attributes: the allocation a pointer lies in. */
DRV_EXPORT CUresult ptxemu_pointer_info(uint64_t p, int *memtype, uint64_t *base, uint64_t *size, bool *managed) {
  CUresult r = drv_enter();
  if (r) return r;
  const vmm_map *m = drv_vmm_accessible(p);
  if (m) {                       /* a mapping: its range is the reservation's */
    const struct emu_vrange *v = emu_reservation_of(drv.e, p);
    *memtype = CU_MEMORYTYPE_DEVICE;
    *base = v->base;
    *size = v->size;
    *managed = false;
    return drv_leave(CUDA_SUCCESS);
  }
  alloc *a = alloc_of(p);
  if (!a) {
    if (emu_reservation_of(drv.e, p)) return drv_leave(CUDA_ERROR_INVALID_VALUE);   /* reserved, not accessible */
    /* module variables are device memory too */
    const mem_region *reg = emu_region_of(drv.e, p);
    if (!reg) return drv_leave(CUDA_ERROR_INVALID_VALUE);
    *memtype = CU_MEMORYTYPE_DEVICE;
    *base = reg->base;
    *size = reg->size;
    *managed = false;
    return drv_leave(CUDA_SUCCESS);
  }
  *memtype = a->kind == A_DEVICE ? CU_MEMORYTYPE_DEVICE : a->kind == A_MANAGED ? CU_MEMORYTYPE_UNIFIED : CU_MEMORYTYPE_HOST;
  *base = a->base;
  *size = a->size;
  *managed = a->kind == A_MANAGED;
  return drv_leave(CUDA_SUCCESS);
}

DRV_EXPORT CUresult cuPointerGetAttribute(void *data, int attr, CUdeviceptr p) {
  CUresult r0 = drv_enter();
  if (r0) return r0;
  const vmm_map *m = drv_vmm_accessible(p);
  if (m) return drv_leave(drv_vmm_pointer_attribute(data, attr, p, m));
  drv_unlock();
  int mt;
  uint64_t base, size;
  bool managed;
  CUresult r = ptxemu_pointer_info(p, &mt, &base, &size, &managed);
  if (r) return r;
  switch (attr) {
  case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *(unsigned *)data = (unsigned)mt; break;
  case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: case CU_POINTER_ATTRIBUTE_HOST_POINTER: *(uint64_t *)data = p; break;
  case CU_POINTER_ATTRIBUTE_IS_MANAGED: *(unsigned *)data = managed; break;
  case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; break;
  case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(uint64_t *)data = base; break;
  case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *(size_t *)data = size; break;
  case CU_POINTER_ATTRIBUTE_MAPPED: *(unsigned *)data = 1; break;
  case CU_POINTER_ATTRIBUTE_CONTEXT: *(CUcontext *)data = &drv.primary; break;
  default: return drv_unsupported("cuPointerGetAttribute (this attribute)");
  }
  return CUDA_SUCCESS;
}

/* ---- copies and fills ---- */

/* Both sides must be whole: a device range inside one allocation, or host memory. */
static CUresult check_copy(uint64_t dst, uint64_t dpitch, uint64_t src, uint64_t spitch, uint64_t width, uint64_t height) {
  if (!height || !width) return CUDA_SUCCESS;
  if (dpitch < width || spitch < width) return CUDA_ERROR_INVALID_VALUE;
  if (height - 1 > (UINT64_MAX - width) / (dpitch > spitch ? dpitch : spitch)) return CUDA_ERROR_INVALID_VALUE;
  uint64_t dext = (height - 1) * dpitch + width, sext = (height - 1) * spitch + width;
  if (!drv_any_ptr(dst, dext) || !drv_any_ptr(src, sext) || drv_vmm_readonly(dst, dext)) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

CUresult drv_memcpy2d(uint64_t dst, uint64_t dpitch, uint64_t src, uint64_t spitch, uint64_t width, uint64_t height,
                      CUstream s, bool async) {
  CUresult r = drv_enter();
  if (r) return r;
  if (drv.sticky) return drv_leave(drv.sticky);
  if ((r = check_copy(dst, dpitch, src, spitch, width, height))) return drv_leave(r);
  if (!width || !height) return drv_leave(CUDA_SUCCESS);
  drv_op op = { .kind = OP_MEMCPY, .dst = dst, .src = src, .dpitch = dpitch, .spitch = spitch, .width = width, .height = height };
  struct CUstream_st *st = drv_stream(s);
  bool capturing = st->capture != NULL;
  r = drv_submit(s, &op);
  /* a synchronous copy returns when it is done; so does an asynchronous
   * one into pageable host memory, as CUDA documents */
  if (!r && !capturing && (!async || !drv_device_ptr(dst, width))) {
    drv_wait_seq(st, st->submitted);
    if (!async) drv_flush_printf();
    r = drv.sticky;
  }
  return drv_leave(r);
}

CUresult drv_memset2d(uint64_t dst, uint64_t pitch, uint32_t value, uint32_t elem, uint64_t width, uint64_t height,
                      CUstream s, bool async) {
  CUresult r = drv_enter();
  if (r) return r;
  if (drv.sticky) return drv_leave(drv.sticky);
  if (!width || !height) return drv_leave(CUDA_SUCCESS);
  if (width > UINT64_MAX / elem || pitch < width * elem || height - 1 > (UINT64_MAX - width * elem) / pitch ||
      !drv_device_ptr(dst, (height - 1) * pitch + width * elem) || drv_vmm_readonly(dst, (height - 1) * pitch + width * elem))
    return drv_leave(CUDA_ERROR_INVALID_VALUE);
  drv_op op = { .kind = OP_MEMSET, .dst = dst, .dpitch = pitch, .value = value, .elem = elem, .width = width, .height = height };
  r = drv_submit(s, &op);
  (void)async;
  return drv_leave(r);
}

DRV_EXPORT CUresult ptxemu_memcpy2d(uint64_t dst, uint64_t dpitch, uint64_t src, uint64_t spitch, uint64_t width,
                                    uint64_t height, CUstream s, int async) {
  return drv_memcpy2d(dst, dpitch, src, spitch, width, height, s, async);
}
DRV_EXPORT CUresult ptxemu_memset2d(uint64_t dst, uint64_t pitch, uint32_t value, uint32_t elem, uint64_t width,
                                    uint64_t height, CUstream s, int async) {
  return drv_memset2d(dst, pitch, value, elem, width, height, s, async);
}
/* Whether [p, p+n) is device memory (kinds of cudaMemcpy are checked with it). */
DRV_EXPORT int ptxemu_is_device(uint64_t p, uint64_t n) {
  drv_lock();
  int r = drv_init() == 0 && drv_device_ptr(p, n) != NULL;
  drv_unlock();
  return r;
}

#define COPY1D(name, dt, st, async_, extra_params, stream) \
  DRV_EXPORT CUresult name(dt dst, st src, size_t n extra_params) { \
    return drv_memcpy2d((uint64_t)(uintptr_t)dst, n, (uint64_t)(uintptr_t)src, n, n, 1, stream, async_); }
#define NOSTREAM
#define WITHSTREAM , CUstream s
COPY1D(cuMemcpyHtoD_v2, CUdeviceptr, const void *, false, NOSTREAM, NULL)
COPY1D(cuMemcpyDtoH_v2, void *, CUdeviceptr, false, NOSTREAM, NULL)
COPY1D(cuMemcpyDtoD_v2, CUdeviceptr, CUdeviceptr, false, NOSTREAM, NULL)
COPY1D(cuMemcpy, CUdeviceptr, CUdeviceptr, false, NOSTREAM, NULL)
COPY1D(cuMemcpyHtoDAsync_v2, CUdeviceptr, const void *, true, WITHSTREAM, s)
COPY1D(cuMemcpyDtoHAsync_v2, void *, CUdeviceptr, true, WITHSTREAM, s)
COPY1D(cuMemcpyDtoDAsync_v2, CUdeviceptr, CUdeviceptr, true, WITHSTREAM, s)
COPY1D(cuMemcpyAsync, CUdeviceptr, CUdeviceptr, true, WITHSTREAM, s)

#define SET1D(name, vt, elem, async_, extra_params, stream) \
  DRV_EXPORT CUresult name(CUdeviceptr dst, vt v, size_t n extra_params) { \
    return drv_memset2d(dst, n * elem, v, elem, n, 1, stream, async_); }
SET1D(cuMemsetD8_v2, unsigned char, 1, false, NOSTREAM, NULL)
SET1D(cuMemsetD16_v2, unsigned short, 2, false, NOSTREAM, NULL)
SET1D(cuMemsetD32_v2, unsigned, 4, false, NOSTREAM, NULL)
SET1D(cuMemsetD8Async, unsigned char, 1, true, WITHSTREAM, s)
SET1D(cuMemsetD16Async, unsigned short, 2, true, WITHSTREAM, s)
SET1D(cuMemsetD32Async, unsigned, 4, true, WITHSTREAM, s)

DRV_EXPORT CUresult cuMemsetD2D8_v2(CUdeviceptr dst, size_t pitch, unsigned char v, size_t w, size_t h) {
  return drv_memset2d(dst, pitch, v, 1, w, h, NULL, false);
}
DRV_EXPORT CUresult cuMemsetD2D32_v2(CUdeviceptr dst, size_t pitch, unsigned v, size_t w, size_t h) {
  return drv_memset2d(dst, pitch, v, 4, w, h, NULL, false);
}

/* A module variable the host reads and writes (__managed__): the host
 * pointer to its bytes, also mapped into the device at that address so a
 * kernel given the host's pointer reaches the same bytes. */
DRV_EXPORT CUresult ptxemu_host_view(uint64_t dptr, uint64_t size, void **host) {
  CUresult r = drv_enter();
  if (r) return r;
  uint8_t *p = drv_device_ptr(dptr, size);
  if (!p || !host) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  const mem_region *reg = emu_region_of(drv.e, dptr);
  if (!emu_region_of(drv.e, (uint64_t)(uintptr_t)p))
    emu_map_host(drv.e, (uint64_t)(uintptr_t)p, p, size ? size : 1, reg ? reg->name : "__managed__ variable");
  *host = p;
  return drv_leave(CUDA_SUCCESS);
}
