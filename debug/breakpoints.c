/* debug/breakpoints.c - breakpoints (CUDA line, PTX line, PC, function
 * entry; optionally for one block and thread) and watchpoints (a global or
 * shared address; stop after a write changed it). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "debug/internal.h"

static const char *skip_ws(const char *s) { while (*s == ' ' || *s == '\t') s++; return s; }

bool dbg_parse_dim3(const char *s, uint32_t v[3], const char **end) {
  s = skip_ws(s);
  bool paren = *s == '(';
  if (paren) s++;
  v[0] = v[1] = v[2] = 0;
  for (int k = 0; k < 3; k++) {
    s = skip_ws(s);
    if (!isdigit((unsigned char)*s)) return false;
    char *e;
    unsigned long x = strtoul(s, &e, 10);
    if (x > 0x7fffffffu) return false;
    v[k] = (uint32_t)x;
    s = e;
    if (*skip_ws(s) != ',') break;
    s = skip_ws(s) + 1;
  }
  if (paren) { s = skip_ws(s); if (*s != ')') return false; s++; }
  if (*s && *s != ' ' && *s != '\t') return false;
  if (end) *end = skip_ws(s);
  return true;
}

static dbg_bp *new_bp(dbg *d, int kind, const char *where) {
  if (d->nbps == d->capbps) {
    int nc = d->capbps ? d->capbps * 2 : 8;
    dbg_bp *n = realloc(d->bps, (size_t)nc * sizeof *n);
    if (!n) return NULL;
    d->bps = n;
    d->capbps = nc;
  }
  dbg_bp *b = &d->bps[d->nbps];
  memset(b, 0, sizeof *b);
  b->kind = kind;
  b->where = strdup(where);
  if (!b->where) return NULL;
  d->nbps++;
  return b;
}

static void drop_bp(dbg *d, int i) {
  dbg_bp *b = &d->bps[i];
  free(b->where); free(b->file); free(b->func); free(b->at_f); free(b->at_i);
  memmove(b, b + 1, (size_t)(d->nbps - i - 1) * sizeof *b);
  d->nbps--;
  d->has_watch = false;
  for (int k = 0; k < d->nbps; k++) if (d->bps[k].kind == BP_WATCH) d->has_watch = true;
}

static bool same_file(const char *user, const char *path) {
  /* "vecadd.cu" names ".../vecadd.cu"; a path with folders must match its end */
  size_t lu = strlen(user), lp = strlen(path);
  if (!strchr(user, '/')) return strcmp(user, isa_path_base(path)) == 0;
  return lu <= lp && strcmp(path + lp - lu, user) == 0 && (lu == lp || path[lp - lu - 1] == '/');
}

static bool add_at(dbg_bp *b, uint32_t f, uint32_t i) {
  uint32_t *nf = realloc(b->at_f, (b->nat + 1) * sizeof *nf);
  if (!nf) return false;
  b->at_f = nf;
  uint32_t *ni = realloc(b->at_i, (b->nat + 1) * sizeof *ni);
  if (!ni) return false;
  b->at_i = ni;
  b->at_f[b->nat] = f;
  b->at_i[b->nat++] = i;
  return true;
}

/* Whether instruction i of function f is reached only by running on from
 * the last place b has in f (no label between): a CUDA line whose code is
 * split by another line's stops once, as in gdb. */
static bool fallthrough_from(const dbg_bp *b, const isa_func *fn, uint32_t f, uint32_t i) {
  if (!b->nat || b->at_f[b->nat - 1] != f) return false;
  uint32_t p = b->at_i[b->nat - 1];
  for (uint32_t k = 0; k < fn->nlabels; k++) if (fn->label_pc[k] > p && fn->label_pc[k] <= i) return false;
  return true;
}

/* The instructions of b in module m; 0 or a message saying why none. */
static int resolve(dbg *d, dbg_bp *b, const isa_module *m, char *err, size_t n) {
  free(b->at_f); free(b->at_i);
  b->at_f = b->at_i = NULL;
  b->nat = 0;
  b->rm = m;
  if (b->kind == BP_FUNC || b->kind == BP_PC) {
    int f = isa_find_func(m, b->func);
    if (f < 0 || !m->funcs[f].has_body) {
      int k = snprintf(err, n, "No function '%s' in %s; its kernels:", b->func, isa_path_base(m->path ? m->path : "the module"));
      for (uint32_t i = 0; i < m->nfuncs && k > 0 && (size_t)k < n; i++)
        if (m->funcs[i].is_entry) k += snprintf(err + k, n - (size_t)k, " %s", m->funcs[i].name);
      return -1;
    }
    uint32_t pc = b->kind == BP_PC ? b->pc : 0;
    if (pc >= m->funcs[f].ninsns) { snprintf(err, n, "%s has %u instructions (pc 0 to %u), not pc %u", b->func, m->funcs[f].ninsns, m->funcs[f].ninsns - 1, pc); return -1; }
    return add_at(b, (uint32_t)f, pc) ? 0 : -1;
  }
  /* lines: the first line at or after the one asked that has code */
  uint32_t best = UINT32_MAX;
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t f = 0; f < m->nfuncs; f++) {
      const isa_func *fn = &m->funcs[f];
      uint32_t prev_line = 0;
      const char *prev_path = NULL;
      for (uint32_t i = 0; i < fn->ninsns; i++) {
        uint32_t line;
        const char *path = NULL;
        if (b->kind == BP_PTX_LINE) line = fn->insns[i].line;
        else {
          isa_source src;
          if (!isa_source_pos(m, fn, &fn->insns[i], &src) || !same_file(b->file, src.path)) { prev_line = 0; continue; }
          line = src.line;
          path = src.path;
        }
        bool first = line != prev_line || path != prev_path;   /* the first instruction of the line's run */
        prev_line = line;
        prev_path = path;
        if (pass == 0) { if (line >= b->line && line < best) best = line; }
        else if (line == best && first && !(b->kind == BP_CUDA_LINE && fallthrough_from(b, fn, f, i)) && !add_at(b, f, i)) return -1;
      }
    }
    if (best == UINT32_MAX) {
      if (b->kind == BP_PTX_LINE) snprintf(err, n, "No instruction on line %u of %s or after it", b->line, isa_path_base(m->path ? m->path : "the module"));
      else {
        bool known = false;
        for (uint32_t k = 0; k < m->nfiles; k++) if (same_file(b->file, m->files[k].path)) known = true;
        if (known) snprintf(err, n, "No code on line %u of %s or after it", b->line, b->file);
        else {
          int k = snprintf(err, n, "No source file named '%s' in the kernel's line information", b->file);
          if (m->nfiles) for (uint32_t i = 0; i < m->nfiles && k > 0 && (size_t)k < n; i++) k += snprintf(err + k, n - (size_t)k, "%s%s", i ? ", " : " (it has: ", isa_path_base(m->files[i].path));
          else k += snprintf(err + k, n - (size_t)k, " (the PTX has no .file/.loc: compile with nvcc -lineinfo)");
          if (m->nfiles && k > 0 && (size_t)k < n) snprintf(err + k, n - (size_t)k, ")");
        }
      }
      return -1;
    }
  }
  if (best != b->line) {
    if (d) dbg_printf(d, "(line %u has no code; the breakpoint goes to line %u, the next with code)\n", b->line, best);
    b->line = best;
  }
  return 0;
}

static void describe(dbg *d, const dbg_bp *b, const isa_module *m) {
  if (b->kind == BP_CUDA_LINE) dbg_printf(d, "%s:%u", b->file, b->line);
  else if (b->kind == BP_PTX_LINE) dbg_printf(d, "%s:%u", isa_path_base(m ? m->path : "kernel.ptx"), b->line);
  else if (b->kind == BP_FUNC) dbg_printf(d, "%s (entry)", b->func);
  else dbg_printf(d, "pc %u in %s", b->pc, b->func);
}

static void describe_cond(dbg *d, const dbg_bp *b) {
  if (b->has_block) dbg_printf(d, " block (%u,%u,%u)", b->block[0], b->block[1], b->block[2]);
  if (b->has_thread) dbg_printf(d, " thread (%u,%u,%u)", b->thread[0], b->thread[1], b->thread[2]);
}

/* "if block X,Y,Z thread X,Y,Z" (either or both) */
static bool parse_cond(dbg *d, dbg_bp *b, const char *s) {
  s = skip_ws(s);
  while (*s) {
    const char *e;
    if (strncmp(s, "block", 5) == 0 && dbg_parse_dim3(s + 5, b->block, &e)) { b->has_block = true; s = e; }
    else if (strncmp(s, "thread", 6) == 0 && dbg_parse_dim3(s + 6, b->thread, &e)) { b->has_thread = true; s = e; }
    else if (strncmp(s, "&&", 2) == 0 || strncmp(s, "and", 3) == 0) s = skip_ws(s + (s[0] == '&' ? 2 : 3));
    else {
      dbg_printf(d, "Bad condition '%s': write 'if block X,Y,Z thread X,Y,Z' (either part may be left out).\n", s);
      return false;
    }
  }
  return true;
}

static const isa_module *cur_module(dbg *d) { return d->e ? d->e->m : NULL; }

int dbg_cmd_break(dbg *d, const char *args) {
  args = skip_ws(args);
  if (!*args) {
    dbg_printf(d, "break needs a place: FILE.cu:LINE, FILE.ptx:LINE, LINE (PTX), *PC or a function name.\n");
    return -1;
  }
  char spec[512];
  const char *cond = strstr(args, " if ");
  size_t sl = cond ? (size_t)(cond - args) : strcspn(args, " \t");
  if (sl >= sizeof spec) { dbg_printf(d, "The place is too long.\n"); return -1; }
  memcpy(spec, args, sl);
  spec[sl] = 0;
  const char *after = skip_ws(args + sl);
  if (!cond && *after) { dbg_printf(d, "Unexpected '%s' after the place: a condition is written 'if block X,Y,Z thread X,Y,Z'.\n", after); return -1; }
  dbg_bp tmp = { 0 };
  char *colon = strrchr(spec, ':');
  char *end;
  if (spec[0] == '*') {
    tmp.kind = BP_PC;
    unsigned long v = strtoul(spec + 1, &end, 0);
    if (spec[1] == 0 || *end || v > 0xffffffffu) { dbg_printf(d, "Bad PC '%s': *N is the N-th instruction (from 0) of the kernel.\n", spec); return -1; }
    tmp.pc = (uint32_t)v;
    const char *fn = NULL;
    if (d->sx) { int lane; const warp *w = dbg_focus_warp(d, &lane); fn = w ? d->e->prog[dbg_lane_pc(w, lane)].f->name : d->sx->f->name; }
    else if (d->e) fn = d->e->m->funcs[d->launch.func].name;
    if (!fn) { dbg_printf(d, "*PC needs a running kernel to say which function it is in.\n"); return -1; }
    tmp.func = strdup(fn);
  } else if (isdigit((unsigned char)spec[0])) {
    tmp.kind = BP_PTX_LINE;
    unsigned long v = strtoul(spec, &end, 10);
    if (*end || !v || v > 0xffffffffu) { dbg_printf(d, "Bad line '%s'.\n", spec); return -1; }
    tmp.line = (uint32_t)v;
  } else if (colon) {
    unsigned long v = strtoul(colon + 1, &end, 10);
    if (!colon[1] || *end || !v || v > 0xffffffffu) { dbg_printf(d, "Bad line in '%s': write FILE:LINE, e.g. vecadd.cu:12.\n", spec); return -1; }
    *colon = 0;
    tmp.line = (uint32_t)v;
    size_t fl = strlen(spec);
    const isa_module *m = cur_module(d);
    if (fl > 4 && strcmp(spec + fl - 4, ".ptx") == 0) {
      tmp.kind = BP_PTX_LINE;
      if (m && m->path && !same_file(spec, m->path)) {
        dbg_printf(d, "The kernel's PTX file is %s, not %s.\n", isa_path_base(m->path), spec);
        return -1;
      }
    } else { tmp.kind = BP_CUDA_LINE; tmp.file = strdup(spec); }
  } else {
    tmp.kind = BP_FUNC;
    tmp.func = strdup(spec);
  }
  if (cond && !parse_cond(d, &tmp, cond + 4)) { free(tmp.file); free(tmp.func); return -1; }
  if (cond && d->e && tmp.has_thread) {
    const uint32_t *bd = d->launch.block;
    if (d->launch.block[0] && (tmp.thread[0] >= bd[0] || tmp.thread[1] >= bd[1] || tmp.thread[2] >= bd[2]))
      dbg_printf(d, "(note: the blocks of this launch are (%u,%u,%u): no thread (%u,%u,%u))\n", bd[0], bd[1], bd[2],
                 tmp.thread[0], tmp.thread[1], tmp.thread[2]);
  }
  const isa_module *m = cur_module(d);
  if (m) {
    char err[512];
    if (resolve(d, &tmp, m, err, sizeof err)) {
      dbg_printf(d, "%s.\n", err);
      free(tmp.file); free(tmp.func); free(tmp.at_f); free(tmp.at_i);
      return -1;
    }
  }
  char where[600];
  snprintf(where, sizeof where, "%s", spec);
  dbg_bp *b = new_bp(d, tmp.kind, where);
  if (!b) { dbg_printf(d, "Out of memory.\n"); free(tmp.file); free(tmp.func); free(tmp.at_f); free(tmp.at_i); return -1; }
  char *w = b->where;
  *b = tmp;
  b->where = w;
  b->num = d->next_num++;
  dbg_printf(d, "Breakpoint %d at ", b->num);
  describe(d, b, m);
  if (m && b->nat) {
    const isa_func *fn = &m->funcs[b->at_f[0]];
    const isa_insn *in = &fn->insns[b->at_i[0]];
    isa_source src;
    bool cuda = b->kind != BP_CUDA_LINE && isa_source_pos(m, fn, in, &src);
    if (b->kind != BP_PTX_LINE || cuda) dbg_printf(d, " (");
    if (b->kind != BP_PTX_LINE) dbg_printf(d, "%s:%u%s", isa_path_base(m->path), in->line, cuda ? ", " : "");
    if (cuda) dbg_printf(d, "%s:%u", isa_path_base(src.path), src.line);
    if (b->kind != BP_PTX_LINE || cuda) dbg_printf(d, ")");
    if (b->nat > 1) dbg_printf(d, " and %u more places", b->nat - 1);
  } else if (!m) dbg_printf(d, " (pending: placed when the kernel's module loads)");
  if (b->has_block || b->has_thread) { dbg_printf(d, ", if"); describe_cond(d, b); }
  dbg_printf(d, "\n");
  return 0;
}

dbg_bp *dbg_bp_hit(dbg *d, const warp *w, const xinsn *x, lanemask m, int *lane) {
  const isa_module *mod = d->e->m;
  uint32_t f = (uint32_t)(x->f - mod->funcs), i = (uint32_t)(x->in - x->f->insns);
  for (int k = 0; k < d->nbps; k++) {
    dbg_bp *b = &d->bps[k];
    if (b->kind == BP_WATCH) continue;
    if (b->rm != mod) {
      char err[512];
      if (resolve(NULL, b, mod, err, sizeof err)) continue;   /* not in this module */
    }
    bool at = false;
    for (uint32_t j = 0; j < b->nat && !at; j++) at = b->at_f[j] == f && b->at_i[j] == i;
    if (!at) continue;
    if (b->has_block && memcmp(b->block, w->cta->id, sizeof b->block)) continue;
    if (b->has_thread) {
      const uint32_t *bd = d->launch.block;
      if (b->thread[0] >= bd[0] || b->thread[1] >= bd[1] || b->thread[2] >= bd[2]) continue;
      uint32_t t = b->thread[0] + bd[0] * (b->thread[1] + bd[1] * b->thread[2]);
      if (t / WARP_SIZE != w->id || !(m >> (t % WARP_SIZE) & 1)) continue;
      *lane = (int)(t % WARP_SIZE);
    }
    return b;
  }
  return NULL;
}

int dbg_cmd_delete(dbg *d, const char *args) {
  args = skip_ws(args);
  if (!*args) {
    int n = d->nbps;
    while (d->nbps) drop_bp(d, d->nbps - 1);
    dbg_printf(d, "Deleted all breakpoints and watchpoints (%d).\n", n);
    return 0;
  }
  while (*args) {
    char *e;
    long v = strtol(args, &e, 10);
    if (e == args || (*e && *e != ' ' && *e != '\t')) { dbg_printf(d, "delete takes breakpoint numbers (see 'info breakpoints'), not '%s'.\n", args); return -1; }
    int k = 0;
    while (k < d->nbps && d->bps[k].num != v) k++;
    if (k == d->nbps) dbg_printf(d, "No breakpoint number %ld.\n", v);
    else { drop_bp(d, k); dbg_printf(d, "Deleted breakpoint %ld.\n", v); }
    args = skip_ws(e);
  }
  return 0;
}

static const char *space_name(int s) { return s == PTX_SPACE_SHARED ? "shared" : "global"; }

void dbg_info_breakpoints(dbg *d) {
  if (!d->nbps) { dbg_printf(d, "No breakpoints or watchpoints.\n"); return; }
  dbg_printf(d, "Num  Type        Hits  Where\n");
  for (int k = 0; k < d->nbps; k++) {
    const dbg_bp *b = &d->bps[k];
    dbg_printf(d, "%-4d %-11s %4llu  ", b->num, b->kind == BP_WATCH ? "watchpoint" : "breakpoint", (unsigned long long)b->hits);
    if (b->kind == BP_WATCH) {
      dbg_printf(d, "%s (%u bytes of %s memory)", b->where, b->size, space_name(b->space));
      if (b->space == PTX_SPACE_SHARED) dbg_printf(d, " in block (%u,%u,%u)", b->block[0], b->block[1], b->block[2]);
    } else {
      describe(d, b, cur_module(d));
      if (b->has_block || b->has_thread) { dbg_printf(d, " if"); describe_cond(d, b); }
    }
    dbg_printf(d, "\n");
  }
}

/* ---- watchpoints ------------------------------------------------------------ */

int dbg_cmd_watch(dbg *d, const char *args) {
  args = skip_ws(args);
  if (!*args) { dbg_printf(d, "watch needs an address: 'watch global 0x...', 'watch shared 0x10' or 'watch VARIABLE[I]'.\n"); return -1; }
  if (!d->e) { dbg_printf(d, "The program is not running: set watchpoints once it stops (or before the kernel starts).\n"); return -1; }
  int space = -1, type = PTX_T_U32;
  uint64_t addr = 0, size = 4;
  char label[256];
  snprintf(label, sizeof label, "%s", args);
  size_t ll = strlen(label);
  while (ll && (label[ll - 1] == ' ' || label[ll - 1] == '\t')) label[--ll] = 0;
  if (strncmp(args, "local", 5) == 0 || strncmp(args, "const", 5) == 0 || strncmp(args, "param", 5) == 0) {
    dbg_printf(d, "Only global and shared memory can be watched (%.5s memory is the thread's own or read-only).\n", args);
    return -1;
  }
  if (strncmp(args, "global", 6) == 0 || strncmp(args, "shared", 6) == 0) {
    space = args[0] == 'g' ? PTX_SPACE_GLOBAL : PTX_SPACE_SHARED;
    char *e;
    const char *a = skip_ws(args + 6);
    addr = strtoull(a, &e, 0);
    if (e == a || *skip_ws(e)) { dbg_printf(d, "Bad address '%s': write a number such as 0x10.\n", a); return -1; }
  } else {
    char name[256];
    size_t nl = strcspn(args, "[ \t");
    snprintf(name, sizeof name, "%.*s", (int)(nl < 255 ? nl : 255), args);
    uint64_t ssize;
    if (!dbg_symbol(d, name, &space, &addr, &ssize, &type)) { dbg_printf(d, "No variable '%s' (watch takes 'global ADDR', 'shared ADDR' or a .global/.shared variable).\n", name); return -1; }
    if (space != PTX_SPACE_GLOBAL && space != PTX_SPACE_SHARED) { dbg_printf(d, "'%s' is in %s memory: only global and shared memory can be watched.\n", name, ptx_space_names[space]); return -1; }
    int bits = ptx_type_bits((enum ptx_type)type);
    size = bits >= 8 && bits <= 64 ? (uint64_t)bits / 8 : 4;
    const char *p = skip_ws(args + nl);
    if (*p == '[') {
      char *e;
      uint64_t idx = strtoull(p + 1, &e, 0);
      if (e == p + 1 || *e != ']') { dbg_printf(d, "Bad index in '%s'.\n", args); return -1; }
      if (ssize && (idx + 1) * size > ssize) { dbg_printf(d, "Index %llu is past the end of %s (%llu elements).\n", (unsigned long long)idx, name, (unsigned long long)(ssize / size)); return -1; }
      addr += idx * size;
    }
  }
  if (space == PTX_SPACE_GLOBAL && !emu_host_ptr(d->e, addr, size)) { dbg_printf(d, "Global address 0x%llx is not in any allocation.\n", (unsigned long long)addr); return -1; }
  dbg_bp *b = new_bp(d, BP_WATCH, label);
  if (!b) return -1;
  b->num = d->next_num++;
  b->space = space;
  b->addr = addr;
  b->size = (uint32_t)size;
  b->type = type;
  if (space == PTX_SPACE_SHARED) memcpy(b->block, d->fblock, sizeof b->block);
  d->has_watch = true;
  dbg_printf(d, "Watchpoint %d: %s (%u bytes of %s memory)", b->num, label, b->size, space_name(space));
  if (space == PTX_SPACE_SHARED) dbg_printf(d, " in block (%u,%u,%u)", b->block[0], b->block[1], b->block[2]);
  dbg_printf(d, "\n");
  /* the value now is the one a write changes */
  const uint8_t *p = NULL;
  if (space == PTX_SPACE_GLOBAL) p = emu_host_ptr(d->e, addr, size);
  else { cta *c = dbg_find_cta(d, b->block); if (c && addr + size <= c->shared_size) p = c->shared + addr; }
  if (p) { memcpy(b->old, p, b->size); b->have_old = true; }
  return 0;
}

static const uint8_t *watched(dbg *d, const dbg_bp *b) {
  if (b->space == PTX_SPACE_GLOBAL) return emu_host_ptr(d->e, b->addr, b->size);
  cta *c = dbg_find_cta(d, b->block);
  return c && b->addr + b->size <= c->shared_size ? c->shared + b->addr : NULL;
}

dbg_bp *dbg_watch_changed(dbg *d, uint8_t was[8]) {
  for (int k = 0; k < d->nbps; k++) {
    dbg_bp *b = &d->bps[k];
    if (b->kind != BP_WATCH) continue;
    const uint8_t *p = watched(d, b);
    if (!p) { if (b->space == PTX_SPACE_SHARED) b->have_old = false; continue; }
    if (!b->have_old) { memcpy(b->old, p, b->size); b->have_old = true; continue; }
    if (memcmp(b->old, p, b->size) == 0) continue;
    memcpy(was, b->old, 8);
    memcpy(b->old, p, b->size);
    return b;
  }
  return NULL;
}

void dbg_watch_note_mem(dbg *d, const warp *w, const uint64_t *a, lanemask m, uint32_t bytes, bool shared) {
  for (int k = 0; k < d->nbps; k++) {
    const dbg_bp *b = &d->bps[k];
    if (b->kind != BP_WATCH || (b->space == PTX_SPACE_SHARED) != shared) continue;
    if (shared && memcmp(b->block, w->cta->id, sizeof b->block)) continue;
    FOR_LANES(i) if (m >> i & 1 && a[i] < b->addr + b->size && a[i] + bytes > b->addr) { d->last.wlane = i; d->last.wmask |= 1u << i; }
  }
}

static uint64_t le(const uint8_t *p, uint32_t n) { uint64_t v = 0; for (uint32_t i = 0; i < n && i < 8; i++) v |= (uint64_t)p[i] << (8 * i); return v; }

void dbg_report_watch(dbg *d, dbg_bp *b, const uint8_t was[8]) {
  char ov[64], nv[64];
  b->hits++;
  dbg_format_value(ov, sizeof ov, b->type, le(was, b->size));
  dbg_format_value(nv, sizeof nv, b->type, le(b->old, b->size));
  dbg_printf(d, "\nWatchpoint %d: %s", b->num, b->where);
  if (b->space == PTX_SPACE_SHARED) dbg_printf(d, " (shared memory of block (%u,%u,%u))", b->block[0], b->block[1], b->block[2]);
  dbg_printf(d, "\nOld value = %s\nNew value = %s\n", ov, nv);
  const dbg_last *l = &d->last;
  int lane = l->wlane >= 0 ? l->wlane : l->g ? __builtin_ctz(l->g) : 0;
  const uint32_t *bd = d->launch.block;
  uint32_t t = l->warp * WARP_SIZE + (uint32_t)lane;
  dbg_printf(d, "written by thread (%u,%u,%u) of block (%u,%u,%u) at ", t % bd[0], t / bd[0] % bd[1], t / (bd[0] * bd[1]),
             l->block[0], l->block[1], l->block[2]);
  dbg_print_pos(d, l->x);
  dbg_printf(d, "\n");
  if (l->wmask & (l->wmask - 1))
    dbg_printf(d, "(%d threads of warp %u accessed it in that instruction: lanes 0x%08x)\n", popc32(l->wmask), l->warp, l->wmask);
}
