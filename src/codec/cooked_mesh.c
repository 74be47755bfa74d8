/* cooked_mesh.c — the mesh kind: container MESH (mesh_read.c), loaded with its material. */
#include "codec/cooked_kind.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view,
                        kiln_error *err)
{
    return kiln_mesh_read(data, size, flags, view, err);
}

static kiln_result refs(const void *view, kiln_ref_fn fn, void *user, kiln_error *err)
{
    const kiln_mesh_view *v = view;
    if (!v->material) return KILN_OK;
    return fn(user, v->material, KILN_MATERIAL_KIND, KILN_REF_LOAD, err);
}

static const char *const labels[] = {"mesh", NULL};

const kiln_cooked_kind kiln_cooked_kind_mesh = {
    .name = "mesh",
    .fourcc = KILN_MESH_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_mesh_view),
    .read = read,
    .refs = refs,
};
