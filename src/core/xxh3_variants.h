/* xxh3_variants.h — the per-instruction-set XXH3 functions behind kiln_xxh3_* (hash.h), for
 * hex.c's dispatch and for the test that checks every variant gives the same hashes. */
#ifndef KILN_CORE_XXH3_VARIANTS_H
#define KILN_CORE_XXH3_VARIANTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

uint64_t kiln_xxh3_64_base(const void *data, size_t size);
void kiln_xxh3_128_base(const void *data, size_t size, uint8_t out[16]);
uint64_t kiln_xxh3_64_field_zeroed_base(const void *data, size_t size, size_t field);

/* Built on x86-64 only (GCC and Clang); call them only when kiln_xxh3_has_avx2(). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define KILN_XXH3_AVX2 1
uint64_t kiln_xxh3_64_avx2(const void *data, size_t size);
void kiln_xxh3_128_avx2(const void *data, size_t size, uint8_t out[16]);
uint64_t kiln_xxh3_64_field_zeroed_avx2(const void *data, size_t size, size_t field);
#endif

/* The CPU (and the OS, which must save the YMM registers) can run the AVX2 variants. */
bool kiln_xxh3_has_avx2(void);

#endif
