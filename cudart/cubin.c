/* cudart/cubin.c - what a cubin holds: whether it has code, and the
 * register counts of its .nv.info (see cubin.h).
 * The global .nv.info section is a list of attributes: a format byte, an
 * attribute byte, then a 16-bit value (formats 1-3) or a 16-bit size and
 * that many bytes (format 4).  EIATTR_REGCOUNT (0x2f) holds a symbol index
 * and the function's register count. */
#include <string.h>
#include "cudart/cubin.h"

enum { SHT_SYMTAB = 2, SHT_CUDA_INFO = 0x70000000, EIFMT_SVAL = 4, EIATTR_REGCOUNT = 0x2f };

typedef struct { const uint8_t *p; uint64_t n; } bytes;

static uint16_t u16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t u64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* Section k's header fields: type, offset, size, link; false when outside. */
static int section(bytes f, uint64_t shoff, uint16_t shentsize, uint16_t k, uint32_t *type, uint64_t *off, uint64_t *size, uint32_t *link) {
  const uint8_t *h = f.p + shoff + (uint64_t)k * shentsize;
  *type = u32(h + 4);
  *off = u64(h + 0x18);
  *size = u64(h + 0x20);
  *link = u32(h + 0x28);
  return *off <= f.n && *size <= f.n - *off;
}

static const char *name_at(bytes f, uint64_t off, uint64_t size, uint32_t at) {
  if (at >= size) return NULL;
  const char *s = (const char *)f.p + off + at;
  return memchr(s, 0, size - at) ? s : NULL;
}

/* The section headers' table of a 64-bit little-endian ELF image, and the
 * section names' bounds; false when any of it lies outside. */
typedef struct elfview { bytes f; uint64_t shoff, soff, ssize; uint16_t shentsize, shnum; } elfview;

static bool elf_open(const uint8_t *elf, uint64_t size, elfview *v) {
  v->f = (bytes){ elf, size };
  if (!elf || size < 64 || memcmp(elf, "\177ELF", 4) || elf[4] != 2 || elf[5] != 1) return false;
  v->shoff = u64(elf + 0x28);
  v->shentsize = u16(elf + 0x3a);
  v->shnum = u16(elf + 0x3c);
  uint16_t shstrndx = u16(elf + 0x3e);
  uint32_t type, link;
  if (v->shentsize < 64 || shstrndx >= v->shnum || v->shoff > size || (uint64_t)v->shnum * v->shentsize > size - v->shoff) return false;
  return section(v->f, v->shoff, v->shentsize, shstrndx, &type, &v->soff, &v->ssize, &link);
}

static const char *section_name(const elfview *v, uint16_t k) {
  return name_at(v->f, v->soff, v->ssize, u32(v->f.p + v->shoff + (uint64_t)k * v->shentsize));
}

bool cubin_has_code(const uint8_t *elf, uint64_t size) {
  elfview v;
  if (!elf_open(elf, size, &v)) return true;
  for (uint16_t k = 0; k < v.shnum; k++) {
    const char *nm = section_name(&v, k);
    if (nm && strncmp(nm, ".text.", 6) == 0 && nm[6]) return true;
  }
  return false;
}

int cubin_regcounts(const uint8_t *elf, uint64_t size, void (*fn)(const char *name, unsigned regs, void *user), void *user) {
  elfview v;
  if (!elf_open(elf, size, &v)) return -1;
  uint32_t type, link;
  int found = 0;
  for (uint16_t k = 0; k < v.shnum; k++) {
    uint64_t off, len;
    if (!section(v.f, v.shoff, v.shentsize, k, &type, &off, &len, &link) || type != SHT_CUDA_INFO) continue;
    const char *nm = section_name(&v, k);
    if (!nm || strcmp(nm, ".nv.info") != 0) continue;
    /* the symbol table it refers to, and that table's names */
    uint32_t symtype, strlink, dummy;
    uint64_t symoff, symsize, stroff, strsize;
    if (link >= v.shnum || !section(v.f, v.shoff, v.shentsize, (uint16_t)link, &symtype, &symoff, &symsize, &strlink) ||
        symtype != SHT_SYMTAB || strlink >= v.shnum ||
        !section(v.f, v.shoff, v.shentsize, (uint16_t)strlink, &dummy, &stroff, &strsize, &dummy)) return -1;
    for (uint64_t p = 0; p + 4 <= len;) {
      const uint8_t *a = elf + off + p;
      uint8_t format = a[0], attr = a[1];
      uint64_t step = format == EIFMT_SVAL ? 4 + (uint64_t)u16(a + 2) : 4;
      if (format < 1 || format > EIFMT_SVAL || step > len - p) return -1;
      if (format == EIFMT_SVAL && attr == EIATTR_REGCOUNT && step >= 12) {
        uint32_t sym = u32(a + 4), regs = u32(a + 8);
        const char *fname = (uint64_t)sym < symsize / 24 ? name_at(v.f, stroff, strsize, u32(elf + symoff + (uint64_t)sym * 24)) : NULL;
        if (fname && regs <= 255) { fn(fname, regs, user); found++; }
      }
      p += step;
    }
  }
  return found;
}
