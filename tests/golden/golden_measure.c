/* golden_measure.c — see golden_measure.h. sRGB to linear (IEC 61966-2-1), to XYZ with the
 * sRGB primaries and D65 white, to CIELAB (CIE 15); ΔE is CIE76, the Euclidean distance. */
#include "golden_measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float lab_f(float t)
{
    const float d = 6.0f / 29.0f;
    return t > d * d * d ? cbrtf(t) : t / (3.0f * d * d) + 4.0f / 29.0f;
}

/* RGB8 -> linear RGB, blurred 3x3 (edges clamped), -> Lab (3 floats a pixel). */
static float *to_lab(const uint8_t *rgb, uint32_t w, uint32_t h)
{
    size_t n = (size_t)w * h;
    float *lin = malloc(n * 3 * sizeof *lin), *lab = malloc(n * 3 * sizeof *lab);
    if (!lin || !lab) {
        free(lin);
        free(lab);
        return NULL;
    }
    for (size_t i = 0; i < n * 3; i++) lin[i] = srgb_to_linear((float)rgb[i] / 255.0f);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            float s[3] = {0, 0, 0};
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int64_t sx = (int64_t)x + dx, sy = (int64_t)y + dy;
                    sx = sx < 0 ? 0 : sx >= (int64_t)w ? (int64_t)w - 1 : sx;
                    sy = sy < 0 ? 0 : sy >= (int64_t)h ? (int64_t)h - 1 : sy;
                    const float *p = lin + ((size_t)sy * w + (size_t)sx) * 3;
                    for (int c = 0; c < 3; c++) s[c] += p[c] / 9.0f;
                }
            float X = 0.4124f * s[0] + 0.3576f * s[1] + 0.1805f * s[2];
            float Y = 0.2126f * s[0] + 0.7152f * s[1] + 0.0722f * s[2];
            float Z = 0.0193f * s[0] + 0.1192f * s[1] + 0.9505f * s[2];
            float fx = lab_f(X / 0.95047f), fy = lab_f(Y), fz = lab_f(Z / 1.08883f);
            float *o = lab + ((size_t)y * w + x) * 3;
            o[0] = 116.0f * fy - 16.0f;
            o[1] = 500.0f * (fx - fy);
            o[2] = 200.0f * (fy - fz);
        }
    free(lin);
    return lab;
}

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int golden_delta_e(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, float *per_pixel,
                   golden_delta *out)
{
    memset(out, 0, sizeof *out);
    size_t n = (size_t)w * h;
    float *la = to_lab(a, w, h), *lb = to_lab(b, w, h), *de = malloc((n ? n : 1) * sizeof *de);
    int rc = la && lb && de ? 0 : -1;
    if (!rc && n) {
        double sum = 0;
        for (size_t i = 0; i < n; i++) {
            float d0 = la[i * 3] - lb[i * 3], d1 = la[i * 3 + 1] - lb[i * 3 + 1],
                  d2 = la[i * 3 + 2] - lb[i * 3 + 2];
            de[i] = sqrtf(d0 * d0 + d1 * d1 + d2 * d2);
            sum += de[i];
        }
        if (per_pixel) memcpy(per_pixel, de, n * sizeof *de);
        qsort(de, n, sizeof *de, by_value);
        out->mean = sum / (double)n;
        out->p99 = de[(size_t)((double)(n - 1) * 0.99)];
        out->max = de[n - 1];
    }
    free(la);
    free(lb);
    free(de);
    return rc;
}

int golden_within(const golden_delta *d)
{
    return d->mean <= GOLDEN_MAX_MEAN_DE && d->p99 <= GOLDEN_MAX_P99_DE;
}

void golden_diff_picture(const float *per_pixel, uint32_t w, uint32_t h, uint8_t *rgb)
{
    for (size_t i = 0; i < (size_t)w * h; i++) {
        float t = per_pixel[i] / 10.0f; /* 0 .. 1 at ΔE 10 */
        t = t > 1.0f ? 1.0f : t;
        /* black -> red -> yellow -> white */
        float r = t * 3.0f, g = t * 3.0f - 1.0f, b = t * 3.0f - 2.0f;
        rgb[i * 3] = (uint8_t)lrintf((r > 1 ? 1 : r) * 255.0f);
        rgb[i * 3 + 1] = (uint8_t)lrintf((g < 0 ? 0 : g > 1 ? 1 : g) * 255.0f);
        rgb[i * 3 + 2] = (uint8_t)lrintf((b < 0 ? 0 : b) * 255.0f);
    }
}
