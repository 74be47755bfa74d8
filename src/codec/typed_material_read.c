/* typed_material_read.c — kiln_typed_material_read and kiln_typed_material_texture_at
 * (kiln_format.h; the bytes are in docs/formats.md, "Typed materials"). Every field is read with
 * the little-endian loads, so the bytes may have any alignment. Shared with the runtime: libc only.
 */
#include <stdint.h>
#include <string.h>

#include "codec/typed_material_sections.h"
#include "core/error.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

/* What kiln_error_bad_bytes names in the message of every fault this file reports. */
static const char k_format[] = "cooked typed material";

static const uint32_t k_ids[] = {KILN_TMAT_SECTION_HEADER, KILN_TMAT_SECTION_TEXTURES,
                                 KILN_TMAT_SECTION_BLOCK, KILN_TMAT_SECTION_STRINGS};
static const uint32_t k_sizes[] = {KILN_TMAT_HEADER_SIZE, KILN_TMAT_TEXTURE_SIZE, 1, 1};
#define SECTION_COUNT (sizeof k_ids / sizeof k_ids[0])

static uint64_t at(const kiln_typed_material_view *v, const uint8_t *p)
{
    return (uint64_t)(p - v->container.bytes);
}

/* The string at offset, or NULL when the offset is outside the strings (which end with a NUL,
 * so every string inside them is terminated there). */
static const char *str(const kiln_typed_material_view *v, uint32_t offset)
{
    return offset < v->strings_size ? v->strings + offset : NULL;
}

static kiln_result check_texture(const kiln_typed_material_view *v, uint32_t i, kiln_error *err)
{
    const uint8_t *p = v->texture_records + (size_t)i * KILN_TMAT_TEXTURE_SIZE;
    uint64_t o = at(v, p);
    if (kiln_load_u64le(p + KILN_TMAT_T_IMAGE) == 0)
        return kiln_error_bad_bytes(err, k_format, o, "texture %u: image id 0", i);
    if (!str(v, kiln_load_u32le(p + KILN_TMAT_T_NAME)))
        return kiln_error_bad_bytes(err, k_format, o + KILN_TMAT_T_NAME,
                                    "texture %u: name outside the strings", i);
    if (i > 0) {
        const uint8_t *q = p - KILN_TMAT_TEXTURE_SIZE;
        uint64_t key = (uint64_t)kiln_load_u32le(p + KILN_TMAT_T_SET) << 32 |
                       kiln_load_u32le(p + KILN_TMAT_T_BINDING);
        uint64_t prev = (uint64_t)kiln_load_u32le(q + KILN_TMAT_T_SET) << 32 |
                        kiln_load_u32le(q + KILN_TMAT_T_BINDING);
        if (key <= prev)
            return kiln_error_bad_bytes(err, k_format, o + KILN_TMAT_T_SET,
                                        "texture %u: (set, binding) not after texture %u's", i,
                                        i - 1);
    }
    for (int k = KILN_TMAT_T_MAG; k <= KILN_TMAT_T_MIP; k++)
        if (p[k] > KILN_MATERIAL_FILTER_LINEAR)
            return kiln_error_bad_bytes(err, k_format, o + (uint64_t)k,
                                        "texture %u: unknown filter", i);
    for (int k = KILN_TMAT_T_WRAP_S; k <= KILN_TMAT_T_WRAP_T; k++)
        if (p[k] > KILN_MATERIAL_WRAP_MIRROR)
            return kiln_error_bad_bytes(err, k_format, o + (uint64_t)k,
                                        "texture %u: unknown wrap mode", i);
    for (int k = KILN_TMAT_T_RESERVED; k < KILN_TMAT_TEXTURE_SIZE; k++)
        if (p[k])
            return kiln_error_bad_bytes(err, k_format, o + (uint64_t)k,
                                        "texture %u: reserved bytes not zero", i);
    return KILN_OK;
}

/* A stage: a non-zero shader id and a non-empty variant name. */
static kiln_result read_stage(const kiln_typed_material_view *v, const uint8_t *h, int id_at,
                              int variant_at, const char *what, kiln_typed_material_stage *out,
                              kiln_error *err)
{
    out->shader = kiln_load_u64le(h + id_at);
    out->variant = str(v, kiln_load_u32le(h + variant_at));
    if (!out->shader)
        return kiln_error_bad_bytes(err, k_format, at(v, h) + (uint64_t)id_at,
                                    "the %s shader's id is 0", what);
    if (!out->variant || !*out->variant)
        return kiln_error_bad_bytes(err, k_format, at(v, h) + (uint64_t)variant_at,
                                    "the %s variant's name is empty or outside the strings", what);
    return KILN_OK;
}

static kiln_result read_header(kiln_typed_material_view *v, const uint8_t *h, size_t block_bytes,
                               kiln_error *err)
{
    kiln_typed_material *m = &v->material;
    uint64_t ho = at(v, h);
    kiln_result r;
    if ((r = read_stage(v, h, KILN_TMAT_H_VERTEX_SHADER, KILN_TMAT_H_VERTEX_VARIANT, "vertex",
                        &m->vertex, err)) != KILN_OK ||
        (r = read_stage(v, h, KILN_TMAT_H_FRAGMENT_SHADER, KILN_TMAT_H_FRAGMENT_VARIANT, "fragment",
                        &m->fragment, err)) != KILN_OK)
        return r;
    m->name = str(v, kiln_load_u32le(h + KILN_TMAT_H_NAME));
    if (!m->name)
        return kiln_error_bad_bytes(err, k_format, ho + KILN_TMAT_H_NAME,
                                    "the name is outside the strings");
    m->block_kind = kiln_load_u32le(h + KILN_TMAT_H_BLOCK_KIND);
    m->block_set = kiln_load_u32le(h + KILN_TMAT_H_BLOCK_SET);
    m->block_binding = kiln_load_u32le(h + KILN_TMAT_H_BLOCK_BINDING);
    m->block_name = str(v, kiln_load_u32le(h + KILN_TMAT_H_BLOCK_NAME));
    m->block_size = kiln_load_u32le(h + KILN_TMAT_H_BLOCK_SIZE);
    if (m->block_kind > KILN_TYPED_BLOCK_PUSH)
        return kiln_error_bad_bytes(err, k_format, ho + KILN_TMAT_H_BLOCK_KIND,
                                    "unknown block kind");
    if (!m->block_name)
        return kiln_error_bad_bytes(err, k_format, ho + KILN_TMAT_H_BLOCK_NAME,
                                    "the block's name is outside the strings");
    if (m->block_size != block_bytes)
        return kiln_error_bad_bytes(err, k_format, ho + KILN_TMAT_H_BLOCK_SIZE,
                                    "the block size is not PBLK's size");
    if (m->block_size > KILN_TYPED_MATERIAL_MAX_BLOCK)
        return kiln_error_bad_bytes(err, k_format, ho + KILN_TMAT_H_BLOCK_SIZE,
                                    "the block is over %u bytes", KILN_TYPED_MATERIAL_MAX_BLOCK);
    if (m->block_kind == KILN_TYPED_BLOCK_NONE
            ? m->block_size || *m->block_name || m->block_set || m->block_binding
            : !m->block_size)
        return kiln_error_bad_bytes(err, k_format, ho + KILN_TMAT_H_BLOCK_KIND,
                                    "block kind none with a block, its name, set or binding; or "
                                    "a block kind without bytes");
    if (m->block_kind == KILN_TYPED_BLOCK_PUSH && (m->block_set || m->block_binding))
        return kiln_error_bad_bytes(err, k_format, ho + KILN_TMAT_H_BLOCK_SET,
                                    "a push-constant block with a set or binding");
    m->alpha_mode = kiln_load_u32le(h + KILN_TMAT_H_ALPHA_MODE);
    m->alpha_cutoff = kiln_load_f32le(h + KILN_TMAT_H_ALPHA_CUTOFF);
    m->blend = kiln_load_u32le(h + KILN_TMAT_H_BLEND);
    m->flags = kiln_load_u32le(h + KILN_TMAT_H_FLAGS);
    if (m->alpha_mode > KILN_MATERIAL_ALPHA_BLEND)
        return kiln_error_bad_bytes(err, k_format, ho + KILN_TMAT_H_ALPHA_MODE,
                                    "unknown alpha mode");
    if (!(m->alpha_cutoff >= 0.0f && m->alpha_cutoff <= 1.0f)) /* NaN fails too */
        return kiln_error_bad_bytes(err, k_format, ho + KILN_TMAT_H_ALPHA_CUTOFF,
                                    "alpha cutoff not in [0, 1]");
    if (m->blend >= KILN_MATERIAL_BLEND_COUNT)
        return kiln_error_bad_bytes(err, k_format, ho + KILN_TMAT_H_BLEND, "unknown blend");
    if (m->flags & ~(uint32_t)(KILN_TYPED_MATERIAL_DOUBLE_SIDED | KILN_TYPED_MATERIAL_DEPTH_TEST |
                               KILN_TYPED_MATERIAL_DEPTH_WRITE))
        return kiln_error_bad_bytes(err, k_format, ho + KILN_TMAT_H_FLAGS,
                                    "unknown material flags");
    m->texture_count = kiln_load_u32le(h + KILN_TMAT_H_TEXTURE_COUNT);
    if (kiln_load_u32le(h + KILN_TMAT_H_RESERVED))
        return kiln_error_bad_bytes(err, k_format, ho + KILN_TMAT_H_RESERVED,
                                    "reserved bytes not zero");
    return KILN_OK;
}

static kiln_result read_typed_material(const void *data, size_t size, uint32_t flags,
                                       kiln_typed_material_view *out, kiln_error *err)
{
    kiln_container *c = &out->container;
    kiln_result r = kiln_container_read(data, size, flags, c, err);
    if (r != KILN_OK) return r;
    if (c->kind != KILN_TYPED_MATERIAL_KIND)
        return kiln_error_bad_bytes(err, k_format, 8, "the container is not of kind TMAT");
    if (c->kind_version != KILN_TYPED_MATERIAL_KIND_VERSION) {
        kiln_error_set(err, KILN_E_FORMAT_VERSION,
                       "cooked typed material version %u; this kiln reads version %u: cook again",
                       c->kind_version, KILN_TYPED_MATERIAL_KIND_VERSION);
        kiln_error_at_offset(err, 12);
        return KILN_E_FORMAT_VERSION;
    }
    if (c->section_count != SECTION_COUNT)
        return kiln_error_bad_bytes(err, k_format, 32,
                                    "a typed material has exactly four sections");
    kiln_container_section s[SECTION_COUNT];
    for (size_t i = 0; i < SECTION_COUNT; i++) {
        kiln_container_section_at(c, (uint32_t)i, &s[i]);
        if (s[i].id != k_ids[i] || s[i].element_size != k_sizes[i])
            return kiln_error_bad_bytes(err, k_format, 64 + 32 * (uint64_t)i,
                                        "section %zu is not the one docs/formats.md names there, "
                                        "or has the wrong element size",
                                        i);
    }
    if (s[0].count != 1)
        return kiln_error_bad_bytes(err, k_format, 64, "no TMHD section of one 72-byte header");
    out->strings = (const char *)s[3].data;
    out->strings_size = s[3].size;
    uint64_t soff = s[3].size ? (uint64_t)(s[3].data - c->bytes) : 64 + 32 * 3;
    if (!s[3].size || out->strings[0] || out->strings[s[3].size - 1])
        return kiln_error_bad_bytes(err, k_format, soff,
                                    "the strings do not start and end with a NUL");
    const uint8_t *h = s[0].data;
    if ((r = read_header(out, h, s[2].size, err)) != KILN_OK) return r;
    kiln_typed_material *m = &out->material;
    if (m->texture_count > KILN_TYPED_MATERIAL_MAX_TEXTURES || m->texture_count != s[1].count)
        return kiln_error_bad_bytes(err, k_format, at(out, h) + KILN_TMAT_H_TEXTURE_COUNT,
                                    "texture count over %u or not TTEX's count",
                                    KILN_TYPED_MATERIAL_MAX_TEXTURES);
    out->texture_records = s[1].count ? s[1].data : NULL;
    for (uint32_t i = 0; i < m->texture_count; i++)
        if ((r = check_texture(out, i, err)) != KILN_OK) return r;
    m->block = m->block_size ? s[2].data : NULL;
    m->textures = NULL;
    return KILN_OK;
}

KILN_API kiln_result kiln_typed_material_read(const void *data, size_t size, uint32_t flags,
                                              kiln_typed_material_view *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_typed_material_read: no output");
    memset(out, 0, sizeof *out);
    kiln_result r = read_typed_material(data, size, flags, out, err);
    if (r != KILN_OK) memset(out, 0, sizeof *out);
    return r;
}

KILN_API kiln_typed_material_texture
kiln_typed_material_texture_at(const kiln_typed_material_view *v, uint32_t i)
{
    kiln_typed_material_texture t;
    memset(&t, 0, sizeof t);
    if (!v || i >= v->material.texture_count || !v->texture_records) return t;
    const uint8_t *p = v->texture_records + (size_t)i * KILN_TMAT_TEXTURE_SIZE;
    t.image = kiln_load_u64le(p + KILN_TMAT_T_IMAGE);
    t.name = v->strings + kiln_load_u32le(p + KILN_TMAT_T_NAME);
    t.set = kiln_load_u32le(p + KILN_TMAT_T_SET);
    t.binding = kiln_load_u32le(p + KILN_TMAT_T_BINDING);
    t.mag_filter = p[KILN_TMAT_T_MAG];
    t.min_filter = p[KILN_TMAT_T_MIN];
    t.mip_filter = p[KILN_TMAT_T_MIP];
    t.wrap_s = p[KILN_TMAT_T_WRAP_S];
    t.wrap_t = p[KILN_TMAT_T_WRAP_T];
    return t;
}
