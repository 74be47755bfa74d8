/* tangent.c — MikkTSpace tangent generation (see tangent.h for the algorithm and where kiln
 * departs from it). Written from the published description, in these passes:
 *   1. weld vertices with equal position, normal and uv;
 *   2. per triangle: u and v directions, orientation, "groups with anything";
 *   3. neighbours across edges, matched as MikkTSpace pairs them (opposite directions, first
 *      unmatched in order of (vertex, vertex, triangle));
 *   4. groups: around each welded vertex, triangles reached through shared edges that have the
 *      same orientation (MikkTSpace's "4-rule" grouping), by an explicit stack;
 *   5. per corner, the angle-weighted sum of its group's projected u directions;
 *   6. corners left over take a neighbour's tangent or the fallback; vertices whose corners
 *      disagree are split, copies appended in order of first use.
 * The orderings that passes 1, 3 and 6 need come from counting sorts into per-vertex buckets
 * (small, sorted by insertion; a large one by heapsort), so time stays O(n log n) at worst and
 * memory O(vertex_count + index_count), freed before returning. */
#include "process/tangent.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

#define NONE UINT32_MAX
/* Sub-groups (see tangent.h) cost the square of a group's size; past this it is all of it. */
#define SUBGROUP_MAX 64

enum { TRI_DEGENERATE = 1, TRI_ORIENT = 2, TRI_ANY = 4 };

typedef struct tri_info {
    float os[3], ot[3]; /* unit u and v directions (sign-corrected), or 0 */
    uint8_t flags;
} tri_info;

typedef struct group {
    uint32_t start, end; /* members (corners) in assignment order */
    bool orient;
} group;

/* The input, and every temporary array, so one function frees them all. */
typedef struct work {
    const kiln_allocator *a;
    const float *pos, *nrm, *uv;
    const uint32_t *idx;
    uint32_t vc, ic;
    uint32_t *weld;
    size_t weld_size; /* vertex -> its welded representative */
    uint32_t *wc;
    size_t wc_size; /* corner -> welded vertex */
    tri_info *tris;
    size_t tris_size;
    uint32_t *nb;
    size_t nb_size; /* corner i of t -> triangle across edge i */
    uint32_t *order;
    size_t order_size; /* bucket sorts: max(vc, ic) items */
    uint32_t *offsets;
    size_t offsets_size; /* bucket ends: vc + 1 */
    uint32_t *cgroup;
    size_t cgroup_size; /* corner -> group */
    uint32_t *members;
    size_t members_size; /* corners, group after group */
    uint32_t *stack;
    size_t stack_size;
    float *proj;
    size_t proj_size; /* per member of one group: os (3), ot (3), angle */
    float *ctan;
    size_t ctan_size; /* per corner: tangent xyzw */
    uint8_t *cstate;
    size_t cstate_size; /* per corner: 0 none, 1 from group, 2 zero */
    uint32_t *first;
    size_t first_size; /* per welded vertex / vertex: a corner, or NONE */
} work;

static void *work_array(work *w, size_t count, size_t elem, size_t *size_out)
{
    size_t size;
    if (!kiln_size_mul(count ? count : 1, elem, &size)) return NULL;
    void *p = kiln_alloc(w->a, size);
    if (p) *size_out = size;
    return p;
}

/* Frees one array of the work and forgets it, so a later work_free does not free it again. */
#define GIVE_BACK(w, f) (kiln_free((w)->a, (w)->f, (w)->f##_size), (w)->f = NULL, (w)->f##_size = 0)

/* Frees every array of the work but the per-corner tangents, which keep_ctan spares. */
static void work_free(work *w, bool keep_ctan)
{
    GIVE_BACK(w, weld);
    GIVE_BACK(w, wc);
    GIVE_BACK(w, tris);
    GIVE_BACK(w, nb);
    GIVE_BACK(w, order);
    GIVE_BACK(w, offsets);
    GIVE_BACK(w, cgroup);
    GIVE_BACK(w, members);
    GIVE_BACK(w, stack);
    GIVE_BACK(w, proj);
    if (!keep_ctan) GIVE_BACK(w, ctan);
    GIVE_BACK(w, cstate);
    GIVE_BACK(w, first);
}

/* Float bits that order equal values together: -0 as +0. NaN never equals anything under ==,
 * which the welding honours separately. */
static uint32_t float_key(float f)
{
    if (f == 0.0f) f = 0.0f;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* A total order on item ids (ties broken by id), given the work. */
typedef int (*id_cmp)(const work *w, uint32_t a, uint32_t b);

static void sift_down(uint32_t *ids, size_t root, size_t n, id_cmp cmp, const work *w)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && cmp(w, ids[child], ids[child + 1]) < 0) child++;
        if (cmp(w, ids[root], ids[child]) >= 0) return;
        uint32_t t = ids[root];
        ids[root] = ids[child];
        ids[child] = t;
        root = child;
    }
}

/* Sorts ids by cmp: insertion sort for the short runs buckets usually are, heapsort (no memory,
 * O(n log n) whatever the input) for long ones. The order is total, so the result is unique. */
static void sort_ids(uint32_t *ids, size_t n, id_cmp cmp, const work *w)
{
    if (n <= 32) {
        for (size_t i = 1; i < n; i++) {
            uint32_t x = ids[i];
            size_t j = i;
            while (j > 0 && cmp(w, ids[j - 1], x) > 0) {
                ids[j] = ids[j - 1];
                j--;
            }
            ids[j] = x;
        }
        return;
    }
    for (size_t i = n / 2; i-- > 0;) sift_down(ids, i, n, cmp, w);
    for (size_t end = n - 1; end > 0; end--) {
        uint32_t t = ids[0];
        ids[0] = ids[end];
        ids[end] = t;
        sift_down(ids, 0, end, cmp, w);
    }
}

/* Counting sort of the items 0..count-1 whose key (< key_count, or NONE to leave the item out)
 * key_of gives: w->order receives them grouped by key, in item order within a key; afterwards
 * w->offsets[k] is the end of key k's run (its start is w->offsets[k - 1], or 0 for k = 0). */
static void bucket_items(work *w, uint32_t count, uint32_t key_count,
                         uint32_t (*key_of)(const work *w, uint32_t item))
{
    memset(w->offsets, 0, ((size_t)key_count + 1) * sizeof *w->offsets);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t k = key_of(w, i);
        if (k != NONE) w->offsets[(size_t)k + 1]++;
    }
    for (size_t k = 1; k <= key_count; k++) w->offsets[k] += w->offsets[k - 1];
    for (uint32_t i = 0; i < count; i++) {
        uint32_t k = key_of(w, i);
        if (k != NONE) w->order[w->offsets[k]++] = i;
    }
}

static uint32_t run_start(const work *w, uint32_t k) { return k ? w->offsets[k - 1] : 0; }

static bool not_zero(double x) { return fabs(x) > FLT_MIN; }

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* v minus its component along n, normalised when not zero (MikkTSpace leaves a zero as is). */
static void project_normalize(double v[3], const double n[3])
{
    double d = dot3(n, v);
    for (int c = 0; c < 3; c++) v[c] -= n[c] * d;
    double len = sqrt(dot3(v, v));
    if (not_zero(len))
        for (int c = 0; c < 3; c++) v[c] /= len;
}

static void load3(double out[3], const float *p)
{
    out[0] = p[0];
    out[1] = p[1];
    out[2] = p[2];
}

/* The tangent for a corner that has none: perpendicular to the normal (see tangent.h). */
static void fallback_tangent(const float *normal, float out[3])
{
    double n[3];
    load3(n, normal);
    double len = sqrt(dot3(n, n));
    if (!(len > 1e-20) || !isfinite(len)) {
        out[0] = 1.0f;
        out[1] = 0.0f;
        out[2] = 0.0f;
        return;
    }
    for (int c = 0; c < 3; c++) n[c] /= len;
    double t[3] = {1.0, 0.0, 0.0};
    if (fabs(n[0]) > 0.9063) { /* within 25 degrees of x */
        t[0] = 0.0;
        t[1] = 1.0;
    }
    double d = dot3(n, t);
    for (int c = 0; c < 3; c++) t[c] -= n[c] * d;
    double tl = sqrt(dot3(t, t));
    for (int c = 0; c < 3; c++) out[c] = (float)(t[c] / tl) + 0.0f;
}

/* The 8 numbers a vertex is welded by, as canonical bits (see float_key); false when one is
 * NaN, which equals nothing. */
static bool weld_bits(const work *w, uint32_t v, uint32_t bits[8])
{
    const float *p = &w->pos[(size_t)v * 3], *n = &w->nrm[(size_t)v * 3];
    const float *t = &w->uv[(size_t)v * 2];
    const float f[8] = {p[0], p[1], p[2], n[0], n[1], n[2], t[0], t[1]};
    bool finite_or_inf = true;
    for (int i = 0; i < 8; i++) {
        bits[i] = float_key(f[i]);
        if (isnan(f[i])) finite_or_inf = false;
    }
    return finite_or_inf;
}

/* A bucket for welding: a hash of the bits (MurmurHash3's finaliser over FNV-1a). */
static uint32_t weld_key(const work *w, uint32_t v)
{
    uint32_t bits[8], h = 2166136261u;
    weld_bits(w, v, bits);
    for (int i = 0; i < 8; i++) h = (h ^ bits[i]) * 16777619u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h % w->vc;
}

static int cmp_weld(const work *w, uint32_t a, uint32_t b)
{
    uint32_t ka[8], kb[8];
    weld_bits(w, a, ka);
    weld_bits(w, b, kb);
    for (int i = 0; i < 8; i++)
        if (ka[i] != kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Pass 1: weld[v] = the smallest vertex with the same position, normal and uv. Equal vertices
 * share a hash bucket; sorted within it, they stand together, smallest first. */
static void weld_vertices(work *w)
{
    bucket_items(w, w->vc, w->vc, weld_key);
    for (uint32_t k = 0; k < w->vc; k++) {
        uint32_t s = run_start(w, k), e = w->offsets[k];
        sort_ids(&w->order[s], e - s, cmp_weld, w);
        uint32_t prev_bits[8], bits[8];
        bool prev_ok = false;
        for (uint32_t i = s; i < e; i++) {
            uint32_t v = w->order[i];
            bool ok = weld_bits(w, v, bits);
            if (i > s && ok && prev_ok && memcmp(bits, prev_bits, sizeof bits) == 0)
                w->weld[v] = w->weld[w->order[i - 1]];
            else w->weld[v] = v;
            memcpy(prev_bits, bits, sizeof bits);
            prev_ok = ok;
        }
    }
}

/* Pass 2: per triangle, the u (os) and v (ot) directions from the position and uv derivatives,
 * MikkTSpace's thresholds (FLT_MIN) deciding what counts as no area. */
static void triangle_info(work *w, const float *pos, const float *uv, const uint32_t *idx,
                          uint32_t tri_count)
{
    for (uint32_t t = 0; t < tri_count; t++) {
        tri_info *ti = &w->tris[t];
        memset(ti, 0, sizeof *ti);
        const uint32_t *wc = &w->wc[(size_t)t * 3];
        if (wc[0] == wc[1] || wc[1] == wc[2] || wc[0] == wc[2]) {
            ti->flags = TRI_DEGENERATE;
            continue;
        }
        ti->flags = TRI_ANY;
        double p[3][3], u[3], v[3];
        for (int k = 0; k < 3; k++) {
            uint32_t i = idx[(size_t)t * 3 + k];
            load3(p[k], &pos[(size_t)i * 3]);
            u[k] = uv[(size_t)i * 2];
            v[k] = -(double)uv[(size_t)i * 2 + 1]; /* glTF's v points down; MikkTSpace's up */
        }
        double t21x = u[1] - u[0], t21y = v[1] - v[0];
        double t31x = u[2] - u[0], t31y = v[2] - v[0];
        double d1[3], d2[3], os[3], ot[3];
        for (int c = 0; c < 3; c++) {
            d1[c] = p[1][c] - p[0][c];
            d2[c] = p[2][c] - p[0][c];
            os[c] = t31y * d1[c] - t21y * d2[c];
            ot[c] = -t31x * d1[c] + t21x * d2[c];
        }
        double area = t21x * t31y - t21y * t31x;
        if (area > 0) ti->flags |= TRI_ORIENT;
        if (not_zero(area)) {
            double abs_area = fabs(area);
            double len_s = sqrt(dot3(os, os)), len_t = sqrt(dot3(ot, ot));
            double s = area > 0 ? 1.0 : -1.0;
            if (not_zero(len_s))
                for (int c = 0; c < 3; c++) os[c] *= s / len_s;
            if (not_zero(len_t))
                for (int c = 0; c < 3; c++) ot[c] *= s / len_t;
            if (not_zero(len_s / abs_area) && not_zero(len_t / abs_area)) ti->flags &= ~TRI_ANY;
        }
        /* Only directions of triangles that group normally are ever read. */
        if (!(ti->flags & TRI_ANY))
            for (int c = 0; c < 3; c++) {
                ti->os[c] = (float)os[c];
                ti->ot[c] = (float)ot[c];
            }
    }
}

/* The welded ends of the edge from corner c to the next corner of its triangle. */
static uint32_t edge_from(const work *w, uint32_t c) { return w->wc[c]; }
static uint32_t edge_to(const work *w, uint32_t c) { return w->wc[c - c % 3 + (c % 3 + 1) % 3]; }

static uint32_t edge_lo(const work *w, uint32_t c)
{
    if (w->tris[c / 3].flags & TRI_DEGENERATE) return NONE;
    uint32_t a = edge_from(w, c), b = edge_to(w, c);
    return a < b ? a : b;
}

static uint32_t edge_hi(const work *w, uint32_t c)
{
    uint32_t a = edge_from(w, c), b = edge_to(w, c);
    return a < b ? b : a;
}

static int cmp_edge(const work *w, uint32_t a, uint32_t b)
{
    uint32_t ha = edge_hi(w, a), hb = edge_hi(w, b);
    if (ha != hb) return ha < hb ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Pass 3: nb[3t + i] = the triangle across the edge from corner i to corner i + 1, or NONE.
 * Edges are ordered by (lo, hi, corner), as MikkTSpace orders them by (lo, hi, triangle); in
 * each run of equal (lo, hi) an unmatched edge takes the first later unmatched edge of the
 * opposite direction. No unmatched edge of the opposite direction can lie before the current
 * one (it would have taken it), so one cursor per direction suffices: linear per run. */
static void build_neighbors(work *w)
{
    for (uint32_t c = 0; c < w->ic; c++) w->nb[c] = NONE;
    bucket_items(w, w->ic, w->vc, edge_lo);
    for (uint32_t lo = 0; lo < w->vc; lo++) {
        uint32_t s = run_start(w, lo), e = w->offsets[lo];
        uint32_t *ids = w->order;
        sort_ids(&ids[s], e - s, cmp_edge, w);
        for (uint32_t run = s; run < e;) {
            uint32_t hi = edge_hi(w, ids[run]), end = run + 1;
            while (end < e && edge_hi(w, ids[end]) == hi) end++;
            uint32_t cursor[2] = {run, run}; /* next candidate running lo -> hi (0) or back (1) */
            for (uint32_t j = run; j < end; j++) {
                uint32_t cj = ids[j];
                if (w->nb[cj] != NONE) continue;
                int want = edge_from(w, cj) == lo; /* the opposite direction's number */
                uint32_t k = cursor[want] > j + 1 ? cursor[want] : j + 1;
                while (k < end && (w->nb[ids[k]] != NONE || (edge_from(w, ids[k]) != lo) != want))
                    k++;
                cursor[want] = k;
                if (k == end) continue;
                w->nb[cj] = ids[k] / 3;
                w->nb[ids[k]] = cj / 3;
            }
            run = end;
        }
    }
}

/* The corner of triangle t at welded vertex wv, or 3 if it has none. */
static int corner_of(const work *w, uint32_t t, uint32_t wv)
{
    for (int i = 0; i < 3; i++)
        if (w->wc[(size_t)t * 3 + i] == wv) return i;
    return 3;
}

/* Pass 4: groups, their members laid out one group after the other in members (returns the
 * size of the largest). A group starts at each corner (in index order) of a normally grouping
 * triangle not yet in one, and spreads through the two edges at the corner to triangles of
 * the same orientation; a "groups with anything" triangle that nothing has taken yet adopts
 * the orientation of the first group to reach it (the one order dependency MikkTSpace has).
 * The stack visits in the order of MikkTSpace's recursion: the first edge's side first. */
static uint32_t build_groups(work *w)
{
    uint32_t group_count = 0, member_count = 0, largest = 0;
    uint32_t tri_count = w->ic / 3;
    for (uint32_t c = 0; c < w->ic; c++) w->cgroup[c] = NONE;
    for (uint32_t t = 0; t < tri_count; t++) {
        if (w->tris[t].flags & (TRI_DEGENERATE | TRI_ANY)) continue;
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t c0 = t * 3 + i;
            if (w->cgroup[c0] != NONE) continue;
            uint32_t g = group_count++;
            uint32_t wv = w->wc[c0];
            bool orient = (w->tris[t].flags & TRI_ORIENT) != 0;
            uint32_t start = member_count;
            w->cgroup[c0] = g;
            w->members[member_count++] = c0;
            size_t sp = 0;
            w->stack[sp++] = w->nb[t * 3 + (i + 2) % 3]; /* the edge into the corner: later */
            w->stack[sp++] = w->nb[c0];                  /* the edge out of it: first */
            while (sp > 0) {
                uint32_t u = w->stack[--sp];
                if (u == NONE) continue;
                int j = corner_of(w, u, wv);
                if (KILN_NEVER(j == 3)) continue;
                uint32_t cu = u * 3 + (uint32_t)j;
                if (w->cgroup[cu] != NONE) continue;
                tri_info *ti = &w->tris[u];
                if ((ti->flags & TRI_ANY) && w->cgroup[u * 3] == NONE &&
                    w->cgroup[u * 3 + 1] == NONE && w->cgroup[u * 3 + 2] == NONE) {
                    ti->flags &= (uint8_t)~TRI_ORIENT;
                    if (orient) ti->flags |= TRI_ORIENT;
                }
                if (((ti->flags & TRI_ORIENT) != 0) != orient) continue;
                w->cgroup[cu] = g;
                w->members[member_count++] = cu;
                w->stack[sp++] = w->nb[u * 3 + (uint32_t)(j + 2) % 3];
                w->stack[sp++] = w->nb[cu];
            }
            if (member_count - start > largest) largest = member_count - start;
        }
    }
    return largest;
}

/* The projected directions and the corner angle of member corner c (MikkTSpace's EvalTspace
 * terms), into proj[7]. */
static void member_terms(const work *w, uint32_t c, float proj[7])
{
    const float *pos = w->pos, *nrm = w->nrm;
    const uint32_t *idx = w->idx;
    uint32_t t = c / 3, i = c % 3;
    const tri_info *ti = &w->tris[t];
    double n[3], os[3], ot[3];
    load3(n, &nrm[(size_t)idx[c] * 3]);
    for (int k = 0; k < 3; k++) {
        os[k] = ti->os[k];
        ot[k] = ti->ot[k];
    }
    project_normalize(os, n);
    project_normalize(ot, n);
    double p0[3], p1[3], p2[3], e1[3], e2[3];
    load3(p0, &pos[(size_t)idx[t * 3 + (i + 2) % 3] * 3]);
    load3(p1, &pos[(size_t)idx[c] * 3]);
    load3(p2, &pos[(size_t)idx[t * 3 + (i + 1) % 3] * 3]);
    for (int k = 0; k < 3; k++) {
        e1[k] = p0[k] - p1[k];
        e2[k] = p2[k] - p1[k];
    }
    project_normalize(e1, n);
    project_normalize(e2, n);
    double cosine = dot3(e1, e2);
    cosine = cosine > 1.0 ? 1.0 : cosine < -1.0 ? -1.0 : cosine;
    double angle = acos(cosine);
    for (int k = 0; k < 3; k++) {
        proj[k] = (float)os[k];
        proj[3 + k] = (float)ot[k];
    }
    proj[6] = isnan(angle) ? 0.0f : (float)angle;
}

/* Angle-weighted sum of the members' projected u directions, members chosen by mask (NULL =
 * all); false when the sum is zero or not finite. */
static bool group_sum(const work *w, const group *g, const uint8_t *mask, float out[3])
{
    double s[3] = {0, 0, 0};
    for (uint32_t m = g->start; m < g->end; m++) {
        if (mask && !mask[m - g->start]) continue;
        uint32_t c = w->members[m];
        if (w->tris[c / 3].flags & TRI_ANY) continue;
        const float *pr = &w->proj[(size_t)(m - g->start) * 7];
        for (int k = 0; k < 3; k++) s[k] += (double)pr[6] * pr[k];
    }
    double len = sqrt(dot3(s, s));
    if (!not_zero(len) || !isfinite(len)) return false;
    for (int k = 0; k < 3; k++) out[k] = (float)(s[k] / len) + 0.0f;
    return true;
}

/* Pass 5: tangents of the corners in groups. cstate: 1 = tangent set, 2 = zero (fallback). */
static void group_tangents(work *w)
{
    uint32_t member_count = 0;
    for (uint32_t c = 0; c < w->ic; c++)
        if (w->cgroup[c] != NONE) member_count++;
    for (uint32_t start = 0; start < member_count;) {
        group gr = {start, start + 1, false};
        uint32_t g = w->cgroup[w->members[start]];
        while (gr.end < member_count && w->cgroup[w->members[gr.end]] == g) gr.end++;
        /* The first member started the group: its triangle's orientation is the group's. */
        gr.orient = (w->tris[w->members[start] / 3].flags & TRI_ORIENT) != 0;
        for (uint32_t m = gr.start; m < gr.end; m++)
            member_terms(w, w->members[m], &w->proj[(size_t)(m - gr.start) * 7]);
        float all[3] = {0, 0, 0};
        bool all_ok = group_sum(w, &gr, NULL, all);
        uint32_t size = gr.end - gr.start;
        float sign = gr.orient ? 1.0f : -1.0f;
        for (uint32_t m = gr.start; m < gr.end; m++) {
            uint32_t c = w->members[m];
            float t[3] = {all[0], all[1], all[2]};
            bool ok = all_ok;
            if (size <= SUBGROUP_MAX) {
                /* MikkTSpace's sub-group: members whose directions are not exactly opposite
                 * to this corner's (cos > cos 180 degrees), or that group with anything. */
                uint8_t mask[SUBGROUP_MAX];
                bool full = true;
                const float *pc = &w->proj[(size_t)(m - gr.start) * 7];
                bool any_c = (w->tris[c / 3].flags & TRI_ANY) != 0;
                for (uint32_t k = gr.start; k < gr.end; k++) {
                    const float *pk = &w->proj[(size_t)(k - gr.start) * 7];
                    bool any = any_c || (w->tris[w->members[k] / 3].flags & TRI_ANY);
                    double cs =
                        (double)pc[0] * pk[0] + (double)pc[1] * pk[1] + (double)pc[2] * pk[2];
                    double ct =
                        (double)pc[3] * pk[3] + (double)pc[4] * pk[4] + (double)pc[5] * pk[5];
                    mask[k - gr.start] = k == m || any || (cs > -1.0 && ct > -1.0);
                    if (!mask[k - gr.start]) full = false;
                }
                if (!full) ok = group_sum(w, &gr, mask, t);
            }
            float *dst = &w->ctan[(size_t)c * 4];
            dst[3] = sign;
            if (ok) {
                dst[0] = t[0];
                dst[1] = t[1];
                dst[2] = t[2];
                w->cstate[c] = 1;
            } else {
                w->cstate[c] = 2;
            }
        }
        start = gr.end;
    }
}

/* Pass 6a: corners in no group copy the first grouped corner of their welded vertex; what is
 * left (and zero tangents) gets the fallback. Any non-finite value is replaced too. */
static void finish_corners(work *w)
{
    for (uint32_t v = 0; v < w->vc; v++) w->first[v] = NONE;
    for (uint32_t c = 0; c < w->ic; c++)
        if (w->cstate[c] == 1 && w->first[w->wc[c]] == NONE) w->first[w->wc[c]] = c;
    for (uint32_t c = 0; c < w->ic; c++) {
        float *dst = &w->ctan[(size_t)c * 4];
        if (w->cstate[c] == 0) {
            uint32_t from = w->first[w->wc[c]];
            if (from != NONE) {
                memcpy(dst, &w->ctan[(size_t)from * 4], 4 * sizeof *dst);
                w->cstate[c] = 1;
            } else {
                dst[3] = 1.0f;
            }
        }
        if (w->cstate[c] != 1 || !isfinite(dst[0]) || !isfinite(dst[1]) || !isfinite(dst[2]))
            fallback_tangent(&w->nrm[(size_t)w->idx[c] * 3], dst);
    }
}

static uint32_t corner_vertex(const work *w, uint32_t c) { return w->idx[c]; }

static int cmp_corner_tangent(const work *w, uint32_t a, uint32_t b)
{
    for (int i = 0; i < 4; i++) {
        uint32_t ka = float_key(w->ctan[(size_t)a * 4 + i]);
        uint32_t kb = float_key(w->ctan[(size_t)b * 4 + i]);
        if (ka != kb) return ka < kb ? -1 : 1;
    }
    return a < b ? -1 : a > b;
}

static bool same_tangent(const work *w, uint32_t a, uint32_t b)
{
    for (int i = 0; i < 4; i++)
        if (float_key(w->ctan[(size_t)a * 4 + i]) != float_key(w->ctan[(size_t)b * 4 + i]))
            return false;
    return true;
}

/* Pass 6b: one output vertex per (input vertex, tangent). A class of corners (same vertex,
 * same tangent bits) is named by its first corner, its leader; the class holding a vertex's
 * first corner keeps the vertex's number, the others become copies numbered from vc in the
 * order of their leaders. out->indices holds each corner's leader until the last loop turns
 * leaders into vertex numbers, in index order (a leader comes before its class). */
static kiln_result split_vertices(work *w, kiln_tangent_result *out, kiln_error *err)
{
    bucket_items(w, w->ic, w->vc, corner_vertex);
    size_t copies = 0;
    for (uint32_t v = 0; v < w->vc; v++) {
        uint32_t s = run_start(w, v), e = w->offsets[v];
        if (s == e) continue;
        sort_ids(&w->order[s], e - s, cmp_corner_tangent, w);
        for (uint32_t i = s; i < e; i++) {
            uint32_t c = w->order[i];
            if (i > s && same_tangent(w, w->order[i - 1], c)) {
                out->indices[c] = out->indices[w->order[i - 1]];
            } else {
                out->indices[c] = c; /* sorted by corner within a class: the least leads */
                if (i > s) copies++;
            }
        }
    }
    if (copies > (size_t)(UINT32_MAX - w->vc))
        return kiln_error_set(err, KILN_E_LIMIT,
                              "tangents: splitting %zu vertices would pass 2^32 - 1 vertices",
                              copies);
    uint32_t total = w->vc + (uint32_t)copies;
    size_t tsize, rsize;
    /* One element at least, as work_array does: a zero-size request would read as failure. */
    if (!kiln_size_mul(total ? total : 1, 4 * sizeof(float), &tsize) ||
        !kiln_size_mul(total ? total : 1, sizeof(uint32_t), &rsize))
        return kiln_error_set(err, KILN_E_LIMIT, "tangents: %u vertices are too many", total);
    if (copies > 0) {
        float *grown = kiln_realloc(w->a, out->tangents, out->tangents_size, tsize);
        if (!grown) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "tangents: out of memory");
        out->tangents = grown;
        out->tangents_size = tsize;
    }
    out->remap = kiln_alloc(w->a, rsize);
    if (!out->remap) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "tangents: out of memory");
    out->remap_size = rsize;
    for (uint32_t v = 0; v < w->vc; v++) {
        out->remap[v] = v;
        w->first[v] = NONE; /* now: whether the vertex's own number is taken */
    }
    uint32_t next = w->vc;
    for (uint32_t c = 0; c < w->ic; c++) {
        uint32_t leader = out->indices[c];
        if (leader != c) { /* an earlier corner's class, already numbered */
            out->indices[c] = out->indices[leader];
            continue;
        }
        uint32_t v = w->idx[c], id = v;
        if (w->first[v] == NONE) {
            w->first[v] = c;
        } else {
            id = next++;
            out->remap[id] = v;
        }
        memcpy(&out->tangents[(size_t)id * 4], &w->ctan[(size_t)c * 4], 4 * sizeof(float));
        out->indices[c] = id;
    }
    out->vertex_count = total;
    out->split_count = (uint32_t)copies;
    return KILN_OK;
}

void kiln_tangent_result_free(const kiln_allocator *a, kiln_tangent_result *r)
{
    if (!r) return;
    kiln_free(a, r->tangents, r->tangents_size);
    kiln_free(a, r->remap, r->remap_size);
    kiln_free(a, r->indices, r->indices_size);
    memset(r, 0, sizeof *r);
}

kiln_result kiln_tangents_generate(const float *positions, const float *normals, const float *uvs,
                                   uint32_t vertex_count, const uint32_t *indices,
                                   uint32_t index_count, const kiln_allocator *a,
                                   kiln_tangent_result *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    if (index_count % 3 != 0)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                              "tangents: %u indices are not whole triangles", index_count);
    for (uint32_t i = 0; i < index_count; i++)
        if (indices[i] >= vertex_count)
            return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                  "tangents: index %u is %u, past the %u vertices", i, indices[i],
                                  vertex_count);
    work w = {.a = a,
              .pos = positions,
              .nrm = normals,
              .uv = uvs,
              .idx = indices,
              .vc = vertex_count,
              .ic = index_count};
    kiln_result r = KILN_OK;
    uint32_t n = index_count, tri_count = index_count / 3;
    uint32_t most = vertex_count > index_count ? vertex_count : index_count;

    /* Arrays are taken as the passes need them and given back after their last use: the peak
     * is about 60 bytes per index plus 30 per vertex. */
    out->tangents = work_array(&w, vertex_count, 4 * sizeof(float), &out->tangents_size);
    out->indices = work_array(&w, n, sizeof(uint32_t), &out->indices_size);
    w.order = work_array(&w, most, sizeof *w.order, &w.order_size);
    w.offsets = work_array(&w, (size_t)vertex_count + 1, sizeof *w.offsets, &w.offsets_size);
    w.weld = work_array(&w, vertex_count, sizeof *w.weld, &w.weld_size);
    w.wc = work_array(&w, n, sizeof *w.wc, &w.wc_size);
    w.tris = work_array(&w, tri_count, sizeof *w.tris, &w.tris_size);
    w.nb = work_array(&w, n, sizeof *w.nb, &w.nb_size);
    if (!out->tangents || !out->indices || !w.order || !w.offsets || !w.weld || !w.wc || !w.tris ||
        !w.nb)
        goto nomem;
    weld_vertices(&w);
    for (uint32_t c = 0; c < n; c++) w.wc[c] = w.weld[indices[c]];
    GIVE_BACK(&w, weld);
    triangle_info(&w, positions, uvs, indices, tri_count);
    build_neighbors(&w);

    w.cgroup = work_array(&w, n, sizeof *w.cgroup, &w.cgroup_size);
    w.members = work_array(&w, n, sizeof *w.members, &w.members_size);
    size_t stack_count = (size_t)n * 2 + 2; /* two pushes per member and per start */
    w.stack = work_array(&w, stack_count, sizeof *w.stack, &w.stack_size);
    if (!w.cgroup || !w.members || !w.stack) goto nomem;
    uint32_t largest = build_groups(&w);
    GIVE_BACK(&w, stack);
    GIVE_BACK(&w, nb);

    w.proj = work_array(&w, largest, 7 * sizeof(float), &w.proj_size);
    w.ctan = work_array(&w, n, 4 * sizeof(float), &w.ctan_size);
    w.cstate = work_array(&w, n, 1, &w.cstate_size);
    w.first = work_array(&w, vertex_count, sizeof *w.first, &w.first_size);
    if (!w.proj || !w.ctan || !w.cstate || !w.first) goto nomem;
    memset(w.cstate, 0, w.cstate_size);
    memset(w.ctan, 0, w.ctan_size);
    group_tangents(&w);
    GIVE_BACK(&w, proj);
    GIVE_BACK(&w, members);
    GIVE_BACK(&w, cgroup);
    GIVE_BACK(&w, tris);
    finish_corners(&w);
    GIVE_BACK(&w, wc);
    GIVE_BACK(&w, cstate);

    /* Vertices no corner uses keep the fallback; the split pass overwrites the others. */
    for (uint32_t v = 0; v < vertex_count; v++) {
        fallback_tangent(&normals[(size_t)v * 3], &out->tangents[(size_t)v * 4]);
        out->tangents[(size_t)v * 4 + 3] = 1.0f;
    }
    r = split_vertices(&w, out, err);
    if (r == KILN_OK) out->index_count = index_count;
    goto done;

nomem:
    r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                       "tangents: out of memory for %u vertices and "
                       "%u indices",
                       vertex_count, index_count);
done:
    work_free(&w, false);
    if (r != KILN_OK) kiln_tangent_result_free(a, out);
    return r;
}
