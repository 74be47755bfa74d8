/* test_runtime_pack.c — packs mounted by libkiln_rt: every artifact of a pack kiln wrote loads
 * as it does from the cache (raw entries in place, compressed ones decompressed), later mounts
 * override earlier ones (a patch pack), damaged packs fail to mount or fail the load cleanly. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln.h"
#include "rt_fixture.h"
#include "runtime/rt_mount.h"
#include "support.h"

static rt_project g;
static char *g_base, *g_raw, *g_patch;

static void write_pack(const char *out, uint32_t compress)
{
    kiln_project_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.project_dir = g.dir;
    o.jobs = 2;
    kiln_project *p = NULL;
    kiln_error err;
    assert_int_equal(kiln_project_open(&o, &p, &err), KILN_OK);
    kiln_pack_opts po;
    memset(&po, 0, sizeof po);
    po.struct_size = sizeof po;
    po.output = out;
    po.compress = compress;
    char *doc = NULL;
    kiln_result r = kiln_project_pack(p, NULL, 0, KILN_IMPORT_ALL, &po, &doc, &err);
    if (r) fprintf(stderr, "pack: %s\n", err.message);
    assert_int_equal(r, KILN_OK);
    kiln_string_free(doc);
    kiln_project_close(p);
}

static int setup(void **state)
{
    static const char *const models[] = {"gltf/BoxTextured/glTF", "gltf/CesiumMan/glTF"};
    rt_project_open(&g, models, 2);
    g_base = kt_format("%s/.kiln/base.kpak", g.dir);
    g_raw = kt_format("%s/.kiln/raw.kpak", g.dir);
    g_patch = kt_format("%s/.kiln/patch.kpak", g.dir);
    write_pack(g_base, KILN_PACK_COMPRESS_ZSTD);
    write_pack(g_raw, KILN_PACK_COMPRESS_NONE);
    (void)state;
    return 0;
}

static int teardown(void **state)
{
    rt_project_close(&g);
    free(g_base);
    free(g_raw);
    free(g_patch);
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
    return c;
}

static void load_all(krt_context *c, const krt_mounts *m, krt_handle *h)
{
    kiln_error err;
    for (size_t i = 0; i < m->count; i++) {
        h[i] = krt_load(c, (krt_type)m->items[i].type, m->items[i].name, &err);
        if (!h[i].id) fail_msg("%s: %s", m->items[i].name, err.message);
    }
    krt_finish(c);
    for (size_t i = 0; i < m->count; i++)
        if (krt_state_of(c, h[i]) != KRT_STATE_READY) {
            krt_error(c, h[i], &err);
            fail_msg("%s: %s", m->items[i].name, err.message);
        }
}

static void every_artifact_loads_from_a_pack_as_from_the_cache(void **state)
{
    krt_mounts m;
    kiln_allocator al = {0};
    kiln_error err;
    assert_int_equal(krt_mounts_read_cache(g.cache, &al, &m, &err), KILN_OK);
    krt_context *from_cache = make_ctx(NULL);
    assert_int_equal(krt_mount_cache(from_cache, g.cache, NULL, &err), KILN_OK);
    krt_handle *hc = calloc(m.count, sizeof *hc), *hp = calloc(m.count, sizeof *hp);
    load_all(from_cache, &m, hc);
    krt_stats cache_st;
    krt_get_stats(from_cache, &cache_st);
    char *const packs[] = {g_base, g_raw};
    for (int k = 0; k < 2; k++) {
        rt_recorder rec;
        rt_recorder_init(&rec);
        krt_context *c = make_ctx(&rec);
        size_t n = 0;
        assert_int_equal(krt_mount_pack(c, packs[k], &n, &err), KILN_OK);
        assert_int_equal(n, m.count);
        load_all(c, &m, hp);
        for (size_t i = 0; i < m.count; i++) {
            switch (m.items[i].type) {
            case KRT_TYPE_TEXTURE: {
                krt_texture_data a, b;
                assert_int_equal(krt_get_texture(from_cache, hc[i], &a, &err), KILN_OK);
                assert_int_equal(krt_get_texture(c, hp[i], &b, &err), KILN_OK);
                assert_int_equal(a.width, b.width);
                assert_int_equal(a.level_count, b.level_count);
                assert_int_equal(a.levels[0].size, b.levels[0].size);
                assert_memory_equal(a.levels[0].data, b.levels[0].data, a.levels[0].size);
                break;
            }
            case KRT_TYPE_MESH: {
                krt_mesh_data a, b;
                assert_int_equal(krt_get_mesh(from_cache, hc[i], &a, &err), KILN_OK);
                assert_int_equal(krt_get_mesh(c, hp[i], &b, &err), KILN_OK);
                assert_int_equal(a.view->index_count, b.view->index_count);
                assert_memory_equal(a.streams[KILN_MESH_POSITION], b.streams[KILN_MESH_POSITION],
                                    a.stream_sizes[KILN_MESH_POSITION]);
                break;
            }
            default: break;
            }
        }
        krt_stats st;
        krt_get_stats(c, &st);
        assert_int_equal(st.live_assets, cache_st.live_assets);
        if (k == 1) /* raw entries are used in place: no copy of the files */
            assert_true(st.resident_bytes < cache_st.resident_bytes);
        for (size_t i = 0; i < m.count; i++) krt_release(c, hp[i], &err);
        krt_finish(c);
        assert_int_equal(rec.live, 0);
        krt_destroy(c);
    }
    for (size_t i = 0; i < m.count; i++) krt_release(from_cache, hc[i], &err);
    krt_destroy(from_cache);
    free(hc);
    free(hp);
    krt_mounts_free(&m);
    (void)state;
}

static uint32_t box_texture_width(krt_context *c)
{
    kiln_error err;
    krt_handle h = krt_load_texture(c, "m0/BoxTextured.gltf#image0", &err);
    krt_finish(c);
    krt_texture_data t;
    assert_int_equal(krt_get_texture(c, h, &t, &err), KILN_OK);
    uint32_t w = t.width;
    krt_release(c, h, &err);
    krt_finish(c);
    return w;
}

static void a_later_mount_overrides_an_earlier_one(void **state)
{
    /* a patch: the box's texture changed, imported and packed again */
    char *src = kt_corpus_path("gltf/TextureSettingsTest/glTF/CheckAndX.png");
    char *cmd = kt_format("cp '%s' '%s/assets/m0/CesiumLogoFlat.png'", src, g.dir);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    free(src);
    rt_reimport(g.dir);
    write_pack(g_patch, KILN_PACK_COMPRESS_AUTO);
    kiln_error err;
    krt_context *c = make_ctx(NULL);
    assert_int_equal(krt_mount_pack(c, g_base, NULL, &err), KILN_OK);
    assert_int_equal(box_texture_width(c), 256);
    assert_int_equal(krt_mount_pack(c, g_patch, NULL, &err), KILN_OK);
    assert_int_equal(box_texture_width(c), 512);
    krt_destroy(c);
    c = make_ctx(NULL);
    assert_int_equal(krt_mount_pack(c, g_patch, NULL, &err), KILN_OK);
    assert_int_equal(krt_mount_pack(c, g_base, NULL, &err), KILN_OK);
    assert_int_equal(box_texture_width(c), 256);
    /* a pack, then the cache (which has the new texture): the cache wins */
    assert_int_equal(krt_mount_cache(c, g.cache, NULL, &err), KILN_OK);
    assert_int_equal(box_texture_width(c), 512);
    /* packs are not watched; polling still sees the cache and keeps the packs' artifacts */
    size_t n;
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    uint64_t id;
    assert_true(krt_lookup(c, "m1/CesiumMan.gltf#scene", &id));
    krt_destroy(c);
    (void)state;
}

static void damaged_packs_fail_cleanly(void **state)
{
    size_t n;
    uint8_t *bytes = kt_read_file(g_raw, &n);
    assert_non_null(bytes);
    char *bad = kt_format("%s/.kiln/bad.kpak", g.dir);
    kiln_error err;
    /* the table: refused at mount */
    bytes[70] ^= 0x5a;
    kt_write_file(bad, bytes, n);
    krt_context *c = make_ctx(NULL);
    assert_int_equal(krt_mount_pack(c, bad, NULL, &err), KILN_E_FORMAT_INVALID);
    assert_int_equal(krt_mount_pack(c, "/nonexistent-kiln.kpak", NULL, &err), KILN_E_ASSET_IO);
    bytes[70] ^= 0x5a;
    /* the last payload's last byte: the entry fails its checksum when loaded */
    bytes[n - 1] ^= 0x5a;
    kt_write_file(bad, bytes, n);
    assert_int_equal(krt_mount_pack(c, bad, NULL, &err), KILN_OK);
    kiln_allocator al = {0};
    krt_mounts m;
    assert_int_equal(krt_mounts_read_cache(g.cache, &al, &m, &err), KILN_OK);
    krt_handle *h = calloc(m.count, sizeof *h);
    int failed = 0;
    for (size_t i = 0; i < m.count; i++) h[i] = krt_load(c, (krt_type)m.items[i].type, m.items[i].name, &err);
    krt_finish(c);
    for (size_t i = 0; i < m.count; i++) {
        if (krt_state_of(c, h[i]) != KRT_STATE_FAILED) continue;
        kiln_error e;
        krt_error(c, h[i], &e);
        failed++;
        if (e.code == KILN_E_FORMAT_INVALID) assert_non_null(strstr(e.path, "bad.kpak"));
    }
    assert_true(failed > 0);
    for (size_t i = 0; i < m.count; i++) krt_release(c, h[i], &err);
    krt_destroy(c);
    free(h);
    krt_mounts_free(&m);
    free(bytes);
    free(bad);
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_artifact_loads_from_a_pack_as_from_the_cache),
        cmocka_unit_test(a_later_mount_overrides_an_earlier_one),
        cmocka_unit_test(damaged_packs_fail_cleanly),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
