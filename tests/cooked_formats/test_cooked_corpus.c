/* test_cooked_corpus.c — corpus models cooked into materials and a scene and read back: every
 * material's bytes give back what was built (and the source's factors, samplers and texture
 * transforms); every scene lists each node reachable from the roots exactly once, parents
 * before children, subtrees contiguous, local transforms bit-equal to the source's and world
 * matrices recomputed from the cooked parents equal to the importer's; a synthetic root exactly
 * when the source has several roots; one clip per animation; mesh references by the labels'
 * ids. Skipped (77) without the corpus. */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/material_ext.h"
#include "core/alloc.h"
#include "kiln/kiln_format.h"
#include "kiln/kiln_scene.h"
#include "process/material.h"
#include "process/scene_cook.h"
#include "write/material_write.h"
#include "write/scene_write.h"

#define GUID "fedcba9876543210fedcba9876543210"
#define NONE KILN_COOKED_NONE

static const char *const models[] = {
    "gltf/Fox/glTF/Fox.gltf",
    "gltf/BoxAnimated/glTF/BoxAnimated.gltf",
    "gltf/OrientationTest/glTF/OrientationTest.gltf",
    "gltf/Cameras/glTF/Cameras.gltf",
    "gltf/TextureTransformTest/glTF/TextureTransformTest.gltf",
};

static kiln_scene *load(const char *rel)
{
    char *path = kt_corpus_path(rel);
    if (!path) {
        print_message("no corpus: skipped\n");
        exit(77);
    }
    kiln_scene_opts opts = {0};
    opts.flags = KILN_SCENE_LOAD_NO_PIXELS;
    kiln_scene *scene = NULL;
    kiln_error err;
    if (kiln_scene_load(path, &opts, &scene, &err) != KILN_OK) fail_msg("%s: %s", rel, err.message);
    free(path);
    return scene;
}

static void mat4_mul(const float *a, const float *b, float *out)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += (double)a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = (float)s;
        }
}

static void check_materials(const kiln_scene *scene, const char *rel)
{
    for (int32_t i = 0; i < (int32_t)scene->material_count; i++) {
        const kiln_scene_material *src = &scene->materials[i];
        uint64_t ids[KILN_SCENE_SLOT_COUNT] = {0};
        for (int s = 0; s < KILN_SCENE_SLOT_COUNT; s++) {
            int32_t t = src->textures[s].texture;
            if (t >= 0 && scene->textures[t].image >= 0) {
                char label[64];
                snprintf(label, sizeof label, "image%d", (int)scene->textures[t].image);
                ids[s] = kiln_asset_id(GUID, label);
            }
        }
        kiln_cooked_material m;
        kiln_error err;
        if (kiln_material_build(scene, i, ids, &m, &err) != KILN_OK)
            fail_msg("%s material %d: %s", rel, (int)i, err.message);
        uint8_t *bytes;
        size_t size;
        if (kiln_material_write(&m, NULL, &bytes, &size, &err) != KILN_OK)
            fail_msg("%s material %d: %s", rel, (int)i, err.message);
        kiln_material_view v;
        assert_int_equal(kiln_material_read(bytes, size, 0, &v, &err), KILN_OK);
        const kiln_material *r = &v.material;
        assert_string_equal(r->name, src->name ? src->name : "");
        assert_memory_equal(r->base_color, src->base_color, sizeof r->base_color);
        assert_true(r->metallic == src->metallic && r->roughness == src->roughness);
        assert_memory_equal(r->emissive, src->emissive, sizeof r->emissive);
        assert_true(r->emissive_strength == src->emissive_strength);
        assert_int_equal(r->alpha_mode, src->alpha_mode);
        assert_true(r->alpha_cutoff == src->alpha_cutoff);
        assert_int_equal(r->double_sided, src->double_sided);
        /* the extensions: every bit, and each factor of those present, as the source had them */
        uint32_t bits = src->ext.present | (src->unlit ? KILN_MATERIAL_EXT_UNLIT : 0);
        assert_int_equal(r->ext.present, bits);
        assert_int_equal(r->unlit, src->unlit);
        kiln_material_ext def;
        kiln_material_ext_defaults(&def);
        for (size_t k = 0; k < kiln_material_ext_field_count; k++) {
            const kiln_material_ext_field *f = &kiln_material_ext_fields[k];
            const float *want_ext = kiln_material_ext_get(bits & f->bit ? &src->ext : &def, f);
            assert_memory_equal(kiln_material_ext_get(&r->ext, f), want_ext, 4 * f->count);
        }
        for (int s = 0; s < KILN_SCENE_SLOT_COUNT; s++) {
            const kiln_material_texture *t = s < KILN_MATERIAL_SLOT_COUNT
                                                 ? &r->textures[s]
                                                 : &r->ext_textures[s - KILN_MATERIAL_SLOT_COUNT];
            const kiln_scene_texture_ref *ref = &src->textures[s];
            assert_true(t->image == ids[s]);
            if (!ids[s]) continue;
            assert_int_equal(t->texcoord, ref->texcoord);
            assert_int_equal(t->has_transform, ref->has_transform);
            if (ref->has_transform) {
                assert_memory_equal(t->offset, ref->offset, sizeof t->offset);
                assert_true(t->rotation == ref->rotation);
                assert_memory_equal(t->scale, ref->uv_scale, sizeof t->scale);
            }
            float want[6];
            kiln_material_transform_matrix(t->offset, t->rotation, t->scale, want);
            assert_memory_equal(t->matrix, want, sizeof want);
            int32_t smp = scene->textures[ref->texture].sampler;
            if (smp >= 0) {
                assert_int_equal(t->wrap_s, scene->samplers[smp].wrap_s);
                assert_int_equal(t->wrap_t, scene->samplers[smp].wrap_t);
                assert_int_equal(t->mag_filter, scene->samplers[smp].mag_filter);
                assert_int_equal(t->mipmaps, scene->samplers[smp].mipmaps);
            }
        }
        kiln_free(NULL, bytes, size);
    }
}

/* Nodes reachable from the roots (each once: the importer refuses cycles and shared children). */
static uint32_t reachable(const kiln_scene *scene)
{
    uint32_t count = 0, top = 0;
    uint32_t *stack = malloc((scene->node_count + 1) * sizeof *stack);
    for (uint32_t i = 0; i < scene->root_count; i++) stack[top++] = scene->roots[i];
    while (top) {
        const kiln_scene_node *n = &scene->nodes[stack[--top]];
        count++;
        for (uint32_t c = 0; c < n->child_count; c++) stack[top++] = n->children[c];
    }
    free(stack);
    return count;
}

static void check_scene(const kiln_scene *scene, const char *rel)
{
    kiln_cooked_scene_ids ids = {0};
    ids.guid = GUID;
    kiln_cooked_scene s;
    kiln_error err;
    if (kiln_cooked_scene_build(scene, &ids, NULL, &s, &err) != KILN_OK)
        fail_msg("%s: %s", rel, err.message);
    uint8_t *bytes;
    size_t size;
    if (kiln_cooked_scene_write(&s, NULL, &bytes, &size, &err) != KILN_OK)
        fail_msg("%s: %s", rel, err.message);
    kiln_cooked_scene_view v;
    assert_int_equal(kiln_cooked_scene_read(bytes, size, 0, &v, &err), KILN_OK);
    bool synthetic = scene->root_count > 1;
    assert_int_equal((v.flags & KILN_COOKED_SCENE_SYNTHETIC_ROOT) != 0, synthetic);
    assert_int_equal(v.node_count, reachable(scene) + (synthetic ? 1 : 0));
    assert_int_equal(v.clip_count, scene->animation_count);
    uint8_t *seen = calloc(scene->node_count + 1, 1);
    float *world = malloc((size_t)(v.node_count + 1) * 16 * sizeof *world);
    double worst = 0;
    for (uint32_t i = 0; i < v.node_count; i++) {
        kiln_cooked_node n = kiln_cooked_scene_node(&v, i);
        assert_true(i == 0 ? n.parent == NONE : n.parent < i); /* parents before children */
        if (n.flags & KILN_COOKED_NODE_SYNTHETIC) {
            assert_int_equal(i, 0);
            assert_memory_equal(n.name, v.name, v.name_size);
            memcpy(world, n.matrix, 16 * sizeof *world);
            continue;
        }
        const kiln_scene_node *src = &scene->nodes[n.source_node];
        assert_false(seen[n.source_node]);
        seen[n.source_node] = 1;
        assert_string_equal(n.name, src->name ? src->name : "");
        /* Local transforms are the source's, bit for bit. */
        assert_memory_equal(n.translation, src->translation, sizeof n.translation);
        assert_memory_equal(n.rotation, src->rotation, sizeof n.rotation);
        assert_memory_equal(n.scale, src->scale, sizeof n.scale);
        assert_memory_equal(n.matrix, src->matrix, sizeof n.matrix);
        /* The cooked parent is the source parent (or the synthetic root for a source root). */
        if (src->parent >= 0) {
            assert_true(n.parent != NONE);
            assert_int_equal(kiln_cooked_scene_node(&v, n.parent).source_node,
                             (uint32_t)src->parent);
        } else {
            assert_int_equal(n.parent, synthetic ? 0 : NONE);
        }
        /* World matrices from the cooked tree equal the importer's. */
        if (n.parent == NONE) memcpy(world + 16 * (size_t)i, n.matrix, 16 * sizeof *world);
        else mat4_mul(world + 16 * (size_t)n.parent, n.matrix, world + 16 * (size_t)i);
        for (int k = 0; k < 16; k++) {
            double d = fabs((double)world[16 * (size_t)i + k] - src->world[k]);
            double scale = fmax(1.0, fabs(src->world[k]));
            if (d / scale > worst) worst = d / scale;
        }
        /* Subtrees: every node in (i, subtree_end) has an ancestor chain through i. */
        for (uint32_t j = i + 1; j < n.subtree_end; j++) {
            uint32_t x = kiln_cooked_scene_node(&v, j).parent;
            while (x != NONE && x > i) x = kiln_cooked_scene_node(&v, x).parent;
            assert_int_equal(x, i);
        }
        if (src->mesh >= 0) {
            const kiln_scene_mesh *m = &scene->meshes[src->mesh];
            assert_int_equal(n.mesh, (uint32_t)src->mesh);
            assert_int_equal(n.primitive_count, m->primitive_count);
            for (uint32_t p = 0; p < m->primitive_count; p++) {
                char label[64];
                snprintf(label, sizeof label, "mesh%d/prim%u", (int)src->mesh, p);
                assert_true(kiln_cooked_scene_primitive(&v, n.first_primitive + p) ==
                            kiln_asset_id(GUID, label));
            }
        } else {
            assert_int_equal(n.mesh, NONE);
        }
        if (src->skin >= 0) {
            char label[32];
            snprintf(label, sizeof label, "skeleton%d", (int)src->skin);
            assert_true(n.skeleton == kiln_asset_id(GUID, label));
        }
        if (src->camera >= 0) {
            kiln_cooked_camera c = kiln_cooked_scene_camera(&v, n.camera);
            const kiln_scene_camera *sc = &scene->cameras[src->camera];
            assert_int_equal(c.source_camera, (uint32_t)src->camera);
            assert_true(c.type == (uint32_t)sc->type && c.yfov == sc->yfov &&
                        c.znear == sc->znear && c.zfar == sc->zfar && c.xmag == sc->xmag &&
                        c.ymag == sc->ymag);
        }
    }
    print_message("%s: %u nodes%s, %u primitives, %u cameras, %u clips, %zu bytes; world "
                  "matrices within %.2g (relative)\n",
                  rel, v.node_count, synthetic ? " (synthetic root)" : "", v.primitive_count,
                  v.camera_count, v.clip_count, size, worst);
    assert_true(worst < 1e-5);
    free(seen);
    free(world);
    kiln_free(NULL, bytes, size);
    kiln_cooked_scene_free(&s);
}

static void corpus_models_cook_and_read_back(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        kiln_scene *scene = load(models[i]);
        check_materials(scene, models[i]);
        check_scene(scene, models[i]);
        kiln_scene_free(scene);
    }
}

/* TextureTransformTest: the rotation quad's 22.5 degrees and the scale quad's 1.5 survive, and
 * the matrix turns as renderers do (u' = cos u + sin v). */
static void texture_transform_test_keeps_its_transforms(void **state)
{
    (void)state;
    kiln_scene *scene = load("gltf/TextureTransformTest/glTF/TextureTransformTest.gltf");
    int rotated = 0, scaled = 0;
    for (uint32_t i = 0; i < scene->material_count; i++) {
        uint64_t ids[KILN_SCENE_SLOT_COUNT] = {1};
        if (scene->materials[i].textures[0].texture < 0) continue;
        kiln_cooked_material m;
        kiln_error err;
        assert_int_equal(kiln_material_build(scene, (int32_t)i, ids, &m, &err), KILN_OK);
        const kiln_material_texture *t = &m.textures[0];
        if (fabsf(t->rotation - 0.392699f) < 1e-6f && t->scale[0] == 1.0f) {
            rotated++;
            assert_true(fabsf(t->matrix[0] - cosf(0.392699f)) < 1e-6f);
            assert_true(fabsf(t->matrix[2] - sinf(0.392699f)) < 1e-6f);
            assert_true(fabsf(t->matrix[1] + sinf(0.392699f)) < 1e-6f);
        }
        if (t->scale[0] == 1.5f && t->rotation == 0.0f) {
            scaled++;
            assert_true(t->matrix[0] == 1.5f && t->matrix[3] == 1.5f);
        }
    }
    assert_true(rotated >= 1);
    assert_true(scaled >= 1);
    kiln_scene_free(scene);
}

int main(void)
{
    kt_require_corpus();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_models_cook_and_read_back),
        cmocka_unit_test(texture_transform_test_keeps_its_transforms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
