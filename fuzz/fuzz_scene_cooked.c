/* fuzz_scene_cooked.c — libFuzzer target for kiln_cooked_scene_read: any input gives an error or
 * a scene whose every record, read through the accessors, keeps the promises of kiln_format.h:
 * parents before children, subtrees nested, ranges and indices inside their tables, names
 * inside the input and NUL-terminated, ids non-zero, floats finite. Checked with the checksum
 * and without it. Seeds: fuzz/corpus/scene_cooked/, written by tests/cooked_formats
 * (KILN_WRITE_FUZZ_SEEDS=1). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void name_inside(const uint8_t *data, size_t size, const char *name, size_t name_size)
{
    const uint8_t *p = (const uint8_t *)name;
    if (p < data || name_size >= size || (size_t)(p - data) > size - name_size - 1) abort();
    if (name[name_size] != 0 || strlen(name) != name_size) abort();
}

static void check(const uint8_t *data, size_t size, uint32_t flags)
{
    kiln_cooked_scene_view v;
    kiln_error err;
    kiln_result r = kiln_cooked_scene_read(data, size, flags, &v, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_FORMAT_INVALID && r != KILN_E_FORMAT_VERSION && r != KILN_E_USAGE) abort();
        return;
    }
    name_inside(data, size, v.name, v.name_size);
    for (uint32_t i = 0; i < v.node_count; i++) {
        kiln_cooked_node n = kiln_cooked_scene_node(&v, i);
        if (i == 0 ? n.parent != KILN_COOKED_NONE : n.parent >= i) abort();
        if (n.subtree_end <= i || n.subtree_end > v.node_count) abort();
        if (i && n.subtree_end > kiln_cooked_scene_node(&v, n.parent).subtree_end) abort();
        name_inside(data, size, n.name, n.name_size);
        if (n.primitive_count > v.primitive_count - n.first_primitive ||
            n.first_primitive > v.primitive_count)
            abort();
        if (n.weight_count > v.weight_count - n.first_weight || n.first_weight > v.weight_count)
            abort();
        if (n.camera != KILN_COOKED_NONE && n.camera >= v.camera_count) abort();
        if (n.light != KILN_COOKED_NONE && n.light >= v.light_count) abort();
        for (int k = 0; k < 16; k++)
            if (!isfinite(n.matrix[k])) abort();
    }
    for (uint32_t i = 0; i < v.primitive_count; i++)
        if (!kiln_cooked_scene_primitive(&v, i)) abort();
    for (uint32_t i = 0; i < v.clip_count; i++)
        if (!kiln_cooked_scene_clip(&v, i)) abort();
    for (uint32_t i = 0; i < v.weight_count; i++)
        if (!isfinite(kiln_cooked_scene_weight(&v, i))) abort();
    for (uint32_t i = 0; i < v.camera_count; i++) {
        kiln_cooked_camera c = kiln_cooked_scene_camera(&v, i);
        name_inside(data, size, c.name, c.name_size);
        if (c.type > KILN_COOKED_CAMERA_ORTHOGRAPHIC || !isfinite(c.znear)) abort();
    }
    for (uint32_t i = 0; i < v.light_count; i++) {
        kiln_cooked_light l = kiln_cooked_scene_light(&v, i);
        name_inside(data, size, l.name, l.name_size);
        if (l.type > KILN_COOKED_LIGHT_SPOT || !isfinite(l.intensity)) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size, 0);
    check(data, size, KILN_CONTAINER_SKIP_CHECKSUM);
    return 0;
}
