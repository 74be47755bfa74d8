/* image_private.h — what image.c shares with the per-format decoders (image_png.c,
 * image_jpeg.c, image_stb.c, image_exr.c). Not installed. */
#ifndef KILN_IMPORT_IMAGE_PRIVATE_H
#define KILN_IMPORT_IMAGE_PRIVATE_H

#include "import/image.h"

#define KILN_IMAGE_DEFAULT_MAX_DIM      16384u
#define KILN_IMAGE_DEFAULT_MEMORY_LIMIT ((size_t)1 << 30)

/* The options with defaults filled in; every decoder gets this, never the raw opts. */
typedef struct kiln_image_limits {
    kiln_allocator allocator;
    uint32_t max_dim;
    size_t memory_limit;
} kiln_image_limits;

/* Checks declared dimensions against the limits before anything is allocated: zero or
 * negative sides are KILN_E_IMPORT_FAILED, a side above max_dim or width*height*4 channels of
 * t above memory_limit (or above SIZE_MAX) is KILN_E_LIMIT. *out_size (may be NULL) gets the
 * decoded byte size. `what` names the format in messages ("PNG"). */
kiln_result kiln_image_check_dims(const kiln_image_limits *lim, const char *what, int64_t width,
                                  int64_t height, kiln_pixel_type t, size_t *out_size,
                                  kiln_error *err);

/* Checks the dimensions and allocates img->pixels (img->size bytes) with lim->allocator; sets
 * width, height, type, size, allocator. On error nothing is allocated. */
kiln_result kiln_image_alloc_pixels(kiln_image *img, const kiln_image_limits *lim, const char *what,
                                    int64_t width, int64_t height, kiln_pixel_type t,
                                    kiln_error *err);

/* Each decoder: with header_only it fills only width and height of *out (and checks them
 * against the limits, type included), allocating nothing; otherwise it decodes the whole image,
 * filling width, height, type, pixels, size, allocator, source_channels and source_bits.
 * image.c sets format and has_alpha. On error image.c frees what *out holds (pixels are only
 * ever allocated through kiln_image_alloc_pixels, which records the allocator in *out). */
kiln_result kiln_image_decode_png(const void *data, size_t size, const kiln_image_limits *lim,
                                  bool header_only, kiln_image *out, kiln_error *err);
kiln_result kiln_image_decode_jpeg(const void *data, size_t size, const kiln_image_limits *lim,
                                   bool header_only, kiln_image *out, kiln_error *err);
/* TGA, BMP and HDR through stb_image; format says which one detection found. */
kiln_result kiln_image_decode_stb(const void *data, size_t size, kiln_image_format format,
                                  const kiln_image_limits *lim, bool header_only, kiln_image *out,
                                  kiln_error *err);
kiln_result kiln_image_decode_exr(const void *data, size_t size, const kiln_image_limits *lim,
                                  bool header_only, kiln_image *out, kiln_error *err);
/* Level 0's first image of a KTX2 texture: 8-bit RGBA, or float for HDR formats. */
kiln_result kiln_image_decode_ktx2(const void *data, size_t size, const kiln_image_limits *lim,
                                   bool header_only, kiln_image *out, kiln_error *err);

/* True when the 18-byte TGA header at data is one stb_image's TGA reader accepts (colour-map
 * type 0/1, a known image type, a sane depth); used by detection so a name hint alone never
 * routes other bytes into stb's other decoders. */
bool kiln_image_tga_header_plausible(const void *data, size_t size);

#endif
