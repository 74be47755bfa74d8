/* assimp_anim.c — baking assimp's keys into kiln clips: every animated property is sampled at
 * a fixed rate (import.fbx.animation_fps) from 0 to the clip's end as LINEAR keys. assimp's FBX
 * reader has already resolved curves into keys of one property each; the fixed rate makes every
 * channel of a clip share times, and the model cook's clip reduction then drops what a straight
 * line between neighbours predicts. */
#include "import/assimp_private.h"

#include <math.h>
#include <string.h>

#include "codec/xform.h"

/* The key at or before t (keys ascending; t within them). */
static uint32_t segment(const assimp_keys *k, double t)
{
    uint32_t lo = 0, hi = k->count - 1;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (k->times[mid] <= t) lo = mid;
        else hi = mid;
    }
    return lo;
}

void kiln_assimp_sample(const assimp_keys *k, uint32_t components, bool rotation, double t,
                        float *out)
{
    const float *v = k->values;
    if (t <= k->times[0] || k->count == 1) {
        memcpy(out, v, components * sizeof *out);
        return;
    }
    if (t >= k->times[k->count - 1]) {
        memcpy(out, v + (size_t)(k->count - 1) * components, components * sizeof *out);
        return;
    }
    uint32_t i = segment(k, t);
    double span = k->times[i + 1] - k->times[i];
    float u = span > 0 ? (float)((t - k->times[i]) / span) : 0.0f;
    const float *a = v + (size_t)i * components, *b = a + components;
    if (rotation) {
        kiln_quat_slerp_f(a, b, u, out);
        return;
    }
    for (uint32_t c = 0; c < components; c++) out[c] = a[c] + (b[c] - a[c]) * u;
}

uint32_t kiln_assimp_bake_count(double duration, uint32_t fps, uint32_t limit)
{
    if (!(duration > 0)) return 1;
    double frames = ceil(duration * fps - 1e-6);
    if (!(frames + 1 <= limit)) return 0;
    return (uint32_t)frames + 1;
}

bool kiln_assimp_bake(kiln_arena *a, const assimp_keys *keys, uint32_t components, bool rotation,
                      double duration, uint32_t fps, uint32_t count, kiln_scene_channel *out)
{
    float *times = kiln_arena_array(a, count, sizeof *times);
    float *values = kiln_arena_array(a, count, (size_t)components * sizeof *values);
    if (!times || !values) return false;
    for (uint32_t i = 0; i < count; i++) {
        double t = i + 1 == count && count > 1 ? duration : (double)i / fps;
        times[i] = (float)t;
        float *v = values + (size_t)i * components;
        kiln_assimp_sample(keys, components, rotation, t, v);
        if (rotation && i > 0) {
            const float *p = v - 4;
            if (p[0] * v[0] + p[1] * v[1] + p[2] * v[2] + p[3] * v[3] < 0)
                for (int c = 0; c < 4; c++) v[c] = -v[c];
        }
    }
    out->interpolation = KILN_SCENE_INTERP_LINEAR;
    out->key_count = count;
    out->components = components;
    out->times = times;
    out->values = values;
    return true;
}
