/* bc7_decode.c — BC7 block decoder, following the Khronos Data Format Specification's BPTC
 * chapter (BC7 section) literally: the mode from the lowest set bit of byte 0, then in order
 * partition, rotation, index selection, colour, alpha, endpoint p-bits, shared p-bits, primary
 * and secondary indices; anchors store one index bit less. Every 16-byte pattern decodes: the
 * reserved mode (byte 0 == 0) gives all-zero texels, as the specification asks of hardware.
 * Reads never leave the 128 bits (every field width comes from the mode table and the widths
 * of each mode sum to exactly 128). */
#include "codec/block_decode.h"

#include <string.h>

#include "codec/bc7_tables.h"

typedef struct bc7_bits {
    const uint8_t *p;
    unsigned pos; /* next bit, 0..128 */
} bc7_bits;

static unsigned bc7_read(bc7_bits *b, unsigned n)
{
    unsigned v = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned bit = b->pos + i;
        if (bit < 128) v |= (unsigned)((b->p[bit >> 3] >> (bit & 7)) & 1u) << i;
    }
    b->pos += n;
    return v;
}

void kiln_bc7_decode_block(const uint8_t *in, uint8_t rgba[64])
{
    unsigned mode = 0;
    while (mode < 8 && !(in[0] & (1u << mode))) mode++;
    if (mode == 8) {
        memset(rgba, 0, 64);
        return;
    }
    const kiln_bc7_mode_info *m = &kiln_bc7_modes[mode];
    bc7_bits b = {in, mode + 1};
    unsigned ns = m->subsets;
    unsigned partition = bc7_read(&b, m->partition_bits);
    unsigned rotation = bc7_read(&b, m->rotation_bits);
    unsigned isb = bc7_read(&b, m->isb_bits);

    unsigned code[3][2][4] = {{{0}}};
    for (unsigned c = 0; c < 3; c++)
        for (unsigned s = 0; s < ns; s++)
            for (unsigned e = 0; e < 2; e++) code[s][e][c] = bc7_read(&b, m->color_bits);
    if (m->alpha_bits)
        for (unsigned s = 0; s < ns; s++)
            for (unsigned e = 0; e < 2; e++) code[s][e][3] = bc7_read(&b, m->alpha_bits);
    unsigned pbit[3][2] = {{0}};
    if (m->endpoint_pbits)
        for (unsigned s = 0; s < ns; s++)
            for (unsigned e = 0; e < 2; e++) pbit[s][e] = bc7_read(&b, 1);
    if (m->shared_pbits)
        for (unsigned s = 0; s < ns; s++) pbit[s][0] = pbit[s][1] = bc7_read(&b, 1);

    int ep[3][2][4];
    unsigned has_p = m->endpoint_pbits | m->shared_pbits;
    for (unsigned s = 0; s < ns; s++)
        for (unsigned e = 0; e < 2; e++) {
            for (unsigned c = 0; c < 3; c++)
                ep[s][e][c] =
                    has_p ? kiln_bc7_expand(code[s][e][c] << 1 | pbit[s][e], m->color_bits + 1u)
                          : kiln_bc7_expand(code[s][e][c], m->color_bits);
            if (!m->alpha_bits) ep[s][e][3] = 255;
            else
                ep[s][e][3] =
                    has_p ? kiln_bc7_expand(code[s][e][3] << 1 | pbit[s][e], m->alpha_bits + 1u)
                          : kiln_bc7_expand(code[s][e][3], m->alpha_bits);
        }

    const uint8_t *part = kiln_bc7_partition_row(ns, partition);
    unsigned idx[16], idx2[16] = {0};
    for (unsigned i = 0; i < 16; i++) {
        unsigned anchor = i == kiln_bc7_anchor(ns, partition, part[i]);
        idx[i] = bc7_read(&b, m->index_bits - anchor);
    }
    if (m->index2_bits)
        for (unsigned i = 0; i < 16; i++) idx2[i] = bc7_read(&b, m->index2_bits - (i == 0));

    /* Which index set drives colour and which alpha (the specification's last rule). */
    const unsigned *ci = isb ? idx2 : idx;
    const unsigned *ai = (m->index2_bits && !isb) ? idx2 : idx;
    const uint8_t *cw = kiln_bc7_weights(isb ? m->index2_bits : m->index_bits);
    const uint8_t *aw = kiln_bc7_weights((m->index2_bits && !isb) ? m->index2_bits : m->index_bits);

    for (unsigned i = 0; i < 16; i++) {
        const int(*e)[4] = ep[part[i]];
        uint8_t *px = rgba + 4 * i;
        for (unsigned c = 0; c < 3; c++)
            px[c] = (uint8_t)kiln_bc7_interp(e[0][c], e[1][c], cw[ci[i]]);
        px[3] = (uint8_t)kiln_bc7_interp(e[0][3], e[1][3], aw[ai[i]]);
        if (rotation) {
            uint8_t t = px[3];
            px[3] = px[rotation - 1];
            px[rotation - 1] = t;
        }
    }
}
