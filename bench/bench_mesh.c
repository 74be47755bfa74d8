/* bench_mesh.c — the mesh cook on the shuffled 200,000-triangle UV sphere,
 * generated here: 400 segments × 251 rings, normals, tangents and UVs, the seam and the poles
 * split by UV, triangles and vertices in a fixed random order. Prints, before and after the cook
 * (default import.model settings: quantized, optimised, LODs 0.5/0.25/0.125, lod_error 0.05):
 *   - ACMR with a 16-entry FIFO cache (kiln's own simulation, and meshopt_analyzeVertexCache
 *     with 16/0/0, which is the same model), and meshoptimizer's own optimizeVertexCache on the
 *     welded input for reference;
 *   - overdraw (meshopt_analyzeOverdraw) and fetch ratio (meshopt_analyzeVertexFetch, bytes per
 *     vertex as stored);
 *   - each level's triangles and error (% of the extent);
 *   - the median time of each pass over the runs.
 * Targets: ACMR <= 0.66; level at 12.5 % with error <= 0.03 % of the extent. Usage:
 * bench_mesh [--runs N] (default 5). A program that prints, not a test. */
#include <math.h>
#include <meshoptimizer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_format.h"
#include "process/mesh.h"
#include "write/mesh_write.h"

#define SEGMENTS 400
#define RINGS    251

static uint32_t rnd(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

typedef struct sphere {
    uint32_t vertex_count, index_count;
    float *pos, *nrm, *tan, *uv;
    uint32_t *idx;
} sphere;

static void make_sphere(sphere *s)
{
    uint32_t cols = SEGMENTS + 1, rows = RINGS + 1, nv = cols * rows;
    float *pos = calloc(nv, 12), *nrm = calloc(nv, 12), *tan = calloc(nv, 16), *uv = calloc(nv, 8);
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            uint32_t v = r * cols + c;
            double theta = M_PI * r / RINGS, phi = 2.0 * M_PI * (c % SEGMENTS) / SEGMENTS;
            double p[3] = {sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi)};
            if (r == 0 || r == RINGS) p[0] = 0, p[2] = 0, p[1] = r == 0 ? 1 : -1;
            for (int k = 0; k < 3; k++) pos[v * 3 + k] = nrm[v * 3 + k] = (float)p[k];
            tan[v * 4] = (float)-sin(phi), tan[v * 4 + 2] = (float)cos(phi), tan[v * 4 + 3] = 1;
            uv[v * 2] = (float)c / SEGMENTS, uv[v * 2 + 1] = (float)r / RINGS;
        }
    uint32_t tris = 2 * SEGMENTS * (RINGS - 1), n = 0;
    uint32_t *idx = calloc((size_t)tris * 3, 4);
    for (uint32_t r = 0; r < RINGS; r++)
        for (uint32_t c = 0; c < SEGMENTS; c++) {
            uint32_t a = r * cols + c, b = (r + 1) * cols + c, cc = (r + 1) * cols + c + 1,
                     d = r * cols + c + 1;
            if (r != 0) idx[n++] = a, idx[n++] = d, idx[n++] = cc;
            if (r != RINGS - 1) idx[n++] = a, idx[n++] = cc, idx[n++] = b;
        }
    uint32_t st = 12345;
    for (uint32_t t = tris; t > 1; t--) {
        uint32_t k = rnd(&st) % t;
        for (int c = 0; c < 3; c++) {
            uint32_t x = idx[(t - 1) * 3 + c];
            idx[(t - 1) * 3 + c] = idx[k * 3 + c], idx[k * 3 + c] = x;
        }
    }
    uint32_t *perm = malloc((size_t)nv * 4);
    for (uint32_t v = 0; v < nv; v++) perm[v] = v;
    for (uint32_t v = nv; v > 1; v--) {
        uint32_t k = rnd(&st) % v, x = perm[v - 1];
        perm[v - 1] = perm[k], perm[k] = x;
    }
    s->pos = calloc(nv, 12), s->nrm = calloc(nv, 12), s->tan = calloc(nv, 16),
    s->uv = calloc(nv, 8);
    for (uint32_t v = 0; v < nv; v++) {
        memcpy(s->pos + perm[v] * 3, pos + v * 3, 12);
        memcpy(s->nrm + perm[v] * 3, nrm + v * 3, 12);
        memcpy(s->tan + perm[v] * 4, tan + v * 4, 16);
        memcpy(s->uv + perm[v] * 2, uv + v * 2, 8);
    }
    for (uint32_t i = 0; i < n; i++) idx[i] = perm[idx[i]];
    free(pos), free(nrm), free(tan), free(uv), free(perm);
    s->idx = idx, s->vertex_count = nv, s->index_count = n;
}

/* Transformed vertices per triangle with a 16-entry FIFO post-transform cache. */
static double fifo_acmr(const uint32_t *idx, size_t n, uint32_t vertex_count)
{
    uint32_t *stamp = calloc(vertex_count, 4);
    uint32_t clock = 0;
    size_t misses = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = idx[i];
        if (stamp[v] == 0 || clock - stamp[v] >= 16) stamp[v] = ++clock, misses++;
    }
    free(stamp);
    return n ? (double)misses / (double)(n / 3) : 0.0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static double median_ms(uint64_t *v, int n)
{
    qsort(v, (size_t)n, 8, cmp_u64);
    return (double)v[n / 2] / 1e6;
}

int main(int argc, char **argv)
{
    int runs = 5;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
    if (runs < 1) runs = 1;
    if (runs > 64) runs = 64;
    sphere s;
    make_sphere(&s);
    kiln_scene_primitive p;
    memset(&p, 0, sizeof p);
    p.vertex_count = s.vertex_count, p.positions = s.pos, p.normals = s.nrm, p.tangents = s.tan;
    p.texcoords[0] = s.uv, p.texcoord_count = 1, p.indices = s.idx, p.index_count = s.index_count;
    p.material = -1;
    kiln_mesh_build_opts o;
    kiln_mesh_build_opts_default(&o);

    uint64_t t_weld[64], t_cache[64], t_over[64], t_lod[64], t_fetch[64], t_mlet[64], t_quant[64],
        t_total[64];
    kiln_cooked_mesh m;
    kiln_error err;
    for (int r = 0; r < runs; r++) {
        if (kiln_mesh_build(&p, &o, NULL, &m, &err) != KILN_OK) {
            fprintf(stderr, "bench_mesh: %s\n", err.message);
            return 1;
        }
        const kiln_mesh_build_stats *st = &m.stats;
        t_weld[r] = st->ns_weld, t_cache[r] = st->ns_cache, t_over[r] = st->ns_overdraw,
        t_lod[r] = st->ns_lod;
        t_fetch[r] = st->ns_fetch, t_mlet[r] = st->ns_meshlets, t_quant[r] = st->ns_quantize,
        t_total[r] = st->ns_total;
        if (r + 1 < runs) kiln_cooked_mesh_free(&m);
    }
    uint32_t nv_in = s.vertex_count, tris = s.index_count / 3;
    uint32_t stored_stride = 0;
    for (int id = 0; id < KILN_MESH_INDICES; id++)
        stored_stride += m.streams[id].count ? m.streams[id].stride : 0;

    printf(
        "mesh cook, shuffled UV sphere: %u triangles, %u vertices in, %u welded, %u out; %u bytes per "
        "vertex stored (quantized); median of %d runs\n\n",
        tris, nv_in, m.stats.welded_vertices, m.vertex_count, stored_stride, runs);

    /* Cache, overdraw, fetch before and after. The input "before" is the welded mesh in its
     * shuffled order (what the passes start from); meshopt's reference runs its own cache pass
     * on that same mesh. */
    uint32_t *remap = malloc((size_t)nv_in * 4), *welded = malloc((size_t)s.index_count * 4);
    struct meshopt_Stream streams[4] = {
        {s.pos, 12, 12}, {s.nrm, 12, 12}, {s.tan, 16, 16}, {s.uv, 8, 8}};
    size_t nw = meshopt_generateVertexRemapMulti(remap, s.idx, s.index_count, nv_in, streams, 4);
    meshopt_remapIndexBuffer(welded, s.idx, s.index_count, remap);
    float *wpos = malloc(nw * 12);
    meshopt_remapVertexBuffer(wpos, s.pos, nv_in, 12, remap);
    uint32_t *ref = malloc((size_t)s.index_count * 4);
    meshopt_optimizeVertexCache(ref, welded, s.index_count, nw);
    const uint32_t *lvl0 = m.indices;
    size_t n0 = m.levels[0].index_count;
    struct meshopt_VertexCacheStatistics cb =
        meshopt_analyzeVertexCache(welded, s.index_count, nw, 16, 0, 0);
    struct meshopt_VertexCacheStatistics ca =
        meshopt_analyzeVertexCache(lvl0, n0, m.vertex_count, 16, 0, 0);
    struct meshopt_VertexCacheStatistics cr =
        meshopt_analyzeVertexCache(ref, s.index_count, nw, 16, 0, 0);
    struct meshopt_OverdrawStatistics ob =
        meshopt_analyzeOverdraw(welded, s.index_count, wpos, nw, 12);
    struct meshopt_OverdrawStatistics oa =
        meshopt_analyzeOverdraw(lvl0, n0, m.positions, m.vertex_count, 12);
    struct meshopt_VertexFetchStatistics fb =
        meshopt_analyzeVertexFetch(welded, s.index_count, nw, stored_stride);
    struct meshopt_VertexFetchStatistics fa =
        meshopt_analyzeVertexFetch(lvl0, n0, m.vertex_count, stored_stride);
    printf("%-44s %10s %10s\n", "level 0", "before", "after");
    printf("%-44s %10.3f %10.3f\n", "ACMR, FIFO 16 (kiln's simulation)",
           fifo_acmr(welded, s.index_count, (uint32_t)nw), fifo_acmr(lvl0, n0, m.vertex_count));
    printf("%-44s %10.3f %10.3f\n", "ACMR, meshopt_analyzeVertexCache 16/0/0", cb.acmr, ca.acmr);
    printf("%-44s %10s %10.3f\n", "ACMR, meshopt_optimizeVertexCache alone", "", cr.acmr);
    printf("%-44s %10.3f %10.3f\n", "ACMR, kiln's build statistics", m.stats.acmr_before,
           m.stats.acmr_after);
    printf("%-44s %10.3f %10.3f\n", "overdraw (meshopt_analyzeOverdraw)", ob.overdraw, oa.overdraw);
    printf("%-44s %10.3f %10.3f\n", "fetch ratio (meshopt_analyzeVertexFetch)", fb.overfetch,
           fa.overfetch);

    printf("\n%-8s %10s %9s %12s %14s\n", "level", "triangles", "of lvl 0", "error",
           "error (units)");
    for (uint32_t l = 0; l < m.level_count; l++)
        printf("%-8u %10u %8.2f%% %11.4f%% %14.3g\n", l, m.levels[l].index_count / 3,
               100.0 * m.levels[l].index_count / m.levels[0].index_count, 100.0 * m.levels[l].error,
               m.levels[l].error_absolute);
    printf("(extent %.3f; meshlets %u in all levels, max %u vertices / %u triangles)\n", m.extent,
           m.meshlet_count, m.meshlet_max_vertices, m.meshlet_max_triangles);

    printf("\n%-26s %10s\n", "pass (median)", "ms");
    printf("%-26s %10.2f\n", "encode + gather streams", median_ms(t_quant, runs));
    printf("%-26s %10.2f\n", "weld + clean", median_ms(t_weld, runs));
    printf("%-26s %10.2f\n", "vertex cache (all levels)", median_ms(t_cache, runs));
    printf("%-26s %10.2f\n", "overdraw (all levels)", median_ms(t_over, runs));
    printf("%-26s %10.2f\n", "simplify", median_ms(t_lod, runs));
    printf("%-26s %10.2f\n", "vertex fetch", median_ms(t_fetch, runs));
    printf("%-26s %10.2f\n", "meshlets (all levels)", median_ms(t_mlet, runs));
    printf("%-26s %10.2f\n", "total", median_ms(t_total, runs));

    /* The targets (docs/performance.md). */
    int eighth = -1;
    for (uint32_t l = 1; l < m.level_count; l++)
        if (fabs((double)m.levels[l].index_count / m.levels[0].index_count - 0.125) < 0.01)
            eighth = (int)l;
    printf("\ntarget ACMR <= 0.66: %.3f %s\n", ca.acmr, ca.acmr <= 0.66f ? "met" : "NOT met");
    if (eighth < 0)
        printf("target 12.5 %% level error <= 0.03 %%: no level at 12.5 %% (NOT met)\n");
    else
        printf("target 12.5 %% level error <= 0.03 %%: %.4f %% %s\n",
               100.0 * m.levels[eighth].error,
               m.levels[eighth].error <= 0.0003f ? "met" : "NOT met");
    kiln_cooked_mesh_free(&m);
    free(remap), free(welded), free(wpos), free(ref);
    free(s.pos), free(s.nrm), free(s.tan), free(s.uv), free(s.idx);
    return 0;
}
