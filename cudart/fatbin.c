/* fatbin.c - parse nvcc's fatbinaries, pick and decompress their PTX.
 * The format is described in fatbin.h.  Every read is bounds-checked against
 * the bytes the caller says are readable: the image is untrusted. */
#include "cudart/fatbin.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <zstd.h>

#define HDR_SIZE 16u   /* container header */
#define ENTRY_MIN 64u  /* entry header without extras */
#define FATBIN_MAX_UNKNOWN ((uint64_t)1 << 32) /* largest fatbin believed without a size */

/* A message into err (fatbin_elf.c writes its own through it too). */
void fatbin_seterr(char *err, size_t errlen, const char *fmt, ...)
{
  if (!err || !errlen) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

/* little-endian loads that need no alignment */
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | (unsigned)p[1] << 8); }
static uint32_t rd32(const uint8_t *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* Check the container header at p with avail readable bytes (avail may be
   FATBIN_SIZE_UNKNOWN); total size in *total.  0, or -1 with err. */
static int check_header(const uint8_t *p, uint64_t avail, uint64_t *total, char *err, size_t errlen)
{
  if (!p) { fatbin_seterr(err, errlen, "no fatbinary (null pointer)"); return -1; }
  if (avail < HDR_SIZE) {
    fatbin_seterr(err, errlen, "fatbinary truncated: %" PRIu64 " bytes, its header needs %u", avail, HDR_SIZE);
    return -1;
  }
  uint32_t magic = rd32(p);
  if (magic != FATBIN_MAGIC) {
    fatbin_seterr(err, errlen, "not a fatbinary: magic 0x%08" PRIx32 ", expected 0x%08x", magic, FATBIN_MAGIC);
    return -1;
  }
  unsigned version = rd16(p + 4), hsize = rd16(p + 6);
  uint64_t size = rd64(p + 8);
  if (version != 1) {
    fatbin_seterr(err, errlen, "fatbinary version %u is not supported (only 1)", version);
    return -1;
  }
  if (hsize < HDR_SIZE) {
    fatbin_seterr(err, errlen, "fatbinary header size %u is below the %u bytes of the header", hsize, HDR_SIZE);
    return -1;
  }
  if (avail == FATBIN_SIZE_UNKNOWN) {
    if (size > FATBIN_MAX_UNKNOWN) {  /* no bound from the caller: only plausibility */
      fatbin_seterr(err, errlen, "fatbinary size %" PRIu64 " is implausible", size);
      return -1;
    }
  } else if (avail < hsize || size > avail - hsize) {
      fatbin_seterr(err, errlen, "fatbinary truncated: header declares %u + %" PRIu64 " bytes, %" PRIu64 " available",
             hsize, size, avail);
    return -1;
  }
  *total = hsize + size;
  return 0;
}

uint64_t fatbin_size(const void *image, uint64_t max_bytes)
{
  uint64_t total;
  return check_header(image, max_bytes, &total, NULL, 0) == 0 ? total : 0;
}

/* Strings inside an entry header: [off, off+len) must lie in the header
   (hsize bytes).  Trailing NULs are dropped from the length. */
static int header_string(const uint8_t *eh, uint32_t hsize, uint32_t off, uint32_t len, const char *what,
                         int index, const uint8_t **out, uint32_t *outlen, char *err, size_t errlen)
{
  *out = NULL;
  *outlen = 0;
  if (len == 0) return 0;
  if (off > hsize || len > hsize - off) {
    fatbin_seterr(err, errlen, "fatbinary entry %d: %s at %" PRIu32 "+%" PRIu32 " lies outside its %" PRIu32 "-byte header",
           index, what, off, len, hsize);
    return -1;
  }
  while (len > 0 && eh[off + len - 1] == 0) len--;
  if (len) { *out = eh + off; *outlen = len; }
  return 0;
}

/* Parse one entry at eh with room bytes left in the container. */
static int parse_entry(const uint8_t *eh, uint64_t room, int index, fatbin_entry *e, uint64_t *advance,
                       char *err, size_t errlen)
{
  if (room < ENTRY_MIN) {
    fatbin_seterr(err, errlen, "fatbinary entry %d truncated: %" PRIu64 " bytes left, an entry header needs %u", index,
           room, ENTRY_MIN);
    return -1;
  }
  memset(e, 0, sizeof *e);
  uint32_t hsize = rd32(eh + 4);
  uint64_t psize = rd64(eh + 8);
  if (hsize < ENTRY_MIN || hsize > room) {
    fatbin_seterr(err, errlen, "fatbinary entry %d: header size %" PRIu32 " outside %u..%" PRIu64, index, hsize,
           ENTRY_MIN, room);
    return -1;
  }
  if (psize > room - hsize) {
    fatbin_seterr(err, errlen, "fatbinary entry %d: payload of %" PRIu64 " bytes, only %" PRIu64 " left in the fatbinary",
           index, psize, room - hsize);
    return -1;
  }
  e->raw_kind = rd16(eh);
  e->kind = e->raw_kind == 1 ? FATBIN_PTX : e->raw_kind == 2 ? FATBIN_ELF : FATBIN_OTHER;
  e->version_minor = rd16(eh + 24);
  e->version_major = rd16(eh + 26);
  e->arch = rd32(eh + 28);
  e->flags = rd64(eh + 40);
  e->debug = (e->flags & FATBIN_FLAG_DEBUG) != 0;
  e->arch_specific = (e->flags & FATBIN_FLAG_ARCH_SPECIFIC) != 0;
  e->family_specific = (e->flags & FATBIN_FLAG_FAMILY_SPECIFIC) != 0;
  e->payload = eh + hsize;
  e->payload_size = psize;
  e->uncompressed_size = psize;

  bool lz4 = (e->flags & FATBIN_FLAG_LZ4) != 0, zstd = (e->flags & FATBIN_FLAG_ZSTD) != 0;
  if (lz4 && zstd) {
    fatbin_seterr(err, errlen, "fatbinary entry %d: flags 0x%" PRIx64 " claim both LZ4 and Zstandard compression", index,
           e->flags);
    return -1;
  }
  if (lz4 || zstd) {
    uint32_t csize = rd32(eh + 16);
    uint64_t usize = rd64(eh + 56);
    if (csize > psize) {
      fatbin_seterr(err, errlen, "fatbinary entry %d: compressed size %" PRIu32 " exceeds its %" PRIu64 "-byte payload",
             index, csize, psize);
      return -1;
    }
    if (usize > FATBIN_MAX_UNCOMPRESSED) {
      fatbin_seterr(err, errlen, "fatbinary entry %d: uncompressed size %" PRIu64 " exceeds the limit of %" PRIu64 " bytes",
             index, usize, FATBIN_MAX_UNCOMPRESSED);
      return -1;
    }
    e->compressed = true;
    e->compression = lz4 ? FATBIN_COMP_LZ4 : FATBIN_COMP_ZSTD;
    e->payload_size = csize;
    e->uncompressed_size = usize;
  }

  uint32_t name_off = rd32(eh + 32), name_len = rd32(eh + 36);
  const uint8_t *name;
  if (header_string(eh, hsize, name_off, name_len, "the name", index, &name, &e->name_len, err, errlen))
    return -1;
  e->name = (const char *)name;
  uint32_t opt_at = rd32(eh + 20);
  if (opt_at) {
    if (opt_at > hsize || hsize - opt_at < 8) {
      fatbin_seterr(err, errlen, "fatbinary entry %d: options descriptor at %" PRIu32 " lies outside its %" PRIu32
             "-byte header", index, opt_at, hsize);
      return -1;
    }
    if (header_string(eh, hsize, rd32(eh + opt_at), rd32(eh + opt_at + 4), "the options", index, &e->options,
                      &e->options_len, err, errlen))
      return -1;
  }
  *advance = (uint64_t)hsize + psize;
  return 0;
}

/* Parse the container at p (total bytes, checked); entries appended to out
   from *count on. */
static int parse_container(const uint8_t *p, uint64_t total, const uint8_t *base, int container,
                           fatbin_entry *out, int max_entries, int *count, char *err, size_t errlen)
{
  uint64_t off = rd16(p + 6);
  int index = 0;
  while (off < total) {
    fatbin_entry e;
    uint64_t adv;
    if (parse_entry(p + off, total - off, index, &e, &adv, err, errlen)) return -1;
    e.offset = (uint64_t)(p + off - base);
    e.container = container;
    if (*count == INT_MAX) { fatbin_seterr(err, errlen, "too many fatbinary entries"); return -1; }
    if (out && *count < max_entries) out[*count] = e;
    ++*count;
    ++index;
    off += adv;
  }
  return 0;
}

int fatbin_parse(const void *image, uint64_t max_bytes, fatbin_entry *out, int max_entries, char *err,
                 size_t errlen)
{
  uint64_t total;
  if (check_header(image, max_bytes, &total, err, errlen)) return -1;
  int count = 0;
  if (parse_container(image, total, image, 0, out, max_entries, &count, err, errlen)) return -1;
  return count;
}

int fatbin_parse_section(const void *section, uint64_t size, fatbin_entry *out, int max_entries, char *err,
                         size_t errlen)
{
  const uint8_t *p = section;
  uint64_t off = 0;
  int count = 0, container = 0;
  if (!p && size) { fatbin_seterr(err, errlen, "no fatbinary section (null pointer)"); return -1; }
  while (off < size) {
    /* zero padding between containers (each starts 8-byte aligned) */
    if (p[off] == 0) { off++; continue; }
    uint64_t total;
    char sub[256];
    if (check_header(p + off, size - off, &total, sub, sizeof sub)) {
      fatbin_seterr(err, errlen, "fatbinary %d at offset %" PRIu64 " of the section: %s", container, off, sub);
      return -1;
    }
    if (parse_container(p + off, total, p, container, out, max_entries, &count, sub, sizeof sub)) {
      fatbin_seterr(err, errlen, "fatbinary %d at offset %" PRIu64 " of the section: %s", container, off, sub);
      return -1;
    }
    off += total;
    container++;
  }
  return count;
}

int fatbin_entry_data(const fatbin_entry *e, uint8_t **data, uint64_t *len, char *err, size_t errlen)
{
  *data = NULL;
  *len = 0;
  uint64_t want = e->uncompressed_size;
  if (want > FATBIN_MAX_UNCOMPRESSED) {
    fatbin_seterr(err, errlen, "fatbinary entry of %" PRIu64 " bytes exceeds the limit of %" PRIu64, want,
           FATBIN_MAX_UNCOMPRESSED);
    return -1;
  }
  if (e->compression == FATBIN_COMP_NONE) {
    uint8_t *buf = malloc((size_t)e->payload_size + 1);
    if (!buf) { fatbin_seterr(err, errlen, "out of memory"); return -1; }
    if (e->payload_size) memcpy(buf, e->payload, (size_t)e->payload_size);
    buf[e->payload_size] = 0;
    *data = buf;
    *len = e->payload_size;
    return 0;
  }
  if (e->compression == FATBIN_COMP_LZ4) {
    /* an LZ4 block expands at most ~255 times: a larger declared size is a
       lie, and refusing it bounds the allocation by the input */
    if (e->payload_size > INT_MAX || want > INT_MAX || want > e->payload_size * 256 + 64) {
      fatbin_seterr(err, errlen, "LZ4 entry: %" PRIu64 " bytes cannot decompress to %" PRIu64, e->payload_size, want);
      return -1;
    }
    uint8_t *buf = malloc((size_t)want + 1);
    if (!buf) { fatbin_seterr(err, errlen, "out of memory"); return -1; }
    int got = want ? LZ4_decompress_safe((const char *)e->payload, (char *)buf, (int)e->payload_size, (int)want)
                   : 0;
    if (got < 0 || (uint64_t)got != want) {
      free(buf);
      if (got < 0)
        fatbin_seterr(err, errlen, "LZ4 entry: corrupt compressed data (%" PRIu64 " bytes)", e->payload_size);
      else
        fatbin_seterr(err, errlen, "LZ4 entry: decompressed to %d bytes, the entry declares %" PRIu64, got, want);
      return -1;
    }
    buf[want] = 0;
    *data = buf;
    *len = want;
    return 0;
  }
  if (e->compression != FATBIN_COMP_ZSTD) { fatbin_seterr(err, errlen, "unknown compression"); return -1; }
  /* Zstandard: stream into a buffer that grows with what actually comes out
     (a declared size never allocates more than the data produces) and
     refuse anything beyond the declared size */
  ZSTD_DCtx *ds = ZSTD_createDCtx();
  if (!ds) { fatbin_seterr(err, errlen, "out of memory"); return -1; }
  /* the window never needs to exceed the output: a frame asking for more
     (up to 128 MiB by default) is refused instead of allocated */
  int wlog = 10;
  while (wlog < 30 && ((uint64_t)1 << wlog) < want) wlog++;
  ZSTD_DCtx_setParameter(ds, ZSTD_d_windowLogMax, wlog + 1); /* one step of slack */
  size_t cap = want < 65536 ? (size_t)want : 65536;
  uint8_t *buf = malloc(cap + 1);
  ZSTD_inBuffer in = { e->payload, (size_t)e->payload_size, 0 };
  ZSTD_outBuffer o = { buf, cap, 0 };
  size_t r = 1;
  int rc = -1;
  if (!buf) { fatbin_seterr(err, errlen, "out of memory"); goto out; }
  for (;;) {
    size_t inpos = in.pos, outpos = o.pos;
    r = ZSTD_decompressStream(ds, &o, &in);
    if (ZSTD_isError(r)) {
      fatbin_seterr(err, errlen, "Zstandard entry: corrupt compressed data (%s)", ZSTD_getErrorName(r));
      goto out;
    }
    if (r == 0) break;                      /* frame complete */
    if (o.pos == o.size && o.size < want) { /* output full: more room, up to the declared size */
      size_t ncap = o.size * 2 > want ? (size_t)want : o.size * 2;
      uint8_t *nb = realloc(buf, ncap + 1);
      if (!nb) { fatbin_seterr(err, errlen, "out of memory"); goto out; }
      buf = nb;
      o.dst = buf;
      o.size = ncap;
      continue;
    }
    if (in.pos == inpos && o.pos == outpos) { /* stuck: wants more room or more input */
      if (o.pos == o.size)
        fatbin_seterr(err, errlen, "Zstandard entry: decompresses to more than the %" PRIu64 " bytes it declares", want);
      else
        fatbin_seterr(err, errlen, "Zstandard entry: compressed data truncated (%" PRIu64 " bytes)", e->payload_size);
      goto out;
    }
  }
  if (in.pos != in.size) {
    fatbin_seterr(err, errlen, "Zstandard entry: %zu bytes after the end of the compressed frame", in.size - in.pos);
    goto out;
  }
  if (o.pos != want) {
    fatbin_seterr(err, errlen, "Zstandard entry: decompressed to %zu bytes, the entry declares %" PRIu64, o.pos, want);
    goto out;
  }
  buf[o.pos] = 0;
  *data = buf;
  *len = o.pos;
  buf = NULL;
  rc = 0;
out:
  free(buf);
  ZSTD_freeDCtx(ds);
  return rc;
}

/* "sm_90", "sm_90a", "sm_100f" */
static void arch_name(char *buf, size_t n, const char *prefix, const fatbin_entry *e)
{
  snprintf(buf, n, "%s_%u%s", prefix, e->arch, e->arch_specific ? "a" : e->family_specific ? "f" : "");
}

static bool ptx_runs_on(const fatbin_entry *e, unsigned target)
{
  if (e->kind != FATBIN_PTX || e->arch > target) return false;
  if (e->arch_specific) return e->arch == target;
  if (e->family_specific) return e->arch / 10 == target / 10;
  return true;
}

static int specificity(const fatbin_entry *e) { return e->arch_specific ? 2 : e->family_specific ? 1 : 0; }

/* Append "compute_80, compute_90a" style lists of one kind's architectures. */
static void list_archs(const fatbin_entry *es, int n, int kind, const char *prefix, char *buf, size_t size)
{
  size_t used = 0;
  buf[0] = 0;
  for (int i = 0; i < n && used + 1 < size; i++) {
    if (es[i].kind != kind) continue;
    char a[32];
    arch_name(a, sizeof a, prefix, &es[i]);
    bool dup = false;   /* once each */
    for (int j = 0; j < i; j++)
      if (es[j].kind == kind && es[j].arch == es[i].arch && specificity(&es[j]) == specificity(&es[i])) dup = true;
    if (dup) continue;
    int w = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", a);
    if (w < 0) break;
    used += (size_t)w < size - used ? (size_t)w : size - used - 1;
  }
}

int fatbin_pick_ptx(const fatbin_entry *entries, int n, unsigned target_sm, char *err, size_t errlen)
{
  int best = -1, nptx = 0, nelf = 0;
  for (int i = 0; i < n; i++) {
    const fatbin_entry *e = &entries[i];
    nptx += e->kind == FATBIN_PTX;
    nelf += e->kind == FATBIN_ELF;
    if (!ptx_runs_on(e, target_sm)) continue;
    if (best < 0 || e->arch > entries[best].arch ||
        (e->arch == entries[best].arch && specificity(e) > specificity(&entries[best])))
      best = i;
  }
  if (best >= 0) return best;
  char have[256];
  const char *fix_fmt = "rebuild with -arch=sm_%u (which embeds SASS and PTX) or add "
                        "-gencode arch=compute_%u,code=compute_%u";
  char fix[200];
  snprintf(fix, sizeof fix, fix_fmt, target_sm, target_sm, target_sm);
  if (n == 0) {
    fatbin_seterr(err, errlen, "the fatbinary has no entries; %s", fix);
  } else if (nptx == 0) {
    list_archs(entries, n, FATBIN_ELF, "sm", have, sizeof have);
    if (nelf)
      fatbin_seterr(err, errlen, "the fatbinary carries only SASS (%s) and no PTX, and ptxemu runs PTX: %s", have, fix);
    else
      fatbin_seterr(err, errlen, "the fatbinary carries no PTX (only entries of unknown kinds): %s", fix);
  } else {
    list_archs(entries, n, FATBIN_PTX, "compute", have, sizeof have);
    fatbin_seterr(err, errlen, "the fatbinary's PTX (%s) cannot run on the modelled sm_%u (PTX runs only on its "
           "architecture or newer ones; 'a' PTX only on its own, 'f' only in its family): %s",
           have, target_sm, fix);
  }
  return -1;
}

int fatbin_select_ptx(const void *image, uint64_t max_bytes, unsigned target_sm, char **ptx, uint64_t *len,
                      unsigned *ptx_arch, char *err, size_t errlen)
{
  *ptx = NULL;
  *len = 0;
  int n = fatbin_parse(image, max_bytes, NULL, 0, err, errlen);
  if (n < 0) return -1;
  fatbin_entry *es = calloc(n ? (size_t)n : 1, sizeof *es);
  if (!es) { fatbin_seterr(err, errlen, "out of memory"); return -1; }
  int rc = -1;
  if (fatbin_parse(image, max_bytes, es, n, err, errlen) != n) goto out;
  int i = fatbin_pick_ptx(es, n, target_sm, err, errlen);
  if (i < 0) goto out;
  uint8_t *data;
  uint64_t dlen;
  char sub[256];
  if (fatbin_entry_data(&es[i], &data, &dlen, sub, sizeof sub)) {
    char a[32];
    arch_name(a, sizeof a, "compute", &es[i]);
    fatbin_seterr(err, errlen, "the fatbinary's %s PTX: %s", a, sub);
    goto out;
  }
  /* the text ends at its NUL (stored PTX is NUL-terminated and padded) */
  *len = strnlen((const char *)data, (size_t)dlen);
  *ptx = (char *)data;
  if (ptx_arch) *ptx_arch = es[i].arch;
  rc = 0;
out:
  free(es);
  return rc;
}

const void *fatbin_from_wrapper(const void *wrapper)
{
  if (!wrapper) return NULL;
  const uint8_t *w = wrapper;
  uint32_t magic = rd32(w), version = rd32(w + 4);
  if (magic != FATBIN_WRAPPER_MAGIC || (version != 1 && version != 2)) return NULL;
  const void *data;
  memcpy(&data, w + 8, sizeof data);
  if (!data || rd32(data) != FATBIN_MAGIC) return NULL;
  return data;
}
