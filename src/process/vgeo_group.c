/* vgeo_group.c — welding positions and grouping clusters by shared edges for the DAG build
 * (vgeo_private.h). Groups come from METIS (k-way or recursive bisection over the graph whose
 * nodes are clusters and whose edge weights count the mesh edges two clusters share), the way
 * published Nanite-style builders group: neighbours that share a long border are simplified
 * together, so the border that stays locked is short. */
#include <metis.h>
#include <stdlib.h>
#include <string.h>

#include "process/vgeo_private.h"

/* ---- welding ----------------------------------------------------------------------------- */

static uint32_t position_hash(const uint32_t b[3])
{
    uint32_t h = b[0] * 0x9E3779B1u;
    h ^= b[1] * 0x85EBCA77u + (h << 6) + (h >> 2);
    h ^= b[2] * 0xC2B2AE3Du + (h << 6) + (h >> 2);
    return h ^ (h >> 15);
}

static void position_bits(const float *p, uint32_t b[3])
{
    for (int c = 0; c < 3; c++) {
        float f = p[c] == 0.0f ? 0.0f : p[c]; /* -0 and +0 are one position */
        memcpy(&b[c], &f, 4);
    }
}

kiln_result kiln_vgeo_weld(const kiln_allocator *a, const float *positions, uint32_t vertex_count,
                           uint32_t *weld, kiln_error *err)
{
    size_t cap = 16;
    while (cap < (size_t)vertex_count * 2) cap *= 2;
    uint32_t *table = kiln_alloc(a, cap * sizeof *table);
    if (!table) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "vgeo: out of memory (weld)");
    memset(table, 0xFF, cap * sizeof *table);
    /* Vertices go in in increasing order, so the first one found at a position is the lowest:
     * the result does not depend on the hash. */
    for (uint32_t v = 0; v < vertex_count; v++) {
        uint32_t b[3];
        position_bits(positions + (size_t)v * 3, b);
        size_t slot = position_hash(b) & (cap - 1);
        for (;;) {
            uint32_t u = table[slot];
            if (u == UINT32_MAX) {
                table[slot] = v;
                weld[v] = v;
                break;
            }
            uint32_t ub[3];
            position_bits(positions + (size_t)u * 3, ub);
            if (ub[0] == b[0] && ub[1] == b[1] && ub[2] == b[2]) {
                weld[v] = u;
                break;
            }
            slot = (slot + 1) & (cap - 1);
        }
    }
    kiln_free(a, table, cap * sizeof *table);
    return KILN_OK;
}

/* ---- counting edges ------------------------------------------------------------------------ */

bool kiln_vgeo_counter_init(kiln_vgeo_counter *c, const kiln_allocator *a, size_t max_keys)
{
    size_t cap = 16;
    while (cap < max_keys * 2) cap *= 2;
    c->a = a;
    c->mask = cap - 1;
    c->keys = kiln_alloc(a, cap * sizeof *c->keys);
    c->counts = kiln_alloc(a, cap * sizeof *c->counts);
    if (!c->keys || !c->counts) {
        kiln_vgeo_counter_free(c);
        return false;
    }
    kiln_vgeo_counter_clear(c);
    return true;
}

void kiln_vgeo_counter_clear(kiln_vgeo_counter *c)
{
    memset(c->keys, 0xFF, (c->mask + 1) * sizeof *c->keys);
}

static size_t counter_slot(const kiln_vgeo_counter *c, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    size_t s = (size_t)(h >> 32) & c->mask;
    while (c->keys[s] != key && c->keys[s] != UINT64_MAX) s = (s + 1) & c->mask;
    return s;
}

uint32_t kiln_vgeo_counter_add(kiln_vgeo_counter *c, uint64_t key)
{
    size_t s = counter_slot(c, key);
    if (c->keys[s] == UINT64_MAX) {
        c->keys[s] = key;
        c->counts[s] = 0;
    }
    return ++c->counts[s];
}

uint32_t kiln_vgeo_counter_get(const kiln_vgeo_counter *c, uint64_t key)
{
    size_t s = counter_slot(c, key);
    return c->keys[s] == UINT64_MAX ? 0 : c->counts[s];
}

void kiln_vgeo_counter_free(kiln_vgeo_counter *c)
{
    if (c->keys) kiln_free(c->a, c->keys, (c->mask + 1) * sizeof *c->keys);
    if (c->counts) kiln_free(c->a, c->counts, (c->mask + 1) * sizeof *c->counts);
    c->keys = NULL;
    c->counts = NULL;
}

/* ---- the cluster graph --------------------------------------------------------------------- */

typedef struct edge_ref {
    uint32_t lo, hi, cluster;
} edge_ref;

static int edge_cmp(const void *pa, const void *pb)
{
    const edge_ref *x = pa, *y = pb;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
    return (x->cluster > y->cluster) - (x->cluster < y->cluster);
}

typedef struct pair_ref {
    uint32_t a, b; /* a < b */
} pair_ref;

static int pair_cmp(const void *pa, const void *pb)
{
    const pair_ref *x = pa, *y = pb;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    return (x->b > y->b) - (x->b < y->b);
}

/* Appends the edges of cluster c that no other triangle of c shares (its border) to out, in
 * triangle order. count: a counter with room for the cluster's edges, cleared here. */
static size_t border_edges(const uint32_t *tris, uint32_t tri_count, const uint32_t *weld,
                           uint32_t c, kiln_vgeo_counter *count, edge_ref *out)
{
    kiln_vgeo_counter_clear(count);
    for (uint32_t t = 0; t < tri_count; t++)
        for (int e = 0; e < 3; e++) {
            uint32_t u = weld[tris[t * 3 + e]], v = weld[tris[t * 3 + (e + 1) % 3]];
            if (u != v) kiln_vgeo_counter_add(count, kiln_vgeo_edge(u, v));
        }
    size_t k = 0;
    for (uint32_t t = 0; t < tri_count; t++)
        for (int e = 0; e < 3; e++) {
            uint32_t u = weld[tris[t * 3 + e]], v = weld[tris[t * 3 + (e + 1) % 3]];
            if (u == v || kiln_vgeo_counter_get(count, kiln_vgeo_edge(u, v)) != 1) continue;
            out[k].lo = u < v ? u : v;
            out[k].hi = u < v ? v : u;
            out[k].cluster = c;
            k++;
        }
    return k;
}

/* Partitions each connected component of the cluster graph (CSR) on its own into parts of
 * about group_size with contiguous parts (METIS k-way, METIS_OPTION_CONTIG, which needs a
 * connected graph): without contiguity, k-way parts are often scattered pieces whose border is
 * most of their vertices, and they cannot simplify. part[c] receives a part number in
 * [0, *total_parts). Components are taken in order of their lowest cluster. */
static kiln_result partition_components(const kiln_allocator *a, uint32_t count, const idx_t *xadj,
                                        const idx_t *adjncy, const idx_t *adjwgt,
                                        uint32_t group_size, idx_t *part, idx_t *total_parts,
                                        kiln_error *err)
{
    size_t edges = (size_t)xadj[count];
    uint32_t *comp_of = kiln_alloc(a, (size_t)count * sizeof *comp_of);
    uint32_t *members = kiln_alloc(a, (size_t)count * sizeof *members);
    uint32_t *local = kiln_alloc(a, (size_t)count * sizeof *local);
    idx_t *sx = kiln_alloc(a, ((size_t)count + 1) * sizeof *sx);
    idx_t *sa = kiln_alloc(a, (edges ? edges : 1) * sizeof *sa);
    idx_t *sw = kiln_alloc(a, (edges ? edges : 1) * sizeof *sw);
    idx_t *sp = kiln_alloc(a, (size_t)count * sizeof *sp);
    kiln_result rc = KILN_OK;
    idx_t base = 0;
    if (!comp_of || !members || !local || !sx || !sa || !sw || !sp) {
        rc = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "vgeo: out of memory (groups)");
        goto done;
    }
    for (uint32_t c = 0; c < count; c++) comp_of[c] = UINT32_MAX;
    for (uint32_t first = 0; first < count && rc == KILN_OK; first++) {
        if (comp_of[first] != UINT32_MAX) continue;
        /* Breadth-first from the lowest cluster not yet reached: members in visiting order. */
        size_t n = 0, head = 0;
        members[n++] = first;
        comp_of[first] = first;
        while (head < n) {
            uint32_t x = members[head++];
            for (idx_t e = xadj[x]; e < xadj[x + 1]; e++) {
                uint32_t y = (uint32_t)adjncy[e];
                if (comp_of[y] == UINT32_MAX) {
                    comp_of[y] = first;
                    members[n++] = y;
                }
            }
        }
        if (n <= group_size) {
            for (size_t i = 0; i < n; i++) part[members[i]] = base;
            base++;
            continue;
        }
        /* The component's own graph, in local numbers. */
        for (size_t i = 0; i < n; i++) local[members[i]] = (uint32_t)i;
        size_t k = 0;
        sx[0] = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t x = members[i];
            for (idx_t e = xadj[x]; e < xadj[x + 1]; e++) {
                sa[k] = (idx_t)local[adjncy[e]];
                sw[k++] = adjwgt[e];
            }
            sx[i + 1] = (idx_t)k;
        }
        idx_t nv = (idx_t)n, ncon = 1, objval = 0;
        idx_t nparts = (idx_t)((n + group_size - 1) / group_size);
        idx_t options[METIS_NOPTIONS];
        METIS_SetDefaultOptions(options);
        options[METIS_OPTION_SEED] = 42;
        options[METIS_OPTION_NUMBERING] = 0;
        options[METIS_OPTION_CONTIG] = 1;
        int r = METIS_PartGraphKway(&nv, &ncon, sx, sa, NULL, NULL, sw, &nparts, NULL, NULL,
                                    options, &objval, sp);
        if (r != METIS_OK) {
            rc = kiln_error_set(err,
                                r == METIS_ERROR_MEMORY ? KILN_E_OUT_OF_MEMORY : KILN_E_INTERNAL,
                                "vgeo: METIS could not partition %zu clusters (%d)", n, r);
            break;
        }
        for (size_t i = 0; i < n; i++) {
            if (sp[i] < 0 || sp[i] >= nparts) {
                rc = kiln_error_set(err, KILN_E_INTERNAL, "vgeo: METIS part out of range");
                break;
            }
            part[members[i]] = base + sp[i];
        }
        base += nparts;
    }
done:
    *total_parts = base;
    kiln_free(a, comp_of, (size_t)count * sizeof *comp_of);
    kiln_free(a, members, (size_t)count * sizeof *members);
    kiln_free(a, local, (size_t)count * sizeof *local);
    kiln_free(a, sx, ((size_t)count + 1) * sizeof *sx);
    kiln_free(a, sa, (edges ? edges : 1) * sizeof *sa);
    kiln_free(a, sw, (edges ? edges : 1) * sizeof *sw);
    kiln_free(a, sp, (size_t)count * sizeof *sp);
    return rc;
}

kiln_result kiln_vgeo_partition(const kiln_allocator *a, const uint32_t *tris,
                                const uint32_t *tri_offset, const uint32_t *tri_count,
                                uint32_t count, const uint32_t *weld, uint32_t group_size,
                                uint32_t *group_of, uint32_t *group_count, kiln_error *err)
{
    *group_count = 0;
    if (count == 0) return KILN_OK;
    if (count <= group_size) {
        for (uint32_t c = 0; c < count; c++) group_of[c] = 0;
        *group_count = 1;
        return KILN_OK;
    }
    size_t total = 0, most = 0;
    for (uint32_t c = 0; c < count; c++) {
        total += (size_t)tri_count[c] * 3;
        if (tri_count[c] > most) most = tri_count[c];
    }
    kiln_result rc = KILN_OK;
    edge_ref *edges = kiln_alloc(a, (total ? total : 1) * sizeof *edges);
    kiln_vgeo_counter counter = {0};
    pair_ref *pairs = NULL;
    idx_t *xadj = NULL, *adjncy = NULL, *adjwgt = NULL, *part = NULL;
    size_t pair_count = 0, pair_cap = 0, unique = 0, n = 0;
    if (!edges || !kiln_vgeo_counter_init(&counter, a, most * 3 + 1)) goto nomem;
    for (uint32_t c = 0; c < count; c++)
        n += border_edges(tris + (size_t)tri_offset[c] * 3, tri_count[c], weld, c, &counter,
                          edges + n);
    qsort(edges, n, sizeof *edges, edge_cmp);
    /* Every two clusters on one edge are neighbours, once per shared edge. */
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi) j++;
        for (size_t p = i; p < j; p++)
            for (size_t q = p + 1; q < j; q++) {
                if (edges[p].cluster == edges[q].cluster) continue;
                if (pair_count == pair_cap) {
                    size_t cap = pair_cap ? pair_cap * 2 : 1024;
                    pair_ref *g =
                        kiln_realloc(a, pairs, pair_cap * sizeof *pairs, cap * sizeof *pairs);
                    if (!g) goto nomem;
                    pairs = g;
                    pair_cap = cap;
                }
                pairs[pair_count].a = edges[p].cluster; /* sorted by cluster within a run */
                pairs[pair_count].b = edges[q].cluster;
                pair_count++;
            }
        i = j;
    }
    if (pair_count) qsort(pairs, pair_count, sizeof *pairs, pair_cmp);
    /* Merge repeats into weights; CSR of the symmetric graph. */
    for (size_t i = 0; i < pair_count; i++)
        if (i == 0 || pair_cmp(&pairs[i], &pairs[i - 1]) != 0) unique++;
    xadj = kiln_calloc(a, (size_t)count + 1, sizeof *xadj);
    adjncy = kiln_alloc(a, (unique * 2 + 1) * sizeof *adjncy);
    adjwgt = kiln_alloc(a, (unique * 2 + 1) * sizeof *adjwgt);
    part = kiln_alloc(a, (size_t)count * sizeof *part);
    if (!xadj || !adjncy || !adjwgt || !part) goto nomem;
    for (size_t i = 0; i < pair_count; i++)
        if (i == 0 || pair_cmp(&pairs[i], &pairs[i - 1]) != 0) {
            xadj[pairs[i].a + 1]++;
            xadj[pairs[i].b + 1]++;
        }
    for (uint32_t c = 0; c < count; c++) xadj[c + 1] += xadj[c];
    {
        /* Fill by node in increasing neighbour order: for node a its neighbours b > a come
         * from the pairs (a, b) in order; those below come from pairs (b', a), which precede
         * in the sorted list, so one pass in pair order keeps each list sorted. */
        idx_t *fill = part; /* borrowed as the cursor until METIS runs */
        for (uint32_t c = 0; c < count; c++) fill[c] = xadj[c];
        for (size_t i = 0; i < pair_count;) {
            size_t j = i + 1;
            while (j < pair_count && pair_cmp(&pairs[j], &pairs[i]) == 0) j++;
            idx_t w = (idx_t)(j - i);
            uint32_t pa = pairs[i].a, pb = pairs[i].b;
            adjncy[fill[pa]] = (idx_t)pb, adjwgt[fill[pa]++] = w;
            adjncy[fill[pb]] = (idx_t)pa, adjwgt[fill[pb]++] = w;
            i = j;
        }
    }
    {
        idx_t total_parts = 0;
        rc = partition_components(a, count, xadj, adjncy, adjwgt, group_size, part, &total_parts,
                                  err);
        if (rc != KILN_OK) goto done;
        /* Number groups in order of their lowest cluster; empty parts vanish. */
        size_t need = ((size_t)total_parts ? (size_t)total_parts : 1) * sizeof(uint32_t);
        uint32_t *renumber = kiln_alloc(a, need);
        if (!renumber) goto nomem;
        for (idx_t p = 0; p < total_parts; p++) renumber[p] = UINT32_MAX;
        uint32_t next = 0;
        for (uint32_t c = 0; c < count; c++) {
            idx_t p = part[c];
            if (p < 0 || p >= total_parts) {
                kiln_free(a, renumber, need);
                rc = kiln_error_set(err, KILN_E_INTERNAL, "vgeo: METIS part out of range");
                goto done;
            }
            if (renumber[p] == UINT32_MAX) renumber[p] = next++;
            group_of[c] = renumber[p];
        }
        *group_count = next;
        kiln_free(a, renumber, need);
    }
    goto done;
nomem:
    rc = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "vgeo: out of memory (groups)");
done:
    kiln_free(a, edges, (total ? total : 1) * sizeof *edges);
    kiln_vgeo_counter_free(&counter);
    kiln_free(a, pairs, pair_cap * sizeof *pairs);
    kiln_free(a, xadj, ((size_t)count + 1) * sizeof *xadj);
    kiln_free(a, adjncy, (unique * 2 + 1) * sizeof *adjncy);
    kiln_free(a, adjwgt, (unique * 2 + 1) * sizeof *adjwgt);
    kiln_free(a, part, (size_t)count * sizeof *part);
    return rc;
}
