/* ptx/build.c - semantic actions of the grammar (see build.h). */
#include "ptx/build.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ptx_b_intern(ptx_pstate *ps, const char *s, uint32_t n) {
  return strtab_intern(&ps->names, s, n);
}

/* ---- module directives ------------------------------------------------ */

static void push_mstmt(ptx_pstate *ps, ptx_modstmt *m) {
  if (ps->nmstmts == ps->capmstmts) {
    ps->capmstmts = ps->capmstmts ? ps->capmstmts * 2 : 64;
    ps->mstmts = realloc(ps->mstmts, ps->capmstmts * sizeof *ps->mstmts);
    if (!ps->mstmts) { fputs("ptxemu: out of memory\n", stderr); exit(70); }
  }
  ps->mstmts[ps->nmstmts++] = *m;
}

static void set_version(ptx_pstate *ps, ptx_loc loc, uint32_t maj, uint32_t min) {
  ps->mod->version_major = maj;
  ps->mod->version_minor = min;
  ps->mod->has_version = true;
  ps->mod->version_loc = loc;
}

void ptx_b_version(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n) {
  uint32_t maj = 0, min = 0, i = 0;
  for (; i < n && s[i] != '.'; i++) maj = maj * 10 + (uint32_t)(s[i] - '0');
  for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) min = min * 10 + (uint32_t)(s[i] - '0');
  set_version(ps, loc, maj, min);
}

void ptx_b_version_int(ptx_pstate *ps, ptx_loc loc, uint64_t v) {
  set_version(ps, loc, (uint32_t)v, 0);
}

void ptx_b_target(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n) {
  ptx_module *m = ps->mod;
  if (n > 3 && memcmp(s, "sm_", 3) == 0) {
    uint32_t v = 0, i = 3;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) v = v * 10 + (uint32_t)(s[i] - '0');
    if (i == 3 || (i < n && !(i + 1 == n && (s[i] == 'a' || s[i] == 'f')))) {
      ptx_error(ps->diag, loc, "unknown target '%.*s'", (int)n, s);
      return;
    }
    m->sm = v;
    m->sm_suffix = i < n ? s[i] : 0;
    m->has_target = true;
    m->target_loc = loc;
  } else if (n == 19 && memcmp(s, "texmode_independent", n) == 0) m->texmode_independent = true;
  else if (n == 14 && memcmp(s, "texmode_unified", n) == 0) m->texmode_independent = false;
  else if (n == 5 && memcmp(s, "debug", n) == 0) m->debug = true;
  else if (n == 14 && memcmp(s, "map_f64_to_f32", n) == 0) m->map_f64_to_f32 = true;
  else ptx_error(ps->diag, loc, "unknown target '%.*s'", (int)n, s);
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

/* ---- declarations ------------------------------------------------------ */

void ptx_b_attr(ptx_pstate *ps, ptx_attrs *a, ptx_loc loc, const char *s, uint32_t n) {
  s++; n--;                                 /* drop the dot */
  for (int sp = PTX_SPACE_REG; sp < PTX_SPACE_COUNT; sp++) {
    if (strlen(ptx_space_names[sp]) == n && memcmp(ptx_space_names[sp], s, n) == 0) {
      if (a->after_ptr) a->ptr_space = (uint8_t)sp; else a->space = (uint8_t)sp;
      return;
    }
  }
  enum ptx_type t = ptx_type_from_name(s, n);
  if (t != PTX_T_NONE) { a->type = (uint8_t)t; return; }
  if (n == 2 && s[0] == 'v' && (s[1] == '2' || s[1] == '4' || s[1] == '8')) { a->vec = (uint8_t)(s[1] - '0'); return; }
  if (n == 7 && memcmp(s, "visible", 7) == 0) { a->linkage |= PTX_LINK_VISIBLE; return; }
  if (n == 6 && memcmp(s, "extern", 6) == 0) { a->linkage |= PTX_LINK_EXTERN; return; }
  if (n == 4 && memcmp(s, "weak", 4) == 0) { a->linkage |= PTX_LINK_WEAK; return; }
  if (n == 6 && memcmp(s, "common", 6) == 0) { a->linkage |= PTX_LINK_COMMON; return; }
  if (n == 3 && s[0] == 'v' && s[1] == '1' && s[2] == '6') { a->vec = 16; return; }
  ptx_error(ps->diag, loc, "unknown directive '.%.*s'", (int)n, s);
}

void ptx_b_declname(ptx_pstate *ps, ptx_decl *d, ptx_loc loc, const char *s, uint32_t n) {
  memset(d, 0, sizeof *d);
  d->loc = loc;
  d->name = ptx_b_intern(ps, s, n);
  d->vec = 1;
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
  l->v[l->n++] = *d;
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

void ptx_b_param(ptx_pstate *ps, ptx_decllist *l, ptx_attrs *a, ptx_decl *d) {
  ptx_attrs aa = *a;
  if (aa.space == PTX_SPACE_NONE) aa.space = PTX_SPACE_PARAM;
  if (aa.type == PTX_T_NONE) ptx_error(ps->diag, d->loc, "declaration without a type");
  apply_attrs(d, &aa);
  ptx_b_dl_push(ps, l, d);
}

void ptx_b_mod_vars(ptx_pstate *ps, ptx_attrs *a, ptx_decllist *names) {
  if (!check_decl(ps, a, a->loc)) return;
  for (uint32_t i = 0; i < names->n; i++) {
    ptx_decl *d = arena_alloc(ps->arena, sizeof *d);
    *d = names->v[i];
    apply_attrs(d, a);
    ptx_modstmt m = { .kind = PM_VAR, .loc = d->loc };
    m.u.var = d;
    push_mstmt(ps, &m);
  }
}

ptx_init *ptx_b_init(ptx_pstate *ps, ptx_init *v) {
  ptx_init *p = arena_alloc(ps->arena, sizeof *p);
  *p = *v;
  return p;
}

void ptx_b_il_push(ptx_pstate *ps, ptx_initlist *l, ptx_init *v) {
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 8;
    l->v = arena_grow(ps->arena, l->v, l->n * sizeof *l->v, nc * sizeof *l->v);
    l->cap = nc;
  }
  l->v[l->n++] = *v;
}

/* ---- function bodies --------------------------------------------------- */

static ptx_stmt *push_stmt(ptx_pstate *ps, int kind, ptx_loc loc) {
  if (ps->nstmts == ps->capstmts) {
    ps->capstmts = ps->capstmts ? ps->capstmts * 2 : 256;
    ps->stmts = realloc(ps->stmts, ps->capstmts * sizeof *ps->stmts);
    if (!ps->stmts) { fputs("ptxemu: out of memory\n", stderr); exit(70); }
  }
  ptx_stmt *s = &ps->stmts[ps->nstmts++];
  memset(s, 0, sizeof *s);
  s->kind = (uint8_t)kind;
  s->loc = loc;
  return s;
}

void ptx_b_local_vars(ptx_pstate *ps, ptx_attrs *a, ptx_decllist *names) {
  if (!check_decl(ps, a, a->loc)) return;
  for (uint32_t i = 0; i < names->n; i++) {
    ptx_decl *d = arena_alloc(ps->arena, sizeof *d);
    *d = names->v[i];
    apply_attrs(d, a);
    push_stmt(ps, PS_DECL, d->loc)->u.decl = d;
  }
}

void ptx_b_func_pragma(ptx_pstate *ps, const char *s, uint32_t n) {
  if (ps->nfpragmas == ps->capfpragmas) {
    ps->capfpragmas = ps->capfpragmas ? ps->capfpragmas * 2 : 4;
    ps->fpragmas = realloc(ps->fpragmas, ps->capfpragmas * sizeof *ps->fpragmas);
    if (!ps->fpragmas) { fputs("ptxemu: out of memory\n", stderr); exit(70); }
  }
  ps->fpragmas[ps->nfpragmas++] = ptx_b_intern(ps, s, n);
}

void ptx_b_body_start(ptx_pstate *ps) { ps->nstmts = 0; }
void ptx_b_drop_body(ptx_pstate *ps) { ps->nstmts = 0; ps->nfpragmas = 0; }

static ptx_func *new_func(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n,
                          ptx_decllist *rets, ptx_decllist *params) {
  ptx_func *f = arena_alloc(ps->arena, sizeof *f);
  f->loc = loc;
  f->name = ptx_b_intern(ps, s, n);
  if (rets) { f->rets = rets->v; f->nrets = rets->n; }
  if (params) { f->params = params->v; f->nparams = params->n; }
  return f;
}

void ptx_b_func(ptx_pstate *ps, ptx_attrs *a, bool entry, ptx_loc loc, const char *s, uint32_t n,
                ptx_decllist *rets, ptx_decllist *params, ptx_perf *perf, bool has_body) {
  ptx_func *f = new_func(ps, loc, s, n, rets, params);
  f->is_entry = entry;
  f->has_body = has_body;
  f->linkage = a->linkage;
  f->perf = *perf;
  if (a->noreturn) f->perf.noreturn = true;
  if (ps->nfpragmas) {
    f->pragmas = arena_alloc(ps->arena, ps->nfpragmas * sizeof *f->pragmas);
    memcpy(f->pragmas, ps->fpragmas, ps->nfpragmas * sizeof *f->pragmas);
    f->npragmas = ps->nfpragmas;
    ps->nfpragmas = 0;
  }
  if (has_body && ps->nstmts) {
    f->stmts = arena_alloc(ps->arena, ps->nstmts * sizeof *f->stmts);
    memcpy(f->stmts, ps->stmts, ps->nstmts * sizeof *f->stmts);
    f->nstmts = ps->nstmts;
  }
  ps->nstmts = 0;
  ptx_modstmt m = { .kind = PM_FUNC, .loc = loc };
  m.u.func = f;
  push_mstmt(ps, &m);
}

void ptx_b_label(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n) {
  push_stmt(ps, PS_LABEL, loc)->u.label = ptx_b_intern(ps, s, n);
}

void ptx_b_targets(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n, ptx_oplist *names, int kind) {
  ptx_stmt *st = push_stmt(ps, kind, loc);
  st->u.targets.label = ptx_b_intern(ps, s, n);
  st->u.targets.n = names->n;
  st->u.targets.names = names->v;
}

void ptx_b_callproto(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n, ptx_decllist *rets, ptx_decllist *params) {
  ptx_stmt *st = push_stmt(ps, PS_CALLPROTO, loc);
  st->u.proto.label = ptx_b_intern(ps, s, n);
  st->u.proto.proto = new_func(ps, loc, s, n, rets, params);
}

void ptx_b_insn(ptx_pstate *ps, ptx_opnd *opname, ptx_opnd *guard, ptx_oplist *ops) {
  ptx_stmt *st = push_stmt(ps, PS_INSN, opname->loc);
  st->u.insn.opname = opname->name;
  if (guard) {
    st->u.insn.guard = guard->name;
    st->u.insn.guard_neg = guard->neg;
    st->u.insn.guard_loc = guard->loc;
  }
  st->u.insn.nops = (uint16_t)ops->n;
  st->u.insn.ops = ops->v;
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

void ptx_b_ol_push(ptx_pstate *ps, ptx_oplist *l, ptx_opnd *o) {
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 4;
    if (nc > 65535) { ptx_error(ps->diag, o->loc, "too many operands"); return; }
    l->v = arena_grow(ps->arena, l->v, l->n * sizeof *l->v, nc * sizeof *l->v);
    l->cap = nc;
  }
  l->v[l->n++] = *o;
}

void ptx_b_name(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n) {
  memset(o, 0, sizeof *o);
  o->loc = loc;
  if (n == 1 && s[0] == '_') { o->kind = PO_SINK; return; }
  o->kind = s[0] == '%' ? PO_REG : PO_SYM;
  o->name = ptx_b_intern(ps, s, n);
}

void ptx_b_reg(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n) {
  ptx_b_name(ps, o, loc, s, n);
  if (o->kind == PO_SYM) o->kind = PO_REG;
}

void ptx_b_sym(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n, int64_t off) {
  memset(o, 0, sizeof *o);
  o->loc = loc;
  o->kind = PO_SYM;
  o->name = ptx_b_intern(ps, s, n);
  o->ival = off;
}

static ptx_opnd *copy_ops(ptx_pstate *ps, const ptx_opnd *v, uint32_t n) {
  ptx_opnd *p = arena_alloc(ps->arena, (n ? n : 1) * sizeof *p);
  if (n) memcpy(p, v, n * sizeof *p);
  return p;
}

void ptx_b_pair(ptx_pstate *ps, ptx_opnd *o, ptx_opnd *a, ptx_opnd *b) {
  ptx_opnd two[2] = { *a, *b };
  memset(o, 0, sizeof *o);
  o->kind = PO_PAIR;
  o->loc = a->loc;
  o->nsub = 2;
  o->sub = copy_ops(ps, two, 2);
}

void ptx_b_negate(ptx_pstate *ps, ptx_opnd *o) {
  (void)ps;
  if (o->kind == PO_INT) o->ival = (int64_t)(0 - (uint64_t)o->ival);
  else if (o->kind == PO_F32) o->ival ^= 0x80000000;
  else if (o->kind == PO_F64) o->ival = (int64_t)((uint64_t)o->ival ^ 0x8000000000000000ull);
}

void ptx_b_addr(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, ptx_opnd *base, ptx_oplist *extra) {
  uint32_t n = 1 + (extra ? extra->n : 0);
  memset(o, 0, sizeof *o);
  o->kind = PO_ADDR;
  o->loc = loc;
  o->nsub = (uint16_t)n;
  o->sub = arena_alloc(ps->arena, n * sizeof *o->sub);
  o->sub[0] = *base;
  if (extra && extra->n) memcpy(o->sub + 1, extra->v, extra->n * sizeof *o->sub);
}

void ptx_b_list(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, ptx_oplist *l, int kind) {
  (void)ps;
  memset(o, 0, sizeof *o);
  o->kind = (uint8_t)kind;
  o->loc = loc;
  o->nsub = (uint16_t)l->n;
  o->sub = l->v;
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

void ptx_b_syntax_error(ptx_pstate *ps, ptx_loc loc) {
  int n = ps->ls->toklen;
  const char *t = ps->ls->tok;
  if (n > 40) n = 40;
  char buf[48];
  int j = 0;
  for (int i = 0; i < n; i++) buf[j++] = (t[i] >= 32 && t[i] < 127) ? t[i] : '?';
  buf[j] = 0;
  ptx_error(ps->diag, loc, "syntax error: unexpected '%s'", buf);
}
