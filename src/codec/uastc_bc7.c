/* uastc_bc7.c — UASTC to BC7, as the UASTC Texture Specification lays it out: each UASTC mode
 * maps to one BC7 mode (0, 5, 10, 12, 14, 15, 18 -> 6; 1, 4 -> 3; 2 -> 1; 3, 7 -> 2; 6, 11, 13,
 * 17 -> 5; 9, 16 -> 7; 8, the solid colour, -> 5 or 6) with the same weights (remapped to the BC7
 * index precision where they differ) and the partition pattern the common pattern tables pair
 * with the ASTC one. Endpoints are requantized to the BC7 mode's precision; where the mode has
 * p-bits, each endpoint's p-bit is the one that lands closer in 8 bits. The rounding, the float
 * arithmetic of that choice and the solid-colour search are basisu's (v1.15), so the blocks are
 * bit-identical to its transcoder's. */
#include <string.h>

#include "codec/bc7_tables.h"
#include "codec/uastc.h"

/* The BC7 side of the common patterns (uastc_unpack.c has the ASTC seeds): the BC7 partition
 * and whether its subsets are the ASTC ones swapped (two subsets); the BC7 partition and the
 * permutation from ASTC to BC7 subsets (three subsets); and for mode 7 the BC7 three-subset
 * partition plus which two of its subsets form one ASTC subset (k: 0 merges 0+1, 1 merges 1+2,
 * 2 merges 0+2, bit 0 swaps) — UASTC Texture Specification, common pattern tables. */
static const uint8_t bc7_of2[30] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14,
                                    15, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 29, 32, 33, 52};
static const uint8_t invert2[30] = {0, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0,
                                    1, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1};
static const uint8_t bc7_of3[11] = {4, 8, 9, 10, 11, 12, 13, 20, 35, 36, 57};
static const uint8_t perm3[11] = {0, 5, 5, 2, 2, 0, 4, 1, 1, 5, 0};
static const uint8_t astc_to_bc7_perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                               {2, 1, 0}, {0, 2, 1}, {1, 0, 2}};
static const uint8_t bc7_of7[19] = {10, 11, 0, 2,  8,  13, 1,  33, 40, 20,
                                    21, 58, 3, 32, 59, 34, 20, 14, 31};
static const uint8_t k7[19] = {4, 4, 3, 4, 5, 4, 2, 2, 3, 4, 0, 3, 0, 2, 1, 3, 1, 4, 3};

/* The ASTC subset (0, 1) a BC7 three-subset index belongs to under k. */
static unsigned merge3(unsigned p, unsigned k)
{
    switch (k >> 1) {
    case 0:
        p = p <= 1 ? 0 : 1;
        break;
    case 1:
        p = p == 0 ? 0 : 1;
        break;
    default:
        p = (p == 0 || p == 2) ? 0 : 1;
        break;
    }
    return (k & 1) ? 1 - p : p;
}

/* A BC7 block before packing: endpoints already at the mode's precision (without p-bits). */
typedef struct bc7_desc {
    unsigned mode, partition, rotation;
    uint8_t lo[3][4], hi[3][4];
    uint8_t pbit[3][2];
    uint8_t sel[16], asel[16];
} bc7_desc;

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

/* Packs d, first flipping each subset whose anchor index has its top bit set (the format
 * stores anchors one bit short): its indices are inverted and its endpoints (and p-bits)
 * swapped; modes 4 and 5 do this separately for the colour and the alpha indices. */
static void bc7_pack(bc7_desc *d, uint8_t out[16])
{
    const kiln_bc7_mode_info *m = &kiln_bc7_modes[d->mode];
    const unsigned ns = m->subsets;
    const uint8_t *part = kiln_bc7_partition_row(ns, d->partition);
    const bool separate = d->mode == 4 || d->mode == 5;
    unsigned anchors[3];
    for (unsigned s = 0; s < ns; s++) {
        unsigned a = kiln_bc7_anchor(ns, d->partition, s);
        anchors[s] = a;
        unsigned top = 1u << (m->index_bits - 1);
        if (d->sel[a] & top) {
            for (unsigned i = 0; i < 16; i++)
                if (part[i] == s) d->sel[i] = (uint8_t)((2 * top - 1) - d->sel[i]);
            for (unsigned c = 0; c < (separate ? 3u : 4u); c++) {
                uint8_t t = d->lo[s][c];
                d->lo[s][c] = d->hi[s][c];
                d->hi[s][c] = t;
            }
            if (!m->shared_pbits) {
                uint8_t t = d->pbit[s][0];
                d->pbit[s][0] = d->pbit[s][1];
                d->pbit[s][1] = t;
            }
        }
        if (separate) {
            unsigned atop = 1u << (m->index2_bits - 1);
            if (d->asel[a] & atop) {
                for (unsigned i = 0; i < 16; i++)
                    if (part[i] == s) d->asel[i] = (uint8_t)((2 * atop - 1) - d->asel[i]);
                uint8_t t = d->lo[s][3];
                d->lo[s][3] = d->hi[s][3];
                d->hi[s][3] = t;
            }
        }
    }
    memset(out, 0, 16);
    unsigned pos = 0;
    put_bits(out, &pos, 1u << d->mode, d->mode + 1);
    if (m->rotation_bits) put_bits(out, &pos, d->rotation, 2);
    if (m->isb_bits) put_bits(out, &pos, 0, 1);
    if (m->partition_bits) put_bits(out, &pos, d->partition, m->partition_bits);
    const unsigned comps = m->alpha_bits ? 4 : 3;
    for (unsigned c = 0; c < comps; c++) {
        unsigned bits = c == 3 ? m->alpha_bits : m->color_bits;
        for (unsigned s = 0; s < ns; s++) {
            put_bits(out, &pos, d->lo[s][c], bits);
            put_bits(out, &pos, d->hi[s][c], bits);
        }
    }
    for (unsigned s = 0; s < ns; s++) {
        if (m->endpoint_pbits) {
            put_bits(out, &pos, d->pbit[s][0], 1);
            put_bits(out, &pos, d->pbit[s][1], 1);
        } else if (m->shared_pbits) {
            put_bits(out, &pos, d->pbit[s][0], 1);
        }
    }
    for (unsigned i = 0; i < 16; i++) {
        bool anchor = i == anchors[0] || (ns > 1 && i == anchors[1]) || (ns > 2 && i == anchors[2]);
        put_bits(out, &pos, d->sel[i], m->index_bits - (anchor ? 1u : 0u));
    }
    if (separate)
        for (unsigned i = 0; i < 16; i++)
            put_bits(out, &pos, d->asel[i], m->index2_bits - (i == 0 ? 1u : 0u));
}

/* Endpoint quantization with a p-bit per endpoint (comp_bits + 1 bits in all): for each p-bit,
 * round to the nearest value with that low bit, and keep per endpoint the p-bit whose 8-bit
 * expansion is closer (squared error over `comps` channels, in float, as basisu computes it). */
static void quant(const float x[4], int p, unsigned comp_bits, uint8_t q[4])
{
    const unsigned total = comp_bits + 1;
    const int iscale = (1 << total) - 1;
    const float scale = (float)iscale;
    for (unsigned c = 0; c < 4; c++) {
        int v = (int)((x[c] * scale - (float)p) / 2.0f + 0.5f) * 2 + p;
        if (v < p) v = p;
        if (v > iscale - 1 + p) v = iscale - 1 + p;
        q[c] = (uint8_t)v;
    }
}

static unsigned expand(unsigned v, unsigned total)
{
    v <<= 8 - total;
    return (v | (v >> total)) & 0xFFu;
}

static void unique_pbits(unsigned comps, unsigned comp_bits, const float xl[4], const float xh[4],
                         uint8_t lo[4], uint8_t hi[4], uint8_t pbits[2])
{
    float best0 = 1e9f, best1 = 1e9f;
    for (int p = 0; p < 2; p++) {
        uint8_t ql[4], qh[4];
        quant(xl, p, comp_bits, ql);
        quant(xh, p, comp_bits, qh);
        float e0 = 0, e1 = 0;
        for (unsigned c = 0; c < comps; c++) {
            float d0 = (float)expand(ql[c], comp_bits + 1) - xl[c] * 255.0f;
            float d1 = (float)expand(qh[c], comp_bits + 1) - xh[c] * 255.0f;
            e0 += d0 * d0;
            e1 += d1 * d1;
        }
        if (e0 < best0) {
            best0 = e0;
            pbits[0] = (uint8_t)p;
            for (int c = 0; c < 4; c++) lo[c] = (uint8_t)(ql[c] >> 1);
        }
        if (e1 < best1) {
            best1 = e1;
            pbits[1] = (uint8_t)p;
            for (int c = 0; c < 4; c++) hi[c] = (uint8_t)(qh[c] >> 1);
        }
    }
}

/* The same with one p-bit shared by both endpoints (BC7 mode 1). */
static void shared_pbits(unsigned comps, unsigned comp_bits, const float xl[4], const float xh[4],
                         uint8_t lo[4], uint8_t hi[4], uint8_t *pbit)
{
    float best = 1e9f;
    for (int p = 0; p < 2; p++) {
        uint8_t ql[4], qh[4];
        quant(xl, p, comp_bits, ql);
        quant(xh, p, comp_bits, qh);
        float e = 0;
        for (unsigned c = 0; c < comps; c++) {
            float d0 = (float)expand(ql[c], comp_bits + 1) / 255.0f - xl[c];
            float d1 = (float)expand(qh[c], comp_bits + 1) / 255.0f - xh[c];
            e += d0 * d0 + d1 * d1;
        }
        if (e < best) {
            best = e;
            *pbit = (uint8_t)p;
            for (int c = 0; c < 4; c++) {
                lo[c] = (uint8_t)(ql[c] >> 1);
                hi[c] = (uint8_t)(qh[c] >> 1);
            }
        }
    }
}

/* ---- solid colours -------------------------------------------------------------------------- */

void kiln_uastc_bc_cache_init(kiln_uastc_bc_cache *cache)
{
    memset(cache->done, 0, sizeof(cache->done));
}

/* The 7-bit endpoints (lo, hi) whose interpolation at weight w (out of 64) comes closest to c,
 * with 8-bit endpoints (v << 1) | lowbit(v): the first in (lo, hi) order among equals. */
static kiln_uastc_bc7_solid solid_search(unsigned c, unsigned w, int pbit)
{
    kiln_uastc_bc7_solid best = {0xFFFF, 0, 0};
    for (unsigned l = 0; l < 128; l++) {
        unsigned low = (l << 1) | (pbit < 0 ? l >> 6 : (unsigned)pbit);
        for (unsigned h = 0; h < 128; h++) {
            unsigned high = (h << 1) | (pbit < 0 ? h >> 6 : (unsigned)pbit);
            int k = (int)((low * (64 - w) + high * w + 32) >> 6);
            unsigned err = (unsigned)((k - (int)c) * (k - (int)c));
            if (err < best.err) {
                best.err = (uint16_t)err;
                best.lo = (uint8_t)l;
                best.hi = (uint8_t)h;
            }
        }
    }
    return best;
}

/* Mode 6 (7-bit endpoints + p-bit, index 5 of 16: weight 21) and mode 5 (7-bit colour
 * endpoints, index 1 of 4: weight 21), computed on first use within one transcode call. */
static const kiln_uastc_bc7_solid *solid6(kiln_uastc_bc_cache *cache, unsigned c, int p)
{
    if (!(cache->done[c] & (1u << p))) {
        cache->m6[c][p] = solid_search(c, 21, p);
        cache->done[c] |= (uint8_t)(1u << p);
    }
    return &cache->m6[c][p];
}

static const kiln_uastc_bc7_solid *solid5(kiln_uastc_bc_cache *cache, unsigned c)
{
    if (!(cache->done[c] & 4u)) {
        cache->m5[c] = solid_search(c, 21, -1);
        cache->done[c] |= 4u;
    }
    return &cache->m5[c];
}

/* ---- modes ---------------------------------------------------------------------------------- */

static float unq(const kiln_uastc_block *b, unsigned i)
{
    return (float)kiln_uastc_unquant_endpoint(b->endpoints[i], b->endpoint_range) / 255.0f;
}

static unsigned unq8(const kiln_uastc_block *b, unsigned i)
{
    return kiln_uastc_unquant_endpoint(b->endpoints[i], b->endpoint_range);
}

void kiln_uastc_to_bc7(const kiln_uastc_block *b, uint8_t out[16], kiln_uastc_bc_cache *cache)
{
    bc7_desc d;
    memset(&d, 0, sizeof(d));
    switch (b->mode) {
    case 0:
    case 5:
    case 10:
    case 12:
    case 14:
    case 15:
    case 18: {
        d.mode = 6;
        float xl[4], xh[4];
        if (b->comps == 2) {
            xl[0] = xl[1] = xl[2] = unq(b, 0);
            xh[0] = xh[1] = xh[2] = unq(b, 1);
            xl[3] = unq(b, 2);
            xh[3] = unq(b, 3);
        } else {
            for (unsigned c = 0; c < 3; c++) {
                xl[c] = unq(b, c * 2);
                xh[c] = unq(b, c * 2 + 1);
            }
            xl[3] = b->comps == 4 ? unq(b, 6) : 1.0f;
            xh[3] = b->comps == 4 ? unq(b, 7) : 1.0f;
        }
        unique_pbits(b->comps == 2 ? 4 : b->comps, 7, xl, xh, d.lo[0], d.hi[0], d.pbit[0]);
        if (b->comps == 3) d.lo[0][3] = d.hi[0][3] = 127;
        /* Weights to 4-bit indices: 5-bit ones (mode 18) by the nearest BC7 weight, 3- and
         * 2-bit ones to the index of the same weight. */
        static const uint8_t from5[32] = {0,  0,  1,  1,  2,  2,  3,  3,  4,  4,  5,
                                          5,  6,  6,  6,  7,  8,  9,  9,  9,  10, 10,
                                          11, 11, 12, 12, 13, 13, 14, 14, 15, 15};
        static const uint8_t from3[8] = {0, 2, 4, 6, 9, 11, 13, 15};
        static const uint8_t from2[4] = {0, 5, 10, 15};
        for (unsigned i = 0; i < 16; i++) {
            unsigned w = b->weights[i];
            d.sel[i] = b->weight_bits == 5   ? from5[w]
                       : b->weight_bits == 3 ? from3[w]
                       : b->weight_bits == 2 ? from2[w]
                                             : (uint8_t)w;
        }
        break;
    }
    case 1: {
        d.mode = 3;
        float xl[4], xh[4];
        for (unsigned c = 0; c < 3; c++) {
            xl[c] = (float)b->endpoints[c * 2] / 255.0f;
            xh[c] = (float)b->endpoints[c * 2 + 1] / 255.0f;
        }
        xl[3] = xh[3] = 1.0f;
        uint8_t lo[4] = {0}, hi[4] = {0}, pb[2] = {0, 0};
        unique_pbits(3, 7, xl, xh, lo, hi, pb);
        for (unsigned s = 0; s < 2; s++) {
            memcpy(d.lo[s], lo, 3);
            memcpy(d.hi[s], hi, 3);
            d.pbit[s][0] = pb[0];
            d.pbit[s][1] = pb[1];
        }
        memcpy(d.sel, b->weights, 16);
        break;
    }
    case 2: {
        d.mode = 1;
        d.partition = bc7_of2[b->pattern];
        for (unsigned s = 0; s < 2; s++) {
            float xl[4], xh[4];
            for (unsigned c = 0; c < 3; c++) {
                unsigned v = b->endpoints[c * 2 + s * 6];
                xl[c] = (float)((v << 4) | v) / 255.0f;
                v = b->endpoints[c * 2 + s * 6 + 1];
                xh[c] = (float)((v << 4) | v) / 255.0f;
            }
            xl[3] = xh[3] = 1.0f;
            unsigned t = invert2[b->pattern] ? 1 - s : s;
            uint8_t lo[4] = {0}, hi[4] = {0}, pb = 0;
            shared_pbits(3, 6, xl, xh, lo, hi, &pb);
            memcpy(d.lo[t], lo, 3);
            memcpy(d.hi[t], hi, 3);
            d.pbit[t][0] = pb;
        }
        memcpy(d.sel, b->weights, 16);
        break;
    }
    case 3: {
        d.mode = 2;
        d.partition = bc7_of3[b->pattern];
        for (unsigned s = 0; s < 3; s++) {
            unsigned t = astc_to_bc7_perm[perm3[b->pattern]][s];
            for (unsigned c = 0; c < 3; c++) {
                d.lo[t][c] = (uint8_t)((unq8(b, c * 2 + s * 6) * 31 + 127) / 255);
                d.hi[t][c] = (uint8_t)((unq8(b, c * 2 + 1 + s * 6) * 31 + 127) / 255);
            }
        }
        memcpy(d.sel, b->weights, 16);
        break;
    }
    case 4: {
        d.mode = 3;
        d.partition = bc7_of2[b->pattern];
        for (unsigned s = 0; s < 2; s++) {
            float xl[4], xh[4];
            for (unsigned c = 0; c < 3; c++) {
                xl[c] = unq(b, c * 2 + s * 6);
                xh[c] = unq(b, c * 2 + s * 6 + 1);
            }
            xl[3] = xh[3] = 1.0f;
            unsigned t = invert2[b->pattern] ? 1 - s : s;
            uint8_t lo[4] = {0}, hi[4] = {0}, pb[2] = {0, 0};
            unique_pbits(3, 7, xl, xh, lo, hi, pb);
            memcpy(d.lo[t], lo, 3);
            memcpy(d.hi[t], hi, 3);
            d.lo[t][3] = d.hi[t][3] = 127;
            d.pbit[t][0] = pb[0];
            d.pbit[t][1] = pb[1];
        }
        memcpy(d.sel, b->weights, 16);
        break;
    }
    case 6:
    case 11:
    case 13:
    case 17: {
        /* ASTC interpolates the ccs channel with plane 2; BC7 interpolates alpha with its second
         * indices and then swaps alpha with the rotation's channel. */
        d.mode = 5;
        d.rotation = (b->ccs + 1u) & 3u;
        if (b->comps == 2) {
            uint8_t l = (uint8_t)((unq8(b, 0) * 127 + 127) / 255);
            uint8_t h = (uint8_t)((unq8(b, 1) * 127 + 127) / 255);
            d.lo[0][0] = d.lo[0][1] = d.lo[0][2] = l;
            d.hi[0][0] = d.hi[0][1] = d.hi[0][2] = h;
            d.lo[0][3] = (uint8_t)unq8(b, 2);
            d.hi[0][3] = (uint8_t)unq8(b, 3);
        } else {
            for (unsigned c = 0; c < 4; c++) {
                unsigned bc = c == b->ccs ? 3u : c == 3 ? b->ccs : c;
                unsigned l = 255, h = 255;
                if (c < b->comps) {
                    l = unq8(b, c * 2);
                    h = unq8(b, c * 2 + 1);
                }
                if (bc < 3) {
                    l = (l * 127 + 127) / 255;
                    h = (h * 127 + 127) / 255;
                }
                d.lo[0][bc] = (uint8_t)l;
                d.hi[0][bc] = (uint8_t)h;
            }
        }
        for (unsigned i = 0; i < 16; i++) {
            unsigned w0 = b->weights[i * 2], w1 = b->weights[i * 2 + 1];
            d.sel[i] = (uint8_t)(b->weight_bits == 1 ? (w0 ? 3 : 0) : w0);
            d.asel[i] = (uint8_t)(b->weight_bits == 1 ? (w1 ? 3 : 0) : w1);
        }
        break;
    }
    case 7: {
        d.mode = 2;
        d.partition = bc7_of7[b->pattern];
        for (unsigned s = 0; s < 3; s++) {
            unsigned a = merge3(s, k7[b->pattern]);
            for (unsigned c = 0; c < 3; c++) {
                d.lo[s][c] = (uint8_t)((unq8(b, c * 2 + a * 6) * 31 + 127) / 255);
                d.hi[s][c] = (uint8_t)((unq8(b, c * 2 + 1 + a * 6) * 31 + 127) / 255);
            }
        }
        memcpy(d.sel, b->weights, 16);
        break;
    }
    case 9:
    case 16: {
        d.mode = 7;
        d.partition = bc7_of2[b->pattern];
        for (unsigned s = 0; s < 2; s++) {
            float xl[4], xh[4];
            if (b->comps == 2) {
                xl[0] = xl[1] = xl[2] = unq(b, s * 4);
                xh[0] = xh[1] = xh[2] = unq(b, s * 4 + 1);
                xl[3] = unq(b, s * 4 + 2);
                xh[3] = unq(b, s * 4 + 3);
            } else {
                for (unsigned c = 0; c < 4; c++) {
                    xl[c] = unq(b, c * 2 + s * 8);
                    xh[c] = unq(b, c * 2 + 1 + s * 8);
                }
            }
            unsigned t = invert2[b->pattern] ? 1 - s : s;
            unique_pbits(4, 5, xl, xh, d.lo[t], d.hi[t], d.pbit[t]);
        }
        memcpy(d.sel, b->weights, 16);
        break;
    }
    default: { /* the solid colour */
        const uint8_t *c = b->solid;
        unsigned e0 = 0, e1 = 0;
        for (unsigned k = 0; k < 4; k++) {
            e0 += solid6(cache, c[k], 0)->err;
            e1 += solid6(cache, c[k], 1)->err;
        }
        if (e0 > 0 && e1 > 0) {
            d.mode = 5;
            for (unsigned k = 0; k < 3; k++) {
                d.lo[0][k] = solid5(cache, c[k])->lo;
                d.hi[0][k] = solid5(cache, c[k])->hi;
            }
            d.lo[0][3] = d.hi[0][3] = c[3];
            memset(d.sel, 1, 16);
        } else {
            d.mode = 6;
            int p = e1 < e0 ? 1 : 0;
            for (unsigned k = 0; k < 4; k++) {
                d.lo[0][k] = solid6(cache, c[k], p)->lo;
                d.hi[0][k] = solid6(cache, c[k], p)->hi;
            }
            d.pbit[0][0] = d.pbit[0][1] = (uint8_t)p;
            memset(d.sel, 5, 16);
        }
        break;
    }
    }
    bc7_pack(&d, out);
}
