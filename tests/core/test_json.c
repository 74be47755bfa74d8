/* test_json.c — json.h: load errors with line and column, duplicate keys, the canonical form
 * of cache keys, the pretty form of files, and the tolerant accessors. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/json.h"
#include "core/json_fast.h"

static void json_load_syntax_error_gives_code_line_and_column(void **state)
{
    (void)state;
    static const char text[] = "{\n  \"a\": 1,\n  \"b\": }\n";
    kiln_error e;
    json_t *j = kiln_json_load(text, strlen(text), "tex/wall.png.meta", KILN_E_IMPORT_SETTINGS, &e);
    assert_null(j);
    assert_int_equal(e.code, KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(e.message, "tex/wall.png.meta: line 3, column 8: "));
    assert_string_equal(e.path, "tex/wall.png.meta");
    assert_true(e.offset != UINT64_MAX);
    assert_true(e.offset <= strlen(text));

    /* without a path the message starts with the line; the code is the caller's */
    j = kiln_json_load("[1, 2", 5, NULL, KILN_E_CACHE_CORRUPT, &e);
    assert_null(j);
    assert_int_equal(e.code, KILN_E_CACHE_CORRUPT);
    assert_memory_equal(e.message, "line 1, column ", 15);
    assert_string_equal(e.path, "");

    /* size bounds the text: the valid prefix alone parses, and the NULL record is allowed */
    j = kiln_json_load("{\"a\":1} trailing", 7, NULL, KILN_E_IMPORT_SETTINGS, NULL);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(j, "a")), 1);
    json_decref(j);
    assert_null(kiln_json_load("", 0, NULL, KILN_E_IMPORT_SETTINGS, NULL));
}

static void json_load_rejects_duplicate_keys(void **state)
{
    (void)state;
    static const char text[] = "{\"format\": \"bc7\", \"mips\": true, \"format\": \"rgba8\"}";
    kiln_error e;
    assert_null(kiln_json_load(text, strlen(text), "x.meta", KILN_E_IMPORT_SETTINGS, &e));
    assert_int_equal(e.code, KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(e.message, "format"));
    /* nested duplicates too */
    static const char nested[] = "{\"a\": {\"k\": 1, \"k\": 1}}";
    assert_null(kiln_json_load(nested, strlen(nested), NULL, KILN_E_IMPORT_SETTINGS, &e));
    /* the same key in two objects is fine */
    static const char ok[] = "{\"a\": {\"k\": 1}, \"b\": {\"k\": 1}}";
    json_t *j = kiln_json_load(ok, strlen(ok), NULL, KILN_E_IMPORT_SETTINGS, &e);
    assert_non_null(j);
    json_decref(j);
}

static json_t *build(int order)
{
    json_t *o = json_object(), *inner = json_object();
    if (order == 0) {
        json_object_set_new(inner, "d", json_true());
        json_object_set_new(inner, "c", json_pack("[ii]", 1, 2));
        json_object_set_new(o, "b", json_integer(1));
        json_object_set_new(o, "a", inner);
        json_object_set_new(o, "\xc3\xa9", json_string("\xc3\xbc \xf0\x9f\x98\x80"));
        json_object_set_new(o, "B", json_real(0.1));
        json_object_set_new(o, "s", json_string("q\"\\\n\t\x01/"));
    } else {
        json_object_set_new(o, "s", json_string("q\"\\\n\t\x01/"));
        json_object_set_new(o, "B", json_real(0.1));
        json_object_set_new(o, "\xc3\xa9", json_string("\xc3\xbc \xf0\x9f\x98\x80"));
        json_object_set_new(inner, "c", json_pack("[ii]", 1, 2));
        json_object_set_new(inner, "d", json_true());
        json_object_set_new(o, "a", inner);
        json_object_set_new(o, "b", json_integer(1));
    }
    return o;
}

static void json_canonical_dump_is_sorted_compact_ascii_and_order_independent(void **state)
{
    (void)state;
    json_t *x = build(0), *y = build(1);
    char *sx = kiln_json_dump_canonical(x), *sy = kiln_json_dump_canonical(y);
    assert_non_null(sx);
    assert_string_equal(sx, sy);
    assert_string_equal(sx, "{\"B\":0.10000000000000001,\"a\":{\"c\":[1,2],\"d\":true},\"b\":1,"
                            "\"s\":\"q\\\"\\\\\\n\\t\\u0001/\","
                            "\"\\u00E9\":\"\\u00FC \\uD83D\\uDE00\"}"); /* jansson: uppercase hex */
    for (const char *p = sx; *p; p++) assert_true((unsigned char)*p < 0x80);
    assert_null(strchr(sx, '\n'));

    /* it parses back to an equal value */
    json_t *back = kiln_json_load(sx, strlen(sx), NULL, KILN_E_INTERNAL, NULL);
    assert_non_null(back);
    assert_true(json_equal(back, x));
    json_decref(back);
    free(sx);
    free(sy);

    /* scalars at the top level are encoded too */
    json_t *n = json_integer(-42);
    char *sn = kiln_json_dump_canonical(n);
    assert_string_equal(sn, "-42");
    free(sn);
    json_decref(n);
    json_decref(x);
    json_decref(y);
}

static void json_pretty_dump_is_sorted_indented_and_ends_in_a_newline(void **state)
{
    (void)state;
    json_t *x = build(1);
    char *s = kiln_json_dump_pretty(x);
    assert_non_null(s);
    size_t n = strlen(s);
    assert_true(n > 2);
    assert_int_equal(s[n - 1], '\n');
    assert_int_not_equal(s[n - 2], '\n');
    assert_memory_equal(s, "{\n  \"B\": 0.10000000000000001,\n  \"a\": {\n    \"c\": [", 48);
    /* deterministic: another insertion order gives the same bytes */
    json_t *other = build(0);
    char *t = kiln_json_dump_pretty(other);
    assert_string_equal(s, t);
    free(t);
    json_decref(other);
    json_t *back = kiln_json_load(s, n, NULL, KILN_E_INTERNAL, NULL);
    assert_true(json_equal(back, x));
    json_decref(back);
    free(s);
    json_decref(x);
}

static void json_write_and_load_file_round_trip(void **state)
{
    (void)state;
    char *dir = kt_tempdir("json");
    char *p = kt_format("%s/m.json", dir);
    json_t *x = build(0);
    kiln_error e;
    assert_int_equal(kiln_json_write_atomic(p, x, &e), KILN_OK);
    json_t *back = kiln_json_load_file(p, 1 << 20, KILN_E_CACHE_CORRUPT, &e);
    assert_non_null(back);
    assert_true(json_equal(back, x));
    json_decref(back);
    size_t size;
    char *bytes = kt_read_file(p, &size);
    char *pretty = kiln_json_dump_pretty(x);
    assert_int_equal(size, strlen(pretty));
    assert_memory_equal(bytes, pretty, size);
    free(pretty);

    /* too big for the limit, missing, written anew over an existing file */
    assert_null(kiln_json_load_file(p, size - 1, KILN_E_CACHE_CORRUPT, &e));
    assert_int_equal(e.code, KILN_E_LIMIT);
    char *missing = kt_format("%s/missing.json", dir);
    assert_null(kiln_json_load_file(missing, 1 << 20, KILN_E_CACHE_CORRUPT, &e));
    assert_int_equal(e.code, KILN_E_ASSET_IO);
    assert_int_equal(kiln_json_write_new(p, x, &e), KILN_E_ASSET_IO);
    assert_int_equal(kiln_json_write_new(missing, x, &e), KILN_OK);
    free(bytes);

    /* a damaged file gives the caller's code with the path */
    kt_write_file(p, "{\"a\": [1,}", 10);
    assert_null(kiln_json_load_file(p, 1 << 20, KILN_E_CACHE_CORRUPT, &e));
    assert_int_equal(e.code, KILN_E_CACHE_CORRUPT);
    assert_string_equal(e.path, p);
    assert_non_null(strstr(e.message, "line 1, column"));
    free(missing);
    json_decref(x);
    free(p);
    kt_rmtree(dir);
    free(dir);
}

static void json_accessors_return_the_fallback_for_missing_or_mistyped_members(void **state)
{
    (void)state;
    static const char text[] =
        "{\"name\": \"fox\", \"count\": 12, \"big\": 9007199254740993, \"neg\": -5,"
        " \"real\": 3.0, \"str_num\": \"7\", \"null\": null, \"obj\": {}}";
    json_t *j = kiln_json_load(text, strlen(text), NULL, KILN_E_INTERNAL, NULL);
    assert_non_null(j);
    assert_string_equal(kiln_json_str(j, "name", "fb"), "fox");
    assert_string_equal(kiln_json_str(j, "missing", "fb"), "fb");
    assert_string_equal(kiln_json_str(j, "count", "fb"), "fb");
    assert_string_equal(kiln_json_str(j, "null", "fb"), "fb");
    assert_string_equal(kiln_json_str(j, "obj", "fb"), "fb");
    assert_null(kiln_json_str(j, "missing", NULL));
    assert_int_equal(kiln_json_int(j, "count", -1), 12);
    assert_true(kiln_json_int(j, "big", -1) == 9007199254740993LL);
    assert_int_equal(kiln_json_int(j, "neg", 0), -5);
    assert_int_equal(kiln_json_int(j, "real", -1), -1); /* a real is not an integer */
    assert_int_equal(kiln_json_int(j, "str_num", -1), -1);
    assert_int_equal(kiln_json_int(j, "missing", 77), 77);
    assert_int_equal(kiln_json_int(j, "name", 78), 78);
    /* a non-object or NULL container gives the fallback too */
    json_t *arr = json_array();
    assert_string_equal(kiln_json_str(arr, "name", "fa"), "fa");
    assert_int_equal(kiln_json_int(arr, "count", 3), 3);
    assert_string_equal(kiln_json_str(NULL, "name", "fn"), "fn");
    assert_int_equal(kiln_json_int(NULL, "count", 4), 4);
    json_decref(arr);
    json_decref(j);
}

/* The fast parser against jansson on one text: when it builds a tree, jansson accepts the text
 * too and builds an equal one. Returns whether the fast parser took it. */
static bool fast_agrees(const char *text, size_t size)
{
    json_t *fast = kiln_json_fast_parse(text, size);
    if (!fast) return false;
    json_error_t je;
    json_t *slow = json_loadb(text, size, JSON_REJECT_DUPLICATES, &je);
    if (!slow)
        fail_msg("fast parser accepted what jansson refuses (%s): %.*s", je.text, (int)size, text);
    if (!json_equal(fast, slow)) fail_msg("trees differ for: %.*s", (int)size, text);
    json_decref(fast);
    json_decref(slow);
    return true;
}

/* kiln_json_load's fast path: takes the common subset, gives up on the rest (jansson decides). */
static void json_fast_parser_agrees_with_jansson_or_gives_up(void **state)
{
    (void)state;
    const char *taken[] = {"{}",
                           "[]",
                           " [ 1 , -2 , 0 , -0 , 123456789012345678 ] ",
                           "{\"a\":{\"b\":[true,false,null]}}",
                           "[1.5, -0.25, 1e3, 2E-2, 6.02e+23, 1e-400, 0.1]",
                           "{\"\":\"\", \"s\":\"q\\\"\\\\\\/\\b\\f\\n\\r\\t\"}",
                           "\n\t{\"k\" : [ [ ] , { } ] }\r\n"};
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++)
        if (!fast_agrees(taken[i], strlen(taken[i]))) fail_msg("not taken: %s", taken[i]);
    /* Left to jansson: errors and what the subset leaves out. */
    const char *left[] = {"",
                          "1",
                          "\"s\"",
                          "{\"a\":1,\"a\":2}",
                          "[\"\\u0041\"]",
                          "[\"\xc3\xa9\"]",
                          "[1234567890123456789]",
                          "[1e400]",
                          "[01]",
                          "[1.]",
                          "[.5]",
                          "[-]",
                          "[1,]",
                          "{\"a\":1,}",
                          "[1] x",
                          "[tru]",
                          "{\"a\" 1}",
                          "[\"a\x01\"]",
                          "[\"\\x\"]",
                          "{1:2}",
                          "[1]\0"};
    for (size_t i = 0; i < sizeof left / sizeof left[0]; i++) {
        size_t n = strlen(left[i]) + (i + 1 == sizeof left / sizeof left[0]);
        json_t *j = kiln_json_fast_parse(left[i], n);
        if (j) fail_msg("taken: %s", left[i]);
    }
    /* Deep nesting past the fast parser's limit goes to jansson, which still parses it. */
    char deep[2 * 600 + 1];
    for (int i = 0; i < 600; i++) deep[i] = '[', deep[600 + i] = ']';
    assert_null(kiln_json_fast_parse(deep, 1200));
    kiln_error e;
    json_t *dj = kiln_json_load(deep, 1200, NULL, KILN_E_IMPORT_FAILED, &e);
    assert_non_null(dj);
    json_decref(dj);
    /* Every one-byte change and every cut of a document: the fast parser never accepts what
     * jansson refuses, and never builds another tree. */
    const char *doc = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":0,\"translation\":"
                      "[1.5,-2,3e2]}],\"x\":[true,false,null,\"a\\nb\",{}]}";
    size_t n = strlen(doc);
    const char subst[] = "\"\\{}[],:0-+e.E tnu\x80\x1f\x00"
                         "1a";
    char buf[256];
    size_t taken_count = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < sizeof subst - 1; k++) {
            memcpy(buf, doc, n);
            buf[i] = subst[k];
            taken_count += fast_agrees(buf, n);
        }
        taken_count += fast_agrees(doc, i); /* cut after i bytes */
    }
    assert_true(taken_count > 0); /* some changes keep a valid document */
    /* Real files: corpus glTF documents (their JSON chunk for .glb is skipped). */
    size_t count = 0;
    char *corpus = kt_corpus_path("gltf");
    char **files = corpus ? kt_gltf_files(corpus, &count) : NULL;
    size_t fast_files = 0;
    for (size_t i = 0; i < count; i++) {
        size_t len = strlen(files[i]);
        if (len < 5 || strcmp(files[i] + len - 5, ".gltf") != 0) continue;
        size_t size;
        uint8_t *bytes = kt_read_file(files[i], &size);
        assert_non_null(bytes);
        fast_files += fast_agrees((const char *)bytes, size);
        free(bytes);
    }
    if (corpus) assert_true(fast_files > 10);
    kt_paths_free(files, count);
    free(corpus);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_load_syntax_error_gives_code_line_and_column),
        cmocka_unit_test(json_load_rejects_duplicate_keys),
        cmocka_unit_test(json_fast_parser_agrees_with_jansson_or_gives_up),
        cmocka_unit_test(json_canonical_dump_is_sorted_compact_ascii_and_order_independent),
        cmocka_unit_test(json_pretty_dump_is_sorted_indented_and_ends_in_a_newline),
        cmocka_unit_test(json_write_and_load_file_round_trip),
        cmocka_unit_test(json_accessors_return_the_fallback_for_missing_or_mistyped_members),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
