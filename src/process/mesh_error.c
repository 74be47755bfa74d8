/* mesh_error.c — an upper bound on the Hausdorff distance between two triangle lists
 * (mesh_error.h; docs/meshes.md, "How errors are measured").
 *
 * For each direction (a to b, then b to a) the bound is the largest, over the triangles t of
 * the "from" list, of a bound on sup over p in t of d(p, to), where d is the exact distance to
 * the nearest triangle of the other list (a BVH query, mesh_error_bvh.c). Bounds on one
 * triangle s with corners P0..P2, each corner's distance Di and nearest triangle Ni known:
 *
 *   Lipschitz  d is 1-Lipschitz, so sup_s d <= max Di + R(s), R the covering radius of the
 *              corners (circumradius of an acute triangle, half the longest side otherwise);
 *   one        d(p, T) to one triangle T is convex in p, so sup_s d <= sup_s d(., T) =
 *              max_i d(Pi, T), for T in {N0, N1, N2}: exact where s lies over one triangle;
 *   fan        around a vertex V the candidates share, wedges about V's normal axis, one per
 *              triangle of V's fan, partition space; s clipped to each wedge is a convex
 *              polygon over which d(., T) peaks at a corner (bound_fan). Exact up to the bend
 *              between the fan's triangles;
 *   hinge      where the fan is no disc: two candidates sharing an edge, s cut by the plane
 *              through that edge bisecting their dihedral angle, the same argument.
 *
 * Any partition gives a valid bound; the geometry only makes it tight. The best is taken; if it
 * exceeds what the exact distances found so far (the lower bound lb) allow, lb x (1 +
 * KILN_ERR_SLACK) + a hair, the centroid's nearest triangle joins the candidates (and the fan
 * of the candidates' vertex nearest to it is tried), and then s is cut into four at its edge
 * midpoints (three more exact queries) and each quarter bounded again, down to KILN_ERR_DEPTH
 * levels and within a budget of queries proportional to the triangle counts; where either runs
 * out, the bound found so far is kept (valid, looser). So the answer lies in [H, max(H x (1 +
 * slack) + hair, the kept bounds)], H the true distance: before anything is cut, lb already
 * holds the exact distance of every vertex of both lists and of the centroids of the shorter.
 *
 * Floats: positions are copied to doubles, centred on the box of the used vertices (the
 * difference of two floats is exact in a double), and every distance is computed in doubles;
 * the rounding, below 1e-15 of the extent, is covered by adding extent x 2^-40 to the result,
 * which is then rounded up to a float. "A hair" is extent x 2^-22 (2.4e-7 of the extent): the
 * slack that lets two identical surfaces stop subdividing. */
#include "process/mesh_error.h"

#include <math.h>
#include <string.h>

#include "process/mesh_error_bvh.h"
#include "process/mesh_error_fan.h"
#include "process/mesh_error_overlay.h"

#define KILN_ERR_SLACK          0.25
#define KILN_ERR_DEPTH          12
#define KILN_ERR_BUDGET_PER_TRI 24 /* subdivision queries per triangle of both lists */
#define KILN_ERR_BUDGET_MIN     (1u << 12)

typedef struct err_pt {
    double p[3];
    double d;     /* exact distance to the other surface */
    uint32_t tri; /* the nearest triangle there (tree index) */
} err_pt;

typedef struct err_ctx {
    const kiln_err_bvh *to;
    kiln_err_fans *fans; /* the wedges of to's vertices */
    double lb;           /* the largest exact distance found */
    double hair;         /* absolute slack */
    double bound;        /* the largest bound kept for a (sub)triangle */
    size_t budget;       /* subdivision queries left */
} err_ctx;

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double *a, const double *b, double *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static double dist_to(const kiln_err_bvh *t, uint32_t tri, const double p[3])
{
    const kiln_err_tri *x = &t->tris[tri];
    return sqrt(kiln_err_point_tri_d2(p, x->p[0], x->p[1], x->p[2]));
}

static void query(err_ctx *c, err_pt *q, uint32_t seed)
{
    q->d = sqrt(kiln_err_bvh_nearest(c->to, q->p, seed, &q->tri));
    if (q->d > c->lb) c->lb = q->d;
}

/* The largest distance from a point of the triangle to its nearest corner. */
static double cover_radius(const err_pt *s)
{
    double e[3][3], l2[3];
    for (int i = 0; i < 3; i++) {
        const double *a = s[i].p, *b = s[(i + 1) % 3].p;
        for (int k = 0; k < 3; k++) e[i][k] = b[k] - a[k];
        l2[i] = dot3(e[i], e[i]);
    }
    double m = l2[0] > l2[1] ? (l2[0] > l2[2] ? l2[0] : l2[2]) : (l2[1] > l2[2] ? l2[1] : l2[2]);
    double n[3];
    cross3(e[0], e[1], n);
    double area2 = sqrt(dot3(n, n)); /* twice the area */
    /* Acute or right: the circumcentre is inside and is the farthest point. Obtuse (or flat):
     * the farthest point lies on the boundary, within half the longest side of a corner. */
    if (2 * m <= l2[0] + l2[1] + l2[2] && area2 > 0) {
        double r = sqrt(l2[0]) * sqrt(l2[1]) * sqrt(l2[2]) / (2 * area2);
        double h = 0.5 * sqrt(m);
        return r > h ? r : h;
    }
    return 0.5 * sqrt(m);
}

/* The "one" bound: max over corners of the distance to triangle tri. */
static double bound_one(const err_ctx *c, const err_pt *s, uint32_t tri, double stop)
{
    double u = 0;
    for (int i = 0; i < 3 && u < stop; i++) {
        double d = s[i].tri == tri ? s[i].d : dist_to(c->to, tri, s[i].p);
        if (d > u) u = d;
    }
    return u;
}

/* The "hinge" bound for two triangles of the other surface that share an edge, or +inf. */
static double bound_hinge(const err_ctx *c, const err_pt *s, uint32_t t1, uint32_t t2)
{
    const kiln_err_tri *x = &c->to->tris[t1], *y = &c->to->tris[t2];
    int shared[2], n = 0, other = -1;
    for (int i = 0; i < 3; i++) {
        int found = 0;
        for (int j = 0; j < 3; j++) found |= x->v[i] == y->v[j];
        if (found && n < 2) shared[n++] = i;
        else if (!found) other = i;
    }
    if (n != 2 || other < 0) return INFINITY;
    const double *u = x->p[shared[0]], *w = x->p[shared[1]];
    double e1[3], e2[3], n1[3], n2[3], dir[3], sum[3], m[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = x->p[1][k] - x->p[0][k], e2[k] = x->p[2][k] - x->p[0][k];
        dir[k] = w[k] - u[k];
    }
    cross3(e1, e2, n1);
    for (int k = 0; k < 3; k++) e1[k] = y->p[1][k] - y->p[0][k], e2[k] = y->p[2][k] - y->p[0][k];
    cross3(e1, e2, n2);
    double l1 = sqrt(dot3(n1, n1)), l2 = sqrt(dot3(n2, n2));
    if (!(l1 > 0) || !(l2 > 0)) return INFINITY;
    double sg = dot3(n1, n2) < 0 ? -1.0 : 1.0; /* opposite windings: flip one normal */
    for (int k = 0; k < 3; k++) sum[k] = n1[k] / l1 + sg * n2[k] / l2;
    cross3(dir, sum, m);
    double o[3] = {x->p[other][0] - u[0], x->p[other][1] - u[1], x->p[other][2] - u[2]};
    double side = dot3(m, o);
    if (!(side != 0)) return INFINITY;
    if (side < 0)
        for (int k = 0; k < 3; k++) m[k] = -m[k];
    /* Corners with h >= 0 go to t1, h <= 0 to t2; a cut point on an edge that crosses goes to
     * both (it is a corner of both pieces). */
    double h[3], out = 0;
    for (int i = 0; i < 3; i++) {
        double r[3] = {s[i].p[0] - u[0], s[i].p[1] - u[1], s[i].p[2] - u[2]};
        h[i] = dot3(m, r);
        if (h[i] >= 0) {
            double d = s[i].tri == t1 ? s[i].d : dist_to(c->to, t1, s[i].p);
            if (d > out) out = d;
        }
        if (h[i] <= 0) {
            double d = s[i].tri == t2 ? s[i].d : dist_to(c->to, t2, s[i].p);
            if (d > out) out = d;
        }
    }
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        if (!((h[i] > 0 && h[j] < 0) || (h[i] < 0 && h[j] > 0))) continue;
        double f = h[i] / (h[i] - h[j]), q[3];
        for (int k = 0; k < 3; k++) q[k] = s[i].p[k] + f * (s[j].p[k] - s[i].p[k]);
        double d1 = dist_to(c->to, t1, q), d2 = dist_to(c->to, t2, q);
        if (d1 > out) out = d1;
        if (d2 > out) out = d2;
    }
    return out;
}

/* The "fan" bound around vertex vtx of the other surface: s clipped to each wedge of the fan
 * (mesh_error_fan.c) is a convex polygon, over which the distance to the wedge's triangle peaks
 * at a corner (convexity, as in "one"). A fan without wedges: +inf. */
static double bound_fan(err_ctx *c, const err_pt *s, uint32_t vtx, double stop)
{
    kiln_err_wedge scratch[KILN_ERR_FAN_MAX + 2];
    kiln_err_fan fan = kiln_err_fan_of(c->fans, vtx, scratch);
    if (!fan.count) return INFINITY;
    const double *v = fan.v;
    double out = 0;
    for (uint32_t k = 0; k < fan.count; k++) {
        const kiln_err_wedge *wd = &fan.wedge[k];
        uint32_t tri = wd->tri;
        /* s clipped to the wedge: from-plane >= 0, then to-plane <= 0 (at most 5 corners). */
        double poly[2][8][3];
        int known[2][8];
        int cnt = 3, cur = 0;
        for (int i = 0; i < 3; i++) {
            memcpy(poly[0][i], s[i].p, sizeof poly[0][i]);
            known[0][i] = i;
        }
        for (int pass = 0; pass < 2 && cnt; pass++) {
            const double *mm = pass ? wd->to : wd->from;
            double sg = pass ? -1.0 : 1.0, h[8];
            for (int i = 0; i < cnt; i++) {
                double d[3] = {poly[cur][i][0] - v[0], poly[cur][i][1] - v[1],
                               poly[cur][i][2] - v[2]};
                h[i] = sg * dot3(mm, d);
            }
            int nc = 0, nx = cur ^ 1;
            for (int i = 0; i < cnt; i++) {
                int j = (i + 1) % cnt;
                if (h[i] >= 0) {
                    memcpy(poly[nx][nc], poly[cur][i], sizeof poly[nx][nc]);
                    known[nx][nc++] = known[cur][i];
                }
                if ((h[i] > 0 && h[j] < 0) || (h[i] < 0 && h[j] > 0)) {
                    double f = h[i] / (h[i] - h[j]);
                    for (int q = 0; q < 3; q++)
                        poly[nx][nc][q] = poly[cur][i][q] + f * (poly[cur][j][q] - poly[cur][i][q]);
                    known[nx][nc++] = -1;
                }
            }
            cnt = nc, cur = nx;
        }
        for (int i = 0; i < cnt; i++) {
            int kn = known[cur][i];
            double d = kn >= 0 && s[kn].tri == tri ? s[kn].d : dist_to(c->to, tri, poly[cur][i]);
            if (d > out) out = d;
            if (out >= stop) return out;
        }
    }
    return out;
}

/* Of the corners of triangles t[0..n) of the other surface, the one nearest to p. */
static uint32_t nearest_vertex(const kiln_err_bvh *to, const uint32_t *t, int n, const double *p)
{
    uint32_t best = UINT32_MAX;
    double bd = INFINITY;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 3; j++) {
            const double *q = to->tris[t[i]].p[j];
            double d[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]}, l = dot3(d, d);
            if (l < bd) bd = l, best = to->tris[t[i]].v[j];
        }
    return best;
}

/* A vertex of the other surface shared by triangles t[0..n), or UINT32_MAX. */
static uint32_t common_vertex(const kiln_err_bvh *to, const uint32_t *t, int n)
{
    const kiln_err_tri *x = &to->tris[t[0]];
    for (int j = 0; j < 3; j++) {
        int all = 1;
        for (int i = 1; i < n && all; i++) {
            const kiln_err_tri *y = &to->tris[t[i]];
            all = y->v[0] == x->v[j] || y->v[1] == x->v[j] || y->v[2] == x->v[j];
        }
        if (all) return x->v[j];
    }
    return UINT32_MAX;
}

typedef struct err_item {
    err_pt s[3];
    err_pt centroid; /* valid when has_centroid */
    int depth, has_centroid;
} err_item;

/* Bounds sup over the triangle of d and folds it into c->bound. */
static void bound_triangle(err_ctx *c, const err_pt *tri, const err_pt *centroid)
{
    err_item stack[3 * KILN_ERR_DEPTH + 2];
    size_t top = 0;
    memcpy(stack[0].s, tri, sizeof stack[0].s);
    stack[0].depth = 0;
    stack[0].has_centroid = centroid != NULL;
    if (centroid) stack[0].centroid = *centroid;
    top = 1;
    while (top) {
        err_item it = stack[--top];
        const err_pt *s = it.s;
        double lo = s[0].d > s[1].d ? s[0].d : s[1].d;
        if (s[2].d > lo) lo = s[2].d;
        /* The cheapest bound first; the next ones only while s could still raise the answer
         * (u > lb). Subdivision only past the slack (accept). */
        double accept = c->lb * (1.0 + KILN_ERR_SLACK) + c->hair;
        double u = lo + cover_radius(s);
        if (u <= c->lb) continue;
        for (int i = 0; i < 3 && u > c->lb; i++) {
            if (i && (s[i].tri == s[0].tri || (i == 2 && s[2].tri == s[1].tri))) continue;
            double v = bound_one(c, s, s[i].tri, u);
            if (v < u) u = v;
        }
        uint32_t cand[4] = {s[0].tri, s[1].tri, s[2].tri, UINT32_MAX}, fan_done = UINT32_MAX;
        if (u > c->lb && (cand[0] != cand[1] || cand[0] != cand[2])) {
            kiln_err_corner k3[3] = {
                {s[0].p, s[0].d, s[0].tri}, {s[1].p, s[1].d, s[1].tri}, {s[2].p, s[2].d, s[2].tri}};
            double v = kiln_err_overlay_bound(c->to, k3, u);
            if (v < u) u = v;
        }
        if (u > c->lb && (cand[0] != cand[1] || cand[0] != cand[2])) {
            double v = INFINITY;
            fan_done = common_vertex(c->to, cand, 3);
            if (fan_done != UINT32_MAX) v = bound_fan(c, s, fan_done, u);
            if (v < u) u = v;
            /* a fan that is no disc (a fold, a non-manifold edge): the hinge of two of them */
            for (int i = 0; i < 3 && u > c->lb && v == INFINITY; i++) {
                uint32_t t1 = s[i].tri, t2 = s[(i + 1) % 3].tri;
                if (t1 == t2) continue;
                double h = bound_hinge(c, s, t1, t2);
                if (h < u) u = h;
            }
        }
        /* The centroid's nearest triangle is one more candidate: the triangle that s lies over
         * when its corners sit on edges or vertices and picked neighbours (the middle quarter
         * has the same centroid, so it inherits the answer). */
        if (u > accept && c->budget >= 1) {
            if (!it.has_centroid) {
                for (int k = 0; k < 3; k++)
                    it.centroid.p[k] = (s[0].p[k] + s[1].p[k] + s[2].p[k]) / 3.0;
                c->budget--;
                query(c, &it.centroid, s[0].tri);
                it.has_centroid = 1;
            }
            uint32_t tc = it.centroid.tri;
            if (tc != s[0].tri && tc != s[1].tri && tc != s[2].tri) {
                double v = bound_one(c, s, tc, u);
                if (v < u) u = v;
                for (int i = 0; i < 3 && u > c->lb; i++) {
                    v = bound_hinge(c, s, tc, s[i].tri);
                    if (v < u) u = v;
                }
                cand[3] = tc;
                uint32_t vtx = common_vertex(c->to, cand, 4);
                if (u > c->lb && vtx != UINT32_MAX && vtx != fan_done) {
                    v = bound_fan(c, s, vtx, u);
                    if (v < u) u = v;
                    fan_done = vtx;
                }
            }
            /* s may still lie within one fan that no candidate pair shares: the fan of the
             * candidates' vertex nearest to the centroid. */
            uint32_t vtx =
                nearest_vertex(c->to, cand, tc != cand[0] && tc != cand[1] && tc != cand[2] ? 4 : 3,
                               it.centroid.p);
            if (u > c->lb && vtx != fan_done) {
                double v = bound_fan(c, s, vtx, u);
                if (v < u) u = v;
            }
        }
        if (u <= accept || it.depth >= KILN_ERR_DEPTH || c->budget < 3) {
            if (u > c->bound && u > c->lb) c->bound = u;
            continue;
        }
        c->budget -= 3;
        err_pt m[3];
        for (int i = 0; i < 3; i++) {
            const err_pt *a = &s[i], *b = &s[(i + 1) % 3];
            for (int k = 0; k < 3; k++) m[i].p[k] = 0.5 * (a->p[k] + b->p[k]);
            query(c, &m[i], a->tri);
        }
        /* corners' quarters, then the middle one */
        const err_pt quarter[4][3] = {
            {s[0], m[0], m[2]}, {m[0], s[1], m[1]}, {m[2], m[1], s[2]}, {m[0], m[1], m[2]}};
        for (int q = 0; q < 4; q++) {
            memcpy(stack[top].s, quarter[q], sizeof stack[top].s);
            stack[top].has_centroid = q == 3;
            stack[top].centroid = it.centroid;
            stack[top++].depth = it.depth + 1;
        }
    }
}

/* Compact vertex numbering (first use in a, then b): a direct table when the vertex buffer is
 * not much larger than the index lists, else an open-addressing hash, so a small group over a
 * large buffer costs memory in its own size. */
typedef struct err_map {
    uint32_t *direct; /* vertex_count entries, or NULL */
    uint32_t *keys, *vals;
    size_t mask, cap, direct_count;
    uint32_t count;
} err_map;

static uint32_t map_get(err_map *m, uint32_t v)
{
    if (m->direct) {
        if (m->direct[v] == UINT32_MAX) m->direct[v] = m->count++;
        return m->direct[v];
    }
    size_t h = ((uint64_t)v * 0x9E3779B97F4A7C15ull >> 20) & m->mask;
    while (m->vals[h] != UINT32_MAX && m->keys[h] != v) h = (h + 1) & m->mask;
    if (m->vals[h] == UINT32_MAX) m->keys[h] = v, m->vals[h] = m->count++;
    return m->vals[h];
}

typedef struct err_work {
    const kiln_allocator *alloc;
    err_map map;
    uint32_t *ia, *ib; /* compact indices */
    size_t ta, tb;
    double *pos;
    uint8_t *used;       /* bit 0: a corner of a, bit 1: of b */
    err_pt *to_b, *to_a; /* per compact vertex: distance to b (used by a), to a (used by b) */
    err_pt *cent;        /* per triangle of the shorter list: its centroid's distance */
    size_t cent_count;
    kiln_err_bvh bvh_a, bvh_b;
    kiln_err_fans fans_a, fans_b;
} err_work;

static void work_free(err_work *w)
{
    const kiln_allocator *al = w->alloc;
    size_t n = w->map.count;
    kiln_free(al, w->map.direct, w->map.direct_count * sizeof(uint32_t));
    kiln_free(al, w->map.keys, w->map.cap * sizeof(uint32_t));
    kiln_free(al, w->map.vals, w->map.cap * sizeof(uint32_t));
    kiln_free_large(al, w->ia, w->ta * 3 * sizeof(uint32_t));
    kiln_free_large(al, w->ib, w->tb * 3 * sizeof(uint32_t));
    kiln_free_large(al, w->pos, n * 3 * sizeof(double));
    kiln_free(al, w->used, n);
    kiln_free_large(al, w->to_b, n * sizeof(err_pt));
    kiln_free_large(al, w->to_a, n * sizeof(err_pt));
    kiln_free_large(al, w->cent, w->cent_count * sizeof(err_pt));
    kiln_err_fans_free(al, &w->fans_a);
    kiln_err_fans_free(al, &w->fans_b);
    kiln_err_bvh_free(al, &w->bvh_a);
    kiln_err_bvh_free(al, &w->bvh_b);
}

/* One direction: every triangle of `from` (idx) against c->to; near: the corners' answers,
 * cent: the centroids' (or NULL). */
static void bound_direction(err_ctx *c, const uint32_t *idx, size_t tris, const err_pt *near,
                            const err_pt *cent)
{
    for (size_t t = 0; t < tris; t++) {
        err_pt s[3];
        for (int j = 0; j < 3; j++) s[j] = near[idx[t * 3 + j]];
        bound_triangle(c, s, cent ? &cent[t] : NULL);
    }
}

kiln_result kiln_mesh_deviation(const kiln_allocator *alloc, const float *positions,
                                size_t vertex_count, const uint32_t *a, size_t a_count,
                                const uint32_t *b, size_t b_count, float *out, kiln_error *err)
{
    size_t ta = a_count / 3, tb = b_count / 3;
    *out = 0.0f;
    if (ta == 0 && tb == 0) return KILN_OK;
    if (ta == 0 || tb == 0) {
        *out = INFINITY;
        return KILN_OK;
    }
    for (size_t i = 0; i < ta * 3; i++)
        if (a[i] >= vertex_count)
            return kiln_error_set(err, KILN_E_USAGE, "mesh deviation: index %u out of range",
                                  (unsigned)a[i]);
    for (size_t i = 0; i < tb * 3; i++)
        if (b[i] >= vertex_count)
            return kiln_error_set(err, KILN_E_USAGE, "mesh deviation: index %u out of range",
                                  (unsigned)b[i]);
    if (ta > UINT32_MAX / 2 || tb > UINT32_MAX / 2)
        return kiln_error_set(err, KILN_E_LIMIT, "mesh deviation: too many triangles");

    err_work w;
    memset(&w, 0, sizeof w);
    w.alloc = alloc;
    w.ta = ta, w.tb = tb;
    size_t corners = (ta + tb) * 3;
    if (vertex_count <= 2 * corners) {
        w.map.direct_count = vertex_count;
        w.map.direct = kiln_alloc(alloc, vertex_count * sizeof(uint32_t));
        if (!w.map.direct) goto nomem;
        memset(w.map.direct, 0xff, vertex_count * sizeof(uint32_t));
    } else {
        size_t cap = 16;
        while (cap < 2 * corners) cap *= 2;
        w.map.mask = cap - 1;
        w.map.cap = cap;
        w.map.keys = kiln_alloc(alloc, cap * sizeof(uint32_t));
        w.map.vals = kiln_alloc(alloc, cap * sizeof(uint32_t));
        if (!w.map.keys || !w.map.vals) goto nomem;
        memset(w.map.vals, 0xff, cap * sizeof(uint32_t));
    }
    w.ia = kiln_alloc_large(alloc, ta * 3 * sizeof(uint32_t));
    w.ib = kiln_alloc_large(alloc, tb * 3 * sizeof(uint32_t));
    if (!w.ia || !w.ib) goto nomem;
    for (size_t i = 0; i < ta * 3; i++) w.ia[i] = map_get(&w.map, a[i]);
    for (size_t i = 0; i < tb * 3; i++) w.ib[i] = map_get(&w.map, b[i]);
    size_t n = w.map.count;
    /* The table is done with; its memory goes before the big arrays come. */
    kiln_free(alloc, w.map.direct, w.map.direct_count * sizeof(uint32_t));
    w.map.direct = NULL;
    w.map.direct_count = 0;
    uint32_t *ids = kiln_alloc(alloc, n * sizeof *ids); /* compact -> input vertex */
    w.pos = kiln_alloc_large(alloc, n * 3 * sizeof(double));
    w.used = kiln_calloc(alloc, n, 1);
    w.to_b = kiln_alloc_large(alloc, n * sizeof(err_pt));
    w.to_a = kiln_alloc_large(alloc, n * sizeof(err_pt));
    if (!ids || !w.pos || !w.used || !w.to_b || !w.to_a) {
        kiln_free(alloc, ids, n * sizeof *ids);
        goto nomem;
    }
    for (size_t i = 0; i < ta * 3; i++) ids[w.ia[i]] = a[i], w.used[w.ia[i]] |= 1;
    for (size_t i = 0; i < tb * 3; i++) ids[w.ib[i]] = b[i], w.used[w.ib[i]] |= 2;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t v = 0; v < n; v++)
        for (int k = 0; k < 3; k++) {
            double x = positions[(size_t)ids[v] * 3 + k];
            if (x < lo[k]) lo[k] = x;
            if (x > hi[k]) hi[k] = x;
        }
    double extent = 0;
    int finite = 1;
    for (int k = 0; k < 3; k++) {
        finite &= isfinite(lo[k]) && isfinite(hi[k]);
        if (hi[k] - lo[k] > extent) extent = hi[k] - lo[k];
    }
    for (size_t v = 0; v < n; v++)
        for (int k = 0; k < 3; k++)
            w.pos[v * 3 + k] = (double)positions[(size_t)ids[v] * 3 + k] - 0.5 * (lo[k] + hi[k]);
    kiln_free(alloc, ids, n * sizeof *ids);
    if (!finite) {
        work_free(&w);
        *out = INFINITY;
        return KILN_OK;
    }
    if (!kiln_err_bvh_build(alloc, w.pos, n, w.ia, ta, &w.bvh_a) ||
        !kiln_err_bvh_build(alloc, w.pos, n, w.ib, tb, &w.bvh_b) ||
        !kiln_err_fans_init(alloc, &w.bvh_a, &w.fans_a) ||
        !kiln_err_fans_init(alloc, &w.bvh_b, &w.fans_b))
        goto nomem;

    err_ctx ca = {&w.bvh_b, &w.fans_b, 0, ldexp(extent, -22), 0, 0}; /* a to b */
    err_ctx cb = {&w.bvh_a, &w.fans_a, 0, ldexp(extent, -22), 0, 0}; /* b to a */
    /* Every corner's exact distance, seeded with the previous corner's answer (compact order
     * follows the triangles, so neighbours come one after another). A vertex of both lists is
     * at distance 0 from the other, on any triangle around it there. */
    uint32_t seed_a = UINT32_MAX, seed_b = UINT32_MAX;
    for (size_t v = 0; v < n; v++) {
        if (w.used[v] == 3) {
            memcpy(w.to_b[v].p, w.pos + v * 3, sizeof w.to_b[v].p);
            memcpy(w.to_a[v].p, w.pos + v * 3, sizeof w.to_a[v].p);
            w.to_b[v].d = w.to_a[v].d = 0;
            w.to_b[v].tri = w.bvh_b.fan_tris[w.bvh_b.fan_start[v]];
            w.to_a[v].tri = w.bvh_a.fan_tris[w.bvh_a.fan_start[v]];
            continue;
        }
        if (w.used[v] & 1) {
            memcpy(w.to_b[v].p, w.pos + v * 3, sizeof w.to_b[v].p);
            query(&ca, &w.to_b[v], seed_b);
            seed_b = w.to_b[v].tri;
        }
        if (w.used[v] & 2) {
            memcpy(w.to_a[v].p, w.pos + v * 3, sizeof w.to_a[v].p);
            query(&cb, &w.to_a[v], seed_a);
            seed_a = w.to_a[v].tri;
        }
    }
    /* The centroids of the shorter list, where a coarse surface is farthest from a fine one:
     * they raise the lower bound before anything is cut, and are the fourth candidate of their
     * triangles later. */
    int short_a = ta < tb;
    size_t tn = short_a ? ta : tb;
    w.cent = kiln_alloc_large(alloc, tn * sizeof *w.cent);
    w.cent_count = tn;
    if (!w.cent) goto nomem;
    {
        err_ctx *c = short_a ? &ca : &cb;
        const uint32_t *idx = short_a ? w.ia : w.ib;
        const err_pt *near = short_a ? w.to_b : w.to_a;
        for (size_t t = 0; t < tn; t++) {
            err_pt *q = &w.cent[t];
            for (int k = 0; k < 3; k++)
                q->p[k] = (w.pos[idx[t * 3] * 3 + k] + w.pos[idx[t * 3 + 1] * 3 + k] +
                           w.pos[idx[t * 3 + 2] * 3 + k]) /
                          3.0;
            query(c, q, near[idx[t * 3]].tri);
        }
    }
    /* Both directions share the lower bound: the result is the larger of the two anyway. */
    double lb = ca.lb > cb.lb ? ca.lb : cb.lb;
    ca.lb = cb.lb = lb;
    size_t budget = (ta + tb) * KILN_ERR_BUDGET_PER_TRI;
    if (budget < KILN_ERR_BUDGET_MIN) budget = KILN_ERR_BUDGET_MIN;
    ca.budget = cb.budget = budget / 2;
    bound_direction(&ca, w.ia, ta, w.to_b, short_a ? w.cent : NULL);
    cb.lb = ca.lb > cb.lb ? ca.lb : cb.lb;
    cb.budget += ca.budget;
    bound_direction(&cb, w.ib, tb, w.to_a, short_a ? NULL : w.cent);
    double r = ca.lb > cb.lb ? ca.lb : cb.lb;
    if (ca.bound > r) r = ca.bound;
    if (cb.bound > r) r = cb.bound;
    r += ldexp(extent, -40);
    work_free(&w);
    float f = (float)r;
    if ((double)f < r) f = nextafterf(f, INFINITY);
    *out = isnan(f) ? INFINITY : f;
    return KILN_OK;
nomem:
    work_free(&w);
    return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "mesh deviation: out of memory");
}
