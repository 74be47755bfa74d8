/* test_gltf_out_material.c — kiln_gltf_export of tests/material_ext/all_extensions.gltf (every
 * ratified KHR_materials_* extension with textures, KHR_materials_variants,
 * EXT_mesh_gpu_instancing, extras on materials, meshes and nodes) as .glb and .gltf, plain,
 * quantized and quantized + meshopt-compressed. kiln's importer reads each output back to the
 * source's values: every factor of the extension tables, every texture slot (image bytes, UV
 * set, sampler, KHR_texture_transform), the variants and each primitive's mappings, the extras
 * texts, and the instances (arrays equal when positions stay float; in every output each instance
 * puts the mesh's box corners where the source puts them). Khronos' glTF Validator finds 0 errors
 * in every output (skipped without node or tests/node's gltf-validator). The corpus SheenCloth
 * keeps its sheen through kiln gltf. */
#define _GNU_SOURCE
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/material_ext.h"
#include "kiln/kiln.h"
#include "write/gltf_out_json.h"

static kiln_scene *load(const char *path)
{
    kiln_scene_opts o = {sizeof o,
                         KILN_SCENE_LOAD_NO_PIXELS | KILN_SCENE_LOAD_NO_NORMALS |
                             KILN_SCENE_LOAD_NO_TANGENTS,
                         0,
                         {0}};
    kiln_scene *sc = NULL;
    kiln_error err;
    kiln_result r = kiln_scene_load(path, &o, &sc, &err);
    if (r != KILN_OK) fail_msg("%s: %s: %s", path, kiln_result_name(r), err.message);
    return sc;
}

static void export_to(const char *in, const char *out, bool quantize, bool compress)
{
    kiln_gltf_opts o = {0};
    o.struct_size = sizeof o;
    o.quantize = quantize;
    o.compress = compress;
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_gltf_export(in, out, &o, &doc, &err);
    if (r != KILN_OK) fail_msg("%s: %s: %s", out, kiln_result_name(r), err.message);
    kiln_string_free(doc);
}

static void same_text(const char *what, const char *a, const char *b)
{
    if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0))
        fail_msg("%s: \"%s\" became \"%s\"", what, a ? a : "(none)", b ? b : "(none)");
}

static const kiln_scene_image *image_of(const kiln_scene *sc, int32_t texture)
{
    assert_true(texture >= 0 && (uint32_t)texture < sc->texture_count);
    int32_t img = sc->textures[texture].image;
    assert_true(img >= 0 && (uint32_t)img < sc->image_count);
    return &sc->images[img];
}

static void same_texture(const char *what, const kiln_scene *a, const kiln_scene_texture_ref *ra,
                         const kiln_scene *b, const kiln_scene_texture_ref *rb)
{
    if ((ra->texture >= 0) != (rb->texture >= 0))
        fail_msg("%s: texture %d became %d", what, ra->texture, rb->texture);
    if (ra->texture < 0) return;
    const kiln_scene_image *ia = image_of(a, ra->texture), *ib = image_of(b, rb->texture);
    if (ia->encoded_size != ib->encoded_size ||
        memcmp(ia->encoded, ib->encoded, ia->encoded_size) != 0)
        fail_msg("%s: the image bytes differ", what);
    if (ra->texcoord != rb->texcoord)
        fail_msg("%s: texCoord %u became %u", what, ra->texcoord, rb->texcoord);
    if (ra->scale != rb->scale) fail_msg("%s: scale %g became %g", what, ra->scale, rb->scale);
    if (ra->has_transform != rb->has_transform) fail_msg("%s: the transform is lost", what);
    if (ra->has_transform && (ra->offset[0] != rb->offset[0] || ra->offset[1] != rb->offset[1] ||
                              ra->rotation != rb->rotation || ra->uv_scale[0] != rb->uv_scale[0] ||
                              ra->uv_scale[1] != rb->uv_scale[1]))
        fail_msg("%s: the transform changed", what);
    int32_t sa = a->textures[ra->texture].sampler, sb = b->textures[rb->texture].sampler;
    if ((sa >= 0) != (sb >= 0)) fail_msg("%s: the sampler is lost", what);
    if (sa >= 0) {
        const kiln_scene_sampler *x = &a->samplers[sa], *y = &b->samplers[sb];
        if (x->mag_filter != y->mag_filter || x->min_filter != y->min_filter ||
            x->mip_filter != y->mip_filter || x->mipmaps != y->mipmaps || x->wrap_s != y->wrap_s ||
            x->wrap_t != y->wrap_t)
            fail_msg("%s: the sampler changed", what);
    }
}

/* Counts the factors and textures compared, so that the test cannot pass on empty scenes. */
typedef struct counts {
    size_t factors, textures, mappings, instances, extras;
} counts;

static void same_materials(const char *what, const kiln_scene *a, const kiln_scene *b, counts *n)
{
    assert_int_equal(a->material_count, b->material_count);
    for (uint32_t m = 0; m < a->material_count; m++) {
        const kiln_scene_material *x = &a->materials[m], *y = &b->materials[m];
        char *w = kt_format("%s material %u", what, m);
        same_text(w, x->name, y->name);
        if (x->ext.present != y->ext.present)
            fail_msg("%s: extensions 0x%x became 0x%x", w, x->ext.present, y->ext.present);
        for (size_t f = 0; f < kiln_material_ext_field_count; f++) {
            const kiln_material_ext_field *fd = &kiln_material_ext_fields[f];
            const float *va = kiln_material_ext_get(&x->ext, fd),
                        *vb = kiln_material_ext_get(&y->ext, fd);
            for (uint32_t c = 0; c < fd->count; c++)
                if (va[c] != vb[c]) fail_msg("%s: %s %g became %g", w, fd->name, va[c], vb[c]);
            n->factors++;
        }
        if (x->unlit != y->unlit || x->emissive_strength != y->emissive_strength)
            fail_msg("%s: unlit or emissive strength changed", w);
        for (int s = 0; s < KILN_SCENE_SLOT_COUNT; s++) {
            char *ws = kt_format("%s slot %d", w, s);
            same_texture(ws, a, &x->textures[s], b, &y->textures[s]);
            if (x->textures[s].texture >= 0) n->textures++;
            free(ws);
        }
        same_text(w, x->extras, y->extras);
        if (x->extras) n->extras++;
        free(w);
    }
}

static void same_variants(const char *what, const kiln_scene *a, const kiln_scene *b, counts *n)
{
    assert_int_equal(a->variant_count, b->variant_count);
    for (uint32_t v = 0; v < a->variant_count; v++) same_text(what, a->variants[v], b->variants[v]);
    assert_int_equal(a->mesh_count, b->mesh_count);
    for (uint32_t m = 0; m < a->mesh_count; m++) {
        same_text(what, a->meshes[m].extras, b->meshes[m].extras);
        if (a->meshes[m].extras) n->extras++;
        assert_int_equal(a->meshes[m].primitive_count, b->meshes[m].primitive_count);
        for (uint32_t i = 0; i < a->meshes[m].primitive_count; i++) {
            const kiln_scene_primitive *p = &a->meshes[m].primitives[i],
                                       *q = &b->meshes[m].primitives[i];
            assert_int_equal(p->material, q->material);
            assert_int_equal(p->mapping_count, q->mapping_count);
            for (uint32_t k = 0; k < p->mapping_count; k++) {
                const kiln_scene_variant_mapping *x = &p->mappings[k], *y = &q->mappings[k];
                assert_int_equal(x->material, y->material);
                assert_int_equal(x->variant_count, y->variant_count);
                for (uint32_t v = 0; v < x->variant_count; v++)
                    assert_int_equal(x->variants[v], y->variants[v]);
                same_text(what, x->name, y->name);
                n->mappings++;
            }
        }
    }
}

/* m = a * b, column-major 4x4. */
static void mul(const float a[16], const float b[16], float m[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float s = 0;
            for (int k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
            m[c * 4 + r] = s;
        }
}

/* T(t) R(q) S(s) of instance i (missing arrays: identity parts). */
static void instance_matrix(const kiln_scene_node *n, uint32_t i, float m[16])
{
    const float *t = n->instance_translations ? &n->instance_translations[i * 3] : NULL;
    const float *q = n->instance_rotations ? &n->instance_rotations[i * 4] : NULL;
    const float *s = n->instance_scales ? &n->instance_scales[i * 3] : NULL;
    float x = q ? q[0] : 0, y = q ? q[1] : 0, z = q ? q[2] : 0, w = q ? q[3] : 1;
    float r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                  2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                  2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
    memset(m, 0, 16 * sizeof(float));
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++) m[c * 4 + k] = r[c * 3 + k] * (s ? s[c] : 1.0f);
    for (int k = 0; k < 3; k++) m[12 + k] = t ? t[k] : 0;
    m[15] = 1;
}

/* The node of b that draws node n's mesh: n itself, or its holder child (quantized positions). */
static const kiln_scene_node *drawing_node(const kiln_scene *b, uint32_t n)
{
    const kiln_scene_node *node = &b->nodes[n];
    if (node->mesh >= 0) return node;
    for (uint32_t c = 0; c < node->child_count; c++)
        if (b->nodes[node->children[c]].mesh >= 0) return &b->nodes[node->children[c]];
    return NULL;
}

static void same_instances(const char *what, const kiln_scene *a, const kiln_scene *b, bool exact,
                           counts *n)
{
    assert_true(b->node_count >= a->node_count);
    for (uint32_t i = 0; i < a->node_count; i++) {
        const kiln_scene_node *x = &a->nodes[i];
        same_text(what, x->extras, b->nodes[i].extras);
        if (x->extras) n->extras++;
        if (x->mesh < 0) continue;
        const kiln_scene_node *y = drawing_node(b, i);
        assert_non_null(y);
        assert_int_equal(x->instance_count, y->instance_count);
        if (exact && x->instance_count) {
            assert_true((x->instance_translations != NULL) == (y->instance_translations != NULL));
            assert_true((x->instance_rotations != NULL) == (y->instance_rotations != NULL));
            assert_true((x->instance_scales != NULL) == (y->instance_scales != NULL));
            size_t c = x->instance_count;
            if (x->instance_translations)
                assert_memory_equal(x->instance_translations, y->instance_translations, c * 12);
            if (x->instance_rotations)
                assert_memory_equal(x->instance_rotations, y->instance_rotations, c * 16);
            if (x->instance_scales)
                assert_memory_equal(x->instance_scales, y->instance_scales, c * 12);
        }
        /* Each instance puts the corners of the mesh's box where the source puts them. */
        const kiln_scene_primitive *pa = &a->meshes[x->mesh].primitives[0];
        const kiln_scene_primitive *pb = &b->meshes[y->mesh].primitives[0];
        float ext = 0;
        for (int k = 0; k < 3; k++) ext = fmaxf(ext, pa->bounds_max[k] - pa->bounds_min[k]);
        for (uint32_t k = 0; k < x->instance_count; k++) {
            float ia[16], ib[16], ma[16], mb[16];
            instance_matrix(x, k, ia);
            instance_matrix(y, k, ib);
            mul(x->world, ia, ma);
            mul(y->world, ib, mb);
            for (int corner = 0; corner < 8; corner++) {
                float ca[3], cb[3];
                for (int d = 0; d < 3; d++) {
                    ca[d] = corner >> d & 1 ? pa->bounds_max[d] : pa->bounds_min[d];
                    cb[d] = corner >> d & 1 ? pb->bounds_max[d] : pb->bounds_min[d];
                }
                for (int r = 0; r < 3; r++) {
                    float wa = ma[12 + r], wb = mb[12 + r];
                    for (int d = 0; d < 3; d++)
                        wa += ma[d * 4 + r] * ca[d], wb += mb[d * 4 + r] * cb[d];
                    if (fabsf(wa - wb) > 1e-3f * ext * 4)
                        fail_msg("%s: node %u instance %u corner %d: %g against %g", what, i, k,
                                 corner, wb, wa);
                }
            }
            n->instances++;
        }
    }
}

static void all_extensions_survive_kiln_gltf(void **state)
{
    (void)state;
    const char *root = getenv("KILN_SOURCE_DIR");
    if (!root || !*root) fail_msg("KILN_SOURCE_DIR is not set (run the test through ctest)");
    char *in = kt_format("%s/tests/material_ext/all_extensions.gltf", root);
    char *dir = kt_tempdir("gltf-out-material");
    char *validate = kt_format("node '%s/examples/validate_gltf.mjs'", root);
    kiln_scene *src = load(in);
    assert_int_equal(src->variant_count, 3);
    static const struct {
        const char *name;
        bool quantize, compress;
    } configs[] = {{"plain", false, false}, {"quantized", true, false}, {"compressed", true, true}};
    counts n = {0};
    size_t written = 0;
    for (size_t c = 0; c < 3; c++)
        for (int glb = 0; glb < 2; glb++) {
            char *out = kt_format("%s/%s.%s", dir, configs[c].name, glb ? "glb" : "gltf");
            export_to(in, out, configs[c].quantize, configs[c].compress);
            kiln_scene *back = load(out);
            same_materials(out, src, back, &n);
            same_variants(out, src, back, &n);
            same_instances(out, src, back, !configs[c].quantize, &n);
            kiln_scene_free(back);
            char *next = kt_format("%s '%s'", validate, out);
            free(validate);
            validate = next;
            written++;
            free(out);
        }
    print_message("%zu outputs: %zu factors, %zu textures, %zu variant mappings, %zu instances, "
                  "%zu extras read back the same\n",
                  written, n.factors, n.textures, n.mappings, n.instances, n.extras);
    assert_true(n.textures >= written * 13);
    assert_true(n.mappings >= written * 2);
    assert_true(n.instances >= written * 2);
    assert_true(n.extras >= written * 3);

    kt_gltf_validate(validate, written);
    free(validate);
    kiln_scene_free(src);
    kt_rmtree(dir);
    free(dir);
    free(in);
}

/* The corpus SheenCloth keeps its sheen (factors and both textures) through kiln gltf. */
static void sheen_cloth_keeps_its_sheen(void **state)
{
    (void)state;
    char *in = kt_corpus_path("gltf/SheenCloth/glTF/SheenCloth.gltf");
    char *dir = kt_tempdir("gltf-out-sheen");
    char *out = kt_format("%s/SheenCloth.glb", dir);
    export_to(in, out, true, true);
    kiln_scene *src = load(in), *back = load(out);
    size_t sheen = 0;
    for (uint32_t m = 0; m < src->material_count; m++)
        if (src->materials[m].ext.present & KILN_MATERIAL_EXT_SHEEN) sheen++;
    assert_true(sheen > 0);
    counts n = {0};
    same_materials(out, src, back, &n);
    kiln_scene_free(src);
    kiln_scene_free(back);
    kt_rmtree(dir);
    free(dir), free(out), free(in);
}

/* "extras" texts go into the document as they are only when they are one JSON value. */
static void extras_text_is_checked(void **state)
{
    (void)state;
    static const char *const good[] = {"{}",
                                       "[]",
                                       "0",
                                       "-1.5e+3",
                                       "\"a\\u00e9\"",
                                       "null",
                                       "{\"a\":[1,true,false,{\"b\":null}]}",
                                       " [ 1 , 2 ] "};
    static const char *const bad[] = {"",      "{",       "[1,]",       "{\"a\"}",  "01",
                                      "1.",    "\"\\x\"", "{\"a\":1}x", "tru",      "[1 2]",
                                      "{1:2}", "\"\n\"",  "-",          "\"\\u12\""};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        if (!kiln_json_text_valid(good[i])) fail_msg("refused: %s", good[i]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (kiln_json_text_valid(bad[i])) fail_msg("taken: %s", bad[i]);
    char deep[2 * KILN_JSON_OUT_MAX_DEPTH + 8] = {0};
    for (int i = 0; i <= KILN_JSON_OUT_MAX_DEPTH; i++) deep[i] = '[';
    for (int i = 0; i <= KILN_JSON_OUT_MAX_DEPTH; i++) deep[KILN_JSON_OUT_MAX_DEPTH + 1 + i] = ']';
    assert_false(kiln_json_text_valid(deep)); /* nested past the writer's depth */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(extras_text_is_checked),
        cmocka_unit_test(all_extensions_survive_kiln_gltf),
        cmocka_unit_test(sheen_cloth_keeps_its_sheen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
