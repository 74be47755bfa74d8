/* test_image_formats.c — sources made by independent encoders (libspng's encoder, tjCompress2,
 * stb_image_write, hand-written TGA/BMP/EXR) decode to the texels that went in; detection and
 * has_alpha behave as documented. */
#include <math.h>
#include <spng.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "image_fixtures.h"
#include "import/image.h"
#include "kiln/kiln_format.h"
#include "support.h"
#include "write/ktx2_write.h"

static kiln_image decode_ok(const kt_bytes *b, const char *hint)
{
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.name_hint = hint;
    kiln_image img;
    kiln_error err;
    kiln_result r = kiln_image_decode(b->data, b->size, &opts, &img, &err);
    if (r != KILN_OK) fail_msg("decode: %s: %s", kiln_result_name(r), err.message);
    return img;
}

static const uint8_t *px8(const kiln_image *img, uint32_t x, uint32_t y)
{
    return (const uint8_t *)img->pixels + ((size_t)y * img->width + x) * 4;
}

static void expect_rgba8(const kiln_image *img, uint32_t x, uint32_t y, int r, int g, int b, int a)
{
    const uint8_t *p = px8(img, x, y);
    if (p[0] != r || p[1] != g || p[2] != b || p[3] != a)
        fail_msg("texel (%u,%u) is %d,%d,%d,%d, expected %d,%d,%d,%d", x, y, p[0], p[1], p[2], p[3],
                 r, g, b, a);
}

/* ---- detection ---------------------------------------------------------------------------- */

static void image_detect_uses_magic_bytes_and_tga_only_by_name_or_footer(void **state)
{
    (void)state;
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const uint8_t jpg[3] = {0xFF, 0xD8, 0xFF};
    static const uint8_t exr[4] = {0x76, 0x2f, 0x31, 0x01};
    assert_int_equal(kiln_image_detect(png, 8, NULL), KILN_IMAGE_PNG);
    assert_int_equal(kiln_image_detect(png, 8, "x.tga"), KILN_IMAGE_PNG); /* magic wins */
    assert_int_equal(kiln_image_detect(png, 7, NULL), KILN_IMAGE_UNKNOWN);
    assert_int_equal(kiln_image_detect(jpg, 3, NULL), KILN_IMAGE_JPEG);
    assert_int_equal(kiln_image_detect(exr, 4, NULL), KILN_IMAGE_EXR);
    assert_int_equal(kiln_image_detect("BM", 2, NULL), KILN_IMAGE_BMP);
    assert_int_equal(kiln_image_detect("#?RADIANCE\n", 11, NULL), KILN_IMAGE_HDR);
    assert_int_equal(kiln_image_detect("#?RGBE\n", 7, NULL), KILN_IMAGE_HDR);
    uint8_t rgba[4 * 4] = {0};
    kt_bytes tga = kt_tga_encode(2, 2, rgba, 24, false, false);
    assert_int_equal(kiln_image_detect(tga.data, tga.size, NULL), KILN_IMAGE_UNKNOWN);
    assert_int_equal(kiln_image_detect(tga.data, tga.size, "dir/WALL.TGA"), KILN_IMAGE_TGA);
    /* A TGA 2.0 footer is enough without a name. */
    uint8_t *with_footer = malloc(tga.size + 26);
    memcpy(with_footer, tga.data, tga.size);
    memset(with_footer + tga.size, 0, 8);
    memcpy(with_footer + tga.size + 8, "TRUEVISION-XFILE.", 18);
    assert_int_equal(kiln_image_detect(with_footer, tga.size + 26, NULL), KILN_IMAGE_TGA);
    free(with_footer);
    kt_bytes_free(&tga);
    assert_int_equal(kiln_image_detect(NULL, 0, NULL), KILN_IMAGE_UNKNOWN);
    assert_string_equal(kiln_image_format_name(KILN_IMAGE_JPEG), "jpeg");
    assert_string_equal(kiln_image_format_name(KILN_IMAGE_EXR), "exr");
    assert_string_equal(kiln_image_format_name((kiln_image_format)99), "unknown");
}

static void image_unknown_bytes_are_unsupported(void **state)
{
    (void)state;
    kiln_image img;
    kiln_error err;
    static const char gif[] = "GIF89a\x01\x00\x01\x00";
    assert_int_equal(kiln_image_decode(gif, sizeof gif, NULL, &img, &err),
                     KILN_E_IMPORT_UNSUPPORTED);
    assert_int_equal(err.code, KILN_E_IMPORT_UNSUPPORTED);
    assert_null(img.pixels);
    assert_int_equal(kiln_image_decode("", 0, NULL, &img, &err), KILN_E_IMPORT_UNSUPPORTED);
    /* Named .tga but not a TGA header: damaged, and never handed to stb's other decoders. */
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.name_hint = "x.tga";
    assert_int_equal(kiln_image_decode(gif, sizeof gif, &opts, &img, &err), KILN_E_IMPORT_FAILED);
    assert_non_null(strstr(err.message, "TGA"));
}

/* ---- PNG ---------------------------------------------------------------------------------- */

static void image_png_grey_1bit_and_8bit_expand_to_rgb(void **state)
{
    (void)state;
    /* 1-bit: 8x2, rows 0b10110000 and 0b01001111. */
    uint8_t bits[2] = {0xB0, 0x4F};
    kt_bytes b =
        kt_png_encode(8, 2, SPNG_COLOR_TYPE_GRAYSCALE, 1, false, bits, 2, NULL, 0, NULL, 0);
    kiln_image img = decode_ok(&b, NULL);
    assert_int_equal(img.source_channels, 1);
    assert_int_equal(img.source_bits, 1);
    assert_int_equal(img.type, KILN_PIXEL_U8);
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < 8; x++) {
            int v = (bits[y] >> (7 - x)) & 1 ? 255 : 0;
            expect_rgba8(&img, x, y, v, v, v, 255);
        }
    assert_false(img.has_alpha);
    kiln_image_free(&img);
    kt_bytes_free(&b);

    uint8_t grey[16];
    for (int i = 0; i < 16; i++) grey[i] = (uint8_t)(i * 17);
    b = kt_png_encode(4, 4, SPNG_COLOR_TYPE_GRAYSCALE, 8, false, grey, 16, NULL, 0, NULL, 0);
    img = decode_ok(&b, NULL);
    assert_int_equal(img.source_channels, 1);
    assert_int_equal(img.source_bits, 8);
    for (int i = 0; i < 16; i++) expect_rgba8(&img, i % 4, i / 4, i * 17, i * 17, i * 17, 255);
    kiln_image_free(&img);
    kt_bytes_free(&b);
}

static void image_png_grey_alpha_keeps_alpha(void **state)
{
    (void)state;
    uint8_t ga[3 * 2 * 2] = {10, 255, 20, 128, 30, 0, 40, 255, 50, 1, 60, 255};
    kt_bytes b = kt_png_encode(3, 2, SPNG_COLOR_TYPE_GRAYSCALE_ALPHA, 8, false, ga, sizeof ga, NULL,
                               0, NULL, 0);
    kiln_image img = decode_ok(&b, NULL);
    assert_int_equal(img.source_channels, 2);
    for (int i = 0; i < 6; i++)
        expect_rgba8(&img, (uint32_t)(i % 3), (uint32_t)(i / 3), ga[i * 2], ga[i * 2], ga[i * 2],
                     ga[i * 2 + 1]);
    assert_true(img.has_alpha);
    kiln_image_free(&img);
    kt_bytes_free(&b);
}

static void image_png_palette_with_trns_gives_alpha(void **state)
{
    (void)state;
    const uint8_t plte[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {9, 8, 7}};
    const uint8_t trns[3] = {0, 128, 255}; /* entry 3 has no tRNS value: opaque */
    /* 4-bit indices, 4x2: 0 1 2 3 / 3 2 1 0 */
    uint8_t idx[4] = {0x01, 0x23, 0x32, 0x10};
    kt_bytes b =
        kt_png_encode(4, 2, SPNG_COLOR_TYPE_INDEXED, 4, false, idx, sizeof idx, plte, 4, trns, 3);
    kiln_image img = decode_ok(&b, NULL);
    assert_int_equal(img.source_channels, 4);
    assert_int_equal(img.source_bits, 8);
    static const int order[8] = {0, 1, 2, 3, 3, 2, 1, 0};
    static const int alpha[4] = {0, 128, 255, 255};
    for (int i = 0; i < 8; i++) {
        int e = order[i];
        expect_rgba8(&img, (uint32_t)(i % 4), (uint32_t)(i / 4), plte[e][0], plte[e][1], plte[e][2],
                     alpha[e]);
    }
    assert_true(img.has_alpha);
    kiln_image_free(&img);
    kt_bytes_free(&b);

    /* The same palette without tRNS: 3 channels, opaque. */
    b = kt_png_encode(4, 2, SPNG_COLOR_TYPE_INDEXED, 4, false, idx, sizeof idx, plte, 4, NULL, 0);
    img = decode_ok(&b, NULL);
    assert_int_equal(img.source_channels, 3);
    assert_false(img.has_alpha);
    expect_rgba8(&img, 0, 0, 255, 0, 0, 255);
    kiln_image_free(&img);
    kt_bytes_free(&b);
}

static void image_png_16bit_decodes_to_u16_rgba(void **state)
{
    (void)state;
    /* RGBA16, 2x2, host-endian samples for SPNG_FMT_PNG. */
    uint16_t px[2 * 2 * 4] = {0,     1,     2,     65535, 65535, 32768, 256, 65535,
                              12345, 54321, 65535, 65534, 7,     8,     9,   65535};
    kt_bytes b = kt_png_encode(2, 2, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, 16, false, px, sizeof px,
                               NULL, 0, NULL, 0);
    kiln_image img = decode_ok(&b, NULL);
    assert_int_equal(img.type, KILN_PIXEL_U16);
    assert_int_equal(img.source_bits, 16);
    assert_int_equal(img.source_channels, 4);
    assert_int_equal(img.size, 2 * 2 * 4 * sizeof(uint16_t));
    assert_memory_equal(img.pixels, px, sizeof px);
    assert_true(img.has_alpha); /* one texel is 65534 */
    kiln_image_free(&img);
    kt_bytes_free(&b);

    /* All alpha at 65535: opaque. Grey 16-bit expands to RGB with alpha 65535. */
    uint16_t grey[3] = {0, 1000, 65535};
    b = kt_png_encode(3, 1, SPNG_COLOR_TYPE_GRAYSCALE, 16, false, grey, sizeof grey, NULL, 0, NULL,
                      0);
    img = decode_ok(&b, NULL);
    assert_int_equal(img.type, KILN_PIXEL_U16);
    assert_int_equal(img.source_channels, 1);
    const uint16_t *p = img.pixels;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(p[i * 4 + 0], grey[i]);
        assert_int_equal(p[i * 4 + 1], grey[i]);
        assert_int_equal(p[i * 4 + 2], grey[i]);
        assert_int_equal(p[i * 4 + 3], 65535);
    }
    assert_false(img.has_alpha);
    kiln_image_free(&img);
    kt_bytes_free(&b);
}

static void image_png_adam7_interlaced_matches_the_source(void **state)
{
    (void)state;
    enum { W = 13, H = 11 };
    uint8_t rgb[W * H * 3];
    for (int i = 0; i < W * H * 3; i++) rgb[i] = (uint8_t)(i * 7 + 3);
    kt_bytes b =
        kt_png_encode(W, H, SPNG_COLOR_TYPE_TRUECOLOR, 8, true, rgb, sizeof rgb, NULL, 0, NULL, 0);
    assert_int_equal(b.data[8 + 8 + 12], 1); /* IHDR interlace method byte */
    kiln_image img = decode_ok(&b, NULL);
    assert_int_equal(img.width, W);
    assert_int_equal(img.height, H);
    for (int i = 0; i < W * H; i++)
        expect_rgba8(&img, (uint32_t)(i % W), (uint32_t)(i / W), rgb[i * 3], rgb[i * 3 + 1],
                     rgb[i * 3 + 2], 255);
    kiln_image_free(&img);
    kt_bytes_free(&b);
}

static void image_has_alpha_is_true_only_when_some_alpha_is_below_opaque(void **state)
{
    (void)state;
    uint8_t rgba[4 * 4 * 4];
    memset(rgba, 255, sizeof rgba);
    kt_bytes b = kt_png_encode(4, 4, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, 8, false, rgba, sizeof rgba,
                               NULL, 0, NULL, 0);
    kiln_image img = decode_ok(&b, NULL);
    assert_int_equal(img.source_channels, 4);
    assert_false(img.has_alpha); /* an alpha channel, all opaque */
    kiln_image_free(&img);
    kt_bytes_free(&b);
    rgba[9 * 4 + 3] = 254;
    b = kt_png_encode(4, 4, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, 8, false, rgba, sizeof rgba, NULL, 0,
                      NULL, 0);
    img = decode_ok(&b, NULL);
    assert_true(img.has_alpha);
    kiln_image_free(&img);
    kt_bytes_free(&b);
}

/* ---- JPEG --------------------------------------------------------------------------------- */

static void expect_near(int got, int want, int tol, const char *what)
{
    if (abs(got - want) > tol) fail_msg("%s: got %d, expected %d +- %d", what, got, want, tol);
}

static void image_jpeg_rgb_and_grey_decode_close_to_the_source(void **state)
{
    (void)state;
    enum { W = 32, H = 16 };
    /* Flat 8x8 blocks compress almost losslessly at quality 100. */
    uint8_t rgb[W * H * 3], grey[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int blk = (y / 8) * (W / 8) + x / 8;
            uint8_t *p = rgb + (y * W + x) * 3;
            p[0] = (uint8_t)(blk * 30);
            p[1] = (uint8_t)(200 - blk * 20);
            p[2] = (uint8_t)(64 + blk * 10);
            grey[y * W + x] = (uint8_t)(blk * 31);
        }
    kt_bytes b = kt_jpeg_encode(W, H, TJPF_RGB, TJSAMP_444, 100, rgb);
    kiln_image img = decode_ok(&b, NULL);
    assert_int_equal(img.format, KILN_IMAGE_JPEG);
    assert_int_equal(img.source_channels, 3);
    assert_int_equal(img.source_bits, 8);
    for (int i = 0; i < W * H; i++)
        for (int c = 0; c < 3; c++)
            expect_near(px8(&img, i % W, i / W)[c], rgb[i * 3 + c], 3, "rgb");
    assert_false(img.has_alpha);
    kiln_image_free(&img);
    kt_bytes_free(&b);

    b = kt_jpeg_encode(W, H, TJPF_GRAY, TJSAMP_GRAY, 100, grey);
    img = decode_ok(&b, NULL);
    assert_int_equal(img.source_channels, 1);
    for (int i = 0; i < W * H; i++) {
        const uint8_t *p = px8(&img, i % W, i / W);
        expect_near(p[0], grey[i], 2, "grey");
        assert_int_equal(p[0], p[1]);
        assert_int_equal(p[0], p[2]);
        assert_int_equal(p[3], 255);
    }
    kiln_image_free(&img);
    kt_bytes_free(&b);
}

/* tjCompress2 writes CMYK as YCCK with an Adobe marker, the convention where stored values are
 * inverted (255 = no ink): RGB = stored C,M,Y times stored K / 255. */
static void image_jpeg_adobe_cmyk_converts_to_rgb(void **state)
{
    (void)state;
    enum { W = 16, H = 16 };
    uint8_t cmyk[W * H * 4];
    static const uint8_t blocks[4][4] = {
        {255, 0, 0, 255}, {40, 200, 120, 255}, {255, 255, 255, 128}, {200, 100, 50, 200}};
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) memcpy(cmyk + (y * W + x) * 4, blocks[(y / 8) * 2 + x / 8], 4);
    kt_bytes b = kt_jpeg_encode(W, H, TJPF_CMYK, TJSAMP_444, 100, cmyk);
    kiln_image img = decode_ok(&b, NULL);
    assert_int_equal(img.source_channels, 3);
    for (int i = 0; i < W * H; i++) {
        const uint8_t *s = cmyk + i * 4;
        const uint8_t *p = px8(&img, i % W, i / W);
        for (int c = 0; c < 3; c++) expect_near(p[c], (s[c] * s[3] + 127) / 255, 4, "cmyk");
        assert_int_equal(p[3], 255);
    }
    kiln_image_free(&img);
    kt_bytes_free(&b);
}

/* ---- TGA and BMP -------------------------------------------------------------------------- */

static void fill_pattern(uint8_t *rgba, uint32_t w, uint32_t h, bool vary_alpha)
{
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = rgba + ((size_t)y * w + x) * 4;
            /* Runs of equal texels on the left (for RLE run packets), noise on the right. */
            bool flat = x < w / 2;
            p[0] = (uint8_t)(flat ? 10 * y : x * 37 + y * 11);
            p[1] = (uint8_t)(flat ? 200 : x * 5 + 1);
            p[2] = (uint8_t)(flat ? y : 255 - x * 9);
            p[3] = vary_alpha ? (uint8_t)(flat ? 255 : x * 29 + y) : 255;
        }
}

static void check_tga(uint32_t w, uint32_t h, int bpp, bool rle, bool top_left)
{
    uint8_t *rgba = malloc((size_t)w * h * 4);
    fill_pattern(rgba, w, h, bpp == 32);
    kt_bytes b = kt_tga_encode(w, h, rgba, bpp, rle, top_left);
    kiln_image img = decode_ok(&b, "texture.tga");
    assert_int_equal(img.format, KILN_IMAGE_TGA);
    assert_int_equal(img.source_channels, bpp == 8 ? 1 : (uint32_t)bpp / 8);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *s = rgba + ((size_t)y * w + x) * 4;
            if (bpp == 8) expect_rgba8(&img, x, y, s[0], s[0], s[0], 255);
            else expect_rgba8(&img, x, y, s[0], s[1], s[2], bpp == 32 ? s[3] : 255);
        }
    assert_int_equal(img.has_alpha, bpp == 32);
    kiln_image_free(&img);
    kt_bytes_free(&b);
    free(rgba);
}

static void image_tga_raw_and_rle_in_both_origins_decode_exactly(void **state)
{
    (void)state;
    check_tga(7, 5, 24, false, false);
    check_tga(7, 5, 24, false, true);
    check_tga(9, 6, 32, true, false);
    check_tga(9, 6, 32, true, true);
    check_tga(300, 3, 24, true, true); /* runs longer than a 128-texel packet */
    check_tga(5, 4, 8, false, false);
    check_tga(5, 4, 8, true, true);
}

static void image_bmp_24_and_32_bit_decode_exactly(void **state)
{
    (void)state;
    for (int bpp = 24; bpp <= 32; bpp += 8) {
        uint32_t w = 5, h = 3; /* 5*3 = 15 bytes a row: padded to 16 */
        uint8_t rgba[5 * 3 * 4];
        fill_pattern(rgba, w, h, bpp == 32);
        kt_bytes b = kt_bmp_encode(w, h, rgba, bpp);
        kiln_image img = decode_ok(&b, NULL);
        assert_int_equal(img.format, KILN_IMAGE_BMP);
        assert_int_equal(img.source_channels, (uint32_t)bpp / 8);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                const uint8_t *s = rgba + ((size_t)y * w + x) * 4;
                expect_rgba8(&img, x, y, s[0], s[1], s[2], bpp == 32 ? s[3] : 255);
            }
        assert_int_equal(img.has_alpha, bpp == 32);
        kiln_image_free(&img);
        kt_bytes_free(&b);
    }
}

/* Many writers leave the fourth byte of 32-bit BI_RGB at 0; stb (and kiln) read that as opaque. */
static void image_bmp_32_bit_with_all_zero_alpha_is_opaque(void **state)
{
    (void)state;
    uint8_t rgba[4 * 2 * 4];
    fill_pattern(rgba, 4, 2, false);
    for (int i = 0; i < 8; i++) rgba[i * 4 + 3] = 0;
    kt_bytes b = kt_bmp_encode(4, 2, rgba, 32);
    kiln_image img = decode_ok(&b, NULL);
    assert_false(img.has_alpha);
    expect_rgba8(&img, 3, 1, rgba[7 * 4], rgba[7 * 4 + 1], rgba[7 * 4 + 2], 255);
    kiln_image_free(&img);
    kt_bytes_free(&b);
}

/* ---- HDR and EXR -------------------------------------------------------------------------- */

static void image_hdr_rle_decodes_to_linear_float_within_rgbe_precision(void **state)
{
    (void)state;
    enum { W = 40, H = 3 };
    float rgb[W * H * 3];
    for (int i = 0; i < W * H; i++) {
        rgb[i * 3 + 0] = 0.01f + (float)i * 0.37f;
        rgb[i * 3 + 1] = (float)(i % 7) * 3.0f + 0.5f;
        rgb[i * 3 + 2] = 1000.0f / (float)(i + 1);
    }
    kt_bytes b = kt_hdr_encode(W, H, rgb);
    kiln_image img = decode_ok(&b, NULL);
    assert_int_equal(img.format, KILN_IMAGE_HDR);
    assert_int_equal(img.type, KILN_PIXEL_F32);
    const float *p = img.pixels;
    for (int i = 0; i < W * H; i++) {
        float mx = fmaxf(rgb[i * 3], fmaxf(rgb[i * 3 + 1], rgb[i * 3 + 2]));
        for (int c = 0; c < 3; c++) {
            /* RGBE keeps 8 mantissa bits relative to the brightest channel. */
            if (fabsf(p[i * 4 + c] - rgb[i * 3 + c]) > mx / 128.0f)
                fail_msg("texel %d channel %d: %g vs %g", i, c, p[i * 4 + c], rgb[i * 3 + c]);
        }
        assert_true(p[i * 4 + 3] == 1.0f);
    }
    assert_false(img.has_alpha);
    kiln_image_free(&img);
    kt_bytes_free(&b);
}

static void check_exr_rgba(const kiln_image *img, const float *r, const float *g, const float *b,
                           const float *a)
{
    const float *p = img->pixels;
    for (size_t i = 0; i < (size_t)img->width * img->height; i++) {
        float want[4] = {r ? r[i] : 0.0f, g ? g[i] : 0.0f, b ? b[i] : 0.0f, a ? a[i] : 1.0f};
        for (int c = 0; c < 4; c++)
            if (p[i * 4 + c] != want[c])
                fail_msg("texel %zu channel %d: %g, expected %g", i, c, p[i * 4 + c], want[c]);
    }
}

static void image_exr_scanline_half_float_uint_channels_decode_exactly(void **state)
{
    (void)state;
    enum { W = 5, H = 4 };
    float r[W * H], g[W * H], b[W * H], a[W * H];
    for (int i = 0; i < W * H; i++) {
        r[i] = (float)i * 0.25f; /* exact in half */
        g[i] = (float)i * 1.5f + 0.125f;
        b[i] = (float)(i * 1000); /* uint */
        a[i] = i == 7 ? 0.5f : 1.0f;
    }
    kt_exr_channel ch[4] = {{"R", 1, r}, {"G", 2, g}, {"B", 0, b}, {"A", 1, a}};
    kt_bytes f = kt_exr_encode(W, H, -3, 7, ch, 4, 0, 0);
    kiln_image img = decode_ok(&f, NULL);
    assert_int_equal(img.format, KILN_IMAGE_EXR);
    assert_int_equal(img.width, W);
    assert_int_equal(img.height, H);
    assert_int_equal(img.source_channels, 4);
    assert_int_equal(img.source_bits, 32);
    check_exr_rgba(&img, r, g, b, a);
    assert_true(img.has_alpha);
    kiln_image_free(&img);
    kt_bytes_free(&f);
}

static void image_exr_tiled_with_edge_tiles_decodes_exactly_and_missing_alpha_is_one(void **state)
{
    (void)state;
    enum { W = 11, H = 7 };
    float r[W * H], g[W * H], b[W * H];
    for (int i = 0; i < W * H; i++) {
        r[i] = (float)(i % W) + 0.5f;
        g[i] = (float)(i / W) * 2.0f;
        b[i] = -(float)i * 0.125f;
    }
    kt_exr_channel ch[3] = {{"R", 2, r}, {"G", 1, g}, {"B", 2, b}};
    kt_bytes f = kt_exr_encode(W, H, 0, 0, ch, 3, 4, 3); /* 3x3 tiles, partial at the edges */
    kiln_image img = decode_ok(&f, NULL);
    assert_int_equal(img.width, W);
    assert_int_equal(img.height, H);
    assert_int_equal(img.source_channels, 3);
    check_exr_rgba(&img, r, g, b, NULL);
    assert_false(img.has_alpha);
    kiln_image_free(&img);
    kt_bytes_free(&f);
}

static void image_exr_luminance_y_fills_rgb(void **state)
{
    (void)state;
    enum { W = 3, H = 2 };
    float y[W * H] = {0.0f, 0.5f, 1.0f, 2.0f, 4.0f, 8.0f};
    kt_exr_channel ch[1] = {{"Y", 1, y}};
    kt_bytes f = kt_exr_encode(W, H, 0, 0, ch, 1, 0, 0);
    kiln_image img = decode_ok(&f, NULL);
    assert_int_equal(img.source_channels, 1);
    assert_int_equal(img.source_bits, 16);
    check_exr_rgba(&img, y, y, y, NULL);
    kiln_image_free(&img);
    kt_bytes_free(&f);

    /* No R, G, B or Y at all: unsupported, with the reason. */
    kt_exr_channel z[1] = {{"Z", 2, y}};
    f = kt_exr_encode(W, H, 0, 0, z, 1, 0, 0);
    kiln_error err;
    assert_int_equal(kiln_image_decode(f.data, f.size, NULL, &img, &err),
                     KILN_E_IMPORT_UNSUPPORTED);
    assert_non_null(strstr(err.message, "channel"));
    kt_bytes_free(&f);
}

/* A caller's allocator is used for the pixels and given back to it by kiln_image_free. */
typedef struct counting {
    size_t live, calls;
} counting;
static void *count_alloc(void *user, size_t size, size_t align)
{
    (void)align;
    counting *c = user;
    c->live += size;
    c->calls++;
    return malloc(size);
}
static void count_free(void *user, void *p, size_t size)
{
    counting *c = user;
    c->live -= size;
    free(p);
}

static void image_pixels_come_from_the_callers_allocator(void **state)
{
    (void)state;
    uint8_t rgba[3 * 3 * 4] = {0};
    kt_bytes b = kt_bmp_encode(3, 3, rgba, 24);
    counting c = {0, 0};
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.allocator.alloc = count_alloc;
    opts.allocator.free = count_free;
    opts.allocator.user = &c;
    kiln_image img;
    kiln_error err;
    assert_int_equal(kiln_image_decode(b.data, b.size, &opts, &img, &err), KILN_OK);
    assert_int_equal(c.live, 3 * 3 * 4);
    kiln_image_free(&img);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.calls, 1);
    kiln_image_free(&img); /* zeroed: a no-op */
    kiln_image_free(NULL);
    kt_bytes_free(&b);
}

/* ---- KTX2 as a source image ------------------------------------------------------------------ */

static kt_bytes write_ktx2(uint32_t vk, uint32_t w, uint32_t h, const void *level0, size_t size,
                           uint32_t scheme)
{
    kiln_ktx2_write_desc d;
    memset(&d, 0, sizeof d);
    d.vk_format = vk;
    d.width = w;
    d.height = h;
    d.level_count = 1;
    d.levels[0].data = level0;
    d.levels[0].size = size;
    d.supercompression = scheme;
    kiln_buf out;
    kiln_buf_init(&out, NULL);
    kiln_error err;
    if (kiln_ktx2_write(&d, &out, &err) != KILN_OK) fail_msg("ktx2 write: %s", err.message);
    kt_bytes b = {malloc(out.size), out.size};
    memcpy(b.data, out.data, out.size);
    kiln_buf_free(&out);
    return b;
}

/* A KTX2 decodes to what kiln's own block decoder makes of its level 0 (BC7 in Zstandard, 6x5
 * so the last blocks are partial), RGBA16F to the floats its halves hold. */
static void image_ktx2_level0_decodes_through_the_block_decoders(void **state)
{
    (void)state;
    uint8_t blocks[2 * 2 * 16];
    for (size_t i = 0; i < sizeof blocks; i++) blocks[i] = (uint8_t)(i * 37 + 11);
    kt_bytes b = write_ktx2(KILN_VK_FORMAT_BC7_SRGB_BLOCK, 6, 5, blocks, sizeof blocks,
                            KILN_KTX2_SUPERCOMPRESSION_ZSTD);
    assert_int_equal(kiln_image_detect(b.data, b.size, NULL), KILN_IMAGE_KTX2);
    kiln_image img = decode_ok(&b, NULL);
    assert_int_equal(img.format, KILN_IMAGE_KTX2);
    assert_int_equal(img.type, KILN_PIXEL_U8);
    assert_int_equal(img.width, 6);
    assert_int_equal(img.height, 5);
    uint8_t want[6 * 5 * 4];
    kiln_error err;
    assert_int_equal(kiln_transcode_rgba8(KILN_VK_FORMAT_BC7_SRGB_BLOCK, blocks, sizeof blocks, 6,
                                          5, want, sizeof want, &err),
                     KILN_OK);
    assert_memory_equal(img.pixels, want, sizeof want);
    kiln_image_free(&img);
    free(b.data);

    /* 1.0, -2.5, 0.5, 0.25 as halves, in each of 3x2 texels. */
    static const uint16_t texel[4] = {0x3C00, 0xC100, 0x3800, 0x3400};
    uint8_t halves[3 * 2 * 8];
    for (int i = 0; i < 6; i++)
        for (int c = 0; c < 4; c++) {
            halves[8 * i + 2 * c] = (uint8_t)texel[c];
            halves[8 * i + 2 * c + 1] = (uint8_t)(texel[c] >> 8);
        }
    b = write_ktx2(KILN_VK_FORMAT_R16G16B16A16_SFLOAT, 3, 2, halves, sizeof halves,
                   KILN_KTX2_SUPERCOMPRESSION_NONE);
    img = decode_ok(&b, NULL);
    assert_int_equal(img.type, KILN_PIXEL_F32);
    const float *f = img.pixels;
    for (int i = 0; i < 6; i++) {
        assert_true(f[4 * i] == 1.0f && f[4 * i + 1] == -2.5f);
        assert_true(f[4 * i + 2] == 0.5f && f[4 * i + 3] == 0.25f);
    }
    assert_true(img.has_alpha);
    kiln_image_free(&img);

    /* The memory limit holds before anything is decoded. */
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.memory_limit = 64;
    kiln_result r = kiln_image_decode(b.data, b.size, &opts, &img, &err);
    assert_int_equal(r, KILN_E_LIMIT);
    free(b.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(image_detect_uses_magic_bytes_and_tga_only_by_name_or_footer),
        cmocka_unit_test(image_unknown_bytes_are_unsupported),
        cmocka_unit_test(image_png_grey_1bit_and_8bit_expand_to_rgb),
        cmocka_unit_test(image_png_grey_alpha_keeps_alpha),
        cmocka_unit_test(image_png_palette_with_trns_gives_alpha),
        cmocka_unit_test(image_png_16bit_decodes_to_u16_rgba),
        cmocka_unit_test(image_png_adam7_interlaced_matches_the_source),
        cmocka_unit_test(image_has_alpha_is_true_only_when_some_alpha_is_below_opaque),
        cmocka_unit_test(image_jpeg_rgb_and_grey_decode_close_to_the_source),
        cmocka_unit_test(image_jpeg_adobe_cmyk_converts_to_rgb),
        cmocka_unit_test(image_tga_raw_and_rle_in_both_origins_decode_exactly),
        cmocka_unit_test(image_bmp_24_and_32_bit_decode_exactly),
        cmocka_unit_test(image_bmp_32_bit_with_all_zero_alpha_is_opaque),
        cmocka_unit_test(image_hdr_rle_decodes_to_linear_float_within_rgbe_precision),
        cmocka_unit_test(image_exr_scanline_half_float_uint_channels_decode_exactly),
        cmocka_unit_test(image_exr_tiled_with_edge_tiles_decodes_exactly_and_missing_alpha_is_one),
        cmocka_unit_test(image_exr_luminance_y_fills_rgb),
        cmocka_unit_test(image_pixels_come_from_the_callers_allocator),
        cmocka_unit_test(image_ktx2_level0_decodes_through_the_block_decoders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
