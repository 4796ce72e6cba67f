/* fuzz_object.c - libFuzzer harness for object files (.pxo).  The first
 * input byte picks a mode and one of the seed objects (built once from
 * the small PTX modules below):
 *  0  the bytes as an object: isa_read_object_mem;
 *  1  the seed with the input applied as byte mutations (pairs of offset,
 *     xor byte), its checksum recomputed so that the changes reach the
 *     reader's own checks;
 *  2  structure-aware: the seed is read, fields of its instructions,
 *     operands, variables, relocations, functions and listings are set to
 *     values the input picks (edge values: 0, -1, 2^32, 2^64-8 ...), and it
 *     is written again (the writer computes the checksum).
 * An object that reads is disassembled, written and read back (an object
 * we wrote must read), and each kernel is run once on the emulator (1
 * block of 32 threads, 2000 warp instructions): the reader must establish
 * every invariant the executor relies on. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ptx/ast.h"
#include "isa/isa.h"
#include "emu/emu.h"

static const char *const seed_ptx[] = {
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".global .align 4 .u32 tab[4] = {1, 2, 3, 4};\n"
  ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
  "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [n];\n"
  "  mov.u32 %r2, %tid.x; setp.ge.u32 %p1, %r2, %r1; @%p1 bra DONE;\n"
  "  mul.wide.u32 %rd2, %r2, 4; add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r3, [tab]; st.global.u32 [%rd3], %r3;\n"
  "DONE:\n  ret;\n}\n",

  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".global .align 8 .u32 a[4] = {5, 6, 7, 8};\n"
  ".global .align 8 .u32 pa[2] = {a, generic(a)+4};\n"
  ".global .align 8 .u64 pb[2] = {a+8, 3};\n"
  ".shared .align 16 .b32 sh[64];\n"
  ".func (.param .b32 r) twice(.param .b32 x, .param .align 8 .b8 buf[16])\n{\n"
  "  .reg .b32 %t<3>;\n"
  "  ld.param.b32 %t1, [x]; ld.param.b32 %t2, [buf+4]; shl.b32 %t1, %t1, %t2; add.s32 %t1, %t1, %t1;\n"
  "  st.param.b32 [r], %t1; ret;\n}\n"
  ".visible .entry k2(.param .u64 out)\n{\n"
  "  .reg .pred %p<3>; .reg .b32 %r<12>; .reg .b64 %rd<6>; .reg .f32 %f<4>;\n"
  "  .local .align 8 .b8 loc[32];\n"
  "  ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; and.b32 %r2, %r1, 15;\n"
  "  shl.b32 %r3, %r2, 2; mov.u32 %r4, sh; add.s32 %r4, %r4, %r3; st.shared.u32 [%r4], %r1; bar.sync 0;\n"
  "  ld.shared.v2.u32 {%r5, %r6}, [sh+8]; ld.global.u32 %r7, [pa+4]; ld.global.u64 %rd2, [pb];\n"
  "  cvt.rn.f32.u32 %f1, %r5; fma.rn.f32 %f2, %f1, 0f3F000000, %f1; cvt.rzi.u32.f32 %r8, %f2;\n"
  "  st.local.u32 [loc+4], %r8; ld.local.u32 %r9, [loc+4];\n"
  "  { .param .b32 x0; .param .align 8 .b8 b0[16]; .param .b32 r0;\n"
  "    st.param.b32 [x0], %r9; st.param.b32 [b0+4], %r2; call.uni (r0), twice, (x0, b0); ld.param.b32 %r10, [r0]; }\n"
  "  setp.lt.u32 %p1, %r1, 16; selp.b32 %r11, %r10, %r7, %p1;\n"
  "  shfl.sync.bfly.b32 %r11|%p2, %r11, 1, 31, -1; atom.global.add.u32 %r11, [%rd1], %r11;\n"
  "  mul.wide.u32 %rd3, %r1, 8; add.s64 %rd4, %rd1, %rd3; st.global.v2.u32 [%rd4+8], {%r11, %r6};\n"
  "  @%p2 bra END; brev.b32 %r11, %r11;\nEND:\n  ret;\n}\n",
};
#define NSEEDS (sizeof seed_ptx / sizeof seed_ptx[0])

static uint8_t *valid[NSEEDS];
static size_t valid_len[NSEEDS];
static char tmpdir[] = "/tmp/ptxemu-fuzz-obj-XXXXXX";
static FILE *devnull;

static int slurp(const char *path, uint8_t **out, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  *out = malloc(n > 0 ? (size_t)n : 1);
  *len = fread(*out, 1, n > 0 ? (size_t)n : 0, f);
  fclose(f);
  return 0;
}

/* Write m and read the file's bytes back (NULL when it cannot be written). */
static uint8_t *object_bytes(const isa_module *m, size_t *len) {
  char path[sizeof tmpdir + 16], err[256];
  snprintf(path, sizeof path, "%s/w.pxo", tmpdir);
  if (isa_write_object(m, path, err, sizeof err)) return NULL;
  uint8_t *b;
  return slurp(path, &b, len) ? NULL : b;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc; (void)argv;
  devnull = fopen("/dev/null", "w");
  if (!mkdtemp(tmpdir)) abort();
  for (size_t i = 0; i < NSEEDS; i++) {
    size_t len = strlen(seed_ptx[i]);
    char *buf = calloc(1, len + 2);
    memcpy(buf, seed_ptx[i], len);
    ptx_diag d;
    memset(&d, 0, sizeof d);
    d.path = "seed.ptx"; d.src = buf; d.src_len = len; d.out = stderr;
    isa_module *m = isa_assemble_ptx(buf, len, "seed.ptx", &d);
    if (!m) abort();
    valid[i] = object_bytes(m, &valid_len[i]);
    if (!valid[i]) abort();
    isa_module_free(m);
    free(buf);
  }
  return 0;
}

/* The checksum of isa/object.c (FNV-1a over 64-bit little-endian words,
 * then the tail's bytes), stored in the header at 16. */
static void fix_checksum(uint8_t *p, size_t len) {
  if (len < 24) return;
  uint64_t h = 14695981039346656037ull;
  const uint8_t *q = p + 24;
  size_t n = len - 24;
  for (; n >= 8; q += 8, n -= 8) {
    uint64_t w = 0;
    for (int i = 0; i < 8; i++) w |= (uint64_t)q[i] << (8 * i);
    h = (h ^ w) * 1099511628211ull;
    h ^= h >> 31;
  }
  for (; n; q++, n--) h = (h ^ *q) * 1099511628211ull;
  for (int i = 0; i < 8; i++) p[16 + i] = (uint8_t)(h >> (8 * i));
}

/* Each kernel once: 1 block of 32 threads, zero parameters except 8-byte
 * ones, which point at a zeroed buffer. */
static void run_kernels(isa_module *m) {
  emu_options eo;
  emu_default_options(&eo);
  eo.max_warp_insts = 2000;
  eo.resident_ctas = 1;
  eo.heap_bytes = 1u << 16;
  eo.mem_cap = 16u << 20;
  eo.stack_bytes = 1024;
  eo.printf_out = devnull;
  eo.progress = false;
  emu *e = emu_new(m, &eo);
  if (!e) return;
  uint64_t bufaddr = emu_alloc(e, 4096, "buf");
  for (uint32_t fi = 0; fi < m->nfuncs && bufaddr; fi++) {
    const isa_func *k = &m->funcs[fi];
    if (!k->is_entry || !k->has_body) continue;
    uint64_t psize = 0;
    for (uint32_t i = 0; i < k->nparams; i++) {
      const isa_sym *s = &k->syms[k->nrets + i];
      if (s->offset + s->size > psize) psize = s->offset + s->size;
    }
    uint8_t *params = calloc(1, psize ? psize : 1);
    if (!params) break;
    for (uint32_t i = 0; i < k->nparams; i++) {
      const isa_sym *s = &k->syms[k->nrets + i];
      if (s->size == 8) memcpy(params + s->offset, &bufaddr, 8);
    }
    memset(emu_host_ptr(e, bufaddr, 4096), 0, 4096);
    emu_launch l;
    memset(&l, 0, sizeof l);
    l.func = (int)fi;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = 32; l.block[1] = l.block[2] = 1;
    l.cluster[0] = l.cluster[1] = l.cluster[2] = 1;
    l.params = params;
    l.param_size = (uint32_t)psize;
    emu_run(e, &l);
    free(params);
  }
  emu_free(e);
}

static void check(const uint8_t *data, size_t len, int deep) {
  char err[256];
  const char *dump = getenv("FUZZ_OBJECT_DUMP");    /* keep the object a crash input makes */
  if (dump) { FILE *f = fopen(dump, "wb"); if (f) { fwrite(data, 1, len, f); fclose(f); } }
  isa_module *m = isa_read_object_mem(data, len, err, sizeof err);
  if (!m) return;
  isa_disassemble(m, devnull);
  if (deep) {
    size_t blen;
    uint8_t *back = object_bytes(m, &blen);
    if (back) {
      isa_module *m2 = isa_read_object_mem(back, blen, err, sizeof err);
      /* an object we wrote ourselves must read back */
      if (!m2) { fprintf(stderr, "fuzz_object: rewritten object does not read: %s\n", err); abort(); }
      isa_module_free(m2);
      free(back);
    }
    run_kernels(m);
  }
  isa_module_free(m);
}

/* ---- structure-aware mutation ------------------------------------------ */

typedef struct rd { const uint8_t *p; size_t n; } rd;
static uint32_t take(rd *r, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; i++) { v = v << 8 | (r->n ? *r->p : 0); if (r->n) { r->p++; r->n--; } }
  return v;
}

/* A value for a field: an edge value, or raw input bytes. */
static uint64_t pick_value(rd *r) {
  static const uint64_t edges[] = {
    0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 4095, 4096, 32764, 32768,
    65535, 65536, 0x7fffffffu, 0x80000000u, 0xfffffff8u, 0xfffffffeu, 0xffffffffu, 1ull << 32, (1ull << 32) + 4,
    1ull << 48, (1ull << 48) + 1, 1ull << 63, UINT64_MAX - 7, UINT64_MAX - 1, UINT64_MAX,
  };
  uint32_t sel = take(r, 1);
  if (sel < 200) return edges[sel % (sizeof edges / sizeof edges[0])];
  uint64_t v = (uint64_t)take(r, 4) << 32;
  return v | take(r, 4);
}

#define SET(field, v) ((field) = (__typeof__(field))(v))
/* Counts only go down: the writer walks the arrays by them. */
#define LOWER(field, v) do { if ((uint64_t)(v) < (uint64_t)(field)) (field) = (__typeof__(field))(v); } while (0)

static void mutate_insn(isa_insn *in, uint32_t which, uint64_t v) {
  switch (which % 24) {
  case 0: SET(in->op, v); break;
  case 1: SET(in->nops, v); break;
  case 2: LOWER(in->ncomps, v); break;
  case 3: SET(in->type, v); break;
  case 4: SET(in->type2, v); break;
  case 5: SET(in->rnd, v); break;
  case 6: SET(in->vec, v); break;
  case 7: SET(in->shape_m, v); break;
  case 8: SET(in->cmp, v); break;
  case 9: SET(in->bop, v); break;
  case 10: SET(in->space, v); break;
  case 11: SET(in->sem, v); break;
  case 12: SET(in->sub, v); break;
  case 13: SET(in->flags, v); break;
  case 14: SET(in->guard, v); break;
  case 15: SET(in->opi, v); break;
  case 16: SET(in->loc, v); break;
  case 17: SET(in->guard_neg, v); break;
  case 18: SET(in->shape_n, v); break;
  case 19: SET(in->shape_k, v); break;
  case 20: SET(in->cache, v); break;
  case 21: SET(in->type3, v); break;
  default: if (in->ncomps) SET(in->comps[v % in->ncomps], v >> 8); break;
  }
}

static void mutate_opnd(isa_opnd *o, uint32_t which, uint64_t v) {
  switch (which % 5) {
  case 0: SET(o->kind, v); break;
  case 1: SET(o->flags, v); break;
  case 2: SET(o->n, v); break;
  case 3: SET(o->v, v); break;
  default: SET(o->imm, v); break;
  }
}

static void mutate_sym(isa_sym *s, uint32_t which, uint64_t v) {
  switch (which % 14) {
  case 0: if (s->init) LOWER(s->size, v); else SET(s->size, v); break;   /* the writer copies size bytes of init */
  case 1: SET(s->offset, v); break;
  case 2: SET(s->type, v); break;
  case 3: SET(s->space, v); break;
  case 4: SET(s->align, v); break;
  case 5: SET(s->vec, v); break;
  case 6: LOWER(s->ndims, v); break;
  case 7: if (s->ndims) SET(s->dims[v % s->ndims], v); break;
  case 8: SET(s->linkage, v); break;
  case 9: SET(s->dim_open, v); break;
  case 10: LOWER(s->nrelocs, v); break;
  case 11: if (s->nrelocs) SET(s->relocs[v % s->nrelocs].offset, v); break;
  case 12: if (s->nrelocs) SET(s->relocs[v % s->nrelocs].sym, v); break;
  default: if (s->nrelocs) SET(s->relocs[v % s->nrelocs].addend, v); break;
  }
}

static void mutate_func(isa_module *m, isa_func *f, uint32_t which, uint32_t idx, uint64_t v) {
  switch (which % 16) {
  case 0: SET(f->nrets, v); break;
  case 1: SET(f->nparams, v); break;
  case 2: SET(f->local_bytes, v); break;
  case 3: SET(f->alias_of, v); break;
  case 4: SET(f->is_entry, v & 1); break;
  case 5: SET(f->has_body, v & 1); break;
  case 6: SET(f->is_proto, v & 1); break;
  case 7: if (f->nregs) SET(f->regtype[idx % f->nregs], v); break;
  case 8: if (f->nlabels) SET(f->label_pc[idx % f->nlabels], v); break;
  case 9: if (f->ntables && f->tables[idx % f->ntables].n) SET(f->tables[idx % f->ntables].pcs[0], v); break;
  case 10: if (f->nrecs) SET(f->recs[idx % f->nrecs].pc, v); break;
  case 11: if (f->nrecs) SET(f->recs[idx % f->nrecs].a, v); break;
  case 12: if (f->nrecs) SET(f->recs[idx % f->nrecs].kind, v); break;
  case 13: LOWER(f->ninsns, v); break;
  case 14: SET(f->perf.n_maxntid, v); break;
  default: SET(f->perf.maxntid[idx % 3], v); (void)m; break;
  }
}

/* Records of 4 input bytes: what to change (target, field, index), then
 * its value. */
static void mutate_module(isa_module *m, rd *r) {
  for (int k = 0; k < 8 && r->n; k++) {
    uint32_t target = take(r, 1), which = take(r, 1), idx = take(r, 2);
    uint64_t v = pick_value(r);
    if (!m->nfuncs) return;
    isa_func *f = &m->funcs[idx % m->nfuncs];
    switch (target % 6) {
    case 0: if (f->ninsns) mutate_insn(&f->insns[idx % f->ninsns], which, v); break;
    case 1: if (f->nops) mutate_opnd(&f->ops[idx % f->nops], which, v); break;
    case 2: if (f->npool) mutate_opnd(&f->pool[idx % f->npool], which, v); break;
    case 3: if (m->nsyms) mutate_sym(&m->syms[idx % m->nsyms], which, v); break;
    case 4: if (f->nsyms) mutate_sym(&f->syms[idx % f->nsyms], which, v); break;
    default: mutate_func(m, f, which, idx, v); break;
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size) return 0;
  int mode = data[0] % 3;
  size_t seed = (data[0] / 3) % NSEEDS;
  const uint8_t *in = data + 1;
  size_t n = size - 1;
  if (mode == 0) { check(in, n, 0); return 0; }
  if (mode == 1) {
    uint8_t *copy = malloc(valid_len[seed]);
    memcpy(copy, valid[seed], valid_len[seed]);
    size_t len = valid_len[seed];
    for (size_t i = 0; i + 2 < n && i < 96; i += 3) {
      size_t off = ((size_t)in[i] << 8 | in[i + 1]) % len;
      if (off < 24) off += 24;                 /* the header is left alone: a fixed checksum reaches the payload */
      if (off < len) copy[off] ^= in[i + 2];
    }
    fix_checksum(copy, len);
    check(copy, len, 1);
    free(copy);
    return 0;
  }
  char err[256];
  isa_module *m = isa_read_object_mem(valid[seed], valid_len[seed], err, sizeof err);
  if (!m) abort();
  rd r = { in, n };
  mutate_module(m, &r);
  size_t len;
  uint8_t *bytes = object_bytes(m, &len);
  isa_module_free(m);
  if (bytes) { check(bytes, len, 1); free(bytes); }
  return 0;
}
