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
  return d->ch && d->bank ? 0 : -1;
}

void dram_free(dram *d) { free(d->ch); free(d->bank); d->ch = NULL; d->bank = NULL; }

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
  double start = t > b->free ? t : b->free, cas;
  if (b->open && b->row == row) { cas = start; d->row_hits++; }
  else {
    double act = start > ch->act_free ? start : ch->act_free;
    ch->act_free = act + d->p.activate_cycles;
    cas = act + d->p.row_miss_cycles;
    b->row = row;
    b->open = true;
    b->free = cas;
    d->row_misses++;
  }
  double burst = cas > ch->bus_free ? cas : ch->bus_free;
  ch->bus_free = burst + d->burst_cycles;
  if (write) d->write_bytes += 32; else d->read_bytes += 32;
  /* unloaded: a row miss takes `latency`, a row hit row_miss_cycles less */
  double rest = (double)d->p.latency - d->p.row_miss_cycles - d->burst_cycles;
  return ch->bus_free + (rest > 0 ? rest : 0);
}
