/* emu/internal.h - what the files of emu/ share and nobody else needs. */
#ifndef EMU_INTERNAL_H
#define EMU_INTERNAL_H
#include <string.h>
#include "emu/emu.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* address translation (device.c): host pointer or NULL when out of bounds */
uint8_t *mm_global_ptr(emu *e, uint64_t a, uint32_t n);
uint8_t *mm_shared_ptr(cta *c, uint64_t a, uint32_t n);
uint8_t *mm_local_ptr(warp *w, int lane, uint64_t a, uint32_t n);

/* program preparation (prepare.c) */
int emu_prepare(emu *e, int kernel);
void emu_unprepare(emu *e);
int emu_row_of(const emu *e, const xinsn *x, const isa_opnd *o);
/* The row an r+imm operand (OF_OFFSET) adds its offset to; emu_row_of
 * gives the row its sum is in while the instruction runs. */
int emu_offset_src_row(const emu *e, const xinsn *x, const isa_opnd *o);
/* Register slots an operand names (the elements of a vector, pair or list,
 * the base of an address) into use[]; false for a component (.x, .b0...)
 * of a register, whose slots the caller does not try to follow. */
bool emu_mark_uses(const isa_func *fn, const isa_opnd *o, uint8_t *use);
/* Row of a register slot of the instruction's function (hot paths): its
 * storage row once the rows are packed (rowpack.c). */
static inline int emu_reg_row(const emu *e, const xinsn *x, uint32_t slot) {
  uint32_t r = e->row_base[x->f - e->m->funcs] + slot;
  return (int)(__builtin_expect(e->kmap != NULL, 0) && r < e->kmap_n ? (uint32_t)e->kmap[r] : r);
}
/* The kernel's registers in fewer storage rows, by liveness, once
 * everything that reads the program by register has run (rowpack.c):
 * true when packed.  emu_rows_unpack puts the PTX's rows back (a timed
 * launch that runs again on one thread prepares its model again). */
bool emu_rows_pack(emu *e, uint32_t kernel);
void emu_rows_unpack(emu *e);
/* The runs of set flags among n, as pairs (first, count) (malloc'd; NULL
 * when out of memory): the rows a warp's start clears (clear_runs). */
uint32_t *emu_runs_of(const uint8_t *flag, uint32_t n, uint32_t *nruns);
/* The kernel registers an instruction certainly writes in every active
 * lane, into def[] (prepare.c); false when none. */
bool emu_defines(const isa_func *kf, const xinsn *x, uint8_t *def);
/* The kernel registers x reads, into use[] (its guard, its sources, and a
 * destination it may not write whole), and those it certainly writes, into
 * def[] (emu_defines); both cleared first.  False for a register component
 * (.x, .b0...), whose slots are not followed. */
bool emu_insn_regs(const isa_func *kf, const xinsn *x, uint8_t *use, uint8_t *def);
/* Whether x leaves each thread's registers to that thread's own path
 * through the kernel (base, n instructions): not a warp or matrix
 * instruction (they read other lanes'), control only through bra within
 * the kernel, ret, exit and barriers. */
bool emu_lane_private(const xinsn *x, uint32_t base, uint32_t n);
/* The kernel's instructions (indices from base) a thread may run after
 * instruction i, x, into succ; how many (0 to 2). */
uint32_t emu_successors(const xinsn *x, uint32_t base, uint32_t n, uint32_t i, uint32_t succ[2]);
/* Local-space address of a function-scope symbol for the executing thread. */
uint64_t emu_fsym_local(const warp *w, int lane, const xinsn *x, uint32_t sym);

/* scheduling (run.c): the pieces the functional and the timed launch loops share */
int emu_launch_begin(emu *e, const emu_launch *l);
void emu_progress(emu *e, uint64_t done, uint64_t total, bool last);
void emu_launch_end(emu *e);
bool emu_over_budget(emu *e, warp *w);
int emu_cta_start(emu *e, cta *c, uint64_t seq, cta *peers);
void emu_cta_free(cta *c);
/* Free the buffers of finished warps kept for the next ones. */
void emu_pool_free(emu *e);
/* The CTA goes on with another copy of the launch state (a timed launch's
 * SM run by another thread): its warps', and its register files' count
 * against the memory cap, move to `to`. */
void emu_cta_move(cta *c, emu *to);
/* The rows of a warp's register file: all for an observer that may show any. */
static inline uint32_t emu_warp_rows(const emu *e) { return e->obs && e->obs->reads_any_register ? e->nrows : e->warp_rows; }
bool emu_cta_done(const cta *c);
uint32_t emu_warp_run(warp *w, uint32_t budget);
/* timed launch (timing.c) */
int emu_run_timed(emu *e, const emu_launch *l);
/* A kernel parameter's load into one register: its offset and bytes (exec_mem.c). */
bool emu_param_load(const xinsn *x, uint64_t *off, uint32_t *bytes);
/* Fills xinsn.same_addr_as for the program's fast ld/st (exec_mem.c). */
void emu_link_accesses(emu *e);
/* Per PC: an atom/red whose address is provably warp-uniform (emu/uniform.c). */
bool *emu_uniform_atomics(const emu *e);
/* timing hook for memory accesses (timing.c): sets the latency of the access */
void timing_mem(emu *e, warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, int space, bool store);
/* ... for a whole warp's shared load or store through a register at
 * displacement imm (exec_mem.c's fast ones): timing_shared_note after
 * timing_mem keeps its wavefronts for the warp; timing_shared_again, for
 * one through the same register unwritten since (xinsn.same_addr_as),
 * times it with those (false: it could not; timing_mem then) */
void timing_shared_note(emu *e, warp *w, const xinsn *x, uint32_t size, int64_t imm);
bool timing_shared_again(emu *e, warp *w, const xinsn *x, uint32_t size, int64_t imm);
/* timing hooks for bulk copies (timing.c, exec_async.c): one lane's copy of
 * `bytes`, its global side the segments seg[i], len[i] bytes each (TB_READ
 * into shared memory, completing phase `parity` of the mbarrier (bar,
 * bar_off); TB_WRITE or TB_REDUCE to global memory, in its bulk group);
 * TB_SHARED: shared to another block's shared memory, no global side. */
enum timing_bulk_how { TB_READ, TB_WRITE, TB_REDUCE, TB_SHARED };
void timing_bulk(emu *e, warp *w, const uint64_t *seg, const uint32_t *len, uint32_t nseg, uint32_t bytes, int how,
                 const cta *bar, uint32_t bar_off, uint32_t parity);
/* ... a try_wait or test_wait that found phase `parity` of (bar, bar_off)
 * complete: its result waits for the phase's copies */
void timing_mbar_wait(emu *e, warp *w, const cta *bar, uint32_t bar_off, uint32_t parity);
void emu_thread_exit(warp *w, lanemask m);
void emu_barrier_check(cta *c, int id);
/* Leave the current group: its lanes go to pc[] and the next group is picked. */
void emu_reschedule(warp *w);

/* No thread of w runs or waits at a warp-synchronous instruction (all wait
 * at barriers, sleep or exited): emu_reschedule would only clear
 * w->yield_key and leave w->cur empty.  Eight states at a time. */
static inline bool emu_none_can_run(const warp *w) {
  uint64_t st[WARP_SIZE / 8], ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  memcpy(st, w->state, sizeof st);
  for (int k = 0; k < WARP_SIZE / 8; k++) {
    uint64_t run = st[k] ^ ones * TS_RUN, wsync = st[k] ^ ones * TS_WSYNC;
    if ((((run - ones) & ~run) | ((wsync - ones) & ~wsync)) & highs) return false;    /* a zero byte */
  }
  return true;
}

/* memory access (exec_mem.c): per-lane addresses of a memory operand
 * (symspace: the space of a symbol base, PTX_SPACE_NONE otherwise), their
 * translation to host pointers for an instruction space (a MOD_* value, or
 * 0 for generic) with bounds/alignment faults (shared and local addresses
 * are narrowed to 32 bits in a[]), and the access counters. */
void emu_lane_addrs(warp *w, const xinsn *x, const isa_opnd *o, lanemask m, uint64_t *a, uint8_t *symspace);
bool emu_translate(warp *w, const xinsn *x, uint16_t space_mod, uint8_t symspace, uint64_t *a, lanemask m,
                   uint32_t size, uint8_t **p, uint8_t *kind);
void emu_count_access(warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, const uint8_t *kind, bool store);

/* calls (exec_ctrl.c): the operands of a call instruction, and the bytes of
 * a caller-side .param operand for one lane (NULL if not a .param symbol) */
typedef struct call_ops { const isa_opnd *rets, *tgt, *args; } call_ops;
call_ops emu_call_operands(const xinsn *x);
uint8_t *emu_param_ptr(warp *w, int lane, const xinsn *x, const isa_opnd *o, uint32_t size);

/* asynchronous state (exec_async.c): release what a CTA and its warps hold */
void emu_async_release(cta *c);
/* Nothing progressed: wake threads sleeping on mbarriers as a hardware
 * time limit would; true if any woke. */
bool emu_async_stalled(cta *c);

/* strict proxy-fence checking (proxy.c, --strict-async): generic-proxy
 * writes of shared memory (by CTA c and offset, or by host pointer), async-
 * proxy writes and reads (false after a fault), fence.proxy.async (an
 * instruction handler), and the release of a CTA's marks */
void emu_proxy_generic_write(warp *w, const xinsn *x, int lane, cta *c, uint32_t off, uint32_t n);
void emu_proxy_generic_ptr(warp *w, const xinsn *x, int lane, const uint8_t *p, uint32_t n);
void emu_proxy_async_write(cta *c, uint32_t off, uint32_t n);
bool emu_proxy_async_read(warp *w, const xinsn *x, int lane, cta *c, uint32_t off, uint32_t n, const char *what);
void emu_proxy_fence(warp *w, const xinsn *x, lanemask m);
bool emu_proxy_is_async_fence(const isa_insn *in);
void emu_proxy_release(cta *c);

/* builtins: device printf, malloc/free, assert (builtins.c) */
void emu_heap_init(emu *e);
void emu_heap_free(emu *e);
/* Device printf output (builtins.c): write through, or flush the buffer;
 * a failed write is a FAULT_OUTPUT fault. */
void emu_printf_write(emu *e, const char *s, size_t n);
void emu_printf_flush(emu *e);
/* Calls to bodiless functions the runtime provides; returns 1 if handled. */
int emu_builtin_call(warp *w, const xinsn *x, lanemask m, const isa_func *callee);
/* emu/cdp.c: the device runtime's launch calls (0: NULL / an error code) */
uint64_t emu_cdp_param_buffer(emu *e, uint64_t func_addr, const uint32_t grid[3], const uint32_t block[3], uint32_t shared);
int emu_cdp_launch(emu *e, uint64_t buf);
void emu_cdp_free(emu *e);

/* FOR_LANES for loops that stay scalar (gathers and scatters through
 * per-lane addresses) and short vector loops: unrolled, so the loop's own
 * increment, compare and branch do not cost as much as its body. */
#if defined(__clang__)
#define UNROLL_LANES _Pragma("unroll 8")
#elif defined(__GNUC__) && __GNUC__ >= 8
#define UNROLL_LANES _Pragma("GCC unroll 8")
#else
#define UNROLL_LANES
#endif
#define FOR_LANES_UNROLLED(i) UNROLL_LANES FOR_LANES(i)

/* guard mask of an instruction for the lanes of m: bit 0 of each lane of
 * the predicate's row (with SSE2, four lanes per movmskps) */
static inline lanemask emu_guard(const warp *w, const xinsn *x, lanemask m) {
  if (x->guard < 0) return m;
  const uint64_t *p = w->r[x->guard];
  lanemask g = 0;
#if defined(__SSE2__)
  for (int i = 0; i < WARP_SIZE; i += 4) {
    __m128 lo = _mm_shuffle_ps(_mm_loadu_ps((const float *)(p + i)), _mm_loadu_ps((const float *)(p + i + 2)), _MM_SHUFFLE(2, 0, 2, 0));
    g |= (lanemask)_mm_movemask_ps(_mm_castsi128_ps(_mm_slli_epi32(_mm_castps_si128(lo), 31))) << i;
  }
#else
  FOR_LANES(i) g |= (lanemask)(p[i] & 1) << i;
#endif
  return (x->guard_neg ? ~g : g) & m;
}
#endif
