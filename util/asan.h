/* util/asan.h - PTXEMU_ASAN where AddressSanitizer instruments the build
 * (GCC defines __SANITIZE_ADDRESS__, clang answers __has_feature): the
 * allocators that carve mappings themselves use plain heap blocks there,
 * which it checks. */
#ifndef PTXEMU_UTIL_ASAN_H
#define PTXEMU_UTIL_ASAN_H
#if defined(__SANITIZE_ADDRESS__)
#define PTXEMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTXEMU_ASAN 1
#endif
#endif
#endif
