/* sanitize/sanitize.h - run-time checkers that observe execution as traces
 * do (ptxemu run|check|exec --sanitize LIST):
 *   racecheck  shared-memory hazards between threads of a block that no
 *              barrier orders (and, from sm_70, between lanes of a warp that
 *              no __syncwarp orders); global-memory hazards between threads
 *              of a launch that no barrier, fence or atomic orders;
 *   synccheck  barriers in divergent code, named barriers with different
 *              thread counts, warp-sync masks naming lanes that never
 *              arrive, waits on mbarrier phases that can never complete;
 *   initcheck  reads of device allocations nobody wrote, and of shared
 *              memory this block did not write.
 * memcheck (bounds, alignment) is always on: the emulator faults.
 *
 * The sanitizer wraps a session's launch hooks and puts its own observer in
 * front of whatever observer (a trace) the launch installs; with no
 * --sanitize nothing of this runs.  Each distinct finding (tool, kind and the
 * PCs involved) is reported once per launch with a count. */
#ifndef SANITIZE_SANITIZE_H
#define SANITIZE_SANITIZE_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct session_opts;

enum { SAN_RACECHECK = 1, SAN_SYNCCHECK = 2, SAN_INITCHECK = 4 };

/* What a finding is about (hazards.kind in the trace). */
enum san_kind {
  SK_RAW, SK_WAR, SK_WAW,                 /* racecheck                                  */
  SK_DIVERGENT_BARRIER, SK_BARRIER_COUNT, SK_WARP_SYNC_MASK, SK_MBARRIER,  /* synccheck */
  SK_UNINIT_GLOBAL, SK_UNINIT_SHARED,     /* initcheck                                  */
  SK_COUNT
};
extern const char *const san_kind_names[SK_COUNT];
extern const char *const san_tool_names[3];   /* by tool bit index: racecheck, synccheck, initcheck */

/* One access (or one instruction) of a finding. */
typedef struct san_site {
  bool valid;
  uint8_t access;                /* 0 read, 1 write, 2 atomic, 3 other (a barrier) */
  uint32_t pc;                   /* PC in its function                            */
  uint32_t ptx_line;
  uint32_t cuda_line;            /* 0: the PTX has no .loc there                  */
  char cuda_file[160];           /* the last path component of the .file         */
  uint32_t block[3], thread[3];
} san_site;

typedef struct san_finding {
  int tool;                      /* SAN_RACECHECK, SAN_SYNCCHECK or SAN_INITCHECK */
  enum san_kind kind;
  const char *space;             /* "shared", "global" or NULL                   */
  uint64_t count;                /* occurrences in the launch                     */
  san_site a, b;                 /* a: the earlier access (or the one instruction) */
  uint64_t addr;                 /* shared: offset in the block's shared memory   */
  uint32_t size;
  char variable[160];            /* "s_val+4", "buffer 'out'+64", ""              */
  char message[320];             /* what happened and what to do                  */
  /* dedup key */
  uint32_t key_a, key_b;
} san_finding;

typedef struct sanitizer sanitizer;

/* "racecheck,synccheck,initcheck", "all" or "memcheck" (always on); a mask
 * of SAN_* bits, or -1 with *bad set to the unknown word. */
int san_parse(const char *list, const char **bad, size_t *badlen);
/* A sanitizer printing to out (stderr). */
sanitizer *san_new(unsigned checks, FILE *out);
void san_free(sanitizer *s);
/* Put the sanitizer around the session's hooks (observer_ctx, launch_begin,
 * launch_done, buffer_alloc): call after the trace set them. */
void san_attach(sanitizer *s, struct session_opts *o);
/* The same hooks for callers without a session (the CUDA libraries). */
struct emu;
struct emu_launch;
void san_launch_begin(void *ctx, int index, const char *kernel, struct emu *e, const struct emu_launch *l);
void san_launch_done(void *ctx, int index, const char *kernel, struct emu *e, int rc);
/* Device memory the host allocated (written: its contents are set) and
 * host writes into it (initcheck knows which bytes are defined). */
void san_buffer_alloc(void *ctx, uint64_t addr, uint64_t size, bool written);
void san_host_write(sanitizer *s, uint64_t addr, uint64_t size);
/* Each finding also goes here at the end of its launch (the trace). */
void san_set_sink(sanitizer *s, void (*sink)(void *ctx, const san_finding *f), void *ctx);
/* Distinct findings reported so far; the summary line. */
uint64_t san_total(const sanitizer *s);
void san_summary(const sanitizer *s);
#endif
