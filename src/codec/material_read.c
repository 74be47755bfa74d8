/* material_read.c — kiln_material_read: validating a cooked material (kiln_format.h; the bytes
 * are in docs/formats.md, "Materials"). Shared with the runtime: libc only. */
#include <math.h>
#include <string.h>

#include "codec/material_ext.h"
#include "core/error.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

#define PARAMS_ID       KILN_FOURCC('M', 'A', 'T', 'P')
#define TEXTURES_ID     KILN_FOURCC('M', 'T', 'E', 'X')
#define NAME_ID         KILN_FOURCC('N', 'A', 'M', 'E')
#define EXT_ID          KILN_FOURCC('M', 'E', 'X', 'T')
#define EXT_TEXTURES_ID KILN_FOURCC('M', 'X', 'T', 'X')
#define PARAMS_SIZE     64
#define TEXTURE_SIZE    64

/* What kiln_error_bad_bytes names in the message of every fault this file reports. */
static const char k_format[] = "cooked material";

static bool in01(float v) { return v >= 0.0f && v <= 1.0f; }

/* Reads one MTEX record into t; base is its file offset, for errors. */
static kiln_result read_texture(const uint8_t *p, uint64_t base, kiln_material_texture *t,
                                kiln_error *err)
{
    memset(t, 0, sizeof *t);
    t->image = kiln_load_u64le(p);
    if (t->image == 0) {
        for (int i = 8; i < TEXTURE_SIZE; i++)
            if (p[i])
                return kiln_error_bad_bytes(err, k_format, base + (uint64_t)i,
                                            "an empty texture slot has non-zero bytes");
        return KILN_OK;
    }
    t->texcoord = kiln_load_u32le(p + 8);
    if (t->texcoord >= KILN_MATERIAL_MAX_UV_SETS)
        return kiln_error_bad_bytes(err, k_format, base + 8, "texcoord past set 3");
    t->mag_filter = p[12];
    t->min_filter = p[13];
    t->mip_filter = p[14];
    if (p[12] > KILN_MATERIAL_FILTER_LINEAR || p[13] > KILN_MATERIAL_FILTER_LINEAR ||
        p[14] > KILN_MATERIAL_FILTER_LINEAR)
        return kiln_error_bad_bytes(err, k_format, base + 12, "unknown filter");
    if (p[15] & ~3u) return kiln_error_bad_bytes(err, k_format, base + 15, "unknown texture flags");
    t->mipmaps = (p[15] & 1u) != 0;
    t->has_transform = (p[15] & 2u) != 0;
    if (!t->mipmaps && t->mip_filter)
        return kiln_error_bad_bytes(err, k_format, base + 14, "a mip filter without mipmaps");
    t->wrap_s = p[16];
    t->wrap_t = p[17];
    if (p[16] > KILN_MATERIAL_WRAP_MIRROR || p[17] > KILN_MATERIAL_WRAP_MIRROR)
        return kiln_error_bad_bytes(err, k_format, base + 16, "unknown wrap mode");
    if (p[18] || p[19])
        return kiln_error_bad_bytes(err, k_format, base + 18,
                                    "reserved texture bytes are not zero");
    kiln_load_f32le_array(p + 20, t->offset, 2);
    t->rotation = kiln_load_f32le(p + 28);
    kiln_load_f32le_array(p + 32, t->scale, 2);
    kiln_load_f32le_array(p + 40, t->matrix, 6);
    for (int i = 20; i < TEXTURE_SIZE; i += 4)
        if (!isfinite(kiln_load_f32le(p + i)))
            return kiln_error_bad_bytes(err, k_format, base + (uint64_t)i,
                                        "a transform value is not finite");
    return KILN_OK;
}

/* Reads the MEXT record at p (file offset base): the extension bits and their factors, each in
 * its range; the factors of an extension that is not present hold glTF's defaults. */
static kiln_result read_ext(const uint8_t *p, uint64_t base, kiln_material_ext *e, kiln_error *err)
{
    e->present = kiln_load_u32le(p);
    if (e->present & ~(uint32_t)KILN_MATERIAL_EXT_ALL)
        return kiln_error_bad_bytes(err, k_format, base, "unknown extension bits");
    for (size_t i = 0; i < kiln_material_ext_field_count; i++) {
        const kiln_material_ext_field *f = &kiln_material_ext_fields[i];
        float *v = kiln_material_ext_at(e, f);
        kiln_load_f32le_array(p + f->offset, v, f->count);
        for (uint32_t k = 0; k < f->count; k++) {
            uint64_t at = base + f->offset + 4 * (uint64_t)k;
            if (!kiln_material_ext_in_range(f->range, v[k]))
                return kiln_error_bad_bytes(err, k_format, at, "%s is not %s", f->name,
                                            kiln_material_ext_range_text(f->range));
            if (!(e->present & f->bit) && memcmp(&v[k], &f->fallback[k], sizeof v[k]) != 0)
                return kiln_error_bad_bytes(err, k_format, at,
                                            "%s is not glTF's default, but %s is absent", f->name,
                                            kiln_material_ext_name(f->bit));
        }
    }
    for (uint32_t i = KILN_MATERIAL_EXT_USED; i < KILN_MATERIAL_EXT_SIZE; i++)
        if (p[i])
            return kiln_error_bad_bytes(err, k_format, base + i,
                                        "reserved extension bytes are not zero");
    return KILN_OK;
}

static kiln_result read_material(const void *data, size_t size, uint32_t flags,
                                 kiln_material_view *out, kiln_error *err)
{
    kiln_container c;
    kiln_result r = kiln_container_read(data, size, flags, &c, err);
    if (r != KILN_OK) return r;
    if (c.kind != KILN_MATERIAL_KIND)
        return kiln_error_bad_bytes(err, k_format, 8, "the container is not of kind MATL");
    if (c.kind_version != KILN_MATERIAL_KIND_VERSION) {
        kiln_error_set(err, KILN_E_FORMAT_VERSION,
                       "cooked material version %u; this kiln reads version %d: cook again",
                       c.kind_version, KILN_MATERIAL_KIND_VERSION);
        kiln_error_at_offset(err, 12);
        return KILN_E_FORMAT_VERSION;
    }
    kiln_container_section ps, ts, ns, es, xs;
    if (c.section_count != 5 || !kiln_container_find(&c, PARAMS_ID, PARAMS_SIZE, &ps) ||
        !kiln_container_find(&c, TEXTURES_ID, TEXTURE_SIZE, &ts) ||
        !kiln_container_find(&c, NAME_ID, 1, &ns) ||
        !kiln_container_find(&c, EXT_ID, KILN_MATERIAL_EXT_SIZE, &es) ||
        !kiln_container_find(&c, EXT_TEXTURES_ID, TEXTURE_SIZE, &xs))
        return kiln_error_bad_bytes(
            err, k_format, 32,
            "sections are not MATP (64), MTEX (64), NAME (1), MEXT (128) and MXTX (64)");
    const uint8_t *bytes = c.bytes;
    uint64_t po = (uint64_t)(ps.data - bytes), to = (uint64_t)(ts.data - bytes),
             no = (uint64_t)(ns.data - bytes), eo = (uint64_t)(es.data - bytes),
             xo = (uint64_t)(xs.data - bytes);
    if (ps.count != 1)
        return kiln_error_bad_bytes(err, k_format, po, "MATP does not hold one record");
    if (ts.count != KILN_MATERIAL_SLOT_COUNT)
        return kiln_error_bad_bytes(err, k_format, to, "MTEX does not hold five slots");
    if (es.count != 1)
        return kiln_error_bad_bytes(err, k_format, eo, "MEXT does not hold one record");
    if (xs.count != KILN_MATERIAL_EXT_SLOT_COUNT)
        return kiln_error_bad_bytes(err, k_format, xo, "MXTX does not hold twelve slots");
    if (ns.count == 0 || ns.data[ns.size - 1] != 0)
        return kiln_error_bad_bytes(err, k_format, no, "the name has no NUL");
    const uint8_t *nul = memchr(ns.data, 0, ns.size);
    if ((size_t)(nul - ns.data) != ns.size - 1)
        return kiln_error_bad_bytes(err, k_format, no + (uint64_t)(nul - ns.data),
                                    "the name holds a NUL");

    kiln_material *m = &out->material;
    const uint8_t *p = ps.data;
    for (int i = 0; i < 52; i += 4)
        if (!isfinite(kiln_load_f32le(p + i)))
            return kiln_error_bad_bytes(err, k_format, po + (uint64_t)i, "a factor is not finite");
    kiln_load_f32le_array(p, m->base_color, 4);
    m->metallic = kiln_load_f32le(p + 16);
    m->roughness = kiln_load_f32le(p + 20);
    kiln_load_f32le_array(p + 24, m->emissive, 3);
    m->emissive_strength = kiln_load_f32le(p + 36);
    m->normal_scale = kiln_load_f32le(p + 40);
    m->occlusion_strength = kiln_load_f32le(p + 44);
    m->alpha_cutoff = kiln_load_f32le(p + 48);
    m->alpha_mode = kiln_load_u32le(p + 52);
    uint32_t mflags = kiln_load_u32le(p + 56);
    for (int i = 0; i < 4; i++)
        if (!in01(m->base_color[i]))
            return kiln_error_bad_bytes(err, k_format, po + 4 * (uint64_t)i,
                                        "base colour outside [0, 1]");
    if (!in01(m->metallic) || !in01(m->roughness))
        return kiln_error_bad_bytes(err, k_format, po + 16, "metallic or roughness outside [0, 1]");
    for (int i = 0; i < 3; i++)
        if (!in01(m->emissive[i]))
            return kiln_error_bad_bytes(err, k_format, po + 24 + 4 * (uint64_t)i,
                                        "emissive outside [0, 1]");
    if (m->emissive_strength < 0.0f)
        return kiln_error_bad_bytes(err, k_format, po + 36, "negative emissive strength");
    if (m->alpha_cutoff < 0.0f)
        return kiln_error_bad_bytes(err, k_format, po + 48, "negative alpha cutoff");
    if (m->alpha_mode > KILN_MATERIAL_ALPHA_BLEND)
        return kiln_error_bad_bytes(err, k_format, po + 52, "unknown alpha mode");
    if (mflags & ~3u) return kiln_error_bad_bytes(err, k_format, po + 56, "unknown material flags");
    if (kiln_load_u32le(p + 60))
        return kiln_error_bad_bytes(err, k_format, po + 60, "reserved bytes are not zero");
    m->double_sided = (mflags & 1u) != 0;
    m->unlit = (mflags & 2u) != 0;
    for (uint32_t s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
        r = read_texture(ts.data + (size_t)s * TEXTURE_SIZE, to + (uint64_t)s * TEXTURE_SIZE,
                         &m->textures[s], err);
        if (r != KILN_OK) return r;
    }
    if ((r = read_ext(es.data, eo, &m->ext, err)) != KILN_OK) return r;
    if (((m->ext.present & KILN_MATERIAL_EXT_UNLIT) != 0) != m->unlit)
        return kiln_error_bad_bytes(err, k_format, eo,
                                    "the unlit extension bit and the unlit flag disagree");
    for (uint32_t s = 0; s < KILN_MATERIAL_EXT_SLOT_COUNT; s++) {
        uint64_t at = xo + (uint64_t)s * TEXTURE_SIZE;
        r = read_texture(xs.data + (size_t)s * TEXTURE_SIZE, at, &m->ext_textures[s], err);
        if (r != KILN_OK) return r;
        if (m->ext_textures[s].image && !(m->ext.present & kiln_material_ext_textures[s].bit))
            return kiln_error_bad_bytes(err, k_format, at, "a texture of %s, which is absent",
                                        kiln_material_ext_name(kiln_material_ext_textures[s].bit));
    }
    m->name = (const char *)ns.data;
    m->name_size = ns.size - 1;
    out->container = c;
    return KILN_OK;
}

KILN_API kiln_result kiln_material_read(const void *data, size_t size, uint32_t flags,
                                        kiln_material_view *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_material_read: no output");
    memset(out, 0, sizeof *out);
    kiln_result r = read_material(data, size, flags, out, err);
    if (r != KILN_OK) memset(out, 0, sizeof *out);
    return r;
}
