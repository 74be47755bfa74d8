/* test_texture.c — kiln_texture_build end to end: formats and colour spaces, refusals, alpha
 * weighting, odd sizes, normal maps, max_size, HDR to half, determinism, allocation failures. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "process/block.h"
#include "process/half.h"
#include "process/mip.h"
#include "process/srgb.h"
#include "process/texture.h"
#include "process_tests.h"

static kiln_texture_build_opts defaults(void)
{
    kiln_texture_build_opts s;
    memset(&s, 0, sizeof s);
    s.format = KILN_TEXFMT_RGBA8; /* the filtering tests look at texels; auto has its own test */
    s.srgb = KILN_TEXTURE_SRGB_AUTO;
    s.mipmaps = true;
    s.max_size = 16384;
    return s;
}

/* An image with malloc'd pixels; free with free(img.pixels). */
static kiln_image make_image(uint32_t w, uint32_t h, kiln_pixel_type t)
{
    size_t cs = t == KILN_PIXEL_U8 ? 1 : t == KILN_PIXEL_U16 ? 2 : 4;
    kiln_image img;
    memset(&img, 0, sizeof img);
    img.width = w;
    img.height = h;
    img.type = t;
    img.size = (size_t)w * h * 4 * cs;
    img.pixels = calloc(1, img.size);
    assert_non_null(img.pixels);
    img.format = t == KILN_PIXEL_F32 ? KILN_IMAGE_EXR : KILN_IMAGE_PNG;
    img.source_channels = 4;
    img.source_bits = t == KILN_PIXEL_U8 ? 8 : t == KILN_PIXEL_U16 ? 16 : 32;
    return img;
}

static void set_u8(kiln_image *img, uint32_t x, uint32_t y, uint8_t r, uint8_t g, uint8_t b,
                   uint8_t a)
{
    uint8_t *p = (uint8_t *)img->pixels + ((size_t)y * img->width + x) * 4;
    p[0] = r;
    p[1] = g;
    p[2] = b;
    p[3] = a;
}

static const uint8_t *texel8(const kiln_texture_levels *t, uint32_t level, uint32_t x, uint32_t y)
{
    const kiln_texture_level *lv = &t->levels[level];
    return lv->data + ((size_t)y * lv->width + x) * 4;
}

static float texel16f(const kiln_texture_levels *t, uint32_t level, uint32_t x, uint32_t y, int c)
{
    const kiln_texture_level *lv = &t->levels[level];
    const uint8_t *p = lv->data + (((size_t)y * lv->width + x) * 4 + (size_t)c) * 2;
    return kiln_half_to_float((uint16_t)(p[0] | (p[1] << 8)));
}

static void build_ok(const kiln_image *img, const kiln_texture_build_opts *s,
                     kiln_texture_levels *t)
{
    kiln_error err;
    kiln_result r = kiln_texture_build(img, s, NULL, t, &err);
    if (r != KILN_OK) fail_msg("kiln_texture_build: %s", err.message);
}

/* A smooth picture with detail: what block encoders see in practice. */
static void fill_picture(kiln_image *img)
{
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++)
            set_u8(img, x, y, (uint8_t)(x * 255 / img->width), (uint8_t)(y * 255 / img->height),
                   (uint8_t)((x * 7 + y * 13) & 0xff), 255);
}

static void texture_block_formats_store_edge_padded_blocks_with_their_vk_format(void **state)
{
    (void)state;
    const struct {
        kiln_texture_format f;
        kiln_block_format b;
        uint32_t vk_srgb, vk_linear;
    } cases[] = {
        {KILN_TEXFMT_BC7, KILN_BLOCK_BC7, KILN_VK_FORMAT_BC7_SRGB_BLOCK,
         KILN_VK_FORMAT_BC7_UNORM_BLOCK},
        {KILN_TEXFMT_BC1, KILN_BLOCK_BC1, KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK,
         KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK},
        {KILN_TEXFMT_BC4, KILN_BLOCK_BC4, KILN_VK_FORMAT_BC4_UNORM_BLOCK,
         KILN_VK_FORMAT_BC4_UNORM_BLOCK},
        {KILN_TEXFMT_BC5, KILN_BLOCK_BC5, KILN_VK_FORMAT_BC5_UNORM_BLOCK,
         KILN_VK_FORMAT_BC5_UNORM_BLOCK},
        {KILN_TEXFMT_ASTC4X4, KILN_BLOCK_ASTC4X4, KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK,
         KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK},
    };
    kiln_image img = make_image(13, 7, KILN_PIXEL_U8);
    fill_picture(&img);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kiln_texture_build_opts s = defaults();
        s.format = cases[i].f;
        s.quality = KILN_QUALITY_FAST;
        kiln_texture_levels t;
        build_ok(&img, &s, &t);
        bool one_or_two = cases[i].f == KILN_TEXFMT_BC4 || cases[i].f == KILN_TEXFMT_BC5;
        assert_int_equal(t.vk_format, one_or_two ? cases[i].vk_linear : cases[i].vk_srgb);
        assert_int_equal(t.srgb, !one_or_two);
        assert_int_equal(t.level_count, 4); /* 13x7, 6x3, 3x1, 1x1 */
        size_t bytes = kiln_block_bytes(cases[i].b);
        assert_int_equal(t.levels[0].size, 4 * 2 * bytes);
        assert_int_equal(t.levels[1].size, 2 * 1 * bytes);
        assert_int_equal(t.levels[3].size, bytes);
        /* Decoded level 0 stays close to the source: the edge padding invents nothing. */
        uint8_t decoded[13 * 7 * 4];
        assert_int_equal(kiln_blocks_decode(cases[i].b, t.levels[0].data, t.levels[0].size, 13, 7,
                                            t.srgb, decoded, NULL),
                         KILN_OK);
        int channels = cases[i].f == KILN_TEXFMT_BC4 ? 1 : cases[i].f == KILN_TEXFMT_BC5 ? 2 : 3;
        int worst = 0;
        for (size_t p = 0; p < 13 * 7; p++)
            for (int c = 0; c < channels; c++) {
                int d = abs((int)decoded[p * 4 + c] - (int)((uint8_t *)img.pixels)[p * 4 + c]);
                if (d > worst) worst = d;
            }
        if (worst > 40)
            fail_msg("%s: a texel is off by %d", kiln_block_format_name(cases[i].b), worst);
        kiln_texture_levels_free(&t);
    }
    free(img.pixels);
}

static void texture_refuses_srgb_with_bc4_and_bc5(void **state)
{
    (void)state;
    kiln_image img = make_image(4, 4, KILN_PIXEL_U8);
    kiln_texture_levels t;
    kiln_error err;
    kiln_texture_format fs[] = {KILN_TEXFMT_BC4, KILN_TEXFMT_BC5};
    for (size_t i = 0; i < 2; i++) {
        kiln_texture_build_opts s = defaults();
        s.format = fs[i];
        s.srgb = KILN_TEXTURE_SRGB_YES;
        assert_int_equal(kiln_texture_build(&img, &s, NULL, &t, &err), KILN_E_IMPORT_SETTINGS);
        assert_string_equal(err.json_pointer, "/import/texture/srgb");
    }
    free(img.pixels);
}

static void texture_refuses_srgb_with_normal_map_and_with_rgba16f(void **state)
{
    (void)state;
    kiln_image img = make_image(4, 4, KILN_PIXEL_U8);
    kiln_texture_levels t;
    kiln_error err;
    kiln_texture_build_opts s = defaults();
    s.srgb = KILN_TEXTURE_SRGB_YES;
    s.normal_map = true;
    assert_int_equal(kiln_texture_build(&img, &s, NULL, &t, &err), KILN_E_IMPORT_SETTINGS);
    assert_string_equal(err.json_pointer, "/import/texture/srgb");
    s = defaults();
    s.srgb = KILN_TEXTURE_SRGB_YES;
    s.format = KILN_TEXFMT_RGBA16F;
    assert_int_equal(kiln_texture_build(&img, &s, NULL, &t, &err), KILN_E_IMPORT_SETTINGS);
    assert_string_equal(err.json_pointer, "/import/texture/srgb");
    s = defaults();
    s.flip_green = true;
    assert_int_equal(kiln_texture_build(&img, &s, NULL, &t, &err), KILN_E_IMPORT_SETTINGS);
    assert_string_equal(err.json_pointer, "/import/texture/flip_green");
    s = defaults();
    s.max_size = 0;
    assert_int_equal(kiln_texture_build(&img, &s, NULL, &t, &err), KILN_E_IMPORT_SETTINGS);
    assert_string_equal(err.json_pointer, "/import/texture/max_size");
    free(img.pixels);
}

static void texture_rejects_an_image_smaller_than_its_size_says(void **state)
{
    (void)state;
    kiln_image img = make_image(4, 4, KILN_PIXEL_U16);
    img.size -= 1;
    kiln_texture_build_opts s = defaults();
    kiln_texture_levels t;
    kiln_error err;
    assert_int_equal(kiln_texture_build(&img, &s, NULL, &t, &err), KILN_E_USAGE);
    img.size += 1;
    img.width = 0;
    assert_int_equal(kiln_texture_build(&img, &s, NULL, &t, &err), KILN_E_USAGE);
    assert_int_equal(kiln_texture_build(NULL, &s, NULL, &t, NULL), KILN_E_USAGE);
    free(img.pixels);
}

static void texture_auto_picks_the_format_from_source_role_and_target(void **state)
{
    (void)state;
    kiln_texture_levels t;
    kiln_texture_build_opts s = defaults();
    s.format = KILN_TEXFMT_AUTO;
    s.quality = KILN_QUALITY_FAST;
    kiln_image rgba = make_image(8, 8, KILN_PIXEL_U8), grey = make_image(8, 8, KILN_PIXEL_U8),
               f32 = make_image(8, 8, KILN_PIXEL_F32);
    fill_picture(&rgba);
    grey.source_channels = 1;
    build_ok(&rgba, &s, &t); /* colour: BC7, sRGB */
    assert_int_equal(t.format, KILN_TEXFMT_BC7);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_BC7_SRGB_BLOCK);
    kiln_texture_levels_free(&t);
    build_ok(&grey, &s, &t); /* one channel: BC4, linear data */
    assert_int_equal(t.format, KILN_TEXFMT_BC4);
    assert_false(t.srgb);
    kiln_texture_levels_free(&t);
    s.srgb = KILN_TEXTURE_SRGB_YES; /* ... unless it is sRGB colour: BC7 keeps the sRGB decode */
    build_ok(&grey, &s, &t);
    assert_int_equal(t.format, KILN_TEXFMT_BC7);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_BC7_SRGB_BLOCK);
    kiln_texture_levels_free(&t);
    s.srgb = KILN_TEXTURE_SRGB_AUTO;
    build_ok(&f32, &s, &t); /* float: RGBA16F */
    assert_int_equal(t.format, KILN_TEXFMT_RGBA16F);
    kiln_texture_levels_free(&t);
    s.normal_map = true; /* normal map: BC5 */
    build_ok(&rgba, &s, &t);
    assert_int_equal(t.format, KILN_TEXFMT_BC5);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_BC5_UNORM_BLOCK);
    kiln_texture_levels_free(&t);
    kiln_texture_target mobile = {NULL, KILN_TEXGPU_MOBILE}; /* ASTC, also for normal maps */
    kiln_error err;
    assert_int_equal(kiln_texture_build_for(&rgba, &s, &mobile, NULL, &t, &err), KILN_OK);
    assert_int_equal(t.format, KILN_TEXFMT_ASTC4X4);
    kiln_texture_levels_free(&t);
    free(rgba.pixels);
    free(grey.pixels);
    free(f32.pixels);
}

static void texture_auto_format_and_colour_space_follow_the_source(void **state)
{
    (void)state;
    kiln_texture_levels t;
    kiln_texture_build_opts s = defaults();
    kiln_image u8 = make_image(2, 2, KILN_PIXEL_U8), u16 = make_image(2, 2, KILN_PIXEL_U16),
               f32 = make_image(2, 2, KILN_PIXEL_F32);
    build_ok(&u8, &s, &t);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_R8G8B8A8_SRGB);
    assert_true(t.srgb);
    assert_int_equal(t.texel_size, 4);
    kiln_texture_levels_free(&t);
    build_ok(&u16, &s, &t);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_R8G8B8A8_SRGB);
    assert_int_equal(t.source_type, KILN_PIXEL_U16);
    kiln_texture_levels_free(&t);
    s.format = KILN_TEXFMT_AUTO;
    build_ok(&f32, &s, &t);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_R16G16B16A16_SFLOAT);
    assert_false(t.srgb);
    assert_int_equal(t.texel_size, 8);
    assert_int_equal(t.levels[0].size, 2 * 2 * 8);
    assert_int_equal(t.source_format, KILN_IMAGE_EXR);
    kiln_texture_levels_free(&t);
    s.format = KILN_TEXFMT_RGBA8;
    s.normal_map = true;
    build_ok(&u8, &s, &t);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_R8G8B8A8_UNORM);
    assert_false(t.srgb);
    kiln_texture_levels_free(&t);
    s = defaults();
    s.srgb = KILN_TEXTURE_SRGB_NO;
    build_ok(&u8, &s, &t);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_R8G8B8A8_UNORM);
    kiln_texture_levels_free(&t);
    s = defaults();
    s.format = KILN_TEXFMT_RGBA16F;
    build_ok(&u8, &s, &t);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_R16G16B16A16_SFLOAT);
    kiln_texture_levels_free(&t);
    s.format = KILN_TEXFMT_RGBA8;
    build_ok(&f32, &s, &t);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_R8G8B8A8_UNORM);
    kiln_texture_levels_free(&t);
    s.srgb = KILN_TEXTURE_SRGB_YES;
    build_ok(&f32, &s, &t);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_R8G8B8A8_SRGB);
    kiln_texture_levels_free(&t);
    free(u8.pixels);
    free(u16.pixels);
    free(f32.pixels);
}

static void texture_level0_of_8bit_keeps_every_code_in_srgb_and_linear(void **state)
{
    (void)state;
    kiln_image img = make_image(256, 1, KILN_PIXEL_U8);
    for (uint32_t x = 0; x < 256; x++)
        set_u8(&img, x, 0, (uint8_t)x, (uint8_t)(255 - x), (uint8_t)(x * 7), (uint8_t)(x * 3));
    for (int lin = 0; lin < 2; lin++) {
        kiln_texture_build_opts s = defaults();
        s.mipmaps = false;
        s.srgb = lin ? KILN_TEXTURE_SRGB_NO : KILN_TEXTURE_SRGB_YES;
        kiln_texture_levels t;
        build_ok(&img, &s, &t);
        assert_int_equal(t.level_count, 1);
        assert_int_equal(t.levels[0].size, img.size);
        assert_memory_equal(t.levels[0].data, img.pixels, img.size);
        assert_true(t.has_alpha);
        kiln_texture_levels_free(&t);
    }
    free(img.pixels);
}

static void texture_16bit_srgb_is_rounded_to_the_nearest_8bit_code(void **state)
{
    (void)state;
    kiln_image img = make_image(256, 1, KILN_PIXEL_U16);
    uint16_t *p = img.pixels;
    for (uint32_t x = 0; x < 256; x++) {
        p[x * 4 + 0] = (uint16_t)(x * 257);                       /* exact */
        p[x * 4 + 1] = (uint16_t)(x * 257 + (x < 255 ? 128 : 0)); /* just below the midpoint */
        p[x * 4 + 2] = (uint16_t)(x > 0 ? x * 257 - 128 : 0);     /* above the lower midpoint */
        p[x * 4 + 3] = 65535;
    }
    kiln_texture_build_opts s = defaults();
    s.mipmaps = false;
    kiln_texture_levels t;
    build_ok(&img, &s, &t);
    assert_false(t.has_alpha);
    for (uint32_t x = 0; x < 256; x++) {
        const uint8_t *q = texel8(&t, 0, x, 0);
        assert_int_equal(q[0], x);
        assert_int_equal(q[1], x);
        assert_int_equal(q[2], x);
        assert_int_equal(q[3], 255);
    }
    kiln_texture_levels_free(&t);
    free(img.pixels);
}

static void texture_float_path_gives_the_same_level0_as_the_8bit_copy(void **state)
{
    (void)state;
    /* Unresized 8-bit sources are copied; the same codes as floats go through conversion and
     * quantisation and must land on the same bytes, in every colour space and with flip_green. */
    kiln_image u8 = make_image(256, 1, KILN_PIXEL_U8), f32 = make_image(256, 1, KILN_PIXEL_F32);
    for (int mode = 0; mode < 3; mode++) {
        float *fp = f32.pixels;
        for (uint32_t x = 0; x < 256; x++) {
            set_u8(&u8, x, 0, (uint8_t)x, (uint8_t)(255 - x), (uint8_t)(x ^ 0x5a), (uint8_t)x);
            for (int c = 0; c < 3; c++) {
                uint8_t v = ((const uint8_t *)u8.pixels)[x * 4 + (uint32_t)c];
                fp[x * 4 + (uint32_t)c] = mode == 1 ? kiln_srgb_decode(v) : (float)v / 255.0f;
            }
            fp[x * 4 + 3] = (float)x / 255.0f;
        }
        kiln_texture_build_opts s = defaults();
        s.mipmaps = false;
        s.format = KILN_TEXFMT_RGBA8;
        s.srgb = mode == 1 ? KILN_TEXTURE_SRGB_YES : KILN_TEXTURE_SRGB_NO;
        s.normal_map = mode == 2;
        s.flip_green = mode == 2;
        kiln_texture_levels a, b;
        build_ok(&u8, &s, &a);
        build_ok(&f32, &s, &b);
        assert_int_equal(a.vk_format, b.vk_format);
        assert_memory_equal(a.levels[0].data, b.levels[0].data, a.levels[0].size);
        if (mode == 2) assert_int_equal(a.levels[0].data[1], 0); /* 255 flipped */
        kiln_texture_levels_free(&a);
        kiln_texture_levels_free(&b);
    }
    free(u8.pixels);
    free(f32.pixels);
}

static void texture_opaque_green_beside_transparent_red_keeps_pure_green_in_the_mip(void **state)
{
    (void)state;
    kiln_image img = make_image(2, 2, KILN_PIXEL_U8);
    set_u8(&img, 0, 0, 0, 255, 0, 255);
    set_u8(&img, 1, 0, 255, 0, 0, 0);
    set_u8(&img, 0, 1, 255, 0, 0, 0);
    set_u8(&img, 1, 1, 255, 0, 0, 0);
    kiln_texture_build_opts s = defaults();
    kiln_texture_levels t;
    build_ok(&img, &s, &t);
    assert_int_equal(t.level_count, 2);
    const uint8_t *q = texel8(&t, 1, 0, 0);
    assert_int_equal(q[0], 0);
    assert_int_equal(q[1], 255);
    assert_int_equal(q[2], 0);
    assert_int_equal(q[3], 64); /* 0.25 * 255 = 63.75 */
    kiln_texture_levels_free(&t);
    /* Half-transparent white beside transparent black keeps its white. */
    set_u8(&img, 0, 0, 255, 255, 255, 128);
    set_u8(&img, 1, 0, 0, 0, 0, 0);
    set_u8(&img, 0, 1, 0, 0, 0, 0);
    set_u8(&img, 1, 1, 0, 0, 0, 0);
    build_ok(&img, &s, &t);
    q = texel8(&t, 1, 0, 0);
    assert_int_equal(q[0], 255);
    assert_int_equal(q[1], 255);
    assert_int_equal(q[2], 255);
    assert_int_equal(q[3], 32);
    kiln_texture_levels_free(&t);
    free(img.pixels);
}

static void texture_constant_5x3_stays_constant_through_2x1_and_1x1(void **state)
{
    (void)state;
    kiln_image img = make_image(5, 3, KILN_PIXEL_U8);
    for (uint32_t y = 0; y < 3; y++)
        for (uint32_t x = 0; x < 5; x++) set_u8(&img, x, y, 200, 17, 99, 180);
    kiln_texture_build_opts s = defaults();
    kiln_texture_levels t;
    build_ok(&img, &s, &t);
    assert_int_equal(t.level_count, 3);
    assert_int_equal(t.levels[1].width, 2);
    assert_int_equal(t.levels[1].height, 1);
    assert_int_equal(t.levels[2].width, 1);
    assert_int_equal(t.levels[2].height, 1);
    for (uint32_t l = 0; l < 3; l++)
        for (uint32_t x = 0; x < t.levels[l].width; x++) {
            const uint8_t *q = texel8(&t, l, x, 0);
            assert_int_equal(q[0], 200);
            assert_int_equal(q[1], 17);
            assert_int_equal(q[2], 99);
            assert_int_equal(q[3], 180);
        }
    kiln_texture_levels_free(&t);
    free(img.pixels);
}

static void texture_bright_last_column_of_5x3_hdr_is_not_lost(void **state)
{
    (void)state;
    kiln_image img = make_image(5, 3, KILN_PIXEL_F32);
    float *p = img.pixels;
    for (size_t i = 0; i < 15; i++) {
        float v = i % 5 == 4 ? 10.0f : 0.0f;
        p[i * 4 + 0] = p[i * 4 + 1] = p[i * 4 + 2] = v;
        p[i * 4 + 3] = 1.0f;
    }
    kiln_texture_build_opts s = defaults();
    s.format = KILN_TEXFMT_RGBA16F;
    kiln_texture_levels t;
    build_ok(&img, &s, &t);
    assert_int_equal(t.level_count, 3);
    /* The bright column is 1 of the 2.5 source columns under texel 1: 10 * 0.4 = 4. */
    assert_true(texel16f(&t, 1, 0, 0, 0) == 0.0f);
    assert_true(texel16f(&t, 1, 1, 0, 0) == 4.0f);
    /* The 1x1 level keeps the mean of the source: 3 texels of 10 in 15. */
    assert_true(texel16f(&t, 2, 0, 0, 0) == 2.0f);
    assert_true(texel16f(&t, 2, 0, 0, 3) == 1.0f);
    kiln_texture_levels_free(&t);
    free(img.pixels);
}

static void texture_normal_mips_are_unit_length_within_1_over_127(void **state)
{
    (void)state;
    kiln_image img = make_image(13, 7, KILN_PIXEL_U8);
    uint64_t rng = 99;
    for (uint32_t y = 0; y < 7; y++)
        for (uint32_t x = 0; x < 13; x++) {
            /* Random directions in the upper hemisphere, quantised to 8 bits. */
            double v[3];
            double len;
            do {
                for (int c = 0; c < 3; c++) v[c] = (double)kt_rand(&rng) / 2147483648.0 - 1.0;
                v[2] = fabs(v[2]);
                len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            } while (len < 0.1 || len > 1.0);
            uint8_t q[3];
            for (int c = 0; c < 3; c++)
                q[c] = (uint8_t)floor((v[c] / len * 0.5 + 0.5) * 255.0 + 0.5);
            set_u8(&img, x, y, q[0], q[1], q[2], 255);
        }
    kiln_texture_build_opts s = defaults();
    s.normal_map = true;
    kiln_texture_levels t;
    build_ok(&img, &s, &t);
    assert_int_equal(t.level_count, 4);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_R8G8B8A8_UNORM);
    for (uint32_t l = 1; l < t.level_count; l++)
        for (uint32_t y = 0; y < t.levels[l].height; y++)
            for (uint32_t x = 0; x < t.levels[l].width; x++) {
                const uint8_t *q = texel8(&t, l, x, y);
                double n[3];
                for (int c = 0; c < 3; c++) n[c] = q[c] / 255.0 * 2.0 - 1.0;
                double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                assert_true(fabs(len - 1.0) <= 1.0 / 127.0);
            }
    kiln_texture_levels_free(&t);
    free(img.pixels);
}

static void texture_flip_green_inverts_green_of_a_normal_map(void **state)
{
    (void)state;
    kiln_image img = make_image(256, 1, KILN_PIXEL_U8);
    for (uint32_t x = 0; x < 256; x++) set_u8(&img, x, 0, (uint8_t)x, (uint8_t)x, 255, 255);
    kiln_texture_build_opts s = defaults();
    s.normal_map = true;
    s.flip_green = true;
    kiln_texture_levels t;
    build_ok(&img, &s, &t);
    for (uint32_t x = 0; x < 256; x++) {
        const uint8_t *q = texel8(&t, 0, x, 0);
        assert_int_equal(q[0], x);
        assert_int_equal(q[1], 255 - x);
        assert_int_equal(q[2], 255);
    }
    kiln_texture_levels_free(&t);
    free(img.pixels);
}

static void texture_max_size_256_halves_1000x300_to_250x75_and_its_chain(void **state)
{
    (void)state;
    kiln_image img = make_image(1000, 300, KILN_PIXEL_U8);
    memset(img.pixels, 0x80, img.size);
    kiln_texture_build_opts s = defaults();
    s.max_size = 256;
    kiln_texture_levels t;
    build_ok(&img, &s, &t);
    const uint32_t expect[][2] = {{250, 75}, {125, 37}, {62, 18}, {31, 9},
                                  {15, 4},   {7, 2},    {3, 1},   {1, 1}};
    assert_int_equal(t.width, 250);
    assert_int_equal(t.height, 75);
    assert_int_equal(t.source_width, 1000);
    assert_int_equal(t.level_count, 8);
    for (uint32_t l = 0; l < 8; l++) {
        assert_int_equal(t.levels[l].width, expect[l][0]);
        assert_int_equal(t.levels[l].height, expect[l][1]);
        assert_int_equal(t.levels[l].size, (size_t)expect[l][0] * expect[l][1] * 4);
        assert_int_equal(t.levels[l].data[0], 0x80);
    }
    kiln_texture_levels_free(&t);
    s.mipmaps = false;
    build_ok(&img, &s, &t);
    assert_int_equal(t.level_count, 1);
    assert_int_equal(t.levels[0].width, 250);
    kiln_texture_levels_free(&t);
    free(img.pixels);
}

static void texture_level_count_for_1x1_13x7_and_256x256(void **state)
{
    (void)state;
    const uint32_t sizes[3][3] = {{1, 1, 1}, {13, 7, 4}, {256, 256, 9}};
    for (int i = 0; i < 3; i++) {
        kiln_image img = make_image(sizes[i][0], sizes[i][1], KILN_PIXEL_U8);
        kiln_texture_build_opts s = defaults();
        kiln_texture_levels t;
        build_ok(&img, &s, &t);
        assert_int_equal(t.level_count, sizes[i][2]);
        assert_int_equal(t.levels[t.level_count - 1].width, 1);
        assert_int_equal(t.levels[t.level_count - 1].height, 1);
        kiln_texture_levels_free(&t);
        free(img.pixels);
    }
}

static void texture_hdr_float_becomes_saturated_half(void **state)
{
    (void)state;
    const float in[8] = {1.5f, 1000.0f, -2.0f, 70000.0f, NAN, INFINITY, 0.1f, 1e-6f};
    kiln_image img = make_image(2, 1, KILN_PIXEL_F32);
    memcpy(img.pixels, in, sizeof in);
    kiln_texture_build_opts s = defaults();
    s.format = KILN_TEXFMT_RGBA16F;
    kiln_texture_levels t;
    build_ok(&img, &s, &t);
    const uint8_t *d = t.levels[0].data;
    for (int i = 0; i < 8; i++) {
        uint16_t h = (uint16_t)(d[2 * i] | (d[2 * i + 1] << 8));
        float want = in[i] != in[i] ? 0.0f : in[i] > 65504.0f ? 65504.0f : in[i];
        assert_int_equal(h, kiln_half_from_float(want));
    }
    assert_int_equal(d[0], 0x00); /* 1.5 = 0x3e00, little-endian */
    assert_int_equal(d[1], 0x3e);
    assert_true(t.has_alpha); /* second texel's alpha 1e-6 */
    kiln_texture_levels_free(&t);
    free(img.pixels);
}

static void texture_levels_match_whole_image_downsample_of_the_float_source(void **state)
{
    (void)state;
    /* The builder converts the source a few rows at a time; the result must be bit-identical
     * to resampling the whole float image (11x9 -> 5x4 for max_size 8, then 2x2, 1x1). */
    kiln_image img = make_image(11, 9, KILN_PIXEL_F32);
    float *p = img.pixels;
    uint64_t rng = 4242;
    for (size_t i = 0; i < 11 * 9 * 4; i++) p[i] = (float)(kt_rand(&rng) % 20001) / 10000.0f;
    for (size_t i = 3; i < 11 * 9 * 4; i += 4) p[i] = (float)(kt_rand(&rng) % 3) / 2.0f;
    for (int normal = 0; normal < 2; normal++) {
        kiln_mip_filter f = normal ? KILN_MIP_FILTER_NORMAL : KILN_MIP_FILTER_COLOR;
        kiln_texture_build_opts s = defaults();
        s.format = KILN_TEXFMT_RGBA16F;
        s.max_size = 8;
        s.normal_map = normal;
        kiln_texture_levels t;
        build_ok(&img, &s, &t);
        assert_int_equal(t.level_count, 3);
        float l1[5 * 4 * 4], l2[2 * 2 * 4], l3[4];
        kiln_mip_downsample(p, 11, 9, l1, 5, 4, f);
        kiln_mip_downsample(l1, 5, 4, l2, 2, 2, f);
        kiln_mip_downsample(l2, 2, 2, l3, 1, 1, f);
        const float *want[3] = {l1, l2, l3};
        for (uint32_t l = 0; l < 3; l++) {
            size_t n = (size_t)t.levels[l].width * t.levels[l].height * 4;
            for (size_t i = 0; i < n; i++) {
                const uint8_t *d = t.levels[l].data + 2 * i;
                uint16_t h = (uint16_t)(d[0] | (d[1] << 8));
                assert_int_equal(h, kiln_half_from_float_sat(want[l][i]));
            }
        }
        kiln_texture_levels_free(&t);
    }
    free(img.pixels);
}

static void build_pattern(kiln_image *img, uint64_t seed)
{
    uint8_t *p = img->pixels;
    for (size_t i = 0; i < img->size; i++) p[i] = (uint8_t)kt_rand(&seed);
}

static void texture_build_twice_gives_identical_bytes(void **state)
{
    (void)state;
    kiln_image img = make_image(37, 23, KILN_PIXEL_U8);
    build_pattern(&img, 2024);
    for (int normal = 0; normal < 2; normal++)
        for (int f = 0; f < 2; f++) {
            kiln_texture_build_opts s = defaults();
            s.normal_map = normal;
            s.format = f ? KILN_TEXFMT_RGBA16F : KILN_TEXFMT_RGBA8;
            s.max_size = 32;
            kiln_texture_levels a, b;
            build_ok(&img, &s, &a);
            build_ok(&img, &s, &b);
            assert_int_equal(a.level_count, b.level_count);
            assert_int_equal(a.level_count, 5); /* 18x11 -> 9x5 -> 4x2 -> 2x1 -> 1x1 */
            for (uint32_t l = 0; l < a.level_count; l++) {
                assert_int_equal(a.levels[l].size, b.levels[l].size);
                assert_memory_equal(a.levels[l].data, b.levels[l].data, a.levels[l].size);
            }
            kiln_texture_levels_free(&a);
            kiln_texture_levels_free(&b);
        }
    free(img.pixels);
}

typedef struct counting_alloc {
    size_t live_bytes, allocations, fail_at; /* fail_at: 1-based allocation to fail, 0 = none */
} counting_alloc;

static void *ca_alloc(void *user, size_t size, size_t align)
{
    (void)align;
    counting_alloc *c = user;
    if (++c->allocations == c->fail_at) return NULL;
    c->live_bytes += size;
    return malloc(size);
}

static void ca_free(void *user, void *ptr, size_t size)
{
    counting_alloc *c = user;
    c->live_bytes -= size;
    free(ptr);
}

static void texture_frees_everything_and_survives_every_allocation_failure(void **state)
{
    (void)state;
    kiln_image img = make_image(13, 7, KILN_PIXEL_U16);
    build_pattern(&img, 5);
    kiln_texture_build_opts s = defaults();
    s.max_size = 8;
    counting_alloc c = {0, 0, 0};
    kiln_allocator a = {ca_alloc, NULL, ca_free, &c};
    kiln_texture_levels t;
    kiln_error err;
    assert_int_equal(kiln_texture_build(&img, &s, &a, &t, &err), KILN_OK);
    size_t total = c.allocations;
    size_t level_bytes = 0;
    for (uint32_t l = 0; l < t.level_count; l++) level_bytes += t.levels[l].size;
    assert_int_equal(c.live_bytes, level_bytes); /* only the levels remain */
    kiln_texture_levels_free(&t);
    assert_int_equal(c.live_bytes, 0);
    assert_true(total >= 5);
    for (size_t n = 1; n <= total; n++) {
        c = (counting_alloc){0, 0, n};
        assert_int_equal(kiln_texture_build(&img, &s, &a, &t, &err), KILN_E_OUT_OF_MEMORY);
        assert_int_equal(c.live_bytes, 0);
        assert_int_equal(t.level_count, 0);
    }
    free(img.pixels);
}

int kt_texture_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(texture_block_formats_store_edge_padded_blocks_with_their_vk_format),
        cmocka_unit_test(texture_refuses_srgb_with_bc4_and_bc5),
        cmocka_unit_test(texture_auto_picks_the_format_from_source_role_and_target),
        cmocka_unit_test(texture_refuses_srgb_with_normal_map_and_with_rgba16f),
        cmocka_unit_test(texture_rejects_an_image_smaller_than_its_size_says),
        cmocka_unit_test(texture_auto_format_and_colour_space_follow_the_source),
        cmocka_unit_test(texture_level0_of_8bit_keeps_every_code_in_srgb_and_linear),
        cmocka_unit_test(texture_16bit_srgb_is_rounded_to_the_nearest_8bit_code),
        cmocka_unit_test(texture_float_path_gives_the_same_level0_as_the_8bit_copy),
        cmocka_unit_test(texture_opaque_green_beside_transparent_red_keeps_pure_green_in_the_mip),
        cmocka_unit_test(texture_constant_5x3_stays_constant_through_2x1_and_1x1),
        cmocka_unit_test(texture_bright_last_column_of_5x3_hdr_is_not_lost),
        cmocka_unit_test(texture_normal_mips_are_unit_length_within_1_over_127),
        cmocka_unit_test(texture_flip_green_inverts_green_of_a_normal_map),
        cmocka_unit_test(texture_max_size_256_halves_1000x300_to_250x75_and_its_chain),
        cmocka_unit_test(texture_level_count_for_1x1_13x7_and_256x256),
        cmocka_unit_test(texture_hdr_float_becomes_saturated_half),
        cmocka_unit_test(texture_levels_match_whole_image_downsample_of_the_float_source),
        cmocka_unit_test(texture_build_twice_gives_identical_bytes),
        cmocka_unit_test(texture_frees_everything_and_survives_every_allocation_failure),
    };
    return cmocka_run_group_tests_name("texture", tests, NULL, NULL);
}
