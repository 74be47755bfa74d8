/* hex.c — hex encoding of digests, and XXH3 through xxHash. Shared with the runtime. */
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <string.h>
#include <xxhash.h>

#include "core/hash.h"

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

uint64_t kiln_xxh3_64(const void *data, size_t size) { return XXH3_64bits(data, size); }

void kiln_xxh3_128(const void *data, size_t size, uint8_t out[16])
{
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits(data, size));
    memcpy(out, c.digest, 16);
}

uint64_t kiln_xxh3_64_field_zeroed(const void *data, size_t size, size_t field)
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
