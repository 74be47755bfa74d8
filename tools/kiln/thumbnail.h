/* thumbnail.h — what `kiln thumbnail`'s files share (cmd_thumbnail.c resolves the artifact, sets
 * up Vulkan and libkiln_rt and writes the PNG; one function per kind of artifact draws it:
 * thumbnail_texture.c, thumbnail_model.c, thumbnail_vgeo.c). Built only with the renderer
 * (KILN_HAVE_VIEW: the Vulkan headers were found); docs/rendering.md "kiln thumbnail". */
#ifndef KILN_TOOLS_THUMBNAIL_H
#define KILN_TOOLS_THUMBNAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_rt.h"
#include "kv.h"

/* The command's options (validated by cmd_thumbnail.c; the per-kind functions use those that
 * apply to their kind and ignore the others). */
typedef struct kiln_thumb_opts {
    uint32_t size;      /* the longer side of the picture, 1..4096 (default 256) */
    uint32_t level;     /* textures: the mip level (default 0) */
    uint32_t layer;     /* textures: the cube face, array layer or volume slice (default 0) */
    const char *view;   /* models: lit, unlit, normals, uv, lod, meshlets (default lit); virtual
                         * geometry: clusters, levels, lit, unlit, normals, uv (default clusters);
                         * NULL: the kind's default */
    const char *camera; /* models: auto, front, back, left, right, top, bottom (default auto) */
    double distance; /* models: the camera's distance as a multiple of the framing's (default 1) */
    float pixel_error;   /* models: the error in pixels LODs and cuts are chosen for (default 1) */
    double cut_distance; /* virtual geometry: the cut chosen as from this multiple of the
                          * framing distance, drawn from `distance`; 0 = `distance` (default) */
    double time;         /* models: the clip time in seconds (default 0) */
    int32_t lod;         /* models: the LOD to draw, -1 = chosen by kiln_lod_select (default) */
    uint32_t clip; /* scenes: the clip posed at time, KV_NO_CLIP = the rest pose (default 0) */
    float background[4]; /* models: the sRGB RGBA cleared to, 0..255 (default 32, 64, 96, 255) */
    bool has_bounds;     /* models: frame these world bounds instead of the model's (the three.js
                          * reference prints its own: both renders then share a camera) */
    float bounds[6];     /* min x, y, z, max x, y, z */
} kiln_thumb_opts;

/* One artifact to draw, and what draws it. */
typedef struct kiln_thumb_job {
    const kiln_thumb_opts *opts;
    const char *name; /* what was asked for (NAME#label or FILE), for messages */
    const char *file; /* the cooked file (a KTX2, a kiln container) */
    kv_context *kv;
    krt_context *rt; /* the renderer's shaders are mounted in it (and the project's cache) */
    const krt_renderer *renderer; /* kv's callbacks, as rt calls them */
    uint64_t asset_id;            /* the artifact in rt's mounts; 0 for a file outside a project */
    krt_type type;                /* its type */
} kiln_thumb_job;

/* The picture: width * height RGBA8 pixels, sRGB, rows top to bottom; free() rgba. */
typedef struct kiln_thumb_image {
    uint8_t *rgba;
    uint32_t width, height;
    char what[256]; /* what was drawn, for people: "bc7 512x512, level 1 (256x256)" */
} kiln_thumb_image;

/* A texture (KRT_TYPE_TEXTURE, or a KTX2 file): thumbnail_texture.c. */
kiln_result kiln_thumb_texture(const kiln_thumb_job *job, kiln_thumb_image *out, kiln_error *err);

/* A scene, mesh or material (on a sphere): thumbnail_model.c; a typed material is refused
 * (KILN_E_IMPORT_UNSUPPORTED). */
kiln_result kiln_thumb_model(const kiln_thumb_job *job, kiln_thumb_image *out, kiln_error *err);

/* A virtual geometry (KRT_TYPE_VGEO): the cut kiln_vgeo_select makes for the thumbnail's camera,
 * drawn over its mesh: thumbnail_vgeo.c. */
kiln_result kiln_thumb_vgeo(const kiln_thumb_job *job, kiln_thumb_image *out, kiln_error *err);

/* What the model and virtual geometry pictures share (thumbnail_model.c). Loads the job's
 * artifact and waits for it and everything it names. Errors: the load's. */
kiln_result kiln_thumb_load(const kiln_thumb_job *job, krt_handle *out, kiln_error *err);
/* The camera framing bounds from opts->camera's direction at opts->distance times the rule's
 * distance, for a size x size picture. Errors: KILN_E_USAGE. */
kiln_result kiln_thumb_camera(const kiln_thumb_opts *o, const float bmin[3], const float bmax[3],
                              uint32_t size, kv_camera *out, kiln_error *err);

/* Loads a cooked shader of the renderer (tools/view/shaders, packed beside kiln) by its name,
 * "shaders/thumb_texture.frag#shader", and returns its object; the handle stays loaded until
 * rt is destroyed. Errors: KILN_E_ASSET_IO / KILN_E_USAGE (not in the pack), the load's. */
kiln_result kiln_thumb_shader(krt_context *rt, const char *name, const kv_shader **out,
                              kiln_error *err);

/* Writes the picture as a PNG through libspng, opened at run time (thumbnail_png.c). Errors:
 * KILN_E_ASSET_IO (cannot write), KILN_E_IMPORT_UNSUPPORTED (no libspng). */
kiln_result kiln_thumb_write_png(const char *path, const kiln_thumb_image *img, kiln_error *err);

/* What the argument of `kiln thumbnail` names (thumbnail_resolve.c). */
typedef struct kiln_thumb_target {
    char *name;  /* NAME#label in the project, or the file as given */
    char *file;  /* the cooked file */
    char *cache; /* the project's cache folder (NULL for a file alone) */
    uint64_t asset_id;
    krt_type type; /* KRT_TYPE_NONE: a kind of file kiln has no runtime type for */
} kiln_thumb_target;

/* Resolves arg: a file (a source of the project: its main artifact; a cooked file alone) or
 * NAME#label. When the project does not open, the error is printed, *exit_code set and a
 * non-zero result returned. Errors: KILN_E_ASSET_IO (no such file), KILN_E_NOT_IMPORTED,
 * KILN_E_USAGE (no such label), KILN_E_IMPORT_UNSUPPORTED (a file with no picture), the
 * readers'. Free t with kiln_thumb_target_free (also after a failure). */
struct kiln_cli;
kiln_result kiln_thumb_resolve(const struct kiln_cli *c, const char *arg, kiln_thumb_target *t,
                               int *exit_code, kiln_error *err);
void kiln_thumb_target_free(kiln_thumb_target *t);

/* The renderer's shader pack: $KILN_VIEW_SHADERS, else view_shaders.kpak beside the kiln
 * executable (a build tree), else ../share/kiln/view_shaders.kpak from it (installed). */
void kiln_thumb_pack_path(char *out, size_t cap);

/* Keeps the Vulkan drivers named in $KILN_RENDER_PIN loaded for the process's life (tests under
 * LeakSanitizer: tests/render/render_fixture.h says why). */
void kiln_thumb_pin_drivers(void);

/* Fills err with code and a printf-formatted message; returns code. */
kiln_result kiln_thumb_error(kiln_error *err, kiln_result code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
