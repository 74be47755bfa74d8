/* bench_models.c — kiln's geometry-only model cook against Debian's gltfpack
 * 0.18 on the larger corpus models (SheenCloth, DamagedHelmet, Suzanne, CesiumMan, Fox), in one
 * run, side by side:
 *   - time: each case is a process (`kiln model …`, `gltfpack …`) started with fork + exec; the
 *     parent takes the wall time around it (CLOCK_MONOTONIC) and the child's CPU time (user + sys
 *     of all its threads, from wait4). Runs of all cases are interleaved, the first case rotating
 *     from run to run, and medians are printed: the machine is shared, so CPU time is the number
 *     the verdicts use, wall time is shown beside it;
 *   - geometry of the outputs, measured the same way for both: triangles of the full mesh and of
 *     the 50 % level, vertices, vertex bytes (kiln: every vertex stream of the .kmesh files as
 *     unpacked, the --json vertex_bytes; gltfpack: count x stride of every vertex attribute
 *     accessor of its .gltf), the bytes of each attribute per vertex, and ACMR with a 16-entry
 *     FIFO cache of the final index buffers (kiln's decoded with kiln_mesh_decode, gltfpack's
 *     read from its plain .bin: without -c it writes no EXT_meshopt_compression), cross-checked
 *     against meshopt_analyzeVertexCache(16, 0, 0);
 *   - ratios kiln / gltfpack and the target line per model, PASS or MISS.
 * What each case does and why these settings are "the same work": docs/performance.md, "Model
 * cook against gltfpack". A program that prints, not a test.
 *
 *   bench_models --corpus DIR [--runs N] [--kiln PATH] [--gltfpack PATH] [--workdir DIR]
 *
 * --kiln defaults to tools/kiln/kiln of the build this program belongs to, --gltfpack to the
 * one on PATH (without it the program says so and exits 0), --workdir to a fresh folder under
 * /dev/shm (tmpfs: kiln fsyncs each file it writes and gltfpack does not, so on a disk the wall
 * times would compare sync latency). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <meshoptimizer.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kiln/kiln_format.h"

#define MAX_RUNS   64
#define MAX_ARGS   24
#define MAX_LEVELS KILN_MESH_MAX_LEVELS

static const struct {
    const char *name, *path; /* path under the corpus */
} models[] = {
    {"SheenCloth", "SheenCloth/glTF/SheenCloth.gltf"},
    {"DamagedHelmet", "DamagedHelmet/glTF/DamagedHelmet.gltf"},
    {"Suzanne", "Suzanne/glTF/Suzanne.gltf"},
    {"CesiumMan", "CesiumMan/glTF/CesiumMan.gltf"},
    {"Fox", "Fox/glTF/Fox.gltf"},
};
#define MODEL_COUNT (sizeof models / sizeof models[0])

/* The cases. "IN" and "OUT" in args are replaced by the model and the case's output folder;
 * gltfpack writes OUT/out.gltf. timed = 0: run once, for its output only. */
enum { TOOL_KILN, TOOL_GLTFPACK };
typedef struct bench_case {
    const char *name;
    int tool;
    bool timed;
    const char *args[MAX_ARGS];
    const char *what;
} bench_case;

/* kiln's settings closest to gltfpack -si (the k-job rows, one and two threads). */
#define K_JOB_SETTINGS                                                                             \
    "--set", "model.lods=[0.5]", "--set", "model.lod_error=0.01", "--set",                         \
        "model.lod_min_triangles=0", "--set", "model.overdraw_threshold=0", "--set",               \
        "model.meshlets=false", "--set", "model.animation_reduce=false", "--set",                  \
        "model.tangents=\"file\""

static const bench_case cases[] = {
    {"gp-si",
     TOOL_GLTFPACK,
     true,
     {"-i", "IN", "-o", "OUT/out.gltf", "-si", "0.5"},
     "gltfpack, one level at 50 %: weld, simplify (error <= 1 %, fixed in 0.18), vertex cache + "
     "fetch order, quantize 14/12/8 bits (its default)"},
    {"gp-full",
     TOOL_GLTFPACK,
     true,
     {"-i", "IN", "-o", "OUT/out.gltf"},
     "gltfpack, the full mesh: weld, vertex cache + fetch order, quantize 14/12/8 bits"},
    {"k-def",
     TOOL_KILN,
     true,
     {"model", "IN", "OUT", "--textures", "none", "-j1"},
     "kiln defaults: full mesh + levels 0.5/0.25/0.125 (error <= 5 %), vertex cache + overdraw "
     "(1.05) per level, fetch order, meshlets for every level, quantize 16-bit/oct16"},
    {"k-def-j2",
     TOOL_KILN,
     true,
     {"model", "IN", "OUT", "--textures", "none", "-j2"},
     "the same, 2 worker threads"},
    {"k-job",
     TOOL_KILN,
     true,
     {"model", "IN", "OUT", "--textures", "none", "-j1", K_JOB_SETTINGS},
     "kiln closest to gp-si: one level at 0.5 with gltfpack's 1 % error, no overdraw pass, no "
     "meshlets, clip keys kept as they are, no tangents the file lacks (gltfpack makes none); "
     "still optimises and writes the full mesh too"},
    {"k-job-j2",
     TOOL_KILN,
     true,
     {"model", "IN", "OUT", "--textures", "none", "-j2", K_JOB_SETTINGS},
     "the same, 2 worker threads"},
    {"k-full",
     TOOL_KILN,
     true,
     {"model", "IN", "OUT", "--textures", "none", "-j1", "--set", "model.lods=[]", "--set",
      "model.overdraw_threshold=0"},
     "kiln closest to gp-full: the full mesh only, no overdraw pass; meshlets still built"},
    {"gp-full16",
     TOOL_GLTFPACK,
     false,
     {"-i", "IN", "-o", "OUT/out.gltf", "-vp", "16", "-vt", "16"},
     "gltfpack, full mesh, positions and UVs at kiln's 16 bits (run once, for vertex bytes)"},
};
#define CASE_COUNT (sizeof cases / sizeof cases[0])
enum { C_GP_SI, C_GP_FULL, C_K_DEF, C_K_DEF_J2, C_K_JOB, C_K_JOB_J2, C_K_FULL, C_GP_FULL16 };

/* Geometry of one output, summed over its primitives. */
typedef struct geo {
    bool ok;
    uint32_t prims, level_count;
    uint64_t tris[MAX_LEVELS];
    uint64_t misses[MAX_LEVELS]; /* FIFO-16 cache misses: ACMR = misses / tris */
    uint64_t vertices, vertex_bytes;
    char layout[192];        /* bytes per vertex of each attribute, "pos 8 + nrm 4 ..." */
    char names[16][8];       /* the attributes, for comparing the two layouts */
    uint32_t name_bytes[16]; /* bytes of each of them over all vertices */
    uint32_t name_count;
    bool acmr_mismatch; /* the own FIFO and meshopt's analyzer disagreed */
    char error[256];
} geo;

typedef struct sample {
    double wall_ms, cpu_ms;
} sample;

static sample timings[MODEL_COUNT][CASE_COUNT][MAX_RUNS];
static sample start_kiln[MAX_RUNS], start_gp[MAX_RUNS];

/* ---- small helpers ---------------------------------------------------------------------- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[MAX_RUNS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

static double median_of(const sample *v, int n, bool cpu)
{
    double x[MAX_RUNS];
    for (int i = 0; i < n; i++) x[i] = cpu ? v[i].cpu_ms : v[i].wall_ms;
    return median(x, n);
}

static void fmt(char *dst, size_t size, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(dst, size, f, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "bench_models: path or text too long\n");
        exit(2);
    }
}

static void append(char *dst, size_t size, const char *f, ...)
{
    size_t len = strlen(dst);
    va_list ap;
    va_start(ap, f);
    vsnprintf(dst + len, size - len, f, ap);
    va_end(ap);
}

static bool mkdirs(const char *path)
{
    char p[PATH_MAX];
    fmt(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0755) != 0 && errno != EEXIST) return false;
            *s = '/';
        }
    return mkdir(p, 0755) == 0 || errno == EEXIST;
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
            data = malloc((size_t)n + 1);
            if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
                free(data);
                data = NULL;
            }
            *size = (size_t)n;
        }
    }
    fclose(f);
    return data;
}

/* An executable: a path with a slash as given, else searched on PATH. */
static bool find_program(const char *name, char *out, size_t size)
{
    if (strchr(name, '/')) {
        fmt(out, size, "%s", name);
        return access(out, X_OK) == 0;
    }
    const char *path = getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    while (*path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        if (n > 0 && n + strlen(name) + 2 <= size) {
            memcpy(out, path, n);
            out[n] = '/';
            strcpy(out + n + 1, name);
            if (access(out, X_OK) == 0) return true;
        }
        path += n + (end ? 1 : 0);
    }
    return false;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* ---- running a case --------------------------------------------------------------------- */

/* argv of a case for one model: the program, then its args with IN and OUT filled in. */
static void case_argv(const bench_case *c, const char *prog, const char *in, const char *out,
                      char store[MAX_ARGS][PATH_MAX], char **argv)
{
    int n = 0;
    argv[n++] = (char *)prog;
    for (int i = 0; i < MAX_ARGS - 2 && c->args[i]; i++) {
        const char *a = c->args[i];
        if (strcmp(a, "IN") == 0) fmt(store[i], PATH_MAX, "%s", in);
        else if (strcmp(a, "OUT") == 0) fmt(store[i], PATH_MAX, "%s", out);
        else if (strcmp(a, "OUT/out.gltf") == 0) fmt(store[i], PATH_MAX, "%s/out.gltf", out);
        else fmt(store[i], PATH_MAX, "%s", a);
        argv[n++] = store[i];
    }
    argv[n] = NULL;
}

/* Runs argv with stdout to out_path (NULL: /dev/null) and stderr to err_path; 0 when it exits
 * with 0. The sample is the wall time around fork..wait4 and the child's user + sys time. */
static int run(char **argv, const char *out_path, const char *err_path, sample *s)
{
    fflush(NULL);
    double t0 = now_ms();
    pid_t pid = fork();
    if (pid < 0) {
        perror("bench_models: fork");
        return -1;
    }
    if (pid == 0) {
        int o = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err_path ? err_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(126);
        close(o);
        close(e);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) {
            perror("bench_models: wait4");
            return -1;
        }
    }
    s->wall_ms = now_ms() - t0;
    s->cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* ---- geometry -------------------------------------------------------------------------- */

/* Misses of a 16-entry FIFO post-transform cache (the model of meshopt_analyzeVertexCache with
 * cache_size 16, warp_size 0, primgroup_size 0). */
static uint64_t fifo_misses(const uint32_t *idx, size_t n, uint32_t vertex_count)
{
    uint32_t *stamp = calloc(vertex_count ? vertex_count : 1, sizeof *stamp);
    uint32_t clock = 0;
    uint64_t misses = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = idx[i];
        if (stamp[v] == 0 || clock - stamp[v] >= 16) stamp[v] = ++clock, misses++;
    }
    free(stamp);
    return misses;
}

static void add_level(geo *g, uint32_t level, const uint32_t *idx, size_t n, uint32_t vertex_count)
{
    uint64_t m = fifo_misses(idx, n, vertex_count);
    g->tris[level] += n / 3;
    g->misses[level] += m;
    if (n >= 3) {
        struct meshopt_VertexCacheStatistics st =
            meshopt_analyzeVertexCache(idx, n, vertex_count, 16, 0, 0);
        if (fabs((double)st.acmr - (double)m / (double)(n / 3)) > 1e-4) g->acmr_mismatch = true;
    }
    if (level + 1 > g->level_count) g->level_count = level + 1;
}

static void add_attribute(geo *g, const char *name, uint64_t bytes, uint64_t vertices)
{
    uint32_t i = 0;
    while (i < g->name_count && strcmp(g->names[i], name) != 0) i++;
    if (i == g->name_count) {
        if (g->name_count == 16) return;
        fmt(g->names[i], sizeof g->names[i], "%s", name);
        g->name_bytes[i] = 0;
        g->name_count++;
        double per = vertices ? (double)bytes / (double)vertices : 0.0;
        append(g->layout, sizeof g->layout, "%s%s %g", g->layout[0] ? " + " : "", name, per);
    }
    g->name_bytes[i] += (uint32_t)bytes;
    g->vertex_bytes += bytes;
}

static const char *const kiln_stream_names[KILN_MESH_STREAM_COUNT] = {
    "pos",  "nrm", "tan", "uv0", "uv1",  "uv2",  "uv3",  "col0",
    "col1", "jnt", "wgt", "idx", "tpos", "tnrm", "ttan",
};

/* Every .kmesh file in dir, read with kiln_mesh_read and decoded level by level. */
static void kiln_geometry(const char *dir, geo *g)
{
    memset(g, 0, sizeof *g);
    DIR *d = opendir(dir);
    if (!d) {
        fmt(g->error, sizeof g->error, "cannot open %s", dir);
        return;
    }
    char names[64][256];
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && count < 64) {
        size_t n = strlen(e->d_name);
        if (n > 6 && n < 256 && strcmp(e->d_name + n - 6, ".kmesh") == 0)
            strcpy(names[count++], e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    for (int f = 0; f < count; f++) {
        char path[PATH_MAX];
        fmt(path, sizeof path, "%s/%s", dir, names[f]);
        size_t size = 0;
        uint8_t *data = read_file(path, &size);
        kiln_mesh_view v;
        kiln_error err;
        if (!data || kiln_mesh_read(data, size, 0, &v, &err) != KILN_OK) {
            fmt(g->error, sizeof g->error, "%s: %s", path, data ? err.message : "cannot read");
            free(data);
            return;
        }
        g->prims++;
        g->vertices += v.vertex_count;
        for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++)
            if (s != KILN_MESH_INDICES && v.streams[s].format != KILN_MESH_FORMAT_NONE)
                add_attribute(g, kiln_stream_names[s], v.streams[s].count * v.streams[s].stride,
                              v.vertex_count);
        for (uint32_t l = 0; l < v.level_count; l++) {
            kiln_mesh_decoded dec;
            if (kiln_mesh_decode(&v, l, NULL, &dec, &err) != KILN_OK) {
                fmt(g->error, sizeof g->error, "%s level %u: %s", path, l, err.message);
                free(data);
                return;
            }
            add_level(g, l, dec.indices, dec.index_count, v.vertex_count);
            kiln_mesh_decoded_free(&dec);
        }
        free(data);
    }
    if (count == 0) fmt(g->error, sizeof g->error, "no .kmesh file in %s", dir);
    g->ok = count > 0;
}

static size_t component_size(int type)
{
    switch (type) {
    case 5120:
    case 5121:
        return 1;
    case 5122:
    case 5123:
        return 2;
    case 5125:
    case 5126:
        return 4;
    default:
        return 0;
    }
}

static size_t component_count(const char *type)
{
    static const struct {
        const char *name;
        size_t n;
    } t[] = {
        {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3},  {"VEC4", 4},
        {"MAT2", 4},   {"MAT3", 9}, {"MAT4", 16},
    };
    for (size_t i = 0; type && i < sizeof t / sizeof t[0]; i++)
        if (strcmp(type, t[i].name) == 0) return t[i].n;
    return 0;
}

/* count x stride of an accessor as stored (byteStride of its view, else the element size). */
static uint64_t accessor_bytes(json_t *doc, json_int_t a, uint64_t *count)
{
    json_t *acc = json_array_get(json_object_get(doc, "accessors"), (size_t)a);
    json_t *view = json_array_get(json_object_get(doc, "bufferViews"),
                                  (size_t)json_integer_value(json_object_get(acc, "bufferView")));
    size_t elem = component_size((int)json_integer_value(json_object_get(acc, "componentType"))) *
                  component_count(json_string_value(json_object_get(acc, "type")));
    json_int_t stride = json_integer_value(json_object_get(view, "byteStride"));
    *count = (uint64_t)json_integer_value(json_object_get(acc, "count"));
    return *count * (stride > 0 ? (uint64_t)stride : elem);
}

static void gltf_attribute_name(const char *attr, const char *prefix, char *out, size_t size)
{
    static const struct {
        const char *gltf, *name;
    } n[] = {
        {"POSITION", "pos"}, {"NORMAL", "nrm"},   {"TANGENT", "tan"},   {"TEXCOORD_", "uv"},
        {"COLOR_", "col"},   {"JOINTS_0", "jnt"}, {"WEIGHTS_0", "wgt"},
    };
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++) {
        size_t len = strlen(n[i].gltf);
        if (strncmp(attr, n[i].gltf, len) == 0) {
            fmt(out, size, "%s%s%s", prefix, n[i].name, attr + len);
            return;
        }
    }
    fmt(out, size, "%s%s", prefix, attr);
}

/* gltfpack's out.gltf in dir: every triangle primitive's attributes and indices. Without -c
 * its buffers are plain; anything else is reported, not guessed. */
static void gltfpack_geometry(const char *dir, geo *g)
{
    memset(g, 0, sizeof *g);
    char path[PATH_MAX];
    fmt(path, sizeof path, "%s/out.gltf", dir);
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!doc) {
        fmt(g->error, sizeof g->error, "%s: %s", path, je.text);
        return;
    }
    json_t *ext = json_object_get(doc, "extensionsRequired");
    size_t k;
    json_t *x;
    json_array_foreach (ext, k, x) {
        if (strcmp(json_string_value(x), "KHR_mesh_quantization") != 0) {
            fmt(g->error, sizeof g->error, "%s requires %s: not read", path, json_string_value(x));
            json_decref(doc);
            return;
        }
    }
    const char *uri = json_string_value(
        json_object_get(json_array_get(json_object_get(doc, "buffers"), 0), "uri"));
    size_t bin_size = 0;
    uint8_t *bin = NULL;
    if (uri) {
        char bp[PATH_MAX];
        fmt(bp, sizeof bp, "%s/%s", dir, uri);
        bin = read_file(bp, &bin_size);
    }
    if (!bin) {
        fmt(g->error, sizeof g->error, "%s: no buffer", path);
        json_decref(doc);
        return;
    }
    json_t *accessors = json_object_get(doc, "accessors"),
           *views = json_object_get(doc, "bufferViews");
    size_t naccessors = json_array_size(accessors);
    bool *counted = calloc(naccessors ? naccessors : 1, 1); /* accessors shared by primitives */
    size_t mi, pi;
    json_t *mesh, *prim;
    json_array_foreach (json_object_get(doc, "meshes"), mi, mesh) {
        json_array_foreach (json_object_get(mesh, "primitives"), pi, prim) {
            json_t *mode = json_object_get(prim, "mode");
            if (mode && json_integer_value(mode) != 4) continue;
            json_t *attrs = json_object_get(prim, "attributes");
            uint64_t nv = 0;
            const char *key;
            json_t *val;
            json_object_foreach (attrs, key, val) {
                if (strcmp(key, "POSITION") == 0)
                    nv = (uint64_t)json_integer_value(json_object_get(
                        json_array_get(accessors, (size_t)json_integer_value(val)), "count"));
            }
            json_t *idx = json_object_get(prim, "indices");
            if (!idx || nv == 0 || nv > UINT32_MAX) {
                fmt(g->error, sizeof g->error, "mesh %zu primitive %zu: no indices or positions",
                    mi, pi);
                goto done;
            }
            g->prims++;
            bool new_vertices = false;
            json_object_foreach (attrs, key, val) {
                json_int_t a = json_integer_value(val);
                if (a < 0 || (size_t)a >= naccessors || counted[a]) continue;
                counted[a] = new_vertices = true;
                char name[16];
                gltf_attribute_name(key, "", name, sizeof name);
                uint64_t c;
                add_attribute(g, name, accessor_bytes(doc, a, &c), nv);
            }
            size_t ti;
            json_t *target;
            json_array_foreach (json_object_get(prim, "targets"), ti, target) {
                json_object_foreach (target, key, val) {
                    json_int_t a = json_integer_value(val);
                    if (a < 0 || (size_t)a >= naccessors || counted[a]) continue;
                    counted[a] = true;
                    char name[16];
                    gltf_attribute_name(key, "t", name, sizeof name);
                    uint64_t c;
                    add_attribute(g, name, accessor_bytes(doc, a, &c), nv);
                }
            }
            if (new_vertices) g->vertices += nv;
            /* The index accessor, read from the plain buffer with every range checked. */
            json_t *acc = json_array_get(accessors, (size_t)json_integer_value(idx));
            json_t *view = json_array_get(
                views, (size_t)json_integer_value(json_object_get(acc, "bufferView")));
            size_t cs =
                component_size((int)json_integer_value(json_object_get(acc, "componentType")));
            uint64_t n = (uint64_t)json_integer_value(json_object_get(acc, "count"));
            uint64_t off = (uint64_t)json_integer_value(json_object_get(view, "byteOffset")) +
                           (uint64_t)json_integer_value(json_object_get(acc, "byteOffset"));
            if (cs == 0 || n % 3 != 0 || off > bin_size || n > (bin_size - off) / cs) {
                fmt(g->error, sizeof g->error, "mesh %zu primitive %zu: bad index accessor", mi,
                    pi);
                goto done;
            }
            uint32_t *tri = malloc((n ? n : 1) * sizeof *tri);
            for (uint64_t i = 0; i < n; i++) {
                const uint8_t *p = bin + off + i * cs;
                tri[i] = cs == 1   ? p[0]
                         : cs == 2 ? (uint32_t)(p[0] | p[1] << 8)
                                   : (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                                         (uint32_t)p[3] << 24;
                if (tri[i] >= nv) {
                    fmt(g->error, sizeof g->error, "mesh %zu primitive %zu: index %u >= %llu", mi,
                        pi, tri[i], (unsigned long long)nv);
                    free(tri);
                    goto done;
                }
            }
            add_level(g, 0, tri, (size_t)n, (uint32_t)nv);
            free(tri);
        }
    }
    g->ok = g->prims > 0;
    if (!g->ok) fmt(g->error, sizeof g->error, "%s: no triangles", path);
done:
    free(counted);
    free(bin);
    json_decref(doc);
}

/* Bytes of the attributes of a that b does not store at all. */
static uint64_t extra_bytes(const geo *a, const geo *b, char *names, size_t size)
{
    uint64_t extra = 0;
    names[0] = '\0';
    for (uint32_t i = 0; i < a->name_count; i++) {
        bool found = false;
        for (uint32_t j = 0; j < b->name_count; j++) found |= strcmp(a->names[i], b->names[j]) == 0;
        if (!found) {
            extra += a->name_bytes[i];
            append(names, size, "%s%s", names[0] ? "," : "", a->names[i]);
        }
    }
    return extra;
}

static double acmr(const geo *g, uint32_t level)
{
    return level < g->level_count && g->tris[level]
               ? (double)g->misses[level] / (double)g->tris[level]
               : NAN;
}

/* ---- main ------------------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(
        stderr,
        "usage: bench_models --corpus DIR [--runs N] [--kiln PATH] [--gltfpack PATH] [--workdir DIR]\n");
    exit(2);
}

static void print_command(const bench_case *c, const char *prog)
{
    printf("  %-9s %s", c->name, prog);
    for (int i = 0; i < MAX_ARGS && c->args[i]; i++) printf(" %s", c->args[i]);
    printf("\n            %s\n", c->what);
}

static void load_average(char *out, size_t size)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double a = 0, b = 0, c = 0;
    if (f && fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3) fmt(out, size, "%.1f %.1f %.1f", a, b, c);
    else fmt(out, size, "unknown");
    if (f) fclose(f);
}

int main(int argc, char **argv)
{
    const char *corpus = NULL, *kiln_arg = NULL, *gp_arg = "gltfpack", *workdir_arg = NULL;
    int runs = 5;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) usage();
        if (strcmp(argv[i], "--corpus") == 0) corpus = argv[++i];
        else if (strcmp(argv[i], "--runs") == 0) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--kiln") == 0) kiln_arg = argv[++i];
        else if (strcmp(argv[i], "--gltfpack") == 0) gp_arg = argv[++i];
        else if (strcmp(argv[i], "--workdir") == 0) workdir_arg = argv[++i];
        else usage();
    }
    if (!corpus) usage();
    if (runs < 1) runs = 1;
    if (runs > MAX_RUNS) runs = MAX_RUNS;

    char kiln[PATH_MAX], gp[PATH_MAX];
    if (kiln_arg) {
        fmt(kiln, sizeof kiln, "%s", kiln_arg);
    } else {
        /* <build>/bench/bench_models -> <build>/tools/kiln/kiln */
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0) usage();
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) *slash = '\0';
        fmt(kiln, sizeof kiln, "%s/../tools/kiln/kiln", self);
    }
    if (access(kiln, X_OK) != 0) {
        fprintf(stderr, "bench_models: %s is not built (--kiln PATH)\n", kiln);
        return 2;
    }
    if (!find_program(gp_arg, gp, sizeof gp)) {
        printf(
            "bench_models: gltfpack not found (Debian package gltfpack, scripts/setup.sh installs it); "
            "the model cook comparison is skipped\n");
        return 0;
    }
    for (size_t m = 0; m < MODEL_COUNT; m++) {
        char in[PATH_MAX];
        fmt(in, sizeof in, "%s/%s", corpus, models[m].path);
        if (access(in, R_OK) != 0) {
            printf(
                "bench_models: %s is missing from the corpus; the model cook comparison is skipped\n",
                in);
            return 0;
        }
    }
    char work[PATH_MAX];
    bool temporary = !workdir_arg;
    if (workdir_arg) {
        fmt(work, sizeof work, "%s", workdir_arg);
        if (!mkdirs(work)) {
            perror(work);
            return 2;
        }
    } else {
        struct stat st;
        const char *base = stat("/dev/shm", &st) == 0 && access("/dev/shm", W_OK) == 0 ? "/dev/shm"
                           : getenv("TMPDIR") ? getenv("TMPDIR")
                                              : "/tmp";
        fmt(work, sizeof work, "%s/kiln-bench-models.XXXXXX", base);
        if (!mkdtemp(work)) {
            perror("bench_models: mkdtemp");
            return 2;
        }
    }

    char load0[64], load1[64];
    load_average(load0, sizeof load0);
    printf("Model cook against gltfpack: geometry only, %d runs per case, interleaved\n", runs);
    printf("kiln: %s\ngltfpack: %s (Debian 0.18)\ncorpus: %s\noutputs: %s%s\n", kiln, gp, corpus,
           work, temporary ? " (removed at the end; --workdir DIR keeps them)" : "");
    printf(
        "CPU = user + sys time of the process and all its threads (wait4), wall = fork to exit; medians.\n");
    printf(
        "load average at start: %s (%ld CPUs online)\n\ncases (IN = the model's .gltf, OUT = a folder per case):\n",
        load0, sysconf(_SC_NPROCESSORS_ONLN));
    for (size_t c = 0; c < CASE_COUNT; c++)
        print_command(&cases[c], cases[c].tool == TOOL_KILN ? "kiln" : "gltfpack");

    /* Warm-up and the untimed cases: every case once, so files are cached and outputs exist. */
    char store[MAX_ARGS][PATH_MAX];
    char *av[MAX_ARGS + 1];
    for (size_t m = 0; m < MODEL_COUNT; m++) {
        char in[PATH_MAX];
        fmt(in, sizeof in, "%s/%s", corpus, models[m].path);
        for (size_t c = 0; c < CASE_COUNT; c++) {
            char out[PATH_MAX], errp[PATH_MAX];
            fmt(out, sizeof out, "%s/%s/%s", work, models[m].name, cases[c].name);
            fmt(errp, sizeof errp, "%s/%s/%s.stderr", work, models[m].name, cases[c].name);
            if (!mkdirs(out)) {
                perror(out);
                return 2;
            }
            case_argv(&cases[c], cases[c].tool == TOOL_KILN ? kiln : gp, in, out, store, av);
            sample s;
            if (run(av, NULL, errp, &s) != 0) {
                fprintf(stderr, "bench_models: %s %s failed; its stderr is in %s\n", models[m].name,
                        cases[c].name, errp);
                return 1;
            }
        }
    }

    /* Timed runs: per run, every model and every timed case, the first case rotating. */
    char *kv[] = {kiln, "--version", NULL}, *gv[] = {gp, "-v", NULL};
    for (int r = 0; r < runs; r++) {
        if (run(kv, NULL, NULL, &start_kiln[r]) != 0 || run(gv, NULL, NULL, &start_gp[r]) != 0) {
            fprintf(stderr, "bench_models: %s --version or %s -v failed\n", kiln, gp);
            return 1;
        }
        for (size_t m = 0; m < MODEL_COUNT; m++) {
            char in[PATH_MAX];
            fmt(in, sizeof in, "%s/%s", corpus, models[m].path);
            for (size_t k = 0; k < CASE_COUNT; k++) {
                size_t c = (k + (size_t)r) % CASE_COUNT;
                if (!cases[c].timed) continue;
                char out[PATH_MAX];
                fmt(out, sizeof out, "%s/%s/%s", work, models[m].name, cases[c].name);
                case_argv(&cases[c], cases[c].tool == TOOL_KILN ? kiln : gp, in, out, store, av);
                if (run(av, NULL, NULL, &timings[m][c][r]) != 0) {
                    fprintf(stderr, "bench_models: %s %s failed in run %d\n", models[m].name,
                            cases[c].name, r + 1);
                    return 1;
                }
            }
        }
    }
    load_average(load1, sizeof load1);

    /* Geometry of the outputs. */
    static geo g[MODEL_COUNT][CASE_COUNT];
    for (size_t m = 0; m < MODEL_COUNT; m++)
        for (size_t c = 0; c < CASE_COUNT; c++) {
            char out[PATH_MAX];
            fmt(out, sizeof out, "%s/%s/%s", work, models[m].name, cases[c].name);
            if (cases[c].tool == TOOL_KILN) kiln_geometry(out, &g[m][c]);
            else gltfpack_geometry(out, &g[m][c]);
            if (!g[m][c].ok) {
                fprintf(stderr, "bench_models: %s %s: %s\n", models[m].name, cases[c].name,
                        g[m][c].error);
                return 1;
            }
        }

    static const int shown[] = {C_GP_SI, C_GP_FULL,  C_K_DEF, C_K_DEF_J2,
                                C_K_JOB, C_K_JOB_J2, C_K_FULL};
    const int nshown = (int)(sizeof shown / sizeof shown[0]);
    for (int pass = 0; pass < 2; pass++) {
        bool cpu = pass == 0;
        printf("\n%s ms, median of %d%s\n%-14s", cpu ? "CPU (user+sys)" : "wall", runs,
               cpu ? "" : " (the box is shared: see CPU)", "model");
        for (int i = 0; i < nshown; i++) printf(" %9s", cases[shown[i]].name);
        printf("\n");
        for (size_t m = 0; m < MODEL_COUNT; m++) {
            printf("%-14s", models[m].name);
            for (int i = 0; i < nshown; i++)
                printf(" %9.1f", median_of(timings[m][shown[i]], runs, cpu));
            printf("\n");
        }
        printf("process start: gltfpack -v %.1f, kiln --version %.1f\n",
               median_of(start_gp, runs, cpu), median_of(start_kiln, runs, cpu));
    }

    printf(
        "\nratios kiln / gltfpack (median CPU; wall in brackets)\n%-14s %16s %16s %16s %16s %16s\n",
        "model", "k-job/gp-si", "k-def/gp-si", "k-job-j2/gp-si", "k-job/(full+si)",
        "k-full/gp-full");
    for (size_t m = 0; m < MODEL_COUNT; m++) {
        double si = median_of(timings[m][C_GP_SI], runs, true),
               full = median_of(timings[m][C_GP_FULL], runs, true);
        double siw = median_of(timings[m][C_GP_SI], runs, false),
               fullw = median_of(timings[m][C_GP_FULL], runs, false);
        const int num[] = {C_K_JOB, C_K_DEF, C_K_JOB_J2, C_K_JOB, C_K_FULL};
        const double den[] = {si, si, si, si + full, full},
                     denw[] = {siw, siw, siw, siw + fullw, fullw};
        printf("%-14s", models[m].name);
        for (int i = 0; i < 5; i++) {
            char cell[32];
            fmt(cell, sizeof cell, "%.2fx [%.2fx]",
                median_of(timings[m][num[i]], runs, true) / den[i],
                median_of(timings[m][num[i]], runs, false) / denw[i]);
            printf(" %16s", cell);
        }
        printf("\n");
    }

    printf("\ntriangles, and ACMR (FIFO 16) of the final index buffers; L1 = kiln's 0.5 level\n"
           "%-14s %7s %7s %8s %8s %7s | %7s %7s %7s %8s %8s %7s\n",
           "model", "k LOD0", "gp-full", "k-def L1", "k-job L1", "gp-si", "k-def", "k-full",
           "gp-full", "k-def L1", "k-job L1", "gp-si");
    bool mismatch = false;
    for (size_t m = 0; m < MODEL_COUNT; m++) {
        const geo *kd = &g[m][C_K_DEF], *kj = &g[m][C_K_JOB], *kf = &g[m][C_K_FULL],
                  *gs = &g[m][C_GP_SI], *gf = &g[m][C_GP_FULL];
        char l1d[16] = "-", l1j[16] = "-", a1d[16] = "-", a1j[16] = "-";
        if (kd->level_count > 1)
            fmt(l1d, sizeof l1d, "%llu", (unsigned long long)kd->tris[1]),
                fmt(a1d, sizeof a1d, "%.3f", acmr(kd, 1));
        if (kj->level_count > 1)
            fmt(l1j, sizeof l1j, "%llu", (unsigned long long)kj->tris[1]),
                fmt(a1j, sizeof a1j, "%.3f", acmr(kj, 1));
        printf("%-14s %7llu %7llu %8s %8s %7llu | %7.3f %7.3f %7.3f %8s %8s %7.3f\n",
               models[m].name, (unsigned long long)kd->tris[0], (unsigned long long)gf->tris[0],
               l1d, l1j, (unsigned long long)gs->tris[0], acmr(kd, 0), acmr(kf, 0), acmr(gf, 0),
               a1d, a1j, acmr(gs, 0));
        for (size_t c = 0; c < CASE_COUNT; c++) mismatch |= g[m][c].acmr_mismatch;
    }
    printf(
        "(k-def LOD0 has the overdraw pass, k-full not; \"-\": kiln made no such level; own FIFO and meshopt_analyzeVertexCache(16,0,0) %s)\n",
        mismatch ? "DISAGREE somewhere" : "agree on every buffer");
    printf("kiln level counts (k-def):");
    for (size_t m = 0; m < MODEL_COUNT; m++) {
        printf(" %s", models[m].name);
        for (uint32_t l = 0; l < g[m][C_K_DEF].level_count; l++)
            printf("%s%llu", l ? "/" : " ", (unsigned long long)g[m][C_K_DEF].tris[l]);
        printf(m + 1 < MODEL_COUNT ? ";" : "\n");
    }

    printf(
        "\nvertices and vertex bytes (kiln: the shared buffer of all levels; gp-si holds only its level's)\n"
        "%-14s %8s %8s %8s | %9s %9s %9s %9s %7s\n",
        "model", "k", "gp-full", "gp-si", "k", "gp-full", "gp-full16", "gp-si", "k/gp16");
    for (size_t m = 0; m < MODEL_COUNT; m++) {
        const geo *kd = &g[m][C_K_DEF], *gf = &g[m][C_GP_FULL], *g16 = &g[m][C_GP_FULL16],
                  *gs = &g[m][C_GP_SI];
        printf("%-14s %8llu %8llu %8llu | %9llu %9llu %9llu %9llu %6.2fx\n", models[m].name,
               (unsigned long long)kd->vertices, (unsigned long long)gf->vertices,
               (unsigned long long)gs->vertices, (unsigned long long)kd->vertex_bytes,
               (unsigned long long)gf->vertex_bytes, (unsigned long long)g16->vertex_bytes,
               (unsigned long long)gs->vertex_bytes,
               (double)kd->vertex_bytes / (double)g16->vertex_bytes);
    }
    printf("bytes per vertex by attribute:\n");
    for (size_t m = 0; m < MODEL_COUNT; m++)
        printf("  %-14s kiln %-34s gltfpack %-28s -vp 16 -vt 16: %s\n", models[m].name,
               g[m][C_K_DEF].layout, g[m][C_GP_FULL].layout, g[m][C_GP_FULL16].layout);

    printf(
        "\ntarget: \"Geometry-only cook of each bench model <= 1.5x gltfpack's time for the same work, "
        "vertex bytes no larger than gltfpack's at equal precision\"\n"
        "(time: k-job -j1 against gp-si, median CPU; bytes: k-job's vertex buffer against gp-full16, "
        "gltfpack's full mesh with positions and UVs at kiln's 16 bits)\n");
    int misses = 0;
    for (size_t m = 0; m < MODEL_COUNT; m++) {
        double k = median_of(timings[m][C_K_JOB], runs, true),
               s = median_of(timings[m][C_GP_SI], runs, true);
        const geo *kd = &g[m][C_K_JOB],
                  *g16 = &g[m][C_GP_FULL16]; /* the same settings as the time */
        bool t_ok = k <= 1.5 * s, b_ok = kd->vertex_bytes <= g16->vertex_bytes;
        char extra_names[64];
        uint64_t extra = extra_bytes(kd, g16, extra_names, sizeof extra_names);
        printf("%-14s time %s: %.1f / %.1f ms CPU = %.2fx;  vertex bytes %s: %llu / %llu = %.3fx",
               models[m].name, t_ok ? "PASS" : "MISS", k, s, k / s, b_ok ? "PASS" : "MISS",
               (unsigned long long)kd->vertex_bytes, (unsigned long long)g16->vertex_bytes,
               (double)kd->vertex_bytes / (double)g16->vertex_bytes);
        if (extra)
            printf(" (kiln stores %s, %llu bytes, gltfpack does not; without it %.3fx)",
                   extra_names, (unsigned long long)extra,
                   (double)(kd->vertex_bytes - extra) / (double)g16->vertex_bytes);
        printf("\n");
        misses += !t_ok + !b_ok;
    }
    printf("overall: %s (%d of %zu checks missed)\nload average at end: %s\n",
           misses ? "MISS" : "PASS", misses, 2 * MODEL_COUNT, load1);
    if (temporary) nftw(work, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}
