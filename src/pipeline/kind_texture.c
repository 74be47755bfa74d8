/* kind_texture.c — the texture source kind: an image file (PNG, JPEG, TGA, BMP, HDR, EXR) cooked
 * into one KTX2 file with the import.texture settings (cook_texture.c). */
#include "core/error.h"
#include "pipeline/cook.h"
#include "pipeline/source_kind.h"

static const char *const extensions[] = {"png", "jpg", "jpeg", "tga", "bmp", "hdr", "exr", NULL};

static json_t *settings_json(const kiln_asset *a)
{
    return kiln_texture_settings_json(&a->settings.texture);
}

static bool target_dependent(const kiln_asset *a)
{
    return a->settings.texture.format == KILN_TEXFMT_AUTO;
}

static kiln_result settings_refused(kiln_error *err, const char *field, const char *msg)
{
    kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "%s", msg);
    kiln_error_at_pointer(err, field);
    return KILN_E_IMPORT_SETTINGS;
}

static kiln_result check_settings(const kiln_asset *a, kiln_error *err)
{
    const kiln_texture_settings *s = &a->settings.texture;
    if (s->shape == KILN_SHAPE_SETTING_ARRAY || s->shape == KILN_SHAPE_SETTING_VOLUME)
        return settings_refused(err, "/import/texture/shape",
                                "an image makes a 2d texture or a cube; an array or a volume is "
                                "made by a .ktex descriptor naming its layers or slices; allowed "
                                "for an image: auto, 2d or cube");
    if (s->ibl && s->shape != KILN_SHAPE_SETTING_CUBE)
        return settings_refused(err, "/import/texture/ibl",
                                "ibl true needs shape cube (the environment is a cube); allowed: "
                                "ibl false, or shape cube");
    return kiln_texture_settings_check(s, err);
}

static kiln_result cook(kiln_project *p, const kiln_asset *a, const uint8_t *source, size_t size,
                        kiln_cooked *out, kiln_error *err)
{
    kiln_cook_env env = {
        .allocator = &p->allocator, .jobs = p->jobs, .platform = p->platform, .name = a->rel};
    return kiln_cook_texture_source(&env, &a->settings.texture, source, size, out, err);
}

/* The schema of import.texture (source_kind.h: settings_schema), as docs/schemas/meta.schema.json
 * states it; tests/settings/test_kind_schema.c holds the two and the settings parser together. */
static const char settings_schema[] =
    "{"
    "\"texture\": {"
    "\"description\": \"Images (PNG, JPEG, TGA, HDR, EXR ...).\", "
    "\"type\": \"object\", "
    "\"additionalProperties\": false, "
    "\"properties\": {"
    "\"format\": {\"$ref\": \"#/$defs/textureFormat\", \"default\": \"auto\", "
    "\"description\": \"GPU format; auto is rgba8 for LDR sources and bc6h (astc4x4_hdr on "
    "mobile platforms, rgba16f with alpha) for HDR sources; uastc and etc1s are Basis Universal "
    "(docs/basis.md).\"}, "
    "\"srgb\": {\"type\": [\"null\", \"boolean\"], \"default\": null, \"description\": "
    "\"null: sRGB for colour, linear for normal maps and HDR.\"}, "
    "\"mipmaps\": {\"type\": \"boolean\", \"default\": true}, "
    "\"normal_map\": {\"type\": \"boolean\", \"default\": false}, "
    "\"flip_green\": {\"type\": \"boolean\", \"default\": false, \"description\": \"Only "
    "with normal_map true.\"}, "
    "\"max_size\": {\"type\": \"integer\", \"minimum\": 4, \"maximum\": 16384, "
    "\"default\": 16384}, "
    "\"quality\": {\"$ref\": \"#/$defs/quality\", \"default\": \"normal\"}, "
    "\"supercompression\": {\"enum\": [\"none\", \"zstd\"], \"default\": \"none\"}, "
    "\"shape\": {\"enum\": [\"auto\", \"2d\", \"cube\", \"array\", \"volume\"], \"default\": "
    "\"auto\", \"description\": \"auto: 2d for an image, the descriptor's shape for a .ktex; cube "
    "makes six faces of a panorama, cross or strip image.\"}, "
    "\"ibl\": {\"type\": \"boolean\", \"default\": false, \"description\": \"Cubes only: also "
    "cook the prefiltered specular cube, the irradiance and the BRDF lookup table.\"}, "
    "\"cube_layout\": {\"enum\": [\"auto\", \"panorama\", \"horizontal_cross\", "
    "\"vertical_cross\", \"horizontal_strip\", \"vertical_strip\"], \"default\": \"auto\", "
    "\"description\": \"shape cube on an image: how it holds the faces; auto: a cross or strip by "
    "its aspect, a panorama when 2:1.\"}, "
    "\"basis_quality\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 255, "
    "\"default\": 128, \"description\": \"Format etc1s: the quality of the ETC1S codebooks, 1 "
    "(smallest file) to 255 (best picture), as basisu's -q (docs/basis.md).\"}, "
    "\"uastc_rdo\": {\"type\": \"number\", \"minimum\": 0, \"maximum\": 10, \"default\": "
    "0, \"description\": \"Format uastc: the rate-distortion lambda (0: off); larger trades "
    "error for a smaller Zstandard-compressed file, as basisu's -uastc_rdo_l.\"}"
    "}}"
    "}";

static const char *const settings_groups[] = {"texture", NULL};

const kiln_source_kind kiln_source_kind_texture = {
    .name = "texture",
    .extensions = extensions,
    .settings_json = settings_json,
    .target_dependent = target_dependent,
    .key_has_guid = false,
    .dependencies = NULL,
    .check_settings = check_settings,
    .cook = cook,
    .settings_schema = settings_schema,
    .settings_groups = settings_groups,
};
