/* test_runtime_pack.c — packs mounted by libkiln_rt: every artifact of a pack kiln wrote loads
 * as it does from the cache (raw entries in place, compressed ones decompressed), later mounts
 * override earlier ones (a patch pack), damaged packs fail to mount or fail the load cleanly. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hash.h"
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
    krt_stats cache_st = {.struct_size = sizeof cache_st};
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
            default:
                break;
            }
        }
        krt_stats st = {.struct_size = sizeof st};
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
    /* polling sees the cache and keeps the packs' artifacts */
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
    assert_int_equal(krt_mount_pack(c, bad, NULL, &err), KILN_E_CACHE_CORRUPT); /* its checksum */
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
    for (size_t i = 0; i < m.count; i++)
        h[i] = krt_load(c, (krt_type)m.items[i].type, m.items[i].name, &err);
    krt_finish(c);
    for (size_t i = 0; i < m.count; i++) {
        if (krt_state_of(c, h[i]) != KRT_STATE_FAILED) continue;
        kiln_error e;
        krt_error(c, h[i], &e);
        failed++;
        assert_int_equal(e.code, KILN_E_CACHE_CORRUPT); /* the entry's XXH3-64 */
        assert_non_null(strstr(e.path, "bad.kpak"));
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

static void copy_file(const char *from, const char *to)
{
    size_t n;
    uint8_t *b = kt_read_file(from, &n);
    assert_non_null(b);
    kt_write_file(to, b, n);
    free(b);
}

/* A pack renamed over the mounted one: the next poll maps it, reloads the loaded assets whose
 * entries changed into the same handles (replace_*), and the others keep their bytes (in the
 * old mapping) until released. Runs after a_later_mount_overrides_an_earlier_one: g_raw has
 * the box's old texture (256 wide), the project the new one (512). */
static void a_pack_replaced_by_rename_reloads_changed_entries(void **state)
{
    char *live = kt_format("%s/.kiln/live.kpak", g.dir);
    char *next = kt_format("%s/.kiln/next.kpak", g.dir);
    copy_file(g_raw, live);
    write_pack(next, KILN_PACK_COMPRESS_NONE); /* the new texture, raw entries */
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec);
    kiln_error err;
    assert_int_equal(krt_mount_pack(c, live, NULL, &err), KILN_OK);
    krt_handle tex = krt_load_texture(c, "m0/BoxTextured.gltf#image0", &err);
    krt_handle mesh = krt_load_mesh(c, "m1/CesiumMan.gltf#mesh0/prim0", &err);
    krt_finish(c);
    krt_texture_data t;
    krt_mesh_data md;
    assert_int_equal(krt_get_texture(c, tex, &t, &err), KILN_OK);
    assert_int_equal(t.width, 256);
    assert_int_equal(krt_get_mesh(c, mesh, &md, &err), KILN_OK);
    size_t pos_size = md.stream_sizes[KILN_MESH_POSITION];
    uint8_t *pos = malloc(pos_size);
    memcpy(pos, md.streams[KILN_MESH_POSITION], pos_size);
    size_t n = 9;
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 0); /* nothing changed yet */
    char *cmd = kt_format("mv '%s' '%s'", next, live);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_true(n >= 1);
    krt_finish(c);
    assert_int_equal(krt_get_texture(c, tex, &t, &err), KILN_OK);
    assert_int_equal(t.width, 512);
    assert_int_equal(rec.replaces[KRT_TYPE_TEXTURE], 1);
    assert_int_equal(rec.replaces[KRT_TYPE_MESH], 0); /* its entry did not change */
    assert_int_equal(krt_get_mesh(c, mesh, &md, &err), KILN_OK);
    assert_memory_equal(md.streams[KILN_MESH_POSITION], pos,
                        pos_size); /* old mapping, still there */
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 0);
    /* released, then loaded again: from the new pack (the old one is unmapped as the mesh goes) */
    krt_release(c, mesh, &err);
    krt_finish(c);
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    mesh = krt_load_mesh(c, "m1/CesiumMan.gltf#mesh0/prim0", &err);
    krt_finish(c);
    assert_int_equal(krt_get_mesh(c, mesh, &md, &err), KILN_OK);
    assert_memory_equal(md.streams[KILN_MESH_POSITION], pos, pos_size);
    /* a damaged pack renamed over it: the poll fails, the mounted one stays */
    size_t size;
    uint8_t *bytes = kt_read_file(live, &size);
    bytes[70] ^= 0x5a;
    kt_write_file(next, bytes, size);
    free(bytes);
    cmd = kt_format("mv '%s' '%s'", next, live);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_E_CACHE_CORRUPT);
    assert_int_equal(krt_get_texture(c, tex, &t, &err), KILN_OK);
    assert_int_equal(t.width, 512);
    krt_release(c, tex, &err);
    krt_release(c, mesh, &err);
    krt_finish(c);
    assert_int_equal(rec.live, 0);
    krt_destroy(c);
    free(pos);
    free(live);
    free(next);
    (void)state;
}

typedef struct listing {
    size_t count, packed;
    const char *want; /* a name to find */
    char file[1024];  /* where it is read from */
} listing;

static bool list_one(void *user, const krt_artifact_info *info)
{
    listing *l = user;
    l->count++;
    l->packed += info->packed;
    assert_true(info->id != 0 && info->type > KRT_TYPE_NONE && info->type < KRT_TYPE_COUNT);
    if (strcmp(info->name, l->want) == 0) snprintf(l->file, sizeof l->file, "%s", info->file);
    return true;
}

static bool stop_at_once(void *user, const krt_artifact_info *info)
{
    (void)user;
    (void)info;
    return false;
}

/* krt_mount_list shows what loads now; krt_unmount takes a mount away: what another mount also
 * has reloads from there into the same handle, the rest disappears from look-ups while loaded
 * assets keep their data. */
static void unmount_and_list(void **state)
{
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec);
    kiln_error err;
    size_t n_raw = 0, n_patch = 0;
    assert_int_equal(krt_mount_pack(c, g_raw, &n_raw, &err), KILN_OK);
    assert_int_equal(krt_mount_pack(c, g_patch, &n_patch, &err), KILN_OK);
    listing l;
    memset(&l, 0, sizeof l);
    l.want = "m0/BoxTextured.gltf#image0";
    size_t listed = krt_mount_list(c, list_one, &l);
    assert_int_equal(listed, l.count);
    assert_int_equal(l.count, n_raw); /* the same artifacts: the patch overrides each */
    assert_int_equal(l.packed, l.count);
    assert_string_equal(l.file, g_patch);
    assert_int_equal(krt_mount_list(c, stop_at_once, NULL), 1);
    krt_handle tex = krt_load_texture(c, "m0/BoxTextured.gltf#image0", &err);
    krt_finish(c);
    krt_texture_data t;
    assert_int_equal(krt_get_texture(c, tex, &t, &err), KILN_OK);
    assert_int_equal(t.width, 512);
    assert_int_equal(krt_unmount(c, "/nonexistent.kpak", &err), KILN_E_USAGE);
    assert_int_equal(krt_unmount(c, g_patch, &err), KILN_OK);
    krt_finish(c);
    assert_int_equal(krt_get_texture(c, tex, &t, &err), KILN_OK);
    assert_int_equal(t.width, 256); /* reloaded from the base */
    assert_int_equal(rec.replaces[KRT_TYPE_TEXTURE], 1);
    memset(&l, 0, sizeof l);
    l.want = "m0/BoxTextured.gltf#image0";
    krt_mount_list(c, list_one, &l);
    assert_string_equal(l.file, g_raw);
    size_t level0_size = t.levels[0].size;
    uint8_t *level0 = malloc(level0_size);
    assert_non_null(level0);
    memcpy(level0, t.levels[0].data, level0_size);
    /* the last mount goes: nothing to look up, the loaded texture keeps its (mapped) bytes */
    assert_int_equal(krt_unmount(c, g_raw, &err), KILN_OK);
    uint64_t id;
    assert_false(krt_lookup(c, "m0/BoxTextured.gltf#image0", &id));
    assert_int_equal(krt_mount_list(c, list_one, &l), 0);
    assert_int_equal(krt_get_texture(c, tex, &t, &err), KILN_OK);
    assert_int_equal(t.width, 256);
    assert_int_equal(t.levels[0].size, level0_size);
    assert_memory_equal(t.levels[0].data, level0, level0_size); /* still mapped, same bytes */
    free(level0);
    /* a cache mounts and unmounts the same way */
    size_t n = 0;
    assert_int_equal(krt_mount_cache(c, g.cache, &n, &err), KILN_OK);
    assert_true(krt_lookup(c, "m1/CesiumMan.gltf#scene", &id));
    assert_int_equal(krt_unmount(c, g.cache, &err), KILN_OK);
    assert_false(krt_lookup(c, "m1/CesiumMan.gltf#scene", &id));
    krt_release(c, tex, &err);
    krt_finish(c);
    assert_int_equal(rec.live, 0);
    krt_destroy(c);
    (void)state;
}

/* How many lines of /proc/self/maps map the file with this inode (0 without /proc). */
static int mapped_inode(unsigned long long ino)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return 0;
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long i = 0;
        /* address perms offset dev inode path */
        if (sscanf(line, "%*s %*s %*s %*s %llu", &i) == 1 && i == ino) n++;
    }
    fclose(f);
    return n;
}

static unsigned long long inode_of(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (unsigned long long)st.st_ino;
}

/* A pack that is no longer mounted stays mapped only while something uses its bytes: after an
 * unmount, and after a new pack is renamed over it, the mapping goes in the krt_update that
 * frees the last asset whose file is a view into it — no poll or unmount needed. */
static void a_retired_pack_is_unmapped_when_its_last_user_goes(void **state)
{
    if (!kt_file_exists("/proc/self/maps")) skip();
    char *own = kt_format("%s/.kiln/own.kpak", g.dir);
    char *next = kt_format("%s/.kiln/own-next.kpak", g.dir);
    copy_file(g_raw, own); /* raw entries: used in place from the mapping */
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec);
    kiln_error err;
    /* unmounted */
    assert_int_equal(krt_mount_pack(c, own, NULL, &err), KILN_OK);
    unsigned long long ino = inode_of(own);
    assert_true(mapped_inode(ino) >= 1);
    krt_handle tex = krt_load_texture(c, "m0/BoxTextured.gltf#image0", &err);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, tex), KRT_STATE_READY);
    assert_int_equal(krt_unmount(c, own, &err), KILN_OK);
    assert_true(mapped_inode(ino) >= 1); /* the texture's levels are in it */
    krt_release(c, tex, &err);
    krt_update(c); /* frees the texture's data: the mapping's last user */
    assert_int_equal(mapped_inode(ino), 0);
    /* replaced by rename: the old file's mapping goes with the last asset in it */
    assert_int_equal(krt_mount_pack(c, own, NULL, &err), KILN_OK);
    krt_handle mesh = krt_load_mesh(c, "m1/CesiumMan.gltf#mesh0/prim0", &err);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, mesh), KRT_STATE_READY);
    copy_file(g_raw, next);
    char *cmd = kt_format("mv '%s' '%s'", next, own);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    size_t n = 9;
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 0); /* the same bytes: nothing reloads, the mesh keeps the old mapping */
    assert_true(mapped_inode(ino) >= 1);
    assert_true(mapped_inode(inode_of(own)) >= 1);
    krt_release(c, mesh, &err);
    krt_update(c);
    assert_int_equal(mapped_inode(ino), 0);
    assert_true(mapped_inode(inode_of(own)) >= 1); /* the mounted one stays */
    krt_destroy(c);
    assert_int_equal(mapped_inode(inode_of(own)), 0);
    unlink(own);
    free(own);
    free(next);
    (void)state;
}

static void store_u64le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Writes bytes over path (made writable first: cache files are read-only). */
static void put_file(const char *path, const uint8_t *b, size_t n)
{
    char *cmd = kt_format("chmod u+w '%s'", path);
    kt_run(cmd, NULL);
    free(cmd);
    kt_write_file(path, b, n);
}

/* The code (and *e) a load of name fails with in a new context with only `mount` mounted (a
 * cache folder, or a pack when pack is set); KILN_OK when it loads. */
static kiln_result load_code(const char *mount, bool pack, krt_type type, const char *name,
                             kiln_error *e)
{
    krt_context *c = make_ctx(NULL);
    kiln_error err;
    assert_int_equal(pack ? krt_mount_pack(c, mount, NULL, &err)
                          : krt_mount_cache(c, mount, NULL, &err),
                     KILN_OK);
    krt_handle h = krt_load(c, type, name, &err);
    assert_int_not_equal(h.id, 0);
    krt_finish(c);
    kiln_result r = krt_error(c, h, e);
    krt_release(c, h, &err);
    krt_destroy(c);
    return r;
}

/* docs/runtime.md "Errors": a row per situation. "Not the bytes that were recorded" is
 * KILN_E_CACHE_CORRUPT from every check (a container's checksum, the manifest's digest and
 * size, a pack entry's and a pack table's XXH3-64); a file written malformed (its checksum
 * right) is KILN_E_FORMAT_INVALID; another version KILN_E_FORMAT_VERSION. */
static void each_damage_fails_with_its_code(void **state)
{
    kiln_error err, e;
    kiln_allocator al = {0};
    krt_mounts m;
    assert_int_equal(krt_mounts_read_cache(g.cache, &al, &m, &err), KILN_OK);
    const char *mat_name = "m0/BoxTextured.gltf#material0",
               *tex_name = "m0/BoxTextured.gltf#image0";
    const krt_artifact *mat = krt_mounts_find_name(&m, mat_name);
    const krt_artifact *tex = krt_mounts_find_name(&m, tex_name);
    assert_non_null(mat);
    assert_non_null(tex);
    size_t n, tn;
    uint8_t *orig = kt_read_file(mat->path, &n);
    uint8_t *torig = kt_read_file(tex->path, &tn);
    uint8_t *b = malloc(n > tn ? n : tn);
    assert_true(orig && torig && b && n > 80);

    /* a loose container: a byte flipped under its checksum */
    memcpy(b, orig, n);
    b[n - 1] ^= 0x5a;
    put_file(mat->path, b, n);
    assert_int_equal(load_code(g.cache, false, KRT_TYPE_MATERIAL, mat_name, &e),
                     KILN_E_CACHE_CORRUPT);
    assert_non_null(strstr(e.message, "container checksum (XXH3-64)"));
    assert_string_equal(e.path, mat->path);
    /* ... in its header (not the version): the same */
    memcpy(b, orig, n);
    b[40] ^= 1;
    put_file(mat->path, b, n);
    assert_int_equal(load_code(g.cache, false, KRT_TYPE_MATERIAL, mat_name, &e),
                     KILN_E_CACHE_CORRUPT);
    /* truncated: its size is not the manifest's */
    put_file(mat->path, orig, n - 1);
    assert_int_equal(load_code(g.cache, false, KRT_TYPE_MATERIAL, mat_name, &e),
                     KILN_E_CACHE_CORRUPT);
    assert_non_null(strstr(e.message, "the manifest says"));
    /* another container version: re-cook */
    memcpy(b, orig, n);
    b[4] = 2;
    put_file(mat->path, b, n);
    assert_int_equal(load_code(g.cache, false, KRT_TYPE_MATERIAL, mat_name, &e),
                     KILN_E_FORMAT_VERSION);
    /* written malformed (a reserved header byte set) with a checksum that matches */
    memcpy(b, orig, n);
    b[40] = 1;
    store_u64le(b + 24, kiln_xxh3_64_field_zeroed(b, n, 24));
    put_file(mat->path, b, n);
    assert_int_equal(load_code(g.cache, false, KRT_TYPE_MATERIAL, mat_name, &e),
                     KILN_E_FORMAT_INVALID);
    put_file(mat->path, orig, n);
    assert_int_equal(load_code(g.cache, false, KRT_TYPE_MATERIAL, mat_name, &e), KILN_OK);
    /* a loose KTX2 file: a byte flipped (the manifest's XXH3-128) */
    memcpy(b, torig, tn);
    b[tn / 2] ^= 0x5a;
    put_file(tex->path, b, tn);
    assert_int_equal(load_code(g.cache, false, KRT_TYPE_TEXTURE, tex_name, &e),
                     KILN_E_CACHE_CORRUPT);
    assert_non_null(strstr(e.message, "XXH3-128"));
    put_file(tex->path, torig, tn);

    /* packs, raw and compressed: a payload byte flipped (the entry's XXH3-64) */
    char *bad = kt_format("%s/.kiln/codes.kpak", g.dir);
    const char *const packs[] = {g_raw, g_base};
    for (int k = 0; k < 2; k++) {
        size_t pn;
        uint8_t *pb = kt_read_file(packs[k], &pn);
        assert_non_null(pb);
        pb[pn - 1] ^= 0x5a; /* the last payload */
        put_file(bad, pb, pn);
        int corrupt = 0;
        for (size_t i = 0; i < m.count; i++) {
            kiln_result r = load_code(bad, true, (krt_type)m.items[i].type, m.items[i].name, &e);
            if (r == KILN_OK) continue;
            assert_int_equal(r, KILN_E_CACHE_CORRUPT); /* its own, or a dependency's */
            if (strncmp(e.message, "pack entry ", 11) != 0) continue; /* "mesh <id>: ..." */
            assert_non_null(strstr(e.message, "stored bytes do not match their XXH3-64"));
            if (!strstr(e.message, m.items[i].name)) fail_msg("%s: %s", m.items[i].name, e.message);
            corrupt++;
        }
        assert_true(corrupt >= 1);
        free(pb);
    }
    /* a pack's table: a byte flipped (its checksum), another version, written malformed */
    size_t pn;
    uint8_t *pb = kt_read_file(g_raw, &pn);
    assert_non_null(pb);
    krt_context *c = make_ctx(NULL);
    pb[70] ^= 0x5a;
    put_file(bad, pb, pn);
    assert_int_equal(krt_mount_pack(c, bad, NULL, &err), KILN_E_CACHE_CORRUPT);
    assert_non_null(strstr(err.message, "table of contents' checksum (XXH3-64)"));
    assert_string_equal(err.path, bad);
    pb[70] ^= 0x5a;
    pb[4] = 2;
    put_file(bad, pb, pn);
    assert_int_equal(krt_mount_pack(c, bad, NULL, &err), KILN_E_FORMAT_VERSION);
    pb[4] = 1;
    pb[56] = 1; /* reserved */
    uint64_t data_offset = 0;
    for (int i = 7; i >= 0; i--) data_offset = data_offset << 8 | pb[40 + i];
    store_u64le(pb + 48, kiln_xxh3_64_field_zeroed(pb, (size_t)data_offset, 48));
    put_file(bad, pb, pn);
    assert_int_equal(krt_mount_pack(c, bad, NULL, &err), KILN_E_FORMAT_INVALID);
    krt_destroy(c);
    unlink(bad);
    free(bad);
    free(pb);
    free(b);
    free(orig);
    free(torig);
    krt_mounts_free(&m);
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_artifact_loads_from_a_pack_as_from_the_cache),
        cmocka_unit_test(a_later_mount_overrides_an_earlier_one),
        cmocka_unit_test(damaged_packs_fail_cleanly),
        cmocka_unit_test(a_pack_replaced_by_rename_reloads_changed_entries),
        cmocka_unit_test(a_retired_pack_is_unmapped_when_its_last_user_goes),
        cmocka_unit_test(each_damage_fails_with_its_code),
        cmocka_unit_test(unmount_and_list),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
