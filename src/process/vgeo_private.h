/* vgeo_private.h — what the passes of the DAG build share (vgeo.h). */
#ifndef KILN_PROCESS_VGEO_PRIVATE_H
#define KILN_PROCESS_VGEO_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/alloc.h"
#include "core/error.h"

/* vgeo_group.c: for every vertex the lowest-numbered vertex at the same position (bit for bit),
 * so that edges across attribute seams are one edge. weld has vertex_count entries. */
kiln_result kiln_vgeo_weld(const kiln_allocator *a, const float *positions, uint32_t vertex_count,
                           uint32_t *weld, kiln_error *err);

/* vgeo_group.c: splits count clusters into groups of about group_size neighbours: cluster c's
 * triangles are tris[tri_offset[c] * 3 .. (tri_offset[c] + tri_count[c]) * 3) (vertex ids,
 * welded through weld). Clusters that share more edges are more likely in one group (METIS,
 * edge weights = shared edges). Writes each cluster's group to group_of (0..*group_count-1,
 * numbered in order of their lowest cluster, none empty). Deterministic. */
kiln_result kiln_vgeo_partition(const kiln_allocator *a, const uint32_t *tris,
                                const uint32_t *tri_offset, const uint32_t *tri_count,
                                uint32_t count, const uint32_t *weld, uint32_t group_size,
                                uint32_t *group_of, uint32_t *group_count, kiln_error *err);

/* vgeo_group.c: counts of 64-bit keys (welded edges: lo << 32 | hi) in an open-addressing
 * table sized for at most max_keys distinct keys. UINT64_MAX is not a key. */
typedef struct kiln_vgeo_counter {
    const kiln_allocator *a;
    uint64_t *keys;
    uint32_t *counts;
    size_t mask;
} kiln_vgeo_counter;

bool kiln_vgeo_counter_init(kiln_vgeo_counter *c, const kiln_allocator *a, size_t max_keys);
void kiln_vgeo_counter_clear(kiln_vgeo_counter *c);
/* Adds one to key's count; returns the new count. */
uint32_t kiln_vgeo_counter_add(kiln_vgeo_counter *c, uint64_t key);
uint32_t kiln_vgeo_counter_get(const kiln_vgeo_counter *c, uint64_t key);
void kiln_vgeo_counter_free(kiln_vgeo_counter *c);

static inline uint64_t kiln_vgeo_edge(uint32_t u, uint32_t v)
{
    return u < v ? (uint64_t)u << 32 | v : (uint64_t)v << 32 | u;
}

#endif
