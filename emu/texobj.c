/* emu/texobj.c - the table of texture and surface objects, texref/surfref
 * binding, and tensor-map encoding (see texobj.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "emu/texobj.h"

typedef struct textable {
  emu_texdesc *v;
  uint32_t n, cap;
} textable;

uint64_t emu_texture_create(emu *e, const emu_texdesc *d) {
  textable *t = e->textures;
  if (!t) {
    if (!(t = calloc(1, sizeof *t))) return 0;
    e->textures = t;
  }
  if (t->n == t->cap) {
    uint32_t nc = t->cap ? t->cap * 2 : 8;
    emu_texdesc *nv = realloc(t->v, nc * sizeof *nv);
    if (!nv) return 0;
    t->v = nv;
    t->cap = nc;
  }
  t->v[t->n++] = *d;
  return t->n;
}

const emu_texdesc *emu_texture_get(const emu *e, uint64_t handle) {
  const textable *t = e->textures;
  if (!t || handle == 0 || handle > t->n) return NULL;
  return &t->v[handle - 1];
}

int emu_texture_bind(emu *e, const char *symbol, uint64_t handle) {
  const emu_texdesc *d = emu_texture_get(e, handle);
  if (!d) return -1;
  const isa_module *m = e->m;
  for (uint32_t i = 0; i < m->nsyms; i++) {
    const isa_sym *s = &m->syms[i];
    if (s->is_func || strcmp(s->name, symbol) != 0) continue;
    if (s->type != (d->surface ? PTX_T_SURFREF : PTX_T_TEXREF) || !e->sym_addr[i] || s->size < 8) return -1;
    uint8_t *p = emu_host_ptr(e, e->sym_addr[i], 8);
    if (!p) return -1;
    memcpy(p, &handle, 8);
    return 1;
  }
  return 0;
}

void emu_textures_free(emu *e) {
  textable *t = e->textures;
  if (!t) return;
  free(t->v);
  free(t);
  e->textures = NULL;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* tail: write the per-dimension slots past the rank as D holds them (the
 * inverse of emu_tensormap_decode); the driver API leaves them zero. */
static void encode(uint8_t out[128], const emu_tmapdesc *d, bool tail) {
  memset(out, 0, 128);
  put64(out + 0x00, d->addr);
  for (int i = 0; i < 5; i++) {
    if (i >= d->rank) {
      if (!tail) continue;
      put32(out + 0x08 + 4 * i, (uint32_t)d->dim[i]);
      if (i) put64(out + 0x20 + 8 * (i - 1), d->stride[i]);
      put32(out + 0x40 + 4 * i, d->box[i]);
      put32(out + 0x54 + 4 * i, d->estride[i]);
      continue;
    }
    put32(out + 0x08 + 4 * i, (uint32_t)d->dim[i]);
    if (i) put64(out + 0x20 + 8 * (i - 1), d->stride[i]);
    put32(out + 0x40 + 4 * i, d->box[i]);
    /* cuTensorMapEncodeTiled: without interleave, elementStrides[0] is
     * ignored (TMA has no stride in dimension 0) */
    uint32_t es = d->estride[i] ? d->estride[i] : 1;
    put32(out + 0x54 + 4 * i, i == 0 && d->interleave == 0 ? 1 : es);
  }
  out[0x68] = (uint8_t)d->rank;
  out[0x69] = (uint8_t)d->dtype;
  out[0x6a] = (uint8_t)d->interleave;
  out[0x6b] = (uint8_t)d->swizzle;
  out[0x6c] = (uint8_t)d->l2promo;
  out[0x6d] = (uint8_t)d->oobfill;
  out[0x6e] = 1;                      /* version */
  if (d->im2col) {                    /* im2col: the box fields hold its parameters */
    out[0x6f] = 1;
    put32(out + 0x40, d->channels);
    put32(out + 0x44, d->pixels);
    for (int i = 0; i < 3; i++) {
      int16_t lo = (int16_t)d->lower[i], hi = (int16_t)d->upper[i];
      memcpy(out + 0x48 + 2 * i, &lo, 2);
      memcpy(out + 0x4e + 2 * i, &hi, 2);
    }
  }
  put32(out + 0x70, 0x4d545850u);     /* "PXTM" */
  out[0x74] = (uint8_t)d->swizzle_atomicity;
}

void emu_tensormap_encode(uint8_t out[128], const emu_tmapdesc *d) { encode(out, d, false); }
void emu_tensormap_reencode(uint8_t out[128], const emu_tmapdesc *d) { encode(out, d, true); }

static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

int emu_tensormap_decode(const uint8_t in[128], emu_tmapdesc *d) {
  memset(d, 0, sizeof *d);
  if (get32(in + 0x70) != 0x4d545850u) return -1;
  d->addr = get64(in);
  for (int i = 0; i < 5; i++) {
    d->dim[i] = get32(in + 0x08 + 4 * i);
    if (i) d->stride[i] = get64(in + 0x20 + 8 * (i - 1));
    d->box[i] = get32(in + 0x40 + 4 * i);
    d->estride[i] = get32(in + 0x54 + 4 * i);
  }
  d->rank = in[0x68];
  d->dtype = in[0x69];
  d->interleave = in[0x6a];
  d->swizzle = in[0x6b];
  d->l2promo = in[0x6c];
  d->oobfill = in[0x6d];
  d->swizzle_atomicity = in[0x74];
  if (in[0x6f] == 1) {
    d->im2col = 1;
    d->channels = get32(in + 0x40);
    d->pixels = get32(in + 0x44);
    for (int i = 0; i < 3; i++) {
      int16_t lo, hi;
      memcpy(&lo, in + 0x48 + 2 * i, 2);
      memcpy(&hi, in + 0x4e + 2 * i, 2);
      d->lower[i] = lo;
      d->upper[i] = hi;
    }
  }
  return 0;
}
