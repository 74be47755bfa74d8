/* test_bc1_paths.c — the BC1 encoder's SIMD path (the library as built) and its portable C path
 * (bc1_portable.c) give the same bytes, at every quality, on random blocks of several kinds, on
 * the seeded synthetic images and on Kodak photos from the corpus. Where the build has no SIMD
 * path both are the portable one and the comparison holds trivially. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc1_portable.h"
#include "bc1_test_images.h"
#include "import/image.h"

/* Encodes one block both ways at every quality; fails on the first difference. */
static void compare_block(const uint8_t rgba[64], const char *what, size_t n)
{
    for (int q = 0; q <= KILN_QUALITY_HIGH; q++) {
        kiln_block_opts o = {.quality = (kiln_quality)q};
        uint8_t a[8], b[8];
        kiln_bc1_encode_block(rgba, &o, a);
        kiln_bc1_encode_block_portable(rgba, &o, b);
        if (memcmp(a, b, 8) != 0)
            fail_msg("%s block %zu quality %d: simd %02x%02x%02x%02x %02x%02x%02x%02x, portable "
                     "%02x%02x%02x%02x %02x%02x%02x%02x",
                     what, n, q, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], b[0], b[1], b[2],
                     b[3], b[4], b[5], b[6], b[7]);
    }
}

/* Random blocks: uniform noise, near-flat (a colour plus 0..3), two colours, a gradient with
 * noise, grey, and channels pinned at 0 or 255. */
static void random_block(uint32_t *seed, int kind, uint8_t rgba[64])
{
    uint32_t c0 = bt_rand(seed), c1 = bt_rand(seed);
    for (int i = 0; i < 16; i++) {
        uint32_t n = bt_rand(seed);
        int v[3];
        for (int k = 0; k < 3; k++) {
            int a = (int)((c0 >> (8 * k)) & 255), b = (int)((c1 >> (8 * k)) & 255);
            switch (kind % 6) {
            case 0:
                v[k] = (int)((n >> (8 * k)) & 255);
                break;
            case 1:
                v[k] = a + (int)((n >> (2 * k)) & 3);
                break;
            case 2:
                v[k] = (n >> 30) & 1 ? a : b;
                break;
            case 3:
                v[k] = a + (b - a) * i / 15 + (int)((n >> (3 * k)) & 7) - 4;
                break;
            case 4:
                v[k] = (int)(c0 & 255) + (int)(n & 15) * (i & 3);
                break;
            default:
                v[k] = ((n >> k) & 1) ? 255 : (n >> (k + 3)) & 1 ? 0 : a;
                break;
            }
        }
        for (int k = 0; k < 3; k++)
            rgba[i * 4 + k] = (uint8_t)(v[k] < 0 ? 0 : v[k] > 255 ? 255 : v[k]);
        rgba[i * 4 + 3] = (uint8_t)n; /* alpha is ignored */
    }
}

static void bc1_paths_agree_on_random_blocks(void **state)
{
    (void)state;
    uint32_t seed = 0x5eed1u;
    uint8_t rgba[64];
    for (size_t n = 0; n < 24000; n++) {
        random_block(&seed, (int)n, rgba);
        compare_block(rgba, "random", n);
    }
}

/* Every block of a w x h RGBA8 image (edge blocks clamped). */
static void compare_image(const uint8_t *pixels, uint32_t w, uint32_t h, const char *what)
{
    uint8_t rgba[64];
    size_t n = 0;
    for (uint32_t by = 0; by < (h + 3) / 4; by++) {
        for (uint32_t bx = 0; bx < (w + 3) / 4; bx++, n++) {
            for (uint32_t i = 0; i < 16; i++) {
                uint32_t x = bx * 4 + i % 4, y = by * 4 + i / 4;
                if (x >= w) x = w - 1;
                if (y >= h) y = h - 1;
                memcpy(rgba + i * 4, pixels + ((size_t)y * w + x) * 4, 4);
            }
            compare_block(rgba, what, n);
        }
    }
}

static void bc1_paths_agree_on_synthetic_images(void **state)
{
    (void)state;
    uint8_t *img = malloc(BT_SIZE * BT_SIZE * 4);
    assert_non_null(img);
    for (int im = 0; im < 2; im++) {
        bt_image(im, img);
        compare_image(img, BT_SIZE, BT_SIZE, im == 0 ? "smooth" : "busy");
    }
    free(img);
}

static void bc1_paths_agree_on_kodak_photos(void **state)
{
    (void)state;
    static const char *names[] = {"images/kodak/kodim01.png", "images/kodak/kodim03.png"};
    for (int f = 0; f < 2; f++) {
        char *path = kt_corpus_path(names[f]);
        if (!path) skip(); /* the corpus is absent */
        size_t size = 0;
        void *data = kt_read_file(path, &size);
        if (!data) fail_msg("cannot read %s", path);
        kiln_image img;
        kiln_image_opts opts = {0};
        kiln_error err;
        assert_int_equal(kiln_image_decode(data, size, &opts, &img, &err), KILN_OK);
        assert_int_equal(img.type, KILN_PIXEL_U8);
        compare_image(img.pixels, img.width, img.height, names[f]);
        kiln_image_free(&img);
        free(data);
        free(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bc1_paths_agree_on_random_blocks),
        cmocka_unit_test(bc1_paths_agree_on_synthetic_images),
        cmocka_unit_test(bc1_paths_agree_on_kodak_photos),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
