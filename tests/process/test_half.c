/* test_half.c — float <-> half conversion: every half round trips, rounding is to nearest with
 * ties to even, overflow and underflow go where IEEE 754 says. */
#include "support.h"

#include <math.h>
#include <string.h>

#include "process/half.h"
#include "process_tests.h"

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The value of a finite half from its definition, in double. */
static double half_value(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

static void half_round_trips_every_finite_half_and_infinity(void **state)
{
    (void)state;
    int n = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
        if (e == 31 && m != 0) continue;
        float f = kiln_half_to_float((uint16_t)h);
        if (e != 31) assert_true((double)f == half_value((uint16_t)h));
        assert_int_equal(kiln_half_from_float(f), h);
        n++;
    }
    assert_int_equal(n, 65536 - 2 * 1023);
    assert_true(isinf(kiln_half_to_float(0x7c00)) && kiln_half_to_float(0x7c00) > 0);
    assert_true(signbit(kiln_half_to_float(0x8000)));
}

static void half_nan_stays_nan(void **state)
{
    (void)state;
    for (uint32_t h = 0x7c01; h <= 0x7fff; h++) {
        assert_true(isnan(kiln_half_to_float((uint16_t)h)));
        uint16_t back = kiln_half_from_float(kiln_half_to_float((uint16_t)h));
        assert_int_equal(back & 0x7c00, 0x7c00);
        assert_true((back & 0x3ff) != 0);
    }
    uint16_t q = kiln_half_from_float(NAN);
    assert_int_equal(q & 0x7c00, 0x7c00);
    assert_true((q & 0x3ff) != 0);
    /* A signalling float NaN whose payload lies only in the low bits must not become inf. */
    uint16_t s = kiln_half_from_float(from_bits(0x7f800001u));
    assert_true((s & 0x3ff) != 0);
}

static void half_rounds_ties_to_even(void **state)
{
    (void)state;
    /* Between 1 (0x3c00) and 1 + 2^-10 (0x3c01): the tie goes down to the even 0x3c00. */
    assert_int_equal(kiln_half_from_float(1.0f + 0x1p-11f), 0x3c00);
    /* Between 0x3c01 and 0x3c02: the tie goes up to the even 0x3c02. */
    assert_int_equal(kiln_half_from_float(1.0f + 3 * 0x1p-11f), 0x3c02);
    /* Just above a tie rounds up, just below rounds down. */
    assert_int_equal(kiln_half_from_float(nextafterf(1.0f + 0x1p-11f, 2.0f)), 0x3c01);
    assert_int_equal(kiln_half_from_float(nextafterf(1.0f + 3 * 0x1p-11f, 0.0f)), 0x3c01);
    assert_int_equal(kiln_half_from_float(-(1.0f + 0x1p-11f)), 0xbc00);
    /* Subnormals: 2^-25 is half of the smallest subnormal, the tie goes to zero; 3 * 2^-25 lies
     * between 1 and 2 units and goes to the even 2. */
    assert_int_equal(kiln_half_from_float(0x1p-25f), 0x0000);
    assert_int_equal(kiln_half_from_float(nextafterf(0x1p-25f, 1.0f)), 0x0001);
    assert_int_equal(kiln_half_from_float(3 * 0x1p-25f), 0x0002);
    assert_int_equal(kiln_half_from_float(5 * 0x1p-25f), 0x0002);
    assert_int_equal(kiln_half_from_float(-0x1p-26f), 0x8000);
    /* 1023.5 units of 2^-24 ties between the largest subnormal (odd) and the smallest normal. */
    assert_int_equal(kiln_half_from_float(1023.5f * 0x1p-24f), 0x0400);
    assert_int_equal(kiln_half_from_float(1022.5f * 0x1p-24f), 0x03fe);
    /* 65520 ties between 65504 (odd mantissa) and 65536, which is infinity. */
    assert_int_equal(kiln_half_from_float(65519.996f), 0x7bff);
    assert_int_equal(kiln_half_from_float(65520.0f), 0x7c00);
    assert_int_equal(kiln_half_from_float(-65520.0f), 0xfc00);
    assert_int_equal(kiln_half_from_float(1e30f), 0x7c00);
}

/* Nearest finite positive half by bisection over the ordered codes 0..0x7bff, ties to even. */
static uint16_t nearest_half_reference(double v)
{
    uint32_t lo = 0, hi = 0x7bff;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (half_value((uint16_t)mid) <= v) lo = mid;
        else hi = mid;
    }
    double dlo = v - half_value((uint16_t)lo), dhi = half_value((uint16_t)hi) - v;
    if (dlo < dhi) return (uint16_t)lo;
    if (dhi < dlo) return (uint16_t)hi;
    return (uint16_t)((lo & 1) ? hi : lo);
}

static void half_matches_reference_rounding_for_random_floats(void **state)
{
    (void)state;
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 300000; i++) {
        /* Exponents from 2^-27 to 2^15, random mantissas, both signs. */
        uint32_t bits = ((100u + kt_rand(&rng) % 43u) << 23) | (kt_rand(&rng) & 0x7fffffu);
        float f = from_bits(bits);
        if (f > 65504.0f) continue;
        uint16_t ref = nearest_half_reference((double)f);
        assert_int_equal(kiln_half_from_float(f), ref);
        assert_int_equal(kiln_half_from_float(-f), ref | 0x8000);
    }
}

static void half_saturating_clamps_to_range_and_sends_nan_to_zero(void **state)
{
    (void)state;
    assert_int_equal(kiln_half_from_float_sat(NAN), 0x0000);
    assert_int_equal(kiln_half_from_float_sat(INFINITY), 0x7bff);
    assert_int_equal(kiln_half_from_float_sat(-INFINITY), 0xfbff);
    assert_int_equal(kiln_half_from_float_sat(70000.0f), 0x7bff);
    assert_int_equal(kiln_half_from_float_sat(65519.0f), 0x7bff);
    assert_int_equal(kiln_half_from_float_sat(1.5f), 0x3e00);
    assert_int_equal(kiln_half_from_float_sat(-2.0f), 0xc000);
}

int kt_half_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(half_round_trips_every_finite_half_and_infinity),
        cmocka_unit_test(half_nan_stays_nan),
        cmocka_unit_test(half_rounds_ties_to_even),
        cmocka_unit_test(half_matches_reference_rounding_for_random_floats),
        cmocka_unit_test(half_saturating_clamps_to_range_and_sends_nan_to_zero),
    };
    return cmocka_run_group_tests_name("half", tests, NULL, NULL);
}
