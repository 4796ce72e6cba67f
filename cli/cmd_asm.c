/* cli/cmd_asm.c - "ptxemu asm": assemble PTX into a checked object file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

static void usage(FILE *f) {
  fputs("usage: ptxemu asm [-o OUT.pxo] [-v] [--check] FILE.ptx\n"
        "  -o FILE    write the object here (default: FILE with .pxo in place of .ptx)\n"
        "  -v         print each function's resources (registers, shared, local, params)\n"
        "  --check    only check the PTX; write nothing\n", f);
}

static void print_resources(const isa_module *m) {
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    const isa_func *f = &m->funcs[i];
    if (f->is_proto || !f->has_body) continue;
    printf("ptxemu info    : %s %s for 'sm_%u%s'\n", f->is_entry ? "Compiling entry function" : "Function properties for",
           f->name, m->sm, m->sm_suffix == 'a' ? "a" : "");
    printf("ptxemu info    : Used %u registers, %llu bytes smem, %llu bytes cmem[0], %llu bytes lmem, %u instructions\n",
           f->regs_used, (unsigned long long)f->shared_bytes, (unsigned long long)f->param_bytes,
           (unsigned long long)f->local_bytes, f->ninsns);
  }
}

int cmd_asm(int argc, char **argv) {
  const char *out = NULL, *in = NULL;
  int verbose = 0, check_only = 0;
  for (int i = 1; i < argc; i++) {
    if (cli_is_help(argv[i])) { usage(stdout); return EXIT_OK; }
    if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
    else if (strcmp(argv[i], "-v") == 0) verbose = 1;
    else if (strcmp(argv[i], "--check") == 0) check_only = 1;
    else if (cli_missing_value("asm", argv[i], "-o")) return EXIT_USAGE;
    else if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "ptxemu asm: unknown option '%s'\n", argv[i]); usage(stderr); return EXIT_USAGE; }
    else if (!in) in = argv[i];
    else { fprintf(stderr, "ptxemu asm: more than one input\n"); return EXIT_USAGE; }
  }
  if (!in) { usage(stderr); return EXIT_USAGE; }
  int status = EXIT_OK;
  isa_module *m = cli_load_module(in, &status);
  if (!m) return status;
  if (verbose) print_resources(m);
  if (!check_only) {
    char *def = NULL;
    if (!out) {
      const char *base = strrchr(in, '/');
      base = base ? base + 1 : in;
      size_t n = strlen(base);
      def = malloc(n + 5);
      memcpy(def, base, n + 1);
      if (n > 4 && strcmp(def + n - 4, ".ptx") == 0) def[n - 4] = 0;
      strcat(def, ".pxo");
      out = def;
    }
    char err[256];
    if (isa_write_object(m, out, err, sizeof err)) { fprintf(stderr, "ptxemu asm: %s\n", err); status = EXIT_CANTCREAT; }
    free(def);
  }
  isa_module_free(m);
  return status;
}
