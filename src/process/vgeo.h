/* vgeo.h — building the cluster DAG of one mesh for virtual geometry (docs/virtual_geometry.md):
 * the mesh's triangles split into clusters; repeatedly, neighbouring clusters grouped (METIS,
 * weighted by shared edges), each group simplified to about half with its outer border locked,
 * the result split into clusters again; until one cluster is left or simplification stalls.
 * The result is an in-memory kiln_cooked_vgeo; src/write/vgeo_write.c serializes it
 * (kiln_format.h, "virtual geometry", says what each field means). */
#ifndef KILN_PROCESS_VGEO_H
#define KILN_PROCESS_VGEO_H

#include <stddef.h>
#include <stdint.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/jobs.h"
#include "kiln/kiln_format.h"

typedef struct kiln_vgeo_build_opts {
    uint32_t max_vertices;  /* per cluster: 0 = 64; else 3..255 */
    uint32_t max_triangles; /* per cluster: 0 = 124; else 4..512, a multiple of 4 */
    kiln_jobs *jobs;        /* groups are simplified on it; NULL: on the calling thread */
} kiln_vgeo_build_opts;

/* Build statistics (CPU time of the calling thread and of the jobs, nanoseconds). */
typedef struct kiln_vgeo_build_stats {
    uint64_t ns_total, ns_cluster, ns_group, ns_simplify, ns_error;
    uint32_t stalled_groups; /* groups that could not be simplified by enough (kept a level) */
} kiln_vgeo_build_stats;

typedef struct kiln_cooked_vgeo {
    kiln_allocator allocator;
    uint64_t mesh; /* set by the caller before writing: the mesh artifact's asset id */
    uint32_t vertex_count;
    uint32_t flags; /* KILN_VGEO_STALLED */
    uint32_t level_count;
    uint32_t source_triangles;
    uint32_t max_vertices, max_triangles;
    float extent;
    kiln_vgeo_group *groups;
    uint32_t group_count;
    kiln_meshlet *clusters;
    kiln_vgeo_link *links;
    kiln_meshlet_bounds *bounds;
    uint32_t cluster_count;
    uint32_t *cluster_vertices;
    uint32_t cluster_vertex_count;
    uint8_t *cluster_triangles;
    uint32_t cluster_triangle_size;
    kiln_vgeo_build_stats stats;
} kiln_cooked_vgeo;

/* Builds the DAG of a triangle list over vertex_count vertices (3 floats each, finite; indices
 * in range; the vertices of a cooked mesh, so that clusters index its streams). Attribute
 * seams (several vertices at one position) are kept: they move only together. alloc may be
 * NULL (libc); *out is zeroed first and owns its memory afterwards, also on error.
 * Deterministic: the same input gives the same arrays whatever the pool's thread count.
 * Errors: KILN_E_USAGE, KILN_E_LIMIT, KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_vgeo_build(const float *positions, uint32_t vertex_count, const uint32_t *indices,
                            size_t index_count, const kiln_vgeo_build_opts *opts,
                            const kiln_allocator *alloc, kiln_cooked_vgeo *out, kiln_error *err);

void kiln_cooked_vgeo_free(kiln_cooked_vgeo *v); /* NULL or zeroed: no-op */

#endif
