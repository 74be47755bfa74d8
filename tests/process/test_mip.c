/* test_mip.c — level sizes and the area-weighted box filter on float data. */
#include "support.h"

#include <math.h>
#include <string.h>

#include "process/mip.h"
#include "process_tests.h"

static void set_px(float *img, uint32_t w, uint32_t x, uint32_t y, float r, float g, float b,
                   float a)
{
    float *p = img + ((size_t)y * w + x) * 4;
    p[0] = r;
    p[1] = g;
    p[2] = b;
    p[3] = a;
}

static void mip_level_count_for_1x1_13x7_and_256x256(void **state)
{
    (void)state;
    assert_int_equal(kiln_mip_level_count(1, 1), 1);
    assert_int_equal(kiln_mip_level_count(13, 7), 4);
    assert_int_equal(kiln_mip_level_count(256, 256), 9);
    assert_int_equal(kiln_mip_level_count(1, 256), 9);
    assert_int_equal(kiln_mip_level_count(257, 3), 9);
    /* 13x7 -> 6x3 -> 3x1 -> 1x1: each side max(1, floor(d / 2)). */
    uint32_t w = 13, h = 7;
    const uint32_t expect[4][2] = {{13, 7}, {6, 3}, {3, 1}, {1, 1}};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(w, expect[i][0]);
        assert_int_equal(h, expect[i][1]);
        w = kiln_mip_next_dim(w);
        h = kiln_mip_next_dim(h);
    }
}

static void mip_fit_halves_1000x300_to_250x75_for_max_size_256(void **state)
{
    (void)state;
    uint32_t w, h, n;
    kiln_mip_fit(1000, 300, 256, &w, &h, &n);
    assert_int_equal(w, 250);
    assert_int_equal(h, 75);
    assert_int_equal(n, 2);
    kiln_mip_fit(256, 256, 256, &w, &h, &n);
    assert_int_equal(w, 256);
    assert_int_equal(n, 0);
    kiln_mip_fit(16384, 3, 4, &w, &h, &n);
    assert_int_equal(w, 4);
    assert_int_equal(h, 1);
    assert_int_equal(n, 12);
}

static void mip_even_size_is_the_2x2_box_average(void **state)
{
    (void)state;
    float src[4 * 2 * 4], dst[2 * 1 * 4];
    uint64_t rng = 7;
    for (size_t i = 0; i < 32; i++) src[i] = (float)(kt_rand(&rng) % 1000) / 999.0f;
    for (size_t i = 3; i < 32; i += 4) src[i] = 1.0f; /* opaque: no alpha weighting */
    kiln_mip_downsample(src, 4, 2, dst, 2, 1, KILN_MIP_FILTER_COLOR);
    for (int x = 0; x < 2; x++)
        for (int c = 0; c < 4; c++) {
            double s = (double)src[(2 * x) * 4 + c] + src[(2 * x + 1) * 4 + c] +
                       src[(4 + 2 * x) * 4 + c] + src[(4 + 2 * x + 1) * 4 + c];
            assert_true(dst[x * 4 + c] == (float)(s / 4.0));
        }
}

static void mip_constant_5x3_stays_exactly_constant_down_to_1x1(void **state)
{
    (void)state;
    const float v[4] = {0.3f, 0.7071f, 1e-5f, 0.55f};
    float a[5 * 3 * 4], b[2 * 1 * 4], c[4];
    for (size_t i = 0; i < 15; i++) memcpy(a + i * 4, v, sizeof v);
    kiln_mip_downsample(a, 5, 3, b, 2, 1, KILN_MIP_FILTER_COLOR);
    kiln_mip_downsample(b, 2, 1, c, 1, 1, KILN_MIP_FILTER_COLOR);
    for (int i = 0; i < 2; i++) assert_memory_equal(b + i * 4, v, sizeof v);
    assert_memory_equal(c, v, sizeof v);
}

static void mip_bright_last_column_of_5x3_reaches_next_level_with_its_area_weight(void **state)
{
    (void)state;
    float a[5 * 3 * 4] = {0}, b[2 * 4], c[4];
    for (uint32_t y = 0; y < 3; y++) {
        for (uint32_t x = 0; x < 5; x++) set_px(a, 5, x, y, 0, 0, 0, 1);
        set_px(a, 5, 4, y, 1, 1, 1, 1);
    }
    kiln_mip_downsample(a, 5, 3, b, 2, 1, KILN_MIP_FILTER_COLOR);
    /* Texel 1 covers source columns [2.5, 5): column 4 is 1 of its 2.5 columns. A 2x2 box that
     * drops the odd column would give 0 here. */
    assert_true(b[0] == 0.0f);
    assert_true(b[4] == 0.4f);
    assert_true(b[7] == 1.0f);
    kiln_mip_downsample(b, 2, 1, c, 1, 1, KILN_MIP_FILTER_COLOR);
    /* The mean of the whole source: 3 bright texels of 15. */
    assert_true(fabs((double)c[0] - 0.2) < 1e-7);
    /* Column 2 is split between both texels: a bright middle column gives 0.2 to each. */
    memset(a, 0, sizeof a);
    for (uint32_t y = 0; y < 3; y++)
        for (uint32_t x = 0; x < 5; x++) set_px(a, 5, x, y, x == 2 ? 1.0f : 0.0f, 0, 0, 1);
    kiln_mip_downsample(a, 5, 3, b, 2, 1, KILN_MIP_FILTER_COLOR);
    assert_true(b[0] == 0.2f);
    assert_true(b[4] == 0.2f);
}

static void mip_opaque_green_next_to_transparent_red_stays_pure_green(void **state)
{
    (void)state;
    float a[2 * 2 * 4], b[4];
    set_px(a, 2, 0, 0, 0, 1, 0, 1);
    set_px(a, 2, 1, 0, 1, 0, 0, 0);
    set_px(a, 2, 0, 1, 1, 0, 0, 0);
    set_px(a, 2, 1, 1, 1, 0, 0, 0);
    kiln_mip_downsample(a, 2, 2, b, 1, 1, KILN_MIP_FILTER_COLOR);
    assert_true(b[0] == 0.0f);
    assert_true(b[1] == 1.0f);
    assert_true(b[2] == 0.0f);
    assert_true(b[3] == 0.25f);
}

static void mip_transparent_black_neighbours_do_not_darken(void **state)
{
    (void)state;
    /* 3x3 -> 1x1 (odd both ways): one grey texel of alpha 0.5 among transparent black. */
    float a[3 * 3 * 4] = {0}, b[4];
    set_px(a, 3, 2, 2, 0.5f, 0.25f, 0.125f, 0.5f);
    kiln_mip_downsample(a, 3, 3, b, 1, 1, KILN_MIP_FILTER_COLOR);
    assert_true(b[0] == 0.5f);
    assert_true(b[1] == 0.25f);
    assert_true(b[2] == 0.125f);
    assert_true(fabs((double)b[3] - 0.5 / 9.0) < 1e-8);
}

static void mip_fully_transparent_block_gets_the_plain_average(void **state)
{
    (void)state;
    float a[2 * 2 * 4] = {0}, b[4];
    set_px(a, 2, 0, 0, 1, 0, 0, 0);
    set_px(a, 2, 1, 0, 0, 1, 0, 0);
    kiln_mip_downsample(a, 2, 2, b, 1, 1, KILN_MIP_FILTER_COLOR);
    assert_true(b[0] == 0.25f);
    assert_true(b[1] == 0.25f);
    assert_true(b[3] == 0.0f);
}

static void mip_normal_filter_renormalises_and_sends_cancelled_normals_to_z(void **state)
{
    (void)state;
    float a[2 * 2 * 4], b[4];
    /* +x and +z, encoded as 0.5 v + 0.5: the average (0.5, 0, 0.5) renormalises to 45 deg. */
    set_px(a, 2, 0, 0, 1.0f, 0.5f, 0.5f, 1);
    set_px(a, 2, 1, 0, 0.5f, 0.5f, 1.0f, 1);
    set_px(a, 2, 0, 1, 1.0f, 0.5f, 0.5f, 1);
    set_px(a, 2, 1, 1, 0.5f, 0.5f, 1.0f, 0.5f);
    kiln_mip_downsample(a, 2, 2, b, 1, 1, KILN_MIP_FILTER_NORMAL);
    double x = 2.0 * b[0] - 1.0, y = 2.0 * b[1] - 1.0, z = 2.0 * b[2] - 1.0;
    assert_true(fabs(sqrt(x * x + y * y + z * z) - 1.0) < 1e-6);
    assert_true(fabs(x - sqrt(0.5)) < 1e-6 && fabs(y) < 1e-6 && fabs(z - sqrt(0.5)) < 1e-6);
    assert_true(b[3] == 0.875f); /* alpha plain, not renormalised */
    /* +x and -x cancel: straight out. */
    set_px(a, 2, 0, 0, 1.0f, 0.5f, 0.5f, 1);
    set_px(a, 2, 1, 0, 0.0f, 0.5f, 0.5f, 1);
    set_px(a, 2, 0, 1, 1.0f, 0.5f, 0.5f, 1);
    set_px(a, 2, 1, 1, 0.0f, 0.5f, 0.5f, 1);
    kiln_mip_downsample(a, 2, 2, b, 1, 1, KILN_MIP_FILTER_NORMAL);
    assert_true(b[0] == 0.5f && b[1] == 0.5f && b[2] == 1.0f);
}

int kt_mip_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mip_level_count_for_1x1_13x7_and_256x256),
        cmocka_unit_test(mip_fit_halves_1000x300_to_250x75_for_max_size_256),
        cmocka_unit_test(mip_even_size_is_the_2x2_box_average),
        cmocka_unit_test(mip_constant_5x3_stays_exactly_constant_down_to_1x1),
        cmocka_unit_test(mip_bright_last_column_of_5x3_reaches_next_level_with_its_area_weight),
        cmocka_unit_test(mip_opaque_green_next_to_transparent_red_stays_pure_green),
        cmocka_unit_test(mip_transparent_black_neighbours_do_not_darken),
        cmocka_unit_test(mip_fully_transparent_block_gets_the_plain_average),
        cmocka_unit_test(mip_normal_filter_renormalises_and_sends_cancelled_normals_to_z),
    };
    return cmocka_run_group_tests_name("mip", tests, NULL, NULL);
}
