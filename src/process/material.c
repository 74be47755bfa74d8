/* material.c — kiln_material_build: a scene material and the image ids the pipeline chose, as a
 * cooked material (material.h; the layout of the result is docs/formats.md, "Materials"). */
#include "process/material.h"

#include <math.h>
#include <string.h>

#include "codec/material_ext.h"
#include "core/error.h"

/* The public slot order is the scene's: one table serves both (the extensions' slots follow
 * the five core ones in kiln_scene_slot). */
_Static_assert(KILN_MATERIAL_SLOT_BASE_COLOR == (int)KILN_SCENE_SLOT_BASE_COLOR &&
                   KILN_MATERIAL_SLOT_METALLIC_ROUGHNESS ==
                       (int)KILN_SCENE_SLOT_METALLIC_ROUGHNESS &&
                   KILN_MATERIAL_SLOT_NORMAL == (int)KILN_SCENE_SLOT_NORMAL &&
                   KILN_MATERIAL_SLOT_OCCLUSION == (int)KILN_SCENE_SLOT_OCCLUSION &&
                   KILN_MATERIAL_SLOT_EMISSIVE == (int)KILN_SCENE_SLOT_EMISSIVE &&
                   KILN_MATERIAL_SLOT_COUNT == (int)KILN_SCENE_SLOT_CORE_COUNT &&
                   KILN_SCENE_SLOT_CLEARCOAT ==
                       KILN_SCENE_SLOT_CORE_COUNT + KILN_MATERIAL_EXT_SLOT_CLEARCOAT &&
                   KILN_SCENE_SLOT_SHEEN_COLOR ==
                       KILN_SCENE_SLOT_CORE_COUNT + KILN_MATERIAL_EXT_SLOT_SHEEN_COLOR &&
                   KILN_SCENE_SLOT_ANISOTROPY ==
                       KILN_SCENE_SLOT_CORE_COUNT + KILN_MATERIAL_EXT_SLOT_ANISOTROPY &&
                   KILN_SCENE_SLOT_COUNT ==
                       KILN_SCENE_SLOT_CORE_COUNT + KILN_MATERIAL_EXT_SLOT_COUNT,
               "material slots follow kiln_scene_slot");
_Static_assert(KILN_MATERIAL_MAX_UV_SETS == KILN_SCENE_MAX_UV_SETS, "UV sets");
_Static_assert(KILN_MATERIAL_FILTER_NEAREST == (int)KILN_SCENE_FILTER_NEAREST &&
                   KILN_MATERIAL_FILTER_LINEAR == (int)KILN_SCENE_FILTER_LINEAR &&
                   KILN_MATERIAL_WRAP_CLAMP == (int)KILN_SCENE_WRAP_CLAMP &&
                   KILN_MATERIAL_WRAP_MIRROR == (int)KILN_SCENE_WRAP_MIRROR &&
                   KILN_MATERIAL_ALPHA_MASK == (int)KILN_SCENE_ALPHA_MASK &&
                   KILN_MATERIAL_ALPHA_BLEND == (int)KILN_SCENE_ALPHA_BLEND,
               "enum values follow kiln_scene.h");

static const char *const slot_names[KILN_MATERIAL_SLOT_COUNT] = {
    "base_color", "metallic_roughness", "normal", "occlusion", "emissive",
};

const char *kiln_material_slot_name(uint32_t slot)
{
    if (slot < KILN_MATERIAL_SLOT_COUNT) return slot_names[slot];
    return kiln_material_ext_slot_name(slot - KILN_MATERIAL_SLOT_COUNT);
}

kiln_image_role kiln_material_slot_role(uint32_t slot)
{
    switch (slot) {
    case KILN_SCENE_SLOT_BASE_COLOR:
    case KILN_SCENE_SLOT_EMISSIVE:
        return KILN_IMAGE_ROLE_COLOR;
    case KILN_SCENE_SLOT_NORMAL:
        return KILN_IMAGE_ROLE_NORMAL;
    default:
        break;
    }
    if (slot < KILN_SCENE_SLOT_CORE_COUNT || slot >= KILN_SCENE_SLOT_COUNT)
        return KILN_IMAGE_ROLE_LINEAR;
    switch (kiln_material_ext_textures[slot - KILN_SCENE_SLOT_CORE_COUNT].role) {
    case KILN_EXT_ROLE_COLOR:
        return KILN_IMAGE_ROLE_COLOR;
    case KILN_EXT_ROLE_NORMAL:
        return KILN_IMAGE_ROLE_NORMAL;
    default:
        return KILN_IMAGE_ROLE_LINEAR;
    }
}

void kiln_material_transform_matrix(const float offset[2], float rotation, const float scale[2],
                                    float m[6])
{
    /* translate * rotate * scale with rotate = [c s; -s c]: the direction three.js, Cesium and
     * the Khronos sample viewer use, which renders the corpus TextureTransformTest right (the
     * extension's GLSL snippet, read column-major, turns the other way). */
    double c = cos((double)rotation), s = sin((double)rotation);
    m[0] = (float)(c * scale[0]);
    m[1] = (float)(-s * scale[0]);
    m[2] = (float)(s * scale[1]);
    m[3] = (float)(c * scale[1]);
    m[4] = offset[0];
    m[5] = offset[1];
    for (int i = 0; i < 6; i++)
        m[i] += 0.0f; /* -0 becomes +0: no rotation is the identity's bytes */
}

static bool in01(float v) { return v >= 0.0f && v <= 1.0f; } /* false for NaN */

static kiln_result bad(kiln_error *err, int32_t material, const char *what)
{
    kiln_error_set(err, KILN_E_IMPORT_FAILED, "material %d: %s", (int)material, what);
    return KILN_E_IMPORT_FAILED;
}

/* Checks the factors against the ranges the format promises. */
static kiln_result check_factors(const kiln_scene_material *m, int32_t index, kiln_error *err)
{
    for (int i = 0; i < 4; i++)
        if (!in01(m->base_color[i])) return bad(err, index, "base colour factor outside [0, 1]");
    for (int i = 0; i < 3; i++)
        if (!in01(m->emissive[i])) return bad(err, index, "emissive factor outside [0, 1]");
    if (!in01(m->metallic) || !in01(m->roughness))
        return bad(err, index, "metallic or roughness factor outside [0, 1]");
    if (!(m->emissive_strength >= 0.0f) || !isfinite(m->emissive_strength))
        return bad(err, index, "emissive strength negative or not finite");
    if (!(m->alpha_cutoff >= 0.0f) || !isfinite(m->alpha_cutoff))
        return bad(err, index, "alpha cutoff negative or not finite");
    if ((unsigned)m->alpha_mode > KILN_SCENE_ALPHA_BLEND)
        return bad(err, index, "unknown alpha mode");
    for (int s = 0; s < KILN_SCENE_SLOT_COUNT; s++)
        if (!isfinite(m->textures[s].scale)) return bad(err, index, "texture scale not finite");
    if (m->ext.present & ~(uint32_t)KILN_MATERIAL_EXT_ALL)
        return bad(err, index, "unknown extension bits");
    for (size_t i = 0; i < kiln_material_ext_field_count; i++) {
        const kiln_material_ext_field *f = &kiln_material_ext_fields[i];
        if (!(m->ext.present & f->bit)) continue;
        const float *v = kiln_material_ext_get(&m->ext, f);
        for (uint32_t k = 0; k < f->count; k++)
            if (!kiln_material_ext_in_range(f->range, v[k])) {
                kiln_error_set(err, KILN_E_IMPORT_FAILED, "material %d: %s %s is not %s",
                               (int)index, kiln_material_ext_name(f->bit), f->name,
                               kiln_material_ext_range_text(f->range));
                return KILN_E_IMPORT_FAILED;
            }
    }
    return KILN_OK;
}

/* The extensions of m as the format keeps them: the factors of those present, glTF's defaults
 * for the others (whatever the scene held there), the unlit bit as the flag. */
static void build_ext(const kiln_scene_material *m, kiln_material_ext *out)
{
    kiln_material_ext_defaults(out);
    out->present = m->ext.present & ~(uint32_t)KILN_MATERIAL_EXT_UNLIT;
    if (m->unlit) out->present |= KILN_MATERIAL_EXT_UNLIT;
    for (size_t i = 0; i < kiln_material_ext_field_count; i++) {
        const kiln_material_ext_field *f = &kiln_material_ext_fields[i];
        if (!(out->present & f->bit)) continue;
        float *v = kiln_material_ext_at(out, f);
        memcpy(v, kiln_material_ext_get(&m->ext, f), f->count * sizeof *v);
        for (uint32_t k = 0; k < f->count; k++) v[k] += 0.0f; /* -0 as +0 */
    }
}

static bool filter_ok(kiln_scene_filter f) { return (unsigned)f <= KILN_SCENE_FILTER_LINEAR; }

/* One slot of a source material with its image id: the cooked slot, or an error. */
static kiln_result build_slot(const kiln_scene *scene, int32_t index, uint32_t slot,
                              const kiln_scene_texture_ref *ref, uint64_t id,
                              kiln_material_texture *t, kiln_error *err)
{
    const char *name = kiln_material_slot_name(slot);
    if (ref->texture < 0) {
        if (id)
            return kiln_error_set(err, KILN_E_USAGE,
                                  "material %d: an image id for the %s slot, which is empty",
                                  (int)index, name);
        return KILN_OK;
    }
    if ((uint32_t)ref->texture >= scene->texture_count)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "material %d: %s texture %d out of range",
                              (int)index, name, (int)ref->texture);
    if (!id) return KILN_OK; /* no image cooked for it: the slot stays empty */
    if (ref->texcoord >= KILN_MATERIAL_MAX_UV_SETS)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "material %d: %s texture reads UV set %u; kiln keeps sets 0..%d",
                              (int)index, name, ref->texcoord, KILN_MATERIAL_MAX_UV_SETS - 1);
    const kiln_scene_texture *tex = &scene->textures[ref->texture];
    kiln_scene_sampler def = {0};
    def.mipmaps = true; /* glTF's default sampler: filters unset, repeat */
    const kiln_scene_sampler *smp = &def;
    if (tex->sampler >= 0) {
        if ((uint32_t)tex->sampler >= scene->sampler_count)
            return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                  "material %d: %s texture's sampler %d out of range", (int)index,
                                  name, (int)tex->sampler);
        smp = &scene->samplers[tex->sampler];
    }
    if (!filter_ok(smp->mag_filter) || !filter_ok(smp->min_filter) || !filter_ok(smp->mip_filter) ||
        (unsigned)smp->wrap_s > KILN_SCENE_WRAP_MIRROR ||
        (unsigned)smp->wrap_t > KILN_SCENE_WRAP_MIRROR)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                              "material %d: %s texture's sampler has an unknown filter or wrap",
                              (int)index, name);
    t->image = id;
    t->texcoord = ref->texcoord;
    t->mag_filter = (uint8_t)smp->mag_filter;
    t->min_filter = (uint8_t)smp->min_filter;
    t->mipmaps = smp->mipmaps;
    t->mip_filter = smp->mipmaps ? (uint8_t)smp->mip_filter : 0;
    t->wrap_s = (uint8_t)smp->wrap_s;
    t->wrap_t = (uint8_t)smp->wrap_t;
    t->has_transform = ref->has_transform;
    if (ref->has_transform) {
        t->offset[0] = ref->offset[0];
        t->offset[1] = ref->offset[1];
        t->rotation = ref->rotation;
        t->scale[0] = ref->uv_scale[0];
        t->scale[1] = ref->uv_scale[1];
    } else {
        t->scale[0] = t->scale[1] = 1.0f;
    }
    kiln_material_transform_matrix(t->offset, t->rotation, t->scale, t->matrix);
    const float *f = t->offset;
    float all[11] = {f[0], f[1], t->rotation, t->scale[0], t->scale[1]};
    memcpy(all + 5, t->matrix, sizeof t->matrix);
    for (int i = 0; i < 11; i++)
        if (!isfinite(all[i]))
            return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                  "material %d: %s texture transform is not finite", (int)index,
                                  name);
    return KILN_OK;
}

kiln_result kiln_material_build(const kiln_scene *scene, int32_t material,
                                const uint64_t *image_ids, kiln_cooked_material *out,
                                kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_material_build: no output");
    memset(out, 0, sizeof *out);
    if (!scene) return kiln_error_set(err, KILN_E_USAGE, "kiln_material_build: no scene");
    if (material < -1 || (material >= 0 && (uint32_t)material >= scene->material_count))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_material_build: material %d of %u",
                              (int)material, scene->material_count);
    if (material < 0) {
        /* glTF's default material (spec 3.9.6). */
        for (uint32_t s = 0; s < KILN_SCENE_SLOT_COUNT; s++)
            if (image_ids && image_ids[s])
                return kiln_error_set(err, KILN_E_USAGE,
                                      "the default material has no textures, but the %s slot "
                                      "got an image id",
                                      kiln_material_slot_name(s));
        out->name = "";
        out->base_color[0] = out->base_color[1] = out->base_color[2] = out->base_color[3] = 1.0f;
        out->metallic = out->roughness = 1.0f;
        out->emissive_strength = 1.0f;
        out->normal_scale = out->occlusion_strength = 1.0f;
        out->alpha_cutoff = 0.5f;
        kiln_material_ext_defaults(&out->ext);
        return KILN_OK;
    }
    const kiln_scene_material *m = &scene->materials[material];
    kiln_result r = check_factors(m, material, err);
    build_ext(m, &out->ext);
    for (uint32_t s = 0; r == KILN_OK && s < KILN_SCENE_SLOT_COUNT; s++) {
        kiln_material_texture *t = s < KILN_MATERIAL_SLOT_COUNT
                                       ? &out->textures[s]
                                       : &out->ext_textures[s - KILN_MATERIAL_SLOT_COUNT];
        uint64_t id = image_ids ? image_ids[s] : 0;
        /* the texture of an extension the material does not have is not kept */
        if (s >= KILN_MATERIAL_SLOT_COUNT &&
            !(out->ext.present & kiln_material_ext_textures[s - KILN_MATERIAL_SLOT_COUNT].bit)) {
            if (id)
                r = kiln_error_set(err, KILN_E_USAGE,
                                   "material %d: an image id for the %s slot, whose extension "
                                   "the material lacks",
                                   (int)material, kiln_material_slot_name(s));
            continue;
        }
        r = build_slot(scene, material, s, &m->textures[s], id, t, err);
    }
    if (r != KILN_OK) {
        memset(out, 0, sizeof *out);
        return r;
    }
    out->name = m->name ? m->name : "";
    out->name_size = strlen(out->name);
    memcpy(out->base_color, m->base_color, sizeof out->base_color);
    out->metallic = m->metallic;
    out->roughness = m->roughness;
    memcpy(out->emissive, m->emissive, sizeof out->emissive);
    out->emissive_strength = m->emissive_strength;
    out->normal_scale = m->textures[KILN_SCENE_SLOT_NORMAL].scale;
    out->occlusion_strength = m->textures[KILN_SCENE_SLOT_OCCLUSION].scale;
    out->alpha_cutoff = m->alpha_cutoff;
    out->alpha_mode = (uint32_t)m->alpha_mode;
    out->double_sided = m->double_sided;
    out->unlit = m->unlit;
    return KILN_OK;
}
