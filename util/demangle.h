/* util/demangle.h - C++ names as people write them: the Itanium ABI
 * demangling of the names nvcc gives kernels (_Z1kPii -> k(int*, int)). */
#ifndef UTIL_DEMANGLE_H
#define UTIL_DEMANGLE_H
#include <stdbool.h>
#include <stddef.h>

/* Demangle name into out (n bytes).  Covers nested and local names,
 * templates with type and integer-literal arguments, pointers, references
 * and cv-qualifiers, builtin types, substitutions (S_, S0_, St, Sa...),
 * template parameters (T_), anonymous namespaces, lambdas and clone
 * suffixes.  Returns false, out untouched, for a name that is not mangled,
 * a construct outside that set (function and array types, expressions...)
 * or a result that does not fit: callers then show the name as it is. */
bool demangle(const char *name, char *out, size_t n);

/* The demangled name in buf, or name itself when it cannot be demangled. */
const char *demangle_or_self(const char *name, char *buf, size_t n);

#endif
