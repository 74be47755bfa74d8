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

static const void *view(const krt_asset *a)
{
    return &a->data.clip.view;
}

static void swap(krt_asset *a, krt_asset *b)
{
    krt_clip_decoded t = a->data.clip;
    a->data.clip = b->data.clip;
    b->data.clip = t;
}

const krt_type_ops krt_type_clip = {
    .kind = &kiln_cooked_kind_clip,
    .decode = decode,
    .view = view,
    .swap = swap,
};

kiln_result krt_get_clip(krt_context *c, krt_handle h, const kiln_clip_view **out, kiln_error *err)
{
    krt_asset *a = krt_ready_locked(c, h, KRT_TYPE_CLIP, err);
    if (!a) return KILN_E_USAGE;
    *out = &a->data.clip.view;
    pthread_mutex_unlock(&c->mu);
    return KILN_OK;
}

krt_handle krt_load_clip(krt_context *c, const char *n, kiln_error *e)
{
    return krt_load(c, KRT_TYPE_CLIP, n, e);
}
