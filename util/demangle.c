/* util/demangle.c - a small Itanium C++ ABI demangler (demangle.h).
 *
 * Recursive descent over the grammar of the ABI (itanium-cxx-abi.github.io,
 * "Mangling"), building each part as a string.  Every string is kept in
 * one pool freed at the end, so parts can be shared by the substitution
 * table without ownership rules.  Anything not covered fails, and the
 * caller shows the mangled name: a wrong demangling is worse than none. */
#define _POSIX_C_SOURCE 200809L          /* strnlen */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/demangle.h"

#define DM_MAX_SUBS 256
#define DM_MAX_ARGS 64
#define DM_MAX_DEPTH 64
#define DM_MAX_LEN 4096         /* longest part: bounds substitution blow-up */

typedef struct dm {
  const char *p;
  char **pool;
  size_t npool, cappool;
  const char *subs[DM_MAX_SUBS];
  int nsubs;
  const char *targs[DM_MAX_ARGS];    /* template parameters T_, T0_, ...   */
  int ntargs;
  const char *args[DM_MAX_ARGS];     /* the arguments of the last I...E    */
  int nargs;
  int depth;
  bool fail, top_name;               /* top_name: in the function's own name */
} dm;

static char *keep(dm *d, char *s) {
  if (!s) { d->fail = true; return NULL; }
  if (d->npool == d->cappool) {
    size_t cap = d->cappool ? d->cappool * 2 : 32;
    char **np = realloc(d->pool, cap * sizeof *np);
    if (!np) { free(s); d->fail = true; return NULL; }
    d->pool = np;
    d->cappool = cap;
  }
  return d->pool[d->npool++] = s;
}

/* a b c concatenated (NULL parts are empty). */
static const char *cat3(dm *d, const char *a, const char *b, const char *c) {
  if (d->fail) return NULL;
  size_t la = a ? strlen(a) : 0, lb = b ? strlen(b) : 0, lc = c ? strlen(c) : 0;
  if (la + lb + lc > DM_MAX_LEN) { d->fail = true; return NULL; }
  char *s = malloc(la + lb + lc + 1);
  if (!s) { d->fail = true; return NULL; }
  if (la) memcpy(s, a, la);
  if (lb) memcpy(s + la, b, lb);
  if (lc) memcpy(s + la + lb, c, lc);
  s[la + lb + lc] = 0;
  return keep(d, s);
}
#define cat2(d, a, b) cat3(d, a, b, NULL)

static const char *add_sub(dm *d, const char *s) {
  if (!s || d->fail) return NULL;
  if (d->nsubs == DM_MAX_SUBS) { d->fail = true; return NULL; }
  d->subs[d->nsubs++] = s;
  return s;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* <number>: decimal; -1 when there is none or it is absurd. */
static long number(dm *d) {
  if (!is_digit(*d->p)) return -1;
  long v = 0;
  while (is_digit(*d->p)) {
    v = v * 10 + (*d->p++ - '0');
    if (v > 100000) return -1;
  }
  return v;
}

/* <seq-id> _ : base 36 with upper-case letters; "_" alone is 0, "0_" 1... */
static long seq_id(dm *d) {
  if (*d->p == '_') { d->p++; return 0; }
  long v = 0;
  for (; *d->p != '_'; d->p++) {
    char c = *d->p;
    int k = is_digit(c) ? c - '0' : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : -1;
    if (k < 0 || v > 100000) return -1;
    v = v * 36 + k;
  }
  d->p++;
  return v + 1;
}

static const char *type(dm *d);
static const char *name(dm *d, bool *tmpl);
static const char *encoding(dm *d);

/* <source-name> ::= <length> <identifier> */
static const char *source_name(dm *d) {
  long n = number(d);
  if (n <= 0) { d->fail = true; return NULL; }
  if ((long)strnlen(d->p, (size_t)n) < n) { d->fail = true; return NULL; }
  const char *id = d->p;
  d->p += n;
  if (n >= 11 && strncmp(id, "_GLOBAL__N_", 11) == 0) return "(anonymous namespace)";
  char *s = malloc((size_t)n + 1);
  if (!s) { d->fail = true; return NULL; }
  memcpy(s, id, (size_t)n);
  s[n] = 0;
  return keep(d, s);
}

static const char *builtin(char c) {
  switch (c) {
  case 'v': return "void"; case 'w': return "wchar_t"; case 'b': return "bool"; case 'c': return "char";
  case 'a': return "signed char"; case 'h': return "unsigned char"; case 's': return "short";
  case 't': return "unsigned short"; case 'i': return "int"; case 'j': return "unsigned int"; case 'l': return "long";
  case 'm': return "unsigned long"; case 'x': return "long long"; case 'y': return "unsigned long long";
  case 'n': return "__int128"; case 'o': return "unsigned __int128"; case 'f': return "float"; case 'd': return "double";
  case 'e': return "long double"; case 'g': return "__float128"; case 'z': return "...";
  default: return NULL;
  }
}

/* <substitution> after its S (not St): the string it names. */
static const char *substitution(dm *d) {
  static const struct { char c; const char *s; } abbr[] = {
    { 'a', "std::allocator" }, { 'b', "std::basic_string" }, 
    { 's', "std::basic_string<char, std::char_traits<char>, std::allocator<char> >" },
    { 'i', "std::basic_istream<char, std::char_traits<char> >" },
    { 'o', "std::basic_ostream<char, std::char_traits<char> >" },
    { 'd', "std::basic_iostream<char, std::char_traits<char> >" } };
  for (size_t k = 0; k < sizeof abbr / sizeof abbr[0]; k++)
    if (*d->p == abbr[k].c) { d->p++; return abbr[k].s; }
  long id = seq_id(d);
  if (id < 0 || id >= d->nsubs) { d->fail = true; return NULL; }
  return d->subs[id];
}

/* <template-param> after its T. */
static const char *template_param(dm *d) {
  long id = seq_id(d);
  if (id < 0 || id >= d->ntargs) { d->fail = true; return NULL; }
  return d->targs[id];
}

/* L <type> <value> E, after the L: an integer literal as C++ spells it. */
static const char *literal(dm *d) {
  if (d->p[0] == '_' && d->p[1] == 'Z') {          /* L_Z <encoding> E: an entity */
    d->p += 2;
    const char *e = encoding(d);
    if (*d->p++ != 'E') d->fail = true;
    return e;
  }
  char tc = *d->p;
  const char *t = NULL;
  if (builtin(tc) && tc != 'v' && tc != 'z') { t = builtin(tc); d->p++; }
  else t = type(d);                                 /* an enumeration */
  if (d->fail || !t) return NULL;
  bool neg = *d->p == 'n';
  if (neg) d->p++;
  const char *v = d->p;
  while (is_digit(*d->p)) d->p++;
  size_t len = (size_t)(d->p - v);
  if (!len || len > 40 || *d->p != 'E') { d->fail = true; return NULL; }
  d->p++;
  if (strchr("fde", tc)) { d->fail = true; return NULL; }   /* float literals: hex images, not shown */
  char num[48];
  snprintf(num, sizeof num, "%s%.*s", neg ? "-" : "", (int)len, v);
  if (tc == 'b' && len == 1 && !neg) return *v == '0' ? "false" : "true";
  static const struct { char c; const char *suffix; } suf[] = {
    { 'i', "" }, { 'j', "u" }, { 'l', "l" }, { 'm', "ul" }, { 'x', "ll" }, { 'y', "ull" } };
  for (size_t k = 0; k < sizeof suf / sizeof suf[0]; k++)
    if (tc == suf[k].c) return cat2(d, num, suf[k].suffix);
  return cat3(d, cat3(d, "(", t, ")"), num, NULL);
}

/* <template-args> ::= I <template-arg>+ E, after the I: "<a, b>", the
 * arguments also left in d->args. */
static const char *template_args(dm *d) {
  bool was_top = d->top_name;
  d->top_name = false;
  const char *list[DM_MAX_ARGS];
  int n = 0;
  const char *out = "<";
  while (!d->fail && *d->p != 'E') {
    const char *a;
    if (*d->p == 'L') { d->p++; a = literal(d); }
    else if (*d->p == 'J') {                        /* an argument pack */
      d->p++;
      a = "";
      for (bool first = true; !d->fail && *d->p != 'E'; first = false) {
        const char *t = *d->p == 'L' ? (d->p++, literal(d)) : type(d);
        a = cat3(d, a, first ? "" : ", ", t);
      }
      if (*d->p == 'E') d->p++;
    } else if (*d->p == 'X' || !*d->p) { d->fail = true; return NULL; }
    else a = type(d);
    if (d->fail) return NULL;
    if (n == DM_MAX_ARGS) { d->fail = true; return NULL; }
    list[n] = a;
    out = cat3(d, out, n ? ", " : "", a);
    n++;
  }
  if (d->fail || !n) { d->fail = true; return NULL; }
  d->p++;
  size_t l = strlen(out);
  out = cat2(d, out, l && out[l - 1] == '>' ? " >" : ">");
  d->top_name = was_top;
  memcpy(d->args, list, (size_t)n * sizeof *list);
  d->nargs = n;
  /* the function's own template arguments are what T_ ... refer to */
  if (was_top) { memcpy(d->targs, list, (size_t)n * sizeof *list); d->ntargs = n; }
  return out;
}

/* Ul <type>+ E [<number>] _ (after Ul) and Ut [<number>] _ (after Ut). */
static const char *unnamed(dm *d, bool lambda) {
  const char *sig = "";
  if (lambda) {
    for (bool first = true; !d->fail && *d->p != 'E'; first = false) {
      const char *t = type(d);
      if (!(first && t && strcmp(t, "void") == 0)) sig = cat3(d, sig, first ? "" : ", ", t);
    }
    if (d->fail) return NULL;
    d->p++;
  }
  long k = is_digit(*d->p) ? number(d) + 2 : 1;
  if (*d->p++ != '_' || k < 1) { d->fail = true; return NULL; }
  char num[24];
  snprintf(num, sizeof num, "#%ld}", k);
  return lambda ? cat3(d, cat3(d, "{lambda(", sig, ")"), num, NULL) : cat2(d, "{unnamed type", num);
}

/* One <unqualified-name>; *last gets the plain name (for constructors). */
static const char *unqualified(dm *d, const char *prev_last, const char **last) {
  char c = *d->p;
  if (c == 'L' && is_digit(d->p[1])) { d->p++; c = *d->p; }   /* internal linkage */
  if (is_digit(c)) { const char *s = source_name(d); *last = s; return s; }
  if (c == 'U' && (d->p[1] == 'l' || d->p[1] == 't')) { d->p += 2; return unnamed(d, d->p[-1] == 'l'); }
  if (c == 'C' && d->p[1] >= '1' && d->p[1] <= '3' && prev_last) { d->p += 2; return prev_last; }
  if (c == 'D' && d->p[1] >= '0' && d->p[1] <= '2' && prev_last) { d->p += 2; return cat2(d, "~", prev_last); }
  d->fail = true;                                   /* operators, conversions... */
  return NULL;
}

/* <nested-name>, after the N. */
static const char *nested(dm *d, bool *tmpl, const char **quals) {
  const char *cv = "";
  for (;; d->p++) {
    if (*d->p == 'r') cv = cat2(d, cv, " restrict");
    else if (*d->p == 'V') cv = cat2(d, cv, " volatile");
    else if (*d->p == 'K') cv = cat2(d, cv, " const");
    else break;
  }
  if (*d->p == 'R' || *d->p == 'O') { cv = cat2(d, cv, *d->p == 'R' ? " &" : " &&"); d->p++; }
  if (quals) *quals = cv;
  const char *cur = NULL, *last = NULL;
  *tmpl = false;
  while (!d->fail && *d->p != 'E') {
    if (!*d->p) { d->fail = true; break; }
    if (*d->p == 'I') {
      if (!cur) { d->fail = true; break; }
      d->p++;
      cur = cat2(d, cur, template_args(d));
      *tmpl = true;
    } else if (*d->p == 'S' && !cur) {
      d->p++;
      if (*d->p == 't') { d->p++; cur = "std"; continue; }
      cur = substitution(d);
      continue;                                     /* already a candidate */
    } else if (*d->p == 'T' && !cur) {
      d->p++;
      cur = template_param(d);
    } else if (*d->p == 'M') { d->p++; continue; } /* closure's data-member prefix */
    else {
      const char *u = unqualified(d, last, &last);
      cur = cur ? cat3(d, cur, "::", u) : u;
      *tmpl = false;
    }
    if (*d->p != 'E') add_sub(d, cur);
  }
  if (d->fail) return NULL;
  d->p++;
  return cur;
}

/* <local-name> ::= Z <encoding> E <entity name> [<discriminator>], after Z. */
static const char *local(dm *d, bool *tmpl) {
  bool was_top = d->top_name;
  d->top_name = false;
  const char *fn = encoding(d);
  if (d->fail || *d->p++ != 'E') { d->fail = true; return NULL; }
  const char *ent;
  if (*d->p == 's') { d->p++; ent = "string literal"; }
  else {
    d->top_name = was_top;
    ent = name(d, tmpl);
  }
  d->top_name = was_top;
  if (*d->p == '_') {                               /* <discriminator>: not shown */
    d->p++;
    if (*d->p == '_') { d->p++; if (number(d) < 0 || *d->p++ != '_') d->fail = true; }
    else if (is_digit(*d->p)) d->p++;
    else d->fail = true;
  }
  return cat3(d, fn, "::", ent);
}

/* <name>: *tmpl says it ends with template arguments (then a function
 * encodes its return type). */
static const char *name(dm *d, bool *tmpl) {
  *tmpl = false;
  if (++d->depth > DM_MAX_DEPTH) { d->fail = true; return NULL; }
  const char *r = NULL;
  if (*d->p == 'N') { d->p++; r = nested(d, tmpl, NULL); }
  else if (*d->p == 'Z') { d->p++; r = local(d, tmpl); }
  else {
    const char *last;
    bool from_sub = false;
    if (*d->p == 'S' && d->p[1] == 't') { d->p += 2; r = cat2(d, "std::", unqualified(d, NULL, &last)); }
    else if (*d->p == 'S') { d->p++; from_sub = true; r = substitution(d); if (*d->p != 'I') d->fail = true; }
    else r = unqualified(d, NULL, &last);
    if (!d->fail && *d->p == 'I') {
      if (!from_sub) add_sub(d, r);               /* an <unscoped-template-name> */
      d->p++;
      r = cat2(d, r, template_args(d));
      *tmpl = true;
    }
  }
  d->depth--;
  return d->fail ? NULL : r;
}

static const char *type(dm *d) {
  if (d->fail) return NULL;
  if (++d->depth > DM_MAX_DEPTH) { d->fail = true; return NULL; }
  const char *r = NULL;
  char c = *d->p;
  if (builtin(c)) { d->p++; r = builtin(c); }
  else switch (c) {
  case 'u': d->p++; r = add_sub(d, source_name(d)); break;
  case 'r': case 'V': case 'K': {
    const char *q = "";
    bool rs = false, vo = false, co = false;
    for (;; d->p++) {
      if (*d->p == 'r') rs = true; else if (*d->p == 'V') vo = true; else if (*d->p == 'K') co = true; else break;
    }
    if (co) q = cat2(d, q, " const");
    if (vo) q = cat2(d, q, " volatile");
    if (rs) q = cat2(d, q, " restrict");
    const char *t = type(d);
    r = add_sub(d, cat2(d, t, q));
    break;
  }
  case 'P': d->p++; r = add_sub(d, cat2(d, type(d), "*")); break;
  case 'R': d->p++; r = add_sub(d, cat2(d, type(d), "&")); break;
  case 'O': d->p++; r = add_sub(d, cat2(d, type(d), "&&")); break;
  case 'T':
    d->p++;
    r = add_sub(d, template_param(d));
    if (!d->fail && *d->p == 'I') { d->p++; r = add_sub(d, cat2(d, r, template_args(d))); }
    break;
  case 'S':
    if (d->p[1] == 't') {
      bool tmpl;
      r = add_sub(d, name(d, &tmpl));               /* St <unqualified> [<template-args>] */
      break;
    }
    d->p++;
    r = substitution(d);
    if (!d->fail && *d->p == 'I') { d->p++; r = add_sub(d, cat2(d, r, template_args(d))); }
    break;
  case 'D':
    d->p++;
    c = *d->p++;
    if (c == 'p') { r = add_sub(d, type(d)); break; } /* pack expansion */
    else if (c == 'n') r = "decltype(nullptr)";
    else if (c == 'h') r = "half";
    else if (c == 's') r = "char16_t";
    else if (c == 'i') r = "char32_t";
    else if (c == 'u') r = "char8_t";
    else if (c == 'a') r = "auto";
    else if (c == 'F' && strncmp(d->p, "16_", 3) == 0) { d->p += 3; r = "_Float16"; }
    else d->fail = true;
    break;
  case 'N': case 'Z': case '0': case '1': case '2': case '3': case '4': case '5': case '6':
  case '7': case '8': case '9': {
    bool tmpl;
    r = add_sub(d, name(d, &tmpl));                 /* a class or enumeration */
    break;
  }
  default: d->fail = true;                          /* function, array, member pointer... */
  }
  d->depth--;
  return d->fail ? NULL : r;
}

/* <encoding> ::= <name> [<bare-function-type>] */
static const char *encoding(dm *d) {
  if (++d->depth > DM_MAX_DEPTH) { d->fail = true; return NULL; }
  bool tmpl, was_top = d->top_name;
  const char *quals = "";
  const char *n;
  if (*d->p == 'N') {
    d->p++;
    tmpl = false;
    n = nested(d, &tmpl, &quals);
  } else n = name(d, &tmpl);
  d->top_name = false;
  if (d->fail) return NULL;
  if (!*d->p || *d->p == 'E' || *d->p == '.') { d->depth--; d->top_name = was_top; return n; }   /* a variable */
  const char *ret = tmpl ? type(d) : NULL;
  const char *params = "";
  int np = 0;
  while (!d->fail && *d->p && *d->p != 'E' && *d->p != '.') {
    const char *t = type(d);
    if (np == 0 && t && strcmp(t, "void") == 0 && (!*d->p || *d->p == 'E' || *d->p == '.')) { np = -1; break; }
    params = cat3(d, params, np ? ", " : "", t);
    np++;
  }
  if (d->fail) return NULL;
  if (!np && tmpl && !ret) { d->fail = true; return NULL; }
  const char *r = cat3(d, cat3(d, ret, ret ? " " : "", n), "(", cat3(d, params, ")", quals));
  d->depth--;
  d->top_name = was_top;
  return r;
}

bool demangle(const char *mangled, char *out, size_t n) {
  if (!mangled || strncmp(mangled, "_Z", 2) != 0 || !n) return false;
  dm d = { .p = mangled + 2, .top_name = true };
  const char *r = encoding(&d);
  if (!d.fail && r && *d.p == '.') {                /* clone suffixes: .part.0, .cold */
    for (const char *s = d.p; *s; s++)
      if (!(is_digit(*s) || (*s >= 'a' && *s <= 'z') || *s == '_' || *s == '.')) d.fail = true;
    r = cat3(&d, r, " [clone ", cat2(&d, d.p, "]"));
    d.p += strlen(d.p);
  }
  bool ok = !d.fail && r && !*d.p && strlen(r) < n;
  if (ok) memcpy(out, r, strlen(r) + 1);
  for (size_t k = 0; k < d.npool; k++) free(d.pool[k]);
  free(d.pool);
  return ok;
}

const char *demangle_or_self(const char *name, char *buf, size_t n) {
  return demangle(name, buf, n) ? buf : name;
}
