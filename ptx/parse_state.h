/* ptx/parse_state.h - what the scanner and the parser share while one
 * module is parsed.  Private to ptx/. */
#ifndef PTX_PARSE_STATE_H
#define PTX_PARSE_STATE_H
#include <stdint.h>
#include <stdbool.h>
#include "ptx/ast.h"
#include "util/strtab.h"

/* Locations are where a token or a rule starts (8 bytes: the parser keeps
 * one per stack slot). */
typedef struct ptx_yyltype { uint32_t line, col; } ptx_yyltype;

typedef struct ptx_lexstate {
  uint32_t line;
  const char *line_start;      /* first character of the current line       */
  int sect_depth;
  ptx_yyltype sect_loc;
  ptx_yyltype comment_loc;     /* where an open block comment began */
  ptx_diag *diag;
  const char *tok;             /* text of the last token (for syntax errors) */
  int toklen;
  ptx_yyltype tokloc;          /* and where it is                            */
  char line_path[512];         /* file named by the first //#line marker */
  int line_path_set;
} ptx_lexstate;

/* What a DIRWORD token means: kind << 8 | value. */
enum { PTX_ATTR_SPACE = 1, PTX_ATTR_TYPE, PTX_ATTR_VEC, PTX_ATTR_LINK };
#define PTX_ATTR(kind, val) ((uint32_t)(kind) << 8 | (uint32_t)(val))

/* Attributes collected from the directive words before a declared name. */
typedef struct ptx_attrs {
  uint8_t space, type, vec, linkage, ptr_space;
  bool is_ptr, after_ptr, noreturn;
  uint32_t align, ptr_align;
  ptx_loc loc;
} ptx_attrs;

/* An INT token. */
typedef struct ptx_num { uint64_t v; const char *text; uint32_t len; bool u, ovf; } ptx_num;

/* Operand lists are built on a scratch stack (ptx_pstate.ops): a list is
 * its elements ops[start .. start+n), always the topmost open list, and
 * moves to the arena, exactly sized, when its statement is complete. */
typedef struct ptx_oplist { uint32_t start, n; } ptx_oplist;
typedef struct ptx_initlist { ptx_init *v; uint32_t n, cap; } ptx_initlist;
typedef struct ptx_decllist { ptx_decl **v; uint32_t n, cap; } ptx_decllist;

typedef struct ptx_pstate {
  ptx_module *mod;
  arena *arena;                /* where nodes go: the module's, or body while streaming */
  arena *marena;               /* the module's                               */
  arena *farena;               /* streaming: the body being parsed (reused)  */
  const ptx_consumer *cons;
  strtab *names;
  ptx_diag *diag;
  void *scanner;
  /* statements of the function being parsed (malloc'd, copied at its end) */
  ptx_stmt *stmts;
  uint32_t nstmts, capstmts;
  ptx_modstmt *mstmts;
  uint32_t nmstmts, capmstmts;
  ptx_opnd *ops;               /* operand scratch stack (see ptx_oplist)     */
  uint32_t nops, capops;
  ptx_lexstate *ls;
  uint32_t dims[3], ndims;     /* .maxntid x, y, z being parsed              */
  ptx_opnd guard;              /* @p of the instruction being parsed (PO_SINK: none) */
  struct ptx_prefix { uint64_t key; const char *name; } prefixes[16];   /* register prefixes seen */
  ptx_perf perf;               /* performance directives of the header being parsed */
  const char **fpragmas;       /* pragmas of the function header being parsed */
  uint32_t nfpragmas, capfpragmas;
} ptx_pstate;

int ptx_lex_int(const char *text, int len, int base, void *yylval);
void ptx_lex_error(ptx_lexstate *ls, ptx_yyltype loc, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
#endif
