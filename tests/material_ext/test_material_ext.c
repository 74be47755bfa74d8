/* test_material_ext.c — every glTF material extension kiln keeps, from the source to the
 * runtime: tests/material_ext/all_extensions.gltf (hand-written: material "everything" has every
 * factor extension with values unlike glTF's defaults and a texture in every extension slot,
 * some with their own UV set, sampler or KHR_texture_transform; "unlit"; "defaults" has
 * extensions without members, ior 0; variants at the root and mapped on the primitive; extras on
 * a material, a mesh and a node; a node drawn twice by EXT_mesh_gpu_instancing) imported into a
 * scene, cooked by kiln_convert_model, each
 * material read back with kiln_material_read and loaded by libkiln_rt, and the textures of the
 * extension slots checked against the role each was cooked in (sRGB colour for the sheen and
 * specular colours, a normal map for the clearcoat normal, linear for the rest). The corpus
 * SheenCloth keeps its sheen the same way. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/material_ext.h"
#include "kiln/kiln.h"
#include "kiln/kiln_rt.h"
#include "kiln/kiln_scene.h"
#include "robust_load.h"
#include "support.h"

static char *fixture_path(void)
{
    const char *src = getenv("KILN_SOURCE_DIR");
    if (!src || !*src) fail_msg("KILN_SOURCE_DIR is not set (run the test through ctest)");
    return kt_format("%s/tests/material_ext/all_extensions.gltf", src);
}

/* What the fixture's material "everything" says, member by member (kiln_material_ext). */
static kiln_material_ext everything(void)
{
    kiln_material_ext e = {
        .present = KILN_MATERIAL_EXT_ALL & ~(uint32_t)KILN_MATERIAL_EXT_UNLIT,
        .clearcoat = 0.75f,
        .clearcoat_roughness = 0.125f,
        .clearcoat_normal_scale = 0.625f,
        .sheen_color = {0.5f, 0.25f, 0.125f},
        .sheen_roughness = 0.375f,
        .transmission = 0.625f,
        .thickness = 2.5f,
        .attenuation_distance = 0.875f,
        .attenuation_color = {0.75f, 0.5f, 0.25f},
        .ior = 1.75f,
        .specular = 0.3125f,
        .specular_color = {2.5f, 1.25f, 0.5f},
        .iridescence = 0.8125f,
        .iridescence_ior = 1.875f,
        .iridescence_thickness_min = 120.0f,
        .iridescence_thickness_max = 480.0f,
        .anisotropy_strength = 0.4375f,
        .anisotropy_rotation = 1.25f,
        .dispersion = 0.1875f,
    };
    return e;
}

/* "defaults": the extensions named with no members: glTF's defaults, except ior 0. */
static kiln_material_ext defaults_material(void)
{
    kiln_material_ext e;
    kiln_material_ext_defaults(&e);
    e.present = KILN_MATERIAL_EXT_IOR | KILN_MATERIAL_EXT_VOLUME | KILN_MATERIAL_EXT_SPECULAR |
                KILN_MATERIAL_EXT_IRIDESCENCE | KILN_MATERIAL_EXT_SHEEN;
    e.ior = 0.0f;
    return e;
}

/* Every factor, by the table, named in the failure. */
static void assert_ext_equal(const kiln_material_ext *want, const kiln_material_ext *got,
                             const char *what)
{
    if (want->present != got->present)
        fail_msg("%s: extension bits 0x%x, expected 0x%x", what, got->present, want->present);
    for (size_t i = 0; i < kiln_material_ext_field_count; i++) {
        const kiln_material_ext_field *f = &kiln_material_ext_fields[i];
        const float *a = kiln_material_ext_get(want, f), *b = kiln_material_ext_get(got, f);
        for (uint32_t k = 0; k < f->count; k++)
            if (a[k] != b[k])
                fail_msg("%s: %s[%u] is %g, expected %g", what, f->name, k, (double)b[k],
                         (double)a[k]);
    }
}

/* The fixture's texture index of each extension slot (textures 0..11 in slot order). */
static void scene_keeps_every_extension(void **state)
{
    (void)state;
    char *path = fixture_path();
    kiln_scene *s = NULL;
    kiln_error err;
    if (kiln_scene_load(path, NULL, &s, &err) != KILN_OK) fail_msg("%s", err.message);
    /* no warning: every extension the file uses is kept */
    for (uint32_t i = 0; i < s->warning_count; i++) print_message("warning: %s\n", s->warnings[i]);
    assert_int_equal(s->warning_count, 0);
    assert_int_equal(s->material_count, 3);

    const kiln_scene_material *m = &s->materials[0];
    kiln_material_ext want = everything();
    assert_ext_equal(&want, &m->ext, "scene material 0");
    assert_true(m->emissive_strength == 6.0f);
    for (int k = 0; k < KILN_MATERIAL_EXT_SLOT_COUNT; k++) {
        const kiln_scene_texture_ref *t = &m->textures[KILN_SCENE_SLOT_CORE_COUNT + k];
        assert_int_equal(t->texture, k); /* texture k fills extension slot k */
        bool uv1 = k == KILN_MATERIAL_EXT_SLOT_CLEARCOAT_ROUGHNESS ||
                   k == KILN_MATERIAL_EXT_SLOT_SPECULAR_COLOR;
        assert_int_equal(t->texcoord, uv1 ? 1 : 0);
        assert_int_equal(t->has_transform, k == KILN_MATERIAL_EXT_SLOT_SHEEN_ROUGHNESS);
    }
    const kiln_scene_texture_ref *sr = &m->textures[KILN_SCENE_SLOT_SHEEN_ROUGHNESS];
    assert_true(sr->offset[0] == 0.25f && sr->offset[1] == 0.5f && sr->rotation == 0.5f &&
                sr->uv_scale[0] == 2.0f && sr->uv_scale[1] == 3.0f);
    assert_true(m->textures[KILN_SCENE_SLOT_CLEARCOAT_NORMAL].scale == 0.625f);
    assert_string_equal(m->extras, "{\"author\":\"kiln\",\"weight\":3}");

    assert_true(s->materials[1].unlit);
    assert_int_equal(s->materials[1].ext.present, KILN_MATERIAL_EXT_UNLIT);
    assert_null(s->materials[1].extras);
    want = defaults_material();
    assert_ext_equal(&want, &s->materials[2].ext, "scene material 2");
    for (int k = KILN_SCENE_SLOT_CORE_COUNT; k < KILN_SCENE_SLOT_COUNT; k++)
        assert_int_equal(s->materials[2].textures[k].texture, -1);

    /* KHR_materials_variants: names at the root, mappings on the primitive as the file has them */
    assert_int_equal(s->variant_count, 3);
    assert_string_equal(s->variants[0], "midnight");
    assert_string_equal(s->variants[1], "beach");
    assert_string_equal(s->variants[2], "street");
    const kiln_scene_primitive *p = &s->meshes[0].primitives[0];
    assert_int_equal(p->material, 0);
    assert_int_equal(p->mapping_count, 2);
    assert_int_equal(p->mappings[0].material, 1);
    assert_int_equal(p->mappings[0].variant_count, 2);
    assert_int_equal(p->mappings[0].variants[0], 0);
    assert_int_equal(p->mappings[0].variants[1], 2);
    assert_string_equal(p->mappings[0].name, "night");
    assert_int_equal(p->mappings[1].material, 2);
    assert_int_equal(p->mappings[1].variant_count, 1);
    assert_int_equal(p->mappings[1].variants[0], 1);
    assert_null(p->mappings[1].name);
    assert_string_equal(s->meshes[0].extras, "{\"lod\":\"high\"}");
    assert_string_equal(s->nodes[0].extras, "{\"tag\":\"hero\"}");
    /* EXT_mesh_gpu_instancing on node 1: two instances, each attribute as the file has it */
    assert_int_equal(s->nodes[0].instance_count, 0);
    const kiln_scene_node *inst = &s->nodes[1];
    assert_int_equal(inst->instance_count, 2);
    const float tr[6] = {0, 0, 0, 2, 0, 0}, rot[8] = {0, 0, 0, 1, 0, 0.70710677f, 0, 0.70710677f},
                sc[6] = {1, 1, 1, 0.5f, 0.5f, 0.5f};
    assert_memory_equal(inst->instance_translations, tr, sizeof tr);
    assert_memory_equal(inst->instance_rotations, rot, sizeof rot);
    assert_memory_equal(inst->instance_scales, sc, sizeof sc);
    kiln_scene_free(s);
    free(path);
}

/* The cooked model: manifest guid and, per image label, the role it was cooked in. */
typedef struct cooked {
    char *dir;
    json_t *manifest;
    const char *guid;
} cooked;

static cooked cook(const char *path, const char *settings)
{
    cooked c;
    c.dir = kt_tempdir("matext");
    kiln_convert_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.jobs = 2;
    o.settings_json = settings;
    char *result = NULL;
    kiln_error err;
    if (kiln_convert_model(path, c.dir, &o, &result, &err) != KILN_OK)
        fail_msg("convert %s: %s", path, err.message);
    kiln_string_free(result);
    char *mp = kt_format("%s/manifest.json", c.dir);
    json_error_t je;
    c.manifest = json_load_file(mp, 0, &je);
    assert_non_null(c.manifest);
    free(mp);
    c.guid = json_string_value(json_object_get(c.manifest, "guid"));
    assert_non_null(c.guid);
    return c;
}

static void cooked_free(cooked *c)
{
    json_decref(c->manifest);
    kt_rmtree(c->dir);
    free(c->dir);
}

/* The role ("color", "normal", "linear") the image artifact of asset id `id` was cooked in. */
static const char *role_of(const cooked *c, uint64_t id)
{
    json_t *images = json_object_get(json_object_get(c->manifest, "summary"), "images");
    size_t i;
    json_t *row;
    json_array_foreach (images, i, row) {
        const char *label = json_string_value(json_object_get(row, "label"));
        if (kiln_asset_id(c->guid, label) == id)
            return json_string_value(json_object_get(row, "role"));
    }
    fail_msg("no image artifact has id 0x%016llx", (unsigned long long)id);
    return NULL;
}

static const char *want_role(uint32_t slot)
{
    switch (kiln_material_ext_textures[slot].role) {
    case KILN_EXT_ROLE_COLOR:
        return "color";
    case KILN_EXT_ROLE_NORMAL:
        return "normal";
    default:
        return "linear";
    }
}

static void *read_material_file(const cooked *c, uint32_t i, size_t *size)
{
    char *p = kt_format("%s/material%u.kmat", c->dir, i);
    void *bytes = kt_read_file(p, size);
    if (!bytes) fail_msg("cannot read %s", p);
    free(p);
    return bytes;
}

static void cooked_materials_read_back(void **state)
{
    (void)state;
    char *path = fixture_path();
    cooked c = cook(path, NULL);
    kiln_error err;
    size_t size;
    void *bytes = read_material_file(&c, 0, &size);
    kiln_material_view v;
    if (kiln_material_read(bytes, size, 0, &v, &err) != KILN_OK) fail_msg("%s", err.message);
    const kiln_material *m = &v.material;
    kiln_material_ext want = everything();
    assert_ext_equal(&want, &m->ext, "cooked material 0");
    assert_true(m->emissive_strength == 6.0f && !m->unlit);
    for (uint32_t k = 0; k < KILN_MATERIAL_EXT_SLOT_COUNT; k++) {
        const kiln_material_texture *t = &m->ext_textures[k];
        if (!t->image) fail_msg("extension slot %s is empty", kiln_material_ext_slot_name(k));
        const char *role = role_of(&c, t->image);
        if (strcmp(role, want_role(k)) != 0)
            fail_msg("extension slot %s: image cooked as %s, expected %s",
                     kiln_material_ext_slot_name(k), role, want_role(k));
    }
    /* the samplers, UV sets and transforms of the source */
    const kiln_material_texture *cc = &m->ext_textures[KILN_MATERIAL_EXT_SLOT_CLEARCOAT];
    assert_int_equal(cc->mag_filter, KILN_MATERIAL_FILTER_NEAREST);
    assert_int_equal(cc->wrap_s, KILN_MATERIAL_WRAP_CLAMP);
    assert_int_equal(cc->wrap_t, KILN_MATERIAL_WRAP_MIRROR);
    assert_false(cc->mipmaps);
    assert_int_equal(m->ext_textures[KILN_MATERIAL_EXT_SLOT_CLEARCOAT_ROUGHNESS].texcoord, 1);
    assert_int_equal(m->ext_textures[KILN_MATERIAL_EXT_SLOT_SPECULAR_COLOR].texcoord, 1);
    const kiln_material_texture *sr = &m->ext_textures[KILN_MATERIAL_EXT_SLOT_SHEEN_ROUGHNESS];
    assert_true(sr->has_transform && sr->offset[0] == 0.25f && sr->rotation == 0.5f &&
                sr->scale[1] == 3.0f);
    assert_true(fabsf(sr->matrix[0] - cosf(0.5f) * 2.0f) < 1e-6f);
    free(bytes);

    bytes = read_material_file(&c, 1, &size);
    assert_int_equal(kiln_material_read(bytes, size, 0, &v, &err), KILN_OK);
    assert_true(v.material.unlit);
    assert_int_equal(v.material.ext.present, KILN_MATERIAL_EXT_UNLIT);
    free(bytes);

    bytes = read_material_file(&c, 2, &size);
    assert_int_equal(kiln_material_read(bytes, size, 0, &v, &err), KILN_OK);
    want = defaults_material();
    assert_ext_equal(&want, &v.material.ext, "cooked material 2");
    for (uint32_t k = 0; k < KILN_MATERIAL_EXT_SLOT_COUNT; k++)
        assert_true(v.material.ext_textures[k].image == 0);
    free(bytes);
    cooked_free(&c);
    free(path);
}

/* libkiln_rt: the material's extension factors and the texture of every extension slot, each
 * loaded with its material, sRGB exactly for the colour roles. */
static void runtime_exposes_every_extension(void **state)
{
    (void)state;
    char *path = fixture_path();
    cooked c = cook(path, NULL);
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 2;
    krt_context *ctx = NULL;
    kiln_error err;
    assert_int_equal(krt_create(&d, &ctx, &err), KILN_OK);
    size_t n = 0;
    if (krt_mount_cache(ctx, c.dir, &n, &err) != KILN_OK) fail_msg("%s", err.message);
    krt_handle h = krt_load_material(ctx, "all_extensions.gltf#material0", &err);
    if (!h.id) fail_msg("%s", err.message);
    krt_finish(ctx);
    assert_int_equal(krt_state_of(ctx, h), KRT_STATE_READY);
    krt_material_data md;
    assert_int_equal(krt_get_material(ctx, h, &md, &err), KILN_OK);
    kiln_material_ext want = everything();
    assert_ext_equal(&want, &md.material->ext, "runtime material 0");
    for (uint32_t k = 0; k < KILN_MATERIAL_EXT_SLOT_COUNT; k++) {
        if (!md.ext_textures[k].id) fail_msg("slot %s: no texture", kiln_material_ext_slot_name(k));
        assert_int_equal(krt_state_of(ctx, md.ext_textures[k]), KRT_STATE_READY);
        krt_texture_data td;
        assert_int_equal(krt_get_texture(ctx, md.ext_textures[k], &td, &err), KILN_OK);
        bool colour = kiln_material_ext_textures[k].role == KILN_EXT_ROLE_COLOR;
        if (td.srgb != colour)
            fail_msg("slot %s: sRGB %d", kiln_material_ext_slot_name(k), (int)td.srgb);
    }
    /* the base colour and the sheen colour share the sRGB image; clearcoat's textures share
     * the linear one */
    assert_int_equal(md.ext_textures[KILN_MATERIAL_EXT_SLOT_SHEEN_COLOR].id,
                     md.textures[KILN_MATERIAL_SLOT_BASE_COLOR].id);
    assert_int_equal(md.ext_textures[KILN_MATERIAL_EXT_SLOT_CLEARCOAT].id,
                     md.ext_textures[KILN_MATERIAL_EXT_SLOT_ANISOTROPY].id);
    assert_int_equal(krt_release(ctx, h, &err), KILN_OK);
    krt_destroy(ctx);
    cooked_free(&c);
    free(path);
}

/* The corpus SheenCloth: its sheen (factors 1, 1; colour and roughness textures on the same
 * image, cooked once as sRGB colour and once as linear data) kept through cook and read. */
static void sheen_cloth_keeps_sheen(void **state)
{
    (void)state;
    kt_require_corpus();
    char *path = kt_corpus_path("gltf/SheenCloth/glTF/SheenCloth.gltf");
    kiln_scene *s = NULL;
    kiln_error err;
    if (kiln_scene_load(path, NULL, &s, &err) != KILN_OK) fail_msg("%s", err.message);
    for (uint32_t i = 0; i < s->warning_count; i++)
        if (strstr(s->warnings[i], "KHR_materials")) fail_msg("warning: %s", s->warnings[i]);
    assert_int_equal(s->materials[0].ext.present, KILN_MATERIAL_EXT_SHEEN);
    kiln_scene_free(s);
    cooked c = cook(path, "{\"model\":{\"texture_max_size\":64,\"texture_quality\":\"fast\"}}");
    size_t size;
    void *bytes = read_material_file(&c, 0, &size);
    kiln_material_view v;
    if (kiln_material_read(bytes, size, 0, &v, &err) != KILN_OK) fail_msg("%s", err.message);
    const kiln_material *m = &v.material;
    assert_int_equal(m->ext.present, KILN_MATERIAL_EXT_SHEEN);
    const float one[3] = {1, 1, 1};
    assert_memory_equal(m->ext.sheen_color, one, sizeof one);
    assert_true(m->ext.sheen_roughness == 1.0f);
    const kiln_material_texture *sc = &m->ext_textures[KILN_MATERIAL_EXT_SLOT_SHEEN_COLOR];
    const kiln_material_texture *sr = &m->ext_textures[KILN_MATERIAL_EXT_SLOT_SHEEN_ROUGHNESS];
    assert_true(sc->image && sr->image && sc->image != sr->image);
    assert_string_equal(role_of(&c, sc->image), "color");
    assert_string_equal(role_of(&c, sr->image), "linear");
    assert_true(sc->has_transform && sc->scale[0] == 30.0f && sc->scale[1] == -30.0f);
    for (uint32_t k = 0; k < KILN_MATERIAL_EXT_SLOT_COUNT; k++)
        if (k != KILN_MATERIAL_EXT_SLOT_SHEEN_COLOR && k != KILN_MATERIAL_EXT_SLOT_SHEEN_ROUGHNESS)
            assert_true(m->ext_textures[k].image == 0);
    free(bytes);
    cooked_free(&c);
    free(path);
}

/* A one-triangle glTF (data URI buffer) with `materials`, `extra` root members and the
 * primitive's and node's extensions spliced in. */
static kiln_result load_text(const char *materials, const char *root_extra, const char *prim_ext,
                             const char *node_ext, kiln_scene **out, kiln_error *err)
{
    /* 3 positions (36 bytes) then 2 instance translations (24 bytes), as floats */
    const char *buffer =
        "data:application/octet-stream;base64,"
        "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAAAAQAAAAAAAAAAA";
    char *json = kt_format(
        "{\"asset\":{\"version\":\"2.0\"},%s\"buffers\":[{\"byteLength\":60,\"uri\":\"%s\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,"
        "\"byteLength\":24}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
        "\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},{\"bufferView\":1,\"componentType\":"
        "5126,\"count\":2,\"type\":\"VEC3\"},{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
        "\"type\":\"VEC3\"}],\"materials\":%s,\"meshes\":[{\"primitives\":[{\"attributes\":"
        "{\"POSITION\":0},\"material\":0%s}]}],\"nodes\":[{\"mesh\":0%s},{}],\"scenes\":[{\"nodes\":"
        "[0,1]}]}",
        root_extra, buffer, materials, prim_ext, node_ext);
    kiln_result r = kiln_scene_load_memory(json, strlen(json), NULL, NULL, out, err);
    free(json);
    return r;
}

static bool warned(const kiln_scene *s, const char *fragment)
{
    for (uint32_t i = 0; i < s->warning_count; i++)
        if (strstr(s->warnings[i], fragment)) return true;
    return false;
}

/* Out-of-range factors are clamped with a warning, a bad attenuation distance is infinite;
 * broken variants and instancing are errors that name the member. */
static void bad_extension_inputs(void **state)
{
    (void)state;
    kiln_scene *s = NULL;
    kiln_error err;
    const char *mat = "[{\"extensions\":{\"KHR_materials_clearcoat\":{\"clearcoatFactor\":2},"
                      "\"KHR_materials_ior\":{\"ior\":0.5},\"KHR_materials_volume\":"
                      "{\"attenuationDistance\":-1,\"thicknessFactor\":-3},"
                      "\"KHR_materials_specular\":{\"specularColorFactor\":[4,-1,0.5]}}}]";
    if (load_text(mat, "", "", "", &s, &err) != KILN_OK) fail_msg("%s", err.message);
    const kiln_material_ext *e = &s->materials[0].ext;
    assert_true(e->clearcoat == 1.0f && e->ior == 1.0f && e->attenuation_distance == 0.0f &&
                e->thickness == 0.0f);
    assert_true(e->specular_color[0] == 4.0f && e->specular_color[1] == 0.0f);
    assert_true(warned(s, "clamped") && warned(s, "attenuationDistance"));
    kiln_scene_free(s);

    static const struct {
        const char *root, *prim, *node, *pointer;
    } cases[] = {
        {"",
         ",\"extensions\":{\"KHR_materials_variants\":{\"mappings\":[{\"material\":0,"
         "\"variants\":[0]}]}}",
         "", "/meshes/0/primitives/0/extensions/KHR_materials_variants/mappings/0"},
        {"\"extensions\":{\"KHR_materials_variants\":{\"variants\":[{\"name\":\"a\"}]}},",
         ",\"extensions\":{\"KHR_materials_variants\":{\"mappings\":[{\"variants\":[0]}]}}", "",
         "/meshes/0/primitives/0/extensions/KHR_materials_variants/mappings/0/material"},
        {"\"extensions\":{\"KHR_materials_variants\":{\"variants\":[{}]}},", "", "",
         "/extensions/KHR_materials_variants/variants/0"},
        {"", "",
         ",\"extensions\":{\"EXT_mesh_gpu_instancing\":{\"attributes\":"
         "{\"TRANSLATION\":1,\"SCALE\":2}}}",
         "/nodes/0/extensions/EXT_mesh_gpu_instancing/attributes"},
        {"", "",
         ",\"extensions\":{\"EXT_mesh_gpu_instancing\":{\"attributes\":"
         "{\"ROTATION\":1}}}",
         "/nodes/0/extensions/EXT_mesh_gpu_instancing/attributes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kiln_result r = load_text("[{}]", cases[i].root, cases[i].prim, cases[i].node, &s, &err);
        if (r != KILN_E_IMPORT_FAILED || strcmp(err.json_pointer, cases[i].pointer) != 0)
            fail_msg("case %zu: %s at %s: %s", i, kiln_result_name(r), err.json_pointer,
                     err.message);
        assert_null(s);
    }
    /* two instances, translation only; an application attribute is warned about */
    if (load_text("[{}]", "", "",
                  ",\"extensions\":{\"EXT_mesh_gpu_instancing\":{\"attributes\":"
                  "{\"TRANSLATION\":1,\"_ID\":1}}}",
                  &s, &err) != KILN_OK)
        fail_msg("%s", err.message);
    assert_int_equal(s->nodes[0].instance_count, 2);
    assert_true(s->nodes[0].instance_translations[3] == 2.0f);
    assert_null(s->nodes[0].instance_rotations);
    assert_true(warned(s, "\"_ID\" not kept"));
    kiln_scene_free(s);
}

/* The fixture with the Nth allocation failed, for every N: KILN_E_OUT_OF_MEMORY, nothing left
 * allocated; and every truncation: a documented code, the scene's invariants
 * (fuzz/scene_check.h, which checks the extension fields too) when one loads. */
static void failures_leave_nothing_behind(void **state)
{
    (void)state;
    char *path = fixture_path();
    size_t size;
    void *data = kt_read_file(path, &size);
    assert_non_null(data);
    char *dir = kt_format("%s", path);
    *strrchr(dir, '/') = 0;
    kt_load l;
    memset(&l, 0, sizeof l);
    l.base_dir = dir;
    kt_load_run(&l, data, size);
    if (l.code != KILN_OK || l.problem) fail_msg("%s", l.problem ? l.problem : l.err.message);
    size_t calls = l.calls;
    for (size_t n = 1; n <= calls; n++) {
        memset(&l, 0, sizeof l);
        l.base_dir = dir;
        l.fail_at = n;
        kt_load_run(&l, data, size);
        if (l.problem || l.code != KILN_E_OUT_OF_MEMORY)
            fail_msg("allocation %zu of %zu failed: %s (%s)", n, calls, l.problem ? l.problem : "",
                     kiln_result_name(l.code));
    }
    for (size_t len = 0; len < size; len += 7) {
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, data, len);
        memset(&l, 0, sizeof l);
        l.base_dir = dir;
        kt_load_run(&l, cut, len);
        if (l.problem) fail_msg("cut at %zu: %s", len, l.problem);
        free(cut);
    }
    print_message("%zu allocations, each failed once\n", calls);
    free(dir);
    free(data);
    free(path);
}

/* KILN_WRITE_FUZZ_SEEDS=1: writes fuzz/corpus/material/extensions*.matl (the fixture's
 * "everything" and "defaults" as cooked) and fuzz/corpus/gltf/material_ext.gltf (the fixture
 * without its image files, which the fuzzer cannot read), then review them. */
static void fuzz_seeds(void **state)
{
    (void)state;
    const char *on = getenv("KILN_WRITE_FUZZ_SEEDS");
    if (!on || strcmp(on, "1") != 0) skip();
    const char *src = getenv("KILN_SOURCE_DIR");
    char *path = fixture_path();
    cooked c = cook(path, NULL);
    static const char *const names[] = {"extensions", NULL, "extensions_defaults"};
    for (uint32_t i = 0; i < 3; i++) {
        if (!names[i]) continue;
        size_t size;
        void *bytes = read_material_file(&c, i, &size);
        char *out = kt_format("%s/fuzz/corpus/material/%s.matl", src, names[i]);
        kt_write_file(out, bytes, size);
        free(out);
        free(bytes);
    }
    cooked_free(&c);
    json_error_t je;
    json_t *g = json_load_file(path, JSON_PRESERVE_ORDER, &je);
    assert_non_null(g);
    json_object_del(g, "images");
    size_t i;
    json_t *t;
    json_array_foreach (json_object_get(g, "textures"), i, t) json_object_del(t, "source");
    char *out = kt_format("%s/fuzz/corpus/gltf/material_ext.gltf", src);
    assert_int_equal(json_dump_file(g, out, JSON_COMPACT | JSON_PRESERVE_ORDER), 0);
    free(out);
    json_decref(g);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scene_keeps_every_extension),
        cmocka_unit_test(cooked_materials_read_back),
        cmocka_unit_test(runtime_exposes_every_extension),
        cmocka_unit_test(sheen_cloth_keeps_sheen),
        cmocka_unit_test(bad_extension_inputs),
        cmocka_unit_test(failures_leave_nothing_behind),
        cmocka_unit_test(fuzz_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
