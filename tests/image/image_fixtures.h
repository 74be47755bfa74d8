/* image_fixtures.h — small source images made in the test by encoders independent of kiln's
 * decoders: libspng's encoder, libturbojpeg's compressor, stb_image_write, and hand-written TGA,
 * BMP and OpenEXR writers that follow the format specs byte by byte. */
#ifndef KILN_TEST_IMAGE_FIXTURES_H
#define KILN_TEST_IMAGE_FIXTURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A malloc'd byte string. */
typedef struct kt_bytes {
    uint8_t *data;
    size_t size;
} kt_bytes;

void kt_bytes_free(kt_bytes *b);

/* PNG through libspng's encoder. pixels are in the PNG's own layout for color_type and
 * bit_depth (rows packed, 16-bit samples big-endian as SPNG_FMT_PNG expects host order: see the
 * .c). plte/trns may be NULL. */
kt_bytes kt_png_encode(uint32_t w, uint32_t h, uint8_t color_type, uint8_t bit_depth,
                       bool interlaced, const void *pixels, size_t pixels_size,
                       const uint8_t (*plte)[3], uint32_t plte_count, const uint8_t *trns_alpha,
                       uint32_t trns_count);

/* JPEG through tjCompress2: pixel_format is a TJPF_* value (TJPF_GRAY, TJPF_RGB, TJPF_CMYK). */
kt_bytes kt_jpeg_encode(uint32_t w, uint32_t h, int pixel_format, int subsamp, int quality,
                        const uint8_t *pixels);

/* TGA (Truevision TGA 2.0 layout): rgba is w*h RGBA8 top row first; bpp 8 (grey, from R),
 * 24 or 32; rle picks types 10/11; top_left sets descriptor bit 5, else rows go bottom up. */
kt_bytes kt_tga_encode(uint32_t w, uint32_t h, const uint8_t *rgba, int bpp, bool rle,
                       bool top_left);

/* BMP with BITMAPINFOHEADER (40 bytes), BI_RGB, bottom-up rows padded to 4 bytes; bpp 24 or
 * 32 (alpha stored as given). */
kt_bytes kt_bmp_encode(uint32_t w, uint32_t h, const uint8_t *rgba, int bpp);

/* Radiance HDR through stbi_write_hdr_to_func (RLE for 8 <= w < 32768); rgb floats. */
kt_bytes kt_hdr_encode(uint32_t w, uint32_t h, const float *rgb);

/* OpenEXR, uncompressed, single part. channels: names such as "A","B","G","R" or "Y", each with
 * a pixel type (0 uint, 1 half, 2 float), sorted by name as the spec requires (the writer sorts).
 * values[c] gives w*h floats for channel c (uint channels take the float's integer value).
 * tile_w/tile_h > 0 writes a one-level tiled file. min_x/min_y offset the data window. */
typedef struct kt_exr_channel {
    const char *name;
    int type;
    const float *values;
} kt_exr_channel;
kt_bytes kt_exr_encode(uint32_t w, uint32_t h, int32_t min_x, int32_t min_y,
                       const kt_exr_channel *channels, int channel_count, uint32_t tile_w,
                       uint32_t tile_h);

/* float -> IEEE half, exact for values half can represent (normal numbers, zero). */
uint16_t kt_float_to_half(float f);

#endif
