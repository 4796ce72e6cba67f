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
  d->p = *p;
  d->ch = calloc(p->channels, sizeof *d->ch);
  d->bank = calloc((size_t)p->channels * p->banks, sizeof *d->bank);
  d->burst_cycles = 32.0 * p->channels / p->bytes_per_cycle;
  if (!d->ch || !d->bank) return -1;
  /* windows of a few bookings each, over the longest queue worth keeping */
  double bus = 8 * d->burst_cycles, act = 2.0 * (p->activate_cycles ? p->activate_cycles : 1);
  double busy = 2.0 * (p->row_miss_cycles ? p->row_miss_cycles : 1);
  size_t nbank = (size_t)p->channels * p->banks;
  if (nbank > UINT32_MAX) return -1;
  lazypool_init(&d->pool, timeline_group_pool_bytes(p->channels, bus, TIMELINE_HORIZON) + timeline_group_pool_bytes(p->channels, act, TIMELINE_HORIZON)
                          + timeline_group_pool_bytes((uint32_t)nbank, busy, TIMELINE_HORIZON), true);   /* (served on one thread) */
  /* each kind of timeline a group: the serving books them in time order */
  if (timeline_init_group(&d->ch[0].bus, sizeof *d->ch, p->channels, bus, TIMELINE_HORIZON, &d->pool) ||
      timeline_init_group(&d->ch[0].act, sizeof *d->ch, p->channels, act, TIMELINE_HORIZON, &d->pool) ||
      timeline_init_group(&d->bank[0].busy, sizeof *d->bank, (uint32_t)nbank, busy, TIMELINE_HORIZON, &d->pool)) return -1;
  return 0;
}

void dram_reset(dram *d) {
  for (uint32_t c = 0; c < d->p.channels; c++) { timeline_reset(&d->ch[c].bus); timeline_reset(&d->ch[c].act); }
  for (size_t b = 0; b < (size_t)d->p.channels * d->p.banks; b++) {
    timeline_reset(&d->bank[b].busy);
    memset(d->bank[b].rows, 0, sizeof d->bank[b].rows);
  }
  d->read_bytes = d->write_bytes = d->row_hits = d->row_misses = 0;
}

void dram_free(dram *d) {
  for (uint32_t c = 0; d->ch && c < d->p.channels; c++) { timeline_free(&d->ch[c].bus); timeline_free(&d->ch[c].act); }
  for (size_t b = 0; d->bank && b < (size_t)d->p.channels * d->p.banks; b++) timeline_free(&d->bank[b].busy);
  free(d->ch);
  free(d->bank);
  lazypool_free(&d->pool);
  d->ch = NULL;
  d->bank = NULL;
}

uint32_t dram_channel_of(const dram *d, uint64_t addr) {
  /* consecutive interleave-sized blocks go to hashed channels, so no
   * power-of-two stride lands on one channel; without the hash (Fermi,
   * Kepler) strides of channels * interleave_bytes all hit one channel:
   * partition camping */
  uint64_t block = addr / d->p.interleave_bytes;
  return (uint32_t)((d->p.hash ? mix(block) : block) % d->p.channels);
}

double dram_access(dram *d, double t, uint64_t addr, bool write) {
  uint32_t c = dram_channel_of(d, addr);
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
    d->row_hits++;
  } else {
    /* the bank precharges and activates (busy row_miss_cycles), after an
     * activate slot of the channel */
    double act = timeline_take(&b->busy, t, d->p.row_miss_cycles);
    act = timeline_take(&ch->act, act, d->p.activate_cycles);
    cas = act + d->p.row_miss_cycles;
    *lru = (dram_row){ row, t, t, cas, true };
    d->row_misses++;
  }
  double end = timeline_take(&ch->bus, cas, d->burst_cycles) + d->burst_cycles;
  if (write) d->write_bytes += 32; else d->read_bytes += 32;
  /* unloaded: a row miss takes `latency`, a row hit row_miss_cycles less */
  double rest = (double)d->p.latency - d->p.row_miss_cycles - d->burst_cycles;
  return end + (rest > 0 ? rest : 0);
}
