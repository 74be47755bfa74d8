/* test_mesh_read.c — the "MESH" reader (src/codec/mesh_read.c, mesh_decode.c) on damaged files:
 * every truncation, every byte flipped (with and without the checksum), and hand-made damage
 * under a valid checksum (indices, meshlets, levels, joints, versions, compressed data, sizes a
 * small file cannot hold). With KILN_WRITE_FUZZ_SEEDS=1 it also writes the seeds of
 * fuzz/corpus/mesh/ from the same meshes. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/mesh_sections.h"
#include "core/reader.h"
#include "mesh_fixtures.h"

/* The small meshes every test here damages. */
typedef struct variant {
    const char *name;
    bool quantize, compress, skin, targets, lods;
} variant;

static const variant variants[] = {
    {"quad_float", false, false, false, false, false},
    {"quad_quantized", true, false, false, false, false},
    {"sphere_quantized_lods", true, false, false, false, true},
    {"sphere_float_skin_targets", false, false, true, true, true},
    {"sphere_quantized_compressed", true, true, true, true, true},
    {"sphere_float_compressed", false, true, false, true, false},
};
#define VARIANT_COUNT (sizeof variants / sizeof variants[0])

static void make(const variant *v, mf_cooked *out)
{
    mf_mesh m;
    if (strncmp(v->name, "quad", 4) == 0) {
        mf_cube36(&m);
        m.prim.index_count = 6; /* one face of the cube: a quad over 6 vertices that weld to 4 */
    } else {
        mf_sphere(&m, 10, 7, true);
    }
    if (v->skin) mf_add_skin(&m, 0);
    if (v->targets) mf_add_targets(&m, 2);
    kiln_mesh_build_opts o = mf_opts(v->quantize, v->compress);
    if (!v->lods) o.lod_count = 0;
    o.lod_min_triangles = 8;
    o.lod_error = 0.5f; /* a 120-triangle sphere cannot lose much within 5 % */
    o.meshlet_max_vertices = 16, o.meshlet_max_triangles = 16;
    o.skin_joint_count = v->skin ? 8 : 0;
    mf_cook(&m.prim, &o, out);
    mf_free(&m);
}

/* Reads, and when that succeeds uses everything as the runtime would: no crash, indices in
 * range. */
static kiln_result read_and_use(const uint8_t *bytes, size_t size, uint32_t flags, kiln_error *err)
{
    kiln_mesh_view v;
    kiln_result rc = kiln_mesh_read(bytes, size, flags, &v, err);
    if (rc != KILN_OK) return rc;
    for (int id = 0; id < KILN_MESH_STREAM_COUNT; id++) {
        const kiln_mesh_stream *s = &v.streams[id];
        if (!s->data) continue;
        size_t n = (size_t)(s->count * s->stride);
        assert_true(n < (64u << 20));
        uint8_t *buf = malloc(n ? n : 1);
        kiln_result r = kiln_mesh_unpack(&v, (kiln_mesh_stream_id)id, buf, n, err);
        assert_true(r == KILN_OK || r == KILN_E_FORMAT_INVALID);
        if (r != KILN_OK) rc = r;
        free(buf);
    }
    for (uint32_t l = 0; l < v.level_count; l++) {
        kiln_mesh_decoded d;
        kiln_result r = kiln_mesh_decode(&v, l, NULL, &d, err);
        assert_true(r == KILN_OK || r == KILN_E_FORMAT_INVALID || r == KILN_E_LIMIT);
        if (r == KILN_OK)
            for (uint32_t i = 0; i < d.index_count; i++) assert_true(d.indices[i] < d.vertex_count);
        else rc = r;
        kiln_mesh_decoded_free(&d);
    }
    return rc;
}

static void every_variant_reads_back(void **state)
{
    (void)state;
    for (size_t i = 0; i < VARIANT_COUNT; i++) {
        mf_cooked c;
        make(&variants[i], &c);
        kiln_error err;
        assert_int_equal(read_and_use(c.bytes, c.size, 0, &err), KILN_OK);
        assert_int_equal(c.view.flags & KILN_MESH_COMPRESSED,
                         variants[i].compress ? KILN_MESH_COMPRESSED : 0);
        assert_int_equal(c.view.target_count, variants[i].targets ? 2 : 0);
        assert_int_equal(c.view.joint_count, variants[i].skin ? 8 : 0);
        if (variants[i].lods) assert_true(c.view.level_count > 1);
        print_message("%-28s %5zu bytes, %u levels, %u meshlets\n", variants[i].name, c.size,
                      c.view.level_count, c.view.meshlet_count);
        mf_cooked_free(&c);
    }
}

static void every_truncation_is_refused(void **state)
{
    (void)state;
    for (size_t i = 0; i < VARIANT_COUNT; i++) {
        mf_cooked c;
        make(&variants[i], &c);
        for (size_t n = 0; n < c.size; n++) {
            uint8_t *cut = malloc(n ? n : 1);
            memcpy(cut, c.bytes, n);
            kiln_mesh_view v;
            kiln_error err;
            assert_int_equal(kiln_mesh_read(cut, n, 0, &v, &err), KILN_E_FORMAT_INVALID);
            assert_int_equal(kiln_mesh_read(cut, n, KILN_CONTAINER_SKIP_CHECKSUM, &v, &err),
                             KILN_E_FORMAT_INVALID);
            free(cut);
        }
        mf_cooked_free(&c);
    }
}

static void every_flipped_byte_is_refused_or_safe(void **state)
{
    (void)state;
    for (size_t i = 0; i < VARIANT_COUNT; i++) {
        mf_cooked c;
        make(&variants[i], &c);
        uint8_t *b = malloc(c.size);
        size_t accepted = 0;
        for (size_t k = 0; k < c.size; k++) {
            memcpy(b, c.bytes, c.size);
            b[k] ^= 0x5A;
            kiln_error err;
            /* the checksum covers every byte */
            kiln_mesh_view v;
            kiln_result rc = kiln_mesh_read(b, c.size, 0, &v, &err);
            assert_true(rc == KILN_E_FORMAT_INVALID || rc == KILN_E_FORMAT_VERSION);
            /* without it, the structure checks keep every use in bounds */
            rc = read_and_use(b, c.size, KILN_CONTAINER_SKIP_CHECKSUM, &err);
            if (rc == KILN_OK) accepted++;
        }
        print_message("%-28s %zu of %zu flips still a valid mesh (data bytes)\n", variants[i].name,
                      accepted, c.size);
        free(b);
        mf_cooked_free(&c);
    }
}

/* A copy of the file with `len` bytes at `off` replaced, checksummed again. */
static uint8_t *patched(const mf_cooked *c, size_t off, const void *bytes, size_t len)
{
    uint8_t *b = malloc(c->size);
    memcpy(b, c->bytes, c->size);
    memcpy(b + off, bytes, len);
    kt_container_reseal(b, c->size);
    return b;
}

static size_t offset_of(const mf_cooked *c, const uint8_t *p) { return (size_t)(p - c->bytes); }

static size_t section_offset(const mf_cooked *c, uint32_t id, uint32_t elem)
{
    kiln_container_section s;
    assert_true(kiln_container_find(&c->view.container, id, elem, &s));
    return offset_of(c, s.data);
}

static void expect_refused(const mf_cooked *c, size_t off, const void *bytes, size_t len,
                           kiln_result want, const char *word)
{
    uint8_t *b = patched(c, off, bytes, len);
    kiln_mesh_view v;
    kiln_error err;
    kiln_result rc = kiln_mesh_read(b, c->size, 0, &v, &err);
    if (rc != want || (word && !strstr(err.message, word)))
        fail_msg("patch at %zu: %s \"%s\", expected %s with \"%s\"", off, kiln_result_name(rc),
                 err.message, kiln_result_name(want), word ? word : "");
    free(b);
}

static void damage_under_a_valid_checksum_is_refused(void **state)
{
    (void)state;
    mf_cooked c;
    make(&variants[3], &c); /* float, skin, targets, levels, uncompressed */
    const kiln_mesh_view *v = &c.view;
    uint8_t word[4];
    size_t hdr = section_offset(&c, KILN_MESH_SECTION_HEADER, KILN_MESH_HEADER_SIZE);

    /* an index past the vertices (16-bit indices here) */
    size_t ix = offset_of(&c, v->streams[KILN_MESH_INDICES].data);
    kiln_store_u16le(word, (uint16_t)v->vertex_count);
    expect_refused(&c, ix + 2 * 5, word, 2, KILN_E_FORMAT_INVALID, "index 5");
    /* at every place: the reader's wide check (8 or 4 indices at a time) and its tail */
    for (uint32_t i = 0; i < v->index_count; i++) {
        char name[32];
        snprintf(name, sizeof name, "index %u ", i);
        expect_refused(&c, ix + 2 * (size_t)i, word, 2, KILN_E_FORMAT_INVALID, name);
    }
    /* every meshlet vertex, past the vertices (32-bit, 4 at a time) */
    kiln_store_u32le(word, v->vertex_count);
    for (uint32_t i = 0; i < v->meshlet_vertex_count; i++) {
        char name[40];
        snprintf(name, sizeof name, "meshlet vertex %u ", i);
        expect_refused(&c, offset_of(&c, v->meshlet_vertices) + 4 * (size_t)i, word, 4,
                       KILN_E_FORMAT_INVALID, name);
    }
    kiln_store_u16le(word, (uint16_t)v->vertex_count);
    /* a joint past the skin */
    expect_refused(&c, offset_of(&c, v->streams[KILN_MESH_JOINTS].data) + 3, (uint8_t[]){8}, 1,
                   KILN_E_FORMAT_INVALID, "joint");
    /* a meshlet vertex past the vertices */
    kiln_store_u32le(word, v->vertex_count);
    expect_refused(&c, offset_of(&c, v->meshlet_vertices) + 4, word, 4, KILN_E_FORMAT_INVALID,
                   "meshlet vertex");
    /* a meshlet triangle index past its meshlet's vertices */
    kiln_meshlet m0 = kiln_mesh_meshlet(v, 0);
    expect_refused(&c, offset_of(&c, v->meshlet_triangles) + m0.triangle_offset + 1,
                   (uint8_t[]){(uint8_t)m0.vertex_count}, 1, KILN_E_FORMAT_INVALID,
                   "triangle index");
    /* every triangle byte of every meshlet (the wide check, its overlapping last 16 bytes, the
     * short meshlets' scalar loop) */
    for (uint32_t i = 0; i < v->meshlet_count; i++) {
        kiln_meshlet mi = kiln_mesh_meshlet(v, i);
        char name[48];
        snprintf(name, sizeof name, "meshlet %u: triangle index", i);
        for (uint32_t k = 0; k < 3 * mi.triangle_count; k++)
            expect_refused(&c, offset_of(&c, v->meshlet_triangles) + mi.triangle_offset + k,
                           (uint8_t[]){(uint8_t)mi.vertex_count}, 1, KILN_E_FORMAT_INVALID, name);
    }
    /* every bound float of every meshlet infinite or NaN; the snorm8 bytes at 44..47 are not
     * floats, and a pattern that would be NaN as one is fine there */
    for (uint32_t i = 0; i < v->meshlet_count; i++) {
        char name[48];
        snprintf(name, sizeof name, "meshlet %u: bounds not finite", i);
        size_t at = offset_of(&c, v->meshlet_bounds) + (size_t)i * 48;
        for (int k = 0; k < 11; k++) {
            kiln_store_u32le(word, k % 2 ? 0x7F800000u : 0xFFC00001u);
            expect_refused(&c, at + 4 * (size_t)k, word, 4, KILN_E_FORMAT_INVALID, name);
        }
        uint8_t *ok = patched(&c, at + 44, (uint8_t[]){0xFF, 0xFF, 0xFF, 0x7F}, 4);
        kiln_mesh_view okv;
        kiln_error err;
        assert_int_equal(kiln_mesh_read(ok, c.size, 0, &okv, &err), KILN_OK);
        free(ok);
        kiln_store_u32le(word, 0xBF800000u); /* -1 */
        snprintf(name, sizeof name, "meshlet %u: negative radius", i);
        expect_refused(&c, at + 12, word, 4, KILN_E_FORMAT_INVALID, name);
    }
    /* a meshlet larger than the limit, or reaching past the meshlet data */
    kiln_store_u32le(word, 17);
    expect_refused(&c, offset_of(&c, v->meshlets) + 8, word, 4, KILN_E_FORMAT_INVALID, "meshlet 0");
    kiln_store_u32le(word, v->meshlet_triangle_size);
    expect_refused(&c, offset_of(&c, v->meshlets) + 4, word, 4, KILN_E_FORMAT_INVALID, "meshlet 0");
    /* a level reaching past the index buffer, or past the meshlets */
    size_t lods = section_offset(&c, KILN_MESH_SECTION_LODS, KILN_MESH_LOD_SIZE);
    kiln_store_u32le(word, v->index_count - v->levels[1].index_count + 3);
    expect_refused(&c, lods + KILN_MESH_LOD_SIZE + 0, word, 4, KILN_E_FORMAT_INVALID, "level 1");
    kiln_store_u32le(word, v->meshlet_count);
    expect_refused(&c, lods + 8, word, 4, KILN_E_FORMAT_INVALID, "level 0");
    kiln_store_u32le(word, 0x7FC00000u); /* NaN error */
    expect_refused(&c, lods + KILN_MESH_LOD_SIZE + 16, word, 4, KILN_E_FORMAT_INVALID, "error");
    /* header: counts that disagree with the sections, unknown flags, bad sizes */
    kiln_store_u32le(word, v->vertex_count + 1);
    expect_refused(&c, hdr + 4, word, 4, KILN_E_FORMAT_INVALID, NULL);
    kiln_store_u32le(word, 0x80);
    expect_refused(&c, hdr + 0, word, 4, KILN_E_FORMAT_INVALID, "flags");
    kiln_store_u32le(word, 3);
    expect_refused(&c, hdr + 12, word, 4, KILN_E_FORMAT_INVALID, "index size");
    kiln_store_u32le(word, 10);
    expect_refused(&c, hdr + 16, word, 4, KILN_E_FORMAT_INVALID, "levels");
    kiln_store_u32le(word, 0x7F800000u); /* +inf bound */
    expect_refused(&c, hdr + 48, word, 4, KILN_E_FORMAT_INVALID, "finite");
    kiln_store_u32le(word, 1);
    expect_refused(&c, hdr + 168, word, 4, KILN_E_FORMAT_INVALID, "reserved");
    kiln_store_u32le(word, 2); /* a UV set the file does not hold */
    expect_refused(&c, hdr + 160, word, 4, KILN_E_FORMAT_INVALID, "missing");
    kiln_store_u32le(word, 3); /* a target with an unknown flag */
    expect_refused(&c, section_offset(&c, KILN_MESH_SECTION_TARGETS, KILN_MESH_TARGET_SIZE),
                   (uint8_t[]){9}, 1, KILN_E_FORMAT_INVALID, "target 0");
    /* container kind and version */
    kiln_store_u32le(word, KILN_FOURCC('M', 'A', 'T', 'L'));
    expect_refused(&c, 8, word, 4, KILN_E_FORMAT_INVALID, "not a mesh");
    kiln_store_u32le(word, KILN_MESH_KIND_VERSION + 1);
    expect_refused(&c, 12, word, 4, KILN_E_FORMAT_VERSION, "cook again");
    mf_cooked_free(&c);
}

static void damaged_compressed_data_is_refused_when_unpacked(void **state)
{
    (void)state;
    mf_cooked c;
    make(&variants[4], &c); /* quantized, compressed, skin, targets */
    const kiln_mesh_view *v = &c.view;
    size_t hdr = section_offset(&c, KILN_MESH_SECTION_HEADER, KILN_MESH_HEADER_SIZE);
    uint8_t word[4];
    /* not meshopt data at all */
    expect_refused(&c, offset_of(&c, v->streams[KILN_MESH_POSITION].data), (uint8_t[]){0x00}, 1,
                   KILN_E_FORMAT_INVALID, "not meshopt");
    expect_refused(&c, offset_of(&c, v->streams[KILN_MESH_INDICES].data), (uint8_t[]){0xA0}, 1,
                   KILN_E_FORMAT_INVALID, "not meshopt");
    /* more vertices than the encoded bytes can hold (a decompression bomb) */
    kiln_store_u32le(word, 60000);
    expect_refused(&c, hdr + 4, word, 4, KILN_E_FORMAT_INVALID, "too short");
    /* every byte of every encoded stream flipped in turn: read passes, unpack refuses or
     * yields in-range indices and joints */
    int refused = 0, total = 0;
    for (int id = 0; id < KILN_MESH_STREAM_COUNT; id++) {
        const kiln_mesh_stream *s = &v->streams[id];
        if (!s->data) continue;
        for (size_t k = 1; k < s->size; k++) {
            uint8_t x = (uint8_t)(s->data[k] ^ 0xFF);
            uint8_t *b = patched(&c, offset_of(&c, s->data) + k, &x, 1);
            kiln_error err;
            kiln_result rc = read_and_use(b, c.size, 0, &err);
            assert_true(rc == KILN_OK || rc == KILN_E_FORMAT_INVALID);
            refused += rc != KILN_OK;
            total++;
            free(b);
        }
    }
    print_message("compressed flips: %d of %d refused, the rest decode to in-range data\n", refused,
                  total);
    assert_true(refused > 0);
    mf_cooked_free(&c);
}

/* The reader's bound on compressed sizes (64 decoded bytes per stored byte for vertices, one
 * byte per triangle for indices) holds for the most compressible data there is. */
static void compression_bounds_hold_for_constant_data(void **state)
{
    (void)state;
    kiln_scene_primitive p;
    memset(&p, 0, sizeof p);
    uint32_t nv = 30000;
    float *pos = calloc(nv, 12);
    uint32_t *idx = calloc((size_t)nv * 3, 4);
    for (uint32_t v = 0; v < nv; v++) pos[v * 3] = (float)v; /* unique positions, constant y, z */
    uint32_t n = 0;
    for (uint32_t v = 0; v + 2 < nv; v++) idx[n++] = v, idx[n++] = v + 1, idx[n++] = v + 2;
    p.vertex_count = nv, p.positions = pos, p.indices = idx, p.index_count = n;
    /* collinear triangles are kept (only coincident corners are degenerate) */
    kiln_mesh_build_opts o = mf_opts(true, true);
    o.lod_count = 0;
    mf_cooked c;
    mf_cook(&p, &o, &c);
    const kiln_mesh_stream *ps = &c.view.streams[KILN_MESH_POSITION],
                           *is = &c.view.streams[KILN_MESH_INDICES];
    print_message("positions %llu -> %zu bytes, indices %llu -> %zu bytes\n",
                  (unsigned long long)(ps->count * ps->stride), ps->size,
                  (unsigned long long)(is->count * is->stride), is->size);
    assert_true(ps->count * ps->stride <= (uint64_t)ps->size * 64);
    assert_true(is->count / 3 <= is->size);
    mf_cooked_free(&c);
    free(pos), free(idx);
}

/* KILN_WRITE_FUZZ_SEEDS=1: fuzz/corpus/mesh/<variant>.mesh. */
static void fuzz_seeds(void **state)
{
    (void)state;
    const char *w = getenv("KILN_WRITE_FUZZ_SEEDS"), *src = getenv("KILN_SOURCE_DIR");
    if (!w || strcmp(w, "1") != 0 || !src) skip();
    for (size_t i = 0; i < VARIANT_COUNT; i++) {
        mf_cooked c;
        make(&variants[i], &c);
        char *path = kt_format("%s/fuzz/corpus/mesh/%s.mesh", src, variants[i].name);
        kt_write_file(path, c.bytes, c.size);
        free(path);
        mf_cooked_free(&c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_variant_reads_back),
        cmocka_unit_test(every_truncation_is_refused),
        cmocka_unit_test(every_flipped_byte_is_refused_or_safe),
        cmocka_unit_test(damage_under_a_valid_checksum_is_refused),
        cmocka_unit_test(damaged_compressed_data_is_refused_when_unpacked),
        cmocka_unit_test(compression_bounds_hold_for_constant_data),
        cmocka_unit_test(fuzz_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
