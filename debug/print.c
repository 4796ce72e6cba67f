/* debug/print.c - print: registers (every lane, one lane or the focused
 * thread), variables and kernel parameters; info registers. */
#include <stdlib.h>
#include <string.h>
#include "debug/internal.h"

static const char *skip_ws(const char *s) { while (*s == ' ' || *s == '\t') s++; return s; }

static float half_to_float(uint16_t h) {
  uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, bits;
  if (e == 0) {
    if (!m) bits = s;
    else { e = 127 - 15 + 1; while (!(m & 0x400)) { m <<= 1; e--; } m &= 0x3ff; bits = s | (e << 23) | (m << 13); }
  } else if (e == 31) bits = s | 0x7f800000u | (m << 13);
  else bits = s | ((e - 15 + 127) << 23) | (m << 13);
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

void dbg_format_value(char *buf, size_t n, int t, uint64_t v) {
  int bits = ptx_type_bits((enum ptx_type)t);
  switch (t) {
  case PTX_T_PRED: snprintf(buf, n, "%u", (unsigned)(v & 1)); return;
  case PTX_T_S8: case PTX_T_S16: case PTX_T_S32: case PTX_T_S64: snprintf(buf, n, "%lld", (long long)sext(v, (unsigned)bits)); return;
  case PTX_T_U8: case PTX_T_U16: case PTX_T_U32: case PTX_T_U64: snprintf(buf, n, "%llu", (unsigned long long)v); return;
  case PTX_T_F32: { uint32_t b = (uint32_t)v; float f; memcpy(&f, &b, 4); snprintf(buf, n, "%.9g", (double)f); return; }
  case PTX_T_F64: { double f; memcpy(&f, &v, 8); snprintf(buf, n, "%.17g", f); return; }
  case PTX_T_F16: snprintf(buf, n, "%.5g", (double)half_to_float((uint16_t)v)); return;
  case PTX_T_BF16: { uint32_t b = (uint32_t)(v & 0xffff) << 16; float f; memcpy(&f, &b, 4); snprintf(buf, n, "%.4g", (double)f); return; }
  case PTX_T_B8: case PTX_T_B16: case PTX_T_B32: case PTX_T_B64:
    /* untyped bits (nvcc's registers): integers read best in decimal, addresses in hex */
    if (bits == 64 && (v >> 32) && ~v >> 32) { snprintf(buf, n, "0x%016llx", (unsigned long long)v); return; }
    snprintf(buf, n, "%lld", (long long)sext(v, (unsigned)bits));
    return;
  default:
    snprintf(buf, n, "0x%0*llx", bits >= 8 && bits <= 64 ? bits / 4 : 8, (unsigned long long)(bits && bits < 64 ? v & ((1ull << bits) - 1) : v));
  }
}

static const struct { const char *name; int sr; } sregs[] = {
  { "%tid.x", SR_TID_X }, { "%tid.y", SR_TID_Y }, { "%tid.z", SR_TID_Z },
  { "%ntid.x", SR_NTID_X }, { "%ntid.y", SR_NTID_Y }, { "%ntid.z", SR_NTID_Z },
  { "%ctaid.x", SR_CTAID_X }, { "%ctaid.y", SR_CTAID_Y }, { "%ctaid.z", SR_CTAID_Z },
  { "%nctaid.x", SR_NCTAID_X }, { "%nctaid.y", SR_NCTAID_Y }, { "%nctaid.z", SR_NCTAID_Z },
  { "%laneid", SR_LANEID }, { "%warpid", SR_WARPID }, { "%smid", SR_SMID },
};

/* Registers by name: a range %r<N> declares %r0 .. %r(N-1) (vector
 * members %v0.x ...), a single register its own name (vector: name.x ...). */
static void reg_name(const isa_func *f, uint32_t slot, char *buf, size_t n) {
  static const char elem[] = "xyzw";
  snprintf(buf, n, "%s", f->regname[slot] ? f->regname[slot] : "?");
  for (uint32_t i = 0; i < f->nrecs; i++) {
    const isa_rec *r = &f->recs[i];
    if (r->kind != REC_REGS || slot < r->a || slot - r->a >= ISA_REGS_SLOTS(r->b)) continue;
    uint32_t k = slot - r->a, vec = ISA_REGS_VEC(r->b);
    const char *base = r->name ? r->name : f->regname[r->a];
    if (!(r->b & ISA_REGS_RANGE)) { if (r->b > 1) snprintf(buf, n, "%s.%c", base, elem[k & 3]); return; }
    if (vec > 1) snprintf(buf, n, "%s%u.%c", base, k / vec, elem[k % vec & 3]);
    else snprintf(buf, n, "%s%u", base, k);
    return;
  }
}

static bool reg_slot(const isa_func *f, const char *name, uint32_t *slot) {
  char buf[128];
  for (uint32_t s = 0; s < f->nregs; s++) {
    reg_name(f, s, buf, sizeof buf);
    if (strcmp(buf, name) == 0) { *slot = s; return true; }
  }
  return false;
}

/* The register row and type of a register name for the function of the
 * focused lane; false with a message when there is none. */
static bool reg_row(dbg *d, const warp *w, int lane, const char *name, uint32_t *row, int *type) {
  const emu *e = d->e;
  for (size_t k = 0; k < sizeof sregs / sizeof *sregs; k++)
    if (strcmp(name, sregs[k].name) == 0) { *row = e->sr_base + (uint32_t)sregs[k].sr; *type = PTX_T_U32; return true; }
  const isa_func *f = e->prog[dbg_lane_pc(w, lane)].f;
  uint32_t s;
  if (reg_slot(f, name, &s)) {
    *row = e->row_base[f - e->m->funcs] + s;
    *type = f->regtype[s];
    return true;
  }
  dbg_printf(d, "No register %s in %s ('info registers' lists them).\n", name, f->name);
  return false;
}

static int print_reg(dbg *d, const char *name, const char *rest) {
  int lane;
  const warp *w = dbg_focus_warp(d, &lane);
  if (!w) { dbg_printf(d, "The focused block is not running.\n"); return -1; }
  uint32_t row;
  int type;
  if (!reg_row(d, w, lane, name, &row, &type)) return -1;
  const char *tn = ptx_type_names[type];
  char v[64];
  rest = skip_ws(rest);
  if (*rest) {
    int one = -1;
    char *e;
    if (strncmp(rest, "lane", 4) == 0) {
      long l = strtol(rest + 4, &e, 10);
      if (e == rest + 4 || *skip_ws(e) || l < 0 || l >= WARP_SIZE) { dbg_printf(d, "Bad lane: 'lane N' with N from 0 to 31.\n"); return -1; }
      one = (int)l;
      if ((uint32_t)one >= w->nthreads) { dbg_printf(d, "Lane %d of warp %u has no thread (the block's last warp is partial).\n", one, w->id); return -1; }
    } else if (strcmp(rest, "thread") == 0) one = lane;
    else { dbg_printf(d, "After the register: 'lane N' or 'thread' (the focused thread), not '%s'.\n", rest); return -1; }
    uint32_t t[3];
    dbg_thread_of(d, w, one, t);
    dbg_format_value(v, sizeof v, type, w->r[row][one]);
    dbg_printf(d, "%s (.%s) lane %d [thread (%u,%u,%u)] = %s%s\n", name, tn, one, t[0], t[1], t[2], v,
               w->state[one] == TS_EXITED ? "   (the thread has exited)" : "");
    return 0;
  }
  dbg_printf(d, "%s (.%s) in warp %u of block (%u,%u,%u), by lane:\n", name, tn, w->id, w->cta->id[0], w->cta->id[1], w->cta->id[2]);
  bool gone = false;
  for (uint32_t l0 = 0; l0 < w->nthreads; l0 += 8) {
    uint32_t l1 = l0 + 8 < w->nthreads ? l0 + 8 : w->nthreads;
    char range[16];
    snprintf(range, sizeof range, "[%u-%u]", l0, l1 - 1);
    dbg_printf(d, "  %-8s", range);
    for (uint32_t l = l0; l < l1; l++) {
      if (w->state[l] == TS_EXITED) { dbg_printf(d, " -"); gone = true; continue; }
      dbg_format_value(v, sizeof v, type, w->r[row][l]);
      dbg_printf(d, " %s", v);
    }
    dbg_printf(d, "\n");
  }
  if (gone) dbg_printf(d, "  (-: the thread has exited)\n");
  return 0;
}

/* Whether a symbol's name is name, or a function-local static that nvcc
 * demoted to module scope under a mangled name (_ZZ6reduceE3buf: buf). */
static bool sym_is(const char *sym, const char *name) {
  if (strcmp(sym, name) == 0) return true;
  if (strncmp(sym, "_ZZ", 3)) return false;
  const char *e = strrchr(sym, 'E');
  if (!e) return false;
  char *end;
  unsigned long n = strtoul(e + 1, &end, 10);
  return n == strlen(name) && strcmp(end, name) == 0;
}

bool dbg_symbol(dbg *d, const char *name, int *space, uint64_t *addr, uint64_t *size, int *type) {
  if (!d->e) return false;
  emu *e = d->e;
  const isa_module *m = e->m;
  for (int pass = 0; pass < 2; pass++)
  for (uint32_t i = 0; i < m->nsyms; i++) {
    const isa_sym *s = &m->syms[i];
    if (s->is_func || (pass == 0 ? strcmp(s->name, name) != 0 : !sym_is(s->name, name))) continue;
    *type = s->type;
    /* nvcc declares arrays as .b8 bytes: aligned to 4, read them as ints
     * (a cast such as (f32)buf[3] says otherwise) */
    if (s->type == PTX_T_B8 && s->align >= 4 && s->size % 4 == 0) *type = PTX_T_S32;
    *size = s->size;
    *space = s->space;
    /* laid out for the kernel debugged, also before its launch runs */
    if (s->space == PTX_SPACE_SHARED) return emu_shared_offset(m, (int)d->launch.func, i, addr);
    if (s->space == PTX_SPACE_GLOBAL || s->space == PTX_SPACE_CONST) { *addr = e->sym_addr[i]; return true; }
  }
  const isa_func *k = &m->funcs[d->launch.func];
  for (uint32_t i = k->nrets; i < k->nrets + k->nparams && i < k->nsyms; i++) {
    const isa_sym *s = &k->syms[i];
    if (strcmp(s->name, name)) continue;
    *type = s->type;
    *size = s->size;
    *space = PTX_SPACE_PARAM;
    *addr = s->offset;
    return true;
  }
  return false;
}

static uint64_t le(const uint8_t *p, uint32_t n) { uint64_t v = 0; for (uint32_t i = 0; i < n && i < 8; i++) v |= (uint64_t)p[i] << (8 * i); return v; }

/* A cast in front of a variable: (int), (float), (f32), (u64)... */
static int cast_type(const char *s, size_t n) {
  static const struct { const char *c; int t; } ct[] = { { "int", PTX_T_S32 }, { "unsigned", PTX_T_U32 }, { "float", PTX_T_F32 },
    { "double", PTX_T_F64 }, { "long", PTX_T_S64 }, { "char", PTX_T_S8 }, { "short", PTX_T_S16 }, { "half", PTX_T_F16 } };
  for (size_t k = 0; k < sizeof ct / sizeof *ct; k++) if (strlen(ct[k].c) == n && memcmp(ct[k].c, s, n) == 0) return ct[k].t;
  if (n && *s == '.') { s++; n--; }
  int t = (int)ptx_type_from_name(s, n);
  int b = ptx_type_bits((enum ptx_type)t);
  return b >= 8 && b <= 64 ? t : PTX_T_NONE;
}

static int print_symbol(dbg *d, const char *expr) {
  int cast = PTX_T_NONE;
  const char *full = expr;
  if (*expr == '(') {
    size_t cl = strcspn(expr, ")");
    if (!expr[cl] || (cast = cast_type(expr + 1, cl - 1)) == PTX_T_NONE) {
      dbg_printf(d, "Bad cast '%.*s': write (int), (unsigned), (float), (double) or a PTX type such as (f32) or (u64).\n", (int)cl + 1, expr);
      return -1;
    }
    expr = skip_ws(expr + cl + 1);
  }
  const char *label = expr;
  char name[256];
  size_t nl = strcspn(expr, "[ \t");
  snprintf(name, sizeof name, "%.*s", (int)(nl < 255 ? nl : 255), expr);
  int space, type;
  uint64_t addr, size;
  if (!dbg_symbol(d, name, &space, &addr, &size, &type)) {
    if (!d->e) dbg_printf(d, "The program is not running: variables can be read once it runs.\n");
    else dbg_printf(d, "No variable or kernel parameter named '%s' (registers start with %%, e.g. %%r1).\n", name);
    return -1;
  }
  if (cast != PTX_T_NONE) type = cast;
  int bits = ptx_type_bits((enum ptx_type)type);
  uint32_t es = bits >= 8 && bits <= 64 ? (uint32_t)bits / 8 : 1;
  if (bits < 8 || bits > 64) type = PTX_T_B8;
  const char *p = skip_ws(expr + nl);
  uint64_t first = 0, count = size / es ? size / es : 1;
  bool one = false;
  if (*p == '[') {
    char *e;
    first = strtoull(p + 1, &e, 0);
    if (e == p + 1 || *e != ']' || *skip_ws(e + 1)) { dbg_printf(d, "Bad index in '%s': write NAME[N].\n", expr); return -1; }
    if (size && first >= size / es) { dbg_printf(d, "Index %llu is past the end of %s (%llu elements of .%s).\n", (unsigned long long)first, name, (unsigned long long)(size / es), ptx_type_names[type]); return -1; }
    one = true;
    count = 1;
  } else if (*p) { dbg_printf(d, "Unexpected '%s' after %s.\n", p, name); return -1; }
  uint64_t shown = count > 64 ? 64 : count;
  const uint8_t *mem = dbg_mem(d, space, addr + first * es, (uint32_t)(shown * es));
  if (!mem) return -1;
  char v[64];
  if (one || count == 1) {
    dbg_format_value(v, sizeof v, type, le(mem, es));
    dbg_printf(d, "%.*s%s%s = %s\n", (int)(label - full), full, name, one ? p : "", v);
    return 0;
  }
  dbg_printf(d, "%.*s%s = {", (int)(label - full), full, name);
  for (uint64_t i = 0; i < shown; i++) {
    dbg_format_value(v, sizeof v, type, le(mem + i * es, es));
    dbg_printf(d, "%s%s", i ? ", " : "", v);
  }
  dbg_printf(d, "%s}\n", shown < count ? ", ..." : "");
  return 0;
}

int dbg_cmd_print(dbg *d, const char *args) {
  args = skip_ws(args);
  if (!*args) { dbg_printf(d, "print what? A register (print %%r1), a variable (print a[3]) or a kernel parameter.\n"); return -1; }
  if (*args == '%' || *args == '$') {
    if (!dbg_is_running(d, true)) return -1;
    char name[64];
    size_t n = strcspn(args, " \t");
    snprintf(name, sizeof name, "%%%.*s", (int)(n - 1 < 62 ? n - 1 : 62), args + 1);
    return print_reg(d, name, args + n);
  }
  return print_symbol(d, args);
}

int dbg_cmd_info_registers(dbg *d, const char *args) {
  if (!dbg_is_running(d, true)) return -1;
  args = skip_ws(args);
  if (*args) return print_reg(d, args, "thread");
  int lane;
  const warp *w = dbg_focus_warp(d, &lane);
  if (!w) { dbg_printf(d, "The focused block is not running.\n"); return -1; }
  const isa_func *f = d->e->prog[dbg_lane_pc(w, lane)].f;
  dbg_printf(d, "Registers of thread (%u,%u,%u) in %s (lane %d of warp %u):\n", d->fthread[0], d->fthread[1], d->fthread[2], f->name, lane, w->id);
  uint32_t base = d->e->row_base[f - d->e->m->funcs];
  for (uint32_t s = 0; s < f->nregs; s++) {
    char v[64], name[128];
    reg_name(f, s, name, sizeof name);
    dbg_format_value(v, sizeof v, f->regtype[s], w->r[base + s][lane]);
    dbg_printf(d, "  %-8s .%-5s %s\n", name, ptx_type_names[f->regtype[s]], v);
  }
  return 0;
}
