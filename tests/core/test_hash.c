/* test_hash.c — hash.h: SHA-256 against the FIPS 180-2 examples, streaming against one-shot,
 * files against bytes; hex encoding; XXH3. */
#include "support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/sha256_block.h"
#include "core/xxh3_variants.h"

/* xxHash's own library (Debian's libxxhash.a), built apart from kiln: the reference the
 * variants are checked against. Declared here rather than through <xxhash.h>, which the
 * variants include in their header-only form. */
typedef struct {
    uint64_t low64, high64;
} ref_xxh128;
uint64_t XXH3_64bits(const void *data, size_t len);
ref_xxh128 XXH3_128bits(const void *data, size_t len);

static void assert_digest(const uint8_t d[KILN_SHA256_SIZE], const char *want_hex)
{
    char hex[KILN_SHA256_HEX_SIZE];
    kiln_hex(d, KILN_SHA256_SIZE, hex);
    assert_string_equal(hex, want_hex);
}

static void sha256_matches_the_fips_180_2_examples(void **state)
{
    (void)state;
    uint8_t d[KILN_SHA256_SIZE];
    kiln_error e;
    assert_int_equal(kiln_sha256_bytes("", 0, d, &e), KILN_OK);
    assert_digest(d, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_int_equal(kiln_sha256_bytes(NULL, 0, d, &e), KILN_OK);
    assert_digest(d, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_int_equal(kiln_sha256_bytes("abc", 3, d, &e), KILN_OK);
    assert_digest(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    static const char m448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    assert_int_equal(strlen(m448) * 8, 448);
    assert_int_equal(kiln_sha256_bytes(m448, strlen(m448), d, &e), KILN_OK);
    assert_digest(d, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");

    char *million = malloc(1000000);
    memset(million, 'a', 1000000);
    assert_int_equal(kiln_sha256_bytes(million, 1000000, d, &e), KILN_OK);
    assert_digest(d, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    /* and the same million fed one 'a' at a time for the first 1000, then in blocks */
    kiln_sha256 h;
    assert_int_equal(kiln_sha256_init(&h, &e), KILN_OK);
    for (int i = 0; i < 1000; i++) kiln_sha256_update(&h, "a", 1);
    for (int i = 0; i < 999; i++) kiln_sha256_update(&h, million, 1000);
    assert_int_equal(kiln_sha256_final(&h, d, &e), KILN_OK);
    assert_digest(d, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(million);
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void sha256_streaming_in_random_chunks_equals_one_shot(void **state)
{
    (void)state;
    size_t n = 200003;
    uint8_t *data = malloc(n);
    uint64_t s = 0x243F6A8885A308D3ull;
    for (size_t i = 0; i < n; i++) data[i] = (uint8_t)xorshift(&s);
    uint8_t once[KILN_SHA256_SIZE];
    assert_int_equal(kiln_sha256_bytes(data, n, once, NULL), KILN_OK);
    for (int round = 0; round < 20; round++) {
        kiln_sha256 h;
        assert_int_equal(kiln_sha256_init(&h, NULL), KILN_OK);
        size_t pos = 0;
        while (pos < n) {
            /* mostly small and block-straddling chunks, sometimes large ones, sometimes 0 */
            size_t max = (round % 4 == 0) ? 70000 : 200;
            size_t c = (size_t)(xorshift(&s) % (max + 1));
            if (c > n - pos) c = n - pos;
            kiln_sha256_update(&h, data + pos, c);
            pos += c;
        }
        uint8_t streamed[KILN_SHA256_SIZE];
        assert_int_equal(kiln_sha256_final(&h, streamed, NULL), KILN_OK);
        assert_memory_equal(streamed, once, KILN_SHA256_SIZE);
    }
    /* a different byte gives a different digest */
    data[n / 2] ^= 1;
    uint8_t changed[KILN_SHA256_SIZE];
    assert_int_equal(kiln_sha256_bytes(data, n, changed, NULL), KILN_OK);
    assert_memory_not_equal(changed, once, KILN_SHA256_SIZE);
    free(data);
}

static void sha256_abort_forgets_the_data(void **state)
{
    (void)state;
    kiln_sha256 h;
    assert_int_equal(kiln_sha256_init(&h, NULL), KILN_OK);
    kiln_sha256_update(&h, "abc", 3);
    kiln_sha256_abort(&h);
    kiln_sha256_abort(&h); /* twice is harmless */
    /* a context used again after abort starts from init */
    uint8_t d[KILN_SHA256_SIZE];
    assert_int_equal(kiln_sha256_init(&h, NULL), KILN_OK);
    kiln_sha256_update(&h, "abc", 3);
    assert_int_equal(kiln_sha256_final(&h, d, NULL), KILN_OK);
    assert_digest(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* The SHA-extension path and the portable one give the same state for any number of blocks
 * (the FIPS examples above run whichever path the CPU allows; this pins the other one). */
static void sha256_block_paths_agree(void **state)
{
    (void)state;
    uint64_t s = 7;
    uint8_t data[64 * 37];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)xorshift(&s);
    bool ext = kiln_sha256_has_extensions();
    if (!ext) print_message("this CPU has no SHA extensions: only the portable path is tested\n");
    for (size_t blocks = 0; blocks <= 37; blocks++) {
        uint32_t a[8], b[8];
        for (int i = 0; i < 8; i++) a[i] = b[i] = (uint32_t)xorshift(&s);
        kiln_sha256_blocks_portable(a, data, blocks);
        kiln_sha256_blocks(b, data, blocks, ext);
        assert_memory_equal(a, b, sizeof a);
    }
    /* the portable block function against the FIPS "abc" example, padded by hand */
    uint8_t block[64] = {'a', 'b', 'c', 0x80};
    block[63] = 24;
    uint32_t st[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    kiln_sha256_blocks_portable(st, block, 1);
    assert_int_equal(st[0], 0xba7816bf);
    assert_int_equal(st[7], 0xf20015ad);
}

static void sha256_file_equals_sha256_of_its_bytes(void **state)
{
    (void)state;
    char *dir = kt_tempdir("hash");
    size_t sizes[] = {0, 1, 65535, 65536, 65537, 200000}; /* around the 64 KiB read chunk */
    uint64_t s = 99;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        uint8_t *data = malloc(sizes[k] + 1);
        for (size_t i = 0; i < sizes[k]; i++) data[i] = (uint8_t)xorshift(&s);
        char *p = kt_format("%s/f%zu.bin", dir, k);
        kt_write_file(p, data, sizes[k]);
        uint8_t a[KILN_SHA256_SIZE], b[KILN_SHA256_SIZE];
        uint64_t size = 12345;
        kiln_error e;
        assert_int_equal(kiln_sha256_file(p, a, &size, &e), KILN_OK);
        assert_int_equal(size, sizes[k]);
        assert_int_equal(kiln_sha256_bytes(data, sizes[k], b, &e), KILN_OK);
        assert_memory_equal(a, b, KILN_SHA256_SIZE);
        assert_int_equal(kiln_sha256_file(p, a, NULL, &e), KILN_OK); /* size is optional */
        assert_memory_equal(a, b, KILN_SHA256_SIZE);
        free(p);
        free(data);
    }
    char *missing = kt_format("%s/missing", dir);
    uint8_t d[KILN_SHA256_SIZE];
    kiln_error e;
    assert_int_equal(kiln_sha256_file(missing, d, NULL, &e), KILN_E_ASSET_IO);
    assert_string_equal(e.path, missing);
    assert_int_equal(kiln_sha256_file(dir, d, NULL, &e), KILN_E_ASSET_IO); /* a folder */
    assert_string_equal(e.path, dir);
    free(missing);
    kt_rmtree(dir);
    free(dir);
}

static void hex_encodes_lowercase_and_unhex_round_trips_every_byte(void **state)
{
    (void)state;
    static const uint8_t some[] = {0x00, 0xff, 0x12, 0xab, 0x9c};
    char hex[2 * 256 + 1];
    kiln_hex(some, sizeof some, hex);
    assert_string_equal(hex, "00ff12ab9c");
    kiln_hex(some, 0, hex);
    assert_string_equal(hex, "");

    uint8_t all[256], back[256];
    for (int i = 0; i < 256; i++) all[i] = (uint8_t)i;
    kiln_hex(all, 256, hex);
    assert_int_equal(strlen(hex), 512);
    memset(back, 0, sizeof back);
    assert_true(kiln_unhex(hex, back, 256));
    assert_memory_equal(back, all, 256);

    uint8_t b[2];
    assert_true(kiln_unhex("ABcd", b, 2)); /* uppercase accepted */
    assert_int_equal(b[0], 0xab);
    assert_int_equal(b[1], 0xcd);
    assert_true(kiln_unhex("", b, 0));
}

static void unhex_rejects_bad_digits_and_wrong_lengths(void **state)
{
    (void)state;
    uint8_t b[4];
    static const char *const bad[] = {
        "0g",
        "g0",
        "0G",
        " 0",
        "0 ",
        "-1",
        "0x",
        "\xff"
        "0", /* bad digits */
        "0",
        "", /* too short */
        "000",
        "0000", /* too long */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (kiln_unhex(bad[i], b, 1)) fail_msg("unhex(\"%s\", 1) accepted", bad[i]);
    assert_false(kiln_unhex("a", b, 0));
    assert_false(kiln_unhex("0102030", b, 4)); /* odd count: stops at the NUL */
    assert_false(kiln_unhex("010203040", b, 4));
    assert_true(kiln_unhex("01020304", b, 4));
    assert_memory_equal(b, "\x01\x02\x03\x04", 4);

    /* the digest size: 64 digits exactly */
    uint8_t d[KILN_SHA256_SIZE];
    char hex[KILN_SHA256_HEX_SIZE + 1];
    memset(hex, 'e', 64);
    hex[64] = '\0';
    assert_true(kiln_unhex(hex, d, KILN_SHA256_SIZE));
    hex[63] = '\0';
    assert_false(kiln_unhex(hex, d, KILN_SHA256_SIZE));
}

static void xxh3_of_empty_input_is_the_reference_value(void **state)
{
    (void)state;
    assert_true(kiln_xxh3_64("", 0) == 0x2D06800538D394C2ull);
    assert_true(kiln_xxh3_64(NULL, 0) == 0x2D06800538D394C2ull);
}

static void xxh3_differs_between_inputs_and_is_stable(void **state)
{
    (void)state;
    uint64_t a = kiln_xxh3_64("a", 1), b = kiln_xxh3_64("b", 1), ab = kiln_xxh3_64("ab", 2);
    assert_true(a != b);
    assert_true(a != ab);
    assert_true(a != 0x2D06800538D394C2ull);
    assert_true(kiln_xxh3_64("a", 1) == a);
    /* every length up to 300 bytes (the short/mid/long code paths) and a flipped bit */
    uint8_t buf[300];
    for (int i = 0; i < 300; i++) buf[i] = (uint8_t)(i * 13);
    uint64_t prev = 0;
    for (size_t n = 1; n <= sizeof buf; n++) {
        uint64_t h = kiln_xxh3_64(buf, n);
        assert_true(h != prev);
        buf[n - 1] ^= 0x80;
        assert_true(kiln_xxh3_64(buf, n) != h);
        buf[n - 1] ^= 0x80;
        prev = h;
    }
}

/* Every variant (the default build, AVX2 when the CPU has it) gives xxHash's library's
 * hashes, over every length to 4 KiB and larger ones at every alignment, 64 and 128 bits, and
 * the field-zeroed form equals hashing a copy with the field zeroed. */
static void xxh3_variants_agree_with_the_library(void **state)
{
    (void)state;
    enum { BIG = 300000 };
    uint8_t *buf = malloc(BIG + 64), *copy = malloc(BIG + 64);
    assert_non_null(buf);
    assert_non_null(copy);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < BIG + 64; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        buf[i] = (uint8_t)x;
    }
    bool avx2 = kiln_xxh3_has_avx2();
    size_t lengths[4201 + 40], count = 0;
    for (size_t n = 0; n <= 4200; n++) lengths[count++] = n;
    for (size_t k = 0; k < 40; k++) lengths[count++] = 4201 + k * 7411;
    for (size_t i = 0; i < count; i++) {
        size_t n = lengths[i], at = n % 61; /* misaligned starts too */
        const uint8_t *p = buf + at;
        uint64_t want = XXH3_64bits(p, n);
        ref_xxh128 w128 = XXH3_128bits(p, n);
        uint8_t want128[16]; /* canonical: big-endian high then low */
        for (int b = 0; b < 8; b++) {
            want128[b] = (uint8_t)(w128.high64 >> (56 - 8 * b));
            want128[8 + b] = (uint8_t)(w128.low64 >> (56 - 8 * b));
        }
        uint8_t got128[16];
        assert_true(kiln_xxh3_64(p, n) == want);
        assert_true(kiln_xxh3_64_base(p, n) == want);
        kiln_xxh3_128_base(p, n, got128);
        assert_memory_equal(got128, want128, 16);
        kiln_xxh3_128(p, n, got128);
        assert_memory_equal(got128, want128, 16);
#ifdef KILN_XXH3_AVX2
        if (avx2) {
            assert_true(kiln_xxh3_64_avx2(p, n) == want);
            kiln_xxh3_128_avx2(p, n, got128);
            assert_memory_equal(got128, want128, 16);
        }
#endif
        if (n >= 8) {
            size_t field = (n - 8) / 2;
            memcpy(copy, p, n);
            memset(copy + field, 0, 8);
            uint64_t zeroed = XXH3_64bits(copy, n);
            assert_true(kiln_xxh3_64_field_zeroed(p, n, field) == zeroed);
            assert_true(kiln_xxh3_64_field_zeroed_base(p, n, field) == zeroed);
#ifdef KILN_XXH3_AVX2
            if (avx2) assert_true(kiln_xxh3_64_field_zeroed_avx2(p, n, field) == zeroed);
#endif
        }
    }
    if (!avx2)
        fprintf(stderr, "note: this CPU has no AVX2; only the default variant was checked\n");
    free(buf);
    free(copy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sha256_matches_the_fips_180_2_examples),
        cmocka_unit_test(sha256_streaming_in_random_chunks_equals_one_shot),
        cmocka_unit_test(sha256_abort_forgets_the_data),
        cmocka_unit_test(sha256_block_paths_agree),
        cmocka_unit_test(sha256_file_equals_sha256_of_its_bytes),
        cmocka_unit_test(hex_encodes_lowercase_and_unhex_round_trips_every_byte),
        cmocka_unit_test(unhex_rejects_bad_digits_and_wrong_lengths),
        cmocka_unit_test(xxh3_of_empty_input_is_the_reference_value),
        cmocka_unit_test(xxh3_differs_between_inputs_and_is_stable),
        cmocka_unit_test(xxh3_variants_agree_with_the_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
