/* emu/rowpack.c - a warp's register file packed by liveness.
 *
 * nvcc's PTX names a fresh register for nearly every value (%r<104>), so a
 * file of one row per PTX register is several times what a thread's live
 * values need.  A timed launch keeps the file of every resident warp (the
 * bench transpose: 8192 warps of 14 KiB), and their first touch was most
 * of its host memory and a third of its time.  Once everything that reads
 * the program by register has run on the PTX's registers (the timing
 * model's dependences, register banks and reordering, fusion, uniformity:
 * their answers do not change), registers whose live ranges never overlap
 * share a storage row; the prepared operands' rows, guards and the rows
 * the handlers look up (emu_reg_row) name storage rows from then on.
 *
 * Invariants:
 *  - Each thread runs the kernel's control flow graph alone: a lane's row
 *    changes only by that lane's own instructions.  So per-thread liveness
 *    (backward, over the program in its issue order: a timed launch's
 *    reordered blocks included) decides, and a row shared by registers a
 *    and b holds a's value wherever a is live, because nothing writes b
 *    there: a register an instruction may write interferes with every
 *    register live after it.
 *  - A write kills (ends a live range above it) only where emu_defines
 *    says every active lane writes the whole register; any other write
 *    (guarded, partial, of a family not known to write every lane) counts
 *    as a read too.
 *  - The registers one instruction names all have rows of their own: no
 *    handler sees a destination that is another operand's source unless
 *    the PTX named one register for both.
 *  - A register read where some path has not written it is live from the
 *    kernel's start: it is the first owner of its row, which a warp's
 *    start clears (clear_runs) as before.
 * Not packed: kernels that call (other functions' rows, frames), that read
 * other lanes' registers (warp and matrix families: a lane past the
 * block's threads would show another register's value), with control flow
 * other than bra, ret, exit and barriers, register components or
 * registers wider than a row; under an observer that reads any register
 * by name (the debugger); past the size limits below. */
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"
#include "isa/isa.h"

#define MAX_REGS 4096u             /* the interference matrix: MAX_REGS^2 bits */
#define MAX_WORDS (1u << 20)       /* instructions x words of a live set */
#define MAX_PASSES 256             /* backward sweeps to the fixed point (about the loop depth) */

struct emu_unpacked {
  xinsn *prog;
  uint32_t sr_base, off_base, warp_rows, *clear_runs, nclear_runs;
};

int emu_slot_row(const emu *e, const xinsn *x, uint32_t slot) { return emu_reg_row(e, x, slot); }

static void set_bit(uint64_t *s, uint32_t r) { s[r / 64] |= 1ull << (r % 64); }
static bool has_bit(const uint64_t *s, uint32_t r) { return s[r / 64] >> (r % 64) & 1; }

/* The registers live after instruction i: those live before its successors (in). */
static void live_after(const emu *e, uint32_t base, uint32_t n, uint32_t i, const uint64_t *in, uint32_t W, uint64_t *out) {
  uint32_t succ[2], ns = emu_successors(&e->prog[base + i], base, n, i, succ);
  memset(out, 0, (size_t)W * 8);
  for (uint32_t k = 0; k < ns; k++)
    for (uint32_t w = 0; w < W; w++) out[w] |= in[(size_t)succ[k] * W + w];
}

/* Whether the kernel is one whose lanes' liveness is the whole story. */
static bool packable(const emu *e, uint32_t kernel) {
  const isa_module *m = e->m;
  if (e->obs && e->obs->reads_any_register) return false;
  for (uint32_t f = 0; f < m->nfuncs; f++)
    if (f != kernel && e->func_base[f] != UINT32_MAX && m->funcs[f].nregs) return false;
  const isa_func *kf = &m->funcs[kernel];
  if (kf->nregs < 2 || kf->nregs > MAX_REGS || e->row_base[kernel] != 0) return false;
  for (uint32_t r = 0; r < kf->nregs; r++) if (ptx_type_bits((enum ptx_type)kf->regtype[r]) > 64) return false;
  uint32_t base = e->func_base[kernel], n = kf->ninsns + 1;
  if ((uint64_t)n * ((kf->nregs + 63) / 64) > MAX_WORDS || base + n > e->nprog) return false;
  for (uint32_t i = 0; i < n; i++)
    if (e->prog[base + i].f != kf || !emu_lane_private(&e->prog[base + i], base, n)) return false;
  return true;
}

bool emu_rows_pack(emu *e, uint32_t kernel) {
  if (e->kmap || !packable(e, kernel)) return false;
  const isa_func *kf = &e->m->funcs[kernel];
  uint32_t nr = kf->nregs, W = (nr + 63) / 64, base = e->func_base[kernel], n = kf->ninsns + 1;
  bool ok = false;
  uint8_t *use = malloc(nr), *kill = malloc(nr);
  uint32_t *first = calloc((size_t)n + 1, sizeof *first), *list = NULL;   /* instruction i's entries: list[first[i]] on */
  uint64_t *in = calloc((size_t)n * W, 8), *out = malloc((size_t)W * 8), *tmp = malloc((size_t)W * 8);
  uint64_t *adj = calloc((size_t)nr * W, 8), *taken = malloc((size_t)W * 8);
  int32_t *color = malloc((size_t)nr * sizeof *color);
  size_t nlist = 0, caplist = 0;
  if (!use || !kill || !first || !in || !out || !tmp || !adj || !taken || !color) goto done;
  /* each instruction's registers, tagged: r << 2 | read << 1 | killed */
  for (uint32_t i = 0; i < n; i++) {
    if (!emu_insn_regs(kf, &e->prog[base + i], use, kill)) goto done;
    first[i] = (uint32_t)nlist;
    for (uint32_t r = 0; r < nr; r++) {
      if (!use[r] && !kill[r]) continue;
      if (nlist + 1 > caplist) {
        size_t c = caplist ? 2 * caplist : 1024;
        uint32_t *nl = realloc(list, c * sizeof *nl);
        if (!nl) goto done;
        list = nl;
        caplist = c;
      }
      list[nlist++] = r << 2 | (uint32_t)use[r] << 1 | kill[r];
    }
  }
  first[n] = (uint32_t)nlist;
  /* live sets before each instruction, to the fixed point */
  for (int pass = 0, changed = 1; changed; pass++) {
    if (pass == MAX_PASSES) goto done;
    changed = 0;
    for (uint32_t i = n; i-- > 0;) {
      live_after(e, base, n, i, in, W, tmp);
      for (uint32_t j = first[i]; j < first[i + 1]; j++) if (list[j] & 1) tmp[(list[j] >> 2) / 64] &= ~(1ull << ((list[j] >> 2) % 64));
      for (uint32_t j = first[i]; j < first[i + 1]; j++) if (list[j] & 2) set_bit(tmp, list[j] >> 2);
      if (memcmp(tmp, &in[(size_t)i * W], (size_t)W * 8)) { memcpy(&in[(size_t)i * W], tmp, (size_t)W * 8); changed = 1; }
    }
  }
  /* interference: what an instruction may write against what is live after
   * it, and the registers of one instruction among themselves */
  for (uint32_t i = 0; i < n; i++) {
    live_after(e, base, n, i, in, W, out);
    memset(tmp, 0, (size_t)W * 8);
    for (uint32_t j = first[i]; j < first[i + 1]; j++) set_bit(tmp, list[j] >> 2);
    for (uint32_t j = first[i]; j < first[i + 1]; j++) {
      uint64_t *a = &adj[(size_t)(list[j] >> 2) * W];
      for (uint32_t w = 0; w < W; w++) a[w] |= out[w] | tmp[w];
    }
  }
  for (uint32_t r = 0; r < nr; r++)            /* symmetric */
    for (uint32_t s = 0; s < nr; s++)
      if (has_bit(&adj[(size_t)r * W], s)) set_bit(&adj[(size_t)s * W], r);
  /* rows: the lowest one no interfering register holds (in register order) */
  uint32_t P = 0;
  for (uint32_t r = 0; r < nr; r++) {
    memset(taken, 0, (size_t)W * 8);
    const uint64_t *a = &adj[(size_t)r * W];
    for (uint32_t s = 0; s < r; s++) if (has_bit(a, s)) set_bit(taken, (uint32_t)color[s]);
    uint32_t c = 0;
    while (has_bit(taken, c)) c++;
    color[r] = (int32_t)c;
    if (c + 1 > P) P = c + 1;
  }
  if (P >= nr) goto done;
  /* storage rows: the registers' packed ones, then the offset and special
   * rows moved down by what the registers gave up */
  uint32_t D = nr - P, oldsr = e->sr_base;
  struct emu_unpacked *u = calloc(1, sizeof *u);
  uint8_t *clear = calloc(oldsr ? oldsr : 1, 1), *pclear = calloc(oldsr ? oldsr : 1, 1);
  xinsn *saved = malloc((size_t)e->nprog * sizeof *saved);
  if (!u || !clear || !pclear || !saved) { free(u); free(clear); free(pclear); free(saved); goto done; }
  for (uint32_t k = 0; k < e->nclear_runs; k++)
    for (uint32_t r = e->clear_runs[2 * k]; r < e->clear_runs[2 * k] + e->clear_runs[2 * k + 1] && r < oldsr; r++) clear[r] = 1;
  for (uint32_t r = 0; r < oldsr; r++) if (clear[r]) pclear[r < nr ? (uint32_t)color[r] : r - D] = 1;
  uint32_t ncr = 0, *cr = emu_runs_of(pclear, oldsr - D, &ncr);
  free(clear);
  free(pclear);
  if (!cr) { free(u); free(saved); goto done; }
  memcpy(saved, e->prog, (size_t)e->nprog * sizeof *saved);
  *u = (struct emu_unpacked){ saved, e->sr_base, e->off_base, e->warp_rows, e->clear_runs, e->nclear_runs };
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    xinsn *x = &e->prog[pc];
    for (int k = 0; k < XOPS; k++) {
      int32_t r = x->op[k].row;
      if (r >= 0) x->op[k].row = (uint32_t)r < nr ? color[r] : r - (int32_t)D;
    }
    if (x->guard >= 0) x->guard = (uint32_t)x->guard < nr ? color[x->guard] : x->guard - (int32_t)D;
  }
  e->unpacked = u;
  e->clear_runs = cr;
  e->nclear_runs = ncr;
  e->sr_base -= D;
  e->off_base -= D;
  e->warp_rows -= D;
  e->kmap = color;
  e->kmap_n = nr;
  e->pack_regs = nr;
  e->pack_rows = P;
  e->pack_file_rows = e->warp_rows;
  color = NULL;
  ok = true;
done:
  free(use); free(kill); free(first); free(list);
  free(in); free(out); free(tmp); free(adj); free(taken); free(color);
  return ok;
}

void emu_rows_unpack(emu *e) {
  struct emu_unpacked *u = e->unpacked;
  if (!u) return;
  memcpy(e->prog, u->prog, (size_t)e->nprog * sizeof *e->prog);
  free(u->prog);
  free(e->clear_runs);
  e->clear_runs = u->clear_runs;
  e->nclear_runs = u->nclear_runs;
  e->sr_base = u->sr_base;
  e->off_base = u->off_base;
  e->warp_rows = u->warp_rows;
  free(e->kmap);
  e->kmap = NULL;
  e->kmap_n = 0;
  free(u);
  e->unpacked = NULL;
}
