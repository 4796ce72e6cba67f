/* memmodel/dram.c - DRAM channels, banks and row buffers (see dram.h). */
#include <stdlib.h>
#include <string.h>
#include "memmodel/dram.h"

static uint64_t mix(uint64_t x) {
  x ^= x >> 31; x *= 0x7fb5d329728ea185ull; x ^= x >> 27; x *= 0x81dadef4bc2dd44dull; x ^= x >> 33;
  return x;
}

int dram_init(dram *d, const dram_params *p) {
  memset(d, 0, sizeof *d);
  if (!p->channels || !p->banks || !p->row_bytes || !p->interleave_bytes || p->bytes_per_cycle <= 0) return -1;
  uint32_t groups = p->groups ? p->groups : 1;
  if (p->channels % groups) return -1;
  d->p = *p;
  d->p.groups = groups;
  d->per_group = p->channels / groups;
  if (!(d->count = calloc_lines(groups, sizeof *d->count))) return -1;
  d->ch = calloc(p->channels, sizeof *d->ch);
  d->bank = calloc((size_t)p->channels * p->banks, sizeof *d->bank);
  d->burst_cycles = 32.0 * p->channels / p->bytes_per_cycle;
  if (!d->ch || !d->bank) return -1;
  /* windows of a few bookings each, over the longest queue worth keeping */
  double bus = 8 * d->burst_cycles, act = 2.0 * (p->activate_cycles ? p->activate_cycles : 1);
  double busy = 2.0 * (p->row_miss_cycles ? p->row_miss_cycles : 1);
  size_t nbank = (size_t)p->channels * p->banks;
  if (nbank > UINT32_MAX) return -1;
  uint32_t pg = d->per_group, gb = pg * p->banks;
  lazypool_init(&d->pool, groups * (timeline_group_pool_bytes(pg, bus, TIMELINE_HORIZON) + timeline_group_pool_bytes(pg, act, TIMELINE_HORIZON)
                                    + timeline_group_pool_bytes(gb, busy, TIMELINE_HORIZON)), true);
  /* each kind of timeline of a channel group a timeline group: the
   * serving books them in time order, a group's on one thread */
  for (uint32_t g = 0; g < groups; g++)
    if (timeline_init_group(&d->ch[g * pg].bus, sizeof *d->ch, pg, bus, TIMELINE_HORIZON, &d->pool) ||
        timeline_init_group(&d->ch[g * pg].act, sizeof *d->ch, pg, act, TIMELINE_HORIZON, &d->pool) ||
        timeline_init_group(&d->bank[(size_t)g * gb].busy, sizeof *d->bank, gb, busy, TIMELINE_HORIZON, &d->pool)) return -1;
  return 0;
}

void dram_reset(dram *d) {
  for (uint32_t c = 0; c < d->p.channels; c++) { timeline_reset(&d->ch[c].bus); timeline_reset(&d->ch[c].act); }
  for (size_t b = 0; b < (size_t)d->p.channels * d->p.banks; b++) {
    timeline_reset(&d->bank[b].busy);
    memset(d->bank[b].rows, 0, sizeof d->bank[b].rows);
  }
  memset(d->count, 0, d->p.groups * sizeof *d->count);
}

dram_count dram_counts(const dram *d) {
  dram_count s = { 0 };
  for (uint32_t g = 0; g < d->p.groups; g++) {
    s.read_bytes += d->count[g].read_bytes;
    s.write_bytes += d->count[g].write_bytes;
    s.row_hits += d->count[g].row_hits;
    s.row_misses += d->count[g].row_misses;
  }
  return s;
}

void dram_free(dram *d) {
  for (uint32_t c = 0; d->ch && c < d->p.channels; c++) { timeline_free(&d->ch[c].bus); timeline_free(&d->ch[c].act); }
  for (size_t b = 0; d->bank && b < (size_t)d->p.channels * d->p.banks; b++) timeline_free(&d->bank[b].busy);
  free(d->ch);
  free(d->bank);
  free(d->count);
  d->count = NULL;
  lazypool_free(&d->pool);
  d->ch = NULL;
  d->bank = NULL;
}

uint32_t dram_channel_of(const dram *d, uint32_t g, uint64_t addr) {
  /* consecutive interleave-sized blocks go to hashed channels, so no
   * power-of-two stride lands on one channel; without the hash (Fermi,
   * Kepler) strides of channels * interleave_bytes all hit one channel:
   * partition camping */
  uint64_t block = addr / d->p.interleave_bytes;
  return g * d->per_group + (uint32_t)((d->p.hash ? mix(block) : block) % d->per_group);
}

double dram_access(dram *d, uint32_t c, double t, uint64_t addr, bool write) {
  dram_count *n = &d->count[c / d->per_group];
  dram_channel *ch = &d->ch[c];
  /* a row holds row_bytes of one channel: the chunks of this channel within
   * a window of channels * row_bytes share it */
  uint64_t row = addr / ((uint64_t)d->p.row_bytes * d->p.channels);
  dram_bank *b = &d->bank[(size_t)c * d->p.banks + mix(row ^ c) % d->p.banks];
  double cas, early = (double)DRAM_ROW_EARLY * d->p.row_miss_cycles;
  dram_row *r = NULL, *lru = &b->rows[0];
  for (int i = 0; i < DRAM_ROWS; i++) {
    dram_row *o = &b->rows[i];
    if (o->open && o->row == row && t + early >= o->first) { r = o; break; }
    if (!o->open || (lru->open && o->last < lru->last)) lru = o;
  }
  if (r) {
    /* a request served before the one that opened the row (booked first)
     * would have opened it itself */
    cas = t > r->ready ? t : r->ready;
    if (cas > t + d->p.row_miss_cycles) cas = t + d->p.row_miss_cycles;
    if (t > r->last) r->last = t;
    if (t < r->first) r->first = t;
    n->row_hits++;
  } else {
    /* the bank precharges and activates (busy row_miss_cycles), after an
     * activate slot of the channel */
    double act = timeline_take(&b->busy, t, d->p.row_miss_cycles);
    act = timeline_take(&ch->act, act, d->p.activate_cycles);
    cas = act + d->p.row_miss_cycles;
    *lru = (dram_row){ row, t, t, cas, true };
    n->row_misses++;
  }
  double end = timeline_take(&ch->bus, cas, d->burst_cycles) + d->burst_cycles;
  if (write) n->write_bytes += 32; else n->read_bytes += 32;
  /* unloaded: a row miss takes `latency`, a row hit row_miss_cycles less */
  double rest = (double)d->p.latency - d->p.row_miss_cycles - d->burst_cycles;
  return end + (rest > 0 ? rest : 0);
}
