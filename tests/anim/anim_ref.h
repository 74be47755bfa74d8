/* anim_ref.h — what the animation tests check kiln against, written here from the glTF 2.0
 * specification and not shared with kiln: track interpolation (appendix "Interpolation"), the
 * per-path error metric of docs/animation.md, matrices, and a world-from-joints composition. */
#ifndef KILN_TEST_ANIM_REF_H
#define KILN_TEST_ANIM_REF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kiln/kiln_scene.h"

/* glTF interpolation of a scene channel at time t, in double: clamp outside the keys; the last
 * key whose time is <= t wins (a linear scan, unlike kiln's binary search). */
static inline void ref_sample(const kiln_scene_channel *ch, double t, double *out)
{
    uint32_t n = ch->components, K = ch->key_count;
    int cubic = ch->interpolation == KILN_SCENE_INTERP_CUBICSPLINE;
    uint32_t stride = cubic ? 3 * n : n, voff = cubic ? n : 0;
    uint32_t k = 0;
    for (uint32_t i = 0; i < K; i++)
        if ((double)ch->times[i] <= t) k = i;
    const float *v0 = ch->values + (size_t)k * stride + voff;
    int rot = ch->path == KILN_SCENE_PATH_ROTATION;
    if (k + 1 >= K || t <= ch->times[k] || ch->interpolation == KILN_SCENE_INTERP_STEP) {
        for (uint32_t c = 0; c < n; c++) out[c] = v0[c];
    } else {
        const float *v1 = ch->values + (size_t)(k + 1) * stride + voff;
        double td = (double)ch->times[k + 1] - ch->times[k], u = (t - ch->times[k]) / td;
        if (ch->interpolation == KILN_SCENE_INTERP_LINEAR && rot) {
            double a[4], b[4], la = 0, lb = 0, d = 0;
            for (int c = 0; c < 4; c++)
                a[c] = v0[c], b[c] = v1[c], la += a[c] * a[c], lb += b[c] * b[c];
            for (int c = 0; c < 4; c++) a[c] /= sqrt(la), b[c] /= sqrt(lb), d += a[c] * b[c];
            double s = d < 0 ? -1 : 1, ang = acos(fmin(1.0, fabs(d)));
            for (int c = 0; c < 4; c++)
                out[c] = ang < 1e-9
                             ? (1 - u) * a[c] + s * u * b[c]
                             : (sin((1 - u) * ang) * a[c] + s * sin(u * ang) * b[c]) / sin(ang);
        } else if (ch->interpolation == KILN_SCENE_INTERP_LINEAR) {
            for (uint32_t c = 0; c < n; c++) out[c] = (1 - u) * v0[c] + u * v1[c];
        } else {
            const float *b0 = v0 + n, *a1 = v1 - n; /* out-tangent of k, in-tangent of k+1 */
            double u2 = u * u, u3 = u2 * u;
            for (uint32_t c = 0; c < n; c++)
                out[c] = (2 * u3 - 3 * u2 + 1) * v0[c] + (u3 - 2 * u2 + u) * td * b0[c] +
                         (-2 * u3 + 3 * u2) * v1[c] + (u3 - u2) * td * a1[c];
        }
    }
    if (rot) {
        double l = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int c = 0; c < 4; c++) out[c] /= l;
    }
}

/* The error of docs/animation.md: translation/weights absolute, scale relative with a floor of
 * 0.01, rotation the angle between the rotations (via acos of |dot|, unlike kiln's chord form). */
static inline double ref_error(kiln_scene_path path, uint32_t n, const float *got,
                               const double *want)
{
    double worst = 0;
    if (path == KILN_SCENE_PATH_ROTATION) {
        double lg = 0, lw = 0, d = 0;
        for (int c = 0; c < 4; c++) lg += (double)got[c] * got[c], lw += want[c] * want[c];
        for (int c = 0; c < 4; c++) d += got[c] / sqrt(lg) * want[c] / sqrt(lw);
        return 2 * acos(fmin(1.0, fabs(d)));
    }
    for (uint32_t c = 0; c < n; c++) {
        double e = fabs(got[c] - want[c]);
        if (path == KILN_SCENE_PATH_SCALE) e /= fmax(fabs(want[c]), 0.01);
        if (e > worst) worst = e;
    }
    return worst;
}

static inline void ref_mat_mul(const double *a, const double *b, double *out)
{
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int w = 0; w < 4; w++) {
            double v = 0;
            for (int k = 0; k < 4; k++) v += a[k * 4 + w] * b[c * 4 + k];
            r[c * 4 + w] = v;
        }
    memcpy(out, r, sizeof r);
}

/* Column-major T * R * S. */
static inline void ref_trs(const float *t, const float *q, const float *s, double *m)
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                   2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                   2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
    memset(m, 0, 16 * sizeof *m);
    for (int c = 0; c < 3; c++)
        for (int w2 = 0; w2 < 3; w2++) m[c * 4 + w2] = r[c * 3 + w2] * s[c];
    m[12] = t[0], m[13] = t[1], m[14] = t[2], m[15] = 1;
}

#endif
