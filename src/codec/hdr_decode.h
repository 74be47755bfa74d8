/* hdr_decode.h — kiln's CPU decoders of the HDR texture formats to half floats: BC6H blocks
 * (unsigned and signed) and the packed RGB9E5 and B10G11R11 texels. Output texels are RGBA,
 * four IEEE binary16 values each, alpha 1.0 (0x3C00). Every bit pattern decodes: none fails.
 * Shared by the cook (error measurement, tests) and libkiln_rt (kiln_transcode_rgba16f, for
 * renderers that cannot sample the stored format). libc only. */
#ifndef KILN_CODEC_HDR_DECODE_H
#define KILN_CODEC_HDR_DECODE_H

#include <stdbool.h>
#include <stdint.h>

/* Half-float 1.0, the alpha of every decoded texel. */
#define KILN_HALF_ONE 0x3C00u

/* BC6H (16 bytes) to 16 texels row by row. is_signed: BC6H_SFLOAT, else BC6H_UFLOAT. The
 * reserved modes (19, 23, 27, 31) decode to (0, 0, 0, 1), as the specification asks. */
void kiln_bc6h_decode_block(const uint8_t *in, bool is_signed, uint16_t rgba[64]);

/* E5B9G9R9_UFLOAT_PACK32 (one little-endian uint32) to one texel. */
void kiln_rgb9e5_decode(uint32_t packed, uint16_t rgba[4]);

/* B10G11R11_UFLOAT_PACK32 (one little-endian uint32) to one texel: the 11- and 10-bit floats
 * are halves without sign and low mantissa bits, so the conversion is exact. */
void kiln_b10g11r11_decode(uint32_t packed, uint16_t rgba[4]);

#endif
