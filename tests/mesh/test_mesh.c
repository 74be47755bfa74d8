/* test_mesh.c — the mesh cook on synthetic meshes (src/process/mesh_*.c through the writer, reader
 * and decoder): welding, cleaning, optimisation, levels of detail, meshlets, vertex formats and
 * their error bounds, skin and morph data, compression, determinism, bad input, failing
 * allocations, golden bytes, and kiln_lod_select. */
#include "support.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <meshoptimizer.h>

#include "codec/mesh_codec.h"
#include "core/alloc.h"
#include "counting_alloc.h"
#include "mesh_fixtures.h"
#include "process/mesh_private.h"

/* ---- weld and clean -------------------------------------------------------------------------- */

static void weld_merges_vertices_equal_in_every_stream(void **state)
{
    (void)state;
    mf_mesh cube;
    mf_cube36(&cube);
    kiln_mesh_build_opts o = mf_opts(false, false);
    o.lod_count = 0;
    mf_cooked c;
    mf_cook(&cube.prim, &o, &c);
    assert_int_equal(c.mesh.stats.input_vertices, 36);
    assert_int_equal(c.mesh.stats.welded_vertices, 24); /* 4 per face: normals split corners */
    assert_int_equal(c.view.vertex_count, 24);
    assert_int_equal(c.view.index_count, 36);
    assert_int_equal(c.mesh.stats.degenerate_triangles, 0);
    assert_int_equal(c.mesh.stats.duplicate_triangles, 0);
    mf_cooked_free(&c);
    /* Without normals and UVs the corners weld to 8. */
    float *keep_n = (float *)cube.prim.normals, *keep_uv = (float *)cube.prim.texcoords[0];
    cube.prim.normals = NULL, cube.prim.texcoords[0] = NULL, cube.prim.texcoord_count = 0;
    mf_cook(&cube.prim, &o, &c);
    assert_int_equal(c.view.vertex_count, 8);
    mf_cooked_free(&c);
    cube.prim.normals = keep_n, cube.prim.texcoords[0] = keep_uv, cube.prim.texcoord_count = 1;
    mf_free(&cube);
}

/* A quad as two triangles over six vertices whose shared corners differ only by float noise in
 * the normal: as floats they stay apart, quantized they are the same stored vertex and weld. */
static void weld_merges_vertices_the_stored_format_cannot_tell_apart(void **state)
{
    (void)state;
    float pos[6 * 3] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0};
    float nrm[6 * 3] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 1e-7f, 0, 1, 0, 1e-7f, 1, 0, 0, 1};
    uint32_t idx[6] = {0, 1, 2, 3, 4, 5};
    kiln_scene_primitive p;
    memset(&p, 0, sizeof p);
    p.vertex_count = 6, p.positions = pos, p.normals = nrm, p.indices = idx, p.index_count = 6;
    kiln_mesh_build_opts o = mf_opts(false, false);
    mf_cooked c;
    mf_cook(&p, &o, &c);
    assert_int_equal(c.view.vertex_count, 6);
    mf_cooked_free(&c);
    o = mf_opts(true, false);
    mf_cook(&p, &o, &c);
    assert_int_equal(c.mesh.stats.welded_vertices, 4);
    assert_int_equal(c.view.vertex_count, 4);
    mf_cooked_free(&c);
}

/* Two triangles sharing an edge, given twice over separate vertices; morph deltas differ on
 * one of the shared corners, so that corner must not weld. */
static void weld_keeps_vertices_a_morph_target_moves_apart(void **state)
{
    (void)state;
    float pos[12 * 3] = {0, 0, 0, 1, 0, 0, 1, 1, 0, /* tri 0 */ 0,
                         0, 0, 1, 1, 0, 0, 1, 0, /* tri 1 */
                         0, 0, 0, 1, 0, 0, 1, 1, 0, 0,
                         0, 0, 1, 1, 0, 0, 1, 0};
    float delta[12 * 3] = {0};
    delta[3 * 3 + 2] = 0.5f; /* tri 1's first corner (0,0,0) moves up in the target */
    uint32_t idx[6] = {0, 1, 2, 3, 4, 5};
    kiln_scene_morph_target t = {delta, NULL, NULL};
    kiln_scene_primitive p;
    memset(&p, 0, sizeof p);
    p.vertex_count = 6, p.positions = pos, p.indices = idx, p.index_count = 6;
    p.targets = &t, p.target_count = 1;
    kiln_mesh_build_opts o = mf_opts(false, false);
    o.lod_count = 0;
    mf_cooked c;
    mf_cook(&p, &o, &c);
    /* Without the target: 4 corners. With it: the moving (0,0,0) is a fifth. */
    assert_int_equal(c.view.vertex_count, 5);
    kiln_mesh_decoded d;
    mf_decode(&c, 0, &d);
    int moving = 0;
    for (uint32_t v = 0; v < d.vertex_count; v++)
        if (d.target_positions[v * 3 + 2] == 0.5f) {
            moving++;
            assert_true(d.positions[v * 3] == 0 && d.positions[v * 3 + 1] == 0);
        }
    assert_int_equal(moving, 1);
    kiln_mesh_decoded_free(&d);
    mf_cooked_free(&c);
    p.target_count = 0;
    mf_cook(&p, &o, &c);
    assert_int_equal(c.view.vertex_count, 4);
    mf_cooked_free(&c);
}

static void clean_drops_degenerate_and_duplicate_triangles(void **state)
{
    (void)state;
    /* 0..3 a quad; 4 is vertex 0's position with another UV; 5 is vertex 1 again (welds). */
    float pos[6 * 3] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
    float uv[6 * 2] = {0, 0, 1, 0, 1, 1, 0, 1, 0.5f, 0.5f, 1, 0};
    uint32_t idx[] = {
        0, 1, 2, /* kept */
        0, 2, 3, /* kept */
        1, 2, 0, /* duplicate: a rotation of the first */
        5, 2, 0, /* duplicate: 5 welds into 1 */
        0, 2, 1, /* kept: the back face */
        0, 0, 2, /* degenerate: repeated index */
        0, 4, 2, /* degenerate: 0 and 4 at the same place in every pose */
        0, 1, 1, /* degenerate */
    };
    kiln_scene_primitive p;
    memset(&p, 0, sizeof p);
    p.vertex_count = 6, p.positions = pos, p.texcoords[0] = uv, p.texcoord_count = 1;
    p.indices = idx, p.index_count = sizeof idx / sizeof idx[0];
    kiln_mesh_build_opts o = mf_opts(false, false);
    o.lod_count = 0;
    mf_cooked c;
    mf_cook(&p, &o, &c);
    assert_int_equal(c.mesh.stats.input_triangles, 8);
    assert_int_equal(c.mesh.stats.welded_vertices, 5);
    assert_int_equal(c.mesh.stats.duplicate_triangles, 2);
    assert_int_equal(c.mesh.stats.degenerate_triangles, 3);
    assert_int_equal(c.view.index_count, 9);
    assert_int_equal(c.view.vertex_count, 4); /* vertex 4 is used only by a dropped triangle */
    mf_cooked_free(&c);
}

/* Corners at the same rest position but with different morph deltas are not degenerate:
 * the triangle opens when the target is applied. */
static void clean_keeps_triangles_a_morph_target_opens(void **state)
{
    (void)state;
    float pos[3 * 3] = {0, 0, 0, 1, 0, 0, 0, 0, 0};
    float delta[3 * 3] = {0, 0, 0, 0, 0, 0, 0, 1, 0};
    uint32_t idx[3] = {0, 1, 2};
    kiln_scene_morph_target t = {delta, NULL, NULL};
    kiln_scene_primitive p;
    memset(&p, 0, sizeof p);
    p.vertex_count = 3, p.positions = pos, p.indices = idx, p.index_count = 3;
    p.targets = &t, p.target_count = 1;
    kiln_mesh_build_opts o = mf_opts(true, false);
    mf_cooked c;
    mf_cook(&p, &o, &c);
    assert_int_equal(c.view.index_count, 3);
    assert_int_equal(c.mesh.stats.degenerate_triangles, 0);
    mf_cooked_free(&c);
    p.target_count = 0; /* without the target it never covers a pixel */
    mf_cook(&p, &o, &c);
    assert_int_equal(c.view.index_count, 0);
    assert_int_equal(c.view.vertex_count, 0);
    assert_int_equal(c.mesh.stats.degenerate_triangles, 1);
    kiln_mesh_decoded d;
    mf_decode(&c, 0, &d);
    assert_int_equal(d.index_count, 0);
    kiln_mesh_decoded_free(&d);
    mf_cooked_free(&c);
}

/* ---- optimisation ---------------------------------------------------------------------------- */

static void optimize_brings_shuffled_sphere_acmr_under_0_7(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 64, 33, true);
    kiln_mesh_build_opts o = mf_opts(true, false);
    mf_cooked c;
    mf_cook(&s.prim, &o, &c);
    assert_true(c.mesh.stats.acmr_before > 2.0f);
    assert_true(c.mesh.stats.acmr_after < 0.7f);
    /* Fetch order: level 0 first uses the vertices in ascending order. */
    uint32_t next = 0;
    for (uint32_t i = 0; i < c.view.levels[0].index_count; i++) {
        uint32_t v = c.mesh.indices[i];
        assert_true(v <= next);
        if (v == next) next++;
    }
    assert_int_equal(next, c.view.vertex_count);
    mf_cooked_free(&c);
    /* optimize off: the input order stays (ACMR unchanged). */
    o.optimize = false;
    mf_cook(&s.prim, &o, &c);
    assert_true(fabsf(c.mesh.stats.acmr_after - c.mesh.stats.acmr_before) < 1e-6f);
    mf_cooked_free(&c);
    mf_free(&s);
}

/* Every triangle of a level: a sorted list of canonical rotations. */
static int tri_cmp(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

static uint32_t *sorted_triangles(const uint32_t *idx, size_t count)
{
    uint32_t *t = malloc(count * 4 + 4);
    for (size_t i = 0; i < count; i += 3) {
        uint32_t a = idx[i], b = idx[i + 1], c = idx[i + 2];
        uint32_t *d = t + i;
        if (b < a && b < c) d[0] = b, d[1] = c, d[2] = a;
        else if (c < a && c < b) d[0] = c, d[1] = a, d[2] = b;
        else d[0] = a, d[1] = b, d[2] = c;
    }
    qsort(t, count / 3, 12, tri_cmp);
    return t;
}

static void optimize_keeps_every_triangle_and_its_winding(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 32, 17, true);
    kiln_mesh_build_opts o = mf_opts(false, false);
    o.lod_count = 0;
    mf_cooked c;
    mf_cook(&s.prim, &o, &c);
    kiln_mesh_decoded d;
    mf_decode(&c, 0, &d);
    /* Compare triangles by their corners' (position, uv): ids differ after reordering. */
    size_t n = s.prim.index_count;
    assert_int_equal(d.index_count, n);
    double sum_in = 0, sum_out = 0;
    for (size_t i = 0; i < n; i += 3) {
        /* signed volume contribution: invariant under reordering, flips with winding */
        const float *a = s.prim.positions + s.prim.indices[i] * 3,
                    *b = s.prim.positions + s.prim.indices[i + 1] * 3,
                    *e = s.prim.positions + s.prim.indices[i + 2] * 3;
        sum_in += a[0] * (b[1] * e[2] - b[2] * e[1]) - a[1] * (b[0] * e[2] - b[2] * e[0]) +
                  a[2] * (b[0] * e[1] - b[1] * e[0]);
        a = d.positions + d.indices[i] * 3, b = d.positions + d.indices[i + 1] * 3,
        e = d.positions + d.indices[i + 2] * 3;
        sum_out += a[0] * (b[1] * e[2] - b[2] * e[1]) - a[1] * (b[0] * e[2] - b[2] * e[0]) +
                   a[2] * (b[0] * e[1] - b[1] * e[0]);
    }
    assert_true(sum_in > 0);
    assert_true(fabs(sum_in - sum_out) < 1e-6 * fabs(sum_in));
    kiln_mesh_decoded_free(&d);
    mf_cooked_free(&c);
    mf_free(&s);
}

/* ---- levels of detail ------------------------------------------------------------------------ */

static void lods_follow_fractions_errors_and_share_vertices(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 128, 65, false); /* 16384 triangles */
    kiln_mesh_build_opts o = mf_opts(true, false);
    mf_cooked c;
    mf_cook(&s.prim, &o, &c);
    const kiln_mesh_view *v = &c.view;
    assert_int_equal(v->level_count, 4);
    uint32_t tris0 = v->levels[0].index_count / 3;
    assert_int_equal(tris0, 16384);
    assert_int_equal(v->levels[0].index_offset, 0);
    assert_true(v->levels[0].error == 0.0f);
    uint32_t end = v->levels[0].index_count;
    for (uint32_t l = 1; l < v->level_count; l++) {
        const kiln_mesh_lod *lvl = &v->levels[l];
        double ratio = (double)lvl->index_count / 3 / tris0;
        /* meshopt reaches the target or stops a little above it on a sphere */
        assert_true(ratio <= o.lods[l - 1] * 1.02 + 1e-9);
        assert_true(ratio >= o.lods[l - 1] * 0.9);
        assert_int_equal(lvl->index_offset, end); /* ranges follow each other */
        end += lvl->index_count;
        assert_true(lvl->error >= v->levels[l - 1].error);
        assert_true(lvl->error <= o.lod_error);
        assert_true(fabsf(lvl->error_absolute - lvl->error * v->extent) <= 1e-6f * v->extent);
    }
    assert_int_equal(end, v->index_count);
    assert_true(fabsf(v->extent - 2.0f) < 1e-5f);
    /* Every index of every level points into the one vertex buffer. */
    for (uint32_t i = 0; i < v->index_count; i++) assert_true(c.mesh.indices[i] < v->vertex_count);
    mf_cooked_free(&c);
    mf_free(&s);
}

static void lods_stop_at_the_95_percent_rule_and_min_triangles(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 64, 33, false); /* 4096 triangles */
    kiln_mesh_build_opts o = mf_opts(false, false);
    /* 0.5 then 0.49: the second would keep 98 % of the first. */
    o.lods[0] = 0.5f, o.lods[1] = 0.49f, o.lods[2] = 0.1f, o.lod_count = 3;
    mf_cooked c;
    mf_cook(&s.prim, &o, &c);
    assert_int_equal(c.view.level_count, 2);
    mf_cooked_free(&c);
    /* lod_min_triangles 1500: 0.25 (1024) is raised to 1500; 0.125 cannot go below it. */
    o.lods[0] = 0.5f, o.lods[1] = 0.25f, o.lods[2] = 0.125f, o.lod_min_triangles = 1500;
    mf_cook(&s.prim, &o, &c);
    assert_int_equal(c.view.level_count, 3);
    assert_true(c.view.levels[2].index_count / 3 >= 1400);
    assert_true(c.view.levels[2].index_count / 3 <= 1500);
    mf_cooked_free(&c);
    /* Fewer triangles than the minimum: no levels at all. */
    o.lod_min_triangles = 5000;
    mf_cook(&s.prim, &o, &c);
    assert_int_equal(c.view.level_count, 1);
    mf_cooked_free(&c);
    /* lod_error 0: nothing can be removed without error. */
    o.lod_min_triangles = 64, o.lod_error = 0.0f;
    mf_cook(&s.prim, &o, &c);
    assert_int_equal(c.view.level_count, 1);
    mf_cooked_free(&c);
    /* a tight lod_error stops levels early: the error bound wins over the fraction */
    o.lod_error = 0.002f;
    mf_cook(&s.prim, &o, &c);
    for (uint32_t l = 1; l < c.view.level_count; l++) assert_true(c.view.levels[l].error <= 0.002f);
    mf_cooked_free(&c);
    mf_free(&s);
}

/* The boundary edges of a mesh welded by position: edges used by exactly one triangle. Returns
 * how many edges of (idx, n) are open and not open in the reference set (a tear). */
typedef struct edge_set {
    uint64_t *keys;
    size_t count;
} edge_set;

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Position ids: equal positions give equal ids. */
static uint32_t *position_ids(const float *pos, uint32_t nv)
{
    uint32_t *id = malloc((size_t)nv * 4 + 4);
    for (uint32_t v = 0; v < nv; v++) {
        id[v] = v;
        for (uint32_t u = 0; u < v; u++)
            if (memcmp(pos + u * 3, pos + v * 3, 12) == 0) {
                id[v] = id[u];
                break;
            }
    }
    return id;
}

static edge_set open_edges(const uint32_t *idx, size_t n, const uint32_t *pid)
{
    uint64_t *e = malloc(n * 8 + 8);
    size_t k = 0;
    for (size_t i = 0; i < n; i += 3)
        for (int j = 0; j < 3; j++) {
            uint32_t a = pid[idx[i + j]], b = pid[idx[i + (j + 1) % 3]];
            e[k++] = a < b ? ((uint64_t)a << 32 | b) : ((uint64_t)b << 32 | a);
        }
    qsort(e, k, 8, u64_cmp);
    edge_set s = {malloc(k * 8 + 8), 0};
    for (size_t i = 0; i < k;) {
        size_t j = i;
        while (j < k && e[j] == e[i]) j++;
        if (j - i == 1) s.keys[s.count++] = e[i];
        i = j;
    }
    free(e);
    return s;
}

static void lods_do_not_tear_the_uv_seam_of_a_sphere(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 48, 25, false);
    kiln_mesh_build_opts o = mf_opts(false, false);
    o.lod_error = 0.2f;
    mf_cooked c;
    mf_cook(&s.prim, &o, &c);
    assert_true(c.view.level_count >= 3);
    kiln_mesh_decoded d;
    mf_decode(&c, 0, &d);
    uint32_t *pid = position_ids(d.positions, d.vertex_count);
    uint32_t seam = 0;
    for (uint32_t v = 0; v < d.vertex_count; v++) seam += pid[v] != v;
    assert_true(seam > 40); /* the seam and the poles split by UV */
    for (uint32_t l = 0; l < c.view.level_count; l++) {
        const kiln_mesh_lod *lvl = &c.view.levels[l];
        edge_set open = open_edges(c.mesh.indices + lvl->index_offset, lvl->index_count, pid);
        assert_int_equal(open.count, 0); /* a closed sphere stays closed: no crack */
        free(open.keys);
    }
    free(pid);
    kiln_mesh_decoded_free(&d);
    mf_cooked_free(&c);
    mf_free(&s);
}

/* ---- meshlets -------------------------------------------------------------------------------- */

static void check_meshlets(const mf_cooked *c, uint32_t max_v, uint32_t max_t)
{
    const kiln_mesh_view *v = &c->view;
    assert_int_equal(v->meshlet_max_vertices, max_v);
    assert_int_equal(v->meshlet_max_triangles, max_t);
    for (uint32_t l = 0; l < v->level_count; l++) {
        const kiln_mesh_lod *lvl = &v->levels[l];
        assert_true(lvl->meshlet_count > 0);
        /* The meshlets' triangles are exactly the level's. */
        uint32_t *mine = malloc((size_t)lvl->index_count * 4 + 4);
        size_t n = 0;
        for (uint32_t m = lvl->meshlet_offset; m < lvl->meshlet_offset + lvl->meshlet_count; m++) {
            kiln_meshlet ml = kiln_mesh_meshlet(v, m);
            assert_true(ml.vertex_count >= 1 && ml.vertex_count <= max_v);
            assert_true(ml.triangle_count >= 1 && ml.triangle_count <= max_t);
            assert_int_equal(ml.triangle_offset % 4, 0);
            const uint32_t *mv = c->mesh.meshlet_vertices + ml.vertex_offset;
            const uint8_t *mt = c->mesh.meshlet_triangles + ml.triangle_offset;
            /* padding bytes are zero */
            for (uint32_t k = ml.triangle_count * 3; k % 4; k++) assert_int_equal(mt[k], 0);
            /* vertices in first-use order: the per-meshlet cache pass ran */
            uint32_t next = 0;
            for (uint32_t k = 0; k < ml.triangle_count * 3; k++) {
                assert_true(mt[k] <= next);
                if (mt[k] == next) next++;
                mine[n++] = mv[mt[k]];
            }
            assert_int_equal(next, ml.vertex_count);
            /* the bounding sphere holds every vertex */
            kiln_meshlet_bounds b = kiln_mesh_meshlet_bounds(v, m);
            for (uint32_t k = 0; k < ml.vertex_count; k++) {
                const float *p = c->mesh.positions + (size_t)mv[k] * 3;
                double dx = p[0] - b.center[0], dy = p[1] - b.center[1], dz = p[2] - b.center[2];
                assert_true(sqrt(dx * dx + dy * dy + dz * dz) <= b.radius * 1.0001 + 1e-6);
            }
            assert_true(b.cone_cutoff <= 1.0f);
        }
        assert_int_equal(n, lvl->index_count);
        uint32_t *a = sorted_triangles(mine, n),
                 *e = sorted_triangles(c->mesh.indices + lvl->index_offset, n);
        assert_memory_equal(a, e, n * 4);
        free(a), free(e), free(mine);
    }
}

static void meshlets_cover_every_level_within_limits(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 64, 33, true);
    kiln_mesh_build_opts o = mf_opts(true, false);
    mf_cooked c;
    mf_cook(&s.prim, &o, &c);
    check_meshlets(&c, 64, 124);
    mf_cooked_free(&c);
    o.meshlet_max_vertices = 32, o.meshlet_max_triangles = 40;
    mf_cook(&s.prim, &o, &c);
    check_meshlets(&c, 32, 40);
    mf_cooked_free(&c);
    o.meshlet_max_vertices = 255, o.meshlet_max_triangles = 512;
    mf_cook(&s.prim, &o, &c);
    check_meshlets(&c, 255, 512);
    mf_cooked_free(&c);
    mf_free(&s);
}

/* ---- vertex formats -------------------------------------------------------------------------- */

/* The angle between two 3-vectors, from atan2 of |a x b| and a . b: exact for tiny angles,
 * where acos of a rounded cosine is not. */
static double angle(const float *a, const float *b, int n)
{
    (void)n;
    double c[3] = {(double)a[1] * b[2] - (double)a[2] * b[1],
                   (double)a[2] * b[0] - (double)a[0] * b[2],
                   (double)a[0] * b[1] - (double)a[1] * b[0]};
    double d = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
    return atan2(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), d);
}

/* Decoded quantized vertices match the source within the documented bounds (docs/meshes.md):
 * position and UV within half a step of their range (+ float rounding), normal within 6e-5
 * rad, tangent within 0.014 rad and the same handedness, colour within 1/510. */
static void quantized_vertices_decode_within_documented_bounds(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 96, 49, true);
    mf_add_colors(&s);
    for (int pass = 0; pass < 2; pass++) {
        kiln_mesh_build_opts o = mf_opts(true, pass == 1);
        o.lod_count = 0,
        o.optimize = false; /* keep the weld order: vertex i is the source's first use */
        mf_cooked c;
        mf_cook(&s.prim, &o, &c);
        kiln_mesh_decoded d;
        mf_decode(&c, 0, &d);
        /* Map each output vertex to a source vertex through the first triangles' corners. */
        double worst[5] = {0, 0, 0, 0, 0};
        for (size_t i = 0; i < s.prim.index_count; i++) {
            /* The index codec may rotate a triangle: match the corners by position. */
            size_t t = i - i % 3, rot = 0;
            double best = 1e30;
            for (size_t r = 0; r < 3; r++) {
                double e = 0;
                for (size_t k = 0; k < 3; k++)
                    for (int a = 0; a < 3; a++) {
                        double x = d.positions[d.indices[t + (k + r) % 3] * 3 + a] -
                                   s.prim.positions[s.prim.indices[t + k] * 3 + a];
                        e += x * x;
                    }
                if (e < best) best = e, rot = r;
            }
            uint32_t sv = s.prim.indices[i], dv = d.indices[t + (i - t + rot) % 3];
            for (int k = 0; k < 3; k++) {
                double e = fabs(d.positions[dv * 3 + k] - s.prim.positions[sv * 3 + k]);
                double bound = c.view.position_scale[k] / 131070.0 + 4e-7;
                if (e / bound > worst[0]) worst[0] = e / bound;
            }
            double an = angle(d.normals + dv * 3, s.prim.normals + sv * 3, 3);
            if (an > worst[1]) worst[1] = an;
            double at = angle(d.tangents + dv * 4, s.prim.tangents + sv * 4, 3);
            if (at > worst[2]) worst[2] = at;
            assert_true(d.tangents[dv * 4 + 3] == s.prim.tangents[sv * 4 + 3]);
            for (int k = 0; k < 2; k++) {
                double e = fabs(d.uvs[0][dv * 2 + k] - s.prim.texcoords[0][sv * 2 + k]);
                double bound = c.view.uv_scale[0][k] / 131070.0 + 2e-7;
                if (e / bound > worst[3]) worst[3] = e / bound;
            }
            for (int k = 0; k < 4; k++) {
                double e = fabs(d.colors[0][dv * 4 + k] - s.prim.colors[0][sv * 4 + k]);
                if (e * 510.0 > worst[4]) worst[4] = e * 510.0;
            }
            double len = sqrt(d.normals[dv * 3] * d.normals[dv * 3] +
                              d.normals[dv * 3 + 1] * d.normals[dv * 3 + 1] +
                              d.normals[dv * 3 + 2] * d.normals[dv * 3 + 2]);
            assert_true(fabs(len - 1.0) < 1e-6);
        }
        print_message(
            "worst: position %.3f of bound, normal %.2e rad, tangent %.2e rad, uv %.3f of bound, "
            "colour %.3f of bound\n",
            worst[0], worst[1], worst[2], worst[3], worst[4]);
        assert_true(worst[0] <= 1.0);
        assert_true(worst[1] <= 6e-5);
        assert_true(worst[2] <= 0.014);
        assert_true(worst[3] <= 1.0);
        assert_true(worst[4] <= 1.0 + 1e-4); /* + float rounding of x / 255 */
        assert_int_equal(c.view.streams[KILN_MESH_POSITION].stride, 8);
        assert_int_equal(c.view.streams[KILN_MESH_NORMAL].stride, 4);
        assert_int_equal(c.view.streams[KILN_MESH_TANGENT].stride, 4);
        assert_int_equal(c.view.streams[KILN_MESH_UV0].stride, 4);
        assert_int_equal(c.view.streams[KILN_MESH_COLOR0].stride, 4);
        kiln_mesh_decoded_free(&d);
        mf_cooked_free(&c);
    }
    mf_free(&s);
}

/* The octahedral codecs over many directions: the bounds docs/meshes.md states. */
static void octahedral_error_bounds_hold_over_the_sphere(void **state)
{
    (void)state;
    uint32_t st = 99;
    double worst16 = 0, worst8 = 0;
    for (int i = 0; i < 200000; i++) {
        float n[3];
        double len;
        do {
            for (int c = 0; c < 3; c++) n[c] = (float)((mf_rand(&st) / 4294967296.0) * 2 - 1);
            len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        } while (len < 0.1 || len > 1);
        for (int c = 0; c < 3; c++) n[c] = (float)(n[c] / len);
        int32_t q[2];
        float d[3];
        kiln_oct_encode(n, 32767, q);
        kiln_oct_decode(kiln_snorm_decode(q[0], 32767), kiln_snorm_decode(q[1], 32767), d);
        double a = angle(n, d, 3);
        if (a > worst16) worst16 = a;
        kiln_oct_encode(n, 127, q);
        kiln_oct_decode(kiln_snorm_decode(q[0], 127), kiln_snorm_decode(q[1], 127), d);
        a = angle(n, d, 3);
        if (a > worst8) worst8 = a;
    }
    print_message("octahedral worst angle: 16-bit %.3e rad, 8-bit %.3e rad\n", worst16, worst8);
    assert_true(worst16 <= 6e-5);
    assert_true(worst8 <= 0.014);
}

static void float_vertices_round_trip_exactly(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 24, 13, true);
    mf_add_colors(&s);
    kiln_mesh_build_opts o = mf_opts(false, false);
    mf_cooked c;
    mf_cook(&s.prim, &o, &c);
    assert_int_equal(c.view.streams[KILN_MESH_POSITION].format, KILN_MESH_FORMAT_F32X3);
    assert_int_equal(c.view.streams[KILN_MESH_TANGENT].format, KILN_MESH_FORMAT_F32X4);
    kiln_mesh_decoded d;
    mf_decode(&c, 0, &d);
    /* every decoded vertex equals some source vertex in every stream */
    for (uint32_t v = 0; v < d.vertex_count; v++) {
        bool found = false;
        for (uint32_t u = 0; u < s.prim.vertex_count && !found; u++)
            found = !memcmp(d.positions + v * 3, s.prim.positions + u * 3, 12) &&
                    !memcmp(d.normals + v * 3, s.prim.normals + u * 3, 12) &&
                    !memcmp(d.tangents + v * 4, s.prim.tangents + u * 4, 16) &&
                    !memcmp(d.uvs[0] + v * 2, s.prim.texcoords[0] + u * 2, 8) &&
                    !memcmp(d.colors[0] + v * 4, s.prim.colors[0] + u * 4, 16);
        assert_true(found);
    }
    kiln_mesh_decoded_free(&d);
    mf_cooked_free(&c);
    mf_free(&s);
}

static void indices_are_16_bit_when_they_fit(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 255, 257, false); /* 256 * 258 = 66048 vertices */
    kiln_mesh_build_opts o = mf_opts(true, false);
    o.lod_count = 0;
    mf_cooked c;
    mf_cook(&s.prim, &o, &c);
    assert_true(c.view.vertex_count > 65536);
    assert_int_equal(c.view.streams[KILN_MESH_INDICES].format, KILN_MESH_FORMAT_U32);
    mf_cooked_free(&c);
    mf_free(&s);
    mf_sphere(&s, 254, 256, false); /* 255 * 257 = 65535 vertices */
    mf_cook(&s.prim, &o, &c);
    assert_int_equal(c.view.streams[KILN_MESH_INDICES].format, KILN_MESH_FORMAT_U16);
    assert_int_equal(c.view.streams[KILN_MESH_INDICES].stride, 2);
    mf_cooked_free(&c);
    mf_free(&s);
}

/* ---- skin and morph ------------------------------------------------------------------------ */

static void skin_keeps_four_strongest_weights_summing_to_255(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 16, 9, false);
    mf_add_skin(&s, 0);
    kiln_mesh_build_opts o = mf_opts(true, false);
    o.lod_count = 0, o.optimize = false;
    o.skin_joint_count = 8;
    mf_cooked c;
    mf_cook(&s.prim, &o, &c);
    assert_true(c.mesh.warnings & KILN_MESH_WARN_JOINT_SET_MERGED);
    assert_true(c.mesh.warnings & KILN_MESH_WARN_INFLUENCES_DROPPED);
    assert_int_equal(c.view.joint_count, 8);
    assert_int_equal(c.view.streams[KILN_MESH_JOINTS].format, KILN_MESH_FORMAT_U8X4);
    const uint8_t *w = c.view.streams[KILN_MESH_WEIGHTS].data,
                  *j = c.view.streams[KILN_MESH_JOINTS].data;
    kiln_mesh_decoded d;
    mf_decode(&c, 0, &d);
    for (size_t i = 0; i < s.prim.index_count; i++) {
        uint32_t sv = s.prim.indices[i], dv = d.indices[i];
        assert_int_equal(w[dv * 4] + w[dv * 4 + 1] + w[dv * 4 + 2] + w[dv * 4 + 3], 255);
        /* strongest first: source slot weights (slot + v) % 8 + 1; top four are 8, 7, 6, 5 */
        for (int k = 0; k < 4; k++) {
            uint32_t slot = (uint32_t)((7 - k) + 8 - sv % 8) % 8;
            assert_int_equal(j[dv * 4 + k], slot);
            double expect = (8.0 - k) / 26.0;
            assert_true(fabs(d.weights[dv * 4 + k] - expect) <= 1.0 / 255.0);
        }
    }
    kiln_mesh_decoded_free(&d);
    mf_cooked_free(&c);
    /* Float weights sum to 1; 300 joints need 16-bit joints. */
    mf_free(&s);
    mf_sphere(&s, 16, 9, false);
    mf_add_skin(&s, 290);
    o = mf_opts(false, false);
    o.skin_joint_count = 300;
    mf_cook(&s.prim, &o, &c);
    assert_int_equal(c.view.streams[KILN_MESH_JOINTS].format, KILN_MESH_FORMAT_U16X4);
    assert_int_equal(c.view.joint_count, 300);
    mf_decode(&c, 0, &d);
    for (uint32_t v = 0; v < d.vertex_count; v++) {
        double sum = 0;
        for (int k = 0; k < 4; k++) {
            sum += d.weights[v * 4 + k];
            assert_true(d.joints[v * 4 + k] >= 290 && d.joints[v * 4 + k] < 298);
        }
        assert_true(fabs(sum - 1.0) < 1e-6);
    }
    kiln_mesh_decoded_free(&d);
    mf_cooked_free(&c);
    mf_free(&s);
}

static void morph_deltas_follow_every_reordering(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 40, 21, true);
    mf_add_targets(&s, 3);
    static const float weights[3] = {0.25f, 0.0f, 1.0f};
    for (int pass = 0; pass < 4; pass++) {
        kiln_mesh_build_opts o = mf_opts(pass & 1, pass & 2);
        o.morph_weights = weights, o.morph_weight_count = 3;
        mf_cooked c;
        mf_cook(&s.prim, &o, &c);
        assert_int_equal(c.view.target_count, 3);
        assert_int_equal(kiln_mesh_target_flags(&c.view, 0), KILN_MESH_TARGET_HAS_POSITIONS);
        assert_int_equal(kiln_mesh_target_flags(&c.view, 1),
                         KILN_MESH_TARGET_HAS_POSITIONS | KILN_MESH_TARGET_HAS_NORMALS);
        assert_true(kiln_mesh_target_weight(&c.view, 2) == 1.0f);
        assert_true(kiln_mesh_target_weight(&c.view, 0) == 0.25f);
        kiln_mesh_decoded d;
        mf_decode(&c, 0, &d);
        assert_non_null(d.target_normals);
        assert_null(d.target_tangents);
        double tol = 0.06 * (2.0 / 131070.0) + 1e-6; /* delta slope times the position bound */
        for (uint32_t v = 0; v < d.vertex_count; v++)
            for (uint32_t t = 0; t < 3; t++) {
                float expect[3];
                mf_delta(t, d.positions + v * 3, expect);
                const float *got = d.target_positions + ((size_t)t * d.vertex_count + v) * 3;
                for (int k = 0; k < 3; k++) assert_true(fabs(got[k] - expect[k]) <= tol);
                const float *gn = d.target_normals + ((size_t)t * d.vertex_count + v) * 3;
                assert_true(gn[0] == (t % 2 ? 0.1f : 0.0f));
            }
        kiln_mesh_decoded_free(&d);
        mf_cooked_free(&c);
    }
    mf_free(&s);
}

/* ---- compression, determinism --------------------------------------------------------------- */

/* The same triangles in the same order and winding, each possibly rotated. */
static bool same_triangles(const uint8_t *a, const uint8_t *b, size_t count, uint32_t size)
{
    for (size_t t = 0; t < count; t += 3) {
        uint32_t x[3], y[3];
        for (int k = 0; k < 3; k++) {
            x[k] = size == 2 ? (uint32_t)(a[(t + k) * 2] | a[(t + k) * 2 + 1] << 8)
                             : ((const uint32_t *)a)[t + k];
            y[k] = size == 2 ? (uint32_t)(b[(t + k) * 2] | b[(t + k) * 2 + 1] << 8)
                             : ((const uint32_t *)b)[t + k];
        }
        bool ok = false;
        for (int r = 0; r < 3 && !ok; r++)
            ok = x[0] == y[r] && x[1] == y[(r + 1) % 3] && x[2] == y[(r + 2) % 3];
        if (!ok) return false;
    }
    return true;
}

static void compressed_streams_decode_to_the_same_mesh(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 64, 33, true);
    mf_add_colors(&s);
    mf_add_skin(&s, 0);
    mf_add_targets(&s, 2);
    for (int q = 0; q < 2; q++) {
        mf_cooked a, b;
        kiln_mesh_build_opts oa = mf_opts(q, false), ob = mf_opts(q, true);
        mf_cook(&s.prim, &oa, &a);
        mf_cook(&s.prim, &ob, &b);
        assert_true(b.view.flags & KILN_MESH_COMPRESSED);
        assert_true(b.size < a.size);
        print_message("quantize %d: %zu bytes raw, %zu compressed\n", q, a.size, b.size);
        for (int id = 0; id < KILN_MESH_STREAM_COUNT; id++) {
            const kiln_mesh_stream *sa = &a.view.streams[id], *sb = &b.view.streams[id];
            assert_int_equal(sa->format, sb->format);
            if (!sa->data) continue;
            size_t n = (size_t)(sb->count * sb->stride);
            uint8_t *buf = malloc(n);
            kiln_error err;
            assert_int_equal(kiln_mesh_unpack(&b.view, (kiln_mesh_stream_id)id, buf, n, &err),
                             KILN_OK);
            if (id == KILN_MESH_INDICES) /* the index codec may rotate a triangle (same winding) */
                assert_true(same_triangles(buf, sa->data, (size_t)sa->count, sa->stride));
            else assert_memory_equal(buf, sa->data, n);
            free(buf);
        }
        for (uint32_t l = 0; l < a.view.level_count; l++) {
            kiln_mesh_decoded da, db;
            mf_decode(&a, l, &da);
            mf_decode(&b, l, &db);
            assert_int_equal(da.index_count, db.index_count);
            assert_true(same_triangles((const uint8_t *)da.indices, (const uint8_t *)db.indices,
                                       da.index_count, 4));
            assert_memory_equal(da.positions, db.positions, (size_t)da.vertex_count * 12);
            assert_memory_equal(da.target_positions, db.target_positions,
                                (size_t)da.vertex_count * 24);
            kiln_mesh_decoded_free(&da);
            kiln_mesh_decoded_free(&db);
        }
        mf_cooked_free(&a);
        mf_cooked_free(&b);
    }
    mf_free(&s);
}

typedef struct cook_job {
    const kiln_scene_primitive *prim;
    kiln_mesh_build_opts opts;
    uint8_t *bytes;
    size_t size;
} cook_job;

static void *cook_thread(void *arg)
{
    cook_job *j = arg;
    kiln_cooked_mesh m;
    kiln_error err;
    if (kiln_mesh_build(j->prim, &j->opts, NULL, &m, &err) == KILN_OK)
        kiln_mesh_write(&m, NULL, &j->bytes, &j->size, &err);
    kiln_cooked_mesh_free(&m);
    return NULL;
}

static void same_input_same_bytes_on_any_thread(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 80, 41, true);
    mf_add_skin(&s, 0);
    mf_add_targets(&s, 2);
    for (int compress = 0; compress < 2; compress++) {
        cook_job jobs[4];
        for (int i = 0; i < 4; i++) {
            memset(&jobs[i], 0, sizeof jobs[i]);
            jobs[i].prim = &s.prim;
            jobs[i].opts = mf_opts(true, compress);
        }
        cook_thread(&jobs[0]); /* on this thread */
        pthread_t t[3];
        for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, cook_thread, &jobs[i + 1]);
        for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
        for (int i = 0; i < 4; i++) {
            assert_non_null(jobs[i].bytes);
            assert_int_equal(jobs[i].size, jobs[0].size);
            assert_memory_equal(jobs[i].bytes, jobs[0].bytes, jobs[0].size);
        }
        for (int i = 0; i < 4; i++) free(jobs[i].bytes);
    }
    mf_free(&s);
}

/* A quad (two triangles, UVs, normals), quantized and not: pinned bytes. */
static void golden_bytes_of_a_quad(void **state)
{
    (void)state;
    static const float pos[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    static const float nrm[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    static const float uv[8] = {0, 1, 1, 1, 1, 0, 0, 0};
    static const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    kiln_scene_primitive p;
    memset(&p, 0, sizeof p);
    p.vertex_count = 4, p.positions = pos, p.normals = nrm, p.texcoords[0] = uv,
    p.texcoord_count = 1;
    p.indices = idx, p.index_count = 6;
    for (int q = 0; q < 2; q++) {
        kiln_mesh_build_opts o = mf_opts(q, false);
        o.material = 0x0123456789ABCDEFull;
        mf_cooked c;
        mf_cook(&p, &o, &c);
        kt_check_golden(q ? "mesh_quad_quantized.bin" : "mesh_quad_float.bin", c.bytes, c.size);
        mf_cooked_free(&c);
    }
}

/* ---- bad input, failing allocations ---------------------------------------------------------- */

static void bad_options_and_indices_are_errors_not_aborts(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 8, 5, false);
    kiln_cooked_mesh m;
    kiln_error err;
    kiln_mesh_build_opts o = mf_opts(true, false);
    kiln_mesh_build_opts bad[9];
    for (int i = 0; i < 9; i++) bad[i] = o;
    bad[0].lod_count = 9;
    bad[1].lods[1] = 0.6f; /* not decreasing */
    bad[2].lods[0] = 1.0f;
    bad[3].lod_error = -0.1f;
    bad[4].overdraw_threshold = 0.5f;
    bad[5].meshlet_max_vertices = 256;
    bad[6].meshlet_max_triangles = 126; /* not a multiple of 4 */
    bad[7].compress = (kiln_mesh_compress)7;
    bad[8].lod_error = NAN;
    for (int i = 0; i < 9; i++) {
        assert_int_equal(kiln_mesh_build(&s.prim, &bad[i], NULL, &m, &err), KILN_E_USAGE);
        kiln_cooked_mesh_free(&m);
    }
    uint32_t *idx = (uint32_t *)s.prim.indices;
    uint32_t keep = idx[7];
    idx[7] = s.prim.vertex_count;
    assert_int_equal(kiln_mesh_build(&s.prim, &o, NULL, &m, &err), KILN_E_IMPORT_FAILED);
    assert_non_null(strstr(err.message, "index 7"));
    kiln_cooked_mesh_free(&m);
    idx[7] = keep;
    s.prim.index_count -= 1;
    assert_int_equal(kiln_mesh_build(&s.prim, &o, NULL, &m, &err), KILN_E_IMPORT_FAILED);
    kiln_cooked_mesh_free(&m);
    s.prim.index_count += 1;
    assert_int_equal(kiln_mesh_build(NULL, &o, NULL, &m, &err), KILN_E_USAGE);
    mf_free(&s);
}

typedef struct counting {
    long left; /* allocations that succeed before failures start; < 0: never fail */
    long live; /* outstanding allocations */
} counting;

static void *c_alloc(void *user, size_t size, size_t align)
{
    counting *c = user;
    (void)align;
    if (c->left == 0) return NULL;
    if (c->left > 0) c->left--;
    c->live++;
    return malloc(size);
}
static void *c_realloc(void *user, void *p, size_t old, size_t size)
{
    counting *c = user;
    (void)old;
    if (c->left == 0) return NULL;
    if (c->left > 0) c->left--;
    return realloc(p, size);
}
static void c_free(void *user, void *p, size_t size)
{
    counting *c = user;
    (void)size;
    c->live--;
    free(p);
}

static void every_failing_allocation_is_an_error_without_leaks(void **state)
{
    (void)state;
    mf_mesh s;
    mf_sphere(&s, 12, 7, true);
    mf_add_skin(&s, 0);
    mf_add_targets(&s, 2);
    kiln_mesh_build_opts o = mf_opts(true, true);
    o.lod_min_triangles = 16;
    int failures = 0;
    for (long n = 0;; n++) {
        counting cnt = {n, 0};
        kiln_allocator a = {c_alloc, c_realloc, c_free, &cnt};
        kiln_cooked_mesh m;
        kiln_error err;
        kiln_result rc = kiln_mesh_build(&s.prim, &o, &a, &m, &err);
        uint8_t *bytes = NULL;
        size_t size = 0;
        if (rc == KILN_OK) rc = kiln_mesh_write(&m, &a, &bytes, &size, &err);
        kiln_free(&a, bytes, size);
        kiln_cooked_mesh_free(&m);
        assert_int_equal(cnt.live, 0);
        if (rc == KILN_OK) break;
        assert_int_equal(rc, KILN_E_OUT_OF_MEMORY);
        failures++;
        assert_true(n < 100000);
    }
    print_message("%d failing allocation points\n", failures);
    assert_true(failures > 20);
    mf_free(&s);
}

/* ---- kiln_lod_select ----------------------------------------------------------------------- */

static void lod_select_worked_example_and_hysteresis(void **state)
{
    (void)state;
    /* docs/meshes.md: a 2 m statue, errors 0, 0.2, 0.8, 3 mm; 1080 px, 60 degrees, 1 px. */
    const float errors[4] = {0.0f, 0.0002f, 0.0008f, 0.003f};
    float fov = (float)(M_PI / 3.0);
    float px = kiln_lod_pixels(0.0008f, 10.0f, 1080.0f, fov);
    assert_true(fabsf(px - 0.0748f) < 0.001f); /* 0.0008 * 1080 / (2 * 10 * tan 30°) */
    assert_int_equal(kiln_lod_select(errors, 4, 0, 10.0f, 1080.0f, fov, 1.0f, 0.0f), 3);
    assert_int_equal(kiln_lod_select(errors, 4, 0, 1.0f, 1080.0f, fov, 1.0f, 0.0f), 2);
    assert_int_equal(kiln_lod_select(errors, 4, 0, 0.3f, 1080.0f, fov, 1.0f, 0.0f), 1);
    assert_int_equal(kiln_lod_select(errors, 4, 0, 0.1f, 1080.0f, fov, 1.0f, 0.0f), 0);
    assert_int_equal(kiln_lod_select(errors, 4, 3, 0.01f, 1080.0f, fov, 1.0f, 0.2f), 0);
    /* level 2 covers exactly 1 px at d = 0.0008 * 1080 / (2 tan 30°) = 0.748 m */
    float d2 = 0.0008f * 1080.0f / (2.0f * tanf(fov / 2));
    /* just inside: coarser allowed without hysteresis, held back with it */
    assert_int_equal(kiln_lod_select(errors, 4, 1, d2 * 1.05f, 1080.0f, fov, 1.0f, 0.0f), 2);
    assert_int_equal(kiln_lod_select(errors, 4, 1, d2 * 1.05f, 1080.0f, fov, 1.0f, 0.2f), 1);
    assert_int_equal(kiln_lod_select(errors, 4, 1, d2 * 1.3f, 1080.0f, fov, 1.0f, 0.2f), 2);
    /* at level 2 moving closer within the band keeps it; past the threshold goes finer */
    assert_int_equal(kiln_lod_select(errors, 4, 2, d2 * 1.05f, 1080.0f, fov, 1.0f, 0.2f), 2);
    assert_int_equal(kiln_lod_select(errors, 4, 2, d2 * 0.95f, 1080.0f, fov, 1.0f, 0.2f), 1);
    /* degenerate arguments */
    assert_int_equal(kiln_lod_select(errors, 0, 0, 10.0f, 1080.0f, fov, 1.0f, 0.0f), 0);
    assert_int_equal(kiln_lod_select(NULL, 4, 0, 10.0f, 1080.0f, fov, 1.0f, 0.0f), 0);
    assert_int_equal(kiln_lod_select(errors, 4, 2, NAN, 1080.0f, fov, 1.0f, 0.0f), 0);
    assert_int_equal(kiln_lod_select(errors, 4, 2, 0.0f, 1080.0f, fov, 1.0f, 0.0f), 0);
    assert_int_equal(kiln_lod_select(errors, 4, 9, 1e9f, 1080.0f, fov, 1.0f, 0.0f), 3);
    assert_true(kiln_lod_pixels(0.0f, 0.0f, 1080.0f, fov) == 0.0f);
}

/* meshoptimizer's scratch memory goes through the allocator of the build that calls it, only on
 * that thread and only inside the build; a whole build leaks nothing and names
 * every size right. */
static void meshoptimizer_scratch_uses_the_build_allocator(void **state)
{
    (void)state;
    kt_counting c;
    const kiln_allocator *a = kt_counting_init(&c, false);
    uint32_t idx[3 * 64], out[3 * 64];
    for (uint32_t t = 0; t < 64; t++)
        idx[3 * t] = t, idx[3 * t + 1] = t + 1, idx[3 * t + 2] = t + 2;
    const kiln_allocator *outer = kiln_meshopt_enter(a);
    meshopt_optimizeVertexCache(out, idx, 3 * 64, 66);
    kiln_meshopt_leave(outer);
    assert_true(c.allocs > 0);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.size_mismatches, 0);
    size_t before = c.allocs;
    meshopt_optimizeVertexCache(out, idx, 3 * 64, 66); /* outside a build: malloc, not ours */
    assert_int_equal(c.allocs, before);
    /* a whole build with the counting allocator */
    mf_mesh sph;
    mf_sphere(&sph, 24, 48, false);
    kiln_cooked_mesh m;
    kiln_error err;
    assert_int_equal(kiln_mesh_build(&sph.prim, NULL, a, &m, &err), KILN_OK);
    assert_true(c.allocs > before + 10);
    kiln_cooked_mesh_free(&m);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.size_mismatches, 0);
    assert_int_equal(c.unknown_pointers, 0);
    mf_free(&sph);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(weld_merges_vertices_equal_in_every_stream),
        cmocka_unit_test(meshoptimizer_scratch_uses_the_build_allocator),
        cmocka_unit_test(weld_merges_vertices_the_stored_format_cannot_tell_apart),
        cmocka_unit_test(weld_keeps_vertices_a_morph_target_moves_apart),
        cmocka_unit_test(clean_drops_degenerate_and_duplicate_triangles),
        cmocka_unit_test(clean_keeps_triangles_a_morph_target_opens),
        cmocka_unit_test(optimize_brings_shuffled_sphere_acmr_under_0_7),
        cmocka_unit_test(optimize_keeps_every_triangle_and_its_winding),
        cmocka_unit_test(lods_follow_fractions_errors_and_share_vertices),
        cmocka_unit_test(lods_stop_at_the_95_percent_rule_and_min_triangles),
        cmocka_unit_test(lods_do_not_tear_the_uv_seam_of_a_sphere),
        cmocka_unit_test(meshlets_cover_every_level_within_limits),
        cmocka_unit_test(quantized_vertices_decode_within_documented_bounds),
        cmocka_unit_test(octahedral_error_bounds_hold_over_the_sphere),
        cmocka_unit_test(float_vertices_round_trip_exactly),
        cmocka_unit_test(indices_are_16_bit_when_they_fit),
        cmocka_unit_test(skin_keeps_four_strongest_weights_summing_to_255),
        cmocka_unit_test(morph_deltas_follow_every_reordering),
        cmocka_unit_test(compressed_streams_decode_to_the_same_mesh),
        cmocka_unit_test(same_input_same_bytes_on_any_thread),
        cmocka_unit_test(golden_bytes_of_a_quad),
        cmocka_unit_test(bad_options_and_indices_are_errors_not_aborts),
        cmocka_unit_test(every_failing_allocation_is_an_error_without_leaks),
        cmocka_unit_test(lod_select_worked_example_and_hysteresis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
