/* bench_pack.c — packs: the glTF corpus cooked once into a project, then
 *   - pack build time (kiln_project_pack of every asset, in a forked child: wall, CPU, peak RSS)
 *     and pack size, for --compress none, zstd and auto (zstd level 9, the default);
 *   - mount time: open + mmap + kiln_pack_open_memory (+ munmap + close) of each pack;
 *   - random entry reads: the same random sequence of artifacts read from the mmap'ed pack
 *     (kiln_pack_entry_read into fresh memory, checksums checked; raw packs also in place with
 *     kiln_pack_entry_view) against reading the same bytes from the loose cache files (open,
 *     fstat, read into fresh memory, close), page cache warm for both.
 * Medians over --runs runs (interleaved); numbers are printed, never asserted.
 *
 *   bench_pack --corpus DIR [--runs N] [--reads N] [--workdir DIR]
 *
 * KILN_BENCH_RUNS sets the default run count (5); --runs wins. */
#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child_run.h"
#include "kiln/kiln.h"

#define BENCH_PATH_MAX 4096
#define BENCH_MAX_RUNS 100

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
}

static int run(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The corpus models as assets: each model folder's glTF-Binary, else glTF, else its own files;
 * the assimp-* files (broken on purpose) are left out. */
static int copy_corpus(const char *corpus, const char *root)
{
    DIR *d = opendir(corpus);
    if (!d) return -1;
    struct dirent *e;
    int copied = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strncmp(e->d_name, "assimp-", 7)) continue;
        char src[BENCH_PATH_MAX], cmd[8 * BENCH_PATH_MAX];
        struct stat st;
        snprintf(src, sizeof src, "%s/%s", corpus, e->d_name);
        if (stat(src, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        const char *sub = "glTF-Binary";
        char probe[BENCH_PATH_MAX + 32];
        snprintf(probe, sizeof probe, "%s/glTF-Binary", src);
        if (stat(probe, &st) != 0) {
            sub = "glTF";
            snprintf(probe, sizeof probe, "%s/glTF", src);
            if (stat(probe, &st) != 0) sub = ".";
        }
        if (snprintf(cmd, sizeof cmd,
                     "mkdir -p '%s/%s' && cp -R '%s/%s'/. '%s/%s' && chmod -R u+w '%s/%s'", root,
                     e->d_name, src, sub, root, e->d_name, root, e->d_name) >= (int)sizeof cmd ||
            run(cmd) != 0)
            return -1;
        copied++;
    }
    closedir(d);
    return copied;
}

static kiln_project *open_project(const char *dir, unsigned jobs)
{
    char root[BENCH_PATH_MAX], out[BENCH_PATH_MAX];
    if ((size_t)snprintf(root, sizeof root, "%s/assets", dir) >= sizeof root ||
        (size_t)snprintf(out, sizeof out, "%s/.kiln", dir) >= sizeof out)
        return NULL; /* a path too long for the project */
    kiln_project_opts o = {0};
    o.struct_size = sizeof o;
    o.project_dir = dir;
    o.root = root;
    o.out = out;
    o.jobs = jobs;
    kiln_project *p = NULL;
    kiln_error err;
    if (kiln_project_open(&o, &p, &err) != KILN_OK) {
        fprintf(stderr, "bench_pack: cannot open the project: %s\n", err.message);
        return NULL;
    }
    return p;
}

typedef struct pack_job {
    const char *dir, *output;
    uint32_t compress;
} pack_job;

typedef struct pack_sample {
    int ok;
    double ms;
    long long file_size, entry_bytes, payload_bytes, entries, payloads, compressed;
    char message[256];
} pack_sample;

static void pack_child(void *user, void *result)
{
    pack_job *j = user;
    pack_sample *s = result;
    memset(s, 0, sizeof *s);
    double t0 = now_ms();
    kiln_project *p = open_project(j->dir, 0);
    if (!p) return;
    kiln_pack_opts o = {0};
    o.struct_size = sizeof o;
    o.output = j->output;
    o.compress = j->compress;
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_project_pack(p, NULL, 0, KILN_IMPORT_ALL, &o, &doc, &err);
    kiln_project_close(p);
    s->ms = now_ms() - t0;
    if (r != KILN_OK) {
        snprintf(s->message, sizeof s->message, "%s", err.message);
        return;
    }
    json_t *d = json_loads(doc, 0, NULL);
    json_t *t = json_object_get(d, "totals");
    s->file_size = json_integer_value(json_object_get(t, "file_size"));
    s->entry_bytes = json_integer_value(json_object_get(t, "entry_bytes"));
    s->payload_bytes = json_integer_value(json_object_get(t, "payload_bytes"));
    s->entries = json_integer_value(json_object_get(t, "entries"));
    s->payloads = json_integer_value(json_object_get(t, "payloads"));
    s->compressed = json_integer_value(json_object_get(t, "compressed"));
    json_decref(d);
    kiln_string_free(doc);
    s->ok = 1;
}

/* One artifact both in the pack and as a loose cache file. */
typedef struct artifact {
    uint64_t id;
    char path[BENCH_PATH_MAX];
    size_t size;
} artifact;

static artifact *list_artifacts(const char *dir, size_t *count)
{
    kiln_project *p = open_project(dir, 0);
    if (!p) return NULL;
    char *doc = NULL;
    kiln_error err;
    if (kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &doc, &err) != KILN_OK) {
        fprintf(stderr, "bench_pack: import: %s\n", err.message);
        kiln_project_close(p);
        return NULL;
    }
    kiln_project_close(p);
    json_t *d = json_loads(doc, 0, NULL);
    kiln_string_free(doc);
    size_t n = 0, cap = 256, i, k;
    artifact *a = malloc(cap * sizeof *a);
    json_t *rec, *o;
    json_array_foreach (json_object_get(d, "records"), i, rec) {
        json_array_foreach (json_object_get(rec, "outputs"), k, o) {
            if (n == cap) a = realloc(a, (cap *= 2) * sizeof *a);
            a[n].id = strtoull(json_string_value(json_object_get(o, "asset_id")), NULL, 16);
            snprintf(a[n].path, sizeof a[n].path, "%s/%s",
                     json_string_value(json_object_get(rec, "entry")),
                     json_string_value(json_object_get(o, "file")));
            a[n].size = (size_t)json_integer_value(json_object_get(o, "size"));
            n++;
        }
    }
    json_decref(d);
    *count = n;
    return a;
}

typedef struct mapped {
    const uint8_t *data;
    size_t size;
    int fd;
} mapped;

static int map_file(const char *path, mapped *m)
{
    m->fd = open(path, O_RDONLY);
    if (m->fd < 0) return -1;
    struct stat st;
    if (fstat(m->fd, &st) != 0) return -1;
    m->size = (size_t)st.st_size;
    void *p = mmap(NULL, m->size, PROT_READ, MAP_PRIVATE, m->fd, 0);
    if (p == MAP_FAILED) return -1;
    m->data = p;
    return 0;
}

static void unmap_file(mapped *m)
{
    munmap((void *)m->data, m->size);
    close(m->fd);
}

/* Mount = what a runtime does to start using a pack. Median µs over `times` mounts. */
static double mount_us(const char *path, int times, uint32_t *entries)
{
    double *v = malloc((size_t)times * sizeof *v);
    for (int i = 0; i < times; i++) {
        double t0 = now_ms();
        mapped m;
        kiln_pack p;
        kiln_error err;
        if (map_file(path, &m) != 0 ||
            kiln_pack_open_memory(m.data, m.size, 0, &p, &err) != KILN_OK) {
            fprintf(stderr, "bench_pack: cannot mount %s\n", path);
            exit(1);
        }
        *entries = p.entry_count;
        unmap_file(&m);
        v[i] = (now_ms() - t0) * 1000.0;
    }
    double r = median(v, (size_t)times);
    free(v);
    return r;
}

typedef enum read_mode { READ_LOOSE, READ_PACK, READ_VIEW } read_mode;

/* Reads the sequence once; returns ms, adds the bytes read to *bytes. */
static double read_sequence(read_mode mode, const artifact *a, const size_t *seq, size_t reads,
                            const kiln_pack *p, unsigned long long *bytes, unsigned *sink)
{
    double t0 = now_ms();
    for (size_t r = 0; r < reads; r++) {
        const artifact *x = &a[seq[r]];
        if (mode == READ_LOOSE) {
            int fd = open(x->path, O_RDONLY);
            struct stat st;
            if (fd < 0 || fstat(fd, &st) != 0) exit(1);
            size_t n = (size_t)st.st_size;
            uint8_t *buf = malloc(n ? n : 1);
            size_t got = 0;
            while (got < n) {
                ssize_t k = read(fd, buf + got, n - got);
                if (k <= 0) exit(1);
                got += (size_t)k;
            }
            close(fd);
            *sink += n ? buf[n / 2] : 0;
            *bytes += n;
            free(buf);
        } else {
            uint32_t e = kiln_pack_find(p, x->id);
            kiln_pack_entry pe = kiln_pack_entry_at(p, e);
            kiln_error err;
            if (mode == READ_VIEW && pe.compression == KILN_PACK_RAW) {
                const uint8_t *v;
                if (kiln_pack_entry_view(p, e, &v, &err) != KILN_OK) exit(1);
                *sink += pe.size ? v[pe.size / 2] : 0;
            } else {
                uint8_t *buf = malloc(pe.size ? pe.size : 1);
                if (kiln_pack_entry_read(p, e, buf, pe.size, &err) != KILN_OK) {
                    fprintf(stderr, "bench_pack: read: %s\n", err.message);
                    exit(1);
                }
                *sink += pe.size ? buf[pe.size / 2] : 0;
                free(buf);
            }
            *bytes += pe.size;
        }
    }
    return now_ms() - t0;
}

int main(int argc, char **argv)
{
    const char *corpus = NULL, *workdir = NULL;
    int runs = getenv("KILN_BENCH_RUNS") ? atoi(getenv("KILN_BENCH_RUNS")) : 5;
    size_t reads = 2000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--corpus") && i + 1 < argc) corpus = argv[++i];
        else if (!strcmp(argv[i], "--workdir") && i + 1 < argc) workdir = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reads") && i + 1 < argc) reads = (size_t)atol(argv[++i]);
        else {
            fprintf(stderr,
                    "usage: bench_pack --corpus DIR [--runs N] [--reads N] [--workdir DIR]\n");
            return 2;
        }
    }
    if (!corpus) {
        fprintf(stderr, "bench_pack: --corpus DIR is required (the glTF corpus)\n");
        return 2;
    }
    if (runs < 1) runs = 1;
    if (runs > BENCH_MAX_RUNS) runs = BENCH_MAX_RUNS;
    char tmpl[] = "/tmp/kiln-bench-pack.XXXXXX";
    char dir[BENCH_PATH_MAX];
    if (workdir) {
        snprintf(dir, sizeof dir, "%s", workdir);
    } else {
        if (!mkdtemp(tmpl)) return 1;
        snprintf(dir, sizeof dir, "%s", tmpl);
    }
    char root[BENCH_PATH_MAX + 16], cmd[2 * BENCH_PATH_MAX];
    snprintf(root, sizeof root, "%s/assets", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", root);
    if (run(cmd) != 0) return 1;
    int models = copy_corpus(corpus, root);
    if (models <= 0) {
        fprintf(stderr, "bench_pack: no models copied from %s\n", corpus);
        return 1;
    }
    double t0 = now_ms();
    size_t count = 0;
    artifact *arts = list_artifacts(dir, &count); /* imports (cooks) the corpus once */
    if (!arts) return 1;
    printf("packs: %d corpus models imported (%.1f s; nothing is cooked again when --workdir held "
           "them), %zu artifacts; zstd level 9; medians of %d runs\n",
           models, (now_ms() - t0) / 1000.0, count, runs);

    static const struct {
        const char *name;
        uint32_t compress;
    } modes[] = {{"none", KILN_PACK_COMPRESS_NONE},
                 {"zstd", KILN_PACK_COMPRESS_ZSTD},
                 {"auto", KILN_PACK_COMPRESS_AUTO}};
    char paths[3][BENCH_PATH_MAX + 32];
    double ms[3][BENCH_MAX_RUNS], cpu[3][BENCH_MAX_RUNS];
    long rss[3] = {0};
    pack_sample last[3];
    for (int m = 0; m < 3; m++)
        snprintf(paths[m], sizeof paths[m], "%s/%s.kpak", dir, modes[m].name);
    for (int r = 0; r < runs; r++) {
        for (int m = 0; m < 3; m++) { /* interleaved, so drift hits every mode alike */
            pack_job j = {dir, paths[m], modes[m].compress};
            int status;
            struct rusage ru;
            if (bench_child_run("bench_pack", pack_child, &j, &last[m], sizeof last[m], &status,
                                &ru) != 0 ||
                !last[m].ok) {
                fprintf(stderr, "bench_pack: pack %s failed: %s\n", modes[m].name, last[m].message);
                return 1;
            }
            ms[m][r] = last[m].ms;
            cpu[m][r] = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                        (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
            if (ru.ru_maxrss > rss[m]) rss[m] = ru.ru_maxrss;
        }
    }
    printf("\npack build (kiln_project_pack --all, cache warm)\n");
    printf("%-6s %10s %10s %9s %14s %14s %8s %9s %9s\n", "mode", "wall ms", "cpu ms", "rss MiB",
           "artifact B", "pack B", "of raw", "payloads", "zstd");
    for (int m = 0; m < 3; m++)
        printf("%-6s %10.0f %10.0f %9.0f %14lld %14lld %7.1f%% %9lld %9lld\n", modes[m].name,
               median(ms[m], (size_t)runs), median(cpu[m], (size_t)runs), rss[m] / 1024.0,
               last[m].entry_bytes, last[m].file_size,
               100.0 * (double)last[m].file_size / (double)last[m].entry_bytes, last[m].payloads,
               last[m].compressed);
    printf("(%lld entries; identical artifacts stored once: %lld distinct payload bytes)\n",
           last[0].entries, last[0].payload_bytes);

    printf("\nmount (open + mmap + kiln_pack_open_memory + munmap + close), page cache warm\n");
    for (int m = 0; m < 3; m++) {
        uint32_t entries = 0;
        double us = mount_us(paths[m], 200 * runs, &entries);
        printf("%-6s %8.1f us for %u entries\n", modes[m].name, us, entries);
    }

    /* One random sequence (fixed seed) of artifacts, read the same way in every mode. */
    size_t *seq = malloc(reads * sizeof *seq);
    uint64_t x = 0x2545F4914F6CDD1Du;
    for (size_t r = 0; r < reads; r++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        seq[r] = (size_t)(x % count);
    }
    mapped pm[3];
    kiln_pack packs[3];
    for (int m = 0; m < 3; m++) {
        kiln_error err;
        if (map_file(paths[m], &pm[m]) != 0 ||
            kiln_pack_open_memory(pm[m].data, pm[m].size, 0, &packs[m], &err) != KILN_OK)
            return 1;
    }
    static const struct {
        const char *name;
        read_mode mode;
        int pack;
    } cases[] = {
        {"loose files (open+read+close)", READ_LOOSE, -1},
        {"pack none: entry_read (copy)", READ_PACK, 0},
        {"pack none: entry_view (in place)", READ_VIEW, 0},
        {"pack zstd: entry_read", READ_PACK, 1},
        {"pack auto: entry_read", READ_PACK, 2},
    };
    enum { NCASES = sizeof cases / sizeof cases[0] };
    double t[NCASES][BENCH_MAX_RUNS];
    unsigned long long bytes[NCASES] = {0};
    unsigned sink = 0;
    for (int c = 0; c < NCASES; c++) { /* warm-up: page cache and allocator */
        unsigned long long b = 0;
        read_sequence(cases[c].mode, arts, seq, reads,
                      cases[c].pack >= 0 ? &packs[cases[c].pack] : NULL, &b, &sink);
    }
    for (int r = 0; r < runs; r++)
        for (int c = 0; c < NCASES; c++) {
            bytes[c] = 0;
            t[c][r] =
                read_sequence(cases[c].mode, arts, seq, reads,
                              cases[c].pack >= 0 ? &packs[cases[c].pack] : NULL, &bytes[c], &sink);
        }
    printf("\nrandom entry reads: %zu reads of %zu artifacts (%.1f MB), page cache warm, checksums "
           "checked in packs\n",
           reads, count, (double)bytes[0] / 1e6);
    double loose = median(t[0], (size_t)runs);
    printf("%-34s %10s %10s %10s %9s\n", "source", "ms", "MB/s", "reads/s", "vs loose");
    for (int c = 0; c < NCASES; c++) {
        double m = median(t[c], (size_t)runs);
        printf("%-34s %10.1f %10.0f %10.0f %8.2fx\n", cases[c].name, m, (double)bytes[c] / 1e3 / m,
               (double)reads / m * 1e3, loose / m);
    }
    for (int m = 0; m < 3; m++) unmap_file(&pm[m]);
    free(seq);
    free(arts);
    if (!workdir) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        run(cmd);
    }
    return sink == 0xFFFFFFFFu; /* keeps the reads from being optimised away */
}
