/* test_render_quad.c — the first draw. A 256x256 crop of a corpus photo (kodim03) is cooked in a
 * temporary project to RGBA8 (sRGB and linear), BC7, BC1, BC4, BC5 and ASTC 4x4, and a corpus
 * HDR image to RGBA16F, with the quad's GLSL from tools/view/shaders;
 * libkiln_rt loads everything with kv as the renderer (ASTC goes through the runtime's CPU
 * transcode: lavapipe samples no ASTC); each texture is drawn as a quad covering a 256x256 target
 * (nearest filtering, level 0: one texel per pixel), read back and compared by PSNR over RGB:
 *   - with the cooked level 0 decoded on the CPU (kiln_transcode_rgba8, sRGB-encoded as the
 *     target does for linear formats): the GPU's sampling and the target's encoding, >= 45 dB;
 *   - with the source crop: the encoder's loss on top, >= 50 dB for RGBA8, 40 dB for BC7 and
 *     ASTC 4x4, 32 dB for BC1 (about 6 dB under what lavapipe gives; a wrong level, format,
 *     orientation or colour space gives far less).
 * Every step runs under the validation layer; any message fails. The renders are written to
 * $KILN_BINARY_DIR/tests/render/quad_<format>.png for a person to look at. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <spng.h>

#include "kiln/kiln.h"
#include "kiln/kiln_rt.h"
#include "kv.h"
#include "render_fixture.h"
#include "support.h"

#define SIZE 256u

typedef struct quad_case {
    const char *name;     /* the asset's file name stem and the output PNG's suffix */
    const char *settings; /* its import.texture object */
    bool hdr;             /* the source is images/hdr/hdr-rgb-00.hdr, else the kodim03 crop */
    double min_cooked_db;
    double min_source_db; /* 0: not compared (a linear or single-channel format) */
} quad_case;

/* Measured on lavapipe (Mesa 22.3.6, LLVM 15), to the cooked texels / to the source: rgba8
 * inf/inf, rgba8_linear 59.6/-, bc7 inf/46.6, bc1 76.0/37.6, bc4 62.7/-, bc5 60.4/-, astc
 * inf/45.5, rgba16f 60.1/- (docs/rendering.md). The linear ones differ from the CPU's sRGB
 * encoding by one step in a few texels. */
static const quad_case cases[] = {
    {"rgba8", "{\"format\": \"rgba8\"}", false, 45.0, 50.0},
    {"rgba8_linear", "{\"format\": \"rgba8\", \"srgb\": false}", false, 45.0, 0},
    {"bc7", "{\"format\": \"bc7\"}", false, 45.0, 40.0},
    {"bc1", "{\"format\": \"bc1\"}", false, 45.0, 32.0},
    {"bc4", "{\"format\": \"bc4\"}", false, 45.0, 0},
    {"bc5", "{\"format\": \"bc5\"}", false, 45.0, 0},
    {"astc", "{\"format\": \"astc4x4\"}", false, 45.0, 40.0},
    {"rgba16f", "{\"format\": \"rgba16f\"}", true, 45.0, 0},
};
#define CASE_COUNT (sizeof cases / sizeof cases[0])
#define ASTC_CASE  6

/* The source: a SIZE x SIZE crop of kodim03 as RGBA8 (alpha 255). */
static uint8_t *source_crop(void)
{
    char *path = kt_corpus_path("images/kodak/kodim03.png");
    if (!path) kt_require_corpus();
    size_t size = 0;
    void *png = kt_read_file(path, &size);
    assert_non_null(png);
    spng_ctx *s = spng_ctx_new(0);
    assert_int_equal(spng_set_png_buffer(s, png, size), 0);
    struct spng_ihdr ihdr;
    assert_int_equal(spng_get_ihdr(s, &ihdr), 0);
    size_t out_size = 0;
    assert_int_equal(spng_decoded_image_size(s, SPNG_FMT_RGBA8, &out_size), 0);
    uint8_t *full = malloc(out_size);
    assert_int_equal(spng_decode_image(s, full, out_size, SPNG_FMT_RGBA8, 0), 0);
    spng_ctx_free(s);
    assert_true(ihdr.width >= SIZE + 256 && ihdr.height >= SIZE + 128);
    uint8_t *crop = malloc(SIZE * SIZE * 4);
    for (uint32_t y = 0; y < SIZE; y++) /* from (256, 128): the hats, colourful and detailed */
        memcpy(crop + (size_t)y * SIZE * 4, full + ((size_t)(y + 128) * ihdr.width + 256) * 4,
               SIZE * 4);
    free(full);
    free(png);
    free(path);
    return crop;
}

/* PSNR over R, G and B of two SIZE x SIZE RGBA8 images (INFINITY when equal). */
static double psnr_rgb(const uint8_t *a, const uint8_t *b)
{
    double se = 0;
    for (size_t i = 0; i < (size_t)SIZE * SIZE; i++)
        for (int c = 0; c < 3; c++) {
            double d = (double)a[i * 4 + c] - (double)b[i * 4 + c];
            se += d * d;
        }
    if (se == 0) return INFINITY;
    double mse = se / ((double)SIZE * SIZE * 3);
    return 10.0 * log10(255.0 * 255.0 / mse);
}

static void write_text(const char *path, const char *text)
{
    kt_write_file(path, text, strlen(text));
}

/* A project with the crop under several names and the HDR image (one format each) and the
 * quad's shaders, imported. */
static char *cook_project(const uint8_t *crop)
{
    char *dir = kt_tempdir("render");
    char *cmd = kt_format("mkdir -p '%s/assets/shaders' && cp '%s/tools/view/shaders/quad.vert' "
                          "'%s/tools/view/shaders/quad.frag' '%s/assets/shaders/'",
                          dir, getenv("KILN_SOURCE_DIR"), getenv("KILN_SOURCE_DIR"), dir);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    for (size_t i = 0; i < CASE_COUNT; i++) {
        char *file = kt_format("%s/assets/%s.%s", dir, cases[i].name, cases[i].hdr ? "hdr" : "png");
        if (cases[i].hdr) {
            char *src = kt_corpus_path("images/hdr/hdr-rgb-00.hdr");
            char *cp = kt_format("cp '%s' '%s'", src, file);
            assert_int_equal(kt_run(cp, NULL), 0);
            free(cp);
            free(src);
        } else {
            kt_write_png(file, crop, SIZE, SIZE, 4);
        }
        char *meta = kt_format("%s.meta", file);
        char *text = kt_format("{\"import\": {\"texture\": %s}}", cases[i].settings);
        write_text(meta, text);
        free(file);
        free(meta);
        free(text);
    }
    kt_import_all(dir);
    return dir;
}

/* The sRGB encoding of a linear value in [0, 1], as 8 bits (what the target stores). */
static uint8_t srgb8(float v)
{
    v = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
    float e = v <= 0.0031308f ? v * 12.92f : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
    return (uint8_t)lrintf(e * 255.0f);
}

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15), exp = (h >> 10) & 31u, man = h & 1023u;
    float v;
    if (exp == 0) v = ldexpf((float)man, -24);
    else if (exp == 31) v = man ? NAN : INFINITY;
    else v = ldexpf((float)(man | 1024u), (int)exp - 25);
    return sign ? -v : v;
}

/* What the target should hold for level 0 of the texture as the runtime handed it: the texels
 * decoded on the CPU (kiln_transcode_rgba8; RGBA16F by hand), sRGB-encoded unless they are
 * sRGB already (the target encodes what the shader writes). */
static uint8_t *expected_rgba8(krt_context *rt, krt_handle h)
{
    krt_texture_data d;
    kiln_error err;
    assert_int_equal(krt_get_texture(rt, h, &d, &err), KILN_OK);
    assert_int_equal(d.width, SIZE);
    assert_int_equal(d.height, SIZE);
    assert_true(d.level_count > 1); /* the whole mip chain is uploaded */
    uint8_t *rgba = malloc(SIZE * SIZE * 4);
    size_t n = (size_t)SIZE * SIZE * 4;
    if (d.vk_format == KILN_VK_FORMAT_R16G16B16A16_SFLOAT) {
        assert_true(d.levels[0].size >= n * 2);
        for (size_t i = 0; i < n; i++) {
            uint16_t h16;
            memcpy(&h16, d.levels[0].data + i * 2, 2);
            float v = half_to_float(h16);
            rgba[i] = i % 4 == 3 ? (uint8_t)lrintf((v < 0 ? 0 : v > 1 ? 1 : v) * 255.0f) : srgb8(v);
        }
        return rgba;
    }
    assert_int_equal(kiln_transcode_rgba8(d.vk_format, d.levels[0].data, d.levels[0].size, SIZE,
                                          SIZE, rgba, n, &err),
                     KILN_OK);
    if (!d.srgb)
        for (size_t i = 0; i < n; i++)
            if (i % 4 != 3) rgba[i] = srgb8((float)rgba[i] / 255.0f);
    return rgba;
}

static void test_quad(void **state)
{
    kt_require_corpus();
    kv_context *kv = render_context_or_skip();
    kiln_error err;
    printf("device: %s\n", kv_device_name(kv));

    uint8_t *crop = source_crop();
    char *dir = cook_project(crop);

    krt_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.worker_count = 2;
    kv_renderer_fill(kv, &desc.renderer, &desc.renderer_shaders);
    krt_context *rt = NULL;
    assert_int_equal(krt_create(&desc, &rt, &err), KILN_OK);
    char *cache = kt_format("%s/.kiln/cache", dir);
    assert_int_equal(krt_mount_cache(rt, cache, NULL, &err), KILN_OK);

    krt_handle vert = krt_load_shader(rt, "shaders/quad.vert#shader", &err);
    krt_handle frag = krt_load_shader(rt, "shaders/quad.frag#shader", &err);
    krt_handle tex[CASE_COUNT];
    for (size_t i = 0; i < CASE_COUNT; i++) {
        char *name = kt_format("%s.%s#texture", cases[i].name, cases[i].hdr ? "hdr" : "png");
        tex[i] = krt_load_texture(rt, name, &err);
        assert_true(tex[i].id != 0);
        free(name);
    }
    krt_finish(rt);
    assert_int_equal(krt_state_of(rt, vert), KRT_STATE_READY);
    assert_int_equal(krt_state_of(rt, frag), KRT_STATE_READY);

    kv_target *target = NULL;
    assert_int_equal(kv_target_create(kv, SIZE, SIZE, &target, &err), KILN_OK);
    kv_quad *quad = NULL;
    kiln_result r = kv_quad_create(kv, target, krt_gpu(rt, vert), krt_gpu(rt, frag), &quad, &err);
    if (r) fail_msg("kv_quad_create: %s", err.message);

    uint8_t *pixels = malloc(SIZE * SIZE * 4);
    for (size_t i = 0; i < CASE_COUNT; i++) {
        if (krt_state_of(rt, tex[i]) != KRT_STATE_READY) {
            krt_error(rt, tex[i], &err);
            fail_msg("%s: %s", cases[i].name, err.message);
        }
        const kv_texture *t = krt_gpu(rt, tex[i]);
        assert_non_null(t);
        r = kv_quad_draw(kv, quad, target, t, &err);
        if (r) fail_msg("kv_quad_draw: %s", err.message);
        assert_int_equal(kv_target_read(kv, target, pixels, SIZE * SIZE * 4, &err), KILN_OK);
        uint8_t *cooked = expected_rgba8(rt, tex[i]);
        double to_cooked = psnr_rgb(pixels, cooked);
        double to_source = cases[i].min_source_db > 0 ? psnr_rgb(pixels, crop) : NAN;
        printf("%-12s uploaded as format %3u: %6.2f dB to the cooked texels, %6.2f dB to the "
               "source\n",
               cases[i].name, kv_texture_format(t), to_cooked, to_source);
        char *out =
            kt_format("%s/tests/render/quad_%s.png", getenv("KILN_BINARY_DIR"), cases[i].name);
        assert_int_equal(kv_write_png(out, pixels, SIZE, SIZE, &err), KILN_OK);
        free(out);
        free(cooked);
        assert_true(to_cooked >= cases[i].min_cooked_db);
        if (cases[i].min_source_db > 0) assert_true(to_source >= cases[i].min_source_db);
        /* each texture reaches the GPU in a format the device samples: ASTC transcoded */
        assert_true(kv_supports_format(kv, kv_texture_format(t)));
    }
    assert_true(kv_texture_format(krt_gpu(rt, tex[ASTC_CASE])) == KILN_VK_FORMAT_R8G8B8A8_SRGB ||
                kv_supports_format(kv, KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK));
    krt_stats stats = {.struct_size = sizeof stats};
    krt_get_stats(rt, &stats);
    printf("transcodes: %llu\n", (unsigned long long)stats.transcodes);
    if (!kv_supports_format(kv, KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK))
        assert_true(stats.transcodes >= 1);

    free(pixels);
    kv_quad_destroy(kv, quad);
    kv_target_destroy(kv, target);
    krt_destroy(rt); /* runs destroy_texture / destroy_shader for what is live */
    render_assert_no_messages(kv);
    kv_context_destroy(kv);
    kt_rmtree(dir);
    free(cache);
    free(dir);
    free(crop);
}

int main(void)
{
    render_pin_drivers();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
