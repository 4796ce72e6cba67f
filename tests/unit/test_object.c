/* test_object.c -- crafted .pxo objects: each test assembles a small
 * module, breaks one field the way a hostile file could, writes it (so
 * the checksum is right) and checks that the reader refuses it with its
 * message; and address initialisers round-trip and load with their width. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptx/ast.h"
#include "isa/isa.h"
#include "emu/emu.h"

static const char head[] = ".version 8.0\n.target sm_90\n.address_size 64\n";

static isa_module *assemble(const char *body) {
  size_t len = strlen(head) + strlen(body);
  char *buf = calloc(1, len + 2);
  strcpy(buf, head);
  strcat(buf, body);
  ptx_diag d;
  memset(&d, 0, sizeof d);
  d.path = "t.ptx"; d.src = buf; d.src_len = len; d.out = stderr;
  isa_module *m = isa_assemble_ptx(buf, len, "t.ptx", &d);
  free(buf);
  ck_assert_msg(m != NULL, "the test module does not assemble");
  return m;
}

/* Write m as an object and read it back; NULL with err set when refused. */
static isa_module *write_read(isa_module *m, char *err, size_t errlen) {
  char path[] = "/tmp/test_object_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  ck_assert_msg(isa_write_object(m, path, err, errlen) == 0, "cannot write: %s", err);
  isa_module *back = isa_read_object(path, err, errlen);
  unlink(path);
  return back;
}

/* The reader must refuse m with a message containing want. */
static void refused(isa_module *m, const char *want) {
  char err[256] = "";
  isa_module *back = write_read(m, err, sizeof err);
  ck_assert_msg(back == NULL, "a crafted object was accepted (wanted '%s')", want);
  ck_assert_msg(strstr(err, want) != NULL, "message '%s' lacks '%s'", err, want);
  isa_module_free(m);
}

static isa_func *func(isa_module *m, const char *name) {
  int i = isa_find_func(m, name);
  ck_assert_int_ge(i, 0);
  return &m->funcs[i];
}

static isa_insn *insn(isa_func *f, int op) {
  for (uint32_t i = 0; i < f->ninsns; i++) if (f->insns[i].op == op) return &f->insns[i];
  ck_abort_msg("no such instruction");
  return NULL;
}

static isa_sym *msym(isa_module *m, const char *name) {
  for (uint32_t i = 0; i < m->nsyms; i++) if (!strcmp(m->syms[i].name, name)) return &m->syms[i];
  ck_abort_msg("no such variable");
  return NULL;
}

static const char kernel[] =
  ".global .align 8 .u32 a[4];\n"
  ".global .align 8 .u64 p[2] = {a, a+4};\n"
  ".visible .entry k(.param .u64 out)\n{\n"
  "  .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [out];\n"
  "  add.u32 %r1, %r2, 5;\n"
  "  st.global.u32 [%rd1], %r1;\n"
  "  ret;\n}\n";

START_TEST(test_reloc_offset_wraps) {
  isa_module *m = assemble(kernel);
  msym(m, "p")->relocs[1].offset = UINT64_MAX - 7;     /* 2^64-8: offset + 8 wraps to 0 */
  refused(m, "bad relocation offset");
}
END_TEST

START_TEST(test_reloc_past_u32) {
  isa_module *m = assemble(".global .u32 a[4];\n.global .u32 b[3] = {a, a, a};\n");
  msym(m, "b")->relocs[2].offset = 9;                   /* 4 bytes from 9 pass the end of 12 */
  refused(m, "bad relocation offset");
}
END_TEST

START_TEST(test_reloc_in_float) {
  isa_module *m = assemble(".global .u32 a[4];\n.global .u32 b[3] = {a, a, a};\n");
  msym(m, "b")->type = PTX_T_F32;                      /* what 'asm' refuses: an address in a .f32 */
  refused(m, "bad relocation in a variable");
}
END_TEST

START_TEST(test_immediate_address) {
  isa_module *m = assemble(kernel);
  isa_func *f = func(m, "k");
  isa_opnd *a = &f->ops[insn(f, OP_ST)->opi];         /* [%rd1] as an immediate with the base-register flag */
  a->kind = OK_IMM;
  a->flags = OF_BASEREG;
  a->v = 100000;
  refused(m, "bad operand flags");
}
END_TEST

START_TEST(test_register_as_address) {
  isa_module *m = assemble(kernel);
  isa_func *f = func(m, "k");
  isa_opnd *a = &f->ops[insn(f, OP_ST)->opi];         /* st.global.u32 %r1, %r1: no address */
  a->kind = OK_REG;
  a->flags = 0;
  a->v = 1;
  refused(m, "bad operand kind for the opcode");
}
END_TEST

START_TEST(test_base_register_and_symbol) {
  isa_module *m = assemble(kernel);
  isa_func *f = func(m, "k");
  f->ops[insn(f, OP_ST)->opi].flags |= OF_MODSYM;
  refused(m, "bad address flags");
}
END_TEST

START_TEST(test_too_few_operands) {
  isa_module *m = assemble(kernel);
  insn(func(m, "k"), OP_ADD)->nops = 2;
  refused(m, "bad operand count");
}
END_TEST

START_TEST(test_call_without_target) {
  isa_module *m = assemble(".func (.param .u32 r) f() { st.param.u32 [r], 1; ret; }\n"
                           ".visible .entry k() { .param .u32 x; call (x), f, (); ret; }\n");
  insn(func(m, "k"), OP_CALL)->nops = 1;               /* (x) alone: the target would be past the operands */
  refused(m, "bad call target");
}
END_TEST

START_TEST(test_type_zero) {
  isa_module *m = assemble(kernel);
  insn(func(m, "k"), OP_ADD)->type = PTX_T_NONE;       /* add.u32 of no type: a shift by 64 in the executor */
  refused(m, "bad instruction modifiers");
}
END_TEST

START_TEST(test_type_not_spelled) {
  isa_module *m = assemble(kernel);
  insn(func(m, "k"), OP_ADD)->type = PTX_T_F64;        /* comps still say .u32 */
  refused(m, "bad instruction modifiers");
}
END_TEST

START_TEST(test_huge_func_param) {
  isa_module *m = assemble(".func f(.param .b8 p[16]) { ret; }\n");
  isa_func *f = func(m, "f");
  f->syms[f->nrets].size = 4294967264u;               /* would wrap the 32-bit frame layout */
  refused(m, "bad local symbol size");
}
END_TEST

START_TEST(test_param_space) {
  isa_module *m = assemble(".func f(.param .b8 p[16]) { ret; }\n");
  isa_func *f = func(m, "f");
  f->syms[f->nrets].space = PTX_SPACE_SHARED;
  refused(m, "bad parameter space");
}
END_TEST

START_TEST(test_empty_vector) {
  isa_module *m = assemble(".visible .entry k(.param .u64 out) { .reg .b32 %r<4>; .reg .b64 %rd1;\n"
                           "  ld.param.u64 %rd1, [out]; ld.global.v2.u32 {%r1, %r2}, [%rd1]; ret; }\n");
  isa_func *f = func(m, "k");
  for (uint32_t i = 0; i < f->ninsns; i++)
    if (f->insns[i].vec == 2) f->ops[f->insns[i].opi].n = 0;
  refused(m, "bad empty vector");
}
END_TEST

/* a register listing the disassembler prints by name must have one */
START_TEST(test_listing_without_name) {
  isa_module *m = assemble(".visible .entry k(.param .u64 out) { .reg .v4 .b32 %q; .reg .b64 %rd1;\n"
                           "  ld.param.u64 %rd1, [out]; mov.b32 %q.w, 7; st.global.u32 [%rd1], %q.w; ret; }\n");
  isa_func *f = func(m, "k");
  bool found = false;
  for (uint32_t i = 0; i < f->nrecs; i++)
    if (f->recs[i].kind == REC_REGS) { f->recs[i].name = NULL; found = true; }
  ck_assert(found);
  refused(m, "listing name");
}
END_TEST

START_TEST(test_call_argument_size) {
  isa_module *m = assemble(".func f(.param .b8 p[16]) { ret; }\n"
                           ".visible .entry k() { .param .b8 q[16]; call f, (q); ret; }\n");
  isa_func *f = func(m, "f");
  f->syms[f->nrets].size = 4096;                      /* the call would copy 4096 bytes from a 16-byte argument */
  refused(m, "bad call argument size");
}
END_TEST

START_TEST(test_entry_prototype) {
  isa_module *m = assemble(kernel);
  func(m, "k")->is_proto = true;                      /* a prototype with a body: a launch would start nowhere */
  refused(m, "bad prototype");
}
END_TEST

/* .u32 address initialisers hold the low 32 bits, .u64 all 64; an object
 * with them reads back, and loading writes no byte outside the variable. */
START_TEST(test_reloc_widths_load) {
  isa_module *m = assemble(".global .align 8 .u32 a[4];\n"
                           ".global .u32 b[3] = {a, generic(a)+4, a+8};\n"
                           ".global .u64 c[2] = {a+12, 7};\n");
  char err[256] = "";
  isa_module *back = write_read(m, err, sizeof err);
  ck_assert_msg(back != NULL, "the object 'asm -o' wrote does not read: %s", err);
  isa_module_free(m);
  emu_options o;
  emu_default_options(&o);
  o.mem_cap = 64u << 20;
  o.heap_bytes = 1u << 20;
  emu *e = emu_new(back, &o);
  ck_assert_ptr_nonnull(e);
  uint64_t asz, bsz, csz;
  uint64_t a = emu_symbol_addr(e, "a", &asz), b = emu_symbol_addr(e, "b", &bsz), c = emu_symbol_addr(e, "c", &csz);
  ck_assert_uint_eq(bsz, 12);
  uint32_t bv[3];
  uint64_t cv[2];
  memcpy(bv, emu_host_ptr(e, b, 12), 12);
  memcpy(cv, emu_host_ptr(e, c, 16), 16);
  for (int i = 0; i < 3; i++) ck_assert_uint_eq(bv[i], (uint32_t)(a + 4u * (unsigned)i));
  ck_assert_uint_eq(cv[0], a + 12);
  ck_assert_uint_eq(cv[1], 7);
  emu_free(e);
  isa_module_free(back);
}
END_TEST

int main(void) {
  Suite *s = suite_create("object");
  TCase *t = tcase_create("crafted");
  tcase_add_test(t, test_reloc_offset_wraps);
  tcase_add_test(t, test_reloc_past_u32);
  tcase_add_test(t, test_reloc_in_float);
  tcase_add_test(t, test_immediate_address);
  tcase_add_test(t, test_register_as_address);
  tcase_add_test(t, test_base_register_and_symbol);
  tcase_add_test(t, test_too_few_operands);
  tcase_add_test(t, test_call_without_target);
  tcase_add_test(t, test_type_zero);
  tcase_add_test(t, test_type_not_spelled);
  tcase_add_test(t, test_huge_func_param);
  tcase_add_test(t, test_param_space);
  tcase_add_test(t, test_empty_vector);
  tcase_add_test(t, test_call_argument_size);
  tcase_add_test(t, test_listing_without_name);
  tcase_add_test(t, test_entry_prototype);
  tcase_add_test(t, test_reloc_widths_load);
  suite_add_tcase(s, t);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
