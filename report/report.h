/* report/report.h - "ptxemu report": one self-contained HTML page (inline
 * CSS and SVG, no script, nothing fetched) that shows what a trace database
 * (ptxemu-trace(5)) recorded: the launches and their metrics, a timeline of
 * the warps, occupancy over time, the PTX annotated per line and the
 * memory hierarchy.  Everything is aggregated in SQL and every figure has a
 * fixed budget of shapes, so the page stays small (under 2 MB) and quick
 * to make whatever the size of the trace. */
#ifndef REPORT_REPORT_H
#define REPORT_REPORT_H
#include <stddef.h>

typedef struct report_opts {
  const long long *launches;     /* launch ids to show; NULL/0: see kernel     */
  size_t nlaunches;
  const char *kernel;            /* only launches of this kernel; NULL: all   */
  int verbose;                   /* print the time of each part to stderr     */
  const char *source_dir;        /* --source-dir: where CUDA sources are, or NULL */
  long long sm;                  /* timeline: warps of this SM only; -1: warps of every SM */
  /* With no launch ids, the launches (of the kernel) of the last run. */
} report_opts;

enum report_status {
  REPORT_OK = 0,
  REPORT_NOINPUT,                /* the trace cannot be opened               */
  REPORT_NOT_TRACE,              /* not a SQLite database / not a ptxemu trace */
  REPORT_NO_LAUNCHES,            /* no launch (matching the options)         */
  REPORT_CANTCREAT,              /* the output cannot be written             */
  REPORT_BAD_TRACE               /* a query failed (damaged or foreign file) */
};

/* Write the report of trace db_path to out_path (through a temporary name,
 * renamed when complete).  A status; on failure a message in err. */
int report_write(const char *db_path, const char *out_path, const report_opts *o, char *err, size_t errlen);

#endif
