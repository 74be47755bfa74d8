/* settings.c — the .meta document: defaults, validation that names the offending field with an
 * RFC 6901 JSON pointer, per-platform overrides, the canonical settings JSON that goes into cache
 * keys, and the reimport edits (--set path=value, --settings patch).
 *
 * The contract is docs/settings.md; docs/schemas/meta.schema.json states the same rules as a JSON
 * Schema (draft 2020-12), and tests/settings checks that kiln and an independent validator accept
 * exactly the same documents. Fields are described once, in the tables below, so parsing,
 * messages and the canonical JSON cannot drift apart. */
#include "pipeline/settings.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* Settings are at most four levels deep (import/texture/lods/0); a patch or a --set value nested
 * far deeper is certainly wrong, and bounding it keeps the recursive merge and copy shallow. */
#define SETTINGS_MAX_DEPTH 16

/* ---- field tables ------------------------------------------------------------------------- */

typedef enum field_type {
    FT_BOOL,
    FT_TRISTATE,
    FT_ENUM,
    FT_UINT,
    FT_NUMBER,
    FT_LODS,
    FT_IDENT,     /* a C identifier of at most KILN_SHADER_ENTRY_MAX bytes */
    FT_DEFINES,   /* an object of macros: kept in kiln_settings.lists */
    FT_FOLDERS,   /* an array of project-relative folders: kept in kiln_settings.lists */
    FT_VARIANTS,  /* an object of named define objects: kept in kiln_settings.lists */
    FT_TEMPLATES, /* an object of material name -> .kmat path: kept in kiln_settings.lists */
} field_type;

/* The types whose values live in kiln_settings.lists rather than in the fixed structs. */
static bool is_list_type(field_type t) { return t >= FT_DEFINES; }

enum {
    NUM_MIN_EXCLUSIVE = 1u,  /* FT_NUMBER: min itself is not allowed */
    NUM_ZERO_OR_RANGE = 2u,  /* FT_NUMBER: 0 (off) or [min, max] */
    UINT_MULTIPLE_OF_4 = 4u, /* FT_UINT */
    UINT_ZERO_OR_RANGE = 8u, /* FT_UINT: 0 (off) or [min, max] */
};

typedef struct field_desc {
    const char *name;
    field_type type;
    const char *const *names; /* FT_ENUM: value i is spelled names[i] */
    unsigned name_count;
    double min, max; /* FT_UINT, FT_NUMBER: inclusive unless a flag says otherwise */
    unsigned flags;
    const char *allowed; /* what a valid value looks like, for messages */
    /* FT_ENUM whose names live in another table (names NULL, allowed NULL: listed from it). */
    const char *(*name_of)(unsigned value);
} field_desc;

/* One parsed value of any field type; only the member of the field's type is meaningful. */
typedef struct field_value {
    bool b;
    kiln_tristate tri;
    unsigned e;
    uint32_t u;
    double d;
    double lods[KILN_MAX_LODS];
    uint32_t lod_count;
    char text[KILN_SHADER_ENTRY_MAX + 1]; /* FT_IDENT */
    json_t *list;                         /* list types: the canonical value (a reference) */
} field_value;

static const char *const quality_names[] = {"fast", "normal", "high"};
static const char *const supercompression_names[] = {"none", "zstd"};
static const char *const shape_names[] = {"auto", "2d", "cube", "array", "volume"};
static const char *const cube_layout_names[] = {
    "auto", "panorama", "horizontal_cross", "vertical_cross", "horizontal_strip", "vertical_strip"};
static const char *const up_axis_names[] = {"auto", "y", "z"};
static const char *const compress_names[] = {"none", "meshopt"};
static const char *const tangents_names[] = {"generate", "file"};
/* Shader enums by the names the cooked kind gives them (kiln_format.h); stage and language
 * have "auto" first, so their value is 1 + the enum's. */
static const char *shader_stage_name(unsigned v)
{
    return v == 0 ? "auto" : kiln_shader_stage_name(v - 1);
}
static const char *shader_language_name(unsigned v)
{
    return v == 0 ? "auto" : kiln_shader_language_name(v - 1);
}
static const char *shader_target_name(unsigned v) { return kiln_shader_target_name(v); }
static const char *shader_optimize_name(unsigned v) { return kiln_shader_optimize_name(v); }

#define ENUM_OF(n) n, (unsigned)(sizeof n / sizeof n[0])
/* Texture formats: "auto" and the names of the rows of codec/texture_format.c. */
static const char *texfmt_name(unsigned value)
{
    return kiln_texture_format_name((kiln_texture_format)value);
}
#define TEXFMT_ENUM     NULL, KILN_TEXFMT_COUNT, 0, 0, 0, NULL, texfmt_name
#define QUALITY_ALLOWED "fast, normal or high"

enum {
    TEX_FORMAT,
    TEX_SRGB,
    TEX_MIPMAPS,
    TEX_NORMAL_MAP,
    TEX_FLIP_GREEN,
    TEX_MAX_SIZE,
    TEX_QUALITY,
    TEX_SUPERCOMPRESSION,
    TEX_SHAPE,
    TEX_IBL,
    TEX_CUBE_LAYOUT,
    TEX_BASIS_QUALITY,
    TEX_UASTC_RDO,
    TEX_FIELD_COUNT
};
static const field_desc texture_fields[TEX_FIELD_COUNT] = {
    [TEX_FORMAT] = {"format", FT_ENUM, TEXFMT_ENUM},
    [TEX_SRGB] = {"srgb", FT_TRISTATE, NULL, 0, 0, 0, 0,
                  "null (sRGB for colour, linear for normal maps and HDR), true or false"},
    [TEX_MIPMAPS] = {"mipmaps", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [TEX_NORMAL_MAP] = {"normal_map", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [TEX_FLIP_GREEN] = {"flip_green", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [TEX_MAX_SIZE] = {"max_size", FT_UINT, NULL, 0, 4, 16384, 0, "an integer from 4 to 16384"},
    [TEX_QUALITY] = {"quality", FT_ENUM, ENUM_OF(quality_names), 0, 0, 0, QUALITY_ALLOWED},
    [TEX_SUPERCOMPRESSION] = {"supercompression", FT_ENUM, ENUM_OF(supercompression_names), 0, 0, 0,
                              "none or zstd"},
    [TEX_SHAPE] = {"shape", FT_ENUM, ENUM_OF(shape_names), 0, 0, 0,
                   "auto, 2d, cube, array or volume"},
    [TEX_IBL] = {"ibl", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [TEX_CUBE_LAYOUT] = {"cube_layout", FT_ENUM, ENUM_OF(cube_layout_names), 0, 0, 0,
                         "auto, panorama, horizontal_cross, vertical_cross, horizontal_strip or "
                         "vertical_strip"},
    [TEX_BASIS_QUALITY] = {"basis_quality", FT_UINT, NULL, 0, 1, 255, 0,
                           "an integer from 1 to 255"},
    [TEX_UASTC_RDO] = {"uastc_rdo", FT_NUMBER, NULL, 0, 0, 10, 0, "a number from 0 to 10"},
};

enum {
    MODEL_LODS,
    MODEL_LOD_ERROR,
    MODEL_LOD_MIN_TRIANGLES,
    MODEL_QUANTIZE,
    MODEL_OPTIMIZE,
    MODEL_OVERDRAW_THRESHOLD,
    MODEL_MESHLET_MAX_VERTICES,
    MODEL_MESHLET_MAX_TRIANGLES,
    MODEL_TEXTURE_FORMAT,
    MODEL_TEXTURE_QUALITY,
    MODEL_TEXTURE_MAX_SIZE,
    MODEL_TEXTURES,
    MODEL_COMPRESS,
    MODEL_ANIMATION_REDUCE,
    MODEL_ANIMATION_RESAMPLE_FPS,
    MODEL_MESHLETS,
    MODEL_TANGENTS,
    MODEL_MATERIAL_TEMPLATES,
    MODEL_VIRTUAL_GEOMETRY,
    MODEL_FIELD_COUNT
};
static const field_desc model_fields[MODEL_FIELD_COUNT] = {
    [MODEL_LODS] = {"lods", FT_LODS, NULL, 0, 0, 1, 0,
                    "an array of at most 8 strictly decreasing numbers, each between 0 and 1 "
                    "(exclusive)"},
    [MODEL_LOD_ERROR] = {"lod_error", FT_NUMBER, NULL, 0, 0, 1, 0, "a number from 0 to 1"},
    [MODEL_LOD_MIN_TRIANGLES] = {"lod_min_triangles", FT_UINT, NULL, 0, 0, 2147483647.0, 0,
                                 "an integer from 0 to 2147483647"},
    [MODEL_QUANTIZE] = {"quantize", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [MODEL_OPTIMIZE] = {"optimize", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [MODEL_OVERDRAW_THRESHOLD] = {"overdraw_threshold", FT_NUMBER, NULL, 0, 1, 3, NUM_ZERO_OR_RANGE,
                                  "0 (off) or a number from 1 to 3"},
    [MODEL_MESHLET_MAX_VERTICES] = {"meshlet_max_vertices", FT_UINT, NULL, 0, 3, 255, 0,
                                    "an integer from 3 to 255"},
    [MODEL_MESHLET_MAX_TRIANGLES] = {"meshlet_max_triangles", FT_UINT, NULL, 0, 1, 512,
                                     UINT_MULTIPLE_OF_4, "a multiple of 4 from 4 to 512"},
    [MODEL_TEXTURE_FORMAT] = {"texture_format", FT_ENUM, TEXFMT_ENUM},
    [MODEL_TEXTURE_QUALITY] = {"texture_quality", FT_ENUM, ENUM_OF(quality_names), 0, 0, 0,
                               QUALITY_ALLOWED},
    [MODEL_TEXTURE_MAX_SIZE] = {"texture_max_size", FT_UINT, NULL, 0, 4, 16384, 0,
                                "an integer from 4 to 16384"},
    [MODEL_TEXTURES] = {"textures", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [MODEL_COMPRESS] = {"compress", FT_ENUM, ENUM_OF(compress_names), 0, 0, 0, "none or meshopt"},
    [MODEL_ANIMATION_REDUCE] = {"animation_reduce", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [MODEL_ANIMATION_RESAMPLE_FPS] = {"animation_resample_fps", FT_UINT, NULL, 0, 1, 240,
                                      UINT_ZERO_OR_RANGE, "0 (off) or an integer from 1 to 240"},
    [MODEL_MESHLETS] = {"meshlets", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [MODEL_VIRTUAL_GEOMETRY] = {"virtual_geometry", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [MODEL_TANGENTS] = {"tangents", FT_ENUM, ENUM_OF(tangents_names), 0, 0, 0, "generate or file"},
    [MODEL_MATERIAL_TEMPLATES] = {"material_templates", FT_TEMPLATES, NULL, 0, 0, 0, 0,
                                  "an object of at most 256 entries, each a material's name (or "
                                  "\"*\": every material without an entry of its own) mapped to "
                                  "the path of a .kmat relative to the project root, "
                                  "'/'-separated, without '..'"},
};

enum { FBX_SCALE, FBX_UP_AXIS, FBX_SKINS, FBX_ANIMATIONS, FBX_ANIMATION_FPS, FBX_FIELD_COUNT };
static const field_desc fbx_fields[FBX_FIELD_COUNT] = {
    [FBX_SCALE] = {"scale", FT_NUMBER, NULL, 0, 0, 1000000, NUM_MIN_EXCLUSIVE,
                   "a number greater than 0 and at most 1000000"},
    [FBX_UP_AXIS] = {"up_axis", FT_ENUM, ENUM_OF(up_axis_names), 0, 0, 0, "auto, y or z"},
    [FBX_SKINS] = {"skins", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [FBX_ANIMATIONS] = {"animations", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [FBX_ANIMATION_FPS] = {"animation_fps", FT_UINT, NULL, 0, 1, 240, 0,
                           "an integer from 1 to 240"},
};

enum {
    SHADER_STAGE,
    SHADER_LANGUAGE,
    SHADER_ENTRY,
    SHADER_TARGET,
    SHADER_OPTIMIZE,
    SHADER_WARNINGS_AS_ERRORS,
    SHADER_DEBUG_INFO,
    SHADER_DEFINES,
    SHADER_INCLUDE_DIRS,
    SHADER_VARIANTS,
    SHADER_FIELD_COUNT
};
static const field_desc shader_fields[SHADER_FIELD_COUNT] = {
    [SHADER_STAGE] = {"stage", FT_ENUM, NULL, 1 + KILN_SHADER_STAGE_COUNT, 0, 0, 0, NULL,
                      shader_stage_name},
    [SHADER_LANGUAGE] = {"language", FT_ENUM, NULL, 1 + KILN_SHADER_LANGUAGE_COUNT, 0, 0, 0,
                         "auto (hlsl for .hlsl files, else glsl), glsl or hlsl",
                         shader_language_name},
    [SHADER_ENTRY] = {"entry", FT_IDENT, NULL, 0, 0, 0, 0,
                      "an identifier (a letter or _, then letters, digits or _) of at most 64 "
                      "bytes"},
    [SHADER_TARGET] = {"target", FT_ENUM, NULL, KILN_SHADER_TARGET_COUNT, 0, 0, 0, NULL,
                       shader_target_name},
    [SHADER_OPTIMIZE] = {"optimize", FT_ENUM, NULL, KILN_SHADER_OPTIMIZE_COUNT, 0, 0, 0,
                         "none, size or performance", shader_optimize_name},
    [SHADER_WARNINGS_AS_ERRORS] = {"warnings_as_errors", FT_BOOL, NULL, 0, 0, 0, 0,
                                   "true or false"},
    [SHADER_DEBUG_INFO] = {"debug_info", FT_BOOL, NULL, 0, 0, 0, 0, "true or false"},
    [SHADER_DEFINES] = {"defines", FT_DEFINES, NULL, 0, 0, 0, 0,
                        "an object of at most 64 macros, each an identifier mapped to a string "
                        "(at most 256 characters, no control characters), an integer, or null "
                        "(defined without a value)"},
    [SHADER_INCLUDE_DIRS] = {"include_dirs", FT_FOLDERS, NULL, 0, 0, 0, 0,
                             "an array of at most 16 distinct folders relative to the project "
                             "root, '/'-separated, without '..'"},
    [SHADER_VARIANTS] = {"variants", FT_VARIANTS, NULL, 0, 0, 0, 0,
                         "an object of at most 256 variants, each a name (letters, digits, _ . "
                         "-; at most 64 bytes) mapped to an object of defines"},
};

static void texture_store(kiln_settings *s, size_t field, const field_value *v)
{
    kiln_texture_settings *t = &s->texture;
    switch (field) {
    case TEX_FORMAT:
        t->format = (kiln_texture_format)v->e;
        break;
    case TEX_SRGB:
        t->srgb = v->tri;
        break;
    case TEX_MIPMAPS:
        t->mipmaps = v->b;
        break;
    case TEX_NORMAL_MAP:
        t->normal_map = v->b;
        break;
    case TEX_FLIP_GREEN:
        t->flip_green = v->b;
        break;
    case TEX_MAX_SIZE:
        t->max_size = v->u;
        break;
    case TEX_QUALITY:
        t->quality = (kiln_quality)v->e;
        break;
    case TEX_SUPERCOMPRESSION:
        t->supercompression = (kiln_supercompression_setting)v->e;
        break;
    case TEX_SHAPE:
        t->shape = (kiln_texture_shape_setting)v->e;
        break;
    case TEX_IBL:
        t->ibl = v->b;
        break;
    case TEX_CUBE_LAYOUT:
        t->cube_layout = (kiln_cube_layout_setting)v->e;
        break;
    case TEX_BASIS_QUALITY:
        t->basis_quality = v->u;
        break;
    case TEX_UASTC_RDO:
        t->uastc_rdo = v->d;
        break;
    default:
        assert(0 && "field index out of the table");
    }
}

static void texture_load(const kiln_settings *s, size_t field, field_value *v)
{
    const kiln_texture_settings *t = &s->texture;
    switch (field) {
    case TEX_FORMAT:
        v->e = (unsigned)t->format;
        break;
    case TEX_SRGB:
        v->tri = t->srgb;
        break;
    case TEX_MIPMAPS:
        v->b = t->mipmaps;
        break;
    case TEX_NORMAL_MAP:
        v->b = t->normal_map;
        break;
    case TEX_FLIP_GREEN:
        v->b = t->flip_green;
        break;
    case TEX_MAX_SIZE:
        v->u = t->max_size;
        break;
    case TEX_QUALITY:
        v->e = (unsigned)t->quality;
        break;
    case TEX_SUPERCOMPRESSION:
        v->e = (unsigned)t->supercompression;
        break;
    case TEX_SHAPE:
        v->e = (unsigned)t->shape;
        break;
    case TEX_IBL:
        v->b = t->ibl;
        break;
    case TEX_CUBE_LAYOUT:
        v->e = (unsigned)t->cube_layout;
        break;
    case TEX_BASIS_QUALITY:
        v->u = t->basis_quality;
        break;
    case TEX_UASTC_RDO:
        v->d = t->uastc_rdo;
        break;
    default:
        assert(0 && "field index out of the table");
    }
}

static void model_store(kiln_settings *s, size_t field, const field_value *v)
{
    kiln_model_settings *m = &s->model;
    switch (field) {
    case MODEL_LODS:
        memcpy(m->lods, v->lods, sizeof m->lods);
        m->lod_count = v->lod_count;
        break;
    case MODEL_LOD_ERROR:
        m->lod_error = v->d;
        break;
    case MODEL_LOD_MIN_TRIANGLES:
        m->lod_min_triangles = v->u;
        break;
    case MODEL_QUANTIZE:
        m->quantize = v->b;
        break;
    case MODEL_OPTIMIZE:
        m->optimize = v->b;
        break;
    case MODEL_OVERDRAW_THRESHOLD:
        m->overdraw_threshold = v->d;
        break;
    case MODEL_MESHLET_MAX_VERTICES:
        m->meshlet_max_vertices = v->u;
        break;
    case MODEL_MESHLET_MAX_TRIANGLES:
        m->meshlet_max_triangles = v->u;
        break;
    case MODEL_TEXTURE_FORMAT:
        m->texture_format = (kiln_texture_format)v->e;
        break;
    case MODEL_TEXTURE_QUALITY:
        m->texture_quality = (kiln_quality)v->e;
        break;
    case MODEL_TEXTURE_MAX_SIZE:
        m->texture_max_size = v->u;
        break;
    case MODEL_TEXTURES:
        m->textures = v->b;
        break;
    case MODEL_COMPRESS:
        m->compress_meshopt = v->e == 1;
        break;
    case MODEL_ANIMATION_REDUCE:
        m->animation_reduce = v->b;
        break;
    case MODEL_ANIMATION_RESAMPLE_FPS:
        m->animation_resample_fps = v->u;
        break;
    case MODEL_MESHLETS:
        m->meshlets = v->b;
        break;
    case MODEL_VIRTUAL_GEOMETRY:
        m->virtual_geometry = v->b;
        break;
    case MODEL_TANGENTS:
        m->tangents_from_file_only = v->e == 1;
        break;
    default:
        assert(0 && "field index out of the table");
    }
}

static void model_load(const kiln_settings *s, size_t field, field_value *v)
{
    const kiln_model_settings *m = &s->model;
    switch (field) {
    case MODEL_LODS:
        memcpy(v->lods, m->lods, sizeof v->lods);
        v->lod_count = m->lod_count;
        break;
    case MODEL_LOD_ERROR:
        v->d = m->lod_error;
        break;
    case MODEL_LOD_MIN_TRIANGLES:
        v->u = m->lod_min_triangles;
        break;
    case MODEL_QUANTIZE:
        v->b = m->quantize;
        break;
    case MODEL_OPTIMIZE:
        v->b = m->optimize;
        break;
    case MODEL_OVERDRAW_THRESHOLD:
        v->d = m->overdraw_threshold;
        break;
    case MODEL_MESHLET_MAX_VERTICES:
        v->u = m->meshlet_max_vertices;
        break;
    case MODEL_MESHLET_MAX_TRIANGLES:
        v->u = m->meshlet_max_triangles;
        break;
    case MODEL_TEXTURE_FORMAT:
        v->e = (unsigned)m->texture_format;
        break;
    case MODEL_TEXTURE_QUALITY:
        v->e = (unsigned)m->texture_quality;
        break;
    case MODEL_TEXTURE_MAX_SIZE:
        v->u = m->texture_max_size;
        break;
    case MODEL_TEXTURES:
        v->b = m->textures;
        break;
    case MODEL_COMPRESS:
        v->e = m->compress_meshopt ? 1u : 0u;
        break;
    case MODEL_ANIMATION_REDUCE:
        v->b = m->animation_reduce;
        break;
    case MODEL_ANIMATION_RESAMPLE_FPS:
        v->u = m->animation_resample_fps;
        break;
    case MODEL_MESHLETS:
        v->b = m->meshlets;
        break;
    case MODEL_VIRTUAL_GEOMETRY:
        v->b = m->virtual_geometry;
        break;
    case MODEL_TANGENTS:
        v->e = m->tangents_from_file_only ? 1u : 0u;
        break;
    default:
        assert(0 && "field index out of the table");
    }
}

static void fbx_store(kiln_settings *s, size_t field, const field_value *v)
{
    kiln_fbx_settings *f = &s->fbx;
    switch (field) {
    case FBX_SCALE:
        f->scale = v->d;
        break;
    case FBX_UP_AXIS:
        f->up_axis = (kiln_up_axis)v->e;
        break;
    case FBX_SKINS:
        f->skins = v->b;
        break;
    case FBX_ANIMATIONS:
        f->animations = v->b;
        break;
    case FBX_ANIMATION_FPS:
        f->animation_fps = v->u;
        break;
    default:
        assert(0 && "field index out of the table");
    }
}

static void fbx_load(const kiln_settings *s, size_t field, field_value *v)
{
    const kiln_fbx_settings *f = &s->fbx;
    switch (field) {
    case FBX_SCALE:
        v->d = f->scale;
        break;
    case FBX_UP_AXIS:
        v->e = (unsigned)f->up_axis;
        break;
    case FBX_SKINS:
        v->b = f->skins;
        break;
    case FBX_ANIMATIONS:
        v->b = f->animations;
        break;
    case FBX_ANIMATION_FPS:
        v->u = f->animation_fps;
        break;
    default:
        assert(0 && "field index out of the table");
    }
}

static void shader_store(kiln_settings *s, size_t field, const field_value *v)
{
    kiln_shader_settings *h = &s->shader;
    switch (field) {
    case SHADER_STAGE:
        h->stage = v->e;
        break;
    case SHADER_LANGUAGE:
        h->language = v->e;
        break;
    case SHADER_ENTRY:
        memcpy(h->entry, v->text, sizeof h->entry);
        break;
    case SHADER_TARGET:
        h->target = v->e;
        break;
    case SHADER_OPTIMIZE:
        h->optimize = v->e;
        break;
    case SHADER_WARNINGS_AS_ERRORS:
        h->warnings_as_errors = v->b;
        break;
    case SHADER_DEBUG_INFO:
        h->debug_info = v->b;
        break;
    default:
        assert(0 && "a list field is stored in kiln_settings.lists");
    }
}

static void shader_load(const kiln_settings *s, size_t field, field_value *v)
{
    const kiln_shader_settings *h = &s->shader;
    switch (field) {
    case SHADER_STAGE:
        v->e = h->stage;
        break;
    case SHADER_LANGUAGE:
        v->e = h->language;
        break;
    case SHADER_ENTRY:
        memcpy(v->text, h->entry, sizeof v->text);
        break;
    case SHADER_TARGET:
        v->e = h->target;
        break;
    case SHADER_OPTIMIZE:
        v->e = h->optimize;
        break;
    case SHADER_WARNINGS_AS_ERRORS:
        v->b = h->warnings_as_errors;
        break;
    case SHADER_DEBUG_INFO:
        v->b = h->debug_info;
        break;
    default:
        assert(0 && "a list field is loaded from kiln_settings.lists");
    }
}

typedef struct kind_desc {
    const char *name;
    const field_desc *fields;
    size_t field_count;
    void (*store)(kiln_settings *s, size_t field, const field_value *v);
    void (*load)(const kiln_settings *s, size_t field, field_value *v);
} kind_desc;

enum { KIND_TEXTURE, KIND_MODEL, KIND_FBX, KIND_SHADER, KIND_COUNT };
static const kind_desc kinds[KIND_COUNT] = {
    [KIND_TEXTURE] = {"texture", texture_fields, TEX_FIELD_COUNT, texture_store, texture_load},
    [KIND_MODEL] = {"model", model_fields, MODEL_FIELD_COUNT, model_store, model_load},
    [KIND_FBX] = {"fbx", fbx_fields, FBX_FIELD_COUNT, fbx_store, fbx_load},
    [KIND_SHADER] = {"shader", shader_fields, SHADER_FIELD_COUNT, shader_store, shader_load},
};

/* "format, srgb, ...": the kind's fields in table order, for "unknown field" messages. */
static const char *field_list(const kind_desc *k, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < k->field_count && n + 1 < size; i++) {
        int w = snprintf(buf + n, size - n, "%s%s", i ? ", " : "", k->fields[i].name);
        if (w < 0) break;
        n += (size_t)w < size - n ? (size_t)w : size - n - 1;
    }
    return buf;
}

void kiln_settings_default(kiln_settings *out)
{
    memset(out, 0, sizeof *out);
    out->texture.format = KILN_TEXFMT_AUTO;
    out->texture.srgb = KILN_TRI_NULL;
    out->texture.mipmaps = true;
    out->texture.normal_map = false;
    out->texture.flip_green = false;
    out->texture.max_size = 16384;
    out->texture.quality = KILN_QUALITY_NORMAL;
    out->texture.supercompression = KILN_SUPERCOMPRESSION_NONE;
    out->texture.basis_quality = 128;

    out->model.lods[0] = 0.5;
    out->model.lods[1] = 0.25;
    out->model.lods[2] = 0.125;
    out->model.lod_count = 3;
    out->model.lod_error = 0.05;
    out->model.lod_min_triangles = 64;
    out->model.quantize = true;
    out->model.optimize = true;
    out->model.overdraw_threshold = 1.05;
    out->model.meshlet_max_vertices = 64;
    out->model.meshlet_max_triangles = 124;
    out->model.texture_format = KILN_TEXFMT_AUTO;
    out->model.texture_quality = KILN_QUALITY_NORMAL;
    out->model.texture_max_size = 4096;
    out->model.textures = true;
    out->model.compress_meshopt = false;
    out->model.animation_reduce = true;
    out->model.animation_resample_fps = 0;
    out->model.meshlets = true;
    out->model.virtual_geometry = false;
    out->model.tangents_from_file_only = false;

    out->fbx.scale = 1.0;
    out->fbx.up_axis = KILN_UP_AUTO;
    out->fbx.skins = true;
    out->fbx.animations = true;
    out->fbx.animation_fps = 30;

    out->shader.stage = KILN_SHADER_STAGE_AUTO;
    out->shader.language = KILN_SHADER_LANGUAGE_AUTO;
    memcpy(out->shader.entry, "main", 5);
    out->shader.target = KILN_SHADER_VULKAN_1_2;
    out->shader.optimize = KILN_SHADER_OPTIMIZE_PERFORMANCE;
    out->shader.warnings_as_errors = true;
    out->shader.debug_info = false;
    out->lists = NULL;
}

void kiln_settings_clear(kiln_settings *s)
{
    if (!s) return;
    json_decref(s->lists);
    s->lists = NULL;
}

void kiln_settings_copy(kiln_settings *dst, const kiln_settings *src)
{
    *dst = *src;
    json_incref(dst->lists);
}

const json_t *kiln_settings_list(const kiln_settings *s, const char *group, const char *field)
{
    return s ? json_object_get(json_object_get(s->lists, group), field) : NULL;
}

/* Sets one list field: the lists are shared by copies, so they are copied and replaced, never
 * changed in place. value is stolen. */
static kiln_result list_store(kiln_settings *s, const char *group, const char *field, json_t *value,
                              kiln_error *err)
{
    json_t *lists = s->lists ? json_deep_copy(s->lists) : json_object();
    json_t *g = lists ? json_object_get(lists, group) : NULL;
    if (lists && !g && json_object_set_new(lists, group, json_object()) == 0)
        g = json_object_get(lists, group);
    if (!g || json_object_set_new(g, field, value) != 0) {
        if (!g) json_decref(value);
        json_decref(lists);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory parsing settings");
    }
    json_decref(s->lists);
    s->lists = lists;
    return KILN_OK;
}

const char *kiln_quality_name(kiln_quality q)
{
    return (unsigned)q < sizeof quality_names / sizeof quality_names[0] ? quality_names[q]
                                                                        : "invalid";
}

/* ---- JSON pointers and messages ----------------------------------------------------------- */

/* An RFC 6901 pointer built while walking the document; longer than err->json_pointer so that
 * truncation happens once, at a character boundary, when the error is filled. */
typedef struct json_ptr {
    char text[512];
    size_t len;
} json_ptr;

static void ptr_putc(json_ptr *p, char c)
{
    if (p->len + 1 < sizeof p->text) p->text[p->len++] = c;
    p->text[p->len] = '\0';
}

/* Appends "/" and the key with '~' and '/' escaped; returns the old length for ptr_pop. */
static size_t ptr_push(json_ptr *p, const char *key, size_t key_len)
{
    size_t old = p->len;
    ptr_putc(p, '/');
    for (size_t i = 0; i < key_len && key[i]; i++) {
        if (key[i] == '~') {
            ptr_putc(p, '~');
            ptr_putc(p, '0');
        } else if (key[i] == '/') {
            ptr_putc(p, '~');
            ptr_putc(p, '1');
        } else {
            ptr_putc(p, key[i]);
        }
    }
    return old;
}

static size_t ptr_push_str(json_ptr *p, const char *key) { return ptr_push(p, key, strlen(key)); }

static size_t ptr_push_index(json_ptr *p, size_t index)
{
    char num[32];
    snprintf(num, sizeof num, "%zu", index);
    return ptr_push_str(p, num);
}

static void ptr_pop(json_ptr *p, size_t old)
{
    p->len = old;
    p->text[old] = '\0';
}

/* Untrusted text put into a message is reduced to printable ASCII: messages end up in --json
 * output and terminals, where broken UTF-8 or control characters would do harm. */
static const char *printable(const char *s, size_t len, char *buf, size_t buf_size)
{
    size_t n = 0, limit = buf_size - 4;
    for (size_t i = 0; i < len && n < limit; i++) {
        unsigned char c = (unsigned char)s[i];
        buf[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    if (n == limit && len > n) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

/* The shortest %g form that reads back as the same double. */
static void format_double(double d, char *buf, size_t size)
{
    snprintf(buf, size, "%.15g", d);
    if (strtod(buf, NULL) != d) snprintf(buf, size, "%.17g", d);
}

/* "an object", "\"bc8\"", "4.5", ... for messages. */
static const char *describe(const json_t *v, char *buf, size_t size)
{
    char text[48];
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        printable(json_string_value(v), json_string_length(v), text, sizeof text);
        snprintf(buf, size, "\"%s\"", text);
        return buf;
    case JSON_INTEGER:
        snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return buf;
    case JSON_REAL:
        format_double(json_real_value(v), buf, size);
        return buf;
    case JSON_TRUE:
        return "true";
    case JSON_FALSE:
        return "false";
    case JSON_NULL:
        return "null";
    }
    return "a value";
}

static kiln_result settings_fail(kiln_error *err, const json_ptr *p, const char *fmt, ...)
    KILN_PRINTF(3, 4);

static kiln_result settings_fail(kiln_error *err, const json_ptr *p, const char *fmt, ...)
{
    if (!err) return KILN_E_IMPORT_SETTINGS;
    va_list ap;
    va_start(ap, fmt);
    kiln_error_setv(err, KILN_E_IMPORT_SETTINGS, fmt, ap);
    va_end(ap);
    kiln_error_at_pointer(err, p->text); /* cut at a character boundary when too long */
    return KILN_E_IMPORT_SETTINGS;
}

static bool key_is(const char *key, size_t key_len, const char *name)
{
    return strlen(name) == key_len && memcmp(key, name, key_len) == 0;
}

/* ^[a-z][a-z0-9_-]{0,31}$ */
static bool platform_name_valid(const char *name, size_t len)
{
    if (len < 1 || len > 32 || name[0] < 'a' || name[0] > 'z') return false;
    for (size_t i = 1; i < len; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return false;
    }
    return true;
}

/* jansson's iterators take non-const objects; reading through them changes nothing. */
#define OBJECT_FOREACH(obj, it)                                                                    \
    for (void *it = json_object_iter((json_t *)(obj)); it;                                         \
         it = json_object_iter_next((json_t *)(obj), it))

/* ---- field validation --------------------------------------------------------------------- */

static kiln_result parse_lods(const field_desc *f, const json_t *v, json_ptr *p, field_value *out,
                              kiln_error *err)
{
    char got[64], prev_text[32];
    if (!json_is_array(v))
        return settings_fail(err, p, "lods is %s; allowed: %s", describe(v, got, sizeof got),
                             f->allowed);
    size_t n = json_array_size(v);
    if (n > KILN_MAX_LODS)
        return settings_fail(err, p, "lods has %zu entries; allowed: %s", n, f->allowed);
    out->lod_count = (uint32_t)n;
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(v, i);
        size_t mark = ptr_push_index(p, i);
        double d;
        if (json_is_integer(e)) d = (double)json_integer_value(e);
        else if (json_is_real(e)) d = json_real_value(e);
        else
            return settings_fail(err, p,
                                 "lods[%zu] is %s; allowed: a number between 0 and 1 "
                                 "(exclusive)",
                                 i, describe(e, got, sizeof got));
        if (!(d > 0.0 && d < 1.0))
            return settings_fail(err, p,
                                 "lods[%zu] is %s; allowed: a number between 0 and 1 "
                                 "(exclusive)",
                                 i, describe(e, got, sizeof got));
        if (i > 0 && !(d < out->lods[i - 1])) {
            format_double(out->lods[i - 1], prev_text, sizeof prev_text);
            return settings_fail(err, p,
                                 "lods[%zu] is %s, not below lods[%zu] = %s; allowed: "
                                 "strictly decreasing fractions of the triangle count",
                                 i, describe(e, got, sizeof got), i - 1, prev_text);
        }
        out->lods[i] = d;
        ptr_pop(p, mark);
    }
    return KILN_OK;
}

/* ^[A-Za-z_][A-Za-z0-9_]*$ of at most max bytes: a C (GLSL, HLSL) identifier. */
static bool identifier_valid(const char *s, size_t len, size_t max)
{
    if (len < 1 || len > max) return false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
    }
    return true;
}

static kiln_result lists_oom(json_t *partial, kiln_error *err)
{
    json_decref(partial);
    return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory parsing settings");
}

/* {"NAME": "value" | integer | null}: macros for the shader compiler, canonical as strings (an
 * integer as its decimal text) or null (defined without a value). Reals are refused: 1.0 and 1
 * are different GLSL, and a JSON number does not keep its spelling. */
static kiln_result parse_defines(const char *what, const json_t *v, json_ptr *p, json_t **out,
                                 kiln_error *err)
{
    char got[64], name[48];
    const char *allowed = "an object of at most 64 macros, each an identifier mapped to a "
                          "string, an integer or null";
    if (!json_is_object(v))
        return settings_fail(err, p, "%s is %s; allowed: %s", what, describe(v, got, sizeof got),
                             allowed);
    if (json_object_size(v) > KILN_SHADER_MAX_DEFINES)
        return settings_fail(err, p, "%s has %zu macros; allowed: %s", what, json_object_size(v),
                             allowed);
    json_t *canon = json_object();
    if (!canon) return lists_oom(NULL, err);
    OBJECT_FOREACH(v, it)
    {
        const char *key = json_object_iter_key(it);
        size_t key_len = json_object_iter_key_len(it);
        const json_t *val = json_object_iter_value(it);
        size_t mark = ptr_push(p, key, key_len);
        printable(key, key_len, name, sizeof name);
        kiln_result r = KILN_OK;
        json_t *c = NULL;
        if (!identifier_valid(key, key_len, KILN_SHADER_ENTRY_MAX)) {
            r = settings_fail(err, p,
                              "macro name \"%s\" is not allowed; allowed: an identifier of at "
                              "most 64 bytes (a letter or _, then letters, digits or _)",
                              name);
        } else if (json_is_null(val)) {
            c = json_null();
        } else if (json_is_integer(val)) {
            c = json_sprintf("%" JSON_INTEGER_FORMAT, json_integer_value(val));
        } else if (json_is_string(val)) {
            const char *t = json_string_value(val);
            size_t n = json_string_length(val), chars = 0;
            bool ok = true;
            for (size_t i = 0; ok && i < n; i++) {
                ok = (unsigned char)t[i] >= 0x20 && t[i] != 0x7f;
                chars += ((unsigned char)t[i] & 0xC0) != 0x80; /* as JSON Schema's maxLength */
            }
            ok = ok && chars <= KILN_SHADER_DEFINE_MAX;
            if (ok) c = json_stringn(t, n);
            else
                r = settings_fail(err, p,
                                  "the value of macro %s is not allowed; allowed: at most %d "
                                  "characters, no control characters",
                                  name, KILN_SHADER_DEFINE_MAX);
        } else {
            r = settings_fail(err, p,
                              "macro %s is %s; allowed: a string, an integer or null (a real "
                              "number is written as a string: \"0.5\")",
                              name, describe(val, got, sizeof got));
        }
        if (r != KILN_OK) {
            json_decref(canon);
            return r;
        }
        if (!c || json_object_setn_new(canon, key, key_len, c) != 0) return lists_oom(canon, err);
        ptr_pop(p, mark);
    }
    *out = canon;
    return KILN_OK;
}

/* One folder of include_dirs: relative to the project root, '/'-separated, no empty, "." or ".."
 * segment (the whole "." is the root itself), no backslash or control character. */
static bool folder_valid(const char *s, size_t len)
{
    if (len == 1 && s[0] == '.') return true;
    if (len < 1 || len > 255 || s[0] == '/') return false;
    size_t seg = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || s[i] == '/') {
            size_t n = i - seg;
            bool dots = (n == 1 && s[seg] == '.') || (n == 2 && s[seg] == '.' && s[seg + 1] == '.');
            if (n == 0 || dots) return false;
            seg = i + 1;
            continue;
        }
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f || c == '\\') return false;
    }
    return true;
}

static kiln_result parse_folders(const field_desc *f, const json_t *v, json_ptr *p, json_t **out,
                                 kiln_error *err)
{
    char got[64];
    if (!json_is_array(v) || json_array_size(v) > KILN_SHADER_MAX_INCLUDES)
        return settings_fail(err, p, "%s is %s%s; allowed: %s", f->name,
                             describe(v, got, sizeof got),
                             json_is_array(v) ? " of too many folders" : "", f->allowed);
    json_t *canon = json_array();
    if (!canon) return lists_oom(NULL, err);
    for (size_t i = 0; i < json_array_size(v); i++) {
        const json_t *e = json_array_get(v, i);
        size_t mark = ptr_push_index(p, i);
        kiln_result r = KILN_OK;
        if (!json_is_string(e) || !folder_valid(json_string_value(e), json_string_length(e)))
            r = settings_fail(err, p,
                              "%s[%zu] is %s; allowed: a folder relative to the project root, "
                              "'/'-separated, without '..' or '.' segments or a leading '/'",
                              f->name, i, describe(e, got, sizeof got));
        for (size_t k = 0; r == KILN_OK && k < i; k++)
            if (json_equal(json_array_get(v, k), (json_t *)e))
                r = settings_fail(err, p, "%s[%zu] repeats %s[%zu]; allowed: %s", f->name, i,
                                  f->name, k, f->allowed);
        if (r != KILN_OK) {
            json_decref(canon);
            return r;
        }
        if (json_array_append(canon, (json_t *)e) != 0) return lists_oom(canon, err);
        ptr_pop(p, mark);
    }
    *out = canon;
    return KILN_OK;
}

/* A path whose last segment is <something>.kmat. */
static bool kmat_name(const char *s, size_t len)
{
    size_t start = len;
    while (start > 0 && s[start - 1] != '/') start--;
    return len - start > 5 && memcmp(s + len - 5, ".kmat", 5) == 0;
}

/* import.model.material_templates: {"<material name>" or "*": "<root-relative .kmat path>"}.
 * A name is any non-empty string of at most 255 bytes (glTF names are free text); a path is a
 * folder path as include_dirs takes it, naming a .kmat. Whether the file exists is the cook's
 * business (a missing template is a missing dependency, not a bad setting). */
static kiln_result parse_templates(const field_desc *f, const json_t *v, json_ptr *p, json_t **out,
                                   kiln_error *err)
{
    char got[64], name[80];
    if (!json_is_object(v) || json_object_size(v) > KILN_MODEL_MAX_TEMPLATES)
        return settings_fail(err, p, "%s is %s%s; allowed: %s", f->name,
                             describe(v, got, sizeof got),
                             json_is_object(v) ? " of too many entries" : "", f->allowed);
    json_t *canon = json_object();
    if (!canon) return lists_oom(NULL, err);
    OBJECT_FOREACH(v, it)
    {
        const char *key = json_object_iter_key(it);
        size_t key_len = json_object_iter_key_len(it);
        const json_t *e = json_object_iter_value(it);
        size_t mark = ptr_push(p, key, key_len);
        printable(key, key_len, name, sizeof name);
        kiln_result r = KILN_OK;
        size_t n = json_is_string(e) ? json_string_length(e) : 0;
        if (key_len < 1 || key_len > 255 || memchr(key, '\0', key_len))
            r = settings_fail(err, p,
                              "material name \"%s\" is not allowed; allowed: 1 to 255 bytes, no "
                              "NUL",
                              name);
        else if (!json_is_string(e) || !folder_valid(json_string_value(e), n) ||
                 !kmat_name(json_string_value(e), n))
            r = settings_fail(err, p,
                              "the template of %s is %s; allowed: the path of a .kmat relative to "
                              "the project root, '/'-separated, without '..' or '.' segments or a "
                              "leading '/'",
                              name, describe(e, got, sizeof got));
        if (r != KILN_OK) {
            json_decref(canon);
            return r;
        }
        if (json_object_setn(canon, key, key_len, (json_t *)e) != 0) return lists_oom(canon, err);
        ptr_pop(p, mark);
    }
    *out = canon;
    return KILN_OK;
}

/* ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$: a variant's name (runtime lookups, artifact labels). */
static bool variant_name_valid(const char *s, size_t len)
{
    if (len < 1 || len > 64 || s[0] == '.' || s[0] == '-') return false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-'))
            return false;
    }
    return true;
}

static kiln_result parse_variants(const field_desc *f, const json_t *v, json_ptr *p, json_t **out,
                                  kiln_error *err)
{
    char got[64], name[80], what[96];
    if (!json_is_object(v) || json_object_size(v) > KILN_SHADER_SETTINGS_MAX_VARIANTS)
        return settings_fail(err, p, "%s is %s%s; allowed: %s", f->name,
                             describe(v, got, sizeof got),
                             json_is_object(v) ? " of too many variants" : "", f->allowed);
    json_t *canon = json_object();
    if (!canon) return lists_oom(NULL, err);
    OBJECT_FOREACH(v, it)
    {
        const char *key = json_object_iter_key(it);
        size_t key_len = json_object_iter_key_len(it);
        size_t mark = ptr_push(p, key, key_len);
        printable(key, key_len, name, sizeof name);
        json_t *defines = NULL;
        kiln_result r;
        if (!variant_name_valid(key, key_len)) {
            r = settings_fail(err, p,
                              "variant name \"%s\" is not allowed; allowed: letters, digits, _ . "
                              "- (not first: . -), at most 64 bytes",
                              name);
        } else {
            snprintf(what, sizeof what, "variant %s", name);
            r = parse_defines(what, json_object_iter_value(it), p, &defines, err);
        }
        if (r != KILN_OK) {
            json_decref(canon);
            return r;
        }
        if (json_object_setn_new(canon, key, key_len, defines) != 0) return lists_oom(canon, err);
        ptr_pop(p, mark);
    }
    *out = canon;
    return KILN_OK;
}

static const char *enum_name(const field_desc *f, unsigned value)
{
    return f->names ? f->names[value] : f->name_of(value);
}

/* What a valid value looks like: the field's text, or its enum names "a, b or c". */
static const char *allowed_text(const field_desc *f, char *buf, size_t size)
{
    if (f->allowed) return f->allowed;
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < f->name_count && len < size; i++) {
        const char *sep = i == 0 ? "" : i + 1 == f->name_count ? " or " : ", ";
        int n = snprintf(buf + len, size - len, "%s%s", sep, enum_name(f, i));
        if (n < 0) break;
        len += (size_t)n;
    }
    return buf;
}

/* Integers may be written as integral reals (4.0, 1e3): JSON Schema's "integer" (draft 6 and
 * later) accepts them too, and the value, not its spelling, is what the settings mean. */
static kiln_result parse_field(const field_desc *f, const json_t *v, json_ptr *p, field_value *out,
                               kiln_error *err)
{
    char got[64], allowed[160];
    switch (f->type) {
    case FT_BOOL:
        if (!json_is_boolean(v)) break;
        out->b = json_is_true(v);
        return KILN_OK;
    case FT_TRISTATE:
        if (json_is_null(v)) out->tri = KILN_TRI_NULL;
        else if (json_is_boolean(v)) out->tri = json_is_true(v) ? KILN_TRI_TRUE : KILN_TRI_FALSE;
        else break;
        return KILN_OK;
    case FT_ENUM:
        if (!json_is_string(v)) break;
        for (unsigned i = 0; i < f->name_count; i++) {
            if (key_is(json_string_value(v), json_string_length(v), enum_name(f, i))) {
                out->e = i;
                return KILN_OK;
            }
        }
        break;
    case FT_UINT: {
        double d;
        if (json_is_integer(v)) d = (double)json_integer_value(v);
        else if (json_is_real(v)) d = json_real_value(v);
        else break;
        if (!isfinite(d) || d != floor(d)) break;
        if ((d < f->min || d > f->max) && !((f->flags & UINT_ZERO_OR_RANGE) && d == 0.0)) break;
        out->u = (uint32_t)d;
        if ((f->flags & UINT_MULTIPLE_OF_4) && out->u % 4 != 0) break;
        return KILN_OK;
    }
    case FT_NUMBER: {
        double d;
        if (json_is_integer(v)) d = (double)json_integer_value(v);
        else if (json_is_real(v)) d = json_real_value(v);
        else break;
        bool ok;
        if (!isfinite(d)) ok = false;
        else if (f->flags & NUM_ZERO_OR_RANGE) ok = d == 0.0 || (d >= f->min && d <= f->max);
        else if (f->flags & NUM_MIN_EXCLUSIVE) ok = d > f->min && d <= f->max;
        else ok = d >= f->min && d <= f->max;
        if (!ok) break;
        out->d = d + 0.0; /* -0.0 becomes 0.0: one spelling in the canonical JSON */
        return KILN_OK;
    }
    case FT_LODS:
        return parse_lods(f, v, p, out, err);
    case FT_IDENT:
        if (!json_is_string(v) ||
            !identifier_valid(json_string_value(v), json_string_length(v), KILN_SHADER_ENTRY_MAX))
            break;
        memcpy(out->text, json_string_value(v), json_string_length(v) + 1);
        return KILN_OK;
    case FT_DEFINES:
        return parse_defines(f->name, v, p, &out->list, err);
    case FT_FOLDERS:
        return parse_folders(f, v, p, &out->list, err);
    case FT_VARIANTS:
        return parse_variants(f, v, p, &out->list, err);
    case FT_TEMPLATES:
        return parse_templates(f, v, p, &out->list, err);
    }
    return settings_fail(err, p, "%s is %s; allowed: %s", f->name, describe(v, got, sizeof got),
                         allowed_text(f, allowed, sizeof allowed));
}

/* Applies one kind's object (import.texture, platforms.x.model, ...) on top of s; each field set
 * is recorded in *set_mask (bit = field index). */
static kiln_result apply_kind(const kind_desc *k, const json_t *obj, json_ptr *p, kiln_settings *s,
                              uint32_t *set_mask, kiln_error *err)
{
    char got[64], name[48], list[400];
    if (!json_is_object(obj))
        return settings_fail(err, p, "%s settings are %s; allowed: an object", k->name,
                             describe(obj, got, sizeof got));
    OBJECT_FOREACH(obj, it)
    {
        const char *key = json_object_iter_key(it);
        size_t key_len = json_object_iter_key_len(it);
        size_t mark = ptr_push(p, key, key_len);
        size_t i = 0;
        while (i < k->field_count && !key_is(key, key_len, k->fields[i].name)) i++;
        if (i == k->field_count)
            return settings_fail(err, p, "unknown field \"%s\" in %s settings; allowed: %s",
                                 printable(key, key_len, name, sizeof name), k->name,
                                 field_list(k, list, sizeof list));
        field_value v;
        memset(&v, 0, sizeof v);
        kiln_result r = parse_field(&k->fields[i], json_object_iter_value(it), p, &v, err);
        if (r == KILN_OK && is_list_type(k->fields[i].type))
            r = list_store(s, k->name, k->fields[i].name, v.list, err);
        else if (r == KILN_OK) k->store(s, i, &v);
        if (r != KILN_OK) return r;
        *set_mask |= 1u << i;
        ptr_pop(p, mark);
    }
    return KILN_OK;
}

static kiln_result apply_section(const kiln_settings_section *sec, const json_t *obj, json_ptr *p,
                                 kiln_settings *s, kiln_error *err);

/* Applies an object of kinds ("import", or one platform) on top of s. */
static kiln_result apply_kinds(const json_t *obj, const char *what, json_ptr *p,
                               const kiln_settings_ext *ext, kiln_settings *s,
                               uint32_t set_masks[KIND_COUNT], kiln_error *err)
{
    char got[64], name[48];
    if (!json_is_object(obj))
        return settings_fail(err, p,
                             "%s is %s; allowed: an object of texture, model, fbx and "
                             "shader settings",
                             what, describe(obj, got, sizeof got));
    OBJECT_FOREACH(obj, it)
    {
        const char *key = json_object_iter_key(it);
        size_t key_len = json_object_iter_key_len(it);
        size_t mark = ptr_push(p, key, key_len);
        size_t k = 0, e = 0;
        while (k < KIND_COUNT && !key_is(key, key_len, kinds[k].name)) k++;
        while (k == KIND_COUNT && ext && e < ext->count &&
               !key_is(key, key_len, ext->sections[e].name))
            e++;
        if (k == KIND_COUNT && (!ext || e == ext->count))
            return settings_fail(err, p,
                                 "unknown settings kind \"%s\"; allowed: texture, model, "
                                 "fbx, shader%s",
                                 printable(key, key_len, name, sizeof name),
                                 ext && ext->count ? " and the registered kinds" : "");
        kiln_result r =
            k < KIND_COUNT
                ? apply_kind(&kinds[k], json_object_iter_value(it), p, s, &set_masks[k], err)
                : apply_section(&ext->sections[e], json_object_iter_value(it), p, s, err);
        if (r != KILN_OK) return r;
        ptr_pop(p, mark);
    }
    return KILN_OK;
}

/* The two rules that tie texture fields together. Checked on import.texture alone and on the
 * merged result of every platform. */
static kiln_result check_texture_rules(const kiln_texture_settings *t, json_ptr *p,
                                       uint32_t platform_mask, const char *platform,
                                       kiln_error *err)
{
    const char *field = NULL, *msg = NULL;
    uint32_t field_bit = 0;
    if (t->srgb == KILN_TRI_TRUE && t->normal_map) {
        field = "srgb";
        field_bit = 1u << TEX_SRGB;
        msg = "srgb is true on a normal map; normal maps hold vectors, not colours; allowed: "
              "srgb null or false when normal_map is true";
    } else if (t->flip_green && !t->normal_map) {
        field = "flip_green";
        field_bit = 1u << TEX_FLIP_GREEN;
        msg = "flip_green is true but normal_map is not; allowed: flip_green only on normal maps";
    } else {
        return KILN_OK;
    }
    /* import.texture itself was valid, so the platform set one of the two fields involved:
     * point at the rule's own field when the platform set it, else at normal_map. */
    if (platform && !(platform_mask & field_bit)) field = "normal_map";
    size_t mark = ptr_push_str(p, "texture");
    ptr_push_str(p, field);
    kiln_result r;
    if (platform) {
        char name[48];
        r = settings_fail(err, p, "platform %s (import.texture with its overrides): %s",
                          printable(platform, strlen(platform), name, sizeof name), msg);
    } else {
        r = settings_fail(err, p, "%s", msg);
    }
    ptr_pop(p, mark);
    return r;
}

static kiln_result parse_guid(const json_t *v, json_ptr *p, char out[33], kiln_error *err)
{
    char got[64];
    bool ok = json_is_string(v) && json_string_length(v) == 32;
    for (size_t i = 0; ok && i < 32; i++) {
        char c = json_string_value(v)[i];
        ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }
    if (!ok)
        return settings_fail(err, p, "guid is %s; allowed: 32 lowercase hexadecimal digits",
                             describe(v, got, sizeof got));
    memcpy(out, json_string_value(v), 32);
    out[32] = '\0';
    return KILN_OK;
}

static kiln_result settings_build(const json_t *guid, const json_t *import, const json_t *platforms,
                                  const char *platform, const kiln_settings_ext *ext,
                                  kiln_settings *base, kiln_settings *chosen, kiln_error *err);

kiln_result kiln_settings_from_json(const json_t *doc, const char *platform, kiln_settings *out,
                                    kiln_error *err)
{
    return kiln_settings_from_json_ext(doc, platform, NULL, out, err);
}

kiln_result kiln_settings_from_json_ext(const json_t *doc, const char *platform,
                                        const kiln_settings_ext *ext, kiln_settings *out,
                                        kiln_error *err)
{
    json_ptr p = {{0}, 0};
    char got[64], name[48];
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_settings_from_json: out is NULL");
    if (!json_is_object(doc)) {
        if (!doc) return kiln_error_set(err, KILN_E_USAGE, "kiln_settings_from_json: doc is NULL");
        return settings_fail(err, &p, "the .meta document is %s; allowed: a JSON object",
                             describe(doc, got, sizeof got));
    }

    const json_t *guid = NULL, *import = NULL, *platforms = NULL;
    OBJECT_FOREACH(doc, it)
    {
        const char *key = json_object_iter_key(it);
        size_t key_len = json_object_iter_key_len(it);
        if (key_is(key, key_len, "guid")) guid = json_object_iter_value(it);
        else if (key_is(key, key_len, "import")) import = json_object_iter_value(it);
        else if (key_is(key, key_len, "platforms")) platforms = json_object_iter_value(it);
        else {
            ptr_push(&p, key, key_len);
            return settings_fail(err, &p, "unknown field \"%s\"; allowed: guid, import, platforms",
                                 printable(key, key_len, name, sizeof name));
        }
    }

    kiln_settings base, chosen;
    kiln_settings_default_ext(&base, ext);
    kiln_settings_default_ext(&chosen, ext);
    kiln_result r = settings_build(guid, import, platforms, platform, ext, &base, &chosen, err);
    kiln_settings_clear(&base);
    if (r != KILN_OK) {
        kiln_settings_clear(&chosen);
        return r;
    }
    *out = chosen;
    return KILN_OK;
}

/* The document's settings for platform into *chosen, from the defaults in *base (both owned by
 * the caller, released by it whatever happens). */
static kiln_result settings_build(const json_t *guid, const json_t *import, const json_t *platforms,
                                  const char *platform, const kiln_settings_ext *ext,
                                  kiln_settings *base, kiln_settings *chosen, kiln_error *err)
{
    json_ptr p = {{0}, 0};
    char got[64], name[48];
    kiln_result r;
    if (guid) {
        size_t mark = ptr_push_str(&p, "guid");
        if ((r = parse_guid(guid, &p, base->guid, err)) != KILN_OK) return r;
        ptr_pop(&p, mark);
    }
    if (import) {
        uint32_t masks[KIND_COUNT] = {0};
        size_t mark = ptr_push_str(&p, "import");
        if ((r = apply_kinds(import, "import", &p, ext, base, masks, err)) != KILN_OK) return r;
        if ((r = check_texture_rules(&base->texture, &p, 0, NULL, err)) != KILN_OK) return r;
        ptr_pop(&p, mark);
    }

    kiln_settings_clear(chosen);
    kiln_settings_copy(chosen, base);
    if (platforms) {
        size_t mark = ptr_push_str(&p, "platforms");
        if (!json_is_object(platforms))
            return settings_fail(err, &p,
                                 "platforms is %s; allowed: an object of platform "
                                 "names",
                                 describe(platforms, got, sizeof got));
        /* Every platform is validated, not only the chosen one: a .meta that breaks the mobile
         * build should fail on the desktop too, where its author is working. */
        OBJECT_FOREACH(platforms, it)
        {
            const char *key = json_object_iter_key(it);
            size_t key_len = json_object_iter_key_len(it);
            size_t pmark = ptr_push(&p, key, key_len);
            if (!platform_name_valid(key, key_len))
                return settings_fail(err, &p,
                                     "platform name \"%s\" is not allowed; allowed: a "
                                     "lowercase letter, then up to 31 of a-z 0-9 _ -",
                                     printable(key, key_len, name, sizeof name));
            kiln_settings merged;
            kiln_settings_copy(&merged, base);
            uint32_t masks[KIND_COUNT] = {0};
            r = apply_kinds(json_object_iter_value(it), "the platform", &p, ext, &merged, masks,
                            err);
            if (r == KILN_OK)
                r = check_texture_rules(&merged.texture, &p, masks[KIND_TEXTURE], key, err);
            if (r != KILN_OK || !platform || !key_is(key, key_len, platform)) {
                kiln_settings_clear(&merged);
                if (r != KILN_OK) return r;
            } else {
                kiln_settings_clear(chosen);
                *chosen = merged;
            }
            ptr_pop(&p, pmark);
        }
        ptr_pop(&p, mark);
    }
    return KILN_OK;
}

kiln_result kiln_settings_parse(const char *json_text, size_t size, const char *platform,
                                kiln_settings *out, kiln_error *err)
{
    return kiln_settings_parse_ext(json_text, size, platform, NULL, out, err);
}

kiln_result kiln_settings_parse_ext(const char *json_text, size_t size, const char *platform,
                                    const kiln_settings_ext *ext, kiln_settings *out,
                                    kiln_error *err)
{
    if (!json_text && size)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_settings_parse: json_text is NULL");
    json_t *doc;
    kiln_result r = kiln_settings_doc_load(json_text, size, &doc, err);
    if (r != KILN_OK) return r;
    r = kiln_settings_from_json_ext(doc, platform, ext, out, err);
    json_decref(doc);
    return r;
}

kiln_result kiln_settings_doc_load(const char *json_text, size_t size, json_t **out,
                                   kiln_error *err)
{
    *out = NULL;
    json_error_t je;
    /* JSON_DECODE_ANY: a document that is valid JSON but not an object gets the clearer
     * "is a JSON object" message instead of a syntax error. Nesting is bounded by jansson
     * (JSON_PARSER_MAX_DEPTH, 2048), and duplicate keys are refused: with them, what the
     * settings mean would depend on the parser. */
    json_t *doc =
        json_loadb(json_text ? json_text : "", size, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
    if (!doc) {
        if (json_error_code(&je) == json_error_out_of_memory)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory parsing settings");
        char text[sizeof je.text];
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "JSON syntax error at line %d, column %d: %s",
                       je.line, je.column, printable(je.text, strlen(je.text), text, sizeof text));
        if (je.position >= 0) kiln_error_at_offset(err, (uint64_t)je.position);
        return KILN_E_IMPORT_SETTINGS;
    }
    *out = doc;
    return KILN_OK;
}

/* ---- settings of registered kinds --------------------------------------------------------- */

bool kiln_settings_section_is_builtin(const char *name)
{
    for (size_t k = 0; k < KIND_COUNT; k++)
        if (!strcmp(kinds[k].name, name)) return true;
    return false;
}

void kiln_settings_default_ext(kiln_settings *out, const kiln_settings_ext *ext)
{
    kiln_settings_default(out);
    for (size_t i = 0; ext && i < ext->count; i++) {
        const kiln_settings_section *sec = &ext->sections[i];
        for (size_t f = 0; f < sec->field_count; f++) {
            const kiln_setting_field *d = &sec->fields[f];
            kiln_setting_value *v = &out->ext[sec->first + f];
            v->number = d->type == KILN_SETTING_CHOICE ? 0.0 : d->default_number;
            v->choice = d->type == KILN_SETTING_CHOICE ? d->default_choice : NULL;
        }
    }
}

/* A choice field's strings as built-in enum fields list theirs: "a, b or c". */
static const char *choice_list(const kiln_setting_field *d, char *buf, size_t size)
{
    size_t n = 0, count = 0;
    while (d->choices[count]) count++;
    buf[0] = '\0';
    for (size_t i = 0; i < count && n + 1 < size; i++) {
        const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
        int w = snprintf(buf + n, size - n, "%s%s", sep, d->choices[i]);
        if (w < 0) break;
        n += (size_t)w < size - n ? (size_t)w : size - n - 1;
    }
    return buf;
}

/* What a valid value of a registered field looks like, for messages and kiln help settings. */
static const char *ext_allowed_text(const kiln_setting_field *d, char *buf, size_t size)
{
    switch (d->type) {
    case KILN_SETTING_BOOL:
        return "true or false";
    case KILN_SETTING_INT:
        snprintf(buf, size, "an integer from %g to %g", d->min, d->max);
        return buf;
    case KILN_SETTING_NUMBER:
        snprintf(buf, size, "a number from %g to %g", d->min, d->max);
        return buf;
    case KILN_SETTING_CHOICE:
        return choice_list(d, buf, size);
    }
    return "";
}

static kiln_result parse_ext_field(const kiln_setting_field *d, const json_t *v, json_ptr *p,
                                   kiln_setting_value *out, kiln_error *err)
{
    char got[64], allowed[256];
    switch (d->type) {
    case KILN_SETTING_BOOL:
        if (!json_is_boolean(v)) break;
        out->number = json_is_true(v) ? 1.0 : 0.0;
        return KILN_OK;
    case KILN_SETTING_INT:
    case KILN_SETTING_NUMBER: {
        /* Integers may be integral reals (4.0), as for built-in fields (parse_field). */
        if (!json_is_number(v)) break;
        double x = json_number_value(v);
        if (!isfinite(x) || x < d->min || x > d->max) break;
        if (d->type == KILN_SETTING_INT && x != floor(x)) break;
        out->number = x + 0.0; /* -0.0 becomes 0.0: one spelling in the canonical JSON */
        return KILN_OK;
    }
    case KILN_SETTING_CHOICE:
        if (!json_is_string(v)) break;
        for (const char *const *c = d->choices; *c; c++)
            if (!strcmp(json_string_value(v), *c) && strlen(*c) == json_string_length(v)) {
                out->choice = *c;
                return KILN_OK;
            }
        break;
    }
    return settings_fail(err, p, "%s is %s; allowed: %s", d->name, describe(v, got, sizeof got),
                         ext_allowed_text(d, allowed, sizeof allowed));
}

/* Applies a registered kind's object (import.<name>, platforms.x.<name>) on top of s. */
static kiln_result apply_section(const kiln_settings_section *sec, const json_t *obj, json_ptr *p,
                                 kiln_settings *s, kiln_error *err)
{
    char got[64], name[48];
    if (!json_is_object(obj))
        return settings_fail(err, p, "%s settings are %s; allowed: an object", sec->name,
                             describe(obj, got, sizeof got));
    OBJECT_FOREACH(obj, it)
    {
        const char *key = json_object_iter_key(it);
        size_t key_len = json_object_iter_key_len(it);
        size_t mark = ptr_push(p, key, key_len);
        size_t i = 0;
        while (i < sec->field_count && !key_is(key, key_len, sec->fields[i].name)) i++;
        if (i == sec->field_count) {
            char list[256];
            size_t n = 0;
            list[0] = '\0';
            for (size_t f = 0; f < sec->field_count && n + 1 < sizeof list; f++) {
                int w =
                    snprintf(list + n, sizeof list - n, "%s%s", f ? ", " : "", sec->fields[f].name);
                if (w < 0) break;
                n += (size_t)w < sizeof list - n ? (size_t)w : sizeof list - n - 1;
            }
            return settings_fail(err, p, "unknown field \"%s\" in %s settings; allowed: %s",
                                 printable(key, key_len, name, sizeof name), sec->name, list);
        }
        kiln_setting_value v = s->ext[sec->first + i];
        kiln_result r = parse_ext_field(&sec->fields[i], json_object_iter_value(it), p, &v, err);
        if (r != KILN_OK) return r;
        s->ext[sec->first + i] = v;
        ptr_pop(p, mark);
    }
    return KILN_OK;
}

json_t *kiln_settings_section_json(const kiln_settings_section *sec, const kiln_settings *s)
{
    json_t *j = json_object();
    for (size_t f = 0; j && f < sec->field_count; f++) {
        const kiln_setting_field *d = &sec->fields[f];
        const kiln_setting_value *v = &s->ext[sec->first + f];
        json_t *x = d->type == KILN_SETTING_BOOL     ? json_boolean(v->number != 0.0)
                    : d->type == KILN_SETTING_INT    ? json_integer((json_int_t)v->number)
                    : d->type == KILN_SETTING_NUMBER ? json_real(v->number)
                                                     : json_string(v->choice ? v->choice : "");
        json_object_set_new(j, d->name, x);
    }
    return j;
}

/* ---- canonical JSON ----------------------------------------------------------------------- */

static json_t *field_json(const field_desc *f, const field_value *v)
{
    switch (f->type) {
    case FT_BOOL:
        return json_boolean(v->b);
    case FT_TRISTATE:
        if (v->tri == KILN_TRI_NULL) return json_null();
        if (v->tri == KILN_TRI_TRUE) return json_true();
        if (v->tri == KILN_TRI_FALSE) return json_false();
        return NULL;
    case FT_ENUM:
        return v->e < f->name_count ? json_string(enum_name(f, v->e)) : NULL;
    case FT_UINT:
        return json_integer((json_int_t)v->u);
    case FT_NUMBER:
        return json_real(v->d + 0.0);
    case FT_IDENT:
        return json_string(v->text);
    case FT_DEFINES:
    case FT_VARIANTS:
    case FT_TEMPLATES:
        return v->list ? json_deep_copy(v->list) : json_object();
    case FT_FOLDERS:
        return v->list ? json_deep_copy(v->list) : json_array();
    case FT_LODS: {
        if (v->lod_count > KILN_MAX_LODS) return NULL;
        json_t *a = json_array();
        for (uint32_t i = 0; a && i < v->lod_count; i++) {
            if (json_array_append_new(a, json_real(v->lods[i] + 0.0)) != 0) {
                json_decref(a);
                a = NULL;
            }
        }
        return a;
    }
    }
    return NULL;
}

/* Every field, always as the same JSON type (integers as integers, numbers as reals), so equal
 * settings dump to equal bytes whatever spelling the .meta used. */
static json_t *kind_json(const kind_desc *k, const kiln_settings *s)
{
    json_t *obj = json_object();
    for (size_t i = 0; obj && i < k->field_count; i++) {
        field_value v;
        memset(&v, 0, sizeof v);
        if (is_list_type(k->fields[i].type))
            v.list = (json_t *)kiln_settings_list(s, k->name, k->fields[i].name);
        else k->load(s, i, &v);
        if (json_object_set_new(obj, k->fields[i].name, field_json(&k->fields[i], &v)) != 0) {
            json_decref(obj);
            obj = NULL;
        }
    }
    return obj;
}

json_t *kiln_texture_settings_json(const kiln_texture_settings *s)
{
    kiln_settings all;
    memset(&all, 0, sizeof all);
    all.texture = *s;
    return kind_json(&kinds[KIND_TEXTURE], &all);
}

json_t *kiln_model_settings_json(const kiln_settings *s)
{
    return kind_json(&kinds[KIND_MODEL], s);
}

json_t *kiln_fbx_settings_json(const kiln_fbx_settings *s)
{
    kiln_settings all;
    memset(&all, 0, sizeof all);
    all.fbx = *s;
    return kind_json(&kinds[KIND_FBX], &all);
}

json_t *kiln_shader_settings_json(const kiln_settings *s)
{
    return kind_json(&kinds[KIND_SHADER], s);
}

/* ---- reimport edits ----------------------------------------------------------------------- */

static bool depth_exceeds(const json_t *v, int depth)
{
    if (depth > SETTINGS_MAX_DEPTH) return true;
    if (json_is_object(v)) {
        OBJECT_FOREACH(v, it)
        {
            if (depth_exceeds(json_object_iter_value(it), depth + 1)) return true;
        }
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            if (depth_exceeds(json_array_get(v, i), depth + 1)) return true;
    }
    return false;
}

/* obj[key] as an object, created when absent; NULL (error filled) when it holds something else
 * or memory runs out. */
static json_t *child_object(json_t *obj, const char *key, json_ptr *p, kiln_error *err)
{
    json_t *c = json_object_get(obj, key);
    if (json_is_object(c)) return c;
    if (c) {
        char got[64];
        settings_fail(err, p, "%s is %s, not an object, so it cannot take a member", key,
                      describe(c, got, sizeof got));
        return NULL;
    }
    if (json_object_set_new(obj, key, json_object()) != 0) {
        kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory editing settings");
        return NULL;
    }
    return json_object_get(obj, key);
}

#define ASSIGN_MAX_SEGMENTS 6

kiln_result kiln_settings_apply_assignment(json_t *meta_doc, const char *assignment,
                                           kiln_error *err)
{
    json_ptr p = {{0}, 0};
    char shown[96], name[48], list[400];
    if (!json_is_object(meta_doc) || !assignment)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_settings_apply_assignment: the .meta "
                              "document must be an object and the assignment not NULL");
    const char *eq = strchr(assignment, '=');
    if (!eq)
        return settings_fail(err, &p,
                             "\"%s\" is not an assignment; expected path=value, e.g. "
                             "texture.format=bc7",
                             printable(assignment, strlen(assignment), shown, sizeof shown));
    size_t path_len = (size_t)(eq - assignment);
    printable(assignment, path_len, shown, sizeof shown);

    /* Split the dotted path. */
    char path[256];
    if (path_len >= sizeof path)
        return settings_fail(err, &p, "settings path \"%s\" is too long", shown);
    memcpy(path, assignment, path_len);
    path[path_len] = '\0';
    const char *seg[ASSIGN_MAX_SEGMENTS];
    size_t nseg = 0;
    for (char *s = path;;) {
        char *dot = strchr(s, '.');
        if (dot) *dot = '\0';
        if (*s == '\0')
            return settings_fail(err, &p,
                                 "settings path \"%s\" has an empty part; expected e.g. "
                                 "texture.format or platforms.mobile.texture.format",
                                 shown);
        if (nseg == ASSIGN_MAX_SEGMENTS)
            return settings_fail(err, &p, "settings path \"%s\" names no known field", shown);
        seg[nseg++] = s;
        if (!dot) break;
        s = dot + 1;
    }

    /* Where the edit goes: import (the default, or spelled out), or one platform. */
    size_t i = 0;
    const char *platform = NULL;
    if (strcmp(seg[0], "platforms") == 0) {
        ptr_push_str(&p, "platforms");
        if (nseg < 2)
            return settings_fail(err, &p,
                                 "settings path \"%s\" needs a platform name "
                                 "(platforms.<name>...)",
                                 shown);
        platform = seg[1];
        ptr_push_str(&p, platform);
        if (!platform_name_valid(platform, strlen(platform)))
            return settings_fail(err, &p,
                                 "platform name \"%s\" is not allowed; allowed: a "
                                 "lowercase letter, then up to 31 of a-z 0-9 _ -",
                                 printable(platform, strlen(platform), name, sizeof name));
        i = 2;
    } else {
        ptr_push_str(&p, "import");
        if (strcmp(seg[0], "import") == 0) i = 1;
    }
    const kind_desc *kind = NULL;
    const char *field = NULL;
    if (i < nseg) {
        ptr_push_str(&p, seg[i]);
        for (size_t k = 0; k < KIND_COUNT && !kind; k++)
            if (strcmp(seg[i], kinds[k].name) == 0) kind = &kinds[k];
        if (!kind)
            return settings_fail(err, &p,
                                 "settings path \"%s\": unknown settings kind \"%s\"; "
                                 "allowed: texture, model, fbx, shader",
                                 shown, printable(seg[i], strlen(seg[i]), name, sizeof name));
        i++;
    }
    if (i < nseg) {
        ptr_push_str(&p, seg[i]);
        for (size_t f = 0; f < kind->field_count && !field; f++)
            if (strcmp(seg[i], kind->fields[f].name) == 0) field = kind->fields[f].name;
        if (!field)
            return settings_fail(err, &p,
                                 "settings path \"%s\": unknown field \"%s\" in %s "
                                 "settings; allowed: %s",
                                 shown, printable(seg[i], strlen(seg[i]), name, sizeof name),
                                 kind->name, field_list(kind, list, sizeof list));
        i++;
    }
    if (i < nseg) {
        ptr_push_str(&p, seg[i]);
        return settings_fail(err, &p,
                             "settings path \"%s\" goes below the field %s, which has "
                             "no members",
                             shown, field);
    }

    /* The value: JSON when it parses as JSON, else the bare word as a string. */
    json_error_t je;
    json_t *value = json_loads(eq + 1, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
    if (!value) {
        if (json_error_code(&je) == json_error_out_of_memory)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory editing settings");
        value = json_string(eq + 1);
        if (!value)
            return settings_fail(err, &p, "the value of \"%s\" is neither JSON nor UTF-8 text",
                                 shown);
    }
    if (depth_exceeds(value, 0)) {
        json_decref(value);
        return settings_fail(err, &p, "the value of \"%s\" nests deeper than %d levels", shown,
                             SETTINGS_MAX_DEPTH);
    }
    if (!field && !json_is_object(value)) {
        char got[64];
        kiln_result r = settings_fail(err, &p,
                                      "\"%s\" names an object of settings; its value "
                                      "must be a JSON object, got %s",
                                      shown, describe(value, got, sizeof got));
        json_decref(value);
        return r;
    }

    /* Walk (creating) the objects above the target, then set it. */
    json_ptr walk = {{0}, 0};
    json_t *parent = meta_doc;
    const char *target;
    if (platform) {
        ptr_push_str(&walk, "platforms");
        parent = child_object(parent, "platforms", &walk, err);
        if (parent && kind) {
            ptr_push_str(&walk, platform);
            parent = child_object(parent, platform, &walk, err);
            target = kind->name;
        } else {
            target = platform;
        }
    } else {
        if (kind) {
            ptr_push_str(&walk, "import");
            parent = child_object(parent, "import", &walk, err);
            target = kind->name;
        } else {
            target = "import";
        }
    }
    if (parent && field) {
        ptr_push_str(&walk, kind->name);
        parent = child_object(parent, kind->name, &walk, err);
        target = field;
    }
    if (!parent) {
        json_decref(value);
        return err ? err->code : KILN_E_IMPORT_SETTINGS;
    }
    if (json_object_set_new(parent, target, value) != 0)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory editing settings");
    return KILN_OK;
}

static kiln_result merge_object(json_t *dst, const json_t *patch, kiln_error *err)
{
    OBJECT_FOREACH(patch, it)
    {
        const char *key = json_object_iter_key(it);
        size_t key_len = json_object_iter_key_len(it);
        const json_t *pv = json_object_iter_value(it);
        json_t *dv = json_object_getn(dst, key, key_len);
        if (json_is_object(pv) && json_is_object(dv)) {
            kiln_result r = merge_object(dv, pv, err);
            if (r != KILN_OK) return r;
            continue;
        }
        json_t *copy = json_deep_copy(pv);
        if (!copy || json_object_setn_new(dst, key, key_len, copy) != 0)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory merging settings");
    }
    return KILN_OK;
}

kiln_result kiln_settings_merge_import(json_t *meta_doc, const json_t *import_patch,
                                       kiln_error *err)
{
    json_ptr p = {{0}, 0};
    char got[64];
    if (!json_is_object(meta_doc))
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_settings_merge_import: the .meta "
                              "document must be an object");
    if (!json_is_object(import_patch))
        return settings_fail(err, &p,
                             "a settings patch is a JSON object shaped like \"import\" "
                             "({\"texture\": {\"format\": \"bc7\"}}), got %s",
                             import_patch ? describe(import_patch, got, sizeof got) : "nothing");
    if (depth_exceeds(import_patch, 0))
        return settings_fail(err, &p, "the settings patch nests deeper than %d levels",
                             SETTINGS_MAX_DEPTH);
    /* Merge into a copy and swap it in, so a failure leaves the document as it was. */
    json_t *old = json_object_get(meta_doc, "import");
    json_t *merged = json_is_object(old) ? json_deep_copy(old) : json_object();
    if (!merged) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory merging settings");
    kiln_result r = merge_object(merged, import_patch, err);
    if (r != KILN_OK) {
        json_decref(merged);
        return r;
    }
    if (json_object_set_new(meta_doc, "import", merged) != 0)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory merging settings");
    return KILN_OK;
}

/* ---- edits that do not apply to the asset's kind ------------------------------------------ */

static bool group_listed(const char *const *groups, const char *name, size_t len)
{
    for (; groups && *groups; groups++)
        if (key_is(name, len, *groups)) return true;
    return false;
}

static const kind_desc *builtin_group(const char *name)
{
    for (size_t k = 0; k < KIND_COUNT; k++)
        if (!strcmp(kinds[k].name, name)) return &kinds[k];
    return NULL;
}

/* The field the user probably meant in a group the kind reads: group "texture" field "format"
 * on a model is model.texture_format; model.texture_quality on a texture is texture.quality.
 * Found by name in the tables, so a new field pair is suggested without a list of its own. */
static bool suggest_field(const char *const *groups, const char *group, const char *field,
                          char *out, size_t size)
{
    for (; groups && *groups; groups++) {
        const kind_desc *k = builtin_group(*groups);
        if (!k) continue;
        char wanted[96];
        size_t glen = strlen(*groups), flen = strlen(field);
        for (size_t i = 0; i < k->field_count; i++) {
            const char *f = k->fields[i].name;
            snprintf(wanted, sizeof wanted, "%s_%s", group, field);
            bool prefixed = !strcmp(f, wanted);
            /* model.texture_format on a texture: the field without its "texture_" */
            bool unprefixed = flen > glen + 1 && !strncmp(field, *groups, glen) &&
                              field[glen] == '_' && !strcmp(f, field + glen + 1);
            if (prefixed || unprefixed) {
                snprintf(out, size, "%s.%s", *groups, f);
                return true;
            }
        }
    }
    return false;
}

/* "a model", "an image_set": the kind named with its article, for messages. */
static const char *article(const char *name)
{
    return strchr("aeiou", name[0]) && name[0] ? "an" : "a";
}

/* One scope (import, or one platform's object): the first group the edit set or changed that
 * the kind does not read. */
static kiln_result check_scope(const json_t *before, const json_t *after, json_ptr *p,
                               const char *shown_prefix, const char *const *groups,
                               const char *kind_name, kiln_error *err)
{
    if (!json_is_object(after)) return KILN_OK;
    OBJECT_FOREACH(after, it)
    {
        const char *key = json_object_iter_key(it);
        size_t key_len = json_object_iter_key_len(it);
        const json_t *now = json_object_iter_value(it);
        const json_t *was = json_is_object(before) ? json_object_getn(before, key, key_len) : NULL;
        if (group_listed(groups, key, key_len) || (was && json_equal(now, was))) continue;
        char group[48], field[48] = "", listed[160] = "", hint[320] = "";
        printable(key, key_len, group, sizeof group);
        size_t mark = ptr_push(p, key, key_len);
        if (json_is_object(now)) {
            OBJECT_FOREACH(now, f)
            {
                const json_t *fv = json_object_iter_value(f);
                const json_t *old =
                    json_is_object(was) ? json_object_get(was, json_object_iter_key(f)) : NULL;
                if (old && json_equal(fv, old)) continue;
                printable(json_object_iter_key(f), json_object_iter_key_len(f), field,
                          sizeof field);
                ptr_push(p, json_object_iter_key(f), json_object_iter_key_len(f));
                break;
            }
        }
        size_t n = 0;
        for (const char *const *g = groups; g && *g && n < sizeof listed; g++) {
            int w = snprintf(listed + n, sizeof listed - n, "%s%s", g == groups ? "" : " and ", *g);
            if (w < 0) break;
            n += (size_t)w;
        }
        char suggestion[112];
        if (field[0] && suggest_field(groups, group, field, suggestion, sizeof suggestion))
            snprintf(hint, sizeof hint, "; did you mean %s%s?", shown_prefix, suggestion);
        else
            snprintf(hint, sizeof hint, "; %s %.40s reads only %s settings", article(kind_name),
                     kind_name, listed[0] ? listed : "no");
        kiln_result r;
        if (field[0])
            r = settings_fail(err, p, "%s%s.%s does not apply to %s %s%s", shown_prefix, group,
                              field, article(kind_name), kind_name, hint);
        else
            r = settings_fail(err, p, "%s%s settings do not apply to %s %s%s", shown_prefix, group,
                              article(kind_name), kind_name, hint);
        ptr_pop(p, mark);
        return r;
    }
    return KILN_OK;
}

kiln_result kiln_settings_check_edit_applies(const json_t *before, const json_t *after,
                                             const char *const *groups, const char *kind_name,
                                             kiln_error *err)
{
    json_ptr p = {{0}, 0};
    if (!json_is_object(after) || !kind_name) return KILN_OK;
    const json_t *b = json_is_object(before) ? before : NULL;
    size_t mark = ptr_push_str(&p, "import");
    kiln_result r = check_scope(b ? json_object_get(b, "import") : NULL,
                                json_object_get(after, "import"), &p, "", groups, kind_name, err);
    ptr_pop(&p, mark);
    if (r != KILN_OK) return r;
    const json_t *platforms = json_object_get(after, "platforms");
    const json_t *old_platforms = b ? json_object_get(b, "platforms") : NULL;
    if (!json_is_object(platforms)) return KILN_OK;
    mark = ptr_push_str(&p, "platforms");
    OBJECT_FOREACH(platforms, it)
    {
        const char *key = json_object_iter_key(it);
        size_t key_len = json_object_iter_key_len(it);
        char name[48], prefix[64];
        snprintf(prefix, sizeof prefix, "platforms.%s.",
                 printable(key, key_len, name, sizeof name));
        size_t pmark = ptr_push(&p, key, key_len);
        r = check_scope(
            json_is_object(old_platforms) ? json_object_getn(old_platforms, key, key_len) : NULL,
            json_object_iter_value(it), &p, prefix, groups, kind_name, err);
        if (r != KILN_OK) return r;
        ptr_pop(&p, pmark);
    }
    ptr_pop(&p, mark);
    return KILN_OK;
}

/* ---- describing the fields (kiln help settings) ------------------------------------------- */

static const char *field_type_name(field_type t)
{
    switch (t) {
    case FT_BOOL:
        return "boolean";
    case FT_TRISTATE:
        return "null or boolean";
    case FT_ENUM:
        return "string";
    case FT_UINT:
        return "integer";
    case FT_NUMBER:
        return "number";
    case FT_LODS:
        return "array of numbers";
    case FT_IDENT:
        return "string";
    case FT_DEFINES:
        return "object of strings";
    case FT_FOLDERS:
        return "array of strings";
    case FT_VARIANTS:
        return "object of objects";
    case FT_TEMPLATES:
        return "object of strings";
    }
    return "?";
}

static json_t *field_entry(const char *group, const char *name, const char *type, json_t *dflt,
                           const char *allowed)
{
    char path[128];
    snprintf(path, sizeof path, "%s.%s", group, name);
    json_t *f = json_object();
    json_object_set_new(f, "name", json_string(name));
    json_object_set_new(f, "path", json_string(path));
    json_object_set_new(f, "type", json_string(type));
    json_object_set_new(f, "default", dflt ? dflt : json_null());
    json_object_set_new(f, "allowed", json_string(allowed));
    return f;
}

json_t *kiln_settings_fields_json(const kiln_settings_ext *ext)
{
    kiln_settings d;
    kiln_settings_default_ext(&d, ext);
    json_t *groups = json_array();
    for (size_t k = 0; k < KIND_COUNT; k++) {
        const kind_desc *kd = &kinds[k];
        json_t *fields = json_array();
        for (size_t i = 0; i < kd->field_count; i++) {
            const field_desc *fd = &kd->fields[i];
            field_value v;
            memset(&v, 0, sizeof v);
            if (!is_list_type(fd->type)) kd->load(&d, i, &v);
            char allowed[160];
            json_t *f = field_entry(kd->name, fd->name, field_type_name(fd->type),
                                    field_json(fd, &v), allowed_text(fd, allowed, sizeof allowed));
            if (fd->type == FT_ENUM) {
                json_t *c = json_array();
                for (unsigned e = 0; e < fd->name_count; e++)
                    json_array_append_new(c, json_string(enum_name(fd, e)));
                json_object_set_new(f, "choices", c);
            } else if (fd->type == FT_UINT || fd->type == FT_NUMBER) {
                json_object_set_new(f, "minimum", json_real(fd->min));
                json_object_set_new(f, "maximum", json_real(fd->max));
            }
            json_array_append_new(fields, f);
        }
        json_t *g = json_object();
        json_object_set_new(g, "name", json_string(kd->name));
        json_object_set_new(g, "fields", fields);
        json_array_append_new(groups, g);
    }
    for (size_t e = 0; ext && e < ext->count; e++) {
        const kiln_settings_section *sec = &ext->sections[e];
        json_t *fields = json_array();
        json_t *values = kiln_settings_section_json(sec, &d);
        for (size_t i = 0; i < sec->field_count; i++) {
            const kiln_setting_field *fd = &sec->fields[i];
            static const char *const type_names[] = {"", "boolean", "integer", "number", "string"};
            char allowed[256];
            json_t *f = field_entry(sec->name, fd->name,
                                    (unsigned)fd->type < sizeof type_names / sizeof type_names[0]
                                        ? type_names[fd->type]
                                        : "?",
                                    json_incref(json_object_get(values, fd->name)),
                                    ext_allowed_text(fd, allowed, sizeof allowed));
            if (fd->type == KILN_SETTING_CHOICE) {
                json_t *c = json_array();
                for (const char *const *ch = fd->choices; ch && *ch; ch++)
                    json_array_append_new(c, json_string(*ch));
                json_object_set_new(f, "choices", c);
            } else if (fd->type != KILN_SETTING_BOOL) {
                json_object_set_new(f, "minimum", json_real(fd->min));
                json_object_set_new(f, "maximum", json_real(fd->max));
            }
            if (fd->description)
                json_object_set_new(f, "description", json_string(fd->description));
            json_array_append_new(fields, f);
        }
        json_decref(values);
        json_t *g = json_object();
        json_object_set_new(g, "name", json_string(sec->name));
        json_object_set_new(g, "fields", fields);
        json_array_append_new(groups, g);
    }
    return groups;
}

json_t *kiln_settings_groups_json(const kiln_settings *s, const kiln_settings_ext *ext,
                                  const char *const *groups)
{
    json_t *j = json_object();
    for (; j && groups && *groups; groups++) {
        const kind_desc *k = builtin_group(*groups);
        for (size_t e = 0; !k && ext && e < ext->count; e++)
            if (!strcmp(ext->sections[e].name, *groups))
                json_object_set_new(j, *groups, kiln_settings_section_json(&ext->sections[e], s));
        if (k) json_object_set_new(j, *groups, kind_json(k, s));
    }
    return j;
}
