/* uastc_etc.c — UASTC to ETC1, ETC2 EAC alpha and EAC R11 (basisu v1.15's transcoder choices,
 * so that blocks are bit-identical). ETC1 takes flip, differential mode and intensity tables from
 * the block's hints; each subblock's base colour is the mean of its decoded texels rounded to 4 or
 * 5 bits and nudged by the bias hint; selectors go to the nearest palette entry by luma. The EAC
 * alpha block takes table and multiplier from the hint and centres the base between the alpha
 * extremes. EAC R11 has no hint: four tables are tried, each with base and multiplier fitted to
 * the channel's range, and the smallest squared error wins. Layouts: Khronos Data Format
 * Specification, ETC1 and ETC2 chapters. */
#include <math.h>
#include <string.h>

#include "codec/uastc.h"

/* ETC1 intensity modifier tables, ETC2 EAC modifier tables (the specifications' constants). */
static const int etc1_inten[8][4] = {{-8, -2, 2, 8},       {-17, -5, 5, 17},    {-29, -9, 9, 29},
                                     {-42, -13, 13, 42},   {-60, -18, 18, 60},  {-80, -24, 24, 80},
                                     {-106, -33, 33, 106}, {-183, -47, 47, 183}};
static const int eac_mod[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11},  {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10},  {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},   {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},   {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8}};

static int clamp255(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

/* ---- ETC1 ----------------------------------------------------------------------------------- */

/* The bias hint: a small per-channel nudge of each subblock's quantized colour (0..limit). Codes
 * 2..31 other than the listed ones nudge all three channels by a base-3 digit minus one. */
static void etc1_bias(int col[3], unsigned bias, int limit, unsigned sub)
{
    static const int divs[3] = {1, 3, 9};
    for (int c = 0; c < 3; c++) {
        int delta;
        switch (bias) {
        case 2:
            delta = sub ? 0 : (c == 0 ? -1 : 0);
            break;
        case 5:
            delta = sub ? 0 : (c == 1 ? -1 : 0);
            break;
        case 6:
            delta = sub ? 0 : (c == 2 ? -1 : 0);
            break;
        case 7:
            delta = sub ? 0 : (c == 0 ? 1 : 0);
            break;
        case 11:
            delta = sub ? 0 : (c == 1 ? 1 : 0);
            break;
        case 15:
            delta = sub ? 0 : (c == 2 ? 1 : 0);
            break;
        case 18:
            delta = sub ? (c == 0 ? -1 : 0) : 0;
            break;
        case 19:
            delta = sub ? (c == 1 ? -1 : 0) : 0;
            break;
        case 20:
            delta = sub ? (c == 2 ? -1 : 0) : 0;
            break;
        case 21:
            delta = sub ? (c == 0 ? 1 : 0) : 0;
            break;
        case 24:
            delta = sub ? (c == 1 ? 1 : 0) : 0;
            break;
        case 8:
            delta = sub ? (c == 2 ? 1 : 0) : 0;
            break;
        case 10:
            delta = -2;
            break;
        case 27:
            delta = sub ? 0 : -1;
            break;
        case 28:
            delta = sub ? -1 : 1;
            break;
        case 29:
            delta = sub ? 1 : 0;
            break;
        case 30:
            delta = sub ? -1 : 0;
            break;
        case 31:
            delta = sub ? 0 : 1;
            break;
        default:
            delta = (int)((bias / (unsigned)divs[c]) % 3) - 1;
            break;
        }
        int v = col[c];
        if (v == 0) v += delta == -2 ? 3 : delta + 1;
        else if (v == limit) v += delta - 1;
        else {
            v += delta;
            if (v < 0 || v > limit) v = v - 2 * delta;
        }
        col[c] = v < 0 ? 0 : v > limit ? limit : v;
    }
}

/* The four colours of subblock `sub` of a packed ETC1 block (palette order: most negative
 * modifier first). */
static void etc1_palette(const uint8_t blk[8], unsigned sub, int pal[4][3])
{
    int base[3];
    unsigned table = sub ? (blk[3] >> 2) & 7u : blk[3] >> 5;
    for (int c = 0; c < 3; c++) {
        if (blk[3] & 2u) {
            int v = blk[c] >> 3;
            if (sub) {
                int d = blk[c] & 7;
                v += d >= 4 ? d - 8 : d;
                v &= 31;
            }
            base[c] = (v << 3) | (v >> 2);
        } else {
            int v = sub ? blk[c] & 15 : blk[c] >> 4;
            base[c] = (v << 4) | v;
        }
    }
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 3; c++) pal[i][c] = clamp255(base[c] + etc1_inten[table][i]);
}

void kiln_uastc_to_etc1(const kiln_uastc_block *b, const uint8_t rgba[64], uint8_t out[8])
{
    memset(out, 0, 8);
    if (b->mode == KILN_UASTC_MODE_SOLID) {
        static const uint8_t sels[4][4] = {
            {255, 255, 255, 255}, {255, 255, 0, 0}, {0, 0, 0, 0}, {0, 0, 255, 255}};
        out[3] = (uint8_t)((b->etc1_diff << 1) | (b->etc1_inten0 << 5) | (b->etc1_inten0 << 2));
        const uint8_t col[3] = {b->etc1_r, b->etc1_g, b->etc1_b};
        for (int c = 0; c < 3; c++)
            out[c] = b->etc1_diff ? (uint8_t)(col[c] << 3) : (uint8_t)(col[c] | (col[c] << 4));
        memcpy(out + 4, sels[b->etc1_selector & 3u], 4);
        return;
    }
    const bool flip = b->etc1_flip, diff = b->etc1_diff;
    out[3] =
        (uint8_t)((flip ? 1 : 0) | (diff << 1) | (b->etc1_inten0 << 5) | (b->etc1_inten1 << 2));
    const int limit = diff ? 31 : 15;
    int col[2][3];
    for (unsigned s = 0; s < 2; s++) {
        unsigned sum[3] = {0, 0, 0};
        for (unsigned y = 0; y < 4; y++)
            for (unsigned x = 0; x < 4; x++)
                if ((flip ? y >> 1 : x >> 1) == s)
                    for (int c = 0; c < 3; c++) sum[c] += rgba[(y * 4 + x) * 4 + c];
        for (int c = 0; c < 3; c++)
            col[s][c] = (int)((sum[c] * (unsigned)limit + 1020) / (8 * 255));
        if (b->has_etc1_bias) etc1_bias(col[s], b->etc1_bias, limit, s);
    }
    for (int c = 0; c < 3; c++) {
        if (diff) {
            int d = col[1][c] - col[0][c];
            d = d < -4 ? -4 : d > 3 ? 3 : d;
            out[c] = (uint8_t)((col[0][c] << 3) | (d < 0 ? d + 8 : d));
        } else {
            out[c] = (uint8_t)(col[1][c] | (col[0][c] << 4));
        }
    }
    /* Selectors: nearest palette entry by luma (54 R + 183 G + 19 B), thresholds halfway. */
    unsigned lo = 0, hi = 0;
    for (unsigned s = 0; s < 2; s++) {
        int pal[4][3];
        etc1_palette(out, s, pal);
        unsigned py[4];
        for (int i = 0; i < 4; i++)
            py[i] = (unsigned)(pal[i][0] * 54 + pal[i][1] * 183 + pal[i][2] * 19);
        for (unsigned y = 0; y < 4; y++) {
            for (unsigned x = 0; x < 4; x++) {
                if ((flip ? y >> 1 : x >> 1) != s) continue;
                const uint8_t *p = &rgba[(y * 4 + x) * 4];
                unsigned l = p[0] * 108u + p[1] * 366u + p[2] * 38u;
                unsigned n = (l < py[0] + py[1]) + (l < py[1] + py[2]) + (l < py[2] + py[3]);
                static const uint8_t to_etc[4] = {1, 0, 2, 3};
                unsigned t = to_etc[n], bitpos = x * 4 + y;
                lo |= (t & 1u) << bitpos;
                hi |= (t >> 1) << bitpos;
            }
        }
    }
    out[4] = (uint8_t)(hi >> 8);
    out[5] = (uint8_t)hi;
    out[6] = (uint8_t)(lo >> 8);
    out[7] = (uint8_t)lo;
}

/* ---- EAC ------------------------------------------------------------------------------------ */

/* Writes an EAC block: base, multiplier and table, then 16 3-bit selectors (column-major texel
 * order, first texel in the top bits), big-endian. sel is in raster order. */
static void eac_put(uint8_t out[8], int base, int mul, int table, const uint8_t sel[16])
{
    uint64_t bits = 0;
    for (unsigned i = 0; i < 16; i++) {
        unsigned x = i & 3u, y = i >> 2;
        bits |= (uint64_t)sel[i] << (45 - 3 * (x * 4 + y));
    }
    out[0] = (uint8_t)base;
    out[1] = (uint8_t)((mul << 4) | table);
    for (int k = 0; k < 6; k++) out[2 + k] = (uint8_t)(bits >> (40 - 8 * k));
}

static void eac_solid(uint8_t out[8], int v, int mul)
{
    uint8_t sel[16];
    memset(sel, 4, 16); /* table 13's modifier 4 is 0 */
    eac_put(out, v, mul, 13, sel);
}

/* Base of a table's palette so that it spans [lo, hi]: where the table's zero falls between its
 * most negative (selector 3) and most positive (selector 7) modifiers, in float as basisu does. */
static int eac_center(int lo, int hi, int table)
{
    const float range = (float)(eac_mod[table][7] - eac_mod[table][3]);
    const float t = (float)(0 - eac_mod[table][3]) / range;
    return (int)roundf((float)lo + ((float)hi - (float)lo) * t);
}

void kiln_uastc_to_eac_a8(const kiln_uastc_block *b, const uint8_t rgba[64], uint8_t out[8])
{
    static const uint8_t has_alpha[KILN_UASTC_MODE_COUNT] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                                             1, 1, 1, 1, 1, 1, 1, 1, 0};
    if (!has_alpha[b->mode] || b->mode == KILN_UASTC_MODE_SOLID) {
        eac_solid(out, b->mode == KILN_UASTC_MODE_SOLID ? b->solid[3] : 255, 1);
        return;
    }
    int lo = 255, hi = 0;
    for (int i = 0; i < 16; i++) {
        int a = rgba[i * 4 + 3];
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    }
    if (lo == hi) {
        eac_solid(out, lo, 1);
        return;
    }
    const int table = b->etc2_hints & 15, mul = b->etc2_hints >> 4;
    const int center = eac_center(lo, hi, table);
    int vals[8];
    for (int j = 0; j < 8; j++) vals[j] = clamp255(center + eac_mod[table][j] * mul);
    uint8_t sel[16];
    for (int i = 0; i < 16; i++) {
        int a = rgba[i * 4 + 3], best = 0x7FFFFFFF;
        for (int j = 0; j < 8; j++) {
            int e = (vals[j] > a ? vals[j] - a : a - vals[j]) * 8 + j;
            if (e < best) best = e;
        }
        sel[i] = (uint8_t)(best & 7);
    }
    eac_put(out, center, mul, table, sel);
}

void kiln_uastc_eac_r11_encode(const uint8_t rgba[64], unsigned chan, uint8_t out[8])
{
    int lo = 255, hi = 0;
    for (int i = 0; i < 16; i++) {
        int a = rgba[i * 4 + chan];
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    }
    if (lo == hi) {
        eac_solid(out, lo, 0);
        return;
    }
    uint8_t sel[16];
    if (hi - lo <= 5) {
        /* Table 13 with multiplier 1 holds six consecutive values: exact. */
        static const uint8_t s_sels[6] = {2, 1, 0, 4, 5, 6};
        int base = clamp255(hi - 2);
        for (int i = 0; i < 16; i++) {
            int k = rgba[i * 4 + chan] - (base - 3);
            sel[i] = s_sels[k < 0 ? 0 : k > 5 ? 5 : k];
        }
        eac_put(out, base, 1, 13, sel);
        return;
    }
    static const int tables[4] = {2, 8, 11, 13};
    int base[4], mul[4];
    unsigned err[4] = {0, 0, 0, 0};
    uint8_t sels[4][16];
    for (int t = 0; t < 4; t++) {
        const float range = (float)(eac_mod[tables[t]][7] - eac_mod[tables[t]][3]);
        base[t] = clamp255(eac_center(lo, hi, tables[t]));
        int m = (int)roundf((float)(unsigned)(hi - lo) / range);
        mul[t] = m < 1 ? 1 : m > 15 ? 15 : m;
    }
    for (int i = 0; i < 16; i++) {
        int a = rgba[i * 4 + chan];
        for (int t = 0; t < 4; t++) {
            unsigned best = 0xFFFFFFFFu;
            for (int s = 0; s < 8; s++) {
                /* Only values near the ends of the range are clamped (basisu's shortcut). */
                int v = mul[t] * eac_mod[tables[t]][s] + base[t];
                if (a < 7 || a > 255 - 7) v = clamp255(v);
                unsigned e = ((unsigned)(v > a ? v - a : a - v) << 3) | (unsigned)s;
                if (e < best) best = e;
            }
            sels[t][i] = (uint8_t)(best & 7u);
            err[t] += (best >> 3) * (best >> 3);
        }
    }
    int bt = 0;
    for (int t = 1; t < 4; t++)
        if (err[t] < err[bt]) bt = t;
    eac_put(out, base[bt], mul[bt], tables[bt], sels[bt]);
}
