/* cooked_material.c — the material kind: container MATL (material_read.c), loaded with the
 * textures of its slots (those that have one, in slot order: the five core slots, then the
 * extensions'); inspect describes the factors, the alpha mode, every texture slot with its
 * sampler and UV transform, and each glTF extension present with its factors and textures. */
#include <stdio.h>

#include "codec/cooked_kind.h"
#include "codec/describe.h"
#include "codec/material_ext.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view, kiln_error *err)
{
    return kiln_material_read(data, size, flags, view, err);
}

static kiln_result refs(const void *view, kiln_ref_fn fn, void *user, kiln_error *err)
{
    const kiln_material *m = &((const kiln_material_view *)view)->material;
    kiln_result r = KILN_OK;
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT && r == KILN_OK; s++)
        if (m->textures[s].image)
            r = fn(user, m->textures[s].image, KILN_PACK_KIND_KTX2, KILN_REF_LOAD, err);
    for (int s = 0; s < KILN_MATERIAL_EXT_SLOT_COUNT && r == KILN_OK; s++)
        if (m->ext_textures[s].image)
            r = fn(user, m->ext_textures[s].image, KILN_PACK_KIND_KTX2, KILN_REF_LOAD, err);
    return r;
}

static const char *const slot_names[] = {"base_color", "metallic_roughness", "normal", "occlusion",
                                         "emissive"};
_Static_assert(sizeof slot_names / sizeof slot_names[0] == KILN_MATERIAL_SLOT_COUNT,
               "a name for every texture slot");
static const char *const filter_names[] = {"default", "nearest", "linear"};
static const char *const wrap_names[] = {"repeat", "clamp", "mirror"};
static const char *const alpha_names[] = {"opaque", "mask", "blend"};

static void describe_texture(kiln_describe *d, const char *key, const kiln_material_texture *t)
{
    kiln_describe_object(d, key);
    kiln_describe_id(d, "image", t->image);
    kiln_describe_int(d, "texcoord", t->texcoord);
    kiln_describe_cstring(d, "mag_filter", kiln_describe_name(t->mag_filter, filter_names, 3));
    kiln_describe_cstring(d, "min_filter", kiln_describe_name(t->min_filter, filter_names, 3));
    kiln_describe_cstring(d, "mip_filter", kiln_describe_name(t->mip_filter, filter_names, 3));
    kiln_describe_bool(d, "mipmaps", t->mipmaps);
    kiln_describe_cstring(d, "wrap_s", kiln_describe_name(t->wrap_s, wrap_names, 3));
    kiln_describe_cstring(d, "wrap_t", kiln_describe_name(t->wrap_t, wrap_names, 3));
    if (t->has_transform) {
        kiln_describe_object(d, "transform");
        kiln_describe_floats(d, "offset", t->offset, 2);
        kiln_describe_float(d, "rotation", t->rotation);
        kiln_describe_floats(d, "scale", t->scale, 2);
        kiln_describe_end(d);
    } else {
        kiln_describe_null(d, "transform");
    }
    kiln_describe_floats(d, "matrix", t->matrix, 6);
    kiln_describe_end(d);
}

static void describe(const void *view, kiln_describe *d)
{
    const kiln_material *m = &((const kiln_material_view *)view)->material;
    kiln_describe_string(d, "name", m->name, m->name_size);
    kiln_describe_floats(d, "base_color", m->base_color, 4);
    kiln_describe_float(d, "metallic", m->metallic);
    kiln_describe_float(d, "roughness", m->roughness);
    kiln_describe_floats(d, "emissive", m->emissive, 3);
    kiln_describe_float(d, "emissive_strength", m->emissive_strength);
    kiln_describe_float(d, "normal_scale", m->normal_scale);
    kiln_describe_float(d, "occlusion_strength", m->occlusion_strength);
    kiln_describe_cstring(d, "alpha_mode", kiln_describe_name(m->alpha_mode, alpha_names, 3));
    kiln_describe_float(d, "alpha_cutoff", m->alpha_cutoff);
    kiln_describe_bool(d, "double_sided", m->double_sided);
    kiln_describe_bool(d, "unlit", m->unlit);
    kiln_describe_object(d, "textures");
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
        const kiln_material_texture *t = &m->textures[s];
        if (t->image) describe_texture(d, slot_names[s], t);
        else kiln_describe_null(d, slot_names[s]);
    }
    kiln_describe_end(d);
    /* the extensions present, each with its factors and the textures of its slots */
    kiln_describe_object(d, "extensions");
    for (uint32_t bit = 1; bit <= KILN_MATERIAL_EXT_ALL; bit <<= 1) {
        if (!(m->ext.present & bit)) continue;
        kiln_describe_object(d, kiln_material_ext_name(bit));
        for (size_t i = 0; i < kiln_material_ext_field_count; i++) {
            const kiln_material_ext_field *f = &kiln_material_ext_fields[i];
            if (f->bit != bit) continue;
            const float *v = kiln_material_ext_get(&m->ext, f);
            if (f->count == 1) kiln_describe_float(d, f->name, v[0]);
            else kiln_describe_floats(d, f->name, v, f->count);
        }
        for (uint32_t s = 0; s < KILN_MATERIAL_EXT_SLOT_COUNT; s++) {
            if (kiln_material_ext_textures[s].bit != bit) continue;
            const kiln_material_texture *t = &m->ext_textures[s];
            char key[48];
            snprintf(key, sizeof key, "%s_texture", kiln_material_ext_slot_name(s));
            if (t->image) describe_texture(d, key, t);
            else kiln_describe_null(d, key);
        }
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
}

static const char *const labels[] = {"material", NULL};

const kiln_cooked_kind kiln_cooked_kind_material = {
    .name = "material",
    .fourcc = KILN_MATERIAL_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_material_view),
    .read = read,
    .refs = refs,
    .describe = describe,
};
