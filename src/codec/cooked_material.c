/* cooked_material.c — the material kind: container MATL (material_read.c), loaded with the
 * textures of its slots (those that have one, in slot order). */
#include "codec/cooked_kind.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view,
                        kiln_error *err)
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
    return r;
}

static const char *const labels[] = {"material", NULL};

const kiln_cooked_kind kiln_cooked_kind_material = {
    .name = "material",
    .fourcc = KILN_MATERIAL_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_material_view),
    .read = read,
    .refs = refs,
};
