/* normals.c — angle-weighted vertex normals (see normals.h). The sums are kept in normals_out
 * itself, so the function needs no memory of its own. */
#include "process/normals.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* The angle between a and b, from atan2 of the sine and cosine parts: accurate for angles near
 * 0 and pi, where acos of a dot product is not. */
static double corner_angle(const double a[3], const double b[3])
{
    double c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    double s = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    return atan2(s, d);
}

void kiln_normals_compute(const float *positions, uint32_t vertex_count, const uint32_t *indices,
                          uint32_t index_count, float *normals_out)
{
    for (size_t i = 0; i < (size_t)vertex_count * 3; i++) normals_out[i] = 0.0f;

    for (uint32_t t = 0; t + 3 <= index_count; t += 3) {
        uint32_t v[3] = {indices[t], indices[t + 1], indices[t + 2]};
        if (v[0] >= vertex_count || v[1] >= vertex_count || v[2] >= vertex_count) continue;
        if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) continue;
        double p[3][3];
        bool finite = true;
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++) {
                p[k][c] = positions[(size_t)v[k] * 3 + c];
                if (!isfinite(p[k][c])) finite = false;
            }
        if (!finite) continue;
        double e[3][3]; /* e[k] = p[k+1] - p[k] */
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++) e[k][c] = p[(k + 1) % 3][c] - p[k][c];
        /* (p1 - p0) x (p2 - p0) = e[0] x -e[2]: the counter-clockwise front side. */
        double n[3] = {e[0][2] * e[2][1] - e[0][1] * e[2][2], e[0][0] * e[2][2] - e[0][2] * e[2][0],
                       e[0][1] * e[2][0] - e[0][0] * e[2][1]};
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(len > 0.0) || !isfinite(len)) continue;
        for (int c = 0; c < 3; c++) n[c] /= len;
        for (int k = 0; k < 3; k++) {
            /* The corner at p[k] lies between e[k] (towards p[k+1]) and -e[k-1] (towards p[k-1]).
             */
            const double *out_edge = e[k];
            const double *in_edge = e[(k + 2) % 3];
            double back[3] = {-in_edge[0], -in_edge[1], -in_edge[2]};
            double w = corner_angle(out_edge, back);
            float *dst = normals_out + (size_t)v[k] * 3;
            for (int c = 0; c < 3; c++) dst[c] += (float)(n[c] * w);
        }
    }

    for (uint32_t i = 0; i < vertex_count; i++) {
        float *dst = normals_out + (size_t)i * 3;
        double x = dst[0], y = dst[1], z = dst[2];
        double len = sqrt(x * x + y * y + z * z);
        /* A float sum cannot overflow here (each term is at most pi per triangle), but it can
         * cancel to nothing; below 1e-12 the direction is noise. */
        if (!(len > 1e-12) || !isfinite(len)) {
            dst[0] = 0.0f;
            dst[1] = 0.0f;
            dst[2] = 1.0f;
            continue;
        }
        dst[0] = (float)(x / len);
        dst[1] = (float)(y / len);
        dst[2] = (float)(z / len);
    }
}
