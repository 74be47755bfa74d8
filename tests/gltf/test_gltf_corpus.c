/* test_gltf_corpus.c — the glTF importer on the Khronos samples and the assimp test files of
 * the third-party corpus. Skips (77) when the corpus is absent. */
#include "support.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kiln/kiln_scene.h"
#include "scene_compare.h"

static const uint32_t fast_flags = KILN_SCENE_LOAD_NO_PIXELS;

static kiln_scene *load_flags(const char *rel, uint32_t flags)
{
    char *path = kt_corpus_path(rel);
    assert_non_null(path);
    kiln_scene_opts opts = {sizeof opts, flags, 0, {0}};
    kiln_scene *s = NULL;
    kiln_error err;
    kiln_result r = kiln_scene_load(path, &opts, &s, &err);
    if (r != KILN_OK)
        fail_msg("%s: %s: %s (%s)", rel, kiln_result_name(r), err.message, err.json_pointer);
    free(path);
    ks_check_invariants(s, rel);
    return s;
}

static kiln_scene *load(const char *rel) { return load_flags(rel, fast_flags); }

static void expect_failure(const char *rel, kiln_result code, const char *pointer,
                           const char *fragment)
{
    char *path = kt_corpus_path(rel);
    kiln_scene *s = (kiln_scene *)1;
    kiln_error err;
    kiln_result r = kiln_scene_load(path, NULL, &s, &err);
    print_message("%s -> %s: %s\n", rel, kiln_result_name(r), err.message);
    assert_int_equal(r, code);
    assert_null(s);
    assert_string_equal(err.json_pointer, pointer);
    if (!strstr(err.message, fragment))
        fail_msg("%s: \"%s\" lacks \"%s\"", rel, err.message, fragment);
    free(path);
}

/* ---- every file ------------------------------------------------------------------------------ */

typedef struct walk {
    char **paths;
    size_t count;
} walk;

/* The deliberately broken files and what kiln must say about them. */
static const struct {
    const char *suffix;
    kiln_result code;
    const char *pointer;
    const char *fragment;
} broken[] = {
    {"assimp-IndexOutOfRange/glTF/IndexOutOfRange.gltf", KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/indices", "is not below the vertex count 24"},
    {"assimp-IndexOutOfRange/glTF/AllIndicesOutOfRange.gltf", KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/indices", "is not below the vertex count 24"},
    {"assimp-RecursiveNodes/glTF/RecursiveNodes.gltf", KILN_E_IMPORT_FAILED, "/nodes/0", "cycle"},
    {"assimp-TestNoRootNode/glTF/NoScene.gltf", KILN_E_IMPORT_FAILED, "/scene",
     "array the file does not have"},
};

static void every_model_imports(void **state)
{
    (void)state;
    char *root = kt_corpus_path("gltf");
    walk w;
    w.paths = kt_gltf_files(root, &w.count);
    assert_true(w.count >= 70);
    size_t ok = 0, failed = 0;
    for (size_t i = 0; i < w.count; i++) {
        const char *rel = w.paths[i] + strlen(root) + 1;
        int expected = -1;
        for (size_t k = 0; k < sizeof broken / sizeof broken[0]; k++)
            if (strcmp(rel, broken[k].suffix) == 0) expected = (int)k;
        kiln_scene *s = NULL;
        kiln_error err;
        kiln_scene_opts opts = {sizeof opts, fast_flags, 0, {0}};
        kiln_result r = kiln_scene_load(w.paths[i], &opts, &s, &err);
        if (expected >= 0) {
            if (r != broken[expected].code || strcmp(err.json_pointer, broken[expected].pointer) ||
                !strstr(err.message, broken[expected].fragment))
                fail_msg("%s: expected %s at %s, got %s: %s (%s)", rel,
                         kiln_result_name(broken[expected].code), broken[expected].pointer,
                         kiln_result_name(r), err.message, err.json_pointer);
            failed++;
            continue;
        }
        if (r != KILN_OK)
            fail_msg("%s: %s: %s (%s)", rel, kiln_result_name(r), err.message, err.json_pointer);
        ks_check_invariants(s, rel);
        print_message("%-60s %4u nodes %6llu vertices %7llu triangles %2u warnings\n", rel,
                      s->node_count, (unsigned long long)s->stats.vertices,
                      (unsigned long long)s->stats.triangles, s->warning_count);
        kiln_scene_free(s);
        ok++;
    }
    print_message("%zu imported, %zu refused as expected\n", ok, failed);
    assert_int_equal(failed, sizeof broken / sizeof broken[0]);
    kt_paths_free(w.paths, w.count);
    free(root);
}

static void broken_files_fail_with_pointer(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof broken / sizeof broken[0]; k++) {
        char *rel = kt_format("gltf/%s", broken[k].suffix);
        expect_failure(rel, broken[k].code, broken[k].pointer, broken[k].fragment);
        free(rel);
    }
}

static void infinite_positions_are_sanitised(void **state)
{
    (void)state;
    kiln_scene *s = load("gltf/assimp-BoxWithInfinites/glTF-Binary/BoxWithInfinites.glb");
    const kiln_scene_primitive *p = &s->meshes[0].primitives[0];
    assert_true(p->flags & KILN_SCENE_PRIM_POSITIONS_SANITIZED);
    assert_true(s->warning_count >= 1);
    assert_non_null(strstr(s->warnings[0], "NaN or infinite"));
    kiln_scene_free(s);
}

static void scene_without_nodes_is_empty(void **state)
{
    (void)state;
    kiln_scene *s = load("gltf/assimp-TestNoRootNode/glTF/SceneWithoutNodes.gltf");
    assert_int_equal(s->node_count, 0);
    assert_int_equal(s->root_count, 0);
    assert_false(s->has_bounds);
    kiln_scene_free(s);
}

/* ---- features ------------------------------------------------------------------------------- */

static void sparse_accessor_values(void **state)
{
    (void)state;
    kiln_scene *s = load("gltf/SimpleSparseAccessor/glTF/SimpleSparseAccessor.gltf");
    const kiln_scene_primitive *p = &s->meshes[0].primitives[0];
    assert_int_equal(p->vertex_count, 14);
    /* A 7 x 2 grid (x = 0..6, y = 0/1); the sparse part moves vertices 8, 10 and 12 up. */
    for (uint32_t v = 0; v < 14; v++) {
        float x = (float)(v % 7), y = (float)(v / 7);
        if (v == 8) x = 1, y = 2;
        if (v == 10) x = 3, y = 3;
        if (v == 12) x = 5, y = 4;
        assert_float_equal(p->positions[v * 3], x, 0);
        assert_float_equal(p->positions[v * 3 + 1], y, 0);
        assert_float_equal(p->positions[v * 3 + 2], 0, 0);
    }
    assert_float_equal(p->bounds_max[1], 4, 0);
    kiln_scene_free(s);
}

static void texture_transforms(void **state)
{
    (void)state;
    kiln_scene *s = load("gltf/TextureTransformTest/glTF/TextureTransformTest.gltf");
    const struct {
        const char *name;
        float ox, oy, rot, sx, sy;
    } want[] = {
        {"Offset U", 0.5f, 0, 0, 1, 1},     {"Offset V", 0, 0.5f, 0, 1, 1},
        {"Offset UV", 0.5f, 0.5f, 0, 1, 1}, {"Rotation", 0, 0, 0.39269908f, 1, 1},
        {"Scale", 0, 0, 0, 1.5f, 1.5f},     {"All", -0.2f, -0.1f, 0.3f, 1.5f, 1.5f},
    };
    size_t found = 0;
    for (uint32_t i = 0; i < s->material_count; i++)
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
            if (strcmp(s->materials[i].name, want[k].name) != 0) continue;
            const kiln_scene_texture_ref *t = &s->materials[i].textures[KILN_SCENE_SLOT_BASE_COLOR];
            assert_true(t->has_transform);
            assert_float_equal(t->offset[0], want[k].ox, 1e-6);
            assert_float_equal(t->offset[1], want[k].oy, 1e-6);
            assert_float_equal(t->rotation, want[k].rot, 1e-6);
            assert_float_equal(t->uv_scale[0], want[k].sx, 1e-6);
            assert_float_equal(t->uv_scale[1], want[k].sy, 1e-6);
            found++;
        }
    assert_int_equal(found, 6);
    for (uint32_t i = 0; i < s->material_count; i++)
        if (strcmp(s->materials[i].name, "Correct") == 0)
            assert_false(s->materials[i].textures[KILN_SCENE_SLOT_BASE_COLOR].has_transform);
    kiln_scene_free(s);
}

static void emissive_strength(void **state)
{
    (void)state;
    const char *files[] = {"gltf/EmissiveStrengthTest/glTF/EmissiveStrengthTest.gltf",
                           "gltf/EmissiveStrengthTest/glTF-Binary/EmissiveStrengthTest.glb"};
    for (int f = 0; f < 2; f++) {
        kiln_scene *s = load(files[f]);
        const struct {
            const char *name;
            float strength;
        } want[] = {{"Emit1", 1}, {"Emit2", 2}, {"Emit4", 4}, {"Emit8", 8}, {"Emit16", 16}};
        size_t found = 0;
        for (uint32_t i = 0; i < s->material_count; i++)
            for (size_t k = 0; k < 5; k++)
                if (strcmp(s->materials[i].name, want[k].name) == 0) {
                    assert_float_equal(s->materials[i].emissive_strength, want[k].strength, 0);
                    assert_float_equal(s->materials[i].emissive[0], 0.1f, 1e-7);
                    assert_float_equal(s->materials[i].emissive[2], 0.9f, 1e-7);
                    found++;
                }
        assert_int_equal(found, 5);
        kiln_scene_free(s);
    }
}

static void interpolation_modes(void **state)
{
    (void)state;
    kiln_scene *s = load("gltf/InterpolationTest/glTF/InterpolationTest.gltf");
    assert_int_equal(s->animation_count, 9);
    int seen[3][3] = {{0}};
    for (uint32_t a = 0; a < s->animation_count; a++) {
        const kiln_scene_animation *an = &s->animations[a];
        assert_int_equal(an->channel_count, 1);
        const kiln_scene_channel *ch = &an->channels[0];
        kiln_scene_interp want = strstr(an->name, "Step")     ? KILN_SCENE_INTERP_STEP
                                 : strstr(an->name, "Linear") ? KILN_SCENE_INTERP_LINEAR
                                                              : KILN_SCENE_INTERP_CUBICSPLINE;
        kiln_scene_path path = strstr(an->name, "Scale")      ? KILN_SCENE_PATH_SCALE
                               : strstr(an->name, "Rotation") ? KILN_SCENE_PATH_ROTATION
                                                              : KILN_SCENE_PATH_TRANSLATION;
        assert_int_equal(ch->interpolation, want);
        assert_int_equal(ch->path, path);
        assert_int_equal(ch->components, path == KILN_SCENE_PATH_ROTATION ? 4 : 3);
        assert_true(ch->key_count >= 2);
        assert_true(an->end > an->start);
        seen[want][path]++;
    }
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) assert_int_equal(seen[i][k], 1);
    kiln_scene_free(s);
}

static void skins_and_joints(void **state)
{
    (void)state;
    const struct {
        const char *file;
        uint32_t joints;
        uint32_t animations;
    } want[] = {
        {"gltf/Fox/glTF-Binary/Fox.glb", 24, 3},
        {"gltf/CesiumMan/glTF/CesiumMan.gltf", 19, 1},
        {"gltf/RiggedSimple/glTF/RiggedSimple.gltf", 2, 1},
        {"gltf/RiggedFigure/glTF/RiggedFigure.gltf", 19, 1},
        {"gltf/SimpleSkin/glTF/SimpleSkin.gltf", 2, 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        kiln_scene *s = load(want[i].file);
        assert_int_equal(s->skin_count, 1);
        assert_int_equal(s->skins[0].joint_count, want[i].joints);
        assert_int_equal(s->animation_count, want[i].animations);
        uint32_t skinned = 0;
        for (uint32_t n = 0; n < s->node_count; n++) {
            if (s->nodes[n].skin != 0) continue;
            skinned++;
            const kiln_scene_mesh *m = &s->meshes[s->nodes[n].mesh];
            for (uint32_t p = 0; p < m->primitive_count; p++) {
                const kiln_scene_primitive *pr = &m->primitives[p];
                assert_int_equal(pr->joint_set_count, 1);
                for (size_t v = 0; v < (size_t)pr->vertex_count * 4; v++)
                    assert_true(pr->weights[0][v] == 0 || pr->joints[0][v] < want[i].joints);
            }
        }
        assert_true(skinned >= 1);
        /* The inverse bind matrix of each joint undoes its bind pose: not all identity. */
        int nonidentity = 0;
        for (uint32_t j = 0; j < s->skins[0].joint_count; j++)
            nonidentity += s->skins[0].inverse_bind[j * 16 + 12] != 0 ||
                           s->skins[0].inverse_bind[j * 16 + 13] != 0 ||
                           s->skins[0].inverse_bind[j * 16 + 14] != 0;
        assert_true(nonidentity > 0);
        kiln_scene_free(s);
    }
    kiln_scene *fox = load("gltf/Fox/glTF/Fox.gltf");
    const char *names[] = {"Survey", "Walk", "Run"};
    for (int a = 0; a < 3; a++) assert_string_equal(fox->animations[a].name, names[a]);
    assert_int_equal(fox->stats.joints, 24);
    kiln_scene_free(fox);
}

static void morph_targets(void **state)
{
    (void)state;
    kiln_scene *s = load("gltf/SimpleMorph/glTF/SimpleMorph.gltf");
    const kiln_scene_mesh *m = &s->meshes[0];
    assert_int_equal(m->weight_count, 2);
    assert_float_equal(m->weights[0], 0.5f, 0);
    assert_float_equal(m->weights[1], 0.5f, 0);
    const kiln_scene_primitive *p = &m->primitives[0];
    assert_int_equal(p->target_count, 2);
    assert_non_null(p->targets[0].positions);
    assert_null(p->targets[0].normals);
    /* The accessors' declared ranges: target 0 in [-1,0]x[0,1], target 1 in [0,1]x[0,1]. */
    float lo[2][3] = {{-1, 0, 0}, {0, 0, 0}}, hi[2][3] = {{0, 1, 0}, {1, 1, 0}};
    for (int t = 0; t < 2; t++) {
        float mn[3] = {1e9f, 1e9f, 1e9f}, mx[3] = {-1e9f, -1e9f, -1e9f};
        for (uint32_t v = 0; v < 3; v++)
            for (int k = 0; k < 3; k++) {
                float x = p->targets[t].positions[v * 3 + k];
                mn[k] = fminf(mn[k], x), mx[k] = fmaxf(mx[k], x);
            }
        for (int k = 0; k < 3; k++) {
            assert_float_equal(mn[k], lo[t][k], 0);
            assert_float_equal(mx[k], hi[t][k], 0);
        }
    }
    assert_int_equal(s->animations[0].channels[0].path, KILN_SCENE_PATH_WEIGHTS);
    assert_int_equal(s->animations[0].channels[0].components, 2);
    kiln_scene_free(s);

    s = load("gltf/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf");
    p = &s->meshes[0].primitives[0];
    assert_int_equal(p->target_count, 2);
    for (int t = 0; t < 2; t++) {
        assert_non_null(p->targets[t].positions);
        assert_non_null(p->targets[t].normals);
        assert_non_null(p->targets[t].tangents);
    }
    kiln_scene_free(s);

    s = load("gltf/MorphPrimitivesTest/glTF/MorphPrimitivesTest.gltf");
    assert_int_equal(s->meshes[0].primitive_count, 2);
    for (uint32_t q = 0; q < 2; q++) assert_int_equal(s->meshes[0].primitives[q].target_count, 1);
    kiln_scene_free(s);
}

static void cameras_and_samplers(void **state)
{
    (void)state;
    kiln_scene *s = load("gltf/Cameras/glTF/Cameras.gltf");
    assert_int_equal(s->camera_count, 2);
    assert_int_equal(s->cameras[0].type, KILN_SCENE_CAMERA_PERSPECTIVE);
    assert_float_equal(s->cameras[0].yfov, 0.7f, 0);
    assert_float_equal(s->cameras[0].aspect, 1.0f, 0);
    assert_float_equal(s->cameras[0].znear, 0.01f, 0);
    assert_float_equal(s->cameras[0].zfar, 100.0f, 0);
    assert_int_equal(s->cameras[1].type, KILN_SCENE_CAMERA_ORTHOGRAPHIC);
    assert_float_equal(s->cameras[1].xmag, 1.0f, 0);
    assert_int_equal(s->nodes[1].camera, 0);
    assert_int_equal(s->nodes[2].camera, 1);
    assert_float_equal(s->nodes[1].world[14], 3.0f, 0);
    kiln_scene_free(s);

    s = load("gltf/TextureSettingsTest/glTF/TextureSettingsTest.gltf");
    int wraps[3] = {0};
    for (uint32_t i = 0; i < s->sampler_count; i++) {
        wraps[s->samplers[i].wrap_s]++;
        wraps[s->samplers[i].wrap_t]++;
    }
    for (int k = 0; k < 3; k++) assert_true(wraps[k] > 0); /* repeat, clamp and mirror all seen */
    int sided[2] = {0};
    for (uint32_t i = 0; i < s->material_count; i++) sided[s->materials[i].double_sided]++;
    assert_true(sided[0] > 0 && sided[1] > 0);
    kiln_scene_free(s);

    s = load("gltf/AlphaBlendModeTest/glTF/AlphaBlendModeTest.gltf");
    int modes[3] = {0};
    for (uint32_t i = 0; i < s->material_count; i++) modes[s->materials[i].alpha_mode]++;
    for (int k = 0; k < 3; k++) assert_true(modes[k] > 0);
    kiln_scene_free(s);

    s = load("gltf/MultiUVTest/glTF/MultiUVTest.gltf");
    assert_int_equal(s->meshes[0].primitives[0].texcoord_count, 2);
    int uses_uv1 = 0;
    for (int k = 0; k < KILN_SCENE_SLOT_COUNT; k++)
        uses_uv1 +=
            s->materials[0].textures[k].texture >= 0 && s->materials[0].textures[k].texcoord == 1;
    assert_true(uses_uv1 > 0);
    kiln_scene_free(s);

    s = load("gltf/VertexColorTest/glTF/VertexColorTest.gltf");
    int coloured = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++) coloured += s->meshes[m].primitives[0].color_count;
    assert_true(coloured > 0);
    kiln_scene_free(s);
}

static void primitive_modes(void **state)
{
    (void)state;
    kiln_scene *s = load("gltf/MeshPrimitiveModes/glTF/MeshPrimitiveModes.gltf");
    /* meshes 0..3 are points and lines (dropped), 4 triangles, 5 a strip, 6 a fan */
    for (int m = 0; m < 4; m++) assert_int_equal(s->meshes[m].primitive_count, 0);
    assert_int_equal(s->stats.dropped_primitives, 4);
    assert_int_equal(s->stats.primitives, 7);
    const kiln_scene_primitive *tri = &s->meshes[4].primitives[0];
    const kiln_scene_primitive *strip = &s->meshes[5].primitives[0];
    const kiln_scene_primitive *fan = &s->meshes[6].primitives[0];
    assert_int_equal(tri->mode, KILN_SCENE_MODE_TRIANGLES);
    assert_int_equal(strip->mode, KILN_SCENE_MODE_TRIANGLE_STRIP);
    assert_int_equal(fan->mode, KILN_SCENE_MODE_TRIANGLE_FAN);
    assert_int_equal(tri->index_count, 18);   /* 18 indices: 6 triangles */
    assert_int_equal(strip->index_count, 12); /* 6 indices: 4 triangles */
    assert_int_equal(fan->index_count, 18);   /* 8 indices: 6 triangles */
    assert_int_equal(s->stats.triangles, 16);
    /* Every converted triangle keeps the counter-clockwise winding the file's front faces
     * have: the samples lie in the z = 0 plane facing +z. */
    const kiln_scene_primitive *prims[3] = {tri, strip, fan};
    for (int q = 0; q < 3; q++)
        for (uint32_t t = 0; t < prims[q]->index_count; t += 3) {
            const float *a = prims[q]->positions + prims[q]->indices[t] * 3;
            const float *b = prims[q]->positions + prims[q]->indices[t + 1] * 3;
            const float *c = prims[q]->positions + prims[q]->indices[t + 2] * 3;
            float z = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
            if (!(z > 0))
                fail_msg("mode %d triangle %u winds clockwise (%g)", prims[q]->mode, t / 3,
                         (double)z);
        }
    kiln_scene_free(s);
}

static void uris_with_spaces_and_unicode(void **state)
{
    (void)state;
    kiln_scene *s = load_flags("gltf/Box With Spaces/glTF/Box With Spaces.gltf", 0);
    assert_int_equal(s->image_count, 3);
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(s->images[i].source, KILN_SCENE_IMAGE_FILE);
        assert_non_null(strchr(s->images[i].uri, ' ')); /* "Normal%20Map.png" decoded */
        assert_true(s->images[i].width > 0 && s->images[i].pixels);
    }
    assert_int_equal(s->file_count, 4); /* the .bin and three images */
    kiln_scene_free(s);
    s = load_flags("gltf/Unicode❤♻Test/glTF/Unicode❤♻Test.gltf", 0);
    assert_int_equal(s->image_count, 1);
    assert_non_null(strstr(s->images[0].uri, "❤♻"));
    assert_true(s->images[0].width > 0);
    kiln_scene_free(s);
}

static void quantized_meshopt_and_draco(void **state)
{
    (void)state;
    /* KHR_mesh_quantization: the same cube as the float version, within quantization error. */
    kiln_scene *f = load("gltf/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf");
    kiln_scene *q = load("gltf/AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.gltf");
    const kiln_scene_primitive *pf = &f->meshes[0].primitives[0];
    assert_int_equal(q->meshes[0].primitives[0].vertex_count, pf->vertex_count);
    for (int k = 0; k < 3; k++) {
        /* The quantized file scales its node instead: compare world-space bounds. */
        assert_true(q->has_bounds && f->has_bounds);
        assert_float_equal(q->bounds_min[k], f->bounds_min[k], 0.01);
        assert_float_equal(q->bounds_max[k], f->bounds_max[k], 0.01);
    }
    kiln_scene_free(f);
    kiln_scene_free(q);

    /* EXT_meshopt_compression + quantization (gltfpack's pirate): 2887 vertices, 5010
     * triangles, unit normals, and world bounds like the OBJ of the same model. */
    kiln_scene *p = load("gltf/Pirate-meshopt/glTF-Binary/pirate.glb");
    assert_int_equal(p->meshes[0].primitives[0].vertex_count, 2887);
    assert_int_equal(p->meshes[0].primitives[0].index_count, 5010 * 3);
    assert_non_null(p->meshes[0].primitives[0].normals);
    char *obj = kt_corpus_path("obj/pirate/pirate.obj");
    FILE *fp = fopen(obj, "r");
    assert_non_null(fp);
    float mn[3] = {1e9f, 1e9f, 1e9f}, mx[3] = {-1e9f, -1e9f, -1e9f};
    char line[256];
    while (fgets(line, sizeof line, fp)) {
        float v[3];
        if (sscanf(line, "v %f %f %f", &v[0], &v[1], &v[2]) == 3)
            for (int k = 0; k < 3; k++) mn[k] = fminf(mn[k], v[k]), mx[k] = fmaxf(mx[k], v[k]);
    }
    fclose(fp);
    free(obj);
    for (int k = 0; k < 3; k++) {
        float extent = mx[k] - mn[k];
        print_message("pirate axis %d: glb [%g, %g] obj [%g, %g]\n", k, (double)p->bounds_min[k],
                      (double)p->bounds_max[k], (double)mn[k], (double)mx[k]);
        assert_float_equal(p->bounds_min[k], mn[k], 0.01 * extent);
        assert_float_equal(p->bounds_max[k], mx[k], 0.01 * extent);
    }
    kiln_scene_free(p);

    /* Draco: same counts of triangles as the plain files, bounds within quantization error. */
    const char *names[] = {"Box", "CesiumMan", "RiggedSimple", "RiggedFigure",
                           "MorphPrimitivesTest"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *plain = kt_format("gltf/%s/glTF/%s.gltf", names[i], names[i]);
        char *draco = kt_format("gltf/%s/glTF-Draco/%s.gltf", names[i], names[i]);
        kiln_scene *a = load(plain), *b = load(draco);
        assert_int_equal(a->stats.triangles, b->stats.triangles);
        assert_int_equal(a->mesh_count, b->mesh_count);
        for (uint32_t m = 0; m < a->mesh_count; m++)
            for (uint32_t q2 = 0; q2 < a->meshes[m].primitive_count; q2++) {
                const kiln_scene_primitive *x = &a->meshes[m].primitives[q2];
                const kiln_scene_primitive *y = &b->meshes[m].primitives[q2];
                assert_true(y->flags & KILN_SCENE_PRIM_DRACO);
                assert_int_equal(x->index_count, y->index_count);
                assert_int_equal(x->joint_set_count, y->joint_set_count);
                assert_int_equal(x->texcoord_count, y->texcoord_count);
                assert_int_equal(x->target_count, y->target_count);
                for (int k = 0; k < 3; k++) {
                    float e = (x->bounds_max[k] - x->bounds_min[k]) * 0.01f + 1e-5f;
                    assert_float_equal(x->bounds_min[k], y->bounds_min[k], e);
                    assert_float_equal(x->bounds_max[k], y->bounds_max[k], e);
                }
            }
        kiln_scene_free(a);
        kiln_scene_free(b);
        free(plain);
        free(draco);
    }
}

static void variants_give_equal_scenes(void **state)
{
    (void)state;
    static const char *const samples[] = {"Box",
                                          "BoxInterleaved",
                                          "BoxTextured",
                                          "BoxAnimated",
                                          "Fox",
                                          "CesiumMan",
                                          "MultiUVTest",
                                          "VertexColorTest",
                                          "TextureSettingsTest",
                                          "OrientationTest",
                                          "EmissiveStrengthTest",
                                          "InterpolationTest",
                                          "MorphPrimitivesTest",
                                          "RiggedSimple",
                                          "RiggedFigure",
                                          "AnimatedMorphCube",
                                          "Unicode❤♻Test",
                                          "SimpleSkin",
                                          "SimpleMorph",
                                          "SimpleSparseAccessor",
                                          "Triangle",
                                          "TriangleWithoutIndices",
                                          "Cameras",
                                          "MeshPrimitiveModes"};
    static const char *const variants[] = {"glTF-Binary/%s.glb", "glTF-Embedded/%s.gltf"};
    size_t compared = 0;
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        char *base = kt_format("gltf/%s/glTF/%s.gltf", samples[i], samples[i]);
        kiln_scene *a = load_flags(base, 0);
        for (size_t v = 0; v < 2; v++) {
            char *tail = kt_format(variants[v], samples[i]);
            char *rel = kt_format("gltf/%s/%s", samples[i], tail);
            char *path = kt_corpus_path(rel);
            struct stat st;
            if (stat(path, &st) == 0) {
                kiln_scene *b = load_flags(rel, 0);
                char why[256];
                kiln_scene x = *a, y = *b;
                /* The embedded CesiumMan is an older export: its walk has 46 keys, not 48. */
                if (strcmp(samples[i], "CesiumMan") == 0 && v == 1) {
                    assert_int_equal(x.animation_count, y.animation_count);
                    x.animation_count = y.animation_count = 0;
                }
                if (!ks_scenes_equal(&x, &y, 0.0f, why, sizeof why))
                    fail_msg("%s vs %s: %s", base, rel, why);
                kiln_scene_free(b);
                compared++;
            }
            free(path);
            free(rel);
            free(tail);
        }
        kiln_scene_free(a);
        free(base);
    }
    print_message("%zu variant pairs equal\n", compared);
    assert_true(compared >= 30);
}

static void world_bounds_and_roots(void **state)
{
    (void)state;
    /* Box: a node matrix turns the unit cube (+-0.5) so that y and z swap. */
    kiln_scene *s = load("gltf/Box/glTF/Box.gltf");
    assert_int_equal(s->root_count, 1);
    assert_true(s->has_bounds);
    for (int k = 0; k < 3; k++) {
        assert_float_equal(s->bounds_min[k], -0.5f, 1e-6);
        assert_float_equal(s->bounds_max[k], 0.5f, 1e-6);
    }
    assert_true(s->nodes[0].has_matrix);
    kiln_scene_free(s);
    /* BoxAnimated: four nodes in a hierarchy, every world matrix the product of its chain. */
    s = load("gltf/BoxAnimated/glTF/BoxAnimated.gltf");
    for (uint32_t i = 0; i < s->node_count; i++) {
        const kiln_scene_node *n = &s->nodes[i];
        if (n->parent < 0) continue;
        const float *p = s->nodes[n->parent].world;
        for (int col = 0; col < 4; col++)
            for (int row = 0; row < 4; row++) {
                float sum = 0;
                for (int k = 0; k < 4; k++) sum += p[k * 4 + row] * n->matrix[col * 4 + k];
                assert_float_equal(n->world[col * 4 + row], sum, 1e-5);
            }
    }
    kiln_scene_free(s);
}

static void pixels_are_decoded(void **state)
{
    (void)state;
    kiln_scene *s = load_flags("gltf/BoxTextured/glTF-Binary/BoxTextured.glb", 0);
    assert_int_equal(s->image_count, 1);
    const kiln_scene_image *img = &s->images[0];
    assert_int_equal(img->source, KILN_SCENE_IMAGE_BUFFER_VIEW);
    assert_string_equal(img->mime_type, "image/png");
    assert_int_equal(img->pixel, KILN_SCENE_PIXEL_U8);
    assert_true(img->width == 256 && img->height == 256);
    kiln_scene_free(s);
    s = load_flags("gltf/DamagedHelmet/glTF/DamagedHelmet.gltf", 0);
    assert_int_equal(s->image_count, 5);
    for (uint32_t i = 0; i < 5; i++) assert_true(s->images[i].width == 2048 && s->images[i].pixels);
    kiln_scene_free(s);
}

int main(void)
{
    kt_require_corpus();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_model_imports),
        cmocka_unit_test(broken_files_fail_with_pointer),
        cmocka_unit_test(infinite_positions_are_sanitised),
        cmocka_unit_test(scene_without_nodes_is_empty),
        cmocka_unit_test(sparse_accessor_values),
        cmocka_unit_test(texture_transforms),
        cmocka_unit_test(emissive_strength),
        cmocka_unit_test(interpolation_modes),
        cmocka_unit_test(skins_and_joints),
        cmocka_unit_test(morph_targets),
        cmocka_unit_test(cameras_and_samplers),
        cmocka_unit_test(primitive_modes),
        cmocka_unit_test(uris_with_spaces_and_unicode),
        cmocka_unit_test(quantized_meshopt_and_draco),
        cmocka_unit_test(variants_give_equal_scenes),
        cmocka_unit_test(world_bounds_and_roots),
        cmocka_unit_test(pixels_are_decoded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
