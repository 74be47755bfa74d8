/* test_xform.c — the shared transform maths (src/codec/xform.h) against values worked out by
 * hand: 4x4 products, TRS compose and decompose (mirrors included) and their round trip,
 * quaternions from rotation matrices in every branch of Shepperd's method, normalisation,
 * products, and slerp at its ends, midpoints, the shorter arc, nearly equal keys and q against
 * -q; the FBX importers' float variants (renormalisation and slerp in single precision). */
#include "support.h"

#include <math.h>
#include <string.h>

#include "codec/xform.h"

#define SQRT_HALF 0.70710678118654752440

static void assert_floats_near(const float *got, const double *want, int n, double tol)
{
    for (int i = 0; i < n; i++) {
        if (!(fabs((double)got[i] - want[i]) <= tol))
            fail_msg("element %d: got %.9g, want %.9g (tolerance %g)", i, (double)got[i], want[i],
                     tol);
    }
}

/* Same rotation: q or -q. */
static void assert_same_rotation(const float q[4], const double want[4], double tol)
{
    double d = 0;
    for (int i = 0; i < 4; i++) d += q[i] * want[i];
    double s = d < 0 ? -1 : 1, w[4];
    for (int i = 0; i < 4; i++) w[i] = s * want[i];
    assert_floats_near(q, w, 4, tol);
}

static void assert_unit(const float q[4])
{
    double n = 0;
    for (int i = 0; i < 4; i++) n += (double)q[i] * q[i];
    if (!(fabs(sqrt(n) - 1) < 1e-6)) fail_msg("|q| = %.9g, not 1", sqrt(n));
}

/* ---- matrices ----------------------------------------------------------------------------- */

static void identity_is_ones_on_the_diagonal_and_detected_exactly(void **state)
{
    (void)state;
    float m[16];
    double d[16];
    memset(m, 0x7F, sizeof m);
    kiln_mat4_identity(m);
    kiln_mat4d_identity(d);
    for (int i = 0; i < 16; i++) {
        assert_true(m[i] == (i % 5 == 0 ? 1.0f : 0.0f));
        assert_true(d[i] == (i % 5 == 0 ? 1.0 : 0.0));
    }
    assert_true(kiln_mat4_is_identity(m));
    m[12] = 1e-30f;
    assert_false(kiln_mat4_is_identity(m));
    m[12] = 0;
    m[15] = 1.0000001f;
    assert_false(kiln_mat4_is_identity(m));
}

static void mul_of_counting_matrices_matches_the_hand_product(void **state)
{
    (void)state;
    /* a = 1..16 and b = 17..32 column-major; out[col][row] = sum_k a[k][row] * b[col][k], e.g.
     * element (0, 0) = 1*17 + 5*18 + 9*19 + 13*20 = 538. */
    float a[16], b[16], out[16];
    double ad[16], bd[16], outd[16];
    for (int i = 0; i < 16; i++) a[i] = (float)(i + 1), b[i] = (float)(i + 17);
    for (int i = 0; i < 16; i++) ad[i] = a[i], bd[i] = b[i];
    static const double ab[16] = {538, 612, 686, 760,  650, 740, 830,  920,
                                  762, 868, 974, 1080, 874, 996, 1118, 1240};
    static const double ba[16] = {250, 260,  270,  280,  618,  644,  670,  696,
                                  986, 1028, 1070, 1112, 1354, 1412, 1470, 1528};
    kiln_mat4_mul(a, b, out);
    assert_floats_near(out, ab, 16, 0);
    kiln_mat4_mul(b, a, out);
    assert_floats_near(out, ba, 16, 0);
    kiln_mat4d_mul(ad, bd, outd);
    for (int i = 0; i < 16; i++) assert_true(outd[i] == ab[i]);
}

static void mul_may_write_over_either_argument(void **state)
{
    (void)state;
    float t[16], s[16], x[16];
    kiln_mat4_identity(t);
    t[12] = 1, t[13] = 2, t[14] = 3;
    kiln_mat4_identity(s);
    s[0] = 2, s[5] = 3, s[10] = 4;
    /* T * S keeps the translation; S * T scales it. */
    static const double ts[16] = {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1};
    static const double st[16] = {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 2, 6, 12, 1};
    memcpy(x, t, sizeof x);
    kiln_mat4_mul(x, s, x);
    assert_floats_near(x, ts, 16, 0);
    memcpy(x, t, sizeof x);
    kiln_mat4_mul(s, x, x);
    assert_floats_near(x, st, 16, 0);

    double a[16], b[16];
    kiln_mat4d_identity(a);
    a[12] = 1, a[13] = 2, a[14] = 3;
    kiln_mat4d_identity(b);
    b[0] = 2, b[5] = 3, b[10] = 4;
    kiln_mat4d_mul(b, a, a);
    for (int i = 0; i < 16; i++) assert_true(a[i] == st[i]);
}

/* ---- compose and decompose ------------------------------------------------------------------ */

/* T(1, 2, 3) * R(90 degrees about +Z) * S(2, 3, 4): R takes x to y and y to -x, so the columns
 * are (0, 2, 0), (-3, 0, 0), (0, 0, 4) and the translation. */
static const double k_trs[16] = {0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1};
static const double k_z90[4] = {0, 0, SQRT_HALF, SQRT_HALF};

static void compose_gives_translation_rotation_scale(void **state)
{
    (void)state;
    const float t[3] = {1, 2, 3}, q[4] = {0, 0, (float)SQRT_HALF, (float)SQRT_HALF},
                s[3] = {2, 3, 4};
    float m[16];
    kiln_mat4_compose(t, q, s, m);
    assert_floats_near(m, k_trs, 16, 1e-6);
}

static void decompose_gives_back_translation_rotation_scale(void **state)
{
    (void)state;
    float m[16], t[3], q[4], s[3];
    for (int i = 0; i < 16; i++) m[i] = (float)k_trs[i];
    kiln_mat4_decompose(m, t, q, s);
    static const double wt[3] = {1, 2, 3}, ws[3] = {2, 3, 4};
    assert_floats_near(t, wt, 3, 0);
    assert_floats_near(s, ws, 3, 0);
    assert_same_rotation(q, k_z90, 1e-7);
    assert_unit(q);
}

static void decompose_puts_a_mirror_into_scale_x(void **state)
{
    (void)state;
    /* The same matrix with its first column negated: determinant < 0. */
    float m[16], t[3], q[4], s[3], back[16];
    for (int i = 0; i < 16; i++) m[i] = (float)k_trs[i];
    for (int r = 0; r < 3; r++) m[r] = -m[r];
    kiln_mat4_decompose(m, t, q, s);
    static const double ws[3] = {-2, 3, 4};
    assert_floats_near(s, ws, 3, 0);
    assert_same_rotation(q, k_z90, 1e-7);
    kiln_mat4_compose(t, q, s, back);
    double want[16];
    for (int i = 0; i < 16; i++) want[i] = m[i];
    assert_floats_near(back, want, 16, 1e-6);
}

static void compose_of_decompose_round_trips(void **state)
{
    (void)state;
    /* Rotations about tilted axes, large and small angles, uneven and mirrored scales. */
    static const float cases[][10] = {
        {0.5f, -7.0f, 12.25f, 0.1f, 0.2f, 0.3f, 0.9f, 1.0f, 1.0f, 1.0f},
        {-3.0f, 0.0f, 1.0f, -0.7f, 0.1f, 0.1f, 0.7f, 0.01f, 5.0f, 100.0f},
        {100.0f, 200.0f, -300.0f, 0.0f, 1.0f, 0.0f, 1e-3f, 2.0f, 2.0f, 2.0f},
        {0.0f, 0.0f, 0.0f, 0.3f, -0.5f, 0.8f, -0.1f, -1.5f, 0.5f, 3.0f},
        {1.0f, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f, -1.0f, 1.0f},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        float t[3], q[4], s[3], m[16], t2[3], q2[4], s2[3], m2[16];
        memcpy(t, cases[c], sizeof t);
        memcpy(q, cases[c] + 3, sizeof q);
        memcpy(s, cases[c] + 7, sizeof s);
        kiln_quat_normalize(q);
        kiln_mat4_compose(t, q, s, m);
        kiln_mat4_decompose(m, t2, q2, s2);
        assert_unit(q2);
        kiln_mat4_compose(t2, q2, s2, m2);
        for (int i = 0; i < 16; i++) {
            double tol = 1e-5 * (1 + fabs((double)m[i]));
            if (!(fabs((double)m2[i] - m[i]) <= tol * 10))
                fail_msg("case %zu element %d: %.9g back as %.9g", c, i, (double)m[i],
                         (double)m2[i]);
        }
        /* Without a mirror the parts come back themselves (q up to sign). */
        if (s[0] * s[1] * s[2] > 0 && s[0] > 0) {
            double tq[4] = {q[0], q[1], q[2], q[3]};
            assert_same_rotation(q2, tq, 1e-5);
            for (int i = 0; i < 3; i++)
                assert_true(fabs((double)s2[i] - s[i]) <= 1e-5 * fabs(s[i]));
        }
    }
}

static void decompose_of_a_zero_matrix_gives_a_unit_rotation(void **state)
{
    (void)state;
    float m[16] = {0}, t[3], q[4], s[3];
    m[15] = 1;
    kiln_mat4_decompose(m, t, q, s);
    for (int i = 0; i < 3; i++) assert_true(s[i] == 0 && t[i] == 0);
    assert_unit(q);
}

static void quat_from_rotation_covers_every_branch(void **state)
{
    (void)state;
    /* Half turns have trace -1, so each takes the branch of its axis: about x, y and z the
     * quaternion is that axis; the identity takes the trace branch. Columns c[col][row]. */
    static const float half_x[3][3] = {{1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
    static const float half_y[3][3] = {{-1, 0, 0}, {0, 1, 0}, {0, 0, -1}};
    static const float half_z[3][3] = {{-1, 0, 0}, {0, -1, 0}, {0, 0, 1}};
    static const float ident[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    static const float z90[3][3] = {{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}};
    static const double qx[4] = {1, 0, 0, 0}, qy[4] = {0, 1, 0, 0}, qz[4] = {0, 0, 1, 0},
                        qi[4] = {0, 0, 0, 1};
    float q[4];
    kiln_quat_from_rotation(half_x, q);
    assert_same_rotation(q, qx, 0);
    kiln_quat_from_rotation(half_y, q);
    assert_same_rotation(q, qy, 0);
    kiln_quat_from_rotation(half_z, q);
    assert_same_rotation(q, qz, 0);
    kiln_quat_from_rotation(ident, q);
    assert_floats_near(q, qi, 4, 0);
    /* 90 degrees about z: both components are sqrt(1/2) rounded to the nearest float (the
     * rounding in double keeps them there; float normalisation moved them one ulp up). */
    kiln_quat_from_rotation(z90, q);
    assert_true(q[2] == (float)SQRT_HALF && q[3] == (float)SQRT_HALF);
    assert_true(q[0] == 0 && q[1] == 0);
}

static void float_variants_keep_the_fbx_importers_rounding(void **state)
{
    (void)state;
    /* The _f functions renormalise in float, as the FBX importers' cooked files were made: 90
     * degrees about z comes out one ulp above sqrt(1/2) (0.7071068), where the double
     * normalisation keeps the nearest float (0.70710677). */
    static const float z90[3][3] = {{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}};
    float q[4];
    kiln_quat_from_rotation_f(z90, q);
    float up = nextafterf((float)SQRT_HALF, 1.0f);
    assert_true(q[2] == up && q[3] == up);
    assert_true(q[0] == 0 && q[1] == 0);
    /* Decompose: the same split of T and S (a mirror into scale x), the float rotation. */
    float m[16], t[3], s[3], t2[3], q2[4], s2[3];
    for (int i = 0; i < 16; i++) m[i] = (float)k_trs[i];
    kiln_mat4_decompose_f(m, t, q, s);
    kiln_mat4_decompose(m, t2, q2, s2);
    assert_memory_equal(t, t2, sizeof t);
    assert_memory_equal(s, s2, sizeof s);
    assert_true(q[2] == up && q[3] == up);
    m[0] = -m[0], m[1] = -m[1], m[2] = -m[2];
    kiln_mat4_decompose_f(m, t, q, s);
    assert_true(s[0] < 0);
    assert_same_rotation(q, k_z90, 1e-7);
}

/* ---- quaternions -------------------------------------------------------------------------- */

static void normalize_scales_to_unit_length_and_returns_the_old_length(void **state)
{
    (void)state;
    float q[4] = {0, 0, 3, 4};
    assert_true(kiln_quat_normalize(q) == 5.0f);
    static const double want[4] = {0, 0, 0.6, 0.8};
    assert_floats_near(q, want, 4, 1e-7);

    double d[4] = {0, 0, 3, 4};
    float out[4];
    kiln_quat_normalize_d(d, out);
    assert_floats_near(out, want, 4, 1e-7);
}

static void normalize_turns_zero_and_non_finite_into_the_identity(void **state)
{
    (void)state;
    static const double ident[4] = {0, 0, 0, 1};
    const float bad[][4] = {
        {0, 0, 0, 0}, {NAN, 0, 0, 1}, {INFINITY, 0, 0, 1}, {0, -INFINITY, 0, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        float q[4];
        memcpy(q, bad[i], sizeof q);
        float len = kiln_quat_normalize(q);
        assert_false(len > 0 && isfinite(len));
        assert_floats_near(q, ident, 4, 0);
        double d[4] = {bad[i][0], bad[i][1], bad[i][2], bad[i][3]};
        float out[4] = {9, 9, 9, 9};
        kiln_quat_normalize_d(d, out);
        assert_floats_near(out, ident, 4, 0);
    }
}

static void quat_mul_composes_rotations(void **state)
{
    (void)state;
    const float i[4] = {1, 0, 0, 0}, j[4] = {0, 1, 0, 0}, one[4] = {0, 0, 0, 1};
    const float z90[4] = {0, 0, (float)SQRT_HALF, (float)SQRT_HALF};
    float out[4];
    static const double k[4] = {0, 0, 1, 0}, minus_k[4] = {0, 0, -1, 0};
    kiln_quat_mul(i, j, out); /* i j = k */
    assert_floats_near(out, k, 4, 0);
    kiln_quat_mul(j, i, out); /* j i = -k */
    assert_floats_near(out, minus_k, 4, 0);
    kiln_quat_mul(one, z90, out);
    for (int c = 0; c < 4; c++) assert_true(out[c] == z90[c]);
    /* 90 + 90 degrees about z is the half turn about z; out may alias. */
    memcpy(out, z90, sizeof out);
    kiln_quat_mul(out, z90, out);
    assert_floats_near(out, k, 4, 1e-7);
}

/* ---- slerp -------------------------------------------------------------------------------- */

static void slerp_returns_its_ends(void **state)
{
    (void)state;
    const float a[4] = {0, 0, 0, 1}, b[4] = {0, 0, (float)SQRT_HALF, (float)SQRT_HALF};
    float out[4];
    kiln_quat_slerp(a, b, 0.0, out);
    static const double wa[4] = {0, 0, 0, 1};
    assert_floats_near(out, wa, 4, 0);
    kiln_quat_slerp(a, b, 1.0, out);
    assert_floats_near(out, k_z90, 4, 1e-7);
    /* Keys that are not unit length are normalised first. */
    const float a2[4] = {0, 0, 0, 3}, b2[4] = {0, 0, 0.5f, 0.5f};
    kiln_quat_slerp(a2, b2, 1.0, out);
    assert_floats_near(out, k_z90, 4, 1e-7);
}

static void slerp_midpoint_is_half_the_angle(void **state)
{
    (void)state;
    /* Halfway from the identity to 90 degrees about z is 45 degrees: (0, 0, sin 22.5, cos 22.5);
     * a quarter of the way, 22.5 degrees. */
    const float a[4] = {0, 0, 0, 1}, b[4] = {0, 0, (float)SQRT_HALF, (float)SQRT_HALF};
    float out[4];
    kiln_quat_slerp(a, b, 0.5, out);
    const double half[4] = {0, 0, 0.38268343236508977, 0.92387953251128674};
    assert_floats_near(out, half, 4, 1e-7);
    kiln_quat_slerp(a, b, 0.25, out);
    const double quarter[4] = {0, 0, 0.19509032201612825, 0.98078528040323043};
    assert_floats_near(out, quarter, 4, 1e-7);
    /* A half turn apart (dot product 0): halfway is 90 degrees about x. */
    const float x180[4] = {1, 0, 0, 0};
    kiln_quat_slerp(a, x180, 0.5, out);
    const double x90[4] = {SQRT_HALF, 0, 0, SQRT_HALF};
    assert_floats_near(out, x90, 4, 1e-7);
}

static void slerp_takes_the_shorter_arc(void **state)
{
    (void)state;
    /* b is -(90 degrees about z): the same rotation written the long way round. The result is
     * the 45 degree rotation (up to sign), not 135 degrees. */
    const float a[4] = {0, 0, 0, 1}, b[4] = {0, 0, -(float)SQRT_HALF, -(float)SQRT_HALF};
    float out[4];
    kiln_quat_slerp(a, b, 0.5, out);
    const double half[4] = {0, 0, 0.38268343236508977, 0.92387953251128674};
    assert_same_rotation(out, half, 1e-7);
    assert_unit(out);
}

static void slerp_of_q_and_minus_q_stays_put(void **state)
{
    (void)state;
    /* The antipodal case: q and -q are one rotation (dot product -1), so every u gives it. */
    const float a[4] = {0.1f, 0.2f, 0.3f, 0.9f};
    float q[4], mq[4], out[4];
    memcpy(q, a, sizeof q);
    kiln_quat_normalize(q);
    for (int i = 0; i < 4; i++) mq[i] = -q[i];
    double want[4] = {q[0], q[1], q[2], q[3]};
    for (int k = 0; k <= 4; k++) {
        kiln_quat_slerp(q, mq, k / 4.0, out);
        assert_same_rotation(out, want, 1e-7);
        assert_unit(out);
    }
}

static void slerp_of_nearly_equal_keys_blends_without_dividing_by_zero(void **state)
{
    (void)state;
    /* 2e-5 rad apart about z: the dot product is above 1 - 1e-9, the linear branch. */
    double h = 1e-5;
    const float a[4] = {0, 0, 0, 1}, b[4] = {0, 0, (float)sin(h), (float)cos(h)};
    float out[4];
    kiln_quat_slerp(a, b, 0.5, out);
    const double want[4] = {0, 0, sin(h / 2), cos(h / 2)};
    assert_floats_near(out, want, 4, 1e-9);
    kiln_quat_slerp(a, a, 0.3, out);
    const double ident[4] = {0, 0, 0, 1};
    assert_floats_near(out, ident, 4, 0);
}

static void slerp_f_in_float_matches_the_double_one_closely(void **state)
{
    (void)state;
    /* The FBX importers' float slerp: ends, midpoints, the shorter arc and the linear branch
     * (a dot product above 0.9995) agree with the double slerp to float precision. */
    const float a[4] = {0, 0, 0, 1}, b[4] = {0, 0, (float)SQRT_HALF, (float)SQRT_HALF};
    const float mb[4] = {0, 0, -(float)SQRT_HALF, -(float)SQRT_HALF};
    const double h = 0.01; /* 0.02 rad apart: the dot product is above 0.9995 */
    const float near[4] = {0, 0, (float)sin(h), (float)cos(h)};
    const float *to[3] = {b, mb, near};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i <= 8; i++) {
            float got[4], want[4];
            kiln_quat_slerp_f(a, to[k], (float)i / 8, got);
            kiln_quat_slerp(a, to[k], i / 8.0, want);
            double w[4] = {want[0], want[1], want[2], want[3]};
            assert_floats_near(got, w, 4, 2e-6);
            assert_unit(got);
        }
    float out[4];
    kiln_quat_slerp_f(a, b, 0.0f, out);
    static const double wa[4] = {0, 0, 0, 1};
    assert_floats_near(out, wa, 4, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identity_is_ones_on_the_diagonal_and_detected_exactly),
        cmocka_unit_test(mul_of_counting_matrices_matches_the_hand_product),
        cmocka_unit_test(mul_may_write_over_either_argument),
        cmocka_unit_test(compose_gives_translation_rotation_scale),
        cmocka_unit_test(decompose_gives_back_translation_rotation_scale),
        cmocka_unit_test(decompose_puts_a_mirror_into_scale_x),
        cmocka_unit_test(compose_of_decompose_round_trips),
        cmocka_unit_test(decompose_of_a_zero_matrix_gives_a_unit_rotation),
        cmocka_unit_test(quat_from_rotation_covers_every_branch),
        cmocka_unit_test(float_variants_keep_the_fbx_importers_rounding),
        cmocka_unit_test(normalize_scales_to_unit_length_and_returns_the_old_length),
        cmocka_unit_test(normalize_turns_zero_and_non_finite_into_the_identity),
        cmocka_unit_test(quat_mul_composes_rotations),
        cmocka_unit_test(slerp_returns_its_ends),
        cmocka_unit_test(slerp_midpoint_is_half_the_angle),
        cmocka_unit_test(slerp_takes_the_shorter_arc),
        cmocka_unit_test(slerp_of_q_and_minus_q_stays_put),
        cmocka_unit_test(slerp_of_nearly_equal_keys_blends_without_dividing_by_zero),
        cmocka_unit_test(slerp_f_in_float_matches_the_double_one_closely),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
