/* host/grade.h - the results of "ptxemu check" for a grader: one item per
 * expect line (and the stdout line), with the first mismatch in the
 * element type of the expect, and the run's figures; written as JSON or
 * as TAP (version 13, YAML diagnostics). */
#ifndef HOST_GRADE_H
#define HOST_GRADE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct grade_item {
  char *name;               /* as written: "c", "c+16", "symbol:g", "stdout"  */
  int line;                 /* of the launch file                             */
  bool compared;            /* false: the run stopped before the comparisons  */
  bool pass;
  char mode[48];            /* "exact", "f32ulp 2", ...                       */
  char type[8];             /* element type the values are shown in: s32, f32, bf16, u8... */
  size_t bytes, elements, mismatches;
  long long index;          /* first differing element, -1 when none          */
  char expected[96], actual[96];          /* typed values ("-3", "1.5", "nan") */
  char expected_bits[24], actual_bits[24];/* the same as hex bits             */
  char *message;            /* the line "ptxemu check" prints for it (owned)  */
} grade_item;

typedef struct grade_run {
  grade_item *items;
  int nitems, cap;
  const char *input;        /* the launch file or PTX module                  */
  char gpu[32];             /* timing mode: the GPU; "" for a functional run */
  int status;               /* the exit status of the command                 */
  uint64_t launches, inst_executed, thread_inst_executed, cycles;
  double wall_seconds;      /* the emulator's own wall time, whole command    */
  char *fault;              /* the fault report, or NULL                      */
} grade_run;

enum grade_format { GRADE_TEXT, GRADE_JSON, GRADE_TAP };
/* "text", "json", "tap" -> the format; -1 when unknown. */
int grade_format_from_name(const char *name);

/* A new item (zeroed, index -1), or NULL when out of memory. */
grade_item *grade_add(grade_run *g, const char *name, int line);
/* Formats the element at p of type ("u8".."s64", "f16", "bf16", "f32", "f64")
 * as a value and as hex bits. */
void grade_format_elem(const char *type, const uint8_t *p, char *val, size_t nval, char *bits, size_t nbits);
void grade_write(FILE *f, const grade_run *g, enum grade_format fmt);
void grade_free(grade_run *g);
#endif
