/* bench_meshlets.c — kiln's meshlet builder (kiln_meshlet_build) against meshoptimizer 0.18's
 * meshopt_buildMeshlets, side by side on the same triangles, at kiln's defaults (at most 64
 * vertices and 124 triangles a meshlet, cone weight 0.25). Inputs: the largest primitive of the
 * biggest glTF models of the corpus (as kiln's importer gives them) and a generated displaced
 * sphere of 1,000,000 triangles; every input's triangles are first put in vertex-cache order
 * (meshopt_optimizeVertexCache), as the mesh cook hands them to the builder. Prints per input and
 * builder:
 *   - time: the median over the runs of the calling thread's CPU time (on a shared machine wall
 *     time measures the neighbours); the two builders alternate within a run;
 *   - meshlets, and triangles per meshlet on average;
 *   - vertex reuse: the meshlets' vertex references (sum of vertex_count) over the distinct
 *     vertices the triangles use: 1.0 would be no vertex in two meshlets; lower is better;
 *   - radius: the mean bounding-sphere radius (meshopt_computeMeshletBounds) in % of the mesh's
 *     extent (the diagonal of its bounding box); lower is better;
 *   - cone: the mean normal-cone half-angle from the same bounds, asin(cone_cutoff) in degrees,
 *     a degenerate cone (cutoff 1: normals spread over 90° or more, nothing can be culled)
 *     counted as 90°; and how many cones are degenerate. Lower is better.
 * Last, the virtual-geometry case: the sphere cut into groups of 256 triangles over densely
 * renumbered vertices, each built by its own call (time summed over the groups; meshlets).
 * Usage: bench_meshlets [--runs N] [--corpus DIR] [--only NAME] [--hash] (default 5 runs, the
 * configured corpus, every input; NAME: one input, e.g. Pirate, sphere or groups). A program that
 * prints, not a test. --hash prints a hash of kiln's meshlets per input (same hash: same bytes). */
#include <math.h>
#include <meshoptimizer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kiln/kiln_scene.h"
#include "measure.h"
#include "process/meshlet_build.h"

#define MAX_V       64
#define MAX_T       124
#define CONE_WEIGHT 0.25f

#ifndef KILN_BENCH_CORPUS
#define KILN_BENCH_CORPUS "../shared/corpus"
#endif

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

typedef struct input {
    char name[64];
    uint32_t *idx;
    size_t index_count;
    float *pos;
    size_t vertex_count;
} input;

/* FNV-1a over bytes, to see whether a change to the builder changed its output (--hash). */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211u;
    return h;
}

static int print_hash;

static uint64_t hash_meshlets(uint64_t h, const kiln_meshlet *ml, const uint32_t *mv,
                              const uint8_t *mt, size_t count)
{
    for (size_t m = 0; m < count; m++) {
        h = fnv(h, &ml[m], sizeof ml[m]);
        h = fnv(h, mv + ml[m].vertex_offset, ml[m].vertex_count * 4);
        h = fnv(h, mt + ml[m].triangle_offset, (size_t)ml[m].triangle_count * 3);
    }
    return h;
}

typedef struct outcome {
    double ms;
    size_t count;
    double tris, reuse, radius, cone, degenerate;
    uint64_t hash; /* of kiln's meshlets */
} outcome;

static void cache_order(input *in)
{
    uint32_t *o = malloc(in->index_count * 4);
    meshopt_optimizeVertexCache(o, in->idx, in->index_count, in->vertex_count);
    free(in->idx);
    in->idx = o;
}

/* The largest primitive of a corpus model (positions and indices copied). */
static int load_model(input *in, const char *corpus, const char *rel, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/gltf/%s", corpus, rel);
    kiln_scene *s = NULL;
    kiln_error err;
    kiln_scene_opts opts = {sizeof opts, KILN_SCENE_LOAD_NO_PIXELS, 0, {0}};
    if (kiln_scene_load(path, &opts, &s, &err) != KILN_OK) {
        fprintf(stderr, "bench_meshlets: %s: %s (skipped)\n", path, err.message);
        return 0;
    }
    const kiln_scene_primitive *best = NULL;
    for (uint32_t m = 0; m < s->mesh_count; m++)
        for (uint32_t p = 0; p < s->meshes[m].primitive_count; p++) {
            const kiln_scene_primitive *q = &s->meshes[m].primitives[p];
            if (q->indices && (!best || q->index_count > best->index_count)) best = q;
        }
    if (!best || best->index_count == 0) {
        kiln_scene_free(s);
        return 0;
    }
    snprintf(in->name, sizeof in->name, "%s", name);
    in->index_count = best->index_count, in->vertex_count = best->vertex_count;
    in->idx = malloc(in->index_count * 4), in->pos = malloc(in->vertex_count * 12);
    memcpy(in->idx, best->indices, in->index_count * 4);
    memcpy(in->pos, best->positions, in->vertex_count * 12);
    kiln_scene_free(s);
    cache_order(in);
    return 1;
}

/* A UV sphere of 1000 segments x 501 rings (1,000,000 triangles), the seam welded, radius
 * displaced by a few sines so normals vary at several scales. */
static void make_sphere(input *in)
{
    const uint32_t S = 1000, R = 501;
    size_t nv = (size_t)(R + 1) * S;
    float *pos = malloc(nv * 12);
    for (uint32_t r = 0; r <= R; r++)
        for (uint32_t c = 0; c < S; c++) {
            double th = M_PI * r / R, ph = 2 * M_PI * c / S;
            double d = 1 + 0.05 * sin(7 * th) * sin(5 * ph) + 0.02 * sin(31 * th + 3 * ph) +
                       0.005 * sin(97 * ph) * sin(89 * th);
            float *p = pos + ((size_t)r * S + c) * 3;
            p[0] = (float)(d * sin(th) * cos(ph)), p[1] = (float)(d * cos(th));
            p[2] = (float)(d * sin(th) * sin(ph));
        }
    size_t n = 0;
    uint32_t *idx = malloc((size_t)2 * S * (R - 1) * 12);
    for (uint32_t r = 0; r < R; r++)
        for (uint32_t c = 0; c < S; c++) {
            uint32_t c1 = (c + 1) % S, a = r * S + c, b = (r + 1) * S + c, cc = (r + 1) * S + c1,
                     d = r * S + c1;
            if (r != 0) idx[n++] = a, idx[n++] = d, idx[n++] = cc;
            if (r != R - 1) idx[n++] = a, idx[n++] = cc, idx[n++] = b;
        }
    snprintf(in->name, sizeof in->name, "displaced sphere");
    in->idx = idx, in->index_count = n, in->pos = pos, in->vertex_count = nv;
    cache_order(in);
}

static void measure(const input *in, const kiln_meshlet *ml, const uint32_t *mv, const uint8_t *mt,
                    size_t count, outcome *o)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    uint8_t *used = calloc(in->vertex_count, 1);
    size_t distinct = 0;
    for (size_t i = 0; i < in->index_count; i++) {
        uint32_t v = in->idx[i];
        if (!used[v]) {
            used[v] = 1, distinct++;
            for (int k = 0; k < 3; k++) {
                float x = in->pos[(size_t)v * 3 + k];
                lo[k] = x < lo[k] ? x : lo[k], hi[k] = x > hi[k] ? x : hi[k];
            }
        }
    }
    free(used);
    double extent =
        sqrt((double)(hi[0] - lo[0]) * (hi[0] - lo[0]) + (double)(hi[1] - lo[1]) * (hi[1] - lo[1]) +
             (double)(hi[2] - lo[2]) * (hi[2] - lo[2]));
    double refs = 0, tris = 0, radius = 0, cone = 0, degenerate = 0;
    for (size_t m = 0; m < count; m++) {
        refs += ml[m].vertex_count, tris += ml[m].triangle_count;
        struct meshopt_Bounds b =
            meshopt_computeMeshletBounds(mv + ml[m].vertex_offset, mt + ml[m].triangle_offset,
                                         ml[m].triangle_count, in->pos, in->vertex_count, 12);
        radius += b.radius;
        if (b.cone_cutoff >= 1.0f) cone += 90.0, degenerate++;
        else cone += asin(b.cone_cutoff) * 180.0 / M_PI;
    }
    o->count = count;
    o->tris = count ? tris / count : 0;
    o->reuse = distinct ? refs / distinct : 0;
    o->radius = count && extent > 0 ? 100.0 * radius / count / extent : 0;
    o->cone = count ? cone / count : 0;
    o->degenerate = count ? 100.0 * degenerate / count : 0;
}

static void run(const input *in, int runs)
{
    size_t bound_k = kiln_meshlet_bound(in->index_count, MAX_V, MAX_T);
    size_t bound_m = meshopt_buildMeshletsBound(in->index_count, MAX_V, MAX_T);
    size_t bound = bound_k > bound_m ? bound_k : bound_m;
    kiln_meshlet *ml = malloc(bound * sizeof *ml);
    uint32_t *mv = malloc(bound * MAX_V * 4);
    uint8_t *mt = malloc(bound * MAX_T * 3);
    double tk[64], tm[64];
    size_t nk = 0, nm = 0;
    outcome ok, om;
    for (int r = 0; r < runs; r++) {
        double t0 = cpu_ms();
        kiln_error err;
        if (kiln_meshlet_build(NULL, in->idx, in->index_count, in->pos, in->vertex_count, MAX_V,
                               MAX_T, CONE_WEIGHT, ml, mv, mt, &nk, &err) != KILN_OK) {
            fprintf(stderr, "bench_meshlets: %s: %s\n", in->name, err.message);
            exit(1);
        }
        tk[r] = cpu_ms() - t0;
        if (r == runs - 1) {
            measure(in, ml, mv, mt, nk, &ok);
            ok.hash = hash_meshlets(14695981039346656037u, ml, mv, mt, nk);
        }
        t0 = cpu_ms();
        nm = meshopt_buildMeshlets((struct meshopt_Meshlet *)ml, mv, mt, in->idx, in->index_count,
                                   in->pos, in->vertex_count, 12, MAX_V, MAX_T, CONE_WEIGHT);
        tm[r] = cpu_ms() - t0;
        if (r == runs - 1) measure(in, ml, mv, mt, nm, &om);
    }
    ok.ms = bench_median(tk, (size_t)runs), om.ms = bench_median(tm, (size_t)runs);
    const outcome *o[2] = {&om, &ok};
    const char *who[2] = {"meshopt 0.18", "kiln"};
    for (int i = 0; i < 2; i++)
        printf("%-18s %8zu %-13s %9.2f %6.2fx %8zu %8.1f %7.3f %8.3f %7.2f %6.1f\n",
               i ? "" : in->name, in->index_count / 3, who[i], o[i]->ms, om.ms / o[i]->ms,
               o[i]->count, o[i]->tris, o[i]->reuse, o[i]->radius, o[i]->cone, o[i]->degenerate);
    printf("%-18s %8s %-13s %9s %7s %7.2f%% %7.2f%% %7.2f%% %7.2f%% %6.2f%%\n", "", "",
           "kiln/meshopt", "", "", 100.0 * ok.count / om.count, 100.0 * ok.tris / om.tris,
           100.0 * ok.reuse / om.reuse, 100.0 * ok.radius / om.radius, 100.0 * ok.cone / om.cone);
    if (print_hash) printf("%-18s kiln output hash %016llx\n", "", (unsigned long long)ok.hash);
    free(ml), free(mv), free(mt);
}

/* The virtual-geometry case: many small calls. The sphere's triangles (in cache order) cut
 * into groups of 256, each group's vertices renumbered densely, as the DAG builder splits its
 * simplified groups; the time is the sum over all groups, the quality summed the same way. */
static void run_groups(const input *in, int runs)
{
    const size_t group = 256 * 3;
    size_t ngroups = (in->index_count + group - 1) / group;
    uint32_t *local = malloc(in->index_count * 4), *map = malloc(in->vertex_count * 4);
    uint32_t *first = malloc((ngroups + 1) * sizeof *first), *verts = malloc(in->index_count * 4);
    float *pos = malloc(in->index_count * 12);
    memset(map, 0xFF, in->vertex_count * 4);
    size_t nv = 0;
    for (size_t g = 0; g < ngroups; g++) {
        first[g] = (uint32_t)nv;
        size_t end = (g + 1) * group < in->index_count ? (g + 1) * group : in->index_count;
        for (size_t i = g * group; i < end; i++) {
            uint32_t v = in->idx[i];
            if (map[v] == UINT32_MAX || map[v] < first[g]) {
                map[v] = (uint32_t)nv, verts[nv] = v;
                memcpy(pos + nv * 3, in->pos + (size_t)v * 3, 12);
                nv++;
            }
            local[i] = map[v] - first[g];
        }
    }
    first[ngroups] = (uint32_t)nv;
    size_t bound = kiln_meshlet_bound(group, MAX_V, MAX_T) + 8;
    kiln_meshlet *ml = malloc(bound * sizeof *ml);
    uint32_t *mv = malloc(bound * MAX_V * 4);
    uint8_t *mt = malloc(bound * MAX_T * 3);
    double tk[64], tm[64];
    size_t ck = 0, cm = 0;
    uint64_t hash = 14695981039346656037u;
    for (int r = 0; r < runs; r++) {
        for (int who = 0; who < 2; who++) {
            size_t total = 0;
            double t0 = cpu_ms();
            for (size_t g = 0; g < ngroups; g++) {
                size_t start = g * group;
                size_t end = start + group < in->index_count ? start + group : in->index_count;
                size_t n = 0, gv = first[g + 1] - first[g];
                const float *gp = pos + (size_t)first[g] * 3;
                if (who == 0) {
                    kiln_error err;
                    if (kiln_meshlet_build(NULL, local + start, end - start, gp, gv, MAX_V, MAX_T,
                                           CONE_WEIGHT, ml, mv, mt, &n, &err) != KILN_OK)
                        exit(1);
                    if (r == 0) hash = hash_meshlets(hash, ml, mv, mt, n);
                } else {
                    n = meshopt_buildMeshlets((struct meshopt_Meshlet *)ml, mv, mt, local + start,
                                              end - start, gp, gv, 12, MAX_V, MAX_T, CONE_WEIGHT);
                }
                total += n;
            }
            (who == 0 ? tk : tm)[r] = cpu_ms() - t0;
            *(who == 0 ? &ck : &cm) = total;
        }
    }
    double k = bench_median(tk, (size_t)runs), m = bench_median(tm, (size_t)runs);
    printf("%-18s %8zu %-13s %9.2f %6.2fx %8zu %8.1f\n", "sphere, 256-groups", in->index_count / 3,
           "meshopt 0.18", m, 1.0, cm, (double)(in->index_count / 3) / (double)cm);
    printf("%-18s %8zu %-13s %9.2f %6.2fx %8zu %8.1f\n", "", in->index_count / 3, "kiln", k, m / k,
           ck, (double)(in->index_count / 3) / (double)ck);
    printf("%-18s %8s %-13s %9s %7s %7.2f%%\n", "", "", "kiln/meshopt", "", "",
           100.0 * (double)ck / (double)cm);
    if (print_hash) printf("%-18s kiln output hash %016llx\n", "", (unsigned long long)hash);
    free(local), free(map), free(first), free(verts), free(pos), free(ml), free(mv), free(mt);
}

int main(int argc, char **argv)
{
    int runs = 5;
    const char *corpus = KILN_BENCH_CORPUS, *only = NULL;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--corpus") == 0 && i + 1 < argc) corpus = argv[++i];
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
        else if (strcmp(argv[i], "--hash") == 0) print_hash = 1;
    if (runs < 1) runs = 1;
    if (runs > 64) runs = 64;
    static const char *const models[][2] = {
        {"SheenCloth/glTF/SheenCloth.gltf", "SheenCloth"},
        {"DamagedHelmet/glTF/DamagedHelmet.gltf", "DamagedHelmet"},
        {"Suzanne/glTF/Suzanne.gltf", "Suzanne"},
        {"Pirate-meshopt/glTF-Binary/pirate.glb", "Pirate"},
    };
    printf("meshlets: kiln_meshlet_build vs meshopt_buildMeshlets 0.18, %d vertices / %d "
           "triangles, cone weight %.2f; median of %d runs\n",
           MAX_V, MAX_T, CONE_WEIGHT, runs);
    printf("(reuse: meshlet vertex references / distinct vertices; radius: mean bounding sphere, "
           "%% of the bbox diagonal; cone: mean normal-cone half-angle, degenerate = 90°)\n\n");
    printf("%-18s %8s %-13s %9s %7s %8s %8s %7s %8s %7s %6s\n", "input", "tris", "builder", "ms",
           "speed", "meshlets", "tris/ml", "reuse", "radius%", "cone°", "degen%");
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        if (only && strcmp(only, models[i][1]) != 0) continue;
        input in;
        memset(&in, 0, sizeof in);
        if (!load_model(&in, corpus, models[i][0], models[i][1])) continue;
        run(&in, runs);
        free(in.idx), free(in.pos);
    }
    if (only && strcmp(only, "sphere") != 0 && strcmp(only, "groups") != 0) return 0;
    input sp;
    make_sphere(&sp);
    if (!only || strcmp(only, "sphere") == 0) run(&sp, runs);
    if (!only || strcmp(only, "groups") == 0) run_groups(&sp, runs);
    free(sp.idx), free(sp.pos);
    return 0;
}
