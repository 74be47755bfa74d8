/* bench_hdr.c — the HDR texture-encoder benchmark: kiln's BC6H (unsigned) at fast / normal / high
 * side by side with ARM's astcenc command encoding ASTC 4x4 HDR (`-ch`, the same 8 bits a texel)
 * at -fast / -medium / -thorough, single-threaded, over the .hdr and .exr images of a folder. It
 * prints quality and speed; it asserts nothing.
 *
 *   bench_hdr [--images DIR] [--astcenc PATH|none] [--runs N] [--levels fast,normal,high]
 *
 * DIR defaults to the corpus's images/hdr. Each timing is the median of N runs (default 3).
 *
 * Quality is computed in one place, log2_rmse(), for both: each output is decoded to half floats
 * (kiln's BC6H decoder; libastcenc's HDR decoder for ASTC, as `astcenc -dh`) and compared with the
 * same source texels, kiln's reading of the file rounded to half floats as the cook does:
 *
 *   log2-RMSE = sqrt( mean over texels and R, G, B of (log2(d + e) - log2(s + e))^2 )
 *
 * with d, s the decoded and source values clamped to >= 0 and e = 2^-8 (so errors in texels
 * much darker than 1/256 count little). 0.01 means a typical error of 0.7 % of the value. A second
 * metric, which kiln's encoder does not aim at: mPSNR over exposures -6..+6 stops (mpsnr()).
 * Timings: kiln's are the wall clock of kiln_blocks_encode with no job pool (one thread);
 * astcenc's are the "Coding time" it prints with -j 1 (no file reading or writing). */
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "import/image.h"
#include "measure.h"
#include "process/block.h"
#include "process/half.h"

#ifndef KILN_BENCH_CORPUS
#define KILN_BENCH_CORPUS "../shared/corpus"
#endif

#define HDR_MAX_IMAGES 64
#define HDR_MAX_RUNS   50
#define HDR_PATH_MAX   4096
#define HDR_LOG_EPS    (1.0 / 256.0)

typedef struct hdr_image {
    char path[HDR_PATH_MAX];
    const char *name;
    uint32_t w, h;
    uint16_t *half; /* w * h * 4 source halves */
} hdr_image;

static const char *const level_names[3] = {"fast", "normal", "high"};
static const char *const astcenc_presets[3] = {"-fast", "-medium", "-thorough"};

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool load_image(const char *path, hdr_image *out)
{
    size_t size;
    char *data = bench_read_file(path, &size);
    if (!data) return false;
    kiln_image img;
    kiln_error err;
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.name_hint = path;
    kiln_result r = kiln_image_decode(data, size, &opts, &img, &err);
    free(data);
    if (r != KILN_OK || img.type != KILN_PIXEL_F32) {
        fprintf(stderr, "bench_hdr: %s: %s\n", path, r != KILN_OK ? err.message : "not float");
        if (r == KILN_OK) kiln_image_free(&img);
        return false;
    }
    out->w = img.width;
    out->h = img.height;
    size_t n = (size_t)img.width * img.height * 4;
    out->half = malloc(n * sizeof(uint16_t));
    const float *p = img.pixels;
    for (size_t i = 0; i < n; i++) out->half[i] = kiln_half_from_float_sat(p[i]);
    kiln_image_free(&img);
    return out->half != NULL;
}

/* mPSNR (Munkberg et al., "High dynamic range texture compression for graphics hardware", 2006):
 * each value tone-mapped at exposures 2^c, c = -6 .. +6, as 255 (2^c v)^(1/2.2) clamped to
 * [0, 255]; the PSNR of the mean squared error over exposures, texels and R, G, B. */
#define HDR_MPSNR_STOPS 6
static double mpsnr(const hdr_image *im, const uint16_t *dec)
{
    double sum = 0;
    size_t n = (size_t)im->w * im->h;
    for (int c = -HDR_MPSNR_STOPS; c <= HDR_MPSNR_STOPS; c++) {
        double scale = ldexp(1.0, c);
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++) {
                double s = kiln_half_to_float(im->half[4 * i + k]) * scale;
                double d = kiln_half_to_float(dec[4 * i + k]) * scale;
                s = s > 0 ? fmin(255.0, 255.0 * pow(s, 1.0 / 2.2)) : 0;
                d = d > 0 ? fmin(255.0, 255.0 * pow(d, 1.0 / 2.2)) : 0;
                sum += (s - d) * (s - d);
            }
    }
    double mse = sum / ((double)n * 3 * (2 * HDR_MPSNR_STOPS + 1));
    return mse > 0 ? 10.0 * log10(255.0 * 255.0 / mse) : 99.0;
}

static double log2_rmse(const hdr_image *im, const uint16_t *dec)
{
    double sum = 0;
    size_t n = (size_t)im->w * im->h;
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            double s = kiln_half_to_float(im->half[4 * i + c]);
            double d = kiln_half_to_float(dec[4 * i + c]);
            s = s > 0 ? s : 0;
            d = d > 0 ? d : 0;
            double e = log2(d + HDR_LOG_EPS) - log2(s + HDR_LOG_EPS);
            sum += e * e;
        }
    return sqrt(sum / (double)(n * 3));
}

/* One astcenc run: its printed coding time in seconds, and the decoded texels. */
static bool astcenc_run(const char *tool, const char *tmp, const hdr_image *im, int level,
                        double *secs, uint16_t *dec)
{
    char out[HDR_PATH_MAX + 32], cmd[3 * HDR_PATH_MAX];
    snprintf(out, sizeof out, "%s/peer.astc", tmp);
    remove(out);
    snprintf(cmd, sizeof cmd, "'%s' -ch '%s' '%s' 4x4 %s -j 1 2>&1", tool, im->path, out,
             astcenc_presets[level]);
    FILE *pp = popen(cmd, "r");
    if (!pp) return false;
    char line[1024];
    double t = -1;
    while (fgets(line, sizeof line, pp)) {
        const char *k = strstr(line, "Coding time:");
        if (k) t = strtod(k + strlen("Coding time:"), NULL);
    }
    int status = pclose(pp);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || t < 0) return false;
    *secs = t;
    size_t size, need;
    char *file = bench_read_file(out, &size);
    if (!file || !kiln_blocks_size(KILN_BLOCK_ASTC4X4_HDR, im->w, im->h, &need)) {
        free(file);
        return false;
    }
    const uint8_t *blocks = bench_astc_blocks((const uint8_t *)file, size, im->w, im->h, need);
    kiln_error err;
    bool ok = blocks && kiln_blocks_decode_half(KILN_BLOCK_ASTC4X4_HDR, blocks, need, im->w, im->h,
                                                dec, &err) == KILN_OK;
    free(file);
    return ok;
}

int main(int argc, char **argv)
{
    const char *dir = KILN_BENCH_CORPUS "/images/hdr", *astcenc = "astcenc";
    unsigned runs = 3;
    bool levels[3] = {true, true, true};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--images") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--astcenc") && i + 1 < argc) astcenc = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--levels") && i + 1 < argc) {
            const char *l = argv[++i];
            for (int k = 0; k < 3; k++) levels[k] = strstr(l, level_names[k]) != NULL;
        } else {
            fprintf(stderr, "usage: bench_hdr [--images DIR] [--astcenc PATH|none] [--runs N] "
                            "[--levels fast,normal,high]\n");
            return 2;
        }
    }
    if (runs < 1) runs = 1;
    if (runs > HDR_MAX_RUNS) runs = HDR_MAX_RUNS;
    if (!strcmp(astcenc, "none")) astcenc = NULL;

    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "bench_hdr: cannot open %s\n", dir);
        return 1;
    }
    char *names[HDR_MAX_IMAGES];
    size_t count = 0;
    struct dirent *de;
    while ((de = readdir(d)) && count < HDR_MAX_IMAGES)
        if (has_suffix(de->d_name, ".hdr") || has_suffix(de->d_name, ".exr"))
            names[count++] = strdup(de->d_name);
    closedir(d);
    qsort(names, count, sizeof *names, cmp_str);

    char tmp[] = "/tmp/kiln_bench_hdr_XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    printf("HDR encoders, one thread, %u run(s) each (median); quality: log2-RMSE of RGB, "
           "e = 2^-8 (lower is better)\n",
           runs);
    printf("%-28s %-22s %12s %9s %10s %10s\n", "image", "encoder", "log2-RMSE", "mPSNR dB",
           "Mtexel/s", "ms");
    double sum_err[2][3] = {{0}}, sum_ms[2][3] = {{0}}, sum_mse[2][3] = {{0}}, sum_texels = 0;
    bool peer_ok[3] = {astcenc != NULL, astcenc != NULL, astcenc != NULL};
    size_t images = 0;
    for (size_t f = 0; f < count; f++) {
        hdr_image im;
        memset(&im, 0, sizeof im);
        snprintf(im.path, sizeof im.path, "%s/%s", dir, names[f]);
        im.name = names[f];
        if (!load_image(im.path, &im)) continue;
        images++;
        size_t texels = (size_t)im.w * im.h, need;
        sum_texels += (double)texels;
        kiln_blocks_size(KILN_BLOCK_BC6H, im.w, im.h, &need);
        uint8_t *blocks = malloc(need);
        uint16_t *dec = malloc(texels * 4 * sizeof(uint16_t));
        for (int level = 0; level < 3; level++) {
            if (!levels[level]) continue;
            kiln_block_opts o = {(kiln_quality)level, false, false};
            double ms[HDR_MAX_RUNS];
            kiln_error err;
            for (unsigned r = 0; r < runs; r++) {
                double t0 = bench_now_ms();
                if (kiln_blocks_encode(KILN_BLOCK_BC6H, (const uint8_t *)im.half, im.w, im.h,
                                       (size_t)im.w * 8, &o, NULL, blocks, need, &err) != KILN_OK) {
                    fprintf(stderr, "bench_hdr: %s\n", err.message);
                    return 1;
                }
                ms[r] = bench_now_ms() - t0;
            }
            kiln_blocks_decode_half(KILN_BLOCK_BC6H, blocks, need, im.w, im.h, dec, &err);
            double m = bench_median(ms, runs), e = log2_rmse(&im, dec), p = mpsnr(&im, dec);
            sum_err[0][level] += e * (double)texels;
            sum_mse[0][level] += pow(10.0, -p / 10.0) * (double)texels;
            sum_ms[0][level] += m;
            char label[64];
            snprintf(label, sizeof label, "kiln bc6h %s", level_names[level]);
            printf("%-28s %-22s %12.5f %9.3f %10.3f %10.1f\n", im.name, label, e, p,
                   (double)texels / m / 1000.0, m);
            if (!peer_ok[level]) continue;
            for (unsigned r = 0; r < runs && peer_ok[level]; r++) {
                double s = 0;
                if (!astcenc_run(astcenc, tmp, &im, level, &s, dec)) {
                    fprintf(stderr, "bench_hdr: astcenc %s failed on %s; peer skipped\n",
                            astcenc_presets[level], im.name);
                    peer_ok[level] = false;
                }
                ms[r] = s * 1000.0;
            }
            if (!peer_ok[level]) continue;
            m = bench_median(ms, runs);
            e = log2_rmse(&im, dec);
            p = mpsnr(&im, dec);
            sum_err[1][level] += e * (double)texels;
            sum_mse[1][level] += pow(10.0, -p / 10.0) * (double)texels;
            sum_ms[1][level] += m;
            snprintf(label, sizeof label, "astcenc -ch %s", astcenc_presets[level]);
            printf("%-28s %-22s %12.5f %9.3f %10.3f %10.1f\n", im.name, label, e, p,
                   (double)texels / m / 1000.0, m);
        }
        free(blocks);
        free(dec);
        free(im.half);
    }
    if (images == 0) {
        fprintf(stderr, "bench_hdr: no .hdr or .exr image in %s\n", dir);
        return 1;
    }
    printf("\nall %zu images (texel-weighted log2-RMSE and mPSNR, total time):\n", images);
    for (int level = 0; level < 3; level++) {
        if (!levels[level]) continue;
        printf("  %-8s kiln bc6h %.5f %7.3f dB %8.3f Mtexel/s", level_names[level],
               sum_err[0][level] / sum_texels, -10.0 * log10(sum_mse[0][level] / sum_texels),
               sum_texels / sum_ms[0][level] / 1000.0);
        if (peer_ok[level])
            printf("   astcenc %-9s %.5f %7.3f dB %8.3f Mtexel/s   speed ratio kiln/astcenc %.2f",
                   astcenc_presets[level], sum_err[1][level] / sum_texels,
                   -10.0 * log10(sum_mse[1][level] / sum_texels),
                   sum_texels / sum_ms[1][level] / 1000.0, sum_ms[1][level] / sum_ms[0][level]);
        printf("\n");
    }
    rmdir(tmp);
    for (size_t f = 0; f < count; f++) free(names[f]);
    return 0;
}
