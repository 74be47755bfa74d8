/* settings.h — import settings: the .meta document, its defaults, validation, per-platform
 * overrides, and the canonical JSON of each kind that goes into cache keys. */
#ifndef KILN_PIPELINE_SETTINGS_H
#define KILN_PIPELINE_SETTINGS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "codec/texture_format.h" /* kiln_texture_format: the rows' names are the values */
#include "kiln/kiln_format.h"
#include "kiln/kiln_kind.h"
#include "process/block.h" /* kiln_quality */

typedef enum kiln_tristate {
    KILN_TRI_NULL = -1,
    KILN_TRI_FALSE = 0,
    KILN_TRI_TRUE = 1
} kiln_tristate;

typedef enum kiln_supercompression_setting {
    KILN_SUPERCOMPRESSION_NONE = 0,
    KILN_SUPERCOMPRESSION_ZSTD = 1,
} kiln_supercompression_setting;

/* import.texture.shape: auto is 2d for an image and the descriptor's shape for a .ktex. */
typedef enum kiln_texture_shape_setting {
    KILN_SHAPE_SETTING_AUTO = 0,
    KILN_SHAPE_SETTING_2D,
    KILN_SHAPE_SETTING_CUBE, /* an image: a panorama, cross or strip made into six faces */
    KILN_SHAPE_SETTING_ARRAY,
    KILN_SHAPE_SETTING_VOLUME,
} kiln_texture_shape_setting;

/* import.texture.cube_layout: how an image with shape cube holds its faces. auto: a cross or
 * strip when its aspect is one (4:3, 3:4, 6:1, 1:6), a panorama when it is 2:1. The values
 * after panorama are process/cube.h's kiln_cube_layout. */
typedef enum kiln_cube_layout_setting {
    KILN_CUBE_LAYOUT_SETTING_AUTO = 0,
    KILN_CUBE_LAYOUT_SETTING_PANORAMA, /* equirectangular, any aspect read as 360 x 180 degrees */
    KILN_CUBE_LAYOUT_SETTING_HORIZONTAL_CROSS,
    KILN_CUBE_LAYOUT_SETTING_VERTICAL_CROSS,
    KILN_CUBE_LAYOUT_SETTING_HORIZONTAL_STRIP,
    KILN_CUBE_LAYOUT_SETTING_VERTICAL_STRIP,
} kiln_cube_layout_setting;

/* import.texture */
typedef struct kiln_texture_settings {
    kiln_texture_format format; /* "auto" */
    kiln_tristate srgb;         /* null: sRGB for colour, linear for normal maps and HDR */
    bool mipmaps;               /* true: full chain down to 1x1 */
    bool normal_map;            /* false */
    bool flip_green;            /* false; only with normal_map */
    uint32_t max_size;          /* 16384; 4..16384 */
    kiln_quality quality;       /* "normal" */
    kiln_supercompression_setting supercompression; /* "none" */
    kiln_texture_shape_setting shape;               /* "auto" */
    bool ibl; /* false; true (cubes only): also the prefiltered specular cube, the irradiance and
                 the BRDF lookup table (docs/ibl.md) */
    kiln_cube_layout_setting cube_layout; /* "auto" */
    uint32_t basis_quality; /* 128; 1..255: ETC1S codebook sizes (format etc1s, docs/basis.md) */
    double uastc_rdo;       /* 0 (off); 0..10: UASTC rate-distortion lambda (format uastc) */
} kiln_texture_settings;

#define KILN_MAX_LODS 8

typedef enum kiln_up_axis { KILN_UP_AUTO = 0, KILN_UP_Y, KILN_UP_Z } kiln_up_axis;

/* import.model (validated now, used by the model cook) */
typedef struct kiln_model_settings {
    double lods[KILN_MAX_LODS]; /* [0.5, 0.25, 0.125] */
    uint32_t lod_count;
    double lod_error;                   /* 0.05; 0..1 */
    uint32_t lod_min_triangles;         /* 64 */
    bool quantize;                      /* true */
    bool optimize;                      /* true */
    double overdraw_threshold;          /* 1.05; 0 (off) or 1..3 */
    uint32_t meshlet_max_vertices;      /* 64; 3..255 */
    uint32_t meshlet_max_triangles;     /* 124; 1..512, multiple of 4 */
    kiln_texture_format texture_format; /* "auto" */
    kiln_quality texture_quality;       /* "normal" */
    uint32_t texture_max_size;          /* 4096; 4..16384 */
    bool textures;                   /* true: cook the images materials use; false: geometry only */
    bool compress_meshopt;           /* "compress": "none" (false) or "meshopt" */
    bool animation_reduce;           /* true: drop keys within the clip error bounds */
    uint32_t animation_resample_fps; /* 0 (off) or 1..240 */
    bool meshlets;                   /* true: meshlets for every LOD (mesh-shader renderers) */
    bool tangents_from_file_only;    /* "tangents": "generate" (false) or "file" (true: no
                                        MikkTSpace; the renderer derives missing frames) */
    bool virtual_geometry;           /* false; true: a cluster DAG (vgeo) per unskinned mesh */
} kiln_model_settings;

/* import.model.material_templates (kiln_settings.lists "model" object, read with
 * kiln_settings_list): at most this many entries. */
#define KILN_MODEL_MAX_TEMPLATES 256

/* import.fbx (validated now, used by the FBX importer) */
typedef struct kiln_fbx_settings {
    double scale;           /* 1; (0, 1e6] */
    kiln_up_axis up_axis;   /* "auto" */
    bool skins;             /* true */
    bool animations;        /* true */
    uint32_t animation_fps; /* 30; 1..240 */
} kiln_fbx_settings;

/* import.shader: the fields of fixed size. Its lists (defines, include_dirs, variants) are in
 * kiln_settings.lists ("shader" object), read with kiln_settings_list. */
#define KILN_SHADER_ENTRY_MAX             64  /* bytes of an entry point's name */
#define KILN_SHADER_MAX_DEFINES           64  /* per defines object */
#define KILN_SHADER_DEFINE_MAX            256 /* characters of a define's value */
#define KILN_SHADER_MAX_INCLUDES          16  /* include_dirs entries */
#define KILN_SHADER_SETTINGS_MAX_VARIANTS 256
#define KILN_SHADER_STAGE_AUTO            0u /* kiln_shader_settings.stage: from the file name */
#define KILN_SHADER_LANGUAGE_AUTO         0u /* .language: HLSL for .hlsl names, else GLSL */
typedef struct kiln_shader_settings {
    uint32_t stage;    /* KILN_SHADER_STAGE_AUTO, or 1 + kiln_shader_stage */
    uint32_t language; /* KILN_SHADER_LANGUAGE_AUTO, or 1 + kiln_shader_language */
    char entry[KILN_SHADER_ENTRY_MAX + 1]; /* "main" */
    uint32_t target;                       /* kiln_shader_target: Vulkan 1.2 */
    uint32_t optimize;                     /* kiln_shader_optimize: performance */
    bool warnings_as_errors;               /* true */
    bool debug_info;                       /* false */
} kiln_shader_settings;

typedef struct kiln_settings {
    char guid[33]; /* 32 lowercase hex digits; "" when the .meta has none */
    kiln_texture_settings texture;
    kiln_model_settings model;
    kiln_fbx_settings fbx;
    kiln_shader_settings shader;
    /* The settings whose values are lists or maps (shader.defines, shader.include_dirs,
     * shader.variants), validated and canonical: {"shader": {"defines": {...}}}; a field at its
     * default (empty) may be absent, and the whole is NULL when every one is. Owned, one
     * reference: a kiln_settings that a parse filled is released with kiln_settings_clear and
     * copied with kiln_settings_copy; never changed in place once parsed (copies share it). */
    json_t *lists;
    /* The settings of kinds a program registered: each section's fields at its `first` slot
     * (kiln_settings_ext); choices point into the registered descriptors. */
    kiln_setting_value ext[KILN_KIND_MAX_SETTINGS];
} kiln_settings;

/* The settings objects of registered kinds (import.<name>), known to the parser. */
typedef struct kiln_settings_section {
    const char *name;
    const kiln_setting_field *fields;
    size_t field_count;
    size_t first; /* its first slot in kiln_settings.ext */
} kiln_settings_section;

typedef struct kiln_settings_ext {
    const kiln_settings_section *sections;
    size_t count;
} kiln_settings_ext;

/* Fills every field with its documented default (out's lists are not released: out is taken as
 * uninitialized). */
void kiln_settings_default(kiln_settings *out);
/* Releases s's lists and leaves the defaults-free zero state's lists (NULL); NULL: no-op. */
void kiln_settings_clear(kiln_settings *s);
/* *dst = *src with one more reference to the lists (dst is taken as uninitialized). */
void kiln_settings_copy(kiln_settings *dst, const kiln_settings *src);
/* The value of a list field ("shader", "defines"), borrowed from s; NULL when it has its default
 * (an empty object or array). */
const json_t *kiln_settings_list(const kiln_settings *s, const char *group, const char *field);

/* Parses a .meta document (*out is taken as uninitialized: release what it held first): defaults,
 * then its "import" object, then the overrides of "platforms"/<platform> (when platform is not NULL
 * and the document has that platform) on top. Validates every field of every platform, not only the
 * chosen one. Errors: KILN_E_IMPORT_SETTINGS with err->json_pointer naming the field
 * ("/import/texture/formt"), and line/column in the message for JSON syntax errors. */
kiln_result kiln_settings_parse(const char *json_text, size_t size, const char *platform,
                                kiln_settings *out, kiln_error *err);

/* The JSON parse that kiln_settings_parse makes of a settings file (duplicate keys refused; a
 * syntax error is KILN_E_IMPORT_SETTINGS with line and column in the message and the byte
 * offset), without validating it. *out: new reference. */
kiln_result kiln_settings_doc_load(const char *json_text, size_t size, json_t **out,
                                   kiln_error *err);

/* Same, from a parsed document (borrowed). */
kiln_result kiln_settings_from_json(const json_t *doc, const char *platform, kiln_settings *out,
                                    kiln_error *err);

/* The same two with the settings objects of registered kinds (ext may be NULL): their fields are
 * validated like built-in ones and their defaults filled in. */
kiln_result kiln_settings_parse_ext(const char *json_text, size_t size, const char *platform,
                                    const kiln_settings_ext *ext, kiln_settings *out,
                                    kiln_error *err);
kiln_result kiln_settings_from_json_ext(const json_t *doc, const char *platform,
                                        const kiln_settings_ext *ext, kiln_settings *out,
                                        kiln_error *err);
/* Whether kiln's own settings have an object of this name ("texture", "model", "fbx"). */
bool kiln_settings_section_is_builtin(const char *name);
/* Defaults of every field, the registered kinds' too (ext may be NULL). */
void kiln_settings_default_ext(kiln_settings *out, const kiln_settings_ext *ext);
/* A registered section's values as a JSON object with every field (for keys and reports). */
json_t *kiln_settings_section_json(const kiln_settings_section *sec, const kiln_settings *s);

/* The settings of one kind as a JSON object with every field present (defaults included), for
 * the cache key (dumped canonically) and for reports. New reference, NULL on out-of-memory. */
json_t *kiln_texture_settings_json(const kiln_texture_settings *s);
/* The model's fields of s, its list field (material_templates) too. */
json_t *kiln_model_settings_json(const kiln_settings *s);
json_t *kiln_fbx_settings_json(const kiln_fbx_settings *s);
/* import.shader with its lists (from s->lists). */
json_t *kiln_shader_settings_json(const kiln_settings *s);

/* Applies "texture.format=rgba8"-style assignments (the reimport --set syntax: a dotted path
 * below "import", a JSON value or a bare word taken as a string) to a .meta document in place.
 * Errors: KILN_E_IMPORT_SETTINGS naming the path. */
kiln_result kiln_settings_apply_assignment(json_t *meta_doc, const char *assignment,
                                           kiln_error *err);

/* Deep-merges a settings patch shaped like "import" ({"texture": {"format": "bc7"}}) into
 * meta_doc["import"] (the reimport --settings syntax); objects merge, other values replace.
 * Errors: KILN_E_IMPORT_SETTINGS when the patch is not an object. Validation is the caller's
 * (kiln_settings_from_json) after every change. */
kiln_result kiln_settings_merge_import(json_t *meta_doc, const json_t *import_patch,
                                       kiln_error *err);

/* Refuses an edit (reimport --set/--settings, kiln texture/model --set) that set or changed, in
 * import or a platform, a settings group the asset's kind does not read: groups is the
 * NULL-terminated list of those it reads ("model", "fbx"), kind_name its kind ("model"). before
 * is the document before the edits (NULL: none), after the edited one; groups the edit left as
 * they were are not judged (a .meta may hold them). Error: KILN_E_IMPORT_SETTINGS at the field,
 * "texture.format does not apply to a model; did you mean model.texture_format?". */
kiln_result kiln_settings_check_edit_applies(const json_t *before, const json_t *after,
                                             const char *const *groups, const char *kind_name,
                                             kiln_error *err);

/* The groups named (NULL-terminated, as a kind's settings_groups), each as its object with every
 * field: {"model": {...}, "fbx": {...}}. New reference. */
json_t *kiln_settings_groups_json(const kiln_settings *s, const kiln_settings_ext *ext,
                                  const char *const *groups);

/* Every settings field, kiln's groups then the registered sections (ext may be NULL), from the
 * tables the parser validates with: [{"name": "texture", "fields": [{"name", "path", "type",
 * "default", "allowed", and "choices" or "minimum"/"maximum"}]}]. New reference. */
json_t *kiln_settings_fields_json(const kiln_settings_ext *ext);

const char *kiln_quality_name(kiln_quality q);

#endif
