/* test_tangent.c — kiln_tangents_generate (src/process/tangent.c) on synthetic meshes whose
 * tangents are known: a quad with u along +x (tangent +x, w +1), the same mirrored (w -1), two
 * quads mirrored at a shared edge (the shared vertices split), a cube, a UV sphere, a large
 * fan; degenerate triangles and UVs; random meshes (finite, unit, consistent remap);
 * determinism; errors and a failure loop over every allocation. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "process/tangent.h"

/* A small mesh built by the tests: up to MAX_V vertices. */
#define MAX_V 4096
typedef struct mesh {
    float pos[MAX_V * 3], nrm[MAX_V * 3], uv[MAX_V * 2];
    uint32_t vc;
    uint32_t idx[MAX_V * 6];
    uint32_t ic;
} mesh;

static uint32_t add_vertex(mesh *m, const double p[3], const double n[3], double u, double v)
{
    assert_true(m->vc < MAX_V);
    uint32_t i = m->vc++;
    for (int c = 0; c < 3; c++) {
        m->pos[i * 3 + c] = (float)p[c];
        m->nrm[i * 3 + c] = (float)n[c];
    }
    m->uv[i * 2] = (float)u;
    m->uv[i * 2 + 1] = (float)v;
    return i;
}

static void add_tri(mesh *m, uint32_t a, uint32_t b, uint32_t c)
{
    assert_true(m->ic + 3 <= MAX_V * 6);
    m->idx[m->ic++] = a;
    m->idx[m->ic++] = b;
    m->idx[m->ic++] = c;
}

static kiln_tangent_result generate(const mesh *m)
{
    kiln_tangent_result r;
    kiln_error e;
    kiln_result res =
        kiln_tangents_generate(m->pos, m->nrm, m->uv, m->vc, m->idx, m->ic, NULL, &r, &e);
    if (res != KILN_OK) fail_msg("kiln_tangents_generate: %s", e.message);
    return r;
}

static double angle_deg(const float *a, const double b[3])
{
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    double la = sqrt((double)a[0] * a[0] + (double)a[1] * a[1] + (double)a[2] * a[2]);
    double lb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    double c = d / (la * lb);
    return acos(c > 1 ? 1 : c < -1 ? -1 : c) * 180.0 / M_PI;
}

/* What every result must satisfy: finite unit tangents with w = ±1, remap identity on the input
 * vertices and in range after, indices that point at copies of the input's vertices. */
static void check_result(const mesh *m, const kiln_tangent_result *r)
{
    assert_int_equal(r->index_count, m->ic);
    assert_int_equal(r->vertex_count, m->vc + r->split_count);
    for (uint32_t v = 0; v < r->vertex_count; v++) {
        const float *t = &r->tangents[(size_t)v * 4];
        for (int c = 0; c < 4; c++) assert_true(isfinite(t[c]));
        double len = sqrt((double)t[0] * t[0] + (double)t[1] * t[1] + (double)t[2] * t[2]);
        if (fabs(len - 1.0) > 1e-5) fail_msg("vertex %u: tangent length %g", v, len);
        assert_true(t[3] == 1.0f || t[3] == -1.0f);
        if (v < m->vc) assert_int_equal(r->remap[v], v);
        else assert_true(r->remap[v] < m->vc);
    }
    for (uint32_t c = 0; c < m->ic; c++) {
        assert_true(r->indices[c] < r->vertex_count);
        assert_int_equal(r->remap[r->indices[c]], m->idx[c]);
    }
}

/* Tangent perpendicular to the vertex normal (within 1e-4), where the normal is unit. */
static void check_perpendicular(const mesh *m, const kiln_tangent_result *r)
{
    for (uint32_t v = 0; v < r->vertex_count; v++) {
        const float *t = &r->tangents[(size_t)v * 4], *n = &m->nrm[(size_t)r->remap[v] * 3];
        double d = (double)t[0] * n[0] + (double)t[1] * n[1] + (double)t[2] * n[2];
        if (fabs(d) > 1e-4) fail_msg("vertex %u: tangent . normal = %g", v, d);
    }
}

/* A quad in z = 0 facing +z: corners (0,0) (1,0) (1,1) (0,1); glTF UVs (v down) u = x,
 * v = 1 - y, or mirrored u = 1 - x. */
static void quad(mesh *m, bool mirrored)
{
    memset(m, 0, sizeof *m);
    static const double xy[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    const double n[3] = {0, 0, 1};
    for (int i = 0; i < 4; i++) {
        double p[3] = {xy[i][0], xy[i][1], 0};
        add_vertex(m, p, n, mirrored ? 1 - xy[i][0] : xy[i][0], 1 - xy[i][1]);
    }
    add_tri(m, 0, 1, 2);
    add_tri(m, 0, 2, 3);
}

static void quad_with_u_along_x_has_tangent_x_and_w_plus_one(void **state)
{
    (void)state;
    static mesh m;
    quad(&m, false);
    kiln_tangent_result r = generate(&m);
    check_result(&m, &r);
    assert_int_equal(r.split_count, 0);
    for (uint32_t v = 0; v < 4; v++) {
        const float *t = &r.tangents[v * 4];
        assert_float_equal(t[0], 1.0f, 1e-6);
        assert_float_equal(t[1], 0.0f, 1e-6);
        assert_float_equal(t[2], 0.0f, 1e-6);
        assert_true(t[3] == 1.0f);
        /* glTF: bitangent = cross(n, t) * w = +y, where the texture's up (v decreasing) is. */
    }
    assert_memory_equal(r.indices, m.idx, sizeof(uint32_t) * 6);
    kiln_tangent_result_free(NULL, &r);
    assert_null(r.tangents);
}

static void quad_with_mirrored_u_has_tangent_minus_x_and_w_minus_one(void **state)
{
    (void)state;
    static mesh m;
    quad(&m, true);
    kiln_tangent_result r = generate(&m);
    check_result(&m, &r);
    assert_int_equal(r.split_count, 0);
    for (uint32_t v = 0; v < 4; v++) {
        const float *t = &r.tangents[v * 4];
        assert_float_equal(t[0], -1.0f, 1e-6);
        assert_float_equal(t[1], 0.0f, 1e-6);
        assert_true(t[3] == -1.0f);
    }
    kiln_tangent_result_free(NULL, &r);
}

/* Two quads side by side sharing the edge x = 1 (vertices 1 and 4), the right one mirrored in
 * u about that edge (u = 2 - x), so both sides see the same uv at the shared vertices: these
 * split, the left corners keeping +x/+1 and the copies taking -x/-1. */
static void mirrored_halves_split_the_shared_vertices(void **state)
{
    (void)state;
    static mesh m;
    memset(&m, 0, sizeof m);
    const double n[3] = {0, 0, 1};
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++) {
            double p[3] = {x, y, 0};
            add_vertex(&m, p, n, x <= 1 ? x : 2 - x, 1 - y);
        }
    /* vertices: 0 1 2 (y = 0), 3 4 5 (y = 1) */
    add_tri(&m, 0, 1, 4);
    add_tri(&m, 0, 4, 3);
    add_tri(&m, 1, 2, 5);
    add_tri(&m, 1, 5, 4);
    kiln_tangent_result r = generate(&m);
    check_result(&m, &r);
    assert_int_equal(r.split_count, 2);
    assert_int_equal(r.vertex_count, 8);
    /* The copies come in order of first use: vertex 1 (corner 6), then vertex 4 (corner 11). */
    assert_int_equal(r.remap[6], 1);
    assert_int_equal(r.remap[7], 4);
    for (uint32_t c = 0; c < m.ic; c++) {
        const float *t = &r.tangents[(size_t)r.indices[c] * 4];
        bool right = c >= 6;
        assert_float_equal(t[0], right ? -1.0f : 1.0f, 1e-6);
        assert_true(t[3] == (right ? -1.0f : 1.0f));
    }
    static const uint32_t expect[12] = {0, 1, 4, 0, 4, 3, 6, 2, 5, 6, 5, 7};
    assert_memory_equal(r.indices, expect, sizeof expect);
    kiln_tangent_result_free(NULL, &r);
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* A face of a unit cube around the origin: normal n, u along udir, the texture's up along
 * cross(n, udir); 4 vertices of its own. */
static void cube_face(mesh *m, const double n[3], const double udir[3])
{
    double b[3];
    cross3(n, udir, b);
    static const double st[4][2] = {{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}};
    uint32_t base = m->vc;
    for (int i = 0; i < 4; i++) {
        double p[3];
        for (int c = 0; c < 3; c++) p[c] = 0.5 * n[c] + st[i][0] * udir[c] + st[i][1] * b[c];
        add_vertex(m, p, n, st[i][0] + 0.5, 0.5 - st[i][1]);
    }
    add_tri(m, base, base + 1, base + 2);
    add_tri(m, base, base + 2, base + 3);
}

static void cube_faces_get_their_u_direction(void **state)
{
    (void)state;
    static mesh m;
    memset(&m, 0, sizeof m);
    static const double faces[6][2][3] = {{{1, 0, 0}, {0, 0, -1}}, {{-1, 0, 0}, {0, 0, 1}},
                                          {{0, 1, 0}, {1, 0, 0}},  {{0, -1, 0}, {1, 0, 0}},
                                          {{0, 0, 1}, {1, 0, 0}},  {{0, 0, -1}, {-1, 0, 0}}};
    for (int f = 0; f < 6; f++) cube_face(&m, faces[f][0], faces[f][1]);
    kiln_tangent_result r = generate(&m);
    check_result(&m, &r);
    check_perpendicular(&m, &r);
    assert_int_equal(r.split_count, 0);
    for (uint32_t v = 0; v < m.vc; v++) {
        double deg = angle_deg(&r.tangents[v * 4], faces[v / 4][1]);
        if (deg > 1e-3) fail_msg("face %u vertex %u: %g degrees off", v / 4, v, deg);
        assert_true(r.tangents[v * 4 + 3] == 1.0f);
    }
    kiln_tangent_result_free(NULL, &r);
}

/* A UV sphere (glTF v down: v = 0 at the north pole), seam duplicated, poles as one vertex per
 * segment. The tangent is the direction of growing longitude, w = +1. */
static void uv_sphere(mesh *m, int rings, int segments)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i <= rings; i++) {
        double theta = M_PI * i / rings; /* from +y down */
        for (int j = 0; j <= segments; j++) {
            double phi = 2 * M_PI * j / segments;
            double p[3] = {sin(theta) * cos(phi), cos(theta), -sin(theta) * sin(phi)};
            /* A pole vertex sits at the middle of the one triangle it is in. */
            double u = (double)j / segments;
            if (i == 0) u = (j - 0.5) / segments;
            if (i == rings) u = (j + 0.5) / segments;
            add_vertex(m, p, p, u, (double)i / rings);
        }
    }
    for (int i = 0; i < rings; i++)
        for (int j = 0; j < segments; j++) {
            uint32_t a = (uint32_t)(i * (segments + 1) + j), b = a + 1;
            uint32_t c = a + (uint32_t)segments + 1, d = c + 1;
            if (i > 0) add_tri(m, a, c, b);
            if (i < rings - 1) add_tri(m, b, c, d);
        }
}

static void sphere_tangents_follow_longitude(void **state)
{
    (void)state;
    static mesh m;
    uv_sphere(&m, 16, 32);
    kiln_tangent_result r = generate(&m);
    check_result(&m, &r);
    check_perpendicular(&m, &r);
    assert_int_equal(r.split_count, 0);
    for (int i = 1; i < 16; i++)
        for (int j = 0; j <= 32; j++) {
            uint32_t v = (uint32_t)(i * 33 + j);
            double phi = 2 * M_PI * j / 32;
            double east[3] = {-sin(phi), 0, -cos(phi)}; /* d position / d phi, normalised */
            double deg = angle_deg(&r.tangents[v * 4], east);
            /* Seam vertices see only the triangles on one side, whose u directions are those
             * of half a segment (5.6 degrees) away. */
            double tol = (j == 0 || j == 32) ? 6.0 : 0.5;
            if (deg > tol) fail_msg("ring %d segment %d: %g degrees off", i, j, deg);
            assert_true(r.tangents[v * 4 + 3] == 1.0f);
        }
    kiln_tangent_result_free(NULL, &r);
}

/* 200 triangles around one centre vertex: past the sub-group limit, still +x. */
static void large_fan_centre_gets_the_common_tangent(void **state)
{
    (void)state;
    static mesh m;
    memset(&m, 0, sizeof m);
    const double n[3] = {0, 0, 1}, c[3] = {0, 0, 0};
    add_vertex(&m, c, n, 0.5, 0.5);
    for (int k = 0; k < 200; k++) {
        double a = 2 * M_PI * k / 200;
        double p[3] = {cos(a), sin(a), 0};
        add_vertex(&m, p, n, 0.5 + 0.5 * p[0], 0.5 - 0.5 * p[1]);
    }
    for (uint32_t k = 0; k < 200; k++) add_tri(&m, 0, 1 + k, 1 + (k + 1) % 200);
    kiln_tangent_result r = generate(&m);
    check_result(&m, &r);
    const double x[3] = {1, 0, 0};
    for (uint32_t v = 0; v < m.vc; v++) {
        assert_true(angle_deg(&r.tangents[v * 4], x) < 1e-3);
        assert_true(r.tangents[v * 4 + 3] == 1.0f);
    }
    kiln_tangent_result_free(NULL, &r);
}

/* A good quad plus: a triangle with a repeated vertex (0, 0, 1), one with no uv area, one with
 * no position area (collinear), one using a vertex only degenerate triangles reach, and an
 * unused vertex. Everything stays finite, unit and perpendicular to the normal; corners of the
 * quad's vertices in the bad triangles keep the quad's tangent. */
static void degenerate_triangles_and_uvs_give_finite_perpendicular_tangents(void **state)
{
    (void)state;
    static mesh m;
    quad(&m, false);
    const double n[3] = {0, 0, 1};
    double p4[3] = {2, 0, 0}, p5[3] = {3, 0, 0}, p6[3] = {4, 0, 0}, p7[3] = {2, 1, 0};
    double p8[3] = {5, 5, 0};
    add_vertex(&m, p4, n, 0.3, 0.3); /* 4: only in degenerate triangles */
    add_vertex(&m, p5, n, 0.6, 0.3); /* 5 */
    add_vertex(&m, p6, n, 0.9, 0.1); /* 6: collinear with 4 and 5 */
    add_vertex(&m, p7, n, 0.3, 0.3); /* 7: same uv as 4 and 5 */
    add_vertex(&m, p8, n, 0, 0);     /* 8: unused */
    add_tri(&m, 0, 0, 1);            /* repeated vertex */
    add_tri(&m, 4, 5, 7);            /* no uv area */
    add_tri(&m, 4, 5, 6);            /* no position area */
    add_tri(&m, 1, 2, 2);
    kiln_tangent_result r = generate(&m);
    check_result(&m, &r);
    check_perpendicular(&m, &r);
    for (uint32_t c = 6; c < m.ic; c++) {
        uint32_t v = m.idx[c];
        if (v < 4) {
            const float *t = &r.tangents[(size_t)r.indices[c] * 4];
            assert_float_equal(t[0], 1.0f, 1e-6);
            assert_true(t[3] == 1.0f);
        }
    }
    kiln_tangent_result_free(NULL, &r);
}

/* Zero normals, NaN and infinite inputs: never a NaN out. */
static void non_finite_inputs_give_finite_tangents(void **state)
{
    (void)state;
    static mesh m;
    quad(&m, false);
    m.nrm[0] = m.nrm[1] = m.nrm[2] = 0.0f;
    m.pos[4] = NAN;
    m.uv[5] = INFINITY;
    m.nrm[9] = NAN;
    kiln_tangent_result r = generate(&m);
    check_result(&m, &r);
    kiln_tangent_result_free(NULL, &r);
}

static uint64_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static double rng_unit(uint64_t *s) { return (double)rng_next(s) / (double)(1ull << 31); }

/* Random meshes: positions, normals and uvs drawn from small sets (so welding and shared
 * edges happen) or at random; random triangles, some degenerate. */
static void random_meshes_give_valid_results(void **state)
{
    (void)state;
    static mesh m;
    uint64_t seed = 12345;
    for (int round = 0; round < 200; round++) {
        memset(&m, 0, sizeof m);
        uint32_t vc = 1 + (uint32_t)(rng_next(&seed) % 300);
        bool coarse = round % 2 == 0;
        for (uint32_t v = 0; v < vc; v++) {
            double p[3], n[3];
            for (int c = 0; c < 3; c++) {
                p[c] = coarse ? (double)(rng_next(&seed) % 3) : rng_unit(&seed) * 2 - 1;
                n[c] = coarse ? (double)(rng_next(&seed) % 3) - 1 : rng_unit(&seed) * 2 - 1;
            }
            double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (len > 0 && round % 3 != 0)
                for (int c = 0; c < 3; c++) n[c] /= len;
            double u = coarse ? (double)(rng_next(&seed) % 2) : rng_unit(&seed);
            double w = coarse ? (double)(rng_next(&seed) % 2) : rng_unit(&seed);
            add_vertex(&m, p, n, u, w);
        }
        uint32_t tris = (uint32_t)(rng_next(&seed) % 500);
        for (uint32_t t = 0; t < tris; t++)
            add_tri(&m, (uint32_t)(rng_next(&seed) % vc), (uint32_t)(rng_next(&seed) % vc),
                    (uint32_t)(rng_next(&seed) % vc));
        kiln_tangent_result r = generate(&m);
        check_result(&m, &r);
        kiln_tangent_result r2 = generate(&m);
        assert_int_equal(r.vertex_count, r2.vertex_count);
        assert_memory_equal(r.tangents, r2.tangents, (size_t)r.vertex_count * 16);
        assert_memory_equal(r.remap, r2.remap, (size_t)r.vertex_count * 4);
        assert_memory_equal(r.indices, r2.indices, (size_t)r.index_count * 4);
        kiln_tangent_result_free(NULL, &r);
        kiln_tangent_result_free(NULL, &r2);
    }
}

static void empty_mesh_is_fine(void **state)
{
    (void)state;
    static mesh m;
    memset(&m, 0, sizeof m);
    kiln_tangent_result r = generate(&m);
    assert_int_equal(r.vertex_count, 0);
    assert_int_equal(r.index_count, 0);
    kiln_tangent_result_free(NULL, &r);
    /* Vertices without triangles get the fallback. */
    quad(&m, false);
    m.ic = 0;
    r = generate(&m);
    check_result(&m, &r);
    check_perpendicular(&m, &r);
    kiln_tangent_result_free(NULL, &r);
}

static void bad_indices_are_errors(void **state)
{
    (void)state;
    static mesh m;
    quad(&m, false);
    m.idx[4] = 4;
    kiln_tangent_result r;
    kiln_error e;
    assert_int_equal(kiln_tangents_generate(m.pos, m.nrm, m.uv, m.vc, m.idx, m.ic, NULL, &r, &e),
                     KILN_E_IMPORT_FAILED);
    assert_non_null(strstr(e.message, "index 4"));
    assert_null(r.tangents);
    quad(&m, false);
    assert_int_equal(kiln_tangents_generate(m.pos, m.nrm, m.uv, m.vc, m.idx, 5, NULL, &r, &e),
                     KILN_E_IMPORT_FAILED);
}

/* An allocator that fails its Nth call and counts what is outstanding. */
typedef struct counting {
    int calls, fail_at;
    long outstanding;
} counting;

static void *c_alloc(void *user, size_t size, size_t align)
{
    counting *c = user;
    if (c->calls++ == c->fail_at) return NULL;
    void *p = NULL;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size) != 0) return NULL;
    c->outstanding++;
    return p;
}

static void *c_realloc(void *user, void *ptr, size_t old_size, size_t new_size)
{
    counting *c = user;
    if (c->calls++ == c->fail_at) return NULL;
    (void)old_size;
    return realloc(ptr, new_size);
}

static void c_free(void *user, void *ptr, size_t size)
{
    counting *c = user;
    (void)size;
    c->outstanding--;
    free(ptr);
}

static void every_failed_allocation_is_an_error_without_leaks(void **state)
{
    (void)state;
    static mesh m;
    memset(&m, 0, sizeof m);
    const double n[3] = {0, 0, 1};
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++) {
            double p[3] = {x, y, 0};
            add_vertex(&m, p, n, x <= 1 ? x : 2 - x, 1 - y);
        }
    add_tri(&m, 0, 1, 4);
    add_tri(&m, 0, 4, 3);
    add_tri(&m, 1, 2, 5);
    add_tri(&m, 1, 5, 4);
    int n_ok = -1;
    for (int fail = 0; fail < 100; fail++) {
        counting c = {.fail_at = fail};
        kiln_allocator a = {c_alloc, c_realloc, c_free, &c};
        kiln_tangent_result r;
        kiln_error e;
        kiln_result res = kiln_tangents_generate(m.pos, m.nrm, m.uv, m.vc, m.idx, m.ic, &a, &r, &e);
        if (res == KILN_OK) {
            assert_int_equal(r.split_count, 2);
            kiln_tangent_result_free(&a, &r);
            assert_int_equal(c.outstanding, 0);
            n_ok = fail;
            break;
        }
        assert_int_equal(res, KILN_E_OUT_OF_MEMORY);
        assert_null(r.tangents);
        assert_int_equal(c.outstanding, 0);
    }
    assert_true(n_ok > 10); /* it did fail a good many times first */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quad_with_u_along_x_has_tangent_x_and_w_plus_one),
        cmocka_unit_test(quad_with_mirrored_u_has_tangent_minus_x_and_w_minus_one),
        cmocka_unit_test(mirrored_halves_split_the_shared_vertices),
        cmocka_unit_test(cube_faces_get_their_u_direction),
        cmocka_unit_test(sphere_tangents_follow_longitude),
        cmocka_unit_test(large_fan_centre_gets_the_common_tangent),
        cmocka_unit_test(degenerate_triangles_and_uvs_give_finite_perpendicular_tangents),
        cmocka_unit_test(non_finite_inputs_give_finite_tangents),
        cmocka_unit_test(random_meshes_give_valid_results),
        cmocka_unit_test(empty_mesh_is_fine),
        cmocka_unit_test(bad_indices_are_errors),
        cmocka_unit_test(every_failed_allocation_is_an_error_without_leaks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
