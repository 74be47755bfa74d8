/* material_write.c — kiln_material_write (material_write.h; docs/formats.md, "Materials"). */
#include "write/material_write.h"

#include <string.h>

#include "codec/material_ext.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"
#include "write/container_write.h"

/* One MTEX / MXTX record. */
static void store_texture(const kiln_material_texture *t, uint8_t *p)
{
    kiln_store_u64le(p + 0, t->image);
    kiln_store_u32le(p + 8, t->texcoord);
    p[12] = t->mag_filter;
    p[13] = t->min_filter;
    p[14] = t->mip_filter;
    p[15] = (uint8_t)((t->mipmaps ? 1u : 0u) | (t->has_transform ? 2u : 0u));
    p[16] = t->wrap_s;
    p[17] = t->wrap_t;
    kiln_store_f32le_array(p + 20, t->offset, 2);
    kiln_store_f32le(p + 28, t->rotation);
    kiln_store_f32le_array(p + 32, t->scale, 2);
    kiln_store_f32le_array(p + 40, t->matrix, 6);
}

kiln_result kiln_material_write(const kiln_material *m, const kiln_allocator *alloc, uint8_t **out,
                                size_t *size, kiln_error *err)
{
    if (!out || !size) return kiln_error_set(err, KILN_E_USAGE, "kiln_material_write: no output");
    *out = NULL;
    *size = 0;
    if (!m || (!m->name && m->name_size))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_material_write: no material");
    if (m->name_size >= UINT32_MAX)
        return kiln_error_set(err, KILN_E_LIMIT, "material name of %zu bytes", m->name_size);

    uint8_t params[KILN_MATERIAL_PARAMS_SIZE];
    uint8_t tex[KILN_MATERIAL_SLOT_COUNT][KILN_MATERIAL_TEXTURE_SIZE];
    uint8_t ext[KILN_MATERIAL_EXT_SIZE];
    uint8_t ext_tex[KILN_MATERIAL_EXT_SLOT_COUNT][KILN_MATERIAL_TEXTURE_SIZE];
    memset(params, 0, sizeof params);
    memset(tex, 0, sizeof tex);
    memset(ext, 0, sizeof ext);
    memset(ext_tex, 0, sizeof ext_tex);
    kiln_store_f32le_array(params + 0, m->base_color, 4);
    kiln_store_f32le(params + 16, m->metallic);
    kiln_store_f32le(params + 20, m->roughness);
    kiln_store_f32le_array(params + 24, m->emissive, 3);
    kiln_store_f32le(params + 36, m->emissive_strength);
    kiln_store_f32le(params + 40, m->normal_scale);
    kiln_store_f32le(params + 44, m->occlusion_strength);
    kiln_store_f32le(params + 48, m->alpha_cutoff);
    kiln_store_u32le(params + 52, m->alpha_mode);
    kiln_store_u32le(params + 56, (m->double_sided ? 1u : 0u) | (m->unlit ? 2u : 0u));
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) store_texture(&m->textures[s], tex[s]);
    kiln_store_u32le(ext, m->ext.present);
    for (size_t i = 0; i < kiln_material_ext_field_count; i++) {
        const kiln_material_ext_field *f = &kiln_material_ext_fields[i];
        kiln_store_f32le_array(ext + f->offset, kiln_material_ext_get(&m->ext, f), f->count);
    }
    for (int s = 0; s < KILN_MATERIAL_EXT_SLOT_COUNT; s++)
        store_texture(&m->ext_textures[s], ext_tex[s]);
    /* The name with its NUL; a name without one in memory is copied so the NUL is ours. */
    size_t name_bytes = m->name_size + 1;
    char *name = kiln_calloc(alloc, 1, name_bytes);
    if (!name) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "material name: out of memory");
    if (m->name_size) memcpy(name, m->name, m->name_size);

    kiln_container_writer w;
    kiln_container_begin(&w, KILN_MATERIAL_KIND, KILN_MATERIAL_KIND_VERSION, alloc);
    kiln_result r;
    if ((r = kiln_container_add(&w, KILN_MATERIAL_SECTION_PARAMS, KILN_MATERIAL_PARAMS_SIZE, 1,
                                params, err)) ||
        (r = kiln_container_add(&w, KILN_MATERIAL_SECTION_TEXTURES, KILN_MATERIAL_TEXTURE_SIZE,
                                KILN_MATERIAL_SLOT_COUNT, tex, err)) ||
        (r = kiln_container_add(&w, KILN_MATERIAL_SECTION_NAME, 1, name_bytes, name, err)) ||
        (r = kiln_container_add(&w, KILN_MATERIAL_SECTION_EXT, KILN_MATERIAL_EXT_SIZE, 1, ext,
                                err)) ||
        (r = kiln_container_add(&w, KILN_MATERIAL_SECTION_EXT_TEX, KILN_MATERIAL_TEXTURE_SIZE,
                                KILN_MATERIAL_EXT_SLOT_COUNT, ext_tex, err)) ||
        (r = kiln_container_finish(&w, out, size, err))) {
        kiln_free(alloc, name, name_bytes);
        return r;
    }
    kiln_free(alloc, name, name_bytes);
    kiln_material_view v;
    kiln_error rerr;
    if (kiln_material_read(*out, *size, KILN_CONTAINER_SKIP_CHECKSUM, &v, &rerr) != KILN_OK) {
        kiln_free(alloc, *out, *size);
        *out = NULL;
        *size = 0;
        return kiln_error_set(err, KILN_E_USAGE, "kiln_material_write: not a valid material: %s",
                              rerr.message);
    }
    return KILN_OK;
}
