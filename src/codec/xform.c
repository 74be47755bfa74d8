/* xform.c — see xform.h: 4x4 matrices, TRS compose/decompose, quaternions and slerp. */
#include "codec/xform.h"

#include <math.h>
#include <string.h>

void kiln_mat4_identity(float m[16])
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

void kiln_mat4d_identity(double m[16])
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1.0;
}

bool kiln_mat4_is_identity(const float m[16])
{
    for (int i = 0; i < 16; i++)
        if (m[i] != (i % 5 == 0 ? 1.0f : 0.0f)) return false;
    return true;
}

void kiln_mat4_mul(const float a[16], const float b[16], float out[16])
{
    float r[16];
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++) s += a[k * 4 + row] * b[col * 4 + k];
            r[col * 4 + row] = s;
        }
    memcpy(out, r, sizeof r);
}

void kiln_mat4d_mul(const double a[16], const double b[16], double out[16])
{
    double r[16];
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++) {
            double s = 0.0;
            for (int k = 0; k < 4; k++) s += a[k * 4 + row] * b[col * 4 + k];
            r[col * 4 + row] = s;
        }
    memcpy(out, r, sizeof r);
}

void kiln_mat4_compose(const float t[3], const float q[4], const float s[3], float m[16])
{
    float x = q[0], y = q[1], z = q[2], w = q[3];
    float r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                  2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                  2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
    for (int col = 0; col < 3; col++) {
        for (int row = 0; row < 3; row++) m[col * 4 + row] = r[col * 3 + row] * s[col];
        m[col * 4 + 3] = 0.0f;
    }
    m[12] = t[0], m[13] = t[1], m[14] = t[2], m[15] = 1.0f;
}

/* Shepperd's method: the largest of w, x, y, z is taken from the diagonal (no cancellation), the
 * other three from sums and differences of the off-diagonal elements divided by it. */
static void shepperd(const float c[3][3], float q[4])
{
    float tr = c[0][0] + c[1][1] + c[2][2];
    if (tr > 0) {
        float k = sqrtf(tr + 1.0f) * 2;
        q[3] = 0.25f * k, q[0] = (c[1][2] - c[2][1]) / k, q[1] = (c[2][0] - c[0][2]) / k,
        q[2] = (c[0][1] - c[1][0]) / k;
    } else if (c[0][0] > c[1][1] && c[0][0] > c[2][2]) {
        float k = sqrtf(1.0f + c[0][0] - c[1][1] - c[2][2]) * 2;
        q[3] = (c[1][2] - c[2][1]) / k, q[0] = 0.25f * k, q[1] = (c[1][0] + c[0][1]) / k,
        q[2] = (c[2][0] + c[0][2]) / k;
    } else if (c[1][1] > c[2][2]) {
        float k = sqrtf(1.0f + c[1][1] - c[0][0] - c[2][2]) * 2;
        q[3] = (c[2][0] - c[0][2]) / k, q[0] = (c[1][0] + c[0][1]) / k, q[1] = 0.25f * k,
        q[2] = (c[2][1] + c[1][2]) / k;
    } else {
        float k = sqrtf(1.0f + c[2][2] - c[0][0] - c[1][1]) * 2;
        q[3] = (c[0][1] - c[1][0]) / k, q[0] = (c[2][0] + c[0][2]) / k,
        q[1] = (c[2][1] + c[1][2]) / k, q[2] = 0.25f * k;
    }
}

void kiln_quat_from_rotation(const float c[3][3], float q[4])
{
    float raw[4];
    shepperd(c, raw);
    double d[4] = {raw[0], raw[1], raw[2], raw[3]};
    kiln_quat_normalize_d(d, q);
}

void kiln_quat_from_rotation_f(const float c[3][3], float q[4])
{
    shepperd(c, q);
    kiln_quat_normalize(q);
}

/* T and S of an affine matrix and its rotation as columns, a mirror moved into scale x. */
static void split_affine(const float m[16], float t[3], float c[3][3], float s[3])
{
    t[0] = m[12], t[1] = m[13], t[2] = m[14];
    for (int col = 0; col < 3; col++) {
        const float *v = m + col * 4;
        float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        s[col] = len;
        for (int row = 0; row < 3; row++) c[col][row] = len > 0 ? v[row] / len : 0.0f;
    }
    float det = c[0][0] * (c[1][1] * c[2][2] - c[2][1] * c[1][2]) -
                c[1][0] * (c[0][1] * c[2][2] - c[2][1] * c[0][2]) +
                c[2][0] * (c[0][1] * c[1][2] - c[1][1] * c[0][2]);
    if (det < 0) {
        s[0] = -s[0];
        for (int row = 0; row < 3; row++) c[0][row] = -c[0][row];
    }
}

void kiln_mat4_decompose(const float m[16], float t[3], float q[4], float s[3])
{
    float c[3][3];
    split_affine(m, t, c, s);
    kiln_quat_from_rotation(c, q);
}

void kiln_mat4_decompose_f(const float m[16], float t[3], float q[4], float s[3])
{
    float c[3][3];
    split_affine(m, t, c, s);
    kiln_quat_from_rotation_f(c, q);
}

float kiln_quat_normalize(float q[4])
{
    float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(len > 0) || !isfinite(len)) {
        q[0] = q[1] = q[2] = 0.0f;
        q[3] = 1.0f;
    } else {
        for (int i = 0; i < 4; i++) q[i] /= len;
    }
    return len;
}

void kiln_quat_normalize_d(const double q[4], float out[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0) || !isfinite(n)) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    for (int c = 0; c < 4; c++) out[c] = (float)(q[c] / n);
}

void kiln_quat_mul(const float a[4], const float b[4], float out[4])
{
    float r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out, r, sizeof r);
}

void kiln_quat_slerp(const float a[4], const float b[4], double u, float out[4])
{
    double qa[4], qb[4], na = 0, nb = 0;
    for (int c = 0; c < 4; c++) {
        qa[c] = a[c];
        qb[c] = b[c];
        na += qa[c] * qa[c];
        nb += qb[c] * qb[c];
    }
    na = sqrt(na);
    nb = sqrt(nb);
    if (na > 0 && nb > 0)
        for (int c = 0; c < 4; c++) qa[c] /= na, qb[c] /= nb;
    double d = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
    double sign = d < 0 ? -1.0 : 1.0, ad = fabs(d), wa, wb;
    if (ad > 1.0 - 1e-9) {
        wa = 1.0 - u;
        wb = sign * u;
    } else {
        double theta = acos(ad), st = sin(theta);
        wa = sin((1.0 - u) * theta) / st;
        wb = sign * sin(u * theta) / st;
    }
    double q[4];
    for (int c = 0; c < 4; c++) q[c] = wa * qa[c] + wb * qb[c];
    kiln_quat_normalize_d(q, out);
}

void kiln_quat_slerp_f(const float a[4], const float b[4], float u, float out[4])
{
    float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    float sign = 1.0f;
    if (d < 0) d = -d, sign = -1.0f;
    float wa, wb;
    if (d > 0.9995f) {
        wa = 1.0f - u, wb = u;
    } else {
        float theta = acosf(d), st = sinf(theta);
        wa = sinf((1.0f - u) * theta) / st, wb = sinf(u * theta) / st;
    }
    for (int c = 0; c < 4; c++) out[c] = wa * a[c] + sign * wb * b[c];
    kiln_quat_normalize(out);
}
