/* test_mesh_error.c — kiln_mesh_deviation (src/process/mesh_error.c) on small meshes: known
 * answers (a plane against the same plane moved by d, a surface against itself, empty lists),
 * and, on heightfields, bumpy spheres and random triangle soups, the bound against an
 * independent dense measurement made here (brute_hausdorff: many random barycentric points,
 * every vertex and points along every edge of both surfaces, each measured against every
 * triangle of the other with its own point-triangle distance). The bound must not be below the
 * measurement, and not far above it (at most 1.6x + a hair; the method's slack is 1.25x). A
 * small group over a large vertex buffer (the hashed vertex numbering) gives the same answer as
 * the same group over its own buffer. And the cook's lod_error holds by the same measurement
 * where meshoptimizer's own estimate would let it pass. */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <meshoptimizer.h>

#include "brute_distance.h"
#include "process/mesh.h"
#include "process/mesh_error.h"
#include "process/mesh_error_bvh.h"
#include "process/mesh_error_overlay.h"

static float deviation(const float *pos, size_t nv, const uint32_t *a, size_t na, const uint32_t *b,
                       size_t nb)
{
    float out = -1;
    kiln_error err;
    assert_int_equal(kiln_mesh_deviation(NULL, pos, nv, a, na, b, nb, &out, &err), KILN_OK);
    return out;
}

/* Dense samples per surface for the measurement; fewer under sanitizers (they look for memory
 * errors, and the measurement is a lower bound either way). */
static size_t samples(void)
{
    const char *san = getenv("KILN_TEST_SANITIZED");
    return san && san[0] == '1' ? 4000 : 30000;
}

static uint32_t rnd(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

static double frand(uint32_t *s) { return (rnd(s) >> 8) / 16777216.0; }

/* An (n+1)^2 grid of vertices at z = height(x, y); triangles of the cells of size `step`
 * vertices (1 = every vertex, 2 = every other row and column; n a multiple of step). */
static uint32_t *grid_tris(uint32_t n, uint32_t step, uint32_t base, size_t *count)
{
    uint32_t cells = n / step, k = 0;
    uint32_t *idx = malloc((size_t)cells * cells * 6 * sizeof *idx);
    for (uint32_t y = 0; y < n; y += step)
        for (uint32_t x = 0; x < n; x += step) {
            uint32_t v00 = base + y * (n + 1) + x, v10 = v00 + step, v01 = v00 + step * (n + 1),
                     v11 = v01 + step;
            uint32_t q[6] = {v00, v10, v11, v00, v11, v01};
            if ((x / step + y / step) & 1) q[2] = v01, q[4] = v10, q[5] = v11, q[3] = v01;
            memcpy(idx + k, q, sizeof q);
            k += 6;
        }
    *count = k;
    return idx;
}

static void plane_against_plane_moved_by_d(void **state)
{
    (void)state;
    uint32_t n = 8, nv = (n + 1) * (n + 1);
    float *pos = malloc((size_t)nv * 2 * 12);
    const float d = 0.125f;
    for (uint32_t y = 0; y <= n; y++)
        for (uint32_t x = 0; x <= n; x++) {
            float *p = pos + (size_t)(y * (n + 1) + x) * 3, *q = p + (size_t)nv * 3;
            p[0] = q[0] = (float)x / n, p[1] = q[1] = (float)y / n, p[2] = 0, q[2] = d;
        }
    size_t na, nb;
    uint32_t *a = grid_tris(n, 1, 0, &na), *b = grid_tris(n, 2, nv, &nb);
    float h = deviation(pos, (size_t)nv * 2, a, na, b, nb);
    print_message("plane vs plane moved by %.3f: %.9f\n", d, h);
    assert_true(h >= d && h <= d * 1.000001f);
    /* and the same plane, coarser, against itself: 0 up to the hair (2^-22 of the extent) */
    uint32_t *b0 = grid_tris(n, 2, 0, &nb);
    float z = deviation(pos, nv, a, na, b0, nb);
    print_message("plane vs its coarser self: %.3g\n", z);
    assert_true(z >= 0 && z <= 1e-6f);
    free(a), free(b), free(b0), free(pos);
}

static void triangle_against_itself_and_empty_lists(void **state)
{
    (void)state;
    const float pos[9] = {0, 0, 0, 10, 0, 0, 3, 7, 1};
    const uint32_t t[3] = {0, 1, 2}, r[3] = {1, 2, 0};
    assert_true(deviation(pos, 3, t, 3, t, 3) <= 10 * 1e-6f);
    assert_true(deviation(pos, 3, t, 3, r, 3) <= 10 * 1e-6f);
    assert_true(deviation(pos, 3, t, 3, NULL, 0) == INFINITY);
    assert_true(deviation(pos, 3, NULL, 0, t, 3) == INFINITY);
    assert_true(deviation(pos, 3, NULL, 0, NULL, 0) == 0.0f);
    const uint32_t bad[3] = {0, 1, 3};
    float out;
    kiln_error err;
    assert_int_equal(kiln_mesh_deviation(NULL, pos, 3, t, 3, bad, 3, &out, &err), KILN_E_USAGE);
}

typedef struct stats {
    double worst_ratio, sum_ratio;
    int cases;
} stats;

/* The bound against the dense measurement of one case. */
static void check_case(const char *name, const float *pos, size_t nv, const uint32_t *a, size_t na,
                       const uint32_t *b, size_t nb, double extent, stats *st)
{
    float h = deviation(pos, nv, a, na, b, nb);
    double m = bd_hausdorff(pos, a, na, b, nb, samples(), 0x1234u);
    double ratio = (h - 1e-6 * extent) / (m > 0 ? m : 1e-30);
    if (m < 1e-5 * extent) ratio = 1;
    print_message("%-28s bound %.6f, dense %.6f (%.3fx)\n", name, h, m, (double)h / m);
    assert_true(h >= m);
    assert_true(h <= 1.6 * m + 1e-6 * extent);
    if (ratio > st->worst_ratio) st->worst_ratio = ratio;
    st->sum_ratio += ratio;
    st->cases++;
}

static void heightfields_spheres_and_soups_against_dense_measurement(void **state)
{
    (void)state;
    stats st = {0, 0, 0};
    uint32_t seed = 0xC0FFEEu;
    /* Heightfields: smooth bumps and random noise, full grid against the every-other grid. */
    for (int c = 0; c < 6; c++) {
        uint32_t n = 16, nv = (n + 1) * (n + 1);
        float *pos = malloc((size_t)nv * 12);
        double amp = 0.02 + 0.1 * c, f1 = 1 + c, f2 = 2 + (c % 3);
        for (uint32_t y = 0; y <= n; y++)
            for (uint32_t x = 0; x <= n; x++) {
                float *p = pos + (size_t)(y * (n + 1) + x) * 3;
                double u = (double)x / n, v = (double)y / n;
                p[0] = (float)u, p[1] = (float)v;
                p[2] = (float)(amp * sin(f1 * u * 3.1) * cos(f2 * v * 2.3) +
                               (c >= 3 ? 0.02 * (frand(&seed) - 0.5) : 0.0));
            }
        size_t na, nb;
        uint32_t *a = grid_tris(n, 1, 0, &na), *b = grid_tris(n, 2, 0, &nb);
        char name[64];
        snprintf(name, sizeof name, "heightfield %d", c);
        check_case(name, pos, nv, a, na, b, nb, 1.0, &st);
        free(a), free(b);
        /* and a coarser one, every fourth vertex */
        a = grid_tris(n, 1, 0, &na), b = grid_tris(n, 4, 0, &nb);
        snprintf(name, sizeof name, "heightfield %d / 4", c);
        check_case(name, pos, nv, a, na, b, nb, 1.0, &st);
        free(a), free(b), free(pos);
    }
    /* A coarse surface over a fine one with a hole in it, and over a fold (a column of fine
     * vertices moved past the next, so some fine triangles face away under the coarse ones):
     * where the fine surface is not one sheet under a coarse triangle, no cut of that triangle
     * by the fine triangles beneath it covers it, and the bound must say so. */
    for (int c = 0; c < 2; c++) {
        uint32_t n = 16, nv = (n + 1) * (n + 1);
        float *pos = malloc((size_t)nv * 12);
        for (uint32_t y = 0; y <= n; y++)
            for (uint32_t x = 0; x <= n; x++) {
                float *p = pos + (size_t)(y * (n + 1) + x) * 3;
                double u = (double)x / n, v = (double)y / n;
                p[0] = (float)(u + (c == 1 && x == 6 ? 1.6 / n : 0.0)), p[1] = (float)v;
                p[2] =
                    (float)(0.005 * sin(u * 5.0) * cos(v * 4.0) + (c == 1 && x == 6 ? 0.03 : 0.0));
            }
        size_t na, nb, kept = 0;
        uint32_t *a = grid_tris(n, 1, 0, &na), *b = grid_tris(n, 4, 0, &nb);
        for (size_t t = 0; t < na; t += 3) {
            int inside = 1;
            for (int j = 0; j < 3; j++) {
                uint32_t x = a[t + j] % (n + 1), y = a[t + j] / (n + 1);
                inside &= x >= 4 && x <= 8 && y >= 4 && y <= 8;
            }
            if (c == 0 && inside) continue;
            memmove(a + kept, a + t, 3 * sizeof *a);
            kept += 3;
        }
        check_case(c == 0 ? "heightfield with a hole" : "heightfield with a fold", pos, nv, a, kept,
                   b, nb, 1.0, &st);
        free(a), free(b), free(pos);
    }
    /* Bumpy closed spheres: a latitude-longitude grid, full against every other row/column. */
    for (int c = 0; c < 3; c++) {
        uint32_t seg = 24, rings = 12, nv = seg * (rings - 1) + 2;
        float *pos = malloc((size_t)nv * 12);
        for (uint32_t r = 1; r < rings; r++)
            for (uint32_t s = 0; s < seg; s++) {
                double th = M_PI * r / rings, ph = 2 * M_PI * s / seg;
                double rad = 1 + 0.05 * c * sin(3 * th) * cos(2 * ph) + 0.01 * c * frand(&seed);
                float *p = pos + (size_t)((r - 1) * seg + s) * 3;
                p[0] = (float)(rad * sin(th) * cos(ph)), p[1] = (float)(rad * cos(th));
                p[2] = (float)(rad * sin(th) * sin(ph));
            }
        uint32_t top = nv - 2, bottom = nv - 1;
        pos[top * 3] = 0, pos[top * 3 + 1] = 1, pos[top * 3 + 2] = 0;
        pos[bottom * 3] = 0, pos[bottom * 3 + 1] = -1, pos[bottom * 3 + 2] = 0;
        uint32_t *lists[2];
        size_t counts[2];
        for (int l = 0; l < 2; l++) {
            uint32_t step = l ? 2 : 1, k = 0;
            uint32_t *idx = malloc((size_t)seg * rings * 6 * sizeof *idx);
#define V(r, s) ((r) == 0 ? top : (r) == rings ? bottom : ((r)-1) * seg + (s) % seg)
            for (uint32_t r = 0; r < rings; r += step)
                for (uint32_t s = 0; s < seg; s += step) {
                    uint32_t r1 = r + step > rings ? rings : r + step;
                    uint32_t a0 = V(r, s), a1 = V(r, s + step), b0 = V(r1, s), b1 = V(r1, s + step);
                    if (r > 0) idx[k++] = a0, idx[k++] = b0, idx[k++] = a1;
                    if (r1 < rings) idx[k++] = a1, idx[k++] = b0, idx[k++] = b1;
                }
#undef V
            lists[l] = idx, counts[l] = k;
        }
        char name[64];
        snprintf(name, sizeof name, "bumpy sphere %d", c);
        check_case(name, pos, nv, lists[0], counts[0], lists[1], counts[1], 2.0, &st);
        free(lists[0]), free(lists[1]), free(pos);
    }
    /* Random soups: a few triangles each, anywhere in the unit cube. */
    for (int c = 0; c < 12; c++) {
        uint32_t nv = 60;
        float pos[180];
        for (uint32_t i = 0; i < nv * 3; i++) pos[i] = (float)frand(&seed);
        uint32_t a[30], b[30];
        size_t na = 3 * (1 + c % 10), nb = 3 * (1 + (c * 7) % 10);
        for (size_t i = 0; i < na; i++) a[i] = rnd(&seed) % 30;
        for (size_t i = 0; i < nb; i++) b[i] = 30 + rnd(&seed) % 30;
        char name[64];
        snprintf(name, sizeof name, "soup %d", c);
        check_case(name, pos, nv, a, na, b, nb, 1.0, &st);
    }
    print_message("%d cases: bound / dense measurement %.3f on average, %.3f at worst\n", st.cases,
                  st.sum_ratio / st.cases, st.worst_ratio);
}

/* The overlay bound alone (src/process/mesh_error_overlay.c): one triangle over a fine grid,
 * whole, with a hole under it, and folded under it. Where the fine triangles beneath do not
 * cover it once, the bound must give up (+inf) or still hold; whole, it must hold and be
 * finite. "Hold": not below the largest distance from the triangle to the grid, measured
 * densely here. The whole-surface tests above cannot show a wrong bound that stays below the
 * exact distances found elsewhere; this one can. */
static void overlay_bound_covers_or_gives_up(void **state)
{
    (void)state;
    for (int c = 0; c < 3; c++) {
        uint32_t n = 8, nv = (n + 1) * (n + 1);
        double *pos = malloc((size_t)nv * 3 * sizeof *pos);
        for (uint32_t y = 0; y <= n; y++)
            for (uint32_t x = 0; x <= n; x++) {
                double *p = pos + (size_t)(y * (n + 1) + x) * 3;
                p[0] = (double)x / n + (c == 2 && x == 3 ? 1.6 / n : 0.0), p[1] = (double)y / n;
                p[2] = 0.01 * sin(p[0] * 4.0) + (c == 2 && x == 3 ? 0.05 : 0.0);
            }
        size_t na, kept = 0;
        uint32_t *a = grid_tris(n, 1, 0, &na);
        for (size_t t = 0; t < na; t += 3) {
            int inside = 1;
            for (int j = 0; j < 3; j++) {
                uint32_t x = a[t + j] % (n + 1), y = a[t + j] / (n + 1);
                inside &= x >= 3 && x <= 4 && y >= 3 && y <= 4;
            }
            if (c == 1 && inside) continue;
            memmove(a + kept, a + t, 3 * sizeof *a);
            kept += 3;
        }
        kiln_err_bvh tree;
        assert_true(kiln_err_bvh_build(NULL, pos, nv, a, kept / 3, &tree));
        double corner[3][3] = {{0.2, 0.2, 0.03}, {0.62, 0.24, 0.04}, {0.26, 0.6, 0.02}};
        kiln_err_corner s[3];
        for (int i = 0; i < 3; i++) {
            s[i].p = corner[i];
            s[i].d = sqrt(kiln_err_bvh_nearest(&tree, corner[i], UINT32_MAX, &s[i].tri));
        }
        double bound = kiln_err_overlay_bound(&tree, s, INFINITY);
        double dense = 0;
        for (int i = 0; i <= 60; i++)
            for (int j = 0; i + j <= 60; j++) {
                double al = i / 60.0, be = j / 60.0, p[3];
                for (int k = 0; k < 3; k++)
                    p[k] = corner[0][k] + al * (corner[1][k] - corner[0][k]) +
                           be * (corner[2][k] - corner[0][k]);
                double best = INFINITY;
                for (size_t t = 0; t < kept; t += 3) {
                    double d = kiln_err_point_tri_d2(p, pos + a[t] * 3, pos + a[t + 1] * 3,
                                                     pos + a[t + 2] * 3);
                    if (d < best) best = d;
                }
                if (sqrt(best) > dense) dense = sqrt(best);
            }
        print_message("%-6s overlay %.6f, dense %.6f\n",
                      c == 0   ? "whole"
                      : c == 1 ? "hole"
                               : "fold",
                      bound, dense);
        assert_true(bound >= dense);
        if (c == 0) assert_true(bound < 1.3 * dense + 1e-9);
        kiln_err_bvh_free(NULL, &tree);
        free(a), free(pos);
    }
}

/* A displaced sphere (flat_normals: positions only), its lat-long grid welded at the seam and
 * the poles: segs x rings cells. */
static void displaced_sphere(uint32_t segs, uint32_t rings, float **pos_out, uint32_t *nv_out,
                             uint32_t **idx_out, uint32_t *ni_out)
{
    uint32_t nv = segs * (rings - 1) + 2, k = 0;
    float *pos = malloc((size_t)nv * 12);
    uint32_t *idx = malloc((size_t)segs * rings * 6 * sizeof *idx);
    for (uint32_t r = 1; r < rings; r++)
        for (uint32_t s = 0; s < segs; s++) {
            double th = M_PI * r / rings, ph = 2 * M_PI * s / segs;
            double rad = 1 + 0.02 * sin(5 * th) * cos(3 * ph) + 0.01 * sin(17 * th + 11 * ph);
            float *p = pos + (size_t)((r - 1) * segs + s) * 3;
            p[0] = (float)(rad * sin(th) * cos(ph)), p[1] = (float)(rad * cos(th));
            p[2] = (float)(rad * sin(th) * sin(ph));
        }
    uint32_t top = nv - 2, bottom = nv - 1;
    pos[top * 3] = 0, pos[top * 3 + 1] = 1, pos[top * 3 + 2] = 0;
    pos[bottom * 3] = 0, pos[bottom * 3 + 1] = -1, pos[bottom * 3 + 2] = 0;
#define V(r, s) ((r) == 0 ? top : (r) == rings ? bottom : ((r)-1) * segs + (s) % segs)
    for (uint32_t r = 0; r < rings; r++)
        for (uint32_t s = 0; s < segs; s++) {
            uint32_t a0 = V(r, s), a1 = V(r, s + 1), b0 = V(r + 1, s), b1 = V(r + 1, s + 1);
            if (r > 0) idx[k++] = a0, idx[k++] = b0, idx[k++] = a1;
            if (r + 1 < rings) idx[k++] = a1, idx[k++] = b0, idx[k++] = b1;
        }
#undef V
    *pos_out = pos, *nv_out = nv, *idx_out = idx, *ni_out = k;
}

/* lod_error holds with the measured bound: on a displaced sphere meshoptimizer's own estimate
 * runs low (its level at a target error of lod_error deviates by more than lod_error, measured
 * here), while every level the cook keeps stays within lod_error by the same measurement, and
 * the chain still has levels. */
static void cook_keeps_every_level_within_lod_error(void **state)
{
    (void)state;
    float *pos;
    uint32_t nv, *idx, ni;
    displaced_sphere(120, 60, &pos, &nv, &idx, &ni);
    const float lod_error = 0.0015f;
    /* meshoptimizer alone, at 12.5 % of the triangles, limited by lod_error */
    float extent = meshopt_simplifyScale(pos, nv, 12), estimate = 0;
    uint32_t *lod = malloc((size_t)ni * sizeof *lod);
    size_t n = meshopt_simplify(lod, idx, ni, pos, nv, 12, ni / 8 / 3 * 3, lod_error, 0, &estimate);
    double raw = bd_hausdorff(pos, idx, ni, lod, n, samples(), 5u);
    print_message("meshopt_simplify at target error %.4f: %zu triangles, its estimate %.5f, "
                  "measured %.5f of the extent\n",
                  lod_error, n / 3, estimate, raw / extent);
    assert_true(estimate <= lod_error);
    assert_true(raw > lod_error * extent);
    /* the cook */
    kiln_scene_primitive p;
    memset(&p, 0, sizeof p);
    p.vertex_count = nv, p.positions = pos, p.indices = idx, p.index_count = ni, p.material = -1;
    p.mode = KILN_SCENE_MODE_TRIANGLES;
    kiln_mesh_build_opts o;
    kiln_mesh_build_opts_default(&o);
    o.lod_error = lod_error;
    o.flat_normals = true;
    kiln_cooked_mesh c;
    kiln_error err;
    assert_int_equal(kiln_mesh_build(&p, &o, NULL, &c, &err), KILN_OK);
    assert_true(c.level_count >= 2);
    const uint32_t *l0 = c.indices + c.levels[0].index_offset;
    for (uint32_t l = 1; l < c.level_count; l++) {
        const kiln_mesh_lod *lv = &c.levels[l];
        double m = bd_hausdorff(c.positions, l0, c.levels[0].index_count,
                                c.indices + lv->index_offset, lv->index_count, samples(), 9u + l);
        print_message("cooked level %u: %u triangles, stored %.5f, measured %.5f of the extent\n",
                      l, lv->index_count / 3, lv->error, m / c.extent);
        assert_true(lv->error_absolute >= m);
        assert_true(lv->error <= lod_error);
        assert_true(m <= (double)lod_error * c.extent);
    }
    kiln_cooked_mesh_free(&c);
    free(lod), free(pos), free(idx);
}

/* The same group indexed into a large buffer (hashed numbering) and into its own. */
static void small_group_over_large_buffer(void **state)
{
    (void)state;
    uint32_t n = 8, nv = (n + 1) * (n + 1), pad = 100000;
    float *small = malloc((size_t)nv * 12), *big = calloc((size_t)(nv + pad), 12);
    uint32_t seed = 7;
    for (uint32_t i = 0; i < nv; i++) {
        small[i * 3] = (float)(i % (n + 1)), small[i * 3 + 1] = (float)(i / (n + 1));
        small[i * 3 + 2] = (float)frand(&seed);
    }
    memcpy(big + (size_t)pad * 3, small, (size_t)nv * 12);
    size_t na, nb;
    uint32_t *a = grid_tris(n, 1, 0, &na), *b = grid_tris(n, 2, 0, &nb);
    float h_small = deviation(small, nv, a, na, b, nb);
    for (size_t i = 0; i < na; i++) a[i] += pad;
    for (size_t i = 0; i < nb; i++) b[i] += pad;
    float h_big = deviation(big, nv + pad, a, na, b, nb);
    assert_true(h_small > 0 && h_small == h_big);
    free(a), free(b), free(small), free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plane_against_plane_moved_by_d),
        cmocka_unit_test(triangle_against_itself_and_empty_lists),
        cmocka_unit_test(heightfields_spheres_and_soups_against_dense_measurement),
        cmocka_unit_test(small_group_over_large_buffer),
        cmocka_unit_test(overlay_bound_covers_or_gives_up),
        cmocka_unit_test(cook_keeps_every_level_within_lod_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
