/* report/collect.c - per-instruction sums of a launch, made in one pass
 * over its rows: memory requests (as launch_mem_stats / line_mem_stats sum
 * them, ptxemu-trace(5)), warp instructions (as line_warp_stats does) and,
 * for timed launches, the cycles each warp waited before each issue.
 *
 * SQL would GROUP BY (a sort of every row); here the rows are summed into
 * an array indexed by insn_id while they stream by.
 *
 * Warp states: a warp instruction accounts for the cycles since its warp's
 * previous issue; the issue cycle is 'selected', the cycles before it are
 * its stall_id's, stall2_id's and stall3_id's (stall_cycles, ...), as
 * Nsight Compute's warp states count them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "report/internal.h"

/* Bounds on values read from the trace (untrusted): a request moves at most
 * 32 lanes x 16 bytes in at most 4096 sectors or wavefronts; a row folds at
 * most 2^32 instructions or repetitions; cycles and instruction ids stay
 * far from the 64-bit limits, so sums and differences cannot overflow. */
#define MAX_PER_REQUEST (1ll << 32)
#define MAX_RUN (1ll << 32)
#define MAX_CYCLE (1ll << 62)
#define MAX_INSN_ID (1ll << 62)

void rep_collect_free(rep *r) {
  free(r->insn);
  r->insn = NULL;
  r->insn_n = 0;
  r->mem_ready = r->runs_ready = r->stalls_ready = false;
  memset(r->stall_cycles, 0, sizeof r->stall_cycles);
}

rep_insn *rep_insn_at(const rep *r, long long insn_id) {
  if (!r->insn || insn_id < r->insn_lo || insn_id >= r->insn_lo + r->insn_n) return NULL;
  return &r->insn[insn_id - r->insn_lo];
}

static void collect_mem(rep *r, const rep_launch *l) {
  sqlite3_stmt *s = rep_prepare(r,
    "SELECT insn_id, space_id, kind_id, sectors, bytes, wavefronts, conflicts, l1_hit_sectors, l2_hit_sectors, dram_sectors\n"
    "FROM mem_accesses WHERE id BETWEEN ?1 AND ?2");
  if (!s) return;
  sqlite3_bind_int64(s, 1, l->first_mem);
  sqlite3_bind_int64(s, 2, l->last_mem);
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    rep_insn *x = rep_insn_at(r, sqlite3_column_int64(s, 0));
    if (!x) continue;
    int space = sqlite3_column_int(s, 1), kind = sqlite3_column_int(s, 2);
    long long sectors = rep_count(s, 3, 0, 0, MAX_PER_REQUEST), bytes = rep_count(s, 4, 0, 0, MAX_PER_REQUEST),
              wav = rep_count(s, 5, 0, 0, MAX_PER_REQUEST), conf = rep_count(s, 6, 0, 0, MAX_PER_REQUEST);
    if (space == 0 && kind == 0) { rep_add(&x->gld_req, 1); rep_add(&x->gld_sec, sectors); rep_add(&x->gld_bytes, bytes); }
    if (space == 0 && kind == 1) { rep_add(&x->gst_req, 1); rep_add(&x->gst_sec, sectors); rep_add(&x->gst_bytes, bytes); }
    if (space == 1 && kind == 0) { rep_add(&x->shl_req, 1); rep_add(&x->shl_wav, wav); rep_add(&x->shl_conf, conf); }
    if (space == 1 && kind == 1) { rep_add(&x->shs_req, 1); rep_add(&x->shs_wav, wav); rep_add(&x->shs_conf, conf); }
    if (space == 1 && (kind == 0 || kind == 1)) rep_add(&x->sh_bytes, bytes);
    if (space == 1 && (kind == 2 || kind == 3)) { rep_add(&x->sha_req, 1); rep_add(&x->sha_rounds, wav); }
    long long l1 = rep_count(s, 7, -1, -1, MAX_PER_REQUEST), l2 = rep_count(s, 8, -1, -1, MAX_PER_REQUEST),
              dram = rep_count(s, 9, -1, -1, MAX_PER_REQUEST);
    if (l1 > sectors) l1 = sectors;
    if (l1 >= 0) { rep_add(&x->l1_hit, l1); rep_add(&x->l1_sec, sectors); x->l1_known = true; }
    if (l2 >= 0) { rep_add(&x->l2_hit, l2); rep_add(&x->l2_sec, sectors - (l1 >= 0 ? l1 : 0)); x->l2_known = true; }
    if (dram >= 0 && kind == 0) { rep_add(&x->dram_rd, dram); x->dram_known = true; }
  }
  rep_finish(r, s, rc);
  r->mem_ready = !r->failed;
}

/* A run's instructions, as line_warp_stats counts them: every one executes
 * reps times with the run's threads; only the last can have a guard that
 * is false for some threads, or be a branch. */
static void count_run(rep *r, long long insn, long long n, long long reps, long long threads, long long pred, bool branch,
                      bool divergent) {
  /* only the instructions of the table: a crafted n cannot make a long loop */
  if (insn < 0 || insn > MAX_INSN_ID) return;
  long long i0 = insn < r->insn_lo ? r->insn_lo - insn : 0, i1 = r->insn_lo + r->insn_n - insn;
  if (i1 > n) i1 = n;
  for (long long i = i0; i < i1; i++) {
    rep_insn *x = rep_insn_at(r, insn + i);
    if (!x) continue;
    rep_add(&x->execs, reps);
    rep_add(&x->threads, reps * threads);
    if (i < n - 1) { rep_add(&x->pred_threads, reps * threads); continue; }
    rep_add(&x->pred_threads, reps * pred);
    if (branch) { rep_add(&x->branches, reps); rep_add(&x->divergent, divergent ? reps : 0); }
  }
}

/* One pass over the launch's warp instructions: their counts per
 * instruction and, timed, the parts of the wait before each issue. */
static void collect_runs(rep *r, const rep_launch *l) {
  sqlite3_stmt *s = rep_prepare(r, "SELECT insn_id, n, reps, threads, pred_threads, taken, active, issue_cycle,\n"
                                   "  stall_id, stall_cycles, stall2_id, stall2_cycles, stall3_id, stall3_cycles\n"
                                   "FROM warp_runs WHERE id BETWEEN ?1 AND ?2");
  if (!s) return;
  sqlite3_bind_int64(s, 1, l->first_run);
  sqlite3_bind_int64(s, 2, l->last_run);
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    long long insn = sqlite3_column_int64(s, 0), len = rep_count(s, 1, 1, 1, MAX_RUN), reps = rep_count(s, 2, 1, 1, MAX_RUN);
    bool branch = sqlite3_column_type(s, 5) != SQLITE_NULL;
    long long taken = rep_int(s, 5, 0), active = rep_int(s, 6, 0);
    count_run(r, insn, len, reps, rep_count(s, 3, 0, 0, 32), rep_count(s, 4, 0, 0, 32), branch, branch && taken != 0 && taken != active);
    /* timed rows only (an instruction without SASS has no timing) */
    if (!l->timed || sqlite3_column_type(s, 7) == SQLITE_NULL || sqlite3_column_type(s, 8) == SQLITE_NULL) continue;
    rep_insn *x = rep_insn_at(r, insn);
    if (!x) continue;
    for (int k = 0; k < 3; k++) {
      if (sqlite3_column_type(s, 8 + 2 * k) == SQLITE_NULL) continue;
      long long why = rep_int(s, 8 + 2 * k, 0), wait = rep_count(s, 9 + 2 * k, 0, 0, MAX_CYCLE);
      if (why < 0 || why >= REP_NSTALL) why = REP_NSTALL - 1;
      x->waits[why] += (double)wait;
      r->stall_cycles[why] += (double)wait;
    }
    x->issued += reps;
    r->stall_cycles[1] += (double)reps;
  }
  rep_finish(r, s, rc);
  r->runs_ready = !r->failed;
  r->stalls_ready = l->timed && !r->failed;
}

void rep_collect(rep *r, const rep_launch *l) {
  rep_collect_free(r);
  if (!l->has_mem && !l->has_warps) return;
  r->insn_lo = rep_scalar(r, "SELECT min(insn_id) FROM instructions i JOIN kernels k USING (kernel_id) JOIN modules m USING (module_id) "
                             "WHERE m.run_id = ?1", l->run_id, 0, 0);
  long long hi = rep_scalar(r, "SELECT max(insn_id) FROM instructions i JOIN kernels k USING (kernel_id) JOIN modules m USING (module_id) "
                               "WHERE m.run_id = ?1", l->run_id, 0, -1);
  if (hi < r->insn_lo) return;
  /* ids from the file: a table as large as the instructions there are */
  long long count = rep_scalar(r, "SELECT count(*) FROM instructions i JOIN kernels k USING (kernel_id) JOIN modules m USING (module_id) "
                                  "WHERE m.run_id = ?1", l->run_id, 0, 0);
  if (r->insn_lo < 0 || hi > MAX_INSN_ID || hi - r->insn_lo >= 2 * count + 1024) {
    r->failed = true;
    snprintf(r->err, sizeof r->err, "instruction ids %lld to %lld for %lld instructions (a damaged trace)", r->insn_lo, hi, count);
    return;
  }
  r->insn_n = hi - r->insn_lo + 1;
  r->insn = calloc((size_t)r->insn_n, sizeof *r->insn);
  if (!r->insn) { r->failed = true; snprintf(r->err, sizeof r->err, "out of memory"); return; }
  if (l->has_mem) collect_mem(r, l);
  if (l->has_warps) collect_runs(r, l);
}
