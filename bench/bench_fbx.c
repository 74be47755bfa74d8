/* bench_fbx.c — FBX import and model cook time and peak memory per corpus FBX file:
 * each measurement runs in a forked child (bench_child_run), so ru_maxrss is that run's own;
 * the import is kiln_scene_load (assimp in its own guarded grandchild, whose memory is reported
 * separately from RUSAGE_CHILDREN), the cook is kiln_convert_model into a temporary folder.
 * Prints medians of --runs runs. Numbers only, never asserted.
 *
 *   bench_fbx [--corpus DIR] [--runs N]     (DIR: the corpus root; default ../shared/corpus) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "child_run.h"
#include "kiln/kiln.h"
#include "kiln/kiln_scene.h"

typedef struct job {
    const char *path;
    int cook;
    char out[256];
} job;

typedef struct result {
    double seconds;
    long assimp_kb; /* peak of the assimp process (RUSAGE_CHILDREN inside the measured child) */
    int ok;
} result;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void run(void *user, void *res)
{
    job *j = user;
    result *r = res;
    kiln_error err;
    double t0 = now();
    if (j->cook) {
        kiln_convert_opts o;
        memset(&o, 0, sizeof o);
        o.struct_size = sizeof o;
        o.jobs = 1;
        char *json = NULL;
        r->ok = kiln_convert_model(j->path, j->out, &o, &json, &err) == KILN_OK;
        kiln_string_free(json);
    } else {
        kiln_scene *s = NULL;
        kiln_scene_opts o;
        memset(&o, 0, sizeof o);
        o.struct_size = sizeof o;
        o.flags = KILN_SCENE_LOAD_NO_PIXELS;
        r->ok = kiln_scene_load(j->path, &o, &s, &err) == KILN_OK;
        kiln_scene_free(s);
    }
    r->seconds = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    r->assimp_kb = ru.ru_maxrss;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char *const files[] = {
    "fbx/assimp/box.fbx",
    "fbx/assimp/spider.fbx",
    "fbx/assimp/animation_with_skeleton.fbx",
    "fbx/assimp/boxWithCompressedCTypeArray.FBX",
    "fbx/assimp/embedded_ascii/box.FBX",
    "fbx/ufbx/maya_cube_7500_ascii.fbx",
    "fbx/ufbx/maya_cube_7500_binary.fbx",
    "fbx/ufbx/blender_279_sausage_7400_binary.fbx",
    "fbx/ufbx/maya_blend_shape_cube_7700_binary.fbx",
    "fbx/ufbx/maya_uv_and_color_sets_7500_binary.fbx",
    "fbx/ufbx/maya_kenney_character_7700_binary.fbx",
};

int main(int argc, char **argv)
{
    const char *corpus = "../shared/corpus";
    int runs = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--corpus")) corpus = argv[i + 1];
        else if (!strcmp(argv[i], "--runs")) runs = atoi(argv[i + 1]);
    }
    if (runs < 1 || runs > 99) runs = 5;
    /* wait4's ru_maxrss is the largest of the child and the descendants it waited for, so the
     * RSS columns are the larger of kiln's process and assimp's; "assimp MB" is assimp's alone. */
    printf("FBX import and cook (medians of %d runs; RSS = peak of kiln's or assimp's process, "
           "whichever is larger)\n",
           runs);
    printf("%-48s %9s %9s %9s %9s %9s\n", "file", "import ms", "RSS MB", "assimp MB", "cook ms",
           "RSS MB");
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", corpus, files[f]);
        if (access(path, R_OK) != 0) {
            printf("%-48s missing\n", files[f]);
            continue;
        }
        double t[2][99];
        long rss[2] = {0, 0}, assimp_kb = 0;
        int ok = 1;
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < runs; i++) {
                job j = {path, k, ""};
                snprintf(j.out, sizeof j.out, "/tmp/kiln_bench_fbx_%d", (int)getpid());
                result r = {0, 0, 0};
                int status;
                struct rusage ru;
                if (bench_child_run("bench_fbx", run, &j, &r, sizeof r, &status, &ru) != 0 || !r.ok)
                    ok = 0;
                t[k][i] = r.seconds * 1000;
                if (ru.ru_maxrss > rss[k]) rss[k] = ru.ru_maxrss;
                if (!k && r.assimp_kb > assimp_kb) assimp_kb = r.assimp_kb;
                char cmd[300];
                snprintf(cmd, sizeof cmd, "rm -rf '%s'", j.out);
                if (system(cmd) != 0) ok = 0;
            }
        qsort(t[0], (size_t)runs, sizeof(double), cmp);
        qsort(t[1], (size_t)runs, sizeof(double), cmp);
        printf("%-48s %9.1f %9.1f %9.1f %9.1f %9.1f%s\n", files[f], t[0][runs / 2], rss[0] / 1024.0,
               assimp_kb / 1024.0, t[1][runs / 2], rss[1] / 1024.0, ok ? "" : "  (failed)");
    }
    return 0;
}
