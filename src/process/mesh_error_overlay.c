/* mesh_error_overlay.c — the overlay bound (mesh_error_overlay.h).
 *
 * The triangles T of the other surface under s are projected along s's normal onto s's plane,
 * in s's own affine coordinates (alpha, beta): s is the triangle (0,0) (1,0) (0,1) there. s is
 * cut by each projected T into a convex piece (s clipped to T's three edges), and the distance
 * to T, convex, peaks over a piece at one of its corners: the bound is the largest distance
 * from a piece's corner to its T. Any cover of s by pieces gives a valid bound, whichever
 * triangle each piece is given; the projection only makes it tight where the surfaces run
 * side by side.
 *
 * The cover: the triangles are visited from those nearest to s's corners across their edges.
 * Wherever a visited T's edge crosses the inside of s, the triangle across that edge must
 * exist, run the same way round (its projection lies on the other side of the edge) and is
 * visited too; a border, a non-manifold edge or a fold (a projected triangle with no positive
 * area) there, and the overlay gives up. So the pieces' union has no edge inside s and covers
 * it. Edges are those of the welded surface (a seam's two sides are neighbours). Clipping uses
 * one orientation value per edge for both its triangles (computed from the lower welded vertex
 * id), so neighbouring pieces meet without a gap. */
#include "process/mesh_error_overlay.h"

#include <math.h>
#include <string.h>

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

static double orient(const double *a, const double *b, const double *p)
{
    return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
}

/* Whether the segment a-b runs through the inside of the unit triangle over a positive length
 * (the middle of its part within the closed triangle lies strictly inside). */
static int crosses_inside(const double *a, const double *b)
{
    double t0 = 0.0, t1 = 1.0;
    /* alpha >= 0, beta >= 0, 1 - alpha - beta >= 0 along a + t (b - a) */
    double f0[3] = {a[0], a[1], 1.0 - a[0] - a[1]};
    double fd[3] = {b[0] - a[0], b[1] - a[1], -(b[0] - a[0]) - (b[1] - a[1])};
    for (int k = 0; k < 3; k++) {
        if (fd[k] == 0) {
            if (f0[k] < 0) return 0;
            continue;
        }
        double t = -f0[k] / fd[k];
        if (fd[k] > 0) {
            if (t > t0) t0 = t;
        } else if (t < t1) {
            t1 = t;
        }
    }
    if (!(t1 > t0)) return 0;
    double tm = 0.5 * (t0 + t1);
    double al = a[0] + tm * fd[0], be = a[1] + tm * fd[1];
    return al > 0 && be > 0 && al + be < 1.0;
}

double kiln_err_overlay_bound(const kiln_err_bvh *to, const kiln_err_corner s[3], double stop)
{
    double e1[3], e2[3], n[3];
    for (int k = 0; k < 3; k++) e1[k] = s[1].p[k] - s[0].p[k], e2[k] = s[2].p[k] - s[0].p[k];
    cross3(e1, e2, n);
    double n2 = dot3(n, n);
    if (!(n2 > 1e-24 * dot3(e1, e1) * dot3(e2, e2))) return INFINITY;
    /* the dual basis: (r . g1, r . g2) are the affine coordinates of r's projection */
    double g1[3], g2[3];
    cross3(e2, n, g1);
    cross3(n, e1, g2);
    for (int k = 0; k < 3; k++) g1[k] /= n2, g2[k] /= n2;

    uint32_t list[KILN_ERR_OVERLAY_MAX];
    uint8_t needed[KILN_ERR_OVERLAY_MAX], bad[KILN_ERR_OVERLAY_MAX];
    size_t count = 0;
    for (int i = 0; i < 3; i++) {
        size_t k = 0;
        while (k < count && list[k] != s[i].tri) k++;
        if (k == count && s[i].tri < to->tri_count)
            list[count] = s[i].tri, needed[count] = 0, bad[count++] = 0;
    }
    double out = 0, covered = 0; /* twice the pieces' area; s has 1 */
    size_t pieces = 0;
    for (size_t head = 0; head < count; head++) {
        uint32_t t = list[head];
        const kiln_err_tri *x = &to->tris[t];
        double a[3][2];
        for (int k = 0; k < 3; k++) {
            double r[3] = {x->p[k][0] - s[0].p[0], x->p[k][1] - s[0].p[1], x->p[k][2] - s[0].p[2]};
            a[k][0] = dot3(r, g1), a[k][1] = dot3(r, g2);
        }
        if (!(orient(a[0], a[1], a[2]) > 0)) {
            if (needed[head]) return INFINITY;
            bad[head] = 1;
            continue;
        }
        /* s (the unit triangle) clipped to the projected T: at most 6 corners */
        double poly[2][9][2];
        int known[2][9], cnt = 3, cur = 0;
        static const double unit[3][2] = {{0, 0}, {1, 0}, {0, 1}};
        for (int i = 0; i < 3; i++) {
            poly[0][i][0] = unit[i][0], poly[0][i][1] = unit[i][1];
            known[0][i] = i;
        }
        for (int j = 0; j < 3 && cnt; j++) {
            int j1 = (j + 1) % 3;
            /* one orientation value per edge, whichever triangle asks */
            int flip = to->weld[x->v[j]] > to->weld[x->v[j1]];
            const double *p = flip ? a[j1] : a[j], *q = flip ? a[j] : a[j1];
            double h[9];
            for (int i = 0; i < cnt; i++) {
                double o = orient(p, q, poly[cur][i]);
                h[i] = flip ? -o : o;
            }
            int nc = 0, nx = cur ^ 1;
            for (int i = 0; i < cnt; i++) {
                int k = (i + 1) % cnt;
                if (h[i] >= 0) {
                    poly[nx][nc][0] = poly[cur][i][0], poly[nx][nc][1] = poly[cur][i][1];
                    known[nx][nc++] = known[cur][i];
                }
                if ((h[i] > 0 && h[k] < 0) || (h[i] < 0 && h[k] > 0)) {
                    double f = h[i] / (h[i] - h[k]);
                    for (int q2 = 0; q2 < 2; q2++)
                        poly[nx][nc][q2] =
                            poly[cur][i][q2] + f * (poly[cur][k][q2] - poly[cur][i][q2]);
                    known[nx][nc++] = -1;
                }
            }
            cnt = nc, cur = nx;
        }
        if (!cnt) continue;
        /* only a piece with area counts towards the cover (one that touches s at a corner
         * or along an edge covers nothing) */
        double area2 = 0;
        for (int i = 0; i < cnt; i++) {
            const double *p = poly[cur][i], *q = poly[cur][(i + 1) % cnt];
            area2 += p[0] * q[1] - p[1] * q[0];
        }
        if (area2 > 0) pieces++, covered += area2;
        for (int i = 0; i < cnt; i++) {
            int kn = known[cur][i];
            double d;
            if (kn >= 0 && s[kn].tri == t) {
                d = s[kn].d;
            } else {
                double p3[3];
                const double *pp = p3;
                if (kn >= 0) {
                    pp = s[kn].p;
                } else {
                    for (int k = 0; k < 3; k++)
                        p3[k] = s[0].p[k] + poly[cur][i][0] * e1[k] + poly[cur][i][1] * e2[k];
                }
                d = sqrt(kiln_err_point_tri_d2(pp, x->p[0], x->p[1], x->p[2]));
            }
            if (d > out) out = d;
            if (out >= stop) return out;
        }
        /* the triangles across the edges that run through s */
        for (int j = 0; j < 3; j++) {
            if (!crosses_inside(a[j], a[(j + 1) % 3])) continue;
            uint32_t nb = to->adj[(size_t)t * 3 + j];
            if (nb == UINT32_MAX) return INFINITY;
            size_t k = 0;
            while (k < count && list[k] != nb) k++;
            if (k < count) {
                if (bad[k]) return INFINITY;
                needed[k] = 1;
                continue;
            }
            if (count == KILN_ERR_OVERLAY_MAX) return INFINITY;
            list[count] = nb, needed[count] = 1, bad[count++] = 0;
        }
    }
    /* Rounding may leave pieces whose edges lie a hair inside s, which the edge rule reads as
     * on its border: the pieces must also add up to s's area. */
    return pieces && covered >= 1.0 - 1e-9 ? out : INFINITY;
}
