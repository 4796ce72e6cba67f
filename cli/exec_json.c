/* cli/exec_json.c - "ptxemu exec --format json": the program's exit status,
 * its standard output, and per launch the counters of the --stats file
 * (one "launch N KERNEL key value ..." line each), as one JSON document
 * for graders and CI jobs. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "util/demangle.h"
#include "util/json.h"

#define EXEC_JSON_MAX_STDOUT (1u << 20)    /* program output kept in the document */

/* The value of key in a stats line, or -1. */
static long long stat_value(const char *line, const char *key) {
  size_t kl = strlen(key);
  for (const char *p = line; (p = strstr(p, key)); p += kl)
    if ((p == line || p[-1] == ' ') && p[kl] == ' ') return strtoll(p + kl + 1, NULL, 10);
  return -1;
}

void exec_write_json(FILE *f, char **argv, int status, int signal, double wall, const char *gpu, FILE *stats, FILE *out) {
  fputs("{\n  \"tool\": \"ptxemu exec\",\n  \"program\": ", f);
  json_put_string(f, argv[0]);
  fputs(",\n  \"args\": [", f);
  for (int k = 1; argv[k]; k++) { if (k > 1) fputs(", ", f); json_put_string(f, argv[k]); }
  fprintf(f, "],\n  \"exit_status\": %d,\n  \"signal\": ", status);
  if (signal) fprintf(f, "%d", signal); else fputs("null", f);
  fputs(",\n  \"mode\": ", f);
  json_put_string(f, gpu ? "timing" : "functional");
  fputs(", \"gpu\": ", f);
  json_put_string(f, gpu);
  fprintf(f, ",\n  \"wall_seconds\": %.6f,\n  \"launches\": [", wall);
  uint64_t insts = 0, tinsts = 0, cycles = 0;
  int n = 0;
  char line[8192];
  if (stats) rewind(stats);
  while (stats && fgets(line, sizeof line, stats)) {
    int index;
    char kernel[4096], dm[4096];
    if (sscanf(line, "launch %d %4095s", &index, kernel) != 2) continue;
    long long ie = stat_value(line, "inst_executed"), te = stat_value(line, "thread_inst_executed"),
              cy = stat_value(line, "cycles");
    fprintf(f, "%s\n    {\"index\": %d, \"kernel\": ", n++ ? "," : "", index);
    json_put_string(f, kernel);
    fputs(", \"name\": ", f);
    json_put_string(f, demangle_or_self(kernel, dm, sizeof dm));
    fprintf(f, ", \"inst_executed\": %lld, \"thread_inst_executed\": %lld, \"cycles\": ", ie, te);
    if (cy >= 0) fprintf(f, "%lld", cy); else fputs("null", f);
    fputc('}', f);
    if (ie > 0) insts += (uint64_t)ie;
    if (te > 0) tinsts += (uint64_t)te;
    if (cy > 0) cycles += (uint64_t)cy;
  }
  fprintf(f, "%s],\n  \"inst_executed\": %" PRIu64 ", \"thread_inst_executed\": %" PRIu64 ", \"cycles\": ", n ? "\n  " : "",
          insts, tinsts);
  if (gpu) fprintf(f, "%" PRIu64, cycles); else fputs("null", f);
  /* the program's standard output, as text (bytes that are not UTF-8 escaped) */
  char *text = NULL;
  size_t len = 0;
  bool truncated = false;
  if (out) {
    rewind(out);
    text = malloc(EXEC_JSON_MAX_STDOUT + 1);
    if (text) {
      len = fread(text, 1, EXEC_JSON_MAX_STDOUT, out);
      truncated = len == EXEC_JSON_MAX_STDOUT && fgetc(out) != EOF;
      text[len] = 0;
      /* a NUL byte would end the string early: shown as ? */
      for (size_t k = 0; k < len; k++) if (!text[k]) text[k] = '?';
    }
  }
  fputs(",\n  \"stdout\": ", f);
  json_put_string(f, text);
  fprintf(f, ",\n  \"stdout_truncated\": %s\n}\n", truncated ? "true" : "false");
  free(text);
}
