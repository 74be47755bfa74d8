/* rt_type_skeleton.c — the skeleton type: container SKEL (the skeleton cooked kind), its
 * validated view handed out as it is. No dependencies, no GPU object. */
#include "codec/cooked_kind.h"
#include "runtime/rt_context.h"

static kiln_result decode(krt_asset *a, const krt_decode_args *x, kiln_error *err)
{
    return krt_type_skeleton.kind->read(a->dec.file, a->dec.file_size, x->flags,
                                        &a->data.skeleton.view, err);
}

static const void *view(const krt_asset *a)
{
    return &a->data.skeleton.view;
}

static void swap(krt_asset *a, krt_asset *b)
{
    krt_skeleton_decoded t = a->data.skeleton;
    a->data.skeleton = b->data.skeleton;
    b->data.skeleton = t;
}

const krt_type_ops krt_type_skeleton = {
    .kind = &kiln_cooked_kind_skeleton,
    .decode = decode,
    .view = view,
    .swap = swap,
};

kiln_result krt_get_skeleton(krt_context *c, krt_handle h, const kiln_skeleton_view **out,
                             kiln_error *err)
{
    krt_asset *a = krt_ready_locked(c, h, KRT_TYPE_SKELETON, err);
    if (!a) return KILN_E_USAGE;
    *out = &a->data.skeleton.view;
    pthread_mutex_unlock(&c->mu);
    return KILN_OK;
}

krt_handle krt_load_skeleton(krt_context *c, const char *n, kiln_error *e)
{
    return krt_load(c, KRT_TYPE_SKELETON, n, e);
}
