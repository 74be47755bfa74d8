/* bench_render.c — how fast kiln's reference renderer (tools/view on whatever Vulkan device the
 * loader offers: lavapipe on a machine without a GPU) draws a 100k-triangle model at 512x512,
 * next to three.js in headless Chromium (SwiftShader) drawing the same source. A program that
 * prints, not a test (issue 20: "a 100k-triangle model at 512x512 on lavapipe in about a second").
 *
 *   bench_render [--runs N] [--size N] [--segments N] [--workdir DIR] [--no-peer] [--frames N]
 *
 * The model: a UV sphere of --segments x --segments quads (default 224: 100 352 triangles, 50 625
 * vertices with normals and UVs), written as a glTF (JSON + .bin) into a project with the
 * renderer's GLSL (tools/view/shaders), cooked with libkiln (defaults: quantized, LODs,
 * meshlets). Timed, medians over --runs (default 5):
 *   cold      what `kiln thumbnail` does once its files are cooked: Vulkan context (instance,
 *             device, validation off), libkiln_rt context, load of the shaders and the scene
 *             (read, checks, unpack, upload), pipelines, one draw of level 0, read-back
 *   warm draw one more draw + read-back of the loaded scene (what a viewer pays per frame), at
 *             the LOD kiln_lod_select picks and at level 0 (every triangle)
 *   three.js  render_threejs.mjs on the source: its own load and pose+render times (it reports
 *             them) and the whole process, Chromium start included.
 * --frames N then draws N more frames on one session and prints the time and the resident
 * memory each draw adds (a viewer left open pays it). */
#define _GNU_SOURCE
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kiln/kiln.h"
#include "kiln/kiln_rt.h"
#include "kv.h"
#include "measure.h"

#define MAX_RUNS 32

static int write_sphere(const char *dir, uint32_t seg)
{
    uint32_t nv = (seg + 1) * (seg + 1), nt = seg * seg * 2;
    size_t pos_size = (size_t)nv * 12, nrm_size = pos_size, uv_size = (size_t)nv * 8,
           idx_size = (size_t)nt * 12;
    uint8_t *bin = malloc(pos_size + nrm_size + uv_size + idx_size);
    if (!bin) return -1;
    float *p = (float *)bin, *n = (float *)(bin + pos_size), *uv = (float *)(bin + 2 * pos_size);
    uint32_t *ix = (uint32_t *)(bin + 2 * pos_size + uv_size);
    const double pi = 3.14159265358979323846;
    for (uint32_t j = 0; j <= seg; j++)
        for (uint32_t i = 0; i <= seg; i++) {
            double th = pi * j / seg, ph = 2 * pi * i / seg;
            /* a little relief so that the LODs have something to remove */
            double r = 1.0 + 0.05 * sin(7 * th) * cos(5 * ph);
            size_t k = (size_t)j * (seg + 1) + i;
            double x = sin(th) * sin(ph), y = cos(th), z = sin(th) * cos(ph);
            p[k * 3] = (float)(r * x), p[k * 3 + 1] = (float)(r * y), p[k * 3 + 2] = (float)(r * z);
            n[k * 3] = (float)x, n[k * 3 + 1] = (float)y, n[k * 3 + 2] = (float)z;
            uv[k * 2] = (float)i / seg, uv[k * 2 + 1] = (float)j / seg;
        }
    size_t t = 0;
    for (uint32_t j = 0; j < seg; j++)
        for (uint32_t i = 0; i < seg; i++) {
            uint32_t a = j * (seg + 1) + i, b = a + 1, c = a + seg + 1, d = c + 1;
            ix[t++] = a, ix[t++] = c, ix[t++] = b, ix[t++] = b, ix[t++] = c, ix[t++] = d;
        }
    char path[4096];
    snprintf(path, sizeof path, "%s/assets/sphere.bin", dir);
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    fwrite(bin, 1, pos_size + nrm_size + uv_size + idx_size, f);
    fclose(f);
    free(bin);
    snprintf(path, sizeof path, "%s/assets/sphere.gltf", dir);
    f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f,
            "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
            "\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":"
            "{\"POSITION\":0,\"NORMAL\":1,\"TEXCOORD_0\":2},\"indices\":3,\"material\":0}]}],"
            "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.8,0.5,0.3,1],"
            "\"metallicFactor\":0,\"roughnessFactor\":0.6}}],"
            "\"buffers\":[{\"uri\":\"sphere.bin\",\"byteLength\":%zu}],\"bufferViews\":["
            "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":%zu},"
            "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},"
            "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},"
            "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],\"accessors\":["
            "{\"bufferView\":0,\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\","
            "\"min\":[-1.05,-1.05,-1.05],\"max\":[1.05,1.05,1.05]},"
            "{\"bufferView\":1,\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\"},"
            "{\"bufferView\":2,\"componentType\":5126,\"count\":%u,\"type\":\"VEC2\"},"
            "{\"bufferView\":3,\"componentType\":5125,\"count\":%u,\"type\":\"SCALAR\"}]}\n",
            pos_size + nrm_size + uv_size + idx_size, pos_size, pos_size, nrm_size, 2 * pos_size,
            uv_size, 2 * pos_size + uv_size, idx_size, nv, nv, nv, nt * 3);
    fclose(f);
    return 0;
}

/* Resident set size of this process in KiB (Linux /proc/self/statm), or 0. */
static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, rss = 0;
    if (!f) return 0;
    if (fscanf(f, "%ld %ld", &pages, &rss) != 2) rss = 0;
    fclose(f);
    return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static krt_handle load_ready(krt_context *rt, krt_type type, const char *name)
{
    kiln_error err;
    krt_handle h = krt_load(rt, type, name, &err);
    while (h.id && krt_state_of(rt, h) == KRT_STATE_LOADING) {
        krt_wait(rt);
        krt_update(rt);
    }
    if (!h.id || krt_state_of(rt, h) != KRT_STATE_READY) {
        krt_error(rt, h, &err);
        fprintf(stderr, "bench_render: %s: %s\n", name, err.message);
        exit(1);
    }
    return h;
}

typedef struct session {
    kv_context *kv;
    krt_context *rt;
    kv_target *target;
    kv_scene_renderer *renderer;
    krt_handle scene;
} session;

static void check(kiln_result k, const kiln_error *err, const char *what)
{
    if (k) {
        fprintf(stderr, "bench_render: %s: %s\n", what, err->message);
        exit(1);
    }
}

static void open_session(session *s, const char *cache, uint32_t size)
{
    kiln_error err;
    kv_context_desc kd = {.struct_size = sizeof kd, .no_validation = true};
    check(kv_context_create(&kd, &s->kv, &err), &err, "kv_context_create");
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 1;
    kv_renderer_fill(s->kv, &d.renderer, &d.renderer_shaders);
    check(krt_create(&d, &s->rt, &err), &err, "krt_create");
    check(krt_mount_cache(s->rt, cache, NULL, &err), &err, "krt_mount_cache");
    krt_handle vert = load_ready(s->rt, KRT_TYPE_SHADER, "shaders/mesh.vert#shader");
    krt_handle frag = load_ready(s->rt, KRT_TYPE_SHADER, "shaders/mesh.frag#shader");
    s->scene = load_ready(s->rt, KRT_TYPE_SCENE, "sphere.gltf#scene");
    check(kv_target_create(s->kv, size, size, &s->target, &err), &err, "kv_target_create");
    check(kv_scene_renderer_create(s->kv, s->target, krt_gpu(s->rt, vert), krt_gpu(s->rt, frag),
                                   &s->renderer, &err),
          &err, "kv_scene_renderer_create");
}

static void draw(session *s, uint32_t size, int32_t lod, uint8_t *rgba, kv_draw_stats *stats)
{
    kiln_error err;
    float mn[3], mx[3];
    check(kv_bounds(s->kv, s->rt, s->scene, mn, mx, &err), &err, "kv_bounds");
    kv_camera cam;
    check(kv_camera_frame(mn, mx, "auto", size, size, &cam, &err), &err, "kv_camera_frame");
    kv_draw_desc dd = {
        .view = KV_VIEW_LIT, .clip = KV_NO_CLIP, .lod = lod, .background = {32, 64, 96, 255}};
    check(kv_draw(s->kv, s->renderer, s->target, s->rt, s->scene, &cam, &dd, &err), &err,
          "kv_draw");
    check(kv_target_read(s->kv, s->target, rgba, (size_t)size * size * 4, &err), &err, "read");
    kv_draw_stats_get(s->renderer, stats);
}

static void close_session(session *s)
{
    kv_scene_renderer_destroy(s->kv, s->renderer);
    kv_target_destroy(s->kv, s->target);
    krt_destroy(s->rt);
    kv_context_destroy(s->kv);
}

int main(int argc, char **argv)
{
    int runs = 5;
    uint32_t size = 512, seg = 224;
    const char *workdir = NULL;
    bool peer = true;
    int frames = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) size = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--segments") && i + 1 < argc) seg = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--workdir") && i + 1 < argc) workdir = argv[++i];
        else if (!strcmp(argv[i], "--no-peer")) peer = false;
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_render [--runs N] [--size N] [--segments N] "
                            "[--workdir DIR] [--no-peer] [--frames N]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > MAX_RUNS || size < 16 || size > 4096 || seg < 8 || seg > 2048) {
        fprintf(stderr, "bench_render: --runs 1..%d, --size 16..4096, --segments 8..2048\n",
                MAX_RUNS);
        return 2;
    }
    char tmpl[] = "/tmp/kiln-bench-render-XXXXXX";
    const char *dir = workdir ? workdir : mkdtemp(tmpl);
    char cmd[8192];
    snprintf(
        cmd, sizeof cmd,
        "mkdir -p '%s/assets/shaders' && cp '%s'/tools/view/shaders/mesh* '%s/assets/shaders/'",
        dir, KILN_BENCH_SOURCE_DIR, dir);
    if (!dir || system(cmd) != 0 || write_sphere(dir, seg) != 0) {
        fprintf(stderr, "bench_render: cannot write the project in %s\n", dir ? dir : "/tmp");
        return 1;
    }
    kiln_project_opts po = {.struct_size = sizeof po, .project_dir = dir, .jobs = 2};
    kiln_project *p = NULL;
    kiln_error err;
    double t0 = bench_now_ms();
    check(kiln_project_open(&po, &p, &err), &err, "kiln_project_open");
    char *doc = NULL;
    check(kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &doc, &err), &err, "import");
    kiln_string_free(doc);
    kiln_project_close(p);
    double cook = bench_now_ms() - t0;
    char cache[4096];
    snprintf(cache, sizeof cache, "%s/.kiln/cache", dir);

    uint8_t *rgba = malloc((size_t)size * size * 4);
    double cold[MAX_RUNS], warm_auto[MAX_RUNS], warm_full[MAX_RUNS];
    kv_draw_stats st_auto = {0}, st_full = {0};
    char device[256] = "";
    for (int r = 0; r < runs; r++) {
        session s;
        memset(&s, 0, sizeof s);
        double a = bench_now_ms();
        open_session(&s, cache, size);
        draw(&s, size, 0, rgba, &st_full);
        cold[r] = bench_now_ms() - a;
        a = bench_now_ms();
        draw(&s, size, -1, rgba, &st_auto);
        warm_auto[r] = bench_now_ms() - a;
        a = bench_now_ms();
        draw(&s, size, 0, rgba, &st_full);
        warm_full[r] = bench_now_ms() - a;
        snprintf(device, sizeof device, "%s", kv_device_name(s.kv));
        close_session(&s);
    }
    if (frames > 0) { /* memory per draw: what a viewer left open pays */
        session s;
        memset(&s, 0, sizeof s);
        open_session(&s, cache, size);
        draw(&s, size, 0, rgba, &st_full);
        long before = rss_kib();
        double a = bench_now_ms();
        for (int f = 0; f < frames; f++) draw(&s, size, 0, rgba, &st_full);
        double ms = (bench_now_ms() - a) / frames;
        long after = rss_kib();
        printf("  %d more draws: %.1f ms each, resident memory %+ld KiB (%.1f KiB a draw)\n",
               frames, ms, after - before, (double)(after - before) / frames);
        close_session(&s);
    }
    uint32_t chosen = 0;
    for (uint32_t l = 0; l < KILN_MESH_MAX_LEVELS; l++)
        if (st_auto.level_histogram[l]) chosen = l;
    printf("bench_render: %u-triangle sphere at %ux%u on %s, %d runs (medians)\n", seg * seg * 2,
           size, size, device, runs);
    printf("  cook (libkiln, once)          %8.1f ms\n", cook);
    printf("  kiln cold thumbnail, level 0  %8.1f ms  (context, load, upload, pipelines, draw of "
           "%llu triangles, read-back)\n",
           bench_median(cold, (size_t)runs), (unsigned long long)st_full.triangles);
    printf("  kiln warm draw, chosen LOD %u  %8.1f ms  (%llu triangles)\n", chosen,
           bench_median(warm_auto, (size_t)runs), (unsigned long long)st_auto.triangles);
    printf("  kiln warm draw, level 0       %8.1f ms  (%llu triangles)\n",
           bench_median(warm_full, (size_t)runs), (unsigned long long)st_full.triangles);
    if (peer) {
        double total[MAX_RUNS], load[MAX_RUNS], render[MAX_RUNS];
        int ok = 0;
        for (int r = 0; r < runs; r++) {
            snprintf(cmd, sizeof cmd,
                     "node '%s/tests/reference/render_threejs.mjs' '%s/assets/sphere.gltf' "
                     "'%s/three.png' --size %u %u 2>/dev/null",
                     KILN_BENCH_SOURCE_DIR, dir, dir, size, size);
            double a = bench_now_ms();
            FILE *f = popen(cmd, "r");
            char line[8192] = "";
            if (!f) break;
            size_t got = fread(line, 1, sizeof line - 1, f);
            line[got] = 0;
            int rc = pclose(f);
            double b = bench_now_ms() - a;
            const char *lt = strstr(line, "\"load\":"), *pr = strstr(line, "\"pose_render\":");
            if (rc != 0 || !lt || !pr) break;
            total[ok] = b;
            load[ok] = atof(lt + 7);
            render[ok] = atof(pr + 14);
            ok++;
        }
        if (ok == runs) {
            printf("  three.js (Chromium/SwiftShader): process %8.1f ms, its load %.1f ms, its "
                   "pose+render %.1f ms (level 0)\n",
                   bench_median(total, (size_t)ok), bench_median(load, (size_t)ok),
                   bench_median(render, (size_t)ok));
        } else {
            printf("  three.js: not run (node, Chromium or tests/node's packages missing)\n");
        }
    }
    free(rgba);
    if (!workdir) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) return 1;
    }
    return 0;
}
