/* basislz_tables_gen.c — a build-time program (run by CMake, never shipped) that computes the
 * tables kiln's ETC1S transcoder looks up, and writes them as C (basislz_tables.h declares
 * them). Each entry is the best fit, by exhaustive search, of a target format's block to the
 * colours an ETC1S endpoint makes with one channel value c (0..31) and intensity table t (0..7),
 * over a range of the four selectors. The searches, their order and their tie-breaking (the
 * first best in the loop order below) are those of basisu's transcoder, so that kiln's blocks
 * equal the reference tool's; the arithmetic is the formats' own (Khronos Data Format
 * Specification: BC1, EAC).
 *
 * Usage: kiln_basislz_tables_gen OUTPUT.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const int etc1s_modifiers[8][4] = {
    {-8, -2, 2, 8},     {-17, -5, 5, 17},   {-29, -9, 9, 29},     {-42, -13, 13, 42},
    {-60, -18, 18, 60}, {-80, -24, 24, 80}, {-106, -33, 33, 106}, {-183, -47, 47, 183}};

/* EAC modifier tables (Data Format Specification table 121). */
static const int eac_modifiers[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11},  {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10},  {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},   {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},   {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8}};

/* The selector ranges (lowest, highest selector a block uses) each table has entries for. */
static const int bc1_ranges[6][2] = {{0, 3}, {1, 3}, {0, 2}, {1, 2}, {2, 3}, {0, 1}};
static const int eac_ranges[4][2] = {{0, 3}, {1, 3}, {0, 2}, {1, 2}};
/* How the four ETC1S selectors map to BC1's four colours in line order (0 = colour 0 ... 3 =
 * colour 1, 1 and 2 the thirds between); the search tries each and keeps the best. */
static const int bc1_mappings[10][4] = {{0, 0, 1, 1}, {0, 0, 1, 2}, {0, 0, 1, 3}, {0, 0, 2, 3},
                                        {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}, {0, 2, 3, 3},
                                        {1, 2, 2, 2}, {1, 2, 3, 3}};

static void colours(int c5, int t, int out[4])
{
    int base = c5 << 3 | c5 >> 2;
    for (int s = 0; s < 4; s++) {
        int v = base + etc1s_modifiers[t][s];
        out[s] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
}

/* BC1 endpoints for one channel of bits 5 or 6: for every (t, c, range, mapping) the (lo, hi)
 * with the least squared error, searched hi-major, and that error. */
static void write_bc1(FILE *f, const char *name, int bits)
{
    int top = (1 << bits) - 1;
    fprintf(f, "const kiln_blz_bc1_fit %s[8 * 32 * 6 * 10] = {\n", name);
    for (int t = 0; t < 8; t++) {
        for (int c = 0; c < 32; c++) {
            int bc[4];
            colours(c, t, bc);
            for (int r = 0; r < 6; r++) {
                for (int m = 0; m < 10; m++) {
                    int best_lo = 0, best_hi = 0;
                    uint64_t best = UINT64_MAX;
                    for (int hi = 0; hi <= top; hi++) {
                        for (int lo = 0; lo <= top; lo++) {
                            int p[4];
                            p[0] = bits == 5 ? (lo << 3 | lo >> 2) : (lo << 2 | lo >> 4);
                            p[3] = bits == 5 ? (hi << 3 | hi >> 2) : (hi << 2 | hi >> 4);
                            p[1] = (p[0] * 2 + p[3]) / 3;
                            p[2] = (p[3] * 2 + p[0]) / 3;
                            uint64_t e = 0;
                            for (int s = bc1_ranges[r][0]; s <= bc1_ranges[r][1]; s++) {
                                int d = bc[s] - p[bc1_mappings[m][s]];
                                e += (uint64_t)(d * d);
                            }
                            if (e < best) {
                                best = e;
                                best_lo = lo;
                                best_hi = hi;
                            }
                        }
                    }
                    fprintf(f, "{%d,%d,%u},", best_lo, best_hi, (unsigned)best);
                }
                fprintf(f, "\n");
            }
        }
    }
    fprintf(f, "};\n");
}

/* Single-colour BC1 fits: for each 8-bit value, the endpoints (lo, hi) whose colour on selector
 * `sel` (0: hi itself; 1: (2 hi + lo) / 3, nudged towards close endpoints) is closest. */
static void write_bc1_match(FILE *f, const char *name, int bits, int sel)
{
    int size = 1 << bits, size0 = sel == 1 ? size : 1;
    fprintf(f, "const kiln_blz_bc1_match %s[256] = {", name);
    for (int i = 0; i < 256; i++) {
        int lowest = 256, best_lo = 0, best_hi = 0;
        for (int lo = 0; lo < size0; lo++) {
            for (int hi = 0; hi < size; hi++) {
                int le = bits == 5 ? (lo << 3 | lo >> 2) : (lo << 2 | lo >> 4);
                int he = bits == 5 ? (hi << 3 | hi >> 2) : (hi << 2 | hi >> 4);
                int e =
                    sel == 1 ? abs((he * 2 + le) / 3 - i) + abs(he - le) * 3 / 100 : abs(he - i);
                if (e < lowest) {
                    lowest = e;
                    best_lo = lo;
                    best_hi = hi;
                }
            }
        }
        fprintf(f, "%s{%d,%d},", i % 16 ? "" : "\n", best_lo, best_hi);
    }
    fprintf(f, "};\n");
}

/* EAC fits (8-bit alpha, or 11-bit R11 from 8-bit values scaled to 11 bits): base, table and
 * multiplier with the least squared error over the range's colours, searched base-major, then
 * multiplier, then table; the 3-bit index each selector takes, packed 3 bits per selector. */
static void write_eac(FILE *f, const char *name, int eleven)
{
    fprintf(f, "const kiln_blz_eac_fit %s[8 * 32 * 4] = {\n", name);
    for (int t = 0; t < 8; t++) {
        for (int c = 0; c < 32; c++) {
            int bc[4];
            colours(c, t, bc);
            for (int r = 0; r < 4; r++) {
                int lo = eac_ranges[r][0], hi = eac_ranges[r][1], n = hi - lo + 1;
                int px[4];
                for (int i = 0; i < n; i++)
                    px[i] = eleven ? (bc[lo + i] * 2047 + 128) / 255 : bc[lo + i];
                uint64_t best = UINT64_MAX;
                int best_base = 0, best_mul = 0, best_table = 0, best_sel[4] = {0};
                for (int base = 0; base < 256; base++) {
                    for (int mul = eleven ? 0 : 1; mul < 16; mul++) {
                        for (int table = 0; table < 16; table++) {
                            uint64_t total = 0;
                            int sel[4] = {0};
                            for (int i = 0; i < n; i++) {
                                unsigned best_s_err = UINT32_MAX;
                                for (int s = 0; s < 8; s++) {
                                    int v;
                                    if (eleven) {
                                        v = (mul ? mul * 8 : 1) * eac_modifiers[table][s] +
                                            base * 8 + 4;
                                        v = v < 0 ? 0 : v > 2047 ? 2047 : v;
                                    } else {
                                        v = mul * eac_modifiers[table][s] + base;
                                        v = v < 0 ? 0 : v > 255 ? 255 : v;
                                    }
                                    unsigned e = (unsigned)abs(px[i] - v);
                                    if (e < best_s_err) {
                                        best_s_err = e;
                                        sel[i] = s;
                                    }
                                }
                                total += (uint64_t)best_s_err * best_s_err;
                                if (total >= best) break;
                            }
                            if (total < best) {
                                best = total;
                                best_base = base;
                                best_mul = mul;
                                best_table = table;
                                for (int i = 0; i < n; i++) best_sel[i] = sel[i];
                            }
                        }
                    }
                }
                unsigned trans = 0;
                for (int i = 0; i < n; i++) trans |= (unsigned)best_sel[i] << (3 * (lo + i));
                fprintf(f, "{%d,%d,%u},", best_base, best_table << 4 | best_mul, trans);
            }
            fprintf(f, "\n");
        }
    }
    fprintf(f, "};\n");
}

/* BC4 fits: (alpha0, alpha1) and each selector's 3-bit index with the least squared error over
 * the range's colours; ties go to the closest endpoints, then to the first in alpha0-major
 * order. basisu's own BC4 table comes from a search it does not publish; its choices differ in
 * ties and in 109 of 1024 entries in error (docs/basis.md), so this one is kiln's. */
static void write_bc4(FILE *f, const char *name)
{
    fprintf(f, "const kiln_blz_bc4_fit %s[8 * 32 * 4] = {\n", name);
    for (int t = 0; t < 8; t++) {
        for (int c = 0; c < 32; c++) {
            int bc[4];
            colours(c, t, bc);
            for (int r = 0; r < 4; r++) {
                uint64_t best = UINT64_MAX;
                int best_a0 = 0, best_a1 = 0, best_span = 1000;
                unsigned best_trans = 0;
                for (int a0 = 0; a0 < 256; a0++) {
                    for (int a1 = 0; a1 < 256; a1++) {
                        int p[8] = {a0, a1};
                        if (a0 > a1) {
                            for (int i = 1; i < 7; i++) p[i + 1] = (a0 * (7 - i) + a1 * i) / 7;
                        } else {
                            for (int i = 1; i < 5; i++) p[i + 1] = (a0 * (5 - i) + a1 * i) / 5;
                            p[6] = 0;
                            p[7] = 255;
                        }
                        uint64_t e = 0;
                        unsigned trans = 0;
                        for (int s = eac_ranges[r][0]; s <= eac_ranges[r][1]; s++) {
                            int be = 1 << 30, bi = 0;
                            for (int i = 0; i < 8; i++) {
                                int d = abs(bc[s] - p[i]);
                                if (d < be) {
                                    be = d;
                                    bi = i;
                                }
                            }
                            e += (uint64_t)be * (uint64_t)be;
                            trans |= (unsigned)bi << (3 * s);
                        }
                        int span = abs(a0 - a1);
                        if (e < best || (e == best && span < best_span)) {
                            best = e;
                            best_a0 = a0;
                            best_a1 = a1;
                            best_span = span;
                            best_trans = trans;
                        }
                    }
                }
                fprintf(f, "{%d,%d,%u},", best_a0, best_a1, best_trans);
            }
            fprintf(f, "\n");
        }
    }
    fprintf(f, "};\n");
}

/* BC7 mode 5 colour endpoints (7 bits) of one channel: like the BC1 fits, with BC7's 2-bit
 * weights (21/64, 43/64); the widest table's extreme selectors weigh 5 times (they are the
 * clamped ends the encoder meant). [(t * 32 + c) * 60 + range * 10 + mapping]. */
static void write_bc7_colour(FILE *f, const char *name)
{
    fprintf(f, "const kiln_blz_bc1_fit %s[8 * 32 * 6 * 10] = {\n", name);
    for (int t = 0; t < 8; t++) {
        for (int c = 0; c < 32; c++) {
            int bc[4];
            colours(c, t, bc);
            for (int r = 0; r < 6; r++) {
                int rlo = bc1_ranges[r][0], rhi = bc1_ranges[r][1];
                for (int m = 0; m < 10; m++) {
                    int best_lo = 0, best_hi = 0;
                    uint64_t best = UINT64_MAX;
                    for (int hi = 0; hi <= 127; hi++) {
                        for (int lo = 0; lo <= 127; lo++) {
                            int p[4];
                            p[0] = lo << 1 | lo >> 6;
                            p[3] = hi << 1 | hi >> 6;
                            p[1] = (p[0] * (64 - 21) + p[3] * 21 + 32) / 64;
                            p[2] = (p[0] * (64 - 43) + p[3] * 43 + 32) / 64;
                            uint64_t e = 0;
                            for (int s = rlo; s <= rhi; s++) {
                                int d = bc[s] - p[bc1_mappings[m][s]];
                                int scale =
                                    (t == 7 && rlo == 0 && rhi == 3 && (s == 0 || s == 3)) ? 5 : 1;
                                e += (uint64_t)(d * d * scale);
                            }
                            if (e < best) {
                                best = e;
                                best_lo = lo;
                                best_hi = hi;
                            }
                        }
                    }
                    fprintf(f, "{%d,%d,%u},", best_lo, best_hi,
                            (unsigned)(best < 0xFFFF ? best : 0xFFFF));
                }
                fprintf(f, "\n");
            }
        }
    }
    fprintf(f, "};\n");
}

/* BC7 mode 5 alpha endpoints (8 bits) and each selector's 2-bit index, 2 bits per selector;
 * [(t * 32 + c) * 6 + range]. */
static void write_bc7_alpha(FILE *f, const char *name)
{
    fprintf(f, "const kiln_blz_bc7_alpha_fit %s[8 * 32 * 6] = {\n", name);
    for (int t = 0; t < 8; t++) {
        for (int c = 0; c < 32; c++) {
            int bc[4];
            colours(c, t, bc);
            for (int r = 0; r < 6; r++) {
                int rlo = bc1_ranges[r][0], rhi = bc1_ranges[r][1];
                int best_lo = 0, best_hi = 0;
                unsigned best_sel = 0;
                uint64_t best = UINT64_MAX;
                for (int hi = 0; hi <= 255; hi++) {
                    for (int lo = 0; lo <= 255; lo++) {
                        int p[4] = {lo, (lo * (64 - 21) + hi * 21 + 32) / 64,
                                    (lo * (64 - 43) + hi * 43 + 32) / 64, hi};
                        uint64_t e = 0;
                        unsigned sel = 0;
                        for (int s = rlo; s <= rhi; s++) {
                            int be = 1 << 30, bk = 0;
                            for (int k = 0; k < 4; k++) {
                                int d = bc[s] - p[k];
                                d *= d;
                                if (t == 7 && rlo == 0 && rhi == 3 && (s == 0 || s == 3)) d *= 5;
                                if (d < be) {
                                    be = d;
                                    bk = k;
                                }
                            }
                            e += (uint64_t)be;
                            sel |= (unsigned)bk << (2 * s);
                        }
                        if (e < best) {
                            best = e;
                            best_lo = lo;
                            best_hi = hi;
                            best_sel = sel;
                        }
                    }
                }
                fprintf(f, "{%d,%d,%u},", best_lo, best_hi, best_sel);
            }
            fprintf(f, "\n");
        }
    }
    fprintf(f, "};\n");
}

/* Single-colour BC7 mode 5 endpoints: for each 8-bit value, the 7-bit (lo, hi) whose weight-1
 * colour (43 lo + 21 hi + 32) / 64 is closest, searched lo-major. */
static void write_bc7_match(FILE *f, const char *name)
{
    fprintf(f, "const kiln_blz_bc1_match %s[256] = {", name);
    for (int i = 0; i < 256; i++) {
        int lowest = 256, best_lo = 0, best_hi = 0;
        for (int lo = 0; lo < 128; lo++) {
            for (int hi = 0; hi < 128; hi++) {
                int le = lo << 1 | lo >> 6, he = hi << 1 | hi >> 6;
                int e = abs(((le * (64 - 21) + he * 21 + 32) >> 6) - i);
                if (e < lowest) {
                    lowest = e;
                    best_lo = lo;
                    best_hi = hi;
                }
            }
        }
        fprintf(f, "%s{%d,%d},", i % 16 ? "" : "\n", best_lo, best_hi);
    }
    fprintf(f, "};\n");
}

/* ASTC's unquantisation of the 48-level endpoint range (trit and 4 bits; Data Format
 * Specification, "Endpoint unquantization"): ISE value v = trit << 4 | bits. */
static int astc_unquant48(int v)
{
    int bit = v & 15, trit = v >> 4;
    int a = (bit & 1) ? 511 : 0, b = (bit >> 1) | ((bit >> 1) << 6);
    int u = (trit * 22 + b) ^ a;
    return (a & 0x80) | (u >> 2);
}

/* ASTC endpoint fits of one channel at 48 levels (ISE values) or 256 (plain 8 bits), weights
 * 0..3 at 0, 21, 43, 64 (of 64) with ASTC's 16-bit interpolation; the widest table's extreme
 * selectors weigh 8 times. [(t * 32 + c) * 60 + range * 10 + mapping]. */
static void write_astc(FILE *f, const char *name, int levels)
{
    static uint8_t pal[256 * 256][4];
    for (int hi = 0; hi < levels; hi++) {
        for (int lo = 0; lo < levels; lo++) {
            int lv = levels == 48 ? astc_unquant48(lo) : lo,
                hv = levels == 48 ? astc_unquant48(hi) : hi;
            unsigned c0 = (unsigned)(lv | lv << 8), c1 = (unsigned)(hv | hv << 8);
            for (unsigned w = 0; w < 4; w++) {
                unsigned ws = w | w << 2 | w << 4;
                if (ws > 32) ws++;
                pal[hi * levels + lo][w] = (uint8_t)(((c0 * (64 - ws) + c1 * ws + 32) / 64) >> 8);
            }
        }
    }
    fprintf(f, "const kiln_blz_bc1_fit %s[8 * 32 * 6 * 10] = {\n", name);
    for (int t = 0; t < 8; t++) {
        for (int c = 0; c < 32; c++) {
            int bc[4];
            colours(c, t, bc);
            for (int r = 0; r < 6; r++) {
                int rlo = bc1_ranges[r][0], rhi = bc1_ranges[r][1];
                uint64_t best[10];
                int best_lo[10] = {0}, best_hi[10] = {0};
                for (int m = 0; m < 10; m++) best[m] = UINT64_MAX;
                for (int hi = 0; hi < levels; hi++) {
                    for (int lo = 0; lo < levels; lo++) {
                        const uint8_t *p = pal[hi * levels + lo];
                        for (int m = 0; m < 10; m++) {
                            uint64_t e = 0;
                            for (int s = rlo; s <= rhi; s++) {
                                int d = bc[s] - p[bc1_mappings[m][s]];
                                int scale =
                                    (t == 7 && rlo == 0 && rhi == 3 && (s == 0 || s == 3)) ? 8 : 1;
                                e += (uint64_t)(d * d * scale);
                            }
                            if (e < best[m]) {
                                best[m] = e;
                                best_lo[m] = lo;
                                best_hi[m] = hi;
                            }
                        }
                    }
                }
                for (int m = 0; m < 10; m++)
                    fprintf(f, "{%d,%d,%u},", best_lo[m], best_hi[m],
                            (unsigned)(best[m] < 0xFFFF ? best[m] : 0xFFFF));
                fprintf(f, "\n");
            }
        }
    }
    fprintf(f, "};\n");
}

/* ASTC's small tables: the 48-level unquantisation; single-colour fits (the nearest level; the
 * (lo, hi) whose weight-1 colour is nearest, lo-major); and the 8-bit code of five trits, the
 * smallest whose decoding (Data Format Specification, "Integer sequence encoding") gives them. */
static void write_astc_small(FILE *f)
{
    fprintf(f, "const uint8_t kiln_blz_astc_unquant48[48] = {");
    for (int v = 0; v < 48; v++) fprintf(f, "%d,", astc_unquant48(v));
    fprintf(f, "};\nconst uint8_t kiln_blz_astc_single0[256] = {");
    for (int i = 0; i < 256; i++) {
        int lowest = 1 << 30, best = 0;
        for (int lo = 0; lo < 48; lo++) {
            int e = abs(astc_unquant48(lo) - i);
            if (e < lowest) {
                lowest = e;
                best = lo;
            }
        }
        fprintf(f, "%d,", best);
    }
    fprintf(f, "};\nconst kiln_blz_bc1_match kiln_blz_astc_single1[256] = {");
    for (int i = 0; i < 256; i++) {
        int lowest = 1 << 30, best_lo = 0, best_hi = 0;
        for (int lo = 0; lo < 48; lo++) {
            for (int hi = 0; hi < 48; hi++) {
                int lv = astc_unquant48(lo), hv = astc_unquant48(hi);
                int l = lv | lv << 8, h = hv | hv << 8;
                int e = abs((((l * (64 - 21)) + h * 21 + 32) / 64 >> 8) - i);
                if (e < lowest) {
                    lowest = e;
                    best_lo = lo;
                    best_hi = hi;
                }
            }
        }
        fprintf(f, "{%d,%d},", best_lo, best_hi);
    }
    int enc[243];
    for (int i = 0; i < 243; i++) enc[i] = -1;
    for (int tv = 0; tv < 256; tv++) {
        int b[8], t[5], c[5];
        for (int i = 0; i < 8; i++) b[i] = tv >> i & 1;
        int cv;
        if (b[2] && b[3] && b[4]) {
            cv = b[5] << 2 | b[6] << 3 | b[7] << 4 | b[0] | b[1] << 1; /* C = T[7:5] T[1:0] */
            t[4] = 2;
            t[3] = 2;
        } else {
            cv = tv & 31;
            if (b[5] && b[6]) {
                t[4] = 2;
                t[3] = b[7];
            } else {
                t[4] = b[7];
                t[3] = b[5] | b[6] << 1;
            }
        }
        for (int i = 0; i < 5; i++) c[i] = cv >> i & 1;
        if (c[0] && c[1]) {
            t[2] = 2;
            t[1] = c[4];
            t[0] = (c[2] & !c[3]) ? (1 | c[3] << 1) : (c[3] << 1 | (c[2] & !c[3]));
        } else if (c[2] && c[3]) {
            t[2] = 2;
            t[1] = 2;
            t[0] = cv & 3;
        } else {
            t[2] = c[4];
            t[1] = c[2] | c[3] << 1;
            t[0] = c[1] << 1 | (c[0] & !c[1]);
        }
        int idx = t[0] + 3 * t[1] + 9 * t[2] + 27 * t[3] + 81 * t[4];
        if (idx < 243 && enc[idx] < 0) enc[idx] = tv;
    }
    fprintf(f, "};\nconst uint8_t kiln_blz_astc_trits[243] = {");
    for (int i = 0; i < 243; i++) fprintf(f, "%d,", enc[i]);
    fprintf(f, "};\n");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTPUT.c\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fprintf(f, "/* Generated by src/codec/gen/basislz_tables_gen.c at build time: do not edit. */\n"
               "#include \"codec/basislz_tables.h\"\n\n");
    write_bc1(f, "kiln_blz_bc1_fit5", 5);
    write_bc1(f, "kiln_blz_bc1_fit6", 6);
    write_bc1_match(f, "kiln_blz_bc1_match5_sel1", 5, 1);
    write_bc1_match(f, "kiln_blz_bc1_match6_sel1", 6, 1);
    write_bc1_match(f, "kiln_blz_bc1_match5_sel0", 5, 0);
    write_bc1_match(f, "kiln_blz_bc1_match6_sel0", 6, 0);
    write_eac(f, "kiln_blz_eac_a8_fit", 0);
    write_eac(f, "kiln_blz_eac_r11_fit", 1);
    write_bc4(f, "kiln_blz_bc4_fits");
    write_bc7_colour(f, "kiln_blz_bc7_colour_fit");
    write_bc7_alpha(f, "kiln_blz_bc7_alpha_fits");
    write_bc7_match(f, "kiln_blz_bc7_match");
    write_astc(f, "kiln_blz_astc_fit47", 48);
    write_astc(f, "kiln_blz_astc_fit255", 256);
    write_astc_small(f);
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
