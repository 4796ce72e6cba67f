/* cudart/rt_texture.c - CUDA arrays, copies to and from them, texture and
 * surface objects in the Runtime API (over the driver's, drv_texture.c). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/ptxemu_ext.h"
#include "cudart/rt.h"

typedef struct cudaChannelFormatDesc { int x, y, z, w, f; } cudaChannelFormatDesc;
enum { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1, cudaChannelFormatKindFloat = 2 };
typedef struct cudaResourceDesc {
  int resType;
  union {
    struct { CUarray array; } array;
    struct { void *mipmap; } mipmap;
    struct { void *devPtr; cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
    struct { int reserved[32]; } reserved;
  } res;
  unsigned flags;
} cudaResourceDesc;
typedef struct cudaTextureDesc {
  int addressMode[3], filterMode, readMode, sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization, seamlessCubemap;
} cudaTextureDesc;

/* the driver's (drv_texture.c) */
typedef struct { size_t Width, Height, Depth; int Format; unsigned NumChannels, Flags; } drv_array3d_desc;
CUresult cuArray3DCreate_v2(CUarray *, const drv_array3d_desc *);
CUresult cuArray3DGetDescriptor_v2(drv_array3d_desc *, CUarray);
CUresult cuArrayDestroy(CUarray);

RT_EXPORT cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f) {
  return (cudaChannelFormatDesc){ x, y, z, w, f };
}

/* CUarray_format and channel count of a channel description; 0 if unusable. */
static int format_of(const cudaChannelFormatDesc *d, unsigned *channels) {
  int bits = d->x;
  unsigned n = 0;
  const int c[4] = { d->x, d->y, d->z, d->w };
  for (int i = 0; i < 4; i++) {
    if (!c[i]) break;
    if (c[i] != bits) return 0;      /* every channel the same size */
    n++;
  }
  if (n == 3 || !n) return 0;
  *channels = n;
  switch (d->f) {
  case cudaChannelFormatKindUnsigned: return bits == 8 ? 0x01 : bits == 16 ? 0x02 : bits == 32 ? 0x03 : 0;
  case cudaChannelFormatKindSigned: return bits == 8 ? 0x08 : bits == 16 ? 0x09 : bits == 32 ? 0x0a : 0;
  case cudaChannelFormatKindFloat: return bits == 16 ? 0x10 : bits == 32 ? 0x20 : 0;
  default: return 0;
  }
}

RT_EXPORT cudaError_t cudaMalloc3DArray(CUarray *a, const cudaChannelFormatDesc *desc, cudaExtent e, unsigned flags) {
  if (!a || !desc) return rt_error(CUDA_ERROR_INVALID_VALUE);
  unsigned ch;
  int fmt = format_of(desc, &ch);
  if (!fmt) return rt_error(CUDA_ERROR_INVALID_VALUE);
  drv_array3d_desc d = { e.width, e.height, e.depth, fmt, ch, flags };
  return rt_from(cuArray3DCreate_v2(a, &d));
}

RT_EXPORT cudaError_t cudaMallocArray(CUarray *a, const cudaChannelFormatDesc *desc, size_t w, size_t h, unsigned flags) {
  cudaExtent e = { w, h, 0 };
  return cudaMalloc3DArray(a, desc, e, flags);
}

RT_EXPORT cudaError_t cudaFreeArray(CUarray a) {
  if (!a) return 0;
  return rt_from(cuArrayDestroy(a));
}

RT_EXPORT cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *desc, cudaExtent *e, unsigned *flags, CUarray a) {
  drv_array3d_desc d;
  CUresult r = cuArray3DGetDescriptor_v2(&d, a);
  if (r) return rt_from(r);
  int bits = (d.Format & 0x0f) == 1 || d.Format == 0x08 ? 8 : (d.Format & 0x0f) == 2 || d.Format == 0x09 || d.Format == 0x10 ? 16 : 32;
  int kind = d.Format == 0x10 || d.Format == 0x20 ? cudaChannelFormatKindFloat : d.Format >= 0x08 ? cudaChannelFormatKindSigned
                                                                                                 : cudaChannelFormatKindUnsigned;
  if (desc) *desc = (cudaChannelFormatDesc){ bits, d.NumChannels > 1 ? bits : 0, d.NumChannels > 2 ? bits : 0,
                                             d.NumChannels > 3 ? bits : 0, kind };
  if (e) *e = (cudaExtent){ d.Width, d.Height, d.Depth };
  if (flags) *flags = d.Flags;
  return 0;
}

RT_EXPORT cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *desc, CUarray a) { return cudaArrayGetInfo(desc, NULL, NULL, a); }

cudaError_t rt_array_layout(CUarray a, uint64_t *base, uint64_t *pitch, uint64_t *rows, uint64_t *slices, uint64_t *elem) {
  drv_array3d_desc d;
  CUresult r = ptxemu_array_info(a, base, pitch, rows, slices);
  if (!r) r = cuArray3DGetDescriptor_v2(&d, a);
  if (r) return rt_from(r);
  *elem = d.Width ? *pitch / d.Width : 1;
  return 0;
}

/* Where a block of width bytes and height rows at (woff bytes, hoff rows)
 * of array a lies: its device address and the array's row pitch; an error
 * when it leaves the array. */
static cudaError_t array_rect(CUarray a, size_t woff, size_t hoff, size_t width, size_t height, uint64_t *dev,
                              uint64_t *pitch) {
  uint64_t base, rows, slices;
  CUresult r = ptxemu_array_info(a, &base, pitch, &rows, &slices);
  if (r) return rt_from(r);
  if (woff > *pitch || width > *pitch - woff || hoff > rows * slices || height > rows * slices - hoff)
    return rt_error(CUDA_ERROR_INVALID_VALUE);
  *dev = base + hoff * *pitch + woff;
  return 0;
}

/* Where count bytes from (woff, hoff) on, row after row, lie in array a; an
 * error when they leave it or a size overflows. */
static cudaError_t array_run(CUarray a, size_t woff, size_t hoff, size_t count, uint64_t *dev) {
  uint64_t base, pitch, rows, slices, start;
  CUresult r = ptxemu_array_info(a, &base, &pitch, &rows, &slices);
  if (r) return rt_from(r);
  uint64_t total = pitch * rows * slices;
  if (__builtin_mul_overflow((uint64_t)hoff, pitch, &start) || __builtin_add_overflow(start, (uint64_t)woff, &start) ||
      start > total || count > total - start)
    return rt_error(CUDA_ERROR_INVALID_VALUE);
  *dev = base + start;
  return 0;
}

/* A copy into or out of an array: a 2-D copy of its rows (offsets in bytes
 * and rows, as the runtime takes them), checked against the array. */
static cudaError_t array_copy(CUarray a, size_t woff, size_t hoff, void *host, size_t hpitch, size_t width, size_t height,
                              bool to_array, cudaStream_t s, bool async) {
  uint64_t dev, pitch;
  cudaError_t e = array_rect(a, woff, hoff, width, height, &dev, &pitch);
  if (e) return e;
  if (hpitch < width) return rt_error(CUDA_ERROR_INVALID_VALUE);
  if (to_array) return rt_from(ptxemu_memcpy2d(dev, pitch, (uint64_t)(uintptr_t)host, hpitch, width, height, s, async));
  return rt_from(ptxemu_memcpy2d((uint64_t)(uintptr_t)host, hpitch, dev, pitch, width, height, s, async));
}

RT_EXPORT cudaError_t cudaMemcpy2DToArray(CUarray dst, size_t wo, size_t ho, const void *src, size_t spitch, size_t w,
                                          size_t h, int kind) {
  (void)kind;
  return array_copy(dst, wo, ho, (void *)src, spitch, w, h, true, NULL, false);
}
RT_EXPORT cudaError_t cudaMemcpy2DToArrayAsync(CUarray dst, size_t wo, size_t ho, const void *src, size_t spitch,
                                               size_t w, size_t h, int kind, cudaStream_t s) {
  (void)kind;
  return array_copy(dst, wo, ho, (void *)src, spitch, w, h, true, s, true);
}
RT_EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, CUarray src, size_t wo, size_t ho, size_t w,
                                            size_t h, int kind) {
  (void)kind;
  return array_copy(src, wo, ho, dst, dpitch, w, h, false, NULL, false);
}
RT_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, CUarray src, size_t wo, size_t ho, size_t w,
                                                 size_t h, int kind, cudaStream_t s) {
  (void)kind;
  return array_copy(src, wo, ho, dst, dpitch, w, h, false, s, true);
}
/* The 1-D forms copy count bytes from (wOffset, hOffset) on, row after row. */
static cudaError_t array_copy_linear(CUarray a, size_t wo, size_t ho, void *host, size_t count, bool to_array,
                                     cudaStream_t s, bool async) {
  uint64_t dev;
  cudaError_t e = array_run(a, wo, ho, count, &dev);
  if (e) return e;
  if (to_array) return rt_from(ptxemu_memcpy2d(dev, count, (uint64_t)(uintptr_t)host, count, count, 1, s, async));
  return rt_from(ptxemu_memcpy2d((uint64_t)(uintptr_t)host, count, dev, count, count, 1, s, async));
}
RT_EXPORT cudaError_t cudaMemcpyToArray(CUarray dst, size_t wo, size_t ho, const void *src, size_t count, int kind) {
  (void)kind;
  return array_copy_linear(dst, wo, ho, (void *)src, count, true, NULL, false);
}
RT_EXPORT cudaError_t cudaMemcpyFromArray(void *dst, CUarray src, size_t wo, size_t ho, size_t count, int kind) {
  (void)kind;
  return array_copy_linear(src, wo, ho, dst, count, false, NULL, false);
}
RT_EXPORT cudaError_t cudaMemcpyToArrayAsync(CUarray dst, size_t wo, size_t ho, const void *src, size_t count, int kind,
                                             cudaStream_t s) {
  (void)kind;
  return array_copy_linear(dst, wo, ho, (void *)src, count, true, s, true);
}
RT_EXPORT cudaError_t cudaMemcpyFromArrayAsync(void *dst, CUarray src, size_t wo, size_t ho, size_t count, int kind,
                                               cudaStream_t s) {
  (void)kind;
  return array_copy_linear(src, wo, ho, dst, count, false, s, true);
}

/* Array to array: a 2-D copy of width bytes and height rows between two
 * places (offsets in bytes and rows), each checked against its array. */
RT_EXPORT cudaError_t cudaMemcpy2DArrayToArray(CUarray dst, size_t dwo, size_t dho, CUarray src, size_t swo, size_t sho,
                                               size_t width, size_t height, int kind) {
  (void)kind;
  uint64_t to, from, dp, sp;
  bool empty = !width || !height;                  /* nothing to copy: only the arrays are checked */
  cudaError_t e = array_rect(dst, empty ? 0 : dwo, empty ? 0 : dho, width, height, &to, &dp);
  if (!e) e = array_rect(src, empty ? 0 : swo, empty ? 0 : sho, width, height, &from, &sp);
  if (e || empty) return e;
  return rt_from(ptxemu_memcpy2d(to, dp, from, sp, width, height, NULL, 0));
}
/* count bytes from (wOffsetSrc, hOffsetSrc) on, row after row */
RT_EXPORT cudaError_t cudaMemcpyArrayToArray(CUarray dst, size_t dwo, size_t dho, CUarray src, size_t swo, size_t sho,
                                             size_t count, int kind) {
  (void)kind;
  uint64_t to, from;
  cudaError_t e = array_run(dst, dwo, dho, count, &to);
  if (!e) e = array_run(src, swo, sho, count, &from);
  if (e || !count) return e;
  return rt_from(ptxemu_memcpy2d(to, count, from, count, count, 1, NULL, 0));
}

static cudaError_t resource_of(const cudaResourceDesc *rd, ptxemu_resource *r) {
  if (!rd) return CUDA_ERROR_INVALID_VALUE;
  memset(r, 0, sizeof *r);
  r->kind = rd->resType;
  if (rd->resType == 0) r->array = rd->res.array.array;
  else if (rd->resType == 2 || rd->resType == 3) {
    const cudaChannelFormatDesc *d = rd->resType == 2 ? &rd->res.linear.desc : &rd->res.pitch2D.desc;
    r->format = format_of(d, &r->channels);
    if (!r->format) return CUDA_ERROR_INVALID_VALUE;
    if (rd->resType == 2) { r->dptr = (uint64_t)(uintptr_t)rd->res.linear.devPtr; r->bytes = rd->res.linear.sizeInBytes; }
    else {
      r->dptr = (uint64_t)(uintptr_t)rd->res.pitch2D.devPtr;
      r->width = rd->res.pitch2D.width;
      r->height = rd->res.pitch2D.height;
      r->pitch = rd->res.pitch2D.pitchInBytes;
    }
  } else return rt_unsupported("texture objects over mipmapped arrays");
  return 0;
}

/* The descriptors each object was created from, for the getters: a list
 * (objects live as long as the process, as the emulator's table). */
typedef struct made { uint64_t handle; cudaResourceDesc rd; cudaTextureDesc td; bool surface; } made;
static made *mades;
static size_t nmades, capmades;
static pthread_mutex_t made_lock = PTHREAD_MUTEX_INITIALIZER;

static void remember(uint64_t handle, const cudaResourceDesc *rd, const cudaTextureDesc *td, bool surface) {
  pthread_mutex_lock(&made_lock);
  if (nmades == capmades) {
    size_t cap = capmades ? 2 * capmades : 64;
    made *m = realloc(mades, cap * sizeof *m);
    if (m) { mades = m; capmades = cap; }
  }
  if (nmades < capmades) {
    made m = { .handle = handle, .rd = *rd, .surface = surface };
    if (td) m.td = *td;
    mades[nmades++] = m;
  }
  pthread_mutex_unlock(&made_lock);
}

/* The descriptors of object h (a texture or a surface); false if unknown. */
static bool recall(uint64_t h, bool surface, cudaResourceDesc *rd, cudaTextureDesc *td) {
  bool found = false;
  pthread_mutex_lock(&made_lock);
  for (size_t i = nmades; i-- > 0;)
    if (mades[i].handle == h && mades[i].surface == surface) {
      if (rd) *rd = mades[i].rd;
      if (td) *td = mades[i].td;
      found = true;
      break;
    }
  pthread_mutex_unlock(&made_lock);
  return found;
}

RT_EXPORT cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc *rd, uint64_t t) {
  if (!rd || !recall(t, false, rd, NULL)) return rt_error(CUDA_ERROR_INVALID_VALUE);
  return 0;
}
RT_EXPORT cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc *td, uint64_t t) {
  if (!td || !recall(t, false, NULL, td)) return rt_error(CUDA_ERROR_INVALID_VALUE);
  return 0;
}
RT_EXPORT cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *rd, uint64_t s) {
  if (!rd || !recall(s, true, rd, NULL)) return rt_error(CUDA_ERROR_INVALID_VALUE);
  return 0;
}

RT_EXPORT cudaError_t cudaCreateTextureObject(uint64_t *t, const cudaResourceDesc *rd, const cudaTextureDesc *td,
                                              const void *view) {
  if (!t || !td) return rt_error(CUDA_ERROR_INVALID_VALUE);
  if (view) return rt_unsupported("cudaCreateTextureObject with a resource view");
  ptxemu_resource r;
  cudaError_t e = resource_of(rd, &r);
  if (e) return rt_error(e);
  ptxemu_sampling s = { .filter = td->filterMode, .read_normalized = td->readMode == 1, .srgb = td->sRGB,
                        .normalized_coords = td->normalizedCoords };
  for (int i = 0; i < 3; i++) s.addr[i] = td->addressMode[i];
  memcpy(s.border, td->borderColor, sizeof s.border);
  CUresult res = ptxemu_object_create(t, &r, &s, 0);
  if (!res) remember(*t, rd, td, false);
  return rt_from(res);
}

RT_EXPORT cudaError_t cudaCreateSurfaceObject(uint64_t *sobj, const cudaResourceDesc *rd) {
  if (!sobj) return rt_error(CUDA_ERROR_INVALID_VALUE);
  ptxemu_resource r;
  cudaError_t e = resource_of(rd, &r);
  if (e) return rt_error(e);
  CUresult res = ptxemu_object_create(sobj, &r, NULL, 1);
  if (!res) remember(*sobj, rd, NULL, true);
  return rt_from(res);
}

/* Objects stay in the emulator's table until the process ends. */
RT_EXPORT cudaError_t cudaDestroyTextureObject(uint64_t t) { return t ? 0 : rt_error(CUDA_ERROR_INVALID_VALUE); }
RT_EXPORT cudaError_t cudaDestroySurfaceObject(uint64_t s) { return s ? 0 : rt_error(CUDA_ERROR_INVALID_VALUE); }
