/* golden_reference.h — what `kiln thumbnail` should draw for a texture, computed on the CPU from
 * the cooked level (kiln_transcode_rgba8; RGBA16F halves by hand) with the rules of
 * tools/view/shaders/thumb_texture.frag: an independent check of the renderer's picture, so
 * that a golden image is never stored wrong unnoticed. */
#ifndef GOLDEN_REFERENCE_H
#define GOLDEN_REFERENCE_H

#include <stdint.h>

#include "kiln/kiln_rt.h"

/* The RGB8 picture (w * h * 3 bytes, malloc'd) of level `level` of d (the cooked format: a
 * context without a renderer hands it over untranscoded) in the view mode for cooked_format,
 * fitted to w x h; NULL on a format it cannot decode. */
uint8_t *golden_reference(const krt_texture_data *d, uint32_t cooked_format, uint32_t level,
                          uint32_t w, uint32_t h);

#endif
