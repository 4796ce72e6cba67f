/* isa/object.c - .pxo object files.
 *
 * Layout: "PXO\0", format version (u32), payload length (u64), checksum of
 * the payload (u64, see checksum()), payload.  The payload is written and read
 * by the same function (ser_module) walking the module, so the two sides
 * cannot drift apart.  Reading checks every count against what is left and
 * every index against what it points into (isa_validate), so a truncated or
 * crafted file is an error, never an out-of-bounds access. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "isa/isa.h"
#include "util/outfile.h"

#define PXO_MAGIC "PXO\0"
#define PXO_VERSION 2u

typedef struct ser {
  bool reading, failed;
  uint8_t *buf;            /* reading: the input; writing: bytes not yet in the file */
  size_t len, cap, pos;
  FILE *out;               /* writing: the file, filled a buffer at a time  */
  uint64_t written, sum;   /* writing: payload bytes flushed, their checksum */
  arena *arena;            /* reading: where arrays and strings go          */
  char *err; size_t errlen;
} ser;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_LE 1
#else
#define HOST_LE 0
#endif

/* Checksum of the payload: FNV-1a over 64-bit little-endian words (then
 * over the bytes of a short tail), fast enough to be free next to the I/O.
 * Feeding it in pieces gives the same value as long as every piece but the
 * last is a multiple of 8 bytes long. */
static uint64_t checksum(uint64_t h, const uint8_t *p, size_t n) {
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t w = 0;
    if (HOST_LE) memcpy(&w, p, 8);
    else for (int i = 0; i < 8; i++) w |= (uint64_t)p[i] << (8 * i);
    h = (h ^ w) * 1099511628211ull;
    h ^= h >> 31;
  }
  for (; n; p++, n--) h = (h ^ *p) * 1099511628211ull;
  return h;
}
#define CHECKSUM_SEED 14695981039346656037ull
#define SER_CHUNK (64u << 10)

static void fail(ser *s, const char *what) {
  if (!s->failed && s->err) snprintf(s->err, s->errlen, "corrupt object file: %s", what);
  s->failed = true;
}

static void flush(ser *s) {
  if (!s->len || s->failed) return;
  s->sum = checksum(s->sum, s->buf, s->len);
  if (fwrite(s->buf, 1, s->len, s->out) != s->len) { s->failed = true; if (s->err) snprintf(s->err, s->errlen, "write error"); }
  s->written += s->len;
  s->len = 0;
}

static void bytes(ser *s, void *p, size_t n) {
  if (!n) return;                          /* p may be NULL then: an empty array, or one a failure left out */
  if (s->failed) { if (s->reading) memset(p, 0, n); return; }
  if (s->reading) {
    if (s->len - s->pos < n) { fail(s, "truncated"); memset(p, 0, n); return; }
    memcpy(p, s->buf + s->pos, n);
    s->pos += n;
    return;
  }
  const uint8_t *q = p;
  while (n) {                              /* the buffer is flushed whole: SER_CHUNK is a multiple of 8 */
    size_t k = SER_CHUNK - s->len < n ? SER_CHUNK - s->len : n;
    memcpy(s->buf + s->len, q, k);
    s->len += k; q += k; n -= k;
    if (s->len == SER_CHUNK) flush(s);
  }
}

/* little-endian scalars; on a little-endian host the value's bytes are
 * the file's, and writing is a copy into the buffer */
#define SER_INT(name, T, N) \
  static inline void name(ser *s, T *v) { \
    if (HOST_LE && !s->failed) { \
      if (s->reading && s->len - s->pos >= N) { memcpy(v, s->buf + s->pos, N); s->pos += N; return; } \
      if (!s->reading && s->len + N <= SER_CHUNK) { \
        memcpy(s->buf + s->len, v, N); \
        s->len += N; \
        if (s->len == SER_CHUNK) flush(s); \
        return; \
      } \
    } \
    uint8_t b[N]; uint64_t x = (uint64_t)*v; \
    if (!s->reading) for (int i = 0; i < N; i++) b[i] = (uint8_t)(x >> (8 * i)); \
    bytes(s, b, N); \
    if (s->reading) { x = 0; for (int i = 0; i < N; i++) x |= (uint64_t)b[i] << (8 * i); *v = (T)x; } \
  }
SER_INT(u8, uint8_t, 1)
SER_INT(u16, uint16_t, 2)
SER_INT(u32, uint32_t, 4)
SER_INT(u64, uint64_t, 8)
SER_INT(i32, int32_t, 4)
SER_INT(i64, int64_t, 8)

static void boolean(ser *s, bool *b) { uint8_t x = *b; u8(s, &x); *b = x != 0; }

static void str(ser *s, const char **p) {
  uint32_t n = *p ? (uint32_t)strlen(*p) + 1 : 0;   /* 0 = NULL */
  u32(s, &n);
  if (s->reading) {
    if (!n) { *p = NULL; return; }
    if (n > s->len - s->pos) { fail(s, "string past the end"); *p = NULL; return; }
    char *q = arena_alloc(s->arena, n);
    bytes(s, q, n - 1);
    q[n - 1] = 0;
    *p = q;
  } else if (n) bytes(s, (void *)*p, n - 1);
}

/* An array of n elements, each at least min_bytes long in the file: the
 * bound stops a crafted count from allocating more than the file holds. */
static void *array(ser *s, void *p, uint32_t *n, size_t elem, size_t min_bytes) {
  u32(s, n);
  if (!s->reading) return p;
  if (s->failed) { *n = 0; return NULL; }
  if ((uint64_t)*n * min_bytes > s->len - s->pos) { fail(s, "array past the end"); *n = 0; return NULL; }
  return arena_alloc(s->arena, (*n ? *n : 1) * elem);
}

static void ser_opnd(ser *s, isa_opnd *o) { u8(s, &o->kind); u8(s, &o->flags); u16(s, &o->n); u32(s, &o->v); i64(s, &o->imm); }

/* An array of operands: 16 bytes each in the file, in the order of the
 * fields, which on a little-endian host is the array itself (isa_opnd has
 * no padding). */
_Static_assert(sizeof(isa_opnd) == 16 && offsetof(isa_opnd, v) == 4 && offsetof(isa_opnd, imm) == 8,
               "isa_opnd is its file layout");
static void ser_opnds(ser *s, isa_opnd *v, uint32_t n) {
  if (HOST_LE) { bytes(s, v, (size_t)n * sizeof *v); return; }
  for (uint32_t i = 0; i < n; i++) ser_opnd(s, &v[i]);
}

/* A record of fixed fields goes through a local buffer, one bytes() call
 * for all of them: instructions are most of an object. */
typedef struct recbuf { uint8_t b[96]; size_t k; bool reading; } recbuf;
#define FIELD(r, p) do { \
    size_t n_ = sizeof *(p); \
    if ((r)->reading) { \
      uint64_t x_ = 0; \
      for (size_t i_ = 0; i_ < n_; i_++) x_ |= (uint64_t)(r)->b[(r)->k + i_] << (8 * i_); \
      *(p) = (__typeof__(*(p)))x_; \
    } else { \
      uint64_t x_ = (uint64_t)*(p); \
      for (size_t i_ = 0; i_ < n_; i_++) (r)->b[(r)->k + i_] = (uint8_t)(x_ >> (8 * i_)); \
    } \
    (r)->k += n_; \
  } while (0)

enum { INSN_FIXED = 52 };     /* bytes of an instruction before its modifiers */

static void ser_insn(ser *s, isa_insn *in) {
  recbuf r = { .reading = s->reading };
  if (r.reading) bytes(s, r.b, INSN_FIXED);
  FIELD(&r, &in->op); FIELD(&r, &in->nops); FIELD(&r, &in->ncomps);
  FIELD(&r, &in->type); FIELD(&r, &in->type2); FIELD(&r, &in->type3); FIELD(&r, &in->type4);
  FIELD(&r, &in->rnd); FIELD(&r, &in->vec); FIELD(&r, &in->shape_m); FIELD(&r, &in->guard_neg);
  FIELD(&r, &in->cmp); FIELD(&r, &in->bop); FIELD(&r, &in->space); FIELD(&r, &in->space2);
  FIELD(&r, &in->sem); FIELD(&r, &in->scope); FIELD(&r, &in->sub); FIELD(&r, &in->cache);
  FIELD(&r, &in->shape_n); FIELD(&r, &in->shape_k);
  FIELD(&r, &in->flags); FIELD(&r, &in->guard); FIELD(&r, &in->opi); FIELD(&r, &in->line); FIELD(&r, &in->loc);
  if (in->ncomps > ISA_MAX_COMPS) { fail(s, "modifier count"); in->ncomps = 0; }
  if (r.reading) bytes(s, r.b + INSN_FIXED, 2u * in->ncomps);
  for (int i = 0; i < in->ncomps; i++) FIELD(&r, &in->comps[i]);
  if (!r.reading) bytes(s, r.b, r.k);
}

static void ser_sym(ser *s, isa_sym *y) {
  str(s, &y->name);
  u8(s, &y->space); u8(s, &y->type); u8(s, &y->vec); u8(s, &y->linkage);
  u8(s, &y->is_func); u8(s, &y->dim_open); u8(s, &y->is_ptr); u8(s, &y->ptr_space);
  u32(s, &y->align); u32(s, &y->ptr_align); u64(s, &y->size); u64(s, &y->offset); u32(s, &y->func);
  u32(s, &y->ndims);
  if (y->ndims > 4) { fail(s, "array rank"); y->ndims = 0; }
  for (uint32_t i = 0; i < y->ndims; i++) u64(s, &y->dims[i]);
  uint8_t has_init = y->init != NULL;
  u8(s, &has_init);
  if (has_init) {
    if (s->reading) {
      if (y->size > s->len - s->pos) { fail(s, "initialiser past the end"); return; }
      y->init = arena_alloc(s->arena, y->size ? y->size : 1);
    }
    bytes(s, y->init, y->size);
  } else if (s->reading) y->init = NULL;
  isa_reloc *r = array(s, y->relocs, &y->nrelocs, sizeof *r, 21);
  if (s->reading) y->relocs = r;
  for (uint32_t i = 0; i < y->nrelocs; i++) {
    u64(s, &y->relocs[i].offset); u32(s, &y->relocs[i].sym); u8(s, &y->relocs[i].generic); i64(s, &y->relocs[i].addend);
  }
  isa_field *f = array(s, y->fields, &y->nfields, sizeof *f, 16);
  if (s->reading) y->fields = f;
  for (uint32_t i = 0; i < y->nfields; i++) { str(s, &y->fields[i].name); str(s, &y->fields[i].word); i64(s, &y->fields[i].value); }
}

#define ARR(field, count, minb) do { void *p_ = array(s, f->field, &f->count, sizeof *f->field, minb); if (s->reading) f->field = p_; } while (0)

static void ser_perf(ser *s, ptx_perf *p) {
  for (int i = 0; i < 3; i++) { u32(s, &p->maxntid[i]); u32(s, &p->reqntid[i]); u32(s, &p->reqnctapercluster[i]); }
  u32(s, &p->minnctapersm); u32(s, &p->maxnctapersm); u32(s, &p->maxnreg); u32(s, &p->maxclusterrank);
  boolean(s, &p->explicitcluster); boolean(s, &p->noreturn);
  u8(s, &p->n_maxntid); u8(s, &p->n_reqntid); u8(s, &p->n_reqnctapercluster);
}

static void ser_func(ser *s, isa_func *f) {
  str(s, &f->name);
  boolean(s, &f->is_entry); boolean(s, &f->has_body); boolean(s, &f->is_proto);
  u8(s, &f->linkage);
  ser_perf(s, &f->perf);
  u32(s, &f->nrets); u32(s, &f->nparams);
  ARR(syms, nsyms, 40);
  for (uint32_t i = 0; i < f->nsyms; i++) ser_sym(s, &f->syms[i]);
  ARR(insns, ninsns, 50);
  for (uint32_t i = 0; i < f->ninsns; i++) ser_insn(s, &f->insns[i]);
  ARR(ops, nops, 16);
  ser_opnds(s, f->ops, f->nops);
  ARR(pool, npool, 16);
  ser_opnds(s, f->pool, f->npool);
  ARR(regtype, nregs, 5);
  bytes(s, f->regtype, f->nregs);
  if (s->reading) f->regname = arena_alloc(s->arena, (f->nregs ? f->nregs : 1) * sizeof *f->regname);
  for (uint32_t i = 0; i < f->nregs; i++) str(s, &f->regname[i]);
  ARR(recs, nrecs, 17);
  for (uint32_t i = 0; i < f->nrecs; i++) {
    isa_rec *r = &f->recs[i];
    u8(s, &r->kind); u32(s, &r->pc); u32(s, &r->a); u32(s, &r->b); str(s, &r->name);
  }
  ARR(locs, nlocs, 29);
  for (uint32_t i = 0; i < f->nlocs; i++) {
    isa_locinfo *l = &f->locs[i];
    u32(s, &l->file); u32(s, &l->line); u32(s, &l->col); str(s, &l->function_name);
    u32(s, &l->in_file); u32(s, &l->in_line); u32(s, &l->in_col); boolean(s, &l->inlined);
  }
  ARR(tables, ntables, 9);
  for (uint32_t i = 0; i < f->ntables; i++) {
    isa_table *t = &f->tables[i];
    str(s, &t->name); boolean(s, &t->calls);
    void *p = array(s, t->pcs, &t->n, sizeof *t->pcs, 4);
    if (s->reading) t->pcs = p;
    for (uint32_t k = 0; k < t->n; k++) u32(s, &t->pcs[k]);
  }
  ARR(labels, nlabels, 8);
  if (s->reading) f->label_pc = arena_alloc(s->arena, (f->nlabels ? f->nlabels : 1) * sizeof *f->label_pc);
  for (uint32_t i = 0; i < f->nlabels; i++) { str(s, &f->labels[i]); u32(s, &f->label_pc[i]); }
  ARR(pragmas, npragmas, 4);
  for (uint32_t i = 0; i < f->npragmas; i++) str(s, &f->pragmas[i]);
  u32(s, &f->regs_used); u64(s, &f->local_bytes); u64(s, &f->param_bytes); u64(s, &f->shared_bytes);
  u32(s, &f->alias_of);
}

static void ser_module(ser *s, isa_module *m) {
  str(s, &m->path);
  u32(s, &m->version); u32(s, &m->sm);
  uint8_t suf = (uint8_t)m->sm_suffix; u8(s, &suf); m->sm_suffix = (char)suf;
  boolean(s, &m->texmode_independent); boolean(s, &m->debug);
  u32(s, &m->address_size);
  isa_module *f = m;
  ARR(files, nfiles, 20);
  for (uint32_t i = 0; i < m->nfiles; i++) { u32(s, &m->files[i].id); str(s, &m->files[i].path); u64(s, &m->files[i].mtime); u64(s, &m->files[i].size); }
  ARR(sections, nsections, 4);
  for (uint32_t i = 0; i < m->nsections; i++) str(s, &m->sections[i]);
  ARR(mpragmas, nmpragmas, 4);
  for (uint32_t i = 0; i < m->nmpragmas; i++) str(s, &m->mpragmas[i]);
  ARR(syms, nsyms, 40);
  for (uint32_t i = 0; i < m->nsyms; i++) ser_sym(s, &m->syms[i]);
  u32(s, &m->nfuncs);
  if (s->reading) {
    if ((uint64_t)m->nfuncs * 60 > s->len - s->pos) { fail(s, "function count"); m->nfuncs = 0; }
    m->funcs = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *m->funcs);
  }
  for (uint32_t i = 0; i < m->nfuncs && !s->failed; i++) ser_func(s, &m->funcs[i]);
}

static void put_header(uint8_t hdr[24], uint64_t len, uint64_t sum) {
  uint32_t ver = PXO_VERSION;
  memcpy(hdr, PXO_MAGIC, 4);
  for (int i = 0; i < 4; i++) hdr[4 + i] = (uint8_t)(ver >> (8 * i));
  for (int i = 0; i < 8; i++) { hdr[8 + i] = (uint8_t)(len >> (8 * i)); hdr[16 + i] = (uint8_t)(sum >> (8 * i)); }
}

int isa_write_object(const isa_module *m, const char *path, char *err, size_t errlen) {
  /* the object is made in memory (its header, written last, needs the
   * length and checksum) and handed to outfile_write: a regular file is
   * replaced whole, a device or FIFO written in place */
  uint8_t *buf = malloc(SER_CHUNK);
  char *mem = NULL;
  size_t mlen = 0;
  FILE *fp = buf ? open_memstream(&mem, &mlen) : NULL;
  if (!fp) { free(buf); snprintf(err, errlen, "out of memory"); return -1; }
  uint8_t hdr[24] = {0};
  int ok = fwrite(hdr, 1, sizeof hdr, fp) == sizeof hdr;     /* the header comes last */
  ser s = { .buf = buf, .out = fp, .sum = CHECKSUM_SEED, .err = err, .errlen = errlen };
  if (ok) {
    ser_module(&s, (isa_module *)m);
    flush(&s);
    put_header(hdr, s.written, s.sum);
    ok = !s.failed;
  }
  if (fclose(fp) != 0) ok = 0;
  if (ok && mlen < sizeof hdr) ok = 0;
  if (ok) {
    memcpy(mem, hdr, sizeof hdr);
    if (outfile_write(path, mem, mlen)) { snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno)); ok = 0; }
  } else if (!s.failed) snprintf(err, errlen, "cannot write '%s': out of memory", path);
  free(mem);
  free(buf);
  return ok ? 0 : -1;
}

/* Every index in the module points where it may (see isa.h invariants). */
/* Fields that the disassembler and the emulator use as table indexes. */
static const char *check_sym(const isa_sym *y) {
  if (y->space >= PTX_SPACE_COUNT || y->ptr_space >= PTX_SPACE_COUNT) return "symbol space";
  if (y->type >= PTX_T_COUNT) return "symbol type";
  return NULL;
}

/* What an operand of signature letter sig (opcodes.def) may be: the kinds
 * the assembler's operand checks let through, which are what the
 * executor's handlers take (isa/assemble.c check_operand). */
static bool kind_fits(const isa_func *f, const isa_opnd *o, char sig) {
  switch (sig) {
  case 'd': case 'D': case 'e': case 'w':
    return o->kind == OK_REG || o->kind == OK_VEC || o->kind == OK_PAIR || o->kind == OK_SINK;
  case 'p': return o->kind == OK_PAIR || o->kind == OK_SINK || (o->kind == OK_REG && f->regtype[o->v] == PTX_T_PRED);
  case 'q': return o->kind == OK_IMM || (o->kind == OK_REG && f->regtype[o->v] == PTX_T_PRED);
  case 'm': return o->kind == OK_ADDR || o->kind == OK_ADDRX;
  case 'v': return o->kind != OK_ADDR && o->kind != OK_ADDRX;
  case 'l': return o->kind == OK_LABEL || o->kind == OK_FUNC || o->kind == OK_TABLE;
  default: return true;
  }
}

/* The operands of an instruction against its opcode's signature; call
 * has its own shape: [(rets),] target [, (args)] [, prototype|table]. */
static const char *check_operands(const isa_module *m, const isa_func *f, const isa_insn *in) {
  const isa_opnd *o = &f->ops[in->opi];
  if (in->op == OP_CALL) {
    uint32_t t = o[0].kind == OK_LIST ? 1 : 0;
    if (t >= in->nops || (o[t].kind != OK_FUNC && o[t].kind != OK_REG)) return "call target";
    for (uint32_t k = t + 1; k < in->nops; k++)
      if (o[k].kind != OK_LIST && o[k].kind != OK_LABEL && o[k].kind != OK_FUNC && o[k].kind != OK_TABLE) return "call operand";
    /* a direct call passes what the callee takes (isa/assemble.c check_calls) */
    if (o[t].kind != OK_FUNC) return NULL;
    const isa_func *g = &m->funcs[o[t].v];
    const isa_opnd *rets = t ? &o[0] : NULL, *args = t + 1 < in->nops && o[t + 1].kind == OK_LIST ? &o[t + 1] : NULL;
    uint32_t nr = rets ? rets->n : 0, na = args ? args->n : 0;
    if (nr != g->nrets || na != g->nparams || (uint64_t)g->nrets + g->nparams > g->nsyms) return "call arguments";
    for (uint32_t j = 0; j < nr + na; j++) {
      const isa_opnd *x = j < nr ? &f->pool[rets->v + j] : &f->pool[args->v + j - nr];
      if (x->kind != OK_SYM || (x->flags & (OF_MODSYM | OF_FUNCSYM)) != OF_FUNCSYM) continue;
      if (f->syms[x->v].size != g->syms[j].size || f->syms[x->v].space != g->syms[j].space) return "call argument size";
    }
    return NULL;
  }
  const char *sig = isa_ops[in->op].sig;
  size_t siglen = strlen(sig);
  for (uint32_t i = 0; i < in->nops; i++) {
    char c = i < siglen ? sig[i] : 'x';
    if ((in->flags & IF_CACHE_HINT) && i + 1 == in->nops && i > 0) c = 'x';   /* the .L2::cache_hint policy */
    if (!kind_fits(f, &o[i], c)) return "operand kind for the opcode";
  }
  return NULL;
}

/* isa_insn_canonical decodes a spelling: instructions repeat a few
 * hundred spellings, so those already found canonical are remembered (by
 * their decoded fields) and not decoded again. */
typedef struct insn_key {
  uint16_t op, cmp, bop, space, space2, sem, scope, sub, cache, shape_n, shape_k;
  uint8_t ncomps, type, type2, type3, type4, rnd, vec, shape_m;
  uint32_t flags;
  uint16_t comps[ISA_MAX_COMPS];
} insn_key;
#define CANON_SLOTS 1024
typedef struct canon_cache { insn_key key[CANON_SLOTS]; bool used[CANON_SLOTS]; } canon_cache;

static bool canonical(canon_cache *cc, const isa_insn *in) {
  insn_key k;
  memset(&k, 0, sizeof k);
  k.op = in->op; k.cmp = in->cmp; k.bop = in->bop; k.space = in->space; k.space2 = in->space2; k.sem = in->sem;
  k.scope = in->scope; k.sub = in->sub; k.cache = in->cache; k.shape_n = in->shape_n; k.shape_k = in->shape_k;
  k.ncomps = in->ncomps; k.type = in->type; k.type2 = in->type2; k.type3 = in->type3; k.type4 = in->type4;
  k.rnd = in->rnd; k.vec = in->vec; k.shape_m = in->shape_m; k.flags = in->flags;
  for (int i = 0; i < in->ncomps && i < ISA_MAX_COMPS; i++) k.comps[i] = in->comps[i];
  uint32_t h = (uint32_t)(checksum(CHECKSUM_SEED, (const uint8_t *)&k, sizeof k) % CANON_SLOTS);
  if (cc && cc->used[h] && !memcmp(&cc->key[h], &k, sizeof k)) return true;
  if (!isa_insn_canonical(in)) return false;
  if (cc) { cc->key[h] = k; cc->used[h] = true; }
  return true;
}

/* The registers that can take an offset (isa/assemble.c offset_operand). */
static bool offset_reg_type(uint8_t t) {
  return (t >= PTX_T_B8 && t <= PTX_T_B64) || (t >= PTX_T_U8 && t <= PTX_T_U64) || (t >= PTX_T_S8 && t <= PTX_T_S64);
}

static const char *validate(const isa_module *m, canon_cache *cc) {
  for (uint32_t i = 0; i < m->nsyms; i++) { const char *bad = check_sym(&m->syms[i]); if (bad) return bad; }
  for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
    const isa_func *f = &m->funcs[fi];
    if (f->alias_of > m->nfuncs) return "alias";
    if ((f->is_proto && (f->has_body || f->is_entry)) || (!f->has_body && f->ninsns)) return "prototype";
    if ((uint64_t)f->nrets + f->nparams > f->nsyms) return "parameter count";
    for (uint32_t i = 0; i < f->nsyms; i++) { const char *bad = check_sym(&f->syms[i]); if (bad) return bad; }
    if (f->perf.n_maxntid > 3 || f->perf.n_reqntid > 3 || f->perf.n_reqnctapercluster > 3) return "performance directive";
    for (uint32_t i = 0; i < f->nregs; i++) if (f->regtype[i] >= PTX_T_COUNT) return "register type";
    for (uint32_t i = 0; i < f->ninsns; i++) {
      const isa_insn *in = &f->insns[i];
      if (in->op >= OP_COUNT) return "opcode";
      if (in->nops < isa_ops[in->op].nops_min || in->nops > isa_ops[in->op].nops_max) return "operand count";
      if (in->type >= PTX_T_COUNT || in->type2 >= PTX_T_COUNT || in->type3 >= PTX_T_COUNT || in->type4 >= PTX_T_COUNT) return "type";
      if (in->cmp >= MOD_LIMIT || in->bop >= MOD_LIMIT || in->space >= MOD_LIMIT || in->space2 >= MOD_LIMIT ||
          in->sem >= MOD_LIMIT || in->scope >= MOD_LIMIT || in->sub >= MOD_LIMIT || in->cache >= MOD_LIMIT) return "modifier";
      if ((uint64_t)in->opi + in->nops > f->nops) return "operand index";
      if (in->guard >= 0 && ((uint32_t)in->guard >= f->nregs || f->regtype[in->guard] != PTX_T_PRED)) return "guard register";
      if (in->guard < -1 || in->guard_neg > 1) return "guard";
      if (in->loc > f->nlocs) return "source location";
      for (int k = 0; k < in->ncomps; k++) {
        uint16_t c = in->comps[k];
        if (c & ISA_COMP_JOINED) c = (uint16_t)(c & ~ISA_COMP_JOINED);
        if (c >= ISA_COMP_MOD + MOD_LIMIT || (c < ISA_COMP_MOD && c >= PTX_T_COUNT)) return "modifier";
      }
      /* types, modifiers and flags are those of the instruction's spelling:
       * no type an opcode cannot have (a .u32 add of type 0 would shift by 64) */
      if (!canonical(cc, in)) return "instruction modifiers";
    }
    for (uint32_t pass = 0; pass < 2; pass++) {
      const isa_opnd *v = pass ? f->pool : f->ops;
      uint32_t n = pass ? f->npool : f->nops;
      for (uint32_t i = 0; i < n; i++) {
        const isa_opnd *o = &v[i];
        switch (o->kind) {
        case OK_NONE: case OK_IMM: case OK_SINK: break;
        case OK_REG:
          if (o->v >= f->nregs) return "register";
          /* r+imm: a source of an instruction (not a list element), of an integer or bit-size register */
          if ((o->flags & OF_OFFSET) && (pass || o->n || !offset_reg_type(f->regtype[o->v]))) return "register offset";
          break;
        case OK_SREG:
          if (o->v >= SREG_COUNT) return "special register";
          if ((o->flags & OF_OFFSET) && pass) return "register offset";
          break;
        case OK_ADDR: case OK_SYM:
          /* one of: a base register (ADDR only), a symbol, or nothing (an absolute address) */
          if ((o->flags & OF_BASEREG) && ((o->flags & (OF_MODSYM | OF_FUNCSYM)) || o->kind != OK_ADDR)) return "address flags";
          if (o->kind == OK_SYM && !(o->flags & (OF_MODSYM | OF_FUNCSYM))) return "symbol operand";
          if ((o->flags & OF_BASEREG) && o->v >= f->nregs) return "address register";
          if ((o->flags & (OF_MODSYM | OF_FUNCSYM)) == OF_MODSYM && o->v >= m->nsyms) return "symbol";
          if ((o->flags & (OF_MODSYM | OF_FUNCSYM)) == OF_FUNCSYM && o->v >= f->nsyms) return "local symbol";
          if ((o->flags & (OF_MODSYM | OF_FUNCSYM)) == (OF_MODSYM | OF_FUNCSYM) && o->v >= m->nfuncs) return "function";
          break;
        case OK_LABEL: if (o->v > f->ninsns) return "label"; break;
        case OK_FUNC: if (o->v >= m->nfuncs) return "function"; break;
        case OK_TABLE: if (o->v >= f->ntables) return "branch table"; break;
        case OK_ADDRX: case OK_VEC: case OK_LIST: case OK_PAIR:
          if ((uint64_t)o->v + o->n > f->npool) return "operand pool";
          if (o->kind != OK_LIST && !o->n) return "empty vector";
          if (o->kind == OK_ADDRX && f->pool[o->v].kind != OK_ADDR) return "address operand";
          if (pass && o->v <= i) return "operand pool order";   /* lists point forward: no cycles */
          break;
        default: return "operand kind";
        }
        /* what names a symbol or a base register is an address or a symbol
         * operand (a function: its index): code that takes an address
         * reads these flags, whatever the kind */
        uint8_t named = o->flags & (OF_MODSYM | OF_FUNCSYM | OF_BASEREG | OF_GENERIC);
        if (named && o->kind != OK_ADDR && o->kind != OK_SYM && !(o->kind == OK_FUNC && named == OF_FUNCSYM)) return "operand flags";
      }
    }
    /* operands are known well-formed now: what an instruction writes is
     * registers, and each operand is of a kind its opcode takes */
    for (uint32_t i = 0; i < f->ninsns; i++) {
      if (f->insns[i].nops && isa_writes_first(&f->insns[i]) && !isa_dest_writable(&f->ops[f->insns[i].opi], f->pool, f->npool))
        return "destination operand";
      for (uint32_t k = 0; k < f->insns[i].nops; k++)
        if ((f->ops[f->insns[i].opi + k].kind == OK_REG || f->ops[f->insns[i].opi + k].kind == OK_SREG) && (f->ops[f->insns[i].opi + k].flags & OF_OFFSET) &&
            ((k == 0 && isa_writes_first(&f->insns[i])) || k >= ISA_MAX_OFFSET_OPND || isa_ops[f->insns[i].op].family == F_VIDEO))
          return "register offset";
      const char *bad = check_operands(m, f, &f->insns[i]);
      if (bad) return bad;
    }
    for (uint32_t i = 0; i < f->nlabels; i++) if (f->label_pc[i] > f->ninsns) return "label";
    for (uint32_t t = 0; t < f->ntables; t++)
      for (uint32_t k = 0; k < f->tables[t].n; k++)
        if (f->tables[t].calls ? f->tables[t].pcs[k] >= m->nfuncs : f->tables[t].pcs[k] > f->ninsns) return "branch table";
    for (uint32_t i = 0; i < f->nrecs; i++) {
      const isa_rec *r = &f->recs[i];
      if (r->pc > f->ninsns) return "listing";
      if (r->kind == REC_REGS && (uint64_t)r->a + ISA_REGS_SLOTS(r->b) > f->nregs) return "listing registers";
      /* records the listing prints by name carry one */
      if (!r->name && (r->kind == REC_REGS || r->kind == REC_PRAGMA || r->kind == REC_BRANCHTARGETS ||
                       r->kind == REC_CALLTARGETS || r->kind == REC_CALLPROTO)) return "listing name";
      if (r->kind == REC_SYM && r->a >= f->nsyms) return "listing symbol";
      if (r->kind == REC_LABEL && r->a >= f->nlabels) return "listing label";
      if (r->kind == REC_LOC && r->a >= f->nlocs) return "listing location";
      if ((r->kind == REC_BRANCHTARGETS || r->kind == REC_CALLTARGETS) && (r->a >= f->ntables || r->b >= f->nlabels)) return "listing table";
      if (r->kind == REC_CALLPROTO && r->a >= m->nfuncs) return "listing prototype";
      if (r->kind == REC_MSYM && r->a >= m->nsyms) return "listing module symbol";
      if (r->kind > REC_MSYM) return "listing kind";
    }
    for (uint32_t i = 0; i < f->nsyms; i++) if (f->syms[i].nrelocs) return "local relocation";
    /* the assembler's limits (isa/assemble.c): every .param and .local
     * variable lies inside its area, and the areas inside a thread's stack */
    for (uint32_t i = f->nrets; f->is_entry && i < f->nrets + f->nparams; i++)
      if (f->syms[i].size > ISA_MAX_KERNEL_PARAMS || f->syms[i].offset > ISA_MAX_KERNEL_PARAMS - f->syms[i].size)
        return "kernel parameter size";
    for (uint32_t i = 0; i < f->nsyms; i++) {
      const isa_sym *y = &f->syms[i];
      if (i < f->nrets + f->nparams && y->space != PTX_SPACE_PARAM && y->space != PTX_SPACE_REG) return "parameter space";
      if (y->size > ISA_MAX_FRAME_BYTES || y->offset > ISA_MAX_FRAME_BYTES - y->size) return "local symbol size";
      if (y->space == PTX_SPACE_LOCAL && y->offset + y->size > f->local_bytes) return "local symbol offset";
    }
    if (f->local_bytes > ISA_MAX_FRAME_BYTES) return "local frame size";
  }
  for (uint32_t i = 0; i < m->nsyms; i++) {
    const isa_sym *y = &m->syms[i];
    if (y->nrelocs && ((y->type != PTX_T_U32 && y->type != PTX_T_U64) || !y->init ||
                       (y->space != PTX_SPACE_GLOBAL && y->space != PTX_SPACE_CONST))) return "relocation in a variable";
    if (y->size > ISA_MAX_VAR_BYTES) return "variable size";
    for (uint32_t k = 0; k < y->nrelocs; k++) {
      const isa_reloc *r = &y->relocs[k];
      /* computed without overflow: an offset of 2^64-8 is past the end too */
      if (y->size < isa_reloc_bytes(y) || r->offset > y->size - isa_reloc_bytes(y)) return "relocation offset";
      if (r->sym >= m->nsyms && UINT32_MAX - r->sym >= m->nfuncs) return "relocation symbol";
    }
  }
  return NULL;
}

isa_module *isa_read_object_mem(const uint8_t *data, size_t len, char *err, size_t errlen) {
  if (len < 4 || memcmp(data, PXO_MAGIC, 4) != 0) { snprintf(err, errlen, "not a ptxemu object file"); return NULL; }
  if (len < 24) { snprintf(err, errlen, "truncated object file: %zu bytes, the header alone is 24", len); return NULL; }
  uint32_t ver = 0;
  uint64_t plen = 0, sum = 0;
  for (int i = 0; i < 4; i++) ver |= (uint32_t)data[4 + i] << (8 * i);
  for (int i = 0; i < 8; i++) { plen |= (uint64_t)data[8 + i] << (8 * i); sum |= (uint64_t)data[16 + i] << (8 * i); }
  if (ver != PXO_VERSION) { snprintf(err, errlen, "object file format %u, this ptxemu reads %u", ver, PXO_VERSION); return NULL; }
  if (plen > len - 24) { snprintf(err, errlen, "truncated object file: the header gives %llu payload bytes, the file holds %llu", (unsigned long long)plen, (unsigned long long)(len - 24)); return NULL; }
  if (plen < len - 24) { snprintf(err, errlen, "corrupt object file: %llu bytes after the %llu-byte payload", (unsigned long long)(len - 24 - plen), (unsigned long long)plen); return NULL; }
  if (checksum(CHECKSUM_SEED, data + 24, plen) != sum) { snprintf(err, errlen, "corrupt object file: checksum mismatch"); return NULL; }
  isa_module *m = calloc(1, sizeof *m);
  if (!m) { snprintf(err, errlen, "out of memory"); return NULL; }
  m->arena = arena_new();
  ser s = { .reading = true, .buf = (uint8_t *)data + 24, .len = plen, .arena = m->arena, .err = err, .errlen = errlen };
  ser_module(&s, m);
  if (!s.failed && s.pos != s.len) fail(&s, "trailing bytes");
  canon_cache *cc = s.failed ? NULL : calloc(1, sizeof *cc);     /* without it, every instruction is decoded */
  const char *bad = s.failed ? NULL : validate(m, cc);
  free(cc);
  if (bad) { snprintf(err, errlen, "corrupt object file: bad %s", bad); s.failed = true; }
  if (s.failed) { isa_module_free(m); return NULL; }
  return m;
}

isa_module *isa_read_object(const char *path, char *err, size_t errlen) {
  size_t len;
  char *data = ptx_read_file(path, &len);
  if (!data) { snprintf(err, errlen, "cannot read '%s'", path); return NULL; }
  isa_module *m = isa_read_object_mem((const uint8_t *)data, len, err, errlen);
  free(data);
  return m;
}
