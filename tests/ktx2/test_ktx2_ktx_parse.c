/* test_ktx2_ktx_parse.c — an independent reader agrees with kiln's writer: the ktx-parse npm
 * package (tests/node/node_modules) parses every KTX2 file kiln writes, re-serialises it to the
 * same bytes, and sees the format, size, levels and scheme kiln meant. Runs
 * tests/ktx2/ktx_parse_check.mjs with node; skips (77) when node or ktx-parse is absent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/vk_format.h"
#include "ktx2_fixtures.h"
#include "process/etc1s_encode.h"
#include "process/uastc_encode.h"
#include "support.h"

static char *g_script;

/* Appends " --expect=... path" for one written file. */
static char *add_file(char *cmd, const char *dir, const char *name, const uint8_t *bytes,
                      size_t size, uint32_t vk, uint32_t levels, uint32_t w, uint32_t h,
                      uint32_t scheme)
{
    char *path = kt_format("%s/%s", dir, name);
    kt_write_file(path, bytes, size);
    char *next = kt_format("%s --expect=%u,%u,%u,%u,%u '%s'", cmd, vk, levels, w, h, scheme, path);
    free(path);
    free(cmd);
    return next;
}

static int run_check(const char *args, char **out)
{
    char *cmd = kt_format("node '%s' %s 2>&1", g_script, args);
    int rc = kt_run(cmd, out);
    free(cmd);
    return rc;
}

static void ktx_parse_rewrites_every_kiln_file_byte_for_byte(void **state)
{
    (void)state;
    static const uint32_t sizes[][3] = {{13, 7, 0}, {1, 1, 0}, {64, 32, 3}, {4, 4, 1}};
    char *dir = kt_tempdir("ktx2-ktx-parse");
    char *cmd = kt_format("%s", "");
    size_t files = 0;
    for (size_t i = 0; i < kiln_vk_format_count(); i++) {
        const kiln_vk_format_info *f = kiln_vk_format_at(i);
        for (uint32_t scheme = 0; scheme <= 2; scheme += 2) {
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                ktx2_fixture fx;
                fx_init(&fx, f->vk_format, sizes[s][0], sizes[s][1], sizes[s][2], scheme,
                        (uint32_t)(i + s));
                fx.desc.premultiplied = s == 3;
                size_t size;
                uint8_t *bytes = fx_write(&fx, &size);
                char *name = kt_format("%s_%ux%u_%u_s%u.ktx2", f->name, sizes[s][0], sizes[s][1],
                                       fx.desc.level_count, scheme);
                cmd = add_file(cmd, dir, name, bytes, size, f->vk_format, fx.desc.level_count,
                               sizes[s][0], sizes[s][1], scheme);
                files++;
                free(name);
                free(bytes);
                fx_free(&fx);
            }
        }
    }
    /* Every shape, both schemes. */
    static const struct {
        uint32_t shape, w, h, layers, depth, faces;
    } shapes[] = {
        {KILN_TEXTURE_SHAPE_CUBE, 16, 16, 0, 0, 6},  {KILN_TEXTURE_SHAPE_ARRAY, 13, 7, 3, 0, 1},
        {KILN_TEXTURE_SHAPE_VOLUME, 8, 4, 0, 5, 1},  {KILN_TEXTURE_SHAPE_CUBE_ARRAY, 8, 8, 2, 0, 6},
        {KILN_TEXTURE_SHAPE_VOLUME, 4, 4, 0, 16, 1},
    };
    /* every format kiln writes, in every shape */
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (size_t fi = 0; fi < kiln_vk_format_count(); fi++)
            for (uint32_t scheme = 0; scheme <= 2; scheme += 2) {
                const uint32_t shape_formats[1] = {kiln_vk_format_at(fi)->vk_format};
                const size_t f = 0;
                ktx2_fixture fx;
                fx_init_shape(&fx, shape_formats[f], shapes[s].w, shapes[s].h, shapes[s].shape,
                              shapes[s].layers, shapes[s].depth, 0, scheme, (uint32_t)s);
                size_t size;
                uint8_t *bytes = fx_write(&fx, &size);
                char *name =
                    kt_format("%s_%zu_%u_s%u.ktx2", kiln_texture_shape_name(shapes[s].shape), s,
                              shape_formats[f], scheme);
                char *path = kt_format("%s/%s", dir, name);
                kt_write_file(path, bytes, size);
                char *next =
                    kt_format("%s --expect=%u,%u,%u,%u,%u,%u,%u,%u '%s'", cmd, shape_formats[f],
                              fx.desc.level_count, shapes[s].w, shapes[s].h, scheme,
                              shapes[s].depth, shapes[s].layers, shapes[s].faces, path);
                free(cmd);
                cmd = next;
                files++;
                free(path);
                free(name);
                free(bytes);
                fx_free(&fx);
            }
    /* Basis Universal files kiln's encoders and writer make: ETC1S in BasisLZ (with and without
     * alpha) and UASTC in Zstandard, of a synthetic 20x12 image with its mips. */
    {
        enum { W = 20, H = 12 };
        uint8_t rgba[5][W * H * 4];
        uint32_t lw[5], lh[5];
        for (uint32_t l = 0; l < 5; l++) {
            lw[l] = W >> l ? W >> l : 1;
            lh[l] = H >> l ? H >> l : 1;
            for (uint32_t i = 0; i < lw[l] * lh[l]; i++)
                for (int c = 0; c < 4; c++)
                    rgba[l][4 * i + c] = (uint8_t)(c == 3 ? 200 + (i % 7) * 8 : i * (c + 3) + l);
        }
        for (int alpha = 0; alpha < 2; alpha++) {
            kiln_etc1s_image images[5];
            for (uint32_t l = 0; l < 5; l++)
                images[l] = (kiln_etc1s_image){rgba[l], lw[l], lh[l], l};
            kiln_etc1s_encoded e;
            kiln_error err;
            assert_int_equal(kiln_etc1s_encode(images, 5, 128, alpha, NULL, &e, &err), KILN_OK);
            kiln_ktx2_write_desc d = {0};
            d.basis = KILN_KTX2_BASIS_ETC1S;
            d.basis_channels = e.alpha ? KILN_BASIS_CHANNELS_RGBA : KILN_BASIS_CHANNELS_RGB;
            d.srgb = true;
            d.width = W;
            d.height = H;
            d.level_count = 5;
            for (uint32_t l = 0; l < 5; l++)
                d.levels[l] = (kiln_ktx2_write_level){e.level[l], e.level_size[l]};
            d.supercompression = KILN_KTX2_SUPERCOMPRESSION_BASISLZ;
            d.sgd = e.sgd;
            d.sgd_size = e.sgd_size;
            kiln_buf b;
            kiln_buf_init(&b, NULL);
            assert_int_equal(kiln_ktx2_write(&d, &b, &err), KILN_OK);
            char *name = kt_format("etc1s_%d.ktx2", alpha);
            cmd = add_file(cmd, dir, name, b.data, b.size, 0, 5, W, H, 1);
            files++;
            free(name);
            kiln_buf_free(&b);
            kiln_etc1s_encoded_free(&e, NULL);
        }
        uint8_t blocks[5][((W + 3) / 4) * ((H + 3) / 4) * 16];
        kiln_ktx2_write_desc d = {0};
        d.basis = KILN_KTX2_BASIS_UASTC;
        d.basis_channels = KILN_BASIS_CHANNELS_RGBA;
        d.width = W;
        d.height = H;
        d.level_count = 5;
        d.supercompression = KILN_KTX2_SUPERCOMPRESSION_ZSTD;
        kiln_error err;
        for (uint32_t l = 0; l < 5; l++) {
            size_t n = (size_t)((lw[l] + 3) / 4) * ((lh[l] + 3) / 4) * 16;
            assert_int_equal(
                kiln_uastc_encode(rgba[l], lw[l], lh[l], (size_t)lw[l] * 4, 1, blocks[l], n, &err),
                KILN_OK);
            d.levels[l] = (kiln_ktx2_write_level){blocks[l], n};
        }
        kiln_buf b;
        kiln_buf_init(&b, NULL);
        assert_int_equal(kiln_ktx2_write(&d, &b, &err), KILN_OK);
        cmd = add_file(cmd, dir, "uastc.ktx2", b.data, b.size, 0, 5, W, H, 2);
        files++;
        kiln_buf_free(&b);
    }
    /* The pinned golden files too. */
    static const struct {
        const char *name;
        uint32_t vk, levels, w, h;
    } golden[] = {
        {"ktx2_rgba8_srgb_2x2_2levels.ktx2", KILN_VK_FORMAT_R8G8B8A8_SRGB, 2, 2, 2},
        {"ktx2_bc7_4x4.ktx2", KILN_VK_FORMAT_BC7_UNORM_BLOCK, 1, 4, 4},
    };
    for (size_t g = 0; g < sizeof golden / sizeof golden[0]; g++) {
        char *path = kt_format("%s/tests/golden/%s", fx_source_dir(), golden[g].name);
        assert_true(kt_file_exists(path));
        char *next = kt_format("%s --expect=%u,%u,%u,%u,0 '%s'", cmd, golden[g].vk,
                               golden[g].levels, golden[g].w, golden[g].h, path);
        free(cmd);
        cmd = next;
        files++;
        free(path);
    }
    char *out = NULL;
    int rc = run_check(cmd, &out);
    printf("%s", out ? out : "(no output)\n");
    if (rc != 0) fail_msg("ktx_parse_check.mjs exited %d over %zu files", rc, files);
    char *summary = kt_format("%zu files checked, 0 failures", files);
    assert_non_null(out);
    assert_non_null(strstr(out, summary));
    free(summary);
    free(out);
    free(cmd);
    kt_rmtree(dir);
    free(dir);
}

/* The check is not a rubber stamp: a wrong expectation and a changed byte layout both fail. */
static void ktx_parse_check_fails_on_wrong_expectation_or_extra_bytes(void **state)
{
    (void)state;
    char *dir = kt_tempdir("ktx2-ktx-parse-neg");
    size_t size;
    uint8_t *bytes = fx_make(KILN_VK_FORMAT_BC7_SRGB_BLOCK, 8, 8, 0, 0, 1, &size);
    char *cmd = add_file(kt_format("%s", ""), dir, "wrong.ktx2", bytes, size,
                         KILN_VK_FORMAT_BC7_UNORM_BLOCK, 4, 8, 8, 0);
    char *out = NULL;
    assert_int_equal(run_check(cmd, &out), 1);
    assert_non_null(strstr(out, "vkFormat is 146, kiln expects 145"));
    free(out);
    free(cmd);

    uint8_t *longer = calloc(1, size + 4); /* trailing bytes: write() drops them */
    memcpy(longer, bytes, size);
    cmd = add_file(kt_format("%s", ""), dir, "longer.ktx2", longer, size + 4,
                   KILN_VK_FORMAT_BC7_SRGB_BLOCK, 4, 8, 8, 0);
    assert_int_equal(run_check(cmd, &out), 1);
    assert_non_null(strstr(out, "FAIL"));
    free(out);
    free(cmd);
    free(longer);
    free(bytes);
    kt_rmtree(dir);
    free(dir);
}

int main(void)
{
    char *module =
        kt_format("%s/tests/node/node_modules/ktx-parse/dist/index.mjs", fx_source_dir());
    char *node = NULL;
    if (kt_run("command -v node 2>/dev/null", &node) != 0 || !node || !*node) {
        fprintf(stderr, "SKIP: node is not on PATH; the ktx-parse cross-check needs it\n");
        return 77;
    }
    if (!kt_file_exists(module)) {
        fprintf(stderr, "SKIP: %s is absent (npm ci in tests/node)\n", module);
        return 77;
    }
    free(node);
    free(module);
    g_script = kt_format("%s/tests/ktx2/ktx_parse_check.mjs", fx_source_dir());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ktx_parse_rewrites_every_kiln_file_byte_for_byte),
        cmocka_unit_test(ktx_parse_check_fails_on_wrong_expectation_or_extra_bytes),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(g_script);
    return rc;
}
