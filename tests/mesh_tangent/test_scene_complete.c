/* test_scene_complete.c — kiln_scene_complete (src/process/scene_complete.c) on scenes built by
 * hand with kiln_scene_create: normals computed when absent; tangents for a normal texture with
 * every stream (texcoords, colours, joints, weights, morph deltas) copied through the vertex
 * split; missing UV sets zero-filled with a warning; the NO_NORMALS / NO_TANGENTS flags; the
 * default material; streams the file gave left alone; the memory limit and a failure loop over
 * the scene's allocations. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/scene_build.h"
#include "process/scene_complete.h"

/* The mirrored strip of test_tangent.c: two quads sharing the edge x = 1, the right one
 * mirrored in u, so vertices 1 and 4 split. */
static const float strip_pos[6 * 3] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0};
static const float strip_uv[6 * 2] = {0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0};
static const uint32_t strip_idx[12] = {0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4};

typedef struct built {
    kiln_scene *scene;
    kiln_scene_primitive *prim;
    kiln_scene_material *mat;
} built;

/* A scene with one mesh ("strip") of one primitive and one material with no textures. The
 * primitive has positions and indices (arena copies) and nothing else. */
static built build_scene(const kiln_allocator *a, size_t limit)
{
    built b;
    kiln_error e;
    if (kiln_scene_create(a, limit, &b.scene, &e) != KILN_OK) fail_msg("%s", e.message);
    kiln_arena *arena = kiln_scene_arena(b.scene);
    kiln_scene_mesh *mesh = kiln_arena_array(arena, 1, sizeof *mesh);
    kiln_scene_primitive *prims = kiln_arena_array(arena, 1, sizeof *prims);
    b.mat = kiln_arena_array(arena, 1, sizeof *b.mat);
    assert_true(mesh && prims && b.mat);
    for (int k = 0; k < KILN_SCENE_SLOT_COUNT; k++) b.mat->textures[k].texture = -1;
    b.mat->name = "mat";
    mesh->name = "strip";
    mesh->primitives = prims;
    mesh->primitive_count = 1;
    b.scene->meshes = mesh;
    b.scene->mesh_count = 1;
    b.scene->materials = b.mat;
    b.scene->material_count = 1;
    b.prim = kiln_scene_prim_mut(b.scene, 0, 0);
    b.prim->vertex_count = 6;
    b.prim->positions = kiln_arena_memdup(arena, strip_pos, sizeof strip_pos);
    b.prim->indices = kiln_arena_memdup(arena, strip_idx, sizeof strip_idx);
    b.prim->index_count = 12;
    b.prim->mode = KILN_SCENE_MODE_TRIANGLES;
    b.prim->material = 0;
    assert_true(b.prim->positions && b.prim->indices);
    return b;
}

static void set_uv(built *b, uint32_t set)
{
    b->prim->texcoords[set] =
        kiln_arena_memdup(kiln_scene_arena(b->scene), strip_uv, sizeof strip_uv);
    if (b->prim->texcoord_count < set + 1) b->prim->texcoord_count = set + 1;
}

static bool has_warning(const kiln_scene *s, const char *a, const char *b)
{
    for (uint32_t i = 0; i < s->warning_count; i++)
        if (strstr(s->warnings[i], a) && (!b || strstr(s->warnings[i], b))) return true;
    return false;
}

static void missing_normals_are_computed(void **state)
{
    (void)state;
    built b = build_scene(NULL, 0);
    kiln_error e;
    assert_int_equal(kiln_scene_complete(b.scene, 0, &e), KILN_OK);
    assert_non_null(b.prim->normals);
    assert_true(b.prim->flags & KILN_SCENE_PRIM_NORMALS_GENERATED);
    for (uint32_t v = 0; v < 6; v++) {
        assert_float_equal(b.prim->normals[v * 3 + 2], 1.0f, 1e-6);
    }
    /* No textures: no tangents, no UVs, no warnings. */
    assert_null(b.prim->tangents);
    assert_int_equal(b.prim->texcoord_count, 0);
    assert_int_equal(b.scene->warning_count, 0);
    kiln_scene_free(b.scene);
}

/* Every stream follows the split: copies 6 and 7 repeat vertices 1 and 4 everywhere. */
static void normal_texture_gets_tangents_and_every_stream_is_remapped(void **state)
{
    (void)state;
    built b = build_scene(NULL, 0);
    kiln_arena *a = kiln_scene_arena(b.scene);
    b.mat->textures[KILN_SCENE_SLOT_NORMAL].texture = 0;
    b.mat->textures[KILN_SCENE_SLOT_NORMAL].texcoord = 1;
    b.mat->textures[KILN_SCENE_SLOT_BASE_COLOR].texture = 0;
    b.mat->textures[KILN_SCENE_SLOT_BASE_COLOR].texcoord = 0;
    /* Set 0 is mirrored the other way (u = 1 - uv1.u): tangents must come from set 1. */
    float uv0[12], col[24], w[24], d[18];
    uint16_t j[24];
    for (int v = 0; v < 6; v++) {
        uv0[v * 2] = 1 - strip_uv[v * 2];
        uv0[v * 2 + 1] = strip_uv[v * 2 + 1];
        for (int k = 0; k < 4; k++) {
            col[v * 4 + k] = (float)(v * 10 + k);
            w[v * 4 + k] = k == 0 ? 1.0f : 0.0f;
            j[v * 4 + k] = (uint16_t)(v + k);
        }
        for (int k = 0; k < 3; k++) d[v * 3 + k] = (float)(v * 100 + k);
    }
    b.prim->texcoords[0] = kiln_arena_memdup(a, uv0, sizeof uv0);
    set_uv(&b, 1);
    b.prim->colors[0] = kiln_arena_memdup(a, col, sizeof col);
    b.prim->color_count = 1;
    b.prim->joints[0] = kiln_arena_memdup(a, j, sizeof j);
    b.prim->weights[0] = kiln_arena_memdup(a, w, sizeof w);
    b.prim->joint_set_count = 1;
    kiln_scene_morph_target *t = kiln_arena_array(a, 2, sizeof *t);
    t[0].positions = kiln_arena_memdup(a, d, sizeof d);
    t[1].normals = kiln_arena_memdup(a, d, sizeof d);
    b.prim->targets = t;
    b.prim->target_count = 2;
    const float *old_pos = b.prim->positions;

    kiln_error e;
    assert_int_equal(kiln_scene_complete(b.scene, 0, &e), KILN_OK);
    kiln_scene_primitive *p = b.prim;
    assert_true(p->flags & KILN_SCENE_PRIM_NORMALS_GENERATED);
    assert_true(p->flags & KILN_SCENE_PRIM_TANGENTS_GENERATED);
    assert_false(p->flags & KILN_SCENE_PRIM_UV0_FILLED);
    assert_int_equal(p->vertex_count, 8);
    assert_int_equal(p->index_count, 12);
    static const uint32_t expect_idx[12] = {0, 1, 4, 0, 4, 3, 6, 2, 5, 6, 5, 7};
    assert_memory_equal(p->indices, expect_idx, sizeof expect_idx);
    static const uint32_t src[8] = {0, 1, 2, 3, 4, 5, 1, 4};
    for (uint32_t v = 0; v < 8; v++) {
        uint32_t s = src[v];
        assert_memory_equal(&p->positions[v * 3], &old_pos[s * 3], 12);
        assert_memory_equal(&p->texcoords[0][v * 2], &uv0[s * 2], 8);
        assert_memory_equal(&p->texcoords[1][v * 2], &strip_uv[s * 2], 8);
        assert_memory_equal(&p->colors[0][v * 4], &col[s * 4], 16);
        assert_memory_equal(&p->joints[0][v * 4], &j[s * 4], 8);
        assert_memory_equal(&p->weights[0][v * 4], &w[s * 4], 16);
        assert_memory_equal(&p->targets[0].positions[v * 3], &d[s * 3], 12);
        assert_memory_equal(&p->targets[1].normals[v * 3], &d[s * 3], 12);
        assert_float_equal(p->normals[v * 3 + 2], 1.0f, 1e-6);
        /* Left half (vertices 0, 1, 3, 4 as first used) +x/+1, right half -x/-1. */
        bool right = v == 2 || v == 5 || v >= 6;
        assert_float_equal(p->tangents[v * 4], right ? -1.0f : 1.0f, 1e-6);
        assert_true(p->tangents[v * 4 + 3] == (right ? -1.0f : 1.0f));
    }
    assert_null(p->targets[0].normals);
    assert_null(p->targets[1].positions);
    assert_null(p->targets[0].tangents);
    assert_null(p->colors[1]);
    assert_int_equal(b.scene->warning_count, 0);
    kiln_scene_free(b.scene);
}

static void missing_uv_sets_are_zero_filled_with_a_warning(void **state)
{
    (void)state;
    built b = build_scene(NULL, 0);
    b.mat->textures[KILN_SCENE_SLOT_EMISSIVE].texture = 0;
    b.mat->textures[KILN_SCENE_SLOT_EMISSIVE].texcoord = 1;
    b.mat->textures[KILN_SCENE_SLOT_BASE_COLOR].texture = 0; /* set 0 */
    kiln_error e;
    assert_int_equal(kiln_scene_complete(b.scene, 0, &e), KILN_OK);
    assert_true(b.prim->flags & KILN_SCENE_PRIM_UV0_FILLED);
    assert_int_equal(b.prim->texcoord_count, 2);
    for (int s = 0; s < 2; s++) {
        assert_non_null(b.prim->texcoords[s]);
        for (int i = 0; i < 12; i++) assert_true(b.prim->texcoords[s][i] == 0.0f);
    }
    assert_null(b.prim->texcoords[2]);
    assert_true(has_warning(b.scene, "mesh 0 (\"strip\") primitive 0", "TEXCOORD_0 to TEXCOORD_1"));
    kiln_scene_free(b.scene);

    /* Set 0 present, set 2 wanted: sets 1 and 2 are added, set 0 kept. */
    b = build_scene(NULL, 0);
    set_uv(&b, 0);
    const float *kept = b.prim->texcoords[0];
    b.mat->textures[KILN_SCENE_SLOT_OCCLUSION].texture = 0;
    b.mat->textures[KILN_SCENE_SLOT_OCCLUSION].texcoord = 2;
    assert_int_equal(kiln_scene_complete(b.scene, 0, &e), KILN_OK);
    assert_int_equal(b.prim->texcoord_count, 3);
    assert_ptr_equal(b.prim->texcoords[0], kept);
    assert_true(has_warning(b.scene, "TEXCOORD_1 to TEXCOORD_2", "occlusion"));
    kiln_scene_free(b.scene);

    /* A set kiln cannot keep is a warning, not a fill. */
    b = build_scene(NULL, 0);
    b.mat->textures[KILN_SCENE_SLOT_BASE_COLOR].texture = 0;
    b.mat->textures[KILN_SCENE_SLOT_BASE_COLOR].texcoord = 7;
    assert_int_equal(kiln_scene_complete(b.scene, 0, &e), KILN_OK);
    assert_int_equal(b.prim->texcoord_count, 0);
    assert_true(has_warning(b.scene, "TEXCOORD_7", "base colour"));
    kiln_scene_free(b.scene);
}

/* A normal texture on a primitive without UVs: set 0 is zero-filled, and the tangents (no uv
 * area anywhere) fall back to unit vectors perpendicular to the normal. */
static void normal_texture_without_uvs_gets_filled_uvs_and_fallback_tangents(void **state)
{
    (void)state;
    built b = build_scene(NULL, 0);
    b.mat->textures[KILN_SCENE_SLOT_NORMAL].texture = 0;
    kiln_error e;
    assert_int_equal(kiln_scene_complete(b.scene, 0, &e), KILN_OK);
    kiln_scene_primitive *p = b.prim;
    assert_true(p->flags & KILN_SCENE_PRIM_UV0_FILLED);
    assert_true(p->flags & KILN_SCENE_PRIM_TANGENTS_GENERATED);
    assert_int_equal(p->vertex_count, 6);
    for (uint32_t v = 0; v < p->vertex_count; v++) {
        const float *t = &p->tangents[v * 4];
        assert_float_equal(t[0], 1.0f, 1e-6); /* x, perpendicular to +z */
        assert_float_equal(t[2], 0.0f, 1e-6);
        assert_true(t[3] == 1.0f);
    }
    assert_true(has_warning(b.scene, "no TEXCOORD_0 for the normal texture", NULL));
    kiln_scene_free(b.scene);
}

static void flags_turn_off_normals_and_tangents(void **state)
{
    (void)state;
    kiln_error e;
    built b = build_scene(NULL, 0);
    b.mat->textures[KILN_SCENE_SLOT_NORMAL].texture = 0;
    set_uv(&b, 0);
    assert_int_equal(kiln_scene_complete(b.scene, KILN_SCENE_LOAD_NO_TANGENTS, &e), KILN_OK);
    assert_non_null(b.prim->normals);
    assert_null(b.prim->tangents);
    assert_int_equal(b.prim->vertex_count, 6);
    kiln_scene_free(b.scene);

    b = build_scene(NULL, 0);
    b.mat->textures[KILN_SCENE_SLOT_NORMAL].texture = 0;
    set_uv(&b, 0);
    assert_int_equal(kiln_scene_complete(b.scene, KILN_SCENE_LOAD_NO_NORMALS, &e), KILN_OK);
    assert_null(b.prim->normals);
    assert_null(b.prim->tangents); /* MikkTSpace needs normals */
    assert_int_equal(b.prim->flags, 0);
    assert_true(has_warning(b.scene, "mesh 0 (\"strip\") primitive 0: no normals", NULL));
    kiln_scene_free(b.scene);
}

static void default_material_and_given_streams_are_left_alone(void **state)
{
    (void)state;
    kiln_error e;
    built b = build_scene(NULL, 0);
    b.prim->material = -1;
    assert_int_equal(kiln_scene_complete(b.scene, 0, &e), KILN_OK);
    assert_int_equal(b.prim->flags, KILN_SCENE_PRIM_NORMALS_GENERATED);
    assert_null(b.prim->tangents);
    kiln_scene_free(b.scene);

    /* Normals and tangents from the file stay as they are, even with a normal texture. */
    b = build_scene(NULL, 0);
    b.mat->textures[KILN_SCENE_SLOT_NORMAL].texture = 0;
    set_uv(&b, 0);
    float n[18], t[24];
    for (int v = 0; v < 6; v++) {
        n[v * 3] = 0, n[v * 3 + 1] = 0, n[v * 3 + 2] = 1;
        t[v * 4] = 0, t[v * 4 + 1] = 1, t[v * 4 + 2] = 0, t[v * 4 + 3] = 1;
    }
    b.prim->normals = n;
    b.prim->tangents = t;
    const uint32_t *idx = b.prim->indices;
    assert_int_equal(kiln_scene_complete(b.scene, 0, &e), KILN_OK);
    assert_ptr_equal(b.prim->normals, n);
    assert_ptr_equal(b.prim->tangents, t);
    assert_ptr_equal(b.prim->indices, idx);
    assert_int_equal(b.prim->flags, 0);
    kiln_scene_free(b.scene);
}

/* 100k vertices' normals (1.2 MB) do not fit a 1 MiB scene: E_LIMIT naming the primitive. */
static void the_memory_limit_is_an_error_naming_the_primitive(void **state)
{
    (void)state;
    built b = build_scene(NULL, (size_t)1 << 20);
    enum { N = 100000 };
    float *pos = calloc(N * 3, sizeof *pos);
    assert_non_null(pos);
    b.prim->positions = pos; /* outside the arena: only what complete adds counts */
    b.prim->vertex_count = N;
    kiln_error e;
    assert_int_equal(kiln_scene_complete(b.scene, 0, &e), KILN_E_LIMIT);
    assert_non_null(strstr(e.message, "mesh 0 primitive 0"));
    kiln_scene_free(b.scene);
    free(pos);
}

typedef struct counting {
    long calls, fail_at, outstanding;
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
    (void)old_size;
    if (c->calls++ == c->fail_at) return NULL;
    return realloc(ptr, new_size);
}

static void c_free(void *user, void *ptr, size_t size)
{
    counting *c = user;
    (void)size;
    c->outstanding--;
    free(ptr);
}

/* Fails each allocation of kiln_scene_complete in turn (the arena's blocks and the tangent
 * generator's temporaries both come from the scene's allocator): always an error, never a
 * leak, until the run that needs no failure. The streams are big enough to need new blocks. */
static void every_failed_allocation_is_an_error_without_leaks(void **state)
{
    (void)state;
    enum { N = 20000 };
    float *pos = malloc(N * 3 * sizeof *pos), *uv = malloc(N * 2 * sizeof *uv);
    uint32_t *idx = malloc((N - 2) * 3 * sizeof *idx);
    assert_true(pos && uv && idx);
    for (uint32_t v = 0; v < N; v++) { /* a zig-zag strip, u mirrored every other column */
        pos[v * 3] = (float)(v / 2);
        pos[v * 3 + 1] = (float)(v % 2);
        pos[v * 3 + 2] = 0;
        uv[v * 2] = (float)((v / 2) % 2);
        uv[v * 2 + 1] = (float)(v % 2);
    }
    for (uint32_t t = 0; t < N - 2; t++) {
        idx[t * 3] = t;
        idx[t * 3 + 1] = t % 2 ? t + 2 : t + 1;
        idx[t * 3 + 2] = t % 2 ? t + 1 : t + 2;
    }
    bool succeeded = false;
    long failures = 0;
    for (long fail = 0; fail < 200 && !succeeded; fail++) {
        counting c = {.fail_at = -1};
        kiln_allocator a = {c_alloc, c_realloc, c_free, &c};
        built b = build_scene(&a, 0);
        b.mat->textures[KILN_SCENE_SLOT_NORMAL].texture = 0;
        b.prim->positions = pos;
        b.prim->texcoords[0] = uv;
        b.prim->texcoord_count = 1;
        b.prim->indices = idx;
        b.prim->index_count = (N - 2) * 3;
        b.prim->vertex_count = N;
        c.fail_at = c.calls + fail;
        kiln_error e;
        kiln_result r = kiln_scene_complete(b.scene, 0, &e);
        if (r == KILN_OK) {
            succeeded = true;
            failures = fail;
            assert_true(b.prim->flags & KILN_SCENE_PRIM_TANGENTS_GENERATED);
            assert_true(b.prim->vertex_count > N);
        } else {
            assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
            assert_non_null(strstr(e.message, "mesh 0 primitive 0"));
        }
        kiln_scene_free(b.scene);
        assert_int_equal(c.outstanding, 0);
    }
    assert_true(succeeded);
    assert_true(failures > 10); /* normals, UVs, tangent temporaries, every remapped stream */
    free(pos);
    free(uv);
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(missing_normals_are_computed),
        cmocka_unit_test(normal_texture_gets_tangents_and_every_stream_is_remapped),
        cmocka_unit_test(missing_uv_sets_are_zero_filled_with_a_warning),
        cmocka_unit_test(normal_texture_without_uvs_gets_filled_uvs_and_fallback_tangents),
        cmocka_unit_test(flags_turn_off_normals_and_tangents),
        cmocka_unit_test(default_material_and_given_streams_are_left_alone),
        cmocka_unit_test(the_memory_limit_is_an_error_naming_the_primitive),
        cmocka_unit_test(every_failed_allocation_is_an_error_without_leaks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
