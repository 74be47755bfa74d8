/* anim_eval.c — see anim_eval.h. Shared with the runtime: libc only. */
#include "codec/anim_eval.h"

#include <stdbool.h>

#include "codec/xform.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

/* Float i of a little-endian array at any alignment. */
static float f32_at(const uint8_t *p, size_t i) { return kiln_load_f32le(p + i * 4); }

static uint32_t stride_of(const kiln_anim_keys *k)
{
    return k->interpolation == KILN_CLIP_INTERP_CUBICSPLINE ? 3 * k->components : k->components;
}

/* Where key i's value starts, in floats. */
static size_t value_index(const kiln_anim_keys *k, uint32_t i)
{
    size_t base = (size_t)i * stride_of(k);
    return k->interpolation == KILN_CLIP_INTERP_CUBICSPLINE ? base + k->components : base;
}

uint32_t kiln_anim_find(const kiln_anim_keys *k, float t)
{
    if (!(t >= f32_at(k->times, 0))) return 0; /* before the start, or NaN */
    uint32_t lo = 0, hi = k->key_count;        /* times[lo] <= t; answer in [lo, hi) */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (f32_at(k->times, mid) <= t) lo = mid;
        else hi = mid;
    }
    return lo;
}

void kiln_anim_key_value(const kiln_anim_keys *k, uint32_t i, float *out)
{
    size_t at = value_index(k, i);
    if (k->path == KILN_CLIP_PATH_ROTATION && k->components == 4) {
        double q[4];
        for (int c = 0; c < 4; c++) q[c] = f32_at(k->values, at + c);
        kiln_quat_normalize_d(q, out);
        return;
    }
    for (uint32_t c = 0; c < k->components; c++) out[c] = f32_at(k->values, at + c);
}

/* The rotation key at value index `at`, as stored. */
static void quat_at(const kiln_anim_keys *k, size_t at, float q[4])
{
    for (int c = 0; c < 4; c++) q[c] = f32_at(k->values, at + c);
}

void kiln_anim_eval(const kiln_anim_keys *k, float t, float *out)
{
    uint32_t i = kiln_anim_find(k, t);
    float t0 = f32_at(k->times, i);
    /* Clamped before the first key and after the last; STEP holds the key's value. */
    if (i + 1 >= k->key_count || !(t > t0) || k->interpolation == KILN_CLIP_INTERP_STEP) {
        kiln_anim_key_value(k, i, out);
        return;
    }
    double t1 = f32_at(k->times, i + 1), td = t1 - (double)t0; /* > 0: times[i+1] > t >= t0 */
    double u = ((double)t - t0) / td;
    if (u > 1.0) u = 1.0;
    size_t a_at = value_index(k, i), b_at = value_index(k, i + 1);
    uint32_t n = k->components;
    bool rotation = k->path == KILN_CLIP_PATH_ROTATION && n == 4;
    if (k->interpolation == KILN_CLIP_INTERP_LINEAR) {
        if (rotation) {
            float a[4], b[4];
            quat_at(k, a_at, a);
            quat_at(k, b_at, b);
            kiln_quat_slerp(a, b, u, out);
            return;
        }
        for (uint32_t c = 0; c < n; c++) {
            double a = f32_at(k->values, a_at + c), b = f32_at(k->values, b_at + c);
            out[c] = (float)(a + (b - a) * u);
        }
        return;
    }
    /* CUBICSPLINE: p(u) = h00 v_i + h10 td b_i + h01 v_i+1 + h11 td a_i+1, with b_i the out-tangent
     * of key i (right after its value) and a_i+1 the in-tangent of key i+1 (right before). */
    double u2 = u * u, u3 = u2 * u;
    double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
    size_t out_at = a_at + n, in_at = b_at - n;
    double q[4];
    for (uint32_t c = 0; c < n; c++) {
        double v = h00 * f32_at(k->values, a_at + c) + h10 * td * f32_at(k->values, out_at + c) +
                   h01 * f32_at(k->values, b_at + c) + h11 * td * f32_at(k->values, in_at + c);
        if (rotation) q[c] = v;
        else out[c] = (float)v;
    }
    if (rotation) kiln_quat_normalize_d(q, out);
}
