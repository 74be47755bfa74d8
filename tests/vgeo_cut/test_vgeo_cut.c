/* test_vgeo_cut.c — the cluster DAG of virtual geometry, built from synthetic meshes (a
 * displaced sphere with UV seams, an open wavy plane, two disjoint pieces) and from every
 * primitive of the glTF corpus: the DAG walk (monotonic errors, nested spheres), the crack and
 * coverage tests over random cameras (far, near, grazing, inside the bounds) at six pixel
 * errors, fewer triangles as the threshold rises, and the same bytes on one thread and two. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "mesh_fixtures.h"
#include "process/vgeo.h"
#include "vgeo_check.h"

typedef struct mesh {
    float *positions;
    uint32_t vertex_count;
    uint32_t *indices;
    size_t index_count;
} mesh;

static void mesh_free(mesh *m)
{
    free(m->positions);
    free(m->indices);
    memset(m, 0, sizeof *m);
}

/* A lat-long sphere of radius ~1 displaced by a smooth bump pattern; the u = 0 / 1 column and
 * the pole rows are separate vertices at equal positions (UV seams, as an artist's mesh has). */
static mesh displaced_sphere(uint32_t segments, uint32_t rings)
{
    mesh m;
    m.vertex_count = (segments + 1) * (rings + 1);
    m.positions = malloc((size_t)m.vertex_count * 3 * sizeof(float));
    m.index_count = (size_t)segments * (rings - 1) * 6;
    m.indices = malloc(m.index_count * sizeof(uint32_t));
    assert_true(m.positions && m.indices);
    const double pi = 3.14159265358979323846;
    for (uint32_t r = 0; r <= rings; r++)
        for (uint32_t s = 0; s <= segments; s++) {
            float *p = m.positions + ((size_t)r * (segments + 1) + s) * 3;
            double th = pi * r / rings, ph = 2 * pi * (s % segments) / segments;
            double d[3] = {sin(th) * cos(ph), cos(th), sin(th) * sin(ph)};
            if (r == 0 || r == rings) d[0] = d[2] = 0, d[1] = r == 0 ? 1 : -1;
            double rad = 1 + 0.06 * sin(9 * d[0]) * cos(7 * d[1]) * sin(5 * d[2] + 1);
            for (int c = 0; c < 3; c++) p[c] = (float)(d[c] * rad);
        }
    size_t k = 0;
    for (uint32_t r = 0; r < rings; r++)
        for (uint32_t s = 0; s < segments; s++) {
            uint32_t a = r * (segments + 1) + s, b = a + 1, c = a + segments + 1, d = c + 1;
            if (r != 0) m.indices[k++] = a, m.indices[k++] = b, m.indices[k++] = c;
            if (r != rings - 1) m.indices[k++] = b, m.indices[k++] = d, m.indices[k++] = c;
        }
    m.index_count = k;
    return m;
}

/* An open n x n grid, gently waved, plus (pieces 2) a second grid beside it. */
static mesh wavy_plane(uint32_t n, int pieces)
{
    mesh m;
    uint32_t per = (n + 1) * (n + 1);
    m.vertex_count = per * (uint32_t)pieces;
    m.positions = malloc((size_t)m.vertex_count * 3 * sizeof(float));
    m.index_count = (size_t)n * n * 6 * (size_t)pieces;
    m.indices = malloc(m.index_count * sizeof(uint32_t));
    assert_true(m.positions && m.indices);
    size_t k = 0;
    for (int piece = 0; piece < pieces; piece++) {
        uint32_t base = per * (uint32_t)piece;
        for (uint32_t y = 0; y <= n; y++)
            for (uint32_t x = 0; x <= n; x++) {
                float *p = m.positions + ((size_t)base + y * (n + 1) + x) * 3;
                double u = (double)x / n, v = (double)y / n;
                p[0] = (float)(u + 1.5 * piece);
                p[1] = (float)v;
                p[2] = (float)(0.05 * sin(6 * u) * cos(4 * v));
            }
        for (uint32_t y = 0; y < n; y++)
            for (uint32_t x = 0; x < n; x++) {
                uint32_t a = base + y * (n + 1) + x, b = a + 1, c = a + n + 1, d = c + 1;
                m.indices[k++] = a, m.indices[k++] = b, m.indices[k++] = d;
                m.indices[k++] = a, m.indices[k++] = d, m.indices[k++] = c;
            }
    }
    return m;
}

static void same_dag(const kiln_cooked_vgeo *a, const kiln_cooked_vgeo *b)
{
    assert_int_equal(a->cluster_count, b->cluster_count);
    assert_int_equal(a->group_count, b->group_count);
    assert_int_equal(a->cluster_vertex_count, b->cluster_vertex_count);
    assert_int_equal(a->cluster_triangle_size, b->cluster_triangle_size);
    assert_int_equal(a->flags, b->flags);
    assert_memory_equal(a->clusters, b->clusters, a->cluster_count * sizeof *a->clusters);
    assert_memory_equal(a->links, b->links, a->cluster_count * sizeof *a->links);
    assert_memory_equal(a->bounds, b->bounds, a->cluster_count * sizeof *a->bounds);
    if (a->group_count)
        assert_memory_equal(a->groups, b->groups, a->group_count * sizeof *a->groups);
    if (a->cluster_vertex_count)
        assert_memory_equal(a->cluster_vertices, b->cluster_vertices,
                            a->cluster_vertex_count * sizeof(uint32_t));
    if (a->cluster_triangle_size)
        assert_memory_equal(a->cluster_triangles, b->cluster_triangles, a->cluster_triangle_size);
}

static void bounds_of(const float *pos, uint32_t n, float center[3], float *radius)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t v = 0; v < n; v++)
        for (int c = 0; c < 3; c++) {
            if (pos[v * 3 + c] < lo[c]) lo[c] = pos[v * 3 + c];
            if (pos[v * 3 + c] > hi[c]) hi[c] = pos[v * 3 + c];
        }
    double r2 = 0;
    for (int c = 0; c < 3; c++) {
        center[c] = n ? (lo[c] + hi[c]) * 0.5f : 0;
        r2 += n ? (double)(hi[c] - lo[c]) * (hi[c] - lo[c]) / 4 : 0;
    }
    *radius = (float)sqrt(r2);
}

typedef struct tally {
    size_t meshes, triangles, clusters, levels, cuts, links, stalled, roots;
} tally;

/* Builds the DAG (one thread and two), checks it and its cuts from cameras random cameras. */
static void check_mesh(const float *pos, uint32_t nv, const uint32_t *idx, size_t ni,
                       uint32_t cameras, kiln_jobs *pool, tally *t)
{
    kiln_cooked_vgeo one, two;
    kiln_error err;
    kiln_vgeo_build_opts o = {0, 0, NULL};
    kiln_result r = kiln_vgeo_build(pos, nv, idx, ni, &o, NULL, &one, &err);
    if (r != KILN_OK) print_error("%s\n", err.message);
    assert_int_equal(r, KILN_OK);
    o.jobs = pool;
    assert_int_equal(kiln_vgeo_build(pos, nv, idx, ni, &o, NULL, &two, &err), KILN_OK);
    same_dag(&one, &two);
    kiln_cooked_vgeo_free(&two);
    kiln_vgeo_view v = vc_view_of(&one);
    vc_source s;
    vc_source_init(&s, pos, nv, idx, ni);
    t->links += vc_check_dag(&v, &s);
    float center[3], radius;
    bounds_of(pos, nv, center, &radius);
    t->cuts += vc_check_cameras(&v, &s, center, radius, cameras, 0x9E3779B9u ^ (uint32_t)ni);
    vc_source_free(&s);
    t->meshes++;
    t->triangles += ni / 3;
    t->clusters += one.cluster_count;
    t->levels += one.level_count;
    t->roots += v.root_count;
    if (one.flags & KILN_VGEO_STALLED) t->stalled++;
    kiln_cooked_vgeo_free(&one);
}

static void synthetic_meshes_cut_without_cracks(void **state)
{
    (void)state;
    kiln_jobs *pool = NULL;
    assert_int_equal(kiln_jobs_create(2, NULL, &pool, NULL), KILN_OK);
    tally t = {0};
    mesh m = displaced_sphere(160, 80);
    check_mesh(m.positions, m.vertex_count, m.indices, m.index_count, 24, pool, &t);
    /* A watertight mesh simplifies to a few roots (one, once clusters are compact). */
    assert_true(t.roots <= 16);
    mesh_free(&m);
    m = wavy_plane(90, 1);
    check_mesh(m.positions, m.vertex_count, m.indices, m.index_count, 24, pool, &t);
    mesh_free(&m);
    m = wavy_plane(40, 2);
    check_mesh(m.positions, m.vertex_count, m.indices, m.index_count, 12, pool, &t);
    mesh_free(&m);
    m = wavy_plane(1, 1); /* two triangles: one cluster, the root */
    check_mesh(m.positions, m.vertex_count, m.indices, m.index_count, 4, pool, &t);
    mesh_free(&m);
    print_message("%zu meshes, %zu triangles: %zu clusters, %zu levels, %zu roots, %zu stalled; "
                  "%zu links walked, %zu cuts checked\n",
                  t.meshes, t.triangles, t.clusters, t.levels, t.roots, t.stalled, t.links, t.cuts);
    kiln_jobs_destroy(pool);
}

static void every_corpus_mesh_cuts_without_cracks(void **state)
{
    (void)state;
    kt_require_corpus();
    char *root = kt_corpus_path("gltf");
    size_t count;
    char **paths = kt_gltf_files(root, &count);
    kiln_jobs *pool = NULL;
    assert_int_equal(kiln_jobs_create(2, NULL, &pool, NULL), KILN_OK);
    tally t = {0};
    kiln_mesh_build_opts o = mf_opts(true, false);
    o.no_meshlets = true;
    for (size_t i = 0; i < count; i++) {
        kiln_scene *s = NULL;
        kiln_error err;
        kiln_scene_opts so = {sizeof so, KILN_SCENE_LOAD_NO_PIXELS, 0, {0}};
        if (kiln_scene_load(paths[i], &so, &s, &err) != KILN_OK) continue;
        for (uint32_t mi = 0; mi < s->mesh_count; mi++)
            for (uint32_t pi = 0; pi < s->meshes[mi].primitive_count; pi++) {
                const kiln_scene_primitive *p = &s->meshes[mi].primitives[pi];
                o.morph_weights = s->meshes[mi].weights;
                o.morph_weight_count = s->meshes[mi].weight_count;
                mf_cooked c;
                mf_cook(p, &o, &c);
                if (getenv("VC_VERBOSE")) print_message("%s mesh %u prim %u\n", paths[i], mi, pi);
                /* The DAG indexes the cooked mesh's vertices: level 0's triangles. */
                if (c.mesh.level_count && c.mesh.levels[0].index_count)
                    check_mesh(c.mesh.positions, c.mesh.vertex_count,
                               c.mesh.indices + c.mesh.levels[0].index_offset,
                               c.mesh.levels[0].index_count, 8, pool, &t);
                mf_cooked_free(&c);
            }
        kiln_scene_free(s);
    }
    print_message("%zu corpus primitives, %zu triangles: %zu clusters, %zu levels, %zu roots, "
                  "%zu stalled; %zu links walked, %zu cuts checked\n",
                  t.meshes, t.triangles, t.clusters, t.levels, t.roots, t.stalled, t.links, t.cuts);
    assert_true(t.meshes >= 40);
    kiln_jobs_destroy(pool);
    kt_paths_free(paths, count);
    free(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(synthetic_meshes_cut_without_cracks),
        cmocka_unit_test(every_corpus_mesh_cuts_without_cracks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
