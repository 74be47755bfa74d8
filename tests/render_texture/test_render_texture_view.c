/* test_render_texture_view.c — kv_texture_view, the picture of a texture level (docs/rendering.md
 * "kiln thumbnail"): kv_fit_size's rule, kv_view_mode_for's table, and, drawn by the device under
 * the validation layer with the cooked thumb_texture shaders (view_shaders.kpak, mounted in
 * libkiln_rt as kiln thumbnail does), the exact pixels of a few texels magnified 8x: the
 * checkerboard behind a transparent texel, an opaque one, half alpha composited in linear light,
 * a smaller level, each view mode; a level past the chain is refused. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kiln/kiln_rt.h"
#include "kv.h"
#include "render_fixture.h"

static void test_fit_size(void **state)
{
    (void)state;
    uint32_t w, h;
    kv_fit_size(768, 512, 256, &w, &h);
    assert_true(w == 256 && h == 171); /* 170.67 rounded */
    kv_fit_size(512, 768, 256, &w, &h);
    assert_true(w == 171 && h == 256);
    kv_fit_size(4, 2, 32, &w, &h); /* magnified */
    assert_true(w == 32 && h == 16);
    kv_fit_size(4096, 1, 256, &w, &h); /* never 0 */
    assert_true(w == 256 && h == 1);
    kv_fit_size(64, 64, 64, &w, &h);
    assert_true(w == 64 && h == 64);
    kv_fit_size(0, 64, 64, &w, &h);
    assert_true(w == 0 && h == 0);
}

static void test_view_modes(void **state)
{
    (void)state;
    assert_int_equal(kv_view_mode_for(KILN_VK_FORMAT_BC7_SRGB_BLOCK), KV_VIEW_COLOR);
    assert_int_equal(kv_view_mode_for(KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK), KV_VIEW_COLOR);
    assert_int_equal(kv_view_mode_for(KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK), KV_VIEW_COLOR);
    assert_int_equal(kv_view_mode_for(KILN_VK_FORMAT_R8G8B8A8_SRGB), KV_VIEW_COLOR);
    assert_int_equal(kv_view_mode_for(KILN_VK_FORMAT_R8G8B8A8_UNORM), KV_VIEW_STORED);
    assert_int_equal(kv_view_mode_for(KILN_VK_FORMAT_BC7_UNORM_BLOCK), KV_VIEW_STORED);
    assert_int_equal(kv_view_mode_for(KILN_VK_FORMAT_BC4_UNORM_BLOCK), KV_VIEW_GREY);
    assert_int_equal(kv_view_mode_for(KILN_VK_FORMAT_BC5_UNORM_BLOCK), KV_VIEW_NORMAL_XY);
    assert_int_equal(kv_view_mode_for(KILN_VK_FORMAT_R16G16B16A16_SFLOAT), KV_VIEW_FLOAT);
}

static float lin(float s) /* sRGB value 0..1 to linear */
{
    return s <= 0.04045f ? s / 12.92f : powf((s + 0.055f) / 1.055f, 2.4f);
}

static int srgb8(float v)
{
    float e = v <= 0.0031308f ? v * 12.92f : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
    return (int)lrintf(e * 255.0f);
}

/* The pixel at (x, y) of a w-wide RGBA8 read-back is (r, g, b) within 1, alpha 255. */
static void expect_pixel(const uint8_t *px, uint32_t w, uint32_t x, uint32_t y, int r, int g, int b)
{
    const uint8_t *p = px + ((size_t)y * w + x) * 4;
    if (abs(p[0] - r) > 1 || abs(p[1] - g) > 1 || abs(p[2] - b) > 1 || p[3] != 255)
        fail_msg("pixel (%u, %u) is %u %u %u %u, expected %d %d %d 255", x, y, p[0], p[1], p[2],
                 p[3], r, g, b);
}

typedef struct drawing {
    kv_context *kv;
    krt_context *rt;
    krt_renderer r;
    kv_target *target;
    kv_texture_view *view;
} drawing;

/* A 4x2 texture of `format` with three levels: level 0's texels as given, level 1 all 0x80,
 * level 2 all 0xC0 (alpha 255). */
static void *make_texture(drawing *g, uint32_t format, const uint8_t level0[32])
{
    static uint8_t level1[8], level2[4];
    memset(level1, 0x80, sizeof level1);
    memset(level2, 0xC0, sizeof level2);
    level1[3] = level1[7] = level2[3] = 255;
    krt_texture_data d;
    memset(&d, 0, sizeof d);
    d.vk_format = format;
    d.width = 4;
    d.height = 2;
    d.level_count = 3;
    d.srgb = format == KILN_VK_FORMAT_R8G8B8A8_SRGB;
    d.block_width = d.block_height = 1;
    d.block_size = 4;
    d.levels[0] = (kiln_ktx2_level){
        .data = level0, .size = 32, .uncompressed_size = 32, .width = 4, .height = 2};
    d.levels[1] = (kiln_ktx2_level){
        .data = level1, .size = 8, .uncompressed_size = 8, .width = 2, .height = 1};
    d.levels[2] = (kiln_ktx2_level){
        .data = level2, .size = 4, .uncompressed_size = 4, .width = 1, .height = 1};
    void *gpu = NULL;
    kiln_error err;
    if (g->r.create_texture(g->r.user, (krt_handle){0}, &d, &gpu, &err))
        fail_msg("create_texture: %s", err.message);
    return gpu;
}

static void draw(drawing *g, void *tex, uint32_t level, kv_view_mode mode, uint8_t *px)
{
    kiln_error err;
    if (kv_texture_view_draw(g->kv, g->view, g->target, tex, level, 0, mode, &err))
        fail_msg("kv_texture_view_draw: %s", err.message);
    assert_int_equal(kv_target_read(g->kv, g->target, px, 32 * 16 * 4, &err), KILN_OK);
}

static void test_pixels(void **state)
{
    (void)state;
    drawing g = {.kv = render_context_or_skip()};
    kiln_error err;
    krt_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    kv_renderer_fill(g.kv, &desc.renderer, &desc.renderer_shaders);
    g.r = desc.renderer;
    assert_int_equal(krt_create(&desc, &g.rt, &err), KILN_OK);
    const char *pack = getenv("KILN_VIEW_SHADERS");
    assert_non_null(pack);
    if (krt_mount_pack(g.rt, pack, NULL, &err)) fail_msg("%s: %s", pack, err.message);
    krt_handle vh = krt_load_shader(g.rt, "shaders/thumb_texture.vert#shader", &err);
    krt_handle fh = krt_load_shader(g.rt, "shaders/thumb_texture.frag#shader", &err);
    krt_finish(g.rt);
    assert_int_equal(krt_state_of(g.rt, vh), KRT_STATE_READY);
    assert_int_equal(krt_state_of(g.rt, fh), KRT_STATE_READY);
    assert_int_equal(kv_target_create(g.kv, 32, 16, &g.target, &err), KILN_OK);
    if (kv_texture_view_create(g.kv, g.target, krt_gpu(g.rt, vh), krt_gpu(g.rt, fh), &g.view, &err))
        fail_msg("kv_texture_view_create: %s", err.message);

    /* Level 0, 4x2 texels drawn 32x16: each texel is one 8x8 checker square. Row 0: transparent,
     * opaque red, white at half alpha, opaque 77 grey; row 1: opaque (255, 128, 0). */
    uint8_t level0[32] = {0,   0,   0,   0,   255, 0,   0,   255, 255, 255, 255,
                          128, 77,  77,  77,  255, 255, 128, 0,   255, 255, 128,
                          0,   255, 255, 128, 0,   255, 255, 128, 0,   255};
    uint8_t px[32 * 16 * 4];
    void *srgb = make_texture(&g, KILN_VK_FORMAT_R8G8B8A8_SRGB, level0);
    draw(&g, srgb, 0, KV_VIEW_COLOR, px);
    expect_pixel(px, 32, 3, 3, 204, 204, 204); /* square (0, 0): light */
    expect_pixel(px, 32, 11, 3, 255, 0, 0);
    /* white at alpha 128/255 over square (2, 0), light: mixed in linear light */
    float a = 128.0f / 255.0f;
    int half = srgb8(lin(0.8f) * (1.0f - a) + 1.0f * a);
    expect_pixel(px, 32, 19, 3, half, half, half);
    expect_pixel(px, 32, 27, 3, 77, 77, 77);
    expect_pixel(px, 32, 3, 11, 255, 128, 0);
    /* Level 1 (2x1, 0x80) fills the picture; level 2 (1x1, 0xC0) too. */
    draw(&g, srgb, 1, KV_VIEW_COLOR, px);
    expect_pixel(px, 32, 0, 0, 128, 128, 128);
    expect_pixel(px, 32, 31, 15, 128, 128, 128);
    draw(&g, srgb, 2, KV_VIEW_COLOR, px);
    expect_pixel(px, 32, 16, 8, 192, 192, 192);
    /* A level past the chain: refused, the range in the message. */
    assert_int_equal(kv_texture_view_draw(g.kv, g.view, g.target, srgb, 3, 0, KV_VIEW_COLOR, &err),
                     KILN_E_USAGE);
    assert_non_null(strstr(err.message, "0..2"));

    /* UNORM: the stored values are the picture's (sRGB) values, as in an image viewer. */
    void *unorm = make_texture(&g, KILN_VK_FORMAT_R8G8B8A8_UNORM, level0);
    draw(&g, unorm, 0, KV_VIEW_STORED, px);
    expect_pixel(px, 32, 11, 3, 255, 0, 0);
    expect_pixel(px, 32, 27, 3, 77, 77, 77);
    expect_pixel(px, 32, 3, 11, 255, 128, 0);
    /* Grey: R, opaque (the transparent texel shows black, not the checkerboard). */
    draw(&g, unorm, 0, KV_VIEW_GREY, px);
    expect_pixel(px, 32, 3, 3, 0, 0, 0);
    expect_pixel(px, 32, 11, 3, 255, 255, 255);
    expect_pixel(px, 32, 27, 3, 77, 77, 77);
    /* Normal map: x = 1, y = 128/255 * 2 - 1 (~0), z rebuilt 0 -> (255, 128, 128); R = G = 0
     * is (-1, -1): z clamped to 0 -> (0, 0, 128); 77, 77: x = y = -0.396, z = 0.829 -> 233. */
    draw(&g, unorm, 0, KV_VIEW_NORMAL_XY, px);
    expect_pixel(px, 32, 3, 11, 255, 128, 128);
    expect_pixel(px, 32, 3, 3, 0, 0, 128);
    float x = 77.0f / 255.0f * 2.0f - 1.0f, z = sqrtf(1.0f - 2.0f * x * x);
    expect_pixel(px, 32, 27, 3, 77, 77, (int)lrintf((z * 0.5f + 0.5f) * 255.0f));

    g.r.destroy_texture(g.r.user, (krt_handle){0}, srgb);
    g.r.destroy_texture(g.r.user, (krt_handle){0}, unorm);
    kv_texture_view_destroy(g.kv, g.view);
    kv_target_destroy(g.kv, g.target);
    krt_destroy(g.rt);
    render_assert_no_messages(g.kv);
    kv_context_destroy(g.kv);
}

int main(void)
{
    render_pin_drivers();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_size),
        cmocka_unit_test(test_view_modes),
        cmocka_unit_test(test_pixels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
