/* ptx/build.h - the parser's semantic actions: they turn grammar matches
 * into ast.h nodes.  Private to ptx/. */
#ifndef PTX_BUILD_H
#define PTX_BUILD_H
#include "ptx/parse_state.h"

const char *ptx_b_intern(ptx_pstate *ps, const char *s, uint32_t n);
void ptx_b_version(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_version_int(ptx_pstate *ps, ptx_loc loc, uint64_t v);
void ptx_b_target(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_file(ptx_pstate *ps, ptx_loc loc, uint32_t id, const char *s, uint32_t n, uint64_t mtime, uint64_t size);
void ptx_b_mod_pragma(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_section(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_mod_vars(ptx_pstate *ps, ptx_attrs *a, ptx_decllist *names);
void ptx_b_local_vars(ptx_pstate *ps, ptx_attrs *a, ptx_decllist *names);
void ptx_b_func(ptx_pstate *ps, ptx_attrs *a, bool entry, ptx_loc loc, const char *s, uint32_t n,
                ptx_decllist *rets, ptx_decllist *params, ptx_perf *perf, bool has_body);
void ptx_b_body_start(ptx_pstate *ps);
void ptx_b_drop_body(ptx_pstate *ps);
void ptx_b_func_pragma(ptx_pstate *ps, const char *s, uint32_t n);
void ptx_b_attr(ptx_pstate *ps, ptx_attrs *a, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_declname(ptx_pstate *ps, ptx_decl *d, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_dim(ptx_pstate *ps, ptx_decl *d, ptx_loc loc, uint32_t size, bool open);
void ptx_b_dl_push(ptx_pstate *ps, ptx_decllist *l, ptx_decl *d);
void ptx_b_param(ptx_pstate *ps, ptx_decllist *l, ptx_attrs *a, ptx_decl *d);
ptx_init *ptx_b_init(ptx_pstate *ps, ptx_init *v);
void ptx_b_il_push(ptx_pstate *ps, ptx_initlist *l, ptx_init *v);
void ptx_b_label(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_targets(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n, ptx_oplist *names, int kind);
void ptx_b_callproto(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n, ptx_decllist *rets, ptx_decllist *params);
void ptx_b_insn(ptx_pstate *ps, ptx_opnd *opname, ptx_opnd *guard, ptx_oplist *ops);
void ptx_b_loc(ptx_pstate *ps, ptx_loc loc, uint32_t file, uint32_t line, uint32_t col);
void ptx_b_loc_fname(ptx_pstate *ps, const char *s, uint32_t n);
void ptx_b_loc_inlined(ptx_pstate *ps, uint32_t file, uint32_t line, uint32_t col);
void ptx_b_pragma(ptx_pstate *ps, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_scope(ptx_pstate *ps, ptx_loc loc, int kind);
void ptx_b_ol_push(ptx_pstate *ps, ptx_oplist *l, ptx_opnd *o);
void ptx_b_name(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_reg(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_sym(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n, int64_t off);
void ptx_b_pair(ptx_pstate *ps, ptx_opnd *o, ptx_opnd *a, ptx_opnd *b);
void ptx_b_negate(ptx_pstate *ps, ptx_opnd *o);
void ptx_b_addr(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, ptx_opnd *base, ptx_oplist *extra);
void ptx_b_list(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, ptx_oplist *l, int kind);
void ptx_b_floatlit(ptx_pstate *ps, ptx_opnd *o, ptx_loc loc, const char *s, uint32_t n);
void ptx_b_syntax_error(ptx_pstate *ps, ptx_loc loc);
#endif
