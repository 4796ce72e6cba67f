/* emu/exec_tex.c - textures and surfaces: tex, tld4, txq, suld, sust,
 * sured, suq, istypep.
 *
 * ---- Objects ----------------------------------------------------------------
 * The texture operand of an instruction is a .u64 register holding a handle
 * (cudaTextureObject_t / cudaSurfaceObject_t), or a .texref / .surfref
 * variable (module scope, or a .param of the kernel or of a function) whose
 * 8 bytes hold the handle the launch file bound to it.  Handles index the
 * object table of emu/texobj.c.  Unified texture mode: the sampler state is
 * part of the texture; an explicit sampler operand ([tex, smp, {c}], .target
 * texmode_independent) must be a .samplerref variable whose initialiser
 * fields (filter_mode, addr_mode_0..2, force_unnormalized_coords) override
 * the texture's.
 *
 * ---- Fetching (tex, tld4) -- the texture-fetching appendix of the CUDA C++
 * Programming Guide ---------------------------------------------------------
 * Float coordinates become texel-space x = u * N (normalized coordinates,
 * u first truncated to 21 fraction bits) or x = u.  Offsets (operand e,
 * texels) are added to x.
 *   point:  i = floor(x)
 *   linear: x in fixed point with 8 fraction bits (rounded to nearest,
 *           halves upward), xB = x - 0.5, i = floor(xB), a = frac(xB) (a
 *           multiple of 1/256); 1D: (1-a) T[i] + a T[i+1]; 2D: the upper
 *           corner's weight a*b rounded to 1/256 (halves upward), the others
 *           what is left of their axes' weights; 3D: see corner_weights
 *           (clamp addressing clamps the coordinate to the edge texels'
 *           centres first);
 *           the weighted sum is exact, then rounded once: to f32 (ties away
 *           from zero) for f32 texels, to f16 (ties away from zero) for f16
 *           texels, and for normalized u8/u16/s16 texels on the 16-bit
 *           integer scale (see filter_level); texels of weight 0 are not read.
 * Everything above was measured bit for bit on an H100 (tests/triton
 * tex_hw.launch: 18 textures, 64 probes each) and an H200 (tex_h200.launch;
 * 32768 probes of 2D f32 clamp, 1D f32 mirror, 2D u8x4 wrap and 3D f32
 * border/clamp textures, all equal).
 * Integer coordinates (ctype .s32) are texel indices: no filtering.
 * Address modes work on texel indices: wrap (i mod N), mirror (period 2N,
 * reflected), clamp (to 0..N-1), border (the border colour).  wrap and
 * mirror need normalized coordinates; with unnormalized ones they clamp.
 * Layer indices (a1d/a2d/acube) are unsigned and clamp to the last layer.
 * Cubemaps: the face is the coordinate of largest magnitude m (ties: z
 * before y before x), (s/|m| + 1) / 2 and (t/|m| + 1) / 2 address the face
 * (table of the guide), with clamp addressing (no seamless filtering across
 * faces).
 * Texels: float (f16/f32) channels read as f32; with read normalized, u8/u16
 * give u / (2^n - 1) and s8/s16 max(s / (2^(n-1) - 1), -1), sRGB converts r
 * g b; element reads of integer types give the value zero- or sign-extended
 * to 32 bits (and cannot be filtered).  Missing channels read 0, alpha
 * included (measured; not the a = 1 of the guide).  The border colour gives
 * the channels the texture has, converted like the results (the missing
 * ones 0).
 * The destination type does not convert: .f32/.s32/.u32 receive the 32-bit
 * results (float results as f32 bits, integer results as integers); .f16
 * and .f16x2 (v2: {r,g} {b,a}, low half first) round float results to f16.
 * tld4 gathers one channel of the 2x2 footprint of linear filtering into
 * {T[i0,j1], T[i1,j1], T[i1,j0], T[i0,j0]}: counter-clockwise from the
 * lower left, as textureGather / Gather return it.
 * .level, .grad: the textures have no mipmaps, so level 0 is used.  The
 * destination predicate (d|p) is always true (all data is resident).
 * Depth compare (operand f) and multi-sample textures beyond sample 0 are
 * not modelled: depth compare stops the launch ("unsupported").
 *
 * ---- Surfaces (suld, sust, sured) ------------------------------------------
 * .b: x is a byte offset (not scaled); the access is the size of the data,
 * naturally aligned (else a misaligned-access fault).  .p: x counts
 * samples (texels).  Out of range (x..x+size beyond the row, y, z or the
 * layer): .trap (the default) stops the launch with a trap, .clamp
 * moves each coordinate to the nearest valid one (x to the last whole
 * access inside the row), .zero loads zeros and drops stores.
 * suld.p (older PTX; ptxas no longer accepts it) returns the texel as tex
 * does without filtering; sust.p converts f32 (float formats) or u32/s32
 * (integer formats, saturating) sources to the channels given (the others
 * keep their bytes: the PTX ISA calls them unpredictable); sured.p works on
 * the first (32 or 64-bit) channel, signed when the format is signed.
 *
 * ---- Queries (txq, suq) -------------------------------------------------------
 * width/height/depth in texels (1 for dimensions a texture does not have;
 * txq.level: level 0's, halved per level, at least 1); channel_data_type
 * and channel_order use the OpenCL values the PTX manual lists (CL_UNORM_INT8
 * 0x10D2, CL_FLOAT 0x10DE ...; CL_R 0x10B0, CL_RG 0x10B2, CL_RGBA 0x10B5);
 * normalized_coords 0/1; array_size the layers (cubemaps) or 1;
 * num_mipmap_levels 1; num_samples 1; filter_mode 0 nearest / 1 linear;
 * addr_mode_N {wrap 0, mirror 1, clamp_ogl 2, clamp_to_edge 3,
 * clamp_to_border 4} (clamp is clamp_to_edge); force_unnormalized_coords 0;
 * suq.memory_layout 0 (CUDA surfaces are arrays: block linear).
 * istypep is true for handles of the asked kind; no handle is a sampler.
 */
#include <math.h>
#include <string.h>
#include "emu/internal.h"
#include "emu/fp.h"
#include "emu/texobj.h"

/* ---- instruction decoding --------------------------------------------------- */

static bool has_mod(const isa_insn *in, int mod) {
  for (int i = 0; i < in->ncomps; i++)
    if ((in->comps[i] & ~ISA_COMP_JOINED) == ISA_COMP_MOD + mod) return true;
  return false;
}

enum geom { G1D, G2D, G3D, GA1D, GA2D, GCUBE, GACUBE, G2DMS, GA2DMS, GNONE };

static int geom_of(const isa_insn *in) {
  static const int mods[] = { MOD_T1D, MOD_T2D, MOD_T3D, MOD_TA1D, MOD_TA2D, MOD_TCUBE, MOD_TACUBE, MOD_T2DMS, MOD_TA2DMS };
  for (int i = 0; i < GNONE; i++) if (has_mod(in, mods[i])) return i;
  return GNONE;
}

/* Elements of an operand: a vector's, or the operand itself. */
static uint32_t elems(const xinsn *x, const isa_opnd *o, const isa_opnd **el) {
  if (o->kind == OK_VEC) { *el = &x->f->pool[o->v]; return o->n; }
  *el = o;
  return 1;
}

static uint64_t elem_bits(const warp *w, const xinsn *x, const isa_opnd *e, int lane) {
  if (e->kind == OK_REG || e->kind == OK_SREG) return w->r[emu_row_of(w->e, x, e)][lane];
  if (e->kind == OK_IMM) return (uint64_t)e->imm;
  return 0;
}

static float elem_f32(const warp *w, const xinsn *x, const isa_opnd *e, int lane) {
  uint64_t b = elem_bits(w, x, e, lane);
  if (e->kind == OK_IMM) {
    if (e->flags & OF_F64) return (float)fp_f64_val(b);
    if (!(e->flags & OF_F32)) return (float)(int64_t)b;
  }
  return fp_f32_val((uint32_t)b);
}

static int32_t elem_s32(const warp *w, const xinsn *x, const isa_opnd *e, int lane) {
  return (int32_t)(uint32_t)elem_bits(w, x, e, lane);
}

/* ---- handles ------------------------------------------------------------------ */

/* The module .samplerref / .texref / .surfref symbol an address operand names, or NULL. */
static const isa_sym *base_modsym(const emu *e, const isa_opnd *b) {
  if ((b->flags & (OF_MODSYM | OF_FUNCSYM)) != OF_MODSYM || b->v >= e->m->nsyms) return NULL;
  return &e->m->syms[b->v];
}

/* Handles of the object operand (an ADDR or ADDRX) for the lanes of m. */
static bool lane_handles(warp *w, const xinsn *x, const isa_opnd *o, lanemask m, uint64_t *h) {
  const isa_opnd *b = o->kind == OK_ADDRX ? &x->f->pool[o->v] : o;
  uint64_t a[WARP_SIZE] = { 0 };        /* symbol bases fill only the lanes of m */
  uint8_t sp;
  emu_lane_addrs(w, x, b, m, a, &sp);
  if (!(b->flags & (OF_MODSYM | OF_FUNCSYM))) {       /* a register (or a number): the handle itself */
    FOR_LANES(i) h[i] = a[i];
    return true;
  }
  uint8_t *p[WARP_SIZE], kind[WARP_SIZE];
  if (!emu_translate(w, x, 0, sp, a, m, 8, p, kind)) return false;
  FOR_LANES(i) if (m >> i & 1) memcpy(&h[i], p[i], 8);
  return true;
}

static const char *sym_name(const warp *w, const xinsn *x, const isa_opnd *o) {
  const isa_opnd *b = o->kind == OK_ADDRX ? &x->f->pool[o->v] : o;
  if (!(b->flags & (OF_MODSYM | OF_FUNCSYM))) return NULL;
  if (b->flags & OF_FUNCSYM) return b->v < x->f->nsyms ? x->f->syms[b->v].name : NULL;
  return b->v < w->e->m->nsyms ? w->e->m->syms[b->v].name : NULL;
}

/* The object of lane i's handle, of the wanted kind; NULL after a fault. */
static const emu_texdesc *object_of(warp *w, const xinsn *x, int lane, uint64_t h, const isa_opnd *o, bool surface) {
  const emu_texdesc *d = emu_texture_get(w->e, h);
  if (d && d->surface == surface) return d;
  const char *name = sym_name(w, x, o);
  const char *kind = surface ? "surface" : "texture";
  if (!d && h == 0 && name)
    emu_fault_at(w, x, lane, FAULT_OOB, "%s reference '%s' is not bound (a launch-file line '%s %s ...' binds it)", kind,
                 name, kind, name);
  else if (d)
    emu_fault_at(w, x, lane, FAULT_OOB, "handle %llu is a %s object, not a %s object", (unsigned long long)h,
                 d->surface ? "surface" : "texture", kind);
  else
    emu_fault_at(w, x, lane, FAULT_OOB, "invalid %s object handle 0x%llx", kind, (unsigned long long)h);
  return NULL;
}

/* ---- texels --------------------------------------------------------------------- */

static const uint8_t fmt_bytes[8] = { 1, 1, 2, 2, 4, 4, 2, 4 };
static bool fmt_signed(int f) { return f == TEXFMT_S8 || f == TEXFMT_S16 || f == TEXFMT_S32; }
static bool float_results(const emu_texdesc *d) { return d->fmt == TEXFMT_F16 || d->fmt == TEXFMT_F32 || d->read_normalized; }
static uint32_t texel_bytes(const emu_texdesc *d) { return fmt_bytes[d->fmt] * d->channels; }
static uint32_t fbits(float f) { return fp_f32_bits(f); }

static float srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

/* Channel c of a texel in result form (f32 bits or a 32-bit integer). */
static uint32_t channel_value(const emu_texdesc *d, const uint8_t *p, int c) {
  if (c >= d->channels) return 0;
  const uint8_t *q = p + (size_t)c * fmt_bytes[d->fmt];
  uint32_t r;
  switch (d->fmt) {
  case TEXFMT_U8:
    if (!d->read_normalized) return q[0];
    r = fbits((float)q[0] / 255.0f);
    if (d->srgb && c < 3) r = fbits(srgb_to_linear(fp_f32_val(r)));
    return r;
  case TEXFMT_S8:
    if (!d->read_normalized) return (uint32_t)(int32_t)(int8_t)q[0];
    return fbits(fmaxf((float)(int8_t)q[0] / 127.0f, -1.0f));
  case TEXFMT_U16: {
    uint16_t v; memcpy(&v, q, 2);
    return d->read_normalized ? fbits((float)v / 65535.0f) : v;
  }
  case TEXFMT_S16: {
    int16_t v; memcpy(&v, q, 2);
    return d->read_normalized ? fbits(fmaxf((float)v / 32767.0f, -1.0f)) : (uint32_t)(int32_t)v;
  }
  case TEXFMT_F16: {
    uint16_t v; memcpy(&v, q, 2);
    return cvt_f16_to_f32(v);
  }
  default:
    memcpy(&r, q, 4);
    return r;
  }
}

static uint32_t border_value(const emu_texdesc *d, int c) {
  bool fres = float_results(d);
  if (c >= d->channels) return 0;
  float b = d->border[c];
  if (fres) return fbits(b);
  if (b != b) return 0;
  if (fmt_signed(d->fmt)) return (uint32_t)(int32_t)(b < -2147483648.0f ? -2147483648.0f : b > 2147483520.0f ? 2147483520.0f : b);
  return b <= 0 ? 0u : b >= 4294967040.0f ? 0xffffffffu : (uint32_t)b;
}

/* Texel index after the address mode; false: outside (border). */
/* The address mode in force: wrap and mirror need normalized coordinates;
 * with unnormalized ones they clamp. */
static int mode_in_force(int mode, bool normalized) {
  return !normalized && (mode == TEXADDR_WRAP || mode == TEXADDR_MIRROR) ? TEXADDR_CLAMP : mode;
}

static bool address(int mode, bool normalized, int64_t i, uint32_t n, int64_t *out) {
  switch (mode_in_force(mode, normalized)) {
  case TEXADDR_WRAP: i %= n; if (i < 0) i += n; break;
  case TEXADDR_MIRROR: {
    int64_t p = 2 * (int64_t)n;
    i %= p;
    if (i < 0) i += p;
    if (i >= n) i = p - 1 - i;
    break;
  }
  case TEXADDR_BORDER: if (i < 0 || i >= n) return false; break;
  default: i = i < 0 ? 0 : i >= n ? (int64_t)n - 1 : i; break;
  }
  *out = i;
  return true;
}

/* A sampling context: the object as the instruction sees it. */
typedef struct samp {
  const emu_texdesc *d;
  uint8_t amode[3];
  bool normalized, linear;
  uint32_t dims[3];            /* sizes of the dimensions addressed */
} samp;

/* Host pointer of texel (i[0], i[1], i[2]) of layer/face `layer` (indices in range). */
static const uint8_t *texel_ptr(warp *w, const xinsn *x, int lane, const emu_texdesc *d, const int64_t *i, uint64_t layer) {
  uint64_t row = (layer * d->depth + (uint64_t)i[2]) * d->height + (uint64_t)i[1];
  uint64_t a = d->addr + row * d->pitch + (uint64_t)i[0] * texel_bytes(d);
  const uint8_t *p = mm_global_ptr(w->e, a, texel_bytes(d));
  if (!p) {
    emu_fault_at(w, x, lane, FAULT_OOB, "texel (%lld, %lld, %lld) of layer %llu at 0x%llx is outside device memory",
                 (long long)i[0], (long long)i[1], (long long)i[2], (unsigned long long)layer, (unsigned long long)a);
    w->e->fault.addr = a;
  }
  return p;
}

/* All channels of the texel at indices idx (before addressing); false after a fault. */
static bool fetch(warp *w, const xinsn *x, int lane, const samp *s, const int64_t *idx, uint64_t layer, uint32_t *out) {
  int64_t i[3] = { 0, 0, 0 };
  bool in = true;
  for (int k = 0; k < 3; k++) in = in && address(s->amode[k], s->normalized, idx[k], s->dims[k], &i[k]);
  if (!in) {
    for (int c = 0; c < 4; c++) out[c] = border_value(s->d, c);
    return true;
  }
  const uint8_t *p = texel_ptr(w, x, lane, s->d, i, layer);
  if (!p) return false;
  for (int c = 0; c < 4; c++) out[c] = channel_value(s->d, p, c);
  return true;
}

/* Texel-space coordinate of a normalized one: u keeps 21 fraction bits
 * (truncated: measured on an H200, 2D wrap over 64x48 texels and 1D mirror
 * over 200, every one of 32768 probes; 22 to 24 bits miss 22 to 52 of
 * them), so u = 1/7 in f32 (a little above 1/7) lands just below texel 1
 * of a 7-texel row (an H100 probe). */
static double normalized_texels(float u, uint32_t n) {
  if (u != u) return 0;
  double ut = floor(ldexp((double)u, 21));
  if (ut > 0x1p60) ut = 0x1p60;
  if (ut < -0x1p60) ut = -0x1p60;
  return ldexp(ut, -21) * n;
}

/* floor(v) in fixed point with 8 fraction bits. */
static int64_t floor_fixed(double v) {
  if (v != v) return 0;
  if (v > 0x1p32) v = 0x1p32;
  if (v < -0x1p32) v = -0x1p32;
  return (int64_t)floor(v) * 256;
}

/* Fixed point with 8 fraction bits, rounded to nearest, halves upward (an
 * H200: 8192 probes at and beside the halves, unnormalized and normalized;
 * ties to even missed 264 of them in 1D, 386 in 2D). */
static int64_t to_fixed(double v) {
  if (v != v) return 0;
  double t = (double)v * 256.0;
  if (t > 0x1p40) t = 0x1p40;
  if (t < -0x1p40) t = -0x1p40;
  return (int64_t)floor(t + 0.5);
}
static int64_t floor256(int64_t t) { return t >= 0 ? t / 256 : -((-t + 255) / 256); }

/* The H100 filters normalized 8- and 16-bit texels as 16-bit integers (u8
 * v -> 257 v of 65535, u16 of 65535, s16 of 32767), rounds the weighted sum
 * to an integer (ties upward) and only then divides; f16 texels give an f16
 * result (ties away from zero).  filter_level maps a texel's float value to that integer scale,
 * filter_result the weighted sum back.  (s8 and sRGB were not measured:
 * they filter the float values.) */
static double level_scale(const emu_texdesc *d) {
  if (!d->read_normalized || d->srgb) return 0;
  return d->fmt == TEXFMT_U8 || d->fmt == TEXFMT_U16 ? 65535.0 : d->fmt == TEXFMT_S16 ? 32767.0 : 0;
}
static double filter_level(const emu_texdesc *d, float v) {
  double sc = level_scale(d);
  return sc ? nearbyint(v * sc) : v;
}
/* The weighted sum, kept exactly enough (a double and what rounding it
 * lost: each term, a 9-bit weight times an f32, is exact in a double),
 * rounded once. */
typedef struct wsum { double hi, lo; } wsum;
static void wsum_add(wsum *s, double t) {               /* Knuth's two-sum */
  double h = s->hi + t;
  if (isfinite(h)) {
    double bv = h - s->hi, err = (s->hi - (h - bv)) + (t - bv);
    s->lo += err;
  }
  s->hi = h;                                             /* an infinity or NaN: the sum's, exactly */
}
/* To f32, nearest with ties away from zero (the H200's f32 filtering:
 * every result that differed from ties-to-even lay exactly halfway). */
static float f32_nearest_away(wsum s) {
  if (!isfinite(s.hi)) return (float)s.hi;
  double hi = s.hi + s.lo, lo = s.lo - (hi - s.hi);
  float f = (float)hi;
  if (!isfinite(hi) || !isfinite(f)) return f;
  double r = hi - (double)f;                             /* exact */
  if (r == 0) return f;
  double other = (double)f + 2 * r;                      /* hi halfway between f and other? */
  float g = (float)other;
  if ((double)g != other || g == f) return f;            /* not halfway: f is the nearest */
  if (lo == 0) return fabsf(g) > fabsf(f) ? g : f;       /* a tie: away from zero */
  return (lo > 0) == (r > 0) ? g : f;                    /* past the midpoint towards g, or not */
}
static uint32_t filter_result(const emu_texdesc *d, wsum acc) {
  double sc = level_scale(d);
  if (sc) {
    float r = (float)(floor(acc.hi + acc.lo + 0.5) / sc);
    return fbits(r < -1.0f ? -1.0f : r);
  }
  if (d->fmt == TEXFMT_F16)
    return cvt_f16_to_f32((uint16_t)fp_cvt(fp_f64_bits(isfinite(acc.hi) ? acc.hi + acc.lo : acc.hi), FP_F64, FP_F16, FP_RNA, 0));
  float f = f32_nearest_away(acc);
  return f != f ? 0x7FFFFFFFu : fbits(f);               /* NaN (inf - inf, a NaN texel): the canonical one (an H200) */
}

/* Corner weights of linear filtering, in 1/256, corner c's bit k the
 * upper texel along axis k; they sum to 256.  Measured on an H200 with
 * one-hot textures (each channel of a fetch one corner's weight), 8192
 * probes each, all equal: the z weights (256 - c, c) are split along x,
 * the upper part a*w/256 rounded half up and the lower one the rest; each
 * of those along y, the upper x corner's y1 part and the lower x corner's
 * y0 part rounded half up, the rest by subtraction.  In 2D (w = 256) this
 * is the upper corner's a*b/256 rounded half up, the others by
 * subtraction; in 1D, a and 256 - a. */
static void corner_weights(int nd, const uint32_t *a, uint32_t *wgt) {
  if (nd == 1) { wgt[0] = 256 - a[0]; wgt[1] = a[0]; return; }
  for (uint32_t z = 0; z < (nd == 3 ? 2u : 1u); z++) {
    uint32_t wz = nd == 3 ? (z ? a[2] : 256 - a[2]) : 256;
    uint32_t wx1 = (a[0] * wz + 128) >> 8, wx[2] = { wz - wx1, wx1 };
    for (uint32_t x = 0; x < 2; x++) {
      uint32_t y0, y1;
      if (x) { y1 = (wx[x] * a[1] + 128) >> 8; y0 = wx[x] - y1; }
      else { y0 = (wx[x] * (256 - a[1]) + 128) >> 8; y1 = wx[x] - y0; }
      wgt[x | z << 2] = y0;
      wgt[x | 2 | z << 2] = y1;
    }
  }
}

/* Filtered (or point) sample at fixed-point coordinates t[0..nd). */
static bool sample(warp *w, const xinsn *x, int lane, const samp *s, int nd, const int64_t *t, uint64_t layer, uint32_t *out) {
  int64_t idx[3] = { 0, 0, 0 };
  if (!s->linear) {
    for (int k = 0; k < nd; k++) idx[k] = floor256(t[k]);
    return fetch(w, x, lane, s, idx, layer, out);
  }
  int64_t i0[3] = { 0, 0, 0 };
  uint32_t a[3] = { 0, 0, 0 }, wgt[8];
  for (int k = 0; k < nd; k++) {
    /* clamp addressing clamps the coordinate to the outer texels' centres
     * (an edge texel then has the axis to itself: a = 0), not only the
     * texel indices: it shows in 3D, where a clamped axis still splits
     * the other weights (an H200, a 3-D texture clamped in y and z) */
    int64_t tk = t[k];
    if (mode_in_force(s->amode[k], s->normalized) == TEXADDR_CLAMP) {
      int64_t hi = (int64_t)s->dims[k] * 256 - 128;
      tk = tk < 128 ? 128 : tk > hi ? hi : tk;
    }
    int64_t tb = tk - 128;
    i0[k] = floor256(tb);
    a[k] = (uint32_t)(tb - i0[k] * 256);
  }
  corner_weights(nd, a, wgt);
  wsum acc[4] = { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
  for (int corner = 0; corner < (1 << nd); corner++) {
    if (!wgt[corner]) continue;                         /* texels of weight 0 are not read */
    for (int k = 0; k < nd; k++) idx[k] = i0[k] + (corner >> k & 1);
    uint32_t v[4];
    if (!fetch(w, x, lane, s, idx, layer, v)) return false;
    for (int c = 0; c < 4; c++) wsum_add(&acc[c], wgt[corner] / 256.0 * filter_level(s->d, fp_f32_val(v[c])));
  }
  for (int c = 0; c < 4; c++) out[c] = filter_result(s->d, acc[c]);
  return true;
}

/* tld4: channel comp of the 2x2 footprint, {(i0,j1), (i1,j1), (i1,j0), (i0,j0)}. */
static bool gather(warp *w, const xinsn *x, int lane, const samp *s, const int64_t *t, uint64_t layer, int comp, uint32_t *out) {
  int64_t i0 = floor256(t[0] - 128), j0 = floor256(t[1] - 128);
  static const int di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
  for (int k = 0; k < 4; k++) {
    int64_t idx[3] = { i0 + di[k], j0 + dj[k], 0 };
    uint32_t v[4];
    if (!fetch(w, x, lane, s, idx, layer, v)) return false;
    out[k] = v[comp];
  }
  return true;
}

/* Cubemap direction -> face and texel-space coordinates in t[0..1]. */
static int cube_face(const samp *s, float cx, float cy, float cz, int64_t *t) {
  float ax = fabsf(cx), ay = fabsf(cy), az = fabsf(cz), m, sc, tc;
  int face;
  if (az >= ax && az >= ay) { face = cz >= 0 ? 4 : 5; m = az; sc = cz >= 0 ? cx : -cx; tc = -cy; }
  else if (ay >= ax) { face = cy >= 0 ? 2 : 3; m = ay; sc = cx; tc = cy >= 0 ? cz : -cz; }
  else { face = cx >= 0 ? 0 : 1; m = ax; sc = cx >= 0 ? -cz : cz; tc = -cy; }
  float u = (sc / m + 1.0f) * 0.5f, v = (tc / m + 1.0f) * 0.5f;
  if (m == 0) u = v = 0.5f;
  t[0] = to_fixed(u * (float)s->dims[0]);
  t[1] = to_fixed(v * (float)s->dims[1]);
  return face;
}

/* Apply an explicit .samplerref operand's initialiser fields. */
static bool apply_sampler(warp *w, const xinsn *x, int lane, const isa_opnd *smp, samp *s) {
  const isa_sym *sy = base_modsym(w->e, smp);
  if (!sy || sy->type != PTX_T_SAMPLERREF) {
    emu_fault_at(w, x, lane, FAULT_UNSUPPORTED, "explicit samplers must be .samplerref variables with an initialiser");
    return false;
  }
  for (uint32_t k = 0; k < sy->nfields; k++) {
    const isa_field *f = &sy->fields[k];
    const char *wd = f->word ? f->word : "";
    if (strcmp(f->name, "filter_mode") == 0) s->linear = strcmp(wd, "linear") == 0;
    else if (strcmp(f->name, "force_unnormalized_coords") == 0) { if (f->value) s->normalized = false; }
    else if (strncmp(f->name, "addr_mode_", 10) == 0 && f->name[10] >= '0' && f->name[10] <= '2') {
      int mode = strcmp(wd, "wrap") == 0 ? TEXADDR_WRAP : strcmp(wd, "mirror") == 0 ? TEXADDR_MIRROR
               : strcmp(wd, "clamp_to_border") == 0 ? TEXADDR_BORDER : TEXADDR_CLAMP;
      s->amode[f->name[10] - '0'] = (uint8_t)mode;
    }
  }
  return true;
}

/* ---- destinations ----------------------------------------------------------------- */

/* Write vector/pair destination k of lane i: vals[n] (already in register form). */
static void write_dest(warp *w, const xinsn *x, int k, int lane, const uint64_t *vals, uint32_t n, bool pred) {
  const isa_opnd *o = x->op[k].o, *pv = NULL;
  if (o->kind == OK_PAIR) { pv = &x->f->pool[o->v + 1]; o = &x->f->pool[o->v]; }
  const isa_opnd *el;
  uint32_t ne = elems(x, o, &el);
  for (uint32_t j = 0; j < ne && j < n; j++) {
    if (el[j].kind != OK_REG) continue;
    int row = emu_row_of(w->e, x, &el[j]);
    unsigned bits = (unsigned)ptx_type_bits((enum ptx_type)x->f->regtype[el[j].v]);
    w->r[row][lane] = bits >= 64 ? vals[j] : vals[j] & ((1ull << bits) - 1);
  }
  if (pv && pv->kind == OK_REG) w->r[emu_row_of(w->e, x, pv)][lane] = pred;
}

/* Store a 4-channel result with the destination type (f16 / f16x2 convert). */
static void write_result(warp *w, const xinsn *x, int lane, const uint32_t *r, bool fres) {
  int dt = x->in->type;
  uint64_t v[4];
  if (dt == PTX_T_F16X2) {
    uint16_t h[4];
    for (int c = 0; c < 4; c++) h[c] = fres ? cvt_f32_to_f16_rn(r[c]) : (uint16_t)r[c];
    v[0] = h[0] | (uint64_t)h[1] << 16;
    v[1] = h[2] | (uint64_t)h[3] << 16;
    write_dest(w, x, 0, lane, v, 2, true);
    return;
  }
  for (int c = 0; c < 4; c++) v[c] = dt == PTX_T_F16 && fres ? cvt_f32_to_f16_rn(r[c]) : r[c];
  write_dest(w, x, 0, lane, v, 4, true);
}

/* ---- tex / tld4 ------------------------------------------------------------------------ */

typedef struct texops {
  const isa_opnd *coords, *sampler, *offsets;
  int geom;
} texops;

static bool tex_operands(warp *w, const xinsn *x, texops *t) {
  const isa_opnd *a = x->op[1].o;
  memset(t, 0, sizeof *t);
  t->geom = geom_of(x->in);
  if (a->kind != OK_ADDRX || a->n < 2 || t->geom == GNONE) return false;
  t->coords = &x->f->pool[a->v + a->n - 1];
  if (a->n >= 3) t->sampler = &x->f->pool[a->v + 1];
  uint32_t k = 2;
  if (x->in->op == OP_TEX && has_mod(x->in, MOD_LEVEL)) k += 1;
  if (x->in->op == OP_TEX && has_mod(x->in, MOD_GRAD)) k += 2;
  if (k < x->nops && x->op[k].o->kind == OK_VEC) t->offsets = x->op[k++].o;
  if (k < x->nops) {
    emu_fault_at(w, x, 0, FAULT_UNSUPPORTED, "depth-compare texture fetches are not supported");
    return false;
  }
  return true;
}

static void h_tex(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  texops to;
  if (!tex_operands(w, x, &to)) {
    if (!w->e->faulted) emu_fault_at(w, x, __builtin_ctz(g), FAULT_UNSUPPORTED, "malformed texture instruction");
    return;
  }
  uint64_t h[WARP_SIZE];
  if (!lane_handles(w, x, x->op[1].o, g, h)) return;
  bool is_tld4 = x->in->op == OP_TLD4;
  int comp = has_mod(x->in, MOD_TG) ? 1 : has_mod(x->in, MOD_TB) || has_mod(x->in, MOD_SB) ? 2 : has_mod(x->in, MOD_TA) ? 3 : 0;
  bool fcoord = x->in->type2 == PTX_T_F32 || is_tld4;
  const isa_opnd *el, *off = NULL;
  uint32_t ne = elems(x, to.coords, &el), noff = to.offsets ? elems(x, to.offsets, &off) : 0;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    const emu_texdesc *d = object_of(w, x, i, h[i], x->op[1].o, false);
    if (!d) return;
    samp s = { .d = d, .normalized = d->normalized_coords, .linear = d->linear,
               .dims = { d->width, d->height, d->depth } };
    memcpy(s.amode, d->addr_mode, 3);
    if (to.sampler && !apply_sampler(w, x, i, to.sampler, &s)) return;
    /* coordinates by geometry: [layer] [sample] x [y [z]] */
    int first = 0, nd;
    uint64_t layer = 0, nlayers = d->layers ? d->layers : 1;
    switch (to.geom) {
    case G1D: nd = 1; break;
    case G2D: nd = 2; break;
    case G3D: nd = 3; break;
    case GA1D: nd = 1; first = 1; break;
    case GA2D: nd = 2; first = 1; break;
    case GCUBE: nd = 3; break;
    case GACUBE: nd = 3; first = 1; break;
    case G2DMS: nd = 2; first = 1; break;                     /* sample number, x, y */
    default: nd = 2; first = 2; break;                        /* a2dms: layer, sample, x, y */
    }
    if (to.geom == GA1D || to.geom == GA2D || to.geom == GACUBE || to.geom == GA2DMS) {
      uint64_t li = ne ? (uint32_t)elem_bits(w, x, &el[0], i) : 0;
      layer = li < nlayers ? li : nlayers - 1;
    }
    if ((uint32_t)(first + nd) > ne) {
      emu_fault_at(w, x, i, FAULT_UNSUPPORTED, "texture coordinate vector too short for the geometry");
      return;
    }
    uint32_t r[4];
    bool fres = float_results(d);
    if (to.geom == GCUBE || to.geom == GACUBE) {
      int64_t t[2];
      s.dims[1] = d->height;
      s.amode[0] = s.amode[1] = s.amode[2] = TEXADDR_CLAMP;
      s.dims[2] = 1;
      int face = cube_face(&s, elem_f32(w, x, &el[first], i), elem_f32(w, x, &el[first + 1], i),
                           elem_f32(w, x, &el[first + 2], i), t);
      uint64_t fl = layer * 6 + (uint64_t)face;
      bool ok = is_tld4 ? gather(w, x, i, &s, t, fl, comp, r) : sample(w, x, i, &s, 2, t, fl, r);
      if (!ok) return;
    } else if (!fcoord || to.geom == G2DMS || to.geom == GA2DMS) {  /* integer texel indices */
      int64_t idx[3] = { 0, 0, 0 };
      for (int k = 0; k < nd; k++) idx[k] = (int64_t)elem_s32(w, x, &el[first + k], i) + (k < (int)noff ? elem_s32(w, x, &off[k], i) : 0);
      if (!fetch(w, x, i, &s, idx, layer, r)) return;
    } else {
      int64_t t[3] = { 0, 0, 0 };
      for (int k = 0; k < nd; k++) {
        float u = elem_f32(w, x, &el[first + k], i);
        double xt = s.normalized ? normalized_texels(u, s.dims[k]) : u;
        int64_t o = k < (int)noff ? (int64_t)elem_s32(w, x, &off[k], i) * 256 : 0;
        /* point sampling floors the coordinate itself, not its 1/256 rounding */
        t[k] = (s.linear || is_tld4 ? to_fixed(xt) : floor_fixed(xt)) + o;
      }
      bool ok = is_tld4 ? gather(w, x, i, &s, t, layer, comp, r) : sample(w, x, i, &s, nd, t, layer, r);
      if (!ok) return;
    }
    write_result(w, x, i, r, fres);
  }
}

/* ---- queries --------------------------------------------------------------------------- */

static uint32_t cl_data_type(const emu_texdesc *d) {
  switch (d->fmt) {
  case TEXFMT_U8: return d->read_normalized ? 0x10D2 : 0x10DA;
  case TEXFMT_S8: return d->read_normalized ? 0x10D0 : 0x10D7;
  case TEXFMT_U16: return d->read_normalized ? 0x10D3 : 0x10DB;
  case TEXFMT_S16: return d->read_normalized ? 0x10D1 : 0x10D8;
  case TEXFMT_U32: return 0x10DC;
  case TEXFMT_S32: return 0x10D9;
  case TEXFMT_F16: return 0x10DD;
  default: return 0x10DE;
  }
}
static uint32_t cl_order(const emu_texdesc *d) { return d->channels == 1 ? 0x10B0 : d->channels == 2 ? 0x10B2 : 0x10B5; }
static uint32_t ptx_addr_mode(int m) { return m == TEXADDR_WRAP ? 0 : m == TEXADDR_MIRROR ? 1 : m == TEXADDR_BORDER ? 4 : 3; }

/* The query of a txq/suq: the first of its modifiers that names one. */
static int query_of(const isa_insn *in) {
  static const int q[] = { MOD_WIDTH, MOD_HEIGHT, MOD_DEPTH, MOD_CHANNEL_DATA_TYPE, MOD_CHANNEL_ORDER,
                           MOD_NORMALIZED_COORDS, MOD_FILTER_MODE, MOD_ADDR_MODE_0, MOD_ADDR_MODE_1, MOD_ADDR_MODE_2,
                           MOD_FORCE_UNNORMALIZED_COORDS, MOD_ARRAY_SIZE, MOD_NUM_MIPMAP_LEVELS, MOD_NUM_SAMPLES,
                           MOD_MEMORY_LAYOUT };
  for (size_t k = 0; k < sizeof q / sizeof *q; k++) if (has_mod(in, q[k])) return q[k];
  return 0;
}

static uint32_t query(const emu_texdesc *d, int q, uint32_t level) {
  uint32_t sh = level > 31 ? 31 : level;
  switch (q) {
  case MOD_WIDTH: return d->width >> sh ? d->width >> sh : 1;
  case MOD_HEIGHT: return d->height >> sh ? d->height >> sh : 1;
  case MOD_DEPTH: return d->depth >> sh ? d->depth >> sh : 1;
  case MOD_CHANNEL_DATA_TYPE: return cl_data_type(d);
  case MOD_CHANNEL_ORDER: return cl_order(d);
  case MOD_NORMALIZED_COORDS: return d->normalized_coords;
  case MOD_FILTER_MODE: return d->linear;
  case MOD_ADDR_MODE_0: return ptx_addr_mode(d->addr_mode[0]);
  case MOD_ADDR_MODE_1: return ptx_addr_mode(d->addr_mode[1]);
  case MOD_ADDR_MODE_2: return ptx_addr_mode(d->addr_mode[2]);
  case MOD_ARRAY_SIZE: return d->layers ? d->layers : 1;
  case MOD_NUM_MIPMAP_LEVELS: case MOD_NUM_SAMPLES: return 1;
  default: return 0;     /* force_unnormalized_coords, memory_layout */
  }
}

/* Sampler fields of a .samplerref variable (independent mode). */
static uint32_t sampler_query(const isa_sym *sy, int q) {
  for (uint32_t k = 0; k < sy->nfields; k++) {
    const isa_field *f = &sy->fields[k];
    const char *wd = f->word ? f->word : "";
    if (q == MOD_FILTER_MODE && strcmp(f->name, "filter_mode") == 0) return strcmp(wd, "linear") == 0;
    if (q == MOD_FORCE_UNNORMALIZED_COORDS && strcmp(f->name, "force_unnormalized_coords") == 0) return f->value != 0;
    if ((q == MOD_ADDR_MODE_0 || q == MOD_ADDR_MODE_1 || q == MOD_ADDR_MODE_2) && strncmp(f->name, "addr_mode_", 10) == 0 &&
        f->name[10] - '0' == q - MOD_ADDR_MODE_0)
      return strcmp(wd, "wrap") == 0 ? 0 : strcmp(wd, "mirror") == 0 ? 1 : strcmp(wd, "clamp_ogl") == 0 ? 2
           : strcmp(wd, "clamp_to_border") == 0 ? 4 : 3;
  }
  return 0;
}

static void h_query(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  bool surface = x->in->op == OP_SUQ;
  int q = query_of(x->in);
  const isa_opnd *o = x->op[1].o;
  const isa_opnd *b = o->kind == OK_ADDRX ? &x->f->pool[o->v] : o;
  uint64_t *dst = xdst(w, x, 0);
  const isa_sym *sy = base_modsym(w->e, b);
  if (sy && sy->type == PTX_T_SAMPLERREF) {
    FOR_LANES(i) if (g >> i & 1) dst[i] = xfit(x, 0, sampler_query(sy, q));
    return;
  }
  uint64_t h[WARP_SIZE];
  if (!lane_handles(w, x, o, g, h)) return;
  const uint64_t *lod = !surface && has_mod(x->in, MOD_LEVEL) && x->nops > 2 ? xsrc(w, x, 2) : NULL;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    const emu_texdesc *d = object_of(w, x, i, h[i], o, surface);
    if (!d) return;
    dst[i] = xfit(x, 0, query(d, q, lod ? (uint32_t)lod[i] : 0));
  }
}

static void h_istypep(warp *w, const xinsn *x, lanemask g) {
  const uint64_t *a = xsrc(w, x, 1);
  uint64_t *dst = xdst(w, x, 0);
  /* .texref/.surfref/.samplerref decode as type suffixes (or as modifiers) */
  int t = x->in->type, sub = x->in->sub;
  bool tex = t == PTX_T_TEXREF || sub == MOD_TEXREF_, surf = t == PTX_T_SURFREF || sub == MOD_SURFREF_;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    const emu_texdesc *d = emu_texture_get(w->e, a[i]);
    bool r = d && ((tex && !d->surface) || (surf && d->surface));
    dst[i] = r;
  }
}

/* ---- surfaces -------------------------------------------------------------------------- */

enum { CL_TRAP, CL_CLAMP, CL_ZERO };

typedef struct suaddr { uint64_t a; bool oob; } suaddr;

/* Address of a surface access for lane i: size bytes at the coordinates of
 * operand `ak`, byte (x in bytes) or sample addressing; false after a fault. */
static bool surface_addr(warp *w, const xinsn *x, int lane, const emu_texdesc *d, const isa_opnd *ao, uint32_t size,
                         bool bytes, int clampmode, suaddr *out) {
  int geom = geom_of(x->in);
  const isa_opnd *c = &x->f->pool[ao->v + ao->n - 1], *el;
  uint32_t ne = elems(x, c, &el);
  int first = geom == GA1D || geom == GA2D ? 1 : 0;
  int nd = geom == G1D || geom == GA1D ? 1 : geom == G3D ? 3 : 2;
  if ((uint32_t)(first + nd) > ne || geom == GNONE || geom >= GCUBE) {
    emu_fault_at(w, x, lane, FAULT_UNSUPPORTED, "malformed surface coordinates");
    return false;
  }
  uint64_t nlayers = d->layers ? d->layers * (d->cube ? 6 : 1) : (d->cube ? 6 : 1);
  uint64_t layer = first ? (uint32_t)elem_bits(w, x, &el[0], lane) : 0;
  int64_t co[3] = { 0, 0, 0 };
  for (int k = 0; k < nd; k++) co[k] = elem_s32(w, x, &el[first + k], lane);
  uint32_t tb = texel_bytes(d);
  int64_t rowbytes = (int64_t)d->width * tb;
  int64_t xb = bytes ? co[0] : co[0] * (int64_t)tb;
  if (bytes && (xb % (int64_t)size)) {
    emu_fault_at(w, x, lane, FAULT_MISALIGNED, "surface access of %u bytes at byte offset %lld is not %u-byte aligned", size,
                 (long long)xb, size);
    return false;
  }
  uint32_t lim[3] = { 0, d->height, d->depth };
  bool oob = xb < 0 || xb + (int64_t)size > rowbytes || layer >= nlayers;
  for (int k = 1; k < 3; k++) oob = oob || co[k] < 0 || co[k] >= lim[k];
  out->oob = false;
  if (oob) {
    if (clampmode == CL_ZERO) { out->oob = true; return true; }
    if (clampmode == CL_TRAP) {
      emu_fault_at(w, x, lane, FAULT_TRAP, "surface access out of bounds (.trap): x %lld%s, y %lld, z %lld, layer %llu of a %ux%ux%u surface",
                   (long long)co[0], bytes ? " bytes" : "", (long long)co[1], (long long)co[2], (unsigned long long)layer,
                   d->width, d->height, d->depth);
      return false;
    }
    int64_t xmax = rowbytes - (int64_t)size;
    if (xmax < 0) xmax = 0;
    xb = xb < 0 ? 0 : xb > xmax ? xmax / size * size : xb;
    for (int k = 1; k < 3; k++) co[k] = co[k] < 0 ? 0 : co[k] >= lim[k] ? lim[k] - 1 : co[k];
    if (layer >= nlayers) layer = nlayers - 1;
  }
  uint64_t row = (layer * d->depth + (uint64_t)co[2]) * d->height + (uint64_t)co[1];
  out->a = d->addr + row * d->pitch + (uint64_t)xb;
  return true;
}

static int clamp_mode(const isa_insn *in) {
  return has_mod(in, MOD_SCLAMP) ? CL_CLAMP : has_mod(in, MOD_ZERO) ? CL_ZERO : CL_TRAP;
}

static uint8_t *surface_ptr(warp *w, const xinsn *x, int lane, uint64_t a, uint32_t size) {
  uint8_t *p = mm_global_ptr(w->e, a, size);
  if (!p) {
    emu_fault_at(w, x, lane, FAULT_OOB, "surface data at 0x%llx (%u bytes) is outside device memory", (unsigned long long)a, size);
    w->e->fault.addr = a;
    w->e->fault.size = size;
  }
  return p;
}

static uint32_t type_bytes(int t) { int b = ptx_type_bits((enum ptx_type)t); return b <= 8 ? 1 : (uint32_t)b / 8; }

/* Value operand k (a register, vector or immediate) of lane i as elements. */
static uint32_t source_values(warp *w, const xinsn *x, int k, int lane, uint64_t *v) {
  const isa_opnd *el;
  uint32_t n = elems(x, x->op[k].o, &el);
  for (uint32_t j = 0; j < n && j < 8; j++) v[j] = elem_bits(w, x, &el[j], lane);
  return n > 8 ? 8 : n;
}

static void h_suld(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_opnd *ao = x->op[1].o;
  uint64_t h[WARP_SIZE];
  if (!lane_handles(w, x, ao, g, h)) return;
  bool fmtd = has_mod(x->in, MOD_SP_);
  int cm = clamp_mode(x->in);
  const isa_opnd *dv = x->op[0].o, *del;
  uint32_t nv = elems(x, dv, &del), eb = type_bytes(x->in->type);
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    const emu_texdesc *d = object_of(w, x, i, h[i], ao, true);
    if (!d) return;
    uint64_t v[8] = { 0 };
    suaddr sa;
    if (fmtd) {
      if (!surface_addr(w, x, i, d, ao, texel_bytes(d), false, cm, &sa)) return;
      uint32_t r[4] = { 0, 0, 0, 0 };
      if (!sa.oob) {
        const uint8_t *p = surface_ptr(w, x, i, sa.a, texel_bytes(d));
        if (!p) return;
        for (int c = 0; c < 4; c++) r[c] = channel_value(d, p, c);
      }
      for (int c = 0; c < 4; c++) v[c] = r[c];
    } else {
      uint32_t size = eb * nv;
      if (!surface_addr(w, x, i, d, ao, size, true, cm, &sa)) return;
      if (!sa.oob) {
        const uint8_t *p = surface_ptr(w, x, i, sa.a, size);
        if (!p) return;
        for (uint32_t j = 0; j < nv && j < 8; j++) memcpy(&v[j], p + j * eb, eb > 8 ? 8 : eb);
      }
    }
    write_dest(w, x, 0, i, v, nv > 8 ? 8 : nv, true);
  }
}

static uint64_t sat_int(uint64_t v, bool src_signed, unsigned bits, bool dst_signed) {
  int64_t s = src_signed ? (int64_t)(int32_t)(uint32_t)v : (int64_t)(uint32_t)v;
  int64_t lo = dst_signed ? -(1ll << (bits - 1)) : 0, hi = dst_signed ? (1ll << (bits - 1)) - 1 : (int64_t)((1ull << bits) - 1);
  return (uint64_t)(s < lo ? lo : s > hi ? hi : s);
}

static void h_sust(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_opnd *ao = x->op[0].o;
  uint64_t h[WARP_SIZE];
  if (!lane_handles(w, x, ao, g, h)) return;
  bool fmtd = has_mod(x->in, MOD_SP_);
  int cm = clamp_mode(x->in);
  uint32_t eb = type_bytes(x->in->type);
  /* lanes in order: the highest lane wins when they store to one place */
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    const emu_texdesc *d = object_of(w, x, i, h[i], ao, true);
    if (!d) return;
    uint64_t v[8];
    uint32_t nv = source_values(w, x, 1, i, v);
    suaddr sa;
    if (fmtd) {
      uint32_t tb = texel_bytes(d), cb = fmt_bytes[d->fmt];
      if (!surface_addr(w, x, i, d, ao, tb, false, cm, &sa)) return;
      if (sa.oob) continue;
      uint8_t *p = surface_ptr(w, x, i, sa.a, tb);
      if (!p) return;
      for (uint32_t c = 0; c < nv && c < d->channels; c++) {
        uint64_t o;
        switch (d->fmt) {
        case TEXFMT_F32: o = (uint32_t)v[c]; break;
        case TEXFMT_F16: o = cvt_f32_to_f16_rn((uint32_t)v[c]); break;
        default: o = sat_int(v[c], fmt_signed(d->fmt), cb * 8, fmt_signed(d->fmt)); break;
        }
        memcpy(p + c * cb, &o, cb);
      }
    } else {
      uint32_t size = eb * nv;
      if (!surface_addr(w, x, i, d, ao, size, true, cm, &sa)) return;
      if (sa.oob) continue;
      uint8_t *p = surface_ptr(w, x, i, sa.a, size);
      if (!p) return;
      for (uint32_t j = 0; j < nv; j++) memcpy(p + j * eb, &v[j], eb > 8 ? 8 : eb);
    }
  }
}

static void h_sured(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_opnd *ao = x->op[0].o;
  uint64_t h[WARP_SIZE];
  if (!lane_handles(w, x, ao, g, h)) return;
  bool sample = has_mod(x->in, MOD_SP_);
  int cm = clamp_mode(x->in), t = x->in->type;
  uint32_t size = type_bytes(t);
  const uint64_t *src = xsrc(w, x, 1);
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    const emu_texdesc *d = object_of(w, x, i, h[i], ao, true);
    if (!d) return;
    suaddr sa;
    if (!surface_addr(w, x, i, d, ao, size, !sample, cm, &sa)) return;
    if (sa.oob) continue;
    uint8_t *p = surface_ptr(w, x, i, sa.a, size);
    if (!p) return;
    bool sg = sample ? fmt_signed(d->fmt) : (t == PTX_T_S32 || t == PTX_T_S64);
    uint64_t mask = size == 8 ? ~0ull : 0xffffffffull, old = 0, b = src[i] & mask, r;
    memcpy(&old, p, size);
    int64_t so = size == 8 ? (int64_t)old : (int64_t)(int32_t)(uint32_t)old;
    int64_t sb = size == 8 ? (int64_t)b : (int64_t)(int32_t)(uint32_t)b;
    switch (x->in->bop) {
    case MOD_ADD: r = (old + b) & mask; break;
    case MOD_MIN: r = sg ? (so < sb ? old : b) : (old < b ? old : b); break;
    case MOD_MAX: r = sg ? (so > sb ? old : b) : (old > b ? old : b); break;
    case MOD_AND: r = old & b; break;
    case MOD_OR: r = old | b; break;
    default:
      emu_fault_at(w, x, i, FAULT_UNSUPPORTED, "surface reduction not supported");
      return;
    }
    memcpy(p, &r, size);
  }
}

int prep_tex(emu *e, xinsn *x) {
  (void)e;
  switch (x->in->op) {
  case OP_TEX: case OP_TLD4: x->fn = h_tex; return 0;
  case OP_TXQ: case OP_SUQ: x->fn = h_query; return 0;
  case OP_SULD: x->fn = h_suld; return 0;
  case OP_SUST: x->fn = h_sust; return 0;
  case OP_SURED: x->fn = h_sured; return 0;
  case OP_ISTYPEP: x->fn = h_istypep; return 0;
  default: return -1;
  }
}
