/* mesh_error_fan.c — the wedges of a vertex fan (mesh_error_fan.h), for the "fan" bound of
 * kiln_mesh_deviation (mesh_error.c).
 *
 * The fan's triangles projected along their summed normal N are wedges around the axis (V, N);
 * the planes through the axis and each edge (V, W) cut space into wedges that tile it (rays
 * sorted by angle, each wedge under a half turn), each wedge given the fan triangle between its
 * two rays; on a border, the open gap is halved and each half given to the triangle beside it
 * (points beyond a border are nearest to it). Any assignment of wedges to triangles gives a
 * valid bound; the projection only makes it tight. */
#include "process/mesh_error_fan.h"

#include <math.h>
#include <string.h>

/* Wedges a pool may hold: 64 MiB, whatever the tree's size. */
#define KILN_ERR_FAN_POOL_MAX ((size_t)64 << 20) / sizeof(kiln_err_wedge)

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

/* A monotonic stand-in for atan2(y, x), in [0, 4): sorts directions by angle without a
 * library call; 2 is a half turn. */
static double pseudo_angle(double x, double y)
{
    double l = fabs(x) + fabs(y);
    if (!(l > 0)) return 0.0;
    double p = y / l; /* in [-1, 1] */
    return x >= 0 ? (y >= 0 ? p : 4.0 + p) : 2.0 - p;
}

/* The wedges of vertex vtx into out; returns their count, 0 when the fan has none. *v: the
 * vertex's position. */
static uint32_t fan_wedges(const kiln_err_bvh *to, uint32_t vtx, kiln_err_wedge *out,
                           const double **v_out)
{
    uint32_t f0 = to->fan_start[vtx], fn = to->fan_start[vtx + 1] - f0;
    *v_out = NULL;
    if (fn < 1 || fn > KILN_ERR_FAN_MAX) return 0;
    const uint32_t *fan = to->fan_tris + f0;
    const double *v = NULL;
    double nsum[3] = {0, 0, 0};
    uint32_t ray_id[KILN_ERR_FAN_MAX * 2 + 1];
    const double *ray_p[KILN_ERR_FAN_MAX * 2 + 1];
    /* per ray, the fan triangles that have it as an edge (a disc: two; a border ray: one) */
    uint32_t ray_tri[KILN_ERR_FAN_MAX * 2 + 1][2];
    uint32_t ray_n[KILN_ERR_FAN_MAX * 2 + 1];
    size_t rays = 0;
    for (uint32_t i = 0; i < fn; i++) {
        const kiln_err_tri *t = &to->tris[fan[i]];
        double e1[3], e2[3], n[3];
        for (int k = 0; k < 3; k++)
            e1[k] = t->p[1][k] - t->p[0][k], e2[k] = t->p[2][k] - t->p[0][k];
        cross3(e1, e2, n);
        for (int k = 0; k < 3; k++) nsum[k] += n[k];
        for (int j = 0; j < 3; j++) {
            if (t->v[j] == vtx) {
                v = t->p[j];
                continue;
            }
            size_t r = 0;
            while (r < rays && ray_id[r] != t->v[j]) r++;
            if (r == rays) ray_id[rays] = t->v[j], ray_p[rays] = t->p[j], ray_n[rays++] = 0;
            if (ray_n[r] < 2) ray_tri[r][ray_n[r]] = fan[i];
            ray_n[r]++;
        }
    }
    /* A closed fan has as many rays as triangles, a fan on one border one more. */
    if (!v || (rays != fn && rays != fn + 1) || (rays == fn && fn < 3)) return 0;
    *v_out = v;
    double nl = sqrt(dot3(nsum, nsum));
    if (!(nl > 0)) return 0;
    double N[3] = {nsum[0] / nl, nsum[1] / nl, nsum[2] / nl};
    /* a frame e1, e2 across N */
    double a[3] = {fabs(N[0]) < 0.6 ? 1.0 : 0.0, fabs(N[0]) < 0.6 ? 0.0 : 1.0, 0.0}, e1[3], e2[3];
    cross3(N, a, e1);
    double l1 = sqrt(dot3(e1, e1));
    for (int k = 0; k < 3; k++) e1[k] /= l1;
    cross3(N, e1, e2);
    double ang[KILN_ERR_FAN_MAX + 1];
    uint32_t order[KILN_ERR_FAN_MAX + 1];
    /* m[r]: normal of the plane through the axis and ray r; (m . (p - V)) > 0 when p lies
     * counter-clockwise of the ray around N. */
    double m[KILN_ERR_FAN_MAX + 1][3], bis[3];
    double ray_d[KILN_ERR_FAN_MAX + 1][3];
    for (size_t r = 0; r < rays; r++) {
        double *w = ray_d[r];
        for (int q = 0; q < 3; q++) w[q] = ray_p[r][q] - v[q];
        ang[r] = pseudo_angle(dot3(w, e1), dot3(w, e2));
        cross3(N, w, m[r]);
        size_t at = r;
        while (at > 0 && ang[order[at - 1]] > ang[r]) order[at] = order[at - 1], at--;
        order[at] = (uint32_t)r;
    }
    uint32_t wedges = 0;
    int gaps = 0;
    for (size_t k = 0; k < rays; k++) {
        uint32_t r0 = order[k], r1 = order[(k + 1) % rays];
        double span = ang[r1] - ang[r0];
        if (k + 1 == rays) span += 4.0;
        /* the first fan triangle (in tree order) with both rays, and with each */
        uint32_t tri = UINT32_MAX, t0 = ray_tri[r0][0], t1 = ray_tri[r1][0];
        if (ray_n[r0] <= 2 && ray_n[r1] <= 2) {
            for (uint32_t i = 0; i < ray_n[r0]; i++)
                for (uint32_t j = 0; j < ray_n[r1]; j++)
                    if (ray_tri[r0][i] == ray_tri[r1][j] && ray_tri[r0][i] < tri)
                        tri = ray_tri[r0][i];
        } else { /* an edge of three or more triangles: the fan in full */
            for (uint32_t i = 0; i < fn && tri == UINT32_MAX; i++) {
                const kiln_err_tri *t = &to->tris[fan[i]];
                int h0 = 0, h1 = 0;
                for (int j = 0; j < 3; j++)
                    h0 |= t->v[j] == ray_id[r0], h1 |= t->v[j] == ray_id[r1];
                if (h0 && h1) tri = fan[i];
            }
        }
        if (tri != UINT32_MAX) {
            /* under a half turn: ray r1 strictly counter-clockwise of r0 */
            if (!(span > 0 && span < 2.0 && dot3(m[r0], ray_d[r1]) > 0)) return 0;
            memcpy(out[wedges].from, m[r0], sizeof out[wedges].from);
            memcpy(out[wedges].to, m[r1], sizeof out[wedges].to);
            out[wedges++].tri = tri;
            continue;
        }
        if (gaps++ || rays != fn + 1 || !(span > 0 && span < 4.0)) return 0;
        /* the gap's bisector: across N, between the two rays' unit directions (the other way
         * round when the gap is wider than a half turn); each half must stay under one */
        double u0[3], u1[3], dir[3];
        for (int q = 0; q < 3; q++) {
            u0[q] = ray_d[r0][q] - dot3(ray_d[r0], N) * N[q];
            u1[q] = ray_d[r1][q] - dot3(ray_d[r1], N) * N[q];
        }
        double l0 = sqrt(dot3(u0, u0)), l1v = sqrt(dot3(u1, u1));
        if (!(l0 > 0 && l1v > 0)) return 0;
        for (int q = 0; q < 3; q++) dir[q] = u0[q] / l0 + u1[q] / l1v;
        double ld = sqrt(dot3(dir, dir));
        if (ld > 1e-3) {
            double sgn = span > 2.0 ? -1.0 : 1.0;
            for (int q = 0; q < 3; q++) dir[q] *= sgn / ld;
        } else { /* a straight border: a quarter turn from r0 */
            double u0n[3] = {u0[0] / l0, u0[1] / l0, u0[2] / l0};
            cross3(N, u0n, dir);
        }
        cross3(N, dir, bis);
        if (!(dot3(m[r0], dir) > 0 && dot3(bis, ray_d[r1]) > 0)) return 0;
        memcpy(out[wedges].from, m[r0], sizeof out[wedges].from);
        memcpy(out[wedges].to, bis, sizeof out[wedges].to);
        out[wedges++].tri = t0;
        memcpy(out[wedges].from, bis, sizeof out[wedges].from);
        memcpy(out[wedges].to, m[r1], sizeof out[wedges].to);
        out[wedges++].tri = t1;
    }
    if (rays == fn + 1 && gaps != 1) return 0;
    return wedges;
}

bool kiln_err_fans_init(const kiln_allocator *alloc, const kiln_err_bvh *tree, kiln_err_fans *f)
{
    memset(f, 0, sizeof *f);
    f->tree = tree;
    f->vertex_count = tree->vertex_count;
    /* A fan has at most its triangles + 2 wedges: 3 per triangle and 2 per vertex in all. */
    size_t cap = tree->tri_count * 3 + tree->vertex_count * 2;
    if (cap > KILN_ERR_FAN_POOL_MAX) cap = KILN_ERR_FAN_POOL_MAX;
    f->slot = kiln_alloc_large(alloc, f->vertex_count * sizeof *f->slot);
    f->pool = kiln_alloc_large(alloc, cap * sizeof *f->pool);
    f->capacity = cap;
    if (!f->slot || !f->pool) {
        kiln_err_fans_free(alloc, f);
        return false;
    }
    memset(f->slot, 0xff, f->vertex_count * sizeof *f->slot);
    return true;
}

void kiln_err_fans_free(const kiln_allocator *alloc, kiln_err_fans *f)
{
    kiln_free_large(alloc, f->slot, f->vertex_count * sizeof *f->slot);
    kiln_free_large(alloc, f->pool, f->capacity * sizeof *f->pool);
    memset(f, 0, sizeof *f);
}

kiln_err_fan kiln_err_fan_of(kiln_err_fans *f, uint32_t vtx,
                             kiln_err_wedge scratch[KILN_ERR_FAN_MAX + 2])
{
    kiln_err_fan out = {NULL, NULL, 0};
    const kiln_err_bvh *to = f->tree;
    uint32_t s = f->slot[vtx];
    if (s != UINT32_MAX) {
        out.count = s & 31;
        out.wedge = f->pool + (s >> 5);
        if (out.count) {
            /* the vertex: a corner of its fan's first triangle */
            const kiln_err_tri *t = &to->tris[to->fan_tris[to->fan_start[vtx]]];
            out.v = t->v[0] == vtx ? t->p[0] : t->v[1] == vtx ? t->p[1] : t->p[2];
        }
        return out;
    }
    uint32_t n = fan_wedges(to, vtx, scratch, &out.v);
    out.count = n;
    out.wedge = scratch;
    if (f->used + n <= f->capacity && (f->used >> 27) == 0) {
        memcpy(f->pool + f->used, scratch, n * sizeof *scratch);
        f->slot[vtx] = (uint32_t)(f->used << 5 | n);
        out.wedge = f->pool + f->used;
        f->used += n;
    }
    if (!n) out.v = NULL;
    return out;
}
