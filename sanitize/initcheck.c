/* sanitize/initcheck.c - reads of memory nobody wrote.
 * Global memory: the allocations the host made (launch-file buffers,
 * cudaMalloc) start undefined; the host's writes (buffer contents,
 * cudaMemcpy/cudaMemset) and kernel stores define bytes, one bit per byte.
 * Module variables and other regions are always defined.
 * Shared memory: every block starts undefined; its own stores define it.
 * Instructions whose writes the emulator does not report (cp.async, bulk and
 * tensor copies, wmma.store, stmatrix, surface stores...) make the checker
 * stop for the block (shared) or the launch (global): it never guesses. */
#include <string.h>
#include "sanitize/internal.h"
/* messages are cut at their buffer's end, on purpose */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

void init_mark(san_region *r, uint64_t off, uint64_t n) {
  if (!r->init) return;
  uint64_t end = off + n;
  while (off < end && (off & 7)) { r->init[off >> 3] |= (uint8_t)(1u << (off & 7)); off++; }
  if (end - off >= 8) { memset(r->init + (off >> 3), 0xff, (end - off) >> 3); off += (end - off) & ~7ull; }
  while (off < end) { r->init[off >> 3] |= (uint8_t)(1u << (off & 7)); off++; }
}

/* first undefined byte of [off, off+n) in bits, or -1 */
static int64_t undefined(const uint8_t *bits, uint64_t off, uint32_t n) {
  for (uint64_t b = off; b < off + n; b++) if (!(bits[b >> 3] >> (b & 7) & 1)) return (int64_t)b;
  return -1;
}

static void set_bits(uint8_t *bits, uint64_t off, uint32_t n) {
  for (uint64_t b = off; b < off + n; b++) bits[b >> 3] |= (uint8_t)(1u << (b & 7));
}

static void report(sanitizer *s, const warp *w, const xinsn *x, int lane, bool shared, uint64_t addr, uint32_t size) {
  bool fresh;
  san_finding *f = san_record(s, SAN_INITCHECK, shared ? SK_UNINIT_SHARED : SK_UNINIT_GLOBAL, x->spc, 0, &fresh);
  if (!f || !fresh) return;
  san_site_of(s, &f->a, x->spc, x->in->op == OP_LD || x->in->op == OP_LDU ? 0 : 2, w->cta->linear, w->id * WARP_SIZE + (uint32_t)lane);
  f->space = shared ? "shared" : "global";
  f->addr = addr;
  f->size = size;
  san_describe_addr(s, f, shared, addr);
  char here[200];
  if (f->a.cuda_line) snprintf(here, sizeof here, "%s:%u", f->a.cuda_file, f->a.cuda_line);
  else snprintf(here, sizeof here, "PTX line %u", f->a.ptx_line);
  if (shared)
    snprintf(f->message, sizeof f->message, "read at %s of shared memory %s that no thread of this block wrote: "
             "store it (and __syncthreads()) before reading it, or read only what was stored", here, f->variable);
  else
    snprintf(f->message, sizeof f->message, "read at %s of device memory %s that neither the host nor a kernel wrote: "
             "copy data in (cudaMemcpy, a buffer with contents) or initialise it (cudaMemset) first", here, f->variable);
}

void init_mem(sanitizer *s, const warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, bool shared) {
  int op = x->in->op;
  bool store = op == OP_ST, atomic = op == OP_ATOM || op == OP_RED;
  if (!store && !atomic && op != OP_LD && op != OP_LDU) return;
  bool check = !store;                        /* atom and red read the old value */
  if (shared) {
    san_cta *sc = san_cta_of(s, w);
    if (!sc || !sc->init || sc->blind) return;
    uint64_t limit = w->cta->shared_size;
    if (check) FOR_LANES(i) {
      if (!(m >> i & 1) || a[i] + size > limit) continue;
      if (undefined(sc->init, a[i], size) >= 0) { report(s, w, x, i, true, a[i], size); break; }
    }
    FOR_LANES(i) if ((m >> i & 1) && a[i] + size <= limit && (store || atomic)) set_bits(sc->init, a[i], size);
    return;
  }
  if (s->init_blind) return;
  bool reported = false;
  FOR_LANES(i) {
    if (!(m >> i & 1)) continue;
    san_region *r = san_region_at(s, a[i]);
    if (!r || !r->tracked || !r->init) continue;
    uint64_t off = a[i] - r->base;
    if (off + size > r->size) continue;
    if (check && !reported && undefined(r->init, off, size) >= 0) { report(s, w, x, i, false, a[i], size); reported = true; }
    if (store || atomic) set_bits(r->init, off, size);
  }
}

void init_insn(sanitizer *s, const warp *w, const xinsn *x, lanemask m, lanemask g) {
  (void)x; (void)m;
  if (!g) return;
  san_cta *sc = san_cta_of(s, w);
  if (sc) sc->blind = true;
  s->init_blind = true;
}

/* After a launch whose writes were not all seen, its allocations count as
 * written: a later launch must not report what this one may have stored. */
void init_launch_end(sanitizer *s) {
  if (!s->init_blind) return;
  for (uint32_t i = 0; i < s->nregions; i++) if (s->regions[i].tracked) init_mark(&s->regions[i], 0, s->regions[i].size);
}
