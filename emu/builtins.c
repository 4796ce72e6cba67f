/* emu/builtins.c - the device runtime functions PTX calls but does not
 * define: vprintf (device printf), malloc/free (the device heap) and
 * __assertfail.  Arguments arrive as the caller's .param symbols. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"
#include "memmodel/space.h"

/* ---- heap: segregated free lists over 16-byte granules (two-level size
 * classes, like TLSF), with boundary tags and immediate coalescing.  Every
 * operation takes constant time.  The tags and links live in host arrays,
 * outside device memory, so a kernel that scribbles over the heap cannot
 * corrupt the allocator, and a free of anything but a live block's start
 * is caught. ---- */
#define H_USED 0x80000000u        /* tag of a block's first granule: in use      */
#define H_PREV_FREE 0x40000000u   /* ... and the block before it is free         */
#define H_SIZE 0x3fffffffu        /* its size in granules; a free block's last granule holds the size too */
#define H_NIL UINT32_MAX
#define H_EXACT 64                /* sizes below this many granules have a class each */
#define H_CLASSES (H_EXACT + 4 * 32)

typedef struct heap {
  uint32_t ngran;
  uint32_t *tag, *next, *prev;    /* per granule */
  uint32_t first[H_CLASSES];      /* free list of each class */
  uint64_t nonempty[(H_CLASSES + 63) / 64];
} heap;

/* Class of a block of k granules: exact below H_EXACT, then four classes
 * per power of two. */
static uint32_t h_class(uint32_t k) {
  if (k < H_EXACT) return k;
  uint32_t fl = 31u - (uint32_t)__builtin_clz(k);
  return H_EXACT + (fl - 6) * 4 + ((k >> (fl - 2)) & 3);
}

static void h_link(heap *h, uint32_t g, uint32_t size) {
  uint32_t c = h_class(size);
  h->prev[g] = H_NIL;
  h->next[g] = h->first[c];
  if (h->first[c] != H_NIL) h->prev[h->first[c]] = g;
  h->first[c] = g;
  h->nonempty[c / 64] |= 1ull << (c % 64);
}

static void h_unlink(heap *h, uint32_t g, uint32_t size) {
  uint32_t c = h_class(size);
  if (h->prev[g] != H_NIL) h->next[h->prev[g]] = h->next[g]; else h->first[c] = h->next[g];
  if (h->next[g] != H_NIL) h->prev[h->next[g]] = h->prev[g];
  if (h->first[c] == H_NIL) h->nonempty[c / 64] &= ~(1ull << (c % 64));
}

/* Make [g, g+size) one free block (its neighbours are in use or absent). */
static void h_put_free(heap *h, uint32_t g, uint32_t size) {
  h->tag[g] = size;
  h->tag[g + size - 1] = size;
  h_link(h, g, size);
  if (g + size < h->ngran) h->tag[g + size] |= H_PREV_FREE;
}

static uint64_t heap_meta(uint64_t ngran) { return ngran * 12 + sizeof(heap); }

void emu_heap_free(emu *e) {
  heap *h = e->heap_blocks;
  if (!h) return;
  if (h->tag && h->next && h->prev) e->mem_used -= heap_meta(h->ngran);
  free(h->tag); free(h->next); free(h->prev); free(h);
  e->heap_blocks = NULL;
}

/* cudaDeviceSetLimit(cudaLimitMallocHeapSize) before the first launch: a
 * heap of `size` bytes in place of the empty one; -1 (the old heap stays)
 * when device memory cannot hold it or the allocator cannot index it. */
int emu_heap_resize(emu *e, uint64_t size) {
  if (size == e->heap_size) return 0;
  if (size / 16 > H_SIZE || size > e->opt.device_bytes) return -1;
  uint64_t old = e->heap_base, b = size ? emu_alloc(e, size, "device heap") : 0;
  if (size && !b) return -1;
  if (old) emu_free_region(e, old);
  e->heap_base = b;
  e->heap_size = size;
  emu_heap_init(e);
  return size && !e->heap_blocks ? -1 : 0;
}

/* The allocator's arrays count against the device memory cap like the heap
 * itself (12 bytes per 16-byte granule, taken from the OS as they are touched). */
void emu_heap_init(emu *e) {
  emu_heap_free(e);
  e->nheap = 0;
  uint64_t g = e->heap_base ? e->heap_size / 16 : 0;
  if (!g || g > H_SIZE) return;
  uint64_t meta = heap_meta(g);
  if (meta > e->opt.mem_cap) return;
  heap *h = calloc(1, sizeof *h);
  if (!h) return;
  h->ngran = (uint32_t)g;
  h->tag = calloc(g, 4); h->next = calloc(g, 4); h->prev = calloc(g, 4);
  e->heap_blocks = h;
  if (!h->tag || !h->next || !h->prev) { emu_heap_free(e); return; }
  e->mem_used += meta;
  for (uint32_t c = 0; c < H_CLASSES; c++) h->first[c] = H_NIL;
  h_put_free(h, 0, h->ngran);
}

static uint64_t heap_malloc(emu *e, uint64_t n) {
  heap *h = e->heap_blocks;
  /* sizes are checked before any rounding: malloc(2^64 - 1) gets NULL */
  if (!h || n == 0 || n > (uint64_t)h->ngran * 16) return 0;
  uint32_t k = (uint32_t)((n + 15) / 16), c = h_class(k), g = H_NIL;
  /* a block of the request's own class fits when the class is exact; in
   * the wider classes look at a few, then take one from a larger class */
  uint32_t look = 0;
  for (uint32_t b = h->first[c]; b != H_NIL && look < 8; b = h->next[b], look++)
    if ((h->tag[b] & H_SIZE) >= k) { g = b; break; }
  for (uint32_t cc = c + 1; g == H_NIL && cc < H_CLASSES;) {
    uint64_t w = h->nonempty[cc / 64] >> (cc % 64);
    if (w) { g = h->first[cc + (uint32_t)__builtin_ctzll(w)]; break; }
    cc = (cc / 64 + 1) * 64;
  }
  if (g == H_NIL) return 0;
  uint32_t size = h->tag[g] & H_SIZE;
  h_unlink(h, g, size);
  h->tag[g] = k | H_USED;
  if (size > k) h_put_free(h, g + k, size - k);
  else if (g + k < h->ngran) h->tag[g + k] &= ~H_PREV_FREE;
  e->nheap++;
  return e->heap_base + (uint64_t)g * 16;
}

static bool heap_free(emu *e, uint64_t a) {
  if (!a) return true;
  heap *h = e->heap_blocks;
  if (!h || a < e->heap_base || (a - e->heap_base) % 16 || (a - e->heap_base) / 16 >= h->ngran) return false;
  uint32_t g = (uint32_t)((a - e->heap_base) / 16);
  if (!(h->tag[g] & H_USED)) return false;              /* not a live block: double or bad free */
  uint32_t size = h->tag[g] & H_SIZE;
  bool prev_free = h->tag[g] & H_PREV_FREE;
  h->tag[g] = 0;
  if (g + size < h->ngran && !(h->tag[g + size] & H_USED)) {   /* merge the next block */
    uint32_t ns = h->tag[g + size] & H_SIZE;
    h_unlink(h, g + size, ns);
    h->tag[g + size] = 0;
    size += ns;
  }
  if (prev_free) {                                      /* and the previous one */
    uint32_t ps = h->tag[g - 1] & H_SIZE;
    h_unlink(h, g - ps, ps);
    g -= ps;
    size += ps;
  }
  h_put_free(h, g, size);
  e->nheap--;
  return true;
}

/* ---- device printf output ---- */

/* Write n bytes of printf output; a failed write (a full disk, a closed
 * pipe) stops the launch with an output fault (exit status 73). */
void emu_printf_write(emu *e, const char *s, size_t n) {
  FILE *f = e->opt.printf_out ? e->opt.printf_out : stdout;
  if (e->fault.kind == FAULT_OUTPUT || !n) return;
  errno = 0;
  if (fwrite(s, 1, n, f) == n && fflush(f) == 0) return;
  int err = errno;
  if (e->faulted) return;                   /* the kernel fault is reported (and stops the run) */
  e->faulted = true;
  e->fault.kind = FAULT_OUTPUT;
  e->fault.pc = UINT32_MAX;
  snprintf(e->fault.msg, sizeof e->fault.msg, "cannot write device printf output%s%s%s", err ? " (" : "", err ? strerror(err) : "",
           err ? ")" : "");
}

void emu_printf_flush(emu *e) {
  size_t n = e->plen;
  e->plen = 0;
  emu_printf_write(e, e->pbuf, n);
}

/* ---- reading device memory from the host side of a builtin ---------------- */

static const uint8_t *dev_bytes(warp *w, int lane, uint64_t a, uint32_t n) {
  switch (mm_classify(a)) {
  case MM_SHARED: return mm_shared_ptr(w->cta, a - GEN_SHARED_BASE, n);
  case MM_LOCAL: return mm_local_ptr(w, lane, a - GEN_LOCAL_BASE, n);
  default: return mm_global_ptr(w->e, a, n);
  }
}

/* Store n bytes at generic address a for lane; false when it is not memory
 * the thread can write (read-only module data included). */
static bool store_generic(warp *w, int lane, uint64_t a, const void *v, uint32_t n) {
  uint8_t *p = (uint8_t *)dev_bytes(w, lane, a, n);
  if (!p) return false;
  memcpy(p, v, n);
  return true;
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

/* Device printf output goes through a buffer of at most PRINTF_CHUNK bytes
 * (counted against the device memory cap), written out in execution order
 * whenever it fills: a kernel that prints gigabytes streams them. */
#define PRINTF_CHUNK (64u << 10)

static void out(emu *e, const char *s, size_t n) {
  if (e->fault.kind == FAULT_OUTPUT) return;
  if (e->plen + n > PRINTF_CHUNK) emu_printf_flush(e);
  if (!e->pbuf && e->mem_used + PRINTF_CHUNK <= e->opt.mem_cap && (e->pbuf = malloc(PRINTF_CHUNK))) {
    e->pcap = PRINTF_CHUNK;
    e->mem_used += PRINTF_CHUNK;
  }
  if (!e->pbuf || n > e->pcap - e->plen) {          /* no room for a buffer: write through */
    emu_printf_write(e, s, n);
    return;
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

/* The int argument of a '*' width or precision, at the next 4-byte place
 * of the argument buffer (off advances past it), written into spec as
 * digits ("-" first for a negative width, nothing for a negative
 * precision); returns the characters written (at most 12). */
static size_t star_arg(warp *w, int lane, uint64_t args, uint64_t *off, char *spec, bool precision) {
  *off = (*off + 3) / 4 * 4;
  int32_t v = 0;
  const uint8_t *src = args ? dev_bytes(w, lane, args + *off, 4) : NULL;
  if (src) memcpy(&v, src, 4);
  *off += 4;
  if (precision && v < 0) return 0;
  int64_t x = v;                                   /* (INT_MIN has no positive int) */
  return (size_t)snprintf(spec, 13, "%s%" PRId64, x < 0 ? "-" : "", x < 0 ? -x : x);
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
    char spec[96];                       /* flags (40) + two *-arguments (12 each) + "ll" + conv */
    size_t sl = 0;
    spec[sl++] = *p++;
    while (*p && strchr("-+ #0", *p) && sl < 40) spec[sl++] = *p++;
    /* a width or precision of '*' is an int argument of its own, before
     * the value (a negative width: left-justified; a negative precision:
     * none) */
    if (*p == '*') { p++; sl += star_arg(w, lane, args, &off, spec + sl, false); }
    else while (*p && (*p >= '0' && *p <= '9') && sl < 40) spec[sl++] = *p++;
    if (*p == '.') {
      spec[sl++] = *p++;
      if (*p == '*') { p++; size_t n = star_arg(w, lane, args, &off, spec + sl, true); if (n) sl += n; else sl--; }
      else while (*p >= '0' && *p <= '9' && sl < 40) spec[sl++] = *p++;
    }
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
      /* as the CUDA runtime prints it: (nil) for a null pointer; the
       * flags and width apply to the whole text */
      char text[24];
      if (v) snprintf(text, sizeof text, "0x%" PRIx64, v); else strcpy(text, "(nil)");
      spec[sl++] = 's'; spec[sl] = 0;
      outf(e, spec, text);
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
  if (strcmp(n, "__cudaCDP2GetParameterBufferV2") == 0 || strcmp(n, "cudaGetParameterBufferV2") == 0) {
    FOR_LANES(i) if (m >> i & 1) {
      uint32_t dims[2][3] = { { 1, 1, 1 }, { 1, 1, 1 } };
      for (uint32_t k = 0; k < 2 && c.args && k + 1 < c.args->n; k++) {
        const uint8_t *p = emu_param_ptr(w, i, x, &x->f->pool[c.args->v + k + 1], 12);
        if (p) memcpy(dims[k], p, 12);
      }
      uint64_t buf = emu_cdp_param_buffer(e, arg_u64(w, i, x, &c, 0, 8), dims[0], dims[1], (uint32_t)arg_u64(w, i, x, &c, 3, 4));
      set_ret(w, i, x, &c, buf, 8);
    }
    return 1;
  }
  /* the device runtime's queries: one device, CUDA 13, streams and events
   * that order nothing beyond what running children in launch order gives */
  if (strcmp(n, "__cudaCDP2GetLastError") == 0 || strcmp(n, "__cudaCDP2PeekAtLastError") == 0 ||
      strcmp(n, "__cudaCDP2StreamDestroy") == 0 || strcmp(n, "__cudaCDP2EventDestroy") == 0 ||
      strcmp(n, "__cudaCDP2EventRecord") == 0 || strcmp(n, "__cudaCDP2EventRecord_ptsz") == 0 ||
      strcmp(n, "__cudaCDP2StreamWaitEvent") == 0 || strcmp(n, "__cudaCDP2StreamWaitEvent_ptsz") == 0) {
    FOR_LANES(i) if (m >> i & 1) set_ret(w, i, x, &c, 0, 4);
    return 1;
  }
  if (strcmp(n, "__cudaCDP2GetDevice") == 0 || strcmp(n, "__cudaCDP2GetDeviceCount") == 0 ||
      strcmp(n, "__cudaCDP2RuntimeGetVersion") == 0 || strcmp(n, "__cudaCDP2StreamCreateWithFlags") == 0 ||
      strcmp(n, "__cudaCDP2EventCreateWithFlags") == 0) {
    /* the value goes through the pointer argument; streams and events are handle 1 */
    uint64_t v = strstr(n, "Count") ? 1 : strstr(n, "Version") ? 13000 : strstr(n, "Device") ? 0 : 1;
    uint32_t size = strstr(n, "Create") ? 8 : 4;
    FOR_LANES(i) if (m >> i & 1) {
      uint64_t a = arg_u64(w, i, x, &c, 0, 8);
      int rc = store_generic(w, i, a, &v, size) ? 0 : 1;
      set_ret(w, i, x, &c, (uint32_t)rc, 4);
    }
    return 1;
  }
  /* a conditional node's handle is the address of its condition word (cudart/drv_graph_exec.c) */
  if (strcmp(n, "cudaGraphSetConditional") == 0) {
    FOR_LANES(i) if (m >> i & 1) {
      uint32_t v = (uint32_t)arg_u64(w, i, x, &c, 1, 4);
      if (!store_generic(w, i, arg_u64(w, i, x, &c, 0, 8), &v, 4)) {
        emu_fault_at(w, x, i, FAULT_OOB, "cudaGraphSetConditional with a handle that names no condition");
        return 1;
      }
    }
    return 1;
  }
  if (strcmp(n, "__cudaCDP2LaunchDeviceV2") == 0 || strcmp(n, "__cudaCDP2LaunchDeviceV2_ptsz") == 0 ||
      strcmp(n, "cudaLaunchDeviceV2") == 0) {
    FOR_LANES(i) if (m >> i & 1) set_ret(w, i, x, &c, (uint32_t)emu_cdp_launch(e, arg_u64(w, i, x, &c, 0, 8)), 4);
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
      /* on stderr, where CUDA prints it (device printf output is stdout's) */
      fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", fs ? fs : "?", line,
           fn ? fn : "?", w->cta->id[0], w->cta->id[1], w->cta->id[2], t % l->block[0], t / l->block[0] % l->block[1],
           t / (l->block[0] * l->block[1]), ms ? ms : "?");
    }
    emu_fault_at(w, x, __builtin_ctz(m), FAULT_ASSERT, "device-side assertion failed (message above)");
    return 1;
  }
  return 0;
}
