/* rt_cpu_drop.c — KRT_DESC_DROP_CPU_AFTER_UPLOAD: once the renderer's create_* or replace_*
 * callback has taken the data of an asset whose type allows it (KRT_TYPE_OPS_CPU_DROP: textures
 * and meshes) (krt_update, the renderer thread), the CPU copy goes — the file's bytes (or its
 * mapping, or the pack reference it is a view into) and whatever the type's decode made — and
 * only the dependency references stay (a mesh holds its material). The asset stays ready; the
 * getters refuse it; retire_locked does not keep it under the budget (nothing to revive from).
 * Materials, skeletons, clips and scenes are read by the engine and by the runtime itself (the
 * material table) and are left alone. */
#include "core/error.h"
#include "runtime/rt_context.h"

void krt_cpu_drop_locked(krt_context *c, krt_asset *a)
{
    if (!(c->desc.flags & KRT_DESC_DROP_CPU_AFTER_UPLOAD) || !a->has_gpu || a->dec.cpu_dropped ||
        !(a->ops->flags & KRT_TYPE_OPS_CPU_DROP))
        return;
    /* The dependency arrays are data too (krt_asset_free_data frees them): set aside, put back. */
    krt_decoded *d = &a->dec;
    uint64_t *dep_ids = d->dep_ids;
    uint32_t *dep_types = d->dep_types;
    krt_handle *deps = d->deps;
    size_t dep_count = d->dep_count, dep_cap = d->dep_cap;
    d->dep_ids = NULL;
    d->dep_types = NULL;
    d->deps = NULL;
    d->dep_count = d->dep_cap = 0;
    krt_asset_drop_data_locked(c, a); /* resident bytes and the pack reference with it */
    d->dep_ids = dep_ids;
    d->dep_types = dep_types;
    d->deps = deps;
    d->dep_count = dep_count;
    d->dep_cap = dep_cap;
    krt_asset_link_deps(a); /* a mesh's material handle */
    d->cpu_dropped = true;
}
