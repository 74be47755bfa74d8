/* mesh_optimize.c — the ordering passes of the mesh cook (docs/meshes.md, "Optimisation"):
 * triangles for the post-transform vertex cache (meshopt_optimizeVertexCache, Forsyth-like with
 * meshoptimizer's tuned scoring), then for overdraw (meshopt_optimizeOverdraw: clusters that
 * keep the cache efficiency within the threshold, sorted front to back by a view-independent
 * occlusion estimate), then vertices for fetch (meshopt_optimizeVertexFetchRemap: first-use
 * order over every level, so level 0 reads the vertex buffer almost linearly).
 *
 * meshoptimizer 0.18 as Debian builds it keeps its asserts: every precondition is checked here
 * first (triangle lists, indices in range, stride), so bad input is an error, never an abort. */
#include <meshoptimizer.h>
#include <string.h>

#include "process/mesh_private.h"

static bool indices_ok(const uint32_t *indices, size_t count, uint32_t vertex_count)
{
    if (count % 3 != 0) return false;
    for (size_t i = 0; i < count; i++)
        if (indices[i] >= vertex_count) return false;
    return true;
}

kiln_result kiln_mesh_optimize_triangles(kiln_mesh_work *w, uint32_t *indices, size_t index_count,
                                         kiln_mesh_build_stats *stats, kiln_error *err)
{
    if (index_count == 0) return KILN_OK;
    if (KILN_NEVER(!indices_ok(indices, index_count, w->vertex_count)))
        return kiln_error_set(err, KILN_E_INTERNAL, "mesh: index out of range before optimising");
    uint32_t *tmp = kiln_mesh_array(w->alloc, index_count, sizeof *tmp);
    if (!tmp) return kiln_mesh_nomem(err, "vertex cache optimisation");
    uint64_t t0 = kiln_mesh_now_ns();
    meshopt_optimizeVertexCache(tmp, indices, index_count, w->vertex_count);
    uint64_t t1 = kiln_mesh_now_ns();
    float threshold = w->opts->overdraw_threshold;
    if (threshold > 0.0f)
        meshopt_optimizeOverdraw(indices, tmp, index_count, w->positions, w->vertex_count,
                                 3 * sizeof(float), threshold);
    else memcpy(indices, tmp, index_count * sizeof *tmp);
    uint64_t t2 = kiln_mesh_now_ns();
    stats->ns_cache += t1 - t0;
    stats->ns_overdraw += t2 - t1;
    kiln_free(w->alloc, tmp, index_count * sizeof *tmp);
    return KILN_OK;
}

kiln_result kiln_mesh_optimize_fetch(kiln_mesh_work *w, kiln_error *err)
{
    uint32_t nv = w->vertex_count;
    if (nv == 0 || w->index_count == 0) return KILN_OK;
    if (KILN_NEVER(!indices_ok(w->indices, w->index_count, nv)))
        return kiln_error_set(err, KILN_E_INTERNAL, "mesh: index out of range before fetch order");
    const kiln_allocator *a = w->alloc;
    uint32_t *remap = kiln_mesh_array(a, nv, sizeof *remap);
    uint32_t *src = kiln_mesh_array(a, nv, sizeof *src);
    float *pos = kiln_mesh_array(a, nv, 3 * sizeof(float));
    if (!remap || !src || !pos) {
        kiln_free(a, remap, nv * sizeof *remap);
        kiln_free(a, src, nv * sizeof *src);
        kiln_free(a, pos, (size_t)nv * 3 * sizeof(float));
        return kiln_mesh_nomem(err, "vertex fetch optimisation");
    }
    size_t used = meshopt_optimizeVertexFetchRemap(remap, w->indices, w->index_count, nv);
    /* The weld pass kept only vertices level 0 uses, so every vertex is still used. */
    if (KILN_NEVER(used != nv)) {
        kiln_free(a, remap, nv * sizeof *remap);
        kiln_free(a, src, nv * sizeof *src);
        kiln_free(a, pos, (size_t)nv * 3 * sizeof(float));
        return kiln_error_set(err, KILN_E_INTERNAL, "mesh: %zu of %u vertices used", used, nv);
    }
    for (uint32_t v = 0; v < nv; v++) {
        uint32_t n = remap[v];
        src[n] = w->src[v];
        memcpy(pos + (size_t)n * 3, w->positions + (size_t)v * 3, 3 * sizeof(float));
    }
    for (size_t i = 0; i < w->index_count; i++) w->indices[i] = remap[w->indices[i]];
    kiln_free(a, w->src, nv * sizeof *src);
    kiln_free(a, w->positions, (size_t)nv * 3 * sizeof(float));
    kiln_free(a, remap, nv * sizeof *remap);
    w->src = src;
    w->positions = pos;
    return KILN_OK;
}
