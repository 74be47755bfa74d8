/* uastc_decode.c — the texels of a UASTC block: ASTC's LDR decode of the equivalent ASTC block
 * (the UASTC specification defines the format that way). Endpoints are unquantized to 8 bits,
 * expanded to 16 (e * 257 for linear, e * 256 + 128 for sRGB), interpolated with the ASTC weight
 * (0..64) and rounded, and the top 8 bits are the texel. L+A modes (15..17) put L in R, G, B;
 * RGB modes decode alpha as 255. */
#include "codec/uastc.h"

/* The ASTC unquantized weights (0..64) of 1- to 5-bit weight indices (the specification's
 * weight unquantization, C.2.17: bit replication to 6 bits, plus one above 32). */
static const uint8_t w1[2] = {0, 64};
static const uint8_t w2[4] = {0, 21, 43, 64};
static const uint8_t w3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
static const uint8_t w4[16] = {0, 4, 8, 12, 17, 21, 25, 29, 35, 39, 43, 47, 52, 56, 60, 64};
static const uint8_t w5[32] = {0,  2,  4,  6,  8,  10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,
                               34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62, 64};
static const uint8_t *const weight_table[6] = {w1, w1, w2, w3, w4, w5};

static uint8_t interpolate(unsigned l, unsigned h, unsigned w, bool srgb)
{
    l = srgb ? (l << 8) | 0x80u : (l << 8) | l;
    h = srgb ? (h << 8) | 0x80u : (h << 8) | h;
    return (uint8_t)(((l * (64 - w) + h * w + 32) >> 6) >> 8);
}

void kiln_uastc_decode(const kiln_uastc_block *b, bool srgb, uint8_t rgba[64])
{
    if (b->mode == KILN_UASTC_MODE_SOLID) {
        for (int i = 0; i < 16; i++)
            for (int c = 0; c < 4; c++) rgba[i * 4 + c] = b->solid[c];
        return;
    }
    /* Endpoints per subset as RGBA. */
    uint8_t e[3][2][4];
    for (unsigned s = 0; s < b->subsets; s++) {
        const uint8_t *v = &b->endpoints[s * b->comps * 2u];
        for (unsigned k = 0; k < 2; k++) {
            if (b->comps == 2) {
                uint8_t l = kiln_uastc_unquant_endpoint(v[k], b->endpoint_range);
                e[s][k][0] = e[s][k][1] = e[s][k][2] = l;
                e[s][k][3] = kiln_uastc_unquant_endpoint(v[2 + k], b->endpoint_range);
            } else {
                for (unsigned c = 0; c < 4; c++)
                    e[s][k][c] = c < b->comps
                                     ? kiln_uastc_unquant_endpoint(v[c * 2 + k], b->endpoint_range)
                                     : 255;
            }
        }
    }
    const uint8_t *wt = weight_table[b->weight_bits <= 5 ? b->weight_bits : 0];
    const unsigned mask = (1u << b->weight_bits) - 1u;
    for (unsigned i = 0; i < 16; i++) {
        unsigned s = b->part[i];
        unsigned wa, wb;
        if (b->planes == 2) {
            wa = wt[b->weights[i * 2] & mask];
            wb = wt[b->weights[i * 2 + 1] & mask];
        } else {
            wa = wb = wt[b->weights[i] & mask];
        }
        for (unsigned c = 0; c < 4; c++) {
            unsigned w = (b->planes == 2 && c == b->ccs) ? wb : wa;
            rgba[i * 4 + c] = interpolate(e[s][0][c], e[s][1][c], w, srgb);
        }
    }
}
