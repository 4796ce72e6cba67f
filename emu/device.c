/* emu/device.c - the emulated device: global memory regions (buffers,
 * module variables, kernel parameters, the malloc heap) and translation of
 * addresses in every space to host pointers, with bounds and alignment
 * checked on every access so no emulated access can reach ptxemu's own
 * memory. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "emu/emu.h"
#include "emu/internal.h"
#include "memmodel/space.h"
#include "util/rss.h"
#include "memmodel/memsys.h"
#include "memmodel/ifetch.h"
#include "util/demangle.h"
#include "util/lazymap.h"
#include "util/vec.h"

/* Default host-memory cap: half of the machine's physical memory, so a
 * kernel that touches too much is a clear error, not an OOM kill. */
uint64_t emu_default_mem_cap(void) {
  long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);
  uint64_t phys = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 8ull << 30;
  uint64_t cap = phys / 2;
  return cap < (256ull << 20) ? 256ull << 20 : cap;
}

void emu_default_options(emu_options *o) {
  memset(o, 0, sizeof *o);
  o->max_warp_insts = 2000000000ull;
  o->resident_ctas = 16;
  o->slice = 4096;
  o->heap_bytes = 8u << 20;
  o->mem_cap = emu_default_mem_cap();
  o->device_bytes = EMU_DEVICE_BYTES;
  o->stack_bytes = 1024;
  o->nsm = 132;
  o->printf_out = stdout;
  o->counters = true;
}

/* Insert a region keeping the table sorted by base; NULL on no memory. */
static mem_region *insert_region(emu *e, uint64_t base) {
  if (e->nregions == e->capregions) {
    uint32_t nc = e->capregions ? e->capregions * 2 : 16;
    mem_region *nr = realloc(e->regions, nc * sizeof *nr);
    if (!nr) return NULL;
    e->regions = nr;
    e->capregions = nc;
  }
  uint32_t lo = 0, hi = e->nregions;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (e->regions[mid].base < base) lo = mid + 1; else hi = mid;
  }
  memmove(&e->regions[lo + 1], &e->regions[lo], (e->nregions - lo) * sizeof *e->regions);
  e->nregions++;
  e->last_region = 0;
  mem_region *r = &e->regions[lo];
  memset(r, 0, sizeof *r);
  r->base = base;
  return r;
}

/* Zeroed memory for an allocation.  Large ones get a mapping of their own
 * with no swap reserved, so the host pays only for the pages a kernel or a
 * copy touches (a 40 GB cudaMalloc of which 1 MB is used costs about 1 MB);
 * resident memory is held to --max-memory by emu_over_budget. */
static uint8_t *alloc_zeroed(uint64_t size, bool *mapped) {
  *mapped = false;
  if (size < (1u << 20)) return calloc(1, size ? size : 1);
  if (size > SIZE_MAX) return NULL;
  void *p = lazymap_zeroed((size_t)size);
  if (!p) return NULL;
  *mapped = true;
  return p;
}

static void free_data(mem_region *r) {
  if (r->external) return;
  if (r->mapped) munmap(r->data, (size_t)r->size);
  else free(r->data);
}

/* The end, gap included, of whatever in the global window meets
 * [a, a+n) or the 4 KiB after it: a region (with the gap after it) or a
 * reserved range; 0 when nothing does. */
static uint64_t obstacle_end(const emu *e, uint64_t a, uint64_t n) {
  uint64_t end = a + n + 4096, past = 0;
  for (uint32_t i = 0; i < e->nregions; i++) {
    const mem_region *r = &e->regions[i];
    if (r->base < GLOBAL_BASE || r->base >= EMU_ADDR_MAP_HI) continue;
    uint64_t rend = r->base + r->size + 4096;
    if (r->base < end && rend > a && rend > past) past = rend;
  }
  for (uint32_t i = 0; i < e->nvranges; i++) {
    const struct emu_vrange *v = &e->vranges[i];
    uint64_t vend = v->base + v->size + 4096;
    if (v->base < end && vend > a && vend > past) past = vend;
  }
  return past;
}

/* First align-aligned address (align a power of two) from which size
 * bytes and the 4 KiB gap after them fit in the global window: after the
 * last allocation or reservation while the window lasts, then in the
 * first hole freed ones left (a program that allocates and frees in a
 * loop never runs out of addresses). */
static uint64_t place(const emu *e, uint64_t size, uint64_t align) {
  uint64_t room = EMU_ADDR_MAP_HI - GLOBAL_BASE;
  if (size > room - 4096 - (align - 1)) return 0;
  uint64_t base = (e->next_base + align - 1) & ~(align - 1);
  if (base - GLOBAL_BASE <= room - 4096 - size) return base;
  base = (GLOBAL_BASE + align - 1) & ~(align - 1);
  for (;;) {
    if (base - GLOBAL_BASE > room - 4096 - size) return 0;
    uint64_t past = obstacle_end(e, base, size);
    if (!past) return base;
    base = (past + align - 1) & ~(align - 1);
  }
}

/* A region of size zeroed bytes at base, the range (and its gap) free. */
static uint64_t new_region(emu *e, uint64_t base, uint64_t size, const char *name) {
  bool mapped;
  uint8_t *data = alloc_zeroed(size, &mapped);
  if (!data) return 0;
  mem_region *r = insert_region(e, base);
  if (!r) { if (mapped) munmap(data, (size_t)size); else free(data); return 0; }
  r->mapped = mapped;
  if (base + size + 4096 > e->next_base) e->next_base = base + size + 4096;
  r->size = size;
  r->data = data;
  r->name = name;
  e->mem_used += size;
  return base;
}

uint64_t emu_alloc(emu *e, uint64_t size, const char *name) {
  if (size > e->opt.device_bytes || e->mem_used + size > e->opt.device_bytes) return 0;
  /* 256-byte aligned like cudaMalloc, with a gap so that running off the end
   * of one allocation faults instead of landing in the next */
  uint64_t base = place(e, size, 256);
  return base ? new_region(e, base, size, name) : 0;
}

/* Zeroed memory at an address emu_alloc handed out before and that was
 * freed since (graph allocations keep their address across launches):
 * the range, with the gap after it, must still be free of regions and
 * reservations. */
uint64_t emu_alloc_at(emu *e, uint64_t base, uint64_t size, const char *name) {
  if (size > e->opt.device_bytes || e->mem_used + size > e->opt.device_bytes) return 0;
  if (base < GLOBAL_BASE || base >= EMU_ADDR_MAP_HI || size > EMU_ADDR_MAP_HI - base - 4096) return 0;
  return obstacle_end(e, base, size) ? 0 : new_region(e, base, size, name);
}

/* The emulator's own address windows (generic shared/local, functions)
 * and the range emu_alloc hands out. */
bool emu_in_windows(uint64_t a, uint64_t n) {
  uint64_t end = a + n;
  if (end < a) return true;
  if (a < GEN_WINDOW_SIZE) return true;
  return a < EMU_ADDR_MAP_HI && end > EMU_ADDR_MAP_LO;
}

/* A region over memory its caller owns (host memory, a VMM mapping), where
 * no region is yet; NULL when one overlaps or out of memory. */
static mem_region *map_external(emu *e, uint64_t base, void *data, uint64_t size, const char *name) {
  for (uint32_t i = 0; i < e->nregions; i++) {
    const mem_region *r = &e->regions[i];
    if (base < r->base + r->size && base + size > r->base) return NULL;
  }
  mem_region *r = insert_region(e, base);
  if (!r) return NULL;
  r->size = size;
  r->data = data;
  r->name = name;
  r->external = true;
  return r;
}

int emu_map_host(emu *e, uint64_t base, void *data, uint64_t size, const char *name) {
  if (!size || emu_in_windows(base, size)) return -1;
  return map_external(e, base, data, size, name) ? 0 : -1;
}

uint64_t emu_reserve(emu *e, uint64_t size, uint64_t align, uint64_t hint) {
  uint64_t room = EMU_ADDR_MAP_HI - GLOBAL_BASE;
  if (!size || !align || (align & (align - 1)) || size > room || align > room) return 0;
  if (e->nvranges == e->capvranges && !vec_grow((void **)&e->vranges, &e->capvranges, sizeof *e->vranges, 8)) return 0;
  uint64_t base = 0;
  if (hint && !(hint & (align - 1)) && hint >= GLOBAL_BASE && hint - GLOBAL_BASE <= room - 4096 &&
      size <= room - 4096 - (hint - GLOBAL_BASE) && !obstacle_end(e, hint, size))
    base = hint;
  if (!base) base = place(e, size, align);
  if (!base) return 0;
  uint32_t i = 0;
  while (i < e->nvranges && e->vranges[i].base < base) i++;
  memmove(&e->vranges[i + 1], &e->vranges[i], (e->nvranges - i) * sizeof *e->vranges);
  e->vranges[i] = (struct emu_vrange){ base, size };
  e->nvranges++;
  if (base + size + 4096 > e->next_base) e->next_base = base + size + 4096;
  return base;
}

int emu_unreserve(emu *e, uint64_t base, uint64_t size) {
  for (uint32_t i = 0; i < e->nvranges; i++) {
    if (e->vranges[i].base != base || e->vranges[i].size != size) continue;
    for (uint32_t k = 0; k < e->nregions; k++)
      if (e->regions[k].base >= base && e->regions[k].base - base < size) return -1;
    memmove(&e->vranges[i], &e->vranges[i + 1], (e->nvranges - i - 1) * sizeof *e->vranges);
    e->nvranges--;
    return 0;
  }
  return -1;
}

const struct emu_vrange *emu_reservation_of(const emu *e, uint64_t addr) {
  for (uint32_t i = 0; i < e->nvranges; i++)
    if (addr >= e->vranges[i].base && addr - e->vranges[i].base < e->vranges[i].size) return &e->vranges[i];
  return NULL;
}

int emu_map_reserved(emu *e, uint64_t base, uint8_t *data, uint64_t size, const char *name, bool readonly) {
  const struct emu_vrange *v = emu_reservation_of(e, base);
  if (!size || !v || size > v->size - (base - v->base)) return -1;
  mem_region *r = map_external(e, base, data, size, name);
  if (!r) return -1;
  r->readonly = readonly;
  return 0;
}

int emu_free_region(emu *e, uint64_t base) {
  for (uint32_t i = 0; i < e->nregions; i++) {
    mem_region *r = &e->regions[i];
    if (r->base != base) continue;
    if (!r->external) { free_data(r); e->mem_used -= r->size; }
    memmove(r, r + 1, (e->nregions - i - 1) * sizeof *r);
    e->nregions--;
    e->last_region = 0;
    return 0;
  }
  return -1;
}

const mem_region *emu_region_of(const emu *e, uint64_t addr) {
  for (uint32_t i = 0; i < e->nregions; i++)
    if (addr >= e->regions[i].base && addr - e->regions[i].base < e->regions[i].size) return &e->regions[i];
  return NULL;
}

/* Region holding [a, a+n), or NULL.  Regions are sorted by base. */
static mem_region *find_region(emu *e, uint64_t a, uint64_t n) {
  uint32_t lo = 0, hi = e->nregions;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (e->regions[mid].base + e->regions[mid].size <= a) lo = mid + 1;
    else hi = mid;
  }
  if (lo < e->nregions) {
    mem_region *r = &e->regions[lo];
    if (a >= r->base && a - r->base <= r->size && n <= r->size - (a - r->base)) return r;
  }
  return NULL;
}

uint8_t *emu_host_ptr(emu *e, uint64_t addr, uint64_t size) {
  mem_region *r = find_region(e, addr, size);
  return r ? r->data + (addr - r->base) : NULL;
}

uint8_t *mm_global_ptr(emu *e, uint64_t a, uint32_t n) {
  if (e->last_region < e->nregions) {   /* most accesses hit the region of the previous one */
    mem_region *r = &e->regions[e->last_region];
    if (a >= r->base && a - r->base < r->size && n <= r->size - (a - r->base)) return r->data + (a - r->base);
  }
  mem_region *r = find_region(e, a, n);
  if (!r) return NULL;
  e->last_region = (uint32_t)(r - e->regions);
  return r->data + (a - r->base);
}

/* Shared addresses at or above 1 << CLUSTER_RANK_SHIFT name the shared
 * memory of CTA (a >> shift) - 1 of the cluster (what mapa returns); lower
 * ones the executing CTA's own. */
uint8_t *mm_shared_ptr(cta *c, uint64_t a, uint32_t n) {
  if (a >> CLUSTER_RANK_SHIFT) {
    uint64_t rank = (a >> CLUSTER_RANK_SHIFT) - 1;
    const emu_launch *l = &c->e->launch;
    if (!c->peers || rank >= (uint64_t)l->cluster[0] * l->cluster[1] * l->cluster[2]) return NULL;
    c = &c->peers[rank];
    a &= (1ull << CLUSTER_RANK_SHIFT) - 1;
    if (!c->shared) return NULL;
  }
  if (a >= c->shared_size || n > c->shared_size - a) return NULL;
  return c->shared + a;
}

uint8_t *mm_local_ptr(warp *w, int lane, uint64_t a, uint32_t n) {
  if (a >= w->local_stride || n > w->local_stride - a) return NULL;
  return w->local + (size_t)lane * w->local_stride + a;
}

/* Module variables: one region per symbol so each is bounds-checked alone;
 * initialisers are copied and address initialisers patched. */
static int place_module_symbols(emu *e, emu_module *md) {
  isa_module *m = md->m;
  md->sym_addr = calloc(m->nsyms ? m->nsyms : 1, sizeof *md->sym_addr);
  md->shared_sym_off = calloc(m->nsyms ? m->nsyms : 1, sizeof *md->shared_sym_off);
  md->func_addr = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *md->func_addr);
  if (!md->sym_addr || !md->shared_sym_off || !md->func_addr) return -1;
  for (uint32_t i = 0; i < m->nfuncs; i++) md->func_addr[i] = FUNC_ADDR_BASE + 16ull * (e->next_func_index + i);
  e->next_func_index += m->nfuncs;
  for (uint32_t i = 0; i < m->nsyms; i++) {
    const isa_sym *s = &m->syms[i];
    if (s->space != PTX_SPACE_GLOBAL && s->space != PTX_SPACE_CONST) continue;   /* shared: laid out per kernel */
    uint64_t addr = emu_alloc(e, s->size, s->name);
    if (!addr) return -1;
    md->sym_addr[i] = addr;
    if (s->init) memcpy(emu_host_ptr(e, addr, s->size), s->init, s->size);
  }
  for (uint32_t i = 0; i < m->nsyms; i++) {
    const isa_sym *s = &m->syms[i];
    if (!md->sym_addr[i]) continue;
    uint8_t *p = emu_host_ptr(e, md->sym_addr[i], s->size);
    for (uint32_t k = 0; k < s->nrelocs; k++) {
      const isa_reloc *r = &s->relocs[k];
      uint64_t v = r->sym < m->nsyms ? md->sym_addr[r->sym] : md->func_addr[UINT32_MAX - r->sym];
      if (r->sym < m->nsyms && m->syms[r->sym].space == PTX_SPACE_SHARED)
        v = md->shared_sym_off[r->sym] + (r->generic ? GEN_SHARED_BASE : 0);
      v += (uint64_t)r->addend;
      /* the low 4 bytes in a .u32 variable; the reader checked that they lie inside it */
      uint32_t w = isa_reloc_bytes(s);
      if (s->size < w || r->offset > s->size - w) return -1;
      uint8_t le[8];
      for (int b = 0; b < 8; b++) le[b] = (uint8_t)(v >> (8 * b));
      memcpy(p + r->offset, le, w);
    }
  }
  return 0;
}

int emu_module_add(emu *e, isa_module *m) {
  emu_module *nm = realloc(e->mods, (e->nmods + 1) * sizeof *nm);
  if (!nm) return -1;
  e->mods = nm;
  emu_module *md = &e->mods[e->nmods];
  memset(md, 0, sizeof *md);
  md->m = m;
  e->nmods++;
  if (place_module_symbols(e, md)) return -1;
  return (int)e->nmods - 1;
}

void emu_module_select(emu *e, int idx) {
  emu_module *md = &e->mods[idx];
  e->m = md->m;
  e->sym_addr = md->sym_addr;
  e->shared_sym_off = md->shared_sym_off;
  e->func_addr = md->func_addr;
}

emu *emu_new(isa_module *m, const emu_options *opt) {
  emu *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  if (opt) e->opt = *opt; else emu_default_options(&e->opt);
  e->next_base = GLOBAL_BASE;
  e->rss_base = rss_bytes();
  if (m) {
    int idx = emu_module_add(e, m);
    if (idx < 0) { emu_free(e); return NULL; }
    emu_module_select(e, idx);
  }
  e->heap_size = e->opt.heap_bytes;
  e->heap_base = emu_alloc(e, e->heap_size, "device heap");
  emu_heap_init(e);
  return e;
}

void emu_free(emu *e) {
  if (!e) return;
  for (uint32_t i = 0; i < e->nregions; i++) free_data(&e->regions[i]);
  free(e->regions);
  free(e->vranges);
  for (uint32_t i = 0; i < e->nmods; i++) {
    free(e->mods[i].sym_addr);
    free(e->mods[i].shared_sym_off);
    free(e->mods[i].func_addr);
  }
  free(e->mods);
  emu_cdp_free(e);
  emu_unprepare(e);
  memsys_free(e->memsys_keep);
  ifetch_free(e->ifetch_keep);
  free(e->pbuf);
  emu_heap_free(e);
  free(e);
}

uint64_t emu_symbol_addr(emu *e, const char *name, uint64_t *size) {
  if (!e->m) return 0;
  for (uint32_t i = 0; i < e->m->nsyms; i++)
    if (strcmp(e->m->syms[i].name, name) == 0 && e->sym_addr[i]) {
      if (size) *size = e->m->syms[i].size;
      return e->sym_addr[i];
    }
  return 0;
}

void emu_fault_at(warp *w, const xinsn *x, int lane, int kind, const char *fmt, ...) {
  emu *e = w->e;
  if (e->faulted) return;
  e->faulted = true;
  emu_fault *f = &e->fault;
  f->kind = kind;
  f->pc = x ? x->pc : UINT32_MAX;     /* no location: launch-wide faults */
  f->lane = (uint32_t)lane;
  for (int k = 0; k < 3; k++) f->cta[k] = w->cta->id[k];
  uint32_t t = w->id * WARP_SIZE + (uint32_t)lane;
  const emu_launch *l = &e->launch;
  f->tid[0] = t % l->block[0];
  f->tid[1] = t / l->block[0] % l->block[1];
  f->tid[2] = t / (l->block[0] * l->block[1]);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->msg, sizeof f->msg, fmt, ap);
  va_end(ap);
  if (x && e->obs && e->obs->on_fault) e->obs->on_fault(e->obs->ctx, w, x);
}

/* Which allocation a bad global access ran off (the nearest one below or
 * above it), so the report says "N bytes past the end of 'x'". */
static void describe_overrun(const emu *e, uint64_t a, uint32_t n, FILE *out) {
  const mem_region *below = NULL, *above = NULL;
  for (uint32_t i = 0; i < e->nregions; i++) {
    const mem_region *r = &e->regions[i];
    if (r->base <= a) below = r;
    else if (!above) above = r;
  }
  uint64_t past = below ? a + n - (below->base + below->size) : UINT64_MAX;
  uint64_t before = above ? above->base - a : UINT64_MAX;
  if (below && past <= before && past < (1ull << 32))
    fprintf(out, "    the access ends %llu byte%s past the end of '%s' (%llu bytes at 0x%llx)\n", (unsigned long long)past,
            past == 1 ? "" : "s", below->name ? below->name : "an allocation", (unsigned long long)below->size,
            (unsigned long long)below->base);
  else if (above && before < (1ull << 32))
    fprintf(out, "    the access starts %llu byte%s before '%s' (%llu bytes at 0x%llx)\n", (unsigned long long)before,
            before == 1 ? "" : "s", above->name ? above->name : "an allocation", (unsigned long long)above->size,
            (unsigned long long)above->base);
}

void emu_request_stop(emu *e, const char *why) {
  e->stop_reason = why;
  e->deadline_ns = 1;                  /* both engines check budgets once it has passed */
}

void emu_source_suffix(const emu *e, const xinsn *x, char *buf, size_t n) {
  isa_source src;
  if (n) buf[0] = 0;
  if (x && isa_source_pos(e->m, x->f, x->in, &src)) snprintf(buf, n, ", %s:%u", isa_path_base(src.path), src.line);
}

void emu_print_fault(const emu *e, FILE *out) {
  const emu_fault *f = &e->fault;
  static const char *const kinds[] = { "", "out-of-bounds access", "misaligned access", "trap", "assertion failed",
    "barrier deadlock", "instruction budget exhausted", "stack overflow", "unsupported instruction",
    "bad address space", "device heap", "wall-time budget exhausted", "missing proxy fence", "output error",
    "out of memory", "stopped", "illegal instruction" };
  const xinsn *x = f->pc < e->nprog ? &e->prog[f->pc] : NULL;
  fprintf(out, "ptxemu: kernel fault: %s\n", f->kind < (int)(sizeof kinds / sizeof *kinds) ? kinds[f->kind] : "fault");
  if (f->msg[0]) fprintf(out, "    %s\n", f->msg);
  const struct emu_vrange *v = f->kind == FAULT_OOB ? emu_reservation_of(e, f->addr) : NULL;
  if (v)
    fprintf(out, "    the address lies in a range reserved by cuMemAddressReserve (%llu bytes at 0x%llx) with no memory "
            "mapped there that the device may access (cuMemMap, then cuMemSetAccess)\n", (unsigned long long)v->size,
            (unsigned long long)v->base);
  else if (f->kind == FAULT_OOB && f->space == PTX_SPACE_GLOBAL) describe_overrun(e, f->addr, f->size, out);
  if (f->kind != FAULT_DEADLOCK && f->pc != UINT32_MAX)
    fprintf(out, "    by thread (%u,%u,%u) in block (%u,%u,%u)\n", f->tid[0], f->tid[1], f->tid[2], f->cta[0], f->cta[1], f->cta[2]);
  if (x) {
    char name[256], fn[1024];
    isa_format_opname(x->in, name, sizeof name);
    fprintf(out, "    at %s:%u (pc %u in %s): %s\n", e->m->path, x->in->line, x->spc - e->func_base[x->f - e->m->funcs],
            demangle_or_self(x->f->name, fn, sizeof fn), name);
    isa_source src;
    if (isa_source_pos(e->m, x->f, x->in, &src)) {
      fprintf(out, "    at %s:%u", src.path, src.line);
      if (src.inlined_in && src.call_path)
        fprintf(out, " (in %s, inlined at %s:%u)", demangle_or_self(src.inlined_in, fn, sizeof fn), src.call_path, src.call_line);
      fputc('\n', out);
    }
  }
}
