/* isa/assemble.c - from a parsed module (ptx/ast.h) to the encoded module
 * (isa.h): binds names to registers, symbols, labels and functions, checks
 * every instruction against the opcode table, and lays out memory.
 *
 * The module is assembled statement by statement, in source order, so that
 * it can be streamed: isa_assemble_ptx assembles each function as soon as
 * the parser has read it and the parser reuses the body's memory.  A body
 * may name a variable or function declared later (ptxas refuses that, the
 * disassembler's output relies on it): such an operand is recorded as a
 * fixup and resolved - and checked - when the module is complete.
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
typedef struct range { uint32_t first, count; uint16_t depth; uint8_t vec; } range;   /* vec: slots a member */

/* An operand naming something not declared yet, resolved at the end. */
typedef struct fixup {
  ptx_opnd o;                      /* the name as written (no sub-operands)    */
  uint32_t func, at;               /* the operand: funcs[func].ops[at] or .pool[at] */
  uint32_t insn;                   /* its instruction, for the checks          */
  uint32_t table, k;               /* or entry k of .calltargets table-1       */
  uint8_t role, opi;               /* opi: operand number of a top-level one   */
  char sig;                        /* its signature letter (0: inside a list)  */
  bool pool, addr;                 /* in the pool; the name is an address base */
} fixup;

typedef struct actx {
  const ptx_module *pm;
  isa_module *m;
  ptx_diag *diag;
  uint32_t errors0;
  strtab *names;                   /* the parser's interned names              */
  ptrmap modsyms;                  /* name -> module symbol index              */
  ptrmap funcs;                    /* name -> function index                   */
  ptrmap opcache;                  /* interned opname -> template index        */
  VEC(isa_insn) templates;
  VEC(const char *) template_err;  /* its diagnostic (every use reports it)    */
  VEC(uint32_t) alias;             /* function index -> .alias target, or ABSENT */
  /* the module so far */
  VEC(isa_sym) msyms;              /* module variables (filled at the end)     */
  VEC(isa_sym) hsyms;              /* variables hoisted from bodies            */
  VEC(uint32_t) hoisters;          /* the functions whose bodies declare them  */
  VEC(const ptx_decl *) mdecls;    /* and their declarations                   */
  VEC(isa_func) fv;                /* functions, then callprototypes as met    */
  VEC(const ptx_func *) pfuncs;    /* declaration or definition of each function */
  VEC(isa_file) files;
  VEC(const char *) sections, mpragmas;
  VEC(ptx_modstmt) aliases;
  VEC(fixup) fixups;
  /* pending: the name resolve_name could not bind yet */
  ptx_opnd pend;
  uint8_t pend_role;
  bool pend_addr;
  uint32_t cur_func;               /* index of the function being assembled   */
  int in_list;                     /* PO_VEC/PO_LIST/PO_PAIR whose elements are encoded, or 0 */
  /* per function */
  isa_func *f;
  ptrmap regs;                     /* name -> slot (scoped)                    */
  ptrmap regcache;                 /* name -> slot of a range member (%r12)    */
  ptrmap ranges;                   /* prefix -> range index (scoped)           */
  ptrmap fsyms;                    /* name -> function symbol (scoped)         */
  ptrmap labels;                   /* name -> label index (a label inside a { } block
                                      under "name\x01block": see label_key) */
  VEC(uint32_t) blocks;            /* ids of the { } blocks open at this statement */
  uint32_t nblocks;                /* blocks opened so far in this pass          */
  ptrmap protos;                   /* callprototype label -> func index        */
  VEC(undo) undos;
  VEC(uint32_t) scope_marks;
  VEC(range) rangev;
  /* the instructions and top-level operands of the function, built in
   * place in the module's arena (sized from its syntax tree) */
  isa_insn *insns;
  isa_opnd *ops;
  uint32_t ninsns, nops;
  VEC(isa_opnd) pool;
  VEC(uint8_t) regtype;
  VEC(const char *) regname;
  VEC(uint8_t) regvec;             /* per slot: elements of the vector register it starts
                                      (1: a scalar; 0: a later element of a vector) */
  VEC(isa_sym) syms;
  VEC(isa_rec) recs;
  VEC(isa_locinfo) locs;
  VEC(isa_table) tables;
  VEC(const char *) labelnames;
  VEC(uint32_t) labelpc;
  VEC(uint16_t) regdepth;          /* scope depth each register was declared at */
  VEC(uint16_t) symdepth;          /* and each function symbol                 */
  VEC(uint16_t) hoistdepth;        /* and each hoisted module symbol (by index) */
  uint32_t digit_singles;          /* single registers named like a range member (%r5) */
  uint64_t local_frame, param_frame;
  const char *opword[OP_COUNT];    /* first dotted component of each opcode    */
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

static void check_imm(actx *c, const isa_opnd *e, const ptx_opnd *o, enum ptx_type t);
static bool is_float_type(int t);
static uint32_t func_target(const actx *c, uint32_t fi);

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

/* Elements of dims[from..ndims) times eb: UINT64_MAX when it does not fit
 * in 64 bits (checked against ISA_MAX_VAR_BYTES by the caller). */
static uint64_t dims_bytes(const ptx_decl *d, int from, uint64_t eb) {
  uint64_t n = eb;
  for (int i = from; i < d->ndims; i++) if (__builtin_mul_overflow(n, d->dims[i], &n)) return UINT64_MAX;
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
    else if (t != PTX_T_U32 && t != PTX_T_U64)
      /* ptxas: "Initial value type mismatch"; a .u32 holds the low half */
      err(c, o->loc, "the address of '%s' can initialise only a .u32 or .u64 variable, not .%s '%s'", o->name,
          ptx_type_names[t], w->d->name);
    else {
      /* a function's address is UINT32_MAX - its index */
      uint32_t sym = si != PTRMAP_ABSENT ? si : UINT32_MAX - func_target(c, fi);
      isa_reloc r = { w->pos, sym, (o->flags & POF_GENERIC) != 0, o->ival };
      VEC_PUSH(w->relocs, r);
    }
  } else if (o->kind == PO_INT) {
    uint64_t v = (uint64_t)o->ival;
    if (!is_float_type(t)) {
      isa_opnd e = { .kind = OK_IMM, .imm = o->ival };
      check_imm(c, &e, o, t);
    }
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

/* A brace level per array dimension, one more for a vector element: deeper
 * braces ({{1}} for a scalar) are an error, not silently flattened. */
static bool init_walk(initw *w, const ptx_init *in, int depth) {
  if (!in->is_list) { init_leaf(w, &in->u.scalar); return true; }
  if (depth == w->d->ndims + (w->d->vec > 1)) {
    err(w->c, w->d->loc, "too many levels of braces in the initialiser of '%s'", w->d->name);
    return false;
  }
  for (uint32_t i = 0; i < in->n; i++) if (!init_walk(w, &in->u.items[i], depth + 1)) return false;
  return true;
}

/* .texref t = { width = 64, filter_mode = linear }: the fields, in order. */
static void fill_fields(actx *c, isa_sym *s, const ptx_decl *d) {
  const ptx_init *in = d->init;
  if (!in->is_list) { err(c, in->u.scalar.loc, "invalid initialiser"); return; }
  s->fields = arena_alloc(c->m->arena, (in->n ? in->n : 1) * sizeof *s->fields);
  for (uint32_t i = 0; i < in->n; i++) {
    const ptx_init *it = &in->u.items[i];
    const ptx_opnd *v = &it->u.scalar;
    if (it->is_list || !it->field || (v->kind != PO_INT && v->kind != PO_SYM) || (v->ival && v->kind == PO_SYM)) {
      err(c, it->is_list || !it->field ? d->loc : v->loc, "invalid initialiser");
      continue;
    }
    isa_field f = { it->field, v->kind == PO_SYM ? v->name : NULL, v->kind == PO_INT ? v->ival : 0 };
    s->fields[s->nfields++] = f;
  }
}

/* A variable's size, checked where it is computed: an array of 2^33 bytes
 * is that size, never its low 32 bits, and no size is so large that sums
 * of sizes (frames, shared memory) could leave 64 bits.  An initialiser is
 * held in memory (and in objects): 1 GiB at most. */
#define MAX_INIT_BYTES (1ull << 30)
static bool size_ok(actx *c, isa_sym *s, const ptx_decl *d, bool init) {
  uint64_t max = init ? MAX_INIT_BYTES : ISA_MAX_VAR_BYTES;
  if (s->size <= max) return true;
  if (s->size == UINT64_MAX) err(c, d->loc, "the size of '%s' does not fit in 64 bits", d->name);
  else err(c, d->loc, "'%s' has %llu bytes, more than %s", d->name, (unsigned long long)s->size,
           init ? "1 GiB (the largest initialised variable ptxemu takes)" : "2^48 (the largest variable ptxemu takes)");
  s->size = 0;
  return false;
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
  s->size = dims_bytes(d, 0, eb);
  s->align = d->align ? d->align : (uint32_t)eb;
  if (s->align & (s->align - 1)) { err(c, d->loc, "alignment %u of '%s' is not a power of two", s->align, d->name); s->align = 1; }
  if (!size_ok(c, s, d, false)) return;
  if (d->init && (d->type == PTX_T_TEXREF || d->type == PTX_T_SAMPLERREF || d->type == PTX_T_SURFREF)) {
    fill_fields(c, s, d);
    return;
  }
  if (d->init) {
    if (d->space != PTX_SPACE_GLOBAL && d->space != PTX_SPACE_CONST)
      err(c, d->loc, "only .global and .const variables can be initialised");
    if (d->dim_open && d->init->is_list) {        /* x[] = {...}: size from the initialiser */
      uint64_t n = 0;
      const ptx_init *in = d->init;
      if (in->is_list) n = in->n;
      uint64_t inner = dims_bytes(d, 1, eb);
      if (inner == UINT64_MAX || __builtin_mul_overflow(inner, n, &s->size)) s->size = UINT64_MAX;
      s->dims[0] = n;
      s->dim_open = 0;
    }
    if (!size_ok(c, s, d, true)) return;
    s->init = arena_alloc(c->m->arena, s->size ? s->size : 1);
    initw w = { .c = c, .s = s, .d = d };
    init_walk(&w, d->init, 0);
    if (w.relocs.n) {
      s->relocs = arena_copy(c, w.relocs.v, w.relocs.n * sizeof *w.relocs.v);
      s->nrelocs = w.relocs.n;
    }
    VEC_FREE(w.relocs);
  }
}

/* .shared/.global/.const declared in a function body are static storage:
 * they are hoisted to module scope. */
static bool is_static_space(uint8_t sp) { return sp == PTX_SPACE_SHARED || sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_CONST; }

/* A function-scope binding of a name to a module symbol (a hoisted one),
 * rather than to a symbol of the function. */
#define FSYM_MODULE 0x80000000u
/* A hoisted variable's index among the hoisted, in operands until the end. */
#define HOISTED 0x80000000u

/* Labels declared in a { } block are local to it (inline-asm blocks repeat
 * names such as waitLoop): they are keyed by name and block id.  A use
 * sees the innermost enclosing block's label first, then outer ones. */
static const char *label_key(actx *c, const char *name, uint32_t block) {
  if (!block) return name;
  char buf[512];
  int n = snprintf(buf, sizeof buf, "%s\x01%u", name, block);
  return strtab_intern(c->names, buf, n < (int)sizeof buf ? (size_t)n : sizeof buf - 1);
}
static uint32_t label_find(actx *c, const char *name) {
  for (uint32_t d = c->blocks.n; d-- > 0;) {
    uint32_t lb = ptrmap_get(&c->labels, label_key(c, name, c->blocks.v[d]));
    if (lb != PTRMAP_ABSENT) return lb;
  }
  return ptrmap_get(&c->labels, name);
}
static void block_open(actx *c) { VEC_PUSH(c->blocks, ++c->nblocks); }
static void block_close(actx *c) { if (c->blocks.n) c->blocks.n--; }

/* ---- scopes --------------------------------------------------------------- */

enum { W_REG, W_RANGE, W_FSYM };

static void scoped_put(actx *c, int which, const void *key, uint32_t val) {
  ptrmap *m = which == W_REG ? &c->regs : which == W_RANGE ? &c->ranges : &c->fsyms;
  if (which == W_RANGE) ptrmap_clear(&c->regcache);
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
    if (u.which == W_RANGE) ptrmap_clear(&c->regcache);
    ptrmap_put(m, u.key, u.old);
  }
}

static uint16_t depth(const actx *c) { return (uint16_t)c->scope_marks.n; }

static void rec(actx *c, int kind, uint32_t a, uint32_t b, uint32_t line, const char *name) {
  isa_rec r = { (uint8_t)kind, c->ninsns, a, b, line, name };
  VEC_PUSH(c->recs, r);
}

/* ---- declarations inside functions ----------------------------------------- */

static uint32_t new_reg(actx *c, const char *name, uint8_t type) {
  uint32_t slot = c->regtype.n;
  VEC_PUSH(c->regtype, type);
  VEC_PUSH(c->regname, name);
  VEC_PUSH(c->regdepth, depth(c));
  VEC_PUSH(c->regvec, 1);
  return slot;
}

/* .reg .v4 .f32 %v: one slot per element, consecutive (%v.x is the first) */
static uint32_t new_vreg(actx *c, const char *name, uint8_t type, uint32_t vec) {
  uint32_t slot = new_reg(c, name, type);
  if (vec <= 1) return slot;
  c->regvec.v[slot] = (uint8_t)vec;
  for (uint32_t i = 1; i < vec; i++) {
    uint32_t e = new_reg(c, name, type);          /* new_reg may move regvec.v */
    c->regvec.v[e] = 0;
  }
  return slot;
}

static uint32_t find_reg(actx *c, const char *name);
static uint32_t find_range_reg(actx *c, const char *name);

/* Registers share one namespace per scope: %r2 is taken by %r<4>, and
 * %r<4> by an earlier %r2 (a live binding at the current depth was made
 * in this scope: the bindings of closed sibling scopes are undone). */
static bool reg_taken_here(actx *c, const ptx_decl *d) {
  if (!d->has_range) {
    uint32_t slot = find_reg(c, d->name);
    return slot != PTRMAP_ABSENT && c->regdepth.v[slot] == depth(c);
  }
  uint32_t ri = ptrmap_get(&c->ranges, d->name);
  if (ri != PTRMAP_ABSENT && c->rangev.v[ri].depth == depth(c)) return true;
  uint32_t mark = c->scope_marks.n ? c->scope_marks.v[c->scope_marks.n - 1] : 0;
  size_t pl = strlen(d->name);
  for (uint32_t i = mark; i < c->undos.n; i++) {      /* single names of this scope: %r2 in %r<4>? */
    const undo *u = &c->undos.v[i];
    const char *k = u->key;
    if (u->which != W_REG || strncmp(k, d->name, pl) != 0 || !k[pl]) continue;
    const char *p = k + pl;
    if (p[0] == '0' && p[1]) continue;
    uint64_t idx = 0;
    while (*p >= '0' && *p <= '9' && idx < (1u << 30)) idx = idx * 10 + (uint64_t)(*p++ - '0');
    if (!*p && idx < d->range && ptrmap_get(&c->regs, k) != PTRMAP_ABSENT) return true;
  }
  return false;
}

static void declare_regs(actx *c, const ptx_decl *d, bool listed) {
  if (reg_taken_here(c, d)) {
    err(c, d->loc, "redeclaration of '%s'", d->name);
    return;
  }
  if (d->vec > 1 && d->vec != 2 && d->vec != 4) {   /* ptxas: a syntax error */
    err(c, d->loc, "register '%s': a register vector is .v2 or .v4, not .v%u", d->name, d->vec);
    return;
  }
  if (d->vec > 1 && (uint32_t)ptx_type_bits((enum ptx_type)d->type) * d->vec > 128) {
    err(c, d->loc, "register '%s': .v%u .%s exceeds the 128 bits of a register vector", d->name, d->vec, ptx_type_names[d->type]);
    return;
  }
  if (d->has_range) {
    if (d->range > (1u << 24)) { err(c, d->loc, "register range %%%u too large", d->range); return; }
    uint32_t vec = d->vec > 1 ? d->vec : 1;
    range r = { c->regtype.n, d->range, depth(c), (uint8_t)vec };
    for (uint32_t i = 0; i < d->range; i++) new_vreg(c, d->name, d->type, vec);
    scoped_put(c, W_RANGE, d->name, c->rangev.n);
    VEC_PUSH(c->rangev, r);
    rec(c, REC_REGS, r.first, d->range | ISA_REGS_RANGE | (vec - 1) << ISA_REGS_VEC_SHIFT, d->loc.line, d->name);
  } else {
    uint32_t slot = new_vreg(c, d->name, d->type, d->vec);
    size_t nl = strlen(d->name);
    if (nl && d->name[nl - 1] >= '0' && d->name[nl - 1] <= '9') c->digit_singles++;
    scoped_put(c, W_REG, d->name, slot);
    if (listed) rec(c, REC_REGS, slot, d->vec > 1 ? d->vec : 1, d->loc.line, d->name);
  }
}

static uint64_t align_up(uint64_t x, uint64_t a) { return a ? (x + a - 1) / a * a : x; }

static uint32_t declare_fsym(actx *c, const ptx_decl *d, uint64_t *frame) {
  uint32_t old = ptrmap_get(&c->fsyms, d->name);
  if (old != PTRMAP_ABSENT && (old & FSYM_MODULE ? c->hoistdepth.v[old & ~FSYM_MODULE] : c->symdepth.v[old]) == depth(c)) {
    err(c, d->loc, "redeclaration of '%s'", d->name);
    return PTRMAP_ABSENT;
  }
  isa_sym s;
  memset(&s, 0, sizeof s);
  fill_sym(c, &s, d);
  if (frame) {
    s.offset = align_up(*frame, s.align);
    *frame = s.offset + s.size;
    /* sizes are at most 2^48: held below 2^49, the sum never wraps, and
     * the function's frame check reports it */
    if (*frame > 2 * ISA_MAX_VAR_BYTES) *frame = 2 * ISA_MAX_VAR_BYTES;
  }
  uint32_t idx = c->syms.n;
  VEC_PUSH(c->syms, s);
  VEC_PUSH(c->symdepth, depth(c));
  scoped_put(c, W_FSYM, d->name, idx);
  return idx;
}

/* A body's .shared/.global/.const variable is a module variable (static
 * storage) whose name is bound in the block that declares it.  The
 * module's variables list the module-scope ones first, then these in the
 * order met (so a listing that declares them in their bodies assembles
 * back to the same module); until the end, operands name them as
 * HOISTED | index.  It is laid out now: the body's syntax tree does not
 * outlive the function. */
static void hoist(actx *c, const ptx_decl *d) {
  uint32_t old = ptrmap_get(&c->fsyms, d->name);
  if (old != PTRMAP_ABSENT && (old & FSYM_MODULE ? c->hoistdepth.v[old & ~FSYM_MODULE] : c->symdepth.v[old]) == depth(c)) {
    err(c, d->loc, "redeclaration of '%s'", d->name);
    return;
  }
  uint32_t hi = c->hsyms.n;
  isa_sym s;
  memset(&s, 0, sizeof s);
  fill_sym(c, &s, d);
  VEC_PUSH(c->hsyms, s);
  VEC_PUSH(c->hoistdepth, depth(c));
  if (!c->hoisters.n || c->hoisters.v[c->hoisters.n - 1] != c->cur_func) VEC_PUSH(c->hoisters, c->cur_func);
  scoped_put(c, W_FSYM, d->name, hi | FSYM_MODULE);
  rec(c, REC_MSYM, hi | HOISTED, 0, d->loc.line, d->name);
}

/* ---- operands ------------------------------------------------------------- */

/* Special register of a spelling without its component (%tid of %tid.x),
 * or -1: a small table built on first use. */
static int sreg_of(const char *name, size_t n) {
  enum { H = 256 };
  static int8_t table[H];
  static int ready;
  if (n < 2 || name[0] != '%') return -1;
  if (!ready) {
    memset(table, -1, sizeof table);
    for (int i = 0; i < SREG_COUNT; i++) {
      uint32_t h = strtab_hash(isa_sreg_names[i], strlen(isa_sreg_names[i])) & (H - 1);
      while (table[h] >= 0) h = (h + 1) & (H - 1);
      table[h] = (int8_t)i;
    }
    ready = 1;
  }
  for (uint32_t h = strtab_hash(name, n) & (H - 1); table[h] >= 0; h = (h + 1) & (H - 1))
    if (strncmp(isa_sreg_names[table[h]], name, n) == 0 && isa_sreg_names[table[h]][n] == 0) return table[h];
  if (n > 7 && strncmp(name, "%envreg", 7) == 0) return SREG_ENVREG;
  return -1;
}

/* The part after the dot of %r1.x, %v.b, %r1.h1, %r1.b3210 (video
 * selectors of several lanes): n of the REG operand, and imm for those. */
static uint16_t component_of(const char *s, int64_t *sel) {
  static const char *const comps[] = { "", "x", "y", "z", "w", "b0", "b1", "b2", "b3", "h0", "h1", "r", "g", "b", "a" };
  *sel = 0;
  for (uint16_t i = 1; i < sizeof comps / sizeof comps[0]; i++)
    if (strcmp(comps[i], s) == 0) return i <= 10 ? i : (uint16_t)(i - 10);
  size_t n = strlen(s);
  char maxd = s[0] == 'b' ? '7' : '3';
  if ((s[0] != 'b' && s[0] != 'h') || n < 2 || n - 1 > (s[0] == 'b' ? 4u : 2u)) return 0;
  int64_t v = ISA_SEL_MAKE(s[0], n - 1);
  for (size_t i = 1; i < n; i++) {
    if (s[i] < '0' || s[i] > maxd) return 0;
    v = ISA_SEL_SET_LANE(v, i - 1, s[i] - '0');
  }
  *sel = v;
  return ISA_COMP_SEL;
}

/* Register slot for a name (exact, or prefix+index of a %r<N> range).
 * Range members are cached by name until the ranges in scope change. */
static uint32_t find_reg(actx *c, const char *name) {
  uint32_t slot = ptrmap_get(&c->regs, name);
  if (slot != PTRMAP_ABSENT) return slot;
  slot = ptrmap_get(&c->regcache, name);
  if (slot != PTRMAP_ABSENT) return slot;
  slot = find_range_reg(c, name);
  if (slot != PTRMAP_ABSENT) ptrmap_put(&c->regcache, name, slot);
  return slot;
}

static uint32_t find_range_reg(actx *c, const char *name) {
  size_t n = strlen(name), k = n;
  while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9') k--;
  if (k == n || k == 0) return PTRMAP_ABSENT;
  if (n - k > 1 && name[k] == '0') return PTRMAP_ABSENT;   /* %r01 is not %r1 */
  const char *prefix = strtab_intern(c->names, name, k);
  uint32_t ri = ptrmap_get(&c->ranges, prefix);
  if (ri == PTRMAP_ABSENT) return PTRMAP_ABSENT;
  uint64_t idx = strtoull(name + k, NULL, 10);
  if (idx >= c->rangev.v[ri].count) return PTRMAP_ABSENT;
  return c->rangev.v[ri].first + (uint32_t)idx * c->rangev.v[ri].vec;
}

/* What a name operand may be: anything; a label (bra); a function (call);
 * a register (guards). */
enum role { R_ANY, R_LABEL, R_CALL, R_REG };

/* A function named by an .alias stands for its target. */
static uint32_t func_target(const actx *c, uint32_t fi) {
  return fi < c->alias.n && c->alias.v[fi] != PTRMAP_ABSENT ? c->alias.v[fi] : fi;
}

static const char *reg_display(actx *c, uint32_t slot);

/* A register named without an element: a vector register stands for the
 * brace list of its elements ("ld.v4.f32 %v, [a]" is "ld.v4.f32 {%v.x,
 * %v.y, %v.z, %v.w}, [a]"), which is how the emulator and the
 * disassembler see it. */
static int whole_reg(actx *c, const ptx_opnd *o, uint32_t slot, isa_opnd *out) {
  out->kind = OK_REG; out->v = slot;
  uint32_t vec = c->regvec.v[slot];
  if (vec <= 1) return 0;
  if (c->in_list && c->in_list != PO_LIST) {   /* a call's list passes it whole, to a vector .reg parameter */
    char buf[96];
    err(c, o->loc, "vector register '%s' cannot be an element of a vector operand", ptx_opnd_name(o, buf, sizeof buf));
    return -1;
  }
  out->kind = OK_VEC; out->n = (uint16_t)vec; out->v = c->pool.n;
  for (uint32_t i = 0; i < vec; i++) { isa_opnd e = { .kind = OK_REG, .v = slot + i }; VEC_PUSH(c->pool, e); }
  return 0;
}

/* Resolve a name operand: register, special register, symbol, label, function. */
static int resolve_name(actx *c, const ptx_opnd *o, isa_opnd *out, int role) {
  const char *name = o->name;
  memset(out, 0, sizeof *out);
  uint32_t slot;
  if (o->flags & POF_INDEXED) {
    /* %r12: a member of the range %r<N>, unless a single %r12 is declared */
    if (!c->digit_singles) {
      uint32_t ri = ptrmap_get(&c->ranges, name);
      if (ri != PTRMAP_ABSENT && o->idx < c->rangev.v[ri].count)
        return whole_reg(c, o, c->rangev.v[ri].first + o->idx * c->rangev.v[ri].vec, out);
    }
    char buf[96];
    const char *full = ptx_opnd_name(o, buf, sizeof buf);
    name = strtab_intern(c->names, full, strlen(full));
  }
  slot = find_reg(c, name);
  if (slot != PTRMAP_ABSENT) return whole_reg(c, o, slot, out);
  const char *dot = strchr(name, '.');
  if (dot) {
    const char *base = strtab_intern(c->names, name, (size_t)(dot - name));
    int64_t sel;
    uint16_t comp = component_of(dot + 1, &sel);
    slot = find_reg(c, base);
    if (slot != PTRMAP_ABSENT && comp) {
      out->kind = OK_REG; out->v = slot; out->n = comp; out->imm = sel;
      uint32_t vec = c->regvec.v[slot];
      if (vec > 1 && comp >= 1 && comp <= 4) {   /* an element of a vector register: its own slot */
        if (comp > vec) {
          /* ptxas 13 takes %v.z of a .v2 register without a word; what it reads is not defined */
          err(c, o->loc, "register '%s' is a .v%u vector: it has no element .%s", base, vec, dot + 1);
          return -1;
        }
        out->v = slot + comp - 1;
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
  if (fs != PTRMAP_ABSENT) {
    out->kind = OK_SYM;
    out->flags = fs & FSYM_MODULE ? OF_MODSYM : OF_FUNCSYM;
    out->v = fs & FSYM_MODULE ? (fs & ~FSYM_MODULE) | HOISTED : fs;
    out->imm = o->ival;
    return 0;
  }
  uint32_t lb = label_find(c, name);
  if (lb != PTRMAP_ABSENT && role != R_CALL) { out->kind = OK_LABEL; out->v = lb; return 0; }
  uint32_t ms = ptrmap_get(&c->modsyms, name);
  if (ms != PTRMAP_ABSENT) { out->kind = OK_SYM; out->flags = OF_MODSYM; out->v = ms; out->imm = o->ival; return 0; }
  uint32_t fi = ptrmap_get(&c->funcs, name);
  if (fi != PTRMAP_ABSENT) { out->kind = OK_FUNC; out->v = func_target(c, fi); return 0; }
  if (strcmp(name, "WARP_SZ") == 0) { out->kind = OK_IMM; out->imm = 32; return 0; }   /* predefined constant */
  uint32_t pr = ptrmap_get(&c->protos, name);
  if (pr != PTRMAP_ABSENT) { out->kind = OK_FUNC; out->v = pr; out->flags = OF_FUNCSYM; return 0; }
  if (role == R_LABEL) err(c, o->loc, "undefined label '%s'", name);
  else if (name[0] != '%' && role != R_REG) {
    /* maybe a variable or function declared further down: decided at the end */
    c->pend = *o;
    c->pend.sub = NULL;
    c->pend.name = name;
    c->pend_role = (uint8_t)role;
    c->pend_addr = false;
    out->kind = OK_NONE;
    return 1;
  } else if (role == R_CALL) err(c, o->loc, "undefined function '%s'", name);
  else if (name[0] == '%') err(c, o->loc, "undeclared register '%s'", name);
  else err(c, o->loc, "undeclared identifier '%s'", name);
  return -1;
}

/* The operand just encoded into ops[at] (or pool[at]) names what
 * resolve_name left pending. */
static void add_fixup(actx *c, bool pool, uint32_t at, uint32_t insn, int opi, char sig) {
  fixup x = { .o = c->pend, .func = c->cur_func, .at = at, .insn = insn, .role = c->pend_role,
              .opi = (uint8_t)opi, .sig = sig, .pool = pool, .addr = c->pend_addr };
  VEC_PUSH(c->fixups, x);
}

static int encode(actx *c, const ptx_opnd *o, isa_opnd *out, int role);

static uint32_t encode_list(actx *c, const ptx_opnd *subs, uint32_t n, int role) {
  uint32_t first = c->pool.n;
  for (uint32_t i = 0; i < n; i++) { isa_opnd z = {0}; VEC_PUSH(c->pool, z); }
  for (uint32_t i = 0; i < n; i++) {
    isa_opnd e;
    int r = encode(c, &subs[i], &e, role);
    if (r >= 0) c->pool.v[first + i] = e;
    if (r == 1) add_fixup(c, true, first + i, 0, 0, 0);
  }
  return first;
}

/* A source r+imm (r-imm and imm+r are syntax errors for ptxas, refused by
 * the parser): ptxas reads it as r plus imm at r's width, computed before
 * the instruction (its cubin is that of an add into a temporary), for a
 * register of an integer or bit-size type.  What it does with other names
 * plus an offset decides the rest. */
static bool int_type(int t);
static int offset_operand(actx *c, const ptx_opnd *o, isa_opnd *out) {
  char buf[96];
  const char *name = ptx_opnd_name(o, buf, sizeof buf);
  switch (out->kind) {
  case OK_SYM: return 0;                             /* sym+imm: the offset is in imm */
  case OK_IMM:                                       /* WARP_SZ+imm is a constant */
    out->imm = (int64_t)((uint64_t)out->imm + (uint64_t)o->ival);
    return 0;
  case OK_LABEL: err(c, o->loc, "label '%s' cannot take an offset (ptxas expects a label)", name); return -1;
  case OK_FUNC: err(c, o->loc, "function '%s' cannot take an offset (ptxas: no address arithmetic on functions)", name); return -1;
  case OK_SREG:   /* %laneid+4 as %laneid plus 4; %tid.x+4 is a syntax error */
    if (strchr(name, '.')) { err(c, o->loc, "'%s' cannot take an offset (ptxas refuses an offset after a dotted name)", name); return -1; }
    if (c->in_list) { err(c, o->loc, "'%s' cannot take an offset inside braces or a list (ptxas refuses it)", name); return -1; }
    out->flags |= OF_OFFSET;
    out->imm = o->ival;
    return 0;
  case OK_REG: break;
  default: err(c, o->loc, "'%s' cannot take an offset", name); return -1;
  }
  int rt = c->regtype.v[out->v];
  if (c->in_list) {
    err(c, o->loc, "register '%s' cannot take an offset inside %s (ptxas refuses it)", name,
        c->in_list == PO_LIST ? "an argument list" : c->in_list == PO_PAIR ? "a pair" : "braces");
    return -1;
  }
  if (strchr(name, '.') || (out->flags & OF_NEG) || (out->imm & ISA_REG_MINUS)) {
    err(c, o->loc, "'%s' cannot take an offset (ptxas takes one only after a plain register name)", name);
    return -1;
  }
  /* ptxas 13.0 parses p+1 and f+1 but gives them no meaning: compiling
   * code that reads one, it grows without bound (a predicate) or crashes
   * (a .f16/.f16x2/.f32/.f64 register) */
  if (rt == PTX_T_PRED) {
    err(c, o->loc, "predicate '%s' cannot take an offset (ptxas parses it, then never finishes compiling it)", name);
    return -1;
  }
  if (rt == PTX_T_B128) {
    err(c, o->loc, "register '%s' is .b128: a .b128 register plus an offset is not supported", name);
    return -1;
  }
  if (!int_type(rt) && !(rt >= PTX_T_B8 && rt <= PTX_T_B64)) {
    err(c, o->loc, "register '%s' is .%s: only an integer or bit-size register can take an offset (ptxas parses this, then crashes compiling it)",
        name, ptx_type_names[rt]);
    return -1;
  }
  out->flags |= OF_OFFSET;
  out->imm = o->ival;
  return 0;
}

static int encode(actx *c, const ptx_opnd *o, isa_opnd *out, int role) {
  memset(out, 0, sizeof *out);
  switch (o->kind) {
  case PO_REG: case PO_SYM: {
    int r = resolve_name(c, o, out, role);
    if (r) return r;
    if (o->flags & POF_NEG) out->flags |= OF_NEG;
    if (o->flags & POF_MINUS) {
      if (out->kind == OK_REG) out->imm |= ISA_REG_MINUS;
      else { err(c, o->loc, "invalid operand '-%s'", o->name); return -1; }
    }
    if (o->ival) return offset_operand(c, o, out);
    return 0;
  }
  case PO_INT: out->kind = OK_IMM; out->imm = o->ival; if (o->flags & POF_UNSIGNED) out->flags |= OF_UNSIGNED; return 0;
  case PO_F32: out->kind = OK_IMM; out->flags = OF_F32; out->imm = o->ival; return 0;
  case PO_F64: out->kind = OK_IMM; out->flags = OF_F64; out->imm = o->ival; return 0;
  case PO_SINK: out->kind = OK_SINK; return 0;
  case PO_ADDR: {
    isa_opnd base;
    bool deferred = false;
    const ptx_opnd *b = &o->sub[0];
    memset(&base, 0, sizeof base);
    base.kind = OK_ADDR;
    if (b->kind == PO_INT) {
      base.imm = b->ival;
      if (b->flags & POF_OVERFLOW) { err(c, b->loc, "immediate value %s out of range for .s64", b->name); return -1; }
    } else {
      isa_opnd r;
      int res = resolve_name(c, b, &r, R_ANY);
      if (res < 0) return -1;
      base.imm = b->ival;
      if (res == 1) { deferred = true; c->pend_addr = true; }
      else if (r.kind == OK_REG) { base.flags = OF_BASEREG; base.v = r.v; base.imm = b->ival; }
      else if (r.kind == OK_SYM) { base.flags = r.flags; base.v = r.v; base.imm = b->ival; }
      else if (r.kind == OK_FUNC) { base.flags = OF_MODSYM | OF_FUNCSYM; base.v = r.v; base.imm = b->ival; }
      else if (r.kind == OK_SREG) { err(c, b->loc, "special register '%s' cannot be an address", b->name); return -1; }
      else { err(c, b->loc, "'%s' cannot be an address", b->name); return -1; }
    }
    if (o->nsub == 1) { *out = base; return deferred; }
    uint32_t first = c->pool.n;
    VEC_PUSH(c->pool, base);
    if (deferred) add_fixup(c, true, first, 0, 0, 0);
    for (uint32_t i = 1; i < o->nsub; i++) { isa_opnd z = {0}; VEC_PUSH(c->pool, z); }
    for (uint32_t i = 1; i < o->nsub; i++) {
      isa_opnd e;
      int r = encode(c, &o->sub[i], &e, R_ANY);
      if (r >= 0) c->pool.v[first + i] = e;
      if (r == 1) add_fixup(c, true, first + i, 0, 0, 0);
    }
    out->kind = OK_ADDRX; out->v = first; out->n = o->nsub;
    return 0;
  }
  case PO_VEC: case PO_LIST: case PO_PAIR:
    out->kind = o->kind == PO_VEC ? OK_VEC : o->kind == PO_LIST ? OK_LIST : OK_PAIR;
    out->n = o->nsub;
    int outer = c->in_list;
    c->in_list = o->kind;
    out->v = encode_list(c, o->sub, o->nsub, role == R_CALL ? R_ANY : role);
    c->in_list = outer;
    return 0;
  }
  return -1;
}

/* ---- checks against the table ----------------------------------------------- */

static int reg_bits(actx *c, uint32_t slot) { return ptx_type_bits((enum ptx_type)c->regtype.v[slot]); }

/* Messages name an instruction by the first component of its opcode. */
static const char *opword(actx *c, int op) {
  if (!c->opword[op]) c->opword[op] = strtab_intern(c->names, isa_ops[op].name, (size_t)isa_opcode_word_len(isa_ops[op].name));
  return c->opword[op];
}
#define opname_of(in) opword(c, (in)->op)

/* Spelling of a register for messages: range members print as prefix+index. */
static const char *reg_display(actx *c, uint32_t slot) {
  static char buf[300];
  static const char comps[] = "xyzw";
  for (uint32_t i = 0; i < c->rangev.n; i++) {
    const range *r = &c->rangev.v[i];
    if (slot >= r->first && slot - r->first < r->count * r->vec) {
      uint32_t k = slot - r->first;
      if (r->vec > 1) snprintf(buf, sizeof buf, "%s%u.%c", c->regname.v[slot], k / r->vec, comps[k % r->vec & 3]);
      else snprintf(buf, sizeof buf, "%s%u", c->regname.v[slot], k);
      return buf;
    }
  }
  return c->regname.v[slot];
}

/* Whether it reported a register of the wrong width. */
static bool check_reg(actx *c, const isa_insn *in, const isa_opnd *e, const ptx_opnd *o, int need, bool at_least) {
  if (e->kind != OK_REG || e->n || need <= 1) return false;
  int have = reg_bits(c, e->v);
  if (have == 1 && need > 1) {
    err(c, o->loc, "register '%s' is .pred, '%s' needs a %d-bit register", reg_display(c, e->v), opname_of(in), need);
    return true;
  }
  if (at_least ? have < need : have != need) {
    err(c, o->loc, "register '%s' is .%s, '%s' needs a %d-bit register", reg_display(c, e->v),
        ptx_type_names[c->regtype.v[e->v]], opname_of(in), need);
    return true;
  }
  return false;
}

/* Integer and floating-point operands do not mix (PTX manual, "Operand
 * Type Information"): an operand of a .uN/.sN type takes an integer or
 * bit-size register, one of a .fN type a .fN or bit-size register (a
 * wider .f64 is no place for an .f32 either).  ptxas refuses the rest
 * ("Arguments mismatch"). */
static bool int_type(int t) { return (t >= PTX_T_U8 && t <= PTX_T_U64) || (t >= PTX_T_S8 && t <= PTX_T_S64); }
static bool flt_type(int t) { return t == PTX_T_F16 || t == PTX_T_F32 || t == PTX_T_F64; }
static void check_class(actx *c, const isa_insn *in, const isa_opnd *e, const ptx_opnd *o, int t) {
  if (e->kind != OK_REG || e->n) return;
  int rt = c->regtype.v[e->v];
  bool bad = (int_type(t) && flt_type(rt)) || (flt_type(t) && int_type(rt)) ||
             (flt_type(t) && flt_type(rt) && rt != t);
  if (bad)
    err(c, o->loc, "register '%s' is .%s, a .%s operand of '%s' needs %s%s or bit-size register", reg_display(c, e->v),
        ptx_type_names[rt], ptx_type_names[t], opname_of(in), int_type(t) ? "an integer" : "a .",
        int_type(t) ? "" : ptx_type_names[t]);
}

/* An integer immediate must fit the instruction type, read as signed or as
 * unsigned.  Literals are 64-bit two's complement values (PTX manual,
 * "Integer Constants"): 0xffffffffffffffffU is -1, which a .u32 operand
 * takes as 0xffffffff, like ptxas.  A value that no n-bit number extends
 * to is reported: ptxas keeps its low n bits, which silently changes the
 * number written (70000 in a .u16 operand becomes 4464). */
static void check_imm(actx *c, const isa_opnd *e, const ptx_opnd *o, enum ptx_type t) {
  if (e->kind != OK_IMM || (e->flags & (OF_F32 | OF_F64))) return;
  int bits = ptx_type_bits(t);
  if (bits <= 1 || t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F32 || t == PTX_T_F64) return;
  if (o->kind == PO_INT && (o->flags & POF_OVERFLOW)) {
    err(c, o->loc, "immediate value %s out of range for .%s (more than 64 bits: ptxas would keep the low 64)", o->name, ptx_type_names[t]);
    return;
  }
  if (bits >= 64) return;
  int64_t v = e->imm;
  int64_t lo = -((int64_t)1 << (bits - 1)), hi = (int64_t)((1ull << bits) - 1);
  if (v < lo || v > hi)
    err(c, o->loc, "immediate value %s%llu out of range for .%s (ptxas would keep its low %d bits, %llu)",
        v < 0 && !(o->flags & POF_UNSIGNED) ? "-" : "",
        v < 0 && !(o->flags & POF_UNSIGNED) ? 0ull - (unsigned long long)v : (unsigned long long)v, ptx_type_names[t],
        bits, (unsigned long long)v & ((1ull << bits) - 1));
}

static bool is_float_type(int t) { return t == PTX_T_F32 || t == PTX_T_F64; }

/* Literals take the width of the instruction type: 1.5 in an f32 op is the
 * f32 pattern, an integer literal in a float op is that number as float. */
static void normalise_imm(isa_opnd *e, int t) {
  if (e->kind != OK_IMM) return;
  if (t == PTX_T_F32) {
    if (e->flags & OF_F64) { double d; uint64_t b = (uint64_t)e->imm; memcpy(&d, &b, 8); float f = (float)d; uint32_t x; memcpy(&x, &f, 4); e->imm = x; }
    else if (!(e->flags & OF_F32)) { float f = (float)e->imm; uint32_t x; memcpy(&x, &f, 4); e->imm = x; }
    e->flags = (uint8_t)((e->flags & ~(OF_F64 | OF_UNSIGNED)) | OF_F32);
  } else if (t == PTX_T_F64) {
    if (e->flags & OF_F32) { uint32_t x = (uint32_t)e->imm; float f; memcpy(&f, &x, 4); double d = f; memcpy(&e->imm, &d, 8); }
    else if (!(e->flags & OF_F64)) { double d = (double)e->imm; memcpy(&e->imm, &d, 8); }
    e->flags = (uint8_t)((e->flags & ~(OF_F32 | OF_UNSIGNED)) | OF_F64);
  }
}

/* A source: register of the width, or an immediate of the type. */
static void check_source(actx *c, isa_insn *in, int i, isa_opnd *e, const ptx_opnd *o, int t, int need, bool at_least) {
  if (e->kind == OK_IMM) { normalise_imm(e, t); check_imm(c, e, o, (enum ptx_type)t); return; }
  if (t == PTX_T_PRED && e->kind == OK_REG && reg_bits(c, e->v) != 1) {
    err(c, o->loc, "operand %d of '%s' must be a predicate", i + 1, opname_of(in));
    return;
  }
  if (e->kind == OK_REG) { if (!check_reg(c, in, e, o, need, at_least)) check_class(c, in, e, o, t); }
}

/* An operand (or element) that already had its error (undeclared name...). */
static bool reported(const isa_opnd *e, const isa_opnd *pool) {
  if (e->kind == OK_NONE) return true;
  if (e->kind == OK_VEC || e->kind == OK_PAIR)
    for (uint32_t k = 0; k < e->n; k++) if (reported(&pool[e->v + k], pool)) return true;
  return false;
}

/* A destination register of the width. */
static void check_dest(actx *c, isa_insn *in, int i, const isa_opnd *e, const ptx_opnd *o, int t, int need, bool at_least) {
  if (e->kind == OK_VEC || e->kind == OK_PAIR || e->kind == OK_SINK) return;
  if (e->kind != OK_REG) { err(c, o->loc, "operand %d of '%s' must be a register", i + 1, opname_of(in)); return; }
  if (t == PTX_T_PRED && reg_bits(c, e->v) != 1) { err(c, o->loc, "operand %d of '%s' must be a predicate", i + 1, opname_of(in)); return; }
  if (!check_reg(c, in, e, o, need, at_least)) check_class(c, in, e, o, t);
}

/* A brace list (or a whole vector register) has as many elements as the
 * instruction's .vN; mov packs or unpacks elements of one width that fill
 * its type (mov.b64 {lo, hi}: two 32-bit registers).  ptxas refuses both
 * mismatches. */
static void check_vec_count(actx *c, const isa_insn *in, int i, const isa_opnd *e, const ptx_opnd *o, int bits) {
  if (in->op != OP_MOV || in->vec > 1) {    /* ld.v4, mov.v4.b32 ... */
    if (in->vec > 1 && e->n != in->vec)
      err(c, o->loc, "operand %d of '%s' has %u elements, .v%u needs %u", i + 1, opname_of(in), e->n, in->vec, in->vec);
    return;
  }
  int w = 0;
  for (uint32_t k = 0; k < e->n; k++) {
    const isa_opnd *x = &c->pool.v[e->v + k];
    if (x->kind != OK_REG || x->n) continue;
    int xb = reg_bits(c, x->v);
    if (!w) w = xb;
    else if (xb != w) { err(c, o->loc, "operand %d of '%s' mixes registers of %d and %d bits", i + 1, opname_of(in), w, xb); return; }
  }
  if (w && (uint32_t)w * e->n != (uint32_t)bits)
    err(c, o->loc, "operand %d of '%s' has %u elements of %d bits, .%s needs %d bits", i + 1, opname_of(in), e->n, w,
        ptx_type_names[in->type], bits);
}

/* Operand signature letters (opcodes.def):
 *   d  destination register of the type         D  ... of twice the type
 *   e  destination, twice the type with .wide   w  destination at least as wide
 *   a  source of the type (register or immediate)  A  ... of twice the type
 *   c  source, twice the type with .wide        b  source of the second type
 *   u  32-bit source                            p  predicate destination
 *   q  predicate source (or immediate)          m  address
 *   v  data of ld/st/mov: register(s) at least as wide as the type, or an immediate
 *   l  label                                    x  anything */
static void check_operand(actx *c, isa_insn *in, int i, isa_opnd *e, const ptx_opnd *o, char sig) {
  int t1 = in->type, t2 = in->type2 ? in->type2 : in->type;
  int bits = ptx_type_bits((enum ptx_type)t1);
  bool wide = (in->flags & IF_WIDE) != 0;
  switch (sig) {
  case 'd': check_dest(c, in, i, e, o, t1, bits, false); return;
  case 'D': check_dest(c, in, i, e, o, t1, bits * 2, false); return;
  case 'e': check_dest(c, in, i, e, o, t1, wide ? bits * 2 : bits, false); return;
  case 'w': check_dest(c, in, i, e, o, t1, bits, true); return;
  case 'a': check_source(c, in, i, e, o, t1, bits, false); return;
  case 'A': check_source(c, in, i, e, o, t1, bits * 2, false); return;
  case 'c': check_source(c, in, i, e, o, t1, wide ? bits * 2 : bits, false); return;
  case 'b': check_source(c, in, i, e, o, t2, ptx_type_bits((enum ptx_type)t2), true); return;
  case 'u':
    if (e->kind == OK_IMM) { check_imm(c, e, o, PTX_T_U32); return; }
    if (e->kind == OK_REG && reg_bits(c, e->v) == 1) err(c, o->loc, "operand %d of '%s' must be a register", i + 1, opname_of(in));
    return;
  case 'p':
    if (e->kind == OK_PAIR || e->kind == OK_SINK) return;
    if (e->kind != OK_REG || reg_bits(c, e->v) != 1) err(c, o->loc, "operand %d of '%s' must be a predicate", i + 1, opname_of(in));
    return;
  case 'q':
    if (e->kind == OK_IMM) return;
    if (e->kind != OK_REG || reg_bits(c, e->v) != 1) err(c, o->loc, "operand %d of '%s' must be a predicate", i + 1, opname_of(in));
    return;
  case 'm':
    if (e->kind != OK_ADDR && e->kind != OK_ADDRX) err(c, o->loc, "operand %d of '%s' must be an address", i + 1, opname_of(in));
    return;
  case 'v':
    if (e->kind == OK_ADDR || e->kind == OK_ADDRX) { err(c, o->loc, "operand %d of '%s' must be a register", i + 1, opname_of(in)); return; }
    if (e->kind == OK_IMM) { normalise_imm(e, t1); check_imm(c, e, o, (enum ptx_type)t1); return; }
    /* ld/st take a register wider than the type; mov one of its width */
    if (e->kind == OK_REG && t1 != PTX_T_PRED) { if (!check_reg(c, in, e, o, bits, in->op != OP_MOV)) check_class(c, in, e, o, t1); }
    else if (e->kind == OK_REG && reg_bits(c, e->v) != 1) err(c, o->loc, "operand %d of '%s' must be a predicate", i + 1, opname_of(in));
    else if (e->kind == OK_VEC && in->op != OP_MOV)       /* ld.v4 {a, b, c, d}: each element */
      for (uint32_t k = 0; k < e->n && k < o->nsub; k++) {
        const isa_opnd *x = &c->pool.v[e->v + k];
        if (x->kind == OK_REG) { if (!check_reg(c, in, x, &o->sub[k], bits, true)) check_class(c, in, x, &o->sub[k], t1); }
      }
    else if (e->kind == OK_VEC && in->op != OP_MOV)       /* ld.v4 %v (a .v4 register): each element */
      for (uint32_t k = 0; k < e->n; k++) {
        const isa_opnd *x = &c->pool.v[e->v + k];
        if (x->kind == OK_REG) { if (!check_reg(c, in, x, o, bits, true)) check_class(c, in, x, o, t1); }
      }
    if (e->kind == OK_VEC) check_vec_count(c, in, i, e, o, bits);
    return;
  default:
    if (e->kind == OK_IMM && is_float_type(t1) && (in->op == OP_FMA)) normalise_imm(e, t1);
    return;
  }
}

/* ---- instructions ------------------------------------------------------------- */

/* ld/st/atom/red with a state space and a variable as the address: the
 * variable must live in that space (ld.global [a .shared variable] would
 * read some other memory).  Generic accesses take any variable. */
static void check_space(actx *c, const isa_insn *in, const isa_opnd *e, const ptx_opnd *o) {
  if (in->op != OP_LD && in->op != OP_ST && in->op != OP_ATOM && in->op != OP_RED && in->op != OP_LDU) return;
  int want;
  switch (in->space) {
  case MOD_GLOBAL: want = PTX_SPACE_GLOBAL; break;
  case MOD_SHARED: case MOD_SHARED_CTA: case MOD_SHARED_CLUSTER: want = PTX_SPACE_SHARED; break;
  case MOD_LOCAL: want = PTX_SPACE_LOCAL; break;
  case MOD_CONST: want = PTX_SPACE_CONST; break;
  case MOD_PARAM: case MOD_PARAM_ENTRY: case MOD_PARAM_FUNC: want = PTX_SPACE_PARAM; break;
  default: return;
  }
  const isa_opnd *b = e->kind == OK_ADDRX ? &c->pool.v[e->v] : e;
  uint32_t which = b->flags & (OF_MODSYM | OF_FUNCSYM);
  const char *name = NULL;
  int have = -1;
  if (which == OF_MODSYM && !(b->v & HOISTED) && b->v < c->mdecls.n) { have = c->mdecls.v[b->v]->space; name = c->mdecls.v[b->v]->name; }
  else if (which == OF_FUNCSYM && b->v < c->syms.n) { have = c->syms.v[b->v].space; name = c->syms.v[b->v].name; }
  if (have < 0 || have == want || have == PTX_SPACE_REG || !name) return;
  err(c, o->loc, "'%s' is a .%s variable, '%s.%s' cannot access it", name, ptx_space_names[have], opname_of(in),
      ptx_space_names[want]);
}

/* Floating-point and vector forms of atom/red, as the PTX ISA lists them
 * (and ptxas 13 accepts them): NULL, or why the form does not exist.  Vector
 * forms (sm_90, PTX 8.1) are .global or generic: .add .v2/.v4 .f32, and
 * .add/.min/.max .noftz .v2/.v4/.v8 .f16/.bf16 or .v2/.v4 .f16x2/.bf16x2;
 * scalar f16/bf16 forms are .add.noftz only; nothing else takes .noftz. */
static const char *atom_form_error(const isa_insn *t, uint32_t sm, uint32_t ver, bool has_sm, bool has_ptx) {
  bool half = t->type == PTX_T_F16 || t->type == PTX_T_BF16, packed = t->type == PTX_T_F16X2 || t->type == PTX_T_BF16X2;
  bool noftz = (t->flags & IF_NOFTZ) != 0, minmax = t->bop == MOD_MIN || t->bop == MOD_MAX;
  if (t->flags & IF_FTZ) return "does not take .ftz";
  if (t->vec > 1) {
    if (has_sm && sm < 90) return "with a vector type requires sm_90 or higher";
    if (has_ptx && ver < 81) return "with a vector type requires PTX ISA 8.1 or higher";
    if (t->space != 0 && t->space != MOD_GLOBAL) return "with a vector type takes only .global or generic addresses";
    if (t->type == PTX_T_F32) {
      if (t->bop != MOD_ADD) return "with a vector .f32 type takes only .add";
      if (t->vec > 4) return "takes .v2 or .v4 with .f32";
    } else if (half || packed) {
      if (t->bop != MOD_ADD && !minmax) return "with a vector f16/bf16 type takes only .add, .min or .max";
      if (packed && t->vec > 4) return "takes .v2 or .v4 with .f16x2/.bf16x2 (.v8 is for .f16/.bf16)";
    } else return "with a vector type takes only .f32, .f16, .bf16, .f16x2 or .bf16x2";
  } else if (half || packed) {
    if (t->bop != MOD_ADD) return minmax ? "with .min/.max on f16/bf16 types requires a vector type (.v2, .v4, .v8)"
                                         : "with an f16/bf16 type takes only .add";
    if (has_sm && sm < 90 && (t->type == PTX_T_BF16 || t->type == PTX_T_BF16X2)) return "with a bf16 type requires sm_90 or higher";
  } else if (minmax && (t->type == PTX_T_F32 || t->type == PTX_T_F64)) return "has no .min/.max on .f32/.f64";
  if ((half || packed) && !noftz) return "with an f16/bf16 type requires .noftz";
  if (!(half || packed) && noftz) return "takes .noftz only with f16/bf16 types";
  return NULL;
}

/* The decoded instruction of an opname, decoded and checked against the
 * target once; a bad one is reported at every use. */
static int template_for(actx *c, const ptx_insn *pi, ptx_loc loc, isa_insn *out) {
  uint32_t ti = ptrmap_get(&c->opcache, pi->opname);
  if (ti == PTRMAP_ABSENT) {
    isa_insn t;
    char msg[256];
    bool ok = isa_decode_opname(pi->opname, &t, msg, sizeof msg) == 0;
    if (ok) {
      /* without .target or .version (already an error) there is nothing to check against */
      const isa_opinfo *oi = &isa_ops[t.op];
      uint32_t sm = c->pm->sm, ver = c->pm->version_major * 10 + c->pm->version_minor;
      bool has_sm = c->pm->has_target, has_ptx = c->pm->has_version;
      const char *why;
      ok = false;
      if (has_sm && oi->min_sm > sm)
        snprintf(msg, sizeof msg, "'%s' requires sm_%u or higher (module targets sm_%u)", opword(c, t.op), oi->min_sm, sm);
      else if ((t.op == OP_WGMMA_MMA_ASYNC || t.op == OP_WGMMA_FENCE || t.op == OP_WGMMA_COMMIT_GROUP ||
                t.op == OP_WGMMA_WAIT_GROUP || t.op == OP_SETMAXNREG) && has_sm && c->pm->sm_suffix != 'a')
        snprintf(msg, sizeof msg, "'%s' requires sm_%ua (module targets sm_%u%s)", opword(c, t.op), sm < 90 ? 90 : sm, sm,
                 c->pm->sm_suffix == 'f' ? "f" : "");
      else if ((t.op == OP_LDMATRIX || t.op == OP_STMATRIX) && (t.type != PTX_T_B16 || t.shape_n != 8) && has_sm &&
               (sm < 100 || (c->pm->sm_suffix != 'a' && c->pm->sm_suffix != 'f')))
        /* the .b8 forms (.m16n16, .m8n16, .m16n8) are sm_100a-family only (ptxas 13 refuses them for sm_90a) */
        snprintf(msg, sizeof msg, "'%s' with .b8 elements or a .m16n16, .m8n16 or .m16n8 shape requires sm_100a (module targets sm_%u%s)",
                 opword(c, t.op), sm, c->pm->sm_suffix == 'a' ? "a" : c->pm->sm_suffix == 'f' ? "f" : "");
      else if ((t.op == OP_ST && t.space == MOD_CONST) ||
               ((t.op == OP_ATOM || t.op == OP_RED) && (t.space == MOD_CONST || t.space == MOD_PARAM || t.space == MOD_LOCAL)))
        snprintf(msg, sizeof msg, "'%s' does not allow the .%s state space", opword(c, t.op), isa_mods[t.space].name);
      else if ((t.op == OP_ATOM || t.op == OP_RED) && (why = atom_form_error(&t, sm, ver, has_sm, has_ptx)))
        snprintf(msg, sizeof msg, "'%s' %s", opword(c, t.op), why);
      else if (has_ptx && oi->min_ptx > ver)
        snprintf(msg, sizeof msg, "'%s' requires PTX ISA %u.%u or higher (module is %u.%u)", opword(c, t.op),
                 oi->min_ptx / 10, oi->min_ptx % 10, ver / 10, ver % 10);
      else ok = true;
    }
    ti = c->templates.n;
    VEC_PUSH(c->templates, t);
    VEC_PUSH(c->template_err, ok ? NULL : strtab_intern(c->names, msg, strlen(msg)));
    ptrmap_put(&c->opcache, pi->opname, ti);
  }
  if (c->template_err.v[ti]) { err(c, loc, "%s", c->template_err.v[ti]); return -1; }
  *out = c->templates.v[ti];
  return 0;
}

static const char *opnd_name(const ptx_opnd *o, char *buf, size_t len) {
  return (o->kind == PO_REG || o->kind == PO_SYM) && o->name ? ptx_opnd_name(o, buf, len) : "?";
}

/* tensormap.replace.tile.FIELD{.global,.shared::cta}.b1024.TYPE [addr], {ord,} new_val
 * (PTX ISA 8.3): one field; .b64 for .global_address and .global_stride,
 * .b32 otherwise; an immediate ordinal for the dimension fields (.box_dim,
 * .global_dim, .element_stride 0..4; .global_stride 0..3); an immediate from
 * the manual's table for .elemtype, .interleave_layout, .swizzle_mode,
 * .swizzle_atomicity and .fill_mode. */
static void check_tmap_replace(actx *c, isa_insn *in, const ptx_stmt *st, const ptx_opnd *ops) {
  static const struct { uint16_t mod; uint8_t kind; int16_t max; } fields[] = {   /* kind: 1 field1, 2 field2, 3 field3 */
    { MOD_GLOBAL_ADDRESS, 1, 0 }, { MOD_RANK, 1, 4 }, { MOD_BOX_DIM, 2, 4 }, { MOD_GLOBAL_DIM, 2, 4 },
    { MOD_GLOBAL_STRIDE, 2, 3 }, { MOD_ELEMENT_STRIDE, 2, 4 }, { MOD_ELEMTYPE, 3, 15 }, { MOD_INTERLEAVE_LAYOUT, 3, 2 },
    { MOD_SWIZZLE_MODE, 3, 4 }, { MOD_SWIZZLE_ATOMICITY, 3, 3 }, { MOD_FILL_MODE, 3, 1 },
  };
  int f = -1, nf = 0;
  bool tile = false, b1024 = false;
  for (int i = 0; i < in->ncomps; i++) {
    uint16_t m = in->comps[i];
    if (m < ISA_COMP_MOD) continue;
    m = (uint16_t)((m & ~ISA_COMP_JOINED) - ISA_COMP_MOD);
    if (m == MOD_TMAP_TILE) tile = true;
    if (m == MOD_B1024) b1024 = true;
    for (int k = 0; k < (int)(sizeof fields / sizeof fields[0]); k++)
      if (fields[k].mod == m) {
        if (nf++) { err(c, st->loc, "tensormap.replace takes one field, got .%s and .%s", isa_mods[fields[f].mod].name, isa_mods[m].name); return; }
        f = k;
      }
  }
  if (f < 0) {
    err(c, st->loc, "tensormap.replace needs a field (.global_address .rank .box_dim .global_dim .global_stride .element_stride "
                    ".elemtype .interleave_layout .swizzle_mode .swizzle_atomicity .fill_mode)");
    return;
  }
  const char *fn = isa_mods[fields[f].mod].name;
  /* targets: sm_90a, sm_100a... (ptxas refuses sm_90); .swizzle_atomicity
   * PTX 8.6 and sm_100a on; .elemtype 13..15 PTX 8.7 and sm_100a on;
   * .swizzle_mode 4 (96B) PTX 8.8 and sm_103a */
  uint32_t sm = c->pm->sm, ver = c->pm->version_major * 10 + c->pm->version_minor;
  bool has_sm = c->pm->has_target, has_ptx = c->pm->has_version;
  const char *sfx = c->pm->sm_suffix == 'a' ? "a" : c->pm->sm_suffix == 'f' ? "f" : "";
  if (has_sm && !*sfx) { err(c, st->loc, "tensormap.replace requires sm_90a or another arch-specific target (module targets sm_%u)", sm); return; }
  const isa_opnd *vv = &c->ops[in->opi + in->nops - 1];
  int64_t imm = vv->kind == OK_IMM ? vv->imm : -1;
  struct { bool when; uint32_t ptx, sm; const char *what, *target; } gate[] = {
    { fields[f].mod == MOD_SWIZZLE_ATOMICITY, 86, 100, ".swizzle_atomicity", "sm_100a" },
    { fields[f].mod == MOD_ELEMTYPE && imm >= 13 && imm <= 15, 87, 100, ".elemtype 13..15 (sub-byte types)", "sm_100a" },
    { fields[f].mod == MOD_SWIZZLE_MODE && imm == 4, 88, 103, ".swizzle_mode 4 (96B)", "sm_103a" },
  };
  for (int g = 0; g < 3; g++) {
    if (!gate[g].when) continue;
    if (has_ptx && ver < gate[g].ptx) {
      err(c, st->loc, "tensormap.replace%s requires PTX ISA %u.%u or higher (module is %u.%u)", gate[g].what,
          gate[g].ptx / 10, gate[g].ptx % 10, ver / 10, ver % 10);
      return;
    }
    if (has_sm && (sm < gate[g].sm || (gate[g].sm == 103 && sm != 103))) {
      err(c, st->loc, "tensormap.replace%s requires %s (module targets sm_%u%s)", gate[g].what, gate[g].target, sm, sfx);
      return;
    }
  }
  if (!tile) { err(c, st->loc, "tensormap.replace.%s needs the mode .tile", fn); return; }
  if (!b1024) { err(c, st->loc, "tensormap.replace.%s needs the map size .b1024", fn); return; }
  if (in->space && in->space != MOD_GLOBAL && in->space != MOD_SHARED_CTA) {
    err(c, st->loc, "tensormap.replace.%s: the state space is .global or .shared::cta (or none: generic), not .%s", fn, isa_mods[in->space].name);
    return;
  }
  bool wide = fields[f].mod == MOD_GLOBAL_ADDRESS || fields[f].mod == MOD_GLOBAL_STRIDE;
  if (in->type != (wide ? PTX_T_B64 : PTX_T_B32)) {
    err(c, st->loc, "tensormap.replace.%s takes .%s, not .%s", fn, wide ? "b64" : "b32", ptx_type_names[in->type]);
    return;
  }
  uint32_t want = fields[f].kind == 2 ? 3 : 2;
  if (in->nops != want) {
    err(c, st->loc, "tensormap.replace.%s expects %u operands (%s), got %u", fn, want,
        want == 3 ? "[addr], ord, new_val" : "[addr], new_val", (unsigned)in->nops);
    return;
  }
  const isa_opnd *o = &c->ops[in->opi];
  if (want == 3) {
    if (o[1].kind != OK_IMM || (o[1].flags & (OF_F32 | OF_F64))) { err(c, ops[1].loc, "tensormap.replace.%s: the ordinal must be an integer immediate", fn); return; }
    if (o[1].imm < 0 || o[1].imm > fields[f].max) {
      err(c, ops[1].loc, "tensormap.replace.%s: ordinal %lld is out of range (0..%d)", fn, (long long)o[1].imm, fields[f].max);
      return;
    }
  }
  const isa_opnd *v = &o[want - 1];
  if (fields[f].kind == 3) {
    if (v->kind != OK_IMM || (v->flags & (OF_F32 | OF_F64))) { err(c, ops[want - 1].loc, "tensormap.replace.%s: the new value must be an integer immediate", fn); return; }
    if (v->imm < 0 || v->imm > fields[f].max)
      err(c, ops[want - 1].loc, "tensormap.replace.%s: %lld is not a valid value (0..%d)", fn, (long long)v->imm, fields[f].max);
  } else if (fields[f].mod == MOD_RANK && v->kind == OK_IMM && (v->imm < 0 || v->imm > 4))
    err(c, ops[want - 1].loc, "tensormap.replace.rank: %lld is out of range (the rank minus 1: 0..4)", (long long)v->imm);
  else if (v->kind == OK_REG) check_reg(c, in, v, &ops[want - 1], wide ? 64 : 32, true);
  else if (v->kind == OK_ADDR || v->kind == OK_ADDRX || v->kind == OK_VEC || v->kind == OK_LIST) err(c, ops[want - 1].loc, "tensormap.replace.%s: the new value must be a register or an immediate", fn);
}

/* The types ld/st/ldu move (PTX manual, ld: .b, .u, .s of 8..64 bits,
 * .b128, .f32, .f64); half, 8-bit float and predicate data go as .bN. */
static bool ldst_type(int t) {
  return (t >= PTX_T_B8 && t <= PTX_T_B128) || (t >= PTX_T_U8 && t <= PTX_T_U64) ||
         (t >= PTX_T_S8 && t <= PTX_T_S64) || t == PTX_T_F32 || t == PTX_T_F64;
}

static void assemble_insn(actx *c, const ptx_stmt *st, uint32_t cur_loc) {
  const ptx_insn *pi = &st->u.insn;
  isa_insn in;
  if (template_for(c, pi, st->loc, &in)) return;
  const ptx_opnd *ops = pi->ops;
  uint32_t nops = pi->nops;
  const isa_opinfo *oi = &isa_ops[in.op];
  in.line = st->loc.line;
  in.col = (uint16_t)(st->loc.col > 65535 ? 65535 : st->loc.col);
  in.loc = cur_loc;
  char nbuf[96];
  if (pi->guard.kind == PO_REG) {
    isa_opnd e;
    if (resolve_name(c, &pi->guard, &e, R_REG) == 0) {
      if (e.kind != OK_REG || reg_bits(c, e.v) != 1)
        err(c, pi->guard.loc, "guard '%s' must be a predicate", ptx_opnd_name(&pi->guard, nbuf, sizeof nbuf));
      in.guard = (int32_t)e.v;
      in.guard_neg = (pi->guard.flags & POF_NEG) != 0;
    }
  }
  if (nops < oi->nops_min || nops > oi->nops_max) {
    err(c, st->loc, "'%s' expects %u operands, got %u", opword(c, in.op),
        nops < oi->nops_min ? oi->nops_min : oi->nops_max, nops);
    return;
  }
  in.nops = (uint8_t)nops;
  in.opi = c->nops;
  ptx_opnd callops[4];
  uint32_t target = 0;
  if (in.op == OP_CALL) {
    /* call [(rets),] target [, (args)] [, proto|table]: a parenthesised
     * single name or value, (r), is a list of one */
    for (uint32_t i = 0; i < pi->nops; i++) {
      callops[i] = ops[i];
      if ((ops[i].flags & POF_PAREN) && ops[i].kind != PO_LIST) {
        callops[i].kind = PO_LIST;
        callops[i].flags = 0;
        callops[i].nsub = 1;
        callops[i].sub = (ptx_opnd *)&ops[i];
      }
    }
    ops = callops;
    target = ops[0].kind == PO_LIST ? 1 : 0;
  }
  size_t siglen = strlen(oi->sig);
  for (uint32_t i = 0; i < nops; i++) {
    int role = R_ANY;
    char sig = i < siglen ? oi->sig[i] : 'x';
    if ((in.flags & IF_CACHE_HINT) && i + 1 == nops && i > 0) sig = 'x';   /* the .L2::cache_hint policy */
    if (sig == 'l') role = R_LABEL;
    if (in.op == OP_CALL) {
      if (i == target) role = R_CALL;
      if (i > target && ops[i].kind != PO_LIST) role = R_LABEL;
    }
    isa_opnd e;
    if (in.op != OP_CALL && (ops[i].flags & POF_PAREN) && (ops[i].kind == PO_REG || ops[i].kind == PO_SYM)) {
      /* (r) is a one-element list, which only call takes */
      char off[32] = "";
      if (ops[i].flags & POF_PLUS) snprintf(off, sizeof off, "+%lld", (long long)ops[i].ival);
      err(c, ops[i].loc, "'%s%s' is in parentheses: only a call's argument lists are, ptxas refuses it here (write it without them)",
          opnd_name(&ops[i], nbuf, sizeof nbuf), off);
      memset(&e, 0, sizeof e);
      c->ops[c->nops++] = e;
      continue;
    }
    int r = encode(c, &ops[i], &e, role);
    if (r) {                               /* an error, or a name resolved at the end */
      if (r == 1) add_fixup(c, false, c->nops, c->ninsns, (int)i, sig);
      else memset(&e, 0, sizeof e);
      c->ops[c->nops++] = e;
      continue;
    }
    if (role == R_LABEL && e.kind != OK_LABEL && e.kind != OK_FUNC && !(in.op == OP_CALL && e.kind == OK_REG))
      err(c, ops[i].loc, "undefined label '%s'", opnd_name(&ops[i], nbuf, sizeof nbuf));
    if (role == R_CALL && e.kind != OK_FUNC && e.kind != OK_REG)
      err(c, ops[i].loc, "undefined function '%s'", opnd_name(&ops[i], nbuf, sizeof nbuf));
    if (i == 0 && isa_writes_first(&in) && !reported(&e, c->pool.v) && !isa_dest_writable(&e, c->pool.v, c->pool.n))
      err(c, ops[i].loc, "operand 1 of '%s' must be a register", opname_of(&in));
    else if ((e.kind == OK_REG || e.kind == OK_SREG) && (e.flags & OF_OFFSET) && ((i == 0 && isa_writes_first(&in)) || oi->family == F_VIDEO || i >= ISA_MAX_OFFSET_OPND))
      err(c, ops[i].loc, "register '%s' cannot take an offset %s (ptxas refuses it)", e.kind == OK_SREG ? isa_sreg_names[e.v] : reg_display(c, e.v),
          i == 0 && isa_writes_first(&in) ? "as a destination" : oi->family == F_VIDEO ? "in a video instruction" : "this late in the operands");
    else check_operand(c, &in, (int)i, &e, &ops[i], sig);
    if (sig == 'm' && (e.kind == OK_ADDR || e.kind == OK_ADDRX)) check_space(c, &in, &e, &ops[i]);
    /* the PTX ISA lists [immAddr] for every space; ptxas takes it only in
     * .local (the frame), so a module that uses it elsewhere never runs */
    if (ops[i].kind == PO_ADDR && ops[i].nsub >= 1 && ops[i].sub[0].kind == PO_INT && in.space != MOD_LOCAL)
      err(c, ops[i].loc, "an immediate address is allowed only in the .local state space (ptxas refuses [%lld] in %s%s): "
          "address a variable or a register", (long long)ops[i].sub[0].ival, in.space ? "." : "a generic access",
          in.space ? isa_mods[in.space].name : "");
    c->ops[c->nops++] = e;
  }
  if (in.op == OP_TENSORMAP_REPLACE) check_tmap_replace(c, &in, st, ops);
  /* a tensor copy into shared memory signals its mbarrier: [dst], [tensorMap, coords], [mbar] ... */
  if (in.op == OP_CP_ASYNC_BULK_TENSOR && in.space != MOD_GLOBAL && nops < 3)
    err(c, st->loc, "'cp.async.bulk.tensor' into shared memory takes an mbarrier address as its third operand");
  if (in.op == OP_CVT) {   /* cvt converts typed values: no .bN among its types (cvt.pack's .b32 is its own opcode) */
    int bt = in.type >= PTX_T_B8 && in.type <= PTX_T_B128 ? in.type : in.type2 >= PTX_T_B8 && in.type2 <= PTX_T_B128 ? in.type2 : 0;
    if (bt)
      err(c, st->loc, "'cvt' does not convert .%s values: write .u%d or .s%d (ptxas refuses the type)", ptx_type_names[bt],
          ptx_type_bits((enum ptx_type)bt), ptx_type_bits((enum ptx_type)bt));
  }
  if ((in.op == OP_LD || in.op == OP_ST || in.op == OP_LDU) && !ldst_type(in.type)) {
    int b = ptx_type_bits((enum ptx_type)in.type);
    if (b > 1)
      err(c, st->loc, "'%s' does not move .%s data: write .b%d (ptxas refuses the type)", opname_of(&in), ptx_type_names[in.type], b);
    else
      err(c, st->loc, "'%s' does not move .%s data (ptxas refuses the type)", opname_of(&in), ptx_type_names[in.type]);
  }
  c->insns[c->ninsns++] = in;
}

/* ---- functions -------------------------------------------------------------- */

/* Parameters and return parameters: .param ones get a frame offset; .reg
 * ones (the pre-ABI convention) are registers with a symbol for the listing. */
static void declare_param(actx *c, const ptx_decl *d, uint64_t *frame) {
  if (d->space != PTX_SPACE_REG) { declare_fsym(c, d, frame); return; }
  declare_regs(c, d, false);            /* the header lists it */
  isa_sym s = { .name = d->name, .space = PTX_SPACE_REG, .type = d->type, .vec = d->vec, .size = elem_bytes(d) };
  VEC_PUSH(c->syms, s);
  VEC_PUSH(c->symdepth, depth(c));
}

static void declare_params(actx *c, isa_func *f, const ptx_func *pf) {
  uint64_t frame = 0;
  for (uint32_t i = 0; i < pf->nrets; i++) declare_param(c, &pf->rets[i], &frame);
  frame = 0;
  for (uint32_t i = 0; i < pf->nparams; i++) declare_param(c, &pf->params[i], &frame);
  f->nrets = pf->nrets;
  f->nparams = pf->nparams;
}

static void reset_func(actx *c) {
  ptrmap_clear(&c->regs); ptrmap_clear(&c->ranges); ptrmap_clear(&c->fsyms); ptrmap_clear(&c->regcache);
  ptrmap_clear(&c->labels); ptrmap_clear(&c->protos);
  c->undos.n = c->scope_marks.n = c->rangev.n = 0;
  c->blocks.n = c->nblocks = 0;
  c->ninsns = c->nops = c->pool.n = c->regtype.n = c->regname.n = c->regvec.n = 0;
  c->syms.n = c->recs.n = c->locs.n = c->tables.n = c->labelnames.n = c->labelpc.n = 0;
  c->regdepth.n = c->symdepth.n = 0;
  c->digit_singles = 0;
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
  /* room for every instruction and operand (fewer when some are refused) */
  uint32_t ni = 0, no = 0;
  for (uint32_t i = 0; i < pf->nstmts; i++)
    if (pf->stmts[i].kind == PS_INSN) { ni++; no += pf->stmts[i].u.insn.nops; }
  c->insns = arena_alloc(c->m->arena, (ni ? ni : 1) * sizeof *c->insns);
  c->ops = arena_alloc(c->m->arena, (no ? no : 1) * sizeof *c->ops);
  /* labels first: branches may jump forward */
  uint32_t pc = 0;
  for (uint32_t i = 0; i < pf->nstmts; i++) {
    const ptx_stmt *st = &pf->stmts[i];
    if (st->kind == PS_INSN) pc++;
    else if (st->kind == PS_OPEN) block_open(c);
    else if (st->kind == PS_CLOSE) block_close(c);
    else if (st->kind == PS_LABEL || st->kind == PS_BRANCHTARGETS || st->kind == PS_CALLTARGETS || st->kind == PS_CALLPROTO) {
      const char *name = st->kind == PS_LABEL ? st->u.label : st->kind == PS_CALLPROTO ? st->u.proto.label : st->u.targets.label;
      const char *key = st->kind != PS_CALLPROTO && c->blocks.n ? label_key(c, name, c->blocks.v[c->blocks.n - 1]) : name;
      if (ptrmap_get(&c->labels, key) != PTRMAP_ABSENT || ptrmap_get(&c->protos, name) != PTRMAP_ABSENT) {
        err(c, st->loc, "redeclaration of '%s'", name);
        continue;
      }
      if (st->kind == PS_CALLPROTO) {
        /* a prototype is a bodiless function of the module, found by its label */
        uint32_t fi = c->fv.n;
        isa_func z = {0};
        VEC_PUSH(c->fv, z);            /* f is the caller's scratch copy, not in this array */
        ptrmap_put(&c->protos, name, fi);
        isa_func *pfn = &c->fv.v[fi];
        pfn->name = name;
        pfn->is_proto = true;
        pfn->line = st->loc.line;
        pfn->nrets = st->u.proto.proto->nrets;
        pfn->nparams = st->u.proto.proto->nparams;
        isa_sym *ps = arena_alloc(c->m->arena, (pfn->nrets + pfn->nparams + 1) * sizeof *ps);
        for (uint32_t k = 0; k < pfn->nrets; k++) fill_sym(c, &ps[k], &st->u.proto.proto->rets[k]);
        for (uint32_t k = 0; k < pfn->nparams; k++) fill_sym(c, &ps[pfn->nrets + k], &st->u.proto.proto->params[k]);
        for (uint32_t k = 0; k < pfn->nrets + pfn->nparams; k++)
          if (ps[k].size > ISA_MAX_FRAME_BYTES) {    /* as a function's parameters (assemble_func) */
            const ptx_decl *d = k < pfn->nrets ? &st->u.proto.proto->rets[k] : &st->u.proto.proto->params[k - pfn->nrets];
            err(c, d->loc, "parameter '%s' of prototype '%s' has %llu bytes, more than 524288 (512 KiB, the stack of a thread)",
                d->name, name, (unsigned long long)ps[k].size);
          }
        pfn->syms = ps;
        pfn->nsyms = pfn->nrets + pfn->nparams;
        continue;
      }
      ptrmap_put(&c->labels, key, c->labelnames.n);
      VEC_PUSH(c->labelnames, name);
      VEC_PUSH(c->labelpc, pc);
    }
  }
  c->blocks.n = c->nblocks = 0;                 /* the second pass numbers the blocks again */
  uint32_t cur_loc = 0;
  for (uint32_t i = 0; i < pf->nstmts; i++) {
    const ptx_stmt *st = &pf->stmts[i];
    switch (st->kind) {
    case PS_INSN: assemble_insn(c, st, cur_loc); break;
    case PS_LABEL: {
      uint32_t lb = label_find(c, st->u.label);
      if (lb != PTRMAP_ABSENT) rec(c, REC_LABEL, lb, 0, st->loc.line, st->u.label);
      break;
    }
    case PS_DECL: {
      const ptx_decl *d = st->u.decl;
      if (is_static_space(d->space)) hoist(c, d);
      else if (d->space == PTX_SPACE_REG) declare_regs(c, d, true);
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
    case PS_OPEN: scope_open(c); block_open(c); rec(c, REC_OPEN, 0, 0, st->loc.line, NULL); break;
    case PS_CLOSE: scope_close(c); block_close(c); rec(c, REC_CLOSE, 0, 0, st->loc.line, NULL); break;
    case PS_BRANCHTARGETS: case PS_CALLTARGETS: {
      uint32_t lb = label_find(c, st->u.targets.label);
      if (lb == PTRMAP_ABSENT) break;
      isa_table t = { st->u.targets.label, st->u.targets.n, NULL, st->kind == PS_CALLTARGETS };
      t.pcs = arena_alloc(c->m->arena, (t.n ? t.n : 1) * sizeof *t.pcs);
      for (uint32_t k = 0; k < t.n; k++) {
        const ptx_opnd *o = &st->u.targets.names[k];
        if (t.calls) {
          uint32_t fi = ptrmap_get(&c->funcs, o->name);
          if (fi != PTRMAP_ABSENT) t.pcs[k] = fi;
          else {                       /* maybe declared further down */
            fixup x = { .o = *o, .func = c->cur_func, .table = c->tables.n + 1, .k = k, .role = R_CALL };
            VEC_PUSH(c->fixups, x);
          }
        } else {
          uint32_t l = label_find(c, o->name);
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
  f->ninsns = c->ninsns; f->insns = c->insns;
  f->nops = c->nops; f->ops = c->ops;
  f->npool = c->pool.n; FINISH(pool, pool);
  f->nregs = c->regtype.n; FINISH(regtype, regtype); FINISH(regname, regname);
  f->nsyms = c->syms.n; FINISH(syms, syms);
  f->nrecs = c->recs.n; FINISH(recs, recs);
  f->nlocs = c->locs.n; FINISH(locs, locs);
  f->ntables = c->tables.n; FINISH(tables, tables);
  f->nlabels = c->labelnames.n; FINISH(labels, labelnames); FINISH(label_pc, labelpc);
  f->local_bytes = c->local_frame;
  /* the limits of ptxas: 32764 bytes of kernel parameters, 512 KiB of local memory a thread */
  uint64_t pend = 0;
  for (uint32_t k = f->nrets; k < f->nrets + f->nparams && k < f->nsyms; k++)
    if (f->syms[k].space == PTX_SPACE_PARAM && f->syms[k].offset + f->syms[k].size > pend) pend = f->syms[k].offset + f->syms[k].size;
  if (f->is_entry && pend > ISA_MAX_KERNEL_PARAMS)
    err(c, pf->loc, "kernel '%s' has %llu bytes of parameters, more than 32764", f->name, (unsigned long long)pend);
  /* a function's parameters, return values and call arguments live in the
   * thread's stack (its local memory) in ptxemu: each area at most 512 KiB */
  for (uint32_t k = 0; k < f->nrets + f->nparams && k < f->nsyms; k++) {
    const isa_sym *y = &f->syms[k];
    if (f->is_entry && k >= f->nrets) break;
    if (y->offset + y->size <= ISA_MAX_FRAME_BYTES) continue;
    const ptx_decl *d = k < f->nrets ? &pf->rets[k] : &pf->params[k - f->nrets];
    err(c, d->loc, "%s '%s' of '%s' ends at byte %llu, more than 524288 (512 KiB, the stack of a thread)",
        k < f->nrets ? "return parameter" : "parameter", y->name, f->name, (unsigned long long)(y->offset + y->size));
    break;
  }
  if (c->param_frame > ISA_MAX_FRAME_BYTES)
    err(c, pf->loc, "'%s' declares %llu bytes of .param variables in its body, more than 524288 (512 KiB, the stack of a thread)",
        f->name, (unsigned long long)c->param_frame);
  if (c->local_frame > ISA_MAX_FRAME_BYTES)
    err(c, pf->loc, "'%s' needs %llu bytes of local memory a thread, more than 524288 (512 KiB)", f->name,
        (unsigned long long)c->local_frame);
  /* brx.idx names a .branchtargets table by its label */
  for (uint32_t i = 0; i < f->ninsns; i++) {
    const isa_insn *in = &f->insns[i];
    if ((in->op != OP_BRX_IDX && in->op != OP_CALL) || !in->nops) continue;
    isa_opnd *o = &f->ops[in->opi + in->nops - 1];
    if (o->kind != OK_LABEL) continue;
    uint32_t t = 0;
    while (t < f->ntables && (f->tables[t].name != f->labels[o->v] || f->tables[t].calls != (in->op == OP_CALL))) t++;
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

static void asm_begin(actx *c, isa_module *m, ptx_diag *diag) {
  memset(c, 0, sizeof *c);
  c->m = m;
  c->diag = diag;
  c->errors0 = diag->errors;
  m->arena = arena_new();
  ptrmap_init(&c->modsyms); ptrmap_init(&c->funcs); ptrmap_init(&c->opcache);
  ptrmap_init(&c->regs); ptrmap_init(&c->ranges); ptrmap_init(&c->fsyms);
  ptrmap_init(&c->labels); ptrmap_init(&c->protos); ptrmap_init(&c->regcache);
}

/* Assemble one function (declaration or definition) into slot fi. */
static void assemble_into(actx *c, uint32_t fi, const ptx_func *pf) {
  isa_func tmp;
  memset(&tmp, 0, sizeof tmp);
  c->cur_func = fi;
  assemble_func(c, &tmp, pf);
  c->fv.v[fi] = tmp;
}

/* One module statement, in source order. */
static void asm_stmt(actx *c, const ptx_modstmt *ms) {
  switch (ms->kind) {
  case PM_FUNC: {
    const ptx_func *pf = ms->u.func;
    uint32_t fi = ptrmap_get(&c->funcs, pf->name);
    if (fi != PTRMAP_ABSENT) {                   /* a definition replaces a declaration */
      if (c->pfuncs.v[fi]->has_body && pf->has_body) err(c, pf->loc, "redeclaration of '%s'", pf->name);
      else if (pf->has_body) { c->pfuncs.v[fi] = pf; assemble_into(c, fi, pf); }
      return;
    }
    if (ptrmap_get(&c->modsyms, pf->name) != PTRMAP_ABSENT) { err(c, pf->loc, "redeclaration of '%s'", pf->name); return; }
    fi = c->fv.n;
    isa_func z = {0};
    VEC_PUSH(c->fv, z);
    ptrmap_put(&c->funcs, pf->name, fi);
    while (c->pfuncs.n < fi) VEC_PUSH(c->pfuncs, NULL);     /* callprototype slots */
    VEC_PUSH(c->pfuncs, pf);
    assemble_into(c, fi, pf);
    return;
  }
  case PM_VAR: {
    const ptx_decl *d = ms->u.var;
    uint32_t si = ptrmap_get(&c->modsyms, d->name);
    if (si != PTRMAP_ABSENT || ptrmap_get(&c->funcs, d->name) != PTRMAP_ABSENT) {
      bool ext = si != PTRMAP_ABSENT && ((c->msyms.v[si].linkage | d->linkage) & (PTX_LINK_EXTERN | PTX_LINK_WEAK | PTX_LINK_COMMON));
      if (!ext) { err(c, d->loc, "redeclaration of '%s'", d->name); return; }
      if (!(d->linkage & PTX_LINK_EXTERN)) c->mdecls.v[si] = d;   /* the definition wins */
      return;
    }
    isa_sym s;
    memset(&s, 0, sizeof s);
    s.linkage = d->linkage;
    ptrmap_put(&c->modsyms, d->name, c->msyms.n);
    VEC_PUSH(c->msyms, s);
    VEC_PUSH(c->mdecls, d);
    return;
  }
  case PM_FILE: {
    isa_file fl = { ms->u.file.id, ms->u.file.path, ms->u.file.mtime, ms->u.file.size };
    VEC_PUSH(c->files, fl);
    return;
  }
  case PM_SECTION: VEC_PUSH(c->sections, ms->u.section); return;
  case PM_PRAGMA: VEC_PUSH(c->mpragmas, ms->u.pragma); return;
  case PM_ALIAS: VEC_PUSH(c->aliases, *ms); return;
  }
}

/* .alias NAME, TARGET: NAME is a declared prototype, TARGET a function. */
static void resolve_aliases(actx *c) {
  for (uint32_t i = 0; i < c->fv.n; i++) VEC_PUSH(c->alias, PTRMAP_ABSENT);
  for (uint32_t i = 0; i < c->aliases.n; i++) {
    const ptx_modstmt *ms = &c->aliases.v[i];
    uint32_t fi = ptrmap_get(&c->funcs, ms->u.alias.name);
    uint32_t ti = ptrmap_get(&c->funcs, ms->u.alias.target);
    if (fi == PTRMAP_ABSENT) err(c, ms->loc, "undefined function '%s'", ms->u.alias.name);
    else if (ti == PTRMAP_ABSENT) err(c, ms->u.alias.target_loc, "undefined function '%s'", ms->u.alias.target);
    else if (c->pfuncs.v[fi]->has_body || fi == ti || c->alias.v[fi] != PTRMAP_ABSENT)
      err(c, ms->loc, "redeclaration of '%s'", ms->u.alias.name);
    else c->alias.v[fi] = func_target(c, ti);
  }
}

/* Operands that name an alias name its target (aliases may come last). */
static void apply_aliases(actx *c) {
  if (!c->aliases.n) return;
  for (uint32_t i = 0; i < c->fv.n; i++) {
    isa_func *f = &c->fv.v[i];
    if (c->alias.v[i] != PTRMAP_ABSENT) f->alias_of = c->alias.v[i] + 1;
    for (uint32_t pass = 0; pass < 2; pass++) {
      isa_opnd *v = pass ? f->pool : f->ops;
      uint32_t n = pass ? f->npool : f->nops;
      for (uint32_t k = 0; k < n; k++) {
        isa_opnd *o = &v[k];
        if (o->kind == OK_FUNC && !(o->flags & OF_FUNCSYM)) o->v = func_target(c, o->v);
        else if ((o->kind == OK_ADDR || o->kind == OK_SYM) && (o->flags & (OF_MODSYM | OF_FUNCSYM)) == (OF_MODSYM | OF_FUNCSYM))
          o->v = func_target(c, o->v);
      }
    }
    for (uint32_t t = 0; t < f->ntables; t++)
      if (f->tables[t].calls) for (uint32_t k = 0; k < f->tables[t].n; k++) f->tables[t].pcs[k] = func_target(c, f->tables[t].pcs[k]);
  }
}

/* Hoisted variables follow the module-scope ones: their operands and
 * listing records get their final index. */
static void place_hoisted(actx *c) {
  if (!c->hsyms.n) return;
  uint32_t base = c->msyms.n;
  for (uint32_t h = 0; h < c->hoisters.n; h++) {       /* only a body that declares one names one */
    isa_func *f = &c->fv.v[c->hoisters.v[h]];
    for (uint32_t pass = 0; pass < 2; pass++) {
      isa_opnd *v = pass ? f->pool : f->ops;
      uint32_t n = pass ? f->npool : f->nops;
      for (uint32_t k = 0; k < n; k++)
        if ((v[k].kind == OK_ADDR || v[k].kind == OK_SYM) && (v[k].flags & (OF_MODSYM | OF_FUNCSYM)) == OF_MODSYM &&
            (v[k].v & HOISTED))
          v[k].v = base + (v[k].v & ~HOISTED);
    }
    for (uint32_t k = 0; k < f->nrecs; k++)
      if (f->recs[k].kind == REC_MSYM) f->recs[k].a = base + (f->recs[k].a & ~HOISTED);
  }
}

/* Names a body used before their declaration, now that all are known. */
static void resolve_fixups(actx *c) {
  for (uint32_t i = 0; i < c->fixups.n; i++) {
    fixup *x = &c->fixups.v[i];
    isa_func *f = &c->fv.v[x->func];
    const char *name = x->o.name;
    uint32_t si = ptrmap_get(&c->modsyms, name), fi = ptrmap_get(&c->funcs, name);
    if (x->table) {
      if (fi == PTRMAP_ABSENT) err(c, x->o.loc, "undefined function '%s'", name);
      else f->tables[x->table - 1].pcs[x->k] = fi;
      continue;
    }
    if (si == PTRMAP_ABSENT && fi == PTRMAP_ABSENT) {
      err(c, x->o.loc, x->role == R_CALL ? "undefined function '%s'" : "undeclared identifier '%s'", name);
      continue;
    }
    isa_opnd *e = x->pool ? &f->pool[x->at] : &f->ops[x->at];
    if (x->addr) {                   /* [name+off]: the offset is in place */
      e->flags = si != PTRMAP_ABSENT ? OF_MODSYM : OF_MODSYM | OF_FUNCSYM;
      e->v = si != PTRMAP_ABSENT ? si : fi;
      continue;
    }
    isa_opnd r = {0};
    if (si != PTRMAP_ABSENT) { r.kind = OK_SYM; r.flags = OF_MODSYM; r.v = si; r.imm = x->o.ival; }
    else { r.kind = OK_FUNC; r.v = fi; }
    if (x->o.flags & POF_NEG) r.flags |= OF_NEG;
    if (x->o.flags & POF_MINUS) { err(c, x->o.loc, "invalid operand '-%s'", name); continue; }
    *e = r;
    if (!x->sig) continue;
    if (x->role == R_CALL && r.kind != OK_FUNC) err(c, x->o.loc, "undefined function '%s'", name);
    check_operand(c, &f->insns[x->insn], x->opi, e, &x->o, x->sig);
  }
}

/* A register passed for a .reg parameter (or taking a .reg return value)
 * has the parameter's width, element by element for a vector, and only a
 * predicate goes with a .pred: ptxas's rule (a .b32 takes a .f32 register,
 * not a .b64 or .b16 one).  True when it reported a mismatch. */
static bool check_reg_arg(actx *c, const isa_func *f, const isa_func *g, ptx_loc at, const isa_opnd *o, const isa_sym *want,
                          const char *what) {
  uint32_t n = o->kind == OK_VEC ? o->n : 1;
  for (uint32_t k = 0; k < n; k++) {
    const isa_opnd *r = o->kind == OK_VEC ? &f->pool[o->v + k] : o;
    if (r->kind != OK_REG || r->v >= f->nregs) continue;
    int have = f->regtype[r->v];
    bool hp = have == PTX_T_PRED, wp = want->type == PTX_T_PRED;
    if (hp == wp && ptx_type_bits((enum ptx_type)have) == ptx_type_bits((enum ptx_type)want->type)) continue;
    err(c, at, "call of '%s': %s '%s' is a .%s register, the call passes a .%s register (ptxas takes only one of the same width%s)",
        g->name, what, want->name, ptx_type_names[want->type], ptx_type_names[have], hp || wp ? ", and a predicate only for a .pred" : "");
    return true;
  }
  return false;
}

/* A direct call must pass as many arguments and return values as the
 * callee declares, each .param as large as the callee's. */
static void check_calls(actx *c) {
  for (uint32_t fi = 0; fi < c->fv.n; fi++) {
    const isa_func *f = &c->fv.v[fi];
    for (uint32_t i = 0; i < f->ninsns; i++) {
      const isa_insn *in = &f->insns[i];
      if (in->op != OP_CALL || !in->nops) continue;
      const isa_opnd *ops = &f->ops[in->opi];
      uint32_t k = 0;
      const isa_opnd *rets = ops[0].kind == OK_LIST ? &ops[k++] : NULL, *tgt = &ops[k++];
      const isa_opnd *args = k < in->nops && ops[k].kind == OK_LIST ? &ops[k] : NULL;
      if (tgt->kind != OK_FUNC || tgt->v >= c->fv.n) continue;
      const isa_func *g = &c->fv.v[tgt->v];
      ptx_loc at = { in->line, in->col };
      uint32_t nr = rets ? rets->n : 0, na = args ? args->n : 0;
      if (nr != g->nrets || na != g->nparams) {
        err(c, at, "call of '%s' passes %u argument%s and %u return value%s, '%s' takes %u and returns %u", g->name,
            na, na == 1 ? "" : "s", nr, nr == 1 ? "" : "s", g->name, g->nparams, g->nrets);
        continue;
      }
      for (uint32_t j = 0; j < nr + na; j++) {
        const isa_opnd *o = j < nr ? &f->pool[rets->v + j] : &f->pool[args->v + j - nr];
        const isa_sym *want = &g->syms[j];
        if (want->space == PTX_SPACE_REG && (o->kind == OK_VEC || want->vec > 1) &&
            (o->kind != OK_VEC || o->n != want->vec || o->n < 2)) {   /* a vector register for a vector .reg parameter */
          err(c, at, "call of '%s': %s '%s' is %s, the call passes %s", g->name, j < nr ? "return value" : "parameter", want->name,
              want->vec > 1 ? (want->vec == 2 ? "a .v2 register" : "a .v4 register") : "a scalar register",
              o->kind != OK_VEC ? "no vector register" : o->n == 2 ? "a .v2 register" : "a .v4 register");
          continue;
        }
        if (want->space == PTX_SPACE_REG && check_reg_arg(c, f, g, at, o, want, j < nr ? "return value" : "parameter")) continue;
        if (o->kind != OK_SYM || (o->flags & (OF_MODSYM | OF_FUNCSYM)) != OF_FUNCSYM || o->v >= f->nsyms) continue;
        const isa_sym *have = &f->syms[o->v];
        if (have->size != want->size || have->space != want->space)
          err(c, at, "call of '%s': %s '%s' is .%s (%llu bytes), the call passes '%s' (.%s, %llu bytes)", g->name,
              j < nr ? "return value" : "parameter", want->name, ptx_space_names[want->space],
              (unsigned long long)want->size, have->name, ptx_space_names[have->space], (unsigned long long)have->size);
      }
    }
  }
}

static isa_module *asm_end(actx *c) {
  isa_module *m = c->m;
  const ptx_module *pm = c->pm;
  resolve_aliases(c);
  /* module variables: initialisers may name any variable or function */
  for (uint32_t i = 0; i < c->msyms.n; i++) fill_sym(c, &c->msyms.v[i], c->mdecls.v[i]);
  resolve_fixups(c);
  apply_aliases(c);
  check_calls(c);
  place_hoisted(c);
  m->path = arena_strndup(m->arena, pm->path, strlen(pm->path));
  m->version = pm->version_major * 10 + pm->version_minor;
  m->sm = pm->sm;
  m->sm_suffix = pm->sm_suffix;
  m->texmode_independent = pm->texmode_independent;
  m->debug = pm->debug;
  m->address_size = pm->address_size;
  m->nsyms = c->msyms.n + c->hsyms.n;
  m->syms = arena_alloc(m->arena, (m->nsyms ? m->nsyms : 1) * sizeof *m->syms);
  if (c->msyms.n) memcpy(m->syms, c->msyms.v, c->msyms.n * sizeof *c->msyms.v);
  if (c->hsyms.n) memcpy(m->syms + c->msyms.n, c->hsyms.v, c->hsyms.n * sizeof *c->hsyms.v);
  m->nfiles = c->files.n; m->files = arena_copy(c, c->files.v, c->files.n * sizeof *c->files.v);
  m->nsections = c->sections.n; m->sections = arena_copy(c, c->sections.v, c->sections.n * sizeof *c->sections.v);
  m->nmpragmas = c->mpragmas.n; m->mpragmas = arena_copy(c, c->mpragmas.v, c->mpragmas.n * sizeof *c->mpragmas.v);
  m->nfuncs = c->fv.n;
  m->funcs = c->fv.v ? c->fv.v : calloc(1, sizeof *m->funcs);      /* isa_module_free frees it */
  c->fv.v = NULL;
  VEC_FREE(c->msyms); VEC_FREE(c->hsyms); VEC_FREE(c->hoisters); VEC_FREE(c->mdecls); VEC_FREE(c->pfuncs); VEC_FREE(c->files); VEC_FREE(c->sections);
  VEC_FREE(c->mpragmas); VEC_FREE(c->aliases); VEC_FREE(c->fixups);
  VEC_FREE(c->templates); VEC_FREE(c->template_err); VEC_FREE(c->alias);
  VEC_FREE(c->undos); VEC_FREE(c->scope_marks); VEC_FREE(c->rangev);
  VEC_FREE(c->pool); VEC_FREE(c->regtype); VEC_FREE(c->regname); VEC_FREE(c->regvec); VEC_FREE(c->syms);
  VEC_FREE(c->recs); VEC_FREE(c->locs); VEC_FREE(c->tables); VEC_FREE(c->labelnames); VEC_FREE(c->labelpc); VEC_FREE(c->blocks);
  VEC_FREE(c->regdepth); VEC_FREE(c->symdepth); VEC_FREE(c->hoistdepth);
  ptrmap_fini(&c->modsyms); ptrmap_fini(&c->funcs); ptrmap_fini(&c->opcache);
  ptrmap_fini(&c->regs); ptrmap_fini(&c->ranges); ptrmap_fini(&c->fsyms);
  ptrmap_fini(&c->labels); ptrmap_fini(&c->protos); ptrmap_fini(&c->regcache);
  ptx_diag_flush(c->diag);       /* parse and assembly errors, in source order */
  if (c->diag->errors != c->errors0) { isa_module_free(m); return NULL; }
  /* every name in m points into the parser's string arena: adopt it */
  m->strings = pm->names->arena;
  pm->names->arena = NULL;
  isa_resources(m);
  return m;
}

isa_module *isa_assemble(const ptx_module *pm, ptx_diag *diag) {
  isa_module *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  actx c;
  asm_begin(&c, m, diag);
  c.pm = pm;
  c.names = pm->names;
  for (uint32_t i = 0; i < pm->nstmts; i++) asm_stmt(&c, &pm->stmts[i]);
  return asm_end(&c);
}

static void consume(void *ctx, const ptx_module *pm, const ptx_modstmt *ms) {
  actx *c = ctx;
  c->pm = pm;
  c->names = pm->names;
  asm_stmt(c, ms);
}

isa_module *isa_assemble_ptx(char *buf, size_t len, const char *path, ptx_diag *diag) {
  isa_module *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  actx c;
  asm_begin(&c, m, diag);
  ptx_consumer cons = { &c, consume };
  ptx_module *pm = ptx_parse_stream(buf, len, path, diag, &cons);
  if (!pm) { c.pm = NULL; isa_module_free(m); return NULL; }
  c.pm = pm;
  c.names = pm->names;
  m = asm_end(&c);
  ptx_module_free(pm);
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
