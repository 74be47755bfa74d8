/* block_decode.h — kiln's CPU decoders of one 4x4 block into 16 RGBA8 texels (row by row, 4
 * bytes each), shared by the cook (src/process: error measurement, `kiln inspect --compare`) and
 * libkiln_rt (kiln_transcode_rgba8, for renderers that cannot sample a block format). Every bit
 * pattern decodes: none of them fails. libc only. */
#ifndef KILN_CODEC_BLOCK_DECODE_H
#define KILN_CODEC_BLOCK_DECODE_H

#include <stdbool.h>
#include <stdint.h>

/* BC1 RGB (8 bytes): alpha 255, the 3-colour mode's index 3 is opaque black. */
void kiln_bc1_decode_block(const uint8_t *in, uint8_t rgba[64]);
/* BC4 (8 bytes): (R, 0, 0, 255). */
void kiln_bc4_decode_block(const uint8_t *in, uint8_t rgba[64]);
/* BC5 (16 bytes: R then G, each a BC4 block): (R, G, 0, 255). */
void kiln_bc5_decode_block(const uint8_t *in, uint8_t rgba[64]);
/* BC7 (16 bytes); the reserved mode 8 decodes to zeros, as the specification says. */
void kiln_bc7_decode_block(const uint8_t *in, uint8_t rgba[64]);
/* ASTC 4x4 LDR (16 bytes), with the sRGB or the linear profile's decoding; illegal blocks and
 * HDR content decode to the error colour, opaque magenta (astc_decode.c). */
void kiln_astc_decode_block(const uint8_t *in, bool srgb, uint8_t rgba[64]);

/* The subset (0..count-1) of each texel of a 4x4 ASTC block whose partition seed is `seed` and
 * partition count `count` (2..4): the specification's select_partition (C.2.21). */
void kiln_astc_partition_4x4(unsigned seed, unsigned count, uint8_t part[16]);

/* ETC1 RGB (8 bytes, etc_decode.c). Blocks ETC1 leaves undefined decode as ETC2 reads them. */
void kiln_etc1_decode_block(const uint8_t *in, uint8_t rgba[64]);
/* ETC2 RGB8 (8 bytes): individual, differential, T, H and planar modes; alpha 255. */
void kiln_etc2_rgb_decode_block(const uint8_t *in, uint8_t rgba[64]);
/* ETC2 RGBA8 (16 bytes: an EAC alpha block, then an ETC2 RGB8 block). */
void kiln_etc2_rgba_decode_block(const uint8_t *in, uint8_t rgba[64]);
/* EAC R11 unsigned (8 bytes): (R, 0, 0, 255), the 11-bit value scaled to 8 bits rounding
 * (v * 255 + 1023) / 2047, like BC4. */
void kiln_eac_r11_decode_block(const uint8_t *in, uint8_t rgba[64]);
/* EAC RG11 unsigned (16 bytes: R then G, each an R11 block): (R, G, 0, 255), like BC5. */
void kiln_eac_rg11_decode_block(const uint8_t *in, uint8_t rgba[64]);
/* The 16 values of one EAC block, texels row by row: 8-bit alpha (the ETC2 RGBA8 alpha
 * block), or the unsigned 11-bit values (0..2047) of an R11 block. */
void kiln_eac_alpha_values(const uint8_t *in, uint8_t alpha[16]);
void kiln_eac_r11_values(const uint8_t *in, uint16_t r11[16]);

/* The palettes, here so that the encoders score exactly what the decoders produce. */

/* 5/6-bit channels to 8 bits by bit replication. */
static inline void kiln_bc1_unpack565(uint16_t c, int32_t rgb[3])
{
    int32_t r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
    rgb[0] = (r << 3) | (r >> 2);
    rgb[1] = (g << 2) | (g >> 4);
    rgb[2] = (b << 3) | (b >> 2);
}

/* The four colours of a 4-colour block (c0 > c1), or three plus black (c0 <= c1). The divisions
 * truncate, as Mesa's u_format_s3tc and Pillow's BcnDecode do. */
static inline void kiln_bc1_palette(uint16_t c0, uint16_t c1, int32_t pal[4][3])
{
    kiln_bc1_unpack565(c0, pal[0]);
    kiln_bc1_unpack565(c1, pal[1]);
    for (int k = 0; k < 3; k++) {
        if (c0 > c1) {
            pal[2][k] = (2 * pal[0][k] + pal[1][k]) / 3;
            pal[3][k] = (pal[0][k] + 2 * pal[1][k]) / 3;
        } else {
            pal[2][k] = (pal[0][k] + pal[1][k]) / 2;
            pal[3][k] = 0;
        }
    }
}

/* The eight values of a BC4 block: with a0 > a1 six interpolants, otherwise four plus 0 and 255
 * (truncating divisions, as Mesa's u_format_rgtc and Pillow). */
static inline void kiln_bc4_palette(int32_t a0, int32_t a1, int32_t pal[8])
{
    pal[0] = a0;
    pal[1] = a1;
    if (a0 > a1) {
        for (int i = 2; i < 8; i++) pal[i] = ((8 - i) * a0 + (i - 1) * a1) / 7;
    } else {
        for (int i = 2; i < 6; i++) pal[i] = ((6 - i) * a0 + (i - 1) * a1) / 5;
        pal[6] = 0;
        pal[7] = 255;
    }
}

#endif
