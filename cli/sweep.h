/* cli/sweep.h - "ptxemu sweep": a design-space sweep described by a SPEC
 * file (ptxemu-sweep(1)), expanded into points, each run as its own ptxemu
 * process (here, or as tasks of one Slurm job array) that leaves one small
 * SQLite result file; collect merges them into one database. */
#ifndef CLI_SWEEP_H
#define CLI_SWEEP_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "util/arena.h"

/* bounds on what a SPEC may ask for (hostile input stays small) */
#define SWEEP_MAX_SPEC (1 << 20)      /* bytes of SPEC text                    */
#define SWEEP_MAX_LINE 4096
#define SWEEP_MAX_WORDS 256           /* words of one line                     */
#define SWEEP_MAX_VALUE 200           /* characters of one value or name       */
#define SWEEP_MAX_POINTS 100000       /* points in all (workloads x GPUs x ...) */
#define SWEEP_MAX_COLS 64             /* swept parameters                      */

typedef struct sweep_workload {
  const char *name;
  bool exec;                          /* a program for "ptxemu exec"; else a launch file */
  const char *const *argv;            /* launch: the file; exec: PROGRAM ARGS... */
  int argc, line;
} sweep_workload;

/* one assignment of the swept parameters: values[col], NULL where unset */
typedef struct sweep_combo { const char **values; } sweep_combo;

typedef struct sweep_point {
  int workload, gpu, combo, rep;
  bool baseline;
  const char *key;                    /* "workload=W gpu=G a=1 b=2 rep=R": names the point */
} sweep_point;

typedef struct sweep_spec {
  arena *a;
  const char *path, *base;            /* the SPEC, the folder its paths are relative to */
  sweep_workload *w; int nw;
  const char **gpus; int ngpus;
  const char **cols; int ncols;       /* swept parameters (the points table's columns) */
  sweep_combo *combos; int ncombos;
  const char **fixed; int nfixed;     /* "set" lines: NAME=VALUE for every point */
  int repeat;
  double max_seconds;                 /* 0: none */
  uint64_t max_memory;                /* 0: ptxemu's default */
  const char *trace_level;            /* NULL: no trace per point */
  sweep_point *points; int npoints;
} sweep_spec;

/* Command-line values that replace the SPEC's (0: keep it). */
typedef struct sweep_overrides { int repeat; double max_seconds; uint64_t max_memory; } sweep_overrides;

/* Parse and expand SPEC text (path names it in messages, base is the
 * folder relative paths start from); every point's configuration is
 * checked.  0, or -1 after "path:line: error: ..." messages on err. */
int sweep_spec_parse(sweep_spec *s, const char *text, const char *path, const char *base, const sweep_overrides *ov, FILE *err);
/* Read SPEC from a file (at most SWEEP_MAX_SPEC bytes): 0, or an exit status. */
int sweep_spec_load(sweep_spec *s, const char *path, const char *base, const sweep_overrides *ov, char **text_out);
void sweep_spec_free(sweep_spec *s);
/* The --set arguments of a point: fixed ones, then its combo's ("NAME=VALUE",
 * allocated in s->a); returns the count. */
int sweep_point_sets(const sweep_spec *s, const sweep_point *p, const char ***out);

/* The folder of a sweep: DIR/sweep.spec (a copy of the SPEC), DIR/sweep.base
 * (the SPEC's folder, then the overrides as "repeat N" lines),
 * DIR/points/N.db (results), DIR/logs/N.err, DIR/slurm/ (job scripts). */
int sweep_dir_prepare(const char *dir, const char *spec_text, const char *base, const sweep_overrides *ov);
/* Load the sweep a folder holds: 0 or an exit status. */
int sweep_dir_load(const char *dir, sweep_spec *s);
/* "DIR/points/000012.db" and the like (static buffers per kind). */
void sweep_result_path(const char *dir, int index, char *out, size_t n);
/* 1 when point index has a result file of status done for the same key;
 * 2 when one of status failed; 0 when none (or another key's). */
int sweep_point_state(const char *dir, const sweep_spec *s, int index);

/* Run the points idx[0..n) with jobs parallel processes; progress: a
 * status line on stderr.  Returns the number that failed, -1 on an error,
 * -2 when SIGINT or SIGTERM stopped it (the points running have no result). */
int sweep_run_points(const char *dir, const sweep_spec *s, const int *idx, int n, int jobs, bool progress);
/* The absolute path of this ptxemu (for child processes and job scripts). */
const char *sweep_self(void);

/* Slurm: write the job script for the points idx and submit it with
 * sbatch (extra options passed on); prints the job id.  0 or an exit status. */
int sweep_slurm_submit(const char *dir, const sweep_spec *s, const int *idx, int n, int chunk, char **sbatch_opts, int nopts);
/* One array task: the points on line task + 1 of the todo file. */
int sweep_slurm_task(const char *dir, const char *todo, const char *task);
/* "ptxemu sweep status DIR". */
int sweep_status(const char *dir);
/* "ptxemu sweep collect DIR -o OUT". */
int sweep_collect(const char *dir, const char *out);
/* "ptxemu sweep plot DB --axis A [--metric M] -o OUT.svg". */
int sweep_plot(const char *db, const char *axis, const char *metric, const char *out);

/* Run argv (no shell), its stdout into the buffer out (at most n - 1
 * bytes, NUL-terminated); returns its exit status, -1 if it cannot run. */
int sweep_capture(char *const argv[], char *out, size_t n);
#endif
