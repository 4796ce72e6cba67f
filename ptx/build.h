/* ptx/build.h - the parser's semantic actions: they turn grammar matches
 * into ast.h nodes.  Private to ptx/. */
#ifndef PTX_BUILD_H
#define PTX_BUILD_H
#include "ptx/parse_state.h"

/* Operators of two characters (the others are their character). */
enum { PTX_OP_SHL = 256, PTX_OP_SHR, PTX_OP_LE, PTX_OP_GE, PTX_OP_EQ, PTX_OP_NE, PTX_OP_ANDAND, PTX_OP_OROR };

const char *ptx_b_intern(ptx_pstate *ps, const char *s, uint32_t n);

/* module */
void ptx_b_version(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_version_int(ptx_pstate *ps, ptx_loc loc, uint64_t v);
void ptx_b_address_size(ptx_pstate *ps, ptx_loc loc, uint32_t bits);
uint32_t ptx_b_uint(ptx_pstate *ps, ptx_loc loc, const ptx_num *n);
void ptx_b_check_dims(ptx_pstate *ps, ptx_loc loc, const char *what, uint32_t limit);
void ptx_b_target(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_var_attribute(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_file(ptx_pstate *ps, ptx_loc loc, uint32_t id, const char *s, uint32_t n, uint64_t mtime, uint64_t size);
void ptx_b_mod_pragma(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_section(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_alias(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n, ptx_loc tloc, const char *t, uint32_t tn);
void ptx_b_mod_vars(ptx_pstate *ps, ptx_attrs *a, ptx_decllist *names);

/* declarations */
void ptx_b_attrs_start(ptx_attrs *a, ptx_loc loc);
void ptx_b_attr(ptx_attrs *a, uint32_t code);
ptx_decl *ptx_b_declname(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_dim(ptx_pstate *ps, ptx_decl *d, ptx_loc loc, uint32_t size, bool open);
void ptx_b_dl_push(ptx_pstate *ps, ptx_decllist *l, ptx_decl *d);
void ptx_b_param(ptx_pstate *ps, ptx_attrs *a, ptx_decl *d);
ptx_init *ptx_b_init_scalar(ptx_pstate *ps, const ptx_opnd *v);
ptx_init *ptx_b_init_list(ptx_pstate *ps, const ptx_initlist *l);
void ptx_b_il_push(ptx_pstate *ps, ptx_initlist *l, const ptx_init *v);

/* functions and their bodies */
ptx_func *ptx_b_func(ptx_pstate *ps, const ptx_attrs *a, bool entry, ptx_loc loc, const char *s, uint32_t n,
                     ptx_decllist *rets, ptx_decllist *params);
void ptx_b_func_end(ptx_pstate *ps, ptx_func *f, bool has_body);
void ptx_b_func_pragma(ptx_pstate *ps, const char *s, uint32_t n);
void ptx_b_local_vars(ptx_pstate *ps, ptx_attrs *a, ptx_decllist *names);
void ptx_b_label(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_targets(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n, ptx_oplist *names, int kind);
void ptx_b_callproto(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n, ptx_decllist *rets, ptx_decllist *params);
/* An instruction (ops NULL: none); its guard, if any, is ps->guard (then reset). */
void ptx_b_insn(ptx_pstate *ps, ptx_loc loc, const char *opname, uint32_t n, ptx_oplist *ops);
void ptx_b_loc(ptx_pstate *ps, ptx_loc loc, uint32_t file, uint32_t line, uint32_t col);
void ptx_b_loc_fname(ptx_pstate *ps, const char *s, uint32_t n);
void ptx_b_loc_inlined(ptx_pstate *ps, uint32_t file, uint32_t line, uint32_t col);
void ptx_b_pragma(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_scope(ptx_pstate *ps, ptx_loc loc, int kind);

/* operands */
void ptx_b_ol_start(ptx_pstate *ps, ptx_oplist *l, const ptx_opnd *o);
void ptx_b_ol_push(ptx_pstate *ps, ptx_oplist *l, const ptx_opnd *o);
void ptx_b_name(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_reg(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_sym(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_int(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const ptx_num *num);
void ptx_b_floatlit(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_generic(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n, ptx_loc paren, const ptx_opnd *arg);
void ptx_b_unop(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, int op, const ptx_opnd *a);
void ptx_b_binop(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, int op, const ptx_opnd *a, const ptx_opnd *b);
void ptx_b_cond(ptx_pstate *ps, ptx_opnd *o, const ptx_opnd *c, const ptx_opnd *a, const ptx_opnd *b);
void ptx_b_pair(ptx_pstate *ps, ptx_opnd *o, const ptx_opnd *a, const ptx_opnd *b);
void ptx_b_addr(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const ptx_opnd *base, ptx_oplist *extra);
void ptx_b_list(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, ptx_oplist *l, int kind);
void ptx_b_list_first(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const ptx_opnd *first, ptx_oplist *rest);

/* errors */
void ptx_b_syntax_error(ptx_pstate *ps, ptx_loc loc);
void ptx_b_recover(ptx_pstate *ps);
void ptx_b_recover_module(ptx_pstate *ps);
#endif
