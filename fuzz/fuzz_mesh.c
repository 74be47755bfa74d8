/* fuzz_mesh.c — libFuzzer target for kiln_mesh_read, kiln_mesh_unpack and kiln_mesh_decode: any
 * input gives an error or a mesh whose every level, meshlet and stream can be used as the
 * runtime would, with every index in range. Checked with the checksum and without it (a fuzzer
 * rarely forges a checksum, and the structural checks alone must hold). Seeds in
 * fuzz/corpus/mesh/ are cooked by kiln (tests/mesh/test_mesh_read.c writes them). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_UNPACK ((uint64_t)64 << 20) /* keep the fuzzer's memory use small */

static void check_decoded(const kiln_mesh_view *v, const kiln_mesh_decoded *d, uint32_t level)
{
    if (d->index_count != v->levels[level].index_count) abort();
    for (uint32_t i = 0; i < d->index_count; i++)
        if (d->indices[i] >= d->vertex_count) abort();
    if (d->joints)
        for (size_t i = 0; i < (size_t)d->vertex_count * 4; i++)
            if (d->joints[i] >= v->joint_count) abort();
}

static void check(const uint8_t *data, size_t size, uint32_t flags)
{
    kiln_mesh_view v;
    kiln_error err;
    kiln_result r = kiln_mesh_read(data, size, flags, &v, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_FORMAT_INVALID && r != KILN_E_FORMAT_VERSION && r != KILN_E_USAGE) abort();
        return;
    }
    if (v.level_count < 1 || v.level_count > KILN_MESH_MAX_LEVELS) abort();
    uint64_t total = 0;
    for (int id = 0; id < KILN_MESH_STREAM_COUNT; id++) {
        const kiln_mesh_stream *s = &v.streams[id];
        if (!s->data) continue;
        if (s->data < data || s->size > size || (size_t)(s->data - data) > size - s->size) abort();
        uint64_t n = s->count * s->stride;
        total += n;
        if (n == 0 || n > MAX_UNPACK) continue;
        uint8_t *buf = malloc((size_t)n);
        if (!buf) continue;
        r = kiln_mesh_unpack(&v, (kiln_mesh_stream_id)id, buf, (size_t)n, &err);
        if (r != KILN_OK && r != KILN_E_FORMAT_INVALID) abort();
        if (r == KILN_OK && !(v.flags & KILN_MESH_COMPRESSED) && memcmp(buf, s->data, (size_t)n))
            abort();
        free(buf);
    }
    for (uint32_t i = 0; i < v.meshlet_count; i++) {
        kiln_meshlet m = kiln_mesh_meshlet(&v, i);
        if ((uint64_t)m.vertex_offset + m.vertex_count > v.meshlet_vertex_count) abort();
        if ((uint64_t)m.triangle_offset + 3ull * m.triangle_count > v.meshlet_triangle_size)
            abort();
        for (uint32_t k = 0; k < 3 * m.triangle_count; k++)
            if (v.meshlet_triangles[m.triangle_offset + k] >= m.vertex_count) abort();
        (void)kiln_mesh_meshlet_bounds(&v, i);
    }
    /* Decoding expands targets to every target (zeros where absent) and vertices to floats. */
    uint64_t expanded =
        (uint64_t)v.vertex_count * (88 + 36ull * v.target_count) + 4ull * v.index_count;
    if (total > MAX_UNPACK || expanded > MAX_UNPACK) return;
    for (uint32_t l = 0; l < v.level_count; l++) {
        const kiln_mesh_lod *lvl = &v.levels[l];
        if ((uint64_t)lvl->index_offset + lvl->index_count > v.index_count) abort();
        if ((uint64_t)lvl->meshlet_offset + lvl->meshlet_count > v.meshlet_count) abort();
        kiln_mesh_decoded d;
        r = kiln_mesh_decode(&v, l, NULL, &d, &err);
        if (r == KILN_OK) check_decoded(&v, &d, l);
        else if (r != KILN_E_FORMAT_INVALID && r != KILN_E_LIMIT && r != KILN_E_OUT_OF_MEMORY)
            abort();
        kiln_mesh_decoded_free(&d);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size, 0);
    check(data, size, KILN_CONTAINER_SKIP_CHECKSUM);
    return 0;
}
