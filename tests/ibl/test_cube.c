/* test_cube.c — cube face selection against the Vulkan table, texel solid angles, the panorama
 * and cross conversions, and the bilinear read across face edges. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ibl_tests.h"
#include "process/cube.h"
#include "process/det_math.h"

static void cube_from_dir_follows_the_vulkan_table_on_every_face(void **state)
{
    (void)state;
    /* Worked by hand from the spec's table: (sc, tc, ma) then s = (sc/|ma|+1)/2, t likewise. */
    static const struct {
        double d[3];
        uint32_t face;
        double s, t;
    } cases[] = {
        {{2.0, 0.4, 0.6}, KILN_CUBE_POS_X, 0.35, 0.40},  /* sc = -z, tc = -y */
        {{-2.0, 0.4, 0.6}, KILN_CUBE_NEG_X, 0.65, 0.40}, /* sc = +z, tc = -y */
        {{0.4, 2.0, 0.6}, KILN_CUBE_POS_Y, 0.60, 0.65},  /* sc = +x, tc = +z */
        {{0.4, -2.0, 0.6}, KILN_CUBE_NEG_Y, 0.60, 0.35}, /* sc = +x, tc = -z */
        {{0.4, 0.6, 2.0}, KILN_CUBE_POS_Z, 0.60, 0.35},  /* sc = +x, tc = -y */
        {{0.4, 0.6, -2.0}, KILN_CUBE_NEG_Z, 0.40, 0.35}, /* sc = -x, tc = -y */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t f;
        double s, t;
        kiln_cube_from_dir_d(cases[i].d, &f, &s, &t);
        assert_int_equal(f, cases[i].face);
        assert_true(fabs(s - cases[i].s) < 1e-12);
        assert_true(fabs(t - cases[i].t) < 1e-12);
        /* and back: the unit vector along the case's direction */
        double d[3], len = sqrt(cases[i].d[0] * cases[i].d[0] + cases[i].d[1] * cases[i].d[1] +
                                cases[i].d[2] * cases[i].d[2]);
        kiln_cube_dir_d(f, s, t, d);
        for (int c = 0; c < 3; c++) assert_true(fabs(d[c] - cases[i].d[c] / len) < 1e-12);
    }
}

static void cube_dir_round_trips_on_every_face(void **state)
{
    (void)state;
    for (uint32_t f = 0; f < 6; f++) {
        for (int i = 0; i <= 20; i++) {
            for (int k = 0; k <= 20; k++) {
                /* inside the face: the edges themselves may pick a neighbour on ties */
                double s = 0.001 + 0.998 * i / 20.0, t = 0.001 + 0.998 * k / 20.0, d[3];
                kiln_cube_dir_d(f, s, t, d);
                assert_true(fabs(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - 1.0) < 1e-12);
                uint32_t f2;
                double s2, t2;
                kiln_cube_from_dir_d(d, &f2, &s2, &t2);
                assert_int_equal(f2, f);
                assert_true(fabs(s2 - s) < 1e-12 && fabs(t2 - t) < 1e-12);
                float df[3], sf, tf;
                kiln_cube_dir(f, (float)s, (float)t, df);
                kiln_cube_from_dir(df, &f2, &sf, &tf);
                assert_int_equal(f2, f);
                assert_true(fabsf(sf - (float)s) < 1e-5f && fabsf(tf - (float)t) < 1e-5f);
            }
        }
    }
    uint32_t f;
    double s, t, zero[3] = {0, 0, 0};
    kiln_cube_from_dir_d(zero, &f, &s, &t);
    assert_int_equal(f, KILN_CUBE_POS_X);
    assert_true(s == 0.5 && t == 0.5);
}

static void cube_texel_solid_angles_sum_to_4pi_and_match_the_small_texel_limit(void **state)
{
    (void)state;
    const uint32_t sizes[] = {1, 2, 7, 64};
    for (size_t k = 0; k < 4; k++) {
        double sum = 0.0;
        for (uint32_t y = 0; y < sizes[k]; y++)
            for (uint32_t x = 0; x < sizes[k]; x++)
                sum += kiln_cube_texel_solid_angle(sizes[k], x, y);
        assert_true(fabs(6.0 * sum - 4.0 * KT_PI) < 1e-12);
    }
    /* the whole-face table agrees with the texel-by-texel values */
    double table[64 * 64];
    kiln_cube_texel_solid_angles(64, table);
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            double one = kiln_cube_texel_solid_angle(64, x, y);
            assert_true(fabs(table[y * 64 + x] - one) <
                        1e-15 * 4.0 * KT_PI / (6.0 * 64 * 64) * 1e3);
        }
    /* A small texel at face position (u, v) subtends its area over (1 + u^2 + v^2)^(3/2). */
    uint32_t n = 1024;
    double a = (2.0 / n) * (2.0 / n);
    double centre = kiln_cube_texel_solid_angle(n, n / 2, n / 2);
    double uc = 2.0 * (n / 2 + 0.5) / n - 1.0;
    assert_true(fabs(centre / (a / pow(1.0 + 2.0 * uc * uc, 1.5)) - 1.0) < 1e-5);
    double corner = kiln_cube_texel_solid_angle(n, 0, 0);
    double u0 = 2.0 * 0.5 / n - 1.0;
    assert_true(fabs(corner / (a / pow(1.0 + 2.0 * u0 * u0, 1.5)) - 1.0) < 1e-5);
}

static void cube_face_size_rule_is_a_quarter_width_to_the_nearest_power_of_two(void **state)
{
    (void)state;
    assert_int_equal(kiln_cube_face_size_for_equirect(4096, 2048), 1024);
    assert_int_equal(kiln_cube_face_size_for_equirect(2048, 1024), 512);
    assert_int_equal(kiln_cube_face_size_for_equirect(768, 768), 256);    /* 192 > 128 sqrt 2 */
    assert_int_equal(kiln_cube_face_size_for_equirect(6000, 3000), 2048); /* 1500 > 1448 */
    assert_int_equal(kiln_cube_face_size_for_equirect(5000, 2500), 1024); /* 1250 < 1448 */
    assert_int_equal(kiln_cube_face_size_for_equirect(3, 1), 1);
    assert_int_equal(kiln_cube_face_size_for_equirect(65536, 32768), 8192);
}

/* The unit direction the documented mapping gives panorama point (u, v). */
static void pano_dir(double u, double v, double d[3])
{
    double phi = (u - 0.5) * 2.0 * KT_PI, theta = v * KT_PI;
    d[0] = sin(theta) * cos(phi);
    d[1] = cos(theta);
    d[2] = sin(theta) * sin(phi);
}

static void cube_from_equirect_gives_each_texel_its_direction(void **state)
{
    (void)state;
    uint32_t w = 512, h = 256, n = 32;
    float *pano = malloc((size_t)w * h * 4 * sizeof(float));
    float *faces = malloc(kiln_cube_float_count(n) * sizeof(float));
    assert_non_null(pano);
    assert_non_null(faces);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            double d[3];
            pano_dir((x + 0.5) / w, (y + 0.5) / h, d);
            float *p = pano + ((size_t)y * w + x) * 4;
            for (int c = 0; c < 3; c++) p[c] = (float)d[c];
            p[3] = 1.0f;
        }
    }
    kiln_error err;
    assert_int_equal(kiln_cube_from_equirect(pano, w, h, n, NULL, faces, &err), KILN_OK);
    double worst = 0.0;
    for (uint32_t f = 0; f < 6; f++) {
        for (uint32_t y = 0; y < n; y++) {
            for (uint32_t x = 0; x < n; x++) {
                double d[3];
                kiln_cube_dir_d(f, (x + 0.5) / n, (y + 0.5) / n, d);
                const float *p = faces + (((size_t)f * n + y) * n + x) * 4;
                for (int c = 0; c < 3; c++) worst = fmax(worst, fabs(p[c] - d[c]));
                assert_true(fabsf(p[3] - 1.0f) < 1e-6f);
            }
        }
    }
    /* Averaging a unit vector over a texel shortens it by ~(texel angle)^2 / 6 (4e-4 here); the
     * panorama's own texels and the bilinear read add about as much. */
    print_message("panorama direction test: worst component error %.5f\n", worst);
    assert_true(worst < 5e-3);

    /* The named landmarks: panorama centre -> +X, top row -> +Y, a quarter across -> -Z. */
    memset(pano, 0, (size_t)w * h * 4 * sizeof(float));
    for (uint32_t y = h / 2 - 8; y < h / 2 + 8; y++)
        for (uint32_t x = w / 2 - 8; x < w / 2 + 8; x++) pano[((size_t)y * w + x) * 4] = 1.0f;
    for (uint32_t y = h / 2 - 8; y < h / 2 + 8; y++)
        for (uint32_t x = w / 4 - 8; x < w / 4 + 8; x++) pano[((size_t)y * w + x) * 4 + 1] = 1.0f;
    for (uint32_t x = 0; x < w * 8; x++) pano[(size_t)x * 4 + 2] = 1.0f; /* the top 8 rows */
    assert_int_equal(kiln_cube_from_equirect(pano, w, h, n, NULL, faces, &err), KILN_OK);
    size_t mid = ((size_t)(n / 2) * n + n / 2) * 4;
    size_t fs = (size_t)n * n * 4;
    assert_true(faces[KILN_CUBE_POS_X * fs + mid] > 0.9f);
    assert_true(faces[KILN_CUBE_NEG_Z * fs + mid + 1] > 0.9f);
    assert_true(faces[KILN_CUBE_POS_Z * fs + mid + 1] < 0.1f);
    assert_true(faces[KILN_CUBE_POS_Y * fs + mid + 2] > 0.5f);
    assert_true(faces[KILN_CUBE_NEG_Y * fs + mid + 2] < 0.1f);
    free(pano);
    free(faces);
}

static void cube_from_equirect_filters_a_fine_checkerboard_to_grey(void **state)
{
    (void)state;
    /* One-texel checks: point sampling would give texels of 0 or 1; a filter gives ~0.5. */
    uint32_t w = 2048, h = 1024, n = 32;
    float *pano = malloc((size_t)w * h * 4 * sizeof(float));
    float *faces = malloc(kiln_cube_float_count(n) * sizeof(float));
    assert_non_null(pano);
    assert_non_null(faces);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            for (int c = 0; c < 4; c++) pano[((size_t)y * w + x) * 4 + c] = (float)((x + y) & 1);
    kiln_error err;
    assert_int_equal(kiln_cube_from_equirect(pano, w, h, n, NULL, faces, &err), KILN_OK);
    double worst = 0.0;
    for (size_t i = 0; i < (size_t)6 * n * n; i++) worst = fmax(worst, fabs(faces[i * 4] - 0.5));
    print_message("checkerboard panorama: worst texel is %.4f from 0.5\n", worst);
    assert_true(worst < 0.1);
    free(pano);
    free(faces);
}

/* A cross image whose every texel holds its own coordinates (R = x, G = y) and -1 off the
 * faces; after the conversion, pixels next to each other in the image that land on the cube
 * must be next to each other on the sphere: the layout is a net of the cube. */
static void check_layout_is_a_net(uint32_t gw, uint32_t gh, kiln_cube_layout expect)
{
    uint32_t n = 8, w = gw * n, h = gh * n;
    float *img = malloc((size_t)w * h * 4 * sizeof(float));
    float *faces = malloc(kiln_cube_float_count(n) * sizeof(float));
    int *where = malloc((size_t)w * h * sizeof(int)); /* cube texel index of each pixel, -1 */
    assert_non_null(img);
    assert_non_null(faces);
    assert_non_null(where);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            float *p = img + ((size_t)y * w + x) * 4;
            p[0] = (float)x, p[1] = (float)y, p[2] = 0.0f, p[3] = 1.0f;
        }
    kiln_cube_layout layout;
    uint32_t size;
    kiln_error err;
    assert_int_equal(kiln_cube_layout_detect(w, h, &layout, &size, &err), KILN_OK);
    assert_int_equal(layout, expect);
    assert_int_equal(size, n);
    assert_int_equal(kiln_cube_from_cross(img, w, h, KILN_CUBE_LAYOUT_AUTO, faces, &err), KILN_OK);
    for (size_t i = 0; i < (size_t)w * h; i++) where[i] = -1;
    for (size_t i = 0; i < (size_t)6 * n * n; i++) {
        size_t px = (size_t)faces[i * 4], py = (size_t)faces[i * 4 + 1];
        assert_true(px < w && py < h);
        assert_int_equal(where[py * w + px], -1); /* each pixel used once */
        where[py * w + px] = (int)i;
    }
    /* A texel's angular size is at most 2 / n; neighbours' centres are within 1.5 of them. */
    size_t pairs = 0;
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            int a = where[(size_t)y * w + x];
            if (a < 0) continue;
            int nb[2] = {x + 1 < w ? where[(size_t)y * w + x + 1] : -1,
                         y + 1 < h ? where[(size_t)(y + 1) * w + x] : -1};
            for (int k = 0; k < 2; k++) {
                if (nb[k] < 0) continue;
                double da[3], db[3];
                uint32_t fa = (uint32_t)a / (n * n), fb = (uint32_t)nb[k] / (n * n);
                uint32_t ta = (uint32_t)a % (n * n), tb = (uint32_t)nb[k] % (n * n);
                kiln_cube_dir_d(fa, (ta % n + 0.5) / n, (ta / n + 0.5) / n, da);
                kiln_cube_dir_d(fb, (tb % n + 0.5) / n, (tb / n + 0.5) / n, db);
                double dot = da[0] * db[0] + da[1] * db[1] + da[2] * db[2];
                assert_true(acos(fmin(1.0, dot)) < 1.5 * 2.0 / n);
                pairs++;
            }
        }
    }
    /* every cell boundary inside the net was crossed: 5 shared edges of n pixel pairs */
    size_t inner = (size_t)6 * 2 * n * (n - 1);
    assert_int_equal(pairs, inner + (size_t)5 * n);
    free(img);
    free(faces);
    free(where);
}

static void cube_cross_and_strip_layouts_are_nets_of_the_cube(void **state)
{
    (void)state;
    check_layout_is_a_net(4, 3, KILN_CUBE_LAYOUT_HORIZONTAL_CROSS);
    check_layout_is_a_net(3, 4, KILN_CUBE_LAYOUT_VERTICAL_CROSS);
    /* Strips are not nets (+X -X share no edge), but each face is copied unturned: the first
     * texel of face f is the top-left of cell f. */
    uint32_t n = 4;
    float img[6 * 4 * 4 * 4], faces[6 * 4 * 4 * 4];
    for (size_t i = 0; i < sizeof img / sizeof img[0]; i++) img[i] = (float)i;
    kiln_error err;
    assert_int_equal(
        kiln_cube_from_cross(img, 6 * n, n, KILN_CUBE_LAYOUT_HORIZONTAL_STRIP, faces, &err),
        KILN_OK);
    for (uint32_t f = 0; f < 6; f++) assert_true(faces[f * n * n * 4] == (float)(f * n * 4));
    assert_int_equal(kiln_cube_from_cross(img, n, 6 * n, KILN_CUBE_LAYOUT_AUTO, faces, &err),
                     KILN_OK);
    assert_memory_equal(faces, img, sizeof img);
    /* The vertical cross's -Z is turned: its first texel is the bottom-right of its cell. */
    float *v = calloc((size_t)3 * n * 4 * n * 4, sizeof(float));
    assert_non_null(v);
    v[((size_t)(4 * n - 1) * 3 * n + (2 * n - 1)) * 4] = 7.0f;
    assert_int_equal(kiln_cube_from_cross(v, 3 * n, 4 * n, KILN_CUBE_LAYOUT_AUTO, faces, &err),
                     KILN_OK);
    assert_true(faces[(size_t)KILN_CUBE_NEG_Z * n * n * 4] == 7.0f);
    free(v);
}

static void cube_layouts_of_other_shapes_are_refused(void **state)
{
    (void)state;
    kiln_cube_layout l;
    uint32_t size;
    kiln_error err;
    const uint32_t bad[][2] = {{100, 100}, {5, 3}, {400, 301}, {0, 0}, {12, 3}, {8, 6 * 8 + 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(kiln_cube_layout_detect(bad[i][0], bad[i][1], &l, &size, &err),
                         KILN_E_IMPORT_SETTINGS);
        assert_non_null(strstr(err.message, "not a cube layout"));
    }
    assert_int_equal(kiln_cube_layout_detect(96, 128, &l, &size, &err), KILN_OK);
    assert_int_equal(l, KILN_CUBE_LAYOUT_VERTICAL_CROSS);
    assert_int_equal(size, 32);
    float img[4 * 3 * 4] = {0}, faces[6 * 4] = {0};
    assert_int_equal(kiln_cube_from_cross(img, 4, 3, KILN_CUBE_LAYOUT_VERTICAL_STRIP, faces, &err),
                     KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(err.message, "horizontal-cross"));
}

static void cube_bilinear_read_is_continuous_across_face_edges(void **state)
{
    (void)state;
    uint32_t n = 8;
    float *cube = malloc(kiln_cube_float_count(n) * sizeof(float));
    assert_non_null(cube);
    uint64_t rng = 11;
    for (size_t i = 0; i < kiln_cube_float_count(n); i++) cube[i] = (float)kt_rand01(&rng);
    /* Every edge point, read from each of the two faces that share it, gives one value. */
    double worst = 0.0;
    for (uint32_t f = 0; f < 6; f++) {
        for (int e = 0; e < 4; e++) {
            for (int k = 0; k <= 16; k++) {
                /* along the edge, away from the corners (half a texel: 1/16), where three
                 * faces meet and each read picks its own diagonal texel */
                double a = 0.07 + 0.86 * k / 16.0;
                double s = e == 0 ? 0.0 : e == 1 ? 1.0 : a, t = e == 2 ? 0.0 : e == 3 ? 1.0 : a;
                double d[3];
                kiln_cube_dir_d(f, s, t, d);
                /* the other face: the one the direction pushed slightly outward selects */
                double out[3] = {d[0], d[1], d[2]}, fd[3];
                kiln_cube_dir_d(f, 0.5, 0.5, fd);
                for (int c = 0; c < 3; c++) out[c] -= 1e-9 * fd[c];
                uint32_t g;
                double gs, gt;
                kiln_cube_from_dir_d(out, &g, &gs, &gt);
                assert_true(g != f);
                float va[4], vb[4];
                kiln_cube_sample_bilinear(cube, n, f, s, t, va);
                kiln_cube_sample_bilinear(cube, n, g, gs, gt, vb);
                for (int c = 0; c < 4; c++) worst = fmax(worst, fabs(va[c] - vb[c]));
            }
        }
    }
    assert_true(worst < 1e-5);
    free(cube);
}

static void cube_padded_faces_read_like_the_cube(void **state)
{
    (void)state;
    uint32_t n = 5, p = n + 2;
    float *cube = malloc(kiln_cube_float_count(n) * sizeof(float));
    float *pad = malloc(kiln_cube_float_count(p) * sizeof(float));
    assert_non_null(cube);
    assert_non_null(pad);
    uint64_t rng = 23;
    for (size_t i = 0; i < kiln_cube_float_count(n); i++) cube[i] = (float)kt_rand01(&rng);
    kiln_cube_pad(cube, n, pad);
    /* the inside is the face itself */
    for (uint32_t f = 0; f < 6; f++)
        for (uint32_t y = 0; y < n; y++)
            assert_memory_equal(pad + (((size_t)f * p + y + 1) * p + 1) * 4,
                                cube + (((size_t)f * n + y) * n) * 4,
                                (size_t)n * 4 * sizeof(float));
    /* a bilinear read of the padded face, at px = s n + 0.5, equals the cube's read */
    for (int i = 0; i < 2000; i++) {
        uint32_t f = (uint32_t)(kt_rand01(&rng) * 6.0);
        double s = kt_rand01(&rng), t = kt_rand01(&rng);
        float want[4];
        kiln_cube_sample_bilinear(cube, n, f, s, t, want);
        double px = s * n + 0.5, py = t * n + 0.5;
        uint32_t x0 = (uint32_t)px, y0 = (uint32_t)py;
        if (x0 > n) x0 = n;
        if (y0 > n) y0 = n;
        double ax = px - x0, ay = py - y0;
        const float *q = pad + (((size_t)f * p + y0) * p + x0) * 4, *q1 = q + (size_t)p * 4;
        for (int c = 0; c < 4; c++) {
            double got = (1 - ax) * (1 - ay) * q[c] + ax * (1 - ay) * q[4 + c] +
                         (1 - ax) * ay * q1[c] + ax * ay * q1[4 + c];
            assert_true(fabs(got - want[c]) < 1e-5);
        }
    }
    free(cube);
    free(pad);
}

static void det_math_matches_libm(void **state)
{
    (void)state;
    uint64_t rng = 29;
    double worst[4] = {0, 0, 0, 0};
    for (int i = 0; i < 200000; i++) {
        double u = (kt_rand01(&rng) - 0.5) * (i % 2 ? 3.0 : 1e-3), s, c;
        kiln_det_sincos_turns(u, &s, &c);
        worst[0] =
            fmax(worst[0], fmax(fabs(s - sin(2.0 * KT_PI * u)), fabs(c - cos(2.0 * KT_PI * u))));
        double y = (kt_rand01(&rng) - 0.5) * pow(10.0, (double)(i % 7) - 3.0);
        double x = (kt_rand01(&rng) - 0.5) * pow(10.0, (double)(i % 5) - 2.0);
        worst[1] = fmax(worst[1], fabs(kiln_det_atan2(y, x) - atan2(y, x)));
        double a = 2.0 * kt_rand01(&rng) - 1.0;
        worst[2] = fmax(worst[2], fabs(kiln_det_acos(a) - acos(a)));
        double l = kt_rand01(&rng) * pow(2.0, (double)(i % 60) - 30.0) + 1e-300;
        worst[3] = fmax(worst[3], fabs(kiln_det_log2(l) - log2(l)) / fmax(1.0, fabs(log2(l))));
    }
    print_message("det_math against libm: sincos %.2g, atan2 %.2g, acos %.2g, log2 %.2g\n",
                  worst[0], worst[1], worst[2], worst[3]);
    /* Absolute error on angles and sines, relative (or absolute below 1) on log2: a few ulps. */
    for (int k = 0; k < 4; k++) assert_true(worst[k] < 2e-15);
    /* exact special points */
    double s, c;
    kiln_det_sincos_turns(0.25, &s, &c);
    assert_true(s == 1.0 && fabs(c) < 1e-16);
    kiln_det_sincos_turns(0.0, &s, &c);
    assert_true(s == 0.0 && c == 1.0);
    assert_true(kiln_det_atan2(0.0, 0.0) == 0.0);
    assert_true(kiln_det_log2(1024.0) == 10.0);
    assert_true(fabs(kiln_det_acos(-1.0) - KT_PI) < 1e-15);
}

int kt_cube_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(det_math_matches_libm),
        cmocka_unit_test(cube_from_dir_follows_the_vulkan_table_on_every_face),
        cmocka_unit_test(cube_dir_round_trips_on_every_face),
        cmocka_unit_test(cube_texel_solid_angles_sum_to_4pi_and_match_the_small_texel_limit),
        cmocka_unit_test(cube_face_size_rule_is_a_quarter_width_to_the_nearest_power_of_two),
        cmocka_unit_test(cube_from_equirect_gives_each_texel_its_direction),
        cmocka_unit_test(cube_from_equirect_filters_a_fine_checkerboard_to_grey),
        cmocka_unit_test(cube_cross_and_strip_layouts_are_nets_of_the_cube),
        cmocka_unit_test(cube_layouts_of_other_shapes_are_refused),
        cmocka_unit_test(cube_bilinear_read_is_continuous_across_face_edges),
        cmocka_unit_test(cube_padded_faces_read_like_the_cube),
    };
    return cmocka_run_group_tests_name("cube", tests, NULL, NULL);
}
