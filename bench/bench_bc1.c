/* bench_bc1.c — measures kiln's BC1, BC4 and BC5 encoders on one thread: for each format and
 * quality, the average PSNR over the Kodak photos kodim01..12 (BC1: RGB; BC4: R; BC5: R and G)
 * and the encode speed in megapixels per second; BC5 also on the corpus normal maps, with the
 * mean angular error of the normal rebuilt as z = sqrt(1 - x^2 - y^2) against the source.
 * Usage: bench_bc1 [corpus-dir]   (default: the KILN_CORPUS environment variable, then
 * /work/shared/corpus). A program that prints, not a test. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "import/image.h"
#include "process/bc1.h"

typedef struct bench_image {
    uint32_t w, h;
    uint8_t *rgba;
} bench_image;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: steadier on a shared machine */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool load_png(const char *path, bench_image *out)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = malloc((size_t)n);
    bool ok = data && fread(data, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    kiln_image img;
    kiln_error err;
    kiln_image_opts opts = {0};
    if (ok) ok = kiln_image_decode(data, (size_t)n, &opts, &img, &err) == KILN_OK;
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

typedef struct codec {
    const char *name;
    size_t bytes;
    void (*encode)(const uint8_t *, const kiln_block_opts *, uint8_t *);
    void (*decode)(const uint8_t *, uint8_t *);
    int channels; /* channels the PSNR covers: 3 (RGB), 1 (R), 2 (R, G) */
} codec;

/* Encodes the whole image (edge blocks clamped), timing only the encoder; decodes into dec. */
static double encode_image(const codec *c, const bench_image *im, const kiln_block_opts *o,
                           uint8_t *dec)
{
    uint32_t bw = (im->w + 3) / 4, bh = (im->h + 3) / 4;
    uint8_t *blocks = malloc((size_t)bw * bh * c->bytes);
    uint8_t texels[64];
    double t0 = now_seconds();
    for (uint32_t by = 0; by < bh; by++) {
        for (uint32_t bx = 0; bx < bw; bx++) {
            for (uint32_t i = 0; i < 16; i++) {
                uint32_t x = bx * 4 + i % 4, y = by * 4 + i / 4;
                if (x >= im->w) x = im->w - 1;
                if (y >= im->h) y = im->h - 1;
                memcpy(texels + i * 4, im->rgba + ((size_t)y * im->w + x) * 4, 4);
            }
            c->encode(texels, o, blocks + ((size_t)by * bw + bx) * c->bytes);
        }
    }
    double dt = now_seconds() - t0;
    for (uint32_t by = 0; by < bh; by++) {
        for (uint32_t bx = 0; bx < bw; bx++) {
            c->decode(blocks + ((size_t)by * bw + bx) * c->bytes, texels);
            for (uint32_t i = 0; i < 16; i++) {
                uint32_t x = bx * 4 + i % 4, y = by * 4 + i / 4;
                if (x < im->w && y < im->h)
                    memcpy(dec + ((size_t)y * im->w + x) * 4, texels + i * 4, 4);
            }
        }
    }
    free(blocks);
    return dt;
}

static double psnr(const bench_image *im, const uint8_t *dec, int channels)
{
    double se = 0;
    size_t n = (size_t)im->w * im->h;
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < channels; k++) {
            double d = (double)im->rgba[i * 4 + k] - (double)dec[i * 4 + k];
            se += d * d;
        }
    }
    double mse = se / ((double)n * channels);
    return mse > 0 ? 10.0 * log10(255.0 * 255.0 / mse) : 99.0;
}

/* Sum of angles in degrees between source normals and the ones rebuilt from decoded X, Y. */
static double angle_sum(const bench_image *im, const uint8_t *dec)
{
    double sum = 0;
    size_t n = (size_t)im->w * im->h;
    for (size_t i = 0; i < n; i++) {
        double s[3], r[3];
        for (int k = 0; k < 3; k++) s[k] = im->rgba[i * 4 + k] / 127.5 - 1.0;
        r[0] = dec[i * 4] / 127.5 - 1.0;
        r[1] = dec[i * 4 + 1] / 127.5 - 1.0;
        double z2 = 1.0 - r[0] * r[0] - r[1] * r[1];
        r[2] = z2 > 0 ? sqrt(z2) : 0.0;
        double ls = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
        double lr = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
        double d = (s[0] * r[0] + s[1] * r[1] + s[2] * r[2]) / (ls * lr);
        if (d > 1) d = 1;
        if (d < -1) d = -1;
        sum += acos(d) * (180.0 / 3.14159265358979323846);
    }
    return sum;
}

int main(int argc, char **argv)
{
    const char *corpus = argc > 1 ? argv[1] : getenv("KILN_CORPUS");
    if (!corpus || !*corpus) corpus = "/work/shared/corpus";
    bench_image kodak[12], normals[3];
    int nk = 0, nn = 0;
    char path[1024];
    for (int i = 1; i <= 12; i++) {
        snprintf(path, sizeof path, "%s/images/kodak/kodim%02d.png", corpus, i);
        if (load_png(path, &kodak[nk])) nk++;
    }
    static const char *normal_names[] = {"ldr-xy-00.png", "ldr-xy-01.png", "ldr-xy-normal1.png"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/images/normal/%s", corpus, normal_names[i]);
        if (load_png(path, &normals[nn])) nn++;
    }
    if (nk == 0) {
        fprintf(stderr, "bench_bc1: no Kodak images under %s/images/kodak\n", corpus);
        return 1;
    }
    static const codec codecs[] = {
        {"bc1", 8, kiln_bc1_encode_block, kiln_bc1_decode_block, 3},
        {"bc4", 8, kiln_bc4_encode_block, kiln_bc4_decode_block, 1},
        {"bc5", 16, kiln_bc5_encode_block, kiln_bc5_decode_block, 2},
    };
    static const char *qnames[] = {"fast", "normal", "high"};
    const char *only = getenv("BENCH_BC1_ONLY"); /* e.g. "bc1" to measure one format */
    printf("format quality  PSNR(dB)  Mpix/s   (1 thread, kodim01..%02d)\n", nk);
    for (size_t ci = 0; ci < sizeof codecs / sizeof codecs[0]; ci++) {
        const codec *c = &codecs[ci];
        if (only && strcmp(only, c->name) != 0) continue;
        for (int q = 0; q < 3; q++) {
            kiln_block_opts o = {.quality = (kiln_quality)q};
            double ps = 0, secs = 0, pix = 0;
            for (int i = 0; i < nk; i++) {
                uint8_t *dec = malloc((size_t)kodak[i].w * kodak[i].h * 4);
                secs += encode_image(c, &kodak[i], &o, dec);
                pix += (double)kodak[i].w * kodak[i].h;
                ps += psnr(&kodak[i], dec, c->channels);
                free(dec);
            }
            printf("%-6s %-7s %9.3f %7.2f\n", c->name, qnames[q], ps / nk, pix / secs * 1e-6);
        }
    }
    if (nn > 0 && (!only || strcmp(only, "bc5") == 0)) {
        printf("bc5 normal maps (%d): mean angular error of z = sqrt(1 - x^2 - y^2)\n", nn);
        for (int q = 0; q < 3; q++) {
            kiln_block_opts o = {.quality = (kiln_quality)q, .normal_map = true};
            double angle = 0, secs = 0, pix = 0, ps = 0;
            for (int i = 0; i < nn; i++) {
                uint8_t *dec = malloc((size_t)normals[i].w * normals[i].h * 4);
                secs += encode_image(&codecs[2], &normals[i], &o, dec);
                pix += (double)normals[i].w * normals[i].h;
                angle += angle_sum(&normals[i], dec);
                ps += psnr(&normals[i], dec, 2);
                free(dec);
            }
            printf("bc5n   %-7s %7.4f deg  RG PSNR %.3f dB  %7.2f Mpix/s\n", qnames[q], angle / pix,
                   ps / nn, pix / secs * 1e-6);
        }
    }
    for (int i = 0; i < nk; i++) free(kodak[i].rgba);
    for (int i = 0; i < nn; i++) free(normals[i].rgba);
    return 0;
}
