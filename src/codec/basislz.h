/* basislz.h — ETC1S images in BasisLZ supercompression (KTX 2.0 supercompressionScheme 1): the
 * supercompression global data (codebooks, Huffman tables, one image descriptor per image) is
 * opened once per file; each image's slices are then decoded and transcoded to a GPU format or
 * RGBA8 (basis.h). docs/basis.md, "ETC1S and BasisLZ", lays the bytes out. Part of libkiln_rt:
 * libc and core only.
 *
 * Channels: RGBA8, ETC1, BC1, BC7 and ASTC take the colour slice (and the alpha slice's value as
 * alpha, where the target has alpha). BC4 and EAC R11 take the colour slice's red. BC5 and EAC
 * RG11 take the colour slice's red, and as green the alpha slice's value (the layout basisu uses
 * for two-channel maps: X in RGB, Y in alpha), or 255 when the file has no alpha slices. BC3 and
 * ETC2 RGBA take alpha from the alpha slice, or 255. */
#ifndef KILN_CODEC_BASISLZ_H
#define KILN_CODEC_BASISLZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/basis.h"
#include "kiln/kiln_format.h"

typedef struct kiln_basislz kiln_basislz;

/* Bit 1 of an image descriptor's imageFlags: an inter-frame (video) image. kiln refuses them. */
#define KILN_BASISLZ_P_FRAME 0x02u

/* The largest selector history buffer kiln decodes (basisu writes 64; the field allows 8191). */
#define KILN_BASISLZ_MAX_HISTORY 1024u

/* Parses and validates the BasisLZ global data (the KTX2 supercompressionGlobalData bytes,
 * borrowed for this call only): the header, image_count image descriptors (levels x layers x
 * faces x depth slices in the KTX2 order: level-major, then layer, face, slice), the endpoint and
 * selector codebooks and the slice Huffman tables, all decoded here. Every count and length is
 * checked against the bytes before anything is allocated; allocation is bounded by the 16-bit
 * codebook counts and image_count. Free with kiln_basislz_close and the same allocator (NULL:
 * libc). Errors: KILN_E_FORMAT_INVALID (malformed; err->offset is the byte of sgd where it was
 * found), KILN_E_IMPORT_UNSUPPORTED (P-frames, global selector codebooks, a history buffer past
 * KILN_BASISLZ_MAX_HISTORY), KILN_E_OUT_OF_MEMORY, KILN_E_USAGE (NULL arguments). */
kiln_result kiln_basislz_open(const uint8_t *sgd, size_t sgd_size, uint32_t image_count,
                              const kiln_allocator *al, kiln_basislz **out, kiln_error *err);
void kiln_basislz_close(kiln_basislz *g, const kiln_allocator *al); /* NULL is a no-op */

uint32_t kiln_basislz_image_count(const kiln_basislz *g);
/* True when every image has an alpha slice (the KTX2 DFD then has two samples, RGB and AAA). */
bool kiln_basislz_has_alpha(const kiln_basislz *g);

/* The output size of one image: ceil(w/4) x ceil(h/4) blocks of 8 bytes (BC1, BC4, ETC1,
 * EAC R11) or 16 (the other block targets), or w x h x 4 for RGBA8; 0 for a bad target or on
 * overflow. */
size_t kiln_basislz_output_size(kiln_basis_target target, uint32_t width, uint32_t height);

/* Decodes image image_index's slices from level_data (the whole KTX2 level the image lives in:
 * the descriptors' offsets count from its first byte) and writes the image, width x height
 * texels, as target into out (out_size at least kiln_basislz_output_size). Allocates nothing;
 * uses about 24 KiB of stack. Thread-safe: any number of calls may share one opened g.
 * Errors: KILN_E_FORMAT_INVALID (slice bytes malformed, out of the level, or decoding to an
 * index past a codebook), KILN_E_USAGE (bad index, target, size or dimensions; width past
 * 32768). */
kiln_result kiln_basislz_transcode(const kiln_basislz *g, uint32_t image_index,
                                   const uint8_t *level_data, size_t level_size, uint32_t width,
                                   uint32_t height, kiln_basis_target target, uint8_t *out,
                                   size_t out_size, kiln_error *err);

#endif
