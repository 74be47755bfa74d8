/* mesh_error_fan.h — the wedges of a vertex fan for kiln_mesh_deviation's "fan" bound
 * (mesh_error.c): the planes through the fan's axis that cut space into one wedge per triangle
 * of the fan, computed once per vertex of a tree and kept, within a memory cap, for the many
 * (sub)triangles bounded near that vertex. */
#ifndef KILN_PROCESS_MESH_ERROR_FAN_H
#define KILN_PROCESS_MESH_ERROR_FAN_H

#include <stddef.h>
#include <stdint.h>

#include "core/alloc.h"
#include "process/mesh_error_bvh.h"

/* The most triangles a fan may have to get wedges (more: no fan bound there). */
#define KILN_ERR_FAN_MAX 24

/* One wedge: the points p with from . (p - V) >= 0 and to . (p - V) <= 0, V the fan's vertex,
 * are given triangle tri (a tree index). Consecutive wedges share a plane exactly, so any
 * point lies in one of them. */
typedef struct kiln_err_wedge {
    double from[3], to[3];
    uint32_t tri;
} kiln_err_wedge;

/* A vertex's wedges, or count 0 when its fan is no disc or half-disc (or a wedge would reach
 * a half turn): then the fan bound does not apply. */
typedef struct kiln_err_fan {
    const double *v; /* the vertex */
    const kiln_err_wedge *wedge;
    uint32_t count;
} kiln_err_fan;

/* Per tree: each vertex's wedges once computed, while the pool has room (past it, wedges are
 * computed again at each use into the caller's buffer: the same bytes, so the answers do not
 * depend on the cap). Not thread-safe: one cache per thread working on its tree. */
typedef struct kiln_err_fans {
    const kiln_err_bvh *tree;
    uint32_t *slot; /* per vertex: UINT32_MAX unknown, else (first << 5 | count) */
    kiln_err_wedge *pool;
    size_t used, capacity, vertex_count;
} kiln_err_fans;

/* false: out of memory (nothing to free). */
bool kiln_err_fans_init(const kiln_allocator *alloc, const kiln_err_bvh *tree, kiln_err_fans *f);
void kiln_err_fans_free(const kiln_allocator *alloc, kiln_err_fans *f);

/* The wedges of vertex vtx of the tree; scratch holds them when the pool is full. */
kiln_err_fan kiln_err_fan_of(kiln_err_fans *f, uint32_t vtx,
                             kiln_err_wedge scratch[KILN_ERR_FAN_MAX + 2]);

#endif
