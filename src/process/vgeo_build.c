/* vgeo_build.c — kiln_vgeo_build (vgeo.h): the cluster DAG of one mesh.
 *
 * Level 0 is the mesh split into clusters (kiln_meshlet_build). Then, round after round, the
 * clusters not yet in a group are partitioned into groups of about GROUP_SIZE neighbours
 * (vgeo_group.c); every group's triangles are simplified to about half with the group's outer
 * border locked (meshopt_SimplifyLockBorder), so whatever a renderer draws on either side of
 * that border meets it exactly; and the simplified triangles are split into clusters again,
 * which enter the next round. A group is the unit of the cut: its members and the clusters it
 * made cover the same surface with the same border.
 *
 * Errors: a group's error is the largest own error of its members plus how far its simplified
 * surface lies from its members' surface (kiln_mesh_deviation, an upper bound), so by the
 * triangle inequality it bounds the distance to the source mesh; its sphere contains the
 * members' own spheres (widened for float rounding). Both grow up the DAG by construction,
 * which is what makes any view's cut consistent (docs/virtual_geometry.md).
 *
 * Stalls: a group that cannot lose at least STALL_PERCENT % of its triangles (everything left
 * is border, or the simplifier finds nothing it may collapse) makes no clusters: its members
 * stay ungrouped and are regrouped with other neighbours next round. A round in which no group
 * simplifies ends the build: every cluster still ungrouped is a root (drawn whenever its own
 * error is small enough), and with more than one root the DAG is flagged KILN_VGEO_STALLED.
 *
 * Groups simplify in parallel on the job pool; each writes only its own result slot and the
 * results are merged in group order, so the output is the same for any thread count. */
#include <float.h>
#include <math.h>
#include <meshoptimizer.h>
#include <stdlib.h>
#include <string.h>

#include "process/mesh_error.h"
#include "process/mesh_private.h"
#include "process/meshlet_build.h"
#include "process/vgeo.h"
#include "process/vgeo_private.h"

#define GROUP_SIZE    8  /* clusters per group, as METIS balances them */
#define STALL_PERCENT 15 /* a group must lose at least this share of its triangles */
#define CONE_WEIGHT   0.25f

typedef struct wcluster {
    uint32_t tri_offset, tri_count; /* triangles in builder.tris */
    uint32_t level;
    uint32_t source_group;   /* KILN_VGEO_NONE at level 0 */
    uint32_t group;          /* KILN_VGEO_NONE until grouped */
    float center[3], radius; /* own LOD sphere (level 0: the triangles' sphere) */
    float error;             /* own error */
} wcluster;

typedef struct builder {
    const kiln_allocator *a;
    const float *positions;
    uint32_t vertex_count;
    uint32_t *weld;
    uint32_t max_v, max_t;
    float extent;
    uint32_t *tris; /* 3 global vertex ids a triangle */
    size_t tri_count, tri_cap;
    wcluster *clusters;
    size_t cluster_count, cluster_cap;
    kiln_vgeo_group *groups;
    size_t group_count, group_cap;
    /* Per worker: the local id of each global vertex, valid where stamp == the job's stamp. */
    uint32_t *local_id[KILN_JOBS_MAX_THREADS];
    uint32_t *stamp[KILN_JOBS_MAX_THREADS];
    uint32_t stamp_next[KILN_JOBS_MAX_THREADS];
} builder;

/* ---- growing arrays ------------------------------------------------------------------------ */

static bool reserve(const kiln_allocator *a, void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t c = *cap ? *cap : 64;
    while (c < need) {
        if (c > SIZE_MAX / 2 / elem) return false;
        c *= 2;
    }
    void *g = kiln_realloc(a, *p, *cap * elem, c * elem);
    if (!g) return false;
    *p = g;
    *cap = c;
    return true;
}

static kiln_result nomem(kiln_error *err)
{
    return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "vgeo: out of memory");
}

/* ---- spheres ------------------------------------------------------------------------------- */

/* A sphere around points (Ritter: start from the farthest pair along the first point, then
 * grow over the points outside). Deterministic: a fixed order. */
static void sphere_of_points(const float *positions, const uint32_t *ids, size_t count,
                             float out[4])
{
    if (count == 0) {
        out[0] = out[1] = out[2] = out[3] = 0.0f;
        return;
    }
    const float *p0 = positions + (size_t)ids[0] * 3;
    size_t far1 = 0;
    double best = -1.0;
    for (size_t i = 0; i < count; i++) {
        const float *p = positions + (size_t)ids[i] * 3;
        double d = 0;
        for (int c = 0; c < 3; c++) d += ((double)p[c] - p0[c]) * ((double)p[c] - p0[c]);
        if (d > best) best = d, far1 = i;
    }
    const float *pa = positions + (size_t)ids[far1] * 3;
    size_t far2 = far1;
    best = -1.0;
    for (size_t i = 0; i < count; i++) {
        const float *p = positions + (size_t)ids[i] * 3;
        double d = 0;
        for (int c = 0; c < 3; c++) d += ((double)p[c] - pa[c]) * ((double)p[c] - pa[c]);
        if (d > best) best = d, far2 = i;
    }
    const float *pb = positions + (size_t)ids[far2] * 3;
    double c[3], r = sqrt(best) * 0.5;
    for (int k = 0; k < 3; k++) c[k] = ((double)pa[k] + pb[k]) * 0.5;
    for (size_t i = 0; i < count; i++) {
        const float *p = positions + (size_t)ids[i] * 3;
        double d2 = 0;
        for (int k = 0; k < 3; k++) d2 += ((double)p[k] - c[k]) * ((double)p[k] - c[k]);
        if (d2 > r * r) {
            double d = sqrt(d2), nr = (r + d) * 0.5, t = (nr - r) / d;
            for (int k = 0; k < 3; k++) c[k] += ((double)p[k] - c[k]) * t;
            r = nr;
        }
    }
    for (int k = 0; k < 3; k++) out[k] = (float)c[k];
    out[3] = (float)r;
}

/* The smallest sphere around spheres a and b (in double), into a. */
static void sphere_merge(double a[4], const float b[4])
{
    double d2 = 0;
    for (int k = 0; k < 3; k++) d2 += ((double)b[k] - a[k]) * ((double)b[k] - a[k]);
    double d = sqrt(d2);
    if (d + b[3] <= a[3]) return;
    if (d + a[3] <= b[3]) {
        for (int k = 0; k < 4; k++) a[k] = b[k];
        return;
    }
    double r = (d + a[3] + b[3]) * 0.5, t = (r - a[3]) / d;
    for (int k = 0; k < 3; k++) a[k] += ((double)b[k] - a[k]) * t;
    a[3] = r;
}

/* Rounds a double sphere to floats that still contain everything it contained: the radius is
 * widened by the centre's rounding and a few units in the last place. */
static void sphere_store(const double s[4], float out[4])
{
    double moved2 = 0, mag = s[3];
    for (int k = 0; k < 3; k++) {
        out[k] = (float)s[k];
        moved2 += ((double)out[k] - s[k]) * ((double)out[k] - s[k]);
        mag += fabs(s[k]);
    }
    out[3] = (float)((s[3] + sqrt(moved2)) * (1.0 + 1e-6) + mag * 1e-6);
}

/* ---- one group's simplification (a job) -------------------------------------------------- */

typedef struct tri_key {
    uint32_t v[3];              /* welded ids, sorted */
    uint32_t winding_and_index; /* bit 31: odd winding; the rest: the triangle */
} tri_key;

static int tri_key_cmp(const void *pa, const void *pb)
{
    const tri_key *x = pa, *y = pb;
    for (int c = 0; c < 3; c++)
        if (x->v[c] != y->v[c]) return x->v[c] < y->v[c] ? -1 : 1;
    return (x->winding_and_index > y->winding_and_index) -
           (x->winding_and_index < y->winding_and_index);
}

/* meshoptimizer 0.18 drops triangles with two equal indices, but may leave one whose corners
 * are distinct vertices at one position (the two sides of an attribute seam), or two copies of
 * one triangle (same positions, same winding) after collapses: the first has no area, the
 * second would cover the spot twice. Drops both (keeping a copy's first instance); returns the
 * new index count. */
static size_t drop_duplicates(const kiln_allocator *a, const uint32_t *weld, const uint32_t *global,
                              uint32_t *idx, size_t n)
{
    size_t tris = n / 3;
    tri_key *k = kiln_alloc(a, (tris ? tris : 1) * sizeof *k);
    if (!k) return n; /* keep them: only a second copy of a sliver, never a hole */
    for (size_t t = 0; t < tris; t++) {
        uint32_t v[3] = {weld[global[idx[t * 3]]], weld[global[idx[t * 3 + 1]]],
                         weld[global[idx[t * 3 + 2]]]};
        uint32_t swaps = 0;
        for (int p = 0; p < 2; p++)
            for (int q = 0; q < 2 - p; q++)
                if (v[q] > v[q + 1]) {
                    uint32_t x = v[q];
                    v[q] = v[q + 1], v[q + 1] = x;
                    swaps++;
                }
        memcpy(k[t].v, v, sizeof v);
        k[t].winding_and_index = (swaps & 1u) << 31 | (uint32_t)t;
    }
    size_t dropped = 0;
    for (size_t t = 0; t < tris; t++)
        if (k[t].v[0] == k[t].v[1] || k[t].v[1] == k[t].v[2]) {
            idx[t * 3] = UINT32_MAX;
            dropped++;
        }
    qsort(k, tris, sizeof *k, tri_key_cmp);
    for (size_t t = 1; t < tris; t++)
        if (!memcmp(k[t].v, k[t - 1].v, sizeof k[t].v) && k[t].v[0] != k[t].v[1] &&
            k[t].v[1] != k[t].v[2] &&
            (k[t].winding_and_index >> 31) == (k[t - 1].winding_and_index >> 31)) {
            idx[(size_t)(k[t].winding_and_index & 0x7FFFFFFFu) * 3] = UINT32_MAX;
            dropped++;
        }
    kiln_free(a, k, (tris ? tris : 1) * sizeof *k);
    if (!dropped) return n;
    size_t w = 0;
    for (size_t t = 0; t < tris; t++)
        if (idx[t * 3] != UINT32_MAX) {
            memmove(idx + w * 3, idx + t * 3, 3 * sizeof *idx);
            w++;
        }
    return w * 3;
}

/* *ok: out keeps in's border exactly (the welded edges used by one triangle are the same) and
 * pinches nothing in did not (no edge used by more triangles than in in, or than two for an edge
 * in is without). meshoptimizer keeps a locked border on a manifold input; on a non-manifold one
 * (an edge of three triangles, a cloth folded onto itself) it can open or close a border edge,
 * and a cut through such a group would crack. */
static kiln_result keeps_border(const kiln_allocator *a, const uint32_t *weld,
                                const uint32_t *global, const uint32_t *in, size_t in_n,
                                const uint32_t *out, size_t out_n, bool *ok, kiln_error *err)
{
    kiln_vgeo_counter ci = {0}, co = {0};
    *ok = true;
    if (!kiln_vgeo_counter_init(&ci, a, in_n) || !kiln_vgeo_counter_init(&co, a, out_n)) {
        kiln_vgeo_counter_free(&ci);
        return nomem(err);
    }
    for (size_t e = 0; e < in_n; e++) {
        size_t t = e - e % 3;
        uint32_t u = weld[global[in[e]]], v = weld[global[in[t + (e - t + 1) % 3]]];
        if (u != v) kiln_vgeo_counter_add(&ci, kiln_vgeo_edge(u, v));
    }
    for (size_t e = 0; e < out_n && *ok; e++) {
        size_t t = e - e % 3;
        uint32_t u = weld[global[out[e]]], v = weld[global[out[t + (e - t + 1) % 3]]];
        if (u == v) continue;
        uint64_t key = kiln_vgeo_edge(u, v);
        uint32_t limit = kiln_vgeo_counter_get(&ci, key);
        if (kiln_vgeo_counter_add(&co, key) > (limit > 2 ? limit : 2)) *ok = false;
    }
    /* Both ways: every border edge of one is a border edge of the other. */
    for (size_t e = 0; e < out_n && *ok; e++) {
        size_t t = e - e % 3;
        uint32_t u = weld[global[out[e]]], v = weld[global[out[t + (e - t + 1) % 3]]];
        if (u == v) continue;
        uint64_t key = kiln_vgeo_edge(u, v);
        if ((kiln_vgeo_counter_get(&co, key) == 1) != (kiln_vgeo_counter_get(&ci, key) == 1))
            *ok = false;
    }
    for (size_t e = 0; e < in_n && *ok; e++) {
        size_t t = e - e % 3;
        uint32_t u = weld[global[in[e]]], v = weld[global[in[t + (e - t + 1) % 3]]];
        if (u == v) continue;
        uint64_t key = kiln_vgeo_edge(u, v);
        if (kiln_vgeo_counter_get(&ci, key) == 1 && kiln_vgeo_counter_get(&co, key) != 1)
            *ok = false;
    }
    kiln_vgeo_counter_free(&ci);
    kiln_vgeo_counter_free(&co);
    return KILN_OK;
}

typedef struct group_job {
    const uint32_t *members; /* cluster indices */
    uint32_t member_count;
    /* results */
    bool simplified;
    float error, sphere[4];
    uint32_t *tris; /* the new clusters' triangles, global ids */
    size_t tri_count;
    uint32_t *cluster_tris; /* per new cluster: its triangle count */
    size_t cluster_count;
    uint64_t ns_simplify, ns_error, ns_cluster;
} group_job;

typedef struct round_ctx {
    builder *b;
    group_job *jobs;
} round_ctx;

static void group_job_free(const kiln_allocator *a, group_job *j)
{
    kiln_free(a, j->tris, j->tri_count * 3 * sizeof *j->tris);
    kiln_free(a, j->cluster_tris, j->cluster_count * sizeof *j->cluster_tris);
    j->tris = NULL;
    j->cluster_tris = NULL;
    j->tri_count = j->cluster_count = 0;
}

static kiln_result group_run(void *user, size_t index, size_t worker, kiln_error *err)
{
    round_ctx *rc = user;
    builder *b = rc->b;
    group_job *j = &rc->jobs[index];
    const kiln_allocator *a = b->a;
    size_t tris = 0;
    for (uint32_t m = 0; m < j->member_count; m++) tris += b->clusters[j->members[m]].tri_count;
    size_t n_idx = tris * 3;
    uint32_t *idx = kiln_alloc(a, n_idx * sizeof *idx);       /* local ids of the group */
    uint32_t *simple = kiln_alloc(a, n_idx * sizeof *simple); /* simplified, local ids */
    uint32_t *global = kiln_alloc(a, n_idx * sizeof *global); /* local id -> global id */
    float *pos = kiln_alloc(a, n_idx * 3 * sizeof *pos);
    kiln_meshlet *ml = NULL;
    uint32_t *mv = NULL;
    uint8_t *mt = NULL;
    size_t bound = 0;
    kiln_result r = KILN_OK;
    if (!idx || !simple || !global || !pos) {
        r = nomem(err);
        goto done;
    }
    /* Compact the group's vertices: meshoptimizer's passes cost O(vertices given). */
    uint32_t *lid = b->local_id[worker], *st = b->stamp[worker];
    uint32_t s = ++b->stamp_next[worker];
    if (s == 0) { /* wrapped: clear the stamps once every 2^32 groups */
        memset(st, 0, (size_t)b->vertex_count * sizeof *st);
        s = b->stamp_next[worker] = 1;
    }
    uint32_t nv = 0;
    size_t k = 0;
    for (uint32_t m = 0; m < j->member_count; m++) {
        const wcluster *c = &b->clusters[j->members[m]];
        const uint32_t *t = b->tris + (size_t)c->tri_offset * 3;
        for (size_t i = 0; i < (size_t)c->tri_count * 3; i++) {
            uint32_t v = t[i];
            if (st[v] != s) {
                st[v] = s;
                lid[v] = nv;
                global[nv] = v;
                memcpy(pos + (size_t)nv * 3, b->positions + (size_t)v * 3, 3 * sizeof(float));
                nv++;
            }
            idx[k++] = lid[v];
        }
    }
    /* Simplify to about half; a result that changes the border or is less manifold than its
     * input (keeps_border) is tried again less far, then given up. */
    uint64_t t0 = kiln_mesh_now_ns();
    size_t n = 0;
    static const uint32_t keep_percent[] = {50, 70};
    for (size_t attempt = 0; attempt < sizeof keep_percent / sizeof keep_percent[0]; attempt++) {
        size_t target = (tris * keep_percent[attempt] / 100) * 3;
        const kiln_allocator *outer = kiln_meshopt_enter(a);
        n = meshopt_simplify(simple, idx, n_idx, pos, nv, 3 * sizeof(float), target, FLT_MAX,
                             meshopt_SimplifyLockBorder, NULL);
        kiln_meshopt_leave(outer);
        n = drop_duplicates(a, b->weld, global, simple, n);
        if (n == 0 || n * 100 > n_idx * (100 - STALL_PERCENT)) break;
        bool ok = false;
        r = keeps_border(a, b->weld, global, idx, n_idx, simple, n, &ok, err);
        if (r != KILN_OK) goto done;
        if (ok) break;
        n = 0;
    }
    j->ns_simplify = kiln_mesh_now_ns() - t0;
    if (n == 0 || n * 100 > n_idx * (100 - STALL_PERCENT)) goto done; /* stalled */

    /* Error: the members' worst plus the deviation of the simplified surface from theirs. */
    t0 = kiln_mesh_now_ns();
    float deviation = 0.0f;
    r = kiln_mesh_deviation(a, pos, nv, idx, n_idx, simple, n, &deviation, err);
    j->ns_error = kiln_mesh_now_ns() - t0;
    if (r != KILN_OK) goto done;
    float worst = 0.0f;
    double sphere[4] = {0, 0, 0, -1};
    for (uint32_t m = 0; m < j->member_count; m++) {
        const wcluster *c = &b->clusters[j->members[m]];
        if (c->error > worst) worst = c->error;
        float cs[4] = {c->center[0], c->center[1], c->center[2], c->radius};
        if (sphere[3] < 0)
            for (int q = 0; q < 4; q++) sphere[q] = cs[q];
        else sphere_merge(sphere, cs);
    }
    j->error = worst + deviation;
    if (!(j->error >= worst)) j->error = worst; /* NaN guard: never below a member */
    sphere_store(sphere, j->sphere);

    /* Split into clusters again. */
    t0 = kiln_mesh_now_ns();
    bound = kiln_meshlet_bound(n, b->max_v, b->max_t);
    ml = kiln_alloc(a, bound * sizeof *ml);
    mv = kiln_alloc(a, bound * b->max_v * sizeof *mv);
    mt = kiln_alloc(a, bound * b->max_t * 3);
    if (!ml || !mv || !mt) {
        r = nomem(err);
        goto done;
    }
    size_t count = 0;
    r = kiln_meshlet_build(a, simple, n, pos, nv, b->max_v, b->max_t, CONE_WEIGHT, ml, mv, mt,
                           &count, err);
    if (r != KILN_OK) goto done;
    j->tris = kiln_alloc(a, n * sizeof *j->tris);
    j->cluster_tris = kiln_alloc(a, (count ? count : 1) * sizeof *j->cluster_tris);
    if (!j->tris || !j->cluster_tris) {
        kiln_free(a, j->tris, n * sizeof *j->tris);
        kiln_free(a, j->cluster_tris, (count ? count : 1) * sizeof *j->cluster_tris);
        j->tris = j->cluster_tris = NULL;
        r = nomem(err);
        goto done;
    }
    j->tri_count = n / 3;
    j->cluster_count = count;
    size_t w = 0;
    for (size_t c = 0; c < count; c++) {
        const kiln_meshlet *m = &ml[c];
        j->cluster_tris[c] = m->triangle_count;
        for (uint32_t i = 0; i < m->triangle_count * 3; i++)
            j->tris[w++] = global[mv[m->vertex_offset + mt[m->triangle_offset + i]]];
    }
    j->simplified = KILN_NEVER(w != n) ? false : true;
    j->ns_cluster = kiln_mesh_now_ns() - t0;
done:
    kiln_free(a, idx, n_idx * sizeof *idx);
    kiln_free(a, simple, n_idx * sizeof *simple);
    kiln_free(a, global, n_idx * sizeof *global);
    kiln_free(a, pos, n_idx * 3 * sizeof *pos);
    kiln_free(a, ml, bound * sizeof *ml);
    kiln_free(a, mv, bound * b->max_v * sizeof *mv);
    kiln_free(a, mt, bound * b->max_t * 3);
    return r;
}

/* ---- adding clusters ------------------------------------------------------------------------ */

/* Appends a cluster of tri_count triangles (global ids) made by source_group (its sphere and
 * error, or at level 0 the triangles' own sphere and 0). */
static kiln_result add_cluster(builder *b, const uint32_t *tris, uint32_t tri_count, uint32_t level,
                               uint32_t source_group, kiln_error *err)
{
    if (!reserve(b->a, (void **)&b->tris, &b->tri_cap, b->tri_count + tri_count,
                 3 * sizeof *b->tris) ||
        !reserve(b->a, (void **)&b->clusters, &b->cluster_cap, b->cluster_count + 1,
                 sizeof *b->clusters))
        return nomem(err);
    if (b->tri_count + tri_count > UINT32_MAX || b->cluster_count >= UINT32_MAX)
        return kiln_error_set(err, KILN_E_LIMIT, "vgeo: more than 2^32-1 triangles");
    wcluster *c = &b->clusters[b->cluster_count++];
    memset(c, 0, sizeof *c);
    c->tri_offset = (uint32_t)b->tri_count;
    c->tri_count = tri_count;
    c->level = level;
    c->source_group = source_group;
    c->group = KILN_VGEO_NONE;
    memcpy(b->tris + b->tri_count * 3, tris, (size_t)tri_count * 3 * sizeof *tris);
    b->tri_count += tri_count;
    if (source_group == KILN_VGEO_NONE) {
        float s[4];
        sphere_of_points(b->positions, b->tris + (size_t)c->tri_offset * 3, (size_t)tri_count * 3,
                         s);
        double d[4] = {s[0], s[1], s[2], s[3]};
        sphere_store(d, s);
        memcpy(c->center, s, 3 * sizeof(float));
        c->radius = s[3];
        c->error = 0.0f;
    } else {
        const kiln_vgeo_group *g = &b->groups[source_group];
        memcpy(c->center, g->center, sizeof c->center);
        c->radius = g->radius;
        c->error = g->error;
    }
    return KILN_OK;
}

static kiln_result level0(builder *b, const uint32_t *indices, size_t index_count, kiln_error *err)
{
    size_t bound = kiln_meshlet_bound(index_count, b->max_v, b->max_t);
    kiln_meshlet *ml = kiln_alloc(b->a, bound * sizeof *ml);
    uint32_t *mv = kiln_alloc(b->a, bound * b->max_v * sizeof *mv);
    uint8_t *mt = kiln_alloc(b->a, bound * b->max_t * 3);
    uint32_t tri[3 * 512];
    kiln_result r = KILN_OK;
    size_t count = 0;
    if (!ml || !mv || !mt) r = nomem(err);
    if (r == KILN_OK)
        r = kiln_meshlet_build(b->a, indices, index_count, b->positions, b->vertex_count, b->max_v,
                               b->max_t, CONE_WEIGHT, ml, mv, mt, &count, err);
    for (size_t c = 0; c < count && r == KILN_OK; c++) {
        for (uint32_t i = 0; i < ml[c].triangle_count * 3; i++)
            tri[i] = mv[ml[c].vertex_offset + mt[ml[c].triangle_offset + i]];
        r = add_cluster(b, tri, ml[c].triangle_count, 0, KILN_VGEO_NONE, err);
    }
    kiln_free(b->a, ml, bound * sizeof *ml);
    kiln_free(b->a, mv, bound * b->max_v * sizeof *mv);
    kiln_free(b->a, mt, bound * b->max_t * 3);
    return r;
}

/* ---- rounds --------------------------------------------------------------------------------- */

/* One round over the ungrouped clusters pool[0..*pool_count): groups, simplifies, adds the new
 * clusters, and leaves in pool the clusters for the next round. *progress: some group
 * simplified. */
static kiln_result round_run(builder *b, kiln_jobs *jobs, uint32_t **pool, size_t *pool_count,
                             size_t *pool_cap, bool *progress, kiln_vgeo_build_stats *st,
                             kiln_error *err)
{
    const kiln_allocator *a = b->a;
    size_t n = *pool_count;
    *progress = false;
    uint32_t *offs = kiln_alloc(a, n * sizeof *offs), *cnts = kiln_alloc(a, n * sizeof *cnts);
    uint32_t *group_of = kiln_alloc(a, n * sizeof *group_of);
    uint32_t *members = kiln_alloc(a, n * sizeof *members);
    uint32_t *start = NULL;
    group_job *gj = NULL;
    uint32_t groups = 0;
    kiln_result r = KILN_OK;
    if (!offs || !cnts || !group_of || !members) {
        r = nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        offs[i] = b->clusters[(*pool)[i]].tri_offset;
        cnts[i] = b->clusters[(*pool)[i]].tri_count;
    }
    uint64_t t0 = kiln_mesh_now_ns();
    r = kiln_vgeo_partition(a, b->tris, offs, cnts, (uint32_t)n, b->weld, GROUP_SIZE, group_of,
                            &groups, err);
    st->ns_group += kiln_mesh_now_ns() - t0;
    if (r != KILN_OK) goto done;
    /* Members of each group, in pool order (counting sort). */
    start = kiln_calloc(a, (size_t)groups + 1, sizeof *start);
    gj = kiln_calloc(a, groups ? groups : 1, sizeof *gj);
    if (!start || !gj) {
        r = nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++) start[group_of[i] + 1]++;
    for (uint32_t g = 0; g < groups; g++) start[g + 1] += start[g];
    for (uint32_t g = 0; g < groups; g++) {
        gj[g].members = members + start[g];
        gj[g].member_count = start[g + 1] - start[g];
    }
    {
        uint32_t *fill = offs; /* reused as cursors */
        for (uint32_t g = 0; g < groups; g++) fill[g] = start[g];
        for (size_t i = 0; i < n; i++) members[fill[group_of[i]]++] = (*pool)[i];
    }
    round_ctx ctx = {b, gj};
    r = kiln_jobs_for(jobs, groups, group_run, &ctx, err);
    if (r != KILN_OK) goto done;
    /* Merge in group order: the new clusters and the stalled groups' members form the next
     * pool, in that order of creation. */
    size_t next = 0;
    uint32_t *np = *pool; /* the old pool is read through members from here on */
    for (uint32_t g = 0; g < groups && r == KILN_OK; g++) {
        group_job *j = &gj[g];
        st->ns_simplify += j->ns_simplify;
        st->ns_error += j->ns_error;
        st->ns_cluster += j->ns_cluster;
        if (!j->simplified) {
            st->stalled_groups++;
            for (uint32_t m = 0; m < j->member_count; m++) np[next++] = j->members[m];
            continue;
        }
        *progress = true;
        if (!reserve(a, (void **)&b->groups, &b->group_cap, b->group_count + 1,
                     sizeof *b->groups)) {
            r = nomem(err);
            break;
        }
        uint32_t gid = (uint32_t)b->group_count++;
        kiln_vgeo_group *grp = &b->groups[gid];
        memset(grp, 0, sizeof *grp);
        uint32_t level = 0;
        for (uint32_t m = 0; m < j->member_count; m++) {
            wcluster *c = &b->clusters[j->members[m]];
            c->group = gid;
            if (c->level + 1 > level) level = c->level + 1;
        }
        grp->level = level;
        memcpy(grp->center, j->sphere, 3 * sizeof(float));
        grp->radius = j->sphere[3];
        grp->error = j->error;
        size_t off = 0;
        for (size_t c = 0; c < j->cluster_count && r == KILN_OK; c++) {
            if (!reserve(a, (void **)pool, pool_cap, next + 1, sizeof **pool)) {
                r = nomem(err);
                break;
            }
            np = *pool;
            np[next++] = (uint32_t)b->cluster_count;
            r = add_cluster(b, j->tris + off * 3, j->cluster_tris[c], level, gid, err);
            off += j->cluster_tris[c];
        }
    }
    *pool_count = next;
done:
    for (uint32_t g = 0; gj && g < groups; g++) group_job_free(a, &gj[g]);
    kiln_free(a, gj, (groups ? groups : 1) * sizeof *gj);
    kiln_free(a, start, ((size_t)groups + 1) * sizeof *start);
    kiln_free(a, offs, n * sizeof *offs);
    kiln_free(a, cnts, n * sizeof *cnts);
    kiln_free(a, group_of, n * sizeof *group_of);
    kiln_free(a, members, n * sizeof *members);
    return r;
}

/* ---- the result ------------------------------------------------------------------------------ */

static kiln_result assemble(builder *b, kiln_cooked_vgeo *out, kiln_error *err)
{
    const kiln_allocator *a = b->a;
    size_t nc = b->cluster_count, ng = b->group_count;
    if (nc > UINT32_MAX || ng > UINT32_MAX)
        return kiln_error_set(err, KILN_E_LIMIT, "vgeo: too many clusters");
    /* Final order: by group (groups in creation order), roots last; ties in creation order. */
    uint32_t *order = kiln_alloc(a, (nc ? nc : 1) * sizeof *order);
    uint32_t *start = kiln_calloc(a, ng + 2, sizeof *start);
    if (!order || !start) {
        kiln_free(a, order, (nc ? nc : 1) * sizeof *order);
        kiln_free(a, start, (ng + 2) * sizeof *start);
        return nomem(err);
    }
    for (size_t c = 0; c < nc; c++) {
        uint32_t g = b->clusters[c].group;
        start[(g == KILN_VGEO_NONE ? ng : g) + 1]++;
    }
    for (size_t g = 0; g <= ng; g++) start[g + 1] += start[g];
    for (size_t g = 0; g < ng; g++) {
        b->groups[g].cluster_offset = start[g];
        b->groups[g].cluster_count = start[g + 1] - start[g];
    }
    for (size_t c = 0; c < nc; c++) {
        uint32_t g = b->clusters[c].group;
        order[start[g == KILN_VGEO_NONE ? ng : g]++] = (uint32_t)c;
    }
    kiln_free(a, start, (ng + 2) * sizeof *start);

    size_t vert_total = 0, tri_bytes = 0;
    for (size_t c = 0; c < nc; c++) {
        tri_bytes += ((size_t)b->clusters[c].tri_count * 3 + 3) & ~(size_t)3;
        vert_total += (size_t)b->clusters[c].tri_count * 3; /* at most; trimmed below */
    }
    kiln_result r = KILN_OK;
    out->clusters = kiln_calloc(a, nc ? nc : 1, sizeof *out->clusters);
    out->links = kiln_calloc(a, nc ? nc : 1, sizeof *out->links);
    out->bounds = kiln_calloc(a, nc ? nc : 1, sizeof *out->bounds);
    out->cluster_triangles = kiln_calloc(a, tri_bytes ? tri_bytes : 1, 1);
    uint32_t *verts = kiln_alloc(a, (vert_total ? vert_total : 1) * sizeof *verts);
    out->cluster_count = (uint32_t)nc;
    out->cluster_triangle_size = (uint32_t)tri_bytes;
    if (!out->clusters || !out->links || !out->bounds || !out->cluster_triangles || !verts) {
        kiln_free(a, verts, (vert_total ? vert_total : 1) * sizeof *verts);
        kiln_free(a, order, (nc ? nc : 1) * sizeof *order);
        return nomem(err);
    }
    if (tri_bytes > UINT32_MAX || vert_total > UINT32_MAX)
        r = kiln_error_set(err, KILN_E_LIMIT, "vgeo: cluster data over 4 GiB");
    size_t vw = 0, tw = 0;
    uint32_t *lid = b->local_id[0], *st = b->stamp[0];
    uint32_t level_max = 0;
    for (size_t i = 0; i < nc && r == KILN_OK; i++) {
        const wcluster *c = &b->clusters[order[i]];
        uint32_t s = ++b->stamp_next[0];
        if (s == 0) {
            memset(st, 0, (size_t)b->vertex_count * sizeof *st);
            s = b->stamp_next[0] = 1;
        }
        kiln_meshlet *m = &out->clusters[i];
        m->vertex_offset = (uint32_t)vw;
        m->triangle_offset = (uint32_t)tw;
        m->triangle_count = c->tri_count;
        uint8_t *t = out->cluster_triangles + tw;
        const uint32_t *src = b->tris + (size_t)c->tri_offset * 3;
        uint32_t nv = 0;
        for (size_t k = 0; k < (size_t)c->tri_count * 3; k++) {
            uint32_t v = src[k];
            if (st[v] != s) {
                st[v] = s;
                lid[v] = nv++;
                verts[vw + lid[v]] = v;
            }
            t[k] = (uint8_t)lid[v];
        }
        if (KILN_NEVER(nv > b->max_v)) {
            r = kiln_error_set(err, KILN_E_INTERNAL, "vgeo: a cluster has %u vertices", nv);
            break;
        }
        m->vertex_count = nv;
        struct meshopt_Bounds mb = meshopt_computeMeshletBounds(
            verts + vw, t, c->tri_count, b->positions, b->vertex_count, 3 * sizeof(float));
        kiln_meshlet_bounds *db = &out->bounds[i];
        memcpy(db->center, mb.center, sizeof db->center);
        db->radius = mb.radius;
        memcpy(db->cone_apex, mb.cone_apex, sizeof db->cone_apex);
        memcpy(db->cone_axis, mb.cone_axis, sizeof db->cone_axis);
        db->cone_cutoff = mb.cone_cutoff;
        for (int q = 0; q < 3; q++) db->cone_axis_s8[q] = mb.cone_axis_s8[q];
        db->cone_cutoff_s8 = mb.cone_cutoff_s8;
        if (c->source_group == KILN_VGEO_NONE) {
            /* A level-0 cluster's own LOD sphere is its culling sphere (kiln_vgeo_cluster_lod):
             * the one its group's sphere was grown around. It holds every vertex too. */
            memcpy(db->center, c->center, sizeof db->center);
            db->radius = c->radius;
        }
        kiln_vgeo_link *l = &out->links[i];
        l->group = c->group;
        l->source_group = c->source_group;
        l->level = c->level;
        if (c->level > level_max) level_max = c->level;
        vw += nv;
        tw += ((size_t)c->tri_count * 3 + 3) & ~(size_t)3;
    }
    kiln_free(a, order, (nc ? nc : 1) * sizeof *order);
    if (r != KILN_OK) {
        kiln_free(a, verts, (vert_total ? vert_total : 1) * sizeof *verts);
        return r;
    }
    /* Exact-size vertex array. */
    out->cluster_vertices = vw ? kiln_alloc(a, vw * sizeof *verts) : NULL;
    if (vw && !out->cluster_vertices) {
        kiln_free(a, verts, (vert_total ? vert_total : 1) * sizeof *verts);
        return nomem(err);
    }
    if (vw) memcpy(out->cluster_vertices, verts, vw * sizeof *verts);
    out->cluster_vertex_count = (uint32_t)vw;
    kiln_free(a, verts, (vert_total ? vert_total : 1) * sizeof *verts);
    out->level_count = nc ? level_max + 1 : 0;
    size_t source = 0; /* what level 0 holds (the builder keeps every triangle it is given) */
    for (size_t c = 0; c < nc; c++)
        if (b->clusters[c].source_group == KILN_VGEO_NONE) source += b->clusters[c].tri_count;
    out->source_triangles = (uint32_t)source;
    return KILN_OK;
}

/* ---- entry ------------------------------------------------------------------------------------
 */

kiln_result kiln_vgeo_build(const float *positions, uint32_t vertex_count, const uint32_t *indices,
                            size_t index_count, const kiln_vgeo_build_opts *opts,
                            const kiln_allocator *alloc, kiln_cooked_vgeo *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_vgeo_build: no output");
    memset(out, 0, sizeof *out);
    if (alloc) out->allocator = *alloc;
    const kiln_allocator *a = &out->allocator;
    if ((!positions && vertex_count) || (!indices && index_count) || index_count % 3 != 0)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_vgeo_build: bad arguments");
    uint32_t max_v = opts && opts->max_vertices ? opts->max_vertices : 64;
    uint32_t max_t = opts && opts->max_triangles ? opts->max_triangles : 124;
    if (max_v < 3 || max_v > 255 || max_t < 4 || max_t > 512 || max_t % 4 != 0)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_vgeo_build: cluster limits out of range");
    for (size_t i = 0; i < index_count; i++)
        if (indices[i] >= vertex_count)
            return kiln_error_set(err, KILN_E_USAGE, "kiln_vgeo_build: index out of range");
    uint64_t t_start = kiln_mesh_now_ns();
    kiln_jobs *jobs = opts ? opts->jobs : NULL;
    size_t workers = kiln_jobs_thread_count(jobs);
    out->vertex_count = vertex_count;
    out->max_vertices = max_v;
    out->max_triangles = max_t;
    out->source_triangles = (uint32_t)(index_count / 3);
    out->extent =
        vertex_count ? meshopt_simplifyScale(positions, vertex_count, 3 * sizeof(float)) : 0.0f;
    if (index_count / 3 > UINT32_MAX)
        return kiln_error_set(err, KILN_E_LIMIT, "vgeo: more than 2^32-1 triangles");

    builder b;
    memset(&b, 0, sizeof b);
    b.a = a;
    b.positions = positions;
    b.vertex_count = vertex_count;
    b.max_v = max_v;
    b.max_t = max_t;
    b.extent = out->extent;
    kiln_result r = KILN_OK;
    uint32_t *pool = NULL;
    size_t pool_count = 0, pool_cap = 0;
    b.weld = kiln_alloc(a, (vertex_count ? vertex_count : 1) * sizeof *b.weld);
    if (!b.weld) r = nomem(err);
    for (size_t w = 0; w < workers && r == KILN_OK; w++) {
        b.local_id[w] = kiln_alloc(a, (vertex_count ? vertex_count : 1) * sizeof(uint32_t));
        b.stamp[w] = kiln_calloc(a, vertex_count ? vertex_count : 1, sizeof(uint32_t));
        if (!b.local_id[w] || !b.stamp[w]) r = nomem(err);
    }
    if (r == KILN_OK) r = kiln_vgeo_weld(a, positions, vertex_count, b.weld, err);
    uint64_t t0 = kiln_mesh_now_ns();
    if (r == KILN_OK && index_count) r = level0(&b, indices, index_count, err);
    out->stats.ns_cluster += kiln_mesh_now_ns() - t0;
    if (r == KILN_OK && b.cluster_count) {
        pool_cap = b.cluster_count;
        pool = kiln_alloc(a, pool_cap * sizeof *pool);
        if (!pool) r = nomem(err);
        for (size_t c = 0; pool && c < b.cluster_count; c++) pool[c] = (uint32_t)c;
        pool_count = b.cluster_count;
    }
    /* Rounds until one cluster is left, no group simplifies, or the levels run out. */
    for (uint32_t round = 0; r == KILN_OK && pool_count > 1; round++) {
        uint32_t top = 0;
        for (size_t i = 0; i < pool_count; i++)
            if (b.clusters[pool[i]].level > top) top = b.clusters[pool[i]].level;
        if (top + 1 >= KILN_VGEO_MAX_LEVELS) break;
        bool progress = false;
        r = round_run(&b, jobs, &pool, &pool_count, &pool_cap, &progress, &out->stats, err);
        if (!progress) break;
    }
    if (r == KILN_OK && pool_count > 1) out->flags |= KILN_VGEO_STALLED;
    if (r == KILN_OK) r = assemble(&b, out, err);
    if (r == KILN_OK && b.group_count) {
        out->groups = kiln_alloc(a, b.group_count * sizeof *out->groups);
        if (!out->groups) r = nomem(err);
        else memcpy(out->groups, b.groups, b.group_count * sizeof *out->groups);
        out->group_count = (uint32_t)b.group_count;
    }
    kiln_free(a, pool, pool_cap * sizeof *pool);
    for (size_t w = 0; w < workers; w++) {
        kiln_free(a, b.local_id[w], (vertex_count ? vertex_count : 1) * sizeof(uint32_t));
        kiln_free(a, b.stamp[w], (vertex_count ? vertex_count : 1) * sizeof(uint32_t));
    }
    kiln_free(a, b.weld, (vertex_count ? vertex_count : 1) * sizeof *b.weld);
    kiln_free(a, b.tris, b.tri_cap * 3 * sizeof *b.tris);
    kiln_free(a, b.clusters, b.cluster_cap * sizeof *b.clusters);
    kiln_free(a, b.groups, b.group_cap * sizeof *b.groups);
    out->stats.ns_total = kiln_mesh_now_ns() - t_start;
    return r;
}

void kiln_cooked_vgeo_free(kiln_cooked_vgeo *v)
{
    if (!v) return;
    const kiln_allocator *a = &v->allocator;
    size_t nc = v->cluster_count ? v->cluster_count : 1;
    kiln_free(a, v->groups, (size_t)v->group_count * sizeof *v->groups);
    if (v->clusters) kiln_free(a, v->clusters, nc * sizeof *v->clusters);
    if (v->links) kiln_free(a, v->links, nc * sizeof *v->links);
    if (v->bounds) kiln_free(a, v->bounds, nc * sizeof *v->bounds);
    kiln_free(a, v->cluster_vertices, (size_t)v->cluster_vertex_count * sizeof(uint32_t));
    if (v->cluster_triangles)
        kiln_free(a, v->cluster_triangles, v->cluster_triangle_size ? v->cluster_triangle_size : 1);
    kiln_allocator keep = v->allocator;
    memset(v, 0, sizeof *v);
    v->allocator = keep;
}
