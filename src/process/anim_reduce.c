/* anim_reduce.c — key reduction of LINEAR and STEP tracks within an error bound (see
 * anim_track.h; docs/animation.md, "Key reduction"). Greedy, left to right: from the last kept
 * key, the segment is stretched one key at a time while the straight line (a slerp for
 * rotations) between its ends reproduces every source key it skips, and for rotations every
 * midpoint between consecutive source keys, within the bound. Deterministic and
 * O(keys × log span) evaluations for smooth tracks, O(keys × span) at worst. */
#include "process/anim_track.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

typedef struct reduce_ctx {
    const kiln_anim_track *in;
    kiln_anim_keys keys; /* of in */
    double bound;
    float seg_times[2]; /* the candidate segment as a two-key track */
    float *seg_values;  /* 2 * components */
    float *got, *want;  /* components each */
} reduce_ctx;

/* Does the line from key a to key e reproduce the skipped keys (and midpoints) within bound? */
static bool segment_fits(reduce_ctx *c, uint32_t a, uint32_t e)
{
    const kiln_anim_track *in = c->in;
    size_t n = in->components;
    c->seg_times[0] = in->times[a];
    c->seg_times[1] = in->times[e];
    memcpy(c->seg_values, in->values + (size_t)a * n, n * sizeof *c->seg_values);
    memcpy(c->seg_values + n, in->values + (size_t)e * n, n * sizeof *c->seg_values);
    kiln_anim_keys seg = {(const uint8_t *)c->seg_times,
                          (const uint8_t *)c->seg_values,
                          2,
                          in->components,
                          KILN_CLIP_INTERP_LINEAR,
                          in->path};
    bool rotation = in->path == KILN_CLIP_PATH_ROTATION;
    for (uint32_t i = a; i < e; i++) {
        if (i > a) {
            kiln_anim_eval(&seg, in->times[i], c->got);
            kiln_anim_key_value(&c->keys, i, c->want);
            if (!(kiln_anim_value_error(in->path, in->components, c->got, c->want) <= c->bound))
                return false;
        }
        if (rotation) { /* slerp against slerp is not linear in time: check between keys too */
            float t = (float)(((double)in->times[i] + in->times[i + 1]) / 2);
            kiln_anim_eval(&seg, t, c->got);
            kiln_anim_eval(&c->keys, t, c->want);
            if (!(kiln_anim_value_error(in->path, in->components, c->got, c->want) <= c->bound))
                return false;
        }
    }
    return true;
}

/* A key that shares its time with a neighbour marks a jump: it stays. */
static bool pinned(const kiln_anim_track *in, uint32_t k)
{
    return (k > 0 && in->times[k] == in->times[k - 1]) ||
           (k + 1 < in->key_count && in->times[k] == in->times[k + 1]);
}

kiln_result kiln_anim_track_reduce(const kiln_allocator *a, const kiln_anim_track *in, double bound,
                                   kiln_anim_track *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    if (KILN_NEVER(in->interpolation == KILN_CLIP_INTERP_CUBICSPLINE))
        return kiln_error_set(err, KILN_E_INTERNAL, "reducing a cubic-spline track");
    uint32_t n = in->key_count;
    size_t comps = in->components;
    uint8_t *keep = kiln_calloc(a, n, 1);
    float *scratch = kiln_alloc(a, 4 * comps * sizeof *scratch);
    if (!keep || !scratch) {
        kiln_free(a, keep, n);
        kiln_free(a, scratch, 4 * comps * sizeof *scratch);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "key reduction");
    }
    reduce_ctx c = {.in = in,
                    .keys = kiln_anim_track_keys(in),
                    .bound = bound,
                    .seg_values = scratch,
                    .got = scratch + 2 * comps,
                    .want = scratch + 3 * comps};
    keep[0] = 1;
    keep[n - 1] = 1;
    if (in->interpolation == KILN_CLIP_INTERP_STEP) {
        uint32_t anchor = 0;
        for (uint32_t k = 1; k + 1 < n; k++) {
            kiln_anim_key_value(&c.keys, anchor, c.want);
            kiln_anim_key_value(&c.keys, k, c.got);
            if (kiln_anim_value_error(in->path, in->components, c.got, c.want) <= bound) continue;
            keep[k] = 1;
            anchor = k;
        }
    } else {
        /* From each kept key, the farthest end that fits: galloping (1, 2, 4, ... keys) then
         * bisection, O(span log span) per segment. A segment never passes a pinned key. */
        uint32_t anchor = 0;
        while (anchor + 1 < n) {
            uint32_t limit =
                anchor + KILN_ANIM_REDUCE_SPAN < n - 1 ? anchor + KILN_ANIM_REDUCE_SPAN : n - 1;
            for (uint32_t k = anchor + 1; k < limit; k++)
                if (pinned(in, k)) {
                    limit = k;
                    break;
                }
            uint32_t ok = anchor + 1,
                     bad = limit + 1; /* fits(anchor, ok); bad does not (or past) */
            for (uint32_t step = 1; ok < limit;) {
                uint32_t e = ok + step < limit ? ok + step : limit;
                if (!segment_fits(&c, anchor, e)) {
                    bad = e;
                    break;
                }
                ok = e;
                step *= 2;
            }
            while (bad - ok > 1 && ok < limit) {
                uint32_t mid = ok + (bad - ok) / 2;
                if (segment_fits(&c, anchor, mid)) ok = mid;
                else bad = mid;
            }
            keep[ok] = 1;
            anchor = ok;
        }
    }
    uint32_t kept = 0;
    for (uint32_t k = 0; k < n; k++) kept += keep[k];
    kiln_result r =
        kiln_anim_track_alloc(a, in->path, in->interpolation, in->components, kept, out, err);
    if (r == KILN_OK) {
        uint32_t w = 0;
        for (uint32_t k = 0; k < n; k++) {
            if (!keep[k]) continue;
            out->times[w] = in->times[k];
            memcpy(out->values + (size_t)w * comps, in->values + (size_t)k * comps,
                   comps * sizeof *out->values);
            w++;
        }
    }
    kiln_free(a, keep, n);
    kiln_free(a, scratch, 4 * comps * sizeof *scratch);
    return r;
}
