/* cook.h — cooking one source into its outputs in memory: the step between the database (which
 * knows files and settings) and the cache (which stores bytes); each kind's cook is named by its
 * descriptor (source_kind.h). */
#ifndef KILN_PIPELINE_COOK_H
#define KILN_PIPELINE_COOK_H

#include <jansson.h>

#include "pipeline/cache.h"
#include "pipeline/database.h"

/* What a cook made: outputs in the order they are listed in the manifest, each with its own
 * buffer (and, for models, its own label and file name strings). */
typedef struct kiln_cooked {
    kiln_output *outputs;
    size_t output_count, output_capacity;
    const kiln_allocator *alloc; /* what the buffers and strings below came from */
    uint8_t **owned;             /* owned[i] backs outputs[i].data (may be NULL) */
    size_t *owned_capacity;
    char **names;     /* label and file strings kiln_cooked_add copied, 2 per output */
    json_t *summary;  /* what was made: sizes, formats ... (object) */
    json_t *warnings; /* strings (array) */
} kiln_cooked;

/* Appends an output whose buffer (bytes, capacity) the cooked result now owns; label and file
 * are copied. On failure the buffer is freed. KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_cooked_add(kiln_cooked *c, const kiln_allocator *a, const char *label,
                            const char *file, uint8_t *bytes, size_t size, size_t capacity,
                            kiln_error *err);

/* Cooks an asset from its source bytes (borrowed). On error *out is empty. */
kiln_result kiln_cook(kiln_project *p, const kiln_asset *a, const uint8_t *source, size_t size,
                      kiln_cooked *out, kiln_error *err);
void kiln_cooked_free(kiln_project *p, kiln_cooked *c);

/* Settings that are valid JSON-wise but cannot be cooked (the kind's check_settings), checked
 * before anything is written or cooked; report lists such assets as invalid. */
kiln_result kiln_cook_check_settings(const kiln_asset *a, kiln_error *err);
/* The texture kind's check: srgb true with a format without an sRGB variant (bc4, bc5,
 * rgba16f: kiln_texture_check_srgb) is KILN_E_IMPORT_SETTINGS with the field's pointer. */
kiln_result kiln_texture_settings_check(const kiln_texture_settings *s, kiln_error *err);

/* Platforms whose GPUs sample ASTC (kiln_texture_gpu_of_platform: "mobile", "android", "ios"),
 * for which format auto picks other rows of the texture format table. Part of the cache key of
 * textures with format auto (database.c). */
bool kiln_platform_prefers_astc(const char *platform);

/* What a cook needs besides its source bytes and settings. Without a project, so that the
 * one-shot converters (`kiln texture`) run the very code path of an import. */
/* A model's material templates (import.model.material_templates), loaded (cook_kmat.h). */
typedef struct kiln_kmat_template kiln_kmat_template;
typedef struct kiln_model_template {
    const char *material; /* a material's name, or "*": the materials without their own */
    const kiln_kmat_template *t;
} kiln_model_template;

typedef struct kiln_cook_env {
    const kiln_allocator *allocator; /* NULL = libc */
    kiln_jobs *jobs;                 /* NULL = inline */
    const char *platform;            /* "" = none */
    const char *name;                /* the source's path, for messages; a model's extension
                                      * also chooses its importer (import/model_format.h) */
    /* A model's templates: each material they name (or "*" all) is cooked against its template
     * as typed_material<i> too. NULL, 0 = none. */
    const kiln_model_template *templates;
    size_t template_count;
} kiln_cook_env;

kiln_result kiln_cook_texture_source(const kiln_cook_env *env, const kiln_texture_settings *s,
                                     const uint8_t *source, size_t size, kiln_cooked *out,
                                     kiln_error *err);

/* Built levels (any shape) as the texture artifact: texture.ktx2 with its summary and warnings.
 * t is borrowed. */
typedef struct kiln_texture_levels kiln_texture_levels;
typedef struct kiln_texture_build_opts kiln_texture_build_opts;
/* import.texture (or a model's texture settings for one role) as the processor's options. */
kiln_texture_build_opts kiln_texture_opts_of_settings(const kiln_texture_settings *s);
kiln_result kiln_cook_texture_levels(const kiln_cook_env *env, const kiln_texture_settings *s,
                                     const kiln_texture_levels *t, kiln_cooked *out,
                                     kiln_error *err);

/* Appends built levels as one more KTX2 artifact (label, file) with extra key/value pairs
 * (kv_count of them, may be 0): an environment's specular, irradiance and BRDF files. */
typedef struct kiln_ktx2_write_kv kiln_ktx2_write_kv;
kiln_result kiln_cook_texture_add(const kiln_cook_env *env, const kiln_texture_settings *s,
                                  const kiln_texture_levels *t, const char *label, const char *file,
                                  const kiln_ktx2_write_kv *kv, size_t kv_count, kiln_cooked *out,
                                  kiln_error *err);

/* An image with texture.shape cube (img decoded; s->shape is cube): a panorama, cross or strip
 * made into six faces, texture.ktx2 a cube; with s->ibl also specular.ktx2, irradiance.ktx2
 * and brdf.ktx2 (cook_cube.c, docs/ibl.md). */
typedef struct kiln_image kiln_image;
kiln_result kiln_cook_texture_cube(const kiln_cook_env *env, const kiln_texture_settings *s,
                                   const kiln_image *img, kiln_cooked *out, kiln_error *err);

/* The lighting of an environment cube (faces: 6 faces of size x size linear float RGBA, as
 * process/cube.h lays them out) as three more artifacts: specular.ktx2, irradiance.ktx2 (with
 * the SH coefficients, key "kiln.sh9") and brdf.ktx2, in plan's format (the BRDF table in
 * R16G16_SFLOAT); summary (may be NULL) gets their sizes and the coefficients as "ibl". */
typedef struct kiln_texture_plan kiln_texture_plan;
kiln_result kiln_cook_environment(const kiln_cook_env *env, const kiln_texture_settings *s,
                                  const kiln_texture_plan *plan, const float *faces, uint32_t size,
                                  kiln_cooked *out, json_t *summary, kiln_error *err);

/* A texture descriptor (.ktex, pipeline/ktex.h; dir: its folder, real path, where the images it
 * names are read and must lie) into texture.ktx2 of the descriptor's shape. */
kiln_result kiln_cook_ktex_source(const kiln_cook_env *env, const kiln_texture_settings *s,
                                  const char *dir, const uint8_t *source, size_t size,
                                  kiln_cooked *out, kiln_error *err);

/* A glTF model (bytes of the .gltf or .glb; base_dir is its folder, where external buffers and
 * images are read) into its artifacts: image<i> (KTX2, per role), material<i>,
 * mesh<i>/prim<p>, skeleton<i>, clip<i>, scene. guid names the artifacts' asset ids. */
kiln_result kiln_cook_model_source(const kiln_cook_env *env, const kiln_model_settings *s,
                                   const char *guid, const char *base_dir, const uint8_t *source,
                                   size_t size, kiln_cooked *out, kiln_error *err);
/* The same with the import.fbx settings an FBX or OBJ source is read with (NULL = defaults). */
kiln_result kiln_cook_model_source_fbx(const kiln_cook_env *env, const kiln_model_settings *s,
                                       const kiln_fbx_settings *fbx, const char *guid,
                                       const char *base_dir, const uint8_t *source, size_t size,
                                       kiln_cooked *out, kiln_error *err);
void kiln_cooked_release(const kiln_allocator *a, kiln_cooked *c);

#endif
