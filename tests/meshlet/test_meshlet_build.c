/* test_meshlet_build.c — kiln_meshlet_build (src/process/meshlet_build.h): on grids, a sphere,
 * random soups, fans and degenerate inputs, every triangle comes out in exactly one meshlet with
 * its corners in order, every meshlet keeps the limits and uses each of its vertices, the count
 * stays within kiln_meshlet_bound, and the bytes are the same twice, on another thread and with
 * vertex numbers compacted away; bad arguments are refused; scratch memory goes through the
 * caller's allocator, is all returned and a failed allocation is reported. On corpus models the
 * meshlet count is checked against meshoptimizer 0.18's builder (at most 3 % more). */
#include "support.h"

#include <math.h>
#include <meshoptimizer.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "counting_alloc.h"
#include "kiln/kiln_scene.h"
#include "process/meshlet_build.h"

typedef struct mesh {
    uint32_t *idx;
    size_t index_count;
    float *pos;
    size_t vertex_count;
} mesh;

typedef struct built {
    kiln_meshlet *ml;
    uint32_t *mv;
    uint8_t *mt;
    size_t count, bound;
} built;

static void mesh_free(mesh *m)
{
    free(m->idx), free(m->pos);
    memset(m, 0, sizeof *m);
}

static uint32_t rnd(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return *s = x;
}

/* A w x h grid of quads (2 triangles each), slightly bumped. */
static mesh make_grid(uint32_t w, uint32_t h)
{
    mesh m;
    m.vertex_count = (size_t)(w + 1) * (h + 1);
    m.pos = malloc(m.vertex_count * 12);
    for (uint32_t y = 0; y <= h; y++)
        for (uint32_t x = 0; x <= w; x++) {
            float *p = m.pos + ((size_t)y * (w + 1) + x) * 3;
            p[0] = (float)x, p[1] = (float)y, p[2] = 0.3f * sinf(0.37f * x) * cosf(0.23f * y);
        }
    m.index_count = (size_t)w * h * 6;
    m.idx = malloc(m.index_count * 4);
    size_t n = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t a = y * (w + 1) + x, b = a + 1, c = a + w + 1, d = c + 1;
            m.idx[n++] = a, m.idx[n++] = b, m.idx[n++] = d;
            m.idx[n++] = a, m.idx[n++] = d, m.idx[n++] = c;
        }
    return m;
}

/* count unconnected triangles at random places (each its own 3 vertices). */
static mesh make_soup(uint32_t count, uint32_t seed)
{
    mesh m;
    m.vertex_count = (size_t)count * 3, m.index_count = (size_t)count * 3;
    m.pos = malloc(m.vertex_count * 12), m.idx = malloc(m.index_count * 4);
    for (uint32_t t = 0; t < count; t++) {
        float c[3];
        for (int k = 0; k < 3; k++) c[k] = (float)(rnd(&seed) % 10000) / 100.0f;
        for (int v = 0; v < 3; v++) {
            for (int k = 0; k < 3; k++)
                m.pos[((size_t)t * 3 + v) * 3 + k] = c[k] + (float)(rnd(&seed) % 100) / 100.0f;
            m.idx[(size_t)t * 3 + v] = t * 3 + v;
        }
    }
    return m;
}

/* A fan of n triangles around vertex 0 (a disc, or a closed cone when closed). */
static mesh make_fan(uint32_t n, int closed)
{
    mesh m;
    m.vertex_count = (size_t)n + 2;
    m.pos = calloc(m.vertex_count, 12);
    for (uint32_t i = 0; i <= n; i++) {
        float a = 6.2831853f * (float)i / (float)n;
        float *p = m.pos + (size_t)(i + 1) * 3;
        p[0] = cosf(a), p[1] = sinf(a), p[2] = 0.1f * (float)(i % 3);
    }
    m.index_count = (size_t)n * 3;
    m.idx = malloc(m.index_count * 4);
    for (uint32_t i = 0; i < n; i++) {
        m.idx[i * 3] = 0, m.idx[i * 3 + 1] = i + 1;
        m.idx[i * 3 + 2] = closed && i + 1 == n ? 1 : i + 2;
    }
    return m;
}

static built build(const mesh *m, size_t max_v, size_t max_t, const kiln_allocator *a)
{
    built b;
    b.bound = kiln_meshlet_bound(m->index_count, max_v, max_t);
    size_t cap = b.bound ? b.bound : 1;
    b.ml = calloc(cap, sizeof *b.ml);
    b.mv = calloc(cap * max_v, 4);
    b.mt = calloc(cap * max_t * 3, 1);
    kiln_error err;
    kiln_result rc = kiln_meshlet_build(a, m->idx, m->index_count, m->pos, m->vertex_count, max_v,
                                        max_t, 0.25f, b.ml, b.mv, b.mt, &b.count, &err);
    if (rc != KILN_OK) fail_msg("kiln_meshlet_build: %s", err.message);
    return b;
}

static void built_free(built *b) { free(b->ml), free(b->mv), free(b->mt); }

static int cmp_tri(const void *a, const void *b) { return memcmp(a, b, 12); }

/* Every invariant of the output; returns nothing, fails the test. */
static void check(const mesh *m, const built *b, size_t max_v, size_t max_t)
{
    size_t tris = m->index_count / 3;
    assert_true(b->count <= b->bound);
    if (tris) assert_true(b->count >= 1);
    size_t voff = 0, toff = 0, seen = 0;
    uint32_t *out = malloc((tris ? tris : 1) * 12);
    for (size_t i = 0; i < b->count; i++) {
        const kiln_meshlet *ml = &b->ml[i];
        assert_int_equal(ml->vertex_offset, voff);
        assert_int_equal(ml->triangle_offset, toff);
        assert_true(ml->vertex_count >= 1 && ml->vertex_count <= max_v);
        assert_true(ml->triangle_count >= 1 && ml->triangle_count <= max_t);
        const uint32_t *mv = b->mv + ml->vertex_offset;
        const uint8_t *mt = b->mt + ml->triangle_offset;
        uint8_t used[256] = {0};
        for (uint32_t v = 0; v < ml->vertex_count; v++) {
            assert_true(mv[v] < m->vertex_count);
            for (uint32_t u = 0; u < v; u++) assert_true(mv[u] != mv[v]);
        }
        for (uint32_t t = 0; t < ml->triangle_count; t++)
            for (int c = 0; c < 3; c++) {
                uint8_t l = mt[t * 3 + c];
                assert_true(l < ml->vertex_count);
                used[l] = 1;
                out[seen * 3 + c] = mv[l];
                if (c == 2) seen++;
            }
        for (uint32_t v = 0; v < ml->vertex_count; v++) assert_true(used[v]);
        voff += ml->vertex_count, toff += (size_t)ml->triangle_count * 3;
        /* a meshlet is closed only when the next triangle does not fit */
        if (i + 1 < b->count)
            assert_true(ml->triangle_count == max_t || ml->vertex_count + 3 > max_v);
    }
    assert_int_equal(seen, tris);
    uint32_t *in = malloc((tris ? tris : 1) * 12);
    memcpy(in, m->idx, tris * 12);
    qsort(in, tris, 12, cmp_tri);
    qsort(out, tris, 12, cmp_tri);
    assert_memory_equal(in, out, tris * 12);
    free(in), free(out);
}

static void check_same(const built *a, const built *b)
{
    assert_int_equal(a->count, b->count);
    assert_memory_equal(a->ml, b->ml, a->count * sizeof *a->ml);
    size_t nv = 0, nt = 0;
    for (size_t i = 0; i < a->count; i++)
        nv += a->ml[i].vertex_count, nt += (size_t)a->ml[i].triangle_count * 3;
    assert_memory_equal(a->mv, b->mv, nv * 4);
    assert_memory_equal(a->mt, b->mt, nt);
}

static void build_check(const mesh *m, size_t max_v, size_t max_t)
{
    built b = build(m, max_v, max_t, NULL), c = build(m, max_v, max_t, NULL);
    check(m, &b, max_v, max_t);
    check_same(&b, &c);
    built_free(&b), built_free(&c);
}

static void test_grid_limits(void **state)
{
    (void)state;
    mesh m = make_grid(61, 47);
    static const size_t limits[][2] = {{64, 124},  {3, 1}, {3, 124}, {255, 512}, {64, 1},
                                       {128, 256}, {4, 2}, {96, 33}, {255, 4}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        build_check(&m, limits[i][0], limits[i][1]);
    /* A grid's meshlets are full: about 98 triangles fit 64 vertices (an 8 x 8 patch). */
    built b = build(&m, 64, 124, NULL);
    assert_true(b.count <= (m.index_count / 3) / 80 + 1);
    built_free(&b);
    mesh_free(&m);
}

static void test_small_and_degenerate(void **state)
{
    (void)state;
    float p3[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uint32_t i3[3] = {0, 1, 2};
    mesh one = {i3, 3, p3, 3};
    build_check(&one, 64, 124);
    build_check(&one, 3, 1);
    built b = build(&one, 64, 124, NULL);
    assert_int_equal(b.count, 1);
    assert_int_equal(b.ml[0].vertex_count, 3);
    built_free(&b);

    /* Disconnected triangles, with every limit. */
    mesh soup = make_soup(1000, 7);
    build_check(&soup, 64, 124);
    build_check(&soup, 3, 1);
    build_check(&soup, 3, 124);
    build_check(&soup, 255, 512);
    mesh_free(&soup);
    /* more than the builder looks at one by one: the restart index from the first restart */
    soup = make_soup(3000, 11);
    build_check(&soup, 64, 124);
    build_check(&soup, 3, 1);
    mesh_free(&soup);

    /* One vertex in 300 and in 2000 triangles (more than a meshlet's candidates hold). */
    for (int closed = 0; closed < 2; closed++) {
        mesh fan = make_fan(300, closed);
        build_check(&fan, 64, 124);
        build_check(&fan, 3, 1);
        build_check(&fan, 255, 512);
        mesh_free(&fan);
        fan = make_fan(2000, closed);
        build_check(&fan, 64, 124);
        build_check(&fan, 255, 512);
        mesh_free(&fan);
    }

    /* Repeated corners, zero-area triangles, duplicated triangles, non-finite positions. */
    float pd[18] = {0, 0, 0, 1, 0, 0, 2, 0, 0, NAN, 0, 0, INFINITY, 1, 1, 0, 0, 1};
    uint32_t id[] = {0, 0, 1, 0, 1, 2, 0, 1, 2, 1, 1, 1, 3, 4, 5, 5, 4, 3, 0, 3, 5, 2, 2, 5};
    mesh deg = {id, sizeof id / 4, pd, 6};
    build_check(&deg, 64, 124);
    build_check(&deg, 3, 1);
    build_check(&deg, 4, 2);
}

/* The same triangles over a huge vertex range (few used: the builder renumbers them) give the
 * same meshlets as over the vertices numbered densely. */
static void test_sparse_vertices(void **state)
{
    (void)state;
    mesh g = make_grid(20, 10);
    size_t big = 1000000;
    mesh s = {malloc(g.index_count * 4), g.index_count, calloc(big, 12), big};
    for (size_t v = 0; v < g.vertex_count; v++)
        memcpy(s.pos + (v * 7919 + 13) % big * 3, g.pos + v * 3, 12);
    for (size_t i = 0; i < g.index_count; i++) s.idx[i] = (uint32_t)((g.idx[i] * 7919 + 13) % big);
    built a = build(&g, 64, 124, NULL), b = build(&s, 64, 124, NULL);
    check(&s, &b, 64, 124);
    size_t nv = 0;
    for (size_t i = 0; i < a.count; i++) nv += a.ml[i].vertex_count;
    for (size_t i = 0; i < nv; i++) a.mv[i] = (uint32_t)((a.mv[i] * 7919 + 13) % big);
    check_same(&a, &b);
    built_free(&a), built_free(&b);
    mesh_free(&g), mesh_free(&s);
}

static void test_refuses(void **state)
{
    (void)state;
    float p[9] = {0};
    uint32_t i[6] = {0, 1, 2, 0, 1, 3};
    kiln_meshlet ml[4];
    uint32_t mv[64];
    uint8_t mt[64];
    size_t n = 99;
    kiln_error err;
    assert_int_equal(kiln_meshlet_build(NULL, i, 3, p, 3, 2, 124, 0.25f, ml, mv, mt, &n, &err),
                     KILN_E_USAGE);
    assert_int_equal(n, 0);
    assert_int_equal(kiln_meshlet_build(NULL, i, 3, p, 3, 256, 124, 0.25f, ml, mv, mt, &n, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_meshlet_build(NULL, i, 3, p, 3, 64, 0, 0.25f, ml, mv, mt, &n, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_meshlet_build(NULL, i, 3, p, 3, 64, 513, 0.25f, ml, mv, mt, &n, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_meshlet_build(NULL, i, 4, p, 3, 64, 124, 0.25f, ml, mv, mt, &n, &err),
                     KILN_E_USAGE);
    /* index 3 of 3 vertices */
    assert_int_equal(kiln_meshlet_build(NULL, i, 6, p, 3, 64, 124, 0.25f, ml, mv, mt, &n, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_meshlet_build(NULL, i, 0, p, 3, 64, 124, 0.25f, ml, mv, mt, &n, &err),
                     KILN_OK);
    assert_int_equal(n, 0);
    assert_int_equal(kiln_meshlet_bound(0, 64, 124), 0);
}

static void test_allocator(void **state)
{
    (void)state;
    mesh m = make_grid(40, 40);
    /* vertices far beyond those used: the renumbering table is allocated too */
    mesh sparse = make_soup(50, 3);
    float *pos = calloc(100000, 12);
    memcpy(pos, sparse.pos, sparse.vertex_count * 12);
    free(sparse.pos);
    sparse.pos = pos, sparse.vertex_count = 100000;
    const mesh *cases[2] = {&m, &sparse};
    for (int c = 0; c < 2; c++) {
        kt_counting ca;
        built ref = build(cases[c], 64, 124, NULL);
        built b = build(cases[c], 64, 124, kt_counting_init(&ca, false));
        assert_true(ca.allocs >= 1);
        kt_counting_assert_clean(&ca);
        check_same(&ref, &b);
        size_t calls = ca.calls;
        for (size_t f = 1; f <= calls; f++) {
            kt_counting_init(&ca, false);
            ca.fail_at = f;
            kiln_error err;
            size_t n;
            assert_int_equal(kiln_meshlet_build(&ca.hooks, cases[c]->idx, cases[c]->index_count,
                                                cases[c]->pos, cases[c]->vertex_count, 64, 124,
                                                0.25f, b.ml, b.mv, b.mt, &n, &err),
                             KILN_E_OUT_OF_MEMORY);
            kt_counting_assert_clean(&ca);
        }
        built_free(&ref), built_free(&b);
    }
    mesh_free(&m), mesh_free(&sparse);
}

typedef struct thread_arg {
    const mesh *m;
    built out;
} thread_arg;

static void *thread_main(void *p)
{
    thread_arg *a = p;
    a->out = build(a->m, 64, 124, NULL);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    mesh m = make_grid(150, 120);
    built ref = build(&m, 64, 124, NULL);
    thread_arg args[3] = {{&m, {0}}, {&m, {0}}, {&m, {0}}};
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        assert_int_equal(pthread_create(&th[i], NULL, thread_main, &args[i]), 0);
    for (int i = 0; i < 3; i++) {
        pthread_join(th[i], NULL);
        check_same(&ref, &args[i].out);
        built_free(&args[i].out);
    }
    built_free(&ref);
    mesh_free(&m);
}

/* The largest primitive of a corpus model. */
static int corpus_mesh(const char *rel, mesh *m)
{
    char *path = kt_corpus_path(rel);
    if (!path) return 0;
    kiln_scene *s = NULL;
    kiln_error err;
    kiln_scene_opts opts = {sizeof opts, KILN_SCENE_LOAD_NO_PIXELS, 0, {0}};
    kiln_result rc = kiln_scene_load(path, &opts, &s, &err);
    free(path);
    if (rc != KILN_OK) fail_msg("%s: %s", rel, err.message);
    const kiln_scene_primitive *best = NULL;
    for (uint32_t i = 0; i < s->mesh_count; i++)
        for (uint32_t p = 0; p < s->meshes[i].primitive_count; p++) {
            const kiln_scene_primitive *q = &s->meshes[i].primitives[p];
            if (!best || q->index_count > best->index_count) best = q;
        }
    assert_non_null(best);
    m->index_count = best->index_count, m->vertex_count = best->vertex_count;
    m->idx = malloc(m->index_count * 4), m->pos = malloc(m->vertex_count * 12);
    memcpy(m->idx, best->indices, m->index_count * 4);
    memcpy(m->pos, best->positions, m->vertex_count * 12);
    kiln_scene_free(s);
    return 1;
}

/* The mean bounding-sphere radius of the meshlets (meshopt_computeMeshletBounds). */
static double mean_radius(const mesh *m, const kiln_meshlet *ml, const uint32_t *mv,
                          const uint8_t *mt, size_t count)
{
    double sum = 0;
    for (size_t i = 0; i < count; i++)
        sum += meshopt_computeMeshletBounds(mv + ml[i].vertex_offset, mt + ml[i].triangle_offset,
                                            ml[i].triangle_count, m->pos, m->vertex_count, 12)
                   .radius;
    return count ? sum / (double)count : 0;
}

/* At most 3 % more meshlets than meshoptimizer 0.18's builder, with the same limits, and a mean
 * bounding radius at most 10 % larger, on the corpus's larger models (in vertex-cache order, as
 * the mesh cook gives them). */
static void test_quality_against_meshopt(void **state)
{
    (void)state;
    static const char *const models[] = {
        "gltf/SheenCloth/glTF/SheenCloth.gltf", "gltf/DamagedHelmet/glTF/DamagedHelmet.gltf",
        "gltf/Suzanne/glTF/Suzanne.gltf", "gltf/Pirate-meshopt/glTF-Binary/pirate.glb",
        "gltf/Fox/glTF/Fox.gltf"};
    int ran = 0;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        mesh m;
        if (!corpus_mesh(models[i], &m)) continue;
        uint32_t *o = malloc(m.index_count * 4);
        meshopt_optimizeVertexCache(o, m.idx, m.index_count, m.vertex_count);
        free(m.idx);
        m.idx = o;
        built b = build(&m, 64, 124, NULL);
        check(&m, &b, 64, 124);
        size_t bound = meshopt_buildMeshletsBound(m.index_count, 64, 124);
        struct meshopt_Meshlet *ml = malloc(bound * sizeof *ml);
        uint32_t *mv = malloc(bound * 64 * 4);
        uint8_t *mt = malloc(bound * 124 * 3);
        size_t ref = meshopt_buildMeshlets(ml, mv, mt, m.idx, m.index_count, m.pos, m.vertex_count,
                                           12, 64, 124, 0.25f);
        double rk = mean_radius(&m, b.ml, b.mv, b.mt, b.count);
        double rm = mean_radius(&m, (const kiln_meshlet *)ml, mv, mt, ref);
        print_message("%s: %zu meshlets, meshopt %zu; mean radius %.4g, meshopt %.4g\n", models[i],
                      b.count, ref, rk, rm);
        assert_true((double)b.count <= 1.03 * (double)ref);
        assert_true(rk <= 1.10 * rm);
        free(ml), free(mv), free(mt);
        built_free(&b);
        mesh_free(&m);
        ran++;
    }
    if (!ran) skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_limits),
        cmocka_unit_test(test_small_and_degenerate),
        cmocka_unit_test(test_sparse_vertices),
        cmocka_unit_test(test_refuses),
        cmocka_unit_test(test_allocator),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_quality_against_meshopt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
