/* clip_write.c — see clip_write.h; the layout is in docs/formats.md, "Clips". */
#include "write/clip_write.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"
#include "write/container_write.h"

kiln_result kiln_clip_write(const kiln_cooked_clip *c, const kiln_allocator *alloc, uint8_t **out,
                            size_t *size, kiln_error *err)
{
    if (!c || !out || !size) return kiln_error_set(err, KILN_E_USAGE, "kiln_clip_write: NULL");
    *out = NULL;
    *size = 0;
    if (!c->name || (c->track_count && !c->tracks) || (c->time_count && !c->times) ||
        (c->value_count && !c->values) || c->name_size >= UINT32_MAX)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_clip_write: incomplete clip");
    uint8_t header[KILN_CLIP_HEADER_SIZE] = {0};
    kiln_store_u64le(header + 0, c->skeleton_id);
    kiln_store_u32le(header + 8, c->skin);
    kiln_store_u32le(header + 12, c->skeleton_joint_count);
    kiln_store_u32le(header + 16, c->track_count);
    kiln_store_u32le(header + 20, c->flags);
    kiln_store_f32le(header + 24, c->start);
    kiln_store_f32le(header + 28, c->end);
    kiln_store_f32le(header + 32, c->resample_fps);
    kiln_store_u32le(header + 36, (uint32_t)c->name_size);
    kiln_store_f32le(header + 40, c->summary.max_error.translation);
    kiln_store_f32le(header + 44, c->summary.max_error.rotation);
    kiln_store_f32le(header + 48, c->summary.max_error.scale);
    kiln_store_f32le(header + 52, c->summary.max_error.weights);
    kiln_store_u64le(header + 56, c->summary.keys_before);

    size_t tracks_size = (size_t)c->track_count * KILN_CLIP_TRACK_SIZE;
    size_t floats_size = (c->time_count + c->value_count) * 4;
    size_t total = tracks_size + floats_size;
    uint8_t *buf = total ? kiln_calloc(alloc, total, 1) : NULL;
    if (total && !buf) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "clip: %zu bytes", total);
    /* A clip whose channels were all left out has no tracks and no buffer: no pointer
     * arithmetic on NULL then. */
    uint8_t *tracks = buf, *times = buf ? buf + tracks_size : NULL;
    uint8_t *values = times ? times + c->time_count * 4 : NULL;
    for (uint32_t i = 0; i < c->track_count; i++) {
        const kiln_cooked_track *t = &c->tracks[i];
        uint8_t *p = tracks + (size_t)i * KILN_CLIP_TRACK_SIZE;
        kiln_store_u32le(p + 0, t->target);
        kiln_store_u32le(p + 4, t->node);
        p[8] = (uint8_t)t->path;
        p[9] = (uint8_t)t->interpolation;
        kiln_store_u16le(p + 10, (uint16_t)t->flags);
        kiln_store_u32le(p + 12, t->components);
        kiln_store_u32le(p + 16, t->key_count);
        kiln_store_u32le(p + 20, t->time_offset);
        kiln_store_u32le(p + 24, t->value_offset);
    }
    for (size_t i = 0; i < c->time_count; i++) kiln_store_f32le(times + 4 * i, c->times[i]);
    for (size_t i = 0; i < c->value_count; i++) kiln_store_f32le(values + 4 * i, c->values[i]);

    kiln_container_writer w;
    kiln_container_begin(&w, KILN_CLIP_KIND, KILN_CLIP_KIND_VERSION, alloc);
    kiln_result r;
    if (!(r = kiln_container_add(&w, KILN_CLIP_SECTION_HEADER, KILN_CLIP_HEADER_SIZE, 1, header,
                                 err)) &&
        !(r = kiln_container_add(&w, KILN_CLIP_SECTION_TRACKS, KILN_CLIP_TRACK_SIZE, c->track_count,
                                 c->track_count ? tracks : NULL, err)) &&
        !(r = kiln_container_add(&w, KILN_CLIP_SECTION_TIMES, 4, c->time_count,
                                 c->time_count ? times : NULL, err)) &&
        !(r = kiln_container_add(&w, KILN_CLIP_SECTION_VALUES, 4, c->value_count,
                                 c->value_count ? values : NULL, err)) &&
        !(r = kiln_container_add(&w, KILN_CLIP_SECTION_NAME, 1, c->name_size + 1, c->name, err)))
        r = kiln_container_finish(&w, out, size, err);
    kiln_free(alloc, buf, total);
    if (r != KILN_OK) return r;
    kiln_clip_view v;
    kiln_error check;
    if (kiln_clip_read(*out, *size, KILN_CONTAINER_SKIP_CHECKSUM, &v, &check) != KILN_OK) {
        kiln_free(alloc, *out, *size);
        *out = NULL;
        *size = 0;
        return kiln_error_set(err, KILN_E_USAGE, "clip refused by its reader: %s", check.message);
    }
    return KILN_OK;
}
