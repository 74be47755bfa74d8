/* kv_math.c — the few 4x4 matrix operations posing and drawing need (column-major, as glTF and
 * GLSL store them: element (row r, column c) at [c * 4 + r]). */
#include <math.h>
#include <string.h>

#include "kv_scene.h"

void kv_mat4_identity(float m[16])
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

void kv_mat4_mul(const float a[16], const float b[16], float out[16])
{
    float r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            double s = 0.0;
            for (int k = 0; k < 4; k++) s += (double)a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = (float)s;
        }
    memcpy(out, r, sizeof r);
}

void kv_mat4_trs(const float t[3], const float q[4], const float s[3], float out[16])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[9] = {
        1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
        2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
        2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y),
    };
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++) out[c * 4 + row] = (float)(r[c * 3 + row] * s[c]);
        out[c * 4 + 3] = 0.0f;
    }
    out[12] = t[0];
    out[13] = t[1];
    out[14] = t[2];
    out[15] = 1.0f;
}

float kv_mat4_det3(const float m[16])
{
    double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6],
           i = m[10];
    return (float)(a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g));
}

bool kv_mat4_normal(const float m[16], float out[16])
{
    double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6],
           i = m[10];
    double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    kv_mat4_identity(out);
    if (!(fabs(det) > 1e-30)) return false;
    /* inverse transpose = cofactor matrix / det */
    double cof[3][3] = {
        {e * i - f * h, -(d * i - f * g), d * h - e * g},
        {-(b * i - c * h), a * i - c * g, -(a * h - b * g)},
        {b * f - c * e, -(a * f - c * d), a * e - b * d},
    };
    /* cof[row][col] of the matrix with rows (a b c), (d e f), (g h i) */
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++) out[col * 4 + row] = (float)(cof[row][col] / det);
    return true;
}

void kv_mat4_point(const float m[16], const float p[3], float out[3])
{
    float r[3];
    for (int row = 0; row < 3; row++)
        r[row] = m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row];
    memcpy(out, r, sizeof r);
}

float kv_mat4_max_scale(const float m[16])
{
    float best = 0.0f;
    for (int c = 0; c < 3; c++) {
        float l =
            sqrtf(m[c * 4] * m[c * 4] + m[c * 4 + 1] * m[c * 4 + 1] + m[c * 4 + 2] * m[c * 4 + 2]);
        if (l > best) best = l;
    }
    return best;
}
