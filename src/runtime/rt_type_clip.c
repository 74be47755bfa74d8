/* rt_type_clip.c — the clip type: container CLIP (the clip cooked kind), its validated view
 * handed out as it is. The skeleton it names ships with it but is not loaded with it (the kind
 * does not flag it KILN_REF_LOAD: an engine samples a clip against the skeleton it chose). No
 * GPU object. */
#include "codec/cooked_kind.h"
#include "runtime/rt_context.h"

static kiln_result decode(krt_asset *a, const krt_decode_args *x, kiln_error *err)
{
    return krt_type_clip.kind->read(a->dec.file, a->dec.file_size, x->flags, &a->data.clip.view,
                                    err);
}

static const void *view(const krt_asset *a) { return &a->data.clip.view; }

static void swap(krt_asset *a, krt_asset *b)
{
    KRT_SWAP(krt_clip_decoded, a->data.clip, b->data.clip);
}

const krt_type_ops krt_type_clip = {
    .kind = &kiln_cooked_kind_clip,
    .decode = decode,
    .view = view,
    .swap = swap,
};

KRT_TYPE_API(clip, KRT_TYPE_CLIP, const kiln_clip_view *, &a->data.clip.view)
