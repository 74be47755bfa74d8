/* mip.c — box downsampling for texture mip chains and for fitting a maximum size.
 *
 * Level sizes follow KTX 2.0 §4.1 / Vulkan: each level is max(1, floor(size / 2)) of the one
 * above. With an odd size that halving cannot pair every texel, and the usual 2x2 box would
 * drop the last row or column; here each destination texel averages exactly the source area it
 * covers, so a texel on the border contributes to both neighbours with the right share.
 *
 * Weights are integers (overlaps measured in units of 1/dw of a source texel, so the area of
 * destination texel i is [i*sw, (i+1)*sw) and of source texel x is [x*dw, (x+1)*dw)); the sums
 * are done in double in a fixed loop order and rounded to float once. Products of a float and a
 * weight below 2^28 are exact in double, so a constant image stays exactly constant. */
#include "process/mip.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "core/error.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

void kiln_mip_fit(uint32_t width, uint32_t height, uint32_t max_size, uint32_t *out_width,
                  uint32_t *out_height, uint32_t *out_halvings)
{
    uint32_t n = 0;
    if (max_size == 0) max_size = 1;
    while (width > max_size || height > max_size) {
        width = kiln_mip_next_dim(width);
        height = kiln_mip_next_dim(height);
        n++;
    }
    if (out_width) *out_width = width;
    if (out_height) *out_height = height;
    if (out_halvings) *out_halvings = n;
}

void kiln_mip_footprint(uint32_t i, uint32_t src_n, uint32_t dst_n, uint32_t *first,
                        uint32_t *count)
{
    uint64_t lo = (uint64_t)i * src_n; /* in units of 1/dst_n source texel */
    uint64_t hi = ((uint64_t)i + 1) * src_n;
    uint64_t a = lo / dst_n;
    uint64_t b = (hi + dst_n - 1) / dst_n; /* exclusive */
    *first = (uint32_t)a;
    *count = (uint32_t)(b - a);
}

/* Overlap of source texel x with destination texel i, in units of 1/dst_n source texel. */
static uint64_t overlap(uint64_t i, uint64_t x, uint64_t src_n, uint64_t dst_n)
{
    uint64_t lo = i * src_n, hi = (i + 1) * src_n;
    uint64_t xlo = x * dst_n, xhi = (x + 1) * dst_n;
    uint64_t a = lo > xlo ? lo : xlo;
    uint64_t b = hi < xhi ? hi : xhi;
    return b > a ? b - a : 0;
}

/* Alpha as a weight: outside [0, 1] (float sources) it would make weights negative or huge. */
static double alpha_weight(float a)
{
    if (!(a > 0.0f)) return 0.0;
    return a < 1.0f ? (double)a : 1.0;
}

static void filter_color(const float *rows, size_t sw, uint32_t x0, uint32_t xn, uint32_t yn,
                         const uint64_t *wx, const uint64_t *wy, float *out)
{
    double total = 0.0, alpha_sum = 0.0, weight_a = 0.0;
    double pre[3] = {0.0, 0.0, 0.0}, plain[3] = {0.0, 0.0, 0.0};
    for (uint32_t y = 0; y < yn; y++) {
        const float *row = rows + (size_t)y * sw * 4;
        for (uint32_t x = 0; x < xn; x++) {
            const float *p = row + (size_t)(x0 + x) * 4;
            double w = (double)(wx[x] * wy[y]);
            double wa = w * alpha_weight(p[3]);
            total += w;
            alpha_sum += w * (double)p[3];
            weight_a += wa;
            for (int c = 0; c < 3; c++) {
                pre[c] += wa * (double)p[c];
                plain[c] += w * (double)p[c];
            }
        }
    }
    for (int c = 0; c < 3; c++)
        out[c] = (float)(weight_a > 0.0 ? pre[c] / weight_a : plain[c] / total);
    out[3] = (float)(alpha_sum / total);
}

static void filter_normal(const float *rows, size_t sw, uint32_t x0, uint32_t xn, uint32_t yn,
                          const uint64_t *wx, const uint64_t *wy, float *out)
{
    double total = 0.0, alpha_sum = 0.0, v[3] = {0.0, 0.0, 0.0};
    for (uint32_t y = 0; y < yn; y++) {
        const float *row = rows + (size_t)y * sw * 4;
        for (uint32_t x = 0; x < xn; x++) {
            const float *p = row + (size_t)(x0 + x) * 4;
            double w = (double)(wx[x] * wy[y]);
            total += w;
            alpha_sum += w * (double)p[3];
            for (int c = 0; c < 3; c++) v[c] += w * (2.0 * (double)p[c] - 1.0);
        }
    }
    for (int c = 0; c < 3; c++) v[c] /= total;
    /* sqrt is correctly rounded by IEEE 754, so this stays bit-exact across machines. */
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(len >= 1e-6)) {
        /* Opposite normals cancelled (or the data was not a normal map): point straight out
         * rather than amplify noise into an arbitrary direction. */
        v[0] = 0.0;
        v[1] = 0.0;
        v[2] = 1.0;
        len = 1.0;
    }
    for (int c = 0; c < 3; c++) out[c] = (float)(0.5 * (v[c] / len) + 0.5);
    out[3] = (float)(alpha_sum / total);
}

/* A footprint spans at most ceil(src/dst) + 1 texels; halving keeps that at 4, but any
 * ratio up to MAX_SPAN - 1 is accepted. */
#define MAX_SPAN 64u

static bool bad_args(uint32_t sw, uint32_t sh, uint32_t dw, uint32_t dh)
{
    if (KILN_NEVER(dw < 1 || dh < 1 || dw > sw || dh > sh)) return true;
    if (KILN_NEVER((sw + dw - 1) / dw + 1 > MAX_SPAN || (sh + dh - 1) / dh + 1 > MAX_SPAN))
        return true;
    return false;
}

static void downsample_row(const float *rows, uint32_t sw, uint32_t sh, float *dst_row, uint32_t dw,
                           uint32_t dh, uint32_t j, kiln_mip_filter filter)
{
    uint64_t wx[MAX_SPAN], wy[MAX_SPAN];
    uint32_t y0, yn;
    kiln_mip_footprint(j, sh, dh, &y0, &yn);
    for (uint32_t y = 0; y < yn; y++) wy[y] = overlap(j, y0 + y, sh, dh);
    for (uint32_t i = 0; i < dw; i++) {
        uint32_t x0, xn;
        kiln_mip_footprint(i, sw, dw, &x0, &xn);
        for (uint32_t x = 0; x < xn; x++) wx[x] = overlap(i, x0 + x, sw, dw);
        float *out = dst_row + (size_t)i * 4;
        if (filter == KILN_MIP_FILTER_NORMAL) filter_normal(rows, sw, x0, xn, yn, wx, wy, out);
        else filter_color(rows, sw, x0, xn, yn, wx, wy, out);
    }
}

void kiln_mip_downsample_row(const float *rows, uint32_t sw, uint32_t sh, float *dst_row,
                             uint32_t dw, uint32_t dh, uint32_t j, kiln_mip_filter filter)
{
    if (bad_args(sw, sh, dw, dh) || KILN_NEVER(j >= dh)) return;
    downsample_row(rows, sw, sh, dst_row, dw, dh, j, filter);
}

void kiln_mip_downsample(const float *src, uint32_t sw, uint32_t sh, float *dst, uint32_t dw,
                         uint32_t dh, kiln_mip_filter filter)
{
    if (bad_args(sw, sh, dw, dh)) return;
    for (uint32_t j = 0; j < dh; j++) {
        uint32_t y0, yn;
        kiln_mip_footprint(j, sh, dh, &y0, &yn);
        downsample_row(src + (size_t)y0 * sw * 4, sw, sh, dst + (size_t)j * dw * 4, dw, dh, j,
                       filter);
    }
}

bool kiln_mip_downsample_volume(const float *src, uint32_t sw, uint32_t sh, uint32_t sd, float *dst,
                                uint32_t dw, uint32_t dh, uint32_t dd, kiln_mip_filter filter,
                                float *scratch)
{
    if (bad_args(sw, sh, dw, dh) || bad_args(sd, sd, dd, dd)) return false;
    size_t row = (size_t)sw * 4, slice = row * sh;
    uint64_t wx[MAX_SPAN], wyz[MAX_SPAN * MAX_SPAN];
    for (uint32_t k = 0; k < dd; k++) {
        uint32_t z0, zn;
        kiln_mip_footprint(k, sd, dd, &z0, &zn);
        for (uint32_t j = 0; j < dh; j++) {
            uint32_t y0, yn;
            kiln_mip_footprint(j, sh, dh, &y0, &yn);
            /* The rows of every slice in the footprint, gathered into one strip, each weighted by
             * its y overlap times its slice's z overlap: the 2D filters then sum the 3D box. */
            for (uint32_t z = 0; z < zn; z++)
                for (uint32_t y = 0; y < yn; y++) {
                    size_t n = (size_t)z * yn + y;
                    wyz[n] = overlap(j, y0 + y, sh, dh) * overlap(k, z0 + z, sd, dd);
                    memcpy(scratch + n * row, src + (size_t)(z0 + z) * slice + (y0 + y) * row,
                           row * sizeof(float));
                }
            float *out_row = dst + ((size_t)k * dh + j) * (size_t)dw * 4;
            for (uint32_t i = 0; i < dw; i++) {
                uint32_t x0, xn;
                kiln_mip_footprint(i, sw, dw, &x0, &xn);
                for (uint32_t x = 0; x < xn; x++) wx[x] = overlap(i, x0 + x, sw, dw);
                float *out = out_row + (size_t)i * 4;
                if (filter == KILN_MIP_FILTER_NORMAL)
                    filter_normal(scratch, sw, x0, xn, yn * zn, wx, wyz, out);
                else filter_color(scratch, sw, x0, xn, yn * zn, wx, wyz, out);
            }
        }
    }
    return true;
}
