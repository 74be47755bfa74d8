/* bench_gltf.c — glTF parsing benchmark: parse time and peak memory of kiln's
 * importer (kiln_scene_load) against assimp's (Debian's libassimp 5.2, aiImportFile) on the larger
 * models of the corpus. Numbers are printed, never asserted; docs/performance.md ("glTF parsing")
 * says what they mean.
 *
 * Five loaders: kiln with KILN_SCENE_LOAD_NO_PIXELS (images kept encoded; the main line, since
 * assimp never decodes images either), kiln with pixel decoding, kiln parsing only (NO_PIXELS,
 * NO_NORMALS, NO_TANGENTS: without the normals and MikkTSpace tangents kiln makes by default where
 * the file has none, which assimp makes only when asked), assimp with no post-processing, and
 * assimp with aiProcess_Triangulate. Every measured load runs in its own child made by fork().
 * The child first loads a tiny model with the same loader (untimed: code paged in, lazy binding
 * and one-time set-up done, as in a tool that loads many files), returns freed memory with
 * malloc_trim, resets its peak RSS (writing 5 to /proc/self/clear_refs, Linux 4.0+) and notes its
 * RSS; then it times the load and the free (CLOCK_MONOTONIC, wall clock; and CPU time over the
 * same span, CLOCK_PROCESS_CPUTIME_ID, steadier on a busy machine) and reads its peak RSS (VmHWM).
 * Peak = VmHWM - RSS before the load: every byte the load made resident, transient ones (JSON
 * trees, file buffers) included. Where clear_refs cannot be written, the child's ru_maxrss (wait4)
 * minus that of a child that loads nothing is used instead, and the output says so.
 *
 *   bench_gltf [--corpus DIR] [--runs N] [MODEL...]   (MODEL relative to DIR)
 *
 * DIR defaults to $KILN_BENCH_GLTF_CORPUS, else ../shared/corpus/gltf; N to $KILN_BENCH_RUNS,
 * else 5. Runs of the four loaders are interleaved, so a slow moment of the shared machine hits
 * all of them. */
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child_run.h"
#include "kiln/kiln_scene.h"

#define BENCH_MAX_RUNS 101
#define BENCH_PATH_MAX 4096

static const char *const k_default_models[] = {
    "SheenCloth/glTF/SheenCloth.gltf",
    "DamagedHelmet/glTF/DamagedHelmet.gltf",
    "Suzanne/glTF/Suzanne.gltf",
    "NormalTangentTest/glTF/NormalTangentTest.gltf",
    "CesiumMan/glTF-Binary/CesiumMan.glb",
    "Avocado/glTF/Avocado.gltf",
    "Fox/glTF-Binary/Fox.glb",
    "Pirate-meshopt/glTF-Binary/pirate.glb",
};
#define N_DEFAULT_MODELS (sizeof k_default_models / sizeof k_default_models[0])

/* The tiny model each child loads first, untimed (one PNG, so kiln's decoder is warm too). */
static const char k_warmup_model[] = "BoxTextured/glTF-Binary/BoxTextured.glb";

typedef enum loader {
    L_KILN_NO_PIXELS = 0,
    L_ASSIMP = 1,
    L_KILN_PIXELS = 2,
    L_ASSIMP_TRIANGULATE = 3,
    L_KILN_PARSE_ONLY = 4,
    L_COUNT = 5, /* the measured loaders above */
    L_NONE = 99, /* the baseline child: loads nothing */
} loader;

static const char *const k_loader_names[] = {"kiln NO_PIXELS", "assimp", "kiln + pixels",
                                             "assimp + Triangulate", "kiln parse only"};

/* What a child sends back through its pipe: fixed size, no pointers. */
typedef struct sample {
    int ok;
    double ms;                              /* load + free, wall clock */
    double cpu_ms;                          /* the same span, CPU time of the process */
    unsigned long long triangles, vertices; /* over meshes (kiln) / aiMeshes (assimp) */
    unsigned long long model_bytes, buffer_bytes, image_bytes; /* kiln's files (NO_PIXELS) */
    unsigned generated_normals, generated_tangents;            /* kiln primitives */
    int peak_from_hwm; /* peak_kib is VmHWM - RSS before the load */
    long peak_kib;
    char message[300];
} sample;

typedef struct series {
    size_t count;
    double ms[BENCH_MAX_RUNS], cpu_ms[BENCH_MAX_RUNS];
    long peak_kib; /* largest peak over the runs (see the file's comment) */
    sample last;
    int failed; /* some run failed */
} series;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static unsigned long long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (unsigned long long)st.st_size : 0;
}

static int is_image_file(const kiln_scene *s, const char *path)
{
    for (uint32_t i = 0; i < s->image_count; i++)
        if (s->images[i].path && strcmp(s->images[i].path, path) == 0) return 1;
    return 0;
}

static void load_kiln(const char *path, uint32_t flags, sample *out)
{
    kiln_scene_opts opts = {0};
    opts.struct_size = sizeof opts;
    opts.flags = flags;
    kiln_scene *s = NULL;
    kiln_error err;
    memset(&err, 0, sizeof err);
    double c0 = cpu_ms(), t0 = now_ms();
    kiln_result r = kiln_scene_load(path, &opts, &s, &err);
    double t1 = now_ms(), c1 = cpu_ms();
    if (r != KILN_OK) {
        out->ms = t1 - t0;
        out->cpu_ms = c1 - c0;
        snprintf(out->message, sizeof out->message, "%s: %s", kiln_result_name(r), err.message);
        return;
    }
    /* Counting touches nothing the load did not already make; it is outside the timing. */
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        for (uint32_t p = 0; p < s->meshes[m].primitive_count; p++) {
            const kiln_scene_primitive *prim = &s->meshes[m].primitives[p];
            out->triangles += prim->index_count / 3;
            out->vertices += prim->vertex_count;
            if (prim->flags & KILN_SCENE_PRIM_NORMALS_GENERATED) out->generated_normals++;
            if (prim->flags & KILN_SCENE_PRIM_TANGENTS_GENERATED) out->generated_tangents++;
        }
    }
    out->model_bytes = file_size(path);
    for (uint32_t f = 0; f < s->file_count; f++) {
        if (is_image_file(s, s->files[f])) out->image_bytes += file_size(s->files[f]);
        else out->buffer_bytes += file_size(s->files[f]);
    }
    double c2 = cpu_ms(), t2 = now_ms();
    kiln_scene_free(s);
    out->ms = (t1 - t0) + (now_ms() - t2);
    out->cpu_ms = (c1 - c0) + (cpu_ms() - c2);
    out->ok = 1;
}

static void load_assimp(const char *path, unsigned flags, sample *out)
{
    double c0 = cpu_ms(), t0 = now_ms();
    const struct aiScene *s = aiImportFile(path, flags);
    double t1 = now_ms(), c1 = cpu_ms();
    if (!s) {
        out->ms = t1 - t0;
        out->cpu_ms = c1 - c0;
        snprintf(out->message, sizeof out->message, "%s", aiGetErrorString());
        return;
    }
    for (unsigned i = 0; i < s->mNumMeshes; i++) {
        const struct aiMesh *m = s->mMeshes[i];
        out->vertices += m->mNumVertices;
        if (m->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)
            for (unsigned f = 0; f < m->mNumFaces; f++)
                out->triangles += m->mFaces[f].mNumIndices == 3;
    }
    double c2 = cpu_ms(), t2 = now_ms();
    aiReleaseImport(s);
    out->ms = (t1 - t0) + (now_ms() - t2);
    out->cpu_ms = (c1 - c0) + (cpu_ms() - c2);
    out->ok = 1;
}

static sample measure(loader l, const char *path)
{
    sample s;
    memset(&s, 0, sizeof s);
    switch (l) {
    case L_KILN_NO_PIXELS:
        load_kiln(path, KILN_SCENE_LOAD_NO_PIXELS, &s);
        break;
    case L_KILN_PIXELS:
        load_kiln(path, 0, &s);
        break;
    case L_KILN_PARSE_ONLY:
        load_kiln(path,
                  KILN_SCENE_LOAD_NO_IMAGES | KILN_SCENE_LOAD_NO_NORMALS |
                      KILN_SCENE_LOAD_NO_TANGENTS,
                  &s);
        break;
    case L_ASSIMP:
        load_assimp(path, 0, &s);
        break;
    case L_ASSIMP_TRIANGULATE:
        load_assimp(path, aiProcess_Triangulate, &s);
        break;
    default:
        s.ok = 1;
        break; /* the baseline loads nothing */
    }
    return s;
}

/* A "VmRSS:" / "VmHWM:" line of /proc/self/status in KiB, or -1. */
static long status_kib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':') v = strtol(line + n + 1, NULL, 10);
    fclose(f);
    return v;
}

/* Resets this process's peak RSS to its current RSS; 0 on success. */
static int reset_peak_rss(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd < 0) return -1;
    ssize_t w = write(fd, "5", 1);
    close(fd);
    return w == 1 ? 0 : -1;
}

/* What runs in the child: warm-up, peak reset, the measured load. */
static sample child_run(loader l, const char *path, const char *warmup_path)
{
    if (l != L_NONE) (void)measure(l, warmup_path);
    malloc_trim(0);
    long before = -1;
    if (reset_peak_rss() == 0) before = status_kib("VmRSS");
    sample s = measure(l, path);
    long hwm = status_kib("VmHWM");
    if (before >= 0 && hwm >= before) {
        s.peak_from_hwm = 1;
        s.peak_kib = hwm - before;
    }
    return s;
}

typedef struct child_args {
    loader l;
    const char *path, *warmup_path;
} child_args;

static void child_fn(void *user, void *result)
{
    const child_args *c = user;
    *(sample *)result = child_run(c->l, c->path, c->warmup_path);
}

/* One measured load in a child process; its ru_maxrss comes back through wait4. */
static int measure_in_child(loader l, const char *path, const char *warmup_path, sample *s,
                            long *maxrss_kib)
{
    child_args args = {l, path, warmup_path};
    int status;
    struct rusage ru;
    int rc = bench_child_run("bench_gltf", child_fn, &args, s, sizeof *s, &status, &ru);
    if (rc < 0) return -1;
    if (rc > 0) {
        memset(s, 0, sizeof *s);
        snprintf(s->message, sizeof s->message, "the child %s (status %d)",
                 WIFSIGNALED(status) ? "was killed by a signal" : "failed", status);
    }
    *maxrss_kib = ru.ru_maxrss; /* KiB on Linux */
    return 0;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_of(const double *values, size_t count)
{
    if (count == 0) return 0;
    double v[BENCH_MAX_RUNS];
    memcpy(v, values, count * sizeof v[0]);
    qsort(v, count, sizeof v[0], compare_doubles);
    return count % 2 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
}

static double median(const series *s) { return median_of(s->ms, s->count); }

static double cpu_median(const series *s) { return median_of(s->cpu_ms, s->count); }

static double peak_mib(const series *s)
{
    return (double)(s->peak_kib > 0 ? s->peak_kib : 0) / 1024.0;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_gltf [--corpus DIR] [--runs N] [MODEL...]\n");
}

/* Formats "ms" or "failed" into buf. */
static const char *ms_text(const series *s, char *buf, size_t size)
{
    if (s->failed || s->count == 0) snprintf(buf, size, "failed");
    else snprintf(buf, size, "%.2f", median(s));
    return buf;
}

static const char *cpu_text(const series *s, char *buf, size_t size)
{
    if (s->failed || s->count == 0) snprintf(buf, size, "failed");
    else snprintf(buf, size, "%.2f", cpu_median(s));
    return buf;
}

static const char *cpu_ratio_text(const series *num, const series *den, char *buf, size_t size)
{
    if (num->failed || den->failed || num->count == 0 || den->count == 0 || cpu_median(den) <= 0)
        snprintf(buf, size, "-");
    else snprintf(buf, size, "%.2fx", cpu_median(num) / cpu_median(den));
    return buf;
}

static const char *mib_text(const series *s, char *buf, size_t size)
{
    if (s->failed || s->count == 0) snprintf(buf, size, "-");
    else snprintf(buf, size, "%.1f", peak_mib(s));
    return buf;
}

static const char *ratio_text(const series *num, const series *den, char *buf, size_t size)
{
    if (num->failed || den->failed || num->count == 0 || den->count == 0 || median(den) <= 0)
        snprintf(buf, size, "-");
    else snprintf(buf, size, "%.2fx", median(num) / median(den));
    return buf;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int main(int argc, char **argv)
{
    const char *corpus = getenv("KILN_BENCH_GLTF_CORPUS");
    if (!corpus || !*corpus) corpus = "../shared/corpus/gltf";
    long runs = 5;
    const char *env_runs = getenv("KILN_BENCH_RUNS");
    if (env_runs && *env_runs) runs = strtol(env_runs, NULL, 10);
    const char **models = NULL;
    size_t model_count = 0;
    models = calloc((size_t)argc + N_DEFAULT_MODELS, sizeof *models);
    if (!models) return 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--corpus") == 0 && i + 1 < argc) {
            corpus = argv[++i];
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = strtol(argv[++i], NULL, 10);
        } else if (argv[i][0] == '-') {
            usage();
            free(models);
            return 2;
        } else {
            models[model_count++] = argv[i];
        }
    }
    if (runs < 1 || runs > BENCH_MAX_RUNS) {
        fprintf(stderr, "bench_gltf: --runs must be 1..%d\n", BENCH_MAX_RUNS);
        free(models);
        return 2;
    }
    if (model_count == 0)
        for (size_t i = 0; i < N_DEFAULT_MODELS; i++) models[model_count++] = k_default_models[i];

    struct stat st;
    if (stat(corpus, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("bench_gltf: no glTF corpus at %s; nothing to measure\n", corpus);
        free(models);
        return 0;
    }

    char path[BENCH_PATH_MAX], warmup_path[BENCH_PATH_MAX];
    snprintf(warmup_path, sizeof warmup_path, "%s/%s", corpus, k_warmup_model);

    /* For the fallback only: the ru_maxrss of a child that loads nothing. */
    long baseline_kib = 0;
    for (long r = 0; r < 3; r++) {
        sample s;
        long kib = 0;
        if (measure_in_child(L_NONE, "", "", &s, &kib) == 0 && kib > baseline_kib)
            baseline_kib = kib;
    }

    series(*all)[L_COUNT] = calloc(model_count, sizeof *all);
    if (!all) {
        free(models);
        return 1;
    }
    int hwm_everywhere = 1;
    for (size_t m = 0; m < model_count; m++) {
        snprintf(path, sizeof path, "%s/%s", corpus, models[m]);
        for (long r = 0; r < runs; r++) {
            for (int l = 0; l < L_COUNT; l++) {
                series *s = &all[m][l];
                sample smp;
                long kib = 0;
                if (measure_in_child((loader)l, path, warmup_path, &smp, &kib) != 0 || !smp.ok) {
                    s->failed = 1;
                    s->last = smp;
                    continue;
                }
                s->cpu_ms[s->count] = smp.cpu_ms;
                s->ms[s->count++] = smp.ms;
                long peak = smp.peak_from_hwm ? smp.peak_kib : kib - baseline_kib;
                if (!smp.peak_from_hwm) hwm_everywhere = 0;
                if (peak > s->peak_kib) s->peak_kib = peak;
                s->last = smp;
            }
        }
    }

    printf("glTF parsing: kiln_scene_load against assimp 5.2 aiImportFile, median of %ld runs\n",
           runs);
    printf("each load in its own forked child, after an untimed load of %s there\n"
           "ms  = wall clock (CLOCK_MONOTONIC) of load + free\n",
           k_warmup_model);
    if (hwm_everywhere)
        printf("MiB = peak RSS of the load: VmHWM - VmRSS before it (peak reset through "
               "/proc/self/clear_refs)\n");
    else
        printf("MiB = the child's ru_maxrss (wait4) minus that of a child that loads nothing "
               "(%.1f MiB;\n      /proc/self/clear_refs could not be written; library code "
               "pages count)\n",
               (double)baseline_kib / 1024.0);
    printf("ratio = assimp ms / kiln ms (above 1: kiln is faster)\n"
           "size = model + buffer files, + the image files kiln reads (kept encoded with "
           "NO_PIXELS;\n       assimp opens no external image file)\n\n");

    /* The main line: kiln without pixel decoding against assimp without post-processing. */
    printf("%-24s %14s %10s %10s %7s %10s %10s\n", "file", "size MiB", "kiln ms", "assimp ms",
           "ratio", "kiln MiB", "assimp MiB");
    for (size_t m = 0; m < model_count; m++) {
        const series *k = &all[m][L_KILN_NO_PIXELS], *a = &all[m][L_ASSIMP];
        char size[32], km[16], am[16], ratio[16], kp[16], ap[16];
        double geo = (double)(k->last.model_bytes + k->last.buffer_bytes) / 1048576.0;
        double img = (double)k->last.image_bytes / 1048576.0;
        if (k->last.ok && img > 0) snprintf(size, sizeof size, "%.2f +%.1f img", geo, img);
        else if (k->last.ok) snprintf(size, sizeof size, "%.2f", geo);
        else {
            char model_path[BENCH_PATH_MAX];
            snprintf(model_path, sizeof model_path, "%s/%s", corpus, models[m]);
            snprintf(size, sizeof size, "%.2f", (double)file_size(model_path) / 1048576.0);
        }
        printf("%-24s %14s %10s %10s %7s %10s %10s\n", base_name(models[m]), size,
               ms_text(k, km, sizeof km), ms_text(a, am, sizeof am),
               ratio_text(a, k, ratio, sizeof ratio), mib_text(k, kp, sizeof kp),
               mib_text(a, ap, sizeof ap));
    }

    /* The other loaders. */
    printf("\n%-24s %10s %6s %7s %12s %6s %9s %13s %6s %9s\n", "file", "parse ms", "MiB", "ratio",
           "kiln+pix ms", "MiB", "vs NO_PIX", "assimp+tri ms", "MiB", "vs assimp");
    for (size_t m = 0; m < model_count; m++) {
        const series *po = &all[m][L_KILN_PARSE_ONLY], *kp = &all[m][L_KILN_PIXELS],
                     *at = &all[m][L_ASSIMP_TRIANGULATE];
        char p1[16], p2[16], p3[16], a1[16], a2[16], a3[16], b1[16], b2[16], b3[16];
        printf("%-24s %10s %6s %7s %12s %6s %9s %13s %6s %9s\n", base_name(models[m]),
               ms_text(po, p1, sizeof p1), mib_text(po, p2, sizeof p2),
               ratio_text(&all[m][L_ASSIMP], po, p3, sizeof p3), ms_text(kp, a1, sizeof a1),
               mib_text(kp, a2, sizeof a2),
               ratio_text(kp, &all[m][L_KILN_NO_PIXELS], a3, sizeof a3), ms_text(at, b1, sizeof b1),
               mib_text(at, b2, sizeof b2), ratio_text(at, &all[m][L_ASSIMP], b3, sizeof b3));
    }
    printf("parse = kiln with NO_PIXELS | NO_NORMALS | NO_TANGENTS (ratio = assimp ms / parse ms); "
           "vs = ms / ms of the named loader\n");

    /* CPU time: steadier than wall time when the shared machine is busy. */
    printf("\nCPU time of load + free (CLOCK_PROCESS_CPUTIME_ID), medians in ms:\n");
    printf("%-24s %10s %10s %7s %10s %7s %12s %14s\n", "file", "kiln", "assimp", "ratio", "parse",
           "ratio", "kiln+pix", "assimp+tri");
    for (size_t m = 0; m < model_count; m++) {
        char a1[16], a2[16], a3[16], a4[16], a5[16], a6[16], a7[16];
        printf("%-24s %10s %10s %7s %10s %7s %12s %14s\n", base_name(models[m]),
               cpu_text(&all[m][L_KILN_NO_PIXELS], a1, sizeof a1),
               cpu_text(&all[m][L_ASSIMP], a2, sizeof a2),
               cpu_ratio_text(&all[m][L_ASSIMP], &all[m][L_KILN_NO_PIXELS], a3, sizeof a3),
               cpu_text(&all[m][L_KILN_PARSE_ONLY], a4, sizeof a4),
               cpu_ratio_text(&all[m][L_ASSIMP], &all[m][L_KILN_PARSE_ONLY], a5, sizeof a5),
               cpu_text(&all[m][L_KILN_PIXELS], a6, sizeof a6),
               cpu_text(&all[m][L_ASSIMP_TRIANGULATE], a7, sizeof a7));
    }

    /* What each side made of the files, and why a column is empty. */
    printf("\ncounts (triangles / vertices) and notes:\n");
    for (size_t m = 0; m < model_count; m++) {
        const series *k = &all[m][L_KILN_NO_PIXELS];
        printf("  %-22s kiln %llu / %llu", base_name(models[m]), k->last.triangles,
               k->last.vertices);
        if (k->last.generated_normals || k->last.generated_tangents)
            printf(" (generated: normals in %u, tangents in %u primitives)",
                   k->last.generated_normals, k->last.generated_tangents);
        for (int l = 0; l < L_COUNT; l++) {
            const series *s = &all[m][l];
            if (s->failed) printf("; %s failed: %s", k_loader_names[l], s->last.message);
            else if (l == L_ASSIMP)
                printf("; assimp %llu / %llu", s->last.triangles, s->last.vertices);
        }
        printf("\n");
    }
    free(all);
    free(models);
    return 0;
}
