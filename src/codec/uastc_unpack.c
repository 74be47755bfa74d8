/* uastc_unpack.c — the UASTC block layout both ways: parses a 16-byte block into
 * kiln_uastc_block (uastc.h) and packs one back (kiln_uastc_pack, for the encoder), following the
 * UASTC Texture Specification: a variable-length mode code (low bits of byte 0), the mode's hint
 * fields, the common partition pattern index, the dual-plane channel, the endpoints (the trits
 * or quints of each group packed as one base-3 / base-5 number first, then every value's low
 * bits), then the weights, the first texel of each subset (its anchor) one bit shorter. Bits are
 * read least significant first from byte 0; reads past bit 128 would give zeros, but every mode's
 * fields fit. */
#include <string.h>

#include "codec/block_decode.h"
#include "codec/uastc.h"

/* ---- the specification's constants ---------------------------------------------------------- */

/* Per mode: its code (read from bit 0) and code length. The 20th code is reserved. */
static const uint8_t mode_code[KILN_UASTC_MODE_COUNT + 1][2] = {
    {0x01, 4}, {0x35, 6}, {0x1D, 5}, {0x03, 5}, {0x13, 5}, {0x0B, 5}, {0x1B, 5},
    {0x07, 5}, {0x17, 5}, {0x0F, 5}, {0x02, 3}, {0x00, 2}, {0x06, 3}, {0x1F, 5},
    {0x0D, 5}, {0x05, 7}, {0x15, 6}, {0x25, 6}, {0x09, 4}, {0x45, 7},
};

/* The mode table: weight bits, endpoint range index, subsets, planes, endpoint channels, and
 * which hint fields the block carries (ETC1 bias, BC1 hints 0 and 1, ETC2 EAC alpha hint). */
typedef struct uastc_mode_info {
    uint8_t weight_bits, endpoint_range, subsets, planes, comps;
    uint8_t has_bias, has_hint0, has_hint1, has_alpha;
} uastc_mode_info;

static const uastc_mode_info modes[KILN_UASTC_MODE_COUNT] = {
    {4, 19, 1, 1, 3, 1, 1, 1, 0}, {2, 20, 1, 1, 3, 1, 1, 1, 0}, {3, 8, 2, 1, 3, 1, 1, 1, 0},
    {2, 7, 3, 1, 3, 1, 1, 1, 0},  {2, 12, 2, 1, 3, 1, 1, 1, 0}, {3, 20, 1, 1, 3, 1, 1, 1, 0},
    {2, 18, 1, 2, 3, 1, 1, 1, 0}, {2, 12, 2, 1, 3, 1, 1, 1, 0}, {0, 0, 0, 0, 4, 0, 0, 0, 1},
    {2, 8, 2, 1, 4, 1, 1, 1, 1},  {4, 13, 1, 1, 4, 0, 1, 0, 1}, {2, 13, 1, 2, 4, 0, 1, 0, 1},
    {3, 19, 1, 1, 4, 0, 1, 0, 1}, {1, 20, 1, 2, 4, 1, 1, 1, 1}, {2, 20, 1, 1, 4, 1, 1, 1, 1},
    {4, 20, 1, 1, 2, 1, 1, 1, 1}, {2, 20, 2, 1, 2, 1, 1, 1, 1}, {2, 20, 1, 2, 2, 1, 1, 1, 1},
    {5, 11, 1, 1, 3, 1, 1, 1, 0},
};

/* ASTC partition seeds of the specification's common patterns: 30 two-subset patterns (modes
 * 2, 4, 9, 16), 11 three-subset patterns (mode 3), 19 two-subset patterns that are BC7
 * three-subset patterns with two subsets merged (mode 7). The BC7 side of each is in
 * uastc_bc7.c. */
static const uint16_t seeds2[30] = {28,  20,  16,  29,  91,  9,   107, 72,  149, 204,
                                    50,  114, 496, 17,  78,  39,  252, 828, 43,  156,
                                    116, 210, 476, 273, 684, 359, 246, 195, 694, 524};
static const uint16_t seeds3[11] = {260, 74, 32, 156, 183, 15, 745, 0, 335, 902, 254};
static const uint16_t seeds7[19] = {36,  48,  61,  137, 161, 183, 226, 281, 302, 307,
                                    479, 495, 593, 594, 605, 799, 812, 988, 993};

/* ASTC integer-sequence ranges 0..20: bits, trits, quints (C.2.12). */
static const uint8_t range_bits[21] = {1, 0, 2, 0, 1, 3, 1, 2, 4, 2, 3,
                                       5, 3, 4, 6, 4, 5, 7, 5, 6, 8};
static const uint8_t range_trits[21] = {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1,
                                        0, 0, 1, 0, 0, 1, 0, 0, 1, 0};
static const uint8_t range_quints[21] = {0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0,
                                         0, 1, 0, 0, 1, 0, 0, 1, 0, 0};

/* ---- endpoint unquantization (C.2.13) ------------------------------------------------------- */

uint8_t kiln_uastc_unquant_endpoint(unsigned value, unsigned range)
{
    if (range > 20) return 0;
    unsigned nb = range_bits[range];
    unsigned bits = value & ((1u << nb) - 1u);
    if (!range_trits[range] && !range_quints[range]) {
        /* Bit replication to 8 bits. */
        unsigned v = 0;
        int left = 8;
        while (left > 0) {
            int n = left < (int)nb ? left : (int)nb;
            v |= (bits >> (nb - (unsigned)n)) << (left - n);
            left -= n;
        }
        return (uint8_t)v;
    }
    unsigned d = value >> nb;
    unsigned a = (bits & 1u) ? 0x1FFu : 0u;
    /* B's nine bits from the value's bits b (1) .. f (5), per the specification's table. */
    unsigned b1 = (bits >> 1) & 1u, b2 = (bits >> 2) & 1u, b3 = (bits >> 3) & 1u;
    unsigned b4 = (bits >> 4) & 1u, b5 = (bits >> 5) & 1u;
    unsigned B = 0, C = 0;
    if (range_trits[range]) {
        switch (nb) {
        case 1:
            C = 204;
            break;
        case 2:
            C = 93;
            B = (b1 << 8) | (b1 << 4) | (b1 << 2) | (b1 << 1);
            break; /* b000b0bb0 */
        case 3:
            C = 44;
            B = (b2 << 8) | (b1 << 7) | (b2 << 3) | (b1 << 2) | (b2 << 1) | b1;
            break;
        case 4: /* dcb000dcb */
            C = 22;
            B = (b3 << 8) | (b2 << 7) | (b1 << 6) | (b3 << 2) | (b2 << 1) | b1;
            break;
        case 5: /* edcb000ed */
            C = 11;
            B = (b4 << 8) | (b3 << 7) | (b2 << 6) | (b1 << 5) | (b4 << 1) | b3;
            break;
        default: /* 6: fedcb000f */
            C = 5;
            B = (b5 << 8) | (b4 << 7) | (b3 << 6) | (b2 << 5) | (b1 << 4) | b5;
            break;
        }
    } else {
        switch (nb) {
        case 1:
            C = 113;
            break;
        case 2:
            C = 54;
            B = (b1 << 8) | (b1 << 3) | (b1 << 2);
            break; /* b0000bb00 */
        case 3:
            C = 26;
            B = (b2 << 8) | (b1 << 7) | (b2 << 2) | (b1 << 1) | b2;
            break; /* cb0000cbc */
        case 4:
            C = 13;
            B = (b3 << 8) | (b2 << 7) | (b1 << 6) | (b3 << 1) | b2;
            break; /* dcb0000dc */
        default:   /* 5: edcb0000e */
            C = 6;
            B = (b4 << 8) | (b3 << 7) | (b2 << 6) | (b1 << 5) | b4;
            break;
        }
    }
    unsigned t = d * C + B;
    t ^= a;
    return (uint8_t)((a & 0x80u) | (t >> 2));
}

/* ---- bits ----------------------------------------------------------------------------------- */

/* The block as two little-endian 64-bit words. */
typedef struct bits128 {
    uint64_t lo, hi;
} bits128;

/* n (<= 16) bits from *pos on; bits at 128 and above read as zero. */
static unsigned get_bits(const bits128 *b, unsigned *pos, unsigned n)
{
    const unsigned p = *pos;
    uint64_t v;
    if (p >= 128) v = 0;
    else if (p >= 64) v = b->hi >> (p - 64);
    else if (p == 0) v = b->lo;
    else v = (b->lo >> p) | (b->hi << (64 - p));
    *pos += n;
    return (unsigned)(v & ((1u << n) - 1u));
}

/* ---- unpack --------------------------------------------------------------------------------- */

bool kiln_uastc_unpack(const uint8_t in[16], kiln_uastc_block *out)
{
    memset(out, 0, sizeof(*out));
    bits128 bb = {0, 0};
    for (int i = 7; i >= 0; i--) {
        bb.lo = (bb.lo << 8) | in[i];
        bb.hi = (bb.hi << 8) | in[8 + i];
    }
    const bits128 *bits = &bb;
    unsigned mode = KILN_UASTC_MODE_COUNT;
    for (unsigned m = 0; m <= KILN_UASTC_MODE_COUNT; m++) {
        unsigned len = mode_code[m][1];
        if ((in[0] & ((1u << len) - 1u)) == mode_code[m][0]) {
            mode = m;
            break;
        }
    }
    if (mode >= KILN_UASTC_MODE_COUNT) return false;
    const uastc_mode_info *mi = &modes[mode];
    unsigned pos = mode_code[mode][1];
    out->mode = (uint8_t)mode;
    out->comps = mi->comps;

    if (mode == KILN_UASTC_MODE_SOLID) {
        for (int c = 0; c < 4; c++) out->solid[c] = (uint8_t)get_bits(bits, &pos, 8);
        out->etc1_diff = get_bits(bits, &pos, 1) != 0;
        out->etc1_inten0 = (uint8_t)get_bits(bits, &pos, 3);
        out->etc1_selector = (uint8_t)get_bits(bits, &pos, 2);
        out->etc1_r = (uint8_t)get_bits(bits, &pos, 5);
        out->etc1_g = (uint8_t)get_bits(bits, &pos, 5);
        out->etc1_b = (uint8_t)get_bits(bits, &pos, 5);
        out->subsets = 1;
        out->planes = 1;
        return true;
    }

    if (mi->has_hint0) out->bc1_hint0 = get_bits(bits, &pos, 1) != 0;
    if (mi->has_hint1) out->bc1_hint1 = get_bits(bits, &pos, 1) != 0;
    out->etc1_flip = get_bits(bits, &pos, 1) != 0;
    out->etc1_diff = get_bits(bits, &pos, 1) != 0;
    out->etc1_inten0 = (uint8_t)get_bits(bits, &pos, 3);
    out->etc1_inten1 = (uint8_t)get_bits(bits, &pos, 3);
    if (mi->has_bias) out->etc1_bias = (uint8_t)get_bits(bits, &pos, 5);
    out->has_etc1_bias = mi->has_bias;
    if (mi->has_alpha) out->etc2_hints = (uint8_t)get_bits(bits, &pos, 8);

    out->subsets = mi->subsets;
    out->planes = mi->planes;
    out->endpoint_range = mi->endpoint_range;
    out->weight_bits = mi->weight_bits;
    if (mi->subsets == 2) {
        unsigned p = get_bits(bits, &pos, 5);
        if (mode == 7) {
            if (p >= 19) return false;
            out->seed = seeds7[p];
        } else {
            if (p >= 30) return false;
            out->seed = seeds2[p];
        }
        out->pattern = (uint8_t)p;
    } else if (mi->subsets == 3) {
        unsigned p = get_bits(bits, &pos, 4);
        if (p >= 11) return false;
        out->seed = seeds3[p];
        out->pattern = (uint8_t)p;
    }
    if (mi->planes == 2) out->ccs = mode == 17 ? 3 : (uint8_t)get_bits(bits, &pos, 2);

    /* Endpoints: the trit or quint groups first, each a plain base-3 / base-5 number in as few
     * bits as its count needs, then each value's low bits. */
    const unsigned values = mi->comps * 2u * mi->subsets;
    const unsigned nb = range_bits[mi->endpoint_range];
    unsigned groups = 0, group_size = 0, base = 0;
    if (range_trits[mi->endpoint_range]) {
        group_size = 5;
        base = 3;
    } else if (range_quints[mi->endpoint_range]) {
        group_size = 3;
        base = 5;
    }
    unsigned tq[8] = {0};
    if (group_size) {
        groups = (values + group_size - 1) / group_size;
        for (unsigned g = 0; g < groups; g++) {
            unsigned count = values - g * group_size;
            if (count > group_size) count = group_size;
            unsigned limit = 1, n;
            for (unsigned i = 0; i < count; i++) limit *= base;
            /* The fewest bits that hold limit - 1 (3^5 = 243 -> 8, 5^3 = 125 -> 7, ...). */
            for (n = 0; (1u << n) < limit; n++) {
            }
            tq[g] = get_bits(bits, &pos, n);
            if (tq[g] >= limit) return false;
        }
    }
    for (unsigned i = 0; i < values; i++) {
        unsigned v = get_bits(bits, &pos, nb);
        if (group_size) {
            unsigned g = i / group_size, k = i % group_size, digit = tq[g];
            for (unsigned j = 0; j < k; j++) digit /= base;
            v |= (digit % base) << nb;
        }
        out->endpoints[i] = (uint8_t)v;
    }

    /* Partition and anchors: the anchor of a subset is its first texel in raster order. */
    if (mi->subsets > 1) kiln_astc_partition_4x4(out->seed, mi->subsets, out->part);
    bool anchor[16] = {false};
    bool seen[3] = {false, false, false};
    for (unsigned i = 0; i < 16; i++) {
        if (!seen[out->part[i]]) {
            seen[out->part[i]] = true;
            anchor[i] = true;
        }
    }
    const unsigned wb = mi->weight_bits;
    for (unsigned i = 0; i < 16; i++) {
        for (unsigned p = 0; p < mi->planes; p++) {
            unsigned n = anchor[i] ? wb - 1 : wb;
            out->weights[i * mi->planes + p] = (uint8_t)get_bits(bits, &pos, n);
        }
    }
    return true;
}

/* ---- pack ----------------------------------------------------------------------------------- */

static void put_bits(uint8_t out[16], unsigned *pos, unsigned v, unsigned n)
{
    for (unsigned i = 0; i < n; i++, (*pos)++)
        if (*pos < 128 && ((v >> i) & 1u)) out[*pos >> 3] |= (uint8_t)(1u << (*pos & 7));
}

bool kiln_uastc_pack(const kiln_uastc_block *b, uint8_t out[16])
{
    memset(out, 0, 16);
    if (b->mode >= KILN_UASTC_MODE_COUNT) return false;
    const unsigned mode = b->mode;
    const uastc_mode_info *mi = &modes[mode];
    unsigned pos = 0;
    put_bits(out, &pos, mode_code[mode][0], mode_code[mode][1]);
    if (mode == KILN_UASTC_MODE_SOLID) {
        for (int c = 0; c < 4; c++) put_bits(out, &pos, b->solid[c], 8);
        put_bits(out, &pos, b->etc1_diff, 1);
        put_bits(out, &pos, b->etc1_inten0, 3);
        put_bits(out, &pos, b->etc1_selector, 2);
        put_bits(out, &pos, b->etc1_r, 5);
        put_bits(out, &pos, b->etc1_g, 5);
        put_bits(out, &pos, b->etc1_b, 5);
        return true;
    }
    if (mi->has_hint0) put_bits(out, &pos, b->bc1_hint0, 1);
    if (mi->has_hint1) put_bits(out, &pos, b->bc1_hint1, 1);
    put_bits(out, &pos, b->etc1_flip, 1);
    put_bits(out, &pos, b->etc1_diff, 1);
    put_bits(out, &pos, b->etc1_inten0, 3);
    put_bits(out, &pos, b->etc1_inten1, 3);
    if (mi->has_bias) put_bits(out, &pos, b->etc1_bias, 5);
    if (mi->has_alpha) put_bits(out, &pos, b->etc2_hints, 8);
    if (mi->subsets == 2) {
        if (b->pattern >= (mode == 7 ? 19 : 30)) return false;
        put_bits(out, &pos, b->pattern, 5);
    } else if (mi->subsets == 3) {
        if (b->pattern >= 11) return false;
        put_bits(out, &pos, b->pattern, 4);
    }
    if (mi->planes == 2 && mode != 17) put_bits(out, &pos, b->ccs, 2);
    const unsigned values = mi->comps * 2u * mi->subsets;
    const unsigned nb = range_bits[mi->endpoint_range];
    unsigned group_size = 0, base = 0;
    if (range_trits[mi->endpoint_range]) {
        group_size = 5;
        base = 3;
    } else if (range_quints[mi->endpoint_range]) {
        group_size = 3;
        base = 5;
    }
    for (unsigned i = 0; i < values; i++)
        if (((unsigned)b->endpoints[i] >> nb) >= (base ? base : 1u)) return false;
    if (group_size) {
        for (unsigned g = 0; g * group_size < values; g++) {
            unsigned count = values - g * group_size, limit = 1, n, v = 0;
            if (count > group_size) count = group_size;
            for (unsigned i = 0; i < count; i++) limit *= base;
            for (n = 0; (1u << n) < limit; n++) {
            }
            for (unsigned i = count; i-- > 0;)
                v = v * base + (b->endpoints[g * group_size + i] >> nb);
            put_bits(out, &pos, v, n);
        }
    }
    for (unsigned i = 0; i < values; i++)
        put_bits(out, &pos, b->endpoints[i] & ((1u << nb) - 1u), nb);
    uint8_t part[16] = {0};
    if (mi->subsets > 1) {
        const uint16_t seed = mi->subsets == 3 ? seeds3[b->pattern]
                              : mode == 7      ? seeds7[b->pattern]
                                               : seeds2[b->pattern];
        kiln_astc_partition_4x4(seed, mi->subsets, part);
    }
    bool seen[3] = {false, false, false};
    const unsigned wb = mi->weight_bits;
    for (unsigned i = 0; i < 16; i++) {
        bool anchor = !seen[part[i]];
        seen[part[i]] = true;
        for (unsigned p = 0; p < mi->planes; p++) {
            unsigned w = b->weights[i * mi->planes + p];
            if (w >= (1u << (anchor ? wb - 1 : wb))) return false;
            put_bits(out, &pos, w, anchor ? wb - 1 : wb);
        }
    }
    return pos <= 128;
}
