/* vgeo_private.h — what the passes of the DAG build share (vgeo.h). */
#ifndef KILN_PROCESS_VGEO_PRIVATE_H
#define KILN_PROCESS_VGEO_PRIVATE_H

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

#endif
