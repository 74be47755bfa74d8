/* bench_import.c — the import benchmark: a tree of images imported cold (empty cache),
 * warm (every asset cached: `import --all` again) and no-op (a report over the unchanged tree),
 * plus cold with 1 and 2 worker threads. It prints medians, minima, maxima, ratios and the peak
 * RSS of each case, and how many source files the no-op report read (its "source_read" flags).
 * Timings are printed, never asserted. docs/performance.md says what the numbers mean.
 *
 * Each measured call runs in a child process made by fork(): the child times open + call + close
 * with CLOCK_MONOTONIC (no exec, no dynamic loading), and the parent reads the child's own peak
 * RSS from wait4(); in one process ru_maxrss only ever grows, so it could not tell the runs apart.
 *
 *   bench_import --corpus DIR [--runs N] [--jobs N] [--workdir DIR]
 *   bench_import --report-once --root DIR --out DIR [--jobs N]   (one report; for strace)
 *
 * KILN_BENCH_RUNS sets the default run count (5); --runs wins. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
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
#include "kiln/kiln.h"

#define BENCH_PATH_MAX 4096
#define BENCH_MAX_RUNS 1000
/* The stat shortcut trusts a recorded digest only when the file's mtime is more than
 * KILN_RACY_WINDOW_NS (1 s) before it was hashed: the copies get an mtime an hour back. */
#define BENCH_MTIME_AGO_S 3600

typedef enum bench_op { BENCH_IMPORT, BENCH_REPORT } bench_op;

/* What a child sends back through its pipe: fixed size, no pointers. */
typedef struct bench_sample {
    int ok;        /* 1 when the call returned KILN_OK */
    double ms;     /* open + call + close, wall clock */
    double cpu_ms; /* user + system time of all threads over the same span */
    long assets, imported, cached, failed, up_to_date, source_read;
    unsigned long long source_bytes, source_read_bytes; /* sizes of all / of the read sources */
    char message[300];
} bench_sample;

typedef struct bench_series {
    const char *name;
    unsigned jobs;
    size_t count;
    double ms[BENCH_MAX_RUNS], cpu_ms[BENCH_MAX_RUNS];
    long max_rss_kib;
    long source_read_sum, imported_sum, failed_sum; /* over all runs: a check, not a timing */
    bench_sample last;
} bench_series;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double cpu_now_ms(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static int join(char *out, const char *a, const char *b)
{
    int n = snprintf(out, BENCH_PATH_MAX, "%s/%s", a, b);
    if (n < 0 || n >= BENCH_PATH_MAX) {
        fprintf(stderr, "bench_import: path too long: %s/%s\n", a, b);
        return -1;
    }
    return 0;
}

static int copy_file(const char *src, const char *dst, unsigned long long *bytes)
{
    int in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        fprintf(stderr, "bench_import: %s: %s\n", src, strerror(errno));
        return -1;
    }
    int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (out < 0) {
        fprintf(stderr, "bench_import: %s: %s\n", dst, strerror(errno));
        close(in);
        return -1;
    }
    char buf[1 << 16];
    int rc = 0;
    for (;;) {
        ssize_t n = read(in, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            fprintf(stderr, "bench_import: reading %s: %s\n", src, strerror(errno));
            rc = -1;
            break;
        }
        if (n == 0) break;
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(out, buf + done, (size_t)(n - done));
            if (w < 0 && errno == EINTR) continue;
            if (w < 0) {
                fprintf(stderr, "bench_import: writing %s: %s\n", dst, strerror(errno));
                rc = -1;
                break;
            }
            done += w;
        }
        if (rc) break;
        *bytes += (unsigned long long)n;
    }
    close(in);
    if (close(out) != 0 && rc == 0) rc = -1;
    if (rc) return rc;
    /* A tree checked out an hour ago: the mtime is far outside the racy window. */
    struct timespec past[2];
    clock_gettime(CLOCK_REALTIME, &past[0]);
    past[0].tv_sec -= BENCH_MTIME_AGO_S;
    past[1] = past[0];
    if (utimensat(AT_FDCWD, dst, past, 0) != 0) {
        fprintf(stderr, "bench_import: utimensat %s: %s\n", dst, strerror(errno));
        return -1;
    }
    return 0;
}

/* Copies regular files and folders (not dot-files, which kiln's scan skips anyway). */
static int copy_tree(const char *src, const char *dst, size_t *files, unsigned long long *bytes)
{
    if (mkdir(dst, 0755) != 0) {
        fprintf(stderr, "bench_import: mkdir %s: %s\n", dst, strerror(errno));
        return -1;
    }
    DIR *d = opendir(src);
    if (!d) {
        fprintf(stderr, "bench_import: %s: %s\n", src, strerror(errno));
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char s[BENCH_PATH_MAX], t[BENCH_PATH_MAX];
        struct stat st;
        if (join(s, src, e->d_name) || join(t, dst, e->d_name) || stat(s, &st) != 0) {
            rc = -1;
            break;
        }
        if (S_ISDIR(st.st_mode)) {
            rc = copy_tree(s, t, files, bytes);
        } else if (S_ISREG(st.st_mode)) {
            rc = copy_file(s, t, bytes);
            if (rc == 0) (*files)++;
        }
    }
    closedir(d);
    return rc;
}

static int remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode)) return unlink(path);
    DIR *d = opendir(path);
    if (!d) return -1;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char child[BENCH_PATH_MAX];
        rc = join(child, path, e->d_name);
        if (rc == 0) rc = remove_tree(child);
    }
    closedir(d);
    return rc == 0 ? rmdir(path) : rc;
}

static long json_long(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

/* Fills the counts of a sample from the import or report document (after the timing). */
static void read_document(bench_op op, const char *root, const char *doc, bench_sample *s)
{
    json_error_t je;
    json_t *j = json_loads(doc, 0, &je);
    if (!j) {
        snprintf(s->message, sizeof s->message, "unreadable document: %s", je.text);
        s->ok = 0;
        return;
    }
    const json_t *totals = json_object_get(j, "totals");
    s->assets = json_long(totals, "assets");
    if (op == BENCH_IMPORT) {
        s->imported = json_long(totals, "imported");
        s->cached = json_long(totals, "cached");
        s->failed = json_long(totals, "failed");
    } else {
        s->up_to_date = json_long(totals, "up_to_date");
        size_t i;
        json_t *row;
        json_array_foreach (json_object_get(j, "assets"), i, row) {
            char path[BENCH_PATH_MAX];
            const char *rel = json_string_value(json_object_get(row, "path"));
            struct stat st;
            unsigned long long size = 0;
            if (rel && join(path, root, rel) == 0 && stat(path, &st) == 0)
                size = (unsigned long long)st.st_size;
            s->source_bytes += size;
            if (!json_is_true(json_object_get(row, "source_read"))) continue;
            s->source_read++;
            s->source_read_bytes += size;
        }
    }
    json_decref(j);
}

/* One measured call, in this process. */
static bench_sample measure(bench_op op, const char *root, const char *out, unsigned jobs)
{
    bench_sample s;
    memset(&s, 0, sizeof s);
    kiln_project_opts o = {0};
    o.struct_size = sizeof o;
    o.project_dir = out; /* the output folder is the only place kiln writes to */
    o.root = root;
    o.out = out;
    o.jobs = jobs;
    kiln_error err;
    memset(&err, 0, sizeof err);
    char *doc = NULL;
    double c0 = cpu_now_ms(), t0 = now_ms();
    kiln_project *p = NULL;
    kiln_result r = kiln_project_open(&o, &p, &err);
    if (r == KILN_OK) {
        if (op == BENCH_IMPORT) r = kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &doc, &err);
        else r = kiln_project_report(p, &doc, &err);
    }
    kiln_project_close(p);
    s.ms = now_ms() - t0;
    s.cpu_ms = cpu_now_ms() - c0;
    /* With a document, assets that failed are counted there and the run still counts: a broken
     * importer shows up as "failed" in the output instead of stopping the benchmark. */
    s.ok = r == KILN_OK || doc != NULL;
    if (r != KILN_OK)
        snprintf(s.message, sizeof s.message, "%s: %s", kiln_result_name(r), err.message);
    if (doc) read_document(op, root, doc, &s);
    kiln_string_free(doc);
    return s;
}

typedef struct child_args {
    bench_op op;
    const char *root, *out;
    unsigned jobs;
} child_args;

static void child_fn(void *user, void *result)
{
    const child_args *c = user;
    *(bench_sample *)result = measure(c->op, c->root, c->out, c->jobs);
}

/* One measured call in a child process; the child's peak RSS comes back through wait4. */
static int measure_in_child(bench_op op, const char *root, const char *out, unsigned jobs,
                            bench_sample *s, long *max_rss_kib)
{
    child_args args = {op, root, out, jobs};
    int status;
    struct rusage ru;
    int rc = bench_child_run("bench_import", child_fn, &args, s, sizeof *s, &status, &ru);
    if (rc > 0) fprintf(stderr, "bench_import: the measuring child failed (status %d)\n", status);
    if (rc != 0) return -1;
    *max_rss_kib = ru.ru_maxrss; /* kilobytes on Linux */
    return 0;
}

static int record(bench_series *x, bench_op op, const char *root, const char *out)
{
    bench_sample s;
    long rss = 0;
    if (measure_in_child(op, root, out, x->jobs, &s, &rss) != 0) return -1;
    if (!s.ok) {
        fprintf(stderr, "bench_import: %s failed: %s\n", x->name, s.message);
        return -1;
    }
    x->cpu_ms[x->count] = s.cpu_ms;
    x->ms[x->count++] = s.ms;
    if (rss > x->max_rss_kib) x->max_rss_kib = rss;
    x->source_read_sum += s.source_read;
    x->imported_sum += s.imported;
    x->failed_sum += s.failed;
    x->last = s;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct bench_stats {
    double median, min, max;
} bench_stats;

static bench_stats stats_of(const double *samples, size_t count)
{
    double v[BENCH_MAX_RUNS];
    memcpy(v, samples, count * sizeof v[0]);
    qsort(v, count, sizeof v[0], cmp_double);
    bench_stats s = {0, v[0], v[count - 1]};
    s.median = count % 2 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
    return s;
}

/* source_bytes: 0 leaves the throughput out (it means something only when sources are read). */
static void print_row(const bench_series *x, unsigned long long source_bytes)
{
    bench_stats s = stats_of(x->ms, x->count), cpu = stats_of(x->cpu_ms, x->count);
    printf("%-6s -j%-2u %10.2f %9.2f %9.2f %11.2f %12.1f", x->name, x->jobs, s.median, s.min, s.max,
           cpu.median, (double)x->max_rss_kib / 1024.0);
    if (source_bytes) printf(" %13.1f\n", (double)source_bytes / 1048576.0 / (s.median / 1e3));
    else printf(" %13s\n", "-");
}

static int parse_count(const char *text, const char *what, unsigned long lo, unsigned long hi,
                       unsigned long *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long v = strtoul(text ? text : "", &end, 10);
    if (!text || errno || end == text || *end || v < lo || v > hi) {
        fprintf(stderr, "bench_import: %s must be a number in %lu..%lu\n", what, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_import --corpus DIR [--runs N] [--jobs N] [--workdir DIR]\n"
                    "       bench_import --report-once --root DIR --out DIR [--jobs N]\n"
                    "KILN_BENCH_RUNS sets the default number of runs (5).\n");
    return 2;
}

static int report_once(const char *root, const char *out, unsigned jobs)
{
    bench_sample s = measure(BENCH_REPORT, root, out, jobs);
    if (!s.ok) {
        fprintf(stderr, "bench_import: report failed: %s\n", s.message);
        return 1;
    }
    printf("report: %ld assets, %ld up_to_date, source_read true for %ld (%llu bytes), %.2f ms\n",
           s.assets, s.up_to_date, s.source_read, s.source_read_bytes, s.ms);
    return 0;
}

int main(int argc, char **argv)
{
    const char *corpus = NULL, *workdir = NULL, *root_arg = NULL, *out_arg = NULL;
    unsigned long runs = 5, jobs = 2;
    int once = 0;
    const char *env_runs = getenv("KILN_BENCH_RUNS");
    if (env_runs && *env_runs && parse_count(env_runs, "KILN_BENCH_RUNS", 1, BENCH_MAX_RUNS, &runs))
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--report-once")) {
            once = 1;
            continue;
        }
        if (!v) return usage();
        i++;
        if (!strcmp(a, "--corpus")) corpus = v;
        else if (!strcmp(a, "--workdir")) workdir = v;
        else if (!strcmp(a, "--root")) root_arg = v;
        else if (!strcmp(a, "--out")) out_arg = v;
        else if (!strcmp(a, "--runs")) {
            if (parse_count(v, "--runs", 1, BENCH_MAX_RUNS, &runs)) return 2;
        } else if (!strcmp(a, "--jobs") || !strcmp(a, "-j")) {
            if (parse_count(v, "--jobs", 1, 256, &jobs)) return 2;
        } else return usage();
    }
    if (once) return root_arg && out_arg ? report_once(root_arg, out_arg, (unsigned)jobs) : usage();
    if (!corpus) return usage();

    /* The workspace: a copy of the corpus (so its times can be set) and the output folders. */
    char ws[BENCH_PATH_MAX], root[BENCH_PATH_MAX];
    int own_ws = workdir == NULL;
    if (own_ws) {
        const char *tmp = getenv("TMPDIR");
        snprintf(ws, sizeof ws, "%s/kiln-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(ws)) {
            perror("bench_import: mkdtemp");
            return 1;
        }
    } else {
        if (snprintf(ws, sizeof ws, "%s", workdir) >= (int)sizeof ws || mkdir(ws, 0755) != 0) {
            fprintf(stderr, "bench_import: cannot make the work folder %s: %s\n", workdir,
                    strerror(errno));
            return 1;
        }
    }
    /* About 80 KiB: fine on the stack, and no static state. */
    bench_series cold[3], warm, noop;
    memset(cold, 0, sizeof cold);
    memset(&warm, 0, sizeof warm);
    memset(&noop, 0, sizeof noop);
    int rc = 1;
    size_t files = 0;
    unsigned long long bytes = 0;
    if (join(root, ws, "images") || copy_tree(corpus, root, &files, &bytes)) goto done;

    /* Cold with 1 and 2 threads (and --jobs, if another count), interleaved run by run so that
     * load from the other users of the machine falls on all of them alike. */
    size_t ncold = 0, main_cold = 0;
    const unsigned counts[3] = {1, 2, (unsigned)jobs};
    for (size_t k = 0; k < 3; k++) {
        if (k == 2 && (jobs == 1 || jobs == 2)) break;
        cold[ncold].name = "cold";
        cold[ncold].jobs = counts[k];
        if (counts[k] == jobs) main_cold = ncold;
        ncold++;
    }
    char outs[3][BENCH_PATH_MAX];
    for (size_t k = 0; k < ncold; k++) {
        char name[32];
        snprintf(name, sizeof name, "out-j%u", cold[k].jobs);
        if (join(outs[k], ws, name)) goto done;
    }
    printf("kiln import benchmark: %zu files, %.1f MiB from %s; %lu runs; jobs %lu\n", files,
           (double)bytes / 1048576.0, corpus, runs, jobs);
    for (unsigned long i = 0; i < runs; i++) {
        for (size_t k = 0; k < ncold; k++) {
            if (remove_tree(outs[k]) != 0) {
                fprintf(stderr, "bench_import: cannot remove %s\n", outs[k]);
                goto done;
            }
            if (record(&cold[k], BENCH_IMPORT, root, outs[k])) goto done;
        }
    }
    /* Warm and no-op use the last cold output of --jobs, now holding every entry. */
    const char *out = outs[main_cold];
    warm.name = "warm";
    warm.jobs = (unsigned)jobs;
    noop.name = "no-op";
    noop.jobs = (unsigned)jobs;
    for (unsigned long i = 0; i < runs; i++)
        if (record(&warm, BENCH_IMPORT, root, out)) goto done;
    for (unsigned long i = 0; i < runs; i++)
        if (record(&noop, BENCH_REPORT, root, out)) goto done;

    unsigned long long source_bytes = noop.last.source_bytes;
    printf("assets: %ld sources of %.1f MiB (the other copied files are not assets)\n",
           noop.last.assets, (double)source_bytes / 1048576.0);
    printf("%-6s %-4s %10s %9s %9s %11s %12s %13s\n", "case", "jobs", "median ms", "min ms",
           "max ms", "CPU ms (md)", "peak RSS MiB", "source MiB/s");
    for (size_t k = 0; k < ncold; k++) print_row(&cold[k], source_bytes);
    print_row(&warm, 0);
    print_row(&noop, 0);
    bench_stats c = stats_of(cold[main_cold].ms, cold[main_cold].count),
                w = stats_of(warm.ms, warm.count), n = stats_of(noop.ms, noop.count);
    printf("ratios of wall medians: cold/warm %.1fx, cold/no-op %.1fx", c.median / w.median,
           c.median / n.median);
    if (ncold >= 2) {
        bench_stats c1 = stats_of(cold[0].ms, cold[0].count),
                    c2 = stats_of(cold[1].ms, cold[1].count);
        printf(", cold -j1/-j2 %.2fx", c1.median / c2.median);
    }
    /* CPU time moves much less than wall time when other work shares the cores. */
    bench_stats cc = stats_of(cold[main_cold].cpu_ms, cold[main_cold].count),
                wc = stats_of(warm.cpu_ms, warm.count), nc = stats_of(noop.cpu_ms, noop.count);
    printf("\nratios of CPU medians:  cold/warm %.1fx, cold/no-op %.1fx\n", cc.median / wc.median,
           cc.median / nc.median);
    const bench_sample *cl = &cold[main_cold].last, *wl = &warm.last, *nl = &noop.last;
    printf("cold:  %ld assets, %ld imported, %ld cached, %ld failed%s%s\n", cl->assets,
           cl->imported, cl->cached, cl->failed, cl->failed ? "  <-- UNEXPECTED, first: " : "",
           cl->failed ? cl->message : "");
    printf("warm:  %ld assets, %ld cached; over all %zu runs %ld imported, %ld failed%s\n",
           wl->assets, wl->cached, warm.count, warm.imported_sum, warm.failed_sum,
           warm.imported_sum || warm.failed_sum ? "  <-- UNEXPECTED: not all cached" : "");
    printf("no-op: %ld assets, %ld up_to_date; source_read true for %ld (%llu source bytes) in the "
           "last run, %ld over all %zu runs%s\n",
           nl->assets, nl->up_to_date, nl->source_read, nl->source_read_bytes, noop.source_read_sum,
           noop.count,
           noop.source_read_sum ? "  <-- UNEXPECTED: the stat shortcut did not apply" : "");
    if (!own_ws) printf("workspace kept: root %s, output %s\n", root, out);
    rc = 0;
done:
    if (own_ws && remove_tree(ws) != 0) fprintf(stderr, "bench_import: could not remove %s\n", ws);
    return rc;
}
