/* test_ktx2.c — kiln's KTX2 writer and reader: round trips for every format, pinned golden
 * bytes, one test per class of malformed file, truncation and byte flips, level copies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "codec/vk_format.h"
#include "ktx2_fixtures.h"
#include "support.h"

#define NONE KILN_KTX2_SUPERCOMPRESSION_NONE
#define ZSTD KILN_KTX2_SUPERCOMPRESSION_ZSTD

static uint32_t get_u32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get_u64(const uint8_t *p) { return get_u32(p) | (uint64_t)get_u32(p + 4) << 32; }
static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v)
{
    put_u32(p, (uint32_t)v);
    put_u32(p + 4, (uint32_t)(v >> 32));
}

/* Reads and expects failure with `code` at file offset `offset` (UINT64_MAX: any offset). */
static void expect_reject(const uint8_t *bytes, size_t size, kiln_result code, uint64_t offset)
{
    kiln_ktx2_info info;
    kiln_error err;
    kiln_result r = kiln_ktx2_read(bytes, size, &info, &err);
    if (r != code)
        fail_msg("expected %s, got %s (%s)", kiln_result_name(code), kiln_result_name(r),
                 r == KILN_OK ? "accepted" : err.message);
    assert_int_equal(err.code, code);
    assert_true(err.message[0] != '\0');
    if (offset != UINT64_MAX && err.offset != offset)
        fail_msg("error at offset %llu, expected %llu (%s)", (unsigned long long)err.offset,
                 (unsigned long long)offset, err.message);
}

static void read_ok(const uint8_t *bytes, size_t size, kiln_ktx2_info *info)
{
    kiln_error err;
    kiln_result r = kiln_ktx2_read(bytes, size, info, &err);
    if (r != KILN_OK)
        fail_msg("read: %s: %s (offset %llu)", kiln_result_name(r), err.message,
                 (unsigned long long)err.offset);
}

/* ---- round trips ---------------------------------------------------------------------------- */

static void round_trip(uint32_t vk, uint32_t w, uint32_t h, uint32_t levels, uint32_t scheme,
                       bool premultiplied)
{
    const kiln_vk_format_info *f = kiln_vk_format_find(vk);
    ktx2_fixture fx;
    fx_init(&fx, vk, w, h, levels, scheme, w * 31 + h);
    fx.desc.premultiplied = premultiplied;
    size_t size;
    uint8_t *bytes = fx_write(&fx, &size);

    kiln_ktx2_info info;
    read_ok(bytes, size, &info);
    assert_int_equal(info.vk_format, vk);
    assert_int_equal(info.type_size, f->type_size);
    assert_int_equal(info.width, w);
    assert_int_equal(info.height, h);
    assert_int_equal(info.level_count, fx.desc.level_count);
    assert_int_equal(info.supercompression, scheme);
    assert_int_equal(info.srgb, f->srgb);
    assert_int_equal(info.premultiplied, premultiplied);
    assert_int_equal(info.block_width, f->block_width);
    assert_int_equal(info.block_height, f->block_height);
    assert_int_equal(info.block_size, f->block_size);
    assert_string_equal(info.orientation, "rd");
    assert_string_equal(info.writer, kiln_ktx2_writer_name());
    assert_non_null(info.kv_data);
    uint32_t align = scheme == NONE ? kiln_vk_format_level_align(f) : 1;
    for (uint32_t i = 0; i < info.level_count; i++) {
        const kiln_ktx2_level *lv = &info.levels[i];
        assert_int_equal(lv->width, kiln_mip_extent(w, i));
        assert_int_equal(lv->height, kiln_mip_extent(h, i));
        assert_int_equal(lv->uncompressed_size, fx.desc.levels[i].size);
        assert_int_equal((size_t)(lv->data - bytes) % align, 0);
        if (i > 0) assert_true(lv->data + lv->size <= info.levels[i - 1].data); /* small first */
        uint8_t *copy = malloc(lv->uncompressed_size);
        kiln_error err;
        assert_int_equal(kiln_ktx2_level_copy(&info, i, copy, lv->uncompressed_size, &err),
                         KILN_OK);
        assert_memory_equal(copy, fx.level_data[i], lv->uncompressed_size);
        free(copy);
    }
    /* The last byte of the file is the last byte of level 0. */
    assert_ptr_equal(info.levels[0].data + info.levels[0].size, bytes + size);
    free(bytes);
    fx_free(&fx);
}

static const uint32_t k_sizes[][2] = {{1, 1}, {13, 7}, {4, 4}, {64, 32}, {7, 13}, {2, 1}};

static void round_trip_all(uint32_t scheme)
{
    for (size_t i = 0; i < kiln_vk_format_count(); i++) {
        uint32_t vk = kiln_vk_format_at(i)->vk_format;
        for (size_t s = 0; s < sizeof k_sizes / sizeof k_sizes[0]; s++) {
            round_trip(vk, k_sizes[s][0], k_sizes[s][1], 0, scheme, false); /* full chain */
            round_trip(vk, k_sizes[s][0], k_sizes[s][1], 1, scheme, s % 2 == 0);
        }
        round_trip(vk, 64, 32, 3, scheme, false); /* a partial chain */
    }
}

static void ktx2_round_trips_every_format_uncompressed(void **state)
{
    (void)state;
    round_trip_all(NONE);
}

static void ktx2_round_trips_every_format_with_zstd(void **state)
{
    (void)state;
    round_trip_all(ZSTD);
}

static void ktx2_writer_output_is_deterministic(void **state)
{
    (void)state;
    for (uint32_t scheme = 0; scheme <= 2; scheme += 2) {
        size_t a_size, b_size;
        uint8_t *a = fx_make(KILN_VK_FORMAT_BC7_SRGB_BLOCK, 13, 7, 0, scheme, 5, &a_size);
        uint8_t *b = fx_make(KILN_VK_FORMAT_BC7_SRGB_BLOCK, 13, 7, 0, scheme, 5, &b_size);
        assert_int_equal(a_size, b_size);
        assert_memory_equal(a, b, a_size);
        free(a);
        free(b);
    }
}

static void ktx2_zstd_levels_are_independent_frames_that_shrink_runs(void **state)
{
    (void)state;
    ktx2_fixture fx;
    fx_init(&fx, KILN_VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 0, ZSTD, 1);
    for (uint32_t i = 0; i < fx.desc.level_count; i++) /* runs only: must compress well */
        memset(fx.level_data[i], (int)i, fx.desc.levels[i].size);
    size_t size;
    uint8_t *bytes = fx_write(&fx, &size);
    kiln_ktx2_info info;
    read_ok(bytes, size, &info);
    assert_true(info.levels[0].size < info.levels[0].uncompressed_size / 20);
    for (uint32_t i = 0; i < info.level_count; i++)
        assert_int_equal(ZSTD_getFrameContentSize(info.levels[i].data, info.levels[i].size),
                         info.levels[i].uncompressed_size);
    free(bytes);
    fx_free(&fx);
}

/* ---- the writer's checks -------------------------------------------------------------------- */

static kiln_result write_desc(const kiln_ktx2_write_desc *d)
{
    kiln_buf buf;
    kiln_buf_init(&buf, NULL);
    kiln_error err;
    kiln_result r = kiln_ktx2_write(d, &buf, &err);
    if (r != KILN_OK) assert_true(err.message[0] != '\0');
    kiln_buf_free(&buf);
    return r;
}

static void ktx2_writer_rejects_level_size_that_does_not_match_format(void **state)
{
    (void)state;
    ktx2_fixture fx;
    fx_init(&fx, KILN_VK_FORMAT_BC7_UNORM_BLOCK, 13, 7, 0, NONE, 1);
    assert_int_equal(write_desc(&fx.desc), KILN_OK);
    fx.desc.levels[1].size -= 1;
    assert_int_equal(write_desc(&fx.desc), KILN_E_USAGE);
    fx.desc.levels[1].size += 1;
    fx.desc.levels[2].data = NULL;
    assert_int_equal(write_desc(&fx.desc), KILN_E_USAGE);
    fx_free(&fx);
}

static void ktx2_writer_rejects_more_levels_than_the_chain(void **state)
{
    (void)state;
    ktx2_fixture fx;
    fx_init(&fx, KILN_VK_FORMAT_R8G8B8A8_SRGB, 2, 2, 2, NONE, 1);
    fx.desc.level_count = 3; /* 2x2 has 2 levels */
    fx.desc.levels[2] = fx.desc.levels[1];
    assert_int_equal(write_desc(&fx.desc), KILN_E_USAGE);
    fx.desc.level_count = 0;
    assert_int_equal(write_desc(&fx.desc), KILN_E_USAGE);
    fx_free(&fx);
}

static void ktx2_writer_rejects_unknown_format_bad_size_and_scheme(void **state)
{
    (void)state;
    ktx2_fixture fx;
    fx_init(&fx, KILN_VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, NONE, 1);
    kiln_ktx2_write_desc d = fx.desc;
    d.vk_format = 44; /* B8G8R8A8_UNORM */
    assert_int_equal(write_desc(&d), KILN_E_USAGE);
    d = fx.desc;
    d.width = 0;
    assert_int_equal(write_desc(&d), KILN_E_USAGE);
    d = fx.desc;
    d.height = KILN_KTX2_MAX_DIM + 1;
    assert_int_equal(write_desc(&d), KILN_E_USAGE);
    d = fx.desc;
    d.supercompression = 1; /* BasisLZ */
    assert_int_equal(write_desc(&d), KILN_E_USAGE);
    d = fx.desc;
    d.supercompression = ZSTD;
    d.zstd_level = 99;
    assert_int_equal(write_desc(&d), KILN_E_USAGE);
    fx_free(&fx);
}

static void ktx2_writer_rejects_non_empty_output(void **state)
{
    (void)state;
    ktx2_fixture fx;
    fx_init(&fx, KILN_VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, NONE, 1);
    kiln_buf buf;
    kiln_buf_init(&buf, NULL);
    kiln_buf_append_u32le(&buf, 7);
    kiln_error err;
    assert_int_equal(kiln_ktx2_write(&fx.desc, &buf, &err), KILN_E_USAGE);
    assert_int_equal(buf.size, 4);
    kiln_buf_free(&buf);
    fx_free(&fx);
}

static void ktx2_writer_sets_premultiplied_flag_in_dfd(void **state)
{
    (void)state;
    ktx2_fixture fx;
    fx_init(&fx, KILN_VK_FORMAT_R8G8B8A8_SRGB, 2, 2, 1, NONE, 1);
    fx.desc.premultiplied = true;
    size_t size;
    uint8_t *bytes = fx_write(&fx, &size);
    uint32_t dfd = get_u32(bytes + 48);
    assert_int_equal(bytes[dfd + 15], 1);
    kiln_ktx2_info info;
    read_ok(bytes, size, &info);
    assert_true(info.premultiplied);
    free(bytes);
    fx_free(&fx);
}

/* ---- the format table ----------------------------------------------------------------------- */

static void vk_format_table_pairs_srgb_and_linear_both_ways(void **state)
{
    (void)state;
    size_t pairs = 0;
    for (size_t i = 0; i < kiln_vk_format_count(); i++) {
        const kiln_vk_format_info *f = kiln_vk_format_at(i);
        assert_ptr_equal(kiln_vk_format_find(f->vk_format), f);
        if (!f->twin) {
            assert_false(f->srgb); /* every sRGB format has a linear twin */
            continue;
        }
        const kiln_vk_format_info *t = kiln_vk_format_find(f->twin);
        assert_non_null(t);
        assert_int_equal(t->twin, f->vk_format);
        assert_int_not_equal(t->srgb, f->srgb);
        assert_int_equal(t->block_size, f->block_size);
        pairs++;
    }
    /* RGBA8, BC1, BC3, BC7, ETC2 RGB8, ETC2 RGBA8, ASTC 4x4: both halves */
    assert_int_equal(pairs, 14);
    assert_null(kiln_vk_format_find(0));
    assert_null(kiln_vk_format_at(kiln_vk_format_count()));
}

static void vk_format_sizes_and_mip_chain_follow_blocks(void **state)
{
    (void)state;
    uint64_t s;
    assert_true(
        kiln_vk_format_image_size(kiln_vk_format_find(KILN_VK_FORMAT_BC7_SRGB_BLOCK), 13, 7, &s));
    assert_int_equal(s, 4 * 2 * 16);
    assert_true(kiln_vk_format_image_size(kiln_vk_format_find(KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK),
                                          1, 1, &s));
    assert_int_equal(s, 8);
    assert_true(kiln_vk_format_image_size(kiln_vk_format_find(KILN_VK_FORMAT_R16G16B16A16_SFLOAT),
                                          13, 7, &s));
    assert_int_equal(s, 13 * 7 * 8);
    assert_true(kiln_vk_format_image_size(kiln_vk_format_find(KILN_VK_FORMAT_R16G16B16A16_SFLOAT),
                                          KILN_KTX2_MAX_DIM, KILN_KTX2_MAX_DIM, &s));
    assert_int_equal(s, (uint64_t)KILN_KTX2_MAX_DIM * KILN_KTX2_MAX_DIM * 8);
    assert_int_equal(kiln_mip_level_count(13, 7), 4);
    assert_int_equal(kiln_mip_level_count(1, 1), 1);
    assert_int_equal(kiln_mip_level_count(KILN_KTX2_MAX_DIM, 1), KILN_KTX2_MAX_LEVELS);
    assert_int_equal(kiln_mip_extent(13, 3), 1);
    assert_int_equal(kiln_mip_extent(13, 2), 3);
    assert_int_equal(kiln_vk_format_level_align(kiln_vk_format_find(KILN_VK_FORMAT_R8G8B8A8_UNORM)),
                     4);
    assert_int_equal(
        kiln_vk_format_level_align(kiln_vk_format_find(KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK)), 8);
    assert_int_equal(
        kiln_vk_format_level_align(kiln_vk_format_find(KILN_VK_FORMAT_BC5_UNORM_BLOCK)), 16);
}

/* The words of the BC7 sRGB and RGBA8 sRGB descriptors, as the Khronos Data Format spec lays
 * them out (bit fields of little-endian uint32s), rebuilt here independently of the table. */
static void vk_format_dfd_words_follow_khronos_layout(void **state)
{
    (void)state;
    uint8_t dfd[KILN_DFD_MAX_SIZE];
    size_t n = kiln_vk_format_dfd(kiln_vk_format_find(KILN_VK_FORMAT_BC7_SRGB_BLOCK), false, dfd);
    static const uint32_t bc7[] = {
        44, 0, 2u | 40u << 16, 134u | 1u << 8 | 2u << 16, 3u | 3u << 8, 16, 0, 127u << 16,
        0,  0, 0xFFFFFFFFu};
    assert_int_equal(n, sizeof bc7);
    for (size_t i = 0; i < n / 4; i++) assert_int_equal(get_u32(dfd + 4 * i), bc7[i]);

    n = kiln_vk_format_dfd(kiln_vk_format_find(KILN_VK_FORMAT_R8G8B8A8_SRGB), true, dfd);
    assert_int_equal(n, 92);
    assert_int_equal(get_u32(dfd + 12), 1u | 1u << 8 | 2u << 16 | 1u << 24); /* premultiplied */
    assert_int_equal(get_u32(dfd + 20), 4);
    for (uint32_t s = 0; s < 4; s++) {
        uint32_t ch = s == 3 ? 15u | 0x10u : s; /* alpha: LINEAR qualifier */
        assert_int_equal(get_u32(dfd + 28 + 16 * s), 8 * s | 7u << 16 | ch << 24);
        assert_int_equal(get_u32(dfd + 36 + 16 * s), 0);
        assert_int_equal(get_u32(dfd + 40 + 16 * s), 255);
    }

    /* The HDR formats, as KTX-Software's createDFDCompressed / createDFDPacked write them:
     * BC6H model 133 with one 128-bit FLOAT (| SIGNED) sample over [0 or -1, 1]; ASTC SFLOAT the
     * same under model 162; B10G11R11 three UFLOAT samples 11/11/10 bits; E5B9G9R9 a 9-bit
     * mantissa (upper 8448) and the shared 5-bit exponent (EXPONENT, 15..31) per channel. */
    static const struct {
        uint32_t vk, model, channel, lower;
    } blocks[] = {{KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK, 133, 0x80, 0},
                  {KILN_VK_FORMAT_BC6H_SFLOAT_BLOCK, 133, 0xC0, 0xBF800000u},
                  {KILN_VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK, 162, 0xC0, 0xBF800000u}};
    for (size_t k = 0; k < 3; k++) {
        n = kiln_vk_format_dfd(kiln_vk_format_find(blocks[k].vk), false, dfd);
        const uint32_t want[] = {44,
                                 0,
                                 2u | 40u << 16,
                                 blocks[k].model | 1u << 8 | 1u << 16,
                                 3u | 3u << 8,
                                 16,
                                 0,
                                 127u << 16 | blocks[k].channel << 24,
                                 0,
                                 blocks[k].lower,
                                 0x3F800000u};
        assert_int_equal(n, sizeof want);
        for (size_t i = 0; i < n / 4; i++) assert_int_equal(get_u32(dfd + 4 * i), want[i]);
    }
    n = kiln_vk_format_dfd(kiln_vk_format_find(KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32), false, dfd);
    assert_int_equal(n, 4 + 24 + 3 * 16);
    assert_int_equal(get_u32(dfd + 12), 1u | 1u << 8 | 1u << 16);
    assert_int_equal(get_u32(dfd + 20), 4);
    static const uint32_t b10_bits[3] = {11, 11, 10}, b10_off[3] = {0, 11, 22};
    for (uint32_t s = 0; s < 3; s++) {
        assert_int_equal(get_u32(dfd + 28 + 16 * s),
                         b10_off[s] | (b10_bits[s] - 1) << 16 | (s | 0x80u) << 24);
        assert_int_equal(get_u32(dfd + 36 + 16 * s), 0);
        assert_int_equal(get_u32(dfd + 40 + 16 * s), 0x3F800000u);
    }
    n = kiln_vk_format_dfd(kiln_vk_format_find(KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32), false, dfd);
    assert_int_equal(n, 4 + 24 + 6 * 16);
    for (uint32_t c = 0; c < 3; c++) {
        const uint8_t *m = dfd + 28 + 32 * c, *e = m + 16;
        assert_int_equal(get_u32(m), 9 * c | 8u << 16 | c << 24);
        assert_int_equal(get_u32(m + 8), 0);
        assert_int_equal(get_u32(m + 12), 8448);
        assert_int_equal(get_u32(e), 27u | 4u << 16 | (c | 0x20u) << 24);
        assert_int_equal(get_u32(e + 8), 15);
        assert_int_equal(get_u32(e + 12), 31);
    }
}

/* ---- golden files --------------------------------------------------------------------------- */

static void check_golden(const char *name, const uint8_t *bytes, size_t size)
{
    char *path = kt_format("%s/tests/golden/%s", fx_source_dir(), name);
    const char *update = getenv("KILN_GOLDEN_UPDATE");
    if (update && strcmp(update, "1") == 0) {
        kt_write_file(path, bytes, size);
        printf("golden: wrote %s (%zu bytes)\n", path, size);
    } else {
        size_t gsize = 0;
        uint8_t *golden = kt_read_file(path, &gsize);
        if (!golden) fail_msg("%s is missing: run `make golden-update` and review the diff", path);
        if (gsize != size || memcmp(golden, bytes, size) != 0) {
            size_t i = 0;
            while (i < size && i < gsize && golden[i] == bytes[i]) i++;
            fail_msg("%s differs from the writer's output at byte %zu (golden %zu bytes, now %zu); "
                     "if intended, run `make golden-update` and review",
                     path, i, gsize, size);
        }
        free(golden);
    }
    free(path);
}

static void ktx2_golden_rgba8_srgb_2x2_two_levels_matches_pinned_bytes(void **state)
{
    (void)state;
    static const uint8_t level0[16] = {255, 0, 0,   255, 0,   255, 0,   255,
                                       0,   0, 255, 255, 255, 255, 255, 128};
    static const uint8_t level1[4] = {128, 128, 128, 223};
    kiln_ktx2_write_desc d = {0};
    d.vk_format = KILN_VK_FORMAT_R8G8B8A8_SRGB;
    d.width = d.height = 2;
    d.level_count = 2;
    d.levels[0] = (kiln_ktx2_write_level){level0, sizeof level0};
    d.levels[1] = (kiln_ktx2_write_level){level1, sizeof level1};
    kiln_buf buf;
    kiln_buf_init(&buf, NULL);
    assert_int_equal(kiln_ktx2_write(&d, &buf, NULL), KILN_OK);
    /* The layout docs/formats.md walks through: 80 + 48 index, 92 DFD, 60 KVD, 4 + 16 data. */
    assert_int_equal(buf.size, 300);
    assert_int_equal(get_u32(buf.data + 48), 128);
    assert_int_equal(get_u32(buf.data + 56), 220);
    assert_int_equal(get_u32(buf.data + 60), 60);
    assert_int_equal(get_u64(buf.data + 80 + 24), 280); /* level 1 first */
    assert_int_equal(get_u64(buf.data + 80), 284);
    check_golden("ktx2_rgba8_srgb_2x2_2levels.ktx2", buf.data, buf.size);
    kiln_buf_free(&buf);
}

static void ktx2_golden_bc7_4x4_matches_pinned_bytes(void **state)
{
    (void)state;
    uint8_t block[16]; /* placeholder: not a meaningful BC7 block, the container is what counts */
    for (int i = 0; i < 16; i++) block[i] = (uint8_t)(0x40 + i);
    kiln_ktx2_write_desc d = {0};
    d.vk_format = KILN_VK_FORMAT_BC7_UNORM_BLOCK;
    d.width = d.height = 4;
    d.level_count = 1;
    d.levels[0] = (kiln_ktx2_write_level){block, sizeof block};
    kiln_buf buf;
    kiln_buf_init(&buf, NULL);
    assert_int_equal(kiln_ktx2_write(&d, &buf, NULL), KILN_OK);
    /* 80 + 24 index, 44 DFD at 104, 60 KVD at 148 → 208, padded to 16: level at 208. */
    assert_int_equal(get_u64(buf.data + 80), 208);
    assert_int_equal(buf.size, 224);
    check_golden("ktx2_bc7_4x4.ktx2", buf.data, buf.size);
    kiln_buf_free(&buf);
}

/* ---- malformed files: one test per class ---------------------------------------------------- */

/* The base file for most: 2x2 RGBA8 sRGB, 2 levels (the golden layout above). */
static uint8_t *base_file(size_t *size)
{
    return fx_make(KILN_VK_FORMAT_R8G8B8A8_SRGB, 2, 2, 0, NONE, 1, size);
}

static void ktx2_reader_rejects_bad_identifier_and_short_files(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    expect_reject(b, 79, KILN_E_FORMAT_INVALID, 79);
    expect_reject(b, 0, KILN_E_FORMAT_INVALID, 0);
    b[5] = '1'; /* "KTX 10" */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 5);
    free(b);
    kiln_ktx2_info info;
    assert_int_equal(kiln_ktx2_read(NULL, 10, &info, NULL), KILN_E_USAGE);
}

static void ktx2_reader_rejects_unknown_vk_format(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    put_u32(b + 12, 44); /* B8G8R8A8_UNORM: legal KTX2, not one of kiln's */
    expect_reject(b, size, KILN_E_IMPORT_UNSUPPORTED, 12);
    put_u32(b + 12, 0); /* UNDEFINED with an RGBA8 DFD: not a Basis texture (test_ktx2_basis) */
    expect_reject(b, size, KILN_E_IMPORT_UNSUPPORTED, get_u32(b + 48) + 12);
    free(b);
}

static void ktx2_reader_rejects_wrong_type_size(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    put_u32(b + 16, 2);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 16);
    free(b);
    b = fx_make(KILN_VK_FORMAT_R16G16B16A16_SFLOAT, 2, 2, 1, NONE, 1, &size);
    put_u32(b + 16, 1);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 16);
    free(b);
}

static void ktx2_reader_rejects_zero_and_oversized_dimensions(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    put_u32(b + 20, 0);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 20);
    put_u32(b + 20, 2);
    put_u32(b + 24, 0); /* a 1D RGBA8 texture: legal, not read by kiln */
    expect_reject(b, size, KILN_E_IMPORT_UNSUPPORTED, 24);
    put_u32(b + 24, KILN_KTX2_MAX_DIM + 1);
    expect_reject(b, size, KILN_E_LIMIT, 24);
    put_u32(b + 24, 2);
    put_u32(b + 20, 0xFFFFFFFFu);
    expect_reject(b, size, KILN_E_LIMIT, 20);
    free(b);
    b = fx_make(KILN_VK_FORMAT_BC7_UNORM_BLOCK, 4, 4, 1, NONE, 1, &size);
    put_u32(b + 24, 0); /* block formats must have a height */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 24);
    free(b);
}

static uint8_t *shape_file(uint32_t vk, uint32_t w, uint32_t h, uint32_t shape, uint32_t layers,
                           uint32_t depth, uint32_t scheme, size_t *size)
{
    ktx2_fixture fx;
    fx_init_shape(&fx, vk, w, h, shape, layers, depth, 0, scheme, 7);
    uint8_t *b = fx_write(&fx, size);
    fx_free(&fx);
    return b;
}

/* Cubes, arrays, cube arrays and volumes round-trip: shape, counts, per-level depth and image
 * size, and every level's bytes. */
static void ktx2_shapes_round_trip(void **state)
{
    (void)state;
    static const struct {
        uint32_t vk, w, h, shape, layers, depth, faces, images0;
    } cases[] = {
        {KILN_VK_FORMAT_BC7_SRGB_BLOCK, 16, 16, KILN_TEXTURE_SHAPE_CUBE, 0, 0, 6, 6},
        {KILN_VK_FORMAT_R8G8B8A8_UNORM, 5, 3, KILN_TEXTURE_SHAPE_ARRAY, 4, 0, 1, 4},
        {KILN_VK_FORMAT_BC4_UNORM_BLOCK, 8, 8, KILN_TEXTURE_SHAPE_VOLUME, 0, 32, 1, 32},
        {KILN_VK_FORMAT_R16G16B16A16_SFLOAT, 4, 4, KILN_TEXTURE_SHAPE_CUBE_ARRAY, 3, 0, 6, 18},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (uint32_t scheme = 0; scheme <= 2; scheme += 2) {
            ktx2_fixture fx;
            fx_init_shape(&fx, cases[c].vk, cases[c].w, cases[c].h, cases[c].shape, cases[c].layers,
                          cases[c].depth, 0, scheme, (uint32_t)c);
            size_t size;
            uint8_t *b = fx_write(&fx, &size);
            kiln_ktx2_info info;
            read_ok(b, size, &info);
            assert_int_equal(info.shape, cases[c].shape);
            assert_int_equal(info.face_count, cases[c].faces);
            assert_int_equal(info.layer_count, cases[c].layers ? cases[c].layers : 1);
            assert_int_equal(info.depth, cases[c].depth ? cases[c].depth : 1);
            assert_int_equal(kiln_ktx2_level_images(&info, 0), cases[c].images0);
            /* a volume of 32 slices, 8x8: levels 8x8x32, 4x4x16 ... 1x1x1 */
            uint32_t want_levels = kiln_mip_level_count(
                cases[c].w, cases[c].h > cases[c].depth ? cases[c].h : cases[c].depth);
            assert_int_equal(info.level_count, want_levels);
            assert_string_equal(info.orientation,
                                cases[c].shape == KILN_TEXTURE_SHAPE_VOLUME ? "rdi" : "rd");
            for (uint32_t l = 0; l < info.level_count; l++) {
                const kiln_ktx2_level *lv = &info.levels[l];
                uint32_t d = cases[c].depth ? kiln_mip_extent(cases[c].depth, l) : 1;
                assert_int_equal(lv->depth, d);
                assert_int_equal(lv->uncompressed_size,
                                 lv->image_size * kiln_ktx2_level_images(&info, l));
                assert_int_equal(lv->uncompressed_size, fx.desc.levels[l].size);
                uint8_t *copy = malloc(lv->uncompressed_size);
                kiln_error err;
                assert_int_equal(kiln_ktx2_level_copy(&info, l, copy, lv->uncompressed_size, &err),
                                 KILN_OK);
                assert_memory_equal(copy, fx.desc.levels[l].data, lv->uncompressed_size);
                free(copy);
            }
            free(b);
            fx_free(&fx);
        }
}

static void ktx2_writer_refuses_bad_shapes(void **state)
{
    (void)state;
    ktx2_fixture fx;
    fx_init_shape(&fx, KILN_VK_FORMAT_R8G8B8A8_UNORM, 4, 4, KILN_TEXTURE_SHAPE_CUBE, 0, 0, 1, NONE,
                  1);
    kiln_buf buf;
    kiln_error err;
    fx.desc.width = 8; /* not square */
    fx.desc.level_count = 1;
    kiln_buf_init(&buf, NULL);
    assert_int_equal(kiln_ktx2_write(&fx.desc, &buf, &err), KILN_E_USAGE);
    kiln_buf_free(&buf);
    fx.desc.width = 4;
    fx.desc.shape = KILN_TEXTURE_SHAPE_ARRAY; /* 0 layers */
    kiln_buf_init(&buf, NULL);
    assert_int_equal(kiln_ktx2_write(&fx.desc, &buf, &err), KILN_E_USAGE);
    kiln_buf_free(&buf);
    fx.desc.layer_count = 5; /* 6 images given, 5 needed */
    kiln_buf_init(&buf, NULL);
    assert_int_equal(kiln_ktx2_write(&fx.desc, &buf, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "5 images"));
    kiln_buf_free(&buf);
    fx.desc.layer_count = 6; /* right */
    kiln_buf_init(&buf, NULL);
    assert_int_equal(kiln_ktx2_write(&fx.desc, &buf, &err), KILN_OK);
    kiln_buf_free(&buf);
    fx.desc.shape = KILN_TEXTURE_SHAPE_COUNT;
    kiln_buf_init(&buf, NULL);
    assert_int_equal(kiln_ktx2_write(&fx.desc, &buf, &err), KILN_E_USAGE);
    kiln_buf_free(&buf);
    fx_free(&fx);
}

static void ktx2_reader_checks_shapes(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size); /* 2x2 RGBA8, 2D */
    put_u32(b + 36, 6);            /* a cube: the levels hold one face, not six */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, UINT64_MAX);
    put_u32(b + 36, 2);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 36);
    put_u32(b + 36, 0);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 36);
    put_u32(b + 36, 1);
    put_u32(b + 32, KILN_KTX2_MAX_LAYERS + 1);
    expect_reject(b, size, KILN_E_LIMIT, 32);
    put_u32(b + 32, 0);
    put_u32(b + 28, KILN_KTX2_MAX_DEPTH + 1);
    expect_reject(b, size, KILN_E_LIMIT, 28);
    put_u32(b + 28, 1); /* a volume of one slice: KTXorientation must then have 3 letters */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, UINT64_MAX);
    free(b);
    /* cube faces must be square */
    b = fx_make(KILN_VK_FORMAT_R8G8B8A8_UNORM, 4, 2, 1, NONE, 1, &size);
    put_u32(b + 36, 6);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 36);
    free(b);
    /* arrays of volumes: Vulkan has none */
    b = shape_file(KILN_VK_FORMAT_R8G8B8A8_UNORM, 4, 4, KILN_TEXTURE_SHAPE_VOLUME, 0, 4, NONE,
                   &size);
    put_u32(b + 32, 2);
    expect_reject(b, size, KILN_E_IMPORT_UNSUPPORTED, 32);
    free(b);
    /* a cube whose faces are 3D */
    b = shape_file(KILN_VK_FORMAT_R8G8B8A8_UNORM, 4, 4, KILN_TEXTURE_SHAPE_CUBE, 0, 0, NONE, &size);
    put_u32(b + 28, 2);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 36);
    free(b);
}

static void ktx2_extra_key_values_are_written_sorted_and_found(void **state)
{
    (void)state;
    ktx2_fixture fx;
    fx_init(&fx, KILN_VK_FORMAT_R8G8B8A8_UNORM, 2, 2, 1, NONE, 1);
    const float sh[3] = {1.5f, -2.0f, 0.25f};
    kiln_ktx2_write_kv kv[2] = {{"kiln.a", "x", 2}, {"kiln.sh9", sh, sizeof sh}};
    fx.desc.kv = kv;
    fx.desc.kv_count = 2;
    size_t size;
    uint8_t *b = fx_write(&fx, &size);
    kiln_ktx2_info info;
    read_ok(b, size, &info);
    const uint8_t *v;
    size_t len;
    assert_true(kiln_ktx2_find_key(&info, "kiln.sh9", &v, &len));
    assert_int_equal(len, sizeof sh);
    assert_memory_equal(v, sh, sizeof sh);
    assert_true(kiln_ktx2_find_key(&info, "KTXwriter", &v, &len));
    assert_false(kiln_ktx2_find_key(&info, "kiln.s", &v, &len));
    free(b);
    /* out of order: refused */
    kiln_ktx2_write_kv bad[2] = {{"kiln.b", "x", 2}, {"kiln.a", "y", 2}};
    fx.desc.kv = bad;
    kiln_buf buf;
    kiln_error err;
    kiln_buf_init(&buf, NULL);
    assert_int_equal(kiln_ktx2_write(&fx.desc, &buf, &err), KILN_E_USAGE);
    kiln_buf_free(&buf);
    kiln_ktx2_write_kv upper[1] = {{"Abc", "x", 2}}; /* sorts before KTXwriter */
    fx.desc.kv = upper;
    fx.desc.kv_count = 1;
    kiln_buf_init(&buf, NULL);
    assert_int_equal(kiln_ktx2_write(&fx.desc, &buf, &err), KILN_E_USAGE);
    kiln_buf_free(&buf);
    fx_free(&fx);
}

static void ktx2_reader_rejects_level_count_zero_or_beyond_the_chain(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    put_u32(b + 40, 0);
    expect_reject(b, size, KILN_E_IMPORT_UNSUPPORTED, 40);
    put_u32(b + 40, 3); /* 2x2 has 2 */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 40);
    put_u32(b + 40, 0xFFFFFFFFu);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 40);
    free(b);
    b = fx_make(KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK, 8, 8, 0, NONE, 1, &size);
    put_u32(b + 40, 0); /* forbidden outright for block formats */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 40);
    free(b);
}

static void ktx2_reader_rejects_unknown_supercompression(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    put_u32(b + 44, 1); /* BasisLZ */
    expect_reject(b, size, KILN_E_IMPORT_UNSUPPORTED, 44);
    put_u32(b + 44, 3); /* ZLIB */
    expect_reject(b, size, KILN_E_IMPORT_UNSUPPORTED, 44);
    put_u32(b + 44, 4); /* reserved */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 44);
    free(b);
}

static void ktx2_reader_rejects_global_data_for_schemes_without_it(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    put_u64(b + 72, 8);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 72);
    put_u64(b + 72, 0);
    put_u64(b + 64, 280);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 64);
    free(b);
}

static void ktx2_reader_rejects_level_index_past_end_of_file(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    /* Two levels need 128 bytes before the DFD. */
    expect_reject(b, 100, KILN_E_FORMAT_INVALID, 100);
    free(b);
}

static void ktx2_reader_rejects_dfd_overlapping_the_level_index(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    put_u32(b + 48, 120);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 48);
    put_u32(b + 48, 0);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 48);
    free(b);
}

static void ktx2_reader_rejects_dfd_past_end_of_file(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    put_u32(b + 52, 0xFFFFFFFCu);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 48);
    put_u32(b + 52, 92);
    put_u32(b + 48, 0xFFFFFFF0u);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 48);
    free(b);
}

static void ktx2_reader_rejects_dfd_total_size_that_differs_from_its_length(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    uint32_t dfd = get_u32(b + 48);
    put_u32(b + dfd, 96);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd);
    put_u32(b + dfd, 92);
    b[dfd + 10] = 60; /* descriptorBlockSize: 2 samples' worth, not 4 */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, UINT64_MAX);
    b[dfd + 10] = 200; /* past the DFD */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd + 10);
    free(b);
}

static void ktx2_reader_rejects_dfd_that_describes_another_format(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    uint32_t dfd = get_u32(b + 48);
    b[dfd + 12] = KILN_DF_MODEL_BC7;
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd + 12);
    b[dfd + 12] = KILN_DF_MODEL_RGBSDA;
    b[dfd + 28 + 16 + 2] = 15; /* green sample 16 bits wide */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd + 28 + 16);
    b[dfd + 28 + 16 + 2] = 7;
    b[dfd + 28 + 48 + 3] = 15; /* sRGB alpha without the LINEAR qualifier */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd + 28 + 48);
    b[dfd + 28 + 48 + 3] = 15 | 0x10;
    b[dfd + 16] = 3; /* 4x1 texel blocks */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd + 16);
    b[dfd + 16] = 0;
    b[dfd + 20] = 16; /* bytesPlane0 */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd + 20);
    b[dfd + 20] = 4;
    b[dfd + 15] = 2; /* reserved flag */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd + 15);
    b[dfd + 15] = 0;
    b[dfd + 8] = 1; /* versionNumber */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd + 8);
    b[dfd + 8] = 2;
    b[dfd + 6] = 2; /* descriptorType 1 */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd + 4);
    b[dfd + 6] = 0;
    kiln_ktx2_info info;
    read_ok(b, size, &info); /* all restored */
    free(b);
}

static void ktx2_reader_rejects_dfd_transfer_that_contradicts_vk_format(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size); /* sRGB */
    uint32_t dfd = get_u32(b + 48);
    b[dfd + 14] = KILN_DF_TRANSFER_LINEAR;
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd + 14);
    free(b);
    b = fx_make(KILN_VK_FORMAT_BC7_UNORM_BLOCK, 4, 4, 1, NONE, 1, &size);
    dfd = get_u32(b + 48);
    b[dfd + 14] = KILN_DF_TRANSFER_SRGB; /* BC7_UNORM has an sRGB twin */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd + 14);
    free(b);
    b = fx_make(KILN_VK_FORMAT_BC5_UNORM_BLOCK, 4, 4, 1, NONE, 1, &size);
    dfd = get_u32(b + 48);
    b[dfd + 14] = 3; /* ITU: legal for BC5, not handled by kiln */
    expect_reject(b, size, KILN_E_IMPORT_UNSUPPORTED, dfd + 14);
    free(b);
}

static void ktx2_reader_accepts_zeroed_bytes_plane_only_when_supercompressed(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = fx_make(KILN_VK_FORMAT_BC7_SRGB_BLOCK, 8, 8, 0, ZSTD, 1, &size);
    uint32_t dfd = get_u32(b + 48);
    b[dfd + 20] = 0; /* as files from KTX 2.0 revisions before 2 carry */
    kiln_ktx2_info info;
    read_ok(b, size, &info);
    free(b);
    b = fx_make(KILN_VK_FORMAT_BC7_SRGB_BLOCK, 8, 8, 0, NONE, 1, &size);
    b[dfd + 20] = 0;
    expect_reject(b, size, KILN_E_FORMAT_INVALID, dfd + 20);
    free(b);
}

static void ktx2_reader_rejects_kvd_that_does_not_follow_the_dfd(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    uint32_t kvd = get_u32(b + 56);
    put_u32(b + 56, kvd + 4);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 56);
    put_u32(b + 56, kvd);
    put_u32(b + 60, 0xFFFFFFF0u);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 60);
    put_u32(b + 60, 0); /* no key/value data, but an offset */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 56);
    free(b);
}

static void ktx2_reader_rejects_key_value_entry_past_its_end(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    uint32_t kvd = get_u32(b + 56);
    put_u32(b + kvd, 1000);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, kvd);
    put_u32(b + kvd, 1); /* shorter than key + NUL */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, kvd);
    put_u32(b + kvd, 18);
    put_u32(b + 60, get_u32(b + 60) - 1); /* ends inside the last entry's padding... or value */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, UINT64_MAX);
    free(b);
}

static void ktx2_reader_rejects_key_without_nul(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    uint32_t kvd = get_u32(b + 56);
    /* "KTXorientation\0rd\0": make the first entry all non-zero. */
    b[kvd + 4 + 14] = 'X';
    b[kvd + 4 + 17] = 'X';
    expect_reject(b, size, KILN_E_FORMAT_INVALID, kvd + 4);
    free(b);
}

static void ktx2_reader_rejects_unsorted_or_repeated_keys(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    uint32_t kvd = get_u32(b + 56);
    b[kvd + 4 + 3] = 'z'; /* "KTXzrientation" sorts after "KTXwriter" */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, kvd + 24 + 4);
    b[kvd + 4 + 3] = 'w'; /* "KTXwrientation" sorts before "KTXwriter" ('e' < 't'): valid */
    kiln_ktx2_info info;
    read_ok(b, size, &info);
    /* The same 60 bytes as three entries, the first two with the same key. */
    uint8_t *kv = b + kvd;
    memset(kv, 0, 60);
    for (int i = 0; i < 2; i++) {
        put_u32(kv + 16 * i, 12);
        memcpy(kv + 16 * i + 4, "KTXwriter\0a", 12);
    }
    put_u32(kv + 32, 24);
    memcpy(kv + 36, "zz", 3);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, kvd + 16 + 4);
    memcpy(kv + 20, "KTXwriteR", 9); /* 'R' < 'r': out of order */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, kvd + 16 + 4);
    memcpy(kv + 20, "KTXwritez", 9); /* strictly increasing: valid */
    read_ok(b, size, &info);
    assert_string_equal(info.writer, "a");
    free(b);
}

static void ktx2_reader_rejects_bad_orientation_and_padding(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    uint32_t kvd = get_u32(b + 56);
    b[kvd + 4 + 15] = 'x'; /* "xd" */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, kvd + 4 + 15);
    b[kvd + 4 + 15] = 'r';
    b[kvd + 4 + 18] = 1; /* padding after "rd\0" */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, kvd + 4 + 18);
    free(b);
}

static void ktx2_reader_rejects_level_past_end_of_file(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    put_u64(b + 80, size); /* level 0 at the very end */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 80);
    put_u64(b + 80, 0xFFFFFFFFFFFFFFF0ull); /* an offset that wraps when added to */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 80);
    free(b);
    b = fx_make(KILN_VK_FORMAT_BC7_UNORM_BLOCK, 4, 4, 1, ZSTD, 1, &size);
    put_u64(b + 88, 0xFFFFFFFFFFFFFFFFull); /* zstd: any length, but within the file */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 80);
    free(b);
}

static void ktx2_reader_rejects_level_size_inconsistent_with_dimensions(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    put_u64(b + 88, 12); /* level 0 of 2x2 RGBA8 is 16 bytes */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 88);
    put_u64(b + 88, 16);
    put_u64(b + 96, 12);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 96);
    put_u64(b + 96, 16);
    put_u64(b + 104 + 8, 8); /* level 1 */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 104 + 8);
    free(b);
}

static void ktx2_reader_rejects_wrong_uncompressed_length_with_zstd(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = fx_make(KILN_VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 0, ZSTD, 1, &size);
    put_u64(b + 80 + 16, 8 * 8 * 4 + 1);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 96);
    put_u64(b + 80 + 16, 8 * 8 * 4);
    put_u64(b + 80 + 8, 0);
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 88);
    free(b);
}

static void ktx2_reader_rejects_misaligned_level(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = fx_make(KILN_VK_FORMAT_R16G16B16A16_SFLOAT, 2, 2, 1, NONE, 1, &size);
    uint8_t *longer = calloc(1, size + 8);
    memcpy(longer, b, size);
    put_u64(longer + 80, get_u64(longer + 80) + 4); /* in the file, past the KVD, not 8-aligned */
    expect_reject(longer, size + 8, KILN_E_FORMAT_INVALID, 80);
    put_u64(longer + 80, get_u64(longer + 80) + 4); /* 8-aligned again: a gap is tolerated */
    kiln_ktx2_info info;
    read_ok(longer, size + 8, &info);
    free(longer);
    free(b);
}

static void ktx2_reader_rejects_overlapping_or_misordered_levels(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    uint64_t l0 = get_u64(b + 80), l1 = get_u64(b + 104);
    put_u64(b + 80, l1); /* level 0 on top of level 1 */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 80);
    put_u64(b + 80, l0);
    put_u64(b + 104, get_u32(b + 56)); /* level 1 on top of the key/value data */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 104);
    put_u64(b + 104, l0 + 4); /* the small level after the large one: level 0 then overlaps */
    expect_reject(b, size, KILN_E_FORMAT_INVALID, 80);
    free(b);
}

/* ---- level copies --------------------------------------------------------------------------- */

static void ktx2_level_copy_rejects_bad_level_and_small_destination(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = base_file(&size);
    kiln_ktx2_info info;
    read_ok(b, size, &info);
    uint8_t dst[16];
    kiln_error err;
    assert_int_equal(kiln_ktx2_level_copy(&info, 2, dst, sizeof dst, &err), KILN_E_USAGE);
    assert_int_equal(kiln_ktx2_level_copy(&info, 0, dst, 15, &err), KILN_E_USAGE);
    assert_int_equal(kiln_ktx2_level_copy(&info, 0, NULL, 16, &err), KILN_E_USAGE);
    assert_int_equal(kiln_ktx2_level_copy(NULL, 0, dst, 16, &err), KILN_E_USAGE);
    assert_int_equal(kiln_ktx2_level_copy(&info, 0, dst, 16, &err), KILN_OK);
    assert_memory_equal(dst, b + get_u64(b + 80), 16);
    free(b);
}

static void ktx2_level_copy_rejects_damaged_zstd_data(void **state)
{
    (void)state;
    size_t size;
    uint8_t *b = fx_make(KILN_VK_FORMAT_BC7_UNORM_BLOCK, 16, 16, 1, ZSTD, 1, &size);
    kiln_ktx2_info info;
    uint8_t dst[256];
    kiln_error err;
    /* Frame truncated by one byte (the index says so; the file keeps a harmless extra byte). */
    put_u64(b + 88, get_u64(b + 88) - 1);
    read_ok(b, size, &info);
    assert_int_equal(kiln_ktx2_level_copy(&info, 0, dst, sizeof dst, &err), KILN_E_FORMAT_INVALID);
    put_u64(b + 88, get_u64(b + 88) + 1);
    /* Not a frame at all. */
    b[get_u64(b + 80)] ^= 0xFF;
    read_ok(b, size, &info);
    assert_int_equal(kiln_ktx2_level_copy(&info, 0, dst, sizeof dst, &err), KILN_E_FORMAT_INVALID);
    b[get_u64(b + 80)] ^= 0xFF;
    read_ok(b, size, &info);
    assert_int_equal(kiln_ktx2_level_copy(&info, 0, dst, sizeof dst, &err), KILN_OK);
    free(b);
}

/* Replaces the only level of a 4x4 RGBA8 zstd file (the last bytes) with `frame`. */
static uint8_t *with_frame(const void *frame, size_t frame_size, size_t *size)
{
    size_t base_size;
    uint8_t *b = fx_make(KILN_VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, ZSTD, 1, &base_size);
    uint64_t off = get_u64(b + 80);
    uint8_t *out = malloc(off + frame_size);
    memcpy(out, b, off);
    memcpy(out + off, frame, frame_size);
    put_u64(out + 88, frame_size);
    *size = off + frame_size;
    free(b);
    return out;
}

static void ktx2_level_copy_rejects_zstd_frame_of_the_wrong_size(void **state)
{
    (void)state;
    uint8_t raw[68] = {0}, frame[256], dst[64];
    kiln_ktx2_info info;
    kiln_error err;
    size_t size;
    size_t fs = ZSTD_compress(frame, sizeof frame, raw, 60, 3); /* 60 bytes, not 64 */
    assert_false(ZSTD_isError(fs));
    uint8_t *b = with_frame(frame, fs, &size);
    read_ok(b, size, &info);
    assert_int_equal(kiln_ktx2_level_copy(&info, 0, dst, sizeof dst, &err), KILN_E_FORMAT_INVALID);
    free(b);
    fs = ZSTD_compress(frame, sizeof frame, raw, 68, 3); /* too many bytes */
    b = with_frame(frame, fs, &size);
    read_ok(b, size, &info);
    assert_int_equal(kiln_ktx2_level_copy(&info, 0, dst, sizeof dst, &err), KILN_E_FORMAT_INVALID);
    free(b);
    /* Two frames of 32 bytes each: the first declares 32, not the 64 the index promises. */
    size_t f1 = ZSTD_compress(frame, sizeof frame, raw, 32, 3);
    size_t f2 = ZSTD_compress(frame + f1, sizeof frame - f1, raw, 32, 3);
    b = with_frame(frame, f1 + f2, &size);
    read_ok(b, size, &info);
    assert_int_equal(kiln_ktx2_level_copy(&info, 0, dst, sizeof dst, &err), KILN_E_FORMAT_INVALID);
    free(b);
    /* A frame that does not record its content size. */
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
    ZSTD_inBuffer in = {raw, 64, 0};
    ZSTD_outBuffer outb = {frame, sizeof frame, 0};
    assert_int_equal(ZSTD_compressStream2(cctx, &outb, &in, ZSTD_e_end), 0);
    ZSTD_freeCCtx(cctx);
    assert_int_equal(ZSTD_getFrameContentSize(frame, outb.pos), ZSTD_CONTENTSIZE_UNKNOWN);
    b = with_frame(frame, outb.pos, &size);
    read_ok(b, size, &info);
    assert_int_equal(kiln_ktx2_level_copy(&info, 0, dst, sizeof dst, &err), KILN_E_FORMAT_INVALID);
    free(b);
    /* And the control: a right-sized frame is accepted. */
    fs = ZSTD_compress(frame, sizeof frame, raw, 64, 3);
    b = with_frame(frame, fs, &size);
    read_ok(b, size, &info);
    assert_int_equal(kiln_ktx2_level_copy(&info, 0, dst, sizeof dst, &err), KILN_OK);
    free(b);
}

/* ---- every truncation, every byte flip ------------------------------------------------------ */

/* Reads; on success copies every level (all small here). Returns whether the read passed. */
static bool read_and_copy(const uint8_t *bytes, size_t size)
{
    kiln_ktx2_info info;
    if (kiln_ktx2_read(bytes, size, &info, NULL) != KILN_OK) return false;
    for (uint32_t i = 0; i < info.level_count; i++) {
        size_t n = info.levels[i].uncompressed_size;
        assert_true(n <= 1 << 20);
        uint8_t *dst = malloc(n);
        kiln_ktx2_level_copy(&info, i, dst, n, NULL);
        free(dst);
    }
    return true;
}

static uint8_t *small_files(int which, size_t *size)
{
    switch (which) {
    case 0:
        return base_file(size);
    case 1:
        return fx_make(KILN_VK_FORMAT_BC7_SRGB_BLOCK, 8, 4, 0, ZSTD, 2, size);
    default:
        return fx_make(KILN_VK_FORMAT_BC5_UNORM_BLOCK, 5, 9, 0, NONE, 3, size);
    }
}

static void ktx2_reader_rejects_every_truncation(void **state)
{
    (void)state;
    for (int which = 0; which < 3; which++) {
        size_t size;
        uint8_t *b = small_files(which, &size);
        for (size_t n = 0; n < size; n++) {
            uint8_t *cut = malloc(n ? n : 1); /* exact size: ASan sees any overread */
            memcpy(cut, b, n);
            kiln_ktx2_info info;
            kiln_error err;
            if (kiln_ktx2_read(cut, n, &info, &err) == KILN_OK)
                fail_msg("file %d truncated to %zu of %zu bytes was accepted", which, n, size);
            free(cut);
        }
        assert_true(read_and_copy(b, size));
        free(b);
    }
}

static void ktx2_reader_survives_every_byte_flip(void **state)
{
    (void)state;
    static const uint8_t masks[] = {0xFF, 0x01, 0x80, 0x10};
    for (int which = 0; which < 3; which++) {
        size_t size, accepted = 0, rejected = 0;
        uint8_t *b = small_files(which, &size);
        uint8_t *m = malloc(size);
        for (size_t i = 0; i < size; i++) {
            for (size_t k = 0; k < sizeof masks; k++) {
                memcpy(m, b, size);
                m[i] ^= masks[k];
                bool ok = read_and_copy(m, size);
                if (i < 12) assert_false(ok); /* the identifier */
                if (ok) accepted++;
                else rejected++;
            }
        }
        /* Level data (and the writer string) may change freely; the header may not. */
        assert_true(accepted > 0);
        assert_true(rejected > 12 * sizeof masks);
        free(m);
        free(b);
    }
}

/* ---- fuzz seeds ----------------------------------------------------------------------------- */

static void ktx2_fuzz_seeds_are_valid_and_written_on_request(void **state)
{
    (void)state;
    static const struct {
        uint32_t vk, w, h, levels, scheme;
        const char *name;
    } seeds[] = {
        {KILN_VK_FORMAT_R8G8B8A8_SRGB, 2, 2, 0, NONE, "rgba8_srgb_2x2"},
        {KILN_VK_FORMAT_R8G8B8A8_UNORM, 5, 3, 0, ZSTD, "rgba8_5x3_zstd"},
        {KILN_VK_FORMAT_R16G16B16A16_SFLOAT, 3, 2, 0, NONE, "rgba16f_3x2"},
        {KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK, 8, 8, 0, NONE, "bc1_srgb_8x8"},
        {KILN_VK_FORMAT_BC4_UNORM_BLOCK, 4, 4, 1, ZSTD, "bc4_4x4_zstd"},
        {KILN_VK_FORMAT_BC5_UNORM_BLOCK, 9, 5, 0, NONE, "bc5_9x5"},
        {KILN_VK_FORMAT_BC7_UNORM_BLOCK, 8, 4, 0, ZSTD, "bc7_8x4_zstd"},
        {KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK, 4, 8, 2, NONE, "astc4x4_srgb_4x8"},
    };
    const char *flag = getenv("KILN_WRITE_FUZZ_SEEDS");
    bool write = flag && strcmp(flag, "1") == 0;
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        size_t size;
        uint8_t *b = fx_make(seeds[i].vk, seeds[i].w, seeds[i].h, seeds[i].levels, seeds[i].scheme,
                             (uint32_t)i, &size);
        assert_true(read_and_copy(b, size));
        if (write) {
            char *path = kt_format("%s/fuzz/corpus/ktx2/%s.ktx2", fx_source_dir(), seeds[i].name);
            kt_write_file(path, b, size);
            printf("fuzz seed: wrote %s\n", path);
            free(path);
        }
        free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ktx2_round_trips_every_format_uncompressed),
        cmocka_unit_test(ktx2_round_trips_every_format_with_zstd),
        cmocka_unit_test(ktx2_writer_output_is_deterministic),
        cmocka_unit_test(ktx2_zstd_levels_are_independent_frames_that_shrink_runs),
        cmocka_unit_test(ktx2_writer_rejects_level_size_that_does_not_match_format),
        cmocka_unit_test(ktx2_writer_rejects_more_levels_than_the_chain),
        cmocka_unit_test(ktx2_writer_rejects_unknown_format_bad_size_and_scheme),
        cmocka_unit_test(ktx2_writer_rejects_non_empty_output),
        cmocka_unit_test(ktx2_writer_sets_premultiplied_flag_in_dfd),
        cmocka_unit_test(vk_format_table_pairs_srgb_and_linear_both_ways),
        cmocka_unit_test(vk_format_sizes_and_mip_chain_follow_blocks),
        cmocka_unit_test(vk_format_dfd_words_follow_khronos_layout),
        cmocka_unit_test(ktx2_golden_rgba8_srgb_2x2_two_levels_matches_pinned_bytes),
        cmocka_unit_test(ktx2_golden_bc7_4x4_matches_pinned_bytes),
        cmocka_unit_test(ktx2_reader_rejects_bad_identifier_and_short_files),
        cmocka_unit_test(ktx2_reader_rejects_unknown_vk_format),
        cmocka_unit_test(ktx2_reader_rejects_wrong_type_size),
        cmocka_unit_test(ktx2_reader_rejects_zero_and_oversized_dimensions),
        cmocka_unit_test(ktx2_shapes_round_trip),
        cmocka_unit_test(ktx2_writer_refuses_bad_shapes),
        cmocka_unit_test(ktx2_reader_checks_shapes),
        cmocka_unit_test(ktx2_extra_key_values_are_written_sorted_and_found),
        cmocka_unit_test(ktx2_reader_rejects_level_count_zero_or_beyond_the_chain),
        cmocka_unit_test(ktx2_reader_rejects_unknown_supercompression),
        cmocka_unit_test(ktx2_reader_rejects_global_data_for_schemes_without_it),
        cmocka_unit_test(ktx2_reader_rejects_level_index_past_end_of_file),
        cmocka_unit_test(ktx2_reader_rejects_dfd_overlapping_the_level_index),
        cmocka_unit_test(ktx2_reader_rejects_dfd_past_end_of_file),
        cmocka_unit_test(ktx2_reader_rejects_dfd_total_size_that_differs_from_its_length),
        cmocka_unit_test(ktx2_reader_rejects_dfd_that_describes_another_format),
        cmocka_unit_test(ktx2_reader_rejects_dfd_transfer_that_contradicts_vk_format),
        cmocka_unit_test(ktx2_reader_accepts_zeroed_bytes_plane_only_when_supercompressed),
        cmocka_unit_test(ktx2_reader_rejects_kvd_that_does_not_follow_the_dfd),
        cmocka_unit_test(ktx2_reader_rejects_key_value_entry_past_its_end),
        cmocka_unit_test(ktx2_reader_rejects_key_without_nul),
        cmocka_unit_test(ktx2_reader_rejects_unsorted_or_repeated_keys),
        cmocka_unit_test(ktx2_reader_rejects_bad_orientation_and_padding),
        cmocka_unit_test(ktx2_reader_rejects_level_past_end_of_file),
        cmocka_unit_test(ktx2_reader_rejects_level_size_inconsistent_with_dimensions),
        cmocka_unit_test(ktx2_reader_rejects_wrong_uncompressed_length_with_zstd),
        cmocka_unit_test(ktx2_reader_rejects_misaligned_level),
        cmocka_unit_test(ktx2_reader_rejects_overlapping_or_misordered_levels),
        cmocka_unit_test(ktx2_level_copy_rejects_bad_level_and_small_destination),
        cmocka_unit_test(ktx2_level_copy_rejects_damaged_zstd_data),
        cmocka_unit_test(ktx2_level_copy_rejects_zstd_frame_of_the_wrong_size),
        cmocka_unit_test(ktx2_reader_rejects_every_truncation),
        cmocka_unit_test(ktx2_reader_survives_every_byte_flip),
        cmocka_unit_test(ktx2_fuzz_seeds_are_valid_and_written_on_request),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
