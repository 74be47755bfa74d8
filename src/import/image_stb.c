/* image_stb.c — TGA (Truevision TGA 2.0: true-colour, grey, colour-mapped, RLE, either origin),
 * BMP (Windows BMP v3..v5: 1/4/8/16/24/32 bit, uncompressed or bitfields) and Radiance HDR
 * (RGBE, flat or RLE) through stb_image from Debian's libstb, which already holds the
 * implementation. TGA and BMP become KILN_PIXEL_U8 RGBA, HDR linear KILN_PIXEL_F32 RGBA.
 *
 * stb_image keeps process-wide settings (vertical flip, unpremultiply, LDR/HDR gamma): this file
 * never changes them, so it relies on nobody else doing so. Its failure reason is thread-local
 * in the Debian build. stb allocates with malloc; the result is copied into allocator memory,
 * so a decode briefly holds the pixels twice. */
#include <limits.h>
#include <stb_image.h>
#include <string.h>

#include "core/error.h"
#include "core/reader.h"
#include "import/image_private.h"

static const char *stb_what(kiln_image_format f)
{
    return f == KILN_IMAGE_TGA ? "TGA" : f == KILN_IMAGE_BMP ? "BMP" : "HDR";
}

static const char *stb_reason(void)
{
    const char *s = stbi_failure_reason();
    return s ? s : "unknown error";
}

/* Bits per channel as stored, from the header stb has already accepted. */
static uint32_t stb_source_bits(const uint8_t *p, size_t size, kiln_image_format f)
{
    if (f == KILN_IMAGE_HDR) return 32;
    kiln_reader r = kiln_reader_make(p, size);
    if (f == KILN_IMAGE_TGA) {
        /* Colour-mapped: the palette entry size decides; 15/16-bit texels are 5 bits each. */
        kiln_reader_seek(&r, 1);
        uint8_t cmap = kiln_read_u8(&r);
        kiln_reader_seek(&r, 7);
        uint8_t entry_bits = kiln_read_u8(&r);
        kiln_reader_seek(&r, 16);
        uint8_t bpp = kiln_read_u8(&r);
        uint8_t depth = cmap ? entry_bits : bpp;
        return depth == 15 || depth == 16 ? 5 : 8;
    }
    /* BMP: bits per pixel sit after the file header and the DIB header's size and extent. */
    kiln_reader_seek(&r, 14);
    uint32_t dib_size = kiln_read_u32le(&r);
    kiln_reader_seek(&r, dib_size == 12 ? 24 : 28);
    uint16_t bpp = kiln_read_u16le(&r);
    return bpp == 16 ? 5 : 8;
}

/* stb's readers return zeros past the end of the data instead of failing, so a truncated file
 * would decode "successfully" with black texels. These walks check that the pixel data is all
 * there (and bound how far a small file can expand) before stb decodes anything. */
static bool tga_data_complete(const uint8_t *p, size_t size, int64_t w, int64_t h)
{
    kiln_reader r = kiln_reader_make(p, size);
    uint8_t id_len = kiln_read_u8(&r), cmap = kiln_read_u8(&r), type = kiln_read_u8(&r);
    uint16_t pal_start = kiln_read_u16le(&r), pal_len = kiln_read_u16le(&r);
    uint8_t pal_bits = kiln_read_u8(&r);
    kiln_reader_seek(&r, 16);
    uint8_t bpp = kiln_read_u8(&r);
    kiln_reader_seek(&r, 18);
    kiln_reader_take(&r, id_len);
    /* stb skips pal_start bytes, then reads the palette. */
    if (cmap) kiln_reader_take(&r, (size_t)pal_start + (size_t)pal_len * ((pal_bits + 7u) / 8u));
    if (r.failed) return false;
    size_t pix = (bpp + 7u) / 8u;
    uint64_t texels = (uint64_t)w * (uint64_t)h;
    if (type < 9) return (uint64_t)(r.size - r.pos) / pix >= texels;
    for (uint64_t done = 0; done < texels;) {
        uint8_t hdr = kiln_read_u8(&r);
        uint32_t n = (hdr & 0x7Fu) + 1;
        kiln_reader_take(&r, (hdr & 0x80u) ? pix : pix * n);
        if (r.failed) return false;
        done += n;
    }
    return true;
}

/* BMP dimensions from the header (stb reports a top-down height as negative). */
static bool bmp_header(const uint8_t *p, size_t size, int64_t *w, int64_t *h, uint64_t *need)
{
    kiln_reader r = kiln_reader_make(p, size);
    kiln_reader_seek(&r, 10);
    uint32_t offset = kiln_read_u32le(&r), dib = kiln_read_u32le(&r);
    uint32_t bpp;
    if (dib == 12) {
        *w = kiln_read_u16le(&r);
        *h = kiln_read_u16le(&r);
        kiln_read_u16le(&r);
        bpp = kiln_read_u16le(&r);
    } else {
        *w = (int32_t)kiln_read_u32le(&r);
        *h = (int32_t)kiln_read_u32le(&r);
        kiln_read_u16le(&r);
        bpp = kiln_read_u16le(&r);
    }
    if (r.failed) return false;
    if (*h < 0) *h = -*h;
    if (*w <= 0 || *h <= 0 || *w > 0xFFFFFF || *h > 0xFFFFFF || bpp == 0 || bpp > 32) {
        *need = 0;
        return true; /* dims rejected by the caller, or stb refuses the depth */
    }
    uint64_t stride = (((uint64_t)*w * bpp + 31) / 32) * 4;
    *need = (uint64_t)offset + stride * (uint64_t)*h;
    return true;
}

/* Radiance HDR: the header ends with an empty line, then the resolution line. Mirrors stb's
 * scanline reader: new-style RLE per scanline while scanlines start with 2,2; once one does not,
 * the rest of the image is flat RGBE. */
static bool hdr_data_complete(const uint8_t *p, size_t size, int64_t w, int64_t h)
{
    size_t pos = 0;
    while (pos + 1 < size && !(p[pos] == '\n' && p[pos + 1] == '\n')) pos++;
    if (pos + 1 >= size) return false;
    pos += 2;
    while (pos < size && p[pos] != '\n') pos++;
    if (pos >= size) return false;
    kiln_reader r = kiln_reader_make(p, size);
    kiln_reader_seek(&r, pos + 1);
    uint64_t remaining = (uint64_t)w * (uint64_t)h;
    if (w < 8 || w >= 32768) return (uint64_t)(r.size - r.pos) / 4 >= remaining;
    for (int64_t y = 0; y < h; y++, remaining -= (uint64_t)w) {
        const uint8_t *q = kiln_reader_take(&r, 4);
        if (!q) return false;
        if (q[0] != 2 || q[1] != 2 || (q[2] & 0x80)) /* flat from here, q was the first texel */
            return (uint64_t)(r.size - r.pos) / 4 >= remaining - 1;
        if ((((int64_t)q[2] << 8) | q[3]) != w) return false;
        for (int k = 0; k < 4; k++) {
            for (int64_t x = 0; x < w;) {
                uint8_t count = kiln_read_u8(&r);
                bool run = count > 128;
                if (run) count = (uint8_t)(count - 128);
                if (r.failed || count == 0 || count > w - x) return false;
                kiln_reader_take(&r, run ? 1 : count);
                if (r.failed) return false;
                x += count;
            }
        }
    }
    return true;
}

kiln_result kiln_image_decode_stb(const void *data, size_t size, kiln_image_format format,
                                  const kiln_image_limits *lim, bool header_only, kiln_image *out,
                                  kiln_error *err)
{
    const char *what = stb_what(format);
    if (size > INT_MAX)
        return kiln_error_set(err, KILN_E_LIMIT, "%s: %zu bytes is too large", what, size);
    /* Refusing an implausible TGA header here also keeps stb from trying its other decoders
     * (GIF, PSD, PIC, PNM) on bytes that only a name hint called TGA. */
    if (format == KILN_IMAGE_TGA && !kiln_image_tga_header_plausible(data, size))
        return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                              "TGA: the header is not a valid TGA header (colour-map type, image "
                              "type, size or depth)");
    int iw = 0, ih = 0, comp = 0;
    if (!stbi_info_from_memory(data, (int)size, &iw, &ih, &comp))
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "%s: reading the header: %s", what,
                              stb_reason());
    int64_t w = iw, h = ih;
    uint64_t bmp_need = 0;
    if (format == KILN_IMAGE_BMP && !bmp_header(data, size, &w, &h, &bmp_need))
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "BMP: the header is truncated");
    kiln_pixel_type type = format == KILN_IMAGE_HDR ? KILN_PIXEL_F32 : KILN_PIXEL_U8;
    kiln_result r = kiln_image_check_dims(lim, what, w, h, type, NULL, err);
    if (r != KILN_OK) return r;
    if (header_only) {
        out->width = (uint32_t)w;
        out->height = (uint32_t)h;
        return KILN_OK;
    }
    bool complete = format == KILN_IMAGE_TGA   ? tga_data_complete(data, size, w, h)
                    : format == KILN_IMAGE_BMP ? bmp_need <= size
                                               : hdr_data_complete(data, size, w, h);
    if (!complete)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                              "%s: the file ends before its %lldx%lld image data does "
                              "(truncated or damaged)",
                              what, (long long)w, (long long)h);

    int w2 = 0, h2 = 0, comp2 = 0;
    void *pixels = format == KILN_IMAGE_HDR
                       ? (void *)stbi_loadf_from_memory(data, (int)size, &w2, &h2, &comp2, 4)
                       : (void *)stbi_load_from_memory(data, (int)size, &w2, &h2, &comp2, 4);
    if (!pixels)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "%s: decoding: %s", what, stb_reason());
    if (w2 != w || h2 != h) {
        stbi_image_free(pixels);
        return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                              "%s: header says %lldx%lld but the data decodes to %dx%d", what,
                              (long long)w, (long long)h, w2, h2);
    }
    r = kiln_image_alloc_pixels(out, lim, what, w, h, type, err);
    if (r == KILN_OK) {
        memcpy(out->pixels, pixels, out->size);
        out->source_channels = comp >= 1 && comp <= 4 ? (uint32_t)comp : 4;
        out->source_bits = stb_source_bits(data, size, format);
    }
    stbi_image_free(pixels);
    return r;
}
