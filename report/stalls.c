/* report/stalls.c - where the warps of a timed launch spent their cycles.
 *
 * Each warp instruction with an issue cycle accounts for the cycles since
 * the same warp's previous issue: the issue cycle itself is 'selected',
 * the cycles before it are the instruction's stall_id (the reason the warp
 * waited, ptxemu-trace(5)), as Nsight Compute's warp states count them.
 * One pass over the launch (a window over each warp's issue order) fills
 * temp.rep_stall(file_id, line, stall_id, waits, insts); the timeline's
 * breakdown and the annotated PTX read it. */
#include <string.h>
#include "report/internal.h"

void rep_stalls(rep *r, const rep_launch *l) {
  memset(r->stall_cycles, 0, sizeof r->stall_cycles);
  r->stalls_ready = false;
  sqlite3_exec(r->db, "DROP TABLE IF EXISTS temp.rep_stall", NULL, NULL, NULL);
  if (!l->timed) return;
  if (sqlite3_exec(r->db, "CREATE TEMP TABLE rep_stall(file_id INTEGER, line INTEGER, stall_id INTEGER, waits INTEGER, insts INTEGER)",
                   NULL, NULL, NULL) != SQLITE_OK) {
    snprintf(r->err, sizeof r->err, "%s", sqlite3_errmsg(r->db));
    r->failed = true;
    return;
  }
  sqlite3_stmt *s = rep_prepare(r,
    "INSERT INTO temp.rep_stall\n"
    "WITH g AS (SELECT insn_id, stall_id, reps,\n"
    "             issue_cycle - lag(issue_cycle) OVER (PARTITION BY block, warp ORDER BY issue_cycle, id) - 1 AS wait\n"
    "           FROM warp_runs WHERE id BETWEEN ?1 AND ?2 AND issue_cycle IS NOT NULL)\n"
    "SELECT i.file_id, i.ptx_line, coalesce(g.stall_id, 0), sum(max(coalesce(g.wait, 0), 0)), sum(g.reps)\n"
    "FROM g JOIN instructions i USING (insn_id) GROUP BY 1, 2, 3");
  if (!s) return;
  sqlite3_bind_int64(s, 1, l->first_run);
  sqlite3_bind_int64(s, 2, l->last_run);
  rep_finish(r, s, sqlite3_step(s));
  s = rep_prepare(r, "SELECT stall_id, sum(waits), sum(insts) FROM temp.rep_stall GROUP BY 1");
  if (!s) return;
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    int id = sqlite3_column_int(s, 0);
    if (id < 0 || id >= REP_NSTALL) id = 17;     /* unknown ids count as 'misc' */
    r->stall_cycles[id] += sqlite3_column_double(s, 1);
    r->stall_cycles[1] += sqlite3_column_double(s, 2);   /* the issue cycles: 'selected' */
  }
  rep_finish(r, s, rc);
  r->stalls_ready = !r->failed;
}
