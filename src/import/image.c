/* image.c — source-image front door: recognises the format from its magic bytes (TGA from the
 * name hint or its TGA 2.0 footer, as it has no magic), applies the limits, dispatches to the
 * per-format decoder and finds whether any texel is not opaque. Formats: PNG (ISO/IEC 15948),
 * JPEG (ITU T.81 / JFIF), TGA (Truevision TGA 2.0), BMP, Radiance HDR, OpenEXR 2, KTX2 (level 0's
 * first image). */
#include "import/image_private.h"

#include <string.h>

#include "codec/vk_format.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"

static const char *const format_names[] = {"unknown", "png", "jpeg", "tga",
                                           "bmp",     "hdr", "exr",  "ktx2"};
static const char *const format_descriptions[] = {
    NULL,          "a PNG image",          "a JPEG image",     "a TGA image",
    "a BMP image", "a Radiance HDR image", "an OpenEXR image", "a KTX2 texture"};
_Static_assert(sizeof format_descriptions == sizeof format_names, "a description per format");

const char *kiln_image_format_name(kiln_image_format f)
{
    if ((unsigned)f >= sizeof format_names / sizeof format_names[0]) return "unknown";
    return format_names[f];
}

const char *kiln_image_format_description(kiln_image_format f)
{
    if ((unsigned)f >= sizeof format_descriptions / sizeof format_descriptions[0]) return NULL;
    return format_descriptions[f];
}

size_t kiln_pixel_type_size(kiln_pixel_type t)
{
    switch (t) {
    case KILN_PIXEL_U8:
        return 1;
    case KILN_PIXEL_U16:
        return 2;
    case KILN_PIXEL_F32:
        return 4;
    }
    return 4;
}

kiln_result kiln_image_check_dims(const kiln_image_limits *lim, const char *what, int64_t width,
                                  int64_t height, kiln_pixel_type t, size_t *out_size,
                                  kiln_error *err)
{
    if (width <= 0 || height <= 0)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "%s: invalid dimensions %lldx%lld", what,
                              (long long)width, (long long)height);
    if (width > (int64_t)lim->max_dim || height > (int64_t)lim->max_dim)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "%s: %lldx%lld exceeds the limit of %u pixels per side", what,
                              (long long)width, (long long)height, lim->max_dim);
    size_t bytes;
    if (!kiln_size_mul((size_t)width, (size_t)height, &bytes) ||
        !kiln_size_mul(bytes, 4 * kiln_pixel_type_size(t), &bytes) || bytes > lim->memory_limit)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "%s: %lldx%lld RGBA of %zu-byte channels exceeds the memory limit "
                              "of %zu bytes",
                              what, (long long)width, (long long)height, kiln_pixel_type_size(t),
                              lim->memory_limit);
    if (out_size) *out_size = bytes;
    return KILN_OK;
}

kiln_result kiln_image_alloc_pixels(kiln_image *img, const kiln_image_limits *lim, const char *what,
                                    int64_t width, int64_t height, kiln_pixel_type t,
                                    kiln_error *err)
{
    size_t bytes = 0;
    kiln_result r = kiln_image_check_dims(lim, what, width, height, t, &bytes, err);
    if (r != KILN_OK) return r;
    void *p = kiln_alloc(&lim->allocator, bytes);
    if (!p)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "%s: cannot allocate %zu bytes", what,
                              bytes);
    img->pixels = p;
    img->size = bytes;
    img->width = (uint32_t)width;
    img->height = (uint32_t)height;
    img->type = t;
    img->allocator = lim->allocator;
    return KILN_OK;
}

/* Mirrors the acceptance test of stb_image's TGA reader (stbi__tga_test), so bytes we call TGA
 * cannot be taken by stb for one of the other formats it tries first. */
bool kiln_image_tga_header_plausible(const void *data, size_t size)
{
    const uint8_t *h = data;
    if (size < 18) return false;
    uint8_t cmap_type = h[1], image_type = h[2], bpp = h[16];
    uint32_t width = kiln_load_u16le(h + 12), height = kiln_load_u16le(h + 14);
    if (cmap_type > 1) return false;
    if (cmap_type == 1) {
        if (image_type != 1 && image_type != 9) return false;
        uint8_t entry = h[7];
        if (entry != 8 && entry != 15 && entry != 16 && entry != 24 && entry != 32) return false;
        if (bpp != 8 && bpp != 16) return false;
    } else {
        if (image_type != 2 && image_type != 3 && image_type != 10 && image_type != 11)
            return false;
        if (bpp != 8 && bpp != 15 && bpp != 16 && bpp != 24 && bpp != 32) return false;
    }
    return width > 0 && height > 0;
}

static bool ends_with_ci(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return false;
    for (size_t i = 0; i < m; i++) {
        char c = s[n - m + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != suffix[i]) return false;
    }
    return true;
}

kiln_image_format kiln_image_detect(const void *data, size_t size, const char *name_hint)
{
    static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const uint8_t exr_sig[4] = {0x76, 0x2f, 0x31, 0x01};
    static const char tga_footer[18] = "TRUEVISION-XFILE."; /* with its NUL: 18 bytes */
    const uint8_t *p = data;
    if (!p) size = 0;
    if (size >= 8 && memcmp(p, png_sig, 8) == 0) return KILN_IMAGE_PNG;
    if (size >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF) return KILN_IMAGE_JPEG;
    if (size >= 4 && memcmp(p, exr_sig, 4) == 0) return KILN_IMAGE_EXR;
    if (size >= sizeof kiln_ktx2_identifier &&
        memcmp(p, kiln_ktx2_identifier, sizeof kiln_ktx2_identifier) == 0)
        return KILN_IMAGE_KTX2;
    if ((size >= 10 && memcmp(p, "#?RADIANCE", 10) == 0) ||
        (size >= 6 && memcmp(p, "#?RGBE", 6) == 0))
        return KILN_IMAGE_HDR;
    if (size >= 2 && p[0] == 'B' && p[1] == 'M') return KILN_IMAGE_BMP;
    if (name_hint && ends_with_ci(name_hint, ".tga")) return KILN_IMAGE_TGA;
    /* TGA 2.0 files end with a footer; without a name we still trust that plus a sane header. */
    if (size >= 18 + 26 && memcmp(p + size - 18, tga_footer, 18) == 0 &&
        kiln_image_tga_header_plausible(p, size))
        return KILN_IMAGE_TGA;
    return KILN_IMAGE_UNKNOWN;
}

static kiln_image_limits resolve_limits(const kiln_image_opts *opts)
{
    kiln_image_limits lim = {{0}, KILN_IMAGE_DEFAULT_MAX_DIM, KILN_IMAGE_DEFAULT_MEMORY_LIMIT};
    if (opts) {
        lim.allocator = opts->allocator;
        if (opts->max_dim) lim.max_dim = opts->max_dim;
        if (opts->memory_limit) lim.memory_limit = opts->memory_limit;
    }
    return lim;
}

static kiln_result dispatch(const void *data, size_t size, kiln_image_format f,
                            const kiln_image_limits *lim, bool header_only, kiln_image *out,
                            kiln_error *err)
{
    switch (f) {
    case KILN_IMAGE_PNG:
        return kiln_image_decode_png(data, size, lim, header_only, out, err);
    case KILN_IMAGE_JPEG:
        return kiln_image_decode_jpeg(data, size, lim, header_only, out, err);
    case KILN_IMAGE_TGA:
    case KILN_IMAGE_BMP:
    case KILN_IMAGE_HDR:
        return kiln_image_decode_stb(data, size, f, lim, header_only, out, err);
    case KILN_IMAGE_EXR:
        return kiln_image_decode_exr(data, size, lim, header_only, out, err);
    case KILN_IMAGE_KTX2:
        return kiln_image_decode_ktx2(data, size, lim, header_only, out, err);
    case KILN_IMAGE_UNKNOWN:
        break;
    }
    return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                          "not an image format kiln reads (PNG, JPEG, TGA, BMP, HDR, EXR, KTX2)");
}

kiln_result kiln_image_probe(const void *data, size_t size, const kiln_image_opts *opts,
                             kiln_image_format *format, uint32_t *width, uint32_t *height,
                             kiln_error *err)
{
    kiln_image_limits lim = resolve_limits(opts);
    kiln_image_format f = kiln_image_detect(data, size, opts ? opts->name_hint : NULL);
    kiln_image tmp;
    memset(&tmp, 0, sizeof tmp);
    if (format) *format = f;
    if (width) *width = 0;
    if (height) *height = 0;
    kiln_result r = dispatch(data, size, f, &lim, true, &tmp, err);
    if (r != KILN_OK) return r;
    if (width) *width = tmp.width;
    if (height) *height = tmp.height;
    return KILN_OK;
}

/* Whether any texel's alpha is below full; a NaN alpha counts as not opaque. */
static bool scan_has_alpha(const kiln_image *img)
{
    size_t n = (size_t)img->width * img->height;
    switch (img->type) {
    case KILN_PIXEL_U8: {
        const uint8_t *p = img->pixels;
        for (size_t i = 0; i < n; i++)
            if (p[i * 4 + 3] != 0xFF) return true;
        return false;
    }
    case KILN_PIXEL_U16: {
        const uint16_t *p = img->pixels;
        for (size_t i = 0; i < n; i++)
            if (p[i * 4 + 3] != 0xFFFF) return true;
        return false;
    }
    case KILN_PIXEL_F32: {
        const float *p = img->pixels;
        for (size_t i = 0; i < n; i++)
            if (!(p[i * 4 + 3] >= 1.0f)) return true;
        return false;
    }
    }
    return false;
}

kiln_result kiln_image_decode(const void *data, size_t size, const kiln_image_opts *opts,
                              kiln_image *out, kiln_error *err)
{
    if (KILN_NEVER(out == NULL))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_image_decode: out is NULL");
    memset(out, 0, sizeof *out);
    if (!data && size) return kiln_error_set(err, KILN_E_USAGE, "kiln_image_decode: data is NULL");
    kiln_image_limits lim = resolve_limits(opts);
    kiln_image_format f = kiln_image_detect(data, size, opts ? opts->name_hint : NULL);
    kiln_result r = dispatch(data, size, f, &lim, false, out, err);
    if (r != KILN_OK) {
        kiln_image_free(out);
        return r;
    }
    if (KILN_NEVER(!out->pixels || out->size != (size_t)out->width * out->height * 4 *
                                                    kiln_pixel_type_size(out->type))) {
        kiln_image_free(out);
        return kiln_error_set(err, KILN_E_INTERNAL, "%s decoder returned an inconsistent image",
                              kiln_image_format_name(f));
    }
    out->format = f;
    out->has_alpha = scan_has_alpha(out);
    return KILN_OK;
}

void kiln_image_free(kiln_image *img)
{
    if (!img) return;
    if (img->pixels) kiln_free(&img->allocator, img->pixels, img->size);
    memset(img, 0, sizeof *img);
}
