/* emu/builtins.c - the device runtime functions PTX calls but does not
 * define: vprintf (device printf), malloc/free (the device heap) and
 * __assertfail.  Arguments arrive as the caller's .param symbols. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"
#include "memmodel/space.h"

/* ---- heap: first fit over a block list kept outside device memory, so a
 * kernel that scribbles over the heap cannot corrupt the allocator ---- */
typedef struct hblock { uint64_t off, size; bool used; } hblock;
static hblock *heap_blocks(emu *e) { return (hblock *)e->heap_blocks; }

void emu_heap_init(emu *e) {
  free(e->heap_blocks);
  e->heap_blocks = calloc(1, sizeof(hblock));
  e->nheap = e->heap_blocks ? 1 : 0;
  if (e->nheap) heap_blocks(e)[0] = (hblock){ 0, e->heap_size, false };
}

static uint64_t heap_malloc(emu *e, uint64_t n) {
  if (!e->heap_base || n == 0) return 0;
  n = (n + 15) & ~15ull;
  hblock *b = heap_blocks(e);
  for (uint32_t i = 0; i < e->nheap; i++) {
    if (b[i].used || b[i].size < n) continue;
    if (b[i].size > n) {
      hblock *nb = realloc(e->heap_blocks, (e->nheap + 1) * sizeof *nb);
      if (!nb) return 0;
      e->heap_blocks = nb;
      b = nb;
      memmove(&b[i + 2], &b[i + 1], (e->nheap - i - 1) * sizeof *b);
      b[i + 1] = (hblock){ b[i].off + n, b[i].size - n, false };
      b[i].size = n;
      e->nheap++;
    }
    b[i].used = true;
    return e->heap_base + b[i].off;
  }
  return 0;
}

static bool heap_free(emu *e, uint64_t a) {
  if (!a) return true;
  hblock *b = heap_blocks(e);
  for (uint32_t i = 0; i < e->nheap; i++) {
    if (e->heap_base + b[i].off != a || !b[i].used) continue;
    b[i].used = false;
    if (i + 1 < e->nheap && !b[i + 1].used) {
      b[i].size += b[i + 1].size;
      memmove(&b[i + 1], &b[i + 2], (e->nheap - i - 2) * sizeof *b);
      e->nheap--;
    }
    if (i > 0 && !b[i - 1].used) {
      b[i - 1].size += b[i].size;
      memmove(&b[i], &b[i + 1], (e->nheap - i - 1) * sizeof *b);
      e->nheap--;
    }
    return true;
  }
  return false;
}

/* ---- reading device memory from the host side of a builtin ---------------- */

static const uint8_t *dev_bytes(warp *w, int lane, uint64_t a, uint32_t n) {
  switch (mm_classify(a)) {
  case MM_SHARED: return mm_shared_ptr(w->cta, a - GEN_SHARED_BASE, n);
  case MM_LOCAL: return mm_local_ptr(w, lane, a - GEN_LOCAL_BASE, n);
  default: return mm_global_ptr(w->e, a, n);
  }
}

/* A NUL-terminated string of at most max bytes, or NULL if unreadable. */
static const char *dev_string(warp *w, int lane, uint64_t a, char *buf, size_t max) {
  size_t i = 0;
  for (; i + 1 < max; i++) {
    const uint8_t *p = dev_bytes(w, lane, a + i, 1);
    if (!p) return NULL;
    buf[i] = (char)*p;
    if (!*p) return buf;
  }
  buf[i] = 0;
  return buf;
}

static void out(emu *e, const char *s, size_t n) {
  if (e->plen + n + 1 > e->pcap) {
    size_t nc = e->pcap ? e->pcap * 2 : 4096;
    while (nc < e->plen + n + 1) nc *= 2;
    char *nb = realloc(e->pbuf, nc);
    if (!nb) return;
    e->pbuf = nb;
    e->pcap = nc;
  }
  memcpy(e->pbuf + e->plen, s, n);
  e->plen += n;
}

static void outf(emu *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void outf(emu *e, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n > 0) out(e, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* Device printf: the argument buffer holds each argument at its natural
 * alignment (4 bytes for int, 8 for long, double and pointers).  Returns the
 * number of arguments, as the CUDA runtime's vprintf does. */
static int device_printf(warp *w, int lane, uint64_t fmt_addr, uint64_t args) {
  emu *e = w->e;
  char fmt[4096], sbuf[4096];
  if (!dev_string(w, lane, fmt_addr, fmt, sizeof fmt)) { out(e, "<printf: bad format address>\n", 29); return -1; }
  uint64_t off = 0;
  int nargs = 0;
  for (const char *p = fmt; *p;) {
    if (*p != '%') { const char *q = strchr(p, '%'); size_t n = q ? (size_t)(q - p) : strlen(p); out(e, p, n); p += n; continue; }
    if (p[1] == '%') { out(e, "%", 1); p += 2; continue; }
    /* %[flags][width][.prec][length]conv */
    char spec[64];
    size_t sl = 0;
    spec[sl++] = *p++;
    while (*p && strchr("-+ #0", *p) && sl < 40) spec[sl++] = *p++;
    while (*p && (*p >= '0' && *p <= '9') && sl < 40) spec[sl++] = *p++;
    if (*p == '.') { spec[sl++] = *p++; while (*p >= '0' && *p <= '9' && sl < 40) spec[sl++] = *p++; }
    int lng = 0;                           /* 0 int, 1 long, 2 long long, -1 short, -2 char */
    while (*p && strchr("hlLqjzt", *p)) {
      if (*p == 'l') lng++; else if (*p == 'h') lng--; else if (*p == 'L' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't') lng = 2;
      p++;
    }
    char conv = *p ? *p++ : 0;
    if (!conv) break;
    uint32_t size = 4;
    if (strchr("feEgGaAF", conv) || conv == 's' || conv == 'p' || lng >= 1) size = 8;
    off = (off + size - 1) / size * size;
    uint64_t v = 0;
    const uint8_t *src = args ? dev_bytes(w, lane, args + off, size) : NULL;
    if (src) memcpy(&v, src, size);
    off += size;
    nargs++;
    if (strchr("diouxXc", conv)) {
      spec[sl++] = 'l'; spec[sl++] = 'l'; spec[sl++] = conv; spec[sl] = 0;
      long long sv = size == 8 ? (long long)v : (long long)(int32_t)v;
      unsigned long long uv = size == 8 ? v : (uint32_t)v;
      if (lng == -1) { sv = (int16_t)sv; uv = (uint16_t)uv; } else if (lng == -2) { sv = (int8_t)sv; uv = (uint8_t)uv; }
      if (conv == 'c') { spec[sl - 3] = 'c'; spec[sl - 2] = 0; outf(e, spec, (int)(unsigned char)v); }
      else if (conv == 'd' || conv == 'i') outf(e, spec, sv);
      else outf(e, spec, uv);
    } else if (strchr("feEgGaAF", conv)) {
      spec[sl++] = conv; spec[sl] = 0;
      double d;
      memcpy(&d, &v, 8);
      outf(e, spec, d);
    } else if (conv == 's') {
      spec[sl++] = 's'; spec[sl] = 0;
      const char *s = v ? dev_string(w, lane, v, sbuf, sizeof sbuf) : "(null)";
      outf(e, spec, s ? s : "<bad string>");
    } else if (conv == 'p') {
      outf(e, "0x%" PRIx64, v);
    } else {
      out(e, spec, sl);
      out(e, &conv, 1);
    }
  }
  return nargs;
}

static uint64_t arg_u64(warp *w, int lane, const xinsn *x, const call_ops *c, uint32_t k, uint32_t size) {
  if (!c->args || k >= c->args->n) return 0;
  const isa_opnd *o = &x->f->pool[c->args->v + k];
  uint64_t v = 0;
  const uint8_t *p = emu_param_ptr(w, lane, x, o, size);
  if (p) memcpy(&v, p, size);
  else {
    int row = emu_row_of(w->e, x, o);
    v = row >= 0 ? w->r[row][lane] : (uint64_t)o->imm;
  }
  return v;
}

static void set_ret(warp *w, int lane, const xinsn *x, const call_ops *c, uint64_t v, uint32_t size) {
  if (!c->rets || !c->rets->n) return;
  const isa_opnd *o = &x->f->pool[c->rets->v];
  uint8_t *p = emu_param_ptr(w, lane, x, o, size);
  if (p) memcpy(p, &v, size);
  else { int row = emu_row_of(w->e, x, o); if (row >= 0) w->r[row][lane] = v; }
}

int emu_builtin_call(warp *w, const xinsn *x, lanemask m, const isa_func *callee) {
  emu *e = w->e;
  call_ops c = emu_call_operands(x);
  const char *n = callee->name;
  if (strcmp(n, "vprintf") == 0) {
    FOR_LANES(i) if (m >> i & 1) {
      int r = device_printf(w, i, arg_u64(w, i, x, &c, 0, 8), arg_u64(w, i, x, &c, 1, 8));
      set_ret(w, i, x, &c, (uint32_t)r, 4);
    }
    return 1;
  }
  if (strcmp(n, "malloc") == 0) {
    FOR_LANES(i) if (m >> i & 1) set_ret(w, i, x, &c, heap_malloc(e, arg_u64(w, i, x, &c, 0, 8)), 8);
    return 1;
  }
  if (strcmp(n, "free") == 0) {
    FOR_LANES(i) if (m >> i & 1) {
      uint64_t a = arg_u64(w, i, x, &c, 0, 8);
      if (!heap_free(e, a)) { emu_fault_at(w, x, i, FAULT_HEAP, "free of 0x%llx, which malloc did not return", (unsigned long long)a); return 1; }
    }
    return 1;
  }
  if (strcmp(n, "__assertfail") == 0 || strcmp(n, "__assert_fail") == 0) {
    FOR_LANES(i) if (m >> i & 1) {
      char msg[1024], file[1024], func[1024];
      const char *ms = dev_string(w, i, arg_u64(w, i, x, &c, 0, 8), msg, sizeof msg);
      const char *fs = dev_string(w, i, arg_u64(w, i, x, &c, 1, 8), file, sizeof file);
      uint32_t line = (uint32_t)arg_u64(w, i, x, &c, 2, 4);
      const char *fn = dev_string(w, i, arg_u64(w, i, x, &c, 3, 8), func, sizeof func);
      uint32_t t = w->id * WARP_SIZE + (uint32_t)i;
      const emu_launch *l = &e->launch;
      outf(e, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", fs ? fs : "?", line,
           fn ? fn : "?", w->cta->id[0], w->cta->id[1], w->cta->id[2], t % l->block[0], t / l->block[0] % l->block[1],
           t / (l->block[0] * l->block[1]), ms ? ms : "?");
    }
    emu_fault_at(w, x, __builtin_ctz(m), FAULT_ASSERT, "device-side assertion failed (message above)");
    return 1;
  }
  return 0;
}
