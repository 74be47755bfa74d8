/* test_pack_format.c — the .kpak writer and reader: round trips in every compression mode and
 * alignment, lookups, deduplication, determinism over input order and thread count, every byte
 * flipped, every truncation, and hostile packs with valid checksums (huge counts, offsets out of
 * range, overlaps, unsorted ids, bad names, decompression bombs). */
#include "support.h"

#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>
#include <zstd.h>

#include "core/alloc.h"
#include "core/jobs.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"
#include "write/pack_write.h"

#define KIND_MESH KILN_FOURCC('M', 'E', 'S', 'H')

typedef struct fixture {
    uint8_t text[12000]; /* compressible */
    uint8_t noise[5000]; /* incompressible */
    uint8_t copy[12000]; /* the same bytes as text: one payload */
    uint8_t tiny[40];    /* compresses, but not enough to pay in auto */
    kiln_pack_input in[5];
} fixture;

static void make_fixture(fixture *f)
{
    for (size_t i = 0; i < sizeof f->text; i++)
        f->text[i] = (uint8_t)("kiln pack "[i % 10] + (i / 1000));
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < sizeof f->noise; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        f->noise[i] = (uint8_t)x;
    }
    memcpy(f->copy, f->text, sizeof f->copy);
    memset(f->tiny, 'a', sizeof f->tiny);
    kiln_pack_input in[5] = {
        {0x5000, KIND_MESH, "models/a.glb#mesh0/prim0", f->text, sizeof f->text},
        {0x1000, KILN_PACK_KIND_KTX2, "textures/noise.png#texture", f->noise, sizeof f->noise},
        {0x9000, KIND_MESH, "models/b.glb#mesh0/prim0", f->copy, sizeof f->copy},
        {0x3000, KILN_FOURCC('M', 'A', 'T', 'L'), "models/a.glb#material0", f->tiny,
         sizeof f->tiny},
        {0x7000, KILN_FOURCC('S', 'C', 'E', 'N'), "models/a.glb#scene", NULL, 0},
    };
    memcpy(f->in, in, sizeof in);
}

static uint8_t *build(const kiln_pack_input *in, size_t n, uint32_t mode, bool align4096,
                      kiln_jobs *jobs, size_t *size)
{
    kiln_pack_write_opts o = {0};
    o.compress = mode;
    o.align_4096 = align4096;
    o.jobs = jobs;
    o.level = 3;
    uint8_t *out;
    kiln_error err;
    kiln_result r = kiln_pack_write(in, n, &o, &out, size, NULL, NULL, &err);
    if (r != KILN_OK) fail_msg("kiln_pack_write: %s", err.message);
    return out;
}

static void check_contents(const kiln_pack *p, const fixture *f)
{
    for (size_t i = 0; i < 5; i++) {
        uint32_t k = kiln_pack_find(p, f->in[i].asset_id);
        assert_int_not_equal(k, KILN_PACK_NOT_FOUND);
        kiln_pack_entry e = kiln_pack_entry_at(p, k);
        assert_int_equal(e.asset_id, f->in[i].asset_id);
        assert_int_equal(e.kind, f->in[i].kind);
        assert_int_equal(e.size, f->in[i].size);
        assert_string_equal(e.name, f->in[i].name);
        assert_int_equal(kiln_pack_find_name(p, f->in[i].name), k);
        uint8_t *buf = malloc(e.size + 1);
        kiln_error err;
        assert_int_equal(kiln_pack_entry_read(p, k, buf, e.size, &err), KILN_OK);
        if (e.size) assert_memory_equal(buf, f->in[i].data, e.size);
        free(buf);
        uint64_t align = (p->flags & KILN_PACK_ALIGN_4096) ? 4096 : 16;
        assert_int_equal(e.offset % align, 0);
    }
    for (uint32_t i = 1; i < p->entry_count; i++)
        assert_true(kiln_pack_entry_at(p, i - 1).asset_id < kiln_pack_entry_at(p, i).asset_id);
    /* Missing ids below, between and above the stored ones. */
    assert_int_equal(kiln_pack_find(p, 0x1), KILN_PACK_NOT_FOUND);
    assert_int_equal(kiln_pack_find(p, 0x4000), KILN_PACK_NOT_FOUND);
    assert_int_equal(kiln_pack_find(p, 0xFFFFFFFFFFFFFFFFu), KILN_PACK_NOT_FOUND);
    assert_int_equal(kiln_pack_find_name(p, "models/a.glb#mesh1/prim0"), KILN_PACK_NOT_FOUND);
    assert_int_equal(kiln_pack_find_name(p, "models/a.glb#mesh0/prim"), KILN_PACK_NOT_FOUND);
    kiln_error err;
    assert_int_equal(kiln_pack_verify(p, NULL, &err), KILN_OK);
}

static void pack_round_trips_in_every_mode_and_alignment(void **state)
{
    (void)state;
    fixture f;
    make_fixture(&f);
    for (uint32_t mode = 0; mode <= KILN_PACK_WRITE_ZSTD; mode++) {
        for (int a = 0; a < 2; a++) {
            size_t size;
            uint8_t *bytes = build(f.in, 5, mode, a, NULL, &size);
            kiln_pack p;
            kiln_error err;
            assert_int_equal(kiln_pack_open_memory(bytes, size, 0, &p, &err), KILN_OK);
            assert_int_equal(p.entry_count, 5);
            assert_int_equal(p.payload_count, 4); /* text and copy share one */
            assert_int_equal(p.total_size, 12000 * 2 + 5000 + 40);
            assert_int_equal(p.flags, a ? KILN_PACK_ALIGN_4096 : 0);
            check_contents(&p, &f);
            kiln_pack_entry text = kiln_pack_entry_at(&p, kiln_pack_find(&p, 0x5000));
            kiln_pack_entry copy = kiln_pack_entry_at(&p, kiln_pack_find(&p, 0x9000));
            kiln_pack_entry noise = kiln_pack_entry_at(&p, kiln_pack_find(&p, 0x1000));
            kiln_pack_entry tiny = kiln_pack_entry_at(&p, kiln_pack_find(&p, 0x3000));
            assert_int_equal(text.payload, copy.payload);
            assert_int_equal(text.offset, copy.offset);
            assert_int_equal(noise.compression, KILN_PACK_RAW);
            assert_int_equal(text.compression,
                             mode == KILN_PACK_WRITE_NONE ? KILN_PACK_RAW : KILN_PACK_ZSTD);
            /* 40 bytes of 'a' shrink, but by less than 64 bytes: only the zstd mode keeps that. */
            assert_int_equal(tiny.compression,
                             mode == KILN_PACK_WRITE_ZSTD ? KILN_PACK_ZSTD : KILN_PACK_RAW);
            const uint8_t *view;
            if (text.compression == KILN_PACK_RAW) {
                assert_int_equal(kiln_pack_entry_view(&p, kiln_pack_find(&p, 0x5000), &view, &err),
                                 KILN_OK);
                assert_memory_equal(view, f.text, sizeof f.text);
            } else {
                assert_int_equal(kiln_pack_entry_view(&p, kiln_pack_find(&p, 0x5000), &view, &err),
                                 KILN_E_USAGE);
            }
            free(bytes);
        }
    }
}

static void pack_bytes_do_not_depend_on_input_order_or_threads(void **state)
{
    (void)state;
    fixture f;
    make_fixture(&f);
    size_t s1, s2;
    uint8_t *a = build(f.in, 5, KILN_PACK_WRITE_AUTO, false, NULL, &s1);
    kiln_pack_input rev[5];
    for (int i = 0; i < 5; i++) rev[i] = f.in[4 - i];
    kiln_jobs *jobs;
    kiln_error err;
    assert_int_equal(kiln_jobs_create(4, NULL, &jobs, &err), KILN_OK);
    uint8_t *b = build(rev, 5, KILN_PACK_WRITE_AUTO, false, jobs, &s2);
    kiln_jobs_destroy(jobs);
    assert_int_equal(s1, s2);
    assert_memory_equal(a, b, s1);
    free(a);
    free(b);
}

static void pack_writer_refuses_shared_ids_and_bad_inputs(void **state)
{
    (void)state;
    fixture f;
    make_fixture(&f);
    f.in[2].asset_id = f.in[0].asset_id;
    kiln_pack_write_opts o = {0};
    uint8_t *out;
    size_t size;
    kiln_error err;
    assert_int_equal(kiln_pack_write(f.in, 5, &o, &out, &size, NULL, NULL, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "models/a.glb#mesh0/prim0"));
    assert_non_null(strstr(err.message, "models/b.glb#mesh0/prim0"));
    make_fixture(&f);
    f.in[1].kind = 0;
    assert_int_equal(kiln_pack_write(f.in, 5, &o, &out, &size, NULL, NULL, &err), KILN_E_USAGE);
    make_fixture(&f);
    o.level = 99;
    assert_int_equal(kiln_pack_write(f.in, 5, &o, &out, &size, NULL, NULL, &err), KILN_E_USAGE);
}

static void pack_empty_round_trips(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = build(NULL, 0, KILN_PACK_WRITE_AUTO, false, NULL, &size);
    assert_int_equal(size, 64);
    kiln_pack p;
    kiln_error err;
    assert_int_equal(kiln_pack_open_memory(bytes, size, 0, &p, &err), KILN_OK);
    assert_int_equal(p.entry_count, 0);
    assert_int_equal(kiln_pack_find(&p, 42), KILN_PACK_NOT_FOUND);
    assert_int_equal(kiln_pack_verify(&p, NULL, &err), KILN_OK);
    free(bytes);
}

/* Reads every entry of an opened pack (no crash, no read outside; errors are fine). */
static int read_all(const kiln_pack *p)
{
    int failures = 0;
    for (uint32_t i = 0; i < p->entry_count; i++) {
        kiln_pack_entry e = kiln_pack_entry_at(p, i);
        uint8_t *buf = malloc(e.size ? e.size : 1);
        kiln_error err;
        if (kiln_pack_entry_read(p, i, buf, e.size, &err) != KILN_OK) failures++;
        free(buf);
    }
    return failures;
}

static void pack_every_flipped_byte_is_caught(void **state)
{
    (void)state;
    fixture f;
    make_fixture(&f);
    size_t size;
    uint8_t *bytes = build(f.in, 5, KILN_PACK_WRITE_AUTO, false, NULL, &size);
    for (size_t i = 0; i < size; i++) {
        bytes[i] ^= 0xFF;
        kiln_pack p;
        kiln_error err;
        kiln_result r = kiln_pack_open_memory(bytes, size, 0, &p, &err);
        if (r == KILN_OK) {
            /* A payload or padding byte: the table is fine, the damage shows when read. */
            if (kiln_pack_verify(&p, NULL, &err) == KILN_OK) fail_msg("flip at %zu not caught", i);
            assert_int_equal(err.code, KILN_E_FORMAT_INVALID);
            assert_true(i >= p.data_offset);
        } else {
            assert_true(r == KILN_E_FORMAT_INVALID || r == KILN_E_FORMAT_VERSION ||
                        r == KILN_E_LIMIT);
            assert_true(i < 64 + 5 * 32 + 4 * 48 + 200);
        }
        /* Without the table checksum, structure checks alone: never a crash. */
        if (kiln_pack_open_memory(bytes, size, KILN_PACK_SKIP_CHECKSUM, &p, &err) == KILN_OK)
            read_all(&p);
        bytes[i] ^= 0xFF;
    }
    free(bytes);
}

static void pack_every_truncation_is_refused(void **state)
{
    (void)state;
    fixture f;
    make_fixture(&f);
    size_t size;
    uint8_t *bytes = build(f.in, 5, KILN_PACK_WRITE_ZSTD, false, NULL, &size);
    for (size_t n = 0; n < size; n++) {
        uint8_t *cut = malloc(n ? n : 1);
        memcpy(cut, bytes, n);
        kiln_pack p;
        kiln_error err;
        assert_int_equal(kiln_pack_open_memory(cut, n, 0, &p, &err), KILN_E_FORMAT_INVALID);
        assert_int_equal(kiln_pack_open_memory(cut, n, KILN_PACK_SKIP_CHECKSUM, &p, &err),
                         KILN_E_FORMAT_INVALID);
        free(cut);
    }
    free(bytes);
}

/* Recomputes the table checksum of a pack a test changed, so only structure checks can catch it. */
static void reseal(uint8_t *p, size_t size)
{
    kiln_reader r = kiln_reader_make(p + 40, 8);
    uint64_t data_offset = kiln_read_u64le(&r);
    if (data_offset < 56 || data_offset > size) return; /* the reader refuses it before */
    XXH3_state_t st;
    static const uint8_t zeros[8];
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, p, 48);
    XXH3_64bits_update(&st, zeros, 8);
    XXH3_64bits_update(&st, p + 56, data_offset - 56);
    kiln_store_u64le(p + 48, XXH3_64bits_digest(&st));
}

typedef void (*damage_fn)(uint8_t *p, size_t size);

static size_t payloads_at(const uint8_t *p) { return 64 + (size_t)p[24] * 32; }

static void d_version(uint8_t *p, size_t s) { kiln_store_u32le(p + 4, 2); }
static void d_huge_count(uint8_t *p, size_t s) { kiln_store_u32le(p + 24, 0xFFFFFFFFu); }
static void d_count_past_end(uint8_t *p, size_t s) { kiln_store_u32le(p + 24, 1u << 20); }
static void d_more_payloads(uint8_t *p, size_t s) { kiln_store_u32le(p + 28, 6); }
static void d_offset_out_of_range(uint8_t *p, size_t s)
{
    kiln_store_u64le(p + payloads_at(p) + 48, (uint64_t)1 << 40);
}
static void d_overlap(uint8_t *p, size_t s)
{
    kiln_reader r = kiln_reader_make(p + payloads_at(p), 8);
    kiln_store_u64le(p + payloads_at(p) + 48, kiln_read_u64le(&r)); /* payload 1 at payload 0 */
}
static void d_stored_past_end(uint8_t *p, size_t s)
{
    kiln_store_u64le(p + payloads_at(p) + 48 * 3 + 8, s);
}
static void d_raw_size_mismatch(uint8_t *p, size_t s)
{
    for (size_t i = 0; i < 4; i++) {
        uint8_t *q = p + payloads_at(p) + 48 * i;
        if (q[40] == KILN_PACK_RAW) {
            q[16] ^= 1;
            return;
        }
    }
}
static void d_size_limit(uint8_t *p, size_t s)
{
    kiln_store_u64le(p + payloads_at(p) + 16, (uint64_t)5 << 30);
}
static void d_compression(uint8_t *p, size_t s) { kiln_store_u32le(p + payloads_at(p) + 40, 7); }
static void d_unsorted(uint8_t *p, size_t s)
{
    uint8_t t[8];
    memcpy(t, p + 64, 8);
    memcpy(p + 64, p + 96, 8);
    memcpy(p + 96, t, 8);
}
static void d_repeated_id(uint8_t *p, size_t s) { memcpy(p + 96, p + 64, 8); }
static void d_id_zero(uint8_t *p, size_t s) { memset(p + 64, 0, 8); }
static void d_payload_index(uint8_t *p, size_t s) { kiln_store_u32le(p + 64 + 12, 9); }
static void d_payload_order(uint8_t *p, size_t s) { kiln_store_u32le(p + 64 + 12, 2); }
static void d_name_offset(uint8_t *p, size_t s) { kiln_store_u32le(p + 64 + 16, 0x7FFFFFFF); }
static void d_name_size(uint8_t *p, size_t s) { kiln_store_u32le(p + 64 + 20, 3); }
static void d_name_empty(uint8_t *p, size_t s) { kiln_store_u32le(p + 64 + 20, 0); }
static void d_kind(uint8_t *p, size_t s) { kiln_store_u32le(p + 64 + 8, 0); }
static void d_reserved(uint8_t *p, size_t s) { p[64 + 30] = 1; }
static void d_data_offset(uint8_t *p, size_t s) { kiln_store_u64le(p + 40, 16); }
static void d_flags(uint8_t *p, size_t s) { kiln_store_u32le(p + 12, 2); }
static void d_align_flag(uint8_t *p, size_t s) { kiln_store_u32le(p + 12, KILN_PACK_ALIGN_4096); }

static void pack_hostile_tables_are_refused_with_a_valid_checksum(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        damage_fn fn;
        kiln_result want;
    } cases[] = {
        {"version", d_version, KILN_E_FORMAT_VERSION},
        {"huge count", d_huge_count, KILN_E_LIMIT},
        {"count past end", d_count_past_end, KILN_E_FORMAT_INVALID},
        {"more payloads than entries", d_more_payloads, KILN_E_FORMAT_INVALID},
        {"offset out of range", d_offset_out_of_range, KILN_E_FORMAT_INVALID},
        {"overlapping payloads", d_overlap, KILN_E_FORMAT_INVALID},
        {"stored size past the end", d_stored_past_end, KILN_E_FORMAT_INVALID},
        {"raw size mismatch", d_raw_size_mismatch, KILN_E_FORMAT_INVALID},
        {"size above the limit", d_size_limit, KILN_E_LIMIT},
        {"unknown compression", d_compression, KILN_E_FORMAT_INVALID},
        {"unsorted ids", d_unsorted, KILN_E_FORMAT_INVALID},
        {"repeated id", d_repeated_id, KILN_E_FORMAT_INVALID},
        {"id zero", d_id_zero, KILN_E_FORMAT_INVALID},
        {"payload index out of range", d_payload_index, KILN_E_FORMAT_INVALID},
        {"payload out of first-use order", d_payload_order, KILN_E_FORMAT_INVALID},
        {"name offset out of range", d_name_offset, KILN_E_FORMAT_INVALID},
        {"name not NUL-terminated", d_name_size, KILN_E_FORMAT_INVALID},
        {"empty name", d_name_empty, KILN_E_FORMAT_INVALID},
        {"kind zero", d_kind, KILN_E_FORMAT_INVALID},
        {"reserved field", d_reserved, KILN_E_FORMAT_INVALID},
        {"data offset", d_data_offset, KILN_E_FORMAT_INVALID},
        {"unknown flag", d_flags, KILN_E_FORMAT_INVALID},
        {"alignment flag of a 16-aligned pack", d_align_flag, KILN_E_FORMAT_INVALID},
    };
    fixture f;
    make_fixture(&f);
    size_t size;
    uint8_t *bytes = build(f.in, 5, KILN_PACK_WRITE_AUTO, false, NULL, &size);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint8_t *p = malloc(size);
        memcpy(p, bytes, size);
        cases[c].fn(p, size);
        reseal(p, size);
        kiln_pack pk;
        kiln_error err;
        kiln_result r = kiln_pack_open_memory(p, size, 0, &pk, &err);
        if (r != cases[c].want)
            fail_msg("%s: got %s (%s), want %s", cases[c].name, kiln_result_name(r), err.message,
                     kiln_result_name(cases[c].want));
        free(p);
    }
    free(bytes);
}

/* A pack with one zstd entry whose payload record and frame the test then changes. */
static uint8_t *bomb_pack(size_t raw_size, int content_size_flag, size_t *size, uint8_t **raw)
{
    *raw = calloc(1, raw_size);
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, content_size_flag);
    size_t bound = ZSTD_compressBound(raw_size);
    uint8_t *z = malloc(bound);
    size_t zn = ZSTD_compress2(c, z, bound, *raw, raw_size);
    ZSTD_freeCCtx(c);
    assert_false(ZSTD_isError(zn));
    /* Header, one entry, one payload record, the name "b#x\0", padding to 16, the frame. */
    size_t data_offset = (64 + 32 + 48 + 4 + 15) & ~(size_t)15;
    *size = data_offset + zn;
    uint8_t *p = calloc(1, *size);
    memcpy(p, "KPAK", 4);
    kiln_store_u32le(p + 4, 1);
    kiln_store_u32le(p + 8, 64);
    kiln_store_u64le(p + 16, *size);
    kiln_store_u32le(p + 24, 1);
    kiln_store_u32le(p + 28, 1);
    kiln_store_u64le(p + 32, 4);
    kiln_store_u64le(p + 40, data_offset);
    kiln_store_u64le(p + 64, 77);
    kiln_store_u32le(p + 72, KIND_MESH);
    kiln_store_u32le(p + 84, 3);
    uint8_t *q = p + 96;
    kiln_store_u64le(q, data_offset);
    kiln_store_u64le(q + 8, zn);
    kiln_store_u64le(q + 16, raw_size);
    kiln_store_u64le(q + 24, XXH3_64bits(z, zn));
    kiln_store_u64le(q + 32, XXH3_64bits(*raw, raw_size));
    kiln_store_u32le(q + 40, KILN_PACK_ZSTD);
    memcpy(p + 144, "b#x", 4);
    memcpy(p + data_offset, z, zn);
    free(z);
    reseal(p, *size);
    return p;
}

static void pack_decompression_bombs_stop_at_the_declared_size(void **state)
{
    (void)state;
    size_t size;
    uint8_t *raw;
    kiln_pack p;
    kiln_error err;
    /* The honest pack reads back. */
    uint8_t *b = bomb_pack(1 << 20, 1, &size, &raw);
    assert_int_equal(kiln_pack_open_memory(b, size, 0, &p, &err), KILN_OK);
    uint8_t *dst = malloc(1 << 20);
    assert_int_equal(kiln_pack_entry_read(&p, 0, dst, 1 << 20, &err), KILN_OK);
    /* The table says 100 bytes, the frame 1 MiB: refused before decompressing. */
    kiln_store_u64le(b + 96 + 16, 100);
    reseal(b, size);
    assert_int_equal(kiln_pack_open_memory(b, size, 0, &p, &err), KILN_OK);
    assert_int_equal(kiln_pack_entry_read(&p, 0, dst, 1 << 20, &err), KILN_E_FORMAT_INVALID);
    assert_non_null(strstr(err.message, "b#x"));
    /* Table and frame header both say 100; the data is 1 MiB: decompression stops at 100. */
    size_t off = (64 + 32 + 48 + 4 + 15) & ~(size_t)15;
    bool patched = false;
    for (size_t i = 4; i + 4 <= 18 && !patched; i++) { /* the frame content size field */
        kiln_reader r = kiln_reader_make(b + off + i, 4);
        if (kiln_read_u32le(&r) == (1u << 20)) {
            kiln_store_u32le(b + off + i, 100);
            patched = true;
        }
    }
    assert_true(patched);
    kiln_store_u64le(b + 96 + 24, XXH3_64bits(b + off, size - off));
    reseal(b, size);
    assert_int_equal(kiln_pack_open_memory(b, size, 0, &p, &err), KILN_OK);
    memset(dst, 0xAB, 1 << 20);
    assert_int_equal(kiln_pack_entry_read(&p, 0, dst, 1 << 20, &err), KILN_E_FORMAT_INVALID);
    for (size_t i = 100; i < (1 << 20); i += 4099) assert_int_equal(dst[i], 0xAB); /* untouched */
    free(b);
    free(raw);
    /* A frame that does not declare its size. */
    b = bomb_pack(1 << 16, 0, &size, &raw);
    assert_int_equal(kiln_pack_open_memory(b, size, 0, &p, &err), KILN_OK);
    assert_int_equal(kiln_pack_entry_read(&p, 0, dst, 1 << 20, &err), KILN_E_FORMAT_INVALID);
    free(b);
    free(raw);
    /* A declared size above the limit: refused at open. */
    b = bomb_pack(1 << 16, 1, &size, &raw);
    kiln_store_u64le(b + 96 + 16, (uint64_t)1 << 40);
    reseal(b, size);
    assert_int_equal(kiln_pack_open_memory(b, size, 0, &p, &err), KILN_E_LIMIT);
    free(b);
    free(raw);
    free(dst);
}

static void pack_misuse_is_a_usage_error(void **state)
{
    (void)state;
    fixture f;
    make_fixture(&f);
    size_t size;
    uint8_t *bytes = build(f.in, 5, KILN_PACK_WRITE_ZSTD, false, NULL, &size);
    kiln_pack p;
    kiln_error err;
    assert_int_equal(kiln_pack_open_memory(bytes, size, 0, NULL, &err), KILN_E_USAGE);
    assert_int_equal(kiln_pack_open_memory(bytes, size, 0x80, &p, &err), KILN_E_USAGE);
    assert_int_equal(kiln_pack_open_memory(bytes, size, 0, &p, &err), KILN_OK);
    uint8_t small[10];
    assert_int_equal(kiln_pack_entry_read(&p, 0, small, sizeof small, &err), KILN_E_USAGE);
    assert_int_equal(kiln_pack_entry_read(&p, 99, small, sizeof small, &err), KILN_E_USAGE);
    kiln_pack_entry none = kiln_pack_entry_at(&p, 99);
    assert_int_equal(none.asset_id, 0);
    /* Non-zero padding between payloads: the table opens, verify refuses. */
    kiln_pack_entry last = kiln_pack_entry_at(&p, 0);
    for (uint32_t i = 0; i < p.entry_count; i++) {
        kiln_pack_entry e = kiln_pack_entry_at(&p, i);
        if (e.offset > last.offset) last = e;
    }
    size_t gap = 0;
    for (uint32_t i = 0; i < p.entry_count; i++) {
        kiln_pack_entry e = kiln_pack_entry_at(&p, i);
        if (e.offset + e.stored_size < last.offset && (e.offset + e.stored_size) % 16)
            gap = e.offset + e.stored_size;
    }
    if (gap) {
        bytes[gap] = 1;
        assert_int_equal(kiln_pack_open_memory(bytes, size, 0, &p, &err), KILN_OK);
        assert_int_equal(kiln_pack_verify(&p, NULL, &err), KILN_E_FORMAT_INVALID);
        assert_non_null(strstr(err.message, "padding"));
    }
    free(bytes);
}

/* The bytes of a raw pack are pinned (a zstd pack would pin libzstd's output too):
 * tests/golden/pack_fixture_raw.kpak; docs/formats.md describes a pack of the same layout. */
static void pack_raw_bytes_match_the_golden_file(void **state)
{
    (void)state;
    fixture f;
    make_fixture(&f);
    size_t size;
    uint8_t *bytes = build(f.in, 5, KILN_PACK_WRITE_NONE, false, NULL, &size);
    kt_check_golden("pack_fixture_raw.kpak", bytes, size);
    free(bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pack_round_trips_in_every_mode_and_alignment),
        cmocka_unit_test(pack_raw_bytes_match_the_golden_file),
        cmocka_unit_test(pack_bytes_do_not_depend_on_input_order_or_threads),
        cmocka_unit_test(pack_writer_refuses_shared_ids_and_bad_inputs),
        cmocka_unit_test(pack_empty_round_trips),
        cmocka_unit_test(pack_every_flipped_byte_is_caught),
        cmocka_unit_test(pack_every_truncation_is_refused),
        cmocka_unit_test(pack_hostile_tables_are_refused_with_a_valid_checksum),
        cmocka_unit_test(pack_decompression_bombs_stop_at_the_declared_size),
        cmocka_unit_test(pack_misuse_is_a_usage_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
