/* memmodel/space.h - the generic address map and the per-access counters
 * that depend only on addresses (sectors, lines, shared-memory wavefronts).
 *
 * Generic addresses (64-bit):
 *   [GEN_LOCAL_BASE,  +4 GiB)   local memory of the executing thread
 *   [GEN_SHARED_BASE, +4 GiB)   shared memory; shared::cta offsets are
 *                               below 16 MiB, shared::cluster addresses of
 *                               another CTA carry (rank+1) << 24
 *   everything else             global memory (device allocations,
 *                               module variables, kernel parameters, heap)
 * Both windows are 4 GiB aligned, so a 32-bit truncated shared or local
 * address (what cvta.to.shared + cvt.u32.u64 gives) is the offset itself.
 *
 * The map sits at 0x2c00'0000'0000..0x3000'0000'0000, a range Linux never
 * picks for a mapping on its own (executables and brk near 0x55..,
 * mmap downwards from 0x7f.. less up to 1 TiB of randomisation; ASan's
 * shadow ends at 0x1000'8000'0000): under ptxemu exec the program's own
 * host memory (cudaMallocHost, cudaHostRegister) keeps its host address on
 * the device, so the two must never meet.  ptxemu exec also reserves the
 * range (EMU_ADDR_MAP_LO..HI) so nothing can be put there later. */
#ifndef MEMMODEL_SPACE_H
#define MEMMODEL_SPACE_H
#include <stdint.h>

#define GEN_LOCAL_BASE   0x00002d0000000000ull
#define GEN_SHARED_BASE  0x00002e0000000000ull
#define GEN_WINDOW_SIZE  0x0000000100000000ull
#define GLOBAL_BASE      0x00002f0000000000ull   /* device allocations grow up from here */
#define FUNC_ADDR_BASE   0x00002c0000000000ull   /* "addresses" of functions */
#define EMU_ADDR_MAP_LO  FUNC_ADDR_BASE
#define EMU_ADDR_MAP_HI  0x0000300000000000ull
#define CLUSTER_RANK_SHIFT 24

enum mm_space { MM_GLOBAL, MM_SHARED, MM_LOCAL, MM_CONST, MM_PARAM, MM_NONE };

/* Which window a generic address falls in. */
static inline enum mm_space mm_classify(uint64_t a) {
  if (a - GEN_SHARED_BASE < GEN_WINDOW_SIZE) return MM_SHARED;
  if (a - GEN_LOCAL_BASE < GEN_WINDOW_SIZE) return MM_LOCAL;
  return MM_GLOBAL;
}

/* Distinct 32-byte sectors and 128-byte lines touched by the lanes of m,
 * each accessing `bytes` at addr[lane]. */
void mm_sectors(const uint64_t *addr, uint32_t m, uint32_t bytes, uint32_t *sectors, uint32_t *lines);

/* The distinct sectors (at most 64, in the order the lanes of m first
 * touch them) of a warp's access of `bytes` at addr[lane], with the lanes
 * in each (*lanes) and the bytes of it they touch (*touched, bit i: byte
 * i); returns how many. */
uint32_t mm_sector_bytes(const uint64_t *addr, uint32_t m, uint32_t bytes, uint64_t *sec, uint32_t *lanes, uint32_t *touched);

/* Shared-memory wavefronts for one warp access (32 banks of 4 bytes; lanes
 * reading the same word share it).  Returns wavefronts; *ideal gets the
 * minimum for that access width, so conflicts = wavefronts - ideal. */
uint32_t mm_shared_wavefronts(const uint64_t *addr, uint32_t m, uint32_t bytes, uint32_t *ideal);
/* The same for banks of bank_bytes (4, or 8 as Kepler's eight-byte mode:
 * 32 banks of 8 bytes serve 256 bytes per wavefront, and lanes reading
 * either half of one 8-byte word share it).  4 gives mm_shared_wavefronts. */
uint32_t mm_shared_wavefronts_banked(const uint64_t *addr, uint32_t m, uint32_t bytes, uint32_t bank_bytes, uint32_t *ideal);
/* Banks of bank_bytes addressed in words of mode_bytes (a GPU's bank mode,
 * gpu_config.shared_bank_mode): word w is in bank w % 32; a bank serves in
 * one wavefront all of its words that lie in one row of 32 * bank_bytes
 * bytes (Kepler's 4-byte mode: words i and i + 32 of one 64-word row do not
 * conflict).  mode_bytes == bank_bytes gives mm_shared_wavefronts_banked. */
uint32_t mm_shared_wavefronts_mode(const uint64_t *addr, uint32_t m, uint32_t bytes, uint32_t bank_bytes, uint32_t mode_bytes,
                                   uint32_t *ideal);
/* Rounds a shared-memory atomic needs: wavefronts as for a store, and lanes
 * updating one address take a round each (the contention of a histogram). */
uint32_t mm_shared_atomic_rounds(const uint64_t *addr, uint32_t m, uint32_t wavefronts);
/* Both figures of a 4-byte shared atomic on 4-byte banks in one pass over
 * the lanes (a histogram's atomics are the counters' costliest access):
 * returns mm_shared_atomic_rounds's rounds and sets *wavefronts to
 * mm_shared_wavefronts's; -1 (nothing set) when an address is not a
 * multiple of 4, for the general functions to take. */
int64_t mm_shared_atomic4(const uint64_t *addr, uint32_t m, uint32_t *wavefronts);
#endif
