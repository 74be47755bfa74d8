/* image.h — decoding source images (PNG, JPEG, TGA, BMP, HDR, EXR) into RGBA pixels. */
#ifndef KILN_IMPORT_IMAGE_H
#define KILN_IMPORT_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

typedef enum kiln_pixel_type {
    KILN_PIXEL_U8 = 0,  /* 8-bit per channel, as stored (sRGB-encoded for colour images) */
    KILN_PIXEL_U16 = 1, /* 16-bit per channel (16-bit PNG) */
    KILN_PIXEL_F32 = 2, /* 32-bit float per channel, linear (HDR, EXR) */
} kiln_pixel_type;

/* Bytes of one channel of t (1, 2 or 4). */
size_t kiln_pixel_type_size(kiln_pixel_type t);

typedef enum kiln_image_format {
    KILN_IMAGE_UNKNOWN = 0,
    KILN_IMAGE_PNG,
    KILN_IMAGE_JPEG,
    KILN_IMAGE_TGA,
    KILN_IMAGE_BMP,
    KILN_IMAGE_HDR,
    KILN_IMAGE_EXR,
    KILN_IMAGE_KTX2, /* level 0's first image of a KTX2 texture (image_ktx2.c) */
} kiln_image_format;

/* A decoded image: always 4 channels RGBA, rows top to bottom, tightly packed. */
typedef struct kiln_image {
    uint32_t width, height;
    kiln_pixel_type type;
    void *pixels;             /* width * height * 4 channels of `type` */
    size_t size;              /* bytes at pixels */
    kiln_image_format format; /* the source's file format */
    uint32_t source_channels; /* channels stored in the file: 1 grey, 2 grey+alpha, 3, 4 */
    uint32_t source_bits;     /* bits per channel in the file: 1..16, or 32 for float */
    bool has_alpha;           /* some texel has alpha below full (1.0 / 255 / 65535) */
    kiln_allocator allocator; /* what pixels were allocated with */
} kiln_image;

typedef struct kiln_image_opts {
    kiln_allocator allocator;
    uint32_t max_dim;      /* 0 = 16384: either side above it is KILN_E_LIMIT */
    size_t memory_limit;   /* 0 = 1 GiB: decoded bytes above it are KILN_E_LIMIT */
    const char *name_hint; /* file name, to recognise TGA (it has no magic); may be NULL */
} kiln_image_opts;

/* What the file is, from its first bytes (and the name hint for TGA). No decoding. */
kiln_image_format kiln_image_detect(const void *data, size_t size, const char *name_hint);
const char *kiln_image_format_name(kiln_image_format f); /* "png", "jpeg", ... "unknown" */
/* What the format is, for messages: "a PNG image", ...; NULL for KILN_IMAGE_UNKNOWN. */
const char *kiln_image_format_description(kiln_image_format f);

/* Reads width and height from the header without decoding; checks them against the limits.
 * Errors: KILN_E_IMPORT_UNSUPPORTED (unknown format), KILN_E_IMPORT_FAILED (bad header),
 * KILN_E_LIMIT. */
kiln_result kiln_image_probe(const void *data, size_t size, const kiln_image_opts *opts,
                             kiln_image_format *format, uint32_t *width, uint32_t *height,
                             kiln_error *err);

/* Decodes a whole image. The dimensions are checked against the limits before any pixel memory
 * is allocated, so a decompression bomb is refused, not decoded. data is borrowed for the call;
 * out owns its pixels (free with kiln_image_free). Thread-safe for distinct calls.
 * Errors: KILN_E_IMPORT_UNSUPPORTED, KILN_E_IMPORT_FAILED (damaged), KILN_E_LIMIT,
 * KILN_E_OUT_OF_MEMORY. On error *out is zeroed. */
kiln_result kiln_image_decode(const void *data, size_t size, const kiln_image_opts *opts,
                              kiln_image *out, kiln_error *err);

void kiln_image_free(kiln_image *img); /* NULL or zeroed is a no-op */

#endif
