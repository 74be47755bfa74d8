/* test_ktx2_basis.c — kiln_ktx2_read on Basis Universal files (vkFormat 0): ETC1S in BasisLZ and
 * UASTC raw or in Zstandard, laid out as the KTX 2.0 specification and the reference encoder
 * (basisu 1.15) lay them out; one test per class of malformed field; every truncation and byte
 * flip. The files are built here byte by byte: the reader checks structure, not the codebooks
 * (kiln_basis_open decodes those; tests/basis covers it with the reference tool's files). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/vk_format.h"
#include "ktx2_fixtures.h"
#include "support.h"

static void put_u16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v)
{
    put_u32(p, (uint32_t)v);
    put_u32(p + 4, (uint32_t)(v >> 32));
}

enum { ETC1S = 163, UASTC = 166 };

/* Where the parts of a made file are. */
typedef struct made {
    uint8_t *bytes;
    size_t size;
    size_t dfd, sgd, sgd_size, level_entry0, level0, level0_size;
} made;

/* A 2D Basis file: `levels` levels of w x h; model ETC1S (with `alpha`: two slices) or UASTC
 * (channel id `uastc_channel`, scheme NONE or ZSTD — the ZSTD payload is not a real frame, the
 * reader does not inflate). ETC1S slices are 5 bytes of RGB and 3 of alpha per image. */
static made make_file(uint32_t model, uint32_t scheme, bool alpha, uint32_t uastc_channel,
                      uint32_t w, uint32_t h, uint32_t levels)
{
    made m = {0};
    bool etc1s = model == ETC1S;
    uint32_t samples = etc1s && alpha ? 2 : 1;
    uint32_t dfd_len = 4 + 24 + 16 * samples;
    uint32_t images = levels;
    uint32_t sgd_len = etc1s ? 20 + 20 * images + 4 + 4 + 8 : 0;
    size_t at = 80 + 24 * (size_t)levels;
    m.dfd = at;
    at += dfd_len;
    if (etc1s) {
        at = (at + 7) & ~(size_t)7;
        m.sgd = at;
        m.sgd_size = sgd_len;
        at += sgd_len;
    }
    size_t level_at[16], level_len[16];
    for (uint32_t l = levels; l-- > 0;) {
        uint32_t lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
        size_t blocks = (size_t)((lw + 3) / 4) * ((lh + 3) / 4);
        level_len[l] = etc1s ? 5 + (alpha ? 3 : 0) : scheme ? 7 + blocks : 16 * blocks;
        if (!etc1s && !scheme) at = (at + 15) & ~(size_t)15;
        level_at[l] = at;
        at += level_len[l];
    }
    m.size = at;
    m.bytes = calloc(1, m.size);
    uint8_t *b = m.bytes;
    memcpy(b, kiln_ktx2_identifier, 12);
    put_u32(b + 12, 0); /* vkFormat */
    put_u32(b + 16, 1); /* typeSize */
    put_u32(b + 20, w);
    put_u32(b + 24, h);
    put_u32(b + 36, 1); /* faces */
    put_u32(b + 40, levels);
    put_u32(b + 44, scheme);
    put_u32(b + 48, (uint32_t)m.dfd);
    put_u32(b + 52, dfd_len);
    put_u64(b + 64, m.sgd);
    put_u64(b + 72, m.sgd_size);
    m.level_entry0 = 80;
    for (uint32_t l = 0; l < levels; l++) {
        uint32_t lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
        size_t blocks = (size_t)((lw + 3) / 4) * ((lh + 3) / 4);
        put_u64(b + 80 + 24 * l, level_at[l]);
        put_u64(b + 88 + 24 * l, level_len[l]);
        put_u64(b + 96 + 24 * l, etc1s ? 0 : 16 * blocks);
        for (size_t i = 0; i < level_len[l]; i++) b[level_at[l] + i] = (uint8_t)(i * 7 + l);
    }
    m.level0 = level_at[0];
    m.level0_size = level_len[0];
    uint8_t *d = b + m.dfd;
    put_u32(d, dfd_len);
    put_u16(d + 8, 2);
    put_u16(d + 10, 24 + 16 * samples);
    d[12] = (uint8_t)model;
    d[13] = 1; /* BT.709 */
    d[14] = 2; /* sRGB */
    d[16] = d[17] = 3;
    d[20] = !etc1s && !scheme ? 16 : 0;
    for (uint32_t s = 0; s < samples; s++) {
        uint8_t *p = d + 28 + 16 * s;
        put_u16(p, (etc1s ? 64 : 128) * s);
        p[2] = etc1s ? 63 : 127;
        p[3] = (uint8_t)(etc1s ? (s ? 15 : 0) : uastc_channel);
        put_u32(p + 12, 0xFFFFFFFFu);
    }
    if (etc1s) {
        uint8_t *g = b + m.sgd;
        put_u16(g, 1);      /* endpointCount */
        put_u16(g + 2, 1);  /* selectorCount */
        put_u32(g + 4, 4);  /* endpointsByteLength */
        put_u32(g + 8, 4);  /* selectorsByteLength */
        put_u32(g + 12, 8); /* tablesByteLength */
        for (uint32_t i = 0; i < images; i++) {
            uint8_t *e = g + 20 + 20 * i;
            put_u32(e + 4, 0);
            put_u32(e + 8, 5);
            if (alpha) {
                put_u32(e + 12, 5);
                put_u32(e + 16, 3);
            }
        }
    }
    return m;
}

/* Reads and expects failure with `code` at file offset `offset` (UINT64_MAX: any). */
#define expect_reject(m, code, offset) expect_reject_at(m, code, offset, __LINE__)
static void expect_reject_at(const made *m, kiln_result code, uint64_t offset, int line)
{
    kiln_ktx2_info info;
    kiln_error err;
    kiln_result r = kiln_ktx2_read(m->bytes, m->size, &info, &err);
    if (r != code)
        fail_msg("line %d: expected %s, got %s (%s)", line, kiln_result_name(code),
                 kiln_result_name(r), r == KILN_OK ? "accepted" : err.message);
    assert_true(err.message[0] != '\0');
    if (offset != UINT64_MAX && err.offset != offset)
        fail_msg("line %d: error at offset %llu, expected %llu (%s)", line,
                 (unsigned long long)err.offset, (unsigned long long)offset, err.message);
}

static void read_ok(const made *m, kiln_ktx2_info *info)
{
    kiln_error err;
    kiln_result r = kiln_ktx2_read(m->bytes, m->size, info, &err);
    if (r != KILN_OK)
        fail_msg("read: %s: %s (offset %llu)", kiln_result_name(r), err.message,
                 (unsigned long long)err.offset);
}

static void basis_etc1s_files_read_with_their_global_data(void **state)
{
    (void)state;
    for (int alpha = 0; alpha < 2; alpha++) {
        made m = make_file(ETC1S, KILN_KTX2_SUPERCOMPRESSION_BASISLZ, alpha, 0, 13, 9, 4);
        kiln_ktx2_info info;
        read_ok(&m, &info);
        assert_int_equal(info.vk_format, 0);
        assert_int_equal(info.basis, KILN_KTX2_BASIS_ETC1S);
        assert_int_equal(info.basis_channels,
                         alpha ? KILN_BASIS_CHANNELS_RGBA : KILN_BASIS_CHANNELS_RGB);
        assert_int_equal(info.supercompression, KILN_KTX2_SUPERCOMPRESSION_BASISLZ);
        assert_true(info.srgb);
        assert_int_equal(info.block_width, 4);
        assert_int_equal(info.block_size, 8);
        assert_ptr_equal(info.sgd, m.bytes + m.sgd);
        assert_int_equal(info.sgd_size, m.sgd_size);
        assert_int_equal(info.level_count, 4);
        assert_int_equal(info.levels[0].uncompressed_size, 0);
        assert_int_equal(info.levels[0].image_size, 4 * 3 * 8); /* ETC1 blocks of 13x9 */
        assert_int_equal(info.levels[3].width, 1);
        /* BasisLZ levels are not copied as blocks. */
        uint8_t dst[64];
        kiln_error err;
        assert_int_equal(kiln_ktx2_level_copy(&info, 0, dst, sizeof dst, &err), KILN_E_USAGE);
        free(m.bytes);
    }
}

static void basis_uastc_files_read_raw_and_with_zstd(void **state)
{
    (void)state;
    static const struct {
        uint32_t channel, want;
    } channels[] = {{0, KILN_BASIS_CHANNELS_RGB},
                    {3, KILN_BASIS_CHANNELS_RGBA},
                    {4, KILN_BASIS_CHANNELS_RRR},
                    {5, KILN_BASIS_CHANNELS_RRRG},
                    {6, KILN_BASIS_CHANNELS_RG}};
    for (uint32_t scheme = 0; scheme <= KILN_KTX2_SUPERCOMPRESSION_ZSTD; scheme += 2)
        for (size_t c = 0; c < sizeof channels / sizeof channels[0]; c++) {
            made m = make_file(UASTC, scheme, false, channels[c].channel, 9, 17, 3);
            kiln_ktx2_info info;
            read_ok(&m, &info);
            assert_int_equal(info.basis, KILN_KTX2_BASIS_UASTC);
            assert_int_equal(info.basis_channels, channels[c].want);
            assert_int_equal(info.supercompression, scheme);
            assert_int_equal(info.block_size, 16);
            assert_int_equal(info.levels[0].uncompressed_size, 3 * 5 * 16);
            assert_int_equal(info.levels[0].image_size, 3 * 5 * 16);
            assert_null(info.sgd);
            if (scheme == KILN_KTX2_SUPERCOMPRESSION_NONE) {
                uint8_t dst[3 * 5 * 16];
                kiln_error err;
                assert_int_equal(kiln_ktx2_level_copy(&info, 0, dst, sizeof dst, &err), KILN_OK);
                assert_memory_equal(dst, m.bytes + m.level0, sizeof dst);
            }
            free(m.bytes);
        }
}

static void basis_dfd_must_fit_format_and_scheme(void **state)
{
    (void)state;
    made m = make_file(UASTC, 0, false, 0, 8, 8, 1);
    uint8_t *d = m.bytes + m.dfd;
    d[12] = 1; /* RGBSDA with vkFormat 0: not a Basis texture */
    expect_reject(&m, KILN_E_IMPORT_UNSUPPORTED, m.dfd + 12);
    d[12] = UASTC;
    put_u32(m.bytes + 44, KILN_KTX2_SUPERCOMPRESSION_BASISLZ); /* UASTC never uses BasisLZ */
    expect_reject(&m, KILN_E_FORMAT_INVALID, UINT64_MAX);
    put_u32(m.bytes + 44, 0);
    d[14] = 3; /* ITU transfer */
    expect_reject(&m, KILN_E_IMPORT_UNSUPPORTED, m.dfd + 14);
    d[14] = 1;
    d[16] = 7; /* 8x4 blocks */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.dfd + 16);
    d[16] = 3;
    d[20] = 8; /* bytesPlane0 of raw UASTC is 16 */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.dfd + 20);
    d[20] = 0; /* 0 only when supercompressed */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.dfd + 20);
    d[20] = 16;
    d[28 + 2] = 63; /* a 64-bit sample */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.dfd + 28);
    d[28 + 2] = 127;
    d[28 + 3] = 2; /* not a UASTC channel layout */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.dfd + 31);
    d[28 + 3] = 0x40; /* signed */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.dfd + 28);
    d[28 + 3] = 0;
    d[15] = 4; /* reserved flag */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.dfd + 15);
    d[15] = 1; /* premultiplied: fine */
    kiln_ktx2_info info;
    read_ok(&m, &info);
    assert_true(info.premultiplied);
    free(m.bytes);

    m = make_file(ETC1S, KILN_KTX2_SUPERCOMPRESSION_BASISLZ, true, 0, 8, 8, 1);
    d = m.bytes + m.dfd;
    d[44 + 3] = 4; /* RGB + GGG is not a layout */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.dfd + 31);
    d[44 + 3] = 15;
    put_u16(d + 44, 32); /* the alpha slice's sample starts at bit 64 */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.dfd + 44);
    put_u16(d + 44, 64);
    put_u32(m.bytes + 44, KILN_KTX2_SUPERCOMPRESSION_ZSTD); /* ETC1S is always BasisLZ */
    expect_reject(&m, KILN_E_FORMAT_INVALID, UINT64_MAX);
    free(m.bytes);
}

static void basislz_global_data_is_bounded(void **state)
{
    (void)state;
    made m = make_file(ETC1S, KILN_KTX2_SUPERCOMPRESSION_BASISLZ, true, 0, 16, 16, 2);
    uint8_t *g = m.bytes + m.sgd;
    put_u32(g + 12, 9); /* lengths no longer add up to sgdByteLength */
    expect_reject(&m, KILN_E_FORMAT_INVALID, 72);
    put_u32(g + 12, 8);
    put_u16(g, 0); /* no endpoints */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.sgd);
    put_u16(g, 1);
    put_u32(g + 20 + 8, 9); /* image 0's RGB slice runs 1 byte past level 0 ... */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.sgd + 24);
    put_u32(g + 20 + 8, 0); /* ... or is empty */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.sgd + 24);
    put_u32(g + 20 + 8, 5);
    put_u32(g + 20 + 12, 0xFFFFFFFFu); /* an alpha offset that would wrap 32 bits */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.sgd + 32);
    put_u32(g + 20 + 12, 5);
    put_u32(g + 20, 4); /* unknown image flag */
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.sgd + 20);
    put_u32(g + 20, 0);
    put_u64(m.bytes + 96, 40); /* BasisLZ levels have uncompressedByteLength 0 */
    expect_reject(&m, KILN_E_FORMAT_INVALID, 96);
    put_u64(m.bytes + 96, 0);
    put_u64(m.bytes + 64, m.sgd + 4); /* misaligned global data */
    expect_reject(&m, KILN_E_FORMAT_INVALID, 64);
    put_u64(m.bytes + 64, m.dfd); /* over the DFD */
    expect_reject(&m, KILN_E_FORMAT_INVALID, 64);
    put_u64(m.bytes + 64, m.sgd);
    put_u64(m.bytes + 72, 0); /* BasisLZ without global data */
    expect_reject(&m, KILN_E_FORMAT_INVALID, 72);
    put_u64(m.bytes + 72, m.sgd_size);
    kiln_ktx2_info info;
    read_ok(&m, &info);
    free(m.bytes);

    /* An alpha slice in a file whose DFD has no alpha sample. */
    m = make_file(ETC1S, KILN_KTX2_SUPERCOMPRESSION_BASISLZ, false, 0, 16, 16, 1);
    put_u32(m.bytes + m.sgd + 20 + 16, 1);
    expect_reject(&m, KILN_E_FORMAT_INVALID, m.sgd + 32);
    free(m.bytes);
}

static void basis_files_survive_every_truncation_and_byte_flip(void **state)
{
    (void)state;
    made files[3] = {make_file(ETC1S, KILN_KTX2_SUPERCOMPRESSION_BASISLZ, true, 0, 12, 8, 3),
                     make_file(UASTC, 0, false, 3, 8, 4, 2),
                     make_file(UASTC, KILN_KTX2_SUPERCOMPRESSION_ZSTD, false, 0, 5, 5, 2)};
    for (int f = 0; f < 3; f++) {
        made *m = &files[f];
        kiln_ktx2_info info;
        read_ok(m, &info);
        for (size_t n = 0; n < m->size; n++) {
            uint8_t *cut = malloc(n ? n : 1);
            memcpy(cut, m->bytes, n);
            if (kiln_ktx2_read(cut, n, &info, NULL) == KILN_OK)
                fail_msg("file %d cut to %zu of %zu bytes was accepted", f, n, m->size);
            free(cut);
        }
        size_t accepted = 0, rejected = 0;
        uint8_t *x = malloc(m->size);
        for (size_t i = 0; i < m->size; i++)
            for (int bit = 0; bit < 8; bit += 3) {
                memcpy(x, m->bytes, m->size);
                x[i] ^= (uint8_t)(1u << bit);
                if (kiln_ktx2_read(x, m->size, &info, NULL) == KILN_OK) {
                    accepted++;
                    /* Whatever passes stays inside the file. */
                    for (uint32_t l = 0; l < info.level_count; l++)
                        assert_true(info.levels[l].data >= x &&
                                    info.levels[l].data + info.levels[l].size <= x + m->size);
                    if (info.sgd) assert_true(info.sgd + info.sgd_size <= x + m->size);
                } else {
                    rejected++;
                }
            }
        assert_true(accepted > 0 && rejected > 12);
        free(x);
    }
    for (int f = 0; f < 3; f++) free(files[f].bytes);
}

/* The writer writes Basis files from their parts and refuses inconsistent ones. */
static void basis_writer_round_trips_and_refuses_inconsistent_descs(void **state)
{
    (void)state;
    made m = make_file(ETC1S, KILN_KTX2_SUPERCOMPRESSION_BASISLZ, true, 0, 12, 8, 3);
    kiln_ktx2_info info;
    read_ok(&m, &info);
    kiln_ktx2_write_desc d;
    memset(&d, 0, sizeof d);
    d.basis = KILN_KTX2_BASIS_ETC1S;
    d.basis_channels = KILN_BASIS_CHANNELS_RGBA;
    d.srgb = true;
    d.width = 12;
    d.height = 8;
    d.level_count = 3;
    for (uint32_t l = 0; l < 3; l++) {
        d.levels[l].data = info.levels[l].data;
        d.levels[l].size = info.levels[l].size;
    }
    d.supercompression = KILN_KTX2_SUPERCOMPRESSION_BASISLZ;
    d.sgd = info.sgd;
    d.sgd_size = info.sgd_size;
    kiln_buf out;
    kiln_buf_init(&out, NULL);
    kiln_error err;
    assert_int_equal(kiln_ktx2_write(&d, &out, &err), KILN_OK);
    made back = {out.data, out.size, 0, 0, 0, 0, 0, 0};
    kiln_ktx2_info b;
    read_ok(&back, &b);
    assert_int_equal(b.basis, KILN_KTX2_BASIS_ETC1S);
    assert_int_equal(b.basis_channels, KILN_BASIS_CHANNELS_RGBA);
    assert_true(b.srgb);
    assert_memory_equal(b.sgd, info.sgd, info.sgd_size);
    assert_int_equal((size_t)(b.sgd - (const uint8_t *)out.data) % 8, 0);
    for (uint32_t l = 0; l < 3; l++) {
        assert_int_equal(b.levels[l].size, info.levels[l].size);
        assert_memory_equal(b.levels[l].data, info.levels[l].data, info.levels[l].size);
        assert_int_equal(b.levels[l].uncompressed_size, 0);
    }
    kiln_buf_free(&out);
    /* Refusals: a vkFormat with basis, BasisLZ without global data or for UASTC, a layout ETC1S
     * has not, descriptors that do not fit the levels given, a UASTC level of the wrong size. */
    kiln_ktx2_write_desc x = d;
    x.vk_format = KILN_VK_FORMAT_BC7_UNORM_BLOCK;
    kiln_buf_init(&out, NULL);
    assert_int_equal(kiln_ktx2_write(&x, &out, &err), KILN_E_USAGE);
    kiln_buf_free(&out);
    x = d;
    x.sgd_size = 0;
    kiln_buf_init(&out, NULL);
    assert_int_equal(kiln_ktx2_write(&x, &out, &err), KILN_E_USAGE);
    kiln_buf_free(&out);
    x = d;
    x.basis_channels = KILN_BASIS_CHANNELS_RG;
    kiln_buf_init(&out, NULL);
    assert_int_equal(kiln_ktx2_write(&x, &out, &err), KILN_E_USAGE);
    kiln_buf_free(&out);
    x = d;
    x.levels[0].size = 4; /* level 0's slices are 8 bytes */
    kiln_buf_init(&out, NULL);
    assert_int_equal(kiln_ktx2_write(&x, &out, &err), KILN_E_USAGE);
    kiln_buf_free(&out);
    x = d;
    x.basis = KILN_KTX2_BASIS_UASTC;
    kiln_buf_init(&out, NULL);
    assert_int_equal(kiln_ktx2_write(&x, &out, &err), KILN_E_USAGE); /* BasisLZ with UASTC */
    kiln_buf_free(&out);
    static uint8_t blocks[3 * 2 * 16];
    x = (kiln_ktx2_write_desc){0};
    x.basis = KILN_KTX2_BASIS_UASTC;
    x.width = 12;
    x.height = 8;
    x.level_count = 1;
    x.levels[0].data = blocks;
    x.levels[0].size = sizeof blocks - 16;
    kiln_buf_init(&out, NULL);
    assert_int_equal(kiln_ktx2_write(&x, &out, &err), KILN_E_USAGE);
    kiln_buf_free(&out);
    x.levels[0].size = sizeof blocks;
    kiln_buf_init(&out, NULL);
    assert_int_equal(kiln_ktx2_write(&x, &out, &err), KILN_OK);
    made u = {out.data, out.size, 0, 0, 0, 0, 0, 0};
    read_ok(&u, &b);
    assert_int_equal(b.basis, KILN_KTX2_BASIS_UASTC);
    assert_false(b.srgb);
    kiln_buf_free(&out);
    free(m.bytes);
}

/* Seeds for fuzz/fuzz_ktx2 (KILN_WRITE_FUZZ_SEEDS=1 writes them into the source tree). */
static void basis_fuzz_seeds_read_and_are_written_on_request(void **state)
{
    (void)state;
    const char *flag = getenv("KILN_WRITE_FUZZ_SEEDS");
    bool write = flag && strcmp(flag, "1") == 0;
    made seeds[2] = {make_file(ETC1S, KILN_KTX2_SUPERCOMPRESSION_BASISLZ, true, 0, 12, 8, 2),
                     make_file(UASTC, 0, false, 3, 8, 8, 2)};
    const char *names[2] = {"basis_etc1s_rgba_12x8", "basis_uastc_rgba_8x8"};
    for (int i = 0; i < 2; i++) {
        kiln_ktx2_info info;
        read_ok(&seeds[i], &info);
        if (write) {
            char *path = kt_format("%s/fuzz/corpus/ktx2/%s.ktx2", fx_source_dir(), names[i]);
            kt_write_file(path, seeds[i].bytes, seeds[i].size);
            printf("fuzz seed: wrote %s\n", path);
            free(path);
        }
        free(seeds[i].bytes);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(basis_etc1s_files_read_with_their_global_data),
        cmocka_unit_test(basis_uastc_files_read_raw_and_with_zstd),
        cmocka_unit_test(basis_dfd_must_fit_format_and_scheme),
        cmocka_unit_test(basislz_global_data_is_bounded),
        cmocka_unit_test(basis_files_survive_every_truncation_and_byte_flip),
        cmocka_unit_test(basis_writer_round_trips_and_refuses_inconsistent_descs),
        cmocka_unit_test(basis_fuzz_seeds_read_and_are_written_on_request),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
