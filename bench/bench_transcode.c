/* bench_transcode.c — measures kiln_transcode_rgba8 (the runtime's CPU fallback) on one thread:
 * for each format, Kodak photos kodim01..04 encoded once by kiln's cook (BC at normal quality,
 * ASTC 4x4 at medium), then decoded again and again; prints the median over 5 runs of the decode
 * speed in megatexels per second and in MB/s of RGBA8 written, and for ASTC the same for
 * libastcenc's decoder (kiln_astc_decode, what the cook uses) for comparison. CPU time of the
 * thread, so a shared machine disturbs it less. Usage: bench_transcode [corpus-dir] (default:
 * KILN_CORPUS, then /work/shared/corpus; a synthetic image when neither has the photos). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "import/image.h"
#include "kiln/kiln_format.h"
#include "process/astc.h"
#include "process/block.h"

#define IMAGE_COUNT 4
#define RUNS        5

typedef struct bench_image {
    uint32_t w, h;
    uint8_t *rgba;
} bench_image;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool load_png(const char *path, bench_image *out)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = n > 0 ? malloc((size_t)n) : NULL;
    bool ok = data && fread(data, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    kiln_image img;
    kiln_image_opts opts = {0};
    if (ok) ok = kiln_image_decode(data, (size_t)n, &opts, &img, NULL) == KILN_OK;
    free(data);
    if (!ok) return false;
    if (img.type != KILN_PIXEL_U8) {
        kiln_image_free(&img);
        return false;
    }
    out->w = img.width;
    out->h = img.height;
    out->rgba = malloc(img.size);
    if (out->rgba) memcpy(out->rgba, img.pixels, img.size);
    kiln_image_free(&img);
    return out->rgba != NULL;
}

static bench_image synthetic(void)
{
    bench_image im = {768, 512, malloc((size_t)768 * 512 * 4)};
    for (uint32_t y = 0; im.rgba && y < im.h; y++)
        for (uint32_t x = 0; x < im.w; x++)
            for (int c = 0; c < 4; c++)
                im.rgba[((size_t)y * im.w + x) * 4 + c] =
                    (uint8_t)(128 + 100 * sin(x * (0.05 + 0.02 * c) + y * (0.03 - 0.01 * c)));
    return im;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct encoded {
    uint32_t w, h;
    uint8_t *blocks;
    size_t size;
} encoded;

int main(int argc, char **argv)
{
    const char *corpus = argc > 1 ? argv[1] : getenv("KILN_CORPUS");
    if (!corpus || !*corpus) corpus = "/work/shared/corpus";
    bench_image images[IMAGE_COUNT];
    size_t count = 0;
    for (int i = 1; i <= IMAGE_COUNT; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/images/kodak/kodim%02d.png", corpus, i);
        if (load_png(path, &images[count])) count++;
    }
    if (count == 0) {
        images[0] = synthetic();
        count = images[0].rgba ? 1 : 0;
        printf("Kodak photos not found under %s: one synthetic 768x512 image\n", corpus);
    }
    if (count == 0) return 1;

    static const struct {
        const char *name;
        uint32_t vk;
        kiln_block_format block;
        bool srgb;
    } formats[] = {
        {"BC1", KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK, KILN_BLOCK_BC1, false},
        {"BC4", KILN_VK_FORMAT_BC4_UNORM_BLOCK, KILN_BLOCK_BC4, false},
        {"BC5", KILN_VK_FORMAT_BC5_UNORM_BLOCK, KILN_BLOCK_BC5, false},
        {"BC7", KILN_VK_FORMAT_BC7_UNORM_BLOCK, KILN_BLOCK_BC7, false},
        {"ASTC 4x4 UNORM", KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK, KILN_BLOCK_ASTC4X4, false},
        {"ASTC 4x4 SRGB", KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK, KILN_BLOCK_ASTC4X4, true},
    };
    size_t texels = 0;
    for (size_t i = 0; i < count; i++) texels += (size_t)images[i].w * images[i].h;
    printf("kiln_transcode_rgba8, one thread, %zu images, %.2f Mtexels; median of %d runs\n", count,
           (double)texels / 1e6, RUNS);
    printf("%-16s %12s %12s %14s\n", "format", "Mtexel/s", "MB/s out", "astcenc Mt/s");
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        encoded enc[IMAGE_COUNT];
        kiln_block_opts o = {.quality = KILN_QUALITY_NORMAL, .srgb = formats[f].srgb};
        for (size_t i = 0; i < count; i++) {
            enc[i].w = images[i].w;
            enc[i].h = images[i].h;
            kiln_blocks_size(formats[f].block, enc[i].w, enc[i].h, &enc[i].size);
            enc[i].blocks = malloc(enc[i].size);
            if (!enc[i].blocks || kiln_blocks_encode(formats[f].block, images[i].rgba, enc[i].w,
                                                     enc[i].h, (size_t)enc[i].w * 4, &o, NULL,
                                                     enc[i].blocks, enc[i].size, NULL) != KILN_OK)
                return 1;
        }
        /* Output buffers allocated and touched once, outside the timing (no page faults). */
        uint8_t *outs[IMAGE_COUNT];
        for (size_t i = 0; i < count; i++) {
            outs[i] = malloc((size_t)enc[i].w * enc[i].h * 4);
            if (!outs[i]) return 1;
            memset(outs[i], 0, (size_t)enc[i].w * enc[i].h * 4);
        }
        double ours[RUNS], theirs[RUNS];
        for (int r = 0; r < RUNS; r++) {
            double t0 = now_seconds();
            for (size_t i = 0; i < count; i++) {
                size_t out_size = (size_t)enc[i].w * enc[i].h * 4;
                if (kiln_transcode_rgba8(formats[f].vk, enc[i].blocks, enc[i].size, enc[i].w,
                                         enc[i].h, outs[i], out_size, NULL) != KILN_OK)
                    return 1;
            }
            ours[r] = now_seconds() - t0;
            theirs[r] = 0;
            if (formats[f].block != KILN_BLOCK_ASTC4X4) continue;
            t0 = now_seconds();
            for (size_t i = 0; i < count; i++) {
                if (kiln_astc_decode(enc[i].blocks, enc[i].size, enc[i].w, enc[i].h,
                                     formats[f].srgb, outs[i], NULL) != KILN_OK)
                    return 1;
            }
            theirs[r] = now_seconds() - t0;
        }
        qsort(ours, RUNS, sizeof ours[0], cmp_double);
        qsort(theirs, RUNS, sizeof theirs[0], cmp_double);
        double mt = (double)texels / 1e6 / ours[RUNS / 2];
        printf("%-16s %12.1f %12.1f", formats[f].name, mt, mt * 4);
        if (theirs[RUNS / 2] > 0) printf(" %14.1f\n", (double)texels / 1e6 / theirs[RUNS / 2]);
        else printf(" %14s\n", "-");
        for (size_t i = 0; i < count; i++) {
            free(enc[i].blocks);
            free(outs[i]);
        }
    }
    for (size_t i = 0; i < count; i++) free(images[i].rgba);
    return 0;
}
