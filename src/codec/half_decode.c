/* half_decode.c — kiln_transcode_rgba16f_srgb8: an RGBA16F level turned into an 8-bit picture
 * (clamp or Reinhard tone mapping, then the sRGB transfer function of IEC 61966-2-1), for
 * thumbnails and reports of HDR textures. kiln_transcode_rgba8 does not take RGBA16F: its range
 * does not fit 8 bits without a choice of mapping, which is this function's argument. Sizes are
 * checked before any byte is read, with overflow-checked arithmetic. Part of libkiln_rt. */
#include <math.h>

#include "codec/half_float.h"
#include "core/alloc.h"
#include "core/error.h"
#include "kiln/kiln_format.h"

/* x in [0, 1] (after the tone map) to an 8-bit sRGB code, rounded to nearest. */
static uint8_t srgb8(float x)
{
    if (!(x > 0.0f)) return 0; /* negative and NaN */
    if (x >= 1.0f) return 255;
    float e = x <= 0.0031308f ? 12.92f * x : 1.055f * powf(x, 1.0f / 2.4f) - 0.055f;
    return (uint8_t)(e * 255.0f + 0.5f);
}

static float tone(float x, uint32_t tonemap)
{
    if (!(x > 0.0f)) return 0.0f;
    if (tonemap == KILN_TONEMAP_CLAMP || isinf(x)) return x < 1.0f ? x : 1.0f;
    return x / (1.0f + x);
}

static uint8_t unorm8(float a)
{
    if (!(a > 0.0f)) return 0;
    if (a >= 1.0f) return 255;
    return (uint8_t)(a * 255.0f + 0.5f);
}

kiln_result kiln_transcode_rgba16f_srgb8(const uint8_t *texels, size_t size, uint32_t width,
                                         uint32_t height, uint32_t tonemap, float exposure,
                                         uint8_t *rgba, size_t rgba_size, kiln_error *err)
{
    if (!texels || !rgba || width == 0 || height == 0)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_transcode_rgba16f_srgb8: NULL data or empty level (%ux%u)",
                              width, height);
    if (tonemap != KILN_TONEMAP_CLAMP && tonemap != KILN_TONEMAP_REINHARD)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_transcode_rgba16f_srgb8: tonemap %u",
                              tonemap);
    if (!isfinite(exposure))
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_transcode_rgba16f_srgb8: exposure is not finite");
    size_t texel_count, out_need, in_need;
    if (!kiln_size_mul(width, height, &texel_count) || !kiln_size_mul(texel_count, 8, &in_need))
        return kiln_error_set(err, KILN_E_LIMIT, "kiln_transcode_rgba16f_srgb8: %ux%u is too large",
                              width, height);
    out_need = texel_count * 4;
    if (rgba_size < out_need)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_transcode_rgba16f_srgb8: %zu output bytes, %ux%u RGBA8 "
                              "needs %zu",
                              rgba_size, width, height, out_need);
    if (size < in_need)
        return kiln_error_set(err, KILN_E_FORMAT_INVALID,
                              "kiln_transcode_rgba16f_srgb8: %zu bytes of data, a %ux%u RGBA16F "
                              "level needs %zu",
                              size, width, height, in_need);
    float scale = exp2f(exposure);
    for (size_t i = 0; i < texel_count; i++) {
        const uint8_t *t = texels + 8 * i;
        for (int c = 0; c < 4; c++) {
            float v = kiln_half_to_float((uint16_t)(t[2 * c] | t[2 * c + 1] << 8));
            rgba[4 * i + c] = c < 3 ? srgb8(tone(v * scale, tonemap)) : unorm8(v);
        }
    }
    return KILN_OK;
}
