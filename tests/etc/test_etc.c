/* test_etc.c — kiln's ETC1, ETC2 and EAC block decoders against values computed by hand from
 * the Khronos Data Format Specification (ETC1 section 21.4, ETC2 chapter 22): one block per mode
 * with the bits laid out in the comments and the expected texels worked out on paper, clamping
 * at both ends, the 11-bit EAC formula with multiplier 0, and random blocks that must all decode.
 */
#include "support.h"

#include <string.h>

#include "codec/block_decode.h"

static void assert_texel(const uint8_t *rgba, int x, int y, int r, int g, int b, int a)
{
    const uint8_t *p = rgba + (y * 4 + x) * 4;
    if (p[0] != r || p[1] != g || p[2] != b || p[3] != a)
        fail_msg("texel (%d, %d): (%d, %d, %d, %d), expected (%d, %d, %d, %d)", x, y, p[0], p[1],
                 p[2], p[3], r, g, b, a);
}

static void etc1_individual_mode_matches_spec(void **state)
{
    (void)state;
    /* R1 10, R2 5, G1 3, G2 12, B1 15, B2 0 (x 17); tables 2 {9, 29} and 7 {47, 183}; no flip.
     * Indices: (0,0) 3 = -b, (1,0) 1 = +b, (2,0) 2 = -a, (3,3) 3 = -b, the rest 0 = +a.
     * MSB plane 0x8101, LSB plane 0x8011. */
    const uint8_t block[8] = {0xA5, 0x3C, 0xF0, 0x5C, 0x81, 0x01, 0x80, 0x11};
    uint8_t rgba[64];
    kiln_etc1_decode_block(block, rgba);
    assert_texel(rgba, 0, 0, 141, 22, 226, 255); /* (170, 51, 255) - 29 */
    assert_texel(rgba, 1, 0, 199, 80, 255, 255); /* + 29, blue clamped */
    assert_texel(rgba, 0, 1, 179, 60, 255, 255); /* + 9 */
    assert_texel(rgba, 2, 0, 38, 157, 0, 255);   /* (85, 204, 0) - 47 */
    assert_texel(rgba, 2, 1, 132, 251, 47, 255); /* + 47 */
    assert_texel(rgba, 3, 3, 0, 21, 0, 255);     /* - 183, clamped */
    uint8_t etc2[64];
    kiln_etc2_rgb_decode_block(block, etc2);
    assert_memory_equal(rgba, etc2, 64);
}

static void etc1_differential_mode_with_flip_matches_spec(void **state)
{
    (void)state;
    /* R 20 dR -3, G 0 dG +2, B 31 dB 0: bases (165, 0, 255) and (140, 16, 255); tables 0 {2, 8}
     * and 5 {24, 80}; flip: top two rows sub-block 0. Texel (1,3) has index 3 = -b. */
    const uint8_t block[8] = {0xA5, 0x02, 0xF8, 0x17, 0x00, 0x80, 0x00, 0x80};
    uint8_t rgba[64];
    kiln_etc1_decode_block(block, rgba);
    assert_texel(rgba, 0, 0, 167, 2, 255, 255);
    assert_texel(rgba, 3, 1, 167, 2, 255, 255);
    assert_texel(rgba, 0, 2, 164, 40, 255, 255);
    assert_texel(rgba, 1, 3, 60, 0, 175, 255);
}

static void etc2_t_mode_matches_spec(void **state)
{
    (void)state;
    /* R field 00001 + dR 110 (-2) underflows: T mode. R1a 01, R1b 10: R1 6; G1 10, B1 3;
     * C2 (15, 8, 0); distance index 101 = 5: 32. Paint: C1, C2 + d, C2, C2 - d.
     * Texels (0..3, 0) take indices 0..3: MSB plane 0x1100, LSB plane 0x1010. */
    const uint8_t block[8] = {0x0E, 0xA3, 0xF8, 0x0B, 0x11, 0x00, 0x10, 0x10};
    uint8_t rgba[64];
    kiln_etc2_rgb_decode_block(block, rgba);
    assert_texel(rgba, 0, 0, 102, 170, 51, 255);
    assert_texel(rgba, 1, 0, 255, 168, 32, 255);
    assert_texel(rgba, 2, 0, 255, 136, 0, 255);
    assert_texel(rgba, 3, 0, 223, 104, 0, 255);
    assert_texel(rgba, 3, 3, 102, 170, 51, 255);
}

static void etc2_h_mode_matches_spec(void **state)
{
    (void)state;
    /* R 9 + 3 fits; G field 00001 + dG 100 (-4) underflows: H mode. C1 (9, 6, 9), C2 (2, 7, 13);
     * C1 >= C2 as 12-bit numbers gives the distance's low bit: da 1, db 0, 1 -> 5: 32.
     * Paint: C1 + d, C1 - d, C2 + d, C2 - d. */
    const uint8_t block[8] = {0x4B, 0x0C, 0x93, 0xEE, 0x11, 0x00, 0x10, 0x10};
    uint8_t rgba[64];
    kiln_etc2_rgb_decode_block(block, rgba);
    assert_texel(rgba, 0, 0, 185, 134, 185, 255);
    assert_texel(rgba, 1, 0, 121, 70, 121, 255);
    assert_texel(rgba, 2, 0, 66, 151, 253, 255);
    assert_texel(rgba, 3, 0, 2, 87, 189, 255);
}

static void etc2_h_mode_order_bit_picks_the_distance(void **state)
{
    (void)state;
    /* The block above with da cleared (byte 3 bit 2): distance index (0, 0, order 1) = 1: 6. */
    const uint8_t block[8] = {0x4B, 0x0C, 0x93, 0xEA, 0x11, 0x00, 0x10, 0x10};
    uint8_t rgba[64];
    kiln_etc2_rgb_decode_block(block, rgba);
    assert_texel(rgba, 0, 0, 159, 108, 159, 255); /* (153, 102, 153) + 6 */
    assert_texel(rgba, 3, 0, 28, 113, 215, 255);  /* (34, 119, 221) - 6 */
}

static void etc2_planar_mode_matches_spec(void **state)
{
    (void)state;
    /* R and G fit, B field 00000 + dB 100 underflows: planar. O (32, 64, 1) -> (130, 129, 4),
     * H (63, 0, 0) -> (255, 0, 0), V (0, 127, 63) -> (0, 255, 255).
     * texel = (x (H - O) + y (V - O) + 4 O + 2) >> 2. */
    const uint8_t block[8] = {0x41, 0x00, 0x04, 0xFF, 0x00, 0x00, 0x1F, 0xFF};
    uint8_t rgba[64];
    kiln_etc2_rgb_decode_block(block, rgba);
    assert_texel(rgba, 0, 0, 130, 129, 4, 255);
    assert_texel(rgba, 3, 0, 224, 32, 1, 255);
    assert_texel(rgba, 0, 3, 33, 224, 192, 255);
    assert_texel(rgba, 3, 3, 126, 127, 189, 255);
}

/* An EAC block: base, multiplier, table and 16 indices given column-major (x * 4 + y). */
static void eac_block(uint8_t out[8], int base, int mult, int table, const int idx[16])
{
    uint64_t bits = 0;
    for (int j = 0; j < 16; j++) bits |= (uint64_t)idx[j] << (45 - 3 * j);
    out[0] = (uint8_t)base;
    out[1] = (uint8_t)(mult << 4 | table);
    for (int i = 0; i < 6; i++) out[2 + i] = (uint8_t)(bits >> (40 - 8 * i));
}

static void eac_alpha_matches_spec_and_clamps(void **state)
{
    (void)state;
    /* Table 13: {-1, -2, -3, -10, 0, 1, 2, 9}. */
    int idx[16];
    for (int j = 0; j < 16; j++) idx[j] = 4;
    idx[0] = 3; /* (0,0): 100 - 30 */
    idx[4] = 7; /* (1,0): 100 + 27 */
    idx[1] = 0; /* (0,1): 100 - 3 */
    uint8_t block[16], rgba[64];
    eac_block(block, 100, 3, 13, idx);
    /* Colour: individual mode, all zero: base 0, table 0, index 0 (+2) everywhere. */
    memset(block + 8, 0, 8);
    kiln_etc2_rgba_decode_block(block, rgba);
    assert_texel(rgba, 0, 0, 2, 2, 2, 70);
    assert_texel(rgba, 1, 0, 2, 2, 2, 127);
    assert_texel(rgba, 0, 1, 2, 2, 2, 97);
    assert_texel(rgba, 3, 3, 2, 2, 2, 100);

    /* Table 0 {-3, -6, -9, -15, 2, 5, 8, 14}, base 250, multiplier 15. */
    idx[0] = 7; /* 250 + 210: 255 */
    idx[4] = 3; /* 250 - 225: 25 */
    eac_block(block, 250, 15, 0, idx);
    uint8_t a[16];
    kiln_eac_alpha_values(block, a);
    assert_int_equal(a[0], 255);
    assert_int_equal(a[1], 25);
    assert_int_equal(a[5], 255); /* index 4: +2 * 15 */
}

static void eac_r11_matches_spec_with_multiplier_zero(void **state)
{
    (void)state;
    int idx[16];
    for (int j = 0; j < 16; j++) idx[j] = 4;
    idx[0] = 7;
    idx[4] = 3;
    uint8_t block[16];
    uint16_t r[16];
    /* Multiplier 0 counts as 1/8: base * 8 + 4 + modifier. */
    eac_block(block, 100, 0, 13, idx);
    kiln_eac_r11_values(block, r);
    assert_int_equal(r[0], 813);
    assert_int_equal(r[1], 794);
    assert_int_equal(r[2], 804);
    /* Multiplier 2: base * 8 + 4 + modifier * 2 * 8. */
    eac_block(block, 100, 2, 13, idx);
    kiln_eac_r11_values(block, r);
    assert_int_equal(r[0], 948);
    assert_int_equal(r[1], 644);
    /* Clamping to 0..2047. */
    eac_block(block, 255, 15, 0, idx);
    kiln_eac_r11_values(block, r);
    assert_int_equal(r[0], 2047);
    eac_block(block, 0, 15, 0, idx);
    kiln_eac_r11_values(block, r);
    assert_int_equal(r[1], 0);

    /* 8 bits: round(v * 255 / 2047); RG11 is R then G. */
    uint8_t rgba[64];
    eac_block(block, 100, 0, 13, idx);
    eac_block(block + 8, 255, 15, 0, idx);
    kiln_eac_rg11_decode_block(block, rgba);
    assert_texel(rgba, 0, 0, 101, 255, 0, 255);
    kiln_eac_r11_decode_block(block, rgba);
    assert_texel(rgba, 0, 0, 101, 0, 0, 255);
}

static void random_blocks_all_decode_opaque(void **state)
{
    (void)state;
    uint32_t seed = 0x2468ace1u;
    uint8_t block[16], rgba[64];
    int modes[4] = {0};
    for (int n = 0; n < 20000; n++) {
        for (int i = 0; i < 16; i++) {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            block[i] = (uint8_t)seed;
        }
        kiln_etc2_rgb_decode_block(block, rgba);
        for (int i = 0; i < 16; i++) assert_int_equal(rgba[i * 4 + 3], 255);
        /* Count the modes the random blocks reached, so the loop covers all of them. */
        if (!(block[3] & 2)) {
            modes[0]++;
        } else {
            int r = (block[0] >> 3) + ((block[0] & 4) ? (block[0] & 7) - 8 : (block[0] & 7));
            int g = (block[1] >> 3) + ((block[1] & 4) ? (block[1] & 7) - 8 : (block[1] & 7));
            modes[r < 0 || r > 31 ? 1 : g < 0 || g > 31 ? 2 : 3]++;
        }
        kiln_etc2_rgba_decode_block(block, rgba);
        kiln_eac_rg11_decode_block(block, rgba);
        for (int i = 0; i < 16; i++) assert_int_equal(rgba[i * 4 + 2], 0);
    }
    for (int m = 0; m < 4; m++) assert_true(modes[m] > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(etc1_individual_mode_matches_spec),
        cmocka_unit_test(etc1_differential_mode_with_flip_matches_spec),
        cmocka_unit_test(etc2_t_mode_matches_spec),
        cmocka_unit_test(etc2_h_mode_matches_spec),
        cmocka_unit_test(etc2_h_mode_order_bit_picks_the_distance),
        cmocka_unit_test(etc2_planar_mode_matches_spec),
        cmocka_unit_test(eac_alpha_matches_spec_and_clamps),
        cmocka_unit_test(eac_r11_matches_spec_with_multiplier_zero),
        cmocka_unit_test(random_blocks_all_decode_opaque),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
