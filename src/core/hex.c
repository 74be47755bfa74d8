/* hex.c — hex encoding of digests, and the choice of XXH3 variant. Shared with the runtime. */
#include <string.h>

#include "core/hash.h"
#include "core/xxh3_variants.h"

void kiln_hex(const uint8_t *bytes, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * n] = '\0';
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool kiln_unhex(const char *hex, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int hi = hex_value(hex[2 * i]);
        if (hi < 0) return false;
        int lo = hex_value(hex[2 * i + 1]);
        if (lo < 0) return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return hex[2 * n] == '\0';
}

/* XXH3 through xxh3_base.c or xxh3_avx2.c: the same hashes, AVX2 where the CPU has it.
 * __builtin_cpu_supports reads what libgcc found at start-up (it checks the OS saves YMM). */
bool kiln_xxh3_has_avx2(void)
{
#ifdef KILN_XXH3_AVX2
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

uint64_t kiln_xxh3_64(const void *data, size_t size)
{
#ifdef KILN_XXH3_AVX2
    if (kiln_xxh3_has_avx2()) return kiln_xxh3_64_avx2(data, size);
#endif
    return kiln_xxh3_64_base(data, size);
}

void kiln_xxh3_128(const void *data, size_t size, uint8_t out[16])
{
#ifdef KILN_XXH3_AVX2
    if (kiln_xxh3_has_avx2()) {
        kiln_xxh3_128_avx2(data, size, out);
        return;
    }
#endif
    kiln_xxh3_128_base(data, size, out);
}

uint64_t kiln_xxh3_64_field_zeroed(const void *data, size_t size, size_t field)
{
#ifdef KILN_XXH3_AVX2
    if (kiln_xxh3_has_avx2()) return kiln_xxh3_64_field_zeroed_avx2(data, size, field);
#endif
    return kiln_xxh3_64_field_zeroed_base(data, size, field);
}
