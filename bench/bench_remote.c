/* bench_remote.c — the remote cache: for corpus images and models, a cold cook into
 * an empty local cache against a fill of an empty local cache from a loopback remote (nginx
 * with WebDAV PUT, and a file: folder), through the library in this process. Each run starts
 * from an empty local cache; the remote is filled once before. Prints medians, the bytes moved
 * and the ratio; never asserts.
 *
 *   bench_remote --corpus DIR [--runs N] [--jobs N]
 *     DIR: the corpus root (images/kodak, gltf/<model>/glTF). KILN_BENCH_RUNS: default runs (3).
 *
 * nginx is started like tests/remote does (temporary prefix, loopback port, stopped by PID);
 * without nginx only the file: remote is measured. */
#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kiln/kiln.h"

#define MAX_RUNS 100

static const char *const k_models[] = {"Avocado", "BoxTextured", "CesiumMan", "DamagedHelmet",
                                       "Fox",     "BrainStem",   "Sponza",    "FlightHelmet"};

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int sh(const char *fmt, const char *a, const char *b)
{
    char cmd[8192];
    int n = snprintf(cmd, sizeof cmd, fmt, a, b);
    if (n < 0 || (size_t)n >= sizeof cmd) return -1; /* a cut command must not run */
    return system(cmd);
}

/* One import --all of project dir into an empty local cache; returns ms, or -1 on failure. */
static double import_once(const char *dir, const char *url, unsigned jobs, long long *hits,
                          long long *imported)
{
    sh("rm -rf '%s/.kiln'%s", dir, "");
    double t0 = now_ms();
    kiln_project_opts o = {0};
    o.struct_size = sizeof o;
    o.project_dir = dir;
    o.jobs = jobs;
    kiln_project *p = NULL;
    kiln_error err;
    if (kiln_project_open(&o, &p, &err) != KILN_OK) {
        fprintf(stderr, "bench_remote: %s\n", err.message);
        return -1;
    }
    kiln_remote_opts ro = {0};
    ro.struct_size = sizeof ro;
    ro.urls = url ? &url : NULL;
    ro.url_count = url ? 1 : 0;
    ro.ignore_config = true;
    char *doc = NULL;
    kiln_result r = kiln_project_set_remote(p, &ro, &err);
    if (r == KILN_OK) r = kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &doc, &err);
    kiln_project_close(p);
    double ms = now_ms() - t0;
    if (r != KILN_OK) {
        fprintf(stderr, "bench_remote: import failed: %s\n", err.message);
        kiln_string_free(doc);
        return -1;
    }
    json_t *d = json_loads(doc, 0, NULL);
    *hits = json_integer_value(json_object_get(json_object_get(d, "remote"), "hits"));
    *imported = json_integer_value(json_object_get(json_object_get(d, "totals"), "imported"));
    json_decref(d);
    kiln_string_free(doc);
    return ms;
}

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) ||
        getsockname(fd, (struct sockaddr *)&a, &len))
        return -1;
    close(fd);
    return ntohs(a.sin_port);
}

/* nginx with WebDAV PUT in prefix; returns its PID (0 when it cannot run). */
static pid_t nginx_start(const char prefix[256], int port)
{
    if (system("command -v nginx >/dev/null 2>&1") != 0) return 0;
    char conf[512], text[8192];
    snprintf(conf, sizeof conf, "%s/nginx.conf", prefix);
    snprintf(
        text, sizeof text,
        "worker_processes 2; pid %s/nginx.pid; error_log %s/error.log warn;\n"
        "events { worker_connections 256; }\n"
        "http { access_log off; client_body_temp_path %s/body; client_max_body_size 0;\n"
        "  proxy_temp_path %s/p; fastcgi_temp_path %s/f; uwsgi_temp_path %s/u; scgi_temp_path %s/s;\n"
        "  server { listen 127.0.0.1:%d; root %s/data;\n"
        "    location / { dav_methods PUT; create_full_put_path on; } } }\n",
        prefix, prefix, prefix, prefix, prefix, prefix, prefix, port, prefix);
    FILE *f = fopen(conf, "w");
    if (!f) return 0;
    fputs(text, f);
    fclose(f);
    char err[512];
    snprintf(err, sizeof err, "%s/error.log", prefix);
    pid_t pid = fork();
    if (pid == 0) {
        const char *g = geteuid() == 0 ? "daemon off; user root;" : "daemon off;";
        execlp("nginx", "nginx", "-p", prefix, "-c", conf, "-e", err, "-g", g, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 300; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {0};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons((uint16_t)port);
        int ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
        close(fd);
        if (ok) return pid;
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return 0;
}

static void bench_part(const char *name, const char *dir, const char *http_url,
                       const char *file_url, int runs, unsigned jobs)
{
    double cold[MAX_RUNS], fill_http[MAX_RUNS], fill_file[MAX_RUNS];
    long long hits = 0, imported = 0, assets = 0;
    for (int i = 0; i < runs; i++) {
        cold[i] = import_once(dir, NULL, jobs, &hits, &imported);
        assets = imported;
    }
    /* Fill both remotes once (this run cooks). */
    if (http_url) import_once(dir, http_url, jobs, &hits, &imported);
    import_once(dir, file_url, jobs, &hits, &imported);
    long long hits_http = 0, hits_file = 0;
    for (int i = 0; i < runs && http_url; i++)
        fill_http[i] = import_once(dir, http_url, jobs, &hits_http, &imported);
    for (int i = 0; i < runs; i++)
        fill_file[i] = import_once(dir, file_url, jobs, &hits_file, &imported);
    char du[256];
    snprintf(du, sizeof du, "du -sb '%s/.kiln/cache/objects' | cut -f1", dir);
    FILE *p = popen(du, "r");
    unsigned long long bytes = 0;
    if (p) {
        if (fscanf(p, "%llu", &bytes) != 1) bytes = 0;
        pclose(p);
    }
    double c = median(cold, runs), fh = http_url ? median(fill_http, runs) : 0,
           ff = median(fill_file, runs);
    printf("%-8s %6lld %10.1f ", name, assets, (double)bytes / 1e6);
    printf("%12.1f ", c);
    if (http_url) printf("%14.1f %7.1fx %3lld/%-3lld ", fh, c / fh, hits_http, assets);
    else printf("%14s %8s %7s ", "-", "-", "-");
    printf("%14.1f %7.1fx %3lld/%-3lld\n", ff, c / ff, hits_file, assets);
}

int main(int argc, char **argv)
{
    const char *corpus = NULL;
    int runs = getenv("KILN_BENCH_RUNS") ? atoi(getenv("KILN_BENCH_RUNS")) : 3;
    unsigned jobs = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--corpus") && i + 1 < argc) corpus = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc) jobs = (unsigned)atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_remote --corpus DIR [--runs N] [--jobs N]\n");
            return 2;
        }
    }
    if (!corpus) {
        fprintf(stderr, "usage: bench_remote --corpus DIR [--runs N] [--jobs N]\n");
        return 2;
    }
    if (runs < 1) runs = 1;
    if (runs > MAX_RUNS) runs = MAX_RUNS;
    char work[] = "/tmp/kiln-bench-remote.XXXXXX";
    if (!mkdtemp(work)) return 1;
    char images[256], models[256], share[256], ngx[256], file_url[300], http_url[128];
    snprintf(images, sizeof images, "%s/images", work);
    snprintf(models, sizeof models, "%s/models", work);
    snprintf(share, sizeof share, "%s/share", work);
    snprintf(ngx, sizeof ngx, "%s/nginx", work);
    snprintf(file_url, sizeof file_url, "file://%s", share);
    sh("mkdir -p '%s/assets' '%s'", images, ngx);
    sh("mkdir -p '%s/assets' '%s/data'", models, ngx);
    sh("cp '%s/images/kodak/'*.png '%s/assets/' 2>/dev/null", corpus, images);
    int nmodels = 0;
    for (size_t i = 0; i < sizeof k_models / sizeof k_models[0]; i++) {
        char from[4200], to[4300];
        snprintf(from, sizeof from, "%s/gltf/%s/glTF", corpus, k_models[i]);
        snprintf(to, sizeof to, "%s/assets/%s", models, k_models[i]);
        if (access(from, R_OK) != 0) continue;
        if (sh("cp -r '%s' '%s'", from, to) == 0) nmodels++;
    }
    int port = free_port();
    pid_t nginx = port > 0 ? nginx_start(ngx, port) : 0;
    snprintf(http_url, sizeof http_url, "http://127.0.0.1:%d/kiln", port);
    printf("bench_remote: cold cook vs fill of an empty local cache from a loopback remote\n"
           "(median of %d runs, -j %u, %d models%s; ms)\n\n",
           runs, jobs, nmodels, nginx ? "" : "; nginx missing: no HTTP numbers");
    printf("%-8s %6s %10s %12s %14s %8s %7s %14s %8s %7s\n", "part", "assets", "MB", "cold cook",
           "fill nginx", "speedup", "hits", "fill file:", "speedup", "hits");
    bench_part("images", images, nginx ? http_url : NULL, file_url, runs, jobs);
    bench_part("models", models, nginx ? http_url : NULL, file_url, runs, jobs);
    if (nginx) {
        kill(nginx, SIGTERM);
        waitpid(nginx, NULL, 0);
    }
    sh("rm -rf '%s'%s", work, "");
    return 0;
}
