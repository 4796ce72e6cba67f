/* ptx/parser.y - grammar of PTX modules.
 *
 * The grammar is deliberately generic: an instruction is
 * "[@guard] opname operand, ... ;" and a declaration is "directive-words
 * name ...;".  What an opcode or a directive word means is decided later
 * (isa/ for opcodes, ptx/build.c for declaration words), so new PTX
 * versions rarely need grammar changes.
 *
 * Operands are expressions in the C syntax of the PTX manual's constant
 * expressions; build.c folds them as they are reduced.  The same operators
 * also spell the few operand forms that are not numbers: !p (negated
 * predicate), -%r (negated video source), p|q (two destinations),
 * sym+8 and %rd1+-4 (addresses).
 *
 * Errors recover at ';' or at the '}' that closes a block (a module-level
 * error skips a whole braced block), so one mistake gives one diagnostic
 * and every error of a file is reported. */
%define api.pure full
%define api.prefix {ptxyy}
%define api.location.type {ptx_yyltype}
%define parse.error custom
/* IELR: the shortcuts that take a bare name straight into an operand list
 * (most operands) are LR(1) but not LALR(1) */
%define lr.type ielr
%locations
%lex-param {void *scanner}
%parse-param {void *scanner} {ptx_pstate *ps}
%expect 0

%code requires {
#include "ptx/parse_state.h"
/* a rule's location is where its first symbol starts */
#define YYLLOC_DEFAULT(Cur, Rhs, N) do { (Cur) = (N) ? YYRHSLOC(Rhs, 1) : YYRHSLOC(Rhs, 0); } while (0)
#define YYLOCATION_PRINT(File, Loc) ((void)0)
}

%code {
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/build.h"
int ptxyylex(PTXYYSTYPE *lval, ptx_yyltype *lloc, void *scanner);
static void ptxyyerror(ptx_yyltype *loc, void *scanner, ptx_pstate *ps, const char *msg);
#define L(x) ((ptx_loc){ (x).line, (x).col })
}

%union {
  struct { const char *s; uint32_t n; uint32_t code; } str;
  int64_t ival;
  ptx_num num;
  ptx_opnd opnd;
  ptx_oplist olist;
  ptx_attrs attrs;
  ptx_init *init;
  ptx_initlist ilist;
  ptx_decl *decl;
  ptx_decllist dlist;
  ptx_func *func;
  uint32_t u32;
}

%token <str> DOTTED IDENT DIRWORD STRING FLOATLIT SECTION D_UNKNOWN
%token <num> INT
%token <ival> F32LIT F64LIT
%token D_VERSION D_TARGET D_ADDRSIZE D_ENTRY D_FUNC D_FILE D_LOC D_PRAGMA
%token D_CALLPROTOTYPE D_BRANCHTARGETS D_CALLTARGETS D_MAXNTID D_REQNTID
%token D_MINNCTAPERSM D_MAXNCTAPERSM D_MAXNREG D_EXPLICITCLUSTER
%token D_REQNCTAPERCLUSTER D_MAXCLUSTERRANK D_NORETURN D_ALIGN D_PTR
%token D_ABI_PRESERVE D_ABI_PRESERVE_CONTROL D_ALIAS D_ATTRIBUTE
%token SHL SHR LE GE EQ NE ANDAND OROR

%right '?' ':'
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%left EQ NE
%left '<' '>' LE GE
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%type <opnd> operand other_operand expr compound primary atom
%type <olist> operands vlist idlist
%type <attrs> attrs
%type <init> initval inititem
%type <ilist> initlist
%type <decl> declname param
%type <dlist> declnames params params_opt rets_opt
%type <func> func_head
%type <u32> uint

%%

module
  : %empty
  | module modstmt
  ;

modstmt
  : D_VERSION FLOATLIT                { ptx_b_version(ps, L(@1), $2.s, $2.n); }
  | D_VERSION INT                     { ptx_b_version_int(ps, L(@1), $2.v); }
  | D_VERSION IDENT                   { ptx_b_version(ps, L(@1), $2.s, $2.n); }   /* an error */
  | D_TARGET targets
  | D_ADDRSIZE uint                   { ptx_b_address_size(ps, L(@2), $2); }
  | D_FILE uint STRING                { ptx_b_file(ps, L(@1), $2, $3.s, $3.n, 0, 0); }
  | D_FILE uint STRING ',' uint ',' uint { ptx_b_file(ps, L(@1), $2, $3.s, $3.n, $5, $7); }
  | D_PRAGMA STRING ';'               { ptx_b_mod_pragma(ps, L(@1), $2.s, $2.n); }
  | SECTION                           { ptx_b_section(ps, L(@1), $1.s, $1.n); }
  | D_ALIAS IDENT ',' IDENT ';'       { ptx_b_alias(ps, L(@2), $2.s, $2.n, L(@4), $4.s, $4.n); }
  | attrs declnames ';'               { ptx_b_mod_vars(ps, &$1, &$2); }
  | func_head '{' stmts '}'           { ptx_b_func_end(ps, $1, true); }
  | func_head '{' stmts error '}'     { yyerrok; ptx_b_recover(ps); ptx_b_func_end(ps, $1, true); }
  | func_head ';'                     { ptx_b_func_end(ps, $1, false); }
  | error ';'                         { yyerrok; ptx_b_recover_module(ps); }
  | error '{' skip '}'                { yyerrok; ptx_b_recover_module(ps); }
  ;

func_head
  : attrs D_ENTRY IDENT params_opt perfs
                                      { $$ = ptx_b_func(ps, &$1, true, L(@3), $3.s, $3.n, NULL, &$4); }
  | D_ENTRY IDENT params_opt perfs    { $$ = ptx_b_func(ps, NULL, true, L(@2), $2.s, $2.n, NULL, &$3); }
  | attrs D_FUNC rets_opt IDENT params_opt perfs
                                      { $$ = ptx_b_func(ps, &$1, false, L(@4), $4.s, $4.n, &$3, &$5); }
  | D_FUNC rets_opt IDENT params_opt perfs
                                      { $$ = ptx_b_func(ps, NULL, false, L(@3), $3.s, $3.n, &$2, &$4); }
  ;

/* the tokens of a block skipped after a module-level error */
skip
  : %empty
  | skip skiptok
  | skip '{' skip '}'
  ;

skiptok
  : DOTTED | IDENT | DIRWORD | STRING | FLOATLIT | SECTION | D_UNKNOWN | INT | F32LIT | F64LIT
  | D_VERSION | D_TARGET | D_ADDRSIZE | D_ENTRY | D_FUNC | D_FILE | D_LOC | D_PRAGMA
  | D_CALLPROTOTYPE | D_BRANCHTARGETS | D_CALLTARGETS | D_MAXNTID | D_REQNTID
  | D_MINNCTAPERSM | D_MAXNCTAPERSM | D_MAXNREG | D_EXPLICITCLUSTER
  | D_REQNCTAPERCLUSTER | D_MAXCLUSTERRANK | D_NORETURN | D_ALIGN | D_PTR
  | D_ABI_PRESERVE | D_ABI_PRESERVE_CONTROL | D_ALIAS | D_ATTRIBUTE
  | SHL | SHR | LE | GE | EQ | NE | ANDAND | OROR
  | ';' | ',' | ':' | '[' | ']' | '(' | ')' | '<' | '>' | '+' | '-' | '@' | '!' | '|' | '='
  | '*' | '/' | '%' | '~' | '&' | '^' | '?'
  ;

targets
  : IDENT                             { ptx_b_target(ps, L(@1), $1.s, $1.n); }
  | targets ',' IDENT                 { ptx_b_target(ps, L(@3), $3.s, $3.n); }
  ;

uint : INT                            { $$ = ptx_b_uint(ps, L(@1), &$1); } ;

attrs
  : DIRWORD                           { ptx_b_attrs_start(&$$, L(@1)); ptx_b_attr(&$$, $1.code); }
  | D_ALIGN uint                      { ptx_b_attrs_start(&$$, L(@1)); $$.align = $2; }
  | D_NORETURN                        { ptx_b_attrs_start(&$$, L(@1)); $$.noreturn = true; }
  | attrs DIRWORD                     { $$ = $1; ptx_b_attr(&$$, $2.code); }
  | attrs D_ALIGN uint                { $$ = $1; if ($$.after_ptr) $$.ptr_align = $3; else $$.align = $3; }
  | attrs D_PTR                       { $$ = $1; $$.is_ptr = $$.after_ptr = true; }
  | attrs D_NORETURN                  { $$ = $1; $$.noreturn = true; }
  | attrs D_ATTRIBUTE '(' var_attribute ')'  { $$ = $1; }
  ;

/* .attribute(.managed) and .attribute(.unified(UUID1, UUID2)) of a .global
 * variable: where the memory lives, which the CUDA libraries decide from
 * their own registration; the emulator's memory is one */
var_attribute
  : D_UNKNOWN                         { ptx_b_var_attribute(ps, L(@1), $1.s, $1.n); }
  | D_UNKNOWN '(' INT ',' INT ')'     { ptx_b_var_attribute(ps, L(@1), $1.s, $1.n); }
  ;

declnames
  : declname                          { memset(&$$, 0, sizeof $$); ptx_b_dl_push(ps, &$$, $1); }
  | declnames ',' declname            { $$ = $1; ptx_b_dl_push(ps, &$$, $3); }
  ;

declname
  : IDENT                             { $$ = ptx_b_declname(ps, L(@1), $1.s, $1.n); }
  | IDENT '<' uint '>'                { $$ = ptx_b_declname(ps, L(@1), $1.s, $1.n); $$->has_range = true; $$->range = $3; }
  | declname '[' uint ']'             { $$ = $1; ptx_b_dim(ps, $$, L(@2), $3, false); }
  | declname '[' ']'                  { $$ = $1; ptx_b_dim(ps, $$, L(@2), 0, true); }
  | declname '=' initval              { $$ = $1; $$->init = $3; }
  ;

initval
  : expr                              { $$ = ptx_b_init_scalar(ps, &$1); }
  | '{' initlist '}'                  { $$ = ptx_b_init_list(ps, &$2); }
  ;

initlist
  : inititem                          { memset(&$$, 0, sizeof $$); ptx_b_il_push(ps, &$$, $1); }
  | initlist ',' inititem             { $$ = $1; ptx_b_il_push(ps, &$$, $3); }
  ;

inititem
  : initval
  | IDENT '=' expr                    { $$ = ptx_b_init_scalar(ps, &$3); $$->field = ptx_b_intern(ps, $1.s, $1.n); $$->field_loc = L(@1); }
  ;

/* "()" is an empty return list: nvcc writes prototypes of calls that
 * return nothing as ".callprototype ()_ (...)" */
rets_opt
  : %empty                            { memset(&$$, 0, sizeof $$); }
  | '(' ')'                           { memset(&$$, 0, sizeof $$); }
  | '(' params ')'                    { $$ = $2; }
  ;

params_opt
  : %empty                            { memset(&$$, 0, sizeof $$); }
  | '(' ')'                           { memset(&$$, 0, sizeof $$); }
  | '(' params ')'                    { $$ = $2; }
  ;

params
  : param                             { memset(&$$, 0, sizeof $$); ptx_b_dl_push(ps, &$$, $1); }
  | params ',' param                  { $$ = $1; ptx_b_dl_push(ps, &$$, $3); }
  ;

param : attrs declname                { $$ = $2; ptx_b_param(ps, &$1, $$); } ;

perfs
  : %empty                            { memset(&ps->perf, 0, sizeof ps->perf); }
  | perfs D_MAXNTID dims3             { ptx_b_check_dims(ps, L(@2), "maxntid", 1024); memcpy(ps->perf.maxntid, ps->dims, sizeof ps->dims); ps->perf.n_maxntid = ps->ndims; }
  | perfs D_REQNTID dims3             { ptx_b_check_dims(ps, L(@2), "reqntid", 1024); memcpy(ps->perf.reqntid, ps->dims, sizeof ps->dims); ps->perf.n_reqntid = ps->ndims; }
  | perfs D_REQNCTAPERCLUSTER dims3   { ptx_b_check_dims(ps, L(@2), "reqnctapercluster", 0); memcpy(ps->perf.reqnctapercluster, ps->dims, sizeof ps->dims); ps->perf.n_reqnctapercluster = ps->ndims; }
  | perfs D_MINNCTAPERSM uint         { ps->perf.minnctapersm = $3; }
  | perfs D_MAXNCTAPERSM uint         { ps->perf.maxnctapersm = $3; }
  | perfs D_MAXNREG uint              { ps->perf.maxnreg = $3; }
  | perfs D_MAXCLUSTERRANK uint       { ps->perf.maxclusterrank = $3; }
  | perfs D_EXPLICITCLUSTER           { ps->perf.explicitcluster = true; }
  | perfs D_NORETURN                  { ps->perf.noreturn = true; }
  | perfs D_ABI_PRESERVE uint
  | perfs D_ABI_PRESERVE_CONTROL uint
  | perfs D_PRAGMA STRING ';'         { ptx_b_func_pragma(ps, $3.s, $3.n); }
  ;

dims3
  : uint                              { memset(ps->dims, 0, sizeof ps->dims); ps->dims[0] = $1; ps->ndims = 1; }
  | uint ',' uint                     { memset(ps->dims, 0, sizeof ps->dims); ps->dims[0] = $1; ps->dims[1] = $3; ps->ndims = 2; }
  | uint ',' uint ',' uint            { ps->dims[0] = $1; ps->dims[1] = $3; ps->dims[2] = $5; ps->ndims = 3; }
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
  /* instructions: the opcode token is taken as it is (fewer reductions:
   * this is the rule a module is mostly made of) */
  | IDENT ';'                         { ptx_b_insn(ps, L(@1), $1.s, $1.n, NULL); }
  | DOTTED ';'                        { ptx_b_insn(ps, L(@1), $1.s, $1.n, NULL); }
  | IDENT operands ';'                { ptx_b_insn(ps, L(@1), $1.s, $1.n, &$2); }
  | DOTTED operands ';'               { ptx_b_insn(ps, L(@1), $1.s, $1.n, &$2); }
  | guard IDENT ';'                   { ptx_b_insn(ps, L(@2), $2.s, $2.n, NULL); }
  | guard DOTTED ';'                  { ptx_b_insn(ps, L(@2), $2.s, $2.n, NULL); }
  | guard IDENT operands ';'          { ptx_b_insn(ps, L(@2), $2.s, $2.n, &$3); }
  | guard DOTTED operands ';'         { ptx_b_insn(ps, L(@2), $2.s, $2.n, &$3); }
  | D_LOC uint uint uint              { ptx_b_loc(ps, L(@1), $2, $3, $4); }
  | D_LOC uint uint                   { ptx_b_loc(ps, L(@1), $2, $3, 0); }
  | D_LOC uint uint uint ',' IDENT IDENT { ptx_b_loc(ps, L(@1), $2, $3, $4); ptx_b_loc_fname(ps, $7.s, $7.n); }
  | D_LOC uint uint uint ',' IDENT IDENT ',' IDENT uint uint uint
                                      { ptx_b_loc(ps, L(@1), $2, $3, $4); ptx_b_loc_fname(ps, $7.s, $7.n); ptx_b_loc_inlined(ps, $10, $11, $12); }
  | D_PRAGMA STRING ';'               { ptx_b_pragma(ps, L(@1), $2.s, $2.n); }
  | scope_open stmts '}'              { ptx_b_scope(ps, L(@3), PS_CLOSE); }
  | scope_open stmts error '}'        { yyerrok; ptx_b_recover(ps); ptx_b_scope(ps, L(@4), PS_CLOSE); }
  | error ';'                         { yyerrok; ptx_b_recover(ps); }
  ;

scope_open : '{'                      { ptx_b_scope(ps, L(@1), PS_OPEN); } ;

guard
  : '@' IDENT                         { ptx_b_reg(ps, &ps->guard, L(@2), $2.s, $2.n); }
  | '@' '!' IDENT                     { ptx_b_reg(ps, &ps->guard, L(@3), $3.s, $3.n); ps->guard.flags |= POF_NEG; }
  ;

idlist
  : IDENT                             { ptx_opnd o; ptx_b_sym(ps, &o, L(@1), $1.s, $1.n); ptx_b_ol_start(ps, &$$, &o); }
  | idlist ',' IDENT                  { $$ = $1; ptx_opnd o; ptx_b_sym(ps, &o, L(@3), $3.s, $3.n); ptx_b_ol_push(ps, &$$, &o); }
  ;

/* a name is taken straight into the list: one reduction fewer for most operands */
operands
  : IDENT                             { ptx_opnd o; ptx_b_name(ps, &o, L(@1), $1.s, $1.n); ptx_b_ol_start(ps, &$$, &o); }
  | DOTTED                            { ptx_opnd o; ptx_b_name(ps, &o, L(@1), $1.s, $1.n); ptx_b_ol_start(ps, &$$, &o); }
  | other_operand                     { ptx_b_ol_start(ps, &$$, &$1); }
  | operands ',' IDENT                { $$ = $1; ptx_opnd o; ptx_b_name(ps, &o, L(@3), $3.s, $3.n); ptx_b_ol_push(ps, &$$, &o); }
  | operands ',' DOTTED               { $$ = $1; ptx_opnd o; ptx_b_name(ps, &o, L(@3), $3.s, $3.n); ptx_b_ol_push(ps, &$$, &o); }
  | operands ',' other_operand        { $$ = $1; ptx_b_ol_push(ps, &$$, &$3); }
  ;

operand
  : IDENT                             { ptx_b_name(ps, &$$, L(@1), $1.s, $1.n); }
  | DOTTED                            { ptx_b_name(ps, &$$, L(@1), $1.s, $1.n); }
  | other_operand
  ;

/* an operand that is not a bare name */
other_operand
  : atom
  | compound
  | '{' vlist '}'                     { ptx_b_list(ps, &$$, L(@1), &$2, PO_VEC); }
  | '{' vlist '}' '|' expr            { ptx_opnd v; ptx_b_list(ps, &v, L(@1), &$2, PO_VEC); ptx_b_pair(ps, &$$, &v, &$5); }
  | '[' expr ']'                      { ptx_b_addr(ps, &$$, L(@1), &$2, NULL); }
  | '[' expr ',' vlist ']'            { ptx_b_addr(ps, &$$, L(@1), &$2, &$4); }
  | '(' ')'                           { ptx_oplist e = { ps->nops, 0 }; ptx_b_list(ps, &$$, L(@1), &e, PO_LIST); }
  | '(' operand ',' vlist ')'         { ptx_b_list_first(ps, &$$, L(@1), &$2, &$4); }
  ;

vlist
  : operand                           { ptx_b_ol_start(ps, &$$, &$1); }
  | vlist ',' operand                 { $$ = $1; ptx_b_ol_push(ps, &$$, &$3); }
  ;

expr
  : primary
  | compound
  ;

compound
  : '-' expr %prec UNARY              { ptx_b_unop(ps, &$$, L(@1), '-', &$2); }
  | '+' expr %prec UNARY              { ptx_b_unop(ps, &$$, L(@1), '+', &$2); }
  | '~' expr %prec UNARY              { ptx_b_unop(ps, &$$, L(@1), '~', &$2); }
  | '!' expr %prec UNARY              { ptx_b_unop(ps, &$$, L(@1), '!', &$2); }
  | expr '*' expr                     { ptx_b_binop(ps, &$$, L(@2), '*', &$1, &$3); }
  | expr '/' expr                     { ptx_b_binop(ps, &$$, L(@2), '/', &$1, &$3); }
  | expr '%' expr                     { ptx_b_binop(ps, &$$, L(@2), '%', &$1, &$3); }
  | expr '+' expr                     { ptx_b_binop(ps, &$$, L(@2), '+', &$1, &$3); }
  | expr '-' expr                     { ptx_b_binop(ps, &$$, L(@2), '-', &$1, &$3); }
  | expr SHL expr                     { ptx_b_binop(ps, &$$, L(@2), PTX_OP_SHL, &$1, &$3); }
  | expr SHR expr                     { ptx_b_binop(ps, &$$, L(@2), PTX_OP_SHR, &$1, &$3); }
  | expr '<' expr                     { ptx_b_binop(ps, &$$, L(@2), '<', &$1, &$3); }
  | expr '>' expr                     { ptx_b_binop(ps, &$$, L(@2), '>', &$1, &$3); }
  | expr LE expr                      { ptx_b_binop(ps, &$$, L(@2), PTX_OP_LE, &$1, &$3); }
  | expr GE expr                      { ptx_b_binop(ps, &$$, L(@2), PTX_OP_GE, &$1, &$3); }
  | expr EQ expr                      { ptx_b_binop(ps, &$$, L(@2), PTX_OP_EQ, &$1, &$3); }
  | expr NE expr                      { ptx_b_binop(ps, &$$, L(@2), PTX_OP_NE, &$1, &$3); }
  | expr '&' expr                     { ptx_b_binop(ps, &$$, L(@2), '&', &$1, &$3); }
  | expr '^' expr                     { ptx_b_binop(ps, &$$, L(@2), '^', &$1, &$3); }
  | expr '|' expr                     { ptx_b_binop(ps, &$$, L(@2), '|', &$1, &$3); }
  | expr ANDAND expr                  { ptx_b_binop(ps, &$$, L(@2), PTX_OP_ANDAND, &$1, &$3); }
  | expr OROR expr                    { ptx_b_binop(ps, &$$, L(@2), PTX_OP_OROR, &$1, &$3); }
  | expr '?' expr ':' expr            { ptx_b_cond(ps, &$$, &$1, &$3, &$5); }
  ;

primary
  : IDENT                             { ptx_b_name(ps, &$$, L(@1), $1.s, $1.n); }
  | DOTTED                            { ptx_b_name(ps, &$$, L(@1), $1.s, $1.n); }
  | atom
  ;

/* a primary that is not a bare name */
atom
  : INT                               { ptx_b_int(ps, &$$, L(@1), &$1); }
  | F32LIT                            { memset(&$$, 0, sizeof $$); $$.kind = PO_F32; $$.ival = $1; $$.loc = L(@1); }
  | F64LIT                            { memset(&$$, 0, sizeof $$); $$.kind = PO_F64; $$.ival = $1; $$.loc = L(@1); }
  | FLOATLIT                          { ptx_b_floatlit(ps, &$$, L(@1), $1.s, $1.n); }
  | '(' expr ')'                      { $$ = $2; $$.flags |= POF_PAREN; $$.loc = L(@1); }
  | IDENT '(' expr ')'                { ptx_b_generic(ps, &$$, L(@1), $1.s, $1.n, L(@2), &$3); }
  ;

%%

static void ptxyyerror(ptx_yyltype *loc, void *scanner, ptx_pstate *ps, const char *msg) {
  (void)scanner;
  /* the only other message bison has: its stack of YYMAXDEPTH (10000) open rules is full */
  if (strcmp(msg, "memory exhausted") == 0) msg = "nesting too deep (braces, parentheses or operators): the parser's stack is full";
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
