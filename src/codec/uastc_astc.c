/* uastc_astc.c — UASTC to ASTC 4x4: lossless, as every UASTC mode is an ASTC configuration. The
 * block is rewritten in ASTC's layout (Khronos Data Format Specification, ASTC chapter): block
 * mode, partition count, seed and endpoint mode, the endpoints with ASTC's integer-sequence
 * encoding (trits five to 8 bits, quints three to 7 bits), the dual-plane channel, and the
 * weights bit-reversed from the top of the block. One case changes the values without changing
 * the texels: ASTC applies blue contraction when the high endpoint's R+G+B is below the low one's,
 * so such a subset's endpoints are swapped and its weights inverted (the ASTC weight table is
 * symmetric: w(max - i) = 64 - w(i)). The solid mode becomes a void-extent block. */
#include <string.h>

#include "codec/uastc.h"

/* ASTC 11-bit block mode of each UASTC mode (4x4 grid, its weight range, one or two planes);
 * the UASTC specification's table of ASTC configurations. */
static const uint16_t astc_block_mode[KILN_UASTC_MODE_COUNT] = {
    0x242, 0x42,  0x53, 0x42,  0x42, 0x53,  0x442, 0x42,  0,     0x42,
    0x242, 0x442, 0x53, 0x441, 0x42, 0x242, 0x42,  0x442, 0x253,
};
/* ASTC colour endpoint mode: 8 (RGB direct), 12 (RGBA direct), 4 (luminance+alpha direct). */
static const uint8_t astc_cem[KILN_UASTC_MODE_COUNT] = {8,  8,  8,  8,  8,  8, 8, 8, 0, 12,
                                                        12, 12, 12, 12, 12, 4, 4, 4, 8};

static const uint8_t range_bits[21] = {1, 0, 2, 0, 1, 3, 1, 2, 4, 2, 3,
                                       5, 3, 4, 6, 4, 5, 7, 5, 6, 8};
static const uint8_t range_trits[21] = {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1,
                                        0, 0, 1, 0, 0, 1, 0, 0, 1, 0};
static const uint8_t range_quints[21] = {0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0,
                                         0, 1, 0, 0, 1, 0, 0, 1, 0, 0};

/* ORs the low n (<= 32) bits of v into the block at bit *pos (bits past 127 are dropped). */
static void put_bits(uint8_t out[16], unsigned *pos, uint32_t v, unsigned n)
{
    const unsigned p = *pos;
    *pos += n;
    if (n == 0 || p >= 128) return;
    uint64_t x = n >= 32 ? v : v & ((1ull << n) - 1u);
    uint64_t lo = 0, hi = 0;
    if (p >= 64) hi = x << (p - 64);
    else {
        lo = x << p;
        hi = p ? x >> (64 - p) : 0;
    }
    for (int i = 0; i < 8; i++) {
        out[i] |= (uint8_t)(lo >> (8 * i));
        out[8 + i] |= (uint8_t)(hi >> (8 * i));
    }
}

/* Encodes five trits (t0 + 3 t1 + ... + 81 t4) in 8 bits by inverting the specification's
 * decoding (C.2.12). Where several codes decode to the same trits, the bits left free are 0 (the
 * smallest such code, which is the one basisu's table holds too). */
static unsigned trit_code(unsigned packed)
{
    unsigned t[5];
    for (int i = 0; i < 5; i++, packed /= 3) t[i] = packed % 3;
    unsigned C;
    if (t[2] == 2 && t[1] == 2) C = (3u << 2) | t[0];
    else if (t[2] == 2) C = (t[1] << 4) | ((t[0] == 2 ? 2u : t[0]) << 2) | 3u;
    else C = (t[2] << 4) | (t[1] << 2) | (t[0] == 2 ? 2u : t[0]);
    if (t[4] == 2 && t[3] == 2) return ((C >> 2) << 5) | (7u << 2) | (C & 3u);
    if (t[4] == 2) return (t[3] << 7) | (3u << 5) | C;
    return (t[4] << 7) | (t[3] << 5) | C;
}

/* Encodes three quints (q0 + 5 q1 + 25 q2) in 7 bits the same way. */
static unsigned quint_code(unsigned packed)
{
    unsigned q0 = packed % 5, q1 = (packed / 5) % 5, q2 = packed / 25;
    if (q1 == 4 && q0 == 4) {
        /* For q2 = 4 the two free bits are set (basisu's table: code 31, not 7). */
        unsigned low = q2 == 4 ? 0x19u : ((q2 >> 1) << 4) | ((q2 & 1u) << 3);
        return low | (3u << 1);
    }
    unsigned C = q1 == 4 ? (q0 << 3) | 5u : (q1 << 3) | q0;
    if (q2 == 4) return ((C >> 3) << 3) | ((~(C >> 1) & 3u) << 5) | (3u << 1) | (C & 1u);
    return (q2 << 5) | C;
}

/* Writes `count` values of range `range` with ASTC's integer-sequence encoding; a partial last
 * group is written as a whole group padded with zeros, whose extra bits are zero. */
static void put_ise(uint8_t out[16], unsigned *pos, const uint8_t *v, unsigned count,
                    unsigned range)
{
    const unsigned n = range_bits[range];
    const uint32_t mask = (1u << n) - 1u;
    if (range_trits[range]) {
        for (unsigned g = 0; g < count; g += 5) {
            unsigned vals[5] = {0}, packed = 0, mul = 1;
            for (unsigned i = 0; i < 5 && g + i < count; i++) vals[i] = v[g + i];
            for (unsigned i = 0; i < 5; i++, mul *= 3) packed += (vals[i] >> n) * mul;
            unsigned T = trit_code(packed);
            put_bits(out, pos, vals[0] & mask, n);
            put_bits(out, pos, T & 3u, 2);
            put_bits(out, pos, vals[1] & mask, n);
            put_bits(out, pos, (T >> 2) & 3u, 2);
            put_bits(out, pos, vals[2] & mask, n);
            put_bits(out, pos, (T >> 4) & 1u, 1);
            put_bits(out, pos, vals[3] & mask, n);
            put_bits(out, pos, (T >> 5) & 3u, 2);
            put_bits(out, pos, vals[4] & mask, n);
            put_bits(out, pos, (T >> 7) & 1u, 1);
        }
    } else if (range_quints[range]) {
        for (unsigned g = 0; g < count; g += 3) {
            unsigned vals[3] = {0}, packed = 0, mul = 1;
            for (unsigned i = 0; i < 3 && g + i < count; i++) vals[i] = v[g + i];
            for (unsigned i = 0; i < 3; i++, mul *= 5) packed += (vals[i] >> n) * mul;
            unsigned Q = quint_code(packed);
            put_bits(out, pos, vals[0] & mask, n);
            put_bits(out, pos, Q & 7u, 3);
            put_bits(out, pos, vals[1] & mask, n);
            put_bits(out, pos, (Q >> 3) & 3u, 2);
            put_bits(out, pos, vals[2] & mask, n);
            put_bits(out, pos, (Q >> 5) & 3u, 2);
        }
    } else {
        for (unsigned i = 0; i < count; i++) put_bits(out, pos, v[i], n);
    }
}

void kiln_uastc_to_astc(const kiln_uastc_block *b, uint8_t out[16])
{
    memset(out, 0, 16);
    if (b->mode == KILN_UASTC_MODE_SOLID) {
        /* Void extent, LDR, no extent coordinates (all ones), 16-bit UNORM colour. */
        out[0] = 0xFC;
        out[1] = 0xFD;
        for (int i = 2; i < 8; i++) out[i] = 0xFF;
        for (int c = 0; c < 4; c++) out[8 + 2 * c] = out[9 + 2 * c] = b->solid[c];
        return;
    }
    uint8_t ep[18], w[32];
    const unsigned values = b->comps * 2u * b->subsets;
    const unsigned nweights = 16u * b->planes;
    memcpy(ep, b->endpoints, sizeof(ep));
    memcpy(w, b->weights, sizeof(w));
    if (b->comps >= 3) {
        const unsigned wmax = (1u << b->weight_bits) - 1u;
        for (unsigned s = 0; s < b->subsets; s++) {
            uint8_t *e = &ep[s * b->comps * 2u];
            unsigned s0 = 0, s1 = 0;
            for (unsigned c = 0; c < 3; c++) {
                s0 += kiln_uastc_unquant_endpoint(e[c * 2], b->endpoint_range);
                s1 += kiln_uastc_unquant_endpoint(e[c * 2 + 1], b->endpoint_range);
            }
            if (s1 >= s0) continue;
            for (unsigned c = 0; c < b->comps; c++) {
                uint8_t t = e[c * 2];
                e[c * 2] = e[c * 2 + 1];
                e[c * 2 + 1] = t;
            }
            for (unsigned i = 0; i < 16; i++)
                if (b->part[i] == s)
                    for (unsigned p = 0; p < b->planes; p++)
                        w[i * b->planes + p] = (uint8_t)(wmax - w[i * b->planes + p]);
        }
    }
    unsigned pos = 0;
    put_bits(out, &pos, astc_block_mode[b->mode], 11);
    put_bits(out, &pos, b->subsets - 1u, 2);
    if (b->subsets == 1) {
        put_bits(out, &pos, astc_cem[b->mode], 4);
    } else {
        put_bits(out, &pos, b->seed, 10);
        put_bits(out, &pos, (unsigned)astc_cem[b->mode] << 2, 6); /* all subsets share it */
    }
    const unsigned wb = b->weight_bits;
    if (b->planes == 2) {
        unsigned ccs_pos = 128u - nweights * wb - 2u;
        put_bits(out, &ccs_pos, b->ccs, 2);
    }
    put_ise(out, &pos, ep, values, b->endpoint_range);
    /* Weights from bit 127 downwards, each with its bits reversed. */
    for (unsigned i = 0; i < nweights; i++) {
        unsigned rev = 0;
        for (unsigned k = 0; k < wb; k++) rev |= ((w[i] >> k) & 1u) << (wb - 1u - k);
        unsigned wpos = 128u - wb * (i + 1u);
        put_bits(out, &wpos, rev, wb);
    }
}
