/* bench_gltf_out.c — `kiln gltf` against Debian's gltfpack 0.18 on corpus models, side by side:
 * output size and time at the same work, two pairs per model:
 *   quantized:  kiln gltf IN OUT.glb --quantize             gltfpack -i IN -o OUT.glb
 *   compressed: kiln gltf IN OUT.glb --quantize --compress  gltfpack -i IN -o OUT.glb -c
 * (gltfpack quantizes by default: 14-bit positions, 12-bit UVs, 8-bit normals, kiln's defaults
 * too). Each case is a process started with fork + exec; the parent takes the wall time around
 * it and the child's CPU time (user + sys of all its threads, from wait4). Runs of all cases are
 * interleaved, the first case rotating from run to run; medians are printed. Sizes are the GLB
 * files' (images included, kept as they are by both). A program that prints, not a test.
 *
 *   bench_gltf_out --corpus DIR [--runs N] [--kiln PATH] [--gltfpack PATH] [--workdir DIR]
 *
 * --kiln defaults to tools/kiln/kiln of this build, --gltfpack to the one on PATH (without it
 * the program says so and exits 0), --workdir to a fresh folder under /dev/shm (kiln fsyncs the
 * files it writes and gltfpack does not: on tmpfs that costs nothing, so the times compare the
 * work). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure.h"

#define MAX_RUNS 64

static const char *const models[][2] = {
    {"SheenCloth", "SheenCloth/glTF/SheenCloth.gltf"},
    {"DamagedHelmet", "DamagedHelmet/glTF/DamagedHelmet.gltf"},
    {"Suzanne", "Suzanne/glTF/Suzanne.gltf"},
    {"CesiumMan", "CesiumMan/glTF/CesiumMan.gltf"},
    {"Fox", "Fox/glTF/Fox.gltf"},
    {"Avocado", "Avocado/glTF/Avocado.gltf"},
    {"BoxAnimated", "BoxAnimated/glTF/BoxAnimated.gltf"},
    {"AnimatedMorphCube", "AnimatedMorphCube/glTF/AnimatedMorphCube.gltf"},
};
#define MODEL_COUNT (sizeof models / sizeof models[0])

enum { CASE_KILN_Q, CASE_PACK_Q, CASE_KILN_C, CASE_PACK_C, CASE_COUNT };
static const char *const case_names[CASE_COUNT] = {"kiln --quantize", "gltfpack",
                                                   "kiln --quantize --compress", "gltfpack -c"};

typedef struct sample {
    double cpu_ms, wall_ms;
} sample;

/* Runs argv (stdout and stderr to /dev/null); 0 when it exits with 0. */
static int run(char *const *argv, sample *s)
{
    fflush(NULL);
    double t0 = bench_now_ms();
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int n = open("/dev/null", O_WRONLY);
        if (n < 0 || dup2(n, 1) < 0 || dup2(n, 2) < 0) _exit(126);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR) return -1;
    s->wall_ms = bench_now_ms() - t0;
    s->cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static long long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Finds a program on PATH; NULL when absent. */
static char *which(const char *name)
{
    const char *path = getenv("PATH");
    if (!path) return NULL;
    char *copy = strdup(path), *save = NULL;
    for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char full[PATH_MAX];
        snprintf(full, sizeof full, "%s/%s", d, name);
        if (access(full, X_OK) == 0) {
            free(copy);
            return strdup(full);
        }
    }
    free(copy);
    return NULL;
}

int main(int argc, char **argv)
{
    const char *corpus = NULL, *kiln = NULL, *workdir = NULL;
    char *gltfpack = NULL;
    int runs = 5;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--corpus") == 0 && v) corpus = argv[++i];
        else if (strcmp(argv[i], "--runs") == 0 && v) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--kiln") == 0 && v) kiln = argv[++i];
        else if (strcmp(argv[i], "--gltfpack") == 0 && v) gltfpack = strdup(argv[++i]);
        else if (strcmp(argv[i], "--workdir") == 0 && v) workdir = argv[++i];
        else {
            fprintf(stderr, "usage: bench_gltf_out --corpus DIR [--runs N] [--kiln PATH] "
                            "[--gltfpack PATH] [--workdir DIR]\n");
            return 2;
        }
    }
    if (!corpus || runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "bench_gltf_out: --corpus DIR is needed; --runs 1..%d\n", MAX_RUNS);
        return 2;
    }
    char self_kiln[PATH_MAX + 32];
    if (!kiln) { /* tools/kiln/kiln beside bench/ in this build */
        char exe[PATH_MAX - 64];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) return 2;
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        snprintf(self_kiln, sizeof self_kiln, "%s/../tools/kiln/kiln", exe);
        kiln = self_kiln;
    }
    if (!gltfpack) gltfpack = which("gltfpack");
    if (!gltfpack) {
        printf("bench_gltf_out: gltfpack is not installed (apt-get install gltfpack); nothing to "
               "compare\n");
        return 0;
    }
    char work[PATH_MAX / 2];
    if (workdir) snprintf(work, sizeof work, "%s", workdir);
    else snprintf(work, sizeof work, "/dev/shm/kiln-bench-gltf-out-%d", (int)getpid());
    mkdir(work, 0755);

    static sample samples[MODEL_COUNT][CASE_COUNT][MAX_RUNS];
    long long sizes[MODEL_COUNT][CASE_COUNT];
    char in[MODEL_COUNT][PATH_MAX], out[MODEL_COUNT][CASE_COUNT][PATH_MAX];
    for (size_t m = 0; m < MODEL_COUNT; m++) {
        snprintf(in[m], PATH_MAX, "%s/gltf/%s", corpus, models[m][1]);
        for (int c = 0; c < CASE_COUNT; c++)
            snprintf(out[m][c], PATH_MAX, "%s/%s.%d.glb", work, models[m][0], c);
    }
    for (int r = 0; r < runs; r++)
        for (size_t m = 0; m < MODEL_COUNT; m++)
            for (int k = 0; k < CASE_COUNT; k++) {
                int c = (k + r) % CASE_COUNT; /* the first case rotates */
                char *args[10];
                int n = 0;
                if (c == CASE_KILN_Q || c == CASE_KILN_C) {
                    args[n++] = (char *)kiln, args[n++] = "gltf", args[n++] = in[m];
                    args[n++] = out[m][c], args[n++] = "--quantize", args[n++] = "-q";
                    if (c == CASE_KILN_C) args[n++] = "--compress";
                } else {
                    args[n++] = gltfpack, args[n++] = "-i", args[n++] = in[m];
                    args[n++] = "-o", args[n++] = out[m][c];
                    if (c == CASE_PACK_C) args[n++] = "-c";
                }
                args[n] = NULL;
                if (run(args, &samples[m][c][r]) != 0) {
                    fprintf(stderr, "bench_gltf_out: %s on %s failed\n", case_names[c],
                            models[m][0]);
                    return 1;
                }
                sizes[m][c] = file_size(out[m][c]);
            }

    printf("kiln gltf against gltfpack 0.18: GLB bytes and medians of %d runs "
           "(CPU = user + sys of the process, wall = fork to exit)\n\n",
           runs);
    printf(
        "| model | case | bytes | CPU ms | wall ms | bytes kiln/gltfpack | CPU kiln/gltfpack |\n");
    printf("|---|---|---:|---:|---:|---:|---:|\n");
    for (size_t m = 0; m < MODEL_COUNT; m++)
        for (int c = 0; c < CASE_COUNT; c++) {
            double cpu[MAX_RUNS], wall[MAX_RUNS];
            for (int r = 0; r < runs; r++)
                cpu[r] = samples[m][c][r].cpu_ms, wall[r] = samples[m][c][r].wall_ms;
            double mc = bench_median(cpu, (size_t)runs), mw = bench_median(wall, (size_t)runs);
            samples[m][c][0].cpu_ms = mc; /* kept for the ratio of the pair */
            if (c == CASE_KILN_Q || c == CASE_KILN_C) {
                printf("| %s | %s | %lld | %.1f | %.1f | | |\n", models[m][0], case_names[c],
                       sizes[m][c], mc, mw);
            } else {
                int k = c - 1;
                printf("| %s | %s | %lld | %.1f | %.1f | %.3f | %.2f |\n", models[m][0],
                       case_names[c], sizes[m][c], mc, mw,
                       (double)sizes[m][k] / (double)sizes[m][c],
                       samples[m][k][0].cpu_ms / (mc > 0 ? mc : 1));
            }
        }
    for (size_t m = 0; m < MODEL_COUNT; m++)
        for (int c = 0; c < CASE_COUNT; c++) unlink(out[m][c]);
    if (!workdir) rmdir(work);
    free(gltfpack);
    return 0;
}
