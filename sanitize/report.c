/* sanitize/report.c - findings: one record per distinct (tool, kind, PCs)
 * per launch with a count, described for a learner (what, where in the PTX
 * and the CUDA source, which variable, what to do), printed when the
 * launch ends and handed to the trace. */
#include <stdlib.h>
#include <string.h>
#include "sanitize/internal.h"
/* messages are cut at their buffer's end, on purpose */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

const char *const san_kind_names[SK_COUNT] = { "RAW", "WAR", "WAW", "divergent_barrier", "barrier_count",
  "warp_sync_mask", "mbarrier_phase", "uninitialized_global", "uninitialized_shared" };

static int tool_index(int tool) { return tool == SAN_RACECHECK ? 0 : tool == SAN_SYNCCHECK ? 1 : 2; }

static const xinsn *insn_of(const emu *e, uint32_t spc) {
  if (spc < e->nprog && e->prog[spc].spc == spc) return &e->prog[spc];
  for (uint32_t i = 0; i < e->nprog; i++) if (e->prog[i].spc == spc) return &e->prog[i];   /* a reordered timed run */
  return NULL;
}

void san_site_of(sanitizer *s, san_site *st, uint32_t spc, uint8_t access, uint32_t block_linear, uint32_t tid) {
  emu *e = s->e;
  memset(st, 0, sizeof *st);
  st->valid = true;
  st->access = access;
  const emu_launch *l = &e->launch;
  st->block[0] = block_linear % l->grid[0];
  st->block[1] = block_linear / l->grid[0] % l->grid[1];
  st->block[2] = block_linear / (l->grid[0] * l->grid[1]);
  st->thread[0] = tid % l->block[0];
  st->thread[1] = tid / l->block[0] % l->block[1];
  st->thread[2] = tid / (l->block[0] * l->block[1]);
  const xinsn *x = insn_of(e, spc);
  if (!x) return;
  st->pc = x->spc - e->func_base[x->f - e->m->funcs];
  st->ptx_line = x->in->line;
  isa_source src;
  if (isa_source_pos(e->m, x->f, x->in, &src)) {
    /* code inlined from a CUDA header (__syncwarp, atomicAdd): the line
     * of the program that called it says more */
    bool header = strstr(src.path, "/include/") != NULL;
    st->cuda_line = header && src.call_path ? src.call_line : src.line;
    snprintf(st->cuda_file, sizeof st->cuda_file, "%s", isa_path_base(header && src.call_path ? src.call_path : src.path));
  }
}

san_finding *san_record(sanitizer *s, int tool, enum san_kind kind, uint32_t key_a, uint32_t key_b, bool *fresh) {
  *fresh = false;
  for (uint32_t i = s->nfound; i-- > 0;) {
    san_finding *f = &s->found[i];
    if (f->tool == tool && f->kind == kind && f->key_a == key_a && f->key_b == key_b) { f->count++; return f; }
  }
  if (s->nfound == SAN_MAX_FINDINGS) { s->dropped++; return NULL; }
  if (!s->found) { s->found = malloc(SAN_MAX_FINDINGS * sizeof *s->found); if (!s->found) return NULL; }
  san_finding *f = &s->found[s->nfound++];
  memset(f, 0, sizeof *f);
  f->tool = tool;
  f->kind = kind;
  f->key_a = key_a;
  f->key_b = key_b;
  f->count = 1;
  *fresh = true;
  return f;
}

/* Whether the launched kernel names module symbol i (shared variables of
 * other kernels share its offsets). */
static bool kernel_names(const emu *e, uint32_t sym) {
  for (uint32_t p = 0; p < e->nprog; p++) {
    const xinsn *x = &e->prog[p];
    for (int k = 0; k < x->nops && k < XOPS; k++) {
      const isa_opnd *o = x->op[k].o;
      if (o && o->kind == OK_ADDRX) o = &x->f->pool[o->v];
      if (o && (o->kind == OK_ADDR || o->kind == OK_SYM) && (o->flags & OF_MODSYM) && !(o->flags & OF_FUNCSYM) && o->v == sym) return true;
    }
  }
  return false;
}

/* _ZZ6reduceE1s (a function's static variable) -> "s" in "reduce" */
static const char *static_name(const char *mangled, char *fn, size_t n) {
  fn[0] = 0;
  if (strncmp(mangled, "_ZZ", 3) != 0) return mangled;
  const char *p = mangled + 3;
  char *end;
  unsigned long fl = strtoul(p, &end, 10);
  if (!fl || strlen(end) < fl) return mangled;
  snprintf(fn, n, "%.*s", (int)fl, end);
  size_t len = strlen(mangled);
  for (const char *q = mangled + len - 1; q > end; q--) {
    if (*q != 'E') continue;
    unsigned long vl = strtoul(q + 1, &end, 10);
    if (vl && end > q + 1 && (size_t)(mangled + len - end) == vl) return end;
  }
  fn[0] = 0;
  return mangled;
}

void san_describe_addr(sanitizer *s, san_finding *f, bool shared, uint64_t addr) {
  emu *e = s->e;
  const isa_module *m = e->m;
  f->variable[0] = 0;
  for (uint32_t i = 0; i < m->nsyms; i++) {
    const isa_sym *sy = &m->syms[i];
    if (sy->is_func) continue;
    uint64_t base;
    if (shared) {
      if (sy->space != PTX_SPACE_SHARED || !e->shared_sym_off || !kernel_names(e, i)) continue;
      base = e->shared_sym_off[i];
      /* an extern array of open size runs to the end of shared memory */
      if (addr < base || (sy->size && addr - base >= sy->size)) continue;
    } else {
      if ((sy->space != PTX_SPACE_GLOBAL && sy->space != PTX_SPACE_CONST) || !e->sym_addr) continue;
      base = e->sym_addr[i];
      if (addr < base || addr - base >= sy->size) continue;
    }
    char fn[64];
    const char *name = static_name(sy->name, fn, sizeof fn);
    snprintf(f->variable, sizeof f->variable, "%s+%llu%s%s%s", name, (unsigned long long)(addr - base), fn[0] ? " (in " : "", fn,
             fn[0] ? ")" : "");
    if (!shared || sy->size) return;
  }
  if (f->variable[0] || shared) return;
  const mem_region *r = emu_region_of(e, addr);
  if (!r) return;
  if (r->name && r->name[0]) snprintf(f->variable, sizeof f->variable, "'%s'+%llu", r->name, (unsigned long long)(addr - r->base));
  else snprintf(f->variable, sizeof f->variable, "allocation 0x%llx+%llu", (unsigned long long)r->base, (unsigned long long)(addr - r->base));
}

static void print_site(sanitizer *s, const san_site *st, const char *label) {
  static const char *const acc[] = { "read ", "write", "atomic", "" };
  fprintf(s->out, "    %s%s%sby thread (%u,%u,%u) in block (%u,%u,%u) at %s:%u (pc %u)", label, acc[st->access & 3],
          st->access == 3 ? "" : " ", st->thread[0], st->thread[1], st->thread[2], st->block[0], st->block[1], st->block[2],
          s->e->m->path ? s->e->m->path : "PTX", st->ptx_line, st->pc);
  if (st->cuda_line) fprintf(s->out, ", %s:%u", st->cuda_file, st->cuda_line);
  fputc('\n', s->out);
}

/* A finding's identity across launches: tool, kind, kernel and both sites. */
static uint64_t finding_hash(const sanitizer *s, const san_finding *f) {
  uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
  MIX(f->tool); MIX(f->kind); MIX((uintptr_t)s->e->m);
  for (const char *c = s->kernel; c && *c; c++) MIX((unsigned char)*c);
  MIX(f->a.pc); MIX(f->a.ptx_line); MIX(f->b.valid); MIX(f->b.pc); MIX(f->b.ptx_line);
#undef MIX
  return h;
}

/* true the first time a finding is seen in the run */
static bool first_time(sanitizer *s, const san_finding *f) {
  uint64_t h = finding_hash(s, f);
  for (uint32_t i = 0; i < s->nseen; i++) if (s->seen[i] == h) return false;
  if (s->nseen == s->capseen) {
    uint32_t cap = s->capseen ? s->capseen * 2 : 64;
    uint64_t *n = realloc(s->seen, cap * sizeof *n);
    if (!n) return true;
    s->seen = n;
    s->capseen = cap;
  }
  s->seen[s->nseen++] = h;
  return true;
}

void san_report_launch(sanitizer *s) {
  static const char *const what[SK_COUNT] = { "read-after-write hazard", "write-after-read hazard", "write-after-write hazard",
    "barrier in divergent code", "barrier thread count", "warp-sync mask", "mbarrier phase that cannot complete",
    "uninitialized global memory read", "uninitialized shared memory read" };
  for (uint32_t i = 0; i < s->nfound; i++) {
    san_finding *f = &s->found[i];
    int t = tool_index(f->tool);
    if (s->sink) s->sink(s->sink_ctx, f);
    /* a kernel launched in a loop reports its hazard once */
    if (!first_time(s, f)) { s->repeats++; continue; }
    fprintf(s->out, "ptxemu: %s: %s", san_tool_names[t], what[f->kind]);
    if (f->kind <= SK_WAW) fprintf(s->out, " (%s) on %s memory", san_kind_names[f->kind], f->space);
    fprintf(s->out, " in kernel '%s', %llu time%s\n", s->kernel, (unsigned long long)f->count, f->count == 1 ? "" : "s");
    if (f->a.valid) print_site(s, &f->a, f->kind <= SK_WAW ? "" : f->b.valid ? "here:  " : "");
    if (f->b.valid) print_site(s, &f->b, f->kind <= SK_WAW ? "" : "other: ");
    if (f->space && (f->kind <= SK_WAW || f->kind >= SK_UNINIT_GLOBAL || f->kind == SK_MBARRIER))
      fprintf(s->out, "    address %s0x%llx%s%s\n", strcmp(f->space, "shared") == 0 ? "shared " : "", (unsigned long long)f->addr,
              f->variable[0] ? ": " : "", f->variable);
    fprintf(s->out, "    %s\n", f->message);
    s->total++;
    s->per_tool[t]++;
  }
  if (s->dropped)
    fprintf(s->out, "ptxemu: sanitizer: %llu more occurrences of further findings in kernel '%s' not shown (more than %d distinct)\n",
            (unsigned long long)s->dropped, s->kernel, SAN_MAX_FINDINGS);
  fflush(s->out);
  s->nfound = 0;
}
