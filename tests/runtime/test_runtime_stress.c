/* test_runtime_stress.c — 4 threads load and release random artifacts of cooked models (and
 * two cooked shaders written into the same cache) while
 * the main thread runs krt_update and krt_poll_changes, with a small budget (released assets kept,
 * revived, evicted), forced reloads, one model read from a mounted Zstandard pack and one from
 * a raw pack that is unmounted, mounted again and replaced by rename meanwhile; run under
 * ThreadSanitizer by `make test` (label threaded). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kiln/kiln.h"
#include "rt_fixture.h"
#include "runtime/rt_mount.h"
#include "shader_fixture.h"
#include "support.h"

typedef struct worker_arg {
    krt_context *ctx;
    const krt_mounts *m;
    unsigned seed;
    int iterations;
    atomic_int *done;
    atomic_int *enough; /* the renderer thread saw reloads, revivals and evictions */
} worker_arg;

static void *worker(void *p)
{
    worker_arg *w = p;
    krt_handle held[8] = {{0}};
    /* At least `iterations`; more (up to 10 times) until every kind of event happened: how
     * far the renderer thread gets meanwhile depends on the machine's load. */
    for (int i = 0; i < w->iterations || (i < 10 * w->iterations && !atomic_load(w->enough)); i++) {
        w->seed = w->seed * 1103515245u + 12345u;
        size_t k = (w->seed >> 8) % w->m->count, slot = (w->seed >> 20) % 8;
        if (held[slot].id) {
            kiln_error e;
            if (krt_release(w->ctx, held[slot], &e) != KILN_OK) fail_msg("release: %s", e.message);
            held[slot].id = 0;
        }
        kiln_error e;
        held[slot] = krt_load(w->ctx, (krt_type)w->m->items[k].type, w->m->items[k].name, &e);
        if (!held[slot].id) fail_msg("load %s: %s", w->m->items[k].name, e.message);
        (void)krt_state_of(w->ctx, held[slot]);
        /* now and then a forced hot reload of another held asset (refused unless ready) */
        size_t other = (w->seed >> 12) % 8;
        if ((w->seed >> 4) % 4 == 0 && held[other].id) (void)krt_reload(w->ctx, held[other], NULL);
    }
    for (int s = 0; s < 8; s++)
        if (held[s].id) krt_release(w->ctx, held[s], NULL);
    atomic_fetch_add(w->done, 1);
    return NULL;
}

typedef struct mounter_arg {
    krt_context *ctx;
    const char *pack, *swap; /* the raw pack; a command that renames a copy over it */
    atomic_int *done;
} mounter_arg;

/* Unmounts the raw pack and mounts it again, and now and then replaces its file by rename (the
 * next poll maps the new one), until the workers are done. */
static void *mounter(void *p)
{
    mounter_arg *a = p;
    kiln_error e;
    for (int i = 0; atomic_load(a->done) < 4; i++) {
        struct timespec ts = {0, 25000000}; /* rarely enough that the renderer thread gets on */
        nanosleep(&ts, NULL);
        if (krt_unmount(a->ctx, a->pack, &e) != KILN_OK) fail_msg("unmount: %s", e.message);
        if (krt_mount_pack(a->ctx, a->pack, NULL, &e) != KILN_OK) fail_msg("mount: %s", e.message);
        if (i % 3 == 0 && kt_run(a->swap, NULL) != 0) fail_msg("cannot replace the pack");
    }
    return NULL;
}

/* Packs one model so that its artifacts load from a mapped pack. */
static char *pack_one_model(const char *dir, const char *model, const char *name, uint32_t compress)
{
    char *out = kt_format("%s/.kiln/%s", dir, name);
    char *src = kt_format("%s/assets/%s", dir, model);
    kiln_project_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.project_dir = dir;
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
    const char *const assets[] = {src};
    kiln_result r = kiln_project_pack(p, assets, 1, 0, &po, &doc, &err);
    if (r) fprintf(stderr, "pack: %s\n", err.message);
    assert_int_equal(r, KILN_OK);
    kiln_string_free(doc);
    kiln_project_close(p);
    free(src);
    return out;
}

static void test_stress(void **state)
{
    static const char *const models[] = {"gltf/BoxTextured/glTF", "gltf/CesiumMan/glTF",
                                         "gltf/AnimatedMorphCube/glTF"};
    char *dir = rt_cook_project(models, 3);
    /* The models' images as textures of their own too (large ones, loaded and released alone):
     * what fills the small budget below so that released assets are evicted. */
    char *config = kt_format("%s/kiln.json", dir);
    const char *standalone = "{\"standalone_model_images\": true}";
    kt_write_file(config, standalone, strlen(standalone));
    free(config);
    rt_reimport(dir);
    char *cache = kt_format("%s/.kiln/cache", dir);
    /* two shaders among the artifacts (the fixture's, one and two variants): loaded, reloaded,
     * kept and evicted with the rest, create_shader / replace_shader / destroy_shader */
    for (int compute = 0; compute < 2; compute++) {
        size_t size;
        uint8_t *bytes = kt_shader_bytes(compute, &size);
        assert_non_null(bytes);
        rt_write_artifact(
            cache,
            compute ? "c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0" : "5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e",
            compute ? "shaders/blur.comp" : "shaders/pbr.vert", "shader", bytes, size);
        free(bytes);
    }
    krt_mounts m;
    kiln_allocator al = {0};
    kiln_error err;
    assert_int_equal(krt_mounts_read_cache(cache, &al, &m, &err), KILN_OK);
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 3;
    d.queue_capacity = 4; /* small: some loads run inline */
    d.renderer = rt_recorder_renderer(&rec);
    d.renderer_shaders = rt_recorder_shaders();
    d.budget_bytes = 256 * 1024; /* small: released assets are kept, revived and evicted */
    krt_context *c;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, cache, NULL, &err), KILN_OK);
    char *pack = pack_one_model(dir, "m1/CesiumMan.gltf", "man.kpak", KILN_PACK_COMPRESS_ZSTD);
    size_t packed = 0;
    assert_int_equal(krt_mount_pack(c, pack, &packed, &err), KILN_OK); /* overrides CesiumMan */
    assert_true(packed > 5);
    free(pack);
    /* and the box in a raw one (used in place) that a fifth thread unmounts, mounts again,
     * and replaces by rename while the workers load: retired mappings must outlive their users */
    char *raw = pack_one_model(dir, "m0/BoxTextured.gltf", "box-raw.kpak", KILN_PACK_COMPRESS_NONE);
    char *raw_tmp = kt_format("%s.tmp", raw);
    char *swap = kt_format("cp '%s' '%s' && mv '%s' '%s'", raw, raw_tmp, raw_tmp, raw);
    assert_int_equal(krt_mount_pack(c, raw, NULL, &err), KILN_OK);
    pthread_t t[4];
    worker_arg w[4];
    atomic_int done, enough;
    atomic_init(&done, 0);
    atomic_init(&enough, 0);
    mounter_arg ma = {c, raw, swap, &done};
    pthread_t mt;
    assert_int_equal(pthread_create(&mt, NULL, mounter, &ma), 0);
    for (int i = 0; i < 4; i++) {
        w[i] = (worker_arg){c, &m, 1234u + (unsigned)i * 77u, 400, &done, &enough};
        assert_int_equal(pthread_create(&t[i], NULL, worker, &w[i]), 0);
    }
    for (unsigned i = 0; atomic_load(&done) < 4; i++) { /* the renderer thread, all along */
        krt_update(c);
        if (i % 16 == 0) {
            assert_int_equal(krt_poll_changes(c, NULL, &err), KILN_OK);
            krt_stats now = {.struct_size = sizeof now};
            krt_get_stats(c, &now);
            if (now.revivals && now.evictions && now.reloads) atomic_store(&enough, 1);
        }
    }
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    pthread_join(mt, NULL);
    krt_finish(c);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    assert_int_equal(st.live_assets, 0);
    assert_int_equal(rec.live, 0);
    const krt_gpu_material *recs;
    size_t nrec;
    krt_material_table(c, &recs, &nrec, NULL);
    assert_true(nrec > 0);
    for (size_t i = 0; i < nrec; i++) assert_int_equal(recs[i].flags, 0); /* every one freed */
    assert_true(st.loads > 0);
    assert_true(rec.creates[KRT_TYPE_SHADER] > 0);
    assert_int_equal(rec.creates[KRT_TYPE_SHADER], rec.destroys[KRT_TYPE_SHADER]);
    fprintf(stderr, "loads %llu revivals %llu evictions %llu reloads %llu\n",
            (unsigned long long)st.loads, (unsigned long long)st.revivals,
            (unsigned long long)st.evictions, (unsigned long long)st.reloads);
    assert_true(st.revivals > 0 && st.evictions > 0 && st.reloads > 0);

    krt_destroy(c);
    free(raw);
    free(raw_tmp);
    free(swap);
    krt_mounts_free(&m);
    kt_rmtree(dir);
    free(dir);
    free(cache);
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_stress)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
