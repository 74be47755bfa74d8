/* xxh3_avx2.c — XXH3 with AVX2 (this file alone is compiled with -mavx2 on x86-64; hex.c calls
 * it only on CPUs that have AVX2). Elsewhere it compiles to nothing. */
#include "core/xxh3_variants.h"

#ifdef KILN_XXH3_AVX2
#ifndef __AVX2__
#error "xxh3_avx2.c must be compiled with -mavx2 (CMakeLists.txt sets it)"
#endif
#define KILN_XXH3_NAME(x) x##_avx2
#include "core/xxh3_body.h"
#else
typedef int kiln_xxh3_avx2_unused; /* ISO C: a unit must declare something */
#endif
