/* isa/isa.h - ptxemu's instruction set: the opcode table, the encoded form
 * of an assembled module, and the assembler/object-file/disassembler API.
 *
 * Invariants of an assembled module (checked once by the assembler so the
 * emulator need not):
 *  - every register operand names a slot < func->nregs, declared with a
 *    type whose width fits the instruction;
 *  - every label operand is a PC inside its function; every call names a
 *    function of the module (or an indirect target register);
 *  - every operand of kind OK_VEC/OK_LIST/OK_ADDRX points inside
 *    func->pool;
 *  - insn->op is a valid opcode and its modifiers were accepted by the
 *    table in opcodes.def.
 */
#ifndef ISA_ISA_H
#define ISA_ISA_H

#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include "ptx/ast.h"

/* ---- the table --------------------------------------------------------- */
enum isa_family { F_NONE, F_ARITH, F_BITS, F_SFU, F_CMP, F_LOGIC, F_MOV, F_CVT, F_MEM,
                  F_ATOM, F_CTRL, F_SYNC, F_WARP, F_ASYNC, F_MMA, F_TEX, F_VIDEO };
/* Functional units; U_ARITH resolves by type (isa_unit). */
enum isa_unit { U_ARITH, U_INT, U_FP16, U_FP32, U_FP64, U_SFU, U_CVT, U_LSU, U_ATOM,
                U_BRANCH, U_SYNC, U_TENSOR, U_TEX, U_MISC, U_COUNT };

/* Modifier groups (bit set per opcode). */
enum {
  G_RND = 1u << 0, G_IRND = 1u << 1, G_FTZ = 1u << 2, G_SAT = 1u << 3, G_APPROX = 1u << 4,
  G_HILO = 1u << 5, G_CC = 1u << 6, G_NAN = 1u << 7, G_RELU = 1u << 8, G_SHF = 1u << 9,
  G_CMP = 1u << 10, G_BOOL = 1u << 11, G_ATOMOP = 1u << 12, G_SPACE = 1u << 13,
  G_SEM = 1u << 14, G_SCOPE = 1u << 15, G_VEC = 1u << 16, G_CACHE = 1u << 17,
  G_UNI = 1u << 18, G_SYNC = 1u << 19, G_WARP = 1u << 20, G_PRMT = 1u << 21,
  G_BAR = 1u << 22, G_ASYNC = 1u << 23, G_FENCE = 1u << 24, G_MMA = 1u << 25,
  G_TEX = 1u << 26, G_TESTP = 1u << 27, G_TMAP = 1u << 28, G_MISC = 1u << 29,
  G_ANY = 0x3fffffffu
};

enum isa_op {
#define OP(id, name, fam, unit, ty, nops, sig, groups, sm, ptx) OP_##id,
#include "isa/opcodes.def"
#undef OP
  OP_COUNT
};

enum isa_mod {
  MOD_NONE,
#define MOD(id, s, g) MOD_##id,
#include "isa/mods.def"
#undef MOD
  MOD_COUNT,
  /* pattern modifiers: the value lives in isa_insn fields */
  MOD_SHAPE = MOD_COUNT,   /* .m16n8k16 -> shape_m/n/k                 */
  MOD_NUM_X,               /* .x1 .x2 .x4 (ldmatrix count) -> shape_m  */
  MOD_LIMIT
};

typedef struct isa_opinfo {
  const char *name;
  uint8_t family, unit;
  uint8_t types_min, types_max, nops_min, nops_max;
  const char *sig;
  uint32_t groups;
  uint16_t min_sm, min_ptx;      /* ptx as major*10+minor */
} isa_opinfo;

typedef struct isa_modinfo { const char *name; uint32_t group; } isa_modinfo;

extern const isa_opinfo isa_ops[OP_COUNT];
extern const isa_modinfo isa_mods[MOD_COUNT];

/* ---- encoded operands and instructions ---------------------------------- */
enum isa_opnd_kind {
  OK_NONE, OK_REG, OK_IMM, OK_SREG, OK_ADDR, OK_ADDRX, OK_SYM, OK_LABEL,
  OK_FUNC, OK_VEC, OK_LIST, OK_PAIR, OK_SINK, OK_TABLE
};

/* Flags of an operand. */
enum {
  OF_NEG = 1,        /* !%p                                                   */
  OF_F32 = 2,        /* immediate was written 0fXXXXXXXX                      */
  OF_F64 = 4,        /* immediate was 0d... or a decimal float                */
  OF_UNSIGNED = 8,   /* literal had U suffix                                  */
  OF_MODSYM = 16,    /* OK_ADDR/OK_SYM: v is a module symbol                   */
  OF_FUNCSYM = 32,   /* OK_ADDR/OK_SYM: v is a symbol local to the function    */
  OF_BASEREG = 64,   /* OK_ADDR: v is the base register                        */
  OF_GENERIC = 128,  /* generic(sym) in an initialiser                         */
  /* OK_REG source r+imm (ptxas reads the register plus imm, at the
   * register's width, before the instruction): imm is the offset.  The bit
   * of OF_F64, which only immediates carry. */
  OF_OFFSET = 4
};

/* 16 bytes.  Meaning of n and v per kind:
 *   REG    v = slot, n = component (0 none, 1..4 = .x .y .z .w, 5..8 = .b0..b3, 9/10 = .h0/.h1,
 *          ISA_COMP_SEL = a video selector of several lanes, in imm);
 *          imm = 0, the video extras below, or with OF_OFFSET the offset
 *   IMM    imm = value (f32 immediates as their bits, f64 as double bits)
 *   SREG   v = enum isa_sreg, n = component (0 none, 1 x, 2 y, 3 z)
 *   ADDR   flags say what v is (base register, module symbol, function
 *          symbol, or nothing for an absolute address); imm = offset
 *   ADDRX  v = pool index, n = count; pool[v] is an ADDR, the rest extra
 *          operands (texture coordinates)
 *   SYM    v = symbol (flags say which table), imm = offset
 *   LABEL  v = PC;  FUNC v = function index;  TABLE v = .branchtargets table
 *   VEC/LIST/PAIR  v = pool index, n = count                               */
typedef struct isa_opnd {
  uint8_t kind, flags;
  uint16_t n;
  uint32_t v;
  int64_t imm;
} isa_opnd;

/* Video instructions (vadd, vmad, vadd4 ...): a register source may be
 * negated (-%r1), and a register may carry a selector of several lanes
 * (.h10, .b3210, a destination mask .b20).  Both live in the REG operand's
 * imm: ISA_REG_MINUS, and with n == ISA_COMP_SEL the selector's kind ('b'
 * or 'h'), lane count and lanes in the order written. */
#define ISA_COMP_SEL 11
/* Operands 0..ISA_MAX_OFFSET_OPND-1 of an instruction may be r+imm (OF_OFFSET). */
#define ISA_MAX_OFFSET_OPND 8
#define ISA_REG_MINUS 1
#define ISA_SEL_MAKE(kind, nlanes) ((int64_t)(kind) << 8 | (int64_t)(nlanes) << 16)
#define ISA_SEL_KIND(imm) ((char)(((uint64_t)(imm) >> 8) & 0xff))
#define ISA_SEL_LANES(imm) ((unsigned)(((uint64_t)(imm) >> 16) & 0xf))
#define ISA_SEL_LANE(imm, i) ((unsigned)(((uint64_t)(imm) >> (20 + 4 * (i))) & 0xf))
#define ISA_SEL_SET_LANE(imm, i, v) ((imm) | (int64_t)(v) << (20 + 4 * (i)))

/* Decoded flags of an instruction (one bit per boolean modifier). */
enum {
  IF_FTZ = 1u << 0, IF_SAT = 1u << 1, IF_SATFINITE = 1u << 2, IF_APPROX = 1u << 3,
  IF_FULL = 1u << 4, IF_HI = 1u << 5, IF_LO = 1u << 6, IF_WIDE = 1u << 7,
  IF_CC = 1u << 8, IF_UNI = 1u << 9, IF_NAN = 1u << 10, IF_XORSIGN = 1u << 11,
  IF_ABS = 1u << 12, IF_RELU = 1u << 13, IF_VOLATILE = 1u << 14, IF_NC = 1u << 15,
  IF_ALIGNED = 1u << 16, IF_SYNC = 1u << 17, IF_SHIFTAMT = 1u << 18, IF_WRAP = 1u << 19,
  IF_CLAMP = 1u << 20, IF_TRANS = 1u << 21, IF_INTRND = 1u << 22, IF_TO = 1u << 23,
  IF_CACHE_HINT = 1u << 24, IF_PARITY = 1u << 25, IF_EXPECT_TX = 1u << 26,
  IF_NOFTZ = 1u << 27, IF_L = 1u << 28, IF_R = 1u << 29
};

enum isa_rnd { RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNA, RND_RS };

#define ISA_MAX_COMPS 14

typedef struct isa_insn {
  uint16_t op;                   /* enum isa_op                                 */
  uint8_t nops, ncomps;
  uint8_t type, type2, type3, type4;   /* type suffixes in order (ptx_type)      */
  uint8_t rnd, vec, shape_m, guard_neg;
  uint16_t cmp, bop, space, space2; /* enum isa_mod values; bop is the operation of
                                    atom/red/redux and the setp/set combiner     */
  uint16_t sem, scope, sub, cache;  /* sub: the opcode's sub-operation: shfl mode,
                                    vote mode, bar kind, prmt mode...            */
  uint16_t shape_n, shape_k;
  uint32_t flags;                /* IF_*                                         */
  int32_t guard;                 /* predicate slot or -1                         */
  uint32_t opi;                  /* first operand in func->ops                   */
  uint32_t line;                 /* PTX source line                              */
  uint32_t loc;                  /* index into func->locs + 1 (0: none)          */
  uint16_t col;
  uint16_t comps[ISA_MAX_COMPS]; /* modifiers in source order: ptx_type (< 64) or 64 + isa_mod */
} isa_insn;

#define ISA_COMP_MOD 64
/* Set on a modifier written after '::' instead of '.'
 * (mma.sp::ordered_metadata: opcode mma.sp, modifier ordered_metadata). */
#define ISA_COMP_JOINED 0x8000
/* Whether the instruction has modifier `mod` written with a '.'. */
static inline bool isa_has_mod(const isa_insn *in, int mod) {
  for (int i = 0; i < in->ncomps; i++) if (in->comps[i] == ISA_COMP_MOD + mod) return true;
  return false;
}

/* Special registers. */
#define ISA_SREGS(X) \
  X(TID, "%tid") X(NTID, "%ntid") X(LANEID, "%laneid") X(WARPID, "%warpid") \
  X(NWARPID, "%nwarpid") X(CTAID, "%ctaid") X(NCTAID, "%nctaid") X(SMID, "%smid") \
  X(NSMID, "%nsmid") X(GRIDID, "%gridid") X(LANEMASK_EQ, "%lanemask_eq") \
  X(LANEMASK_LE, "%lanemask_le") X(LANEMASK_LT, "%lanemask_lt") X(LANEMASK_GE, "%lanemask_ge") \
  X(LANEMASK_GT, "%lanemask_gt") X(CLOCK, "%clock") X(CLOCK_HI, "%clock_hi") \
  X(CLOCK64, "%clock64") X(GLOBALTIMER, "%globaltimer") X(GLOBALTIMER_LO, "%globaltimer_lo") \
  X(GLOBALTIMER_HI, "%globaltimer_hi") X(DYNAMIC_SMEM_SIZE, "%dynamic_smem_size") \
  X(TOTAL_SMEM_SIZE, "%total_smem_size") X(AGGR_SMEM_SIZE, "%aggr_smem_size") \
  X(CLUSTERID, "%clusterid") X(NCLUSTERID, "%nclusterid") X(CLUSTER_CTAID, "%cluster_ctaid") \
  X(CLUSTER_NCTAID, "%cluster_nctaid") X(CLUSTER_CTARANK, "%cluster_ctarank") \
  X(CLUSTER_NCTARANK, "%cluster_nctarank") X(IS_EXPLICIT_CLUSTER, "%is_explicit_cluster") \
  X(PM0, "%pm0") X(PM1, "%pm1") X(PM2, "%pm2") X(PM3, "%pm3") X(PM4, "%pm4") X(PM5, "%pm5") \
  X(PM6, "%pm6") X(PM7, "%pm7") X(PM0_64, "%pm0_64") X(PM1_64, "%pm1_64") X(PM2_64, "%pm2_64") \
  X(PM3_64, "%pm3_64") X(PM4_64, "%pm4_64") X(PM5_64, "%pm5_64") X(PM6_64, "%pm6_64") \
  X(PM7_64, "%pm7_64") X(ENVREG, "%envreg") X(RESERVED_SMEM_OFFSET_BEGIN, "%reserved_smem_offset_begin") \
  X(RESERVED_SMEM_OFFSET_END, "%reserved_smem_offset_end") X(RESERVED_SMEM_OFFSET_CAP, "%reserved_smem_offset_cap") \
  X(RESERVED_SMEM_OFFSET_0, "%reserved_smem_offset_0") X(RESERVED_SMEM_OFFSET_1, "%reserved_smem_offset_1") \
  X(CURRENT_GRAPH_EXEC, "%current_graph_exec")

enum isa_sreg {
#define X(id, s) SREG_##id,
  ISA_SREGS(X)
#undef X
  SREG_COUNT
};
extern const char *const isa_sreg_names[SREG_COUNT];

/* ---- module ------------------------------------------------------------- */

/* Symbol: module-level variable or function-local memory (.local/.param/.shared). */
typedef struct isa_reloc { uint64_t offset; uint32_t sym; uint8_t generic; int64_t addend; } isa_reloc;

typedef struct isa_sym {
  const char *name;
  uint8_t space, type, vec, linkage;
  uint8_t is_func, dim_open, is_ptr, ptr_space;
  uint32_t align, ptr_align;
  uint64_t size;            /* bytes (0 for open extern shared arrays)         */
  uint64_t offset;          /* params/locals: offset in their frame            */
  uint32_t func;            /* is_func: function index                         */
  uint32_t line;
  uint8_t *init;            /* size bytes when initialised, else NULL          */
  uint32_t nrelocs;         /* address initialisers patched at load time      */
  isa_reloc *relocs;
  uint32_t ndims;
  uint64_t dims[4];
  uint32_t nfields;         /* .texref/.samplerref/.surfref field initialisers */
  struct isa_field *fields;
} isa_sym;

/* Bytes an address initialiser writes: the low 32 bits of the address in
 * a .u32 variable, all 64 in a .u64 one (ptxas takes no other type). */
static inline uint32_t isa_reloc_bytes(const isa_sym *s) { return s->type == PTX_T_U32 ? 4u : 8u; }

/* Limits that the assembler, the object reader and the emulator share
 * (ptxas's where it has one): kernel parameter bytes; the local memory of a
 * thread, which also bounds a function's .param areas (ptxemu passes them
 * in the thread's stack); and one variable's size, far above any device
 * memory, so that sums of sizes stay well inside 64 bits. */
#define ISA_MAX_KERNEL_PARAMS 32764u
#define ISA_MAX_FRAME_BYTES (512u * 1024)
#define ISA_MAX_VAR_BYTES (1ull << 48)

/* A field initialiser of a texture, sampler or surface variable
 * ({ width = 64, filter_mode = linear }): a number, or a keyword in word. */
typedef struct isa_field { const char *name, *word; int64_t value; } isa_field;

/* A listing record: what the disassembler prints between instructions. */
enum isa_rec_kind { REC_LABEL, REC_REGS, REC_SYM, REC_OPEN, REC_CLOSE, REC_LOC, REC_PRAGMA,
                    REC_BRANCHTARGETS, REC_CALLTARGETS, REC_CALLPROTO,
                    REC_MSYM     /* a: module symbol declared in this body (static .shared,
                                    .global, .const: the module's variables list the
                                    module-scope ones first, then these in body order) */ };
/* REC_REGS b: the registers declared.  A single register: its slots (a
 * .v4 one has 4, the elements in order).  A range %r<N> has ISA_REGS_RANGE
 * set, N in the low 24 bits and the vector length of each member less one
 * above (".reg .v2 .b32 %v<3>": 3 members of 2 slots). */
#define ISA_REGS_RANGE 0x80000000u
#define ISA_REGS_VEC_SHIFT 24
#define ISA_REGS_COUNT(b) ((b) & ISA_REGS_RANGE ? (b) & 0xffffffu : (b))
#define ISA_REGS_VEC(b) ((b) & ISA_REGS_RANGE ? (((b) >> ISA_REGS_VEC_SHIFT) & 0x7fu) + 1 : 1)
#define ISA_REGS_SLOTS(b) ((uint64_t)ISA_REGS_COUNT(b) * ISA_REGS_VEC(b))
typedef struct isa_rec {
  uint8_t kind;
  uint32_t pc;              /* printed before instruction pc                   */
  uint32_t a, b;            /* REGS: first slot, count; SYM: func symbol; LABEL/TARGETS/PROTO: index */
  uint32_t line;            /* source line of the record                       */
  const char *name;         /* REGS: prefix of a %r<N> range; LABEL: name; PRAGMA: text */
} isa_rec;

typedef struct isa_locinfo {
  uint32_t file, line, col;
  const char *function_name;
  uint32_t in_file, in_line, in_col;
  bool inlined;
} isa_locinfo;

typedef struct isa_table { const char *name; uint32_t n; uint32_t *pcs; bool calls; } isa_table; /* .branchtargets / .calltargets */

typedef struct isa_func {
  const char *name;
  bool is_entry, has_body, is_proto;
  uint8_t linkage;
  uint32_t line;
  ptx_perf perf;
  uint32_t nrets, nparams;       /* first nrets syms are return params, then params */
  uint32_t nsyms;
  isa_sym *syms;                 /* params, returns, locals, scoped .param/.local/.shared */
  uint32_t ninsns;
  isa_insn *insns;
  uint32_t nops;
  isa_opnd *ops;                 /* top-level operands of all instructions     */
  uint32_t npool;
  isa_opnd *pool;                /* elements of vectors, lists, pairs          */
  uint32_t nregs;
  uint8_t *regtype;              /* ptx_type of each slot                      */
  const char **regname;          /* spelling of each slot                      */
  uint32_t nrecs;
  isa_rec *recs;
  uint32_t nlocs;
  isa_locinfo *locs;
  uint32_t ntables;
  isa_table *tables;
  uint32_t nlabels;
  const char **labels;           /* label names, index = label id */
  uint32_t *label_pc;
  const char **pragmas;
  uint32_t npragmas;
  /* resources (isa_resources) */
  uint32_t regs_used;            /* estimated physical 32-bit registers/thread */
  uint64_t local_bytes, param_bytes, shared_bytes;
  uint32_t alias_of;             /* .alias NAME, TARGET: 1 + TARGET's index (0: none);
                                    operands naming an alias already name its target */
} isa_func;

typedef struct isa_file { uint32_t id; const char *path; uint64_t mtime, size; } isa_file;

typedef struct isa_module {
  arena *arena;
  arena *strings;                /* names adopted from the parser (may be NULL) */
  const char *path;              /* PTX source path                           */
  uint32_t version;              /* major*10+minor                            */
  uint32_t sm; char sm_suffix;
  bool texmode_independent, debug;
  uint32_t address_size;
  uint32_t nfuncs;
  isa_func *funcs;
  uint32_t nsyms;
  isa_sym *syms;                 /* module-scope variables (and one per function, is_func) */
  uint32_t nfiles;
  isa_file *files;
  uint32_t nsections;
  const char **sections;
  const char **mpragmas;
  uint32_t nmpragmas;
} isa_module;

/* ---- API ------------------------------------------------------------------ */

/* Whether the decoded fields of an instruction (types, modifiers, flags,
 * shape) are exactly what its spelling (op and comps) decodes to: an
 * object's instructions are checked so, and nothing else can set them. */
bool isa_insn_canonical(const isa_insn *in);
/* Look up the opcode of a dotted spelling and decode its modifiers into
 * insn (op, types, comps, decoded fields).  Returns 0, or an error message
 * written to err (which names the offending part). */
int isa_decode_opname(const char *spelling, isa_insn *insn, char *err, size_t errlen);
/* Length of the first dotted component of an opcode name ("mbarrier" of
 * "mbarrier.init"): diagnostics name instructions by it. */
int isa_opcode_word_len(const char *name);
/* Print the dotted spelling of an instruction (inverse of decode). */
/* The high-level source position of an instruction (srcloc.c): from the
 * .loc in force and the module's .file table; false when it has none.
 * inlined_in names the function an inlined instruction came from, and
 * call_path:call_line the call site it was inlined at. */
typedef struct isa_source {
  const char *path; uint32_t line, col;
  const char *inlined_in, *call_path; uint32_t call_line;
} isa_source;
bool isa_source_pos(const isa_module *m, const isa_func *f, const isa_insn *in, isa_source *out);
const char *isa_file_path(const isa_module *m, uint32_t file_id);
const char *isa_path_base(const char *path);
int isa_format_opname(const isa_insn *insn, char *buf, size_t len);
/* Functional unit of an instruction (resolves U_ARITH by type). */
enum isa_unit isa_unit_of(const isa_insn *insn);
extern const char *const isa_unit_names[U_COUNT];
/* The SASS sequence ptxas makes of an instruction no GPU has a unit for
 * (integer division and remainder, IEEE-rounded division): its n
 * instructions, how many of them run on the integer ALU, on the
 * instruction's own pipe and on the quarter-rate unit (MUFU, conversions),
 * and how many of each of the last two lie on its dependent path. */
/* scaled: a special function scaling a denormal input and result around
 * its MUFU; its cost on the dependent path is gpu_config.sfu_denorm_cycles.
 * site: a called subroutine: its call site's instructions (argument and
 * result moves, the CALL) at each use, the other n - site (the body, with
 * its RET) once in the kernel's code, as subroutine `sub` (0: inline) */
typedef struct isa_sass_seq { uint8_t n, alu, math, xu, chain, xu_chain; bool scaled; uint8_t site, sub; } isa_sass_seq;
/* How many SASS instructions ptxas makes of a PTX instruction of f: 0 for
 * a copy register allocation removes, a sequence's length for a division
 * (which depends on whether its divisor is constant or loop-invariant in
 * f), 1 for most.  *seq (when seq is not NULL) gets the sequence, or NULL.
 * The timing model charges issue slots by it; traces record it so that
 * instruction counts can be compared with a profiler's (SASS) counts. */
uint32_t isa_sass_count(const isa_func *f, const isa_insn *in, const isa_sass_seq **seq);

/* Assemble a parsed module; diagnostics go to diag, in source order.
 * Returns NULL when there were errors (in parsing too). */
isa_module *isa_assemble(const ptx_module *m, ptx_diag *diag);
/* Parse and assemble PTX text in one pass: each function is assembled as
 * soon as it is read and its syntax tree dropped, which is faster and needs
 * a fraction of the memory.  buf[len] and buf[len + 1] must be NUL (as
 * ptx_read_file leaves them); the buffer is scanned in place and restored. */
isa_module *isa_assemble_ptx(char *buf, size_t len, const char *path, ptx_diag *diag);
void isa_module_free(isa_module *m);

/* Whether the first operand of an instruction is written (a destination). */
bool isa_writes_first(const isa_insn *insn);
/* The operand a writing instruction writes (operand 0 when
 * isa_writes_first) is a register, a sink, or a vector/pair of those: the
 * assembler and the object loader refuse anything else, so the emulator
 * never writes through an immediate or an address. */
bool isa_dest_writable(const isa_opnd *o, const isa_opnd *pool, uint32_t npool);

/* Estimate registers and memory of each function (like ptxas -v). */
void isa_resources(isa_module *m);
/* 32-bit register units a register of this ptx_type occupies (predicates
 * live in their own file: 0). */
unsigned isa_reg_units(uint8_t type);

/* Object files (.pxo): versioned, checksummed. */
int isa_write_object(const isa_module *m, const char *path, char *err, size_t errlen);
isa_module *isa_read_object(const char *path, char *err, size_t errlen);
isa_module *isa_read_object_mem(const uint8_t *data, size_t len, char *err, size_t errlen);

/* Disassemble to PTX text that assembles back to the same module. */
void isa_disassemble(const isa_module *m, FILE *out);

/* Lookup helpers. */
int isa_find_func(const isa_module *m, const char *name);
#endif
