/* material_ext.h — the tables of the glTF material extensions a cooked material keeps
 * (kiln_material_ext in kiln_format.h): per factor its glTF extension and key, where it sits (in
 * kiln_material_ext and in the MEXT record, docs/formats.md "Materials": the same offsets), its
 * range and glTF's default; per extension texture slot its extension, glTF key and how it is
 * cooked. The glTF importer, the cook, the writer, the reader and inspect all walk these, so a
 * factor is named once. Part of libkiln_rt: libc only. */
#ifndef KILN_CODEC_MATERIAL_EXT_H
#define KILN_CODEC_MATERIAL_EXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

#define KILN_MATERIAL_EXT_SIZE 128 /* bytes of the MEXT record; the factors end at 104 */
#define KILN_MATERIAL_EXT_USED 104

typedef enum kiln_material_ext_range {
    KILN_EXT_RANGE_01,        /* [0, 1] */
    KILN_EXT_RANGE_NONNEG,    /* >= 0 */
    KILN_EXT_RANGE_IOR,       /* 0 or >= 1 (0: glTF's "infinite" index of refraction) */
    KILN_EXT_RANGE_AT_LEAST1, /* >= 1 */
    KILN_EXT_RANGE_ANY,       /* any finite value */
} kiln_material_ext_range;

typedef struct kiln_material_ext_field {
    const char *name;     /* kiln's: "sheen_color" (inspect, docs) */
    const char *gltf_key; /* "sheenColorFactor" */
    uint32_t bit;         /* KILN_MATERIAL_EXT_* of the extension it belongs to */
    uint32_t offset;      /* in kiln_material_ext and in the MEXT record */
    uint32_t count;       /* floats: 1 or 3 */
    kiln_material_ext_range range;
    float fallback[3]; /* glTF's default */
} kiln_material_ext_field;

typedef enum kiln_material_ext_role {
    KILN_EXT_ROLE_COLOR,  /* sRGB colour */
    KILN_EXT_ROLE_LINEAR, /* linear data */
    KILN_EXT_ROLE_NORMAL, /* tangent-space normal map */
} kiln_material_ext_role;

typedef struct kiln_material_ext_texture {
    const char *gltf_key; /* "sheenColorTexture" */
    uint32_t bit;         /* the extension it belongs to */
    kiln_material_ext_role role;
    const char *scale_key; /* "scale" for clearcoatNormalTexture, else NULL */
} kiln_material_ext_texture;

extern const kiln_material_ext_field kiln_material_ext_fields[];
extern const size_t kiln_material_ext_field_count;
/* Indexed by kiln_material_ext_slot. */
extern const kiln_material_ext_texture kiln_material_ext_textures[KILN_MATERIAL_EXT_SLOT_COUNT];

/* Whether v is finite and in the range. */
bool kiln_material_ext_in_range(kiln_material_ext_range range, float v);
/* "in [0, 1]", "at least 0", ... for messages. */
const char *kiln_material_ext_range_text(kiln_material_ext_range range);

/* The float members of e, by the table's offset. */
static inline float *kiln_material_ext_at(kiln_material_ext *e, const kiln_material_ext_field *f)
{
    return (float *)(void *)((unsigned char *)e + f->offset);
}
static inline const float *kiln_material_ext_get(const kiln_material_ext *e,
                                                 const kiln_material_ext_field *f)
{
    return (const float *)(const void *)((const unsigned char *)e + f->offset);
}

/* The extension bits in table order, with names (KHR_materials_clearcoat ...). */
#define KILN_MATERIAL_EXT_BIT_COUNT 11

#endif
