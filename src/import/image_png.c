/* image_png.c — PNG (ISO/IEC 15948, PNG 2nd edition) through libspng: every colour type and
 * bit depth, palette with tRNS, Adam7 interlacing. 1..8-bit sources become KILN_PIXEL_U8 RGBA,
 * 16-bit sources KILN_PIXEL_U16 RGBA (host-endian), both as stored: no gamma is applied.
 * libspng is opened on the first PNG (png_dl.c), not linked. */
#include "core/error.h"
#include "import/image_private.h"
#include "import/png_dl.h"

/* Ancillary chunks (text, ICC profiles, sPLT ...) are kept in memory by libspng; these caps stop
 * a small file from making it hold a lot. The image data (IDAT) is streamed, not cached. */
#define PNG_CHUNK_SIZE_MAX  ((size_t)64 << 20)
#define PNG_CHUNK_CACHE_MAX ((size_t)64 << 20)

static kiln_result png_error(const kiln_spng_api *spng, kiln_error *err, int e, const char *stage,
                             uint32_t max_dim)
{
    if (e == SPNG_EUSER_WIDTH || e == SPNG_EUSER_HEIGHT)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "PNG: %s: %s: exceeds the limit of %u pixels per side", stage,
                              spng->strerror(e), max_dim);
    if (e == SPNG_EMEM) /* libspng reports its chunk size and cache limits as out-of-memory. */
        return kiln_error_set(err, KILN_E_LIMIT,
                              "PNG: %s: %s (chunk size or chunk cache limit exceeded)", stage,
                              spng->strerror(e));
    return kiln_error_set(err, KILN_E_IMPORT_FAILED, "PNG: %s: %s", stage, spng->strerror(e));
}

kiln_result kiln_image_decode_png(const void *data, size_t size, const kiln_image_limits *lim,
                                  bool header_only, kiln_image *out, kiln_error *err)
{
    const kiln_spng_api *spng = NULL;
    kiln_result r = kiln_spng_api_get(&spng, err);
    if (r != KILN_OK) return r;
    spng_ctx *ctx = spng->ctx_new(0);
    if (!ctx) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "PNG: cannot create a decoder");

    /* libspng refuses anything above 2^31-1 itself; ours is usually far lower. */
    uint32_t dim = lim->max_dim > 0x7FFFFFFFu ? 0x7FFFFFFFu : lim->max_dim;
    int e = spng->set_image_limits(ctx, dim, dim);
    if (!e) e = spng->set_chunk_limits(ctx, PNG_CHUNK_SIZE_MAX, PNG_CHUNK_CACHE_MAX);
    if (!e) e = spng->set_png_buffer(ctx, data, size);
    if (e) {
        r = png_error(spng, err, e, "setting up the decoder", dim);
        goto done;
    }

    struct spng_ihdr ihdr;
    e = spng->get_ihdr(ctx, &ihdr);
    if (e) {
        r = png_error(spng, err, e, "reading the header", dim);
        goto done;
    }
    kiln_pixel_type type = ihdr.bit_depth == 16 ? KILN_PIXEL_U16 : KILN_PIXEL_U8;
    r = kiln_image_check_dims(lim, "PNG", ihdr.width, ihdr.height, type, NULL, err);
    if (r != KILN_OK) goto done;
    if (header_only) {
        out->width = ihdr.width;
        out->height = ihdr.height;
        goto done;
    }

    /* Deflate expands at most 1032:1, so a file too small for its declared image is damaged;
     * saying so before allocating keeps a 100-byte file from costing a gigabyte. */
    static const uint8_t channels_of[7] = {1, 0, 3, 1, 2, 0, 4};
    uint64_t bits_per_px =
        (uint64_t)(ihdr.color_type <= 6 ? channels_of[ihdr.color_type] : 4) * ihdr.bit_depth;
    uint64_t raw = (uint64_t)ihdr.height * (((uint64_t)ihdr.width * bits_per_px + 7) / 8 + 1);
    if (raw / 1032 > (uint64_t)size) {
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED,
                           "PNG: %zu bytes cannot hold %ux%u image data (truncated or damaged)",
                           size, ihdr.width, ihdr.height);
        goto done;
    }

    /* tRNS turns a colour key or palette alpha into a real alpha channel. */
    struct spng_trns trns;
    e = spng->get_trns(ctx, &trns);
    if (e && e != SPNG_ECHUNKAVAIL) {
        r = png_error(spng, err, e, "reading the chunks before the image data", dim);
        goto done;
    }
    bool has_trns = e == 0;
    switch (ihdr.color_type) {
    case SPNG_COLOR_TYPE_GRAYSCALE:
        out->source_channels = has_trns ? 2 : 1;
        break;
    case SPNG_COLOR_TYPE_TRUECOLOR:
        out->source_channels = has_trns ? 4 : 3;
        break;
    case SPNG_COLOR_TYPE_INDEXED:
        out->source_channels = has_trns ? 4 : 3;
        break;
    case SPNG_COLOR_TYPE_GRAYSCALE_ALPHA:
        out->source_channels = 2;
        break;
    default:
        out->source_channels = 4;
        break;
    }
    /* Palette entries are 8-bit whatever the index depth. */
    out->source_bits = ihdr.color_type == SPNG_COLOR_TYPE_INDEXED ? 8 : ihdr.bit_depth;

    int fmt = type == KILN_PIXEL_U16 ? SPNG_FMT_RGBA16 : SPNG_FMT_RGBA8;
    r = kiln_image_alloc_pixels(out, lim, "PNG", ihdr.width, ihdr.height, type, err);
    if (r != KILN_OK) goto done;
    size_t need = 0;
    e = spng->decoded_image_size(ctx, fmt, &need);
    if (e) {
        r = png_error(spng, err, e, "sizing the image", dim);
        goto done;
    }
    if (KILN_NEVER(need != out->size)) {
        r = kiln_error_set(err, KILN_E_INTERNAL, "PNG: libspng wants %zu bytes, kiln made %zu",
                           need, out->size);
        goto done;
    }
    e = spng->decode_image(ctx, out->pixels, out->size, fmt, SPNG_DECODE_TRNS);
    if (e) r = png_error(spng, err, e, "decoding the image data", dim);

done:
    spng->ctx_free(ctx);
    return r;
}
