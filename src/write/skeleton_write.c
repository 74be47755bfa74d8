/* skeleton_write.c — see skeleton_write.h; the layout is in docs/formats.md, "Skeletons". */
#include "write/skeleton_write.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"
#include "write/container_write.h"

kiln_result kiln_skeleton_write(const kiln_cooked_skeleton *s, const kiln_allocator *alloc,
                                uint8_t **out, size_t *size, kiln_error *err)
{
    if (!s || !out || !size) return kiln_error_set(err, KILN_E_USAGE, "kiln_skeleton_write: NULL");
    *out = NULL;
    *size = 0;
    uint32_t n = s->joint_count;
    if (n == 0 || n > KILN_SKELETON_MAX_JOINT_COUNT || !s->joints || !s->names ||
        s->names_size > UINT32_MAX || !s->slots || (s->pre_count && !s->pre))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_skeleton_write: incomplete skeleton");
    uint8_t header[KILN_SKELETON_HEADER_SIZE] = {0};
    kiln_store_u32le(header + 0, n);
    kiln_store_u32le(header + 4, s->root_count);
    kiln_store_u32le(header + 8, s->pre_count);
    kiln_store_u32le(header + 12, s->skin);
    kiln_store_u32le(header + 16, s->slot_count);
    kiln_store_u32le(header + 20, s->hash_seed);
    kiln_store_u32le(header + 24, s->max_probe);
    kiln_store_u32le(header + 28, s->name_size);

    size_t joints_size = (size_t)n * KILN_SKELETON_JOINT_SIZE;
    size_t pre_size = (size_t)s->pre_count * KILN_SKELETON_MATRIX_SIZE;
    size_t slots_size = (size_t)s->slot_count * KILN_SKELETON_SLOT_SIZE;
    size_t total = 2 * joints_size + pre_size + slots_size; /* joints, inverse binds, pre, slots */
    uint8_t *buf = kiln_calloc(alloc, total, 1);
    if (!buf) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "skeleton: %zu bytes", total);
    uint8_t *joints = buf, *ibms = buf + joints_size, *pres = ibms + joints_size;
    uint8_t *slots = pres + pre_size;
    for (uint32_t j = 0; j < n; j++) {
        const kiln_cooked_joint *jt = &s->joints[j];
        uint8_t *p = joints + (size_t)j * KILN_SKELETON_JOINT_SIZE;
        kiln_store_u32le(p + 0, (uint32_t)jt->parent);
        kiln_store_u32le(p + 4, jt->node);
        kiln_store_u32le(p + 8, jt->skin_joint);
        kiln_store_u32le(p + 12, jt->pre);
        kiln_store_f32le_array(p + 16, jt->translation, 3);
        kiln_store_f32le_array(p + 28, jt->rotation, 4);
        kiln_store_f32le_array(p + 44, jt->scale, 3);
        kiln_store_u32le(p + 56, jt->name_offset);
        kiln_store_u32le(p + 60, jt->name_size);
        kiln_store_f32le_array(ibms + (size_t)j * KILN_SKELETON_MATRIX_SIZE, jt->inverse_bind, 16);
    }
    kiln_store_f32le_array(pres, s->pre, (size_t)s->pre_count * 16);
    for (uint32_t i = 0; i < s->slot_count; i++) {
        kiln_store_u32le(slots + (size_t)i * 8, s->slots[i].joint);
        kiln_store_u32le(slots + (size_t)i * 8 + 4, s->slots[i].hash_hi);
    }

    kiln_container_writer w;
    kiln_container_begin(&w, KILN_SKELETON_KIND, KILN_SKELETON_KIND_VERSION, alloc);
    kiln_result r;
    if (!(r = kiln_container_add(&w, KILN_SKELETON_SECTION_HEADER, KILN_SKELETON_HEADER_SIZE, 1,
                                 header, err)) &&
        !(r = kiln_container_add(&w, KILN_SKELETON_SECTION_JOINTS, KILN_SKELETON_JOINT_SIZE, n,
                                 joints, err)) &&
        !(r = kiln_container_add(&w, KILN_SKELETON_SECTION_INVERSE_BINDS, KILN_SKELETON_MATRIX_SIZE,
                                 n, ibms, err)) &&
        !(r = kiln_container_add(&w, KILN_SKELETON_SECTION_PRE, KILN_SKELETON_MATRIX_SIZE,
                                 s->pre_count, s->pre_count ? pres : NULL, err)) &&
        !(r = kiln_container_add(&w, KILN_SKELETON_SECTION_HASH, KILN_SKELETON_SLOT_SIZE,
                                 s->slot_count, slots, err)) &&
        !(r = kiln_container_add(&w, KILN_SKELETON_SECTION_NAMES, 1, s->names_size, s->names, err)))
        r = kiln_container_finish(&w, out, size, err);
    kiln_free(alloc, buf, total);
    if (r != KILN_OK) return r;
    kiln_skeleton_view v;
    kiln_error check;
    if (kiln_skeleton_read(*out, *size, KILN_CONTAINER_SKIP_CHECKSUM, &v, &check) != KILN_OK) {
        kiln_free(alloc, *out, *size);
        *out = NULL;
        *size = 0;
        return kiln_error_set(err, KILN_E_USAGE, "skeleton refused by its reader: %s",
                              check.message);
    }
    return KILN_OK;
}
