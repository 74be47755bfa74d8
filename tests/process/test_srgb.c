/* test_srgb.c — the fixed sRGB tables against the exact transfer function, computed here in
 * double with pow() (allowed in tests: the library itself must not depend on libm). */
#include "support.h"

#include <math.h>

#include "process/srgb.h"
#include "process_tests.h"

static double srgb_to_linear_exact(double s)
{
    return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
}

static double linear_to_srgb_exact(double l)
{
    return l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
}

/* t is the float nearest to exact: no neighbour is closer. */
static void assert_nearest_float(float t, double exact)
{
    double e = fabs((double)t - exact);
    assert_true(e <= fabs((double)nextafterf(t, INFINITY) - exact));
    assert_true(e <= fabs((double)nextafterf(t, -INFINITY) - exact));
}

static void srgb_decode_table_matches_exact_formula_within_1e6(void **state)
{
    (void)state;
    for (int c = 0; c < 256; c++) {
        double exact = srgb_to_linear_exact(c / 255.0);
        assert_true(fabs((double)kiln_srgb_decode_table[c] - exact) <= 1e-6);
        assert_nearest_float(kiln_srgb_decode_table[c], exact);
    }
    assert_true(kiln_srgb_decode(0) == 0.0f);
    assert_true(kiln_srgb_decode(255) == 1.0f);
}

static void srgb_encode_bounds_are_the_exact_half_codes_between_decoded_values(void **state)
{
    (void)state;
    for (int k = 0; k < 255; k++) {
        double exact = srgb_to_linear_exact((k + 0.5) / 255.0);
        assert_true(fabs((double)kiln_srgb_encode_bounds[k] - exact) <= 1e-6);
        assert_nearest_float(kiln_srgb_encode_bounds[k], exact);
        assert_true(kiln_srgb_decode_table[k] < kiln_srgb_encode_bounds[k]);
        assert_true(kiln_srgb_encode_bounds[k] < kiln_srgb_decode_table[k + 1]);
    }
}

static void srgb_decode_then_encode_round_trips_all_256_codes(void **state)
{
    (void)state;
    for (int c = 0; c < 256; c++)
        assert_int_equal(kiln_srgb_encode(kiln_srgb_decode((uint8_t)c)), c);
}

static void srgb_encode_switches_code_exactly_at_each_boundary(void **state)
{
    (void)state;
    for (int k = 0; k < 255; k++) {
        float b = kiln_srgb_encode_bounds[k];
        assert_int_equal(kiln_srgb_encode(nextafterf(b, -INFINITY)), k);
        assert_int_equal(kiln_srgb_encode(b), k + 1);
    }
}

static void srgb_encode_is_monotonic(void **state)
{
    (void)state;
    /* A dense sweep over [-0.1, 1.1], then a geometric walk through the tiny floats. */
    int prev = -1;
    for (int i = 0; i <= 1 << 20; i++) {
        float x = -0.1f + 1.2f * (float)i / (float)(1 << 20);
        int c = kiln_srgb_encode(x);
        assert_true(c >= prev);
        assert_true(prev < 0 || c - prev <= 1);
        prev = c;
    }
    assert_int_equal(prev, 255);
    prev = 0;
    for (float x = nextafterf(0.0f, 1.0f); x < 1e-2f; x = nextafterf(x * 1.001f, 1.0f)) {
        int c = kiln_srgb_encode(x);
        assert_true(c >= prev);
        prev = c;
    }
    assert_true(prev >= 24);
}

static void srgb_encode_rounds_the_exact_srgb_value(void **state)
{
    (void)state;
    uint64_t rng = 12345;
    int checked = 0;
    for (int i = 0; i < 200000; i++) {
        float x = (float)(kt_rand(&rng) & 0xffffff) / (float)0xffffff;
        double s = 255.0 * linear_to_srgb_exact((double)x);
        double frac = s - floor(s);
        if (fabs(frac - 0.5) < 1e-5) continue; /* too close to a boundary for float input */
        assert_int_equal(kiln_srgb_encode(x), (int)floor(s + 0.5));
        checked++;
    }
    assert_true(checked > 199000);
}

static void srgb_encode_sends_nan_and_negatives_to_zero_and_clamps_above_one(void **state)
{
    (void)state;
    assert_int_equal(kiln_srgb_encode(NAN), 0);
    assert_int_equal(kiln_srgb_encode(-1.0f), 0);
    assert_int_equal(kiln_srgb_encode(-INFINITY), 0);
    assert_int_equal(kiln_srgb_encode(0.0f), 0);
    assert_int_equal(kiln_srgb_encode(1.0f), 255);
    assert_int_equal(kiln_srgb_encode(7.5f), 255);
    assert_int_equal(kiln_srgb_encode(INFINITY), 255);
    /* Linear 0.5 is sRGB 0.7354 -> 187.5 ... the exact value is 187.52, so 188. */
    assert_int_equal(kiln_srgb_encode(0.5f), 188);
}

int kt_srgb_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(srgb_decode_table_matches_exact_formula_within_1e6),
        cmocka_unit_test(srgb_encode_bounds_are_the_exact_half_codes_between_decoded_values),
        cmocka_unit_test(srgb_decode_then_encode_round_trips_all_256_codes),
        cmocka_unit_test(srgb_encode_switches_code_exactly_at_each_boundary),
        cmocka_unit_test(srgb_encode_is_monotonic),
        cmocka_unit_test(srgb_encode_rounds_the_exact_srgb_value),
        cmocka_unit_test(srgb_encode_sends_nan_and_negatives_to_zero_and_clamps_above_one),
    };
    return cmocka_run_group_tests_name("srgb", tests, NULL, NULL);
}
