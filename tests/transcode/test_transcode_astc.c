/* test_transcode_astc.c — kiln's own ASTC 4x4 decoder (src/codec/astc_decode.c, the one
 * libkiln_rt has) against libastcenc's decode (kiln_astc_decode, the cook's), texel for texel:
 * corpus images encoded by libastcenc at fast, medium and thorough in both profiles (plus a
 * normal map in its rrrg mode and an image with alpha), and random 16-byte blocks, with streams
 * biased to void-extent and multi-partition blocks. Any difference fails with the block's bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "core/jobs.h"
#include "import/image.h"
#include "kiln/kiln_format.h"
#include "process/astc.h"
#include "process/block.h"

static uint64_t tt_rand64(uint64_t *s)
{
    /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static bool sanitized(void)
{
    const char *s = getenv("KILN_TEST_SANITIZED");
    return s && s[0] == '1';
}

/* Decodes blocks of a w x h image both ways and reports every block that differs (up to 8 in
 * full); returns the number of differing blocks. Counts the error-colour texels the two write
 * differently on purpose in *error_texels. */
static size_t compare_decoders(const uint8_t *blocks, uint32_t w, uint32_t h, bool srgb,
                               const char *what, size_t *error_texels)
{
    size_t bw = (w + 3) / 4, bh = (h + 3) / 4, size = bw * bh * 16, texels = (size_t)w * h;
    uint8_t *ours = malloc(texels * 4), *theirs = malloc(texels * 4);
    assert_non_null(ours);
    assert_non_null(theirs);
    kiln_error err;
    uint32_t fmt = srgb ? KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK : KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK;
    if (kiln_transcode_rgba8(fmt, blocks, size, w, h, ours, texels * 4, &err) != KILN_OK)
        fail_msg("%s: kiln_transcode_rgba8: %s", what, err.message);
    if (kiln_astc_decode(blocks, size, w, h, srgb, theirs, &err) != KILN_OK)
        fail_msg("%s: kiln_astc_decode: %s", what, err.message);
    size_t bad = 0;
    for (size_t by = 0; by < bh; by++)
        for (size_t bx = 0; bx < bw; bx++) {
            for (size_t y = by * 4; y < by * 4 + 4 && y < h; y++)
                for (size_t x = bx * 4; x < bx * 4 + 4 && x < w; x++) {
                    size_t o = (y * w + x) * 4;
                    if (memcmp(ours + o, theirs + o, 4) == 0) continue;
                    /* The one deliberate difference: libastcenc 4.2 marks error texels with
                     * NaNs, which its linear 8-bit output writes as (254, 0, 254, 254); kiln
                     * gives the specification's opaque magenta in both profiles. */
                    static const uint8_t magenta[4] = {255, 0, 255, 255},
                                         astcenc_error[4] = {254, 0, 254, 254};
                    if (!srgb && memcmp(ours + o, magenta, 4) == 0 &&
                        memcmp(theirs + o, astcenc_error, 4) == 0) {
                        (*error_texels)++;
                        continue;
                    }
                    if (bad < 8) {
                        const uint8_t *b = blocks + (by * bw + bx) * 16;
                        char hex[40];
                        for (int i = 0; i < 16; i++) snprintf(hex + 2 * i, 3, "%02x", b[i]);
                        print_message("%s (%s): block %zu,%zu %s texel %zu,%zu: kiln %u %u %u %u, "
                                      "astcenc %u %u %u %u\n",
                                      what, srgb ? "srgb" : "linear", bx, by, hex, x - bx * 4,
                                      y - by * 4, ours[o], ours[o + 1], ours[o + 2], ours[o + 3],
                                      theirs[o], theirs[o + 1], theirs[o + 2], theirs[o + 3]);
                    }
                    bad++;
                    y = h; /* next block */
                    break;
                }
        }
    free(ours);
    free(theirs);
    return bad;
}

typedef struct rgba_image {
    uint32_t w, h;
    uint8_t *px;
} rgba_image;

static bool image_read(const char *rel, rgba_image *out)
{
    char *path = kt_corpus_path(rel);
    if (!path) return false;
    size_t size = 0;
    void *data = kt_read_file(path, &size);
    if (!data) fail_msg("cannot read %s", path);
    kiln_image img;
    kiln_error err;
    kiln_image_opts opts = {0};
    if (kiln_image_decode(data, size, &opts, &img, &err) != KILN_OK)
        fail_msg("%s: %s", path, err.message);
    free(data);
    free(path);
    assert_int_equal(img.type, KILN_PIXEL_U8);
    out->w = img.width;
    out->h = img.height;
    out->px = malloc(img.size);
    assert_non_null(out->px);
    memcpy(out->px, img.pixels, img.size);
    kiln_image_free(&img);
    return true;
}

/* The top-left w x h of an image (sanitizer builds encode less). */
static void crop_to(rgba_image *im, uint32_t w, uint32_t h)
{
    if (im->w <= w && im->h <= h) return;
    w = w < im->w ? w : im->w;
    h = h < im->h ? h : im->h;
    for (uint32_t y = 0; y < h; y++)
        memmove(im->px + (size_t)y * w * 4, im->px + (size_t)y * im->w * 4, (size_t)w * 4);
    im->w = w;
    im->h = h;
}

static size_t encode_and_compare(const rgba_image *im, kiln_quality q, bool srgb, bool normal,
                                 kiln_jobs *jobs, const char *name)
{
    static const char *qname[] = {"fast", "medium", "thorough"};
    size_t size;
    assert_true(kiln_blocks_size(KILN_BLOCK_ASTC4X4, im->w, im->h, &size));
    uint8_t *blocks = malloc(size);
    assert_non_null(blocks);
    kiln_block_opts o = {.quality = q, .srgb = srgb, .normal_map = normal};
    kiln_error err;
    if (kiln_astc_encode(im->px, im->w, im->h, &o, jobs, blocks, size, &err) != KILN_OK)
        fail_msg("%s: %s", name, err.message);
    char *what = kt_format("%s %s%s", name, qname[q], normal ? " normal" : "");
    size_t error_texels = 0;
    size_t bad = compare_decoders(blocks, im->w, im->h, srgb, what, &error_texels);
    print_message("    %s %s: %ux%u, %zu blocks differ, %zu error texels\n", what,
                  srgb ? "srgb" : "linear", im->w, im->h, bad, error_texels);
    assert_int_equal(error_texels, 0); /* an encoder never writes illegal blocks */
    free(what);
    free(blocks);
    return bad;
}

static void astc_decode_equals_astcenc_on_encoded_corpus_images(void **state)
{
    (void)state;
    kt_require_corpus();
    static const char *photos[] = {"images/kodak/kodim01.png", "images/kodak/kodim03.png",
                                   "images/kodak/kodim12.png"};
    size_t bad = 0;
    uint32_t cap = sanitized() ? 128 : 512; /* thorough is slow; 512x512 crops */
    kiln_jobs *jobs = NULL;
    assert_int_equal(kiln_jobs_create(4, NULL, &jobs, NULL), KILN_OK);
    for (size_t i = 0; i < sizeof photos / sizeof photos[0]; i++) {
        rgba_image im;
        if (!image_read(photos[i], &im)) fail_msg("no corpus for %s", photos[i]);
        crop_to(&im, cap, cap);
        for (int q = KILN_QUALITY_FAST; q <= KILN_QUALITY_HIGH; q++)
            for (int srgb = 0; srgb < 2; srgb++)
                bad += encode_and_compare(&im, (kiln_quality)q, srgb, false, jobs, photos[i]);
        /* An alpha channel: a gradient with a hole, so alpha endpoints and dual planes occur. */
        for (uint32_t y = 0; y < im.h; y++)
            for (uint32_t x = 0; x < im.w; x++) {
                uint32_t d = (x % 64) * (x % 64) + (y % 48) * (y % 48);
                im.px[((size_t)y * im.w + x) * 4 + 3] = d < 300 ? 0 : (uint8_t)((x * 3 + y) & 255);
            }
        bad += encode_and_compare(&im, KILN_QUALITY_NORMAL, false, false, jobs, "alpha");
        bad += encode_and_compare(&im, KILN_QUALITY_HIGH, true, false, jobs, "alpha");
        free(im.px);
    }
    /* Partial edge blocks: an image of 130 x 67 texels. */
    rgba_image odd;
    if (image_read(photos[0], &odd)) {
        crop_to(&odd, 130, 67);
        bad += encode_and_compare(&odd, KILN_QUALITY_NORMAL, false, false, jobs, "130x67");
        bad += encode_and_compare(&odd, KILN_QUALITY_FAST, true, false, jobs, "130x67");
        free(odd.px);
    }
    rgba_image nm;
    if (image_read("images/normal/ldr-xy-00.png", &nm)) {
        crop_to(&nm, cap, cap);
        for (int q = KILN_QUALITY_FAST; q <= KILN_QUALITY_HIGH; q++)
            bad += encode_and_compare(&nm, (kiln_quality)q, false, true, jobs, "ldr-xy-00");
        free(nm.px);
    }
    kiln_jobs_destroy(jobs);
    if (bad) fail_msg("%zu blocks decode differently from astcenc", bad);
}

/* Random blocks, 64 x rows of them, with `bias` shaping them. */
typedef enum block_bias {
    BIAS_NONE,
    BIAS_VOID_EXTENT,
    BIAS_PARTITIONS,
    BIAS_SMALL_MODES,
    BIAS_EVERY_MODE, /* block i: mode i % 2048 with (i / 2048) % 4 + 1 partitions */
} block_bias;

static size_t random_blocks_compare(uint64_t seed, size_t rows, block_bias bias, const char *what)
{
    /* 64 blocks a row; the every-mode image is 254 x (4 * rows - 3): partial edge blocks */
    const uint32_t w = bias == BIAS_EVERY_MODE ? 254 : 256;
    const uint32_t h = (uint32_t)rows * 4 - (bias == BIAS_EVERY_MODE ? 3 : 0);
    size_t n = (size_t)((w + 3) / 4) * rows;
    uint8_t *blocks = malloc(n * 16);
    assert_non_null(blocks);
    for (size_t i = 0; i < n; i++) {
        uint8_t *b = blocks + 16 * i;
        uint64_t lo = tt_rand64(&seed), hi = tt_rand64(&seed);
        switch (bias) {
        case BIAS_VOID_EXTENT:
            /* bits 0..8 = 0x1FC; every second block with reserved bits set and no extent */
            lo = (lo & ~(uint64_t)0x1FF) | 0x1FC;
            if (i & 1) lo |= 0xC00;
            if ((i & 3) == 1) lo |= ~(uint64_t)0xFFF;
            break;
        case BIAS_PARTITIONS:
            lo |= (uint64_t)((i % 3) + 1) << 11; /* 2..4 partitions */
            break;
        case BIAS_SMALL_MODES:
            /* 4 x (A+2) grids of any range, or (A+2) x (B+6)... keep grids small: rows 1 and 4
             * of the block mode table with B = 0 */
            lo &= ~(uint64_t)(0x3 << 7);
            lo &= ~(uint64_t)0xC;
            if ((lo & 3) == 0) lo |= 1;
            break;
        case BIAS_EVERY_MODE:
            lo = (lo & ~(uint64_t)0x1FFF) | (i % 2048) | (uint64_t)((i / 2048) % 4) << 11;
            break;
        default:
            break;
        }
        for (int k = 0; k < 8; k++) {
            b[k] = (uint8_t)(lo >> (8 * k));
            b[8 + k] = (uint8_t)(hi >> (8 * k));
        }
    }
    size_t error_texels = 0;
    size_t bad = compare_decoders(blocks, w, h, false, what, &error_texels) +
                 compare_decoders(blocks, w, h, true, what, &error_texels);
    print_message("    %s: %zu blocks x 2 profiles, %zu differ; %zu linear texels astcenc writes "
                  "(254, 0, 254, 254) (%.1f%%)\n",
                  what, n, bad, error_texels, 100.0 * (double)error_texels / ((double)n * 16));
    free(blocks);
    return bad;
}

static void astc_decode_equals_astcenc_on_random_blocks(void **state)
{
    (void)state;
    size_t rows = sanitized() ? 256 : 4096; /* 64 blocks a row */
    size_t bad = 0;
    bad += random_blocks_compare(1, rows, BIAS_NONE, "random");
    bad += random_blocks_compare(2, rows / 4, BIAS_VOID_EXTENT, "void-extent");
    bad += random_blocks_compare(3, rows, BIAS_PARTITIONS, "partitions");
    bad += random_blocks_compare(4, rows, BIAS_SMALL_MODES, "small grids");
    bad += random_blocks_compare(5, sanitized() ? 128 : 2048, BIAS_EVERY_MODE, "every mode");
    if (bad) fail_msg("%zu random blocks decode differently from astcenc", bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(astc_decode_equals_astcenc_on_random_blocks),
        cmocka_unit_test(astc_decode_equals_astcenc_on_encoded_corpus_images),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
