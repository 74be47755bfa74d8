/* fuzz_material.c — libFuzzer target for kiln_material_read: any input gives an error or a
 * material that keeps every promise of kiln_format.h (name inside the input and NUL-terminated,
 * factors in range, enums known, empty slots zero, matrices finite; extension bits known, their
 * factors in range and glTF's defaults when absent, the slots of absent ones empty). Checked with
 * the checksum and without it (a fuzzer rarely forges one). Seeds: fuzz/corpus/material/, written
 * by tests/cooked_formats and tests/material_ext (KILN_WRITE_FUZZ_SEEDS=1). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/material_ext.h"
#include "kiln/kiln_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const uint8_t *data, size_t size, uint32_t flags)
{
    kiln_material_view v;
    kiln_error err;
    kiln_result r = kiln_material_read(data, size, flags, &v, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_FORMAT_INVALID && r != KILN_E_FORMAT_VERSION && r != KILN_E_USAGE) abort();
        return;
    }
    const kiln_material *m = &v.material;
    const uint8_t *name = (const uint8_t *)m->name;
    if (name < data || m->name_size >= size || (size_t)(name - data) > size - m->name_size - 1)
        abort();
    if (m->name[m->name_size] != 0 || strlen(m->name) != m->name_size) abort();
    for (int i = 0; i < 4; i++)
        if (!(m->base_color[i] >= 0 && m->base_color[i] <= 1)) abort();
    if (!(m->metallic >= 0 && m->metallic <= 1 && m->roughness >= 0 && m->roughness <= 1)) abort();
    if (!(m->emissive_strength >= 0) || !isfinite(m->emissive_strength)) abort();
    if (!isfinite(m->normal_scale) || !isfinite(m->occlusion_strength)) abort();
    if (!(m->alpha_cutoff >= 0) || m->alpha_mode > KILN_MATERIAL_ALPHA_BLEND) abort();
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
        const kiln_material_texture *t = &m->textures[s];
        if (t->texcoord >= KILN_MATERIAL_MAX_UV_SETS || t->mag_filter > 2 || t->min_filter > 2 ||
            t->mip_filter > 2 || t->wrap_s > 2 || t->wrap_t > 2)
            abort();
        for (int i = 0; i < 6; i++)
            if (!isfinite(t->matrix[i])) abort();
        if (!t->image && (t->texcoord || t->has_transform || t->mipmaps)) abort();
    }
    /* the extensions: known bits, factors in range, defaults for absent ones, their slots empty */
    const kiln_material_ext *e = &m->ext;
    if (e->present & ~(uint32_t)KILN_MATERIAL_EXT_ALL) abort();
    if (((e->present & KILN_MATERIAL_EXT_UNLIT) != 0) != m->unlit) abort();
    kiln_material_ext def;
    kiln_material_ext_defaults(&def);
    for (size_t i = 0; i < kiln_material_ext_field_count; i++) {
        const kiln_material_ext_field *f = &kiln_material_ext_fields[i];
        const float *x = kiln_material_ext_get(e, f);
        for (uint32_t k = 0; k < f->count; k++)
            if (!kiln_material_ext_in_range(f->range, x[k])) abort();
        if (!(e->present & f->bit) &&
            memcmp(x, kiln_material_ext_get(&def, f), f->count * sizeof *x) != 0)
            abort();
    }
    for (int s = 0; s < KILN_MATERIAL_EXT_SLOT_COUNT; s++) {
        const kiln_material_texture *t = &m->ext_textures[s];
        if (t->texcoord >= KILN_MATERIAL_MAX_UV_SETS || t->mag_filter > 2 || t->wrap_t > 2) abort();
        for (int i = 0; i < 6; i++)
            if (!isfinite(t->matrix[i])) abort();
        if (t->image && !(e->present & kiln_material_ext_textures[s].bit)) abort();
        if (!t->image && (t->texcoord || t->has_transform || t->mipmaps)) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size, 0);
    check(data, size, KILN_CONTAINER_SKIP_CHECKSUM);
    return 0;
}
