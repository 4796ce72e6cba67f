/* report/memory.c - the memory hierarchy of a launch: what the threads
 * asked for, what moved between the SM, L1, L2 and DRAM (32-byte sectors),
 * the L1 and L2 hit rates and the shared-memory wavefronts, as a diagram
 * and as bars. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report/internal.h"

/* ?1 launch: the emulator's whole-launch counters (no bytes, no hits) */
static const char counters_sql[] =
  "SELECT 0, gld_requests, gld_sectors, NULL, gst_requests, gst_sectors, NULL,\n"
  "  shared_ld_requests + shared_st_requests, shared_ld_wavefronts + shared_st_wavefronts,\n"
  "  shared_ld_bank_conflicts + shared_st_bank_conflicts, NULL, NULL, NULL, NULL, NULL, NULL,\n"
  "  shared_atom_requests, shared_atom_rounds, NULL\n"
  "FROM launches WHERE launch_id = ?1";

enum { M_REC, M_GLR, M_GLS, M_GLB, M_GSR, M_GSS, M_GSB, M_SHR, M_SHW, M_SHC, M_SHB, M_L1H, M_L1S, M_L2H, M_L2S, M_DRAM,
       M_SAR, M_SAW, M_DRW, M_N };

#define BOX_W 190.0
#define BOX_H 96.0

static void box(FILE *f, double x, double y, const char *title, const char *l1, const char *l2) {
  svg_rect(f, x, y, BOX_W, BOX_H, "box", NULL);
  svg_text(f, x + BOX_W / 2, y + 22, "middle", "big", title);
  if (l1) svg_text(f, x + BOX_W / 2, y + 48, "middle", NULL, l1);
  if (l2) svg_text(f, x + BOX_W / 2, y + 66, "middle", NULL, l2);
}

static void arrow(FILE *f, double x1, double x2, double y, const char *above, const char *below) {
  svg_line(f, x1, y, x2 - 8, y, "arrow");
  fprintf(f, "<path class=\"ah\" d=\"M%.0f %.0fl-9 -5v10z\"/>\n", x2, y);
  if (above) svg_text(f, (x1 + x2) / 2, y - 8, "middle", NULL, above);
  if (below) svg_text(f, (x1 + x2) / 2, y + 18, "middle", NULL, below);
}

static void hit_bar(FILE *f, double x, double y, const char *name, double rate) {
  char t[80];
  svg_rect(f, x, y, BOX_W, 12, "barbg", NULL);
  if (rate >= 0) {
    snprintf(t, sizeof t, "%s hit rate %.1f %%", name, rate);
    svg_rect(f, x, y, BOX_W * rate / 100, 12, "bar", t);
  } else snprintf(t, sizeof t, "%s hit rate: -", name);
  svg_text(f, x + BOX_W / 2, y + 28, "middle", NULL, t);
}

void rep_memory(rep *r, const rep_launch *l) {
  FILE *f = r->f;
  fprintf(f, "<section id=\"memory-%lld\">\n<h3>Memory hierarchy</h3>\n", l->id);
  double v[M_N] = { 0 };
  bool have[M_N] = { 0 };
  if (r->mem_ready) {
    /* the recorded requests, summed per instruction by report/collect.c */
    v[M_REC] = 1;
    for (long long i = 0; i < r->insn_n; i++) {
      const rep_insn *x = &r->insn[i];
      v[M_GLR] += (double)x->gld_req; v[M_GLS] += (double)x->gld_sec; v[M_GLB] += (double)x->gld_bytes;
      v[M_GSR] += (double)x->gst_req; v[M_GSS] += (double)x->gst_sec; v[M_GSB] += (double)x->gst_bytes;
      v[M_SHR] += (double)(x->shl_req + x->shs_req); v[M_SHW] += (double)(x->shl_wav + x->shs_wav);
      v[M_SHC] += (double)(x->shl_conf + x->shs_conf); v[M_SHB] += (double)x->sh_bytes;
      v[M_L1H] += (double)x->l1_hit; v[M_L1S] += (double)x->l1_sec; v[M_L2H] += (double)x->l2_hit;
      v[M_L2S] += (double)x->l2_sec; v[M_DRAM] += (double)x->dram_rd;
      v[M_SAR] += (double)x->sha_req; v[M_SAW] += (double)x->sha_rounds;
      have[M_L1S] |= x->l1_known; have[M_L2S] |= x->l2_known; have[M_DRAM] |= x->dram_known;
    }
    for (int i = M_REC; i <= M_SHB; i++) have[i] = true;
    have[M_SAR] = have[M_SAW] = true;
  } else {
    sqlite3_stmt *s = rep_prepare(r, counters_sql);
    if (!s) { fputs("</section>\n", f); return; }
    sqlite3_bind_int64(s, 1, l->id);
    int rc = sqlite3_step(s);
    for (int i = 0; i < M_N; i++) {
      have[i] = rc == SQLITE_ROW && sqlite3_column_type(s, i) != SQLITE_NULL;
      v[i] = have[i] ? sqlite3_column_double(s, i) : 0;
    }
    rep_finish(r, s, rc);
    if (rc != SQLITE_ROW) { fputs("</section>\n", f); return; }
  }
  /* the L2 and DRAM totals of a timed run count everything that reached
   * them: besides the L1 misses of cached loads, stores, loads that bypass
   * L1, atomics, code and constant fetches and the launch's own lookups
   * (a far-partition access is looked up twice); so they are shown apart */
  bool totals = false;
  double l1_miss = -1;
  if (!(have[M_L1S] && v[M_L1S] > 0)) {
    /* no per-request hits: a timed run's launch totals (launches.l1_hits ...) */
    sqlite3_stmt *t = rep_prepare(r, "SELECT l1_hits, l1_lookups, l2_hits, l2_lookups, dram_read_bytes, dram_write_bytes "
                                     "FROM launches WHERE launch_id = ? AND l1_lookups IS NOT NULL");
    if (t) {
      sqlite3_bind_int64(t, 1, l->id);
      int rc = sqlite3_step(t);
      if (rc == SQLITE_ROW) {
        v[M_L1H] = sqlite3_column_double(t, 0); v[M_L1S] = sqlite3_column_double(t, 1);
        v[M_L2H] = sqlite3_column_double(t, 2); v[M_L2S] = sqlite3_column_double(t, 3);
        v[M_DRAM] = sqlite3_column_double(t, 4) / 32;
        v[M_DRW] = sqlite3_column_double(t, 5);
        have[M_L1S] = have[M_L2S] = have[M_DRAM] = true;
        have[M_DRW] = sqlite3_column_type(t, 5) != SQLITE_NULL;
        totals = true;
        l1_miss = v[M_L1S] - v[M_L1H];
      }
      rep_finish(r, t, rc);
    }
  }
  bool recorded = v[M_REC] != 0, hits = have[M_L1S] && v[M_L1S] > 0;
  double req_bytes = v[M_GLB] + v[M_GSB], sectors = v[M_GLS] + v[M_GSS];
  double l1_rate = hits ? 100 * v[M_L1H] / v[M_L1S] : -1;
  double l2_rate = have[M_L2S] && v[M_L2S] > 0 ? 100 * v[M_L2H] / v[M_L2S] : -1;
  char a[160], b[160], c[48], d[48];
  char label[96];
  const char *unknown = strcmp(l->gpu, "functional") == 0 ? "? (needs --timing)" : "? (not recorded)";
  snprintf(label, sizeof label, "memory hierarchy of launch %lld", l->id);
  svg_open(f, 1160, 200, label);
  double y = 20, xs[4] = { 10, 330, 650, 960 };
  snprintf(a, sizeof a, "%.0f loads, %.0f stores", v[M_GLR], v[M_GSR]);
  if (recorded) { html_fmt_bytes(c, sizeof c, req_bytes); snprintf(b, sizeof b, "%s requested", c); }
  else snprintf(b, sizeof b, "(global requests)");
  box(f, xs[0], y, "SM: warps", a, b);
  snprintf(a, sizeof a, "shared: %.0f wavefronts", v[M_SHW]);
  if (v[M_SAR] > 0) snprintf(b, sizeof b, "%.0f conflicts, %.0f atomic rounds", v[M_SHC], v[M_SAW]);
  else snprintf(b, sizeof b, "%.0f bank conflicts", v[M_SHC]);
  box(f, xs[1], y, "L1 / shared memory", a, b);
  box(f, xs[2], y, "L2", NULL, NULL);
  box(f, xs[3] - 0, y, "DRAM", NULL, NULL);
  html_fmt_bytes(c, sizeof c, sectors * 32);
  snprintf(a, sizeof a, "global ld/st: %s", c);
  snprintf(b, sizeof b, "%.0f sectors x 32 B", sectors);
  arrow(f, xs[0] + BOX_W, xs[1], y + BOX_H / 2, a, b);
  b[0] = 0;
  if (totals) {
    html_fmt_bytes(c, sizeof c, l1_miss * 32);
    snprintf(a, sizeof a, "cached-load misses %s", c);
    html_fmt_bytes(d, sizeof d, v[M_L2S] * 32);
    snprintf(b, sizeof b, "all L2 lookups %s", d);
  } else if (have[M_L2S]) {
    html_fmt_bytes(c, sizeof c, v[M_L2S] * 32);
    snprintf(a, sizeof a, "%s (L1 misses)", c);
  } else snprintf(a, sizeof a, "%s", unknown);
  arrow(f, xs[1] + BOX_W, xs[2], y + BOX_H / 2, a, b[0] ? b : NULL);
  b[0] = 0;
  if (have[M_DRAM]) {
    html_fmt_bytes(d, sizeof d, v[M_DRAM] * 32);
    snprintf(a, sizeof a, "%s read", d);
    if (have[M_DRW]) { html_fmt_bytes(c, sizeof c, v[M_DRW]); snprintf(b, sizeof b, "%s written", c); }
  } else snprintf(a, sizeof a, "%s", unknown);
  arrow(f, xs[2] + BOX_W, xs[3], y + BOX_H / 2, a, b[0] ? b : NULL);
  hit_bar(f, xs[1], y + BOX_H + 14, "L1", l1_rate);
  hit_bar(f, xs[2], y + BOX_H + 14, "L2", l2_rate);
  svg_close(f);

  /* bytes per level as bars */
  struct { const char *name; double bytes; bool known; } bars[] = {
    { "requested by threads (global)", req_bytes, recorded },
    { "SM -> L1: global load/store sectors", sectors * 32, have[M_GLS] || have[M_GSS] },
    { totals ? "L1 -> L2: misses of L1-cached loads" : "L1 -> L2 (L1 misses)", totals ? l1_miss * 32 : v[M_L2S] * 32,
      totals ? l1_miss >= 0 : have[M_L2S] },
    { "L2 lookups, all kinds (see below)", v[M_L2S] * 32, totals },
    { "DRAM reads (data, code, launch)", v[M_DRAM] * 32, have[M_DRAM] },
    { "DRAM writes (write-backs)", v[M_DRW], have[M_DRW] },
    { "shared memory (requested)", v[M_SHB], have[M_SHB] },
    { "shared memory (wavefronts x 128 B)", v[M_SHW] * 128, have[M_SHW] },
  };
  const int nb = (int)(sizeof bars / sizeof bars[0]);
  double max = 0;
  for (int i = 0; i < nb; i++) if (bars[i].known) max = fmax(max, bars[i].bytes);
  svg_open(f, 1160, nb * 22 + 10, "bytes moved between the levels");
  for (int i = 0; i < nb; i++) {
    double yy = 6 + i * 22;
    svg_text(f, 250, yy + 13, "end", NULL, bars[i].name);
    svg_rect(f, 260, yy, 760, 16, "barbg", NULL);
    if (bars[i].known) {
      html_fmt_bytes(c, sizeof c, bars[i].bytes);
      snprintf(b, sizeof b, "%s: %s (%.0f bytes)", bars[i].name, c, bars[i].bytes);
      if (max > 0 && bars[i].bytes > 0) svg_rect(f, 260, yy, fmax(1, 760 * bars[i].bytes / max), 16, "bar", b);
    } else snprintf(c, sizeof c, "-");
    svg_text(f, 1030, yy + 13, "start", NULL, c);
  }
  svg_close(f);
  if (totals)
    html_note(f, "What each figure counts: 'global ld/st' the 32-byte sectors of the threads' global loads and stores; "
                 "'cached-load misses' the sectors of loads cached in L1 that missed it; 'all L2 lookups' every 32-byte "
                 "lookup the L2 served in the launch: those misses, stores, loads that bypass L1 (.cg, and every global "
                 "load where the GPU does not cache them in L1, as kepler), atomics, instruction and constant fetches, "
                 "the launch's own lookups, and a second lookup of an access served by the far partition of a "
                 "two-partition L2 (A100, H100); DRAM reads and writes likewise include code and launch traffic "
                 "(launches.l1_lookups, l1_hits, l2_lookups, dram_read_bytes, dram_write_bytes).");
  if (v[M_SAR] > 0) {
    char t[200];
    snprintf(t, sizeof t, "Shared atomics: %.0f requests took %.0f rounds (%.2f per request; threads updating one address "
             "take a round each).", v[M_SAR], v[M_SAW], v[M_SAW] / v[M_SAR]);
    html_note(f, t);
  }
  if (!recorded)
    html_note(f, "Memory requests were not recorded (trace level launch or warp): sectors and wavefronts are the emulator's "
                 "counters; bytes need --trace-level mem or all.");
  if (!hits && strcmp(l->gpu, "functional") == 0)
    html_note(f, "Hit rates and the traffic below L1 come from the timing model: record the trace with --timing "
                 "(a functional run does not model caches).");
  else if (!hits)
    html_note(f, "This timed trace holds no cache hits for the memory requests (mem_accesses.l1_hit_sectors is NULL): "
                 "hit rates and the traffic below L1 are unknown.");
  fputs("</section>\n", f);
}
