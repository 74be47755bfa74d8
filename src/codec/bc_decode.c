/* bc_decode.c — BC1 RGB, BC4 and BC5 block decoders (Khronos Data Format Specification 1.3,
 * sections 21.1 "BC1" and 21.3/21.4 "BC4"/"BC5": endpoints, then 2-bit (BC1) or 3-bit (BC4)
 * selectors with texel 0 in the low bits). The palettes live in block_decode.h so that the
 * encoders in src/process score exactly these values; the cook and libkiln_rt share this file. */
#include "codec/block_decode.h"

void kiln_bc1_decode_block(const uint8_t *in, uint8_t rgba[64])
{
    uint16_t c0 = (uint16_t)(in[0] | in[1] << 8), c1 = (uint16_t)(in[2] | in[3] << 8);
    uint32_t sel =
        (uint32_t)in[4] | (uint32_t)in[5] << 8 | (uint32_t)in[6] << 16 | (uint32_t)in[7] << 24;
    int32_t pal[4][3];
    kiln_bc1_palette(c0, c1, pal);
    for (int i = 0; i < 16; i++) {
        const int32_t *p = pal[(sel >> (2 * i)) & 3];
        rgba[i * 4 + 0] = (uint8_t)p[0];
        rgba[i * 4 + 1] = (uint8_t)p[1];
        rgba[i * 4 + 2] = (uint8_t)p[2];
        rgba[i * 4 + 3] = 255; /* BC1 RGB: the 3-colour mode's index 3 is opaque black */
    }
}

static void bc4_decode_values(const uint8_t *in, uint8_t v[16])
{
    int32_t pal[8];
    kiln_bc4_palette(in[0], in[1], pal);
    uint64_t bits = 0;
    for (int i = 0; i < 6; i++) bits |= (uint64_t)in[2 + i] << (8 * i);
    for (int i = 0; i < 16; i++) v[i] = (uint8_t)pal[(bits >> (3 * i)) & 7];
}

void kiln_bc4_decode_block(const uint8_t *in, uint8_t rgba[64])
{
    uint8_t r[16];
    bc4_decode_values(in, r);
    for (int i = 0; i < 16; i++) {
        rgba[i * 4 + 0] = r[i];
        rgba[i * 4 + 1] = 0;
        rgba[i * 4 + 2] = 0;
        rgba[i * 4 + 3] = 255;
    }
}

/* B = 0, not a rebuilt Z: this is what GPUs return when they sample BC5 (RGTC2), so a shader
 * written for BC5 reads the same texels from the RGBA8 fallback. */
void kiln_bc5_decode_block(const uint8_t *in, uint8_t rgba[64])
{
    uint8_t r[16], g[16];
    bc4_decode_values(in, r);
    bc4_decode_values(in + 8, g);
    for (int i = 0; i < 16; i++) {
        rgba[i * 4 + 0] = r[i];
        rgba[i * 4 + 1] = g[i];
        rgba[i * 4 + 2] = 0;
        rgba[i * 4 + 3] = 255;
    }
}
