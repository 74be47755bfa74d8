/* anim_track.c — copying, constancy, resampling, densifying and the error measure of animation
 * tracks (see anim_track.h; docs/animation.md). Key reduction is in anim_reduce.c. */
#include "process/anim_track.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

size_t kiln_anim_track_stride(const kiln_anim_track *t)
{
    return t->interpolation == KILN_CLIP_INTERP_CUBICSPLINE ? 3 * (size_t)t->components
                                                            : t->components;
}

kiln_anim_keys kiln_anim_track_keys(const kiln_anim_track *t)
{
    kiln_anim_keys k = {(const uint8_t *)t->times,
                        (const uint8_t *)t->values,
                        t->key_count,
                        t->components,
                        t->interpolation,
                        t->path};
    return k;
}

void kiln_anim_track_free(const kiln_allocator *a, kiln_anim_track *t)
{
    if (!t) return;
    kiln_free(a, t->times, (size_t)t->key_count * sizeof *t->times);
    kiln_free(a, t->values, (size_t)t->key_count * kiln_anim_track_stride(t) * sizeof *t->values);
    memset(t, 0, sizeof *t);
}

kiln_result kiln_anim_track_alloc(const kiln_allocator *a, uint32_t path, uint32_t interp,
                                  uint32_t components, size_t keys, kiln_anim_track *out,
                                  kiln_error *err)
{
    memset(out, 0, sizeof *out);
    if (keys == 0 || keys > KILN_ANIM_MAX_TRACK_KEYS)
        return kiln_error_set(err, KILN_E_LIMIT, "animation track of %zu keys (at most %u)", keys,
                              KILN_ANIM_MAX_TRACK_KEYS);
    out->path = path;
    out->interpolation = interp;
    out->components = components;
    size_t stride = kiln_anim_track_stride(out), nv;
    if (!kiln_size_mul(keys, stride, &nv) || nv > KILN_ANIM_MAX_TRACK_FLOATS)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "animation track of %zu keys of %u floats (at "
                              "most %u floats)",
                              keys, components, KILN_ANIM_MAX_TRACK_FLOATS);
    out->times = kiln_calloc(a, keys, sizeof *out->times);
    out->values = kiln_calloc(a, nv, sizeof *out->values);
    if (!out->times || !out->values) {
        kiln_free(a, out->times, keys * sizeof *out->times);
        kiln_free(a, out->values, nv * sizeof *out->values);
        memset(out, 0, sizeof *out);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "animation track of %zu keys", keys);
    }
    out->key_count = (uint32_t)keys;
    return KILN_OK;
}

kiln_result kiln_anim_track_from_channel(const kiln_allocator *a, const kiln_scene_channel *ch,
                                         kiln_anim_track *out, kiln_error *err)
{
    kiln_result r = kiln_anim_track_alloc(a, (uint32_t)ch->path, (uint32_t)ch->interpolation,
                                          ch->components, ch->key_count, out, err);
    if (r != KILN_OK) return r;
    memcpy(out->times, ch->times, (size_t)ch->key_count * sizeof *out->times);
    memcpy(out->values, ch->values,
           (size_t)ch->key_count * kiln_anim_track_stride(out) * sizeof *out->values);
    return KILN_OK;
}

kiln_result kiln_anim_track_copy(const kiln_allocator *a, const kiln_anim_track *in,
                                 kiln_anim_track *out, kiln_error *err)
{
    kiln_result r = kiln_anim_track_alloc(a, in->path, in->interpolation, in->components,
                                          in->key_count, out, err);
    if (r != KILN_OK) return r;
    memcpy(out->times, in->times, (size_t)in->key_count * sizeof *out->times);
    memcpy(out->values, in->values,
           (size_t)in->key_count * kiln_anim_track_stride(in) * sizeof *out->values);
    return KILN_OK;
}

bool kiln_anim_track_is_constant(const kiln_anim_track *t, double tol)
{
    size_t stride = kiln_anim_track_stride(t), n = t->components;
    bool cubic = t->interpolation == KILN_CLIP_INTERP_CUBICSPLINE;
    bool rotation = t->path == KILN_CLIP_PATH_ROTATION && n == 4;
    const float *first = t->values + (cubic ? n : 0);
    for (uint32_t k = 0; k < t->key_count; k++) {
        const float *key = t->values + k * stride; /* cubic: in-tangent, value, out-tangent */
        const float *v = key + (cubic ? n : 0);
        double sign = 1.0;
        if (rotation) {
            double d = 0;
            for (size_t c = 0; c < 4; c++) d += (double)v[c] * first[c];
            if (d < 0) sign = -1.0;
        }
        for (size_t c = 0; c < n; c++) {
            double limit = tol * fmax(1.0, fabs((double)first[c]));
            if (!(fabs(v[c] - sign * first[c]) <= limit)) return false;
            if (cubic && !(fabs((double)key[c]) <= limit && fabs((double)key[2 * n + c]) <= limit))
                return false;
        }
    }
    return true;
}

kiln_result kiln_anim_track_first_key(const kiln_allocator *a, const kiln_anim_track *in,
                                      kiln_anim_track *out, kiln_error *err)
{
    kiln_result r =
        kiln_anim_track_alloc(a, in->path, KILN_CLIP_INTERP_STEP, in->components, 1, out, err);
    if (r != KILN_OK) return r;
    kiln_anim_keys k = kiln_anim_track_keys(in);
    out->times[0] = in->times[0];
    kiln_anim_key_value(&k, 0, out->values);
    return KILN_OK;
}

/* Flips each rotation key whose dot product with the previous key is negative (same rotation). */
static void one_hemisphere(kiln_anim_track *t)
{
    if (t->path != KILN_CLIP_PATH_ROTATION || t->components != 4) return;
    for (uint32_t k = 1; k < t->key_count; k++) {
        float *p = t->values + (size_t)(k - 1) * 4, *q = t->values + (size_t)k * 4;
        double d =
            (double)p[0] * q[0] + (double)p[1] * q[1] + (double)p[2] * q[2] + (double)p[3] * q[3];
        if (d < 0)
            for (int c = 0; c < 4; c++) q[c] = -q[c];
    }
}

/* A LINEAR track whose keys are `in` sampled at the given times. */
static kiln_result sample_at(const kiln_allocator *a, const kiln_anim_track *in,
                             const double *times, size_t count, kiln_anim_track *out,
                             kiln_error *err)
{
    kiln_result r = kiln_anim_track_alloc(a, in->path, KILN_CLIP_INTERP_LINEAR, in->components,
                                          count, out, err);
    if (r != KILN_OK) return r;
    kiln_anim_keys k = kiln_anim_track_keys(in);
    for (size_t i = 0; i < count; i++) {
        out->times[i] = (float)times[i];
        kiln_anim_eval(&k, out->times[i], out->values + i * in->components);
    }
    one_hemisphere(out);
    return KILN_OK;
}

kiln_result kiln_anim_track_resample(const kiln_allocator *a, const kiln_anim_track *in,
                                     double start, double fps, kiln_anim_track *out,
                                     kiln_error *err)
{
    memset(out, 0, sizeof *out);
    double t0 = in->times[0], t1 = in->times[in->key_count - 1];
    /* Grid points closer than this to an end are left out: the end itself is a key. */
    const double near = 1e-4 / fps;
    double k0 = ceil((t0 - start) * fps - 1e-9), k1 = floor((t1 - start) * fps + 1e-9);
    double grid = k1 >= k0 ? k1 - k0 + 1 : 0;
    if (grid + 2 > KILN_ANIM_MAX_TRACK_KEYS)
        return kiln_error_set(err, KILN_E_LIMIT, "resampling at %g fps gives over %u keys", fps,
                              KILN_ANIM_MAX_TRACK_KEYS);
    size_t cap = (size_t)grid + 2, n = 0;
    double *times = kiln_alloc(a, cap * sizeof *times);
    if (!times) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "resampling");
    times[n++] = t0;
    /* An integer count: past 2^53, k0 + 1.0 == k0 and a float loop would never end. */
    for (size_t i = 0; i < (size_t)grid; i++) {
        double t = start + (k0 + (double)i) / fps;
        if (t > t0 + near && t < t1 - near) times[n++] = t;
    }
    if (t1 > t0) times[n++] = t1;
    kiln_result r = sample_at(a, in, times, n, out, err);
    kiln_free(a, times, cap * sizeof *times);
    return r;
}

kiln_result kiln_anim_track_densify(const kiln_allocator *a, const kiln_anim_track *in,
                                    uint32_t per_segment, kiln_anim_track *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    if (per_segment == 0) per_segment = 1;
    uint64_t cap64 = (uint64_t)(in->key_count - 1) * per_segment + 1;
    if (cap64 * in->components > KILN_ANIM_MAX_DENSE_FLOATS)
        return kiln_error_set(err, KILN_E_LIMIT, "densifying gives over %u values",
                              KILN_ANIM_MAX_DENSE_FLOATS);
    size_t cap = (size_t)cap64, n = 0;
    double *times = kiln_alloc(a, cap * sizeof *times);
    if (!times) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "densifying");
    for (uint32_t k = 0; k + 1 < in->key_count; k++) {
        double ta = in->times[k], tb = in->times[k + 1];
        times[n++] = ta;
        if (!(tb > ta)) continue;
        for (uint32_t j = 1; j < per_segment; j++) {
            float t = (float)(ta + (tb - ta) * j / per_segment);
            if (t > times[n - 1] && t < tb) times[n++] = t; /* distinct after rounding to float */
        }
    }
    times[n++] = in->times[in->key_count - 1];
    kiln_result r = sample_at(a, in, times, n, out, err);
    kiln_free(a, times, cap * sizeof *times);
    return r;
}

double kiln_anim_value_error(uint32_t path, uint32_t components, const float *value,
                             const float *reference)
{
    double worst = 0;
    if (path == KILN_CLIP_PATH_ROTATION && components == 4) {
        double a[4], b[4], na = 0, nb = 0;
        for (int c = 0; c < 4; c++) {
            a[c] = value[c], b[c] = reference[c];
            na += a[c] * a[c], nb += b[c] * b[c];
        }
        na = sqrt(na), nb = sqrt(nb);
        if (!(na > 0) || !(nb > 0)) return na == nb ? 0 : 3.14159265358979323846;
        double minus = 0, plus = 0;
        for (int c = 0; c < 4; c++) {
            double x = a[c] / na, y = b[c] / nb;
            minus += (x - y) * (x - y);
            plus += (x + y) * (x + y);
        }
        double chord = sqrt(fmin(minus, plus));
        return 4.0 * asin(fmin(1.0, chord / 2.0));
    }
    for (uint32_t c = 0; c < components; c++) {
        double d = fabs((double)value[c] - reference[c]);
        if (path == KILN_CLIP_PATH_SCALE)
            d /= fmax(fabs((double)reference[c]), KILN_ANIM_SCALE_ERROR_FLOOR);
        if (!(d <= worst)) worst = d; /* NaN propagates as the worst */
    }
    return worst;
}

/* The error at every key time of `at` and 7 points inside each of its intervals. */
static double error_over(const kiln_anim_track *at, const kiln_anim_keys *tk,
                         const kiln_anim_keys *rk, float *va, float *vb)
{
    double worst = 0;
    for (uint32_t k = 0; k < at->key_count; k++) {
        double ta = at->times[k];
        double tb = k + 1 < at->key_count ? at->times[k + 1] : ta;
        for (int j = 0; j < 8; j++) {
            if (j > 0 && !(tb > ta)) break;
            float t = (float)(ta + (tb - ta) * j / 8.0);
            kiln_anim_eval(tk, t, va);
            kiln_anim_eval(rk, t, vb);
            double e = kiln_anim_value_error(at->path, at->components, va, vb);
            if (!(e <= worst)) worst = e;
        }
    }
    return worst;
}

/* A constant (one key) against a STEP or LINEAR reference of translations, weights or scales,
 * where the error is exact from the reference's keys alone: between two keys a linear value
 * moves along a segment, and the largest per-component distance from a fixed value along a
 * segment is at one of its ends; for scales (distance relative to the reference's size), the
 * same holds while each component keeps one sign and stays above the floor at both keys, since
 * |c / r - 1| is then monotonic along the segment. The constant tracks the cook collapses are
 * measured this way (the sampled measure evaluated both tracks 8 times per key). false: not such
 * a pair; *out is untouched. */
static bool constant_error_from_keys(const kiln_anim_track *track, const kiln_anim_track *reference,
                                     double *out)
{
    if (track->key_count != 1 || reference->interpolation == KILN_CLIP_INTERP_CUBICSPLINE ||
        track->interpolation == KILN_CLIP_INTERP_CUBICSPLINE ||
        track->path == KILN_CLIP_PATH_ROTATION)
        return false;
    uint32_t n = reference->components;
    const float *c = track->values;
    if (track->path == KILN_CLIP_PATH_SCALE)
        for (uint32_t k = 0; k < reference->key_count; k++)
            for (uint32_t i = 0; i < n; i++) {
                float r = reference->values[(size_t)k * n + i], r0 = reference->values[i];
                if (!(fabsf(r) >= KILN_ANIM_SCALE_ERROR_FLOOR) || (r < 0) != (r0 < 0)) return false;
            }
    double worst = 0;
    for (uint32_t k = 0; k < reference->key_count; k++) {
        double e = kiln_anim_value_error(track->path, n, c, reference->values + (size_t)k * n);
        if (!(e <= worst)) worst = e; /* NaN propagates */
    }
    *out = worst;
    return true;
}

kiln_result kiln_anim_track_error(const kiln_allocator *a, const kiln_anim_track *track,
                                  const kiln_anim_track *reference, double *out, kiln_error *err)
{
    *out = 0;
    if (KILN_NEVER(track->components != reference->components || track->path != reference->path))
        return kiln_error_set(err, KILN_E_INTERNAL, "comparing tracks of different shapes");
    if (constant_error_from_keys(track, reference, out)) return KILN_OK;
    size_t n = track->components;
    float *va = kiln_alloc(a, 2 * n * sizeof *va);
    if (!va) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "measuring animation error");
    kiln_anim_keys tk = kiln_anim_track_keys(track), rk = kiln_anim_track_keys(reference);
    double e1 = error_over(track, &tk, &rk, va, va + n);
    double e2 = error_over(reference, &tk, &rk, va, va + n);
    *out = e1 >= e2 ? e1 : e2;
    if (isnan(e1) || isnan(e2)) *out = NAN;
    kiln_free(a, va, 2 * n * sizeof *va);
    return KILN_OK;
}
