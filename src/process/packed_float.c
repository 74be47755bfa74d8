/* packed_float.c — float to the packed unsigned-float formats (packed_float.h), following the
 * Vulkan specification's conversions: RGB9E5 in double precision, where every step of the
 * spec's formula is exact for float inputs (powers of two, and x / 2^k + 0.5 with 24-bit x);
 * the 11- and 10-bit floats from the binary32 bit pattern with round-to-nearest-even. */
#include "process/packed_float.h"

#include <math.h>
#include <string.h>

enum { E5_N = 9, E5_B = 15, E5_EMAX = 31 };

uint32_t kiln_rgb9e5_from_float(const float rgb[3])
{
    const double max_value = (double)((1 << E5_N) - 1) / (1 << E5_N) * (1 << (E5_EMAX - E5_B));
    double c[3], max_c = 0.0;
    for (int i = 0; i < 3; i++) {
        double v = rgb[i];
        c[i] = !(v > 0.0) ? 0.0 : v > max_value ? max_value : v; /* NaN fails v > 0 */
        if (c[i] > max_c) max_c = c[i];
    }
    /* exp' = max(-B - 1, floor(log2(max_c))) + 1 + B; frexp gives floor(log2) exactly. */
    int fl = -E5_B - 1;
    if (max_c > 0.0) {
        int e;
        (void)frexp(max_c, &e); /* max_c = m 2^e, m in [0.5, 1): floor(log2) = e - 1 */
        if (e - 1 > fl) fl = e - 1;
    }
    int exp_shared = fl + 1 + E5_B;
    double max_s = floor(ldexp(max_c, -(exp_shared - E5_B - E5_N)) + 0.5);
    if (max_s >= (double)(1 << E5_N)) exp_shared++;
    uint32_t out = (uint32_t)exp_shared << 27;
    for (int i = 0; i < 3; i++) {
        double s = floor(ldexp(c[i], -(exp_shared - E5_B - E5_N)) + 0.5);
        out |= (uint32_t)s << (E5_N * i);
    }
    return out;
}

/* f to an unsigned float of 5 exponent bits (bias 15) and mbits mantissa bits. */
static uint32_t ufloat(float f, unsigned mbits)
{
    const uint32_t max_finite = (30u << mbits) | ((1u << mbits) - 1u);
    if (!(f > 0.0f)) return 0;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    int e = (int)((bits >> 23) & 0xFFu) - 127;
    if (e == 128) return max_finite; /* infinity (NaN returned above) */
    if (e == -127) return 0;         /* float subnormals are far below the smallest value */
    uint32_t mant = (bits & 0x7FFFFFu) | 0x800000u;
    unsigned shift = 23u - mbits;
    int exp_biased = e + 15;
    if (exp_biased < 1) { /* subnormal result: shift further, keep exponent field 0 */
        unsigned extra = (unsigned)(1 - exp_biased);
        if (shift + extra > 25) return 0;
        shift += extra;
        exp_biased = 0;
    }
    uint32_t r = mant >> shift, rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1u))) r++;
    uint32_t out;
    if (exp_biased == 0) {
        out = r; /* r == 1 << mbits is exactly the smallest normal: exponent field 1 */
    } else {
        if (r == (2u << mbits)) r >>= 1, exp_biased++;
        out = ((uint32_t)exp_biased << mbits) | (r & ((1u << mbits) - 1u));
    }
    return out > max_finite ? max_finite : out;
}

uint32_t kiln_b10g11r11_from_float(const float rgb[3])
{
    return ufloat(rgb[0], 6) | ufloat(rgb[1], 6) << 11 | ufloat(rgb[2], 5) << 22;
}
