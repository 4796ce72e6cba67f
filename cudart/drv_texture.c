/* cudart/drv_texture.c - CUDA arrays, texture and surface objects, tensor
 * maps.  An array is device memory holding its texels row-major with no
 * padding (layers, or cube faces, one after another): the layout the
 * emulator's texture objects read (emu/texobj.h). */
#include <stdlib.h>
#include <string.h>
#include "cudart/drv.h"
#include "cudart/ptxemu_ext.h"
#include "emu/texobj.h"

/* CUarray_format */
enum { CU_AD_FORMAT_UNSIGNED_INT8 = 0x01, CU_AD_FORMAT_UNSIGNED_INT16 = 0x02, CU_AD_FORMAT_UNSIGNED_INT32 = 0x03,
       CU_AD_FORMAT_SIGNED_INT8 = 0x08, CU_AD_FORMAT_SIGNED_INT16 = 0x09, CU_AD_FORMAT_SIGNED_INT32 = 0x0a,
       CU_AD_FORMAT_HALF = 0x10, CU_AD_FORMAT_FLOAT = 0x20 };
/* CUDA_ARRAY3D_* flags */
enum { CUDA_ARRAY3D_LAYERED = 0x01, CUDA_ARRAY3D_SURFACE_LDST = 0x02, CUDA_ARRAY3D_CUBEMAP = 0x04 };

struct CUarray_st {
  uint64_t dptr;                 /* the texels                                   */
  uint32_t width, height, depth; /* height/depth 0 as given: fewer dimensions    */
  uint32_t layers;               /* layered: the layers (depth as given)        */
  bool cube;
  int format;
  uint32_t channels, elem;       /* bytes of one channel                          */
  unsigned flags;
};

typedef struct CUDA_ARRAY3D_DESCRIPTOR {
  size_t Width, Height, Depth;
  int Format;
  unsigned NumChannels, Flags;
} CUDA_ARRAY3D_DESCRIPTOR;
typedef struct CUDA_ARRAY_DESCRIPTOR {
  size_t Width, Height;
  int Format;
  unsigned NumChannels;
} CUDA_ARRAY_DESCRIPTOR;

static int format_bytes(int f) {
  switch (f) {
  case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8: return 1;
  case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16: case CU_AD_FORMAT_HALF: return 2;
  case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT32: case CU_AD_FORMAT_FLOAT: return 4;
  default: return 0;
  }
}

static int emu_format(int f) {
  switch (f) {
  case CU_AD_FORMAT_UNSIGNED_INT8: return TEXFMT_U8;
  case CU_AD_FORMAT_SIGNED_INT8: return TEXFMT_S8;
  case CU_AD_FORMAT_UNSIGNED_INT16: return TEXFMT_U16;
  case CU_AD_FORMAT_SIGNED_INT16: return TEXFMT_S16;
  case CU_AD_FORMAT_UNSIGNED_INT32: return TEXFMT_U32;
  case CU_AD_FORMAT_SIGNED_INT32: return TEXFMT_S32;
  case CU_AD_FORMAT_HALF: return TEXFMT_F16;
  default: return TEXFMT_F32;
  }
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes);
CUresult cuMemFree_v2(CUdeviceptr dptr);

DRV_EXPORT CUresult cuArray3DCreate_v2(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d) {
  if (!out || !d) return CUDA_ERROR_INVALID_VALUE;
  int eb = format_bytes(d->Format);
  bool layered = d->Flags & CUDA_ARRAY3D_LAYERED, cube = d->Flags & CUDA_ARRAY3D_CUBEMAP;
  if (!eb || (d->NumChannels != 1 && d->NumChannels != 2 && d->NumChannels != 4) || !d->Width ||
      d->Width > 131072 || d->Height > 65536 || d->Depth > 16384 || (d->Depth && !d->Height && !layered) ||
      (cube && (d->Width != d->Height || (layered ? d->Depth % 6 : d->Depth != 6))) || (layered && !d->Depth))
    return CUDA_ERROR_INVALID_VALUE;
  struct CUarray_st *a = calloc(1, sizeof *a);
  if (!a) return CUDA_ERROR_OUT_OF_MEMORY;
  a->width = (uint32_t)d->Width;
  a->height = (uint32_t)d->Height;
  a->depth = layered || cube ? 0 : (uint32_t)d->Depth;
  a->layers = layered ? (uint32_t)(cube ? d->Depth / 6 : d->Depth) : 0;
  a->cube = cube;
  a->format = d->Format;
  a->channels = d->NumChannels;
  a->elem = (uint32_t)eb;
  a->flags = d->Flags;
  uint64_t bytes = (uint64_t)a->width * (a->height ? a->height : 1) * (d->Depth ? d->Depth : 1) * eb * d->NumChannels;
  CUresult r = cuMemAlloc_v2(&a->dptr, bytes);
  if (r) { free(a); return r; }
  *out = a;
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuArrayCreate_v2(CUarray *out, const CUDA_ARRAY_DESCRIPTOR *d) {
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  CUDA_ARRAY3D_DESCRIPTOR d3 = { d->Width, d->Height, 0, d->Format, d->NumChannels, 0 };
  return cuArray3DCreate_v2(out, &d3);
}

DRV_EXPORT CUresult cuArrayDestroy(CUarray a) {
  if (!a) return CUDA_ERROR_INVALID_HANDLE;
  cuMemFree_v2(a->dptr);
  free(a);
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *d, CUarray a) {
  if (!d || !a) return CUDA_ERROR_INVALID_VALUE;
  d->Width = a->width;
  d->Height = a->height;
  d->Depth = a->layers ? (a->cube ? a->layers * 6 : a->layers) : a->cube ? 6 : a->depth;
  d->Format = a->format;
  d->NumChannels = a->channels;
  d->Flags = a->flags;
  return CUDA_SUCCESS;
}

/* Where an array's texels are: device address, row pitch, rows per slice. */
DRV_EXPORT CUresult ptxemu_array_info(CUarray a, uint64_t *dptr, uint64_t *pitch, uint64_t *rows, uint64_t *slices) {
  if (!a) return CUDA_ERROR_INVALID_HANDLE;
  *dptr = a->dptr;
  *pitch = (uint64_t)a->width * a->elem * a->channels;
  *rows = a->height ? a->height : 1;
  *slices = a->layers ? (a->cube ? a->layers * 6 : a->layers) : a->cube ? 6 : a->depth ? a->depth : 1;
  return CUDA_SUCCESS;
}

/* ---- texture and surface objects ---- */

DRV_EXPORT CUresult ptxemu_object_create(uint64_t *handle, const ptxemu_resource *res, const ptxemu_sampling *s, int surface) {
  CUresult r = drv_enter();
  if (r) return r;
  if (!handle || !res) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  emu_texdesc d = { .surface = surface != 0 };
  if (res->kind == 0) {
    const struct CUarray_st *a = res->array;
    if (!a) return drv_leave(CUDA_ERROR_INVALID_HANDLE);
    if (surface && !(a->flags & CUDA_ARRAY3D_SURFACE_LDST)) return drv_leave(CUDA_ERROR_INVALID_VALUE);
    d.addr = a->dptr;
    d.fmt = (uint8_t)emu_format(a->format);
    d.channels = (uint8_t)a->channels;
    d.ndims = (uint8_t)(a->cube ? 2 : a->depth ? 3 : a->height ? 2 : 1);
    d.cube = a->cube;
    d.width = a->width;
    d.height = a->height ? a->height : 1;
    d.depth = a->depth ? a->depth : 1;
    d.layers = a->layers;
    d.pitch = (uint64_t)a->width * a->elem * a->channels;
  } else if (res->kind == 2 || res->kind == 3) {
    int eb = format_bytes(res->format);
    if (!eb || (res->channels != 1 && res->channels != 2 && res->channels != 4)) return drv_leave(CUDA_ERROR_INVALID_VALUE);
    uint64_t texel = (uint64_t)eb * res->channels;
    d.addr = res->dptr;
    d.fmt = (uint8_t)emu_format(res->format);
    d.channels = (uint8_t)res->channels;
    d.ndims = res->kind == 2 ? 1 : 2;
    d.width = (uint32_t)(res->kind == 2 ? res->bytes / texel : res->width);
    d.height = res->kind == 2 ? 1 : (uint32_t)res->height;
    d.depth = 1;
    d.pitch = res->kind == 2 ? res->bytes : res->pitch;
    if (!d.width || (res->kind == 3 && (res->pitch < res->width * texel || !res->height)) ||
        !drv_device_ptr(d.addr, (uint64_t)(d.height - 1) * d.pitch + (uint64_t)d.width * texel))
      return drv_leave(CUDA_ERROR_INVALID_VALUE);
  } else {
    return drv_leave(drv_unsupported("texture objects over mipmapped arrays"));
  }
  if (s && !surface) {
    for (int i = 0; i < 3; i++) d.addr_mode[i] = (uint8_t)(s->addr[i] & 3);
    d.linear = s->filter == 1;
    d.read_normalized = s->read_normalized != 0;
    d.normalized_coords = s->normalized_coords != 0;
    d.srgb = s->srgb != 0;
    memcpy(d.border, s->border, sizeof d.border);
    /* as in CUDA, wrap and mirror need normalized coordinates */
    if (!d.normalized_coords) for (int i = 0; i < 3; i++) if (d.addr_mode[i] == TEXADDR_WRAP || d.addr_mode[i] == TEXADDR_MIRROR) d.addr_mode[i] = TEXADDR_CLAMP;
    if (d.linear && !d.read_normalized && d.fmt != TEXFMT_F32 && d.fmt != TEXFMT_F16) return drv_leave(CUDA_ERROR_INVALID_VALUE);
  } else if (!surface) {
    d.addr_mode[0] = d.addr_mode[1] = d.addr_mode[2] = TEXADDR_CLAMP;
  }
  *handle = emu_texture_create(drv.e, &d);
  return drv_leave(*handle ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY);
}

/* the driver's descriptors */
typedef struct CUDA_RESOURCE_DESC {
  int resType;
  union {
    struct { CUarray hArray; } array;
    struct { CUdeviceptr devPtr; int format; unsigned numChannels; size_t sizeInBytes; } linear;
    struct { CUdeviceptr devPtr; int format; unsigned numChannels; size_t width, height, pitchInBytes; } pitch2D;
    struct { int reserved[32]; } reserved;
  } res;
  unsigned flags;
} CUDA_RESOURCE_DESC;
typedef struct CUDA_TEXTURE_DESC {
  int addressMode[3], filterMode;
  unsigned flags, maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
} CUDA_TEXTURE_DESC;
enum { CU_TRSF_READ_AS_INTEGER = 1, CU_TRSF_NORMALIZED_COORDINATES = 2, CU_TRSF_SRGB = 0x10 };

static CUresult resource_of(const CUDA_RESOURCE_DESC *rd, ptxemu_resource *r) {
  if (!rd) return CUDA_ERROR_INVALID_VALUE;
  memset(r, 0, sizeof *r);
  r->kind = rd->resType;
  if (rd->resType == 0) r->array = rd->res.array.hArray;
  else if (rd->resType == 2) {
    r->dptr = rd->res.linear.devPtr; r->format = rd->res.linear.format; r->channels = rd->res.linear.numChannels;
    r->bytes = rd->res.linear.sizeInBytes;
  } else if (rd->resType == 3) {
    r->dptr = rd->res.pitch2D.devPtr; r->format = rd->res.pitch2D.format; r->channels = rd->res.pitch2D.numChannels;
    r->width = rd->res.pitch2D.width; r->height = rd->res.pitch2D.height; r->pitch = rd->res.pitch2D.pitchInBytes;
  }
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuTexObjectCreate(CUtexObject *t, const CUDA_RESOURCE_DESC *rd, const CUDA_TEXTURE_DESC *td,
                                      const void *view) {
  if (view) return drv_unsupported("cuTexObjectCreate with a resource view");
  ptxemu_resource r;
  CUresult e = resource_of(rd, &r);
  if (e) return e;
  ptxemu_sampling s = { .filter = td ? td->filterMode : 0 };
  if (td) {
    for (int i = 0; i < 3; i++) s.addr[i] = td->addressMode[i];
    s.read_normalized = !(td->flags & CU_TRSF_READ_AS_INTEGER) &&
                        r.format != CU_AD_FORMAT_FLOAT && r.format != CU_AD_FORMAT_HALF &&
                        r.format != CU_AD_FORMAT_UNSIGNED_INT32 && r.format != CU_AD_FORMAT_SIGNED_INT32;
    s.normalized_coords = (td->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    s.srgb = (td->flags & CU_TRSF_SRGB) != 0;
    memcpy(s.border, td->borderColor, sizeof s.border);
  }
  return ptxemu_object_create(t, &r, &s, 0);
}
DRV_EXPORT CUresult cuSurfObjectCreate(CUsurfObject *sobj, const CUDA_RESOURCE_DESC *rd) {
  ptxemu_resource r;
  CUresult e = resource_of(rd, &r);
  if (e) return e;
  return ptxemu_object_create(sobj, &r, NULL, 1);
}
/* Objects stay in the emulator's table until the process ends. */
DRV_EXPORT CUresult cuTexObjectDestroy(CUtexObject t) { return t ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }
DRV_EXPORT CUresult cuSurfObjectDestroy(CUsurfObject s) { return s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }

/* ---- tensor maps (the 128 bytes cp.async.bulk.tensor reads) ---- */

DRV_EXPORT CUresult cuTensorMapEncodeTiled(void *map, int dtype, unsigned rank, void *addr, const uint64_t *dims,
                                           const uint64_t *strides, const unsigned *box, const unsigned *estrides,
                                           int interleave, int swizzle, int l2promo, int oobfill) {
  if (!map || !addr || !dims || !box || rank < 1 || rank > 5 || dtype < 0 || dtype > 12 || (rank > 1 && !strides) ||
      ((uintptr_t)addr & 15))
    return CUDA_ERROR_INVALID_VALUE;
  emu_tmapdesc d = { .addr = (uint64_t)(uintptr_t)addr, .dtype = dtype, .rank = (int)rank, .interleave = interleave,
                     .swizzle = swizzle, .l2promo = l2promo, .oobfill = oobfill };
  for (unsigned i = 0; i < rank; i++) {
    if (!dims[i] || dims[i] > (1ull << 32) || !box[i] || box[i] > 256) return CUDA_ERROR_INVALID_VALUE;
    d.dim[i] = dims[i];
    d.box[i] = box[i];
    d.estride[i] = estrides ? estrides[i] : 1;
    if (d.estride[i] < 1 || d.estride[i] > 8) return CUDA_ERROR_INVALID_VALUE;
    if (i) {
      if (strides[i - 1] % 16 || strides[i - 1] >= (1ull << 40)) return CUDA_ERROR_INVALID_VALUE;
      d.stride[i] = strides[i - 1];
    }
  }
  emu_tensormap_encode(map, &d);
  return CUDA_SUCCESS;
}

DRV_EXPORT CUresult cuTensorMapEncodeIm2col(void *map, int dtype, unsigned rank, void *addr, const uint64_t *dims,
                                            const uint64_t *strides, const int *lower, const int *upper,
                                            unsigned channels, unsigned pixels, const unsigned *estrides,
                                            int interleave, int swizzle, int l2promo, int oobfill) {
  if (!map || !addr || !dims || !lower || !upper || rank < 3 || rank > 5 || dtype < 0 || dtype > 12 || !strides ||
      ((uintptr_t)addr & 15) || !channels || channels > 256 || !pixels || pixels > 1024)
    return CUDA_ERROR_INVALID_VALUE;
  emu_tmapdesc d = { .addr = (uint64_t)(uintptr_t)addr, .dtype = dtype, .rank = (int)rank, .interleave = interleave,
                     .swizzle = swizzle, .l2promo = l2promo, .oobfill = oobfill, .im2col = 1,
                     .channels = channels, .pixels = pixels };
  for (unsigned i = 0; i < rank; i++) {
    if (!dims[i] || dims[i] > (1ull << 32)) return CUDA_ERROR_INVALID_VALUE;
    d.dim[i] = dims[i];
    d.estride[i] = estrides ? estrides[i] : 1;
    if (d.estride[i] < 1 || d.estride[i] > 8) return CUDA_ERROR_INVALID_VALUE;
    if (i) {
      if (strides[i - 1] % 16 || strides[i - 1] >= (1ull << 40)) return CUDA_ERROR_INVALID_VALUE;
      d.stride[i] = strides[i - 1];
    }
  }
  /* the bounding box's corners: one per spatial dimension (1 .. rank-2) */
  for (unsigned i = 0; i + 2 < rank; i++) {
    int lim = rank == 3 ? 32768 : rank == 4 ? 128 : 16;
    if (lower[i] < -lim || lower[i] >= lim || upper[i] < -lim || upper[i] >= lim) return CUDA_ERROR_INVALID_VALUE;
    d.lower[i] = lower[i];
    d.upper[i] = upper[i];
  }
  emu_tensormap_encode(map, &d);
  return CUDA_SUCCESS;
}
