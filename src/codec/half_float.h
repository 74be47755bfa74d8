/* half_float.h — IEEE 754 binary16 (half float) to binary32, in integer arithmetic: what the
 * cook's texture and material code and the codec's RGBA16F decoder (half_decode.c) share. Part
 * of libkiln_rt: libc only. */
#ifndef KILN_CODEC_HALF_FLOAT_H
#define KILN_CODEC_HALF_FLOAT_H

#include <stdint.h>

/* Exact float value of a half (every half is representable as a float). */
float kiln_half_to_float(uint16_t h);

#endif
