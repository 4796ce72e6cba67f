/* isa/disasm.c - print an assembled module as PTX.
 *
 * The output assembles back to the same object: declarations and labels
 * come from the listing records, and "//#line N" markers (understood by
 * the lexer, like C's #line) keep every instruction's original PTX line so
 * traces of a disassembled object still point at the user's source. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "isa/isa.h"

typedef struct dctx {
  const isa_module *m;
  const isa_func *f;
  FILE *out;
  uint32_t line;            /* line number the next output line will have */
  const char **regprint;    /* printed name of each register slot        */
  char *namebuf;
  const char **pclabel;     /* first label at each pc                     */
  /* labels of { } blocks are local to them: a label operand is printed
   * with a name that means the same pc where the instruction stands */
  uint32_t *lblock;         /* block each label is declared in (0: the body) */
  uint32_t *bparent;        /* enclosing block of each block                 */
  uint32_t *pcfirst;        /* first label at each pc, in listing order (+1)  */
  uint32_t *lnext;          /* next label at the same pc (+1; 0: none)       */
  uint8_t *ldup;            /* another label of the function has its name    */
  uint32_t block, nblocks;  /* the block being printed, blocks opened so far */
  uint32_t *bstack;
  uint32_t bdepth;
} dctx;

static void nl(dctx *d) { fputc('\n', d->out); d->line++; }

static void set_line(dctx *d, uint32_t line) {
  if (line && line != d->line) { fprintf(d->out, "//#line %u\n", line); d->line = line; }
}

static const char *linkage(uint8_t l) {
  return l & PTX_LINK_VISIBLE ? ".visible " : l & PTX_LINK_EXTERN ? ".extern " : l & PTX_LINK_WEAK ? ".weak " :
         l & PTX_LINK_COMMON ? ".common " : "";
}

static void print_decl(dctx *d, const isa_sym *s, bool with_space) {
  FILE *o = d->out;
  fputs(linkage(s->linkage), o);
  if (with_space) fprintf(o, ".%s ", ptx_space_names[s->space]);
  if (s->is_ptr) {
    fprintf(o, ".%s .ptr", ptx_type_names[s->type]);
    if (s->ptr_space) fprintf(o, " .%s", ptx_space_names[s->ptr_space]);
    if (s->ptr_align) fprintf(o, " .align %u", s->ptr_align);
    fprintf(o, " %s", s->name);
  } else {
    if (s->align) fprintf(o, ".align %u ", s->align);
    if (s->vec > 1) fprintf(o, ".v%u ", s->vec);
    fprintf(o, ".%s %s", ptx_type_names[s->type], s->name);
  }
  for (uint32_t i = 0; i < s->ndims; i++) {
    if (i == 0 && s->dim_open) fputs("[]", o);
    else fprintf(o, "[%" PRIu64 "]", s->dims[i]);
  }
}

static const char *reloc_target(const dctx *d, uint32_t sym) {
  if (sym < d->m->nsyms) return d->m->syms[sym].name;
  return d->m->funcs[UINT32_MAX - sym].name;
}

static void print_init(dctx *d, const isa_sym *s) {
  if (s->nfields) {
    fputs(" = {", d->out);
    for (uint32_t i = 0; i < s->nfields; i++) {
      const isa_field *f = &s->fields[i];
      if (f->word) fprintf(d->out, "%s%s = %s", i ? ", " : " ", f->name, f->word);
      else fprintf(d->out, "%s%s = %" PRId64, i ? ", " : " ", f->name, f->value);
    }
    fputs(" }", d->out);
    return;
  }
  if (!s->init) return;
  int bits = ptx_type_bits((enum ptx_type)s->type);
  uint64_t eb = bits <= 8 ? 1 : (uint64_t)bits / 8, n = eb ? s->size / eb : 0;
  bool list = s->ndims > 0 || s->vec > 1;
  fputs(list ? " = {" : " = ", d->out);
  for (uint64_t i = 0; i < n; i++) {
    if (i) fputs(", ", d->out);
    const isa_reloc *r = NULL;
    for (uint32_t k = 0; k < s->nrelocs; k++) if (s->relocs[k].offset == i * eb) r = &s->relocs[k];
    if (r) {
      if (r->generic) fprintf(d->out, "generic(%s)", reloc_target(d, r->sym));
      else fputs(reloc_target(d, r->sym), d->out);
      if (r->addend) fprintf(d->out, "+%" PRId64, r->addend);
      continue;
    }
    uint64_t v = 0;
    for (uint64_t b = 0; b < eb && b < 8; b++) v |= (uint64_t)s->init[i * eb + b] << (8 * b);
    if (s->type == PTX_T_F32) fprintf(d->out, "0f%08" PRIX32, (uint32_t)v);
    else if (s->type == PTX_T_F64) fprintf(d->out, "0d%016" PRIX64, v);
    else fprintf(d->out, "%" PRIu64, v);
  }
  if (list) fputc('}', d->out);
}

static void print_opnd(dctx *d, const isa_opnd *o);

/* Whether label l is what its name means in the current block: declared
 * there or in an enclosing block, and no closer block declares the name. */
static bool label_visible(const dctx *d, uint32_t l) {
  uint32_t b = d->block;
  while (b != d->lblock[l]) {
    if (!b) return false;
    if (d->ldup[l])
      for (uint32_t k = 0; k < d->f->nlabels; k++)
        if (k != l && d->lblock[k] == b && strcmp(d->f->labels[k], d->f->labels[l]) == 0) return false;
    b = d->bparent[b];
  }
  return true;
}

static const char *label_name(const dctx *d, uint32_t pc) {
  if (pc > d->f->ninsns) return "?";
  for (uint32_t l = d->pcfirst[pc]; l; l = d->lnext[l - 1])
    if (label_visible(d, l - 1)) return d->f->labels[l - 1];
  return d->pclabel[pc] ? d->pclabel[pc] : "?";
}

static int cmp_names(const void *a, const void *b) { return strcmp(**(const char *const *const *)a, **(const char *const *const *)b); }

/* Blocks of labels, labels at each pc, and which label names repeat. */
static void label_scopes(dctx *d) {
  const isa_func *f = d->f;
  uint32_t nl = f->nlabels, nb = 1;
  for (uint32_t i = 0; i < f->nrecs; i++) nb += f->recs[i].kind == REC_OPEN;
  d->lblock = calloc(nl + 1, sizeof *d->lblock);
  d->lnext = calloc(nl + 1, sizeof *d->lnext);
  d->ldup = calloc(nl + 1, 1);
  d->bparent = calloc(nb, sizeof *d->bparent);
  d->bstack = calloc(nb + 1, sizeof *d->bstack);
  d->pcfirst = calloc(f->ninsns + 1, sizeof *d->pcfirst);
  uint32_t *last = calloc(f->ninsns + 1, sizeof *last);
  const char **sorted = malloc((nl + 1) * sizeof *sorted);
  uint32_t depth = 0, blocks = 0, cur = 0;
  for (uint32_t i = 0; i < f->nrecs; i++) {
    const isa_rec *r = &f->recs[i];
    if (r->kind == REC_OPEN) { d->bstack[depth++] = cur; cur = ++blocks; d->bparent[cur] = d->bstack[depth - 1]; }
    else if (r->kind == REC_CLOSE && depth) cur = d->bstack[--depth];
    else if (r->kind == REC_LABEL) {
      uint32_t l = r->a, pc = f->label_pc[l];
      d->lblock[l] = cur;
      if (last[pc]) d->lnext[last[pc] - 1] = l + 1; else d->pcfirst[pc] = l + 1;
      last[pc] = l + 1;
    }
  }
  for (uint32_t i = 0; i < nl; i++) sorted[i] = (const char *)&f->labels[i];
  qsort(sorted, nl, sizeof *sorted, cmp_names);
  for (uint32_t i = 1; i < nl; i++)
    if (strcmp(*(const char *const *)sorted[i - 1], *(const char *const *)sorted[i]) == 0)
      d->ldup[(const char *const *)sorted[i - 1] - f->labels] = d->ldup[(const char *const *)sorted[i] - f->labels] = 1;
  free(sorted);
  free(last);
  d->block = d->nblocks = d->bdepth = 0;
}

static void print_opnd(dctx *d, const isa_opnd *o);

/* A call passes a vector register whole: the elements' name less ".x". */
static bool print_whole_vector(dctx *d, const isa_opnd *o) {
  if (o->kind != OK_VEC || o->n < 2) return false;
  const isa_opnd *el = &d->f->pool[o->v];
  for (uint32_t k = 0; k < o->n; k++)
    if (el[k].kind != OK_REG || el[k].n || el[k].flags || el[k].v != el[0].v + k) return false;
  const char *first = d->regprint[el[0].v];
  size_t n = strlen(first);
  if (n < 3 || strcmp(first + n - 2, ".x") != 0) return false;
  fprintf(d->out, "%.*s", (int)(n - 2), first);
  return true;
}

static void print_list(dctx *d, const isa_opnd *o, const char *open, const char *sep, const char *close) {
  fputs(open, d->out);
  for (uint32_t i = 0; i < o->n; i++) {
    if (i) fputs(sep, d->out);
    if (o->kind == OK_LIST && print_whole_vector(d, &d->f->pool[o->v + i])) continue;
    print_opnd(d, &d->f->pool[o->v + i]);
  }
  fputs(close, d->out);
}

static const char *sym_name(dctx *d, const isa_opnd *o) {
  if ((o->flags & (OF_MODSYM | OF_FUNCSYM)) == (OF_MODSYM | OF_FUNCSYM)) return d->m->funcs[o->v].name;
  if (o->flags & OF_FUNCSYM) return d->f->syms[o->v].name;
  return d->m->syms[o->v].name;
}

static void print_opnd(dctx *d, const isa_opnd *o) {
  static const char *const comps[] = { "", ".x", ".y", ".z", ".w", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1" };
  FILE *out = d->out;
  switch (o->kind) {
  case OK_REG:
    fprintf(out, "%s%s%s%s", o->flags & OF_NEG ? "!" : "", !(o->flags & OF_OFFSET) && (o->imm & ISA_REG_MINUS) ? "-" : "",
            d->regprint[o->v],
            o->n < ISA_COMP_SEL ? comps[o->n] : "");
    if (o->flags & OF_OFFSET) fprintf(out, "+%" PRId64, o->imm);   /* a negative one as +-4, as ptxas reads it */
    else if (o->n == ISA_COMP_SEL) {
      fprintf(out, ".%c", ISA_SEL_KIND(o->imm));
      for (unsigned i = 0; i < ISA_SEL_LANES(o->imm); i++) fputc('0' + (int)ISA_SEL_LANE(o->imm, i), out);
    }
    break;
  case OK_IMM:
    if (o->flags & OF_F32) fprintf(out, "0f%08" PRIX32, (uint32_t)o->imm);
    else if (o->flags & OF_F64) fprintf(out, "0d%016" PRIX64, (uint64_t)o->imm);
    else fprintf(out, "%" PRId64 "%s", o->imm, o->flags & OF_UNSIGNED ? "U" : "");
    break;
  case OK_SREG:
    if (o->v == SREG_ENVREG) fprintf(out, "%%envreg%u", o->n);
    else fprintf(out, "%s%s", isa_sreg_names[o->v], o->n >= 1 && o->n <= 3 ? comps[o->n] : "");
    if (o->flags & OF_OFFSET) fprintf(out, "+%" PRId64, o->imm);
    break;
  case OK_ADDR:
    fputc('[', out);
    if (o->flags & OF_BASEREG) fputs(d->regprint[o->v], out);
    else if (o->flags & (OF_MODSYM | OF_FUNCSYM)) fputs(sym_name(d, o), out);
    if (o->flags & (OF_BASEREG | OF_MODSYM | OF_FUNCSYM)) { if (o->imm) fprintf(out, "+%" PRId64, o->imm); }
    else fprintf(out, "%" PRId64, o->imm);
    fputc(']', out);
    break;
  case OK_ADDRX: {
    isa_opnd base = d->f->pool[o->v];
    fputc('[', out);
    /* print the base without its brackets */
    if (base.flags & OF_BASEREG) fputs(d->regprint[base.v], out);
    else if (base.flags & (OF_MODSYM | OF_FUNCSYM)) fputs(sym_name(d, &base), out);
    else fprintf(out, "%" PRId64, base.imm);
    if ((base.flags & (OF_BASEREG | OF_MODSYM | OF_FUNCSYM)) && base.imm) fprintf(out, "+%" PRId64, base.imm);
    for (uint32_t i = 1; i < o->n; i++) { fputs(", ", out); print_opnd(d, &d->f->pool[o->v + i]); }
    fputc(']', out);
    break;
  }
  case OK_SYM:
    fputs(sym_name(d, o), out);
    if (o->imm) fprintf(out, "+%" PRId64, o->imm);
    break;
  case OK_LABEL: fputs(label_name(d, o->v), out); break;
  case OK_FUNC: fputs(d->m->funcs[o->v].name, out); break;
  case OK_VEC: print_list(d, o, "{", ", ", "}"); break;
  case OK_LIST: print_list(d, o, "(", ", ", ")"); break;
  case OK_PAIR: print_list(d, o, "", "|", ""); break;
  case OK_SINK: fputc('_', out); break;
  case OK_TABLE: fputs(d->f->tables[o->v].name, out); break;
  default: fputc('?', out); break;
  }
}

static void print_insn(dctx *d, const isa_insn *in) {
  char name[256];
  set_line(d, in->line);
  fputc('\t', d->out);
  if (in->guard >= 0) fprintf(d->out, "@%s%s ", in->guard_neg ? "!" : "", d->regprint[in->guard]);
  isa_format_opname(in, name, sizeof name);
  fputs(name, d->out);
  for (uint32_t i = 0; i < in->nops; i++) {
    fputs(i ? ", " : " ", d->out);
    print_opnd(d, &d->f->ops[in->opi + i]);
  }
  fputc(';', d->out);
  nl(d);
}

static void print_params(dctx *d, const isa_func *f, uint32_t first, uint32_t n, bool sep_lines) {
  fputc('(', d->out);
  for (uint32_t i = 0; i < n; i++) {
    if (i) fputc(',', d->out);
    if (sep_lines) { nl(d); fputc('\t', d->out); }
    const isa_sym *s = &f->syms[first + i];
    if (s->space == PTX_SPACE_REG && s->vec > 1) fprintf(d->out, ".reg .v%u .%s %s", (unsigned)s->vec, ptx_type_names[s->type], s->name);
    else if (s->space == PTX_SPACE_REG) fprintf(d->out, ".reg .%s %s", ptx_type_names[s->type], s->name);
    else print_decl(d, s, true);
  }
  fputc(')', d->out);
}

static void print_record(dctx *d, const isa_rec *r) {
  const isa_func *f = d->f;
  FILE *o = d->out;
  switch (r->kind) {
  case REC_LABEL: fprintf(o, "%s:", f->labels[r->a]); nl(d); break;
  case REC_REGS: {
    uint8_t t = f->regtype[r->a];
    uint32_t n = ISA_REGS_COUNT(r->b), vec = ISA_REGS_VEC(r->b);
    if ((r->b & ISA_REGS_RANGE) && vec > 1) fprintf(o, "\t.reg .v%u .%s %s<%u>;", vec, ptx_type_names[t], r->name, n);
    else if (r->b & ISA_REGS_RANGE) fprintf(o, "\t.reg .%s %s<%u>;", ptx_type_names[t], r->name, n);
    else if (n > 1) fprintf(o, "\t.reg .v%u .%s %s;", n, ptx_type_names[t], r->name);
    else fprintf(o, "\t.reg .%s %s;", ptx_type_names[t], r->name);
    nl(d);
    break;
  }
  case REC_SYM: fputc('\t', o); print_decl(d, &f->syms[r->a], true); fputc(';', o); nl(d); break;
  case REC_MSYM: fputc('\t', o); print_decl(d, &d->m->syms[r->a], true); print_init(d, &d->m->syms[r->a]); fputc(';', o); nl(d); break;
  case REC_OPEN: d->bstack[d->bdepth++] = d->block; d->block = ++d->nblocks; fputc('{', o); nl(d); break;
  case REC_CLOSE: if (d->bdepth) d->block = d->bstack[--d->bdepth]; fputc('}', o); nl(d); break;
  case REC_LOC: {
    const isa_locinfo *l = &f->locs[r->a];
    fprintf(o, "\t.loc %u %u %u", l->file, l->line, l->col);
    if (l->function_name) fprintf(o, ", function_name %s", l->function_name);
    if (l->inlined) fprintf(o, ", inlined_at %u %u %u", l->in_file, l->in_line, l->in_col);
    nl(d);
    break;
  }
  case REC_PRAGMA: fprintf(o, "\t.pragma \"%s\";", r->name); nl(d); break;
  case REC_BRANCHTARGETS: case REC_CALLTARGETS: {
    const isa_table *t = &f->tables[r->a];
    fprintf(o, "%s: %s ", r->name, t->calls ? ".calltargets" : ".branchtargets");
    for (uint32_t k = 0; k < t->n; k++) {
      if (k) fputs(", ", o);
      fputs(t->calls ? d->m->funcs[t->pcs[k]].name : label_name(d, t->pcs[k]), o);
    }
    fputc(';', o);
    nl(d);
    break;
  }
  case REC_CALLPROTO: {
    const isa_func *p = &d->m->funcs[r->a];
    const isa_func *saved = d->f;
    fprintf(o, "%s: .callprototype ", r->name);
    d->f = p;
    if (p->nrets) { print_params(d, p, 0, p->nrets, false); fputc(' ', o); }
    fputs("_ ", o);
    print_params(d, p, p->nrets, p->nparams, false);
    d->f = saved;
    fputc(';', o);
    nl(d);
    break;
  }
  }
}

static void print_func(dctx *d, const isa_func *f) {
  FILE *o = d->out;
  d->f = f;
  /* printable register names: ranges print as prefix+index */
  d->regprint = calloc(f->nregs ? f->nregs : 1, sizeof *d->regprint);
  /* and elements of vector registers as name.x name.y ... */
  static const char elem[] = "xyzw";
  size_t need = 1;
  for (uint32_t i = 0; i < f->nrecs; i++)
    if (f->recs[i].kind == REC_REGS) need += (strlen(f->recs[i].name) + 14) * (ISA_REGS_SLOTS(f->recs[i].b) + ISA_REGS_COUNT(f->recs[i].b));
  for (uint32_t i = 0; i < f->nrets + f->nparams && i < f->nsyms; i++)
    if (f->syms[i].space == PTX_SPACE_REG && f->syms[i].vec > 1) need += (strlen(f->syms[i].name) + 3) * 4;
  d->namebuf = malloc(need);
  char *p = d->namebuf;
  for (uint32_t i = 0; i < f->nregs; i++) d->regprint[i] = f->regname[i];
  /* vector .reg parameters: their elements (the header declares them) */
  for (uint32_t i = 0; i < f->nrets + f->nparams && i < f->nsyms; i++) {
    const isa_sym *y = &f->syms[i];
    if (y->space != PTX_SPACE_REG || y->vec < 2) continue;
    for (uint32_t r = 0; r < f->nregs; r++)
      if (f->regname[r] && strcmp(f->regname[r], y->name) == 0) {
        for (uint32_t e = 0; e < y->vec && e < 4 && r + e < f->nregs; e++) {
          d->regprint[r + e] = p;
          p += sprintf(p, "%s.%c", y->name, elem[e]) + 1;
        }
        break;
      }
  }
  for (uint32_t i = 0; i < f->nrecs; i++) {
    const isa_rec *r = &f->recs[i];
    if (r->kind != REC_REGS || (!(r->b & ISA_REGS_RANGE) && r->b <= 1)) continue;
    uint32_t vec = (r->b & ISA_REGS_RANGE) ? ISA_REGS_VEC(r->b) : r->b, n = ISA_REGS_COUNT(r->b);
    if (!(r->b & ISA_REGS_RANGE)) n = 1;
    for (uint32_t k = 0; k < n; k++) {
      for (uint32_t e = 0; e < vec; e++) {
        d->regprint[r->a + k * vec + e] = p;
        if (!(r->b & ISA_REGS_RANGE)) p += sprintf(p, "%s.%c", r->name, elem[e & 3]) + 1;
        else if (vec > 1) p += sprintf(p, "%s%u.%c", r->name, k, elem[e & 3]) + 1;
        else p += sprintf(p, "%s%u", r->name, k) + 1;
      }
    }
  }
  d->pclabel = calloc(f->ninsns + 1, sizeof *d->pclabel);
  for (uint32_t i = f->nlabels; i-- > 0;) d->pclabel[f->label_pc[i]] = f->labels[i];
  for (uint32_t i = 0; i < f->nlabels; i++) if (!d->pclabel[f->label_pc[i]]) d->pclabel[f->label_pc[i]] = f->labels[i];
  /* the first label at a pc, in listing order, names it */
  for (uint32_t i = 0; i <= f->ninsns; i++) d->pclabel[i] = NULL;
  for (uint32_t i = 0; i < f->nrecs; i++)
    if (f->recs[i].kind == REC_LABEL && !d->pclabel[f->label_pc[f->recs[i].a]]) d->pclabel[f->label_pc[f->recs[i].a]] = f->labels[f->recs[i].a];
  label_scopes(d);

  fputs(linkage(f->linkage), o);
  fputs(f->is_entry ? ".entry " : ".func ", o);
  if (!f->is_entry && f->nrets) { print_params(d, f, 0, f->nrets, false); fputc(' ', o); }
  fputs(f->name, o);
  if (f->nparams) print_params(d, f, f->nrets, f->nparams, true);
  else if (f->is_entry) fputs("()", o);
  const ptx_perf *pf = &f->perf;
  if (pf->n_maxntid) { fprintf(o, " .maxntid %u", pf->maxntid[0]); for (int i = 1; i < pf->n_maxntid; i++) fprintf(o, ", %u", pf->maxntid[i]); }
  if (pf->n_reqntid) { fprintf(o, " .reqntid %u", pf->reqntid[0]); for (int i = 1; i < pf->n_reqntid; i++) fprintf(o, ", %u", pf->reqntid[i]); }
  if (pf->n_reqnctapercluster) { fprintf(o, " .reqnctapercluster %u", pf->reqnctapercluster[0]); for (int i = 1; i < pf->n_reqnctapercluster; i++) fprintf(o, ", %u", pf->reqnctapercluster[i]); }
  if (pf->minnctapersm) fprintf(o, " .minnctapersm %u", pf->minnctapersm);
  if (pf->maxnctapersm) fprintf(o, " .maxnctapersm %u", pf->maxnctapersm);
  if (pf->maxnreg) fprintf(o, " .maxnreg %u", pf->maxnreg);
  if (pf->maxclusterrank) fprintf(o, " .maxclusterrank %u", pf->maxclusterrank);
  if (pf->explicitcluster) fputs(" .explicitcluster", o);
  if (pf->noreturn) fputs(" .noreturn", o);
  for (uint32_t i = 0; i < f->npragmas; i++) fprintf(o, " .pragma \"%s\";", f->pragmas[i]);
  if (!f->has_body) { fputc(';', o); nl(d); nl(d); goto done; }
  nl(d);
  fputc('{', o);
  nl(d);
  uint32_t r = 0;
  for (uint32_t pc = 0; pc <= f->ninsns; pc++) {
    while (r < f->nrecs && f->recs[r].pc == pc) print_record(d, &f->recs[r++]);
    if (pc < f->ninsns) print_insn(d, &f->insns[pc]);
  }
  fputc('}', o);
  nl(d);
  nl(d);
done:
  free(d->regprint);
  free(d->namebuf);
  free(d->pclabel);
  free(d->lblock); free(d->lnext); free(d->ldup); free(d->bparent); free(d->bstack); free(d->pcfirst);
}

void isa_disassemble(const isa_module *m, FILE *out) {
  dctx d = { .m = m, .out = out, .line = 1 };
  fprintf(out, "//#line 1 \"%s\"\n", m->path);
  fprintf(out, ".version %u.%u\n", m->version / 10, m->version % 10);
  fprintf(out, ".target sm_%u%s%s%s\n", m->sm, m->sm_suffix == 'a' ? "a" : m->sm_suffix == 'f' ? "f" : "",
          m->texmode_independent ? ", texmode_independent" : "", m->debug ? ", debug" : "");
  fprintf(out, ".address_size %u\n", m->address_size);
  d.line = 4;
  for (uint32_t i = 0; i < m->nfiles; i++) {
    fprintf(out, ".file %u \"%s\"", m->files[i].id, m->files[i].path);
    if (m->files[i].mtime || m->files[i].size) fprintf(out, ", %" PRIu64 ", %" PRIu64, m->files[i].mtime, m->files[i].size);
    nl(&d);
  }
  for (uint32_t i = 0; i < m->nmpragmas; i++) { fprintf(out, ".pragma \"%s\";", m->mpragmas[i]); nl(&d); }
  /* variables first, then functions in module order: the assembler binds
   * all module names before it reads initialisers and bodies */
  /* variables declared in a body are listed there */
  uint8_t *inbody = calloc(m->nsyms ? m->nsyms : 1, 1);
  for (uint32_t i = 0; i < m->nfuncs; i++)
    for (uint32_t k = 0; k < m->funcs[i].nrecs; k++)
      if (m->funcs[i].recs[k].kind == REC_MSYM && inbody) inbody[m->funcs[i].recs[k].a] = 1;
  for (uint32_t i = 0; i < m->nsyms; i++) {
    const isa_sym *s = &m->syms[i];
    if (inbody && inbody[i]) continue;
    print_decl(&d, s, true);
    print_init(&d, s);
    fputc(';', out);
    nl(&d);
  }
  free(inbody);
  for (uint32_t i = 0; i < m->nsections; i++) { fprintf(out, ".section %s { }", m->sections[i]); nl(&d); }
  for (uint32_t i = 0; i < m->nfuncs; i++) if (!m->funcs[i].is_proto) print_func(&d, &m->funcs[i]);
  for (uint32_t i = 0; i < m->nfuncs; i++)
    if (m->funcs[i].alias_of) { fprintf(out, ".alias %s, %s;", m->funcs[i].name, m->funcs[m->funcs[i].alias_of - 1].name); nl(&d); }
}
