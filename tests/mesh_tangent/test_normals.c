/* test_normals.c — kiln_normals_compute (src/process/normals.c): flat faces, a shared-vertex
 * cube (diagonals), a UV sphere (radial), angle weighting (splitting a face changes nothing),
 * unwelded vertices at one position stay apart, and what is skipped: degenerate and
 * out-of-range triangles, non-finite positions, unused vertices ((0, 0, 1)). */
#include "support.h"

#include <math.h>
#include <string.h>

#include "process/normals.h"

static void assert_vec(const float *v, double x, double y, double z, double tol)
{
    if (fabs(v[0] - x) > tol || fabs(v[1] - y) > tol || fabs(v[2] - z) > tol)
        fail_msg("(%g %g %g) is not (%g %g %g)", v[0], v[1], v[2], x, y, z);
}

/* The 8 corners of the cube [-1, 1]^3: bit 0 = x, bit 1 = y, bit 2 = z. */
static void cube_corner(int i, float out[3])
{
    out[0] = (i & 1) ? 1.0f : -1.0f;
    out[1] = (i & 2) ? 1.0f : -1.0f;
    out[2] = (i & 4) ? 1.0f : -1.0f;
}

/* The 6 faces as corner quads, counter-clockwise seen from outside. */
static const int cube_quads[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3},
                                     {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
static const float cube_normals[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                         {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};

static void unwelded_cube_gets_face_normals(void **state)
{
    (void)state;
    float pos[24 * 3], nrm[24 * 3];
    uint32_t idx[36];
    for (int f = 0; f < 6; f++) {
        for (int k = 0; k < 4; k++) cube_corner(cube_quads[f][k], &pos[(f * 4 + k) * 3]);
        uint32_t b = (uint32_t)f * 4;
        uint32_t t[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
        memcpy(&idx[f * 6], t, sizeof t);
    }
    kiln_normals_compute(pos, 24, idx, 36, nrm);
    for (int v = 0; v < 24; v++) {
        const float *n = cube_normals[v / 4];
        assert_vec(&nrm[v * 3], n[0], n[1], n[2], 1e-6);
    }
}

static void shared_cube_gets_diagonal_normals(void **state)
{
    (void)state;
    float pos[8 * 3], nrm[8 * 3];
    uint32_t idx[36];
    for (int i = 0; i < 8; i++) cube_corner(i, &pos[i * 3]);
    for (int f = 0; f < 6; f++) {
        const int *q = cube_quads[f];
        uint32_t t[6] = {(uint32_t)q[0], (uint32_t)q[1], (uint32_t)q[2],
                         (uint32_t)q[0], (uint32_t)q[2], (uint32_t)q[3]};
        memcpy(&idx[f * 6], t, sizeof t);
    }
    kiln_normals_compute(pos, 8, idx, 36, nrm);
    double d = 1.0 / sqrt(3.0);
    /* Angle weighting: each face adds 90 degrees to each of its corners, however it is split;
     * an area or count weighting would tilt the corners on the split diagonals. */
    for (int i = 0; i < 8; i++)
        assert_vec(&nrm[i * 3], pos[i * 3] * d, pos[i * 3 + 1] * d, pos[i * 3 + 2] * d, 1e-6);
}

static void sphere_normals_are_radial(void **state)
{
    (void)state;
    enum { R = 12, S = 24 };
    static float pos[(R + 1) * (S + 1) * 3], nrm[(R + 1) * (S + 1) * 3];
    static uint32_t idx[R * S * 6];
    uint32_t ic = 0;
    for (int i = 0; i <= R; i++)
        for (int j = 0; j <= S; j++) {
            double th = M_PI * i / R, ph = 2 * M_PI * j / S;
            float *p = &pos[(i * (S + 1) + j) * 3];
            p[0] = (float)(sin(th) * cos(ph));
            p[1] = (float)cos(th);
            p[2] = (float)(-sin(th) * sin(ph));
        }
    for (int i = 0; i < R; i++)
        for (int j = 0; j < S; j++) {
            uint32_t a = (uint32_t)(i * (S + 1) + j), b = a + 1, c = a + S + 1, d = c + 1;
            if (i > 0) {
                idx[ic++] = a;
                idx[ic++] = c;
                idx[ic++] = b;
            }
            if (i < R - 1) {
                idx[ic++] = b;
                idx[ic++] = c;
                idx[ic++] = d;
            }
        }
    kiln_normals_compute(pos, (R + 1) * (S + 1), idx, ic, nrm);
    for (int v = 0; v < (R + 1) * (S + 1); v++) {
        int i = v / (S + 1);
        const float *n = &nrm[v * 3];
        double len = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
        assert_true(fabs(len - 1.0) < 1e-6);
        int j = v % (S + 1);
        if ((i == 0 && j == 0) || (i == R && j == S)) { /* in no triangle */
            assert_vec(n, 0, 0, 1, 0);
            continue;
        }
        if (i == 0 || i == R) {
            /* Pole vertices, one per segment, each in one triangle: that triangle's normal,
             * which leans towards its segment. Only the sign of y is certain. */
            assert_true((i == 0 ? n[1] : -n[1]) > 0.9);
            continue;
        }
        /* Seam vertices (not welded) see the triangles of one side only. */
        const float *p = &pos[v * 3];
        double cosine = ((double)n[0] * p[0] + (double)n[1] * p[1] + (double)n[2] * p[2]) /
                        sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
        double deg = acos(cosine > 1 ? 1 : cosine) * 180.0 / M_PI;
        double tol = (j == 0 || j == S) ? 8.0 : 1.5; /* coarse, asymmetric triangles */
        if (deg > tol) fail_msg("ring %d segment %d: %g degrees from radial", i, j, deg);
    }
}

/* A vertex between two faces at right angles, each with a 90 degree corner there: face A in
 * z = 0 (normal +z) as one triangle, face B in x = 0 (normal +x) as one triangle or as two of
 * 45 degrees each. Angle weighting gives the bisector both ways; counting triangles would not. */
static void splitting_a_face_does_not_change_the_normal(void **state)
{
    (void)state;
    float pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, -1, 0, 1, -1};
    float nrm[5 * 3];
    double d = 1.0 / sqrt(2.0);
    uint32_t whole[] = {0, 1, 2, 0, 3, 2};
    kiln_normals_compute(pos, 5, whole, 6, nrm);
    assert_vec(&nrm[0], d, 0, d, 1e-6);
    uint32_t split[] = {0, 1, 2, 0, 3, 4, 0, 4, 2};
    kiln_normals_compute(pos, 5, split, 9, nrm);
    assert_vec(&nrm[0], d, 0, d, 1e-6);
}

static void vertices_at_one_position_are_not_welded(void **state)
{
    (void)state;
    /* Two triangles meeting at a hinge along x, each with its own copies of the hinge. */
    float pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1};
    uint32_t idx[] = {0, 1, 2, 3, 4, 5};
    float nrm[6 * 3];
    kiln_normals_compute(pos, 6, idx, 6, nrm);
    assert_vec(&nrm[0], 0, 0, 1, 1e-6);
    assert_vec(&nrm[3 * 3], 0, 1, 0, 1e-6);
    /* Shared, they average. */
    uint32_t shared[] = {0, 1, 2, 0, 1, 5};
    kiln_normals_compute(pos, 6, shared, 6, nrm);
    double d = 1.0 / sqrt(2.0);
    assert_vec(&nrm[0], 0, d, d, 1e-6);
}

static void unusable_triangles_are_skipped_and_lonely_vertices_point_up(void **state)
{
    (void)state;
    float pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0, 3, 0, 0, NAN, 0, 0, 5, 5, 5, 6, 6, 6};
    uint32_t idx[] = {
        0, 2, 1,  /* good: normal -z */
        0, 1, 3,  /* collinear: zero area */
        1, 1, 4,  /* repeated vertex */
        0, 1, 5,  /* NaN position */
        0, 1, 99, /* out of range */
        6, 7,     /* partial triangle */
    };
    float nrm[8 * 3];
    kiln_normals_compute(pos, 8, idx, sizeof idx / sizeof *idx, nrm);
    for (int v = 0; v < 3; v++) assert_vec(&nrm[v * 3], 0, 0, -1, 1e-6);
    for (int v = 3; v < 8; v++) assert_vec(&nrm[v * 3], 0, 0, 1, 0);
    for (int i = 0; i < 24; i++) assert_true(isfinite(nrm[i]));
}

static void opposite_faces_cancel_to_the_default(void **state)
{
    (void)state;
    float pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uint32_t idx[] = {0, 1, 2, 0, 2, 1};
    float nrm[9];
    kiln_normals_compute(pos, 3, idx, 6, nrm);
    for (int v = 0; v < 3; v++) assert_vec(&nrm[v * 3], 0, 0, 1, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unwelded_cube_gets_face_normals),
        cmocka_unit_test(shared_cube_gets_diagonal_normals),
        cmocka_unit_test(sphere_normals_are_radial),
        cmocka_unit_test(splitting_a_face_does_not_change_the_normal),
        cmocka_unit_test(vertices_at_one_position_are_not_welded),
        cmocka_unit_test(unusable_triangles_are_skipped_and_lonely_vertices_point_up),
        cmocka_unit_test(opposite_faces_cancel_to_the_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
