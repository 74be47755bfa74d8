/* inspect_material.c — the "material" summary of a MATL container (inspect.h): the factors, the
 * alpha mode and every texture slot with its sampler and UV transform, as kiln_material_read
 * finds them. */
#include "pipeline/inspect.h"

static const char *const slot_names[] = {"base_color", "metallic_roughness", "normal", "occlusion",
                                         "emissive"};
static const char *const filter_names[] = {"default", "nearest", "linear"};
static const char *const wrap_names[] = {"repeat", "clamp", "mirror"};
static const char *const alpha_names[] = {"opaque", "mask", "blend"};

static json_t *texture_doc(const kiln_material_texture *t)
{
    json_t *tj = json_object();
    json_object_set_new(tj, "image", kiln_inspect_id(t->image));
    json_object_set_new(tj, "texcoord", json_integer(t->texcoord));
    json_object_set_new(tj, "mag_filter",
                        json_string(kiln_inspect_name(t->mag_filter, filter_names, 3)));
    json_object_set_new(tj, "min_filter",
                        json_string(kiln_inspect_name(t->min_filter, filter_names, 3)));
    json_object_set_new(tj, "mip_filter",
                        json_string(kiln_inspect_name(t->mip_filter, filter_names, 3)));
    json_object_set_new(tj, "mipmaps", json_boolean(t->mipmaps));
    json_object_set_new(tj, "wrap_s", json_string(kiln_inspect_name(t->wrap_s, wrap_names, 3)));
    json_object_set_new(tj, "wrap_t", json_string(kiln_inspect_name(t->wrap_t, wrap_names, 3)));
    if (t->has_transform) {
        json_t *x = json_object();
        json_object_set_new(x, "offset", kiln_inspect_f32s(t->offset, 2));
        json_object_set_new(x, "rotation", kiln_inspect_f32(t->rotation));
        json_object_set_new(x, "scale", kiln_inspect_f32s(t->scale, 2));
        json_object_set_new(tj, "transform", x);
    } else {
        json_object_set_new(tj, "transform", json_null());
    }
    json_object_set_new(tj, "matrix", kiln_inspect_f32s(t->matrix, 6));
    return tj;
}

kiln_result kiln_inspect_material(const uint8_t *data, size_t size, json_t **out, kiln_error *err)
{
    _Static_assert(sizeof slot_names / sizeof slot_names[0] == KILN_MATERIAL_SLOT_COUNT,
                   "a name for every texture slot");
    kiln_material_view v;
    kiln_result r = kiln_material_read(data, size, 0, &v, err);
    if (r != KILN_OK) return r;
    const kiln_material *m = &v.material;
    json_t *j = json_object();
    json_object_set_new(j, "name", kiln_inspect_str(m->name, m->name_size));
    json_object_set_new(j, "base_color", kiln_inspect_f32s(m->base_color, 4));
    json_object_set_new(j, "metallic", kiln_inspect_f32(m->metallic));
    json_object_set_new(j, "roughness", kiln_inspect_f32(m->roughness));
    json_object_set_new(j, "emissive", kiln_inspect_f32s(m->emissive, 3));
    json_object_set_new(j, "emissive_strength", kiln_inspect_f32(m->emissive_strength));
    json_object_set_new(j, "normal_scale", kiln_inspect_f32(m->normal_scale));
    json_object_set_new(j, "occlusion_strength", kiln_inspect_f32(m->occlusion_strength));
    json_object_set_new(j, "alpha_mode",
                        json_string(kiln_inspect_name(m->alpha_mode, alpha_names, 3)));
    json_object_set_new(j, "alpha_cutoff", kiln_inspect_f32(m->alpha_cutoff));
    json_object_set_new(j, "double_sided", json_boolean(m->double_sided));
    json_object_set_new(j, "unlit", json_boolean(m->unlit));
    json_t *slots = json_object();
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
        const kiln_material_texture *t = &m->textures[s];
        json_object_set_new(slots, slot_names[s], t->image ? texture_doc(t) : json_null());
    }
    json_object_set_new(j, "textures", slots);
    *out = j;
    return KILN_OK;
}
