/* bench_runtime.c — how fast libkiln_rt loads cooked data from a warm page
 * cache, next to the limit (memcpy of the same bytes) and plain read() of the same files; and
 * handle look-ups per second. A program that prints, not a test.
 *
 *   bench_runtime [--corpus DIR | --cache DIR [--pack FILE]] [--runs N] [--workdir DIR]
 *                 [--only CLASS]
 *
 * --workdir keeps the cooked project there (then --cache WORKDIR/.kiln/cache measures it again
 * without cooking); --only measures one class (0..3 in the order below), for a profiler.
 * --corpus (default <repo>/../shared/corpus/gltf): DamagedHelmet, SheenCloth, Suzanne, Avocado,
 * CesiumMan and Fox are cooked with libkiln into a temporary project twice, once with raw
 * vertex streams and once with meshopt-compressed ones (import.model.compress), and each source
 * image also as a texture asset with zstd supercompression; texture quality "fast" (load speed
 * does not depend on it), and packed into WORKDIR/game.kpak with raw payloads. --cache measures
 * an existing kiln cache instead (with --pack, also a pack of it).
 *
 * Classes of artifacts, each measured as a whole: meshes (raw streams), meshes (meshopt), KTX2
 * textures (no supercompression), KTX2 textures (zstd). For each, interleaved over --runs runs
 * (default 5), wall time of:
 *   memcpy   the files' bytes, already in memory, into a pre-faulted buffer of the same size
 *   read()   open + read + close of every file into a pre-faulted buffer (warm page cache)
 *   read() fresh  the same into a new malloc per file (what a loader that reads files pays)
 *   decoder alone  (compressed classes) meshoptimizer's or zstd's decode of every file from
 *            memory into pre-faulted memory: compressed data cannot be used in place, so this,
 *            not memcpy, is what a load of such data can reach
 *   load     krt_load of every artifact by name with the null renderer (CPU data only), then
 *            krt_finish: read, checks, decode; 1 worker thread, and the thread waiting in
 *            krt_finish runs queued jobs too (the CPU-time column counts both); with
 *            verification (container XXH3-64, manifest XXH3-128 of KTX2 files, SHA-256 for
 *            manifests without it) and without (no_verify)
 *   pack load  the same from the pack (mapped; raw entries used in place; entry XXH3 checked
 *            unless no_verify)
 * Meshes pull in their materials and textures: those are loaded and held before the timed part,
 * so it covers the meshes alone. Assets/s and MB/s (file bytes) are of the medians; ratios are
 * memcpy time / load time (1.0 = as fast as memcpy). Look-ups: krt_lookup by name,
 * krt_lookup_id, krt_state_of on live handles, over every artifact many times. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kiln/kiln.h"
#include "kiln/kiln_rt.h"

#define MAX_RUNS 64

static const char *const default_models[] = {"DamagedHelmet", "SheenCloth", "Suzanne",
                                             "Avocado",       "CesiumMan",  "Fox"};
#define DEFAULT_MODEL_COUNT (sizeof default_models / sizeof default_models[0])
#define MAX_MODELS          256

enum { CLS_MESH, CLS_MESH_MESHOPT, CLS_TEX, CLS_TEX_ZSTD, CLS_COUNT };
static const char *const class_names[CLS_COUNT] = {"meshes (raw streams)", "meshes (meshopt)",
                                                   "textures (KTX2)", "textures (KTX2+zstd)"};

typedef struct art {
    char *name; /* path#label */
    char *file; /* the cooked file */
    krt_type type;
    int cls; /* CLS_*, or -1 (not measured: materials, skeletons, clips, scenes) */
    size_t size;
    uint8_t *bytes; /* the file, read once (memcpy's source) */
    size_t offset;  /* in the destination buffers */
} art;

typedef struct bench {
    art *arts;
    size_t count, capacity;
    size_t bytes[CLS_COUNT], counts[CLS_COUNT], largest;
    size_t total_bytes;
    uint8_t *dst;     /* total_bytes, pre-faulted */
    uint8_t *dec_buf; /* dec_cap bytes, pre-faulted: the decoded bytes of the largest class */
    size_t dec_cap, dec_bytes[CLS_COUNT];
} bench;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* CPU time of the whole process (every thread, user + sys), ms */
static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(const double *v, int n)
{
    double s[MAX_RUNS];
    memcpy(s, v, (size_t)n * sizeof *v);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static void die(const char *what)
{
    fprintf(stderr, "bench_runtime: %s\n", what);
    exit(1);
}

static char *fmt(const char *f, const char *a, const char *b, const char *c)
{
    char *s = NULL;
    if (asprintf(&s, f, a, b, c) < 0) die("out of memory");
    return s;
}

/* The file's bytes in fresh memory (memcpy's source). Read through a mapping advised for huge
 * pages, as libkiln_rt maps files (kiln_file_map): a file not in the page cache comes in the
 * way the runtime's own first load would bring it (large folios); one already cached stays as
 * it is (the output says how much of each class is in large folios). */
static uint8_t *read_whole(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0) close(fd);
        return NULL;
    }
    size_t n = (size_t)st.st_size;
    uint8_t *b = malloc(n ? n : 1);
    if (b && n) {
        void *m = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0);
        if (m == MAP_FAILED) {
            free(b);
            b = NULL;
        } else {
            (void)madvise(m, n, MADV_HUGEPAGE);
            memcpy(b, m, n);
            munmap(m, n);
        }
    }
    close(fd);
    *size = n;
    return b;
}

/* ---- cooking the corpus ------------------------------------------------------------------- */

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) die("cannot write a .meta file");
}

static void run_shell(const char *cmd)
{
    if (system(cmd) != 0) {
        fprintf(stderr, "bench_runtime: failed: %s\n", cmd);
        exit(1);
    }
}

/* raw/<model>: the whole glTF folder, textures cooked fast, each image also a texture asset
 * with zstd levels; meshopt/<model>: the .gltf and .bin only, meshopt streams, no textures. */
static char *cook(const char *corpus, const char *const *models, size_t model_count,
                  const char *workdir, char **pack)
{
    static const char raw_meta[] = "{\"import\":{\"model\":{\"texture_quality\":\"fast\"}}}";
    static const char mo_meta[] =
        "{\"import\":{\"model\":{\"compress\":\"meshopt\",\"textures\":false}}}";
    static const char tex_meta[] =
        "{\"import\":{\"texture\":{\"supercompression\":\"zstd\",\"quality\":\"fast\"}}}";
    for (size_t m = 0; m < model_count; m++) {
        char *src = fmt("%s/%s/glTF", corpus, models[m], "");
        struct stat st;
        if (stat(src, &st) != 0) {
            fprintf(stderr, "bench_runtime: %s is missing from the corpus; skipped\n", src);
            free(src);
            continue;
        }
        char *raw = fmt("%s/assets/raw/%s", workdir, models[m], "");
        char *mo = fmt("%s/assets/meshopt/%s", workdir, models[m], "");
        char *cmd = NULL;
        if (asprintf(&cmd,
                     "mkdir -p '%s' '%s' && cp -r '%s'/. '%s'/ && cp '%s'/*.gltf '%s'/ && "
                     "for f in '%s'/*.bin; do [ ! -e \"$f\" ] || cp \"$f\" '%s'/; done && "
                     "chmod -R u+w '%s/assets'",
                     raw, mo, src, raw, src, mo, src, mo, workdir) < 0)
            die("out of memory");
        run_shell(cmd);
        free(cmd);
        /* a .meta beside every .gltf (raw or meshopt settings) and every image (zstd texture) */
        for (int pass = 0; pass < 2; pass++) {
            const char *dir = pass ? mo : raw;
            DIR *d = opendir(dir);
            struct dirent *e;
            while (d && (e = readdir(d))) {
                size_t n = strlen(e->d_name);
                const char *text = NULL;
                if (n > 5 && strcmp(e->d_name + n - 5, ".gltf") == 0)
                    text = pass ? mo_meta : raw_meta;
                else if (!pass && n > 4 &&
                         (strcmp(e->d_name + n - 4, ".png") == 0 ||
                          strcmp(e->d_name + n - 4, ".jpg") == 0))
                    text = tex_meta;
                if (!text) continue;
                char *meta = fmt("%s/%s.meta", dir, e->d_name, "");
                write_text(meta, text);
                free(meta);
            }
            if (d) closedir(d);
        }
        free(raw);
        free(mo);
        free(src);
    }
    kiln_project_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.project_dir = workdir;
    kiln_project *p = NULL;
    kiln_error err;
    if (kiln_project_open(&o, &p, &err) != KILN_OK) die(err.message);
    char *doc = NULL;
    double t0 = now_ms();
    if (kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &doc, &err) != KILN_OK) {
        fprintf(stderr, "bench_runtime: import: %s\n", err.message);
        exit(1);
    }
    fprintf(stderr, "bench_runtime: cooked the corpus in %.1f s\n", (now_ms() - t0) / 1e3);
    kiln_string_free(doc);
    /* and a pack of all of it with raw payloads: mapped, used in place */
    kiln_pack_opts po;
    memset(&po, 0, sizeof po);
    po.struct_size = sizeof po;
    *pack = fmt("%s/game.kpak", workdir, "", "");
    po.output = *pack;
    po.compress = KILN_PACK_COMPRESS_NONE;
    if (kiln_project_pack(p, NULL, 0, KILN_IMPORT_ALL, &po, &doc, &err) != KILN_OK) {
        fprintf(stderr, "bench_runtime: pack: %s\n", err.message);
        exit(1);
    }
    kiln_string_free(doc);
    kiln_project_close(p);
    return fmt("%s/.kiln/cache", workdir, "", "");
}

/* ---- the artifacts of a cache --------------------------------------------------------------- */

static krt_type type_of_label(const char *label)
{
    if (strncmp(label, "image", 5) == 0 || strcmp(label, "texture") == 0) return KRT_TYPE_TEXTURE;
    if (strncmp(label, "mesh", 4) == 0) return KRT_TYPE_MESH;
    if (strncmp(label, "material", 8) == 0) return KRT_TYPE_MATERIAL;
    if (strncmp(label, "skeleton", 8) == 0) return KRT_TYPE_SKELETON;
    if (strncmp(label, "clip", 4) == 0) return KRT_TYPE_CLIP;
    if (strcmp(label, "scene") == 0) return KRT_TYPE_SCENE;
    return KRT_TYPE_NONE;
}

static void add_art(bench *b, const char *path, const char *label, const char *file, bool meshopt)
{
    if (b->count == b->capacity) {
        b->capacity = b->capacity ? 2 * b->capacity : 256;
        b->arts = realloc(b->arts, b->capacity * sizeof *b->arts);
        if (!b->arts) die("out of memory");
    }
    art *a = &b->arts[b->count++];
    memset(a, 0, sizeof *a);
    a->name = fmt("%s#%s", path, label, "");
    a->file = fmt("%s", file, "", "");
    a->type = type_of_label(label);
    a->cls = -1;
    a->bytes = read_whole(file, &a->size); /* warms the page cache too, as the runtime would */
    if (!a->bytes) die("cannot read a cooked file");
    if (a->type == KRT_TYPE_MESH) a->cls = meshopt ? CLS_MESH_MESHOPT : CLS_MESH;
    if (a->type == KRT_TYPE_TEXTURE && a->size >= 48) {
        uint32_t scheme = (uint32_t)a->bytes[44] | (uint32_t)a->bytes[45] << 8 |
                          (uint32_t)a->bytes[46] << 16 | (uint32_t)a->bytes[47] << 24;
        a->cls = scheme == 2 ? CLS_TEX_ZSTD : CLS_TEX;
    }
    if (a->cls >= 0) {
        a->offset = b->total_bytes;
        b->total_bytes += a->size;
        b->bytes[a->cls] += a->size;
        b->counts[a->cls]++;
    }
}

/* The page cache's state for a file: how many of its pages sit in large folios (over 4 KiB).
 * A file written by kiln's cook usually is (large writes make large folios); one evicted and
 * read back with a plain read() lies in 4 KiB pages, and then every path through the kernel —
 * read(), page faults of a mapping — does per-page work: read() of such files runs at ~55-65 %
 * of memcpy speed instead of ~90-110 %. Needs root (PFNs in /proc/self/pagemap and
 * /proc/kpageflags); false when they cannot be read. */
static bool folio_state(const char *path, size_t *pages, size_t *large)
{
    enum { COMPOUND_HEAD = 15, COMPOUND_TAIL = 16 };
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
        if (fd >= 0) close(fd);
        return fd >= 0;
    }
    size_t size = (size_t)st.st_size, page = (size_t)sysconf(_SC_PAGESIZE),
           n = (size + page - 1) / page;
    const volatile uint8_t *m = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return false;
    int pm = open("/proc/self/pagemap", O_RDONLY), kf = open("/proc/kpageflags", O_RDONLY);
    bool ok = pm >= 0 && kf >= 0;
    for (size_t i = 0; ok && i < n; i++) {
        (void)m[i * page]; /* map it */
        uint64_t e = 0, flags = 0;
        ok = pread(pm, &e, 8, (off_t)(((uintptr_t)m / page + i) * 8)) == 8;
        uint64_t pfn = e & ((1ull << 55) - 1);
        ok = ok && pfn && pread(kf, &flags, 8, (off_t)(pfn * 8)) == 8;
        if (!ok) break;
        (*pages)++;
        if (flags >> COMPOUND_HEAD & 1 || flags >> COMPOUND_TAIL & 1) (*large)++;
    }
    if (pm >= 0) close(pm);
    if (kf >= 0) close(kf);
    munmap((void *)(uintptr_t)m, size);
    return ok;
}

/* Every output of every record's manifest (jansson; the runtime has its own reader). */
static void read_cache(bench *b, const char *cache)
{
    char *adir = fmt("%s/assets", cache, "", "");
    DIR *d = opendir(adir);
    if (!d) die("not a kiln cache folder (no assets/)");
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strstr(e->d_name, ".json")) continue;
        char *rp = fmt("%s/%s", adir, e->d_name, "");
        json_t *rec = json_load_file(rp, 0, NULL);
        free(rp);
        const char *key = json_string_value(json_object_get(rec, "key"));
        const char *path = json_string_value(json_object_get(rec, "path"));
        if (!key || !path || strlen(key) < 2) {
            json_decref(rec);
            continue;
        }
        char kk[3] = {key[0], key[1], 0};
        char *edir = NULL;
        if (asprintf(&edir, "%s/objects/%s/%s", cache, kk, key) < 0) die("out of memory");
        char *mp = fmt("%s/manifest.json", edir, "", "");
        json_t *man = json_load_file(mp, 0, NULL);
        free(mp);
        const char *compress = json_string_value(json_object_get(
            json_object_get(json_object_get(man, "settings"), "model"), "compress"));
        bool meshopt = compress && strcmp(compress, "meshopt") == 0;
        size_t i;
        json_t *o;
        json_array_foreach (json_object_get(man, "outputs"), i, o) {
            const char *label = json_string_value(json_object_get(o, "label"));
            const char *file = json_string_value(json_object_get(o, "file"));
            if (!label || !file) continue;
            char *fp = fmt("%s/%s", edir, file, "");
            add_art(b, path, label, fp, meshopt);
            free(fp);
        }
        json_decref(man);
        json_decref(rec);
        free(edir);
    }
    closedir(d);
    free(adir);
    b->dst = malloc(b->total_bytes ? b->total_bytes : 1);
    if (!b->dst) die("out of memory");
    memset(b->dst, 1, b->total_bytes); /* pre-faulted */
}

/* ---- the measurements ----------------------------------------------------------------------- */

static volatile uint8_t g_sink; /* keeps the copies observable */

static double time_memcpy(bench *b, int cls, double *cpu)
{
    double c0 = cpu_ms(), t0 = now_ms();
    for (size_t i = 0; i < b->count; i++) {
        art *a = &b->arts[i];
        if (a->cls == cls) memcpy(b->dst + a->offset, a->bytes, a->size);
    }
    double t = now_ms() - t0;
    *cpu = cpu_ms() - c0;
    g_sink = b->dst[b->total_bytes / 2];
    return t;
}

static double time_read(bench *b, int cls, double *cpu)
{
    double c0 = cpu_ms(), t0 = now_ms();
    for (size_t i = 0; i < b->count; i++) {
        art *a = &b->arts[i];
        if (a->cls != cls) continue;
        int fd = open(a->file, O_RDONLY);
        if (fd < 0) die("cannot open a cooked file");
        size_t n = 0;
        while (n < a->size) {
            ssize_t got = read(fd, b->dst + a->offset + n, a->size - n);
            if (got <= 0) die("cannot read a cooked file");
            n += (size_t)got;
        }
        close(fd);
    }
    double t = now_ms() - t0;
    *cpu = cpu_ms() - c0;
    g_sink = b->dst[b->total_bytes / 2];
    return t;
}

/* read() into fresh memory (malloc per file, as a loader that does not map files must): the
 * page faults of new memory are part of it; freeing is not timed. */
static double time_read_fresh(bench *b, int cls, double *cpu)
{
    uint8_t **mem = calloc(b->count, sizeof *mem);
    if (!mem) die("out of memory");
    double c0 = cpu_ms(), t0 = now_ms();
    for (size_t i = 0; i < b->count; i++) {
        art *a = &b->arts[i];
        if (a->cls != cls) continue;
        mem[i] = malloc(a->size);
        int fd = open(a->file, O_RDONLY);
        if (!mem[i] || fd < 0) die("cannot read a cooked file");
        size_t n = 0;
        while (n < a->size) {
            ssize_t got = read(fd, mem[i] + n, a->size - n);
            if (got <= 0) die("cannot read a cooked file");
            n += (size_t)got;
        }
        close(fd);
    }
    double t = now_ms() - t0;
    *cpu = cpu_ms() - c0;
    for (size_t i = 0; i < b->count; i++) {
        if (mem[i]) g_sink = mem[i][0];
        free(mem[i]);
    }
    free(mem);
    return t;
}

/* One compressed file's decode (meshopt streams of a mesh, zstd levels of a KTX2 file) into dst,
 * from the bytes in memory, with the format reader's structural checks but no checksum. dst
 * NULL: only the decoded size. */
static size_t decode_one(const art *a, uint8_t *dst, size_t cap)
{
    kiln_error err;
    size_t total = 0;
    if (a->type == KRT_TYPE_MESH) {
        kiln_mesh_view v;
        if (kiln_mesh_read(a->bytes, a->size, KILN_CONTAINER_SKIP_CHECKSUM, &v, &err) != KILN_OK)
            die(err.message);
        for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++) {
            const kiln_mesh_stream *st = &v.streams[s];
            size_t n = (size_t)(st->count * st->stride);
            if (st->format == KILN_MESH_FORMAT_NONE || !st->data || n == 0) continue;
            if (dst && (n > cap - total || kiln_mesh_unpack(&v, (kiln_mesh_stream_id)s, dst + total,
                                                            n, &err) != KILN_OK))
                die("cannot decode a mesh stream");
            total += n;
        }
        return total;
    }
    kiln_ktx2_info k;
    if (kiln_ktx2_read(a->bytes, a->size, &k, &err) != KILN_OK) die(err.message);
    for (uint32_t l = 0; l < k.level_count && l < KILN_KTX2_MAX_LEVELS; l++) {
        size_t n = k.levels[l].uncompressed_size;
        if (dst &&
            (n > cap - total || kiln_ktx2_level_copy(&k, l, dst + total, n, &err) != KILN_OK))
            die("cannot decode a KTX2 level");
        total += n;
    }
    return total;
}

/* The decoder alone (meshoptimizer's for compressed meshes, zstd's for supercompressed KTX2
 * levels): every file of the class decoded from memory into pre-faulted memory, no file I/O,
 * no allocation, no checksum. A load of the class cannot be faster than this. */
static double time_decode(bench *b, int cls, double *cpu, size_t *decoded)
{
    if (!b->dec_buf) {
        size_t need = 0;
        for (size_t i = 0; i < b->count; i++)
            if (b->arts[i].cls == CLS_MESH_MESHOPT || b->arts[i].cls == CLS_TEX_ZSTD) {
                size_t n = decode_one(&b->arts[i], NULL, 0);
                b->dec_bytes[b->arts[i].cls] += n;
                need = need > b->dec_bytes[b->arts[i].cls] ? need : b->dec_bytes[b->arts[i].cls];
            }
        b->dec_buf = malloc(need ? need : 1);
        if (!b->dec_buf) die("out of memory");
        memset(b->dec_buf, 1, need ? need : 1); /* pre-faulted */
        b->dec_cap = need;
    }
    double c0 = cpu_ms(), t0 = now_ms();
    size_t at = 0;
    for (size_t i = 0; i < b->count; i++)
        if (b->arts[i].cls == cls) at += decode_one(&b->arts[i], b->dec_buf + at, b->dec_cap - at);
    double t = now_ms() - t0;
    *cpu = cpu_ms() - c0;
    *decoded = at;
    g_sink = b->dec_buf[at / 2];
    return t;
}

/* A context with one worker and `cache` mounted (a pack when it ends in .kpak). */
static krt_context *make_ctx(const char *cache, bool no_verify, double *mount_ms)
{
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 1;
    d.no_verify = no_verify;
    krt_context *ctx = NULL;
    kiln_error err;
    if (krt_create(&d, &ctx, &err) != KILN_OK) die(err.message);
    size_t n;
    double t0 = now_ms();
    size_t len = strlen(cache);
    kiln_result r = len > 5 && strcmp(cache + len - 5, ".kpak") == 0
                        ? krt_mount_pack(ctx, cache, &n, &err)
                        : krt_mount_cache(ctx, cache, &n, &err);
    if (r != KILN_OK) die(err.message);
    if (mount_ms) *mount_ms = now_ms() - t0;
    return ctx;
}

static void check_ready(krt_context *ctx, krt_handle h, const char *name)
{
    if (krt_state_of(ctx, h) == KRT_STATE_READY) return;
    kiln_error e;
    krt_error(ctx, h, &e);
    fprintf(stderr, "bench_runtime: %s did not load: %s\n", name, e.message);
    exit(1);
}

/* Loads every artifact of the class (dependencies loaded and held before); returns the wall ms
 * from the first krt_load to the end of krt_finish. *decoded: CPU bytes the class added. */
static double time_load(bench *b, const char *cache, int cls, bool no_verify, double *mount_ms,
                        uint64_t *decoded, double *cpu)
{
    krt_context *ctx = make_ctx(cache, no_verify, mount_ms);
    krt_handle *h = calloc(b->count, sizeof *h);
    if (!h) die("out of memory");
    kiln_error err;
    if (cls == CLS_MESH || cls == CLS_MESH_MESHOPT) {
        for (size_t i = 0; i < b->count; i++)
            if (b->arts[i].type == KRT_TYPE_MATERIAL)
                h[i] = krt_load(ctx, KRT_TYPE_MATERIAL, b->arts[i].name, &err);
        krt_finish(ctx);
    }
    krt_stats before = {.struct_size = sizeof before}, after = {.struct_size = sizeof after};
    krt_get_stats(ctx, &before);
    double c0 = cpu_ms(), t0 = now_ms();
    for (size_t i = 0; i < b->count; i++)
        if (b->arts[i].cls == cls) h[i] = krt_load(ctx, b->arts[i].type, b->arts[i].name, &err);
    krt_finish(ctx);
    double t = now_ms() - t0;
    *cpu = cpu_ms() - c0;
    krt_get_stats(ctx, &after);
    *decoded = after.resident_bytes - before.resident_bytes;
    for (size_t i = 0; i < b->count; i++) {
        if (!h[i].id) continue;
        check_ready(ctx, h[i], b->arts[i].name);
        krt_release(ctx, h[i], NULL);
    }
    krt_finish(ctx);
    krt_destroy(ctx);
    free(h);
    return t;
}

/* Look-ups per second over every artifact: by name, by id, and the state of live handles. */
static void time_lookups(bench *b, const char *cache, double *by_name, double *by_id, double *state)
{
    krt_context *ctx = make_ctx(cache, true, NULL);
    krt_handle *h = calloc(b->count, sizeof *h);
    uint64_t *ids = calloc(b->count, sizeof *ids);
    if (!h || !ids) die("out of memory");
    kiln_error err;
    for (size_t i = 0; i < b->count; i++) {
        if (!krt_lookup(ctx, b->arts[i].name, &ids[i])) die("an artifact is not mounted");
        if (b->arts[i].type == KRT_TYPE_MESH || b->arts[i].type == KRT_TYPE_CLIP)
            h[i] = krt_load(ctx, b->arts[i].type, b->arts[i].name, &err);
    }
    krt_finish(ctx);
    size_t loops = 2000000 / (b->count ? b->count : 1) + 1, found = 0;
    double t0 = now_ms();
    for (size_t l = 0; l < loops; l++)
        for (size_t i = 0; i < b->count; i++) {
            uint64_t id;
            found += krt_lookup(ctx, b->arts[i].name, &id);
        }
    double t1 = now_ms();
    for (size_t l = 0; l < loops; l++)
        for (size_t i = 0; i < b->count; i++) found += krt_lookup_id(ctx, ids[i]) != KRT_TYPE_NONE;
    double t2 = now_ms();
    size_t live = 0;
    for (size_t l = 0; l < loops; l++)
        for (size_t i = 0; i < b->count; i++)
            if (h[i].id) live += krt_state_of(ctx, h[i]) == KRT_STATE_READY;
    double t3 = now_ms();
    size_t handles = 0;
    for (size_t i = 0; i < b->count; i++) handles += h[i].id != 0;
    if (found != 2 * loops * b->count || live != loops * handles) die("look-ups went wrong");
    *by_name = (double)(loops * b->count) / (t1 - t0) * 1e3;
    *by_id = (double)(loops * b->count) / (t2 - t1) * 1e3;
    *state = handles ? (double)(loops * handles) / (t3 - t2) * 1e3 : 0;
    for (size_t i = 0; i < b->count; i++)
        if (h[i].id) krt_release(ctx, h[i], NULL);
    krt_finish(ctx);
    krt_destroy(ctx);
    free(h);
    free(ids);
}

/* ---- main ------------------------------------------------------------------------------------ */

static int usage(void)
{
    fprintf(stderr,
            "usage: bench_runtime [--corpus DIR [--models A,B,...] | --cache DIR [--pack FILE]] "
            "[--runs N] [--workdir DIR] [--only CLASS]\n  CLASS: 0 meshes, 1 meshes (meshopt), 2 "
            "textures, 3 textures (zstd)\n  --models: folders of the corpus that hold glTF/ "
            "(default DamagedHelmet,SheenCloth,Suzanne,Avocado,CesiumMan,Fox)\n");
    return 2;
}

static const char *load_average(char *buf, size_t size)
{
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f || !fgets(buf, (int)size, f)) snprintf(buf, size, "?");
    if (f) fclose(f);
    buf[strcspn(buf, "\n")] = 0;
    return buf;
}

enum { M_MEMCPY, M_READ, M_READ_FRESH, M_DECODE, M_LOAD, M_LOAD_NV, M_PACK, M_PACK_NV, M_COUNT };
static const char *const m_names[M_COUNT] = {"memcpy",        "read()",         "read() fresh",
                                             "decoder alone", "load",           "load, no verify",
                                             "pack load",     "pack, no verify"};

int main(int argc, char **argv)
{
    const char *corpus = NULL, *cache = NULL, *workdir = NULL, *pack = NULL;
    const char *models[MAX_MODELS];
    size_t model_count = DEFAULT_MODEL_COUNT;
    memcpy(models, default_models, sizeof default_models);
    char *model_list = NULL;
    int runs = 5, only = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--corpus") == 0 && i + 1 < argc) corpus = argv[++i];
        else if (strcmp(argv[i], "--models") == 0 && i + 1 < argc) {
            free(model_list);
            model_list = fmt("%s", argv[++i], "", "");
            model_count = 0;
            for (char *save = NULL, *m = strtok_r(model_list, ",", &save);
                 m && model_count < MAX_MODELS; m = strtok_r(NULL, ",", &save))
                models[model_count++] = m;
            if (!model_count) return usage();
        } else if (strcmp(argv[i], "--cache") == 0 && i + 1 < argc) cache = argv[++i];
        else if (strcmp(argv[i], "--pack") == 0 && i + 1 < argc) pack = argv[++i];
        else if (strcmp(argv[i], "--workdir") == 0 && i + 1 < argc) workdir = argv[++i];
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = atoi(argv[++i]);
        else return usage();
    }
    if (runs < 1 || runs > MAX_RUNS || (corpus && cache) || (pack && !cache) || only >= CLS_COUNT)
        return usage();
    char *tmp = NULL, *cooked = NULL, *packed = NULL; /* tmp: removed at the end; --workdir stays */
    if (!cache) {
        if (!corpus) {
            corpus = KILN_BENCH_SOURCE_DIR "/../shared/corpus/gltf";
            struct stat st;
            if (stat(corpus, &st) != 0) corpus = "/work/shared/corpus/gltf";
        }
        if (!workdir) {
            const char *base = getenv("TMPDIR");
            tmp = fmt("%s/kiln-bench-runtime-XXXXXX", base && *base ? base : "/tmp", "", "");
            if (!mkdtemp(tmp)) die("cannot make a temporary folder");
            workdir = tmp;
        }
        cache = cooked = cook(corpus, models, model_count, workdir, &packed);
        pack = packed;
    }
    bench b;
    memset(&b, 0, sizeof b);
    read_cache(&b, cache);

    double t[CLS_COUNT][M_COUNT][MAX_RUNS], cpu[CLS_COUNT][M_COUNT][MAX_RUNS], mount[MAX_RUNS];
    double lk_name[MAX_RUNS], lk_id[MAX_RUNS], lk_state[MAX_RUNS];
    uint64_t decoded[CLS_COUNT] = {0};
    for (int r = 0; r < runs; r++) {
        for (int c = 0; c < CLS_COUNT; c++) {
            if (only >= 0 && c != only) b.counts[c] = 0; /* --only: one class (for profiles) */
            if (!b.counts[c]) continue;
            t[c][M_MEMCPY][r] = time_memcpy(&b, c, &cpu[c][M_MEMCPY][r]);
            t[c][M_READ][r] = time_read(&b, c, &cpu[c][M_READ][r]);
            t[c][M_READ_FRESH][r] = time_read_fresh(&b, c, &cpu[c][M_READ_FRESH][r]);
            if (c == CLS_MESH_MESHOPT || c == CLS_TEX_ZSTD) {
                size_t dec;
                t[c][M_DECODE][r] = time_decode(&b, c, &cpu[c][M_DECODE][r], &dec);
            }
            t[c][M_LOAD][r] =
                time_load(&b, cache, c, false, &mount[r], &decoded[c], &cpu[c][M_LOAD][r]);
            t[c][M_LOAD_NV][r] =
                time_load(&b, cache, c, true, NULL, &decoded[c], &cpu[c][M_LOAD_NV][r]);
            if (pack) {
                uint64_t dec;
                t[c][M_PACK][r] = time_load(&b, pack, c, false, NULL, &dec, &cpu[c][M_PACK][r]);
                t[c][M_PACK_NV][r] =
                    time_load(&b, pack, c, true, NULL, &dec, &cpu[c][M_PACK_NV][r]);
            }
        }
        time_lookups(&b, cache, &lk_name[r], &lk_id[r], &lk_state[r]);
    }

    char la[128];
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    printf("libkiln_rt: loading cooked data from a warm page cache\n");
    printf("cache: %s (%zu artifacts)\n", cache, b.count);
    printf("%d runs, the cases of a run interleaved; medians of wall time and of CPU time (user + "
           "sys of every thread). %ld CPUs online, load average %s\n",
           runs, cpus, load_average(la, sizeof la));
    printf(
        "load = krt_load of every artifact of the class by name + krt_finish, null renderer, 1 "
        "worker thread\n       (and the thread in krt_finish, which runs queued jobs while it "
        "waits: the CPU column counts both);\n       verification: container XXH3-64, pack entry "
        "XXH3-64, the manifest's XXH3-128 of KTX2 files (SHA-256 without it); memcpy into "
        "pre-faulted memory\n");
    printf("mount of the cache (krt_mount_cache): %.2f ms\n", median_of(mount, runs));
    size_t pack_pages = 0, pack_large = 0;
    if (pack && folio_state(pack, &pack_pages, &pack_large) && pack_pages)
        printf("page cache: %.0f%% of the pack's pages in large folios\n",
               100.0 * (double)pack_large / (double)pack_pages);
    int misses = 0, checks = 0, misses_dec = 0, checks_dec = 0;
    char verdicts[CLS_COUNT][600], limits[CLS_COUNT][200];
    double folio_share[CLS_COUNT];
    for (int c = 0; c < CLS_COUNT; c++) {
        verdicts[c][0] = limits[c][0] = 0;
        if (!b.counts[c]) continue;
        double mb = (double)b.bytes[c] / 1e6;
        printf("\n%s: %zu files, %.2f MB in files, %.2f MB in memory once loaded\n", class_names[c],
               b.counts[c], mb, (double)decoded[c] / 1e6);
        size_t pages = 0, large = 0;
        bool known = true;
        for (size_t i = 0; i < b.count && known; i++)
            if (b.arts[i].cls == c) known = folio_state(b.arts[i].file, &pages, &large);
        folio_share[c] = known && pages ? 100.0 * (double)large / (double)pages : -1;
        if (folio_share[c] >= 0)
            printf("  page cache: %.0f%% of these files' pages in large folios\n", folio_share[c]);
        printf("  %-16s %9s %9s %10s %9s %10s %10s\n", "", "wall ms", "CPU ms", "assets/s", "MB/s",
               "vs memcpy", "(CPU)");
        double base = median_of(t[c][M_MEMCPY], runs), cbase = median_of(cpu[c][M_MEMCPY], runs);
        for (int m = 0; m < M_COUNT; m++) {
            if (!pack && (m == M_PACK || m == M_PACK_NV)) continue;
            if (m == M_DECODE && c != CLS_MESH_MESHOPT && c != CLS_TEX_ZSTD) continue;
            double ms = median_of(t[c][m], runs), cms = median_of(cpu[c][m], runs);
            printf("  %-16s %9.3f %9.3f %10.0f %9.0f %9.1f%% %9.1f%%\n", m_names[m], ms, cms,
                   (double)b.counts[c] / ms * 1e3, mb / ms * 1e3, base / ms * 100,
                   cms > 0 ? cbase / cms * 100 : 0);
        }
        /* per file: what a byte rate hides when the files are small */
        double per = 1e3 / (double)b.counts[c];
        printf("  per file (mean %.1f KB): read() %.1f us, load %.1f us",
               mb * 1e3 / (double)b.counts[c], median_of(t[c][M_READ], runs) * per,
               median_of(t[c][M_LOAD], runs) * per);
        if (pack) printf(", pack load %.1f us", median_of(t[c][M_PACK], runs) * per);
        printf("\n");
        double v = base / median_of(t[c][M_LOAD], runs) * 100;
        double vc = cbase / median_of(cpu[c][M_LOAD], runs) * 100;
        double nv = base / median_of(t[c][M_LOAD_NV], runs) * 100;
        /* The target's premise is data used in place. Compressed data cannot be: it is decoded,
         * and the decoder alone is its limit, so it is judged against half of that instead
         * (and counted apart), its share of memcpy speed still printed. */
        bool in_place = c != CLS_MESH_MESHOPT && c != CLS_TEX_ZSTD;
        double dm = in_place ? 0 : median_of(t[c][M_DECODE], runs);
        double line = in_place ? 50 : 50 * (base / dm); /* % of memcpy speed to reach */
        int *nc = in_place ? &checks : &checks_dec, *nm = in_place ? &misses : &misses_dec;
        (*nc)++;
        *nm += v < line;
        int len = snprintf(verdicts[c], sizeof verdicts[c],
                           "%-22s cache %5.1f%% of memcpy speed: %s "
                           "(CPU %.1f%%; no verify %.1f%%, read() %.1f%%)",
                           class_names[c], v, v >= line ? "PASS" : "MISS", vc, nv,
                           base / median_of(t[c][M_READ], runs) * 100);
        if (in_place && base / median_of(t[c][M_READ], runs) * 100 < line && len > 0 &&
            (size_t)len < sizeof verdicts[c])
            len +=
                snprintf(verdicts[c] + len, sizeof verdicts[c] - (size_t)len,
                         "\n  %-22s (files of %.1f KB on average: per-file costs dominate, read() "
                         "alone is below the line too)",
                         "", mb * 1e3 / (double)b.counts[c]);
        if (in_place && folio_share[c] >= 0 && folio_share[c] < 50 && len > 0 &&
            (size_t)len < sizeof verdicts[c])
            len += snprintf(
                verdicts[c] + len, sizeof verdicts[c] - (size_t)len,
                "\n  %-22s (page cache in 4 KiB pages: %.0f%% in large folios; the kernel's "
                "per-page work slows every path, read() included)",
                "", folio_share[c]);
        if (!in_place) {
            printf("  decoder alone: %.0f MB/s of decoded bytes; the load reaches %.1f%% of it\n",
                   (double)b.dec_bytes[c] / dm / 1e3, dm / median_of(t[c][M_LOAD], runs) * 100);
            double limit = base / dm * 100;
            if (!(limit < 1e6)) limit = 1e6; /* printable whatever the timings */
            snprintf(
                limits[c], sizeof limits[c],
                "\n  %-22s compressed, not used in place: the decoder alone is %.1f%% of memcpy "
                "speed; PASS at half of it (%.1f%%)",
                "", limit, limit / 2);
        }
        if (pack && len > 0 && (size_t)len < sizeof verdicts[c]) {
            double pv = base / median_of(t[c][M_PACK], runs) * 100;
            double pc = cbase / median_of(cpu[c][M_PACK], runs) * 100;
            (*nc)++;
            *nm += pv < line;
            snprintf(verdicts[c] + len, sizeof verdicts[c] - (size_t)len,
                     "\n  %-22s pack  %5.1f%% of memcpy speed: %s (CPU %.1f%%; no verify %.1f%%)",
                     "", pv, pv >= line ? "PASS" : "MISS", pc,
                     base / median_of(t[c][M_PACK_NV], runs) * 100);
        }
    }
    printf("\nlook-ups over %zu artifacts (millions per second)\n", b.count);
    printf(
        "  krt_lookup (name)   %8.2f\n  krt_lookup_id       %8.2f\n  krt_state_of        %8.2f\n",
        median_of(lk_name, runs) / 1e6, median_of(lk_id, runs) / 1e6,
        median_of(lk_state, runs) / 1e6);
    printf("\ntarget: \"loading cooked data at >= 50%% of memcpy speed\" (with verification)\n");
    for (int c = 0; c < CLS_COUNT; c++)
        if (verdicts[c][0]) printf("  %s%s\n", verdicts[c], limits[c]);
    printf("overall: %s (%d of %d checks of data used in place missed); compressed data: %d of %d "
           "checks below half its decoder's speed\nload average at end: %s\n",
           misses ? "MISS" : "PASS", misses, checks, misses_dec, checks_dec,
           load_average(la, sizeof la));

    for (size_t i = 0; i < b.count; i++) {
        free(b.arts[i].name);
        free(b.arts[i].file);
        free(b.arts[i].bytes);
    }
    free(b.arts);
    free(b.dst);
    free(b.dec_buf);
    if (tmp) {
        char *cmd = fmt("rm -rf '%s'", tmp, "", "");
        run_shell(cmd);
        free(cmd);
    }
    free(cooked);
    free(packed);
    free(tmp);
    free(model_list);
    return 0;
}
