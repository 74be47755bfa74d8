/* meshlet_build.c — kiln's meshlet builder (meshlet_build.h; docs/meshes.md, "Meshlets").
 *
 * Greedy growth over triangle adjacency, the published approach of meshoptimizer's builder, laid
 * out so that each step costs little:
 *   - a meshlet grows from a seed triangle by adding, one at a time, the best triangle among its
 *     candidates: the live (not yet emitted) triangles that touch one of its vertices. Best is
 *     first by priority — no new vertex, then "dangling" (it holds the last live triangle of some
 *     vertex: left behind it would cost a meshlet vertex later), then one new vertex, then two —
 *     and within a priority by a score: (1 + DISTANCE * (1 - cone_weight) * distance of the
 *     centroid from the meshlet's centre / expected meshlet radius) * (1 - cone_weight * cosine
 *     between the triangle's normal and the meshlet's mean normal);
 *   - the candidates sit in a small array with a packed key (priority in the top 2 bits, the
 *     score's float bits below), so a step is one scan of contiguous words. Priorities change on
 *     events (a vertex joins the meshlet, a vertex is left with one live triangle); scores are
 *     computed just before a scan for the candidates added since the last one, and for all of
 *     them only when the meshlet's centre has moved by DRIFT of the expected radius or its mean
 *     normal turned past AXIS_TURN since they were; triangles with no new vertex go on a stack
 *     and are taken without a scan;
 *   - when the best candidate does not fit (vertex or triangle limit), the meshlet is closed and
 *     the next one starts from the candidate with the fewest live neighbours (a corner of the
 *     unclaimed region, so no island is left behind); when a meshlet has no candidate (its
 *     connected piece is used up) it keeps filling from the nearest live triangle to its centre
 *     (a grid of the centroids, meshlet_build_seed.c; on small meshes, the first few times, by
 *     looking at every triangle), so small disconnected pieces share meshlets;
 *   - meshes with more vertices than triangles (vertices split by normals or UVs, flat shading)
 *     are welded by position for the adjacency only, so growth crosses the splits instead of
 *     restarting at each; vertex counts stay those of the real vertices.
 * A meshlet is closed only when a triangle does not fit, so each one but the last has
 * max_triangles triangles or at least max_vertices - 2 vertices: kiln_meshlet_bound follows.
 * Everything is in one scratch block (plus the weld table and the restart grid when needed);
 * nothing is allocated per meshlet. No hash order or pointer value decides anything: same input,
 * same output. A call over a huge vertex range with few indices renumbers the vertices it uses
 * first, so its set-up is proportional to its indices. */
#include "process/meshlet_build.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "process/meshlet_build_private.h"

#define NO_SLOT   0xFFu
#define NO_CAND   0xFFFFu /* cand_pos of a triangle that is not a candidate */
#define CAND_CAP  1024u   /* candidates per meshlet; more (huge fans) wait for a later restart */
#define DRIFT     0.2f /* all scores stale when the centre moved this much of the expected radius */
#define AXIS_TURN 0.98f /* or the mean normal turned past this cosine (11.5°) */
/* Weight of the distance from the centre in a score, in expected radii: 2 makes rounder meshlets
 * than 1 (mean bounding radius 0.5-3 % smaller on bench_meshlets' inputs, as many meshlets). */
#define DISTANCE 2.0
#define NONE     UINT32_MAX
/* Restarts of meshes up to BRUTE_TRIS triangles (the DAG's groups, small models) look at every
 * triangle, BRUTE_CALLS times at most, before the restart index is built: its set-up costs
 * about as much as 12 such looks. Exact nearest restarts also gave Suzanne rounder meshlets
 * (mean radius 103.9 % of meshoptimizer's instead of 105.8 %); on Pirate (5010 triangles, 43
 * restarts) they gave a larger radius, hence the size limit. */
#define BRUTE_TRIS  4096u
#define BRUTE_CALLS 8u

size_t kiln_meshlet_bound(size_t index_count, size_t max_vertices, size_t max_triangles)
{
    if (index_count < 3 || max_vertices < 3 || max_triangles < 1) return 0;
    /* Closed meshlets: those with max_triangles triangles, plus those with at least
     * max_vertices - 2 vertices, each introduced by its own index; plus the last one. */
    return (index_count / 3) / max_triangles + index_count / (max_vertices - 2) + 1;
}

typedef struct builder {
    const uint32_t *idx;  /* local vertex numbers, 3 per triangle */
    const uint32_t *aidx; /* the same welded by position (or idx itself): what adjacency uses */
    const uint32_t *vmap; /* local -> caller's vertex, or NULL when they are the same */
    uint32_t tri_count, emitted;
    uint32_t max_v, max_t;
    float cone_weight, dist_scale; /* dist_scale: DISTANCE * (1 - cone_weight) / expected radius */
    /* per local vertex */
    uint32_t *adj_off, *adj_len, *live, *adj;
    uint8_t *slot; /* the vertex's place in the current meshlet, or NO_SLOT */
    /* per triangle */
    kiln_meshlet_cone *cone;
    uint16_t *cand_pos; /* its place in cand_*, or NO_CAND */
    uint8_t *done;
    uint8_t *dangling; /* it is the last live triangle of one of its (welded) vertices */
    /* candidates of the current meshlet */
    uint32_t *cand_tri, *cand_key, *free_stack;
    uint8_t *cand_in; /* how many of its vertices are in the meshlet */
    uint32_t cand_n, cand_cap, free_n;
    /* the candidates' cand_in counts by events (one per corner joining), without reading the
     * corners: exact when adjacency and meshlet use the same vertices (no weld) and no
     * candidate was refused for room in this meshlet */
    bool welded, overflow;
    /* the current meshlet */
    float acc_c[3], acc_n[3], centre[3], axis[3];
    float scored_centre[3], scored_axis[3]; /* what the candidates' scores were computed with */
    float drift2;                           /* squared centre movement that calls for a rescore */
    bool stale;                             /* every score is to be computed again */
    uint32_t *unscored, unscored_n;         /* candidates added since the last scan, unscored */
    uint32_t vc, tc;
    uint32_t *out_v;
    uint8_t *out_t;
    /* last, left out of the set-up's clearing (5 KiB; a small call pays for it): */
    kiln_meshlet_seeds seeds; /* set when built (seeds_built) */
    uint32_t local_v[256];    /* the meshlet's vertices, local numbers */
} builder;

static inline uint32_t make_score(const builder *b, uint32_t t)
{
    const kiln_meshlet_cone *k = &b->cone[t];
    const float *o = b->centre, *a = b->axis;
    float dx = k->c[0] - o[0], dy = k->c[1] - o[1], dz = k->c[2] - o[2];
    float d = sqrtf(dx * dx + dy * dy + dz * dz);
    float spread = k->n[0] * a[0] + k->n[1] * a[1] + k->n[2] * a[2];
    float cone = 1.0f - spread * b->cone_weight;
    if (!(cone > 1e-3f)) cone = 1e-3f;
    float s = (1.0f + d * b->dist_scale) * cone;
    uint32_t u;
    memcpy(&u, &s, sizeof u);
    return (u & 0x7FFFFFFFu) >> 2; /* positive floats order as their bits; 30 bits left */
}

/* A candidate's priority in the top bits of its key, by [dangling][corners in the meshlet]. */
static const uint32_t PRIORITY_KEY[2][4] = {{3u << 30, 3u << 30, 2u << 30, 0},
                                            {1u << 30, 1u << 30, 1u << 30, 0}};
#define SCORE_BITS 0x3FFFFFFFu

static inline uint32_t priority_key(const builder *b, uint32_t t, uint32_t in)
{
    return PRIORITY_KEY[b->dangling[t]][in & 3];
}

static inline bool is_cand(const builder *b, uint32_t t) { return b->cand_pos[t] != NO_CAND; }

static inline void set_priority(builder *b, uint32_t p, uint32_t t, uint32_t in)
{
    b->cand_key[p] = priority_key(b, t, in) | (b->cand_key[p] & SCORE_BITS);
}

static void remove_cand(builder *b, uint32_t t)
{
    uint32_t p = b->cand_pos[t], last = --b->cand_n;
    b->cand_pos[t] = NO_CAND;
    if (p != last) {
        b->cand_tri[p] = b->cand_tri[last];
        b->cand_key[p] = b->cand_key[last];
        b->cand_in[p] = b->cand_in[last];
        b->cand_pos[b->cand_tri[p]] = (uint16_t)p;
    }
}

/* Vertices of t not yet in the meshlet (repeated corners counted once). */
static uint32_t new_vertices(const builder *b, uint32_t t)
{
    const uint32_t *v = b->idx + (size_t)t * 3;
    return (b->slot[v[0]] == NO_SLOT) + (b->slot[v[1]] == NO_SLOT && v[1] != v[0]) +
           (b->slot[v[2]] == NO_SLOT && v[2] != v[0] && v[2] != v[1]);
}

/* Scores the candidates added since the last scan. */
static void score_added(builder *b)
{
    for (uint32_t i = 0; i < b->unscored_n; i++) {
        uint32_t t = b->unscored[i];
        if (is_cand(b, t)) {
            uint32_t p = b->cand_pos[t];
            b->cand_key[p] = (b->cand_key[p] & ~SCORE_BITS) | make_score(b, t);
        }
    }
    b->unscored_n = 0;
}

/* Every entry of the stack is a candidate (free ones are taken before any other choice), so it
 * never holds more than cand_cap; the check is a guard. */
static void push_free(builder *b, uint32_t t)
{
    if (KILN_ALWAYS(b->free_n < b->cand_cap)) b->free_stack[b->free_n++] = t;
}

/* How many corners of t are in the meshlet. */
static uint32_t corners_in(const builder *b, uint32_t t)
{
    const uint32_t *v = b->idx + (size_t)t * 3;
    return (b->slot[v[0]] != NO_SLOT) + (b->slot[v[1]] != NO_SLOT) + (b->slot[v[2]] != NO_SLOT);
}

/* A vertex at position v (welded number) joined the meshlet: the live triangles around v
 * become candidates or move up. Emitted triangles met in its list are dropped from it. */
static void vertex_joined(builder *b, uint32_t v)
{
    /* locals: the byte stores below would otherwise make the compiler reload every field */
    uint32_t *list = b->adj + b->adj_off[v];
    uint32_t n = b->adj_len[v];
    const uint8_t *done = b->done, *dangling = b->dangling;
    uint16_t *cand_pos = b->cand_pos;
    uint8_t *cand_in = b->cand_in;
    uint32_t *cand_key = b->cand_key, *cand_tri = b->cand_tri;
    bool counted = !b->welded && !b->overflow;
    for (uint32_t i = 0; i < n;) {
        uint32_t t = list[i];
        if (done[t]) {
            list[i] = list[--n];
            continue;
        }
        i++;
        uint32_t p = cand_pos[t];
        if (p != NO_CAND) {
            uint32_t old = cand_in[p];
            uint32_t in = counted ? old + 1u : corners_in(b, t);
            if (in != old) {
                if (in == 3) push_free(b, t);
                cand_in[p] = (uint8_t)in;
                cand_key[p] = PRIORITY_KEY[dangling[t]][in & 3] | (cand_key[p] & SCORE_BITS);
            }
            continue;
        }
        if (b->cand_n == b->cand_cap) {
            b->overflow = true;
            counted = false;
            continue;
        }
        /* counted: a triangle with a corner in the meshlet is a candidate, so this is its
         * first corner in (a repeated corner comes again in the list) */
        uint32_t in = counted ? 1u : corners_in(b, t);
        p = b->cand_n++;
        cand_tri[p] = t;
        cand_in[p] = (uint8_t)in;
        cand_pos[t] = (uint16_t)p;
        cand_key[p] = PRIORITY_KEY[dangling[t]][in & 3]; /* scored before the next scan */
        if (b->unscored_n == b->cand_cap) score_added(b);
        b->unscored[b->unscored_n++] = t;
        if (in == 3) push_free(b, t);
    }
    b->adj_len[v] = n;
}

/* v has one live triangle left: it becomes dangling (for good: it stays v's last one until it
 * is emitted), and moves up if it is a candidate. */
static void vertex_dangling(builder *b, uint32_t v)
{
    uint32_t *list = b->adj + b->adj_off[v];
    uint32_t n = b->adj_len[v];
    for (uint32_t i = 0; i < n;) {
        uint32_t t = list[i];
        if (b->done[t]) {
            list[i] = list[--n];
            continue;
        }
        b->dangling[t] = 1;
        uint32_t p = b->cand_pos[t];
        if (p != NO_CAND) set_priority(b, p, t, b->cand_in[p]);
        break;
    }
    b->adj_len[v] = n;
}

/* The meshlet's centre and mean normal from the sums (when they are needed, not at every
 * triangle: a square root and two divisions). */
static void update_cone(builder *b)
{
    float inv = 1.0f / (float)b->tc;
    for (int i = 0; i < 3; i++) b->centre[i] = b->acc_c[i] * inv;
    float len =
        sqrtf(b->acc_n[0] * b->acc_n[0] + b->acc_n[1] * b->acc_n[1] + b->acc_n[2] * b->acc_n[2]);
    float il = len > 0 ? 1.0f / len : 0.0f;
    for (int i = 0; i < 3; i++) b->axis[i] = b->acc_n[i] * il;
}

static void rescore(builder *b)
{
    update_cone(b);
    b->stale = false;
    b->unscored_n = 0;
    memcpy(b->scored_centre, b->centre, sizeof b->centre);
    memcpy(b->scored_axis, b->axis, sizeof b->axis);
    for (uint32_t p = 0; p < b->cand_n; p++)
        b->cand_key[p] = (b->cand_key[p] & ~SCORE_BITS) | make_score(b, b->cand_tri[p]);
}

static void add_triangle(builder *b, uint32_t t)
{
    b->done[t] = 1;
    if (b->seeds.done) kiln_meshlet_seeds_done(&b->seeds, t);
    b->emitted++;
    if (b->cand_pos[t] != NO_CAND) remove_cand(b, t);
    kiln_meshlet_cone k = b->cone[t]; /* a copy: the float stores to the sums could alias it */
    for (int i = 0; i < 3; i++) b->acc_c[i] += k.c[i], b->acc_n[i] += k.n[i];

    const uint32_t *v = b->idx + (size_t)t * 3, *a = b->aidx + (size_t)t * 3;
    uint8_t *slot = b->slot, *tri = b->out_t + (size_t)b->tc * 3;
    b->tc++;
    for (int c = 0; c < 3; c++) {
        uint32_t x = v[c], s = slot[x];
        if (s == NO_SLOT) {
            s = b->vc++;
            slot[x] = (uint8_t)s;
            b->local_v[s] = x;
            b->out_v[s] = b->vmap ? b->vmap[x] : x;
            vertex_joined(b, a[c]);
        }
        tri[c] = (uint8_t)s;
    }
    uint32_t *live = b->live;
    for (int c = 0; c < 3; c++)
        if (--live[a[c]] == 1) vertex_dangling(b, a[c]);
}

/* Before a scan: every score again when the centre or the mean normal has drifted since the
 * scores were computed, else only those of the candidates added since the last scan. The test
 * works on the sums, without the square root and divisions of update_cone (needed only when
 * something is to be scored): the centre moved by more than sqrt(drift2) when
 * |acc_c - tc * scored_centre| > tc * sqrt(drift2), and the normal turned past AXIS_TURN when
 * acc_n . scored_axis < AXIS_TURN * |acc_n|. */
static void prepare_scores(builder *b)
{
    float tc = (float)b->tc;
    float dx = b->acc_c[0] - tc * b->scored_centre[0], dy = b->acc_c[1] - tc * b->scored_centre[1],
          dz = b->acc_c[2] - tc * b->scored_centre[2];
    float dot = b->acc_n[0] * b->scored_axis[0] + b->acc_n[1] * b->scored_axis[1] +
                b->acc_n[2] * b->scored_axis[2];
    float n2 = b->acc_n[0] * b->acc_n[0] + b->acc_n[1] * b->acc_n[1] + b->acc_n[2] * b->acc_n[2];
    if (b->stale || dx * dx + dy * dy + dz * dz > b->drift2 * tc * tc || !(dot > 0) ||
        dot * dot < AXIS_TURN * AXIS_TURN * n2)
        rescore(b);
    else if (b->unscored_n > 0) {
        update_cone(b);
        score_added(b);
    }
}

/* The candidate with the fewest live triangles around it: where the next meshlet starts. */
static uint32_t topological_seed(const builder *b)
{
    uint32_t best = NONE, best_live = UINT32_MAX, best_key = UINT32_MAX;
    for (uint32_t p = 0; p < b->cand_n; p++) {
        const uint32_t *v = b->aidx + (size_t)b->cand_tri[p] * 3;
        uint32_t l = b->live[v[0]] + b->live[v[1]] + b->live[v[2]];
        if (l < best_live || (l == best_live && b->cand_key[p] < best_key))
            best = b->cand_tri[p], best_live = l, best_key = b->cand_key[p];
    }
    return best;
}

/* The live triangle whose centroid is nearest p (the first of equals; NaN centroids never),
 * by looking at every one: cheaper than building the restart index for a small mesh restarted
 * a few times (a small group of the DAG, a model of a few pieces). NONE when none is found. */
static uint32_t nearest_brute(const builder *b, const float p[3])
{
    uint32_t best = NONE;
    float best_d = INFINITY;
    for (uint32_t t = 0; t < b->tri_count; t++) {
        if (b->done[t]) continue;
        const float *c = b->cone[t].c;
        float dx = c[0] - p[0], dy = c[1] - p[1], dz = c[2] - p[2];
        float d = dx * dx + dy * dy + dz * dz;
        if (d < best_d || (best == NONE && d == best_d)) best = t, best_d = d;
    }
    return best;
}

/* Closes the current meshlet (if it has triangles) into meshlets[*count]. */
static void close_meshlet(builder *b, kiln_meshlet *meshlets, size_t *count, size_t *voff,
                          size_t *toff)
{
    if (b->tc == 0) return;
    kiln_meshlet *m = &meshlets[(*count)++];
    m->vertex_offset = (uint32_t)*voff;
    m->triangle_offset = (uint32_t)*toff;
    m->vertex_count = b->vc;
    m->triangle_count = b->tc;
    for (uint32_t i = 0; i < b->vc; i++) b->slot[b->local_v[i]] = NO_SLOT;
    for (uint32_t p = 0; p < b->cand_n; p++) b->cand_pos[b->cand_tri[p]] = NO_CAND;
    b->overflow = false;
    *voff += b->vc;
    *toff += (size_t)b->tc * 3;
    b->out_v += b->vc;
    b->out_t += (size_t)b->tc * 3;
    b->vc = b->tc = 0;
    b->cand_n = b->free_n = b->unscored_n = 0;
    b->stale = true;
    memset(b->acc_c, 0, sizeof b->acc_c);
    memset(b->acc_n, 0, sizeof b->acc_n);
}

/* Carves consecutive 16-byte aligned arrays out of one block. */
typedef struct carve {
    size_t size;
    bool overflow;
} carve;

static size_t carve_add(carve *c, size_t count, size_t elem)
{
    size_t bytes, at = c->size;
    if (!kiln_size_mul(count, elem, &bytes) || !kiln_size_add(bytes, 15, &bytes) ||
        !kiln_size_add(at, bytes & ~(size_t)15, &c->size))
        c->overflow = true;
    return at;
}

kiln_result kiln_meshlet_build(const kiln_allocator *alloc, const uint32_t *indices,
                               size_t index_count, const float *positions, size_t vertex_count,
                               size_t max_vertices, size_t max_triangles, float cone_weight,
                               kiln_meshlet *meshlets, uint32_t *meshlet_vertices,
                               uint8_t *meshlet_triangles, size_t *meshlet_count, kiln_error *err)
{
    *meshlet_count = 0;
    if (max_vertices < 3 || max_vertices > 255 || max_triangles < 1 || max_triangles > 512)
        return kiln_error_set(err, KILN_E_USAGE, "meshlets: limits outside 3..255 / 1..512");
    if (index_count % 3 != 0)
        return kiln_error_set(err, KILN_E_USAGE, "meshlets: %zu indices, not whole triangles",
                              index_count);
    if (index_count == 0) return KILN_OK;
    if (index_count / 3 >= UINT32_MAX || vertex_count >= UINT32_MAX)
        return kiln_error_set(err, KILN_E_LIMIT, "meshlets: over 2^32 triangles or vertices");
    uint32_t tri_count = (uint32_t)(index_count / 3);

    builder b;
    memset(&b, 0, offsetof(builder, seeds));
    b.seeds.done = NULL; /* add_triangle's "is the index built" */
    kiln_meshlet_compaction cv = {0};
    kiln_result rc = KILN_OK;
    size_t nv = vertex_count;
    uint8_t *block = NULL;
    carve cs = {0, false};
    bool seeds_built = false;
    uint32_t brute_calls = 0;
    b.idx = indices;
    if (vertex_count / 4 > index_count + 256) {
        rc = kiln_meshlet_compact(&cv, alloc, indices, index_count, vertex_count, err);
        if (rc != KILN_OK) goto done;
        b.idx = cv.idx, b.vmap = cv.vmap, nv = cv.vertex_count;
    }
    b.tri_count = tri_count;
    b.max_v = (uint32_t)max_vertices, b.max_t = (uint32_t)max_triangles;
    b.cone_weight = cone_weight >= 0 ? (cone_weight <= 1 ? cone_weight : 1) : 0; /* NaN: 0 */
    b.cand_cap = tri_count < CAND_CAP ? tri_count : CAND_CAP;

    size_t o_off = carve_add(&cs, nv + 1, 4), o_len = carve_add(&cs, nv, 4),
           o_live = carve_add(&cs, nv, 4), o_adj = carve_add(&cs, index_count, 4),
           o_cone = carve_add(&cs, tri_count, sizeof(kiln_meshlet_cone)),
           o_ctri = carve_add(&cs, b.cand_cap, 4), o_ckey = carve_add(&cs, b.cand_cap, 4),
           o_free = carve_add(&cs, b.cand_cap, 4), o_unsc = carve_add(&cs, b.cand_cap, 4),
           o_cpos = carve_add(&cs, tri_count, 2), o_cin = carve_add(&cs, b.cand_cap, 1),
           o_done = carve_add(&cs, tri_count, 1), o_dang = carve_add(&cs, tri_count, 1),
           o_slot = carve_add(&cs, nv, 1);
    /* More vertices than triangles: vertices split by normals or UVs (a closed smooth mesh has
     * about half as many, seams add a few); weld them for the adjacency. */
    bool weld = nv > tri_count;
    size_t o_aidx = carve_add(&cs, weld ? index_count : 0, 4);
    block = cs.overflow ? NULL : kiln_alloc_large(alloc, cs.size);
    if (!block) {
        rc = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "meshlets: scratch memory");
        goto done;
    }
    b.adj_off = (uint32_t *)(block + o_off), b.adj_len = (uint32_t *)(block + o_len);
    b.live = (uint32_t *)(block + o_live), b.adj = (uint32_t *)(block + o_adj);
    b.cone = (kiln_meshlet_cone *)(block + o_cone);
    b.cand_tri = (uint32_t *)(block + o_ctri), b.cand_key = (uint32_t *)(block + o_ckey);
    b.unscored = (uint32_t *)(block + o_unsc);
    b.stale = true;
    b.free_stack = (uint32_t *)(block + o_free), b.cand_pos = (uint16_t *)(block + o_cpos);
    b.cand_in = block + o_cin, b.done = block + o_done, b.dangling = block + o_dang,
    b.slot = block + o_slot;

    b.aidx = b.idx;
    size_t na = nv; /* adjacency vertices: the welded positions, or the vertices */
    if (weld) {
        uint32_t *aidx = (uint32_t *)(block + o_aidx);
        /* the weld reads positions through the indices: check them first */
        for (size_t i = 0; i < index_count && !b.vmap; i++)
            if (b.idx[i] >= nv) {
                rc = kiln_error_set(err, KILN_E_USAGE, "meshlets: index %zu (%u) out of range", i,
                                    (unsigned)b.idx[i]);
                goto done;
            }
        rc = kiln_meshlet_weld(aidx, &na, b.idx, index_count, positions, b.vmap, nv, alloc, err);
        if (rc != KILN_OK) goto done;
        b.aidx = aidx;
        b.welded = true;
    }

    /* Adjacency: each (welded) vertex's triangles, in triangle order (a counting sort: counts,
     * then each list's end, then filled backwards so each cursor ends at its list's start). The
     * count checks the indices (welded ones are in range). */
    memset(b.live, 0, na * sizeof(uint32_t));
    for (uint32_t t = 0; t < tri_count; t++) {
        const uint32_t *a = b.aidx + (size_t)t * 3;
        uint32_t a0 = a[0], a1 = a[1], a2 = a[2];
        if (a0 >= na || a1 >= na || a2 >= na) {
            size_t i = (size_t)t * 3 + (a0 >= na ? 0 : a1 >= na ? 1 : 2);
            rc = kiln_error_set(err, KILN_E_USAGE, "meshlets: index %zu (%u) out of range", i,
                                (unsigned)b.aidx[i]);
            goto done;
        }
        b.live[a0]++, b.live[a1]++, b.live[a2]++;
    }
    uint32_t sum = 0;
    for (size_t v = 0; v < na; v++) {
        sum += b.live[v];
        b.adj_off[v] = sum;
        b.adj_len[v] = b.live[v];
    }
    b.adj_off[na] = sum;
    for (uint32_t t = tri_count; t-- > 0;) {
        const uint32_t *a = b.aidx + (size_t)t * 3;
        b.adj[--b.adj_off[a[2]]] = t;
        b.adj[--b.adj_off[a[1]]] = t;
        b.adj[--b.adj_off[a[0]]] = t;
        /* a vertex of this triangle alone (a border corner) */
        b.dangling[t] = b.live[a[0]] == 1 || b.live[a[1]] == 1 || b.live[a[2]] == 1;
    }
    memset(b.cand_pos, 0xFF, (size_t)tri_count * sizeof(uint16_t)); /* NO_CAND */
    memset(b.done, 0, tri_count);
    memset(b.slot, NO_SLOT, nv);

    /* Centroids and normals; the first seed (the lowest corner, x + y + z; NaN never is); the
     * expected meshlet radius from the mean triangle area. */
    double area = 0;
    uint32_t first = 0;
    float first_key = INFINITY;
    for (uint32_t t = 0; t < tri_count; t++) {
        const uint32_t *tv = indices + (size_t)t * 3;
        const float *q0 = positions + (size_t)tv[0] * 3, *q1 = positions + (size_t)tv[1] * 3,
                    *q2 = positions + (size_t)tv[2] * 3;
        /* corners read first: the float stores below could alias positions */
        float p0[3] = {q0[0], q0[1], q0[2]}, p1[3] = {q1[0], q1[1], q1[2]},
              p2[3] = {q2[0], q2[1], q2[2]}, c[3], e1[3], e2[3];
        for (int i = 0; i < 3; i++) {
            c[i] = (p0[i] + p1[i] + p2[i]) * (1.0f / 3.0f);
            e1[i] = p1[i] - p0[i], e2[i] = p2[i] - p0[i];
        }
        float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                      e1[0] * e2[1] - e1[1] * e2[0]};
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        bool ok = len > 0 && len < INFINITY;
        float il = ok ? 1.0f / len : 0.0f;
        kiln_meshlet_cone *k = &b.cone[t];
        for (int i = 0; i < 3; i++) k->c[i] = c[i], k->n[i] = n[i] * il;
        area += ok ? (double)len : 0.0;
        float key = c[0] + c[1] + c[2];
        if (key < first_key) first = t, first_key = key;
    }
    area *= 0.5;
    double radius = sqrt(area / tri_count * (double)max_triangles) * 0.5;
    b.dist_scale =
        radius > 0 && radius < 1e30 ? (float)(DISTANCE * (1.0 - b.cone_weight) / radius) : 0.0f;
    b.drift2 = radius > 0 && radius < 1e30 ? (float)(radius * radius) * DRIFT * DRIFT : 0.0f;

    size_t count = 0, voff = 0, toff = 0;
    b.out_v = meshlet_vertices, b.out_t = meshlet_triangles;
    uint32_t t = first;
    for (;;) {
        add_triangle(&b, t);
        if (b.emitted == tri_count) break;
        t = NONE;
        bool fresh = false; /* t starts the next meshlet */
        if (b.tc == b.max_t) {
            t = topological_seed(&b);
            fresh = true;
        } else {
            while (b.free_n > 0 && t == NONE) {
                uint32_t f = b.free_stack[--b.free_n];
                if (!b.done[f] && new_vertices(&b, f) == 0) t = f;
            }
            if (t == NONE && b.cand_n > 0) {
                prepare_scores(&b);
                uint32_t best = 0, key = b.cand_key[0];
                for (uint32_t p = 1; p < b.cand_n; p++)
                    if (b.cand_key[p] < key) key = b.cand_key[p], best = p;
                t = b.cand_tri[best];
                if (b.vc + new_vertices(&b, t) > b.max_v) {
                    t = topological_seed(&b);
                    fresh = true;
                }
            }
        }
        if (t == NONE) {
            /* No neighbour: the nearest live triangle, in the current meshlet if it fits. */
            update_cone(&b);
            if (!seeds_built && tri_count <= BRUTE_TRIS && brute_calls < BRUTE_CALLS) {
                t = nearest_brute(&b, b.centre);
                brute_calls++;
            }
            if (t == NONE && !seeds_built) {
                rc = kiln_meshlet_seeds_build(&b.seeds, alloc, b.cone, b.done, tri_count, err);
                if (rc != KILN_OK) goto done;
                seeds_built = true;
            }
            if (t == NONE) t = kiln_meshlet_seeds_nearest(&b.seeds, b.centre);
            if (KILN_NEVER(t == NONE)) {
                rc = kiln_error_set(err, KILN_E_INTERNAL, "meshlets: live triangle not found");
                goto done;
            }
            fresh = b.tc == b.max_t || b.vc + new_vertices(&b, t) > b.max_v;
        }
        if (fresh) close_meshlet(&b, meshlets, &count, &voff, &toff);
    }
    close_meshlet(&b, meshlets, &count, &voff, &toff);
    *meshlet_count = count;

done:
    if (seeds_built) kiln_meshlet_seeds_free(&b.seeds);
    kiln_free_large(alloc, block, cs.size);
    kiln_meshlet_compaction_free(&cv, alloc);
    return rc;
}
