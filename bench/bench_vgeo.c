/* bench_vgeo.c — virtual geometry's cluster DAG: build time (wall, on a job pool) and size next to
 * the mesh's LOD chain, levels and clusters per level, and the triangles a cut draws at 1, 2 and
 * 4 pixels of error along a fixed camera path, for a generated displaced sphere (1M triangles
 * by default) and the largest primitives of the glTF corpus.
 *
 * usage: bench_vgeo [--runs N] [--triangles N] [--threads N] [--corpus DIR] [--largest N] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/vgeo_cut/vgeo_mesh.h"
#include "core/jobs.h"
#include "kiln/kiln_scene.h"
#include "measure.h"
#include "process/mesh.h"
#include "process/vgeo.h"
#include "write/mesh_write.h"
#include "write/vgeo_write.h"

typedef struct input {
    char name[96];
    float *positions; /* the cooked mesh's vertices */
    uint32_t vertex_count;
    uint32_t *indices; /* level 0 */
    size_t index_count;
    size_t mesh_bytes, lod_bytes; /* the cooked mesh file; its index + meshlet data */
} input;

static void fail(const char *what, const kiln_error *err)
{
    fprintf(stderr, "bench_vgeo: %s: %s\n", what, err ? err->message : "");
    exit(1);
}

/* Cooks a primitive as the model cook does (defaults) and keeps what the DAG needs. */
static void cook_input(const kiln_scene_primitive *p, const char *name, input *in)
{
    kiln_mesh_build_opts o;
    kiln_mesh_build_opts_default(&o);
    o.analyze = false;
    kiln_cooked_mesh cm;
    kiln_error err;
    if (kiln_mesh_build(p, &o, NULL, &cm, &err) != KILN_OK) fail("mesh build", &err);
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (kiln_mesh_write(&cm, NULL, &bytes, &size, &err) != KILN_OK) fail("mesh write", &err);
    free(bytes);
    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "%s", name);
    in->vertex_count = cm.vertex_count;
    in->positions = malloc((size_t)cm.vertex_count * 3 * sizeof(float));
    in->index_count = cm.levels[0].index_count;
    in->indices = malloc(in->index_count * sizeof(uint32_t));
    if (!in->positions || !in->indices) fail("memory", NULL);
    memcpy(in->positions, cm.positions, (size_t)cm.vertex_count * 3 * sizeof(float));
    memcpy(in->indices, cm.indices + cm.levels[0].index_offset, in->index_count * 4);
    in->mesh_bytes = size;
    in->lod_bytes =
        (size_t)cm.index_count * cm.streams[KILN_MESH_INDICES].stride +
        (size_t)cm.meshlet_count * (sizeof(kiln_meshlet) + sizeof(kiln_meshlet_bounds)) +
        (size_t)cm.meshlet_vertex_count * 4 + cm.meshlet_triangle_size;
    kiln_cooked_mesh_free(&cm);
}

static void input_free(input *in)
{
    free(in->positions);
    free(in->indices);
}

/* The generated sphere as a primitive (positions only). */
static void sphere_input(size_t triangles, input *in)
{
    uint32_t segments = (uint32_t)sqrt((double)triangles);
    uint32_t rings = (uint32_t)(triangles / (2 * (size_t)segments)) + 1;
    vm_mesh m = vm_displaced_sphere(segments, rings);
    kiln_scene_primitive p;
    memset(&p, 0, sizeof p);
    p.positions = m.positions;
    p.vertex_count = m.vertex_count;
    p.indices = m.indices;
    p.index_count = (uint32_t)m.index_count;
    p.material = -1;
    char name[96];
    snprintf(name, sizeof name, "displaced sphere (%zu triangles)", m.index_count / 3);
    cook_input(&p, name, in);
    vm_free(&m);
}

typedef struct found {
    char path[1024];
    uint32_t mesh, prim, triangles;
} found;

static int found_cmp(const void *a, const void *b)
{
    const found *x = a, *y = b;
    if (x->triangles != y->triangles) return x->triangles < y->triangles ? 1 : -1;
    int c = strcmp(x->path, y->path);
    if (c) return c;
    if (x->mesh != y->mesh) return x->mesh < y->mesh ? -1 : 1;
    return (x->prim > y->prim) - (x->prim < y->prim);
}

/* The `largest` biggest unskinned primitives of the corpus's .gltf/.glb files (one level of
 * folders below DIR/<model>/glTF*). */
static size_t corpus_inputs(const char *dir, size_t largest, input *out)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "find '%s' -maxdepth 3 \\( -name '*.gltf' -o -name '*.glb' \\) -path '*/glTF*/*' "
             "| sort",
             dir);
    FILE *f = popen(cmd, "r");
    if (!f) return 0;
    found *all = NULL;
    size_t n = 0, cap = 0;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        kiln_scene *s = NULL;
        kiln_error err;
        kiln_scene_opts so = {sizeof so, KILN_SCENE_LOAD_NO_PIXELS, 0, {0}};
        if (kiln_scene_load(line, &so, &s, &err) != KILN_OK) continue;
        for (uint32_t mi = 0; mi < s->mesh_count; mi++)
            for (uint32_t pi = 0; pi < s->meshes[mi].primitive_count; pi++) {
                const kiln_scene_primitive *p = &s->meshes[mi].primitives[pi];
                if (p->joint_set_count || p->index_count / 3 < 1000) continue;
                if (n == cap) {
                    cap = cap ? cap * 2 : 64;
                    all = realloc(all, cap * sizeof *all);
                    if (!all) fail("memory", NULL);
                }
                snprintf(all[n].path, sizeof all[n].path, "%s", line);
                all[n].mesh = mi, all[n].prim = pi, all[n].triangles = p->index_count / 3;
                n++;
            }
        kiln_scene_free(s);
    }
    pclose(f);
    qsort(all, n, sizeof *all, found_cmp);
    size_t k = 0;
    for (size_t i = 0; i < n && k < largest; i++) {
        kiln_scene *s = NULL;
        kiln_error err;
        kiln_scene_opts so = {sizeof so, KILN_SCENE_LOAD_NO_PIXELS, 0, {0}};
        if (kiln_scene_load(all[i].path, &so, &s, &err) != KILN_OK) continue;
        const char *base = strrchr(all[i].path, '/');
        char name[96];
        snprintf(name, sizeof name, "%s mesh%u/prim%u", base ? base + 1 : all[i].path, all[i].mesh,
                 all[i].prim);
        cook_input(&s->meshes[all[i].mesh].primitives[all[i].prim], name, &out[k++]);
        kiln_scene_free(s);
    }
    free(all);
    return k;
}

static void run(const input *in, int runs, kiln_jobs *pool)
{
    double *ms = calloc((size_t)runs, sizeof *ms);
    kiln_cooked_vgeo v;
    kiln_error err;
    kiln_vgeo_build_opts o = {0, 0, pool};
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now_ms();
        if (kiln_vgeo_build(in->positions, in->vertex_count, in->indices, in->index_count, &o, NULL,
                            &v, &err) != KILN_OK)
            fail("vgeo build", &err);
        ms[r] = bench_now_ms() - t0;
        if (r + 1 < runs) kiln_cooked_vgeo_free(&v);
    }
    uint8_t *bytes = NULL;
    size_t size = 0;
    v.mesh = 1; /* the writer wants the mesh's id: any, here */
    if (kiln_vgeo_write(&v, NULL, &bytes, &size, &err) != KILN_OK) fail("vgeo write", &err);
    kiln_vgeo_view view;
    if (kiln_vgeo_read(bytes, size, 0, &view, &err) != KILN_OK) fail("vgeo read", &err);
    double median = bench_median(ms, (size_t)runs);
    printf("%s: %zu triangles, %u vertices\n", in->name, in->index_count / 3, in->vertex_count);
    printf("  build %.0f ms (median of %d, %zu threads; CPU: clusters %.0f ms, groups %.0f ms, "
           "simplify %.0f ms, errors %.0f ms), %u stalled groups\n",
           median, runs, kiln_jobs_thread_count(pool), v.stats.ns_cluster / 1e6,
           v.stats.ns_group / 1e6, v.stats.ns_simplify / 1e6, v.stats.ns_error / 1e6,
           v.stats.stalled_groups);
    printf("  DAG %zu bytes (%.2f per source triangle) vs the LOD chain's indices and meshlets "
           "%zu bytes (mesh file %zu bytes)\n",
           size, (double)size / (in->index_count / 3), in->lod_bytes, in->mesh_bytes);
    printf("  %u levels, %u groups, %u clusters, %u roots%s; clusters (triangles) per level:",
           v.level_count, v.group_count, v.cluster_count, view.root_count,
           (v.flags & KILN_VGEO_STALLED) ? " (stalled)" : "");
    for (uint32_t l = 0; l < v.level_count; l++) {
        size_t c = 0, t = 0;
        for (uint32_t i = 0; i < v.cluster_count; i++)
            if (v.links[i].level == l) c++, t += v.clusters[i].triangle_count;
        printf(" %zu (%zu)", c, t);
    }
    printf("\n");
    /* The camera path: along +z from 48 radii to 1.5 radii of the bounds. */
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < in->vertex_count; i++)
        for (int c = 0; c < 3; c++) {
            float x = in->positions[i * 3 + c];
            lo[c] = x < lo[c] ? x : lo[c];
            hi[c] = x > hi[c] ? x : hi[c];
        }
    double radius = 0;
    for (int c = 0; c < 3; c++) radius += (double)(hi[c] - lo[c]) * (hi[c] - lo[c]) / 4;
    radius = sqrt(radius);
    static const double distances[] = {48, 24, 12, 6, 3, 1.5};
    printf("  triangles drawn at 1 / 2 / 4 px (1080p, 60 deg):");
    for (size_t d = 0; d < sizeof distances / sizeof distances[0]; d++) {
        kiln_vgeo_camera cam = {{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2,
                                 (float)((lo[2] + hi[2]) / 2 + distances[d] * radius)},
                                1.0471976f,
                                1080.0f};
        printf(" | %gr:", distances[d]);
        static const float px[] = {1, 2, 4};
        for (int k = 0; k < 3; k++) {
            size_t n = kiln_vgeo_select(&view, &cam, px[k], NULL, 0);
            uint32_t *sel = malloc((n ? n : 1) * sizeof *sel);
            kiln_vgeo_select(&view, &cam, px[k], sel, n);
            size_t t = 0;
            for (size_t i = 0; i < n; i++) t += kiln_vgeo_cluster(&view, sel[i]).triangle_count;
            free(sel);
            printf(" %zu", t);
        }
    }
    printf("\n\n");
    free(bytes);
    kiln_cooked_vgeo_free(&v);
    free(ms);
}

int main(int argc, char **argv)
{
    int runs = 3;
    size_t triangles = 1000000, largest = 4, threads = 2;
    const char *corpus = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--triangles") && i + 1 < argc)
            triangles = (size_t)atoll(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = (size_t)atoll(argv[++i]);
        else if (!strcmp(argv[i], "--corpus") && i + 1 < argc) corpus = argv[++i];
        else if (!strcmp(argv[i], "--largest") && i + 1 < argc) largest = (size_t)atoll(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_vgeo [--runs N] [--triangles N] [--threads N] "
                            "[--corpus DIR] [--largest N]\n");
            return 2;
        }
    }
    if (runs < 1) runs = 1;
    kiln_jobs *pool = NULL;
    kiln_error err;
    if (kiln_jobs_create(threads, NULL, &pool, &err) != KILN_OK) fail("job pool", &err);
    printf("virtual geometry (bench_vgeo): DAG build and cuts\n\n");
    if (triangles) {
        input in;
        sphere_input(triangles, &in);
        run(&in, runs, pool);
        input_free(&in);
    }
    if (corpus && largest) {
        input *ins = calloc(largest, sizeof *ins);
        size_t n = corpus_inputs(corpus, largest, ins);
        for (size_t i = 0; i < n; i++) {
            run(&ins[i], runs, pool);
            input_free(&ins[i]);
        }
        free(ins);
    }
    kiln_jobs_destroy(pool);
    return 0;
}
