/* test_image_robust.c — limits refuse huge declared images before any pixel memory is taken,
 * for every format; truncated and bit-flipped small files give an error code or a whole image,
 * never a crash (this runs under ASan in CI). With KILN_WRITE_FUZZ_SEEDS=1 it also writes the
 * fuzz seeds for fuzz/fuzz_image.c into fuzz/corpus/image/. */
#include <spng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "image_fixtures.h"
#include "import/image.h"
#include "support.h"

/* An allocator that counts what kiln asks of it. */
typedef struct counting {
    size_t calls, bytes;
} counting;
static void *count_alloc(void *user, size_t size, size_t align)
{
    (void)align;
    counting *c = user;
    c->calls++;
    c->bytes += size;
    return malloc(size);
}
static void count_free(void *user, void *p, size_t size)
{
    (void)user;
    (void)size;
    free(p);
}

static kiln_result decode_counted(const kt_bytes *b, const char *hint, counting *c, kiln_error *err)
{
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.allocator.alloc = count_alloc;
    opts.allocator.free = count_free;
    opts.allocator.user = c;
    opts.name_hint = hint;
    kiln_image img;
    kiln_result r = kiln_image_decode(b->data, b->size, &opts, &img, err);
    if (r == KILN_OK) kiln_image_free(&img);
    else assert_null(img.pixels);
    return r;
}

static uint32_t crc32_of(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return c ^ 0xFFFFFFFFu;
}

static void store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* A PNG whose IHDR (CRC fixed) claims w x h, followed by a tiny IDAT and IEND. */
static kt_bytes png_claiming(uint32_t w, uint32_t h, uint8_t depth, uint8_t color_type)
{
    uint8_t one[4] = {0, 0, 0, 255};
    kt_bytes b =
        kt_png_encode(1, 1, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, 8, false, one, 4, NULL, 0, NULL, 0);
    uint8_t *ihdr = b.data + 8; /* length, "IHDR", 13 bytes, CRC */
    store_be32(ihdr + 8, w);
    store_be32(ihdr + 12, h);
    ihdr[16] = depth;
    ihdr[17] = color_type;
    store_be32(ihdr + 8 + 13, crc32_of(ihdr + 4, 17));
    return b;
}

/* A JPEG from tjCompress2 with its SOF0 dimensions patched. */
static kt_bytes jpeg_claiming(uint16_t w, uint16_t h)
{
    uint8_t grey[64];
    memset(grey, 100, sizeof grey);
    kt_bytes b = kt_jpeg_encode(8, 8, TJPF_GRAY, TJSAMP_GRAY, 90, grey);
    for (size_t i = 2; i + 9 < b.size; i++) {
        if (b.data[i] == 0xFF && b.data[i + 1] == 0xC0) {
            b.data[i + 5] = (uint8_t)(h >> 8);
            b.data[i + 6] = (uint8_t)h;
            b.data[i + 7] = (uint8_t)(w >> 8);
            b.data[i + 8] = (uint8_t)w;
            return b;
        }
    }
    fail_msg("no SOF0 in the test JPEG");
    return b;
}

static kt_bytes tga_claiming(uint16_t w, uint16_t h)
{
    uint8_t rgba[4] = {1, 2, 3, 4};
    kt_bytes b = kt_tga_encode(1, 1, rgba, 24, false, false);
    b.data[12] = (uint8_t)w;
    b.data[13] = (uint8_t)(w >> 8);
    b.data[14] = (uint8_t)h;
    b.data[15] = (uint8_t)(h >> 8);
    return b;
}

static kt_bytes bmp_claiming(int32_t w, int32_t h)
{
    uint8_t rgba[4] = {1, 2, 3, 4};
    kt_bytes b = kt_bmp_encode(1, 1, rgba, 24);
    memcpy(b.data + 18, &w, 4);
    memcpy(b.data + 22, &h, 4);
    return b;
}

static kt_bytes text_bytes(const char *s)
{
    kt_bytes b = {(uint8_t *)strdup(s), strlen(s)};
    return b;
}

static kt_bytes exr_claiming(uint32_t w, uint32_t h)
{
    float v[1] = {1.0f};
    kt_exr_channel ch[1] = {{"R", 2, v}};
    kt_bytes b = kt_exr_encode(1, 1, 0, 0, ch, 1, 0, 0);
    /* dataWindow and displayWindow values follow their "box2i" type name and size. */
    for (size_t i = 0; i + 8 < b.size; i++) {
        if (memcmp(b.data + i, "box2i", 6) == 0) {
            uint8_t *box = b.data + i + 6 + 4;
            int32_t maxx = (int32_t)w - 1, maxy = (int32_t)h - 1;
            memcpy(box + 8, &maxx, 4);
            memcpy(box + 12, &maxy, 4);
        }
    }
    return b;
}

static void expect_limit(kt_bytes b, const char *hint, const char *what)
{
    counting c = {0, 0};
    kiln_error err;
    kiln_result r = decode_counted(&b, hint, &c, &err);
    if (r != KILN_E_LIMIT)
        fail_msg("%s: %s (%s), expected E_LIMIT", what, kiln_result_name(r), err.message);
    assert_int_equal(c.calls, 0);
    /* probe says the same from the header alone */
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.name_hint = hint;
    uint32_t w = 1, h = 1;
    assert_int_equal(kiln_image_probe(b.data, b.size, &opts, NULL, &w, &h, &err), KILN_E_LIMIT);
    kt_bytes_free(&b);
}

static void image_huge_declared_dimensions_are_refused_before_allocating(void **state)
{
    (void)state;
    expect_limit(png_claiming(100000, 100000, 8, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA), NULL,
                 "PNG 100000^2");
    expect_limit(png_claiming(16384, 16384, 16, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA), NULL,
                 "PNG 16384^2 RGBA16 (2 GiB)");
    expect_limit(jpeg_claiming(60000, 60000), NULL, "JPEG 60000^2");
    expect_limit(tga_claiming(65535, 65535), "x.tga", "TGA 65535^2");
    expect_limit(bmp_claiming(100000, 100000), NULL, "BMP 100000^2");
    expect_limit(bmp_claiming(100000, -100000), NULL, "BMP top-down 100000^2");
    expect_limit(text_bytes("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 100000 +X 100000\n"), NULL,
                 "HDR 100000^2");
    expect_limit(text_bytes("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 16384 +X 16384\n"), NULL,
                 "HDR 16384^2 F32 (4 GiB)");
    expect_limit(exr_claiming(100000, 100000), NULL, "EXR 100000^2");
    expect_limit(exr_claiming(16384, 16384), NULL, "EXR 16384^2 F32 (4 GiB)");
}

static void image_limits_in_opts_override_the_defaults(void **state)
{
    (void)state;
    uint8_t rgba[40 * 30 * 4] = {0};
    kt_bytes b = kt_png_encode(40, 30, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, 8, false, rgba, sizeof rgba,
                               NULL, 0, NULL, 0);
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    kiln_image img;
    kiln_error err;
    opts.max_dim = 39;
    assert_int_equal(kiln_image_decode(b.data, b.size, &opts, &img, &err), KILN_E_LIMIT);
    assert_non_null(strstr(err.message, "39"));
    opts.max_dim = 40;
    opts.memory_limit = 40 * 30 * 4 - 1;
    assert_int_equal(kiln_image_decode(b.data, b.size, &opts, &img, &err), KILN_E_LIMIT);
    opts.memory_limit = 40 * 30 * 4;
    assert_int_equal(kiln_image_decode(b.data, b.size, &opts, &img, &err), KILN_OK);
    kiln_image_free(&img);
    kt_bytes_free(&b);
}

/* A declared size within the limits but far beyond what the bytes can hold is damage, found
 * before the gigabyte is allocated. */
static void image_tiny_files_declaring_big_images_fail_without_allocating(void **state)
{
    (void)state;
    struct {
        kt_bytes b;
        const char *hint;
    } cases[] = {
        {png_claiming(16384, 16384, 8, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA), NULL},
        {jpeg_claiming(16384, 16384), NULL},
        {tga_claiming(16384, 16384), "x.tga"},
        {bmp_claiming(16384, 16384), NULL},
        {text_bytes("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 8000 +X 8000\n\x02\x02"), NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        counting c = {0, 0};
        kiln_error err;
        kiln_result r = decode_counted(&cases[i].b, cases[i].hint, &c, &err);
        if (r != KILN_E_IMPORT_FAILED)
            fail_msg("case %zu: %s (%s)", i, kiln_result_name(r), err.message);
        assert_int_equal(c.calls, 0);
        kt_bytes_free(&cases[i].b);
    }
}

/* ---- truncation and corruption ---------------------------------------------------------- */

typedef struct sample {
    const char *name; /* also the seed file name */
    const char *hint;
    kt_bytes b;
    bool truncation_always_fails; /* the decoder checks the data is whole */
} sample;

static size_t make_samples(sample *s)
{
    size_t n = 0;
    uint8_t rgba[12 * 10 * 4];
    for (int i = 0; i < 12 * 10; i++) {
        rgba[i * 4 + 0] = (uint8_t)(i * 13);
        rgba[i * 4 + 1] = (uint8_t)(i < 60 ? 40 : i * 3);
        rgba[i * 4 + 2] = (uint8_t)(255 - i);
        rgba[i * 4 + 3] = (uint8_t)(i % 5 ? 255 : 100);
    }
    s[n++] = (sample){"rgba8.png", NULL,
                      kt_png_encode(12, 10, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, 8, false, rgba,
                                    sizeof rgba, NULL, 0, NULL, 0),
                      false};
    const uint8_t plte[2][3] = {{1, 2, 3}, {200, 100, 50}};
    const uint8_t trns[1] = {7};
    uint8_t idx[12 * 10 / 8 + 10];
    for (size_t i = 0; i < sizeof idx; i++) idx[i] = (uint8_t)(0x5A ^ i);
    s[n++] = (sample){
        "palette-interlaced.png", NULL,
        kt_png_encode(12, 10, SPNG_COLOR_TYPE_INDEXED, 1, true, idx, 2 * 10, plte, 2, trns, 1),
        false};
    uint16_t g16[6 * 4];
    for (int i = 0; i < 24; i++) g16[i] = (uint16_t)(i * 2731);
    s[n++] = (sample){"grey16.png", NULL,
                      kt_png_encode(6, 4, SPNG_COLOR_TYPE_GRAYSCALE, 16, false, g16, sizeof g16,
                                    NULL, 0, NULL, 0),
                      false};
    uint8_t rgb[16 * 16 * 3];
    for (int i = 0; i < 16 * 16 * 3; i++) rgb[i] = (uint8_t)(i * 5);
    s[n++] =
        (sample){"rgb420.jpg", NULL, kt_jpeg_encode(16, 16, TJPF_RGB, TJSAMP_420, 75, rgb), false};
    uint8_t cmyk[8 * 8 * 4];
    for (int i = 0; i < 8 * 8 * 4; i++) cmyk[i] = (uint8_t)(i * 3);
    s[n++] =
        (sample){"cmyk.jpg", NULL, kt_jpeg_encode(8, 8, TJPF_CMYK, TJSAMP_444, 80, cmyk), false};
    s[n++] = (sample){"rle32.tga", "x.tga", kt_tga_encode(12, 10, rgba, 32, true, true), true};
    s[n++] = (sample){"raw24.tga", "x.tga", kt_tga_encode(12, 10, rgba, 24, false, false), true};
    s[n++] = (sample){"grey8.tga", "x.tga", kt_tga_encode(12, 10, rgba, 8, true, false), true};
    s[n++] = (sample){"rgb24.bmp", NULL, kt_bmp_encode(11, 10, rgba, 24), true};
    s[n++] = (sample){"rgba32.bmp", NULL, kt_bmp_encode(12, 10, rgba, 32), true};
    float frgb[12 * 10 * 3];
    for (int i = 0; i < 12 * 10 * 3; i++) frgb[i] = (float)i * 0.1f;
    s[n++] = (sample){"rle.hdr", NULL, kt_hdr_encode(12, 10, frgb), true};
    kt_exr_channel ch[4] = {
        {"R", 1, frgb}, {"G", 2, frgb + 120}, {"B", 0, frgb + 240}, {"A", 1, frgb}};
    s[n++] = (sample){"scanline.exr", NULL, kt_exr_encode(12, 10, 0, 0, ch, 4, 0, 0), false};
    s[n++] = (sample){"tiled.exr", NULL, kt_exr_encode(12, 10, 2, 3, ch, 3, 5, 4), false};
    return n;
}

static bool acceptable(kiln_result r)
{
    return r == KILN_OK || r == KILN_E_IMPORT_FAILED || r == KILN_E_IMPORT_UNSUPPORTED ||
           r == KILN_E_LIMIT;
}

static kiln_result decode_copy(const uint8_t *data, size_t size, const char *hint)
{
    /* An exact-size heap copy, so ASan catches reads past the end. */
    uint8_t *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.name_hint = hint;
    kiln_image img;
    kiln_error err;
    kiln_result r = kiln_image_decode(copy, size, &opts, &img, &err);
    if (r == KILN_OK) {
        assert_non_null(img.pixels);
        size_t channel = img.type == KILN_PIXEL_U8 ? 1 : img.type == KILN_PIXEL_U16 ? 2 : 4;
        assert_int_equal(img.size, (size_t)img.width * img.height * 4 * channel);
        kiln_image_free(&img);
    } else {
        assert_null(img.pixels);
        assert_int_equal(err.code, r);
        assert_true(err.message[0] != '\0');
    }
    free(copy);
    return r;
}

static void image_truncation_at_every_length_gives_an_error_or_an_image(void **state)
{
    (void)state;
    sample s[16];
    size_t n = make_samples(s);
    for (size_t i = 0; i < n; i++) {
        kiln_result whole = decode_copy(s[i].b.data, s[i].b.size, s[i].hint);
        if (whole != KILN_OK) fail_msg("%s does not decode whole", s[i].name);
        size_t ok = 0;
        for (size_t len = 0; len < s[i].b.size; len++) {
            kiln_result r = decode_copy(s[i].b.data, len, s[i].hint);
            if (!acceptable(r)) fail_msg("%s cut to %zu: %s", s[i].name, len, kiln_result_name(r));
            if (r == KILN_OK) {
                ok++;
                if (s[i].truncation_always_fails)
                    fail_msg("%s cut to %zu of %zu bytes decoded without error", s[i].name, len,
                             s[i].b.size);
            }
        }
        /* PNG may lose only its IEND, EXR trailing nothing: a handful of OKs at most. */
        if (ok > 16) fail_msg("%s: %zu truncations decoded", s[i].name, ok);
        kt_bytes_free(&s[i].b);
    }
}

static void image_flipping_any_byte_gives_an_error_or_an_image(void **state)
{
    (void)state;
    sample s[16];
    size_t n = make_samples(s);
    for (size_t i = 0; i < n; i++) {
        for (size_t at = 0; at < s[i].b.size; at++) {
            for (int v = 0; v < 3; v++) {
                static const uint8_t masks[3] = {0xFF, 0x01, 0x80};
                s[i].b.data[at] ^= masks[v];
                kiln_result r = decode_copy(s[i].b.data, s[i].b.size, s[i].hint);
                if (!acceptable(r))
                    fail_msg("%s byte %zu ^ %02x: %s", s[i].name, at, masks[v],
                             kiln_result_name(r));
                s[i].b.data[at] ^= masks[v];
            }
        }
        kt_bytes_free(&s[i].b);
    }
}

/* Writes fuzz/corpus/image/<name> (+ the option byte fuzz_image.c reads last) when asked. */
static void image_fuzz_seeds_are_written_on_request(void **state)
{
    (void)state;
    const char *want = getenv("KILN_WRITE_FUZZ_SEEDS");
    const char *src = getenv("KILN_SOURCE_DIR");
    if (!want || strcmp(want, "1") != 0 || !src) skip();
    sample s[16];
    size_t n = make_samples(s);
    for (size_t i = 0; i < n; i++) {
        assert_true(s[i].b.size < 4096);
        uint8_t *buf = malloc(s[i].b.size + 1);
        memcpy(buf, s[i].b.data, s[i].b.size);
        buf[s[i].b.size] = s[i].hint ? 1 : 0; /* bit 0: name hint "x.tga" */
        char *path = kt_format("%s/fuzz/corpus/image/%s", src, s[i].name);
        kt_write_file(path, buf, s[i].b.size + 1);
        free(path);
        free(buf);
        kt_bytes_free(&s[i].b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(image_huge_declared_dimensions_are_refused_before_allocating),
        cmocka_unit_test(image_limits_in_opts_override_the_defaults),
        cmocka_unit_test(image_tiny_files_declaring_big_images_fail_without_allocating),
        cmocka_unit_test(image_truncation_at_every_length_gives_an_error_or_an_image),
        cmocka_unit_test(image_flipping_any_byte_gives_an_error_or_an_image),
        cmocka_unit_test(image_fuzz_seeds_are_written_on_request),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
