/* half_float.c — IEEE 754 binary16 to binary32 on the bit patterns (IEEE 754-2008 §3.6 binary16
 * layout: 1 sign, 5 exponent bits biased by 15, 10 fraction bits). Integer code only, so no
 * dependency on F16C. The other direction, which rounds, is the cook's (process/half.c). */
#include "codec/half_float.h"

#include <string.h>

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

float kiln_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu;
    uint32_t m = h & 0x3ffu;
    if (e == 31) return bits_float(sign | 0x7f800000u | (m << 13));
    if (e != 0) return bits_float(sign | ((e + 112u) << 23) | (m << 13));
    if (m == 0) return bits_float(sign);
    /* Subnormal: normalise so the leading 1 becomes the implicit bit of the float. */
    uint32_t k = 0;
    while (!(m & 0x400u)) {
        m <<= 1;
        k++;
    }
    return bits_float(sign | ((113u - k) << 23) | ((m & 0x3ffu) << 13));
}
