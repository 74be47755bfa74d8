/* half.c — float -> IEEE 754 binary16 conversion with round-to-nearest-even, on the bit
 * patterns (IEEE 754-2008 §3.6 binary16 layout: 1 sign, 5 exponent bits biased by 15, 10
 * fraction bits). Integer code only, so no dependency on the FPU's rounding mode or on F16C. */
#include "process/half.h"

#include <string.h>

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Shifts m right by `shift` (1..31) rounding to nearest, ties to even. */
static uint32_t shift_rne(uint32_t m, uint32_t shift)
{
    uint32_t q = m >> shift;
    uint32_t rem = m & ((1u << shift) - 1u);
    uint32_t halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (q & 1u))) q++;
    return q;
}

uint16_t kiln_half_from_float(float f)
{
    uint32_t x = float_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t ax = x & 0x7fffffffu;

    if (ax >= 0x7f800000u) {
        if (ax == 0x7f800000u) return (uint16_t)(sign | 0x7c00u);
        /* Set the quiet bit so a payload whose top bits are zero does not become infinity. */
        return (uint16_t)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
    }
    /* 65520 = 0x477ff000 is halfway between 65504 (odd mantissa) and 65536: even wins, and
     * 65536 does not exist as a finite half. */
    if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);
    if (ax >= 0x38800000u) {
        /* Normal half: rebias the exponent (127 -> 15) and round 23 fraction bits to 10. A
         * carry out of the fraction correctly bumps the exponent. */
        return (uint16_t)(sign | shift_rne(ax - 0x38000000u, 13));
    }
    /* Below 2^-14: a subnormal half counts units of 2^-24. 2^-25 is exactly halfway to the
     * smallest subnormal and rounds to the even zero, as does everything smaller. */
    if (ax <= 0x33000000u) return (uint16_t)sign;
    uint32_t e = ax >> 23;                     /* 102..112 */
    uint32_t m = (ax & 0x7fffffu) | 0x800000u; /* value = m * 2^(e - 150) */
    /* Rounding up from 1023 units gives 0x400, the smallest normal: also correct. */
    return (uint16_t)(sign | shift_rne(m, 126u - e));
}

uint16_t kiln_half_from_float_sat(float f)
{
    if (f != f) return 0;
    if (f > 65504.0f) f = 65504.0f;
    if (f < -65504.0f) f = -65504.0f;
    return kiln_half_from_float(f);
}
