/* etc_decode.c — ETC1, ETC2 RGB8, ETC2 RGBA8 and EAC R11/RG11 block decoders (Khronos Data
 * Format Specification 1.3, section 21.4 "ETC1" and chapter 22 "ETC2": individual, differential,
 * T, H and planar modes; EAC alpha and the unsigned 11-bit EAC). Blocks are big-endian: byte 0
 * holds bits 63..56. Texel indices are column-major (texel (x, y) is bit x * 4 + y of each
 * index plane), as the specification lays them out. Every bit pattern decodes. */
#include "codec/block_decode.h"

/* The intensity modifier tables of ETC1 (Data Format Specification table 115), as {a, b}:
 * index 0 is +a, 1 is +b, 2 is -a, 3 is -b. */
static const int16_t etc1_modifiers[8][2] = {{2, 8},   {5, 17},  {9, 29},   {13, 42},
                                             {18, 60}, {24, 80}, {33, 106}, {47, 183}};

/* The distances of the T and H modes (Data Format Specification table 119). */
static const uint8_t etc2_distances[8] = {3, 6, 11, 16, 23, 32, 41, 64};

/* The EAC modifier tables (Data Format Specification table 121). */
static const int8_t eac_modifiers[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11},  {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10},  {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},   {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},   {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8}};

static uint64_t load_u64be(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

static uint32_t bits_at(uint64_t v, int lo, int count)
{
    return (uint32_t)(v >> lo) & ((1u << count) - 1u);
}

static uint8_t clamp255(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }
static int32_t ext4(uint32_t c) { return (int32_t)(c << 4 | c); }
static int32_t ext5(uint32_t c) { return (int32_t)(c << 3 | c >> 2); }
static int32_t ext6(uint32_t c) { return (int32_t)(c << 2 | c >> 4); }
static int32_t ext7(uint32_t c) { return (int32_t)(c << 1 | c >> 6); }

/* The 2-bit index of texel (x, y): MSB plane in bits 31..16, LSB plane in bits 15..0. */
static uint32_t texel_index(uint64_t v, int x, int y)
{
    int i = x * 4 + y;
    return (uint32_t)((v >> (16 + i)) & 1) << 1 | (uint32_t)((v >> i) & 1);
}

static void put_texel(uint8_t rgba[64], int x, int y, int32_t r, int32_t g, int32_t b)
{
    uint8_t *p = rgba + (y * 4 + x) * 4;
    p[0] = clamp255(r);
    p[1] = clamp255(g);
    p[2] = clamp255(b);
    p[3] = 255;
}

/* Individual and differential modes: two sub-blocks, a base colour and a modifier table each. */
static void decode_subblocks(uint64_t v, const int32_t base[2][3], uint8_t rgba[64])
{
    uint32_t table[2] = {bits_at(v, 37, 3), bits_at(v, 34, 3)};
    bool flip = (v >> 32) & 1;
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 4; x++) {
            int s = flip ? y >= 2 : x >= 2;
            uint32_t idx = texel_index(v, x, y);
            int32_t m = etc1_modifiers[table[s]][idx & 1];
            if (idx & 2) m = -m;
            put_texel(rgba, x, y, base[s][0] + m, base[s][1] + m, base[s][2] + m);
        }
    }
}

/* T and H modes: four paint colours picked directly by the texel index. */
static void decode_paint(uint64_t v, const int32_t paint[4][3], uint8_t rgba[64])
{
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 4; x++) {
            const int32_t *c = paint[texel_index(v, x, y)];
            put_texel(rgba, x, y, c[0], c[1], c[2]);
        }
    }
}

static void decode_t_mode(uint64_t v, uint8_t rgba[64])
{
    int32_t c1[3] = {ext4(bits_at(v, 59, 2) << 2 | bits_at(v, 56, 2)), ext4(bits_at(v, 52, 4)),
                     ext4(bits_at(v, 48, 4))};
    int32_t c2[3] = {ext4(bits_at(v, 44, 4)), ext4(bits_at(v, 40, 4)), ext4(bits_at(v, 36, 4))};
    int32_t d = etc2_distances[bits_at(v, 34, 2) << 1 | bits_at(v, 32, 1)];
    int32_t paint[4][3];
    for (int k = 0; k < 3; k++) {
        paint[0][k] = c1[k];
        paint[1][k] = c2[k] + d;
        paint[2][k] = c2[k];
        paint[3][k] = c2[k] - d;
    }
    decode_paint(v, paint, rgba);
}

static void decode_h_mode(uint64_t v, uint8_t rgba[64])
{
    uint32_t r1 = bits_at(v, 59, 4), g1 = bits_at(v, 56, 3) << 1 | bits_at(v, 52, 1);
    uint32_t b1 = bits_at(v, 51, 1) << 3 | bits_at(v, 47, 3);
    uint32_t r2 = bits_at(v, 43, 4), g2 = bits_at(v, 39, 4), b2 = bits_at(v, 35, 4);
    /* The distance's lowest bit is the order of the two colours as 12-bit numbers. */
    uint32_t order = (r1 << 8 | g1 << 4 | b1) >= (r2 << 8 | g2 << 4 | b2);
    int32_t d = etc2_distances[bits_at(v, 34, 1) << 2 | bits_at(v, 32, 1) << 1 | order];
    int32_t c1[3] = {ext4(r1), ext4(g1), ext4(b1)}, c2[3] = {ext4(r2), ext4(g2), ext4(b2)};
    int32_t paint[4][3];
    for (int k = 0; k < 3; k++) {
        paint[0][k] = c1[k] + d;
        paint[1][k] = c1[k] - d;
        paint[2][k] = c2[k] + d;
        paint[3][k] = c2[k] - d;
    }
    decode_paint(v, paint, rgba);
}

static void decode_planar(uint64_t v, uint8_t rgba[64])
{
    int32_t o[3] = {ext6(bits_at(v, 57, 6)), ext7(bits_at(v, 56, 1) << 6 | bits_at(v, 49, 6)),
                    ext6(bits_at(v, 48, 1) << 5 | bits_at(v, 43, 2) << 3 | bits_at(v, 39, 3))};
    int32_t h[3] = {ext6(bits_at(v, 34, 5) << 1 | bits_at(v, 32, 1)), ext7(bits_at(v, 25, 7)),
                    ext6(bits_at(v, 19, 6))};
    int32_t w[3] = {ext6(bits_at(v, 13, 6)), ext7(bits_at(v, 6, 7)), ext6(bits_at(v, 0, 6))};
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 4; x++) {
            int32_t c[3];
            for (int k = 0; k < 3; k++) {
                int32_t t = x * (h[k] - o[k]) + y * (w[k] - o[k]) + 4 * o[k] + 2;
                c[k] = t < 0 ? 0 : t >> 2; /* below 0 clamps anyway; no shift of negatives */
            }
            put_texel(rgba, x, y, c[0], c[1], c[2]);
        }
    }
}

void kiln_etc2_rgb_decode_block(const uint8_t *in, uint8_t rgba[64])
{
    uint64_t v = load_u64be(in);
    int32_t base[2][3];
    if (!((v >> 33) & 1)) { /* individual: two 4-bit colours per channel */
        for (int k = 0; k < 3; k++) {
            base[0][k] = ext4(bits_at(v, 60 - 8 * k, 4));
            base[1][k] = ext4(bits_at(v, 56 - 8 * k, 4));
        }
        decode_subblocks(v, base, rgba);
        return;
    }
    /* Differential: a 5-bit colour and a signed 3-bit delta per channel. A second colour out of
     * 0..31 in R, else G, else B selects the T, H or planar mode. */
    int32_t c[3], c2[3];
    for (int k = 0; k < 3; k++) {
        c[k] = (int32_t)bits_at(v, 59 - 8 * k, 5);
        int32_t d = (int32_t)bits_at(v, 56 - 8 * k, 3);
        c2[k] = c[k] + (d >= 4 ? d - 8 : d);
    }
    if (c2[0] < 0 || c2[0] > 31) {
        decode_t_mode(v, rgba);
    } else if (c2[1] < 0 || c2[1] > 31) {
        decode_h_mode(v, rgba);
    } else if (c2[2] < 0 || c2[2] > 31) {
        decode_planar(v, rgba);
    } else {
        for (int k = 0; k < 3; k++) {
            base[0][k] = ext5((uint32_t)c[k]);
            base[1][k] = ext5((uint32_t)c2[k]);
        }
        decode_subblocks(v, base, rgba);
    }
}

void kiln_etc1_decode_block(const uint8_t *in, uint8_t rgba[64])
{
    /* Every valid ETC1 block decodes the same as ETC2; the ones ETC1 leaves undefined (a
     * differential colour out of range) decode as ETC2 reads them. */
    kiln_etc2_rgb_decode_block(in, rgba);
}

/* The 16 values of an EAC block (8 bytes) at 8 bits (alpha) or, with eleven, 11 bits unsigned;
 * in texel order (row by row). */
static void eac_values(const uint8_t *in, bool eleven, int32_t out[16])
{
    uint64_t v = load_u64be(in);
    int32_t base = in[0], mult = in[1] >> 4;
    const int8_t *mod = eac_modifiers[in[1] & 15];
    for (int i = 0; i < 16; i++) {
        /* Texel (x, y) = i: 3-bit indices from bit 47 down, column-major. */
        int x = i & 3, y = i >> 2;
        int32_t m = mod[bits_at(v, 45 - 3 * (x * 4 + y), 3)];
        int32_t val;
        if (!eleven) {
            val = base + m * mult;
            out[i] = val < 0 ? 0 : val > 255 ? 255 : val;
        } else {
            /* R11 unsigned: base * 8 + 4, multiplier 0 counts as 1/8. */
            val = base * 8 + 4 + (mult ? m * mult * 8 : m);
            out[i] = val < 0 ? 0 : val > 2047 ? 2047 : val;
        }
    }
}

static uint8_t unorm11_to_8(int32_t v) { return (uint8_t)((v * 255 + 1023) / 2047); }

void kiln_etc2_rgba_decode_block(const uint8_t *in, uint8_t rgba[64])
{
    int32_t a[16];
    eac_values(in, false, a);
    kiln_etc2_rgb_decode_block(in + 8, rgba);
    for (int i = 0; i < 16; i++) rgba[i * 4 + 3] = (uint8_t)a[i];
}

void kiln_eac_alpha_values(const uint8_t *in, uint8_t alpha[16])
{
    int32_t a[16];
    eac_values(in, false, a);
    for (int i = 0; i < 16; i++) alpha[i] = (uint8_t)a[i];
}

void kiln_eac_r11_values(const uint8_t *in, uint16_t r11[16])
{
    int32_t r[16];
    eac_values(in, true, r);
    for (int i = 0; i < 16; i++) r11[i] = (uint16_t)r[i];
}

void kiln_eac_r11_decode_block(const uint8_t *in, uint8_t rgba[64])
{
    int32_t r[16];
    eac_values(in, true, r);
    for (int i = 0; i < 16; i++) {
        rgba[i * 4 + 0] = unorm11_to_8(r[i]);
        rgba[i * 4 + 1] = 0;
        rgba[i * 4 + 2] = 0;
        rgba[i * 4 + 3] = 255;
    }
}

void kiln_eac_rg11_decode_block(const uint8_t *in, uint8_t rgba[64])
{
    int32_t r[16], g[16];
    eac_values(in, true, r);
    eac_values(in + 8, true, g);
    for (int i = 0; i < 16; i++) {
        rgba[i * 4 + 0] = unorm11_to_8(r[i]);
        rgba[i * 4 + 1] = unorm11_to_8(g[i]);
        rgba[i * 4 + 2] = 0;
        rgba[i * 4 + 3] = 255;
    }
}
