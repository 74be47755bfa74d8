/* xxh3_base.c — XXH3 for the compiler's default instruction set (SSE2 on x86-64). */
#define KILN_XXH3_NAME(x) x##_base
#include "core/xxh3_body.h"
