/* cli/cmd_dis.c - "ptxemu dis": print an object (or PTX) as PTX. */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"

int cmd_dis(int argc, char **argv) {
  const char *in = NULL, *out = NULL;
  for (int i = 1; i < argc; i++) {
    if (cli_is_help(argv[i])) {
      puts("usage: ptxemu dis [-o OUT.ptx] FILE.pxo\n"
           "Prints the module as PTX; 'ptxemu asm' turns the output back into the same object.");
      return EXIT_OK;
    }
    if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
    else if (cli_missing_value("dis", argv[i], "-o")) return EXIT_USAGE;
    else if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "ptxemu dis: unknown option '%s'\n", argv[i]); return EXIT_USAGE; }
    else in = argv[i];
  }
  if (!in) { fputs("usage: ptxemu dis [-o OUT.ptx] FILE.pxo\n", stderr); return EXIT_USAGE; }
  int status = EXIT_OK;
  isa_module *m = cli_load_module(in, &status);
  if (!m) return status;
  FILE *f = out ? fopen(out, "w") : stdout;
  if (!f) { fprintf(stderr, "ptxemu dis: cannot write '%s'\n", out); isa_module_free(m); return EXIT_CANTCREAT; }
  isa_disassemble(m, f);
  if (out && fclose(f) != 0) status = EXIT_CANTCREAT;
  isa_module_free(m);
  return status;
}
