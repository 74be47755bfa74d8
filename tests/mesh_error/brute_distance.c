/* brute_distance.c — the tests' own surface-to-surface measurement (brute_distance.h). */
#include "brute_distance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct vec {
    double x, y, z;
} vec;

static vec ld(const float *pos, uint32_t i)
{
    vec v = {pos[(size_t)i * 3], pos[(size_t)i * 3 + 1], pos[(size_t)i * 3 + 2]};
    return v;
}
static vec sub(vec a, vec b)
{
    vec v = {a.x - b.x, a.y - b.y, a.z - b.z};
    return v;
}
static double dot(vec a, vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static vec cross(vec a, vec b)
{
    vec v = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return v;
}

static double seg2(vec p, vec a, vec b)
{
    vec ab = sub(b, a), ap = sub(p, a);
    double l = dot(ab, ab), t = l > 0 ? dot(ap, ab) / l : 0;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    vec q = {a.x + t * ab.x - p.x, a.y + t * ab.y - p.y, a.z + t * ab.z - p.z};
    return dot(q, q);
}

/* Project onto the plane; inside (all three edge normals agree) the plane distance, else the
 * nearest of the three edges. */
static double tri2(vec p, vec a, vec b, vec c)
{
    vec n = cross(sub(b, a), sub(c, a));
    double nn = dot(n, n);
    if (nn > 0) {
        double h = dot(sub(p, a), n);
        vec q = {p.x - h / nn * n.x, p.y - h / nn * n.y, p.z - h / nn * n.z};
        double s0 = dot(cross(sub(b, a), sub(q, a)), n), s1 = dot(cross(sub(c, b), sub(q, b)), n),
               s2 = dot(cross(sub(a, c), sub(q, c)), n);
        if (s0 >= 0 && s1 >= 0 && s2 >= 0) return h * h / nn;
    }
    double d0 = seg2(p, a, b), d1 = seg2(p, b, c), d2 = seg2(p, c, a);
    return fmin(d0, fmin(d1, d2));
}

typedef struct grid {
    const float *pos;
    const uint32_t *idx;
    double lo[3], cell;
    int n[3];
    uint32_t *start, *items; /* per cell: items[start[c] .. start[c+1]) */
} grid;

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static void cell_of(const grid *g, const double *p, int *c)
{
    for (int k = 0; k < 3; k++)
        c[k] = clampi((int)floor((p[k] - g->lo[k]) / g->cell), 0, g->n[k] - 1);
}

static void grid_build(grid *g, const float *pos, const uint32_t *idx, size_t tris)
{
    memset(g, 0, sizeof *g);
    g->pos = pos, g->idx = idx;
    double hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int k = 0; k < 3; k++) g->lo[k] = INFINITY;
    for (size_t i = 0; i < tris * 3; i++)
        for (int k = 0; k < 3; k++) {
            double x = pos[(size_t)idx[i] * 3 + k];
            g->lo[k] = fmin(g->lo[k], x), hi[k] = fmax(hi[k], x);
        }
    double ext = fmax(hi[0] - g->lo[0], fmax(hi[1] - g->lo[1], hi[2] - g->lo[2]));
    double res = ceil(sqrt((double)tris) * 0.7);
    if (res < 1) res = 1;
    if (res > 200) res = 200;
    g->cell = ext > 0 ? ext / res : 1;
    size_t cells = 1;
    for (int k = 0; k < 3; k++) {
        g->n[k] = (int)((hi[k] - g->lo[k]) / g->cell) + 1;
        cells *= (size_t)g->n[k];
    }
    g->start = calloc(cells + 1, sizeof *g->start);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t t = 0; t < tris; t++) {
            double tlo[3], thi[3];
            for (int k = 0; k < 3; k++) {
                tlo[k] = INFINITY, thi[k] = -INFINITY;
                for (int j = 0; j < 3; j++) {
                    double x = pos[(size_t)idx[t * 3 + j] * 3 + k];
                    tlo[k] = fmin(tlo[k], x), thi[k] = fmax(thi[k], x);
                }
            }
            int c0[3], c1[3];
            cell_of(g, tlo, c0), cell_of(g, thi, c1);
            for (int z = c0[2]; z <= c1[2]; z++)
                for (int y = c0[1]; y <= c1[1]; y++)
                    for (int x = c0[0]; x <= c1[0]; x++) {
                        size_t c = ((size_t)z * g->n[1] + y) * g->n[0] + x;
                        if (pass == 0) g->start[c + 1]++;
                        else g->items[g->start[c]++] = (uint32_t)t;
                    }
        }
        if (pass == 0) {
            for (size_t c = 0; c < cells; c++) g->start[c + 1] += g->start[c];
            g->items = malloc((g->start[cells] + 1) * sizeof *g->items);
        } else {
            for (size_t c = cells; c > 0; c--) g->start[c] = g->start[c - 1];
            g->start[0] = 0;
        }
    }
}

static double tri_at(const grid *g, uint32_t t, vec p)
{
    return tri2(p, ld(g->pos, g->idx[t * 3]), ld(g->pos, g->idx[t * 3 + 1]),
                ld(g->pos, g->idx[t * 3 + 2]));
}

/* Rings of cells around p's cell until no unvisited cell can hold anything nearer. */
static double grid_nearest(const grid *g, vec p)
{
    double pp[3] = {p.x, p.y, p.z}, best = INFINITY;
    int c[3];
    cell_of(g, pp, c);
    int maxr = g->n[0] + g->n[1] + g->n[2];
    for (int r = 0; r <= maxr; r++) {
        for (int z = c[2] - r; z <= c[2] + r; z++)
            for (int y = c[1] - r; y <= c[1] + r; y++)
                for (int x = c[0] - r; x <= c[0] + r; x++) {
                    if (abs(z - c[2]) != r && abs(y - c[1]) != r && abs(x - c[0]) != r) continue;
                    if (x < 0 || y < 0 || z < 0 || x >= g->n[0] || y >= g->n[1] || z >= g->n[2])
                        continue;
                    size_t cell = ((size_t)z * g->n[1] + y) * g->n[0] + x;
                    for (uint32_t i = g->start[cell]; i < g->start[cell + 1]; i++) {
                        double d = tri_at(g, g->items[i], p);
                        if (d < best) best = d;
                    }
                }
        /* Every cell outside the cube of rings 0..r is at least this far from p. */
        double m = INFINITY;
        int whole = 1;
        for (int k = 0; k < 3; k++) {
            double lo = g->lo[k] + (c[k] - r) * g->cell, hi = g->lo[k] + (c[k] + r + 1) * g->cell;
            if (c[k] - r > 0) m = fmin(m, pp[k] - lo), whole = 0;
            if (c[k] + r + 1 < g->n[k]) m = fmin(m, hi - pp[k]), whole = 0;
        }
        if (whole) break;
        if (m > 0 && best <= m * m) break;
    }
    return sqrt(best);
}

static double rnd01(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return (x >> 8) / 16777216.0;
}

/* The largest distance from samples of `from` to the surface in g. */
static double one_way(const float *pos, const uint32_t *from, size_t tris, const grid *g,
                      size_t samples, uint32_t *seed)
{
    double area = 0, worst = 0;
    for (size_t t = 0; t < tris; t++) {
        vec a = ld(pos, from[t * 3]), b = ld(pos, from[t * 3 + 1]), c = ld(pos, from[t * 3 + 2]);
        area += sqrt(dot(cross(sub(b, a), sub(c, a)), cross(sub(b, a), sub(c, a))));
    }
    for (size_t t = 0; t < tris; t++) {
        vec v[3];
        for (int j = 0; j < 3; j++) v[j] = ld(pos, from[t * 3 + j]);
        vec n = cross(sub(v[1], v[0]), sub(v[2], v[0]));
        double share = area > 0 ? sqrt(dot(n, n)) / area : 1.0 / (double)tris;
        size_t k = 1 + (size_t)(share * (double)samples);
        for (int j = 0; j < 3; j++) {
            worst = fmax(worst, grid_nearest(g, v[j]));
            for (int e = 1; e < 4; e++) {
                double f = e / 4.0;
                vec q = {v[j].x + f * (v[(j + 1) % 3].x - v[j].x),
                         v[j].y + f * (v[(j + 1) % 3].y - v[j].y),
                         v[j].z + f * (v[(j + 1) % 3].z - v[j].z)};
                worst = fmax(worst, grid_nearest(g, q));
            }
        }
        for (size_t i = 0; i < k; i++) {
            double u = rnd01(seed), w = rnd01(seed);
            if (u + w > 1) u = 1 - u, w = 1 - w;
            vec q = {v[0].x + u * (v[1].x - v[0].x) + w * (v[2].x - v[0].x),
                     v[0].y + u * (v[1].y - v[0].y) + w * (v[2].y - v[0].y),
                     v[0].z + u * (v[1].z - v[0].z) + w * (v[2].z - v[0].z)};
            worst = fmax(worst, grid_nearest(g, q));
        }
    }
    return worst;
}

double bd_hausdorff(const float *pos, const uint32_t *a, size_t na, const uint32_t *b, size_t nb,
                    size_t samples, uint32_t seed)
{
    size_t ta = na / 3, tb = nb / 3;
    if (ta == 0 && tb == 0) return 0;
    if (ta == 0 || tb == 0) return INFINITY;
    grid ga, gb;
    grid_build(&ga, pos, a, ta);
    grid_build(&gb, pos, b, tb);
    double h =
        fmax(one_way(pos, a, ta, &gb, samples, &seed), one_way(pos, b, tb, &ga, samples, &seed));
    free(ga.start), free(ga.items), free(gb.start), free(gb.items);
    return h;
}

double bd_directed(const float *pos, const uint32_t *from, size_t nfrom, const uint32_t *to,
                   size_t nto, size_t samples, uint32_t seed)
{
    size_t tf = nfrom / 3, tt = nto / 3;
    if (tf == 0) return 0;
    if (tt == 0) return INFINITY;
    grid gt;
    grid_build(&gt, pos, to, tt);
    double h = one_way(pos, from, tf, &gt, samples, &seed);
    free(gt.start), free(gt.items);
    return h;
}
