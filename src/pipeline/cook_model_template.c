/* cook_model_template.c — a model's material cooked against a .kmat template
 * (import.model.material_templates; docs/shaders.md "Templates for glTF materials"): the glTF
 * material's values offered to the template's shaders by fixed names, the template's own values
 * and textures filling in what the material does not have. */
#include "pipeline/cook_model_template.h"

#include <stdio.h>
#include <string.h>

#include "codec/material_ext.h"
#include "core/alloc.h"
#include "core/error.h"
#include "import/value_json.h"
#include "pipeline/cook_kmat.h"

/* The names a glTF material's values go by (docs/shaders.md): a template's fragment shader
 * takes those its parameter block declares. */
enum {
    P_BASE_COLOR,
    P_METALLIC,
    P_ROUGHNESS,
    P_EMISSIVE,
    P_EMISSIVE_STRENGTH,
    P_NORMAL_SCALE,
    P_OCCLUSION_STRENGTH,
    P_ALPHA_CUTOFF,
    P_COUNT
};
static const char *const param_names[P_COUNT] = {
    "base_color_factor", "metallic_factor", "roughness_factor",   "emissive_factor",
    "emissive_strength", "normal_scale",    "occlusion_strength", "alpha_cutoff",
};
/* The core slots' names; the extensions' slots are the snake_case of their glTF keys
 * (kiln_material_ext_textures: "clearcoatNormalTexture" as "clearcoat_normal_texture"). */
static const char *const texture_names[KILN_SCENE_SLOT_CORE_COUNT] = {
    "base_color_texture", "metallic_roughness_texture", "normal_texture",
    "occlusion_texture",  "emissive_texture",
};

const kiln_model_template *kiln_model_template_for(const kiln_cook_env *env, const char *name)
{
    const kiln_model_template *any = NULL;
    for (size_t i = 0; i < env->template_count; i++) {
        const kiln_model_template *t = &env->templates[i];
        if (name && name[0] && !strcmp(t->material, name)) return t;
        if (!strcmp(t->material, "*")) any = t;
    }
    return any;
}

/* "sheenColorFactor" as "sheen_color_factor". */
static void snake_case(const char *key, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = key; *c && n + 2 < size; c++) {
        if (*c >= 'A' && *c <= 'Z') {
            out[n++] = '_';
            out[n++] = (char)(*c - 'A' + 'a');
        } else {
            out[n++] = *c;
        }
    }
    out[n] = 0;
}

static json_t *numbers(const float *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++) json_array_append_new(a, json_real((double)v[i]));
    return a;
}

kiln_result kiln_model_template_cook(const kiln_cook_env *env, const kiln_model_template *t,
                                     const kiln_scene *sc, uint32_t index,
                                     const uint64_t image_ids[KILN_SCENE_SLOT_COUNT],
                                     uint8_t **bytes, size_t *size, json_t **row, kiln_error *err)
{
    const kiln_scene_material *mat = &sc->materials[index];
    const kiln_allocator *alloc = env->allocator;
    float scalars[P_COUNT] = {0};
    scalars[P_METALLIC] = mat->metallic;
    scalars[P_ROUGHNESS] = mat->roughness;
    scalars[P_EMISSIVE_STRENGTH] = mat->emissive_strength;
    scalars[P_NORMAL_SCALE] = mat->textures[KILN_SCENE_SLOT_NORMAL].scale;
    scalars[P_OCCLUSION_STRENGTH] = mat->textures[KILN_SCENE_SLOT_OCCLUSION].scale;
    scalars[P_ALPHA_CUTOFF] = mat->alpha_cutoff;
    /* then the extensions' factors (glTF's defaults for those the material lacks), by the
     * snake_case of their glTF keys: clearcoat_factor, sheen_color_factor (vec3), ior, ... */
    enum { EXT_PARAMS = 24 };
    kiln_value values[P_COUNT + EXT_PARAMS];
    kiln_material_param params[P_COUNT + EXT_PARAMS];
    char ext_names[EXT_PARAMS][48];
    kiln_material_ext ext;
    kiln_material_ext_defaults(&ext);
    memset(values, 0, sizeof values);
    size_t np = P_COUNT + kiln_material_ext_field_count;
    if (KILN_NEVER(kiln_material_ext_field_count > EXT_PARAMS)) np = P_COUNT;
    kiln_result r = KILN_OK;
    size_t made = 0;
    for (size_t i = 0; r == KILN_OK && i < np; i++) {
        json_t *j;
        const char *pname = i < P_COUNT ? param_names[i] : ext_names[i - P_COUNT];
        if (i < P_COUNT) {
            j = i == P_BASE_COLOR ? numbers(mat->base_color, 4)
                : i == P_EMISSIVE ? numbers(mat->emissive, 3)
                                  : json_real((double)scalars[i]);
        } else {
            const kiln_material_ext_field *f = &kiln_material_ext_fields[i - P_COUNT];
            snake_case(f->gltf_key ? f->gltf_key : "clearcoatNormalScale", ext_names[i - P_COUNT],
                       sizeof ext_names[0]);
            const float *v = kiln_material_ext_get(mat->ext.present & f->bit ? &mat->ext : &ext, f);
            j = f->count == 1 ? json_real((double)v[0]) : numbers(v, f->count);
        }
        r = j ? kiln_value_from_json(j, alloc, &values[i], err)
              : kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        json_decref(j);
        if (r == KILN_OK) made++;
        params[i] = (kiln_material_param){pname, &values[i], 0, NULL};
    }
    kiln_typed_material_texture tex[KILN_SCENE_SLOT_COUNT];
    char ext_texture_names[KILN_MATERIAL_EXT_SLOT_COUNT][48];
    size_t nt = 0;
    for (int slot = 0; slot < KILN_SCENE_SLOT_COUNT; slot++) {
        int32_t ti = mat->textures[slot].texture;
        if (!image_ids[slot] || ti < 0 || (uint32_t)ti >= sc->texture_count) continue;
        kiln_typed_material_texture *x = &tex[nt++];
        memset(x, 0, sizeof *x);
        if (slot < KILN_SCENE_SLOT_CORE_COUNT) {
            x->name = texture_names[slot];
        } else {
            char *n = ext_texture_names[slot - KILN_SCENE_SLOT_CORE_COUNT];
            snake_case(kiln_material_ext_textures[slot - KILN_SCENE_SLOT_CORE_COUNT].gltf_key, n,
                       sizeof ext_texture_names[0]);
            x->name = n;
        }
        x->image = image_ids[slot];
        int32_t si = sc->textures[ti].sampler;
        if (si >= 0 && (uint32_t)si < sc->sampler_count) {
            /* kiln_scene_filter and _wrap number their values as kiln_material_filter, _wrap */
            const kiln_scene_sampler *s = &sc->samplers[si];
            x->mag_filter = (uint8_t)s->mag_filter;
            x->min_filter = (uint8_t)s->min_filter;
            x->mip_filter = (uint8_t)s->mip_filter;
            x->wrap_s = (uint8_t)s->wrap_s;
            x->wrap_t = (uint8_t)s->wrap_t;
        }
    }
    char name[64];
    snprintf(name, sizeof name, "material%u", index);
    kiln_kmat_overrides o = {
        .name = mat->name && mat->name[0] ? mat->name : name,
        .params = params,
        .param_count = np,
        .textures = tex,
        .texture_count = nt,
        .has_render_state = true,
        .alpha_mode = (uint32_t)mat->alpha_mode,
        .alpha_cutoff = mat->alpha_cutoff,
        .double_sided = mat->double_sided,
    };
    json_t *sum = NULL;
    if (r == KILN_OK) r = kiln_kmat_template_cook(t->t, &o, bytes, size, &sum, err);
    for (size_t i = 0; i < made; i++) kiln_value_free(&values[i]);
    if (r != KILN_OK) {
        kiln_error_prefix(err, "material %u (\"%.64s\") against template %s: ", index,
                          mat->name ? mat->name : "", kiln_kmat_template_name(t->t));
        return r;
    }
    *row = json_object();
    json_object_set_new(*row, "material", json_integer(index));
    json_object_set_new(*row, "template", json_string(kiln_kmat_template_name(t->t)));
    json_object_set(*row, "overrides", json_object_get(sum, "overrides"));
    json_object_set(*row, "textures", json_object_get(sum, "textures"));
    json_object_set(*row, "block_size", json_object_get(sum, "block_size"));
    json_decref(sum);
    return KILN_OK;
}
