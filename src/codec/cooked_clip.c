/* cooked_clip.c — the clip kind: container CLIP (clip_read.c). It names the skeleton it was
 * cooked against: packed with it, not loaded with it (an engine samples a clip against the
 * skeleton it chose; a scene loads both). inspect describes the time range, resampling and
 * reduction, and every track's target, path, interpolation and key count. */
#include "codec/cooked_kind.h"
#include "codec/describe.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view, kiln_error *err)
{
    return kiln_clip_read(data, size, flags, view, err);
}

static kiln_result refs(const void *view, kiln_ref_fn fn, void *user, kiln_error *err)
{
    const kiln_clip_view *v = view;
    return v->skeleton ? fn(user, v->skeleton, KILN_SKELETON_KIND, 0, err) : KILN_OK;
}

static const char *const paths[] = {"translation", "rotation", "scale", "weights"};
static const char *const interps[] = {"linear", "step", "cubicspline"};

static void describe(const void *view, kiln_describe *d)
{
    const kiln_clip_view *v = view;
    kiln_describe_string(d, "name", v->name, v->name_size);
    kiln_describe_id(d, "skeleton", v->skeleton);
    kiln_describe_float(d, "start", v->start);
    kiln_describe_float(d, "end", v->end);
    kiln_describe_bool(d, "resampled", v->flags & KILN_CLIP_RESAMPLED);
    kiln_describe_bool(d, "reduced", v->flags & KILN_CLIP_REDUCED);
    kiln_describe_float(d, "resample_fps", v->resample_fps);
    kiln_describe_floats(d, "max_error", v->max_error, 4);
    kiln_describe_int(d, "source_key_count", (int64_t)v->source_key_count);
    kiln_describe_array(d, "tracks");
    uint64_t keys = 0;
    for (uint32_t i = 0; i < v->track_count; i++) {
        kiln_clip_track t = kiln_clip_track_at(v, i);
        kiln_describe_object(d, NULL);
        kiln_describe_int(d, "node", t.node);
        if (t.flags & KILN_CLIP_TRACK_NODE) kiln_describe_null(d, "joint");
        else kiln_describe_int(d, "joint", t.target);
        kiln_describe_cstring(d, "path", kiln_describe_name(t.path, paths, 4));
        kiln_describe_cstring(d, "interpolation", kiln_describe_name(t.interpolation, interps, 3));
        kiln_describe_int(d, "components", t.components);
        kiln_describe_int(d, "keys", t.key_count);
        keys += t.key_count;
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
    kiln_describe_int(d, "key_count", (int64_t)keys);
}

static const char *const labels[] = {"clip", NULL};

const kiln_cooked_kind kiln_cooked_kind_clip = {
    .name = "clip",
    .fourcc = KILN_CLIP_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_clip_view),
    .read = read,
    .refs = refs,
    .describe = describe,
};
