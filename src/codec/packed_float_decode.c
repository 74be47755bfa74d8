/* packed_float_decode.c — the packed unsigned-float texel formats to half floats (Vulkan spec,
 * "Unsigned 11-Bit / 10-Bit Floating-Point Numbers" and "Shared Exponent" in the Fundamentals
 * chapter). Both conversions are exact: an 11- or 10-bit float is a half without sign bit and
 * low mantissa bits, and an RGB9E5 value m * 2^(e - 24) has at most 9 significant bits and is a
 * multiple of 2^-24, the smallest half subnormal. Part of libkiln_rt: libc only. */
#include "codec/hdr_decode.h"

/* m * 2^(e - 24) for m < 512, e < 32 as a half: exact (see above). */
static uint16_t e5_half(uint32_t m, uint32_t e)
{
    if (m == 0) return 0;
    /* Normalise m to 1.xxxxxxxxx (bit 9 below the point): value = m' * 2^(e - 24 - s). */
    int exp2 = (int)e - 24; /* value = m * 2^exp2 */
    int top = 8;
    while (!(m >> top)) top--;
    int unbiased = exp2 + top; /* value = 1.f * 2^unbiased */
    if (unbiased >= -14)
        return (uint16_t)(((uint32_t)(unbiased + 15) << 10) | ((m << (10 - top)) & 0x3FFu));
    /* Subnormal half: value / 2^-24 is an integer (exp2 >= -24). */
    return (uint16_t)(m << (exp2 + 24));
}

void kiln_rgb9e5_decode(uint32_t packed, uint16_t rgba[4])
{
    uint32_t e = packed >> 27;
    for (int c = 0; c < 3; c++) rgba[c] = e5_half((packed >> (9 * c)) & 0x1FFu, e);
    rgba[3] = KILN_HALF_ONE;
}

void kiln_b10g11r11_decode(uint32_t packed, uint16_t rgba[4])
{
    uint32_t r = packed & 0x7FFu, g = (packed >> 11) & 0x7FFu, b = packed >> 22;
    rgba[0] = (uint16_t)(((r >> 6) << 10) | ((r & 0x3Fu) << 4));
    rgba[1] = (uint16_t)(((g >> 6) << 10) | ((g & 0x3Fu) << 4));
    rgba[2] = (uint16_t)(((b >> 5) << 10) | ((b & 0x1Fu) << 5));
    rgba[3] = KILN_HALF_ONE;
}
