/* test_runtime.c — libkiln_rt over cooked corpus models: mounts, every artifact loaded back with
 * a recording renderer, dependencies, stale handles, release past zero, wrong types, corrupted
 * files; the SHA-256 and JSON readers it carries. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_fixture.h"
#include "runtime/rt_json.h"
#include "runtime/rt_mount.h"
#include "support.h"

static void test_json(void **state)
{
    krt_json_token t[64];
    size_t n;
    const char *good =
        " {\"a\": [1, 2.5e3, -0], \"b\": {\"c\": \"x\\u00e9\\n\"}, \"d\": true, \"e\": null} ";
    assert_int_equal(krt_json_parse(good, strlen(good), t, 64, &n, NULL), KILN_OK);
    uint32_t b = krt_json_member(good, t, 0, "b"), c = krt_json_member(good, t, b, "c");
    char s[16];
    assert_true(krt_json_string(good, t, c, s, sizeof s));
    assert_string_equal(s, "x\xc3\xa9\n");
    uint64_t v;
    assert_true(krt_json_uint(good, t, krt_json_member(good, t, 0, "a") + 1, &v));
    assert_int_equal(v, 1);
    assert_int_equal(krt_json_member(good, t, 0, "zz"), 0);
    static const char *bad[] = {"",          "{",       "[1,]",     "{\"a\":1,}",
                                "{\"a\" 1}", "01",      "\"\x01\"", "[1] x",
                                "tru",       "\"\\q\"", "{1:2}",    "[\"\\u12\"]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_not_equal(krt_json_parse(bad[i], strlen(bad[i]), t, 64, &n, NULL), KILN_OK);
    char deep[200];
    memset(deep, '[', sizeof deep);
    assert_int_equal(krt_json_parse(deep, sizeof deep, t, 64, &n, NULL), KILN_E_FORMAT_INVALID);
    assert_int_equal(krt_json_parse("[1,2,3]", 7, t, 2, &n, NULL), KILN_E_LIMIT);
    (void)state;
}

static rt_project g;

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

static krt_context *make_ctx(rt_recorder *rec)
{
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 2;
    if (rec) d.renderer = rt_recorder_renderer(rec);
    krt_context *c = NULL;
    kiln_error err;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    size_t n = 0;
    assert_int_equal(krt_mount_cache(c, g.cache, &n, &err), KILN_OK);
    assert_true(n > 5);
    return c;
}

static void test_every_artifact(void **state)
{
    krt_mounts m;
    kiln_allocator al = {0};
    kiln_error err;
    assert_int_equal(krt_mounts_read_cache(g.cache, &al, &m, &err), KILN_OK);
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec);
    krt_handle *h = calloc(m.count, sizeof *h);
    int scenes = 0, skeletons = 0, clips = 0;
    for (size_t i = 0; i < m.count; i++) {
        h[i] = krt_load(c, (krt_type)m.items[i].type, m.items[i].name, &err);
        assert_true(h[i].id != 0);
        assert_int_equal(krt_handle_type(h[i]), m.items[i].type);
        scenes += m.items[i].type == KRT_TYPE_SCENE;
        skeletons += m.items[i].type == KRT_TYPE_SKELETON;
        clips += m.items[i].type == KRT_TYPE_CLIP;
        uint64_t id;
        assert_true(krt_lookup(c, m.items[i].name, &id));
        assert_int_equal(id, m.items[i].id);
    }
    assert_int_equal(scenes, 2);
    assert_true(skeletons >= 1 && clips >= 1);
    krt_finish(c);
    for (size_t i = 0; i < m.count; i++) {
        kiln_error e;
        if (krt_state_of(c, h[i]) != KRT_STATE_READY) {
            krt_error(c, h[i], &e);
            fail_msg("%s: %s", m.items[i].name, e.message);
        }
        switch (m.items[i].type) {
        case KRT_TYPE_TEXTURE: {
            krt_texture_data t;
            assert_int_equal(krt_get_texture(c, h[i], &t, &e), KILN_OK);
            assert_true(t.width > 0 && t.level_count > 0);
            assert_non_null(krt_gpu(c, h[i]));
            break;
        }
        case KRT_TYPE_MESH: {
            krt_mesh_data d;
            assert_int_equal(krt_get_mesh(c, h[i], &d, &e), KILN_OK);
            assert_true(d.view->levels[0].index_count > 0);
            assert_non_null(d.streams[KILN_MESH_INDICES]);
            break;
        }
        case KRT_TYPE_SCENE: {
            krt_scene_data s;
            assert_int_equal(krt_get_scene(c, h[i], &s, &e), KILN_OK);
            for (uint32_t k = 0; k < s.view->primitive_count; k++)
                assert_int_equal(krt_state_of(c, s.primitives[k]), KRT_STATE_READY);
            break;
        }
        case KRT_TYPE_SKELETON: {
            const kiln_skeleton_view *v;
            assert_int_equal(krt_get_skeleton(c, h[i], &v, &e), KILN_OK);
            assert_true(v->joint_count > 0);
            break;
        }
        case KRT_TYPE_CLIP: {
            const kiln_clip_view *v;
            assert_int_equal(krt_get_clip(c, h[i], &v, &e), KILN_OK);
            break;
        }
        default:
            break;
        }
    }
    /* Loaded once each, plus the references dependencies hold: releasing ours frees everything. */
    for (size_t i = 0; i < m.count; i++) assert_int_equal(krt_release(c, h[i], &err), KILN_OK);
    krt_finish(c);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    assert_int_equal(st.live_assets, 0);
    assert_int_equal(rec.live, 0);
    assert_true(rec.creates[KRT_TYPE_TEXTURE] >= 2 && rec.creates[KRT_TYPE_MESH] >= 2);
    krt_destroy(c);
    free(h);
    krt_mounts_free(&m);
    (void)state;
}

static void test_handles(void **state)
{
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec);
    kiln_error err;
    krt_handle s = krt_load_scene(c, "m0/BoxTextured.gltf#scene", &err);
    assert_true(s.id != 0);
    krt_handle s2 = krt_load_scene(c, "m0/BoxTextured.gltf#scene", &err);
    assert_int_equal(s.id, s2.id); /* same handle, one more reference */
    /* another type */
    krt_handle bad = krt_load_texture(c, "m0/BoxTextured.gltf#scene", &err);
    assert_int_equal(bad.id, 0);
    assert_int_equal(err.code, KILN_E_USAGE);
    bad = krt_load_texture(c, "m0/BoxTextured.gltf#nothing", &err);
    assert_int_equal(bad.id, 0);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, s), KRT_STATE_READY);
    krt_handle mat = krt_load_material(c, "m0/BoxTextured.gltf#material0", &err);
    krt_handle asmesh = krt_load_mesh(c, "m0/BoxTextured.gltf#material0", &err);
    assert_int_equal(asmesh.id, 0);
    assert_int_equal(krt_release(c, mat, &err), KILN_OK);
    assert_int_equal(krt_release(c, s, &err), KILN_OK);
    assert_int_equal(krt_release(c, s2, &err), KILN_OK);
    /* past zero */
    assert_int_equal(krt_release(c, s, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "stale"));
    assert_int_equal(krt_state_of(c, s), KRT_STATE_INVALID);
    krt_finish(c);
    assert_int_equal(rec.live, 0);
    /* the slot is reused: the old handle stays stale */
    krt_handle again = krt_load_scene(c, "m0/BoxTextured.gltf#scene", &err);
    assert_true(again.id != s.id);
    assert_int_equal(krt_state_of(c, s), KRT_STATE_INVALID);
    assert_int_equal(krt_asset_id(c, s), 0);
    krt_handle null = {0};
    assert_int_equal(krt_release(c, null, &err), KILN_E_USAGE);
    krt_finish(c);
    assert_int_equal(krt_release(c, again, &err), KILN_OK);
    krt_destroy(c);
    (void)state;
}

static void flip_byte(const char *path, size_t at)
{
    size_t n;
    uint8_t *b = kt_read_file(path, &n);
    assert_non_null(b);
    b[at % n] ^= 0x5a;
    char *cmd = kt_format("chmod u+w '%s'", path);
    kt_run(cmd, NULL);
    free(cmd);
    kt_write_file(path, b, n);
    free(b);
}

static void test_corrupt(void **state)
{
    rt_recorder rec;
    rt_recorder_init(&rec);
    kiln_error err;
    krt_mounts m;
    kiln_allocator al = {0};
    assert_int_equal(krt_mounts_read_cache(g.cache, &al, &m, &err), KILN_OK);
    const krt_artifact *mesh = krt_mounts_find_name(&m, "m0/BoxTextured.gltf#mesh0/prim0");
    const krt_artifact *img = krt_mounts_find_name(&m, "m0/BoxTextured.gltf#image0");
    assert_non_null(mesh);
    assert_non_null(img);
    size_t n;
    void *mesh_bytes = kt_read_file(mesh->path, &n);
    flip_byte(mesh->path, n / 2);
    flip_byte(img->path, 200);
    krt_context *c = make_ctx(&rec);
    krt_handle scene = krt_load_scene(c, "m0/BoxTextured.gltf#scene", &err);
    krt_handle tex = krt_load_texture(c, "m0/BoxTextured.gltf#image0", &err);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, scene), KRT_STATE_FAILED);
    assert_int_equal(krt_state_of(c, tex), KRT_STATE_FAILED);
    kiln_error e;
    assert_int_not_equal(krt_error(c, tex, &e), KILN_OK);
    assert_int_equal(e.code, KILN_E_CACHE_CORRUPT);
    assert_non_null(strstr(e.message, "XXH3-128 of its manifest"));
    assert_int_not_equal(krt_error(c, scene, &e), KILN_OK);
    assert_non_null(strstr(e.message, "mesh")); /* the failed dependency is named */
    /* repaired: a new load tries again on the same handle */
    kt_write_file(mesh->path, mesh_bytes, n);
    krt_handle scene2 = krt_load_scene(c, "m0/BoxTextured.gltf#scene", &err);
    assert_int_equal(scene2.id, scene.id);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, scene), KRT_STATE_FAILED); /* the image is still damaged */
    flip_byte(img->path, 200);
    krt_release(c, scene, &err);
    krt_release(c, tex, &err);
    krt_handle scene3 = krt_load_scene(c, "m0/BoxTextured.gltf#scene", &err);
    krt_finish(c);
    if (krt_state_of(c, scene3) != KRT_STATE_READY) {
        krt_error(c, scene3, &e);
        fail_msg("%s", e.message);
    }
    krt_release(c, scene3, &err);
    krt_release(c, scene, &err);
    krt_finish(c);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    assert_int_equal(st.live_assets, 0);
    assert_int_equal(rec.live, 0);
    krt_destroy(c);
    free(mesh_bytes);
    krt_mounts_free(&m);
    (void)state;
}

/* Replaces the first `from` in the file at path by `to` (same length). */
static void patch_file(const char *path, const char *from, const char *to)
{
    size_t n;
    char *b = (char *)kt_read_file(path, &n);
    assert_non_null(b);
    char *at = strstr(b, from);
    assert_non_null(at);
    assert_int_equal(strlen(from), strlen(to));
    memcpy(at, to, strlen(to));
    char *cmd = kt_format("chmod u+w '%s'", path);
    kt_run(cmd, NULL);
    free(cmd);
    kt_write_file(path, b, n);
    free(b);
}

static krt_state load_texture_state(const char *name, kiln_error *e)
{
    krt_context *c = make_ctx(NULL);
    kiln_error err;
    krt_handle h = krt_load_texture(c, name, &err);
    krt_finish(c);
    krt_state st = krt_state_of(c, h);
    krt_error(c, h, e);
    krt_destroy(c);
    return st;
}

/* Loose KTX2 files are verified with the manifest's XXH3-128 (xxh3_128) when it has one, with
 * its SHA-256 when it does not (entries written before the field); a malformed xxh3_128 makes
 * the cache refuse to mount. */
static void test_ktx2_fast_digest(void **state)
{
    static const char name[] = "m0/BoxTextured.gltf#image0";
    kiln_error err, e;
    krt_mounts m;
    kiln_allocator al = {0};
    assert_int_equal(krt_mounts_read_cache(g.cache, &al, &m, &err), KILN_OK);
    const krt_artifact *img = krt_mounts_find_name(&m, name);
    assert_non_null(img);
    assert_true(img->has_xxh3); /* a fresh cook writes it */
    char *manifest = kt_format("%s", img->path);
    *strrchr(manifest, '/') = 0;
    char *mpath = kt_format("%s/manifest.json", manifest);
    size_t saved_size;
    uint8_t *saved = kt_read_file(mpath, &saved_size);
    assert_non_null(saved);
    assert_int_equal(load_texture_state(name, &e), KRT_STATE_READY);
    flip_byte(img->path, 300);
    assert_int_equal(load_texture_state(name, &e), KRT_STATE_FAILED);
    assert_int_equal(e.code, KILN_E_CACHE_CORRUPT);
    assert_non_null(strstr(e.message, "XXH3-128"));
    /* an older manifest: no xxh3_128 (an unknown member is ignored), SHA-256 checks */
    patch_file(mpath, "\"xxh3_128\"", "\"xxh3_old\"");
    assert_int_equal(load_texture_state(name, &e), KRT_STATE_FAILED);
    assert_non_null(strstr(e.message, "SHA-256"));
    flip_byte(img->path, 300);
    assert_int_equal(load_texture_state(name, &e), KRT_STATE_READY);
    /* a damaged digest is a damaged manifest: its entry is skipped, its assets fail */
    patch_file(mpath, "\"xxh3_old\": \"", "\"xxh3_128\":\"z"); /* 33 digits */
    krt_desc d;
    memset(&d, 0, sizeof d);
    krt_context *c = NULL;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, g.cache, NULL, &err), KILN_OK);
    assert_int_equal(krt_mount_skipped(c, NULL, NULL), 1);
    krt_handle h = krt_load_texture(c, name, &err);
    krt_finish(c);
    assert_int_equal(krt_error(c, h, &e), KILN_E_CACHE_CORRUPT);
    assert_non_null(strstr(e.message, "xxh3_128"));
    assert_string_equal(e.path, mpath);
    krt_release(c, h, &err);
    krt_destroy(c);
    kt_write_file(mpath, saved, saved_size); /* as cooked again */
    free(saved);
    krt_mounts_free(&m);
    free(manifest);
    free(mpath);
    (void)state;
}

/* A poll parses again only the records whose files changed: the memo of the last read gives
 * the others' artifacts, and the table is the same as a full read's. */
static void test_cache_memo_reads_changed_records_only(void **state)
{
    kiln_allocator al = {0};
    kiln_error err;
    krt_cache_memo first, second, third;
    memset(&first, 0, sizeof first);
    memset(&second, 0, sizeof second);
    memset(&third, 0, sizeof third);
    krt_mounts full, m;
    assert_int_equal(krt_mounts_read_cache(g.cache, &al, &full, &err), KILN_OK);
    assert_int_equal(krt_mounts_read_cache_memo(g.cache, &al, NULL, &first, &m, &err), KILN_OK);
    assert_true(first.parsed >= 2);
    assert_int_equal(first.reused, 0);
    krt_mounts_free(&m);
    const char **first_paths = calloc(first.item_count, sizeof *first_paths);
    assert_non_null(first_paths);
    for (size_t i = 0; i < first.item_count; i++) first_paths[i] = first.items[i].path;
    assert_int_equal(krt_mounts_read_cache_memo(g.cache, &al, &first, &second, &m, &err), KILN_OK);
    assert_int_equal(second.parsed, 0);
    assert_int_equal(second.reused, first.parsed);
    /* unchanged records are copied once (into the table): the new memo took the old one's
     * strings, it did not copy them again */
    assert_int_equal(second.item_count, first.item_count);
    for (size_t i = 0; i < second.item_count; i++) {
        assert_ptr_equal(second.items[i].path, first_paths[i]);
        assert_null(first.items[i].path);
        const krt_artifact *t = krt_mounts_find(&m, second.items[i].id);
        assert_non_null(t);
        assert_ptr_not_equal(t->path, second.items[i].path);
        assert_string_equal(t->path, second.items[i].path);
    }
    free(first_paths);
    assert_int_equal(second.changed_count, 0); /* nothing changed since the first read */
    assert_false(second.all_changed);
    assert_int_equal(m.count, full.count);
    for (size_t i = 0; i < full.count; i++) {
        const krt_artifact *a = &full.items[i], *b = krt_mounts_find(&m, a->id);
        assert_non_null(b);
        assert_string_equal(a->name, b->name);
        assert_string_equal(a->path, b->path);
        assert_int_equal(a->size, b->size);
        assert_memory_equal(a->sha256, b->sha256, 32);
        assert_ptr_equal(krt_mounts_find_name(&m, a->name), b);
    }
    krt_mounts_free(&m);
    /* one record written again (as an import does: a new file renamed over it) */
    char *adir = kt_format("%s/assets", g.cache);
    char *cmd = kt_format(
        "cd '%s' && f=$(ls *.json | head -n 1) && cp \"$f\" \"$f.tmp\" && mv \"$f.tmp\" \"$f\"",
        adir);
    assert_int_equal(kt_run(cmd, NULL), 0);
    assert_int_equal(krt_mounts_read_cache_memo(g.cache, &al, &second, &third, &m, &err), KILN_OK);
    assert_int_equal(third.parsed, 1);
    assert_int_equal(third.reused, first.parsed - 1);
    assert_true(third.changed_count >= 1); /* the rewritten record's ids, before and after */
    assert_int_equal(m.count, full.count);
    krt_mounts_free(&m);
    krt_mounts_free(&full);
    krt_cache_memo_free(&al, &first);
    krt_cache_memo_free(&al, &second);
    krt_cache_memo_free(&al, &third);
    free(adir);
    free(cmd);
    (void)state;
}

static void test_two_contexts_and_mount_errors(void **state)
{
    kiln_error err;
    krt_context *a = make_ctx(NULL), *b = make_ctx(NULL);
    krt_handle ha = krt_load_skeleton(a, "m1/CesiumMan.gltf#skeleton0", &err);
    krt_handle hb = krt_load_skeleton(b, "m1/CesiumMan.gltf#skeleton0", &err);
    krt_finish(a);
    krt_finish(b);
    assert_int_equal(krt_state_of(a, ha), KRT_STATE_READY);
    assert_int_equal(krt_state_of(b, hb), KRT_STATE_READY);
    /* mounting the same cache again overrides with the same artifacts */
    size_t n;
    assert_int_equal(krt_mount_cache(a, g.cache, &n, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(a, "/nonexistent-kiln", &n, &err), KILN_E_ASSET_IO);
    char *bad = kt_format("%s/badcache", g.dir);
    char *rec = kt_format("%s/assets/0123.json", bad);
    kt_write_file(rec, "{\"guid\": 12", 11);
    /* a damaged record is skipped (and listed), the rest mounts: here nothing */
    assert_int_equal(krt_mount_cache(a, bad, &n, &err), KILN_OK);
    assert_int_equal(n, 0);
    assert_int_equal(krt_mount_skipped(a, NULL, NULL), 1);
    free(rec);
    free(bad);
    krt_release(a, ha, &err);
    krt_destroy(a);
    krt_destroy(b); /* with a live asset: destroy frees it */
    (void)state;
}

/* Whether every byte of p[0, n) is b. */
static bool all_bytes(const void *p, size_t n, unsigned char b)
{
    for (size_t i = 0; i < n; i++)
        if (((const unsigned char *)p)[i] != b) return false;
    return true;
}

/* krt_stats.struct_size: a caller built against the older, shorter struct (ending before the
 * work counters) gets its fields written and nothing past them; 0 means the current size; a
 * size that ends inside a field does not get that field; a larger size (a newer header) gets
 * what this library knows; struct_size itself is never written. */
static void krt_stats_writes_only_the_fields_of_the_callers_size(void **state)
{
    krt_context *c = make_ctx(NULL);
    krt_handle s = rt_load_ready(c, KRT_TYPE_SCENE, "m0/BoxTextured.gltf#scene");
    krt_stats full = {.struct_size = sizeof full};
    krt_get_stats(c, &full);
    assert_true(full.live_assets >= 4);
    assert_true(full.loads >= 4);

    const size_t old_size = offsetof(krt_stats, poll_visits); /* before the work counters */
    krt_stats guard[2];
    memset(guard, 0xAB, sizeof guard);
    guard[0].struct_size = (uint32_t)old_size;
    krt_get_stats(c, &guard[0]);
    assert_int_equal(guard[0].struct_size, old_size);
    assert_int_equal(guard[0].live_assets, full.live_assets);
    assert_int_equal(guard[0].loads, full.loads);
    assert_int_equal(guard[0].resident_bytes, full.resident_bytes);
    assert_int_equal(guard[0].transcodes, full.transcodes);
    assert_true(all_bytes((const char *)guard + old_size, sizeof guard - old_size, 0xAB));

    memset(guard, 0xAB, sizeof guard); /* ends 4 bytes into poll_visits: not written */
    guard[0].struct_size = (uint32_t)old_size + 4;
    krt_get_stats(c, &guard[0]);
    assert_int_equal(guard[0].transcodes, full.transcodes);
    assert_true(all_bytes((const char *)guard + old_size, sizeof guard - old_size, 0xAB));

    memset(guard, 0xAB, sizeof guard); /* only struct_size: nothing written */
    guard[0].struct_size = sizeof(uint32_t);
    krt_get_stats(c, &guard[0]);
    assert_true(all_bytes((const char *)guard + 4, sizeof guard - 4, 0xAB));

    memset(guard, 0xAB, sizeof guard); /* 0: the current size */
    guard[0].struct_size = 0;
    krt_get_stats(c, &guard[0]);
    assert_int_equal(guard[0].struct_size, 0);
    assert_memory_equal((const char *)&guard[0] + 8, (const char *)&full + 8, sizeof full - 8);
    assert_true(all_bytes(&guard[1], sizeof guard[1], 0xAB));

    memset(guard, 0xAB, sizeof guard); /* a newer, larger struct: what this library knows */
    guard[0].struct_size = (uint32_t)sizeof guard;
    krt_get_stats(c, &guard[0]);
    assert_memory_equal((const char *)&guard[0] + 8, (const char *)&full + 8, sizeof full - 8);
    assert_true(all_bytes(&guard[1], sizeof guard[1], 0xAB));

    memset(guard, 0xAB, sizeof guard); /* no context: zeros, within the size */
    guard[0].struct_size = (uint32_t)old_size;
    krt_get_stats(NULL, &guard[0]);
    assert_true(all_bytes((const char *)guard + 8, old_size - 8, 0));
    assert_true(all_bytes((const char *)guard + old_size, sizeof guard - old_size, 0xAB));
    krt_get_stats(c, NULL); /* a no-op */

    kiln_error err;
    assert_int_equal(krt_release(c, s, &err), KILN_OK);
    krt_destroy(c);
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_every_artifact),
        cmocka_unit_test(test_handles),
        cmocka_unit_test(test_two_contexts_and_mount_errors),
        cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_ktx2_fast_digest),
        cmocka_unit_test(test_cache_memo_reads_changed_records_only),
        cmocka_unit_test(krt_stats_writes_only_the_fields_of_the_callers_size),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
