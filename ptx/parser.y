/* ptx/parser.y - grammar of PTX modules.
 *
 * The grammar is deliberately generic: an instruction is
 * "[@guard] opname operand, ... ;" and a declaration is "directive-words
 * name ...;".  What an opcode or a directive word means is decided later
 * (isa/ for opcodes, ptx/build.c for declaration words), so new PTX
 * versions rarely need grammar changes.  Errors recover at ';' or '}' so
 * every error of a file is reported. */
%define api.pure full
%define api.prefix {ptxyy}
%define api.location.type {ptx_yyltype}
%define parse.error custom
%locations
%lex-param {void *scanner}
%parse-param {void *scanner} {ptx_pstate *ps}

%code requires {
#include "ptx/parse_state.h"
}

%code {
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/build.h"
int ptxyylex(PTXYYSTYPE *lval, ptx_yyltype *lloc, void *scanner);
static void ptxyyerror(ptx_yyltype *loc, void *scanner, ptx_pstate *ps, const char *msg);
#define L(x) ((ptx_loc){ (x).first_line, (x).first_column })
}

%union {
  struct { const char *s; uint32_t n; } str;
  int64_t ival;
  struct { uint64_t v; bool u; } num;
  ptx_opnd opnd;
  ptx_oplist olist;
  ptx_attrs attrs;
  ptx_init init;
  ptx_initlist ilist;
  ptx_decl decl;
  ptx_decllist dlist;
  ptx_perf perf;
  ptx_func *func;
  uint32_t u32;
}

%token <str> DOTTED IDENT DIRWORD STRING FLOATLIT SECTION
%token <num> INT
%token <ival> F32LIT F64LIT
%token D_VERSION D_TARGET D_ADDRSIZE D_ENTRY D_FUNC D_FILE D_LOC D_PRAGMA
%token D_CALLPROTOTYPE D_BRANCHTARGETS D_CALLTARGETS D_MAXNTID D_REQNTID
%token D_MINNCTAPERSM D_MAXNCTAPERSM D_MAXNREG D_EXPLICITCLUSTER
%token D_REQNCTAPERCLUSTER D_MAXCLUSTERRANK D_NORETURN D_ALIGN D_PTR
%token D_ABI_PRESERVE D_ABI_PRESERVE_CONTROL

%type <opnd> operand number addr_base initscalar opname_tok
%type <olist> operands operands_opt vlist idlist
%type <attrs> attrs
%type <init> initval
%type <ilist> initlist
%type <decl> declname
%type <dlist> declnames params params_opt rets_opt
%type <perf> perfs
%type <u32> uint
%type <ival> sint

%%

module
  : %empty
  | module modstmt
  ;

modstmt
  : D_VERSION FLOATLIT                { ptx_b_version(ps, L(@1), $2.s, $2.n); }
  | D_VERSION INT                     { ptx_b_version_int(ps, L(@1), $2.v); }
  | D_TARGET targets
  | D_ADDRSIZE uint                   { ps->mod->address_size = $2; }
  | D_FILE uint STRING                { ptx_b_file(ps, L(@1), $2, $3.s, $3.n, 0, 0); }
  | D_FILE uint STRING ',' uint ',' uint { ptx_b_file(ps, L(@1), $2, $3.s, $3.n, $5, $7); }
  | D_PRAGMA STRING ';'               { ptx_b_mod_pragma(ps, L(@1), $2.s, $2.n); }
  | SECTION                           { ptx_b_section(ps, L(@1), $1.s, $1.n); }
  | attrs declnames ';'               { ptx_b_mod_vars(ps, &$1, &$2); }
  | attrs D_ENTRY IDENT params_opt perfs fbody_start stmts '}'
                                      { ptx_b_func(ps, &$1, true, L(@3), $3.s, $3.n, NULL, &$4, &$5, true); }
  | attrs D_ENTRY IDENT params_opt perfs ';'
                                      { ptx_b_func(ps, &$1, true, L(@3), $3.s, $3.n, NULL, &$4, &$5, false); }
  | attrs D_FUNC rets_opt IDENT params_opt perfs fbody_start stmts '}'
                                      { ptx_b_func(ps, &$1, false, L(@4), $4.s, $4.n, &$3, &$5, &$6, true); }
  | attrs D_FUNC rets_opt IDENT params_opt perfs ';'
                                      { ptx_b_func(ps, &$1, false, L(@4), $4.s, $4.n, &$3, &$5, &$6, false); }
  | D_ENTRY IDENT params_opt perfs fbody_start stmts '}'
                                      { ptx_attrs a = {0}; ptx_b_func(ps, &a, true, L(@2), $2.s, $2.n, NULL, &$3, &$4, true); }
  | D_FUNC rets_opt IDENT params_opt perfs fbody_start stmts '}'
                                      { ptx_attrs a = {0}; ptx_b_func(ps, &a, false, L(@3), $3.s, $3.n, &$2, &$4, &$5, true); }
  | D_FUNC rets_opt IDENT params_opt perfs ';'
                                      { ptx_attrs a = {0}; ptx_b_func(ps, &a, false, L(@3), $3.s, $3.n, &$2, &$4, &$5, false); }
  | error ';'                         { yyerrok; }
  | error '}'                         { yyerrok; ptx_b_drop_body(ps); }
  ;

fbody_start : '{'                     { ptx_b_body_start(ps); } ;

targets
  : IDENT                             { ptx_b_target(ps, L(@1), $1.s, $1.n); }
  | targets ',' IDENT                 { ptx_b_target(ps, L(@3), $3.s, $3.n); }
  ;

uint : INT                            { $$ = (uint32_t)$1.v; } ;
sint : INT                            { $$ = (int64_t)$1.v; }
     | '-' INT                        { $$ = -(int64_t)$2.v; }
     ;

attrs
  : DIRWORD                           { memset(&$$, 0, sizeof $$); $$.vec = 1; $$.loc = L(@1); ptx_b_attr(ps, &$$, L(@1), $1.s, $1.n); }
  | D_ALIGN uint                      { memset(&$$, 0, sizeof $$); $$.vec = 1; $$.loc = L(@1); $$.align = $2; }
  | D_NORETURN                        { memset(&$$, 0, sizeof $$); $$.vec = 1; $$.loc = L(@1); $$.noreturn = true; }
  | attrs DIRWORD                     { $$ = $1; ptx_b_attr(ps, &$$, L(@2), $2.s, $2.n); }
  | attrs D_ALIGN uint                { $$ = $1; if ($$.after_ptr) $$.ptr_align = $3; else $$.align = $3; }
  | attrs D_PTR                       { $$ = $1; $$.is_ptr = $$.after_ptr = true; }
  | attrs D_NORETURN                  { $$ = $1; $$.noreturn = true; }
  ;

declnames
  : declname                          { memset(&$$, 0, sizeof $$); ptx_b_dl_push(ps, &$$, &$1); }
  | declnames ',' declname            { $$ = $1; ptx_b_dl_push(ps, &$$, &$3); }
  ;

declname
  : IDENT                             { ptx_b_declname(ps, &$$, L(@1), $1.s, $1.n); }
  | IDENT '<' uint '>'                { ptx_b_declname(ps, &$$, L(@1), $1.s, $1.n); $$.has_range = true; $$.range = $3; }
  | declname '[' uint ']'             { $$ = $1; ptx_b_dim(ps, &$$, L(@2), $3, false); }
  | declname '[' ']'                  { $$ = $1; ptx_b_dim(ps, &$$, L(@2), 0, true); }
  | declname '=' initval              { $$ = $1; $$.init = ptx_b_init(ps, &$3); }
  ;

initval
  : initscalar                        { memset(&$$, 0, sizeof $$); $$.u.scalar = $1; }
  | '{' initlist '}'                  { memset(&$$, 0, sizeof $$); $$.is_list = true; $$.n = $2.n; $$.u.items = $2.v; }
  ;

initlist
  : initval                           { memset(&$$, 0, sizeof $$); ptx_b_il_push(ps, &$$, &$1); }
  | initlist ',' initval              { $$ = $1; ptx_b_il_push(ps, &$$, &$3); }
  ;

initscalar
  : number
  | IDENT                             { ptx_b_sym(ps, &$$, L(@1), $1.s, $1.n, 0); }
  | IDENT '+' INT                     { ptx_b_sym(ps, &$$, L(@1), $1.s, $1.n, (int64_t)$3.v); }
  | IDENT '(' IDENT ')'               { ptx_b_sym(ps, &$$, L(@3), $3.s, $3.n, 0); $$.generic = true; }
  | IDENT '(' IDENT ')' '+' INT       { ptx_b_sym(ps, &$$, L(@3), $3.s, $3.n, (int64_t)$6.v); $$.generic = true; }
  | IDENT '(' IDENT '+' INT ')'       { ptx_b_sym(ps, &$$, L(@3), $3.s, $3.n, (int64_t)$5.v); $$.generic = true; }
  ;

rets_opt
  : %empty                            { memset(&$$, 0, sizeof $$); }
  | '(' params ')'                    { $$ = $2; }
  ;

params_opt
  : %empty                            { memset(&$$, 0, sizeof $$); }
  | '(' ')'                           { memset(&$$, 0, sizeof $$); }
  | '(' params ')'                    { $$ = $2; }
  ;

params
  : attrs declname                    { memset(&$$, 0, sizeof $$); ptx_b_param(ps, &$$, &$1, &$2); }
  | params ',' attrs declname         { $$ = $1; ptx_b_param(ps, &$$, &$3, &$4); }
  ;

perfs
  : %empty                            { memset(&$$, 0, sizeof $$); }
  | perfs D_MAXNTID uint              { $$ = $1; $$.maxntid[0] = $3; $$.n_maxntid = 1; }
  | perfs D_MAXNTID uint ',' uint     { $$ = $1; $$.maxntid[0] = $3; $$.maxntid[1] = $5; $$.n_maxntid = 2; }
  | perfs D_MAXNTID uint ',' uint ',' uint { $$ = $1; $$.maxntid[0] = $3; $$.maxntid[1] = $5; $$.maxntid[2] = $7; $$.n_maxntid = 3; }
  | perfs D_REQNTID uint              { $$ = $1; $$.reqntid[0] = $3; $$.n_reqntid = 1; }
  | perfs D_REQNTID uint ',' uint     { $$ = $1; $$.reqntid[0] = $3; $$.reqntid[1] = $5; $$.n_reqntid = 2; }
  | perfs D_REQNTID uint ',' uint ',' uint { $$ = $1; $$.reqntid[0] = $3; $$.reqntid[1] = $5; $$.reqntid[2] = $7; $$.n_reqntid = 3; }
  | perfs D_REQNCTAPERCLUSTER uint    { $$ = $1; $$.reqnctapercluster[0] = $3; $$.n_reqnctapercluster = 1; }
  | perfs D_REQNCTAPERCLUSTER uint ',' uint { $$ = $1; $$.reqnctapercluster[0] = $3; $$.reqnctapercluster[1] = $5; $$.n_reqnctapercluster = 2; }
  | perfs D_REQNCTAPERCLUSTER uint ',' uint ',' uint { $$ = $1; $$.reqnctapercluster[0] = $3; $$.reqnctapercluster[1] = $5; $$.reqnctapercluster[2] = $7; $$.n_reqnctapercluster = 3; }
  | perfs D_MINNCTAPERSM uint         { $$ = $1; $$.minnctapersm = $3; }
  | perfs D_MAXNCTAPERSM uint         { $$ = $1; $$.maxnctapersm = $3; }
  | perfs D_MAXNREG uint              { $$ = $1; $$.maxnreg = $3; }
  | perfs D_MAXCLUSTERRANK uint       { $$ = $1; $$.maxclusterrank = $3; }
  | perfs D_EXPLICITCLUSTER           { $$ = $1; $$.explicitcluster = true; }
  | perfs D_NORETURN                  { $$ = $1; $$.noreturn = true; }
  | perfs D_ABI_PRESERVE uint         { $$ = $1; }
  | perfs D_ABI_PRESERVE_CONTROL uint { $$ = $1; }
  | perfs D_PRAGMA STRING ';'         { $$ = $1; ptx_b_func_pragma(ps, $3.s, $3.n); }
  ;

stmts
  : %empty
  | stmts stmt
  ;

stmt
  : IDENT ':'                         { ptx_b_label(ps, L(@1), $1.s, $1.n); }
  | IDENT ':' D_BRANCHTARGETS idlist ';' { ptx_b_targets(ps, L(@1), $1.s, $1.n, &$4, PS_BRANCHTARGETS); }
  | IDENT ':' D_CALLTARGETS idlist ';'   { ptx_b_targets(ps, L(@1), $1.s, $1.n, &$4, PS_CALLTARGETS); }
  | IDENT ':' D_CALLPROTOTYPE rets_opt IDENT params_opt ';'
                                      { ptx_b_callproto(ps, L(@1), $1.s, $1.n, &$4, &$6); }
  | attrs declnames ';'               { ptx_b_local_vars(ps, &$1, &$2); }
  | opname_tok operands_opt ';'       { ptx_b_insn(ps, &$1, NULL, &$2); }
  | '@' IDENT opname_tok operands_opt ';'     { ptx_opnd g; ptx_b_reg(ps, &g, L(@2), $2.s, $2.n); ptx_b_insn(ps, &$3, &g, &$4); }
  | '@' '!' IDENT opname_tok operands_opt ';' { ptx_opnd g; ptx_b_reg(ps, &g, L(@3), $3.s, $3.n); g.neg = true; ptx_b_insn(ps, &$4, &g, &$5); }
  | D_LOC uint uint uint              { ptx_b_loc(ps, L(@1), $2, $3, $4); }
  | D_LOC uint uint                   { ptx_b_loc(ps, L(@1), $2, $3, 0); }
  | D_LOC uint uint uint ',' IDENT IDENT { ptx_b_loc(ps, L(@1), $2, $3, $4); ptx_b_loc_fname(ps, $7.s, $7.n); }
  | D_LOC uint uint uint ',' IDENT IDENT ',' IDENT uint uint uint
                                      { ptx_b_loc(ps, L(@1), $2, $3, $4); ptx_b_loc_fname(ps, $7.s, $7.n); ptx_b_loc_inlined(ps, $10, $11, $12); }
  | D_PRAGMA STRING ';'               { ptx_b_pragma(ps, L(@1), $2.s, $2.n); }
  | '{'                               { ptx_b_scope(ps, L(@1), PS_OPEN); }
    stmts '}'                         { ptx_b_scope(ps, L(@4), PS_CLOSE); }
  | error ';'                         { yyerrok; }
  ;

opname_tok
  : IDENT                             { memset(&$$, 0, sizeof $$); $$.loc = L(@1); $$.name = ptx_b_intern(ps, $1.s, $1.n); }
  | DOTTED                            { memset(&$$, 0, sizeof $$); $$.loc = L(@1); $$.name = ptx_b_intern(ps, $1.s, $1.n); }
  ;

idlist
  : IDENT                             { memset(&$$, 0, sizeof $$); ptx_opnd o; ptx_b_sym(ps, &o, L(@1), $1.s, $1.n, 0); ptx_b_ol_push(ps, &$$, &o); }
  | idlist ',' IDENT                  { $$ = $1; ptx_opnd o; ptx_b_sym(ps, &o, L(@3), $3.s, $3.n, 0); ptx_b_ol_push(ps, &$$, &o); }
  ;

operands_opt
  : %empty                            { memset(&$$, 0, sizeof $$); }
  | operands
  ;

operands
  : operand                           { memset(&$$, 0, sizeof $$); ptx_b_ol_push(ps, &$$, &$1); }
  | operands ',' operand              { $$ = $1; ptx_b_ol_push(ps, &$$, &$3); }
  ;

operand
  : IDENT                             { ptx_b_name(ps, &$$, L(@1), $1.s, $1.n); }
  | DOTTED                            { ptx_b_name(ps, &$$, L(@1), $1.s, $1.n); }
  | '!' IDENT                         { ptx_b_name(ps, &$$, L(@2), $2.s, $2.n); $$.neg = true; $$.loc = L(@1); }
  | IDENT '|' IDENT                   { ptx_opnd a, b; ptx_b_name(ps, &a, L(@1), $1.s, $1.n); ptx_b_name(ps, &b, L(@3), $3.s, $3.n); ptx_b_pair(ps, &$$, &a, &b); }
  | IDENT '+' INT                     { ptx_b_sym(ps, &$$, L(@1), $1.s, $1.n, (int64_t)$3.v); }
  | IDENT '-' INT                     { ptx_b_sym(ps, &$$, L(@1), $1.s, $1.n, -(int64_t)$3.v); }
  | number
  | '-' number                        { $$ = $2; ptx_b_negate(ps, &$$); $$.loc = L(@1); }
  | '[' addr_base ']'                 { ptx_b_addr(ps, &$$, L(@1), &$2, NULL); }
  | '[' addr_base ',' vlist ']'       { ptx_b_addr(ps, &$$, L(@1), &$2, &$4); }
  | '{' vlist '}'                     { ptx_b_list(ps, &$$, L(@1), &$2, PO_VEC); }
  | '(' operands ')'                  { ptx_b_list(ps, &$$, L(@1), &$2, PO_LIST); }
  | '(' ')'                           { ptx_oplist e = {0}; ptx_b_list(ps, &$$, L(@1), &e, PO_LIST); }
  ;

vlist
  : operand                           { memset(&$$, 0, sizeof $$); ptx_b_ol_push(ps, &$$, &$1); }
  | vlist ',' operand                 { $$ = $1; ptx_b_ol_push(ps, &$$, &$3); }
  ;

addr_base
  : IDENT                             { ptx_b_name(ps, &$$, L(@1), $1.s, $1.n); }
  | DOTTED                            { ptx_b_name(ps, &$$, L(@1), $1.s, $1.n); }
  | IDENT '+' sint                    { ptx_b_name(ps, &$$, L(@1), $1.s, $1.n); $$.ival = $3; }
  | IDENT '-' INT                     { ptx_b_name(ps, &$$, L(@1), $1.s, $1.n); $$.ival = -(int64_t)$3.v; }
  | sint                              { memset(&$$, 0, sizeof $$); $$.kind = PO_INT; $$.ival = $1; $$.loc = L(@1); }
  ;

number
  : INT                               { memset(&$$, 0, sizeof $$); $$.kind = PO_INT; $$.ival = (int64_t)$1.v; $$.is_unsigned = $1.u; $$.loc = L(@1); }
  | F32LIT                            { memset(&$$, 0, sizeof $$); $$.kind = PO_F32; $$.ival = $1; $$.loc = L(@1); }
  | F64LIT                            { memset(&$$, 0, sizeof $$); $$.kind = PO_F64; $$.ival = $1; $$.loc = L(@1); }
  | FLOATLIT                          { ptx_b_floatlit(ps, &$$, L(@1), $1.s, $1.n); }
  ;

%%

static void ptxyyerror(ptx_yyltype *loc, void *scanner, ptx_pstate *ps, const char *msg) {
  (void)scanner;
  ptx_error(ps->diag, L(*loc), "%s", msg);
}

static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, ptx_pstate *ps) {
  (void)scanner;
  const ptx_yyltype *loc = yypcontext_location(ctx);
  if (yypcontext_token(ctx) == YYSYMBOL_YYEOF)
    ptx_error(ps->diag, L(*loc), "syntax error: unexpected end of file");
  else
    ptx_b_syntax_error(ps, L(*loc));
  return 0;
}
