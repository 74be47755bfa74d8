/* rt_types.c — the registry of runtime types: one line per built-in type, and the look-ups from
 * a cooked kind, a fourcc or a label to a type number (the cooked kinds' own look-ups for the
 * built-in kinds, then the kinds of the types a program registered). */
#include <string.h>

#include "runtime/rt_type.h"

static const krt_type_registry builtin = {
    .ops =
        {
            [KRT_TYPE_TEXTURE] = &krt_type_texture,
            [KRT_TYPE_MESH] = &krt_type_mesh,
            [KRT_TYPE_MATERIAL] = &krt_type_material,
            [KRT_TYPE_SKELETON] = &krt_type_skeleton,
            [KRT_TYPE_CLIP] = &krt_type_clip,
            [KRT_TYPE_SCENE] = &krt_type_scene,
            [KRT_TYPE_SHADER] = &krt_type_shader,
            [KRT_TYPE_TYPED_MATERIAL] = &krt_type_typed_material,
            [KRT_TYPE_VGEO] = &krt_type_vgeo,
        },
    .count = KRT_TYPE_COUNT,
};

void krt_types_init(krt_type_registry *r) { *r = builtin; }

const krt_type_registry *krt_types_builtin(void) { return &builtin; }

uint32_t krt_types_of_kind(const krt_type_registry *r, const kiln_cooked_kind *kind)
{
    if (!r) r = &builtin;
    for (uint32_t t = 1; kind && t < r->count; t++)
        if (r->ops[t] && r->ops[t]->kind == kind) return t;
    return KRT_TYPE_NONE;
}

uint32_t krt_types_of_fourcc(const krt_type_registry *r, uint32_t fourcc)
{
    if (!r) r = &builtin;
    const kiln_cooked_kind *k = kiln_cooked_kind_of_fourcc(fourcc);
    if (k) return krt_types_of_kind(r, k);
    for (uint32_t t = KRT_TYPE_COUNT; t < r->count; t++) /* the kinds a program registered */
        if (r->ops[t] && r->ops[t]->kind->fourcc == fourcc) return t;
    return KRT_TYPE_NONE;
}

uint32_t krt_types_of_label(const krt_type_registry *r, const char *label)
{
    if (!r) r = &builtin;
    const kiln_cooked_kind *k = kiln_cooked_kind_of_label(label, NULL);
    if (k) return krt_types_of_kind(r, k);
    for (uint32_t t = KRT_TYPE_COUNT; t < r->count; t++)
        for (const char *const *l = r->ops[t] ? r->ops[t]->kind->labels : NULL; l && *l; l++)
            if (strncmp(label, *l, strlen(*l)) == 0) return t;
    return KRT_TYPE_NONE;
}

const char *krt_types_name(const krt_type_registry *r, uint32_t t)
{
    const krt_type_ops *o = krt_types_at(r ? r : &builtin, t);
    return o ? o->kind->name : "none";
}
