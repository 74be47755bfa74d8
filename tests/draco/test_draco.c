/* test_draco.c — kiln_draco_decode (src/import/draco_shim.cpp) on streams that libdraco's own
 * encoder made from kiln's fixtures (draco_fixture.cpp): exact round trips of every attribute
 * kind with glTF's normalized mapping, both connectivity methods, quantization, point clouds
 * refused, the memory limit, streams declaring huge counts, every truncation, byte flips and
 * failing allocations — always an error code or a valid mesh, never a crash or a leak. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "draco_fixture.h"
#include "import/draco.h"

/* The invariants every successful decode keeps. */
static void check_valid(const kiln_draco_mesh *m)
{
    assert_int_equal(m->index_count % 3, 0);
    assert_int_equal(m->indices_size, (size_t)m->index_count * 4);
    if (m->index_count) assert_non_null(m->indices);
    for (uint32_t i = 0; i < m->index_count; i++)
        if (m->indices[i] >= m->vertex_count)
            fail_msg("index %u is %u of %u vertices", i, m->indices[i], m->vertex_count);
    assert_int_equal(m->attributes_size, (size_t)m->attribute_count * sizeof(kiln_draco_attribute));
    for (uint32_t a = 0; a < m->attribute_count; a++) {
        const kiln_draco_attribute *at = &m->attributes[a];
        assert_in_range(at->components, 1, 4);
        assert_int_equal(at->values_size, (size_t)m->vertex_count * at->components * 4);
        if (at->values_size) assert_non_null(at->values);
    }
}

/* Decodes and checks: an error of a documented kind (out zeroed) or a valid mesh. */
static kiln_result decode_checked(const uint8_t *data, size_t size, size_t limit,
                                  kiln_draco_mesh *m)
{
    /* An exact-size copy, so ASan sees any read past the end. */
    uint8_t *copy = malloc(size ? size : 1);
    assert_non_null(copy);
    if (size) memcpy(copy, data, size);
    kiln_error err;
    kiln_result r = kiln_draco_decode(copy, size, NULL, limit, m, &err);
    free(copy);
    if (r == KILN_OK) {
        check_valid(m);
    } else {
        if (r != KILN_E_IMPORT_FAILED && r != KILN_E_LIMIT && r != KILN_E_OUT_OF_MEMORY)
            fail_msg("unexpected %s: %s", kiln_result_name(r), err.message);
        assert_int_equal(err.code, r);
        assert_true(strlen(err.message) > 0);
        assert_null(m->indices);
        assert_null(m->attributes);
        assert_int_equal(m->vertex_count, 0);
    }
    return r;
}

static uint8_t *tetra(int edgebreaker, int bits, int speed, size_t *size)
{
    kt_draco_opts o = {edgebreaker, bits, speed, 0};
    uint8_t *d = kt_draco_encode_tetrahedron(&o, size);
    assert_non_null(d);
    return d;
}

/* What glTF gives for each source value (§3.11 for normalized integers). */
static void expected(int att, int face, int corner, float out[4])
{
    uint32_t v = kt_tetra_faces[face][corner];
    switch (att) {
    case 0:
        memcpy(out, kt_tetra_positions[v], 12);
        break;
    case 1:
        kt_tetra_normal(face, out);
        break;
    case 2:
        for (int c = 0; c < 4; c++) out[c] = (float)(kt_tetra_colors[v][c] / 255.0);
        break;
    case 3:
        for (int c = 0; c < 2; c++)
            out[c] = (float)fmax(kt_tetra_generic[face * 3 + corner][c] / 32767.0, -1.0);
        break;
    default:
        for (int c = 0; c < 2; c++) out[c] = (float)kt_tetra_uv[v][c];
        break;
    }
}

static const uint32_t tetra_components[5] = {3, 3, 4, 2, 2};

/* Does decoded vertex dv hold the source corner (face, corner)? tol 0 = exactly. */
static int corner_matches(const kiln_draco_mesh *m, uint32_t dv, int face, int corner, float tol)
{
    for (uint32_t id = 0; id < 5; id++) {
        const kiln_draco_attribute *a = kiln_draco_find_attribute(m, id);
        float want[4];
        expected((int)id, face, corner, want);
        for (uint32_t c = 0; c < a->components; c++) {
            float got = a->values[(size_t)dv * a->components + c];
            if (tol == 0 ? got != want[c] : fabsf(got - want[c]) > tol) return 0;
        }
    }
    return 1;
}

/* Every source triangle appears among the decoded ones (up to rotation: edgebreaker reorders
 * faces and corners but keeps the winding), each exactly once. */
static void check_tetra(const kiln_draco_mesh *m, float tol)
{
    assert_int_equal(m->index_count, KT_TETRA_FACES * 3);
    assert_int_equal(m->attribute_count, 5);
    for (uint32_t id = 0; id < 5; id++) {
        const kiln_draco_attribute *a = kiln_draco_find_attribute(m, id);
        assert_non_null(a);
        assert_int_equal(a->components, tetra_components[id]);
    }
    assert_int_equal(kiln_draco_find_attribute(m, 2)->normalized, 1);
    assert_int_equal(kiln_draco_find_attribute(m, 2)->data_type, 5121);
    assert_int_equal(kiln_draco_find_attribute(m, 3)->data_type, 5122);
    assert_int_equal(kiln_draco_find_attribute(m, 4)->normalized, 0);
    int used[KT_TETRA_FACES] = {0};
    for (int f = 0; f < KT_TETRA_FACES; f++) {
        int found = 0;
        for (int d = 0; d < KT_TETRA_FACES && !found; d++) {
            for (int rot = 0; rot < 3 && !found; rot++) {
                int all = 1;
                for (int c = 0; c < 3 && all; c++)
                    all = corner_matches(m, m->indices[d * 3 + (c + rot) % 3], f, c, tol);
                if (all && !used[d]) found = used[d] = 1;
            }
        }
        if (!found) fail_msg("source face %d is not among the decoded ones", f);
    }
}

static void draco_round_trips_every_attribute_kind_exactly(void **state)
{
    (void)state;
    for (int eb = 0; eb <= 1; eb++) {
        size_t size;
        uint8_t *d = tetra(eb, 0, 5, &size);
        kiln_draco_mesh m;
        assert_int_equal(decode_checked(d, size, 0, &m), KILN_OK);
        check_tetra(&m, 0);
        /* -32768 maps to -1 as glTF clamps it, 32767 to 1. */
        const kiln_draco_attribute *g = kiln_draco_find_attribute(&m, 3);
        float lo = 0, hi = 0;
        for (size_t i = 0; i < (size_t)m.vertex_count * 2; i++) {
            lo = fminf(lo, g->values[i]);
            hi = fmaxf(hi, g->values[i]);
        }
        assert_true(lo == -1.0f && hi == 1.0f);
        kiln_draco_mesh_free(NULL, &m);
        assert_null(m.indices);
        free(d);
    }
}

static void draco_quantized_attributes_decode_within_a_step(void **state)
{
    (void)state;
    static const int cases[][3] = {{0, 11, 5}, {1, 11, 5}, {1, 14, 0}, {1, 8, 10}, {0, 14, 10}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t size;
        uint8_t *d = tetra(cases[i][0], cases[i][1], cases[i][2], &size);
        kiln_draco_mesh m;
        assert_int_equal(decode_checked(d, size, 0, &m), KILN_OK);
        /* Positions span 1, normals 2: a quantization step is at most 2 / (2^bits - 1);
         * octahedral normals lose a little more. */
        check_tetra(&m, 4.0f / (float)((1 << cases[i][1]) - 1));
        kiln_draco_mesh_free(NULL, &m);
        free(d);
    }
}

static void draco_point_clouds_are_refused(void **state)
{
    (void)state;
    size_t size;
    uint8_t *d = kt_draco_encode_point_cloud(&size);
    assert_non_null(d);
    kiln_draco_mesh m;
    kiln_error err;
    assert_int_equal(kiln_draco_decode(d, size, NULL, 0, &m, &err), KILN_E_IMPORT_FAILED);
    assert_string_equal(err.message, "Draco point clouds are not meshes");
    free(d);
}

static void draco_refuses_what_is_not_draco(void **state)
{
    (void)state;
    kiln_draco_mesh m;
    kiln_error err;
    assert_int_equal(kiln_draco_decode("", 0, NULL, 0, &m, &err), KILN_E_IMPORT_FAILED);
    assert_int_equal(kiln_draco_decode("DRACO", 5, NULL, 0, &m, &err), KILN_E_IMPORT_FAILED);
    assert_int_equal(kiln_draco_decode("glTF\2\0\0\0", 8, NULL, 0, &m, &err), KILN_E_IMPORT_FAILED);
    assert_non_null(strstr(err.message, "Draco"));
    assert_int_equal(kiln_draco_decode(NULL, 4, NULL, 0, &m, &err), KILN_E_USAGE);
    assert_int_equal(kiln_draco_decode("DRACO", 5, NULL, 0, NULL, &err), KILN_E_USAGE);
}

static void draco_meshes_past_the_memory_limit_are_refused(void **state)
{
    (void)state;
    for (int eb = 0; eb <= 1; eb++) {
        kt_draco_opts o = {eb, 12, 5, 0};
        size_t size;
        uint8_t *d = kt_draco_encode_grid(&o, 40, &size); /* 3200 triangles */
        assert_non_null(d);
        kiln_draco_mesh m;
        kiln_error err;
        assert_int_equal(kiln_draco_decode(d, size, NULL, 200000, &m, &err), KILN_E_LIMIT);
        assert_non_null(strstr(err.message, "limit"));
        assert_int_equal(decode_checked(d, size, 4 << 20, &m), KILN_OK);
        assert_int_equal(m.index_count, 3 * 3200);
        kiln_draco_mesh_free(NULL, &m);
        free(d);
    }
}

/* Draco's varint at *pos, which it advances. */
static uint32_t get_varint(const uint8_t *d, size_t *pos)
{
    uint32_t v = 0;
    for (int i = 0; i < 5; i++) {
        uint8_t b = d[(*pos)++];
        v |= (uint32_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) break;
    }
    return v;
}

/* A copy of d with the varint at offset `at` replaced by the 5-byte varint of v. */
static uint8_t *with_varint(const uint8_t *d, size_t size, size_t at, uint32_t v, size_t *out)
{
    size_t end = at;
    (void)get_varint(d, &end);
    *out = size - (end - at) + 5;
    uint8_t *n = malloc(*out);
    assert_non_null(n);
    memcpy(n, d, at);
    for (int i = 0; i < 5; i++) n[at + i] = (uint8_t)(((v >> (7 * i)) & 0x7f) | (i < 4 ? 0x80 : 0));
    memcpy(n + at + 5, d + end, size - end);
    return n;
}

/* Offsets of the count varints at the start of the connectivity block, after the 11-byte
 * header ("DRACO", major, minor, type, method, flags u16; no metadata). Sequential: num_faces,
 * num_points. Edgebreaker: after its traversal type byte, num_encoded_vertices, num_faces,
 * (num_attribute_data, a byte), num_encoded_symbols, num_encoded_split_symbols. */
static size_t count_fields(const uint8_t *d, int eb, size_t fields[4])
{
    size_t n = 0, pos = eb ? 12 : 11;
    for (int k = 0; k < (eb ? 5 : 2); k++) {
        if (eb && k == 2) {
            pos++;
            continue;
        }
        fields[n++] = pos;
        (void)get_varint(d, &pos);
    }
    return n;
}

/* A copy of d with the count fields whose bit is set in mask set to v. */
static uint8_t *with_counts(const uint8_t *d, size_t size, int eb, unsigned mask, uint32_t v,
                            size_t *out)
{
    uint8_t *cur = malloc(size);
    assert_non_null(cur);
    memcpy(cur, d, size);
    size_t n = size;
    for (unsigned f = 0; f < 4; f++) {
        if (!(mask & (1u << f))) continue;
        size_t fields[4];
        assert_true(f < count_fields(cur, eb, fields));
        uint8_t *next = with_varint(cur, n, fields[f], v, &n);
        free(cur);
        cur = next;
    }
    *out = n;
    return cur;
}

/* Streams that declare billions of faces, vertices or points in a few bytes. Unguarded, libdraco
 * 1.5.5 sizes buffers by them: edgebreaker with vertices = faces = symbols = 2^28 in a 300-byte
 * stream peaks at 9.7 GB (one 3 GiB block) before failing, 2^30 exhausts the machine. (Its
 * sequential decoder refuses more faces than bytes left / 3 and, measured, more points than 3
 * per face, so there the counts stay proportional to the stream's size.) The guards refuse the
 * edgebreaker counts first: unguarded, this test would need some 10 GB. */
static void draco_huge_declared_counts_are_refused_before_allocation(void **state)
{
    (void)state;
    static const uint32_t values[] = {0xffffffffu, 0x55555555u, 0x20000000u, 1u << 24, 100000};
    for (int eb = 0; eb <= 1; eb++) {
        for (int bits = 0; bits <= 11; bits += 11) {
            size_t size;
            uint8_t *d = tetra(eb, bits, 5, &size);
            assert_int_equal(d[5], 2); /* bitstream 2.2 */
            size_t fields[4];
            unsigned all = (1u << count_fields(d, eb, fields)) - 1;
            /* Every subset of the counts, set to each value. */
            for (unsigned mask = 1; mask <= all; mask++) {
                for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
                    size_t hs;
                    uint8_t *h = with_counts(d, size, eb, mask, values[v], &hs);
                    kiln_draco_mesh m;
                    (void)decode_checked(h, hs, 64 << 20, &m);
                    kiln_draco_mesh_free(NULL, &m);
                    free(h);
                }
            }
            free(d);
        }
    }
    /* The measured case gives KILN_E_LIMIT. */
    size_t size, hs;
    kiln_draco_mesh m;
    uint8_t *d = tetra(1, 11, 5, &size);
    uint8_t *h = with_counts(d, size, 1, 0x7, 1u << 28, &hs);
    assert_int_equal(decode_checked(h, hs, 64 << 20, &m), KILN_E_LIMIT);
    free(h);
    free(d);
}

static void draco_every_truncation_is_an_error_or_a_mesh(void **state)
{
    (void)state;
    for (int eb = 0; eb <= 1; eb++) {
        size_t size;
        uint8_t *d = tetra(eb, 11, 5, &size);
        for (size_t n = 0; n < size; n++) {
            kiln_draco_mesh m;
            (void)decode_checked(d, n, 1 << 20, &m);
            kiln_draco_mesh_free(NULL, &m);
        }
        free(d);
    }
}

static void draco_byte_flips_are_an_error_or_a_mesh(void **state)
{
    (void)state;
    static const uint8_t masks[] = {0x01, 0x02, 0x10, 0x80, 0xff};
    for (int eb = 0; eb <= 1; eb++) {
        size_t size;
        uint8_t *d = tetra(eb, 11, 5, &size);
        uint8_t *f = malloc(size);
        assert_non_null(f);
        for (size_t i = 0; i < size; i++) {
            for (size_t k = 0; k < sizeof masks; k++) {
                memcpy(f, d, size);
                f[i] ^= masks[k];
                kiln_draco_mesh m;
                (void)decode_checked(f, size, 1 << 20, &m);
                kiln_draco_mesh_free(NULL, &m);
            }
        }
        /* Several random flips at once (fixed seed). */
        uint32_t seed = 12345;
        for (int round = 0; round < 2000; round++) {
            memcpy(f, d, size);
            for (int k = 0; k < 4; k++) {
                seed = seed * 1664525u + 1013904223u;
                f[(seed >> 8) % size] ^= (uint8_t)(1u << ((seed >> 4) & 7));
            }
            kiln_draco_mesh m;
            (void)decode_checked(f, size, 1 << 20, &m);
            kiln_draco_mesh_free(NULL, &m);
        }
        free(f);
        free(d);
    }
}

/* An allocator that fails from the Nth allocation on and counts what is live. */
typedef struct failing {
    int left;
    size_t live;
} failing;

static void *fail_alloc(void *user, size_t size, size_t align)
{
    failing *f = user;
    (void)align;
    if (f->left-- <= 0) return NULL;
    f->live += size;
    return malloc(size);
}
static void *fail_realloc(void *user, void *p, size_t old_size, size_t new_size)
{
    failing *f = user;
    if (f->left-- <= 0) return NULL;
    f->live += new_size - old_size;
    return realloc(p, new_size);
}
static void fail_free(void *user, void *p, size_t size)
{
    failing *f = user;
    if (p) f->live -= size;
    free(p);
}

static void draco_failing_allocations_give_out_of_memory_and_no_leak(void **state)
{
    (void)state;
    size_t size;
    uint8_t *d = tetra(1, 11, 5, &size);
    int n = 0;
    for (;; n++) {
        failing f = {n, 0};
        kiln_allocator a = {fail_alloc, fail_realloc, fail_free, &f};
        kiln_draco_mesh m;
        kiln_error err;
        kiln_result r = kiln_draco_decode(d, size, &a, 0, &m, &err);
        if (r == KILN_OK) {
            check_valid(&m);
            kiln_draco_mesh_free(&a, &m);
            assert_int_equal(f.live, 0);
            break;
        }
        assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
        assert_int_equal(f.live, 0);
    }
    assert_int_equal(n, 1 + 1 + 5); /* indices, the attribute table, 5 attributes */
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(draco_round_trips_every_attribute_kind_exactly),
        cmocka_unit_test(draco_quantized_attributes_decode_within_a_step),
        cmocka_unit_test(draco_point_clouds_are_refused),
        cmocka_unit_test(draco_refuses_what_is_not_draco),
        cmocka_unit_test(draco_meshes_past_the_memory_limit_are_refused),
        cmocka_unit_test(draco_huge_declared_counts_are_refused_before_allocation),
        cmocka_unit_test(draco_every_truncation_is_an_error_or_a_mesh),
        cmocka_unit_test(draco_byte_flips_are_an_error_or_a_mesh),
        cmocka_unit_test(draco_failing_allocations_give_out_of_memory_and_no_leak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
