/* bench_ibl.c — the cook-time cost of image-based lighting on the corpus sky: the panorama into
 * a cube (kiln_cube_from_equirect, face size by kiln_cube_face_size_for_equirect), the
 * GGX-prefiltered specular chain, the SH irradiance and its cube, and the BRDF table, each the
 * median wall-clock time (CLOCK_MONOTONIC) of N runs on 1 and on 2 threads, and the median CPU
 * time of the 1-thread runs (steadier than the wall clock on a shared machine: when the two agree
 * the run was not starved). It also says whether
 * the two thread counts gave the same bytes. It prints; it asserts nothing.
 *
 *   bench_ibl [--runs N] [--samples N] [--size N] [--reference N] [--panorama WxH | IMAGE]
 *
 * IMAGE defaults to images/hdr/hdr-rgb-arboretum.exr under $KILN_CORPUS (else
 * /work/shared/corpus); it is decoded with kiln_image_decode and must be a float image.
 * --panorama WxH times a generated sky of that size instead (a 2:1 one, as real skies are).
 * --samples sets specular_samples (0 = the default), --size the cube's face size (0 = the rule).
 * --reference N also filters the chain with specular_samples = N (N at level 1, doubling per
 * level as the default does) and prints, per level, how far the
 * measured chain is from it: the RMS over the sphere (solid-angle weighted) of the difference in
 * RGB, relative to the RMS of the reference (the sampling noise and bias of the default count).
 * docs/ibl.md keeps the measured table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/jobs.h"
#include "import/image.h"
#include "measure.h"
#include "process/cube.h"
#include "process/ibl.h"

typedef struct outputs {
    float *cube, *spec, *irr, *lut;
    double sh[9][3];
} outputs;

enum { STAGE_CUBE, STAGE_SPEC, STAGE_SH, STAGE_LUT, STAGE_COUNT };
static const char *const stage_names[STAGE_COUNT] = {"panorama -> cube", "specular chain",
                                                     "SH + irradiance cube", "BRDF table"};

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int fail(const char *what, const kiln_error *err)
{
    fprintf(stderr, "bench_ibl: %s: %s\n", what, err->message);
    return 1;
}

/* Per level: RMS of (chain - reference) over RMS of reference, solid-angle weighted. */
static void compare_reference(const outputs *o, uint32_t size, const kiln_ibl_opts *opts,
                              uint32_t samples, kiln_ibl_opts r)
{
    kiln_ibl_opts ro = *opts;
    ro.specular_samples = samples;
    size_t count = kiln_ibl_specular_float_count(r.specular_size, r.specular_levels);
    float *ref = malloc(count * sizeof(float));
    kiln_jobs *pool = NULL;
    kiln_error err;
    if (!ref || kiln_jobs_create(2, NULL, &pool, &err) != KILN_OK ||
        kiln_ibl_specular(o->cube, size, &ro, pool, ref, &err) != KILN_OK) {
        fprintf(stderr, "bench_ibl: the reference chain failed\n");
        free(ref);
        kiln_jobs_destroy(pool);
        return;
    }
    printf("against %u samples: level, roughness, relative RMS difference\n", samples);
    for (uint32_t l = 1; l < r.specular_levels; l++) {
        uint32_t n = r.specular_size >> l;
        size_t off = kiln_ibl_specular_level_offset(r.specular_size, l);
        double d2 = 0.0, r2 = 0.0;
        for (uint32_t f = 0; f < 6; f++)
            for (uint32_t y = 0; y < n; y++)
                for (uint32_t x = 0; x < n; x++) {
                    double w = kiln_cube_texel_solid_angle(n, x, y);
                    size_t i = off + (((size_t)f * n + y) * n + x) * 4;
                    for (int c = 0; c < 3; c++) {
                        double d = (double)o->spec[i + c] - ref[i + c];
                        d2 += w * d * d;
                        r2 += w * (double)ref[i + c] * ref[i + c];
                    }
                }
        printf("  %u  %.3f  %.4f\n", l, (double)l / (r.specular_levels - 1), sqrt(d2 / r2));
    }
    kiln_jobs_destroy(pool);
    free(ref);
}

/* IMAGE (or the corpus sky when *path is NULL) decoded; 0 on success. */
static int load(const char **path, char *def, size_t def_size, kiln_image *img, double *ms)
{
    if (!*path) {
        const char *corpus = getenv("KILN_CORPUS");
        snprintf(def, def_size, "%s/images/hdr/hdr-rgb-arboretum.exr",
                 corpus && *corpus ? corpus : "/work/shared/corpus");
        *path = def;
    }
    size_t file_size;
    char *bytes = bench_read_file(*path, &file_size);
    if (!bytes) {
        fprintf(stderr, "bench_ibl: cannot read %s\n", *path);
        return 1;
    }
    kiln_error err;
    kiln_image_opts iopts = {.name_hint = *path};
    double t0 = bench_now_ms();
    kiln_result r = kiln_image_decode(bytes, file_size, &iopts, img, &err);
    *ms = bench_now_ms() - t0;
    free(bytes);
    if (r != KILN_OK) return fail(*path, &err);
    if (img->type != KILN_PIXEL_F32) {
        fprintf(stderr, "bench_ibl: %s is not a float image\n", *path);
        kiln_image_free(img);
        return 1;
    }
    return 0;
}

/* A w x h sky for timing (--panorama): a gradient, a sun and a seeded noise; 0 on success. */
static int synth_panorama(uint32_t w, uint32_t h, kiln_image *img)
{
    memset(img, 0, sizeof *img);
    size_t n = (size_t)w * h * 4;
    float *p = malloc(n * sizeof(float));
    if (!p) {
        fprintf(stderr, "bench_ibl: out of memory\n");
        return 1;
    }
    uint64_t s = 0x6B696C6E;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            float *t = p + ((size_t)y * w + x) * 4;
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            float noise = (float)(s >> 40) * (1.0f / 16777216.0f);
            float sky = 1.0f - (float)y / (float)h;
            float dx = (float)x - 0.3f * (float)w, dy = (float)y - 0.3f * (float)h;
            float sun = dx * dx + dy * dy < 25.0f ? 50000.0f : 0.0f;
            t[0] = sky + 0.2f * noise + sun;
            t[1] = sky * 0.9f + 0.1f * noise + sun;
            t[2] = sky * 1.2f + sun;
            t[3] = 1.0f;
        }
    img->width = w;
    img->height = h;
    img->type = KILN_PIXEL_F32;
    img->pixels = p;
    img->size = n * sizeof(float);
    return 0;
}

int main(int argc, char **argv)
{
    int runs = 5;
    uint32_t samples = 0, size = 0, reference = 0;
    const char *path = NULL;
    uint32_t pano_w = 0, pano_h = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--samples") && i + 1 < argc) samples = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) size = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reference") && i + 1 < argc)
            reference = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--panorama") && i + 1 < argc) {
            if (sscanf(argv[++i], "%ux%u", &pano_w, &pano_h) != 2 || !pano_w || !pano_h) {
                fprintf(stderr, "bench_ibl: --panorama WxH\n");
                return 2;
            }
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: bench_ibl [--runs N] [--samples N] [--size N] [--reference N] "
                            "[--panorama WxH | IMAGE]\n");
            return 2;
        } else path = argv[i];
    }
    if (runs < 1) runs = 1;
    char def[1024];
    kiln_image img;
    kiln_error err;
    double decode_ms = 0.0;
    if (pano_w) {
        if (synth_panorama(pano_w, pano_h, &img) != 0) return 1;
        path = "generated panorama";
    } else if (load(&path, def, sizeof def, &img, &decode_ms) != 0) {
        return 1;
    }
    if (size == 0) size = kiln_cube_face_size_for_equirect(img.width, img.height);
    kiln_ibl_opts opts = {.specular_samples = samples};
    kiln_ibl_opts r = kiln_ibl_opts_resolve(&opts, size);
    size_t spec_count = kiln_ibl_specular_float_count(r.specular_size, r.specular_levels);
    printf("bench_ibl: %s, %ux%u (decoded in %.1f ms), cube faces %u, specular %u levels from "
           "%u, %u samples, irradiance %u, BRDF table %u (%u samples), median of %d runs\n",
           path, img.width, img.height, decode_ms, size, r.specular_levels, r.specular_size,
           r.specular_samples, r.irradiance_size, r.brdf_size, r.brdf_samples, runs);

    outputs out[2];
    double med[2][STAGE_COUNT], cpu[STAGE_COUNT];
    double *t = malloc(sizeof(double) * (size_t)runs), *tc = malloc(sizeof(double) * (size_t)runs);
    for (int ti = 0; ti < 2; ti++) {
        kiln_jobs *pool = NULL;
        if (kiln_jobs_create((size_t)ti + 1, NULL, &pool, &err) != KILN_OK)
            return fail("jobs", &err);
        outputs *o = &out[ti];
        o->cube = malloc(kiln_cube_float_count(size) * sizeof(float));
        o->spec = malloc(spec_count * sizeof(float));
        o->irr = malloc(kiln_cube_float_count(r.irradiance_size) * sizeof(float));
        o->lut = malloc((size_t)r.brdf_size * r.brdf_size * 2 * sizeof(float));
        if (!t || !tc || !o->cube || !o->spec || !o->irr || !o->lut) {
            fprintf(stderr, "bench_ibl: out of memory\n");
            return 1;
        }
        for (int s = 0; s < STAGE_COUNT; s++) {
            for (int k = 0; k < runs; k++) {
                kiln_result res = KILN_OK;
                double a = bench_now_ms(), ca = cpu_ms();
                switch (s) {
                case STAGE_CUBE:
                    res = kiln_cube_from_equirect(img.pixels, img.width, img.height, size, pool,
                                                  o->cube, &err);
                    break;
                case STAGE_SPEC:
                    res = kiln_ibl_specular(o->cube, size, &opts, pool, o->spec, &err);
                    break;
                case STAGE_SH:
                    res = kiln_ibl_sh(o->cube, size, &opts, pool, o->sh, &err);
                    if (res == KILN_OK) kiln_ibl_irradiance_cube(o->sh, r.irradiance_size, o->irr);
                    break;
                case STAGE_LUT:
                    res = kiln_ibl_brdf_lut(&opts, pool, o->lut, &err);
                    break;
                }
                t[k] = bench_now_ms() - a;
                tc[k] = cpu_ms() - ca;
                if (res != KILN_OK) return fail(stage_names[s], &err);
            }
            med[ti][s] = bench_median(t, (size_t)runs);
            if (ti == 0) cpu[s] = bench_median(tc, (size_t)runs);
        }
        kiln_jobs_destroy(pool);
    }
    printf("%-22s %12s %12s %12s %8s\n", "stage", "1 thread CPU", "1 thread ms", "2 threads ms",
           "speedup");
    double tot[3] = {0, 0, 0};
    for (int s = 0; s < STAGE_COUNT; s++) {
        printf("%-22s %12.1f %12.1f %12.1f %7.2fx\n", stage_names[s], cpu[s], med[0][s], med[1][s],
               med[0][s] / med[1][s]);
        tot[0] += cpu[s];
        tot[1] += med[0][s];
        tot[2] += med[1][s];
    }
    printf("%-22s %12.1f %12.1f %12.1f %7.2fx\n", "total", tot[0], tot[1], tot[2], tot[1] / tot[2]);
    int same =
        !memcmp(out[0].cube, out[1].cube, kiln_cube_float_count(size) * sizeof(float)) &&
        !memcmp(out[0].spec, out[1].spec, spec_count * sizeof(float)) &&
        !memcmp(out[0].sh, out[1].sh, sizeof out[0].sh) &&
        !memcmp(out[0].irr, out[1].irr, kiln_cube_float_count(r.irradiance_size) * sizeof(float)) &&
        !memcmp(out[0].lut, out[1].lut, (size_t)r.brdf_size * r.brdf_size * 2 * 4);
    printf("1 and 2 threads give the same bytes: %s\n", same ? "yes" : "NO");
    if (reference) compare_reference(&out[0], size, &opts, reference, r);
    if (r.specular_size < size) {
        /* SH is linear in texels; the specular chain's level 0 is the same sky, smaller */
        double sh0[9][3], worst = 0.0, norm = 0.0;
        double a = bench_now_ms();
        if (kiln_ibl_sh(out[0].spec, r.specular_size, &opts, NULL, sh0, &err) != KILN_OK)
            return fail("SH of level 0", &err);
        double ms = bench_now_ms() - a;
        for (int k = 0; k < 9; k++)
            for (int c = 0; c < 3; c++) {
                worst = fmax(worst, fabs(sh0[k][c] - out[0].sh[k][c]));
                norm = fmax(norm, fabs(out[0].sh[k][c]));
            }
        printf("SH of the %u specular level 0 instead of the %u cube: %.1f ms, largest coefficient "
               "difference %.2g of the largest coefficient\n",
               r.specular_size, size, ms, worst / norm);
    }
    for (int ti = 0; ti < 2; ti++) {
        free(out[ti].cube);
        free(out[ti].spec);
        free(out[ti].irr);
        free(out[ti].lut);
    }
    free(t);
    free(tc);
    if (pano_w) free(img.pixels);
    else kiln_image_free(&img);
    return same ? 0 : 1;
}
