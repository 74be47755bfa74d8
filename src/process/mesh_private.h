/* mesh_private.h — the state the mesh passes share while kiln_mesh_build runs (mesh.h). */
#ifndef KILN_PROCESS_MESH_PRIVATE_H
#define KILN_PROCESS_MESH_PRIVATE_H

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "core/error.h"
#include "process/mesh.h"

/* The vertex streams are encoded first, in their stored formats, for every vertex of the
 * primitive the index list uses (encoded[]); welding compares those bytes, so two vertices that
 * the stored mesh could not tell apart become one. From then on a vertex is identified by the
 * primitive's vertex it copies (src): every reordering pass permutes src and the positions, and
 * morph deltas, skin data and UVs follow through src in the same order by construction. */
typedef struct kiln_mesh_work {
    const kiln_allocator *alloc;
    const kiln_scene_primitive *prim;
    const kiln_mesh_build_opts *opts;
    kiln_cooked_mesh *out;               /* formats, bounds, ranges and warnings go here */
    uint8_t *encoded[KILN_MESH_INDICES]; /* per primitive vertex, stride out->streams[].stride */
    uint8_t *used;                       /* per primitive vertex: referenced by the index list */
    uint32_t vertex_count;
    uint32_t *src;    /* vertex_count: the primitive's vertex each vertex copies */
    float *positions; /* 3 * vertex_count, finite */
    /* Every level's triangles, level 0 first, each level one range. */
    uint32_t *indices;
    size_t index_count, index_capacity;
    uint32_t level_count;
    kiln_mesh_lod levels[KILN_MESH_MAX_LEVELS];
    float extent; /* meshopt_simplifyScale of the positions */
} kiln_mesh_work;

void kiln_mesh_work_free(kiln_mesh_work *w);

/* mesh_quantize.c: checks the indices, marks the used vertices and encodes their vertex
 * streams (w->encoded) with the quantization box, UV ranges, skin influences and formats
 * stored in w->out. */
kiln_result kiln_mesh_encode_vertices(kiln_mesh_work *w, kiln_error *err);

/* mesh_weld.c: welds vertices equal in every encoded stream and every morph delta, drops
 * degenerate and duplicate triangles, keeps the vertices still used in first-use order. Fills
 * src, positions, indices (level 0) and the weld/clean statistics. */
kiln_result kiln_mesh_weld(kiln_mesh_work *w, kiln_mesh_build_stats *stats, kiln_error *err);

/* mesh_optimize.c: reorders the triangles of one index range for the post-transform cache,
 * then (threshold > 0) for overdraw. */
kiln_result kiln_mesh_optimize_triangles(kiln_mesh_work *w, uint32_t *indices, size_t index_count,
                                         kiln_mesh_build_stats *stats, kiln_error *err);
/* mesh_optimize.c: renumbers the vertices in the order all levels' indices first use them. */
kiln_result kiln_mesh_optimize_fetch(kiln_mesh_work *w, kiln_error *err);

/* mesh_lod.c: appends the simplified levels after level 0. */
kiln_result kiln_mesh_build_lods(kiln_mesh_work *w, kiln_mesh_build_stats *stats, kiln_error *err);

/* mesh_meshlet.c: meshlets of every level into out (meshlets, bounds, vertices, triangles) and
 * each level's meshlet range in out->levels. */
kiln_result kiln_mesh_build_meshlets(const kiln_mesh_work *w, kiln_cooked_mesh *out,
                                     kiln_error *err);

/* mesh_quantize.c: the vertex streams of out gathered from w->encoded in the final vertex
 * order, the indices, and the morph targets. */
kiln_result kiln_mesh_write_streams(const kiln_mesh_work *w, kiln_cooked_mesh *out,
                                    kiln_error *err);

/* mesh_compress.c: meshopt-encodes every non-empty stream of out (packed, packed_size). */
kiln_result kiln_mesh_compress_streams(kiln_cooked_mesh *out, kiln_error *err);

/* An array of count elements of size bytes from alloc, NULL on overflow or failure. Zeroed. */
/* memcpy of one vertex's bytes of a stream: strides are 4, 8, 12 or 16 bytes almost always, and
 * a constant size is a move or two where a variable one is a library call per vertex. */
static inline void kiln_mesh_copy_vertex(uint8_t *dst, const uint8_t *src, size_t size)
{
    switch (size) {
    case 4:
        memcpy(dst, src, 4);
        break;
    case 8:
        memcpy(dst, src, 8);
        break;
    case 12:
        memcpy(dst, src, 12);
        break;
    case 16:
        memcpy(dst, src, 16);
        break;
    default:
        memcpy(dst, src, size);
        break;
    }
}

static inline void *kiln_mesh_array(const kiln_allocator *a, size_t count, size_t size)
{
    if (count == 0 || size == 0) return NULL;
    return kiln_calloc(a, count, size);
}

/* CPU time of the calling thread: every pass runs on it, and on a shared machine wall time
 * measures the neighbours. */
/* meshoptimizer's scratch memory comes from `a` on this thread until kiln_meshopt_leave (given
 * what enter returned); see mesh_alloc.c. */
const kiln_allocator *kiln_meshopt_enter(const kiln_allocator *a);
void kiln_meshopt_leave(const kiln_allocator *previous);

static inline uint64_t kiln_mesh_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline kiln_result kiln_mesh_nomem(kiln_error *err, const char *what)
{
    return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "mesh: out of memory for %s", what);
}

#endif
