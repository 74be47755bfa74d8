/* cooked_texture.c — the texture kind: a KTX2 file (ktx2_read.c), referring to nothing. Labels:
 * "texture" (an image source's one artifact) and "image" (a model's images, one per role). */
#include "codec/cooked_kind.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view,
                        kiln_error *err)
{
    (void)flags; /* KTX2 has no checksum of its own to skip */
    return kiln_ktx2_read(data, size, view, err);
}

static const char *const labels[] = {"image", "texture", NULL};

const kiln_cooked_kind kiln_cooked_kind_texture = {
    .name = "texture",
    .fourcc = KILN_PACK_KIND_KTX2,
    .labels = labels,
    .view_size = sizeof(kiln_ktx2_info),
    .read = read,
    .refs = NULL,
};
