/* tangent.c — MikkTSpace tangent generation (see tangent.h for the algorithm and where kiln
 * departs from it). Written from the published description, in these passes:
 *   1. weld vertices with equal position, normal and uv (a sort, not a hash: bounded time);
 *   2. per triangle: u and v directions, magnitudes, orientation, "groups with anything";
 *   3. neighbours across edges, matched as MikkTSpace pairs them (opposite directions, first
 *      unmatched in order of (vertex, vertex, triangle));
 *   4. groups: around each welded vertex, triangles reached through shared edges that have the
 *      same orientation (MikkTSpace's "4-rule" grouping), by an explicit stack;
 *   5. per corner, the angle-weighted sum of its group's projected u directions;
 *   6. corners left over take a neighbour's tangent or the fallback; vertices whose corners
 *      disagree are split (a sort again), copies appended in order of first use.
 * Every array is O(vertex_count + index_count) and freed before returning. */
#include "process/tangent.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
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

/* A vertex as the welding sorts it: the 8 float keys as canonical bits, then the index. */
typedef struct weld_key {
    uint32_t bits[8];
    uint32_t index;
} weld_key;

typedef struct edge_key {
    uint32_t lo, hi; /* welded vertices, lo < hi */
    uint32_t corner; /* 3 * triangle + edge number (from corner i to corner i + 1) */
} edge_key;

typedef struct split_key {
    uint32_t vertex;
    uint32_t bits[4];
    uint32_t corner;
} split_key;

typedef struct split_class {
    uint32_t first_corner; /* the smallest corner of the class: decides the order of copies */
    uint32_t start, end;   /* its run in the sorted split keys */
} split_class;

typedef struct group {
    uint32_t start, end; /* members (corners) in assignment order */
    bool orient;
} group;

/* Every temporary array, so one function frees them all. */
typedef struct work {
    const kiln_allocator *a;
    weld_key *wkeys; size_t wkeys_size;
    uint32_t *weld; size_t weld_size;         /* vertex -> its welded representative */
    uint32_t *wc; size_t wc_size;             /* corner -> welded vertex */
    tri_info *tris; size_t tris_size;
    edge_key *edges; size_t edges_size;
    uint32_t *nb; size_t nb_size;             /* corner i of t -> triangle across edge i */
    uint32_t *cgroup; size_t cgroup_size;     /* corner -> group */
    uint32_t *members; size_t members_size;
    group *groups; size_t groups_size;
    uint32_t *stack; size_t stack_size;
    float *proj; size_t proj_size;            /* per member: projected os (3), ot (3), angle */
    float *ctan; size_t ctan_size;            /* per corner: tangent xyzw */
    uint8_t *cstate; size_t cstate_size;      /* per corner: 0 none, 1 from group, 2 zero */
    uint32_t *first; size_t first_size;       /* welded vertex -> first corner with a tangent */
    split_key *skeys; size_t skeys_size;
    split_class *classes; size_t classes_size;
} work;

static void *work_array(work *w, size_t count, size_t elem, size_t *size_out)
{
    size_t size;
    if (!kiln_size_mul(count ? count : 1, elem, &size)) return NULL;
    void *p = kiln_alloc(w->a, size);
    if (p) *size_out = size;
    return p;
}

static void work_free(work *w)
{
    kiln_free(w->a, w->wkeys, w->wkeys_size);
    kiln_free(w->a, w->weld, w->weld_size);
    kiln_free(w->a, w->wc, w->wc_size);
    kiln_free(w->a, w->tris, w->tris_size);
    kiln_free(w->a, w->edges, w->edges_size);
    kiln_free(w->a, w->nb, w->nb_size);
    kiln_free(w->a, w->cgroup, w->cgroup_size);
    kiln_free(w->a, w->members, w->members_size);
    kiln_free(w->a, w->groups, w->groups_size);
    kiln_free(w->a, w->stack, w->stack_size);
    kiln_free(w->a, w->proj, w->proj_size);
    kiln_free(w->a, w->ctan, w->ctan_size);
    kiln_free(w->a, w->cstate, w->cstate_size);
    kiln_free(w->a, w->first, w->first_size);
    kiln_free(w->a, w->skeys, w->skeys_size);
    kiln_free(w->a, w->classes, w->classes_size);
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

static int cmp_weld(const void *pa, const void *pb)
{
    const weld_key *a = pa, *b = pb;
    for (int i = 0; i < 8; i++)
        if (a->bits[i] != b->bits[i]) return a->bits[i] < b->bits[i] ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static int cmp_edge(const void *pa, const void *pb)
{
    const edge_key *a = pa, *b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return a->corner < b->corner ? -1 : a->corner > b->corner;
}

static int cmp_split(const void *pa, const void *pb)
{
    const split_key *a = pa, *b = pb;
    if (a->vertex != b->vertex) return a->vertex < b->vertex ? -1 : 1;
    for (int i = 0; i < 4; i++)
        if (a->bits[i] != b->bits[i]) return a->bits[i] < b->bits[i] ? -1 : 1;
    return a->corner < b->corner ? -1 : a->corner > b->corner;
}

static int cmp_class(const void *pa, const void *pb)
{
    const split_class *a = pa, *b = pb;
    return a->first_corner < b->first_corner ? -1 : a->first_corner > b->first_corner;
}

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

/* Pass 1: weld[v] = the smallest vertex with the same position, normal and (u, -v). */
static bool weld_vertices(work *w, const float *pos, const float *nrm, const float *uv,
                          uint32_t vc)
{
    w->weld = work_array(w, vc, sizeof *w->weld, &w->weld_size);
    w->wkeys = work_array(w, vc, sizeof *w->wkeys, &w->wkeys_size);
    if (!w->weld || !w->wkeys) return false;
    for (uint32_t v = 0; v < vc; v++) {
        weld_key *k = &w->wkeys[v];
        const float *f[8] = {&pos[(size_t)v * 3], &pos[(size_t)v * 3 + 1], &pos[(size_t)v * 3 + 2],
                             &nrm[(size_t)v * 3], &nrm[(size_t)v * 3 + 1], &nrm[(size_t)v * 3 + 2],
                             &uv[(size_t)v * 2], &uv[(size_t)v * 2 + 1]};
        for (int i = 0; i < 8; i++) k->bits[i] = float_key(*f[i]);
        k->index = v;
    }
    qsort(w->wkeys, vc, sizeof *w->wkeys, cmp_weld);
    for (uint32_t i = 0; i < vc; i++) {
        const weld_key *k = &w->wkeys[i];
        bool has_nan = false;
        for (int c = 0; c < 8; c++) {
            float f;
            memcpy(&f, &k->bits[c], sizeof f);
            if (isnan(f)) has_nan = true;
        }
        if (i > 0 && !has_nan && memcmp(k->bits, w->wkeys[i - 1].bits, sizeof k->bits) == 0)
            w->weld[k->index] = w->weld[w->wkeys[i - 1].index]; /* the run's first = smallest */
        else
            w->weld[k->index] = k->index;
    }
    kiln_free(w->a, w->wkeys, w->wkeys_size);
    w->wkeys = NULL;
    return true;
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

/* Pass 3: nb[3t + i] = the triangle across the edge from corner i to corner i + 1, or NONE. In
 * each run of equal (lo, hi), an unmatched edge takes the first later unmatched edge of the
 * opposite direction. No unmatched edge of the opposite direction can lie before the current
 * one (it would have taken it), so one cursor per direction suffices: linear after the sort. */
static bool build_neighbors(work *w, uint32_t tri_count)
{
    size_t n = 0;
    for (uint32_t t = 0; t < tri_count; t++) {
        for (int i = 0; i < 3; i++) w->nb[(size_t)t * 3 + i] = NONE;
        if (w->tris[t].flags & TRI_DEGENERATE) continue;
        for (int i = 0; i < 3; i++) {
            uint32_t a = w->wc[(size_t)t * 3 + i], b = w->wc[(size_t)t * 3 + (i + 1) % 3];
            edge_key *e = &w->edges[n++];
            e->lo = a < b ? a : b;
            e->hi = a < b ? b : a;
            e->corner = t * 3 + (uint32_t)i;
        }
    }
    qsort(w->edges, n, sizeof *w->edges, cmp_edge);
    for (size_t run = 0; run < n;) {
        size_t end = run + 1;
        while (end < n && w->edges[end].lo == w->edges[run].lo &&
               w->edges[end].hi == w->edges[run].hi)
            end++;
        size_t cursor[2] = {run, run}; /* next candidate of direction 0 (lo -> hi) and 1 */
        for (size_t j = run; j < end; j++) {
            uint32_t cj = w->edges[j].corner;
            if (w->nb[cj] != NONE) continue;
            int dir = w->wc[cj] != w->edges[j].lo; /* 0: the edge runs lo -> hi */
            int want = !dir;
            size_t k = cursor[want] > j + 1 ? cursor[want] : j + 1;
            while (k < end) {
                uint32_t ck = w->edges[k].corner;
                if (w->nb[ck] == NONE && (int)(w->wc[ck] != w->edges[k].lo) == want) break;
                k++;
            }
            cursor[want] = k;
            if (k == end) continue;
            uint32_t ck = w->edges[k].corner;
            w->nb[cj] = ck / 3;
            w->nb[ck] = cj / 3;
        }
        run = end;
    }
    kiln_free(w->a, w->edges, w->edges_size);
    w->edges = NULL;
    return true;
}

/* The corner of triangle t at welded vertex wv, or 3 if it has none. */
static int corner_of(const work *w, uint32_t t, uint32_t wv)
{
    for (int i = 0; i < 3; i++)
        if (w->wc[(size_t)t * 3 + i] == wv) return i;
    return 3;
}

/* Pass 4: groups. A group starts at each corner (in index order) of a normally grouping
 * triangle not yet in one, and spreads through the two edges at the corner to triangles of
 * the same orientation; a "groups with anything" triangle that nothing has taken yet adopts
 * the orientation of the first group to reach it (the one order dependency MikkTSpace has).
 * The stack visits in the order of MikkTSpace's recursion: the first edge's side first. */
static uint32_t build_groups(work *w, uint32_t tri_count)
{
    uint32_t group_count = 0, member_count = 0;
    size_t corners = (size_t)tri_count * 3;
    for (size_t c = 0; c < corners; c++) w->cgroup[c] = NONE;
    for (uint32_t t = 0; t < tri_count; t++) {
        if (w->tris[t].flags & (TRI_DEGENERATE | TRI_ANY)) continue;
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t c0 = t * 3 + i;
            if (w->cgroup[c0] != NONE) continue;
            uint32_t g = group_count++;
            uint32_t wv = w->wc[c0];
            bool orient = (w->tris[t].flags & TRI_ORIENT) != 0;
            w->groups[g].start = member_count;
            w->groups[g].orient = orient;
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
            w->groups[g].end = member_count;
        }
    }
    return group_count;
}

/* The projected directions and the corner angle of member corner c (MikkTSpace's EvalTspace
 * terms), into proj[7]. */
static void member_terms(const work *w, const float *pos, const float *nrm, const uint32_t *idx,
                         uint32_t c, float proj[7])
{
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
        const float *pr = &w->proj[(size_t)m * 7];
        for (int k = 0; k < 3; k++) s[k] += (double)pr[6] * pr[k];
    }
    double len = sqrt(dot3(s, s));
    if (!not_zero(len) || !isfinite(len)) return false;
    for (int k = 0; k < 3; k++) out[k] = (float)(s[k] / len) + 0.0f;
    return true;
}

/* Pass 5: tangents of the corners in groups. cstate: 1 = tangent set, 2 = zero (fallback). */
static void group_tangents(work *w, const float *pos, const float *nrm, const uint32_t *idx,
                           uint32_t group_count)
{
    for (uint32_t g = 0; g < group_count; g++) {
        const group *gr = &w->groups[g];
        for (uint32_t m = gr->start; m < gr->end; m++)
            member_terms(w, pos, nrm, idx, w->members[m], &w->proj[(size_t)m * 7]);
        float all[3];
        bool all_ok = group_sum(w, gr, NULL, all);
        uint32_t size = gr->end - gr->start;
        float sign = gr->orient ? 1.0f : -1.0f;
        for (uint32_t m = gr->start; m < gr->end; m++) {
            uint32_t c = w->members[m];
            float t[3] = {all[0], all[1], all[2]};
            bool ok = all_ok;
            if (size <= SUBGROUP_MAX) {
                /* MikkTSpace's sub-group: members whose directions are not exactly opposite
                 * to this corner's (cos > cos 180 degrees), or that group with anything. */
                uint8_t mask[SUBGROUP_MAX];
                bool full = true;
                const float *pc = &w->proj[(size_t)m * 7];
                bool any_c = (w->tris[c / 3].flags & TRI_ANY) != 0;
                for (uint32_t k = gr->start; k < gr->end; k++) {
                    const float *pk = &w->proj[(size_t)k * 7];
                    bool any = any_c || (w->tris[w->members[k] / 3].flags & TRI_ANY);
                    double cs = (double)pc[0] * pk[0] + (double)pc[1] * pk[1] + (double)pc[2] * pk[2];
                    double ct = (double)pc[3] * pk[3] + (double)pc[4] * pk[4] + (double)pc[5] * pk[5];
                    mask[k - gr->start] = k == m || any || (cs > -1.0 && ct > -1.0);
                    if (!mask[k - gr->start]) full = false;
                }
                if (!full) ok = group_sum(w, gr, mask, t);
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
    }
}

/* Pass 6a: corners in no group copy the first grouped corner of their welded vertex; what is
 * left (and zero tangents) gets the fallback. Any non-finite value is replaced too. */
static void finish_corners(work *w, const float *nrm, const uint32_t *idx, uint32_t vc,
                           uint32_t index_count)
{
    for (uint32_t v = 0; v < vc; v++) w->first[v] = NONE;
    for (uint32_t c = 0; c < index_count; c++)
        if (w->cstate[c] == 1 && w->first[w->wc[c]] == NONE) w->first[w->wc[c]] = c;
    for (uint32_t c = 0; c < index_count; c++) {
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
            fallback_tangent(&nrm[(size_t)idx[c] * 3], dst);
    }
}

/* Pass 6b: one output vertex per (input vertex, tangent). The class holding a vertex's first
 * corner keeps the vertex's number; the other classes become copies, numbered from vc in the
 * order of their first corners. */
static kiln_result split_vertices(work *w, uint32_t vc, const uint32_t *idx,
                                  uint32_t index_count, kiln_tangent_result *out,
                                  kiln_error *err)
{
    w->skeys = work_array(w, index_count, sizeof *w->skeys, &w->skeys_size);
    w->classes = work_array(w, index_count, sizeof *w->classes, &w->classes_size);
    if (!w->skeys || !w->classes)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "tangents: out of memory");
    for (uint32_t c = 0; c < index_count; c++) {
        split_key *k = &w->skeys[c];
        k->vertex = idx[c];
        for (int i = 0; i < 4; i++) k->bits[i] = float_key(w->ctan[(size_t)c * 4 + i]);
        k->corner = c;
    }
    qsort(w->skeys, index_count, sizeof *w->skeys, cmp_split);

    /* Classes per vertex; the primary one (smallest first corner) keeps the vertex. */
    size_t class_count = 0;
    for (uint32_t run = 0; run < index_count;) {
        uint32_t vend = run;
        while (vend < index_count && w->skeys[vend].vertex == w->skeys[run].vertex) vend++;
        size_t first_class = class_count;
        for (uint32_t s = run; s < vend;) {
            uint32_t e = s + 1;
            while (e < vend && memcmp(w->skeys[e].bits, w->skeys[s].bits, 16) == 0) e++;
            split_class *cl = &w->classes[class_count++];
            cl->first_corner = w->skeys[s].corner; /* sorted by corner within the class */
            cl->start = s;
            cl->end = e;
            s = e;
        }
        size_t primary = first_class;
        for (size_t k = first_class + 1; k < class_count; k++)
            if (w->classes[k].first_corner < w->classes[primary].first_corner) primary = k;
        const split_class *pc = &w->classes[primary];
        uint32_t v = w->skeys[pc->start].vertex;
        for (uint32_t s = pc->start; s < pc->end; s++) out->indices[w->skeys[s].corner] = v;
        memcpy(&out->tangents[(size_t)v * 4], &w->ctan[(size_t)pc->first_corner * 4],
               4 * sizeof(float));
        /* Only the copies stay in the list (their order is fixed by the sort below). */
        w->classes[primary] = w->classes[--class_count];
        run = vend;
    }
    qsort(w->classes, class_count, sizeof *w->classes, cmp_class);
    if (class_count > (size_t)(UINT32_MAX - vc))
        return kiln_error_set(err, KILN_E_LIMIT,
                              "tangents: splitting %zu vertices would pass 2^32 - 1 vertices",
                              class_count);
    uint32_t total = vc + (uint32_t)class_count;
    size_t tsize, rsize;
    /* One element at least, as work_array does: a zero-size request would read as failure. */
    if (!kiln_size_mul(total ? total : 1, 4 * sizeof(float), &tsize) ||
        !kiln_size_mul(total ? total : 1, sizeof(uint32_t), &rsize))
        return kiln_error_set(err, KILN_E_LIMIT, "tangents: %u vertices are too many", total);
    if (class_count > 0) {
        float *grown = kiln_realloc(w->a, out->tangents, out->tangents_size, tsize);
        if (!grown) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "tangents: out of memory");
        out->tangents = grown;
        out->tangents_size = tsize;
    }
    out->remap = kiln_alloc(w->a, rsize);
    if (!out->remap) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "tangents: out of memory");
    out->remap_size = rsize;
    for (uint32_t v = 0; v < vc; v++) out->remap[v] = v;
    for (size_t k = 0; k < class_count; k++) {
        const split_class *cl = &w->classes[k];
        uint32_t id = vc + (uint32_t)k;
        uint32_t v = w->skeys[cl->start].vertex;
        out->remap[id] = v;
        memcpy(&out->tangents[(size_t)id * 4], &w->ctan[(size_t)cl->first_corner * 4],
               4 * sizeof(float));
        for (uint32_t s = cl->start; s < cl->end; s++) out->indices[w->skeys[s].corner] = id;
    }
    out->vertex_count = total;
    out->split_count = (uint32_t)class_count;
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
    uint32_t tri_count = index_count / 3;
    work w = {.a = a};
    kiln_result r = KILN_OK;

    /* The result: tangents of the input vertices (grown when vertices split), indices. */
    out->tangents = work_array(&w, vertex_count, 4 * sizeof(float), &out->tangents_size);
    out->indices = work_array(&w, index_count, sizeof(uint32_t), &out->indices_size);
    w.wc = work_array(&w, index_count, sizeof *w.wc, &w.wc_size);
    w.tris = work_array(&w, tri_count, sizeof *w.tris, &w.tris_size);
    w.edges = work_array(&w, index_count, sizeof *w.edges, &w.edges_size);
    w.nb = work_array(&w, index_count, sizeof *w.nb, &w.nb_size);
    w.cgroup = work_array(&w, index_count, sizeof *w.cgroup, &w.cgroup_size);
    w.members = work_array(&w, index_count, sizeof *w.members, &w.members_size);
    w.groups = work_array(&w, index_count, sizeof *w.groups, &w.groups_size);
    size_t stack_count;
    if (!kiln_size_add((size_t)index_count * 2, 2, &stack_count)) stack_count = 0;
    w.stack = stack_count ? work_array(&w, stack_count, sizeof *w.stack, &w.stack_size) : NULL;
    w.proj = work_array(&w, index_count, 7 * sizeof(float), &w.proj_size);
    w.ctan = work_array(&w, index_count, 4 * sizeof(float), &w.ctan_size);
    w.cstate = work_array(&w, index_count, 1, &w.cstate_size);
    w.first = work_array(&w, vertex_count, sizeof *w.first, &w.first_size);
    if (!out->tangents || !out->indices || !w.wc || !w.tris || !w.edges || !w.nb || !w.cgroup ||
        !w.members || !w.groups || !w.stack || !w.proj || !w.ctan || !w.cstate || !w.first ||
        !weld_vertices(&w, positions, normals, uvs, vertex_count)) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "tangents: out of memory for %u vertices"
                           " and %u indices", vertex_count, index_count);
        goto done;
    }
    for (uint32_t c = 0; c < index_count; c++) w.wc[c] = w.weld[indices[c]];
    memset(w.cstate, 0, index_count ? index_count : 1);
    memset(w.ctan, 0, w.ctan_size);

    triangle_info(&w, positions, uvs, indices, tri_count);
    build_neighbors(&w, tri_count);
    uint32_t group_count = build_groups(&w, tri_count);
    group_tangents(&w, positions, normals, indices, group_count);
    finish_corners(&w, normals, indices, vertex_count, index_count);

    /* Vertices no corner uses keep the fallback; the split pass overwrites the others. */
    for (uint32_t v = 0; v < vertex_count; v++) {
        fallback_tangent(&normals[(size_t)v * 3], &out->tangents[(size_t)v * 4]);
        out->tangents[(size_t)v * 4 + 3] = 1.0f;
    }
    r = split_vertices(&w, vertex_count, indices, index_count, out, err);
    if (r == KILN_OK) out->index_count = index_count;

done:
    work_free(&w);
    if (r != KILN_OK) kiln_tangent_result_free(a, out);
    return r;
}
