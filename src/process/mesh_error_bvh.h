/* mesh_error_bvh.h — exact nearest-triangle queries for kiln_mesh_deviation (mesh_error.c): a
 * bounding-volume hierarchy over one triangle list, in doubles, and the exact distance from a
 * point to a triangle. */
#ifndef KILN_PROCESS_MESH_ERROR_BVH_H
#define KILN_PROCESS_MESH_ERROR_BVH_H

#include <stddef.h>
#include <stdint.h>

#include "core/alloc.h"

/* One triangle in tree order: its corners and the (compacted) vertex ids they came from. */
typedef struct kiln_err_tri {
    double p[3][3];
    uint32_t v[3];
} kiln_err_tri;

typedef struct kiln_err_node {
    float lo[3], hi[3]; /* rounded outwards */
    uint32_t first; /* leaf: first triangle; inner: index of the right child (left = this + 1) */
    uint32_t count; /* leaf: triangles (>= 1); inner: 0 */
} kiln_err_node;

typedef struct kiln_err_bvh {
    kiln_err_tri *tris;
    size_t tri_count;
    kiln_err_node *nodes;
    size_t node_count, node_capacity;
    /* The triangles around each vertex (tree indices, in tree order): fan_tris[fan_start[v] ..
     * fan_start[v + 1]), for v < vertex_count. */
    uint32_t *fan_start, *fan_tris;
    size_t vertex_count;
    /* weld[v]: the first vertex at v's position (seams split a position into several). */
    uint32_t *weld;
    /* adj[3 t + j]: the triangle across edge (v[j], v[j + 1 mod 3]) of triangle t, after
     * welding: the one other triangle with that edge, which runs the other way round there;
     * UINT32_MAX on a border, a non-manifold edge or a winding flip. */
    uint32_t *adj;
} kiln_err_bvh;

/* Builds the tree over tri_count triangles (indices < vertex_count into pos, 3 doubles a
 * vertex; tri_count >= 1): triangles sorted by the Morton code of their centroid, ranges
 * split at their highest differing bit down to leaves of at most 4; the triangles around every
 * vertex; and the triangles across every edge. Deterministic. false: out of memory (bvh freed). */
bool kiln_err_bvh_build(const kiln_allocator *alloc, const double *pos, size_t vertex_count,
                        const uint32_t *idx, size_t tri_count, kiln_err_bvh *bvh);
void kiln_err_bvh_free(const kiln_allocator *alloc, kiln_err_bvh *bvh);

/* The squared distance from p to the nearest triangle and that triangle's tree index (*tri).
 * seed: a tree index to start from (the answer for a nearby point makes the search prune at
 * once), or UINT32_MAX. Ties go to the first triangle met, so the answer is deterministic. */
double kiln_err_bvh_nearest(const kiln_err_bvh *bvh, const double p[3], uint32_t seed,
                            uint32_t *tri);

/* The exact squared distance from p to the triangle (a, b, c), degenerate ones included. */
double kiln_err_point_tri_d2(const double p[3], const double a[3], const double b[3],
                             const double c[3]);

#endif
