/* material_ext.c — the tables of material_ext.h: every factor and texture slot of the ratified
 * KHR_materials_* extensions, as their specifications (github.com/KhronosGroup/glTF,
 * extensions/2.0/Khronos/KHR_materials_<name>/README.md) define key, range and default. */
#include "codec/material_ext.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define F(member) ((uint32_t)offsetof(kiln_material_ext, member))

/* Field offsets are the MEXT record's: the record is the struct without padding. */
_Static_assert(offsetof(kiln_material_ext, clearcoat) == 4 &&
                   offsetof(kiln_material_ext, dispersion) == 100 &&
                   sizeof(kiln_material_ext) == KILN_MATERIAL_EXT_USED,
               "kiln_material_ext is laid out as MEXT");

const kiln_material_ext_field kiln_material_ext_fields[] = {
    {"clearcoat",
     "clearcoatFactor",
     KILN_MATERIAL_EXT_CLEARCOAT,
     F(clearcoat),
     1,
     KILN_EXT_RANGE_01,
     {0}},
    {"clearcoat_roughness",
     "clearcoatRoughnessFactor",
     KILN_MATERIAL_EXT_CLEARCOAT,
     F(clearcoat_roughness),
     1,
     KILN_EXT_RANGE_01,
     {0}},
    /* the scale of clearcoatNormalTexture: read with the texture, not as a factor */
    {"clearcoat_normal_scale",
     NULL,
     KILN_MATERIAL_EXT_CLEARCOAT,
     F(clearcoat_normal_scale),
     1,
     KILN_EXT_RANGE_ANY,
     {1}},
    {"sheen_color",
     "sheenColorFactor",
     KILN_MATERIAL_EXT_SHEEN,
     F(sheen_color),
     3,
     KILN_EXT_RANGE_01,
     {0, 0, 0}},
    {"sheen_roughness",
     "sheenRoughnessFactor",
     KILN_MATERIAL_EXT_SHEEN,
     F(sheen_roughness),
     1,
     KILN_EXT_RANGE_01,
     {0}},
    {"transmission",
     "transmissionFactor",
     KILN_MATERIAL_EXT_TRANSMISSION,
     F(transmission),
     1,
     KILN_EXT_RANGE_01,
     {0}},
    {"thickness",
     "thicknessFactor",
     KILN_MATERIAL_EXT_VOLUME,
     F(thickness),
     1,
     KILN_EXT_RANGE_NONNEG,
     {0}},
    /* glTF's default is +infinity, which the format writes as 0 (every float is finite) */
    {"attenuation_distance",
     "attenuationDistance",
     KILN_MATERIAL_EXT_VOLUME,
     F(attenuation_distance),
     1,
     KILN_EXT_RANGE_NONNEG,
     {0}},
    {"attenuation_color",
     "attenuationColor",
     KILN_MATERIAL_EXT_VOLUME,
     F(attenuation_color),
     3,
     KILN_EXT_RANGE_01,
     {1, 1, 1}},
    {"ior", "ior", KILN_MATERIAL_EXT_IOR, F(ior), 1, KILN_EXT_RANGE_IOR, {1.5f}},
    {"specular",
     "specularFactor",
     KILN_MATERIAL_EXT_SPECULAR,
     F(specular),
     1,
     KILN_EXT_RANGE_01,
     {1}},
    {"specular_color",
     "specularColorFactor",
     KILN_MATERIAL_EXT_SPECULAR,
     F(specular_color),
     3,
     KILN_EXT_RANGE_NONNEG,
     {1, 1, 1}},
    {"iridescence",
     "iridescenceFactor",
     KILN_MATERIAL_EXT_IRIDESCENCE,
     F(iridescence),
     1,
     KILN_EXT_RANGE_01,
     {0}},
    {"iridescence_ior",
     "iridescenceIor",
     KILN_MATERIAL_EXT_IRIDESCENCE,
     F(iridescence_ior),
     1,
     KILN_EXT_RANGE_AT_LEAST1,
     {1.3f}},
    {"iridescence_thickness_min",
     "iridescenceThicknessMinimum",
     KILN_MATERIAL_EXT_IRIDESCENCE,
     F(iridescence_thickness_min),
     1,
     KILN_EXT_RANGE_NONNEG,
     {100}},
    {"iridescence_thickness_max",
     "iridescenceThicknessMaximum",
     KILN_MATERIAL_EXT_IRIDESCENCE,
     F(iridescence_thickness_max),
     1,
     KILN_EXT_RANGE_NONNEG,
     {400}},
    {"anisotropy_strength",
     "anisotropyStrength",
     KILN_MATERIAL_EXT_ANISOTROPY,
     F(anisotropy_strength),
     1,
     KILN_EXT_RANGE_01,
     {0}},
    {"anisotropy_rotation",
     "anisotropyRotation",
     KILN_MATERIAL_EXT_ANISOTROPY,
     F(anisotropy_rotation),
     1,
     KILN_EXT_RANGE_ANY,
     {0}},
    {"dispersion",
     "dispersion",
     KILN_MATERIAL_EXT_DISPERSION,
     F(dispersion),
     1,
     KILN_EXT_RANGE_NONNEG,
     {0}},
};
const size_t kiln_material_ext_field_count =
    sizeof kiln_material_ext_fields / sizeof kiln_material_ext_fields[0];

const kiln_material_ext_texture kiln_material_ext_textures[KILN_MATERIAL_EXT_SLOT_COUNT] = {
    [KILN_MATERIAL_EXT_SLOT_CLEARCOAT] = {"clearcoatTexture", KILN_MATERIAL_EXT_CLEARCOAT,
                                          KILN_EXT_ROLE_LINEAR, NULL},
    [KILN_MATERIAL_EXT_SLOT_CLEARCOAT_ROUGHNESS] = {"clearcoatRoughnessTexture",
                                                    KILN_MATERIAL_EXT_CLEARCOAT,
                                                    KILN_EXT_ROLE_LINEAR, NULL},
    [KILN_MATERIAL_EXT_SLOT_CLEARCOAT_NORMAL] = {"clearcoatNormalTexture",
                                                 KILN_MATERIAL_EXT_CLEARCOAT, KILN_EXT_ROLE_NORMAL,
                                                 "scale"},
    [KILN_MATERIAL_EXT_SLOT_SHEEN_COLOR] = {"sheenColorTexture", KILN_MATERIAL_EXT_SHEEN,
                                            KILN_EXT_ROLE_COLOR, NULL},
    [KILN_MATERIAL_EXT_SLOT_SHEEN_ROUGHNESS] = {"sheenRoughnessTexture", KILN_MATERIAL_EXT_SHEEN,
                                                KILN_EXT_ROLE_LINEAR, NULL},
    [KILN_MATERIAL_EXT_SLOT_TRANSMISSION] = {"transmissionTexture", KILN_MATERIAL_EXT_TRANSMISSION,
                                             KILN_EXT_ROLE_LINEAR, NULL},
    [KILN_MATERIAL_EXT_SLOT_THICKNESS] = {"thicknessTexture", KILN_MATERIAL_EXT_VOLUME,
                                          KILN_EXT_ROLE_LINEAR, NULL},
    [KILN_MATERIAL_EXT_SLOT_SPECULAR] = {"specularTexture", KILN_MATERIAL_EXT_SPECULAR,
                                         KILN_EXT_ROLE_LINEAR, NULL},
    [KILN_MATERIAL_EXT_SLOT_SPECULAR_COLOR] = {"specularColorTexture", KILN_MATERIAL_EXT_SPECULAR,
                                               KILN_EXT_ROLE_COLOR, NULL},
    [KILN_MATERIAL_EXT_SLOT_IRIDESCENCE] = {"iridescenceTexture", KILN_MATERIAL_EXT_IRIDESCENCE,
                                            KILN_EXT_ROLE_LINEAR, NULL},
    [KILN_MATERIAL_EXT_SLOT_IRIDESCENCE_THICKNESS] = {"iridescenceThicknessTexture",
                                                      KILN_MATERIAL_EXT_IRIDESCENCE,
                                                      KILN_EXT_ROLE_LINEAR, NULL},
    [KILN_MATERIAL_EXT_SLOT_ANISOTROPY] = {"anisotropyTexture", KILN_MATERIAL_EXT_ANISOTROPY,
                                           KILN_EXT_ROLE_LINEAR, NULL},
};

static const char *const slot_names[KILN_MATERIAL_EXT_SLOT_COUNT] = {
    "clearcoat",
    "clearcoat_roughness",
    "clearcoat_normal",
    "sheen_color",
    "sheen_roughness",
    "transmission",
    "thickness",
    "specular",
    "specular_color",
    "iridescence",
    "iridescence_thickness",
    "anisotropy",
};

static const char *const ext_names[KILN_MATERIAL_EXT_BIT_COUNT] = {
    "KHR_materials_clearcoat",    "KHR_materials_sheen",
    "KHR_materials_transmission", "KHR_materials_volume",
    "KHR_materials_ior",          "KHR_materials_specular",
    "KHR_materials_iridescence",  "KHR_materials_anisotropy",
    "KHR_materials_dispersion",   "KHR_materials_emissive_strength",
    "KHR_materials_unlit",
};
_Static_assert(KILN_MATERIAL_EXT_ALL == (1u << KILN_MATERIAL_EXT_BIT_COUNT) - 1,
               "a name for every extension bit");

bool kiln_material_ext_in_range(kiln_material_ext_range range, float v)
{
    if (!isfinite(v)) return false;
    switch (range) {
    case KILN_EXT_RANGE_01:
        return v >= 0.0f && v <= 1.0f;
    case KILN_EXT_RANGE_NONNEG:
        return v >= 0.0f;
    case KILN_EXT_RANGE_IOR:
        return v == 0.0f || v >= 1.0f;
    case KILN_EXT_RANGE_AT_LEAST1:
        return v >= 1.0f;
    case KILN_EXT_RANGE_ANY:
        return true;
    }
    return false;
}

const char *kiln_material_ext_range_text(kiln_material_ext_range range)
{
    switch (range) {
    case KILN_EXT_RANGE_01:
        return "in [0, 1]";
    case KILN_EXT_RANGE_NONNEG:
        return "at least 0";
    case KILN_EXT_RANGE_IOR:
        return "0 or at least 1";
    case KILN_EXT_RANGE_AT_LEAST1:
        return "at least 1";
    case KILN_EXT_RANGE_ANY:
        return "finite";
    }
    return "";
}

KILN_API void kiln_material_ext_defaults(kiln_material_ext *out)
{
    if (!out) return;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < kiln_material_ext_field_count; i++) {
        const kiln_material_ext_field *f = &kiln_material_ext_fields[i];
        memcpy(kiln_material_ext_at(out, f), f->fallback, f->count * sizeof(float));
    }
}

KILN_API const char *kiln_material_ext_name(uint32_t bit)
{
    for (uint32_t i = 0; i < KILN_MATERIAL_EXT_BIT_COUNT; i++)
        if (bit == 1u << i) return ext_names[i];
    return "";
}

KILN_API const char *kiln_material_ext_slot_name(uint32_t slot)
{
    return slot < KILN_MATERIAL_EXT_SLOT_COUNT ? slot_names[slot] : "";
}
