/* vgeo_check.c — see vgeo_check.h. */
#include "vgeo_check.h"

#include "write/vgeo_write.h"

#include "support.h"

#include "brute_distance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint8_t *vc_write_read(kiln_cooked_vgeo *v, kiln_vgeo_view *view)
{
    if (!v->mesh) v->mesh = 1; /* the writer wants the mesh's id; any will do here */
    uint8_t *bytes = NULL;
    size_t size = 0;
    kiln_error err;
    kiln_result r = kiln_vgeo_write(v, NULL, &bytes, &size, &err);
    if (r != KILN_OK) print_error("%s\n", err.message);
    assert_int_equal(r, KILN_OK);
    r = kiln_vgeo_read(bytes, size, 0, view, &err);
    if (r != KILN_OK) print_error("%s\n", err.message);
    assert_int_equal(r, KILN_OK);
    return bytes;
}

static int contains(const kiln_vgeo_lod *outer, const kiln_vgeo_lod *inner)
{
    double d2 = 0;
    for (int c = 0; c < 3; c++) {
        double x = (double)outer->center[c] - inner->center[c];
        d2 += x * x;
    }
    return sqrt(d2) + inner->radius <= outer->radius;
}

static uint64_t *edges_of(const uint32_t *weld, const uint32_t *idx, size_t n, size_t *count);

/* The global triangles of clusters list[0..count) into a malloc'd index array. */
static uint32_t *triangles_of(const kiln_vgeo_view *v, const uint32_t *list, size_t count,
                              size_t *n)
{
    size_t total = 0;
    for (size_t i = 0; i < count; i++) total += kiln_vgeo_cluster(v, list[i]).triangle_count * 3u;
    uint32_t *idx = malloc((total ? total : 1) * sizeof *idx);
    assert_non_null(idx);
    size_t k = 0;
    for (size_t i = 0; i < count; i++) {
        kiln_meshlet m = kiln_vgeo_cluster(v, list[i]);
        for (uint32_t t = 0; t < m.triangle_count * 3; t++) {
            uint8_t local = v->cluster_triangles[m.triangle_offset + t];
            memcpy(&idx[k++], v->cluster_vertices + ((size_t)m.vertex_offset + local) * 4, 4);
        }
    }
    *n = k;
    return idx;
}

/* The edges used once, in place; returns how many. */
static size_t keep_single(uint64_t *e, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && e[j] == e[i]) j++;
        if (j - i == 1) e[w++] = e[i];
        i = j;
    }
    return w;
}

static void check_group_borders(const kiln_vgeo_view *v, const vc_source *s)
{
    uint32_t ng = v->group_count, nc = v->cluster_count;
    uint32_t *start = calloc((size_t)ng + 1, sizeof *start), *made = malloc((nc ? nc : 1) * 4);
    uint32_t *members = malloc((nc ? nc : 1) * 4);
    assert_true(start && made && members);
    for (uint32_t i = 0; i < nc; i++) {
        kiln_vgeo_link l = kiln_vgeo_cluster_link(v, i);
        if (l.source_group != KILN_VGEO_NONE) start[l.source_group + 1]++;
    }
    for (uint32_t g = 0; g < ng; g++) start[g + 1] += start[g];
    for (uint32_t i = 0; i < nc; i++) {
        kiln_vgeo_link l = kiln_vgeo_cluster_link(v, i);
        if (l.source_group != KILN_VGEO_NONE) made[start[l.source_group]++] = i;
    }
    for (uint32_t g = ng; g > 0; g--) start[g] = start[g - 1];
    start[0] = 0;
    for (uint32_t g = 0; g < ng; g++) {
        kiln_vgeo_group gr = kiln_vgeo_group_at(v, g);
        for (uint32_t k = 0; k < gr.cluster_count; k++) members[k] = gr.cluster_offset + k;
        size_t nm = 0, nn = 0, em = 0, en = 0;
        uint32_t *tm = triangles_of(v, members, gr.cluster_count, &nm);
        uint32_t *tn = triangles_of(v, made + start[g], start[g + 1] - start[g], &nn);
        assert_true(start[g + 1] > start[g]); /* a group made something */
        assert_true(nn < nm);                 /* and fewer triangles */
        uint64_t *bm = edges_of(s->weld, tm, nm, &em), *bn = edges_of(s->weld, tn, nn, &en);
        em = keep_single(bm, em);
        en = keep_single(bn, en);
        if (em != en || (em && memcmp(bm, bn, em * sizeof *bm) != 0)) {
            print_error("group %u (level %u): its members' border has %zu edges, what it made "
                        "has %zu\n",
                        g, gr.level, em, en);
            for (size_t x = 0, y = 0; x < em || y < en;) {
                if (y >= en || (x < em && bm[x] < bn[y])) {
                    print_error("  only the members': %u-%u\n", (unsigned)(bm[x] >> 32),
                                (unsigned)bm[x]);
                    x++;
                } else if (x >= em || bn[y] < bm[x]) {
                    print_error("  only the made: %u-%u\n", (unsigned)(bn[y] >> 32),
                                (unsigned)bn[y]);
                    y++;
                } else x++, y++;
            }
            fail();
        }
        free(tm), free(tn), free(bm), free(bn);
    }
    free(start), free(made), free(members);
}

size_t vc_check_dag(const kiln_vgeo_view *v, const vc_source *s)
{
    check_group_borders(v, s);
    size_t checked = 0;
    for (uint32_t g = 0; g < v->group_count; g++) {
        kiln_vgeo_group gr = kiln_vgeo_group_at(v, g);
        assert_true(gr.cluster_count > 0);
        assert_true((uint64_t)gr.cluster_offset + gr.cluster_count <= v->cluster_count);
        assert_true(isfinite(gr.error) && gr.error >= 0 && isfinite(gr.radius));
        for (uint32_t k = 0; k < gr.cluster_count; k++)
            assert_int_equal(kiln_vgeo_cluster_link(v, gr.cluster_offset + k).group, g);
    }
    uint32_t roots = 0;
    for (uint32_t i = 0; i < v->cluster_count; i++) {
        kiln_vgeo_link l = kiln_vgeo_cluster_link(v, i);
        kiln_meshlet m = kiln_vgeo_cluster(v, i);
        assert_true(m.vertex_count <= v->max_vertices && m.triangle_count <= v->max_triangles);
        assert_true(m.triangle_count > 0);
        kiln_vgeo_lod self, parent;
        kiln_vgeo_cluster_lod(v, i, &self, &parent);
        if (l.source_group == KILN_VGEO_NONE) {
            assert_int_equal(l.level, 0);
            assert_true(self.error == 0.0f);
        } else {
            assert_true(l.source_group < v->group_count);
            kiln_vgeo_group sg = kiln_vgeo_group_at(v, l.source_group);
            assert_int_equal(l.level, sg.level);
            assert_true(self.error == sg.error);
        }
        if (l.group == KILN_VGEO_NONE) {
            roots++;
            assert_true(isinf(parent.error));
            continue;
        }
        kiln_vgeo_group g = kiln_vgeo_group_at(v, l.group);
        assert_true(l.level < g.level);
        /* The monotonic rule the cut relies on. */
        if (!(parent.error >= self.error) || !contains(&parent, &self)) {
            print_error("cluster %u (level %u): own error %g sphere (%g %g %g) r %g; parent "
                        "group %u error %g sphere (%g %g %g) r %g\n",
                        i, l.level, self.error, self.center[0], self.center[1], self.center[2],
                        self.radius, l.group, parent.error, parent.center[0], parent.center[1],
                        parent.center[2], parent.radius);
            fail();
        }
        checked++;
    }
    assert_true(roots >= 1 || v->cluster_count == 0);
    if (roots > 1) assert_true(v->flags & KILN_VGEO_STALLED);
    return checked;
}

/* ---- the source ------------------------------------------------------------------------------ */

typedef struct keyed {
    float p[3];
    uint32_t v;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = memcmp(x->p, y->p, sizeof x->p);
    if (c) return c;
    return (x->v > y->v) - (x->v < y->v);
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t edge_key(const uint32_t *weld, uint32_t a, uint32_t b)
{
    uint32_t u = weld[a], w = weld[b];
    return u < w ? (uint64_t)u << 32 | w : (uint64_t)w << 32 | u;
}

/* Edges of a triangle list, welded, sorted, with repeats; triangles with two corners at one
 * position (no area) left out. */
static uint64_t *edges_of(const uint32_t *weld, const uint32_t *idx, size_t n, size_t *count)
{
    uint64_t *e = malloc((n ? n : 1) * sizeof *e);
    assert_non_null(e);
    size_t k = 0;
    for (size_t t = 0; t + 2 < n; t += 3) {
        uint32_t a = weld[idx[t]], b = weld[idx[t + 1]], c = weld[idx[t + 2]];
        if (a == b || b == c || a == c) continue; /* no area: two corners at one position */
        for (int q = 0; q < 3; q++) e[k++] = edge_key(weld, idx[t + q], idx[t + (q + 1) % 3]);
    }
    qsort(e, k, sizeof *e, u64_cmp);
    *count = k;
    return e;
}

void vc_source_init(vc_source *s, const float *positions, uint32_t vertex_count,
                    const uint32_t *indices, size_t index_count)
{
    memset(s, 0, sizeof *s);
    s->positions = positions;
    s->vertex_count = vertex_count;
    keyed *k = malloc((vertex_count ? vertex_count : 1) * sizeof *k);
    s->weld = malloc((vertex_count ? vertex_count : 1) * sizeof *s->weld);
    assert_true(k && s->weld);
    for (uint32_t v = 0; v < vertex_count; v++) {
        for (int c = 0; c < 3; c++) {
            float f = positions[v * 3 + c];
            k[v].p[c] = f == 0.0f ? 0.0f : f;
        }
        k[v].v = v;
    }
    qsort(k, vertex_count, sizeof *k, keyed_cmp);
    for (uint32_t i = 0; i < vertex_count; i++) {
        uint32_t first =
            (i > 0 && !memcmp(k[i].p, k[i - 1].p, sizeof k[i].p)) ? s->weld[k[i - 1].v] : k[i].v;
        s->weld[k[i].v] = first;
    }
    free(k);
    s->edges = edges_of(s->weld, indices, index_count, &s->edge_count);
    for (size_t i = 0; i < s->edge_count;) {
        size_t j = i + 1;
        while (j < s->edge_count && s->edges[j] == s->edges[i]) j++;
        if (j - i == 1) s->border_edges++;
        i = j;
    }
}

void vc_source_free(vc_source *s)
{
    free(s->weld);
    free(s->edges);
    memset(s, 0, sizeof *s);
}

/* ---- one cut --------------------------------------------------------------------------------- */

typedef struct tri_key {
    uint32_t v[3]; /* welded ids, sorted */
    uint32_t odd;  /* winding relative to the sorted order */
    uint32_t index;
} tri_key;

static int tri_key_cmp(const void *a, const void *b)
{
    const tri_key *x = a, *y = b;
    for (int c = 0; c < 3; c++)
        if (x->v[c] != y->v[c]) return x->v[c] < y->v[c] ? -1 : 1;
    if (x->odd != y->odd) return x->odd < y->odd ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Removes pairs of triangles on the same three positions with opposite winding: a fold of no
 * volume, made where the groups on both sides of a locked border each reduced the border's
 * last vertices to the same sliver. Together the pair is closed (each of its edges is used
 * once by each), so it neither opens nor covers anything; what remains must be watertight on
 * its own. Returns the pairs removed; *k shrinks. */
static size_t cancel_folds(const uint32_t *weld, uint32_t *idx, size_t *k)
{
    size_t n = *k / 3, pairs = 0;
    tri_key *t = malloc((n ? n : 1) * sizeof *t);
    uint8_t *drop = calloc(n ? n : 1, 1);
    assert_true(t && drop);
    for (size_t i = 0; i < n; i++) {
        uint32_t a = weld[idx[i * 3]], b = weld[idx[i * 3 + 1]], c = weld[idx[i * 3 + 2]];
        uint32_t v[3] = {a, b, c}, swaps = 0;
        for (int p = 0; p < 2; p++)
            for (int q = 0; q < 2 - p; q++)
                if (v[q] > v[q + 1]) {
                    uint32_t x = v[q];
                    v[q] = v[q + 1], v[q + 1] = x;
                    swaps++;
                }
        memcpy(t[i].v, v, sizeof v);
        t[i].odd = swaps & 1;
        t[i].index = (uint32_t)i;
    }
    qsort(t, n, sizeof *t, tri_key_cmp);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && !memcmp(t[j].v, t[i].v, sizeof t[i].v)) j++;
        size_t even = i, odd = i; /* the run is sorted: evens first, then odds */
        while (odd < j && !t[odd].odd) odd++;
        size_t odd_start = odd;
        for (; even < odd_start && odd < j; even++, odd++) {
            drop[t[even].index] = drop[t[odd].index] = 1;
            pairs++;
        }
        i = j;
    }
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (!drop[i]) {
            memmove(idx + w * 3, idx + i * 3, 3 * sizeof *idx);
            w++;
        }
    *k = w * 3;
    free(t);
    free(drop);
    return pairs;
}

vc_cut vc_check_cut(const kiln_vgeo_view *v, const vc_source *s, const kiln_vgeo_camera *camera,
                    float pixel_error)
{
    vc_cut out = {0, 0, 0, 0};
    size_t nc = v->cluster_count;
    uint32_t *sel = malloc((nc ? nc : 1) * sizeof *sel);
    assert_non_null(sel);
    size_t n = kiln_vgeo_select(v, camera, pixel_error, sel, nc);
    assert_true(n <= nc);
    assert_int_equal(kiln_vgeo_select(v, camera, pixel_error, NULL, 0), n);
    /* The selection is what the rule says, cluster by cluster, and the rule is consistent up
     * the DAG: a group too coarse for this view has made no cluster that is drawn or
     * replaced in turn. */
    uint8_t *is_sel = calloc(nc ? nc : 1, 1), *used = calloc(v->group_count + 1, 1);
    assert_true(is_sel && used);
    for (size_t i = 0; i < n; i++) {
        assert_true(sel[i] < nc);
        if (i) assert_true(sel[i] > sel[i - 1]);
        is_sel[sel[i]] = 1;
    }
    for (uint32_t g = 0; g < v->group_count; g++) {
        kiln_vgeo_group gr = kiln_vgeo_group_at(v, g);
        kiln_vgeo_lod lod = {{gr.center[0], gr.center[1], gr.center[2]}, gr.radius, gr.error};
        used[g] = kiln_vgeo_pixels(&lod, camera) <= pixel_error;
    }
    size_t tris = 0;
    for (uint32_t i = 0; i < nc; i++) {
        kiln_vgeo_link l = kiln_vgeo_cluster_link(v, i);
        kiln_vgeo_lod self, parent;
        kiln_vgeo_cluster_lod(v, i, &self, &parent);
        int own_ok = kiln_vgeo_pixels(&self, camera) <= pixel_error;
        int parent_ok = l.group != KILN_VGEO_NONE && used[l.group];
        assert_int_equal(is_sel[i], own_ok && !parent_ok);
        if (l.source_group == KILN_VGEO_NONE) assert_true(own_ok);
        else assert_int_equal(own_ok, used[l.source_group]);
        if (!own_ok && l.group != KILN_VGEO_NONE) assert_false(used[l.group]);
        if (is_sel[i]) tris += kiln_vgeo_cluster(v, i).triangle_count;
    }
    /* The soup of the cut, welded as the source was. */
    uint32_t *idx = malloc((tris ? tris : 1) * 3 * sizeof *idx);
    assert_non_null(idx);
    size_t k = 0;
    const uint8_t *verts = v->cluster_vertices;
    for (size_t i = 0; i < n; i++) {
        kiln_meshlet m = kiln_vgeo_cluster(v, sel[i]);
        for (uint32_t t = 0; t < m.triangle_count * 3; t++) {
            uint8_t local = v->cluster_triangles[m.triangle_offset + t];
            assert_true(local < m.vertex_count);
            uint32_t g;
            memcpy(&g, verts + ((size_t)m.vertex_offset + local) * 4, 4);
            assert_true(g < s->vertex_count);
            idx[k++] = g;
        }
    }
    out.folds = cancel_folds(s->weld, idx, &k);
    size_t ec = 0;
    uint64_t *e = edges_of(s->weld, idx, k, &ec);
    size_t si = 0, cracks = 0, overlaps = 0, borders_seen = 0;
    uint64_t first_bad = 0;
    for (size_t i = 0; i < ec;) {
        size_t j = i + 1;
        while (j < ec && e[j] == e[i]) j++;
        size_t cut_n = j - i, src_n = 0;
        while (si < s->edge_count && s->edges[si] < e[i]) {
            /* A source border edge the cut lacks: a hole. */
            size_t sj = si + 1;
            while (sj < s->edge_count && s->edges[sj] == s->edges[si]) sj++;
            if (sj - si == 1) {
                cracks++;
                if (!first_bad) first_bad = s->edges[si];
            }
            si = sj;
        }
        if (si < s->edge_count && s->edges[si] == e[i]) {
            size_t sj = si;
            while (sj < s->edge_count && s->edges[sj] == e[i]) sj++;
            src_n = sj - si;
            si = sj;
        }
        if (src_n == 1) borders_seen++;
        if (cut_n == 1 && src_n != 1) {
            cracks++;
            if (!first_bad) first_bad = e[i];
        }
        size_t limit = src_n == 0 ? 2 : src_n;
        if (cut_n > limit) out.crowded++;
        if (src_n == 1 && cut_n != 1) {
            overlaps++; /* a source border drawn twice: two levels over one spot */
            if (!first_bad) first_bad = e[i];
        }
        i = j;
    }
    for (; si < s->edge_count;) {
        size_t sj = si + 1;
        while (sj < s->edge_count && s->edges[sj] == s->edges[si]) sj++;
        if (sj - si == 1) cracks++;
        si = sj;
    }
    if (cracks || overlaps) {
        print_error("cut at %g px from (%g %g %g): %zu clusters, %zu triangles: %zu cracks, %zu "
                    "overlaps (first edge %u-%u)\n",
                    pixel_error, camera->position[0], camera->position[1], camera->position[2], n,
                    tris, cracks, overlaps, (unsigned)(first_bad >> 32), (unsigned)first_bad);
        /* Which clusters use that edge, and at which level. */
        for (size_t i = 0; i < n; i++) {
            kiln_meshlet m = kiln_vgeo_cluster(v, sel[i]);
            for (uint32_t t = 0; t < m.triangle_count; t++) {
                uint32_t g[3];
                for (int c = 0; c < 3; c++) {
                    uint8_t local = v->cluster_triangles[m.triangle_offset + t * 3 + c];
                    memcpy(&g[c], verts + ((size_t)m.vertex_offset + local) * 4, 4);
                }
                for (int c = 0; c < 3; c++)
                    if (edge_key(s->weld, g[c], g[(c + 1) % 3]) == first_bad)
                        print_error("  cluster %u level %u group %u source %u: triangle %u %u %u\n",
                                    sel[i], kiln_vgeo_cluster_link(v, sel[i]).level,
                                    kiln_vgeo_cluster_link(v, sel[i]).group,
                                    kiln_vgeo_cluster_link(v, sel[i]).source_group, g[0], g[1],
                                    g[2]);
            }
        }
        fail();
    }
    assert_int_equal(borders_seen, s->border_edges);
    free(e);
    free(idx);
    free(sel);
    free(is_sel);
    free(used);
    out.clusters = n;
    out.triangles = tris;
    return out;
}

double vc_rand(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return (x >> 8) / 16777216.0;
}

size_t vc_check_cameras(const kiln_vgeo_view *v, const vc_source *s, const float center[3],
                        float radius, uint32_t count, uint32_t seed)
{
    static const float thresholds[] = {0.5f, 1.0f, 2.0f, 4.0f, 16.0f, 64.0f};
    size_t cuts = 0;
    uint32_t st = seed ? seed : 1;
    for (uint32_t i = 0; i < count; i++) {
        double dir[3], len = 0;
        do {
            len = 0;
            for (int c = 0; c < 3; c++) {
                dir[c] = vc_rand(&st) * 2 - 1;
                len += dir[c] * dir[c];
            }
        } while (len < 1e-4 || len > 1);
        len = sqrt(len);
        double dist;
        switch (i % 4) {
        case 0:
            dist = radius * (2 + 18 * vc_rand(&st));
            break; /* far */
        case 1:
            dist = radius * (1.02 + 0.5 * vc_rand(&st));
            break; /* near */
        case 2:
            dist = radius * (0.85 + 0.2 * vc_rand(&st));
            break; /* grazing the surface */
        default:
            dist = radius * 0.5 * vc_rand(&st);
            break; /* inside the bounds */
        }
        kiln_vgeo_camera cam;
        for (int c = 0; c < 3; c++) cam.position[c] = (float)(center[c] + dir[c] / len * dist);
        cam.fov_y = 1.0471976f;
        cam.viewport_height = 1080.0f;
        size_t prev = SIZE_MAX;
        for (size_t t = 0; t < sizeof thresholds / sizeof thresholds[0]; t++) {
            vc_cut c = vc_check_cut(v, s, &cam, thresholds[t]);
            assert_true(c.triangles <= prev); /* coarser as the threshold rises */
            prev = c.triangles;
            cuts++;
        }
    }
    return cuts;
}

/* ---- errors that hold ---------------------------------------------------------------------- */

/* Appends the source (level-0) clusters under group g to out (*n of them so far): every
 * level-0 cluster reachable through members and the groups that made them. Their surface
 * contains the region g's clusters replace (it may hold more: a group that made one member
 * also made clusters that went to other groups). */
static void source_clusters(const kiln_vgeo_view *v, uint32_t g, uint32_t *out, size_t *n,
                            uint32_t *seen, uint32_t stamp)
{
    if (seen[g] == stamp) return; /* reached through another member already */
    seen[g] = stamp;
    kiln_vgeo_group gr = kiln_vgeo_group_at(v, g);
    for (uint32_t k = 0; k < gr.cluster_count; k++) {
        uint32_t c = gr.cluster_offset + k;
        kiln_vgeo_link l = kiln_vgeo_cluster_link(v, c);
        if (l.source_group == KILN_VGEO_NONE) out[(*n)++] = c;
        else source_clusters(v, l.source_group, out, n, seen, stamp);
    }
}

double vc_check_errors(const kiln_vgeo_view *v, const float *positions, size_t samples)
{
    uint32_t nc = v->cluster_count, ng = v->group_count;
    uint32_t *made = malloc((nc ? nc : 1) * 4), *under = malloc((nc ? nc : 1) * 4);
    uint32_t *seen = calloc(ng ? ng : 1, 4);
    assert_true(made && under && seen);
    double worst = INFINITY;
    for (uint32_t g = 0; g < ng; g++) {
        size_t nm = 0, nu = 0;
        for (uint32_t i = 0; i < nc; i++)
            if (kiln_vgeo_cluster_link(v, i).source_group == g) made[nm++] = i;
        source_clusters(v, g, under, &nu, seen, g + 1);
        size_t tn = 0, tu = 0;
        uint32_t *tm = triangles_of(v, made, nm, &tn), *ts = triangles_of(v, under, nu, &tu);
        double measured = bd_directed(positions, tm, tn, ts, tu, samples, 1234u + g);
        double stored = kiln_vgeo_group_at(v, g).error;
        if (!(stored >= measured)) {
            print_error("group %u (level %u): stored error %.9g < measured %.9g from the %zu "
                        "triangles it made to the %zu source triangles beneath it\n",
                        g, kiln_vgeo_group_at(v, g).level, stored, measured, tn / 3, tu / 3);
            fail();
        }
        if (measured > 0 && stored / measured < worst) worst = stored / measured;
        free(tm);
        free(ts);
    }
    free(made);
    free(under);
    free(seen);
    return worst;
}
