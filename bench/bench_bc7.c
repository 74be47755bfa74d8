/* bench_bc7.c — kiln's BC7 encoder on the Kodak photos: per quality level, the average RGB PSNR
 * (mean of the per-image PSNRs, as bc7enc reports them), megapixels per second on one thread
 * (blocks encoded inline, no job pool; CPU time of the thread, so that other work on a shared
 * machine does not count) and how often each mode was chosen. It prints; it never
 * asserts. docs/bc7.md records what it measured.
 *
 *   bench_bc7 [--corpus DIR] [--images N] [--quality fast|normal|high]
 *
 * DIR defaults to $KILN_CORPUS, then ../shared/corpus, then /work/shared/corpus; the images are
 * DIR/images/kodak/kodim01.png .. kodimNN.png (N = 12 by default). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "import/image.h"
#include "process/bc7.h"
#include "process/block.h"

static void *bench_read(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = n > 0 ? malloc((size_t)n) : NULL;
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) free(p), p = NULL;
    fclose(f);
    *size = (size_t)n;
    return p;
}

static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *corpus = getenv("KILN_CORPUS");
    int images = 12, qfirst = 0, qlast = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--corpus") && i + 1 < argc) corpus = argv[++i];
        else if (!strcmp(argv[i], "--images") && i + 1 < argc) images = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quality") && i + 1 < argc) {
            const char *q = argv[++i];
            qfirst = qlast = !strcmp(q, "fast") ? 0 : !strcmp(q, "high") ? 2 : 1;
        } else {
            fprintf(stderr, "usage: bench_bc7 [--corpus DIR] [--images N] [--quality Q]\n");
            return 2;
        }
    }
    if (!corpus || !*corpus) {
        FILE *f = fopen("../shared/corpus/images/kodak/kodim01.png", "rb");
        corpus = f ? "../shared/corpus" : "/work/shared/corpus";
        if (f) fclose(f);
    }
    static const char *names[3] = {"fast", "normal", "high"};
    printf("BC7, kodim01..%02d, 1 thread, RGB PSNR (mean of per-image dB)\n", images);
    printf("%-7s %9s %9s   mode use %% (0..7)\n", "level", "PSNR dB", "Mpix/s");
    for (int q = qfirst; q <= qlast; q++) {
        double psnr_sum = 0, secs = 0, pixels = 0;
        unsigned long modes[9] = {0}, nblocks = 0;
        int done = 0;
        for (int k = 1; k <= images; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/images/kodak/kodim%02d.png", corpus, k);
            size_t size;
            void *data = bench_read(path, &size);
            if (!data) {
                fprintf(stderr, "bench_bc7: cannot read %s\n", path);
                return 1;
            }
            kiln_image img;
            kiln_error err;
            kiln_image_opts io = {0};
            if (kiln_image_decode(data, size, &io, &img, &err) != KILN_OK ||
                img.type != KILN_PIXEL_U8) {
                fprintf(stderr, "bench_bc7: cannot decode %s\n", path);
                return 1;
            }
            free(data);
            size_t bsize;
            kiln_blocks_size(KILN_BLOCK_BC7, img.width, img.height, &bsize);
            uint8_t *blocks = malloc(bsize);
            uint8_t *dec = malloc((size_t)img.width * img.height * 4);
            kiln_block_opts o = {.quality = (kiln_quality)q};
            double t0 = bench_now();
            if (kiln_blocks_encode(KILN_BLOCK_BC7, img.pixels, img.width, img.height,
                                   (size_t)img.width * 4, &o, NULL, blocks, bsize,
                                   &err) != KILN_OK) {
                fprintf(stderr, "bench_bc7: encode failed: %s\n", err.message);
                return 1;
            }
            secs += bench_now() - t0;
            pixels += (double)img.width * img.height;
            kiln_blocks_decode(KILN_BLOCK_BC7, blocks, bsize, img.width, img.height, false, dec,
                               &err);
            double se = 0;
            const uint8_t *src = img.pixels;
            size_t n = (size_t)img.width * img.height;
            for (size_t i = 0; i < n; i++)
                for (int c = 0; c < 3; c++) {
                    double d = (double)src[4 * i + c] - dec[4 * i + c];
                    se += d * d;
                }
            double mse = se / (double)(n * 3);
            psnr_sum += mse > 0 ? 10.0 * log10(255.0 * 255.0 / mse) : 99.0;
            for (size_t b = 0; b < bsize / 16; b++) {
                unsigned m = 0;
                while (m < 8 && !(blocks[16 * b] & (1u << m))) m++;
                modes[m]++, nblocks++;
            }
            done++;
            free(blocks);
            free(dec);
            kiln_image_free(&img);
        }
        printf("%-7s %9.3f %9.3f  ", names[q], psnr_sum / done, pixels / secs / 1e6);
        for (int m = 0; m < 8; m++) printf(" %4.1f", 100.0 * (double)modes[m] / (double)nblocks);
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
