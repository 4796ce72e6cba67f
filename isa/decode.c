/* isa/decode.c - from a dotted spelling ("ld.global.v4.f32") to an opcode
 * and decoded modifier fields, and back.
 *
 * The base opcode is the longest dotted prefix found in the table, so
 * "cp.async.bulk.tensor.2d..." finds "cp.async.bulk.tensor" and
 * "cp.async.ca.shared.global" finds "cp.async".  Each later component is a
 * type, a modifier of a group the opcode accepts, or a shape pattern. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "isa/isa.h"
#include "util/strtab.h"

/* Small static hash tables, built on first use. */
#define OPH 512
#define MODH 1024
static int16_t op_hash[OPH];
static struct { int16_t ids[4]; } mod_hash[MODH];
static const char *mod_key[MODH];
static int tables_ready;

static void build_tables(void) {
  memset(op_hash, -1, sizeof op_hash);
  for (int i = 0; i < OP_COUNT; i++) {
    const char *n = isa_ops[i].name;
    uint32_t h = strtab_hash(n, strlen(n)) & (OPH - 1);
    while (op_hash[h] >= 0) h = (h + 1) & (OPH - 1);
    op_hash[h] = (int16_t)i;
  }
  for (int i = 1; i < MOD_COUNT; i++) {
    const char *n = isa_mods[i].name;
    uint32_t h = strtab_hash(n, strlen(n)) & (MODH - 1);
    while (mod_key[h] && strcmp(mod_key[h], n) != 0) h = (h + 1) & (MODH - 1);
    mod_key[h] = n;
    int k = 0;
    while (k < 4 && mod_hash[h].ids[k]) k++;
    if (k < 4) mod_hash[h].ids[k] = (int16_t)i;
  }
  tables_ready = 1;
}

static int find_op(const char *s, size_t n) {
  uint32_t h = strtab_hash(s, n) & (OPH - 1);
  for (; op_hash[h] >= 0; h = (h + 1) & (OPH - 1)) {
    const char *k = isa_ops[op_hash[h]].name;
    if (strncmp(k, s, n) == 0 && k[n] == 0) return op_hash[h];
  }
  return -1;
}

/* Candidate modifier ids for a spelling (zero-terminated list of up to 4). */
static const int16_t *find_mods(const char *s, size_t n) {
  static const int16_t none[4] = {0};
  uint32_t h = strtab_hash(s, n) & (MODH - 1);
  for (; mod_key[h]; h = (h + 1) & (MODH - 1))
    if (strncmp(mod_key[h], s, n) == 0 && mod_key[h][n] == 0) return mod_hash[h].ids;
  return none;
}

static int parse_uint(const char **p, const char *end, uint32_t *v) {
  const char *q = *p;
  uint32_t x = 0;
  while (q < end && *q >= '0' && *q <= '9') { x = x * 10 + (uint32_t)(*q - '0'); q++; }
  if (q == *p || x > 65535) return 0;
  *v = x; *p = q;
  return 1;
}

/* .m16n8k16 / .m8n8 */
static int match_shape(const char *s, size_t n, isa_insn *in) {
  const char *p = s, *e = s + n;
  uint32_t m, nn, k = 0;
  if (p == e || *p++ != 'm' || !parse_uint(&p, e, &m) || p == e || *p++ != 'n' || !parse_uint(&p, e, &nn)) return 0;
  if (p < e) { if (*p++ != 'k' || !parse_uint(&p, e, &k)) return 0; }
  if (p != e || m > 255) return 0;
  in->shape_m = (uint8_t)m; in->shape_n = (uint16_t)nn; in->shape_k = (uint16_t)k;
  return 1;
}

static void apply_mod(isa_insn *in, int mod) {
  switch (isa_mods[mod].group) {
  case G_RND:
    in->rnd = (uint8_t)(mod == MOD_RN ? RND_RN : mod == MOD_RZ ? RND_RZ : mod == MOD_RM ? RND_RM :
                        mod == MOD_RP ? RND_RP : mod == MOD_RNA ? RND_RNA : RND_RS);
    break;
  case G_IRND:
    in->rnd = (uint8_t)(mod == MOD_RNI ? RND_RN : mod == MOD_RZI ? RND_RZ : mod == MOD_RMI ? RND_RM : RND_RP);
    in->flags |= IF_INTRND;
    break;
  case G_FTZ: in->flags |= mod == MOD_FTZ ? IF_FTZ : mod == MOD_NOFTZ ? IF_NOFTZ : 0; break;
  case G_SAT: in->flags |= mod == MOD_SAT ? IF_SAT : IF_SATFINITE; break;
  case G_APPROX: in->flags |= mod == MOD_APPROX ? IF_APPROX : IF_FULL; break;
  case G_HILO: in->flags |= mod == MOD_HI ? IF_HI : mod == MOD_LO ? IF_LO : IF_WIDE; break;
  case G_CC: in->flags |= IF_CC; break;
  case G_NAN: in->flags |= mod == MOD_NAN_ ? IF_NAN : mod == MOD_XORSIGN ? IF_XORSIGN : IF_ABS; break;
  case G_RELU: in->flags |= IF_RELU; break;
  case G_SHF:
    in->flags |= mod == MOD_WRAP ? IF_WRAP : mod == MOD_CLAMP ? IF_CLAMP : mod == MOD_L ? IF_L : IF_R;
    break;
  case G_CMP: in->cmp = (uint16_t)mod; break;
  case G_BOOL: case G_ATOMOP:
    if (!in->bop) in->bop = (uint16_t)mod;
    else if (!in->sub) in->sub = (uint16_t)mod;     /* mma .xor.popc, bar.red.popc */
    break;
  case G_SPACE:
    if (mod == MOD_TO) { in->flags |= IF_TO; break; }
    if (!in->space) in->space = (uint16_t)mod; else in->space2 = (uint16_t)mod;
    break;
  case G_SEM:
    if (mod == MOD_VOLATILE) in->flags |= IF_VOLATILE;
    in->sem = (uint16_t)mod;
    break;
  case G_SCOPE: in->scope = (uint16_t)mod; break;
  case G_VEC: in->vec = (uint8_t)(mod == MOD_V2 ? 2 : mod == MOD_V4 ? 4 : mod == MOD_V8 ? 8 : 16); break;
  case G_CACHE:
    if (mod == MOD_L2_CACHE_HINT) in->flags |= IF_CACHE_HINT;
    else if (mod == MOD_NC) in->flags |= IF_NC;
    if (!in->cache) in->cache = (uint16_t)mod;
    break;
  case G_UNI: in->flags |= IF_UNI; break;
  case G_SYNC: in->flags |= mod == MOD_SYNC ? IF_SYNC : IF_ALIGNED; break;
  case G_MMA: if (mod == MOD_TRANS) in->flags |= IF_TRANS; break;
  case G_ASYNC:
    if (mod == MOD_PARITY) in->flags |= IF_PARITY;
    else if (mod == MOD_EXPECT_TX) in->flags |= IF_EXPECT_TX;
    if (!in->sub) in->sub = (uint16_t)mod;
    break;
  default:          /* G_WARP, G_BAR, G_PRMT, G_TESTP, G_TMAP, G_TEX, G_FENCE, G_MISC */
    if (!in->sub) in->sub = (uint16_t)mod;
    if (mod == MOD_SHIFTAMT) in->flags |= IF_SHIFTAMT;
    break;
  }
}

/* Length of the first dotted component of an opcode name: messages name
 * an instruction by it ('mbarrier' for mbarrier.init.shared.b64). */
int isa_opcode_word_len(const char *name) { return (int)strcspn(name, "."); }

/* The instructions ptxemu knows but does not support yet (opcodes.def). */
static const struct unsupported { const char *spelling, *target; } unsupported[] = {
#define UNSUPPORTED(spelling, target, ptx) { spelling, target },
#include "isa/opcodes.def"
#undef UNSUPPORTED
};

/* Whether written modifier c[0..n) is w (up to a '::' in c). */
static bool mod_is(const char *c, size_t n, const char *w, size_t wn) {
  const char *j = c;
  while (j + 1 < c + n && !(j[0] == ':' && j[1] == ':')) j++;
  size_t cn = j + 1 < c + n ? (size_t)(j - c) : n;
  return cn == wn && memcmp(c, w, wn) == 0;
}

/* The longest spelling of the table an instruction matches, or NULL. */
static const struct unsupported *find_unsupported(const char *const *cs, const size_t *cl, int nc) {
  const struct unsupported *best = NULL;
  int bestn = 0;
  for (size_t u = 0; u < sizeof unsupported / sizeof unsupported[0]; u++) {
    const char *w[8];
    size_t wl[8];
    int nw = 0;
    for (const char *p = unsupported[u].spelling; nw < 8;) {
      w[nw] = p;
      wl[nw] = strcspn(p, ".");
      p += wl[nw++];
      if (!*p++) break;
    }
    if (nw < 2 || !mod_is(cs[0], cl[0], w[0], wl[0]) || nw <= bestn) continue;
    for (int i = 1; i + nw - 1 <= nc; i++) {
      int k = 1;
      while (k < nw && mod_is(cs[i + k - 1], cl[i + k - 1], w[k], wl[k])) k++;
      if (k == nw) { best = &unsupported[u]; bestn = nw; break; }
    }
  }
  return best;
}

int isa_decode_opname(const char *s, isa_insn *in, char *err, size_t errlen) {
  if (!tables_ready) build_tables();
  size_t len = strlen(s);
  /* component boundaries */
  const char *cs[32];
  size_t cl[32];
  int nc = 0;
  for (const char *p = s;;) {
    const char *d = memchr(p, '.', (size_t)(s + len - p));
    if (nc == 32) { snprintf(err, errlen, "too many modifiers in '%s'", s); return -1; }
    cs[nc] = p;
    cl[nc++] = d ? (size_t)(d - p) : (size_t)(s + len - p);
    if (!d) break;
    p = d + 1;
  }
  /* The base is the longest prefix that names an opcode, ending at a dot
   * or at a '::' inside a component: in "mma.sp::ordered_metadata.sync"
   * the base is "mma.sp" and "::ordered_metadata" its first modifier. */
  int op = -1, base = 0;
  const char *joined = NULL;           /* modifier text after that '::' */
  for (int k = nc; k >= 1 && op < 0; k--) {
    const char *c = cs[k - 1];
    size_t n = cl[k - 1];
    op = find_op(s, (size_t)(c + n - s));
    if (op >= 0) { base = k; break; }
    for (size_t j = n; j-- > 1 && op < 0;)        /* rightmost '::' first: longest prefix */
      if (c[j] == ':' && c[j - 1] == ':' && j + 1 < n) {
        op = find_op(s, (size_t)(c + j - 1 - s));
        if (op >= 0) { base = k; joined = c + j + 1; }
      }
  }
  if (op < 0) { snprintf(err, errlen, "unknown opcode '%.*s'", (int)cl[0], cs[0]); return -1; }
  const struct unsupported *u = find_unsupported(cs, cl, nc);
  if (u) { snprintf(err, errlen, "%s is not supported yet (%s)", u->spelling, u->target); return -1; }
  memset(in, 0, sizeof *in);
  in->op = (uint16_t)op;
  in->guard = -1;
  const isa_opinfo *oi = &isa_ops[op];
  int ow = isa_opcode_word_len(oi->name);
  int ntypes = 0;
  for (int i = joined ? base - 1 : base; i < nc; i++) {
    const char *c = cs[i];
    size_t n = cl[i];
    bool join = false;
    if (joined && i == base - 1) { n -= (size_t)(joined - c); c = joined; join = true; }
    if (in->ncomps == ISA_MAX_COMPS) { snprintf(err, errlen, "too many modifiers in '%s'", s); return -1; }
    enum ptx_type t = join ? PTX_T_NONE : ptx_type_from_name(c, n);
    if (t != PTX_T_NONE) {
      if (ntypes == 4 || ntypes == oi->types_max) {
        snprintf(err, errlen, "too many types for '%.*s'", ow, oi->name);
        return -1;
      }
      uint8_t *slot = ntypes == 0 ? &in->type : ntypes == 1 ? &in->type2 : ntypes == 2 ? &in->type3 : &in->type4;
      *slot = (uint8_t)t;
      ntypes++;
      in->comps[in->ncomps++] = (uint16_t)t;
      continue;
    }
    const int16_t *cand = find_mods(c, n);
    int mod = 0;
    for (int k = 0; k < 4 && cand[k]; k++)
      if (isa_mods[cand[k]].group & oi->groups) { mod = cand[k]; break; }
    if (mod) {
      apply_mod(in, mod);
      in->comps[in->ncomps++] = (uint16_t)(ISA_COMP_MOD + mod + (join ? ISA_COMP_JOINED : 0));
      continue;
    }
    if (!join && (oi->groups & (G_MMA | G_ANY)) && match_shape(c, n, in)) {
      in->comps[in->ncomps++] = ISA_COMP_MOD + MOD_SHAPE;
      continue;
    }
    if (!join && n >= 2 && c[0] == 'x' && (oi->groups & G_MMA)) {
      const char *p = c + 1;
      uint32_t v;
      if (parse_uint(&p, c + n, &v) && p == c + n && v <= 128) {
        in->shape_m = (uint8_t)v;       /* ldmatrix/stmatrix .x1/.x2/.x4 */
        in->comps[in->ncomps++] = ISA_COMP_MOD + MOD_NUM_X;
        continue;
      }
    }
    if (!join && n >= 2 && c[0] == 'v' && c[1] >= '0' && c[1] <= '9') {
      snprintf(err, errlen, "invalid vector width '.%.*s'", (int)n, c);
      return -1;
    }
    snprintf(err, errlen, "unknown modifier '%s%.*s' for '%.*s'", join ? "::" : ".", (int)n, c, ow, oi->name);
    return -1;
  }
  if (ntypes < oi->types_min) {
    snprintf(err, errlen, "missing type for '%.*s'", ow, oi->name);
    return -1;
  }
  if (!in->vec) in->vec = 1;
  return 0;
}

int isa_format_opname(const isa_insn *in, char *buf, size_t len) {
  size_t n = (size_t)snprintf(buf, len, "%s", isa_ops[in->op].name);
  for (int i = 0; i < in->ncomps && n < len; i++) {
    uint16_t c = in->comps[i];
    if (c < ISA_COMP_MOD) n += (size_t)snprintf(buf + n, len - n, ".%s", ptx_type_names[c]);
    else if (c == ISA_COMP_MOD + MOD_SHAPE) {
      if (in->shape_k) n += (size_t)snprintf(buf + n, len - n, ".m%un%uk%u", in->shape_m, in->shape_n, in->shape_k);
      else n += (size_t)snprintf(buf + n, len - n, ".m%un%u", in->shape_m, in->shape_n);
    } else if (c == ISA_COMP_MOD + MOD_NUM_X) n += (size_t)snprintf(buf + n, len - n, ".x%u", in->shape_m);
    else if (c & ISA_COMP_JOINED)
      n += (size_t)snprintf(buf + n, len - n, "::%s", isa_mods[(c & ~ISA_COMP_JOINED) - ISA_COMP_MOD].name);
    else n += (size_t)snprintf(buf + n, len - n, ".%s", isa_mods[c - ISA_COMP_MOD].name);
  }
  return (int)n;
}

bool isa_insn_canonical(const isa_insn *in) {
  if (in->op >= OP_COUNT || in->ncomps > ISA_MAX_COMPS) return false;
  for (int i = 0; i < in->ncomps; i++) {        /* what isa_format_opname can print */
    uint16_t c = (uint16_t)(in->comps[i] & ~ISA_COMP_JOINED);
    if (c < ISA_COMP_MOD ? c == PTX_T_NONE || c >= PTX_T_COUNT || (in->comps[i] & ISA_COMP_JOINED)
                         : c >= ISA_COMP_MOD + MOD_LIMIT || (c >= ISA_COMP_MOD + MOD_COUNT && (in->comps[i] & ISA_COMP_JOINED)))
      return false;
  }
  char name[512];
  int n = isa_format_opname(in, name, sizeof name);
  if (n < 0 || (size_t)n >= sizeof name) return false;
  isa_insn t;
  char err[160];
  if (isa_decode_opname(name, &t, err, sizeof err)) return false;
  return t.op == in->op && t.ncomps == in->ncomps && !memcmp(t.comps, in->comps, sizeof t.comps[0] * in->ncomps) &&
         t.type == in->type && t.type2 == in->type2 && t.type3 == in->type3 && t.type4 == in->type4 &&
         t.rnd == in->rnd && t.vec == in->vec && t.shape_m == in->shape_m && t.cmp == in->cmp && t.bop == in->bop &&
         t.space == in->space && t.space2 == in->space2 && t.sem == in->sem && t.scope == in->scope &&
         t.sub == in->sub && t.cache == in->cache && t.shape_n == in->shape_n && t.shape_k == in->shape_k &&
         t.flags == in->flags;
}
