/* cooked_skeleton.c — the skeleton kind: container SKEL (skeleton_read.c), referring to nothing. */
#include "codec/cooked_kind.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view,
                        kiln_error *err)
{
    return kiln_skeleton_read(data, size, flags, view, err);
}

static const char *const labels[] = {"skeleton", NULL};

const kiln_cooked_kind kiln_cooked_kind_skeleton = {
    .name = "skeleton",
    .fourcc = KILN_SKELETON_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_skeleton_view),
    .read = read,
    .refs = NULL,
};
