/* test_container.c — the kiln container: writer and reader round trip, golden bytes, version
 * refusal, every byte flipped, every truncation, and hand-made damage with a valid checksum. */
#include "support.h"

#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include "core/alloc.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"
#include "write/container_write.h"

#define KIND_TEST KILN_FOURCC('T', 'E', 'S', 'T')

/* A small container: three sections of different element sizes, one empty. */
static uint8_t *small(size_t *size)
{
    static const uint32_t words[5] = {1, 2, 3, 0xDEADBEEF, 5};
    static const char text[] = "kiln";
    static const float vec[6] = {0.5f, -1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
    kiln_container_writer w;
    kiln_container_begin(&w, KIND_TEST, 7, NULL);
    kiln_error err;
    assert_int_equal(kiln_container_add(&w, KILN_FOURCC('W', 'R', 'D', 'S'), 4, 5, words, &err), 0);
    assert_int_equal(kiln_container_add(&w, KILN_FOURCC('T', 'E', 'X', 'T'), 1, 4, text, &err), 0);
    assert_int_equal(kiln_container_add(&w, KILN_FOURCC('N', 'O', 'N', 'E'), 8, 0, NULL, &err), 0);
    assert_int_equal(kiln_container_add(&w, KILN_FOURCC('V', 'E', 'C', '3'), 12, 2, vec, &err), 0);
    uint8_t *out;
    assert_int_equal(kiln_container_finish(&w, &out, size, &err), 0);
    return out;
}

static void round_trip(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = small(&size);
    kiln_container c;
    kiln_error err;
    assert_int_equal(kiln_container_read(bytes, size, 0, &c, &err), KILN_OK);
    assert_int_equal(c.kind, KIND_TEST);
    assert_int_equal(c.kind_version, 7);
    assert_int_equal(c.section_count, 4);
    kiln_container_section s;
    assert_true(kiln_container_find(&c, KILN_FOURCC('W', 'R', 'D', 'S'), 4, &s));
    assert_int_equal(s.count, 5);
    assert_int_equal(((uintptr_t)s.data - (uintptr_t)bytes) % 16, 0);
    uint32_t w3;
    memcpy(&w3, s.data + 12, 4);
    assert_int_equal(w3, 0xDEADBEEF);
    assert_true(kiln_container_find(&c, KILN_FOURCC('T', 'E', 'X', 'T'), 1, &s));
    assert_memory_equal(s.data, "kiln", 4);
    assert_true(kiln_container_find(&c, KILN_FOURCC('N', 'O', 'N', 'E'), 8, &s));
    assert_int_equal(s.count, 0);
    assert_false(kiln_container_find(&c, KILN_FOURCC('W', 'R', 'D', 'S'), 8, &s)); /* wrong size */
    assert_false(kiln_container_find(&c, KILN_FOURCC('M', 'I', 'S', 'S'), 1, &s));
    kiln_container_section_at(&c, 3, &s);
    assert_int_equal(s.id, KILN_FOURCC('V', 'E', 'C', '3'));
    assert_int_equal(s.size, 24);
    free(bytes);
}

static void golden_bytes(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = small(&size);
    assert_int_equal(size, 64 + 4 * 32 + 32 + 16 + 0 + 24); /* 264 */
    kt_check_golden("container_small.bin", bytes, size);
    free(bytes);
}

static void same_input_same_bytes(void **state)
{
    (void)state;
    size_t a_size, b_size;
    uint8_t *a = small(&a_size), *b = small(&b_size);
    assert_int_equal(a_size, b_size);
    assert_memory_equal(a, b, a_size);
    free(a);
    free(b);
}

static void other_version_says_cook_again(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = small(&size);
    kiln_store_u32le(bytes + 4, 2);
    kiln_container c;
    kiln_error err;
    assert_int_equal(kiln_container_read(bytes, size, 0, &c, &err), KILN_E_FORMAT_VERSION);
    assert_non_null(strstr(err.message, "cook again"));
    free(bytes);
}

static void every_flip_and_truncation_fails(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = small(&size);
    kiln_container c;
    kiln_error err;
    for (size_t i = 0; i < size; i++)
        for (int bit = 0; bit < 8; bit++) {
            bytes[i] ^= (uint8_t)(1u << bit);
            kiln_result r = kiln_container_read(bytes, size, 0, &c, &err);
            if (r == KILN_OK) fail_msg("flipping bit %d of byte %zu was not noticed", bit, i);
            assert_true(r == KILN_E_FORMAT_INVALID || r == KILN_E_FORMAT_VERSION);
            /* Without the checksum the structure checks alone must hold: never out of bounds. */
            if (kiln_container_read(bytes, size, KILN_CONTAINER_SKIP_CHECKSUM, &c, &err) == KILN_OK)
                for (uint32_t k = 0; k < c.section_count; k++) {
                    kiln_container_section s;
                    kiln_container_section_at(&c, k, &s);
                    assert_true(s.data >= bytes && s.data + s.size <= bytes + size);
                }
            bytes[i] ^= (uint8_t)(1u << bit);
        }
    for (size_t n = 0; n < size; n++)
        assert_int_equal(kiln_container_read(bytes, n, 0, &c, &err), KILN_E_FORMAT_INVALID);
    assert_int_equal(kiln_container_read(bytes, size, 0, &c, &err), KILN_OK);
    free(bytes);
}

static void structural_damage_with_valid_checksum(void **state)
{
    (void)state;
    size_t size;
    kiln_container c;
    kiln_error err;
    const struct {
        size_t at;
        uint64_t value;
        int width;
        const char *fragment;
    } cases[] = {
        {64 + 8, 72, 8, "aligned"},             /* first section at an odd offset */
        {64 + 32 + 8, 192, 8, "overlap"},       /* second section before the first ends */
        {64 + 16, 1u << 30, 8, "past the end"}, /* huge count */
        {64 + 4, 0, 4, "element size is 0"},
        {64 + 32, KILN_FOURCC('W', 'R', 'D', 'S'), 4, "share an id"},
        {64 + 24, 1, 8, "reserved"},
        {40, 1, 4, "reserved header"},
        {32, 257, 4, "256 sections"},
        {36, 32, 4, "header size"},
        {16, 1000, 8, "file size"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *bytes = small(&size);
        if (cases[i].width == 4) kiln_store_u32le(bytes + cases[i].at, (uint32_t)cases[i].value);
        else kiln_store_u64le(bytes + cases[i].at, cases[i].value);
        kt_container_reseal(bytes, size);
        kiln_result r = kiln_container_read(bytes, size, 0, &c, &err);
        if (r != KILN_E_FORMAT_INVALID || !strstr(err.message, cases[i].fragment))
            fail_msg("case %zu: %s: %s", i, kiln_result_name(r), err.message);
        free(bytes);
    }
    /* Non-zero padding between sections. */
    uint8_t *bytes = small(&size);
    bytes[64 + 4 * 32 + 20] = 1; /* after WRDS (20 bytes) in its padding */
    kt_container_reseal(bytes, size);
    assert_int_equal(kiln_container_read(bytes, size, 0, &c, &err), KILN_E_FORMAT_INVALID);
    assert_non_null(strstr(err.message, "padding"));
    free(bytes);
}

static void writer_refuses_bad_sections(void **state)
{
    (void)state;
    kiln_container_writer w;
    kiln_container_begin(&w, KIND_TEST, 1, NULL);
    kiln_error err;
    uint8_t one = 1;
    assert_int_equal(kiln_container_add(&w, 1, 0, 1, &one, &err), KILN_E_USAGE);
    assert_int_equal(kiln_container_add(&w, 1, 1, 1, NULL, &err), KILN_E_USAGE);
    assert_int_equal(kiln_container_add(&w, 1, 1, 1, &one, &err), KILN_OK);
    assert_int_equal(kiln_container_add(&w, 1, 1, 1, &one, &err), KILN_E_USAGE);
    assert_int_equal(kiln_container_add(&w, 2, 8, UINT64_MAX / 4, &one, &err), KILN_E_LIMIT);
    for (uint32_t id = 2; id <= KILN_CONTAINER_MAX_SECTIONS; id++)
        assert_int_equal(kiln_container_add(&w, id, 1, 1, &one, &err), KILN_OK);
    assert_int_equal(kiln_container_add(&w, 9999, 1, 1, &one, &err), KILN_E_USAGE);
    uint8_t *out;
    size_t size;
    assert_int_equal(kiln_container_finish(&w, &out, &size, &err), KILN_OK);
    kiln_container c;
    assert_int_equal(kiln_container_read(out, size, 0, &c, &err), KILN_OK);
    assert_int_equal(c.section_count, KILN_CONTAINER_MAX_SECTIONS);
    kiln_free(NULL, out, size);
}

/* The id is XXH3-64 of "<guid>#<label>": the same as hashing the joined string. */
static void asset_id_hashes_guid_hash_label(void **state)
{
    (void)state;
    const char *guid = "0123456789abcdef0123456789abcdef";
    const char joined[] = "0123456789abcdef0123456789abcdef#mesh0/prim0";
    assert_true(kiln_asset_id(guid, "mesh0/prim0") == XXH3_64bits(joined, sizeof joined - 1));
    assert_true(kiln_asset_id(guid, "mesh0/prim0") == 0xdb3bdfaf33febabeull); /* pinned */
    assert_true(kiln_asset_id(guid, "mesh0/prim1") != kiln_asset_id(guid, "mesh0/prim0"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),
        cmocka_unit_test(golden_bytes),
        cmocka_unit_test(same_input_same_bytes),
        cmocka_unit_test(other_version_says_cook_again),
        cmocka_unit_test(every_flip_and_truncation_fails),
        cmocka_unit_test(structural_damage_with_valid_checksum),
        cmocka_unit_test(writer_refuses_bad_sections),
        cmocka_unit_test(asset_id_hashes_guid_hash_label),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
