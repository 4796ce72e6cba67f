/* emu/timing_insn.c - timing classes of instructions (see timing_insn.h). */
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"
#include "emu/timing.h"
#include "emu/timing_insn.h"
#include "emu/joins.h"
#include "emu/reorder.h"
#include "ptx/ast.h"

static uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }

static void add_row(int32_t *v, uint8_t *n, int row) { if (row >= 0 && *n < MAX_DEPS) v[(*n)++] = row; }

static void operand_rows(const emu *e, const xinsn *x, const isa_opnd *o, int32_t *v, uint8_t *n) {
  switch (o->kind) {
  case OK_REG: add_row(v, n, (o->flags & OF_OFFSET) ? emu_offset_src_row(e, x, o) : emu_row_of(e, x, o)); break;   /* r+imm depends on r */
  case OK_ADDR: if (o->flags & OF_BASEREG) add_row(v, n, emu_reg_row(e, x, o->v)); break;
  case OK_VEC: case OK_PAIR: case OK_ADDRX: case OK_LIST:
    for (uint32_t i = 0; i < o->n; i++) operand_rows(e, x, &x->f->pool[o->v + i], v, n);
    break;
  default: break;
  }
}

static uint32_t unit_latency(const gpu_config *g, int unit) {
  switch (unit) {
  case U_INT: return g->lat_int;
  case U_FP16: return g->lat_fp16;
  case U_FP32: return g->lat_fp32;
  case U_FP64: return g->lat_fp64;
  case U_SFU: return g->lat_sfu;
  case U_CVT: return g->lat_cvt;
  case U_BRANCH: case U_SYNC: return g->lat_branch;
  case U_TENSOR: return g->lat_tensor;
  case U_ATOM: return g->lat_atomic;
  default: return g->lat_int;
  }
}

uint32_t timing_unit_interval(const gpu_config *g, int unit) {
  switch (unit) {
  case U_FP16: return g->ii_fp16;
  case U_FP32: return g->ii_fp32;
  case U_FP64: return g->ii_fp64;
  case U_SFU: case U_CVT: return g->ii_sfu;
  case U_LSU: case U_ATOM: case U_TEX: return g->ii_lsu;
  case U_TENSOR: return g->ii_tensor;
  default: return g->ii_int;
  }
}

/* The pipe a conversion runs on, by the SASS sm_90 ptxas makes of it
 * ([S] sm_90 SASS of tests/microbench mb_cvt and of every validation
 * kernel; [M] mb_cvt on the H200, whose SMs are the H100's):
 *  - a 32-bit or narrower integer to f32: I2FP, on the ALU (a dependent
 *    chain 4.2 cycles a step; 2 warps a sub-partition with 8 chains each,
 *    1.9 cycles an I2FP: the ALU's rate; stalls `wait` and
 *    `math_pipe_throttle`);
 *  - f32 to f16 or bf16 (and their pairs): F2FP, on the ALU; f16 or bf16
 *    to f32: HADD2.F32, on the fp16 pipe; both lat_cvt (tools/calibrate's
 *    f32 -> f16 -> f32 chain: 5.05 cycles an instruction; mb_cvt: 2 warps
 *    a sub-partition take 2 cycles a pair, the ALU's F2FP);
 *  - integer to integer: kept on U_CVT as before sm_90.  The SASS makes
 *    PRMT, SGXT, LOP3 or SHF of them, or nothing (no I2I in any of it, for
 *    270 such cvt in the PTX), but on the ALU they expose what else the
 *    model lacks in the loops that have them (tests/microbench mb_ldc
 *    ldc_indep, 1 and 4 warps: -5 and -14 % -> -24 %; its SASS folds the
 *    cvt, the and.b64 and the add of the table's address into one LOP3 and
 *    the LDC's bank offset; doc/timing-validation.md);
 *  - f32 to f32 without rounding to an integer: FADD or FMUL;
 *  - the rest (float to integer, f64 on either side, 64-bit integers to
 *    float, rounding to an integer): F2I, F2F, I2F, FRND on the XU, which
 *    the MIO feeds, as the SFU's MUFU: ii_sfu, lat_sfu, waited for as
 *    `short_scoreboard`, throttled as `mio_throttle` (mb_cvt: an F2I chain
 *    16.8 cycles a step, f32 -> f64 -> f32 18.2 an F2F; 2 warps a
 *    sub-partition 7.5-8.2 cycles an instruction).
 * Before sm_90 every conversion keeps U_CVT (ii_sfu, lat_cvt, waited for
 * as `wait`).  *lat: the latency where it is not the unit's own (0). */
static bool int_type(int t) { return (t >= PTX_T_B8 && t <= PTX_T_B64) || (t >= PTX_T_U8 && t <= PTX_T_S64); }
static bool half_type(int t) { return t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F16X2 || t == PTX_T_BF16X2; }

static uint8_t cvt_unit(const gpu_config *g, const isa_insn *in, uint32_t *lat) {
  *lat = 0;
  if (g->sm_version < 90) return U_CVT;
  int d = in->type, a = in->type2;
  bool irnd = in->flags & IF_INTRND;
  if (int_type(d) && int_type(a)) return U_CVT;
  if (d == PTX_T_F32 && int_type(a) && ptx_type_bits((enum ptx_type)a) <= 32) return U_INT;
  if (half_type(d) && a == PTX_T_F32) { *lat = g->lat_cvt; return U_INT; }
  if (d == PTX_T_F32 && half_type(a)) { *lat = g->lat_cvt; return U_FP16; }
  if (d == PTX_T_F32 && a == PTX_T_F32 && !irnd) return U_FP32;
  return U_SFU;
}

static bool is_shared_space(uint16_t sp) { return sp == MOD_SHARED || sp == MOD_SHARED_CTA; }
/* Global or generic (no space named): an LDG/STG, or a generic access. */
static bool global_or_generic(uint16_t sp) { return sp == MOD_GLOBAL || sp == MOD_NONE; }
/* Global, local or generic: what goes through the L1's instruction queue. */
static bool l1_space(uint16_t sp) {
  return !is_shared_space(sp) && sp != MOD_SHARED_CLUSTER && sp != MOD_PARAM && sp != MOD_PARAM_ENTRY && sp != MOD_PARAM_FUNC &&
         sp != MOD_CONST && sp != MOD_TEX;
}

/* Tensor cores: lat_tensor / ii_tensor are for one m16n8k16 16-bit mma;
 * other shapes and types scale the interval with their work (m*n*k times
 * the bits of an A element; fp64 runs at a quarter of that rate), and the
 * latency grows by the same amount, or shrinks by twice what the interval
 * saves ([M] tests/microbench mb_mma: a dependent m16n8k8 f16 chain takes
 * 20 cycles a step, m16n8k16 28).  fp64 (m8n8k4 DMMA) takes lat_tensor:
 * its lower rate is in the interval only (mb_mma: dependent chains as fast
 * as m16n8k16's).  A wgmma is spread over the four warps of its
 * warpgroup, each on its own sub-partition. */
static void tensor_timing(const gpu_config *g, const isa_insn *in, deps *d) {
  if (in->op != OP_MMA && in->op != OP_MMA_SP && in->op != OP_WMMA_MMA && in->op != OP_WGMMA_MMA_ASYNC) return;
  uint32_t m = in->shape_m ? in->shape_m : 16, n = in->shape_n ? in->shape_n : 8, k = in->shape_k ? in->shape_k : 16;
  int bits = in->type2 ? ptx_type_bits(in->type2) : 16;
  if (bits <= 0 || (in->op == OP_WMMA_MMA && bits == 32)) bits = 16;   /* wmma names only C and D types */
  double work = (double)m * n * k * bits / (16.0 * 8 * 16 * 16);
  if (bits == 64) work *= 4;
  if (in->op == OP_WGMMA_MMA_ASYNC) work /= 4;
  double ii = g->ii_tensor * work;
  /* fp64 has a rate of its own where measured: ii_tensor_f64 an m8n8k4 */
  if (bits == 64 && g->ii_tensor_f64) ii = g->ii_tensor_f64 * ((double)m * n * k / (8 * 8 * 4));
  d->ii = ii < 1 ? 1 : (uint32_t)(ii + 0.5);
  /* a DMMA's result is waited for on the scoreboard: the stretch its own
   * pipe hold covers is `wait`, the rest `short_scoreboard` ([M]
   * tests/microbench mb_mma, a dependent m8n8k4 fp64 chain: 51 % wait,
   * 39 % short_scoreboard, 8 % selected) */
  if (bits == 64) { d->lat = g->lat_tensor; d->result_why = STALL_SHORT_SCOREBOARD; }
  else if (d->ii >= g->ii_tensor) d->lat = g->lat_tensor + (d->ii - g->ii_tensor);
  else if (in->op == OP_WGMMA_MMA_ASYNC) d->lat = g->lat_tensor;
  else {
    /* a smaller shape: lat_tensor_work of the latency scales with the work
     * (where measured), else it shrinks by twice what the interval saves */
    double saved = g->lat_tensor_work ? g->lat_tensor_work * (1 - work) : 2.0 * (g->ii_tensor - d->ii);
    d->lat = g->lat_tensor > saved + 1 ? (uint32_t)(g->lat_tensor - saved + 0.5) : 1;
  }
}

/* Operand collection: a sub-partition's register file has reg_banks banks,
 * register row r in bank r % reg_banks (rows number a function's registers
 * in declaration order, each vector element its own); each bank delivers
 * reg_bank_ports sources per cycle, so the most-loaded bank's extra reads
 * are extra cycles before the instruction reaches its unit.  Tensor
 * instructions are left out: their operand reads are part of their
 * measured latency and interval. */
static uint8_t bank_conflicts(const gpu_config *g, const deps *d, int guard_row, const uint8_t *folded) {
  uint8_t count[32] = {0}, worst = 0;
  for (uint8_t i = 0; i < d->nsrc; i++) {
    int32_t r = d->src[i];
    if (r == guard_row) continue;
    if (folded && r >= 0 && folded[r]) continue;    /* an immediate operand in SASS: no register read */
    bool dup = false;
    for (uint8_t j = 0; j < i; j++) if (d->src[j] == r) dup = true;
    if (dup) continue;
    uint8_t b = (uint8_t)((uint32_t)r % g->reg_banks);
    if (++count[b] > worst) worst = count[b];
  }
  uint32_t ports = g->reg_bank_ports ? g->reg_bank_ports : 1, cycles = (worst + ports - 1) / ports;
  return cycles > 1 ? (uint8_t)(cycles - 1) : 0;
}

static bool is_wgmma(uint16_t op) { return op == OP_WGMMA_MMA_ASYNC || op == OP_WGMMA_COMMIT_GROUP || op == OP_WGMMA_WAIT_GROUP; }
static bool is_bulk_group(uint16_t op) {
  return op == OP_CP_ASYNC_BULK || op == OP_CP_REDUCE_ASYNC_BULK || op == OP_CP_ASYNC_BULK_TENSOR ||
         op == OP_CP_REDUCE_ASYNC_BULK_TENSOR || op == OP_CP_ASYNC_BULK_COMMIT_GROUP || op == OP_CP_ASYNC_BULK_WAIT_GROUP;
}

static bool has_row(const int32_t *v, uint8_t n, int32_t row) {
  for (uint8_t i = 0; i < n; i++) if (v[i] == row) return true;
  return false;
}

/* Instructions of [lo, hi] other than skip1, skip2 that read row. */
static bool row_read_elsewhere(const deps *dep, uint32_t lo, uint32_t hi, int32_t row, uint32_t skip1, uint32_t skip2) {
  for (uint32_t i = lo; i <= hi; i++) if (i != skip1 && i != skip2 && has_row(dep[i].src, dep[i].nsrc, row)) return true;
  return false;
}

/* The loops ptxas unrolls (enum loop_role): the back-edge branch at pc, its
 * loop [target, pc] a single block of at most unroll_max_insns SASS
 * instructions, a plain global (or generic) load counted as
 * unroll_load_cost of one ([S] tools/sass/unroll_sweep.py; its loops of
 * shared loads, unrolled up to 32 LDS and 32 FFMAs, are not modelled);
 * the guard of the branch set by a setp that only it reads; one of the
 * setp's sources an induction variable that the loop updates
 * once, by an immediate (add/sub r, r, imm), and reads nowhere else.  A
 * loop stepped by a register (a grid-stride loop) has no trip count ptxas
 * can compute and stays as it is (val_stencil's init: 40 SASS instructions),
 * and so does one after .pragma "nounroll" (golden timing_fma_latency). */
static bool pragma_nounroll(const emu *e, const isa_func *f, uint32_t pc) {
  uint32_t fi = (uint32_t)(f - e->m->funcs);
  if (fi >= e->m->nfuncs || e->func_base[fi] == UINT32_MAX || pc < e->func_base[fi]) return false;
  for (uint32_t i = 0; i < f->nrecs; i++)
    if (f->recs[i].kind == REC_PRAGMA && f->recs[i].pc == pc - e->func_base[fi] && f->recs[i].name && strstr(f->recs[i].name, "nounroll"))
      return true;
  return false;
}

static bool plain_load(const isa_insn *in);

static void mark_unrolled_loop(const emu *e, deps *dep, uint32_t pc, uint32_t max_insns, double load_cost) {
  const xinsn *b = &e->prog[pc];
  uint32_t lo = b->target, cmp = UINT32_MAX;
  double body = 0;
  if (b->in->op != OP_BRA || b->guard < 0 || lo >= pc || pragma_nounroll(e, b->f, lo)) return;
  /* (a body of max_insns SASS instructions is not many times longer in
   * PTX: a program of many long loops stays linear here) */
  if (pc - lo > 4 * max_insns + 64) return;
  for (uint32_t i = lo; i < pc; i++) {
    const xinsn *x = &e->prog[i];
    /* nor a loop with a special function in it (sm_90 SASS of mb_pipe
     * pipe_sfu_ilp1, _ilp2: 11 and 18 instructions a trip, not unrolled,
     * where pipe_f32_ilp1's 7 are, four times) */
    /* (a CTA barrier does not stop it: sm_90 SASS of mb_vary vbar_only,
     * 16 BARs a trip for the PTX's 4) */
    if (x->f != b->f || ((x->flags & XF_CONTROL) && !dep[i].cta_bar) || dep[i].unit == U_SFU) return;
    if (has_row(dep[i].dst, dep[i].ndst, b->guard)) cmp = i;
    /* a global load weighs less in ptxas's measure of a body: a loop of
     * 14 loads and 14 FFMAs is unrolled where one of 20 FFMAs is not */
    body += plain_load(x->in) && global_or_generic(x->in->space) ? load_cost * deps_sass(&dep[i]) : deps_sass(&dep[i]);
  }
  if (body + 1 > max_insns || cmp == UINT32_MAX || e->prog[cmp].in->op != OP_SETP || e->prog[cmp].guard >= 0 ||
      row_read_elsewhere(dep, lo, pc, b->guard, pc, pc)) return;
  for (uint8_t k = 0; k < dep[cmp].nsrc; k++) {
    int32_t r = dep[cmp].src[k];
    uint32_t upd = UINT32_MAX, writers = 0;
    for (uint32_t i = lo; i < pc; i++) if (has_row(dep[i].dst, dep[i].ndst, r)) { writers++; upd = i; }
    if (writers != 1) continue;
    const xinsn *u = &e->prog[upd];
    const isa_opnd *ops = &u->f->ops[u->in->opi];
    if ((u->in->op != OP_ADD && u->in->op != OP_SUB) || u->guard >= 0 || u->in->nops != 3 || ops[2].kind != OK_IMM ||
        !has_row(dep[upd].src, dep[upd].nsrc, r) || row_read_elsewhere(dep, lo, pc, r, cmp, upd)) continue;
    dep[upd].loop = dep[cmp].loop = LOOP_CONTROL;
    dep[upd].loop_end = dep[cmp].loop_end = dep[pc].loop_end = pc;
    dep[pc].loop = LOOP_BACKEDGE;
    return;
  }
}

/* Special registers S2R or S2UR reads (lat_s2r). */
static bool s2r_sreg(uint32_t v) {
  switch (v) {
  case SREG_TID: case SREG_CTAID: case SREG_LANEID: case SREG_WARPID: case SREG_SMID:
  case SREG_LANEMASK_EQ: case SREG_LANEMASK_LE: case SREG_LANEMASK_LT: case SREG_LANEMASK_GE: case SREG_LANEMASK_GT:
  case SREG_CLUSTERID: case SREG_CLUSTER_CTAID: case SREG_CLUSTER_CTARANK:
    return true;
  default:
    return false;
  }
}

/* The special register a `mov r, %sreg` reads; NULL for other instructions. */
static const isa_opnd *moved_sreg(const xinsn *x) {
  const isa_insn *in = x->in;
  if (in->op != OP_MOV || in->nops != 2) return NULL;
  const isa_opnd *o = &x->f->ops[in->opi + 1];
  return o->kind == OK_SREG ? o : NULL;
}

/* %warpid and %smid may change while the thread runs (PTX ISA): ptxas
 * reads them again on every trip of a loop ([S] mb_sreg sreg_1, sreg_smid:
 * S2R SR_VIRTID, SR_VIRTUALSMID in the loop; %laneid, %tid hoisted). */
static bool volatile_sreg_move(const xinsn *x) {
  const isa_opnd *o = moved_sreg(x);
  return o && (o->v == SREG_WARPID || o->v == SREG_SMID);
}

/* The math pipes, whose results come after a fixed latency. */
static bool math_pipe(uint8_t unit) {
  return unit == U_INT || unit == U_FP32 || unit == U_FP16 || unit == U_FP64 || unit == U_CVT;
}

/* Loop-invariant code motion: ptxas computes before the loop an arithmetic,
 * logic, compare or conversion instruction of its body whose operands
 * nothing in the body writes (or only such instructions): in the body it
 * issues nothing ([S] sm_90 SASS of tests/microbench mb_div div_2: the
 * loop's setp of the lane's path is one ISETP before the loop). */
static bool invariant_kind(const xinsn *x, const deps *d) {
  uint8_t f = isa_ops[x->in->op].family;
  return x->guard < 0 && !d->free && d->ndst > 0 && d->ndst < MAX_DEPS && d->nsrc < MAX_DEPS && !(x->flags & (XF_CONTROL | XF_CLOCK)) &&
         !volatile_sreg_move(x) &&
         !(x->in->flags & IF_CC) && d->kind == DK_PLAIN &&
         (f == F_ARITH || f == F_BITS || f == F_CMP || f == F_LOGIC || f == F_MOV || f == F_CVT) && math_pipe(d->unit);
}

/* a move of an immediate: free, and the same every trip */
static bool imm_move(const xinsn *x) {
  const isa_insn *in = x->in;
  return in->op == OP_MOV && x->guard < 0 && in->nops == 2 && x->f->ops[in->opi + 1].kind == OK_IMM;
}

/* left[row]: the body's writers of the row not (yet) known invariant; the
 * caller's array of e->nrows, all zero, and zero again on return.  *work
 * counts the instructions looked at, at most max_work over a program (a
 * program of many long loops, as hostile input may be, stays linear). */
static void mark_invariant(const emu *e, deps *dep, uint32_t pc, uint8_t *inv, uint32_t *left, uint64_t *work, uint64_t max_work,
                           uint32_t max_preds) {
  const xinsn *b = &e->prog[pc];
  uint32_t lo = b->target;
  if (b->in->op != OP_BRA || lo >= pc) return;
  if ((*work += 10 * (uint64_t)(pc - lo + 1)) > max_work) return;
  /* the body is [lo, pc]: no branch in it leaves it (a block placed after
   * the loop and jumping back would be body too) */
  for (uint32_t i = lo; i <= pc; i++) {
    const xinsn *x = &e->prog[i];
    uint32_t op = x->in->op;
    if (x->f != b->f || (i < pc && op == OP_BRA && (x->target < lo || x->target > pc + 1)) ||
        op == OP_BRX_IDX || op == OP_CALL || op == OP_RET || op == OP_EXIT) return;
  }
  for (uint32_t i = lo; i <= pc; i++) {
    inv[i] = 0;
    for (uint8_t k = 0; k < dep[i].ndst; k++) left[dep[i].dst[k]]++;
  }
  /* an instruction is invariant when the body writes none of the rows it
   * reads but with invariant instructions (an immediate's move is one) and
   * it is the only writer of its own; each pass may make the instructions
   * that read the last one's results invariant (a chain of at most 8) */
  for (uint32_t i = lo; i < pc; i++)
    if (imm_move(&e->prog[i])) { inv[i] = 1; for (uint8_t k = 0; k < dep[i].ndst; k++) left[dep[i].dst[k]]--; }
  bool more = true;
  for (uint32_t pass = 0; pass < 8 && more; pass++) {
    more = false;
    for (uint32_t i = lo; i < pc; i++) {
      if (inv[i] || !invariant_kind(&e->prog[i], &dep[i])) continue;
      bool ok = true;
      for (uint8_t k = 0; k < dep[i].nsrc && ok; k++) ok = left[dep[i].src[k]] == 0;
      for (uint8_t k = 0; k < dep[i].ndst && ok; k++) ok = left[dep[i].dst[k]] == 1;
      if (!ok) continue;
      inv[i] = 1;
      more = true;
      for (uint8_t k = 0; k < dep[i].ndst; k++) left[dep[i].dst[k]]--;
    }
  }
  /* a hoisted compare's predicate stays live through the loop: ptxas
   * hoists only the first hoist_predicates of them ([S] sm_90 SASS of
   * tests/microbench mb_div: div_2's one setp of the lane's path before the
   * loop, div_4's 3 and div_8's 10 (a compare tree) each one, the others
   * an ISETP in the loop, 13 cycles before its BRA) */
  uint32_t preds = 0;
  for (uint32_t i = lo; i <= pc; i++) {
    for (uint8_t k = 0; k < dep[i].ndst; k++) left[dep[i].dst[k]] = 0;
    if (i < pc && inv[i] && e->prog[i].in->op == OP_SETP && preds++ >= max_preds) inv[i] = 0;
    if (i < pc && inv[i] && !imm_move(&e->prog[i])) { dep[i].free = true; dep[i].lat = 0; dep[i].bank_extra = 0; dep[i].slots = 1; }
  }
}

/* The functions kernel kfunc can reach, kfunc first, then those it calls
 * (directly or through them) in the order the calls are met; all device
 * functions where it calls indirectly.  order: m->nfuncs places.  Returns
 * how many; 0 out of memory. */
static uint32_t reachable_funcs(const emu *e, uint32_t kfunc, uint32_t *order) {
  const isa_module *m = e->m;
  uint8_t *want = calloc(m->nfuncs ? m->nfuncs : 1, 1);
  if (!want || kfunc >= m->nfuncs) { free(want); return 0; }
  uint32_t n = 0;
  bool indirect = false;
  want[kfunc] = 1;
  order[n++] = kfunc;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t fi = order[k];
    if (e->func_base[fi] == UINT32_MAX) continue;
    for (uint32_t pc = e->func_base[fi]; pc < e->nprog && e->prog[pc].f == &m->funcs[fi]; pc++) {
      const xinsn *x = &e->prog[pc];
      if (x->in->op != OP_CALL) continue;
      call_ops c = emu_call_operands(x);
      if (c.tgt->kind == OK_FUNC) {
        if (c.tgt->v < m->nfuncs && !want[c.tgt->v]) { want[c.tgt->v] = 1; order[n++] = c.tgt->v; }
        continue;
      }
      /* an indirect call may reach any device function: queue them all once,
       * not once per call (linear in the module) */
      if (indirect) continue;
      indirect = true;
      for (uint32_t f = 0; f < m->nfuncs; f++)
        if (!m->funcs[f].is_entry && !want[f]) { want[f] = 1; order[n++] = f; }
    }
  }
  free(want);
  return n;
}

/* The SASS instructions of pc's PTX instruction in the kernel's code: a
 * called subroutine's call site (its body is there once: *subs gets its
 * bit). */
static uint64_t code_sass(const emu *e, const deps *dep, uint32_t pc, uint32_t *subs, uint64_t *body) {
  const isa_sass_seq *sq = NULL;
  uint64_t n = deps_sass(&dep[pc]);
  if (n) isa_sass_count(e->prog[pc].f, e->prog[pc].in, &sq);
  if (!sq || !sq->sub || n < sq->n) return n;
  if (!(*subs >> sq->sub & 1)) { *subs |= 1u << sq->sub; *body += (uint64_t)sq->n - sq->site; }
  return sq->site;
}

/* ... one instruction's, placed at SASS instruction *n */
static void code_place(const emu *e, const gpu_config *g, deps *dep, uint32_t pc, uint64_t *n, uint32_t *subs, uint64_t *body) {
  dep[pc].code_at = *n < UINT32_MAX ? (uint32_t)*n : UINT32_MAX;
  *n += code_sass(e, dep, pc, subs, body) + (dep[pc].defer != 0);   /* (the LDC of a deferred parameter: at its use) */
  if (dep[pc].loop != LOOP_BACKEDGE || g->unroll_factor < 2) return;
  for (uint32_t i = e->prog[pc].target; i <= pc; i++) *n += code_sass(e, dep, i, subs, body) * g->unroll_factor;
}

uint64_t timing_code_bytes(const emu *e, const gpu_config *g, deps *dep, uint32_t kfunc) {
  uint64_t n = 0, body = 0;
  uint32_t subs = 0;
  const isa_module *m = e->m;
  uint8_t *placed = calloc(e->nprog ? e->nprog : 1, 1);
  uint32_t *order = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *order);
  uint32_t nf = placed && order ? reachable_funcs(e, kfunc, order) : 0;
  for (uint32_t k = 0; k < nf; k++) {
    uint32_t fi = order[k];
    if (e->func_base[fi] == UINT32_MAX) continue;
    for (uint32_t pc = e->func_base[fi]; pc < e->nprog && e->prog[pc].f == &m->funcs[fi]; pc++) {
      code_place(e, g, dep, pc, &n, &subs, &body);
      placed[pc] = 1;
    }
  }
  /* the rest of the module after them (out of memory: all of it in order) */
  for (uint32_t pc = 0; pc < e->nprog; pc++) if (!placed || !placed[pc]) code_place(e, g, dep, pc, &n, &subs, &body);
  free(placed);
  free(order);
  return (n + body) * g->insn_bytes;
}

/* If-conversion: ptxas replaces a short if or if/else by predicated
 * code: its branches are no instructions, its paths no divergence
 * (timing.c).  The shapes: '@p bra T; THEN T:', '@p bra T; THEN bra J;
 * T: ELSE J:' and '@p bra T; bra E; T: THEN bra J; E: ELSE J:', THEN and
 * ELSE straight-line code of at most max_if SASS instructions (an if) or
 * max_else together (an if/else: ptxas computes both paths and selects,
 * where a branch would cost two jumps and a reconvergence; [S]
 * tools/sass/ifconv_sweep.py).  Marks the branches with the join's PC. */
static bool straight(const emu *e, const deps *dep, const isa_func *f, uint32_t lo, uint32_t hi, uint32_t *n) {
  for (uint32_t i = lo; i < hi; i++) {
    if (e->prog[i].f != f || (e->prog[i].flags & XF_CONTROL)) return false;
    *n += deps_sass(&dep[i]);
  }
  return true;
}

static bool is_jump(const xinsn *x, uint32_t pc, uint32_t np) {
  return x->in->op == OP_BRA && x->guard < 0 && x->target > pc && x->target < np;
}

/* Whether row r is among the dst of dep[lo, hi). */
static bool writes_row(const deps *dep, uint32_t lo, uint32_t hi, int32_t r) {
  for (uint32_t i = lo; i < hi; i++)
    for (uint8_t k = 0; k < dep[i].ndst; k++) if (dep[i].dst[k] == r) return true;
  return false;
}

/* An if/else ptxas predicates, paths [a0, a1) and [b0, b1) (head: its
 * first branch): ptxas computes both from the registers as they were
 * before the if/else (the second path's writes renamed) and selects at
 * the join, so neither path waits for the other ([S] the sm_90 SASS of
 * tests/microbench mb_div div_2: the two paths' FFMA chains interleaved,
 * 32 FFMAs a trip).  Marks each path's reads of rows the other writes,
 * before it writes them itself (read as they were, ifc_src), and its
 * first and last writes of rows both write (the join waits for both,
 * ifc_first, ifc_last); the head keeps the rows' list (at most IFC_ROWS,
 * else nothing is marked). */
static void mark_two_paths(deps *dep, uint32_t head, uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1) {
  int32_t w[IFC_ROWS];
  uint32_t nw = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int side = 0; side < 2; side++) {
      uint32_t lo = side ? b0 : a0, hi = side ? b1 : a1, olo = side ? a0 : b0, ohi = side ? a1 : b1;
      for (uint32_t i = lo; i < hi; i++) {
        deps *d = &dep[i];
        for (uint8_t k = 0; k < d->nsrc; k++) {
          int32_t r = d->src[k];
          if (r < 0 || !writes_row(dep, olo, ohi, r) || writes_row(dep, lo, i, r)) continue;
          uint32_t j = 0;
          while (j < nw && w[j] != r) j++;
          if (j == nw) { if (nw == IFC_ROWS) return; w[nw++] = r; }
          if (pass) d->ifc_src |= (uint16_t)(1u << k);
        }
        for (uint8_t k = 0; k < d->ndst; k++) {
          int32_t r = d->dst[k];
          if (r < 0 || !writes_row(dep, olo, ohi, r)) continue;
          uint32_t j = 0;
          while (j < nw && w[j] != r) j++;
          if (j == nw) { if (nw == IFC_ROWS) return; w[nw++] = r; }
          if (pass && !writes_row(dep, lo, i, r)) d->ifc_first |= (uint16_t)(1u << k);
          if (pass && !writes_row(dep, i + 1, hi, r)) d->ifc_last |= (uint16_t)(1u << k);
        }
      }
    }
  dep[head].ifc_nw = (uint8_t)nw;
  memcpy(dep[head].ifc_w, w, nw * sizeof *w);
}

static void mark_ifconvert(const emu *e, deps *dep, uint32_t pc, uint32_t max_if, uint32_t max_else) {
  const xinsn *b = &e->prog[pc];
  uint32_t np = e->nprog, n = 0, then = pc + 1, t = b->target, join, max_insns = max_if;
  if (b->in->op != OP_BRA || b->guard < 0 || t <= pc || t >= np) return;
  if (t == pc + 2 && is_jump(&e->prog[pc + 1], pc + 1, np)) { then = t; t = e->prog[pc + 1].target; }   /* inverted */
  if (t <= then) return;
  const xinsn *last = &e->prog[t - 1];
  if (t - 1 > then && is_jump(last, t - 1, np)) {
    join = last->target;
    if (!straight(e, dep, b->f, then, t - 1, &n) || !straight(e, dep, b->f, t, join, &n)) return;
    if (max_else) max_insns = max_else;
  } else {
    join = t;
    if (!straight(e, dep, b->f, then, t, &n)) return;
  }
  if (n > max_insns) return;
  for (uint32_t i = pc; i < join; i++)
    if (e->prog[i].in->op == OP_BRA) { dep[i].ifconv_end = join; dep[i].free = true; dep[i].kind = DK_PLAIN; dep[i].lat = 0; }
  if (join != t) mark_two_paths(dep, pc, then, t - 1, t, join);
}

/* Whether an instruction of pc's function before pc moves special register
 * `sreg` of dimension n into a register.  [S] ptxas sm_90, every kernel of
 * tests/microbench and tests/validation that multiplies %ctaid.x by
 * %ntid.x (142 of 142): %ctaid read first, S2UR and LDC of %ntid; %ntid
 * first, S2R and ULDC. */
static bool sreg_read_before(const emu *e, uint32_t pc, uint32_t sreg, uint32_t n) {
  const isa_func *f = e->prog[pc].f;
  for (uint32_t i = pc; i-- > 0 && e->prog[i].f == f;) {
    const isa_insn *in = e->prog[i].in;
    if (in->op != OP_MOV || in->nops != 2) continue;
    const isa_opnd *o = &f->ops[in->opi + 1];
    if (o->kind == OK_SREG && o->v == sreg && o->n == n) return true;
  }
  return false;
}

/* The pipe an instruction issues to, as ptxas's stall counts tell them
 * apart: a result of the ALU (LOP3, SHF, IADD3, ISETP, SEL) read by the
 * FMA pipe (IMAD, FFMA) or the reverse, or either's read by a memory
 * instruction, comes a cycle after the pipe's latency; on its own pipe
 * on time ([S] sm_90 SASS of the golden, microbench and validation
 * kernels, the stall counts from a writer to its first reader
 * (tools/sass/stall_pairs.py): LOP3 -> IMAD 5 cycles in 280 of 344
 * pairs, IMAD -> LOP3 265 of 329, IMAD -> ISETP 306 of 342, IMAD.WIDE ->
 * LDG 216 of 607 and none fewer; LOP3 -> LOP3 4 in 627 of 717, IMAD ->
 * IMAD 294 of 572, FFMA -> FFMA 1558 of 2142).  An add, a move or a
 * shift, which ptxas may put on either pipe (deps.alt_ii), is taken to be
 * on its reader's. */
enum { PIPE_NONE, PIPE_ALU, PIPE_FMA, PIPE_EITHER, PIPE_MEM };
static uint8_t pipe_of(const xinsn *x, const deps *d) {
  if (d->unit == U_LSU || d->unit == U_ATOM || d->unit == U_TEX) return PIPE_MEM;
  if (x->in->op == OP_SETP) return PIPE_ALU;     /* ISETP and FSETP (FFMA -> FSETP 5: 13 of 34, none fewer) */
  if (d->alt_ii) return PIPE_EITHER;
  return d->unit == U_INT ? PIPE_ALU : d->unit == U_FP32 ? PIPE_FMA : PIPE_NONE;
}
static bool cross_pipe(uint8_t writer, uint8_t reader) {
  if (writer == PIPE_NONE || writer == PIPE_MEM || reader == PIPE_NONE) return false;
  if (reader == PIPE_MEM) return true;
  return writer != PIPE_EITHER && reader != PIPE_EITHER && writer != reader;
}

/* ptxas's stall counts: the cycles each SASS instruction holds its warp
 * before the next, fixed when it compiles, so that a fixed-latency result
 * is there when its reader issues, counted as if no instruction waited.
 * An instruction that waited (on a scoreboard, a barrier) does not shorten
 * the counts after it: a branch 13 cycles after its compare still waits
 * its stall count after a multiply-add that waited 25 cycles for an S2R
 * between them ([M] tests/microbench mb_sreg sreg_smid: 49 cycles a trip,
 * the IMAD's stall count 12).  Within a basic block, in issue order (after
 * emu_reorder), each instruction's static_gap is the cycles it issues
 * after the one before it in that schedule (0: no more than that one's
 * slots).  A result read on another pipe than its writer's comes
 * lat_cross_pipe cycles later (pipe_of). */
void timing_mark_static_gaps(const emu *e, const gpu_config *g, deps *dep) {
  uint32_t n = e->nrows ? e->nrows : 1;
  uint64_t *ready = calloc(n, sizeof *ready);
  uint32_t *gen = calloc(n, sizeof *gen);
  uint8_t *pipe = calloc(n, 1);       /* the pipe of the row's writer (pipe_of) */
  uint8_t *leader = calloc(e->nprog + 1, 1);
  if (!ready || !gen || !pipe || !leader) { free(ready); free(gen); free(pipe); free(leader); return; }
  emu_block_leaders(e, leader);
  uint64_t t_prev = 0, unit_next[U_COUNT] = { 0 };
  uint32_t block = 0, prev_slots = 0;
  bool have_prev = false;
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    deps *d = &dep[pc];
    if (leader[pc]) { block++; have_prev = false; memset(unit_next, 0, sizeof unit_next); }
    d->static_gap = 0;
    if (d->free || d->fused) continue;
    uint64_t t = have_prev ? t_prev + prev_slots : 0;
    uint8_t mine = pipe_of(&e->prog[pc], d);
    /* a math pipe takes the next instruction ii cycles after the last
     * (g->static_pipe_ii: ptxas's counts space DFMAs 2 apart on the H100,
     * [S] mb_vary3 v3_dfma4's 16 a trip, each S02) */
    uint8_t u = d->unit;
    bool paced = g->static_pipe_ii && math_pipe(u);
    if (paced) {
      if (d->alt_ii && unit_next[U_FP32] < unit_next[u]) u = U_FP32;
      if (unit_next[u] > t) t = unit_next[u];
    }
    for (uint8_t i = 0; i < d->nsrc; i++) {
      int32_t r = d->src[i];
      if (r < 0 || (uint32_t)r >= n || gen[r] != block || !ready[r]) continue;
      uint64_t at = ready[r] + (cross_pipe(pipe[r], mine) ? g->lat_cross_pipe : 0);
      if (at > t) t = at;
    }
    if (have_prev && t - t_prev > prev_slots) d->static_gap = (uint8_t)(t - t_prev < 255 ? t - t_prev : 255);
    /* results of the math pipes come after a fixed latency; others are
     * waited for on a scoreboard, which the counts do not cover */
    bool fixed = d->result_why == STALL_WAIT && !d->s2r && math_pipe(d->unit);
    for (uint8_t i = 0; i < d->ndst; i++) {
      int32_t r = d->dst[i];
      if (r < 0 || (uint32_t)r >= n) continue;
      gen[r] = block;
      ready[r] = fixed ? t + d->lat : 0;
      pipe[r] = e->prog[pc].in->op == OP_SETP ? PIPE_NONE : mine;   /* (a predicate's reader: lat_pred) */
    }
    if (paced) unit_next[u] = t + (u == d->unit ? d->ii : d->alt_ii);
    t_prev = t;
    prev_slots = d->slots ? d->slots : 1;
    have_prev = true;
  }
  free(ready);
  free(gen);
  free(pipe);
  free(leader);
}

/* ptxas reads a 64-bit kernel parameter (a pointer) with an LDC that it
 * schedules in the basic block of the pointer's first use: where that is
 * past a branch, such as an early exit, warps that do not get there make
 * no LDC ([S] sm_90 SASS of tests/validation val_bfs bfs_queue: six
 * pointers loaded before `if (i >= n) return;`, one LDC before the EXIT,
 * five after it; tests/microbench mb_gather sweep: three, none before the
 * first EXIT; [M] bfs_queue, 64 warps an SM: 16-26 % mio_throttle on the
 * H100).  An ld.param whose register nothing else writes and which no
 * instruction of its own block reads (a copy of it, a free move or cvta
 * that is its register's only writer, passes it on) issues nothing
 * (deps.defer); the first instruction of each block that reads it carries
 * its number in deps.defer_mask, and a warp entering such a block makes
 * its LDC then (timing.c).  At most 63 such parameters a kernel. */
void timing_mark_deferred_params(const emu *e, deps *dep, uint8_t *rd, uint32_t *defer_off) {
  uint32_t n = e->nrows ? e->nrows : 1, np = e->nprog, k = 0;
  uint16_t *writers = calloc(n, sizeof *writers);
  uint8_t *leader = calloc(np + 1, 1);
  uint32_t *block = calloc(np + 1, sizeof *block), home[64], offk[64];
  bool *copy = calloc(np + 1, sizeof *copy), near[64] = { false };
  if (!writers || !leader || !block || !copy) goto out;
  emu_block_leaders(e, leader);
  for (uint32_t pc = 0, b = 0; pc < np; pc++) { if (leader[pc]) b = pc; block[pc] = b; }
  for (uint32_t pc = 0; pc < np; pc++)
    for (uint8_t i = 0; i < dep[pc].ndst; i++) {
      int32_t r = dep[pc].dst[i];
      if (r >= 0 && (uint32_t)r < n && writers[r] < UINT16_MAX) writers[r]++;
    }
  /* the candidates, their copies, and whether their own block reads them */
  for (uint32_t pc = 0; pc < np && k < 63; pc++) {
    const xinsn *x = &e->prog[pc];
    deps *d = &dep[pc];
    uint64_t off;
    uint32_t bytes;
    if (!emu_param_load(x, &off, &bytes) || bytes != 8 || x->guard >= 0 || d->ndst != 1 || d->fused || d->fuse_bytes) continue;
    int32_t r = d->dst[0];
    if (r < 0 || (uint32_t)r >= n || writers[r] != 1) continue;
    home[k] = pc;
    offk[k] = (uint32_t)off;
    rd[r] = (uint8_t)++k;
  }
  for (bool more = k > 0; more; ) {
    more = false;
    for (uint32_t pc = 0; pc < np; pc++) {
      const deps *d = &dep[pc];
      if (!d->free || copy[pc] || d->nsrc != 1 || d->ndst != 1 || d->kind != DK_PLAIN) continue;
      int32_t a = d->src[0], b = d->dst[0];
      if (a < 0 || b < 0 || (uint32_t)a >= n || (uint32_t)b >= n || !rd[a] || rd[b] || writers[b] != 1) continue;
      rd[b] = rd[a];
      copy[pc] = true;
      more = true;
    }
  }
  for (uint32_t pc = 0; pc < np && k; pc++) {
    if (copy[pc]) continue;
    for (uint8_t i = 0; i < dep[pc].nsrc; i++) {
      int32_t r = dep[pc].src[i];
      if (r >= 0 && (uint32_t)r < n && rd[r] && block[pc] == block[home[rd[r] - 1]]) near[rd[r] - 1] = true;
    }
  }
  /* those read only in other blocks: made where a warp enters one */
  for (uint32_t pc = 0; pc < np && k; pc++) {
    if (copy[pc]) continue;
    for (uint8_t i = 0; i < dep[pc].nsrc; i++) {
      int32_t r = dep[pc].src[i];
      if (r >= 0 && (uint32_t)r < n && rd[r] && !near[rd[r] - 1]) dep[block[pc]].defer_mask |= 1ull << (rd[r] - 1);
    }
  }
  for (uint32_t j = 0; j < k; j++) {
    if (near[j]) continue;
    deps *d = &dep[home[j]];
    d->defer = (uint8_t)(j + 1);
    defer_off[j] = offk[j];
    d->free = true;
    d->lat = 0;
    d->bank_extra = 0;
    d->queued = false;
  }
  for (uint32_t r = 0; r < n; r++) if (rd[r] && near[rd[r] - 1]) rd[r] = 0;
out:
  free(writers);
  free(copy);
  free(leader);
  free(block);
}

/* Rows whose every writer is a move of an immediate (IMM_ONLY), one of
 * them nonzero (IMM_NONZERO: not RZ); calloc'd, e->nrows bytes (NULL when
 * there are none or out of memory). */
enum { IMM_ONLY = 1, IMM_NONZERO = 2, IMM_OTHER = 4, IMM_NEEDED = 8 };   /* (NEEDED: imm_moves_in_registers) */
static uint8_t *immediate_rows(const emu *e, const deps *dep) {
  uint32_t n = e->nrows;
  uint8_t *k = n ? calloc(n, 1) : NULL;
  if (!k) return NULL;
  for (uint32_t pc = 0; pc < e->nprog; pc++)
    for (uint8_t i = 0; i < dep[pc].ndst; i++) {
      int32_t r = dep[pc].dst[i];
      if (r < 0 || (uint32_t)r >= n) continue;
      const xinsn *x = &e->prog[pc];
      if (!imm_move(x)) k[r] |= IMM_OTHER;
      else k[r] |= IMM_ONLY | (x->f->ops[x->in->opi + 1].imm != 0 ? IMM_NONZERO : 0);
    }
  for (uint32_t r = 0; r < n; r++) if (k[r] & IMM_OTHER) k[r] = 0;
  return k;
}

/* A register that only immediate moves write is an immediate operand of
 * its readers in SASS (ptxas folds the move): it reads no register bank
 * (mb_pipe f16x2: HFMA2 R13, R13, R4.reuse, 0.5, 0.5 where the PTX's
 * third operand is a register set to 0x38003800). */
static void fold_immediate_banks(const emu *e, const gpu_config *g, deps *dep) {
  uint8_t *folded = immediate_rows(e, dep);
  if (!folded) return;
  for (uint32_t pc = 0; pc < e->nprog; pc++)
    if (!dep[pc].free && dep[pc].unit != U_TENSOR) dep[pc].bank_extra = bank_conflicts(g, &dep[pc], e->prog[pc].guard, folded);
  free(folded);
}

/* The innermost loop [*lo, its back branch] around pc, false if none (or
 * once *work, the instructions looked at, passes max_work). */
static bool innermost_loop(const emu *e, uint32_t pc, uint32_t *lo, uint32_t *hi, uint64_t *work, uint64_t max_work) {
  bool found = false;
  if (*work > max_work) return false;
  *work += e->nprog - pc;
  for (uint32_t b = pc + 1; b < e->nprog; b++) {
    const xinsn *x = &e->prog[b];
    if (x->in->op != OP_BRA || x->target > pc || x->f != e->prog[pc].f) continue;
    if (!found || b - x->target < *hi - *lo) { *lo = x->target; *hi = b; found = true; }
  }
  return found;
}

/* A SASS instruction takes at most one immediate operand: where a reader
 * of 32 bits or less reads registers that only moves of (nonzero)
 * immediates write in more than one operand, the others need their move
 * (0 is RZ).  ptxas hoists such a move out of its loop where every trip
 * runs it (an if/else it predicates is straight-line code, run every trip:
 * mb_div div_2's, 4 FFMAs a path, loads its constants with 11 MOVs and
 * HFMA2.MMAs for 4 trips, not 8 a trip; so this runs after mark_ifconvert),
 * and leaves it where it is in a conditional block of the body
 * ([S] sm_90 SASS of tests/microbench mb_div div_8: fma.rn.f32 x, x, K, K
 * in each of the switch's paths: an HFMA2.MMA or MOV of K before each
 * FFMA, 9 SASS instructions a path for 4 FFMAs; mb_pipe f32: fma x, x, a,
 * b at the top of the loop, one HFMA2.MMA before it).  Such a move takes
 * an issue slot and the integer latency. */
static void imm_moves_in_registers(const emu *e, const gpu_config *g, deps *dep) {
  uint32_t n = e->nrows;
  uint8_t *kind = immediate_rows(e, dep);     /* (and IMM_NEEDED: a reader wants it in a register) */
  if (!kind) return;
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    const xinsn *x = &e->prog[pc];
    const isa_insn *in = x->in;
    uint8_t f = isa_ops[in->op].family;
    if (dep[pc].free || !(f == F_ARITH || f == F_BITS || f == F_CMP || f == F_LOGIC) || ptx_type_bits((enum ptx_type)in->type) > 32 || in->vec > 1)
      continue;
    bool w0 = isa_writes_first(in);
    uint32_t imms = 0;
    for (uint32_t k = w0 ? 1 : 0; k < in->nops; k++) {
      const isa_opnd *o = &x->f->ops[in->opi + k];
      if (o->kind == OK_IMM) imms++;
      if (o->kind != OK_REG || (o->flags & OF_OFFSET)) continue;
      int32_t r = emu_row_of(e, x, o);
      if (r < 0 || (uint32_t)r >= n || (kind[r] & ~IMM_NEEDED) != (IMM_ONLY | IMM_NONZERO)) continue;
      if (imms++) kind[r] |= IMM_NEEDED;
    }
  }
  uint64_t work = 0, max_work = 64 * (uint64_t)e->nprog + (1u << 22);   /* (hostile programs stay linear) */
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    deps *d = &dep[pc];
    if (!imm_move(&e->prog[pc]) || d->ndst != 1 || d->dst[0] < 0 || (uint32_t)d->dst[0] >= n || !(kind[d->dst[0]] & IMM_NEEDED)) continue;
    uint32_t lo = 0, hi = 0;
    if (work > max_work) break;                  /* (the rest stay folded) */
    if (innermost_loop(e, pc, &lo, &hi, &work, max_work)) {
      bool every_trip = true;
      for (uint32_t j = lo; j < pc && every_trip; j++)
        if (e->prog[j].in->op == OP_BRA && !dep[j].ifconv_end && e->prog[j].target > pc && e->prog[j].target <= hi) every_trip = false;
      if (every_trip) continue;
    }
    d->free = false;
    d->slots = 1;
    d->unit = U_INT;
    d->lat = g->lat_int;
    d->ii = timing_unit_interval(g, U_INT);
    d->alt_ii = (uint8_t)umin(g->ii_imul ? g->ii_imul : g->ii_int, 255);
  }
  free(kind);
}

void timing_build_deps(const emu *e, const gpu_config *g, deps *dep) {
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    const xinsn *x = &e->prog[pc];
    const isa_insn *in = x->in;
    deps *d = &dep[pc];
    uint32_t cvt_lat = 0;
    d->unit = in->op == OP_CVT ? cvt_unit(g, in, &cvt_lat) : (uint8_t)isa_unit_of(in);
    if (x->guard >= 0) add_row(d->src, &d->nsrc, x->guard);
    const isa_opnd *ops = in->nops ? &x->f->ops[in->opi] : NULL;
    bool w0 = isa_writes_first(in);
    for (uint32_t k = 0; k < in->nops; k++) {
      const isa_opnd *o = &ops[k];
      if (k == 0 && w0 && o->kind != OK_ADDR && o->kind != OK_ADDRX) operand_rows(e, x, o, d->dst, &d->ndst);
      else operand_rows(e, x, o, d->src, &d->nsrc);
    }
    d->lat = cvt_lat ? cvt_lat : unit_latency(g, d->unit);
    d->ii = timing_unit_interval(g, d->unit);
    uint32_t ii_imul = g->ii_imul ? g->ii_imul : g->ii_int;
    bool imul = d->unit == U_INT && (in->op == OP_MUL || in->op == OP_MAD || in->op == OP_MADC ||
                                     in->op == OP_MUL24 || in->op == OP_MAD24);
    if (imul) d->ii = ii_imul;
    /* ptxas spreads 32-bit integer adds, register moves and shifts by a
     * constant over the ALU and the FMA pipe (IADD3 or IMAD.IADD/VIADD,
     * MOV or IMAD.MOV, SHF or IMAD.SHL: about half of each in sm_90 SASS):
     * the warp takes the one that frees first (timing.c) */
    if (d->unit == U_INT && g->sm_version >= 70 && x->guard < 0 && !(in->flags & IF_CC) &&
        (in->type == PTX_T_S32 || in->type == PTX_T_U32 || in->type == PTX_T_B32) &&
        ((in->op == OP_ADD || in->op == OP_SUB) || (in->op == OP_MOV && in->nops == 2 && ops[1].kind == OK_REG) ||
         (in->op == OP_SHL && in->nops == 3 && ops[2].kind == OK_IMM)))
      d->alt_ii = (uint8_t)(ii_imul < 255 ? ii_imul : 255);
    /* integer multiply-adds run on the FMA pipe (fmaheavy), other integer
     * instructions on the ALU pipe: they do not throttle each other */
    if (imul && g->sm_version >= 70) d->unit = U_FP32;
    /* (with fold_imm_banks, fold_immediate_banks counts them once every writer is known) */
    d->bank_extra = d->unit == U_TENSOR || g->fold_imm_banks ? 0 : bank_conflicts(g, d, x->guard, NULL);
    bool shared = is_shared_space(in->space);
    bool kernel_param = in->space == MOD_PARAM || in->space == MOD_PARAM_ENTRY;
    /* LDG, STG, ATOMG, RED, LDGSTS and generic LD, ST, ATOM name the memory
     * descriptor (desc[UR]) */
    d->gdesc = in->op == OP_CP_ASYNC || (global_or_generic(in->space) &&
               (in->op == OP_LD || in->op == OP_LDU || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED));
    bool wide = ptx_type_bits((enum ptx_type)in->type) * (in->vec ? in->vec : 1) > 32;
    switch (d->unit) {
    case U_LSU: case U_ATOM: case U_TEX:
      /* a kernel parameter is a constant-bank operand: only a constant-cache
       * miss waits; ptxas reads one of 32 bits with ULDC through the
       * immediate-constant cache (imc_miss), a 64-bit pointer with LDC
       * (short_scoreboard) (sm_90 SASS of tests/validation: every kernel) */
      d->result_why = shared ? STALL_SHORT_SCOREBOARD
                    : (kernel_param || in->space == MOD_PARAM_FUNC) ? (wide ? STALL_SHORT_SCOREBOARD : STALL_IMC_MISS)
                    : in->space == MOD_CONST ? STALL_WAIT : STALL_LONG_SCOREBOARD;
      d->throttle_why = d->unit == U_TEX ? STALL_TEX_THROTTLE : shared ? STALL_MIO_THROTTLE : STALL_LG_THROTTLE;
      /* ld.const at a register address (a source besides the guard) is
       * an LDC (LDC R, c[0x3][R]): it goes through the MIO queue to the
       * SM's constant port, and its result is waited for on the short
       * scoreboard ([M] tests/microbench mb_ldc: ldc_chain 72 %
       * short_scoreboard, ldc_indep with 32 warps 73 % mio_throttle) */
      if (in->space == MOD_CONST && g->ldc_cycles && in->op == OP_LD && d->nsrc > (x->guard >= 0)) {
        d->result_why = STALL_SHORT_SCOREBOARD;
        d->throttle_why = STALL_MIO_THROTTLE;
      }
      /* a pointer parameter's LDC goes through the MIO queue too (ldc_s2r_mio) */
      if (g->ldc_s2r_mio && g->ldc_cycles && in->op == OP_LD && kernel_param && wide) d->throttle_why = STALL_MIO_THROTTLE;
      break;
    case U_SFU:
      /* MUFU goes to its unit through the MIO, like shared-memory accesses:
       * a busy unit is mio_throttle (Nsight Compute's definition; [M]
       * tests/microbench mb_pipe pipe_sfu_ilp2..8 with 8 warps: 20-37 %
       * mio_throttle, no math_pipe_throttle) */
      /* (the SASS around the MUFU: isa/table.c sfu_sequence, below) */
      d->result_why = STALL_SHORT_SCOREBOARD; d->throttle_why = STALL_MIO_THROTTLE;
      break;
    default: d->result_why = STALL_WAIT; d->throttle_why = STALL_MATH_PIPE_THROTTLE; break;
    }
    if (d->unit == U_TENSOR) tensor_timing(g, in, d);
    /* an mbarrier's phase check (SYNCS.PHASECHK) answers on the long
     * scoreboard: a wait for the bulk copies that complete the phase
     * ([M] tests/microbench mb_bulk bulk_load, one copy in flight: 64-66 %
     * long_scoreboard on the H200, no sleeping) */
    if (in->op == OP_MBARRIER_TRY_WAIT || in->op == OP_MBARRIER_TEST_WAIT) d->result_why = STALL_LONG_SCOREBOARD;
    /* %ntid and %nctaid are constant-bank values (c[0x0][0x0] to [0x14]):
     * ptxas reads them with ULDC, through the immediate-constant cache,
     * except %ntid where the function read %ctaid of that dimension first:
     * %ctaid goes to a uniform register (S2UR) and %ntid, the multiply-add's
     * other factor, to a vector one with LDC, whose wait is short_scoreboard
     * (the same constant-bank miss: mb_launch params_only on the H100, 19-25%
     * short_scoreboard, 11-31% imc_miss) */
    const isa_opnd *sr = moved_sreg(x);
    if (sr && (sr->v == SREG_NTID || sr->v == SREG_NCTAID) && sr->n < 3) {
      d->imc_sreg = (uint8_t)(1 + (sr->v == SREG_NCTAID ? 12 : 0) + 4 * sr->n);
      bool ldc = sr->v == SREG_NTID && sreg_read_before(e, pc, SREG_CTAID, sr->n);
      d->result_why = ldc ? STALL_SHORT_SCOREBOARD : STALL_IMC_MISS;
    }
    /* special registers of the thread, warp or SM are read by S2R (or S2UR,
     * uniform): a variable latency, waited for on the short scoreboard ([M]
     * tests/microbench mb_sreg: %warpid's and %smid's reads in a loop, 36-54 %
     * short_scoreboard, ~25 cycles each).  The constant-bank ones (%ntid,
     * %nctaid above, %nsmid: ULDC) and the clocks (CS2R) are not. */
    if (g->lat_s2r && sr && s2r_sreg(sr->v)) {
      d->s2r = true;
      d->lat = g->lat_s2r;
      d->result_why = STALL_SHORT_SCOREBOARD;
      if (g->ldc_s2r_mio) d->throttle_why = STALL_MIO_THROTTLE;
    }
    /* a predicate is read by a branch or a guard 13 cycles after its
     * ISETP/FSETP writes it: the stall count ptxas writes between them
     * ([S] sm_90 SASS of mb_sreg, mb_div, mb_fuse, mb_l1w; [M] mb_sreg
     * sreg_2: a loop of 5 SASS instructions takes 31 cycles a trip, 65 %
     * wait) */
    if (in->op == OP_SETP && g->lat_pred > d->lat) d->lat = g->lat_pred;
    /* a PTX instruction that leaves no SASS behind takes no issue slot; a
     * sequence takes a slot per SASS instruction, holds its pipe as long as
     * the busiest of the pipes its instructions use, and takes the
     * latencies of its dependent path.  Before Volta (sm_70) an integer
     * sequence's multiply-adds and ALU instructions share the same cores. */
    const isa_sass_seq *sq;
    uint32_t sass = isa_sass_count(x->f, in, &sq);
    /* an immediate moved into a register: ptxas folds it into its users'
     * immediate operands or hoists the move out of the loop (mb_pipe: a
     * loop of 4 FFMA, each after two such moves, executes 4.8 SASS
     * instructions per FFMA with its loop control) */
    if (in->op == OP_MOV && x->guard < 0 && in->nops == 2 && ops[0].kind == OK_REG && ops[1].kind == OK_IMM) sass = 0;
    d->free = sass == 0;
    d->slots = sass ? sass : 1;
    /* %warpid is bits 8-14 of SR_VIRTID: S2R, then a shift and a
     * sign-extend on the ALU ([S] mb_sreg sreg_1), which wait for the S2R,
     * and the warp's next instructions with them ([S] mb_sreg sreg_4: the
     * %smid's S2UR issues after the SGXT; [M] 82 cycles a trip, 59 with
     * %warpid alone) */
    if (d->s2r && sr->v == SREG_WARPID) { d->slots += 2; d->lat += 2 * g->lat_int; d->s2r_seq = true; }
    if (d->free) { d->lat = 0; d->bank_extra = 0; }
    else if (sq && d->unit == U_SFU) {
      /* a special function: the MUFU holds the SFU, the scaling or the
       * Newton step around it runs on the FMA pipe (dependent) and the ALU */
      d->sfu_scaled = sq->scaled;
      d->lat = sq->xu_chain * g->lat_sfu + sq->chain * g->lat_fp32 + (sq->scaled ? g->sfu_denorm_cycles : 0);
      d->ii = (uint32_t)umax(1, sq->xu * g->ii_sfu);
    } else if (sq) {
      bool integer = d->unit == U_INT;
      uint32_t alu = sq->alu * g->ii_int, math = sq->math * (integer ? ii_imul : d->ii);
      if (integer && g->sm_version < 70) { alu += math; math = 0; }
      d->lat = sq->chain * d->lat + sq->xu_chain * g->lat_sfu;
      if ((d->unit == U_INT || d->unit == U_FP32) && g->sm_version >= 70) {
        /* each pipe is held for the sequence's instructions on it, which
         * issue among other warps' instructions: a warp waiting for the
         * ALU while another's division runs its I2F, MUFU and IMADs is
         * not throttled by them ([M] tests/microbench mb_flag,
         * mb_samestore: every warp's w % spread at once shows not_selected
         * on the H100, not math_pipe_throttle) */
        d->ii = (uint32_t)umax(1, integer ? alu : math);
        d->seq_other_ii = (uint16_t)umin(integer ? math : alu, UINT16_MAX);
        d->seq_xu_ii = (uint16_t)umin((uint64_t)sq->xu * g->ii_sfu, UINT16_MAX);
      } else d->ii = (uint32_t)umax(sq->n, umax(alu, umax(math, sq->xu * g->ii_sfu)));
    }
    switch (in->op) {
    case OP_BRA: case OP_BRX_IDX: d->kind = DK_BRANCH; break;
    /* SASS calls save the callee's registers on the stack and jump through
     * a return address: calls and returns cost call_cycles and ret_cycles
     * more than a branch (timing.c), and issue the calling convention's
     * instructions, call_sass and ret_sass of them (sm_90 SASS of
     * tests/microbench mb_stack: two MOVs of the return address before
     * the CALL; the callee's frame, VIADD R1, STL of the return address and
     * of the registers it keeps, BMOV and BSSY of the convergence barrier,
     * BSYNC; at the return the LDLs, BMOV, MOV and VIADD before the RET) */
    case OP_CALL: {
      d->kind = DK_BRANCH;
      d->after = g->call_cycles;
      /* device printf runs vprintf, thousands of SASS instructions that
       * format into the printf buffer (printf_cycles a call) */
      call_ops c = emu_call_operands(x);
      const isa_func *cf = c.tgt && c.tgt->kind == OK_FUNC && c.tgt->v < e->m->nfuncs ? &e->m->funcs[c.tgt->v] : NULL;
      if (cf && !cf->has_body && cf->name && strcmp(cf->name, "vprintf") == 0 && g->printf_cycles) d->after = g->printf_cycles;
      if (!cf || cf->has_body) d->slots += g->call_sass;     /* the built-in functions (vprintf, malloc) have their own costs */
      break;
    }
    case OP_RET:
      d->kind = DK_BRANCH;
      d->exits = x->f->is_entry;
      if (!d->exits) { d->after = g->ret_cycles; d->slots += g->ret_sass; }
      break;
    case OP_EXIT: d->exits = true; break;
    /* barrier.cluster: arrive (release semantics unless .relaxed) fences
     * the warp's memory accesses for the cluster (membar); the warp resumes
     * from wait cluster_barrier_cycles after the cluster's last arrival
     * (timing.c) */
    case OP_BAR: case OP_BARRIER:
      if (in->scope != MOD_CLUSTER) { d->cta_bar = in->sub == MOD_ARRIVE ? BAR_ARRIVES : BAR_ARRIVES | BAR_WAITS; break; }
      if (in->sub != MOD_ARRIVE) { d->kind = DK_MEMBAR; d->after = g->cluster_barrier_cycles; d->after_why = STALL_BARRIER; }
      else if (in->sem != MOD_RELAXED) { d->kind = DK_MEMBAR; d->after = g->cluster_arrive_cycles; }
      break;
    case OP_MEMBAR: case OP_FENCE:
      d->kind = DK_MEMBAR;
      /* a proxy fence (fence.proxy.async: FENCE.VIEW.ASYNC) orders the
       * thread's own accesses between proxies, waiting for no memory
       * system ([M] tests/microbench mb_bulk bulk_store: no membar state) */
      d->after = in->scope == MOD_CTA || isa_has_mod(in, MOD_PROXY) ? 0 : g->membar_cycles;
      break;
    case OP_NANOSLEEP: {
      d->kind = DK_SLEEP;
      const isa_opnd *o = ops;
      uint64_t ns = o && o->kind == OK_IMM ? (uint64_t)o->imm : 0;
      d->after = (uint32_t)umin(ns * g->clock_mhz / 1000, 1000000);
      break;
    }
    /* wgmma, and cp.async (the copy lands in shared memory after its
     * global access; the thread's wait_group waits for it, not the issue) */
    case OP_WGMMA_MMA_ASYNC: case OP_CP_ASYNC: d->kind = DK_ASYNC_OP; break;
    case OP_WGMMA_COMMIT_GROUP: case OP_CP_ASYNC_COMMIT_GROUP: d->kind = DK_ASYNC_COMMIT; break;
    case OP_WGMMA_WAIT_GROUP: case OP_CP_ASYNC_WAIT_GROUP:
      d->kind = DK_ASYNC_WAIT;
      d->grp_keep = ops && ops[0].kind == OK_IMM ? (uint32_t)ops[0].imm : 0;
      break;
    case OP_CP_ASYNC_WAIT_ALL: d->kind = DK_ASYNC_WAIT; d->grp_keep = 0; d->grp_open_too = true; break;
    /* bulk copies to global memory complete in bulk groups; those into
     * shared memory complete on their mbarrier (timing.c timing_bulk) */
    case OP_CP_ASYNC_BULK: case OP_CP_REDUCE_ASYNC_BULK: case OP_CP_ASYNC_BULK_TENSOR:
      if (in->space == MOD_GLOBAL) d->kind = DK_ASYNC_OP;
      break;
    case OP_CP_REDUCE_ASYNC_BULK_TENSOR: d->kind = DK_ASYNC_OP; break;
    case OP_CP_ASYNC_BULK_COMMIT_GROUP: d->kind = DK_ASYNC_COMMIT; break;
    case OP_CP_ASYNC_BULK_WAIT_GROUP:
      d->kind = DK_ASYNC_WAIT;
      d->grp_keep = ops && ops[0].kind == OK_IMM ? (uint32_t)ops[0].imm : 0;
      break;
    default: break;
    }
    if (d->kind >= DK_ASYNC_OP)
      d->grp = is_wgmma(in->op) ? AC_WGMMA
             : is_bulk_group(in->op) ? (in->op == OP_CP_ASYNC_BULK_WAIT_GROUP && isa_has_mod(in, MOD_READ) ? AC_BULK_READ : AC_BULK)
             : AC_CP_ASYNC;
  }
  if (g->unroll_factor > 1)
    for (uint32_t pc = 0; pc < e->nprog; pc++) mark_unrolled_loop(e, dep, pc, g->unroll_max_insns, g->unroll_load_cost);
  /* where a group that stops for another costs a path switch: the joins
   * ptxas's BSYNCs are at, or (joins_at_bsync 0) every PC */
  uint8_t *join = g->joins_at_bsync ? calloc(e->nprog + 1, 1) : NULL;
  if (join && !emu_join_points(e, join)) { free(join); join = NULL; }
  for (uint32_t pc = 0; pc < e->nprog; pc++) dep[pc].join = !join || join[pc];
  free(join);
  if (g->fold_imm_banks) fold_immediate_banks(e, g, dep);
  for (uint32_t pc = 0; pc < e->nprog; pc++)
    dep[pc].queued = dep[pc].exits || (g->mio_queue && dep[pc].throttle_why == STALL_MIO_THROTTLE && dep[pc].unit != U_SFU) ||
                     (g->lg_queue && dep[pc].throttle_why == STALL_LG_THROTTLE && l1_space(e->prog[pc].in->space));
  if (g->hoist_invariants) {
    uint8_t *inv = calloc(e->nprog + 1, 1);
    uint32_t *left = calloc(e->nrows ? e->nrows : 1, sizeof *left);
    uint64_t work = 0, max_work = 64 * (uint64_t)e->nprog + (1u << 22);
    if (inv && left)
      for (uint32_t pc = 0; pc < e->nprog; pc++) mark_invariant(e, dep, pc, inv, left, &work, max_work, g->hoist_predicates);
    free(inv);
    free(left);
  }
  /* ptxas's combined instructions and merged accesses, in basic blocks */
  uint8_t *leader = calloc(e->nprog + 1, 1);
  if (leader) {
    emu_block_leaders(e, leader);
    timing_mark_combined(e, g, dep, leader);
    timing_mark_fused(e, g, dep, leader);
    free(leader);
  }
  /* (after the combining: ptxas measures a path in the SASS it writes, a
   * mul.wide and its add.s64 one IMAD.WIDE; [S] tools/sass/ifconv_sweep.py,
   * the wide row: 8 such pairs predicated, 9 a branch) */
  if (g->ifconvert_max_insns)
    for (uint32_t pc = 0; pc < e->nprog; pc++) if (!dep[pc].ifconv_end) mark_ifconvert(e, dep, pc, g->ifconvert_max_insns, g->ifconvert_else_max_insns);
  /* (after the if-conversion: a predicated if/else is no condition) */
  if (g->imm_in_register) imm_moves_in_registers(e, g, dep);
  /* (after the merging: an access another one makes issues nothing) */
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    const isa_insn *in = e->prog[pc].in;
    bool access = in->op == OP_LD || in->op == OP_LDU || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED ||
                  in->op == OP_LDMATRIX || in->op == OP_STMATRIX;
    dep[pc].lsu = access && !dep[pc].free && !dep[pc].fused && (is_shared_space(in->space) || l1_space(in->space));
    /* a global load dispatches through the SM's LSU port (lsu_port) */
    dep[pc].port = g->lsu_port && dep[pc].lsu && (in->op == OP_LD || in->op == OP_LDU) && l1_space(in->space) && in->space != MOD_LOCAL;
    /* stores and reductions: each sets a read barrier that something in
     * its loop waits on once an iteration (iter_read_wait) */
    dep[pc].iter_read = g->iter_read_wait && dep[pc].lsu && (in->op == OP_ST || in->op == OP_RED);
    bool atom = in->op == OP_ATOM || in->op == OP_RED;
    dep[pc].gatom = g->atomics_in_flight && atom && !is_shared_space(in->space) && !dep[pc].free;
    dep[pc].atom_f16 = atom && half_type(in->type);
  }
  /* an atom whose result no instruction reads: only the warp's exit waits
   * for it (drain; [M] tests/microbench mb_atomic red_*: 15-22% drain, and
   * 80% long_scoreboard).  The SASS has a REDG without a register; with
   * atomics_in_flight, so has the model, and what holds the warp is the
   * SM's limit on atomics in flight (timing.c, the try).  Without it the
   * model keeps the register, so the next one to the same register waits
   * for it, a stand-in for that limit (doc/timing-validation.md,
   * "Reductions as SASS has them") */
  uint8_t *read = calloc(e->nrows ? e->nrows : 1, 1);
  if (!read) return;
  for (uint32_t pc = 0; pc < e->nprog; pc++)
    for (uint8_t i = 0; i < dep[pc].nsrc; i++) if (dep[pc].src[i] >= 0 && (uint32_t)dep[pc].src[i] < e->nrows) read[dep[pc].src[i]] = 1;
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    deps *d = &dep[pc];
    if (e->prog[pc].in->op != OP_ATOM || d->ndst != 1 || d->dst[0] < 0 || (uint32_t)d->dst[0] >= e->nrows || read[d->dst[0]]) continue;
    d->unread = true;
    /* in shared memory ptxas writes RZ: ATOMS.POPC.INC.32 RZ, [R3] ([S]
     * sm_90 SASS of tests/microbench mb_atomic shared_atom), so the next
     * atom to that register does not wait for this one; like a store,
     * it sets a read barrier the loop's next iteration waits on */
    d->rz = is_shared_space(e->prog[pc].in->space) || g->atomics_in_flight;
    if (d->rz) d->iter_read = g->iter_read_wait && d->lsu;
  }
  free(read);
}

/* Hoisting across unrolled copies: ptxas schedules the unroll_factor
 * copies of an unrolled body as one block, so the loads of every copy (and
 * the address arithmetic they need) issue before the first copy's uses,
 * where issuing the copies one after another would wait a load latency per
 * copy ([M] golden matmul_naive: a 4-way unrolled dot product whose loads
 * hit L1 runs at ~1.5 L1 latencies per 16 loads, not 4).  Marked: the
 * plain loads of an unrolled loop's body, and the instructions their
 * addresses come from; not in a body with stores, atomics, barriers or
 * volatile accesses, where ptxas cannot move a load above another copy's
 * access.  The loop control is left out (its copies are free); the
 * address arithmetic includes what takes no SASS of its own (a register
 * copy, an instruction combined into its reader: combine.c). */
static bool plain_load(const isa_insn *in) {
  return (in->op == OP_LD || in->op == OP_LDU) && !(in->flags & IF_VOLATILE) && (!in->sem || in->sem == MOD_WEAK) &&
         in->space != MOD_PARAM && in->space != MOD_PARAM_ENTRY && in->space != MOD_PARAM_FUNC;
}

static void mark_hoisted_loop(const emu *e, const gpu_config *g, deps *dep, uint32_t pc) {
  uint32_t lo = e->prog[pc].target, n = 0, regs = 0;
  if (lo >= pc || pc - lo > 256) return;
  for (uint32_t i = lo; i < pc; i++) {
    const isa_insn *in = e->prog[i].in;
    if (e->prog[i].flags & (XF_CONTROL | XF_SYNC)) return;
    if (isa_ops[in->op].family == F_MEM && !plain_load(in) && in->op != OP_CVTA) return;
    if (in->op == OP_LD && ((in->flags & IF_VOLATILE) || (in->sem && in->sem != MOD_WEAK))) return;
  }
  uint8_t *mark = calloc(pc - lo, 1);
  if (!mark) return;
  /* (a load merged into another's vector access still needs its registers) */
  for (uint32_t i = lo; i < pc; i++) {
    if (!plain_load(e->prog[i].in) || (dep[i].free && !dep[i].fused)) continue;
    mark[i - lo] = !dep[i].free;
    regs += dep[i].ndst;
  }
  /* the copies whose loaded values fit in hoist_regs registers */
  uint32_t copies = regs ? g->hoist_regs / regs : 0;
  if (copies > g->unroll_factor) copies = g->unroll_factor;
  if (copies < 2) { free(mark); return; }
  /* the address slice: the writers of a marked instruction's sources,
   * earlier in the body (twice: sources written later are the previous
   * iteration's) */
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t i = pc; i-- > lo;) {
      if (!mark[i - lo]) continue;
      for (uint8_t s = 0; s < dep[i].nsrc; s++)
        for (uint32_t j = lo; j < pc; j++)
          if (j != i && !mark[j - lo] && dep[j].loop == LOOP_NONE && !dep[j].fused && dep[j].unit != U_ATOM &&
              has_row(dep[j].dst, dep[j].ndst, dep[i].src[s]))
            mark[j - lo] = 1;
    }
  for (uint32_t i = lo; i < pc; i++) if (mark[i - lo] && n < 255) { dep[i].hoist = (uint8_t)++n; dep[i].loop_end = pc; }
  for (uint32_t i = lo; i < pc; i++) if (dep[i].hoist) { dep[i].nhoist = (uint8_t)n; dep[i].hoist_copies = (uint8_t)copies; }
  free(mark);
}

void timing_mark_hoisted(const emu *e, const gpu_config *g, deps *dep) {
  if (!g->hoist_regs || g->unroll_factor < 2) return;
  for (uint32_t pc = 0; pc < e->nprog; pc++) if (dep[pc].loop == LOOP_BACKEDGE) mark_hoisted_loop(e, g, dep, pc);
}

uint64_t timing_hoisted_done(const gpu_config *g, const deps *d, const uint32_t ls[2], uint64_t *t0,
                             const uint64_t *ready, uint64_t t, uint64_t lat) {
  uint32_t k = ls[0] == d->loop_end ? ls[1] % g->unroll_factor % d->hoist_copies : 0;
  if (k == 0 && d->hoist == 1) *t0 = t;
  uint64_t at = *t0 + (uint64_t)g->ii_lsu * (k * d->nhoist + d->hoist - 1u);
  if (at >= t) return t + lat;
  for (uint8_t i = 0; i < d->nsrc; i++) if (ready[d->src[i]] > at) at = ready[d->src[i]];
  return at < t ? at + lat : t + lat;
}

/* Architecture check: every instruction the kernel can reach (its own and
 * those of functions it calls; all functions when it calls indirectly)
 * must exist on the modelled GPU. */
int timing_check_arch(emu *e, const gpu_config *g, uint32_t kfunc) {
  const isa_module *m = e->m;
  uint32_t *order = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *order);
  uint32_t n = order ? reachable_funcs(e, kfunc, order) : 0;
  int rc = 0;
  for (uint32_t k = 0; k < n && !rc; k++) {
    uint32_t fi = order[k];
    if (e->func_base[fi] == UINT32_MAX) continue;
    for (uint32_t pc = e->func_base[fi]; pc < e->nprog && e->prog[pc].f == &m->funcs[fi]; pc++) {
      const xinsn *x = &e->prog[pc];
      const isa_opinfo *oi = &isa_ops[x->in->op];
      if (oi->min_sm > g->sm_version) {
        char name[128];
        isa_format_opname(x->in, name, sizeof name);
        e->faulted = true;
        e->fault.kind = FAULT_UNSUPPORTED;
        e->fault.pc = UINT32_MAX;
        snprintf(e->fault.msg, sizeof e->fault.msg, "%s:%u: '%s' needs sm_%u or newer; the modelled GPU %s is %s",
                 m->path ? m->path : "?", x->in->line, name, oi->min_sm, g->name, g->arch);
        rc = -1;
        break;
      }
    }
  }
  free(order);
  return rc;
}
