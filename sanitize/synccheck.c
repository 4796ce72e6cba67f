/* sanitize/synccheck.c - barriers used in ways the hardware does not
 * define.  Everything is checked just before the instruction runs:
 *  - bar.sync / barrier.sync.aligned (__syncthreads) reached by only part
 *    of a warp's live threads (divergent code, or a false guard);
 *  - one phase of a named barrier with two different thread counts, or a
 *    count that is not a multiple of the warp size;
 *  - bar.warp.sync (__syncwarp) and the other .sync warp instructions whose
 *    member mask names lanes that are not there (exited, or elsewhere);
 *  - mbarrier.test_wait/try_wait on a phase that can never complete: the
 *    barrier was never initialised, or it waits for more arrivals than the
 *    block has threads left that are not themselves waiting. */
#include <string.h>
#include "sanitize/internal.h"
/* messages are cut at their buffer's end, on purpose */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "memmodel/space.h"

static void lanes_text(lanemask l, char *buf, size_t n) {
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < WARP_SIZE && k + 12 < n; i++) {
    if (!(l >> i & 1)) continue;
    int j = i;
    while (j + 1 < WARP_SIZE && (l >> (j + 1) & 1)) j++;
    k += (size_t)snprintf(buf + k, n - k, j > i ? "%s%d-%d" : "%s%d", k ? "," : "", i, j);
    i = j;
  }
}

static san_finding *finding(sanitizer *s, enum san_kind kind, const warp *w, const xinsn *x, int lane, uint32_t key_b) {
  bool fresh;
  san_finding *f = san_record(s, SAN_SYNCCHECK, kind, x->spc, key_b, &fresh);
  if (!f || !fresh) return NULL;
  san_site_of(s, &f->a, x->spc, 3, w->cta->linear, w->id * WARP_SIZE + (uint32_t)lane);
  return f;
}

static void src_of(const san_site *st, char *buf, size_t n) {
  if (st->cuda_line) snprintf(buf, n, "%s:%u", st->cuda_file, st->cuda_line);
  else snprintf(buf, n, "PTX line %u", st->ptx_line);
}

/* lanes of the warp that exist and have not exited */
static lanemask live_lanes(const warp *w) {
  lanemask exist = w->nthreads >= WARP_SIZE ? FULL_MASK : (1u << w->nthreads) - 1;
  return exist & ~w->exited;
}

static void check_bar(sanitizer *s, const warp *w, const xinsn *x, lanemask m, lanemask g) {
  const isa_insn *in = x->in;
  if (in->sub == MOD_CLUSTER || in->scope == MOD_CLUSTER) return;
  bool red = in->sub == MOD_RED;
  bool aligned = in->op == OP_BAR || (in->flags & IF_ALIGNED);
  int k = red ? 1 : 0;
  int lead = __builtin_ctz(g ? g : m);
  uint32_t id = in->nops > k ? (uint32_t)xsrc(w, x, k)[lead] : 0;
  if (id >= 16) return;
  bool has_count = red ? in->nops == 4 : in->nops >= 2;
  uint32_t count = has_count ? (uint32_t)xsrc(w, x, k + 1)[lead] : 0;
  san_cta *sc = san_cta_of(s, w);
  if (aligned && g && g != live_lanes(w)) {
    lanemask missing = live_lanes(w) & ~g;
    san_finding *f = finding(s, SK_DIVERGENT_BARRIER, w, x, __builtin_ctz(g), 0);
    if (f) {
      char here[200], lanes[120], other[200] = "";
      src_of(&f->a, here, sizeof here);
      lanes_text(missing, lanes, sizeof lanes);
      int ol = __builtin_ctz(missing);
      if (missing) {
        f->b.valid = false;
        san_site_of(s, &f->b, w->e->prog[w->pc[ol] < w->e->nprog ? w->pc[ol] : 0].spc, 3, w->cta->linear, w->id * WARP_SIZE + (uint32_t)ol);
        char there[200];
        src_of(&f->b, there, sizeof there);
        snprintf(other, sizeof other, " (lane %d is at PTX line %u%s%s%s)", ol, f->b.ptx_line, f->b.cuda_line ? ", " : "",
                 f->b.cuda_line ? there : "", (m >> ol & 1) ? ", its guard false" : "");
      }
      snprintf(f->message, sizeof f->message, "__syncthreads() (barrier %u) at %s reached by only part of warp %u: "
               "lanes %s are not with it%s; every thread of a warp must reach the same barrier: move it out of the "
               "divergent code", id, here, w->id, lanes, other);
    }
  }
  if (!sc || !g) return;
  if (has_count && count % WARP_SIZE) {
    san_finding *f = finding(s, SK_BARRIER_COUNT, w, x, __builtin_ctz(g), 1);
    if (f) {
      char here[200];
      src_of(&f->a, here, sizeof here);
      snprintf(f->message, sizeof f->message, "barrier %u at %s is given a thread count of %u, not a multiple of the warp size (32)",
               id, here, count);
    }
  }
  if (w->cta->bar[id].arrived == 0) {
    sc->bar_count[id] = count;
    sc->bar_pc[id] = x->spc;
    sc->bar_tid[id] = (uint16_t)(w->id * WARP_SIZE + (uint32_t)__builtin_ctz(g));
  } else if (sc->bar_count[id] != count) {
    san_finding *f = finding(s, SK_BARRIER_COUNT, w, x, __builtin_ctz(g), sc->bar_pc[id]);
    if (f) {
      f->b = f->a;
      san_site_of(s, &f->a, sc->bar_pc[id], 3, w->cta->linear, sc->bar_tid[id]);
      char a[200], b[200], ca[32], cb[32];
      src_of(&f->a, a, sizeof a);
      src_of(&f->b, b, sizeof b);
      snprintf(ca, sizeof ca, sc->bar_count[id] ? "%u threads" : "all threads", sc->bar_count[id]);
      snprintf(cb, sizeof cb, count ? "%u threads" : "all threads", count);
      snprintf(f->message, sizeof f->message, "named barrier %u: one phase is entered at %s for %s and at %s for %s; "
               "every bar.sync/bar.arrive of a phase must give the same thread count", id, a, ca, b, cb);
    }
  }
}

static void check_warp_sync(sanitizer *s, const warp *w, const xinsn *x, lanemask m, lanemask g) {
  if (!g) return;
  lanemask mask = (lanemask)xsrc(w, x, x->nops - 1)[__builtin_ctz(g)];
  lanemask exist = w->nthreads >= WARP_SIZE ? FULL_MASK : (1u << w->nthreads) - 1;
  lanemask missing = mask & exist & ~m, outside = g & ~mask;
  if (!missing && !outside) return;
  san_finding *f = finding(s, SK_WARP_SYNC_MASK, w, x, __builtin_ctz(g), 2);
  if (!f) return;
  char here[200], name[64], ex[120] = "", el[120] = "";
  src_of(&f->a, here, sizeof here);
  isa_format_opname(x->in, name, sizeof name);
  lanes_text(missing & w->exited, ex, sizeof ex);
  lanes_text(missing & ~w->exited, el, sizeof el);
  if (missing)
    snprintf(f->message, sizeof f->message, "%s at %s in warp %u names lanes in its mask 0x%08x that never arrive:%s%s%s%s; "
             "pass only the lanes that reach it (__activemask() or a mask computed before the branch)", name, here, w->id, mask,
             ex[0] ? " exited " : "", ex, el[0] ? " elsewhere " : "", el);
  else {
    lanes_text(outside, ex, sizeof ex);
    snprintf(f->message, sizeof f->message, "%s at %s in warp %u is executed by lanes %s that its mask 0x%08x leaves out; "
             "every executing lane must be in the mask", name, here, w->id, ex, mask);
  }
}

/* mbarrier state word (emu/exec_async.c): pending 0..20, expected 21..41, tx 42..62, phase 63 */
static void check_mbarrier(sanitizer *s, const warp *w, const xinsn *x, lanemask m, lanemask g) {
  if (!g) return;
  emu *e = w->e;
  const cta *c = w->cta;
  if (e->launch.cluster[0] * e->launch.cluster[1] * e->launch.cluster[2] > 1) return;
  int lane = __builtin_ctz(g);
  const isa_opnd *o = x->op[1].o;
  if (!o) return;
  if (o->kind == OK_ADDRX) o = &x->f->pool[o->v];
  uint64_t off;
  if (o->kind == OK_ADDR && (o->flags & OF_BASEREG)) off = w->r[emu_slot_row(e, x, o->v)][lane] + (uint64_t)o->imm;
  else if ((o->kind == OK_ADDR || o->kind == OK_SYM) && (o->flags & OF_MODSYM) && e->m->syms[o->v].space == PTX_SPACE_SHARED)
    off = e->shared_sym_off[o->v] + (uint64_t)o->imm;
  else return;
  if (off >= GEN_SHARED_BASE) off -= GEN_SHARED_BASE;
  off &= 0xffffffffull;
  if (off + 8 > c->shared_size || (off & 7)) return;       /* the emulator faults */
  uint64_t st;
  memcpy(&st, c->shared + off, 8);
  uint32_t pending = (uint32_t)(st & 0x1fffff), expected = (uint32_t)(st >> 21 & 0x1fffff);
  uint64_t tx = st >> 42 & 0x1fffff;
  const uint64_t *v = xsrc(w, x, 2);
  uint32_t want = (x->in->flags & IF_PARITY) ? (uint32_t)(v[lane] & 1) : (uint32_t)(v[lane] >> 63);
  if ((uint32_t)(st >> 63) != want && expected) return;   /* the phase completed */
  /* threads that could still arrive: live and not waiting themselves */
  uint32_t waiting = 0;
  for (uint32_t wi = 0; wi < c->nwarps; wi++) {
    const warp *ow = &c->warps[wi];
    FOR_LANES(i) if (ow->state[i] == TS_SLEEP || (ow == w && (m >> i & 1))) waiting++;
  }
  uint32_t others = c->live_threads > waiting ? c->live_threads - waiting : 0;
  char why[200];
  if (!expected) snprintf(why, sizeof why, "the mbarrier at shared offset 0x%llx was never initialised (mbarrier.init)", (unsigned long long)off);
  else if (tx) return;                                     /* transactions outstanding: a copy may complete it */
  else if (others == 0)
    snprintf(why, sizeof why, "its phase still needs %u arrival%s but every other thread of the block has exited or waits too",
             pending, pending == 1 ? "" : "s");
  else if (pending > others)
    snprintf(why, sizeof why, "its phase still needs %u arrivals but only %u threads of the block can still arrive", pending, others);
  else return;
  san_finding *f = finding(s, SK_MBARRIER, w, x, lane, 3);
  if (!f) return;
  char here[200];
  src_of(&f->a, here, sizeof here);
  f->space = "shared";
  f->addr = off;
  f->size = 8;
  san_describe_addr(s, f, true, off);
  snprintf(f->message, sizeof f->message, "mbarrier wait at %s can never complete: %s; the count given to mbarrier.init must "
           "match the arrivals that happen", here, why);
}

void sync_insn(sanitizer *s, const warp *w, const xinsn *x, lanemask m, lanemask g) {
  int op = x->in->op;
  if (op == OP_BAR || op == OP_BARRIER) check_bar(s, w, x, m, g);
  else if (op == OP_MBARRIER_TEST_WAIT || op == OP_MBARRIER_TRY_WAIT) check_mbarrier(s, w, x, m, g);
  if (x->flags & XF_SYNC) check_warp_sync(s, w, x, m, g);
}
