/* cli/cmd_dis.c - "ptxemu dis": print an object (or PTX) as PTX. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "util/outfile.h"

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
  outfile of;
  if (out && outfile_open(&of, out)) {
    fprintf(stderr, "ptxemu dis: cannot write '%s': %s\n", out, strerror(errno));
    isa_module_free(m);
    return EXIT_CANTCREAT;
  }
  isa_disassemble(m, out ? of.f : stdout);
  if (out && outfile_close(&of, 1)) { fprintf(stderr, "ptxemu dis: cannot write '%s': %s\n", out, strerror(errno)); status = EXIT_CANTCREAT; }
  isa_module_free(m);
  return status;
}
