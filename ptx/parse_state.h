/* ptx/parse_state.h - what the scanner and the parser share while one
 * module is parsed.  Private to ptx/. */
#ifndef PTX_PARSE_STATE_H
#define PTX_PARSE_STATE_H
#include <stdint.h>
#include <stdbool.h>
#include "ptx/ast.h"
#include "util/strtab.h"

typedef struct ptx_yyltype { uint32_t first_line, first_column, last_line, last_column; } ptx_yyltype;

typedef struct ptx_lexstate {
  uint32_t line, col;
  int sect_depth, sect_open;
  ptx_yyltype sect_loc;
  ptx_diag *diag;
  const char *tok;             /* text of the last token (for syntax errors) */
  int toklen;
  char line_path[512];         /* file named by the first //#line marker */
  int line_path_set;
} ptx_lexstate;

/* Attributes collected from the directive words before a declared name. */
typedef struct ptx_attrs {
  uint8_t space, type, vec, linkage, ptr_space;
  bool is_ptr, after_ptr, noreturn;
  uint32_t align, ptr_align;
  ptx_loc loc;
} ptx_attrs;

typedef struct ptx_oplist { ptx_opnd *v; uint32_t n, cap; } ptx_oplist;
typedef struct ptx_initlist { ptx_init *v; uint32_t n, cap; } ptx_initlist;
typedef struct ptx_decllist { ptx_decl *v; uint32_t n, cap; } ptx_decllist;

typedef struct ptx_pstate {
  ptx_module *mod;
  arena *arena;
  strtab names;
  ptx_diag *diag;
  void *scanner;
  /* statements of the function being parsed (malloc'd, copied at its end) */
  ptx_stmt *stmts;
  uint32_t nstmts, capstmts;
  ptx_modstmt *mstmts;
  uint32_t nmstmts, capmstmts;
  ptx_decllist params;         /* scratch while parsing a header */
  ptx_lexstate *ls;
  const char **fpragmas;       /* pragmas of the function header being parsed */
  uint32_t nfpragmas, capfpragmas;
} ptx_pstate;

int ptx_lex_int(ptx_lexstate *ls, const char *text, int len, int base, void *yylval);
void ptx_lex_error(ptx_lexstate *ls, ptx_yyltype loc, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
#endif
