/* meshlet_build_private.h — what the meshlet builder (meshlet_build.c), its vertex preparation
 * (meshlet_build_verts.c) and its restart index (meshlet_build_seed.c) share. */
#ifndef KILN_PROCESS_MESHLET_BUILD_PRIVATE_H
#define KILN_PROCESS_MESHLET_BUILD_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "core/alloc.h"
#include "core/error.h"

/* A triangle's centroid and unit normal (zero when degenerate). */
typedef struct kiln_meshlet_cone {
    float c[3], n[3];
} kiln_meshlet_cone;

/* Local vertex numbers in first-use order (vmap: local -> caller's), for a call whose
 * vertex_count is far larger than what its indices use (one cluster of a large mesh), so the
 * per-vertex tables stay small. */
typedef struct kiln_meshlet_compaction {
    void *block;
    size_t block_size;
    uint32_t *idx, *vmap; /* index_count local indices; vertex_count caller's numbers */
    size_t vertex_count;
} kiln_meshlet_compaction;

/* Fills c (free it with kiln_meshlet_compaction_free, also on error). Errors: KILN_E_USAGE (an
 * index >= vertex_count), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_meshlet_compact(kiln_meshlet_compaction *c, const kiln_allocator *a,
                                 const uint32_t *indices, size_t index_count, size_t vertex_count,
                                 kiln_error *err);
void kiln_meshlet_compaction_free(kiln_meshlet_compaction *c, const kiln_allocator *a);

/* Welds by position: aidx[i] numbers idx[i]'s position, bit for bit, among the *welded_count
 * distinct positions of the nv local vertices (caller's number vmap[l], or l without vmap), in
 * order of first use. Meshes with vertices split by normals or
 * UVs (flat shading, seams) are then one surface for the growth, which otherwise would restart at
 * every split. Errors: KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_meshlet_weld(uint32_t *aidx, size_t *welded_count, const uint32_t *idx,
                              size_t index_count, const float *positions, const uint32_t *vmap,
                              size_t nv, const kiln_allocator *a, kiln_error *err);

/* The triangles in Morton order of their centroids, with "next / previous live one" links that
 * skip emitted triangles (union-find with path compression, so skipping costs O(1) amortized). */
typedef struct kiln_meshlet_seeds {
    const kiln_allocator *alloc;
    uint32_t tri_count;
    uint32_t *code, *order, *next, *prev; /* prev is shifted by one: prev[i + 1] is i's */
    uint32_t *cell_end;                   /* where each cell's triangles end in order */
    uint32_t *rank;                       /* a triangle's place in order */
    float *c;                             /* the centroids, 3 floats a place */
    uint8_t *done;                        /* by place: emitted (kiln_meshlet_seeds_done) */
    float lo[3], scale[3];
    uint32_t bits;         /* of the grid, an axis */
    float cell2;           /* the smallest side of a cell, squared */
    uint32_t spread[1024]; /* i's bits spread to every third bit */
    void *block;
    size_t block_size;
} kiln_meshlet_seeds;

/* Builds the index over tri_count triangles (a grid over their centroids' box; NaN centroids
 * go to its first cell), done[t] != 0 for those already emitted. Errors: KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_meshlet_seeds_build(kiln_meshlet_seeds *s, const kiln_allocator *alloc,
                                     const kiln_meshlet_cone *cone, const uint8_t *done,
                                     uint32_t tri_count, kiln_error *err);

/* Triangle t was emitted (after the build). */
static inline void kiln_meshlet_seeds_done(kiln_meshlet_seeds *s, uint32_t t)
{
    s->done[s->rank[t]] = 1;
}

/* The live triangle nearest p in p's grid cell and the 26 around it; when these are used up,
 * the nearest among the few on either side of p's place in Morton order; UINT32_MAX when none
 * is live. */
uint32_t kiln_meshlet_seeds_nearest(kiln_meshlet_seeds *s, const float p[3]);

void kiln_meshlet_seeds_free(kiln_meshlet_seeds *s);

#endif
