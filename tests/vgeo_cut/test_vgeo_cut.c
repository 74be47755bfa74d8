/* test_vgeo_cut.c — the cluster DAG of virtual geometry, built from synthetic meshes (a
 * displaced sphere with UV seams, an open wavy plane, two disjoint pieces) and from every
 * primitive of the glTF corpus: the DAG walk (monotonic errors, nested spheres), the crack and
 * coverage tests over random cameras (far, near, grazing, inside the bounds) at six pixel
 * errors, fewer triangles as the threshold rises, and the same bytes on one thread and two. */
#include "support.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "mesh_fixtures.h"
#include "process/vgeo.h"
#include "vgeo_check.h"
#include "vgeo_mesh.h"

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
    size_t meshes, triangles, clusters, levels, cuts, links, stalled, roots, root_triangles;
    double worst_ratio; /* smallest stored / measured group error */
} tally;

/* Builds the DAG (one thread and two), checks it and its cuts from cameras random cameras. */
static void check_mesh(const float *pos, uint32_t nv, const uint32_t *idx, size_t ni,
                       uint32_t cameras, kiln_jobs *pool, tally *t)
{
    /* Under sanitizers (which look for memory errors, not geometry) a quarter of the cameras. */
    const char *sanitized = getenv("KILN_TEST_SANITIZED");
    if (sanitized && sanitized[0] == '1') cameras = (cameras + 3) / 4;
    kiln_cooked_vgeo one, two;
    kiln_error err;
    bool quick = sanitized && sanitized[0] == '1';
    /* Sanitizer runs build once, on the pool (ThreadSanitizer looks at its threads). */
    kiln_vgeo_build_opts o = {0, 0, quick ? pool : NULL};
    kiln_result r = kiln_vgeo_build(pos, nv, idx, ni, &o, NULL, &one, &err);
    if (r != KILN_OK) print_error("%s\n", err.message);
    assert_int_equal(r, KILN_OK);
    /* The same bytes on two threads (plain builds; under sanitizers the second build would only
     * double the time of a memory-error hunt). */
    if (!quick) {
        o.jobs = pool;
        assert_int_equal(kiln_vgeo_build(pos, nv, idx, ni, &o, NULL, &two, &err), KILN_OK);
        same_dag(&one, &two);
        kiln_cooked_vgeo_free(&two);
    }
    kiln_vgeo_view v;
    uint8_t *file = vc_write_read(&one, &v);
    vc_source s;
    vc_source_init(&s, pos, nv, idx, ni);
    t->links += vc_check_dag(&v, &s);
    double ratio = vc_check_errors(&v, pos, quick ? 300 : 2000);
    if (ratio < t->worst_ratio) t->worst_ratio = ratio;
    float center[3], radius;
    bounds_of(pos, nv, center, &radius);
    t->cuts += vc_check_cameras(&v, &s, center, radius, cameras, 0x9E3779B9u ^ (uint32_t)ni);
    vc_source_free(&s);
    t->meshes++;
    t->triangles += ni / 3;
    t->clusters += one.cluster_count;
    t->levels += one.level_count;
    t->roots += v.root_count;
    for (uint32_t i = 0; i < one.cluster_count; i++)
        if (one.links[i].group == KILN_VGEO_NONE)
            t->root_triangles += one.clusters[i].triangle_count;
    if (one.flags & KILN_VGEO_STALLED) t->stalled++;
    kiln_cooked_vgeo_free(&one);
    free(file);
}

static void synthetic_meshes_cut_without_cracks(void **state)
{
    (void)state;
    kiln_jobs *pool = NULL;
    assert_int_equal(kiln_jobs_create(2, NULL, &pool, NULL), KILN_OK);
    tally t = {0};
    t.worst_ratio = INFINITY;
    vm_mesh m = vm_displaced_sphere(160, 80);
    check_mesh(m.positions, m.vertex_count, m.indices, m.index_count, 24, pool, &t);
    /* A watertight mesh simplifies to a few roots (one, once clusters are compact). */
    /* A watertight mesh simplifies to a few roots: the UV seam, which moves only along itself,
     * and the poles, where many seam vertices meet, are what is left (docs/virtual_geometry.md). */
    print_message("displaced sphere: %zu roots, %zu root triangles of %zu\n", t.roots,
                  t.root_triangles, t.triangles);
    assert_true(t.root_triangles * 100 <= t.triangles * 5);
    vm_free(&m);
    m = vm_wavy_plane(90, 1);
    check_mesh(m.positions, m.vertex_count, m.indices, m.index_count, 24, pool, &t);
    vm_free(&m);
    m = vm_wavy_plane(40, 2);
    check_mesh(m.positions, m.vertex_count, m.indices, m.index_count, 12, pool, &t);
    vm_free(&m);
    m = vm_wavy_plane(1, 1); /* two triangles: one cluster, the root */
    check_mesh(m.positions, m.vertex_count, m.indices, m.index_count, 4, pool, &t);
    vm_free(&m);
    print_message("%zu meshes, %zu triangles: %zu clusters, %zu levels, %zu roots, %zu stalled; "
                  "%zu links walked, %zu cuts checked; group errors >= %.3f x the measured\n",
                  t.meshes, t.triangles, t.clusters, t.levels, t.roots, t.stalled, t.links, t.cuts,
                  t.worst_ratio);
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
    t.worst_ratio = INFINITY;
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
                  "%zu stalled; %zu links walked, %zu cuts checked; group errors >= %.3f x the "
                  "measured\n",
                  t.meshes, t.triangles, t.clusters, t.levels, t.roots, t.stalled, t.links, t.cuts,
                  t.worst_ratio);
    assert_true(t.meshes >= 40);
    kiln_jobs_destroy(pool);
    kt_paths_free(paths, count);
    free(root);
}

/* `test_vgeo_cut synthetic` runs the synthetic meshes only: the ThreadSanitizer run
 * (vgeo_cut_threads), where the DAG's parallel groups are what is looked at. */
int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(synthetic_meshes_cut_without_cracks),
        cmocka_unit_test(every_corpus_mesh_cuts_without_cracks),
    };
    size_t n = argc > 1 && strcmp(argv[1], "synthetic") == 0 ? 1 : 2;
    return _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
}
