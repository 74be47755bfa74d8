/* test_texture_shape.c — kiln_texture_build_shape: faces and layers are each the 2D build of
 * their image, joined level by level; volumes are halved on all three axes with 2x2x2 boxes in
 * linear light (odd depths share their middle slice) and fitted to max_size in depth too; one
 * format for the set; refusals of counts, sizes and mixed HDR/LDR. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "process/half.h"
#include "process/texture.h"
#include "process_tests.h"

static kiln_texture_build_opts opts_rgba8(void)
{
    kiln_texture_build_opts s;
    memset(&s, 0, sizeof s);
    s.format = KILN_TEXFMT_RGBA8;
    s.srgb = KILN_TEXTURE_SRGB_NO;
    s.mipmaps = true;
    s.max_size = 16384;
    return s;
}

static kiln_image image_u8(uint32_t w, uint32_t h, uint64_t seed, uint8_t fill)
{
    kiln_image img;
    memset(&img, 0, sizeof img);
    img.width = w;
    img.height = h;
    img.type = KILN_PIXEL_U8;
    img.size = (size_t)w * h * 4;
    img.pixels = malloc(img.size);
    assert_non_null(img.pixels);
    uint8_t *p = img.pixels;
    for (size_t i = 0; i < img.size; i++)
        p[i] = seed ? (uint8_t)kt_rand(&seed) : (i % 4 == 3 ? 255 : fill);
    for (size_t i = 3; i < img.size; i += 4) p[i] = 255;
    img.format = KILN_IMAGE_PNG;
    img.source_channels = 4;
    img.source_bits = 8;
    return img;
}

static void build(const kiln_texture_source *src, const kiln_texture_build_opts *o,
                  kiln_texture_levels *t)
{
    kiln_error err;
    kiln_result r = kiln_texture_build_shape(src, o, NULL, NULL, t, &err);
    if (r != KILN_OK) fail_msg("kiln_texture_build_shape: %s", err.message);
}

/* A cube is six 2D builds joined: each face's level bytes equal its own 2D build's. */
static void cube_faces_are_their_own_2d_builds(void **state)
{
    (void)state;
    kiln_image faces[6];
    for (int f = 0; f < 6; f++) faces[f] = image_u8(16, 16, (uint64_t)f + 1, 0);
    kiln_texture_build_opts o = opts_rgba8();
    o.format = KILN_TEXFMT_BC7;
    kiln_texture_source src = {KILN_TEXTURE_SHAPE_CUBE, faces, 6, NULL};
    kiln_texture_levels t;
    build(&src, &o, &t);
    assert_int_equal(t.shape, KILN_TEXTURE_SHAPE_CUBE);
    assert_int_equal(t.face_count, 6);
    assert_int_equal(t.level_count, 5);
    for (int f = 0; f < 6; f++) {
        kiln_texture_levels one;
        kiln_error err;
        assert_int_equal(kiln_texture_build(&faces[f], &o, NULL, &one, &err), KILN_OK);
        for (uint32_t l = 0; l < t.level_count; l++) {
            size_t image = one.levels[l].size;
            assert_int_equal(t.levels[l].size, 6 * image);
            assert_memory_equal(t.levels[l].data + (size_t)f * image, one.levels[l].data, image);
        }
        kiln_texture_levels_free(&one);
    }
    kiln_texture_levels_free(&t);
    for (int f = 0; f < 6; f++) free(faces[f].pixels);
}

static uint8_t texel_r(const kiln_texture_levels *t, uint32_t l, uint32_t x, uint32_t y, uint32_t z)
{
    const kiln_texture_level *lv = &t->levels[l];
    return lv->data[(((size_t)z * lv->height + y) * lv->width + x) * 4];
}

/* Slice z of value 10 z: level 1 slice k is the mean of slices 2k and 2k + 1 (2x2x2 box of a
 * constant-per-slice volume), an odd depth of 5 gives 2 slices each taking 2.5 of the 5. */
static void volume_levels_are_2x2x2_boxes(void **state)
{
    (void)state;
    kiln_image slices[5];
    for (uint32_t z = 0; z < 5; z++) slices[z] = image_u8(4, 4, 0, (uint8_t)(10 * z));
    kiln_texture_build_opts o = opts_rgba8();
    kiln_texture_source src = {KILN_TEXTURE_SHAPE_VOLUME, slices, 4, NULL};
    kiln_texture_levels t;
    build(&src, &o, &t);
    assert_int_equal(t.shape, KILN_TEXTURE_SHAPE_VOLUME);
    assert_int_equal(t.depth, 4);
    assert_int_equal(t.level_count, 3);
    assert_int_equal(t.levels[1].depth, 2);
    assert_int_equal(t.levels[2].depth, 1);
    assert_int_equal(t.levels[0].size, 4 * 4 * 4 * 4);
    assert_int_equal(texel_r(&t, 0, 1, 2, 3), 30);
    assert_int_equal(texel_r(&t, 1, 0, 0, 0), 5);  /* (0 + 10) / 2 */
    assert_int_equal(texel_r(&t, 1, 1, 1, 1), 25); /* (20 + 30) / 2 */
    assert_int_equal(texel_r(&t, 2, 0, 0, 0), 15); /* (0 + 10 + 20 + 30) / 4 */
    kiln_texture_levels_free(&t);

    src.count = 5; /* depth 5 -> 2: slice 0 = (0 + 10 + 20 / 2) / 2.5 = 8, slice 1 = 32 */
    build(&src, &o, &t);
    assert_int_equal(t.levels[1].depth, 2);
    assert_int_equal(texel_r(&t, 1, 0, 0, 0), 8);
    assert_int_equal(texel_r(&t, 1, 0, 0, 1), 32);
    kiln_texture_levels_free(&t);

    /* max_size fits the depth too: 4x4x5 at max 2 -> 2x2x2, then 1x1x1 */
    o.max_size = 2;
    build(&src, &o, &t);
    assert_int_equal(t.width, 2);
    assert_int_equal(t.depth, 2);
    assert_int_equal(t.level_count, 2);
    kiln_texture_levels_free(&t);
    for (uint32_t z = 0; z < 5; z++) free(slices[z].pixels);
}

/* One format for the set: auto picks DATA (bc4) only when every layer is single-channel. */
static void array_layers_share_one_format(void **state)
{
    (void)state;
    kiln_image layers[3];
    for (int i = 0; i < 3; i++) {
        layers[i] = image_u8(8, 8, (uint64_t)i + 7, 0);
        layers[i].source_channels = 1;
    }
    kiln_texture_build_opts o = opts_rgba8();
    o.format = KILN_TEXFMT_AUTO;
    o.srgb = KILN_TEXTURE_SRGB_AUTO;
    kiln_texture_source src = {KILN_TEXTURE_SHAPE_ARRAY, layers, 3, NULL};
    kiln_texture_levels t;
    build(&src, &o, &t);
    assert_int_equal(t.format, KILN_TEXFMT_BC4);
    assert_int_equal(t.layer_count, 3);
    kiln_texture_levels_free(&t);
    layers[1].source_channels = 3;
    build(&src, &o, &t);
    assert_int_equal(t.format, KILN_TEXFMT_BC7);
    assert_true(t.srgb);
    kiln_texture_levels_free(&t);
    for (int i = 0; i < 3; i++) free(layers[i].pixels);
}

static void expect_refused(const kiln_texture_source *src, kiln_result code, const char *words)
{
    kiln_texture_build_opts o = opts_rgba8();
    kiln_texture_levels t;
    kiln_error err;
    kiln_result r = kiln_texture_build_shape(src, &o, NULL, NULL, &t, &err);
    if (r != code)
        fail_msg("expected %s, got %s (%s)", kiln_result_name(code), kiln_result_name(r),
                 r ? err.message : "built");
    if (words && !strstr(err.message, words))
        fail_msg("message \"%s\" lacks \"%s\"", err.message, words);
    assert_int_equal(t.level_count, 0);
}

static void shapes_refuse_counts_sizes_and_mixes(void **state)
{
    (void)state;
    kiln_image img[6];
    for (int i = 0; i < 6; i++) img[i] = image_u8(8, 8, (uint64_t)i + 1, 0);
    expect_refused(&(kiln_texture_source){KILN_TEXTURE_SHAPE_CUBE, img, 5, NULL}, KILN_E_USAGE,
                   "cube");
    expect_refused(&(kiln_texture_source){KILN_TEXTURE_SHAPE_2D, img, 2, NULL}, KILN_E_USAGE, NULL);
    free(img[2].pixels);
    img[2] = image_u8(8, 4, 3, 0);
    expect_refused(&(kiln_texture_source){KILN_TEXTURE_SHAPE_ARRAY, img, 3, NULL},
                   KILN_E_IMPORT_FAILED, "same size");
    expect_refused(&(kiln_texture_source){KILN_TEXTURE_SHAPE_CUBE, img + 2, 1, NULL}, KILN_E_USAGE,
                   NULL);
    free(img[2].pixels);
    img[2] = image_u8(8, 8, 3, 0);
    img[2].type = KILN_PIXEL_F32; /* same bytes would not fit: give it float pixels */
    free(img[2].pixels);
    img[2].size = 8 * 8 * 4 * sizeof(float);
    img[2].pixels = calloc(1, img[2].size);
    expect_refused(&(kiln_texture_source){KILN_TEXTURE_SHAPE_VOLUME, img, 3, NULL},
                   KILN_E_IMPORT_FAILED, "HDR");
    for (int i = 0; i < 6; i++) free(img[i].pixels);
}

int kt_texture_shape_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cube_faces_are_their_own_2d_builds),
        cmocka_unit_test(volume_levels_are_2x2x2_boxes),
        cmocka_unit_test(array_layers_share_one_format),
        cmocka_unit_test(shapes_refuse_counts_sizes_and_mixes),
    };
    return cmocka_run_group_tests_name("texture_shape", tests, NULL, NULL);
}
