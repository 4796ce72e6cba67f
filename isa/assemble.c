/* isa/assemble.c - from a parsed module (ptx/ast.h) to the encoded module
 * (isa.h): binds names to registers, symbols, labels and functions, checks
 * every instruction against the opcode table, and lays out memory.
 *
 * Checks report and continue, so one run lists every error of a file. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "isa/isa.h"
#include "util/ptrmap.h"
#include "util/strtab.h"
#include "util/vec.h"

typedef struct undo { const void *key; uint32_t old; uint8_t which; } undo;
typedef struct range { uint32_t first, count; } range;

typedef struct actx {
  const ptx_module *pm;
  isa_module *m;
  ptx_diag *diag;
  strtab *names;                   /* the parser's interned names              */
  ptrmap modsyms;                  /* name -> module symbol index              */
  ptrmap funcs;                    /* name -> function index                   */
  ptrmap opcache;                  /* interned opname -> template index        */
  VEC(isa_insn) templates;
  VEC(uint8_t) template_ok;
  /* per function */
  isa_func *f;
  ptrmap regs;                     /* name -> slot (scoped)                    */
  ptrmap ranges;                   /* prefix -> range index (scoped)           */
  ptrmap fsyms;                    /* name -> function symbol (scoped)         */
  ptrmap labels;                   /* name -> label index                      */
  ptrmap protos;                   /* callprototype label -> func index        */
  VEC(undo) undos;
  VEC(uint32_t) scope_marks;
  VEC(range) rangev;
  VEC(isa_insn) insns;
  VEC(isa_opnd) ops;
  VEC(isa_opnd) pool;
  VEC(uint8_t) regtype;
  VEC(const char *) regname;
  VEC(isa_sym) syms;
  VEC(isa_rec) recs;
  VEC(isa_locinfo) locs;
  VEC(isa_table) tables;
  VEC(const char *) labelnames;
  VEC(uint32_t) labelpc;
  uint64_t local_frame, param_frame;
} actx;

static void err(actx *c, ptx_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void err(actx *c, ptx_loc loc, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  ptx_error(c->diag, loc, "%s", buf);
}

static void *arena_copy(actx *c, const void *src, size_t bytes) {
  void *p = arena_alloc(c->m->arena, bytes ? bytes : 1);
  if (bytes) memcpy(p, src, bytes);
  return p;
}

/* ---- sizes -------------------------------------------------------------- */

static uint64_t elem_bytes(const ptx_decl *d) {
  int bits = ptx_type_bits((enum ptx_type)d->type);
  uint64_t b = bits <= 8 ? 1 : (uint64_t)bits / 8;
  return b * (d->vec ? d->vec : 1);
}

static uint64_t decl_count(const ptx_decl *d) {
  uint64_t n = 1;
  for (int i = 0; i < d->ndims; i++) n *= d->dims[i];
  return n;
}

/* ---- initialisers -------------------------------------------------------- */

static void put_scalar(uint8_t *dst, uint64_t bytes, uint64_t v) {
  for (uint64_t i = 0; i < bytes && i < 8; i++) dst[i] = (uint8_t)(v >> (8 * i));
}

typedef struct initw { actx *c; isa_sym *s; const ptx_decl *d; uint64_t pos, ebytes; VEC(isa_reloc) relocs; } initw;

static void init_leaf(initw *w, const ptx_opnd *o) {
  actx *c = w->c;
  uint64_t eb = ptx_type_bits((enum ptx_type)w->d->type) <= 8 ? 1 : (uint64_t)ptx_type_bits((enum ptx_type)w->d->type) / 8;
  if (w->pos + eb > w->s->size) { err(c, o->loc, "too many initialisers for '%s'", w->d->name); w->pos += eb; return; }
  uint8_t *dst = w->s->init + w->pos;
  enum ptx_type t = (enum ptx_type)w->d->type;
  if (o->kind == PO_SYM) {
    uint32_t si = ptrmap_get(&c->modsyms, o->name);
    uint32_t fi = ptrmap_get(&c->funcs, o->name);
    if (si == PTRMAP_ABSENT && fi == PTRMAP_ABSENT) err(c, o->loc, "undeclared identifier '%s'", o->name);
    else {
      isa_reloc r = { w->pos, si != PTRMAP_ABSENT ? si : c->m->funcs[fi].nrets /*unused*/, o->generic, o->ival };
      if (si == PTRMAP_ABSENT) { r.sym = UINT32_MAX - fi; }   /* function address */
      VEC_PUSH(w->relocs, r);
    }
  } else if (o->kind == PO_INT) {
    uint64_t v = (uint64_t)o->ival;
    if (t == PTX_T_F32) { float f = (float)o->ival; uint32_t b; memcpy(&b, &f, 4); v = b; }
    else if (t == PTX_T_F64) { double f = (double)o->ival; memcpy(&v, &f, 8); }
    put_scalar(dst, eb, v);
  } else if (o->kind == PO_F32 || o->kind == PO_F64) {
    uint64_t v = (uint64_t)o->ival;
    if (t == PTX_T_F32 && o->kind == PO_F64) { double d; memcpy(&d, &v, 8); float f = (float)d; uint32_t b; memcpy(&b, &f, 4); v = b; }
    else if (t == PTX_T_F64 && o->kind == PO_F32) { uint32_t b = (uint32_t)v; float f; memcpy(&f, &b, 4); double d = f; memcpy(&v, &d, 8); }
    put_scalar(dst, eb, v);
  } else err(c, o->loc, "invalid initialiser");
  w->pos += eb;
}

static void init_walk(initw *w, const ptx_init *in) {
  if (!in->is_list) { init_leaf(w, &in->u.scalar); return; }
  for (uint32_t i = 0; i < in->n; i++) init_walk(w, &in->u.items[i]);
}

static void fill_sym(actx *c, isa_sym *s, const ptx_decl *d) {
  s->name = d->name;
  s->space = d->space;
  s->type = d->type;
  s->vec = d->vec;
  s->linkage = d->linkage;
  s->dim_open = d->dim_open;
  s->is_ptr = d->is_ptr;
  s->ptr_space = d->ptr_space;
  s->ptr_align = d->ptr_align;
  s->line = d->loc.line;
  s->ndims = d->ndims;
  memcpy(s->dims, d->dims, sizeof s->dims);
  uint64_t eb = elem_bytes(d);
  s->size = eb * decl_count(d);
  s->align = d->align ? d->align : (uint32_t)eb;
  if (s->align & (s->align - 1)) { err(c, d->loc, "alignment %u of '%s' is not a power of two", s->align, d->name); s->align = 1; }
  if (d->init) {
    if (d->space != PTX_SPACE_GLOBAL && d->space != PTX_SPACE_CONST)
      err(c, d->loc, "only .global and .const variables can be initialised");
    if (d->dim_open && d->init->is_list) {        /* x[] = {...}: size from the initialiser */
      uint64_t n = 0;
      const ptx_init *in = d->init;
      if (in->is_list) n = in->n;
      uint64_t inner = 1;
      for (int i = 1; i < d->ndims; i++) inner *= d->dims[i];
      s->size = eb * n * inner;
      s->dims[0] = n;
      s->dim_open = 0;
    }
    s->init = arena_alloc(c->m->arena, s->size ? s->size : 1);
    initw w = { .c = c, .s = s, .d = d };
    init_walk(&w, d->init);
    if (w.relocs.n) {
      s->relocs = arena_copy(c, w.relocs.v, w.relocs.n * sizeof *w.relocs.v);
      s->nrelocs = w.relocs.n;
    }
    VEC_FREE(w.relocs);
  }
}

/* ---- scopes --------------------------------------------------------------- */

enum { W_REG, W_RANGE, W_FSYM };

static void scoped_put(actx *c, int which, const void *key, uint32_t val) {
  ptrmap *m = which == W_REG ? &c->regs : which == W_RANGE ? &c->ranges : &c->fsyms;
  uint32_t old = ptrmap_put(m, key, val);
  undo u = { key, old, (uint8_t)which };
  VEC_PUSH(c->undos, u);
}

static void scope_open(actx *c) { VEC_PUSH(c->scope_marks, c->undos.n); }

static void scope_close(actx *c) {
  if (!c->scope_marks.n) return;
  uint32_t mark = c->scope_marks.v[--c->scope_marks.n];
  while (c->undos.n > mark) {
    undo u = c->undos.v[--c->undos.n];
    ptrmap *m = u.which == W_REG ? &c->regs : u.which == W_RANGE ? &c->ranges : &c->fsyms;
    ptrmap_put(m, u.key, u.old);
  }
}

static bool in_current_scope(actx *c, int which, const void *key) {
  uint32_t mark = c->scope_marks.n ? c->scope_marks.v[c->scope_marks.n - 1] : 0;
  for (uint32_t i = mark; i < c->undos.n; i++)
    if (c->undos.v[i].key == key && c->undos.v[i].which == which) return true;
  return false;
}

static void rec(actx *c, int kind, uint32_t a, uint32_t b, uint32_t line, const char *name) {
  isa_rec r = { (uint8_t)kind, c->insns.n, a, b, line, name };
  VEC_PUSH(c->recs, r);
}

/* ---- declarations inside functions ----------------------------------------- */

static uint32_t new_reg(actx *c, const char *name, uint8_t type) {
  uint32_t slot = c->regtype.n;
  VEC_PUSH(c->regtype, type);
  VEC_PUSH(c->regname, name);
  return slot;
}

static void declare_regs(actx *c, const ptx_decl *d) {
  if (ptrmap_get(&c->regs, d->name) != PTRMAP_ABSENT && in_current_scope(c, W_REG, d->name)) {
    err(c, d->loc, "redeclaration of '%s'", d->name);
    return;
  }
  if (ptrmap_get(&c->ranges, d->name) != PTRMAP_ABSENT && in_current_scope(c, W_RANGE, d->name) && d->has_range) {
    err(c, d->loc, "redeclaration of '%s'", d->name);
    return;
  }
  uint32_t n = d->vec > 1 ? 1 : 1;
  (void)n;
  if (d->has_range) {
    if (d->range > (1u << 24)) { err(c, d->loc, "register range %%%u too large", d->range); return; }
    range r = { c->regtype.n, d->range };
    for (uint32_t i = 0; i < d->range; i++) new_reg(c, d->name, d->type);
    scoped_put(c, W_RANGE, d->name, c->rangev.n);
    VEC_PUSH(c->rangev, r);
    rec(c, REC_REGS, r.first, d->range, d->loc.line, d->name);
    c->recs.v[c->recs.n - 1].b |= 0x80000000u;   /* marks a %r<N> range */
  } else {
    uint32_t slot = new_reg(c, d->name, d->type);
    if (d->vec > 1) {             /* .reg .v4 .f32 %v: consecutive slots for .x .y .z .w */
      for (uint32_t i = 1; i < d->vec; i++) new_reg(c, d->name, d->type);
    }
    scoped_put(c, W_REG, d->name, slot);
    rec(c, REC_REGS, slot, d->vec > 1 ? d->vec : 1, d->loc.line, d->name);
  }
}

static uint64_t align_up(uint64_t x, uint64_t a) { return a ? (x + a - 1) / a * a : x; }

static uint32_t declare_fsym(actx *c, const ptx_decl *d, uint64_t *frame) {
  if (ptrmap_get(&c->fsyms, d->name) != PTRMAP_ABSENT && in_current_scope(c, W_FSYM, d->name)) {
    err(c, d->loc, "redeclaration of '%s'", d->name);
    return PTRMAP_ABSENT;
  }
  isa_sym s;
  memset(&s, 0, sizeof s);
  fill_sym(c, &s, d);
  if (frame) {
    s.offset = align_up(*frame, s.align);
    *frame = s.offset + s.size;
  }
  uint32_t idx = c->syms.n;
  VEC_PUSH(c->syms, s);
  scoped_put(c, W_FSYM, d->name, idx);
  return idx;
}

/* ---- operands ------------------------------------------------------------- */

static int sreg_of(const char *name, size_t n) {
  for (int i = 0; i < SREG_COUNT; i++)
    if (strncmp(isa_sreg_names[i], name, n) == 0 && isa_sreg_names[i][n] == 0) return i;
  if (n > 7 && strncmp(name, "%envreg", 7) == 0) return SREG_ENVREG;
  return -1;
}

static uint16_t component_of(const char *s) {
  static const char *const comps[] = { "", "x", "y", "z", "w", "b0", "b1", "b2", "b3", "h0", "h1", "r", "g", "b", "a" };
  for (uint16_t i = 1; i < sizeof comps / sizeof comps[0]; i++)
    if (strcmp(comps[i], s) == 0) return i <= 10 ? i : (uint16_t)(i - 10);
  return 0;
}

/* Register slot for a name (exact, or prefix+index of a %r<N> range). */
static uint32_t find_reg(actx *c, const char *name) {
  uint32_t slot = ptrmap_get(&c->regs, name);
  if (slot != PTRMAP_ABSENT) return slot;
  size_t n = strlen(name), k = n;
  while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9') k--;
  if (k == n || k == 0) return PTRMAP_ABSENT;
  if (n - k > 1 && name[k] == '0') return PTRMAP_ABSENT;   /* %r01 is not %r1 */
  const char *prefix = strtab_intern(c->names, name, k);
  uint32_t ri = ptrmap_get(&c->ranges, prefix);
  if (ri == PTRMAP_ABSENT) return PTRMAP_ABSENT;
  uint64_t idx = strtoull(name + k, NULL, 10);
  if (idx >= c->rangev.v[ri].count) return PTRMAP_ABSENT;
  return c->rangev.v[ri].first + (uint32_t)idx;
}

enum role { R_ANY, R_LABEL, R_CALL };

/* Resolve a name operand: register, special register, symbol, label, function. */
static int resolve_name(actx *c, const ptx_opnd *o, isa_opnd *out, int role) {
  const char *name = o->name;
  memset(out, 0, sizeof *out);
  uint32_t slot = find_reg(c, name);
  if (slot != PTRMAP_ABSENT) { out->kind = OK_REG; out->v = slot; return 0; }
  const char *dot = strchr(name, '.');
  if (dot) {
    const char *base = strtab_intern(c->names, name, (size_t)(dot - name));
    uint16_t comp = component_of(dot + 1);
    slot = find_reg(c, base);
    if (slot != PTRMAP_ABSENT && comp) {
      out->kind = OK_REG; out->v = slot; out->n = comp;
      if (comp >= 1 && comp <= 4 && c->regtype.v[slot] && slot + comp - 1 < c->regtype.n &&
          c->regname.v[slot + comp - 1] == c->regname.v[slot] && comp > 1) {
        out->v = slot + comp - 1;  /* component of a .v4 register */
        out->n = 0;
      }
      return 0;
    }
    int sr = sreg_of(name, (size_t)(dot - name));
    if (sr >= 0 && comp >= 1 && comp <= 3) { out->kind = OK_SREG; out->v = (uint32_t)sr; out->n = comp; return 0; }
  } else {
    int sr = sreg_of(name, strlen(name));
    if (sr >= 0) {
      out->kind = OK_SREG; out->v = (uint32_t)sr;
      if (sr == SREG_ENVREG) out->n = (uint16_t)atoi(name + 7);
      return 0;
    }
  }
  uint32_t fs = ptrmap_get(&c->fsyms, name);
  if (fs != PTRMAP_ABSENT) { out->kind = OK_SYM; out->flags = OF_FUNCSYM; out->v = fs; out->imm = o->ival; return 0; }
  uint32_t lb = ptrmap_get(&c->labels, name);
  if (lb != PTRMAP_ABSENT && role != R_CALL) { out->kind = OK_LABEL; out->v = lb; return 0; }
  uint32_t ms = ptrmap_get(&c->modsyms, name);
  if (ms != PTRMAP_ABSENT) { out->kind = OK_SYM; out->flags = OF_MODSYM; out->v = ms; out->imm = o->ival; return 0; }
  uint32_t fi = ptrmap_get(&c->funcs, name);
  if (fi != PTRMAP_ABSENT) { out->kind = OK_FUNC; out->v = fi; return 0; }
  if (strcmp(name, "WARP_SZ") == 0) { out->kind = OK_IMM; out->imm = 32; return 0; }   /* predefined constant */
  uint32_t pr = ptrmap_get(&c->protos, name);
  if (pr != PTRMAP_ABSENT) { out->kind = OK_FUNC; out->v = pr; out->flags = OF_FUNCSYM; return 0; }
  if (role == R_LABEL) err(c, o->loc, "undefined label '%s'", name);
  else if (role == R_CALL) err(c, o->loc, "undefined function '%s'", name);
  else if (name[0] == '%') err(c, o->loc, "undeclared register '%s'", name);
  else err(c, o->loc, "undeclared identifier '%s'", name);
  return -1;
}

static int encode(actx *c, const ptx_opnd *o, isa_opnd *out, int role);

static uint32_t encode_list(actx *c, const ptx_opnd *subs, uint32_t n, int role) {
  uint32_t first = c->pool.n;
  for (uint32_t i = 0; i < n; i++) { isa_opnd z = {0}; VEC_PUSH(c->pool, z); }
  for (uint32_t i = 0; i < n; i++) {
    isa_opnd e;
    if (encode(c, &subs[i], &e, role) == 0) c->pool.v[first + i] = e;
  }
  return first;
}

static int encode(actx *c, const ptx_opnd *o, isa_opnd *out, int role) {
  memset(out, 0, sizeof *out);
  switch (o->kind) {
  case PO_REG: case PO_SYM:
    if (resolve_name(c, o, out, role)) return -1;
    if (o->neg) out->flags |= OF_NEG;
    return 0;
  case PO_INT: out->kind = OK_IMM; out->imm = o->ival; if (o->is_unsigned) out->flags |= OF_UNSIGNED; return 0;
  case PO_F32: out->kind = OK_IMM; out->flags = OF_F32; out->imm = o->ival; return 0;
  case PO_F64: out->kind = OK_IMM; out->flags = OF_F64; out->imm = o->ival; return 0;
  case PO_SINK: out->kind = OK_SINK; return 0;
  case PO_ADDR: {
    isa_opnd base;
    const ptx_opnd *b = &o->sub[0];
    memset(&base, 0, sizeof base);
    base.kind = OK_ADDR;
    if (b->kind == PO_INT) base.imm = b->ival;
    else {
      isa_opnd r;
      if (resolve_name(c, b, &r, R_ANY)) return -1;
      if (r.kind == OK_REG) { base.flags = OF_BASEREG; base.v = r.v; base.imm = b->ival; }
      else if (r.kind == OK_SYM) { base.flags = r.flags; base.v = r.v; base.imm = b->ival; }
      else if (r.kind == OK_FUNC) { base.flags = OF_MODSYM | OF_FUNCSYM; base.v = r.v; }
      else if (r.kind == OK_SREG) { err(c, b->loc, "special register '%s' cannot be an address", b->name); return -1; }
      else { err(c, b->loc, "'%s' cannot be an address", b->name); return -1; }
    }
    if (o->nsub == 1) { *out = base; return 0; }
    uint32_t first = c->pool.n;
    VEC_PUSH(c->pool, base);
    for (uint32_t i = 1; i < o->nsub; i++) { isa_opnd z = {0}; VEC_PUSH(c->pool, z); }
    for (uint32_t i = 1; i < o->nsub; i++) {
      isa_opnd e;
      if (encode(c, &o->sub[i], &e, R_ANY) == 0) c->pool.v[first + i] = e;
    }
    out->kind = OK_ADDRX; out->v = first; out->n = o->nsub;
    return 0;
  }
  case PO_VEC: case PO_LIST: case PO_PAIR:
    out->kind = o->kind == PO_VEC ? OK_VEC : o->kind == PO_LIST ? OK_LIST : OK_PAIR;
    out->n = o->nsub;
    out->v = encode_list(c, o->sub, o->nsub, role == R_CALL ? R_ANY : role);
    return 0;
  }
  return -1;
}

/* ---- checks against the table ----------------------------------------------- */

static int reg_bits(actx *c, uint32_t slot) { return ptx_type_bits((enum ptx_type)c->regtype.v[slot]); }

static const char *opname_of(const isa_insn *in) { return isa_ops[in->op].name; }

/* Spelling of a register for messages: range members print as prefix+index. */
static const char *reg_display(actx *c, uint32_t slot) {
  static char buf[300];
  for (uint32_t i = 0; i < c->rangev.n; i++)
    if (slot >= c->rangev.v[i].first && slot < c->rangev.v[i].first + c->rangev.v[i].count) {
      snprintf(buf, sizeof buf, "%s%u", c->regname.v[slot], slot - c->rangev.v[i].first);
      return buf;
    }
  return c->regname.v[slot];
}

static void check_reg(actx *c, const isa_insn *in, const isa_opnd *e, const ptx_opnd *o, int need, bool at_least) {
  if (e->kind != OK_REG || e->n || need <= 1) return;
  int have = reg_bits(c, e->v);
  if (have == 1 && need > 1) {
    err(c, o->loc, "register '%s' is .pred, '%s' needs a %d-bit register", reg_display(c, e->v), opname_of(in), need);
    return;
  }
  if (at_least ? have < need : have != need)
    err(c, o->loc, "register '%s' is .%s, '%s' needs a %d-bit register", reg_display(c, e->v),
        ptx_type_names[c->regtype.v[e->v]], opname_of(in), need);
}

static void check_imm(actx *c, const isa_opnd *e, const ptx_opnd *o, enum ptx_type t) {
  if (e->kind != OK_IMM || (e->flags & (OF_F32 | OF_F64))) return;
  int bits = ptx_type_bits(t);
  if (bits >= 64 || bits <= 1) return;
  if (t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F32 || t == PTX_T_F64) return;
  int64_t v = e->imm;
  int64_t lo = -((int64_t)1 << (bits - 1)), hi = (int64_t)((1ull << bits) - 1);
  if (v < lo || v > hi)
    err(c, o->loc, "immediate value %lld out of range for .%s", (long long)v, ptx_type_names[t]);
}

static bool is_float_type(int t) { return t == PTX_T_F32 || t == PTX_T_F64; }

/* Literals take the width of the instruction type: 1.5 in an f32 op is the
 * f32 pattern, an integer literal in a float op is that number as float. */
static void normalise_imm(isa_opnd *e, int t) {
  if (e->kind != OK_IMM) return;
  if (t == PTX_T_F32) {
    if (e->flags & OF_F64) { double d; uint64_t b = (uint64_t)e->imm; memcpy(&d, &b, 8); float f = (float)d; uint32_t x; memcpy(&x, &f, 4); e->imm = x; }
    else if (!(e->flags & OF_F32)) { float f = (float)e->imm; uint32_t x; memcpy(&x, &f, 4); e->imm = x; }
  } else if (t == PTX_T_F64) {
    if (e->flags & OF_F32) { uint32_t x = (uint32_t)e->imm; float f; memcpy(&f, &x, 4); double d = f; memcpy(&e->imm, &d, 8); }
    else if (!(e->flags & OF_F64)) { double d = (double)e->imm; memcpy(&e->imm, &d, 8); }
  }
}

static void check_operand(actx *c, isa_insn *in, int i, isa_opnd *e, const ptx_opnd *o, char sig) {
  const char *name = opname_of(in);
  int t1 = in->type, t2 = in->type2 ? in->type2 : in->type;
  int bits = ptx_type_bits((enum ptx_type)t1);
  switch (sig) {
  case 'd': case 'D': case 'w':
    if (e->kind == OK_VEC || e->kind == OK_PAIR || e->kind == OK_SINK) return;
    if (e->kind != OK_REG) { err(c, o->loc, "operand %d of '%s' must be a register", i + 1, name); return; }
    if (t1 == PTX_T_PRED && reg_bits(c, e->v) != 1) { err(c, o->loc, "operand %d of '%s' must be a predicate", i + 1, name); return; }
    check_reg(c, in, e, o, sig == 'D' ? bits * 2 : bits, sig == 'w');
    return;
  case 'a': case 'A':
    if (e->kind == OK_IMM) { normalise_imm(e, t1); check_imm(c, e, o, (enum ptx_type)t1); return; }
    if (t1 == PTX_T_PRED && e->kind == OK_REG && reg_bits(c, e->v) != 1) { err(c, o->loc, "operand %d of '%s' must be a predicate", i + 1, name); return; }
    if (e->kind == OK_REG) check_reg(c, in, e, o, sig == 'A' ? bits * 2 : bits, false);
    return;
  case 'b':
    if (e->kind == OK_IMM) { normalise_imm(e, t2); check_imm(c, e, o, (enum ptx_type)t2); return; }
    if (e->kind == OK_REG) check_reg(c, in, e, o, ptx_type_bits((enum ptx_type)t2), true);
    return;
  case 'u':
    if (e->kind == OK_IMM) { check_imm(c, e, o, PTX_T_U32); return; }
    if (e->kind == OK_REG && reg_bits(c, e->v) == 1) err(c, o->loc, "operand %d of '%s' must be a register", i + 1, name);
    return;
  case 'p':
    if (e->kind == OK_PAIR || e->kind == OK_SINK) return;
    if (e->kind != OK_REG || reg_bits(c, e->v) != 1) err(c, o->loc, "operand %d of '%s' must be a predicate", i + 1, name);
    return;
  case 'q':
    if (e->kind == OK_IMM) return;
    if (e->kind != OK_REG || reg_bits(c, e->v) != 1) err(c, o->loc, "operand %d of '%s' must be a predicate", i + 1, name);
    return;
  case 'm':
    if (e->kind != OK_ADDR && e->kind != OK_ADDRX) err(c, o->loc, "operand %d of '%s' must be an address", i + 1, name);
    return;
  case 'v':
    if (e->kind == OK_IMM) { normalise_imm(e, t1); check_imm(c, e, o, (enum ptx_type)t1); }
    return;
  default:
    if (e->kind == OK_IMM && is_float_type(t1) && (in->op == OP_FMA)) normalise_imm(e, t1);
    return;
  }
}

/* ---- instructions ------------------------------------------------------------- */

static int template_for(actx *c, const ptx_insn *pi, ptx_loc loc, isa_insn *out) {
  uint32_t ti = ptrmap_get(&c->opcache, pi->opname);
  if (ti == PTRMAP_ABSENT) {
    isa_insn t;
    char msg[256];
    uint8_t ok = isa_decode_opname(pi->opname, &t, msg, sizeof msg) == 0;
    if (!ok) err(c, loc, "%s", msg);
    else {
      const isa_opinfo *oi = &isa_ops[t.op];
      uint32_t sm = c->m->sm;
      if (oi->min_sm > sm)
        err(c, loc, "'%s' requires sm_%u or higher (module targets sm_%u)", oi->name, oi->min_sm, sm), ok = 0;
      else if ((t.op == OP_WGMMA_MMA_ASYNC || t.op == OP_WGMMA_FENCE || t.op == OP_WGMMA_COMMIT_GROUP ||
                t.op == OP_WGMMA_WAIT_GROUP || t.op == OP_SETMAXNREG) && c->m->sm_suffix != 'a')
        err(c, loc, "'%s' requires sm_%ua (module targets sm_%u%s)", oi->name, sm < 90 ? 90 : sm, sm,
            c->m->sm_suffix == 'f' ? "f" : ""), ok = 0;
      else if (oi->min_ptx > c->m->version)
        err(c, loc, "'%s' requires PTX ISA %u.%u or higher (module is %u.%u)", oi->name, oi->min_ptx / 10,
            oi->min_ptx % 10, c->m->version / 10, c->m->version % 10), ok = 0;
    }
    ti = c->templates.n;
    VEC_PUSH(c->templates, t);
    VEC_PUSH(c->template_ok, ok);
    ptrmap_put(&c->opcache, pi->opname, ti);
  }
  if (!c->template_ok.v[ti]) return -1;
  *out = c->templates.v[ti];
  return 0;
}

static void assemble_insn(actx *c, const ptx_stmt *st, uint32_t cur_loc) {
  const ptx_insn *pi = &st->u.insn;
  isa_insn in;
  if (template_for(c, pi, st->loc, &in)) return;
  const isa_opinfo *oi = &isa_ops[in.op];
  in.line = st->loc.line;
  in.col = (uint16_t)(st->loc.col > 65535 ? 65535 : st->loc.col);
  in.loc = cur_loc;
  if (pi->guard) {
    ptx_opnd g = { .kind = PO_REG, .loc = pi->guard_loc, .name = pi->guard };
    isa_opnd e;
    if (resolve_name(c, &g, &e, R_ANY) == 0) {
      if (e.kind != OK_REG || reg_bits(c, e.v) != 1) err(c, pi->guard_loc, "guard '%s' must be a predicate", pi->guard);
      in.guard = (int32_t)e.v;
      in.guard_neg = pi->guard_neg;
    }
  }
  if (pi->nops < oi->nops_min || pi->nops > oi->nops_max) {
    err(c, st->loc, "'%s' expects %u operands, got %u", oi->name,
        pi->nops < oi->nops_min ? oi->nops_min : oi->nops_max, pi->nops);
    return;
  }
  in.nops = (uint8_t)pi->nops;
  in.opi = c->ops.n;
  size_t siglen = strlen(oi->sig);
  for (uint32_t i = 0; i < pi->nops; i++) {
    int role = R_ANY;
    char sig = i < siglen ? oi->sig[i] : 'x';
    if (sig == 'l') role = R_LABEL;
    if (in.op == OP_CALL) {
      /* call [(rets),] target [, (args)] [, proto|table] */
      uint32_t ti = pi->ops[0].kind == PO_LIST ? 1 : 0;
      if (i == ti) role = R_CALL;
      if (i > ti && pi->ops[i].kind != PO_LIST) role = R_LABEL;
    }
    isa_opnd e;
    if (encode(c, &pi->ops[i], &e, role)) { isa_opnd z = {0}; VEC_PUSH(c->ops, z); continue; }
    if (role == R_LABEL && e.kind != OK_LABEL && e.kind != OK_FUNC && !(in.op == OP_CALL && e.kind == OK_REG))
      err(c, pi->ops[i].loc, "undefined label '%s'", pi->ops[i].name ? pi->ops[i].name : "?");
    if (role == R_CALL && e.kind != OK_FUNC && e.kind != OK_REG)
      err(c, pi->ops[i].loc, "undefined function '%s'", pi->ops[i].name ? pi->ops[i].name : "?");
    check_operand(c, &in, (int)i, &e, &pi->ops[i], sig);
    VEC_PUSH(c->ops, e);
  }
  VEC_PUSH(c->insns, in);
}

/* ---- functions -------------------------------------------------------------- */

static void declare_params(actx *c, isa_func *f, const ptx_func *pf) {
  uint64_t frame = 0;
  for (uint32_t i = 0; i < pf->nrets; i++) declare_fsym(c, &pf->rets[i], &frame);
  frame = 0;
  for (uint32_t i = 0; i < pf->nparams; i++) {
    const ptx_decl *d = &pf->params[i];
    if (d->space == PTX_SPACE_REG) { declare_regs(c, d); VEC_PUSH(c->syms, ((isa_sym){ .name = d->name, .space = PTX_SPACE_REG, .type = d->type, .size = elem_bytes(d) })); continue; }
    declare_fsym(c, d, &frame);
  }
  f->nrets = pf->nrets;
  f->nparams = pf->nparams;
}

static void reset_func(actx *c) {
  ptrmap_clear(&c->regs); ptrmap_clear(&c->ranges); ptrmap_clear(&c->fsyms);
  ptrmap_clear(&c->labels); ptrmap_clear(&c->protos);
  c->undos.n = c->scope_marks.n = c->rangev.n = 0;
  c->insns.n = c->ops.n = c->pool.n = c->regtype.n = c->regname.n = 0;
  c->syms.n = c->recs.n = c->locs.n = c->tables.n = c->labelnames.n = c->labelpc.n = 0;
  c->local_frame = c->param_frame = 0;
}

#define FINISH(field, vec) do { f->field = arena_copy(c, c->vec.v, c->vec.n * sizeof *c->vec.v); } while (0)

static void assemble_func(actx *c, isa_func *f, const ptx_func *pf) {
  reset_func(c);
  c->f = f;
  f->name = pf->name;
  f->is_entry = pf->is_entry;
  f->has_body = pf->has_body;
  f->linkage = pf->linkage;
  f->line = pf->loc.line;
  f->perf = pf->perf;
  f->npragmas = pf->npragmas;
  f->pragmas = pf->pragmas;
  declare_params(c, f, pf);
  /* labels first: branches may jump forward */
  uint32_t pc = 0;
  for (uint32_t i = 0; i < pf->nstmts; i++) {
    const ptx_stmt *st = &pf->stmts[i];
    if (st->kind == PS_INSN) pc++;
    else if (st->kind == PS_LABEL || st->kind == PS_BRANCHTARGETS || st->kind == PS_CALLTARGETS || st->kind == PS_CALLPROTO) {
      const char *name = st->kind == PS_LABEL ? st->u.label : st->kind == PS_CALLPROTO ? st->u.proto.label : st->u.targets.label;
      if (ptrmap_get(&c->labels, name) != PTRMAP_ABSENT || ptrmap_get(&c->protos, name) != PTRMAP_ABSENT) {
        err(c, st->loc, "redeclaration of '%s'", name);
        continue;
      }
      if (st->kind == PS_CALLPROTO) {
        /* a prototype is a bodiless function of the module, found by its label */
        uint32_t fi = c->m->nfuncs++;
        isa_func *nf = realloc(c->m->funcs, c->m->nfuncs * sizeof *c->m->funcs);
        if (!nf) { fputs("ptxemu: out of memory\n", stderr); exit(70); }
        c->m->funcs = nf;              /* f is the caller's scratch copy, not in this array */
        ptrmap_put(&c->protos, name, fi);
        isa_func *pfn = &c->m->funcs[fi];
        memset(pfn, 0, sizeof *pfn);
        pfn->name = name;
        pfn->is_proto = true;
        pfn->line = st->loc.line;
        pfn->nrets = st->u.proto.proto->nrets;
        pfn->nparams = st->u.proto.proto->nparams;
        isa_sym *ps = arena_alloc(c->m->arena, (pfn->nrets + pfn->nparams + 1) * sizeof *ps);
        for (uint32_t k = 0; k < pfn->nrets; k++) fill_sym(c, &ps[k], &st->u.proto.proto->rets[k]);
        for (uint32_t k = 0; k < pfn->nparams; k++) fill_sym(c, &ps[pfn->nrets + k], &st->u.proto.proto->params[k]);
        pfn->syms = ps;
        pfn->nsyms = pfn->nrets + pfn->nparams;
        continue;
      }
      ptrmap_put(&c->labels, name, c->labelnames.n);
      VEC_PUSH(c->labelnames, name);
      VEC_PUSH(c->labelpc, pc);
    }
  }
  uint32_t cur_loc = 0;
  for (uint32_t i = 0; i < pf->nstmts; i++) {
    const ptx_stmt *st = &pf->stmts[i];
    switch (st->kind) {
    case PS_INSN: assemble_insn(c, st, cur_loc); break;
    case PS_LABEL: {
      uint32_t lb = ptrmap_get(&c->labels, st->u.label);
      if (lb != PTRMAP_ABSENT) rec(c, REC_LABEL, lb, 0, st->loc.line, st->u.label);
      break;
    }
    case PS_DECL: {
      const ptx_decl *d = st->u.decl;
      if (d->space == PTX_SPACE_REG) declare_regs(c, d);
      else {
        uint64_t *frame = d->space == PTX_SPACE_LOCAL ? &c->local_frame : d->space == PTX_SPACE_PARAM ? &c->param_frame : NULL;
        uint32_t si = declare_fsym(c, d, frame);
        if (si != PTRMAP_ABSENT) rec(c, REC_SYM, si, 0, st->loc.line, d->name);
      }
      break;
    }
    case PS_LOC: {
      isa_locinfo li = { st->u.locinfo.file, st->u.locinfo.line, st->u.locinfo.col, st->u.locinfo.function_name,
                         st->u.locinfo.in_file, st->u.locinfo.in_line, st->u.locinfo.in_col, st->u.locinfo.inlined };
      VEC_PUSH(c->locs, li);
      cur_loc = c->locs.n;
      rec(c, REC_LOC, c->locs.n - 1, 0, st->loc.line, NULL);
      break;
    }
    case PS_PRAGMA: rec(c, REC_PRAGMA, 0, 0, st->loc.line, st->u.pragma); break;
    case PS_OPEN: scope_open(c); rec(c, REC_OPEN, 0, 0, st->loc.line, NULL); break;
    case PS_CLOSE: scope_close(c); rec(c, REC_CLOSE, 0, 0, st->loc.line, NULL); break;
    case PS_BRANCHTARGETS: case PS_CALLTARGETS: {
      uint32_t lb = ptrmap_get(&c->labels, st->u.targets.label);
      if (lb == PTRMAP_ABSENT) break;
      isa_table t = { st->u.targets.label, st->u.targets.n, NULL, st->kind == PS_CALLTARGETS };
      t.pcs = arena_alloc(c->m->arena, (t.n ? t.n : 1) * sizeof *t.pcs);
      for (uint32_t k = 0; k < t.n; k++) {
        const ptx_opnd *o = &st->u.targets.names[k];
        if (t.calls) {
          uint32_t fi = ptrmap_get(&c->funcs, o->name);
          if (fi == PTRMAP_ABSENT) err(c, o->loc, "undefined function '%s'", o->name);
          else t.pcs[k] = fi;
        } else {
          uint32_t l = ptrmap_get(&c->labels, o->name);
          if (l == PTRMAP_ABSENT) err(c, o->loc, "undefined label '%s'", o->name);
          else t.pcs[k] = l;
        }
      }
      rec(c, st->kind == PS_CALLTARGETS ? REC_CALLTARGETS : REC_BRANCHTARGETS, c->tables.n, lb, st->loc.line, st->u.targets.label);
      VEC_PUSH(c->tables, t);
      break;
    }
    case PS_CALLPROTO: {
      uint32_t fi = ptrmap_get(&c->protos, st->u.proto.label);
      if (fi != PTRMAP_ABSENT) rec(c, REC_CALLPROTO, fi, 0, st->loc.line, st->u.proto.label);
      break;
    }
    }
  }
  f->ninsns = c->insns.n; FINISH(insns, insns);
  f->nops = c->ops.n; FINISH(ops, ops);
  f->npool = c->pool.n; FINISH(pool, pool);
  f->nregs = c->regtype.n; FINISH(regtype, regtype); FINISH(regname, regname);
  f->nsyms = c->syms.n; FINISH(syms, syms);
  f->nrecs = c->recs.n; FINISH(recs, recs);
  f->nlocs = c->locs.n; FINISH(locs, locs);
  f->ntables = c->tables.n; FINISH(tables, tables);
  f->nlabels = c->labelnames.n; FINISH(labels, labelnames); FINISH(label_pc, labelpc);
  f->local_bytes = c->local_frame;
  /* brx.idx names a .branchtargets table by its label */
  for (uint32_t i = 0; i < f->ninsns; i++) {
    const isa_insn *in = &f->insns[i];
    if ((in->op != OP_BRX_IDX && in->op != OP_CALL) || !in->nops) continue;
    isa_opnd *o = &f->ops[in->opi + in->nops - 1];
    if (o->kind != OK_LABEL) continue;
    uint32_t t = 0;
    while (t < f->ntables && f->tables[t].name != f->labels[o->v]) t++;
    if (t < f->ntables) { o->kind = OK_TABLE; o->v = t; }
    else err(c, (ptx_loc){ in->line, in->col }, "'%s' is not a %s table", f->labels[o->v],
             in->op == OP_CALL ? ".calltargets" : ".branchtargets");
  }
  /* label operands hold label ids until here: turn them into PCs */
  for (uint32_t i = 0; i < f->nops; i++) if (f->ops[i].kind == OK_LABEL) f->ops[i].v = f->label_pc[f->ops[i].v];
  for (uint32_t i = 0; i < f->npool; i++) if (f->pool[i].kind == OK_LABEL) f->pool[i].v = f->label_pc[f->pool[i].v];
  for (uint32_t t = 0; t < f->ntables; t++)
    if (!f->tables[t].calls) for (uint32_t k = 0; k < f->tables[t].n; k++) f->tables[t].pcs[k] = f->label_pc[f->tables[t].pcs[k]];
}

/* ---- module ------------------------------------------------------------------- */

isa_module *isa_assemble(const ptx_module *pm, ptx_diag *diag) {
  actx cc, *c = &cc;
  memset(c, 0, sizeof cc);
  c->pm = pm;
  c->diag = diag;
  uint32_t errors0 = diag->errors;
  isa_module *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->arena = arena_new();
  c->m = m;
  c->names = pm->names;
  ptrmap_init(&c->modsyms); ptrmap_init(&c->funcs); ptrmap_init(&c->opcache);
  ptrmap_init(&c->regs); ptrmap_init(&c->ranges); ptrmap_init(&c->fsyms);
  ptrmap_init(&c->labels); ptrmap_init(&c->protos);

  m->path = arena_strndup(m->arena, pm->path, strlen(pm->path));
  m->version = pm->version_major * 10 + pm->version_minor;
  m->sm = pm->sm;
  m->sm_suffix = pm->sm_suffix;
  m->texmode_independent = pm->texmode_independent;
  m->debug = pm->debug;
  m->address_size = pm->address_size;

  /* pass 1: module symbols and functions (a definition replaces a declaration) */
  VEC(isa_sym) syms = {0};
  VEC(isa_file) files = {0};
  VEC(const char *) sections = {0}, pragmas = {0};
  VEC(const ptx_func *) pfuncs = {0};
  VEC(const ptx_decl *) pdecls = {0};
  for (uint32_t i = 0; i < pm->nstmts; i++) {
    const ptx_modstmt *ms = &pm->stmts[i];
    if (ms->kind == PM_FUNC) {
      const ptx_func *pf = ms->u.func;
      uint32_t fi = ptrmap_get(&c->funcs, pf->name);
      if (fi != PTRMAP_ABSENT) {
        if (pfuncs.v[fi]->has_body && pf->has_body) err(c, pf->loc, "redeclaration of '%s'", pf->name);
        else if (pf->has_body) pfuncs.v[fi] = pf;
        continue;
      }
      if (ptrmap_get(&c->modsyms, pf->name) != PTRMAP_ABSENT) { err(c, pf->loc, "redeclaration of '%s'", pf->name); continue; }
      ptrmap_put(&c->funcs, pf->name, pfuncs.n);
      VEC_PUSH(pfuncs, pf);
    } else if (ms->kind == PM_VAR) {
      const ptx_decl *d = ms->u.var;
      uint32_t si = ptrmap_get(&c->modsyms, d->name);
      if (si != PTRMAP_ABSENT || ptrmap_get(&c->funcs, d->name) != PTRMAP_ABSENT) {
        bool ext = si != PTRMAP_ABSENT && ((syms.v[si].linkage | d->linkage) & (PTX_LINK_EXTERN | PTX_LINK_WEAK | PTX_LINK_COMMON));
        if (!ext) { err(c, d->loc, "redeclaration of '%s'", d->name); continue; }
        if (!(d->linkage & PTX_LINK_EXTERN)) pdecls.v[si] = d;   /* the definition wins */
        continue;
      }
      isa_sym s;
      memset(&s, 0, sizeof s);
      ptrmap_put(&c->modsyms, d->name, syms.n);
      VEC_PUSH(syms, s);
      VEC_PUSH(pdecls, d);
    } else if (ms->kind == PM_FILE) {
      isa_file fl = { ms->u.file.id, ms->u.file.path, ms->u.file.mtime, ms->u.file.size };
      VEC_PUSH(files, fl);
    } else if (ms->kind == PM_SECTION) VEC_PUSH(sections, ms->u.section);
    else if (ms->kind == PM_PRAGMA) VEC_PUSH(pragmas, ms->u.pragma);
  }
  m->nfuncs = pfuncs.n;
  m->funcs = calloc(pfuncs.n ? pfuncs.n : 1, sizeof *m->funcs);
  /* pass 2: module variables (initialisers may name functions and variables) */
  for (uint32_t i = 0; i < syms.n; i++) fill_sym(c, &syms.v[i], pdecls.v[i]);
  m->nsyms = syms.n;
  m->syms = arena_copy(c, syms.v, syms.n * sizeof *syms.v);
  m->nfiles = files.n; m->files = arena_copy(c, files.v, files.n * sizeof *files.v);
  m->nsections = sections.n; m->sections = arena_copy(c, sections.v, sections.n * sizeof *sections.v);
  m->nmpragmas = pragmas.n; m->mpragmas = arena_copy(c, pragmas.v, pragmas.n * sizeof *pragmas.v);
  /* pass 3: function bodies (prototypes found inside bodies are appended) */
  uint32_t nreal = pfuncs.n;
  for (uint32_t i = 0; i < nreal; i++) {
    isa_func tmp;
    memset(&tmp, 0, sizeof tmp);
    assemble_func(c, &tmp, pfuncs.v[i]);
    m->funcs[i] = tmp;
  }
  VEC_FREE(syms); VEC_FREE(files); VEC_FREE(sections); VEC_FREE(pragmas); VEC_FREE(pfuncs); VEC_FREE(pdecls);
  VEC_FREE(c->templates); VEC_FREE(c->template_ok);
  VEC_FREE(c->undos); VEC_FREE(c->scope_marks); VEC_FREE(c->rangev); VEC_FREE(c->insns);
  VEC_FREE(c->ops); VEC_FREE(c->pool); VEC_FREE(c->regtype); VEC_FREE(c->regname); VEC_FREE(c->syms);
  VEC_FREE(c->recs); VEC_FREE(c->locs); VEC_FREE(c->tables); VEC_FREE(c->labelnames); VEC_FREE(c->labelpc);
  ptrmap_fini(&c->modsyms); ptrmap_fini(&c->funcs); ptrmap_fini(&c->opcache);
  ptrmap_fini(&c->regs); ptrmap_fini(&c->ranges); ptrmap_fini(&c->fsyms);
  ptrmap_fini(&c->labels); ptrmap_fini(&c->protos);
  if (diag->errors != errors0) { isa_module_free(m); return NULL; }
  /* every name in m points into the parser's string arena: adopt it */
  m->strings = pm->names->arena;
  pm->names->arena = NULL;
  isa_resources(m);
  return m;
}

void isa_module_free(isa_module *m) {
  if (!m) return;
  free(m->funcs);
  arena_free(m->arena);
  arena_free(m->strings);
  free(m);
}

int isa_find_func(const isa_module *m, const char *name) {
  for (uint32_t i = 0; i < m->nfuncs; i++)
    if (!m->funcs[i].is_proto && m->funcs[i].name && strcmp(m->funcs[i].name, name) == 0) return (int)i;
  return -1;
}
