/* test_transcode.c — kiln_transcode_rgba8 over the BC formats and RGBA8: every texel equals the
 * cook's own decode (kiln_blocks_decode, the driver the encoders are measured with) at sizes
 * with partial edge blocks, hand-derived blocks pin the formulas, pass-through copies, nothing is
 * written past the level, and each bad argument gets its error code. */
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "kiln/kiln_format.h"
#include "process/block.h"

static uint32_t tt_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

typedef struct bc_case {
    uint32_t vk_format;
    kiln_block_format block;
} bc_case;

static const bc_case k_bc_cases[] = {
    {KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK, KILN_BLOCK_BC1},
    {KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK, KILN_BLOCK_BC1},
    {KILN_VK_FORMAT_BC4_UNORM_BLOCK, KILN_BLOCK_BC4},
    {KILN_VK_FORMAT_BC5_UNORM_BLOCK, KILN_BLOCK_BC5},
    {KILN_VK_FORMAT_BC7_UNORM_BLOCK, KILN_BLOCK_BC7},
    {KILN_VK_FORMAT_BC7_SRGB_BLOCK, KILN_BLOCK_BC7},
};

static const uint32_t k_sizes[][2] = {{1, 1}, {4, 4}, {3, 5}, {13, 7}, {16, 9}, {33, 17}, {64, 3}};

static void transcode_bc_equals_cook_decode_with_cropped_edges(void **state)
{
    (void)state;
    uint32_t seed = 0x7a11u;
    for (size_t c = 0; c < sizeof k_bc_cases / sizeof k_bc_cases[0]; c++) {
        for (size_t s = 0; s < sizeof k_sizes / sizeof k_sizes[0]; s++) {
            uint32_t w = k_sizes[s][0], h = k_sizes[s][1];
            size_t need;
            assert_true(kiln_blocks_size(k_bc_cases[c].block, w, h, &need));
            uint8_t *blocks = malloc(need);
            uint8_t *want = malloc((size_t)w * h * 4);
            uint8_t *got = malloc((size_t)w * h * 4 + 64);
            assert_non_null(blocks);
            assert_non_null(want);
            assert_non_null(got);
            for (size_t i = 0; i < need; i++) blocks[i] = (uint8_t)tt_rand(&seed);
            assert_int_equal(
                kiln_blocks_decode(k_bc_cases[c].block, blocks, need, w, h, false, want, NULL),
                KILN_OK);
            memset(got, 0xCD, (size_t)w * h * 4 + 64);
            kiln_error err;
            assert_int_equal(kiln_transcode_rgba8(k_bc_cases[c].vk_format, blocks, need, w, h, got,
                                                  (size_t)w * h * 4 + 64, &err),
                             KILN_OK);
            assert_memory_equal(got, want, (size_t)w * h * 4);
            for (size_t i = 0; i < 64; i++) assert_int_equal(got[(size_t)w * h * 4 + i], 0xCD);
            free(blocks);
            free(want);
            free(got);
        }
    }
}

static void transcode_bc1_block_decodes_to_hand_derived_texels(void **state)
{
    (void)state;
    /* c0 = 0xF800 (red) > c1 = 0x001F (blue): 4-colour mode; selectors 0, 1, 2, 3 repeated. */
    const uint8_t block[8] = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
    const uint8_t want[4][4] = {
        {255, 0, 0, 255}, {0, 0, 255, 255}, {170, 0, 85, 255}, {85, 0, 170, 255}};
    uint8_t got[64];
    assert_int_equal(
        kiln_transcode_rgba8(KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK, block, 8, 4, 4, got, 64, NULL),
        KILN_OK);
    for (int i = 0; i < 16; i++) assert_memory_equal(got + 4 * i, want[i % 4], 4);
}

static void transcode_bc5_keeps_blue_zero_and_alpha_opaque(void **state)
{
    (void)state;
    /* R: a0 = 200 > a1 = 100, every index 1 (100); G: a0 = 10 <= a1 = 20, every index 7 (255). */
    uint8_t block[16] = {200, 100, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24,
                         10,  20,  0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    uint8_t got[64];
    assert_int_equal(
        kiln_transcode_rgba8(KILN_VK_FORMAT_BC5_UNORM_BLOCK, block, 16, 4, 4, got, 64, NULL),
        KILN_OK);
    for (int i = 0; i < 16; i++) {
        assert_int_equal(got[4 * i + 0], 100);
        assert_int_equal(got[4 * i + 1], 255);
        assert_int_equal(got[4 * i + 2], 0);
        assert_int_equal(got[4 * i + 3], 255);
    }
}

static void transcode_rgba8_copies_texels(void **state)
{
    (void)state;
    uint8_t src[5 * 3 * 4 + 8], dst[5 * 3 * 4];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)(i * 7);
    assert_int_equal(kiln_transcode_rgba8(KILN_VK_FORMAT_R8G8B8A8_SRGB, src, sizeof src, 5, 3, dst,
                                          sizeof dst, NULL),
                     KILN_OK);
    assert_memory_equal(dst, src, sizeof dst);
}

static void transcode_output_format_keeps_srgb(void **state)
{
    (void)state;
    assert_int_equal(kiln_transcode_rgba8_format(KILN_VK_FORMAT_BC7_SRGB_BLOCK),
                     KILN_VK_FORMAT_R8G8B8A8_SRGB);
    assert_int_equal(kiln_transcode_rgba8_format(KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK),
                     KILN_VK_FORMAT_R8G8B8A8_SRGB);
    assert_int_equal(kiln_transcode_rgba8_format(KILN_VK_FORMAT_BC5_UNORM_BLOCK),
                     KILN_VK_FORMAT_R8G8B8A8_UNORM);
    assert_int_equal(kiln_transcode_rgba8_format(KILN_VK_FORMAT_R8G8B8A8_UNORM),
                     KILN_VK_FORMAT_R8G8B8A8_UNORM);
    assert_int_equal(kiln_transcode_rgba8_format(KILN_VK_FORMAT_R16G16B16A16_SFLOAT),
                     KILN_VK_FORMAT_UNDEFINED);
    assert_int_equal(kiln_transcode_rgba8_format(12345), KILN_VK_FORMAT_UNDEFINED);
}

static void transcode_rejects_bad_arguments_with_codes(void **state)
{
    (void)state;
    uint8_t in[64] = {0}, out[256];
    kiln_error err;
    const uint32_t bc7 = KILN_VK_FORMAT_BC7_UNORM_BLOCK;
    assert_int_equal(
        kiln_transcode_rgba8(KILN_VK_FORMAT_R16G16B16A16_SFLOAT, in, 64, 4, 4, out, 256, &err),
        KILN_E_IMPORT_UNSUPPORTED);
    assert_int_equal(err.code, KILN_E_IMPORT_UNSUPPORTED);
    assert_int_equal(kiln_transcode_rgba8(0, in, 64, 4, 4, out, 256, &err),
                     KILN_E_IMPORT_UNSUPPORTED);
    assert_int_equal(kiln_transcode_rgba8(bc7, NULL, 64, 4, 4, out, 256, &err), KILN_E_USAGE);
    assert_int_equal(kiln_transcode_rgba8(bc7, in, 64, 4, 4, NULL, 256, &err), KILN_E_USAGE);
    assert_int_equal(kiln_transcode_rgba8(bc7, in, 64, 0, 4, out, 256, &err), KILN_E_USAGE);
    assert_int_equal(kiln_transcode_rgba8(bc7, in, 64, 4, 0, out, 256, &err), KILN_E_USAGE);
    /* 5x4 BC7 is two blocks (32 bytes) and 80 output bytes. */
    assert_int_equal(kiln_transcode_rgba8(bc7, in, 31, 5, 4, out, 256, &err),
                     KILN_E_FORMAT_INVALID);
    assert_int_equal(kiln_transcode_rgba8(bc7, in, 32, 5, 4, out, 79, &err), KILN_E_USAGE);
    assert_int_equal(kiln_transcode_rgba8(bc7, in, 32, 5, 4, out, 80, &err), KILN_OK);
    assert_int_equal(
        kiln_transcode_rgba8(KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK, in, 15, 5, 4, out, 80, &err),
        KILN_E_FORMAT_INVALID);
    assert_int_equal(
        kiln_transcode_rgba8(KILN_VK_FORMAT_R8G8B8A8_UNORM, in, 63, 4, 4, out, 256, &err),
        KILN_E_FORMAT_INVALID);
    /* width * height * 4 does not fit in size_t on any platform kiln builds for. */
    assert_int_equal(kiln_transcode_rgba8(bc7, in, 64, UINT32_MAX, UINT32_MAX, out, 256, &err),
                     KILN_E_LIMIT);
    assert_int_equal(kiln_transcode_rgba8(bc7, in, 64, UINT32_MAX, UINT32_MAX, out, 256, NULL),
                     KILN_E_LIMIT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transcode_bc_equals_cook_decode_with_cropped_edges),
        cmocka_unit_test(transcode_bc1_block_decodes_to_hand_derived_texels),
        cmocka_unit_test(transcode_bc5_keeps_blue_zero_and_alpha_opaque),
        cmocka_unit_test(transcode_rgba8_copies_texels),
        cmocka_unit_test(transcode_output_format_keeps_srgb),
        cmocka_unit_test(transcode_rejects_bad_arguments_with_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
