/* cooked_clip.c — the clip kind: container CLIP (clip_read.c). It names the skeleton it was
 * cooked against: packed with it, not loaded with it (an engine samples a clip against the
 * skeleton it chose; a scene loads both). */
#include "codec/cooked_kind.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view,
                        kiln_error *err)
{
    return kiln_clip_read(data, size, flags, view, err);
}

static kiln_result refs(const void *view, kiln_ref_fn fn, void *user, kiln_error *err)
{
    const kiln_clip_view *v = view;
    return v->skeleton ? fn(user, v->skeleton, KILN_SKELETON_KIND, 0, err) : KILN_OK;
}

static const char *const labels[] = {"clip", NULL};

const kiln_cooked_kind kiln_cooked_kind_clip = {
    .name = "clip",
    .fourcc = KILN_CLIP_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_clip_view),
    .read = read,
    .refs = refs,
};
