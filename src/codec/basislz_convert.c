/* basislz_convert.c — ETC1S blocks to the transcode targets. An ETC1S block is an ETC1 block
 * whose two sub-blocks share one 5-bit colour and one intensity table (differential mode, zero
 * delta), so ETC1 is a copy of bits; the other targets are converted per block. */
#include <string.h>

#include "codec/basislz_convert.h"
#include "codec/basislz_tables.h"

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

/* The index of a selector range in the BC1 tables (-1: lo == hi, handled before). */
static int bc1_range(uint32_t lo, uint32_t hi)
{
    static const uint8_t ranges[6][2] = {{0, 3}, {1, 3}, {0, 2}, {1, 2}, {2, 3}, {0, 1}};
    for (int i = 0; i < 6; i++)
        if (ranges[i][0] == lo && ranges[i][1] == hi) return i;
    return 0;
}

/* The index of a selector range in the BC4 and EAC tables; the others fall back to 0..3. */
static int eac_range(uint32_t lo, uint32_t hi)
{
    static const uint8_t ranges[4][2] = {{0, 3}, {1, 3}, {0, 2}, {1, 2}};
    for (int i = 0; i < 4; i++)
        if (ranges[i][0] == lo && ranges[i][1] == hi) return i;
    return 0;
}

static uint32_t selector_at(const kiln_etc1s_selector *s, int x, int y)
{
    return (uint32_t)(s->rows[y] >> (2 * x)) & 3;
}

static void put_u16le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void bc1_write(uint8_t *blk, uint32_t c0, uint32_t c1, const uint8_t rows[4])
{
    put_u16le(blk, c0);
    put_u16le(blk + 2, c1);
    memcpy(blk + 4, rows, 4);
}

/* BC1 from an ETC1S block. A constant block takes the single-colour fits; a two-colour block
 * with the widest table takes both colours exactly; others take, per channel, the table fit of
 * each selector-to-BC1 mapping and keep the mapping with the least total error. Without
 * three_colour (BC3) the block never uses BC1's 3-colour mode. */
static void bc1_block(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk,
                      bool three_colour)
{
    uint8_t c[4][3];
    kiln_etc1s_colours(e, c);
    uint8_t rows[4];
    if (s->lo == s->hi) {
        const uint8_t *v = c[s->lo];
        uint32_t mask = 0xAA; /* selector 2: (2 c0 + c1) / 3 */
        uint32_t max16 = (uint32_t)kiln_blz_bc1_match5_sel1[v[0]].hi << 11 |
                         (uint32_t)kiln_blz_bc1_match6_sel1[v[1]].hi << 5 |
                         kiln_blz_bc1_match5_sel1[v[2]].hi;
        uint32_t min16 = (uint32_t)kiln_blz_bc1_match5_sel1[v[0]].lo << 11 |
                         (uint32_t)kiln_blz_bc1_match6_sel1[v[1]].lo << 5 |
                         kiln_blz_bc1_match5_sel1[v[2]].lo;
        if (!three_colour && min16 == max16) {
            mask = 0;
            if (min16 > 0) {
                min16--;
            } else {
                max16 = 1;
                min16 = 0;
                mask = 0x55;
            }
        }
        if (max16 < min16) {
            uint32_t t = max16;
            max16 = min16;
            min16 = t;
            mask ^= 0x55;
        }
        memset(rows, (int)mask, 4);
        bc1_write(blk, max16, min16, rows);
        return;
    }
    if (e->inten >= 7 && s->unique == 2 && s->lo == 0 && s->hi == 3) {
        uint32_t max16 = (uint32_t)kiln_blz_bc1_match5_sel0[c[0][0]].hi << 11 |
                         (uint32_t)kiln_blz_bc1_match6_sel0[c[0][1]].hi << 5 |
                         kiln_blz_bc1_match5_sel0[c[0][2]].hi;
        uint32_t min16 = (uint32_t)kiln_blz_bc1_match5_sel0[c[3][0]].hi << 11 |
                         (uint32_t)kiln_blz_bc1_match6_sel0[c[3][1]].hi << 5 |
                         kiln_blz_bc1_match5_sel0[c[3][2]].hi;
        uint32_t l = 0, h = 1;
        if (min16 == max16) {
            if (min16 > 0) {
                min16--;
                l = h = 0;
            } else {
                max16 = 1;
                min16 = 0;
                l = h = 1;
            }
        }
        if (max16 < min16) {
            uint32_t t = max16;
            max16 = min16;
            min16 = t;
            l = 1;
            h = 0;
        }
        for (int y = 0; y < 4; y++) {
            rows[y] = 0;
            for (int x = 0; x < 4; x++)
                rows[y] |= (uint8_t)((selector_at(s, x, y) == 3 ? h : l) << (2 * x));
        }
        bc1_write(blk, max16, min16, rows);
        return;
    }
    size_t at = (size_t)bc1_range(s->lo, s->hi) * 10;
    const kiln_blz_bc1_fit *fr = &kiln_blz_bc1_fit5[(e->inten * 32u + e->c5[0]) * 60u + at];
    const kiln_blz_bc1_fit *fg = &kiln_blz_bc1_fit6[(e->inten * 32u + e->c5[1]) * 60u + at];
    const kiln_blz_bc1_fit *fb = &kiln_blz_bc1_fit5[(e->inten * 32u + e->c5[2]) * 60u + at];
    uint32_t best = UINT32_MAX;
    int m = 0;
    for (int i = 0; i < 10; i++) {
        uint32_t err = (uint32_t)fr[i].err + fg[i].err + fb[i].err;
        if (err < best) {
            best = err;
            m = i;
        }
    }
    uint32_t l = (uint32_t)fr[m].lo << 11 | (uint32_t)fg[m].lo << 5 | fb[m].lo;
    uint32_t h = (uint32_t)fr[m].hi << 11 | (uint32_t)fg[m].hi << 5 | fb[m].hi;
    bool inverted = false;
    if (l < h) {
        uint32_t t = l;
        l = h;
        h = t;
        inverted = true;
    }
    if (l == h) {
        uint32_t mask = 0;
        if (!three_colour) {
            if (h > 0) {
                h--;
            } else {
                l = 1;
                mask = 0x55;
            }
        }
        memset(rows, (int)mask, 4);
        bc1_write(blk, l, h, rows);
        return;
    }
    /* The ETC1S selectors through the mapping (0..3 along the line from colour 0 to colour 1)
     * to BC1's codes: 0 = colour 0, 1 = colour 1, 2 and 3 the thirds; swapped colours swap. */
    static const uint8_t mappings[10][4] = {{0, 0, 1, 1}, {0, 0, 1, 2}, {0, 0, 1, 3}, {0, 0, 2, 3},
                                            {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}, {0, 2, 3, 3},
                                            {1, 2, 2, 2}, {1, 2, 3, 3}};
    static const uint8_t line_to_bc1[4] = {0, 2, 3, 1}, swapped[4] = {1, 0, 3, 2};
    for (int y = 0; y < 4; y++) {
        rows[y] = 0;
        for (int x = 0; x < 4; x++) {
            uint32_t code = line_to_bc1[mappings[m][selector_at(s, x, y)]];
            if (inverted) code = swapped[code];
            rows[y] |= (uint8_t)(code << (2 * x));
        }
    }
    bc1_write(blk, l, h, rows);
}

/* BC4 of the block's red: constant, two-valued (both values exact), or the table fit. */
static void bc4_block(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk)
{
    uint8_t c[4][3];
    kiln_etc1s_colours(e, c);
    uint64_t bits = 0;
    if (s->lo == s->hi) {
        blk[0] = blk[1] = c[s->lo][0];
    } else if (s->unique == 2) {
        blk[0] = c[s->lo][0];
        blk[1] = c[s->hi][0];
        for (int i = 0; i < 16; i++)
            bits |= (uint64_t)(selector_at(s, i & 3, i >> 2) == s->hi) << (3 * i);
    } else {
        const kiln_blz_bc4_fit *f = &kiln_blz_bc4_fits[(e->inten * 32u + e->c5[0]) * 4u +
                                                       (uint32_t)eac_range(s->lo, s->hi)];
        blk[0] = f->a0;
        blk[1] = f->a1;
        for (int i = 0; i < 16; i++)
            bits |= (uint64_t)((f->trans >> (3 * selector_at(s, i & 3, i >> 2))) & 7) << (3 * i);
    }
    for (int i = 0; i < 6; i++) blk[2 + i] = (uint8_t)(bits >> (8 * i));
}

static void bc4_opaque(uint8_t *blk)
{
    memset(blk, 0, 8);
    blk[0] = blk[1] = 255;
}

/* EAC (alpha or R11) of the block's red: constant (table 13, index 4: +0) or the table fit. */
static void eac_block(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk,
                      const kiln_blz_eac_fit *table)
{
    static const uint8_t all_index4[6] = {0x92, 0x49, 0x24, 0x92, 0x49, 0x24};
    if (s->lo == s->hi) {
        uint8_t c[4][3];
        kiln_etc1s_colours(e, c);
        blk[0] = c[s->lo][0];
        blk[1] = 1 << 4 | 13;
        memcpy(blk + 2, all_index4, 6);
        return;
    }
    const kiln_blz_eac_fit *f =
        &table[(e->inten * 32u + e->c5[0]) * 4u + (uint32_t)eac_range(s->lo, s->hi)];
    blk[0] = f->base;
    blk[1] = (uint8_t)((f->table_mul & 15) << 4 | f->table_mul >> 4);
    uint64_t bits = 0;
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 4; y++)
            bits |= (uint64_t)((f->trans >> (3 * selector_at(s, x, y))) & 7)
                    << (45 - 3 * (x * 4 + y));
    for (int i = 0; i < 6; i++) blk[2 + i] = (uint8_t)(bits >> (40 - 8 * i));
}

/* 255 everywhere: base 255, multiplier 1, table 13, every index 4 (+0). */
static void eac_opaque(uint8_t *blk)
{
    static const uint8_t opaque[8] = {255, 1 << 4 | 13, 0x92, 0x49, 0x24, 0x92, 0x49, 0x24};
    memcpy(blk, opaque, 8);
}

/* Writes the low n bits of v at bit offset `at` of a 16-byte block, least significant first. */
static void put_bits(uint8_t *blk, uint32_t at, uint32_t n, uint32_t v)
{
    for (uint32_t i = 0; i < n; i++, at++) {
        uint8_t bit = (uint8_t)(1u << (at & 7));
        if ((v >> i) & 1) blk[at >> 3] |= bit;
        else blk[at >> 3] &= (uint8_t)~bit;
    }
}

/* BC7 mode 5 (Khronos Data Format Specification, BC7: mode bits 100000, rotation 0, 7-bit RGB
 * endpoints at bit 8, 8-bit alpha endpoints at bit 50, 31 colour index bits at 66 and 31 alpha
 * index bits at 97, texel 0's index one bit shorter). */
#define BC7_RGB_AT     8u
#define BC7_A_AT       50u
#define BC7_COLOUR_IDX 66u
#define BC7_ALPHA_IDX  97u

static void bc7_endpoints(uint8_t *blk, const uint32_t e0[3], const uint32_t e1[3])
{
    for (uint32_t k = 0; k < 3; k++) {
        put_bits(blk, BC7_RGB_AT + 14 * k, 7, e0[k]);
        put_bits(blk, BC7_RGB_AT + 14 * k + 7, 7, e1[k]);
    }
}

static void bc7_colour(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk,
                       bool has_alpha)
{
    (void)has_alpha;
    memset(blk, 0, 16);
    blk[0] = 1 << 5;                     /* mode 5 */
    put_bits(blk, BC7_A_AT, 16, 0xFFFF); /* alpha endpoints 255, indices 0: opaque */
    uint8_t c[4][3];
    kiln_etc1s_colours(e, c);
    uint32_t e0[3], e1[3], bits = 0, at = 0;
    if (s->unique == 1) {
        for (int k = 0; k < 3; k++) {
            e0[k] = kiln_blz_bc7_match[c[s->lo][k]].lo;
            e1[k] = kiln_blz_bc7_match[c[s->lo][k]].hi;
        }
        bc7_endpoints(blk, e0, e1);
        put_bits(blk, BC7_COLOUR_IDX, 31, 0x2aaaaaabu); /* every index 1 */
        return;
    }
    if (s->unique == 2) {
        /* Block truncation: the two colours at 7 bits, indices 0 and 3. */
        uint32_t low = 0;
        for (int k = 0; k < 3; k++) {
            e0[k] = c[s->lo][k] >> 1u;
            e1[k] = c[s->hi][k] >> 1u;
        }
        for (int i = 0; i < 16; i++) {
            uint32_t os = selector_at(s, i & 3, i >> 2) == s->lo ? low : 3 ^ low;
            if (i == 0 && (os & 2)) { /* texel 0's index must have its top bit clear */
                for (int k = 0; k < 3; k++) {
                    e0[k] = c[s->hi][k] >> 1u;
                    e1[k] = c[s->lo][k] >> 1u;
                }
                low = 3;
                os = 0;
            }
            bits |= os << at;
            at += i == 0 ? 1 : 2;
        }
        bc7_endpoints(blk, e0, e1);
        put_bits(blk, BC7_COLOUR_IDX, 31, bits);
        return;
    }
    size_t off = (size_t)bc1_range(s->lo, s->hi) * 10;
    const kiln_blz_bc1_fit *f[3];
    for (int k = 0; k < 3; k++)
        f[k] = &kiln_blz_bc7_colour_fit[(e->inten * 32u + e->c5[k]) * 60u + off];
    uint32_t best = UINT32_MAX;
    int m = 0;
    for (int i = 0; i < 10; i++) {
        uint32_t err = (uint32_t)f[0][i].err + f[1][i].err + f[2][i].err;
        if (err < best) {
            best = err;
            m = i;
        }
    }
    static const uint8_t mappings[10][4] = {{0, 0, 1, 1}, {0, 0, 1, 2}, {0, 0, 1, 3}, {0, 0, 2, 3},
                                            {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}, {0, 2, 3, 3},
                                            {1, 2, 2, 2}, {1, 2, 3, 3}};
    uint32_t inv = (mappings[m][selector_at(s, 0, 0)] & 2) ? 3 : 0;
    for (int k = 0; k < 3; k++) {
        e0[k] = inv ? f[k][m].hi : f[k][m].lo;
        e1[k] = inv ? f[k][m].lo : f[k][m].hi;
    }
    for (int i = 0; i < 16; i++) {
        bits |= ((uint32_t)mappings[m][selector_at(s, i & 3, i >> 2)] ^ inv) << at;
        at += i == 0 ? 1 : 2;
    }
    bc7_endpoints(blk, e0, e1);
    put_bits(blk, BC7_COLOUR_IDX, 31, bits);
}

static void bc7_alpha(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk)
{
    uint8_t c[4][3];
    kiln_etc1s_colours(e, c);
    uint32_t bits = 0, at = 0;
    if (s->unique == 1) {
        put_bits(blk, BC7_A_AT, 8, c[s->lo][0]);
        put_bits(blk, BC7_A_AT + 8, 8, c[s->lo][0]);
        return;
    }
    if (s->unique == 2) {
        uint32_t a0 = c[s->lo][1], a1 = c[s->hi][1], low = 0;
        for (int i = 0; i < 16; i++) {
            uint32_t os = selector_at(s, i & 3, i >> 2) == s->lo ? low : 3 ^ low;
            if (i == 0 && (os & 2)) {
                a0 = c[s->hi][1];
                a1 = c[s->lo][1];
                low = 3;
                os = 0;
            }
            bits |= os << at;
            at += i == 0 ? 1 : 2;
        }
        put_bits(blk, BC7_A_AT, 8, a0);
        put_bits(blk, BC7_A_AT + 8, 8, a1);
        put_bits(blk, BC7_ALPHA_IDX, 31, bits);
        return;
    }
    const kiln_blz_bc7_alpha_fit *f = &kiln_blz_bc7_alpha_fits[(e->inten * 32u + e->c5[0]) * 6u +
                                                               (uint32_t)bc1_range(s->lo, s->hi)];
    uint32_t a0 = f->lo, a1 = f->hi, trans = f->trans;
    for (int i = 0; i < 16; i++) {
        uint32_t os = (trans >> (2 * selector_at(s, i & 3, i >> 2))) & 3;
        if (i == 0 && (os & 2)) {
            a0 = f->hi;
            a1 = f->lo;
            trans ^= 0xFF;
            os ^= 3;
        }
        bits |= os << at;
        at += i == 0 ? 1 : 2;
    }
    put_bits(blk, BC7_A_AT, 8, a0);
    put_bits(blk, BC7_A_AT + 8, 8, a1);
    put_bits(blk, BC7_ALPHA_IDX, 31, bits);
}

/* ---- ASTC 4x4 (Khronos Data Format Specification, ASTC) ---------------------------------
 * Four layouts, as basisu picks them: a void-extent block for constant colour and alpha; colour
 * endpoint mode 12 (RGBA direct, 8-bit endpoints, dual plane with alpha second, 1-bit weights)
 * when colour and alpha each take at most two values (exact); mode 4 (luminance + alpha, 8-bit,
 * dual plane, 2-bit weights) for grey endpoints; mode 8 (RGB direct, 8-bit, 2-bit weights) for
 * opaque blocks; otherwise mode 12 with 48-level endpoints and 2-bit dual-plane weights. The
 * first bytes of each are its block mode, partition count and endpoint mode fields. */
typedef struct astc_params {
    uint8_t ep[10]; /* R lo, R hi, G lo, G hi, B lo, B hi, A lo, A hi (mode 4: L lo, L hi, A lo, A
                       hi) */
    uint8_t w[32];  /* texel i's colour weight at 2 i, alpha weight at 2 i + 1 (mode 8: w[i]) */
} astc_params;

static void astc_or_bits(uint8_t *b, uint32_t *pos, uint32_t v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++, (*pos)++)
        if ((v >> i) & 1) b[*pos >> 3] |= (uint8_t)(1u << (*pos & 7));
}

/* Five values of a trit range with n extra bits each (integer sequence encoding). */
static void astc_trits(uint8_t *b, const uint8_t *v, uint32_t *pos, uint32_t n)
{
    static const uint32_t pow3[5] = {1, 3, 9, 27, 81};
    uint32_t trits = 0, bits[5], mask = (1u << n) - 1;
    for (int i = 0; i < 5; i++) {
        trits += (uint32_t)(v[i] >> n) * pow3[i];
        bits[i] = v[i] & mask;
    }
    uint32_t t = kiln_blz_astc_trits[trits < 243 ? trits : 0];
    astc_or_bits(b, pos, bits[0] | (t & 3) << n | bits[1] << (2 + n), 2 * n + 2);
    astc_or_bits(b, pos,
                 ((t >> 2) & 3) | bits[2] << 2 | ((t >> 4) & 1) << (2 + n) | bits[3] << (3 + n) |
                     ((t >> 5) & 3) << (3 + 2 * n) | bits[4] << (5 + 2 * n) |
                     ((t >> 7) & 1) << (5 + 3 * n),
                 3 * n + 6);
}

/* 2-bit weights are stored from bit 126 down, each with its bits swapped. */
static void astc_weights2(uint8_t *b, const uint8_t *w, int count)
{
    static const uint8_t swapped[4] = {0, 2, 1, 3};
    for (int i = 0; i < count; i++) {
        uint32_t ofs = 126u - 2u * (uint32_t)i;
        b[ofs >> 3] |= (uint8_t)(swapped[w[i] & 3] << (ofs & 7));
    }
}

static void astc_pack(uint8_t *b, const astc_params *p, int layout)
{
    memset(b, 0, 16);
    uint32_t pos = 17;
    switch (layout) {
    case 12: /* mode 12, 48-level endpoints, 2-bit weights, dual plane */
        b[0] = 0x42, b[1] = 0x84, b[2] = 0x01, b[7] = 0xc0;
        astc_trits(b, p->ep, &pos, 4);
        astc_trits(b, p->ep + 5, &pos, 4);
        astc_weights2(b, p->w, 32);
        break;
    case 120: /* mode 12, 8-bit endpoints, 1-bit weights from bit 127 down, dual plane */
        b[0] = 0x41, b[1] = 0x84, b[2] = 0x01, b[11] = 0xc0;
        for (int i = 0; i < 8; i++) astc_or_bits(b, &pos, p->ep[i], 8);
        for (int i = 0; i < 32; i++)
            b[(127 - i) >> 3] |= (uint8_t)((p->w[i] & 1) << ((127 - i) & 7));
        break;
    case 4: /* mode 4, 8-bit endpoints, 2-bit weights, dual plane */
        b[0] = 0x42, b[1] = 0x84, b[2] = 0x00, b[7] = 0xc0;
        for (int i = 0; i < 4; i++) astc_or_bits(b, &pos, p->ep[i], 8);
        astc_weights2(b, p->w, 32);
        break;
    default: /* 8: mode 8, 8-bit endpoints, 2-bit weights, one plane */
        b[0] = 0x42, b[1] = 0x00, b[2] = 0x01;
        for (int i = 0; i < 6; i++) astc_or_bits(b, &pos, p->ep[i], 8);
        astc_weights2(b, p->w, 16);
        break;
    }
}

/* The mapping with the least error in one table (grey blocks use one channel). */
static int astc_best1(const kiln_blz_bc1_fit *f)
{
    uint32_t best = UINT32_MAX;
    int m = 0;
    for (int i = 0; i < 10; i++) {
        if (f[i].err < best) {
            best = f[i].err;
            m = i;
        }
    }
    return m;
}

static int astc_best3(const kiln_blz_bc1_fit *f[3])
{
    uint32_t best = UINT32_MAX;
    int m = 0;
    for (int i = 0; i < 10; i++) {
        uint32_t err = (uint32_t)f[0][i].err + f[1][i].err + f[2][i].err;
        if (err < best) {
            best = err;
            m = i;
        }
    }
    return m;
}

static const uint8_t astc_mappings[10][4] = {{0, 0, 1, 1}, {0, 0, 1, 2}, {0, 0, 1, 3}, {0, 0, 2, 3},
                                             {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}, {0, 2, 3, 3},
                                             {1, 2, 2, 2}, {1, 2, 3, 3}};

static const kiln_blz_bc1_fit *astc_fit(const kiln_blz_bc1_fit *table, const kiln_etc1s_endpoint *e,
                                        int channel, const kiln_etc1s_selector *s)
{
    return &table[(e->inten * 32u + e->c5[channel]) * 60u +
                  (uint32_t)bc1_range(s->lo, s->hi) * 10u];
}

/* Swaps the colour endpoint pairs so that the second is the brighter (sums of unquantised
 * values); returns whether it swapped. */
static bool astc_order(astc_params *p, bool quant48)
{
    int s0 = 0, s1 = 0;
    for (int k = 0; k < 3; k++) {
        s0 += quant48 ? kiln_blz_astc_unquant48[p->ep[2 * k]] : p->ep[2 * k];
        s1 += quant48 ? kiln_blz_astc_unquant48[p->ep[2 * k + 1]] : p->ep[2 * k + 1];
    }
    if (s1 >= s0) return false;
    for (int k = 0; k < 3; k++) {
        uint8_t t = p->ep[2 * k];
        p->ep[2 * k] = p->ep[2 * k + 1];
        p->ep[2 * k + 1] = t;
    }
    return true;
}

void kiln_etc1s_to_astc(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s,
                        const kiln_etc1s_endpoint *ae, const kiln_etc1s_selector *as, uint8_t *blk)
{
    astc_params p;
    memset(&p, 0, sizeof p);
    uint8_t c[4][3], ac[4][3];
    kiln_etc1s_colours(e, c);
    if (ae) kiln_etc1s_colours(ae, ac);
    int alpha_unique = ae ? as->unique : 1;
    uint32_t const_alpha = ae && alpha_unique == 1 ? ac[as->lo][1] : 255;

    if (s->unique == 1 && alpha_unique == 1) { /* void extent: one RGBA colour, 16 bits each */
        static const uint8_t head[8] = {0xfc, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
        memcpy(blk, head, 8);
        const uint8_t *v = c[s->lo];
        uint8_t a = (uint8_t)const_alpha;
        const uint8_t tail[8] = {v[0], v[0], v[1], v[1], v[2], v[2], a, a};
        memcpy(blk + 8, tail, 8);
        return;
    }
    if (s->unique <= 2 && alpha_unique <= 2) { /* two values each: exact */
        for (int k = 0; k < 3; k++) {
            p.ep[2 * k] = c[s->lo][k];
            p.ep[2 * k + 1] = c[s->hi][k];
        }
        bool inv = astc_order(&p, false);
        p.ep[6] = ae ? ac[as->lo][1] : 255;
        p.ep[7] = ae ? ac[as->hi][1] : 255;
        for (int i = 0; i < 16; i++) {
            uint32_t sel = selector_at(s, i & 3, i >> 2);
            p.w[2 * i] = (uint8_t)((sel == s->hi) ^ inv);
            p.w[2 * i + 1] = ae ? (uint8_t)(selector_at(as, i & 3, i >> 2) == as->hi) : 0;
        }
        astc_pack(blk, &p, 120);
        return;
    }
    if (e->c5[0] == e->c5[1] && e->c5[0] == e->c5[2]) { /* grey: luminance + alpha */
        if (!ae) {
            p.ep[2] = p.ep[3] = 255;
        } else if (alpha_unique <= 2) {
            p.ep[2] = ac[as->lo][1];
            p.ep[3] = ac[as->hi][1];
            for (int i = 0; i < 16; i++)
                p.w[2 * i + 1] = selector_at(as, i & 3, i >> 2) == as->hi ? 3 : 0;
        } else {
            const kiln_blz_bc1_fit *f = astc_fit(kiln_blz_astc_fit255, ae, 1, as);
            int m = astc_best1(f);
            p.ep[2] = f[m].lo;
            p.ep[3] = f[m].hi;
            for (int i = 0; i < 16; i++)
                p.w[2 * i + 1] = astc_mappings[m][selector_at(as, i & 3, i >> 2)];
        }
        if (s->unique <= 2) {
            p.ep[0] = c[s->lo][1];
            p.ep[1] = c[s->hi][1];
            for (int i = 0; i < 16; i++)
                p.w[2 * i] = selector_at(s, i & 3, i >> 2) == s->hi ? 3 : 0;
        } else {
            const kiln_blz_bc1_fit *f = astc_fit(kiln_blz_astc_fit255, e, 1, s);
            int m = astc_best1(f);
            p.ep[0] = f[m].lo;
            p.ep[1] = f[m].hi;
            for (int i = 0; i < 16; i++)
                p.w[2 * i] = astc_mappings[m][selector_at(s, i & 3, i >> 2)];
        }
        astc_pack(blk, &p, 4);
        return;
    }
    if (alpha_unique == 1 && const_alpha == 255) { /* opaque: RGB direct, 8-bit endpoints */
        const kiln_blz_bc1_fit *f[3];
        for (int k = 0; k < 3; k++) f[k] = astc_fit(kiln_blz_astc_fit255, e, k, s);
        int m = astc_best3(f);
        for (int k = 0; k < 3; k++) {
            p.ep[2 * k] = f[k][m].lo;
            p.ep[2 * k + 1] = f[k][m].hi;
        }
        bool inv = astc_order(&p, false);
        for (int i = 0; i < 16; i++) {
            uint8_t w = astc_mappings[m][selector_at(s, i & 3, i >> 2)];
            p.w[i] = inv ? (uint8_t)(3 - w) : w;
        }
        astc_pack(blk, &p, 8);
        return;
    }
    /* Everything else: RGBA direct, 48-level endpoints, 2-bit weights, dual plane. */
    if (!ae) {
        p.ep[6] = p.ep[7] = 1; /* level 1 is 255 */
    } else if (as->lo == as->hi) {
        uint8_t v = ac[as->lo][1];
        p.ep[6] = kiln_blz_astc_single1[v].lo;
        p.ep[7] = kiln_blz_astc_single1[v].hi;
        for (int i = 0; i < 16; i++) p.w[2 * i + 1] = 1;
    } else if (ae->inten >= 7 && as->unique == 2 && as->lo == 0 && as->hi == 3) {
        p.ep[6] = kiln_blz_astc_single0[ac[0][1]];
        p.ep[7] = kiln_blz_astc_single0[ac[3][1]];
        for (int i = 0; i < 16; i++)
            p.w[2 * i + 1] = selector_at(as, i & 3, i >> 2) == as->hi ? 3 : 0;
    } else {
        const kiln_blz_bc1_fit *f = astc_fit(kiln_blz_astc_fit47, ae, 1, as);
        int m = astc_best1(f);
        p.ep[6] = f[m].lo;
        p.ep[7] = f[m].hi;
        for (int i = 0; i < 16; i++)
            p.w[2 * i + 1] = astc_mappings[m][selector_at(as, i & 3, i >> 2)];
    }
    if (s->lo == s->hi) {
        for (int k = 0; k < 3; k++) {
            p.ep[2 * k] = kiln_blz_astc_single1[c[s->lo][k]].lo;
            p.ep[2 * k + 1] = kiln_blz_astc_single1[c[s->lo][k]].hi;
        }
        bool inv = astc_order(&p, true);
        for (int i = 0; i < 16; i++) p.w[2 * i] = inv ? 2 : 1;
    } else if (e->inten >= 7 && s->unique == 2 && s->lo == 0 && s->hi == 3) {
        for (int k = 0; k < 3; k++) {
            p.ep[2 * k] = kiln_blz_astc_single0[c[0][k]];
            p.ep[2 * k + 1] = kiln_blz_astc_single0[c[3][k]];
        }
        bool inv = astc_order(&p, true);
        for (int i = 0; i < 16; i++) {
            uint8_t w = selector_at(s, i & 3, i >> 2) == s->lo ? 0 : 3;
            p.w[2 * i] = inv ? (uint8_t)(3 - w) : w;
        }
    } else {
        const kiln_blz_bc1_fit *f[3];
        for (int k = 0; k < 3; k++) f[k] = astc_fit(kiln_blz_astc_fit47, e, k, s);
        int m = astc_best3(f);
        for (int k = 0; k < 3; k++) {
            p.ep[2 * k] = f[k][m].lo;
            p.ep[2 * k + 1] = f[k][m].hi;
        }
        bool inv = astc_order(&p, true);
        for (int i = 0; i < 16; i++) {
            uint8_t w = astc_mappings[m][selector_at(s, i & 3, i >> 2)];
            p.w[2 * i] = inv ? (uint8_t)(3 - w) : w;
        }
    }
    astc_pack(blk, &p, 12);
}

static void etc1_colour(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk,
                        bool has_alpha)
{
    (void)has_alpha;
    etc1_block(e, s, blk);
}

static void bc1_colour(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk,
                       bool has_alpha)
{
    (void)has_alpha;
    bc1_block(e, s, blk, true);
}

static void bc3_colour(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk,
                       bool has_alpha)
{
    if (!has_alpha) bc4_opaque(blk);
    bc1_block(e, s, blk + 8, false);
}

static void bc4_colour(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk,
                       bool has_alpha)
{
    (void)has_alpha;
    bc4_block(e, s, blk);
}

static void bc5_colour(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk,
                       bool has_alpha)
{
    bc4_block(e, s, blk);
    if (!has_alpha) bc4_opaque(blk + 8);
}

static void bc4_at0(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk)
{
    bc4_block(e, s, blk);
}

static void bc4_at8(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk)
{
    bc4_block(e, s, blk + 8);
}

static void etc2_rgba_colour(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s,
                             uint8_t *blk, bool has_alpha)
{
    if (!has_alpha) eac_opaque(blk);
    etc1_block(e, s, blk + 8);
}

static void eac_a8_at0(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk)
{
    eac_block(e, s, blk, kiln_blz_eac_a8_fit);
}

static void r11_colour(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk,
                       bool has_alpha)
{
    (void)has_alpha;
    eac_block(e, s, blk, kiln_blz_eac_r11_fit);
}

static void rg11_colour(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk,
                        bool has_alpha)
{
    eac_block(e, s, blk, kiln_blz_eac_r11_fit);
    if (!has_alpha) eac_opaque(blk + 8);
}

static void r11_at8(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk)
{
    eac_block(e, s, blk + 8, kiln_blz_eac_r11_fit);
}

static const kiln_blz_conv conv_etc1 = {etc1_colour, NULL};
static const kiln_blz_conv conv_bc7 = {bc7_colour, bc7_alpha};
static const kiln_blz_conv conv_bc1 = {bc1_colour, NULL};
static const kiln_blz_conv conv_bc3 = {bc3_colour, bc4_at0};
static const kiln_blz_conv conv_bc4 = {bc4_colour, NULL};
static const kiln_blz_conv conv_bc5 = {bc5_colour, bc4_at8};
static const kiln_blz_conv conv_etc2_rgba = {etc2_rgba_colour, eac_a8_at0};
static const kiln_blz_conv conv_r11 = {r11_colour, NULL};
static const kiln_blz_conv conv_rg11 = {rg11_colour, r11_at8};

const kiln_blz_conv *kiln_blz_conv_for(kiln_basis_target target)
{
    switch (target) {
    case KILN_BASIS_TARGET_ETC1:
        return &conv_etc1;
    case KILN_BASIS_TARGET_BC1:
        return &conv_bc1;
    case KILN_BASIS_TARGET_BC7:
        return &conv_bc7;
    case KILN_BASIS_TARGET_BC3:
        return &conv_bc3;
    case KILN_BASIS_TARGET_BC4:
        return &conv_bc4;
    case KILN_BASIS_TARGET_BC5:
        return &conv_bc5;
    case KILN_BASIS_TARGET_ETC2_RGBA:
        return &conv_etc2_rgba;
    case KILN_BASIS_TARGET_EAC_R11:
        return &conv_r11;
    case KILN_BASIS_TARGET_EAC_RG11:
        return &conv_rg11;
    default:
        return NULL;
    }
}
