/* half.h — IEEE 754 binary32 <-> binary16 (half float) conversion, in integer arithmetic. */
#ifndef KILN_PROCESS_HALF_H
#define KILN_PROCESS_HALF_H

#include <stdint.h>

/* Nearest half to f, ties to even (IEEE 754 default rounding). Magnitudes from 65520 up become
 * infinity, below 2^-25 (and 2^-25 itself) a signed zero; subnormal halves are produced.
 * NaN stays NaN (quiet, sign and the top payload bits kept). */
uint16_t kiln_half_from_float(float f);

/* The same, saturated for texture data: NaN gives +0, values beyond +-65504 (infinities
 * included) give +-65504, so a texel is never infinite or NaN. */
uint16_t kiln_half_from_float_sat(float f);

/* Exact float value of a half (every half is representable as a float). */
float kiln_half_to_float(uint16_t h);

#endif
