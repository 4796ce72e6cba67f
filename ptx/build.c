/* ptx/build.c - semantic actions of the grammar (see build.h). */
#include "ptx/build.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void) { fputs("ptxemu: out of memory\n", stderr); exit(70); }

/* Grow a malloc'd scratch array to hold at least need elements. */
static void *grow(void *p, uint32_t *cap, uint32_t need, size_t elem, uint32_t first) {
  if (need <= *cap) return p;
  uint32_t nc = *cap ? *cap : first;
  while (nc < need) nc *= 2;
  p = realloc(p, (size_t)nc * elem);
  if (!p) oom();
  *cap = nc;
  return p;
}

const char *ptx_b_intern(ptx_pstate *ps, const char *s, uint32_t n) {
  return strtab_intern(ps->names, s, n);
}

/* ---- module directives ------------------------------------------------ */

static void push_mstmt(ptx_pstate *ps, const ptx_modstmt *m) {
  ps->mstmts = grow(ps->mstmts, &ps->capmstmts, ps->nmstmts + 1, sizeof *ps->mstmts, 64);
  ps->mstmts[ps->nmstmts++] = *m;
  if (ps->cons && m->kind != PM_FUNC) ps->cons->stmt(ps->cons->ctx, ps->mod, &ps->mstmts[ps->nmstmts - 1]);
}

/* A bad .version is reported once and then taken as the newest version, so
 * that neither "missing .version" nor "requires PTX ISA" errors follow. */
static void set_version(ptx_pstate *ps, ptx_loc loc, uint32_t maj, uint32_t min) {
  if (ps->mod->has_version) {
    ptx_error(ps->diag, loc, "duplicate .version directive (first at line %u)", ps->mod->version_loc.line);
    return;
  }
  /* versions are X.Y with one digit each (1.0 .. 9.x): 8.10 would compare as 9.0 */
  if (maj < 1 || maj > 9 || min > 9) {
    ptx_error(ps->diag, loc, "unsupported PTX ISA version %u.%u", maj, min);
    maj = min = 9;
  }
  ps->mod->version_major = maj;
  ps->mod->version_minor = min;
  ps->mod->has_version = true;
  ps->mod->version_loc = loc;
}

/* MAJOR.MINOR, digits only (not 8.5e1, 1e3 or a word) */
void ptx_b_version(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n) {
  uint32_t maj = 0, min = 0, i = 0, d1 = 0, d2 = 0;
  for (; i < n && s[i] >= '0' && s[i] <= '9' && d1 < 3; i++, d1++) maj = maj * 10 + (uint32_t)(s[i] - '0');
  bool ok = d1 > 0 && i < n && s[i] == '.';
  for (i++; ok && i < n && s[i] >= '0' && s[i] <= '9' && d2 < 3; i++, d2++) min = min * 10 + (uint32_t)(s[i] - '0');
  if (!ok || d2 == 0 || i != n) {
    ptx_error(ps->diag, loc, "invalid .version '%.*s' (want MAJOR.MINOR)", (int)(n > 40 ? 40 : n), s);
    maj = min = 9;
    if (ps->mod->has_version) return;
  }
  set_version(ps, loc, maj, min);
}

void ptx_b_address_size(ptx_pstate *ps, ptx_loc loc, uint32_t bits) {
  if (bits != 32 && bits != 64) ptx_error(ps->diag, loc, ".address_size must be 32 or 64, not %u", bits);
  else ps->mod->address_size = bits;
}

/* An unsigned number of a directive or declaration (array dimension,
 * alignment, register count, .maxntid...): 32 bits at most, checked here
 * where it enters rather than cut to its low half. */
uint32_t ptx_b_uint(ptx_pstate *ps, ptx_loc loc, const ptx_num *n) {
  if (n->ovf || n->v > UINT32_MAX) {
    ptx_error(ps->diag, loc, "value %.*s out of range (at most 4294967295)", (int)(n->len > 40 ? 40 : n->len), n->text ? n->text : "");
    return 0;
  }
  return (uint32_t)n->v;
}

/* .maxntid/.reqntid/.reqnctapercluster X[, Y[, Z]] (in ps->dims): each at
 * least 1, and no more threads than a block can have (limit, 0: none). */
void ptx_b_check_dims(ptx_pstate *ps, ptx_loc loc, const char *what, uint32_t limit) {
  uint64_t prod = 1;
  for (uint32_t i = 0; i < ps->ndims; i++) {
    if (!ps->dims[i]) { ptx_error(ps->diag, loc, "'.%s' dimensions must be at least 1", what); return; }
    prod *= ps->dims[i];
  }
  if (limit && prod > limit)
    ptx_error(ps->diag, loc, "'.%s' of %llu threads, more than %u", what, (unsigned long long)prod, limit);
}

void ptx_b_version_int(ptx_pstate *ps, ptx_loc loc, uint64_t v) {
  set_version(ps, loc, (uint32_t)v, 0);
}

/* An unknown architecture is reported once; the module then counts as
 * having a target that allows everything, so no "missing .target" or
 * "requires sm_XX" errors follow. */
static void bad_target(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n) {
  ptx_module *m = ps->mod;
  ptx_error(ps->diag, loc, "unknown target '%.*s'", (int)(n > 40 ? 40 : n), s);
  if (m->has_target) return;
  m->sm = 999;
  m->sm_suffix = 'a';
  m->has_target = true;
  m->target_loc = loc;
}

/* .attribute(.managed) / .attribute(.unified(...)): accepted, nothing to
 * keep (the emulator's memory serves host and device alike). */
void ptx_b_var_attribute(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n) {
  if (n && *s == '.') { s++; n--; }
  if ((n == 7 && memcmp(s, "managed", 7) == 0) || (n == 7 && memcmp(s, "unified", 7) == 0)) return;
  ptx_error(ps->diag, loc, "unknown variable attribute '.%.*s' (PTX has .managed and .unified)", (int)(n > 40 ? 40 : n), s);
}

void ptx_b_target(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n) {
  ptx_module *m = ps->mod;
  if (n > 3 && memcmp(s, "sm_", 3) == 0) {
    uint32_t v = 0, i = 3;
    for (; i < n && s[i] >= '0' && s[i] <= '9' && v < 10000; i++) v = v * 10 + (uint32_t)(s[i] - '0');
    if (i == 3 || (i < n && !(i + 1 == n && (s[i] == 'a' || s[i] == 'f')))) {
      bad_target(ps, loc, s, n);
      return;
    }
    m->sm = v;
    m->sm_suffix = i < n ? s[i] : 0;
    m->has_target = true;
    m->target_loc = loc;
  } else if (n == 19 && memcmp(s, "texmode_independent", n) == 0) m->texmode_independent = true;
  else if (n == 15 && memcmp(s, "texmode_unified", n) == 0) m->texmode_independent = false;
  else if (n == 5 && memcmp(s, "debug", n) == 0) m->debug = true;
  else if (n == 14 && memcmp(s, "map_f64_to_f32", n) == 0) m->map_f64_to_f32 = true;
  else bad_target(ps, loc, s, n);
}

void ptx_b_file(ptx_pstate *ps, ptx_loc loc, uint32_t id, const char *s, uint32_t n, uint64_t mtime, uint64_t size) {
  ptx_modstmt m = { .kind = PM_FILE, .loc = loc };
  m.u.file.id = id;
  m.u.file.path = ptx_b_intern(ps, s, n);
  m.u.file.mtime = mtime;
  m.u.file.size = size;
  push_mstmt(ps, &m);
}

void ptx_b_mod_pragma(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n) {
  ptx_modstmt m = { .kind = PM_PRAGMA, .loc = loc };
  m.u.pragma = ptx_b_intern(ps, s, n);
  push_mstmt(ps, &m);
}

void ptx_b_section(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n) {
  /* s is ".section NAME": keep the name only; contents are debug data. */
  const char *p = s + 8;
  while (*p == ' ' || *p == '\t') p++;
  ptx_modstmt m = { .kind = PM_SECTION, .loc = loc };
  m.u.section = ptx_b_intern(ps, p, (uint32_t)(n - (uint32_t)(p - s)));
  push_mstmt(ps, &m);
}

void ptx_b_alias(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n, ptx_loc tloc, const char *t, uint32_t tn) {
  ptx_modstmt m = { .kind = PM_ALIAS, .loc = loc };
  m.u.alias.name = ptx_b_intern(ps, s, n);
  m.u.alias.target = ptx_b_intern(ps, t, tn);
  m.u.alias.target_loc = tloc;
  push_mstmt(ps, &m);
}

/* ---- declarations ------------------------------------------------------ */

void ptx_b_attrs_start(ptx_attrs *a, ptx_loc loc) {
  memset(a, 0, sizeof *a);
  a->vec = 1;
  a->loc = loc;
}

/* The lexer has looked the word up: code says what it is. */
void ptx_b_attr(ptx_attrs *a, uint32_t code) {
  uint8_t v = (uint8_t)(code & 0xff);
  switch (code >> 8) {
  case PTX_ATTR_SPACE: if (a->after_ptr) a->ptr_space = v; else a->space = v; break;
  case PTX_ATTR_TYPE: a->type = v; break;
  case PTX_ATTR_VEC: a->vec = v; break;
  case PTX_ATTR_LINK: a->linkage |= v; break;
  }
}

ptx_decl *ptx_b_declname(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n) {
  ptx_decl *d = arena_alloc(ps->arena, sizeof *d);
  d->loc = loc;
  d->name = ptx_b_intern(ps, s, n);
  d->vec = 1;
  return d;
}

void ptx_b_dim(ptx_pstate *ps, ptx_decl *d, ptx_loc loc, uint32_t size, bool open) {
  if (d->ndims >= 4) { ptx_error(ps->diag, loc, "too many array dimensions"); return; }
  if (open) {
    if (d->ndims) { ptx_error(ps->diag, loc, "only the first array dimension may be left open"); return; }
    d->dim_open = true;
  }
  d->dims[d->ndims++] = size;
}

void ptx_b_dl_push(ptx_pstate *ps, ptx_decllist *l, ptx_decl *d) {
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 4;
    l->v = arena_grow(ps->arena, l->v, l->n * sizeof *l->v, nc * sizeof *l->v);
    l->cap = nc;
  }
  l->v[l->n++] = d;
}

static void apply_attrs(ptx_decl *d, const ptx_attrs *a) {
  d->space = a->space;
  d->type = a->type;
  d->vec = a->vec ? a->vec : 1;
  d->linkage = a->linkage;
  d->align = a->align;
  d->is_ptr = a->is_ptr;
  d->ptr_space = a->ptr_space;
  d->ptr_align = a->ptr_align;
}

static bool check_decl(ptx_pstate *ps, const ptx_attrs *a, ptx_loc loc) {
  if (a->space == PTX_SPACE_NONE) { ptx_error(ps->diag, loc, "declaration without a state space"); return false; }
  if (a->type == PTX_T_NONE) { ptx_error(ps->diag, loc, "declaration without a type"); return false; }
  return true;
}

void ptx_b_param(ptx_pstate *ps, ptx_attrs *a, ptx_decl *d) {
  ptx_attrs aa = *a;
  if (aa.space == PTX_SPACE_NONE) aa.space = PTX_SPACE_PARAM;
  if (aa.type == PTX_T_NONE) ptx_error(ps->diag, d->loc, "declaration without a type");
  apply_attrs(d, &aa);
}

void ptx_b_mod_vars(ptx_pstate *ps, ptx_attrs *a, ptx_decllist *names) {
  if (!check_decl(ps, a, a->loc)) return;
  if (a->space == PTX_SPACE_REG || a->space == PTX_SPACE_PARAM) {
    ptx_error(ps->diag, a->loc, ".%s variables must be declared inside a function", ptx_space_names[a->space]);
    return;
  }
  for (uint32_t i = 0; i < names->n; i++) {
    ptx_decl *d = names->v[i];
    apply_attrs(d, a);
    ptx_modstmt m = { .kind = PM_VAR, .loc = d->loc };
    m.u.var = d;
    push_mstmt(ps, &m);
  }
}

ptx_init *ptx_b_init_scalar(ptx_pstate *ps, const ptx_opnd *v) {
  ptx_init *p = arena_alloc(ps->arena, sizeof *p);
  p->u.scalar = *v;
  return p;
}

ptx_init *ptx_b_init_list(ptx_pstate *ps, const ptx_initlist *l) {
  ptx_init *p = arena_alloc(ps->arena, sizeof *p);
  p->is_list = true;
  p->n = l->n;
  p->u.items = l->v;
  return p;
}

void ptx_b_il_push(ptx_pstate *ps, ptx_initlist *l, const ptx_init *v) {
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 8;
    l->v = arena_grow(ps->arena, l->v, l->n * sizeof *l->v, nc * sizeof *l->v);
    l->cap = nc;
  }
  l->v[l->n++] = *v;
}

/* ---- function bodies --------------------------------------------------- */

static ptx_stmt *push_stmt(ptx_pstate *ps, int kind, ptx_loc loc) {
  ps->stmts = grow(ps->stmts, &ps->capstmts, ps->nstmts + 1, sizeof *ps->stmts, 256);
  ptx_stmt *s = &ps->stmts[ps->nstmts++];
  memset(s, 0, sizeof *s);
  s->kind = (uint8_t)kind;
  s->loc = loc;
  return s;
}

void ptx_b_local_vars(ptx_pstate *ps, ptx_attrs *a, ptx_decllist *names) {
  if (!check_decl(ps, a, a->loc)) return;
  for (uint32_t i = 0; i < names->n; i++) {
    ptx_decl *d = names->v[i];
    apply_attrs(d, a);
    push_stmt(ps, PS_DECL, d->loc)->u.decl = d;
  }
}

void ptx_b_func_pragma(ptx_pstate *ps, const char *s, uint32_t n) {
  ps->fpragmas = grow(ps->fpragmas, &ps->capfpragmas, ps->nfpragmas + 1, sizeof *ps->fpragmas, 4);
  ps->fpragmas[ps->nfpragmas++] = ptx_b_intern(ps, s, n);
}

static ptx_decl *copy_decls(ptx_pstate *ps, const ptx_decllist *l) {
  if (!l || !l->n) return NULL;
  ptx_decl *v = arena_alloc(ps->arena, l->n * sizeof *v);
  for (uint32_t i = 0; i < l->n; i++) v[i] = *l->v[i];
  return v;
}

static ptx_func *new_func(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n,
                          ptx_decllist *rets, ptx_decllist *params) {
  ptx_func *f = arena_alloc(ps->arena, sizeof *f);
  f->loc = loc;
  f->name = ptx_b_intern(ps, s, n);
  f->rets = copy_decls(ps, rets);
  f->nrets = rets ? rets->n : 0;
  f->params = copy_decls(ps, params);
  f->nparams = params ? params->n : 0;
  return f;
}

/* The header is complete (the body, if any, follows). */
ptx_func *ptx_b_func(ptx_pstate *ps, const ptx_attrs *a, bool entry, ptx_loc loc, const char *s, uint32_t n,
                     ptx_decllist *rets, ptx_decllist *params) {
  ptx_func *f = new_func(ps, loc, s, n, rets, params);
  f->is_entry = entry;
  f->linkage = a ? a->linkage : 0;
  f->perf = ps->perf;
  if (a && a->noreturn) f->perf.noreturn = true;
  if (ps->nfpragmas) {
    f->pragmas = arena_alloc(ps->arena, ps->nfpragmas * sizeof *f->pragmas);
    memcpy(f->pragmas, ps->fpragmas, ps->nfpragmas * sizeof *f->pragmas);
    f->npragmas = ps->nfpragmas;
    ps->nfpragmas = 0;
  }
  ps->nstmts = 0;
  if (ps->cons) ps->arena = ps->farena;   /* the body, if any, is transient */
  return f;
}

void ptx_b_func_end(ptx_pstate *ps, ptx_func *f, bool has_body) {
  f->has_body = has_body;
  ptx_modstmt m = { .kind = PM_FUNC, .loc = f->loc };
  m.u.func = f;
  push_mstmt(ps, &m);
  if (!ps->cons) {
    if (has_body && ps->nstmts) {
      f->stmts = arena_alloc(ps->arena, ps->nstmts * sizeof *f->stmts);
      memcpy(f->stmts, ps->stmts, ps->nstmts * sizeof *f->stmts);
      f->nstmts = ps->nstmts;
    }
    ps->nstmts = 0;
    return;
  }
  /* streaming: the consumer reads the body where it was built, then its
   * memory serves the next body */
  f->stmts = ps->stmts;
  f->nstmts = ps->nstmts;
  ps->cons->stmt(ps->cons->ctx, ps->mod, &ps->mstmts[ps->nmstmts - 1]);
  f->stmts = NULL;
  f->nstmts = 0;
  arena_reset(ps->farena);
  ps->nstmts = 0;
  ps->arena = ps->marena;
}

void ptx_b_label(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n) {
  push_stmt(ps, PS_LABEL, loc)->u.label = ptx_b_intern(ps, s, n);
}

/* Move a finished list from the scratch stack to the arena. */
static ptx_opnd *take_list(ptx_pstate *ps, ptx_oplist *l) {
  ptx_opnd *v = NULL;
  if (l->n) {
    v = arena_alloc_raw(ps->arena, l->n * sizeof *v);
    memcpy(v, ps->ops + l->start, l->n * sizeof *v);
  }
  ps->nops = l->start;
  return v;
}

void ptx_b_targets(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n, ptx_oplist *names, int kind) {
  ptx_stmt *st = push_stmt(ps, kind, loc);
  st->u.targets.label = ptx_b_intern(ps, s, n);
  st->u.targets.n = names->n;
  st->u.targets.names = take_list(ps, names);
}

void ptx_b_callproto(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n, ptx_decllist *rets, ptx_decllist *params) {
  ptx_stmt *st = push_stmt(ps, PS_CALLPROTO, loc);
  st->u.proto.label = ptx_b_intern(ps, s, n);
  st->u.proto.proto = new_func(ps, loc, s, n, rets, params);
}

void ptx_b_insn(ptx_pstate *ps, ptx_loc loc, const char *opname, uint32_t n, ptx_oplist *ops) {
  ptx_opnd guard = ps->guard;
  ptx_oplist none = { ps->nops, 0 };
  if (!ops) ops = &none;
  ps->guard.kind = PO_SINK;
  if (ops->n > 65535) { ptx_error(ps->diag, loc, "too many operands"); ps->nops = ops->start; return; }
  ptx_stmt *st = push_stmt(ps, PS_INSN, loc);
  st->u.insn.opname = ptx_b_intern(ps, opname, n);
  st->u.insn.guard = guard;
  st->u.insn.nops = (uint16_t)ops->n;
  st->u.insn.ops = take_list(ps, ops);
}

void ptx_b_loc(ptx_pstate *ps, ptx_loc loc, uint32_t file, uint32_t line, uint32_t col) {
  ptx_stmt *st = push_stmt(ps, PS_LOC, loc);
  st->u.locinfo.file = file;
  st->u.locinfo.line = line;
  st->u.locinfo.col = col;
}

void ptx_b_loc_fname(ptx_pstate *ps, const char *s, uint32_t n) {
  ps->stmts[ps->nstmts - 1].u.locinfo.function_name = ptx_b_intern(ps, s, n);
}

void ptx_b_loc_inlined(ptx_pstate *ps, uint32_t file, uint32_t line, uint32_t col) {
  ptx_locinfo *li = &ps->stmts[ps->nstmts - 1].u.locinfo;
  li->inlined = true;
  li->in_file = file; li->in_line = line; li->in_col = col;
}

void ptx_b_pragma(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n) {
  push_stmt(ps, PS_PRAGMA, loc)->u.pragma = ptx_b_intern(ps, s, n);
}

void ptx_b_scope(ptx_pstate *ps, ptx_loc loc, int kind) { push_stmt(ps, kind, loc); }

/* ---- operands ---------------------------------------------------------- */

void ptx_b_ol_start(ptx_pstate *ps, ptx_oplist *l, const ptx_opnd *o) {
  l->start = ps->nops;
  l->n = 0;
  ptx_b_ol_push(ps, l, o);
}

void ptx_b_ol_push(ptx_pstate *ps, ptx_oplist *l, const ptx_opnd *o) {
  ps->ops = grow(ps->ops, &ps->capops, ps->nops + 1, sizeof *ps->ops, 256);
  ps->ops[ps->nops++] = *o;
  l->n++;
}

/* Interned prefix of a register name (%r of %r12): the few prefixes of a
 * module are found in a small cache before the string table. */
static const char *intern_prefix(ptx_pstate *ps, const char *s, uint32_t n) {
  if (n > 7) return ptx_b_intern(ps, s, n);
  uint64_t key = (uint64_t)n << 56;
  for (uint32_t i = 0; i < n; i++) key |= (uint64_t)(unsigned char)s[i] << (8 * i);
  struct ptx_prefix *e = &ps->prefixes[(key * 0x9e3779b97f4a7c15ull) >> 60];
  if (e->name && e->key == key) return e->name;
  e->key = key;
  e->name = ptx_b_intern(ps, s, n);
  return e->name;
}

void ptx_b_name(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n) {
  memset(o, 0, sizeof *o);
  o->loc = loc;
  if (n == 1 && s[0] == '_') { o->kind = PO_SINK; return; }
  if (s[0] != '%') { o->kind = PO_SYM; o->name = ptx_b_intern(ps, s, n); return; }
  o->kind = PO_REG;
  /* %r12: prefix and number (not %r012, whose number is not 12) */
  uint32_t k = n;
  while (k > 2 && s[k - 1] >= '0' && s[k - 1] <= '9') k--;
  if (k < n && n - k <= 9 && (s[k] != '0' || k + 1 == n) && !(s[k - 1] >= '0' && s[k - 1] <= '9')) {
    uint32_t idx = 0;
    for (uint32_t i = k; i < n; i++) idx = idx * 10 + (uint32_t)(s[i] - '0');
    o->flags = POF_INDEXED;
    o->idx = idx;
    o->name = intern_prefix(ps, s, k);
    return;
  }
  o->name = ptx_b_intern(ps, s, n);
}

void ptx_b_reg(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n) {
  ptx_b_name(ps, o, loc, s, n);
  if (o->kind == PO_SYM) o->kind = PO_REG;
}

void ptx_b_sym(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n) {
  memset(o, 0, sizeof *o);
  o->loc = loc;
  o->kind = PO_SYM;
  o->name = ptx_b_intern(ps, s, n);
}

void ptx_b_int(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const ptx_num *num) {
  memset(o, 0, sizeof *o);
  o->kind = PO_INT;
  o->loc = loc;
  o->ival = (int64_t)num->v;
  if (num->u) o->flags |= POF_UNSIGNED;
  if (num->ovf) { o->flags |= POF_OVERFLOW; o->name = ptx_b_intern(ps, num->text, num->len); }
}

void ptx_b_floatlit(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n) {
  char buf[64];
  (void)ps;
  if (n >= sizeof buf) n = sizeof buf - 1;
  memcpy(buf, s, n);
  buf[n] = 0;
  double d = strtod(buf, NULL);
  memset(o, 0, sizeof *o);
  o->kind = PO_F64;
  o->loc = loc;
  memcpy(&o->ival, &d, sizeof d);
}

static void bad_expr(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, ptx_loc at) {
  ptx_error(ps->diag, at, "invalid constant expression");
  memset(o, 0, sizeof *o);
  o->kind = PO_INT;
  o->loc = loc;
}

/* generic(sym) in initialisers */
void ptx_b_generic(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n, ptx_loc paren,
                   const ptx_opnd *arg) {
  if (n != 7 || memcmp(s, "generic", 7) != 0 || arg->kind != PO_SYM) {
    bad_expr(ps, o, loc, paren);
    return;
  }
  *o = *arg;
  o->flags = (uint8_t)((o->flags & ~POF_PAREN) | POF_GENERIC);
}

/* ---- constant expressions -------------------------------------------------
 * Integers are 64-bit, signed unless a side is unsigned (C's rules with one
 * width); floating-point values are doubles.  Names take + and - of an
 * integer (sym+8, %rd1+-4), a unary - (video operands) or ! (predicates),
 * and | pairs two destinations. */

static bool is_num(const ptx_opnd *o) { return o->kind == PO_INT || o->kind == PO_F32 || o->kind == PO_F64; }
static bool is_name(const ptx_opnd *o) { return o->kind == PO_REG || o->kind == PO_SYM; }
/* sym, generic(sym), %rd1 (an address base): takes an integer offset */
static bool is_offsettable(const ptx_opnd *o) { return is_name(o) && !(o->flags & (POF_NEG | POF_MINUS)); }

static double to_double(const ptx_opnd *o) {
  if (o->kind == PO_F32) { uint32_t b = (uint32_t)o->ival; float f; memcpy(&f, &b, 4); return f; }
  if (o->kind == PO_F64) { double d; memcpy(&d, &o->ival, 8); return d; }
  return (o->flags & POF_UNSIGNED) ? (double)(uint64_t)o->ival : (double)o->ival;
}

static void set_int(ptx_opnd *o, ptx_loc loc, uint64_t v, bool u) {
  memset(o, 0, sizeof *o);
  o->kind = PO_INT;
  o->loc = loc;
  o->ival = (int64_t)v;
  if (u) o->flags = POF_UNSIGNED;
}

static void set_f64(ptx_opnd *o, ptx_loc loc, double d) {
  memset(o, 0, sizeof *o);
  o->kind = PO_F64;
  o->loc = loc;
  memcpy(&o->ival, &d, 8);
}

/* An overflowing literal stays reported by its text, whatever is done to it. */
static void keep_overflow(ptx_opnd *o, const ptx_opnd *a, const ptx_opnd *b) {
  const ptx_opnd *x = (a->flags & POF_OVERFLOW) ? a : (b && (b->flags & POF_OVERFLOW)) ? b : NULL;
  if (x && o->kind == PO_INT) { o->flags |= POF_OVERFLOW; o->name = x->name; }
}

void ptx_b_unop(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, int op, const ptx_opnd *a) {
  *o = *a;
  o->flags &= (uint8_t)~POF_PAREN;
  o->loc = loc;
  switch (op) {
  case '-':
    if (a->kind == PO_INT) { o->ival = (int64_t)(0 - (uint64_t)a->ival); return; }
    if (a->kind == PO_F32) { o->ival ^= 0x80000000; return; }
    if (a->kind == PO_F64) { o->ival = (int64_t)((uint64_t)a->ival ^ 0x8000000000000000ull); return; }
    if (is_name(a) && !a->ival) { o->flags ^= POF_MINUS; return; }
    break;
  case '+':
    if (is_num(a)) return;
    break;
  case '~':
    if (a->kind == PO_INT) { o->ival = ~a->ival; return; }
    break;
  case '!':
    if (a->kind == PO_INT) { set_int(o, loc, a->ival == 0, false); keep_overflow(o, a, NULL); return; }
    if (is_name(a) && !a->ival) { o->flags ^= POF_NEG; return; }
    break;
  }
  bad_expr(ps, o, loc, loc);
}

static bool int_binop(ptx_pstate *ps, ptx_opnd *o, ptx_loc at, int op, const ptx_opnd *a, const ptx_opnd *b) {
  bool u = ((a->flags | b->flags) & POF_UNSIGNED) != 0;
  uint64_t x = (uint64_t)a->ival, y = (uint64_t)b->ival, r;
  int64_t sx = a->ival, sy = b->ival;
  switch (op) {
  case '*': r = x * y; break;
  case '/': case '%':
    if (!y) { ptx_error(ps->diag, at, "division by zero in constant expression"); r = 0; break; }
    if (u) r = op == '/' ? x / y : x % y;
    else if (sy == -1) r = op == '/' ? 0 - x : 0;        /* INT64_MIN / -1 wraps */
    else r = (uint64_t)(op == '/' ? sx / sy : sx % sy);
    break;
  case '+': r = x + y; break;
  case '-': r = x - y; break;
  case PTX_OP_SHL: r = y >= 64 ? 0 : x << y; u = (a->flags & POF_UNSIGNED) != 0; break;
  case PTX_OP_SHR:
    u = (a->flags & POF_UNSIGNED) != 0;
    if (u) r = y >= 64 ? 0 : x >> y;
    else r = (uint64_t)(y >= 64 ? (sx < 0 ? -1 : 0) : sx >> y);
    break;
  case '<': r = u ? x < y : sx < sy; u = false; break;
  case '>': r = u ? x > y : sx > sy; u = false; break;
  case PTX_OP_LE: r = u ? x <= y : sx <= sy; u = false; break;
  case PTX_OP_GE: r = u ? x >= y : sx >= sy; u = false; break;
  case PTX_OP_EQ: r = x == y; u = false; break;
  case PTX_OP_NE: r = x != y; u = false; break;
  case '&': r = x & y; break;
  case '^': r = x ^ y; break;
  case '|': r = x | y; break;
  case PTX_OP_ANDAND: r = x && y; u = false; break;
  case PTX_OP_OROR: r = x || y; u = false; break;
  default: return false;
  }
  set_int(o, a->loc, r, u);
  keep_overflow(o, a, b);
  return true;
}

static bool float_binop(ptx_opnd *o, int op, const ptx_opnd *a, const ptx_opnd *b) {
  double x = to_double(a), y = to_double(b);
  switch (op) {
  case '*': set_f64(o, a->loc, x * y); return true;
  case '/': set_f64(o, a->loc, x / y); return true;
  case '+': set_f64(o, a->loc, x + y); return true;
  case '-': set_f64(o, a->loc, x - y); return true;
  case '<': set_int(o, a->loc, x < y, false); return true;
  case '>': set_int(o, a->loc, x > y, false); return true;
  case PTX_OP_LE: set_int(o, a->loc, x <= y, false); return true;
  case PTX_OP_GE: set_int(o, a->loc, x >= y, false); return true;
  case PTX_OP_EQ: set_int(o, a->loc, x == y, false); return true;
  case PTX_OP_NE: set_int(o, a->loc, x != y, false); return true;
  case PTX_OP_ANDAND: set_int(o, a->loc, x != 0 && y != 0, false); return true;
  case PTX_OP_OROR: set_int(o, a->loc, x != 0 || y != 0, false); return true;
  default: return false;
  }
}

/* WARP_SZ, the predefined constant, is 32 inside an expression (ptxas
 * takes r+WARP_SZ and WARP_SZ*2); alone it stays a name for the assembler. */
static const ptx_opnd *warp_sz(const ptx_opnd *x, ptx_opnd *tmp) {
  if (x->kind != PO_SYM || x->ival || x->flags || strcmp(x->name, "WARP_SZ") != 0) return x;
  memset(tmp, 0, sizeof *tmp);
  tmp->kind = PO_INT;
  tmp->loc = x->loc;
  tmp->ival = 32;
  return tmp;
}

/* ptxas's expressions are constants: a name is never inside parentheses
 * there, except as the one-element list (r) of a call. */
static bool paren_name(const ptx_opnd *o) { return is_name(o) && (o->flags & POF_PAREN); }

static void paren_name_error(ptx_pstate *ps, const ptx_opnd *o, const char *where) {
  char nb[96], full[128];
  const char *n = ptx_opnd_name(o, nb, sizeof nb);
  if (o->flags & POF_PLUS) snprintf(full, sizeof full, "%s+%lld", n, (long long)o->ival);
  else snprintf(full, sizeof full, "%s", n);
  ptx_error(ps->diag, o->loc, "'%s' is in parentheses %s: only constants are grouped in PTX (ptxas refuses it), write %s without them",
            full, where, full);
}

void ptx_b_binop(ptx_pstate *ps, ptx_opnd *o, ptx_loc at, int op, const ptx_opnd *a, const ptx_opnd *b) {
  ptx_opnd ta, tb;
  a = warp_sz(a, &ta);
  b = warp_sz(b, &tb);
  if (paren_name(a)) paren_name_error(ps, a, "in an expression");
  if (paren_name(b)) paren_name_error(ps, b, "in an expression");
  if (a->kind == PO_INT && b->kind == PO_INT) { if (int_binop(ps, o, at, op, a, b)) return; }
  else if (is_num(a) && is_num(b)) { if (float_binop(o, op, a, b)) return; }
  else if ((op == '+' || op == '-') && is_offsettable(a) && b->kind == PO_INT) {
    /* ptxas's grammar has name '+' constant-expression only (name+4-2 is
     * name+(4-2)): name-4 and 4+name are syntax errors to it, and an
     * offset is written +-4 */
    if (op == '-' && !(a->flags & POF_PLUS)) {
      char na[96];
      const char *an = ptx_opnd_name(a, na, sizeof na);   /* na, or the operand's own name */
      ptx_error(ps->diag, at, "an offset follows '%s' as '+': write %s+-%lld (ptxas refuses '-' here)", an, an, (long long)b->ival);
    }
    *o = *a;
    o->flags &= POF_GENERIC | POF_INDEXED;
    o->flags |= POF_PLUS;
    o->ival = (int64_t)(op == '+' ? (uint64_t)a->ival + (uint64_t)b->ival : (uint64_t)a->ival - (uint64_t)b->ival);
    return;
  } else if (op == '+' && a->kind == PO_INT && is_offsettable(b)) {
    char nb[96];
    const char *bn = ptx_opnd_name(b, nb, sizeof nb);
    ptx_error(ps->diag, at, "a constant cannot come before '%s': write %s+%lld (ptxas refuses it before the name)", bn, bn, (long long)a->ival);
    *o = *b;
    o->flags &= POF_GENERIC | POF_INDEXED;
    o->flags |= POF_PLUS;
    o->loc = a->loc;
    o->ival = (int64_t)((uint64_t)b->ival + (uint64_t)a->ival);
    return;
  } else if (op == '|') {
    ptx_b_pair(ps, o, a, b);
    return;
  }
  if ((op == '+' || op == '-') && is_offsettable(a) && is_name(b)) {   /* [%rd1 + %rd2] */
    char na[96], nb[96];
    ptx_error(ps->diag, b->loc, "only an integer offset can be added to '%s', not '%s'", ptx_opnd_name(a, na, sizeof na),
              ptx_opnd_name(b, nb, sizeof nb));
    memset(o, 0, sizeof *o);
    o->kind = PO_INT;
    o->loc = a->loc;
    return;
  }
  bad_expr(ps, o, a->loc, at);
}

void ptx_b_cond(ptx_pstate *ps, ptx_opnd *o, const ptx_opnd *c, const ptx_opnd *a, const ptx_opnd *b) {
  if (!is_num(c) || !is_num(a) || !is_num(b)) { bad_expr(ps, o, c->loc, c->loc); return; }
  bool t = c->kind == PO_INT ? c->ival != 0 : to_double(c) != 0;
  *o = t ? *a : *b;
  o->flags &= (uint8_t)~POF_PAREN;
  o->loc = c->loc;
}

static ptx_opnd *copy_ops(ptx_pstate *ps, const ptx_opnd *v, uint32_t n) {
  ptx_opnd *p = arena_alloc(ps->arena, (n ? n : 1) * sizeof *p);
  if (n) memcpy(p, v, n * sizeof *p);
  return p;
}

/* a|b: two destinations (setp, shfl, tex with a predicate) */
void ptx_b_pair(ptx_pstate *ps, ptx_opnd *o, const ptx_opnd *a, const ptx_opnd *b) {
  static const uint8_t ok[] = { [PO_REG] = 1, [PO_SYM] = 1, [PO_SINK] = 1, [PO_VEC] = 1 };
  if (a->kind >= sizeof ok || !ok[a->kind] || b->kind >= sizeof ok || !ok[b->kind] || a->ival || b->ival) {
    bad_expr(ps, o, a->loc, b->loc);
    return;
  }
  ptx_opnd two[2] = { *a, *b };
  memset(o, 0, sizeof *o);
  o->kind = PO_PAIR;
  o->loc = a->loc;
  o->nsub = 2;
  o->sub = copy_ops(ps, two, 2);
}

void ptx_b_addr(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const ptx_opnd *base, ptx_oplist *extra) {
  uint32_t n = 1 + (extra ? extra->n : 0);
  if (n > 65535) { ptx_error(ps->diag, loc, "too many operands"); n = 1; }
  memset(o, 0, sizeof *o);
  o->kind = PO_ADDR;
  o->loc = loc;
  o->nsub = (uint16_t)n;
  o->sub = arena_alloc(ps->arena, n * sizeof *o->sub);
  if (paren_name(base)) paren_name_error(ps, base, "in an address");
  o->sub[0] = *base;
  o->sub[0].flags &= (uint8_t)~POF_PAREN;
  if (base->kind != PO_INT && !(is_offsettable(base) && !(base->flags & POF_GENERIC))) {
    ptx_error(ps->diag, base->loc, "invalid address");
    o->sub[0].kind = PO_INT;
    o->sub[0].ival = 0;
  }
  if (extra) {
    ptx_opnd *v = take_list(ps, extra);
    if (n > 1) memcpy(o->sub + 1, v, (n - 1) * sizeof *o->sub);
  }
}

void ptx_b_list(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, ptx_oplist *l, int kind) {
  memset(o, 0, sizeof *o);
  if (l->n > 65535) { ptx_error(ps->diag, loc, "too many operands"); ps->nops = l->start; l->n = 0; }
  o->kind = (uint8_t)kind;
  o->loc = loc;
  o->nsub = (uint16_t)l->n;
  o->sub = take_list(ps, l);
}

/* (first, rest...) */
void ptx_b_list_first(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const ptx_opnd *first, ptx_oplist *rest) {
  ptx_opnd f = *first;
  ptx_b_ol_push(ps, rest, &f);           /* make room at the top, then rotate first to the front */
  ptx_opnd *v = ps->ops + rest->start;
  memmove(v + 1, v, (rest->n - 1) * sizeof *v);
  v[0] = f;
  ptx_b_list(ps, o, loc, rest, PO_LIST);
}

void ptx_b_syntax_error(ptx_pstate *ps, ptx_loc loc) {
  int n = ps->ls->toklen;
  const char *t = ps->ls->tok;
  if (n > 40) n = 40;
  char buf[48];
  int j = 0;
  for (int i = 0; i < n; i++) buf[j++] = (t[i] >= 32 && t[i] < 127) ? t[i] : '?';
  buf[j] = 0;
  if (j >= 3 && buf[0] == '.' && buf[1] == 'v' && strspn(buf + 2, "0123456789") == (size_t)j - 2)
    ptx_error(ps->diag, loc, "invalid vector width '%s'", buf);      /* .reg .v3 .b32 x */
  else ptx_error(ps->diag, loc, "syntax error: unexpected '%s'", buf);
}

/* After an error, the operand lists being built are abandoned. */
void ptx_b_recover(ptx_pstate *ps) { ps->nops = 0; ps->guard.kind = PO_SINK; }

/* After a module-level error, possibly inside a function header: what
 * follows lives at module scope again, not in the transient body memory. */
void ptx_b_recover_module(ptx_pstate *ps) {
  ptx_b_recover(ps);
  if (ps->cons && ps->arena != ps->marena) { arena_reset(ps->farena); ps->arena = ps->marena; }
  ps->nstmts = 0;
}
