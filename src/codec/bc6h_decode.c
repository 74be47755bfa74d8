/* bc6h_decode.c — BC6H block decoder following the Khronos Data Format Specification's BPTC
 * chapter (BC6H section): the mode from the low 2 or 5 bits, the header bits scattered into the
 * endpoint fields by the mode's layout (bc6h_tables.c), sign extension (signed format, or
 * transformed deltas), the delta transform wrapped at the endpoint bits, unquantisation,
 * interpolation with BC7's weights, and the final scaling to half-float bit patterns. Reserved
 * modes decode to (0, 0, 0, 1). Reads never leave the 128 bits: the header, partition and index
 * widths of every mode sum to exactly 128. */
#include "codec/bc6h_tables.h"
#include "codec/bc7_tables.h"
#include "codec/hdr_decode.h"

typedef struct bc6h_bits {
    const uint8_t *p;
    unsigned pos;
} bc6h_bits;

static unsigned bits_read(bc6h_bits *b, unsigned n)
{
    unsigned v = 0;
    for (unsigned i = 0; i < n; i++, b->pos++)
        if (b->pos < 128) v |= (unsigned)((b->p[b->pos >> 3] >> (b->pos & 7)) & 1u) << i;
    return v;
}

static int32_t sign_extend(uint32_t v, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    v &= (1u << bits) - 1u;
    return (int32_t)(v ^ m) - (int32_t)m;
}

void kiln_bc6h_decode_block(const uint8_t *in, bool is_signed, uint16_t rgba[64])
{
    int mi = kiln_bc6h_mode_index(in[0]);
    if (mi < 0) {
        for (int i = 0; i < 16; i++) {
            rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = 0;
            rgba[4 * i + 3] = KILN_HALF_ONE;
        }
        return;
    }
    const kiln_bc6h_mode *m = &kiln_bc6h_modes[mi];
    bc6h_bits b = {in, m->code_bits};
    uint32_t field[KILN_BC6H_FIELDS] = {0};
    for (unsigned r = 0; r < m->run_count; r++) {
        const kiln_bc6h_run *run = &m->runs[r];
        int step = run->first <= run->last ? 1 : -1;
        for (int bit = run->first;; bit += step) {
            field[run->field] |= (uint32_t)bits_read(&b, 1) << bit;
            if (bit == run->last) break;
        }
    }
    unsigned ns = m->subsets, epb = m->epb;
    unsigned partition = ns == 2 ? field[KILN_BC6H_FIELD_PARTITION] : 0;

    int32_t ep[4][3];
    for (unsigned e = 0; e < 2 * ns; e++)
        for (unsigned c = 0; c < 3; c++) {
            uint32_t v = field[e * 3 + c];
            if (e == 0) ep[e][c] = is_signed ? sign_extend(v, epb) : (int32_t)v;
            else if (m->transformed) ep[e][c] = sign_extend(v, m->delta[c]);
            else ep[e][c] = is_signed ? sign_extend(v, epb) : (int32_t)v;
        }
    if (m->transformed)
        for (unsigned e = 1; e < 2 * ns; e++)
            for (unsigned c = 0; c < 3; c++) {
                uint32_t v = (uint32_t)(ep[0][c] + ep[e][c]) & ((1u << epb) - 1u);
                ep[e][c] = is_signed ? sign_extend(v, epb) : (int32_t)v;
            }
    for (unsigned e = 0; e < 2 * ns; e++)
        for (unsigned c = 0; c < 3; c++) ep[e][c] = kiln_bc6h_unquantize(ep[e][c], epb, is_signed);

    /* Indices: 3 bits from bit 82 (two subsets) or 4 bits from bit 65 (one subset); anchors
     * store one bit less. b.pos is already there: the header runs end where indices start. */
    unsigned ib = ns == 2 ? 3 : 4;
    const uint8_t *part = kiln_bc7_partition_row(ns, partition);
    const uint8_t *weights = kiln_bc7_weights(ib);
    for (unsigned i = 0; i < 16; i++) {
        unsigned s = part[i];
        unsigned anchor = i == kiln_bc7_anchor(ns, partition, s);
        unsigned idx = bits_read(&b, ib - anchor);
        for (unsigned c = 0; c < 3; c++)
            rgba[4 * i + c] = kiln_bc6h_finish(
                kiln_bc6h_interp(ep[2 * s][c], ep[2 * s + 1][c], weights[idx]), is_signed);
        rgba[4 * i + 3] = KILN_HALF_ONE;
    }
}
