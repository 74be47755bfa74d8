/* test_uri.c — import/uri.h: the percent-decoding table, base64 data URIs against the RFC 4648
 * vectors and malformed text, the size limit checked before any allocation, media types, and
 * file references resolved and confined over a temporary tree with symlinks. */
#include "support.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/file.h"
#include "core/path.h"
#include "import/uri.h"

/* Formats a path that must fit (kiln_path_format, so a cut path fails the test). */
#define FMT(buf, ...) assert_true(kiln_path_format(buf, sizeof buf, __VA_ARGS__))

/* An allocator that counts calls and live bytes, and checks each free names its size. */
typedef struct counting {
    kiln_allocator hooks;
    size_t calls, live_bytes, frees, bad_frees;
} counting;

static void *count_alloc(void *user, size_t size, size_t align)
{
    counting *c = user;
    (void)align;
    c->calls++;
    c->live_bytes += size;
    return malloc(size);
}

static void count_free(void *user, void *ptr, size_t size)
{
    counting *c = user;
    c->frees++;
    if (size > c->live_bytes) c->bad_frees++;
    else c->live_bytes -= size;
    free(ptr);
}

static const kiln_allocator *counting_init(counting *c)
{
    memset(c, 0, sizeof *c);
    c->hooks.alloc = count_alloc;
    c->hooks.free = count_free;
    c->hooks.user = c;
    return &c->hooks;
}

/* ---- percent-decoding --------------------------------------------------------------------- */

static void percent_decode_gives_the_table_results(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"", ""},
        {"plain.bin", "plain.bin"},
        {"Normal%20Map.png", "Normal Map.png"},
        {"Box With Spaces.bin", "Box With Spaces.bin"},
        {"%41%62%7a%7A", "Abzz"},
        {"%2F%2e%2E", "/.."},
        {"100%25", "100%"},
        {"%25%32%30", "%20"}, /* decoded once only */
        {"Unicode\xE2\x9D\xA4\xE2\x99\xBBTest", "Unicode\xE2\x9D\xA4\xE2\x99\xBBTest"},
        {"%E2%9D%A4.png", "\xE2\x9D\xA4.png"},
        {"%ff", "\xFF"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[64];
        kiln_error e;
        kiln_result r = kiln_uri_percent_decode(cases[i].in, out, sizeof out, &e);
        if (r != KILN_OK || strcmp(out, cases[i].out) != 0)
            fail_msg("decode(\"%s\") = %s \"%s\", want \"%s\"", cases[i].in, kiln_result_name(r),
                     r == KILN_OK ? out : e.message, cases[i].out);
    }
}

static void percent_decode_rejects_invalid_escapes_and_nul_naming_the_uri(void **state)
{
    (void)state;
    static const char *const bad[] = {"%",    "a%",   "a%2", "%2g",   "%g2",
                                      "%%20", "x%-1", "%00", "a%00b", "%0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char out[64];
        kiln_error e;
        kiln_result r = kiln_uri_percent_decode(bad[i], out, sizeof out, &e);
        if (r != KILN_E_IMPORT_FAILED) fail_msg("decode(\"%s\") = %s", bad[i], kiln_result_name(r));
        char quoted[80];
        snprintf(quoted, sizeof quoted, "\"%s\"", bad[i]);
        if (!strstr(e.message, quoted)) fail_msg("message does not name %s: %s", quoted, e.message);
    }
}

static void percent_decode_works_in_place_and_refuses_a_short_buffer(void **state)
{
    (void)state;
    char p[32] = "a%20b%2Fc";
    assert_int_equal(kiln_uri_percent_decode(p, p, sizeof p, NULL), KILN_OK);
    assert_string_equal(p, "a b/c");
    char small[5];
    kiln_error e;
    assert_int_equal(kiln_uri_percent_decode("abcde", small, sizeof small, &e), KILN_E_LIMIT);
    assert_int_equal(kiln_uri_percent_decode("ab%20de", small, sizeof small, &e), KILN_E_LIMIT);
    assert_int_equal(kiln_uri_percent_decode("ab%20d", small, sizeof small, &e), KILN_OK);
    assert_string_equal(small, "ab d");
}

/* ---- data URIs ---------------------------------------------------------------------------- */

static void is_data_recognises_the_scheme_in_any_case(void **state)
{
    (void)state;
    assert_true(kiln_uri_is_data("data:,"));
    assert_true(kiln_uri_is_data("DATA:application/octet-stream;base64,AA=="));
    assert_true(kiln_uri_is_data("Data:"));
    assert_false(kiln_uri_is_data("data"));
    assert_false(kiln_uri_is_data(""));
    assert_false(kiln_uri_is_data("data.bin"));
    assert_false(kiln_uri_is_data("dat:a,"));
    assert_false(kiln_uri_is_data(" data:,"));
}

static void decode_data_gives_the_rfc4648_vectors(void **state)
{
    (void)state;
    static const struct {
        const char *b64, *plain;
    } v[] = {
        {"", ""},
        {"Zg==", "f"},
        {"Zm8=", "fo"},
        {"Zm9v", "foo"},
        {"Zm9vYg==", "foob"},
        {"Zm9vYmE=", "fooba"},
        {"Zm9vYmFy", "foobar"},
        /* the one leniency: missing final padding */
        {"Zg", "f"},
        {"Zm8", "fo"},
        {"Zm9vYg", "foob"},
        {"Zm9vYmE", "fooba"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char uri[128];
        snprintf(uri, sizeof uri, "data:application/octet-stream;base64,%s", v[i].b64);
        counting c;
        const kiln_allocator *a = counting_init(&c);
        uint8_t *data = (uint8_t *)1;
        size_t size = 99;
        kiln_error e;
        kiln_result r = kiln_uri_decode_data(uri, 1024, a, &data, &size, NULL, 0, &e);
        if (r != KILN_OK) fail_msg("%s: %s", uri, e.message);
        size_t n = strlen(v[i].plain);
        if (size != n || (n && memcmp(data, v[i].plain, n) != 0))
            fail_msg("%s: got %zu bytes, want \"%s\"", uri, size, v[i].plain);
        if (n == 0) assert_null(data);
        assert_int_equal(c.calls, n ? 1 : 0);
        assert_int_equal(c.live_bytes, n); /* allocated exactly size bytes */
        kiln_free(a, data, size);
        assert_int_equal(c.live_bytes, 0);
        assert_int_equal(c.bad_frees, 0);
    }
}

static void decode_data_decodes_all_byte_values(void **state)
{
    (void)state;
    /* 0x00..0xFF encoded with the standard alphabet (generated by a reference encoder here). */
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint8_t bytes[256];
    for (int i = 0; i < 256; i++) bytes[i] = (uint8_t)i;
    char uri[512] = "data:;base64,";
    size_t o = strlen(uri);
    for (size_t i = 0; i < 256; i += 3) {
        uint32_t g = (uint32_t)bytes[i] << 16;
        if (i + 1 < 256) g |= (uint32_t)bytes[i + 1] << 8;
        if (i + 2 < 256) g |= bytes[i + 2];
        uri[o++] = alphabet[g >> 18];
        uri[o++] = alphabet[(g >> 12) & 63];
        uri[o++] = i + 1 < 256 ? alphabet[(g >> 6) & 63] : '=';
        uri[o++] = i + 2 < 256 ? alphabet[g & 63] : '=';
    }
    uri[o] = '\0';
    uint8_t *data;
    size_t size;
    assert_int_equal(kiln_uri_decode_data(uri, 256, NULL, &data, &size, NULL, 0, NULL), KILN_OK);
    assert_int_equal(size, 256);
    assert_memory_equal(data, bytes, 256);
    kiln_free(NULL, data, size);
}

static void decode_data_rejects_bad_base64_without_allocating(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "Zm9v YmFy",  /* space */
        "Zm9v\nYmFy", /* newline */
        "Zm9v-_Fy",   /* base64url alphabet */
        "Zm9v%59mFy", /* percent escape */
        "Zg=a",       /* padding in the middle */
        "Z===",       /* three '=' */
        "=Zg=",       /* padding first */
        "Zg==Zg==",   /* padding then more data */
        "Zg=",        /* padding that does not complete the group */
        "Zm9vY",      /* a final group of one character */
        "Zh==",       /* non-zero unused bits */
        "Zm9=",       /* non-zero unused bits */
        "Zm9v\xC3\xA4",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char uri[128];
        snprintf(uri, sizeof uri, "data:application/octet-stream;base64,%s", bad[i]);
        counting c;
        const kiln_allocator *a = counting_init(&c);
        uint8_t *data = (uint8_t *)1;
        size_t size = 99;
        kiln_error e;
        kiln_result r = kiln_uri_decode_data(uri, 1024, a, &data, &size, NULL, 0, &e);
        if (r != KILN_E_IMPORT_FAILED) fail_msg("\"%s\" gave %s", bad[i], kiln_result_name(r));
        assert_null(data);
        assert_int_equal(size, 0);
        assert_int_equal(c.calls, 0);
        if (!strstr(e.message, "data:application/octet-stream;base64,"))
            fail_msg("message does not name the URI: %s", e.message);
    }
}

static void decode_data_over_max_size_is_refused_before_allocating(void **state)
{
    (void)state;
    counting c;
    const kiln_allocator *a = counting_init(&c);
    uint8_t *data;
    size_t size;
    kiln_error e;
    /* "Zm9vYmFy" is 6 bytes: 5 is over, 6 is not. */
    assert_int_equal(kiln_uri_decode_data("data:;base64,Zm9vYmFy", 5, a, &data, &size, NULL, 0, &e),
                     KILN_E_LIMIT);
    assert_int_equal(c.calls, 0);
    assert_non_null(strstr(e.message, "6 bytes"));
    assert_int_equal(kiln_uri_decode_data("data:,abc%20def", 6, a, &data, &size, NULL, 0, &e),
                     KILN_E_LIMIT);
    assert_int_equal(c.calls, 0);
    /* A large URI: 3 MiB declared, 1 MiB allowed, nothing allocated. */
    size_t n = 4u << 20;
    char *big = malloc(n + 32);
    assert_non_null(big);
    strcpy(big, "data:;base64,");
    memset(big + strlen(big), 'A', n);
    big[13 + n] = '\0';
    assert_int_equal(kiln_uri_decode_data(big, 1u << 20, a, &data, &size, NULL, 0, &e),
                     KILN_E_LIMIT);
    assert_int_equal(c.calls, 0);
    free(big);
    assert_int_equal(kiln_uri_decode_data("data:;base64,Zm9vYmFy", 6, a, &data, &size, NULL, 0, &e),
                     KILN_OK);
    assert_int_equal(c.calls, 1);
    kiln_free(a, data, size);
    assert_int_equal(c.live_bytes, 0);
}

static void decode_data_percent_decodes_plain_data_keeping_zero_bytes(void **state)
{
    (void)state;
    uint8_t *data;
    size_t size;
    char mt[32];
    assert_int_equal(kiln_uri_decode_data("data:,A%20brief%00note%FF", 64, NULL, &data, &size, mt,
                                          sizeof mt, NULL),
                     KILN_OK);
    assert_int_equal(size, 13);
    assert_memory_equal(data, "A brief\0note\xFF", 13);
    assert_string_equal(mt, "text/plain");
    kiln_free(NULL, data, size);
    kiln_error e;
    assert_int_equal(kiln_uri_decode_data("data:,bad%2", 64, NULL, &data, &size, NULL, 0, &e),
                     KILN_E_IMPORT_FAILED);
    assert_null(data);
}

static void decode_data_reports_media_types(void **state)
{
    (void)state;
    static const struct {
        const char *uri, *type;
    } cases[] = {
        {"data:application/octet-stream;base64,AAEC", "application/octet-stream"},
        {"data:application/gltf-buffer;base64,AAEC", "application/gltf-buffer"},
        {"data:image/png;base64,AAEC", "image/png"},
        {"data:IMAGE/JPEG;BASE64,AAEC", "image/jpeg"},
        {"data:image/png;name=a.png;base64,AAEC", "image/png"},
        {"data:;base64,AAEC", "text/plain"},
        {"data:text/plain;charset=utf-8,%00%01%02", "text/plain"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *data;
        size_t size;
        char mt[64];
        kiln_error e;
        kiln_result r =
            kiln_uri_decode_data(cases[i].uri, 64, NULL, &data, &size, mt, sizeof mt, &e);
        if (r != KILN_OK) fail_msg("%s: %s", cases[i].uri, e.message);
        assert_string_equal(mt, cases[i].type);
        assert_int_equal(size, 3);
        assert_memory_equal(data, "\0\1\2", 3);
        kiln_free(NULL, data, size);
    }
    uint8_t *data;
    size_t size;
    char tiny[6];
    kiln_error e;
    assert_int_equal(kiln_uri_decode_data("data:image/png;base64,AAEC", 64, NULL, &data, &size,
                                          tiny, sizeof tiny, &e),
                     KILN_E_LIMIT);
    assert_int_equal(
        kiln_uri_decode_data("data:image/png;base64", 64, NULL, &data, &size, NULL, 0, &e),
        KILN_E_IMPORT_FAILED);
    assert_int_equal(kiln_uri_decode_data("buffer.bin", 64, NULL, &data, &size, NULL, 0, &e),
                     KILN_E_USAGE);
}

/* ---- file references ---------------------------------------------------------------------- */

typedef struct tree {
    char *root;               /* temp folder */
    char *base;               /* root/base: the glTF's folder */
    char real[KILN_PATH_MAX]; /* base with symlinks resolved ($TMPDIR may be a link) */
} tree;

/* root/base/{a.bin, Box With Spaces.bin, ❤.bin, sub/b.bin, out -> ../secret.bin,
 * in -> sub/b.bin, subdir -> sub}, root/secret.bin */
static void make_tree(tree *t)
{
    t->root = kt_tempdir("uri");
    t->base = kt_format("%s/base", t->root);
    static const char *const files[] = {"a.bin", "Box With Spaces.bin", "\xE2\x9D\xA4.bin",
                                        "sub/b.bin"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *p = kt_format("%s/%s", t->base, files[i]);
        kt_write_file(p, "x", 1);
        free(p);
    }
    char *secret = kt_format("%s/secret.bin", t->root);
    kt_write_file(secret, "s", 1);
    char *out = kt_format("%s/out", t->base), *in = kt_format("%s/in", t->base);
    char *subdir = kt_format("%s/subdir", t->base), *abs_out = kt_format("%s/abs_out", t->base);
    assert_int_equal(symlink("../secret.bin", out), 0);
    assert_int_equal(symlink(secret, abs_out), 0);
    assert_int_equal(symlink("sub/b.bin", in), 0);
    assert_int_equal(symlink("sub", subdir), 0);
    free(secret);
    free(out);
    free(in);
    free(subdir);
    free(abs_out);
    assert_non_null(realpath(t->base, t->real));
}

static void free_tree(tree *t)
{
    kt_rmtree(t->root);
    free(t->root);
    free(t->base);
}

static void resolve_accepts_relative_references_inside_the_folder(void **state)
{
    (void)state;
    tree t;
    make_tree(&t);
    static const struct {
        const char *uri, *rel;
    } cases[] = {
        {"a.bin", "a.bin"},
        {"./a.bin", "a.bin"},
        {"Box With Spaces.bin", "Box With Spaces.bin"},
        {"Box%20With%20Spaces.bin", "Box With Spaces.bin"},
        {"\xE2\x9D\xA4.bin", "\xE2\x9D\xA4.bin"},
        {"%E2%9D%A4.bin", "\xE2\x9D\xA4.bin"},
        {"sub/b.bin", "sub/b.bin"},
        {"sub//b.bin", "sub/b.bin"},
        {"sub/../a.bin", "a.bin"},
        {"in", "sub/b.bin"}, /* symlink inside pointing inside */
        {"subdir/b.bin", "sub/b.bin"},
        {"missing.bin", "missing.bin"}, /* existence is the opener's business */
        {"what%3F.bin", "what?.bin"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[KILN_PATH_MAX], want[KILN_PATH_MAX];
        kiln_error e;
        kiln_result r = kiln_uri_resolve_file(t.base, cases[i].uri, out, sizeof out, &e);
        if (r != KILN_OK) fail_msg("\"%s\": %s %s", cases[i].uri, kiln_result_name(r), e.message);
        FMT(want, "%s/%s", t.real, cases[i].rel);
        if (strcmp(out, want) != 0) fail_msg("\"%s\" gave %s, want %s", cases[i].uri, out, want);
    }
    free_tree(&t);
}

static void resolve_refuses_escapes_schemes_and_odd_references_naming_the_uri(void **state)
{
    (void)state;
    tree t;
    make_tree(&t);
    static const char *const refused[] = {
        "../x",
        "a/../../x",
        "..",
        "%2E%2E/secret.bin",
        "../secret.bin",
        "/etc/passwd",
        "%2Fetc/passwd",
        "//host/share/x",
        "http://x",
        "file:///x",
        "HTTPS://example.com/a.bin",
        "C:/x.bin",
        "c:x.bin",
        "data:,abc",
        "a.bin?v=2",
        "a.bin#frag",
        "sub\\b.bin",
        "sub%5Cb.bin",
        "",
        "sub/",
        ".",
        "sub/..",
        "out",
        "abs_out",
        "sub/../out",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char out[KILN_PATH_MAX] = "unchanged";
        kiln_error e;
        kiln_result r = kiln_uri_resolve_file(t.base, refused[i], out, sizeof out, &e);
        if (r != KILN_E_OUTPUT_REFUSED)
            fail_msg("\"%s\" gave %s (%s)", refused[i], kiln_result_name(r),
                     r == KILN_OK ? out : e.message);
        char quoted[80];
        snprintf(quoted, sizeof quoted, "URI \"%s\"", refused[i]);
        if (strncmp(e.message, quoted, strlen(quoted)) != 0)
            fail_msg("message does not name %s: %s", quoted, e.message);
        assert_string_equal(out, "");
    }
    kiln_error e;
    char out[KILN_PATH_MAX];
    assert_int_equal(kiln_uri_resolve_file(t.base, "a%2", out, sizeof out, &e),
                     KILN_E_IMPORT_FAILED);
    assert_int_equal(kiln_uri_resolve_file(t.base, "a%00b", out, sizeof out, &e),
                     KILN_E_IMPORT_FAILED);
    free_tree(&t);
}

static void resolve_refuses_a_symlink_out_and_says_where_it_leads(void **state)
{
    (void)state;
    tree t;
    make_tree(&t);
    char out[KILN_PATH_MAX];
    kiln_error e;
    assert_int_equal(kiln_uri_resolve_file(t.base, "out", out, sizeof out, &e),
                     KILN_E_OUTPUT_REFUSED);
    assert_non_null(strstr(e.message, "symlink"));
    assert_non_null(strstr(e.message, "secret.bin"));
    /* A base folder reached through a symlink is the same folder. */
    char *alias = kt_format("%s/alias", t.root);
    assert_int_equal(symlink("base", alias), 0);
    assert_int_equal(kiln_uri_resolve_file(alias, "in", out, sizeof out, &e), KILN_OK);
    char want[KILN_PATH_MAX];
    FMT(want, "%s/sub/b.bin", t.real);
    assert_string_equal(out, want);
    assert_int_equal(kiln_uri_resolve_file(alias, "out", out, sizeof out, &e),
                     KILN_E_OUTPUT_REFUSED);
    free(alias);
    free_tree(&t);
}

static void resolve_takes_a_relative_base_from_the_current_folder(void **state)
{
    (void)state;
    tree t;
    make_tree(&t);
    char cwd[KILN_PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(t.root), 0);
    char out[KILN_PATH_MAX], want[KILN_PATH_MAX];
    kiln_result r = kiln_uri_resolve_file("base", "sub/b.bin", out, sizeof out, NULL);
    kiln_result r2 = kiln_uri_resolve_file("base", "../secret.bin", want, sizeof want, NULL);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(r, KILN_OK);
    assert_int_equal(r2, KILN_E_OUTPUT_REFUSED);
    FMT(want, "%s/sub/b.bin", t.real);
    assert_string_equal(out, want);
    char small[8];
    assert_int_equal(kiln_uri_resolve_file(t.base, "a.bin", small, sizeof small, NULL),
                     KILN_E_LIMIT);
    free_tree(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(percent_decode_gives_the_table_results),
        cmocka_unit_test(percent_decode_rejects_invalid_escapes_and_nul_naming_the_uri),
        cmocka_unit_test(percent_decode_works_in_place_and_refuses_a_short_buffer),
        cmocka_unit_test(is_data_recognises_the_scheme_in_any_case),
        cmocka_unit_test(decode_data_gives_the_rfc4648_vectors),
        cmocka_unit_test(decode_data_decodes_all_byte_values),
        cmocka_unit_test(decode_data_rejects_bad_base64_without_allocating),
        cmocka_unit_test(decode_data_over_max_size_is_refused_before_allocating),
        cmocka_unit_test(decode_data_percent_decodes_plain_data_keeping_zero_bytes),
        cmocka_unit_test(decode_data_reports_media_types),
        cmocka_unit_test(resolve_accepts_relative_references_inside_the_folder),
        cmocka_unit_test(resolve_refuses_escapes_schemes_and_odd_references_naming_the_uri),
        cmocka_unit_test(resolve_refuses_a_symlink_out_and_says_where_it_leads),
        cmocka_unit_test(resolve_takes_a_relative_base_from_the_current_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
