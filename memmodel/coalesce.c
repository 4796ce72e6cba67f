/* memmodel/coalesce.c - address-determined access counters: how many
 * sectors and lines a warp's global access touches, how many wavefronts a
 * shared access needs given bank conflicts (and the bank mode), how many
 * rounds a shared atomic needs. */
#include <stdbool.h>
#include <string.h>
#include "memmodel/space.h"
#include "util/bits.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* loops over a warp's lanes unrolled (GCC 8 and later; others decide) */
#if defined(__GNUC__) && __GNUC__ >= 8 && !defined(__clang__)
#define UNROLL(n) _Pragma(#n)
#else
#define UNROLL(n)
#endif

/* two lanes' addresses: whole-warp reductions in vector instructions */
typedef uint64_t u64x2 __attribute__((vector_size(16)));

uint32_t mm_sector_bytes(const uint64_t *addr, uint32_t mask, uint32_t bytes, uint64_t *sec, uint32_t *lanes, uint32_t *touched) {
  uint32_t n = 0;
  uint64_t len = bytes ? bytes : 1;
  /* every lane, each the next len bytes after the one before, aligned to
   * len (a power of two up to a sector): one lane in one sector, the
   * sectors consecutive, their bytes one run (the loop below's answer,
   * without its per-lane search) */
  if (mask == 0xffffffffu && len <= 32 && !(len & (len - 1)) && !(addr[0] & (len - 1))) {
    uint64_t d = 0;
    for (int i = 1; i < 32; i++) d |= addr[i] ^ (addr[0] + (uint64_t)i * len);
    if (!d) {
      uint64_t a = addr[0], end = addr[0] + 32 * len;             /* one past the last byte */
      uint64_t first = a >> 5;
      n = (uint32_t)(((end - 1) >> 5) - first + 1);
      for (uint32_t k = 0; k < n; k++) {
        uint64_t s0 = (first + k) << 5, lo = a > s0 ? a - s0 : 0, hi = end - s0 < 32 ? end - s0 : 32;
        sec[k] = first + k;
        lanes[k] = (uint32_t)((hi - lo) / len);
        touched[k] = (uint32_t)(((1ull << hi) - 1) & ~((1ull << lo) - 1));
      }
      return n;
    }
  }
  /* while the sectors come in rising order (a coalesced or strided
   * access), a sector is the last one or a new one: no search */
  bool rising = true;
  for (int i = 0; i < 32; i++) {
    if (!(mask >> i & 1)) continue;
    for (uint64_t sc = addr[i] >> 5; sc <= (addr[i] + len - 1) >> 5 && n < 64; sc++) {
      uint32_t k;
      if (n && sc == sec[n - 1]) k = n - 1;
      else if (rising && (!n || sc > sec[n - 1])) k = n;
      else {
        rising = false;
        k = 0;
        while (k < n && sec[k] != sc) k++;
      }
      if (k == n) { sec[n] = sc; lanes[n] = 0; touched[n++] = 0; }
      lanes[k]++;
      uint64_t lo = addr[i] > sc << 5 ? addr[i] - (sc << 5) : 0, hi = addr[i] + len - (sc << 5);
      if (hi > 32) hi = 32;
      touched[k] |= (uint32_t)(((1ull << hi) - 1) & ~((1ull << lo) - 1));
    }
  }
  return n;
}

/* Small sorted-set insert; 32 lanes x at most 2 sectors each. */
static uint32_t add_unique(uint64_t *set, uint32_t n, uint64_t v) {
  for (uint32_t i = 0; i < n; i++) if (set[i] == v) return n;
  set[n] = v;
  return n + 1;
}

void mm_sectors(const uint64_t *addr, uint32_t m, uint32_t bytes, uint32_t *sectors, uint32_t *lines) {
  uint64_t sec[128], lin[128];
  uint32_t ns = 0, nl = 0;
  if (m == 0xffffffffu && bytes && bytes <= 32) {
    /* a whole warp in address order, each access inside one sector (see
     * below), two lanes at a time: below 2^63 (bit 63 of an address is
     * taken for a break too) a lane's address minus the previous lane's
     * has bit 63 set where the order breaks, an access crosses a sector
     * where its offset in the sector plus bytes - 1 has bit 5 set, and
     * (x | -x) >> 63 is 1 where x is not 0 */
    u64x2 cur, prv, bad = { 0, 0 }, cs = { 0, 0 }, cl = { 0, 0 }, zero = { 0, 0 };
    uint64_t a0 = addr[0], a1 = addr[1], x;
    bad[0] = a0 | a1 | (a1 - a0) | (((a0 & 31) + bytes - 1) << 58) | (((a1 & 31) + bytes - 1) << 58);
    x = (a1 ^ a0) >> 5; cs[0] = (x | (0 - x)) >> 63;
    x = (a1 ^ a0) >> 7; cl[0] = (x | (0 - x)) >> 63;
    for (int i = 2; i < 32; i += 2) {
      memcpy(&cur, addr + i, sizeof cur);
      memcpy(&prv, addr + i - 1, sizeof prv);
      bad |= cur | (cur - prv) | (((cur & 31) + (bytes - 1)) << 58);
      u64x2 xs = (cur ^ prv) >> 5, xl = (cur ^ prv) >> 7;
      cs += (xs | (zero - xs)) >> 63;
      cl += (xl | (zero - xl)) >> 63;
    }
    if (!((bad[0] | bad[1]) >> 63)) { *sectors = 1 + (uint32_t)(cs[0] + cs[1]); *lines = 1 + (uint32_t)(cl[0] + cl[1]); return; }
  }
  if (bytes && bytes <= 32) {
    /* common case: lanes in address order, each access inside one sector;
     * equal sectors and lines are then neighbours, and the distinct ones
     * are counted by their changes from lane to lane */
    uint64_t prev = 0, ps = ~0ull, pl = ~0ull;
    int i;
    for (i = 0; i < 32; i++) {
      if (!(m >> i & 1)) continue;
      uint64_t a = addr[i];
      if (a < prev || (a >> 5) != ((a + bytes - 1) >> 5)) break;
      prev = a;
      ns += (a >> 5) != ps; ps = a >> 5;
      nl += (a >> 7) != pl; pl = a >> 7;
    }
    if (i == 32) { *sectors = ns; *lines = nl; return; }
    ns = nl = 0;
  }
  for (int i = 0; i < 32; i++) {
    if (!(m >> i & 1)) continue;
    uint64_t first = addr[i], last = addr[i] + (bytes ? bytes : 1) - 1;
    for (uint64_t s = first >> 5; s <= last >> 5 && ns < 128; s++) ns = add_unique(sec, ns, s);
    for (uint64_t l = first >> 7; l <= last >> 7 && nl < 128; l++) nl = add_unique(lin, nl, l);
  }
  *sectors = ns;
  *lines = nl;
}

/* Accesses of up to 4 bytes with bank conflicts: the most distinct words
 * one bank is asked for, the words counted once each through a small
 * open-addressing table.  Apart, so the conflict-free test stays tight. */
static __attribute__((noinline)) uint32_t most_words_in_a_bank(const uint64_t *addr, uint32_t m) {
  uint64_t key[64];
  uint8_t used[64] = {0}, per_bank[32] = {0};
  uint32_t worst = 1;
  for (int i = 0; i < 32; i++) {
    if (!(m >> i & 1)) continue;
    uint64_t w = addr[i] >> 2;
    uint32_t h = (uint32_t)((w * 0x9e3779b97f4a7c15ull) >> 58);
    while (used[h] && key[h] != w) h = (h + 1) & 63;
    if (used[h]) continue;
    used[h] = 1;
    key[h] = w;
    if (++per_bank[w & 31] > worst) worst = per_bank[w & 31];
  }
  return worst;
}

/* Most set bits in one column (bit position) of n rows of 32 bits (n <=
 * 32): each column's count in bit-sliced counters (c[0] the ones, c[5]
 * the thirty-twos), then the greatest, highest bit first. */
static uint32_t most_in_a_column(const uint32_t *rows, uint32_t n) {
  uint32_t c[6] = {0};
  for (uint32_t r = 0; r < n; r++) {
    uint32_t t = rows[r], k;
    for (int b = 0; b < 5 && t; b++) { k = c[b] & t; c[b] ^= t; t = k; }
    c[5] |= t;
  }
  uint32_t cand = ~0u, most = 0;
  for (int b = 5; b >= 0; b--) {
    uint32_t x = cand & c[b];
    if (x) { cand = x; most |= 1u << b; }
  }
  return most;
}

uint32_t mm_shared_wavefronts(const uint64_t *addr, uint32_t m, uint32_t bytes, uint32_t *ideal) {
  if (bytes <= 4 && m) {
    /* common case: no two lanes hit different words of one bank */
    uint64_t word[32];
    uint32_t seen = 0;
    int i;
    if (m == 0xffffffffu) {
      /* all words in one aligned block of 32 words (the addresses' AND and
       * OR agree above bit 6): each bank has one */
      u64x2 va = { ~0ull, ~0ull }, vo = { 0, 0 };
      UNROLL(GCC unroll 16)
      for (i = 0; i < 32; i += 2) { u64x2 v; memcpy(&v, addr + i, sizeof v); va &= v; vo |= v; }
      if (!(((va[0] & va[1]) ^ (vo[0] | vo[1])) >> 7)) { *ideal = 1; return 1; }
    }
    if (m == 0xffffffffu) {     /* a whole warp: no mask test, unrolled */
      UNROLL(GCC unroll 8)
      for (i = 0; i < 32; i++) {
        uint64_t w = addr[i] >> 2;
        uint32_t b = (uint32_t)(w & 31);
        if (!(seen >> b & 1)) { seen |= 1u << b; word[b] = w; }
        else if (word[b] != w) break;
      }
    } else {
      for (i = 0; i < 32; i++) {
        if (!(m >> i & 1)) continue;
        uint64_t w = addr[i] >> 2;
        uint32_t b = (uint32_t)(w & 31);
        if (!(seen >> b & 1)) { seen |= 1u << b; word[b] = w; }
        else if (word[b] != w) break;
      }
    }
    if (i == 32) { *ideal = 1; return 1; }
    *ideal = 1;
    return most_words_in_a_bank(addr, m);
  }
  /* A wavefront serves 128 bytes, one distinct 4-byte word a bank: the
   * lanes of a 64-bit access go together, those of a 128-bit one a half-warp
   * at a time, so a half-warp's distinct bytes take at least one wavefront
   * ([M] tests/microbench mb_fuse: 32 lanes reading the same 16 bytes take
   * 2 wavefronts an LDS.128, the same 8 bytes 1 an LDS.64; 16 bytes a lane
   * at a 32-byte stride 8). */
  uint32_t per = bytes <= 8 ? 32 : 16;
  uint32_t total = 0, least = 0;
  uint32_t nw = bytes <= 4 ? 1 : bytes / 4;
  for (uint32_t g = 0; g < 32; g += per) {
    uint32_t gm = (per == 32 ? m : (m >> g) & ((1u << per) - 1));
    if (!gm) continue;
    /* the group's words within 1024 of each other (a float4 per lane, a
     * tile's row): a bitmap of them, a row of 32 words a line of the banks;
     * the most words one bank serves is the most bits in a column */
    if (nw <= 4) {
      uint64_t lo = UINT64_MAX, hi = 0;
      for (uint32_t k = 0; k < per; k++) {
        if (!(gm >> k & 1)) continue;
        uint64_t w0 = addr[g + k] >> 2;
        lo = w0 < lo ? w0 : lo;
        hi = w0 + nw - 1 > hi ? w0 + nw - 1 : hi;
      }
      uint64_t base = lo & ~31ull;
      if (hi - base < 32 * 32) {
        uint32_t rows[33] = {0}, nrows = (uint32_t)((hi - base) >> 5) + 1, distinct = 0;
        for (uint32_t k = 0; k < per; k++) {
          if (!(gm >> k & 1)) continue;
          uint64_t wd = (addr[g + k] >> 2) - base, bits = ((1ull << nw) - 1) << (wd & 31);
          rows[wd >> 5] |= (uint32_t)bits;
          rows[(wd >> 5) + 1] |= (uint32_t)(bits >> 32);
        }
        for (uint32_t r = 0; r < nrows; r++) distinct += (uint32_t)popc32(rows[r]);
        total += most_in_a_column(rows, nrows);
        least += distinct > 32 ? (distinct + 31) / 32 : 1;
        continue;
      }
    }
    uint64_t words[32][32];   /* a bank sees at most 32 distinct words in a group */
    uint8_t nwords[32] = {0};
    uint32_t worst = 1, distinct = 0;
    for (uint32_t k = 0; k < per; k++) {
      if (!(gm >> k & 1)) continue;
      uint64_t a = addr[g + k];
      for (uint32_t w = 0; w < nw; w++) {
        uint64_t word = (a >> 2) + w;
        uint32_t bank = (uint32_t)(word & 31);
        uint32_t j = 0;
        while (j < nwords[bank] && words[bank][j] != word) j++;
        if (j == nwords[bank] && j < 32) { words[bank][nwords[bank]++] = word; distinct++; }
        if (nwords[bank] > worst) worst = nwords[bank];
      }
    }
    total += worst;
    /* without conflicts: as many wavefronts as 128 bytes of distinct words */
    least += distinct > 32 ? (distinct + 31) / 32 : 1;
  }
  *ideal = least;
  return total;
}

uint32_t mm_shared_wavefronts_banked(const uint64_t *addr, uint32_t m, uint32_t bytes, uint32_t bank_bytes, uint32_t *ideal) {
  if (bank_bytes <= 4 || !m) return mm_shared_wavefronts(addr, m, bytes, ideal);
  /* lanes go in groups that fit one wavefront of 32 * bank_bytes bytes;
   * within a group each bank serves one distinct bank-wide word */
  uint32_t span = 32 * bank_bytes, per = bytes <= bank_bytes ? 32 : span / bytes;
  if (!per) per = 1;
  uint32_t total = 0, groups = 0;
  for (uint32_t g = 0; g < 32; g += per) {
    uint32_t gm = per >= 32 ? m : (m >> g) & ((1u << per) - 1);
    if (!gm) continue;
    groups++;
    uint64_t words[32][32];
    uint8_t nwords[32] = {0};
    uint32_t worst = 1;
    for (uint32_t k = 0; k < per && g + k < 32; k++) {
      if (!(gm >> k & 1)) continue;
      uint64_t first = addr[g + k] / bank_bytes, last = (addr[g + k] + (bytes ? bytes : 1) - 1) / bank_bytes;
      for (uint64_t word = first; word <= last && word < first + 32; word++) {
        uint32_t bank = (uint32_t)(word & 31), j = 0;
        while (j < nwords[bank] && words[bank][j] != word) j++;
        if (j == nwords[bank] && j < 32) words[bank][nwords[bank]++] = word;
        if (nwords[bank] > worst) worst = nwords[bank];
      }
    }
    total += worst;
  }
  *ideal = groups;
  return total;
}

uint32_t mm_shared_wavefronts_mode(const uint64_t *addr, uint32_t m, uint32_t bytes, uint32_t bank_bytes, uint32_t mode_bytes,
                                   uint32_t *ideal) {
  if (!m || !mode_bytes || mode_bytes >= bank_bytes) return mm_shared_wavefronts_banked(addr, m, bytes, bank_bytes, ideal);
  uint32_t span = 32 * bank_bytes, per = bytes <= bank_bytes ? 32 : span / bytes;
  if (!per) per = 1;
  uint32_t total = 0, groups = 0;
  for (uint32_t g = 0; g < 32; g += per) {
    uint32_t gm = per >= 32 ? m : (m >> g) & ((1u << per) - 1);
    if (!gm) continue;
    groups++;
    uint64_t rows[32][32];   /* the rows a bank is asked for in this group */
    uint8_t nrows[32] = {0};
    uint32_t worst = 1;
    for (uint32_t k = 0; k < per && g + k < 32; k++) {
      if (!(gm >> k & 1)) continue;
      uint64_t a = addr[g + k], first = a / mode_bytes, last = (a + (bytes ? bytes : 1) - 1) / mode_bytes;
      for (uint64_t word = first; word <= last && word < first + 32; word++) {
        uint32_t bank = (uint32_t)(word & 31), j = 0;
        uint64_t row = word * mode_bytes / span;
        while (j < nrows[bank] && rows[bank][j] != row) j++;
        if (j == nrows[bank] && j < 32) rows[bank][nrows[bank]++] = row;
        if (nrows[bank] > worst) worst = nrows[bank];
      }
    }
    total += worst;
  }
  *ideal = groups;
  return total;
}

/* mm_shared_atomic4 where every address lies in one aligned 1 KB block (a
 * histogram's 256 bins): a word's place in the block is its slot, and its
 * bank the slot's low 5 bits, so the words touched, as 8 rows of 32 banks,
 * give the most distinct words on one bank.  The most lanes on one word is
 * at most 1 + the lanes that repeat a word: when that is no more than the
 * words on one bank, the lanes need no count.  base: the block's first
 * word.  (A table of counts per slot read back with vector loads waits on
 * the stores of its 32 increments, which dominated this function.) */
static int64_t atomic4_block(const uint64_t *addr, uint32_t m, uint64_t base, uint32_t *wavefronts) {
  uint32_t rows[8] = {0}, n = 0;
  uint8_t slot[32];
  if (m == 0xffffffffu) {
    UNROLL(GCC unroll 8)
    for (int i = 0; i < 32; i++) {
      uint32_t h = (uint8_t)((addr[i] >> 2) - base);
      slot[i] = (uint8_t)h;
      rows[h >> 5] |= 1u << (h & 31);
    }
    n = 32;
  } else
    for (uint32_t k = m; k; k &= k - 1) {
      uint32_t h = (uint8_t)((addr[__builtin_ctz(k)] >> 2) - base);
      slot[n++] = (uint8_t)h;
      rows[h >> 5] |= 1u << (h & 31);
    }
  /* each bank's words as a 4-bit count in bit planes b0..b3, in registers */
  uint32_t b0 = 0, b1 = 0, b2 = 0, b3 = 0;
  for (int r = 0; r < 8; r++) {
    uint32_t t = rows[r], c0 = b0 & t, c1 = b1 & c0, c2 = b2 & c1;
    b0 ^= t; b1 ^= c0; b2 ^= c1; b3 |= c2;
  }
  uint32_t words = 0, cand = ~0u, x;
  if ((x = cand & b3)) { cand = x; words |= 8; }
  if ((x = cand & b2)) { cand = x; words |= 4; }
  if ((x = cand & b1)) { cand = x; words |= 2; }
  if (cand & b0) words |= 1;
  uint32_t distinct = (uint32_t)(popc32(b0) + 2 * popc32(b1) + 4 * popc32(b2) + 8 * popc32(b3));
  *wavefronts = words;
  if (n - distinct + 1 <= words) return words;
  uint8_t count[256];
  uint32_t lanes = 0;
  for (uint32_t k = 0; k < n; k++) count[slot[k]] = 0;
  for (uint32_t k = 0; k < n; k++) { uint32_t c = ++count[slot[k]]; lanes = c > lanes ? c : lanes; }
  return lanes > words ? lanes : words;
}

int64_t mm_shared_atomic4(const uint64_t *addr, uint32_t m, uint32_t *wavefronts) {
  if (!m) return -1;
  /* the AND and OR of the addresses: their alignment, and the bits in
   * which they differ (vector instructions for a whole warp) */
  uint64_t all = ~0ull, any = 0;
  if (m == 0xffffffffu) {
    u64x2 va = { ~0ull, ~0ull }, vo = { 0, 0 };
    UNROLL(GCC unroll 16)
    for (int i = 0; i < 32; i += 2) { u64x2 v; memcpy(&v, addr + i, sizeof v); va &= v; vo |= v; }
    all = va[0] & va[1];
    any = vo[0] | vo[1];
  } else
    for (int i = 0; i < 32; i++) if (m >> i & 1) { all &= addr[i]; any |= addr[i]; }
  if (any & 3) return -1;
  if ((any ^ all) < 1024) return atomic4_block(addr, m, (all & ~1023ull) >> 2, wavefronts);
  uint64_t lo = UINT64_MAX, hi = 0, lead = addr[__builtin_ctz(m)];
  for (int i = 0; i < 32; i++) {
    uint64_t a = m >> i & 1 ? addr[i] : lead;
    lo = a < lo ? a : lo;
    hi = a > hi ? a : hi;
  }
  /* aligned words: lanes on one address are lanes on one word, so counting
   * lanes per word gives both figures: the most lanes on one word (rounds)
   * and the most distinct words on one bank (a word's first lane adds it
   * to its bank).  Words within 256 of each other (a histogram's bins) are
   * counted by their distance from the lowest, without hashing; others in
   * 128 slots of the same table (open addressing, 32 keys at most). */
  uint64_t w0 = lo >> 2, key[128];
  bool near = (hi >> 2) - w0 < 256;
  uint8_t count[256] = {0}, per_bank[32] = {0};
  uint32_t lanes = 0, words = 1;
  for (int i = 0; i < 32; i++) {
    if (!(m >> i & 1)) continue;
    uint64_t w = addr[i] >> 2;
    uint32_t h;
    if (near) h = (uint32_t)(w - w0);
    else {
      h = (uint32_t)((w * 0x9e3779b97f4a7c15ull) >> 57);
      while (count[h] && key[h] != w) h = (h + 1) & 127;
      key[h] = w;
    }
    uint32_t c = ++count[h], b = (uint32_t)(w & 31);
    per_bank[b] = (uint8_t)(per_bank[b] + (c == 1));
    words = per_bank[b] > words ? per_bank[b] : words;
    lanes = c > lanes ? c : lanes;
  }
  *wavefronts = words;
  return lanes > words ? lanes : words;
}

uint32_t mm_shared_atomic_rounds(const uint64_t *addr, uint32_t m, uint32_t wavefronts) {
  /* the most lanes on one address: each needs its own read-modify-write;
   * lanes are counted by address in a table of twice as many slots as
   * lanes (open addressing) */
  uint64_t key[64];
  uint8_t count[64] = {0};
  uint32_t worst = 0;
  for (int i = 0; i < 32; i++) {
    if (!(m >> i & 1)) continue;
    uint64_t a = addr[i];
    uint32_t h = (uint32_t)((a * 0x9e3779b97f4a7c15ull) >> 58);
    while (count[h] && key[h] != a) h = (h + 1) & 63;
    key[h] = a;
    if (++count[h] > worst) worst = count[h];
  }
  return worst > wavefronts ? worst : wavefronts;
}
