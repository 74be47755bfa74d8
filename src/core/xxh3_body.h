/* xxh3_body.h — kiln's XXH3 entry points over xxHash's header-only form, compiled once per
 * instruction set: xxh3_base.c (the compiler's default: SSE2 on x86-64) and xxh3_avx2.c (built
 * with -mavx2, called only when the CPU has AVX2; see hex.c). The hash is the
 * same bytes on every path — xxHash defines XXH3 independently of its vector width — only the
 * speed differs (~2.4x on AVX2 machines: Debian's libxxhash.a is built for SSE2 alone).
 *
 * The includer defines KILN_XXH3_NAME(x) to name its variants (kiln_xxh3_64_avx2 …). */
#define XXH_INLINE_ALL          /* every xxHash function static in this unit: no clash */
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <string.h>
#include <xxhash.h>

#include "core/xxh3_variants.h"

uint64_t KILN_XXH3_NAME(kiln_xxh3_64)(const void *data, size_t size)
{
    return XXH3_64bits(data, size);
}

void KILN_XXH3_NAME(kiln_xxh3_128)(const void *data, size_t size, uint8_t out[16])
{
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits(data, size));
    memcpy(out, c.digest, 16);
}

uint64_t KILN_XXH3_NAME(kiln_xxh3_64_field_zeroed)(const void *data, size_t size, size_t field)
{
    static const uint8_t zeros[8];
    const uint8_t *p = data;
    XXH3_state_t state;
    XXH3_64bits_reset(&state);
    XXH3_64bits_update(&state, p, field);
    XXH3_64bits_update(&state, zeros, 8);
    XXH3_64bits_update(&state, p + field + 8, size - field - 8);
    return XXH3_64bits_digest(&state);
}
