/* packed_float.h — linear float RGB to the packed unsigned-float texel formats
 * E5B9G9R9_UFLOAT_PACK32 and B10G11R11_UFLOAT_PACK32, rounded as the Vulkan specification
 * describes (Fundamentals: "Shared Exponent", "Unsigned 11-Bit / 10-Bit Floating-Point
 * Numbers"). The decoders are the codec's (codec/hdr_decode.h). */
#ifndef KILN_PROCESS_PACKED_FLOAT_H
#define KILN_PROCESS_PACKED_FLOAT_H

#include <stdint.h>

/* RGB9E5: channels clamped to [0, 65408] (NaN to 0), the shared exponent from the largest,
 * each mantissa rounded to nearest (the spec's floor(x / 2^(exp - 24) + 0.5)). */
uint32_t kiln_rgb9e5_from_float(const float rgb[3]);

/* B10G11R11: each channel to the nearest representable value, ties to even; negative values and
 * NaN to 0, values beyond the largest finite one (65024 for 11 bits, 64512 for 10) to it. */
uint32_t kiln_b10g11r11_from_float(const float rgb[3]);

#endif
