/* sanitize/internal.h - what the files of sanitize/ share. */
#ifndef SANITIZE_INTERNAL_H
#define SANITIZE_INTERNAL_H
#include "sanitize/sanitize.h"
#include "emu/emu.h"
#include "host/obs_chain.h"

#define SAN_NONE 0xffffu         /* no thread in a shadow access               */
#define SAN_MAX_FINDINGS 1024    /* distinct findings kept per launch          */

/* A shared-memory access in the shadow of a 4-byte word: the thread of the
 * block, the barrier phase it had passed (gen), its last warp-sync (wgen)
 * and the bytes of the word it touched. */
typedef struct sacc { uint32_t pc; uint16_t tid, gen, wgen; uint8_t mask, pad; } sacc;
typedef struct sword { uint32_t instance; sacc w, r, r2; } sword;

/* A global-memory access: thread of the grid (block * threads per block +
 * thread), its barrier phase and its fence count at the time. */
typedef struct gacc { uint32_t pc, thr; uint16_t gen, fence; } gacc;
typedef struct gword { uint32_t stamp; uint8_t wmask, rmask; uint16_t pad; gacc w, r; } gword;

/* What the sanitizer knows of one device region (by base address). */
typedef struct san_region {
  uint64_t base, size;
  const char *name;
  gword *race;                   /* racecheck shadow, lazily                    */
  uint8_t *init;                 /* initcheck: one bit per byte written         */
  bool tracked;                  /* allocated by the host: initcheck applies    */
} san_region;

/* A resident block. */
typedef struct san_cta {
  const cta *c;
  uint32_t linear;
  uint64_t launch;
  uint32_t instance;             /* stamp of its shared shadow words            */
  uint16_t gen[1024], wgen[1024];
  uint16_t bar_stamp[16], next_gen;
  uint16_t next_wgen[32];
  uint32_t bar_count[16];        /* thread count of the open phase (0: all)     */
  uint32_t bar_pc[16];           /* the first arrival's PC, its thread          */
  uint16_t bar_tid[16];
  sword *sh;                     /* racecheck shadow of shared memory           */
  uint32_t nsh;
  uint8_t *init;                 /* initcheck: a bit per byte of shared memory  */
  uint32_t ninit;
  bool blind;                    /* wrote shared memory in ways not observed    */
} san_cta;

struct sanitizer {
  unsigned checks;
  FILE *out;
  emu_observer obs;              /* this sanitizer's observer                    */
  emu_observer *inner;           /* the observer the launch installed (a trace)  */
  obs_chain chain;               /* inner, then obs                              */
  emu *e;
  void *ctx;                     /* the wrapped session hooks                   */
  void (*inner_begin)(void *ctx, int index, const char *kernel, struct emu *e, const struct emu_launch *l);
  void (*inner_done)(void *ctx, int index, const char *kernel, struct emu *e, int rc);
  void (*sink)(void *ctx, const san_finding *f);
  void *sink_ctx;
  /* this launch */
  uint64_t launch;
  const char *kernel;
  uint32_t bsize;                /* threads per block                           */
  bool its;                      /* independent thread scheduling (sm_70+)      */
  bool global_race;              /* thread numbers fit: global racecheck on     */
  bool init_blind;               /* global memory written in ways not observed  */
  uint16_t *fences;              /* per thread of the grid                     */
  uint64_t nfences;
  uint16_t *bfence;              /* per block: the latest barrier phase (gen) a
                                    thread of it had passed when it fenced: its
                                    accesses from before that phase are ordered */
  uint64_t nbfence;
  san_cta *ctas;
  uint32_t nctas, capctas, last_cta;
  uint32_t next_instance;
  san_region *regions;
  uint32_t nregions, capregions, last_region;
  san_finding *found;            /* this launch's findings                      */
  uint32_t nfound;
  uint64_t dropped;
  uint64_t total, per_tool[3];
  uint64_t *seen;                /* findings printed in earlier launches (hashes) */
  uint32_t nseen, capseen;
  uint64_t repeats;              /* ... and found again since                  */
  uint64_t shadow_bytes;         /* global racecheck shadow allocated          */
  bool shadow_full;              /* ... reached SAN_MAX_SHADOW (said once)     */
};
#define SAN_MAX_SHADOW (2ull << 30)

/* sanitize.c */
san_cta *san_cta_of(sanitizer *s, const warp *w);
san_region *san_region_at(sanitizer *s, uint64_t addr);
/* report.c: record one occurrence; sites are filled by san_site_of */
void san_site_of(sanitizer *s, san_site *st, uint32_t spc, uint8_t access, uint32_t block_linear, uint32_t tid);
san_finding *san_record(sanitizer *s, int tool, enum san_kind kind, uint32_t key_a, uint32_t key_b, bool *fresh);
void san_describe_addr(sanitizer *s, san_finding *f, bool shared, uint64_t addr);
void san_report_launch(sanitizer *s);
/* the checkers */
void race_mem(sanitizer *s, const warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, bool shared);
void race_insn(sanitizer *s, const warp *w, const xinsn *x, lanemask m, lanemask g);
void sync_insn(sanitizer *s, const warp *w, const xinsn *x, lanemask m, lanemask g);
void init_mem(sanitizer *s, const warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, bool shared);
void init_insn(sanitizer *s, const warp *w, const xinsn *x, lanemask m, lanemask g);
void init_launch_end(sanitizer *s);
void init_mark(san_region *r, uint64_t off, uint64_t n);
#endif
