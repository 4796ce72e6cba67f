/* emu/texobj.h - texture and surface objects of an emulated device, and the
 * encoding of tensor maps (what the host side of a CUDA program creates with
 * cudaCreateTextureObject / cudaCreateSurfaceObject / cuTensorMapEncodeTiled).
 *
 * A texture or surface object lives in a table owned by the emu
 * (e->textures); its handle, the 64-bit value a kernel receives as a
 * cudaTextureObject_t / cudaSurfaceObject_t, is its index in the table + 1
 * (handles 1, 2, 3 ... in creation order; 0 is never a valid handle).  The
 * texels stay in device memory (a buffer) and are read when an instruction
 * executes (emu/exec_tex.c). */
#ifndef EMU_TEXOBJ_H
#define EMU_TEXOBJ_H
#include <stdbool.h>
#include <stdint.h>
#include "emu/emu.h"

/* channel element formats */
enum emu_texfmt { TEXFMT_U8, TEXFMT_S8, TEXFMT_U16, TEXFMT_S16, TEXFMT_U32, TEXFMT_S32, TEXFMT_F16, TEXFMT_F32 };
/* address modes (cudaTextureAddressMode order) */
enum emu_texaddr { TEXADDR_WRAP, TEXADDR_CLAMP, TEXADDR_MIRROR, TEXADDR_BORDER };

typedef struct emu_texdesc {
  bool surface;                 /* a surface object (suld/sust/sured/suq), else a texture */
  uint64_t addr;                /* device address of texel (0, 0, 0) of layer/face 0        */
  uint8_t fmt;                  /* enum emu_texfmt                                           */
  uint8_t channels;             /* 1, 2 or 4                                                 */
  uint8_t ndims;                /* 1..3                                                      */
  bool cube;                    /* 6 faces per layer                                         */
  uint32_t width, height, depth;/* 1 where the texture has no such dimension                 */
  uint32_t layers;              /* 0: not layered; cube: number of cubemaps                  */
  uint64_t pitch;               /* bytes between rows; a slice is height rows, a layer (or
                                   face) depth slices                                        */
  uint8_t addr_mode[3];         /* enum emu_texaddr for x, y, z                              */
  bool linear;                  /* filter mode linear                                        */
  bool normalized_coords;
  bool read_normalized;         /* unorm/snorm to float                                      */
  bool srgb;
  float border[4];              /* border colour r g b a                                     */
} emu_texdesc;

/* Add an object; returns its handle, or 0 when out of memory. */
uint64_t emu_texture_create(emu *e, const emu_texdesc *d);
/* The object of a handle, or NULL. */
const emu_texdesc *emu_texture_get(const emu *e, uint64_t handle);
/* Bind a handle to the module's .texref (texture) or .surfref (surface)
 * variable SYMBOL: returns 1 when bound, 0 when the module has no variable
 * of that name, -1 when it has one of another type. */
int emu_texture_bind(emu *e, const char *symbol, uint64_t handle);
/* Release the table (before emu_free). */
void emu_textures_free(emu *e);

/* cuTensorMapEncodeTiled's arguments (CUtensorMap* enumeration values). */
typedef struct emu_tmapdesc {
  uint64_t addr;                /* globalAddress                                             */
  int dtype, rank;              /* CUtensorMapDataType 0..12; 1..5                           */
  uint64_t dim[5];              /* globalDim, innermost first                                */
  uint64_t stride[5];           /* globalStrides of dimensions 1..rank-1 in stride[1..]      */
  uint32_t box[5], estride[5];
  int interleave, swizzle, l2promo, oobfill;
  /* cuTensorMapEncodeIm2col instead (im2col != 0): the bounding-box corners
   * of dimensions 1..rank-2, channelsPerPixel, pixelsPerColumn (box unused) */
  int im2col;
  int32_t lower[3], upper[3];
  uint32_t channels, pixels;
  int swizzle_atomicity;        /* tensormap.replace .swizzle_atomicity (PTX numbering: 0 16B,
                                   1 32B, 2 32B + 8B flip, 3 64B); the driver API has none: 0 */
} emu_tmapdesc;

/* The 128 bytes of ptxemu's tensor-map layout ("PXTM", read by
 * cp.async.bulk.tensor in emu/exec_async.c; tests/exec/README-async.md). */
void emu_tensormap_encode(uint8_t out[128], const emu_tmapdesc *d);
/* The inverse, for tensormap.replace: every field of IN, including the
 * per-dimension slots beyond the rank (a map's rank may be raised after
 * its new dimensions are written).  Returns 0, or -1 when IN is not a
 * ptxemu tensor map (no "PXTM" magic). */
int emu_tensormap_decode(const uint8_t in[128], emu_tmapdesc *d);
/* emu_tensormap_encode that also writes the slots past the rank as D holds
 * them (after emu_tensormap_decode: the bytes of the unchanged fields stay). */
void emu_tensormap_reencode(uint8_t out[128], const emu_tmapdesc *d);

#endif
