/* basislz_convert.c — ETC1S blocks to the transcode targets. An ETC1S block is an ETC1 block
 * whose two sub-blocks share one 5-bit colour and one intensity table (differential mode, zero
 * delta), so ETC1 is a copy of bits; the other targets are converted per block. */
#include <string.h>

#include "codec/basislz_convert.h"

/* ETC1's intensity modifiers (Khronos Data Format Specification table 115) in selector order. */
static const int16_t etc1s_modifiers[8][4] = {
    {-8, -2, 2, 8},     {-17, -5, 5, 17},   {-29, -9, 9, 29},     {-42, -13, 13, 42},
    {-60, -18, 18, 60}, {-80, -24, 24, 80}, {-106, -33, 33, 106}, {-183, -47, 47, 183}};

static uint8_t clamp255(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

void kiln_etc1s_colours(const kiln_etc1s_endpoint *e, uint8_t colours[4][3])
{
    for (int k = 0; k < 3; k++) {
        int32_t base = e->c5[k] << 3 | e->c5[k] >> 2;
        for (int s = 0; s < 4; s++) colours[s][k] = clamp255(base + etc1s_modifiers[e->inten][s]);
    }
}

void kiln_etc1s_decode(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t rgba[64])
{
    uint8_t c[4][3];
    kiln_etc1s_colours(e, c);
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 4; x++) {
            uint8_t *p = rgba + (y * 4 + x) * 4;
            memcpy(p, c[(s->rows[y] >> (2 * x)) & 3], 3);
            p[3] = 255;
        }
    }
}

/* ETC1: differential mode with a zero delta, both tables the endpoint's. The flip bit changes
 * nothing here; basisu 1.15's transcoder sets it, and so does kiln, to give the same bytes. */
static void etc1_block(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk)
{
    for (int k = 0; k < 3; k++) blk[k] = (uint8_t)(e->c5[k] << 3);
    blk[3] = (uint8_t)(e->inten << 5 | e->inten << 2 | 3);
    memcpy(blk + 4, s->etc1, 4);
}

static void etc1_colour(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk,
                        bool has_alpha)
{
    (void)has_alpha;
    etc1_block(e, s, blk);
}

static const kiln_blz_conv conv_etc1 = {etc1_colour, NULL};

const kiln_blz_conv *kiln_blz_conv_for(kiln_basis_target target)
{
    switch (target) {
    case KILN_BASIS_TARGET_ETC1:
        return &conv_etc1;
    default:
        return NULL;
    }
}
