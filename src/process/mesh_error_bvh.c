/* mesh_error_bvh.c — nearest-triangle queries for kiln_mesh_deviation (mesh_error_bvh.h).
 *
 * The tree is a linear BVH: triangles sorted by the 30-bit Morton code of their centroid (a
 * stable radix sort, so equal codes keep their input order), then ranges split where their
 * highest differing bit changes until at most 4 triangles remain (depth <= 30 + log2 n, the
 * build O(n log n) at worst); the boxes are looser than a SAH build's, which a query pays for
 * in a few more box tests, not in correctness. Node boxes are floats rounded outwards;
 * everything else is in doubles: the positions are floats, so every
 * difference of two of them is exact, and the distances carry rounding of about 1e-16 of the
 * extent, which mesh_error.c's epsilon covers. */
#include "process/mesh_error_bvh.h"

#include <math.h>
#include <string.h>

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double seg_d2(const double p[3], const double a[3], const double b[3])
{
    double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    double l2 = dot3(ab, ab), t = l2 > 0 ? dot3(ap, ab) / l2 : 0.0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double d[3] = {ap[0] - t * ab[0], ap[1] - t * ab[1], ap[2] - t * ab[2]};
    return dot3(d, d);
}

static double pt_d2(const double p[3], const double q[3])
{
    double d[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    return dot3(d, d);
}

/* The Voronoi-region walk of the closest-point-on-triangle method (vertex, edge or face
 * region from the signs of six dot products). In the face region the distance is the plane
 * distance, which stays accurate for thin triangles where the barycentric point would not;
 * a triangle whose normal vanishes against its edges is a segment (or a point) and is
 * measured as the nearest of its three edges. */
double kiln_err_point_tri_d2(const double p[3], const double a[3], const double b[3],
                             const double c[3])
{
    double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double ac[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3] = {ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2],
                   ab[0] * ac[1] - ab[1] * ac[0]};
    double n2 = dot3(n, n);
    if (!(n2 > 1e-24 * dot3(ab, ab) * dot3(ac, ac))) {
        double d = seg_d2(p, a, b), e = seg_d2(p, b, c), f = seg_d2(p, a, c);
        return d < e ? (d < f ? d : f) : (e < f ? e : f);
    }
    double ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    double d1 = dot3(ab, ap), d2 = dot3(ac, ap);
    if (d1 <= 0 && d2 <= 0) return pt_d2(p, a);
    double bp[3] = {p[0] - b[0], p[1] - b[1], p[2] - b[2]};
    double d3 = dot3(ab, bp), d4 = dot3(ac, bp);
    if (d3 >= 0 && d4 <= d3) return pt_d2(p, b);
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return seg_d2(p, a, b);
    double cp[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
    double d5 = dot3(ab, cp), d6 = dot3(ac, cp);
    if (d6 >= 0 && d5 <= d6) return pt_d2(p, c);
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return seg_d2(p, a, c);
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return seg_d2(p, b, c);
    double h = dot3(n, ap);
    return h * h / n2;
}

/* Spreads the low 10 bits of x to every third bit. */
static uint32_t spread10(uint32_t x)
{
    x &= 0x3ff;
    x = (x | (x << 16)) & 0x030000ff;
    x = (x | (x << 8)) & 0x0300f00f;
    x = (x | (x << 4)) & 0x030c30c3;
    x = (x | (x << 2)) & 0x09249249;
    return x;
}

/* The box of n triangles in floats, rounded outwards (it may only grow). */
static void box_of(const kiln_err_tri *t, size_t n, float lo[3], float hi[3])
{
    double dl[3], dh[3];
    for (int k = 0; k < 3; k++) dl[k] = dh[k] = t[0].p[0][k];
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++) {
                double x = t[i].p[j][k];
                if (x < dl[k]) dl[k] = x;
                if (x > dh[k]) dh[k] = x;
            }
    for (int k = 0; k < 3; k++) {
        lo[k] = (float)dl[k], hi[k] = (float)dh[k];
        if ((double)lo[k] > dl[k]) lo[k] = nextafterf(lo[k], -INFINITY);
        if ((double)hi[k] < dh[k]) hi[k] = nextafterf(hi[k], INFINITY);
    }
}

/* Nodes of the range [first, first + count) in preorder; returns the node's index. A range
 * splits where its highest differing Morton bit changes (children that are compact cells of
 * space, as in an LBVH), or at the middle when all codes are equal. Depth <= 30 + log2 n. */
static uint32_t build_range(kiln_err_bvh *bvh, const uint64_t *keys, uint32_t first, uint32_t count)
{
    uint32_t at = (uint32_t)bvh->node_count++;
    kiln_err_node *nd = &bvh->nodes[at];
    if (count <= 4) {
        box_of(bvh->tris + first, count, nd->lo, nd->hi);
        nd->first = first;
        nd->count = count;
        return at;
    }
    uint32_t ca = (uint32_t)(keys[first] >> 32), cb = (uint32_t)(keys[first + count - 1] >> 32);
    uint32_t half = count / 2;
    if (ca != cb) {
        /* the first key with the top differing bit set: binary search in the sorted range */
        uint32_t bit = 31 - (uint32_t)__builtin_clz(ca ^ cb), mask = ~0u << bit;
        uint32_t want = (cb & mask), lo = 0, hi = count - 1;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (((uint32_t)(keys[first + mid] >> 32) & mask) >= want) hi = mid;
            else lo = mid + 1;
        }
        half = lo;
    }
    build_range(bvh, keys, first, half);
    uint32_t right = build_range(bvh, keys, first + half, count - half);
    nd = &bvh->nodes[at];
    const kiln_err_node *l = &bvh->nodes[at + 1], *r = &bvh->nodes[right];
    for (int k = 0; k < 3; k++) {
        nd->lo[k] = l->lo[k] < r->lo[k] ? l->lo[k] : r->lo[k];
        nd->hi[k] = l->hi[k] > r->hi[k] ? l->hi[k] : r->hi[k];
    }
    nd->first = right;
    nd->count = 0;
    return at;
}

void kiln_err_bvh_free(const kiln_allocator *alloc, kiln_err_bvh *bvh)
{
    kiln_free_large(alloc, bvh->tris, bvh->tri_count * sizeof *bvh->tris);
    kiln_free_large(alloc, bvh->nodes, bvh->node_capacity * sizeof *bvh->nodes);
    kiln_free_large(alloc, bvh->fan_start, (bvh->vertex_count + 1) * sizeof(uint32_t));
    kiln_free_large(alloc, bvh->fan_tris, bvh->tri_count * 3 * sizeof(uint32_t));
    kiln_free_large(alloc, bvh->adj, bvh->tri_count * 3 * sizeof(uint32_t));
    kiln_free_large(alloc, bvh->weld, bvh->vertex_count * sizeof(uint32_t));
    memset(bvh, 0, sizeof *bvh);
}

/* weld[v]: the first vertex at v's position (a UV or normal seam splits one position into
 * several vertices; across it the surface goes on), and adj: for every edge of the welded
 * surface, the one other triangle with it running the other way, from the welded fans. */
static bool weld_edges(const kiln_allocator *alloc, const double *pos, kiln_err_bvh *bvh)
{
    size_t nv = bvh->vertex_count, nt = bvh->tri_count, cap = 16;
    while (cap < 2 * nv) cap *= 2;
    uint32_t *table = kiln_alloc_large(alloc, cap * sizeof *table);
    uint32_t *ws = kiln_alloc_large(alloc, (nv + 1) * sizeof *ws);
    uint32_t *wt = kiln_alloc_large(alloc, nt * 3 * sizeof *wt);
    bvh->weld = kiln_alloc_large(alloc, nv * sizeof *bvh->weld);
    bool ok = table && ws && wt && bvh->weld;
    if (ok) {
        memset(table, 0xff, cap * sizeof *table);
        for (size_t v = 0; v < nv; v++) {
            const double *p = pos + v * 3;
            uint64_t h = 0;
            for (int k = 0; k < 3; k++) {
                uint64_t bits;
                double x = p[k] == 0 ? 0.0 : p[k]; /* -0 and +0 are one place */
                memcpy(&bits, &x, sizeof bits);
                h = (h ^ bits) * 0x9E3779B97F4A7C15ull;
            }
            size_t at = (size_t)(h >> 32) & (cap - 1);
            while (table[at] != UINT32_MAX &&
                   memcmp(pos + (size_t)table[at] * 3, p, 3 * sizeof *p) &&
                   !(pos[(size_t)table[at] * 3] == p[0] && pos[(size_t)table[at] * 3 + 1] == p[1] &&
                     pos[(size_t)table[at] * 3 + 2] == p[2]))
                at = (at + 1) & (cap - 1);
            if (table[at] == UINT32_MAX) table[at] = (uint32_t)v;
            bvh->weld[v] = table[at];
        }
        /* the welded fans: counts, prefix sums, triangles */
        memset(ws, 0, (nv + 1) * sizeof *ws);
        for (size_t i = 0; i < nt; i++)
            for (int j = 0; j < 3; j++) ws[bvh->weld[bvh->tris[i].v[j]] + 1]++;
        for (size_t v = 0; v < nv; v++) ws[v + 1] += ws[v];
        for (size_t i = 0; i < nt; i++)
            for (int j = 0; j < 3; j++) wt[ws[bvh->weld[bvh->tris[i].v[j]]]++] = (uint32_t)i;
        for (size_t v = nv; v > 0; v--) ws[v] = ws[v - 1];
        ws[0] = 0;
        for (size_t i = 0; i < nt; i++)
            for (int j = 0; j < 3; j++) {
                uint32_t a = bvh->weld[bvh->tris[i].v[j]],
                         b = bvh->weld[bvh->tris[i].v[(j + 1) % 3]];
                uint32_t across = UINT32_MAX, others = 0, prev = UINT32_MAX;
                for (uint32_t f = ws[b]; f < ws[b + 1]; f++) {
                    uint32_t t = wt[f];
                    if (t == i || t == prev) continue; /* a triangle twice in a fan: once */
                    prev = t;
                    uint32_t w[3] = {bvh->weld[bvh->tris[t].v[0]], bvh->weld[bvh->tris[t].v[1]],
                                     bvh->weld[bvh->tris[t].v[2]]};
                    if (w[0] != a && w[1] != a && w[2] != a) continue;
                    others++;
                    for (int k = 0; k < 3; k++)
                        if (w[k] == b && w[(k + 1) % 3] == a) across = t;
                }
                bvh->adj[i * 3 + j] = others == 1 && a != b ? across : UINT32_MAX;
            }
    }
    kiln_free_large(alloc, table, cap * sizeof *table);
    kiln_free_large(alloc, ws, (nv + 1) * sizeof *ws);
    kiln_free_large(alloc, wt, nt * 3 * sizeof *wt);
    return ok;
}

bool kiln_err_bvh_build(const kiln_allocator *alloc, const double *pos, size_t vertex_count,
                        const uint32_t *idx, size_t tri_count, kiln_err_bvh *bvh)
{
    memset(bvh, 0, sizeof *bvh);
    if (tri_count == 0 || tri_count > UINT32_MAX / 2) return false;
    /* At most tri_count leaves, so 2 tri_count - 1 nodes. */
    size_t cap = 2 * tri_count;
    uint64_t *keys = kiln_alloc_large(alloc, 2 * tri_count * sizeof *keys);
    bvh->tris = kiln_alloc_large(alloc, tri_count * sizeof *bvh->tris);
    bvh->nodes = kiln_alloc_large(alloc, cap * sizeof *bvh->nodes);
    bvh->fan_start = kiln_alloc_large(alloc, (vertex_count + 1) * sizeof(uint32_t));
    bvh->fan_tris = kiln_alloc_large(alloc, tri_count * 3 * sizeof(uint32_t));
    bvh->adj = kiln_alloc_large(alloc, tri_count * 3 * sizeof(uint32_t));
    bvh->tri_count = tri_count;
    bvh->node_capacity = cap;
    bvh->vertex_count = vertex_count;
    if (!keys || !bvh->tris || !bvh->nodes || !bvh->fan_start || !bvh->fan_tris || !bvh->adj) {
        kiln_free_large(alloc, keys, 2 * tri_count * sizeof *keys);
        kiln_err_bvh_free(alloc, bvh);
        return false;
    }
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t t = 0; t < tri_count; t++)
        for (int k = 0; k < 3; k++) {
            double c = (pos[idx[t * 3] * 3 + k] + pos[idx[t * 3 + 1] * 3 + k] +
                        pos[idx[t * 3 + 2] * 3 + k]) /
                       3.0;
            if (c < lo[k]) lo[k] = c;
            if (c > hi[k]) hi[k] = c;
        }
    double scale[3];
    for (int k = 0; k < 3; k++) scale[k] = hi[k] > lo[k] ? 1023.0 / (hi[k] - lo[k]) : 0.0;
    for (size_t t = 0; t < tri_count; t++) {
        uint32_t code = 0;
        for (int k = 0; k < 3; k++) {
            double c = (pos[idx[t * 3] * 3 + k] + pos[idx[t * 3 + 1] * 3 + k] +
                        pos[idx[t * 3 + 2] * 3 + k]) /
                       3.0;
            double q = (c - lo[k]) * scale[k];
            uint32_t qi = q <= 0 ? 0 : q >= 1023 ? 1023 : (uint32_t)q;
            code |= spread10(qi) << k;
        }
        keys[t] = (uint64_t)code << 32 | t;
    }
    /* Stable LSD radix sort of the 30-bit codes, 10 bits a pass. */
    uint64_t *src = keys, *dst = keys + tri_count;
    for (int shift = 32; shift < 62; shift += 10) {
        size_t counts[1024] = {0};
        for (size_t t = 0; t < tri_count; t++) counts[(src[t] >> shift) & 1023]++;
        size_t sum = 0;
        for (size_t i = 0; i < 1024; i++) {
            size_t c = counts[i];
            counts[i] = sum;
            sum += c;
        }
        for (size_t t = 0; t < tri_count; t++) dst[counts[(src[t] >> shift) & 1023]++] = src[t];
        uint64_t *x = src;
        src = dst;
        dst = x;
    }
    for (size_t i = 0; i < tri_count; i++) {
        uint32_t t = (uint32_t)src[i];
        for (int j = 0; j < 3; j++) {
            uint32_t v = idx[(size_t)t * 3 + j];
            bvh->tris[i].v[j] = v;
            memcpy(bvh->tris[i].p[j], pos + (size_t)v * 3, 3 * sizeof(double));
        }
    }
    build_range(bvh, src, 0, (uint32_t)tri_count);
    kiln_free_large(alloc, keys, 2 * tri_count * sizeof *keys);
    /* Fans: counts, prefix sums, then the triangles in tree order. */
    uint32_t *fs = bvh->fan_start;
    memset(fs, 0, (vertex_count + 1) * sizeof *fs);
    for (size_t i = 0; i < tri_count; i++)
        for (int j = 0; j < 3; j++) fs[bvh->tris[i].v[j] + 1]++;
    for (size_t v = 0; v < vertex_count; v++) fs[v + 1] += fs[v];
    for (size_t i = 0; i < tri_count; i++)
        for (int j = 0; j < 3; j++) bvh->fan_tris[fs[bvh->tris[i].v[j]]++] = (uint32_t)i;
    for (size_t v = vertex_count; v > 0; v--) fs[v] = fs[v - 1];
    fs[0] = 0;
    if (!weld_edges(alloc, pos, bvh)) {
        kiln_err_bvh_free(alloc, bvh);
        return false;
    }
    return true;
}

static double box_d2(const kiln_err_node *n, const double p[3])
{
    double d = 0;
    for (int k = 0; k < 3; k++) {
        double lo = n->lo[k], hi = n->hi[k];
        double e = p[k] < lo ? lo - p[k] : p[k] > hi ? p[k] - hi : 0.0;
        d += e * e;
    }
    return d;
}

double kiln_err_bvh_nearest(const kiln_err_bvh *bvh, const double p[3], uint32_t seed,
                            uint32_t *tri)
{
    double best = INFINITY;
    uint32_t at = UINT32_MAX;
    if (seed < bvh->tri_count) {
        const kiln_err_tri *t = &bvh->tris[seed];
        best = kiln_err_point_tri_d2(p, t->p[0], t->p[1], t->p[2]);
        at = seed;
    }
    /* Depth-first, nearer child first; a node is skipped when its box is no nearer than the
     * best so far. The tree's depth is at most 62, so the stack holds at most 63 entries. */
    struct {
        uint32_t node;
        double d2;
    } stack[96];
    size_t top = 0;
    stack[top].node = 0;
    stack[top++].d2 = box_d2(&bvh->nodes[0], p);
    while (top) {
        top--;
        if (stack[top].d2 >= best) continue;
        const kiln_err_node *n = &bvh->nodes[stack[top].node];
        if (n->count) {
            for (uint32_t i = n->first; i < n->first + n->count; i++) {
                if (i == seed) continue;
                const kiln_err_tri *t = &bvh->tris[i];
                double d = kiln_err_point_tri_d2(p, t->p[0], t->p[1], t->p[2]);
                if (d < best) best = d, at = i;
            }
            continue;
        }
        uint32_t l = stack[top].node + 1, r = n->first;
        double dl = box_d2(&bvh->nodes[l], p), dr = box_d2(&bvh->nodes[r], p);
        if (dl <= dr) {
            if (dr < best) stack[top].node = r, stack[top++].d2 = dr;
            if (dl < best) stack[top].node = l, stack[top++].d2 = dl;
        } else {
            if (dl < best) stack[top].node = l, stack[top++].d2 = dl;
            if (dr < best) stack[top].node = r, stack[top++].d2 = dr;
        }
    }
    *tri = at;
    return best;
}
