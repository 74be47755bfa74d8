/* ktex.h — the texture descriptor (.ktex): a small JSON file that makes one texture of several
 * images — the six faces of a cube, the layers of an array, the slices of a volume — or of a raw
 * volume. docs/textures.md, "Shapes", documents the fields:
 *
 *   {"faces": ["px.png", "nx.png", "py.png", "ny.png", "pz.png", "nz.png"]}   a cube
 *   {"faces": "sky/"}                       a cube: a folder of six images named for their face
 *   {"layers": ["a.png", "b.png"]}          an array; or "layers": "folder/" (sorted by name)
 *   {"slices": "ct/"}                       a volume, slices sorted by name (ascending Z); or a
 * list
 *   {"raw": {"file": "fog.raw", "width": 64, "height": 64, "depth": 32,
 *            "channels": 1, "type": "u8", "offset": 0}}                  a volume of raw texels
 *
 * Paths are relative to the descriptor's folder and must stay inside it. */
#ifndef KILN_PIPELINE_KTEX_H
#define KILN_PIPELINE_KTEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "import/image.h"
#include "kiln/kiln_format.h"

#define KILN_KTEX_MAX_IMAGES 2048u /* KILN_KTX2_MAX_LAYERS and _MAX_DEPTH */

/* The texels of a raw volume file: width * height * depth texels of `channels` channels of
 * `type`, row by row, slice by slice (ascending Z), starting `offset` bytes into the file. */
typedef struct kiln_ktex_raw {
    uint32_t width, height, depth;
    uint32_t channels; /* 1..4: R, RG, RGB, RGBA */
    kiln_pixel_type type;
    uint64_t offset;
} kiln_ktex_raw;

typedef struct kiln_ktex {
    uint32_t shape; /* KILN_TEXTURE_SHAPE_CUBE, _ARRAY or _VOLUME */
    char **files;   /* count absolute paths, in image order (faces +X..-Z, layers, slices) */
    uint32_t count; /* a raw volume: 1 (the raw file) */
    char *folder;   /* the folder a string named (absolute), NULL for a list: a dependency of its
                       own, so an added or removed image makes the texture stale */
    bool is_raw;    /* files[0] is raw texels described by raw */
    kiln_ktex_raw raw;
    kiln_allocator allocator;
} kiln_ktex;

/* Parses a descriptor (size bytes) and lists the files it names: each path joined to dir (the
 * descriptor's folder, absolute), a folder listed (the files the texture kind takes,
 * sorted by name; for faces, six named by face: px/nx/py/ny/pz/nz, posx/negx/..., or
 * right/left/top/bottom/front/back as a name or a "_"/"-"/"." separated last part). Paths are
 * checked to stay inside dir lexically (no "..", no absolute paths); the cook confines the reads.
 * Errors: KILN_E_IMPORT_FAILED (not JSON, unknown or missing fields, wrong counts, a folder
 * that is missing or does not hold the images; json_pointer names the field),
 * KILN_E_OUT_OF_MEMORY, KILN_E_LIMIT. */
kiln_result kiln_ktex_parse(const uint8_t *source, size_t size, const char *dir,
                            const kiln_allocator *a, kiln_ktex *out, kiln_error *err);
void kiln_ktex_free(kiln_ktex *k);

/* The slices of a raw volume as decoded images (depth of them, 4 channels of raw->type; missing
 * channels filled as an image decoder does: grey for 1, alpha 1), read from bytes (the whole raw
 * file). images must hold raw->depth entries; each is freed with kiln_image_free. Errors:
 * KILN_E_IMPORT_FAILED (the file is shorter than offset + the texels), KILN_E_LIMIT (more than
 * 1 GiB of decoded texels), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_ktex_raw_images(const kiln_ktex_raw *raw, const uint8_t *bytes, size_t size,
                                 const kiln_allocator *a, kiln_image *images, kiln_error *err);

#endif
