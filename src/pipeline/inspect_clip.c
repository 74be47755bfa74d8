/* inspect_clip.c — the "clip" summary of a CLIP container (inspect.h): time range, resampling
 * and reduction, and every track's target, path, interpolation and key count, as
 * kiln_clip_read finds them. */
#include "pipeline/inspect.h"

static const char *const paths[] = {"translation", "rotation", "scale", "weights"};
static const char *const interps[] = {"linear", "step", "cubicspline"};

kiln_result kiln_inspect_clip(const uint8_t *data, size_t size, json_t **out, kiln_error *err)
{
    kiln_clip_view v;
    kiln_result r = kiln_clip_read(data, size, 0, &v, err);
    if (r != KILN_OK) return r;
    json_t *j = json_object();
    json_object_set_new(j, "name", kiln_inspect_str(v.name, v.name_size));
    json_object_set_new(j, "skeleton", kiln_inspect_id(v.skeleton));
    json_object_set_new(j, "start", kiln_inspect_f32(v.start));
    json_object_set_new(j, "end", kiln_inspect_f32(v.end));
    json_object_set_new(j, "resampled", json_boolean(v.flags & KILN_CLIP_RESAMPLED));
    json_object_set_new(j, "reduced", json_boolean(v.flags & KILN_CLIP_REDUCED));
    json_object_set_new(j, "resample_fps", kiln_inspect_f32(v.resample_fps));
    json_object_set_new(j, "max_error", kiln_inspect_f32s(v.max_error, 4));
    json_object_set_new(j, "source_key_count", json_integer((json_int_t)v.source_key_count));
    json_t *tracks = json_array();
    uint64_t keys = 0;
    for (uint32_t i = 0; i < v.track_count; i++) {
        kiln_clip_track t = kiln_clip_track_at(&v, i);
        json_t *tj = json_object();
        json_object_set_new(tj, "node", json_integer(t.node));
        json_object_set_new(
            tj, "joint", (t.flags & KILN_CLIP_TRACK_NODE) ? json_null() : json_integer(t.target));
        json_object_set_new(tj, "path", json_string(kiln_inspect_name(t.path, paths, 4)));
        json_object_set_new(tj, "interpolation",
                            json_string(kiln_inspect_name(t.interpolation, interps, 3)));
        json_object_set_new(tj, "components", json_integer(t.components));
        json_object_set_new(tj, "keys", json_integer(t.key_count));
        keys += t.key_count;
        json_array_append_new(tracks, tj);
    }
    json_object_set_new(j, "key_count", json_integer((json_int_t)keys));
    json_object_set_new(j, "tracks", tracks);
    *out = j;
    return KILN_OK;
}
