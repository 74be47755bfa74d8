/* test_image_corpus.c — every image in the third-party corpus decodes with the dimensions,
 * format and channel counts its header states; kodim01.png matches stb_image's independent PNG
 * decoder texel for texel; the TGAs match a direct read of their uncompressed bytes. */
#include <math.h>
#include <openexr.h>
#include <stb_image.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/image.h"
#include "support.h"

static kiln_image decode_corpus(const char *rel, kiln_result expect)
{
    char *path = kt_corpus_path(rel);
    assert_non_null(path);
    size_t size = 0;
    void *data = kt_read_file(path, &size);
    if (!data) fail_msg("cannot read %s", path);
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.name_hint = rel;
    kiln_image img;
    kiln_error err;
    kiln_result r = kiln_image_decode(data, size, &opts, &img, &err);
    if (r != expect) fail_msg("%s: %s: %s", rel, kiln_result_name(r), err.message);
    free(data);
    free(path);
    return img;
}

static void image_corpus_kodak_pngs_decode_as_8bit_rgb(void **state)
{
    (void)state;
    for (int i = 1; i <= 12; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "images/kodak/kodim%02d.png", i);
        kiln_image img = decode_corpus(rel, KILN_OK);
        /* kodim04, 09 and 10 are portrait (file(1) on the corpus says so). */
        bool portrait = i == 4 || i == 9 || i == 10;
        assert_int_equal(img.width, portrait ? 512 : 768);
        assert_int_equal(img.height, portrait ? 768 : 512);
        assert_int_equal(img.format, KILN_IMAGE_PNG);
        assert_int_equal(img.type, KILN_PIXEL_U8);
        assert_int_equal(img.source_channels, 3);
        assert_int_equal(img.source_bits, 8);
        assert_false(img.has_alpha);
        assert_int_equal(img.size, (size_t)img.width * img.height * 4);
        kiln_image_free(&img);
        assert_null(img.pixels);
    }
}

/* stb_image's PNG decoder shares no code with libspng: equal texels mean both read it right. */
static void image_kodim01_matches_stb_image_png_decoder(void **state)
{
    (void)state;
    kiln_image img = decode_corpus("images/kodak/kodim01.png", KILN_OK);
    char *path = kt_corpus_path("images/kodak/kodim01.png");
    int w, h, n;
    unsigned char *ref = stbi_load(path, &w, &h, &n, 4);
    assert_non_null(ref);
    assert_int_equal(w, img.width);
    assert_int_equal(h, img.height);
    assert_memory_equal(img.pixels, ref, img.size);
    /* A few fixed texels too, so a failure names a place. */
    const uint8_t *p = img.pixels;
    size_t probes[] = {0, 767, 511 * 768, 511 * 768 + 767, 256 * 768 + 384};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
        for (int c = 0; c < 4; c++) assert_int_equal(p[probes[i] * 4 + c], ref[probes[i] * 4 + c]);
    stbi_image_free(ref);
    free(path);
    kiln_image_free(&img);
}

static void image_corpus_normal_maps_decode_as_rgba8(void **state)
{
    (void)state;
    static const struct {
        const char *rel;
        uint32_t dim;
    } files[] = {{"images/normal/ldr-xy-00.png", 256},
                 {"images/normal/ldr-xy-01.png", 256},
                 {"images/normal/ldr-xy-normal1.png", 1024}};
    for (size_t i = 0; i < 3; i++) {
        kiln_image img = decode_corpus(files[i].rel, KILN_OK);
        assert_int_equal(img.width, files[i].dim);
        assert_int_equal(img.height, files[i].dim);
        assert_int_equal(img.type, KILN_PIXEL_U8);
        assert_int_equal(img.source_channels, 4);
        assert_int_equal(img.source_bits, 8);
        /* has_alpha must agree with a scan of stb_image's decode of the same file. */
        char *path = kt_corpus_path(files[i].rel);
        int w, h, n;
        unsigned char *ref = stbi_load(path, &w, &h, &n, 4);
        assert_non_null(ref);
        bool alpha = false;
        for (size_t t = 0; t < (size_t)w * h; t++) alpha |= ref[t * 4 + 3] != 255;
        assert_int_equal(img.has_alpha, alpha);
        assert_memory_equal(img.pixels, ref, img.size);
        stbi_image_free(ref);
        free(path);
        kiln_image_free(&img);
    }
}

static void image_corpus_radiance_hdr_decodes_as_linear_float(void **state)
{
    (void)state;
    kiln_image img = decode_corpus("images/hdr/hdr-rgb-00.hdr", KILN_OK);
    assert_int_equal(img.width, 256); /* "-Y 256 +X 256" */
    assert_int_equal(img.height, 256);
    assert_int_equal(img.format, KILN_IMAGE_HDR);
    assert_int_equal(img.type, KILN_PIXEL_F32);
    assert_int_equal(img.source_channels, 3);
    assert_int_equal(img.source_bits, 32);
    assert_false(img.has_alpha);
    const float *p = img.pixels;
    double sum = 0;
    for (size_t i = 0; i < (size_t)256 * 256; i++) {
        for (int c = 0; c < 3; c++) {
            assert_true(isfinite(p[i * 4 + c]) && p[i * 4 + c] >= 0.0f);
            sum += p[i * 4 + c];
        }
        assert_true(p[i * 4 + 3] == 1.0f);
    }
    assert_true(sum > 0.0);
    kiln_image_free(&img);
}

static void image_corpus_exr_decodes_half_rgb_piz_as_float(void **state)
{
    (void)state;
    kiln_image img = decode_corpus("images/hdr/hdr-rgb-arboretum.exr", KILN_OK);
    assert_int_equal(img.width, 768); /* dataWindow (0 0)-(767 767) */
    assert_int_equal(img.height, 768);
    assert_int_equal(img.format, KILN_IMAGE_EXR);
    assert_int_equal(img.type, KILN_PIXEL_F32);
    assert_int_equal(img.source_channels, 3); /* B, G, R half */
    assert_int_equal(img.source_bits, 16);
    assert_false(img.has_alpha);
    const float *p = img.pixels;
    float maxv = 0.0f;
    size_t nonzero = 0;
    for (size_t i = 0; i < (size_t)768 * 768; i++) {
        for (int c = 0; c < 3; c++) {
            assert_true(isfinite(p[i * 4 + c]));
            if (p[i * 4 + c] > maxv) maxv = p[i * 4 + c];
            nonzero += p[i * 4 + c] != 0.0f;
        }
        assert_true(p[i * 4 + 3] == 1.0f);
    }
    /* An HDR environment: most texels lit, some brighter than display white. */
    assert_true(nonzero > (size_t)768 * 768 * 3 / 2);
    assert_true(maxv > 1.0f);
    kiln_image_free(&img);
}

/* kiln unpacks EXR chunks itself; the library's own unpacker, on this valid file, must agree
 * bit for bit (this also pins the byte order of PIZ-decompressed data). */
static void image_corpus_exr_matches_the_openexr_unpacker(void **state)
{
    (void)state;
    kiln_image img = decode_corpus("images/hdr/hdr-rgb-arboretum.exr", KILN_OK);
    char *path = kt_corpus_path("images/hdr/hdr-rgb-arboretum.exr");
    exr_context_t ctx = NULL;
    assert_int_equal(exr_start_read(&ctx, path, NULL), EXR_ERR_SUCCESS);
    exr_attr_box2i_t dw;
    assert_int_equal(exr_get_data_window(ctx, 0, &dw), EXR_ERR_SUCCESS);
    int32_t w = dw.max.x - dw.min.x + 1, h = dw.max.y - dw.min.y + 1, lines = 0;
    assert_int_equal(exr_get_scanlines_per_chunk(ctx, 0, &lines), EXR_ERR_SUCCESS);
    float *ref = calloc((size_t)w * h * 4, sizeof(float));
    exr_decode_pipeline_t dec = EXR_DECODE_PIPELINE_INITIALIZER;
    bool init = false;
    for (int32_t y = dw.min.y; y <= dw.max.y; y += lines) {
        exr_chunk_info_t ci;
        assert_int_equal(exr_read_scanline_chunk_info(ctx, 0, y, &ci), EXR_ERR_SUCCESS);
        assert_int_equal(init ? exr_decoding_update(ctx, 0, &ci, &dec)
                              : exr_decoding_initialize(ctx, 0, &ci, &dec),
                         EXR_ERR_SUCCESS);
        init = true;
        for (int c = 0; c < dec.channel_count; c++) {
            exr_coding_channel_info_t *ch = &dec.channels[c];
            const char *n = ch->channel_name;
            int comp = strcmp(n, "R") == 0   ? 0
                       : strcmp(n, "G") == 0 ? 1
                       : strcmp(n, "B") == 0 ? 2
                                             : -1;
            size_t row = (size_t)(ci.start_y - dw.min.y) * (size_t)w * 4;
            ch->decode_to_ptr = comp < 0 ? NULL : (uint8_t *)(ref + row + comp);
            ch->user_pixel_stride = 16;
            ch->user_line_stride = w * 16;
            ch->user_bytes_per_element = 4;
            ch->user_data_type = EXR_PIXEL_FLOAT;
        }
        assert_int_equal(exr_decoding_choose_default_routines(ctx, 0, &dec), EXR_ERR_SUCCESS);
        assert_int_equal(exr_decoding_run(ctx, 0, &dec), EXR_ERR_SUCCESS);
    }
    exr_decoding_destroy(ctx, &dec);
    exr_finish(&ctx);
    const float *p = img.pixels;
    for (size_t i = 0; i < (size_t)w * h; i++)
        for (int c = 0; c < 3; c++)
            if (memcmp(&p[i * 4 + c], &ref[i * 4 + c], 4) != 0)
                fail_msg("texel %zu channel %d: kiln %g, OpenEXR %g", i, c, p[i * 4 + c],
                         ref[i * 4 + c]);
    free(ref);
    free(path);
    kiln_image_free(&img);
}

/* Both corpus TGAs are uncompressed, bottom-left origin (descriptor bit 5 clear): the expected
 * texels come straight from the file bytes, BGR(A) with rows bottom first. */
static void check_tga_against_bytes(const char *rel, uint32_t w, uint32_t h, int bpp)
{
    kiln_image img = decode_corpus(rel, KILN_OK);
    assert_int_equal(img.width, w);
    assert_int_equal(img.height, h);
    assert_int_equal(img.format, KILN_IMAGE_TGA);
    assert_int_equal(img.type, KILN_PIXEL_U8);
    assert_int_equal(img.source_channels, bpp / 8);
    assert_int_equal(img.source_bits, 8);
    char *path = kt_corpus_path(rel);
    size_t size;
    uint8_t *f = kt_read_file(path, &size);
    assert_non_null(f);
    assert_int_equal(f[2], 2);
    assert_int_equal(f[17] & 0x20, 0);
    size_t px = (size_t)bpp / 8;
    const uint8_t *data = f + 18 + f[0];
    assert_true(18 + f[0] + (size_t)w * h * px <= size);
    const uint8_t *out = img.pixels;
    bool alpha = false;
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *s = data + ((size_t)(h - 1 - y) * w + x) * px;
            const uint8_t *d = out + ((size_t)y * w + x) * 4;
            assert_int_equal(d[0], s[2]);
            assert_int_equal(d[1], s[1]);
            assert_int_equal(d[2], s[0]);
            assert_int_equal(d[3], px == 4 ? s[3] : 255);
            alpha |= d[3] != 255;
        }
    }
    assert_int_equal(img.has_alpha, alpha);
    free(f);
    free(path);
    kiln_image_free(&img);
}

static void image_corpus_tgas_match_their_uncompressed_bytes(void **state)
{
    (void)state;
    check_tga_against_bytes("images/tga/ldr.tga", 8, 8, 32);
    check_tga_against_bytes("images/tga/bottom.tga", 256, 256, 24);
}

static void image_probe_reads_corpus_dimensions_without_decoding(void **state)
{
    (void)state;
    static const struct {
        const char *rel;
        kiln_image_format f;
        uint32_t w, h;
    } files[] = {{"images/kodak/kodim04.png", KILN_IMAGE_PNG, 512, 768},
                 {"images/hdr/hdr-rgb-00.hdr", KILN_IMAGE_HDR, 256, 256},
                 {"images/hdr/hdr-rgb-arboretum.exr", KILN_IMAGE_EXR, 768, 768},
                 {"images/tga/bottom.tga", KILN_IMAGE_TGA, 256, 256}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *path = kt_corpus_path(files[i].rel);
        size_t size;
        void *data = kt_read_file(path, &size);
        assert_non_null(data);
        kiln_image_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.name_hint = files[i].rel;
        kiln_image_format f;
        uint32_t w, h;
        kiln_error err;
        assert_int_equal(kiln_image_probe(data, size, &opts, &f, &w, &h, &err), KILN_OK);
        assert_int_equal(f, files[i].f);
        assert_int_equal(w, files[i].w);
        assert_int_equal(h, files[i].h);
        free(data);
        free(path);
    }
}

int main(void)
{
    kt_require_corpus();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(image_corpus_kodak_pngs_decode_as_8bit_rgb),
        cmocka_unit_test(image_kodim01_matches_stb_image_png_decoder),
        cmocka_unit_test(image_corpus_normal_maps_decode_as_rgba8),
        cmocka_unit_test(image_corpus_radiance_hdr_decodes_as_linear_float),
        cmocka_unit_test(image_corpus_exr_decodes_half_rgb_piz_as_float),
        cmocka_unit_test(image_corpus_exr_matches_the_openexr_unpacker),
        cmocka_unit_test(image_corpus_tgas_match_their_uncompressed_bytes),
        cmocka_unit_test(image_probe_reads_corpus_dimensions_without_decoding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
