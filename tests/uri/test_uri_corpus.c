/* test_uri_corpus.c — import/uri.h on the corpus samples whose URIs hold spaces ("Box With
 * Spaces", escaped as %20 and raw) and UTF-8 ("Unicode❤♻Test"): every "uri" of their .gltf
 * resolves to a file that exists in the sample's folder. Skips (77) when the corpus is absent. */
#include "support.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/file.h"
#include "import/uri.h"

/* Resolves every "uri" string of the .gltf at rel (folder = its parent) and returns how many
 * there were; each must resolve to an existing regular file inside the folder. The strings are
 * plain in these samples (no JSON escapes), which the scan checks. */
static size_t resolve_all_uris(const char *rel)
{
    char *path = kt_corpus_path(rel);
    assert_non_null(path);
    size_t size;
    char *json = kt_read_file(path, &size);
    if (!json) fail_msg("cannot read %s", path);
    char *text = malloc(size + 1);
    assert_non_null(text);
    memcpy(text, json, size);
    text[size] = '\0';
    char *dir = strdup(path);
    *strrchr(dir, '/') = '\0';
    char real_dir[KILN_PATH_MAX];
    assert_non_null(realpath(dir, real_dir));

    size_t count = 0;
    for (char *p = strstr(text, "\"uri\""); p; p = strstr(p + 1, "\"uri\"")) {
        char *q = strchr(p + 5, '"');
        assert_non_null(q);
        char *end = strchr(q + 1, '"');
        assert_non_null(end);
        *end = '\0';
        const char *uri = q + 1;
        assert_null(strchr(uri, '\\'));
        char out[KILN_PATH_MAX];
        kiln_error e;
        kiln_result r = kiln_uri_resolve_file(dir, uri, out, sizeof out, &e);
        if (r != KILN_OK) fail_msg("%s: \"%s\": %s", rel, uri, e.message);
        struct stat st;
        if (stat(out, &st) != 0 || !S_ISREG(st.st_mode)) fail_msg("%s: %s is no file", uri, out);
        if (strncmp(out, real_dir, strlen(real_dir)) != 0 || out[strlen(real_dir)] != '/')
            fail_msg("%s resolved to %s outside %s", uri, out, real_dir);
        print_message("%s -> %s\n", uri, out + strlen(real_dir) + 1);
        *end = '"';
        p = end;
        count++;
    }
    free(dir);
    free(text);
    free(json);
    free(path);
    return count;
}

static void box_with_spaces_uris_resolve_escaped_and_raw(void **state)
{
    (void)state;
    /* Three %20-escaped image URIs and one raw-space buffer URI. */
    assert_int_equal(resolve_all_uris("gltf/Box With Spaces/glTF/Box With Spaces.gltf"), 4);
}

static void unicode_test_uris_resolve_as_utf8(void **state)
{
    (void)state;
    assert_int_equal(resolve_all_uris("gltf/Unicode\xE2\x9D\xA4\xE2\x99\xBBTest/glTF/"
                                      "Unicode\xE2\x9D\xA4\xE2\x99\xBBTest.gltf"),
                     2);
}

int main(void)
{
    kt_require_corpus();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(box_with_spaces_uris_resolve_escaped_and_raw),
        cmocka_unit_test(unicode_test_uris_resolve_as_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
