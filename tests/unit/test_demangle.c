/* test_demangle.c -- util/demangle: the kernel names nvcc emits, as c++filt
 * (GNU binutils) prints them, and the names it must give back unchanged. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "util/demangle.h"

static void expect(const char *mangled, const char *want) {
  char buf[1024];
  const char *got = demangle_or_self(mangled, buf, sizeof buf);
  ck_assert_msg(strcmp(got, want) == 0, "%s: got '%s', want '%s'", mangled, got, want);
}

START_TEST(plain_functions) {
  expect("_Z1kPii", "k(int*, int)");
  expect("_Z5saxpyifPfS_", "saxpy(int, float, float*, float*)");
  expect("_Z6kernelv", "kernel()");
  expect("_Z1ksthmxyDnDhDF16_",
         "k(short, unsigned short, unsigned char, unsigned long, long long, unsigned long long, decltype(nullptr), half, _Float16)");
  expect("_Z4testP6float2S0_", "test(float2*, float2*)");   /* S0_: float2*, S_ is float2 */
}
END_TEST

START_TEST(qualifiers_and_references) {
  expect("_Z3fooPKcRKiPS_", "foo(char const*, int const&, char const*)");
  expect("_Z1kPVKi", "k(int const volatile*)");
  expect("_Z1kPrKf", "k(float const restrict*)");
  expect("_Z1kOi", "k(int&&)");
}
END_TEST

START_TEST(nested_and_anonymous) {
  expect("_ZN2ns6kernelIiEEvPT_", "void ns::kernel<int>(int*)");
  expect("_ZN12_GLOBAL__N_16kernelEPKfPf", "(anonymous namespace)::kernel(float const*, float*)");
  expect("_ZN5outer5innerIiE3runEPS1_", "outer::inner<int>::run(outer::inner<int>*)");
  expect("_ZN1AC1Ev", "A::A()");
  expect("_ZN1AD2Ev", "A::~A()");
  expect("_ZNK1A3getEv", "A::get() const");
}
END_TEST

START_TEST(templates) {
  expect("_Z6kernelILi256EfEvPT0_S1_i", "void kernel<256, float>(float*, float*, int)");
  expect("_Z10reduce_sumILj128EEvPKdPdj", "void reduce_sum<128u>(double const*, double*, unsigned int)");
  expect("_Z2k1ILi1ELl2ELm3ELx4ELy5ELj6EEvv", "void k1<1, 2l, 3ul, 4ll, 5ull, 6u>()");
  expect("_Z1fILb1ELc65ELin5EEvv", "void f<true, (char)65, -5>()");
  expect("_Z1fIiJfdEEvDpT0_", "void f<int, float, double>(float, double)");
  expect("_ZN7cutlass6KernelINS_4gemm6kernel4GemmIfEEEEvNT_6ParamsE",
         "void cutlass::Kernel<cutlass::gemm::kernel::Gemm<float> >(cutlass::gemm::kernel::Gemm<float>::Params)");
}
END_TEST

START_TEST(std_abbreviations) {
  expect("_ZNSt6vectorIiSaIiEE9push_backERKi", "std::vector<int, std::allocator<int> >::push_back(int const&)");
  expect("_Z1fSt6vectorIiSaIiEE", "f(std::vector<int, std::allocator<int> >)");
  expect("_Z1fSs", "f(std::basic_string<char, std::char_traits<char>, std::allocator<char> >)");
  expect("_Z1fPSo", "f(std::basic_ostream<char, std::char_traits<char> >*)");
}
END_TEST

START_TEST(local_names_and_lambdas) {
  expect("_ZZ1fvE1x", "f()::x");
  expect("_ZZ1fvE1x_0", "f()::x");
  expect("_ZZN1N1fEvE1s", "N::f()::s");
  expect("_Z6kernelIZ4mainEUliE_EvT_", "void kernel<main::{lambda(int)#1}>(main::{lambda(int)#1})");
  expect("_Z6kernelIZ4mainEUlvE0_EvT_", "void kernel<main::{lambda()#2}>(main::{lambda()#2})");
  expect("_ZL6staticv", "static()");
  expect("_Z1kv.part.0", "k() [clone .part.0]");
}
END_TEST

/* Outside the covered set or not mangled: the name comes back unchanged. */
START_TEST(fallbacks) {
  const char *same[] = { "main", "vecadd", "", "_Z", "_Z1", "_Z1kPFviE", "_Z1kRA10_i", "_ZN1AplERKS_",
                         "_Z1kS_", "_Z1kT_", "_Z99k", "_Z1kPi$x", "_Z1fILf3f800000EEvv", "_ZN1a", "_Z1kIE" };
  for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) expect(same[i], same[i]);
  char small[4];
  ck_assert(!demangle("_Z1kPii", small, sizeof small));      /* does not fit */
}
END_TEST

/* Hostile names: deep nesting and substitutions that double at each step
 * stay bounded (fail, not crash or run away). */
START_TEST(hostile) {
  char deep[4096] = "_Z1k";
  for (int i = 0; i < 1000; i++) strcat(deep, "P");
  strcat(deep, "i");
  char buf[8192];
  ck_assert(!demangle(deep, buf, sizeof buf));
  char blow[4096] = "_Z1kIiE";
  for (int i = 0; i < 40; i++) strcat(blow, "N1aIS_S_EE");
  demangle(blow, buf, sizeof buf);              /* any answer, in bounded time */
  char nest[4096] = "_Z1k";
  for (int i = 0; i < 500; i++) strcat(nest, "N1aI");
  demangle(nest, buf, sizeof buf);
}
END_TEST

int main(void) {
  Suite *s = suite_create("demangle");
  TCase *t = tcase_create("core");
  tcase_add_test(t, plain_functions);
  tcase_add_test(t, qualifiers_and_references);
  tcase_add_test(t, nested_and_anonymous);
  tcase_add_test(t, templates);
  tcase_add_test(t, std_abbreviations);
  tcase_add_test(t, local_names_and_lambdas);
  tcase_add_test(t, fallbacks);
  tcase_add_test(t, hostile);
  suite_add_tcase(s, t);
  SRunner *r = srunner_create(s);
  srunner_run_all(r, CK_NORMAL);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
