/* test_memory.c — the error record (error.h), allocation hooks and checked arithmetic
 * (alloc.h), the growable buffer (buf.h) and the bounds-checked reader (reader.h). */
#include "support.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/error.h"
#include "core/reader.h"
#include "counting_alloc.h"

/* ---- error -------------------------------------------------------------------------------- */

static void result_name_is_stable_for_every_code_and_unknown_otherwise(void **state)
{
    (void)state;
    static const struct {
        kiln_result r;
        const char *name;
    } names[] = {
        {KILN_OK, "OK"},
        {KILN_E_IMPORT_UNSUPPORTED, "E_IMPORT_UNSUPPORTED"},
        {KILN_E_IMPORT_SETTINGS, "E_IMPORT_SETTINGS"},
        {KILN_E_IMPORT_FAILED, "E_IMPORT_FAILED"},
        {KILN_E_ASSET_IO, "E_ASSET_IO"},
        {KILN_E_OUTPUT_REFUSED, "E_OUTPUT_REFUSED"},
        {KILN_E_FORMAT_VERSION, "E_FORMAT_VERSION"},
        {KILN_E_OUT_OF_MEMORY, "E_OUT_OF_MEMORY"},
        {KILN_E_LIMIT, "E_LIMIT"},
        {KILN_E_CACHE_CORRUPT, "E_CACHE_CORRUPT"},
        {KILN_E_FORMAT_INVALID, "E_FORMAT_INVALID"},
        {KILN_E_USAGE, "E_USAGE"},
        {KILN_E_INTERNAL, "E_INTERNAL"},
        {KILN_E_NOT_IMPORTED, "E_NOT_IMPORTED"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        assert_int_equal(names[i].r, (kiln_result)i); /* values pinned, none skipped */
        assert_string_equal(kiln_result_name(names[i].r), names[i].name);
    }
    assert_string_equal(kiln_result_name((kiln_result)14), "E_UNKNOWN");
    assert_string_equal(kiln_result_name((kiln_result)1000), "E_UNKNOWN");
    assert_string_equal(kiln_result_name((kiln_result)-1), "E_UNKNOWN");
}

/* A record with guard bytes behind it: a write past json_pointer (the last field) shows here. */
typedef struct guarded_error {
    kiln_error e;
    unsigned char guard[64];
} guarded_error;

static void assert_guard_intact(const guarded_error *g)
{
    for (size_t i = 0; i < sizeof g->guard; i++) assert_int_equal(g->guard[i], 0x5A);
}

static char *long_string(size_t n, char c)
{
    char *s = malloc(n + 1);
    assert_non_null(s);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

static void error_set_fills_code_and_message_and_clears_location(void **state)
{
    (void)state;
    kiln_error e;
    kiln_error_set(&e, KILN_E_LIMIT, "old");
    kiln_error_at_path(&e, "/x/y.png");
    kiln_error_at_offset(&e, 42);
    kiln_error_at_pointer(&e, "/a/0");
    assert_string_equal(e.path, "/x/y.png");
    assert_int_equal(e.offset, 42);
    assert_string_equal(e.json_pointer, "/a/0");

    assert_int_equal(kiln_error_set(&e, KILN_E_IMPORT_FAILED, "accessor %d: %s", 12, "bad"),
                     KILN_E_IMPORT_FAILED);
    assert_int_equal(e.code, KILN_E_IMPORT_FAILED);
    assert_string_equal(e.message, "accessor 12: bad");
    assert_string_equal(e.path, "");
    assert_true(e.offset == UINT64_MAX);
    assert_string_equal(e.json_pointer, "");

    kiln_error_clear(&e);
    assert_int_equal(e.code, KILN_OK);
    assert_string_equal(e.message, "");
    assert_true(e.offset == UINT64_MAX);
}

static void error_set_truncates_a_10k_message_without_overflow(void **state)
{
    (void)state;
    char *big = long_string(10 * 1024, 'm');
    guarded_error g;
    memset(&g, 0x5A, sizeof g);
    assert_int_equal(kiln_error_set(&g.e, KILN_E_IMPORT_FAILED, "%s", big), KILN_E_IMPORT_FAILED);
    assert_int_equal(strlen(g.e.message), sizeof g.e.message - 1);
    assert_memory_equal(g.e.message, big, sizeof g.e.message - 1);
    assert_string_equal(g.e.path, "");
    assert_guard_intact(&g);
    free(big);
}

static void error_at_path_and_pointer_truncate_10k_strings_without_overflow(void **state)
{
    (void)state;
    char *big = long_string(10 * 1024, 'p');
    guarded_error g;
    memset(&g, 0x5A, sizeof g);
    kiln_error_set(&g.e, KILN_E_ASSET_IO, "x");
    kiln_error_at_offset(&g.e, 7);
    kiln_error_at_path(&g.e, big);
    assert_int_equal(strlen(g.e.path), sizeof g.e.path - 1);
    assert_memory_equal(g.e.path, big, sizeof g.e.path - 1);
    assert_int_equal(g.e.offset, 7); /* the field after path survived */
    kiln_error_at_pointer(&g.e, big);
    assert_int_equal(strlen(g.e.json_pointer), sizeof g.e.json_pointer - 1);
    assert_guard_intact(&g);
    assert_string_equal(g.e.message, "x");
    free(big);
}

static void error_prefix_keeps_context_and_cuts_the_old_message_end(void **state)
{
    (void)state;
    guarded_error g;
    memset(&g, 0x5A, sizeof g);
    kiln_error_set(&g.e, KILN_E_IMPORT_FAILED, "bad header");
    kiln_error_prefix(&g.e, "%s: ", "kodim01.png");
    assert_string_equal(g.e.message, "kodim01.png: bad header");
    assert_int_equal(g.e.code, KILN_E_IMPORT_FAILED);

    /* A full message: the prefix is kept whole and the old text loses its end. */
    char *big = long_string(10 * 1024, 'o');
    kiln_error_set(&g.e, KILN_E_IMPORT_FAILED, "%s", big);
    kiln_error_prefix(&g.e, "ctx: ");
    assert_int_equal(strlen(g.e.message), sizeof g.e.message - 1);
    assert_memory_equal(g.e.message, "ctx: ooo", 8);
    assert_int_equal(g.e.message[sizeof g.e.message - 2], 'o');

    /* A 10 KB prefix fills the message alone. */
    kiln_error_set(&g.e, KILN_E_IMPORT_FAILED, "tail");
    char *bigp = long_string(10 * 1024, 'P');
    kiln_error_prefix(&g.e, "%s", bigp);
    assert_int_equal(strlen(g.e.message), sizeof g.e.message - 1);
    assert_null(strstr(g.e.message, "tail"));
    assert_int_equal(g.e.message[0], 'P');
    assert_guard_intact(&g);
    free(big);
    free(bigp);
}

static kiln_result set_through_v(kiln_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kiln_result r = kiln_error_setv(err, KILN_E_USAGE, fmt, ap);
    va_end(ap);
    return r;
}

static void error_bad_bytes_names_the_format_and_the_offset(void **state)
{
    (void)state;
    guarded_error g;
    memset(&g, 0x5A, sizeof g);
    kiln_error_at_path(&g.e, "old");
    assert_int_equal(kiln_error_bad_bytes(&g.e, "cooked scene", 48, "node %u: %s", 3u, "bad name"),
                     KILN_E_FORMAT_INVALID);
    assert_int_equal(g.e.code, KILN_E_FORMAT_INVALID);
    assert_string_equal(g.e.message, "cooked scene: node 3: bad name");
    assert_true(g.e.offset == 48);
    assert_string_equal(g.e.path, "");
    assert_string_equal(g.e.json_pointer, "");
    kiln_error_bad_bytes(&g.e, NULL, UINT64_MAX, "no prefix");
    assert_string_equal(g.e.message, "no prefix");
    assert_true(g.e.offset == UINT64_MAX);
    /* any code, with where in the input */
    assert_int_equal(kiln_error_set_at(&g.e, KILN_E_LIMIT, 12, "level %d", 4), KILN_E_LIMIT);
    assert_int_equal(g.e.code, KILN_E_LIMIT);
    assert_string_equal(g.e.message, "level 4");
    assert_true(g.e.offset == 12);
    assert_int_equal(kiln_error_set_at(NULL, KILN_E_USAGE, 0, "x"), KILN_E_USAGE);
    assert_guard_intact(&g);

    /* Long messages are cut at the end, the format name kept; a name longer than the record is
     * cut too. */
    char *big = long_string(10 * 1024, 'b');
    kiln_error_bad_bytes(&g.e, "mesh", 1, "%s", big);
    assert_int_equal(strlen(g.e.message), sizeof g.e.message - 1);
    assert_memory_equal(g.e.message, "mesh: bbb", 9);
    kiln_error_bad_bytes(&g.e, big, 2, "%s", "lost");
    assert_int_equal(strlen(g.e.message), sizeof g.e.message - 1);
    assert_memory_equal(g.e.message, big, sizeof g.e.message - 1);
    assert_guard_intact(&g);
    free(big);
}

static void error_functions_accept_a_null_record(void **state)
{
    (void)state;
    assert_int_equal(kiln_error_bad_bytes(NULL, "f", 1, "x"), KILN_E_FORMAT_INVALID);
    assert_int_equal(kiln_error_set(NULL, KILN_E_LIMIT, "x %d", 1), KILN_E_LIMIT);
    assert_int_equal(set_through_v(NULL, "y %s", "z"), KILN_E_USAGE);
    kiln_error_at_path(NULL, "p");
    kiln_error_at_offset(NULL, 1);
    kiln_error_at_pointer(NULL, "/p");
    kiln_error_prefix(NULL, "ctx %d: ", 3);
    kiln_error_clear(NULL);
    /* and a NULL string is ignored rather than copied */
    kiln_error e;
    kiln_error_set(&e, KILN_E_LIMIT, "m");
    kiln_error_at_path(&e, "keep");
    kiln_error_at_path(&e, NULL);
    kiln_error_at_pointer(&e, NULL);
    assert_string_equal(e.path, "keep");
    assert_int_equal(set_through_v(&e, "v%d", 9), KILN_E_USAGE);
    assert_string_equal(e.message, "v9");
}

/* ---- alloc -------------------------------------------------------------------------------- */

static void size_mul_detects_overflow_at_the_edges(void **state)
{
    (void)state;
    size_t out = 12345;
    assert_true(kiln_size_mul(SIZE_MAX, 1, &out) && out == SIZE_MAX);
    assert_true(kiln_size_mul(1, SIZE_MAX, &out) && out == SIZE_MAX);
    assert_true(kiln_size_mul(0, SIZE_MAX, &out) && out == 0);
    assert_true(kiln_size_mul(SIZE_MAX, 0, &out) && out == 0);
    assert_true(kiln_size_mul(SIZE_MAX / 2, 2, &out) && out == SIZE_MAX - 1);
    out = 12345;
    assert_false(kiln_size_mul(SIZE_MAX / 2 + 1, 2, &out));
    assert_int_equal(out, 12345); /* untouched */
    assert_false(kiln_size_mul(SIZE_MAX, 2, &out));
    assert_false(kiln_size_mul(2, SIZE_MAX, &out));
    assert_false(kiln_size_mul(SIZE_MAX, SIZE_MAX, &out));
    size_t half = (size_t)1 << (sizeof(size_t) * 4);      /* 2^32 on 64-bit */
    assert_false(kiln_size_mul(half, half, &out));        /* exactly 2^64 */
    assert_true(kiln_size_mul(half - 1, half + 1, &out)); /* 2^64 - 1 */
    assert_true(out == SIZE_MAX);
    assert_int_equal(out, SIZE_MAX);
}

static void size_add_detects_overflow_at_the_edges(void **state)
{
    (void)state;
    size_t out = 777;
    assert_true(kiln_size_add(SIZE_MAX, 0, &out) && out == SIZE_MAX);
    assert_true(kiln_size_add(0, SIZE_MAX, &out) && out == SIZE_MAX);
    assert_true(kiln_size_add(SIZE_MAX - 5, 5, &out) && out == SIZE_MAX);
    out = 777;
    assert_false(kiln_size_add(SIZE_MAX - 5, 6, &out));
    assert_false(kiln_size_add(SIZE_MAX, 1, &out));
    assert_false(kiln_size_add(1, SIZE_MAX, &out));
    assert_false(kiln_size_add(SIZE_MAX, SIZE_MAX, &out));
    assert_int_equal(out, 777);
}

static void allocator_hooks_receive_sizes_alignment_and_old_sizes(void **state)
{
    (void)state;
    kt_counting c;
    const kiln_allocator *a = kt_counting_init(&c, true);

    uint8_t *p = kiln_alloc(a, 100);
    assert_non_null(p);
    assert_int_equal(c.last_size, 100);
    assert_int_equal(c.last_align, 16);
    uint8_t *q = kiln_alloc_aligned(a, 10, 64);
    assert_non_null(q);
    assert_int_equal(c.last_align, 64);
    assert_int_equal((uintptr_t)q % 64, 0);
    kiln_free(a, q, 10);
    uint8_t *r = kiln_alloc_aligned(a, 10, 4); /* below 16 is raised to 16 */
    assert_int_equal(c.last_align, 16);
    kiln_free(a, r, 10);

    for (int i = 0; i < 100; i++) p[i] = (uint8_t)i;
    p = kiln_realloc(a, p, 100, 300);
    assert_non_null(p);
    assert_int_equal(c.last_old_size, 100);
    assert_int_equal(c.last_size, 300);
    for (int i = 0; i < 100; i++) assert_int_equal(p[i], i);
    p = kiln_realloc(a, p, 300, 50);
    assert_int_equal(c.last_old_size, 300);
    for (int i = 0; i < 50; i++) assert_int_equal(p[i], i);

    /* realloc to 0 frees with the old size; realloc of NULL allocates */
    assert_null(kiln_realloc(a, p, 50, 0));
    uint8_t *n = kiln_realloc(a, NULL, 0, 24);
    assert_non_null(n);
    assert_int_equal(c.allocs, 4);
    kiln_free(a, n, 24);
    kiln_free(a, NULL, 5); /* no-op, no hook call */
    assert_int_equal(c.frees, 4);

    char *s = kiln_strdup(a, "hello");
    assert_string_equal(s, "hello");
    assert_int_equal(c.last_size, 6);
    kiln_free(a, s, strlen(s) + 1);
    kt_counting_assert_clean(&c);
}

static void realloc_without_a_realloc_hook_moves_through_alloc_and_free(void **state)
{
    (void)state;
    kt_counting c;
    const kiln_allocator *a = kt_counting_init(&c, false);
    uint8_t *p = kiln_alloc(a, 40);
    memset(p, 7, 40);
    p = kiln_realloc(a, p, 40, 4000);
    assert_non_null(p);
    assert_int_equal(c.allocs, 2);
    assert_int_equal(c.frees, 1);
    assert_int_equal(c.size_mismatches, 0); /* old block freed with 40 */
    for (int i = 0; i < 40; i++) assert_int_equal(p[i], 7);
    p = kiln_realloc(a, p, 4000, 8);
    for (int i = 0; i < 8; i++) assert_int_equal(p[i], 7);
    kiln_free(a, p, 8);
    kt_counting_assert_clean(&c);
}

static void realloc_failure_returns_null_and_leaves_the_block(void **state)
{
    (void)state;
    for (int with_realloc = 0; with_realloc < 2; with_realloc++) {
        kt_counting c;
        const kiln_allocator *a = kt_counting_init(&c, with_realloc);
        uint8_t *p = kiln_alloc(a, 32);
        memset(p, 3, 32);
        c.fail_at = c.calls + 1;
        assert_null(kiln_realloc(a, p, 32, 64));
        assert_int_equal(c.failures, 1);
        for (int i = 0; i < 32; i++) assert_int_equal(p[i], 3);
        kiln_free(a, p, 32);
        kt_counting_assert_clean(&c);
    }
}

static void calloc_zeroes_and_returns_null_on_overflow_without_calling_the_hook(void **state)
{
    (void)state;
    kt_counting c;
    const kiln_allocator *a = kt_counting_init(&c, true);
    uint32_t *z = kiln_calloc(a, 33, sizeof *z);
    assert_non_null(z);
    assert_int_equal(c.last_size, 33 * sizeof *z);
    for (int i = 0; i < 33; i++) assert_int_equal(z[i], 0); /* the hook filled 0xA5 */
    kiln_free(a, z, 33 * sizeof *z);

    size_t before = c.calls;
    assert_null(kiln_calloc(a, SIZE_MAX / 4 + 1, 4));
    assert_null(kiln_calloc(a, 2, SIZE_MAX));
    assert_null(kiln_calloc(NULL, SIZE_MAX / 2 + 1, 2)); /* libc path too */
    assert_int_equal(c.calls, before);
    assert_null(kiln_calloc(a, 0, 8)); /* size 0 is NULL */
    assert_null(kiln_alloc(a, 0));
    assert_int_equal(c.calls, before);
    kt_counting_assert_clean(&c);
}

static void libc_allocator_honours_alignment_up_to_64(void **state)
{
    (void)state;
    static const size_t aligns[] = {1, 8, 16, 32, 64};
    kiln_allocator none = {0};
    for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; i++) {
        void *p = kiln_alloc_aligned(&none, 24, aligns[i]);
        assert_non_null(p);
        size_t want = aligns[i] < 16 ? 16 : aligns[i];
        assert_int_equal((uintptr_t)p % want, 0);
        kiln_free(&none, p, 24);
        p = kiln_alloc_aligned(NULL, 24, aligns[i]);
        assert_int_equal((uintptr_t)p % want, 0);
        kiln_free(NULL, p, 24);
    }
}

/* ---- buf ---------------------------------------------------------------------------------- */

static void buf_grows_and_keeps_every_byte(void **state)
{
    (void)state;
    kt_counting c;
    const kiln_allocator *a = kt_counting_init(&c, true);
    kiln_buf b;
    kiln_buf_init(&b, a);
    assert_null(b.data);
    assert_int_equal(b.size, 0);
    for (size_t i = 0; i < 100000; i++) {
        uint8_t v = (uint8_t)(i * 31 + 7);
        assert_true(kiln_buf_append(&b, &v, 1));
        assert_true(b.capacity >= b.size);
    }
    assert_int_equal(b.size, 100000);
    assert_false(b.failed);
    for (size_t i = 0; i < 100000; i++) assert_int_equal(b.data[i], (uint8_t)(i * 31 + 7));
    /* geometric growth: few reallocations for 100000 single-byte appends */
    assert_true(c.allocs + c.reallocs <= 20);
    assert_true(kiln_buf_append(&b, NULL, 0)); /* empty append is fine */
    kiln_buf_free(&b);
    assert_null(b.data);
    assert_int_equal(b.capacity, 0);
    kt_counting_assert_clean(&c);
}

static void buf_appends_strings_zeros_and_little_endian_integers(void **state)
{
    (void)state;
    kiln_buf b;
    kiln_buf_init(&b, NULL);
    assert_true(kiln_buf_append_str(&b, "KILN"));
    assert_true(kiln_buf_append_u32le(&b, 0x11223344u));
    assert_true(kiln_buf_append_u64le(&b, 0x0102030405060708ull));
    assert_true(kiln_buf_append_zeros(&b, 3));
    static const uint8_t want[] = {'K', 'I', 'L', 'N', 0x44, 0x33, 0x22, 0x11, 8, 7,
                                   6,   5,   4,   3,   2,    1,    0,    0,    0};
    assert_int_equal(b.size, sizeof want);
    assert_memory_equal(b.data, want, sizeof want);
    kiln_buf_free(&b);
}

static void buf_align_pads_with_zeros_to_the_next_multiple(void **state)
{
    (void)state;
    kiln_buf b;
    kiln_buf_init(&b, NULL);
    assert_true(kiln_buf_append(&b, "\xff\xff\xff\xff\xff", 5));
    assert_true(kiln_buf_align(&b, 16));
    assert_int_equal(b.size, 16);
    for (size_t i = 5; i < 16; i++) assert_int_equal(b.data[i], 0);
    assert_true(kiln_buf_align(&b, 16)); /* already aligned: unchanged */
    assert_int_equal(b.size, 16);
    assert_true(kiln_buf_align(&b, 1));
    assert_true(kiln_buf_align(&b, 0)); /* 0 means no alignment */
    assert_int_equal(b.size, 16);
    assert_true(kiln_buf_append(&b, "x", 1));
    assert_true(kiln_buf_align(&b, 12)); /* not a power of two */
    assert_int_equal(b.size, 24);
    assert_true(kiln_buf_align(&b, 4096));
    assert_int_equal(b.size, 4096);
    kiln_buf_free(&b);
}

static void buf_detach_hands_over_the_bytes_and_resets(void **state)
{
    (void)state;
    kt_counting c;
    const kiln_allocator *a = kt_counting_init(&c, true);
    kiln_buf b;
    kiln_buf_init(&b, a);
    for (int i = 0; i < 1000; i++) kiln_buf_append_u32le(&b, (uint32_t)i);
    size_t size = 0, cap = 0;
    uint8_t *p = kiln_buf_detach(&b, &size, &cap);
    assert_non_null(p);
    assert_int_equal(size, 4000);
    assert_true(cap >= size);
    assert_null(b.data);
    assert_int_equal(b.size, 0);
    assert_int_equal(b.capacity, 0);
    assert_ptr_equal(b.alloc, a); /* the allocator stays for reuse */
    kiln_reader r = kiln_reader_make(p, size);
    for (uint32_t i = 0; i < 1000; i++) assert_int_equal(kiln_read_u32le(&r), i);
    assert_false(r.failed);
    /* the buffer is reusable, and the detached block is freed with its capacity */
    assert_true(kiln_buf_append_str(&b, "again"));
    kiln_free(a, p, cap);
    kiln_buf_free(&b);
    kt_counting_assert_clean(&c);
}

/* The same sequence of writes against an allocator that fails the Nth call, for every N. */
static size_t buf_script(kiln_buf *b)
{
    size_t ok_calls = 0;
    for (int i = 0; i < 300; i++) {
        ok_calls += kiln_buf_append_u64le(b, (uint64_t)i * 0x9E3779B97F4A7C15ull);
        ok_calls += kiln_buf_append_str(b, "asset");
        ok_calls += kiln_buf_align(b, 16);
        if (i % 50 == 0) ok_calls += kiln_buf_append_zeros(b, 1000);
    }
    return ok_calls;
}

static void buf_failure_is_sticky_for_every_failing_allocation(void **state)
{
    (void)state;
    kt_counting c;
    const kiln_allocator *a = kt_counting_init(&c, true);
    kiln_buf ref;
    kiln_buf_init(&ref, a);
    size_t all_ok = buf_script(&ref);
    assert_false(ref.failed);
    size_t total_calls = c.calls;
    assert_true(total_calls >= 5);

    for (size_t n = 1; n <= total_calls + 1; n++) {
        kt_counting f;
        const kiln_allocator *fa = kt_counting_init(&f, n % 2 == 0);
        f.fail_at = n;
        kiln_buf b;
        kiln_buf_init(&b, fa);
        size_t ok = buf_script(&b);
        if (n > total_calls) {
            assert_false(b.failed);
            assert_int_equal(ok, all_ok);
            assert_int_equal(b.size, ref.size);
            assert_memory_equal(b.data, ref.data, ref.size);
        } else {
            assert_true(b.failed);
            assert_true(ok < all_ok);
            /* sticky: no allocation was attempted after the failed one */
            assert_int_equal(f.calls, n);
            size_t size = b.size;
            assert_false(kiln_buf_append(&b, "x", 1));
            assert_false(kiln_buf_append(&b, "", 0));
            assert_false(kiln_buf_append_zeros(&b, 0));
            assert_false(kiln_buf_reserve(&b, 0));
            assert_int_equal(b.size, size);
            assert_true(b.size <= b.capacity);
            /* what was written before the failure is intact */
            if (b.size) assert_memory_equal(b.data, ref.data, b.size);
        }
        kiln_buf_free(&b);
        kt_counting_assert_clean(&f);
    }
    kiln_buf_free(&ref);
    kt_counting_assert_clean(&c);
}

static void buf_reserve_of_an_impossible_size_fails_without_allocating(void **state)
{
    (void)state;
    kt_counting c;
    const kiln_allocator *a = kt_counting_init(&c, true);
    kiln_buf b;
    kiln_buf_init(&b, a);
    assert_true(kiln_buf_append(&b, "abc", 3));
    size_t calls = c.calls;
    assert_false(kiln_buf_reserve(&b, SIZE_MAX - 1)); /* size + extra wraps */
    assert_true(b.failed);
    assert_int_equal(c.calls, calls);
    assert_int_equal(b.size, 3);
    kiln_buf_free(&b);
    kt_counting_assert_clean(&c);
}

/* ---- reader ------------------------------------------------------------------------------- */

static void reader_reads_little_endian_integers(void **state)
{
    (void)state;
    static const uint8_t bytes[] = {0xAB, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0xEF, 0xCD,
                                    0xAB, 0x89, 0x67, 0x45, 0x23, 0x01, 0xFF, 0xFF};
    kiln_reader r = kiln_reader_make(bytes, sizeof bytes);
    assert_int_equal(kiln_read_u8(&r), 0xAB);
    assert_int_equal(kiln_read_u16le(&r), 0x1234);
    assert_int_equal(kiln_read_u32le(&r), 0x12345678u);
    assert_true(kiln_read_u64le(&r) == 0x0123456789ABCDEFull);
    assert_int_equal(kiln_read_u16le(&r), 0xFFFF);
    assert_false(r.failed);
    assert_int_equal(r.pos, sizeof bytes);

    uint8_t out[8];
    kiln_store_u16le(out, 0xBEEF);
    assert_memory_equal(out, "\xEF\xBE", 2);
    kiln_store_u32le(out, 0xDEADBEEFu);
    assert_memory_equal(out, "\xEF\xBE\xAD\xDE", 4);
    kiln_store_u64le(out, 0x0102030405060708ull);
    assert_memory_equal(out, "\x08\x07\x06\x05\x04\x03\x02\x01", 8);
    kiln_reader r2 = kiln_reader_make(out, 8);
    assert_true(kiln_read_u64le(&r2) == 0x0102030405060708ull);
}

static void loads_and_stores_carry_floats_and_u16_little_endian(void **state)
{
    (void)state;
    uint8_t b[16];
    kiln_store_f32le(b, 1.5f); /* 0x3FC00000 */
    assert_memory_equal(b, "\x00\x00\xC0\x3F", 4);
    assert_true(kiln_load_f32le(b) == 1.5f);
    kiln_store_f64le(b, -2.0); /* 0xC000000000000000 */
    assert_memory_equal(b, "\x00\x00\x00\x00\x00\x00\x00\xC0", 8);
    assert_true(kiln_load_f64le(b) == -2.0);
    assert_true(kiln_f32_bits(-0.0f) == 0x80000000u);
    assert_true(kiln_f32_from_bits(0x7F800000u) == INFINITY);
    assert_true(kiln_f64_bits(1.0) == 0x3FF0000000000000ull);
    assert_true(kiln_f64_from_bits(0x4000000000000000ull) == 2.0);
    kiln_store_u16le(b, 0xA1B2);
    assert_int_equal(kiln_load_u16le(b), 0xA1B2);

    /* Arrays at an odd address (no alignment asked for). */
    const float v[3] = {0.25f, -8.0f, 1e30f};
    float back[3];
    kiln_store_f32le_array(b + 1, v, 3);
    assert_memory_equal(b + 1, "\x00\x00\x80\x3E", 4);
    kiln_load_f32le_array(b + 1, back, 3);
    assert_memory_equal(back, v, sizeof v);

    /* Through a reader: the value, then 0 once the bytes run out. */
    kiln_reader r = kiln_reader_make(b + 1, 10);
    assert_true(kiln_read_f32le(&r) == 0.25f);
    assert_true(kiln_read_f32le(&r) == -8.0f);
    assert_true(kiln_read_f64le(&r) == 0.0);
    assert_true(r.failed);
    assert_true(kiln_read_f32le(&r) == 0.0f);
}

static void reader_failure_is_sticky_and_returns_zeros(void **state)
{
    (void)state;
    static const uint8_t bytes[] = {1, 2, 3, 4, 5, 6};
    kiln_reader r = kiln_reader_make(bytes, sizeof bytes);
    assert_int_equal(kiln_read_u32le(&r), 0x04030201u);
    assert_int_equal(kiln_read_u32le(&r), 0); /* only 2 left */
    assert_true(r.failed);
    assert_int_equal(r.pos, 4); /* a failed read does not move */
    /* after the failure even reads that would fit fail */
    assert_int_equal(kiln_read_u8(&r), 0);
    assert_int_equal(kiln_read_u16le(&r), 0);
    assert_null(kiln_reader_take(&r, 0));
    assert_false(kiln_reader_seek(&r, 0));
    assert_true(r.failed);
}

static void reader_u64_short_read_returns_zero_and_does_not_move(void **state)
{
    (void)state;
    /* 6 bytes: the low half would fit, the high half not. A short read returns 0, as every
     * other reader function does, not the low half. */
    static const uint8_t bytes[] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66};
    kiln_reader r = kiln_reader_make(bytes, sizeof bytes);
    assert_true(kiln_read_u64le(&r) == 0);
    assert_true(r.failed);
    assert_int_equal(r.pos, 0);
}

static void reader_take_rejects_sizes_that_would_wrap_the_position(void **state)
{
    (void)state;
    uint8_t bytes[16] = {0};
    kiln_reader r = kiln_reader_make(bytes, sizeof bytes);
    assert_true(kiln_reader_seek(&r, 10));
    /* pos + n wraps around to 4, which is < size: a naive check would pass */
    assert_null(kiln_reader_take(&r, SIZE_MAX - 5));
    assert_true(r.failed);
    assert_int_equal(r.pos, 10);

    r = kiln_reader_make(bytes, sizeof bytes);
    assert_null(kiln_reader_take(&r, SIZE_MAX));
    assert_true(r.failed);

    r = kiln_reader_make(bytes, sizeof bytes);
    assert_true(kiln_reader_seek(&r, 16)); /* the end itself is a valid position */
    assert_non_null(kiln_reader_take(&r, 0));
    assert_null(kiln_reader_take(&r, 1));

    r = kiln_reader_make(bytes, sizeof bytes);
    assert_false(kiln_reader_seek(&r, 17));
    assert_true(r.failed);

    r = kiln_reader_make(bytes, sizeof bytes);
    const uint8_t *p = kiln_reader_take(&r, 16); /* exactly everything */
    assert_ptr_equal(p, bytes);
    assert_int_equal(r.pos, 16);
    assert_false(r.failed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(result_name_is_stable_for_every_code_and_unknown_otherwise),
        cmocka_unit_test(error_set_fills_code_and_message_and_clears_location),
        cmocka_unit_test(error_set_truncates_a_10k_message_without_overflow),
        cmocka_unit_test(error_at_path_and_pointer_truncate_10k_strings_without_overflow),
        cmocka_unit_test(error_prefix_keeps_context_and_cuts_the_old_message_end),
        cmocka_unit_test(error_bad_bytes_names_the_format_and_the_offset),
        cmocka_unit_test(error_functions_accept_a_null_record),
        cmocka_unit_test(size_mul_detects_overflow_at_the_edges),
        cmocka_unit_test(size_add_detects_overflow_at_the_edges),
        cmocka_unit_test(allocator_hooks_receive_sizes_alignment_and_old_sizes),
        cmocka_unit_test(realloc_without_a_realloc_hook_moves_through_alloc_and_free),
        cmocka_unit_test(realloc_failure_returns_null_and_leaves_the_block),
        cmocka_unit_test(calloc_zeroes_and_returns_null_on_overflow_without_calling_the_hook),
        cmocka_unit_test(libc_allocator_honours_alignment_up_to_64),
        cmocka_unit_test(buf_grows_and_keeps_every_byte),
        cmocka_unit_test(buf_appends_strings_zeros_and_little_endian_integers),
        cmocka_unit_test(buf_align_pads_with_zeros_to_the_next_multiple),
        cmocka_unit_test(buf_detach_hands_over_the_bytes_and_resets),
        cmocka_unit_test(buf_failure_is_sticky_for_every_failing_allocation),
        cmocka_unit_test(buf_reserve_of_an_impossible_size_fails_without_allocating),
        cmocka_unit_test(reader_reads_little_endian_integers),
        cmocka_unit_test(loads_and_stores_carry_floats_and_u16_little_endian),
        cmocka_unit_test(reader_failure_is_sticky_and_returns_zeros),
        cmocka_unit_test(reader_u64_short_read_returns_zero_and_does_not_move),
        cmocka_unit_test(reader_take_rejects_sizes_that_would_wrap_the_position),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
