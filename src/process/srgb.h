/* srgb.h — sRGB <-> linear conversion of 8-bit codes through fixed tables (no pow at run time,
 * so the result is the same on every machine and maths library). */
#ifndef KILN_PROCESS_SRGB_H
#define KILN_PROCESS_SRGB_H

#include <stdint.h>

/* Linear value of each 8-bit sRGB code (the exact transfer function, rounded to float). */
extern const float kiln_srgb_decode_table[256];

/* The 255 decision boundaries of the encoder, in linear space: boundary k is the linear value
 * of the sRGB code k + 0.5. Strictly increasing. */
extern const float kiln_srgb_encode_bounds[255];

/* Linear value of an 8-bit sRGB code. */
static inline float kiln_srgb_decode(uint8_t code) { return kiln_srgb_decode_table[code]; }

/* Nearest 8-bit sRGB code of a linear value: round-half-up of 255 * srgb(linear), decided by a
 * binary search over kiln_srgb_encode_bounds. Values <= 0 and NaN give 0, values >= the last
 * boundary give 255. Monotonic; kiln_srgb_encode(kiln_srgb_decode(c)) == c for every c. */
uint8_t kiln_srgb_encode(float linear);

#endif
