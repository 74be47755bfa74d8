/* bench_shader.c — shader processing time per shader over the corpus's GLSL and HLSL shaders
 * ($KILN_CORPUS/shaders): kiln_shader_compile (optimisation none and performance),
 * kiln_shader_validate and kiln_shader_reflect, each the median of --runs runs per shader, then
 * the median and 90th percentile over the shaders. Also the same compile with one shaderc
 * compiler held alive by this program for the whole run: glslang builds its built-in symbol
 * tables when the first compiler of a process starts and frees them when the last one ends, so
 * this shows what a compiler kept between calls would save. Numbers are printed, never asserted.
 *
 *   bench_shader [--corpus DIR] [--runs N] [--limit N]
 *
 * KILN_BENCH_RUNS sets the default run count (3); --runs wins. */
#include <dirent.h>
#include <shaderc/shaderc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "measure.h"
#include "process/shader_compile.h"
#include "process/shader_reflect.h"

#define MAX_FILES 4096
#define MAX_RUNS  50

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(const char *root, const char *rel, char **out, size_t *n)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", root, rel);
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && *n < MAX_FILES) {
        if (e->d_name[0] == '.') continue;
        char sub[4096], full[8192];
        snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name);
        snprintf(full, sizeof full, "%s/%s", root, sub);
        struct stat st;
        if (stat(full, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            walk(root, sub, out, n);
        } else if (kiln_shader_stage_of_name(sub) >= 0) {
            out[(*n)++] = strdup(sub);
        }
    }
    closedir(d);
}

typedef struct series {
    const char *name;
    double *per_shader; /* median per shader */
    size_t n;
} series;

static void report(series *s)
{
    if (s->n == 0) return;
    double med = bench_median(s->per_shader, s->n); /* sorts them: p90 and max follow */
    printf("  %-34s %4zu shaders  median %7.2f ms  p90 %7.2f ms  max %7.2f ms\n", s->name, s->n,
           med, s->per_shader[s->n * 9 / 10], s->per_shader[s->n - 1]);
}

int main(int argc, char **argv)
{
    const char *corpus = getenv("KILN_CORPUS");
    int runs = getenv("KILN_BENCH_RUNS") ? atoi(getenv("KILN_BENCH_RUNS")) : 3;
    size_t limit = MAX_FILES;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--corpus") == 0 && i + 1 < argc) corpus = argv[++i];
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--limit") == 0 && i + 1 < argc) limit = (size_t)atol(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_shader [--corpus DIR] [--runs N] [--limit N]\n");
            return 2;
        }
    }
    if (!corpus) corpus = "../shared/corpus";
    if (runs < 1) runs = 1;
    if (runs > MAX_RUNS) runs = MAX_RUNS;
    char root[4096];
    snprintf(root, sizeof root, "%s/shaders", corpus);
    char **files = calloc(MAX_FILES, sizeof *files);
    size_t n = 0;
    walk(root, "glsl", files, &n);
    walk(root, "hlsl", files, &n);
    if (n == 0) {
        fprintf(stderr, "bench_shader: no shaders under %s\n", root);
        return 77;
    }
    qsort(files, n, sizeof *files, cmp_str);
    if (n > limit) n = limit;

    enum { GLSL_NONE, HLSL_NONE, GLSL_PERF, HELD, VALIDATE, REFLECT, SERIES };
    series s[SERIES] = {{"compile GLSL, optimize none", NULL, 0},
                        {"compile HLSL, optimize none", NULL, 0},
                        {"compile GLSL, optimize performance", NULL, 0},
                        {"compile GLSL, a compiler held", NULL, 0},
                        {"validate", NULL, 0},
                        {"reflect", NULL, 0}};
    for (int k = 0; k < SERIES; k++) s[k].per_shader = calloc(n, sizeof(double));
    char toolchain[256];
    printf("bench_shader: %zu shaders, %d runs each; %s\n", n, runs,
           kiln_shader_toolchain(toolchain, sizeof toolchain));
    size_t failed = 0;
    double t_all = bench_now_ms();
    for (size_t i = 0; i < n; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        size_t size = 0;
        char *src = bench_read_file(path, &size);
        if (!src) continue;
        bool hlsl = strncmp(files[i], "hlsl/", 5) == 0;
        int stage = kiln_shader_stage_of_name(files[i]);
        kiln_shader_compile_opts o;
        memset(&o, 0, sizeof o);
        o.struct_size = sizeof o;
        o.name = files[i];
        o.language = hlsl ? KILN_SHADER_HLSL : KILN_SHADER_GLSL;
        o.stage = (uint32_t)stage;
        /* ray tracing and mesh shaders need SPIR-V 1.4: Vulkan 1.2 for every shader */
        o.target = KILN_SHADER_VULKAN_1_2;
        double t[MAX_RUNS];
        kiln_shader_module m;
        kiln_error err;
        bool ok = true;
        for (int r = 0; r < runs && ok; r++) {
            double t0 = bench_now_ms();
            ok = kiln_shader_compile(src, size, &o, NULL, &m, &err) == KILN_OK;
            t[r] = bench_now_ms() - t0;
            if (r + 1 < runs || !ok) kiln_shader_module_free(&m);
        }
        if (!ok) {
            failed++;
            free(src);
            continue;
        }
        series *c = &s[hlsl ? HLSL_NONE : GLSL_NONE];
        c->per_shader[c->n++] = bench_median(t, (size_t)runs);
        for (int r = 0; r < runs; r++) {
            double t0 = bench_now_ms();
            kiln_shader_validate(m.words, m.word_count, o.target, "main", o.stage, &err);
            t[r] = bench_now_ms() - t0;
        }
        s[VALIDATE].per_shader[s[VALIDATE].n++] = bench_median(t, (size_t)runs);
        for (int r = 0; r < runs; r++) {
            kiln_shader_reflection refl;
            double t0 = bench_now_ms();
            kiln_shader_reflect(m.words, m.word_count, "main", NULL, &refl, &err);
            t[r] = bench_now_ms() - t0;
            kiln_shader_reflection_free(&refl);
        }
        s[REFLECT].per_shader[s[REFLECT].n++] = bench_median(t, (size_t)runs);
        kiln_shader_module_free(&m);
        if (!hlsl) {
            o.optimize = KILN_SHADER_OPTIMIZE_PERFORMANCE;
            for (int r = 0; r < runs; r++) {
                double t0 = bench_now_ms();
                kiln_shader_compile(src, size, &o, NULL, &m, &err);
                t[r] = bench_now_ms() - t0;
                kiln_shader_module_free(&m);
            }
            s[GLSL_PERF].per_shader[s[GLSL_PERF].n++] = bench_median(t, (size_t)runs);
            o.optimize = KILN_SHADER_OPTIMIZE_NONE;
            shaderc_compiler_t held = shaderc_compiler_initialize();
            for (int r = 0; r < runs; r++) {
                double t0 = bench_now_ms();
                kiln_shader_compile(src, size, &o, NULL, &m, &err);
                t[r] = bench_now_ms() - t0;
                kiln_shader_module_free(&m);
            }
            shaderc_compiler_release(held);
            s[HELD].per_shader[s[HELD].n++] = bench_median(t, (size_t)runs);
        }
        free(src);
    }
    for (int k = 0; k < SERIES; k++) report(&s[k]);
    printf("  %zu shaders did not compile (docs/shaders.md lists why); %.1f s in all\n", failed,
           (bench_now_ms() - t_all) / 1e3);
    for (int k = 0; k < SERIES; k++) free(s[k].per_shader);
    for (size_t i = 0; i < n; i++) free(files[i]);
    free(files);
    return 0;
}
