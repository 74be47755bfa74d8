/* test_runtime_reload.c — hot reload over a cooked temporary project: a source changes, libkiln
 * imports it again, krt_poll_changes finds the changed artifacts and reloads them into the same
 * handles through replace_* callbacks; a texture's reload rebuilds its materials, a material's
 * keeps its textures; a failed reload keeps the old data and reports it; the inotify watcher;
 * a kept (released) asset whose file changed is evicted. */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_fixture.h"
#include "runtime/rt_mount.h"        /* krt_mounts_read_cache: where a cooked file is */
#include "runtime/rt_source_check.h" /* the folder stamp's rule */
#include "support.h"

static rt_project g;

static const char *const scene_name = "m0/BoxTextured.gltf#scene";
static const char *const tex_name = "m0/BoxTextured.gltf#image0";
static const char *const mat_name = "m0/BoxTextured.gltf#material0";

static int setup(void **state)
{
    /* m1: 10 meshes, 10 materials, 3 images (image0 sampled by materials 0, 2 and 3, image1 by
     * 1, 5, 6, 7 and 8, image2 by 9; material 4 samples none) */
    static const char *const models[] = {"gltf/BoxTextured/glTF", "gltf/TextureSettingsTest/glTF"};
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

/* A context with two workers, the fixture's cache mounted, the recording renderer (or none). */
static krt_context *make_ctx_flags(rt_recorder *rec, uint64_t budget, uint64_t flags)
{
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 2;
    d.budget_bytes = budget;
    d.flags = flags;
    if (rec) d.renderer = rt_recorder_renderer(rec);
    krt_context *c = NULL;
    kiln_error err;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, g.cache, NULL, &err), KILN_OK);
    return c;
}

static krt_context *make_ctx(rt_recorder *rec, uint64_t budget)
{
    return make_ctx_flags(rec, budget, 0);
}

/* Replaces the box's texture source with a corpus PNG and imports again. */
static void change_texture(const char *corpus_png)
{
    char *src = kt_corpus_path(corpus_png);
    char *cmd = kt_format("cp '%s' '%s/assets/m0/CesiumLogoFlat.png'", src, g.dir);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    free(src);
    rt_reimport(g.dir);
}

/* Sets the box material's metallicFactor in the .gltf and imports again. */
static void change_metallic(const char *value)
{
    char *path = kt_format("%s/assets/m0/BoxTextured.gltf", g.dir);
    size_t n;
    uint8_t *bytes = kt_read_file(path, &n);
    assert_non_null(bytes);
    char *text = malloc(n + 1); /* the file's bytes are not NUL-terminated */
    assert_non_null(text);
    memcpy(text, bytes, n);
    text[n] = 0;
    free(bytes);
    char *at = strstr(text, "\"metallicFactor\":");
    assert_non_null(at);
    char *end = at + strlen("\"metallicFactor\":");
    while (*end == ' ' || *end == '-' || *end == '.' || (*end >= '0' && *end <= '9')) end++;
    char *out = kt_format("%.*s\"metallicFactor\": %s%s", (int)(at - text), text, value, end);
    kt_write_file(path, out, strlen(out));
    free(out);
    free(text);
    free(path);
    rt_reimport(g.dir);
}

static uint32_t texture_width(krt_context *c, krt_handle h)
{
    krt_texture_data t;
    kiln_error err;
    assert_int_equal(krt_get_texture(c, h, &t, &err), KILN_OK);
    return t.width;
}

static float metallic(krt_context *c, krt_handle h)
{
    krt_material_data m;
    kiln_error err;
    assert_int_equal(krt_get_material(c, h, &m, &err), KILN_OK);
    return m.material->metallic;
}

static void a_texture_reloads_into_its_handle_and_rebuilds_its_material(void **state)
{
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec, 0);
    krt_handle scene = rt_load_ready(c, KRT_TYPE_SCENE, scene_name);
    krt_handle tex = rt_load_ready(c, KRT_TYPE_TEXTURE, tex_name);
    krt_handle mat = rt_load_ready(c, KRT_TYPE_MATERIAL, mat_name);
    assert_int_equal(texture_width(c, tex), 256);
    void *tex_gpu = krt_gpu(c, tex);
    size_t n = 99;
    kiln_error err;
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 0); /* nothing changed */
    int creates =
        rec.creates[KRT_TYPE_TEXTURE] + rec.creates[KRT_TYPE_MATERIAL] + rec.creates[KRT_TYPE_MESH];

    change_texture("gltf/TextureSettingsTest/glTF/CheckAndX.png");
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 1); /* only image0's bytes changed */
    krt_finish(c);
    assert_int_equal(rec.replaces[KRT_TYPE_TEXTURE], 1);
    assert_int_equal(rec.replaces[KRT_TYPE_MATERIAL], 1); /* rebuilt with the new texture */
    assert_int_equal(rec.replaces[KRT_TYPE_MESH], 0);
    assert_int_equal(rec.creates[KRT_TYPE_TEXTURE] + rec.creates[KRT_TYPE_MATERIAL] +
                         rec.creates[KRT_TYPE_MESH],
                     creates);
    assert_int_equal(rec.last_width, 512);
    assert_int_equal(krt_state_of(c, tex), KRT_STATE_READY); /* the same handle, new data */
    assert_int_equal(texture_width(c, tex), 512);
    assert_ptr_equal(krt_gpu(c, tex), tex_gpu);
    assert_int_equal(krt_reload_error(c, tex, &err), KILN_OK);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    assert_int_equal(st.reloads, 1);
    assert_int_equal(st.reload_failures, 0);
    assert_int_equal(krt_state_of(c, scene), KRT_STATE_READY);

    /* a material's reload keeps its texture (no texture reload) */
    change_metallic("0.5");
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 1);
    krt_finish(c);
    assert_int_equal(rec.replaces[KRT_TYPE_MATERIAL], 2);
    assert_int_equal(rec.replaces[KRT_TYPE_TEXTURE], 1);
    assert_true(metallic(c, mat) == 0.5f);
    krt_material_data md;
    assert_int_equal(krt_get_material(c, mat, &md, &err), KILN_OK);
    assert_int_equal(md.textures[KILN_MATERIAL_SLOT_BASE_COLOR].id, tex.id);
    krt_get_stats(c, &st);
    assert_int_equal(st.reloads, 2);
    uint64_t loads = st.loads;

    /* a failed reload keeps the old data and says why; a forced reload then works */
    rec.fail_replaces = 1;
    change_metallic("0.25");
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 1);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, mat), KRT_STATE_READY);
    assert_true(metallic(c, mat) == 0.5f);
    kiln_error re;
    assert_int_equal(krt_reload_error(c, mat, &re), KILN_E_USAGE);
    assert_non_null(strstr(re.message, "refuses"));
    krt_get_stats(c, &st);
    assert_int_equal(st.reload_failures, 1);
    assert_int_equal(st.loads, loads);
    rec.fail_replaces = 0;
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 0); /* the failure is not retried by polling: the file did not change */
    assert_int_equal(krt_reload(c, mat, &err), KILN_OK);
    krt_finish(c);
    assert_true(metallic(c, mat) == 0.25f);
    assert_int_equal(krt_reload_error(c, mat, &re), KILN_OK);
    krt_handle none = {0};
    assert_int_equal(krt_reload(c, none, &err), KILN_E_USAGE);

    krt_release(c, scene, &err);
    krt_release(c, tex, &err);
    krt_release(c, mat, &err);
    krt_finish(c);
    assert_int_equal(rec.live, 0);
    krt_get_stats(c, &st);
    assert_int_equal(st.live_assets, 0);
    assert_int_equal(st.resident_bytes, 0);
    krt_destroy(c);
    (void)state;
}

static void the_watcher_flags_changes_for_the_poll(void **state)
{
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec, 0);
    kiln_error err;
    krt_handle tex = rt_load_ready(c, KRT_TYPE_TEXTURE, tex_name);
    uint32_t w0 = texture_width(c, tex);
    assert_int_equal(krt_watch_start(c, &err), KILN_OK);
    assert_int_equal(krt_watch_start(c, &err), KILN_OK); /* twice: a no-op */
    size_t n = 99;
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 0);
    change_texture(w0 == 512 ? "gltf/BoxTextured/glTF/CesiumLogoFlat.png"
                             : "gltf/TextureSettingsTest/glTF/CheckAndX.png");
    size_t total = 0;
    for (int i = 0; i < 500 && total == 0; i++) { /* the event arrives asynchronously */
        assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
        total += n;
        if (!total) nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    assert_int_equal(total, 1);
    krt_finish(c);
    assert_int_equal(rec.replaces[KRT_TYPE_TEXTURE], 1);
    assert_int_not_equal(texture_width(c, tex), w0);
    krt_watch_stop(c);
    krt_watch_stop(c);
    krt_release(c, tex, &err);
    krt_destroy(c);
    (void)state;
}

static void a_kept_asset_whose_file_changed_is_evicted(void **state)
{
    krt_context *c = make_ctx(NULL, UINT64_MAX);
    kiln_error err;
    krt_handle tex = rt_load_ready(c, KRT_TYPE_TEXTURE, tex_name);
    uint32_t w0 = texture_width(c, tex);
    krt_release(c, tex, &err);
    krt_finish(c);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    assert_int_equal(st.cached_assets, 1);
    uint64_t loads = st.loads;
    change_texture(w0 == 512 ? "gltf/BoxTextured/glTF/CesiumLogoFlat.png"
                             : "gltf/TextureSettingsTest/glTF/CheckAndX.png");
    size_t n;
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 0);
    krt_get_stats(c, &st);
    assert_int_equal(st.cached_assets, 0);
    assert_int_equal(st.evictions, 1);
    tex = rt_load_ready(c, KRT_TYPE_TEXTURE, tex_name);
    assert_int_not_equal(texture_width(c, tex), w0);
    krt_get_stats(c, &st);
    assert_int_equal(st.loads, loads + 1);
    krt_release(c, tex, &err);
    krt_destroy(c);
    (void)state;
}

static krt_stats stats(krt_context *c)
{
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    return st;
}

/* With many assets loaded and one texture changed, the poll compares only the assets of the
 * record that changed (looked up by id), not every loaded asset, and reloads only the one. */
static void a_poll_compares_only_what_changed(void **state)
{
    /* Sources modified moments before an import are checked again at the next one, and their
     * record is rewritten (its checked_ns) though nothing changed: the poll then rightly
     * compares that record's assets too. Dated in the past and imported once, only the source
     * the test changes is rewritten. */
    char *cmd =
        kt_format("find '%s/assets' -type f -exec touch -d '2020-01-01 00:00:00' {} +", g.dir);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    rt_reimport(g.dir);
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec, 0);
    kiln_error err;
    krt_handle big = rt_load_ready(c, KRT_TYPE_SCENE, "m1/TextureSettingsTest.gltf#scene");
    krt_handle box = rt_load_ready(c, KRT_TYPE_SCENE, scene_name);
    krt_handle tex = rt_load_ready(c, KRT_TYPE_TEXTURE, tex_name);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    assert_true(st.live_assets >= 28); /* 24 of m1 (scene, 10 meshes, 10 materials, 3 images) + 4 */
    uint32_t w0 = texture_width(c, tex);
    size_t n = 99;
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 0);
    change_texture(w0 == 512 ? "gltf/BoxTextured/glTF/CesiumLogoFlat.png"
                             : "gltf/TextureSettingsTest/glTF/CheckAndX.png");
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 1);
    /* only m0's record changed: its 4 loaded assets (scene, mesh, material, image) are looked at */
    assert_true(stats(c).poll_visits >= 1);
    assert_true(stats(c).poll_visits <= 4);
    krt_finish(c);
    assert_int_equal(rec.replaces[KRT_TYPE_TEXTURE], 1);
    assert_int_equal(rec.replaces[KRT_TYPE_MESH], 0);
    assert_int_not_equal(texture_width(c, tex), w0);
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK); /* nothing changed since */
    assert_int_equal(n, 0);
    krt_release(c, tex, &err);
    krt_release(c, box, &err);
    krt_release(c, big, &err);
    krt_finish(c);
    assert_int_equal(rec.live, 0);
    krt_destroy(c);
    (void)state;
}

/* Copies a corpus file over m1's source image `name` and imports again. */
static void change_m1_image(const char *name, const char *corpus_png)
{
    char *src = kt_corpus_path(corpus_png);
    char *cmd = kt_format("cp '%s' '%s/assets/m1/%s'", src, g.dir, name);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    free(src);
    rt_reimport(g.dir);
}

static krt_handle m1_material(krt_context *c, int i)
{
    char name[64];
    snprintf(name, sizeof name, "m1/TextureSettingsTest.gltf#material%d", i);
    kiln_error err;
    krt_handle h = krt_load_material(c, name, &err);
    assert_int_not_equal(h.id, 0);
    return h;
}

/* Whether the recorder's log has "<what> <handle>" (once or more). */
static int logged(rt_recorder *rec, const char *what, krt_handle h)
{
    char line[64];
    snprintf(line, sizeof line, "%s %016llx\n", what, (unsigned long long)h.id);
    int n = 0;
    for (const char *p = rec->log; (p = strstr(p, line)) != NULL; p += strlen(line)) n++;
    return n;
}

/* m1's image0 is sampled by materials 0, 2 and 3: its reload rebuilds exactly those three
 * (through the texture's dependents, not a walk over every slot); materials 1 and 4-9 are not
 * touched. */
static void a_texture_reload_rebuilds_exactly_its_materials(void **state)
{
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec, 0);
    kiln_error err;
    krt_handle scene = rt_load_ready(c, KRT_TYPE_SCENE, "m1/TextureSettingsTest.gltf#scene");
    krt_handle mats[10];
    for (int i = 0; i < 10; i++) mats[i] = m1_material(c, i);
    krt_handle img0 = rt_load_ready(c, KRT_TYPE_TEXTURE, "m1/TextureSettingsTest.gltf#image0");
    uint32_t w0 = texture_width(c, img0);
    rec.log_size = 0;
    rec.log[0] = 0;
    change_m1_image("CheckAndX_V.png", w0 == 512 ? "gltf/BoxTextured/glTF/CesiumLogoFlat.png"
                                                 : "gltf/TextureSettingsTest/glTF/CheckAndX_V.png");
    size_t n = 0;
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 1); /* image0 only */
    krt_finish(c);
    assert_int_not_equal(texture_width(c, img0), w0);
    assert_int_equal(rec.replaces[KRT_TYPE_TEXTURE], 1);
    assert_int_equal(rec.replaces[KRT_TYPE_MATERIAL], 3);
    for (int i = 0; i < 10; i++)
        assert_int_equal(logged(&rec, "replace_material", mats[i]), i == 0 || i == 2 || i == 3);
    assert_int_equal(stats(c).rebuild_visits, 3); /* its three dependents, of 24 live assets */
    for (int i = 0; i < 10; i++) krt_release(c, mats[i], &err);
    krt_release(c, img0, &err);
    krt_release(c, scene, &err);
    krt_finish(c);
    assert_int_equal(rec.live, 0);
    krt_destroy(c);
    (void)state;
}

/* m1's image1 damaged: the materials that sample it (1, 5, 6, 7, 8) fail with its error, and
 * the others (0, 2, 3, 4, 9) are ready. */
static void a_failed_texture_fails_exactly_its_materials(void **state)
{
    kiln_error err;
    krt_mounts m;
    kiln_allocator al = {0};
    assert_int_equal(krt_mounts_read_cache(g.cache, &al, &m, &err), KILN_OK);
    const krt_artifact *img = krt_mounts_find_name(&m, "m1/TextureSettingsTest.gltf#image1");
    assert_non_null(img);
    size_t size;
    uint8_t *saved = kt_read_file(img->path, &size);
    assert_non_null(saved);
    uint8_t *bad = malloc(size);
    assert_non_null(bad);
    memcpy(bad, saved, size);
    bad[size / 2] ^= 0x5a;
    char *cmd = kt_format("chmod u+w '%s'", img->path);
    kt_run(cmd, NULL);
    free(cmd);
    kt_write_file(img->path, bad, size);
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec, 0);
    krt_handle mats[10];
    for (int i = 0; i < 10; i++) mats[i] = m1_material(c, i);
    krt_finish(c);
    for (int i = 0; i < 10; i++) {
        bool samples_image1 = i == 1 || (i >= 5 && i <= 8);
        kiln_error e;
        assert_int_equal(krt_state_of(c, mats[i]),
                         samples_image1 ? KRT_STATE_FAILED : KRT_STATE_READY);
        if (!samples_image1) continue;
        assert_int_equal(krt_error(c, mats[i], &e), KILN_E_CACHE_CORRUPT);
        assert_non_null(strstr(e.message, "texture")); /* the failed dependency is named */
    }
    assert_int_equal(rec.creates[KRT_TYPE_MATERIAL], 5);
    for (int i = 0; i < 10; i++) krt_release(c, mats[i], &err);
    krt_finish(c);
    assert_int_equal(rec.live, 0);
    krt_destroy(c);
    kt_write_file(img->path, saved, size);
    free(saved);
    free(bad);
    krt_mounts_free(&m);
    (void)state;
}

/* The inotify watches of this process: "inotify wd:" lines of every inotify descriptor's
 * fdinfo; -1 without /proc. */
static int inotify_watches(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char link[320], target[256];
        snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
        ssize_t k = readlink(link, target, sizeof target - 1);
        if (k <= 0) continue;
        target[k] = 0;
        if (!strstr(target, "inotify")) continue;
        snprintf(link, sizeof link, "/proc/self/fdinfo/%s", e->d_name);
        FILE *f = fopen(link, "r");
        if (!f) continue;
        char line[512];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "inotify wd:", 11) == 0) n++;
        fclose(f);
    }
    closedir(d);
    return n;
}

/* krt_unmount with the watcher on removes the folder's watch — once no other mount of the same
 * folder (which shares it) is left. */
static void unmount_removes_the_watch(void **state)
{
    if (inotify_watches() < 0) skip();
    krt_context *c = make_ctx(NULL, 0); /* the cache mounted once */
    kiln_error err;
    assert_int_equal(inotify_watches(), 0);
    assert_int_equal(krt_watch_start(c, &err), KILN_OK);
    assert_int_equal(inotify_watches(), 1);
    assert_int_equal(krt_mount_cache(c, g.cache, NULL, &err), KILN_OK); /* the same folder again */
    assert_int_equal(inotify_watches(), 1);                             /* one watch for both */
    assert_int_equal(krt_unmount(c, g.cache, &err), KILN_OK);
    assert_int_equal(inotify_watches(), 1); /* the first mount still watches it */
    assert_int_equal(krt_unmount(c, g.cache, &err), KILN_OK);
    assert_int_equal(inotify_watches(), 0);
    assert_int_equal(krt_mount_cache(c, g.cache, NULL, &err), KILN_OK); /* watched again */
    assert_int_equal(inotify_watches(), 1);
    krt_handle tex = rt_load_ready(c, KRT_TYPE_TEXTURE, tex_name);
    krt_release(c, tex, &err);
    krt_watch_stop(c);
    assert_int_equal(inotify_watches(), 0);
    krt_destroy(c);
    (void)state;
}

static uint64_t resident(krt_context *c)
{
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    return st.resident_bytes;
}

/* KRT_DESC_DROP_CPU_AFTER_UPLOAD: once create_* / replace_* took a texture's or mesh's data its
 * CPU copy goes (resident_bytes drops, the getters say so), materials and scenes keep theirs,
 * hot reload still replaces, a released one is not kept under the budget, the null renderer
 * keeps everything, and a caller whose struct_size ends before `flags` never gets it. */
static void drop_cpu_after_upload(void **state)
{
    const char *mesh_name = "m0/BoxTextured.gltf#mesh0/prim0";
    kiln_error err;
    rt_recorder rec0;
    rt_recorder_init(&rec0);
    krt_context *c0 = make_ctx_flags(&rec0, 0, 0);
    krt_handle s0 = rt_load_ready(c0, KRT_TYPE_SCENE, scene_name);
    uint64_t full = resident(c0);
    krt_release(c0, s0, &err);
    krt_destroy(c0);

    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx_flags(&rec, UINT64_MAX, KRT_DESC_DROP_CPU_AFTER_UPLOAD);
    krt_handle scene = rt_load_ready(c, KRT_TYPE_SCENE, scene_name);
    krt_handle tex = rt_load_ready(c, KRT_TYPE_TEXTURE, tex_name);
    krt_handle mesh = rt_load_ready(c, KRT_TYPE_MESH, mesh_name);
    krt_handle mat = rt_load_ready(c, KRT_TYPE_MATERIAL, mat_name);
    uint64_t dropped = resident(c);
    assert_true(dropped > 0);        /* the material's and the scene's files */
    assert_true(dropped < full / 4); /* the texture's and the mesh's bytes are gone */
    krt_texture_data t;
    krt_mesh_data md;
    krt_material_data mdata;
    krt_scene_data sd;
    assert_int_equal(krt_get_texture(c, tex, &t, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "released after upload"));
    assert_int_equal(krt_get_mesh(c, mesh, &md, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "released after upload"));
    assert_int_equal(krt_get_material(c, mat, &mdata, &err), KILN_OK);
    assert_int_equal(mdata.textures[KILN_MATERIAL_SLOT_BASE_COLOR].id, tex.id);
    assert_int_equal(krt_get_scene(c, scene, &sd, &err), KILN_OK);
    assert_int_equal(krt_state_of(c, tex), KRT_STATE_READY);
    assert_non_null(krt_gpu(c, tex));
    assert_non_null(krt_gpu(c, mesh));

    /* hot reload: replace_texture gets the new data, which then goes too */
    uint32_t w0 = rec.last_width;
    change_texture(w0 == 512 ? "gltf/BoxTextured/glTF/CesiumLogoFlat.png"
                             : "gltf/TextureSettingsTest/glTF/CheckAndX.png");
    size_t n = 0;
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 1);
    krt_finish(c);
    assert_int_equal(rec.replaces[KRT_TYPE_TEXTURE], 1);
    assert_int_equal(rec.replaces[KRT_TYPE_MATERIAL], 1);
    assert_int_not_equal(rec.last_width, w0);
    assert_int_equal(krt_get_texture(c, tex, &t, &err), KILN_E_USAGE);
    assert_int_equal(resident(c), dropped);

    /* released with an unlimited budget: the material and the scene are kept, the texture and
     * the mesh (no CPU data) are not; a new load of the texture reads its file */
    krt_release(c, scene, &err);
    krt_release(c, tex, &err);
    krt_release(c, mesh, &err);
    krt_release(c, mat, &err);
    krt_finish(c);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    assert_int_equal(st.cached_assets, 2);
    assert_int_equal(st.cached_bytes, st.resident_bytes);
    assert_int_equal(st.resident_bytes, dropped);
    uint64_t loads = st.loads, revivals = st.revivals;
    tex = rt_load_ready(c, KRT_TYPE_TEXTURE, tex_name);
    krt_get_stats(c, &st);
    assert_int_equal(st.loads, loads + 1);
    assert_int_equal(st.revivals, revivals);
    krt_release(c, tex, &err);
    krt_finish(c);
    assert_int_equal(rec.live, 0);
    krt_destroy(c);

    /* the null renderer keeps CPU data */
    c = make_ctx_flags(NULL, 0, KRT_DESC_DROP_CPU_AFTER_UPLOAD);
    tex = rt_load_ready(c, KRT_TYPE_TEXTURE, tex_name);
    assert_int_equal(krt_get_texture(c, tex, &t, &err), KILN_OK);
    assert_non_null(t.levels[0].data);
    krt_release(c, tex, &err);
    krt_destroy(c);

    /* an older caller: struct_size ends before flags, whatever lies there is not read */
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = (uint32_t)offsetof(krt_desc, flags);
    d.worker_count = 2;
    d.renderer = rt_recorder_renderer(&rec);
    d.flags = KRT_DESC_DROP_CPU_AFTER_UPLOAD;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, g.cache, NULL, &err), KILN_OK);
    tex = rt_load_ready(c, KRT_TYPE_TEXTURE, tex_name);
    assert_int_equal(krt_get_texture(c, tex, &t, &err), KILN_OK);
    krt_release(c, tex, &err);
    krt_finish(c);
    krt_destroy(c);
    d.struct_size = sizeof d;
    d.flags = 1u << 5;
    assert_int_equal(krt_create(&d, &c, &err), KILN_E_USAGE); /* unknown bits */
    (void)state;
}

/* A scheduler the test runs by hand: jobs queue until manual_run (or krt_wait) runs them, so a
 * test can stop between a load job and its dependencies' jobs. */
typedef struct manual_jobs {
    pthread_mutex_t mu;
    krt_job_fn fn[512];
    void *arg[512];
    size_t head, count;
} manual_jobs;

static bool manual_submit(void *user, krt_job_fn fn, void *arg)
{
    manual_jobs *m = user;
    pthread_mutex_lock(&m->mu);
    bool ok = m->count < 512;
    if (ok) {
        size_t at = (m->head + m->count++) % 512;
        m->fn[at] = fn;
        m->arg[at] = arg;
    }
    pthread_mutex_unlock(&m->mu);
    return ok; /* full: the runtime runs it inline */
}

/* Runs up to max queued jobs in order (those they queue too); returns how many ran. */
static size_t manual_run(manual_jobs *m, size_t max)
{
    size_t ran = 0;
    while (ran < max) {
        pthread_mutex_lock(&m->mu);
        krt_job_fn fn = NULL;
        void *arg = NULL;
        if (m->count) {
            fn = m->fn[m->head];
            arg = m->arg[m->head];
            m->head = (m->head + 1) % 512;
            m->count--;
        }
        pthread_mutex_unlock(&m->mu);
        if (!fn) break;
        fn(arg);
        ran++;
    }
    return ran;
}

static void manual_wait(void *user, bool (*done)(void *), void *done_arg)
{
    while (!done(done_arg) && manual_run(user, 1)) {
    }
}

/* A context whose jobs run only when the test says (manual_run), with a recording renderer,
 * the fixture's cache mounted. */
static krt_context *make_manual_ctx(manual_jobs *jobs, rt_recorder *rec)
{
    memset(jobs, 0, sizeof *jobs);
    pthread_mutex_init(&jobs->mu, NULL);
    rt_recorder_init(rec);
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.jobs = (krt_jobs){manual_submit, manual_wait, jobs};
    d.renderer = rt_recorder_renderer(rec);
    krt_context *c = NULL;
    kiln_error err;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, g.cache, NULL, &err), KILN_OK);
    return c;
}

/* krt_update's work follows what changed: a material waiting for its texture is looked at once
 * and parked (not at every update) until the texture is ready; with many assets loaded and
 * idle an update looks at nothing; one staged reload among them is the one thing it looks at
 * (not every slot). */
static void krt_update_looks_only_at_what_changed(void **state)
{
    manual_jobs jobs;
    rt_recorder rec;
    krt_context *c = make_manual_ctx(&jobs, &rec);
    kiln_error err;

    krt_handle mat = krt_load_material(c, mat_name, &err);
    assert_int_not_equal(mat.id, 0);
    assert_int_equal(manual_run(&jobs, 1), 1); /* the material's job: its texture's is queued */
    assert_int_equal(jobs.count, 1);
    assert_int_equal(krt_update(c), 2); /* the material waits, the texture's job is queued */
    assert_int_equal(stats(c).update_visits, 1);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(krt_update(c), 2);
        assert_int_equal(stats(c).update_visits, 0); /* parked: not looked at again */
    }
    assert_int_equal(krt_state_of(c, mat), KRT_STATE_LOADING);
    assert_int_equal(manual_run(&jobs, 100), 1);
    assert_int_equal(krt_update(c), 0); /* the texture is created, which wakes the material */
    assert_int_equal(stats(c).update_visits, 2);
    assert_int_equal(krt_state_of(c, mat), KRT_STATE_READY);
    assert_int_equal(rec.creates[KRT_TYPE_MATERIAL], 1);

    /* many loaded, nothing changing */
    krt_handle big = krt_load_scene(c, "m1/TextureSettingsTest.gltf#scene", &err);
    krt_handle box = krt_load_scene(c, scene_name, &err);
    krt_handle tex = krt_load_texture(c, tex_name, &err);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, big), KRT_STATE_READY);
    assert_int_equal(krt_state_of(c, box), KRT_STATE_READY);
    assert_true(stats(c).live_assets >= 28);
    assert_int_equal(krt_update(c), 0);
    assert_int_equal(stats(c).update_visits, 0);

    /* one staged reload among them */
    int replaces = rec.replaces[KRT_TYPE_TEXTURE];
    assert_int_equal(krt_reload(c, tex, &err), KILN_OK);
    assert_int_equal(manual_run(&jobs, 100), 1);
    assert_int_equal(krt_update(c), 0);
    assert_int_equal(stats(c).update_visits, 1);
    assert_int_equal(rec.replaces[KRT_TYPE_TEXTURE], replaces + 1);
    assert_int_equal(stats(c).reloads, 1);
    assert_int_equal(krt_update(c), 0);
    assert_int_equal(stats(c).update_visits, 0);

    krt_release(c, tex, &err);
    krt_release(c, box, &err);
    krt_release(c, big, &err);
    krt_release(c, mat, &err);
    krt_finish(c);
    assert_int_equal(rec.live, 0);
    krt_destroy(c);
    pthread_mutex_destroy(&jobs.mu);
    (void)state;
}

/* Points m1's material9 (LabelMaterial) at texture `index` (8: image2, its own; 0: image0) and
 * imports again. */
static void point_material9_at(int index)
{
    char *cmd = kt_format(
        "sed -i 's/\"index\": [08]$/\"index\": %d/' '%s/assets/m1/TextureSettingsTest.gltf'", index,
        g.dir);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    rt_reimport(g.dir);
}

/* A staged reload whose new data needs a texture not loaded yet is parked until that texture is
 * created (looked at once, then not at the next updates), then applied in the update that
 * creates the texture; the texture the old data held is released. */
static void a_reload_waiting_for_a_new_texture_is_parked(void **state)
{
    manual_jobs jobs;
    rt_recorder rec;
    krt_context *c = make_manual_ctx(&jobs, &rec);
    kiln_error err;
    krt_handle mat = rt_load_ready(c, KRT_TYPE_MATERIAL, "m1/TextureSettingsTest.gltf#material9");
    krt_material_data md;
    assert_int_equal(krt_get_material(c, mat, &md, &err), KILN_OK);
    krt_handle old_tex = md.textures[KILN_MATERIAL_SLOT_BASE_COLOR];
    assert_int_not_equal(old_tex.id, 0);
    assert_int_equal(stats(c).live_assets, 2);

    point_material9_at(0);
    size_t n = 0;
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 1);                    /* the material (image0 is not loaded) */
    assert_int_equal(manual_run(&jobs, 1), 1); /* its reload job: image0's load is queued */
    assert_int_equal(jobs.count, 1);
    assert_int_equal(krt_update(c), 2); /* the reload waits, image0's job is queued */
    assert_int_equal(stats(c).update_visits, 1);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(krt_update(c), 2);
        assert_int_equal(stats(c).update_visits, 0); /* parked */
    }
    assert_int_equal(rec.replaces[KRT_TYPE_MATERIAL], 0);
    assert_int_equal(manual_run(&jobs, 100), 1);
    assert_int_equal(krt_update(c), 0);
    /* image0 created (1), which wakes the reload (2); the old texture released and retired (3) */
    assert_int_equal(stats(c).update_visits, 3);
    assert_int_equal(rec.replaces[KRT_TYPE_MATERIAL], 1);
    assert_int_equal(logged(&rec, "destroy_texture", old_tex), 1);
    assert_int_equal(krt_get_material(c, mat, &md, &err), KILN_OK);
    krt_handle tex = md.textures[KILN_MATERIAL_SLOT_BASE_COLOR];
    assert_int_not_equal(tex.id, old_tex.id);
    assert_int_equal(krt_state_of(c, tex), KRT_STATE_READY);
    assert_ptr_equal(rec.last_base_gpu, krt_gpu(c, tex));
    assert_int_equal(stats(c).live_assets, 2);

    krt_release(c, mat, &err);
    krt_finish(c);
    assert_int_equal(rec.live, 0);
    krt_destroy(c);
    pthread_mutex_destroy(&jobs.mu);
    point_material9_at(8);
    (void)state;
}

/* The folder stamp is trusted only when equal in every field and not racy: a stamp whose mtime
 * lay within KRT_RACY_NS of the clock of the check that took it may hide a rename made in the
 * same kernel tick right after that check, so the records are checked again. */
static void a_folder_stamp_is_trusted_only_when_settled(void **state)
{
    const int64_t s = 1000000000ll;
    krt_dir_stamp seen = {.mtime_ns = 1000 * s,
                          .ctime_ns = 1000 * s,
                          .ino = 7,
                          .dev = 1,
                          .size = 4096,
                          .clock_ns = 1010 * s,
                          .valid = true};
    krt_dir_stamp now = seen;
    now.clock_ns = 1020 * s;
    assert_true(krt_dir_stamp_unchanged(&seen, &now));
    now.ctime_ns++; /* a rename with the mtime set back */
    assert_false(krt_dir_stamp_unchanged(&seen, &now));
    now = seen;
    now.mtime_ns++;
    assert_false(krt_dir_stamp_unchanged(&seen, &now));
    now = seen;
    now.ino++;
    assert_false(krt_dir_stamp_unchanged(&seen, &now));
    now = seen;
    now.size += 4096;
    assert_false(krt_dir_stamp_unchanged(&seen, &now));
    now = seen;
    now.valid = false;
    assert_false(krt_dir_stamp_unchanged(&seen, &now));
    /* racy: changed 1 ms (or 1.9 s) before the check that saw it, however late `now` is */
    now = seen;
    now.clock_ns = 2000 * s;
    seen.clock_ns = seen.mtime_ns + 1000000;
    assert_false(krt_dir_stamp_unchanged(&seen, &now));
    seen.clock_ns = seen.mtime_ns + KRT_RACY_NS - 1;
    assert_false(krt_dir_stamp_unchanged(&seen, &now));
    seen.clock_ns = seen.mtime_ns; /* or in the same tick */
    assert_false(krt_dir_stamp_unchanged(&seen, &now));
    /* the same folder seen again by a later check: trusted from then on */
    seen.clock_ns = seen.mtime_ns + KRT_RACY_NS + 1;
    assert_true(krt_dir_stamp_unchanged(&seen, &now));
    (void)state;
}

/* Entries of a folder (not . and ..); -1 when it cannot be read. */
static int folder_entries(const char *path)
{
    DIR *d = opendir(path);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
    closedir(d);
    return n;
}

/* Without the watcher a poll that finds nothing changed stats the cache's assets/ folder once
 * and no record; a record replaced long ago (the folder's mtime set back as it was: only its
 * ctime moved) is found; a record renamed in right after a poll is found by the next poll. */
static void a_quiet_poll_stats_only_the_folder(void **state)
{
    char *adir = kt_format("%s/assets", g.cache);
    char *backdate = kt_format("touch -d '2020-01-01 00:00:00' '%s'", adir);
    assert_int_equal(kt_run(backdate, NULL), 0); /* settled: older than the racy window */
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec, 0);
    kiln_error err;
    krt_handle tex = rt_load_ready(c, KRT_TYPE_TEXTURE, tex_name);
    uint32_t w0 = texture_width(c, tex);
    size_t n = 99;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
        assert_int_equal(n, 0);
        assert_int_equal(stats(c).poll_stats, 1); /* the folder, no record */
    }

    /* the box's record as it is now, kept outside the cache */
    char *out = NULL;
    char *cmd = kt_format("grep -l 'm0/BoxTextured.gltf' '%s'/*.json", adir);
    assert_int_equal(kt_run(cmd, &out), 0);
    free(cmd);
    char *nl = strchr(out, '\n');
    if (nl) *nl = 0;
    char *record = kt_format("%s", out);
    free(out);
    char *saved = kt_format("%s/saved-record.json", g.cache);
    cmd = kt_format("cp '%s' '%s'", record, saved);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);

    /* replaced long ago: the import renames records in, then the folder's mtime goes back */
    change_texture(w0 == 512 ? "gltf/BoxTextured/glTF/CesiumLogoFlat.png"
                             : "gltf/TextureSettingsTest/glTF/CheckAndX.png");
    assert_int_equal(kt_run(backdate, NULL), 0);
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 1);
    assert_int_equal(stats(c).poll_stats, 1 + folder_entries(adir)); /* every record looked at */
    krt_finish(c);
    assert_int_not_equal(texture_width(c, tex), w0);
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 0);
    assert_int_equal(stats(c).poll_stats, 1);

    /* right after a poll: the old record renamed back in (as kiln publishes one) */
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(rename(saved, record), 0);
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    assert_int_equal(n, 1);
    krt_finish(c);
    assert_int_equal(texture_width(c, tex), w0);

    krt_release(c, tex, &err);
    krt_finish(c);
    assert_int_equal(rec.live, 0);
    krt_destroy(c);
    free(saved);
    free(record);
    free(backdate);
    free(adir);
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_texture_reloads_into_its_handle_and_rebuilds_its_material),
        cmocka_unit_test(the_watcher_flags_changes_for_the_poll),
        cmocka_unit_test(a_kept_asset_whose_file_changed_is_evicted),
        cmocka_unit_test(a_poll_compares_only_what_changed),
        cmocka_unit_test(a_texture_reload_rebuilds_exactly_its_materials),
        cmocka_unit_test(a_failed_texture_fails_exactly_its_materials),
        cmocka_unit_test(unmount_removes_the_watch),
        cmocka_unit_test(drop_cpu_after_upload),
        cmocka_unit_test(krt_update_looks_only_at_what_changed),
        cmocka_unit_test(a_reload_waiting_for_a_new_texture_is_parked),
        cmocka_unit_test(a_folder_stamp_is_trusted_only_when_settled),
        cmocka_unit_test(a_quiet_poll_stats_only_the_folder),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
