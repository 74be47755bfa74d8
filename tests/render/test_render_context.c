/* test_render_context.c — kv's headless context under the validation layer: create and destroy
 * with no message, a target, the errors of a missing loader and of misuse, and the messenger
 * catching a deliberately invalid call (what makes "no message" mean something). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kv.h"
#include "kv_internal.h" /* the misuse test calls Vulkan through the context's table */
#include "render_fixture.h"

static void test_create_destroy(void **state)
{
    kv_context *ctx = render_context_or_skip();
    assert_true(kv_validation_enabled(ctx));
    assert_true(strlen(kv_device_name(ctx)) > 0);
    printf("device: %s\n", kv_device_name(ctx));
    /* lavapipe and every desktop GPU sample RGBA8 and RGBA16F; nobody samples UNDEFINED */
    assert_true(kv_supports_format(ctx, KILN_VK_FORMAT_R8G8B8A8_SRGB));
    assert_true(kv_supports_format(ctx, KILN_VK_FORMAT_R16G16B16A16_SFLOAT));
    assert_false(kv_supports_format(ctx, KILN_VK_FORMAT_UNDEFINED));
    assert_false(kv_supports_format(ctx, 12345));
    static const struct {
        uint32_t format;
        const char *name;
    } formats[] = {
        {KILN_VK_FORMAT_R8G8B8A8_UNORM, "R8G8B8A8_UNORM"},
        {KILN_VK_FORMAT_R8G8B8A8_SRGB, "R8G8B8A8_SRGB"},
        {KILN_VK_FORMAT_R16G16B16A16_SFLOAT, "R16G16B16A16_SFLOAT"},
        {KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK, "BC1_RGB_UNORM"},
        {KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK, "BC1_RGB_SRGB"},
        {KILN_VK_FORMAT_BC4_UNORM_BLOCK, "BC4_UNORM"},
        {KILN_VK_FORMAT_BC5_UNORM_BLOCK, "BC5_UNORM"},
        {KILN_VK_FORMAT_BC7_UNORM_BLOCK, "BC7_UNORM"},
        {KILN_VK_FORMAT_BC7_SRGB_BLOCK, "BC7_SRGB"},
        {KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK, "ASTC_4x4_UNORM"},
        {KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK, "ASTC_4x4_SRGB"},
    };
    uint32_t v = kv_api_version(ctx);
    printf("Vulkan %u.%u; sampled natively:", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v));
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        printf(" %s=%s", formats[i].name,
               kv_supports_format(ctx, formats[i].format) ? "yes" : "no");
    printf("\n");
    assert_true(v >= VK_API_VERSION_1_1);
    render_assert_no_messages(ctx);
    kv_context_destroy(ctx);
    kv_context_destroy(NULL);
}

static void test_target(void **state)
{
    kv_context *ctx = render_context_or_skip();
    kiln_error err;
    kv_target *t = NULL;
    assert_int_equal(kv_target_create(ctx, 0, 16, &t, &err), KILN_E_USAGE);
    assert_null(t);
    assert_int_equal(kv_target_create(ctx, 64, 32, &t, &err), KILN_OK);
    uint32_t w, h;
    kv_target_size(t, &w, &h);
    assert_int_equal(w, 64);
    assert_int_equal(h, 32);
    uint8_t small[16];
    assert_int_equal(kv_target_read(ctx, t, small, sizeof small, &err), KILN_E_USAGE);
    uint8_t *px = malloc(64 * 32 * 4);
    /* nothing drawn yet: its contents are undefined, so reading is refused */
    assert_int_equal(kv_target_read(ctx, t, px, 64 * 32 * 4, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "nothing was drawn"));
    free(px);
    kv_target_destroy(ctx, t);
    render_assert_no_messages(ctx);
    kv_context_destroy(ctx);
}

static void test_missing_loader(void **state)
{
    kv_context_desc d = {.struct_size = sizeof d, .loader = "/nonexistent/libvulkan.so.1"};
    kv_context *ctx = (kv_context *)&d; /* must be cleared */
    kiln_error err;
    assert_int_equal(kv_context_create(&d, &ctx, &err), KV_E_UNAVAILABLE);
    assert_null(ctx);
    assert_non_null(strstr(err.message, "no loader"));
    assert_non_null(strstr(err.message, "/nonexistent/libvulkan.so.1"));
    d.struct_size = sizeof d + 8;
    assert_int_equal(kv_context_create(&d, &ctx, &err), KILN_E_USAGE);
}

/* A sampler with anisotropy on, which the device was not created with: the layer reports it
 * (VUID-VkSamplerCreateInfo-anisotropyEnable-01070) and the messenger must count it. */
static void test_messenger_catches_misuse(void **state)
{
    kv_context *ctx = render_context_or_skip();
    VkSamplerCreateInfo si = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = VK_FILTER_LINEAR,
        .minFilter = VK_FILTER_LINEAR,
        .anisotropyEnable = VK_TRUE,
        .maxAnisotropy = 4.0f,
    };
    VkSampler s = VK_NULL_HANDLE;
    VkResult r = ctx->vk.vkCreateSampler(ctx->device, &si, NULL, &s);
    if (r == VK_SUCCESS) ctx->vk.vkDestroySampler(ctx->device, s, NULL);
    kv_messages m;
    kv_messages_get(ctx, &m);
    assert_true(m.errors >= 1);
    assert_true(m.kept >= 1);
    assert_non_null(strstr(m.text[0], "anisotropy"));
    printf("caught: %.160s\n", m.text[0]);
    kv_context_destroy(ctx);
}

/* The texture and shader callbacks called directly, as libkiln_rt calls them: a small RGBA8
 * texture with its mip chain, and the data they must refuse. */
static void test_callbacks(void **state)
{
    kv_context *ctx = render_context_or_skip();
    krt_renderer r;
    krt_renderer_shaders sh;
    kv_renderer_fill(ctx, &r, &sh);
    assert_ptr_equal(r.user, ctx);
    assert_non_null(r.create_mesh);
    assert_non_null(r.create_material);
    assert_true(r.supports_format(r.user, KILN_VK_FORMAT_R8G8B8A8_SRGB));

    uint8_t level0[4 * 2 * 4], level1[2 * 1 * 4], level2[4];
    memset(level0, 0x40, sizeof level0);
    memset(level1, 0x80, sizeof level1);
    memset(level2, 0xC0, sizeof level2);
    krt_texture_data d;
    memset(&d, 0, sizeof d);
    d.vk_format = KILN_VK_FORMAT_R8G8B8A8_SRGB;
    d.width = 4;
    d.height = 2;
    d.level_count = 3;
    d.srgb = true;
    d.block_width = d.block_height = 1;
    d.block_size = 4;
    d.levels[0] = (kiln_ktx2_level){.data = level0,
                                    .size = sizeof level0,
                                    .uncompressed_size = sizeof level0,
                                    .width = 4,
                                    .height = 2};
    d.levels[1] = (kiln_ktx2_level){.data = level1,
                                    .size = sizeof level1,
                                    .uncompressed_size = sizeof level1,
                                    .width = 2,
                                    .height = 1};
    d.levels[2] = (kiln_ktx2_level){.data = level2,
                                    .size = sizeof level2,
                                    .uncompressed_size = sizeof level2,
                                    .width = 1,
                                    .height = 1};
    krt_handle h = {1};
    void *gpu = NULL;
    kiln_error err;
    kiln_result k = r.create_texture(r.user, h, &d, &gpu, &err);
    if (k) fail_msg("create_texture: %s", err.message);
    assert_non_null(gpu);
    assert_int_equal(kv_texture_format(gpu), KILN_VK_FORMAT_R8G8B8A8_SRGB);
    r.destroy_texture(r.user, h, gpu);

    /* a level shorter than its texels */
    d.levels[1].size = 4;
    gpu = NULL;
    assert_int_equal(r.create_texture(r.user, h, &d, &gpu, &err), KILN_E_FORMAT_INVALID);
    assert_non_null(strstr(err.message, "level 1"));
    assert_null(gpu);
    d.levels[1].size = sizeof level1;
    /* a format the device does not sample (what supports_format refused: never handed over) */
    if (!kv_supports_format(ctx, KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK)) {
        d.vk_format = KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK;
        assert_int_equal(r.create_texture(r.user, h, &d, &gpu, &err), KILN_E_IMPORT_UNSUPPORTED);
        assert_null(gpu);
    }
    /* no variants */
    krt_shader_data sd;
    memset(&sd, 0, sizeof sd);
    assert_int_equal(sh.create_shader(r.user, h, &sd, &gpu, &err), KILN_E_USAGE);
    assert_null(gpu);
    render_assert_no_messages(ctx);
    kv_context_destroy(ctx);
}

int main(void)
{
    render_pin_drivers();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_loader),
        cmocka_unit_test(test_create_destroy),
        cmocka_unit_test(test_target),
        cmocka_unit_test(test_callbacks),
        cmocka_unit_test(test_messenger_catches_misuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
