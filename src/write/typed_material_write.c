/* typed_material_write.c — see typed_material_write.h; the layout is in docs/formats.md, "Typed
 * materials". The strings are laid out in one fixed order (the name, the two variants, the
 * block's name, then each texture's name), each once per use, so equal materials give equal
 * bytes. */
#include "write/typed_material_write.h"

#include <string.h>

#include "codec/typed_material_sections.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"
#include "write/container_write.h"

static const char *or_empty(const char *s) { return s ? s : ""; }

/* Appends s to the strings (at *at), returning its offset; "" is offset 0, the leading NUL. */
static uint32_t put_string(char *strings, size_t *at, const char *s)
{
    if (!*s) return 0;
    size_t n = strlen(s) + 1;
    uint32_t off = (uint32_t)*at;
    memcpy(strings + *at, s, n);
    *at += n;
    return off;
}

static kiln_result check_arguments(const kiln_typed_material *m, kiln_error *err)
{
    if (!m->vertex.variant || !m->fragment.variant)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_typed_material_write: a stage's variant "
                              "name is NULL");
    if (m->block_size && !m->block)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_typed_material_write: %u block bytes at NULL", m->block_size);
    if (m->texture_count && !m->textures)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_typed_material_write: %u textures at NULL",
                              m->texture_count);
    if (m->block_size > KILN_TYPED_MATERIAL_MAX_BLOCK)
        return kiln_error_set(err, KILN_E_LIMIT, "typed material: a %u-byte block (at most %u)",
                              m->block_size, KILN_TYPED_MATERIAL_MAX_BLOCK);
    if (m->texture_count > KILN_TYPED_MATERIAL_MAX_TEXTURES)
        return kiln_error_set(err, KILN_E_LIMIT, "typed material: %u textures (at most %u)",
                              m->texture_count, KILN_TYPED_MATERIAL_MAX_TEXTURES);
    return KILN_OK;
}

/* The strings' size: the leading NUL, then every non-empty name and its NUL. */
static kiln_result strings_size(const kiln_typed_material *m, size_t *out, kiln_error *err)
{
    const char *names[] = {or_empty(m->name), m->vertex.variant, m->fragment.variant,
                           or_empty(m->block_name)};
    uint64_t n = 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (*names[i]) n += strlen(names[i]) + 1;
    for (uint32_t i = 0; i < m->texture_count; i++) {
        const char *s = or_empty(m->textures[i].name);
        if (*s) n += strlen(s) + 1;
    }
    if (n > UINT32_MAX)
        return kiln_error_set(err, KILN_E_LIMIT, "typed material: names past 4 GiB");
    *out = (size_t)n;
    return KILN_OK;
}

/* Fills the header, the texture records and the strings (all zeroed by the caller). */
static void fill(const kiln_typed_material *m, uint8_t *header, uint8_t *textures, char *strings)
{
    size_t at = 1;
    uint8_t *h = header;
    kiln_store_u64le(h + KILN_TMAT_H_VERTEX_SHADER, m->vertex.shader);
    kiln_store_u64le(h + KILN_TMAT_H_FRAGMENT_SHADER, m->fragment.shader);
    kiln_store_u32le(h + KILN_TMAT_H_NAME, put_string(strings, &at, or_empty(m->name)));
    kiln_store_u32le(h + KILN_TMAT_H_VERTEX_VARIANT, put_string(strings, &at, m->vertex.variant));
    kiln_store_u32le(h + KILN_TMAT_H_FRAGMENT_VARIANT,
                     put_string(strings, &at, m->fragment.variant));
    kiln_store_u32le(h + KILN_TMAT_H_BLOCK_KIND, m->block_kind);
    kiln_store_u32le(h + KILN_TMAT_H_BLOCK_SET, m->block_set);
    kiln_store_u32le(h + KILN_TMAT_H_BLOCK_BINDING, m->block_binding);
    kiln_store_u32le(h + KILN_TMAT_H_BLOCK_NAME, put_string(strings, &at, or_empty(m->block_name)));
    kiln_store_u32le(h + KILN_TMAT_H_BLOCK_SIZE, m->block_size);
    kiln_store_u32le(h + KILN_TMAT_H_ALPHA_MODE, m->alpha_mode);
    kiln_store_f32le(h + KILN_TMAT_H_ALPHA_CUTOFF, m->alpha_cutoff);
    kiln_store_u32le(h + KILN_TMAT_H_BLEND, m->blend);
    kiln_store_u32le(h + KILN_TMAT_H_FLAGS, m->flags);
    kiln_store_u32le(h + KILN_TMAT_H_TEXTURE_COUNT, m->texture_count);
    for (uint32_t i = 0; i < m->texture_count; i++) {
        const kiln_typed_material_texture *t = &m->textures[i];
        uint8_t *p = textures + (size_t)i * KILN_TMAT_TEXTURE_SIZE;
        kiln_store_u64le(p + KILN_TMAT_T_IMAGE, t->image);
        kiln_store_u32le(p + KILN_TMAT_T_NAME, put_string(strings, &at, or_empty(t->name)));
        kiln_store_u32le(p + KILN_TMAT_T_SET, t->set);
        kiln_store_u32le(p + KILN_TMAT_T_BINDING, t->binding);
        p[KILN_TMAT_T_MAG] = t->mag_filter;
        p[KILN_TMAT_T_MIN] = t->min_filter;
        p[KILN_TMAT_T_MIP] = t->mip_filter;
        p[KILN_TMAT_T_WRAP_S] = t->wrap_s;
        p[KILN_TMAT_T_WRAP_T] = t->wrap_t;
    }
}

kiln_result kiln_typed_material_write(const kiln_typed_material *m, const kiln_allocator *alloc,
                                      uint8_t **out, size_t *size, kiln_error *err)
{
    if (out) *out = NULL;
    if (size) *size = 0;
    if (!m || !out || !size)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_typed_material_write: NULL");
    kiln_result r = check_arguments(m, err);
    size_t nstrings = 0;
    if (r != KILN_OK || (r = strings_size(m, &nstrings, err)) != KILN_OK) return r;
    /* One buffer: header, texture records, strings. */
    size_t ntex = (size_t)m->texture_count * KILN_TMAT_TEXTURE_SIZE;
    size_t total = KILN_TMAT_HEADER_SIZE + ntex + nstrings;
    uint8_t *buf = kiln_calloc(alloc, total, 1);
    if (!buf) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "typed material: %zu bytes", total);
    uint8_t *textures = buf + KILN_TMAT_HEADER_SIZE;
    char *strings = (char *)textures + ntex;
    fill(m, buf, textures, strings);
    kiln_container_writer w;
    kiln_container_begin(&w, KILN_TYPED_MATERIAL_KIND, KILN_TYPED_MATERIAL_KIND_VERSION, alloc);
    r = kiln_container_add(&w, KILN_TMAT_SECTION_HEADER, KILN_TMAT_HEADER_SIZE, 1, buf, err);
    if (r == KILN_OK)
        r = kiln_container_add(&w, KILN_TMAT_SECTION_TEXTURES, KILN_TMAT_TEXTURE_SIZE,
                               m->texture_count, m->texture_count ? textures : NULL, err);
    if (r == KILN_OK)
        r = kiln_container_add(&w, KILN_TMAT_SECTION_BLOCK, 1, m->block_size,
                               m->block_size ? m->block : NULL, err);
    if (r == KILN_OK)
        r = kiln_container_add(&w, KILN_TMAT_SECTION_STRINGS, 1, nstrings, strings, err);
    if (r == KILN_OK) r = kiln_container_finish(&w, out, size, err);
    kiln_free(alloc, buf, total);
    if (r != KILN_OK) return r;
    kiln_typed_material_view v;
    kiln_error check;
    if (kiln_typed_material_read(*out, *size, KILN_CONTAINER_SKIP_CHECKSUM, &v, &check) !=
        KILN_OK) {
        kiln_free(alloc, *out, *size);
        *out = NULL;
        *size = 0;
        return kiln_error_set(err, KILN_E_USAGE, "typed material refused by its reader: %s",
                              check.message);
    }
    return KILN_OK;
}
