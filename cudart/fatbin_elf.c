/* fatbin_elf.c - what a host program built by nvcc carries: its fatbin
 * sections (.nv_fatbin, and __nv_relfatbin with -rdc=true), whether they hold
 * PTX for the target, and how the CUDA runtime is linked (DT_NEEDED
 * libcudart.so.N, or libcudart_static inside, nvcc's default).  The file is
 * mapped read-only and every offset in it is checked against its size. */
#define _GNU_SOURCE /* memmem */
#include "cudart/cubin.h"
#include "cudart/fatbin.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>


typedef struct {
  const uint8_t *map;
  uint64_t size;
  Elf64_Shdr *sh;   /* copies of the section headers */
  unsigned nsh;
  unsigned shstrndx; /* the section names' string table */
  const char *path;
} elf_file;

/* [off, off+len) inside the file? */
static bool in_file(const elf_file *f, uint64_t off, uint64_t len)
{
  return off <= f->size && len <= f->size - off;
}

/* Contents of section i, NULL if it has none in the file (SHT_NOBITS) or if
   it lies outside the file (then *bad is set). */
static const uint8_t *section_bytes(const elf_file *f, unsigned i, uint64_t *len, bool *bad)
{
  const Elf64_Shdr *s = &f->sh[i];
  *len = 0;
  if (s->sh_type == SHT_NOBITS || s->sh_type == SHT_NULL) return NULL;
  if (!in_file(f, s->sh_offset, s->sh_size)) { *bad = true; return NULL; }
  *len = s->sh_size;
  return f->map + s->sh_offset;
}

/* NUL-terminated string at off of string table section i, or NULL */
static const char *str_at(const elf_file *f, unsigned i, uint64_t off)
{
  if (i >= f->nsh) return NULL;
  uint64_t len;
  bool bad = false;
  const uint8_t *t = section_bytes(f, i, &len, &bad);
  if (!t || off >= len || !memchr(t + off, 0, (size_t)(len - off))) return NULL;
  return (const char *)t + off;
}

static int read_headers(elf_file *f, char *err, size_t errlen)
{
  if (f->size < sizeof(Elf64_Ehdr) || memcmp(f->map, ELFMAG, SELFMAG) != 0) {
    fatbin_seterr(err, errlen, "%s: not an ELF file", f->path);
    return -1;
  }
  if (f->map[EI_CLASS] != ELFCLASS64 || f->map[EI_DATA] != ELFDATA2LSB) {
    fatbin_seterr(err, errlen, "%s: not a 64-bit little-endian ELF file", f->path);
    return -1;
  }
  Elf64_Ehdr eh;
  memcpy(&eh, f->map, sizeof eh);
  uint64_t nsh = eh.e_shnum;
  if (eh.e_shoff && nsh == 0 && in_file(f, eh.e_shoff, sizeof(Elf64_Shdr))) {
    Elf64_Shdr s0; /* more than 0xff00 sections: the count is in section 0 */
    memcpy(&s0, f->map + eh.e_shoff, sizeof s0);
    nsh = s0.sh_size;
  }
  if (eh.e_shoff == 0 || nsh == 0) {
    fatbin_seterr(err, errlen, "%s: the ELF file has no section headers", f->path);
    return -1;
  }
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || nsh > f->size / sizeof(Elf64_Shdr) ||
      !in_file(f, eh.e_shoff, nsh * sizeof(Elf64_Shdr))) {
    fatbin_seterr(err, errlen, "%s: corrupt ELF section header table", f->path);
    return -1;
  }
  f->nsh = (unsigned)nsh;
  f->sh = malloc(nsh * sizeof(Elf64_Shdr));
  if (!f->sh) { fatbin_seterr(err, errlen, "out of memory"); return -1; }
  memcpy(f->sh, f->map + eh.e_shoff, nsh * sizeof(Elf64_Shdr));
  unsigned shstr = eh.e_shstrndx;
  if (shstr == SHN_XINDEX) shstr = f->sh[0].sh_link;
  if (shstr >= f->nsh) {
    fatbin_seterr(err, errlen, "%s: corrupt ELF section name table index", f->path);
    return -1;
  }
  f->shstrndx = shstr;
  return 0;
}

static const char *section_name(const elf_file *f, unsigned i)
{
  return str_at(f, f->shstrndx, f->sh[i].sh_name);
}

/* Add the entries of one fatbin section to the summary. */
static int scan_fatbins(const elf_file *f, unsigned i, fatbin_entry **all, int *nall,
                        fatbin_elf_info *info, char *err, size_t errlen)
{
  uint64_t len;
  bool bad = false;
  const uint8_t *p = section_bytes(f, i, &len, &bad);
  const char *name = section_name(f, i);
  if (bad) { fatbin_seterr(err, errlen, "%s: section %s lies outside the file", f->path, name); return -1; }
  char sub[400];
  int n = fatbin_parse_section(p, len, NULL, 0, sub, sizeof sub);
  if (n < 0) { fatbin_seterr(err, errlen, "%s: section %s: %s", f->path, name, sub); return -1; }
  fatbin_entry *grown = realloc(*all, (size_t)(*nall + n + 1) * sizeof **all);
  if (!grown) { fatbin_seterr(err, errlen, "out of memory"); return -1; }
  *all = grown;
  fatbin_entry *es = grown + *nall;
  if (fatbin_parse_section(p, len, es, n, sub, sizeof sub) != n) {
    fatbin_seterr(err, errlen, "%s: section %s: %s", f->path, name, sub);
    return -1;
  }
  for (int k = 0; k < n; k++) {
    if (es[k].kind == FATBIN_PTX) {
      info->ptx_entries++;
      if (es[k].arch > info->ptx_arch_max) info->ptx_arch_max = es[k].arch;
    } else if (es[k].kind == FATBIN_ELF) {
      info->elf_entries++;
      /* nvcc links even host-only objects with a device-link step, which
       * embeds a cubin with no functions: nothing for ptxemu to refuse
       * (compressed cubins count as code) */
      info->elf_code_entries += es[k].compressed || cubin_has_code(es[k].payload, es[k].payload_size);
      if (es[k].arch > info->sass_arch_max) info->sass_arch_max = es[k].arch;
    }
  }
  if (n) info->containers += es[n - 1].container + 1;
  *nall += n;
  return 0;
}

/* The CUDA runtime: DT_NEEDED names, then libcudart_static's symbols, then
   (stripped programs) a string only the runtime's error table carries. */
static void scan_runtime(const elf_file *f, fatbin_elf_info *info)
{
  for (unsigned i = 0; i < f->nsh; i++) {
    const Elf64_Shdr *s = &f->sh[i];
    if (s->sh_type != SHT_DYNAMIC) continue;
    uint64_t len;
    bool bad = false;
    const uint8_t *d = section_bytes(f, i, &len, &bad);
    for (uint64_t o = 0; d && o + sizeof(Elf64_Dyn) <= len; o += sizeof(Elf64_Dyn)) {
      Elf64_Dyn dyn;
      memcpy(&dyn, d + o, sizeof dyn);
      if (dyn.d_tag == DT_NULL) break;
      if (dyn.d_tag != DT_NEEDED) continue;
      const char *lib = str_at(f, s->sh_link, dyn.d_un.d_val);
      if (!lib) continue;
      if (strncmp(lib, "libcudart.so", 12) == 0) {
        info->cudart = FATBIN_CUDART_SHARED;
        snprintf(info->cudart_needed, sizeof info->cudart_needed, "%s", lib);
      } else if (strncmp(lib, "libcuda.so", 10) == 0) {
        info->needs_libcuda = true;
      }
    }
  }
  if (info->cudart == FATBIN_CUDART_SHARED) return;
  for (unsigned i = 0; i < f->nsh && info->cudart == FATBIN_CUDART_NONE; i++) {
    const Elf64_Shdr *s = &f->sh[i];
    if (s->sh_type != SHT_SYMTAB) continue;
    uint64_t len;
    bool bad = false;
    const uint8_t *d = section_bytes(f, i, &len, &bad);
    for (uint64_t o = 0; d && o + sizeof(Elf64_Sym) <= len; o += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      memcpy(&sym, d + o, sizeof sym);
      if (sym.st_shndx == SHN_UNDEF) continue;
      const char *nm = str_at(f, s->sh_link, sym.st_name);
      if (!nm) continue;
      if (strcmp(nm, "__cudaRegisterFatBinary") == 0 || strcmp(nm, "cudaLaunchKernel") == 0 ||
          strncmp(nm, "libcudart_static_", 17) == 0) {
        info->cudart = FATBIN_CUDART_STATIC;
        break;
      }
    }
  }
  static const char marker[] = "cudaErrorCudartUnloading";
  for (unsigned i = 0; i < f->nsh && info->cudart == FATBIN_CUDART_NONE; i++) {
    const Elf64_Shdr *s = &f->sh[i];
    if (s->sh_type != SHT_PROGBITS || !(s->sh_flags & SHF_ALLOC) || (s->sh_flags & SHF_EXECINSTR)) continue;
    uint64_t len;
    bool bad = false;
    const uint8_t *d = section_bytes(f, i, &len, &bad);
    if (d && memmem(d, (size_t)len, marker, sizeof marker)) info->cudart = FATBIN_CUDART_STATIC;
  }
}

int fatbin_scan_elf(const char *path, unsigned target_sm, fatbin_elf_info *info, char *err, size_t errlen)
{
  memset(info, 0, sizeof *info);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) { fatbin_seterr(err, errlen, "%s: %s", path, strerror(errno)); return -1; }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    fatbin_seterr(err, errlen, "%s: not a regular file", path);
    close(fd);
    return -1;
  }
  elf_file f = { .size = (uint64_t)st.st_size, .path = path };
  if (f.size == 0) { fatbin_seterr(err, errlen, "%s: not an ELF file (empty)", path); close(fd); return -1; }
  void *m = mmap(NULL, (size_t)f.size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (m == MAP_FAILED) { fatbin_seterr(err, errlen, "%s: cannot map: %s", path, strerror(errno)); return -1; }
  f.map = m;
  fatbin_entry *all = NULL;
  int nall = 0, rc = -1;
  if (read_headers(&f, err, errlen)) goto out;
  for (unsigned i = 1; i < f.nsh; i++) {
    const char *nm = section_name(&f, i);
    if (!nm) continue;
    bool rel = strcmp(nm, "__nv_relfatbin") == 0;
    if (!rel && strcmp(nm, ".nv_fatbin") != 0) continue;
    if (rel) info->has_relfatbin = true; else info->has_nv_fatbin = true;
    if (scan_fatbins(&f, i, &all, &nall, info, err, errlen)) goto out;
  }
  scan_runtime(&f, info);

  char why[400];
  int pick = nall ? fatbin_pick_ptx(all, nall, target_sm, why, sizeof why) : -1;
  if (pick >= 0) info->ptx_usable_arch = all[pick].arch;
  if (info->cudart == FATBIN_CUDART_STATIC) {
    info->problem = FATBIN_ELF_STATIC_CUDART;
    snprintf(info->message, sizeof info->message,
             "%s links the CUDA runtime statically (nvcc's default); ptxemu provides the shared one: "
             "rebuild with -cudart shared", path);
  } else if (!info->has_nv_fatbin && !info->has_relfatbin) {
    if (info->cudart == FATBIN_CUDART_NONE && !info->needs_libcuda) {
      info->problem = FATBIN_ELF_NO_FATBIN;
      snprintf(info->message, sizeof info->message,
               "%s is not a CUDA program: no device code (.nv_fatbin) and no CUDA library", path);
    }
  } else if (pick < 0 && (info->ptx_entries || info->elf_code_entries)) {
    info->problem = info->ptx_entries ? FATBIN_ELF_PTX_TOO_NEW : FATBIN_ELF_NO_PTX;
    snprintf(info->message, sizeof info->message, "%s: %s", path, why);
  }
  rc = 0;
out:
  free(all);
  free(f.sh);
  munmap(m, (size_t)f.size);
  return rc;
}
