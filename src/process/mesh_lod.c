/* mesh_lod.c — the level-of-detail chain (docs/meshes.md, "Levels of detail").
 *
 * Each level is simplified from level 0 (not from the level before, so its error is measured
 * against the real surface) with meshopt_simplify to round(fraction * triangles of level 0)
 * triangles, but never fewer than lod_min_triangles, and stops early where meshoptimizer's
 * estimate of its error would pass lod_error (relative to the extent, meshopt_simplifyScale: the
 * largest side of the bounds). That estimate runs low, so the error stored is measured instead:
 * kiln_mesh_deviation, an upper bound on the Hausdorff distance between the level and level 0.
 * A level whose bound passes lod_error x extent is simplified again with a smaller error limit
 * (simplify_within), or dropped. The chain ends at the first level that keeps more than 95 % of
 * the previous level's triangles (it would cost memory and buy nothing), or that is empty.
 *
 * Seams: meshoptimizer 0.18 simplifies by position only, but it is not blind to attribute
 * seams. Its simplifier welds positions internally and classifies every vertex: a vertex that
 * shares its position with another (a UV or normal seam, a "wedge") may only collapse along the
 * seam, onto a seam vertex, and only together with its twin on the other side, so both sides
 * keep the same positions; vertices where more than two wedges meet are locked. kiln relies on
 * that and proves it (tests/mesh, seam tests on corpus models): no level has an open edge,
 * after welding positions, that the full mesh did not have on its own border. What 0.18 does
 * not do is weigh attribute values: UVs may stretch a little inside an island, within the
 * position error. All levels share the vertex buffer: simplification only removes vertices. */
#include <math.h>
#include <meshoptimizer.h>
#include <string.h>

#include "process/mesh_error.h"
#include "process/mesh_private.h"

/* One level: meshopt_simplify of level 0 towards `target` triangles, then its deviation from
 * level 0 measured (kiln_mesh_deviation). Over lod_error x extent, the simplifier's own error
 * limit is lowered (by the ratio of allowed to measured, at least halved) and the level
 * simplified again, up to KILN_LOD_RETRIES times; once a limit passes, KILN_LOD_BISECT steps
 * between it and the last one that failed (geometric midpoints) look for a coarser level that
 * still passes. None passes: the level is dropped (*n = 0, the
 * chain ends). Without a retry this is one simplification and one measurement. */
#define KILN_LOD_RETRIES 4
#define KILN_LOD_BISECT  1

static bool within(const kiln_mesh_work *w, float bound)
{
    const kiln_mesh_build_opts *o = w->opts;
    /* Both forms stay within lod_error: the absolute bound and the stored ratio. */
    return (double)bound <= (double)o->lod_error * (double)w->extent &&
           (w->extent <= 0 || (float)((double)bound / w->extent) <= o->lod_error);
}

static kiln_result simplify_once(kiln_mesh_work *w, uint32_t *dst, size_t target, float limit,
                                 size_t *n, float *bound, kiln_error *err)
{
    size_t count0 = w->levels[0].index_count;
    float estimate = 0.0f;
    *n = meshopt_simplify(dst, w->indices, count0, w->positions, w->vertex_count, 3 * sizeof(float),
                          target * 3, limit, 0, &estimate);
    if (*n == 0) return KILN_OK;
    return kiln_mesh_deviation(w->alloc, w->positions, w->vertex_count, w->indices, count0, dst, *n,
                               bound, err);
}

static kiln_result simplify_within(kiln_mesh_work *w, uint32_t *tmp, size_t target, size_t *n,
                                   float *bound, kiln_error *err)
{
    const kiln_mesh_build_opts *o = w->opts;
    float limit = o->lod_error;
    kiln_result rc = simplify_once(w, tmp, target, limit, n, bound, err);
    if (rc != KILN_OK || *n == 0 || within(w, *bound)) return rc;
    size_t count0 = w->levels[0].index_count;
    uint32_t *alt = kiln_mesh_array(w->alloc, count0, sizeof *alt);
    if (!alt) return kiln_mesh_nomem(err, "simplification");
    float fail = limit, pass = 0.0f;
    size_t best_n = 0;
    float best_bound = 0.0f;
    double allowed = (double)o->lod_error * (double)w->extent;
    for (int attempt = 0; attempt < KILN_LOD_RETRIES && pass == 0.0f && rc == KILN_OK; attempt++) {
        /* The measured bound over meshoptimizer's limit says how far its estimate runs low
         * here: scale the limit by what is allowed over what was measured (with 10 % to
         * spare), at least halving it and at most dividing it by 20. */
        double scale = *bound > 0 ? 0.9 * allowed / (double)*bound : 0.5;
        scale = scale > 0.5 ? 0.5 : scale < 0.05 ? 0.05 : scale;
        limit = (float)(limit * scale);
        rc = simplify_once(w, tmp, target, limit, n, bound, err);
        if (rc != KILN_OK || *n == 0) break;
        if (within(w, *bound)) pass = limit, best_n = *n, best_bound = *bound;
        else fail = limit;
    }
    /* tmp holds the passing level; alt tries coarser ones between pass and fail */
    for (int step = 0; step < KILN_LOD_BISECT && pass > 0.0f && rc == KILN_OK; step++) {
        float mid = (float)sqrt((double)pass * (double)fail);
        size_t mn = 0;
        float mb = 0.0f;
        rc = simplify_once(w, alt, target, mid, &mn, &mb, err);
        if (rc != KILN_OK) break;
        if (mn > 0 && within(w, mb)) {
            pass = mid;
            if (mn < best_n) {
                memcpy(tmp, alt, mn * sizeof *tmp);
                best_n = mn, best_bound = mb;
            }
        } else {
            fail = mid;
        }
    }
    kiln_free(w->alloc, alt, count0 * sizeof *alt);
    *n = pass > 0.0f ? best_n : 0;
    *bound = best_bound;
    return rc;
}

kiln_result kiln_mesh_build_lods(kiln_mesh_work *w, kiln_mesh_build_stats *stats, kiln_error *err)
{
    const kiln_mesh_build_opts *o = w->opts;
    size_t count0 = w->levels[0].index_count;
    size_t tris0 = count0 / 3;
    w->extent = w->vertex_count
                    ? meshopt_simplifyScale(w->positions, w->vertex_count, 3 * sizeof(float))
                    : 0.0f;
    if (o->lod_count == 0 || tris0 == 0) return KILN_OK;
    if (KILN_NEVER(count0 % 3 != 0))
        return kiln_error_set(err, KILN_E_INTERNAL, "mesh: bad level 0");

    uint64_t t0 = kiln_mesh_now_ns();
    uint32_t *tmp = kiln_mesh_array(w->alloc, count0, sizeof *tmp);
    if (!tmp) return kiln_mesh_nomem(err, "simplification");
    kiln_result rc = KILN_OK;
    size_t prev_tris = tris0;
    float prev_error = 0.0f; /* absolute */
    for (uint32_t l = 0; l < o->lod_count && w->level_count < KILN_MESH_MAX_LEVELS; l++) {
        double want = floor((double)o->lods[l] * (double)tris0 + 0.5);
        size_t target = want < 1.0 ? 1 : (size_t)want;
        if (target < o->lod_min_triangles) target = o->lod_min_triangles;
        /* A target that cannot end 5 % below the previous level ends the chain now. */
        if (target * 100 > prev_tris * 95) break;
        /* level 0 is the first range of w->indices; it stays in place while levels are added
         * after it (the buffer holds index_capacity >= count0 * (levels) after growing). */
        float bound = 0.0f;
        size_t n = 0;
        rc = simplify_within(w, tmp, target, &n, &bound, err);
        if (rc != KILN_OK) break;
        size_t tris = n / 3;
        if (tris == 0 || tris * 100 > prev_tris * 95) break;
        /* Grow the index buffer for the new range. */
        size_t need;
        if (!kiln_size_add(w->index_count, n, &need)) {
            rc = kiln_error_set(err, KILN_E_LIMIT, "mesh: index buffer too large");
            break;
        }
        if (need > UINT32_MAX) {
            rc =
                kiln_error_set(err, KILN_E_LIMIT, "mesh: more than 2^32-1 indices over all levels");
            break;
        }
        if (need > w->index_capacity) {
            size_t cap = w->index_capacity * 2 > need ? w->index_capacity * 2 : need;
            uint32_t *grown = kiln_realloc(
                w->alloc, w->indices, w->index_capacity * sizeof(uint32_t), cap * sizeof(uint32_t));
            if (!grown) {
                rc = kiln_mesh_nomem(err, "levels of detail");
                break;
            }
            w->indices = grown;
            w->index_capacity = cap;
        }
        uint32_t *dst = w->indices + w->index_count;
        memcpy(dst, tmp, n * sizeof *tmp);
        kiln_mesh_lod *lvl = &w->levels[w->level_count];
        memset(lvl, 0, sizeof *lvl);
        lvl->index_offset = (uint32_t)w->index_count;
        lvl->index_count = (uint32_t)n;
        /* Errors are kept non-decreasing, so selection can stop at the first level that is too
         * coarse (simplifying to fewer triangles almost always errs more anyway). */
        if (!(bound >= prev_error)) bound = prev_error;
        lvl->error_absolute = bound;
        lvl->error = w->extent > 0 ? (float)((double)bound / w->extent) : 0.0f;
        prev_error = bound;
        w->index_count = need;
        w->level_count++;
        prev_tris = tris;
        if (o->optimize) {
            uint64_t s0 = kiln_mesh_now_ns();
            rc = kiln_mesh_optimize_triangles(w, dst, n, stats, err);
            /* Count the reordering of levels under the cache/overdraw passes, not here. */
            t0 += kiln_mesh_now_ns() - s0;
            if (rc != KILN_OK) break;
        }
    }
    kiln_free(w->alloc, tmp, count0 * sizeof *tmp);
    stats->ns_lod += kiln_mesh_now_ns() - t0;
    return rc;
}
