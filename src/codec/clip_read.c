/* clip_read.c — kiln_clip_read, kiln_clip_track_at and kiln_clip_sample: validating and sampling
 * a cooked clip (kiln_format.h; the bytes are in docs/formats.md, "Clips"; sampling follows
 * glTF 2.0 through format/anim_eval.c). Shared with the runtime: libc only. */
#include <math.h>
#include <string.h>

#include "codec/anim_eval.h"
#include "core/error.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

#define HEADER_ID   KILN_FOURCC('C', 'L', 'H', 'D')
#define TRACKS_ID   KILN_FOURCC('T', 'R', 'A', 'K')
#define TIMES_ID    KILN_FOURCC('T', 'I', 'M', 'E')
#define VALUES_ID   KILN_FOURCC('V', 'A', 'L', 'U')
#define NAME_ID     KILN_FOURCC('N', 'A', 'M', 'E')
#define HEADER_SIZE 64
#define TRACK_SIZE  32
#define NONE        0xFFFFFFFFu

/* What kiln_error_bad_bytes names in the message of every fault this file reports. */
static const char k_format[] = "cooked clip";

static kiln_clip_track decode_track(const uint8_t *p)
{
    kiln_clip_track t;
    memset(&t, 0, sizeof t);
    t.target = kiln_load_u32le(p);
    t.node = kiln_load_u32le(p + 4);
    t.path = p[8];
    t.interpolation = p[9];
    t.flags = kiln_load_u16le(p + 10);
    t.components = kiln_load_u32le(p + 12);
    t.key_count = kiln_load_u32le(p + 16);
    t.time_offset = kiln_load_u32le(p + 20);
    t.value_offset = kiln_load_u32le(p + 24);
    return t;
}

static kiln_result check_track(const kiln_clip_view *v, uint32_t i, kiln_error *err)
{
    const uint8_t *p = v->tracks + (size_t)i * TRACK_SIZE;
    uint64_t at = (uint64_t)(p - v->container.bytes);
    kiln_clip_track t = decode_track(p);
    if (t.path > KILN_CLIP_PATH_WEIGHTS)
        return kiln_error_bad_bytes(err, k_format, at + 8, "unknown track path");
    if (t.interpolation > KILN_CLIP_INTERP_CUBICSPLINE)
        return kiln_error_bad_bytes(err, k_format, at + 9, "unknown interpolation");
    if (t.flags & ~(uint32_t)KILN_CLIP_TRACK_NODE)
        return kiln_error_bad_bytes(err, k_format, at + 10, "unknown track flags");
    if (kiln_load_u32le(p + 28))
        return kiln_error_bad_bytes(err, k_format, at + 28, "reserved track bytes are not zero");
    if (!(t.flags & KILN_CLIP_TRACK_NODE) && t.target >= v->skeleton_joint_count)
        return kiln_error_bad_bytes(err, k_format, at,
                                    "a joint target is not below the skeleton's joint count");
    uint32_t want = t.path == KILN_CLIP_PATH_ROTATION ? 4 : 3;
    if (t.path == KILN_CLIP_PATH_WEIGHTS
            ? t.components == 0 || t.components > KILN_CLIP_MAX_COMPONENTS
            : t.components != want)
        return kiln_error_bad_bytes(err, k_format, at + 12, "wrong component count for the path");
    if (t.key_count == 0)
        return kiln_error_bad_bytes(err, k_format, at + 16, "a track without keys");
    if ((uint64_t)t.time_offset + t.key_count > v->time_count)
        return kiln_error_bad_bytes(err, k_format, at + 20, "key times run past the TIME section");
    uint64_t floats = (uint64_t)t.key_count * t.components *
                      (t.interpolation == KILN_CLIP_INTERP_CUBICSPLINE ? 3u : 1u);
    if ((uint64_t)t.value_offset + floats > v->value_count)
        return kiln_error_bad_bytes(err, k_format, at + 24, "values run past the VALU section");
    const uint8_t *times = v->times + (size_t)t.time_offset * 4;
    float prev = v->start;
    for (uint32_t k = 0; k < t.key_count; k++) {
        float tk = kiln_load_f32le(times + (size_t)k * 4);
        if (!(tk >= prev) || !(tk <= v->end)) /* NaN fails both */
            return kiln_error_bad_bytes(
                err, k_format, (uint64_t)(times - v->container.bytes) + (uint64_t)k * 4,
                "key times are not finite, non-decreasing and within [start, end]");
        prev = tk;
    }
    return KILN_OK;
}

static kiln_result read_clip(const void *data, size_t size, uint32_t flags, kiln_clip_view *out,
                             kiln_error *err)
{
    kiln_container *c = &out->container;
    kiln_result r = kiln_container_read(data, size, flags, c, err);
    if (r != KILN_OK) return r;
    if (c->kind != KILN_CLIP_KIND)
        return kiln_error_bad_bytes(err, k_format, 8, "the container is not of kind CLIP");
    if (c->kind_version != KILN_CLIP_KIND_VERSION) {
        kiln_error_set(err, KILN_E_FORMAT_VERSION,
                       "cooked clip version %u; this kiln reads version %u: cook again",
                       c->kind_version, KILN_CLIP_KIND_VERSION);
        kiln_error_at_offset(err, 12);
        return KILN_E_FORMAT_VERSION;
    }
    if (c->section_count != 5)
        return kiln_error_bad_bytes(err, k_format, 32, "a clip has exactly five sections");
    kiln_container_section hs, ts, tm, vs, ns;
    if (!kiln_container_find(c, HEADER_ID, HEADER_SIZE, &hs) || hs.count != 1)
        return kiln_error_bad_bytes(err, k_format, 64, "no CLHD section of one 64-byte header");
    if (!kiln_container_find(c, TRACKS_ID, TRACK_SIZE, &ts) ||
        !kiln_container_find(c, TIMES_ID, 4, &tm) || !kiln_container_find(c, VALUES_ID, 4, &vs) ||
        !kiln_container_find(c, NAME_ID, 1, &ns))
        return kiln_error_bad_bytes(err, k_format, 64,
                                    "a section is missing or has the wrong element size");
    const uint8_t *h = hs.data;
    uint64_t hoff = (uint64_t)(h - c->bytes);
    out->skeleton = kiln_load_u64le(h);
    out->skin = kiln_load_u32le(h + 8);
    out->skeleton_joint_count = kiln_load_u32le(h + 12);
    out->track_count = kiln_load_u32le(h + 16);
    out->flags = kiln_load_u32le(h + 20);
    out->start = kiln_load_f32le(h + 24);
    out->end = kiln_load_f32le(h + 28);
    out->resample_fps = kiln_load_f32le(h + 32);
    uint32_t name_size = kiln_load_u32le(h + 36);
    for (int p = 0; p < 4; p++) out->max_error[p] = kiln_load_f32le(h + 40 + 4 * p);
    out->source_key_count = kiln_load_u64le(h + 56);
    if (out->flags & ~(uint32_t)(KILN_CLIP_RESAMPLED | KILN_CLIP_REDUCED))
        return kiln_error_bad_bytes(err, k_format, hoff + 20, "unknown clip flags");
    if (out->skin == NONE ? out->skeleton_joint_count != 0
                          : out->skeleton_joint_count == 0 ||
                                out->skeleton_joint_count > KILN_SKELETON_MAX_JOINT_COUNT)
        return kiln_error_bad_bytes(err, k_format, hoff + 12,
                                    "skeleton joint count does not fit the skin");
    if (!isfinite(out->start) || !isfinite(out->end) || out->start > out->end)
        return kiln_error_bad_bytes(err, k_format, hoff + 24,
                                    "start and end are not finite with start <= end");
    float fps = out->resample_fps;
    if (!(fps == 0 || (fps >= 1 && fps <= 1000)))
        return kiln_error_bad_bytes(err, k_format, hoff + 32, "resample_fps is not 0 or 1 .. 1000");
    for (int p = 0; p < 4; p++)
        if (!(out->max_error[p] >= 0) || !isfinite(out->max_error[p]))
            return kiln_error_bad_bytes(err, k_format, hoff + 40 + 4 * (uint64_t)p,
                                        "a measured error is negative or not finite");
    if (ts.count != out->track_count)
        return kiln_error_bad_bytes(err, k_format, hoff + 16, "TRAK count differs from the header");
    if (ns.count != (uint64_t)name_size + 1)
        return kiln_error_bad_bytes(err, k_format, hoff + 36, "NAME size differs from the header");
    out->name = (const char *)ns.data;
    out->name_size = name_size;
    if (out->name[name_size] != '\0' || memchr(out->name, '\0', name_size))
        return kiln_error_bad_bytes(err, k_format, (uint64_t)(ns.data - c->bytes),
                                    "the name is not one NUL-terminated string");
    out->tracks = ts.data;
    out->times = tm.data;
    out->time_count = tm.count;
    out->values = vs.data;
    out->value_count = vs.count;
    for (uint64_t i = 0; i < vs.count; i++)
        if (!isfinite(kiln_load_f32le(vs.data + i * 4)))
            return kiln_error_bad_bytes(err, k_format, (uint64_t)(vs.data - c->bytes) + i * 4,
                                        "a value is not finite");
    for (uint32_t i = 0; i < out->track_count; i++)
        if ((r = check_track(out, i, err))) return r;
    return KILN_OK;
}

KILN_API kiln_result kiln_clip_read(const void *data, size_t size, uint32_t flags,
                                    kiln_clip_view *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_clip_read: no output");
    memset(out, 0, sizeof *out);
    kiln_result r = read_clip(data, size, flags, out, err);
    if (r != KILN_OK) memset(out, 0, sizeof *out);
    return r;
}

KILN_API kiln_clip_track kiln_clip_track_at(const kiln_clip_view *v, uint32_t i)
{
    if (!v || i >= v->track_count) {
        kiln_clip_track t;
        memset(&t, 0, sizeof t);
        return t;
    }
    return decode_track(v->tracks + (size_t)i * TRACK_SIZE);
}

KILN_API uint32_t kiln_clip_sample(const kiln_clip_view *v, uint32_t track, float time, float *out)
{
    if (!v || !out || track >= v->track_count) return 0;
    kiln_clip_track t = decode_track(v->tracks + (size_t)track * TRACK_SIZE);
    kiln_anim_keys k = {v->times + (size_t)t.time_offset * 4,
                        v->values + (size_t)t.value_offset * 4,
                        t.key_count,
                        t.components,
                        t.interpolation,
                        t.path};
    kiln_anim_eval(&k, time, out);
    return t.components;
}
