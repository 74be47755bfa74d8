/* half.h — IEEE 754 binary32 -> binary16 (half float) conversion, in integer arithmetic; the
 * other direction is the codec's (codec/half_float.h, included here). */
#ifndef KILN_PROCESS_HALF_H
#define KILN_PROCESS_HALF_H

#include <stdint.h>

#include "codec/half_float.h" /* kiln_half_to_float: the other direction */

/* Nearest half to f, ties to even (IEEE 754 default rounding). Magnitudes from 65520 up become
 * infinity, below 2^-25 (and 2^-25 itself) a signed zero; subnormal halves are produced.
 * NaN stays NaN (quiet, sign and the top payload bits kept). */
uint16_t kiln_half_from_float(float f);

/* The same, saturated for texture data: NaN gives +0, values beyond +-65504 (infinities
 * included) give +-65504, so a texel is never infinite or NaN. */
uint16_t kiln_half_from_float_sat(float f);

#endif
