/* etc1s_encode.h — kiln's ETC1S encoder with BasisLZ supercompression: the bytes of a KTX2
 * file's supercompressionGlobalData and of its levels (src/codec/basislz.h reads them back).
 * Codebooks by two-level k-means refined against the real colour error, a rate-distortion pass
 * over neighbours' endpoints and the selector history (docs/basis.md, "The ETC1S encoder"). */
#ifndef KILN_PROCESS_ETC1S_ENCODE_H
#define KILN_PROCESS_ETC1S_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

#define KILN_ETC1S_MAX_LEVELS 16u

/* One image: RGBA8 texels, row-major, tightly packed; level is the KTX2 level it belongs to.
 * Images come in the KTX2 order (level-major, then layer, face, depth slice). */
typedef struct kiln_etc1s_image {
    const uint8_t *rgba;
    uint32_t width, height, level;
} kiln_etc1s_image;

typedef struct kiln_etc1s_encoded {
    uint8_t *sgd; /* the global data: header, image descriptors, codebooks, tables */
    size_t sgd_size, sgd_capacity;
    uint8_t *level[KILN_ETC1S_MAX_LEVELS]; /* each image's slices, in image order */
    size_t level_size[KILN_ETC1S_MAX_LEVELS], level_capacity[KILN_ETC1S_MAX_LEVELS];
    uint32_t level_count;
    bool alpha; /* alpha slices written: the DFD takes a second (AAA) sample */
    uint32_t endpoint_count, selector_count;
} kiln_etc1s_encoded;

/* Encodes image_count images at quality 1..255 (codebook sizes grow with it); alpha slices when
 * alpha is 1, never when 0, when some texel's alpha is below 255 for -1. Deterministic. Free the
 * result with kiln_etc1s_encoded_free. Errors: KILN_E_USAGE (no images, a level out of order or
 * past KILN_ETC1S_MAX_LEVELS, quality 0), KILN_E_LIMIT (more than 65535 codebook entries asked
 * for), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_etc1s_encode(const kiln_etc1s_image *images, uint32_t image_count,
                              uint32_t quality, int alpha, const kiln_allocator *al,
                              kiln_etc1s_encoded *out, kiln_error *err);
void kiln_etc1s_encoded_free(kiln_etc1s_encoded *e, const kiln_allocator *al);

#endif
