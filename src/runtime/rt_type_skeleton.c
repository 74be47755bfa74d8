/* rt_type_skeleton.c — the skeleton type: container SKEL (the skeleton cooked kind), its
 * validated view handed out as it is. No dependencies, no GPU object. */
#include "codec/cooked_kind.h"
#include "runtime/rt_context.h"

static kiln_result decode(krt_asset *a, const krt_decode_args *x, kiln_error *err)
{
    return krt_type_skeleton.kind->read(a->dec.file, a->dec.file_size, x->flags,
                                        &a->data.skeleton.view, err);
}

static const void *view(const krt_asset *a) { return &a->data.skeleton.view; }

static void swap(krt_asset *a, krt_asset *b)
{
    KRT_SWAP(krt_skeleton_decoded, a->data.skeleton, b->data.skeleton);
}

const krt_type_ops krt_type_skeleton = {
    .kind = &kiln_cooked_kind_skeleton,
    .decode = decode,
    .view = view,
    .swap = swap,
};

KRT_TYPE_API(skeleton, KRT_TYPE_SKELETON, const kiln_skeleton_view *, &a->data.skeleton.view)
