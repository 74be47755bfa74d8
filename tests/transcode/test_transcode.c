/* test_transcode.c — kiln_transcode_rgba8 over the BC formats and RGBA8: every texel equals the
 * cook's own decode (kiln_blocks_decode, the driver the encoders are measured with) at sizes
 * with partial edge blocks, hand-derived blocks pin the formulas, pass-through copies, nothing is
 * written past the level, and each bad argument gets its error code; kiln_transcode_rgba16f_srgb8
 * against hand-derived sRGB codes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "codec/block_decode.h"
#include "codec/hdr_decode.h"
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

/* One RGBA16F texel from four halves, little-endian. */
static void put_texel(uint8_t *t, uint16_t r, uint16_t g, uint16_t b, uint16_t a)
{
    const uint16_t h[4] = {r, g, b, a};
    for (int c = 0; c < 4; c++) {
        t[2 * c] = (uint8_t)(h[c] & 0xff);
        t[2 * c + 1] = (uint8_t)(h[c] >> 8);
    }
}

/* Halves: 0x3C00 1.0, 0x3800 0.5, 0x3400 0.25, 0x4200 3.0, 0x1800 2^-9, 0xBC00 -1.0, 0x7E00 NaN,
 * 0x7C00 +inf. sRGB codes by hand (IEC 61966-2-1): 0.5 -> 0.73536 * 255 = 187.5 -> 188; 0.25 ->
 * 0.53710 -> 137; 0.75 -> 0.88083 -> 225; 2^-9 is in the linear segment: 12.92 * 2^-9 * 255 =
 * 6.43 -> 6. */
static void transcode_rgba16f_tone_maps_to_hand_derived_srgb(void **state)
{
    (void)state;
    uint8_t in[4 * 8], out[4 * 4];
    put_texel(in + 0, 0x3C00, 0x3800, 0x3400, 0x3800);  /* 1, 0.5, 0.25; alpha 0.5 */
    put_texel(in + 8, 0x4200, 0x1800, 0xBC00, 0x3C00);  /* 3, 2^-9, -1; alpha 1 */
    put_texel(in + 16, 0x7E00, 0x7C00, 0x0000, 0x4200); /* NaN, +inf, 0; alpha 3 */
    put_texel(in + 24, 0x3400, 0x3400, 0x3400, 0xB800); /* 0.25 grey; alpha -0.5 */
    assert_int_equal(kiln_transcode_rgba16f_srgb8(in, sizeof in, 2, 2, KILN_TONEMAP_CLAMP, 0.0f,
                                                  out, sizeof out, NULL),
                     KILN_OK);
    const uint8_t clamp[16] = {255, 188, 137, 128, 255, 6,   0,   255,
                               0,   255, 0,   255, 137, 137, 137, 0};
    assert_memory_equal(out, clamp, sizeof clamp);
    /* Reinhard x / (1 + x): 1 -> 0.5 (188), 3 -> 0.75 (225), 0.5 -> 1/3 (0.61 -> 156), 0.25 ->
     * 0.2 (0.48453 -> 124); alpha is never tone-mapped. */
    assert_int_equal(kiln_transcode_rgba16f_srgb8(in, sizeof in, 2, 2, KILN_TONEMAP_REINHARD, 0.0f,
                                                  out, sizeof out, NULL),
                     KILN_OK);
    assert_int_equal(out[0], 188);
    assert_int_equal(out[1], 156);
    assert_int_equal(out[2], 124);
    assert_int_equal(out[3], 128);
    assert_int_equal(out[4], 225);
    assert_int_equal(out[8 + 1], 255); /* +inf */
    assert_int_equal(out[8 + 0], 0);   /* NaN */
    /* Exposure +1 doubles: 0.25 reads as 0.5, 1 saturates under clamp. */
    assert_int_equal(kiln_transcode_rgba16f_srgb8(in, sizeof in, 2, 2, KILN_TONEMAP_CLAMP, 1.0f,
                                                  out, sizeof out, NULL),
                     KILN_OK);
    assert_int_equal(out[12], 188);
    assert_int_equal(out[1], 255);
    assert_int_equal(out[3], 128); /* alpha unchanged */
}

static void transcode_rgba16f_rejects_bad_arguments_with_codes(void **state)
{
    (void)state;
    uint8_t in[6 * 8] = {0}, out[6 * 4];
    kiln_error err;
    assert_int_equal(kiln_transcode_rgba16f_srgb8(in, 48, 3, 2, 0, 0.0f, out, 24, &err), KILN_OK);
    assert_int_equal(kiln_transcode_rgba16f_srgb8(NULL, 48, 3, 2, 0, 0.0f, out, 24, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_transcode_rgba16f_srgb8(in, 48, 3, 2, 0, 0.0f, NULL, 24, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_transcode_rgba16f_srgb8(in, 48, 0, 2, 0, 0.0f, out, 24, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_transcode_rgba16f_srgb8(in, 48, 3, 2, 2, 0.0f, out, 24, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_transcode_rgba16f_srgb8(in, 48, 3, 2, 0, INFINITY, out, 24, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_transcode_rgba16f_srgb8(in, 48, 3, 2, 0, 0.0f, out, 23, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_transcode_rgba16f_srgb8(in, 47, 3, 2, 0, 0.0f, out, 24, &err),
                     KILN_E_FORMAT_INVALID);
    assert_int_equal(err.code, KILN_E_FORMAT_INVALID);
    assert_int_equal(
        kiln_transcode_rgba16f_srgb8(in, 48, UINT32_MAX, UINT32_MAX, 0, 0.0f, out, 24, &err),
        KILN_E_LIMIT);
}

/* kiln_transcode_rgba16f: BC6H (both signs) equals the cook's decode to halves at sizes with
 * partial edge blocks, written little-endian and not a byte past the level; RGB9E5 and
 * B10G11R11 texels equal their decoders'; RGBA16F is copied; ASTC HDR and LDR formats are
 * refused; bad arguments get their codes. */
static void transcode_rgba16f_hdr_formats_equal_the_cook_decode(void **state)
{
    (void)state;
    const uint32_t fmts[2] = {KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK, KILN_VK_FORMAT_BC6H_SFLOAT_BLOCK};
    const kiln_block_format blocks_of[2] = {KILN_BLOCK_BC6H, KILN_BLOCK_BC6H_SF};
    uint32_t seed = 6;
    for (int f = 0; f < 2; f++) {
        assert_int_equal(kiln_transcode_rgba16f_format(fmts[f]),
                         KILN_VK_FORMAT_R16G16B16A16_SFLOAT);
        for (size_t k = 0; k < sizeof k_sizes / sizeof k_sizes[0]; k++) {
            uint32_t w = k_sizes[k][0], h = k_sizes[k][1];
            size_t need;
            assert_true(kiln_blocks_size(blocks_of[f], w, h, &need));
            uint8_t *b = malloc(need);
            for (size_t i = 0; i < need; i++) b[i] = (uint8_t)tt_rand(&seed);
            uint16_t *want = malloc((size_t)w * h * 8);
            uint8_t *got = malloc((size_t)w * h * 8 + 16);
            memset(got, 0xEE, (size_t)w * h * 8 + 16);
            assert_int_equal(kiln_blocks_decode_half(blocks_of[f], b, need, w, h, want, NULL),
                             KILN_OK);
            assert_int_equal(
                kiln_transcode_rgba16f(fmts[f], b, need, w, h, got, (size_t)w * h * 8, NULL),
                KILN_OK);
            for (size_t i = 0; i < (size_t)w * h * 4; i++)
                assert_int_equal(got[2 * i] | got[2 * i + 1] << 8, want[i]);
            for (size_t i = 0; i < 16; i++) assert_int_equal(got[(size_t)w * h * 8 + i], 0xEE);
            free(b);
            free(want);
            free(got);
        }
    }
    /* Packed texels: one uint32 each. */
    const uint32_t packed[2] = {KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32,
                                KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32};
    for (int f = 0; f < 2; f++) {
        uint8_t in[4 * 15], out[8 * 15];
        for (size_t i = 0; i < sizeof in; i++) in[i] = (uint8_t)tt_rand(&seed);
        assert_int_equal(
            kiln_transcode_rgba16f(packed[f], in, sizeof in, 5, 3, out, sizeof out, NULL), KILN_OK);
        for (int t = 0; t < 15; t++) {
            uint32_t p = (uint32_t)in[4 * t] | (uint32_t)in[4 * t + 1] << 8 |
                         (uint32_t)in[4 * t + 2] << 16 | (uint32_t)in[4 * t + 3] << 24;
            uint16_t h[4];
            if (f) kiln_b10g11r11_decode(p, h);
            else kiln_rgb9e5_decode(p, h);
            for (int c = 0; c < 4; c++)
                assert_int_equal(out[8 * t + 2 * c] | out[8 * t + 2 * c + 1] << 8, h[c]);
        }
    }
    uint8_t in[64], out[256];
    for (size_t i = 0; i < sizeof in; i++) in[i] = (uint8_t)i;
    const uint32_t rgba16f = KILN_VK_FORMAT_R16G16B16A16_SFLOAT;
    assert_int_equal(kiln_transcode_rgba16f(rgba16f, in, 64, 4, 2, out, 64, NULL), KILN_OK);
    assert_memory_equal(in, out, 64);
    kiln_error err;
    const uint32_t bc6h = KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK;
    assert_int_equal(
        kiln_transcode_rgba16f(KILN_VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK, in, 64, 4, 4, out, 256, &err),
        KILN_E_IMPORT_UNSUPPORTED);
    assert_int_equal(kiln_transcode_rgba16f_format(KILN_VK_FORMAT_BC7_UNORM_BLOCK),
                     KILN_VK_FORMAT_UNDEFINED);
    assert_int_equal(
        kiln_transcode_rgba16f(KILN_VK_FORMAT_BC7_UNORM_BLOCK, in, 64, 4, 4, out, 256, &err),
        KILN_E_IMPORT_UNSUPPORTED);
    assert_int_equal(kiln_transcode_rgba16f(bc6h, NULL, 64, 4, 4, out, 256, &err), KILN_E_USAGE);
    assert_int_equal(kiln_transcode_rgba16f(bc6h, in, 64, 0, 4, out, 256, &err), KILN_E_USAGE);
    /* 5x4 BC6H is two blocks (32 bytes) and 160 output bytes. */
    assert_int_equal(kiln_transcode_rgba16f(bc6h, in, 31, 5, 4, out, 256, &err),
                     KILN_E_FORMAT_INVALID);
    assert_int_equal(kiln_transcode_rgba16f(bc6h, in, 32, 5, 4, out, 159, &err), KILN_E_USAGE);
    assert_int_equal(kiln_transcode_rgba16f(bc6h, in, 32, 5, 4, out, 160, &err), KILN_OK);
    assert_int_equal(kiln_transcode_rgba16f(bc6h, in, 64, UINT32_MAX, UINT32_MAX, out, 256, &err),
                     KILN_E_LIMIT);
    /* The RGBA8 transcode refuses HDR formats (their range does not fit 8 bits). */
    assert_int_equal(kiln_transcode_rgba8(bc6h, in, 64, 4, 4, out, 256, &err),
                     KILN_E_IMPORT_UNSUPPORTED);
}

/* The formats Basis textures are transcoded to (BC3, ETC2, EAC): every texel equals its block
 * decoder's (block_decode.h) at sizes with partial edge blocks; BC3's alpha is its BC4 block's
 * red and its colour its BC1 block's; nothing is written past the level. */
static void transcode_basis_targets_equal_their_block_decoders(void **state)
{
    (void)state;
    static const struct {
        uint32_t vk, out;
        size_t block;
    } cases[] = {
        {KILN_VK_FORMAT_BC3_SRGB_BLOCK, KILN_VK_FORMAT_R8G8B8A8_SRGB, 16},
        {KILN_VK_FORMAT_BC3_UNORM_BLOCK, KILN_VK_FORMAT_R8G8B8A8_UNORM, 16},
        {KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK, KILN_VK_FORMAT_R8G8B8A8_SRGB, 8},
        {KILN_VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, KILN_VK_FORMAT_R8G8B8A8_UNORM, 16},
        {KILN_VK_FORMAT_EAC_R11_UNORM_BLOCK, KILN_VK_FORMAT_R8G8B8A8_UNORM, 8},
        {KILN_VK_FORMAT_EAC_R11G11_UNORM_BLOCK, KILN_VK_FORMAT_R8G8B8A8_UNORM, 16},
    };
    uint32_t seed = 77;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        assert_int_equal(kiln_transcode_rgba8_format(cases[c].vk), cases[c].out);
        for (size_t z = 0; z < sizeof k_sizes / sizeof k_sizes[0]; z++) {
            uint32_t w = k_sizes[z][0], h = k_sizes[z][1], bx = (w + 3) / 4, by = (h + 3) / 4;
            size_t n = (size_t)bx * by * cases[c].block;
            uint8_t *blocks = malloc(n), *rgba = malloc((size_t)w * h * 4 + 1);
            for (size_t i = 0; i < n; i++) blocks[i] = (uint8_t)tt_rand(&seed);
            rgba[(size_t)w * h * 4] = 0xA5;
            kiln_error err;
            assert_int_equal(
                kiln_transcode_rgba8(cases[c].vk, blocks, n, w, h, rgba, (size_t)w * h * 4, &err),
                KILN_OK);
            assert_int_equal(rgba[(size_t)w * h * 4], 0xA5);
            for (uint32_t y = 0; y < by; y++)
                for (uint32_t x = 0; x < bx; x++) {
                    const uint8_t *b = blocks + ((size_t)y * bx + x) * cases[c].block;
                    uint8_t want[64], alpha[64];
                    switch (cases[c].vk) {
                    case KILN_VK_FORMAT_BC3_SRGB_BLOCK:
                    case KILN_VK_FORMAT_BC3_UNORM_BLOCK:
                        kiln_bc1_decode_block(b + 8, want);
                        kiln_bc4_decode_block(b, alpha);
                        for (int i = 0; i < 16; i++) want[4 * i + 3] = alpha[4 * i];
                        break;
                    case KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK:
                        kiln_etc2_rgb_decode_block(b, want);
                        break;
                    case KILN_VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK:
                        kiln_etc2_rgba_decode_block(b, want);
                        break;
                    case KILN_VK_FORMAT_EAC_R11_UNORM_BLOCK:
                        kiln_eac_r11_decode_block(b, want);
                        break;
                    default:
                        kiln_eac_rg11_decode_block(b, want);
                    }
                    for (uint32_t ty = 0; ty < 4 && y * 4 + ty < h; ty++)
                        for (uint32_t tx = 0; tx < 4 && x * 4 + tx < w; tx++)
                            assert_memory_equal(rgba +
                                                    (((size_t)(y * 4 + ty) * w) + x * 4 + tx) * 4,
                                                want + (ty * 4 + tx) * 4, 4);
                }
            /* one byte short of the level */
            assert_int_equal(kiln_transcode_rgba8(cases[c].vk, blocks, n - 1, w, h, rgba,
                                                  (size_t)w * h * 4, &err),
                             KILN_E_FORMAT_INVALID);
            free(blocks);
            free(rgba);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transcode_rgba16f_hdr_formats_equal_the_cook_decode),
        cmocka_unit_test(transcode_bc_equals_cook_decode_with_cropped_edges),
        cmocka_unit_test(transcode_basis_targets_equal_their_block_decoders),
        cmocka_unit_test(transcode_bc1_block_decodes_to_hand_derived_texels),
        cmocka_unit_test(transcode_bc5_keeps_blue_zero_and_alpha_opaque),
        cmocka_unit_test(transcode_rgba8_copies_texels),
        cmocka_unit_test(transcode_output_format_keeps_srgb),
        cmocka_unit_test(transcode_rejects_bad_arguments_with_codes),
        cmocka_unit_test(transcode_rgba16f_tone_maps_to_hand_derived_srgb),
        cmocka_unit_test(transcode_rgba16f_rejects_bad_arguments_with_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
