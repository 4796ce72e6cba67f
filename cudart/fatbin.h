/* fatbin.h - read the fatbinaries nvcc embeds in host programs.
 *
 * THE FORMAT (little-endian; learnt from public readers, every field below
 * checked on nvcc 13.0 output: nvcc -fatbin / -no-compress / --compress-mode /
 * -Xfatbin -compress-all / -G / -Xptxas / -arch=sm_90a,sm_100f / -rdc=true).
 *
 * Container (a "fatbin"), 16 bytes, then its entries back to back:
 *   +0  u32 magic        0xBA55ED50
 *   +4  u16 version      1
 *   +6  u16 header_size  16 (offset of the first entry)
 *   +8  u64 size         bytes of all entries after the header
 * Entry, header_size bytes (64, or more: extra fields and strings), then
 * payload_size bytes of payload (the stored bytes padded with zeros to 8):
 *   +0  u16 kind         1 PTX, 2 ELF (a SASS cubin); public readers also
 *                        name 0x10 (another ELF) and 0x40 (unknown)
 *   +2  u16 version      0x0101
 *   +4  u32 header_size  64 plain; 72/80/88/96/112/128 seen: whatever it
 *                        holds beyond +64 is reached through the offsets below
 *   +8  u64 payload_size stored bytes incl. padding; the next entry starts at
 *                        entry + header_size + payload_size
 *   +16 u32 compressed_size  bytes of the compressed stream (0: not compressed)
 *   +20 u32 options_at   0, or where in this header a (u32 offset, u32 length)
 *                        pair lies (0x40 when present) that places the options
 *                        string in this header: PTX: the ptxas options nvcc
 *                        recorded, spaces kept, no NUL counted ("-O1 -v  "
 *                        for -Xptxas -O1,-v; " -g --dont-merge-basicblocks
 *                        --return-at-end " for -G; "--compile-only  " for
 *                        -rdc); sm_100+ ELF: 36 bytes of binary data
 *   +24 u16 minor, +26 u16 major  PTX: the PTX ISA version (9.0 for CUDA 13);
 *                        ELF: 1.8
 *   +28 u32 arch         90 for sm_90, sm_90a, compute_90 and compute_90a
 *   +32 u32 name_offset, +36 u32 name_length  the source file name inside this
 *                        header (only with -G: "x.cu", at +0x40), else 0, 0
 *   +40 u64 flags        0x1 64-bit, 0x2 debug (-G), 0x10 Linux host,
 *                        0x2000 LZ4-compressed (--compress-mode=speed),
 *                        0x8000 Zstandard-compressed (nvcc's default for PTX;
 *                        every entry with -Xfatbin -compress-all),
 *                        0x100000 arch-specific (sm_90a/compute_90a),
 *                        0x200000 family-specific (sm_100f/compute_100f),
 *                        0x1000000 seen on every sm_100+ ELF (meaning unknown)
 *   +48 u64 zero
 *   +56 u64 uncompressed_size  compressed entries: the size after
 *                        decompression (PTX: the text and its NUL); else 0
 * Compression: 0x8000 payloads are one Zstandard frame (magic 28 B5 2F FD,
 * content size in the frame); 0x2000 payloads are one LZ4 block (the raw block
 * format, no frame).  Uncompressed PTX is NUL-terminated text padded with
 * NULs.  The PTX is nvcc's PTX with comments and indentation removed.
 *
 * Where fatbins live in a host program (x86-64 ELF, nvcc 13):
 *   .nv_fatbin        the fatbins, back to back, each 8-byte aligned: one per
 *                     translation unit, plus (first) one from nvcc's device
 *                     link step holding a kernel-less SASS ELF;
 *   __nv_relfatbin    with -rdc=true: one fatbin per translation unit with
 *                     relocatable ELF and the PTX (options "--compile-only");
 *                     .nv_fatbin then holds only the linked SASS;
 *   .nvFatBinSegment  the 24-byte wrappers handed to __cudaRegisterFatBinary:
 *                     u32 magic 0x466243B1, u32 version (1: a translation
 *                     unit's fatbin; 2: the device-linked one, whose last
 *                     field points to the __cudaPrelinkedFatbins array),
 *                     u64 address of the fatbin, u64 that last field.
 *   Without -rdc only the version-1 wrappers are registered; with -rdc each
 *   unit's wrapper (pointing into __nv_relfatbin) goes to
 *   __cudaRegisterLinkedBinary_* and the version-2 one to
 *   __cudaRegisterFatBinary.
 *
 * Everything read from an image is untrusted: every size and offset is checked
 * against the bytes available, decompression never writes or allocates beyond
 * the size the entry declares (at most FATBIN_MAX_UNCOMPRESSED).
 */
#ifndef PTXEMU_CUDART_FATBIN_H
#define PTXEMU_CUDART_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_WRAPPER_MAGIC 0x466243B1u
/* the size argument when the caller does not know it (a registered wrapper):
   the container's own header decides */
#define FATBIN_SIZE_UNKNOWN UINT64_MAX
/* no entry may decompress to more (a corrupt size must not allocate more) */
#define FATBIN_MAX_UNCOMPRESSED ((uint64_t)1 << 30)

enum { FATBIN_OTHER = 0, FATBIN_PTX = 1, FATBIN_ELF = 2 };
enum { FATBIN_COMP_NONE = 0, FATBIN_COMP_LZ4, FATBIN_COMP_ZSTD };

#define FATBIN_FLAG_64BIT 0x1u
#define FATBIN_FLAG_DEBUG 0x2u
#define FATBIN_FLAG_LINUX 0x10u
#define FATBIN_FLAG_LZ4 0x2000u
#define FATBIN_FLAG_ZSTD 0x8000u
#define FATBIN_FLAG_ARCH_SPECIFIC 0x100000u
#define FATBIN_FLAG_FAMILY_SPECIFIC 0x200000u

typedef struct fatbin_entry {
  int kind;                  /* FATBIN_PTX, FATBIN_ELF, FATBIN_OTHER */
  unsigned raw_kind;         /* the kind field as stored */
  unsigned arch;             /* 90 for sm_90 / compute_90 / sm_90a */
  bool arch_specific;        /* sm_90a, compute_90a */
  bool family_specific;      /* sm_100f, compute_100f */
  bool debug;                /* built with -G */
  bool compressed;
  int compression;           /* FATBIN_COMP_* */
  unsigned version_major, version_minor; /* PTX: PTX ISA version */
  uint64_t flags;            /* as stored */
  const uint8_t *payload;    /* inside the image: the stored (maybe compressed) bytes */
  uint64_t payload_size;     /* stored bytes (the compressed stream's size if compressed) */
  uint64_t uncompressed_size;/* bytes after decompression (== payload_size if not compressed) */
  const char *name;          /* inside the image, not NUL-terminated; NULL if none */
  uint32_t name_len;
  const uint8_t *options;    /* inside the image, not NUL-terminated; NULL if none */
  uint32_t options_len;      /* trailing NULs not counted */
  uint64_t offset;           /* of the entry header from the image start */
  int container;             /* which fatbin of a section (0 for fatbin_parse) */
} fatbin_entry;

/* Size in bytes of the fatbin at image (header and entries), 0 if the header
   is not a valid fatbin header or does not fit in max_bytes. */
uint64_t fatbin_size(const void *image, uint64_t max_bytes);

/* Parse the one fatbin at image (at most max_bytes readable, or
   FATBIN_SIZE_UNKNOWN).  Fills up to max_entries entries of out (out may be
   NULL to count) and returns the number of entries, or -1 with err. */
int fatbin_parse(const void *image, uint64_t max_bytes, fatbin_entry *out, int max_entries,
                 char *err, size_t errlen);

/* Parse every fatbin of a section (.nv_fatbin, __nv_relfatbin: containers back
   to back, zero padding between them allowed).  Same returns as fatbin_parse;
   entry.container numbers the containers. */
int fatbin_parse_section(const void *section, uint64_t size, fatbin_entry *out, int max_entries,
                         char *err, size_t errlen);

/* The stored bytes of an entry, decompressed, in a malloc'd buffer with one
   extra NUL byte after *len bytes.  0, or -1 with err. */
int fatbin_entry_data(const fatbin_entry *e, uint8_t **data, uint64_t *len, char *err, size_t errlen);

/* Which entry's PTX to run on sm_<target_sm>: the highest virtual architecture
   not above it (arch-specific PTX only for exactly that architecture,
   family-specific only within its family; at equal architecture arch-specific
   before family-specific before plain).  Returns the index, or -1 with err
   naming what the fatbin has and the nvcc flag that adds usable PTX. */
int fatbin_pick_ptx(const fatbin_entry *entries, int n, unsigned target_sm, char *err, size_t errlen);

/* fatbin_parse + fatbin_pick_ptx + fatbin_entry_data: the chosen PTX as text,
   NUL-terminated in a malloc'd buffer (*len excludes the NUL); *ptx_arch (may
   be NULL) gets its architecture.  0, or -1 with err. */
int fatbin_select_ptx(const void *image, uint64_t max_bytes, unsigned target_sm, char **ptx,
                      uint64_t *len, unsigned *ptx_arch, char *err, size_t errlen);

/* The wrapper nvcc passes to __cudaRegisterFatBinary: { u32 magic 0x466243B1;
   u32 version (1 or 2); const void *data; void *filename_or_fatbins; }.
   Returns data if the wrapper and the fatbin header it points to look right,
   else NULL. */
const void *fatbin_from_wrapper(const void *wrapper);

/* ---- a whole host program or shared object ---------------------------- */

enum {
  FATBIN_CUDART_NONE = 0, /* no CUDA runtime found (driver API only, or no CUDA) */
  FATBIN_CUDART_SHARED,   /* DT_NEEDED libcudart.so.N */
  FATBIN_CUDART_STATIC,   /* libcudart_static linked in (nvcc's default) */
};
enum {
  FATBIN_ELF_OK = 0,           /* runnable: shared runtime (or none) and usable PTX */
  FATBIN_ELF_STATIC_CUDART,    /* rebuild with -cudart shared */
  FATBIN_ELF_NO_PTX,           /* has fatbins, but SASS only */
  FATBIN_ELF_PTX_TOO_NEW,      /* PTX only above the target */
  FATBIN_ELF_NO_FATBIN,        /* no device code at all */
};

typedef struct fatbin_elf_info {
  bool has_nv_fatbin, has_relfatbin;
  int containers;          /* fatbins in both sections */
  int ptx_entries, elf_entries;
  int elf_code_entries;    /* SASS entries with code (nvcc's device link of host-only objects embeds one without) */
  unsigned ptx_arch_max;   /* highest PTX architecture, 0 if none */
  unsigned ptx_usable_arch;/* what fatbin_pick_ptx picks for the target, 0 if none */
  unsigned sass_arch_max;  /* highest SASS architecture, 0 if none */
  int cudart;              /* FATBIN_CUDART_* */
  char cudart_needed[64];  /* the DT_NEEDED name ("libcudart.so.13"), if shared */
  bool needs_libcuda;      /* DT_NEEDED libcuda.so.1 (driver API) */
  int problem;             /* FATBIN_ELF_* */
  char message[512];       /* for problem != OK: what is wrong and how to rebuild */
} fatbin_elf_info;

/* Inspect the ELF executable or shared object at path for sm_<target_sm>:
   its fatbin sections, its PTX, how it links the CUDA runtime.  Returns 0 with
   *info filled (info->problem says whether it can run), or -1 with err when
   the file cannot be read or is not a 64-bit little-endian ELF file (or its
   fatbin sections are corrupt). */
int fatbin_scan_elf(const char *path, unsigned target_sm, fatbin_elf_info *info, char *err,
                    size_t errlen);

/* (internal to the reader) a formatted message into err[errlen] */
void fatbin_seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
