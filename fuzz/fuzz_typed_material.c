/* fuzz_typed_material.c — libFuzzer target for kiln_typed_material_read and its texture accessor:
 * any input gives an error or a typed material whose every string is inside the input, whose
 * block bytes can all be read, whose fields are in their ranges and whose textures are in
 * strictly increasing (set, binding) order with non-zero image ids. Checked with the checksum
 * and without it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool inside(const void *p, const uint8_t *data, size_t size)
{
    const uint8_t *b = p;
    return b >= data && b < data + size;
}

static void check(const uint8_t *data, size_t size, uint32_t flags)
{
    kiln_typed_material_view v;
    kiln_error err;
    kiln_result r = kiln_typed_material_read(data, size, flags, &v, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_FORMAT_INVALID && r != KILN_E_FORMAT_VERSION) abort();
        return;
    }
    const kiln_typed_material *m = &v.material;
    const char *strings[] = {m->name, m->vertex.variant, m->fragment.variant, m->block_name};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        if (!inside(strings[i], data, size) || !inside(strings[i] + strlen(strings[i]), data, size))
            abort();
    if (!m->vertex.shader || !m->fragment.shader || !*m->vertex.variant || !*m->fragment.variant)
        abort();
    if (m->block_kind > KILN_TYPED_BLOCK_PUSH || m->block_size > KILN_TYPED_MATERIAL_MAX_BLOCK ||
        (m->block_kind == KILN_TYPED_BLOCK_NONE) != (m->block_size == 0) ||
        (m->block_size &&
         (!inside(m->block, data, size) || !inside(m->block + m->block_size - 1, data, size))))
        abort();
    if (m->alpha_mode > KILN_MATERIAL_ALPHA_BLEND || !(m->alpha_cutoff >= 0.0f) ||
        !(m->alpha_cutoff <= 1.0f) || m->blend >= KILN_MATERIAL_BLEND_COUNT || m->flags > 7 ||
        m->texture_count > KILN_TYPED_MATERIAL_MAX_TEXTURES || m->textures)
        abort();
    uint64_t prev = 0;
    for (uint32_t i = 0; i < m->texture_count; i++) {
        kiln_typed_material_texture t = kiln_typed_material_texture_at(&v, i);
        uint64_t key = (uint64_t)t.set << 32 | t.binding;
        if (!t.image || !inside(t.name, data, size) ||
            !inside(t.name + strlen(t.name), data, size) || (i && key <= prev) ||
            t.mag_filter > 2 || t.min_filter > 2 || t.mip_filter > 2 || t.wrap_s > 2 ||
            t.wrap_t > 2)
            abort();
        prev = key;
    }
    if (kiln_typed_material_texture_at(&v, m->texture_count).name) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size, 0);
    check(data, size, KILN_CONTAINER_SKIP_CHECKSUM);
    return 0;
}
