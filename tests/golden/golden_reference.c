/* golden_reference.c — see golden_reference.h. Follows thumb_texture.frag step by step: the
 * n x n texel positions of each pixel, the mode's colour, premultiplied averaging, the
 * checkerboard, sRGB encoding. */
#include "golden_reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kv.h"

static float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static uint8_t linear_to_srgb8(float v)
{
    v = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
    float e = v <= 0.0031308f ? v * 12.92f : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
    return (uint8_t)lrintf(e * 255.0f);
}

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15), exp = (h >> 10) & 31u, man = h & 1023u;
    float v;
    if (exp == 0) v = ldexpf((float)man, -24);
    else if (exp == 31) v = man ? NAN : INFINITY;
    else v = ldexpf((float)(man | 1024u), (int)exp - 25);
    return sign ? -v : v;
}

/* The level's texels as floats, 4 a texel, as the sampler returns them. */
static float *decode_level(const krt_texture_data *d, uint32_t level, uint32_t lw, uint32_t lh)
{
    size_t n = (size_t)lw * lh;
    float *f = malloc(n * 4 * sizeof *f);
    if (!f) return NULL;
    const kiln_ktx2_level *lv = &d->levels[level];
    if (d->vk_format == KILN_VK_FORMAT_R16G16_SFLOAT) { /* (R, G, 0, 1), as sampled */
        if (lv->size < n * 4) {
            free(f);
            return NULL;
        }
        for (size_t i = 0; i < n; i++) {
            uint16_t r16, g16;
            memcpy(&r16, lv->data + i * 4, 2);
            memcpy(&g16, lv->data + i * 4 + 2, 2);
            f[4 * i] = half_to_float(r16);
            f[4 * i + 1] = half_to_float(g16);
            f[4 * i + 2] = 0.0f;
            f[4 * i + 3] = 1.0f;
        }
        return f;
    }
    if (d->vk_format == KILN_VK_FORMAT_R16G16B16A16_SFLOAT) {
        if (lv->size < n * 8) {
            free(f);
            return NULL;
        }
        for (size_t i = 0; i < n * 4; i++) {
            uint16_t h16;
            memcpy(&h16, lv->data + i * 2, 2);
            f[i] = half_to_float(h16);
        }
        return f;
    }
    uint8_t *rgba = malloc(n * 4);
    kiln_error err;
    if (!rgba || kiln_transcode_rgba8(d->vk_format, lv->data, lv->size, lw, lh, rgba, n * 4,
                                      &err) != KILN_OK) {
        free(rgba);
        free(f);
        return NULL;
    }
    bool srgb = kiln_transcode_rgba8_format(d->vk_format) == KILN_VK_FORMAT_R8G8B8A8_SRGB;
    for (size_t i = 0; i < n * 4; i++) {
        float v = (float)rgba[i] / 255.0f;
        f[i] = srgb && i % 4 != 3 ? srgb_to_linear(v) : v; /* the sampler decodes sRGB */
    }
    free(rgba);
    return f;
}

/* A texel as linear colour with straight alpha (thumb_texture.frag texel()). */
static void texel(const float *t, kv_view_mode mode, float out[4])
{
    memcpy(out, t, 4 * sizeof *out);
    switch (mode) {
    case KV_VIEW_STORED:
        for (int c = 0; c < 3; c++) out[c] = srgb_to_linear(t[c]);
        break;
    case KV_VIEW_GREY:
        out[0] = out[1] = out[2] = srgb_to_linear(t[0]);
        out[3] = 1.0f;
        break;
    case KV_VIEW_NORMAL_XY: {
        float x = t[0] * 2.0f - 1.0f, y = t[1] * 2.0f - 1.0f;
        float zz = 1.0f - x * x - y * y, z = sqrtf(zz > 0.0f ? zz : 0.0f);
        out[0] = srgb_to_linear(x * 0.5f + 0.5f);
        out[1] = srgb_to_linear(y * 0.5f + 0.5f);
        out[2] = srgb_to_linear(z * 0.5f + 0.5f);
        out[3] = 1.0f;
        break;
    }
    case KV_VIEW_FLOAT:
        for (int c = 0; c < 4; c++) out[c] = t[c] < 0.0f ? 0.0f : t[c] > 1.0f ? 1.0f : t[c];
        break;
    default:
        break;
    }
}

uint8_t *golden_reference(const krt_texture_data *d, uint32_t cooked_format, uint32_t level,
                          uint32_t w, uint32_t h)
{
    if (level >= d->level_count) return NULL;
    uint32_t lw = d->levels[level].width, lh = d->levels[level].height;
    float *tex = decode_level(d, level, lw, lh);
    uint8_t *rgb = tex ? malloc((size_t)w * h * 3) : NULL;
    if (!rgb) {
        free(tex);
        return NULL;
    }
    kv_view_mode mode = kv_view_mode_for(cooked_format);
    float sx = (float)lw / (float)w, sy = (float)lh / (float)h;
    int nx = (int)ceilf(sx - 1e-4f), ny = (int)ceilf(sy - 1e-4f);
    nx = nx < 1 ? 1 : nx > 8 ? 8 : nx;
    ny = ny < 1 ? 1 : ny > 8 ? 8 : ny;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            float sum[4] = {0, 0, 0, 0};
            for (int j = 0; j < ny; j++)
                for (int i = 0; i < nx; i++) {
                    float ax = ((float)x + ((float)i + 0.5f) / (float)nx) * sx;
                    float ay = ((float)y + ((float)j + 0.5f) / (float)ny) * sy;
                    int64_t tx = (int64_t)floorf(ax), ty = (int64_t)floorf(ay);
                    tx = tx < 0 ? 0 : tx >= lw ? lw - 1 : tx;
                    ty = ty < 0 ? 0 : ty >= lh ? lh - 1 : ty;
                    float c[4];
                    texel(tex + ((size_t)ty * lw + (size_t)tx) * 4, mode, c);
                    for (int k = 0; k < 3; k++) sum[k] += c[k] * c[3];
                    sum[3] += c[3];
                }
            bool dark = ((x / KV_VIEW_CHECKER + y / KV_VIEW_CHECKER) & 1) != 0;
            float bg = srgb_to_linear(dark ? 0.6f : 0.8f), count = (float)(nx * ny);
            for (int k = 0; k < 3; k++)
                rgb[((size_t)y * w + x) * 3 + (size_t)k] =
                    linear_to_srgb8(sum[k] / count + bg * (1.0f - sum[3] / count));
        }
    free(tex);
    return rgb;
}
