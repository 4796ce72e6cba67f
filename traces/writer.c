/* traces/writer.c - record what the emulator does into a trace database.
 *
 * Threads.  The emulator thread runs the observer callbacks: they append
 * fixed-size records to the current buffer and, when it is full, queue it
 * for the writer thread and take an empty one (waiting only when every
 * buffer is queued).  The writer thread inserts a buffer with one
 * "INSERT INTO table SELECT ... FROM trace_*_buf" statement, where
 * trace_*_buf is an eponymous virtual table over the buffer, and commits.
 * Everything else (module, launch rows) runs on the emulator thread while
 * the queue is empty and the writer idle (trace_sync), so the connection is
 * never used by two threads at once.
 *
 * Rows.  A warp_runs row is a run of consecutive instructions of one warp
 * with the same lanes; while its warp goes straight on, unguarded, the
 * interpreter counts the instructions itself (emu_observer's fold: the
 * trace marks the PCs where a row may grow, obs.fold_next is the open
 * row's next PC) and on_insn sees only where rows open and end.  An
 * untimed launch's rows are inserted without the timing columns.
 *
 * Row ids.  warp_runs and mem_accesses get their rowids from SQLite (the
 * fast append path); since this process is the only writer and only
 * appends, those ids are max(id)+1, +2, ... and the emulator thread knows
 * them in advance (mem_accesses.run_id, launches.first/last_*_id).  The
 * writer checks that after each insert. */
#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "config.h"
#include "emu/emu.h"
#include "emu/timing.h"
#include "gpu/config.h"
#include "sanitize/sanitize.h"
#include "traces/reserve.h"
#include "traces/trace.h"
#include "util/clock.h"

#define RUN_BUF_ROWS (1u << 12)
#define MEM_BUF_ROWS (1u << 12)
#define NBUFS 32                 /* per kind: one filling, the others queued or inserting */
#define CAP_TXN_BUFS 2          /* buffers a transaction takes under --trace-max-size */

/* One row of warp_runs. */
typedef struct wrun {
  uint64_t wseq;                 /* the warp's instruction index of the first one */
  uint64_t issue;                /* timing: issue cycle, and complete - issue    */
  uint32_t insn, n, reps, block, active, guard, taken, dur;
  uint16_t warp, sm;
  uint8_t has_taken, threads, pred_threads;
  /* timing: the parts of the wait since the warp's previous issue, largest
   * first (stall_id/stall_cycles, stall2_..., stall3_...); a part of reason
   * 0 is none, and without st[0] the row has no timing (NULL columns) */
  emu_stall st[EMU_STALL_PARTS];
} wrun;

#define MAX_REPS 4096            /* rows of the counter table (schema.c)       */

/* One row of mem_accesses. */
typedef struct mrec {
  uint64_t addr;
  uint64_t wseq;
  uint32_t insn, block;
  uint16_t warp, a, b;           /* global: sectors, lines; shared: wavefronts, conflicts */
  uint8_t space, kind, size, threads;
  uint8_t l1_cached;             /* a global load that allocates in L1 (timed GPU) */
} mrec;

enum { BUF_RUNS, BUF_MEM };

typedef struct tbuf {
  int kind;
  int64_t launch_id;
  bool timed;                    /* the launch is timed: its warp_runs rows have timing columns */
  int64_t first_id;              /* rowid the first row will get */
  uint32_t n, cap;
  void *rows;
  struct tbuf *next;
} tbuf;

/* Per-block bookkeeping of the current launch. */
typedef struct tblock {
  uint64_t insts;
  uint64_t start_cycle, end_cycle;  /* timing; end_cycle 0: none */
  int64_t first_run, last_run;
  uint32_t warps;                /* bit per warp that executed */
  uint16_t sm;
  bool seen;
} tblock;

enum { PF_TRACED = 1, PF_ENDS = 2, PF_BRANCH = 4, PF_BRX = 8 };

struct trace {
  trace_opts o;
  sqlite3 *db;
  char *path;
  int reserve;                   /* disk space for the run's last rows (reserve.c), or -1 */
  int64_t run_id;
  bool failed;                   /* recording stopped after an error         */
  emu *emu;                      /* the launch being recorded: stopped when a write fails */
  bool reported, cap_reported;   /* the failure, the size cap were printed   */
  bool write_failed;             /* set (atomically) by the writer thread when an insert failed */
  /* size cap (--trace-max-size): once the file reaches it, warp and memory
   * rows are dropped; launches keep their row and counters, marked
   * 'truncated'.  capped is set by the writer thread, read by the emulator. */
  volatile bool capped;
  bool launch_capped;            /* the current launch lost rows             */
  uint64_t page_size;
  int64_t last_inserted[2];      /* highest warp_runs / mem_accesses id on disk */
  char errmsg[512];
  emu_observer obs;

  /* static program */
  const isa_module *mod;
  int64_t module_id;
  int64_t *func_kernel_id;       /* per function of the module              */
  int64_t *func_insn_base;       /* insn_id of pc 0 of each function, 0: none */
  int64_t op_id[OP_COUNT];
  int64_t unit_id[U_COUNT];
  bool params_written;

  /* current launch */
  int64_t launch_id;
  enum trace_level level;        /* of this launch                          */
  bool warp_level, mem_level;
  uint64_t t0;
  bool map_ready;
  uint32_t nmap;
  uint32_t *pcmap;               /* program pc -> insn_id - func base...: the insn_id (fits 32 bits) */
  uint8_t *pcflag;
  uint8_t *foldable;             /* per PC: the interpreter may extend a row here (obs.fold_pc) */
  uint32_t blo, bspan;           /* block filter: linear - blo <= bspan      */
  tblock *blocks;
  uint32_t nblocks, capblocks;
  uint32_t cblk_linear;          /* cached block                              */
  tblock *cblk;
  /* the open run, and the last closed one (a loop repeats it: reps) */
  bool open, pending;
  const warp *rw, *pw;
  /* the open row's next PC is obs.fold_next (UINT32_MAX: none to extend) */
  wrun run, prun;
  /* timing mode: one row per warp instruction (no folding, so every row's
   * cycles are exact); the SM samples of the launch, written at its end */
  bool timed;
  struct { uint64_t cycle; uint32_t sm, active, eligible; } *samples;
  uint32_t nsamples, capsamples;
  /* the instruction being executed, for on_mem */
  bool cur_ok;
  uint32_t cur_insn;
  int64_t next_run_id, next_mem_id;
  int64_t launch_first_run, launch_first_mem;

  /* buffers and the writer thread */
  tbuf bufs[2 * NBUFS];
  tbuf *cur[2];
  tbuf *free_list[2];
  tbuf *qhead, *qtail;
  bool busy, stop, thread_ok;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv_work, cv_done;
  /* what the virtual tables show: a list of buffers of one kind (linked by
   * next); each goes back to the free list as the scan leaves it, where
   * release_passed is set (the writer thread) */
  tbuf *inserting;
  bool release_passed;
  /* the inserts bind the launch as ?1 (a constant costs SQLite less than a
   * column); an untimed launch's warp_runs rows leave the eight timing
   * columns out (NULL) rather than read each from the buffer */
  sqlite3_stmt *ins[2], *ins_untimed, *upd_last[2];
  /* statistics */
  uint64_t rows_written[2], insts_recorded;
  double writer_cpu;             /* seconds the writer spent inserting      */
};

/* ---- small helpers ---------------------------------------------------------- */

static double thread_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fail(trace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(trace *t, const char *fmt, ...) {
  if (t->failed) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->errmsg, sizeof t->errmsg, fmt, ap);
  va_end(ap);
  t->failed = true;
}

static int exec(trace *t, const char *sql) {
  char *msg = NULL;
  if (sqlite3_exec(t->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
    fail(t, "%s: %s", t->path, msg ? msg : sqlite3_errmsg(t->db));
    sqlite3_free(msg);
    return -1;
  }
  return 0;
}

static sqlite3_stmt *prep(trace *t, const char *sql) {
  sqlite3_stmt *s = NULL;
  if (sqlite3_prepare_v2(t->db, sql, -1, &s, NULL) != SQLITE_OK) { fail(t, "%s: %s", t->path, sqlite3_errmsg(t->db)); return NULL; }
  return s;
}

/* Step a statement to completion; returns 0 or -1 (and fails the trace). */
static int step_done(trace *t, sqlite3_stmt *s) {
  int rc = sqlite3_step(s);
  while (rc == SQLITE_ROW) rc = sqlite3_step(s);
  sqlite3_reset(s);
  if (rc != SQLITE_DONE) { fail(t, "%s: %s", t->path, sqlite3_errmsg(t->db)); return -1; }
  return 0;
}

static void bind_text_or_null(sqlite3_stmt *s, int i, const char *v) {
  if (v) sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT); else sqlite3_bind_null(s, i);
}

static int64_t scalar(trace *t, const char *sql) {
  sqlite3_stmt *s = prep(t, sql);
  int64_t v = 0;
  if (s && sqlite3_step(s) == SQLITE_ROW) v = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  return v;
}

/* ---- virtual tables over the buffers ------------------------------------------ */

typedef struct bvtab { sqlite3_vtab base; trace *t; int kind; } bvtab;
typedef struct bcur { sqlite3_vtab_cursor base; trace *t; const tbuf *b; uint32_t i; int64_t rowid; } bcur;
typedef struct vaux { trace *t; int kind; } vaux;

static int v_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **pp, char **err) {
  (void)argc; (void)argv; (void)err;
  const vaux *a = aux;
  int rc = sqlite3_declare_vtab(db, a->kind == BUF_RUNS ?
    "CREATE TABLE x(launch_id, sm, block, warp, wseq, insn_id, n, reps, active, threads, guard, pred_threads, taken, "
    "issue_cycle, complete_cycle, stall_id, stall_cycles, stall2_id, stall2_cycles, stall3_id, stall3_cycles)" :
    "CREATE TABLE x(launch_id, insn_id, block, warp, wseq, space_id, kind_id, size, threads, bytes, addr, "
    "sectors, lines, wavefronts, conflicts, l1_cached)");
  if (rc != SQLITE_OK) return rc;
  bvtab *v = sqlite3_malloc(sizeof *v);
  if (!v) return SQLITE_NOMEM;
  memset(v, 0, sizeof *v);
  v->t = a->t;
  v->kind = a->kind;
  *pp = &v->base;
  return SQLITE_OK;
}
static int v_disconnect(sqlite3_vtab *p) { sqlite3_free(p); return SQLITE_OK; }
static int v_best_index(sqlite3_vtab *p, sqlite3_index_info *ii) { (void)p; ii->estimatedCost = 1e6; ii->estimatedRows = RUN_BUF_ROWS; return SQLITE_OK; }
static int v_open(sqlite3_vtab *p, sqlite3_vtab_cursor **pc) {
  bcur *c = sqlite3_malloc(sizeof *c);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  *pc = &c->base;
  (void)p;
  return SQLITE_OK;
}
static int v_close(sqlite3_vtab_cursor *c) { sqlite3_free(c); return SQLITE_OK; }
static void release_buffer(trace *t, tbuf *b);
/* The scan has left the current buffer: SQLite holds copies of its rows. */
static void leave_buffer(bcur *c) {
  trace *t = c->t;
  tbuf *b = t->inserting;                /* == c->b */
  t->inserting = b->next;
  if (t->release_passed) release_buffer(t, b);
  c->b = t->inserting;
  c->i = 0;
}
static void skip_empty(bcur *c) { while (c->b && c->i >= c->b->n) leave_buffer(c); }
static int v_filter(sqlite3_vtab_cursor *cc, int idx, const char *s, int argc, sqlite3_value **argv) {
  (void)idx; (void)s; (void)argc; (void)argv;
  bcur *c = (bcur *)cc;
  bvtab *v = (bvtab *)cc->pVtab;
  c->t = v->t;
  tbuf *b = v->t->inserting;
  c->b = b && b->kind == v->kind ? b : NULL;
  c->i = 0;
  c->rowid = 0;
  if (c->b) skip_empty(c);
  return SQLITE_OK;
}
static int v_next(sqlite3_vtab_cursor *cc) {
  bcur *c = (bcur *)cc;
  c->i++;
  c->rowid++;
  skip_empty(c);
  return SQLITE_OK;
}
static int v_eof(sqlite3_vtab_cursor *cc) { return !((bcur *)cc)->b; }
static int v_rowid(sqlite3_vtab_cursor *cc, sqlite3_int64 *r) { *r = ((bcur *)cc)->rowid; return SQLITE_OK; }

static int v_column_runs(sqlite3_vtab_cursor *cc, sqlite3_context *ctx, int col) {
  bcur *c = (bcur *)cc;
  const wrun *r = &((const wrun *)c->b->rows)[c->i];
  switch (col) {
  case 0: sqlite3_result_int64(ctx, c->b->launch_id); break;
  case 1: sqlite3_result_int(ctx, r->sm); break;
  case 2: sqlite3_result_int64(ctx, r->block); break;
  case 3: sqlite3_result_int(ctx, r->warp); break;
  case 4: sqlite3_result_int64(ctx, (int64_t)r->wseq); break;
  case 5: sqlite3_result_int64(ctx, r->insn); break;
  case 6: sqlite3_result_int64(ctx, r->n); break;
  case 7: sqlite3_result_int64(ctx, r->reps); break;
  case 8: sqlite3_result_int64(ctx, r->active); break;
  case 9: sqlite3_result_int(ctx, r->threads); break;
  case 10: sqlite3_result_int64(ctx, r->guard); break;
  case 11: sqlite3_result_int(ctx, r->pred_threads); break;
  case 12: if (r->has_taken) sqlite3_result_int64(ctx, r->taken); break;
  case 13: if (r->st[0].why) sqlite3_result_int64(ctx, (int64_t)r->issue); break;
  case 14: if (r->st[0].why) sqlite3_result_int64(ctx, (int64_t)(r->issue + r->dur)); break;
  default:                      /* 15 .. 20: the parts' reasons and cycles */
    if (col >= 15 && col < 15 + 2 * EMU_STALL_PARTS && r->st[(col - 15) / 2].why) {
      const emu_stall *p = &r->st[(col - 15) / 2];
      sqlite3_result_int64(ctx, (col - 15) % 2 ? (int64_t)p->cycles : (int64_t)p->why);
    }
    break;
  }
  return SQLITE_OK;
}

static int v_column_mem(sqlite3_vtab_cursor *cc, sqlite3_context *ctx, int col) {
  bcur *c = (bcur *)cc;
  const mrec *r = &((const mrec *)c->b->rows)[c->i];
  bool shared = r->space == 1;
  switch (col) {
  case 0: sqlite3_result_int64(ctx, c->b->launch_id); break;
  case 1: sqlite3_result_int64(ctx, r->insn); break;
  case 2: sqlite3_result_int64(ctx, r->block); break;
  case 3: sqlite3_result_int(ctx, r->warp); break;
  case 4: sqlite3_result_int64(ctx, (int64_t)r->wseq); break;
  case 5: sqlite3_result_int(ctx, r->space); break;
  case 6: sqlite3_result_int(ctx, r->kind); break;
  case 7: sqlite3_result_int(ctx, r->size); break;
  case 8: sqlite3_result_int(ctx, r->threads); break;
  case 9: sqlite3_result_int(ctx, (int)r->size * r->threads); break;
  case 10: sqlite3_result_int64(ctx, (int64_t)r->addr); break;
  case 11: if (!shared) sqlite3_result_int(ctx, r->a); break;
  case 12: if (!shared) sqlite3_result_int(ctx, r->b); break;
  case 13: if (shared) sqlite3_result_int(ctx, r->a); break;
  case 14: if (shared) sqlite3_result_int(ctx, r->b); break;
  case 15: if (!shared && r->kind == 0) sqlite3_result_int(ctx, r->l1_cached); break;
  }
  return SQLITE_OK;
}

static sqlite3_module vmod_runs = { .xConnect = v_connect, .xBestIndex = v_best_index, .xDisconnect = v_disconnect,
  .xOpen = v_open, .xClose = v_close, .xFilter = v_filter, .xNext = v_next, .xEof = v_eof,
  .xColumn = v_column_runs, .xRowid = v_rowid };
static sqlite3_module vmod_mem = { .xConnect = v_connect, .xBestIndex = v_best_index, .xDisconnect = v_disconnect,
  .xOpen = v_open, .xClose = v_close, .xFilter = v_filter, .xNext = v_next, .xEof = v_eof,
  .xColumn = v_column_mem, .xRowid = v_rowid };

/* ---- the writer thread ---------------------------------------------------------- */

/* Insert the rows of a list of buffers of one kind and launch (inside
 * insert_buffers' transaction), in one statement. */
static void insert_group(trace *t, tbuf *g, bool release, int64_t *last) {
  int k = g->kind;
  int64_t launch_id = g->launch_id, want = 0;      /* the ids run on from buffer to buffer */
  uint64_t rows = 0;
  for (tbuf *b = g; b; b = b->next)
    if (b->n) { want = b->first_id + b->n - 1; rows += b->n; }
  t->inserting = g;
  t->release_passed = release;
  sqlite3_stmt *ins = k == BUF_RUNS && !g->timed ? t->ins_untimed : t->ins[k];
  sqlite3_bind_int64(ins, 1, launch_id);
  if (!t->failed && rows && step_done(t, ins) == 0) {
    int64_t got = sqlite3_last_insert_rowid(t->db);
    if (got != want)
      fail(t, "%s: another process wrote to the trace (rowid %lld, expected %lld)", t->path, (long long)got, (long long)want);
    sqlite3_bind_int64(t->upd_last[k], 1, got);
    sqlite3_bind_int64(t->upd_last[k], 2, launch_id);
    step_done(t, t->upd_last[k]);
    last[k] = want;
    t->rows_written[k] += rows;
  }
  /* what the scan did not pass (an error stopped it, or nothing to insert) */
  while (t->inserting) {
    tbuf *b = t->inserting;
    t->inserting = b->next;
    if (release) release_buffer(t, b);
  }
}

/* Give a buffer whose rows are inserted back to the emulator thread. */
static void release_buffer(trace *t, tbuf *b) {
  pthread_mutex_lock(&t->mu);
  b->next = t->free_list[b->kind];
  t->free_list[b->kind] = b;
  pthread_cond_broadcast(&t->cv_done);
  pthread_mutex_unlock(&t->mu);
}

/* Insert a chain of buffers (linked by next) in one transaction, one
 * statement per kind and launch; release: each goes back to the free list
 * once SQLite has its rows (the writer thread), not at the commit, so that
 * the emulator thread fills the next ones meanwhile.  Buffers are small, so
 * that the writer starts soon and the emulator's rows stay in its cache;
 * when the writer falls behind, the buffers queued meanwhile share one
 * statement and one commit. */
static void insert_buffers(trace *t, tbuf *chain, bool release) {
  double c0 = thread_cpu();
  bool open = !t->failed && !t->capped && exec(t, "BEGIN IMMEDIATE") == 0;
  int64_t last[2] = { t->last_inserted[0], t->last_inserted[1] };
  while (chain) {
    /* the next group: the chain's buffers of the first one's kind and
     * launch, in order; the others stay in the chain */
    tbuf *g = NULL, **gt = &g, **p = &chain;
    int k = chain->kind;
    int64_t launch_id = chain->launch_id;
    while (*p) {
      tbuf *b = *p;
      if (b->kind == k && b->launch_id == launch_id) { *p = b->next; b->next = NULL; *gt = b; gt = &b->next; }
      else p = &b->next;
    }
    if (open) insert_group(t, g, release, last);
    else while (g) { tbuf *b = g; g = b->next; if (release) release_buffer(t, b); }
  }
  if (open) {
    if (t->failed) sqlite3_exec(t->db, "ROLLBACK", NULL, NULL, NULL);
    else if (exec(t, "COMMIT") == 0) memcpy(t->last_inserted, last, sizeof last);
  }
  if (t->failed) __atomic_store_n(&t->write_failed, true, __ATOMIC_RELEASE);   /* errmsg is written */
  if (!t->failed && t->o.max_bytes && (uint64_t)scalar(t, "PRAGMA page_count") * t->page_size >= t->o.max_bytes) t->capped = true;
  t->writer_cpu += thread_cpu() - c0;
}

static void *writer_main(void *arg) {
  trace *t = arg;
  pthread_mutex_lock(&t->mu);
  for (;;) {
    while (!t->qhead && !t->stop) pthread_cond_wait(&t->cv_work, &t->mu);
    if (!t->qhead) break;
    /* everything queued: one transaction; under a size cap, at most
     * CAP_TXN_BUFS buffers, since the cap is checked between transactions
     * (a file passes it by one transaction's rows at most) */
    tbuf *chain = t->qhead, *rest = NULL;
    if (t->o.max_bytes) {
      tbuf *b = chain;
      for (int i = 1; i < CAP_TXN_BUFS && b->next; i++) b = b->next;
      rest = b->next;
      b->next = NULL;
    }
    t->qhead = rest;
    if (!rest) t->qtail = NULL;
    t->busy = true;
    pthread_mutex_unlock(&t->mu);
    insert_buffers(t, chain, true);
    pthread_mutex_lock(&t->mu);
    t->busy = false;
    pthread_cond_broadcast(&t->cv_done);
  }
  pthread_mutex_unlock(&t->mu);
  return NULL;
}

/* Say once why recording stopped. */
static void report_failure(trace *t) {
  if (!t->failed || t->reported) return;
  t->reported = true;
  fprintf(stderr, "ptxemu: trace: %s; recording stopped\n", t->errmsg);
}

/* A trace write failed (a full disk, another writer): the launch stops now
 * rather than run on to its budget unrecorded (exit status 73). */
static void stop_launch(trace *t) {
  report_failure(t);
  if (t->emu) emu_request_stop(t->emu, "the trace could not be written (see the message above)");
}

/* Queue the current buffer of a kind and take an empty one. */
static void submit(trace *t, int kind) {
  tbuf *b = t->cur[kind];
  if (t->capped) {                   /* the file is full: stop producing rows */
    t->launch_capped = true;
    t->warp_level = t->mem_level = false;
    b->n = 0;
    return;
  }
  if (!t->thread_ok) { b->next = NULL; insert_buffers(t, b, false); b->n = 0; if (t->failed) stop_launch(t); return; }
  pthread_mutex_lock(&t->mu);
  b->next = NULL;
  if (t->qtail) t->qtail->next = b; else t->qhead = b;
  t->qtail = b;
  pthread_cond_signal(&t->cv_work);
  while (!t->free_list[kind]) pthread_cond_wait(&t->cv_done, &t->mu);
  tbuf *nb = t->free_list[kind];
  t->free_list[kind] = nb->next;
  bool failed = t->failed;         /* set by the writer thread before it released the buffer */
  pthread_mutex_unlock(&t->mu);
  if (failed) stop_launch(t);
  nb->n = 0;
  nb->next = NULL;
  nb->launch_id = b->launch_id;
  nb->timed = b->timed;
  t->cur[kind] = nb;
}

/* Wait until everything queued is in the database. */
static void trace_sync(trace *t) {
  if (!t->thread_ok) return;
  pthread_mutex_lock(&t->mu);
  while (t->qhead || t->busy) pthread_cond_wait(&t->cv_done, &t->mu);
  pthread_mutex_unlock(&t->mu);
}

/* Flush partial buffers of the current launch and wait for them. */
static void flush_all(trace *t) {
  for (int k = 0; k < 2; k++) if (t->cur[k] && t->cur[k]->n) submit(t, k);
  trace_sync(t);
}

/* ---- observer callbacks (the emulator thread) ----------------------------------- */

static tblock *block_of(trace *t, const cta *c) {
  if (c->linear == t->cblk_linear && t->cblk) return t->cblk;
  uint32_t i = c->linear - t->blo;
  if (i >= t->capblocks) {
    uint32_t nc = t->capblocks ? t->capblocks : 64;
    while (nc <= i) nc *= 2;
    tblock *nb = realloc(t->blocks, nc * sizeof *nb);
    if (!nb) return NULL;
    memset(nb + t->capblocks, 0, (nc - t->capblocks) * sizeof *nb);
    t->blocks = nb;
    t->capblocks = nc;
  }
  if (i >= t->nblocks) t->nblocks = i + 1;
  tblock *b = &t->blocks[i];
  if (!b->seen) { b->seen = true; b->sm = (uint16_t)c->smid; }
  t->cblk_linear = c->linear;
  t->cblk = b;
  return b;
}

static void build_map(trace *t, const emu *e) {
  free(t->pcmap);
  free(t->pcflag);
  free(t->foldable);
  t->obs.fold_pc = t->foldable = NULL;
  t->nmap = e->nprog;
  t->pcmap = calloc(e->nprog ? e->nprog : 1, sizeof *t->pcmap);
  t->pcflag = calloc(e->nprog + 1, 1);      /* one more, untraced: on_insn reads pcflag[fold_next] */
  t->foldable = calloc(e->nprog + 1, 1);
  if (!t->pcmap || !t->pcflag || !t->foldable) { fail(t, "out of memory"); t->nmap = 0; t->map_ready = true; return; }
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    const xinsn *x = &e->prog[pc];
    uint32_t fi = (uint32_t)(x->f - e->m->funcs);
    uint32_t idx = x->spc - e->func_base[fi];   /* the instruction's own PC: timed runs reorder blocks */
    if (!t->func_insn_base[fi]) continue;
    t->pcmap[pc] = (uint32_t)(t->func_insn_base[fi] + idx);
    uint8_t fl = 0;
    if (idx >= t->o.pc_lo && idx <= t->o.pc_hi) fl |= PF_TRACED;
    if ((x->flags & XF_CONTROL) || isa_ops[x->in->op].family == F_CTRL) fl |= PF_ENDS;
    if (x->in->op == OP_BRA) fl |= PF_BRANCH | PF_ENDS;
    if (x->in->op == OP_BRX_IDX) fl |= PF_BRANCH | PF_BRX | PF_ENDS;
    t->pcflag[pc] = fl;
    /* where the interpreter may extend an open row by itself (at level
     * mem each instruction is reported: on_mem needs its id) */
    t->foldable[pc] = (fl & (PF_TRACED | PF_ENDS)) == PF_TRACED && !t->mem_level;
  }
  t->obs.fold_pc = t->foldable;
  t->map_ready = true;
}

/* Append the pending row to the buffer: it gets the next rowid. */
static void flush_pending(trace *t) {
  /* a failed insert stops the launch at the next row, not the next buffer */
  if (__builtin_expect(__atomic_load_n(&t->write_failed, __ATOMIC_ACQUIRE), 0) && t->emu && !t->emu->stop_reason) stop_launch(t);
  t->pending = false;
  tbuf *b = t->cur[BUF_RUNS];
  int64_t id = t->next_run_id++;
  if (!b->n) b->first_id = id;
  ((wrun *)b->rows)[b->n++] = t->prun;
  uint32_t bi = t->prun.block - t->blo;
  if (bi < t->nblocks) {
    tblock *blk = &t->blocks[bi];
    if (!blk->first_run) blk->first_run = id;
    blk->last_run = id;
  }
  if (b->n == b->cap) submit(t, BUF_RUNS);
}

/* The open run is complete: a repetition of the pending row (the same
 * instructions and masks, right after it in the same warp: a loop; true),
 * or the new pending row. */
static bool close_run(trace *t) {
  t->open = false;
  t->obs.fold_next = UINT32_MAX;
  t->run.n += t->obs.fold_n;       /* the instructions the interpreter folded in */
  t->obs.fold_n = 0;
  wrun *r = &t->run, *p = &t->prun;
  t->insts_recorded += r->n;
  tblock *blk = t->cblk;
  if (blk) { blk->insts += r->n; blk->warps |= 1u << (r->warp & 31); }
  if (t->pending && !t->timed && t->pw == t->rw && p->insn == r->insn && p->n == r->n && p->active == r->active && p->guard == r->guard &&
      p->has_taken == r->has_taken && p->taken == r->taken && p->block == r->block &&
      p->wseq + (uint64_t)p->n * p->reps == r->wseq && p->reps < MAX_REPS) {
    p->reps++;
    return true;
  }
  if (t->pending) flush_pending(t);
  *p = *r;
  t->pw = t->rw;
  t->pending = true;
  return false;
}

/* The pending row was repeated and ends at the branch at PC end, which
 * every lane takes back to its first instruction (the repetition began
 * right after it): the interpreter counts the next repetitions itself,
 * instruction by instruction as it extends a row (obs.fold_*). */
static void arm_loop(trace *t, uint32_t end) {
  const wrun *p = &t->prun;
  t->obs.fold_loop = t->obs.fold_next = end + 1 - p->n;
  t->obs.fold_end = end;
  t->obs.fold_w = t->pw;
  t->obs.fold_mask = p->active;
  t->obs.fold_reps = 0;
  t->obs.fold_reps_max = MAX_REPS - p->reps;
  t->obs.fold_n = 0;
}

/* Nothing folded: no row to extend, no loop to count. */
static void fold_none(trace *t) {
  t->obs.fold_loop = t->obs.fold_end = t->obs.fold_next = UINT32_MAX;
  t->obs.fold_reps = t->obs.fold_reps_max = t->obs.fold_n = 0;
}

/* Open a row of warp w: n instructions from insn (warp instruction wseq)
 * with the lanes active, none guarded. */
static void open_row(trace *t, const warp *w, uint64_t wseq, uint32_t insn, uint32_t n, lanemask active) {
  const cta *c = w->cta;
  block_of(t, c);
  t->open = true;
  t->rw = t->obs.fold_w = w;
  t->obs.fold_mask = active;
  uint8_t th = (uint8_t)popc32(active);
  /* field by field: the timing fields only where on_timing fills them */
  wrun *r = &t->run;
  r->wseq = wseq; r->insn = insn; r->n = n; r->reps = 1; r->block = c->linear; r->active = r->guard = active;
  r->warp = (uint16_t)w->id; r->sm = (uint16_t)c->smid; r->threads = r->pred_threads = th; r->has_taken = 0; r->taken = 0;
  if (t->timed) { r->issue = 0; r->dur = 0; memset(r->st, 0, sizeof r->st); }
}

/* The interpreter has stopped counting the loop (an instruction it did
 * not fold, or the launch's end): its repetitions go to the pending row,
 * and an iteration it was in the middle of becomes the open row. */
static void unloop(trace *t) {
  wrun *p = &t->prun;
  uint32_t reps = t->obs.fold_reps, k = t->obs.fold_n, first = t->obs.fold_loop;
  fold_none(t);
  if (reps) {
    uint64_t add = (uint64_t)reps * p->n;
    p->reps += reps;
    t->insts_recorded += add;
    if (t->cblk) t->cblk->insts += add;
  }
  if (!k) return;
  open_row(t, t->pw, p->wseq + (uint64_t)p->n * p->reps, p->insn, k, p->active);
  t->obs.fold_next = first + k;
}

/* Whether the interpreter is counting a loop's repetitions (arm_loop). */
static bool looping(const trace *t) { return t->obs.fold_end != UINT32_MAX; }

/* on_insn's other cases: a row opens or ends, the instruction is not traced */
static __attribute__((noinline)) void on_insn_row(trace *t, const warp *w, const xinsn *x, lanemask active, lanemask guard) {
  uint32_t pc = x->pc;
  if (__builtin_expect(!t->map_ready, 0)) build_map(t, w->e);
  const cta *c = w->cta;
  if (__builtin_expect(pc >= t->nmap || !(t->pcflag[pc] & PF_TRACED) || c->linear - t->blo > t->bspan, 0)) {
    if (t->open) close_run(t);
    t->cur_ok = false;
    return;
  }
  uint8_t fl = t->pcflag[pc];
  t->cur_ok = true;
  t->cur_insn = t->pcmap[pc];
  if (!t->warp_level) {
    tblock *blk = block_of(t, c);
    if (blk) { blk->insts++; blk->warps |= 1u << (w->id & 31); }
    t->insts_recorded++;
    return;
  }
  if (pc == t->obs.fold_next && w == t->rw && active == t->run.active) {   /* (fold_next: an open untimed row's next PC) */
    t->run.n++;
  } else {
    if (t->open) close_run(t);
    open_row(t, w, w->insts - 1, t->cur_insn, 1, active);
  }
  /* a timed row ends at its issue (on_timing): never extended here */
  t->obs.fold_next = t->timed ? UINT32_MAX : pc + 1;
  if (guard != active || (fl & PF_ENDS)) {
    t->run.guard = guard;
    t->run.pred_threads = (uint8_t)popc32(guard);
    if (fl & PF_BRANCH) {
      lanemask tk = guard;
      if ((fl & PF_BRX) && guard) {
        /* indirect branch: the threads that go where the first one goes */
        const uint64_t *idx = xsrc(w, x, 0);
        int lead = __builtin_ctz(guard);
        tk = 0;
        FOR_LANES(i) if ((guard >> i & 1) && idx[i] == idx[lead]) tk |= 1u << i;
      }
      t->run.has_taken = 1;
      t->run.taken = tk;
    }
    /* a repeated row that ends at a branch all its lanes take: a loop */
    if (!t->timed && close_run(t) && (fl & PF_BRANCH) && !(fl & PF_BRX) && guard == active && !t->mem_level) arm_loop(t, pc);
  }
}

static void on_insn(void *ctx, const warp *w, const xinsn *x, lanemask active, lanemask guard, lanemask taken) {
  (void)taken;
  trace *t = ctx;
  uint32_t pc = x->pc;
  if (looping(t)) unloop(t);
  /* most calls: the open row's warp goes on to the next instruction with
   * the same threads, unguarded, and the row does not end there (the
   * warp's block passed the filter when the row opened) */
  if (pc == t->obs.fold_next && w == t->rw && active == t->run.active && guard == active &&
      (t->pcflag[pc] & (PF_TRACED | PF_ENDS)) == PF_TRACED) {
    t->run.n++;
    t->obs.fold_next = pc + 1;
    if (t->mem_level) { t->cur_ok = true; t->cur_insn = t->pcmap[pc]; }
    return;
  }
  on_insn_row(t, w, x, active, guard);
}

/* Timing mode: the instruction on_insn opened a row for has issued. */
static void on_timing(void *ctx, const warp *w, uint64_t issue, uint64_t complete, const emu_stall *st, int nst) {
  trace *t = ctx;
  if (!t->open || t->rw != w) return;
  t->run.issue = issue;
  t->run.dur = (uint32_t)(complete > issue ? (complete - issue > UINT32_MAX ? UINT32_MAX : complete - issue) : 0);
  /* no parts: an instruction without SASS, no timing columns */
  memset(t->run.st, 0, sizeof t->run.st);
  memcpy(t->run.st, st, (size_t)(nst < EMU_STALL_PARTS ? nst : EMU_STALL_PARTS) * sizeof *st);
  close_run(t);
}

static void on_block_timing(void *ctx, const cta *c, uint64_t start, uint64_t end) {
  trace *t = ctx;
  if (c->linear - t->blo > t->bspan) return;
  tblock *b = block_of(t, c);
  if (!b) return;
  b->start_cycle = start;
  b->end_cycle = end;
}

static void on_sm_sample(void *ctx, uint32_t sm, uint64_t cycle, uint32_t active, uint32_t eligible) {
  trace *t = ctx;
  if (t->nsamples == t->capsamples) {
    uint32_t nc = t->capsamples ? t->capsamples * 2 : 1024;
    void *ns = realloc(t->samples, nc * sizeof *t->samples);
    if (!ns) { fail(t, "out of memory"); return; }
    t->samples = ns;
    t->capsamples = nc;
  }
  t->samples[t->nsamples].cycle = cycle;
  t->samples[t->nsamples].sm = sm;
  t->samples[t->nsamples].active = active;
  t->samples[t->nsamples++].eligible = eligible;
}

static void on_mem(void *ctx, const warp *w, const xinsn *x, const uint64_t *addr, lanemask m, uint32_t bytes,
                   uint32_t sectors, uint32_t lines, uint32_t wavefronts) {
  trace *t = ctx;
  if (!t->cur_ok || !m) return;             /* installed at levels mem and all only */
  tbuf *b = t->cur[BUF_MEM];
  if (!b->n) b->first_id = t->next_mem_id;
  mrec *r = &((mrec *)b->rows)[b->n++];
  int lead = __builtin_ctz(m);
  r->addr = addr[lead];
  r->wseq = w->insts - 1;
  r->insn = t->cur_insn;
  r->block = w->cta->linear;
  r->warp = (uint16_t)w->id;
  r->size = (uint8_t)(bytes > 255 ? 255 : bytes);
  r->threads = (uint8_t)popc32(m);
  switch (x->in->op) {
  case OP_ST: r->kind = 1; break;
  case OP_ATOM: r->kind = 2; break;
  case OP_RED: r->kind = 3; break;
  default: r->kind = isa_ops[x->in->op].family == F_ATOM ? 2 : 0; break;
  }
  if (wavefronts) {
    /* shared: a wavefront serves 32 banks' width (128 bytes; 256 with
     * Kepler's 8-byte banks), so the conflict-free minimum is one per group
     * of lanes that fits (memmodel/coalesce.c) */
    uint32_t bank = w->e->timing_cfg ? w->e->timing_cfg->shared_bank_bytes : 4, span = 32 * bank;
    uint32_t per = bytes <= bank ? 32 : bytes >= span ? 1 : span / bytes, groups = 0;
    for (uint32_t g = 0; g < 32; g += per) if (per == 32 ? m : (m >> g) & ((1u << per) - 1)) groups++;
    r->space = 1;
    r->a = (uint16_t)wavefronts;
    r->b = (uint16_t)(wavefronts > groups ? wavefronts - groups : 0);
  } else {
    r->space = 0;
    r->a = (uint16_t)sectors;
    r->b = (uint16_t)lines;
  }
  r->l1_cached = r->space == 0 && r->kind == 0 && emu_load_cached_in_l1(w->e, x);
  t->next_mem_id++;
  if (b->n == b->cap) submit(t, BUF_MEM);
}

/* ---- opening ----------------------------------------------------------------------- */

int trace_level_from_name(const char *s) {
  for (int i = 0; i < 4; i++) if (strcmp(s, trace_level_names[i]) == 0) return i;
  return -1;
}

static int sync_lookups(trace *t) {
  sqlite3_stmt *iu = prep(t, "INSERT OR IGNORE INTO units(name) VALUES (?)");
  sqlite3_stmt *su = prep(t, "SELECT unit_id FROM units WHERE name = ?");
  sqlite3_stmt *io = prep(t, "INSERT OR IGNORE INTO opcodes(name, unit_id) VALUES (?, ?)");
  sqlite3_stmt *so = prep(t, "SELECT opcode_id FROM opcodes WHERE name = ?");
  int rc = -1;
  if (!iu || !su || !io || !so) goto out;
  for (int u = 0; u < U_COUNT; u++) {
    sqlite3_bind_text(iu, 1, isa_unit_names[u], -1, SQLITE_STATIC);
    if (step_done(t, iu)) goto out;
    sqlite3_bind_text(su, 1, isa_unit_names[u], -1, SQLITE_STATIC);
    if (sqlite3_step(su) == SQLITE_ROW) t->unit_id[u] = sqlite3_column_int64(su, 0);
    sqlite3_reset(su);
  }
  for (int op = 0; op < OP_COUNT; op++) {
    sqlite3_bind_text(io, 1, isa_ops[op].name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(io, 2, t->unit_id[isa_ops[op].unit]);
    if (step_done(t, io)) goto out;
    sqlite3_bind_text(so, 1, isa_ops[op].name, -1, SQLITE_STATIC);
    if (sqlite3_step(so) == SQLITE_ROW) t->op_id[op] = sqlite3_column_int64(so, 0);
    sqlite3_reset(so);
  }
  rc = 0;
out:
  sqlite3_finalize(iu); sqlite3_finalize(su); sqlite3_finalize(io); sqlite3_finalize(so);
  return rc;
}

static void iso_time(char *buf, size_t n) {
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void trace_free(trace *t) {
  if (!t) return;
  for (int k = 0; k < 2; k++) { sqlite3_finalize(t->ins[k]); sqlite3_finalize(t->upd_last[k]); }
  sqlite3_finalize(t->ins_untimed);
  if (t->db) sqlite3_close(t->db);
  for (int i = 0; i < 2 * NBUFS; i++) free(t->bufs[i].rows);
  trace_reserve_release(&t->reserve);
  free(t->path);
  free(t->func_kernel_id);
  free(t->func_insn_base);
  free(t->pcmap);
  free(t->pcflag);
  free(t->foldable);
  free(t->blocks);
  free(t->samples);
  free(t);
}

trace *trace_open(const trace_opts *o, char *err, size_t errlen) {
  uint64_t open0 = clock_now_ns();
  trace *t = calloc(1, sizeof *t);
  if (!t) { snprintf(err, errlen, "out of memory"); return NULL; }
  t->reserve = -1;
  t->o = *o;
  t->path = strdup(o->path);
  t->obs = (emu_observer){ .ctx = t, .on_insn = on_insn, .on_mem = on_mem, .on_timing = on_timing,
                           .on_block_timing = on_block_timing, .on_sm_sample = on_sm_sample };
  fold_none(t);
  if (sqlite3_open_v2(o->path, &t->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
    snprintf(err, errlen, "cannot open '%s': %s", o->path, t->db ? sqlite3_errmsg(t->db) : "out of memory");
    trace_free(t);
    return NULL;
  }
  sqlite3_busy_timeout(t->db, 5000);
  /* before the schema and the rows take the disk's room */
  t->reserve = trace_reserve_take(o->path);
  sqlite3_stmt *s = NULL;
  int64_t ntables = -1, appid = 0, version = 0;
  if (sqlite3_prepare_v2(t->db, "SELECT (SELECT count(*) FROM sqlite_master), (SELECT application_id FROM pragma_application_id), "
                                "(SELECT user_version FROM pragma_user_version)", -1, &s, NULL) == SQLITE_OK &&
      sqlite3_step(s) == SQLITE_ROW) {
    ntables = sqlite3_column_int64(s, 0);
    appid = sqlite3_column_int64(s, 1);
    version = sqlite3_column_int64(s, 2);
  }
  sqlite3_finalize(s);
  if (ntables < 0) {
    snprintf(err, errlen, "'%s' exists and is not a SQLite database: %s", o->path, sqlite3_errmsg(t->db));
    trace_free(t);
    return NULL;
  }
  if (ntables > 0 && appid != TRACE_APPLICATION_ID) {
    snprintf(err, errlen, "'%s' is a SQLite database but not a ptxemu trace; not touching it", o->path);
    trace_free(t);
    return NULL;
  }
  if (ntables > 0 && version != TRACE_SCHEMA_VERSION) {
    snprintf(err, errlen, "'%s' is a trace of schema version %lld; this ptxemu writes version %d (use another file)",
             o->path, (long long)version, TRACE_SCHEMA_VERSION);
    trace_free(t);
    return NULL;
  }
  /* a new database: large pages make bulk appends cheap */
  if (ntables == 0 && exec(t, "PRAGMA page_size = 65536")) goto fail_msg;
  /* secure_delete (on in some distributions' builds) zeroes every freed and
   * split page; the cache size is set after the page size (2 MB) */
  if (exec(t, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA secure_delete = OFF; PRAGMA cache_size = -2000;")) goto fail_msg;
  /* IMMEDIATE: the write lock now, so two runs that create one new trace at
   * once take turns; the second finds the first one's schema */
  if (exec(t, "BEGIN IMMEDIATE")) goto fail_msg;
  if (ntables == 0 && scalar(t, "SELECT count(*) FROM sqlite_master") > 0) {
    ntables = 1;
    if (scalar(t, "PRAGMA application_id") != TRACE_APPLICATION_ID || scalar(t, "PRAGMA user_version") != TRACE_SCHEMA_VERSION) {
      fail(t, "'%s' was made by another program or version while this run opened it", o->path);
      sqlite3_exec(t->db, "ROLLBACK", NULL, NULL, NULL);
      goto fail_msg;
    }
  }
  if (ntables == 0) {
    char pragmas[120];
    snprintf(pragmas, sizeof pragmas, "PRAGMA application_id = %d; PRAGMA user_version = %d;", TRACE_APPLICATION_ID, TRACE_SCHEMA_VERSION);
    if (exec(t, pragmas) || exec(t, trace_schema_sql)) goto fail_msg;
  }
  if (sync_lookups(t) || exec(t, "COMMIT")) goto fail_msg;
  t->page_size = (uint64_t)scalar(t, "PRAGMA page_size");
  if (o->max_bytes && t->page_size) {
    /* the soft cap is checked after each buffer; SQLite's own page limit,
     * with room for the launch rows still to come, is the backstop */
    char lim[80];
    snprintf(lim, sizeof lim, "PRAGMA max_page_count = %llu", (unsigned long long)((o->max_bytes + (64u << 20)) / t->page_size + 1));
    if (exec(t, lim)) goto fail_msg;
    if ((uint64_t)scalar(t, "PRAGMA page_count") * t->page_size >= o->max_bytes) t->capped = true;
  }
  static vaux aux_runs, aux_mem;           /* one trace per process */
  aux_runs = (vaux){ t, BUF_RUNS };
  aux_mem = (vaux){ t, BUF_MEM };
  if (sqlite3_create_module(t->db, "trace_runs_buf", &vmod_runs, &aux_runs) != SQLITE_OK ||
      sqlite3_create_module(t->db, "trace_mem_buf", &vmod_mem, &aux_mem) != SQLITE_OK) {
    fail(t, "%s: %s", o->path, sqlite3_errmsg(t->db));
    goto fail_msg;
  }
  t->ins[BUF_RUNS] = prep(t, "INSERT INTO warp_runs(launch_id, sm, block, warp, wseq, insn_id, n, reps, active, threads, guard, "
                             "pred_threads, taken, issue_cycle, complete_cycle, stall_id, stall_cycles, stall2_id, stall2_cycles, "
                             "stall3_id, stall3_cycles) SELECT ?1, sm, block, "
                             "warp, wseq, insn_id, n, reps, active, threads, guard, pred_threads, taken, issue_cycle, complete_cycle, "
                             "stall_id, stall_cycles, stall2_id, stall2_cycles, stall3_id, stall3_cycles FROM trace_runs_buf");
  t->ins_untimed = prep(t, "INSERT INTO warp_runs(launch_id, sm, block, warp, wseq, insn_id, n, reps, active, threads, guard, "
                           "pred_threads, taken) SELECT ?1, sm, block, warp, wseq, insn_id, n, reps, active, threads, guard, "
                           "pred_threads, taken FROM trace_runs_buf");
  t->ins[BUF_MEM] = prep(t, "INSERT INTO mem_accesses(launch_id, insn_id, block, warp, wseq, space_id, kind_id, size, threads, bytes, addr, "
                            "sectors, lines, wavefronts, conflicts, l1_cached) SELECT ?1, insn_id, block, warp, wseq, space_id, kind_id, "
                            "size, threads, bytes, addr, sectors, lines, wavefronts, conflicts, l1_cached FROM trace_mem_buf");
  t->upd_last[BUF_RUNS] = prep(t, "UPDATE launches SET last_run_id = ? WHERE launch_id = ?");
  t->upd_last[BUF_MEM] = prep(t, "UPDATE launches SET last_mem_id = ? WHERE launch_id = ?");
  if (t->failed) goto fail_msg;
  t->next_run_id = scalar(t, "SELECT coalesce(max(id), 0) + 1 FROM warp_runs");
  t->next_mem_id = scalar(t, "SELECT coalesce(max(id), 0) + 1 FROM mem_accesses");

  /* the runs row */
  char filters[200] = "", when[32];
  size_t fl = 0;
  for (int i = 0; i < o->nkernels; i++) fl += (size_t)snprintf(filters + fl, sizeof filters - fl, "%skernel=%s", fl ? " " : "", o->kernels[i]);
  if (fl >= sizeof filters) fl = sizeof filters - 1;
  if (o->block_lo || o->block_hi != UINT32_MAX) fl += (size_t)snprintf(filters + fl, sizeof filters - fl, "%sblocks=%u-%u", fl ? " " : "", o->block_lo, o->block_hi);
  if (fl >= sizeof filters) fl = sizeof filters - 1;
  if (o->pc_lo || o->pc_hi != UINT32_MAX) snprintf(filters + fl, sizeof filters - fl, "%spcs=%u-%u", fl ? " " : "", o->pc_lo, o->pc_hi);
  iso_time(when, sizeof when);
  s = prep(t, "INSERT INTO runs(tool_version, command_line, launch_file, gpu_config, gpu_params, trace_level, filters, started_at) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  if (!s) goto fail_msg;
  sqlite3_bind_text(s, 1, PACKAGE_VERSION, -1, SQLITE_STATIC);
  sqlite3_bind_text(s, 2, o->command_line ? o->command_line : "", -1, SQLITE_TRANSIENT);
  bind_text_or_null(s, 3, o->launch_file);
  sqlite3_bind_text(s, 4, o->config_name ? o->config_name : "functional", -1, SQLITE_TRANSIENT);
  bind_text_or_null(s, 5, o->config_params);
  sqlite3_bind_text(s, 6, trace_level_names[o->level], -1, SQLITE_STATIC);
  bind_text_or_null(s, 7, filters[0] ? filters : NULL);
  sqlite3_bind_text(s, 8, when, -1, SQLITE_TRANSIENT);
  step_done(t, s);
  sqlite3_finalize(s);
  if (t->failed) goto fail_msg;
  t->run_id = sqlite3_last_insert_rowid(t->db);
  t->params_written = o->config_params != NULL;

  /* buffers and the writer thread */
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < NBUFS; i++) {
      tbuf *b = &t->bufs[k * NBUFS + i];
      b->kind = k;
      b->cap = k == BUF_RUNS ? RUN_BUF_ROWS : MEM_BUF_ROWS;
      b->rows = malloc((size_t)b->cap * (k == BUF_RUNS ? sizeof(wrun) : sizeof(mrec)));
      if (!b->rows) { fail(t, "out of memory"); goto fail_msg; }
      if (i == 0) t->cur[k] = b;
      else { b->next = t->free_list[k]; t->free_list[k] = b; }
    }
  }
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->cv_work, NULL);
  pthread_cond_init(&t->cv_done, NULL);
  t->thread_ok = pthread_create(&t->thread, NULL, writer_main, t) == 0;   /* else insert inline */
  t->blo = o->block_lo;
  t->bspan = o->block_hi - o->block_lo;
  if (o->verbose) fprintf(stderr, "ptxemu: trace: opening took %.3f s\n", (double)(clock_now_ns() - open0) * 1e-9);
  return t;
fail_msg:
  snprintf(err, errlen, "%s", t->errmsg[0] ? t->errmsg : "cannot set up the trace");
  trace_free(t);
  return NULL;
}

emu_observer *trace_observer(trace *t) { return &t->obs; }

/* ---- the static program --------------------------------------------------------------- */

/* Lines of a text file (NULL if unreadable); *n gets the count. */
static char **read_lines(const char *path, uint32_t *n, char **storage) {
  *n = 0;
  *storage = NULL;
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f) return NULL;
  size_t cap = 1 << 16, len = 0;
  char *text = malloc(cap + 1);
  size_t r;
  while (text && (r = fread(text + len, 1, cap - len, f)) > 0) {
    len += r;
    if (len == cap) { char *nt = realloc(text, cap * 2 + 1); if (!nt) { free(text); text = NULL; break; } text = nt; cap *= 2; }
  }
  fclose(f);
  if (!text) return NULL;
  text[len] = 0;
  uint32_t lines = 1;
  for (size_t i = 0; i < len; i++) if (text[i] == '\n') lines++;
  char **v = malloc((lines + 1) * sizeof *v);
  if (!v) { free(text); return NULL; }
  uint32_t k = 0;
  char *p = text;
  while (k < lines) {
    v[k++] = p;
    char *nl = strchr(p, '\n');
    if (!nl) break;
    *nl = 0;
    if (nl > p && nl[-1] == '\r') nl[-1] = 0;
    p = nl + 1;
  }
  if (len && text[len - 1] == '\n') k--;       /* no empty line after the last newline */
  *n = k;
  *storage = text;
  return v;
}

/* The text of an instruction from its source line: from its column to its ';'. */
static void insn_text(char *out, size_t n, char **lines, uint32_t nlines, const isa_insn *in, const char *opname) {
  if (lines && in->line >= 1 && in->line <= nlines) {
    const char *src = lines[in->line - 1];
    size_t len = strlen(src), start = in->col >= 1 && in->col - 1u < len ? in->col - 1u : 0;
    /* the column is the opcode's: a guard before it belongs to the text */
    for (size_t b = start; b-- > 0 && src[b] != ';';) if (src[b] == '@') { start = b; break; }
    const char *p = src + start;
    while (*p == ' ' || *p == '\t') p++;
    const char *semi = strchr(p, ';');
    size_t k = semi ? (size_t)(semi - p + 1) : strlen(p);
    if (k) {
      /* blanks collapsed: nvcc separates the opcode from its operands with a tab */
      size_t o = 0;
      for (size_t i = 0; i < k && o + 1 < n; i++) {
        bool blank = p[i] == ' ' || p[i] == '\t';
        if (blank && o && out[o - 1] == ' ') continue;
        out[o++] = blank ? ' ' : p[i];
      }
      out[o] = 0;
      return;
    }
  }
  snprintf(out, n, "%s", opname);
}

static int register_module(trace *t, const emu *e) {
  const isa_module *m = e->m;
  t->mod = m;
  free(t->func_kernel_id);
  free(t->func_insn_base);
  t->func_kernel_id = calloc(m->nfuncs + 1, sizeof *t->func_kernel_id);
  t->func_insn_base = calloc(m->nfuncs + 1, sizeof *t->func_insn_base);
  if (!t->func_kernel_id || !t->func_insn_base) { fail(t, "out of memory"); return -1; }
  char *storage;
  uint32_t nlines;
  char **lines = read_lines(m->path, &nlines, &storage);
  int rc = -1;
  sqlite3_stmt *sf = prep(t, "INSERT INTO files(run_id, kind, path) VALUES (?, ?, ?)");
  sqlite3_stmt *sl = prep(t, "INSERT INTO ptx_lines(file_id, line, text) VALUES (?, ?, ?)");
  sqlite3_stmt *sm = prep(t, "INSERT INTO modules(run_id, file_id, ptx_version, target, address_size) VALUES (?, ?, ?, ?, ?)");
  sqlite3_stmt *sk = prep(t, "INSERT INTO kernels(module_id, name, entry, registers, shared_bytes, local_bytes, param_bytes, "
                             "file_id, ptx_line, first_insn_id, ninsns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  sqlite3_stmt *si = prep(t, "INSERT INTO instructions(insn_id, kernel_id, pc, opcode_id, opname, text, unit_id, guarded, branch, "
                             "sass_insts, file_id, ptx_line, src_file_id, src_line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  int64_t *src_file = calloc(m->nfiles + 1, sizeof *src_file);
  if (!sf || !sl || !sm || !sk || !si || !src_file || exec(t, "BEGIN")) goto out;
  /* files */
  sqlite3_bind_int64(sf, 1, t->run_id);
  sqlite3_bind_text(sf, 2, "ptx", -1, SQLITE_STATIC);
  sqlite3_bind_text(sf, 3, m->path ? m->path : "", -1, SQLITE_TRANSIENT);
  if (step_done(t, sf)) goto out;
  int64_t ptx_file = sqlite3_last_insert_rowid(t->db);
  for (uint32_t i = 0; i < m->nfiles; i++) {
    sqlite3_bind_int64(sf, 1, t->run_id);
    sqlite3_bind_text(sf, 2, "source", -1, SQLITE_STATIC);
    sqlite3_bind_text(sf, 3, m->files[i].path ? m->files[i].path : "", -1, SQLITE_TRANSIENT);
    if (step_done(t, sf)) goto out;
    src_file[i] = sqlite3_last_insert_rowid(t->db);
  }
  for (uint32_t i = 0; lines && i < nlines; i++) {
    sqlite3_bind_int64(sl, 1, ptx_file);
    sqlite3_bind_int64(sl, 2, i + 1);
    sqlite3_bind_text(sl, 3, lines[i], -1, SQLITE_STATIC);
    if (step_done(t, sl)) goto out;
  }
  /* module */
  char ver[16], target[24];
  snprintf(ver, sizeof ver, "%u.%u", m->version / 10, m->version % 10);
  snprintf(target, sizeof target, "sm_%u", m->sm);
  if (m->sm_suffix) { size_t tl = strlen(target); target[tl] = m->sm_suffix; target[tl + 1] = 0; }
  sqlite3_bind_int64(sm, 1, t->run_id);
  sqlite3_bind_int64(sm, 2, ptx_file);
  sqlite3_bind_text(sm, 3, ver, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(sm, 4, target, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(sm, 5, (int)m->address_size);
  if (step_done(t, sm)) goto out;
  t->module_id = sqlite3_last_insert_rowid(t->db);
  /* functions and their instructions (plus the implicit return at the end) */
  int64_t next_insn = scalar(t, "SELECT coalesce(max(insn_id), 0) + 1 FROM instructions");
  for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
    const isa_func *f = &m->funcs[fi];
    if (f->is_proto) continue;
    uint32_t n = f->has_body ? f->ninsns + 1 : 0;
    sqlite3_bind_int64(sk, 1, t->module_id);
    sqlite3_bind_text(sk, 2, f->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(sk, 3, f->is_entry);
    sqlite3_bind_int64(sk, 4, f->regs_used);
    sqlite3_bind_int64(sk, 5, (int64_t)f->shared_bytes);
    sqlite3_bind_int64(sk, 6, (int64_t)f->local_bytes);
    sqlite3_bind_int64(sk, 7, (int64_t)f->param_bytes);
    sqlite3_bind_int64(sk, 8, ptx_file);
    sqlite3_bind_int64(sk, 9, f->line);
    if (n) sqlite3_bind_int64(sk, 10, next_insn); else sqlite3_bind_null(sk, 10);
    sqlite3_bind_int64(sk, 11, n);
    if (step_done(t, sk)) goto out;
    int64_t kid = sqlite3_last_insert_rowid(t->db);
    t->func_kernel_id[fi] = kid;
    if (!n) continue;
    t->func_insn_base[fi] = next_insn;
    for (uint32_t pc = 0; pc < n; pc++) {
      char opname[128], text[640];
      bool implicit = pc == f->ninsns;
      const isa_insn *in = implicit ? NULL : &f->insns[pc];
      if (implicit) { snprintf(opname, sizeof opname, "ret"); snprintf(text, sizeof text, "ret; // implicit, at the end of %s", f->name); }
      else {
        if (isa_format_opname(in, opname, sizeof opname) < 0) snprintf(opname, sizeof opname, "%s", isa_ops[in->op].name);
        char body[480];
        insn_text(body, sizeof body, lines, nlines, in, opname);
        if (in->guard >= 0 && body[0] != '@' && in->guard < (int32_t)f->nregs) {
          /* no source text: name the guard as the disassembler does (ranges are prefix+index) */
          char reg[64];
          snprintf(reg, sizeof reg, "%s", f->regname[in->guard]);
          for (uint32_t r = 0; r < f->nrecs; r++) {
            const isa_rec *rc = &f->recs[r];
            uint32_t cnt = rc->b & 0x7fffffffu;
            if (rc->kind == REC_REGS && (rc->b & 0x80000000u) && (uint32_t)in->guard >= rc->a && (uint32_t)in->guard < rc->a + cnt)
              snprintf(reg, sizeof reg, "%s%u", rc->name, (uint32_t)in->guard - rc->a);
          }
          snprintf(text, sizeof text, "@%s%s %s", in->guard_neg ? "!" : "", reg, body);
        }
        else snprintf(text, sizeof text, "%s", body);
      }
      uint16_t op = implicit ? OP_RET : in->op;
      int c = 1;
      sqlite3_bind_int64(si, c++, next_insn + pc);
      sqlite3_bind_int64(si, c++, kid);
      sqlite3_bind_int64(si, c++, pc);
      sqlite3_bind_int64(si, c++, t->op_id[op]);
      sqlite3_bind_text(si, c++, opname, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(si, c++, text, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64(si, c++, t->unit_id[implicit ? U_BRANCH : isa_unit_of(in)]);
      sqlite3_bind_int(si, c++, !implicit && in->guard >= 0);
      sqlite3_bind_int(si, c++, op == OP_BRA || op == OP_BRX_IDX);
      sqlite3_bind_int64(si, c++, implicit ? 1 : isa_sass_count(f, in, NULL));
      sqlite3_bind_int64(si, c++, ptx_file);
      if (!implicit && in->line) sqlite3_bind_int64(si, c++, in->line); else sqlite3_bind_null(si, c++);
      const isa_locinfo *li = !implicit && in->loc && in->loc <= f->nlocs ? &f->locs[in->loc - 1] : NULL;
      int64_t sfid = 0;
      if (li) for (uint32_t k = 0; k < m->nfiles; k++) if (m->files[k].id == li->file) { sfid = src_file[k]; break; }
      if (sfid) { sqlite3_bind_int64(si, c++, sfid); sqlite3_bind_int64(si, c++, li->line); }
      else { sqlite3_bind_null(si, c++); sqlite3_bind_null(si, c++); }
      if (step_done(t, si)) goto out;
    }
    next_insn += n;
  }
  if (exec(t, "COMMIT") == 0) rc = 0;
out:
  if (rc) sqlite3_exec(t->db, "ROLLBACK", NULL, NULL, NULL);
  sqlite3_finalize(sf); sqlite3_finalize(sl); sqlite3_finalize(sm); sqlite3_finalize(sk); sqlite3_finalize(si);
  free(src_file);
  free(lines);
  free(storage);
  return rc;
}

/* ---- launches ------------------------------------------------------------------------ */

static bool kernel_selected(const trace *t, const char *kernel) {
  if (!t->o.nkernels) return true;
  for (int i = 0; i < t->o.nkernels; i++) if (strcmp(t->o.kernels[i], kernel) == 0) return true;
  return false;
}

void trace_launch_begin(void *ctx, int index, const char *kernel, emu *e, const emu_launch *l) {
  trace *t = ctx;
  e->obs = NULL;
  t->launch_id = 0;
  t->emu = e;
  if (t->failed) { stop_launch(t); return; }
  trace_sync(t);
  if (t->mod != e->m && register_module(t, e)) { stop_launch(t); return; }
  if (!t->params_written) {
    char params[512];
    snprintf(params, sizeof params,
             "mode=functional\nnsm=%u\nresident_ctas=%u\nslice=%u\nmax_warp_insts=%llu\nheap_bytes=%llu\nmem_cap=%llu\nstack_bytes=%u\n"
             "warp_size=%d\nsector_bytes=32\nline_bytes=128\nshared_banks=32\nshared_bank_bytes=4\n",
             e->opt.nsm, e->opt.resident_ctas, e->opt.slice, (unsigned long long)e->opt.max_warp_insts,
             (unsigned long long)e->opt.heap_bytes, (unsigned long long)e->opt.mem_cap, e->opt.stack_bytes, WARP_SIZE);
    sqlite3_stmt *s = prep(t, "UPDATE runs SET gpu_params = ? WHERE run_id = ?");
    if (s) { sqlite3_bind_text(s, 1, params, -1, SQLITE_TRANSIENT); sqlite3_bind_int64(s, 2, t->run_id); step_done(t, s); }
    sqlite3_finalize(s);
    t->params_written = true;
  }
  t->level = kernel_selected(t, kernel) ? t->o.level : TRACE_LAUNCH;
  bool filtered = t->level != TRACE_LAUNCH && (t->o.block_lo || t->o.block_hi != UINT32_MAX || t->o.pc_lo || t->o.pc_hi != UINT32_MAX);
  sqlite3_stmt *s = prep(t, "INSERT INTO launches(run_id, kernel_id, launch_index, grid_x, grid_y, grid_z, block_x, block_y, block_z, "
                            "dynamic_shared, cluster_x, cluster_y, cluster_z, status, trace_level, filtered, first_run_id, last_run_id, "
"first_mem_id, last_mem_id, metric_set, clock_mhz, shared_bank_mode) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'unfinished', ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!s) return;
  int c = 1;
  sqlite3_bind_int64(s, c++, t->run_id);
  sqlite3_bind_int64(s, c++, t->func_kernel_id[l->func]);
  sqlite3_bind_int(s, c++, index);
  for (int k = 0; k < 3; k++) sqlite3_bind_int64(s, c++, l->grid[k]);
  for (int k = 0; k < 3; k++) sqlite3_bind_int64(s, c++, l->block[k]);
  sqlite3_bind_int64(s, c++, l->dyn_shared);
  for (int k = 0; k < 3; k++) sqlite3_bind_int64(s, c++, l->cluster[k] ? l->cluster[k] : 1);
  sqlite3_bind_text(s, c++, trace_level_names[t->level], -1, SQLITE_STATIC);
  sqlite3_bind_int(s, c++, filtered);
  sqlite3_bind_int64(s, c++, t->next_run_id);
  sqlite3_bind_int64(s, c++, t->next_run_id - 1);
  sqlite3_bind_int64(s, c++, t->next_mem_id);
  sqlite3_bind_int64(s, c++, t->next_mem_id - 1);
  /* the timed GPU's profiler definitions, clock and bank mode (a functional
   * run has none: Nsight Compute's definitions, 4-byte banks) */
  const gpu_config *g = e->timing_cfg;
  sqlite3_bind_text(s, c++, g ? g->metric_set : "ncu", -1, SQLITE_TRANSIENT);
  if (g) sqlite3_bind_int64(s, c++, g->clock_mhz); else sqlite3_bind_null(s, c++);
  sqlite3_bind_int64(s, c++, g ? g->shared_bank_mode : 4);
  step_done(t, s);           /* autocommit: the launch is on disk before it runs */
  sqlite3_finalize(s);
  if (t->failed) { stop_launch(t); return; }
  t->launch_id = sqlite3_last_insert_rowid(t->db);
  (void)kernel;
  t->launch_capped = false;
  if (t->capped && t->level != TRACE_LAUNCH) { t->launch_capped = true; t->level = TRACE_LAUNCH; }
  for (int k = 0; k < 2; k++) { t->cur[k]->launch_id = t->launch_id; t->cur[k]->timed = e->timing_cfg != NULL; }
  t->launch_first_run = t->next_run_id;
  t->launch_first_mem = t->next_mem_id;
  t->map_ready = false;
  t->open = t->pending = false;
  fold_none(t);
  t->cur_ok = false;
  t->nblocks = 0;
  if (t->blocks) memset(t->blocks, 0, t->capblocks * sizeof *t->blocks);
  t->cblk = NULL;
  t->cblk_linear = UINT32_MAX;
  t->timed = e->timing_cfg != NULL;
  t->nsamples = 0;
  t->warp_level = t->level == TRACE_WARP || t->level == TRACE_ALL;
  t->mem_level = t->level == TRACE_MEM || t->level == TRACE_ALL;
  /* a timed run reports blocks and SM samples at every level; the memory
   * accesses are asked for only where they are recorded (without, the
   * emulator keeps its shortcuts for the counters) */
  t->obs.on_mem = t->mem_level ? on_mem : NULL;
  if (t->level != TRACE_LAUNCH || t->timed) e->obs = &t->obs;
  t->t0 = clock_now_ns();
}

void trace_hazard(void *ctx, const san_finding *f) {
  trace *t = ctx;
  if (!t->launch_id || t->failed) return;
  trace_sync(t);
  sqlite3_stmt *s = prep(t, "INSERT INTO hazards(launch_id, tool, kind, space, count, address, size, variable, "
                            "access1, pc1, ptx_line1, cuda_file1, cuda_line1, block1_x, block1_y, block1_z, thread1_x, thread1_y, thread1_z, "
                            "access2, pc2, ptx_line2, cuda_file2, cuda_line2, block2_x, block2_y, block2_z, thread2_x, thread2_y, thread2_z, "
                            "message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!s) return;
  static const char *const acc[] = { "read", "write", "atomic", "barrier" };
  int c = 1;
  sqlite3_bind_int64(s, c++, t->launch_id);
  sqlite3_bind_text(s, c++, f->tool == SAN_RACECHECK ? "racecheck" : f->tool == SAN_SYNCCHECK ? "synccheck" : "initcheck", -1, SQLITE_STATIC);
  sqlite3_bind_text(s, c++, san_kind_names[f->kind], -1, SQLITE_STATIC);
  bind_text_or_null(s, c++, f->space);
  sqlite3_bind_int64(s, c++, (sqlite3_int64)f->count);
  if (f->space) { sqlite3_bind_int64(s, c++, (sqlite3_int64)f->addr); sqlite3_bind_int64(s, c++, f->size); }
  else { sqlite3_bind_null(s, c++); sqlite3_bind_null(s, c++); }
  bind_text_or_null(s, c++, f->variable[0] ? f->variable : NULL);
  for (int k = 0; k < 2; k++) {
    const san_site *st = k ? &f->b : &f->a;
    if (!st->valid) { for (int j = 0; j < 11; j++) sqlite3_bind_null(s, c++); continue; }
    sqlite3_bind_text(s, c++, acc[st->access & 3], -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, c++, st->pc);
    sqlite3_bind_int64(s, c++, st->ptx_line);
    if (st->cuda_line) { sqlite3_bind_text(s, c++, st->cuda_file, -1, SQLITE_TRANSIENT); sqlite3_bind_int64(s, c++, st->cuda_line); }
    else { sqlite3_bind_null(s, c++); sqlite3_bind_null(s, c++); }
    for (int j = 0; j < 3; j++) sqlite3_bind_int64(s, c++, st->block[j]);
    for (int j = 0; j < 3; j++) sqlite3_bind_int64(s, c++, st->thread[j]);
  }
  sqlite3_bind_text(s, c++, f->message, -1, SQLITE_TRANSIENT);
  step_done(t, s);
  sqlite3_finalize(s);
}

/* The last row of a kind this launch has in the file (first - 1: none). */
static int64_t last_on_disk(const trace *t, int kind, int64_t first) {
  return t->last_inserted[kind] >= first ? t->last_inserted[kind] : first - 1;
}

void trace_launch_done(void *ctx, int index, const char *kernel, emu *e, int rc) {
  (void)index; (void)kernel;
  trace *t = ctx;
  e->obs = NULL;
  t->emu = NULL;
  if (!t->launch_id) return;
  uint64_t wall = clock_now_ns() - t->t0;
  if (looping(t)) unloop(t);
  if (t->open) close_run(t);
  if (t->pending) flush_pending(t);
  flush_all(t);
  bool failed_before = t->failed;
  /* blocks and the final state of the launch, in one transaction */
  if (!failed_before && exec(t, "BEGIN") == 0) {
    sqlite3_stmt *sb = prep(t, "INSERT INTO blocks(launch_id, block, x, y, z, sm, warps, inst_executed, first_run_id, last_run_id, "
                               "start_cycle, end_cycle) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const emu_launch *l = &e->launch;
    for (uint32_t i = 0; sb && i < t->nblocks && !t->failed; i++) {
      const tblock *b = &t->blocks[i];
      if (!b->seen) continue;
      uint32_t lin = t->blo + i;
      int c = 1;
      sqlite3_bind_int64(sb, c++, t->launch_id);
      sqlite3_bind_int64(sb, c++, lin);
      sqlite3_bind_int64(sb, c++, lin % l->grid[0]);
      sqlite3_bind_int64(sb, c++, lin / l->grid[0] % l->grid[1]);
      sqlite3_bind_int64(sb, c++, lin / (l->grid[0] * l->grid[1]));
      sqlite3_bind_int(sb, c++, b->sm);
      sqlite3_bind_int(sb, c++, __builtin_popcount(b->warps));
      sqlite3_bind_int64(sb, c++, (int64_t)b->insts);
      if (b->first_run) { sqlite3_bind_int64(sb, c++, b->first_run); sqlite3_bind_int64(sb, c++, b->last_run); }
      else { sqlite3_bind_null(sb, c++); sqlite3_bind_null(sb, c++); }
      if (b->end_cycle) { sqlite3_bind_int64(sb, c++, (int64_t)b->start_cycle); sqlite3_bind_int64(sb, c++, (int64_t)b->end_cycle); }
      else { sqlite3_bind_null(sb, c++); sqlite3_bind_null(sb, c++); }
      step_done(t, sb);
    }
    sqlite3_finalize(sb);
    sqlite3_stmt *ss = t->nsamples ? prep(t, "INSERT INTO sm_samples(launch_id, sm, cycle, active_warps, eligible_warps) VALUES (?, ?, ?, ?, ?)") : NULL;
    for (uint32_t i = 0; ss && i < t->nsamples && !t->failed; i++) {
      sqlite3_bind_int64(ss, 1, t->launch_id);
      sqlite3_bind_int64(ss, 2, t->samples[i].sm);
      sqlite3_bind_int64(ss, 3, (int64_t)t->samples[i].cycle);
      sqlite3_bind_int64(ss, 4, t->samples[i].active);
      sqlite3_bind_int64(ss, 5, t->samples[i].eligible);
      step_done(t, ss);
    }
    sqlite3_finalize(ss);
    sqlite3_stmt *s = prep(t, "UPDATE launches SET status = ?, fault = ?, fault_insn_id = ?, last_run_id = ?, last_mem_id = ?, "
                              "inst_executed = ?, thread_inst_executed = ?, gld_requests = ?, gld_sectors = ?, gst_requests = ?, "
                              "gst_sectors = ?, shared_ld_requests = ?, shared_ld_wavefronts = ?, shared_ld_bank_conflicts = ?, "
                              "shared_st_requests = ?, shared_st_wavefronts = ?, shared_st_bank_conflicts = ?, branches = ?, "
                              "divergent_branches = ?, wall_ns = ?, gld_lines = ?, gst_lines = ?, shared_atom_requests = ?, "
                              "shared_atom_rounds = ? WHERE launch_id = ?");
    if (s) {
      const emu_stats *st = &e->stats;
      int c = 1;
      bool lost = t->launch_capped || t->capped;
      sqlite3_bind_text(s, c++, rc ? "faulted" : lost ? "truncated" : "completed", -1, SQLITE_STATIC);
      if (rc) {
        char msg[400];
        const emu_fault *f = &e->fault;
        snprintf(msg, sizeof msg, "%s (thread (%u,%u,%u) of block (%u,%u,%u))", f->msg, f->tid[0], f->tid[1], f->tid[2],
                 f->cta[0], f->cta[1], f->cta[2]);
        sqlite3_bind_text(s, c++, msg, -1, SQLITE_TRANSIENT);
        const xinsn *x = e->fault.pc < e->nprog ? &e->prog[e->fault.pc] : NULL;
        int64_t id = 0;
        if (x && t->mod == e->m) {
          uint32_t fi = (uint32_t)(x->f - e->m->funcs);
          if (t->func_insn_base[fi]) id = t->func_insn_base[fi] + (x->spc - e->func_base[fi]);
        }
        if (id) sqlite3_bind_int64(s, c++, id); else sqlite3_bind_null(s, c++);
      } else { sqlite3_bind_null(s, c++); sqlite3_bind_null(s, c++); }
      /* rows dropped at the cap never reached the file */
      sqlite3_bind_int64(s, c++, lost ? last_on_disk(t, BUF_RUNS, t->launch_first_run) : t->next_run_id - 1);
      sqlite3_bind_int64(s, c++, lost ? last_on_disk(t, BUF_MEM, t->launch_first_mem) : t->next_mem_id - 1);
      const uint64_t v[] = { st->inst_executed, st->thread_inst_executed, st->gld_requests, st->gld_sectors, st->gst_requests,
                             st->gst_sectors, st->shared_ld_requests, st->shared_ld_wavefronts, st->shared_ld_bank_conflicts,
                             st->shared_st_requests, st->shared_st_wavefronts, st->shared_st_bank_conflicts };
      for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) sqlite3_bind_int64(s, c++, (int64_t)v[i]);
      if (st->branches) { sqlite3_bind_int64(s, c++, (int64_t)st->branches); sqlite3_bind_int64(s, c++, (int64_t)st->divergent_branches); }
      else { sqlite3_bind_null(s, c++); sqlite3_bind_null(s, c++); }
      sqlite3_bind_int64(s, c++, (int64_t)wall);
      sqlite3_bind_int64(s, c++, (int64_t)st->gld_lines);
      sqlite3_bind_int64(s, c++, (int64_t)st->gst_lines);
      sqlite3_bind_int64(s, c++, (int64_t)st->shared_atom_requests);
      sqlite3_bind_int64(s, c++, (int64_t)st->shared_atom_rounds);
      sqlite3_bind_int64(s, c++, t->launch_id);
      step_done(t, s);
      sqlite3_finalize(s);
    }
    /* a timed run knows how long the launch took on the modelled GPU */
    if (!rc && e->timing_cfg && e->timing_out) {
      sqlite3_stmt *u = prep(t, "UPDATE launches SET cycles = ?, max_warps_per_sm = ?, l1_hits = ?, l1_lookups = ?, l2_hits = ?, "
                                "l2_lookups = ?, dram_read_bytes = ?, dram_write_bytes = ? WHERE launch_id = ?");
      if (u) {
        const timing_result *r = e->timing_out;
        sqlite3_bind_int64(u, 1, (int64_t)r->cycles);
        sqlite3_bind_int64(u, 2, e->timing_cfg->max_warps_per_sm);
        sqlite3_bind_int64(u, 3, (int64_t)r->l1_hits);
        sqlite3_bind_int64(u, 4, (int64_t)r->l1_lookups);
        sqlite3_bind_int64(u, 5, (int64_t)r->l2_hits);
        sqlite3_bind_int64(u, 6, (int64_t)r->l2_lookups);
        sqlite3_bind_int64(u, 7, (int64_t)r->dram_read_bytes);
        sqlite3_bind_int64(u, 8, (int64_t)r->dram_write_bytes);
        sqlite3_bind_int64(u, 9, t->launch_id);
        step_done(t, u);
        sqlite3_finalize(u);
      }
    }
    if (t->failed) sqlite3_exec(t->db, "ROLLBACK", NULL, NULL, NULL);
    else exec(t, "COMMIT");
  }
  report_failure(t);
  t->launch_id = 0;
}

int trace_drain(trace *t) {
  if (!t) return 0;
  if (t->thread_ok && !t->stop) {
    trace_sync(t);
    pthread_mutex_lock(&t->mu);
    t->stop = true;
    pthread_cond_signal(&t->cv_work);
    pthread_mutex_unlock(&t->mu);
    pthread_join(t->thread, NULL);
  }
  report_failure(t);
  if (!t->failed && t->capped && !t->cap_reported) {
    t->cap_reported = true;
    fprintf(stderr, "ptxemu: trace: %s reached its size cap of %llu MB (--trace-max-size): warp and memory rows of the "
                    "launches marked 'truncated' were not recorded\n", t->path, (unsigned long long)(t->o.max_bytes >> 20));
  }
  return t->failed ? -1 : t->capped ? -2 : 0;
}

int trace_close(trace *t, int exit_status) {
  if (!t) return 0;
  trace_drain(t);
  /* a write failed (a full disk): the space kept for these last rows */
  if (t->failed) trace_reserve_release(&t->reserve);
  int rc = 0;
  char when[32];
  iso_time(when, sizeof when);
  sqlite3_stmt *s = prep(t, "UPDATE runs SET finished_at = ?, exit_status = ? WHERE run_id = ?");
  if (s) {
    sqlite3_bind_text(s, 1, when, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s, 2, exit_status);
    sqlite3_bind_int64(s, 3, t->run_id);
    if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    sqlite3_finalize(s);
  } else rc = -1;
  if (rc) fprintf(stderr, "ptxemu: trace: cannot record the exit status %d of run %lld in %s: %s\n", exit_status,
                  (long long)t->run_id, t->path, sqlite3_errmsg(t->db));
  if (t->o.verbose) {
    uint64_t rows = t->rows_written[0] + t->rows_written[1];
    fprintf(stderr, "ptxemu: trace: %llu warp instructions in %llu warp_runs rows, %llu mem_accesses rows; "
                    "writer %.3f s CPU, %.0f rows/s\n",
            (unsigned long long)t->insts_recorded, (unsigned long long)t->rows_written[0], (unsigned long long)t->rows_written[1],
            t->writer_cpu, t->writer_cpu > 0 ? (double)rows / t->writer_cpu : 0.0);
  }
  /* closing the last connection folds the WAL into the database and
   * removes it: one self-contained file */
  for (int k = 0; k < 2; k++) { sqlite3_finalize(t->ins[k]); sqlite3_finalize(t->upd_last[k]); t->ins[k] = t->upd_last[k] = NULL; }
  sqlite3_finalize(t->ins_untimed);
  t->ins_untimed = NULL;
  double c0 = (double)clock_now_ns();
  if (sqlite3_close(t->db) == SQLITE_OK) t->db = NULL;
  if (t->o.verbose) fprintf(stderr, "ptxemu: trace: closing took %.3f s\n", ((double)clock_now_ns() - c0) * 1e-9);
  if (t->thread_ok) {
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv_work);
    pthread_cond_destroy(&t->cv_done);
  }
  trace_free(t);
  return rc;
}
