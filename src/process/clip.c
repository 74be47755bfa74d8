/* clip.c — kiln_clip_build (see clip.h; docs/animation.md): per channel, check it, map its
 * target, collapse it when constant, resample and reduce it when asked (with the reduction's
 * error checked by measurement and the bound tightened until it holds), measure the error
 * against the source channel, and append its keys to the clip (equal key times stored once). */
#include "process/clip.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/hash.h"
#include "process/anim_track.h"

#define NONE            0xFFFFFFFFu
#define REDUCE_ATTEMPTS 4   /* bound, bound/2, bound/4, bound/8 */
#define DENSIFY_SAMPLES 16u /* per cubic key interval in the first attempt; doubled each retry */

typedef struct time_set {
    uint64_t hash;
    uint32_t offset, count;
} time_set;

typedef struct clip_ctx {
    const kiln_scene *scene;
    const kiln_allocator *a;
    kiln_error *err;
    kiln_cooked_clip *out;
    double fps, tol;
    bool reduce;
    double bound[4];     /* per kiln_clip_path */
    int32_t *node_joint; /* node -> joint of the skeleton, or -1; NULL without one */
    time_set *sets;      /* one per distinct time array stored */
    uint32_t set_count;
    uint32_t *table;     /* open addressing over sets: index + 1, 0 empty */
    uint32_t table_size; /* a power of two > 2 * channels */
} clip_ctx;

void kiln_cooked_clip_free(kiln_cooked_clip *c)
{
    if (!c) return;
    const kiln_allocator *a = c->alloc;
    if (c->name) kiln_free(a, c->name, c->name_size + 1);
    kiln_free(a, c->tracks, (size_t)c->track_count * sizeof *c->tracks);
    kiln_free(a, c->times, c->time_capacity * sizeof *c->times);
    kiln_free(a, c->values, c->value_capacity * sizeof *c->values);
    memset(c, 0, sizeof *c);
}

static kiln_result check_opts(const kiln_clip_opts *o, clip_ctx *c)
{
    kiln_clip_opts d;
    memset(&d, 0, sizeof d);
    if (o) {
        size_t n = o->struct_size == 0 || o->struct_size > sizeof d ? sizeof d : o->struct_size;
        memcpy(&d, o, n);
    }
    if (!isfinite(d.resample_fps) || d.resample_fps < 0 ||
        (d.resample_fps > 0 && (d.resample_fps < 1 || d.resample_fps > KILN_CLIP_MAX_RESAMPLE_FPS)))
        return kiln_error_set(c->err, KILN_E_USAGE, "clip: resample_fps %g is not 0 or 1 .. 1000",
                              (double)d.resample_fps);
    static const float defaults[4] = {
        KILN_CLIP_DEFAULT_ERROR_TRANSLATION, KILN_CLIP_DEFAULT_ERROR_ROTATION,
        KILN_CLIP_DEFAULT_ERROR_SCALE, KILN_CLIP_DEFAULT_ERROR_WEIGHTS};
    const float fields[4] = {d.max_error.translation, d.max_error.rotation, d.max_error.scale,
                             d.max_error.weights};
    for (int p = 0; p < 4; p++) {
        if (!isfinite(fields[p]) || fields[p] < 0)
            return kiln_error_set(c->err, KILN_E_USAGE, "clip: max_error %d is %g", p,
                                  (double)fields[p]);
        c->bound[p] = d.reduce ? (fields[p] > 0 ? fields[p] : defaults[p]) : 0;
    }
    if (!isfinite(d.constant_tolerance) || d.constant_tolerance < 0 || d.constant_tolerance >= 1)
        return kiln_error_set(c->err, KILN_E_USAGE, "clip: constant_tolerance %g",
                              d.constant_tolerance);
    c->fps = d.resample_fps;
    c->reduce = d.reduce;
    c->tol = d.constant_tolerance > 0 ? d.constant_tolerance : KILN_CLIP_DEFAULT_CONSTANT_TOLERANCE;
    kiln_clip_summary *s = &c->out->summary;
    s->bound.translation = (float)c->bound[0];
    s->bound.rotation = (float)c->bound[1];
    s->bound.scale = (float)c->bound[2];
    s->bound.weights = (float)c->bound[3];
    return KILN_OK;
}

static kiln_result check_channel(clip_ctx *c, uint32_t i, const kiln_scene_channel *ch)
{
    const char *bad = NULL;
    if (ch->node >= c->scene->node_count) bad = "node out of range";
    else if ((uint32_t)ch->path > KILN_CLIP_PATH_WEIGHTS) bad = "unknown path";
    else if ((uint32_t)ch->interpolation > KILN_CLIP_INTERP_CUBICSPLINE)
        bad = "unknown interpolation";
    else if (ch->key_count == 0 || !ch->times || !ch->values) bad = "no keys";
    else if (ch->path == KILN_SCENE_PATH_WEIGHTS
                 ? ch->components == 0 || ch->components > KILN_CLIP_MAX_COMPONENTS
                 : ch->components != (ch->path == KILN_SCENE_PATH_ROTATION ? 4u : 3u))
        bad = "wrong component count for its path";
    if (bad)
        return kiln_error_set(c->err, KILN_E_IMPORT_FAILED, "animation %u channel %u: %s",
                              c->out->animation, i, bad);
    for (uint32_t k = 0; k < ch->key_count; k++)
        if (!isfinite(ch->times[k]) || (k && ch->times[k] < ch->times[k - 1]))
            return kiln_error_set(c->err, KILN_E_IMPORT_FAILED,
                                  "animation %u channel %u: key "
                                  "time %u is not finite or decreasing",
                                  c->out->animation, i, k);
    size_t nv = (size_t)ch->key_count * ch->components *
                (ch->interpolation == KILN_SCENE_INTERP_CUBICSPLINE ? 3 : 1);
    for (size_t k = 0; k < nv; k++)
        if (!isfinite(ch->values[k]))
            return kiln_error_set(c->err, KILN_E_IMPORT_FAILED,
                                  "animation %u channel %u: value "
                                  "%zu is not finite",
                                  c->out->animation, i, k);
    return KILN_OK;
}

/* The same keys bit for bit (then the error is 0 without sampling). */
static bool same_track(const kiln_anim_track *a, const kiln_anim_track *b)
{
    return a->interpolation == b->interpolation && a->key_count == b->key_count &&
           memcmp(a->times, b->times, (size_t)a->key_count * sizeof *a->times) == 0 &&
           memcmp(a->values, b->values,
                  (size_t)a->key_count * kiln_anim_track_stride(a) * sizeof *a->values) == 0;
}

static size_t track_floats(const kiln_anim_track *t)
{
    return (size_t)t->key_count * (1 + kiln_anim_track_stride(t));
}

/* Every key's value within bound of the first's: the cheap test before measuring a one-key
 * track (a key farther away is an error the one-key track would have at that key's time). */
static bool keys_near_first(const kiln_anim_track *t, double bound)
{
    kiln_anim_keys k = kiln_anim_track_keys(t);
    float first[4], v[4];
    if (t->components > 4) return true; /* weights: leave it to the measurement */
    kiln_anim_key_value(&k, 0, first);
    for (uint32_t i = 1; i < t->key_count; i++) {
        kiln_anim_key_value(&k, i, v);
        if (!(kiln_anim_value_error(t->path, t->components, v, first) <= bound)) return false;
    }
    return true;
}

/* Reduction with its result checked by measurement against base: the bound is halved until
 * the measured error holds (REDUCE_ATTEMPTS tries); a result that stores no fewer floats than
 * base ends the search. *got is zeroed when nothing better than base was found. */
static kiln_result reduce_track(clip_ctx *c, const kiln_anim_track *base, kiln_anim_track *got,
                                double *got_error)
{
    memset(got, 0, sizeof *got);
    double bound = c->bound[base->path];
    kiln_result r;
    double e;
    if (base->key_count > 1 && keys_near_first(base, bound)) { /* constant within the bound */
        kiln_anim_track one;
        if ((r = kiln_anim_track_first_key(c->a, base, &one, c->err)) ||
            (r = kiln_anim_track_error(c->a, &one, base, &e, c->err))) {
            kiln_anim_track_free(c->a, &one);
            return r;
        }
        if (e <= bound) {
            *got = one;
            *got_error = e;
            return KILN_OK;
        }
        kiln_anim_track_free(c->a, &one);
    }
    bool cubic = base->interpolation == KILN_CLIP_INTERP_CUBICSPLINE;
    for (int attempt = 0; attempt < REDUCE_ATTEMPTS; attempt++) {
        kiln_anim_track dense = {0}, red;
        const kiln_anim_track *input = base;
        if (cubic) {
            if ((r = kiln_anim_track_densify(c->a, base, DENSIFY_SAMPLES << attempt, &dense,
                                             c->err)))
                return r == KILN_E_LIMIT ? KILN_OK : r; /* too many keys: keep the spline */
            input = &dense;
        }
        r = kiln_anim_track_reduce(c->a, input, bound / (double)(1u << attempt), &red, c->err);
        kiln_anim_track_free(c->a, &dense);
        if (r != KILN_OK) return r;
        /* Not smaller: a tighter retry would keep more keys still, so the track stays. */
        if (track_floats(&red) >= track_floats(base)) {
            kiln_anim_track_free(c->a, &red);
            return KILN_OK;
        }
        if ((r = kiln_anim_track_error(c->a, &red, base, &e, c->err))) {
            kiln_anim_track_free(c->a, &red);
            return r;
        }
        if (e <= bound) {
            *got = red;
            *got_error = e;
            return KILN_OK;
        }
        kiln_anim_track_free(c->a, &red);
    }
    return KILN_OK;
}

/* The cooked form of one source track into *result (owned). *error is its error against src
 * when the cook measured it already, else NAN. */
static kiln_result cook_track(clip_ctx *c, const kiln_anim_track *src, kiln_anim_track *result,
                              double *error)
{
    *error = NAN;
    kiln_clip_summary *s = &c->out->summary;
    kiln_result r;
    memset(result, 0, sizeof *result);
    if (kiln_anim_track_is_constant(src, c->tol)) {
        s->constant_tracks++;
        return kiln_anim_track_first_key(c->a, src, result, c->err);
    }
    kiln_anim_track resampled = {0};
    const kiln_anim_track *base = src;
    /* STEP tracks keep their jumps; a track whose keys share one time is a jump and nothing else.
     */
    if (c->fps > 0 && src->interpolation != KILN_CLIP_INTERP_STEP && src->key_count > 1 &&
        src->times[src->key_count - 1] > src->times[0]) {
        double start = c->out->start;
        if ((r = kiln_anim_track_resample(c->a, src, start, c->fps, &resampled, c->err))) return r;
        base = &resampled;
        s->resampled_tracks++;
        c->out->flags |= KILN_CLIP_RESAMPLED;
    }
    kiln_anim_track reduced = {0};
    double reduced_error = NAN;
    if (c->reduce && (r = reduce_track(c, base, &reduced, &reduced_error))) {
        kiln_anim_track_free(c->a, &resampled);
        return r;
    }
    if (reduced.key_count) {
        s->reduced_tracks++;
        *result = reduced;
        if (base == src) *error = reduced_error; /* measured against src itself */
        kiln_anim_track_free(c->a, &resampled);
        return KILN_OK;
    }
    if (base->interpolation == KILN_CLIP_INTERP_CUBICSPLINE) s->cubic_tracks_kept++;
    if (base == &resampled) {
        *result = resampled;
        return KILN_OK;
    }
    return kiln_anim_track_copy(c->a, src, result, c->err);
}

/* Appends n floats to *arr (growing by doubling); *offset gets where they start. */
static kiln_result append(clip_ctx *c, float **arr, size_t *count, size_t *cap, const float *src,
                          size_t n, uint32_t *offset)
{
    size_t need;
    if (!kiln_size_add(*count, n, &need) || need > UINT32_MAX)
        return kiln_error_set(c->err, KILN_E_LIMIT, "clip: over 2^32 - 1 key floats");
    if (need > *cap) {
        size_t grown = *cap ? *cap : 256;
        while (grown < need) grown = grown > SIZE_MAX / 2 ? need : grown * 2;
        float *p = kiln_realloc(c->a, *arr, *cap * sizeof **arr, grown * sizeof **arr);
        if (!p) return kiln_error_set(c->err, KILN_E_OUT_OF_MEMORY, "clip: keys");
        *arr = p;
        *cap = grown;
    }
    memcpy(*arr + *count, src, n * sizeof *src);
    *offset = (uint32_t)*count;
    *count = need;
    return KILN_OK;
}

/* Stores a track's times once per distinct array: equal times share one range. */
static kiln_result store_times(clip_ctx *c, const kiln_anim_track *t, uint32_t *offset)
{
    kiln_cooked_clip *o = c->out;
    uint64_t h = kiln_xxh3_64(t->times, (size_t)t->key_count * sizeof *t->times);
    uint32_t mask = c->table_size - 1, at = (uint32_t)h & mask;
    for (; c->table[at]; at = (at + 1) & mask) {
        const time_set *s = &c->sets[c->table[at] - 1];
        if (s->hash == h && s->count == t->key_count &&
            memcmp(o->times + s->offset, t->times, (size_t)s->count * sizeof *t->times) == 0) {
            *offset = s->offset;
            return KILN_OK;
        }
    }
    kiln_result r =
        append(c, &o->times, &o->time_count, &o->time_capacity, t->times, t->key_count, offset);
    if (r != KILN_OK) return r;
    c->sets[c->set_count] = (time_set){h, *offset, t->key_count};
    c->table[at] = ++c->set_count;
    return KILN_OK;
}

static kiln_result build(clip_ctx *c, const kiln_cooked_skeleton *skel,
                         const kiln_scene_animation *anim)
{
    const kiln_scene *scene = c->scene;
    kiln_cooked_clip *o = c->out;
    uint32_t n = anim->channel_count;
    if (n && !anim->channels)
        return kiln_error_set(c->err, KILN_E_IMPORT_FAILED, "animation %u: no channels",
                              o->animation);
    if (skel) {
        c->node_joint = kiln_alloc(c->a, (size_t)scene->node_count * sizeof *c->node_joint);
        if (scene->node_count && !c->node_joint)
            return kiln_error_set(c->err, KILN_E_OUT_OF_MEMORY, "clip: node map");
        for (uint32_t i = 0; i < scene->node_count; i++) c->node_joint[i] = -1;
        for (uint32_t j = 0; j < skel->joint_count; j++) {
            if (skel->joints[j].node >= scene->node_count)
                return kiln_error_set(c->err, KILN_E_USAGE,
                                      "clip: the skeleton's joint %u names "
                                      "node %u; the scene has %u",
                                      j, skel->joints[j].node, scene->node_count);
            c->node_joint[skel->joints[j].node] = (int32_t)j;
        }
        o->skin = skel->skin;
        o->skeleton_joint_count = skel->joint_count;
    }
    const char *name = anim->name ? anim->name : "";
    o->name_size = strlen(name);
    o->name = kiln_alloc(c->a, o->name_size + 1);
    if (!o->name) return kiln_error_set(c->err, KILN_E_OUT_OF_MEMORY, "clip: name");
    memcpy(o->name, name, o->name_size + 1);
    if (n == 0) return KILN_OK;

    kiln_result r;
    for (uint32_t i = 0; i < n; i++)
        if ((r = check_channel(c, i, &anim->channels[i]))) return r;
    o->start = anim->channels[0].times[0];
    o->end = anim->channels[0].times[anim->channels[0].key_count - 1];
    for (uint32_t i = 1; i < n; i++) {
        const kiln_scene_channel *ch = &anim->channels[i];
        if (ch->times[0] < o->start) o->start = ch->times[0];
        if (ch->times[ch->key_count - 1] > o->end) o->end = ch->times[ch->key_count - 1];
    }
    o->summary.duration = o->end - o->start;
    o->resample_fps = (float)c->fps;
    if (c->reduce) o->flags |= KILN_CLIP_REDUCED;

    o->tracks = kiln_calloc(c->a, n, sizeof *o->tracks);
    c->sets = kiln_calloc(c->a, n, sizeof *c->sets);
    c->table_size = 4;
    while (c->table_size <= 2 * (uint64_t)n) c->table_size *= 2;
    c->table = kiln_calloc(c->a, c->table_size, sizeof *c->table);
    if (!o->tracks || !c->sets || !c->table)
        return kiln_error_set(c->err, KILN_E_OUT_OF_MEMORY, "clip: %u tracks", n);
    o->track_count = n;
    for (uint32_t i = 0; i < n; i++) {
        const kiln_scene_channel *ch = &anim->channels[i];
        kiln_anim_track src, cooked = {0};
        if ((r = kiln_anim_track_from_channel(c->a, ch, &src, c->err))) return r;
        double e = NAN;
        r = cook_track(c, &src, &cooked, &e);
        if (r == KILN_OK && isnan(e)) { /* not measured yet */
            if (same_track(&cooked, &src)) e = 0;
            else r = kiln_anim_track_error(c->a, &cooked, &src, &e, c->err);
        }
        if (r == KILN_OK) {
            kiln_cooked_track *t = &o->tracks[i];
            int32_t joint = c->node_joint ? c->node_joint[ch->node] : -1;
            t->target = joint >= 0 ? (uint32_t)joint : ch->node;
            t->flags = joint >= 0 ? 0 : KILN_CLIP_TRACK_NODE;
            t->node = ch->node;
            t->path = cooked.path;
            t->interpolation = cooked.interpolation;
            t->components = cooked.components;
            t->key_count = cooked.key_count;
            t->error = (float)e;
            o->summary.keys_before += ch->key_count;
            o->summary.keys_after += cooked.key_count;
            float *worst = ch->path == KILN_SCENE_PATH_TRANSLATION
                               ? &o->summary.max_error.translation
                           : ch->path == KILN_SCENE_PATH_ROTATION ? &o->summary.max_error.rotation
                           : ch->path == KILN_SCENE_PATH_SCALE    ? &o->summary.max_error.scale
                                                                  : &o->summary.max_error.weights;
            if (!((float)e <= *worst)) *worst = (float)e;
            if (!(r = store_times(c, &cooked, &t->time_offset)))
                r = append(c, &o->values, &o->value_count, &o->value_capacity, cooked.values,
                           (size_t)cooked.key_count * kiln_anim_track_stride(&cooked),
                           &t->value_offset);
        }
        kiln_anim_track_free(c->a, &cooked);
        kiln_anim_track_free(c->a, &src);
        if (r != KILN_OK) return r;
    }
    o->summary.tracks = n;
    return KILN_OK;
}

kiln_result kiln_clip_build(const kiln_scene *scene, uint32_t animation,
                            const kiln_cooked_skeleton *skeleton, const kiln_clip_opts *opts,
                            const kiln_allocator *a, kiln_cooked_clip *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_clip_build: no output");
    memset(out, 0, sizeof *out);
    if (!scene || animation >= scene->animation_count)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_clip_build: animation %u of %u", animation,
                              scene ? scene->animation_count : 0);
    out->alloc = a;
    out->animation = animation;
    out->skin = NONE;
    clip_ctx c = {.scene = scene, .a = a, .err = err, .out = out};
    kiln_result r = check_opts(opts, &c);
    if (r == KILN_OK) r = build(&c, skeleton, &scene->animations[animation]);
    kiln_free(a, c.node_joint, (size_t)scene->node_count * sizeof *c.node_joint);
    kiln_free(a, c.sets, (size_t)scene->animations[animation].channel_count * sizeof *c.sets);
    kiln_free(a, c.table, (size_t)c.table_size * sizeof *c.table);
    if (r != KILN_OK) kiln_cooked_clip_free(out);
    return r;
}
