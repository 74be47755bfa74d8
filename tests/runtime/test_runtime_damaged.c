/* test_runtime_damaged.c — one damaged cache entry among good ones (docs/runtime.md "Damaged
 * entries and partial mounts"): a manifest that is garbage, empty, cut short, of another key or
 * of another version, or a record that is not JSON. The mount succeeds, the other assets load,
 * the damaged one's fail with the file and the reason said once, krt_mount_skipped lists it,
 * and a poll mounts the entry once it is published again (with and without the watcher). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/cache.h"
#include "rt_fixture.h"
#include "runtime/rt_mount.h"
#include "support.h"

static rt_project g;
static const char *const DAMAGED = "m0/BoxTextured.gltf#scene";
static const char *const GOOD = "m1/CesiumMan.gltf#scene";

static int setup(void **state)
{
    static const char *const models[] = {"gltf/BoxTextured/glTF", "gltf/CesiumMan/glTF"};
    rt_project_open(&g, models, 2);
    (void)state;
    return 0;
}

static int teardown(void **state)
{
    rt_project_close(&g);
    (void)state;
    return 0;
}

/* The manifest of DAMAGED's entry (malloc'd). */
static char *damaged_manifest(void)
{
    krt_mounts m;
    kiln_allocator al = {0};
    kiln_error err;
    assert_int_equal(krt_mounts_read_cache(g.cache, &al, &m, &err), KILN_OK);
    const krt_artifact *a = krt_mounts_find_name(&m, DAMAGED);
    assert_non_null(a);
    char *dir = kt_format("%s", a->path);
    *strrchr(dir, '/') = '\0';
    char *path = kt_format("%s/manifest.json", dir);
    free(dir);
    krt_mounts_free(&m);
    return path;
}

/* Writes bytes as a new file renamed over path, as kiln publishes (a new inode). */
static void publish(const char *path, const void *bytes, size_t size)
{
    char *tmp = kt_format("%s.tmp", path);
    kt_write_file(tmp, bytes, size);
    assert_int_equal(rename(tmp, path), 0);
    free(tmp);
}

static krt_context *make_ctx(void)
{
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 2;
    krt_context *c = NULL;
    kiln_error err;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    return c;
}

typedef struct seen {
    size_t count;
    char file[1024], asset[1024], reason[256];
    kiln_result code;
} seen;

static bool note_skipped(void *user, const krt_skipped_info *info)
{
    seen *s = user;
    s->count++;
    snprintf(s->file, sizeof s->file, "%s", info->file);
    snprintf(s->asset, sizeof s->asset, "%s", info->asset);
    snprintf(s->reason, sizeof s->reason, "%s", info->reason);
    s->code = info->code;
    return true;
}

/* How many times needle occurs in hay. */
static int occurrences(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* With the manifest holding `bytes`: the mount succeeds and lists one skip (the manifest, of
 * BoxTextured, with code and a reason containing `why`), GOOD loads, DAMAGED fails with code
 * and "<manifest>: <reason>" naming the file once. */
static void expect_skipped(const char *manifest, const char *bytes, size_t size, kiln_result code,
                           const char *why)
{
    publish(manifest, bytes, size);
    krt_context *c = make_ctx();
    kiln_error err;
    size_t n = 0;
    assert_int_equal(krt_mount_cache(c, g.cache, &n, &err), KILN_OK);
    assert_true(n > 0);
    seen s;
    memset(&s, 0, sizeof s);
    assert_int_equal(krt_mount_skipped(c, note_skipped, &s), 1);
    assert_int_equal(s.count, 1);
    assert_string_equal(s.file, manifest);
    assert_string_equal(s.asset, "m0/BoxTextured.gltf");
    assert_int_equal(s.code, code);
    if (!strstr(s.reason, why)) fail_msg("reason \"%s\" does not say \"%s\"", s.reason, why);
    assert_null(strstr(s.reason, "manifest.json")); /* the file is named beside it */
    uint64_t id;
    assert_false(krt_lookup(c, DAMAGED, &id));
    krt_handle good = rt_load_ready(c, KRT_TYPE_SCENE, GOOD);
    /* the type may be left to the label, as kiln-rt-example does for names it cannot look up */
    krt_handle bad = krt_load(c, KRT_TYPE_NONE, DAMAGED, &err);
    assert_true(bad.id != 0);
    assert_int_equal(krt_handle_type(bad), KRT_TYPE_SCENE);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, bad), KRT_STATE_FAILED);
    kiln_error e;
    assert_int_equal(krt_error(c, bad, &e), code);
    assert_string_equal(e.path, manifest);
    assert_int_equal(occurrences(e.message, "manifest.json"), 1);
    assert_non_null(strstr(e.message, s.reason));
    /* loading it again: the same handle, the same error (nothing to read) */
    krt_handle again = krt_load_scene(c, DAMAGED, &err);
    assert_int_equal(again.id, bad.id);
    krt_finish(c);
    assert_int_equal(krt_error(c, bad, &e), code);
    /* a scene of the wrong type is refused as for a mounted one */
    krt_handle wrong = krt_load_mesh(c, DAMAGED, &err);
    assert_int_equal(wrong.id, 0);
    assert_int_equal(err.code, KILN_E_USAGE);
    krt_release(c, again, &err);
    krt_release(c, bad, &err);
    krt_release(c, good, &err);
    krt_finish(c);
    krt_destroy(c);
}

/* The manifest's text with the first `from` after `after` replaced by `to` (malloc'd, *size
 * set). */
static char *replaced_after(const char *text, const char *after, const char *from, const char *to,
                            size_t *size)
{
    const char *start = strstr(text, after);
    assert_non_null(start);
    const char *at = strstr(start, from);
    assert_non_null(at);
    char *out = kt_format("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    *size = strlen(out);
    return out;
}

static char *replaced(const char *text, const char *from, const char *to, size_t *size)
{
    return replaced_after(text, "", from, to, size);
}

static void test_one_damaged_manifest_skips_its_entry_only(void **state)
{
    char *manifest = damaged_manifest();
    size_t size;
    char *good = (char *)kt_read_file(manifest, &size);
    assert_non_null(good);
    char *key = kt_format("\"key\": \"%.64s\"", strrchr(manifest, '/') - 64);
    static const char garbage[] = "\x89garbage, not a manifest";
    expect_skipped(manifest, garbage, sizeof garbage - 1, KILN_E_CACHE_CORRUPT,
                   "not JSON: unexpected character at byte 0");
    expect_skipped(manifest, "", 0, KILN_E_CACHE_CORRUPT, "empty");
    expect_skipped(manifest, good, size / 2, KILN_E_CACHE_CORRUPT, "not JSON: ");
    expect_skipped(manifest, "[1, 2]", 6, KILN_E_CACHE_CORRUPT, "not a JSON object");
    size_t n;
    /* another entry's key (a manifest copied into the wrong folder) */
    char *other = replaced(
        good, key, "\"key\": \"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"",
        &n);
    expect_skipped(manifest, other, n, KILN_E_CACHE_CORRUPT, "is not its folder's");
    free(other);
    /* another version: refused as the cook side refuses it (inspect_entry.c's wording) */
    char *v99 = replaced(good, "\"kiln_manifest\": 1", "\"kiln_manifest\": 99", &n);
    expect_skipped(manifest, v99, n, KILN_E_FORMAT_VERSION,
                   "manifest version 99, this runtime reads 1: import again");
    free(v99);
    char *none = replaced(good, "\"kiln_manifest\"", "\"kiln_manifesto\"", &n);
    expect_skipped(manifest, none, n, KILN_E_CACHE_CORRUPT, "no \"kiln_manifest\" version");
    free(none);
    char *bad_output = replaced_after(good, "\"outputs\"", "\"sha256\": \"", "\"sha256\": \"z", &n);
    expect_skipped(manifest, bad_output, n, KILN_E_CACHE_CORRUPT, "bad file name, label or sha256");
    free(bad_output);
    publish(manifest, good, size); /* as cooked */
    free(key);
    free(good);
    free(manifest);
    (void)state;
}

/* The runtime reads the version the cook side writes. */
static void test_manifest_versions_agree(void **state)
{
    assert_int_equal(KRT_MANIFEST_VERSION, KILN_MANIFEST_VERSION);
    (void)state;
}

static void test_a_damaged_record_is_skipped(void **state)
{
    char *adir = kt_format("%s/assets", g.cache);
    char *bad = kt_format("%s/ffffffffffffffffffffffffffffffff.json", adir);
    kt_write_file(bad, "{\"guid\": ", 9);
    krt_context *c = make_ctx();
    kiln_error err;
    assert_int_equal(krt_mount_cache(c, g.cache, NULL, &err), KILN_OK);
    seen s;
    memset(&s, 0, sizeof s);
    assert_int_equal(krt_mount_skipped(c, note_skipped, &s), 1);
    assert_string_equal(s.file, bad);
    assert_string_equal(s.asset, ""); /* the record itself: no asset is known */
    assert_int_equal(s.code, KILN_E_CACHE_CORRUPT);
    assert_non_null(strstr(s.reason, "not JSON: unexpected end at byte 9"));
    krt_handle a = rt_load_ready(c, KRT_TYPE_SCENE, GOOD);
    krt_handle b = rt_load_ready(c, KRT_TYPE_SCENE, DAMAGED);
    /* an id no mount has says that files were skipped */
    krt_handle x = krt_load_id(c, KRT_TYPE_MESH, 0x1234, &err);
    krt_finish(c);
    kiln_error e;
    assert_int_equal(krt_error(c, x, &e), KILN_E_USAGE);
    assert_non_null(strstr(e.message, "1 damaged cache files were skipped"));
    krt_release(c, x, &err);
    krt_release(c, a, &err);
    krt_release(c, b, &err);
    krt_finish(c);
    krt_destroy(c);
    remove(bad);
    free(bad);
    free(adir);
    (void)state;
}

/* A held handle of a skipped entry's asset becomes ready once the entry is published again:
 * the next poll reads the repaired manifest (the records did not change) and loads it again. */
static void repaired_on_poll(bool watch)
{
    char *manifest = damaged_manifest();
    size_t size;
    char *good = (char *)kt_read_file(manifest, &size);
    assert_non_null(good);
    publish(manifest, good, size / 3);
    krt_context *c = make_ctx();
    kiln_error err;
    assert_int_equal(krt_mount_cache(c, g.cache, NULL, &err), KILN_OK);
    if (watch && krt_watch_start(c, &err) != KILN_OK) { /* no inotify here */
        krt_destroy(c);
        publish(manifest, good, size);
        free(good);
        free(manifest);
        return;
    }
    krt_handle h = krt_load_scene(c, DAMAGED, &err);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, h), KRT_STATE_FAILED);
    size_t reloads = 9;
    assert_int_equal(krt_poll_changes(c, &reloads, &err), KILN_OK); /* nothing moved */
    assert_int_equal(reloads, 0);
    assert_int_equal(krt_mount_skipped(c, NULL, NULL), 1);
    publish(manifest, good, size);
    assert_int_equal(krt_poll_changes(c, &reloads, &err), KILN_OK);
    assert_int_equal(reloads, 1);
    krt_finish(c);
    if (krt_state_of(c, h) != KRT_STATE_READY) {
        kiln_error e;
        krt_error(c, h, &e);
        fail_msg("not ready after the repair: %s", e.message);
    }
    assert_int_equal(krt_mount_skipped(c, NULL, NULL), 0);
    uint64_t id;
    assert_true(krt_lookup(c, DAMAGED, &id));
    assert_int_equal(id, krt_asset_id(c, h));
    /* quiet again: nothing left to look for */
    assert_int_equal(krt_poll_changes(c, &reloads, &err), KILN_OK);
    assert_int_equal(reloads, 0);
    krt_release(c, h, &err);
    krt_finish(c);
    krt_destroy(c);
    free(good);
    free(manifest);
}

static void test_a_repaired_entry_loads_on_the_next_poll(void **state)
{
    repaired_on_poll(false);
    (void)state;
}

static void test_a_repaired_entry_loads_on_the_next_poll_with_the_watcher(void **state)
{
    repaired_on_poll(true);
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_manifest_versions_agree),
        cmocka_unit_test(test_one_damaged_manifest_skips_its_entry_only),
        cmocka_unit_test(test_a_damaged_record_is_skipped),
        cmocka_unit_test(test_a_repaired_entry_loads_on_the_next_poll),
        cmocka_unit_test(test_a_repaired_entry_loads_on_the_next_poll_with_the_watcher),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
