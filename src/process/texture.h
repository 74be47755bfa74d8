/* texture.h — a decoded image plus texture settings -> the mip levels of a texture in its
 * output pixel format (RGBA8 sRGB/UNORM or RGBA16F), ready for the KTX2 writer.
 * docs/textures.md explains the processing. */
#ifndef KILN_PROCESS_TEXTURE_H
#define KILN_PROCESS_TEXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/jobs.h"
#include "import/image.h"
#include "kiln/kiln_format.h"
#include "pipeline/settings.h"

/* One level: width * height texels, rows top to bottom, tightly packed. */
typedef struct kiln_texture_level {
    uint8_t *data;            /* size bytes, allocated with the levels' allocator */
    size_t size;              /* width * height * texel size (4 for RGBA8, 8 for RGBA16F) */
    uint32_t width, height;
} kiln_texture_level;

typedef struct kiln_texture_levels {
    uint32_t vk_format;       /* kiln_vk_format: 43 RGBA8 SRGB, 37 RGBA8 UNORM, 97 RGBA16 SFLOAT */
    kiln_texture_format format;  /* the resolved format: KILN_TEXFMT_RGBA8 or _RGBA16F */
    bool srgb;                /* the texel values are sRGB-encoded (vk_format is an _SRGB one) */
    bool normal_map;          /* filtered as a normal map */
    uint32_t width, height;   /* level 0, after fitting max_size */
    uint32_t texel_size;      /* bytes per texel: 4 or 8 */
    uint32_t level_count;     /* 1..KILN_KTX2_MAX_LEVELS; level 0 first */
    kiln_texture_level levels[KILN_KTX2_MAX_LEVELS];
    kiln_allocator allocator; /* what the level data was allocated with */
    /* Summary, for reports and manifests. */
    bool has_alpha;           /* some source texel has alpha below full (255, 65535, 1.0) */
    kiln_image_format source_format;  /* the source's file format */
    kiln_pixel_type source_type;      /* U8, U16 or F32 */
    uint32_t source_width, source_height;
} kiln_texture_levels;

/* Builds the levels of a texture from a decoded image: resolves format and colour space, converts
 * to linear float, flips green (normal maps with flip_green), halves until both sides fit
 * max_size, builds the mip chain when s->mipmaps, and quantises every level. img and s are
 * borrowed for the call; out owns its level data (free with kiln_texture_levels_free). a may be
 * NULL (libc). Deterministic: the same image and settings give the same bytes on any machine
 * (IEEE float, no libm transcendental calls). Thread-safe for distinct calls.
 * Errors: KILN_E_IMPORT_SETTINGS (srgb true with bc4, bc5 or a normal map, or
 * with rgba16f, flip_green without normal_map, max_size out of 1..16384; json_pointer names the
 * field), KILN_E_USAGE (NULL arguments, an image whose size does not match its pixels),
 * KILN_E_LIMIT (more levels than KILN_KTX2_MAX_LEVELS), KILN_E_OUT_OF_MEMORY. On error *out is
 * zeroed. */
kiln_result kiln_texture_build(const kiln_image *img, const kiln_texture_settings *s,
                               const kiln_allocator *a, kiln_texture_levels *out, kiln_error *err);

/* Where and for what a texture is built: the job pool that block encoding runs on, and whether
 * format auto should pick ASTC (platforms whose GPUs sample ASTC, e.g. "mobile"). */
typedef struct kiln_texture_target {
    kiln_jobs *jobs;     /* NULL: encode inline */
    bool prefer_astc;
} kiln_texture_target;

/* kiln_texture_build for a target (may be NULL: no pool, desktop formats). Format auto resolves
 * to: rgba16f for float sources; else astc4x4 when target->prefer_astc; else bc5 for normal
 * maps; bc4 for single-channel sources that are not srgb true; bc7 otherwise. Block formats get
 * their level data as blocks (edge-padded), encoded with s->quality. */
kiln_result kiln_texture_build_for(const kiln_image *img, const kiln_texture_settings *s,
                                   const kiln_texture_target *target, const kiln_allocator *a,
                                   kiln_texture_levels *out, kiln_error *err);

/* Frees the level data and zeroes *levels. NULL or zeroed is a no-op. */
void kiln_texture_levels_free(kiln_texture_levels *levels);

#endif
