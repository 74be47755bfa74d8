/* rt_cpu_drop.c — KRT_DESC_DROP_CPU_AFTER_UPLOAD: once the renderer's create_* or replace_*
 * callback has taken a texture's or mesh's data (krt_update, the renderer thread), the CPU copy
 * goes — the file's bytes (or its mapping, or the pack reference it is a view into), decoded
 * and transcoded levels, unpacked streams — and only the dependency references stay (a mesh
 * holds its material). The asset stays ready; the getters refuse it; retire_locked does not
 * keep it under the budget (nothing to revive from). Materials, skeletons, clips and scenes are
 * read by the engine and by the runtime itself (the material table) and are left alone. */
#include "core/error.h"
#include "runtime/rt_context.h"

void krt_cpu_drop_locked(krt_context *c, krt_asset *a)
{
    if (!(c->desc.flags & KRT_DESC_DROP_CPU_AFTER_UPLOAD) || !a->has_gpu || a->cpu_dropped ||
        (a->type != KRT_TYPE_TEXTURE && a->type != KRT_TYPE_MESH))
        return;
    /* The dependency arrays are data too (krt_asset_free_data frees them): set aside, put back. */
    uint64_t *dep_ids = a->dep_ids;
    uint32_t *dep_types = a->dep_types;
    krt_handle *deps = a->deps;
    size_t dep_count = a->dep_count, dep_cap = a->dep_cap;
    a->dep_ids = NULL;
    a->dep_types = NULL;
    a->deps = NULL;
    a->dep_count = a->dep_cap = 0;
    krt_asset_drop_data_locked(c, a); /* resident bytes and the pack reference with it */
    a->dep_ids = dep_ids;
    a->dep_types = dep_types;
    a->deps = deps;
    a->dep_count = dep_count;
    a->dep_cap = dep_cap;
    krt_asset_link_deps(a); /* a mesh's material handle */
    a->cpu_dropped = true;
}
