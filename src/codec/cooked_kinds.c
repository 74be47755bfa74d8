/* cooked_kinds.c — the registry of cooked kinds: one line per kind, and the lookups over it. */
#include <string.h>

#include "codec/cooked_kind.h"
#include "codec/vk_format.h"
#include "core/reader.h"

static const kiln_cooked_kind *const registry[] = {
    &kiln_cooked_kind_texture,  &kiln_cooked_kind_mesh,           &kiln_cooked_kind_material,
    &kiln_cooked_kind_skeleton, &kiln_cooked_kind_clip,           &kiln_cooked_kind_scene,
    &kiln_cooked_kind_shader,   &kiln_cooked_kind_typed_material, &kiln_cooked_kind_vgeo,
};

KILN_API const kiln_cooked_kind *kiln_cooked_kind_at(size_t i)
{
    return i < sizeof registry / sizeof registry[0] ? registry[i] : NULL;
}

KILN_API const kiln_cooked_kind *kiln_cooked_kind_of_fourcc(uint32_t fourcc)
{
    const kiln_cooked_kind *k;
    for (size_t i = 0; (k = kiln_cooked_kind_at(i)) != NULL; i++)
        if (k->fourcc == fourcc) return k;
    return NULL;
}

KILN_API const kiln_cooked_kind *kiln_cooked_kind_of_label(const char *label, const char **prefix)
{
    const kiln_cooked_kind *k;
    for (size_t i = 0; label && (k = kiln_cooked_kind_at(i)) != NULL; i++)
        for (const char *const *l = k->labels; *l; l++)
            if (strncmp(label, *l, strlen(*l)) == 0) {
                if (prefix) *prefix = *l;
                return k;
            }
    return NULL;
}

KILN_API const kiln_cooked_kind *kiln_cooked_kind_of_bytes(const void *data, size_t size,
                                                           uint32_t *fourcc)
{
    const uint8_t *d = data;
    uint32_t f = 0;
    if (size >= sizeof kiln_ktx2_identifier &&
        !memcmp(d, kiln_ktx2_identifier, sizeof kiln_ktx2_identifier))
        f = KILN_PACK_KIND_KTX2;
    else if (size >= KILN_CONTAINER_HEADER_SIZE && !memcmp(d, "KILN", 4))
        f = kiln_load_u32le(d + 8);
    if (fourcc) *fourcc = f;
    return f ? kiln_cooked_kind_of_fourcc(f) : NULL;
}
