/* test_pipeline.c — the import pipeline end to end through the public API: keys, cache entries,
 * report states, the stat shortcut, determinism, reimport, gc. */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/file.h"
#include "fixtures.h"
#include "pipeline/cache.h"
#include "pipeline/project.h"
#include "support.h"

typedef struct env {
    char *dir, *root, *out;
} env;

static env env_make(const char *tag, int images)
{
    env e;
    e.dir = kt_tempdir(tag);
    e.root = kt_format("%s/assets", e.dir);
    e.out = kt_format("%s/.kiln", e.dir);
    kiln_mkdirs(e.root, NULL);
    fx_make_tree(e.root, images);
    return e;
}

static void env_free(env *e)
{
    kt_rmtree(e->dir);
    free(e->dir);
    free(e->root);
    free(e->out);
}

static json_t *row_of(json_t *report, const char *path)
{
    size_t i;
    json_t *row;
    json_array_foreach (json_object_get(report, "assets"), i, row)
        if (!strcmp(json_string_value(json_object_get(row, "path")), path)) return row;
    fail_msg("no row for %s", path);
    return NULL;
}

/* Copies every image of the corpus into a fresh root, with the default settings, or under the
 * sanitizers with a .meta choosing rgba8 (they look for memory errors of the pipeline here; the
 * encoders have their own sanitized tests, and a sanitized BC7 of the whole corpus is slow). */
static char *copy_corpus_images(const char *images, const char *root, const char *meta, int *count)
{
    char *list_cmd =
        kt_format("cd '%s' && find . -type f \\( -name '*.png' -o -name '*.jpg' -o -name "
                  "'*.tga' -o -name '*.hdr' -o -name '*.exr' -o -name '*.bmp' \\) | sort",
                  images);
    char *listing = NULL;
    assert_int_equal(kt_run(list_cmd, &listing), 0);
    free(list_cmd);
    *count = 0;
    for (char *line = strtok(listing, "\n"); line; line = strtok(NULL, "\n")) {
        char *src = kt_format("%s/%s", images, line + 2), *dst = kt_format("%s/%s", root, line + 2);
        size_t size;
        void *bytes = kt_read_file(src, &size);
        assert_non_null(bytes);
        kt_write_file(dst, bytes, size);
        if (meta) {
            char *m = kt_format("%s.meta", dst);
            kt_write_file(m, meta, strlen(meta));
            free(m);
        }
        fx_age(dst, 10);
        free(bytes);
        free(src);
        free(dst);
        (*count)++;
    }
    return listing;
}

static void pipeline_imports_every_corpus_image_and_reports_up_to_date(void **state)
{
    char *images = kt_corpus_path("images");
    if (!images) skip();
    const char *sanitized = getenv("KILN_TEST_SANITIZED");
    const char *meta = sanitized && !strcmp(sanitized, "1")
                           ? "{\"import\":{\"texture\":{\"format\":\"rgba8\"}}}"
                           : NULL; /* the defaults: BC7, BC5, RGBA16F by role, normal quality */
    char *dir = kt_tempdir("corpus");
    char *root = kt_format("%s/assets", dir), *out = kt_format("%s/.kiln", dir);
    int count = 0;
    free(copy_corpus_images(images, root, meta, &count));
    assert_true(count >= 19);
    kiln_project *p = fx_open(root, out, 2);
    kiln_result code;
    json_t *doc = fx_import_all(p, &code);
    assert_int_equal(code, KILN_OK);
    json_t *totals = json_object_get(doc, "totals");
    assert_int_equal(json_integer_value(json_object_get(totals, "assets")), count);
    assert_int_equal(json_integer_value(json_object_get(totals, "failed")), 0);
    json_t *rep = fx_report(p);
    assert_int_equal(fx_count_state(rep, "up_to_date"), count);
    json_decref(rep);
    json_decref(doc);
    kiln_project_close(p);
    kt_rmtree(dir);
    free(dir);
    free(root);
    free(out);
    free(images);
}

static void
pipeline_same_sources_in_two_folders_give_identical_entries_for_1_and_2_threads(void **state)
{
    env a = env_make("det-a", 12), b = env_make("det-b", 12);
    kiln_project *pa = fx_open(a.root, a.out, 1), *pb = fx_open(b.root, b.out, 2);
    kiln_result ca, cb;
    json_decref(fx_import_all(pa, &ca));
    json_decref(fx_import_all(pb, &cb));
    assert_int_equal(ca, KILN_OK);
    assert_int_equal(cb, KILN_OK);
    char *oa = kt_format("%s/cache/objects", a.out), *ob = kt_format("%s/cache/objects", b.out);
    char *fa = fx_tree_fingerprint(oa), *fb = fx_tree_fingerprint(ob);
    assert_true(strlen(fa) > 0);
    assert_string_equal(fa, fb);
    free(fa);
    free(fb);
    free(oa);
    free(ob);
    kiln_project_close(pa);
    kiln_project_close(pb);
    env_free(&a);
    env_free(&b);
}

static void pipeline_warm_import_is_all_cached_and_writes_nothing(void **state)
{
    env e = env_make("warm", 6);
    kiln_project *p = fx_open(e.root, e.out, 2);
    kiln_result c;
    json_decref(fx_import_all(p, &c));
    assert_int_equal(c, KILN_OK);
    /* records and entries; the record index beside them (assets.index, a cache of the records)
     * is written again while its records folder stamp is racy (docs/cache.md) */
    char *cache = kt_format("%s/cache/assets", e.out);
    char *objects = kt_format("%s/cache/objects", e.out);
    char *before = fx_tree_fingerprint(cache), *objects_before = fx_tree_fingerprint(objects);
    json_t *doc = fx_import_all(p, &c);
    assert_int_equal(c, KILN_OK);
    json_t *t = json_object_get(doc, "totals");
    assert_int_equal(json_integer_value(json_object_get(t, "cached")), 6);
    assert_int_equal(json_integer_value(json_object_get(t, "imported")), 0);
    char *after = fx_tree_fingerprint(cache), *objects_after = fx_tree_fingerprint(objects);
    assert_string_equal(before, after);
    assert_string_equal(objects_before, objects_after);
    free(objects_before);
    free(objects_after);
    free(objects);
    free(before);
    free(after);
    free(cache);
    json_decref(doc);
    kiln_project_close(p);
    env_free(&e);
}

static void pipeline_report_after_import_reads_no_source_bytes(void **state)
{
    env e = env_make("noop", 6);
    kiln_project *p = fx_open(e.root, e.out, 2);
    kiln_result c;
    json_decref(fx_import_all(p, &c));
    json_t *rep = fx_report(p);
    size_t i;
    json_t *row;
    json_array_foreach (json_object_get(rep, "assets"), i, row) {
        assert_string_equal(json_string_value(json_object_get(row, "state")), "up_to_date");
        assert_true(json_is_false(json_object_get(row, "source_read")));
    }
    json_decref(rep);
    kiln_project_close(p);
    env_free(&e);
}

static void pipeline_changing_one_byte_makes_exactly_that_asset_stale(void **state)
{
    env e = env_make("stale", 6);
    kiln_project *p = fx_open(e.root, e.out, 2);
    kiln_result c;
    json_decref(fx_import_all(p, &c));
    char *victim = kt_format("%s/tex/img03.png", e.root);
    size_t size;
    uint8_t *bytes = kt_read_file(victim, &size);
    bytes[size / 2] ^= 0x01;
    kt_write_file(victim, bytes, size); /* same size: only mtime/ctime tell */
    free(bytes);
    json_t *rep = fx_report(p);
    assert_int_equal(fx_count_state(rep, "stale"), 1);
    assert_int_equal(fx_count_state(rep, "up_to_date"), 5);
    assert_string_equal(json_string_value(json_object_get(row_of(rep, "tex/img03.png"), "state")),
                        "stale");
    json_decref(rep);
    free(victim);
    kiln_project_close(p);
    env_free(&e);
}

static void pipeline_racily_clean_source_is_read_again(void **state)
{
    env e = env_make("racy", 2);
    char *fresh = kt_format("%s/tex/fresh.png", e.root);
    fx_write_png(fresh, 16, 16, 3, 99); /* mtime now: within the racy window of the import */
    kiln_project *p = fx_open(e.root, e.out, 1);
    kiln_result c;
    json_decref(fx_import_all(p, &c));
    json_t *rep = fx_report(p);
    assert_true(json_is_true(json_object_get(row_of(rep, "tex/fresh.png"), "source_read")));
    assert_true(json_is_false(json_object_get(row_of(rep, "tex/img00.png"), "source_read")));
    assert_int_equal(fx_count_state(rep, "up_to_date"), 3);
    json_decref(rep);
    free(fresh);
    kiln_project_close(p);
    env_free(&e);
}

static const char *key_of(json_t *rep, const char *path)
{
    return json_string_value(json_object_get(row_of(rep, path), "key"));
}

static void pipeline_equivalent_settings_give_equal_keys_and_others_differ(void **state)
{
    env e = env_make("keys", 3);
    kiln_project *p = fx_open(e.root, e.out, 1);
    json_t *r0 = fx_report(p);
    char *k0 = strdup(key_of(r0, "tex/img00.png"));
    char *meta = kt_format("%s/tex/img00.png.meta", e.root);
    const char *defaults =
        "{\"import\":{\"texture\":{\"format\":\"auto\",\"srgb\":null,\"mipmaps\":true,"
        "\"normal_map\":false,\"flip_green\":false,\"max_size\":16384,"
        "\"quality\":\"normal\",\"supercompression\":\"none\"}}}";
    kt_write_file(meta, defaults, strlen(defaults));
    json_t *r1 = fx_report(p);
    assert_string_equal(k0, key_of(r1, "tex/img00.png"));
    const char *nomips = "{\"import\":{\"texture\":{\"mipmaps\":false}}}";
    kt_write_file(meta, nomips, strlen(nomips));
    json_t *r2 = fx_report(p);
    assert_string_not_equal(k0, key_of(r2, "tex/img00.png"));
    /* The same bytes under another name share the key: keys name content, not places. */
    char *src = kt_format("%s/tex/img00.png", e.root), *copy = kt_format("%s/tex/copy.png", e.root);
    size_t size;
    void *bytes = kt_read_file(src, &size);
    kt_write_file(copy, bytes, size);
    free(bytes);
    json_t *r3 = fx_report(p);
    assert_string_equal(k0, key_of(r3, "tex/copy.png"));
    json_decref(r3);
    free(src);
    free(copy);
    json_decref(r0);
    json_decref(r1);
    json_decref(r2);
    free(k0);
    free(meta);
    kiln_project_close(p);
    env_free(&e);
}

static void pipeline_invalid_meta_is_reported_invalid_with_its_pointer(void **state)
{
    env e = env_make("badmeta", 2);
    char *meta = kt_format("%s/tex/img01.png.meta", e.root);
    const char *bad = "{\"import\":{\"texture\":{\"formt\":\"rgba8\"}}}";
    kt_write_file(meta, bad, strlen(bad));
    kiln_project *p = fx_open(e.root, e.out, 1);
    kiln_result c;
    json_t *doc = fx_import_all(p, &c);
    assert_int_equal(c, KILN_E_IMPORT_SETTINGS);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "totals"), "failed")),
                     1);
    json_t *rep = fx_report(p);
    json_t *row = row_of(rep, "tex/img01.png");
    assert_string_equal(json_string_value(json_object_get(row, "state")), "invalid");
    json_t *err = json_object_get(row, "error");
    assert_string_equal(json_string_value(json_object_get(err, "code")), "E_IMPORT_SETTINGS");
    assert_string_equal(json_string_value(json_object_get(err, "json_pointer")),
                        "/import/texture/formt");
    assert_int_equal(fx_count_state(rep, "up_to_date"), 1);
    json_decref(rep);
    json_decref(doc);
    free(meta);
    kiln_project_close(p);
    env_free(&e);
}

static void pipeline_damaged_source_fails_and_is_reported_invalid(void **state)
{
    env e = env_make("damaged", 1);
    char *bad = kt_format("%s/tex/broken.png", e.root);
    char *good = kt_format("%s/tex/img00.png", e.root);
    size_t size;
    uint8_t *bytes = kt_read_file(good, &size);
    kt_write_file(bad, bytes, size / 2); /* a truncated PNG */
    free(bytes);
    kiln_project *p = fx_open(e.root, e.out, 1);
    kiln_result c;
    json_t *doc = fx_import_all(p, &c);
    assert_int_equal(c, KILN_E_IMPORT_FAILED);
    json_t *rep = fx_report(p);
    json_t *row = row_of(rep, "tex/broken.png");
    assert_string_equal(json_string_value(json_object_get(row, "state")), "invalid");
    assert_string_equal(json_string_value(json_object_get(json_object_get(row, "error"), "code")),
                        "E_IMPORT_FAILED");
    assert_string_equal(json_string_value(json_object_get(row_of(rep, "tex/img00.png"), "state")),
                        "up_to_date");
    json_decref(rep);
    json_decref(doc);
    free(bad);
    free(good);
    kiln_project_close(p);
    env_free(&e);
}

static void pipeline_entry_folder_without_manifest_is_not_counted_and_is_replaced(void **state)
{
    env e = env_make("torn", 2);
    kiln_project *p = fx_open(e.root, e.out, 1);
    json_t *r0 = fx_report(p);
    const char *key = key_of(r0, "tex/img00.png");
    char dir[KILN_PATH_MAX];
    kiln_cache_entry_dir(p, key, dir);
    char *part = kt_format("%s/texture.ktx2", dir);
    kt_write_file(part, "partial", 7); /* a torn entry: output, no manifest */
    json_t *r1 = fx_report(p);
    assert_string_equal(json_string_value(json_object_get(row_of(r1, "tex/img00.png"), "state")),
                        "not_imported");
    kiln_result c;
    json_decref(fx_import_all(p, &c));
    assert_int_equal(c, KILN_OK);
    json_t *m = kiln_cache_entry_load(p, key, true);
    assert_non_null(m);
    json_decref(m);
    json_decref(r0);
    json_decref(r1);
    free(part);
    kiln_project_close(p);
    env_free(&e);
}

static void pipeline_forced_import_reports_unchanged_bytes(void **state)
{
    env e = env_make("force", 2);
    kiln_project *p = fx_open(e.root, e.out, 1);
    kiln_result c;
    json_decref(fx_import_all(p, &c));
    char *doc = NULL;
    kiln_error err;
    assert_int_equal(
        kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL | KILN_IMPORT_FORCE, &doc, &err), KILN_OK);
    json_t *j = json_loads(doc, 0, NULL);
    size_t i;
    json_t *rec;
    json_array_foreach (json_object_get(j, "records"), i, rec) {
        assert_string_equal(json_string_value(json_object_get(rec, "status")), "imported");
        assert_true(json_is_true(json_object_get(rec, "unchanged")));
    }
    json_decref(j);
    kiln_string_free(doc);
    kiln_project_close(p);
    env_free(&e);
}

static void pipeline_reimport_writes_settings_keeping_guid_and_other_fields(void **state)
{
    env e = env_make("reimport", 1);
    char *meta = kt_format("%s/tex/img00.png.meta", e.root);
    const char *m0 =
        "{\"guid\":\"0123456789abcdef0123456789abcdef\",\"import\":{\"model\":{\"quantize\":false}}}";
    kt_write_file(meta, m0, strlen(m0));
    kiln_project *p = fx_open(e.root, e.out, 1);
    kiln_result c;
    json_decref(fx_import_all(p, &c));
    char *path = kt_format("%s/tex/img00.png", e.root);
    const char *sets[] = {"texture.mipmaps=false"};
    char *doc = NULL;
    kiln_error err;
    assert_int_equal(kiln_project_reimport(p, path, NULL, sets, 1, &doc, &err), KILN_OK);
    json_t *j = json_loads(doc, 0, NULL);
    assert_true(json_is_false(json_object_get(json_object_get(j, "record"), "unchanged")));
    json_decref(j);
    kiln_string_free(doc);
    json_t *written = json_load_file(meta, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(written, "guid")),
                        "0123456789abcdef0123456789abcdef");
    json_t *imp = json_object_get(written, "import");
    assert_true(json_is_false(json_object_get(json_object_get(imp, "model"), "quantize")));
    assert_true(json_is_false(json_object_get(json_object_get(imp, "texture"), "mipmaps")));
    json_decref(written);
    /* Invalid settings are refused before anything is written. */
    size_t before_size;
    char *before = kt_read_file(meta, &before_size);
    const char *bad[] = {"texture.max_size=2"};
    assert_int_equal(kiln_project_reimport(p, path, NULL, bad, 1, &doc, &err),
                     KILN_E_IMPORT_SETTINGS);
    assert_null(doc);
    size_t after_size;
    char *after = kt_read_file(meta, &after_size);
    assert_int_equal(before_size, after_size);
    assert_memory_equal(before, after, before_size);
    free(before);
    free(after);
    /* The same settings again: unchanged. */
    assert_int_equal(kiln_project_reimport(p, path, NULL, sets, 1, &doc, &err), KILN_OK);
    j = json_loads(doc, 0, NULL);
    assert_true(json_is_true(json_object_get(json_object_get(j, "record"), "unchanged")));
    json_decref(j);
    kiln_string_free(doc);
    free(path);
    free(meta);
    kiln_project_close(p);
    env_free(&e);
}

static int count_entries(const char *out)
{
    char *objects = kt_format("%s/cache/objects", out);
    char *fp = fx_tree_fingerprint(objects);
    int n = 0;
    for (char *s = fp; (s = strstr(s, "/manifest.json ")); s++) n++;
    free(fp);
    free(objects);
    return n;
}

static void pipeline_gc_keeps_every_entry_an_asset_points_to(void **state)
{
    env e = env_make("gc", 4);
    kiln_project *p = fx_open(e.root, e.out, 1);
    kiln_result c;
    json_decref(fx_import_all(p, &c));
    /* Change one asset's settings and import again: its old entry is no longer pointed to. */
    char *meta = kt_format("%s/tex/img02.png.meta", e.root);
    const char *m = "{\"import\":{\"texture\":{\"mipmaps\":false}}}";
    kt_write_file(meta, m, strlen(m));
    json_decref(fx_import_all(p, &c));
    assert_int_equal(count_entries(e.out), 5);
    char *doc = NULL;
    kiln_error err;
    assert_int_equal(kiln_cache_gc(p, 0, &doc, &err), KILN_OK);
    json_t *j = json_loads(doc, 0, NULL);
    assert_int_equal(json_array_size(json_object_get(j, "removed")), 1);
    assert_true(json_integer_value(json_object_get(j, "freed")) > 0);
    json_decref(j);
    kiln_string_free(doc);
    assert_int_equal(count_entries(e.out), 4);
    json_t *rep = fx_report(p);
    assert_int_equal(fx_count_state(rep, "up_to_date"), 4);
    json_decref(rep);
    /* A size limit evicts least recently used entries until the cache fits. */
    assert_int_equal(kiln_cache_gc(p, 1, &doc, &err), KILN_OK);
    kiln_string_free(doc);
    assert_int_equal(count_entries(e.out), 0);
    free(meta);
    kiln_project_close(p);
    env_free(&e);
}

static void pipeline_cache_outside_the_project_and_output_is_refused(void **state)
{
    env e = env_make("refuse", 1);
    char *elsewhere = kt_tempdir("elsewhere");
    kiln_project_opts o = {0};
    o.struct_size = sizeof o;
    o.project_dir = e.dir;
    o.root = e.root;
    o.out = e.out;
    o.cache = elsewhere;
    kiln_project *p = NULL;
    kiln_error err;
    assert_int_equal(kiln_project_open(&o, &p, &err), KILN_E_OUTPUT_REFUSED);
    assert_null(p);
    /* A symlink inside the output folder that points outside is refused too. */
    kiln_mkdirs(e.out, NULL);
    char *link = kt_format("%s/sneaky", e.out);
    assert_int_equal(symlink(elsewhere, link), 0);
    o.cache = link;
    assert_int_equal(kiln_project_open(&o, &p, &err), KILN_E_OUTPUT_REFUSED);
    free(link);
    kt_rmtree(elsewhere);
    free(elsewhere);
    env_free(&e);
}

static void pipeline_scan_does_not_follow_symlinked_folders(void **state)
{
    env e = env_make("loops", 2);
    /* Two links to ancestors: followed, the walk would visit 2^64 folders. */
    char *l1 = kt_format("%s/tex/up", e.root), *l2 = kt_format("%s/tex/again", e.root);
    assert_int_equal(symlink("..", l1), 0);
    assert_int_equal(symlink("../tex", l2), 0);
    kiln_project *p = fx_open(e.root, e.out, 1);
    json_t *rep = fx_report(p);
    assert_int_equal(json_array_size(json_object_get(rep, "assets")), 2);
    json_decref(rep);
    kiln_project_close(p);
    free(l1);
    free(l2);
    env_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pipeline_imports_every_corpus_image_and_reports_up_to_date),
        cmocka_unit_test(
            pipeline_same_sources_in_two_folders_give_identical_entries_for_1_and_2_threads),
        cmocka_unit_test(pipeline_warm_import_is_all_cached_and_writes_nothing),
        cmocka_unit_test(pipeline_report_after_import_reads_no_source_bytes),
        cmocka_unit_test(pipeline_changing_one_byte_makes_exactly_that_asset_stale),
        cmocka_unit_test(pipeline_racily_clean_source_is_read_again),
        cmocka_unit_test(pipeline_equivalent_settings_give_equal_keys_and_others_differ),
        cmocka_unit_test(pipeline_invalid_meta_is_reported_invalid_with_its_pointer),
        cmocka_unit_test(pipeline_damaged_source_fails_and_is_reported_invalid),
        cmocka_unit_test(pipeline_entry_folder_without_manifest_is_not_counted_and_is_replaced),
        cmocka_unit_test(pipeline_forced_import_reports_unchanged_bytes),
        cmocka_unit_test(pipeline_reimport_writes_settings_keeping_guid_and_other_fields),
        cmocka_unit_test(pipeline_gc_keeps_every_entry_an_asset_points_to),
        cmocka_unit_test(pipeline_cache_outside_the_project_and_output_is_refused),
        cmocka_unit_test(pipeline_scan_does_not_follow_symlinked_folders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
