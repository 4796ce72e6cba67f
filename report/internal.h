/* report/internal.h - what the parts of the report generator share: the
 * open trace, the selected launches, the shape budgets, HTML and SVG
 * writing helpers. */
#ifndef REPORT_INTERNAL_H
#define REPORT_INTERNAL_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>

#define REP_NSTALL 19            /* stall_reasons ids 1..18; 0: none        */

typedef struct rep_launch {
  long long id, run_id, kernel_id, file_id, kernel_line;
  long long first_run, last_run, first_mem, last_mem;
  char kernel[256], status[16], level[8];   /* kernel: demangled (C++) */
  char symbol[256];              /* the kernel's PTX name (mangled)           */
  long long grid[3], block[3], cluster[3], dyn_shared;
  long long wall_ns, cycles;     /* -1: not recorded                          */
  long long registers, shared_bytes;
  long long fault_line;          /* PTX line of the faulting instruction, -1 */
  bool has_warps, has_mem;       /* the trace level recorded warp_runs / mem_accesses */
  bool timed;                    /* warp_runs carry issue cycles             */
  bool has_samples;              /* sm_samples rows                           */
  bool has_block_cycles;         /* blocks.start_cycle / end_cycle            */
  int nsub;                      /* sub-partitions per SM (GPU config, or 4)  */
  long long max_warps;           /* warps per SM the GPU holds (-1: unknown)  */
  char gpu[64];                  /* runs.gpu_config                           */
} rep_launch;

/* Sums per instruction of one launch (report/collect.c). */
typedef struct rep_insn {
  long long gld_req, gld_sec, gld_bytes, gst_req, gst_sec, gst_bytes;
  long long shl_req, shl_wav, shl_conf, shs_req, shs_wav, shs_conf, sh_bytes;
  long long sha_req, sha_rounds;  /* shared atomics: requests, rounds (contention) */
  long long l1_hit, l1_sec, l2_hit, l2_sec, dram_rd;
  bool l1_known, l2_known, dram_known;
  long long execs, threads, pred_threads, branches, divergent;   /* warp_runs */
  double waits[REP_NSTALL];      /* cycles waited before issues, per stall reason */
  long long issued;              /* timed issues                              */
} rep_insn;

typedef struct rep {
  sqlite3 *db;
  FILE *f;
  rep_launch *l;
  size_t nl;
  size_t nl_more;               /* launches selected beyond the table's columns */
  /* budgets per launch, so that the page stays small */
  int cols;                      /* timeline / occupancy columns              */
  int max_warps_drawn;           /* timeline rows                             */
  int max_lines;                 /* annotated PTX lines                       */
  long max_source_bytes;         /* and the bytes they may take               */
  char err[512];                 /* first failed query                        */
  int verbose;
  long long sm;                  /* report --sm: one SM's warps; -1: every SM */
  double t_last, cpu_last;       /* rep_lap: end of the previous part         */
  bool failed;
  const char *stall_name[REP_NSTALL], *stall_desc[REP_NSTALL];
  char stall_text[REP_NSTALL][160];
  /* the launch being drawn (rep_collect) */
  rep_insn *insn;                /* indexed by insn_id - insn_lo              */
  long long insn_lo, insn_n;
  bool mem_ready, runs_ready, stalls_ready;
  double stall_cycles[REP_NSTALL];  /* warp cycles per state; [1] the issues */
  const char *trace_path, *source_dir;   /* where CUDA sources are looked for */
} rep;

/* ---- SQL (report/report.c) ---- */
/* Prepare sql; NULL with r->err set (and r->failed) on failure. */
sqlite3_stmt *rep_prepare(rep *r, const char *sql);
/* Finish a statement stepped to the end: record an error unless rc is SQLITE_DONE. */
void rep_finish(rep *r, sqlite3_stmt *s, int rc);
/* A column as a long long / double, with a default for NULL. */
long long rep_int(sqlite3_stmt *s, int col, long long dflt);
double rep_real(sqlite3_stmt *s, int col, double dflt);
/* A trace is untrusted input: a count read from it, clamped to [lo, hi]
 * (dflt for NULL), so that no sum or product of counts overflows. */
long long rep_count(sqlite3_stmt *s, int col, long long dflt, long long lo, long long hi);
/* *x += v, saturating at LLONG_MAX (v >= 0). */
void rep_add(long long *x, long long v);
/* One integer (first column of the first row) or dflt. */
long long rep_scalar(rep *r, const char *sql, long long a, long long b, long long dflt);

/* -v: print the seconds since the previous call, with what was done. */
void rep_lap(rep *r, const char *what, long long launch);

/* The selected launch ids as "1,2,3" (for IN (...)). */
#define REP_ID_LIST 1400
void rep_id_list(const rep *r, char *out, size_t n);

/* ---- HTML (report/html.c) ---- */
void html_esc(FILE *f, const char *s);          /* text or attribute value      */
void html_esc_n(FILE *f, const char *s, size_t maxlen);
void html_num(FILE *f, long long v);            /* 1234567 as 1,234,567          */
void html_fmt_bytes(char *out, size_t n, double bytes);   /* "12.3 MB"        */
void html_note(FILE *f, const char *text);      /* <p class="note">             */
extern const char html_style[];                 /* the page's CSS               */

/* ---- SVG (report/svg.c) ---- */
void svg_open(FILE *f, double w, double h, const char *label);
void svg_close(FILE *f);
/* text at (x, y); anchor "start", "middle" or "end"; cls may be NULL */
void svg_text(FILE *f, double x, double y, const char *anchor, const char *cls, const char *text);
void svg_rect(FILE *f, double x, double y, double w, double h, const char *cls, const char *title);
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *cls);
/* Many rectangles of one class in one <path>: the bulk of a figure. */
typedef struct svg_path { char *buf; size_t len, cap; long n; } svg_path;
void svg_path_rect(svg_path *p, double x, double y, double w, double h);
void svg_path_point(svg_path *p, double x, double y);   /* polyline vertex */
void svg_path_emit(FILE *f, svg_path *p, const char *cls);  /* writes and empties */
void svg_path_free(svg_path *p);
/* An x axis from x0 to x1 (pixels) for values v0..v1, with ticks. */
void svg_axis(FILE *f, double x0, double x1, double y, double v0, double v1, const char *unit);

/* ---- sections (one file each) ---- */
void rep_summary(rep *r);                       /* report/summary.c: header, launches */
void rep_metrics(rep *r);                       /* report/summary.c: metric table     */
void rep_collect(rep *r, const rep_launch *l);  /* report/collect.c: per-instruction sums */
void rep_collect_free(rep *r);
rep_insn *rep_insn_at(const rep *r, long long insn_id);   /* NULL outside the run */
void rep_timeline(rep *r, const rep_launch *l); /* report/timeline.c */
void rep_occupancy(rep *r, const rep_launch *l);/* report/occupancy.c */
void rep_source(rep *r, const rep_launch *l);   /* report/source.c */
/* report/cuda_source.c: the CUDA view of a kernel with .loc lines; false
 * (nothing written) for one without */
bool rep_cuda_source(rep *r, const rep_launch *l);
void rep_memory(rep *r, const rep_launch *l);   /* report/memory.c */
#endif
