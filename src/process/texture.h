/* texture.h — a decoded image plus build options -> the mip levels of a texture in its output
 * format (a row of codec/texture_format.h: blocks, RGBA8 sRGB/UNORM or RGBA16F), ready for the
 * KTX2 writer. docs/textures.md explains the processing. */
#ifndef KILN_PROCESS_TEXTURE_H
#define KILN_PROCESS_TEXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/texture_format.h"
#include "core/jobs.h"
#include "import/image.h"
#include "kiln/kiln_format.h"
#include "process/block.h"

/* Whether the texels are sRGB-encoded colour. */
typedef enum kiln_texture_srgb {
    KILN_TEXTURE_SRGB_AUTO = 0, /* sRGB for colour, linear for normal maps, data and HDR */
    KILN_TEXTURE_SRGB_YES,
    KILN_TEXTURE_SRGB_NO,
} kiln_texture_srgb;

/* What to build; the pipeline fills it from import.texture (or a model's texture settings).
 * Values outside the documented ranges are refused with KILN_E_IMPORT_SETTINGS, the pointer naming
 * the import.texture field they come from. */
typedef struct kiln_texture_build_opts {
    kiln_texture_format format; /* KILN_TEXFMT_AUTO: kiln_texture_format_pick by role and GPU */
    kiln_texture_srgb srgb;
    bool mipmaps;         /* the full chain down to 1x1, else level 0 only */
    bool normal_map;      /* filtered as unit vectors; linear */
    bool flip_green;      /* Y-down (DirectX) normal map: flip G; only with normal_map */
    uint32_t max_size;    /* halve until both sides fit: 1..16384 */
    kiln_quality quality; /* of the block encoders */
} kiln_texture_build_opts;

/* One level: width * height texels, rows top to bottom, tightly packed. */
typedef struct kiln_texture_level {
    uint8_t *data; /* size bytes, allocated with the levels' allocator */
    size_t size;   /* width * height * texel size (4 for RGBA8, 8 for RGBA16F), or
                      the bytes of the level's blocks */
    uint32_t width, height;
    uint32_t depth; /* slices of this level (volumes), else 1 */
} kiln_texture_level;

typedef struct kiln_texture_levels {
    uint32_t vk_format;         /* kiln_texture_format_vk(format, srgb) */
    kiln_texture_format format; /* the resolved format (never KILN_TEXFMT_AUTO) */
    bool srgb;                  /* the texel values are sRGB-encoded (vk_format is an _SRGB one) */
    bool normal_map;            /* filtered as a normal map */
    uint32_t width, height;     /* level 0, after fitting max_size */
    /* The shape (kiln_texture_shape) and its images per level: a level's data holds
     * layer_count * face_count * (level depth) images, in KTX2 order. 2D: 1, 1, 1. */
    uint32_t shape, face_count, layer_count, depth;
    uint32_t texel_size;  /* bytes per quantised texel: 4 or 8 (kiln_texels_size) */
    uint32_t level_count; /* 1..KILN_KTX2_MAX_LEVELS; level 0 first */
    kiln_texture_level levels[KILN_KTX2_MAX_LEVELS];
    kiln_allocator allocator; /* what the level data was allocated with */
    /* Summary, for reports and manifests. */
    bool has_alpha;                  /* some source texel has alpha below full (255, 65535, 1.0) */
    kiln_image_format source_format; /* the source's file format */
    kiln_pixel_type source_type;     /* U8, U16 or F32 */
    uint32_t source_width, source_height;
    bool faces_made; /* a cube made from one image: its size is the conversion's, not a fit */
} kiln_texture_levels;

/* Builds the levels of a texture from a decoded image: resolves format and colour space, converts
 * to linear float, flips green (normal maps with flip_green), halves until both sides fit
 * max_size, builds the mip chain when o->mipmaps, and quantises every level. img and o are
 * borrowed for the call; out owns its level data (free with kiln_texture_levels_free). a may be
 * NULL (libc). Deterministic: the same image and settings give the same bytes on any machine
 * (IEEE float, no libm transcendental calls). Thread-safe for distinct calls.
 * Errors: KILN_E_IMPORT_SETTINGS (srgb yes with a format without an sRGB variant, e.g. bc4, bc5,
 * rgba16f, or with a normal map, flip_green without normal_map, max_size out of 1..16384;
 * json_pointer names the import.texture field), KILN_E_USAGE (NULL arguments, an image whose size
 * does not match its pixels), KILN_E_LIMIT (more levels than KILN_KTX2_MAX_LEVELS),
 * KILN_E_OUT_OF_MEMORY. On error *out is zeroed. */
kiln_result kiln_texture_build(const kiln_image *img, const kiln_texture_build_opts *o,
                               const kiln_allocator *a, kiln_texture_levels *out, kiln_error *err);

/* Where and for what a texture is built: the job pool that block encoding runs on, and the GPUs
 * format auto picks for (kiln_texture_gpu_of_platform). */
typedef struct kiln_texture_target {
    kiln_jobs *jobs;      /* NULL: encode inline */
    kiln_texture_gpu gpu; /* KILN_TEXGPU_DESKTOP (BC) or _MOBILE (ASTC) */
} kiln_texture_target;

/* kiln_texture_build for a target (may be NULL: no pool, desktop GPUs). Format auto resolves to
 * kiln_texture_format_pick of the texture's role on target->gpu: the role is HDR for float
 * sources, else NORMAL for normal maps, else DATA for single-channel sources that are not srgb
 * yes, else COLOR (today: rgba16f; astc4x4 on mobile; bc5, bc4, bc7 on desktop). Block formats
 * get their level data as blocks (edge-padded), encoded with o->quality. */
kiln_result kiln_texture_build_for(const kiln_image *img, const kiln_texture_build_opts *o,
                                   const kiln_texture_target *target, const kiln_allocator *a,
                                   kiln_texture_levels *out, kiln_error *err);

/* What a build resolves from its options before it touches texels: the format (auto resolved by
 * the role, see kiln_texture_build_for), whether source codes are sRGB-decoded (srgb_in) and
 * whether the output is sRGB-encoded (srgb_out). */
typedef struct kiln_texture_plan {
    kiln_texture_format format;
    bool srgb_in, srgb_out;
} kiln_texture_plan;

/* The plan for sources that are float (HDR role; HDR_ALPHA when float_alpha: some alpha below 1)
 * or single-channel (data role), with the checks kiln_texture_build_for makes of o (the same
 * errors). target may be NULL. */
kiln_result kiln_texture_plan_make(bool is_float, bool float_alpha, bool single_channel,
                                   const kiln_texture_build_opts *o,
                                   const kiln_texture_target *target, kiln_texture_plan *plan,
                                   kiln_error *err);

/* img as linear float RGBA, width * height * 4 floats at dst, as a build converts it: sRGB codes
 * decoded when srgb_in, floats sanitised (NaN to 0, clamped to the half range), green flipped. */
void kiln_texture_image_linear(const kiln_image *img, bool srgb_in, bool flip_green, float *dst);

/* The images of a texture of any shape. */
typedef struct kiln_texture_source {
    uint32_t shape;           /* kiln_texture_shape; not CUBE_ARRAY */
    const kiln_image *images; /* 2D: 1; cube: 6 faces +X, -X, +Y, -Y, +Z, -Z; array: the layers;
                                 volume: the slices, ascending Z. All the same size. */
    uint32_t count;
    /* NULL: format and colour space resolved from the images. Else this plan, made from the
     * images the float ones here were converted from (a panorama made into faces): its srgb_in
     * only concerns 8/16-bit images, so float images keep their values. */
    const kiln_texture_plan *plan;
} kiln_texture_source;

/* kiln_texture_build_for of every image of src, into one set of levels in KTX2 order (each
 * level: the faces or layers one after the other, or the level's slices). One format and colour
 * space for the set: auto takes the HDR role when the images are float, DATA only when every
 * image is single-channel. Faces and layers get their own mip chains; a volume's levels are
 * 2x2x2 boxes (max_size applies to its depth too). A 2D source is kiln_texture_build_for itself.
 * Errors: those of kiln_texture_build_for, KILN_E_USAGE (a count that does not fit the shape),
 * KILN_E_IMPORT_FAILED (images of different sizes, HDR mixed with LDR, cube faces not square),
 * KILN_E_LIMIT (more than KILN_KTX2_MAX_LAYERS layers or KILN_KTX2_MAX_DEPTH slices). */
kiln_result kiln_texture_build_shape(const kiln_texture_source *src,
                                     const kiln_texture_build_opts *o,
                                     const kiln_texture_target *target, const kiln_allocator *a,
                                     kiln_texture_levels *out, kiln_error *err);

/* A cube whose levels are given rather than filtered (a prefiltered specular chain): chain holds
 * level_count levels one after another, level l six faces (+X .. -Z) of max(1, size >> l)
 * texels a side, 4 linear floats a texel. Each face of each level is quantised and encoded as
 * plan says (o's mipmaps and max_size are ignored). Errors: those of kiln_texture_build_for,
 * KILN_E_USAGE (level_count 0 or more than the size has). */
kiln_result kiln_texture_build_cube_chain(const float *chain, uint32_t size, uint32_t level_count,
                                          const kiln_texture_plan *plan,
                                          const kiln_texture_build_opts *o,
                                          const kiln_texture_target *target,
                                          const kiln_allocator *a, kiln_texture_levels *out,
                                          kiln_error *err);

/* The refusal of srgb yes with a format that has no sRGB variant (bc4, bc5: data formats;
 * rgba16f: half floats are linear): KILN_E_IMPORT_SETTINGS naming /import/texture/srgb. KILN_OK
 * when srgb_yes is false, the format has an sRGB variant, or it is KILN_TEXFMT_AUTO. */
kiln_result kiln_texture_check_srgb(kiln_texture_format format, bool srgb_yes, kiln_error *err);

/* Frees the level data and zeroes *levels. NULL or zeroed is a no-op. */
void kiln_texture_levels_free(kiln_texture_levels *levels);

#endif
