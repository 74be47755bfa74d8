/* cube.c — cube-map face selection and its inverse, texel solid angles and a bilinear read
 * that crosses face edges.
 *
 * Follows the Vulkan spec's "Cube Map Face Selection and Transformations" table:
 *   major axis  face  sc    tc    ma
 *   +x          0     -z    -y    x
 *   -x          1     +z    -y    x
 *   +y          2     +x    +z    y
 *   -y          3     +x    -z    y
 *   +z          4     +x    -y    z
 *   -z          5     -x    -y    z
 * with s = (sc / |ma| + 1) / 2 and t = (tc / |ma| + 1) / 2. */
#include "process/cube.h"
#include "process/det_math.h"

#include <math.h>

#ifdef __clang__ /* no fused multiply-adds: the same bits with every compiler */
#pragma STDC FP_CONTRACT OFF
#endif

void kiln_cube_dir_d(uint32_t face, double s, double t, double dir[3])
{
    double sc = 2.0 * s - 1.0, tc = 2.0 * t - 1.0;
    double x, y, z;
    switch (face) {
    case KILN_CUBE_POS_X:
        x = 1.0, y = -tc, z = -sc;
        break;
    case KILN_CUBE_NEG_X:
        x = -1.0, y = -tc, z = sc;
        break;
    case KILN_CUBE_POS_Y:
        x = sc, y = 1.0, z = tc;
        break;
    case KILN_CUBE_NEG_Y:
        x = sc, y = -1.0, z = -tc;
        break;
    case KILN_CUBE_POS_Z:
        x = sc, y = -tc, z = 1.0;
        break;
    case KILN_CUBE_NEG_Z:
        x = -sc, y = -tc, z = -1.0;
        break;
    default:
        dir[0] = dir[1] = dir[2] = 0.0;
        return;
    }
    double inv = 1.0 / sqrt(x * x + y * y + z * z);
    dir[0] = x * inv;
    dir[1] = y * inv;
    dir[2] = z * inv;
}

void kiln_cube_dir(uint32_t face, float s, float t, float dir[3])
{
    double d[3];
    kiln_cube_dir_d(face, s, t, d);
    for (int i = 0; i < 3; i++) dir[i] = (float)d[i];
}

void kiln_cube_from_dir_d(const double dir[3], uint32_t *face, double *s, double *t)
{
    double x = dir[0], y = dir[1], z = dir[2];
    double ax = fabs(x), ay = fabs(y), az = fabs(z);
    double sc, tc, ma;
    uint32_t f;
    if (ax >= ay && ax >= az) {
        ma = ax;
        f = x >= 0.0 ? KILN_CUBE_POS_X : KILN_CUBE_NEG_X;
        sc = x >= 0.0 ? -z : z;
        tc = -y;
    } else if (ay >= az) {
        ma = ay;
        f = y >= 0.0 ? KILN_CUBE_POS_Y : KILN_CUBE_NEG_Y;
        sc = x;
        tc = y >= 0.0 ? z : -z;
    } else {
        ma = az;
        f = z >= 0.0 ? KILN_CUBE_POS_Z : KILN_CUBE_NEG_Z;
        sc = z >= 0.0 ? x : -x;
        tc = -y;
    }
    if (!(ma > 0.0)) { /* the zero vector (or NaN): the centre of +X */
        *face = KILN_CUBE_POS_X;
        *s = *t = 0.5;
        return;
    }
    *face = f;
    *s = 0.5 * (sc / ma + 1.0);
    *t = 0.5 * (tc / ma + 1.0);
}

void kiln_cube_from_dir(const float dir[3], uint32_t *face, float *s, float *t)
{
    double d[3] = {dir[0], dir[1], dir[2]}, ds, dt;
    kiln_cube_from_dir_d(d, face, &ds, &dt);
    *s = (float)ds;
    *t = (float)dt;
}

/* Solid angle of the face region [-1, u] x [-1, v] minus constants: the antiderivative of the
 * area element du dv / (1 + u^2 + v^2)^(3/2) (Manne Öhrström's derivation, as in cmft). */
static double area_element(double u, double v)
{
    return kiln_det_atan2(u * v, sqrt(u * u + v * v + 1.0));
}

double kiln_cube_texel_solid_angle(uint32_t size, uint32_t x, uint32_t y)
{
    double inv = 2.0 / (double)size;
    double u0 = (double)x * inv - 1.0, u1 = (double)(x + 1) * inv - 1.0;
    double v0 = (double)y * inv - 1.0, v1 = (double)(y + 1) * inv - 1.0;
    return area_element(u0, v0) - area_element(u0, v1) - area_element(u1, v0) +
           area_element(u1, v1);
}

void kiln_cube_texel_solid_angles(uint32_t size, double *out)
{
    double inv = 2.0 / (double)size;
    for (uint32_t y = 0; y < size; y++) {
        double v0 = (double)y * inv - 1.0, v1 = (double)(y + 1) * inv - 1.0;
        double u0 = -1.0, a00 = area_element(u0, v0), a01 = area_element(u0, v1);
        for (uint32_t x = 0; x < size; x++) {
            double u1 = (double)(x + 1) * inv - 1.0;
            double a10 = area_element(u1, v0), a11 = area_element(u1, v1);
            out[(size_t)y * size + x] = a00 - a01 - a10 + a11;
            a00 = a10, a01 = a11;
        }
    }
}

/* Texel (ix, iy) of face, or, off the face, the texel its centre's direction selects. */
static const float *fetch(const float *level, uint32_t size, uint32_t face, int64_t ix, int64_t iy)
{
    if (ix < 0 || iy < 0 || ix >= (int64_t)size || iy >= (int64_t)size) {
        double d[3], s, t;
        kiln_cube_dir_d(face, ((double)ix + 0.5) / size, ((double)iy + 0.5) / size, d);
        kiln_cube_from_dir_d(d, &face, &s, &t);
        double fx = floor(s * size), fy = floor(t * size);
        ix = fx < 0.0 ? 0 : fx >= size ? (int64_t)size - 1 : (int64_t)fx;
        iy = fy < 0.0 ? 0 : fy >= size ? (int64_t)size - 1 : (int64_t)fy;
    }
    return level + (((size_t)face * size + (size_t)iy) * size + (size_t)ix) * 4;
}

void kiln_cube_sample_bilinear(const float *level, uint32_t size, uint32_t face, double s, double t,
                               float rgba[4])
{
    double px = s * size - 0.5, py = t * size - 0.5;
    double fx = floor(px), fy = floor(py);
    double ax = px - fx, ay = py - fy;
    int64_t x0 = (int64_t)fx, y0 = (int64_t)fy;
    const float *p00 = fetch(level, size, face, x0, y0);
    const float *p10 = fetch(level, size, face, x0 + 1, y0);
    const float *p01 = fetch(level, size, face, x0, y0 + 1);
    const float *p11 = fetch(level, size, face, x0 + 1, y0 + 1);
    double w00 = (1.0 - ax) * (1.0 - ay), w10 = ax * (1.0 - ay);
    double w01 = (1.0 - ax) * ay, w11 = ax * ay;
    for (int c = 0; c < 4; c++)
        rgba[c] = (float)(w00 * p00[c] + w10 * p10[c] + w01 * p01[c] + w11 * p11[c]);
}

void kiln_cube_pad(const float *level, uint32_t size, float *padded)
{
    uint32_t p = size + 2;
    for (uint32_t f = 0; f < 6; f++)
        for (uint32_t y = 0; y < p; y++)
            for (uint32_t x = 0; x < p; x++) {
                const float *src = fetch(level, size, f, (int64_t)x - 1, (int64_t)y - 1);
                float *dst = padded + (((size_t)f * p + y) * p + x) * 4;
                for (int c = 0; c < 4; c++) dst[c] = src[c];
            }
}
