/* cube_equirect.c — an equirectangular panorama resampled into the six faces of a cube.
 *
 * The mapping is three.js's equirectUv (and the glTF Sample Viewer's panorama_to_cubemap):
 * u = 0.5 + atan2(z, x) / (2 pi), v = acos(y) / pi with v = 0 the top row. Each cube texel
 * averages an n x n grid of bilinear reads over its own square, n chosen from the ratio of the
 * texel sizes, so shrinking a large panorama filters instead of skipping texels. Sums are in
 * double in a fixed order; every row depends only on its own index, so any thread count gives
 * the same bits. */
#include "process/cube.h"
#include "process/det_math.h"

#include <math.h>

#include "core/error.h"

#ifdef __clang__ /* no fused multiply-adds: the same bits with every compiler */
#pragma STDC FP_CONTRACT OFF
#endif

#define KILN_PI 3.14159265358979323846

typedef struct equirect_job {
    const float *rgba;
    uint32_t w, h, size, n;
    float *faces;
} equirect_job;

/* Bilinear read at panorama coordinates (u, v) in texel units from the top-left corner:
 * columns wrap around (the panorama closes on itself), rows clamp at the poles. */
static void read_bilinear(const equirect_job *j, double u, double v, double acc[4], double wgt)
{
    double px = u * j->w - 0.5, py = v * j->h - 0.5;
    double fx = floor(px), fy = floor(py);
    double ax = px - fx, ay = py - fy;
    int64_t x0 = (int64_t)fx; /* in [-1, w]: u is in [0, 1] */
    if (x0 < 0) x0 += j->w;
    if (x0 >= (int64_t)j->w) x0 -= j->w;
    int64_t x1 = x0 + 1 == (int64_t)j->w ? 0 : x0 + 1;
    int64_t y0 = (int64_t)fy, y1 = y0 + 1;
    if (y0 < 0) y0 = 0;
    if (y1 < 0) y1 = 0;
    if (y0 >= (int64_t)j->h) y0 = j->h - 1;
    if (y1 >= (int64_t)j->h) y1 = j->h - 1;
    const float *r0 = j->rgba + (size_t)y0 * j->w * 4, *r1 = j->rgba + (size_t)y1 * j->w * 4;
    const float *p00 = r0 + x0 * 4, *p10 = r0 + x1 * 4, *p01 = r1 + x0 * 4, *p11 = r1 + x1 * 4;
    double w00 = (1.0 - ax) * (1.0 - ay) * wgt, w10 = ax * (1.0 - ay) * wgt;
    double w01 = (1.0 - ax) * ay * wgt, w11 = ax * ay * wgt;
    for (int c = 0; c < 4; c++) acc[c] += w00 * p00[c] + w10 * p10[c] + w01 * p01[c] + w11 * p11[c];
}

/* The point of face at (sc, tc) in [-1, 1] on the cube's surface: kiln_cube_dir_d before its
 * normalisation. */
static void face_point(uint32_t face, double sc, double tc, double d[3])
{
    switch (face) {
    case KILN_CUBE_POS_X:
        d[0] = 1.0, d[1] = -tc, d[2] = -sc;
        break;
    case KILN_CUBE_NEG_X:
        d[0] = -1.0, d[1] = -tc, d[2] = sc;
        break;
    case KILN_CUBE_POS_Y:
        d[0] = sc, d[1] = 1.0, d[2] = tc;
        break;
    case KILN_CUBE_NEG_Y:
        d[0] = sc, d[1] = -1.0, d[2] = -tc;
        break;
    case KILN_CUBE_POS_Z:
        d[0] = sc, d[1] = -tc, d[2] = 1.0;
        break;
    default:
        d[0] = -sc, d[1] = -tc, d[2] = -1.0;
        break;
    }
}

static kiln_result equirect_row(void *user, size_t index, size_t worker, kiln_error *err)
{
    (void)worker, (void)err;
    const equirect_job *j = user;
    uint32_t face = (uint32_t)(index / j->size), y = (uint32_t)(index % j->size);
    double inv_size = 1.0 / j->size, inv_n = 1.0 / j->n, wgt = inv_n * inv_n;
    float *row = j->faces + ((size_t)face * j->size + y) * j->size * 4;
    for (uint32_t x = 0; x < j->size; x++) {
        double acc[4] = {0.0, 0.0, 0.0, 0.0};
        for (uint32_t sy = 0; sy < j->n; sy++) {
            double t = ((double)y + ((double)sy + 0.5) * inv_n) * inv_size;
            for (uint32_t sx = 0; sx < j->n; sx++) {
                double s = ((double)x + ((double)sx + 0.5) * inv_n) * inv_size, d[3];
                face_point(face, 2.0 * s - 1.0, 2.0 * t - 1.0, d);
                /* Neither angle needs a unit vector: acos(y / |d|) = atan2(|(x, z)|, y). */
                double u = 0.5 + kiln_det_atan2(d[2], d[0]) * (0.5 / KILN_PI);
                double v = kiln_det_atan2(sqrt(d[0] * d[0] + d[2] * d[2]), d[1]) / KILN_PI;
                read_bilinear(j, u, v, acc, wgt);
            }
        }
        for (int c = 0; c < 4; c++) row[(size_t)x * 4 + c] = (float)acc[c];
    }
    return KILN_OK;
}

uint32_t kiln_cube_face_size_for_equirect(uint32_t w, uint32_t h)
{
    (void)h;
    uint32_t x = w / 4, p = 1;
    if (x <= 1) return 1;
    while (p <= x / 2) p *= 2; /* the largest power of two <= x */
    /* nearest in the log sense: above p * sqrt(2) rounds up */
    if ((uint64_t)x * x >= (uint64_t)2 * p * p) p *= 2;
    return p > 8192 ? 8192 : p;
}

kiln_result kiln_cube_from_equirect(const float *rgba, uint32_t w, uint32_t h, uint32_t size,
                                    kiln_jobs *jobs, float *faces, kiln_error *err)
{
    if (!rgba || !faces || w == 0 || h == 0 || size == 0)
        return kiln_error_set(err, KILN_E_USAGE,
                              "cube from panorama: empty panorama (%ux%u) or face size %u", w, h,
                              size);
    if (size > 16384)
        return kiln_error_set(err, KILN_E_LIMIT, "cube from panorama: face size %u above 16384",
                              size);
    /* The cube texel's mean angular size over the panorama texel's smaller side. */
    double cube_texel = (KILN_PI / 2.0) / size;
    double pano_texel = fmin(2.0 * KILN_PI / w, KILN_PI / h);
    double ratio = ceil(cube_texel / pano_texel - 1e-9);
    uint32_t n = ratio < 1.0 ? 1 : ratio > 16.0 ? 16 : (uint32_t)ratio;
    equirect_job j = {rgba, w, h, size, n, faces};
    return kiln_jobs_for(jobs, (size_t)6 * size, equirect_row, &j, err);
}
