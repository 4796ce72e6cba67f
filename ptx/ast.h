/* ptx/ast.h - the syntax tree of one PTX module, as the parser builds it.
 *
 * The tree is a faithful, unresolved picture of the text: names are strings,
 * opcodes are their full dotted spelling ("ld.global.v4.f32").  Meaning
 * (opcode table lookup, register binding, label resolution) is the
 * assembler's job in isa/.  Everything is allocated from one arena owned by
 * the module, so freeing a module is one call and parsing never frees.
 */
#ifndef PTX_AST_H
#define PTX_AST_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "util/arena.h"

typedef struct ptx_loc { uint32_t line, col; } ptx_loc;

/* Scalar types of PTX; order matters only for printing. */
#define PTX_TYPES(X) \
  X(NONE, "") X(PRED, "pred") \
  X(B8, "b8") X(B16, "b16") X(B32, "b32") X(B64, "b64") X(B128, "b128") \
  X(U8, "u8") X(U16, "u16") X(U32, "u32") X(U64, "u64") \
  X(S8, "s8") X(S16, "s16") X(S32, "s32") X(S64, "s64") \
  X(F16, "f16") X(F16X2, "f16x2") X(BF16, "bf16") X(BF16X2, "bf16x2") \
  X(TF32, "tf32") X(F32, "f32") X(F64, "f64") \
  X(E4M3, "e4m3") X(E5M2, "e5m2") X(E4M3X2, "e4m3x2") X(E5M2X2, "e5m2x2") \
  X(E2M1, "e2m1") X(E2M1X2, "e2m1x2") X(E2M3, "e2m3") X(E2M3X2, "e2m3x2") \
  X(E3M2, "e3m2") X(E3M2X2, "e3m2x2") X(UE8M0, "ue8m0") X(UE8M0X2, "ue8m0x2") \
  X(E4M3X4, "e4m3x4") X(E5M2X4, "e5m2x4") X(E2M1X4, "e2m1x4") \
  X(U16X2, "u16x2") X(S16X2, "s16x2") X(U4, "u4") X(S4, "s4") X(B1, "b1") \
  X(TEXREF, "texref") X(SAMPLERREF, "samplerref") X(SURFREF, "surfref")

enum ptx_type {
#define X(id, s) PTX_T_##id,
  PTX_TYPES(X)
#undef X
  PTX_T_COUNT
};

/* State spaces of declarations and instructions. */
#define PTX_SPACES(X) \
  X(NONE, "") X(REG, "reg") X(SREG, "sreg") X(CONST, "const") X(GLOBAL, "global") \
  X(LOCAL, "local") X(PARAM, "param") X(SHARED, "shared") X(TEX, "tex") \
  X(GENERIC, "generic")

enum ptx_space {
#define X(id, s) PTX_SPACE_##id,
  PTX_SPACES(X)
#undef X
  PTX_SPACE_COUNT
};

extern const char *const ptx_type_names[PTX_T_COUNT];
extern const char *const ptx_space_names[PTX_SPACE_COUNT];
/* Width in bits of a scalar type (0 for NONE, 1 for PRED). */
int ptx_type_bits(enum ptx_type t);
/* Type from its name without the dot ("f32"), or PTX_T_NONE. */
enum ptx_type ptx_type_from_name(const char *s, size_t n);

/* Linkage bits of a declaration. */
enum { PTX_LINK_VISIBLE = 1, PTX_LINK_EXTERN = 2, PTX_LINK_WEAK = 4, PTX_LINK_COMMON = 8 };

/* ---- operands -------------------------------------------------------- */
enum ptx_opnd_kind {
  PO_REG,     /* %r1, %tid.x (name holds the whole spelling); ival = +off   */
  PO_INT,     /* integer literal; ival holds the two's complement value     */
  PO_F32,     /* 0fXXXXXXXX: ival holds the bits                            */
  PO_F64,     /* 0dXXXX.. or decimal float literal: ival holds double bits  */
  PO_SYM,     /* identifier: label, function, variable, param; ival = +off  */
  PO_ADDR,    /* [base+off] / [off]; sub[0] is the base (REG/SYM/INT)       */
  PO_VEC,     /* {a, b, ...}                                                 */
  PO_PAIR,    /* a|b (setp, shfl second destination)                        */
  PO_LIST,    /* (a, b, ...) call argument lists                             */
  PO_SINK     /* _                                                           */
};

/* Flags of an operand. */
enum {
  POF_NEG = 1,         /* !%p on predicate operands                         */
  POF_MINUS = 2,       /* -%r1 (video instruction sources)                  */
  POF_UNSIGNED = 4,    /* integer constant is unsigned (U suffix, > INT64_MAX) */
  POF_GENERIC = 8,     /* generic(sym) in initialisers                       */
  POF_PAREN = 16,      /* written in parentheses: (r) is a one-element list
                          where an instruction takes a list (call)          */
  POF_OVERFLOW = 32,   /* integer literal beyond 64 bits: name is its text   */
  POF_INDEXED = 64,    /* REG %r12: name is the prefix "%r", idx the number  */
  POF_PLUS = 128       /* REG/SYM: an offset was added with '+' (name+expr is
                          the only form ptxas takes: then '-' may follow)   */
};

/* 32 bytes: name is the spelling of REG/SYM (and of an overflowing literal),
 * sub the elements of ADDR/VEC/PAIR/LIST.  A register spelt as a prefix and
 * a number (%r12, %rd3 - what %r<N> declares) keeps them apart, so neither
 * the parser nor the assembler handles the whole spelling; ptx_opnd_name
 * gives it back. */
typedef struct ptx_opnd {
  uint8_t kind;
  uint8_t flags;       /* POF_*                                              */
  uint16_t nsub;       /* sub-operands of ADDR/VEC/PAIR/LIST                 */
  ptx_loc loc;
  uint32_t idx;        /* POF_INDEXED: the register number                   */
  int64_t ival;        /* literal value or offset                            */
  union {
    const char *name;
    struct ptx_opnd *sub;
  };
} ptx_opnd;

/* ---- declarations ---------------------------------------------------- */
typedef struct ptx_init {      /* initialiser: scalar or brace list */
  bool is_list;
  uint32_t n;
  const char *field;           /* "name = value" item of a .texref/.samplerref/.surfref */
  ptx_loc field_loc;
  union { ptx_opnd scalar; struct ptx_init *items; } u;
} ptx_init;

typedef struct ptx_decl {
  ptx_loc loc;                 /* of the name                                */
  uint8_t space;               /* enum ptx_space                             */
  uint8_t type;                /* enum ptx_type                              */
  uint8_t vec;                 /* 1, 2, 4, 8                                 */
  uint8_t linkage;             /* PTX_LINK_*                                 */
  uint8_t ptr_space;           /* .ptr.<space> on kernel params              */
  bool is_ptr;
  bool has_range;              /* %r<N>                                      */
  uint8_t ndims;
  bool dim_open;               /* [] with no size (extern shared)            */
  uint32_t align;
  uint32_t ptr_align;
  uint32_t range;
  uint64_t dims[4];
  const char *name;
  ptx_init *init;
} ptx_decl;

/* ---- statements in a function body ----------------------------------- */
enum ptx_stmt_kind {
  PS_INSN, PS_LABEL, PS_DECL, PS_LOC, PS_PRAGMA, PS_OPEN, PS_CLOSE,
  PS_BRANCHTARGETS, PS_CALLTARGETS, PS_CALLPROTO
};

typedef struct ptx_insn {
  const char *opname;          /* full dotted spelling                       */
  ptx_opnd guard;              /* PO_REG (POF_NEG for @!p), or kind PO_SINK: none */
  uint16_t nops;
  ptx_opnd *ops;
} ptx_insn;

typedef struct ptx_locinfo {   /* .loc file line col [, function_name L, inlined_at f l c] */
  uint32_t file, line, col;
  const char *function_name;
  bool inlined;
  uint32_t in_file, in_line, in_col;
} ptx_locinfo;

struct ptx_func;

typedef struct ptx_stmt {
  uint8_t kind;
  ptx_loc loc;
  union {
    ptx_insn insn;
    const char *label;          /* PS_LABEL                                   */
    ptx_decl *decl;             /* PS_DECL (one name per statement)           */
    ptx_locinfo locinfo;        /* PS_LOC                                     */
    const char *pragma;         /* PS_PRAGMA: string contents without quotes  */
    struct { const char *label; uint32_t n; ptx_opnd *names; } targets; /* PS_*TARGETS */
    struct { const char *label; struct ptx_func *proto; } proto;        /* PS_CALLPROTO */
  } u;
} ptx_stmt;

/* Performance directives attached to a function header. */
typedef struct ptx_perf {
  uint32_t maxntid[3], reqntid[3], reqnctapercluster[3];
  uint32_t minnctapersm, maxnctapersm, maxnreg, maxclusterrank;
  bool explicitcluster, noreturn;
  uint8_t n_maxntid, n_reqntid, n_reqnctapercluster;
} ptx_perf;

typedef struct ptx_func {
  ptx_loc loc;
  const char *name;
  bool is_entry;
  bool has_body;               /* false for prototypes/declarations          */
  uint8_t linkage;
  uint32_t nrets, nparams;
  ptx_decl *rets, *params;
  ptx_perf perf;
  const char **pragmas;        /* .pragma strings after the header           */
  uint32_t npragmas;
  uint32_t nstmts;
  ptx_stmt *stmts;
} ptx_func;

enum ptx_mod_kind { PM_VAR, PM_FUNC, PM_FILE, PM_PRAGMA, PM_SECTION, PM_ALIAS };

typedef struct ptx_modstmt {
  uint8_t kind;
  ptx_loc loc;
  union {
    ptx_decl *var;
    ptx_func *func;
    struct { uint32_t id; const char *path; uint64_t mtime, size; } file;
    const char *pragma;
    const char *section;       /* name; contents are skipped */
    struct { const char *name, *target; ptx_loc target_loc; } alias;   /* .alias name, target; */
  } u;
} ptx_modstmt;

typedef struct ptx_module {
  arena *arena;                /* owns everything below                     */
  struct strtab *names;        /* the interned names, in their own arena; the
                                  assembler interns more and adopts the arena */
  const char *path;            /* for diagnostics                           */
  uint32_t version_major, version_minor;
  bool has_version, has_target;
  ptx_loc version_loc, target_loc;
  uint32_t sm;                 /* 90 for sm_90a                             */
  char sm_suffix;              /* 'a', 'f' or 0                             */
  bool texmode_independent, debug, map_f64_to_f32;
  uint32_t address_size;       /* 32 or 64                                  */
  uint32_t nstmts;
  ptx_modstmt *stmts;
  struct ptx_diag *diag;       /* flushed by ptx_module_free                 */
} ptx_module;

/* Diagnostics sink shared by parser and assembler: gcc style,
 * "file:line:col: error: message", followed by the source line and a caret. */
typedef struct ptx_diag {
  const char *path;
  const char *src;             /* whole source, for the quoted line          */
  size_t src_len;
  void *out;                   /* FILE*; NULL silences                       */
  uint32_t errors, warnings;
  uint32_t max_errors;         /* stop after this many (0: unlimited)        */
  /* private: while a module is parsed and assembled, diagnostics are held
   * and printed in source order by ptx_diag_flush (isa_assemble and
   * ptx_module_free flush; the first max_errors by position are kept) */
  bool hold;
  uint32_t nheld, capheld, seq;
  struct ptx_held *held;
} ptx_diag;

void ptx_error(ptx_diag *d, ptx_loc loc, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
void ptx_warning(ptx_diag *d, ptx_loc loc, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
/* Print the held diagnostics in source order (line, then column; equal
 * positions in the order reported) and stop holding. */
void ptx_diag_flush(ptx_diag *d);

/* Parse a whole PTX text.  Returns a module (possibly partial) and counts
 * errors in diag; NULL only on out-of-memory.  The text need not be
 * NUL-terminated: the scanner works on a copy. */
ptx_module *ptx_parse(const char *text, size_t len, const char *path, ptx_diag *diag);
/* The same without the copy: buf[len] and buf[len + 1] must be NUL (as
 * ptx_read_file leaves them).  The scanner writes into the buffer while it
 * works and restores it before returning. */
ptx_module *ptx_parse_buffer(char *buf, size_t len, const char *path, ptx_diag *diag);
void ptx_module_free(ptx_module *m);

/* Streaming: the consumer sees each module statement as soon as it is
 * complete (a function after its closing brace).  A function body - its
 * statements and all they point to - lives only during the call: the
 * parser reuses that memory for the next body, so a module is read in the
 * memory of its largest function.  The module returned has every
 * statement, with empty bodies. */
typedef struct ptx_consumer {
  void *ctx;
  void (*stmt)(void *ctx, const ptx_module *m, const ptx_modstmt *ms);
} ptx_consumer;
ptx_module *ptx_parse_stream(char *buf, size_t len, const char *path, ptx_diag *diag, const ptx_consumer *cons);

/* Hold the diagnostics of a module being read (ptx_parse does). */
void ptx_diag_hold(ptx_diag *d);

/* The spelling of a REG/SYM operand (buf is used for %r12 kept as prefix
 * and number). */
const char *ptx_opnd_name(const ptx_opnd *o, char *buf, size_t len);

/* Read a file whole; returns a malloc'd buffer followed by two NUL bytes
 * (len does not count them), or NULL with errno set: EFBIG for a file
 * (or the stream from a pipe or device) larger than the input cap. */
char *ptx_read_file(const char *path, size_t *len);
/* The input cap: 512 MiB unless set (ptxemu: PTXEMU_MAX_INPUT). */
#define PTX_DEFAULT_INPUT_CAP (512ull << 20)
void ptx_set_input_cap(uint64_t bytes);
uint64_t ptx_input_cap(void);

#endif
