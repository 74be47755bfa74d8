/* test_astc.c — ASTC 4x4 through libastcenc (src/process/astc_shim.cpp): kiln's blocks equal the
 * astcenc command's for the same pixels, preset, profile and flags, for any number of threads on
 * either side; kiln's decoder equals `astcenc -dl|-ds`; the threading holds up when the pool runs
 * astcenc's thread indices one after another. The command reads PNGs the test writes with
 * libspng's encoder (or the corpus PNG itself) and writes .astc files (format: docs/astc.md). */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/jobs.h"
#include "import/image.h"
#include "process/astc.h"
#include "process/block.h"
#include "process/half.h"

/* ---- fixtures ------------------------------------------------------------------------------ */

typedef struct rgba_image {
    uint32_t w, h;
    uint8_t *px; /* w * h * 4 */
} rgba_image;

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* Gradients, a ring, noise and an alpha ramp with a hole: every kind of block astcenc chooses
 * between (smooth, edges, noise, varying and constant alpha). */
static rgba_image synthetic(uint32_t w, uint32_t h, uint32_t seed)
{
    rgba_image im = {w, h, malloc((size_t)w * h * 4)};
    assert_non_null(im.px);
    uint32_t s = seed;
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = im.px + ((size_t)y * w + x) * 4;
            int dx = (int)x - (int)w / 2, dy = (int)y - (int)h / 2;
            int r2 = dx * dx + dy * dy;
            p[0] = (uint8_t)(x * 255 / (w - 1));
            p[1] = (uint8_t)(r2 % 97 < 48 ? 40 : 220);
            p[2] = (uint8_t)((y * 255 / (h - 1) + (lcg(&s) & 31)) & 255);
            p[3] = x < w / 3 ? 255 : (uint8_t)((x * 7 + y * 3) & 255);
            if (x > w / 2 && y < h / 3) p[3] = 0;
        }
    }
    return im;
}

/* Unit normals of a bumpy surface, packed to [0, 255] (X, Y, Z, 255). */
static rgba_image normal_map(uint32_t w, uint32_t h)
{
    rgba_image im = {w, h, malloc((size_t)w * h * 4)};
    assert_non_null(im.px);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            double nx = 0.6 * ((double)((x * 13 + y * 5) % 29) / 28.0 - 0.5);
            double ny = 0.6 * ((double)((y * 11 + x * 3) % 23) / 22.0 - 0.5);
            double nz = 1.0 - nx * nx - ny * ny;
            nz = nz > 0 ? sqrt(nz) : 0;
            uint8_t *p = im.px + ((size_t)y * w + x) * 4;
            p[0] = (uint8_t)((nx * 0.5 + 0.5) * 255.0 + 0.5);
            p[1] = (uint8_t)((ny * 0.5 + 0.5) * 255.0 + 0.5);
            p[2] = (uint8_t)((nz * 0.5 + 0.5) * 255.0 + 0.5);
            p[3] = 255;
        }
    }
    return im;
}

static void png_write_rgba(const char *path, const rgba_image *im)
{
    kt_write_png(path, im->px, im->w, im->h, 4);
}

static rgba_image png_read(const char *path)
{
    size_t size = 0;
    void *data = kt_read_file(path, &size);
    if (!data) fail_msg("cannot read %s", path);
    kiln_image img;
    kiln_error err;
    kiln_image_opts opts = {0};
    if (kiln_image_decode(data, size, &opts, &img, &err) != KILN_OK)
        fail_msg("%s: %s", path, err.message);
    free(data);
    assert_int_equal(img.type, KILN_PIXEL_U8);
    rgba_image im = {img.width, img.height, malloc(img.size)};
    assert_non_null(im.px);
    memcpy(im.px, img.pixels, img.size);
    kiln_image_free(&img);
    return im;
}

static rgba_image crop(const rgba_image *im, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h)
{
    rgba_image c = {w, h, malloc((size_t)w * h * 4)};
    assert_non_null(c.px);
    for (uint32_t y = 0; y < h; y++)
        memcpy(c.px + (size_t)y * w * 4, im->px + ((size_t)(y0 + y) * im->w + x0) * 4,
               (size_t)w * 4);
    return c;
}

static size_t block_bytes(uint32_t w, uint32_t h)
{
    return (size_t)((w + 3) / 4) * ((h + 3) / 4) * 16;
}

/* ---- .astc files: 16-byte header, then the blocks in row-major order ----------------------- */

static void put_u24(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
}

static uint32_t get_u24(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
}

static void astc_file_write(const char *path, uint32_t w, uint32_t h, const uint8_t *blocks)
{
    size_t n = block_bytes(w, h);
    uint8_t *file = malloc(16 + n);
    assert_non_null(file);
    const uint8_t head[7] = {0x13, 0xAB, 0xA1, 0x5C, 4, 4, 1}; /* magic 0x5CA1AB13 LE, 4x4x1 */
    memcpy(file, head, sizeof head);
    put_u24(file + 7, w);
    put_u24(file + 10, h);
    put_u24(file + 13, 1);
    memcpy(file + 16, blocks, n);
    kt_write_file(path, file, 16 + n);
    free(file);
}

/* The blocks of an .astc file the command wrote, after checking its header says w x h in 4x4. */
static uint8_t *astc_file_blocks(const char *path, uint32_t w, uint32_t h)
{
    size_t size = 0;
    uint8_t *file = kt_read_file(path, &size);
    if (!file) fail_msg("the command wrote no %s", path);
    size_t n = block_bytes(w, h);
    if (size != 16 + n) fail_msg("%s: %zu bytes, expected 16 + %zu", path, size, n);
    assert_int_equal(file[0], 0x13);
    assert_int_equal(file[1], 0xAB);
    assert_int_equal(file[2], 0xA1);
    assert_int_equal(file[3], 0x5C);
    assert_int_equal(file[4], 4);
    assert_int_equal(file[5], 4);
    assert_int_equal(file[6], 1);
    assert_int_equal(get_u24(file + 7), w);
    assert_int_equal(get_u24(file + 10), h);
    assert_int_equal(get_u24(file + 13), 1);
    uint8_t *blocks = malloc(n);
    assert_non_null(blocks);
    memcpy(blocks, file + 16, n);
    free(file);
    return blocks;
}

/* ---- the two encoders ---------------------------------------------------------------------- */

static const char *const preset_flag[3] = {"-fast", "-medium", "-thorough"};

static bool have_astcenc(void) { return kt_run("astcenc -version >/dev/null 2>&1", NULL) == 0; }

static uint8_t *command_encode(const char *dir, const char *png, uint32_t w, uint32_t h,
                               kiln_quality q, bool srgb, bool normal, int threads)
{
    char *out = kt_format("%s/cmd.astc", dir);
    remove(out);
    char *cmd = kt_format("astcenc %s '%s' '%s' 4x4 %s %s -j %d -silent 2>&1", srgb ? "-cs" : "-cl",
                          png, out, preset_flag[q], normal ? "-normal" : "", threads);
    char *log = NULL;
    int rc = kt_run(cmd, &log);
    if (rc != 0) fail_msg("%s: exit %d: %s", cmd, rc, log ? log : "");
    free(log);
    uint8_t *blocks = astc_file_blocks(out, w, h);
    free(cmd);
    free(out);
    return blocks;
}

static uint8_t *kiln_encode(const rgba_image *im, kiln_quality q, bool srgb, bool normal,
                            size_t threads)
{
    kiln_jobs *jobs = NULL;
    kiln_error err;
    if (threads > 1) assert_int_equal(kiln_jobs_create(threads, NULL, &jobs, &err), KILN_OK);
    size_t n = block_bytes(im->w, im->h);
    uint8_t *out = malloc(n);
    assert_non_null(out);
    kiln_block_opts o = {.quality = q, .srgb = srgb, .normal_map = normal};
    if (kiln_astc_encode(im->px, im->w, im->h, &o, jobs, out, n, &err) != KILN_OK)
        fail_msg("kiln_astc_encode: %s", err.message);
    kiln_jobs_destroy(jobs);
    return out;
}

static void assert_blocks_equal(const uint8_t *kiln, const uint8_t *cmd, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (kiln[i] != cmd[i])
            fail_msg("%s: block %zu (byte %zu of %zu) differs from the astcenc command's", what,
                     i / 16, i, n);
}

/* Encodes im with the command (threads given) and with kiln on kiln_threads_from..2 threads;
 * all equal. */
static void check_same_as_command(const char *dir, const char *png, const rgba_image *im,
                                  kiln_quality q, bool srgb, bool normal, int cmd_threads,
                                  size_t kiln_threads_from)
{
    size_t n = block_bytes(im->w, im->h);
    uint8_t *cmd = command_encode(dir, png, im->w, im->h, q, srgb, normal, cmd_threads);
    for (size_t t = kiln_threads_from; t <= 2; t++) {
        uint8_t *ours = kiln_encode(im, q, srgb, normal, t);
        char *what = kt_format("%s %ux%u %s %s%s, astcenc -j %d, kiln %zu thread(s)", png, im->w,
                               im->h, srgb ? "-cs" : "-cl", preset_flag[q],
                               normal ? " -normal" : "", cmd_threads, t);
        assert_blocks_equal(ours, cmd, n, what);
        free(what);
        free(ours);
    }
    free(cmd);
}

/* Decodes blocks with kiln and with `astcenc -dl|-ds` (PNG out, read back by kiln's importer). */
static void check_decode_same_as_command(const char *dir, const uint8_t *blocks, uint32_t w,
                                         uint32_t h, bool srgb)
{
    char *in = kt_format("%s/dec.astc", dir), *out = kt_format("%s/dec.png", dir);
    astc_file_write(in, w, h, blocks);
    remove(out);
    char *cmd = kt_format("astcenc %s '%s' '%s' -silent 2>&1", srgb ? "-ds" : "-dl", in, out);
    char *log = NULL;
    int rc = kt_run(cmd, &log);
    if (rc != 0) fail_msg("%s: exit %d: %s", cmd, rc, log ? log : "");
    free(log);
    rgba_image theirs = png_read(out);
    assert_int_equal(theirs.w, w);
    assert_int_equal(theirs.h, h);

    uint8_t *ours = malloc((size_t)w * h * 4);
    assert_non_null(ours);
    kiln_error err;
    if (kiln_astc_decode(blocks, block_bytes(w, h), w, h, srgb, ours, &err) != KILN_OK)
        fail_msg("kiln_astc_decode: %s", err.message);
    for (size_t i = 0; i < (size_t)w * h * 4; i++)
        if (ours[i] != theirs.px[i])
            fail_msg("%s: texel (%zu, %zu) channel %zu: kiln %u, astcenc %u", cmd, i / 4 % w,
                     i / 4 / w, i % 4, ours[i], theirs.px[i]);
    free(ours);
    free(theirs.px);
    free(cmd);
    free(in);
    free(out);
}

/* ---- tests --------------------------------------------------------------------------------- */

static void astc_medium_blocks_equal_astcenc_command_on_odd_sized_image(void **state)
{
    (void)state;
    if (!have_astcenc()) skip();
    char *dir = kt_tempdir("astc");
    char *png = kt_format("%s/synthetic.png", dir);
    rgba_image im = synthetic(37, 21, 7);
    png_write_rgba(png, &im);
    for (int srgb = 0; srgb <= 1; srgb++)
        for (int j = 1; j <= 2; j++)
            check_same_as_command(dir, png, &im, KILN_QUALITY_NORMAL, srgb, false, j, 1);
    free(im.px);
    free(png);
    kt_rmtree(dir);
    free(dir);
}

static void astc_medium_blocks_equal_astcenc_command_on_kodim01(void **state)
{
    (void)state;
    char *png = kt_corpus_path("images/kodak/kodim01.png");
    if (!png || !have_astcenc()) {
        free(png);
        skip();
    }
    char *dir = kt_tempdir("astc");
    rgba_image im = png_read(png);
    /* The whole photo once (kiln on 2 threads; 1 vs 2 threads is covered on the small images),
     * and sRGB on a crop with an odd size, to keep the test fast. */
    check_same_as_command(dir, png, &im, KILN_QUALITY_NORMAL, false, false, 1, 2);
    rgba_image part = crop(&im, 301, 117, 250, 131);
    char *part_png = kt_format("%s/kodim01-crop.png", dir);
    png_write_rgba(part_png, &part);
    check_same_as_command(dir, part_png, &part, KILN_QUALITY_NORMAL, true, false, 2, 1);

    /* And the blocks decode to the same texels in both decoders. */
    uint8_t *blocks = kiln_encode(&part, KILN_QUALITY_NORMAL, true, false, 2);
    check_decode_same_as_command(dir, blocks, part.w, part.h, true);
    free(blocks);
    free(part_png);
    free(part.px);
    free(im.px);
    free(png);
    kt_rmtree(dir);
    free(dir);
}

static void astc_normal_map_medium_blocks_equal_astcenc_command_with_normal_flag(void **state)
{
    (void)state;
    if (!have_astcenc()) skip();
    char *dir = kt_tempdir("astc");
    char *png = kt_format("%s/normal.png", dir);
    rgba_image im = normal_map(30, 18);
    png_write_rgba(png, &im);
    check_same_as_command(dir, png, &im, KILN_QUALITY_NORMAL, false, true, 2, 1);
    check_same_as_command(dir, png, &im, KILN_QUALITY_NORMAL, false, true, 1, 1);

    /* -normal stores X in RGB and Y in alpha (the rrrg swizzle), which is what a sampler sees. */
    uint8_t *blocks = kiln_encode(&im, KILN_QUALITY_NORMAL, false, true, 1);
    uint8_t *texels = malloc((size_t)im.w * im.h * 4);
    assert_non_null(texels);
    kiln_error err;
    assert_int_equal(
        kiln_astc_decode(blocks, block_bytes(im.w, im.h), im.w, im.h, false, texels, &err),
        KILN_OK);
    for (size_t i = 0; i < (size_t)im.w * im.h; i++) {
        const uint8_t *t = texels + i * 4, *s = im.px + i * 4;
        assert_int_equal(t[0], t[1]);
        assert_int_equal(t[0], t[2]);
        assert_in_range(t[0], s[0] > 12 ? s[0] - 12 : 0, s[0] + 12);
        assert_in_range(t[3], s[1] > 12 ? s[1] - 12 : 0, s[1] + 12);
    }
    free(texels);
    free(blocks);
    free(im.px);
    free(png);
    kt_rmtree(dir);
    free(dir);
}

static double rgb_psnr(const uint8_t *a, const rgba_image *src)
{
    double se = 0;
    size_t n = (size_t)src->w * src->h;
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            double d = (double)a[i * 4 + c] - src->px[i * 4 + c];
            se += d * d;
        }
    return se == 0 ? 99.0 : 10.0 * log10(255.0 * 255.0 * 3.0 * (double)n / se);
}

/* PSNR of kiln's and the command's blocks against the source, at a preset whose bytes may differ
 * (libastcenc 4.2's latched refinement overshoot, docs/astc.md). */
static void check_psnr_near_command(const char *dir, const rgba_image *im, kiln_quality q,
                                    double tolerance)
{
    char *png = kt_format("%s/psnr.png", dir);
    png_write_rgba(png, im);
    size_t n = block_bytes(im->w, im->h);
    uint8_t *cmd = command_encode(dir, png, im->w, im->h, q, false, false, 2);
    uint8_t *ours = kiln_encode(im, q, false, false, 2);
    uint8_t *a = malloc((size_t)im->w * im->h * 4), *b = malloc((size_t)im->w * im->h * 4);
    assert_non_null(a);
    assert_non_null(b);
    kiln_error err;
    assert_int_equal(kiln_astc_decode(ours, n, im->w, im->h, false, a, &err), KILN_OK);
    assert_int_equal(kiln_astc_decode(cmd, n, im->w, im->h, false, b, &err), KILN_OK);
    double pk = rgb_psnr(a, im), pc = rgb_psnr(b, im);
    print_message("    %ux%u %s: kiln %.3f dB, astcenc %.3f dB\n", im->w, im->h, preset_flag[q], pk,
                  pc);
    if (pk < pc - tolerance)
        fail_msg("%s: kiln %.3f dB is more than %.2f dB under astcenc's %.3f dB", preset_flag[q],
                 pk, tolerance, pc);
    free(a);
    free(b);
    free(ours);
    free(cmd);
    free(png);
}

static void astc_fast_and_high_stay_within_0_2_db_of_the_command(void **state)
{
    (void)state;
    char *path = kt_corpus_path("images/kodak/kodim01.png");
    if (!path || !have_astcenc()) {
        free(path);
        skip();
    }
    char *dir = kt_tempdir("astc");
    rgba_image im = png_read(path);
    check_psnr_near_command(dir, &im, KILN_QUALITY_FAST, 0.2); /* measured -0.105 dB */
    rgba_image small = crop(&im, 300, 200, 96, 64);
    check_psnr_near_command(dir, &small, KILN_QUALITY_HIGH, 0.2); /* measured equal */
    free(small.px);
    free(im.px);
    free(path);
    kt_rmtree(dir);
    free(dir);
}

/* A smooth colour field: many of its blocks take the refinement path whose early-out threshold
 * libastcenc 4.2 latches per process (with each preset's own overshoot, fast and medium bytes
 * here change with the preset encoded first; checked by removing the shim's fix). */
static rgba_image photo_like(uint32_t w, uint32_t h)
{
    rgba_image im = {w, h, malloc((size_t)w * h * 4)};
    assert_non_null(im.px);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = im.px + ((size_t)y * w + x) * 4;
            for (int c = 0; c < 3; c++)
                p[c] = (uint8_t)(128 + 90 * sin((double)x * (0.07 + 0.03 * c) +
                                                (double)y * (0.05 - 0.02 * c) + 0.002 * x * y));
            p[3] = 255;
        }
    return im;
}

/* Child mode of this executable: in a fresh process, encode a small image at preset `first`,
 * then photo_like(w, h) at preset `q`, and write the blocks to `out`. */
static int child_encode_after(int first, int q, const char *out)
{
    rgba_image warm = photo_like(8, 8), im = photo_like(96, 64);
    size_t n = block_bytes(im.w, im.h);
    uint8_t *blocks = malloc(n), warm_blocks[64];
    kiln_block_opts o = {.quality = (kiln_quality)first};
    kiln_error err;
    if (!blocks || kiln_astc_encode(warm.px, 8, 8, &o, NULL, warm_blocks, sizeof warm_blocks, &err))
        return 2;
    o.quality = (kiln_quality)q;
    if (kiln_astc_encode(im.px, im.w, im.h, &o, NULL, blocks, n, &err)) return 3;
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(blocks, 1, n, f) != n || fclose(f) != 0) return 4;
    free(blocks);
    free(warm.px);
    free(im.px);
    return 0;
}

static char self_exe[4096];

static void astc_bytes_do_not_depend_on_the_preset_a_process_encoded_first(void **state)
{
    (void)state;
    char *dir = kt_tempdir("astc");
    for (int q = KILN_QUALITY_FAST; q <= KILN_QUALITY_HIGH; q++) {
        uint8_t *first_blocks = NULL;
        size_t first_size = 0;
        for (int first = KILN_QUALITY_FAST; first <= KILN_QUALITY_HIGH; first++) {
            char *out = kt_format("%s/after%d_%d.bin", dir, first, q);
            char *cmd = kt_format("'%s' --encode-after %d %d '%s'", self_exe, first, q, out);
            int rc = kt_run(cmd, NULL);
            if (rc != 0) fail_msg("%s: exit %d", cmd, rc);
            size_t size = 0;
            uint8_t *blocks = kt_read_file(out, &size);
            assert_non_null(blocks);
            assert_int_equal(size, block_bytes(96, 64));
            if (!first_blocks) {
                first_blocks = blocks;
                first_size = size;
            } else {
                if (memcmp(blocks, first_blocks, first_size) != 0)
                    fail_msg("%s after %s in the same process differs from %s after %s",
                             preset_flag[q], preset_flag[first], preset_flag[q], preset_flag[0]);
                free(blocks);
            }
            free(cmd);
            free(out);
        }
        free(first_blocks);
    }
    kt_rmtree(dir);
    free(dir);
}

static void astc_decode_equals_astcenc_decompression_linear_and_srgb(void **state)
{
    (void)state;
    if (!have_astcenc()) skip();
    char *dir = kt_tempdir("astc");
    rgba_image im = synthetic(37, 21, 11);
    for (int srgb = 0; srgb <= 1; srgb++) {
        uint8_t *blocks = kiln_encode(&im, KILN_QUALITY_NORMAL, srgb, false, 2);
        check_decode_same_as_command(dir, blocks, im.w, im.h, srgb);
        free(blocks);
    }
    free(im.px);
    kt_rmtree(dir);
    free(dir);
}

/* Random bytes: mostly reserved or invalid encodings, which decode to the error colour, and a few
 * valid ones. Both decoders must still agree texel for texel. */
static void astc_decode_equals_astcenc_decompression_on_arbitrary_bytes(void **state)
{
    (void)state;
    if (!have_astcenc()) skip();
    char *dir = kt_tempdir("astc");
    const uint32_t w = 22, h = 13;
    size_t n = block_bytes(w, h);
    uint8_t *blocks = malloc(n);
    assert_non_null(blocks);
    uint32_t s = 99;
    for (size_t i = 0; i < n; i++) blocks[i] = (uint8_t)lcg(&s);
    /* A void-extent (constant colour) block and one with only its mode bits cleared. */
    const uint8_t void_extent[16] = {0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                     0x00, 0x80, 0x00, 0x40, 0xFF, 0x20, 0xFF, 0xFF};
    memcpy(blocks, void_extent, 16);
    memset(blocks + 16, 0, 2);
    check_decode_same_as_command(dir, blocks, w, h, false);
    check_decode_same_as_command(dir, blocks, w, h, true);
    free(blocks);
    kt_rmtree(dir);
    free(dir);
}

static void astc_solid_colour_round_trips_exactly(void **state)
{
    (void)state;
    rgba_image im = {9, 6, malloc(9 * 6 * 4)};
    assert_non_null(im.px);
    const uint8_t c[4] = {200, 17, 90, 133};
    for (size_t i = 0; i < 9 * 6; i++) memcpy(im.px + i * 4, c, 4);
    for (int srgb = 0; srgb <= 1; srgb++) {
        uint8_t *blocks = kiln_encode(&im, KILN_QUALITY_FAST, srgb, false, 1);
        uint8_t out[9 * 6 * 4];
        kiln_error err;
        assert_int_equal(kiln_astc_decode(blocks, block_bytes(9, 6), 9, 6, srgb, out, &err),
                         KILN_OK);
        assert_memory_equal(out, im.px, sizeof out);
        free(blocks);
    }
    free(im.px);
}

typedef struct nested_call {
    const rgba_image *im;
    kiln_jobs *jobs;
    uint8_t *out;
} nested_call;

static kiln_result encode_inside_job(void *user, size_t index, size_t worker, kiln_error *err)
{
    (void)index;
    (void)worker;
    nested_call *c = user;
    kiln_block_opts o = {.quality = KILN_QUALITY_FAST, .srgb = false, .normal_map = false};
    return kiln_astc_encode(c->im->px, c->im->w, c->im->h, &o, c->jobs, c->out,
                            block_bytes(c->im->w, c->im->h), err);
}

/* Called from inside a job on the same pool, kiln_jobs_for runs astcenc's thread indices one after
 * another on one thread: index 0 does every block, index 1 finds none left and returns. Neither
 * waits for the other, so this finishes, with the same bytes. */
static void astc_encode_runs_when_the_pool_runs_its_thread_indices_one_after_another(void **state)
{
    (void)state;
    rgba_image im = synthetic(33, 17, 3);
    uint8_t *expect = kiln_encode(&im, KILN_QUALITY_FAST, false, false, 1);
    kiln_jobs *jobs = NULL;
    kiln_error err;
    assert_int_equal(kiln_jobs_create(3, NULL, &jobs, &err), KILN_OK);
    nested_call c = {&im, jobs, malloc(block_bytes(im.w, im.h))};
    assert_non_null(c.out);
    assert_int_equal(kiln_jobs_for(jobs, 1, encode_inside_job, &c, &err), KILN_OK);
    assert_memory_equal(c.out, expect, block_bytes(im.w, im.h));

    /* More threads than blocks: the extra indices find no work. */
    rgba_image one = {1, 1, (uint8_t[4]){1, 2, 3, 4}};
    uint8_t a[16], b[16];
    kiln_block_opts o = {.quality = KILN_QUALITY_HIGH};
    assert_int_equal(kiln_astc_encode(one.px, 1, 1, &o, jobs, a, sizeof a, &err), KILN_OK);
    assert_int_equal(kiln_astc_encode(one.px, 1, 1, &o, NULL, b, sizeof b, &err), KILN_OK);
    assert_memory_equal(a, b, 16);
    kiln_jobs_destroy(jobs);
    free(c.out);
    free(expect);
    free(im.px);
}

static void astc_rejects_bad_sizes_and_null_arguments(void **state)
{
    (void)state;
    uint8_t px[8 * 8 * 4] = {0}, out[64], back[8 * 8 * 4];
    kiln_block_opts o = {.quality = KILN_QUALITY_FAST};
    kiln_error err;
    assert_int_equal(kiln_astc_encode(px, 8, 8, &o, NULL, out, 63, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "64 needed"));
    assert_int_equal(kiln_astc_encode(px, 0, 8, &o, NULL, out, 64, &err), KILN_E_USAGE);
    assert_int_equal(kiln_astc_encode(NULL, 8, 8, &o, NULL, out, 64, &err), KILN_E_USAGE);
    assert_int_equal(kiln_astc_encode(px, 8, 8, NULL, NULL, out, 64, &err), KILN_E_USAGE);
    /* Too many texels for astcenc's 32-bit offsets: refused before anything is read. */
    assert_int_equal(kiln_astc_encode(px, 65536, 16385, &o, NULL, out, 64, &err), KILN_E_USAGE);
    assert_int_equal(kiln_astc_encode(px, 8, 8, &o, NULL, out, 64, &err), KILN_OK);
    assert_int_equal(kiln_astc_decode(out, 63, 8, 8, false, back, &err), KILN_E_USAGE);
    assert_int_equal(kiln_astc_decode(out, 64, 8, 0, false, back, &err), KILN_E_USAGE);
    assert_int_equal(kiln_astc_decode(NULL, 64, 8, 8, false, back, &err), KILN_E_USAGE);
    assert_int_equal(kiln_astc_decode(out, 64, 8, 8, false, back, &err), KILN_OK);
    assert_memory_equal(back, px, sizeof px);
}

/* Through the block driver, as the texture processor calls it. */
static void astc_blocks_driver_routes_to_astcenc(void **state)
{
    (void)state;
    rgba_image im = synthetic(13, 10, 5);
    uint8_t *direct = kiln_encode(&im, KILN_QUALITY_NORMAL, true, false, 1);
    size_t n = 0;
    assert_true(kiln_blocks_size(KILN_BLOCK_ASTC4X4, im.w, im.h, &n));
    assert_int_equal(n, block_bytes(im.w, im.h));
    uint8_t *via = malloc(n);
    assert_non_null(via);
    kiln_block_opts o = {.quality = KILN_QUALITY_NORMAL, .srgb = true};
    kiln_error err;
    assert_int_equal(kiln_blocks_encode(KILN_BLOCK_ASTC4X4, im.px, im.w, im.h, (size_t)im.w * 4, &o,
                                        NULL, via, n, &err),
                     KILN_OK);
    assert_memory_equal(via, direct, n);
    free(via);
    free(direct);
    free(im.px);
}

/* ASTC HDR (the row astc4x4_hdr): kiln's blocks from the corpus sky, read by kiln and rounded to
 * half floats, equal `astcenc -ch sky.hdr out.astc 4x4 -medium` byte for byte (the command reads
 * the file with its own loader and rounds to half floats the same way), and decoding them to
 * halves (libastcenc's HDR decoder) gives the quality bench/bench_hdr.c measures. */
static void astc_hdr_medium_blocks_equal_astcenc_ch_command_on_the_corpus_sky(void **state)
{
    (void)state;
    char *hdr = kt_corpus_path("images/hdr/hdr-rgb-00.hdr");
    if (!hdr || !have_astcenc()) {
        free(hdr);
        skip();
    }
    size_t size;
    void *data = kt_read_file(hdr, &size);
    assert_non_null(data);
    kiln_image img;
    kiln_error err;
    assert_int_equal(kiln_image_decode(data, size, NULL, &img, &err), KILN_OK);
    size_t texels = (size_t)img.width * img.height;
    uint16_t *half = malloc(texels * 8);
    assert_non_null(half);
    for (size_t i = 0; i < texels * 4; i++)
        half[i] = kiln_half_from_float_sat(((const float *)img.pixels)[i]);
    size_t n;
    assert_true(kiln_blocks_size(KILN_BLOCK_ASTC4X4_HDR, img.width, img.height, &n));
    uint8_t *ours = malloc(n);
    kiln_block_opts o = {KILN_QUALITY_NORMAL, false, false};
    if (kiln_blocks_encode(KILN_BLOCK_ASTC4X4_HDR, (const uint8_t *)half, img.width, img.height,
                           (size_t)img.width * 8, &o, NULL, ours, n, &err) != KILN_OK)
        fail_msg("encode: %s", err.message);
    char *dir = kt_tempdir("astc_hdr");
    char *out = kt_format("%s/cmd.astc", dir);
    char *cmd = kt_format("astcenc -ch '%s' '%s' 4x4 -medium -j 1 -silent 2>&1", hdr, out);
    char *log = NULL;
    int rc = kt_run(cmd, &log);
    if (rc != 0) fail_msg("%s: exit %d: %s", cmd, rc, log ? log : "");
    free(log);
    uint8_t *theirs = astc_file_blocks(out, img.width, img.height);
    assert_blocks_equal(ours, theirs, n, cmd);
    uint16_t *dec = malloc(texels * 8);
    assert_int_equal(
        kiln_blocks_decode_half(KILN_BLOCK_ASTC4X4_HDR, ours, n, img.width, img.height, dec, &err),
        KILN_OK);
    double sum = 0;
    for (size_t i = 0; i < texels; i++)
        for (int c = 0; c < 3; c++) {
            double a = kiln_half_to_float(half[4 * i + c]), b = kiln_half_to_float(dec[4 * i + c]);
            double e = log2((b > 0 ? b : 0) + 1.0 / 256) - log2((a > 0 ? a : 0) + 1.0 / 256);
            sum += e * e;
        }
    double rmse = sqrt(sum / (double)(texels * 3));
    printf("astc4x4_hdr medium on hdr-rgb-00.hdr: log2-RMSE %.5f\n", rmse);
    assert_true(rmse < 0.2); /* measured 0.1736 (bench/bench_hdr.c) */
    free(dec);
    free(theirs);
    free(cmd);
    free(out);
    kt_rmtree(dir);
    free(dir);
    free(ours);
    free(half);
    kiln_image_free(&img);
    free(data);
    free(hdr);
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--encode-after") == 0)
        return child_encode_after(atoi(argv[2]), atoi(argv[3]), argv[4]);
    ssize_t len = readlink("/proc/self/exe", self_exe, sizeof self_exe - 1);
    if (len <= 0) return 1;
    self_exe[len] = '\0';
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(astc_medium_blocks_equal_astcenc_command_on_odd_sized_image),
        cmocka_unit_test(astc_medium_blocks_equal_astcenc_command_on_kodim01),
        cmocka_unit_test(astc_normal_map_medium_blocks_equal_astcenc_command_with_normal_flag),
        cmocka_unit_test(astc_fast_and_high_stay_within_0_2_db_of_the_command),
        cmocka_unit_test(astc_bytes_do_not_depend_on_the_preset_a_process_encoded_first),
        cmocka_unit_test(astc_decode_equals_astcenc_decompression_linear_and_srgb),
        cmocka_unit_test(astc_decode_equals_astcenc_decompression_on_arbitrary_bytes),
        cmocka_unit_test(astc_solid_colour_round_trips_exactly),
        cmocka_unit_test(astc_encode_runs_when_the_pool_runs_its_thread_indices_one_after_another),
        cmocka_unit_test(astc_rejects_bad_sizes_and_null_arguments),
        cmocka_unit_test(astc_blocks_driver_routes_to_astcenc),
        cmocka_unit_test(astc_hdr_medium_blocks_equal_astcenc_ch_command_on_the_corpus_sky),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
