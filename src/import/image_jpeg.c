/* image_jpeg.c — baseline and progressive 8-bit JPEG (ITU T.81, JFIF, Adobe APP14) through
 * libturbojpeg: YCbCr/RGB and greyscale decode straight to RGBA8; CMYK/YCCK decode to CMYK and
 * are turned into RGB here (turbojpeg leaves that to the caller), honouring Adobe's inverted
 * CMYK. Warnings about damaged data are errors: a source that decodes to grey blocks is not one
 * to cook silently. */
#include <limits.h>
#include <string.h>
#include <turbojpeg.h>

#include "core/error.h"
#include "core/reader.h"
#include "import/image_private.h"

/* What the markers before the first scan say: an Adobe APP14 segment (Photoshop and the libjpeg
 * family write CMYK with it, storing ink amounts inverted, 255 = no ink; without it CMYK is
 * plain) and whether the frame is arithmetic-coded. */
typedef struct jpeg_markers {
    bool adobe;
    bool arithmetic;
} jpeg_markers;

static jpeg_markers jpeg_scan_markers(const void *data, size_t size)
{
    jpeg_markers jm = {false, false};
    kiln_reader r = kiln_reader_make(data, size);
    if (kiln_read_u8(&r) != 0xFF || kiln_read_u8(&r) != 0xD8) return jm;
    while (!r.failed) {
        if (kiln_read_u8(&r) != 0xFF) return jm;
        uint8_t m = kiln_read_u8(&r);
        while (m == 0xFF && !r.failed) m = kiln_read_u8(&r); /* fill bytes */
        if (r.failed || m == 0xDA || m == 0xD9) return jm;   /* SOS, EOI */
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD7)) continue; /* no length field */
        const uint8_t *lp = kiln_reader_take(&r, 2);
        if (!lp) return jm;
        size_t len = ((size_t)lp[0] << 8) | lp[1];
        if (len < 2) return jm;
        const uint8_t *seg = kiln_reader_take(&r, len - 2);
        if (!seg) return jm;
        if (m == 0xEE && len - 2 >= 12 && memcmp(seg, "Adobe", 5) == 0) jm.adobe = true;
        if (m >= 0xC9 && m <= 0xCF && m != 0xCC) jm.arithmetic = true; /* SOF9..SOF15 */
    }
    return jm;
}

/* In place: 4 bytes of CMYK per texel become RGBA with alpha 255. The simple complement formula
 * (no colour management): R = (1-C)(1-K), with inverted data C' = 1-C, K' = 1-K. */
static void cmyk_to_rgba(uint8_t *p, size_t texels, bool inverted)
{
    for (size_t i = 0; i < texels; i++, p += 4) {
        unsigned c = p[0], m = p[1], y = p[2], k = p[3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        p[0] = (uint8_t)((c * k + 127) / 255);
        p[1] = (uint8_t)((m * k + 127) / 255);
        p[2] = (uint8_t)((y * k + 127) / 255);
        p[3] = 255;
    }
}

kiln_result kiln_image_decode_jpeg(const void *data, size_t size, const kiln_image_limits *lim,
                                   bool header_only, kiln_image *out, kiln_error *err)
{
    if (size > ULONG_MAX)
        return kiln_error_set(err, KILN_E_LIMIT, "JPEG: %zu bytes is too large", size);
    tjhandle tj = tjInitDecompress();
    if (!tj) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "JPEG: cannot create a decoder");
    kiln_result r = KILN_OK;
    int width = 0, height = 0, subsamp = 0, colorspace = 0;
    if (tjDecompressHeader3(tj, data, (unsigned long)size, &width, &height, &subsamp,
                            &colorspace) != 0) {
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED, "JPEG: reading the header: %s",
                           tjGetErrorStr2(tj));
        goto done;
    }
    r = kiln_image_check_dims(lim, "JPEG", width, height, KILN_PIXEL_U8, NULL, err);
    if (r != KILN_OK) goto done;
    if (header_only) {
        out->width = (uint32_t)width;
        out->height = (uint32_t)height;
        goto done;
    }

    /* Every complete Huffman-coded frame spends at least one bit per 8x8 block of its smallest
     * component (at most 4x subsampled each way), even progressive ones in their DC scan. A file
     * shorter than that is truncated; refusing it first keeps a tiny file from costing a
     * gigabyte. Arithmetic coding can go below a bit per block, so it is not checked. */
    jpeg_markers jm = jpeg_scan_markers(data, size);
    uint64_t min_blocks = (((uint64_t)width + 31) / 32) * (((uint64_t)height + 31) / 32);
    if (!jm.arithmetic && min_blocks / 8 > (uint64_t)size) {
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED,
                           "JPEG: %zu bytes cannot hold %dx%d image data (truncated or damaged)",
                           size, width, height);
        goto done;
    }

    bool cmyk = colorspace == TJCS_CMYK || colorspace == TJCS_YCCK;
    /* CMYK counts as 3: it becomes colour without alpha, and 4 would announce an alpha channel. */
    out->source_channels = colorspace == TJCS_GRAY ? 1 : 3;
    out->source_bits = 8;
    r = kiln_image_alloc_pixels(out, lim, "JPEG", width, height, KILN_PIXEL_U8, err);
    if (r != KILN_OK) goto done;
    /* LIMITSCANS refuses progressive files with absurd scan counts (a CPU bomb). CMYK has the
     * same 4 bytes per texel as RGBA, so it decodes into the output and converts in place. */
    int flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS;
    if (tjDecompress2(tj, data, (unsigned long)size, out->pixels, width, 0, height,
                      cmyk ? TJPF_CMYK : TJPF_RGBA, flags) != 0) {
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED, "JPEG: %s: %s",
                           tjGetErrorCode(tj) == TJERR_WARNING ? "damaged data"
                                                               : "decoding the image data",
                           tjGetErrorStr2(tj));
        goto done;
    }
    if (cmyk) cmyk_to_rgba(out->pixels, (size_t)width * (size_t)height, jm.adobe);

done:
    tjDestroy(tj);
    return r;
}
